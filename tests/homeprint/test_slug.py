"""The slug of home sheets is never cut off (issue 25, item 8): every home page of the four
games carries, in full and inside the printable area, the print instruction with the scale note
on its first line and the sheet's name with the version stamp on its second, in both label
languages."""

from __future__ import annotations

import json
import re

import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, GAME_YAML, GAMES, make_workspace, run
from pdfprobe import glyphs
from pnpgen.data.formats import PAPER_SIZES
from pnpgen.impose.grid import SheetOptions
from pnpgen.messages import msg

SHEET = SheetOptions()
STAMP = re.compile(r"\d{4}-\d\d-\d\d#[0-9a-f]{7}$")  # date and hash, spaces removed


def slug_lines(pdf) -> list[list[str]]:
    """Each page's slug lines: the text the page itself draws in the band above the pieces (or,
    on a board tile, at the foot of the band), grouped by baseline, with the glyphs' extent
    checked against the printable area."""
    pw, ph = PAPER_SIZES[SHEET.paper]
    m = SHEET.margin_mm
    out = []
    for page in glyphs(pdf):
        rows: dict[float, list] = {}
        top = [g for g in page if g.on_page and m <= g.y <= m + SHEET.slug_mm]
        foot = [g for g in page if g.on_page and ph - m - SHEET.slug_mm <= g.y <= ph - m]
        for g in top or foot:
            rows.setdefault(round(g.y, 1), []).append(g)
        lines = []
        for y in sorted(rows):
            gs = sorted(rows[y], key=lambda g: g.x)
            assert gs[0].x >= m - 0.01 and gs[-1].x + gs[-1].size * 25.4 / 72 <= pw - m + 0.01, pdf
            lines.append(_words("".join(g.char for g in gs)))
        out.append(lines)
    return out


def _words(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("slug", GAMES)
def test_every_home_page_carries_the_whole_slug(built, slug):
    manifest = json.loads((built / slug / "manifest.json").read_text(encoding="utf-8"))
    lang = manifest.get("lang", "ja")
    scale = _words(msg("sheet.scale", lang))
    checked = 0
    for deck in manifest["decks"]:
        if not deck["files"]:
            continue
        pdf = built / slug / deck["files"][0]
        two_sided = deck["double_sided"]
        instruction = _words(msg(f"sheet.duplex.{SHEET.duplex}", lang) if two_sided else msg("sheet.one_sided", lang))
        pages = slug_lines(pdf)
        assert len(pages) == len(PdfReader(pdf).pages)
        for n, lines in enumerate(pages, 1):
            first = [ln for ln in lines if ln.startswith(instruction)]
            assert first, (pdf.name, n, lines)
            assert first[0].startswith(f"{instruction}·{scale}"), (pdf.name, n, lines)
            second = lines[lines.index(first[0]) + 1]
            assert second.startswith(_words(deck["name"])) and f"({deck['id']})" in second, (pdf.name, n, second)
            assert "…" not in "".join(lines), (pdf.name, n, lines)
            assert STAMP.search(second) and slug in second, (pdf.name, n, second)
            checked += 1
    assert checked >= 4


LONG = "とても長い名前のカードデッキ" * 4


def test_english_labels_and_a_long_deck_name_shrink_never_cut(tmp_path):
    game = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ndefault_language: ja\n"
                             "title: {ja: テストゲーム, en: Test Game}")
    deck = DECK_YAML.replace("name: テストカード", f"name: {{ja: {LONG}, en: {'A very long deck name ' * 5}}}")
    deck += "".join(f"  - {{name: c{i}, text: t{i}}}\n" for i in range(3))
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    for lang in ("ja", "en"):
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", lang) == 0
        pdf = ws / "build" / "test" / ("" if lang == "ja" else lang) / "cards.pdf"  # ja: the default, built in place
        instruction = _words(msg("sheet.duplex.long", lang)) + "·" + _words(msg("sheet.scale", lang))
        name = _words(LONG if lang == "ja" else "A very long deck name " * 5)
        for side, lines in zip(("front", "back"), slug_lines(pdf)):
            assert lines[-2] == instruction, lines
            assert lines[-1].startswith(name + "(cards)" + _words(msg(f"sheet.{side}", lang))), lines
            assert STAMP.search(lines[-1]) and "test" in lines[-1], lines
