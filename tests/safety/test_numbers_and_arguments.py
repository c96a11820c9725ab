"""YAML 1.2 numbers (1:30 is text, 012 is twelve, 0x10 is no count), textbox's enumerated
arguments exactly as documented, and negative or zero sizes refused at the template line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DECK_YAML, FEW_CARDS, FRONT, make_workspace, run
from pnpgen.data.yamlsrc import load_value


def _deck(count: str) -> str:
    return DECK_YAML + f"  - {{name: A, text: 本文, count: {count}}}\n"


@pytest.mark.parametrize("written", ["1:30", "0x10", "0o17", "0b11", "1_000"])
def test_a_count_written_other_than_in_decimal_is_an_error_naming_it(tmp_path, capsys, written):
    ws = make_workspace(tmp_path / "ws", deck=_deck(written))
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:9:" in err and "count" in err and written in err


@pytest.mark.parametrize("written", ["012", "010"])
def test_a_leading_zero_count_is_decimal(tmp_path, capsys, written):
    ws = make_workspace(tmp_path / "ws", deck=_deck(written))
    assert run(ws, "list") == 0
    assert f"×{int(written)}" in capsys.readouterr().out  # YAML 1.1 read 012 as octal: ten (010: eight)


def test_a_time_like_text_stays_text(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 1:30, text: 本文}\n")
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "c.csv")) == 0
    assert "1:30" in (tmp_path / "c.csv").read_text(encoding="utf-8-sig")


def test_spreadsheet_cells_read_as_yaml_1_2():
    assert load_value("1:30") == "1:30" and load_value("012") == 12 and load_value("0x1F") == "0x1F"
    assert load_value("[1:30, 2]") == ["1:30", 2] and load_value("3") == 3 and load_value("2.5") == 2.5
    assert load_value("1_000.5") == "1_000.5" and load_value("") is None


@settings(max_examples=120, deadline=None)
@given(st.text(alphabet="0123456789:_xobXOB+-.eE", max_size=12))
def test_a_number_cell_is_decimal_or_text(text):
    try:
        value = load_value(text)
    except ValueError:
        return
    if isinstance(value, int) and not isinstance(value, bool):
        assert int(text.strip(), 10) == value


@pytest.mark.parametrize("call, said", [
    ('align="middle"', "unknown align 'middle'"), ('valign="center"', "unknown valign 'center'"),
    ('align="Center"', "unknown align 'Center'; did you mean center?"), ('valign="centre"', "unknown valign"),
    ('align="centre"', "unknown align 'centre'; did you mean center?"),  # a game trial's British spelling
])
def test_textbox_alignment_words_are_exactly_the_documented_ones(tmp_path, capsys, call, said):
    front = FRONT.replace('size=9, min_size=7)', f'size=9, min_size=7, {call})')
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "card-front.svg.j2:5:" in err and said in err


@pytest.mark.parametrize("call, key", [
    ('textbox("x", 1, 1, 0, 10)', "textbox w=0"), ('textbox("x", 1, 1, 10, -5)', "textbox h=-5"),
    ('image("x.png", 0, 0, -20, 10)', "w=-20"), ('image("x.png", 0, 0, 20, 0)', "h=0"),
])
def test_negative_or_zero_sizes_are_refused_at_the_template_line(tmp_path, capsys, call, key):
    front = FRONT.replace("{% endblock %}", "{{ " + call + " }}\n{% endblock %}")
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "card-front.svg.j2:6:" in err and key in err and "dpi" not in err


@pytest.mark.parametrize(("written", "meant"), [("1e3", "1000"), ("0x10", "16"), ("1_000", "1000"), ("2.5e1mm", "25mm")])
def test_a_length_in_another_notation_is_told_its_decimal_digits_not_a_unit(tmp_path, capsys, written, meant):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", f"size: [{written}, 60]")
                        + "  - {name: A, text: 本文}\n")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:" in err and f"did you mean {meant}?" in err  # not 1mm, 0mm


@pytest.mark.parametrize("written, said", [("1e9", "size '1e9' is out of range (expected 1 to 2000 mm)"),
                                           ("1e-9", "size '1e-9' is out of range (expected 1 to 2000 mm)"),
                                           (".nan", "size nan is not a number (expected a number from 1 to 2000 mm)"),
                                           ("-.inf", "size -inf is infinite (or too large for any number) (expected a "
                                                     "number from 1 to 2000 mm)")])
def test_a_length_in_exponent_form_beyond_any_size_is_told_the_range(tmp_path, capsys, written, said):
    """``size: [1e9, 5]`` (a number YAML reads as text) said "is not a length", and ``.nan`` "size
    nan is out of range": a number past the range is told the range, NaN and infinity what they are."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", f"size: [{written}, 60]")
                        + "  - {name: A, text: 本文}\n")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cards.yaml:2:7: size: {said}" in err and "did you mean" not in err, err


@pytest.mark.parametrize(("written", "says"), [
    ("'w * 1e3'", "'1e3' in 'w * 1e3' is a number written in another notation; did you mean 1000?"),
    ("0x10", "'0x10' in '0x10' is a number written in another notation; did you mean 16?"),
    ("'w - 1_000'", "'1_000' in 'w - 1_000' is a number written in another notation; did you mean 1000?"),
    ("1e9", "'1e9' in '1e9' is a number written in another notation ("),  # no length to offer
])
def test_a_layout_length_in_another_notation_is_said_so_not_an_unknown_name(tmp_path, capsys, written, says):
    """'unknown name 'e' in '1e9'' read the exponent as a name, as if w or h were misspelt."""
    ws = make_workspace(tmp_path / "ws", deck=f"name: カード\nlayout: {{extends: card-poker, boxes: {{title: {{w: {written}}}}}}}\n"
                                              "pieces:\n  - {title: 題}\n")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:2:" in err and says in err and "unknown name" not in err, err


@pytest.mark.parametrize(("written", "meant"), [("'1,000'", "1000"), ("1e3", "1000"), ("0x10", "16"), ("1_000", "1000")])
def test_a_count_in_another_notation_is_told_its_digits(tmp_path, capsys, written, meant):
    """A spreadsheet's 1,000 (its thousands comma) or 1e3: told the count to write, not only that
    it is no whole number 'from 0 to 10,000'."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(written))
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not written in plain digits" in err and f"count: {meant}'" in err, err


def test_a_count_in_another_notation_beyond_the_limit_is_told_the_limit(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=_deck("'20,000'"))
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert "is not a whole number from 0 to 10,000" in err and "plain digits" not in err, err


@pytest.mark.parametrize(("written", "said"), [(".nan", "lint min_text nan is not a length"),
                                               ("99", "lint min_text 99 is out of range"),
                                               ("'1e400'", "lint min_text '1e400' is not a length")])
def test_a_lint_figure_is_said_as_written_not_with_the_unit_pnpgen_added(tmp_path, capsys, written, said):
    """It said 'nanpt', '1e400pt': a value the designer never wrote."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game = ws / "data/test/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + f"lint: {{min_text: {written}}}\n", encoding="utf-8")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game.yaml:" in err and (said in err or said.replace("not a length", "out of range") in err), err
    assert "pt'" not in err


@pytest.mark.parametrize("key", ["count", "cost"])
def test_a_number_too_long_for_python_is_told_plainly(tmp_path, capsys, key):
    """A number of 5,000 digits (a key held down): Python reads no integer of over 4,300 digits,
    and its message named sys.set_int_max_str_digits() to the designer."""
    digits = "9" * 5000
    deck = DECK_YAML + (f"  - {{name: A, text: 本文, count: {digits}}}\n" if key == "count"
                        else f"  - {{name: A, text: 本文, cost: {digits}}}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:9:" in err and f".{key}: a number 5,000 digits long" in err, err
    assert "sys." not in err and "in quotes" in err, err


@pytest.mark.parametrize("written, said", [
    ("1,000", "pieces.1.0: the comma of a thousands separator ended the number of 'count' "
              "(YAML reads a ',' in {…} as the next entry's) (expected the digits alone: count: 1000)"),
    ("2,050,000", "the comma of a thousands separator ended the number of 'count' (YAML reads a ',' in {…} as the "
                  "next entry's) (expected the digits alone: count: 2050000)"),
    ("1,000,000", "pieces.1.0: the comma of a thousands separator ended the number of 'count' (YAML reads a ',' in {…} "
                  "as the next entry's) (expected the digits alone: count: 1000000)"),  # hostile25: was 'duplicate key'
    ("1, 5", "pieces.1.5: unknown key in piece 1: the ', ' before it ended the text of 'count' (expected the text in "
             "quotes: count: \"1, 5\")"),  # no thousands comma: told as before
])
def test_a_count_with_thousands_commas_in_braces_is_told_the_digits(tmp_path, capsys, written, said):
    """{name: A, count: 1,000}: YAML reads count 1 and a key 000; it was told to quote "1, 0"."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(written))
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:9:" in err and said in err, err


def test_a_count_with_thousands_commas_at_a_line_end_in_braces_is_told_the_digits(tmp_path, capsys):
    """The braces closed on the next line: it was told to quote "1, 0" (the file's line read again
    for the digits, the '}' not on it)."""
    deck = DECK_YAML + "  - {name: A, text: 本文,\n     count: 1,000\n    }\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:10:" in err, err
    assert "thousands separator ended the number of 'count'" in err and "count: 1000)" in err, err


@pytest.mark.parametrize("file, written, said", [
    ("count", "1e9", "cards.yaml:9:32: pieces.1.count: count '1e9' is out of range (expected a whole number from 0 to 10,000"),
    ("count", ".nan", "cards.yaml:9:32: pieces.1.count: count nan is not a number (expected a whole number from 0 to 10,000"),
    ("printers", "back_offset_mm: [.nan, 0]", "printers.yaml:2:19: home.back_offset_mm: back_offset_mm nan is not a number "
                                              "(expected two lengths in mm within ±20"),
    ("printers", "scale: [1, .inf]", "printers.yaml:2:10: home.scale: scale inf is infinite (or too large for any number) "
                                     "(expected two factors from 0.9 to 1.1"),
])
def test_a_count_or_a_printer_profiles_number_that_is_no_number_is_told_so(tmp_path, capsys, file, written, said):
    """A count of 1e9 (text to YAML) or NaN said "is not a whole number", a printer profile's
    [.nan, 0] "is not a valid back_offset_mm": the same words as a size's (validate.beyond)."""
    deck = DECK_YAML + (f"  - {{name: A, text: 本文, count: {written}}}\n" if file == "count" else "  - {name: A, text: 本文}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    if file == "printers":
        (ws / "printers.yaml").write_text(f"home:\n  {written}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test", *(["--printer", "home"] if file == "printers" else [])) == 2
    said_ = capsys.readouterr()
    err = said_.out + said_.err
    assert said in err and "Traceback" not in err, err
