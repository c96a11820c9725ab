"""A spreadsheet of a few kilobytes can merge (or link) a range of billions of cells: openpyxl
made an object for each cell a merged range covers (a 5 kB .xlsx merging A3:XFD1048576 took 3 GB
and 40 s, then ended with Python's own noise, exit 1), and pnpgen filled every merged cell of an
.ods or .xlsx with its value, range after range. All the ranges of a sheet together may cover at
most as many cells as a sheet within the limits holds; more is one line naming the file, exit 2."""

from __future__ import annotations

import io
import zipfile

import pytest

from conftest import DECK_YAML, make_workspace, run
from workbooks import ods_bytes, ods_of, xlsx_bytes

ROWS = [["name", "text"], ["火球", "燃やす"]]


def _xlsx_with(after_sheet_data: str) -> bytes:
    """The small workbook with ``after_sheet_data`` written into its sheet after the cells."""
    src = zipfile.ZipFile(io.BytesIO(xlsx_bytes(ROWS)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</sheetData>", b"</sheetData>" + after_sheet_data.encode())
            out.writestr(item, data)
    return buf.getvalue()


def _swapped(old: bytes, new: bytes) -> bytes:
    """The small workbook with ``old`` in its sheet's XML replaced by ``new``."""
    src = zipfile.ZipFile(io.BytesIO(xlsx_bytes(ROWS)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            out.writestr(item, data.replace(old, new, 1) if item.filename == "xl/worksheets/sheet1.xml" else data)
    return buf.getvalue()


def _ods_spanning(rows: int, first: str = "10000") -> bytes:
    """An .ods of ``rows`` pieces, each one's name cell merged over 10,000 rows and 200 columns
    (the first one's over ``first`` rows)."""
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for values in [["name", "text"]] + [[f"札{i}", "本文"] for i in range(rows)]:
        tr = TableRow()
        for n, v in enumerate(values):
            spans = {"numberrowsspanned": first if v == "札0" else "10000", "numbercolumnsspanned": "200"} \
                if n == 0 and v != "name" else {}
            cell = TableCell(valuetype="string", **spans)
            cell.addElement(P(text=v))
            tr.addElement(cell)
        table.addElement(tr)
    return ods_of(table)


CASES = {
    "one merge over the whole sheet": ("xlsx", lambda: _xlsx_with('<mergeCells count="1"><mergeCell ref="A3:XFD1048576"/>'
                                                                 "</mergeCells>")),
    "many merges within the limits": ("xlsx", lambda: _xlsx_with(
        '<mergeCells count="3000">' + '<mergeCell ref="A3:GR10000"/>' * 3000 + "</mergeCells>")),
    "a link over the whole sheet": ("xlsx", lambda: _xlsx_with(
        '<hyperlinks><hyperlink ref="A3:XFD1048576" location="Sheet!A1" display="x"/></hyperlinks>')),
    "ods cells spanning the sheet": ("ods", lambda: _ods_spanning(20)),
    # written backwards, a range counted negative and cancelled the others: minutes, gigabytes
    "merges cancelled by a link written backwards": ("xlsx", lambda: _xlsx_with(
        '<mergeCells count="2">' + '<mergeCell ref="A3:GR10000"/>' * 2 + "</mergeCells>"
        '<hyperlinks><hyperlink ref="A10000:GR1" location="Sheet!A1" display="x"/></hyperlinks>')),
    "merges cancelled by a merge written backwards": ("xlsx", lambda: _xlsx_with(
        '<mergeCells count="3">' + '<mergeCell ref="A3:GR10000"/>' * 2 + '<mergeCell ref="A10000:GR1"/></mergeCells>')),
}


def test_an_ods_span_of_negative_rows_is_one_line(tmp_path, capsys):
    """number-rows-spanned="-10000" counted -2,000,000 cells against the limit: the spans after it
    filled millions of cells (a 2.7 kB .ods took 45 s)."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.ods}\n"))
    (ws / "data/test/decks/cards.ods").write_bytes(_ods_spanning(2, first="-10000"))
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.ods" in err and "count of rows or columns of -10000" in err, err


@pytest.mark.parametrize("case", sorted(CASES))
def test_ranges_covering_more_cells_than_a_sheet_holds_are_one_line(tmp_path, capsys, case):
    suffix, make = CASES[case]
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", f"pieces: {{file: cards.{suffix}}}\n"))
    book = ws / f"data/test/decks/cards.{suffix}"
    book.write_bytes(make())
    assert book.stat().st_size < 100_000
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "Exception" not in err, err
    assert f"cards.{suffix}" in err and "merged cells cover" in err and "limit for spreadsheets" in err, err


def test_a_merged_header_still_reads(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    (ws / "data/test/decks/cards.xlsx").write_bytes(_xlsx_with('<mergeCells count="1"><mergeCell ref="B2:B3"/>'
                                                               "</mergeCells>"))
    assert run(ws, "list") == 0, capsys.readouterr().err


def test_a_csv_of_millions_of_empty_lines_is_refused_at_the_first_row_past_the_limit(tmp_path, capsys, monkeypatch):
    """15 MB of line feeds (under the 20 MB limit) are 15 million rows: all were read (2.6 GB,
    18 s) before they were counted."""
    import csv

    import pnpgen.data.workbooks as sheets

    read = []
    real = csv.reader

    class Counted:
        """csv.reader, counting the rows it hands out."""

        def __init__(self, *args, **kwargs):
            self.reader = real(*args, **kwargs)

        def __iter__(self):
            return self

        def __next__(self):
            row = next(self.reader)
            read.append(1)
            return row

        @property
        def line_num(self):
            return self.reader.line_num

    counted = Counted

    monkeypatch.setattr(sheets.csv, "reader", counted)
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n"))
    (ws / "data/test/decks/cards.csv").write_text("name,text\n" + "\n" * 15_000_000, encoding="utf-8")
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.csv" in err and "more than 10,001 rows" in err, err
    assert len(read) <= sheets.MAX_ROWS + 1


@pytest.mark.parametrize("suffix, part", [("xlsx", "xl/worksheets/sheet1.xml"), ("ods", "content.xml")])
@pytest.mark.parametrize("doctype", [
    b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname">]>',  # reads another file into a cell
    b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',  # expands
])
def test_a_spreadsheet_declaring_xml_entities_is_refused_before_it_is_parsed(tmp_path, capsys, suffix, part, doctype):
    """It said "Unable to read workbook: … Please see the excep…" or "EntitiesForbidden(name='e', …)",
    and only because defusedxml, which pnpgen does not require, was installed."""
    import re

    made = (xlsx_bytes if suffix == "xlsx" else ods_bytes)([["name", "text"], ["A", "本文"]])
    with zipfile.ZipFile(io.BytesIO(made)) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts[part] = re.sub(rb"^(<\?xml[^>]*\?>)?", lambda m: (m.group(0) or b"") + doctype, parts[part], count=1)
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", f"pieces: {{file: cards.{suffix}}}\n"))
    with zipfile.ZipFile(ws / f"data/test/decks/cards.{suffix}", "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    assert run(ws, "list") == 2
    assert capsys.readouterr().err == (
        f"pnpgen: error: data/test/decks/cards.{suffix}: its part {part} declares XML entities (a DOCTYPE), which no "
        "spreadsheet program writes (expected the file saved again by a spreadsheet program (entities are how a "
        "crafted file reads other files or expands to gigabytes))\n")


def test_an_ods_of_millions_of_elements_is_refused_before_odfpy_reads_it(tmp_path, capsys, monkeypatch):
    """odfpy builds an object of every XML element: 200 kB zipped of empty cells (81 MB, 3 million
    elements) ran for over five minutes and took gigabytes. Counted first, they are one line."""
    import odf.opendocument

    def never(*args, **kwargs):
        raise AssertionError("odfpy read an .ods over the limit")

    made = ods_bytes(ROWS)
    with zipfile.ZipFile(io.BytesIO(made)) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    at = parts["content.xml"].index(b"</table:table-row>")
    parts["content.xml"] = parts["content.xml"][:at] + b"<table:covered-table-cell/>" * 600_000 + parts["content.xml"][at:]
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.ods}\n"))
    with zipfile.ZipFile(ws / "data/test/decks/cards.ods", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    assert (ws / "data/test/decks/cards.ods").stat().st_size < 100_000
    monkeypatch.setattr(odf.opendocument, "load", never)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.ods" in err and "XML elements" in err and "at most 500,000" in err, err


def _xlsx_parts() -> dict[str, bytes]:
    """The small test book's parts by name, to make a crafted one of."""
    with zipfile.ZipFile(io.BytesIO(_xlsx_with(""))) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def _checked_unread(tmp_path, monkeypatch, capsys, parts: dict[str, bytes]) -> str:
    """``check`` of a workspace whose deck reads the .xlsx of ``parts``, openpyxl made to fail the
    test if it is reached: the one line of stderr."""
    import openpyxl

    def never(*args, **kwargs):
        raise AssertionError("openpyxl read an .xlsx over the limit")

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    with zipfile.ZipFile(ws / "data/test/decks/cards.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    monkeypatch.setattr(openpyxl, "load_workbook", never)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx" in err, err
    return err


def test_an_xlsx_of_millions_of_cells_is_refused_before_openpyxl_reads_it(tmp_path, capsys, monkeypatch):
    """openpyxl makes an object of every cell of every worksheet before a sheet's size is known:
    11 MB of empty cells (30,000 rows of 200) took 3 minutes and 2.4 GB to be told "more than
    10,001 rows". Counted first (here 2,100,000 cells, with the sheet's 4 and the 319 elements of its other parts), one line."""
    row = b"".join(b'<c r="%s1"/>' % letter for letter in (b"A", b"B", b"C", b"D", b"E", b"F", b"G")) * 30
    parts = _xlsx_parts()
    sheet = parts["xl/worksheets/sheet1.xml"]
    at = sheet.index(b"</sheetData>")
    parts["xl/worksheets/sheet1.xml"] = sheet[:at] + (b'<row r="3">' + row + b"</row>") * 10_000 + sheet[at:]
    err = _checked_unread(tmp_path, monkeypatch, capsys, parts)
    assert "holds 2,100,323 cells" in err, err


def test_an_xlsx_of_millions_of_shared_strings_is_refused_before_openpyxl_reads_it(tmp_path, capsys, monkeypatch):
    """5 million shared strings (211 kB zipped) took openpyxl 2 minutes and half a gigabyte, however
    few cells use them: the elements of the parts besides the worksheets count with the cells."""
    parts = _xlsx_parts()
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(b"</Relationships>", (
        b'<Relationship Id="rIdSS" Target="sharedStrings.xml" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/sharedStrings"/></Relationships>'))
    parts["xl/sharedStrings.xml"] = (b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
                                     b'spreadsheetml/2006/main">' + b"<si><t>x</t></si>" * 1_100_000 + b"</sst>")
    err = _checked_unread(tmp_path, monkeypatch, capsys, parts)
    assert "cells (with its texts and styles)" in err and "limit for spreadsheets" in err, err


@pytest.mark.parametrize("book", [
    lambda: _xlsx_with('<mergeCells count="1"><mergeCell ref="3:5"/></mergeCells>'),  # openpyxl's TypeError
    lambda: _swapped(b'<c r="A1"', b'<c r="A1" s="99999"'),  # a style there is not: IndexError
])
def test_an_xlsx_openpyxl_cannot_read_is_one_line_not_a_traceback(tmp_path, capsys, book):
    """What no spreadsheet program writes (a merged range of whole rows, a cell's style that is
    not there) ended in openpyxl's TypeError or IndexError and a traceback, exit 1."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    (ws / "data/test/decks/cards.xlsx").write_bytes(book())
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx: cannot read the spreadsheet" in err and "Traceback" not in err, err


def test_an_ods_text_of_a_billion_spaces_is_refused_before_odfpy_writes_them_out(tmp_path, capsys, monkeypatch):
    """<text:s text:c="999999999"/> is a billion spaces, which odfpy's reader wrote out (1 GB, 5 s;
    a few of them in a cell took all the memory). Each space counts as an element."""
    import odf.opendocument

    def never(*args, **kwargs):
        raise AssertionError("odfpy read an .ods over the limit")

    with zipfile.ZipFile(io.BytesIO(ods_bytes(ROWS))) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts["content.xml"] = parts["content.xml"].replace(b"<text:p>", b'<text:p><text:s text:c="999999999"/>', 1)
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.ods}\n"))
    with zipfile.ZipFile(ws / "data/test/decks/cards.ods", "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    monkeypatch.setattr(odf.opendocument, "load", never)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.ods" in err and "at most 500,000" in err, err


def test_an_ods_date_cell_without_its_date_is_one_line_not_a_traceback(tmp_path, capsys):
    """office:value-type="date" with no office:date-value ended in odfpy's TypeError, exit 1."""
    with zipfile.ZipFile(io.BytesIO(ods_bytes([["name", "text"], ["火球", 3.5]]))) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts["content.xml"] = parts["content.xml"].replace(b'office:value-type="float" office:value="3.5"',
                                                        b'office:value-type="date"', 1)
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("pieces:\n", "pieces: {file: cards.ods}\n"))
    with zipfile.ZipFile(ws / "data/test/decks/cards.ods", "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.ods: cannot read the spreadsheet" in err and "Traceback" not in err, err
