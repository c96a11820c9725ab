"""docs/data-format.md, "A back per faction": one card sheet, the layout's back reading the
piece's faction and colour, prints one back a faction behind its cards, in each edition's words,
as the docs say (a bilingual designer's trial, trial79: the docs were silent on it)."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
from pypdf import PdfReader

from conftest import REPO, make_workspace, run

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### A back per faction")
SECTION = FORMAT[START:FORMAT.index("A test builds this example", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def test_each_faction_has_its_own_back_in_its_colour_in_each_edition(tmp_path, capsys):
    game = "title: {ja: 戦国, en: Sengoku}\nlanguages: [ja, en]\n"
    ws = make_workspace(tmp_path / "ws", deck="name: x\n", game=game)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    blocks = FENCE.findall(SECTION)
    assert [lang for lang, _ in blocks] == ["yaml", "csv"]
    english = {"勢力": "勢力（英語）", "織田": "Oda", "武田": "Takeda", "上杉": "Uesugi"}  # the column the docs add
    cells = [line.split(",") for line in blocks[1][1].split()]                       # in a game of [ja, en]
    sheet = "\n".join(",".join([*row[:2], english[row[1]], *row[2:]]) for row in cells)
    deck = blocks[0][1].replace("勢力: faction,", '勢力: faction, "勢力（英語）": faction.en,')
    assert deck != blocks[0][1]
    (decks / "generals.yaml").write_text(deck, encoding="utf-8")
    (decks / "generals.csv").write_text(sheet + "\n", encoding="utf-8")
    rows = [line.split(",") for line in sheet.split()[1:]]
    for lang in ("ja", "en"):
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--lang", lang) == 0, \
            capsys.readouterr().err
        out = ws / "build" / "test" / ("en" if lang == "en" else "")
        shop = PdfReader(out / "shop" / "generals.pdf")  # a front then its back, every copy
        backs = [page.extract_text() for page in shop.pages[1::2]]
        said = [row[1] if lang == "ja" else row[2] for row in rows for _ in range(int(row[4]))]
        assert len(backs) == len(said) and all(f in b for f, b in zip(said, backs)), (backs, said)
        pdf = pdfium.PdfDocument(out / "shop" / "generals.pdf")
        try:
            for k, row in enumerate(rows[:1] + rows[2:]):  # the colour at the back's edge, in the bleed
                page = pdf[2 * (0 if k == 0 else 3) + 1]
                pixel = page.render(scale=1).to_pil().convert("RGB").getpixel((2, 2))
                want = tuple(int(row[3][i:i + 2], 16) for i in (1, 3, 5))
                assert all(abs(a - b) <= 6 for a, b in zip(pixel, want)), (row, pixel, want)
        finally:
            pdf.close()
