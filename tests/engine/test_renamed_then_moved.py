"""A card renamed in one version and moved down by a card added above it in a later one is that
card renamed across both, in ``pnpgen diff`` and ``reprint --since`` (trial75: a suit renamed, 油揚
to 稲荷, then a card inserted before it; the changelog said nine 稲荷 cards added and nine 油揚
cards removed, reprint-since.txt 「油揚の一（削除）」), as each build's own change line said."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run
from pnpgen.engine.piecematch import matched

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")


def _deck(*pieces: str) -> str:
    return DECK_YAML + "".join(f"  - {{name: {name}, text: {text}}}\n" for name, text in
                               (p.split("=") for p in pieces))


def test_a_card_renamed_then_moved_is_that_card_in_diff_and_reprint_since(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=_deck("油揚の一=山札から引く", "油揚の二=一枚捨てる", "狐火の一=得点"))
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    assert run(ws, *BUILD) == 0
    assert run(ws, "tag", "--game", "test", "t1") == 0
    deck.write_text(_deck("稲荷の一=山札から引く", "稲荷の二=一枚捨てる", "狐火の一=得点"), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    deck.write_text(_deck("新札=新しい", "稲荷の一=山札から引く", "稲荷の二=一枚捨てる", "狐火の一=得点"), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "t1", "latest", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert [a["piece"] for a in cards["added"]] == ["新札"] and cards["removed"] == [], cards
    assert {(f["piece"], f["field"], f["old"], f["new"]) for f in cards["fields"]} == {
        ("稲荷の一", "name", "油揚の一", "稲荷の一"), ("稲荷の二", "name", "油揚の二", "稲荷の二")}, cards
    assert run(ws, "reprint", "--game", "test", "--since", "t1", "-q") == 0
    said = (ws / "build" / "test" / "reprint-since-v1.txt").read_text(encoding="utf-8")
    assert "油揚の一（古い版）" in said and "油揚の二（古い版）" in said and "削除" not in said, said


def test_only_a_piece_alike_but_for_its_name_and_alone_so_pairs_across_numbers():
    """A deck of names alone, or two cards alike but for their names, pairs none: a card deleted
    and another added elsewhere stays one removed and one new."""
    piece = [1, "f", "b"]
    old = {"1:油揚の一": piece, "2:油揚の二": piece}
    new = {"1:新札": piece, "2:稲荷の一": piece, "3:稲荷の二": piece}
    values = {"1:油揚の一": {"name": "油揚の一", "text": "引く"}, "2:油揚の二": {"name": "油揚の二", "text": "捨てる"}}
    now = {"1:新札": {"name": "新札", "text": "新しい"}, "2:稲荷の一": {"name": "稲荷の一", "text": "引く"},
           "3:稲荷の二": {"name": "稲荷の二", "text": "捨てる"}}
    assert matched(old, new, values, now) == {"2:稲荷の一": "1:油揚の一", "3:稲荷の二": "2:油揚の二"}
    # at other numbers than their own (the same number pairs a name's change by itself, as before)
    moved = {"3:稲荷の一": piece, "4:稲荷の二": piece}
    alike = {label: {**v, "text": "同じ"} for label, v in values.items()}
    assert matched(old, moved, alike, {k: {"name": k[2:], "text": "同じ"} for k in moved}) == {}
    names = {label: {"name": v["name"]} for label, v in values.items()}
    assert matched(old, moved, names, {k: {"name": k[2:]} for k in moved}) == {}
    # a count changed as well: another card
    assert "3:稲荷の二" not in matched(old, {**new, "3:稲荷の二": [2, "f", "b"]}, values, now)
