"""Total ink where an object overprints: what pdf/colour.py's check, reading colours alone, misses.

An object painted with overprint on (ExtGState ``/op`` for fills and text, ``/OP`` for strokes)
in overprint mode 1 (``/OPM 1``) in DeviceCMYK leaves the inks under it wherever its own colour
is 0 (ISO 32000-1 §8.6.7, "nonzero overprint mode"). So the K100 text pdf/black.py sets to
overprint (スミノセ), on a ground of 0/100/100/20, prints 0/100/100/100 where its letters are:
300 % of ink where each alone is under a 240 % limit; on C70 M70 Y70, 310 %.

The check draws each page as a printer separates it, into four ink planes at RES_MM pixels a
millimetre, in painting order: fills (non-zero or even-odd, as painted), strokes (each segment a
band of the line width, at least MIN_STROKE_PX, square-capped), text (each string shown, the box
of its advance by the font's ascent and descent: more than the glyphs' ink), pictures (sampled
pixel by pixel), gradients (their heaviest stop), each clipped as the page clips it (form
bounding boxes too). An object painted without overprint replaces the inks under it (a light
panel covers a dark frame: text on the panel meets only the panel). Where an object overprints,
the inks it leaves are read before it is painted; the page's worst total is reported when it is
over the limit and more than the object's own ink. Dashes are drawn solid and a stroke's joins
square, so a line covers at least what it prints.

``over_limit(pdf, limit)`` returns, per page over it, the worst place: what overprints (text,
lines, areas), its colour, the inks under it there and the total. A page whose colours and
pictures cannot add up to more than the limit under any object it overprints is not drawn.
"""

from __future__ import annotations

import io
import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from pnpgen.pdf.colour import to_cmyk
from pnpgen.pdf.outline import cid_widths

RES_MM = 4.0  # pixels a millimetre the page is drawn at
_SCALE = RES_MM * 25.4 / 72  # pixels a point
CURVE_STEPS = 8  # line segments a Bézier curve is drawn with
MIN_STROKE_PX = 1.5  # a hairline still covers the pixels it passes through
CMYK = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_PATH = frozenset(("m", "l", "c", "v", "y", "h", "re"))


@dataclass(frozen=True)
class Overprinted:
    """The heaviest ink on a page where an object overprints: what it is (``text``, ``lines``,
    ``areas``), its colour, the inks under it there, and the total in percent."""

    page: int
    kind: str
    colour: CMYK
    under: CMYK
    ink: float


def over_limit(pdf: bytes, limit: float) -> list[Overprinted]:
    """Every page (0-based, in order) where an overprinting object and the inks under it add up
    to more than ``limit`` percent (and to more than the object's own ink), its worst place."""
    import pikepdf

    out: list[Overprinted] = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        known: dict[tuple, tuple | None] = {}
        read: dict[str, Any] = {"pictures": _Pictures(), "fonts": {}}  # per document: objgens are its own
        for index, page in enumerate(doc.pages):
            key = _page_key(page.obj)
            if key not in known:
                known[key] = _worst(page.obj, limit, read)
            found = known[key]
            if found is not None:
                out.append(Overprinted(index, *found))
    return out


def _page_key(page) -> tuple:
    """Pages drawing the same stream with the same resources (every copy of a face) look alike."""
    import pikepdf

    res = page.get("/Resources")
    xobjects = res.get("/XObject") if res is not None else None
    states = res.get("/ExtGState") if res is not None else None
    contents = page.get("/Contents")
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
    return (b"\n".join(bytes(s.read_bytes()) for s in streams),
            tuple(sorted((str(k), v.objgen) for k, v in (xobjects.items() if xobjects is not None else ()))),
            tuple(sorted((str(k), v.objgen) for k, v in (states.items() if states is not None else ()))),
            tuple(float(v) for v in page.MediaBox))


class _Cover:
    """An area: the edges of its outline in device pixels (n × 4: x0, y0, x1, y1), made from its
    polygons when first drawn (most pages are never drawn: see _bound), and its fill rule."""

    def __init__(self, polygons: Callable[[], list[list[tuple[float, float]]]], evenodd: bool = False):
        self._polygons: Callable[[], list[list[tuple[float, float]]]] | None = polygons
        self._edges: Any = None
        self.evenodd = evenodd

    @property
    def edges(self):
        if self._polygons is not None:
            import numpy as np

            polygons, self._polygons = self._polygons(), None
            edges = [(*poly[i], *poly[(i + 1) % len(poly)]) for poly in polygons if len(poly) > 1
                     for i in range(len(poly))]
            self._edges = np.asarray(edges, dtype=np.float64).reshape(-1, 4)
        return self._edges


@dataclass(frozen=True)
class _Paint:
    kind: str  # text | lines | areas | picture
    covers: tuple[_Cover, ...]  # the painted area: the intersection of these
    colour: CMYK | None  # None: a picture's pixels
    overprint: bool = False  # nonzero overprint (OPM 1) in DeviceCMYK
    picture: Any = None  # (pixels h × w × 4, 0–1 ink; device pixel → picture's unit square)
    width: float = 0.0  # lines: the line's width, text: its size, in device pixels (the matrix's mean scale)


@dataclass(frozen=True)
class MixedInks:
    """A line thinner, or text smaller, than a shop registers in several process inks: the page
    (0-based), what it is (``lines`` or ``text``), its colour, its width or size in points as
    printed, and how many inks it is made of. With a ``ground``, it is in no ink (white: the
    paper) knocked out of that ground, and ``inks`` are the ground's."""

    page: int
    kind: str
    colour: CMYK
    size_pt: float
    inks: int
    ground: CMYK | None = None


INK_PRESENT = 0.10  # an ink of at least this (10 %) counts as one the object is printed in (a paler tint's fringe is not seen)


def mixed_inks(pdf: bytes, lines_pt: float | None, text_pt: float | None, inks: int,
               knocked_out: bool = False) -> list[MixedInks]:
    """Every stroke (a line, a shape's border) thinner than ``lines_pt`` and every text smaller
    than ``text_pt`` (each as printed, widths to 0.01 pt and sizes to 0.1 pt as the print lint compares them;
    None: not read) whose DeviceCMYK colour has
    ``inks`` or more process inks: per page, each kind and colour once, at its thinnest or
    smallest. The plates of a press never register exactly, so such a line or letter prints
    blurred, with coloured fringes (pdf/black.py prints black ones K only; a coloured one stays
    mixed). Spot colours (the marks' All, the CutContour die line) are no process ink.

    With ``knocked_out``, also each such text or line in no ink, not overprinting, whose box lies
    mostly on a ground of ``inks`` or more inks (white type reversed out of a dark mix): where the
    plates shift, the ground's inks creep into the white from every side and fill it in; a K-only
    ground is one plate and keeps it sharp."""
    import pikepdf

    least = {"lines": lines_pt, "text": text_pt}
    out: list[MixedInks] = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        known: dict[tuple, list[MixedInks]] = {}
        read: dict[str, Any] = {"pictures": _NoPictures(), "fonts": {}}
        seen = {"pictures": _Pictures(), "fonts": read["fonts"]}  # for the pages drawn as plates: a picture read once
        for index, page in enumerate(doc.pages):
            key = _page_key(page.obj)
            if key not in known:
                size, device = _device(page.obj)
                paints: list[_Paint] = []
                _Reader(paints, read).run(page.obj, _State(device), set())
                thin = [(p, p.colour) for p in paints if p.colour is not None and (limit := least.get(p.kind)) is not None
                        and round(p.width / _SCALE, _DIGITS[p.kind]) < limit - 1e-6]
                smallest: dict[tuple[str, CMYK], float] = {}
                for paint, colour in thin:
                    if _inks(colour) >= inks:
                        at = (paint.kind, colour)
                        smallest[at] = min(paint.width / _SCALE, smallest.get(at, math.inf))
                known[key] = [MixedInks(0, kind, colour, round(pt, 3), _inks(colour))
                              for (kind, colour), pt in sorted(smallest.items())]
                white = [p for p, colour in thin if not p.overprint and _inks(colour) == 0]
                if knocked_out and white:
                    known[key] += _reversed(page.obj, white, size, device, inks, seen)
            out.extend(replace(hit, page=index) for hit in known[key])
    return out


def _reversed(page, white: list[_Paint], size: tuple[int, int], device: Matrix, inks: int,
              read: dict) -> list[MixedInks]:
    """The white text and lines of ``white`` (read without pictures) that lie on a ground of
    ``inks`` or more inks: the page drawn again with its pictures, as its plates."""
    import numpy as np

    wanted = {(p.kind, p.colour, p.width) for p in white}
    paints: list[_Paint] = []
    _Reader(paints, read).run(page, _State(device), set())
    found: dict[tuple[str, CMYK, CMYK], float] = {}

    def look(paint: _Paint, colour: CMYK, under, result) -> None:
        if paint.overprint or (paint.kind, colour, paint.width) not in wanted:
            return
        heavy = under[(under >= INK_PRESENT).sum(axis=1) >= inks]
        if len(heavy) * 2 < len(under):  # mostly on paper, or on a ground of fewer inks
            return
        colours, counts = np.unique(np.round(heavy, 4), axis=0, return_counts=True)
        ground: CMYK = tuple(float(v) for v in colours[counts.argmax()])  # type: ignore[assignment]
        at = (paint.kind, colour, ground)
        found[at] = min(paint.width / _SCALE, found.get(at, math.inf))

    _separate(paints, size, look)
    return [MixedInks(0, kind, colour, round(pt, 3), _inks(ground), ground)
            for (kind, colour, ground), pt in sorted(found.items())]


_DIGITS = {"lines": 2, "text": 1}


def small_text(pdf: bytes, below_pt: float) -> list[tuple[int, float]]:
    """Each page (0-based) showing text smaller than ``below_pt`` as printed, with its smallest
    size in points, in any process colour: what a RIP's "text below n pt" check lists."""
    smallest: dict[int, float] = {}
    for hit in mixed_inks(pdf, None, below_pt, 0):
        smallest[hit.page] = min(hit.size_pt, smallest.get(hit.page, hit.size_pt))
    return sorted(smallest.items())


def _inks(colour: CMYK) -> int:
    return sum(v >= INK_PRESENT for v in colour)


class _NoPictures:
    """For a reading that needs no picture's pixels (``mixed_inks``): none decoded."""

    def inks(self, image) -> None:
        return None


@dataclass
class _State:
    ctm: Matrix
    clip: tuple[_Cover, ...] = ()
    fill: Any = (0.0, 0.0, 0.0, 1.0)  # CMYK (a pattern: its heaviest stop); None: a spot colour, no process ink
    stroke: Any = (0.0, 0.0, 0.0, 1.0)
    fill_space: str = "/DeviceGray"
    stroke_space: str = "/DeviceGray"
    fill_op: bool = False
    stroke_op: bool = False
    opm: int = 0
    width: float = 1.0
    font: Any = None
    size: float = 0.0
    tc: float = 0.0
    tw: float = 0.0
    tz: float = 100.0
    tl: float = 0.0
    ts: float = 0.0
    tr: int = 0


def _mul(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _at(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _device(page) -> tuple[tuple[int, int], Matrix]:
    """The page's ink planes' size (rows, columns) and the matrix from its space to theirs."""
    x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
    size = (max(1, math.ceil((y1 - y0) * _SCALE)), max(1, math.ceil((x1 - x0) * _SCALE)))
    return size, (_SCALE, 0.0, 0.0, -_SCALE, -x0 * _SCALE, y1 * _SCALE)


def _worst(page, limit: float, read: dict) -> tuple | None:
    """(kind, colour, under, ink %) of the page's heaviest overprinted place over ``limit``."""
    size, device = _device(page)
    paints: list[_Paint] = []
    _Reader(paints, read).run(page, _State(device), set())
    if not any(p.overprint for p in paints) or _bound(paints) * 100 <= limit + 1e-6:
        return None
    return _draw(paints, size, limit)


def _bound(paints: list[_Paint]) -> float:
    """The most ink any overprinting object could make over anything the page paints before it."""
    worst = 0.0
    heaviest: dict[tuple[int, ...], float] = {}
    for paint in paints:
        if paint.overprint and paint.colour is not None:
            zero = tuple(i for i, v in enumerate(paint.colour) if v <= 0)
            if zero not in heaviest:
                heaviest[zero] = max((_heaviest(p, zero) for p in paints), default=0.0)
            worst = max(worst, sum(paint.colour) + heaviest[zero])
    return worst


def _heaviest(paint: _Paint, inks: tuple[int, ...]) -> float:
    if paint.colour is not None:
        return sum(paint.colour[i] for i in inks)
    pixels = paint.picture[0]
    return float(pixels[..., list(inks)].sum(axis=-1).max()) if inks and pixels.size else 0.0


def _draw(paints: list[_Paint], size: tuple[int, int], limit: float) -> tuple | None:
    worst: tuple | None = None

    def look(paint: _Paint, colour: CMYK, under, result) -> None:
        nonlocal worst
        if not paint.overprint:
            return
        totals = result.sum(axis=1)
        at = int(totals.argmax())
        total = round(100.0 * float(totals[at]), 1)
        if total > limit + 1e-6 and total > 100.0 * sum(colour) + 0.05 and (worst is None or total > worst[3]):
            worst = (paint.kind, colour, tuple(round(float(v), 3) for v in under[at]), total)

    _separate(paints, size, look)
    return worst


def _separate(paints: list[_Paint], size: tuple[int, int], look: Callable[[_Paint, CMYK, Any, Any], None]) -> None:
    """Paint the page's four ink planes in order; ``look(paint, colour, under, result)`` sees each
    object painted in a colour: the inks under its pixels before, and after it is painted."""
    import numpy as np

    ink = np.zeros(size + (4,), dtype=np.float32)
    clips: dict[int, Any] = {}  # a clip's pixels, the page's size: shared by what it clips
    for paint in paints:
        own = paint.covers[0]
        window = _window(own, size)
        if window is None:
            continue
        r0, r1, c0, c1 = window
        mask = _mask(own, (r1 - r0, c1 - c0), (c0, r0))
        for clip in paint.covers[1:]:
            if id(clip) not in clips:
                clips[id(clip)] = _mask(clip, size, (0, 0))
            mask &= clips[id(clip)][r0:r1, c0:c1]
        if not mask.any():
            continue
        region = ink[r0:r1, c0:c1]  # a view: painting it paints the page
        if paint.colour is None:
            region[mask] = _sample(paint.picture, mask, (c0, r0))
            continue
        colour = np.asarray(paint.colour, dtype=np.float32)
        under = region[mask]
        result = np.where(colour > 0, colour, under) if paint.overprint else np.broadcast_to(colour, under.shape)
        look(paint, paint.colour, under, result)
        region[mask] = result


def _window(cover: _Cover, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The rows and columns (first, past the last) of the page an area can touch."""
    edges = cover.edges
    if not len(edges):
        return None
    h, w = size
    xs, ys = edges[:, 0::2], edges[:, 1::2]
    r0, r1 = max(0, math.floor(float(ys.min()))), min(h, math.ceil(float(ys.max())) + 1)
    c0, c1 = max(0, math.floor(float(xs.min()))), min(w, math.ceil(float(xs.max())) + 1)
    return (r0, r1, c0, c1) if r0 < r1 and c0 < c1 else None


def _mask(cover: _Cover, size: tuple[int, int], origin: tuple[int, int]):
    """The pixels (centres) inside ``cover`` of a window of ``size`` whose top-left pixel is the
    page's ``origin`` (column, row): a scanline fill by winding number."""
    import numpy as np

    h, w = size
    edges = cover.edges
    if not len(edges):
        return np.zeros(size, dtype=bool)
    ex0, ey0, ex1, ey1 = edges.T
    keep = ey0 != ey1
    ex0, ex1 = ex0[keep] - origin[0], ex1[keep] - origin[0]
    ey0, ey1 = ey0[keep] - origin[1], ey1[keep] - origin[1]
    direction = np.where(ey1 > ey0, 1, -1)
    first = np.clip(np.ceil(np.minimum(ey0, ey1) - 0.5), 0, h).astype(np.int64)
    last = np.clip(np.ceil(np.maximum(ey0, ey1) - 0.5), 0, h).astype(np.int64)
    counts = last - first
    total = int(counts.sum())
    if total == 0:
        return np.zeros(size, dtype=bool)
    edge = np.repeat(np.arange(len(counts)), counts)
    rows = np.repeat(first, counts) + np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    centre = rows + 0.5
    xs = ex0[edge] + (centre - ey0[edge]) * (ex1[edge] - ex0[edge]) / (ey1[edge] - ey0[edge])
    cols = np.clip(np.ceil(xs - 0.5), 0, w).astype(np.int64)
    crossings = np.bincount(rows * (w + 1) + cols, weights=direction[edge], minlength=h * (w + 1))
    winding = np.cumsum(crossings.reshape(h, w + 1)[:, :w], axis=1).round().astype(np.int64)
    return (winding & 1).astype(bool) if cover.evenodd else winding != 0


def _sample(picture, mask, origin: tuple[int, int]):
    """A picture's ink at each pixel of ``mask`` (a window from the page's ``origin``), nearest pixel."""
    import numpy as np

    pixels, inverse = picture
    rows, cols = np.nonzero(mask)
    x, y = cols + origin[0] + 0.5, rows + origin[1] + 0.5
    a, b, c, d, e, f = inverse
    u, v = a * x + c * y + e, b * x + d * y + f
    ph, pw = pixels.shape[:2]
    px = np.clip((u * pw).astype(np.int64), 0, pw - 1)
    py = np.clip(((1.0 - v) * ph).astype(np.int64), 0, ph - 1)
    return pixels[py, px]


def _ccw(poly: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """One winding for every band and box, so their union fills by the non-zero rule."""
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))
    return poly if area >= 0 else poly[::-1]


def _inverse(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if abs(det) < 1e-12:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


class _Reader:
    """A content stream's painting, in order, as _Paint items in device pixels."""

    def __init__(self, paints: list[_Paint], read: dict):
        self.paints = paints
        self.pictures: _Pictures = read["pictures"]  # image objgen → its inks, the recent ones
        self.fonts = read["fonts"]  # font objgen → its metrics

    def run(self, obj, state: _State, active: set) -> None:
        import pikepdf

        res = obj.get("/Resources")
        stack: list[_State] = []
        path: list[tuple[str, Any]] = []  # the path being built, as its operators
        clip_rule: bool | None = None  # W (False) or W* (True) pending for the current path
        tm = tlm = _IDENTITY
        try:
            ops = pikepdf.parse_content_stream(obj)
        except pikepdf.PdfError:
            return
        for instruction in ops:
            operands, name = instruction.operands, str(instruction.operator)
            if name in _PATH:
                path.append((name, operands))
            elif name == "q":
                stack.append(replace(state))
            elif name == "Q":
                if stack:
                    state = stack.pop()
            elif name == "cm" and len(operands) == 6:
                state.ctm = _mul(tuple(float(v) for v in operands), state.ctm)  # type: ignore[arg-type]
            elif name == "w" and operands:
                state.width = float(operands[0])
            elif name == "gs" and operands:
                self._gs(res, operands[0], state)
            elif name in ("k", "K", "g", "G", "rg", "RG", "cs", "CS", "sc", "scn", "SC", "SCN"):
                self._colour(res, name, operands, state)
            elif name in ("W", "W*"):
                clip_rule = name == "W*"
            elif name in ("f", "F", "f*", "S", "s", "B", "B*", "b", "b*", "n"):
                flat = _once(partial(_flatten, path))
                if path:
                    self._paint(name, flat, state)
                if clip_rule is not None:
                    state.clip = state.clip + (_Cover(_placed(flat, state.ctm), clip_rule),)
                path, clip_rule = [], None
            elif name == "BT":
                tm = tlm = _IDENTITY
            elif name in ("Tc", "Tw", "Tz", "TL", "Ts", "Tr") and operands:
                setattr(state, name.lower(), int(operands[0]) if name == "Tr" else float(operands[0]))
            elif name == "Tf" and len(operands) == 2:
                fonts = res.get("/Font") if res is not None else None
                state.font = fonts.get(operands[0]) if fonts is not None else None
                state.size = float(operands[1])
            elif name in ("Td", "TD") and len(operands) == 2:
                tx, ty = float(operands[0]), float(operands[1])
                if name == "TD":
                    state.tl = -ty
                tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, tx, ty), tlm)
            elif name == "Tm" and len(operands) == 6:
                tm = tlm = tuple(float(v) for v in operands)  # type: ignore[assignment]
            elif name in ("T*", "'", '"'):
                if name == '"' and len(operands) == 3:
                    state.tw, state.tc = float(operands[0]), float(operands[1])
                tm = tlm = _mul((1.0, 0.0, 0.0, 1.0, 0.0, -state.tl), tlm)
                if name != "T*" and operands:
                    tm = self._show([operands[-1]], tm, state)
            elif name in ("Tj", "TJ") and operands:
                tm = self._show(list(operands[0]) if name == "TJ" else [operands[0]], tm, state)
            elif name == "Do" and operands and res is not None and res.get("/XObject") is not None:
                xobj = res.XObject.get(operands[0])
                if xobj is not None:
                    self._xobject(xobj, state, active)
            elif name == "sh" and operands:
                colour = _shading_colour(res.get("/Shading", {}).get(operands[0]) if res is not None else None)
                if colour is not None:
                    self.paints.append(_Paint("areas", state.clip or (_page_cover(state),), colour))

    def _gs(self, res, name, state: _State) -> None:
        states = res.get("/ExtGState") if res is not None else None
        gs = states.get(name) if states is not None else None
        if gs is None:
            return
        if "/OP" in gs:
            state.stroke_op = bool(gs.OP)
            if "/op" not in gs:
                state.fill_op = bool(gs.OP)
        if "/op" in gs:
            state.fill_op = bool(gs.op)
        if "/OPM" in gs:
            state.opm = int(gs.OPM)
        if "/LW" in gs:
            state.width = float(gs.LW)

    def _colour(self, res, name: str, operands, state: _State) -> None:
        import pikepdf

        stroke = name.isupper()
        numbers = [float(v) for v in operands if not isinstance(v, pikepdf.Name)]
        value: Any = None
        if name in ("k", "K") and len(numbers) == 4:
            value = tuple(numbers)
        elif name in ("g", "G") and numbers:
            value = (0.0, 0.0, 0.0, 1.0 - numbers[0])
        elif name in ("rg", "RG") and len(numbers) == 3:
            value = to_cmyk(*numbers)
        elif name in ("cs", "CS"):
            space = str(operands[0]) if operands else ""
            if stroke:
                state.stroke_space = space
            else:
                state.fill_space = space
            # (a Separation — the die line's CutContour, the marks' All — is no process ink here: None)
            value = {"/DeviceCMYK": (0.0, 0.0, 0.0, 1.0), "/DeviceGray": (0.0, 0.0, 0.0, 1.0),
                     "/DeviceRGB": (0.0, 0.0, 0.0, 1.0)}.get(space)
        else:  # sc, scn, SC, SCN: in the space set by cs / CS
            space = state.stroke_space if stroke else state.fill_space
            if operands and isinstance(operands[-1], pikepdf.Name):  # a pattern
                patterns = res.get("/Pattern") if res is not None else None
                pattern = patterns.get(operands[-1]) if patterns is not None else None
                value = _shading_colour(pattern.get("/Shading") if pattern is not None else None)
            elif space == "/DeviceCMYK" and len(numbers) == 4:
                value = tuple(numbers)
            elif space == "/DeviceGray" and len(numbers) == 1:
                value = (0.0, 0.0, 0.0, 1.0 - numbers[0])
            elif space == "/DeviceRGB" and len(numbers) == 3:
                value = to_cmyk(*numbers)
        if stroke:
            state.stroke = value
        else:
            state.fill = value

    def _paint(self, name: str, flat: Callable[[], list], state: _State) -> None:
        if name in ("f", "F", "f*", "B", "B*", "b", "b*") and state.fill is not None:
            self._add("areas", _Cover(_placed(flat, state.ctm), name.endswith("*")), state.fill, state, state.fill_op)
        if name in ("S", "s", "B", "B*", "b", "b*") and state.stroke is not None:
            close, ctm, width = name in ("s", "b", "b*"), state.ctm, state.width
            self._add("lines", _Cover(lambda: _bands(flat(), close, ctm, width)), state.stroke, state, state.stroke_op,
                      width * abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) ** 0.5)

    def _add(self, kind: str, cover: _Cover, colour: CMYK, state: _State, overprint: bool, width: float = 0.0) -> None:
        nonzero = overprint and state.opm == 1 and min(colour) <= 0
        self.paints.append(_Paint(kind, (cover,) + state.clip, colour, nonzero, width=width))

    def _show(self, items: list, tm: Matrix, state: _State) -> Matrix:
        """Each string's box (its advance by the font's descent and ascent) painted; the text
        matrix moved past it."""
        import pikepdf

        font = state.font
        key = font.objgen if font is not None and font.objgen != (0, 0) else id(font)
        if key not in self.fonts:
            self.fonts[key] = _metrics(font)
        metrics = self.fonts[key]
        h = state.tz / 100.0
        start = tm
        advance = 0.0
        for item in items:
            if not isinstance(item, (pikepdf.String, bytes)):  # a TJ adjustment, thousandths of an em
                advance -= float(item) / 1000.0 * state.size * h
                continue
            data = bytes(item)
            two = metrics[0]
            codes = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data) - 1, 2)] if two else list(data)
            for code in codes:
                advance += (metrics[1](code) * state.size + state.tc + (state.tw if code == 32 and not two else 0.0)) * h
        descent, ascent = metrics[2] * state.size + state.ts, metrics[3] * state.size + state.ts
        if state.tr not in (3, 7) and state.size and advance:
            m = _mul(start, state.ctm)
            box = _ccw([_at(m, *p) for p in ((0.0, descent), (advance, descent), (advance, ascent), (0.0, ascent))])
            colour, overprint = (state.fill, state.fill_op) if state.tr in (0, 2, 4, 6) else (state.stroke, state.stroke_op)
            if colour is not None:
                self._add("text", _Cover(lambda: [box]), colour, state, overprint,
                          state.size * abs(m[0] * m[3] - m[1] * m[2]) ** 0.5)
        return _mul((1.0, 0.0, 0.0, 1.0, advance, 0.0), start)

    def _xobject(self, xobj, state: _State, active: set) -> None:
        subtype = xobj.get("/Subtype")
        if subtype == "/Form":
            if xobj.objgen in active:
                return
            matrix = [float(v) for v in xobj.get("/Matrix", _IDENTITY)]
            form: Matrix = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]) if len(matrix) == 6 else _IDENTITY
            inner = replace(state, ctm=_mul(form, state.ctm))
            bbox = [float(v) for v in xobj.get("/BBox", ())]
            if len(bbox) == 4:
                x0, y0, x1, y1 = bbox
                corners = [_at(inner.ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
                inner.clip = inner.clip + (_Cover(lambda: [corners]),)
            self.run(xobj, inner, active | {xobj.objgen})
            return
        if subtype != "/Image":
            return
        corners = [_at(state.ctm, x, y) for x, y in ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))]
        if xobj.get("/ImageMask", False):
            if state.fill is not None:
                self._add("areas", _Cover(lambda: [corners]), state.fill, state, state.fill_op)
            return
        inverse = _inverse(state.ctm)
        if inverse is None:
            return
        pixels = self.pictures.inks(xobj)
        if pixels is None:  # a picture of another kind: its inks unknown, left out
            return
        self.paints.append(_Paint("picture", (_Cover(lambda: [corners]),) + state.clip, None, picture=(pixels, inverse)))


def _page_cover(state: _State) -> _Cover:
    big = 1e6
    return _Cover(lambda: [[(-big, -big), (big, -big), (big, big), (-big, big)]])


def _once(make: Callable[[], Any]) -> Callable[[], Any]:
    """``make()``, made at the first call and kept."""
    kept: list = []

    def get():
        if not kept:
            kept.append(make())
        return kept[0]
    return get


def _placed(flat: Callable[[], list], ctm: Matrix) -> Callable[[], list]:
    return lambda: [[_at(ctm, *p) for p in sp] for sp in flat()]


def _flatten(path: list[tuple[str, Any]]) -> list[list[tuple[float, float]]]:
    """A path's subpaths in user space, curves flattened to CURVE_STEPS segments."""
    subpaths: list[list[tuple[float, float]]] = []
    for name, operands in path:
        _segment(name, [float(v) for v in operands], subpaths)
    return subpaths


def _segment(name: str, v: list[float], subpaths: list[list[tuple[float, float]]]) -> None:
    if name == "re" and len(v) == 4:
        x, y, w, h = v
        subpaths.append([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)])
    elif name == "m" and len(v) == 2:
        subpaths.append([(v[0], v[1])])
    elif name == "h":
        if subpaths and subpaths[-1]:
            subpaths[-1].append(subpaths[-1][0])
            subpaths.append([subpaths[-1][0]])  # the current point is where the subpath started
    elif subpaths and subpaths[-1]:
        current = subpaths[-1]
        p0 = current[-1]
        if name == "l" and len(v) == 2:
            current.append((v[0], v[1]))
        elif name in ("c", "v", "y") and len(v) in (6, 4):
            if name == "c":
                p1, p2, p3 = (v[0], v[1]), (v[2], v[3]), (v[4], v[5])
            elif name == "v":
                p1, p2, p3 = p0, (v[0], v[1]), (v[2], v[3])
            else:
                p1, p2, p3 = (v[0], v[1]), (v[2], v[3]), (v[2], v[3])
            for i in range(1, CURVE_STEPS + 1):
                t = i / CURVE_STEPS
                s = 1 - t
                current.append((s ** 3 * p0[0] + 3 * s * s * t * p1[0] + 3 * s * t * t * p2[0] + t ** 3 * p3[0],
                                s ** 3 * p0[1] + 3 * s * s * t * p1[1] + 3 * s * t * t * p2[1] + t ** 3 * p3[1]))


def _bands(subpaths: list, close: bool, ctm: Matrix, width: float) -> list[list[tuple[float, float]]]:
    """A stroke as bands along its segments (device pixels), each as wide as the line, its ends
    squared off by half the width: all of one winding, so their union is the stroke."""
    a, b, c, d = ctm[:4]
    half = max(width * math.sqrt(abs(a * d - b * c)), MIN_STROKE_PX) / 2
    out = []
    for sp in subpaths:
        points = [_at(ctm, *p) for p in sp]
        if close and len(points) > 1 and points[0] != points[-1]:
            points.append(points[0])
        for (x0, y0), (x1, y1) in zip(points, points[1:]):  # a lone point paints nothing
            length = math.hypot(x1 - x0, y1 - y0)
            ux, uy = ((x1 - x0) / length, (y1 - y0) / length) if length else (1.0, 0.0)
            nx, ny = -uy * half, ux * half
            sx, sy, ex, ey = x0 - ux * half, y0 - uy * half, x1 + ux * half, y1 + uy * half
            out.append(_ccw([(sx + nx, sy + ny), (ex + nx, ey + ny), (ex - nx, ey - ny), (sx - nx, sy - ny)]))
    return out


def _metrics(font):
    """(two-byte codes?, code → advance in text space units a unit of size, descent, ascent) of a
    font: its widths (Type0: the descendant's /W and /DW; simple: /Widths), its descriptor's
    descent and ascent; a font it cannot read advances 1 em a code, from −0.25 to 1 em."""

    if font is None:
        return False, lambda code: 1.0, -0.25, 1.0

    two = font.get("/Subtype") == "/Type0"
    source = font.DescendantFonts[0] if two and "/DescendantFonts" in font else font
    desc = source.get("/FontDescriptor") or {}
    descent = float(desc.get("/Descent", -250)) / 1000
    ascent = float(desc.get("/Ascent", 1000)) / 1000
    widths: dict[int, float] = {}
    if two:
        widths = cid_widths(source.get("/W", []))
        default = float(source.get("/DW", 1000))
    else:
        first = int(font.get("/FirstChar", 0))
        widths.update((first + k, float(v)) for k, v in enumerate(font.get("/Widths", [])))
        default = float(desc.get("/MissingWidth", 1000))
    return two, lambda code: widths.get(code, default) / 1000, min(descent, 0.0), max(ascent, 0.0)


def _shading_colour(shading) -> CMYK | None:
    """A DeviceCMYK gradient's heaviest stop (its C+M+Y, then its total, highest): a gradient
    blends its stops linearly, so no colour of it holds more ink."""
    if shading is None or shading.get("/ColorSpace") != "/DeviceCMYK" or "/Function" not in shading:
        return None
    stops: list[CMYK] = []
    todo = [shading.Function]
    while todo:
        fn = todo.pop()
        todo.extend(fn.get("/Functions", ()))
        for key in ("/C0", "/C1"):
            if len(fn.get(key, ())) == 4:
                stops.append(tuple(float(v) for v in fn[key]))  # type: ignore[arg-type]
    return max(stops, key=lambda c: (sum(c[:3]), sum(c))) if stops else None


class _Pictures:
    """The pictures' inks (``_picture_inks``) by image, the most recently read kept within
    ``BUDGET`` bytes: a picture's copies are neighbouring pages, and a thousand illustrated cards'
    pictures as ink planes (8 MB each at 600×840 px) would not fit in memory together."""

    BUDGET = 256 << 20

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple, Any] = OrderedDict()
        self._held = 0

    def inks(self, image) -> Any:
        key = image.objgen
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        pixels = _picture_inks(image)
        self._kept[key] = pixels
        self._held += pixels.nbytes if pixels is not None else 0
        while self._held > self.BUDGET and len(self._kept) > 1:
            _, gone = self._kept.popitem(last=False)
            self._held -= gone.nbytes if gone is not None else 0
        return pixels


def _picture_inks(image):
    """A picture's pixels as ink (h × w × 4, 0–1): CMYK as it is, grey on K; None for others."""
    import numpy as np
    import pikepdf

    try:
        pil = pikepdf.PdfImage(image).as_pil_image()
    except (pikepdf.PdfError, NotImplementedError, ValueError, OSError):
        return None
    if pil.mode == "CMYK":
        return np.asarray(pil, dtype=np.float32) / 255.0
    if pil.mode in ("L", "1"):
        grey = np.asarray(pil.convert("L"), dtype=np.float32) / 255.0
        out = np.zeros(grey.shape + (4,), dtype=np.float32)
        out[..., 3] = 1.0 - grey
        return out
    return None
