"""Writing one file so that a reader (or a killed run) never finds it half-written: the bytes go
to a temporary file beside it, which then replaces it (``store``; ``Stores`` on a thread). The one place the temporary files' suffix
is named: the engine removes files with it that a killed run left (engine/output.py)."""

from __future__ import annotations

import errno
import os
import queue
import re
import stat
import threading
from collections.abc import Callable
from pathlib import Path

from pnpgen.patterns import later

TMP_SUFFIX = ".pnpgen-tmp"
# the names pnpgen gives its temporary files: ``tmp_beside``'s (<name>.<pid>-<thread>.pnpgen-tmp) and
# a mkstemp's (.<name>.<random>.pnpgen-tmp, engine/output.py); a designer's own notes.pnpgen-tmp is neither
TEMPORARY = later(r"(?:.+\.[0-9a-f]+-[0-9a-f]+|\..+\.[A-Za-z0-9_]+)" + re.escape(TMP_SUFFIX))


def tmp_beside(path: Path) -> Path:
    """The temporary file ``path`` is written to before it replaces ``path``: named for this
    process and thread, so two builds (``--jobs 2``'s workers) writing the same file never
    write or rename each other's temporary file."""
    return path.with_name(f"{path.name}.{os.getpid():x}-{threading.get_ident():x}{TMP_SUFFIX}")


def still_running(pid: int) -> bool:
    """Is process ``pid`` (the writer a temporary file is named for) still running on this machine?
    Unknown where it cannot be asked (not POSIX, where ``os.kill`` would end the process), and this
    process: yes; a number no process can have: no. The machine cache and the trash leave a running
    writer's temporaries and remove a dead one's."""
    if os.name != "posix" or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, ValueError):
        return False  # (no process has such a number)
    except OSError:
        return True  # (someone else's: it exists)
    return True


MAX_RECORD = 256 << 20  # bytes: the largest record pnpgen keeps (a big deck's hashes and states are a few MB)


def move_without_replacing(src: Path, dst: Path) -> bool:
    """Move ``src`` to ``dst`` only while ``dst`` names nothing: a hard link, then the old name
    removed — a link fails where a rename would replace a file that took the name since it was
    looked at (the trash's entries, a spare put back). Where the disk has no hard links, a
    rename once ``dst`` is seen free. False, ``src`` left where it was, when it cannot move."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except FileExistsError:
        return False
    except OSError:
        if os.path.lexists(dst):
            return False
        try:
            os.rename(src, dst)
        except OSError:
            return False
        return True
    try:
        os.unlink(src)
    except OSError:
        pass  # (two names of one file: the staging folder's or the trash's goes with its folder)
    return True


ASIDE_SUFFIX = ".pnpgen-aside"  # a file pnpgen may replace, while it is looked at, moved off its name


def put_unless_theirs(path: Path, data: bytes, ours: Callable[[Path], bool]) -> bool:
    """``data`` put at ``path`` whole where nothing stands, or where what stands there is ``ours``
    (what pnpgen wrote there before: a calibration sheet, a preflight report); False, nothing
    written, where it is not. Looked at, then renamed over, a file that took the name in between
    would go (the designer's saved there meanwhile): a free name is taken by a link, which fails
    where anything stands, and the file replaced is first moved aside and looked at there, where
    nothing can take its place, then put back if it is not ours. An OSError where the file cannot
    be written."""
    tmp = tmp_beside(path)
    write_new(tmp, data)
    try:
        if move_without_replacing(tmp, path):
            return True
        if not ours(path):  # (the designer's file, a link, a folder: the common refusal, nothing moved)
            return False
        aside = path.with_name(f".{path.name}.{os.getpid()}{ASIDE_SUFFIX}")
        try:
            os.rename(path, aside)
        except FileNotFoundError:  # (gone since: the name is free)
            return move_without_replacing(tmp, path)
        replaced = False
        try:
            replaced = ours(aside) and move_without_replacing(tmp, path)
        finally:
            if replaced:
                aside.unlink(missing_ok=True)
            elif not move_without_replacing(aside, path):  # (another took the name since: two files, both kept)
                raise FileExistsError(errno.EEXIST, f"a file took its name as it was written; the one there before "
                                      f"is kept as {aside.name}", str(path))
        return replaced
    finally:
        tmp.unlink(missing_ok=True)


def read_record(path: Path, limit: int = MAX_RECORD) -> bytes:
    """The bytes of a record pnpgen wrote in an output folder (``.cache/``, its journal): only a
    regular file, opened without following a link or waiting on a FIFO, of at most ``limit``
    bytes; OSError otherwise, which every reader takes for a record that is not there. A build
    folder can come from elsewhere: a FIFO planted as ``build/.cache/<game>.json`` hung every
    build, a sparse 8 GB ``hashes/files.json`` asked for 8 GB of memory."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            raise OSError(f"{path.name} is not a record pnpgen wrote")
        # read by the descriptor, as much as the file holds: a buffered ``read(limit + 1)`` first
        # made a buffer of ``limit`` bytes (256 MB asked for, 20 µs a record: an edit of a
        # thousand cards reads a thousand faces)
        parts: list[bytes] = []
        left = limit + 1
        while left > 0 and (part := os.read(fd, min(left, st.st_size + 1))):
            parts.append(part)
            left -= len(part)
    finally:
        os.close(fd)
    data = b"".join(parts)
    if len(data) > limit:  # (grown since)
        raise OSError(f"{path.name} is not a record pnpgen wrote")
    return data


def write_new(path: Path, data: bytes, mode: int = 0o666) -> None:
    """``data`` in a file made anew at ``path``: whatever stood there goes first, and the new
    file is never opened through a link, so bytes written never land in a file that a link (a
    symlink, or a hard link from ``cp -al`` or a planted folder) shares with a place elsewhere."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    with os.fdopen(os.open(path, flags, mode), "wb") as f:
        f.write(data)


def replace_whole(path: Path, data: bytes) -> None:
    """``data`` put in place at ``path`` whole (``tmp_beside``, then a rename); its temporary
    removed whatever stops it (a full disk, Ctrl-C, SIGTERM), where a signal between the write and
    the rename left it beside a record (the trash's spares, a staging folder's seal, build/'s mark)."""
    tmp = tmp_beside(path)
    try:
        write_new(tmp, data)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise


def store(path: Path, data: bytes) -> bool:
    """``data`` written to ``path`` atomically; False when the folder cannot take it (nothing
    is left behind then)."""
    tmp = tmp_beside(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_new(tmp, data)
        os.replace(tmp, path)
        return True
    except BaseException as e:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        if isinstance(e, OSError):
            return False
        raise


class Stores:
    """Cache entries written by a thread of their own, in the order given, while the build goes on:
    creating a file costs a journal commit (about 0.8 ms on the 2-core machine's ext4), so a
    thousand illustrated cards' four thousand entries cost seconds written one by one in line.
    At most ``budget`` bytes wait at a time. ``join`` waits for them all and returns the entries
    that could not be written (the build then writes them with its own files, all or nothing).
    With ``beside`` False (``--jobs 1``: one core) each entry is written as it is given."""

    def __init__(self, budget: int = 64 * 2**20, beside: bool = True) -> None:
        self.budget, self.beside = budget, beside  # (beside: False writes each entry as it is given, no thread)
        self.pending: set[Path] = set()  # entries given and not yet written
        self._failed: dict[Path, bytes] = {}
        self._jobs: queue.Queue = queue.Queue()
        self._held = 0
        self._room = threading.Condition()
        self._thread: threading.Thread | None = None

    def put(self, path: Path, data: bytes, then: Callable[[], tuple[Path, bytes]] | None = None) -> None:
        """Write ``data`` at ``path`` (``store``); once written, ``then()`` names a second entry
        to write (e.g. a header that records the first file's size, time and inode)."""
        if not self.beside:
            self._write(path, data, then)
            return
        with self._room:
            while self._held > self.budget:
                self._room.wait()
            self._held += len(data)
            self.pending.add(path)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="pnpgen-stores", daemon=True)
            self._thread.start()
        self._jobs.put((path, data, then))

    def join(self) -> dict[Path, bytes]:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join()
            self._thread = None
        failed, self._failed = self._failed, {}
        return failed

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            path, data, then = job
            try:
                self._write(path, data, then)
            except BaseException:  # noqa: BLE001 - the build writes the entry itself then, and says what is wrong
                self._failed[path] = data
            finally:
                with self._room:
                    self._held -= len(data)
                    self.pending.discard(path)
                    self._room.notify_all()

    def _write(self, path: Path, data: bytes, then: Callable[[], tuple[Path, bytes]] | None) -> None:
        """One entry (and the one ``then`` names) written now; what could not be, kept for ``join``."""
        try:
            if not store(path, data):
                self._failed[path] = data
            elif then is not None:
                second, body = then()
                if not store(second, body):
                    self._failed[second] = body
        except Exception:  # noqa: BLE001 - the build writes the entry itself then, and says what is wrong
            self._failed[path] = data
