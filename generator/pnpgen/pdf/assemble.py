"""A PDF file as parts, written to disk when the build commits: what the writer drew, and the
pictures' image streams read from the cache as the file is written.

ReportLab formats a whole document in memory, pictures included, and a deck of a thousand
illustrated cards makes four files of 265 MB each. So the writer (pdf/writer.py) has ReportLab
write each picture's stream as a short placeholder (``token``), with the real ``/Length`` in its
dictionary; ``assemble`` then cuts the drawn file at each placeholder and shifts the
cross-reference table (ISO 32000-1 §7.5.4: ten-digit byte offsets, so the table keeps its size)
by the lengths the streams add before each object. The parts, streamed out in order, are the
very bytes ReportLab would have written with the pictures inline; a build holds only the
drawing of its documents in memory, never their pictures, and a stream file is read from the
cache (``build/.cache/images``) only while the output file is written.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

BLOCK = 1 << 20  # bytes read at a time from a stored part
PREFIX = b"\x00pnpgen-deferred-image-stream:"


def token(key: str) -> bytes:
    """The placeholder ReportLab writes in place of picture ``key``'s stream (sha-256 hex)."""
    return PREFIX + key.encode("ascii") + b"\x00"


@dataclass(frozen=True)
class Stored:
    """``size`` bytes of a file on disk (a cached image stream, or an output kept as it is)."""

    path: str
    size: int

    def chunks(self) -> Iterator[bytes]:
        left = self.size
        with open(self.path, "rb") as f:
            while left > 0:
                block = f.read(min(BLOCK, left))
                if not block:
                    raise OSError(f"{self.path}: shorter than the {self.size} bytes it held when the build began")
                left -= len(block)
                yield block


Part = bytes | Stored


@dataclass
class PdfFile:
    """A file's bytes as parts, in order: bytes in memory and ``Stored`` file contents."""

    parts: tuple[Part, ...]
    _sha: str | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return sum(len(p) if isinstance(p, bytes) else p.size for p in self.parts)

    def chunks(self) -> Iterator[bytes]:
        for p in self.parts:
            if isinstance(p, bytes):
                yield p
            else:
                yield from p.chunks()

    def sha(self) -> str:
        """The SHA-256 of the file's bytes (hex), as ``hashlib.sha256(bytes(self))``."""
        if self._sha is None:
            h = hashlib.sha256()
            for block in self.chunks():
                h.update(block)
            self._sha = h.hexdigest()
        return self._sha

    def write_to(self, f: BinaryIO) -> None:
        for block in self.chunks():
            f.write(block)

    def same_as(self, path: Path) -> bool:
        """Does the file at ``path`` hold exactly these bytes? (Compared block by block.)"""
        if len(self.parts) == 1 and isinstance(self.parts[0], Stored) and Path(self.parts[0].path) == path:
            try:
                return path.stat().st_size == self.parts[0].size
            except OSError:
                return False
        try:
            if path.stat().st_size != self.size:
                return False
            with open(path, "rb") as f:
                for block in self.chunks():
                    if f.read(len(block)) != block:
                        return False
            return True
        except OSError:
            return False

    def __bytes__(self) -> bytes:
        return b"".join(self.chunks())


_STARTXREF = re.compile(rb"startxref\n(\d+)\n%%EOF\n?$")
_XREF_HEAD = re.compile(rb"xref\n0 (\d+)\n")


def assemble(pdf: bytes, streams: Mapping[str, Part]) -> PdfFile:
    """The file ``pdf`` (written by ReportLab with the placeholders of ``streams``' keys in
    place of their stream data) with each placeholder replaced by its stream and every byte
    offset after it moved on. A placeholder is only taken where a stream's data begins."""
    cuts: list[tuple[int, int, Part]] = []  # (start, end, part) of each placeholder
    at = pdf.find(PREFIX)
    while at >= 0:
        end = pdf.find(b"\x00", at + len(PREFIX))
        key = pdf[at + len(PREFIX):end].decode("latin-1") if end > 0 else ""
        if key in streams and pdf.endswith(b"stream\n", 0, at):
            cuts.append((at, end + 1, streams[key]))
            at = pdf.find(PREFIX, end + 1)
        else:
            at = pdf.find(PREFIX, at + 1)
    if not cuts:
        return PdfFile((pdf,))
    found = _STARTXREF.search(pdf, len(pdf) - 64)
    if found is None:
        raise ValueError("assemble: no startxref at the end of the drawn file")
    xref = int(found.group(1))
    head = _XREF_HEAD.match(pdf, xref)
    if head is None or xref < cuts[-1][1]:
        raise ValueError("assemble: no cross-reference table after the pictures' streams")
    starts = [c[0] for c in cuts]
    shifts = [0]
    for start, end, part in cuts:
        shifts.append(shifts[-1] + (len(part) if isinstance(part, bytes) else part.size) - (end - start))

    def moved(offset: int) -> int:
        lo, hi = 0, len(starts)  # how many placeholders lie before ``offset``
        while lo < hi:
            mid = (lo + hi) // 2
            if starts[mid] < offset:
                lo = mid + 1
            else:
                hi = mid
        return offset + shifts[lo]

    entries = []
    first = head.end()
    for i in range(int(head.group(1))):
        entry = pdf[first + 20 * i:first + 20 * i + 20]
        if entry[17:18] == b"n":
            entry = b"%010d" % moved(int(entry[:10])) + entry[10:]
        entries.append(entry)
    table_end = first + 20 * int(head.group(1))
    tail = pdf[table_end:found.start(1)] + b"%d" % moved(xref) + pdf[found.end(1):]
    parts: list[Part] = []
    done = 0
    for start, end, part in cuts:
        parts.extend((pdf[done:start], part))
        done = end
    parts.extend((pdf[done:xref], pdf[xref:first] + b"".join(entries) + tail))
    return PdfFile(tuple(p for p in parts if not isinstance(p, bytes) or p))
