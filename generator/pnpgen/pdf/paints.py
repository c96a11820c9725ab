"""A CMYK page read as what it paints, in painting order (pdf/overprint.py's checks draw it):
each fill, stroke, text and picture with its colour, whether it overprints, the area it covers
and the clip it is painted in. Curves are drawn as CURVE_STEPS segments; a stroke is a band of
its width, at least MIN_STROKE_PX pixels; text is the box of its advance by the font's ascent
and descent; a picture is read as its inks, a gradient as its heaviest stop."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from pnpgen.pdf.colour import gradient_stops, samples_inverted, to_cmyk
from pnpgen.pdf.matrix import IDENTITY, Matrix, point, times
from pnpgen.pdf.outline import cid_widths

CURVE_STEPS = 8  # line segments a Bézier curve is drawn with
MIN_STROKE_PX = 1.5  # a hairline still covers the pixels it passes through
CMYK = tuple[float, float, float, float]
_PATH = frozenset(("m", "l", "c", "v", "y", "h", "re"))


class Cover:
    """An area: the edges of its outline in device pixels (n × 4: x0, y0, x1, y1), made from its
    polygons when first drawn (most pages are never drawn: see overprint.py's _bound), and its
    fill rule."""

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
class Paint:
    """One thing a CMYK page paints (text, lines, an area or a picture), with its ink, whether it overprints and the
    area it covers: what the overprint checks look at."""

    kind: str  # text | lines | areas | picture
    covers: tuple[Cover, ...]  # the painted area: the intersection of these
    colour: CMYK | None  # None: a picture's pixels
    overprint: bool = False  # nonzero overprint (OPM 1) in DeviceCMYK
    picture: Any = None  # (pixels h × w × 4 as _picture_inks gives them, ink_values() their 0–1 ink; device pixel → picture's unit square)
    width: float = 0.0  # lines: the line's width, text: its size, in device pixels (the matrix's mean scale)
    source: tuple | None = None  # (the content stream's objgen, the painting instruction's index in it)


class NoPictures:
    """For a reading that needs no picture's pixels (``mixed_inks``): none decoded."""

    def inks(self, image) -> None:
        return None


@dataclass
class State:
    """The graphics state while a page's painting is read back (position, clip, colours, text settings): what each
    painting instruction is measured with."""

    ctm: Matrix
    clip: tuple[Cover, ...] = ()
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


class PageReader:
    """A content stream's painting, in order, as Paint items in device pixels."""

    def __init__(self, paints: list[Paint], read: dict):
        self.paints = paints
        self.pictures: Pictures = read["pictures"]  # image objgen → its inks, the recent ones
        self.fonts = read["fonts"]  # font objgen → its metrics
        self.at: tuple | None = None  # the instruction being read: (its stream's objgen, its index)

    def run(self, obj, state: State, active: set) -> None:
        import pikepdf

        res = obj.get("/Resources")
        stack: list[State] = []
        path: list[tuple[str, Any]] = []  # the path being built, as its operators
        clip_rule: bool | None = None  # W (False) or W* (True) pending for the current path
        tm = tlm = IDENTITY
        try:
            ops = pikepdf.parse_content_stream(obj)
        except pikepdf.PdfError:
            return
        for n, instruction in enumerate(ops):
            operands, name = instruction.operands, str(instruction.operator)
            self.at = (obj.objgen, n)
            if name in _PATH:
                path.append((name, operands))
            elif name == "q":
                stack.append(replace(state))
            elif name == "Q":
                if stack:
                    state = stack.pop()
            elif name == "cm" and len(operands) == 6:
                state.ctm = times(tuple(float(v) for v in operands), state.ctm)  # type: ignore[arg-type]
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
                    state.clip = state.clip + (Cover(_placed(flat, state.ctm), clip_rule),)
                path, clip_rule = [], None
            elif name == "BT":
                tm = tlm = IDENTITY
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
                tm = tlm = times((1.0, 0.0, 0.0, 1.0, tx, ty), tlm)
            elif name == "Tm" and len(operands) == 6:
                tm = tlm = tuple(float(v) for v in operands)  # type: ignore[assignment]
            elif name in ("T*", "'", '"'):
                if name == '"' and len(operands) == 3:
                    state.tw, state.tc = float(operands[0]), float(operands[1])
                tm = tlm = times((1.0, 0.0, 0.0, 1.0, 0.0, -state.tl), tlm)
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
                    self.paints.append(Paint("areas", state.clip or (_page_cover(state),), colour))

    def _gs(self, res, name, state: State) -> None:
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

    def _colour(self, res, name: str, operands, state: State) -> None:
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

    def _paint(self, name: str, flat: Callable[[], list], state: State) -> None:
        if name in ("f", "F", "f*", "B", "B*", "b", "b*") and state.fill is not None:
            self._add("areas", Cover(_placed(flat, state.ctm), name.endswith("*")), state.fill, state, state.fill_op)
        if name in ("S", "s", "B", "B*", "b", "b*") and state.stroke is not None:
            close, ctm, width = name in ("s", "b", "b*"), state.ctm, state.width
            self._add("lines", Cover(lambda: _bands(flat(), close, ctm, width)), state.stroke, state, state.stroke_op,
                      width * abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) ** 0.5)

    def _add(self, kind: str, cover: Cover, colour: CMYK, state: State, overprint: bool, width: float = 0.0) -> None:
        nonzero = overprint and state.opm == 1 and min(colour) <= 0
        self.paints.append(Paint(kind, (cover,) + state.clip, colour, nonzero, width=width, source=self.at))

    def _show(self, items: list, tm: Matrix, state: State) -> Matrix:
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
            m = times(start, state.ctm)
            box = _ccw([point(m, *p) for p in ((0.0, descent), (advance, descent), (advance, ascent), (0.0, ascent))])
            colour, overprint = (state.fill, state.fill_op) if state.tr in (0, 2, 4, 6) else (state.stroke, state.stroke_op)
            if colour is not None:
                self._add("text", Cover(lambda: [box]), colour, state, overprint,
                          state.size * abs(m[0] * m[3] - m[1] * m[2]) ** 0.5)
        return times((1.0, 0.0, 0.0, 1.0, advance, 0.0), start)

    def _xobject(self, xobj, state: State, active: set) -> None:
        subtype = xobj.get("/Subtype")
        if subtype == "/Form":
            if xobj.objgen in active:
                return
            matrix = [float(v) for v in xobj.get("/Matrix", IDENTITY)]
            form: Matrix = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5]) if len(matrix) == 6 else IDENTITY
            inner = replace(state, ctm=times(form, state.ctm))
            bbox = [float(v) for v in xobj.get("/BBox", ())]
            if len(bbox) == 4:
                x0, y0, x1, y1 = bbox
                corners = [point(inner.ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
                inner.clip = inner.clip + (Cover(lambda: [corners]),)
            self.run(xobj, inner, active | {xobj.objgen})
            return
        if subtype != "/Image":
            return
        corners = [point(state.ctm, x, y) for x, y in ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))]
        if xobj.get("/ImageMask", False):
            if state.fill is not None:
                self._add("areas", Cover(lambda: [corners]), state.fill, state, state.fill_op)
            return
        inverse = _inverse(state.ctm)
        if inverse is None:
            return
        pixels = self.pictures.inks(xobj)
        if pixels is None:  # a picture of another kind: its inks unknown, left out
            return
        self.paints.append(Paint("picture", (Cover(lambda: [corners]),) + state.clip, None, picture=(pixels, inverse)))


def _page_cover(state: State) -> Cover:
    big = 1e6
    return Cover(lambda: [[(-big, -big), (big, -big), (big, big), (-big, big)]])


def _once(make: Callable[[], Any]) -> Callable[[], Any]:
    """``make()``, made at the first call and kept."""
    kept: list = []

    def get():
        if not kept:
            kept.append(make())
        return kept[0]
    return get


def _placed(flat: Callable[[], list], ctm: Matrix) -> Callable[[], list]:
    return lambda: [[point(ctm, *p) for p in sp] for sp in flat()]


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
        points = [point(ctm, *p) for p in sp]
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
    stops = gradient_stops(shading)
    return max(stops, key=lambda c: (sum(c[:3]), sum(c))) if stops else None


class Pictures:
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
    """A picture's pixels as ink (h × w × 4): CMYK as it is, 8 bits a sample, 0–255 (four bytes a
    pixel, not sixteen as floats: a 7700×7700 picture's plane is 237 MB; ``ink_values`` makes
    floats of the few read); grey on K, 0–1 floats; None for others."""
    import numpy as np
    import pikepdf

    try:
        pil = pikepdf.PdfImage(image).as_pil_image()
    except (pikepdf.PdfError, NotImplementedError, ValueError, OSError):
        return None
    if pil.mode == "CMYK":
        pixels = np.array(pil, dtype=np.uint8)
        if pil.format == "JPEG" and samples_inverted(image):  # (Pillow's reading of the DCT data)
            np.subtract(255, pixels, out=pixels)
        return pixels
    if pil.mode in ("L", "1"):
        grey = np.asarray(pil.convert("L"), dtype=np.float32) / 255.0
        out = np.zeros(grey.shape + (4,), dtype=np.float32)
        out[..., 3] = 1.0 - grey
        return out
    return None


def ink_values(pixels):
    """``_picture_inks``'s pixels (or some of them) as ink, 0–1 floats: a CMYK picture's 8-bit
    samples made floats only where they are read, each as a float plane held it (x ÷ 255)."""
    import numpy as np

    return pixels.astype(np.float32) / 255.0 if pixels.dtype == np.uint8 else pixels
