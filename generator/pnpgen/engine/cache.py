"""The build cache under ``build/.cache/``: what the last good build of each game read and wrote,
and converted faces, so a rebuild redoes only what an edit changed.

- A game's *inputs fingerprint* covers every file the build can read (its data folder, its own and
  the shared templates and icons, the fonts, pnpgen itself) plus the options. Unchanged → the
  game is up to date and nothing is loaded, drawn or written.
- Each output document has a *plan key* (the hash of its page plan and of the faces it places).
  Unchanged → the file on disk is reused as it is (checked against its recorded hash).
- Converted faces are stored by the hash of their SVG (and of any art they embed); the pictures
  they show, once per content by the hash of their bytes (``pictures/``), the faces naming them.
- Each game's state lists the cache entries its build used (faces, rendered faces, nest
  choices, index readings). After a good build, an entry that no game's or
  language edition's state lists any more is removed, so the cache holds what the current
  builds use, not every version of every edited face.

Every record is checked (format version, pnpgen version, hashes) before it is trusted; a corrupt
or foreign cache is ignored and rebuilt. A record's check is sealed with this machine's key
(``usercache.seal``: HMAC-SHA256), not a plain hash anyone can compute again: a build folder from
elsewhere (a zip, a shared drive) is built again, never replayed into the PDFs.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pnpgen
from pnpgen import resources, usercache
from pnpgen.atomic import Stores, read_record, store
from pnpgen.engine.output import inside, is_output_folder
from pnpgen.errors import InputError
from pnpgen.litter import is_litter
from pnpgen.pdf.assemble import PdfFile, Stored, file_digest
from pnpgen.usercache import seal

if TYPE_CHECKING:  # (a build that finds everything up to date loads no stage)
    from pnpgen.svg.artwork import ArtRecord

FORMAT = 2
HASHED_WHOLE = 64 << 20  # bytes: a file hashed as read whole; a larger one, a block at a time
BIG_FILE = 1 << 20  # files larger than this (fonts, art) are fingerprinted by size and mtime
# The names of the entries pnpgen writes below .cache/: pruning removes only files named so.
ENTRY = re.compile(r"faces/[0-9a-f]{2}/[0-9a-f]{32,64}(-[0-9a-f]{16}){0,2}\.json|jinja/[0-9a-f]{40,64}\.jbc"
                   r"|pictures/[0-9a-f]{2}/[0-9a-f]{64}\.bin|images/[0-9a-f]{2}/[0-9a-f]{64}\.(bin|json)"
                   r"|(nest|readings|books|renders/[^/\x00]{1,255})/[0-9a-f]{32}\.json"
                   r"|(renders|art|forms|pieces|bleed)/[^/\x00]{1,200}\.pack\.json")
KINDS = ("faces", "pictures", "images", "jinja", "nest", "readings", "books", "renders", "art", "forms", "pieces", "bleed")  # the cache's folders


def safe_rel(rel: object) -> bool:
    """A path read from a record: relative, without '..', '.', empty parts, backslashes or NUL."""
    return isinstance(rel, str) and bool(rel) and not rel.startswith("/") and "\\" not in rel \
        and "\0" not in rel and all(part not in ("", ".", "..") for part in rel.split("/"))


def _digest(parts: Iterable[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def _font_files(folder: Path) -> list[tuple[Path, os.stat_result, bool]]:
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


def _files(folder: Path) -> list[tuple[Path, os.stat_result, bool]]:
    """Each file under ``folder`` as ``Path.rglob`` lists them (a link to a file too, never the
    inside of a linked folder; no ``__pycache__``, no litter), in the order of their paths, with
    its stamp (a link's target's) and whether it is a link: one directory scan and one stat a
    file, where ``rglob``, ``is_file``, ``stat`` and ``is_symlink`` took three (a thousand cards'
    art was stat-ed 22,000 times a build, most of them here)."""
    if not folder.is_dir():
        return []
    found: list[tuple[tuple[str, ...], Path, os.stat_result, bool]] = []
    _scan(folder, (), "__pycache__" in folder.parts, found)
    found.sort(key=lambda f: f[0])  # (the names in order: as paths compare, without making them compare)
    return [(path, st, link) for _, path, st, link in found]


def _scan(folder: Path, names: tuple[str, ...], cached: bool,
          found: list[tuple[tuple[str, ...], Path, os.stat_result, bool]]) -> None:
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except PermissionError:  # (as rglob: a folder it may not list is passed over)
        return
    for entry in entries:
        link = _ignoring_missing(entry.is_symlink)
        if _ignoring_missing(entry.is_dir):
            if not link:
                _scan(folder / entry.name, (*names, entry.name), cached or entry.name == "__pycache__", found)
        elif not cached and _ignoring_missing(entry.is_file) and not is_litter(entry.name):
            found.append(((*names, entry.name), folder / entry.name, entry.stat(), link))


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
    bytes once per set of files (their names, sizes, times and inodes): the machine's cache keeps
    it, so a command does not read pnpgen's 300 files (40 ms) each time it starts."""
    folder = resources.folder("pnpgen")
    files = [(path, os.fsencode(path.relative_to(folder).as_posix()), st) for path, st, _ in _files(folder)]
    stamp = usercache.key(pnpgen.__version__.encode(), str(FORMAT).encode(), os.fsencode(folder),
                          *(b"%s\0%d\0%d\0%d" % (name, st.st_size, st.st_mtime_ns, st.st_ino) for _, name, st in files))
    known = usercache.get("code", stamp)
    if isinstance(known, str):
        return known
    parts = [pnpgen.__version__.encode(), str(FORMAT).encode()]
    for path, name, st in files:  # the fonts an installed pnpgen ships inside it: by size, not read
        parts += [name, str(st.st_size).encode() if st.st_size > BIG_FILE else path.read_bytes()]
    made = f"{pnpgen.__version__}+{_digest(parts)[:16]}"
    usercache.put("code", stamp, made)
    return made


def big_file_stamp(st: os.stat_result) -> bytes:
    """What a key takes of a file too big to read on every run (fonts, large art): its stamp
    (usercache.file_stamp; a file replaced by one of the same size, its modification time restored,
    was taken for the old one)."""
    return b"%d:%d:%d:%d" % usercache.file_stamp(st)


def fingerprint(folders: Iterable[Path], options: Any, known: FileHashes | None = None,
                fonts: Path | None = None) -> str:
    """Hash of every file under ``folders`` (name, then content or size+mtime for big files),
    pnpgen itself (``code()``) and ``options`` (its repr). ``known``: hashes kept from earlier runs.
    ``fonts``, one of ``folders``: only its own font files (``_font_files``)."""
    parts: list[bytes] = [f"pnpgen {code()}".encode(), repr(options).encode()]
    for folder in folders:
        if folder.is_relative_to(resources.folder("pnpgen")):
            for path, st, part in _own_parts(folder):  # (the table of hashes learns them as below)
                parts += [os.fsencode(path), part]
                if known is not None and st is not None and known.get(path, st) is None:
                    known.learn(path, st, part.decode())
            continue
        for path, _, part in _parts(folder, known, folder == fonts):
            parts += [os.fsencode(path), part]
    return _digest(parts)


def _parts(folder: Path, known: FileHashes | None, fonts: bool = False) -> list[tuple[Path, os.stat_result | None, bytes]]:
    """Each file under ``folder`` (``_files``; of fonts/, ``_font_files``), its stamp when its
    content was hashed, and what ``fingerprint`` takes of it."""
    out: list[tuple[Path, os.stat_result | None, bytes]] = []
    for path, st, link in _font_files(folder) if fonts else _files(folder):
        if link:  # by where it points and its target's stamp, never read: it may lead out
            out.append((path, None, os.fsencode(f"link {os.readlink(path)} {st.st_size}:{st.st_mtime_ns}")))
        elif st.st_size > BIG_FILE:
            out.append((path, None, big_file_stamp(st)))
        else:
            out.append((path, st, b""))
    # the files not known by their stamp are read and hashed on threads (a thousand cards' art, 300 MB)
    unknown = [(path, st) for path, st, _ in out if st is not None and (known is None or known.get(path, st) is None)]
    hashed(lambda item: content_hash(item[0], known, item[1]), unknown if len(unknown) > 8 else [])
    return [(path, st, content_hash(path, known, st).encode() if st is not None else part) for path, st, part in out]


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
        digest = _content(str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        if known is not None:
            known.learn(path, st, digest)
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
        self._known: dict[str, list] = {}
        self._dirty = False
        try:  # a header line (format, the seal of the text), then the table: one another machine wrote is not read
            head, _, text = read_record(self.path).partition(b"\n")
            outer = json.loads(head)
            files = json.loads(text) if outer.get("format") == 2 and outer.get("check") == seal(text) else None
            if isinstance(files, dict):
                self._known = {k: v for k, v in files.items() if isinstance(v, list) and len(v) == 7
                               and all(type(n) is int for n in (*v[:4], *v[5:])) and isinstance(v[4], str)}
        except (OSError, ValueError, AttributeError):
            pass

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

    def learn(self, path: Path, st: os.stat_result, digest: str, wrote: bool = False) -> None:
        self._known[str(path)] = [*self._stamp(st), digest, time.time_ns(), 1 if wrote else 0]
        self._dirty = True

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


@lru_cache(maxsize=65536)
def _content(path: str, size: int, mtime_ns: int, ctime_ns: int, inode: int) -> str:
    """The hash of a file's content, read once per process for as long as the file is unchanged
    (a build fingerprints a game's art three times: its inputs, its renders, its faces). One
    larger than HASHED_WHOLE is read a block at a time: a file of gigabytes in art/ (a video dropped
    there, a sparse file planted) asked for as much memory, and ended the build in MemoryError."""
    if size <= HASHED_WHOLE:
        return sha(Path(path).read_bytes())
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def hashed(check: Callable[[Any], Any], items: list) -> list:
    """``check`` of each item, on threads (SHA-256 lets go of the interpreter while it hashes, so a
    big deck's four documents, a gigabyte, hash on every core at once), in the items' order."""
    if len(items) < 2 or (os.cpu_count() or 1) < 2:
        return [check(i) for i in items]
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        return list(pool.map(check, items))


def sha(data: bytes | PdfFile) -> str:
    """SHA-256 (hex) of a file's bytes, held in memory or as parts (pdf/assemble.py)."""
    return data.sha() if isinstance(data, PdfFile) else hashlib.sha256(data).hexdigest()


def recorded(data: bytes | PdfFile) -> str:
    """What a game's state records of a file it wrote: the SHA-256 of its bytes, or of a
    document's segments (``PdfFile.digest``: a big deck's documents are not read to be recorded)."""
    return data.digest()[0] if isinstance(data, PdfFile) else hashlib.sha256(data).hexdigest()


def document_record(plan: str, data: bytes | PdfFile, known: dict[Stored, bytes] | None = None) -> dict[str, Any]:
    """A document as a state keeps it: its plan's key, what it records of the file (``recorded``)
    and, for a digest by segments, their lengths (the layout ``file_digest`` checks a file by)."""
    digest, layout = data.digest(known) if isinstance(data, PdfFile) else (sha(data), None)
    return {"plan": plan, "sha": digest, **({"layout": list(layout)} if layout is not None else {})}


def layout_of(doc: Any) -> tuple[int, ...] | None:
    """The layout a state's document record gives (None: a plain SHA-256)."""
    layout = doc.get("layout") if isinstance(doc, dict) else None
    return tuple(layout) if isinstance(layout, list) else None


@dataclass
class GameState:
    """What the last good build of a game was made from and wrote."""

    inputs: str
    documents: dict[str, dict[str, str]] = field(default_factory=dict)  # path → {"plan": key, "sha": hash}
    files: dict[str, str] = field(default_factory=dict)  # every file written (rel path) → sha256
    report: dict[str, Any] = field(default_factory=dict)  # deck records, for the next change report
    uses: list[str] = field(default_factory=list)  # cache entries the build used (paths in .cache/)
    warnings: list[str] = field(default_factory=list)  # said again when the game is up to date

    def to_json(self) -> bytes:
        body = {"format": FORMAT, "pnpgen": code(), "inputs": self.inputs, "documents": self.documents,
                "files": self.files, "report": self.report, "uses": self.uses, "warnings": self.warnings}
        text = json.dumps(body, ensure_ascii=False, sort_keys=True)
        return json.dumps({"check": seal(text.encode()), "body": body}, ensure_ascii=False,
                          sort_keys=True).encode()

    @classmethod
    def from_json(cls, data: bytes) -> GameState | None:
        """The state, or None when the record is damaged, foreign or of another format. One another
        pnpgen wrote (an upgrade) is taken for what the last build wrote and reported — the files it
        made (what this build no longer makes is removed) and its decks (the change report compares
        with them) — and for nothing else: never up to date, no document reused, no cache entry."""
        try:
            outer = json.loads(data)
            body = outer["body"]
            text = json.dumps(body, ensure_ascii=False, sort_keys=True)
            if outer["check"] != seal(text.encode()) or body["format"] != FORMAT:
                return None
            same = body["pnpgen"] == code()
            warnings = body.get("warnings", [])
            state = cls(str(body["inputs"]) if same else "", dict(body["documents"]) if same else {},
                        dict(body["files"]), dict(body["report"]), list(body["uses"]) if same else [],
                        [w for w in warnings if isinstance(w, str)] if isinstance(warnings, list) and same else [])
            if not all(isinstance(v, dict) and {"plan", "sha"} <= v.keys() and _layout_ok(v.get("layout", []))
                       for v in state.documents.values()) \
                    or not all(isinstance(u, str) for u in state.uses) \
                    or not all(safe_rel(rel) for rel in [*state.files, *state.documents]):
                return None
            return state
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


def _layout_ok(layout: Any) -> bool:
    return isinstance(layout, list) and all(type(n) is int and n >= 0 for n in layout)


class Cache:
    """``<out>/.cache``: one state file per game, one file per converted face."""

    def __init__(self, out_root: Path):
        self.root = out_root / ".cache"
        self.pictures_used: set[Path] = set()  # the picture entries of the faces read or stored
        self._damaged: set[Path] = set()  # picture entries found not to be what their name says
        self._read: dict[str, bytes] = {}  # pictures read while faces are read (``let_go_of_pictures``)
        # id(a picture's bytes) → (them, their SHA-256), for every picture the faces read or stored
        # hold: the build names pictures by that hash (pdf/raster.py ImageStreams.settle), made once here
        self.picture_keys: dict[int, tuple[bytes, str]] = {}
        self.stores: Stores | None = None  # while set, ``store`` hands entries to this writing thread
        # The game's art files by the SHA-256 of their content (set by the build): a picture that is
        # an art file as it is is not copied into the cache — a face found by its key (which holds
        # the hashes of the files it shows) reads it from the art file.
        self.art_files: dict[str, Path] = {}
        self._hashes: FileHashes | None = None

    @property
    def hashes(self) -> FileHashes:
        """The hashes of files kept by their stamp between runs (read on first use)."""
        if self._hashes is None:
            self._hashes = FileHashes(self.root)
        return self._hashes

    def state_path(self, slug: str) -> Path:
        return self.root / f"{slug}.json"

    def state(self, slug: str) -> GameState | None:
        try:
            return GameState.from_json(read_record(self.state_path(slug)))
        except OSError:
            return None

    def up_to_date(self, slug: str, inputs: str, out_dir: Path, known: FileHashes | None = None) -> GameState | None:
        """The last state if the game's inputs are unchanged and every file it wrote is still there
        as written (same size and content hash; ``known``: hashes kept by stamp); else None."""
        state = self.state(slug)
        if state is None or state.inputs != inputs or not state.files:
            return None
        files = sorted(state.files.items())
        return state if all(hashed(lambda f: _same(out_dir, f[0], f[1], known, layout_of(state.documents.get(f[0]))),
                                   files)) else None

    def reuse(self, state: GameState | None, rel: str, plan_key: str, out_dir: Path,
              known: FileHashes | None = None) -> PdfFile | None:
        """The file of an output whose plan did not change since the last good build, as it is
        on disk (checked against its hash, read block by block, never held whole)."""
        if state is None:
            return None
        doc = state.documents.get(rel)
        if doc is None or doc["plan"] != plan_key:
            return None
        found = plain_file(out_dir, rel)
        if found is None:
            return None
        path, st = found
        layout = layout_of(doc)
        kept = PdfFile((Stored(str(path), st.st_size),), doc["sha"] if layout is None else None, (doc["sha"], layout))
        try:
            if known is not None and known.get(path, st) == doc["sha"]:
                return kept  # the file pnpgen wrote, untouched since
            return kept if file_digest(path, layout) == doc["sha"] else None
        except OSError:
            return None

    # -------------------------------------------------------------- small records (nesting)

    def records(self, kind: str) -> dict[str, Any]:
        """Every intact record of ``kind`` (key → value); damaged ones are skipped."""
        out: dict[str, Any] = {}
        folder = self.root / kind
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                outer = json.loads(read_record(path))
                body = outer["body"]
                if outer["check"] == seal(json.dumps(body, sort_keys=True).encode()) \
                        and body["pnpgen"] == code() and path.stem == sha(body["key"].encode())[:32]:
                    out[body["key"]] = body["value"]
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
        return out

    def record_value(self, kind: str, key: str) -> Any:
        """One record's value by its key, or None when absent or not intact."""
        path = self.record_path(kind, key)
        try:
            outer = json.loads(read_record(path))
            body = outer["body"]
            if outer["check"] == seal(json.dumps(body, sort_keys=True).encode()) \
                    and body["pnpgen"] == code() and body["key"] == key:
                return body["value"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        return None

    def record_path(self, kind: str, key: str) -> Path:
        return self.root / kind / f"{sha(key.encode())[:32]}.json"

    def record(self, kind: str, key: str, value: Any) -> tuple[Path, bytes]:
        """The file that stores one record, and its bytes."""
        body = {"pnpgen": code(), "key": key, "value": value}
        data = json.dumps({"check": seal(json.dumps(body, sort_keys=True).encode()), "body": body}, sort_keys=True)
        return self.record_path(kind, key), data.encode()

    # -------------------------------------------------------------- packs (many records, one file)

    def pack(self, kind: str) -> dict[str, Any]:
        """The records of a pack (key → value): many records in one file, read in one go — a
        thousand cards' rendered faces are one file to read and write, not two thousand. Empty
        when the pack is absent, damaged, another pnpgen's or another machine's. The file is a header
        line (pnpgen, the seal of the text) and the records' JSON text, checked by sealing the
        bytes as read."""
        try:
            head, _, text = read_record(self.pack_path(kind)).partition(b"\n")
            outer = json.loads(head)
            if outer.get("pnpgen") != code() or outer.get("check") != seal(text):
                return {}
            records = json.loads(text)
            return records if isinstance(records, dict) else {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def pack_path(self, kind: str) -> Path:
        return self.root / f"{kind}.pack.json"

    def pack_entry(self, kind: str, records: dict[str, Any]) -> tuple[Path, bytes]:
        """The file of a pack holding ``records``, and its bytes."""
        text = json.dumps(records, sort_keys=True, ensure_ascii=False).encode()
        head = json.dumps({"pnpgen": code(), "check": seal(text)}, sort_keys=True).encode()
        return self.pack_path(kind), head + b"\n" + text

    # -------------------------------------------------------------- faces

    def store(self, path: Path, data: bytes) -> bool:
        """Write an entry named by its content (a converted face) at once, atomically: a build
        that fails after this leaves an entry no state lists, which the next good build's prune
        removes; an interrupted write leaves a temporary file the next build removes. False when
        it cannot be written here (the build's own write then says why, or writes it), or when
        the output folder is not yet one (its first build writes everything with its marker)."""
        if not self.marked():
            return False
        if self.stores is not None:
            self.stores.put(path, data)
            return True
        return store(path, data)

    def holds(self, path: Path) -> bool:
        """Is the entry ``path`` written, or on its way (``stores``)?"""
        return (self.stores is not None and path in self.stores.pending) or path.is_file()

    def marked(self) -> bool:
        """Is the cache's folder already an output folder (its marker or lock written)?"""
        return is_output_folder(self.root.parent)

    def face_path(self, key: str) -> Path:
        return self.root / "faces" / key[:2] / f"{key}.json"

    def face(self, key: str, from_json, pictures: Callable[[str], bytes] | None = None) -> Any | None:
        """A converted face, or None when absent, damaged or not what its name says. The entry is
        a header line (key, pnpgen, the hash of the art's text) and the art's JSON text: checked
        by hashing the bytes as read, not by serialising the art again. Its pictures are entries
        of their own (``picture_path``), each read as it is and checked against its name: no
        base64 to decode, and a picture shown by many faces is stored once. ``pictures`` reads
        them (default ``picture``: their bytes)."""
        try:
            head, _, text = read_record(self.face_path(key)).partition(b"\n")
            outer = json.loads(head)
            if outer.get("key") != key or outer.get("pnpgen") != code() or outer.get("check") != seal(text):
                return None
            return from_json(json.loads(text), pictures=pictures or self.picture, sealed=False)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def face_entries(self, key: str, art: Any, record: ArtRecord) -> dict[Path, bytes]:
        """The files that store a converted face (an ``Art``): each picture it shows that the
        cache does not hold yet (named by its SHA-256), then the face's record naming them
        (``record``: ``ArtRecord.of(art)``, made by the worker that converted the face, or the caller)."""
        text = record.text
        pictures = dict(zip(record.pictures, (it[1] for it in art.items if it[0] == "image")))
        out: dict[Path, bytes] = {}
        for name, data in sorted(pictures.items()):
            self.picture_keys[id(data)] = (data, name)
            if name in self.art_files:
                continue  # the art file itself, as it is: read from there (``picture_source``)
            path = self.picture_path(name)
            self.pictures_used.add(path)
            if path in self._damaged or not self.holds(path):
                out[path] = data
        head = json.dumps({"key": key, "pnpgen": code(), "check": seal(text)}, sort_keys=True).encode()
        out[self.face_path(key)] = head + b"\n" + text
        return out

    def picture_source(self, name: str) -> Path | None:
        """Where the picture ``name`` can be read as it is: the art file with those bytes, else
        the cache's copy (written, or on its way); None when neither holds it."""
        source = self.art_files.get(name)
        if source is not None:
            return source
        path = self.picture_path(name)
        return path if self.holds(path) else None

    def picture_path(self, name: str) -> Path:
        return self.root / "pictures" / name[:2] / f"{name}.bin"

    def picture(self, name: str) -> bytes:
        """A picture a face names, as stored; ValueError when its bytes do not hash to its name.
        Read and checked once however many faces show it (a frame on every card): every face
        holds the same bytes, which the documents then hash once."""
        known = self._read.get(name)
        if known is not None:
            return known
        source = self.art_files.get(name)  # an art file as it is, which the face's key vouches for
        path = source or self.picture_path(name)
        data = path.read_bytes()
        if sha(data) != name:
            if source is not None:
                raise ValueError(f"{source.name} changed while the build read it")
            self._damaged.add(path)
            raise ValueError(f"picture {name[:12]}… of the cache is damaged")
        if source is None:
            self.pictures_used.add(path)
        self._read[name] = data
        self.picture_keys[id(data)] = (data, name)
        return data

    def let_go_of_pictures(self) -> None:
        """Forget the pictures read so far (the faces that show them keep them as long as they
        need them): called once the build's faces are read."""
        self._read.clear()

    # -------------------------------------------------------------- pruning

    def entry(self, path: Path) -> str:
        """An entry's name in a state's ``uses``: its path inside the cache."""
        return path.relative_to(self.root).as_posix()

    def in_use(self) -> set[str]:
        """Every entry a readable state lists (every game and language edition built here). A
        damaged or foreign state lists nothing: its game is rebuilt in full anyway."""
        used: set[str] = set()
        for path in sorted(self.root.glob("*.json")) if self.root.is_dir() else []:
            try:
                state = GameState.from_json(read_record(path))
            except OSError:
                continue
            if state is not None:
                used.update(state.uses)
        return used

    def refuse_links(self) -> None:
        """Stop before anything is read or written when the cache holds a symbolic link: pnpgen
        never writes one, and following it would read, or prune, files elsewhere."""
        if self.root.is_symlink():
            raise InputError("the build cache is a link to another folder", path=self.root,
                             expected="a plain folder: delete it, the next build makes it again")
        for folder, dirs, files in os.walk(self.root):
            for name in sorted(dirs + files):
                if os.path.islink(os.path.join(folder, name)):
                    link = Path(folder, name).relative_to(self.root.parent)
                    raise InputError(f"the build cache holds a link ({link.as_posix()}), which pnpgen never "
                                     "makes", path=self.root, expected="a plain folder: delete it, the next "
                                     "build makes it again")

    def prune(self) -> int:
        """Remove every entry that no state lists, and the cache's folders left empty; returns
        how many files went. Only files named as pnpgen names its entries (``ENTRY``), in real
        folders of the cache (links are never followed), go: anything else found there is
        not pnpgen's and stays. Run under the build lock, after the build's own states are
        written, so the states of other games built here are read as they are now."""
        if not self.root.is_dir() or self.root.is_symlink():
            return 0
        used = self.in_use()
        n = 0
        folders: list[str] = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(folder, d)))
            rel_folder = os.path.relpath(folder, self.root).replace(os.sep, "/")
            if rel_folder != "." and rel_folder.split("/")[0] in KINDS:
                folders.append(folder)
            for name in sorted(files):
                rel = f"{rel_folder}/{name}" if rel_folder != "." else name
                if ENTRY.fullmatch(rel) and rel not in used:  # a path made only for what goes
                    path = Path(folder, name)
                    if not path.is_symlink():
                        path.unlink(missing_ok=True)
                        n += 1
        for folder in sorted(folders, reverse=True):
            try:
                os.rmdir(folder)  # only when empty
            except OSError:
                pass
        return n


def plain_file(folder: Path, rel: str) -> tuple[Path, os.stat_result] | None:
    """``folder/rel`` and its stat when it is a regular file reached without a link (a link beside
    the outputs could lead anywhere: to a FIFO, whose reading never ends); else None."""
    path = inside(folder, rel)
    try:
        st = path.lstat() if path is not None else None
    except OSError:
        return None
    return (path, st) if path is not None and st is not None and stat.S_ISREG(st.st_mode) else None


def as_written(out_dir: Path, rel: str, digest: str, known: FileHashes | None = None) -> bool:
    """Whether ``out_dir/rel`` is still the file pnpgen wrote (a plain file of that SHA-256)."""
    return _same(out_dir, rel, digest, known)


def _same(out_dir: Path, rel: str, digest: str, known: FileHashes | None = None,
          layout: tuple[int, ...] | None = None) -> bool:
    found = plain_file(out_dir, rel)
    if found is None:
        return False
    path, st = found
    try:
        if known is not None and known.get(path, st) == digest:
            return True
        actual = file_digest(path, layout)
        if known is not None:
            known.learn(path, st, actual)
        return actual == digest
    except OSError:
        return False


def plan_keys_of(documents: dict[str, Any], faces: dict[str, str],
                 seen: dict[int, bytes] | None = None) -> dict[str, str]:
    """``plan_key`` of each document, each page written out and hashed once (a deck's home pages
    are the all-in-one file's pages too); ``seen`` gets each page's digest (by its id)."""
    seen = {} if seen is None else seen
    return {path: plan_key(doc, faces, seen) for path, doc in documents.items()}


def plan_key(doc, faces: dict[str, str], pages: dict[int, bytes] | None = None) -> str:
    """Hash of a document's page plan and of the faces it places (their SVG keys plus the art
    digest of faces that embed images). ``pages``: the hash of each page's text made by an
    earlier call (by the page object), for plans that do not change while their keys are made;
    only hashes are kept, never the text of a whole document."""
    pages = {} if pages is None else pages
    parts = [repr(getattr(doc, f.name)).encode() for f in dataclasses.fields(doc) if f.name != "pages"]
    for page in doc.pages:
        digest = pages.get(id(page))
        if digest is None:
            digest = pages[id(page)] = hashlib.sha256(repr(page).encode()).digest()
        parts.append(digest)
    return _digest([*parts, *(f"{k}={faces.get(k, '')}".encode() for k in doc.faces())])
