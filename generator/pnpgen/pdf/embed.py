"""A font embedded in a document: a Type0 font over a CIDFontType2 subset that keeps the font's
glyph ids (pdf/sfnt.py), its subsets kept for the documents and saves that embed them again."""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Mapping
from functools import cache, lru_cache

from pnpgen import fonts, resources, usercache
from pnpgen.fonttables import DamagedFont
from pnpgen.pdf import sfnt
from pnpgen.pdf.content import metrics
from pnpgen.pdf.objects import COMPRESSION, Name, ObjectFile, Ref, flate

SUBSET_KIND = "font-subsets"  # the machine cache's folder of subsets (usercache.py)
SUBSET_FORMAT = b"pnpgen-font-subset 1"  # a change to what sfnt.subset cuts, or how, is a new format


def embed_font(f: ObjectFile, name: str, ref: Ref, used: Mapping[int, str]) -> None:
    """A Type0 font over a CIDFontType2 subset: codes are glyph ids (Identity-H)."""
    m = metrics(name)
    assert m is not None
    try:
        length, program = _subset_stream(fonts.file_of(name), frozenset(used))
    except DamagedFont as e:
        raise fonts.unusable(name, str(e)) from None
    base = sfnt.subset_tag(m.postscript, used) + "+" + m.postscript
    file_ref = f.add_stream({"Length1": length, "Filter": Name("FlateDecode")}, program)
    descriptor = f.add({"Type": Name("FontDescriptor"), "FontName": Name(base), "Flags": m.flags,
                        "FontBBox": list(m.bbox), "ItalicAngle": m.italic_angle, "Ascent": m.ascent,
                        "Descent": m.descent, "CapHeight": m.cap_height, "StemV": m.stem_v,
                        "MissingWidth": m.default_width, "FontFile2": file_ref})
    widths: list = []
    for gid in sorted(used):
        w = m.widths.get(ord(used[gid]), m.default_width)
        if widths and widths[-2] + len(widths[-1]) == gid:
            widths[-1].append(w)
        else:
            widths.extend((gid, [w]))
    cid = f.add({"Type": Name("Font"), "Subtype": Name("CIDFontType2"), "BaseFont": Name(base),
                 "CIDSystemInfo": {"Registry": "Adobe", "Ordering": "Identity", "Supplement": 0},
                 "FontDescriptor": descriptor, "DW": m.default_width, "W": widths,
                 "CIDToGIDMap": Name("Identity")})
    to_unicode = f.add_stream({"Filter": Name("FlateDecode")}, flate(sfnt.to_unicode(used)))
    f.put(ref, {"Type": Name("Font"), "Subtype": Name("Type0"), "BaseFont": Name(base),
                "Encoding": Name("Identity-H"), "DescendantFonts": [cid], "ToUnicode": to_unicode})


@lru_cache(maxsize=16)
def _font_file(file: fonts.FontFile) -> sfnt.Font:
    """A font file's tables found, once per process and file content, in the bytes its metrics
    were read from (fonts.py: the file read once): a font saved over while ``watch`` runs is
    another key, its own glyphs embedded."""
    return sfnt.Font(file.data)


@lru_cache(maxsize=64)
def _subset_stream(file: fonts.FontFile, gids: frozenset[int]) -> tuple[int, bytes]:
    """A font subset's program length and its compressed stream, kept: a build's documents, and a
    watch session's saves, embed the same subsets again (2 ms of zlib each). Kept by the font's
    file (``_font_file``), not by its bytes: a key of a Japanese font's megabytes is hashed, some
    3 ms a font of every build. Kept across runs too, in the machine's cache by the font's content
    (``FontFile.content``) and the glyphs: an edit's build embeds the subsets the last one cut
    (some 4 ms a font and document — the font's glyph table read, its glyphs cut and compressed:
    0.02 CPU-s of the 0.05 the four games' documents take in a count edit)."""
    entry = _subset_entry(file.content, gids) if file.content and _cutter() is not None else None
    kept = usercache.get(SUBSET_KIND, entry) if entry is not None else None
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], int) and isinstance(kept[1], bytes):
        return kept[0], kept[1]
    program = sfnt.subset(_font_file(file), gids)
    made = len(program), flate(program)
    if entry is not None:
        usercache.put(SUBSET_KIND, entry, made)
    return made


def _subset_entry(content: str, gids: frozenset[int]) -> str:
    """The machine cache's name of a subset: what cuts it (``SUBSET_FORMAT``, pdf/sfnt.py's own
    text, zlib's version and level: the same bytes as cut now), the font's content, the glyph ids."""
    return usercache.key(SUBSET_FORMAT, _cutter() or b"", zlib.ZLIB_RUNTIME_VERSION.encode(), b"%d" % COMPRESSION,
                         content.encode(), array("I", sorted(gids)).tobytes())


@cache
def _cutter() -> bytes | None:
    """pdf/sfnt.py's text (some 10 kB, read once a process): a subset cut by other code — a
    developer's edit, an upgrade — is never taken for this code's. None (nothing kept across
    runs) when it cannot be read."""
    try:
        return (resources.folder("pnpgen.pdf") / "sfnt.py").read_bytes()
    except OSError:
        return None


fonts.when_saved(_font_file.cache_clear)  # (a font saved over in ``watch``: its old bytes let go of)
fonts.when_saved(_subset_stream.cache_clear)
