"""A font's parsed tables come back from the cache by the file's content (pnpgen/fonttables.py, usercache.py):
the second process reads them instead of parsing the font, and measures and embeds the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import ttfonts

from pnpgen import fonttables, usercache

FONT = Path(__file__).resolve().parents[2] / "fonts" / "NotoSans-Regular.ttf"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "fonts"


def tables_entry(cache: Path, holding: str = "charWidths") -> Path:
    """The entry holding the font's tables (beside it, the one of the tables only ReportLab's own
    subsetting reads, ``holding="glyphPos"``, and the small one naming it by the file's stamp)."""
    return next(p for p in cache.iterdir() if holding in (usercache.get("fonts", p.name) or ()))


def test_the_second_parse_reads_the_tables_and_measures_the_same(cache, monkeypatch):
    first, data = fonttables.parse("A", FONT)
    assert data == FONT.read_bytes()  # the bytes it was made from: what the writer embeds
    assert len(list(cache.iterdir())) == 3  # the tables, those of ReportLab's subsetting, and the file's stamp
    monkeypatch.setattr(ttfonts.TTFontFile, "extractInfo", lambda *a: pytest.fail("parsed again"))
    second, again = fonttables.parse("B", FONT)
    assert again == data
    assert second.stringWidth("Hello, pnpgen 123", 10) == first.stringWidth("Hello, pnpgen 123", 10) > 50
    assert second.face.charToGlyph == first.face.charToGlyph
    assert second.face.makeSubset([0, 72, 101]) == first.face.makeSubset([0, 72, 101])  # what a PDF embeds


def test_the_tables_only_reportlabs_subsetting_reads_are_read_back_when_it_asks(cache, monkeypatch):
    """A build measures text and embeds its fonts with pnpgen's own writer: the glyph tables
    ReportLab cuts its own subsets by (some 3 ms of a BIZ UD font's 5 to read back) are not read
    for it; a ReportLab canvas (the svglib fallback) still finds them, the same as parsed."""
    first, _ = fonttables.parse("A", FONT)
    later = tables_entry(cache, "glyphPos").name
    read: list[str] = []
    get = usercache.get
    monkeypatch.setattr(usercache, "get", lambda kind, name: read.append(name) or get(kind, name))
    second, _ = fonttables.parse("B", FONT)
    assert second.stringWidth("Hello", 10) == first.stringWidth("Hello", 10) and second.face.charWidths
    assert later not in read and len(read) == 2  # the stamp's entry, the tables
    assert second.face.glyphPos == first.face.glyphPos and second.face.hmetrics == first.face.hmetrics
    assert second.face.makeSubset([0, 72, 101]) == first.face.makeSubset([0, 72, 101])
    assert later in read
    with pytest.raises(AttributeError):
        second.face.no_such_table  # noqa: B018 - a name ReportLab's face never had is still missing


def test_a_face_read_back_cuts_each_subset_once_and_keeps_the_last_ones(cache, monkeypatch):
    """The warm rulebook process of ``pnpgen watch`` sets the book again at most saves with the
    same characters: each subset is cut once (some 1.7 ms a BIZ UD one) and kept, the same bytes;
    only the last ``SUBSETS_KEPT``."""
    first, _ = fonttables.parse("A", FONT)
    second, _ = fonttables.parse("B", FONT)
    cut: list[tuple[int, ...]] = []
    real = ttfonts.TTFontFile.makeSubset
    monkeypatch.setattr(ttfonts.TTFontFile, "makeSubset", lambda self, subset: cut.append(tuple(subset)) or real(self, subset))
    made = second.face.makeSubset([0, 72, 101])
    assert made == second.face.makeSubset([0, 72, 101]) == real(first.face, [0, 72, 101])
    assert cut == [(0, 72, 101)]  # cut once, then kept (the parsed face's cut above not through the attribute)
    for code in range(65, 65 + fonttables.SUBSETS_KEPT):
        second.face.makeSubset([0, code])
    assert len(second.face.subsets) == fonttables.SUBSETS_KEPT
    assert second.face.makeSubset([0, 72, 101]) == made and cut[-1] == (0, 72, 101)  # the oldest went: cut again
    assert second.face.makeSubset([0, 65 + fonttables.SUBSETS_KEPT - 1]) and cut[-1] == (0, 72, 101)  # a kept one


def test_a_damaged_entry_of_the_subsetting_tables_is_parsed_from_the_fonts_bytes(cache):
    first, _ = fonttables.parse("A", FONT)
    entry = tables_entry(cache, "glyphPos")
    entry.write_bytes(entry.read_bytes()[:-10] + b"0123456789")
    second, _ = fonttables.parse("B", FONT)
    assert second.face.makeSubset([0, 72, 101]) == first.face.makeSubset([0, 72, 101])
    kept = usercache.get("fonts", entry.name)  # rewritten whole
    assert {k: fonttables._later_table(kept, k) for k in fonttables.LATER} == {k: getattr(first.face, k) for k in fonttables.LATER}


def test_glyph_to_char_is_made_only_when_asked_for_and_as_reportlab_makes_it(cache):
    """ReportLab's subsetting reads the glyphs' positions and metrics; the dict of the glyphs'
    characters (11,739 lists in a BIZ UD font: most of what its entry took to read back) only
    its shaping reads: made when that asks, the same dict in the same order, lists and all."""
    font = FONT.with_name("BIZUDPGothic-Regular.ttf")
    parsed = ttfonts.TTFontFile(str(font))
    fonttables.parse("A", font)
    second, _ = fonttables.parse("B", font)
    second.face.makeSubset([0, 34, 1256])
    assert "glyphToChar" not in vars(second.face) and "later" in vars(second.face)
    assert second.face.hmetrics == parsed.hmetrics and second.face.glyphPos == parsed.glyphPos
    assert {type(a) for a, _ in second.face.hmetrics} == {type(a) for a, _ in parsed.hmetrics} == {int, float}
    assert list(second.face.glyphToChar.items()) == list(parsed.glyphToChar.items())
    assert any(len(chars) > 1 for chars in second.face.glyphToChar.values())  # a glyph of more characters
    assert "later" not in vars(second.face) and "later_tables" not in vars(second.face)


def test_an_entry_of_the_subsetting_tables_not_of_its_shape_is_never_used(cache):
    """An entry whose seal holds but whose arrays disagree (another version's, or made so) is
    parsed again from the font's bytes, never read as tables."""
    first, _ = fonttables.parse("A", FONT)
    entry = tables_entry(cache, "glyphPos")
    kept = usercache.get("fonts", entry.name)
    glyphs, firsts, more, chars = kept["glyphToChar"]
    usercache.put("fonts", entry.name, {**kept, "glyphToChar": (glyphs, firsts[:-8], more, chars),
                                        "hmetrics": kept["hmetrics"][:2], "glyphPos": ("0",)})
    second, _ = fonttables.parse("B", FONT)
    assert second.face.glyphPos == first.face.glyphPos and second.face.hmetrics == first.face.hmetrics
    assert second.face.glyphToChar == first.face.glyphToChar


def test_a_damaged_entry_is_parsed_again_and_rewritten(cache):
    fonttables.parse("A", FONT)
    entry = tables_entry(cache)
    entry.write_bytes(entry.read_bytes()[:-10] + b"0123456789")
    calls = []
    real = ttfonts.TTFont

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    ttfonts.TTFont, saved = counted, ttfonts.TTFont
    try:
        font, _ = fonttables.parse("B", FONT)
    finally:
        ttfonts.TTFont = saved
    assert calls == [1] and font.stringWidth("A", 10) > 0
    assert usercache.get("fonts", entry.name) is not None  # rewritten whole


def test_a_font_file_written_again_with_its_old_time_is_read_by_its_content(cache, tmp_path):
    """The tables are found by the file's stamp, without hashing its megabytes; a file written
    again (here another font, its modification time set back) has another stamp (its inode's
    change time moves with any write) and is known by its content: never the other font's tables."""
    import os
    import time

    other = FONT.with_name("NotoSerif-Regular.ttf").read_bytes()
    font = tmp_path / "Game.ttf"
    font.write_bytes(FONT.read_bytes().ljust(len(other), b"\0"))  # the same size (bytes past its tables: unread)
    st = font.stat()
    first, _ = fonttables.parse("A", font)
    time.sleep(0.01)
    font.write_bytes(other)  # the same file (inode), size and modification time
    os.utime(font, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (font.stat().st_ino, font.stat().st_size, font.stat().st_mtime_ns) == (st.st_ino, st.st_size, st.st_mtime_ns)
    again, _ = fonttables.parse("B", font)
    assert again.face.name != first.face.name and again.face.numGlyphs != first.face.numGlyphs
    assert again.stringWidth("Hello", 10) != first.stringWidth("Hello", 10)


def test_an_installed_module_is_told_apart_by_its_file_without_reading_package_metadata(tmp_path, monkeypatch):
    """The slips' and readings' cache keys name the analyser and dictionary as installed: a
    reinstall (the module's file written again) makes another key; a missing module is named so."""
    import os
    import sys

    module = tmp_path / "pnpgen_probe_dictionary.py"
    module.write_text("WORDS = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = usercache.installed("pnpgen_probe_dictionary")
    assert str(module).encode() in first
    assert usercache.installed("pnpgen_probe_dictionary") == first
    st = module.stat()
    os.utime(module, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # reinstalled: the same text, written again
    assert usercache.installed("pnpgen_probe_dictionary") != first
    assert usercache.installed("pnpgen_no_such_module") == b"pnpgen_no_such_module -"
    assert "pnpgen_probe_dictionary" not in sys.modules  # found, never imported


def test_with_the_cache_off_no_arrays_are_made_to_keep(monkeypatch):
    """``PNPGEN_CACHE=off``: the font is parsed and nothing kept, so the subsetting tables'
    arrays (some 4 ms a BIZ UD font to make) are not made for nothing."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    monkeypatch.setattr(fonttables, "_flat", lambda tables: pytest.fail("arrays made with nowhere to keep them"))
    font, _ = fonttables.parse("A", FONT)
    assert font.stringWidth("Hello", 10) > 0 and font.face.glyphPos
