"""Issue 9: decks kept in spreadsheets (CSV, XLSX, ODS) read to the same pieces as YAML decks,
with the same type checks and errors naming the sheet's row, column and header."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import openpyxl
import pytest
from PIL import Image

from conftest import DECK_YAML, GAME_YAML, GAMES, REPO, make_workspace, run
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.sheetexport import export_sheet
from pnpgen.data.workspace import Workspace
from workbooks import ods_bytes, ods_of, xlsx_bytes

FIELDS_DECK = """\
name: テストカード
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields: {name: text, text: text, power: int, tags: list, hot: bool}
defaults: {text: 既定の本文, power: 1}
"""
YAML_PIECES = """\
pieces:
  - {name: 祝福, text: 一行目, power: 3, tags: [a, b], hot: true, count: 2}
  - {name: '10', power: 5, hot: false}
  - {name: 降臨, text: "改行\\nあり", tags: [], count: 3}
"""
CSV_TEXT = 'name,text,power,tags,hot,count\r\n祝福,一行目,3,"[a, b]",true,2\r\n10,,5,,false,\r\n降臨,"改行\nあり",,[],,3\r\n'


def _sheet_ws(tmp_path: Path, file_name: str, data: bytes) -> Path:
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + f"pieces: {{file: {file_name}}}\n")
    (ws / "data" / "test" / "decks" / file_name).write_bytes(data)
    return ws


def _pieces(ws: Path):
    deck = load_game(Workspace(ws), "test").deck("cards")
    return [(p.values, p.count) for p in deck.pieces]


def _save(book) -> bytes:
    import io

    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


@pytest.fixture
def yaml_pieces(tmp_path):
    return _pieces(make_workspace(tmp_path / "yaml", deck=FIELDS_DECK + YAML_PIECES))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932"])
def test_csv_reads_like_yaml_in_every_encoding(tmp_path, yaml_pieces, encoding):
    ws = _sheet_ws(tmp_path, "cards.csv", CSV_TEXT.encode(encoding))
    pieces = _pieces(ws)
    assert pieces == yaml_pieces
    assert pieces[1][0]["text"] == "既定の本文" and pieces[1][0]["power"] == 5  # empty cell → default
    assert pieces[2][0]["power"] == 1 and pieces[1][1] == 1  # empty count → 1


@pytest.mark.parametrize("text, line, word", [
    ("name,text\r\nWheat,It’s golden.\r\nWood,Don’t waste it.\r\n", 2, "It’s"),  # read as CP932: It痴, Don稚
    ("name,text\r\nWheat,Gain one.\r\nCafé,“Golden” — she said.\r\n", 3, "Café"),
    # capitals À–ß and ß are CP932's half-width kana, which decode: Über printed ﾜber, Straße Straﾟe
    ("name,text\r\nWheat,Gain one.\r\nÜber,Straße À la carte\r\n", 3, "Über"),
], ids=["apostrophes read as kanji", "accents and quotes", "capitals read as half-width kana"])
def test_a_windows_1252_csv_is_told_to_be_saved_as_utf8(tmp_path, capsys, text, line, word):
    """English trial: Excel's "CSV (Comma delimited)" on Western Windows is Windows-1252; read as
    CP932 its ’ printed 「It 痴 golden.」 on the card without a word. It stops at the line of
    its first such character, naming it and how to save the file as UTF-8."""
    ws = _sheet_ws(tmp_path, "cards.csv", text.encode("cp1252"))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"data/test/decks/cards.csv:{line}: not UTF-8 text: it reads as Windows-1252 (Western European: '{word}')" \
        in err and "CSV UTF-8 (Comma delimited)" in err, err


def test_a_cp932_csv_of_kanji_alone_is_still_read_as_japanese(tmp_path):
    """No kana at all (terrain names) is still Japanese: no Latin letter stands before its kanji."""
    text = "name,text,power\r\n都市,谷地,3\r\n内陸,北,5\r\n海岸,岩,1\r\n"
    assert "“sŽs" in text.encode("cp932").decode("cp1252")  # these bytes read as Windows-1252 too, 都市 as “sŽs
    pieces = _pieces(_sheet_ws(tmp_path, "cards.csv", text.encode("cp932")))
    assert [p[0]["name"] for p in pieces] == ["都市", "内陸", "海岸"]


def test_a_cp932_csv_of_half_width_kana_is_still_read_as_japanese(tmp_path):
    """Half-width kana (an old system's export) come in runs, beside Latin letters too."""
    text = "name,text,power\r\nｶｰﾄﾞ,HPｱｯﾌﾟ,3\r\n"
    pieces = _pieces(_sheet_ws(tmp_path, "cards.csv", text.encode("cp932")))
    assert [(p[0]["name"], p[0]["text"]) for p in pieces] == [("ｶｰﾄﾞ", "HPｱｯﾌﾟ")]


def test_xlsx_and_ods_read_like_yaml(tmp_path, yaml_pieces):
    rows = [["name", "text", "power", "tags", "hot", "count"],
            ["祝福", "一行目", 3, "[a, b]", True, 2],
            ["10", None, 5, None, False, None],
            [None] * 6,  # a blank row is skipped
            ["降臨", "改行\nあり", None, "[]", None, 3]]
    assert _pieces(_sheet_ws(tmp_path / "x", "cards.xlsx", xlsx_bytes(rows))) == yaml_pieces
    ods = ods_bytes(rows, spare_rows=1048000)  # the empty rows a spreadsheet program leaves
    assert _pieces(_sheet_ws(tmp_path / "o", "cards.ods", ods)) == yaml_pieces


BAD = {
    "bad int": ('name,power\r\n祝福,3\r\n降臨,three\r\n', "cards.csv:3:2: power (column B): 'three' is not a valid int",
                "a whole number"),
    "bad count": ('name,count\r\n祝福,-1\r\n', "cards.csv:2:2: count (column B): count -1 is not a whole number",
                  "0..10000, e.g. 3 in the count column)"),  # 0 parks a piece (issue 12); no YAML 'count: 3' in a sheet
    "unknown header": ('name,powr\r\n祝福,3\r\n', "cards.csv:1:2: powr (column B): unknown key in the header row",
                       "one of name, text"),
    # an English designer's trial: a sheet's Qty column was 'unknown key' with no word of count
    "qty": ('name,Qty\r\n祝福,3\r\n', "cards.csv:1:2: Qty (column B): unknown key in the header row; did you mean "
            "count? (the number of copies to print)", "one of name, text"),
    # an English designer's trial: the sheet's totals row was 42 copies of a card called Total
    "totals row": ('name,count\r\nA,2\r\nB,3\r\n,\r\nTotal,5\r\n', "cards.csv:5:2: count (column B): the row of "
                   "'Total' with the count 5 (the sum of the rows above) is the sheet's totals row, not a piece",
                   "delete the totals row"),
    # an English designer's trial: Excel's AutoSum under the count column alone, or its label in
    # another column, printed 8 copies of an untitled piece
    "a count alone under the column": ('name,count,text\r\nA,2,x\r\nB,3,y\r\n,5,\r\n', "cards.csv:4:2: count "
                                       "(column B): the last row, with nothing but the count 5 (the sum of the rows "
                                       "above) is the sheet's totals row", "delete the totals row"),
    "total written in another column": ('name,count,text\r\nA,2,x\r\nB,3,y\r\n,5,TOTAL\r\n', "cards.csv:4:2: "
                                        "count (column B): the row of 'TOTAL' with the count 5 (the sum of the rows "
                                        "above) is the sheet's totals row, not a piece: it would print 5 copies of a "
                                        "piece showing 'TOTAL'", "delete the totals row"),
    # an English designer's trial: 12.0 was "not a whole number", and 1,000 told the digits alone
    "a count with its decimals": ('name,count\r\n祝福,12.0\r\n', "cards.csv:2:2: count (column B): count 12.0 is "
                                  "not written in plain digits", "(expected 12 in the count column, the digits alone)"),
    "a count with a thousands comma": ('name,count\r\n祝福,"1,000"\r\n', "cards.csv:2:2: count (column B): count "
                                       "'1,000' is not written in plain digits", "(expected 1000 in the count column"),
    "no header": ('name,\r\n祝福,3\r\n', "cards.csv:2:2: a value ('3') in a column without a header", "column B"),
    # the English euro trial: a CSV edited by hand, a list or a text with a comma and no quotes, was
    # told "a value ('3') in a column without a header (expected a field name in row 1 of column J)"
    "a list's comma unquoted": ('name,tags,power\r\nShipwright,[vp, gem],3\r\n', "cards.csv:2:2: row 2 has 4 cells "
                                "and the header row 3: a comma inside the cell '[vp, gem]' split it",
                                '(expected the cell in double quotes, as a spreadsheet saves it: "[vp, gem]"'),
    "a text's comma unquoted": ('name,text,power\r\nPilot,Move, then rest,3\r\n', "cards.csv:2: row 2 has 4 cells "
                                "and the header row 3: a comma inside a text split its cell",
                                "(expected a text holding a comma in double quotes"),
    "twice": ('name,name\r\n祝福,3\r\n', "cards.csv:1:2: name: the same header twice: B1 repeats A1 (expected", "one column"),
    # a bilingual designer's trial (trial79): Google Sheets saves a number formatted 1,000 in its CSV as
    # shown, and an int column was told "'2,000' is not a valid int (expected a whole number)"
    "an int with a thousands comma": ('name,power\r\n祝福,"2,000"\r\n', "cards.csv:2:2: power (column B): '2,000' "
                                      "is a number written with a thousands comma, not read as one",
                                      "(expected 2000, the digits alone: the column given a format without the comma"),
    "bad bool": ('name,hot\r\n祝福,maybe\r\n', "cards.csv:2:2: hot (column B): 'maybe' is not a valid bool",
                 "true or false"),
    "a number of 5,000 digits": ('name,power\r\n祝福,' + "9" * 5000 + '\r\n', "cards.csv:2:2: power (column B): '999",
                                 "a whole number"),
    "a list nested 3,000 deep": ('name,tags\r\n祝福,"' + "[" * 3000 + "]" * 3000 + '"\r\n',
                                 "cards.csv:2:2: tags (column B): '[[[", "a list"),
    "a list that holds itself": ('name,tags\r\n祝福,"&a [*a]"\r\n', "cards.csv:2:2: tags (column B): '&a [*a]'",
                                 "a list"),
    # saved with another separator (LibreOffice's choice in many locales): said so, not 'unknown key'
    "semicolons": ('name;power\r\n祝福;3\r\n', "cards.csv:1: the CSV's values are separated by semicolons, not commas",
                   "commas between the values"),
    "tabs": ('name\tpower\r\n祝福\t3\r\n', "cards.csv:1: the CSV's values are separated by tabs, not commas",
             "commas between the values"),
    # typed by hand with the input method on 全角: it said only that row 1 names no field
    "full-width commas": ('name，power\r\n祝福，3\r\n', "cards.csv:1: the CSV's values are separated by full-width "
                          "'，' (typed in 全角), not commas", "(expected half-width commas between the values, as in "
                          "'name,power')"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_cell_names_row_column_and_header(tmp_path, capsys, case):
    text, where, expected = BAD[case]
    ws = _sheet_ws(tmp_path, "cards.csv", text.encode("utf-8"))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert where in err and expected in err, err


def test_xlsx_bad_cell_names_row_and_column(tmp_path, capsys):
    ws = _sheet_ws(tmp_path, "cards.xlsx", xlsx_bytes([["name", "tags", "power"], ["祝福", None, 2], ["降臨", None, 2.5]]))
    assert run(ws, "check", "--game", "test") == 2
    assert "cards.xlsx:3:3: power (column C): 2.5 is not a valid int" in capsys.readouterr().err
    ws = _sheet_ws(tmp_path / "count", "cards.xlsx", xlsx_bytes([["name", "power", "count"], ["祝福", 1, 2], ["降臨", 2, "three"]]))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.xlsx:3:3: count (column C): count 'three' is not a whole number from 0 to 10,000 " \
           "(expected an integer 0..10000, e.g. 3 in the count column)" in err, err


@pytest.mark.parametrize("name, book", [("cards.xlsx", xlsx_bytes), ("cards.ods", ods_bytes)])
def test_an_unknown_worksheet_is_said_at_the_decks_sheet_line(tmp_path, capsys, name, book):
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + f"pieces: {{file: {name}, sheet: 祝福}}\n")
    (ws / "data" / "test" / "decks" / name).write_bytes(book([["name"], ["降臨"]]))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "decks/cards.yaml:7:" in err and f"pieces.sheet: no worksheet '祝福' in {name}" in err, err


def test_an_unknown_worksheet_names_the_workbooks_on_one_line_and_not_all_of_many(tmp_path, capsys):
    """The workbook's worksheet names are data: one holding a line break is written escaped (it
    broke the error in two), and of 40 the first 30 are named (300 made the line 5 KB)."""
    book = openpyxl.Workbook()
    book.active.title = "Evil\nline"
    book.active.append(["name"])
    for i in range(39):
        book.create_sheet(f"Sheet {i}")
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "pieces: {file: cards.xlsx, sheet: 祝福}\n")
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(_save(book))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "(expected one of Evil\\nline, Sheet 0, " in err, err
    assert "Sheet 28, and 10 more)" in err and "Sheet 29" not in err, err


def _with_a_part_twice(book: bytes, part: str, second: bytes) -> bytes:
    """A workbook holding ``part`` a second time, as ``second`` (a damaged file, or one made to
    show one sheet in the office program and another to a reader of the last copy)."""
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile's "Duplicate name"
        with zipfile.ZipFile(io.BytesIO(book)) as z, zipfile.ZipFile(buf, "w") as out:
            for info in z.infolist():
                out.writestr(info, z.read(info))
            out.writestr(part, second)
    return buf.getvalue()


@pytest.mark.parametrize("name, data, message", [
    ("../../../outside.csv", None, "is outside test/"),
    ("/etc/passwd.csv", None, "is outside test/"),
    ("cards.txt", None, "is not a spreadsheet file name"),
    ("missing.csv", None, "spreadsheet 'missing.csv' not found"),
    ("cards.xlsx", b"not a zip", "cards.xlsx is not a .xlsx file (a .xlsx file is a zip archive"),
    ("cards.xlsx", b"name,text\r\nA,B\r\n", "cards.xlsx is comma-separated text with a .xlsx name, not a workbook "
     "(expected the file renamed to cards.csv"),  # American trial: 'File is not a zip file'
    ("cards.ods", b"name\ttext\nA\tB\n", "cards.ods is tab-separated text with a .ods name"),
    ("cards.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "an Excel 97\u20132003 workbook (.xls) with a .xlsx name "
     "(expected the sheet saved from Excel as Excel Workbook (.xlsx))"),
    ("cards.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504) + "EncryptionInfo\0EncryptedPackage".encode("utf-16-le"),
     "cards.xlsx is a workbook saved with a password"),  # (an encrypted .xlsx is an OLE2 file too)
    ("cards.csv", b"", "the spreadsheet is empty"),
    ("cards.csv", b"name,power\r\n", "no pieces below the header row"),
    ("cards.csv", b"name\r\n\x82\xa0\x81\x20\r\n", "not readable text"),
    # UTF-8 but for an emoji written as its two UTF-16 halves (CESU-8): it read as CP932's kanji salad
    ("cards.csv", "name\r\nA\r\n祝福".encode() + b"\xed\xa0\xbd\xed\xb8\x80\r\n",
     "cards.csv:3: not UTF-8 text: byte 16 starts the character \U0001f600 (U+1F600) written as its two UTF-16 halves"),
    ("cards.csv", b"name\r\n\xed\xa0\x80\r\n", "cards.csv:2: not UTF-8 text: byte 7 starts half of a character alone "
     "(U+D800, a UTF-16 surrogate) in UTF-8's bytes (ED A0 80\u2026, CESU-8), which UTF-8 does not allow; read as the "
     "CP932 pnpgen also takes, its Japanese would print as other kanji (expected the file saved again as UTF-8"),
    ("cards.xlsx", "twice", "cards.xlsx: cards.xlsx is damaged: it holds its part xl/worksheets/sheet1.xml twice, and "
     "which copy a program reads differs (expected the file saved again from the spreadsheet program as a .xlsx file"),
])
def test_bad_spreadsheet_file(tmp_path, capsys, name, data, message):
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + f"pieces: {{file: {name!r}}}\n")
    if data == "twice":
        data = _with_a_part_twice(xlsx_bytes([["name"], ["A"]]), "xl/worksheets/sheet1.xml",
                                  zipfile.ZipFile(io.BytesIO(xlsx_bytes([["name"], ["B"]]))).read("xl/worksheets/sheet1.xml"))
    if data is not None:
        (ws / "data" / "test" / "decks" / name).write_bytes(data)
    (tmp_path / "ws" / "outside.csv").write_text("name\r\nx\r\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_a_misnamed_or_unmarked_spreadsheet_is_told_what_to_write(tmp_path, capsys):
    """A game trial: `pieces: units.csv` (no file:) was 'pieces must be a non-empty list', and a
    misspelt file name named no near one."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "pieces: cards.csv\n")
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("name\r\n祝福\r\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:7:9: pieces: pieces names the spreadsheet 'cards.csv' without 'file:' " \
           "(expected pieces: {file: cards.csv})" in err, err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(FIELDS_DECK + "pieces: {file: card.csv}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    assert "spreadsheet 'card.csv' not found; did you mean cards.csv?" in capsys.readouterr().err


def test_a_spreadsheet_in_the_games_folder_is_told_where_it_is(tmp_path, capsys):
    """An American trial: `export-sheet --out data/<game>/events.csv`, then `pieces: {file:
    events.csv}` was only "not found": the file is named where it is, and how to reach it."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "pieces: {file: cards.csv}\n")
    (ws / "data" / "test" / "cards.csv").write_text("name\r\n祝福\r\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "pieces.file: spreadsheet 'cards.csv' is not beside the deck file, but data/test/cards.csv is (expected " \
           "the file moved to data/test/decks/cards.csv, or file: ../cards.csv)" in err and err.count("\n") == 1, err
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(FIELDS_DECK + "pieces: {file: ../cards.csv}\n")
    assert run(ws, "check", "--game", "test") == 0  # as the message says


def test_symlink_out_of_the_game_is_refused(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "pieces: {file: cards.csv}\n")
    (tmp_path / "elsewhere.csv").write_text("name\r\nx\r\n")
    (ws / "data" / "test" / "decks" / "cards.csv").symlink_to(tmp_path / "elsewhere.csv")
    assert run(ws, "check", "--game", "test") == 2
    assert "cards.yaml:7:16: pieces.file: 'decks/cards.csv' is outside test/" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_every_real_deck_round_trips_through_a_spreadsheet(tmp_path, fmt):
    """export-sheet then pieces: {file: …} gives back every piece of the four games unchanged."""
    copy = tmp_path / "ws"
    shutil.copytree(REPO / "data", copy / "data")
    shutil.copytree(REPO / "templates", copy / "templates")
    (copy / "fonts").symlink_to(REPO / "fonts")
    for slug in GAMES:
        before = load_game(Workspace(copy), slug)
        for deck in before.decks:
            (deck.source.parent / f"{deck.id}.{fmt}").write_bytes(export_sheet(deck, fmt))
            text = deck.source.read_text(encoding="utf-8")
            head = text[: text.index("\npieces:")]
            deck.source.write_text(head + f"\npieces: {{file: {deck.id}.{fmt}}}\n", encoding="utf-8")
        after = load_game(Workspace(copy), slug)
        for a, b in zip(before.decks, after.decks, strict=True):
            assert [(p.values, p.count) for p in a.pieces] == [(p.values, p.count) for p in b.pieces], a.id
            assert len(a.placeholders) == len(b.placeholders)


def test_export_sheet_command(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + YAML_PIECES)
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 0
    out = ws / "data" / "test" / "decks" / "cards.csv"
    assert out.read_bytes().startswith(b"\xef\xbb\xbfname,text,power,tags,hot,count\r\n")
    said = capsys.readouterr().out
    assert "to use it, replace the deck's pieces: list with  pieces: {file: cards.csv}" in said, said
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 2  # never overwrites
    assert "already exists" in capsys.readouterr().err
    out.write_text("hand edits", encoding="utf-8")  # nor with --out naming it (a deck's own sheet, say)
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(out)) == 2
    assert "already exists; not overwritten" in capsys.readouterr().err and out.read_text(encoding="utf-8") == "hand edits"
    assert run(ws, "export-sheet", "--game", "test", "--deck", "nope") == 2
    assert "unknown deck 'nope'" in capsys.readouterr().err
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--format", "xlsx") == 0
    book = openpyxl.load_workbook(ws / "data" / "test" / "decks" / "cards.xlsx")
    rows = list(book.active.iter_rows(values_only=True))
    assert rows[0] == ("name", "text", "power", "tags", "hot", "count")
    assert rows[1] == ("祝福", "一行目", 3, "[a, b]", True, 2)


def test_export_sheet_of_a_deck_kept_in_a_workbook_says_which_file_it_reads(tmp_path, capsys):
    """Trial 17: a deck read from a workbook's worksheet (pieces: {file: cards.xlsx, sheet: 呪い})
    exported to CSV was told "replace the deck's pieces: list", a list it does not have; it is
    told the file it reads now and the line that reads the new one."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "pieces: {file: cards.xlsx, sheet: 呪い}\n")
    book = openpyxl.Workbook()
    book.active.title = "呪い"
    book.active.append(["name", "text", "count"])
    book.active.append(["呪詛", "本文", 2])
    book.save(ws / "data" / "test" / "decks" / "cards.xlsx")
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 0
    said = capsys.readouterr().out
    assert "the deck reads its pieces from cards.xlsx; to read them from this file: pieces: {file: cards.csv}" in said
    assert "pieces: list" not in said, said


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_spreadsheet_deck_builds_the_same_as_yaml(tmp_path, fmt, built_shared):
    """Same manifest counts and the same text on every page as the YAML deck."""
    yaml_ws = built_shared("build", "--game", "test", "--no-rulebook")  # (the same for both formats: read only)
    deck = load_game(Workspace(yaml_ws), "test").deck("cards")
    sheet_ws = make_workspace(tmp_path / "sheet", deck=DECK_YAML.replace("pieces:\n", f"pieces: {{file: cards.{fmt}}}\n"))
    (sheet_ws / "data" / "test" / "decks" / f"cards.{fmt}").write_bytes(export_sheet(deck, fmt))
    assert run(sheet_ws, "build", "--game", "test", "--no-rulebook") == 0
    a, b = (json.loads((w / "build" / "test" / "manifest.json").read_text()) for w in (yaml_ws, sheet_ws))
    assert [(d["id"], d["count"], d["unique"], d["sheets"], d["pages"]) for d in a["decks"]] == \
           [(d["id"], d["count"], d["unique"], d["sheets"], d["pages"]) for d in b["decks"]]
    assert a["decks"][0]["count"] == 11
    for name in ("cards.pdf", "shop/cards.pdf"):
        assert texts(yaml_ws / "build" / "test" / name) == texts(sheet_ws / "build" / "test" / name)
    shop = texts(sheet_ws / "build" / "test" / "shop" / "cards.pdf")
    assert "カード7" in shop[12] and "Bカード7" in shop[13]


@pytest.mark.parametrize("name, fmt", [("list.xlsx", "xlsx"), ("list.CSV", "csv")])
def test_export_sheet_takes_the_format_from_out(tmp_path, name, fmt):
    """Without --format, the file's ending says what to write: an .xlsx is a workbook."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + YAML_PIECES)
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--out", str(tmp_path / name)) == 0
    data = (tmp_path / name).read_bytes()
    if fmt == "xlsx":
        assert data.startswith(b"PK")  # a zip: the workbook
        rows = list(openpyxl.load_workbook(tmp_path / name).active.iter_rows(values_only=True))
        assert rows[1] == ("祝福", "一行目", 3, "[a, b]", True, 2)
    else:
        assert data.startswith(b"\xef\xbb\xbfname,text,power,tags,hot,count\r\n")


def test_export_sheet_format_and_out_that_disagree_stop_with_both_named(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + YAML_PIECES)
    out = tmp_path / "x.csv"
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--format", "xlsx", "--out", str(out)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "--format: xlsx" in err and f"--out {out}" in err and str(tmp_path / "x.xlsx") in err
    assert "--format csv" in err
    assert not out.exists()
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards", "--format", "csv", "--out", str(out)) == 0
    assert out.read_bytes().startswith(b"\xef\xbb\xbfname,")


@pytest.mark.parametrize("name, data, what", [
    ("cards.csv", b"name\r\n" + "祝福\r\n".encode() * 10_001, "rows"),
    ("cards.csv", ("name," + ",".join(f"c{i}" for i in range(300)) + "\r\n祝福\r\n").encode(), "columns"),
    ("cards.xlsx", None, "rows"),
])
def test_a_spreadsheet_beyond_a_deck_is_refused_before_its_cells_are_read(tmp_path, capsys, name, data, what):
    """A cell at the far corner of a worksheet (XFD1048576) would have the reader walk a billion
    empty cells; ten thousand pieces is the most a deck holds."""
    if data is None:
        book = openpyxl.Workbook()
        book.active.append(["name"])
        book.active.append(["祝福"])
        book.active.cell(row=1_048_576, column=3, value="x")
        data = _save(book)
    ws = _sheet_ws(tmp_path, name, data)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert f"{name}: the spreadsheet has more than" in err and what in err and "delete the rows" in err, err


TRANSLATED = ("  - {name: {ja: 祝福, en: Blessing}, text: {ja: 一行目, en: First line}, count: 2}\n"
              "  - {name: {ja: 降臨, en: Descent}, text: 二行目}\n")


@pytest.fixture(scope="module")
def translated_yaml(tmp_path_factory) -> Path:
    """The translated YAML deck built in both languages, once for both formats (read only)."""
    ws = make_workspace(tmp_path_factory.mktemp("translated") / "yaml", deck=DECK_YAML + TRANSLATED,
                        game=GAME_YAML + "languages: [ja, en]\n")
    for lang in ("ja", "en"):
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", lang) == 0
    return ws


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_export_sheet_keeps_the_translations_so_each_language_builds_the_same(tmp_path, capsys, fmt, translated_yaml):
    """A deck translated in its YAML (``{ja: …, en: …}``) exported as a sheet has ``name.en`` /
    ``text.en`` columns, a text left in Japanese an empty cell (what a sheet reads as "not
    translated yet"), and the deck read from the sheet prints each language's texts as the YAML
    did (a designer's English edition lost every translation in the round trip)."""
    game = GAME_YAML + "languages: [ja, en]\n"
    yaml_ws = translated_yaml
    assert run(yaml_ws, "export-sheet", "--game", "test", "--deck", "cards", "--format", fmt,
               "--out", str(tmp_path / f"cards.{fmt}")) == 0
    if fmt == "csv":
        assert (tmp_path / "cards.csv").read_text(encoding="utf-8-sig").splitlines()[:3] == [
            "name,name.en,text,text.en,count", "祝福,Blessing,一行目,First line,2", "降臨,Descent,二行目,,1"]
    sheet_ws = make_workspace(tmp_path / "sheet", deck=DECK_YAML.replace("pieces:\n", f"pieces: {{file: cards.{fmt}}}\n"),
                              game=game)
    shutil.copy(tmp_path / f"cards.{fmt}", sheet_ws / "data" / "test" / "decks" / f"cards.{fmt}")
    for lang in ("ja", "en"):
        pages = []
        for ws in (yaml_ws, sheet_ws):
            if ws is sheet_ws:  # (the YAML deck's builds are the fixture's)
                assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", lang) == 0
            pages.append([re.sub(r"#[0-9a-f]{7}", "#", _marks_joined(page).replace("〔ja〕", ""))  # (the content hash in the slug)
                          for page in texts(ws / "build" / "test" / ("" if lang == "ja" else lang) / "cards.pdf")])
        assert pages[0] == pages[1], lang  # (the sheet marks the text it has no translation of: 〔ja〕二行目)
    assert all(word in " ".join(pages[1]) for word in ("Blessing", "First line", "Descent", "二行目"))
    assert "〔ja〕二行目" in _marks_joined(" ".join(texts(sheet_ws / "build" / "test" / "en" / "cards.pdf")))


def _marks_joined(text: str) -> str:
    """``text`` with the 〔ja〕 mark whole: in an English edition set in Noto, its brackets are BIZ
    UD's (a fallback) and its letters Noto's, and the viewer's text copies a line break between."""
    return re.sub(r"〔\s*ja\s*〕", "〔ja〕", text)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_csv_in_utf16_without_its_byte_order_mark_reads_right(tmp_path, codec):
    """Saved as "Unicode text" with no byte-order mark, a CSV was refused as a NUL control
    character in the first cell; its ASCII characters' NUL halves say which UTF-16 it is."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data" / "test" / "decks" / "cards.csv").write_bytes("name,text,count\n祝福,本文,2\n降臨,本文2,1\n".encode(codec))
    deck = load_game(Workspace(ws), "test").deck("cards")
    assert [(p.values["name"], p.values["text"], p.count) for p in deck.pieces] == [("祝福", "本文", 2), ("降臨", "本文2", 1)]


def _with_hidden_first_sheet(kind: str) -> bytes:
    """A workbook whose first sheet ('old', pieces 旧) is hidden and whose second ('new', pieces
    新) is the one the office program opens on and shows."""
    import io

    if kind == "xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        old = book.active
        old.title, old.sheet_state = "old", "hidden"
        for row in (["name"], ["旧"]):
            old.append(row)
        new = book.create_sheet("new")
        for row in (["name"], ["新"]):
            new.append(row)
        book.active = 1
        buf = io.BytesIO()
        book.save(buf)
        return buf.getvalue()
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.style import Style, TableProperties
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    hidden = Style(name="ta-hidden", family="table")
    hidden.addElement(TableProperties(display="false"))
    doc.automaticstyles.addElement(hidden)
    for name, piece, style in (("old", "旧", "ta-hidden"), ("new", "新", None)):
        table = Table(name=name, **({"stylename": hidden} if style else {}))
        for value in ("name", piece):
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            row = TableRow()
            row.addElement(cell)
            table.addElement(row)
        doc.spreadsheet.addElement(table)
    buf = io.BytesIO()
    doc.write(buf)
    return buf.getvalue()


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_a_hidden_first_sheet_is_passed_over_unless_named(tmp_path, kind):
    """A workbook whose first sheet is hidden (an old version kept out of sight): the cards are
    those of the first sheet the office program shows, not the hidden one's; named, it is read."""
    ws = _sheet_ws(tmp_path, f"cards.{kind}", _with_hidden_first_sheet(kind))
    assert [v["name"] for v, _ in _pieces(ws)] == ["新"]
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(f"{{file: cards.{kind}}}", f"{{file: cards.{kind}, sheet: old}}"),
                    encoding="utf-8")
    assert [v["name"] for v, _ in _pieces(ws)] == ["旧"]


def _hidden_rows_book(suffix: str) -> bytes:
    """祝福 (row 2), then 旧 and 没 (rows 3–4) hidden, 降臨 (row 5), 古 (row 6) hidden."""
    rows = [["name", "text", "count"], ["祝福", "本文", 1], ["旧", "本文", 5], ["没", "本文", 2], ["降臨", "本文", 1],
            ["古", "本文", 3]]
    hidden = {3, 4, 6}
    if suffix == "xlsx":
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append(row)
        for r in hidden:
            book.active.row_dimensions[r].hidden = True
        buf = io.BytesIO()
        book.save(buf)
        return buf.getvalue()
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for n, row in enumerate(rows, 1):
        tr = TableRow(visibility="collapse") if n in hidden else TableRow()
        for v in row:
            cell = TableCell(valuetype="float", value=str(v)) if isinstance(v, int) else TableCell(valuetype="string")
            cell.addElement(P(text=str(v)))
            tr.addElement(cell)
        table.addElement(tr)
    return ods_of(table)


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_rows_hidden_in_the_office_program_are_read_with_a_warning(tmp_path, capsys, suffix):
    """A hidden sheet is passed over; rows hidden in the sheet were read without a word, and
    printed: a designer who hid old cards' rows got 10 copies of cards no longer in sight."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", f"pieces: {{file: cards.{suffix}}}\n"))
    (ws / f"data/test/decks/cards.{suffix}").write_bytes(_hidden_rows_book(suffix))
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert (f"warning: data/test/decks/cards.{suffix}:3: rows 3–4, 6, hidden in the office program, are read as "
            "pieces all the same (count: 0 keeps a piece and prints none; delete a row to drop its piece)") in out, out
    assert [p.count for p in load_game(Workspace(ws), "test").decks[0].pieces] == [1, 5, 2, 1, 3]


def test_a_piece_named_total_is_a_piece_when_its_count_is_not_the_sum_above(tmp_path):
    ws = _sheet_ws(tmp_path, "cards.csv", b'name,count\r\nA,2\r\nB,3\r\nTotal,4\r\n')
    assert [p.label for p in load_game(Workspace(ws), "test").decks[0].pieces] == ["A", "B", "Total"]
    ws = _sheet_ws(tmp_path / "counts", "cards.csv", b'count\r\n1\r\n1\r\n2\r\n')  # pieces told apart by count alone
    assert [p.count for p in load_game(Workspace(ws), "test").decks[0].pieces] == [1, 1, 2]


@pytest.mark.parametrize("header, says", [
    ("Name", "Name (column A): unknown key in the header row; did you mean title? (the field that names the piece)"),
    ("Qty", "Qty (column A): unknown key in the header row; did you mean count? (the number of copies to print)"),
    # the advice for a new column under a layout: 'field: Card Type' was refused ('not a field name')
    ("Card Type", "rename the column 'Card Type' to card-type (a field name has no spaces), then layout: {extends: "
                  "card-poker, boxes: {card-type: {field: card-type, x: …"),
])
def test_a_layout_decks_unknown_column_gets_advice_that_builds(tmp_path, capsys, header, says):
    """An English designer's trial: a Google Sheet's Name and Qty columns were unknown keys with
    no word of title and count; a 'Card Type' column's advice, followed, did not build."""
    ws = make_workspace(tmp_path / "ws", deck="name: Cards\nlayout: card-poker\npieces: {file: cards.csv}\n")
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    sheet.write_bytes(f"{header},text\r\nA,Gain 1.\r\n".encode())
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err
    if header == "Card Type":  # the advice followed builds
        sheet.write_bytes(b"card-type,text,title\r\nCrew,Gain 1.,A\r\n")
        (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
            "name: Cards\nlayout: {extends: card-poker, boxes: {card-type: {field: card-type, x: 4, y: 80, w: 30, "
            "h: 4}}}\npieces: {file: cards.csv}\n", encoding="utf-8")
        assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


@pytest.mark.parametrize("header, meant", [("枚数", "count"), ("部数", "count"), ("カード名", "title"), ("名前", "title"),
                                           ("効果", "text"), ("コスト", "cost"), ("フレーバー", "flavour"), ("イラスト", "art"),
                                           # an English designer's trial: Effect was told a box of its own
                                           ("Effect", "text"), ("Rules Text", "text"), ("Ability", "text"),
                                           ("Price", "cost"), ("Image", "art"), ("Artwork", "art")])
def test_a_japanese_sheets_column_heads_are_told_the_field_they_mean(tmp_path, capsys, header, meant):
    """Japanese designer's trial: a list headed 枚数 (the copies) was told to show 枚数 in a box of
    its own, a new field, the deck then printing one copy of each card; it is told count, as an
    English sheet's Qty is (カード名 title, 効果 text, コスト cost …), where the layout reads that field."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces: {file: cards.csv}\n")
    columns = {"title": "炎", "text": "本文", "count": "3", "cost": "2", "flavour": "一言", "art": "未定"}
    row = {(header if k == meant else k): v for k, v in columns.items()}
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        ",".join(row) + "\r\n" + ",".join(row.values()) + "\r\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    col = "ABCDEF"[list(row).index(header)]
    assert err.count("\n") == 1 and f"cards.csv:1:{'ABCDEF'.index(col) + 1}: {header} (column {col}): unknown key in " \
        f"the header row; did you mean {meant}?" in err and "boxes:" not in err, err


def test_a_japanese_name_column_beside_its_translation_is_told_title(tmp_path, capsys):
    """カード名 beside title.en (a game of ja and en): the translation column made the piece a
    title, so カード名 was told to become a new field in a box of its own; it is told title."""
    game = "title: {ja: テスト, en: Test}\nlanguages: [ja, en]\n"
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces: {file: cards.csv}\n", game=game)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("カード名,title.en,count\r\n炎,Flame,2\r\n",
                                                               encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "カード名 (column A): unknown key in the header row; did you mean title?" in err and "boxes:" not in err, err


def test_a_translated_decks_pictures_are_no_translation_column_and_an_empty_one_shows_the_default_picture(tmp_path, capsys):
    """A bilingual deck with art exported as a sheet had an art.en column (the 未定 piece's art said
    TBD in English, the others empty), and read back its English edition stopped: "art file
    '[missing-translation]〔ja〕[/missing-translation]leader1.png' not found". A picture is no
    translation; an art.en cell left empty shows the default language's picture."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  art: image\n")
    pieces = ("  - {name: {ja: 王, en: King}, text: {ja: 一行目, en: First line}, art: king.png}\n"
              "  - {name: {ja: 巫女, en: Keeper}, text: {ja: 二行目, en: Second line}, art: 未定}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck + pieces, game=GAME_YAML + "languages: [ja, en]\n")
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (60, 40), (200, 30, 40)).save(ws / "data" / "test" / "art" / "king.png")
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 0
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    assert sheet.read_text(encoding="utf-8-sig").splitlines()[0] == "name,name.en,text,text.en,art,count"
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("pieces:\n", "pieces: {file: cards.csv}\n"),
                                                               encoding="utf-8")
    sheet.write_text("name,name.en,art,art.en,count\n王,King,king.png,,1\n巫女,Keeper,未定,,1\n", encoding="utf-8")
    en = load_game(Workspace(ws), "test", lang="en").deck("cards")
    assert [p.values["art"] for p in en.pieces] == ["king.png", "TBD"]


def test_a_date_in_a_column_without_a_header_is_said_as_its_cell_shows_it(tmp_path, capsys):
    """An English designer's trial: a header cell merged over two columns left the second unheaded,
    and its date was said as 'ShownDateTime(2026, 12, 1, 0, 0)', Python's words, not the sheet's."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["name", "count"])
    sheet.append(["A", 2, dt.date(2026, 12, 1)])
    sheet["C2"].number_format = "m/d/yyyy"
    data = io.BytesIO()
    book.save(data)
    ws = _sheet_ws(tmp_path, "cards.xlsx", data.getvalue())
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.xlsx:2:3: a value ('12/1/2026') in a column without a header (expected a field name in row 1 " \
        "of column C)" in err, err


def test_spaces_a_cell_keeps_unseen_around_a_text_picture_or_colour_are_dropped(tmp_path):
    """An English designer's trial: Excel's 'Card 01.PNG ' (a space typed after the name) stopped the
    build with "'Card 01.PNG ' is not a PNG, JPEG, WebP or SVG file", and a title 'Vote ' went into
    order.csv and Tabletop Simulator with its space; YAML drops such spaces, so the sheet does too,
    keeping a text's own line breaks and full-width indent."""
    ws = make_workspace(tmp_path / "ws", deck="name: Cards\nlayout: card-poker\nfields: {colour: colour}\n"
                                              "pieces: {file: cards.csv}\n")
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (4, 4)).save(ws / "data" / "test" / "art" / "Card 01.PNG", format="PNG")
    (ws / "data" / "test" / "decks" / "cards.csv").write_bytes(
        'title,art,colour,text\r\nVote ,Card 01.PNG ,\u00a0#112233 ,"\u3000Line one\nline two\t"\r\n'.encode())
    (piece,) = load_game(Workspace(ws), "test").decks[0].pieces
    assert (piece.values["title"], piece.values["art"], piece.values["colour"], piece.values["text"]) == \
        ("Vote", "Card 01.PNG", "#112233", "\u3000Line one\nline two")


def test_a_sheet_named_with_windows_backslashes_is_told_the_path_to_write(tmp_path, capsys):
    """An English designer's trial: 'file: sheets\\Roles.csv' (found on Windows) was 'not found;
    did you mean Roles.csv?' on Linux, a file of the deck folder that was not the one meant."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "pieces: {file: sheets\\Roles.csv}\n")
    (ws / "data" / "test" / "decks" / "sheets").mkdir()
    (ws / "data" / "test" / "decks" / "sheets" / "Roles.csv").write_bytes(b"name,count\r\nA,2\r\n")
    (ws / "data" / "test" / "decks" / "Roles.csv").write_bytes(b"name,count\r\nB,2\r\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "spreadsheet 'sheets\\Roles.csv' not found: a backslash separates folders on Windows only (expected " \
        "file: sheets/Roles.csv, with / between the folders (read on every system))" in err, err


@pytest.mark.parametrize("written", ["C:\\Users\\me\\Roles.csv", "\\\\server\\share\\Roles.csv", "C:/Users/me/Roles.csv"])
def test_a_sheet_or_a_back_named_by_its_path_on_a_windows_computer_is_told_to_be_copied_in(tmp_path, capsys, written):
    """hostile37: a deck's ``pieces: {file: …}``, a deck list's ``list: {file: …}`` and a list's
    ``back:`` written as the file's place on the designer's Windows computer were 'not found; did
    you mean Roles.csv? (expected a file data/test/decks/C:\\Users\\me\\Roles.csv)', and
    C:/Users/… was told to be moved to data/test/decks/C:/Users/me/Roles.csv; a picture so written
    was told what it is, and now each is."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + "unique: name\npieces: {file: Roles.csv}\n")
    decks = ws / "data" / "test" / "decks"
    (decks / "Roles.csv").write_bytes(b"name,count\r\nA,2\r\n")
    back = written.replace("Roles.csv", "back.svg.j2")
    for deck, key, text, told, named in [
            ("cards.yaml", "pieces.file", FIELDS_DECK + f"pieces: {{file: '{written}'}}\n",
             f"spreadsheet '{written}'", "file: Roles.csv"),
            ("starter.yaml", "list.file", f"name: S\nfrom: cards\nlist: {{file: '{written}'}}\n",
             f"spreadsheet '{written}'", "file: Roles.csv"),
            ("starter.yaml", "back", f"name: S\nfrom: cards\nlist: {{A: 1}}\nback: '{back}'\n",
             f"template '{back}'", "back.svg.j2")]:
        (decks / deck).write_text(text, encoding="utf-8")
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert f"data/test/decks/{deck}:" in err and f": {key}: {told} is a path on a Windows computer" in err, err
        assert err.rstrip().endswith(f"named there: {named})") and "Traceback" not in err, err
        (decks / "cards.yaml").write_text(FIELDS_DECK + "unique: name\npieces: {file: Roles.csv}\n", encoding="utf-8")


def test_a_sheet_headed_in_japanese_under_a_title_row_is_told_every_field_to_write(tmp_path, capsys):
    """Trial 17: a workbook whose sheets open with a title row (アクションカード一覧) over a header
    written in Japanese (カード名, コスト, 効果, フレーバー, イラスト, 枚数) stopped at the title row,
    "row 1 is not a header row", and with the title row deleted at the header the same way: no cell
    was taken for a field, so the sheet's own words were never told their names. The header row is
    found, and one line tells every column its field; renamed so, the deck builds."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\n"
                        "pieces: {file: cards.xlsx, sheet: アクション}\n")
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "アクション"
    sheet.append(["アクションカード一覧"])
    sheet.append(["カード名", "コスト", "効果", "フレーバー", "イラスト", "枚数", "メモ"])
    sheet.append(["隊商", 3, "カードを２枚引く。", None, "未定", 2])
    path = ws / "data" / "test" / "decks" / "cards.xlsx"
    book.save(path)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx:2:1: カード名 (column A) in worksheet アクション: unknown key in the " \
        "header row; did you mean title? (the field that names the piece); rename the others too: コスト → cost, " \
        "効果 → text, フレーバー → flavour, イラスト → art, 枚数 → count (" in err, err
    for cell, field in zip(sheet[2], ["title", "cost", "text", "flavour", "art", "count"]):
        cell.value = field
    sheet["G2"] = None
    book.save(path)
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err
    deck = load_game(Workspace(ws), "test").decks[0]
    assert [(str(p.values["title"]), p.values["cost"], p.count) for p in deck.pieces] == [("隊商", "3", 2)]


def test_a_translated_column_in_the_sheets_own_words_is_told_its_field_and_language(tmp_path, capsys):
    """The harbour trial: a sheet headed カード名, カード名.en, 効果, 効果.en, 枚数 was told to rename
    カード名 → title, 効果 → text, 枚数 → count but not the translations; renamed so, カード名.en
    was then told to become a new box of the layout named 'new'. Both lines say title.en, text.en."""
    ws = make_workspace(tmp_path / "ws", game="title: {ja: テスト, en: Test}\nlanguages: [ja, en]\n",
                        deck="name: {ja: カード, en: Cards}\nlayout: card-poker\npieces: {file: cards.csv}\n")
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    sheet.write_text("カード名,カード名.en,効果,効果.en,枚数\n隊商,Caravan,引く。,Draw.,2\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "rename the others too: カード名.en → title.en, 効果 → text, 効果.en → text.en, 枚数 → count (" in err, err
    sheet.write_text("title,カード名.en,text,Effect.en,count\n隊商,Caravan,引く。,Draw.,2\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.csv:1:4: Effect.en (column D): unknown key in the header row; did you mean text.en? (the card's " \
        "rules text, in en); rename the others too: カード名.en → title.en (" in err, err
    sheet.write_text("title,title.en,text,text.en,count\n隊商,Caravan,引く。,Draw.,2\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


def test_a_translated_column_headed_with_its_language_in_brackets_is_told_its_field_and_language(tmp_path, capsys):
    """A designer's trial (trial68): a sheet headed 番号, カード名, カード名（英語）, 効果, 効果（英語）, 枚数 was told
    every rename but the translations, and once its columns: mapped カード名 and 効果, カード名（英語） was
    offered `<one of cost, value, icons, flavour>` or a memo — never title.en, which the docs'
    columns: example maps it to. Both lines say title.en and text.en (also 効果(English), Name (EN))."""
    ws = make_workspace(tmp_path / "ws", game="title: {ja: テスト, en: Test}\nlanguages: [ja, en]\n",
                        deck="name: {ja: カード, en: Cards}\nlayout: card-poker\nfields: {番号: text}\n"
                             "pieces: {file: cards.csv}\n")
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    sheet.write_text("番号,カード名,カード名（英語）,効果,効果(English),枚数\nE1,隊商,Caravan,引く。,Draw.,2\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "rename the others too: カード名（英語） → title.en, 効果 → text, 効果(English) → text.en, 枚数 → count (" \
        in err and '"カード名（英語）": title.en' in err and '"効果(English)": text.en' in err, err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(
        "pieces: {file: cards.csv}", "pieces: {file: cards.csv, columns: {カード名: title, 効果: text, 枚数: count}}"),
        encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.csv:1:3: カード名（英語） (column C): unknown key in the header row; did you mean title.en?" in err, err
    assert 'columns: {カード名: title, 効果: text, 枚数: count, "カード名（英語）": title.en, "効果(English)": text.en}' in err, err
    assert "<one of" not in err, err
    deck.write_text(deck.read_text(encoding="utf-8").replace(
        "枚数: count}}", "枚数: count, カード名（英語）: title.en, 効果(English): text.en}}"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0, capsys.readouterr().err


def test_a_header_of_the_sheets_own_that_names_no_field_tells_the_others_renames_too(tmp_path, capsys):
    """Japanese trial (森の小径): tiles headed 種類, 枚数, 効果 stopped at 種類 (no field's word in any
    language) naming only the fields there are; 枚数 and 効果 were told on the next run, one at a time.
    The line at 種類 says what the others are to be renamed, as one about カード名 does."""
    ws = make_workspace(tmp_path / "ws", deck="name: タイル\nlayout: card-poker\npieces: {file: tiles.csv}\n")
    sheet = ws / "data" / "test" / "decks" / "tiles.csv"
    sheet.write_text("種類,枚数,効果\n森,9,隣の森１枚につき１点。\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tiles.csv:1:1: 種類 (column A): unknown key in the header row; did you mean title? " \
        "(the field that names the piece: a kind names it, as 森 names a forest tile); rename the others " \
        "too: 枚数 → count, 効果 → text (expected one of" in err, err


@pytest.mark.parametrize("header, told", [
    ("種類,カード名,効果,枚数", "1:1: 種類 (column A): unknown key in the header row; did you mean footer? (the card's type, "
     "which the layout prints at its foot); rename the others too: カード名 → title, 効果 → text, 枚数 → count (expected"),
    ("title,種類,種類.en,count", "1:2: 種類 (column B): unknown key in the header row; did you mean footer? (the card's "
     "type, which the layout prints at its foot); rename the others too: 種類.en → footer.en (expected"),
])
def test_a_kind_column_beside_the_pieces_names_is_told_the_footer(tmp_path, capsys, header, told):
    """種類 beside a column naming the cards (カード名) is the card's type (アクション), which the
    layouts print as the footer (docs: a card's type has no box of its own); it said only
    "unknown key", and the advice named a box 'new'. Renamed as told, the type prints at the foot."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces: {file: cards.csv}\n",
                        game=GAME_YAML + "languages: [ja, en]\n")
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    row = "騎士,アクション,Action,2" if ".en" in header else "アクション,騎士,本文,2"
    sheet.write_text(f"{header}\n{row}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cards.csv:{told}" in err, err
    sheet.write_text("title,footer,count\n騎士,アクション,2\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0, capsys.readouterr().err
    said = texts(ws / "build" / "test" / "cards.pdf")[0]
    assert "アクション" in said and "騎士" in said, said


@pytest.mark.parametrize("named, titles", [("呪い\\u200b", ["呪い", "呪い\u200b"]), ("呪い", ["呪い\u200b"])])
def test_a_worksheet_name_holding_an_invisible_character_is_refused(tmp_path, capsys, named, titles):
    """As a deck file's name: worksheets 呪い and 呪い + U+200B, one deck's each, look one sheet in
    the workbook and in every message ("in worksheet 呪い"). Named so in sheet:, it stops at the
    deck's sheet: line; 呪い named where the workbook's sheet holds one, the line names that sheet
    (it said "no worksheet '呪い' (expected one of 呪い)")."""
    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + f'pieces: {{file: cards.xlsx, sheet: "{named}"}}\n')
    book = openpyxl.Workbook()
    for i, title in enumerate(titles):
        sheet = book.active if i == 0 else book.create_sheet()
        sheet.title = title
        sheet.append(["name", "count"])
        sheet.append(["呪詛", 2])
    book.save(ws / "data" / "test" / "decks" / "cards.xlsx")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "decks/cards.yaml:7:" in err and "U+200B (ZERO WIDTH SPACE), character 3" in err, err
    assert "rename worksheet 呪い\\u200b to 呪い in the workbook, and name it so in sheet:" in err, err


def test_a_google_sheets_csv_with_a_title_row_a_blank_row_full_width_numbers_and_a_note_in_its_header(tmp_path, capsys):
    """A wargame trial's unit list as a designer keeps it and downloads it: UTF-8 with a BOM, CRLF,
    the list's title above the header, a blank row, strengths typed in full-width digits, and a
    note written in the header row's last cell over an empty column: it builds, ４ read as 4. The
    same note over a column holding a value is told as a note (its column named ``memo``, not a
    name made of its Latin letters, 'ok')."""
    header = "name,text,power,count,※戦力は全角で入力してOK\r\n"
    rows = "一覧（ユニット）,,,,\r\n" + header + ",,,,\r\n足軽,本文,４,３,\r\n\r\n騎馬,本文,１２,,\r\n"
    ws = _sheet_ws(tmp_path, "units.csv", ("\ufeff" + rows).encode("utf-8"))
    assert [(values["name"], values["power"], count) for values, count in _pieces(ws)] == [("足軽", 4, 3), ("騎馬", 12, 1)]
    (ws / "data" / "test" / "decks" / "units.csv").write_bytes(("\ufeff" + rows.replace("本文,４,３,", "本文,４,３,要確認")).encode())
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "units.csv:2:5: ※戦力は全角で入力してOK (column E): unknown key in the header row; a note written in the " \
           "header row?" in err and "rename the column '※戦力は全角で入力してOK' to memo (a field name has no spaces), then " \
           "fields: {memo: text}" in err, err


def test_a_paragraph_pasted_into_a_header_cell_or_a_key_is_named_by_its_first_60_characters(tmp_path, capsys):
    """A note of 16,000 characters in a sheet's header row was quoted whole twice: one error of
    96 KB; a YAML key of 14,000, 14 KB. Each is named by its first 60 characters, its cell or line exact."""
    note = "※ " + "これは説明です。" * 2000
    rows = f"name,text,count,{note}\r\n足軽,本文,３,要確認\r\n"
    ws = _sheet_ws(tmp_path, "units.csv", rows.encode("utf-8"))
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    shown = (note[:59] + "…")
    assert f"units.csv:1:4: {shown} (column D): unknown key in the header row" in err, err
    assert f"rename the column '{shown}' to memo" in err and len(err.encode()) < 2_000 and err.count("\n") == 1, err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    key = "Very long key " * 1000
    deck.write_text(FIELDS_DECK + f"pieces:\n  - name: A\n    ? \"{key}\"\n    : x\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    line = FIELDS_DECK.count("\n") + 3
    assert f"cards.yaml:{line}:7: pieces.1.{key[:59]}…: unknown key in piece 1" in err and len(err.encode()) < 2_000, err


def test_a_count_column_headed_with_a_language_is_never_told_as_a_translation(tmp_path, capsys):
    """A count has no translation (spreadsheets.py ``said_translated``): 枚数（英語） is an unknown
    column told as such, never 'did you mean count.en'."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces: {file: cards.csv}\n",
                        game="title: {ja: テスト, en: Test}\nlanguages: [ja, en]\n")
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("title,title.en,count,枚数（英語）\r\n炎,Fire,2,3\r\n",
                                                              encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.csv:1:4: 枚数（英語） (column D): unknown key in the header row" in err and "count.en" not in err, err


def test_export_sheet_keeps_a_file_made_while_the_sheet_is_made(tmp_path, capsys, monkeypatch):
    """The name is looked at first, the sheet made, then written: a file appearing between the two
    (another program's, a second export-sheet) was replaced by the rename. Kept, the same message,
    and no temporary file left beside it."""
    from pnpgen.data import sheetexport

    ws = make_workspace(tmp_path / "ws", deck=FIELDS_DECK + YAML_PIECES)
    out = ws / "data" / "test" / "decks" / "cards.csv"
    made = sheetexport.export_sheet

    def meanwhile(*args, **kwargs):
        out.write_text("hand edits", encoding="utf-8")
        return made(*args, **kwargs)

    monkeypatch.setattr(sheetexport, "export_sheet", meanwhile)
    assert run(ws, "export-sheet", "--game", "test", "--deck", "cards") == 2
    assert "already exists; not overwritten" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "hand edits"
    assert sorted(p.name for p in out.parent.iterdir()) == ["cards.csv", "cards.yaml"]
