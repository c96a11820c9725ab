"""The cover shows a deck's first piece only when that piece shows no placeholder: told by the
piece itself, not by its name, which a later piece of the deck may share."""

from __future__ import annotations

from conftest import DECK_YAML, make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook.book import settled


def cards(tmp_path, first: str, third: str):
    deck = DECK_YAML + f"  - {{name: 彗星, text: {first}}}\n  - {{name: 黒星, text: 本文}}\n  - {{name: 彗星, text: {third}}}\n"
    return load_game(Workspace(make_workspace(tmp_path, deck=deck)), "test").decks[0]


def test_a_first_piece_with_nothing_open_is_on_the_cover_though_a_namesake_has_a_placeholder(tmp_path):
    namesake_open = cards(tmp_path / "a", "本文", "未定")  # a name reused further down the deck
    assert [fld for _, fld, _ in namesake_open.placeholders] == ["彗星.text"]  # the third's, under the first's name
    assert settled(namesake_open)
    assert not settled(cards(tmp_path / "b", "未定", "本文"))
