"""Pictures in PDF: each picture's image stream made once per content, then placed.

ReportLab's ``drawImage`` decodes a picture at every placement (it names the image by the MD5
of its decoded pixels) and compresses it again for every document. Here the stream is made
once per picture content (``make_stream``, pdf/imagestream.py: a JPEG's or a plain PNG's own
data, any other picture decoded as ``canvas.drawImage`` would). The stream is kept by the hash of the
picture's bytes (``ImageStreams``: in memory for the process, and in a cache folder between
builds) and placed in a document by registering it as an XObject (``place_image``, pdf/draw.py),
with the operators ``drawImage`` writes, or from the cache's file and the art file's own pieces
when a document is assembled (``locate``). A document therefore embeds each picture once,
whatever the number of faces and pages showing it, and a picture costs its decoding and
compression once, ever (as long as the cache keeps it).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from pnpgen.atomic import Stores, read_record, store
from pnpgen.data.picturebytes import picture_hash
from pnpgen.memo import Memo
from pnpgen.pdf.assemble import SourceChanged, Stored, stat_stamp
from pnpgen.pdf.imagestream import COMPONENTS, MAX_PIECES, ImageStream, as_it_is, make_stream
from pnpgen.svg.artwork import Art, ArtToRead
from pnpgen.usercache import seal

STREAM_FORMAT = 5  # how an entry of the cache folder is laid out; a change makes old entries unused (5: a CMYK JPEG's Decode follows Adobe's marker)
# (4: a 16-bit grey PNG's samples scaled to 8 bits, where 3 kept them clipped to white)
MEMO_BUDGET = 256 * 2**20  # stream bytes an ImageStreams keeps in memory (the least recently used go first)
KEYS_BUDGET = 64 * 2**20  # picture bytes kept with their hash, so a picture many faces show is hashed once

STAND_IN = b"\x00pnpgen-stand-in:"  # + the picture's key: what a face holds instead of a picture's bytes

@dataclass(frozen=True)
class Placed:
    """A picture to place in a document assembled when written: its key (SHA-256 of the
    picture's bytes), its stream's header (``content`` empty), the stream's length, and the
    stream itself or the cache file holding it."""

    key: str
    stream: ImageStream
    size: int
    part: bytes | Stored | tuple[Stored, ...]

# What a cached stream's header may name: the filters pnpgen's streams use (ReportLab's are these
# too), a PNG's predictor parameters, a side no picture exceeds (JPEG's own limit: 65,535)
FILTERS = frozenset({"FlateDecode", "DCTDecode", "ASCII85Decode"})
PARMS = frozenset({"Predictor", "Colors", "BitsPerComponent", "Columns"})
MAX_SIDE = 1 << 16


LAYOUT = "layout:"  # a record of ``ImageStreams.piece_hashes``: where a picture's pieces lie, by its key


def _layout_record(own: tuple[ImageStream, tuple[tuple[int, int], ...]] | None) -> list:
    """``as_it_is``'s answer for a picture, as JSON: its stream's header and its pieces, or []
    for a picture not shown as it is."""
    if own is None or len(own[1]) > MAX_PIECES:
        return []
    return [own[0].header(), [list(span) for span in own[1]]]


def stand_in_key(data: bytes) -> str | None:
    """The key of the picture a stand-in names (``ImageStreams.settle``); None for a picture's bytes."""
    return data[len(STAND_IN):].decode("ascii") if data.startswith(STAND_IN) else None

class ImageStreams:
    """Image streams by the SHA-256 of the picture's bytes: made once each, kept for the life of
    this object and, with a ``folder`` (``build/.cache/images``), on disk for later builds. New
    entries are collected in ``new`` (written with the build's other files, all or nothing);
    ``used`` lists every entry looked up, so the cache keeps them. A damaged entry (its hash does
    not match its content) is made again, never trusted."""

    def __init__(self, folder: Path | None = None, stamp: str = "", budget: int = MEMO_BUDGET,
                 placed: Mapping[bytes, Placed] | None = None, store_now: bool = True,
                 stores: Stores | None = None):
        self.folder = folder
        self.budget = budget
        self._held = 0  # bytes of the streams in _memo
        self.stamp = stamp  # pnpgen's code hash: an entry written by another pnpgen is not used
        self.made = 0  # streams made (decoded and compressed) by this object, for tests
        self._memo: dict[str, ImageStream] = {}
        self.new: dict[Path, bytes] = {}
        self.used: set[Path] = set()
        self._keys: OrderedDict[int, tuple[bytes, str]] = OrderedDict()  # id(picture bytes) → (them, their SHA-256)
        self._keys_held = 0  # bytes of the pictures in _keys (the least recently used go past KEYS_BUDGET)
        self._sources: dict[str, Path] = {}  # a stand-in's key → the file holding the picture's bytes
        self._placed: dict[str, Placed] = {}  # key → the stream's header and where its data is
        self._written: dict[str, int] = {}  # key → when its cached stream file was written (``stand_in_for``)
        self.store_now = store_now  # write a stream into ``folder`` as it is made (else into ``new``)
        self.stores = stores  # with store_now: the thread that writes them (``after_writes`` when it is done)
        self._stand_ins = dict(placed or {})  # a stand-in's bytes → the picture it stands for (``stand_ins``)
        self._paths: dict[tuple[str, str], Path] = {}
        # files known to hold the pictures named by their hashes (a game's art files, hashed by
        # their stamps): such a picture shown as it is is placed from its file (``_own``)
        self.own: Mapping[str, Path] = {}
        # the SHA-256 of such a file as it is now (its stat given): a file saved again since it was
        # hashed is not placed from (the picture's stream is made from the bytes the face holds)
        self.own_hash: Callable[[Path, os.stat_result], str] | None = None
        self._not_own: set[str] = set()  # pictures of ``own`` found not to be placed from their file
        # the SHA-256 of each piece of such a picture (hex, by the picture's key), found by an earlier
        # build's documents: a document's digest (pdf/assemble.py) then reads no art file; and, by
        # ``LAYOUT`` and the key, where its pieces lie in the file (``_own``: its headers not read again)
        self.piece_hashes: Memo[list] | None = None
        # a file's stat as the build first asked it (``Stamps.of``): a picture whose pieces' layout
        # is known is placed from it without opening its file (some 20 reads of its chunks' headers)
        self.own_stat: Callable[[Path], os.stat_result] | None = None

    def stand_ins(self, arts: Mapping[str, Art]) -> tuple[dict[str, Art], dict[bytes, Placed]]:
        """``arts`` with each picture's bytes replaced by a short stand-in, and what each
        stand-in places (``locate``): what a worker process needs to write documents showing
        the pictures without the pictures themselves (``ImageStreams(placed=…)`` there). This
        object places the stand-ins too from now on, and lets go of the pictures' bytes it knew."""
        placed: dict[bytes, Placed] = {}
        out: dict[str, Art] = {}
        for name, art in arts.items():
            if isinstance(art, ArtToRead) and not art.decoded and self.settled(art.pictures):
                placed.update((p, self._stand_ins[p]) for p in art.pictures)
                out[name] = art  # (its stand-ins are those it would be given: not decoded for them)
                continue
            items = []
            for it in art.items:
                if it[0] == "image":
                    where = self.locate(it[1])
                    stand_in = STAND_IN + where.key.encode("ascii")
                    placed[stand_in] = where
                    it = ("image", stand_in, *it[2:])
                items.append(it)
            out[name] = replace(art, items=tuple(items)) if art.items else art
        self._stand_ins.update(placed)
        self._keys.clear()
        self._keys_held = 0
        return out, placed

    def settled(self, pictures: tuple[bytes, ...]) -> bool:
        """Are ``pictures`` (a face's) each a stand-in this object places, as ``settle`` and
        ``stand_ins`` would leave them (a face then needs neither decoded: svg/artwork.py ``ArtToRead``)?"""
        return all(p in self._stand_ins and STAND_IN + self._stand_ins[p].key.encode("ascii") == p for p in pictures)

    def key(self, data: bytes) -> str:
        """The SHA-256 of ``data``, hashed once per bytes object (a face's picture is the same
        object in every document that places it)."""
        stood_for = self._stand_ins.get(data) if self._stand_ins else None
        if stood_for is not None:  # a worker's stand-in: the picture's own key, as one process names it
            return stood_for.key
        stood = stand_in_key(data)
        if stood is not None:
            return stood
        known = self._keys.get(id(data))
        if known is not None and known[0] is data:
            self._keys.move_to_end(id(data))
            return known[1]
        key = picture_hash(data)
        self._remember(data, key)
        return key

    def _remember(self, data: bytes, key: str) -> None:
        """Keep ``data`` with its hash (holding it keeps its ``id`` from naming other bytes),
        within ``KEYS_BUDGET``: a frame every card shows stays, each card's own art goes."""
        old = self._keys.pop(id(data), None)
        if old is not None:
            self._keys_held -= len(old[0])
        self._keys[id(data)] = (data, key)
        self._keys_held += len(data)
        while self._keys_held > KEYS_BUDGET and len(self._keys) > 1:
            gone, _ = self._keys.popitem(last=False)[1]
            self._keys_held -= len(gone)

    def settle(self, art: Art, source: Callable[[str], Path | None],
               keys: Mapping[int, tuple[bytes, str]] | None = None) -> Art:
        """``art`` with each picture replaced by a stand-in once its stream is found or made
        (``locate``), so a face holds no picture's bytes however many faces a build has.
        ``source(key)`` names a file holding the picture's bytes as they are (the cache's copy),
        read again only if something needs them (``real``); a picture without one keeps its bytes.
        ``keys``: hashes already known (id(bytes) → (bytes, SHA-256))."""
        items, changed = [], False
        for it in art.items:
            if it[0] == "image" and it[1].startswith(STAND_IN) and it[1] not in self._stand_ins:
                it = ("image", self._worker_stand_in(it[1], source), *it[2:])  # a worker's: placed here
                changed = True
            elif it[0] == "image" and not it[1].startswith(STAND_IN):
                data = it[1]
                known = keys.get(id(data)) if keys else None
                if known is not None and known[0] is data:
                    self._remember(data, known[1])
                path = source(self.key(data))
                if path is not None:
                    placed = self.locate(data)
                    it = ("image", self._stand_in(placed, path), *it[2:])
                    changed = True
            items.append(it)
        return replace(art, items=tuple(items)) if changed else art

    def _worker_stand_in(self, stand_in: bytes, source: Callable[[str], Path | None]) -> bytes:
        """A stand-in a worker sent for a picture that is an art file as it is (faces/convert.py
        ``convert_chunk``), placed from that file: from its pieces, or, for a picture a PDF cannot
        show as it is, by its stream, made from the file's bytes (checked against the key)."""
        key = stand_in[len(STAND_IN):].decode("ascii")
        path = source(key)
        if path is None:
            raise SourceChanged(key)
        placed = self._placed.get(key) or self._own(key)
        if placed is None:
            self._sources[key] = path
            try:
                placed = self.locate(self.real(stand_in))
            except OSError:  # saved again (or removed) since the worker read it
                raise SourceChanged(str(path)) from None
        return self._stand_in(placed, path)

    def stand_in_for(self, key: str, source: Path) -> bytes | None:
        """The stand-in of the picture ``key`` (its bytes in ``source``) when its stream is in the
        cache folder as written there (checked without reading it): a face read from the cache
        then needs neither the picture nor its stream in memory. None when the stream must be read
        or made from the picture."""
        placed = self._placed.get(key) or self._own(key)
        if placed is not None and isinstance(placed.part, tuple):  # the picture's own pieces
            return self._stand_in(placed, source)
        written = self._written.get(key)
        if written is None:  # the stream's header read once, however many faces show the picture
            trusted = self._trusted(key)
            if trusted is None:
                return None
            written = self._written[key] = trusted[2]
            self._placed.setdefault(key, self._placed_from(key, trusted))
        try:  # a picture written after its stream is not the one the stream was made from: read it
            if source.stat().st_mtime_ns > written:
                return None
        except OSError:
            return None
        placed = self._placed[key]
        if self.folder is not None:
            self.used.update((self.path(key), self.path(key, "json")))
        return self._stand_in(placed, source)

    def _own(self, key: str) -> Placed | None:
        """The picture ``key`` placed from the pieces of its file (``own``) when a
        PDF shows it as it is (a JPEG, an 8-bit PNG: ``as_it_is``) in at most ``MAX_PIECES``: only
        the file's headers are read, no stream is made, kept or cached, and the pieces are copied
        from the file when the document is written — refused then if the file changed meanwhile.
        None for any other picture. Asked once per picture: the answer is kept (``_placed``)."""
        source = self.own.get(key)
        if source is None or key in self._not_own:
            return None
        self._not_own.add(key)  # until it is found to be one
        try:
            found = self._own_known(key, source)
            if found is None:
                with open(source, "rb") as f:
                    fd = f.fileno()
                    st = os.fstat(fd)
                    if self.own_hash is not None and self.own_hash(source, st) != key:
                        return None
                    own = as_it_is(lambda at, n: os.pread(fd, n, at), st.st_size, key[:32])
                if self.piece_hashes is not None and self.own_hash is not None:  # (a layout of these bytes)
                    self.piece_hashes.learn(LAYOUT + key, _layout_record(own))
            else:
                st, own = found
        except (OSError, struct.error, IndexError):
            return None
        if own is None or len(own[1]) > MAX_PIECES:
            return None
        head, spans = own
        stamp = stat_stamp(st)
        self._not_own.discard(key)
        shas = self.piece_hashes.get(key) if self.piece_hashes is not None else None
        # (each a SHA-256's 64 hex digits, one a piece; checked by the types and lengths mapped at
        # once: a thousand cards' pictures each went through a generator of checks, some 0.01 CPU-s)
        if not (type(shas) is list and len(shas) == len(spans) and set(map(type, shas)) == {str}
                and set(map(len, shas)) == {64}):
            shas = [None] * len(spans)
        path = str(source)
        placed = self._placed[key] = Placed(key, head, sum([n for _, n in spans]),
                                            tuple([Stored(path, n, at, stamp, sha)
                                                   for (at, n), sha in zip(spans, shas)]))
        return placed

    def _own_known(self, key: str, source: Path
                   ) -> tuple[os.stat_result, tuple[ImageStream, tuple[tuple[int, int], ...]] | None] | None:
        """The file's stat and its picture's layout (``as_it_is``: None when not shown as it is)
        as an earlier build found it for the bytes ``key`` names, when the file still holds them
        (hashed by its stamp, as ``own_hash`` knows it); None when not known (or the record does
        not hold up): the file's headers are read."""
        if self.piece_hashes is None or self.own_stat is None or self.own_hash is None:
            return None
        record = self.piece_hashes.get(LAYOUT + key)
        if record is None:
            return None
        st = self.own_stat(source)
        if self.own_hash(source, st) != key:
            return None
        if record == []:
            return st, None
        size = st.st_size
        try:
            head, spans = record
            stream = self._stream_of(head, b"")
            pieces = []
            for at, n in spans:  # (each piece's offset and length whole numbers, inside the file)
                if type(at) is not int or type(n) is not int or at < 0 or n <= 0 or at + n > size:
                    return None
                pieces.append((at, n))
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        if stream.name != key[:32] or stream.content or not 0 < len(pieces) <= MAX_PIECES:
            return None
        return st, (stream, tuple(pieces))

    def learn_piece_hashes(self, hashed: Mapping[Stored, bytes]) -> None:
        """The SHA-256 of the pieces of the pictures placed from their files, as the documents'
        digests found them (``hashed``), kept in ``piece_hashes`` for the next build."""
        if self.piece_hashes is None:
            return
        for key, placed in self._placed.items():
            if isinstance(placed.part, tuple) and any(p.sha is None for p in placed.part):
                found = [hashed.get(p) for p in placed.part]
                if all(found):
                    self.piece_hashes.learn(key, [h.hex() for h in found if h is not None])

    def _placed_from(self, key: str, trusted: tuple[ImageStream, int, int, str | None]) -> Placed:
        """A cached stream, found by ``_trusted``, placed from its file."""
        return Placed(key, trusted[0], trusted[1], Stored(str(self.path(key)), trusted[1], sha=trusted[3]))

    def _stand_in(self, placed: Placed, source: Path) -> bytes:
        stand_in = STAND_IN + placed.key.encode("ascii")
        self._stand_ins[stand_in] = placed
        self._sources[placed.key] = source
        return stand_in

    def stand_in_of(self, key: str) -> bytes | None:
        """The stand-in this object places the picture ``key`` by, or None when it knows none: a
        document written from the last build's file places its unchanged pages' pictures by their
        keys (pdf/patch.py ``laid_out``). The picture's cache entries are marked used, as
        ``locate`` marks them, so that pruning keeps them."""
        stand_in = STAND_IN + key.encode("ascii")
        placed = self._stand_ins.get(stand_in)
        if placed is None:
            return None
        if self.folder is not None and not isinstance(placed.part, tuple):
            self.used.update((self.path(placed.key), self.path(placed.key, "json")))
        return stand_in

    def real(self, data: bytes) -> bytes:
        """The picture's bytes for a stand-in (read from its source and checked against its key);
        any other bytes as they are."""
        key = stand_in_key(data)
        if key is None:
            return data
        source = self._sources.get(key)
        if source is None:
            raise OSError(f"picture {key[:12]}… cannot be read again: no file holds it")
        try:
            out = source.read_bytes()
        except OSError:  # removed since the build took it
            raise SourceChanged(str(source)) from None
        if hashlib.sha256(out).hexdigest() != key:  # saved again since (an editor's save seen half-way, watch)
            raise SourceChanged(str(source))
        return out

    def real_art(self, art: Art) -> Art:
        """``art`` with its pictures' bytes in place of their stand-ins (for drawing it elsewhere)."""
        if not any(it[0] == "image" and it[1].startswith(STAND_IN) for it in art.items):
            return art
        return replace(art, items=tuple(("image", self.real(it[1]), *it[2:]) if it[0] == "image" else it
                                        for it in art.items))

    def locate(self, data: bytes) -> Placed:
        """The picture's stream, its data left where it is: a ``Stored`` file of the cache
        folder (a stream made now is written there at once, atomically: entries are named by
        content, so a build that fails leaves at most entries the next prune removes), or the
        data itself without a folder. For documents assembled when written (pdf/assemble.py)."""
        stood_for = self._stand_ins.get(data)
        if stood_for is not None:
            return stood_for
        key = self.key(data)
        placed = self._placed.get(key) or self._own(key)
        trusted = self._trusted(key) if placed is None else None
        if trusted is not None:
            placed = self._placed[key] = self._placed_from(key, trusted)
        if placed is None:
            stream = self._load(key)
            if stream is None:
                stream = make_stream(self.real(data), key)
                self.made += 1
                if self.folder is not None and self.store_now and self.stores is not None:
                    self.stores.put(self.path(key), stream.content, then=partial(self._stamped, key, stream))
                elif self.folder is not None and not (self.store_now and store(self.path(key), stream.content)
                                                      and store(*self._stamped(key, stream))):
                    self.new[self.path(key, "json")] = self._header(key, stream)  # written with the build's files
                    self.new[self.path(key)] = stream.content
            part: bytes | Stored = stream.content
            if self.folder is not None and self.path(key) not in self.new:
                part = Stored(str(self.path(key)), len(stream.content), sha=hashlib.sha256(stream.content).hexdigest())
            placed = Placed(key, replace(stream, content=b""), len(stream.content), part)
            self._placed[key] = placed
        if self.folder is not None and not isinstance(placed.part, tuple):  # (a picture's own pieces: no entry)
            self.used.update((self.path(key), self.path(key, "json")))
        return placed

    def path(self, key: str, part: str = "bin") -> Path:
        """An entry's files: ``bin`` the stream itself, ``json`` its header (name, size, colour
        space, filters, the stream's hash), apart so the stream is written as it is, not copied."""
        assert self.folder is not None
        path = self._paths.get((key, part))
        if path is None:  # asked seven times a picture: made once (pathlib's joins are slow)
            path = self._paths[(key, part)] = Path(f"{self.folder}/{key[:2]}/{key}.{part}")
        return path

    def get(self, data: bytes) -> ImageStream:
        key = stand_in_key(data) or picture_hash(data)
        stream = self._memo.pop(key, None)
        if stream is None:
            stream = self._load(key)
            if stream is None:
                stream = make_stream(self.real(data), key)
                self.made += 1
                if self.folder is not None:
                    self.new[self.path(key, "json")] = self._header(key, stream)
                    self.new[self.path(key)] = stream.content
            self._held += len(stream.content)
        self._memo[key] = stream  # the most recently used last
        while self._held > self.budget and len(self._memo) > 1:
            self._held -= len(self._memo.pop(next(iter(self._memo))).content)
        if self.folder is not None:
            self.used.update((self.path(key), self.path(key, "json")))
        return stream

    def _header(self, key: str, stream: ImageStream, stamp: list[int] | None = None) -> bytes:
        head = {"format": STREAM_FORMAT, "pnpgen": self.stamp, "key": key, **stream.header(),
                "check": hashlib.sha256(stream.content).hexdigest(), **({"file": stamp} if stamp else {})}
        return json.dumps({**head, "seal": seal(json.dumps(head, sort_keys=True).encode())}, sort_keys=True).encode()

    def _head(self, key: str) -> dict:
        """An entry's header, when this machine wrote it (its seal: a header from elsewhere, which
        would name any stream, filters and sizes, is not read); ValueError otherwise."""
        head = json.loads(read_record(self.path(key, "json")))
        sealed = head.pop("seal", None) if isinstance(head, dict) else None
        if sealed is None or sealed != seal(json.dumps(head, sort_keys=True).encode()):
            raise ValueError("an image stream's header not sealed here")
        return head

    def _stamped(self, key: str, stream: ImageStream) -> tuple[Path, bytes]:
        """The header entry of a stream just written, with its file's stamp."""
        return self.path(key, "json"), self._header(key, stream, self._stamp(key))

    def after_writes(self, failed: dict[Path, bytes]) -> dict[Path, bytes]:
        """Once ``stores`` is joined: the streams it could not write are placed from memory and go
        into ``new`` (written with the build's files); the other entries of ``failed`` are returned."""
        rest: dict[Path, bytes] = {}
        for path, data in failed.items():
            key = path.stem
            placed = self._placed.get(key)
            if self.folder is None or placed is None or path not in (self.path(key), self.path(key, "json")):
                rest[path] = data
                continue
            if path == self.path(key):
                self.new[path] = data
                self.new[self.path(key, "json")] = self._header(key, replace(placed.stream, content=data))
                kept = self._placed[key] = replace(placed, part=data)
                for stand_in, was in list(self._stand_ins.items()):
                    if was.key == key:
                        self._stand_ins[stand_in] = kept
            else:
                self.new.setdefault(path, data)
        return rest

    def _stamp(self, key: str) -> list[int] | None:
        """The stream file's size, modification time and inode as just written: while they hold,
        the file is the one written, and its hash need not be checked by reading it."""
        try:
            st = os.stat(self.path(key))
        except OSError:
            return None
        return [st.st_size, st.st_mtime_ns, st.st_ino]

    def _trusted(self, key: str) -> tuple[ImageStream, int, int, str | None] | None:
        """The header and length of the cached stream ``key`` (its content not read) when its
        file is still the one written with the header (``_stamp``), with its modification time
        and the SHA-256 its header gives its content; else None (``_load`` reads and checks it)."""
        if self.folder is None:
            return None
        try:
            head = self._head(key)
            if head.get("format") != STREAM_FORMAT or head.get("pnpgen") != self.stamp or head.get("key") != key \
                    or head.get("file") is None or head.get("file") != self._stamp(key):
                return None
            check = head.get("check")
            return self._stream_of(head, b""), int(head["file"][0]), int(head["file"][1]), \
                check if isinstance(check, str) and len(check) == 64 else None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            return None

    @staticmethod
    def _stream_of(head: dict, content: bytes) -> ImageStream:
        """The stream a header describes, each value one pnpgen writes (ValueError otherwise): a
        header names the filters a PDF reader runs on the data, so no other is ever written."""
        decode, parms = head["decode"], head["parms"]
        stream = ImageStream(str(head["name"]), int(head["width"]), int(head["height"]), int(head["bits"]),
                             str(head["colour_space"]), tuple(str(f) for f in head["filters"]),
                             tuple(int(v) for v in decode) if decode is not None else None, content,
                             {str(k): int(v) for k, v in parms.items()} if parms is not None else None)
        if not (set(stream.filters) <= FILTERS and 1 <= len(stream.filters) <= 2 and stream.bits in (1, 2, 4, 8, 16)
                and stream.colour_space in COMPONENTS.values() and 0 < stream.width <= MAX_SIDE
                and 0 < stream.height <= MAX_SIDE and set(stream.parms or ()) <= PARMS
                and (stream.decode is None or len(stream.decode) <= 8)):
            raise ValueError("an image stream header pnpgen does not write")
        return stream

    def _load(self, key: str) -> ImageStream | None:
        if self.folder is None:
            return None
        try:
            head = self._head(key)
            content = self.path(key).read_bytes()
            if head.get("format") != STREAM_FORMAT or head.get("pnpgen") != self.stamp or head.get("key") != key \
                    or head.get("check") != hashlib.sha256(content).hexdigest():
                return None
            return self._stream_of(head, content)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
