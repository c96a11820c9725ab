"""A number in a spreadsheet cell as the office program shows it: a card number typed 1 in a cell
formatted ``000`` shows 001 there, and a text field prints what the designer sees, not the raw 1.

An .ods cell keeps the text it shows beside its value (LibreOffice writes both); an .xlsx cell keeps
only its value and a number format, so the common formats are applied here, as Excel applies
them (ECMA-376 Part 1, 18.8.31 numFmts): zero-padded (``000``), fixed decimals (``0.00``),
thousands separators (``#,##0``), percent (``0%``), with literal text or a currency sign around
the number (``"No. "000``, ``$#,##0``, ``¥#,##0``, ``0"枚"``, ``[$€-407] #,##0.00``); fractions
(``# ?/?``: 1 1/4), scientific (``0.00E+00``: 4.60E+04); dates and times (``yyyy"年"m"月"d"日"``,
``d/m``, ``mmm d, yyyy``, ``h:mm AM/PM``, ``[h]:mm``, Japanese eras ``ggge"年"``), with English
month and day names, as an English or Japanese Excel shows them. The locale's own short date and
time (built-in formats 14 and 22, which each computer shows its own way) are left to the caller
(ISO 2026-01-02). Any other format (colours and conditions, a negative number's own section) is
left alone: the cell reads as its value, as before. Everything here is arithmetic on the value:
the same cell gives the same text on every machine."""

from __future__ import annotations

import datetime as dt
import math
import re

from pnpgen.patterns import later

MAX_DECIMALS = 30  # the most decimal places an Excel number format shows

_CURRENCY_CODE = later(r"\[\$([^\]\-]*)(?:-[0-9A-Fa-f]+)?\]")  # [$$-409], [$€-407], [$¥-411]
_LITERAL = r'(?:"[^"]*"|\\.|[$¥€£ ])*'
_FORMAT = later(rf"({_LITERAL})([#0,]*0(?:\.0+)?)(%?)({_LITERAL})")


class ShownInt(int):
    """A whole number and the text its cell shows (``shown``)."""

    shown: str


class ShownFloat(float):
    """A number and the text its cell shows (``shown``)."""

    shown: str


class ShownDateTime(dt.datetime):
    """A date (and time) and the text its cell shows (``shown``)."""

    shown: str


class ShownTime(dt.time):
    """A time of day and the text its cell shows (``shown``)."""

    shown: str


class ShownDuration(dt.timedelta):
    """An elapsed time (``[h]:mm``) and the text its cell shows (``shown``)."""

    shown: str


Moment = dt.datetime | dt.date | dt.time | dt.timedelta


def with_shown(value: int | float | Moment, text: str) -> int | float | Moment:
    """``value`` carrying the text its cell shows, when that text is not simply the number's own
    (a date always carries it: its own text is ISO, 2026-01-02, whatever the cell shows)."""
    if not text or (isinstance(value, (int, float)) and text == str(value)):
        return value
    out: ShownInt | ShownFloat | ShownDateTime | ShownTime | ShownDuration
    if isinstance(value, dt.datetime):
        out = ShownDateTime(value.year, value.month, value.day, value.hour, value.minute, value.second,
                            value.microsecond)
    elif isinstance(value, dt.date):
        out = ShownDateTime(value.year, value.month, value.day)
    elif isinstance(value, dt.time):
        out = ShownTime(value.hour, value.minute, value.second, value.microsecond)
    elif isinstance(value, dt.timedelta):
        out = ShownDuration(value.days, value.seconds, value.microseconds)
    else:
        out = ShownInt(value) if isinstance(value, int) else ShownFloat(value)
    out.shown = text
    return out


def shown(value: int | float, number_format: str) -> str | None:
    """``value`` as Excel shows it under ``number_format``, or None for a format not listed above
    (and for General, which shows the value as it is)."""
    fmt = number_format.strip()
    if not fmt or fmt.lower() == "general" or fmt == "@" or not math.isfinite(value):
        return None
    if value < 0 and ";" in fmt:  # a negative number's own section ((0), red): left alone
        return None
    fmt = _CURRENCY_CODE.sub(lambda m: f'"{m.group(1)}"', fmt.split(";")[0])
    m = _FORMAT.fullmatch(fmt)
    if m is None:
        return _fraction(value, fmt) or _scientific(value, fmt)
    prefix, body, percent, suffix = m.groups()
    whole_part, _, decimals = body.partition(".")
    if len(decimals) > MAX_DECIMALS:
        return None
    from decimal import ROUND_HALF_UP, Decimal, localcontext  # (a spreadsheet's formatted number alone needs them)

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


_FRACTION = later(rf"({_LITERAL})(?:([#0?]+) +)?([#0?]+)/([#0?]+|[1-9][0-9]*)({_LITERAL})")
_SCIENTIFIC = later(rf"({_LITERAL})0(?:\.(0+))?E([+-])(0+)({_LITERAL})", re.IGNORECASE)


def _fraction(value: int | float, fmt: str) -> str | None:
    """``# ?/?`` (1.25: 1 1/4), ``# ??/??``, ``?/?`` (5/4), ``# ?/8`` (a fixed denominator): the
    nearest fraction whose denominator has as many digits as the format's, as Excel finds it; the
    spaces Excel pads the digits with to line fractions up in a column left out."""
    m = _FRACTION.fullmatch(fmt)
    if m is None:
        return None
    prefix, whole_code, _, denominator, suffix = m.groups()
    from decimal import Decimal
    from fractions import Fraction

    x = Fraction(Decimal(repr(abs(value))))
    whole = int(x) if whole_code else 0
    rest = x - whole
    if denominator.isdigit():
        part = Fraction(int((rest * int(denominator) + Fraction(1, 2)) // 1), int(denominator))  # n/8 kept as 8ths
    else:
        part = rest.limit_denominator(10 ** len(denominator) - 1)
    if whole_code and part >= 1:  # 0.99 as # ?/?: 1, not 0 1/1
        whole, part = whole + 1, Fraction(0)
    n, d = (part.numerator, part.denominator) if not denominator.isdigit() else \
        (int(part * int(denominator)), int(denominator))
    words = [str(whole)] if whole or (whole_code and "0" in whole_code) else []
    if n or not words:
        words.append(f"{n}/{d}" if n or not whole_code else "0")
    sign = "-" if value < 0 and (whole or n) else ""
    return _literal(prefix) + sign + " ".join(words) + _literal(suffix)


def _scientific(value: int | float, fmt: str) -> str | None:
    """``0.00E+00``: 45992 as 4.60E+04 (``E-`` writes a sign for small numbers only)."""
    m = _SCIENTIFIC.fullmatch(fmt)
    if m is None:
        return None
    prefix, decimals, plus, exponent_code, suffix = m.groups()
    places = len(decimals or "")
    from decimal import ROUND_HALF_UP, Decimal

    number = Decimal(repr(value))
    if number == 0:
        mantissa, exponent = Decimal(0).quantize(Decimal(1).scaleb(-places)), 0
    else:
        exponent = number.adjusted()
        mantissa = (number.scaleb(-exponent)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
        if abs(mantissa) >= 10:  # 9.996 to two places: 1.00E+01
            exponent += 1
            mantissa = (number.scaleb(-exponent)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    sign = "-" if exponent < 0 else ("+" if plus == "+" else "")
    e = "E" if "E" in fmt else "e"
    return (_literal(prefix) + f"{mantissa:f}" + e + sign + str(abs(exponent)).zfill(len(exponent_code))
            + _literal(suffix))


# The computer's own short date (and time), built-in formats 14 and 22, as openpyxl names them:
# no one text (each computer shows them its own way), so such a date reads as ISO (2026-01-02).
LOCALE_DATES = ("mm-dd-yy", "m/d/yy h:mm")

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DAYS_JA = "月火水木金土日"
# Japanese eras as Excel counts them: (first day, letter, initial kanji, name)
_ERAS = ((dt.date(2019, 5, 1), "R", "令", "令和"), (dt.date(1989, 1, 8), "H", "平", "平成"),
         (dt.date(1926, 12, 25), "S", "昭", "昭和"), (dt.date(1912, 7, 30), "T", "大", "大正"),
         (dt.date(1868, 9, 8), "M", "明", "明治"))
_EXCEL_EPOCH = dt.datetime(1899, 12, 30)
_DATE_TOKEN = later(r'"[^"]*"|\\.|_.|\*.|\[(?:h+|m+|s+)\]|am/pm|a/p|\.0+|y+|m+|d+|h+|s+|e+|g+|aaaa?|[a-z]'
                         r'|[^a-z]', re.IGNORECASE)
# [$-411], [$-ja-JP], [Red], [Color10]: not [h], [mm], [ss], which count elapsed time
_SKIPPED = later(r"\[(?!(?:h+|m+|s+)\])(?:\$-[^\]]*|[a-z]+[0-9]*)\]", re.IGNORECASE)


def shown_moment(value: Moment, number_format: str) -> str | None:
    """A date, time or elapsed time as Excel shows it under ``number_format`` (``d/m``: 1/12,
    ``h:mm``: 18:00, ``ggge"年"m"月"d"日"``: 令和7年12月1日); None for a format it cannot show
    alike everywhere (General, a locale's short date) or does not know."""
    fmt = number_format.split(";")[0].strip()
    japanese = re.search(r"\[\$-(?:411|ja)", fmt, re.IGNORECASE) is not None
    fmt = _SKIPPED.sub("", fmt)
    if not fmt or fmt.lower() == "general" or "[>" in fmt or "[<" in fmt or "[=" in fmt:
        return None
    tokens = _DATE_TOKEN.findall(fmt)
    kinds = [_kind(t) for t in tokens]
    if None in kinds or not any(k not in ("text", "fraction") for k in kinds):
        return None
    twelve = "ampm" in kinds
    era_year = japanese or "era" in kinds
    places = max((len(t) - 1 for t, k in zip(tokens, kinds) if k == "fraction"), default=0)
    moment, elapsed = _as_datetime(value, places)
    out = []
    for i, (t, k) in enumerate(zip(tokens, kinds)):
        if k == "m" and len(t) <= 2 and _minutes(kinds, i):
            k = "minute"
        out.append(_part(t, k, moment, elapsed, twelve, era_year))
    return "".join(out)


def _kind(token: str) -> str | None:
    """What a token of a date format stands for; None for a letter Excel gives no meaning."""
    low = token.lower()
    if token[0] in '"\\_*' and len(token) > 1 or not low[0].isascii() or not low[0].isalpha() and low[0] != "[" \
            and low[0] != ".":
        return "text"
    if low.startswith("."):
        return "fraction"
    if low.startswith("["):
        return "elapsed"
    if low in ("am/pm", "a/p"):
        return "ampm"
    if low.startswith("aaa"):
        return "weekday"
    return {"y": "y", "m": "m", "d": "d", "h": "h", "s": "s", "e": "e", "g": "era"}.get(low[0])


def _minutes(kinds: list[str | None], i: int) -> bool:
    """``m`` and ``mm`` are minutes right after an hour or right before a second (text between)."""
    before = next((k for k in reversed(kinds[:i]) if k not in ("text", "fraction")), None)
    after = next((k for k in kinds[i + 1:] if k not in ("text", "fraction")), None)
    return before in ("h", "elapsed") or after == "s"


def _as_datetime(value: Moment, places: int) -> tuple[dt.datetime, dt.timedelta]:
    """The moment to show, rounded as Excel rounds it to the seconds (or fractions) shown, and
    its distance from Excel's day 0 for ``[h]``."""
    if isinstance(value, dt.timedelta):
        moment = _EXCEL_EPOCH + value
    elif isinstance(value, dt.datetime):
        moment = dt.datetime(value.year, value.month, value.day, value.hour, value.minute, value.second,
                             value.microsecond)
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day)
    else:
        moment = dt.datetime.combine(_EXCEL_EPOCH.date(), value)
    step = 10 ** (6 - places)
    micro = (moment.microsecond + step // 2) // step * step
    moment = moment.replace(microsecond=0) + dt.timedelta(microseconds=micro)
    return moment, moment - _EXCEL_EPOCH


def _part(token: str, kind: str | None, moment: dt.datetime, elapsed: dt.timedelta, twelve: bool,
          era_year: bool) -> str:
    low, n = token.lower(), len(token)
    if kind == "text":
        return {"_": " ", "*": ""}.get(token[0], token[1:-1] if token[0] == '"' else token[-1])
    if kind == "fraction":
        return "." + f"{moment.microsecond:06d}"[:n - 1]
    if kind == "elapsed":
        seconds = int(elapsed.total_seconds())
        whole = {"h": seconds // 3600, "m": seconds // 60, "s": seconds}[low[1]]
        return str(whole).zfill(n - 2)
    if kind == "ampm":
        am = moment.hour < 12
        if low == "a/p":
            return token[0] if am else token[2]
        return "AM" if am else "PM"
    if kind == "y":
        return f"{moment.year % 100:02d}" if n <= 2 else f"{moment.year:04d}"
    if kind == "m":
        name = _MONTHS[moment.month - 1]
        return (str(moment.month), f"{moment.month:02d}", name[:3], name, name[0])[min(n, 5) - 1]
    if kind == "minute":
        return str(moment.minute).zfill(n)
    if kind == "d":
        day = _DAYS[moment.weekday()]
        return (str(moment.day), f"{moment.day:02d}", day[:3], day)[min(n, 4) - 1]
    if kind == "weekday":
        return _DAYS_JA[moment.weekday()] + ("曜日" if n == 4 else "")
    if kind == "h":
        hour = (moment.hour % 12 or 12) if twelve else moment.hour
        return str(hour).zfill(min(n, 2))
    if kind == "s":
        return str(moment.second).zfill(min(n, 2))
    era = next((e for e in _ERAS if moment.date() >= e[0]), None)
    if kind == "e":
        if not era_year or era is None:
            return f"{moment.year:04d}"
        return str(moment.year - era[0].year + 1).zfill(min(n, 2))
    if era is None:  # g before Meiji: Excel shows nothing
        return ""
    return (era[1], era[2], era[3])[min(n, 3) - 1]
