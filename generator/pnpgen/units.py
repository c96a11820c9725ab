"""Unit-aware lengths: every length the designer writes may carry mm, cm, in, pt or px.

A bare number is millimetres (parsed, with bounds, by data/validate.py). Only the drawing layer
converts to points.
"""

from __future__ import annotations

MM_PER_INCH = 25.4
PT_PER_MM = 72.0 / MM_PER_INCH
MM_PER_PT = MM_PER_INCH / 72.0
MM_PER_UNIT = {
    "mm": 1.0,
    "cm": 10.0,
    "in": MM_PER_INCH,
    "pt": MM_PER_PT,
    "px": MM_PER_INCH / 300.0,  # print pixels at 300 dpi, as shops count them
}


def mm_to_pt(mm: float) -> float:
    return mm * PT_PER_MM


def pt_to_mm(pt: float) -> float:
    return pt * MM_PER_PT


def mm_to_px(mm: float, dpi: float) -> float:
    """Pixels covering ``mm`` at ``dpi``."""
    return mm * dpi / MM_PER_INCH


def num(v: float, digits: int = 3) -> str:
    """A number written into SVG or PDF: at most ``digits`` decimals, no trailing zeros, never
    ``-0``, so the same value always prints the same (byte-identical output)."""
    s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s

