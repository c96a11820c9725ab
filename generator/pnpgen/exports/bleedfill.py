"""Whether a face's art fills its bleed, as a print shop's preflight looks at it: the piece's
outline walked every millimetre, the art read just inside it (0.6 and 1.6 mm in) and in the bleed
beyond it (0.6 mm out and 0.6 mm short of the bleed's edge). Where, for 5 mm of the outline or
more, the art is inked inside and the bleed is bare paper, the background stops at the trim, and a
cut that drifts shows a white edge: the first reason shops turn cards away (OneBookShelf, "Common Card Prep Issues & Solutions": "No
Bleed – Your card PDF must include bleed"; 同人印刷所: 塗り足しがない). A design whose edge is
white inside the trim, or a frame line under a millimetre wide, is not named."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pnpgen.shapes import mirror_x, outline, shape_spec, translate

if TYPE_CHECKING:  # Pillow loads when a face is read: a build that reads none never imports it
    from PIL import Image

INSIDE_MM = (0.6, 1.6)  # depths inside the trim that must both be inked
OUTSIDE_MM = 0.6  # the bleed is read from this far outside the trim to this far short of its edge
STEP_MM = 1.0  # the outline is walked in steps of this
PAPER = 245  # a pixel whose every channel is at least this is bare paper
RUN = 5  # so many steps in a row bare beyond inked art (5 mm of the outline) are named
SIDES = ("top", "right", "bottom", "left", "round the cut line")
READ_PX_PER_MM = 4.0  # a PDF page is read at this resolution (a poker card: 340×440 px)


def bare_sides(image: Image.Image, px_per_mm: float, origin: tuple[float, float], trim: tuple[float, float],
               bleed: float, shape: str, options: dict, side: str) -> list[str]:
    """Where the face on ``image`` (a page rendered at ``px_per_mm``, the piece's trim at ``origin``
    mm from its top-left, ``trim`` its size) leaves its ``bleed`` bare beyond inked art: the sides
    of a rectangle ("left", "top", …), or ["round the cut line"] for any other shape."""
    spec = shape_spec(shape, trim, options)
    place = translate(*origin)
    if side == "back" and not spec.mirror_symmetric:
        place = mirror_x(spec.w).then(place)
    points = outline(spec).transformed(place).points(0.05)
    clockwise = _area(points) > 0  # y down: a positive shoelace sum turns clockwise on the page
    steps: list[tuple[float, float, float, float]] = []  # each step's point on the outline and outward normal
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-9:
            continue
        nx, ny = ((y1 - y0) / length, -(x1 - x0) / length) if clockwise else (-(y1 - y0) / length, (x1 - x0) / length)
        n = max(1, round(length / STEP_MM))
        steps.extend((x0 + (i + 0.5) / n * (x1 - x0), y0 + (i + 0.5) / n * (y1 - y0), nx, ny) for i in range(n))
    if not steps:
        return []
    # the few hundred points read from the pixels' bytes as they are, no numpy: a build that reads
    # one face for bare bleed imported it for this alone (some 0.05-0.1 CPU-s on the build's own
    # process, while the other core draws its share of the documents)
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # (convert copies even an RGB image)
    pixels, size = rgb.tobytes(), rgb.size
    inked = [all(hit == 1 for hit in at) for at in zip(*(_read(pixels, size, px_per_mm, steps, -d) for d in INSIDE_MM))]
    bare = [all(hit == 0 for hit in at)
            for at in zip(*(_read(pixels, size, px_per_mm, steps, d) for d in (OUTSIDE_MM, bleed - OUTSIDE_MM)))]
    run, named = 0, set[str]()
    for (_, _, nx, ny), hit in zip(steps, (i and b for i, b in zip(inked, bare))):
        run = run + 1 if hit else 0
        if run >= RUN:  # a stretch of bare bleed, not the gaps of a striped picture
            named.add(_side(nx, ny) if spec.kind == "rect" else "round the cut line")
    return [where for where in SIDES if where in named]


def _read(pixels: bytes, size: tuple[int, int], px_per_mm: float, steps: list[tuple[float, float, float, float]],
          depth: float) -> list[int]:
    """At each outline point of ``steps`` (x, y and outward normal, mm), ``depth`` mm outward
    (inward when negative) on the RGB ``pixels`` (``size`` wide and high, 3 bytes a pixel, rows
    whole): 1 inked, 0 bare paper (every channel at least PAPER), -1 off the image. (Rounded half
    to even, as numpy's rint, which this read used.)"""
    w, h = size
    out = []
    for x, y, nx, ny in steps:
        u, v = round((x + nx * depth) * px_per_mm), round((y + ny * depth) * px_per_mm)
        if 0 <= u < w and 0 <= v < h:
            at = 3 * (v * w + u)
            out.append(0 if min(pixels[at:at + 3]) >= PAPER else 1)
        else:
            out.append(-1)
    return out


def _area(points: list[tuple[float, float]]) -> float:
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1])) / 2


def _side(nx: float, ny: float) -> str:
    """A rectangle's side by its outward normal (y down)."""
    if abs(nx) >= abs(ny):
        return "right" if nx > 0 else "left"
    return "bottom" if ny > 0 else "top"



def bare_bleed_warning(first: str, more: int, sides: list[str], bleed: float) -> str:
    """One line for a file's faces whose bleed is bare: the first (``first``: where it is), how
    many more, which sides."""
    others = f" and {more} more" if more else ""
    where = "round the cut line" if sides == ["round the cut line"] else "on the " + ", ".join(sides)
    return (f"{first}{others}: the art stops at the trim {where}, and the {bleed:g} mm bleed beyond it is bare "
            "paper: a cut that drifts shows a white edge (shops turn such files away); draw the background out "
            "to the bleed's edge (in a template: from -bleed to w + bleed)")
