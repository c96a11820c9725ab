"""The build cache under ``build/.cache/``: what the last good build of each game read and wrote,
and converted faces, so a rebuild redoes only what an edit changed.

- A game's *inputs fingerprint* (``engine/fingerprint.py``) covers every file the build can read
  (its data folder, its own and the shared templates and icons, the fonts, pnpgen itself) plus
  the options. Unchanged → the game is up to date and nothing is loaded, drawn or written.
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
import hashlib
import io
import json
import marshal
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.atomic import Stores, read_record, store
from pnpgen.engine import packlog
from pnpgen.engine.fingerprint import FileHashes, code, content_hash, hashed, sha
from pnpgen.engine.output import is_output_folder
from pnpgen.engine.packlog import record_key
from pnpgen.engine.state import GameState, States, hashed_to, layout_of, plain_file, stamped_as
from pnpgen.errors import InputError
from pnpgen.memo import Pack, Stamps
from pnpgen.pdf.assemble import PdfFile, Stored, file_digest
from pnpgen.usercache import parts_digest, seal

if TYPE_CHECKING:  # (a build that finds everything up to date loads no stage)
    from pnpgen.svg.artwork import ArtRecord

# The names of the entries pnpgen writes below .cache/: pruning removes only files named so.
ENTRY = re.compile(r"faces/[0-9a-f]{2}/[0-9a-f]{32,64}(-[0-9a-f]{16}){0,2}\.json|jinja/[0-9a-f]{40,64}\.jbc"
                   r"|pictures/[0-9a-f]{2}/[0-9a-f]{64}\.bin|images/[0-9a-f]{2}/[0-9a-f]{64}\.(bin|json)"
                   r"|(nest|readings|books|renders/[^/\x00]{1,255})/[0-9a-f]{32}\.json"
                   r"|(renders|art|forms|pieces|bleed|converted|layouts|lint)/[^/\x00]{1,200}\.pack\.(json|log)")
KINDS = ("faces", "pictures", "images", "jinja", "nest", "readings", "books", "renders", "art", "forms", "pieces", "bleed", "converted", "layouts", "lint")  # the cache's folders


def _pack_head(check: str, whole: bool = False) -> bytes:
    """A pack's first line: the code it was made by and the seal of its lines (``pack_entry``);
    ``whole``: of its records as one value (``WHOLE``)."""
    return json.dumps({"pnpgen": code(), "check": check, **({"format": WHOLE_FORMAT} if whole else {})},
                      sort_keys=True).encode()


# The packs an edit asks for every record of (each face's render, each picture's pieces and size,
# each face's print lint): kept as one value, its records by key, in Python's ``marshal`` format —
# plain values only, so reading it runs no code — read with one decode where a line per record
# was each decoded by ``json`` (3,000 cards: 0.16 CPU-s of decoding, 0.05 so; docs/speed-rounds.md,
# textL). Every other pack (the faces converted and the forms drawn, of which an edit asks few
# records, or holds each only while it draws it) stays a line per record, each decoded when asked.
WHOLE = ("renders/", "pieces/", "art/", "lint/")
WHOLE_FORMAT = "marshal"
# marshal's version 2: no references between the objects written (version 3 and later mark an
# object held twice, by its reference count), so equal records are the same bytes however the
# build came by them — an edit's pack the bytes of a cold build's
WHOLE_VERSION = 2


def _whole(kind: str) -> bool:
    return kind.startswith(WHOLE)


def _as_read_next(value: Any) -> Any:
    """A record's value as the next build reads it: through JSON, as a pack of lines gives it
    (lists for tuples, text keys, each dict's keys in order), so the records are the same values
    whichever way a pack keeps them."""
    return json.loads(json.dumps(value, sort_keys=True, ensure_ascii=False))


def _first_link(root: str) -> str | None:
    """The first symbolic link below ``root`` (each folder's names in order, a folder's own before
    its subfolders'), told by what its folder's listing says of each entry: a 3,000-card build's
    cache, some 3,000 files, had each looked at again (``os.path.islink``, one ``lstat`` a file:
    some 0.012 of a build's 0.016 CPU-s for the walk). A folder that cannot be listed is passed
    over, as ``os.walk`` passed it; links are never followed."""
    folders = [root]
    while folders:
        try:
            with os.scandir(folders.pop()) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue
        inner = []
        for entry in entries:
            try:
                if entry.is_symlink():
                    return entry.path
                if entry.is_dir(follow_symlinks=False):
                    inner.append(entry.path)
            except OSError:
                continue
        folders.extend(reversed(inner))  # (the first subfolder walked first)
    return None


class Cache:
    """``<out>/.cache``: one state file per game, one file per converted face."""

    def __init__(self, out_root: Path, states: States | None = None, hashes: FileHashes | None = None,
                 stamps: Stamps | None = None):
        self.root = out_root / ".cache"
        self._root_text = f"{self.root}/"  # (``entry``)
        # each game's state as read (its bytes, what they say), shared by the build's caches: a build
        # read a thousand cards' state three times (up to date? what did the last build make? which
        # entries does it use?), and parsing and checking it was some 15 ms each time
        self.states: States = states if states is not None else {}
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
        # the table of files' hashes, shared by the check and the build of one run (``hashes``): it
        # was read by each, and the inputs fingerprinted again after the commit for the build's to learn the check's
        self._hashes: FileHashes | None = hashes
        # each file's stat, asked of the disk once in this build (given: the run's check took the inputs')
        self.stamps = stamps if stamps is not None else Stamps()
        self._digests: dict[Path, tuple[os.stat_result, str]] = {}  # ``digest``'s, by file and its stat as first seen
        # each pack read (its records' lines, the values decoded), so writing the pack again
        # encodes only the records made since (``pack_entry``)
        self._packs: dict[str, Pack] = {}
        self._big: set[Path] = set()  # the logs the big packs read may have (``with_logs``)

    @property
    def hashes(self) -> FileHashes:
        """The hashes of files kept by their stamp between runs (read on first use)."""
        if self._hashes is None:
            self._hashes = FileHashes(self.root)
        return self._hashes

    def digest(self, path: Path) -> str:
        """The SHA-256 of a file's content (``content_hash``) by its stat as this build first saw it:
        worked out once per file and build (a card's picture was looked up in the table of hashes
        four times a build: its size, the render memo, the faces' pictures, the art files)."""
        st = self.stamps.of(path)
        kept = self._digests.get(path)
        if kept is not None and kept[0] is st:
            return kept[1]
        found = content_hash(path, self.hashes, st)
        self._digests[path] = (st, found)
        return found

    def state_path(self, slug: str) -> Path:
        return self.root / f"{slug}.json"

    def state(self, slug: str) -> GameState | None:
        """The game's last state; None for another game's or edition's record under its name (a
        record copied or moved between output folders: its files and decks are not this game's,
        and its change report would list every piece as new)."""
        state = self.state_at(self.state_path(slug))
        return None if state is not None and state.game not in ("", slug) else state

    def state_at(self, path: Path) -> GameState | None:
        """The state in ``path`` (None: none, or not a good one); parsed once for the same bytes."""
        try:
            data = read_record(path)
        except OSError:
            return None
        known = self.states.get(path)
        if known is not None and known[0] == data:
            return known[1]
        state = GameState.from_json(data)
        self.states[path] = (data, state)
        return state

    def state_file(self, slug: str, state: GameState) -> tuple[Path, bytes]:
        """The file of a game's new state and its bytes, known as read (the build's prune reads it)."""
        state.game = slug
        path, data = self.state_path(slug), state.to_json()
        self.states[path] = (data, state)
        return path, data

    def up_to_date(self, slug: str, inputs: str, out_dir: Path, known: FileHashes | None = None) -> GameState | None:
        """The last state if the game's inputs are unchanged and every file it wrote is still there
        as written (same size and content hash; ``known``: hashes kept by stamp); else None. Each
        file is looked at on this thread, and one known by its stamp (every one, on a no-op build)
        hashed by none: a pool of threads started for them was most of a no-op build's check. The
        rest are hashed as ``hashed`` hashes, on threads only when there is enough to read."""
        state = self.state(slug)
        if state is None or state.inputs != inputs or not state.files:
            return None
        found = []
        for rel, digest in sorted(state.files.items()):
            there = plain_file(out_dir, rel)
            if there is None:
                return None
            if not stamped_as(there, digest, known):
                found.append((there, digest, layout_of(state.documents.get(rel))))
        return state if all(hashed(lambda f: hashed_to(f[0], f[1], f[2], known), found,
                                   size=lambda f: f[0][1].st_size, threads=known is None or known.threads)) else None

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

    def pack(self, kind: str, keep: bool = True) -> Pack:
        """The records of a pack (key → value): many records in one file — a thousand cards'
        rendered faces are one file to read and write, not two thousand. Empty when the pack is
        absent, damaged, another pnpgen's or another machine's. The file is a header line (pnpgen,
        the seal of the text) and one line per record (``[key, value]`` in JSON, by key), checked
        by sealing the bytes as read; each record's key is read from its line, its value decoded
        only when asked for (``Pack``: ``keep``, whether a value decoded is kept there), so that
        ``pack_entry`` writes back as they are the lines this build did not change. A pack of
        ``WHOLE``'s kinds is, after its header, one value (its records by key, in ``marshal``),
        read with one decode, every record a value at once."""
        self._packs.pop(kind, None)
        try:
            # the records' text sealed, decoded and cut into lines where it lies in the file's bytes,
            # never copied out of them first (the forms pack of 3,000 cards: 13 MB copied, some 5 ms)
            data = read_record(self.pack_path(kind))
            cut = data.find(b"\n")
            text = memoryview(data)[cut + 1:] if cut >= 0 else memoryview(b"")
            outer = json.loads(data[:cut] if cut >= 0 else data)
            if outer.get("pnpgen") != code() or outer.get("check") != seal(text) \
                    or outer.get("format") != (WHOLE_FORMAT if _whole(kind) else None):
                return Pack()
            if _whole(kind):  # (one value: its records by key)
                values = marshal.loads(text)
                if type(values) is not dict or not all(type(k) is str for k in values):
                    return Pack()
                merged = packlog.merged(self._log(kind), outer["check"], values, whole=True)
                if merged is None:
                    return Pack()
                pack, base = Pack(values=merged), values
            else:
                lines: dict[str, bytes] = {}
                for line in data.split(b"\n")[1:] if len(text) else []:
                    key = record_key(line)
                    if key is None or key in lines:  # (a line is never empty, a key never twice)
                        return Pack()
                    lines[key] = line
                merged = packlog.merged(self._log(kind), outer["check"], lines, whole=False)
                if merged is None:
                    return Pack()
                pack, base = Pack(merged, keep), lines
        except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
            return Pack()
        pack.base = (outer["check"], len(data), base)
        if len(data) >= packlog.LOG_FROM:
            self._big.add(self.log_path(kind))
        self._packs[kind] = pack
        return pack

    def _log(self, kind: str) -> bytes | None:
        """The bytes of the log beside a pack (engine/packlog.py), None when there is none."""
        try:
            return read_record(self.log_path(kind))
        except OSError:
            return None

    def let_go_of_pack(self, kind: str) -> None:
        """What ``pack`` kept of a pack's lines, let go of once its entry is made: a thousand
        faces' JSON held through the rest of a build made each of its collections longer."""
        self._packs.pop(kind, None)

    def pack_path(self, kind: str) -> Path:
        return self.root / f"{kind}.pack.json"

    def log_path(self, kind: str) -> Path:
        """The log beside a big pack: the records an edit made since the pack was written whole."""
        return self.root / f"{kind}.pack.log"

    def with_logs(self, uses: set[Path]) -> set[Path]:
        """A build's cache entries with the log of each big pack it read (``packlog.LOG_FROM``: one it
        may have, or be given), kept by the prune while the pack is (one absent is nothing)."""
        return uses | {log for path in uses if path.name.endswith(".pack.json")
                       and (log := path.with_name(path.name.removesuffix(".json") + ".log")) in self._big}

    @staticmethod
    def stale_logs(files: Mapping[Path, Any]) -> list[Path]:
        """The logs of the packs written whole among ``files`` (each pack's log now holds records
        the pack holds: removed in the same commit, when there)."""
        return [log for path in files if path.name.endswith(".pack.json")
                and (log := path.with_name(path.name.removesuffix(".json") + ".log")) not in files]

    def entry_path(self, kind: str, data: bytes) -> Path:
        """Where the bytes ``pack_entry`` made for ``kind`` go: the pack, or its log."""
        head = data[:data.find(b"\n")] if b"\n" in data else data
        return self.log_path(kind) if b'"base": ' in head else self.pack_path(kind)

    def pack_entry(self, kind: str, records: Mapping[str, Any]) -> tuple[Path, bytes]:
        """The file of a pack holding ``records``, and its bytes. A record given as bytes is its
        line as read from the pack (``Pack.line``), and one whose value is the very object
        ``pack`` decoded (values read from a pack are never changed in place) is written as the
        line it was read from: an edit of a thousand cards encodes the few records it made, not
        the whole pack again (the forms pack: some 5 MB). The pack read is let go of here (its
        entry is made once a build): held on, 3,000 cards' packs stayed in memory to the commit.
        Each line goes into the entry as it is made, its header's seal written over a stand-in of
        its length at the end: the lines are never held beside the entry they are joined into
        (3,000 cards' forms pack: 12 MB less at the build's peak). The seal is made in one call over
        the entry's body as written, not fed a line at a time (3,000 cards' packs: 50,000 lines,
        some 0.06 CPU-s of an edit, docs/speed.md edit3k)."""
        read = self._packs.pop(kind, Pack())
        if _whole(kind):  # one value: the records read kept as they are, the others as the next build reads them
            values = {key: json.loads(value)[1] if isinstance(value, bytes) else value if read.is_read(key, value)
                      else _as_read_next(value) for key, value in sorted(records.items())}
            logged = packlog.of_values(values, read.base, WHOLE_VERSION)
            if logged is not None:
                return self.log_path(kind), logged
            body = marshal.dumps(values, WHOLE_VERSION)
            return self.pack_path(kind), _pack_head(seal(body), whole=True) + b"\n" + body
        logged = packlog.of_lines(records, read)
        if logged is not None:
            return self.log_path(kind), logged
        out = io.BytesIO()
        stand_in = _pack_head("0" * 64)
        out.write(stand_in)

        for key in sorted(records):
            value = records[key]
            line = value if isinstance(value, bytes) else read.as_read(key, value) if key in read else None
            if line is None:
                line = json.dumps([key, value], sort_keys=True, ensure_ascii=False).encode()
            out.write(b"\n")
            out.write(line)
        if out.tell() == len(stand_in):
            out.write(b"\n")  # (no record: the header and a line feed)
        with out.getbuffer() as written, written[len(stand_in) + 1:] as joined:  # (the lines as joined)
            head = _pack_head(seal(joined))
        assert len(head) == len(stand_in)  # (a seal is 64 hex digits)
        out.seek(0)
        out.write(head)
        return self.pack_path(kind), out.getvalue()

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
        return self.root / f"faces/{key[:2]}/{key}.json"  # (one join: a build names each of its faces)

    def face(self, key: str, from_json, pictures: Callable[[str], bytes] | None = None,
             packed: Pack | None = None, read: dict[str, Any] | None = None,
             later: Callable[[Callable[[], Any], tuple[bytes, ...]], Any] | None = None) -> Any | None:
        """A converted face, or None when absent, damaged or not what its name says. The entry is
        a header line (key, pnpgen, the hash of the art's text) and the art's JSON text: checked
        by hashing the bytes as read, not by serialising the art again. Its pictures are entries
        of their own (``picture_path``), each read as it is and checked against its name: no
        base64 to decode, and a picture shown by many faces is stored once. ``pictures`` reads
        them (default ``picture``: their bytes). ``packed``: the faces read from a pack (a game's
        faces in one sealed file, ``converted/<edition>.pack.json``), tried before the face's own
        entry; ``read`` gets what the next pack holds of the face: its line in ``packed`` as read,
        or the JSON it was made from. ``later`` (svg/artwork.py ``ArtToRead.later``): a face of the
        pack without a fallback is decoded only when its items are read, its pictures' bytes asked
        of ``pictures`` now (``face_later``)."""
        for look in (packed, None):
            try:
                if look is not None:
                    art = face_later(key, look, from_json, pictures or self.picture, later) \
                        if later is not None else None
                    if art is not None:
                        if read is not None:
                            read[key] = look.line(key)
                        return art
                    obj = look.get(key)
                    if obj is None:
                        continue
                else:
                    head, _, text = read_record(self.face_path(key)).partition(b"\n")
                    outer = json.loads(head)
                    if outer.get("key") != key or outer.get("pnpgen") != code() or outer.get("check") != seal(text):
                        return None
                    obj = json.loads(text)
                art = from_json(obj, pictures=pictures or self.picture, sealed=False)
            except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
                continue
            if read is not None:
                read[key] = look.line(key) if look is not None else obj
            return art
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
        return self.root / f"pictures/{name[:2]}/{name}.bin"  # (one join, as ``face_path``)

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
        """An entry's name in a state's ``uses``: its path inside the cache. Cut from the path's
        text where it begins with the cache folder's (a build names its thousand faces' entries
        each time: ``relative_to`` took some 4 µs an entry)."""
        text, root = str(path), self._root_text
        if text.startswith(root) and os.sep == "/":
            return text[len(root):]
        return path.relative_to(self.root).as_posix()

    def in_use(self) -> set[str]:
        """Every entry a readable state lists (every game and language edition built here). A
        damaged or foreign state lists nothing: its game is rebuilt in full anyway."""
        used: set[str] = set()
        for path in sorted(self.root.glob("*.json")) if self.root.is_dir() else []:
            state = self.state_at(path)
            if state is not None:
                used.update(state.uses)
        return used

    def refuse_links(self) -> None:
        """Stop before anything is read or written when the cache holds a symbolic link: pnpgen
        never writes one, and following it would read, or prune, files elsewhere."""
        if self.root.is_symlink():
            raise InputError("the build cache is a link to another folder", path=self.root,
                             expected="a plain folder: delete it, the next build makes it again")
        found = _first_link(str(self.root))
        if found is not None:
            link = Path(found).relative_to(self.root.parent)
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


# the start of a faces pack's line of a face without a fallback, after its key (the JSON is
# written with sorted keys: "fallback" first), and a picture item as it names its picture
_NO_FALLBACK = b', {"fallback": null, "format": "pnpgen.vector.Art", "height_pt": '
_PICTURE_NAMED = re.compile(rb'\["picture", "([0-9a-f]{64})", ')


def face_later(key: str, look: Pack, from_json, pictures: Callable[[str], bytes],
               later: Callable[[Callable[[], Any], tuple[bytes, ...]], Any]) -> Any | None:
    """A face of the faces pack to be decoded when read (``later``), or None where it is not such
    a line (a fallback's, a pack read whole, an inline picture): ``Cache.face`` decodes it now.
    Each picture it names is asked of ``pictures`` now, in the order its items name them, as
    decoding it would ask them (the pictures' cache entries marked used, their stand-ins made);
    the decoding later gets those same bytes. The line's seal vouches for it, as for a face
    decoded now; one that does not decode raises ValueError when read."""
    line = look.lines.get(key) if not look.whole else None
    if type(line) is not bytes or not line.startswith(b'["' + key.encode() + b'"' + _NO_FALLBACK) \
            or b'["image", ' in line:
        return None
    names = [name.decode("ascii") for name in _PICTURE_NAMED.findall(line)]
    shown = {name: pictures(name) for name in names}

    def decode() -> Any:
        pair = json.loads(line)
        if not (isinstance(pair, list) and len(pair) == 2 and pair[0] == key):
            raise ValueError(f"the faces pack's line of {key} is not its record")
        return from_json(pair[1], pictures=shown.__getitem__, sealed=False)

    return later(decode, tuple(shown[name] for name in names))


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
    return parts_digest([*parts, *(f"{k}={faces.get(k, '')}".encode() for k in doc.faces())])
