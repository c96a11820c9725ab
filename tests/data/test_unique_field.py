"""A deck's ``unique: <field>``: numbered pieces (a scenario card's 番号) no two of which may share
the number, checked where the deck is read — a duplicate is told at its line with the other's."""

from __future__ import annotations

from conftest import DECK_YAML, make_workspace, run

SCENARIOS = DECK_YAML.replace("  text: text\n", "  text: text\n  番号: int\nunique: 番号\n")


def _check(tmp_path, deck: str, capsys, name: str = "ws") -> tuple[int, str]:
    ws = make_workspace(tmp_path / name, deck=deck)
    capsys.readouterr()
    code = run(ws, "check", "--game", "test")
    return code, capsys.readouterr().err


def test_a_number_two_pieces_share_is_an_error_at_its_line_naming_the_others(tmp_path, capsys):
    """Scenario cards numbered by hand: two 2s printed, the error found at the table. ``unique: 番号``
    stops check at the second piece's 番号, naming the first's line; numbers alike (２ and 2) too."""
    deck = SCENARIOS + "  - {name: 始まり, 番号: 1}\n  - {name: 森, 番号: 2}\n  - {name: 城, 番号: 2}\n"
    code, err = _check(tmp_path, deck, capsys)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "data/test/decks/cards.yaml:13:19:" in err and "pieces.3.番号: 番号 '2' is piece 2's too, at line 12" in err, err
    assert "expected a 番号 no other piece of the deck has" in err, err
    text = DECK_YAML.replace("  text: text\n", "  text: text\n  番号: text\nunique: 番号\n")
    code, err = _check(tmp_path, text + "  - {name: 森, 番号: No.2}\n  - {name: 城, 番号: Ｎｏ．２}\n", capsys, "wide")
    assert code == 2 and "pieces.2.番号: 番号 'Ｎｏ．２' is piece 1's too, at line 11" in err, err


def test_open_empty_and_parked_pieces_are_not_compared_and_no_unique_no_check(tmp_path, capsys):
    deck = SCENARIOS + ("  - {name: 始まり, 番号: 1}\n  - {name: 森, 番号: 未定}\n  - {name: 城, 番号: 未定}\n"
                        "  - {name: 谷}\n  - {name: 丘}\n  - {name: 旧版, 番号: 1, count: 0}\n")
    code, err = _check(tmp_path, deck, capsys)
    assert code == 0, err
    plain = deck.replace("unique: 番号\n", "").replace("  - {name: 谷}\n", "  - {name: 谷, 番号: 1}\n")
    assert _check(tmp_path, plain, capsys, "plain")[0] == 0  # a deck that says nothing: numbers may repeat


def test_a_spreadsheets_duplicate_names_its_cell_and_the_others_row(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=SCENARIOS.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("name,番号\n始まり,1\n森,2\n城,2\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.csv:4:2:" in err and "番号 '2' is piece 2's too, at row 3" in err, err


def test_unique_names_a_field_of_the_deck(tmp_path, capsys):
    code, err = _check(tmp_path, SCENARIOS.replace("unique: 番号", "unique: 番") + "  - {name: 始まり, 番号: 1}\n", capsys)
    assert code == 2 and "cards.yaml:9:9: unique: unknown unique field '番'" in err and "番号" in err, err
