"""Issue 26: spreadsheets as office programs write them. Booleans kept as =TRUE() formulas (their
saved results 1 and 0), dates, merged cells, text that lost its Japanese in a legacy encoding, and
formulas never calculated; an .ods saved by LibreOffice builds byte-identical to its YAML source."""

from __future__ import annotations

import datetime as dt
import io
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from conftest import make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from workbooks import ods_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "sheets" / "libreoffice.ods"

DECK = """\
name: テストカード
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields: {name: text, text: text, power: int, hot: bool, released: text}
"""
# The YAML source of the LibreOffice file: 同じ本文 is one cell merged over the first two rows.
YAML_PIECES = """\
pieces:
  - {name: 祝福, text: 同じ本文, power: 3, hot: true, released: "2026-01-02", count: 2}
  - {name: 降臨, text: 同じ本文, power: 5, hot: false, released: "2026-03-04"}
  - {name: 天罰, text: 別の本文, power: 1, hot: true, count: 3}
"""
# The same as the office programs show it: openpyxl gives a datetime cell the format yyyy-mm-dd
# h:mm:ss, which Excel and LibreOffice (and so the .ods it converted) show as 2026-01-02 0:00:00,
# and a text field prints what the cell shows
YAML_SHOWN = YAML_PIECES.replace('released: "2026-01-02"', 'released: "2026-01-02 0:00:00"')
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
{{ textbox(piece.name ~ " " ~ piece.power ~ (" 熱" if piece.hot else " 冷"), 5, 5, w - 10, 12, size=10) }}
{{ textbox(piece.text ~ " " ~ (piece.released or "未発売"), 5, 30, w - 10, 20, size=9) }}
{% endblock %}
"""


def _xlsx() -> bytes:
    """The deck as an office user keeps it: booleans as =TRUE()/=FALSE() formulas (openpyxl saves
    no result: LibreOffice calculates them), a date cell, a text cell merged over two rows."""
    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["name", "text", "power", "hot", "released", "count"])
    ws.append(["祝福", "同じ本文", 3, "=TRUE()", dt.datetime(2026, 1, 2), 2])
    ws.append(["降臨", None, 5, "=FALSE()", dt.date(2026, 3, 4), None])
    ws.append(["天罰", "別の本文", 1, "=TRUE()", None, 3])
    ws.merge_cells("B2:B3")
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _libreoffice_ods(tmp_path: Path) -> bytes:
    """The .ods LibreOffice writes from _xlsx(), made here where LibreOffice is installed (the
    committed fixture is this very conversion, by LibreOffice 7.4)."""
    soffice = shutil.which("soffice")
    if soffice is None:
        return FIXTURE.read_bytes()
    folder = tmp_path / "lo"
    folder.mkdir()
    (folder / "libreoffice.xlsx").write_bytes(_xlsx())
    subprocess.run([soffice, f"-env:UserInstallation={(folder / 'profile').as_uri()}", "--headless",
                    "--convert-to", "ods", "--outdir", str(folder), str(folder / "libreoffice.xlsx")],
                   check=True, capture_output=True, timeout=120)
    return (folder / "libreoffice.ods").read_bytes()


def _ws(root: Path, pieces: str) -> Path:
    return make_workspace(root, deck=DECK + pieces, front=FRONT)


def _pieces(ws: Path):
    return [(p.values, p.count) for p in load_game(Workspace(ws), "test").deck("cards").pieces]


def test_libreoffice_ods_builds_byte_identical_to_its_yaml(tmp_path):
    data = _libreoffice_ods(tmp_path)
    assert b"of:=TRUE()" in _content(data)  # booleans as LibreOffice keeps them: formulas, value 1
    yaml_ws = _ws(tmp_path / "yaml", YAML_SHOWN)
    sheet_ws = _ws(tmp_path / "sheet", "pieces: {file: cards.ods}\n")
    (sheet_ws / "data" / "test" / "decks" / "cards.ods").write_bytes(data)
    assert _pieces(sheet_ws) == _pieces(yaml_ws)
    for ws in (yaml_ws, sheet_ws):
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    for name in ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf"):
        a, b = ((w / "build" / "test" / name).read_bytes() for w in (yaml_ws, sheet_ws))
        assert a == b, name


def _content(ods: bytes) -> bytes:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(ods)) as z:
        return z.read("content.xml")


def test_xlsx_booleans_dates_and_merged_cells_read_like_yaml(tmp_path):
    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["name", "text", "power", "hot", "released", "count"])
    ws.append(["祝福", "同じ本文", 3, 1, dt.datetime(2026, 1, 2), 2])  # Excel's TRUE() result kept as 1
    ws.append(["降臨", None, 5, 0, dt.datetime(2026, 3, 4, 0, 0), None])
    ws.append(["天罰", "別の本文", 1, True, None, 3])
    ws["E3"].number_format = "yyyy-mm-dd"  # shown as a date, without its time
    ws.merge_cells("B2:B3")
    sheet_ws = _ws(tmp_path / "sheet", "pieces: {file: cards.xlsx}\n")
    book.save(sheet_ws / "data" / "test" / "decks" / "cards.xlsx")
    assert _pieces(sheet_ws) == _pieces(_ws(tmp_path / "yaml", YAML_SHOWN))


def test_csv_dates_read_like_xlsx(tmp_path):
    csv_ws = _ws(tmp_path / "csv", "pieces: {file: cards.csv}\n")
    (csv_ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,text,power,hot,released,count\n祝福,同じ本文,3,TRUE,2026-01-02,2\n降臨,同じ本文,5,FALSE,2026-03-04,\n"
        "天罰,別の本文,1,true,,3\n", encoding="utf-8")
    assert _pieces(csv_ws) == _pieces(_ws(tmp_path / "yaml", YAML_PIECES))


@pytest.mark.parametrize("cell, why", [
    ("??", "B3 holds '??'"),  # the column has 同じ本文 elsewhere
    ("????", "B3 holds '????'"),
    ("\ufffd\ufffd本文", "B3 holds"),
])
def test_text_that_lost_its_characters_names_the_cell(tmp_path, capsys, cell, why):
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.csv}\n")
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        f"name,text,power,hot,count\n祝福,同じ本文,3,true,2\n降臨,{cell},5,false,\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "cards.csv:3:2:" in err and why in err and "UTF-8" in err


def test_a_question_mark_in_latin_text_is_text(tmp_path):
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.csv}\n")
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,text,power,hot,count\nWhy??,Really?? Yes.,3,true,2\n", encoding="utf-8")
    assert _pieces(ws)[0][0]["text"] == "Really?? Yes."


def test_a_heart_that_cp932_saved_as_one_question_mark_is_warned_at_its_cell(tmp_path):
    """trial63: Japanese Excel's CSV (CP932) has no ♥ and saves 「好きな動物を♥で表すと？」 as
    「好きな動物を?で…」: one "?", which no run of "??" shows, printed silently. It is warned at its
    cell, the others counted; a "?" after Latin text, or typed ？, is not."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.csv}\n")
    (ws / "data" / "test" / "decks" / "cards.csv").write_bytes(
        "name,text,power,hot,count\r\n祝福,動物を♥で表すと？,3,true,2\r\n降臨,本当?はい。,5,false,\r\n"
        "天罰,Why? 本文,1,true,\r\n".encode("cp932", errors="replace"))
    game = load_game(Workspace(ws), "test")
    assert game.deck("cards").pieces[0].values["text"] == "動物を?で表すと？"  # as Excel left it
    lost = [n for n in game.notes if "'?' between Japanese characters" in n]
    assert len(lost) == 1 and "cards.csv:2: cell B2" in lost[0] and "(動物を?で表すと)" in lost[0]
    assert "and 1 more cell:" in lost[0] and "CSV UTF-8" in lost[0]


def test_formula_without_a_saved_value_names_the_cell(tmp_path, capsys):
    book = openpyxl.Workbook()
    book.active.append(["name", "text", "power", "hot", "count"])
    book.active.append(["祝福", "本文", "=1+2", True, 2])  # openpyxl saves the formula, no result
    ws = _ws(tmp_path / "x", "pieces: {file: cards.xlsx}\n")
    book.save(ws / "data" / "test" / "decks" / "cards.xlsx")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert "cards.xlsx:2:3:" in err and "C2 is a formula with no saved value" in err and "save it" in err


def test_ods_formula_without_a_saved_value_names_the_cell(tmp_path, capsys):
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for row in (["name", "count"], ["祝福", None]):
        tr = TableRow()
        for v in row:
            if v is None:
                tr.addElement(TableCell(formula="of:=1+1"))
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=v))
                tr.addElement(cell)
        table.addElement(tr)
    ws = _ws(tmp_path / "o", "pieces: {file: cards.ods}\n")
    (ws / "data" / "test" / "decks" / "cards.ods").write_bytes(ods_of(table))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert "cards.ods:2:2:" in err and "B2 is a formula with no saved value" in err


def _ods_merged_down(rows: list[list], col: int, top: int, span: int) -> bytes:
    """``rows`` as an .ods whose cell (top, col) (1-based) is merged down ``span`` rows, the cells
    under it covered, as LibreOffice writes a merge (also in a row otherwise blank)."""
    from odf.table import CoveredTableCell, Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for r, row in enumerate(rows, 1):
        tr = TableRow()
        for c, value in enumerate(row, 1):
            if c == col and top < r < top + span:
                tr.addElement(CoveredTableCell())
                continue
            cell = TableCell() if value is None else TableCell(valuetype="string") if isinstance(value, str) \
                else TableCell(valuetype="float", value=str(value))
            if c == col and r == top:
                cell.setAttribute("numberrowsspanned", str(span))
            if value is not None:
                cell.addElement(P(text=str(value)))
            tr.addElement(cell)
        table.addElement(tr)
    return ods_of(table)


@pytest.mark.parametrize("ending", ["xlsx", "ods"])
def test_a_cell_merged_down_past_a_blank_row_gives_that_row_no_piece(tmp_path, ending):
    """English trial: a footer 'Base game' merged down C2:C6 over the blank row 4 between the
    pieces, and a cell merged below the last piece: a blank row is skipped, merged over or not;
    the pieces under the merge each take its value."""
    rows = [["name", "power", "text", "count"], ["祝福", 3, "同じ本文", 2], ["降臨", 5, None, None],
            [None, None, None, None], ["天罰", 1, None, 3], [None, None, None, None]]
    sheet_ws = _ws(tmp_path / "sheet", f"pieces: {{file: cards.{ending}}}\n")
    target = sheet_ws / "data" / "test" / "decks" / f"cards.{ending}"
    if ending == "xlsx":
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append(row)
        book.active.merge_cells("C2:C6")
        book.save(target)
    else:
        target.write_bytes(_ods_merged_down(rows, 3, 2, 5))
    assert [(v["name"], v["text"], n) for v, n in _pieces(sheet_ws)] == [
        ("祝福", "同じ本文", 2), ("降臨", "同じ本文", 1), ("天罰", "同じ本文", 3)]


def _ods_error_cell(rows: list[list], error: str) -> bytes:
    """``rows`` as LibreOffice saves them, with a last column of a formula that failed: its value
    0, ``calcext:value-type="error"`` and the error as the cell's text."""
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for r, row in enumerate(rows):
        tr = TableRow()
        for value in row:
            cell = TableCell(valuetype="string") if isinstance(value, str) else TableCell(valuetype="float", value=str(value))
            cell.addElement(P(text=str(value)))
            tr.addElement(cell)
        if r:
            cell = TableCell(valuetype="float", value="0", formula="of:=1/0")
            cell.setAttrNS("urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0", "value-type", "error")
            cell.addElement(P(text=error))
        else:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text="power"))
        tr.addElement(cell)
        table.addElement(tr)
    return ods_of(table)


@pytest.mark.parametrize("ending, error, said", [
    ("xlsx", "#REF!", "cell C3 holds #REF!, the error of a formula that failed (a reference to a cell, row or sheet "
     "that was deleted)"),
    ("xlsx", "#DIV/0!", "cell C3 holds #DIV/0!, the error of a formula that failed (a division by zero"),
    ("csv", "#N/A", "cell C3 holds #N/A, the error of a formula that failed (a lookup that found nothing)"),
    ("ods", "Err:502", "cell C3 holds Err:502, the error of a formula that failed"),
])
def test_a_formula_whose_saved_value_is_an_error_names_the_cell(tmp_path, capsys, ending, error, said):
    """English trial: a count or a number from a formula left #REF! read as an empty cell, and
    an error in a text column printed '#DIV/0!' on the card; each stops at the cell, no traceback."""
    rows = [["name", "text"], ["祝福", "本文"], ["降臨", "本文"]]
    ws = _ws(tmp_path / "ws", f"pieces: {{file: cards.{ending}}}\n")
    target = ws / "data" / "test" / "decks" / f"cards.{ending}"
    if ending == "xlsx":  # openpyxl writes '#REF!' as Excel saves a formula's error: a cell of type e
        book = openpyxl.Workbook()
        for n, row in enumerate(rows):
            book.active.append(row + (["power"] if n == 0 else [3 if n == 1 else error]))
        assert book.active["C3"].data_type == "e"
        book.save(target)
    elif ending == "csv":
        target.write_text(f"name,text,power\n祝福,本文,3\n降臨,本文,{error}\n", encoding="utf-8")
    else:
        target.write_bytes(_ods_error_cell(rows, error))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert f"cards.{ending}:{2 if ending == 'ods' else 3}:3: power (column C): " in err and "mend the formula" in err, err
    assert said.replace("C3", "C2" if ending == "ods" else "C3") in err, err


def test_a_sheet_without_its_header_row_is_told_so(tmp_path, capsys):
    """English trial: a sheet whose first row is already a piece was told "1 (column C): the same
    header twice" (its cost and value were both 1). Now: row 1 is no header row, and the fields."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.csv}\n")
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("祝福,同じ本文,3,3,true,2\n降臨,本文,5,5,false,1\n",
                                                               encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert ("cards.csv:1: row 1 is not a header row: none of its cells ('祝福', '同じ本文', '3', '3', …) names a "
            "field (expected a first row naming the fields, e.g. name, text, power, hot, released, count") in err, err


def test_capitalised_headers_name_their_fields(tmp_path, capsys):
    """English trial: a spreadsheet's headers written Title-case (Name, Text, Power, Count) were
    each an unknown key; they name the fields (a header naming none stays an error)."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.csv}\n")
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    sheet.write_text("Name,TEXT,Power,Hot,Count\n祝福,同じ本文,3,true,2\n降臨,同じ本文,5,false,\n天罰,別の本文,1,true,3\n",
                     encoding="utf-8")
    yaml_pieces = [(dict(v, released=None), n) for v, n in _pieces(_ws(tmp_path / "yaml", YAML_PIECES))]
    assert _pieces(ws) == [(v, n) for v, n in yaml_pieces], _pieces(ws)
    sheet.write_text("Name,Txet\n祝福,本文\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    assert "Txet (column B): unknown key in the header row; did you mean text?" in capsys.readouterr().err


@pytest.mark.parametrize("ending", ["xlsx", "ods"])
def test_a_number_in_a_text_field_prints_as_its_cell_shows_it(tmp_path, ending):
    """English trial: a card number typed 1 in a cell formatted 000 shows 001 in the office
    program and printed 1; a text field now takes the text the cell shows (001, 50%, $1,234),
    while a number field (power) and the count keep the number, however their cells are formatted."""
    ws = _ws(tmp_path / "ws", f"pieces: {{file: cards.{ending}}}\n")
    target = ws / "data" / "test" / "decks" / f"cards.{ending}"
    rows = [["name", "text", "power", "released", "count"], ["祝福", 1, 3, 0.5, 2], ["降臨", 1234, 5, 7, 3]]
    if ending == "xlsx":
        book = openpyxl.Workbook()
        sheet = book.active
        for row in rows:
            sheet.append(row)
        for cell, fmt in (("B2", "000"), ("B3", "$#,##0"), ("C2", "000"), ("D2", "0%"), ("D3", '"No. "00'), ("E2", "00")):
            sheet[cell].number_format = fmt
        buf = io.BytesIO()
        book.save(buf)
        target.write_bytes(buf.getvalue())
    else:
        from odf.table import Table, TableCell, TableRow
        from odf.text import P

        shows = {(2, 2): "001", (3, 2): "$1,234", (2, 3): "003", (2, 4): "50%", (3, 4): "No. 07", (2, 5): "02"}
        table = Table(name="cards")
        for r, row in enumerate(rows, 1):
            tr = TableRow()
            for c, value in enumerate(row, 1):
                cell = TableCell(valuetype="string") if isinstance(value, str) else \
                    TableCell(valuetype="float", value=str(value))
                cell.addElement(P(text=shows.get((r, c), str(value))))
                tr.addElement(cell)
            table.addElement(tr)
        target.write_bytes(ods_of(table))
    pieces = _pieces(ws)
    assert [(v["name"], v["text"], v["power"], v["released"], n) for v, n in pieces] == [
        ("祝福", "001", 3, "50%", 2), ("降臨", "$1,234", 5, "No. 07", 3)], pieces
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0


@pytest.mark.parametrize("value, fmt, text", [
    (1, "000", "001"), (0.125, "0.00", "0.13"), (0.5, "0%", "50%"), (0.125, "0.0%", "12.5%"), (1234, "#,##0", "1,234"),
    (1234.5, "$#,##0.00", "$1,234.50"), (5, '0"枚"', "5枚"), (1234.5, "[$€-407] #,##0.00", "€ 1,234.50"),
    (3, "General", None), (3, "m/d/yyyy", None), (-3, "0;(0)", None), (3, "##0.0E+0", None), (3, "[Red]0", None),
    # fractions as Excel finds them (the nearest with so many digits below the line), scientific
    (1.25, "# ?/?", "1 1/4"), (1.25, "?/?", "5/4"), (0.5, "# ?/?", "1/2"), (3, "# ?/?", "3"), (0, "# ?/?", "0"),
    (-1.25, "# ?/?", "-1 1/4"), (0.3333, "# ??/??", "1/3"), (3.14159, "# ???/???", "3 16/113"), (1.3, "# ?/8", "1 2/8"),
    (0.999, "# ?/?", "1"), (0.75, "0 ?/?", "0 3/4"), (45992, "0.00E+00", "4.60E+04"), (3, "0.0E+00", "3.0E+00"),
    (0.00012, "0.0E+0", "1.2E-4"), (9.996, "0.00E+00", "1.00E+01"), (0, "0.00E+00", "0.00E+00"),
    # beyond Python's default 28 digits: every digit, as Excel shows them (these stopped the build
    # with a traceback, decimal.InvalidOperation); infinity and 31 decimals are left alone
    (1e30, "0", "1" + "0" * 30), (12345678901234567890123456789, "#,##0", "12,345,678,901,234,567,890,123,456,789"),
    (1.5, "0." + "0" * 30, "1.5" + "0" * 29), (float("inf"), "0", None), (float("inf"), "# ?/?", None), (float("nan"), "0.00E+00", None), (1.5, "0." + "0" * 31, None),
])
def test_excel_number_formats_are_shown_as_excel_shows_them(value, fmt, text):
    """The common formats applied as Excel applies them (half away from zero: 0.125 → 0.13); any
    other format is left alone (None: the cell reads as its value)."""
    from pnpgen.data.numberformat import shown

    assert shown(value, fmt) == text


@pytest.mark.parametrize("value, fmt, text", [
    (dt.datetime(2025, 12, 1), "yyyy-mm-dd", "2025-12-01"), (dt.datetime(2025, 12, 1), "d/m", "1/12"),
    (dt.datetime(2025, 12, 1), 'yyyy"年"m"月"d"日"', "2025年12月1日"), (dt.datetime(2025, 12, 1), "mmm d, yyyy", "Dec 1, 2025"),
    (dt.datetime(2025, 12, 1), "dddd", "Monday"), (dt.datetime(2025, 12, 1), "yyyy/m/d (aaa)", "2025/12/1 (月)"),
    (dt.datetime(2025, 12, 1), "d-mmm-yy", "1-Dec-25"), (dt.datetime(2025, 12, 1), "[Red]yyyy\\-mm", "2025-12"),
    (dt.datetime(2025, 12, 1, 18, 5), "h:mm", "18:05"), (dt.datetime(2025, 12, 1, 18, 5), "m/d/yy h:mm AM/PM", "12/1/25 6:05 PM"),
    (dt.datetime(2025, 12, 1, 18, 5), 'h"時"mm"分"', "18時05分"), (dt.datetime(2026, 1, 2), "yyyy-mm-dd h:mm:ss", "2026-01-02 0:00:00"),
    (dt.time(6, 30, 15, 600000), "h:mm:ss", "6:30:16"), (dt.time(6, 30, 15, 600000), "h:mm:ss.0", "6:30:15.6"),
    (dt.timedelta(days=1, hours=2, minutes=3), "[h]:mm:ss", "26:03:00"), (dt.timedelta(minutes=75, seconds=3), "[mm]:ss", "75:03"),
    (dt.datetime(2025, 12, 1), '[$-411]ggge"年"m"月"d"日"', "令和7年12月1日"), (dt.datetime(2019, 4, 30), "[$-411]ge.m.d", "H31.4.30"),
    (dt.datetime(2019, 5, 1), '[$-411]gge"年"', "令1年"),
    (dt.datetime(2025, 12, 1), "General", None), (dt.datetime(2025, 12, 1), "yyyy-mm-dd xyz", None),
])
def test_excel_date_formats_are_shown_as_excel_shows_them(value, fmt, text):
    """Dates, times, elapsed times and Japanese eras as Excel shows them (English month and day
    names); a format with a letter Excel gives no meaning, or General, is left alone (None)."""
    from pnpgen.data.numberformat import shown_moment

    assert shown_moment(value, fmt) == text


@pytest.mark.parametrize("ending", ["xlsx", "ods"])
def test_a_date_or_fraction_in_a_text_field_prints_as_its_cell_shows_it(tmp_path, ending):
    """A date formatted m"月"d"日" printed 2025-12-01, a time printed 2025-12-01T18:05:00, a
    fraction 1.25: a text field now prints what the cell shows. The computer's own short date (Excel's when a date is
    typed) reads 2026-01-02, as before, having no one text."""
    ws = _ws(tmp_path / "ws", f"pieces: {{file: cards.{ending}}}\n")
    target = ws / "data" / "test" / "decks" / f"cards.{ending}"
    day, moment = dt.datetime(2025, 12, 1), dt.datetime(2025, 12, 1, 18, 5)
    cells = [("月日", day, 'm"月"d"日"', "12月1日"), ("時刻", moment, "h:mm", "18:05"), ("分数", 1.25, "# ?/?", "1 1/4"),
             ("英語", day, "d mmm yyyy", "1 Dec 2025"), ("和暦", day, '[$-411]ggge"年"m"月"d"日"', "令和7年12月1日"),
             ("年月日", day, 'yyyy"年"m"月"d"日"', "2025年12月1日"), ("日付", day, "mm-dd-yy", "2025-12-01")]
    if ending == "xlsx":
        book = openpyxl.Workbook()
        sheet = book.active
        sheet.append(["name", "released", "count"])
        for name, value, fmt, _ in cells:
            sheet.append([name, value, 1])
            sheet.cell(sheet.max_row, 2).number_format = fmt
        buf = io.BytesIO()
        book.save(buf)
        target.write_bytes(buf.getvalue())
    else:
        from odf.table import Table, TableCell, TableRow
        from odf.text import P

        table = Table(name="cards")
        for row in [("name", None, None, "released"), *cells]:
            tr = TableRow()
            name, value, _, text = row
            tr.addElement(TableCell(valuetype="string"))
            tr.lastChild.addElement(P(text=name))
            if isinstance(value, dt.datetime):
                cell = TableCell(valuetype="date", datevalue=value.isoformat())
            else:
                cell = TableCell(valuetype="float" if value is not None else "string", value=str(value))
            cell.addElement(P(text=text))  # as LibreOffice writes it: the text the cell shows
            tr.addElement(cell)
            table.addElement(tr)
        target.write_bytes(ods_of(table))
    shown = [text for *_, text in cells]
    if ending == "ods":
        shown[-1] = "2025-12-01"  # LibreOffice writes what it shows: here the text given
    assert [v["released"] for v, _ in _pieces(ws)] == shown
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0


def test_a_huge_number_formatted_in_a_text_field_builds(tmp_path, capsys):
    """A number of 31 digits in a cell formatted 0 (a hostile or careless sheet): a traceback
    before; now the text the cell shows."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.xlsx}\n")
    book = openpyxl.Workbook()
    sheet = book.active
    for row in (["name", "text"], ["祝福", 1e30]):
        sheet.append(row)
    sheet["B2"].number_format = "0"
    buf = io.BytesIO()
    book.save(buf)
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(buf.getvalue())
    assert [v["text"] for v, _ in _pieces(ws)] == ["1" + "0" * 30]


def test_a_workbook_without_formulas_is_read_once(tmp_path, monkeypatch):
    """Formulas are looked for in a second whole read of the workbook (openpyxl keeps either the
    saved values or the formulas): some 12 µs a cell, 24 s for a sheet of 9,000 × 200 cells. A
    workbook that holds no formula is read once; one that holds a formula still twice, so a
    formula with no saved value is still named (test above)."""
    loads = []
    real = openpyxl.load_workbook
    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: loads.append(k) or real(*a, **k))
    ws = _ws(tmp_path / "x", "pieces: {file: cards.xlsx}\n")
    for rows, expected in (([["name", "text", "power"], ["祝福", "本文", 3]], [{"data_only": True}]),
                           ([["name", "text", "power"], ["祝福", "本文", "=1+2"]], [{"data_only": True}, {}])):
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append(row)
        book.save(ws / "data" / "test" / "decks" / "cards.xlsx")
        loads.clear()
        if len(expected) == 1:
            _pieces(ws)
        else:
            with pytest.raises(InputError, match="C2 is a formula with no saved value"):
                _pieces(ws)
        assert loads == expected


def test_a_header_merged_over_the_next_column_says_so(tmp_path, capsys):
    """A header cell merged over two columns (a title spread over the text's column) gives both
    columns its name: the error said only 'the same header twice'; it names both cells and the
    merge, exit 2, one line."""
    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["name", "text", "power", "count"])
    ws.append(["祝福", "本文", 3, 2])
    ws.merge_cells("A1:B1")
    sheet_ws = _ws(tmp_path / "sheet", "pieces: {file: cards.xlsx}\n")
    book.save(sheet_ws / "data" / "test" / "decks" / "cards.xlsx")
    capsys.readouterr()
    assert run(sheet_ws, "check", "--game", "test") == 2
    assert capsys.readouterr().err.strip() == (
        "pnpgen: error: data/test/decks/cards.xlsx:1:2: name: the same header twice: B1 repeats A1 (a header cell "
        "merged across both columns names both) (expected each field in one column, headed in a cell of its own)")


def _workbook_of_three_decks() -> bytes:
    """One workbook, a sheet per card type, each list under a title merged across it, as a
    Japanese designer keeps one: ユニット, then スペル with its title two rows tall and a blank row under it."""
    book = openpyxl.Workbook()
    units = book.active
    units.title = "ユニット"
    units.append(["ユニットカード一覧　草案１"])
    units.merge_cells("A1:D1")
    units.append(["name", "text", "power", "count"])
    units.append(["炎の剣士", "登場時に１枚引く。", "３", "３"])
    units.append(["水鏡の巫女", "本文", 2, 2])
    spells = book.create_sheet("スペル")
    spells["A1"] = "スペルカード一覧"
    spells.merge_cells("A1:C2")
    for row, cells in enumerate([["name", "text", "count"], ["火球", "３ダメージ。", "２"], ["水流", "本文", "三"]], 4):
        for col, value in enumerate(cells, 1):
            spells.cell(row, col, value)  # row 3 left blank
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def test_a_title_row_merged_above_the_header_is_passed_over(tmp_path):
    """Japanese designer's trial: a sheet starting with its list's title merged across the
    columns stopped at 'row 1 is not a header row'; the header is
    the first row that names a field, the rows above it a title, and the pieces keep their rows."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.xlsx, sheet: ユニット}\n")
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(_workbook_of_three_decks())
    deck = load_game(Workspace(ws), "test").deck("cards")
    assert [(p.values["name"], p.values["power"], p.count) for p in deck.pieces] == [("炎の剣士", 3, 3), ("水鏡の巫女", 2, 2)]
    assert [p.where.line for p in deck.pieces] == [3, 4]


def test_a_mistake_in_a_workbook_of_several_decks_names_its_worksheet(tmp_path, capsys):
    """Three decks read one workbook, a worksheet each: 'cards.xlsx:6:3: count (column C)' did not
    say which worksheet's row 6; the worksheet a deck names is said with the column."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.xlsx, sheet: スペル}\n")
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(_workbook_of_three_decks())
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "cards.xlsx:6:3: count (column C) in worksheet スペル: count '三' is written in kanji" in err, err


def test_a_worksheet_two_decks_read_is_told_where_a_deck_names_no_sheet(tmp_path, capsys):
    """Japanese designer's trial: one workbook, a sheet per deck; the spells deck's sheet: left
    out read the units' worksheet (the first), and its cards printed twice under another deck's
    name, told only by the draft's count. A note at the deck's pieces: line; none when each names its own."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.xlsx, sheet: ユニット}\n")
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.xlsx").write_bytes(_workbook_of_three_decks())
    (decks / "spells.yaml").write_text(DECK + "pieces: {file: cards.xlsx}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    err = "".join(capsys.readouterr())
    assert ("spells.yaml:6:16: deck 'spells' names no sheet: and reads cards.xlsx's first worksheet, ユニット, "
            "which deck 'cards' reads too (expected the worksheet meant: pieces: {file: cards.xlsx, sheet: …})") in err, err
    assert "deck 'cards' names no sheet" not in err
    (decks / "spells.yaml").write_text(DECK + "pieces: {file: cards.xlsx, sheet: ユニット}\n", encoding="utf-8")  # meant
    assert run(ws, "check", "--game", "test") == 0
    assert "names no sheet" not in "".join(capsys.readouterr())


def test_a_warning_about_a_cell_of_a_workbook_of_several_decks_names_its_worksheet(tmp_path, capsys):
    """Errors said ``cards.xlsx:6:3: count (column C) in worksheet スペル``, warnings only
    ``cards.xlsx:2``: which of the workbook's sheets holds row 2? Warnings name it too."""
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.xlsx, sheet: スペル}\n")
    book = openpyxl.Workbook()
    book.active.title = "ユニット"
    book.active.append(["name", "text"])
    book.active.append(["炎の剣士", "本文"])
    spells = book.create_sheet("スペル")
    for row in (["name", "text", "power"], ["火球", "｛coin｝を得る", 1], ["水流", "本文", 2]):
        spells.append(row)
    buf = io.BytesIO()
    book.save(buf)
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(buf.getvalue())
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    err = capsys.readouterr().err
    assert "(火球, data/test/decks/cards.xlsx:2 in worksheet スペル) front: ｛coin｝ in full-width braces" in err, err


def _excel_saved_empty_texts(data: bytes, cells: tuple[str, ...]) -> bytes:
    """An .xlsx as Excel saves a formula whose result is the empty text (``=IF(…,2,"")`` for a row
    no branch gives a value): the cell typed str, its value element empty (openpyxl saves none)."""
    import re
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            part = zin.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                for cell in cells:
                    part = re.sub(rb'<c r="' + cell.encode() + rb'"[^>]*>(<f>.*?</f>)<v\s*/?>(?:</v>)?</c>',
                                  rb'<c r="' + cell.encode() + rb'" t="str">\1<v></v></c>', part)
            zout.writestr(info, part)
    return out.getvalue()


def test_a_count_formula_that_gave_nothing_is_warned_at_its_cell(tmp_path):
    """polish48: a count cell whose formula gave the empty text (an =IF with no branch for its row)
    printed 1 copy silently, as an empty count does; it still does, warned at the cell and worksheet.
    (Such a cell read as a formula with no saved value, an error, where Excel had saved it.) A text
    field's formula that gave nothing is an empty field, not told."""
    book = openpyxl.Workbook()
    book.active.title = "Cards"
    book.active.append(["name", "text", "power", "hot", "count"])
    book.active.append(["祝福", '=IF(A2="x","本文","")', 3, True, 2])
    book.active.append(["降臨", "本文", 5, False, '=IF(A3="祝福",2,"")'])
    book.active.append(["天罰", "本文", 1, True, '=IF(A4="祝福",2,"")'])
    buf = io.BytesIO()
    book.save(buf)
    ws = _ws(tmp_path / "ws", "pieces: {file: cards.xlsx}\n")
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(_excel_saved_empty_texts(buf.getvalue(),
                                                                                          ("B2", "E3", "E4")))
    game = load_game(Workspace(ws), "test")
    assert [p.count for p in game.deck("cards").pieces] == [2, 1, 1]
    assert "text" not in game.deck("cards").pieces[0].values or not game.deck("cards").pieces[0].values["text"]
    told = [n for n in game.notes if "gave nothing" in n]
    assert len(told) == 1, game.notes
    assert told[0].startswith(f"{ws / 'data/test/decks/cards.xlsx'}:3: cell E3 of worksheet 'Cards' (count) is a "
                              "formula that gave nothing (an empty text), and in 1 more row: 1 copy is printed"), told


def test_an_ods_count_formula_that_gave_nothing_is_warned_at_its_cell(tmp_path):
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for row in (["name", "count"], ["祝福", None], [None, None]):  # (a row of formulas filled down: no piece)
        tr = TableRow(numberrowsrepeated=20000) if row == [None, None] else TableRow()
        for v in row:
            cell = TableCell(valuetype="string", formula='of:=IF([.A2]="x";2;"")') if v is None \
                else TableCell(valuetype="string")
            cell.addElement(P(text=v or ""))
            tr.addElement(cell)
        table.addElement(tr)
    ws = _ws(tmp_path / "o", "pieces: {file: cards.ods}\n")
    (ws / "data" / "test" / "decks" / "cards.ods").write_bytes(ods_of(table))
    game = load_game(Workspace(ws), "test")
    assert [p.count for p in game.deck("cards").pieces] == [1]
    assert [n for n in game.notes if "cell B2 of worksheet 'cards' (count) is a formula that gave nothing" in n]
