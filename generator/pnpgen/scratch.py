"""The system's temporary folder (``TMPDIR``, ``TEMP``, ``TMP``), where pnpgen's preflight keeps
its pages' separations, a fault's report goes, and the programs pnpgen runs (Ghostscript, Chromium)
keep their scratch files: never one of the workspace's folders or the output folder. One there
(``TMPDIR=$PWD/data/tmp``) had preflight's folder of separations appear in ``data/`` while it ran,
among the game's files, for ``watch`` to see and a build to list; refused, as a machine cache
there is (usercache.refuse_inside)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from pnpgen.errors import InputError

NAMED_BY = ("TMPDIR", "TEMP", "TMP")  # what Python (and the programs it runs) read, in this order


def refuse_inside(folders: Iterable[tuple[Path, str]]) -> None:
    """The temporary folder, when one of ``folders`` (each with what it is: "the workspace") holds
    it: refused, naming the variable and where to put it instead."""
    named_by = next((name for name in NAMED_BY if os.environ.get(name)), None)
    if named_by is None:
        return  # the system's own (/tmp): no workspace's
    try:  # (as named, not tempfile.gettempdir(), which keeps what it first found for the process)
        real = Path(os.environ[named_by]).resolve()
    except (OSError, RuntimeError, ValueError):
        return
    for where, what in folders:
        with contextlib.suppress(OSError, RuntimeError):
            if real.is_relative_to(where.resolve()):
                raise InputError(f"{named_by} puts the temporary files of pnpgen and of the programs it runs ({real}) "
                                 f"inside {what} ({where}): they would appear among the game's files while it runs",
                                 expected=f"{named_by} naming a folder outside the workspace and the output folder, "
                                          f"or unset ({named_by}= pnpgen …) for the system's own")
