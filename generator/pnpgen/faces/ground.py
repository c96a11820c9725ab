"""What is beneath a picture on a face: the colour its see-through pixels are flattened onto.

Print files carry no transparency (PDF/X-1a forbids it; docs/print-facts.md), so a PNG's alpha
is flattened where the picture is placed. A picture on a dark ground was flattened onto white, a
white box round the art. Here the face's SVG is read back from the picture towards the paper:
the nearest plain-coloured rectangle (or circle) covering the whole picture is its ground;
nothing painted before it is the paper (white). Anything else there (a path, a gradient, a
picture, a shape only partly under it, a transform between them) is not worked out: ``None``,
and the build warns with the fix (``image(…, background=)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pnpgen.svg.style import hex_colour, local_name, parse_colour, props_of

NOT_PAINTED = {"defs", "clipPath", "mask", "symbol", "pattern", "marker", "title", "desc", "metadata", "style",
               "linearGradient", "radialGradient", "filter", "script", "font", "font-face"}
PASSED = {"g", "a", "switch", "text", "tspan", "textPath", "line"}  # containers; text and lines: no ground
PAPER = "ffffff"


def _painted_before(img) -> Iterator:
    """The elements painted before ``img``, the nearest first (not inside defs, clip paths …)."""
    el = img
    while (parent := el.getparent()) is not None:
        for sibling in el.itersiblings(preceding=True):
            yield from reversed(list(_painted(sibling)))
        el = parent


def _painted(el) -> Iterator:
    if local_name(el) in NOT_PAINTED:
        return
    yield el
    for child in el:
        yield from _painted(child)


def _moved(el, stop, clips: bool = True) -> bool:
    """Whether ``el`` or an element between it and ``stop`` changes coordinates (or clips)."""
    while el is not None and el is not stop:
        if el.get("transform") or local_name(el) == "svg" or (clips and (el.get("clip-path") or el.get("mask"))):
            return True
        el = el.getparent()
    return False


def _common(a, b):
    ours = {id(e) for e in a.iterancestors()}
    return next(e for e in b.iterancestors() if id(e) in ours)


def _number(el, name: str, default: float | None = None) -> float | None:
    value = el.get(name)
    if value is None:
        return default
    try:
        return float(value.strip().removesuffix("px"))
    except ValueError:
        return None


def _fill(el) -> str | None:
    """The element's plain fill as rrggbb, "none", or None (a gradient, a pattern, a see-through
    colour, a colour not read)."""
    try:
        fill = parse_colour(props_of(el).get("fill") or "#000000")  # (SVG's own default is black)
    except ValueError:
        return None
    if fill is None:
        return "none"
    return hex_colour(fill)[1:] if isinstance(fill, tuple) else None


def _box(el) -> tuple[float, float, float, float] | None:
    kind = local_name(el)
    if kind == "rect":
        x, y, w, h = (_number(el, k, d) for k, d in (("x", 0.0), ("y", 0.0), ("width", None), ("height", None)))
    elif kind in ("circle", "ellipse"):
        cx, cy = _number(el, "cx", 0.0), _number(el, "cy", 0.0)
        rx = _number(el, "r" if kind == "circle" else "rx")
        ry = rx if kind == "circle" else _number(el, "ry")
        if None in (cx, cy, rx, ry):
            return None
        x, y, w, h = cx - rx, cy - ry, 2 * rx, 2 * ry  # type: ignore[operator]
    else:
        return None
    if None in (x, y, w, h):
        return None
    return x, y, w, h  # type: ignore[return-value]


def _covers(el, box: tuple[float, float, float, float], pic: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    px, py, pw, ph = pic
    corners = [(px, py), (px + pw, py), (px, py + ph), (px + pw, py + ph)]
    if local_name(el) == "rect":
        return all(x - 1e-6 <= cx <= x + w + 1e-6 and y - 1e-6 <= cy <= y + h + 1e-6 for cx, cy in corners)
    rx, ry = w / 2, h / 2
    return rx > 0 and ry > 0 and all(((cx - x - rx) / rx) ** 2 + ((cy - y - ry) / ry) ** 2 <= 1 + 1e-9 for cx, cy in corners)


def _apart(box: tuple[float, float, float, float], pic: tuple[float, float, float, float]) -> bool:
    x, y, w, h = box
    px, py, pw, ph = pic
    return x >= px + pw or px >= x + w or y >= py + ph or py >= y + h


def _clipped(img, pic: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The picture's box cut to the rectangles it is clipped to (``image()``'s box, a cover fit
    overflowing it), where those are in its own coordinates, and to the face itself (its root's
    ``viewBox``: the bleed a face is drawn with; trial73: a layout's art box written 3 mm out,
    ``x: -3``, ran past a face drawn without bleed for Tabletop Simulator, its ground not found)."""
    root = img.getroottree().getroot()
    el = img
    while (el := el.getparent()) is not None and not el.get("transform") and local_name(el) != "svg":
        m = re.fullmatch(r"\s*url\(#([^)]+)\)\s*", el.get("clip-path") or "")
        found = root.xpath("//*[@id=$id]", id=m.group(1)) if m else []
        shapes = [c for c in found[0] if isinstance(c.tag, str)] if found and local_name(found[0]) == "clipPath" else []
        if len(shapes) == 1 and local_name(shapes[0]) == "rect" and not shapes[0].get("transform") \
                and found[0].get("clipPathUnits", "userSpaceOnUse") == "userSpaceOnUse":
            pic = _cut(pic, _box(shapes[0]))
    if el is root and el.getparent() is None and not el.get("transform"):
        numbers = re.split(r"[\s,]+", (el.get("viewBox") or "").strip())
        try:
            view = tuple(float(v) for v in numbers) if len(numbers) == 4 else None
        except ValueError:
            view = None
        pic = _cut(pic, view)  # type: ignore[arg-type]
    return pic


def _cut(pic: tuple[float, float, float, float], box: tuple[float, float, float, float] | None
         ) -> tuple[float, float, float, float]:
    """The part of ``pic`` inside ``box`` (x, y, w, h), or ``pic`` where they do not meet."""
    if box is None:
        return pic
    x0, y0 = max(pic[0], box[0]), max(pic[1], box[1])
    x1, y1 = min(pic[0] + pic[2], box[0] + box[2]), min(pic[1] + pic[3], box[1] + box[3])
    return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else pic


def ground_beneath(img) -> str | None:
    """The colour (rrggbb) beneath the ``<image>`` element ``img`` of a face's SVG tree: the
    nearest plain rectangle or circle covering it, the paper's white when nothing is painted
    before it, None when what is beneath is not one plain colour read here."""
    read = [_number(img, k, d) for k, d in (("x", 0.0), ("y", 0.0), ("width", None), ("height", None))]
    if any(v is None for v in read):
        return None
    px, py, pw, ph = (float(v or 0) for v in read)
    pic = _clipped(img, (px, py, pw, ph))
    for el in _painted_before(img):
        kind = local_name(el)
        if kind in PASSED or _fill(el) == "none":  # (text, lines, an outline only)
            continue
        box = _box(el)
        if box is None or _moved(el, _common(el, img)) or _moved(img, _common(el, img), clips=False):
            return None
        fill = _fill(el)
        if _apart(box, pic):  # (elsewhere on the face)
            continue
        return fill if fill is not None and _covers(el, box, pic) else None  # type: ignore[arg-type]
    return PAPER
