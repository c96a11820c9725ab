"""A whole number is read as the designer types it: quoted ("3") or in full-width digits (３,
as Japanese input gives them), for counts, int and number fields, and sizes; before, "3" was
refused with the self-contradictory "count '3' is not a whole number"."""

from __future__ import annotations

import datetime

import openpyxl
import pytest

from conftest import DECK_YAML, GAME_YAML, make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.faces.face import Face
from pnpgen.faces.templates import Renderer

NUMBERED = DECK_YAML.replace("  text: text\n", "  text: text\n  reward: int\n  weight: number\n")


@pytest.mark.parametrize("written, copies", [('"3"', 3), ("３", 3), ("'１２'", 12), ("0", 0), (" ２ ", 2)])
def test_count_as_typed(tmp_path, written, copies):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + f"  - {{name: 祝福, count: {written}}}\n  - {{name: 降臨}}\n")
    deck = load_game(Workspace(ws), "test").decks[0]
    assert [p.count for p in deck.pieces] == [copies, 1]
    assert deck.count == copies + 1


def test_sourced_count_and_size_as_typed(tmp_path):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "sourced:\n  - {name: サイコロ, count: ２}\n",
                        deck=DECK_YAML.replace("format: poker", "size: [６３, \"８８mm\"]") + "  - {name: 祝福}\n")
    game = load_game(Workspace(ws), "test")
    assert game.sourced[0].count == 2
    assert game.decks[0].trim_mm == (63.0, 88.0)


def test_int_and_number_fields_as_typed_reach_the_template(tmp_path):
    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '<rect width="{{ piece.reward + 1 }}" height="{{ piece.weight * 2 }}" fill="#000000"/>{% endblock %}')
    ws = make_workspace(tmp_path / "ws", front=front,
                        deck=NUMBERED + '  - {name: 祝福, reward: "３", weight: ２.５}\n')
    game = load_game(Workspace(ws), "test")
    piece = game.decks[0].pieces[0]
    assert piece.values["reward"] == 3 and piece.values["weight"] == 2.5
    svg = Renderer(ws / "templates", game, 3.0).render(Face(game.decks[0], piece, "front"))
    assert 'width="4"' in svg and 'height="5.0"' in svg


def test_spreadsheet_cells_in_full_width_digits(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=NUMBERED + "  {file: cards.csv}\n")
    (ws / "data/test/decks/cards.yaml").write_text(NUMBERED.replace("pieces:\n", "pieces: {file: cards.csv}\n"),
                                                   encoding="utf-8")
    (ws / "data/test/decks/cards.csv").write_text("name,reward,count\n祝福,７,４\n", encoding="utf-8")
    piece = load_game(Workspace(ws), "test").decks[0].pieces[0]
    assert piece.values["reward"] == 7 and piece.count == 4


@pytest.mark.parametrize("written, message", [
    # a count typed in kanji: told so, with the number in digits to write (it said 'e.g. count: 3' for any)
    ("三", "cards.yaml:9:23: pieces.1.count: count '三' is written in kanji (漢数字), which is not read as a number "
           "(expected 'count: 3', in half- or full-width digits)"),
    ("二十四", "count '二十四' is written in kanji (漢数字), which is not read as a number (expected 'count: 24', "),
    ('"3.5"', "count '3.5' is not a whole number"),
    # Japanese designer's trial: ２枚 typed in a 枚数 column was 'not a whole number … e.g. 3'
    ("２枚", "count '２枚' holds a counter word or sign beside its number, which is not read (expected 'count: 2', "
            "the number alone)"),
    ("x12", "count 'x12' holds a counter word or sign beside its number, which is not read (expected 'count: 12',"),
    ("３セット", "(expected 'count: 3', the number alone)"),
    ("'１０００１'", "count '１０００１' is not a whole number from 0 to 10,000"),
])
def test_what_is_still_refused(tmp_path, capsys, written, message):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + f"  - {{name: 祝福, count: {written}}}\n")
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_count_cell_in_kanji_names_the_cell_and_the_digits(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,count\n祝福,五\n", encoding="utf-8")
    assert run(ws, "check") == 2
    assert capsys.readouterr().err.strip() == (
        "pnpgen: error: data/test/decks/cards.csv:2:2: count (column B): count '五' is written in kanji (漢数字), "
        "which is not read as a number (expected 5 in the count column, in half- or full-width digits)")


def test_a_count_cell_excel_took_for_a_date_is_said_to_be_one(tmp_path, capsys):
    """1-2 typed in a count cell: Excel keeps January 2, which pnpgen reads 2026-01-02 (it was only
    'not a whole number'); a Japanese Excel's CSV writes the date 2026/01/02."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    book = openpyxl.Workbook()
    book.active.append(["name", "count"])
    book.active.append(["祝福", datetime.datetime(2026, 1, 2)])
    book.active["B2"].number_format = "m/d"
    book.save(ws / "data/test/decks/cards.xlsx")
    assert run(ws, "check") == 2
    assert capsys.readouterr().err.strip() == (
        "pnpgen: error: data/test/decks/cards.xlsx:2:2: count (column B): count '2026-01-02' is a date, not a number "
        "(a spreadsheet program takes 1/2 or 1-2 typed in a cell for a date) (expected 3 in the count column, "
        "the number alone)")
    (ws / "data/test/decks/cards.yaml").write_text(DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"),
                                                   encoding="utf-8")
    (ws / "data/test/decks/cards.csv").write_text("name,count\n祝福,2026/11/30\n", encoding="utf-8")
    assert run(ws, "check") == 2
    assert "count '2026/11/30' is a date, not a number (a spreadsheet program takes 11/30 or 11-30" in \
        capsys.readouterr().err


def test_a_count_cell_a_narrow_column_showed_as_hashes_is_told_so(tmp_path, capsys):
    """A CSV saved from a column too narrow for its numbers holds ``#####``: YAML read it as a
    comment, and the count was 'count (empty) is not a whole number'. A text field keeps it."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,count,text\n祝福,1,###\n降臨,#####,x\n", encoding="utf-8")
    assert run(ws, "check") == 2
    assert capsys.readouterr().err.strip() == (
        "pnpgen: error: data/test/decks/cards.csv:3:2: count (column B): cell B3 holds #####, what a spreadsheet "
        "shows when its column is too narrow for the number or date in it, and the file was saved so (expected the "
        "column widened in the office program, so the cell shows its value, and the file saved again)")


@pytest.mark.parametrize("cell, typed", [("1月2日", "1/2 or 1-2"), ("１２月３１日", "12/31 or 12-31"),
                                         ("2-Jan", "two numbers with a - or / between them, such as 1-2,"),
                                         ("Jan-02", "two numbers"), ("02-Jan-26", "two numbers")])
def test_a_count_as_the_spreadsheet_shows_a_date_is_said_to_be_one(cell, typed):
    """hostile39: the CSV a Japanese Excel saves holds the date as it shows it, 1月2日, an English
    one 2-Jan: each was 'not a whole number', not the date 2026/1/2 is said to be."""
    from pnpgen.data.validate import Invalid, count

    with pytest.raises(Invalid) as said:
        count(cell, example="3 in the count column")
    told = said.value.message
    assert told.startswith(f"count {cell!r} is a date, not a number (a spreadsheet program takes {typed}"), told
    assert told.endswith(" typed in a cell for a date, and shows it so)") and said.value.expected == \
        "3 in the count column, the number alone", told
    for not_a_date in ("12月", "Jan", "1-2"):  # (a month alone, a range: not what a date cell shows)
        with pytest.raises(Invalid) as said:
            count(not_a_date)
        assert "is a date" not in said.value.message


def test_a_count_cell_of_a_range_is_told_a_count_is_one_number(tmp_path, capsys):
    """"One or two" typed in a count cell (``1-2``) was 'not a whole number from 0 to 10,000', as if
    the cell held no number at all; and in YAML ``1〜2`` (a Japanese IME's wave dash) the same."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,count\n祝福,1-2\n", encoding="utf-8")
    assert run(ws, "check") == 2
    assert capsys.readouterr().err.strip() == (
        "pnpgen: error: data/test/decks/cards.csv:2:2: count (column B): count '1-2' is a range (1 to 2); a count "
        "is one whole number, the copies printed of the piece (expected 2 in the count column, the one number "
        "you mean)")
    ws = make_workspace(tmp_path / "yaml", deck=DECK_YAML + "  - {name: 祝福, count: 1〜2}\n")
    assert run(ws, "check") == 2
    assert "pieces.1.count: count '1〜2' is a range (1 to 2); a count is one whole number" in capsys.readouterr().err


def test_a_list_cell_in_full_width_brackets_is_told_the_list_to_write(tmp_path, capsys):
    """A game trial: an icons cell typed through a Japanese IME, ［vp、star］, was 'not a valid
    list (expected a list [..])'; the message now gives the list as YAML reads it."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  icons: list\n").replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data/test/decks/cards.csv").write_text("name,icons,count\n祝福,［vp、star］,４\n", encoding="utf-8")
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert "cards.csv:2:2: icons (column B): '［vp、star］' is not a valid list (expected a list [..] with " \
           "half-width brackets and ', ' between its items: [vp, star])" in err, err


@pytest.mark.parametrize("cell, written", [('"vp, star"', "[vp, star]"), ("star", "[star]"),
                                           # trial 17: two icons apart by a space were told one item,
                                           # [vp star]; icons written as a text writes them, their braces
                                           ("vp star", "[vp, star]"), ("｛vp｝", "[vp]"), ("{vp}{star}", "[vp, star]"),
                                           # trial66: a bracket left open was told [[vp, star]
                                           ('"[vp, star"', "[vp, star]"), ('"vp, star]"', "[vp, star]")])
def test_a_list_cell_without_brackets_is_told_the_list_to_write(tmp_path, capsys, cell, written):
    """A game trial: an icons cell typed ``vp, star`` in a spreadsheet, as a designer lists
    things in a cell, was 'not a valid list (expected a list [..])'; the message gives the list."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  icons: list\n").replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data/test/decks/cards.csv").write_text(f"name,icons,count\n祝福,{cell},４\n", encoding="utf-8")
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert f"(expected a list [..] in brackets, ', ' between its items: {written})" in err, err


def test_a_colour_cell_is_not_told_to_quote_its_value(tmp_path, capsys):
    """A game trial: a spreadsheet colour cell 'seagreen' was told "'#rrggbb' in quotes", the
    quotes YAML needs and a cell does not; in a YAML piece the quotes are still asked for."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  colour: colour\n")
    ws = make_workspace(tmp_path / "ws", deck=deck.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,colour,count\n祝福,seagreen,1\n", encoding="utf-8")
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert "cards.csv:2:2: colour (column B): 'seagreen' is not a valid colour" in err and err.rstrip().endswith("or '#rrggbb')"), err
    ws = make_workspace(tmp_path / "yaml", deck=deck + "  - {name: 祝福, colour: seagreen}\n")
    assert run(ws, "check") == 2
    assert "or '#rrggbb' in quotes)" in capsys.readouterr().err


@pytest.mark.parametrize("field, written, holds", [
    ("weight", ".nan", "NaN"), ("weight", "-.inf", "infinity"), ("weight", "1.0e+400", "infinity"),
    ("extra", "{x: [1, .inf]}", "infinity"), ("tags", "[.NaN]", "NaN"),
])
def test_a_number_that_is_no_number_is_refused_at_its_line(tmp_path, capsys, field, written, holds):
    """YAML reads .nan, .inf and 1.0e+400 as floats no card can print: they were taken, and
    the preview's page (its JSON cannot hold them) stopped in a 500 with a traceback."""
    deck = NUMBERED.replace("  weight: number\n", "  weight: number\n  extra: map\n  tags: list\n")
    ws = make_workspace(tmp_path / "ws", deck=deck + f"  - {{name: 祝福, {field}: {written}}}\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "cards.yaml:13:" in err and f"pieces.1.{field}: " in err and f"it holds {holds} (YAML reads .nan" in err, err


@pytest.mark.parametrize("written, meant", [("1/2", 1), ("½", 1), ("１／２", 1), ("1.5", 2), (1.5, 2), (0.5, 1),
                                            ("2 / 3", 1), ("¾", 1)])
def test_a_count_written_as_a_fraction_is_said_to_be_one(written, meant):
    """hostile40: 1/2, ½ and 1.5 were 'not a whole number from 0 to 10,000 (… e.g. count: 3)': a
    fraction is named, with the whole copies it rounds up to."""
    from pnpgen.data.validate import Invalid, count

    with pytest.raises(Invalid) as said:
        count(written)
    assert said.value.message == (f"count {written!r} is not a whole number but a fraction; a count is the copies "
                                  "printed of the piece, each whole"), said.value.message
    assert said.value.expected == f"'count: {meant}', a whole number of copies"
    assert [count(w) for w in ("２", "①", " 3 ", "+2")] == [2, 1, 3, 2]  # (read as meant: NFKC's digits)


def test_a_count_cell_written_as_a_fraction_is_told_at_its_cell(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,count\n祝福,2\n降臨,½\n", encoding="utf-8")
    assert run(ws, "check") == 2
    assert capsys.readouterr().err.strip() == (
        "pnpgen: error: data/test/decks/cards.csv:3:2: count (column B): count '½' is not a whole number but a "
        "fraction; a count is the copies printed of the piece, each whole (expected 1 in the count column, a whole "
        "number of copies)")


@pytest.mark.parametrize("written, said", [
    ("1.5", "count 1.5 is not a whole number but a fraction; a count is the cards the box holds, each whole "
            "(expected 'count: 2', a whole number of cards)"),
    ("1-2", "count '1-2' is a range (1 to 2); a count is one whole number, the cards the box holds (expected "
            "'count: 2', the one number you mean)"),
    ("三", "count '三' is written in kanji (漢数字), which is not read as a number (expected 'count: 3', in half- "
          "or full-width digits)"),
])
def test_a_tuck_boxs_count_written_amiss_is_told_as_the_cards_it_holds(tmp_path, capsys, written, said):
    """hostile40: a box's fraction was 'the copies printed of the piece', and its number to write
    'count: 60' whatever was meant (the example's 3 replaced, a box's example has none)."""
    ws = make_workspace(tmp_path / "ws", pieces=["{name: 祝福, text: 本文}"])
    (ws / "data/test/decks/box.yaml").write_text(
        f"name: 箱\nlayout: tuck-box\nbox: {{cards: poker, count: {written}}}\npieces:\n  - {{title: 箱}}\n",
        encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    assert capsys.readouterr().err.strip() == f"pnpgen: error: data/test/decks/box.yaml:3:28: box.count: {said}"


def test_a_sourced_components_fractional_count_is_told_as_parts_bought():
    from pnpgen.data.validate import SOURCED_COUNT, Invalid, count

    with pytest.raises(Invalid) as told:
        count("2.5", SOURCED_COUNT, "'count: 3'", ("the parts bought, not printed", "parts"))
    assert "a count is the parts bought, not printed, each whole" in told.value.message
    assert told.value.expected == "'count: 3', a whole number of parts"
