"""What a build read, as hashes: a game's *inputs fingerprint* (every file the build can read,
pnpgen itself and the options) and the content hashes of single files, kept between runs by their
stamps (``FileHashes``), so an unchanged game is known without reading its art again.

The build cache (``engine/cache.py``) stamps its records with ``code()`` and keeps a game's
fingerprint in its state; this module only hashes, it keeps no record of its own but the table
of file hashes.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import threading
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import pnpgen
from pnpgen import resources, usercache
from pnpgen.atomic import read_record, store
from pnpgen.errors import leads_out
from pnpgen.litter import is_litter
from pnpgen.memo import Stamps
from pnpgen.pdf.assemble import PdfFile
from pnpgen.usercache import parts_digest, seal

FORMAT = 2  # the cache's record format: part of pnpgen's stamp (``code()``) and of each state
HASHED_WHOLE = 64 << 20  # bytes: a file hashed as read whole; a larger one, a block at a time
BIG_FILE = 1 << 20  # files larger than this (fonts, art) are fingerprinted by size and mtime


def staying_in(folders: Iterable[Path], fonts: Path) -> list[Path]:
    """``folders`` but those that are a link leading out of their place (data/<slug>/,
    templates/<slug>/ or common/, layouts/, sheets/; not ``fonts``, which may be): the build refuses
    one at its first name, and a fingerprint read all its files first."""
    return [f for f in folders if f == fonts or not (os.path.islink(f) and leads_out(f, f.parent))]


def font_files(folder: Path) -> list[tuple[Path, os.stat_result, bool]]:
    """``folder``'s own ``*.ttf`` files (fonts/, where a font is ``fonts/<name>.ttf``), as
    ``_files`` lists them: nothing below it, nor any other file. fonts/ may be a link anywhere (a
    shared collection): listed as a folder of inputs, everything below it was read for its hash
    (fonts/ a link to the home folder: every file there, a walk of the whole of it)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted((e for e in it if e.name.endswith(".ttf") and not is_litter(e.name)), key=lambda e: e.name)
    except OSError:
        return []
    return [(folder / e.name, e.stat(), _ignoring_missing(e.is_symlink)) for e in entries if _ignoring_missing(e.is_file)]


def _files(folder: Path, stamps: Stamps | None = None,
           folder_links: bool = False) -> list[tuple[Path, os.stat_result, bool]]:
    """Each file under ``folder`` as ``Path.rglob`` lists them (a link to a file too, never the
    inside of a linked folder; no ``__pycache__``, no litter), in the order of their paths, with
    its stamp (a link's target's) and whether it is a link: one directory scan and one stat a
    file, where ``rglob``, ``is_file``, ``stat`` and ``is_symlink`` took three (a thousand cards'
    art was stat-ed 22,000 times a build, most of them here). ``folder_links``: a link to a folder,
    or leading nowhere, listed too, with its own lstat (a fingerprint takes where it points: art/ a
    link made to point at another folder of pictures was a game up to date, its old pictures kept)."""
    return [(path, st, link) for _, path, st, link in _found(folder, stamps, folder_links)]


def _found(folder: Path, stamps: Stamps | None = None,
           folder_links: bool = False) -> list[tuple[tuple[str, ...], Path, os.stat_result, bool]]:
    """``_files``, each with its names below ``folder`` (its path there, without working it out
    again from the path: ``code`` names pnpgen's 318 files at every start)."""
    if not folder.is_dir():
        return []
    found: list[tuple[tuple[str, ...], Path, os.stat_result, bool]] = []
    _scan(folder, (), "__pycache__" in folder.parts, found, stamps, folder_links)
    found.sort(key=lambda f: f[0])  # (the names in order: as paths compare, without making them compare)
    return found


def _scan(folder: Path, names: tuple[str, ...], cached: bool,
          found: list[tuple[tuple[str, ...], Path, os.stat_result, bool]], stamps: Stamps | None = None,
          folder_links: bool = False) -> None:
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except PermissionError:  # (as rglob: a folder it may not list is passed over)
        return
    for entry in entries:
        link = _ignoring_missing(entry.is_symlink)
        if _ignoring_missing(entry.is_dir):
            if not link:
                _scan(folder / entry.name, (*names, entry.name), cached or entry.name == "__pycache__", found, stamps,
                      folder_links)
            elif folder_links and not cached and not is_litter(entry.name):
                found.append(((*names, entry.name), folder / entry.name, entry.stat(follow_symlinks=False), True))
        elif link and folder_links and not cached and not is_litter(entry.name) \
                and not _ignoring_missing(entry.is_file):  # leading nowhere (not an editor's lock, .#cards.yaml)
            found.append(((*names, entry.name), folder / entry.name, entry.stat(follow_symlinks=False), True))
        elif not cached and _ignoring_missing(entry.is_file) and not is_litter(entry.name):
            path = folder / entry.name
            st = stamps.looked.get(path) if stamps is not None and not link else None  # (a file no link: its lstat is its stat)
            if st is None:
                st = entry.stat()
                if stamps is not None and not link:
                    stamps.looked[path] = st
                    stamps.listed.setdefault(folder, {})[entry.name] = path
            found.append(((*names, entry.name), path, st, link))


def _ignoring_missing(test: Callable[[], bool]) -> bool:
    """A directory entry's test, False for what ``Path.is_file`` takes for missing (a dangling
    or looping link, an entry gone since it was listed); other errors are raised as there."""
    try:
        return test()
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise


@lru_cache(maxsize=1)
def code() -> str:
    """pnpgen's version and a hash of its own files (code, built-in templates, messages): every
    record is stamped with it, so a converted face or a nesting from another pnpgen — an upgrade,
    or a developer's edit under the same version — is never reused. Worked out from the files'
    bytes once per set of files (their names, sizes, modification and change times, inodes): the machine's cache keeps
    it, so a command does not read pnpgen's 300 files (40 ms) each time it starts."""
    folder = resources.folder("pnpgen")
    files = [(path, os.fsencode("/".join(names)), st) for names, path, st, _ in _found(folder)]
    stamp = usercache.key(pnpgen.__version__.encode(), str(FORMAT).encode(), os.fsencode(folder),
                          *(b"%s\0%d\0%d\0%d\0%d" % (name, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
                            for _, name, st in files))
    known = usercache.get("code", stamp)
    if isinstance(known, str):
        return known
    parts = [pnpgen.__version__.encode(), str(FORMAT).encode()]
    for path, name, st in files:  # the fonts an installed pnpgen ships inside it: by size, not read
        parts += [name, str(st.st_size).encode() if st.st_size > BIG_FILE else path.read_bytes()]
    made = f"{pnpgen.__version__}+{parts_digest(parts)[:16]}"
    usercache.put("code", stamp, made)
    return made


def big_file_stamp(st: os.stat_result) -> bytes:
    """What a key takes of a file too big to read on every run (fonts, large art): its stamp
    (usercache.file_stamp; a file replaced by one of the same size, its modification time restored,
    was taken for the old one)."""
    return b"%d:%d:%d:%d" % usercache.file_stamp(st)


def fingerprint(folders: Iterable[Path], options: Any, known: FileHashes | None = None,
                fonts: Path | None = None, stamps: Stamps | None = None,
                skip: Callable[[Path], bool] | None = None) -> str:
    """Hash of every file under ``folders`` (name, then content or size+mtime for big files),
    pnpgen itself (``code()``) and ``options`` (its repr). ``known``: hashes kept from earlier runs.
    ``fonts``, one of ``folders``: only its own font files (``font_files``). ``stamps``: the
    build's lstats, used and told (a fingerprint within a build; never the check after it).
    ``skip``: the files left out (hashed otherwise by the caller)."""
    parts: list[bytes] = [f"pnpgen {code()}".encode(), repr(options).encode()]
    for n, folder in enumerate(folders):
        if folder.is_relative_to(resources.folder("pnpgen")):
            for path, st, part in _own_parts(folder):  # (the table of hashes learns them as below)
                parts += [os.fsencode(path), part]
                if known is not None and st is not None and known.get(path, st) is None:
                    known.learn(path, st, part.decode())
            continue
        # each file named by its folder's place in ``folders`` and its path inside: the workspace
        # copied to another folder is the same game (its cache's records and layouts still its own)
        inside = str(folder) + os.sep
        for path, _, part in _parts(folder, known, folder == fonts, stamps):
            if skip is None or not skip(path):
                parts += [f"{n}/".encode() + os.fsencode(_below(path, folder, inside)), part]
    return parts_digest(parts)


def _below(path: Path, folder: Path, inside: str) -> str:
    """``path`` (a file ``_files`` listed under ``folder``) named from ``folder``: cut from its text
    when that starts with the folder's (``inside``, with its separator), as ``relative_to`` names
    it (3,000 cards' art named through pathlib twice a build: some 0.05 CPU-s); else by it."""
    text = str(path)
    return text[len(inside):] if text.startswith(inside) else str(path.relative_to(folder))


def _parts(folder: Path, known: FileHashes | None, fonts: bool = False,
           stamps: Stamps | None = None) -> list[tuple[Path, os.stat_result | None, bytes]]:
    """Each file under ``folder`` (``_files``; of fonts/, ``font_files``), its stamp when its content was hashed, and what
    ``fingerprint`` takes of it."""
    out: list[tuple[Path, os.stat_result | None, bytes]] = []
    for path, st, link in font_files(folder) if fonts else _files(folder, stamps, folder_links=True):
        if link and stat.S_ISLNK(st.st_mode):  # a link to a folder, or leading nowhere: by where it points alone
            out.append((path, None, os.fsencode(f"folder link {os.readlink(path)}")))
        elif link:  # by where it points and its target's stamp, never read: it may lead out
            out.append((path, None, os.fsencode(f"link {os.readlink(path)} {st.st_size}:{st.st_mtime_ns}")))
        elif st.st_size > BIG_FILE:
            out.append((path, None, big_file_stamp(st)))
        else:
            out.append((path, st, b""))
    # the files not known by their stamp are read and hashed on threads (a thousand cards' art, 300 MB);
    # a known one's hash is kept as it is looked up (it was looked up again: a thousand cards' art twice)
    read = {i: (path, st) for i, (path, st, _) in enumerate(out) if st is not None}
    found = {i: known.get(path, st) if known is not None else None for i, (path, st) in read.items()}
    unknown = [item for i, item in read.items() if found[i] is None]
    digests = iter(hashed(lambda item: content_hash(item[0], known, item[1]), unknown, size=lambda item: item[1].st_size,
                          threads=known is None or known.threads, beside=known.take_beside if known is not None else None))
    return [(path, st, (found[i] or next(digests)).encode() if st is not None else part)
            for i, (path, st, part) in enumerate(out)]


@lru_cache(maxsize=8)
def _own_parts(folder: Path) -> list[tuple[Path, os.stat_result | None, bytes]]:
    """``_parts`` of a folder of pnpgen's own (the built-in templates), listed and hashed once a
    process, as ``code()`` is: they do not change under a running pnpgen, and every build's
    inputs were listing their 35 files again (1 ms a build)."""
    return _parts(folder, None)


def content_hash(path: Path, known: FileHashes | None = None, st: os.stat_result | None = None) -> str:
    """The SHA-256 of a file's content: from ``known`` when its stamp is kept there, else read
    (once per process while the file is unchanged) and kept."""
    st = st or path.stat()
    digest = known.get(path, st) if known is not None else None
    if digest is None:
        digest, read = _content(path, st, known.born if known is not None else None)
        if known is not None:  # (as of when it was read: a hash read in its file's change's instant is not trusted later)
            known.learn(path, st, digest, read=read)
    return digest


class FileHashes:
    """The SHA-256 of files by their stamp (size, modification and change times, inode), kept
    between runs in ``.cache/hashes/files.json``: a file whose stamp is unchanged is not read
    again (a thousand cards' art is 300 MB to hash; a big deck's four documents, a gigabyte).
    As git trusts its index, an entry taken within ``RACY_NS`` of the file's last change is not
    trusted (a change in the same clock tick could keep the stamp), except for the files pnpgen
    has just written, whose hash is that of the bytes it wrote. A damaged table is ignored."""

    RACY_NS = 2_000_000_000
    LIMIT = 200_000  # entries kept (the most recently seen)

    def __init__(self, cache_root: Path) -> None:
        self.path = cache_root / "hashes" / "files.json"
        self._table: dict[str, list] | None = None  # read on first use: after a killed commit is finished
        self._loading = threading.Lock()  # (first used on the hashing threads, it is read once)
        self._dirty = False
        self._learned: set[str] = set()  # the paths whose hash this run learned by reading their content
        self.born = time.time_ns()  # the run's start: what the process read in a change's instant before it is read again
        self.threads = True  # files not known by their stamp hashed on threads (``hashed``; False: --jobs 1)
        # what the calling thread does, once, while its threads hash (the build's stages imported: commands.py)
        self.beside: Callable[[], object] | None = None

    @property
    def _known(self) -> dict[str, list]:
        if self._table is None:
            with self._loading:
                if self._table is None:
                    self._table = self._read()
        return self._table

    def _read(self) -> dict[str, list]:
        try:  # a header line (format, the seal of the text), then the table: one another machine wrote is not read
            head, _, text = read_record(self.path).partition(b"\n")
            outer = json.loads(head)
            files = json.loads(text) if outer.get("format") == 2 and outer.get("check") == seal(text) else None
            if isinstance(files, dict):
                return {k: v for k, v in files.items() if isinstance(v, list) and len(v) == 7
                        and all(type(n) is int for n in (*v[:4], *v[5:])) and isinstance(v[4], str)}
        except (OSError, ValueError, AttributeError):
            pass
        return {}

    @staticmethod
    def _stamp(st: os.stat_result) -> list[int]:
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]

    def get(self, path: Path, st: os.stat_result | None = None) -> str | None:
        entry = self._known.get(str(path))
        if entry is None:
            return None
        try:
            st = st or path.stat()
        except OSError:
            return None
        if entry[:4] != self._stamp(st) or not (entry[6] or entry[5] - st.st_mtime_ns >= self.RACY_NS):
            return None
        return entry[4]

    def learn(self, path: Path, st: os.stat_result, digest: str, wrote: bool = False, read: int | None = None) -> None:
        """``read``: when the content was read (time_ns; default now)."""
        self._known[str(path)] = [*self._stamp(st), digest, time.time_ns() if read is None else read, 1 if wrote else 0]
        if not wrote:
            self._learned.add(str(path))
        self._dirty = True

    def take_beside(self) -> None:
        """``beside`` done (once: then let go of), by ``hashed`` while its threads hash."""
        beside, self.beside = self.beside, None
        if beside is not None:
            beside()

    def learn_again(self) -> None:
        """Each hash this run learned too soon after its file's last change to be trusted
        (``RACY_NS``), learned again now, while the file keeps the stamp its content was read at:
        what fingerprinting the inputs again after a build's commit taught the table (their hashes
        known in this process by the same stamps), without listing and looking up every file. A
        file changed since keeps its old entry, which its new stamp does not match (read then)."""
        for name in sorted(self._learned):
            entry = self._known.get(name)
            if entry is None or entry[6] or entry[5] - entry[1] >= self.RACY_NS:
                continue
            try:
                st = os.stat(name)
                now = time.time_ns()
                if entry[:4] != self._stamp(st) or now - st.st_mtime_ns < self.RACY_NS:
                    continue  # changed, or still in the instant of its change: read next run
                # read again: a file saved again in the clock tick it was read in keeps its stamp
                # (2 s on FAT, 1 s on HFS+), and the stamp alone then vouched for the old content
                digest = _read_hash(Path(name), st.st_size)
                if self._stamp(os.stat(name)) == entry[:4]:
                    self._known[name] = [*entry[:4], digest, now, 0]
                    self._dirty = True
            except (OSError, ValueError):
                continue
        self._learned.clear()

    def wrote(self, path: Path, digest: str) -> None:
        """``path`` now holds bytes pnpgen wrote, whose hash is ``digest``."""
        try:
            self.learn(path, path.stat(), digest, wrote=True)
        except OSError:
            pass

    def save(self) -> None:
        """Keep the table for the next run (a table that cannot be written is no loss)."""
        if not self._dirty or self.path.parent.parent.is_symlink():
            return
        known = sorted(self._known.items(), key=lambda kv: -kv[1][5])[:self.LIMIT]
        text = json.dumps(dict(sorted(known))).encode()
        # a new file replaces the table (a cut one would not parse, and be ignored): never written
        # in place, where a hard link to it (a workspace copied with cp -al) shares its bytes
        store(self.path, json.dumps({"format": 2, "check": seal(text)}).encode() + b"\n" + text)
        self._dirty = False


_READ: dict[tuple[int, ...], tuple[str, int]] = {}  # (device, inode, size, modified, changed) → its content's SHA-256, when read
READ_LIMIT = 65536


def _content(path: Path, st: os.stat_result, since: int | None = None) -> tuple[str, int]:
    """The hash of a file's content and when it was read (time_ns), read once per process for as
    long as the file is unchanged (a build fingerprints a game's art three times: its inputs, its
    renders, its faces). Kept by the file itself (its device and inode) and its stamp, not by the
    path it was reached by: the same fonts, linked into many workspaces (every test's), were read
    and hashed again in each. One larger than HASHED_WHOLE is read a block at a time: a file of
    gigabytes in art/ (a video dropped there, a sparse file planted) asked for as much memory, and
    ended the build in MemoryError. ``since``: a run's start (watch and serve build again in one
    process); a hash read before then within ``RACY_NS`` of the file's change is read again, once a
    run (a save in the tick of that read keeps the stamp: the next build took the old content)."""
    file = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    kept = _READ.get(file)
    if kept is not None and since is not None and kept[1] < since and kept[1] - st.st_mtime_ns < FileHashes.RACY_NS:
        kept = None
    if kept is None:
        if len(_READ) >= READ_LIMIT:
            _READ.clear()
        began = time.time_ns()  # (before the read: a save while it reads is in the instant it tells)
        kept = _READ[file] = (_read_hash(path, st.st_size), began)
    return kept


def _read_hash(path: Path, size: int) -> str:
    """The SHA-256 of the file's content as read now (block by block past HASHED_WHOLE)."""
    if size <= HASHED_WHOLE:
        return sha(path.read_bytes())
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


THREADED_BYTES = 4 << 20  # less than this to hash is hashed on the calling thread


def hashed(check: Callable[[Any], Any], items: list, size: Callable[[Any], int] | None = None,
           threads: bool = True, beside: Callable[[], object] | None = None) -> list:
    """``check`` of each item, on threads (SHA-256 lets go of the interpreter while it hashes, so a
    big deck's four documents, a gigabyte, hash on every core at once), in the items' order.
    ``size``: the bytes an item has to hash; items that hold less than ``THREADED_BYTES`` in all
    are checked on this thread (a small game's few files hash faster than threads start: every
    tiny build was starting a pool of two). ``threads``: False keeps them all on this thread (``--jobs 1``).
    ``beside``: what this thread does while the threads check the items (only when they do)."""
    small = size is not None and sum(size(i) for i in items) < THREADED_BYTES
    if not threads or len(items) < 2 or (os.cpu_count() or 1) < 2 or small:
        return [check(i) for i in items]
    from concurrent.futures import ThreadPoolExecutor  # (imported only by a build that hashes on threads)

    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        checked = pool.map(check, items)  # (every item handed to the threads now)
        if beside is not None:
            beside()
        return list(checked)


def sha(data: bytes | PdfFile) -> str:
    """SHA-256 (hex) of a file's bytes, held in memory or as parts (pdf/assemble.py)."""
    return data.sha() if isinstance(data, PdfFile) else hashlib.sha256(data).hexdigest()
