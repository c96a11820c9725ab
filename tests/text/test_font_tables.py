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


def test_the_second_parse_reads_the_tables_and_measures_the_same(cache, monkeypatch):
    first = fonttables.parse("A", FONT)
    assert len(list(cache.iterdir())) == 1
    monkeypatch.setattr(ttfonts.TTFontFile, "extractInfo", lambda *a: pytest.fail("parsed again"))
    second = fonttables.parse("B", FONT)
    assert second.stringWidth("Hello, pnpgen 123", 10) == first.stringWidth("Hello, pnpgen 123", 10) > 50
    assert second.face.charToGlyph == first.face.charToGlyph
    assert second.face.makeSubset([0, 72, 101]) == first.face.makeSubset([0, 72, 101])  # what a PDF embeds


def test_a_damaged_entry_is_parsed_again_and_rewritten(cache):
    fonttables.parse("A", FONT)
    entry = next(cache.iterdir())
    entry.write_bytes(entry.read_bytes()[:-10] + b"0123456789")
    calls = []
    real = ttfonts.TTFont

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    ttfonts.TTFont, saved = counted, ttfonts.TTFont
    try:
        font = fonttables.parse("B", FONT)
    finally:
        ttfonts.TTFont = saved
    assert calls == [1] and font.stringWidth("A", 10) > 0
    assert usercache.get("fonts", entry.name) is not None  # rewritten whole


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
