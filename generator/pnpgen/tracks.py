"""Score tracks: numbered spaces around a board's edge, as a snake, a row or a column.

``track_spaces`` is pure geometry in millimetres (testable alone); ``track_svg`` draws the spaces
with svgwrite as an SVG fragment for a template (``{{ track(50, 5, 5, w - 10, h - 10) }}``).
Every 5th space is shaded, every 10th shaded darker with a heavier border and a bold number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping

from markupsafe import Markup
from svgwrite import container, shapes, text

LAYOUTS = ("ring", "snake", "row", "column")
PT_MM = 25.4 / 72.0


@dataclass(frozen=True)
class Space:
    value: int  # the number printed (start … n)
    x: float  # top-left, mm
    y: float
    w: float
    h: float
    mark: int  # 10 for every 10th value, 5 for every other 5th, else 0
    side: str  # ring: top | right | bottom | left; snake: "row <k>"

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def _mark(v: int) -> int:
    return 10 if v % 10 == 0 else 5 if v % 5 == 0 else 0


def ring_grid(count: int, w: float, h: float) -> tuple[int, int]:
    """Spaces along the top/bottom (cols) and the sides (rows), corners shared, for ``count``
    spaces round a w×h rectangle: no more than one space to spare, spaces as square as can be."""
    if count < 4:
        raise ValueError("a ring needs at least 4 spaces")
    best = None
    for cols in range(2, count + 1):
        rows = max(2, math.ceil((count + 4 - 2 * cols) / 2))
        total = 2 * cols + 2 * rows - 4
        if total < count:
            continue
        spare = total - count
        skew = abs(math.log((w / cols) / (h / rows)))
        key = (spare, skew)
        if best is None or key < best[0]:
            best = (key, cols, rows)
    assert best is not None
    return best[1], best[2]


def track_spaces(n: int, x: float, y: float, w: float, h: float, layout: str = "ring", start: int = 0,
                 rows: int | None = None) -> list[Space]:
    """Spaces for the values start…n inside the box (x, y, w, h), in playing order.

    ring: clockwise from the top-left corner round the box's edge; snake: rows alternating
    left→right and right→left from the top (``rows`` or as square as fits); row; column."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown track layout {layout!r}: one of {', '.join(LAYOUTS)}")
    values = list(range(start, n + 1))
    count = len(values)
    if count < 1 or w <= 0 or h <= 0:
        raise ValueError("a track needs at least one space and a box with an area")
    cells: list[tuple[float, float, float, float, str]] = []
    if layout == "ring":
        cols, nrows = ring_grid(count, w, h)
        cw, ch = w / cols, h / nrows
        for i in range(cols):
            cells.append((x + i * cw, y, cw, ch, "top"))
        for j in range(1, nrows):
            cells.append((x + (cols - 1) * cw, y + j * ch, cw, ch, "right"))
        for i in range(cols - 2, -1, -1):
            cells.append((x + i * cw, y + (nrows - 1) * ch, cw, ch, "bottom"))
        for j in range(nrows - 2, 0, -1):
            cells.append((x, y + j * ch, cw, ch, "left"))
    else:
        if layout == "row":
            nrows, per = 1, count
        elif layout == "column":
            nrows, per = count, 1
        else:
            if rows is None:
                rows = min(range(1, count + 1),
                           key=lambda r: abs(math.log((w / math.ceil(count / r)) / (h / r))))
            nrows, per = rows, math.ceil(count / rows)
        cw, ch = w / per, h / nrows
        for r in range(nrows):
            for k in range(per):
                i = k if r % 2 == 0 else per - 1 - k
                cells.append((x + i * cw, y + r * ch, cw, ch, f"row {r + 1}"))
    return [Space(v, *cells[k][:4], _mark(v), cells[k][4]) for k, v in enumerate(values)]


def _num(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def track_svg(n: int, x: float, y: float, w: float, h: float, layout: str = "ring", start: int = 0,
              rows: int | None = None, *, fonts: Mapping[str, str], width_mm: Callable[[str, str, float], float],
              resolve: Callable[[str], str] = lambda c: c, fill: str = "#ffffff", stroke: str = "#000000",
              mark5: str = "#e6e6e6", mark10: str = "#c8c8c8", ink: str = "#000000", stroke_width: float = 0.3,
              font: str = "gothic", bold: str = "bold", size: float | None = None, gap: float = 0.0,
              radius: float = 0.0, highlight: Mapping | None = None, labels: Mapping | None = None,
              numbers: bool = True) -> Markup:
    """The track as an SVG ``<g>``. Sizes: mm, except ``size`` (the number's size in pt; default
    fits the space). ``highlight`` maps values to fill colours (palette names allowed), ``labels``
    maps values to text printed instead of the number."""
    spaces = track_spaces(n, x, y, w, h, layout, start, rows)
    highlight = {int(k): v for k, v in (highlight or {}).items()}
    labels = {int(k): str(v) for k, v in (labels or {}).items()}
    g = container.Group(class_="track", debug=False)
    for s in spaces:
        colour = resolve(highlight[s.value]) if s.value in highlight else (
            resolve(mark10) if s.mark == 10 else resolve(mark5) if s.mark == 5 else resolve(fill))
        sw = stroke_width * (2 if s.mark == 10 else 1)
        g.add(shapes.Rect((_num(s.x + gap / 2), _num(s.y + gap / 2)),
                          (_num(s.w - gap), _num(s.h - gap)), rx=_num(radius), ry=_num(radius),
                          fill=colour, stroke=resolve(stroke), stroke_width=_num(sw), debug=False))
        label = labels.get(s.value, str(s.value) if numbers else "")
        if not label:
            continue
        role = bold if s.mark == 10 else font
        face = fonts.get(role, role)
        room = min(s.w, s.h) - gap
        pt = size if size is not None else room * 0.5 / PT_MM
        # shrink a long label to the space's width
        tw = width_mm(label, face, pt)
        if tw > (s.w - gap) * 0.85:
            pt *= (s.w - gap) * 0.85 / tw
            tw = width_mm(label, face, pt)
        em = pt * PT_MM
        cx, cy = s.centre
        g.add(text.Text(label, insert=(_num(cx - tw / 2), _num(cy + em * 0.36)), font_family=face,
                        font_size=_num(em), fill=resolve(ink), debug=False))
    return Markup(g.tostring())
