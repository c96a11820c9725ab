"""Stickers on label sheets (a designer trial: the docs said nothing of stickers). The recipe in
docs/home-printing.md, "Stickers and label sheets", built as written: one page a sheet of labels
and no backs page, each sticker centred in its label at the measured place, no bleed where the
labels abut, and the label sheets in the bill of materials."""

from __future__ import annotations

import json
import re

import pikepdf

from conftest import REPO, make_workspace, run
from homeprint.test_printer import placements

DOCS = (REPO / "docs" / "home-printing.md").read_text(encoding="utf-8")


def _blocks() -> dict[str, str]:
    """The section's YAML blocks by the file each names on its first line."""
    assert "### Stickers and label sheets" in DOCS, "docs/home-printing.md says nothing of stickers"
    section = DOCS[DOCS.index("### Stickers and label sheets"):DOCS.index("## Print-and-cut on a cutting machine")]
    return {re.match(r"# (\S+)", body).group(1): body
            for body in re.findall(r"^```yaml\n(.*?)^```", section, re.S | re.M)}


def test_the_sticker_recipe_builds_one_sided_into_the_labels(tmp_path):
    blocks = _blocks()
    assert set(blocks) == {"sheets/labels-24.yaml", "data/<slug>/decks/stickers.yaml", "sheets/round-24.yaml",
                           "data/<slug>/decks/seals.yaml", "data/<slug>/decks/dice-stickers.yaml"}, set(blocks)
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    (ws / "sheets").mkdir()
    (ws / "sheets" / "labels-24.yaml").write_text(blocks["sheets/labels-24.yaml"], encoding="utf-8")
    (ws / "data" / "test" / "decks" / "stickers.yaml").write_text(
        blocks["data/<slug>/decks/stickers.yaml"], encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    pages = placements(ws / "build" / "test" / "stickers.pdf")
    assert len(pages) == 1  # seven stickers, one sheet of 24 labels, no backs page
    boxes = pages[0]
    centres = sorted(((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes)
    assert len(centres) == 7, boxes
    first = min(centres, key=lambda c: (round(c[1]), c[0]))
    assert abs(first[0] - (7.2 + 63.5 / 2)) < 0.1 and abs(first[1] - (13.1 + 33.9 / 2)) < 0.1, first  # as measured
    pitch = sorted({round(c[1], 1) for c in centres})
    assert abs(pitch[1] - pitch[0] - 33.9) < 0.1, pitch  # the next row of labels, abutting
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    deck = next(d for d in manifest["decks"] if d["id"] == "stickers")
    assert deck["layout"] == "sheet labels-24" and deck["sheet_bleed_mm"] == 0  # the labels abut: no bleed
    assert deck["die_line"]["home"] == "none: the stock's own cuts (sheet labels-24, no cut marks)"  # none printed
    stock = manifest["bill_of_materials"]["stock"]
    assert [(s["name"], s["decks"]) for s in stock] == [("ラベル 24面", ["強化シール"])], stock


def test_round_stickers_go_into_round_labels_without_a_die_line(tmp_path):
    """Round labels (a designer trial: an A4 sheet of 24 round labels): each round sticker centred
    in its label as measured, with half the gap as bleed, and no die line, which printed a thin
    black ring on every label's edge although the sheet says the labels come cut."""
    blocks = _blocks()
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    (ws / "sheets").mkdir()
    (ws / "sheets" / "round-24.yaml").write_text(blocks["sheets/round-24.yaml"], encoding="utf-8")
    (ws / "data" / "test" / "decks" / "seals.yaml").write_text(blocks["data/<slug>/decks/seals.yaml"], encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    pdf = ws / "build" / "test" / "seals.pdf"
    pages = placements(pdf)
    assert len(pages) == 1  # eight stickers, one sheet, no backs page
    centres = sorted(((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in pages[0])
    assert len(centres) == 8, centres
    for n, (x, y) in enumerate(sorted(centres, key=lambda c: (round(c[1]), c[0]))):
        col, row = n % 4, n // 4
        assert abs(x - (17.5 + 20 + 45 * col)) < 0.1 and abs(y - (16 + 20 + 45 * row)) < 0.1, (n, x, y)
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    deck = next(d for d in manifest["decks"] if d["id"] == "seals")
    assert deck["sheet_bleed_mm"] == 2.5  # half the 5 mm gap
    assert deck["die_line"]["home"] == "none: the stock's own cuts (sheet round-24, no cut marks)"
    with pikepdf.open(pdf) as doc:
        drawn = [str(op) for _, op in pikepdf.parse_content_stream(doc.pages[0])]
    rings, curved = 0, False  # curved paths stroked on the page itself (the faces are forms): die lines
    for op in drawn:
        curved = curved or op == "c"
        if op in ("S", "s", "n", "f", "B"):
            rings += op in ("S", "s") and curved
            curved = False
    assert rings == 0


def test_stickers_for_a_blank_die_print_one_sided_with_their_die_line_and_the_ring_uncovered(tmp_path):
    """trial53: a designer's d6 stickers from token-square: the value box written over the round
    token's kept its 13 mm paper circle, which on a 15 mm sticker covered the ring. The recipe's
    twelve stickers go on one page, no backs, each 15 mm, its die line drawn, its value bare."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    (ws / "data" / "test" / "decks" / "dice-stickers.yaml").write_text(
        _blocks()["data/<slug>/decks/dice-stickers.yaml"], encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    pages = placements(ws / "build" / "test" / "dice-stickers.pdf")
    assert len(pages) == 1 and len(pages[0]) == 12, pages
    assert all(abs(x1 - x0 - 21) < 0.05 and abs(y1 - y0 - 21) < 0.05 for x0, y0, x1, y1 in pages[0]), pages  # 15 + 2 × 3 mm bleed
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    deck = next(d for d in manifest["decks"] if d["id"] == "dice-stickers")
    assert deck["die_line"]["home"] == "thin black line on the trim path of every front" and not deck["double_sided"]
    svg = (ws / "build").parent  # the face as its template made it: no circle painted behind the value
    assert run(ws, "check", "--game", "test", "--svg", "--deck", "dice-stickers", "--piece", "1") == 0
    face = next((svg / "build" / "test" / "svg" / "dice-stickers").glob("001-*.front.svg")).read_text(encoding="utf-8")
    assert "<ellipse" not in face and "<circle" not in face, face
