"""A workbook whose worksheets are several decks' (``pieces: {file: cards.xlsx, sheet: …}``) is
parsed once per loading of the game, not once per deck, and a worksheet read before (the same
content) comes back from the machine's cache: a ``check`` after a build parses no workbook. The
cells come back as they were read (a number as its cell shows it, a date), and a mistake in one
is told at its file, worksheet, row and column all the same."""

from __future__ import annotations

import datetime as dt
import io

import openpyxl
import pytest

from conftest import make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from workbooks import ods_of

DECK = """\
name: {name}
format: poker
front: card-front.svg.j2
fields: {{name: text, number: text, released: text, power: int}}
pieces: {{file: cards.{suffix}, sheet: {sheet}}}
"""
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ textbox(piece.name ~ " " ~ piece.number ~ " " ~ piece.power, 5, 5, w - 10, 12, size=10) }}
{% endblock %}
"""
SHEETS = {"Units": [("剣士", 1, dt.datetime(2026, 1, 2), 3, 2), ("巫女", 2, None, 2, None)],
          "Spells": [("火球", 3, dt.datetime(2026, 12, 1), 5, 1)],
          "Items": [("盾", 4, None, 1, 3)]}


def _xlsx(power: str | int = 5) -> bytes:
    """Three worksheets, a deck each, each under a title merged across it; a card number formatted
    000 (a text field prints 001) and a date formatted m"月"d"日"."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in SHEETS.items():
        ws = book.create_sheet(name)
        ws.append([f"{name} 一覧"])
        ws.merge_cells("A1:E1")
        ws.append(["name", "number", "released", "power", "count"])
        for row in rows:
            ws.append(list(row) if name != "Spells" else [*row[:3], power, row[4]])
        for r in range(3, ws.max_row + 1):
            ws.cell(r, 2).number_format = "000"
            ws.cell(r, 3).number_format = 'm"月"d"日"'
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _ods() -> bytes:
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    tables = []
    for name, rows in SHEETS.items():
        tables.append(Table(name=name))
        for values in [("name", "number", "released", "power", "count"), *rows]:
            tr = TableRow()
            for value in values:
                if value is None or isinstance(value, dt.datetime):
                    tr.addElement(TableCell())
                    continue
                cell = TableCell(valuetype="float", value=value) if isinstance(value, int) else TableCell(valuetype="string")
                cell.addElement(P(text=f"{value:03d}" if isinstance(value, int) and value == values[1] else str(value)))
                tr.addElement(cell)
            tables[-1].addElement(tr)
    return ods_of(*tables)


def _workspace(root, suffix: str, data: bytes):
    ws = make_workspace(root, deck=DECK.format(name="ユニット", suffix=suffix, sheet="Units"), front=FRONT)
    decks = ws / "data" / "test" / "decks"
    for deck, sheet in (("spells", "Spells"), ("items", "Items")):
        (decks / f"{deck}.yaml").write_text(DECK.format(name=sheet, suffix=suffix, sheet=sheet), encoding="utf-8")
    (decks / f"cards.{suffix}").write_bytes(data)
    return ws


def _opened(monkeypatch, suffix: str) -> list[int]:
    """Counts each parse of a workbook (openpyxl's values, or odfpy's document)."""
    parsed: list[int] = []
    if suffix == "xlsx":
        real = openpyxl.load_workbook

        def load_workbook(*args, **kwargs):
            parsed.append(1)
            return real(*args, **kwargs)

        monkeypatch.setattr(openpyxl, "load_workbook", load_workbook)
    else:
        import odf.opendocument

        real_load = odf.opendocument.load

        def load(*args, **kwargs):
            parsed.append(1)
            return real_load(*args, **kwargs)

        monkeypatch.setattr(odf.opendocument, "load", load)
    return parsed


def _decks(ws) -> list[tuple]:
    game = load_game(Workspace(ws), "test")
    return [(d.id, [(p.values["name"], p.values["number"], p.values["released"], p.values["power"], p.count,
                     p.where.line) for p in d.pieces]) for d in game.decks]


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_a_workbook_of_three_decks_is_parsed_once_then_kept(tmp_path, monkeypatch, suffix):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    ws = _workspace(tmp_path / "ws", suffix, _xlsx() if suffix == "xlsx" else _ods())
    parsed = _opened(monkeypatch, suffix)
    first = _decks(ws)
    assert len(parsed) == 1  # three decks, one parse (was three)
    assert [d for d, _ in first] == ["cards", "items", "spells"]
    units = dict(first)["cards"]
    if suffix == "xlsx":  # as the cells show them, the rows below the merged title
        assert units == [("剣士", "001", "1月2日", 3, 2, 3), ("巫女", "002", None, 2, 1, 4)]
    else:
        assert units == [("剣士", "001", None, 3, 2, 2), ("巫女", "002", None, 2, 1, 3)]
    assert _decks(ws) == first  # read again: from the machine's cache, the same values
    assert len(parsed) == 1
    monkeypatch.setenv("PNPGEN_CACHE", "off")  # nothing kept: parsed once per loading all the same
    assert _decks(ws) == first
    assert len(parsed) == 2


def test_a_mistake_read_from_the_kept_rows_names_its_worksheet_row_and_column(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    ws = _workspace(tmp_path / "ws", "xlsx", _xlsx(power="三"))
    parsed = _opened(monkeypatch, "xlsx")
    said = []
    for _ in range(2):  # parsed, then from the machine's cache: told alike
        assert run(ws, "check", "--game", "test") == 2
        said.append(capsys.readouterr().err.strip())
    assert len(parsed) == 1
    assert said[0] == said[1] and len(said[0].splitlines()) == 1, said
    assert "cards.xlsx:3:4: power (column D) in worksheet Spells:" in said[0], said[0]


def _roles_and_roles() -> bytes:
    """A workbook holding worksheets ``Roles`` and ``roles`` (names Excel takes for one, which
    another program wrote): openpyxl reads the second as ``roles1``."""
    import zipfile

    book = openpyxl.Workbook()
    book.active.title = "Roles"
    second = book.create_sheet("rolesX")
    for ws, name in ((book.active, "人狼"), (second, "村人")):
        ws.append(["name", "number", "released", "power", "count"])
        ws.append([name, 1, None, 2, 1])
    buf, out = io.BytesIO(), io.BytesIO()
    book.save(buf)
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w") as dst:
        for part in src.namelist():
            data = src.read(part)
            dst.writestr(part, data.replace(b'name="rolesX"', b'name="roles"') if part == "xl/workbook.xml" else data)
    return out.getvalue()


def test_worksheets_whose_names_differ_in_case_alone_are_named_as_the_workbook_writes_them(tmp_path, capsys):
    """openpyxl renames a second worksheet ``roles`` beside ``Roles`` to ``roles1``: ``sheet:
    roles`` was "no worksheet 'roles' (expected one of Roles, roles1)", naming a sheet the designer
    never wrote. The worksheets are named as the workbook writes them: ``roles`` is read, and a
    name that is none lists ``Roles, roles``."""
    ws = make_workspace(tmp_path / "ws", deck=DECK.format(name="役職", suffix="xlsx", sheet="roles"), front=FRONT)
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(_roles_and_roles())
    game = load_game(Workspace(ws), "test")
    assert [p.values["name"] for p in game.decks[0].pieces] == ["村人"]
    assert game.decks[0].worksheet is not None and game.decks[0].worksheet[1] == "roles"
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(DECK.format(name="役職", suffix="xlsx", sheet="role"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "no worksheet 'role' in cards.xlsx" in err and "(expected one of Roles, roles)" in err and "roles1" not in err, err


def _chart_first() -> bytes:
    """A workbook whose first sheet is a chart sheet (a chart given a tab of its own, before the
    worksheets it plots): openpyxl's ``sheetnames`` lists it, its ``worksheets`` do not."""
    from openpyxl.chart import BarChart, Reference

    book = openpyxl.Workbook()
    units = book.active
    units.title = "Units"
    units.append(["name", "number", "released", "power", "count"])
    units.append(["剣士", 1, None, 3, 2])
    chart = BarChart()
    chart.add_data(Reference(units, min_col=4, min_row=1, max_row=2), titles_from_data=True)
    book.create_chartsheet("Chart", 0).add_chart(chart)
    book.create_sheet("Notes").append(["memo"])
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def test_a_chart_sheet_before_the_worksheets_does_not_shift_which_worksheet_is_read(tmp_path, capsys):
    """A chart sheet first made ``sheet: Units`` read Notes (indexes of the names counted the
    chart, those of the worksheets did not) and ``sheet: Notes`` fail as "list index out of range"."""
    ws = make_workspace(tmp_path / "ws", deck=DECK.format(name="兵", suffix="xlsx", sheet="Units"), front=FRONT)
    (ws / "data" / "test" / "decks" / "cards.xlsx").write_bytes(_chart_first())
    game = load_game(Workspace(ws), "test")
    assert [p.values["name"] for p in game.decks[0].pieces] == ["剣士"]
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(DECK.format(name="兵", suffix="xlsx", sheet="Chart"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    # (it said "no worksheet 'Chart'", of a sheet the workbook has: hostile36)
    assert "'Chart' is a chart sheet (a chart with no cells) in cards.xlsx (expected the worksheet holding the " \
        "pieces, one of Units, Notes)" in err and err.count("\n") == 1, err
