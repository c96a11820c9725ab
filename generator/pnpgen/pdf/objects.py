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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
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
class Raw:
    """Bytes written as they are (an operand already in PDF syntax)."""

    data: bytes


def text_string(s: str) -> bytes:
    """A text string (§7.9.2.2): PDFDocEncoding-compatible ASCII as a literal, else UTF-16BE
    with its byte order mark, in hex."""
    if all(32 <= ord(c) < 127 for c in s):
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
}


def flate(data: bytes) -> bytes:
    return zlib.compress(data, COMPRESSION)


class ObjectFile:
    """A PDF file being made: objects numbered in the order they are reserved, each written once;
    ``finish`` lays them out with the cross-reference table and trailer."""

    def __init__(self, version: str = "1.4"):
        self.version = version
        self._bodies: list[tuple[Part, ...] | None] = [None]  # object 0 is the free list's head
        self._named: dict[int, bytes] = {}  # object → what stands for its stream's data in the /ID

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
        self._bodies[ref.n] = (b"%d 0 obj\n" % ref.n + pdf({**head, "Length": length}) + b"\nstream\n",
                               *pieces, b"\nendstream\nendobj\n")
        if named is not None:
            self._named[ref.n] = named
        return ref

    def add_stream(self, head: dict, data: bytes | Stored) -> Ref:
        return self.put_stream(self.reserve(), head, data)

    def finish(self, root: Ref, info: Ref, identity: Iterable[bytes] = ()) -> PdfFile:
        """The file's parts: header, objects, cross-reference table, trailer. The /ID is the
        SHA-256 of ``identity`` and every object's bytes (a stream's data by what names it, when
        it is named), so the same objects give the same ID."""
        header = b"%%PDF-%s\n%%\x93\x8c\x8b\x9e pnpgen\n" % self.version.encode("ascii")
        parts: list[Part] = [header]
        at = len(header)
        offsets = [0]
        h = hashlib.sha256()
        for b in identity:
            h.update(b)
        for n, body in enumerate(self._bodies[1:], 1):
            if body is None:
                raise ValueError(f"PDF object {n} was reserved and never written")
            offsets.append(at)
            named = self._named.get(n)
            if named is not None:  # a named stream: its head, its name for the data, its tail
                head, tail = body[0], body[-1]
                assert isinstance(head, bytes) and isinstance(tail, bytes)
                h.update(head)
                h.update(named)
                h.update(tail)
            for part in body:
                parts.append(part)
                at += len(part) if isinstance(part, bytes) else part.size
                if named is not None:
                    continue
                if isinstance(part, bytes):
                    h.update(part)
                else:
                    h.update(part.path.rsplit("/", 1)[-1].encode())
        count = len(self._bodies)
        table = [b"xref\n0 %d\n0000000000 65535 f \n" % count]
        table.extend(b"%010d 00000 n \n" % off for off in offsets[1:])
        fid = h.hexdigest()[:32].encode("ascii")
        trailer = pdf({"Size": count, "Root": root, "Info": info,
                       "ID": [Raw(b"<" + fid + b">"), Raw(b"<" + fid + b">")]})
        table.append(b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % at)
        parts.append(b"".join(table))
        merged: list[Part] = []
        run: list[bytes] = []
        for part in parts:  # neighbouring bytes joined: fewer, larger writes
            if isinstance(part, bytes):
                run.append(part)
            else:
                if run:
                    merged.append(b"".join(run))
                    run = []
                merged.append(part)
        if run:
            merged.append(b"".join(run))
        return PdfFile(tuple(p for p in merged if not isinstance(p, bytes) or p))
