"""Lengths in a layout's boxes: millimetres, a length with a unit, or arithmetic on the trim
(``'w - 2 * safe'``, a tuck box's ``front.x + 4``), each box option's length parser built here
with its range (data/layouts.py declares the options)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from pnpgen.boxnet import TuckBox
from pnpgen.data import validate as v
from pnpgen.errors import suggest
from pnpgen.patterns import later
from pnpgen.units import MM_PER_UNIT

_TOKEN = later(rf"\s*(?:([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*({v.UNITS})?|([a-z_]+(?:\.[a-z]+)?)|(\S))")
_LENGTH_HINT = "mm, a unit ('2.5in'), or arithmetic on w, h and safe: 'w - 8', 'h / 2 - 6'"
# a number in exponent, hexadecimal, octal, binary or grouped form (1e3, 0x10, 1_000), from its first digit
_OTHER_NOTATION = later(r"[0-9][0-9.]*(?:[eE][-+]?[0-9]+|[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+|(?:_[0-9]+)+)")


class Frame(tuple):
    """A trim (w, h) with more names its lengths may read: a tuck box's panels, ``front.x``,
    ``front.y``, ``front.w``, ``front.h`` (boxnet.TuckBox.panels)."""

    names: dict[str, float]


def frame(trim: tuple[float, float], options: dict[str, Any]) -> tuple[float, float]:
    """``trim`` with a tuck box's panels (shape options ``box``) named for the layout's lengths:
    each one's x, y, w and h."""
    if "box" not in options:
        return trim
    out = Frame((float(trim[0]), float(trim[1])))
    panels = TuckBox(*options["box"]).panels()
    out.names = {f"{name}.{k}": value for name, box in panels.items() for k, value in zip("xywh", box)}
    return out


def _expression(text: str, trim: tuple[float, float]) -> float:
    """``'w - 2 * safe'`` → mm: + - * / and brackets over numbers (with units), w, h, safe (and
    a tuck box's panels: ``front.x + 4``)."""
    names = {"w": trim[0], "h": trim[1], "safe": 3.0, **getattr(trim, "names", {})}
    tokens: list[Any] = []
    pos = 0
    text = v.typed(text)
    number_at = -1  # where the last number began
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            break
        pos = m.end()
        if m.group(1):
            number_at = m.start(1)
            tokens.append(float(m.group(1)) * MM_PER_UNIT[m.group(2) or "mm"])
        elif m.group(3):
            right_after_digits = number_at >= 0 and text[m.start(3) - 1].isdigit()  # 1e9, not 1 e
            written = _OTHER_NOTATION.match(text, number_at) if right_after_digits else None
            if written is not None:
                meant = v.in_decimal(written.group())
                raise v.Invalid(f"{written.group()!r} in {v.show(text)} is a number written in another notation"
                                + (f"; did you mean {meant}?" if meant else ""), _LENGTH_HINT)
            if m.group(3) not in names:
                panels = sorted({n.partition(".")[0] for n in names if "." in n})
                raise v.Invalid(f"unknown name {m.group(3)!r} in {v.show(text)}{suggest(m.group(3), list(names))}",
                                _LENGTH_HINT + (
                    "; a panel's x, y, w or h: " + ", ".join(f"{p}.x" for p in panels) if panels else ""))
            tokens.append(names[m.group(3)])
        elif m.group(4) in "+-*/()":
            tokens.append(m.group(4))
        else:
            raise v.Invalid(f"{v.show(text)} is not a length", _LENGTH_HINT)
    at = 0

    def peek() -> Any:
        return tokens[at] if at < len(tokens) else None

    def take() -> Any:
        nonlocal at
        at += 1
        return tokens[at - 1]

    def factor() -> float:
        t = take() if peek() is not None else None
        if t == "-":
            return -factor()
        if t == "+":
            return factor()
        if t == "(":
            value = expr()
            if take() != ")" if peek() is not None else True:
                raise v.Invalid(f"{v.show(text)}: a bracket is not closed", _LENGTH_HINT)
            return value
        if isinstance(t, float):
            return t
        raise v.Invalid(f"{v.show(text)} is not a length", _LENGTH_HINT)

    def term() -> float:
        value = factor()
        while peek() in ("*", "/"):
            op, right = take(), factor()
            if op == "/" and right == 0:
                raise v.Invalid(f"{v.show(text)} divides by zero", _LENGTH_HINT)
            value = value * right if op == "*" else value / right
        return value

    def expr() -> float:
        value = term()
        while peek() in ("+", "-"):
            value = value + term() if take() == "+" else value - term()
        return value

    value = expr()
    if at != len(tokens):
        raise v.Invalid(f"{v.show(text)} is not a length", _LENGTH_HINT)
    return value


def length(lo: float, hi: float) -> Callable[[Any, tuple[float, float]], float]:
    def parse(value: Any, trim: tuple[float, float]) -> float:
        if isinstance(value, str) and not re.fullmatch(rf"\s*[-+]?[0-9.]+\s*({v.UNITS})?\s*", v.typed(value)):
            if len(value) > 200:
                raise v.Invalid(f"{v.show(value)} is too long for a length", _LENGTH_HINT)
            mm = _expression(value, trim)
            if not (math.isfinite(mm) and lo <= mm <= hi):
                raise v.Invalid(f"{v.show(value)} is {mm:g} mm, out of range", f"{lo:g} to {hi:g} mm")
            return round(mm, 3)
        return round(v.length(value, lo, hi), 3)
    parse.__doc__ = f"a length, {lo:g} to {hi:g} mm"
    return parse


MIN_DASH = 0.1  # mm: a finer dash prints as a grey line (600 dpi is 0.04 mm), and Poppler gives up drawing 80 million


def dash_length(value: Any, trim: tuple[float, float]) -> float:
    """A line's dash: 0 (solid), or MIN_DASH to 50 mm."""
    mm = length(0, 50)(value, trim)
    if 0 < mm < MIN_DASH:
        raise v.Invalid(f"a dash of {mm:g} mm is finer than a printer prints (a grey line; a viewer may draw nothing)",
                        f"0 (solid) or {MIN_DASH:g} to 50 mm")
    return mm


def points(lo: float, hi: float) -> Callable[[Any, tuple[float, float]], float]:
    def parse(value: Any, trim: tuple[float, float]) -> float:
        if isinstance(value, str) and v.typed(value).endswith("pt"):
            value = v.typed(value)[:-2]
        return v.number(value, lo, hi, "font size")
    parse.__doc__ = f"points, {lo:g} to {hi:g}"
    return parse


def number(lo: float, hi: float) -> Callable[[Any, tuple[float, float]], float]:
    def parse(value: Any, trim: tuple[float, float]) -> float:
        return v.number(value, lo, hi, "value")
    parse.__doc__ = f"a number, {lo:g} to {hi:g}"
    return parse
