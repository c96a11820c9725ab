"""The two order.csv files, what a designer orders from a print shop, in one CSV dialect.

- ``shop/order.csv`` of ``pnpgen build`` (``BUILD_ORDER_COLUMNS``): a row per distinct face of
  the unique-faces files, with the page it is on.
- ``order.csv`` of ``pnpgen export`` (``EXPORT_ORDER_COLUMNS``, one ``OrderRow`` a line): a row
  per distinct front of the preset's files, its pages and its back's page, then a row per deck
  left out (docs/exports.md).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pnpgen.safetext import csv_cell

BUILD_ORDER_COLUMNS = ("file", "page", "deck", "piece", "name", "quantity")  # pnpgen build: shop/order.csv
EXPORT_ORDER_COLUMNS = ("file", "pages", "back", "deck", "piece", "name", "quantity", "note", "die")  # pnpgen export


@dataclass(frozen=True)
class OrderRow:
    """One line of an export's order.csv (docs/exports.md says what each column holds)."""

    file: str
    pages: str
    back: str
    deck: str
    piece: int | str  # the piece's number in its deck; empty on a left-out deck's row
    name: str
    quantity: int
    note: str = ""
    die: str = ""  # the file of the row's cut line, beside ``file`` (a die-cut deck's <deck>-die.pdf)


def order_csv(columns: Sequence[str], rows: Iterable[Sequence]) -> bytes:
    """An order.csv as a designer opens it in Excel: UTF-8 with a BOM (without one Excel garbles
    the Japanese), CRLF line ends. The build's shop/order.csv and every export's order.csv."""
    text = io.StringIO(newline="")
    out = csv.writer(text, lineterminator="\r\n")
    out.writerow(columns)
    out.writerows([csv_cell(v) for v in row] for row in rows)  # a name like =HYPERLINK(…) stays text
    return ("\ufeff" + text.getvalue()).encode("utf-8")
