"""Pieces of one name told apart in ``pnpgen diff``, the change line and reprint.txt by values that
did not change in the comparison, the designer's readable words before colours and numbers, as
few as tell them apart (a designer's trial, session 47: ``Art [3, #9fb2cf, Axis]: defense: 2 → 3``
named a piece by the very field that changed, led by a colour's hex)."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run
from pnpgen.data.telling import shortest_telling_fields
from pnpgen.engine.changes import told_apart

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")
DECK = DECK_YAML.replace("  text: text\n", "  text: text\n  defense: text\n  colour: text\n  side: text\n")


def _deck(axis_defense: str) -> str:
    return DECK + (f"  - {{name: Art, text: x, defense: {axis_defense}, colour: '#9fb2cf', side: Axis}}\n"
                   "  - {name: Art, text: x, defense: firm, colour: '#cf9fb2', side: Allies}\n")


def test_a_piece_is_told_by_a_readable_field_that_did_not_change(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=_deck("weak"))
    assert run(ws, *BUILD) == 0
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(_deck("firm"), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "v1", "v2", "--format", "json") == 0
    fields = json.loads(capsys.readouterr().out)["decks"]["cards"]["fields"]
    assert [(f["piece"], f["field"]) for f in fields] == [("Art［Axis］", "defense")], fields


def test_the_fewest_fields_readable_first_and_none_changed():
    sides = [[{"cost": 3, "colour": "#9fb2cf", "side": "Axis", "defense": 3},
              {"cost": 4, "colour": "#cf9fb2", "side": "Allies", "defense": 2}]] * 2
    assert shortest_telling_fields(sides, {"defense"}) == ["side"]
    assert shortest_telling_fields(sides, {"defense", "side"}) == ["cost"]
    assert shortest_telling_fields(sides, {"defense", "side", "cost"}) == ["colour"]
    # three pieces: one field tells two apart, another the third
    three = [[{"side": "Axis", "kind": "foot"}, {"side": "Axis", "kind": "tank"}, {"side": "Allies", "kind": "tank"}]]
    assert shortest_telling_fields(three, set()) == ["side", "kind"]
    # a field that changed only where nothing else tells them apart (Round [5])
    before = {"1:Art": {"d": 2, "e": 1}, "2:Art": {"d": 3, "e": 1}}
    now = {"1:Art": {"d": 4, "e": 1}, "2:Art": {"d": 3, "e": 1}}
    assert told_apart(before, now, "en") == ({"1:Art": "Art [2]", "2:Art": "Art [3]"}, {"1:Art": "Art [4]", "2:Art": "Art [3]"})
