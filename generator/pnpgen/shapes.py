"""Piece outlines as pure geometry in millimetres: trim size of each shape and its outline polygon.

Coordinates put (0, 0) at the top-left of the piece's trim bounding box, y downwards (as in SVG).
"""

from __future__ import annotations

import math

SQRT3 = math.sqrt(3.0)


def bounding_size(shape: str, size: float, orientation: str = "pointy") -> tuple[float, float]:
    """Trim bounding box of a one-number shape: hex/trihex across flats, circle diameter."""
    if shape == "circle":
        return size, size
    corner = size / SQRT3  # hexagon circumradius for across-flats ``size``
    if shape == "hex":
        w, h = size, 2 * corner
    elif shape == "trihex":
        # Three hexes meeting at one point: centres on a triangle of side ``size``.
        w, h = 2 * size, size * SQRT3 / 2 + 2 * corner
    else:
        raise ValueError(f"{shape} takes [w, h]")
    return (w, h) if orientation == "pointy" else (h, w)
