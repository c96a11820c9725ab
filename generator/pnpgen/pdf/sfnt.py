"""A TrueType font cut down to the glyphs a document shows, glyph ids kept.

The writer (pdf/writer.py) embeds each font as a CIDFontType2 whose character codes are the
font's own glyph ids (Identity-H, CIDToGIDMap /Identity; ISO 32000-1 §9.7.4). So a face's content
stream is the same bytes in every document that shows it, whatever else the document holds, and
can be made once and kept; only the embedded font program differs from document to document.
This module makes that program: every table a PDF reader needs for a CIDFontType2 (ISO 32000-1
§9.9, Table 126: head, hhea, loca, maxp, cvt, prep, glyf, hmtx, fpgm), with the outlines of the
glyphs the document names (and the components of composite glyphs) and empty ones elsewhere,
so the ids stay where they were. A simple byte-level cut (no outline is decoded) — milliseconds
for a CJK font of 20,000 glyphs, where a general subsetter parses the whole font.
"""

from __future__ import annotations

import hashlib
import struct
import sys
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import accumulate

from pnpgen import fonttables
from pnpgen.fonttables import DamagedFont

# Tables a CIDFontType2's program keeps (Table 126) and 'post' (glyph-name-free, version 3), which
# font tools expect; 'OS/2' and 'name' are kept too: preflight tools read the embedding rights.
KEPT = ("OS/2", "cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "name", "post", "prep")

# Composite glyph flags (OpenType 'glyf' table)
ARG_WORDS = 0x0001
HAS_SCALE = 0x0008
MORE_COMPONENTS = 0x0020
HAS_XY_SCALE = 0x0040
HAS_2X2 = 0x0080


@dataclass(frozen=True)
class Tables:
    """The table directory of a TrueType font file: tag → (offset, length), each table's bytes
    and checksum read once."""

    data: bytes
    where: dict[str, tuple[int, int]]
    _bodies: dict[str, bytes] = field(default_factory=dict)
    _sums: dict[str, int] = field(default_factory=dict)

    def get(self, tag: str) -> bytes:
        body = self._bodies.get(tag)
        if body is None:
            at, n = self.where[tag]
            body = self._bodies[tag] = self.data[at:at + n]
        return body

    def checksum(self, tag: str) -> int:
        if tag not in self._sums:
            self._sums[tag] = _checksum(self.get(tag))
        return self._sums[tag]


class Font:
    """A font file's bytes, its directory and where each glyph's outline lies, read once (checked:
    ``DamagedFont`` when they do not hold up) for every subset cut from it. The writer keeps one
    per font file; nothing here is kept by the bytes, whose key would hash a Japanese font's
    megabytes (some 3 ms a font, every process)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.tables = Tables(data, fonttables.directory(data))
        offsets = fonttables.glyph_offsets(data, self.tables.where)
        self.spans = tuple(zip(offsets, offsets[1:]))  # (start, end) of each glyph's outline in 'glyf', by id


def _components(glyph: bytes) -> list[int]:
    """The glyph ids a composite glyph is made of (none for a simple glyph)."""
    if len(glyph) < 10 or struct.unpack(">h", glyph[:2])[0] >= 0:
        return []
    out = []
    at = 10
    while True:
        if at + 4 > len(glyph):
            raise DamagedFont("a composite glyph's components run past its outline")
        flags, gid = struct.unpack(">HH", glyph[at:at + 4])
        out.append(gid)
        at += 4 + (4 if flags & ARG_WORDS else 2)
        if flags & HAS_SCALE:
            at += 2
        elif flags & HAS_XY_SCALE:
            at += 4
        elif flags & HAS_2X2:
            at += 8
        if not flags & MORE_COMPONENTS:
            return out


def subset_tag(name: str, gids: Iterable[int]) -> str:
    """The six capital letters that name a subset (ISO 32000-1 §9.6.4), from what it holds."""
    digest = hashlib.sha256((name + ":" + ",".join(map(str, sorted(gids)))).encode()).digest()
    return "".join(chr(65 + b % 26) for b in digest[:6])


def subset(font: Font | bytes, gids: Iterable[int]) -> bytes:
    """The font program (``font``'s file) with outlines for ``gids`` (and .notdef, and every
    component of a composite glyph) only; every other glyph id kept, empty, with no advance."""
    if not isinstance(font, Font):
        font = Font(font)
    data, t, spans = font.data, font.tables, font.spans
    n = len(spans)
    glyf_at, _ = t.where["glyf"]
    view = memoryview(data)
    keep = {0}
    todo = [g for g in gids if 0 <= g < n]
    while todo:
        g = todo.pop()
        if g in keep:
            continue
        keep.add(g)
        a, b = spans[g]
        todo.extend(c for c in _components(data[glyf_at + a:glyf_at + b]) if c < n and c not in keep)
    sizes = [0] * n
    out_glyf = bytearray()
    for g in sorted(keep):
        a, b = spans[g]
        if b > a:
            glyph = view[glyf_at + a:glyf_at + b]
            pad = -len(glyph) % 4
            out_glyf += glyph
            out_glyf += b"\0" * pad
            sizes[g] = len(glyph) + pad
    loca = array("I", [0, *accumulate(sizes)])
    if sys.byteorder == "little":
        loca.byteswap()
    hhea = t.get("hhea")
    (long_metrics,) = struct.unpack(">H", hhea[34:36])
    hmtx_at, _ = t.where["hmtx"]
    metrics = bytearray(4 * n)
    for g in keep:
        i = min(g, long_metrics - 1)
        lsb_at = hmtx_at + (4 * g + 2 if g < long_metrics else 4 * long_metrics + 2 * (g - long_metrics))
        metrics[4 * g:4 * g + 2] = data[hmtx_at + 4 * i:hmtx_at + 4 * i + 2]
        metrics[4 * g + 2:4 * g + 4] = data[lsb_at:lsb_at + 2]
    head = t.get("head")
    new = {
        "glyf": bytes(out_glyf),
        "loca": loca.tobytes(),
        "hmtx": bytes(metrics),
        "hhea": hhea[:34] + struct.pack(">H", n) + hhea[36:],
        "head": head[:8] + b"\0\0\0\0" + head[12:50] + struct.pack(">h", 1) + head[52:],
    }
    if "post" in t.where:
        new["post"] = struct.pack(">I", 0x00030000) + t.get("post")[4:32]
    bodies = {tag: new[tag] if tag in new else t.get(tag) for tag in KEPT if tag in new or tag in t.where}
    sums = {tag: _checksum(body) if tag in new else t.checksum(tag) for tag, body in bodies.items()}
    return _font_file(bodies, sums)


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


def _font_file(bodies: dict[str, bytes], sums: dict[str, int]) -> bytes:
    """An sfnt file of ``bodies`` (tables in tag order, each four-byte aligned, ``sums`` their
    checksums), its head's checkSumAdjustment set as the OpenType spec says: 0xB1B0AFBA less the
    whole file's checksum, which is the directory's plus every table's (all are aligned)."""
    tags = sorted(bodies)
    count = len(tags)
    power = 1
    while power * 2 <= count:
        power *= 2
    head = struct.pack(">IHHHH", 0x00010000, count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    at = 12 + 16 * count
    directory = []
    blob = []
    for tag in tags:
        body = bodies[tag]
        directory.append(struct.pack(">4sIII", tag.encode("latin-1"), sums[tag], at, len(body)))
        padded = body + b"\0" * (-len(body) % 4)
        blob.append(padded)
        at += len(padded)
    front = head + b"".join(directory)
    data = bytearray(front + b"".join(blob))
    if "head" in bodies:
        head_at = len(front) + sum(len(b) for b in blob[:tags.index("head")])
        total = (_checksum(front) + sum(sums.values())) & 0xFFFFFFFF
        data[head_at + 8:head_at + 12] = struct.pack(">I", (0xB1B0AFBA - total) & 0xFFFFFFFF)
    return bytes(data)


def to_unicode(used: Mapping[int, str]) -> bytes:
    """The ToUnicode CMap (ISO 32000-1 §9.10.3) mapping each glyph id shown to its character."""
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
             "1 begincodespacerange", "<0000> <FFFF>", "endcodespacerange"]
    pairs = sorted(used.items())
    for at in range(0, len(pairs), 100):
        block = pairs[at:at + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines.extend(f"<{g:04X}> <{c.encode('utf-16-be').hex().upper()}>" for g, c in block)
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode("ascii")
