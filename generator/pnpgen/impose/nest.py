"""Nesting: lattice packings of die-cut pieces (circles, hexes, tri-hexes, polygons) on a sheet.

Pure geometry in millimetres. A *motif* is one piece, or a piece and a copy turned 180° beside
it (tri-hexes interlock ▲▼); motifs repeat on a lattice o + i·a + j·b. For each candidate
direction, a is the shortest vector along it that keeps pieces ``gap`` apart, b the shortest
along its own direction that clears the whole row of motifs i·a. Hexes, tri-hexes and circles
pack best along multiples of 30°, so those directions are tried, with the pieces upright or
turned 90°. The count on a sheet comes from the best offset of the lattice inside the printable
area; the arrangement is then centred, and filled in rows, top first, as a grid of cards is.

``gap`` is twice the bleed printed around each piece: neighbours' bleeds meet but never overlap,
because every bleed point lies exactly ``bleed`` outside its own trim path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from pnpgen.memo import Memo
from pnpgen.shapes import Affine, Point, ShapeSpec, back_transform, outline, placement, polygon_distance

DIRECTIONS = tuple(range(0, 180, 30))  # degrees, y down (30° points down-right)
PAIR_DIRECTIONS = (0, 90)  # where the turned partner of a motif may sit
BLEED_STEPS = (3.0, 2.5, 2.0, 1.5, 1.0, 0.5, 0.0)
ORIGIN_STEPS = 12  # lattice offsets tried per axis of a lattice cell
FLAT_TOL = 0.03  # mm: arcs flattened for the separation search (outlines pushed out by as much)
ROW_SPAN = 0.7  # of a piece's height: tops closer than this below a row's first are in that row (_layout)
BANDS = 16  # bands of y per turned outline: a ray is tested against its band's edges only


@dataclass(frozen=True)
class NestSlot:
    """One piece on a nested sheet: its bounding box on the sheet and its turn."""

    index: int
    x: float  # top-left of the turned trim bounding box
    y: float
    rot: int  # 0, 90, 180 or 270 (clockwise)
    lattice: tuple[int, int, int]  # (i, j, k): lattice coordinates and place in the motif


@dataclass(frozen=True)
class NestLayout:
    """Pieces at lattice points: the same interface the build uses for grids."""

    paper_mm: tuple[float, float]
    piece_mm: tuple[float, float]  # trim box of the piece as designed (unturned)
    rot: int  # turn of the first piece of the motif
    vectors: tuple[Point, Point]  # lattice vectors a, b (mm)
    motif: tuple[tuple[int, Point], ...]  # (turn, offset) of each piece in the motif
    sheet_bleed_mm: float
    slots: list[NestSlot] = field(default_factory=list)

    kind = "nested"

    @property
    def per_sheet(self) -> int:
        return len(self.slots)

    @property
    def rotated(self) -> bool:
        return self.rot in (90, 270)

    def transform(self, index: int) -> Affine:
        """Piece frame → sheet for the front in slot ``index``."""
        s = self.slots[index]
        w, h = self.piece_mm
        return placement(s.rot, s.x, s.y, w, h)

    def back_transform(self, index: int, duplex: str) -> Affine:
        return back_transform(self.transform(index), self.piece_mm[0], duplex, self.paper_mm)


# --------------------------------------------------------------------------- separation

class _Piece:
    """A piece of a motif: its trim polygon and its outline grown by the gap (or its disc)."""

    def __init__(self, spec: ShapeSpec, rot: int, offset: Point, gap: float):
        turn = placement(rot, offset[0], offset[1], spec.w, spec.h)
        self.disc = spec.kind == "circle"
        if self.disc:
            self.centre = turn(spec.core[0])
            self.reach = 2 * spec.radius + gap
            return
        self.poly = [turn(p) for p in outline(spec, 0.0).points(FLAT_TOL)]
        if gap > 0:
            # Chords pushed outside the true arcs, so clearance is never under ``gap``.
            self.grown = [turn(p) for p in _outset(outline(spec, gap).points(FLAT_TOL), FLAT_TOL)]
        else:
            self.grown = list(self.poly)
        self._turned: dict = {}

    def turned(self, u: Point, which: str):
        """In the frame where u is the x axis: the corners, the span in y, and the non-horizontal
        edges (y0, y1, x0, dx/dy) filed by the bands of y they cross, so a ray meets only the
        edges of its band."""
        key = (u, which)
        got = self._turned.get(key)
        if got is None:
            ux, uy = u
            pts = [(x * ux + y * uy, -x * uy + y * ux) for x, y in getattr(self, which)]
            ys = [p[1] for p in pts]
            lo, hi = min(ys), max(ys)
            step = (hi - lo) / BANDS or 1.0
            bands: list[list[tuple[float, float, float, float]]] = [[] for _ in range(BANDS)]
            n = len(pts)
            for i in range(n):
                (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
                if abs(y1 - y0) > 1e-12:
                    edge = (y0, y1, x0, (x1 - x0) / (y1 - y0))
                    for b in range(_band(min(y0, y1), lo, step), _band(max(y0, y1), lo, step) + 1):
                        bands[b].append(edge)
            got = self._turned[key] = _Turned(pts, lo, hi, step, bands)
        return got


@dataclass(frozen=True)
class _Turned:
    """An outline in the frame of a direction u (see _Piece.turned)."""

    pts: list[Point]
    lo: float
    hi: float
    step: float
    bands: list[list[tuple[float, float, float, float]]]


def _band(y: float, lo: float, step: float) -> int:
    """The band of ``y``. Floor is monotonic, so an edge spanning [a, b] ∋ y is filed in y's
    band (_pair_t_max computes the same inline)."""
    return min(BANDS - 1, max(0, int((y - lo) / step)))


def _pair_t_max(mov: _Piece, fix: _Piece, shift: Point, u: Point) -> float:
    """The largest t at which ``mov`` moved by t·u still comes closer than the gap to ``fix``
    moved by ``shift``; −inf when it never does."""
    if mov.disc:
        wx = mov.centre[0] - fix.centre[0] - shift[0]
        wy = mov.centre[1] - fix.centre[1] - shift[1]
        wu = wx * u[0] + wy * u[1]
        disc = wu * wu - (wx * wx + wy * wy) + mov.reach ** 2
        return -math.inf if disc < 0 else -wu + math.sqrt(disc)
    # Work in a frame where u is the x axis: every ray is a horizontal line.
    ux, uy = u
    m = mov.turned(u, "poly")
    f = fix.turned(u, "grown")
    sx = shift[0] * ux + shift[1] * uy
    sy = -shift[0] * uy + shift[1] * ux
    if m.hi < f.lo + sy - 1e-9 or f.hi + sy < m.lo - 1e-9:
        return -math.inf  # the sweep of mov along u never meets fix
    best = -math.inf
    bands, lo, hi, step = f.bands, f.lo, f.hi, f.step
    for px, py in m.pts:  # corners of the moving piece against the fixed grown outline
        y = py - sy
        if not lo <= y <= hi:
            continue
        for y0, y1, x0, k in bands[min(BANDS - 1, int((y - lo) / step))]:
            if (y0 <= y <= y1) or (y1 <= y <= y0):
                t = x0 + (y - y0) * k + sx - px
                if t > best:
                    best = t
    bands, lo, hi, step = m.bands, m.lo, m.hi, m.step
    for qx, qy in f.pts:  # corners of the fixed grown outline against the moving piece
        y = qy + sy
        if not lo <= y <= hi:
            continue
        for y0, y1, x0, k in bands[min(BANDS - 1, int((y - lo) / step))]:
            if (y0 <= y <= y1) or (y1 <= y <= y0):
                t = qx + sx - (x0 + (y - y0) * k)
                if t > best:
                    best = t
    return best


def _outset(pts: list[Point], by: float) -> list[Point]:
    """Push a flattened outline's points outward by ``by`` along the averaged edge normals."""
    n = len(pts)
    area = 0.0
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        area += x1 * y2 - x2 * y1
    orient = 1.0 if area > 0 else -1.0
    out = []
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = pts[i - 1], pts[i], pts[(i + 1) % n]
        nx = ny = 0.0
        for (ax, ay), (bx, by_) in (((x0, y0), (x1, y1)), ((x1, y1), (x2, y2))):
            dx, dy = bx - ax, by_ - ay
            ln = math.hypot(dx, dy) or 1.0
            nx += orient * dy / ln
            ny += -orient * dx / ln
        ln = math.hypot(nx, ny) or 1.0
        out.append((x1 + by * nx / ln, y1 + by * ny / ln))
    return out


def _unit(deg: float) -> Point:
    r = math.radians(deg)
    c, s = math.cos(r), math.sin(r)
    return (0.0 if abs(c) < 1e-12 else c), (0.0 if abs(s) < 1e-12 else s)


def _motif_t_max(pieces: list[_Piece], shift: Point, u: Point) -> float:
    return max(_pair_t_max(m, f, shift, u) for m in pieces for f in pieces)


def _lattice(pieces: list[_Piece], a_deg: float, b_deg: float) -> tuple[Point, Point] | None:
    ua, ub = _unit(a_deg), _unit(b_deg)
    ta = _motif_t_max(pieces, (0.0, 0.0), ua)
    if not math.isfinite(ta) or ta <= 1e-9:
        return None
    a = (ta * ua[0], ta * ua[1])
    tb = max(_motif_t_max(pieces, (k * a[0], k * a[1]), ub) for k in range(-3, 4))
    if not math.isfinite(tb) or tb <= 1e-9:
        return None
    return a, (tb * ub[0], tb * ub[1])


@lru_cache(maxsize=4096)
def _motif(spec: ShapeSpec, rot: int, pair_deg: int | None, gap: float) -> tuple[tuple[int, Point], ...]:
    """The pieces of a motif: the piece, and (pair_deg) its 180° turn pushed against it."""
    if pair_deg is None:
        return ((rot, (0.0, 0.0)),)
    first = _piece(spec, rot, (0.0, 0.0), gap)
    turned = _piece(spec, (rot + 180) % 360, (0.0, 0.0), gap)
    u = _unit(pair_deg)
    t = _pair_t_max(turned, first, (0.0, 0.0), u)
    if not math.isfinite(t):
        t = 0.0
    return ((rot, (0.0, 0.0)), ((rot + 180) % 360, (t * u[0], t * u[1])))


@lru_cache(maxsize=4096)
def lattice(spec: ShapeSpec, rot: int, gap: float, a_deg: float, b_deg: float,
            pair_deg: int | None = None) -> tuple[Point, Point] | None:
    """The tightest lattice with vectors along ``a_deg`` and ``b_deg`` keeping pieces ``gap`` apart."""
    motif = _motif(spec, rot, pair_deg, gap)
    pieces = [_piece(spec, r, off, gap) for r, off in motif]
    return _lattice(pieces, a_deg, b_deg)


@lru_cache(maxsize=4096)
def _piece(spec: ShapeSpec, rot: int, offset: Point, gap: float) -> _Piece:
    return _Piece(spec, rot, offset, gap)


def _reach(a: Point, b: Point, length: float) -> tuple[int, int] | None:
    """Bounds (|i|, |j|) on the lattice coefficients of every vector i·a + j·b no longer than
    ``length`` (i = (v × b) / (a × b), so |i| ≤ length·|b| / |a × b|; j likewise); None for a
    lattice of no area. A long, thin cell puts near neighbours at large coefficients: a d6 net's
    (0, 54) and (−120, 207) make 4a − b a vector of 120 mm, which a fixed ±2 never looked at."""
    det = abs(a[0] * b[1] - a[1] * b[0])
    if det < 1e-9:
        return None
    return int(length * math.hypot(*b) / det) + 1, int(length * math.hypot(*a) / det) + 1


def _valid(spec: ShapeSpec, motif: tuple[tuple[int, Point], ...], gap: float, a: Point, b: Point) -> bool:
    """Independent check: no two pieces of nearby motifs come closer than the gap (minus a hair)."""
    if spec.kind == "circle":
        need = 2 * spec.radius + gap - 1e-6
        reach = _reach(a, b, need)
        return reach is not None and all(math.hypot(i * a[0] + j * b[0], i * a[1] + j * b[1]) >= need
                                         for i in range(-reach[0], reach[0] + 1)
                                         for j in range(-reach[1], reach[1] + 1) if (i, j) != (0, 0))
    polys = []
    for rot, (ox, oy) in motif:
        turn = placement(rot, ox, oy, spec.w, spec.h)
        polys.append([turn(p) for p in outline(spec, 0.0).points(0.02)])
    boxes = [(min(x for x, _ in p), min(y for _, y in p), max(x for x, _ in p), max(y for _, y in p)) for p in polys]
    whole = math.hypot(max(bx[2] for bx in boxes) - min(bx[0] for bx in boxes),
                       max(bx[3] for bx in boxes) - min(bx[1] for bx in boxes))
    reach = _reach(a, b, 2 * whole + gap)  # (two motifs whose boxes come within the gap are closer)
    if reach is None:
        return False
    for i in range(-reach[0], reach[0] + 1):
        for j in range(-reach[1], reach[1] + 1):
            dx, dy = i * a[0] + j * b[0], i * a[1] + j * b[1]
            for k, p in enumerate(polys):
                for m, q in enumerate(polys):
                    if (i, j) == (0, 0) and m <= k:
                        continue
                    (px0, py0, px1, py1), (qx0, qy0, qx1, qy1) = boxes[k], boxes[m]
                    # pieces never closer than their bounding boxes: only near ones are measured
                    apart_x = max(qx0 + dx - px1, px0 - (qx1 + dx), 0.0)
                    apart_y = max(qy0 + dy - py1, py0 - (qy1 + dy), 0.0)
                    if math.hypot(apart_x, apart_y) >= gap:
                        continue
                    if polygon_distance(p, [(x + dx, y + dy) for x, y in q]) < gap - 0.05:
                        return False
    return True


# --------------------------------------------------------------------------- sheet count

def _count(a: Point, b: Point, o: Point, box: tuple[float, float, float, float],
           collect: bool = False) -> tuple[int, list[tuple[int, int]]]:
    """Lattice points o + i·a + j·b inside box = (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    if x1 < x0 - 1e-9 or y1 < y0 - 1e-9:
        return 0, []
    eps = 1e-7
    det = a[0] * b[1] - a[1] * b[0]
    js = []
    for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        px, py = cx - o[0], cy - o[1]
        js.append((a[0] * py - a[1] * px) / det)
    jmin, jmax = math.floor(min(js)) - 1, math.ceil(max(js)) + 1
    total = 0
    found: list[tuple[int, int]] = []
    for j in range(jmin, jmax + 1):
        sx, sy = o[0] + j * b[0], o[1] + j * b[1]
        lo, hi = -math.inf, math.inf
        for s, lo_b, hi_b in ((a[0], x0 - sx, x1 - sx), (a[1], y0 - sy, y1 - sy)):
            if abs(s) < 1e-12:
                if not (lo_b - eps <= 0 <= hi_b + eps):
                    lo, hi = 1, 0
                continue
            l_, h_ = lo_b / s, hi_b / s
            if s < 0:
                l_, h_ = h_, l_
            lo, hi = max(lo, l_ - eps / abs(s)), min(hi, h_ + eps / abs(s))
        i0, i1 = math.ceil(lo), math.floor(hi)
        if i1 >= i0:
            total += i1 - i0 + 1
            if collect:
                found.extend((i, j) for i in range(i0, i1 + 1))
    return total, found


def _motif_boxes(box, motif) -> list[tuple[float, float, float, float]]:
    x0, y0, x1, y1 = box
    return [(x0 - ox, y0 - oy, x1 - ox, y1 - oy) for _, (ox, oy) in motif]


def _best_on_sheet(a: Point, b: Point, boxes) -> tuple[int, Point]:
    """The lattice origin (of ORIGIN_STEPS² tried across one cell) that puts the most pieces on
    the sheet, and how many. ``_count`` for every origin at once (numpy, the same float
    operations in the same order, so the same answer); the first best origin wins ties."""
    import numpy as np  # only nested layouts need it

    x0 = min(bx[0] for bx in boxes)
    y0 = min(bx[1] for bx in boxes)
    steps = np.arange(ORIGIN_STEPS) / ORIGIN_STEPS
    s, t = np.repeat(steps, ORIGIN_STEPS), np.tile(steps, ORIGIN_STEPS)  # si outer, ti inner
    ox, oy = x0 + s * a[0] + t * b[0], y0 + s * a[1] + t * b[1]
    total = sum(_counts(a, b, ox, oy, bx) for bx in boxes)
    k = int(np.argmax(total))
    return int(total[k]), (float(ox[k]), float(oy[k]))


def _counts(a: Point, b: Point, ox, oy, box: tuple[float, float, float, float]):
    """``_count(a, b, o, box)[0]`` for every origin o = (ox[k], oy[k])."""
    import numpy as np

    x0, y0, x1, y1 = box
    if x1 < x0 - 1e-9 or y1 < y0 - 1e-9:
        return np.zeros(len(ox), dtype=np.int64)
    eps = 1e-7
    det = a[0] * b[1] - a[1] * b[0]
    js = [(a[0] * (cy - oy) - a[1] * (cx - ox)) / det for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
    lo_j = np.floor(np.minimum.reduce(js)) - 1
    hi_j = np.ceil(np.maximum.reduce(js)) + 1
    j = np.arange(int(lo_j.min()), int(hi_j.max()) + 1)[None, :]
    inside = (j >= lo_j[:, None]) & (j <= hi_j[:, None])
    sx, sy = ox[:, None] + j * b[0], oy[:, None] + j * b[1]
    lo = np.full(sx.shape, -np.inf)
    hi = np.full(sx.shape, np.inf)
    for sa, lo_b, hi_b in ((a[0], x0 - sx, x1 - sx), (a[1], y0 - sy, y1 - sy)):
        if abs(sa) < 1e-12:
            empty = ~((lo_b - eps <= 0) & (0 <= hi_b + eps))
            lo = np.where(empty, 1, lo)
            hi = np.where(empty, 0, hi)
            continue
        l_, h_ = lo_b / sa, hi_b / sa
        if sa < 0:
            l_, h_ = h_, l_
        lo, hi = np.maximum(lo, l_ - eps / abs(sa)), np.minimum(hi, h_ + eps / abs(sa))
    n = np.floor(hi) - np.ceil(lo) + 1
    return np.where(inside & (n > 0), n, 0).sum(axis=1).astype(np.int64)


@dataclass(frozen=True)
class _Candidate:
    """One way of packing die-cut pieces on a sheet (a lattice and a turn) and how many it fits: the best of them is
    the one printed."""

    count: int
    rot: int
    motif: tuple[tuple[int, Point], ...]
    a: Point
    b: Point
    origin: Point
    box: tuple[float, float, float, float]

    @property
    def cell(self) -> float:
        return abs(self.a[0] * self.b[1] - self.a[1] * self.b[0]) / len(self.motif)


def _candidates(spec: ShapeSpec, paper: tuple[float, float], margin: float, bleed: float,
                rots: tuple[int, ...], pairs: bool, top: float = 0.0) -> list[_Candidate]:
    out = []
    gap = 2 * bleed
    pw, ph = paper
    for rot in rots:
        bw, bh = (spec.h, spec.w) if rot in (90, 270) else (spec.w, spec.h)
        # Reference point: the turned trim box's top-left; piece and bleed stay inside the margin.
        box = (margin + bleed, margin + top + bleed, pw - margin - bleed - bw, ph - margin - bleed - bh)
        if box[2] < box[0] - 1e-9 or box[3] < box[1] - 1e-9:
            continue
        seen = set()
        plans: list[tuple[int | None, float, float]] = [
            (None, a_deg, b_deg) for i, a_deg in enumerate(DIRECTIONS) for b_deg in DIRECTIONS[i + 1:]]
        if pairs:
            plans += [(p, a_deg, b_deg) for p in PAIR_DIRECTIONS for a_deg in (0, 90)
                      for b_deg in DIRECTIONS if b_deg != a_deg]
        for pair_deg, a_deg, b_deg in plans:
            vecs = lattice(spec, rot, gap, a_deg, b_deg, pair_deg)
            if vecs is None:
                continue
            motif = _motif(spec, rot, pair_deg, gap)
            a, b = vecs
            key = (pair_deg is None, round(a[0], 3), round(a[1], 3), round(b[0], 3), round(b[1], 3))
            if key in seen:
                continue
            seen.add(key)
            n, o = _best_on_sheet(a, b, _motif_boxes(box, motif))
            if n > 0:
                out.append(_Candidate(n, rot, motif, a, b, o, box))
    return out


def nest_at(spec: ShapeSpec, paper: tuple[float, float], margin: float, bleed: float,
            allow_turn: bool = True, top: float = 0.0, memo: Memo[list] | None = None) -> NestLayout | None:
    """The nested layout with the most pieces at exactly ``bleed`` (gap 2·bleed) inside the
    margin, ``top`` more kept free at the top (the sheet's slug); among equals one piece
    orientation before interlocked pairs, then the smaller lattice cell. None when not even one
    piece fits. ``memo``: the lattices chosen by earlier builds, by search key (the search is the
    slow part of nesting, and its answer depends only on the key); what is searched here is
    learned into it."""
    key = _search_key(spec, paper, margin, bleed, allow_turn, top)
    known = _from_json(memo.get(key)) if memo is not None else None
    if known is not None and _sound(spec, paper, margin, bleed, top, known):
        return _placed(spec, paper, known, bleed, top)
    found = _search(spec, paper, margin, bleed, allow_turn, top)
    if found is None:
        return None
    if memo is not None:
        memo.learn(key, [found.count, found.rot, [[r, list(o)] for r, o in found.motif], list(found.a),
                         list(found.b), list(found.origin), list(found.box)])
    return _placed(spec, paper, found, bleed, top)


def _search_key(*args) -> str:
    return repr(args)


def clear_cache() -> None:
    """Forget the layouts found in this process (the next ``nest_at`` searches again)."""
    _search.cache_clear()
    _placed.cache_clear()
    _sound.cache_clear()


@lru_cache(maxsize=1024)
def _search(spec: ShapeSpec, paper: tuple[float, float], margin: float, bleed: float,
            allow_turn: bool, top: float) -> _Candidate | None:
    symmetric = spec.kind in ("circle", "hex")  # a half turn changes nothing
    rots = (0,) if spec.kind == "circle" or not allow_turn else (0, 90)
    cands = sorted(_candidates(spec, paper, margin, bleed, rots, pairs=not symmetric, top=top),
                   key=lambda c: (-c.count, len(c.motif), round(c.cell, 6), c.rot,
                                  round(c.a[0], 6), round(c.a[1], 6), round(c.b[0], 6), round(c.b[1], 6)))
    for c in cands:
        if _valid(spec, c.motif, 2 * bleed, c.a, c.b):
            return c
    return None


@lru_cache(maxsize=1024)
def _placed(spec: ShapeSpec, paper: tuple[float, float], c: _Candidate, bleed: float, top: float) -> NestLayout:
    return _layout(spec, paper, c, bleed, top)


@lru_cache(maxsize=1024)
def _sound(spec: ShapeSpec, paper: tuple[float, float], margin: float, bleed: float, top: float,
           c: _Candidate) -> bool:
    """Is a remembered choice one the search could have made — its pieces inside the sheet's
    usable box, none closer to another than the gap (``_valid``), a lattice cell no smaller than
    its pieces, as many pieces as it says? Anything else (a record damaged, or not pnpgen's) would
    stack pieces, run off the sheet, divide by zero or count lattice points for ever: searched again.
    Kept: each build of a long-running command (watch, serve) reads the same records again."""
    values = (*c.a, *c.b, *c.origin, *c.box, *(v for _, off in c.motif for v in off))
    if c.rot not in (0, 90) or not 1 <= len(c.motif) <= 2 or any(r not in (0, 90, 180, 270) for r, _ in c.motif) \
            or not all(math.isfinite(v) for v in values):
        return False
    bw, bh = (spec.h, spec.w) if c.rot in (90, 270) else (spec.w, spec.h)
    box = (margin + bleed, margin + top + bleed, paper[0] - margin - bleed - bw, paper[1] - margin - bleed - bh)
    reach = math.hypot(*paper)
    if any(abs(u - v) > 1e-6 for u, v in zip(c.box, box)) or max(map(abs, values)) > 2 * reach \
            or abs(c.a[0] * c.b[1] - c.a[1] * c.b[0]) < 0.99 * len(c.motif) * spec.area:
        return False
    return _valid(spec, c.motif, 2 * bleed, c.a, c.b) \
        and sum(_count(c.a, c.b, c.origin, bx)[0] for bx in _motif_boxes(c.box, c.motif)) == c.count


def _from_json(data) -> _Candidate | None:
    """A remembered choice, or None when absent or not of the expected shape."""
    try:
        count, rot, motif, a, b, origin, box = data
        pt = lambda v: (float(v[0]), float(v[1]))  # noqa: E731
        x0, y0, x1, y1 = (float(v) for v in box)
        return _Candidate(int(count), int(rot), tuple((int(r), pt(o)) for r, o in motif), pt(a), pt(b), pt(origin),
                          (x0, y0, x1, y1))
    except (TypeError, ValueError, IndexError):
        return None


def bleed_steps(max_bleed: float) -> list[float]:
    """Sheet bleeds tried, largest first: the wanted bleed, then BLEED_STEPS below it."""
    return [max_bleed] + [b for b in BLEED_STEPS if b < max_bleed - 1e-9]


def nest(spec: ShapeSpec, paper: tuple[float, float], margin: float, max_bleed: float,
         allow_turn: bool = True, memo: Memo[list] | None = None) -> NestLayout | None:
    """The most pieces per sheet at any bleed up to ``max_bleed``; among equals, the most bleed."""
    steps = bleed_steps(max_bleed)
    most = nest_at(spec, paper, margin, steps[-1], allow_turn, memo=memo)
    if most is None:
        return None
    for bleed in steps[:-1]:
        c = nest_at(spec, paper, margin, bleed, allow_turn, memo=memo)
        if c is not None and c.per_sheet >= most.per_sheet:
            return c
    return most


def _layout(spec: ShapeSpec, paper: tuple[float, float], c: _Candidate, bleed: float, top: float = 0.0) -> NestLayout:
    pos = []
    for k, (rot, (ox, oy)) in enumerate(c.motif):
        bx = _motif_boxes(c.box, c.motif)[k]
        _, pts = _count(c.a, c.b, c.origin, bx, collect=True)
        for i, j in pts:
            pos.append((c.origin[0] + i * c.a[0] + j * c.b[0] + ox, c.origin[1] + i * c.a[1] + j * c.b[1] + oy,
                        rot, (i, j, k)))
    bw, bh = (spec.h, spec.w) if c.rot in (90, 270) else (spec.w, spec.h)
    x0 = min(p[0] for p in pos)
    y0 = min(p[1] for p in pos)
    x1 = max(p[0] for p in pos) + bw
    y1 = max(p[1] for p in pos) + bh
    dx = (paper[0] - (x1 - x0)) / 2 - x0  # centre the arrangement on the sheet
    dy = (paper[1] + top - (y1 - y0)) / 2 - y0
    # Fill order: rows, top first, each left to right, as a grid of cards fills, so a sheet of a
    # few pieces spreads across the sheet's width and neighbours in the deck sit side by side.
    # A piece whose top is less than ROW_SPAN of its height below a row's first is in that row:
    # staggered columns (circles, flat hexes) make zigzag rows; staggered rows stay apart.
    pos.sort(key=lambda p: (round(p[1], 3), round(p[0], 3)))
    rows: list[list] = []
    for p in pos:
        if rows and p[1] - rows[-1][0][1] < ROW_SPAN * bh - 1e-6:
            rows[-1].append(p)
        else:
            rows.append([p])
    pos = [p for row in rows for p in sorted(row, key=lambda p: (round(p[0], 3), round(p[1], 3)))]
    slots = [NestSlot(n, p[0] + dx, p[1] + dy, p[2], p[3]) for n, p in enumerate(pos)]
    return NestLayout(paper, (spec.w, spec.h), c.rot, (c.a, c.b), c.motif, bleed, slots)


def density(spec: ShapeSpec, per_sheet: int, paper: tuple[float, float], margin: float) -> float:
    """Share of the printable area (paper less the margin) covered by trimmed pieces."""
    usable = (paper[0] - 2 * margin) * (paper[1] - 2 * margin)
    return per_sheet * spec.area / usable
