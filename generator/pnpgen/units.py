"""Unit-aware lengths: every length the designer writes may carry mm, cm, in, pt or px.

A bare number is millimetres (parsed, with bounds, by data/validate.py). Only the drawing layer
converts to points.
"""

from __future__ import annotations

MM_PER_UNIT = {
    "mm": 1.0,
    "cm": 10.0,
    "in": 25.4,
    "pt": 25.4 / 72.0,
    "px": 25.4 / 300.0,  # print pixels at 300 dpi, as shops count them
}
PT_PER_MM = 72.0 / 25.4


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM

