"""A deck of one piece that gives it no name (a board, one entry of 54 request cards) is called
by its deck's name in order.csv, the page labels, the change line and reprint.txt — "#1" said
nothing a designer recognises — and is the same piece to the change report when it becomes #1 of
two, or was #1 in an older pnpgen's record."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from pypdf import PdfReader

from conftest import BACK, FRONT, make_workspace, run
from pnpgen.engine.piecematch import matched

DECK = ("name: 得点ボード\nformat: poker\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
        "fields: {suit: text, text: text}\npieces:\n")
ONE = "  - {suit: 赤, text: 本文, count: 2}\n"
BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


def _build(ws: Path) -> dict:
    assert run(ws, *BUILD) == 0
    return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))


def test_a_decks_sole_nameless_piece_is_called_by_the_decks_name(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=DECK + ONE, front=FRONT.replace("piece.name", "piece.suit"),
                        back=BACK.replace("piece.name", "''"))
    _build(ws)
    out = ws / "build" / "test"
    with open(out / "shop" / "order.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and {row["name"] for row in rows if row["deck"] == "cards"} == {"得点ボード"}, rows
    assert PdfReader(out / "shop" / "cards-unique.pdf").page_labels[0] == "得点ボード ×2"

    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(DECK + ONE.replace("本文", "直した本文"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 2 → 2 (得点ボード: text)")
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "2 × 得点ボード" in said and "#1" not in said, said

    # a second piece added: the first is #1 now, the same piece (not removed, nor new), the other new
    deck.write_text(DECK + ONE.replace("本文", "直した本文") + "  - {suit: 青, text: 二枚目}\n", encoding="utf-8")
    change = _build(ws)["changes"][0]
    assert change.startswith("cards: 2 → 3 (+1 #2") and "removed" not in change and "#1" not in change, change


def test_the_sole_piece_recorded_as_1_by_an_older_pnpgen_is_that_piece_now():
    """The first build after the upgrade: the last build's record calls it #1, this one by the
    deck's name; its values are the same, so nothing is new, removed or to reprint."""
    values = {"suit": "赤", "text": "本文"}
    piece = [2, "faces", "front", "back"]
    assert matched({"1:#1": piece}, {"1:得点ボード": piece}, {"1:#1": values}, {"1:得点ボード": values}) == \
        {"1:得点ボード": "1:#1"}
    # another piece in its place (other values, both nameless): no pairing by number alone
    assert matched({"1:#1": piece}, {"1:得点ボード": piece}, {"1:#1": values}, {"1:得点ボード": {"suit": "青"}}) == {}
