"""Write outputs all-or-nothing: a failed or killed build never leaves a half-written file or
loses the last good one.

Every file of a command (all games) is first written to a temporary file beside its target;
only when all of them are on disk are they renamed over the targets. A file whose bytes did not
change is not touched (same mtime), so printers' and viewers' "file changed" stay quiet.
Temporary files left by a killed build are removed by the next one, and a lock file keeps two
builds from writing the same folder at once.
"""

from __future__ import annotations

import errno
import fcntl
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Collection, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from pnpgen.atomic import TEMPORARY, TMP_SUFFIX, move_without_replacing, replace_whole
from pnpgen.errors import STOPPING_SIGNALS, InputError
from pnpgen.pdf.assemble import PdfFile

LOCK_NAME = ".pnpgen.lock"
MARKER_NAME = ".pnpgen-output"  # in every output folder pnpgen writes: its files are pnpgen's to replace
RECORDS = (".cache", ".history", ".pnpgen-trash")  # an output folder's records (engine/cache.py, history.py, trash.py)
OWNER = ".cache/workspace"  # the workspace whose commands write the output folder: its path, one line
MARKER_TEXT = (b"This folder is written by pnpgen (build and export output). pnpgen replaces and removes\n"
               b"the files it wrote here; anything else in it is left alone.\n")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write one file atomically (temp file beside it, then rename)."""
    write_all({path: data})


def write_new_only(path: Path, data: bytes) -> bool:
    """``data`` written whole to ``path`` while nothing stands there, else False and nothing
    written: a file looked for first can appear before a rename, which would replace it; the
    finished temporary file is linked to the name instead, which fails where one is
    (``move_without_replacing``), and a signal or a crash leaves no temporary file behind."""
    make_folder(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    except OSError as e:
        raise unwritable(path.parent, e) from None
    try:
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o666 & ~current_umask())
        except OSError as e:  # (a full disk)
            raise unwritable(path.parent, e) from None
        if move_without_replacing(Path(tmp), path):
            return True
        if os.path.lexists(path):
            return False
        raise unwritable(path.parent, OSError(errno.EIO, os.strerror(errno.EIO)))
    finally:
        Path(tmp).unlink(missing_ok=True)


def unchanged(path: Path, data: bytes | PdfFile) -> bool:
    if isinstance(data, PdfFile):
        return data.same_as(path)
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def refuse_strangers(wrote: Collection[str], files: Mapping[str, bytes | PdfFile], out_dir: Path, run: str) -> None:
    """Stop a ``run`` (``build``, ``export``: exit 2, nothing written) when a file stands where it
    writes one (``files``, by their names in ``out_dir``) under a name the last run did not write
    (``wrote``), holding other bytes: pnpgen replaces only what it wrote, whatever the name."""
    theirs = [rel for rel, data in sorted(files.items()) if rel not in wrote and _stands_apart(out_dir / rel, data)]
    if theirs:
        others = f" (and {len(theirs) - 1} more: {', '.join(theirs[1:4])}{'…' if len(theirs) > 4 else ''})" \
            if len(theirs) > 1 else ""
        raise InputError(f"not a file pnpgen wrote ({_what_stands(out_dir / theirs[0])}), "
                         f"where this {run} writes one{others}: kept as it is, nothing written", path=out_dir / theirs[0],
                         expected=f"{theirs[0]} renamed or moved out of {out_dir}/ (or removed, if it can go), then "
                         f"the same {run} again; or the {run} written elsewhere, --out DIR")


def _what_stands(path: Path) -> str:
    return "a link" if path.is_symlink() else "yours" if path.is_file() else "a pipe or a device"


def _stands_apart(path: Path, data: bytes | PdfFile) -> bool:
    """Something stands at ``path`` that is not the bytes to write there: a link, a pipe or a
    device (never read: a FIFO would hang the read), or a file of other bytes; a folder is the
    commit's to refuse, in its own words."""
    try:
        st = path.lstat()
    except OSError:
        return False
    if stat.S_ISDIR(st.st_mode):
        return False
    return not stat.S_ISREG(st.st_mode) or not unchanged(path, data)


def write_all(files: dict[Path, bytes]) -> list[Path]:
    """Write every file or none; returns the paths whose content changed."""
    todo = {p: d for p, d in files.items() if not unchanged(p, d)}
    temps: dict[Path, str] = {}
    made: set[Path] = set()
    try:
        for path, data in sorted(todo.items()):
            if path.parent not in made:
                make_folder(path.parent)
                made.add(path.parent)
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
            except OSError as e:
                raise unwritable(path.parent, e) from None
            temps[path] = tmp
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o666 & ~current_umask())
        with signals_deferred():  # the renames run to the end: never half old, half new files
            for path, tmp in sorted(temps.items()):
                os.replace(tmp, path)
    except BaseException:
        for tmp in temps.values():
            Path(tmp).unlink(missing_ok=True)
        raise
    return sorted(todo)


@contextmanager
def signals_deferred():
    """Hold back Ctrl-C, SIGTERM and SIGHUP while files are being renamed into place, then act on
    them as the command's handler does (cli.py: the command stops, its transaction rolled back);
    only the main thread can, so elsewhere this does nothing (a kill -9 cannot be held back: the
    journal finishes its work on the next run)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {s: signal.signal(s, lambda n, f: caught.append(n)) for s in STOPPING_SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if signal.SIGINT in caught:
        raise KeyboardInterrupt
    for s in dict.fromkeys(caught):  # (sent again: the command's handler, or the system's default)
        os.kill(os.getpid(), s)


def make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InputError(f"cannot create the output folder {folder}: a file stands in its way",
                         path=folder, key="--out", expected="a folder path (or remove that file)") from None
    except OSError as e:
        raise unwritable(folder, e) from None


def no_folder(folder: Path, key: str | None = "--out") -> InputError | None:
    """The error a build meets writing into ``folder`` where a file, a pipe or a device stands
    (``unwritable``'s words), for ``pnpgen check`` to say before a build does; None otherwise."""
    try:
        if folder.is_symlink() or not folder.exists() or folder.is_dir():
            return None
    except OSError:
        return None
    return InputError(f"cannot write to {folder}: it is no folder (a file, a pipe or a device)", key=key,
                      expected="a folder path (or remove what stands there); nothing was replaced")


def unwritable(folder: Path, e: OSError) -> InputError:
    there = Path(e.filename) if isinstance(e.filename, str) else folder
    if e.errno == errno.EEXIST and (there.is_symlink() or (there.exists() and not there.is_dir())):
        # mkdir of a folder where a dangling link, a pipe or a file stands ('File exists' said none of it)
        what = (f"a link to {os.readlink(there)}, which is not there" if there.is_symlink() and not there.exists()
                else "a link to no folder" if there.is_symlink() else "no folder (a file, a pipe or a device)")
        return InputError(f"cannot write to {there}: it is {what}", path=there, key="--out",
                          expected="a folder path (or remove what stands there); nothing was replaced")
    if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):  # a full disk, a quota, a limit on file sizes
        return InputError(f"cannot write to {folder}: {e.strerror}", path=folder, key="--out",
                          expected="room on the disk for the outputs (or a folder on another disk); "
                                   "nothing was replaced")
    return InputError(f"cannot write to {folder}: {e.strerror}", path=folder, key="--out",
                      expected="a folder you may write to")


# the flags that keep a file from being replaced or removed, whoever asks: macOS's (Finder's
# Get Info ▸ Locked is uchg) in st_flags, Linux's (chattr +i, +a) read by FS_IOC_GETFLAGS
BSD_LOCKED = stat.UF_IMMUTABLE | stat.UF_APPEND | stat.SF_IMMUTABLE | stat.SF_APPEND
FS_IOC_GETFLAGS, LINUX_LOCKED = 0x80086601, 0x10 | 0x20  # FS_IMMUTABLE_FL, FS_APPEND_FL


def locked(path: Path) -> bool:
    """Whether ``path`` is a plain file the system will not let be replaced or removed (a PDF
    the designer locked): found before the commit, not halfway through its renames."""
    try:
        st = path.lstat()
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    bsd_flags = getattr(st, "st_flags", None)  # (macOS, the BSDs)
    if bsd_flags is not None:
        return bool(bsd_flags & BSD_LOCKED)
    if not sys.platform.startswith("linux"):
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        flags = bytearray(8)
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags)
    except OSError:  # a file system without such flags
        return False
    finally:
        os.close(fd)
    return bool(int.from_bytes(flags[:4], sys.byteorder) & LINUX_LOCKED)


def home_folder() -> Path | None:
    """The user's home folder, resolved; None when there is none (HOME unset and no user entry for
    this uid, as in a container run with ``-u 12345``: ``Path.home()`` raises there)."""
    try:
        return Path.home().resolve()
    except (OSError, RuntimeError, KeyError):
        return None


def claim(folder: Path, inputs: Sequence[Path] = (), workspace: Path | None = None) -> None:
    """Refuse an output folder that is not pnpgen's to write: ``/``, the home folder itself, a
    folder inside one of ``inputs`` (the workspace's data/, templates/ …: outputs and a cache among
    the designer's files) or holding one (the workspace's own folder, even one an older pnpgen
    left a lock in), or a folder holding files unless it is already a pnpgen output folder
    (its marker file, or the lock file every earlier build left), or one another ``workspace``
    writes (``refuse_other_workspace``). An empty or missing folder is claimed by the first build
    or export, which writes the marker."""
    try:
        where = folder.resolve()
        kept = next((f for f in inputs if where == f.resolve() or f.resolve() in where.parents), None)
    except (OSError, RuntimeError):
        return  # an unusable path: the write says so in its own words
    home = home_folder()  # (none: HOME unset and no user entry, as in a container; the other checks still hold)
    if kept is not None:
        raise InputError(f"{folder} is inside the workspace's {kept.name}/, where the game's own files are",
                         key="--out", expected="a folder of its own, e.g. --out build or --out ~/pnp/build")
    if where == Path(where.anchor) or where == home:
        raise InputError(f"{folder} is {'the home folder' if where == home else 'the root of the disk'}, "
                         "not an output folder", key="--out",
                         expected="a folder of its own, e.g. --out build or --out ~/pnp/build")
    holds = next((f for f in inputs if where in f.resolve().parents), None)
    if holds is not None:  # the workspace itself: a game's folder of outputs would be beside (or be) data/, fonts/ …
        raise InputError(f"{folder} holds the workspace's {holds.name}/", key="--out",
                         expected="a folder of its own, e.g. --out build or --out ~/pnp/build")
    builds = {f.resolve().parent / "build" for f in inputs}  # (the workspace's own, made or not yet)
    records = next((a for a in (where, *where.parents) if a.name in RECORDS
                    and (a.parent in builds or is_output_folder(a.parent))), None)
    if records is not None:  # (check --svg --out build/.cache: the next build refused build/, ".cache… not pnpgen's")
        raise InputError(f"{folder} is {'' if records == where else 'inside '}{records.name}/ of {records.parent}, "
                         "where an output folder keeps its records", key="--out",
                         expected=f"a folder of its own, e.g. --out {records.parent} or --out ~/pnp/build")
    if workspace is not None:
        refuse_other_workspace(folder, workspace)
    if not where.is_dir() or is_output_folder(where):
        return
    try:
        foreign = next(iter(sorted(where.iterdir())), None)
    except OSError:
        return
    if foreign is not None:
        raise InputError(f"{folder} holds files pnpgen did not write ({foreign.name}…), so it is not an "
                         "output folder", key="--out",
                         expected="an empty or new folder, or one pnpgen built into before")


def is_output_folder(folder: Path) -> bool:
    """Has pnpgen written into ``folder``: its marker, or the lock file every earlier build left?
    Only such a folder is pnpgen's to write in and to clean."""
    return any((folder / name).is_file() and not (folder / name).is_symlink() for name in (MARKER_NAME, LOCK_NAME))


def mark_now(folder: Path) -> None:
    """Make ``folder`` (already ``claim``ed) an output folder before a build starts: the cache
    entries a build writes as it makes them (pictures' streams, converted faces) then go to disk
    at once instead of being held to the end, and a first build that fails leaves an output
    folder the next build takes. A folder that cannot take it is the one-line --out error."""
    marker = folder / MARKER_NAME
    if marker.is_file():
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        replace_whole(marker, MARKER_TEXT)
    except OSError as e:
        raise unwritable(folder, e) from None


def mark(folder: Path, workspace: Path | None = None) -> dict[Path, bytes]:
    """The marker file that makes ``folder`` a pnpgen output folder, and the record of the
    ``workspace`` that writes it (``refuse_other_workspace``), to write with the outputs."""
    owner = {} if workspace is None else {folder / OWNER: os.fsencode(str(workspace.resolve())) + b"\n"}
    return {folder / MARKER_NAME: MARKER_TEXT} | owner


def owner_of(folder: Path) -> Path | None:
    """The workspace ``folder``'s record (``OWNER``) names; None without a plain file of one
    absolute path there (never read through a link, nor a pipe's)."""
    path = folder / OWNER
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4096 or (folder / ".cache").is_symlink():
            return None
        text = os.fsdecode(path.read_bytes().rstrip(b"\n"))
    except (OSError, UnicodeError):
        return None
    return Path(text) if os.path.isabs(text) and "\0" not in text and "\n" not in text else None


def refuse_other_workspace(folder: Path, workspace: Path) -> None:
    """Stop a command of ``workspace`` writing (or cleaning) ``folder`` when another workspace's
    commands write it: two workspaces built into one ``--out`` replaced each other's games (both
    ``build/test/``), mixed their versions in .history/ and cleaned each other's files. The folder
    is this workspace's when it lies inside it (a copied workspace's own build/ names the
    original), or when the workspace it names is gone (moved, renamed, deleted)."""
    try:
        where, here = folder.resolve(), workspace.resolve()
    except (OSError, RuntimeError):
        return
    owner = owner_of(where)
    if owner is None or owner == here or here in where.parents or not (owner / "data").is_dir():
        return
    raise InputError(f"{folder} is the output folder of another workspace, {owner}, whose games' files and recorded "
                     "versions it holds: nothing is written or removed there from this one", key="--out",
                     expected=f"another --out for this workspace (build, the default, or a folder of its own), "
                     f"or the command run in {owner}")


def named(path: Path) -> str:
    """``path`` as the designer sees it: relative to the current folder when below it."""
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def inside(root: Path, rel: str) -> Path | None:
    """``root/rel`` when ``rel`` is a plain relative path (no '..', not absolute, no empty or '.'
    part, no NUL) whose folders below ``root`` are real folders, not links; else None. The only
    way a path read from a record (a cache state, export.json) becomes a file pnpgen may delete."""
    if not isinstance(rel, str) or not rel or "\0" in rel or "\\" in rel or rel.startswith("/"):
        return None
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            return None
    return root.joinpath(*parts)


def remove_stray_temps(folders: list[Path], root: Path | None = None) -> int:
    """Delete temporary files a killed build left below ``folders`` (the ones pnpgen writes in:
    never the whole --out, which may be a folder as large as ``/``) and, in the output folder
    ``root`` itself, its marker's (``mark_now``); returns how many. Run under the build lock,
    when no other build of this folder is writing its own."""
    n = 0
    for folder in folders:
        if folder.is_dir():
            for tmp in folder.rglob(f"*{TMP_SUFFIX}"):
                if TEMPORARY.fullmatch(tmp.name):  # (a file of the designer's so named is not pnpgen's)
                    tmp.unlink(missing_ok=True)
                    n += 1
    if root is not None and root.is_dir():
        for tmp in root.glob(f"{MARKER_NAME}.*{TMP_SUFFIX}"):
            tmp.unlink(missing_ok=True)
            n += 1
    return n


@contextmanager
def build_lock(folder: Path, wait: bool = True):
    """Hold ``folder``'s build lock: a second build waits for the first (or, with wait=False,
    stops with a clear message)."""
    make_folder(folder)
    path = folder / LOCK_NAME
    try:  # never through a link (it would make a file wherever it leads), never a pipe's or a device's
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    except OSError as e:  # a folder that is no place for files (/proc/self) or not ours to write
        if e.errno in (errno.ELOOP, errno.EISDIR) or path.is_symlink():
            raise _not_a_lock(path, "a link" if path.is_symlink() else "a folder") from None
        raise unwritable(folder, e) from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise _not_a_lock(path, "not a plain file (a pipe or a device)")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise InputError(f"another pnpgen build is writing {folder}", path=folder,
                             expected="wait for it to finish, or build into another --out") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        os.close(handle)


def _not_a_lock(path: Path, what: str) -> InputError:
    return InputError(f"{path} is {what}, where pnpgen keeps the folder's lock file", path=path.parent, key="--out",
                      expected=f"remove {path.name} (pnpgen makes it again as a plain file); nothing was replaced")


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
