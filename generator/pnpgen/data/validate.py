"""Typed, bounded parsers for every value a designer writes: YAML keys and CLI options.

Each parser takes the raw value and returns it checked and converted (lengths in mm), or raises
``Invalid`` saying what is wrong and what would be right. Callers add where the value stands:
``data/mapkeys.py`` (``parse_at``) the YAML file:line:column and key, ``cli.py`` the option (through ``option``).
So no out-of-range or mistyped value reaches geometry. The bounds are documented in
docs/data-format.md ("Limits"). A piece's size and shape, read with the piece's own measures, are
parsed in data/piecesize.py; the command line's option values in data/optionvalues.py.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from pnpgen.data.formats import CARD_FORMATS, PAPER_FORMATS, PAPER_SIZES, paper_named_by_size, size_word
from pnpgen.data.markup import MISSING_COLOUR, colour_names
from pnpgen.errors import suggest
from pnpgen.patterns import later
from pnpgen.units import MM_PER_UNIT

SIZE_MM = (1.0, 2000.0)  # a piece's trim size (each side, or the one size of a circle/hex)
COUNT = (0, 10_000)  # copies of a piece; 0 keeps the piece in the data and prints none
SOURCED_COUNT = (1, 10_000)
GAME_COPIES = 15_000  # measured (bench/limits.py): 15,000 copies build in under 30 s; copies of every deck of a game together: each is a page of its shop file, or two
BLEED_MM = (0.0, 10.0)
MARGIN_MM = (0.0, 50.0)
CREEP_MM = (0.0, 2.0)
LABEL_CHARS = 200  # a title, draft number, date, players: printed on covers and sheet edges
MIN_DPI = (1.0, 2400.0)  # art resolution below which the build warns
MAX_DPI = (72.0, 2400.0)  # the resolution ceiling finer art is resampled to (or none)
ORIENTATIONS = ("pointy", "flat")
ORIENTED_SHAPES = ("hex", "trihex")

UNITS = "|".join(MM_PER_UNIT)  # mm|cm|in|pt|px: the units of every length pnpgen reads, one list
_LENGTH = later(rf"^\s*([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))\s*({UNITS})?\s*$")
_WHOLE = later(r"^[-+]?[0-9]{1,100}$")  # a longer one is no count or field value
_NUMBER = later(r"^[-+]?(?=[0-9.]{1,100}$)(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$")
_HEX6 = re.compile(r"^#[0-9a-fA-F]{6}$")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")  # SVG also takes #rgb
_UNITS = "a number in mm or with a unit: 63, '63mm', '2.5in', '10pt'"


class Invalid(ValueError):
    """A value that does not parse; ``expected`` says what would."""

    def __init__(self, message: str, expected: str | None = None):
        super().__init__(message)
        self.message = message
        self.expected = expected


# a value given by language for other editions than this one, as data/i18n.py marks it for print
_OTHER_EDITION = later(rf"^\[{MISSING_COLOUR}\]〔([^〕]+)〕\[/{MISSING_COLOUR}\]")


def show(value: Any) -> str:
    """The value as the designer wrote it, cut short so a huge value cannot flood the message;
    one given by language for other editions only (``format: {en: bridge}`` in the Japanese
    build) says so, never with the marker pnpgen prints such a text with."""
    if value is None:  # an empty value (YAML's null): Python's word for it means nothing to a designer
        return "(empty)"
    other = _OTHER_EDITION.match(value) if isinstance(value, str) else None
    if other is not None:
        return f"{show(value[other.end():])} (given for {other.group(1)} only: none for this edition)"
    text = spelt(value)
    return text if len(text) <= 60 else text[:57] + "..."


def spelt(value: Any, inside: bool = False) -> str:
    """YAML's spelling (uncut: ``show`` cuts it short) inside a value: ``true``, ``false``, ``null``, not Python's True or None; a
    mapping or list as YAML's flow writes it, ``{w: 0}``, ``[a4, b5]``, never Python's ``{'w': 0}``:
    a text ``inside`` one bare where YAML reads it back as that text, else quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(spelt(item, True) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{spelt(k, True)}: {spelt(item, True)}" for k, item in value.items()) + "}"
    if inside and isinstance(value, str) and _BARE.fullmatch(value) and not _NOT_TEXT.fullmatch(value):
        return value
    return repr(value)


# a text YAML's flow reads back as itself when written bare: no quote, bracket, comma, colon or #
# (a-one-51002, 騎士, two words), and none a bare word YAML reads as another type (true, null, 3, 1e3)
_BARE = later(r"[^\s'\"\[\]{},:#&*!|>%@`?-][^\[\]{},:#\n]*(?<!\s)")
_NOT_TEXT = later(r"(?i:true|false|yes|no|on|off|null|~)|[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
                  r"|[-+]?\.(?i:inf|nan)|0[xo][0-9a-fA-F_]+")


def type_name(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", type(None): "nothing"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


# A bound reached through another unit is a float a hair off what it prints as (1.5in is
# 38.099999999999994 mm): a length that far past it is the bound itself, not out of range
# ("x 38.1 is out of range (expected 0 to 38.1 mm)" told a polygon's corner on a 1.5in tile).
_ROUNDING_MM = 1e-9


def length(value: Any, lo: float, hi: float, what: str = "length") -> float:
    """Millimetres from ``3``, ``"3mm"``, ``"0.125in"``…, finite and within [lo, hi]."""
    mm: float | None = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            mm = float(value)
        except OverflowError:
            mm = math.inf
    elif isinstance(value, str):
        m = _LENGTH.match(typed(value))
        if m:
            mm = float(m.group(1)) * MM_PER_UNIT[m.group(2) or "mm"]
    if mm is None:
        n = _as_number(value)  # (1e9, nan: a number, YAML's text, not a length's digits)
        if n is not None and not (math.isfinite(n) and lo <= n <= hi):
            raise beyond(what, value, n, lo, hi, " mm")
        raise Invalid(f"{what} {show(value)} is not a length{_meant_length(value)}", _UNITS)
    if not math.isfinite(mm) or not lo - _ROUNDING_MM <= mm <= hi + _ROUNDING_MM:
        raise beyond(what, value, mm, lo, hi, " mm")
    return min(max(mm, lo), hi)


def _as_number(value: Any) -> float | None:
    """A text that Python reads as a number, in any notation (``1e9``, ``nan``, ``-inf``), or None."""
    try:
        return float(typed(value)) if isinstance(value, str) else None
    except ValueError:
        return None


def beyond(what: str, value: Any, n: float, lo: float, hi: float, unit: str = "", allowed: str = "") -> Invalid:
    """Why the number ``n`` read from ``value`` is not taken: not a number (YAML's ``.nan``),
    infinite (``.inf``, ``1e400``), or out of the setting's range, with what it takes: one wording
    for every length and number of the data and the command line (a size, a bleed, a dpi, a count)."""
    if math.isnan(n):
        return Invalid(f"{what} {show(value)} is not a number", allowed or f"a number from {lo:g} to {hi:g}{unit}")
    if math.isinf(n):
        return Invalid(f"{what} {show(value)} is infinite (or too large for any number)",
                       allowed or f"a number from {lo:g} to {hi:g}{unit}")
    return Invalid(f"{what} {show(value)} is out of range", allowed or f"{lo:g} to {hi:g}{unit}")


# units as a designer may spell them, and the one pnpgen reads
_UNIT_WORDS = {"inch": "in", "inches": "in", "″": "in", '"': "in", "millimetre": "mm", "millimetres": "mm",
               "millimeter": "mm", "millimeters": "mm", "ミリ": "mm", "cm.": "cm", "mm.": "mm", "points": "pt",
               "point": "pt", "pts": "pt", "センチ": "cm", "インチ": "in"}


def _meant_length(value: Any) -> str:
    """``; did you mean 63.5mm?`` for a length written with a decimal comma (``63,5mm``), a unit
    spelt out (``2.5 inch``, ``3 ミリ``) or a fraction (``1/8in``: 0.125in); else nothing."""
    if not isinstance(value, str):
        return ""
    fraction = re.fullmatch(r"\s*(?:([0-9]+)[\s-]+)?([0-9]+)\s*/\s*([0-9]+)\s*(in|inch|inches|\"|mm|cm|pt)?\s*",
                            typed(value).lower())
    if fraction:  # 1/8in, 2 1/2in: a fraction, as an inch ruler reads, in the decimals a length takes
        whole, top, bottom = int(fraction.group(1) or 0), int(fraction.group(2)), int(fraction.group(3))
        unit = {"": "in", "inch": "in", "inches": "in", '"': "in"}.get(fraction.group(4) or "", fraction.group(4))  # (no one halves mm)
        return f"; did you mean {whole + top / bottom:g}{unit}?" if bottom else ""
    m = re.fullmatch(r"\s*([-+]?[0-9]+(?:[.,][0-9]+)?)\s*(\S*)\s*", typed(value))
    if m is None:
        return ""
    number, unit = m.group(1).replace(",", "."), m.group(2).lower()
    if _OTHER_NOTATION.match(unit):  # 1e3, 0x10, 1_000: a number in another notation, not a number and a unit
        decimal_digits = in_decimal(typed(value))
        return f"; did you mean {decimal_digits}?" if decimal_digits else ""
    unit = _UNIT_WORDS.get(unit, unit)
    if unit and unit not in MM_PER_UNIT:  # 63mmm, 10pts
        import difflib

        close = difflib.get_close_matches(unit, list(MM_PER_UNIT), n=1, cutoff=0.6)
        unit = close[0] if close else "mm"  # (3xx is no 3px: a unit not near one is read as the millimetres meant)
    meant = f"{number}{unit}"
    if meant != typed(value) and _LENGTH.match(meant):
        return f"; did you mean {meant}?"
    return ""


# what follows the digits of a number written in exponent, hexadecimal, octal, binary or grouped form
_OTHER_NOTATION = later(r"(?:e[-+]?[0-9]|x[0-9a-f]|o[0-7]|b[01]|_[0-9])")


def in_decimal(text: str) -> str:
    """``1e3`` as ``1000``, ``0x10`` as ``16``, ``1_000`` as ``1000`` (the digits a length takes);
    empty when it is not one number or too long to be a length."""
    m = re.fullmatch(rf"([-+]?[0-9][0-9_.a-zA-Z+-]{{0,30}}?)\s*({UNITS})?", text)
    if m is None:
        return ""
    written, unit = m.group(1), m.group(2) or ""
    try:
        number: float = int(written, 0)
    except ValueError:
        try:
            number = float(written)
        except ValueError:
            return ""
    if not math.isfinite(number) or abs(number) >= 1e7 or (number and abs(number) < 1e-4):
        return ""  # no length: 'out of range' says what is
    digits = str(number) if isinstance(number, int) else f"{number:.4f}".rstrip("0").rstrip(".")
    return f"{digits}{unit}"


def typed(value: Any) -> str:
    """Text as a designer may type a number: full-width digits and signs (Japanese input) turned
    into ASCII (NFKC), spaces around it dropped."""
    return unicodedata.normalize("NFKC", value).strip()


def whole(value: Any) -> int | None:
    """A whole number written as one: ``3``, ``"3"`` or ``３``; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _WHOLE.match(typed(value)):
        return int(typed(value))
    return None


def not_finite(value: Any) -> float | None:
    """The first number in ``value`` (a number, or a list or mapping of them, however nested)
    that is no number a card can print: YAML reads .nan, .inf and 1.0e400 as floats that are not
    numbers (NaN) or infinite. None when there is none."""
    if isinstance(value, float):
        return None if math.isfinite(value) else value
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return next((bad for item in items if (bad := not_finite(item)) is not None), None)


def decimal(value: Any) -> int | float | None:
    """A number written as one: ``2.5``, ``"2.5"`` or ``２.５``; None for anything else."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _NUMBER.match(typed(value)):
        text = typed(value)
        return int(text) if _WHOLE.match(text) else float(text)
    return None


KANJI_DIGITS = {ch: n for n, chars in enumerate(("〇零", "一", "二", "三", "四", "五", "六", "七", "八", "九"))
                for ch in chars}
KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}


def kanji_number(text: str) -> int:
    """``三`` → 3, ``十二`` → 12, ``二十四`` → 24, ``百五`` → 105, ``二〇`` → 20 (digit by digit)."""
    total = current = 0
    for ch in text:
        if ch in KANJI_UNITS:
            total += (current or 1) * KANJI_UNITS[ch]
            current = 0
        else:
            current = current * 10 + KANJI_DIGITS[ch]
    return total + current


# a count typed with its counter word, as a Japanese list or an order form writes it (３枚, x3, ×3)
_COUNTED = later(r"^(?:[x×]\s*)?([0-9]{1,6})\s*(枚|個|本|部|組|セット|体|つ|x|×|copies|pcs)?$", re.IGNORECASE)


# a range typed for a count, "one or two" (1-2, 1〜2, 1~2 as NFKC writes ～, 1–2, 1 to 2)
_RANGE = later(r"^([0-9]{1,6})\s*(?:-|~|〜|–|—|−|to|or|から)\s*([0-9]{1,6})$", re.IGNORECASE)


# a fraction typed for a count: 1/2, ½ (NFKC writes it 1⁄2), 1.5, 0.5
_FRACTION = later(r"^(?:[0-9]{1,6}\s*[/⁄]\s*[1-9][0-9]{0,5}|[0-9]{0,6}\.[0-9]*[1-9][0-9]*)$")


# a date as a sheet's cell or YAML gives one (2026-01-02, with its time when it has one), or as a
# Japanese Excel saves it in a CSV (2026/1/2)
_DATED = later(r"^[0-9]{4}([-/])([0-9]{1,2})\1([0-9]{1,2})(?:[ T][0-9:.]+)?$")
# the same date as a spreadsheet shows it and saves it in a CSV: a Japanese Excel's 1月2日, an
# English one's 2-Jan, Jan-02 or 02-Jan-26 (its day and month in the order of the computer's settings)
_MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_SHOWN_DATE = later(r"^(?:(?P<month>[0-9]{1,2})月(?P<day>[0-9]{1,2})日|[0-9]{1,2}-(?:" + _MONTHS + r")(?:-[0-9]{2,4})?"
                    r"|(?:" + _MONTHS + r")-[0-9]{1,4})$", re.IGNORECASE)


def count(value: Any, bounds: tuple[int, int] = COUNT, example: str = "'count: 3'",
          counts: tuple[str, str] = ("the copies printed of the piece", "copies")) -> int:
    """``example``: how the count is written where this one is (a YAML key, a spreadsheet column);
    ``counts``: what it counts and their name, as a range or a fraction is told (a piece's copies,
    a tuck box's cards, a bought component's parts)."""
    lo, hi = bounds
    n = whole(value)
    kanji = typed(value) if isinstance(value, str) else ""
    if n is None and kanji and all(ch in KANJI_DIGITS or ch in KANJI_UNITS for ch in kanji):
        meant = kanji_number(kanji)  # 三 typed for 3: digits are what a count is read from
        raise Invalid(f"count {show(value)} is written in kanji (漢数字), which is not read as a number",
                      f"{_with(example, str(meant))}, in half- or full-width digits")
    counted = _COUNTED.match(kanji) if n is None and kanji else None
    if counted:  # ２枚: the number is there, with a word the count does not take
        raise Invalid(f"count {show(value)} holds a counter word or sign beside its number, which is not read",
                      f"{_with(example, counted.group(1))}, the number alone")
    dated = _DATED.match(kanji or str(value)) if n is None else None
    if dated:  # 1-2 or 1/2 typed in a cell: the office program keeps it as a date, January 2
        month, day = int(dated.group(2)), int(dated.group(3))
        raise Invalid(f"count {show(value)} is a date, not a number (a spreadsheet program takes {month}/{day} or "
                      f"{month}-{day} typed in a cell for a date)", f"{example}, the number alone")
    shown = _SHOWN_DATE.match(kanji) if n is None and kanji else None
    if shown:  # the same, as the program shows it (hostile39: 1月2日 and 2-Jan were 'not a whole number')
        typed_as = f"{shown.group('month')}/{shown.group('day')} or {shown.group('month')}-{shown.group('day')}" \
            if shown.group("month") else "two numbers with a - or / between them, such as 1-2,"
        raise Invalid(f"count {show(value)} is a date, not a number (a spreadsheet program takes {typed_as} typed in "
                      "a cell for a date, and shows it so)", f"{example}, the number alone")
    ranged = _RANGE.match(kanji) if n is None and kanji else None
    if ranged:  # "one or two" copies: the sheet prints one number of them
        low, high = ranged.group(1), ranged.group(2)
        raise Invalid(f"count {show(value)} is a range ({low} to {high}); a count is one whole number, {counts[0]}",
                      f"{_with(example, high)}, the one number you mean")
    if n is None and (_FRACTION.match(kanji) if kanji else isinstance(value, float) and math.isfinite(value)
                      and not value.is_integer() and value > 0):  # 1/2, ½, 1.5: no piece prints in part
        top, _, under = (kanji or str(value)).replace("⁄", "/").partition("/")
        meant = max(1, math.ceil(float(top) / float(under or 1)))
        raise Invalid(f"count {show(value)} is not a whole number but a fraction; a count is {counts[0]}, each whole",
                      f"{_with(example, str(meant))}, a whole number of {counts[1]}")
    digits = _count_digits(kanji) if n is None and kanji else None
    if n is None and isinstance(value, float) and value.is_integer():  # 12.0, a sheet's number with its decimals
        digits = str(int(value))
    if digits is not None and lo <= int(digits) <= hi:  # 1,000 or 1e3 from a spreadsheet
        raise Invalid(f"count {show(value)} is not written in plain digits",
                      f"{_with(example, digits)}, the digits alone")
    wide = None if n is not None else value if isinstance(value, float) else _as_number(value)
    if wide is not None and not (math.isfinite(wide) and lo <= wide <= hi):  # 1e9, .nan: a number, past the range
        raise beyond("count", value, wide, lo, hi, allowed=f"a whole number from {lo} to {hi:,}, e.g. {example}")
    if n is None or not lo <= n <= hi:
        raise Invalid(f"count {show(value)} is not a whole number from {lo} to {hi:,}",
                      f"an integer {lo}..{hi}, e.g. {example}")
    return n


def _with(example: str, number: str) -> str:
    """``example`` (``'count: 3'``, a box's ``'count: 60'``, ``3 in the 枚数 column``) with its number ``number``."""
    return re.sub(r"[0-9]+", number, example, count=1)


def thousands(value: Any) -> str | None:
    """The digits of a number written with a thousands comma (``1,000``, ``-2,500.5``, full-width
    too), as a spreadsheet shows a number so formatted and saves it in a CSV; None for anything else."""
    if not isinstance(value, str):
        return None
    text = typed(value)
    return text.replace(",", "") if re.fullmatch(r"[-+]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?", text) else None


def _count_digits(text: str) -> str | None:
    """The whole number ``1,000`` (a thousands comma), ``1e3``, ``0x10`` or ``3.0`` is, in digits."""
    if re.fullmatch(r"[0-9]{1,3}(?:,[0-9]{3})+", text):
        return text.replace(",", "")
    digits = in_decimal(text)
    return digits if digits.isdigit() else None


def field_spec(value: Any) -> Any:
    """A deck field's type as written: a type, or ``{type: image, placeholder: false}`` (an image
    field that may stay empty, data/piecevalues.py ``optional_fields``), read as its type, image."""
    if not isinstance(value, dict):
        return value
    if value.get("type") != "image" or set(value) - {"type", "placeholder"} \
            or not isinstance(value.get("placeholder", True), bool):
        raise Invalid("a field given as a mapping is an image field that may stay empty",
                      "a type (text, image, …), or {type: image, placeholder: false}")
    return "image"


def choice(value: Any, options: Iterable[str], what: str) -> str:
    """One of ``options``; the message lists them, never the bad value among them."""
    options = list(options)
    if isinstance(value, (dict, list)):  # (paper: {w: 0}: a mapping where a name is written)
        raise Invalid(f"{what} {show(value)} is {type_name(value)}, not a name", "one of " + ", ".join(options))
    if not isinstance(value, str) or value not in options:
        near = suggest(value, options) if isinstance(value, str) else ""  # format: pokr, kind: tocken
        raise Invalid(f"unknown {what} {show(value)}{near}", "one of " + ", ".join(options))
    return value


def paper(value: Any) -> str:
    """A paper pnpgen prints on (data/formats.py PAPER_SIZES, any case, full-width ``Ａ３`` as Japanese
    input types it); one written by its size (``8.5x11``, ``210×297``) is told the name to write."""
    if isinstance(value, str) and typed(value).lower() in PAPER_SIZES:
        return typed(value).lower()
    named = paper_named_by_size(value) if isinstance(value, str) else None
    if named is not None:
        raise Invalid(f"unknown paper {show(value)}; did you mean {named}? (the paper of that size)",
                      "one of " + ", ".join(sorted(PAPER_SIZES)))
    return choice(value.strip().lower() if isinstance(value, str) else value, sorted(PAPER_SIZES), "paper")


def card_format(value: Any) -> str:
    """A named card format; a paper size written as one (``format: A5``) is told the size to write."""
    paper = PAPER_FORMATS.get(typed(value).lower()) if isinstance(value, str) else None  # (Ａ５ typed full-width too)
    if paper is not None and value not in CARD_FORMATS:
        w, h = (f"{n:g}" for n in paper)
        raise Invalid(f"format {show(value)} is a paper size, not one of the card formats",
                      f"'size: [{w}, {h}]' for {value} upright ('size: [{h}, {w}]' lying), or a card format: "
                      + ", ".join(CARD_FORMATS))
    if isinstance(value, list | tuple) and len(value) == 2 and all(
            isinstance(n, int | float) and not isinstance(n, bool) for n in value):  # format: [59, 86]: that is size:
        raise Invalid(f"format {show(value)} is a size, not the name of a card format",
                      f"'size: {show(value)}' for a size of your own, or a card format: " + ", ".join(CARD_FORMATS))
    meant = size_word(value)
    if meant is not None and value not in CARD_FORMATS:  # format: 名刺
        mm = "×".join(f"{n:g}" for n in CARD_FORMATS[meant[0]])
        raise Invalid(f"unknown format {show(value)}; did you mean {meant[0]}? ({str(value).strip()}, {mm} mm)",
                      f"format: {meant[0]}, one of " + ", ".join(CARD_FORMATS))
    if isinstance(value, str) and value not in CARD_FORMATS:
        begun = [f for f in CARD_FORMATS if f.startswith(value.strip().lower() + "-")]
        if len(begun) > 1:  # format: mini is two sizes, and neither the card-mini layout's 44×63
            sized = [f"{f} ({CARD_FORMATS[f][0]:g}×{CARD_FORMATS[f][1]:g} mm)" for f in begun]
            raise Invalid(f"unknown format {show(value)}: it begins {', '.join(sized[:-1])} and {sized[-1]}, "
                          "cards of other sizes",
                          f"format: {' or format: '.join(begun)}, or 'size: [w, h]' for a size of your own"
                          + (" (the card-mini layout's mini card: 'size: [44, 63]')" if value.strip().lower() == "mini"
                             else ""))
    return choice(value, CARD_FORMATS, "format")


def text(value: Any, what: str = "text") -> str:
    if isinstance(value, (dict, list)) or value is None:
        raise Invalid(f"expected {what}, got {type_name(value)}", "a string")
    return str(value)


def label(value: Any, what: str, limit: int = LABEL_CHARS) -> Any:
    """A short printed value (a title, draft number, date): text or a number, as written, at most
    ``limit`` characters; nothing is empty text."""
    if value is None:
        return ""
    if isinstance(value, (dict, list, bool)):
        raise Invalid(f"{what} must be text, got {type_name(value)}", "plain text or a number")
    if len(str(value)) > limit:
        raise Invalid(f"{what} is {len(str(value)):,} characters long", f"at most {limit}")
    return value


def name(value: Any, what: str) -> str:
    """A plain name (a font, a file): text, not a number, a list or nothing."""
    if not isinstance(value, str) or not value.strip():
        got = "empty text" if isinstance(value, str) else type_name(value)  # ('' or '  ' is text, but no name)
        raise Invalid(f"{what} must be a name, got {got}", "a name in quotes or plain text")
    return value


def names(value: Any, what: str) -> list[str]:
    """A list of names; one name given alone is refused rather than split into letters."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(f"{what} must be a list, got {type_name(value)}", f"a list, e.g. [{show(value)}]"
                      if isinstance(value, str) else "a list of names [a, b]")
    return [name(v, what) for v in value]


def mapping(value: Any, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"{what} must be a mapping, got {type_name(value)}", "key: value pairs")
    return value


def sequence(value: Any, what: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(f"{what} must be a list, got {type_name(value)}", "'- …' entries")
    return value


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid(f"{show(value)} is not true or false", "true or false")
    return value


def hex_colour(value: Any, short: bool = False) -> str:
    """'#rrggbb' (palette entries), or also '#rgb' where SVG reads it (``short``)."""
    if not isinstance(value, str) or not (_HEX if short else _HEX6).match(value):
        raise Invalid(f"colour {show(value)} is not a hex colour",
                      "'#rrggbb' or '#rgb'" if short else "'#rrggbb' in quotes")
    return value


def is_hex_colour(value: Any) -> bool:
    """'#rrggbb' or '#rgb': a colour written out, needing no palette entry."""
    return isinstance(value, str) and bool(_HEX.match(value))


def colour(value: Any, palette: dict[str, str]) -> str:
    """A palette name or a hex colour → the hex colour."""
    if isinstance(value, str) and value in palette:
        return palette[value]
    if isinstance(value, str) and value.startswith("#"):
        return hex_colour(value, short=True)
    names = colour_names(palette)
    near = suggest(value, names) if isinstance(value, str) else ""  # 'bleu' for blue
    raise Invalid(f"unknown colour {show(value)}{near}",
                  "a palette name (" + ", ".join(names) + ") or '#rrggbb'" if names else "'#rrggbb'")


# a key written where another file or the command line says it: named with its place, not as a slip
ELSEWHERE = {("game.yaml", "bleed"): "; a build's bleed is --bleed (3 mm unless given), a deck's own is bleed: "
                                     "in its deck file (data/<slug>/decks/<id>.yaml)"}


def number(value: Any, lo: float, hi: float, what: str) -> float:
    """A plain number (no unit), finite and within [lo, hi]."""
    try:
        v = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        raise Invalid(f"{what} {show(value)} is not a number", f"a number from {lo:g} to {hi:g}") from None
    if not (math.isfinite(v) and lo <= v <= hi):
        raise beyond(what, value, v, lo, hi)
    return v


def max_dpi(value: Any) -> float:
    """A resolution ceiling (game.yaml ``max_dpi:``, ``--max-dpi``): a number from 72 to 2400 dpi,
    or ``none`` (0: every picture kept as it is)."""
    if isinstance(value, str) and value.strip().lower() == "none":
        return 0.0
    try:
        return number(value, *MAX_DPI, what="max dpi")
    except Invalid as e:
        raise Invalid(e.message, f"{e.expected}, or none (every picture kept as it is)") from None


def section_checks(section: str, keys: Any, hint: str) -> tuple[Any, Any]:
    """The two complaints of a game.yaml section of named settings (``ink:``, ``lint:``): a value
    that is not a mapping, and a key it does not have. Each is a parse for ``mapkeys.parse_at``'s
    ``place`` (value, unused) that only raises, so the message names the file:line."""
    def not_a_mapping(value: Any, _unused: str) -> None:
        raise Invalid(f"{section} {show(value)} is not a mapping", hint)

    def known(key: Any, _unused: str) -> None:
        if key not in keys:
            raise Invalid(f"{section} has an unknown key {show(key)}", hint)

    return not_a_mapping, known


def draft_number(value: Any) -> Any:
    """``draft:`` as its number: ``草案３`` (or ``Draft 3``), written as the draft's title line
    says it, is ３, as the sheets' slug and the cover put 草案 before it (they printed 草案草案３)."""
    if isinstance(value, str):
        number = re.sub(r"^\s*(?:草案|draft\b)[\s:：]*", "", value, flags=re.IGNORECASE)
        return number if number.strip() else value
    return value


def players_count(value: str) -> str:
    """``players:`` as its numbers: ``2〜4人``, ``2人〜4人`` or ``3〜5人用``, as a Japanese draft
    says it, is 2〜4, as every place that prints it puts 人 after it (``pnpgen list`` and the bill of
    materials printed 2〜4人人). Anything else (an open value, 未定…) is kept as written."""
    m = re.fullmatch(r"\s*(\d+)\s*人?\s*(?:([-–〜~～－])\s*(\d+)\s*人?)?\s*用?\s*", value)
    if m is None or "人" not in value:
        return value
    return m.group(1) + (m.group(2) + m.group(3) if m.group(2) else "")
