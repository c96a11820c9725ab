"""trial37: an English game's slug line, scale bars and bill of materials were set in BIZ UDP
Gothic, which pdffonts listed beside the game's own faces. They are set in the edition's card-text
faces when those hold every character the lines print; BIZ UD only where they do not."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from conftest import run
from pdfprobe import page_fonts, reader


def _fonts_of_text(pdf: Path, page_no: int, text: str) -> set[str]:
    """The fonts the characters of ``text`` are drawn in on a page (PDFium's reading)."""
    import ctypes

    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[page_no]
        chars = page.get_textpage()
        found = chars.get_text_range().find(text)
        assert found >= 0, chars.get_text_range()
        names = set()
        for k in range(found, found + len(text)):
            if text[k - found].isspace():
                continue
            buf = ctypes.create_string_buffer(256)
            raw.FPDFText_GetFontInfo(chars.raw, k, buf, 256, None)
            names.add(buf.value.decode().split("+")[-1])
        return names
    finally:
        doc.close()


def embedded_fonts(pdf: Path) -> set[str]:
    return {name for page in reader(pdf).pages for name in page_fonts(page)}


def _english_game(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run(ws, "new", "party", "--lang", "en", "--kind", "cards", "--kind", "board") == 0
    return ws


def test_an_english_games_sheets_are_set_in_its_own_faces(tmp_path, capsys):
    ws = _english_game(tmp_path)
    assert run(ws, "build", "--game", "party", "--no-rulebook") == 0
    out = ws / "build" / "party"
    assert _fonts_of_text(out / "cards.pdf", 0, "print at 100 %") == {"NotoSans-Regular"}
    assert _fonts_of_text(out / "cards.pdf", 0, "10 mm") == {"NotoSans-Regular"}
    pages = len(pdfium.PdfDocument(out / "party-all.pdf"))
    assert _fonts_of_text(out / "party-all.pdf", pages - 1, "Bill of materials") == {"NotoSans-Bold"}
    for name in ("cards.pdf", "board.pdf", "party-all.pdf"):
        fonts = embedded_fonts(out / name)
        assert not any(f.startswith("BIZUD") for f in fonts) and "NotoSans-Regular" in fonts, (name, fonts)


def test_a_name_its_faces_lack_keeps_the_sheets_in_biz_ud(tmp_path, capsys):
    """A deck named in Japanese in an English game: Noto Sans has no kana, so the sheets' own lines
    stay in BIZ UD (a slug half in empty boxes would be worse than a second face)."""
    ws = _english_game(tmp_path)
    deck = ws / "data" / "party" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: Cards", "name: カード"), encoding="utf-8")
    assert run(ws, "build", "--game", "party", "--no-rulebook") == 0
    assert _fonts_of_text(ws / "build" / "party" / "cards.pdf", 0, "print at 100 %") == {"BIZUDPGothic-Regular"}


def test_an_english_games_reprints_are_set_in_its_own_faces(tmp_path, capsys):
    """trial58: reprint.pdf and pnpgen reprint's reprint-since-*.pdf, laid out as the home sheets,
    still set their slug in BIZ UDP Gothic beside the Noto of the sheets they stand in for."""
    ws = _english_game(tmp_path)
    assert run(ws, "build", "--game", "party", "--no-rulebook") == 0
    deck = ws / "data" / "party" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("count: 2", "count: 3", 1), encoding="utf-8")
    assert run(ws, "build", "--game", "party", "--no-rulebook") == 0
    assert run(ws, "reprint", "--game", "party", "--since", "v1") == 0
    out = ws / "build" / "party"
    for name in ("reprint.pdf", "reprint-since-v1.pdf"):
        assert _fonts_of_text(out / name, 0, "print at 100 %") == {"NotoSans-Regular"}, name
        fonts = embedded_fonts(out / name)
        assert not any(f.startswith("BIZUD") for f in fonts) and "NotoSans-Regular" in fonts, (name, fonts)
