"""A space at an end of a file's name, on the disk (a rename, a zip from another system) or in
the data (a name in quotes): the file that is there is named, never "not found" alone, nor the
name's ending read with its space ("'cards.csv ' is not a spreadsheet file name")."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, make_workspace, run


def _one_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_deck_file_whose_name_ends_in_a_space_is_told_so(tmp_path, capsys):
    """'cards.yaml ' was passed over as no deck: "the game has no deck files", no word of it."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    decks = ws / "data/test/decks"
    (decks / "cards.yaml").rename(decks / "cards.yaml ")
    assert run(ws, "list", "--game", "test") == 2
    assert "data/test/decks: a deck file's name ends in a space after its ending: 'cards.yaml ' " \
           "(expected the file renamed cards.yaml)" in _one_error(capsys)


@pytest.mark.parametrize("written, on_disk, said", [
    ("cards.csv", "cards.csv ", "spreadsheet 'cards.csv' not found (expected 'cards.csv ', the name of the file that "
                                "is there: a name that begins or ends with a space; rename the file without it)"),
    ('"cards.csv "', "cards.csv", "spreadsheet 'cards.csv ' not found (expected 'cards.csv', the name of the file "
                                  "that is there)"),
])
def test_a_spreadsheet_named_with_a_space_at_an_end_names_the_file_there(tmp_path, capsys, written, on_disk, said):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", f"pieces: {{file: {written}}}\n"))
    (ws / "data/test/decks" / on_disk).write_text("name,text,count\n門番,本文,3\n", encoding="utf-8")
    assert run(ws, "list", "--game", "test") == 2
    err = _one_error(capsys)
    assert "cards.yaml:" in err and f"pieces.file: {said}" in err, err
