"""Write outputs all-or-nothing: a failed or killed build never leaves a half-written file or
loses the last good one.

Every file of a command (all games) is first written to a temporary file beside its target;
only when all of them are on disk are they renamed over the targets. A file whose bytes did not
change is not touched (same mtime), so printers' and viewers' "file changed" stay quiet.
Temporary files left by a killed build are removed by the next one, and a lock file keeps two
builds from writing the same folder at once.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from pnpgen.errors import InputError

TMP_SUFFIX = ".pnpgen-tmp"
# Tests of interrupted builds only: seconds to wait once every temporary file is written and
# before any is renamed, having said so on stderr, so a signal lands in the write phase.
PAUSE_ENV = "PNPGEN_TEST_PAUSE_BEFORE_RENAME"
LOCK_NAME = ".pnpgen.lock"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write one file atomically (temp file beside it, then rename)."""
    write_all({path: data})


def unchanged(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def write_all(files: dict[Path, bytes]) -> list[Path]:
    """Write every file or none; returns the paths whose content changed."""
    todo = {p: d for p, d in files.items() if not unchanged(p, d)}
    temps: dict[Path, str] = {}
    made: set[Path] = set()
    try:
        for path, data in sorted(todo.items()):
            if path.parent not in made:
                _make_dir(path.parent)
                made.add(path.parent)
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
            except OSError as e:
                raise _unwritable(path.parent, e) from None
            temps[path] = tmp
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o666 & ~_umask())
        _pause_for_tests()
        with _ctrl_c_deferred():  # the renames run to the end: never half old, half new files
            for path, tmp in sorted(temps.items()):
                os.replace(tmp, path)
    except BaseException:
        for tmp in temps.values():
            Path(tmp).unlink(missing_ok=True)
        raise
    return sorted(todo)


def _pause_for_tests() -> None:
    seconds = os.environ.get(PAUSE_ENV)
    if seconds:
        print(f"pnpgen: {PAUSE_ENV}: every temporary file written, none renamed", file=sys.stderr, flush=True)
        time.sleep(float(seconds))


@contextmanager
def _ctrl_c_deferred():
    """Hold back Ctrl-C (SIGINT) until the block is done, then act on it; only the main thread
    can, so elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[tuple] = []
    previous = signal.signal(signal.SIGINT, lambda *a: pressed.append(a))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


def _make_dir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InputError(f"cannot create the output folder {folder}: a file stands in its way",
                         path=folder, key="--out", expected="a folder path (or remove that file)") from None
    except OSError as e:
        raise _unwritable(folder, e) from None


def _unwritable(folder: Path, e: OSError) -> InputError:
    return InputError(f"cannot write to {folder}: {e.strerror}", path=folder, key="--out",
                      expected="a folder you may write to")


def remove_stray_temps(folders: list[Path]) -> int:
    """Delete temporary files a killed build left below ``folders`` (the ones pnpgen writes in:
    never the whole --out, which may be a folder as large as ``/``); returns how many."""
    n = 0
    for folder in folders:
        if folder.is_dir():
            for tmp in folder.rglob(f"*{TMP_SUFFIX}"):
                tmp.unlink(missing_ok=True)
                n += 1
    return n


@contextmanager
def build_lock(folder: Path, wait: bool = True):
    """Hold ``folder``'s build lock: a second build waits for the first (or, with wait=False,
    stops with a clear message)."""
    _make_dir(folder)
    try:
        lock = open(folder / LOCK_NAME, "a+b")
    except OSError as e:  # a folder that is no place for files (/proc/self) or not ours to write
        raise _unwritable(folder, e) from None
    with lock as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise InputError(f"another pnpgen build is writing {folder}", path=folder,
                             expected="wait for it to finish, or build into another --out") from None
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
