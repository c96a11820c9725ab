"""YAML 1.1 words and dates in text fields. A card titled No or a text Yes, written plainly, is
read by YAML as false or true: the error said "False is not a valid text", a word the designer
never wrote; it now names the word and the quotes to put round it. YAML 1.2 has no dates, so a
plain 2024-01-01 is the text as written (it was "datetime.date(2024, 1, 1) is not a valid text")."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, make_workspace, run
from pnpgen.data.yamlsrc import load_value


@pytest.mark.parametrize("written", ["No", "yes", "OFF", "on", "true"])
def test_a_yes_no_word_in_a_text_field_is_named_as_written(tmp_path, capsys, written):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + f"  - {{name: {written}, text: 本文}}\n")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err == (f"pnpgen: error: data/test/decks/cards.yaml:9:12: pieces.1.name: YAML reads {written} as the "
                   f"yes/no value {str(written.lower() in ('yes', 'on', 'true')).lower()}, not as text "
                   f"(expected the text in quotes: name: \"{written}\")\n")


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
