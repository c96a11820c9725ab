"""A card renamed and edited in one version is that card, in ``pnpgen diff`` and the change report
(a trial of session 47: renamed and its cost changed, it read as one card added and another
removed); pieces merely alike stay one removed and one added (engine/changes ``_renamed_and_edited``)."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run
from pnpgen.engine.piecematch import matched

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")
DECK = DECK_YAML.replace("  text: text\n", "  text: text\n  cost: int\n  type: text\n")


def _deck(*cards: tuple[str, str, int, str]) -> str:
    return DECK + "".join(f"  - {{name: {n}, text: {t}, cost: {c}, type: {k}}}\n" for n, t, c, k in cards)


def test_a_card_renamed_and_edited_is_that_card(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=_deck(("火球", "3点", 2, "呪文"), ("盾", "防ぐ", 1, "装備")))
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    assert run(ws, *BUILD) == 0
    deck.write_text(_deck(("火炎球", "3点", 3, "呪文"), ("盾", "防ぐ", 1, "装備")), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["added"] == [] and cards["removed"] == [], cards
    assert {(f["piece"], f["field"], f["old"], f["new"]) for f in cards["fields"]} == {
        ("火炎球", "name", "火球", "火炎球"), ("火炎球", "cost", 2, 3)}, cards
    line = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"][0]
    assert "火炎球: " in line and "(new)" not in line and "(removed)" not in line, line


def test_pieces_merely_alike_stay_one_removed_and_one_added():
    piece = [1, "f", "b"]
    v = {"1:火球": {"name": "火球", "text": "3点", "cost": 2, "type": "呪文"}}
    # three fields changed: another card
    assert matched({"1:火球": piece}, {"1:氷": piece}, v, {"1:氷": {"name": "氷", "text": "凍る", "cost": 1, "type": "呪文"}}) == {}
    # a deck of names and texts alone: both changed is another card
    assert matched({"1:a": piece}, {"1:b": piece}, {"1:a": {"name": "a", "text": "x"}}, {"1:b": {"name": "b", "text": "y"}}) == {}
    # another count, or another place: another card
    now = {"name": "火炎球", "text": "3点", "cost": 3, "type": "呪文"}
    assert matched({"1:火球": piece}, {"1:火炎球": [2, "f", "b"]}, v, {"1:火炎球": now}) == {}
    assert matched({"1:火球": piece, "2:盾": piece}, {"1:盾": piece, "2:火炎球": piece},
                   {**v, "2:盾": {"name": "盾"}}, {"1:盾": {"name": "盾"}, "2:火炎球": now}) == {"1:盾": "2:盾"}
    # two left on a side: none paired
    assert "1:火炎球" not in matched({"1:火球": piece, "3:雷": piece}, {"1:火炎球": piece},
                                   {**v, "3:雷": {"name": "雷", "text": "3点", "cost": 2, "type": "呪文"}}, {"1:火炎球": now})
    # renamed and edited at its place, same count: paired
    assert matched({"1:火球": piece}, {"1:火炎球": piece}, v, {"1:火炎球": now}) == {"1:火炎球": "1:火球"}
