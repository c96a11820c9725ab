"""The basic shapes (``rect``, ``circle``, ``ellipse``, ``line``, ``polyline``, ``polygon``,
``path``): their geometry, fill and stroke paints (colours, or gradients through
``pnpgen.svg.gradient``) and stroke state."""

from __future__ import annotations

import math
import re
from typing import Any

from pnpgen.data.colourvision import apart
from pnpgen.data.model import PLACEHOLDER_COLOUR
from pnpgen.svg import gradient
from pnpgen.svg.artwork import paint_item
from pnpgen.svg.path import parse_path, parse_points, segments_ops
from pnpgen.svg.style import URL, hex_colour, parse_colour, pdf_num

NAMES = ("rect", "circle", "ellipse", "line", "polyline", "polygon", "path")
CAPS = {"butt": "0", "round": "1", "square": "2"}
JOINS = {"miter": "0", "miter-clip": "0", "arcs": "0", "round": "1", "bevel": "2"}
KAPPA = 4 / 3 * (math.sqrt(2) - 1)

# Faces repeat their frames, icons and ornaments: the path text is kept per distinct element
# (its attributes, the viewport percentages refer to, the matrix moving it).
_SHAPE_OPS: dict[tuple, tuple[str, tuple | None]] = {}  # → path operators, box


def clear_cache() -> None:
    """Forget the path text of the shapes converted so far."""
    _SHAPE_OPS.clear()


def shape(conv, el, name: str, props: dict, style: dict, matrix: tuple | None = None,
          scale: float = 1.0) -> None:
    """Fill and/or stroke a shape; ``matrix`` (a similarity, ``scale`` its factor) is
    applied to its points, and the stroke's widths scaled to match."""
    if style["visibility"] in ("hidden", "collapse"):
        return
    fill = None if name == "line" else paint(conv, el, style, "fill")
    stroke = paint(conv, el, style, "stroke")
    width = 0.0
    if stroke is not None:
        try:
            width = conv.length(style["stroke-width"], "xy")
        except ValueError:
            raise conv.error(el, f"has stroke-width={style['stroke-width']!r}", "a length") from None
        if width <= 0:
            stroke = None
    if fill is None and stroke is None:
        return
    key = (name, tuple(el.attrib.items()), conv.viewport, matrix)
    known = _SHAPE_OPS.get(key)
    if known is None:
        segs = geometry(conv, el, name, props, style)
        known = (segments_ops(segs, matrix) if segs else "", gradient.bbox(segs, matrix) if segs else None)
        if len(_SHAPE_OPS) >= 50_000:
            _SHAPE_OPS.clear()
        _SHAPE_OPS[key] = known
    ops, box = known
    if not ops:
        return
    if stroke is not None:
        conv.mark("stroke", width * scale, box)
        short = shortest_dash(dash_pattern(conv, el, style, scale)[0], width * scale, style["stroke-linecap"])
        if short is not None:
            conv.mark("dash", short[0], box, short[1])
    if conv.icon and isinstance(fill, tuple) and (stroke is None or stroke == fill):
        _mark_unseen(conv, fill, box)
    if fill is not None:
        conv.paint_ground(box, _covered(conv, name, props, box, matrix), fill if isinstance(fill, tuple) else None)
    if not isinstance(fill, (tuple, type(None))) or not isinstance(stroke, (tuple, type(None))):
        fill, stroke = _gradient_paint(conv, el, name, props, style, matrix, ops, fill, stroke, width, scale)
        if fill is None and stroke is None:
            return
    if fill is not None:
        conv.colour("fill", fill)
    if stroke is not None:
        conv.colour("stroke", stroke)
        stroke_state(conv, el, style, width, scale)
    conv.ops.append(ops + " " + paint_op(fill is not None, stroke is not None, style))



# an icon's shape filled this close (CIE ΔE 1976) to the one painted fill under the whole of it is marked
# for the print lint: it prints as good as invisible (ISO 12647-2 lets a press's solid ink drift 5)
UNSEEN_DISTANCE = 5.0


def _mark_unseen(conv, fill: tuple, box: tuple | None) -> None:
    """Mark an icon's shape whose fill is, or nearly is, the colour painted under the whole of it
    (a fill, not the paper) and that covers less than half of that fill: an icon in the colour of
    its band prints invisible. The contrast lint's ground (``fill_under``), as a text's."""
    if box is None:
        return
    under = conv.device_box(box)[0]
    found = conv.fill_under(under)
    if not found or hex_colour(fill) == PLACEHOLDER_COLOUR:
        return
    (g0, h0, g1, h1), ground = found
    if (under[2] - under[0]) * (under[3] - under[1]) > (g1 - g0) * (h1 - h0) / 2:
        return  # (an icon's own ground painted again under its shapes: nothing drawn on it is lost)
    distance = apart(hex_colour(fill), hex_colour(ground))
    if distance < UNSEEN_DISTANCE:
        conv.marks.append(("unseen", conv.at, round(distance, 2), *(round(c, 3) for c in under),
                           f"{hex_colour(fill)} {hex_colour(ground)} {conv.icon.rsplit(' ', 1)[0]}"))


def _covered(conv, name: str, props: dict, box: tuple | None, matrix: tuple | None) -> tuple | None:
    """The part of a filled shape's ``box`` it surely paints, for the ground under text: a
    rectangle less its rounded corners, the rectangle inside an ellipse; None for paths and
    polygons, whose outline the box does not tell."""
    if box is None or name not in ("rect", "circle", "ellipse") or (matrix is not None and (matrix[1] or matrix[2])):
        return None
    x0, y0, x1, y1 = box
    if name == "rect":
        rx, ry = (conv.length(props[k], "xy") if props.get(k) not in (None, "auto") else 0.0 for k in ("rx", "ry"))
        inset_x, inset_y = (rx or ry), (ry or rx)
    else:
        inset_x, inset_y = (x1 - x0) * (1 - math.sqrt(0.5)) / 2, (y1 - y0) * (1 - math.sqrt(0.5)) / 2
    if 2 * inset_x >= x1 - x0 or 2 * inset_y >= y1 - y0:
        return None
    return (x0 + inset_x, y0 + inset_y, x1 - inset_x, y1 - inset_y)


def geometry(conv, el, name: str, props: dict, style: dict) -> list[tuple]:
    """The shape's outline as path segments (``pnpgen.svg.path``), in its user units; [] for one
    that draws nothing (no size, too few points)."""
    try:
        if name == "path":
            return parse_path(props.get("d", ""))
        if name in ("polygon", "polyline"):
            nums = parse_points(props.get("points", ""))
            if len(nums) < 4:
                return []
            segs: list[tuple] = [("m", nums[0], nums[1])]
            segs.extend(("l", nums[j], nums[j + 1]) for j in range(2, len(nums) - 1, 2))
            if name == "polygon":
                segs.append(("h",))
            return segs
        if name == "rect":
            x, y, w, h = conv.lengths(el, props, (("x", "x"), ("y", "y"), ("width", "x"), ("height", "y")))
            if w <= 0 or h <= 0:
                return []
            rx, ry = props.get("rx"), props.get("ry")
            rxv = conv.length(rx, "x") if rx not in (None, "auto") else None
            ryv = conv.length(ry, "y") if ry not in (None, "auto") else None
            rxv = ryv if rxv is None else rxv
            ryv = rxv if ryv is None else ryv
            if not rxv or not ryv or rxv <= 0 or ryv <= 0:
                return [("re", x, y, w, h)]
            return _round_rect(x, y, w, h, min(rxv, w / 2), min(ryv, h / 2))
        if name == "circle":
            cx, cy, r = conv.lengths(el, props, (("cx", "x"), ("cy", "y"), ("r", "xy")))
            return _ellipse(cx, cy, r, r) if r > 0 else []
        if name == "ellipse":
            cx, cy, rx, ry = conv.lengths(el, props, (("cx", "x"), ("cy", "y"), ("rx", "x"), ("ry", "y")))
            return _ellipse(cx, cy, rx, ry) if rx > 0 and ry > 0 else []
        # line
        x1, y1, x2, y2 = conv.lengths(el, props, (("x1", "x"), ("y1", "y"), ("x2", "x"), ("y2", "y")))
        return [("m", x1, y1), ("l", x2, y2)]
    except ValueError as e:
        raise conv.error(el, f"has an unreadable value {str(e)!r}", "numbers, optionally with units") from None


def paint(conv, el, style: dict, key: str) -> Any:
    """The fill or stroke: an (r, g, b) colour, None (no paint), or a gradient.Gradient."""
    value = style[key]
    if value.startswith("url("):
        m = URL.match(value)
        target = conv.ids.get(m.group(1)) if m else None
        if target is not None:
            return gradient.paint_server(conv, target)
        if not (m and m.group(2).strip()):  # a typo would draw nothing, silently
            raise conv.error(el, f"has {key}={value!r}, which names no element of the face",
                             "the id of a gradient or pattern in the same SVG, or a colour")
        value = m.group(2).strip()
    if value == "currentColor":
        value = style["color"]
    try:
        rgb = parse_colour(value)
    except ValueError:
        raise conv.error(el, f"has {key}={value!r}, which is not a colour",
                         "#rrggbb, #rgb, rgb(r, g, b), a CSS colour name or none; a palette colour as "
                         "{{ colour(\"name\") }}") from None
    if isinstance(rgb, float):
        if rgb == 0:
            return None
        raise conv.transparency(el, {"fill": value[:7]} if value.startswith("#") else {}, f"{key}={value}", rgb)
    return rgb


def _gradient_paint(conv, el, name: str, props: dict, style: dict, matrix: tuple | None, ops: str,
                    fill: Any, stroke: Any, width: float, scale: float) -> tuple:
    """A shape with a gradient fill or stroke: written as a paint item when a gradient is
    drawn as a shading. Returns the plain colours (or None) still to be painted the usual way
    — (None, None) when the item paints the shape."""
    segs = geometry(conv, el, name, props, style)
    area = gradient.bbox(segs, matrix)
    if area is None:
        return None, None
    own = gradient.bbox(segs) if matrix is not None else area
    if stroke is not None:  # the stroke's reach beyond the path: half its width, miters further
        try:
            limit = max(1.5, float(style["stroke-miterlimit"]))
        except ValueError:
            limit = 4.0
        pad = width * scale / 2 * limit
        area = (area[0] - pad, area[1] - pad, area[2] + pad, area[3] + pad)
    fill, stroke = (gradient.shading(p, own, matrix, area) if isinstance(p, gradient.Gradient) else p
                    for p in (fill, stroke))
    fill_sh, stroke_sh = (p if p is not None and isinstance(p[0], str) else None for p in (fill, stroke))
    if fill_sh is None and stroke_sh is None:
        return fill, stroke
    if fill is not None and fill_sh is None:
        conv.colour("fill", fill)
    if stroke is not None:
        if stroke_sh is None:
            conv.colour("stroke", stroke)
        stroke_state(conv, el, style, width, scale)
    conv.flush()
    conv.items.append(paint_item(ops, paint_op(fill is not None, stroke is not None, style),
                                 area, fill_sh, stroke_sh))
    return None, None


def stroke_state(conv, el, style: dict, width: float, scale: float = 1.0) -> None:
    """Write the stroke's width, caps, joins, miter limit and dashes where they change."""
    width *= scale
    conv.set("w", width, f"{pdf_num(width)} w")
    cap = CAPS.get(style["stroke-linecap"], "0")
    conv.set("J", cap, f"{cap} J")
    join = JOINS.get(style["stroke-linejoin"], "0")
    conv.set("j", join, f"{join} j")
    try:
        limit = max(1.0, float(style["stroke-miterlimit"]))
    except ValueError:
        limit = 4.0
    conv.set("M", limit, f"{pdf_num(limit)} M")
    pattern, offset = dash_pattern(conv, el, style, scale)
    conv.set("d", (pattern, offset), f"[{' '.join(pdf_num(v) for v in pattern)}] {pdf_num(offset)} d")


def dash_pattern(conv, el, style: dict, scale: float = 1.0) -> tuple[tuple[float, ...], float]:
    """The stroke's dashes and gaps (``stroke-dasharray``, an odd list repeated) and their offset,
    scaled; () for a solid line (none, or a pattern SVG says to ignore)."""
    dash = style["stroke-dasharray"]
    pattern: tuple = ()
    if dash != "none":
        try:
            pattern = tuple(conv.length(v, "xy") for v in re.split(r"[\s,]+", dash.strip()) if v)
        except ValueError:
            raise conv.error(el, f"has stroke-dasharray={dash!r}", "lengths separated by spaces or commas") from None
        if len(pattern) % 2:
            pattern = pattern * 2
        pattern = tuple(v * scale for v in pattern)
        if any(v < 0 for v in pattern) or sum(pattern) <= 0:
            pattern = ()
    offset = 0.0
    if pattern:
        try:
            offset = conv.length(style["stroke-dashoffset"], "xy") * scale
        except ValueError:
            offset = 0.0
    return pattern, offset


def shortest_dash(pattern: tuple[float, ...], width: float, cap: str) -> tuple[float, str] | None:
    """The shortest dash or gap a dashed stroke paints, as the print lint measures a stroke's
    width (the same figure holds along the line as across it), and which: a round or square cap
    adds half the width at each end of a dash and takes it from the gaps. A dash that paints
    nothing (0 long, butt caps) and a gap its caps close are none: the screen shows them so too.
    None for a solid line."""
    if not pattern:
        return None
    caps = width if cap in ("round", "square") else 0.0
    painted = [(v + caps, "dash") for v in pattern[0::2]] + [(v - caps, "gap") for v in pattern[1::2]]
    seen = [(length, what) for length, what in painted if length > 1e-9]
    return min(seen) if seen else None



def paint_op(fill: bool, stroke: bool, style: dict) -> str:
    """The PDF operator that fills and/or strokes the path (f, f*, S, B, B*)."""
    even = style["fill-rule"] == "evenodd"
    if fill and stroke:
        return "B*" if even else "B"
    return ("f*" if even else "f") if fill else "S"


def _ellipse(cx, cy, rx, ry) -> list[tuple]:
    kx, ky = KAPPA * rx, KAPPA * ry
    return [("m", cx + rx, cy),
            ("c", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            ("c", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            ("c", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            ("c", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
            ("h",)]


def _round_rect(x, y, w, h, rx, ry) -> list[tuple]:
    kx, ky = KAPPA * rx, KAPPA * ry
    r, b = x + w, y + h
    return [("m", x + rx, y), ("l", r - rx, y),
            ("c", r - rx + kx, y, r, y + ry - ky, r, y + ry), ("l", r, b - ry),
            ("c", r, b - ry + ky, r - rx + kx, b, r - rx, b), ("l", x + rx, b),
            ("c", x + rx - kx, b, x, b - ry + ky, x, b - ry), ("l", x, y + ry),
            ("c", x, y + ry - ky, x + rx - kx, y, x + rx, y), ("h",)]

