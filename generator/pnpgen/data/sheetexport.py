"""A deck's pieces written out as a spreadsheet (``pnpgen export-sheet``) that a ``pieces: {file: …}``
deck reads back (data/spreadsheets.py) to the same pieces; a deck list's, its list (its source's
unique field and count), that ``list: {file: …}`` reads back (data/decklist.py)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from typing import Any

import yaml

from pnpgen.data.i18n import marker
from pnpgen.data.model import Deck, placeholder_said
from pnpgen.safetext import csv_cell


def export_sheet(deck: Deck, fmt: str, translated: Mapping[str, Deck] | None = None, default: str = "ja") -> bytes:
    """A deck's pieces as a spreadsheet a ``pieces: {file: …}`` deck reads back to the same pieces:
    one column per field in the deck's order, each followed by a ``<field>.<lang>`` column per
    language it is translated into (``translated``: the same deck loaded in that language; a
    text left untranslated there, marked in ``default``, is an empty cell), then ``count``, each
    headed as the deck's ``columns:`` maps the sheet it reads (``枚数``), else by its name; CSV in
    UTF-8 with a BOM (so Excel opens Japanese text right), or XLSX."""
    if deck.listed is not None and deck.unique is not None:  # a deck list: its list, as list: {file: …} reads it
        return _written([deck.unique, "count"], [[_out(p.values.get(deck.unique), fmt), p.count] for p in deck.pieces],
                        fmt, deck.id)
    fields = list(deck.pieces[0].values) if deck.pieces else []
    columns: list[tuple[str, list[Any]]] = []
    for f in fields:
        columns.append((f, [p.values.get(f) for p in deck.pieces]))
        for lang, other in sorted((translated or {}).items()):
            cells = _translations(deck, other, f, default, lang)
            if cells:
                columns.append((f"{f}.{lang}", cells))
    # headed as the deck's own sheet heads them, where its columns: maps them (カード名 for title)
    header = [deck.sheet_headers.get(name, name) for name, _ in columns] + [deck.sheet_headers.get("count", "count")]
    table = [[_out(cells[i], fmt) for _, cells in columns] + [p.count] for i, p in enumerate(deck.pieces)]
    return _written(header, table, fmt, deck.id)


def _written(header: list[Any], table: list[list[Any]], fmt: str, title: str) -> bytes:
    """A header row and its rows as a CSV (UTF-8 with a BOM) or an XLSX of one worksheet, ``title``."""
    if fmt == "csv":
        text = io.StringIO(newline="")
        writer = csv.writer(text, lineterminator="\r\n")
        writer.writerow([csv_cell(v) for v in header])  # a field named =HYPERLINK(…) too
        writer.writerows([csv_cell(v) for v in row] for row in table)  # read back by csv_text
        return ("\ufeff" + text.getvalue()).encode("utf-8")
    import openpyxl

    book = openpyxl.Workbook()
    ws = book.active
    ws.title = _sheet_title(title)
    for r, values in enumerate([header] + table, 1):
        for c, value in enumerate(values, 1):
            cell = ws.cell(row=r, column=c, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # always text, never a formula (=, +, -, @ …)
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _sheet_title(name: str) -> str:
    """``name`` as a worksheet's name Excel takes: none of []:*?/\\ (a deck file c[1].yaml ended
    export-sheet in openpyxl's ValueError traceback), at most 31 characters, no ' at either end,
    not History (Excel's own)."""
    title = re.sub(r"[\[\]:*?/\\]", "_", name)[:31].strip("'")
    return title if title and title.casefold() != "history" else "pieces"


def _translations(deck: Deck, other: Deck, field: str, default: str, lang: str) -> list[Any]:
    """Each piece's ``field`` as ``other`` (the deck loaded in ``lang``) prints it, where that is a
    translation: None (an empty cell, which reads back as "not translated yet") where it is the
    default text, as written, marked as missing (〔ja〕…) or a placeholder in ``lang``'s word (an
    art: 未定 is TBD there, but no translation: an art.en column of it gave every piece's picture
    a 〔ja〕-marked file name); an empty list when no piece has a translation (the field is not
    translated)."""
    missing = marker(default)

    def untranslated(mine: Any) -> tuple[str, ...]:
        return (mine, missing + mine, placeholder_said(mine, lang)) if isinstance(mine, str) else (mine, missing + str(mine))

    cells = [None if not isinstance(text := theirs.values.get(field), str) or text in untranslated(mine.values.get(field))
             else text for mine, theirs in zip(deck.pieces, other.pieces)]
    return cells if any(c is not None for c in cells) else []


def _plain(value: Any) -> Any:
    """Text as ``str`` (a list item remembers its field: data/model.py FieldText), for YAML."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return str(value) if isinstance(value, str) else value


def _out(value: Any, fmt: str) -> Any:
    """A field value as a cell: text as is, lists and mappings in YAML flow style."""
    if value is None:
        return None
    if isinstance(value, (list, dict)):
        return yaml.safe_dump(_plain(value), default_flow_style=True, allow_unicode=True, width=10**6).strip()
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool) and fmt == "csv":
        return "true" if value else "false"
    return value
