"""Colour conversion for print: RGB → CMYK, used when a build asks for CMYK output."""

from __future__ import annotations


def to_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """RGB (0–1) → CMYK (0–1) with full grey-component replacement: neutral greys and black
    print on the K plate alone (pure black text is 0/0/0/100, never four-colour)."""
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        return (0.0, 0.0, 0.0, 1.0)
    d = 1.0 - k
    return ((1.0 - r - k) / d, (1.0 - g - k) / d, (1.0 - b - k) / d, k)
