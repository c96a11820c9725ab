"""U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR (a title pasted from a web page or a PDF)
are line breaks to YAML, to Python's ``splitlines`` and to JavaScript: in a name pnpgen says on
one line, or writes into a file it reads back, they began a line of the text's own."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, GAME_YAML, make_workspace, run


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_new_refuses_a_title_holding_a_line_separator_and_writes_nothing(tmp_path, capsys, separator):
    """``pnpgen new --title`` wrote the title into game.yaml's first comment, where the separator
    ended the comment: the rest of the title (``draft: 99``) was a key of the game pnpgen had
    just written, which then did not load (duplicate key ``draft``)."""
    (tmp_path / "data").mkdir()
    assert run(tmp_path, "new", "demo", "--title", f"港{separator}draft: 99") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a title" in err and f"\\u{ord(separator):04x}" in err, err
    assert not (tmp_path / "data" / "demo").exists()


@pytest.mark.parametrize("where", ["deck", "title"])
def test_a_line_separator_in_a_name_is_one_line_error(tmp_path, capsys, where):
    """A deck's name and the game's title are said on one line (the summary, reprint.txt, the
    change report): a line separator there is a line break as ``\\n`` is."""
    forged = '"X\\u2028pnpgen: error: nothing to reprint"'
    deck = DECK_YAML.replace("name: テストカード", f"name: {forged}") if where == "deck" else None
    game = GAME_YAML.replace("title: テストゲーム", f"title: {forged}") if where == "title" else GAME_YAML
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    said = {"deck": "cards.yaml:1:7: name: a deck's name", "title": "game.yaml:1:8: title: the game's title"}[where]
    assert err.count("\n") == 1 and f"{said} holds a line break" in err, err
    assert not (ws / "build" / "test").exists()


def test_check_lists_a_placeholder_of_a_piece_named_with_a_line_separator_on_one_line(tmp_path, capsys):
    """check's list of open values names each piece as it reads: a name holding U+2028 printed it as
    it was, a line break to an editor's terminal and to a script reading the list line by line; every
    line pnpgen prints shows it as \\u2028, as its errors and warnings do (hostile36)."""
    deck = DECK_YAML + '  - {name: "騎\\u2028pnpgen: error: forged", text: 未定}\n'
    ws = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2  # (the name's U+2028 is in no font: a problem check lists)
    out = capsys.readouterr().out
    assert "\u2028" not in out and "cards.yaml:9:50: 騎\\u2028pnpgen: error: forged.text: 未定" in out, out
