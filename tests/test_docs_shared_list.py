"""docs/data-format.md, "One list, two decks": the map's panels and the shop's reference cards,
drawn by two layouts, read one terrain sheet as written; each deck prints every row at its count,
and a column only one deck declares stops the other at the header's cell, as the docs say."""

from __future__ import annotations

import re

from pypdf import PdfReader

from conftest import REPO, make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### One list, two decks")
SECTION = FORMAT[START:FORMAT.index("A test builds this example", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def _workspace(tmp_path):
    blocks = FENCE.findall(SECTION)
    ws = make_workspace(tmp_path / "ws", deck="name: x\n")
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    for lang, body in blocks:
        name = "terrain.csv" if lang == "csv" else body.splitlines()[0].rsplit("/", 1)[1]
        (decks / name).write_text(body, encoding="utf-8")
    return ws, decks


def test_two_decks_drawn_differently_print_the_one_sheets_rows(tmp_path, capsys):
    ws, decks = _workspace(tmp_path)
    rows = [line.split(",") for line in (decks / "terrain.csv").read_text(encoding="utf-8").split()[1:]]
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    for deck in ("terrain-panels", "terrain-cards"):
        shop = PdfReader(ws / "build" / "test" / "shop" / f"{deck}-unique.pdf")
        fronts = [p.extract_text() for p in shop.pages if any(t in p.extract_text() for t, _, _ in rows)]
        assert len(fronts) == len(rows), (deck, fronts)  # one unique face a row, each the row's terrain
        for (title, value, _), text in zip(rows, fronts):
            assert title in text and value in text, (deck, title, text)
    game = load_game(Workspace(ws), "test")
    total = sum(int(n) for _, _, n in rows)
    assert {d.id: d.count for d in game.decks} == {"terrain-panels": total, "terrain-cards": total}  # each at the sheet's counts


def test_a_column_one_deck_does_not_declare_stops_it_at_the_header(tmp_path, capsys):
    ws, decks = _workspace(tmp_path)
    sheet = decks / "terrain.csv"
    lines = sheet.read_text(encoding="utf-8").split()
    sheet.write_text("\n".join([lines[0] + ",note", *(line + ",x" for line in lines[1:])]) + "\n", encoding="utf-8")
    panels = decks / "terrain-panels.yaml"
    panels.write_text(panels.read_text(encoding="utf-8") + "fields: {note: text}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "terrain.csv:1:4: note (column D): unknown key in the header row" in err, err
