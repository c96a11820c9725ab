"""Typed, bounded parsers for every value a designer writes: YAML keys and CLI options.

Each parser takes the raw value and returns it checked and converted (lengths in mm), or raises
``Invalid`` saying what is wrong and what would be right. Callers add where the value stands:
``data/mapkeys.py`` (``parse_at``) the YAML file:line:column and key, ``cli.py`` the option (through ``option``).
So no out-of-range or mistyped value reaches geometry. The bounds are documented in
docs/data-format.md ("Limits").
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pnpgen.data.formats import CARD_FORMATS, PAPER_FORMATS, PAPER_SIZES, paper_named_by_size, size_word
from pnpgen.data.markup import MISSING_COLOUR, colour_names
from pnpgen.errors import suggest
from pnpgen.patterns import later
from pnpgen.safetext import NAME_CONTROL, windows_trouble
from pnpgen.shapes import first_crossing
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
    text = _spelt(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _spelt(value: Any) -> str:
    """YAML's spelling inside a value: ``true``, ``false``, ``null``, not Python's True or None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_spelt(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_spelt(k)}: {_spelt(item)}" for k, item in value.items()) + "}"
    return repr(value)


def _type_name(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", type(None): "nothing"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__)


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
        raise Invalid(f"{what} {show(value)} is not a length{_meant_length(value)}", _UNITS)
    if not math.isfinite(mm) or not lo <= mm <= hi:
        raise Invalid(f"{what} {show(value)} is out of range", f"{lo:g} to {hi:g} mm")
    return mm


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


def count(value: Any, bounds: tuple[int, int] = COUNT, example: str = "'count: 3'") -> int:
    """``example``: how the count is written where this one is (a YAML key, a spreadsheet column)."""
    lo, hi = bounds
    n = whole(value)
    kanji = typed(value) if isinstance(value, str) else ""
    if n is None and kanji and all(ch in KANJI_DIGITS or ch in KANJI_UNITS for ch in kanji):
        meant = kanji_number(kanji)  # 三 typed for 3: digits are what a count is read from
        raise Invalid(f"count {show(value)} is written in kanji (漢数字), which is not read as a number",
                      f"{example.replace('3', str(meant), 1)}, in half- or full-width digits")
    counted = _COUNTED.match(kanji) if n is None and kanji else None
    if counted:  # ２枚: the number is there, with a word the count does not take
        raise Invalid(f"count {show(value)} holds a counter word or sign beside its number, which is not read",
                      f"{example.replace('3', counted.group(1), 1)}, the number alone")
    digits = _count_digits(kanji) if n is None and kanji else None
    if n is None and isinstance(value, float) and value.is_integer():  # 12.0, a sheet's number with its decimals
        digits = str(int(value))
    if digits is not None and lo <= int(digits) <= hi:  # 1,000 or 1e3 from a spreadsheet
        raise Invalid(f"count {show(value)} is not written in plain digits",
                      f"{example.replace('3', digits, 1)}, the digits alone")
    if n is None or not lo <= n <= hi:
        raise Invalid(f"count {show(value)} is not a whole number from {lo} to {hi:,}",
                      f"an integer {lo}..{hi}, e.g. {example}")
    return n


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
        raise Invalid(f"expected {what}, got {_type_name(value)}", "a string")
    return str(value)


def label(value: Any, what: str, limit: int = LABEL_CHARS) -> Any:
    """A short printed value (a title, draft number, date): text or a number, as written, at most
    ``limit`` characters; nothing is empty text."""
    if value is None:
        return ""
    if isinstance(value, (dict, list, bool)):
        raise Invalid(f"{what} must be text, got {_type_name(value)}", "plain text or a number")
    if len(str(value)) > limit:
        raise Invalid(f"{what} is {len(str(value)):,} characters long", f"at most {limit}")
    return value


def name(value: Any, what: str) -> str:
    """A plain name (a font, a file): text, not a number, a list or nothing."""
    if not isinstance(value, str) or not value.strip():
        got = "empty text" if isinstance(value, str) else _type_name(value)  # ('' or '  ' is text, but no name)
        raise Invalid(f"{what} must be a name, got {got}", "a name in quotes or plain text")
    return value


def names(value: Any, what: str) -> list[str]:
    """A list of names; one name given alone is refused rather than split into letters."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(f"{what} must be a list, got {_type_name(value)}", f"a list, e.g. [{show(value)}]"
                      if isinstance(value, str) else "a list of names [a, b]")
    return [name(v, what) for v in value]


def mapping(value: Any, what: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Invalid(f"{what} must be a mapping, got {_type_name(value)}", "key: value pairs")
    return value


def sequence(value: Any, what: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(f"{what} must be a list, got {_type_name(value)}", "'- …' entries")
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


_SIZE_WITH_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*(?:[xX×＊*,、]|\s)\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?")


def size(value: Any, shape: str, single: bool) -> tuple[float, ...]:
    """The trim size: one length for circle/hex/trihex, else [w, h]; each 1–2000 mm."""
    if single:
        if isinstance(value, list):
            raise Invalid(f"a {shape} takes one size", "one length, e.g. 'size: 40mm'")
        return (length(value, *SIZE_MM, what="size"),)
    if not isinstance(value, list) or len(value) != 2:
        # written as a shop writes it (420x297, 63 × 88 mm, "63mm, 88mm"): the two lengths as a list
        parts = re.split(r"\s*(?:[xX×＊*,、]|\s)\s*", value.strip()) if isinstance(value, str) else []
        meant = f"[{parts[0]}, {parts[1]}]" if len(parts) == 2 and all(parts) else "[63, 88]"
        both = _SIZE_WITH_UNIT.fullmatch(value.strip()) if isinstance(value, str) else None
        if both:  # 4.25x5.5in, 63 × 88 mm: the unit written once is both sides' (a bare 4.25 is mm)
            w, w_unit, h, h_unit = both.groups()
            meant = f"[{w}{w_unit or h_unit or ''}, {h}{h_unit or w_unit or ''}]"
        paper = PAPER_FORMATS.get(typed(value).lower()) if isinstance(value, str) else None  # (Ａ５ typed full-width too)
        if paper is not None:  # size: A5, a player aid the size of a paper: its millimetres
            meant = "[{:g}, {:g}]".format(*paper)
        raise Invalid(f"size needs [width, height], got {show(value)}", f"'size: {meant}' in mm or with units")
    return tuple(length(v, *SIZE_MM, what="size") for v in value)


def orientation(value: Any, shape: str) -> str:
    if shape not in ORIENTED_SHAPES:
        raise Invalid(f"a {shape} has no orientation", "orientation only on " + " or ".join(ORIENTED_SHAPES))
    return choice(value, ORIENTATIONS, "orientation")


def corner_radius(value: Any, shape: str, w: float, h: float) -> float:
    if shape != "rounded":
        raise Invalid(f"a {shape} has no corner radius", "corner_radius only with 'shape: rounded'")
    return length(value, 0.0, min(w, h) / 2, what="corner radius")


def points(value: Any, shape: str, w: float, h: float,
           coordinate: Callable[[Any, float, str], float] | None = None) -> list[tuple[float, float]]:
    """A polygon's corners in mm, each inside the trim box, enclosing an area: a deck's own, or a
    layout's, whose ``coordinate`` reads the arithmetic its boxes' lengths take (``'h / 3'``)."""
    read = coordinate or (lambda c, hi, what: length(c, 0.0, hi, what))
    if shape != "polygon":
        raise Invalid(f"a {shape} has no points", "points only with 'shape: polygon'")
    if not isinstance(value, list) or len(value) < 3 or len(value) > 1000:
        many = f" ({len(value)} given)" if isinstance(value, list) and len(value) > 1000 else ""
        raise Invalid(f"points must be a list of 3 to 1000 [x, y] corners{many}", "e.g. [[0, 0], [30, 0], [15, 26]]")
    out = []
    for n, p in enumerate(value, 1):  # a wrong corner is named by its place in the list and its value
        if not isinstance(p, list) or len(p) != 2:
            raise Invalid(f"point {n} of {len(value)}, {show(p)}, is not [x, y]", "[x, y] in mm")
        try:
            x, y = read(p[0], w, "x"), read(p[1], h, "y")
        except Invalid as e:
            raise Invalid(f"point {n} of {len(value)}, {show(p)}: {e.message}", e.expected) from None
        out.append((x, y))
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(out, out[1:] + out[:1])) / 2
    if abs(area) < 1.0:
        raise Invalid("the points enclose no area", "three or more corners around the piece")
    if (cross := first_crossing(out)) is not None:
        raise Invalid(f"the outline crosses itself: edge {cross[0]} (from point {cross[0]}) crosses edge {cross[1]} "
                      f"(from point {cross[1]}), so its cut would cut the piece in parts",
                      "the corners in order round the piece, each edge meeting only its neighbours")
    return out


def die_faces(value: Any, w: float, h: float) -> tuple[tuple[float, float, float, float], ...]:
    """A template's paper d6: the six face squares of its net, faces 1 to 6, each [x, y, w, h] in
    mm inside the trim (a layout names its boxes instead: data/layouts.py). A face is named by its
    number, and one past the trim or given twice is told so: a die is six different faces."""
    expected = "six [x, y, w, h] boxes in mm, the die's faces 1 to 6, e.g. [[16, 0, 16, 16], [0, 16, 16, 16], …]"
    if not isinstance(value, list) or len(value) != 6:
        raise Invalid(f"{show(value)} is not a list of 6 face boxes", expected)
    out: list[tuple[float, float, float, float]] = []
    for n, box in enumerate(value, 1):
        if not isinstance(box, list) or len(box) != 4:
            raise Invalid(f"face {n}, {show(box)}, is not [x, y, w, h]", expected)
        what = f"face {n}'s"
        x, y = length(box[0], 0.0, w, f"{what} x"), length(box[1], 0.0, h, f"{what} y")
        bw, bh = length(box[2], 0.1, w, f"{what} w"), length(box[3], 0.1, h, f"{what} h")
        if x + bw > w + 1e-6 or y + bh > h + 1e-6:
            raise Invalid(f"face {n}, {show(box)}, runs past the piece's {w:g}×{h:g} mm trim "
                          f"(to {x + bw:g}×{y + bh:g} mm)",
                          f"each face inside the piece: x + w at most {w:g}, y + h at most {h:g}")
        face = (x, y, bw, bh)
        if face in out:
            raise Invalid(f"face {n}, {show(box)}, is face {out.index(face) + 1} again; a die has 6 different "
                          "faces", expected)
        out.append(face)
    return tuple(out)



def stand_up_box(value: Any, w: float, h: float) -> tuple[float, float, float, float]:
    """A template's fold-over standee: the upright figure's box [x, y, w, h] in mm inside the trim,
    what it stands as on a virtual table (a layout names its image box instead: data/layouts.py)."""
    expected = f"[x, y, w, h] in mm, the upright figure's box inside the {w:g}×{h:g} mm piece, e.g. [0, 0, 40, 50]"
    if not isinstance(value, list) or len(value) != 4:
        raise Invalid(f"{show(value)} is not [x, y, w, h]", expected)
    x, y = length(value[0], 0.0, w, "x"), length(value[1], 0.0, h, "y")
    bw, bh = length(value[2], 0.1, w, "w"), length(value[3], 0.1, h, "h")
    if x + bw > w + 1e-6 or y + bh > h + 1e-6:
        raise Invalid(f"{show(value)} runs past the piece's {w:g}×{h:g} mm trim (to {x + bw:g}×{y + bh:g} mm)",
                      f"the box inside the piece: x + w at most {w:g}, y + h at most {h:g}")
    return (x, y, bw, bh)

# a key written where another file or the command line says it: named with its place, not as a slip
ELSEWHERE = {("game.yaml", "bleed"): "; a build's bleed is --bleed (3 mm unless given), a deck's own is bleed: "
                                     "in its deck file (data/<slug>/decks/<id>.yaml)"}


def bleed_fits(bleed_mm: float, w: float, h: float, key: str = "--bleed") -> None:
    """Bleed grows the artwork around the trim; more than half the piece folds the outline."""
    if bleed_mm >= min(w, h) / 2:
        raise Invalid(f"bleed {bleed_mm:g} mm is not less than half this {w:g}×{h:g} mm piece",
                      f"{key} below {min(w, h) / 2:g} mm, or a larger piece")


# --------------------------------------------------------------------------- CLI options

def option(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse ``type=`` from a parser: Invalid becomes argparse's own one-line error."""

    def parse_option(text: str) -> Any:
        try:
            return parse(text)
        except Invalid as e:
            hint = f" (expected {e.expected})" if e.expected else ""
            raise argparse.ArgumentTypeError(e.message + hint) from None

    parse_option.__name__ = parse.__name__  # argparse names the type in its messages
    return parse_option


def dimensions(text: str, lo: float, hi: float, what: str, example: str,
               plausible: tuple[float, float] | None = None) -> tuple[float, float]:
    """``66x91`` (mm; ``2.6x3.6in``, ``6.6cmx9.1cm`` too: a unit after the height is both sides')
    → (width, height) in mm, each within [lo, hi]. Numbers too small for mm are told the unit
    they were likely measured in: inches or centimetres whose sides fall in ``plausible`` (the
    sizes such a thing has; ``6x9`` is a 6 × 9 cm card's sleeve, no 6 × 9 in one), else in range."""
    number = rf"\s*(\d+(?:\.\d+)?)\s*({UNITS})?\s*"
    m = re.fullmatch(number + "[xX×]" + number, text)
    if m:
        w, w_unit, h, h_unit = m.groups()
        sides = (float(w) * MM_PER_UNIT[w_unit or h_unit or "mm"], float(h) * MM_PER_UNIT[h_unit or "mm"])
    if not m or not all(lo <= v <= hi for v in sides):
        # a unit in capitals (66x91MM): refused with the hint a single length gives (3MM: did you mean 3mm?)
        lower = re.fullmatch(number + "[xX×]" + number, text.lower())
        meant = "; did you mean {}{}x{}{}?".format(*(g or "" for g in lower.groups())) if lower and not m else ""
        if m and not (w_unit or h_unit):  # a US designer's sleeve or Cricut area, the inches (or cm) left out
            units = [u for u in ("in", "cm") if all(lo <= float(v) * MM_PER_UNIT[u] <= hi for v in (w, h))]
            likely = [u for u in units if plausible is None or all(
                plausible[0] <= float(v) * MM_PER_UNIT[u] <= plausible[1] for v in (w, h))] or units[:1]
            meant = f"; did you mean {' or '.join(f'{w}x{h}{u}' for u in likely)}?" if likely else meant
        raise Invalid(f"{text!r} is not a {what}{meant}", f"WIDTHxHEIGHT in mm from {lo:g} to {hi:g}, e.g. {example}")
    return sides


def bleed_option(text: str) -> float:
    return length(text, *BLEED_MM, what="bleed")


def margin_option(text: str) -> float:
    return length(text, *MARGIN_MM, what="margin")


def creep_option(text: str) -> float:
    return length(text, *CREEP_MM, what="creep")


# Tabletop Simulator CustomDeck ids: a deck's block of 100 sheet ids in 10,000 slots above the base,
# and each card's id × 100 + slot a 32-bit int (exports/tts.py): 2**31 // 100 − 1,000,000.
DECK_ID_BASE_MAX = 20_474_836


def deck_id_base_option(text: str) -> int:
    """The first CustomDeck id a Tabletop Simulator export may use."""
    expected = f"a whole number from 1 to {DECK_ID_BASE_MAX:,}, e.g. 5000"
    try:
        n = int(text)
    except ValueError:
        raise Invalid(f"{show(text)} is not a whole number", expected) from None
    if not 1 <= n <= DECK_ID_BASE_MAX:
        raise Invalid(f"{n} is not a CustomDeck id pnpgen can start from", expected)
    return n


# --lang as a code is written (en, zh-Hant, es-419; eng and EN too, told the game's code by its
# languages: line): it names build/<game>/<lang>/ and the cache's <game>.<lang>, so a path
# (en/../../..) is refused here; serve read and showed a "last good build" from where it led.
LANGUAGE_EXPECTED = "a two-letter ISO 639-1 code, optionally with a script or region: ja, en, zh-Hant, en-GB"
_LANGUAGE_SHAPE = later(r"[A-Za-z0-9]{1,8}(-[A-Za-z0-9]{1,8}){0,3}")


def language_option(text: str) -> str:
    if not _LANGUAGE_SHAPE.fullmatch(text):
        raise Invalid(f"{show(text)} is not a language code", LANGUAGE_EXPECTED)
    return text


NEW_GAME_KINDS = ("cards", "tokens", "tiles", "board", "standees", "dice", "box")  # the decks ``pnpgen new --kind`` writes
SLUG_CHARS = 64  # a new game's slug at most (it names folders and files: data/names.py)
_NEW_SLUG = later(r"[a-z0-9][a-z0-9_-]{0,63}")


def new_game_slug(text: str) -> str:
    """``pnpgen new``'s game folder name under data/ (checked here, so the CLI's parser needs
    no import of scaffold.py)."""
    if len(text) > SLUG_CHARS and _NEW_SLUG.fullmatch(text[:SLUG_CHARS]) and not re.search(r"[^a-z0-9_-]", text):
        # the right characters, too many of them: it said "not a game slug" and offered the same characters
        raise Invalid(f"{show(text)} is {len(text)} characters long, more than a game slug's {SLUG_CHARS}",
                      f"a slug of at most {SLUG_CHARS} characters, e.g. {text[:SLUG_CHARS].rstrip('-_')}")
    if not _NEW_SLUG.fullmatch(text):
        # the title typed as the slug ("Harbor Lights"): the slug it would make, and --title for the title
        meant = re.sub(r"[^a-z0-9_]+", "-", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()).strip("-_")[:64]
        # a Japanese title leaves only its digits ('ことば2' → '2'): no slug to offer from it
        fit = meant and _NEW_SLUG.fullmatch(meant) and re.search("[a-z]", meant)
        title = text.strip() and len(text) <= LABEL_CHARS and not NAME_CONTROL.search(text)  # (one new takes)
        example = f"{meant if fit else 'my-game'}" + (f" (and --title {shlex.quote(text)} for the title)" if title else "")
        raise Invalid(f"{show(text)} is not a game slug", f"lower-case letters, digits, - and _, e.g. {example}")
    trouble = windows_trouble(text)
    if trouble is not None:  # con: every command would refuse the game (data/names.py)
        raise Invalid(f"{show(text)} {trouble}, which would name the game's output folder",
                      f"another slug, e.g. {text}-game")
    return text


def game_option(text: str) -> str:
    """A game's slug: the name of one folder under data/, nothing that leads elsewhere."""
    return _plain_name(text, "a game name", "a folder name under data/ (see 'pnpgen list')")


def deck_option(text: str) -> str:
    """A deck id: the name of one file under decks/, nothing that leads elsewhere (the command
    then checks that the game has the deck)."""
    return _plain_name(text, "a deck id", "a deck id such as 'cards' (see 'pnpgen list')")


def _plain_name(text: str, what: str, expected: str) -> str:
    if not re.fullmatch(r"[^/\\\0.][^/\\\0]*", text) or len(text.encode("utf-8", "replace")) > 255:
        raise Invalid(f"{show(text)} is not {what}", expected)  # 255 bytes: the longest file name
    return text


def number(value: Any, lo: float, hi: float, what: str) -> float:
    """A plain number (no unit), finite and within [lo, hi]."""
    try:
        v = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError, OverflowError):
        raise Invalid(f"{what} {show(value)} is not a number", f"a number from {lo:g} to {hi:g}") from None
    if not (math.isfinite(v) and lo <= v <= hi):
        raise Invalid(f"{what} {show(value)} is out of range", f"{lo:g} to {hi:g}")
    return v


def min_dpi_option(text: str) -> float:
    return number(text, *MIN_DPI, what="min dpi")


def max_builds_option(text: str) -> int:
    """``watch --max-builds``: how many builds before watch stops (0: never)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 1_000_000:
        raise Invalid(f"{show(text)} is not a number of builds", "0 (never stop) to 1000000")
    return n


def piece_option(text: str) -> int:
    """``check --piece``: a piece's number in its deck (1 the first)."""
    n = int(text) if re.fullmatch(r"[0-9]{1,7}", text.strip()) else 0
    if n < 1:
        raise Invalid(f"{show(text)} is not a piece's number", "a whole number from 1, the piece's place in its deck "
                      "(the number its SVG file's name starts with)")
    return n


def base_url_option(text: str) -> str:
    """Where Tabletop Simulator loads the exported images from: an http(s) or file URL."""
    expected = "an http://, https:// or file:/// URL, e.g. https://example.com/pnp/"
    try:
        url = urlsplit(text)
    except ValueError:
        url = None
    if (url is None or any(c.isspace() or ord(c) < 32 for c in text)
            or not (url.scheme in ("http", "https") and url.hostname or url.scheme == "file" and url.path)):
        raise Invalid(f"{show(text)} is not an address Tabletop Simulator can load from", expected)
    if url.query or url.fragment or any(c in text for c in '"<>\\{}|^`'):  # a file name is added at its end
        raise Invalid(f"{show(text)} has a query, a fragment or a character a URL must not hold",
                      "a folder's address the image names are added to, e.g. https://example.com/pnp/")
    return text


def out_option(text: str) -> Path:
    """An output folder: a folder or a place one can be made, not a file or below one."""
    path = _usable_path(text, "folder name", "a folder to write the build into")
    if path.exists() and not path.is_dir():
        raise Invalid(f"{text} is a file", "a folder to write the build into")
    _nearest_folder(path, text, "a folder to write the build into")
    return path


def sheet_out_option(text: str) -> Path:
    """``export-sheet --out``: a new or existing .csv/.xlsx file in a folder one may write to.
    The suffix keeps it from overwriting a deck's YAML, a template or any other input."""
    return _file_out(text, (".csv", ".xlsx"))


def pdf_out_option(text: str) -> Path:
    """``calibrate --out``: a new or existing .pdf file in a folder one may write to. The suffix
    keeps it from overwriting a deck's YAML, a font or any other input."""
    return _file_out(text, (".pdf",))


def _file_out(text: str, suffixes: tuple[str, ...]) -> Path:
    kinds = " or ".join(suffixes)
    expected = f"a file name ending in {kinds}, in a folder you may write to"
    path = _usable_path(text, "file name", expected)
    if path.suffix.lower() not in suffixes:
        raise Invalid(f"{text} is not a {kinds} file", expected)
    if path.is_dir():
        raise Invalid(f"{text} is a folder", expected)
    folder = _nearest_folder(path.parent, text, expected)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Invalid(f"cannot write in {folder}", expected)
    return path


def _usable_path(text: str, what: str, expected: str) -> Path:
    """``text`` as a path, unless the system would refuse the name (empty, NUL byte, too long)."""
    try:
        if "\0" in text or not text.strip():
            raise ValueError(text)
        path = Path(text)
        path.exists()
        return path
    except (OSError, ValueError):
        raise Invalid(f"{show(text)} is not a usable {what}", expected) from None


def _nearest_folder(path: Path, text: str, expected: str) -> Path:
    """The nearest existing folder at or above ``path``; Invalid when a file stands in the way."""
    probe = path
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        raise Invalid(f"{text} is below the file {probe}", expected)
    return probe


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
