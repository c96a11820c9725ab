"""Score tracks: numbered spaces around a board's edge, as a snake, a row or a column.

``track_spaces`` is pure geometry in millimetres (testable alone); ``track_svg`` draws the spaces
with svgwrite as an SVG fragment for a template (``{{ track(50, 5, 5, w - 10, h - 10) }}``).
Every 5th space is shaded, every 10th shaded darker with a heavier border and a bold number;
each of those, the start space and the plain spaces can be restyled (fill, border, inner frame
line, number colour, font and size). The fragment carries its geometry (``.spaces``, ``.inner``)
so a template can add art to a space or fit its centre into the ring.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from markupsafe import Markup

from pnpgen.shapes import RING_FEWEST, ring_grid, ring_hole
from pnpgen.units import MM_PER_PT, num

LAYOUTS = ("ring", "snake", "row", "column")
# what a ring does with its one spare slot when the count is odd (a ring's slots are always even)
SPARES = ("gap", "start", "uneven")
# the keys of a space's style (the base style is track_svg's keyword arguments of the same names)
STYLE_KEYS = ("fill", "stroke", "stroke_width", "ink", "font", "size", "dy", "radius", "frame", "frame_width",
              "frame_inset", "frame_radius")


class XY(NamedTuple):
    """A point in mm, for templates: ``p.x``, ``p.y``, and it unpacks: ``{% set x, y = p %}``."""

    x: float
    y: float


class Box(NamedTuple):
    """A box in mm, for templates: ``b.x``, ``b.y``, ``b.w``, ``b.h``, and it unpacks:
    ``{% set x, y, w, h = t.inner %}``."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Space:
    """One numbered space of a score track, where it lies on the board: what a template draws on or fits art
    into."""

    value: int  # the number printed (start … n)
    x: float  # top-left, mm
    y: float
    w: float
    h: float
    mark: int  # 10 for every 10th value, 5 for every other 5th, else 0
    side: str  # ring: top | right | bottom | left; snake: "row <k>"

    @property
    def centre(self) -> XY:
        return XY(self.x + self.w / 2, self.y + self.h / 2)


def _mark(v: int) -> int:
    return 10 if v % 10 == 0 else 5 if v % 5 == 0 else 0


Cell = tuple[float, float, float, float, str]


def _ring(count: int, x: float, y: float, w: float, h: float, spare: str) -> tuple[list[Cell], Box]:
    """The ring's cells clockwise from the top-left corner, and the hole inside it (x, y, w, h).

    With an odd count the grid has one slot to spare: ``gap`` leaves the last slot (just below
    the start) empty; ``start`` gives the first space two slots; ``uneven`` puts one space fewer
    between the top corners (between the right-hand corners on a box taller than wide), those
    spaces a little longer, the corners and the columns staying aligned."""
    if spare not in SPARES:
        raise ValueError(f"unknown spare {spare!r}: one of {', '.join(SPARES)}")
    cols, nrows = ring_grid(count, w, h)
    cw, ch = w / cols, h / nrows
    odd = 2 * cols + 2 * nrows - 4 > count
    top: list[tuple[float, float]] = [(x + i * cw, cw) for i in range(cols)]  # (x, width)
    right: list[tuple[float, float]] = [(y + j * ch, ch) for j in range(1, nrows - 1)]  # (y, height)
    if odd and spare == "uneven":
        if cols >= 4 and (cols >= nrows or nrows < 4):
            k = cols - 3
            top = [top[0]] + [(x + cw + i * (w - 2 * cw) / k, (w - 2 * cw) / k) for i in range(k)] + [top[-1]]
        elif nrows >= 4:
            k = nrows - 3
            right = [(y + ch + j * (h - 2 * ch) / k, (h - 2 * ch) / k) for j in range(k)]
        else:  # too small a ring to keep the corners: share the top row out evenly
            top = [(x + i * w / (cols - 1), w / (cols - 1)) for i in range(cols - 1)]
    cells: list[Cell] = [(tx, y, tw, ch, "top") for tx, tw in top]
    cells += [(x + w - cw, ry, cw, rh, "right") for ry, rh in right]
    cells.append((x + w - cw, y + h - ch, cw, ch, "right"))
    for i in range(cols - 2, -1, -1):
        cells.append((x + i * cw, y + h - ch, cw, ch, "bottom"))
    for j in range(nrows - 2, 0, -1):
        cells.append((x, y + j * ch, cw, ch, "left"))
    if odd and spare == "start":
        a = cells[0]
        cells[:2] = [(a[0], a[1], 2 * a[2], a[3], a[4])]
    return cells, Box(*ring_hole(count, x, y, w, h))


def track_spaces(n: int, x: float, y: float, w: float, h: float, layout: str = "ring", start: int = 0,
                 rows: int | None = None, spare: str = "gap") -> list[Space]:
    """Spaces for the values start…n inside the box (x, y, w, h), in playing order.

    ring: clockwise from the top-left corner round the box's edge (``spare``: what an odd count's
    spare slot becomes, see ``_ring``); snake: rows alternating left→right and right→left from the
    top (``rows`` or as square as fits); row; column."""
    return _layout(n, x, y, w, h, layout, start, rows, spare)[0]


def track_inner(n: int, x: float, y: float, w: float, h: float, layout: str = "ring", start: int = 0,
                rows: int | None = None, spare: str = "gap") -> Box | None:
    """The hole inside a ring track as (x, y, w, h) in mm, for the board's centre; None for the
    other layouts."""
    return _layout(n, x, y, w, h, layout, start, rows, spare)[1]


MAX_SPACES = 1_000


def _layout(n, x, y, w, h, layout, start, rows, spare):
    if isinstance(layout, (int, float)):
        raise ValueError(f"track()'s sixth value, layout, is {layout!r}, a number: track takes n, x, y, w, h, then "
                         f"layout= (one of {', '.join(LAYOUTS)}); one length too many?")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown track layout {layout!r}: one of {', '.join(LAYOUTS)}")
    if n - start + 1 > MAX_SPACES:
        raise ValueError(f"a track of {n - start + 1:,} spaces: at most {MAX_SPACES:,} (a score track runs to 50 or 100)")
    values = list(range(start, n + 1))
    count = len(values)
    spaces = f"track({n}, start={start}) has {max(count, 0)} space{'' if count == 1 else 's'}, {start}…{n}"
    if count < 1 or w <= 0 or h <= 0:
        raise ValueError(f"a track needs at least one space and a box with an area ({spaces}, in a {w:g}×{h:g} mm "
                         "box; its first number is the last space's, not how many: track(start + 24, start=start) "
                         "gives 25)")
    if layout == "ring" and count < RING_FEWEST:
        raise ValueError(f"a ring needs at least {RING_FEWEST} spaces ({spaces}; its first number is the last space's, not how "
                         "many: track(start + 24, start=start) gives 25)")
    cells: list[Cell] = []
    inner = None
    if layout == "ring":
        cells, inner = _ring(count, x, y, w, h, spare)
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
    return [Space(v, *cells[k][:4], _mark(v), cells[k][4]) for k, v in enumerate(values)], inner


class TrackSvg(Markup):
    """The drawn track, an SVG ``<g>``, with its geometry: ``spaces`` (the Spaces in playing
    order) and ``inner`` (the hole inside a ring as x, y, w, h; None for other layouts)."""

    spaces: list[Space]
    inner: Box | None


def _style(value: Any, what: str) -> dict[str, Any]:
    """A space style given as a fill colour or as a mapping of STYLE_KEYS."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {"fill": value}
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - set(STYLE_KEYS))
        if unknown:
            raise ValueError(f"unknown {what} style key(s) {', '.join(map(str, unknown))}: "
                             f"one of {', '.join(STYLE_KEYS)}")
        return dict(value)
    raise ValueError(f"{what} style: a colour or a mapping of {', '.join(STYLE_KEYS)}, not {value!r}")


def track_svg(n: int, x: float, y: float, w: float, h: float, layout: str = "ring", start: int = 0,
              rows: int | None = None, *, fonts: Mapping[str, str], width_mm: Callable[[str, str, float], float],
              resolve: Callable[[str], str] = lambda c: c, fill: Any = "#ffffff", stroke: str = "#000000",
              mark5: Any = "#e6e6e6", mark10: Any = "#c8c8c8", first: Any = None, ink: str = "#000000",
              stroke_width: float = 0.3, font: str = "gothic", bold: str = "bold", size: float | None = None,
              dy: float = 0.0, gap: float = 0.0, radius: float = 0.0, frame: str | None = None,
              frame_width: float = 0.3, frame_inset: float = 0.8, frame_radius: float | None = None, spare: str = "gap",
              highlight: Mapping | None = None, labels: Mapping | None = None, numbers: bool = True) -> TrackSvg:
    """The track as an SVG ``<g>`` (a TrackSvg: also ``.spaces`` and ``.inner``). Sizes: mm, except
    ``size`` (the number's size in pt; default fits the space). ``spare``: see ``_ring``.

    Styles cascade: the keyword arguments style every space; ``mark5`` (every 5th), ``mark10``
    (every 10th: by default a doubled border and the ``bold`` font) and then ``first`` (the start
    space) override them, each given as a fill colour or a mapping of STYLE_KEYS. ``fill`` may be
    a list, cycled along the track. ``frame`` is the colour of a line ``frame_inset`` inside each
    space (None: none; ``frame_radius`` defaults to concentric with ``radius``); ``stroke="none"``
    draws no border; ``dy`` moves the number down (negative: up), e.g. to leave room for art
    under it. ``highlight`` maps values to fill colours, ``labels`` maps values to text printed
    instead of the number ("" for none). Colours: palette names or ``#rrggbb``."""
    spaces, inner = _layout(n, x, y, w, h, layout, start, rows, spare)
    highlight = {int(k): v for k, v in (highlight or {}).items()}
    labels = {int(k): str(v) for k, v in (labels or {}).items()}
    base = dict(fill=fill, stroke=stroke, stroke_width=stroke_width, ink=ink, font=font, size=size, dy=dy,
                radius=radius, frame=frame, frame_width=frame_width, frame_inset=frame_inset,
                frame_radius=frame_radius)
    by_mark = {0: {}, 5: _style(mark5, "mark5"),
               10: {"stroke_width": 2 * stroke_width, "font": bold, **_style(mark10, "mark10")}}
    first_style = _style(first, "first")

    def paint(c: Any, i: int) -> str:
        if isinstance(c, (list, tuple)):
            c = c[i % len(c)]
        return "none" if c is None or c == "none" else resolve(c)

    from svgwrite import container, shapes, text  # only games with a score track need it

    g = container.Group(class_="track", debug=False)
    for i, s in enumerate(spaces):
        st = {**base, **by_mark[s.mark], **(first_style if s.value == start else {})}
        if s.value in highlight:
            st["fill"] = highlight[s.value]
        rx, ry, rw, rh = s.x + gap / 2, s.y + gap / 2, s.w - gap, s.h - gap
        border = paint(st["stroke"], i)
        extra = {} if border == "none" else {"stroke_width": num(float(st["stroke_width"]))}
        g.add(shapes.Rect((num(rx), num(ry)), (num(rw), num(rh)), rx=num(st["radius"]),
                          ry=num(st["radius"]), fill=paint(st["fill"], i), stroke=border, debug=False,
                          **extra))
        line = paint(st["frame"], i)
        if line != "none":
            fi = float(st["frame_inset"])
            fr = max(float(st["radius"]) - fi, 0.0) if st["frame_radius"] is None else float(st["frame_radius"])
            g.add(shapes.Rect((num(rx + fi), num(ry + fi)), (num(rw - 2 * fi), num(rh - 2 * fi)),
                              rx=num(fr), ry=num(fr), fill="none", stroke=line,
                              stroke_width=num(float(st["frame_width"])), class_="frame", debug=False))
        label = labels.get(s.value, str(s.value) if numbers else "")
        if not label:
            continue
        face = fonts.get(st["font"], st["font"])
        room = min(s.w, s.h) - gap
        pt = float(st["size"]) if st["size"] is not None else room * 0.5 / MM_PER_PT
        # shrink a long label to the space's width
        tw = width_mm(label, face, pt)
        if tw > (s.w - gap) * 0.85:
            pt *= (s.w - gap) * 0.85 / tw
            tw = width_mm(label, face, pt)
        em = pt * MM_PER_PT
        cx, cy = s.centre
        cy += float(st["dy"])
        g.add(text.Text(label, insert=(num(cx - tw / 2), num(cy + em * 0.36)), font_family=face,
                        font_size=num(em), fill=paint(st["ink"], i), debug=False))
    out = TrackSvg(g.tostring())
    out.spaces, out.inner = spaces, inner
    return out
