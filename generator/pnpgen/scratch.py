"""The system's temporary folder (``TMPDIR``, ``TEMP``, ``TMP``), where pnpgen's preflight keeps
its pages' separations, a fault's report goes, and the programs pnpgen runs (Ghostscript, Chromium)
keep their scratch files: never one of the workspace's folders or the output folder. One there
(``TMPDIR=$PWD/data/tmp``) had preflight's folder of separations appear in ``data/`` while it ran,
among the game's files, for ``watch`` to see and a build to list; refused, as a machine cache
there is (usercache.refuse_inside).

pnpgen's own folders there (an export's spilled files, preflight's separations: ``own_folder``)
go when their command ends, even on a signal; a process killed outright (``kill -9``, the kernel
out of memory) leaves its folder. The next command that makes one removes those left (``sweep``),
but only each provably pnpgen's and its process's gone: a marker file pnpgen wrote first into it,
naming its process and when that started (a process number is used again: the same number
started later is another), owned by this user; a folder merely named alike is never touched."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from pnpgen.errors import InputError

NAMED_BY = ("TMPDIR", "TEMP", "TMP")  # what Python (and the programs it runs) read, in this order
OWN_FOLDERS = ("pnpgen-export-", "pnpgen-preflight-")  # the folders pnpgen makes there (``own_folder``'s prefixes)
MARKER = ".pnpgen-scratch"  # in each, written first: {"pnpgen": "scratch", "pid", "started", "boot", "host"}
MAX_MARKER = 4096  # bytes: a marker is some 100


def refuse_inside(folders: Iterable[tuple[Path, str]]) -> None:
    """The temporary folder, when one of ``folders`` (each with what it is: "the workspace") holds
    it: refused, naming the variable and where to put it instead."""
    kept_from = list(folders)
    for named_by in NAMED_BY:  # each set: Python passes over one that names no folder it can write in
        if os.environ.get(named_by):  # (TMPDIR gone, TEMP in the workspace: TEMP used), and the programs it
            _refuse_inside(named_by, kept_from)  # runs may read another than the one Python takes


def _refuse_inside(named_by: str, folders: list[tuple[Path, str]]) -> None:
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


def own_folder(prefix: str) -> Path:
    """A new folder of this process's own in the system's temporary folder, marked as pnpgen's and
    this process's before anything goes in it; the folders a killed pnpgen left there removed first."""
    sweep()
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        fd = os.open(folder / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps({"pnpgen": "scratch", **_this_process()}).encode())
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def sweep(where: str | None = None) -> list[Path]:
    """Remove the folders of ``OWN_FOLDERS`` in the temporary folder (``where``) that a pnpgen
    process killed outright left: the ones removed. Each only where its marker proves it pnpgen's
    and its process gone; where that cannot be known (a marker missing, unreadable or another
    user's, a process of that number running and its start unknown), the folder stays."""
    removed: list[Path] = []
    try:
        with os.scandir(where or tempfile.gettempdir()) as entries:
            found = [Path(e.path) for e in entries if e.name.startswith(OWN_FOLDERS)]
    except OSError:
        return removed
    for folder in found:
        if _left_by_the_dead(folder):
            shutil.rmtree(folder, ignore_errors=True)  # (never through a link: rmtree removes a link inside, not its target)
            removed.append(folder)
    return removed


def _left_by_the_dead(folder: Path) -> bool:
    mine = os.getuid() if hasattr(os, "getuid") else None
    try:
        there = os.lstat(folder)
        if not stat.S_ISDIR(there.st_mode) or (mine is not None and there.st_uid != mine):
            return False  # (a link named alike, another user's folder)
        fd = os.open(folder / MARKER, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            held = os.fstat(f.fileno())
            if not stat.S_ISREG(held.st_mode) or (mine is not None and held.st_uid != mine):
                return False
            held_bytes = f.read(MAX_MARKER + 1)
        marker = json.loads(held_bytes) if len(held_bytes) <= MAX_MARKER else None
    except (OSError, ValueError):
        return False
    if (not isinstance(marker, dict) or marker.get("pnpgen") != "scratch" or type(marker.get("pid")) is not int
            or marker["pid"] <= 0 or marker.get("host") != _host()):
        return False  # (not pnpgen's marker, or another machine's process: a shared temporary folder)
    return _gone(marker)


def _this_process() -> dict:
    """What tells this process from a later one given its number: its start, and the boot it started in."""
    return {"pid": os.getpid(), "started": _started(os.getpid()), "boot": _boot(), "host": _host()}


def _gone(marker: dict) -> bool:
    """Has the process a marker names ended? Yes where no process has its number now, or the one
    that has it started at another time or in another boot; unknown (no) where that cannot be read."""
    pid, boot = marker["pid"], _boot()
    if boot is not None and isinstance(marker.get("boot"), str) and marker["boot"] != boot:
        return True  # (started before the machine last started)
    if pid != os.getpid():  # (this process has the number: it did, or one before it)
        if os.name != "posix":
            return False  # (os.kill would end a process there, not ask after it)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except (OverflowError, ValueError):
            return False
        except OSError:
            pass  # (a process of another user's has the number now)
    started = _started(pid)
    return started is not None and isinstance(marker.get("started"), int) and marker["started"] != started


def _started(pid: int) -> int | None:
    """When process ``pid`` started, in the system's ticks since it booted (Linux's /proc); else None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rpartition(b")")[2].split()  # (its name, in parentheses, may hold spaces)
        return int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


def _host() -> str:
    return os.uname().nodename if hasattr(os, "uname") else os.environ.get("COMPUTERNAME", "")


def _boot() -> str | None:
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read().strip() or None
    except (OSError, ValueError):
        return None
