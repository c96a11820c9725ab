"""PDF objects written as bytes (ISO 32000-1 §7.3) and a file of numbered objects (§7.5).

pnpgen's documents hold few kinds of object — dictionaries, arrays, names, numbers, strings,
references, streams — so they are written here directly: Python values in, bytes out, the same
bytes for the same values (dictionaries in the order given). A stream's data may stay in a file
of the cache (``Stored``) until the PDF is written (pdf/assemble.py's parts), so a document of a
thousand pictures is never held in memory.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any

from pnpgen.pdf.assemble import Part, PdfFile, Stored
from pnpgen.units import num

COMPRESSION = 6  # zlib's default: what ReportLab wrote with; level 9 is 3× slower for 1 % less


@dataclass(frozen=True)
class Name:
    """A PDF name (``/Name``); only regular characters are written as they are (§7.3.5)."""

    value: str

    def pdf(self) -> bytes:
        return name_bytes(self.value)


@lru_cache(maxsize=65536)
def name_bytes(value: str) -> bytes:
    """``/value``, each byte outside the regular characters written as ``#xx``."""
    out = []
    for ch in value.encode("utf-8"):
        c = chr(ch)
        out.append(c if 33 <= ch <= 126 and c not in "#()<>[]{}/%" else f"#{ch:02X}")
    return ("/" + "".join(out)).encode("latin-1")


@dataclass(frozen=True)
class Ref:
    """An indirect reference to object ``n``."""

    n: int


@dataclass(frozen=True)
class Slot:
    """A reference left open in an object's ``Shape``, by what it will name (``font:<name>``,
    ``form:<face key>``, ``picture:<key>``, ``parent``…): filled with the object's number in each
    document."""

    name: str


@dataclass(frozen=True)
class Raw:
    """Bytes written as they are (an operand already in PDF syntax)."""

    data: bytes


def text_string(s: str) -> bytes:
    """A text string (§7.9.2.2): PDFDocEncoding-compatible ASCII as a literal, else UTF-16BE
    with its byte order mark, in hex (a shop's unique-faces file labels thousands of pages)."""
    if s.isascii() and s.isprintable():  # (every character 32–126: the printable ones of ASCII)
        return b"(" + s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("ascii") + b")"
    return b"<FEFF" + s.encode("utf-16-be").hex().upper().encode("ascii") + b">"


@lru_cache(maxsize=65536)
def _float(value: float) -> bytes:
    return num(value, 6).encode("ascii")  # six decimals: a pattern's matrix needs them


def pdf(value: object) -> bytes:
    """``value`` in PDF syntax: dict → dictionary, list/tuple → array, bool, int, float
    (six decimals at most, no trailing zeros), str → text string, Name, Ref, Raw, None → null."""
    write = _BY_TYPE.get(type(value))
    if write is not None:  # one lookup per value: a thousand-page document writes a million
        return write(value)
    for kind, write in _BY_TYPE.items():  # a subclass (an IntEnum, a str subclass) as its base
        if isinstance(value, kind) and kind is not type(None):
            return write(value)
    raise TypeError(f"no PDF form for {type(value).__name__}")


def _dictionary(value: dict) -> bytes:
    return b"<< " + b" ".join([name_bytes(k) + b" " + pdf(v) for k, v in value.items()]) + b" >>"


def _array(value: list | tuple) -> bytes:
    return b"[" + b" ".join([pdf(v) for v in value]) + b"]"


_BY_TYPE: dict[type, Callable[[Any], bytes]] = {
    dict: _dictionary,
    Name: lambda v: name_bytes(v.value),
    Ref: lambda v: b"%d 0 R" % v.n,
    list: _array,
    tuple: _array,
    bool: lambda v: b"true" if v else b"false",
    float: _float,
    int: lambda v: b"%d" % v,
    str: lambda v: text_string(v),
    Raw: lambda v: v.data,
    type(None): lambda v: b"null",
    Slot: lambda v: b"\0",  # (no other PDF value of pnpgen's writes a NUL byte: Shape checks)
}


class Shape:
    """A value written once in PDF syntax with its references left open (``Slot``), filled with
    each document's object numbers (``fill``): a page or a face shown by several documents, or
    kept across the saves of ``pnpgen watch``, is written out once, not once per document."""

    __slots__ = ("fmt", "slots")

    def __init__(self, value: object):
        data = pdf(value)
        self.slots = tuple(slot.name for slot in _slots_in(value))
        if data.count(b"\0") != len(self.slots):
            raise ValueError("a NUL byte in a PDF value: its shape would be filled wrongly")
        self.fmt = data.replace(b"%", b"%%").replace(b"\0", b"%d 0 R")

    @staticmethod
    def written(data: bytes) -> Shape:
        """A shape of a value already in PDF syntax that names no other object."""
        if b"\0" in data:
            raise ValueError("a NUL byte in a PDF value: its shape would be filled wrongly")
        shape = object.__new__(Shape)
        shape.fmt, shape.slots = data.replace(b"%", b"%%"), ()
        return shape

    def fill(self, refs: Mapping[str, Ref]) -> bytes:
        """The value's bytes, each slot the reference ``refs`` holds for its name."""
        return self.fmt % tuple([refs[name].n for name in self.slots])

    def to_json(self) -> list:
        return [self.fmt.decode("latin-1"), list(self.slots)]

    @staticmethod
    def from_json(v: object, allowed: Collection[str]) -> Shape | None:
        """A shape ``to_json`` wrote, when it holds up: text with as many open references as
        slots, each slot one of ``allowed`` (what the writer fills for the object); else None."""
        if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], list)) \
                or not all(isinstance(name, str) and name in allowed for name in v[1]):
            return None
        try:
            fmt = v[0].encode("latin-1")
        except UnicodeEncodeError:
            return None
        bare = fmt.replace(b"%%", b"")
        if not bare.count(b"%") == bare.count(b"%d 0 R") == len(v[1]):
            return None
        shape = object.__new__(Shape)
        shape.fmt, shape.slots = fmt, tuple(v[1])
        return shape


def _slots_in(value: object) -> Iterator[Slot]:
    """The slots of ``value`` in the order ``pdf`` writes them."""
    if isinstance(value, Slot):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _slots_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _slots_in(v)


def flate(data: bytes) -> bytes:
    return zlib.compress(data, COMPRESSION)


class ObjectFile:
    """A PDF file being made: objects numbered in the order they are reserved, each written once;
    ``finish`` lays them out with the cross-reference table and trailer."""

    def __init__(self, version: str = "1.4"):
        self.version = version
        self._bodies: list[tuple[Part, ...] | None] = [None]  # object 0 is the free list's head
        self._named: dict[int, bytes] = {}  # object → what stands for its stream's data in the /ID
        # a run of objects copied as one slice of bytes (``put_run``): its first object → each object's length;
        # the run's other objects hold ``()`` in ``_bodies``
        self._runs: dict[int, list[int]] = {}
        self._blocks: dict[int, Block] = {}  # objects placed as a block (``put_block``), by the first one's number
        self.offsets: list[int] = []  # where each object begins in the file ``finish`` laid out (object 1 first)

    def copy(self) -> ObjectFile:
        """This file as it stands, to go on with separately (an object written is never changed:
        the copy shares their bytes)."""
        out = ObjectFile(self.version)
        out._bodies, out._named, out._runs = list(self._bodies), dict(self._named), dict(self._runs)
        out._blocks = dict(self._blocks)
        return out

    def put_block(self, block: Block) -> None:
        """A block's objects (``block``), numbered next: they must be numbered as they were where the block was made."""
        if block.first != len(self._bodies):
            raise ValueError(f"PDF objects {block.first} on placed at {len(self._bodies)}")
        self._bodies.extend(block.bodies)
        self._named.update(block.named)
        self._blocks[block.first] = block

    def block(self, first: int) -> Block:
        """Objects ``first`` to the last, each written and none of a run, as one block: laid out as
        one by ``finish`` here and in every file it is put in (``put_block``)."""
        bodies = tuple(b for b in self._bodies[first:] if b)
        if len(bodies) != len(self._bodies) - first or any(n >= first for n in self._runs) \
                or any(n >= first for n in self._blocks):
            raise ValueError(f"PDF objects {first} on are not all written, or not all alone")
        block = Block(first, bodies, {n: v for n, v in self._named.items() if n >= first})
        self._blocks[first] = block
        return block

    @property
    def next(self) -> int:
        """The number the next object reserved gets."""
        return len(self._bodies)

    def put_copied(self, body: bytes) -> None:
        """An object as bytes written already (copied from an earlier file: pdf/patch.py), numbered next."""
        self._bodies.append((body,))

    def hold(self, count: int) -> int:
        """``count`` objects numbered next, to be written as one run (``fill_run``); the first's number."""
        first = len(self._bodies)
        self._bodies.extend([()] * count)
        return first

    def fill_run(self, first: int, data: bytes, lengths: list[int]) -> None:
        """Objects ``first`` on, held (``hold``), written as ``data``: objects written already, one
        after the other (``lengths``: each one's bytes) — a run of an earlier file's objects that
        stand where they stood (pdf/patch.py), kept as one slice of bytes and laid out, hashed and
        cut into the cross-reference table as one (a thousand cards' unchanged pages: some 13,000
        objects a document)."""
        if sum(lengths) != len(data) or any(self._bodies[first:first + len(lengths)]) \
                or len(self._bodies) < first + len(lengths):
            raise ValueError(f"PDF objects {first} on were not held for a run of {len(lengths)}")
        self._bodies[first] = (data,)
        if len(lengths) > 1:
            self._runs[first] = lengths

    def bytes_of(self, first: int, end: int) -> bytes | None:
        """Objects ``first`` to ``end`` (excluded) as the file lays them out, or None when one is
        not all bytes in memory (a stored part), or a run of them (``put_run``) crosses either end."""
        bodies = self._bodies[first:end]
        if (bodies and bodies[0] == ()) or any(first <= n < end < n + len(lengths) for n, lengths in self._runs.items()):
            return None
        if not all(b is not None and (b == () or (len(b) == 1 and isinstance(b[0], bytes))) for b in bodies):
            return None
        return b"".join([b[0] for b in bodies if b and isinstance(b[0], bytes)])

    def reserve(self) -> Ref:
        self._bodies.append(None)
        return Ref(len(self._bodies) - 1)

    def put(self, ref: Ref, value: object) -> Ref:
        self._bodies[ref.n] = (b"%d 0 obj\n" % ref.n + pdf(value) + b"\nendobj\n",)
        return ref

    def add(self, value: object) -> Ref:
        return self.put(self.reserve(), value)

    def put_stream(self, ref: Ref, head: dict, data: bytes | Stored | tuple[Stored, ...], size: int | None = None,
                   named: bytes | None = None) -> Ref:
        """A stream object: ``head`` gains /Length; ``data`` may stay in a file (or in pieces of
        one: a PNG's IDAT chunks) until written. ``named``: what stands for the data in the file's
        /ID (a picture's content hash), so the ID is the same wherever the data is."""
        pieces = data if isinstance(data, tuple) else (data,)
        length = sum(len(d) if isinstance(d, bytes) else d.size for d in pieces) if size is None else size
        return self._stream(ref, b"%d 0 obj\n" % ref.n + pdf({**head, "Length": length}), pieces, named)

    def _stream(self, ref: Ref, head: bytes, pieces: tuple[bytes | Stored, ...], named: bytes | None) -> Ref:
        if named is None and len(pieces) == 1 and isinstance(pieces[0], bytes):  # one part: ``finish``'s quick path
            self._bodies[ref.n] = (b"".join((head, b"\nstream\n", pieces[0], b"\nendstream\nendobj\n")),)
            return ref
        self._bodies[ref.n] = (head + b"\nstream\n", *pieces, b"\nendstream\nendobj\n")
        if named is not None:
            self._named[ref.n] = named
        return ref

    def put_shaped(self, ref: Ref, shape: Shape, refs: Mapping[str, Ref],
                   data: bytes | Stored | tuple[Stored, ...] | None = None, named: bytes | None = None) -> Ref:
        """An object whose value is ``shape`` filled with ``refs``; a stream of ``data`` (its
        /Length in the shape already) when given: the same bytes as ``put`` or ``put_stream``."""
        head = b"%d 0 obj\n" % ref.n + shape.fill(refs)
        if data is None:
            self._bodies[ref.n] = (head + b"\nendobj\n",)
            return ref
        return self._stream(ref, head, data if isinstance(data, tuple) else (data,), named)

    def add_stream(self, head: dict, data: bytes | Stored) -> Ref:
        return self.put_stream(self.reserve(), head, data)

    def finish(self, root: Ref, info: Ref, identity: Iterable[bytes] = ()) -> PdfFile:
        """The file's parts: header, objects, cross-reference table, trailer. The /ID is the
        SHA-256 of ``identity`` and every object's bytes (a stream's data by what names it, when
        it is named), so the same objects give the same ID. One pass over the objects: a thousand
        cards' documents hold sixty thousand; a block (``put_block``) is laid out as its one
        layout, made once for every file of the build that holds it."""
        header = b"%%PDF-%s\n%%\x93\x8c\x8b\x9e pnpgen\n" % self.version.encode("ascii")
        merged: list[Part] = []
        hashed: list[bytes] = list(identity)  # what the /ID is the hash of, in order
        offsets: list[int] = []
        count = len(self._bodies)
        at, run, n = len(header), [header], 1  # (``run``: bytes not yet joined into one part)
        for first in sorted(self._blocks):
            at, run = _lay_out(self._bodies, self._named, self._runs, n, first, at, run, merged, hashed, offsets)
            block = self._blocks[first]
            lead, middle, tail, block_hashed, rel, size = block.laid()
            offsets += [at + o for o in rel]
            hashed += block_hashed
            run.append(lead)
            if middle:  # (as ``_lay_out`` meets its first stored part: the bytes before it joined, then its own parts)
                merged.append(b"".join(run))
                merged += middle
                run = list(tail)
            at += size
            n = first + len(block.bodies)
        at, run = _lay_out(self._bodies, self._named, self._runs, n, count, at, run, merged, hashed, offsets)
        self.offsets = offsets
        fid = hashlib.sha256(b"".join(hashed)).hexdigest()[:32].encode("ascii")
        run.append(b"xref\n0 %d\n0000000000 65535 f \n" % count)
        run.append(b"".join([b"%010d 00000 n \n" % off for off in offsets]))
        trailer = pdf({"Size": count, "Root": root, "Info": info,
                       "ID": [Raw(b"<" + fid + b">"), Raw(b"<" + fid + b">")]})
        run.append(b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % at)
        merged.append(b"".join(run))
        return PdfFile(tuple(p for p in merged if not isinstance(p, bytes) or p))


@dataclass(eq=False)
class Block:
    """Objects written once and placed at the same numbers in several files of one build (the
    pictures a deck's documents number first, in the same order: 3,000 cards' cards.pdf,
    shop/cards.pdf and shop/cards-unique.pdf), with their layout as ``finish`` lays them out,
    made once (``laid``) rather than once a file."""

    first: int
    bodies: tuple[tuple[Part, ...], ...]
    named: dict[int, bytes]
    _laid: tuple | None = None

    def laid(self) -> tuple[bytes, list[Part], list[bytes], list[bytes], list[int], int]:
        """The block as ``_lay_out`` lays it out from offset 0 after no bytes: the bytes before its
        first stored part (joined), the parts from that stored part to its last (as ``finish``
        merges them), the bytes after it, what the /ID hashes, each object's offset and the size."""
        if self._laid is None:
            merged: list[Part] = []
            hashed: list[bytes] = []
            offsets: list[int] = []
            bodies: list = [None] * self.first + list(self.bodies)
            size, run = _lay_out(bodies, self.named, {}, self.first, len(bodies), 0, [], merged, hashed, offsets)
            if merged:
                lead = merged.pop(0) if isinstance(merged[0], bytes) else b""
                self._laid = (lead, merged, run, hashed, offsets, size)
            else:
                self._laid = (b"".join(run), [], [], hashed, offsets, size)
        return self._laid


def _lay_out(bodies: list, named_of: Mapping[int, bytes], runs: Mapping[int, list[int]], n: int, end: int, at: int,
             run: list[bytes], merged: list[Part], hashed: list[bytes], offsets: list[int]) -> tuple[int, list[bytes]]:
    """Objects ``n`` to ``end`` laid out from offset ``at`` (``finish``): each one's offset, its
    bytes joined into ``run`` (each stored part, a run's bytes ended before it, into ``merged``),
    what the /ID hashes into ``hashed``. Where the next object begins, and the bytes not yet joined."""
    while n < end:
        body = bodies[n]
        if not body:
            raise ValueError(f"PDF object {n} was reserved and never written")
        lengths = runs.get(n) if runs else None
        if lengths is not None:  # a run of objects as one slice (``fill_run``)
            data = body[0]
            assert isinstance(data, bytes)
            offsets += accumulate(lengths[:-1], initial=at)
            run.append(data)
            hashed.append(data)
            at += len(data)
            n += len(lengths)
            continue
        n += 1
        offsets.append(at)
        if len(body) == 1 and isinstance(body[0], bytes):  # an object whose bytes are all here
            run.append(body[0])
            hashed.append(body[0])
            at += len(body[0])
            continue
        named = named_of.get(n - 1)
        if named is not None:  # a named stream: its head, its name for the data, its tail
            head, tail = body[0], body[-1]
            assert isinstance(head, bytes) and isinstance(tail, bytes)
            hashed += (head, named, tail)
        for part in body:
            if isinstance(part, bytes):
                run.append(part)
                at += len(part)
                if named is None:
                    hashed.append(part)
                continue
            if run:
                merged.append(b"".join(run))
                run = []
            merged.append(part)
            at += part.size
            if named is None:
                hashed.append(part.path.rsplit("/", 1)[-1].encode())
    return at, run
