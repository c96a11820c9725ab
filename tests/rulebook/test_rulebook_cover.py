"""The cover shows a deck's first piece only when that piece shows no placeholder: told by the
piece itself, not by its name, which a later piece of the deck may share."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import DECK_YAML, DRAFT, make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import rulebook_warnings
from pnpgen.rulebook.book import settled

FONTS = Path(__file__).resolve().parents[2] / "fonts"


def cards(tmp_path, first: str, third: str):
    deck = DECK_YAML + f"  - {{name: 彗星, text: {first}}}\n  - {{name: 黒星, text: 本文}}\n  - {{name: 彗星, text: {third}}}\n"
    return load_game(Workspace(make_workspace(tmp_path, deck=deck)), "test").decks[0]


def test_a_first_piece_with_nothing_open_is_on_the_cover_though_a_namesake_has_a_placeholder(tmp_path):
    namesake_open = cards(tmp_path / "a", "本文", "未定")  # a name reused further down the deck
    assert [fld for _, fld, _ in namesake_open.placeholders] == ["彗星.text"]  # the third's, under the first's name
    assert settled(namesake_open)
    assert not settled(cards(tmp_path / "b", "未定", "本文"))


def test_a_cover_left_bare_by_placeholders_is_a_warning_naming_each_decks_first_piece(tmp_path):
    """Trial 17: a deck-builder whose decks all start with a card that has no art yet got a cover
    with no pieces on it and not a word why. The check says so, naming each deck's first piece;
    a deck whose first piece is settled puts it on the cover, and nothing is said."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 未定}\n  - {name: 黒星, text: 本文}\n")
    (ws / "data" / "test" / "decks" / "more.yaml").write_text(
        "name: 追加\nlayout: card-poker\npieces:\n  - {title: 流星, text: 本文}\n", encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    said = [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "rulebook's cover" in w]
    assert len(said) == 1 and re.fullmatch(
        r"test: the rulebook's cover shows no pieces: the first piece of every deck it could show holds a placeholder "
        r"\(未定, or no art yet\): cards: 彗星 \(\S*data/test/decks/cards\.yaml:\d+(:\d+)?\), more: 流星 "
        r"\(\S*data/test/decks/more\.yaml:\d+(:\d+)?\) \(expected .*\)", said[0]), said
    (ws / "data" / "test" / "decks" / "more.yaml").write_text(
        "name: 追加\nlayout: {extends: card-poker, boxes: {art: null}}\npieces:\n  - {title: 流星, text: 本文}\n",
        encoding="utf-8")
    assert not [w for w in rulebook_warnings(load_game(Workspace(ws), "test"), FONTS) if "rulebook's cover" in w]
