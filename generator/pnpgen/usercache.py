"""pnpgen's cache on this machine, shared by every workspace: what costs time to work out again
from a file's content and depends on nothing else — a font's parsed tables (fonttables.py) and the
subsets of it the documents embed (pdf/embed.py), a
YAML file read with the position of every value (data/yamlsrc.py), a workbook's worksheet as its
rows (data/workbooks.py), a template as compiled, by its
name and text (faces/compiled.py: Jinja's bytecode — code the build runs, so it is kept here,
written by pnpgen alone, never in a workspace's ``build/.cache/``, which can come from
elsewhere in a zip), an index term's reading (rulebook/termindex.py), a
draft's slips of the pen (rulebook/grammar.py), a book's paragraphs' lines (rulebook/setlines.py),
pnpgen's own labels (messages/), a picture's print bytes as converted or resampled (data/artfile.py).

The folder is ``$PNPGEN_CACHE``, else ``$XDG_CACHE_HOME/pnpgen``, else ``~/.cache/pnpgen``;
``PNPGEN_CACHE=off``, or a relative path, keeps nothing; an absolute one inside the workspace or
the output folder is refused (``refuse_inside``). One file per content (named by the SHA-256 of the content and
of what reads it), in Python's ``marshal`` format — plain values only, so reading an entry runs
no code — behind the SHA-256 of its bytes. A damaged or foreign entry is ignored and made again;
a folder that cannot be written means every run works it out again. Outputs are the same bytes
with or without it.

It also holds this machine's key (``secret``, 32 random bytes made on first use, readable by its
user alone), which seals what pnpgen keeps in a workspace's ``build/.cache/`` (``seal``): a record
there is trusted only when this machine wrote it, so a build folder from elsewhere (a zip, a
shared drive, a commit) is rebuilt, never replayed — its checks are hashes anyone can compute.
The history's entries (``build/.history/``, engine/history.py) are sealed with it too: one from
elsewhere is shown as such and ``reprint --since`` does not rely on it.
With ``PNPGEN_CACHE=off`` (or a folder that cannot be written) there is no machine key, and
records are sealed with a key of the running process's own (``PROCESS_SECRET``, shared with the
workers it forks): what the same process wrote is trusted (``watch``'s and ``serve``'s later
saves), and every other run builds in full. Records checked by their hash alone, as before, could
be planted: a game state that made the next build delete a file of the designer's in the output
folder, keep a planted PDF as up to date, or read through a link planted beside the outputs.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import marshal
import os
import stat
import time
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnpgen.atomic import still_running
from pnpgen.errors import InputError
from pnpgen.litter import is_litter
from pnpgen.patterns import later

SECRET_BYTES = 32
# A temporary of ``put`` (``.<entry>.<pid>``) or of the machine's key (``.secret.<pid>``)
_TEMPORARY = later(r"\.(?:[0-9a-f]{40}|secret)\.([0-9]{1,9})")
_ENTRY = later(r"[0-9a-f]{40}")  # an entry's name (``key``)
STALE_SECONDS = 6 * 3600  # a write takes milliseconds: a temporary this old is a dead write's, whoever has its pid now
_SWEPT: set[Path] = set()  # folders swept of dead writes' temporaries by this process
SWEPT = "swept"  # a folder's stamp, in the cache folder: when a run last swept it (its time of change; no
# dot: what starts with one there is a write's temporary)
SWEEP_SECONDS = 3600  # a folder is listed for dead writes' temporaries at most once an hour
UNUSED_SECONDS = 60 * 86400  # an entry no run has read for 60 days goes at a sweep (the cache would only grow)
USED_SECONDS = 86400  # an entry read is marked used (its time of change) at most once a day
RECORDS = frozenset({"calibration"})  # kinds that record what pnpgen wrote (not made again from content): never forgotten
PROCESS_SECRET = os.urandom(SECRET_BYTES)  # seals when there is no machine key: made at import, so forked workers share it


def file_stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """What tells a file changed without reading it: its size and modification time, and its
    change time and inode, which no tool puts back (a file replaced by one of the same size, its
    modification time restored by ``cp -p``, ``touch -r`` or an unzip, is still told apart)."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def folder(kind: str) -> Path | None:
    """Where entries of ``kind`` live (None: nowhere to keep them, or a folder not pnpgen's: ``stranger``)."""
    base = machine_folder()[0]
    return base / kind if base is not None and stranger(base) is None else None


# The folder's mark (the Cache Directory Tagging Specification: backup tools skip it too)
TAG = "CACHEDIR.TAG"
TAG_TEXT = (b"Signature: 8a477f597d28d172789f06886806bc55\n"
            b"# This file is a cache directory tag created by pnpgen: this folder is pnpgen's machine cache.\n"
            b"# For information about cache directory tags, see https://bford.info/cachedir/\n")
# What pnpgen writes in the cache folder beside its kinds' folders: its mark, the key, the sweeps'
# stamps (``.swept``, ``.swept.<kind>``, ``swept.<kind>`` before), a write's temporary
_OWN_NAME = later(r"CACHEDIR\.TAG|secret|\.?swept(?:[.-][a-z][a-z0-9-]*)?|\.(?:[0-9a-f]{40}|secret)\.[0-9]{1,9}")
_KIND_NAME = later(r"[a-z][a-z0-9-]*")
_MARKED: set[Path] = set()  # cache folders this process found marked, or marked


@lru_cache(maxsize=16)
def stranger(base: Path) -> str | None:
    """A name in the machine cache's folder ``base`` that pnpgen did not write (``PNPGEN_CACHE=$HOME``,
    another program's folder), or None: the folder is pnpgen's — marked (``TAG``), missing, empty,
    or holding only what pnpgen writes there and the system's litter (a Finder's ``.DS_Store``):
    a cache from before the mark, marked now. In a stranger's folder pnpgen would write its key and
    folders among the files, make a folder named as one of its kinds its user's alone and sweep
    from it the files named like its entries that were not read for 60 days: it keeps nothing there
    (``folder``), and a command refuses it (``refuse_stranger``). Looked at once a process."""
    try:
        handle = os.open(base / TAG, _PLAIN_READ)
        try:
            if os.read(handle, len(TAG_TEXT)) == TAG_TEXT:
                return None
        finally:
            os.close(handle)
    except OSError:
        pass
    try:
        with os.scandir(base) as entries:
            for entry in entries:
                if _OWN_NAME.fullmatch(entry.name) or is_litter(entry.name):
                    continue  # (the system's own: Finder's .DS_Store once the folder was opened)
                if not (_KIND_NAME.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)):
                    return entry.name
                with os.scandir(entry.path) as inner:
                    found = next((e.name for e in inner if not (_ENTRY.fullmatch(e.name) or _TEMPORARY.fullmatch(e.name)
                                                                 or e.name == ".swept")), None)  # (a stamp there before)
                if found is not None:
                    return f"{entry.name}/{found}"
    except OSError:
        return None  # missing (made when written), a file, unreadable: nothing kept there all the same
    if _private(base, link_ok=True):
        _mark(base)  # (listed once: a cache of 20,000 entries took 30 ms to list)
    return None


def refuse_stranger() -> None:
    """A machine cache folder that is not pnpgen's (``stranger``) is refused, saying which file in
    it shows so and where to keep the cache instead."""
    base, named_by = machine_folder()
    found = stranger(base) if base is not None else None
    if base is None or found is None:
        return
    instead = (f"{named_by} naming a new or empty folder, pnpgen's alone (PNPGEN_CACHE={base / 'pnpgen'}), "
               "or PNPGEN_CACHE=off to keep nothing" if named_by == "PNPGEN_CACHE" else  # (XDG_CACHE_HOME, HOME: its
               f"{base} holding only what pnpgen wrote there (move {found} out of it), or PNPGEN_CACHE naming a "
               "new folder")  # pnpgen/ folder, named as pnpgen's)
    raise InputError(f"{named_by} makes {base} pnpgen's machine cache, a folder holding files pnpgen did not write "
                     f"({found}): pnpgen would write its key and folders among them, make folders of its kinds' "
                     "names its user's alone and remove from them the files named like its entries",
                     expected=instead)


def _mark(base: Path) -> None:
    """Mark the cache folder as pnpgen's (``TAG``), once: a folder marked is never taken for a stranger's."""
    if base in _MARKED:
        return
    _MARKED.add(base)
    try:
        handle = os.open(base / TAG, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return  # marked already (or a read-only disk: it holds pnpgen's names alone all the same)
    try:
        os.write(handle, TAG_TEXT)
    except OSError:
        pass
    finally:
        os.close(handle)


def machine_folder() -> tuple[Path | None, str]:
    """The machine cache's folder (None: nowhere to keep anything) and the variable that named it."""
    given = os.environ.get("PNPGEN_CACHE")
    if given == "off":
        return None, "PNPGEN_CACHE"
    xdg = os.environ.get("XDG_CACHE_HOME")
    xdg_used = bool(xdg and os.path.isabs(xdg))
    try:  # a relative XDG_CACHE_HOME is no folder (the XDG spec: ignored)
        base = Path(given) if given else Path(xdg if xdg and xdg_used else Path.home() / ".cache") / "pnpgen"
    except (RuntimeError, KeyError):  # no home folder
        return None, "HOME"
    # A relative folder (PNPGEN_CACHE=cache, HOME=.) is one in the folder pnpgen runs in, the
    # workspace, maybe a stranger's: its key would seal that workspace's planted records, its
    # compiled templates run as code. None: nothing kept.
    named_by = "PNPGEN_CACHE" if given else "XDG_CACHE_HOME" if xdg_used else "HOME"
    return (base if base.is_absolute() else None), named_by


def refuse_inside(folders: Iterable[tuple[Path, str]]) -> None:
    """An absolute machine cache inside the workspace or the output folder (``PNPGEN_CACHE=$PWD``)
    would be written among the game's files, its folders made the user's alone, and its key and
    compiled templates go wherever the workspace is shared or committed, as a relative one would
    (which is no cache at all): refused, saying where to put it instead."""
    found = inside(folders)
    if found is not None:
        base, named_by, where, what = found
        raise InputError(f"{named_by} puts pnpgen's machine cache ({base}) inside {what} ({where}): its key, "
                         f"compiled templates and folders would be written among the game's files",
                         expected=f"{named_by} naming a folder outside the workspace and the output folder "
                                  "(as the default ~/.cache/pnpgen), or PNPGEN_CACHE=off to keep nothing")


def inside(folders: Iterable[tuple[Path, str]]) -> tuple[Path, str, Path, str] | None:
    """The machine cache when one of ``folders`` (each with what it is: "the workspace") holds it:
    (its folder, the variable naming it, that folder, what it is); None when none does."""
    base, named_by = machine_folder()
    if base is None or named_by == "HOME":  # (a workspace may be the home folder itself: its ~/.cache is not the game's)
        return None
    try:
        real = base.resolve()
    except (OSError, RuntimeError):
        return None
    for where, what in folders:
        with contextlib.suppress(OSError, RuntimeError):
            if real.is_relative_to(where.resolve()):
                return base, named_by, where, what
    return None


@contextlib.contextmanager
def set_aside(folders: Iterable[tuple[Path, str]]) -> Iterator[tuple[Path, str, Path, str] | None]:
    """While it lasts, the machine cache that ``folders`` hold (``inside``) is not pnpgen's: the
    variables naming it (PNPGEN_CACHE, XDG_CACHE_HOME) unset, so the machine cache is the one
    pnpgen keeps without them (~/.cache/pnpgen, outside the workspace). For ``pnpgen clean``,
    which proves what pnpgen wrote by this machine's key and would otherwise be refused with
    every other command (nothing it cleans is written with a key the workspace could hold).
    Yields what was set aside (None: nothing)."""
    folders = list(folders)
    found = inside(folders)
    unset: dict[str, str] = {}
    try:
        while (held := inside(folders)) is not None:  # (XDG_CACHE_HOME inside too, once PNPGEN_CACHE is unset)
            unset[held[1]] = os.environ.pop(held[1])
        yield found
    finally:
        os.environ.update(unset)


def key(*parts: bytes) -> str:
    """An entry's name in the machine's cache: the first 40 hex digits of ``parts_digest``."""
    return parts_digest(parts)[:40]


def parts_digest(parts: Iterable[bytes]) -> str:
    """SHA-256 of ``parts``, each with its length before it (no two lists of parts run together):
    the machine cache's entry names and a build's cache keys, one rule."""
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def installed(*modules: str) -> bytes:
    """What tells the installed copies of ``modules`` apart (each one's file, its size and
    time, which an upgrade or a reinstall changes), for the key of what they work out: found
    without importing them, and without ``importlib.metadata.version``, which reads the metadata
    of every package installed (some 30 ms a name, on the rulebook's path of every cold build)."""
    parts = []
    for name in modules:
        try:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
            st = os.stat(origin) if origin else None
        except (ImportError, ValueError, OSError):
            origin, st = None, None
        parts.append(f"{name} {origin} {st.st_size} {st.st_mtime_ns}" if st is not None else f"{name} -")
    return "\n".join(parts).encode()


# An entry or the key opened for reading: never through a link, nor waiting on a pipe put in its place
_PLAIN_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
ENTRY_MOST = 256 * 2**20  # the largest entry read (a picture's print bytes are kept up to 64 MB: artfile.CONVERTED_MOST)


def get(kind: str, name: str) -> Any:
    """The value kept under ``name``, or None."""
    where = folder(kind)
    if where is None or not (_private(where) and _private(where.parent, link_ok=True)):
        return None
    try:
        handle = os.open(where / name, _PLAIN_READ)
        try:
            st = os.fstat(handle)
            if not stat.S_ISREG(st.st_mode) or st.st_size > ENTRY_MOST:
                return None  # a pipe (whose read never ends), a folder, a sparse 8 GB file: not an entry pnpgen wrote
            with os.fdopen(os.dup(handle), "rb") as f:
                raw = f.read()
            check, body = raw[:32], raw[32:]
            if hashlib.sha256(body).digest() != check:
                return None
            if time.time() - st.st_mtime > USED_SECONDS and os.utime in os.supports_fd:
                with contextlib.suppress(OSError):  # (a read-only disk: read all the same)
                    os.utime(handle)  # used: kept by the sweep (_sweep) for UNUSED_SECONDS more
        finally:
            os.close(handle)
        return marshal.loads(body)
    except (OSError, ValueError, EOFError, TypeError):
        return None


def put(kind: str, name: str, value: Any) -> None:
    """Keep ``value`` (plain values only; anything else is not kept)."""
    where = folder(kind)
    if where is None:
        return
    try:
        body = marshal.dumps(value)
    except ValueError:
        return
    try:
        _private_folder(where.parent, where)
        if not (_private(where) and _private(where.parent, link_ok=True)):
            return  # never read there (get): not written
        _mark(where.parent)
        _sweep(where)
        tmp = where / f".{name}.{os.getpid()}"
        try:
            with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
                f.write(hashlib.sha256(body).digest() + body)
            os.replace(tmp, where / name)
        except BaseException:  # a full disk, Ctrl-C, SIGTERM: the part written goes at once (it
            tmp.unlink(missing_ok=True)  # stayed, for a sweep an hour later, on a signal)
            raise
    except OSError:
        pass  # a read-only or full disk: the next run works it out again


def _private_folder(*folders: Path) -> None:
    """``folders`` of the cache (the cache's own, a kind's), made for this user alone whatever the umask: the
    cache holds code the build runs (templates' bytecode), and under ``umask 000`` (or 002 with a
    shared group) its folders and entries were writable by others, who could plant an entry (its
    check is a hash anyone computes). Such a folder made before is made private, unless it is the
    folder ``PNPGEN_CACHE`` names (``/tmp``: changed, it would lock others out of it), then unused."""
    given = os.environ.get("PNPGEN_CACHE")
    for folder_ in folders:
        try:
            folder_.mkdir(mode=0o700, parents=True)
            _private.cache_clear()  # (found missing before: now there)
        except FileExistsError:
            if given and folder_ == Path(given):
                continue  # a folder the designer named (PNPGEN_CACHE=/tmp) is never changed: only not read
            st = folder_.lstat()  # (a link's folder, not made here, is never changed: only not read)
            if stat.S_ISDIR(st.st_mode) and st.st_mode & 0o022 and st.st_uid == _USER:
                folder_.chmod(0o700)
                _private.cache_clear()


_USER = os.getuid() if hasattr(os, "getuid") else None


@lru_cache(maxsize=64)
def _private(where: Path, link_ok: bool = False) -> bool:
    """Whether the cache folder ``where`` is this user's alone: an entry in a folder others may
    write to (or another user's) is never read. A kind's folder is one pnpgen made: a link in its
    place (to a folder of pictures, say) is not, and is neither read, written nor swept (through
    one, a sweep removed that folder's files named like entries). The cache folder itself,
    ``link_ok``, may be a link (``~/.cache`` kept on another disk)."""
    try:
        st = where.stat() if link_ok else where.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if _USER is None:  # Windows: a user's cache is in their own profile
        return True
    return st.st_uid == _USER and not st.st_mode & 0o022


def _sweep(where: Path) -> None:
    """Remove the temporaries that writes killed midway (``kill -9``, a power cut) left in
    ``where`` and the cache folder above it: ``.<entry>.<pid>`` whose process no longer runs, or
    that is older than STALE_SECONDS (its pid since taken by another process). A running
    process's temporary is left: it is about to be renamed into place. Nothing else is touched.
    Without this, each such file stayed for ever. Each folder is swept once per process, and once
    per SWEEP_SECONDS by all of them (its stamp in the cache folder, ``swept-<kind>``, ``swept``
    for the cache folder's own; a kind's folder holds its entries alone): listing a kind's folder of 20,000
    entries, each deck's text read since, took a text edit's build some 12 ms of its reading."""
    for place, stamp in ((where, where.parent / f"{SWEPT}-{where.name}"), (where.parent, where.parent / SWEPT)):
        if place in _SWEPT:
            continue
        _SWEPT.add(place)
        try:
            if abs(time.time() - stamp.stat().st_mtime) < SWEEP_SECONDS:
                continue  # swept by a run of the last hour
        except OSError:
            pass  # never swept (or the stamp unreadable): swept now
        try:
            with os.scandir(place) as entries:
                listed = list(entries)
        except OSError:
            continue
        found = [(e.path, int(m.group(1))) for e in listed if (m := _TEMPORARY.fullmatch(e.name))]
        if place == where and where.name not in RECORDS:  # a kind's folder holds its entries alone: one
            # no run has read for long goes
            _forget_unused(e for e in listed if _ENTRY.fullmatch(e.name))
        for path, pid in found:
            try:
                if pid == os.getpid() or (still_running(pid) and time.time() - os.lstat(path).st_mtime < STALE_SECONDS):
                    continue
                os.unlink(path)
            except OSError:
                pass  # gone already (another run swept it), or not ours to remove
        try:  # (the folder is this user's alone: put checked it)
            handle = os.open(stamp, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0),
                             0o600)  # (a pipe in its place: refused at once, not waited on)
            try:
                os.utime(handle if os.utime in os.supports_fd else stamp)
            finally:
                os.close(handle)
        except OSError:
            pass  # a read-only disk: swept again by the next run


def _forget_unused(entries: Iterable[os.DirEntry]) -> None:
    """Remove the entries no run has read (``get`` marks each entry it reads, once a day) for
    UNUSED_SECONDS: the fonts, decks and templates of games long gone. One read again is made
    again, as any missing entry is."""
    oldest = time.time() - UNUSED_SECONDS
    for entry in entries:
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < oldest:
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or not ours to remove


def secret() -> bytes | None:
    """This machine's key for sealing build caches (made on first use); None without a folder."""
    return _secret_in(os.environ.get("PNPGEN_CACHE"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))


@lru_cache(maxsize=8)
def _secret_in(*environment: str | None) -> bytes | None:
    """``secret`` for the environment that says where the machine's cache is: looked up once, not
    for each of the 20,000 records a big build seals."""
    where = folder("secret")
    return None if where is None else _secret(str(where))


def _secret(path: str) -> bytes | None:
    where = Path(path)
    try:
        if where.parent.is_dir() and not _private(where.parent, link_ok=True):  # a key others could have written seals nothing
            _private_folder(where.parent)
            if not _private(where.parent, link_ok=True):
                return None
        key = _plain_bytes(where)
        if len(key) == SECRET_BYTES:
            return key
    except OSError:
        pass
    tmp = where.parent / f".secret.{os.getpid()}"
    try:
        _private_folder(where.parent)
        if _private(where.parent, link_ok=True):
            _mark(where.parent)
        handle = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "wb") as f:
            f.write(os.urandom(SECRET_BYTES))
        try:
            os.link(tmp, where)  # the first of two processes making it at once wins; both then read it
        except FileExistsError:
            st = os.lstat(where)
            if not stat.S_ISREG(st.st_mode) or st.st_size != SECRET_BYTES:  # a damaged key (a link, a pipe): replaced
                os.replace(tmp, where)
        key = _plain_bytes(where)
        return key if len(key) == SECRET_BYTES else None
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):  # ENOTDIR too: a cache folder below a file (it was a traceback)
            tmp.unlink(missing_ok=True)


def _plain_bytes(path: Path) -> bytes:
    """The key file's first bytes, read only when it is a plain file (not a link, a pipe or a
    folder put in its place): b"" otherwise, as a damaged key is."""
    handle = os.open(path, _PLAIN_READ)
    try:
        return os.read(handle, SECRET_BYTES + 1) if stat.S_ISREG(os.fstat(handle).st_mode) else b""
    finally:
        os.close(handle)


def seal(data: bytes | memoryview) -> str:
    """The check of a record pnpgen keeps in a build folder: HMAC-SHA256 of ``data`` under this
    machine's ``secret``, or without one under ``PROCESS_SECRET`` (a record from another run, or
    from elsewhere, then never holds: that run builds as if the folder had no cache)."""
    return hmac.digest(secret() or PROCESS_SECRET, data, "sha256").hex()


def machine_seal(text: bytes) -> str:
    """The check of a record that must hold for the next run of this machine (a commit's journal,
    the trash's records): HMAC-SHA256 under ``secret``, or without a key the SHA-256 of the text
    (the record then also names an inode of its folder, which no one packing it could know)."""
    key = secret()
    return hmac.digest(key, text, "sha256").hex() if key else hashlib.sha256(text).hexdigest()
