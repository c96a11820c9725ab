"""A number in a spreadsheet cell as the office program shows it: a card number typed 1 in a cell
formatted ``000`` shows 001 there, and a text field prints what the designer sees, not the raw 1.

An .ods cell keeps the text it shows beside its value (LibreOffice writes both); an .xlsx cell keeps
only its value and a number format, so the common formats are applied here, as Excel applies
them (ECMA-376 Part 1, 18.8.31 numFmts): zero-padded (``000``), fixed decimals (``0.00``),
thousands separators (``#,##0``), percent (``0%``), with literal text or a currency sign around
the number (``"No. "000``, ``$#,##0``, ``¥#,##0``, ``0"枚"``, ``[$€-407] #,##0.00``). Any other
format (dates, times, fractions, scientific, colours and conditions) is left alone: the cell reads
as its value, as before."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

MAX_DECIMALS = 30  # the most decimal places an Excel number format shows

_CURRENCY_CODE = re.compile(r"\[\$([^\]\-]*)(?:-[0-9A-Fa-f]+)?\]")  # [$$-409], [$€-407], [$¥-411]
_LITERAL = r'(?:"[^"]*"|\\.|[$¥€£ ])*'
_FORMAT = re.compile(rf"({_LITERAL})([#0,]*0(?:\.0+)?)(%?)({_LITERAL})")


class ShownInt(int):
    """A whole number and the text its cell shows (``shown``)."""

    shown: str


class ShownFloat(float):
    """A number and the text its cell shows (``shown``)."""

    shown: str


def with_shown(value: int | float, text: str) -> int | float:
    """``value`` carrying the text its cell shows, when that text is not simply the value's own."""
    if text == str(value) or not text:
        return value
    out: ShownInt | ShownFloat = ShownInt(value) if isinstance(value, int) else ShownFloat(value)
    out.shown = text
    return out


def shown(value: int | float, number_format: str) -> str | None:
    """``value`` as Excel shows it under ``number_format``, or None for a format not listed above
    (and for General, which shows the value as it is)."""
    fmt = number_format.strip()
    if not fmt or fmt.lower() == "general" or fmt == "@":
        return None
    if value < 0 and ";" in fmt:  # a negative number's own section ((0), red): left alone
        return None
    fmt = _CURRENCY_CODE.sub(lambda m: f'"{m.group(1)}"', fmt.split(";")[0])
    m = _FORMAT.fullmatch(fmt)
    if m is None:
        return None
    prefix, body, percent, suffix = m.groups()
    whole_part, _, decimals = body.partition(".")
    if len(decimals) > MAX_DECIMALS or not math.isfinite(value):
        return None
    with localcontext() as exact:  # every digit kept: 1e30 formatted 0 is 31 digits (the default 28 raised)
        number = Decimal(repr(value))  # (exact, whatever the precision)
        exact.prec = max(exact.prec, number.adjusted() + len(decimals) + 5)
        number *= 100 if percent else 1
        text = f"{abs(number.quantize(Decimal(1).scaleb(-len(decimals)), rounding=ROUND_HALF_UP)):f}"
    whole, _, fraction = text.partition(".")
    whole = f"{int(whole):,}" if "," in whole_part else whole.zfill(whole_part.count("0"))
    sign = "-" if number < 0 else ""
    return _literal(prefix) + sign + whole + (f".{fraction}" if decimals else "") + percent + _literal(suffix)


def _literal(part: str) -> str:
    """A format's literal text: quoted text, an escaped character, a currency sign or a space."""
    return re.sub(r'"([^"]*)"|\\(.)', lambda m: m.group(1) if m.group(1) is not None else m.group(2), part)
