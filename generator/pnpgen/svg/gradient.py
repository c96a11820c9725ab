"""SVG gradients (``linearGradient``, ``radialGradient``) resolved into shading specs, for the
converter (``pnpgen.svg``).

A gradient-painted shape becomes one ``("paint", …)`` item of the face's art
(``pnpgen.svg.artwork.paint_item``): the shape's path and a shading spec per gradient paint (fill,
stroke). ``pnpgen.pdf.shading`` writes it as a PDF shading pattern in a form of its own.

The shading is smooth (ShadingType 2 axial, 3 radial, a stitching function of the stops),
opaque and deterministic. ``spreadMethod`` reflect and repeat are written as the stops repeated
(mirrored) over as many periods as the shape needs, up to ``MAX_PERIODS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnpgen.svg.artwork import MAX_PERIODS
from pnpgen.svg.style import (
    IDENTITY,
    MAX_COORDINATE,
    Fallback,
    compose,
    local_name,
    parse_colour,
    parse_transform,
    props_of,
)

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
        if target is None or local_name(target) not in GRADIENTS:
            raise error(chain[-1], f"has href={href!r}, which names no gradient of the face", "the id of a gradient")
        if target in chain:
            raise error(chain[-1], f"has href={href!r}, which refers back to it", "a reference that does not loop")
        chain.append(target)
    name = local_name(el)

    def attr(key: str, same_kind: bool = False) -> str | None:
        for g in chain:
            if same_kind and local_name(g) != name:
                continue
            v = props_of(g).get(key)
            if v is not None:
                return v.strip()
        return None

    units = attr("gradientUnits") or "objectBoundingBox"
    if units not in ("objectBoundingBox", "userSpaceOnUse"):
        raise error(el, f"has gradientUnits={units!r}", "objectBoundingBox or userSpaceOnUse")
    bbox_units = units == "objectBoundingBox"
    try:
        transform = parse_transform(attr("gradientTransform") or "")
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
    stops_el = next((g for g in chain if any(local_name(c) == "stop" for c in g)), None)
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
        if local_name(stop) != "stop":
            continue
        props = props_of(stop)
        try:
            offset = min(1.0, max(last, _fraction(props.get("offset", "0"))))
        except ValueError:
            raise error(stop, f"has offset={props.get('offset')!r}", "a number from 0 to 1 or a percentage") from None
        last = offset
        value = props.get("stop-color", "black").strip()
        if value == "currentColor":
            value = props.get("color", "black").strip()
        try:
            rgb = parse_colour(value)
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
    """The exact bounding box (x0, y0, x1, y1) of path segments (``pnpgen.svg.path``'s), their points
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
    pm = compose(matrix or IDENTITY, compose(units, g.transform))
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


def paint_server(conv, target) -> Any:
    """The paint a ``url(#id)`` names for the converter ``conv``: a gradient (or its one colour,
    or None); anything else (a pattern) is outside the subset."""
    if local_name(target) not in GRADIENTS:
        raise Fallback(local_name(target) or "paint server")
    return parse(target, conv.ids, conv.error, conv.length)
