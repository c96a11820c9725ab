"""SVG gradients (``linearGradient``, ``radialGradient``) as PDF shadings, for the converter in
``render/vector.py``.

A gradient-painted shape becomes one ``("paint", …)`` item of the face's art: the shape's path
and a shading pattern per gradient paint (fill, stroke). At draw time it is written as a small
Form XObject of its own — the path painted with ``/Pattern cs /GradFill scn`` — whose
/Resources name the shading patterns it uses, through ReportLab's public form API
(``beginForm``/``endForm(Resources=…)``/``doForm``). So the face's form, whatever it holds, keeps
the resources ReportLab gives it, and every name a content stream uses is in its own /Resources:
no dangling ``/Sh0`` (ReportLab's own ``linearGradient`` in a form leaves it dangling, as its
form XObjects carry no /Shading).

The shading is smooth (ShadingType 2 axial, 3 radial, a stitching function of the stops),
opaque, deterministic, and its colours are CMYK in a CMYK document. ``spreadMethod`` reflect
and repeat are written as the stops repeated (mirrored) over as many periods as the shape
needs, up to ``MAX_PERIODS``.

``FallbackCanvas`` routes svglib's gradients (a face outside the subset) the same way.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any, Callable

from pnpgen.svg.vector import IDENTITY, MAX_COORDINATE, _colour, _compose, _local, _parse_transform, _style

MAX_PERIODS = 256  # reflect/repeat periods a shape may span; beyond, the last is padded
FOCAL_INSIDE = 0.99  # a focal point outside the circle moves onto it (SVG 1.1), just inside
GRADIENTS = ("linearGradient", "radialGradient")
_GEOMETRY = {"linearGradient": (("x1", "x", "0%"), ("y1", "y", "0%"), ("x2", "x", "100%"), ("y2", "y", "0%")),
             "radialGradient": (("cx", "x", "50%"), ("cy", "y", "50%"), ("r", "xy", "50%"),
                                ("fx", "x", None), ("fy", "y", None), ("fr", "xy", "0%"))}
_SHARED = ("gradientUnits", "gradientTransform", "spreadMethod")

Stops = tuple[tuple[float, float, float, float], ...]  # (offset, r, g, b), offsets 0 … 1 rising


@dataclass(frozen=True)
class Gradient:
    """A gradient element, resolved (href inheritance, lengths) for the shape that uses it."""

    kind: str  # "linear" | "radial"
    bbox_units: bool  # objectBoundingBox (coordinates are fractions of the shape's box)
    transform: tuple
    coords: tuple  # linear: x1 y1 x2 y2; radial: cx cy r fx fy fr
    spread: str  # "pad" | "reflect" | "repeat"
    stops: Stops


def parse(el, ids: dict, error: Callable[..., Exception],
          length: Callable[[str, str], float]) -> Gradient | tuple | None:
    """The gradient ``el`` (a linear/radialGradient) paints with: a Gradient, an (r, g, b) colour
    when it has one stop, None when it has none (paints nothing). ``error(el, what, expected)``
    makes the InputError, ``length(value, axis)`` resolves a user-space length; ``ids`` are the
    face's elements by id."""
    chain = [el]
    while True:  # href: attributes and stops the element lacks come from the gradient it names
        href = (chain[-1].get("href") or chain[-1].get("{http://www.w3.org/1999/xlink}href") or "").strip()
        if not href.startswith("#"):
            break
        target = ids.get(href[1:])
        if target is None or _local(target) not in GRADIENTS:
            raise error(chain[-1], f"has href={href!r}, which names no gradient of the face", "the id of a gradient")
        if target in chain:
            raise error(chain[-1], f"has href={href!r}, which refers back to it", "a reference that does not loop")
        chain.append(target)
    name = _local(el)

    def attr(key: str, same_kind: bool = False) -> str | None:
        for g in chain:
            if same_kind and _local(g) != name:
                continue
            v = _style(g).get(key)
            if v is not None:
                return v.strip()
        return None

    units = attr("gradientUnits") or "objectBoundingBox"
    if units not in ("objectBoundingBox", "userSpaceOnUse"):
        raise error(el, f"has gradientUnits={units!r}", "objectBoundingBox or userSpaceOnUse")
    bbox_units = units == "objectBoundingBox"
    try:
        transform = _parse_transform(attr("gradientTransform") or "")
    except ValueError:
        raise error(el, f"has gradientTransform={attr('gradientTransform')!r}",
                    "matrix(), translate(), scale(), rotate(), skewX(), skewY()") from None
    spread = attr("spreadMethod") or "pad"
    if spread not in ("pad", "reflect", "repeat"):
        raise error(el, f"has spreadMethod={spread!r}", "pad, reflect or repeat")
    values: dict[str, float] = {}
    for key, axis, default in _GEOMETRY[name]:
        v = attr(key, same_kind=True)
        if v is None:
            if default is None:  # fx, fy: the centre
                values[key] = values["c" + key[1]]
                continue
            v = default
        try:
            values[key] = _fraction(v) if bbox_units else length(v, axis)
        except ValueError:
            raise error(el, f"has {key}={v!r}", "a number or a percentage") from None
        if not -MAX_COORDINATE <= values[key] <= MAX_COORDINATE:
            raise error(el, f"has {key}={v!r}, beyond what a PDF holds", f"a number within ±{MAX_COORDINATE:g}")
    if not all(-MAX_COORDINATE <= v <= MAX_COORDINATE for v in transform):
        raise error(el, f"has gradientTransform={attr('gradientTransform')!r}, beyond what a PDF holds",
                    f"numbers within ±{MAX_COORDINATE:g}")
    coords = tuple(values[k] for k, _, _ in _GEOMETRY[name])
    stops_el = next((g for g in chain if any(_local(c) == "stop" for c in g)), None)
    stops = _stops(stops_el, error) if stops_el is not None else ()
    if not stops:
        return None
    if len(stops) == 1 or all(s[1:] == stops[0][1:] for s in stops):
        return stops[0][1:]
    return Gradient("linear" if name == "linearGradient" else "radial", bbox_units, transform, coords, spread, stops)


def _fraction(v: str) -> float:
    v = v.strip()
    return float(v[:-1]) / 100 if v.endswith("%") else float(v)


def _stops(el, error) -> Stops:
    out: list[tuple[float, float, float, float]] = []
    last = 0.0
    for stop in el:
        if _local(stop) != "stop":
            continue
        props = _style(stop)
        try:
            offset = min(1.0, max(last, _fraction(props.get("offset", "0"))))
        except ValueError:
            raise error(stop, f"has offset={props.get('offset')!r}", "a number from 0 to 1 or a percentage") from None
        last = offset
        value = props.get("stop-color", "black").strip()
        if value == "currentColor":
            value = props.get("color", "black").strip()
        try:
            rgb = _colour(value)
        except ValueError:
            raise error(stop, f"has stop-color={value!r}, which is not a colour",
                        "#rrggbb, #rgb, rgb(r, g, b) or a CSS colour name") from None
        if not isinstance(rgb, tuple):  # stop-opacity below 1 is the converter's prescan's error
            raise error(stop, f"has stop-color {value}: print files cannot contain transparency",
                        "an opaque stop-color")
        out.append((offset, *rgb))
    return tuple(out)


# ------------------------------------------------------------------------ the shape's shading


def bbox(segs: list[tuple], m: tuple | None = None) -> tuple[float, float, float, float] | None:
    """The exact bounding box (x0, y0, x1, y1) of path segments (vector.py's), their points
    through the matrix ``m`` when given; None for no points."""
    xs: list[float] = []
    ys: list[float] = []
    a, b, c, d, e, f = m or IDENTITY

    def pt(x: float, y: float) -> tuple[float, float]:
        return a * x + c * y + e, b * x + d * y + f

    cur = (0.0, 0.0)
    for s in segs:
        op = s[0]
        if op == "re":
            x, y, w, h = s[1:]
            pts = [pt(x, y), pt(x + w, y), pt(x + w, y + h), pt(x, y + h)]
        elif op == "c":
            p1, p2, p3 = pt(s[1], s[2]), pt(s[3], s[4]), pt(s[5], s[6])
            pts = [p3, *_curve_extremes(cur, p1, p2, p3)]
            cur = p3
        elif op in ("m", "l"):
            pts = [pt(s[1], s[2])]
            cur = pts[0]
        else:
            continue
        for x, y in pts:
            xs.append(x)
            ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _curve_extremes(p0, p1, p2, p3) -> list[tuple[float, float]]:
    """The points of a cubic Bézier where x or y turns (roots of its derivative in 0 … 1)."""
    ts: list[float] = []
    for i in (0, 1):
        a = -p0[i] + 3 * p1[i] - 3 * p2[i] + p3[i]
        b = 2 * (p0[i] - 2 * p1[i] + p2[i])
        c = p1[i] - p0[i]
        if abs(a) < 1e-12:
            if abs(b) > 1e-12:
                ts.append(-c / b)
            continue
        disc = b * b - 4 * a * c
        if disc >= 0:
            r = math.sqrt(disc)
            ts.extend(((-b + r) / (2 * a), (-b - r) / (2 * a)))
    out = []
    for t in ts:
        if 0 < t < 1:
            u = 1 - t
            out.append(tuple(u ** 3 * p0[i] + 3 * u * u * t * p1[i] + 3 * u * t * t * p2[i] + t ** 3 * p3[i]
                             for i in (0, 1)))
    return out  # type: ignore[return-value]


def shading(g: Gradient, shape_box: tuple | None, matrix: tuple | None, area: tuple) -> tuple | None:
    """The shading spec of ``g`` on a shape: ``shape_box`` is its box in its own user space (for
    objectBoundingBox), ``matrix`` what moves its points into the current space, ``area`` the
    box it paints there. Returns (kind, coords, domain, pattern matrix, stops, spread), an
    (r, g, b) colour where SVG paints one (a zero-length axis, a zero radius), or None for
    no paint (a box without area under objectBoundingBox, a matrix that flattens everything)."""
    units = IDENTITY
    if g.bbox_units:
        if shape_box is None:
            return None
        x0, y0, x1, y1 = shape_box
        if x1 - x0 <= 0 or y1 - y0 <= 0:
            return None
        units = (x1 - x0, 0.0, 0.0, y1 - y0, x0, y0)
    pm = _compose(matrix or IDENTITY, _compose(units, g.transform))
    det = pm[0] * pm[3] - pm[1] * pm[2]
    if abs(det) < 1e-12:
        return None
    last = g.stops[-1][1:]
    # the painted area's corners in gradient space, to know how many periods reflect/repeat need
    ia, ib, ic, id_ = pm[3] / det, -pm[1] / det, -pm[2] / det, pm[0] / det
    corners = []
    for x, y in ((area[0], area[1]), (area[2], area[1]), (area[2], area[3]), (area[0], area[3])):
        x, y = x - pm[4], y - pm[5]
        corners.append((ia * x + ic * y, ib * x + id_ * y))
    if g.kind == "linear":
        x1, y1, x2, y2 = g.coords
        dx, dy = x2 - x1, y2 - y1
        n2 = dx * dx + dy * dy
        if n2 < 1e-18:
            return last
        ts = [((px - x1) * dx + (py - y1) * dy) / n2 for px, py in corners]
        k0, k1 = _periods(g.spread, min(ts), max(ts))
        coords: tuple = (x1 + k0 * dx, y1 + k0 * dy, x1 + k1 * dx, y1 + k1 * dy)
    else:
        cx, cy, r, fx, fy, fr = g.coords
        if r <= 0:
            return last
        off = math.hypot(fx - cx, fy - cy)
        if off > FOCAL_INSIDE * r:
            s = FOCAL_INSIDE * r / off
            fx, fy, off = cx + (fx - cx) * s, cy + (fy - cy) * s, FOCAL_INSIDE * r
        fr = min(max(fr, 0.0), r)
        grow = r - fr - off  # how much faster the circles grow than their centres move
        tmax = max((math.hypot(px - fx, py - fy) - fr) / grow for px, py in corners) if grow > 1e-12 else 1.0
        k0, k1 = _periods(g.spread, 0.0, tmax)  # k0 is 0: circles do not shrink below the focal one
        coords = (fx, fy, fr, fx + k1 * (cx - fx), fy + k1 * (cy - fy), fr + k1 * (r - fr))
    return ("axial" if g.kind == "linear" else "radial", coords, (float(k0), float(k1)), pm, g.stops, g.spread)


def _periods(spread: str, t0: float, t1: float) -> tuple[int, int]:
    """The whole periods of the gradient vector the shape spans (0 … 1 for pad)."""
    if spread == "pad":
        return 0, 1
    k0, k1 = min(0, math.floor(t0)), max(1, math.ceil(t1))
    while k1 - k0 > MAX_PERIODS:  # keep the periods nearest the gradient's own
        if -k0 > k1 - 1:
            k0 += 1
        else:
            k1 -= 1
    return k0, k1


# --------------------------------------------------------------------------------- draw time


def paint_item(ops: str, op: str, area: tuple, fill: tuple | None, stroke: tuple | None) -> tuple:
    """The art item of a gradient-painted shape: path ``ops`` painted by ``op`` (f, f*, S, B,
    B*) within ``area`` (its box in the current space), ``fill``/``stroke`` shading specs (None:
    the current colour)."""
    return ("paint", ops, op, tuple(area), fill, stroke)


def draw_paint(canvas, item: tuple, cmyk: bool) -> None:
    """Place the gradient-painted shape as a form of its own, defined once per document."""
    _, ops, op, area, fill, stroke = item
    key = repr((ops, op, area, fill, stroke, cmyk)).encode()
    name = "Grad" + hashlib.sha256(key).hexdigest()[:24]
    if not canvas.hasForm(name):
        patterns = {}
        head = []
        if fill is not None:
            patterns["GradFill"] = _pattern(fill, cmyk)
            head.append("/Pattern cs /GradFill scn")
        if stroke is not None:
            patterns["GradStroke"] = _pattern(stroke, cmyk)
            head.append("/Pattern CS /GradStroke SCN")
        # fill, then stroke, as B means: pdfium paints a pattern stroke of B under the fill
        paint = f"{ops} {op[1:] and 'f*' or 'f'} {ops} S" if op.startswith("B") else f"{ops} {op}"
        _form(canvas, name, area, " ".join([*head, paint]), patterns)
    canvas.doForm(name)


def _form(canvas, name: str, area: tuple, content: str, patterns: dict) -> None:
    """A form XObject over ``area`` whose /Resources hold ``patterns`` (and the document's
    fonts, which ReportLab's form preamble names)."""
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary

    x0, y0, x1, y1 = area
    canvas.beginForm(name, x0, y0, x1, y1)
    canvas.addLiteral(content)
    resources = PDFResourceDictionary(Pattern=patterns)
    resources.basicFonts()
    canvas.endForm(Resources=resources)


def _pattern(spec: tuple, cmyk: bool):
    """A shading pattern (PatternType 2) for a spec from :func:`shading`."""
    from reportlab.pdfbase.pdfdoc import PDFArrayCompact, PDFAxialShading, PDFDictionary, PDFName, PDFRadialShading

    kind, coords, domain, matrix, stops, spread = spec
    fn = _function(stops, domain, spread, cmyk)
    space = "DeviceCMYK" if cmyk else "DeviceRGB"
    extra = {"Extend": "[true true]", "Domain": PDFArrayCompact(domain)}
    sh = PDFAxialShading(*coords, Function=fn, ColorSpace=space, **extra) if kind == "axial" \
        else PDFRadialShading(*coords, Function=fn, ColorSpace=space, **extra)
    return PDFDictionary({"Type": PDFName("Pattern"), "PatternType": 2, "Shading": sh,
                          "Matrix": PDFArrayCompact([_round(v) for v in matrix])})


def _round(v: float) -> float:
    return round(v, 6) + 0.0


def _function(stops: Stops, domain: tuple, spread: str, cmyk: bool):
    """The stops as one function over 0 … 1 (a stitching of linear pieces; a stop pair at one
    offset is a hard edge), repeated or mirrored per period of ``domain`` for reflect/repeat."""
    from reportlab.pdfbase.pdfdoc import PDFArrayCompact, PDFExponentialFunction, PDFStitchingFunction

    from pnpgen.pdf.colour import to_cmyk

    def colour(s) -> list[float]:
        return [_round(v) for v in (to_cmyk(*s[1:]) if cmyk else s[1:])]

    pts = list(stops)
    if pts[0][0] > 0:
        pts.insert(0, (0.0, *pts[0][1:]))
    if pts[-1][0] < 1:
        pts.append((1.0, *pts[-1][1:]))
    pieces = [(a[0], b[0], PDFExponentialFunction(colour(a), colour(b), 1))
              for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
    if len(pieces) == 1:
        base = pieces[0][2]
    else:
        base = PDFStitchingFunction([p[2] for p in pieces], [_round(p[0]) for p in pieces[1:]],
                                    [0, 1] * len(pieces), Domain=PDFArrayCompact([0, 1]))
    k0, k1 = int(domain[0]), int(domain[1])
    if k1 - k0 == 1 and k0 == 0:
        return base
    encode: list[int] = []
    for k in range(k0, k1):
        encode.extend((1, 0) if spread == "reflect" and k % 2 else (0, 1))
    return PDFStitchingFunction([base] * (k1 - k0), list(range(k0 + 1, k1)), encode,
                                Domain=PDFArrayCompact([k0, k1]))


# ------------------------------------------------------------------------------- JSON, checks


def spec_from_json(v: Any, number: Callable[[Any], float]) -> tuple | None:
    """A shading spec read back from the art cache (ValueError for anything malformed)."""
    if v is None:
        return None
    if not (isinstance(v, list) and len(v) == 6 and v[0] in ("axial", "radial") and v[5] in ("pad", "reflect", "repeat")):
        raise ValueError("vector art object: a malformed shading")
    kind, coords, domain, matrix, stops, spread = v
    n = 4 if kind == "axial" else 6
    if not (isinstance(coords, list) and len(coords) == n and isinstance(domain, list) and len(domain) == 2
            and isinstance(matrix, list) and len(matrix) == 6 and isinstance(stops, list) and len(stops) >= 2):
        raise ValueError("vector art object: a malformed shading")
    k0, k1 = (number(x) for x in domain)
    if not (k0 == int(k0) and k1 == int(k1) and k0 < k1 and k1 - k0 <= MAX_PERIODS):
        raise ValueError("vector art object: a malformed shading domain")
    out_stops = []
    last = 0.0
    for s in stops:
        if not (isinstance(s, list) and len(s) == 4):
            raise ValueError("vector art object: a malformed gradient stop")
        vals = tuple(number(x) for x in s)
        if not all(0.0 <= x <= 1.0 for x in vals) or vals[0] < last:
            raise ValueError("vector art object: a gradient stop outside 0–1")
        last = vals[0]
        out_stops.append(vals)
    return (kind, tuple(number(x) for x in coords), (k0, k1), tuple(number(x) for x in matrix),
            tuple(out_stops), spread)


def to_json(spec: tuple | None) -> list | None:
    if spec is None:
        return None
    kind, coords, domain, matrix, stops, spread = spec
    return [kind, list(coords), list(domain), list(matrix), [list(s) for s in stops], spread]


# ----------------------------------------------------------------------- svglib's gradients

FALLBACK_AREA = (-14400.0, -14400.0, 14400.0, 14400.0)  # points: beyond any page; svglib clips first


class FallbackCanvas:
    """The canvas svglib's drawing of a face (outside the subset) is drawn on: its gradients —
    ReportLab's ``linearGradient``/``radialGradient``, which in a form XObject name a /Shading
    the form does not carry — are drawn as the converter's are (a shading pattern in a form of
    its own, CMYK in a CMYK document); transparency (an ExtGState, which the form would not carry
    either) is an error; everything else goes to the canvas unchanged."""

    def __init__(self, canvas, cmyk: bool):
        object.__setattr__(self, "canvas", canvas)
        object.__setattr__(self, "cmyk", cmyk)

    def __getattr__(self, name: str):
        return getattr(self.canvas, name)

    def __setattr__(self, name: str, value) -> None:  # the renderer sets state on its canvas
        setattr(self.canvas, name, value)

    def setFillAlpha(self, alpha: float) -> None:  # noqa: N802 - ReportLab's name
        _opaque(alpha, "fill")

    def drawInlineImage(self, *args, **kwargs):  # noqa: N802 - ReportLab's name
        """svglib draws its images inline. ReportLab writes inline image data as text only in
        ASCII85; with Flate-only streams (pnpgen.pdf) it would put bytes among the page's text
        and fail, so an inline image alone is written in ASCII85."""
        from reportlab import rl_config

        before, rl_config.useA85 = rl_config.useA85, 1
        try:
            return self.canvas.drawInlineImage(*args, **kwargs)
        finally:
            rl_config.useA85 = before

    def setStrokeAlpha(self, alpha: float) -> None:  # noqa: N802 - ReportLab's name
        _opaque(alpha, "stroke")

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True) -> None:  # noqa: N802 - ReportLab's name
        self._gradient("axial", (x0, y0, x1, y1), colors, positions)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True) -> None:  # noqa: N802 - ReportLab's name
        self._gradient("radial", (x, y, 0.0, x, y, radius), colors, positions)

    def _gradient(self, kind: str, coords: tuple, colors, positions) -> None:
        """Fill the current clip (svglib sets it to the shape) with the gradient."""
        n = len(colors)
        offsets = list(positions) if positions else [i / max(1, n - 1) for i in range(n)]
        stops: list[tuple[float, float, float, float]] = []
        for o, c in zip(offsets, colors):
            stops.append((min(1.0, max(stops[-1][0] if stops else 0.0, float(o))), *c.rgb()))
        spec = (kind, tuple(float(v) for v in coords), (0.0, 1.0), IDENTITY, tuple(stops), "pad")
        x0, y0, x1, y1 = FALLBACK_AREA
        draw_paint(self.canvas, paint_item(f"{x0:g} {y0:g} {x1 - x0:g} {y1 - y0:g} re", "f", FALLBACK_AREA,
                                           spec, None), self.cmyk)


def _opaque(alpha: float, what: str) -> None:
    """Opaque is the state a face starts in: nothing to write; anything less is an error."""
    if alpha < 1:
        from pnpgen.errors import InputError

        raise InputError(f"the face has a {what} of opacity {alpha:g}: print files cannot contain transparency",
                         expected="an opaque tint colour instead of opacity or rgba()")
