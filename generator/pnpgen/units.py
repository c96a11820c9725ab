"""Unit-aware lengths: every length the designer writes may carry mm, cm, in, pt or px.

A bare number is millimetres. Only the drawing layer converts to points.
"""

from __future__ import annotations

import re

MM_PER_UNIT = {
    "mm": 1.0,
    "cm": 10.0,
    "in": 25.4,
    "pt": 25.4 / 72.0,
    "px": 25.4 / 300.0,  # print pixels at 300 dpi, as shops count them
}
PT_PER_MM = 72.0 / 25.4

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt|px)?\s*$")


def parse_length(value: object) -> float:
    """Return millimetres for ``3``, ``"3mm"``, ``"0.125in"``, ``"10pt"`` or ``"36px"``."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        m = _LENGTH.match(value)
        if m:
            return float(m.group(1)) * MM_PER_UNIT[m.group(2) or "mm"]
    raise ValueError(f"{value!r} is not a length like 63, '63mm', '2.5in' or '10pt'")


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM

