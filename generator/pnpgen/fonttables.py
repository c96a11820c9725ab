"""A font's parsed tables (metrics, cmap, table directory) kept by the font file's content in
pnpgen's cache on this machine (usercache.py), so a process parses each font once per machine,
not once per run: ReportLab's TrueType parser takes 0.3 s for one BIZ UD font, reading its tables
back takes milliseconds. What a font draws is the same either way: the PDF subsets come from the
font file's own bytes. The tables only ReportLab's own subsetting reads (``LATER``: some 3 ms a font
to read back, which a build that embeds fonts with pnpgen's writer never needs) are kept apart and
read back when first asked for: kept as arrays of numbers, each table made into ReportLab's own
when first asked for (its subsetting asks for two; ``glyphToChar``, 11,739 lists in a BIZ UD font,
only its shaping reads): 3.7 ms a BIZ UD font where reading them back as ReportLab's lists took 6.6.
"""

from __future__ import annotations

import io
import os
import struct
import sys
from array import array
from functools import cache
from pathlib import Path
from typing import Any

from pnpgen import usercache

FORMAT = b"pnpgen-font-tables 4"  # 2: kept only for a font whose glyph tables are whole (glyph_offsets); 3: LATER apart;
# 4: and whose cmap maps to glyphs it has
STAMP_FORMAT = b"pnpgen-font-stamp 2"  # a font file's stamp → its tables' entry (``_content_key``)
# an entry of tables → the entry of its LATER tables (2: arrays of this machine's numbers, ``_flat``)
LATER_FORMAT = b"pnpgen-font-glyph-tables 2 %s %d %d" % (sys.byteorder.encode(), array("H").itemsize, array("I").itemsize)
# what ReportLab reads only to cut its own subsets (a PDF ReportLab's canvas draws), by glyph id
LATER = ("glyphToChar", "hmetrics", "glyphPos")
KIND = "fonts"
# the subsets a face read back keeps, by their characters (``FaceReadingLater.makeSubset``): a
# setting of a book cuts some 7, the same at most saves of ``pnpgen watch``
SUBSETS_KEPT = 16
_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")  # TTFNameBytes values


def parse(name: str, path: Path) -> tuple[Any, bytes]:
    """ReportLab's TTFont for ``path``, registered as ``name``, from the cache when it holds the
    tables of this very file content; and the file's bytes it was made from, read once (the
    writer cuts its subsets from them: ``fonts.FontFile``)."""
    font, data, _ = parse_keyed(name, path)
    return font, data


def parse_keyed(name: str, path: Path) -> tuple[Any, bytes, str]:
    """``parse``'s font and bytes, and the name of their content in the machine's cache (the
    tables' entry: found by the file's stamp, never by hashing the bytes again), under which what
    else is cut from the same bytes is kept (pdf/embed.py: a document's font subsets)."""
    font, data, entry = read_keyed(name, path)
    return (restored(name, font) if isinstance(font, Kept) else font), data, entry


class Kept:
    """A font's tables as the machine's cache keeps them, read back without ReportLab: its face's
    metrics and cmap (``face``: the attributes of ReportLab's face of the same name, its name bytes
    plain) for widths, glyph ids and the writer's font descriptor. ReportLab's own font is made
    from it only for a canvas that draws with it (``restored``): a build whose faces and pages all
    come from the cache, or that draws them with pnpgen's writer, never imports ReportLab's font
    modules (some 30 ms: docs/speed.md, "imports46")."""

    __slots__ = ("data", "entry", "face", "path", "state")

    def __init__(self, path: Path, data: bytes, state: dict[str, Any], entry: str) -> None:
        self.path, self.data, self.state, self.entry = path, data, state, entry
        self.face = _KeptFace(state)


class _KeptFace:
    """The kept tables as a face's attributes (``charWidths``, ``charToGlyph``, ``defaultWidth``,
    ``ascent``, …)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def read_keyed(name: str, path: Path) -> tuple[Any, bytes, str]:
    """``parse_keyed``'s, but where the machine's cache holds the font's tables, those tables as
    they are kept (``Kept``), ReportLab not imported; else ReportLab's font, parsed."""
    import reportlab  # (its version is in the key: the package's own module, not its font modules)

    data, stamp = _read(path)
    entry = _content_key(data, stamp, reportlab.Version.encode())
    state = usercache.get(KIND, entry)
    if isinstance(state, dict) and "unitsPerEm" in state and "charWidths" in state:
        return Kept(path, data, state, entry), data, entry
    from reportlab.pdfbase.ttfonts import TTFont

    glyph_offsets(data, directory(data))  # what the subsets are cut from, whole (else DamagedFont)
    read = io.BytesIO(data)  # (a file object ReportLab reads, named as the file: the same font as from its path)
    read.name = str(path)
    font = TTFont(name, read)
    mapped = max(font.face.charToGlyph.values(), default=0)
    if mapped >= font.face.numGlyphs:  # (ReportLab's subset of it was an IndexError traceback)
        raise DamagedFont(f"its 'cmap' table maps a character to glyph {mapped:,}, past its {font.face.numGlyphs:,} glyphs")
    tables = _tables(font.face)
    if usercache.folder(KIND) is not None:  # (the arrays take some 4 ms a BIZ UD font to make: not for nothing)
        usercache.put(KIND, entry, {k: v for k, v in tables.items() if k not in LATER})
        usercache.put(KIND, _later_key(entry), _flat(tables))
    return font, data, entry


def _read(path: Path) -> tuple[bytes, bytes | None]:
    """The font file's bytes and its stamp (its device, inode, size, times: a write, even one that
    sets the modification time back, changes the inode's change time), or no stamp when the file
    changed while it was read."""
    with open(path, "rb") as f:
        before = os.fstat(f.fileno())
        data = f.read()
        after = os.fstat(f.fileno())
    fields = ("st_dev", "st_ino", "st_size", "st_mtime_ns", "st_ctime_ns")
    if [getattr(before, k) for k in fields] != [getattr(after, k) for k in fields]:
        return data, None
    return data, " ".join([str(path.resolve()), *(str(getattr(before, k)) for k in fields)]).encode()


def _content_key(data: bytes, stamp: bytes | None, version: bytes) -> str:
    """The cache entry of the tables of ``data``: found by the file's stamp when this machine saw
    the file so before, else by hashing its content (some 4 ms for a BIZ UD font, on every start of
    the rulebook's process and of the build's)."""
    by_stamp = usercache.key(STAMP_FORMAT, version, stamp) if stamp is not None else None
    known = usercache.get(KIND, by_stamp) if by_stamp is not None else None
    if isinstance(known, str):
        return known
    entry = usercache.key(FORMAT, version, data)
    if by_stamp is not None:
        usercache.put(KIND, by_stamp, entry)
    return entry


def _tables(face) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in vars(face).items():
        if k in ("_ttf_data", "_pdfScale", "filename"):
            continue  # the file's bytes and name come from the file; the scale from unitsPerEm
        out[k] = bytes(v) if k in _NAMES else v
    return out


def _later_key(entry: str) -> str:
    return usercache.key(LATER_FORMAT, entry.encode())


def restored(name: str, kept: Kept):
    """ReportLab's font, registered as ``name``, made from the kept tables (``Kept``)."""
    return _restore(name, kept.path, kept.data, kept.state, kept.entry)


def _restore(name: str, path: Path, data: bytes, state: dict[str, Any], entry: str):
    """A TTFont as ``TTFont(name, path)`` makes it, its face's tables read back instead of parsed
    (those of ``LATER`` when first asked for: ``_face_reading_later``)."""
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont

    later = _face_reading_later()
    face: Any = object.__new__(later)
    pdfmetrics.TypeFace.__init__(face, None)
    values = dict(state)
    for k in _NAMES:
        if k in values:
            values[k] = TTFNameBytes(values[k])
    face.__dict__.update(values)
    face._ttf_data = data
    face.filename = str(path)
    face.later = entry
    per_em = face.unitsPerEm
    face._pdfScale = (lambda x: x) if per_em == 1000 else (lambda x, m=1000 / per_em: x * m)
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = True
    return font


def _numbers(values, kind: str) -> bytes:
    return array(kind, values).tobytes()


def _flat(tables: dict[str, Any]) -> dict[str, Any]:
    """The ``LATER`` tables as arrays of numbers, which read back at once, where ReportLab's
    dict of 11,739 one-character lists (``glyphToChar``) and list of pairs (``hmetrics``) are
    rebuilt object by object: each glyph's first character, then the few more some glyphs have;
    the advances ReportLab reads as numbers, then those it repeats as scaled (floats). Tables of
    another shape are kept as they are."""
    to_char, metrics = tables["glyphToChar"], tables["hmetrics"]
    read = next((i for i, (a, _) in enumerate(metrics) if type(a) is not int), len(metrics))
    more = [(glyph, char) for glyph, chars in to_char.items() for char in chars[1:]]
    if not all(type(a) is float for a, _ in metrics[read:]):
        return {"plain": {k: tables[k] for k in LATER}}
    try:
        return {
            "glyphToChar": (_numbers(to_char, "H"), _numbers((chars[0] for chars in to_char.values()), "I"),
                            _numbers((g for g, _ in more), "H"), _numbers((c for _, c in more), "I")),
            "hmetrics": (_numbers((a for a, _ in metrics[:read]), "H"), _numbers((a for a, _ in metrics[read:]), "d"),
                         _numbers((b for _, b in metrics), "H")),
            "glyphPos": (_numbers(tables["glyphPos"], "I"),),
        }
    except (TypeError, OverflowError, IndexError):  # not all whole numbers of their size, or a glyph without characters
        return {"plain": {k: tables[k] for k in LATER}}


def _later_table(kept: Any, name: str) -> Any:
    """One of the ``LATER`` tables as ReportLab makes it (the same dict order, the same lists),
    from ``_flat``'s arrays; None from an entry not of that shape (another version's, damaged)."""
    plain = kept.get("plain") if isinstance(kept, dict) else None
    if isinstance(plain, dict):
        return plain.get(name)
    try:
        if name == "glyphPos":
            (positions,) = (_array(b, "I") for b in kept[name])
            return positions
        if name == "hmetrics":
            read, scaled, bearings = (_array(b, k) for b, k in zip(kept[name], "HdH", strict=True))
            return list(zip(read + scaled, bearings)) if len(read) + len(scaled) == len(bearings) else None
        glyphs, firsts, more_glyphs, more_chars = (_array(b, k) for b, k in zip(kept[name], "HIHI", strict=True))
    except (TypeError, KeyError, ValueError):
        return None
    to_char = dict(zip(glyphs, map(list, zip(firsts))))
    if len(to_char) != len(glyphs) or len(glyphs) != len(firsts) or len(more_glyphs) != len(more_chars):
        return None
    for glyph, char in zip(more_glyphs, more_chars):
        if glyph not in to_char:
            return None
        to_char[glyph].append(char)
    return to_char


def _array(data: Any, kind: str) -> list:
    if not isinstance(data, bytes):
        raise TypeError(type(data).__name__)
    numbers = array(kind)
    numbers.frombytes(data)  # (ValueError: not a whole number of them)
    return numbers.tolist()


@cache
def _face_reading_later() -> type:
    """ReportLab's TTFontFace whose ``LATER`` tables are read back when first asked for (from
    their entry, else parsed from the face's own bytes, the file's as read with the rest)."""
    from reportlab.pdfbase.ttfonts import TTFontFace, TTFontFile

    class FaceReadingLater(TTFontFace):
        def __getattr__(self, name: str) -> Any:  # (only for an attribute the face does not have)
            known = self.__dict__
            entry = known.get("later") if name in LATER else None
            if entry is None:
                if name in LATER and name in known:  # read meanwhile by another thread (an export's)
                    return known[name]
                raise AttributeError(name)
            kept = known.get("later_tables") or usercache.get(KIND, _later_key(entry))
            table = _later_table(kept, name)
            if table is None:
                parsed = TTFontFile(io.BytesIO(self._ttf_data))
                kept = _flat({k: getattr(parsed, k) for k in LATER})
                usercache.put(KIND, _later_key(entry), kept)
                table = getattr(parsed, name)
            known["later_tables"] = kept  # (each table made when asked for: glyphToChar, by shaping alone)
            table = known.setdefault(name, table)  # (a thread asking meanwhile gets the same table)
            if all(k in known for k in LATER):
                known.pop("later", None)  # (then the entry's name goes: a thread asking meanwhile finds either)
                known.pop("later_tables", None)
            return table

        def makeSubset(self, subset: list[int]) -> bytes:  # (ReportLab's name)
            """The font program of these characters, cut once and kept (the last ``SUBSETS_KEPT``):
            the warm rulebook process of ``pnpgen watch`` sets the same book, or nearly, at every
            save, and cutting its 7 subsets took some 12 ms of the 150 a setting. The same bytes:
            a subset is made from the face's own bytes and the characters alone."""
            kept = self.__dict__.setdefault("subsets", {})
            key = tuple(subset)
            made = kept.pop(key, None)
            if made is None:
                made = super().makeSubset(subset)
                for old in list(kept)[:max(0, len(kept) + 1 - SUBSETS_KEPT)]:  # the longest unused go
                    kept.pop(old, None)
            kept[key] = made
            return made

    return FaceReadingLater


class DamagedFont(ValueError):
    """A font file whose tables do not hold what they say (cut short, or made so): refused when
    the font is first read, in the font's words, rather than a traceback or a PDF of broken
    glyphs where its subsets are cut (pdf/sfnt.py, ReportLab's rulebook)."""


TRUETYPE = (b"\x00\x01\x00\x00", b"true")  # a TrueType font's sfnt version (OpenType spec, "Table directory")
# a font of another format renamed .ttf, told as what it is (its first four bytes), not as tables it lacks
OTHER_FORMATS = {
    b"ttcf": "it is a font collection (a .ttc holding several fonts) renamed .ttf; take the family's single "
             "TrueType fonts",
    b"OTTO": "it is an OpenType font with PostScript (CFF) outlines (an .otf) renamed .ttf; take the family's "
             "TrueType version",
    b"wOFF": "it is a web font (WOFF) renamed .ttf; take the family's TrueType .ttf it was made from",
    b"wOF2": "it is a web font (WOFF2) renamed .ttf; take the family's TrueType .ttf it was made from",
}
NEEDED = ("glyf", "head", "hhea", "hmtx", "loca", "maxp")  # what a TrueType subset is cut from


def directory(data: bytes) -> dict[str, tuple[int, int]]:
    """A font file's tables: tag → (offset, length), each inside the file, those a subset needs there."""
    if len(data) < 12:
        raise DamagedFont("the file is too short for a font")
    if data[:4] not in TRUETYPE:
        raise DamagedFont(OTHER_FORMATS.get(data[:4], "it is no TrueType font: its first bytes are not a font's "
                                                       "(a .ttf starts 00 01 00 00)"))
    (count,) = struct.unpack(">H", data[4:6])
    if 12 + 16 * count > len(data):
        raise DamagedFont("its table directory runs past the file's end")
    where = {}
    for i in range(count):
        tag, _, at, n = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        if at + n > len(data):
            raise DamagedFont(f"its {tag.decode('latin-1')!r} table runs past the file's end")
        where[tag.decode("latin-1")] = (at, n)
    missing = [tag for tag in NEEDED if tag not in where]
    if missing:
        raise DamagedFont(f"it has no {missing[0]!r} table (a TrueType font with outlines has one)")
    return where


def glyph_offsets(data: bytes, where: dict[str, tuple[int, int]]) -> tuple[int, ...]:
    """Where each glyph's outline starts in 'glyf', by glyph id, and where the last one ends;
    DamagedFont when the tables disagree: more glyphs than 'loca' places, an outline outside
    'glyf', fewer metrics in 'hmtx' than glyphs."""
    def table(tag: str) -> bytes:
        at, n = where[tag]
        return data[at:at + n]

    head, maxp, hhea, loca = table("head"), table("maxp"), table("hhea"), table("loca")
    if len(head) < 54 or len(maxp) < 6 or len(hhea) < 36:
        raise DamagedFont("its 'head', 'maxp' or 'hhea' table is cut short")
    (long_offsets,) = struct.unpack(">h", head[50:52])
    (n,) = struct.unpack(">H", maxp[4:6])
    size = 4 if long_offsets else 2
    if n == 0 or len(loca) < size * (n + 1):
        raise DamagedFont(f"it says it has {n:,} glyphs but its 'loca' table places {max(len(loca) // size - 1, 0):,}")
    if long_offsets:
        offsets = struct.unpack(f">{n + 1}I", loca[:4 * (n + 1)])
    else:
        offsets = tuple(2 * v for v in struct.unpack(f">{n + 1}H", loca[:2 * (n + 1)]))
    if any(b < a for a, b in zip(offsets, offsets[1:])) or offsets[-1] > where["glyf"][1]:
        raise DamagedFont("its 'loca' table places outlines outside its 'glyf' table")
    (long_metrics,) = struct.unpack(">H", hhea[34:36])
    if not 1 <= long_metrics <= n or where["hmtx"][1] < 4 * long_metrics + 2 * (n - long_metrics):
        raise DamagedFont("its 'hmtx' table holds fewer metrics than it has glyphs")
    return offsets
