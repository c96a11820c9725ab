"""A text's width is measured from the font's tables as the machine's cache keeps them, without
ReportLab (pnpgen/fonts.py ``string_width``, fonttables.py ``Kept``): the same number, to the last
bit, as ReportLab's own ``stringWidth`` (its accelerator) — every sheet's slug, a face's text, a
card's vertical words were placed by it, and the four games' files must not move by an ulp."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnpgen import fonts, fonttables

FONTS = Path(__file__).resolve().parents[2] / "fonts"


@pytest.mark.parametrize("stem", ["NotoSans-Regular", "BIZUDPGothic-Regular"])  # 1,000 and 2,048 units an em
def test_a_width_from_the_kept_tables_is_reportlabs_to_the_last_bit(stem, tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    path = FONTS / f"{stem}.ttf"
    parsed, _ = fonttables.parse("W", path)  # ReportLab's font, parsed (its tables kept)
    kept, _, _ = fonttables.read_keyed("W", path)
    assert isinstance(kept, fonttables.Kept)  # read back without ReportLab's font
    chars = [chr(c) for c in sorted(kept.face.charWidths)[:4000]] + ["\U0010fffd"]  # one without a glyph
    pick = random.Random(46)
    for _ in range(3000):
        text = "".join(pick.choice(chars) for _ in range(pick.randint(1, 24)))
        size = pick.choice([5.5, 7.2, 8, 9, 10.5, pick.uniform(3, 40)])
        want = parsed.stringWidth(text, size)
        assert fonts.width_in(kept.face, text, size) == want, (text, size)
        assert fonts.width_in(parsed.face, text, size) == want, (text, size)


def test_a_located_font_is_measured_and_drawn_from_one_file(tmp_path, monkeypatch):
    """``face`` reads the kept tables; ``ttfont`` makes ReportLab's font of the same file when a
    ReportLab canvas draws with it, registered under the name; a name no data located is a
    KeyError either way (what a template's unknown font is told by)."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    name = "NotoSerif-Regular"
    fonttables.parse(name, FONTS / f"{name}.ttf")  # (the tables in the machine's cache)
    fonts.locate(name, FONTS)
    monkeypatch.setattr(fonts, "_fonts", {})  # (this process's fonts: none read yet)
    monkeypatch.setattr(fonts, "_registered", {})
    assert fonts.face(name).charWidths and isinstance(fonts._fonts[name], fonttables.Kept)
    width = fonts.string_width("Hello, pnpgen", name, 10)
    from reportlab.pdfbase import pdfmetrics

    drawn = fonts.ttfont(name)
    assert pdfmetrics.getFont(name) is drawn and drawn.stringWidth("Hello, pnpgen", 10) == width > 40
    assert fonts.face(name) is drawn.face  # one font from then on
    with pytest.raises(KeyError):
        fonts.face("NoSuchFont")
