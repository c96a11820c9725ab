"""Spreadsheet files made in memory for the tests: an .xlsx (openpyxl) and an .ods (odfpy) of
rows of plain values — None an empty cell, a bool a boolean cell, a number a float cell, text a
string cell (one paragraph per line)."""

from __future__ import annotations

import io


def xlsx_bytes(rows: list[list]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def ods_bytes(rows: list[list], spare_rows: int = 0) -> bytes:
    """``spare_rows``: empty rows after the data, as a spreadsheet program leaves them."""
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    table = Table(name="cards")
    for row in rows:
        tr = TableRow()
        for v in row:
            if v is None:
                tr.addElement(TableCell())
                continue
            if isinstance(v, bool):
                cell = TableCell(valuetype="boolean", booleanvalue="true" if v else "false")
                lines = ["TRUE" if v else "FALSE"]
            elif isinstance(v, (int, float)):
                cell, lines = TableCell(valuetype="float", value=str(v)), [str(v)]
            else:
                cell, lines = TableCell(valuetype="string"), str(v).split("\n")
            for line in lines:
                cell.addElement(P(text=line))
            tr.addElement(cell)
        table.addElement(tr)
    if spare_rows:
        table.addElement(TableRow(numberrowsrepeated=str(spare_rows)))
    return ods_of(table)


def ods_of(*tables) -> bytes:
    """An .ods holding ``tables`` (odfpy ``Table``s, however their cells are made), a sheet each."""
    from odf.opendocument import OpenDocumentSpreadsheet

    doc = OpenDocumentSpreadsheet()
    for table in tables:
        doc.spreadsheet.addElement(table)
    buf = io.BytesIO()
    doc.write(buf)
    return buf.getvalue()
