"""Piece outlines as pure geometry in millimetres: trim, bleed and cut paths of every shape.

Coordinates put (0, 0) at the top-left of the piece's trim bounding box, y downwards (as in SVG
and the templates). Nothing here knows points or PDF.

Every outline is "a core polygon grown by a radius": a hexagon is its polygon grown by 0, a
rounded rectangle the inner rectangle grown by its corner radius, a circle its centre grown by
the radius. Growing further by ``d`` (round joins) gives the bleed path, whose every point lies
exactly ``d`` outside the trim path. Rectangles use mitred joins instead, so their bleed path is
the PDF BleedBox.

Shapes (``size`` is one hexagon's width across the flats, or the circle's diameter):

- ``hex``: pointy (a corner up) or flat (a flat edge up).
- ``trihex``: three hexes meeting at one point. Pointy: two hexes on top, centres (S/2, R) and
  (3S/2, R), and one below, centre (S, R + S·√3/2), where S = size and R = S/√3 is a hexagon's
  corner radius; they meet at (S, 1.5·R). The trim box is 2S × 3.5R. Flat: the pointy one
  turned 90° anticlockwise (two hexes on the left, one on the right).
- ``circle``, ``rect``, ``rounded`` (``corner_radius``), ``polygon`` (``points`` in mm).
- ``tuckbox``: a tuck box's net (boxnet.py), from the figures of the deck's ``box:``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from pnpgen.boxnet import TuckBox
from pnpgen.units import num

SQRT3 = math.sqrt(3.0)
TAU = 2 * math.pi

Point = tuple[float, float]


# --------------------------------------------------------------------------- sizes

def plain_repr(cls: type) -> type:
    """``cls`` (a dataclass) with the repr ``@dataclass`` writes, less its guard against cycles:
    page plans are trees, and the repr of a thousand-card deck's pages is what the build hashes
    to know which pages and documents changed (the same text, twice as fast)."""
    shown = ", ".join(f"{f.name}={{self.{f.name}!r}}" for f in fields(cls) if f.repr)
    namespace: dict = {}
    exec(f"def __repr__(self):\n    return f'{cls.__qualname__}({shown})'\n", namespace)
    cls.__repr__ = namespace["__repr__"]  # type: ignore[method-assign]
    return cls


def kept_repr(cls: type) -> type:
    """``plain_repr``, and the text kept on the object once written: for frozen dataclasses of
    immutable values only (tuples, numbers, text, other frozen shapes), whose text cannot change.
    A deck's few clip outlines and die lines are shared by every piece placed with them, and the
    pages' text (their signatures, the documents' plan keys) writes them out once for each piece,
    twice on a home sheet. Its hash is kept so too. The kept text and hash do not travel with the
    object (pickled to a worker process, they are made there anew)."""
    plain_repr(cls)
    write: Callable[[Any], str] = cls.__repr__  # type: ignore[assignment]
    hashed: Callable[[Any], int] = cls.__hash__  # type: ignore[assignment]

    def __repr__(self) -> str:
        text = self.__dict__.get("_repr")
        if text is None:
            text = write(self)
            object.__setattr__(self, "_repr", text)
        return text

    def __hash__(self) -> int:  # (kept too: the writer keys a sheet's marks, 36 lines, by the object: 20 µs a page)
        h = self.__dict__.get("_hash")
        if h is None:
            h = hashed(self)
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_repr", "_hash")}

    cls.__repr__ = __repr__  # type: ignore[assignment,method-assign]
    if hashed is not None:  # (a frozen dataclass's)
        cls.__hash__ = __hash__  # type: ignore[assignment,method-assign]
    cls.__getstate__ = __getstate__  # type: ignore[assignment,method-assign]
    return cls


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


# --------------------------------------------------------------------------- affine maps

@kept_repr
@dataclass(frozen=True)
class Affine:
    """x' = a·x + c·y + e, y' = b·x + d·y + f (millimetres, y down)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def __call__(self, p: Point) -> Point:
        x, y = p
        return self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f

    def then(self, other: Affine) -> Affine:
        """The map ``other ∘ self``: first self, then other."""
        o = other
        return Affine(
            o.a * self.a + o.c * self.b,
            o.b * self.a + o.d * self.b,
            o.a * self.c + o.c * self.d,
            o.b * self.c + o.d * self.d,
            o.a * self.e + o.c * self.f + o.e,
            o.b * self.e + o.d * self.f + o.f,
        )

    def inverse(self) -> Affine:
        det = self.a * self.d - self.b * self.c
        a, b, c, d = self.d / det, -self.b / det, -self.c / det, self.a / det
        return Affine(a, b, c, d, -(a * self.e + c * self.f), -(b * self.e + d * self.f))

    @property
    def det(self) -> float:
        return self.a * self.d - self.b * self.c

    @property
    def rotation(self) -> int:
        """Clockwise quarter-turn of a rigid map without mirroring, in degrees (0, 90, 180, 270)."""
        return int(round(math.degrees(math.atan2(self.b, self.a)))) % 360

    def tuple(self) -> tuple[float, float, float, float, float, float]:
        return self.a, self.b, self.c, self.d, self.e, self.f


def translate(dx: float, dy: float) -> Affine:
    return Affine(e=dx, f=dy)


def placement(rot: int, x: float, y: float, w: float, h: float) -> Affine:
    """A w×h piece turned ``rot`` degrees clockwise (0/90/180/270) with the top-left corner of
    its turned bounding box at (x, y)."""
    rot %= 360
    if rot == 0:
        return Affine(1, 0, 0, 1, x, y)
    if rot == 90:  # the piece's top goes to the right
        return Affine(0, 1, -1, 0, x + h, y)
    if rot == 180:
        return Affine(-1, 0, 0, -1, x + w, y + h)
    if rot == 270:
        return Affine(0, -1, 1, 0, x, y + w)
    raise ValueError(f"rotation {rot} is not a quarter turn")


def mirror_x(width: float) -> Affine:
    """Left-right mirror of a box ``width`` wide: x → width − x."""
    return Affine(-1, 0, 0, 1, width, 0)


def mirror_y(height: float) -> Affine:
    """Top-bottom mirror of a box ``height`` high: y → height − y."""
    return Affine(1, 0, 0, -1, 0, height)


def duplex_mirror(duplex: str, paper: tuple[float, float]) -> Affine:
    """Where a point of a fronts sheet lies on its backs sheet after the flip.

    Long-edge flip of a portrait sheet mirrors left-right, short-edge top-bottom; ``none`` is
    the identity (backs printed on their own sheets, in the fronts' positions)."""
    if duplex == "long":
        return mirror_x(paper[0])
    if duplex == "short":
        return mirror_y(paper[1])
    return Affine()


def back_transform(front: Affine, piece_w: float, duplex: str, paper: tuple[float, float]) -> Affine:
    """Piece frame → backs sheet for the back face of a piece whose front is placed by ``front``.

    A back face is drawn as seen after turning the piece over left-right, so its frame is the
    front frame mirrored: back(u, v) lies behind front(w − u, v). The result is the exact mirror
    image of the front's placement, with the back's artwork upright in its own frame."""
    if duplex == "none":
        return front
    return mirror_x(piece_w).then(front).then(duplex_mirror(duplex, paper))


# --------------------------------------------------------------------------- paths

@plain_repr
@dataclass(frozen=True)
class Straight:
    """A straight segment from p0 to p1 (also used for cut marks)."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def p0(self) -> Point:
        return self.x1, self.y1

    @property
    def p1(self) -> Point:
        return self.x2, self.y2


@plain_repr
@dataclass(frozen=True)
class Arc:
    """Part of a circle: from angle a0 by ``sweep`` radians (positive = clockwise on the page,
    since y points down). A full circle has |sweep| = 2π."""

    cx: float
    cy: float
    r: float
    a0: float
    sweep: float

    def at(self, t: float) -> Point:
        a = self.a0 + self.sweep * t
        return self.cx + self.r * math.cos(a), self.cy + self.r * math.sin(a)

    @property
    def p0(self) -> Point:
        return self.at(0.0)

    @property
    def p1(self) -> Point:
        return self.at(1.0)


Segment = Straight | Arc


@kept_repr
@dataclass(frozen=True)
class Outline:
    """A closed outline: segments joined end to start, the last back to the first."""

    segments: tuple[Segment, ...]

    def transformed(self, m: Affine) -> Outline:
        """The path under a rigid map (rotation by quarter turns, mirror, translation)."""
        flip = m.det < 0
        out: list[Segment] = []
        for s in self.segments:
            if isinstance(s, Straight):
                (x1, y1), (x2, y2) = m(s.p0), m(s.p1)
                out.append(Straight(x1, y1, x2, y2))
            else:
                cx, cy = m((s.cx, s.cy))
                dx, dy = m.a * math.cos(s.a0) + m.c * math.sin(s.a0), m.b * math.cos(s.a0) + m.d * math.sin(s.a0)
                out.append(Arc(cx, cy, s.r, math.atan2(dy, dx), -s.sweep if flip else s.sweep))
        return Outline(tuple(out))

    def points(self, tol: float = 0.01) -> list[Point]:
        """The outline as a polygon: arcs flattened with chords at most ``tol`` inside them."""
        pts: list[Point] = []
        for s in self.segments:
            if isinstance(s, Straight):
                pts.append(s.p0)
            else:
                n = arc_steps(s.r, s.sweep, tol)
                pts.extend(s.at(i / n) for i in range(n))
        return _dedupe(pts)

    def as_rect(self, eps: float = 1e-9) -> tuple[float, float, float, float] | None:
        """(x0, y0, x1, y1) when the path is an axis-parallel rectangle, else None."""
        segs = [s for s in self.segments if isinstance(s, Straight)]
        if len(segs) != 4 or len(self.segments) != 4:
            return None
        for s in segs:
            if abs(s.x1 - s.x2) > eps and abs(s.y1 - s.y2) > eps:
                return None
        xs = [s.x1 for s in segs]
        ys = [s.y1 for s in segs]
        return min(xs), min(ys), max(xs), max(ys)

    def bbox(self) -> tuple[float, float, float, float]:
        xs, ys = zip(*self.points(0.001))
        return min(xs), min(ys), max(xs), max(ys)

    def svg(self, digits: int = 3) -> str:
        """SVG path data (user units = mm)."""
        def n(v: float) -> str:
            return num(v, digits)
        out: list[str] = []
        for i, s in enumerate(self.segments):
            if i == 0:
                x, y = s.p0
                out.append(f"M{n(x)} {n(y)}")
            if isinstance(s, Straight):
                x, y = s.p1
                out.append(f"L{n(x)} {n(y)}")
            else:
                # SVG arcs cannot draw a full circle in one command: split into halves.
                parts = max(1, math.ceil(abs(s.sweep) / math.pi - 1e-9))
                for k in range(1, parts + 1):
                    x, y = s.at(k / parts)
                    large = 1 if abs(s.sweep) / parts > math.pi + 1e-9 else 0
                    sweep_flag = 1 if s.sweep > 0 else 0
                    out.append(f"A{n(s.r)} {n(s.r)} 0 {large} {sweep_flag} {n(x)} {n(y)}")
        out.append("Z")
        return " ".join(out)


def arc_steps(r: float, sweep: float, tol: float) -> int:
    """Chords needed so none strays more than ``tol`` from an arc of radius r."""
    if r <= tol:
        return max(1, math.ceil(abs(sweep) / (math.pi / 2)))
    step = 2 * math.acos(max(-1.0, 1 - tol / r))
    return max(1, math.ceil(abs(sweep) / step - 1e-9))


def _dedupe(pts: list[Point], eps: float = 1e-9) -> list[Point]:
    out: list[Point] = []
    for p in pts:
        if not out or abs(p[0] - out[-1][0]) > eps or abs(p[1] - out[-1][1]) > eps:
            out.append(p)
    if len(out) > 1 and abs(out[0][0] - out[-1][0]) <= eps and abs(out[0][1] - out[-1][1]) <= eps:
        out.pop()
    return out


def signed_area(pts: Sequence[Point]) -> float:
    """Shoelace area; positive when the polygon turns anticlockwise in x-right/y-up terms."""
    s = 0.0
    n = len(pts)
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return s / 2


def polygon_area(pts: Sequence[Point]) -> float:
    return abs(signed_area(pts))


def first_crossing(pts: Sequence[Point]) -> tuple[int, int] | None:
    """The first two edges of a closed polygon that cross (edge k runs from corner k to corner
    k + 1, from 1; the last back to corner 1), or None: an outline crossing itself (a pentagram,
    a bow tie) is no piece's cut line. Edges are swept by their left ends, so a polygon of 1,000
    corners compares only the edges whose spans of x overlap. Corners meeting, or edges touching
    without crossing, are left alone."""
    n = len(pts)
    edges = sorted(range(n), key=lambda k: min(pts[k][0], pts[(k + 1) % n][0]))
    found: list[tuple[int, int]] = []
    open_: list[int] = []
    for k in edges:
        (ax, ay), (bx, by) = pts[k], pts[(k + 1) % n]
        left = min(ax, bx)
        open_ = [j for j in open_ if max(pts[j][0], pts[(j + 1) % n][0]) >= left]
        for j in open_:
            if (k - j) % n in (1, n - 1):  # neighbours share a corner
                continue
            (cx, cy), (dx, dy) = pts[j], pts[(j + 1) % n]
            d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
            d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
            d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
            d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
            if d1 * d2 < 0 and d3 * d4 < 0:
                found.append((min(j, k) + 1, max(j, k) + 1))
        open_.append(k)
    return min(found) if found else None


def grow_polygon(pts: Sequence[Point], d: float, join: str = "round") -> Outline:
    """The outline ``d`` mm outside a simple polygon: edges moved out along their normals,
    convex corners joined by arcs about the corner (``round``) or by meeting edges (``miter``),
    reflex corners always where the moved edges meet. ``d`` = 0 gives the polygon itself; a
    negative ``d`` insets (sharp convex corners, rounded reflex ones).

    Exact for the Minkowski sum with a disc while no edge is shorter than the join eats
    (true for every shape here; ``d`` is a few mm, edges are tens of mm)."""
    pts = _dedupe(list(pts))
    n = len(pts)
    if n < 3:
        raise ValueError("a polygon needs three corners")
    if d == 0:
        return Outline(tuple(Straight(*pts[i], *pts[(i + 1) % n]) for i in range(n)))
    orient = 1.0 if signed_area(pts) > 0 else -1.0
    normals = []
    for i in range(n):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % n]
        length = math.hypot(x2 - x1, y2 - y1)
        dx, dy = (x2 - x1) / length, (y2 - y1) / length
        normals.append((orient * dy, -orient * dx))  # outward
    # For each corner i (between edge i-1 and edge i): where the incoming edge ends and the
    # outgoing one starts, plus the join between them.
    starts: list[Point] = []
    ends: list[Point] = []
    joins: list[Segment | None] = []
    for i in range(n):
        vx, vy = pts[i]
        n0, n1 = normals[i - 1], normals[i]
        cross = n0[0] * n1[1] - n0[1] * n1[0]
        dot = n0[0] * n1[0] + n0[1] * n1[1]
        convex = cross * orient > 1e-12  # the normals turn with the outline: an outer corner
        if d < 0:
            convex = not convex  # insetting: the corners that open up are the reflex ones
        if abs(cross) <= 1e-12 and dot > 0:  # straight through
            p = (vx + d * n0[0], vy + d * n0[1])
            ends.append(p)
            starts.append(p)
            joins.append(None)
        elif convex and join == "round":
            ends.append((vx + d * n0[0], vy + d * n0[1]))
            starts.append((vx + d * n1[0], vy + d * n1[1]))
            a0 = math.atan2(n0[1], n0[0]) + (math.pi if d < 0 else 0.0)
            sweep = math.atan2(cross, dot)
            joins.append(Arc(vx, vy, abs(d), a0, sweep))
        else:  # mitre: the point d from both moved edges
            k = d / (1 + dot)
            p = (vx + k * (n0[0] + n1[0]), vy + k * (n0[1] + n1[1]))
            ends.append(p)
            starts.append(p)
            joins.append(None)
    segs: list[Segment] = []
    for i in range(n):
        j = joins[i]
        if j is not None:
            segs.append(j)
        segs.append(Straight(*starts[i], *ends[(i + 1) % n]))
    return Outline(tuple(segs))


def circle_path(cx: float, cy: float, r: float) -> Outline:
    return Outline((Arc(cx, cy, r, -math.pi / 2, TAU),))


# --------------------------------------------------------------------------- shapes

def hex_corners(cx: float, cy: float, size: float, orientation: str = "pointy") -> list[Point]:
    """Corners of a hexagon ``size`` across the flats, clockwise on the page from the top."""
    r = size / SQRT3
    start = -90.0 if orientation == "pointy" else -60.0
    return [(cx + r * math.cos(math.radians(start + 60 * k)), cy + r * math.sin(math.radians(start + 60 * k)))
            for k in range(6)]


def trihex_centres(size: float, orientation: str = "pointy") -> list[Point]:
    """Centres of the three hexes of a tri-hex in its trim box. Pointy: upper left, upper right,
    bottom; flat: the pointy layout turned 90° anticlockwise (left top, left bottom, right)."""
    r = size / SQRT3
    pointy = [(0.5 * size, r), (1.5 * size, r), (size, r + size * SQRT3 / 2)]
    if orientation == "pointy":
        return pointy
    w, _ = bounding_size("trihex", size, "pointy")
    return [(y, w - x) for x, y in pointy]  # 90° anticlockwise in a y-down frame


def trihex_corners(size: float, orientation: str = "pointy") -> list[Point]:
    """The 12 corners of a tri-hex outline, clockwise on the page from the upper-left hex's top."""
    r = size / SQRT3
    s = size
    # Pointy: two hexes on top (centres y = r), one below (y = 2.5r); they meet at (s, 1.5r).
    pointy = [
        (0.5 * s, 0.0), (s, r / 2),  # upper-left hex: top, then its upper-right corner (reflex)
        (1.5 * s, 0.0), (2 * s, r / 2), (2 * s, 1.5 * r),  # upper-right hex
        (1.5 * s, 2 * r),  # reflex: upper-right hex meets the bottom hex
        (1.5 * s, 3 * r), (s, 3.5 * r), (0.5 * s, 3 * r),  # bottom hex
        (0.5 * s, 2 * r),  # reflex: bottom hex meets the upper-left hex
        (0.0, 1.5 * r), (0.0, r / 2),  # upper-left hex, left side
    ]
    if orientation == "pointy":
        return pointy
    w, _ = bounding_size("trihex", size, "pointy")
    return [(y, w - x) for x, y in pointy]


@dataclass(frozen=True)
class ShapeSpec:
    """A piece's outline: ``core`` polygon (or the centre of a circle) grown by ``radius``."""

    kind: str  # rect | rounded | circle | hex | trihex | polygon
    w: float  # trim bounding box
    h: float
    core: tuple[Point, ...]
    radius: float = 0.0
    size: float = 0.0  # hex/trihex across flats, circle diameter (0 for [w, h] shapes)
    orientation: str = "pointy"
    box: tuple[float, ...] = ()  # tuckbox: its TuckBox's figures (TuckBox.frozen)

    @property
    def tuck_box(self) -> TuckBox | None:
        return TuckBox(*self.box) if self.kind == "tuckbox" else None

    @property
    def folds(self) -> list[tuple[Point, Point]]:
        """The score lines printed on the piece (a tuck box's; none for other shapes)."""
        box = self.tuck_box
        return box.folds() if box is not None else []

    @property
    def die_cut(self) -> bool:
        """Cut along a drawn path rather than straight cuts between crop marks."""
        return self.kind != "rect"

    @property
    def area(self) -> float:
        if self.kind == "circle":
            return math.pi * self.radius ** 2
        if self.kind == "rounded":
            return self.w * self.h - (4 - math.pi) * self.radius ** 2
        return polygon_area(self.core)

    @property
    def mirror_symmetric(self) -> bool:
        """The back's outline (the front's mirrored left-right) is the front's own outline."""
        mirrored = sorted((round(self.w - x, 6), round(y, 6)) for x, y in self.core)
        return mirrored == sorted((round(x, 6), round(y, 6)) for x, y in self.core)


def shape_spec(shape: str, trim: tuple[float, float], options: dict | None = None) -> ShapeSpec:
    """The outline of a deck's pieces from its shape, trim bounding box and shape options."""
    options = options or {}
    w, h = float(trim[0]), float(trim[1])
    orientation = str(options.get("orientation", "pointy"))
    if shape == "rect":
        return ShapeSpec("rect", w, h, ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)))
    if shape == "rounded":
        r = float(options.get("corner_radius", 3.0))
        r = max(0.0, min(r, w / 2 - 1e-6, h / 2 - 1e-6))
        return ShapeSpec("rounded", w, h, ((r, r), (w - r, r), (w - r, h - r), (r, h - r)), radius=r)
    if shape == "circle":
        return ShapeSpec("circle", w, h, ((w / 2, h / 2),), radius=w / 2, size=w)
    if shape == "hex":
        size = w if orientation == "pointy" else h
        return ShapeSpec("hex", w, h, tuple(hex_corners(w / 2, h / 2, size, orientation)), size=size,
                         orientation=orientation)
    if shape == "trihex":
        size = w / 2 if orientation == "pointy" else h / 2
        return ShapeSpec("trihex", w, h, tuple(trihex_corners(size, orientation)), size=size,
                         orientation=orientation)
    if shape == "tuckbox":
        box = TuckBox(*options["box"])
        return ShapeSpec("tuckbox", w, h, tuple(box.corners()), box=box.frozen())
    if shape == "polygon":
        pts = tuple((float(x), float(y)) for x, y in options.get("points", ()))
        if len(pts) < 3 or abs(signed_area(pts)) < 1e-9:
            raise ValueError("a polygon needs at least three points enclosing an area")
        return ShapeSpec("polygon", w, h, pts)
    raise ValueError(f"unknown shape {shape!r}")


def deck_shape(deck) -> ShapeSpec:
    """The ShapeSpec of a model.Deck."""
    return _deck_shape(deck.shape, tuple(deck.trim_mm), _freeze(deck.options))


@cache
def _deck_shape(shape: str, trim: tuple[float, float], options: tuple) -> ShapeSpec:
    return shape_spec(shape, trim, dict(options))


def _freeze(options: dict) -> tuple:
    out = []
    for k, v in sorted(options.items()):
        if k not in ("orientation", "corner_radius", "points", "box"):
            continue
        if isinstance(v, list):
            v = tuple(tuple(p) if isinstance(p, list) else p for p in v)
        out.append((k, v))
    return tuple(out)


def outline(spec: ShapeSpec, offset: float = 0.0) -> Outline:
    """The piece's outline grown by ``offset`` mm (0 = the trim path = the cut path)."""
    if spec.kind == "circle":
        cx, cy = spec.core[0]
        return circle_path(cx, cy, spec.radius + offset)
    if spec.kind == "rect":
        return grow_polygon(spec.core, offset, join="miter")
    if spec.kind == "tuckbox":
        return _box_outline(TuckBox(*spec.box), offset)
    return grow_polygon(spec.core, spec.radius + offset, join="round")


def _box_outline(box: TuckBox, offset: float) -> Outline:
    """A tuck box's outline: at 0 the die line, its thumb notch a true half circle; outwards
    (bleed, a nesting gap) grown from the net with its narrow notches filled, which the artwork
    may fill since they are cut away (grown as they are, their sides would cross)."""
    if offset > 0:
        return grow_polygon(box.corners(notch=box.notch > offset + 1.0, bridged=True), offset)
    if offset < 0:
        return grow_polygon(box.corners(), offset)
    pts = box.corners(notch=False)
    cx, y1 = box.notch_centre
    r = box.notch
    segs: list[Segment] = []
    for i, a in enumerate(pts):
        b = pts[(i + 1) % len(pts)]
        if r > 0 and a[1] == y1 == b[1] and a[0] < cx < b[0]:  # the front's top edge, notched
            segs += [Straight(*a, cx - r, y1), Arc(cx, y1, r, math.pi, -math.pi), Straight(cx + r, y1, *b)]
        else:
            segs.append(Straight(*a, *b))
    return Outline(tuple(segs))


def trim_path(spec: ShapeSpec) -> Outline:
    return outline(spec, 0.0)


def cut_path(spec: ShapeSpec) -> Outline:
    """The die line: the trim path."""
    return outline(spec, 0.0)


def bleed_path(spec: ShapeSpec, bleed: float) -> Outline:
    """Where the artwork stops: every point ``bleed`` outside the trim path (rect: the box)."""
    return outline(spec, bleed)


def back_outline(spec: ShapeSpec, offset: float = 0.0) -> Outline:
    """A back face's outline in its own frame: the front's, mirrored left-right."""
    return outline(spec, offset).transformed(mirror_x(spec.w))


# --------------------------------------------------------------------------- distances (for tests and checks)

def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    px, py = p
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def distance_to_polygon_edges(p: Point, pts: Sequence[Point]) -> float:
    n = len(pts)
    return min(point_segment_distance(p, pts[i], pts[(i + 1) % n]) for i in range(n))


def point_in_polygon(p: Point, pts: Sequence[Point]) -> bool:
    x, y = p
    inside = False
    n = len(pts)
    for i in range(n):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                inside = not inside
    return inside


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) and o1 * o2 < 0 and o3 * o4 < 0


def polygon_distance(p: Sequence[Point], q: Sequence[Point]) -> float:
    """Least distance between two polygons' areas: 0 when they overlap."""
    n, m = len(p), len(q)
    for i in range(n):
        for j in range(m):
            if _segments_cross(p[i], p[(i + 1) % n], q[j], q[(j + 1) % m]):
                return 0.0
    if point_in_polygon(p[0], q) or point_in_polygon(q[0], p):
        return 0.0
    best = math.inf
    for i in range(n):
        a, b = p[i], p[(i + 1) % n]
        for j in range(m):
            c, d = q[j], q[(j + 1) % m]
            best = min(best, point_segment_distance(a, c, d), point_segment_distance(b, c, d),
                       point_segment_distance(c, a, b), point_segment_distance(d, a, b))
    return best


RING_FEWEST = 4  # a track round a box's edge: a space in each corner


def ring_grid(count: int, w: float, h: float) -> tuple[int, int]:
    """Spaces along the top/bottom (cols) and the sides (rows), corners shared, for ``count``
    spaces round a w×h rectangle: no more than one space to spare, spaces as square as can be.
    A score track's ring (faces/tracks.py) and its hole (``ring_hole``: the check of boxes over it, data/layoutsides.py)."""
    if count < RING_FEWEST:
        raise ValueError(f"a ring needs at least {RING_FEWEST} spaces")
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


def ring_hole(count: int, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """The hole inside ``count`` spaces round the box (x, y, w, h), as (x, y, w, h) in mm: the box
    less one space's width or height at each edge (``ring_grid``'s spaces)."""
    cols, rows = ring_grid(count, w, h)
    cw, ch = w / cols, h / rows
    return x + cw, y + ch, w - 2 * cw, h - 2 * ch
