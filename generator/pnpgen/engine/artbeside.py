"""A cold build's art measured by a process forked while the inputs hash, not by the build's
process after: the second core's share of a big deck's serial start.

A cold build of a thousand illustrated cards begins on one core: its inputs hashed on threads (the
art, 250 MB) while the build's stages are imported, then ``load_game`` alone — and most of
``load_game`` is each card's picture opened to read its size from its header (some 0.12 CPU-s of
0.2, Pillow's import with it), which no earlier build in that output folder kept (docs/speed.md,
jobs48). The headers need nothing of the game: a process forked as the hashing begins measures
every raster picture of each game's ``art/`` (``artfile.measures_of_folder``) and hands the
measures back through a pipe (``Beside``); they are kept as this process's own
(``artfile.measured_beside``) before the games are loaded, so ``load_game`` opens none of them.
The measures are ``artfile.opened``'s own, by each file's stamp: the same sizes, the same files.
Where the process cannot be had or does not answer in full, nothing is kept and the build
measures each picture itself, as before. Only where the inputs hash on threads (a cold build of a
big deck, never ``--jobs 1``) and only in pnpgen's own process (commands.py).
"""

from __future__ import annotations

import marshal
from pathlib import Path

from pnpgen.data.artfile import measured_beside, measures_of_folder
from pnpgen.engine.beside import Beside


class ArtBeside:
    """The pictures under ``folders`` measured by a forked process; ``take`` keeps its measures
    (waiting for it), ``cancel`` lets it go unread (nothing to build)."""

    def __init__(self, folders: list[Path]) -> None:
        self._beside: Beside | None = Beside(lambda: marshal.dumps([measures_of_folder(f) for f in folders]),
                                             instead=lambda: b"")

    def take(self) -> int:
        """The process's measures kept as this process's (how many: none where it failed)."""
        beside, self._beside = self._beside, None
        if beside is None:
            return 0
        try:
            found = marshal.loads(beside.result() or marshal.dumps([]))
        except (EOFError, ValueError, TypeError):
            return 0
        return sum(measured_beside(measures) for measures in found if type(measures) is list) \
            if type(found) is list else 0

    def cancel(self) -> None:
        beside, self._beside = self._beside, None
        if beside is not None:
            beside.cancel()
