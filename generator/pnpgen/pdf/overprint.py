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
``knock_out_over(pdf, limit)`` draws the pages so first and sets each black of pdf/black.py that
passes the limit there to knock out instead (the export's files are then under it).
"""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pnpgen.pdf.black import KNOCKOUT, OVERPRINT
from pnpgen.pdf.colour import write_content
from pnpgen.pdf.matrix import point
from pnpgen.pdf.paints import CMYK, Cover, Matrix, NoPictures, PageReader, Paint, Pictures, State, ink_values
from pnpgen.pdf.resave import pdf_bytes

RES_MM = 4.0  # pixels a millimetre the page is drawn at
_SCALE = RES_MM * 25.4 / 72  # pixels a point
Window = tuple[int, int, int, int]  # rows and columns of the page an area can touch (first, past the last)


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
        read: dict[str, Any] = {"pictures": Pictures(), "fonts": {}}  # per document: objgens are its own
        for index, page in enumerate(doc.pages):
            key = _page_key(page.obj)
            if key not in known:
                known[key] = _worst(page.obj, limit, read)
            found = known[key]
            if found is not None:
                out.append(Overprinted(index, *found))
    return out


@dataclass(frozen=True)
class KnockedOut:
    """What ``knock_out_over`` made: the new PDF, how many objects knock out per kind, and what
    still overprints past the limit (each page's worst place, as ``over_limit`` says it: an
    overprint that is not pdf/black.py's), read from the same drawing."""

    pdf: bytes
    counts: Counter
    left: list[Overprinted]


def knock_out_over(pdf: bytes, limit: float) -> KnockedOut:
    """The black pdf/black.py set to overprint, knocking out wherever it and the inks it leaves
    under it add up to more than ``limit`` percent (and to more than its own ink), as a prepress
    operator sets such an object: 100 % K alone there, under the limit, where overprinting passed
    it. Each such object (a text object, a line, a small shape; in a face's form, on every page
    drawing it) is switched from OVERPRINT to KNOCKOUT. The pages are drawn once: what is left
    over the limit is read from the same drawing (the export's check need not draw them again)."""
    import pikepdf

    hits: dict[tuple, list[tuple[tuple, tuple]]] = {}  # page key → (source, (kind, colour, under, total))
    keys: list[tuple] = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        read: dict[str, Any] = {"pictures": Pictures(), "fonts": {}}
        for page in doc.pages:
            key = _page_key(page.obj)
            keys.append(key)
            if key in hits:
                continue
            found: list[tuple[tuple, tuple]] = []
            hits[key] = found
            size, device = _device(page.obj)
            paints: list[Paint] = []
            PageReader(paints, read).run(page.obj, State(device), set())
            if not any(p.overprint for p in paints) or _bound(paints) * 100 <= limit + 1e-6:
                continue

            def look(paint: Paint, colour: CMYK, under, result, found: list = found) -> None:
                if not paint.overprint:
                    return
                totals = result.sum(axis=1)
                at = int(totals.argmax())
                total = round(100.0 * float(totals[at]), 1)
                if total > limit + 1e-6 and total > 100.0 * sum(colour) + 0.05:
                    found.append((paint.source, (paint.kind, colour, tuple(round(float(v), 3) for v in under[at]), total)))

            _separate(paints, size, look)
        flagged: dict[tuple, set[int]] = {}  # stream objgen → the painting instructions that pass
        kinds: dict[tuple, str] = {}
        for source, (kind, *_) in (hit for found in hits.values() for hit in found):
            if source is not None:
                flagged.setdefault(source[0], set()).add(source[1])
                kinds[source] = kind
        counts: Counter = Counter()
        switched: set[tuple] = set()  # the sources now knocking out
        for objgen, painted in sorted(flagged.items()):
            obj = doc.get_object(objgen)
            ops = [(list(i.operands), i.operator) for i in pikepdf.parse_content_stream(obj)]
            states: set[int] = set()
            for n in sorted(painted):
                at = next((j for j in range(n - 1, -1, -1) if str(ops[j][1]) == "gs"), None)
                if at is None or not (at in states or ops[at][0] == [pikepdf.Name(OVERPRINT)]):
                    continue  # not pnpgen's black: left as it is, and said
                switched.add((objgen, n))
                if at not in states:
                    states.add(at)
                    counts[kinds[(objgen, n)]] += 1
                ops[at] = ([pikepdf.Name(KNOCKOUT)], ops[at][1])
            if states:
                write_content(doc, obj, ops)
        left = []
        for index, key in enumerate(keys):
            worst = None
            for source, hit in hits[key]:
                if source not in switched and (worst is None or hit[3] > worst[3]):
                    worst = hit
            if worst is not None:
                left.append(Overprinted(index, *worst))
        if not counts:
            return KnockedOut(pdf, counts, left)
        return KnockedOut(pdf_bytes(doc), counts, left)


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
        read: dict[str, Any] = {"pictures": NoPictures(), "fonts": {}}
        seen = {"pictures": Pictures(), "fonts": read["fonts"]}  # for the pages drawn as plates: a picture read once
        for index, page in enumerate(doc.pages):
            key = _page_key(page.obj)
            if key not in known:
                size, device = _device(page.obj)
                paints: list[Paint] = []
                PageReader(paints, read).run(page.obj, State(device), set())
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


def _reversed(page, white: list[Paint], size: tuple[int, int], device: Matrix, inks: int,
              read: dict) -> list[MixedInks]:
    """The white text and lines of ``white`` (read without pictures) that lie on a ground of
    ``inks`` or more inks: the page drawn again with its pictures, as its plates."""
    import numpy as np

    wanted = {(p.kind, p.colour, p.width) for p in white}
    paints: list[Paint] = []
    PageReader(paints, read).run(page, State(device), set())
    found: dict[tuple[str, CMYK, CMYK], float] = {}

    def look(paint: Paint, colour: CMYK, under, result) -> None:
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


def _device(page) -> tuple[tuple[int, int], Matrix]:
    """The page's ink planes' size (rows, columns) and the matrix from its space to theirs."""
    x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
    size = (max(1, math.ceil((y1 - y0) * _SCALE)), max(1, math.ceil((x1 - x0) * _SCALE)))
    return size, (_SCALE, 0.0, 0.0, -_SCALE, -x0 * _SCALE, y1 * _SCALE)


def _worst(page, limit: float, read: dict) -> tuple | None:
    """(kind, colour, under, ink %) of the page's heaviest overprinted place over ``limit``."""
    size, device = _device(page)
    paints: list[Paint] = []
    PageReader(paints, read).run(page, State(device), set())
    if not any(p.overprint for p in paints) or _bound(paints) * 100 <= limit + 1e-6:
        return None
    return _draw(paints, size, limit)


def _bound(paints: list[Paint]) -> float:
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


STRIP_PIXELS = 1 << 20  # a picture's heaviest inks are added up a strip of rows of about this many pixels at a time


def _heaviest(paint: Paint, inks: tuple[int, ...]) -> float:
    if paint.colour is not None:
        return sum(paint.colour[i] for i in inks)
    pixels = paint.picture[0]
    if not inks or not pixels.size:
        return 0.0
    rows = max(1, STRIP_PIXELS // max(1, pixels.shape[1]))  # (a big picture's inks taken whole were a copy of them all)
    chosen = list(inks)
    return max(float(ink_values(pixels[top:top + rows])[..., chosen].sum(axis=-1).max())
               for top in range(0, pixels.shape[0], rows))


def _draw(paints: list[Paint], size: tuple[int, int], limit: float) -> tuple | None:
    worst: tuple | None = None

    def look(paint: Paint, colour: CMYK, under, result) -> None:
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


def _separate(paints: list[Paint], size: tuple[int, int], look: Callable[[Paint, CMYK, Any, Any], None]) -> None:
    """Paint the page's four ink planes in order; ``look(paint, colour, under, result)`` sees each
    object painted in a colour: the inks under its pixels before, and after it is painted."""
    import numpy as np

    ink = np.zeros(size + (4,), dtype=np.float32)
    # a clip's pixels over the rows and columns it can touch, shared by what it clips: drawn the
    # page's size, the 150 counters of a counter sheet (each clipped to its own bleed) took 0.6 s
    clips: dict[int, tuple[Any, Window]] = {}
    for paint in paints:
        own = paint.covers[0]
        window = _window(own, size)
        for clip in paint.covers[1:]:
            if id(clip) not in clips:
                q0, q1, p0, p1 = _window(clip, size) or (0, 0, 0, 0)  # reaching nothing: it clips everything away
                clips[id(clip)] = (_mask(clip, (q1 - q0, p1 - p0), (p0, q0)), (q0, q1, p0, p1))
            window = _overlap(window, clips[id(clip)][1])
        if window is None:  # off the page, or clipped away
            continue
        r0, r1, c0, c1 = window
        mask = _mask(own, (r1 - r0, c1 - c0), (c0, r0))  # exact in any window: a row's crossings left of it count at its edge
        for clip in paint.covers[1:]:
            pixels, (q0, _, p0, _) = clips[id(clip)]  # the window lies within every clip's reach
            mask &= pixels[r0 - q0:r1 - q0, c0 - p0:c1 - p0]
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


def _overlap(one: Window | None, other: Window) -> Window | None:
    if one is None:
        return None
    top, bottom, left, right = max(one[0], other[0]), min(one[1], other[1]), max(one[2], other[2]), min(one[3], other[3])
    return (top, bottom, left, right) if top < bottom and left < right else None


def _window(cover: Cover, size: tuple[int, int]) -> Window | None:
    """The rows and columns (first, past the last) of the page an area can touch."""
    edges = cover.edges
    if not len(edges):
        return None
    h, w = size
    xs, ys = edges[:, 0::2], edges[:, 1::2]
    r0, r1 = max(0, math.floor(float(ys.min()))), min(h, math.ceil(float(ys.max())) + 1)
    c0, c1 = max(0, math.floor(float(xs.min()))), min(w, math.ceil(float(xs.max())) + 1)
    return (r0, r1, c0, c1) if r0 < r1 and c0 < c1 else None


def _mask(cover: Cover, size: tuple[int, int], origin: tuple[int, int]):
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
    u, v = point(inverse, x, y)
    ph, pw = pixels.shape[:2]
    px = np.clip((u * pw).astype(np.int64), 0, pw - 1)
    py = np.clip(((1.0 - v) * ph).astype(np.int64), 0, ph - 1)
    return ink_values(pixels[py, px])
