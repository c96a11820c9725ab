"""rulebook/proof.py's open values: proof.txt names the piece, not only its deck, so the designer
finds the card (it said "Event cards art: 未定" for the one Fog Bank card)."""
from __future__ import annotations

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook.proof import placeholders


def test_an_open_value_names_its_first_piece_and_counts_the_rest(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["祝福", "降臨"])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文降臨", "text: 未定（後で）")
                    + "  - {name: 啓示, text: 未定}\n", encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    notes = [f for f in placeholders(game, "en") if "降臨" in f.file]
    assert len(notes) == 1, [f.file for f in placeholders(game, "en")]
    name = game.decks[0].name
    assert notes[0].book == f"{name}: 未定（後で） and 1 more"  # the book's page keeps no piece name
    assert notes[0].file.endswith(f"cards.yaml:10:22: {name} 降臨.text: 未定（後で） (and 1 more)"), notes[0].file
    ja = next(f for f in placeholders(game, "ja") if "降臨" in f.file)
    assert ja.file.endswith(f"{name} 降臨.text：未定（後で）（ほか1か所）"), ja.file
