"""The rulebook's proof reads each card's text for the names of pieces it uses (「ベースカード」),
with a search that tried every start of a run of katakana to its end: a card text of 19,000
katakana (under textbox's 20,000) cost 4.5 s of the rulebook's time, a deck of 60 of them 4.5
minutes, a spreadsheet's worth an hour. It reads each run once now; what it finds is unchanged."""

from __future__ import annotations

from conftest import DECK_YAML, forked_cli, make_workspace


def test_a_deck_of_long_katakana_texts_does_not_hold_up_the_rulebook(tmp_path):
    pieces = "".join(f"  - {{name: 札{i}, text: {'ア' * 19_000}{i}}}\n" for i in range(60))  # no piece's kind in them
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + pieces, draft=True)
    status, err = forked_cli(ws, "rulebook", "--game", "test")  # (its timeout only a guard against a hang)
    assert status == 0, err
    assert (ws / "build/test/rulebook.pdf").is_file()
