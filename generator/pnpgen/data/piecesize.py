"""A piece's trim size and shape as a deck writes them: size, orientation, corner radius,
polygon points, a die's faces, a standee's upright box, and bleed that fits the piece.

Kept apart from validate.py's values of every kind because these read the piece they belong to
(its shape, its width and height); each raises ``Invalid`` as validate.py's parsers do.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pnpgen.data.formats import PAPER_FORMATS
from pnpgen.data.validate import ORIENTATIONS, ORIENTED_SHAPES, SIZE_MM, Invalid, choice, length, show, typed
from pnpgen.patterns import later
from pnpgen.shapes import first_crossing

_SIZE_WITH_UNIT = later(r"(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*(?:[xX×＊*,、]|\s)\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?")


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
    mm inside the trim (a layout names its boxes instead: data/layoutsides.py). A face is named by its
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
    what it stands as on a virtual table (a layout names its image box instead: data/layoutsides.py)."""
    expected = f"[x, y, w, h] in mm, the upright figure's box inside the {w:g}×{h:g} mm piece, e.g. [0, 0, 40, 50]"
    if not isinstance(value, list) or len(value) != 4:
        raise Invalid(f"{show(value)} is not [x, y, w, h]", expected)
    x, y = length(value[0], 0.0, w, "x"), length(value[1], 0.0, h, "y")
    bw, bh = length(value[2], 0.1, w, "w"), length(value[3], 0.1, h, "h")
    if x + bw > w + 1e-6 or y + bh > h + 1e-6:
        raise Invalid(f"{show(value)} runs past the piece's {w:g}×{h:g} mm trim (to {x + bw:g}×{y + bh:g} mm)",
                      f"the box inside the piece: x + w at most {w:g}, y + h at most {h:g}")
    return (x, y, bw, bh)


def bleed_fits(bleed_mm: float, w: float, h: float, key: str = "--bleed") -> None:
    """Bleed grows the artwork around the trim; more than half the piece folds the outline."""
    if bleed_mm >= min(w, h) / 2:
        raise Invalid(f"bleed {bleed_mm:g} mm is not less than half this {w:g}×{h:g} mm piece",
                      f"{key} below {min(w, h) / 2:g} mm, or a larger piece")
