"""Plain YAML values in text fields as the designer wrote them. Numbers Python writes otherwise
(+2, 007, 1.50) printed as 2, 7, 1.5: a card's "+2" lost its sign, a card number its zeros.
YAML 1.1 words and dates in text fields. A card titled No or a text Yes, written plainly, is
read by YAML as false or true: the error said "False is not a valid text", a word the designer
never wrote; it now names the word and the quotes to put round it. YAML 1.2 has no dates, so a
plain 2024-01-01 is the text as written (it was "datetime.date(2024, 1, 1) is not a valid text")."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, GAME_YAML, make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import load_value
from workbooks import xlsx_bytes


@pytest.mark.parametrize("written", ["No", "yes", "OFF", "on", "true"])
def test_a_yes_no_word_in_a_text_field_is_named_as_written(tmp_path, capsys, written):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + f"  - {{name: {written}, text: 本文}}\n")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err == (f"pnpgen: error: data/test/decks/cards.yaml:9:12: pieces.1.name: YAML reads {written} as the "
                   f"yes/no value {str(written.lower() in ('yes', 'on', 'true')).lower()}, not as text "
                   f"(expected the text in quotes: name: \"{written}\")\n")


def test_a_game_titled_no_is_named_as_written(tmp_path, capsys):
    """game.yaml's title: NO said 'title must be text, got true/false': no word of what to write."""
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML.replace("title: テストゲーム", "title: NO\nsubtitle: on"))
    assert run(ws, "list") == 2
    assert capsys.readouterr().err == ("pnpgen: error: data/test/game.yaml:1:8: title: YAML reads NO as the yes/no "
                                       "value false, not as text (expected the text in quotes: title: \"NO\")\n")


def test_true_typed_in_a_sheets_text_cell_is_told_the_apostrophe(tmp_path, capsys):
    """Excel keeps TRUE typed in a cell as a boolean: it said 'true is not a valid text (expected text)'."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    (ws / "data/test/decks/cards.xlsx").write_bytes(xlsx_bytes([["name", "text"], ["札", True]]))
    assert run(ws, "list") == 2
    assert capsys.readouterr().err == (
        "pnpgen: error: data/test/decks/cards.xlsx:2:2: text (column B): the cell holds the yes/no value TRUE, not "
        "text (the office program takes TRUE typed in a cell for one) (expected 'TRUE typed with an apostrophe before "
        "it, which keeps it as text)\n")


def test_a_quoted_yes_no_word_is_text(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + '  - {name: "No", text: \'yes\'}\n')
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "c.csv")) == 0
    assert "No,yes" in (tmp_path / "c.csv").read_text(encoding="utf-8-sig")


def test_a_yes_no_word_read_again_from_the_cache_is_named_too(tmp_path, capsys):
    """The words are kept with the file's values in the machine's cache (a second read is a hit)."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: A, text: Yes}\n")
    assert run(ws, "list") == 2 and run(ws, "list") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0] == err[1] and "YAML reads Yes as the yes/no value true" in err[1]


@pytest.mark.parametrize("written", ["2024-01-01", "2024-1-5", "2001-12-14t21:59:43.10-05:00"])
def test_a_date_like_text_stays_text_as_written(tmp_path, written):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + f"  - {{name: {written}, text: 本文}}\n")
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "c.csv")) == 0
    assert f"\n{written},本文" in (tmp_path / "c.csv").read_text(encoding="utf-8-sig")
    assert load_value(written) == written  # a spreadsheet cell too


@pytest.mark.parametrize("written", ["+2", "007", "1.50", "-0", "1.0e+3", "0."])
def test_a_number_in_a_text_field_prints_as_written(tmp_path, written):
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  reward: int\n")
    ws = make_workspace(tmp_path / "ws", deck=deck + f"  - {{name: 札, text: {written}, reward: 007}}\n")
    piece = load_game(Workspace(ws), "test").decks[0].pieces[0]
    assert str(piece.values["text"]) == written
    assert piece.values["reward"] == 7  # a number field takes the number


@pytest.mark.parametrize("written", ["=", "<<"])
def test_a_lone_equals_or_merge_sign_is_told_to_be_quoted(tmp_path, capsys, written):
    """It said "YAML tag '!!value' is not allowed (expected … without '!' tags)": no tag was written."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + f"  - {{name: 札, text: {written}}}\n")
    assert run(ws, "list") == 2
    assert capsys.readouterr().err == (f"pnpgen: error: data/test/decks/cards.yaml:9:21: pieces.1.text: YAML reads a "
                                       f"lone '{written}' as a special value, not as text (expected the text in "
                                       f"quotes: text: \"{written}\")\n")


def test_a_yes_no_or_empty_value_in_a_message_is_spelt_as_yaml_spells_it(tmp_path, capsys):
    """A wrong value was shown as Python prints it: ``die: yes`` was told as ``die: True is not a
    list``, ``[0, ~]`` as ``[0, None]``, words the designer never wrote. Every message that shows a
    value spells them as YAML does: true, false, null."""
    deck = DECK_YAML.replace("pieces:", "kind: token\ndie: yes\npieces:")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert "die: true is not a list of 6 face boxes" in err and "True" not in err, err
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(DECK_YAML.replace("pieces:", "kind: token\ndie: [[0, ~], no, 1, 2, 3, 4]\npieces:"),
                         encoding="utf-8")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert "[0, null]" in err and "None" not in err, err


@pytest.mark.parametrize("written", ["yes", "No", "off"])
def test_a_yes_no_word_as_a_key_is_named_as_written(tmp_path, capsys, written):
    """A vote game's palette `yes:` / `no:` (賛成／反対) was told as `palette.True: a colour name must
    be a name, got true/false`: a key the designer never wrote. The key is named as written, with
    its quotes."""
    ws = make_workspace(tmp_path / "ws", game=f'title: T\npalette:\n  {written}: "#2f7a4a"\n')
    assert run(ws, "list") == 2
    assert capsys.readouterr().err == (
        f"pnpgen: error: data/test/game.yaml:3:3: palette: YAML reads the key {written} as the yes/no value "
        f"{str(written.lower() == 'yes').lower()}, not as a name (expected the key in quotes: \"{written}\": …)\n")
