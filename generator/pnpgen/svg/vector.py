"""SVG face → vector art, converted once per distinct SVG and drawn into any PDF canvas.

Interface used by the rest of the pipeline:

- ``convert(svg, where, resolve=None) -> Art``: parse the SVG a template produced. ``where``
  names the template/deck/piece for error messages; ``resolve(href)`` returns the bytes of the
  file an ``<image href>`` names (JPEG or PNG, embedded as is, or SVG text, drawn as vectors),
  or raises InputError. ``data:`` URIs are decoded here.
- ``draw(canvas, art, cmyk=False)``: draw the art on a ReportLab canvas at the current
  transform, in points, origin at the bottom-left of the SVG viewport (the bleed's corner),
  y up — where a ``reportlab.graphics`` Drawing of the same SVG renders at (0, 0). Meant to be
  called inside ``beginForm``/``endForm``, so that each face is drawn once per document and
  placed with ``doForm``. With ``cmyk`` every colour goes through ``pnpgen.pdf.colour.to_cmyk``
  and is written with k/K. The fonts the text names must be known to ``pnpgen.fonts`` in the
  drawing process too (located by loading the game; parsed here on first use if need be).
- ``Art`` is plain, picklable data (for worker processes) with ``to_json()`` /
  ``Art.from_json()`` for the on-disk cache.

The converter is our own for the SVG subset templates produce: the graphics become PDF
operator text once, at convert time; only text (whose glyph encoding ReportLab chooses per
document, as it subsets fonts) and images are left for draw time. Gradients become PDF shadings
(``render/gradient.py``). SVG outside the subset (patterns, masks, filters, CSS style sheets, …)
falls back to svglib for that whole face; ``Art.fallback`` names what caused it. Transparency is an error: print files must not
contain it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable
from urllib.parse import unquote_to_bytes

from lxml import etree

from pnpgen.errors import InputError
from pnpgen.svg import raster
from pnpgen.units import PT_PER_MM
from pnpgen.units import MM_PER_INCH, num

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
FORMAT = "pnpgen.vector.Art"
VERSION = 3  # bumped whenever the operators written change: older cached arts are rebuilt
MAX_NESTING = 8  # <image> of an SVG that shows an SVG …
MAX_ELEMENTS = 100_000  # elements one face draws, each <use> expansion counted: a bound on time and size
MAX_COORDINATE = 1e9  # beyond this a number is a mistake, and more than PDF readers hold

# ---------------------------------------------------------------------------------------- Art


@dataclass(frozen=True)
class Art:
    """One converted face. ``items`` is a tuple of:

    - ``("ops", text)``: PDF graphics operators (no colour operators);
    - ``("fill", r, g, b)`` / ``("stroke", r, g, b)``: the colour (0–1) for what follows;
    - ``("text", font, size, ((x, y, chars), …))``: glyph runs in user units, drawn with the
      current fill colour through ReportLab's text API;
    - ``("image", data, x, y, w, h)``: JPEG/PNG bytes placed in the user-space box;
    - ``("paint", ops, op, area, fill, stroke)``: a shape painted with gradients, drawn as a form
      of its own (``render/gradient.py``).

    A face outside the subset has no items: ``fallback`` names the feature and ``svg`` keeps
    the source, drawn through svglib."""

    width_pt: float
    height_pt: float
    items: tuple = ()
    fallback: str | None = None
    svg: str | None = None

    def to_json(self) -> dict:
        """A JSON-ready dict, sealed with a digest of its content."""
        body = {
            "format": FORMAT,
            "version": VERSION,
            "width_pt": self.width_pt,
            "height_pt": self.height_pt,
            "fallback": self.fallback,
            "svg": self.svg,
            "items": [_item_to_json(it) for it in self.items],
        }
        body["digest"] = _digest(body)
        return body

    @classmethod
    def from_json(cls, obj: Any) -> "Art":
        """The Art ``to_json`` made; ValueError for anything else (foreign, altered, malformed)."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT or obj.get("version") != VERSION:
            raise ValueError("not a pnpgen vector art object (or another version)")
        body = {k: v for k, v in obj.items() if k != "digest"}
        if set(obj) != {"format", "version", "width_pt", "height_pt", "fallback", "svg", "items", "digest"}:
            raise ValueError("vector art object: unexpected or missing keys")
        try:
            sealed = obj["digest"] == _digest(body)
        except (TypeError, ValueError):
            sealed = False
        if not sealed:
            raise ValueError("vector art object: digest does not match its content")
        w, h = _number(obj["width_pt"]), _number(obj["height_pt"])
        fallback, svg = obj["fallback"], obj["svg"]
        if not (fallback is None and svg is None) and not (isinstance(fallback, str) and isinstance(svg, str)):
            raise ValueError("vector art object: fallback and svg go together")
        if not isinstance(obj["items"], list):
            raise ValueError("vector art object: items is not a list")
        return cls(w, h, tuple(_item_from_json(it) for it in obj["items"]), fallback, svg)


def _digest(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False,
                                     separators=(",", ":"), allow_nan=False).encode()).hexdigest()


def _item_to_json(it: tuple) -> list:
    if it[0] == "image":
        return ["image", base64.b64encode(it[1]).decode("ascii"), *it[2:]]
    if it[0] == "text":
        return ["text", it[1], it[2], [list(r) for r in it[3]]]
    if it[0] == "paint":
        from pnpgen.svg import gradient

        return ["paint", it[1], it[2], list(it[3]), gradient.to_json(it[4]), gradient.to_json(it[5])]
    return list(it)


_PAINT_OPS = ("f", "f*", "S", "B", "B*")


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"vector art object: {v!r} is not a number")
    return float(v)


def _item_from_json(it: Any) -> tuple:
    if not isinstance(it, list) or not it:
        raise ValueError("vector art object: an item is not a list")
    kind = it[0]
    if kind == "ops" and len(it) == 2 and isinstance(it[1], str):
        return ("ops", it[1])
    if kind in ("fill", "stroke") and len(it) == 4:
        rgb = tuple(_number(v) for v in it[1:])
        if not all(0.0 <= v <= 1.0 for v in rgb):
            raise ValueError("vector art object: a colour channel outside 0–1")
        return (kind, *rgb)
    if kind == "text" and len(it) == 4 and isinstance(it[1], str) and isinstance(it[3], list):
        runs = []
        for r in it[3]:
            if not (isinstance(r, list) and len(r) == 3 and isinstance(r[2], str)):
                raise ValueError("vector art object: a malformed text run")
            runs.append((_number(r[0]), _number(r[1]), r[2]))
        return ("text", it[1], _number(it[2]), tuple(runs))
    if kind == "image" and len(it) == 6 and isinstance(it[1], str):
        try:
            data = base64.b64decode(it[1], validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("vector art object: image data is not base64") from None
        return ("image", data, *(_number(v) for v in it[2:]))
    if kind == "paint" and len(it) == 6 and isinstance(it[1], str) and it[2] in _PAINT_OPS \
            and isinstance(it[3], list) and len(it[3]) == 4:
        from pnpgen.svg import gradient

        fill, stroke = (gradient.spec_from_json(v, _number) for v in it[4:])
        if fill is None and stroke is None:
            raise ValueError("vector art object: a gradient paint without a gradient")
        return gradient.paint_item(it[1], it[2], tuple(_number(v) for v in it[3]), fill, stroke)
    raise ValueError(f"vector art object: unknown item {str(kind)[:20]!r}")


# ------------------------------------------------------------------------------------- draw


def draw(canvas, art: Art, cmyk: bool = False, images: raster.ImageStreams | None = None) -> None:
    """Paint ``art`` at the canvas's current transform (points, y up); pictures are placed from
    their streams in ``images`` (raster.py), made once per picture."""
    if art.fallback is not None:
        _draw_fallback(canvas, art, cmyk)
        return
    pending: list[str] = []
    for it in art.items:
        kind = it[0]
        if kind == "ops":
            pending.append(it[1])
        elif kind == "fill" or kind == "stroke":
            pending.append(_colour_op(it, cmyk))
        elif kind == "text":
            if pending:
                canvas.addLiteral(" ".join(pending))
                pending = []
            if it[1] not in _FONTS_READY:
                _font_ready(it[1])
            t = canvas.beginText()
            t.setFont(it[1], it[2])
            for x, y, chars in it[3]:
                t.setTextTransform(1, 0, 0, -1, x, y)  # user space is y-down: set glyphs upright
                t.textOut(chars)
            canvas.drawText(t)
        elif kind == "paint":
            from pnpgen.svg import gradient

            if pending:
                canvas.addLiteral(" ".join(pending))
                pending = []
            gradient.draw_paint(canvas, it, cmyk)
        else:  # image
            _, data, x, y, w, h = it
            pending.append(f"q 1 0 0 -1 0 {_num(2 * y + h)} cm")
            canvas.addLiteral(" ".join(pending))
            pending = []
            raster.place(canvas, data, x, y, w, h, images)
            pending.append("Q")
    if pending:
        canvas.addLiteral(" ".join(pending))


_FONTS_READY: set[str] = set()


def _font_ready(name: str) -> None:
    """Parse a font pnpgen located but has not loaded yet (an art from the cache may be drawn by
    a process that converted nothing); a font it does not know is left for ReportLab to name."""
    from pnpgen import fonts

    try:
        fonts.ttfont(name)
    except KeyError:
        return
    _FONTS_READY.add(name)


@lru_cache(maxsize=4096)
def _colour_op(it: tuple, cmyk: bool) -> str:
    kind, r, g, b = it
    if cmyk:
        from pnpgen.pdf.colour import to_cmyk

        c, m, y, k = to_cmyk(r, g, b)
        return f"{_num(c)} {_num(m)} {_num(y)} {_num(k)} {'k' if kind == 'fill' else 'K'}"
    return f"{_num(r)} {_num(g)} {_num(b)} {'rg' if kind == 'fill' else 'RG'}"


def _draw_fallback(canvas, art: Art, cmyk: bool) -> None:
    from reportlab.graphics import renderPDF
    from reportlab.graphics.shapes import STATE_DEFAULTS
    from reportlab.lib.colors import CMYKColor

    from pnpgen.svg.gradient import FallbackCanvas

    drawing = _fallback_drawing(art.svg, cmyk)
    canvas = FallbackCanvas(canvas, cmyk)  # its gradients carry their resources; no alpha
    if not cmyk:
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
        return
    # renderPDF starts from ReportLab's default (RGB) black; a CMYK file must not hold even that
    saved = {k: STATE_DEFAULTS[k] for k in ("fillColor", "strokeColor")}
    STATE_DEFAULTS.update(fillColor=CMYKColor(0, 0, 0, 1), strokeColor=CMYKColor(0, 0, 0, 1))
    try:
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
    finally:
        STATE_DEFAULTS.update(saved)


@lru_cache(maxsize=64)
def _fallback_drawing(svg: str, cmyk: bool):
    """svglib's drawing of a face outside the subset; with ``cmyk`` its colours made CMYK
    (its gradients are made CMYK as they are drawn, by gradient.FallbackCanvas)."""
    from reportlab.lib.colors import CMYKColor, Color

    from pnpgen.pdf.colour import to_cmyk
    from pnpgen.pdf.svglib_fallback import SvgConverter

    drawing = SvgConverter().drawing(svg, "")
    if cmyk:
        stack = [drawing]
        while stack:
            node = stack.pop()
            for attr in ("fillColor", "strokeColor"):
                c = getattr(node, attr, None)
                if isinstance(c, Color) and not isinstance(c, CMYKColor):
                    setattr(node, attr, CMYKColor(*to_cmyk(c.red, c.green, c.blue)))
            stack.extend(getattr(node, "contents", ()))
    return drawing


# ----------------------------------------------------------------------------- numbers, XML


@lru_cache(maxsize=1 << 17)
def _num(v: float) -> str:
    """A PDF number: at most 4 decimals, no trailing zeros, never ``-0`` (deterministic).
    Memoised: a face repeats its coordinates many times."""
    return num(_bounded(v), 4)


def _mat(m: tuple) -> str:
    """A matrix: 6 decimals, as scales and rotations need more than coordinates."""
    return " ".join(num(_bounded(v), 6) for v in m)


def _bounded(v: float) -> float:
    """``v``, unless it is infinite, not a number, or too large for a PDF page (an InputError
    that the build completes with the template and face)."""
    if not -MAX_COORDINATE <= v <= MAX_COORDINATE:
        raise InputError(f"the face has the number {v:g}, beyond what a PDF holds",
                         expected=f"coordinates and sizes within ±{MAX_COORDINATE:g}")
    return v


def _numbers(text: str) -> list[float]:
    """The numbers of a ``points`` list; ValueError at anything else (a template's mistake)."""
    out = []
    for number, junk in _NUMBER_OR_JUNK.findall(text):
        if junk:
            raise ValueError(text[:40])
        out.append(float(number))
    return out


_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def parse_svg(svg: str | bytes, where: str):
    """The SVG's root element; InputError (naming ``where``) for text that is not XML."""
    try:
        return etree.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg, _PARSER)
    except etree.XMLSyntaxError as e:
        raise InputError(f"the template produced invalid SVG: {e.msg} (line {e.lineno} of the SVG, {where})",
                         expected="well-formed SVG; check unclosed tags in the template") from None


# ------------------------------------------------------------------------------ the subset

SHAPES = {"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"}
CONTAINERS = {"svg", "g", "a", "defs", "symbol", "use", "clipPath", "text", "image"}
DRAWN = SHAPES | {"g", "a", "svg", "use", "text", "image"}  # what a container's children may draw
IGNORED = {"title", "desc", "metadata"}
PAINT_SERVERS = {"linearGradient", "radialGradient", "stop"}  # drawn where a fill or stroke names them
INHERITED = {
    "fill": "#000", "fill-rule": "nonzero", "stroke": "none", "stroke-width": "1",
    "stroke-linecap": "butt", "stroke-linejoin": "miter", "stroke-miterlimit": "4",
    "stroke-dasharray": "none", "stroke-dashoffset": "0", "font-family": "", "font-size": "16",
    "text-anchor": "start", "visibility": "visible", "color": "#000", "clip-rule": "nonzero",
    "xml:space": "default",
}
OPACITY = ("opacity", "fill-opacity", "stroke-opacity", "stop-opacity")
# Properties that change how something is painted and that this converter does not draw.
UNSUPPORTED_PROPS = frozenset(("mask", "filter", "marker", "marker-start", "marker-mid", "marker-end",
                     "mix-blend-mode", "paint-order", "text-decoration", "writing-mode",
                     "letter-spacing", "word-spacing", "dominant-baseline", "alignment-baseline",
                     "baseline-shift", "vector-effect"))
HARMLESS = frozenset(("none", "normal", "auto", "0", "baseline", "horizontal-tb", "lr-tb", "lr", "fill",
                      "fill stroke", "inherit"))
CAPS = {"butt": "0", "round": "1", "square": "2"}
JOINS = {"miter": "0", "miter-clip": "0", "arcs": "0", "round": "1", "bevel": "2"}
UNITS_PX = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / MM_PER_INCH, "cm": 960 / MM_PER_INCH, "in": 96.0, "q": 96 / (4 * MM_PER_INCH)}
PT_PER_PX = 0.75  # an SVG (CSS) pixel is 1/96 in, not the 300 dpi print pixel of units.MM_PER_UNIT
UNITS_PT = {"px": PT_PER_PX, "pt": 1.0, "pc": 12.0, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": 72.0,
            "q": PT_PER_MM / 4, "": PT_PER_PX}
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|q|em|ex|%)?\s*$",
                     re.I)
_NUMBER_OR_JUNK = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([^\s,])")
_PATH_TOKEN = re.compile(r"([MmZzLlHhVvCcSsQqTtAa])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([^\s,])")
_TRANSFORM = re.compile(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")
_URL = re.compile(r"^\s*url\(\s*['\"]?#([^'\")]+)['\"]?\s*\)\s*(.*)$")


class _Fallback(Exception):
    """The face uses something outside the subset: draw it with svglib."""


def _local(el) -> str:
    """An SVG element's name without the namespace ("" for comments and foreign elements)."""
    tag = el.tag
    return _tag_name(tag) if isinstance(tag, str) else ""


@lru_cache(maxsize=512)
def _tag_name(tag: str) -> str:
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return name if ns == SVG_NS else ""
    return tag


_WITH_ID = etree.XPath("//*[@id]")
_MAY_BE_TRANSLUCENT = etree.XPath("//*[@style or @opacity or @fill-opacity or @stroke-opacity or @stop-opacity]")


def _style(el) -> dict[str, str]:
    """Presentation attributes, overridden by ``style="…"`` declarations."""
    props = dict(el.attrib)
    style = props.get("style")
    if style:
        for decl in style.split(";"):
            name, sep, value = decl.partition(":")
            if sep:
                props[name.strip().lower()] = value.replace("!important", "").strip()
    return props


# ------------------------------------------------------------------------------- colours


@lru_cache(maxsize=1)
def _named() -> dict[str, tuple[float, float, float]]:
    from reportlab.lib import colors

    named = {k.lower(): (c.red, c.green, c.blue) for k, c in colors.getAllNamedColors().items()}
    named["rebeccapurple"] = (0x66 / 255, 0x33 / 255, 0x99 / 255)
    return named


def _channel(s: str) -> float:
    s = s.strip()
    v = float(s[:-1]) / 100 if s.endswith("%") else float(s) / 255
    return min(1.0, max(0.0, v))


@lru_cache(maxsize=1024)
def _colour(value: str) -> tuple[float, float, float] | float | None:
    """(r, g, b) in 0–1, None for no paint, or a float: the alpha of a translucent colour.
    Raises ValueError for what is not a colour."""
    v = value.strip().lower()
    if v in ("none", "transparent"):
        return None
    if v.startswith("#"):
        h = v[1:]
        if len(h) in (3, 4):
            h = "".join(c * 2 for c in h)
        if len(h) in (6, 8) and all(c in "0123456789abcdef" for c in h):
            if len(h) == 8 and h[6:] != "ff":
                return int(h[6:], 16) / 255
            return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)
        raise ValueError(value)
    m = re.fullmatch(r"rgba?\(([^)]*)\)", v)
    if m:
        parts = [p for p in re.split(r"[\s,/]+", m.group(1).strip()) if p]
        if len(parts) == 4:
            a = float(parts[3][:-1]) / 100 if parts[3].endswith("%") else float(parts[3])
            if a < 1:
                return a
        if len(parts) not in (3, 4):
            raise ValueError(value)
        return (_channel(parts[0]), _channel(parts[1]), _channel(parts[2]))
    if v in _named():
        return _named()[v]
    raise ValueError(value)


# ---------------------------------------------------------------------------- geometry


def _compose(o: tuple, i: tuple) -> tuple:
    """The matrix for ``o(i(p))`` (PDF order: a b c d e f)."""
    a, b, c, d, e, f = i
    A, B, C, D, E, F = o
    return (A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * e + C * f + E, B * e + D * f + F)


@lru_cache(maxsize=4096)
def _parse_transform(text: str) -> tuple:
    m = IDENTITY
    pos = 0
    text = text.strip()
    while pos < len(text):
        t = _TRANSFORM.match(text, pos)
        if not t:
            raise ValueError(text)
        pos = t.end()
        name, args = t.group(1), [float(v) for v in _NUMBER.findall(t.group(2))]
        if name == "matrix" and len(args) == 6:
            step = tuple(args)
        elif name == "translate" and len(args) in (1, 2):
            step = (1.0, 0.0, 0.0, 1.0, args[0], args[1] if len(args) == 2 else 0.0)
        elif name == "scale" and len(args) in (1, 2):
            step = (args[0], 0.0, 0.0, args[1] if len(args) == 2 else args[0], 0.0, 0.0)
        elif name == "rotate" and len(args) in (1, 3):
            r = math.radians(args[0])
            cos, sin = math.cos(r), math.sin(r)
            step = (cos, sin, -sin, cos, 0.0, 0.0)
            if len(args) == 3:
                cx, cy = args[1], args[2]
                step = _compose((1.0, 0.0, 0.0, 1.0, cx, cy), _compose(step, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))
        elif name == "skewX" and len(args) == 1:
            step = (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and len(args) == 1:
            step = (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            raise ValueError(text)
        m = _compose(m, step)
    return m


def placed_image(el, size: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where an ``<image>`` of a face puts a picture of ``size`` (pixels, or an SVG's own width
    and height): its box and the picture's drawn size, both in the face's user units (mm in piece
    templates), after ``width``/``height`` (auto: from the picture), ``preserveAspectRatio`` and
    every ``transform`` from the image up. None when a length is relative (%, em) or unreadable."""
    iw, ih = size
    try:
        w, h = (_absolute_length(el.get(k)) for k in ("width", "height"))
    except ValueError:
        return None
    if iw <= 0 or ih <= 0:
        return None
    w = w if w is not None else (h * iw / ih if h is not None else iw)
    h = h if h is not None else w * ih / iw
    par = (el.get("preserveAspectRatio") or "xMidYMid meet").split()
    if par[0] == "none":
        dw, dh = w, h
    else:
        s = (max if par[-1] == "slice" else min)(w / iw, h / ih)
        dw, dh = iw * s, ih * s
    m = IDENTITY
    for node in [el, *el.iterancestors()]:
        try:
            m = _compose(_parse_transform(node.get("transform") or ""), m)
        except ValueError:
            return None
    sx, sy = math.hypot(m[0], m[1]), math.hypot(m[2], m[3])
    return (w * sx, h * sy), (dw * sx, dh * sy)


def _absolute_length(value: str | None) -> float | None:
    """A length in user units; None when absent or auto, ValueError when relative or unreadable."""
    if value is None or value.strip() in ("", "auto"):
        return None
    m = _LENGTH.match(value)
    if not m or (m.group(2) or "").lower() in ("%", "em", "ex"):
        raise ValueError(value)
    unit = (m.group(2) or "px").lower()
    return float(m.group(1)) * UNITS_PX[unit]


def known_font(family: str) -> str | None:
    """The first font of a ``font-family`` list that the game uses (a name in fonts/), else None."""
    from pnpgen import fonts

    for name in (f.strip().strip("'\"") for f in family.split(",") if f.strip()):
        try:
            fonts.ttfont(name)
            return name
        except KeyError:
            continue
    return None


def unknown_font(family: str) -> tuple[str, str]:
    """What is wrong with a ``font-family`` :func:`known_font` finds nothing in, and what would be right."""
    from pnpgen import fonts

    known = fonts.registered()
    what = f"font-family={family!r}, which is not one of the game's fonts" if family.strip(" ,'\"") \
        else "has no font-family"
    return what, "one of " + ", ".join(known) if known else "a font from fonts/"


def text_fonts(root) -> list[tuple[Any, str]]:
    """Every ``<text>`` (and ``<tspan>``) that shows characters of its own, with its
    ``font-family`` inherited as the converter inherits it ("" when none); text inside
    ``<defs>``/``<symbol>`` is left to the ``<use>`` that shows it."""
    out = []
    stack = [(root, INHERITED["font-family"])]
    while stack:
        el, family = stack.pop()
        if not isinstance(el.tag, str) or _local(el) in ("defs", "symbol"):
            continue
        own = _style(el).get("font-family")
        if own is not None and own.strip() not in ("inherit", "unset"):
            family = own.strip()
        shown = (el.text or "") + "".join(child.tail or "" for child in el)
        if _local(el) in ("text", "tspan") and shown.strip():
            out.append((el, family))
        stack.extend((child, family) for child in reversed(el))
    return out


def _similarity(m: tuple) -> float:
    """The scale factor of a matrix that keeps shapes (turns, moves, mirrors, uniform scales);
    0 for one that distorts them (a stroke would then need the matrix itself)."""
    a, b, c, d = m[:4]
    if abs(a - d) < 1e-9 and abs(b + c) < 1e-9 or abs(a + d) < 1e-9 and abs(b - c) < 1e-9:
        return math.hypot(a, b)
    return 0.0


def _arc(x1, y1, rx, ry, phi, large, sweep, x2, y2) -> list[tuple]:
    """An SVG elliptical arc as cubic Béziers (SVG 1.1 F.6.5, at most 90° a piece)."""
    if (x1, y1) == (x2, y2):
        return []
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return [("l", x2, y2)]
    cos, sin = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos * dx + sin * dy, -sin * dx + cos * dy
    lam = (xp / rx) ** 2 + (yp / ry) ** 2
    if lam > 1:
        s = math.sqrt(lam)
        rx, ry = rx * s, ry * s
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    co = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        co = -co
    cxp, cyp = co * rx * yp / ry, -co * ry * xp / rx
    cx = cos * cxp - sin * cyp + (x1 + x2) / 2
    cy = sin * cxp + cos * cyp + (y1 + y2) / 2

    def angle(ux, uy, vx, vy):
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    t1 = angle(1, 0, (xp - cxp) / rx, (yp - cyp) / ry)
    dt = angle((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry)
    if not sweep and dt > 0:
        dt -= 2 * math.pi
    elif sweep and dt < 0:
        dt += 2 * math.pi
    n = max(1, math.ceil(abs(dt) / (math.pi / 2) - 1e-9))
    step = dt / n
    k = 4 / 3 * math.tan(step / 4)
    out = []

    def point(t):
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cos * ex - sin * ey + cx, sin * ex + cos * ey + cy

    def deriv(t):
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos * ex - sin * ey, sin * ex + cos * ey

    t = t1
    px, py = x1, y1
    for i in range(n):
        t2 = t + step
        qx, qy = point(t2) if i < n - 1 else (x2, y2)
        d1, d2 = deriv(t), deriv(t2)
        out.append(("c", px + k * d1[0], py + k * d1[1], qx - k * d2[0], qy - k * d2[1], qx, qy))
        t, px, py = t2, qx, qy
    return out


_ARGS = {"m": 2, "l": 2, "h": 1, "v": 1, "c": 6, "s": 4, "q": 4, "t": 2, "a": 7, "z": 0}


def _path(d: str) -> list[tuple]:
    """Path data → segments ("m"/"l", x, y), ("c", x1, y1, x2, y2, x, y), ("h",). ValueError at
    the first error: where SVG would draw the path up to it, a template's mistake is reported."""
    tokens = _PATH_TOKEN.findall(d)
    segs: list[tuple] = []
    cx = cy = sx = sy = 0.0
    last_ctrl = None  # (x, y, kind) of the previous curve's control point, for S and T
    i, n = 0, len(tokens)
    cmd = None
    while i < n:
        c, num, bad = tokens[i]
        if bad:
            raise ValueError(f"path data {d[:40]!r}: {bad!r} is not a command or number")
        if c:
            cmd = c
            i += 1
            if c in "zZ":
                if segs:
                    segs.append(("h",))
                cx, cy = sx, sy
                last_ctrl = None
                continue
        elif cmd is None or cmd in "zZ":
            raise ValueError(f"path data {d[:40]!r}: a number without a command")
        lower = cmd.lower()
        rel = cmd.islower()
        want = _ARGS[lower]
        args: list[float] = []
        while len(args) < want and i < n:
            tc, tnum, tbad = tokens[i]
            if not tnum:
                break
            if lower == "a" and len(args) in (3, 4):  # flags may be packed: "a1 1 0 01.5 2"
                if tnum[0] not in "01":
                    break
                args.append(float(tnum[0]))
                rest = tnum[1:]
                if rest:
                    tokens[i] = ("", rest, "")
                else:
                    i += 1
                continue
            args.append(float(tnum))
            i += 1
        if len(args) < want:
            raise ValueError(f"path data {d[:40]!r}: {cmd} takes {want} numbers")
        ox, oy = (cx, cy) if rel else (0.0, 0.0)
        if lower == "m":
            cx, cy = args[0] + ox, args[1] + oy
            sx, sy = cx, cy
            segs.append(("m", cx, cy))
            cmd = "l" if rel else "L"  # implicit repeats of a moveto are linetos
            last_ctrl = None
        elif lower == "l":
            cx, cy = args[0] + ox, args[1] + oy
            segs.append(("l", cx, cy))
            last_ctrl = None
        elif lower == "h":
            cx = args[0] + ox
            segs.append(("l", cx, cy))
            last_ctrl = None
        elif lower == "v":
            cy = args[0] + (cy if rel else 0.0)
            segs.append(("l", cx, cy))
            last_ctrl = None
        elif lower == "c":
            x1, y1, x2, y2, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy, args[4] + ox, args[5] + oy
            segs.append(("c", x1, y1, x2, y2, x, y))
            cx, cy, last_ctrl = x, y, (x2, y2, "c")
        elif lower == "s":
            x1, y1 = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_ctrl and last_ctrl[2] == "c" else (cx, cy)
            x2, y2, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            segs.append(("c", x1, y1, x2, y2, x, y))
            cx, cy, last_ctrl = x, y, (x2, y2, "c")
        elif lower in ("q", "t"):
            if lower == "q":
                qx, qy, x, y = args[0] + ox, args[1] + oy, args[2] + ox, args[3] + oy
            else:
                qx, qy = (2 * cx - last_ctrl[0], 2 * cy - last_ctrl[1]) if last_ctrl and last_ctrl[2] == "q" else (cx, cy)
                x, y = args[0] + ox, args[1] + oy
            segs.append(("c", cx + 2 / 3 * (qx - cx), cy + 2 / 3 * (qy - cy),
                         x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y))
            cx, cy, last_ctrl = x, y, (qx, qy, "q")
        else:  # arc
            x, y = args[5] + ox, args[6] + oy
            segs.extend(_arc(cx, cy, args[0], args[1], args[2], args[3] != 0, args[4] != 0, x, y))
            cx, cy = x, y
            last_ctrl = None
        if segs and segs[0][0] != "m":
            raise ValueError(f"path data {d[:40]!r} does not start with a moveto (M)")
    return segs


KAPPA = 4 / 3 * (math.sqrt(2) - 1)


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


def _segs_ops(segs: list[tuple], m: tuple | None = None) -> str:
    """Segments as PDF path operators, their points through the matrix ``m`` when given."""
    out: list[str] = []
    extend, append, n = out.extend, out.append, _num
    if m is None:
        for s in segs:
            if len(s) > 1:
                extend(map(n, s[1:]))
            append(s[0])
        return " ".join(out)
    a, b, c, d, e, f = m
    for s in segs:
        op = s[0]
        if op == "re":
            x, y, w, h = s[1:]
            for px, py, o in ((x, y, "m"), (x + w, y, "l"), (x + w, y + h, "l"), (x, y + h, "l")):
                extend((n(a * px + c * py + e), n(b * px + d * py + f), o))
            append("h")
            continue
        for j in range(1, len(s), 2):
            x, y = s[j], s[j + 1]
            extend((n(a * x + c * y + e), n(b * x + d * y + f)))
        append(op)
    return " ".join(out)


# ---------------------------------------------------------------------------- converter


_SHAPE_OPS: dict[tuple, str] = {}


def _paint_op(fill: bool, stroke: bool, style: dict) -> str:
    even = style["fill-rule"] == "evenodd"
    if fill and stroke:
        return "B*" if even else "B"
    return ("f*" if even else "f") if fill else "S"


def clear_caches() -> None:
    """Forget the memoised numbers, transforms and shapes (for benchmarks that start cold)."""
    _num.cache_clear()
    _parse_transform.cache_clear()
    _SHAPE_OPS.clear()


def convert(svg: str, where: str, resolve: Callable[[str], bytes] | None = None) -> Art:
    """Convert one face's SVG (see the module docstring)."""
    root = parse_svg(svg, where)
    conv = _Converter(root, where, resolve, 0)
    try:
        items = conv.run()
    except _Fallback as e:
        return Art(conv.width_pt, conv.height_pt, (), str(e), inline_images(svg, resolve) if resolve else svg)
    return Art(conv.width_pt, conv.height_pt, items)


def _raster_kind(data: bytes) -> str | None:
    """"png" or "jpeg" by the file's signature; None for anything else (SVG text)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    return None


def inline_images(svg: str, resolve: Callable[[str], bytes]) -> str:
    """The SVG with every image file it names as a data: URI: what svglib (the fallback) can
    draw, as it cannot look files up itself."""
    root = parse_svg(svg, "")
    changed = False
    for el in root.iter(f"{{{SVG_NS}}}image"):
        for attr in ("href", XLINK_HREF):
            href = (el.get(attr) or "").strip()
            if href and not href.startswith(("data:", "#")):
                data = resolve(href)
                kind = _raster_kind(data) or "svg+xml"
                el.set(attr, f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}")
                changed = True
    return etree.tostring(root, encoding="unicode") if changed else svg


class _Converter:
    """One SVG document → items. Tracks the graphics state it has written, so each operator
    is written only when it changes (the state at q is restored at Q)."""

    def __init__(self, root, where: str, resolve, depth: int):
        self.root = root
        self.where = where
        self.resolve = resolve
        self.depth = depth
        if _local(root) != "svg":
            raise InputError(f"the template produced {_local(root) or root.tag!r} where an <svg> root belongs ({where})",
                             expected="an <svg> root element in the SVG namespace")
        self.ids: dict[str, Any] = {}
        self.items: list[tuple] = []
        self.ops: list[str] = []
        self.state: dict[str, Any] = {}
        self.stack: list[dict[str, Any]] = []
        self.using: list[Any] = []  # <use> targets being expanded, against cycles
        self.elements = 0  # drawn so far, against <use> of <use> … that multiplies (MAX_ELEMENTS)
        self.viewport = (0.0, 0.0)  # (w, h) in user units, for percentages
        props = _style(root)
        vb = self._viewbox(props)
        w = self._root_size(props.get("width"), vb[2] if vb else 300.0)
        h = self._root_size(props.get("height"), vb[3] if vb else 150.0)
        self.width_pt, self.height_pt = w, h
        self.root_vb = vb
        self.root_props = props

    # ---- items and state

    def _flush(self) -> None:
        if self.ops:
            self.items.append(("ops", " ".join(self.ops)))
            self.ops = []

    def push(self, op: str = "") -> None:
        self.ops.append("q " + op if op else "q")
        self.stack.append(dict(self.state))

    def pop(self) -> None:
        self.ops.append("Q")
        self.state = self.stack.pop()

    def set(self, key: str, value, op: str) -> None:
        if self.state.get(key) != value:
            self.state[key] = value
            self.ops.append(op)

    def colour(self, kind: str, rgb: tuple) -> None:
        if self.state.get(kind) != rgb:
            self.state[kind] = rgb
            self._flush()
            self.items.append((kind, *rgb))

    # ---- errors

    def _name(self, el) -> str:
        ident = el.get("id")
        line = getattr(el, "sourceline", None)
        where = f" (line {line} of the SVG)" if line else ""
        return f"<{_local(el)}{f' id={ident!r}' if ident else ''}>{where}"

    def error(self, el, what: str, expected: str | None = None) -> InputError:
        return InputError(f"{self.where}: {self._name(el)} {what}", expected=expected)

    # ---- run

    def run(self) -> tuple:
        self._prescan()
        vb = self.root_vb
        par = self.root_props.get("preserveAspectRatio", "xMidYMid meet")
        # points, y up ← user units, y down (without a viewBox a user unit is a CSS px)
        to_box = self._viewbox_matrix(vb, (0.0, 0.0, self.width_pt, self.height_pt), par) if vb else (PT_PER_PX, 0.0, 0.0, PT_PER_PX, 0.0, 0.0)
        flip = (1.0, 0.0, 0.0, -1.0, 0.0, self.height_pt)
        self.viewport = (vb[2], vb[3]) if vb else (self.width_pt / PT_PER_PX, self.height_pt / PT_PER_PX)
        self.push(_mat(_compose(flip, to_box)) + " cm")
        self.children(self.root, self._inherit({}, self.root_props))
        self.pop()
        self._flush()
        return tuple(self.items)

    def _prescan(self) -> None:
        """Transparency is an error and anything outside the subset a fallback, wherever it is
        (transparency first: svglib would draw it, with an alpha ExtGState). A stop-opacity of 0
        is one too: unlike an invisible element, it fades a gradient out."""
        for el in _MAY_BE_TRANSLUCENT(self.root):
            props = _style(el)
            for key in OPACITY:
                v = props.get(key)
                if v is None or v in ("inherit", "initial", "unset"):
                    continue
                try:
                    a = float(v[:-1]) / 100 if v.strip().endswith("%") else float(v)
                except ValueError:
                    raise self.error(el, f"has {key}={v!r}", "a number from 0 to 1") from None
                if 0 < a < 1 or (a < 1 and key == "stop-opacity"):
                    raise self._transparency(el, props, f"{key} {v}", a)
        for el in self.root.iter(etree.Element):
            name = _local(el)
            if name and name not in SHAPES and name not in CONTAINERS and name not in IGNORED \
                    and name not in PAINT_SERVERS:
                raise _Fallback(name)
        for el in _WITH_ID(self.root):
            self.ids.setdefault(el.get("id"), el)
        self._count_elements()

    def _count_elements(self) -> None:
        """Refuse, before drawing anything, a face that would draw more than MAX_ELEMENTS
        elements with every <use> expanded: each element's count is worked out once, so a <use>
        of <use> … that multiplies is refused in microseconds, not after 100,000 drawn."""
        known: dict[Any, int] = {}
        open_: set[Any] = set()

        def count(el) -> int:
            if el in known:
                return known[el]
            if el in open_:
                return 0  # a <use> that loops: drawing names it
            open_.add(el)
            n = 1 + sum(count(child) for child in el if _local(child) in DRAWN)
            if _local(el) == "use":
                href = el.get("href") or el.get(XLINK_HREF) or ""
                target = self.ids.get(href[1:]) if href.startswith("#") else None
                if target is not None:
                    n += count(target)
            open_.discard(el)
            if n > MAX_ELEMENTS:
                raise self.error(el, f"makes the face draw more than {MAX_ELEMENTS} elements (each <use> counted)",
                                 "fewer elements, or <use> that does not multiply <use>")
            known[el] = n
            return n

        try:
            count(self.root)
        except RecursionError:
            raise self.error(self.root, "nests <use> and groups too deeply", "a few levels of <use>") from None

    def _transparency(self, el, props, what: str, alpha: float) -> InputError:
        example = ""
        try:
            rgb = _colour(props.get("fill", ""))
        except ValueError:
            rgb = None
        if isinstance(rgb, tuple):
            tint = "#" + "".join(f"{round(255 * (c * alpha + (1 - alpha))):02x}" for c in rgb)
            example = f" (on white, {props['fill']} at {alpha:g} looks like {tint})"
        return self.error(el, f"has {what}: print files cannot contain transparency",
                          f"an opaque tint colour instead of opacity{example}")

    # ---- styles and lengths

    def _inherit(self, parent: dict, props: dict) -> dict:
        """The inherited properties of an element: its parent's, updated by its own. The
        parent's dict is shared when nothing changes (styles are never modified in place)."""
        style = parent or INHERITED
        copied = False
        for key, v in props.items():
            if key in INHERITED or key == XML_SPACE:
                if v in ("inherit", "unset"):
                    continue
                if not copied:
                    style = dict(style)
                    copied = True
                if key == XML_SPACE:
                    style["xml:space"] = v
                else:
                    style[key] = v.strip()
        return style

    def length(self, value: str | None, axis: str = "x", font_size: float = 16.0, default: float = 0.0) -> float:
        if value is None or value == "" or value == "auto":
            return default
        try:
            v = float(value)  # the usual case: a bare number of user units
            if math.isfinite(v):
                return v
        except ValueError:
            pass
        m = _LENGTH.match(value)
        if not m:
            raise ValueError(value)
        v, unit = float(m.group(1)), (m.group(2) or "").lower()
        if not unit:
            return v
        if unit == "%":
            w, h = self.viewport
            ref = w if axis == "x" else h if axis == "y" else math.hypot(w, h) / math.sqrt(2)
            return v * ref / 100
        if unit == "em":
            return v * font_size
        if unit == "ex":
            return v * font_size / 2
        return v * UNITS_PX[unit]

    def _lengths(self, el, props, names: tuple[tuple[str, str], ...], font_size=16.0) -> list[float]:
        out = []
        for name, axis in names:
            try:
                out.append(self.length(props.get(name), axis, font_size))
            except ValueError:
                raise self.error(el, f"has {name}={props.get(name)!r}", "a number, optionally with a unit") from None
        return out

    def _root_size(self, value: str | None, fallback_px: float) -> float:
        if not value or value.strip().endswith("%"):
            return fallback_px * PT_PER_PX
        m = _LENGTH.match(value)
        if not m or (m.group(2) or "").lower() in ("em", "ex"):
            raise InputError(f"{self.where}: the <svg> root has size {value!r}", expected="a length such as 63mm")
        return float(m.group(1)) * UNITS_PT[(m.group(2) or "").lower()]

    def _viewbox(self, props) -> tuple | None:
        vb = props.get("viewBox")
        if vb is None:
            return None
        nums = [float(v) for v in _NUMBER.findall(vb)]
        if len(nums) != 4 or nums[2] <= 0 or nums[3] <= 0:
            raise InputError(f"{self.where}: viewBox={vb!r}", expected="four numbers: x y width height, sizes > 0")
        return tuple(nums)

    @staticmethod
    def _viewbox_matrix(vb: tuple, box: tuple, par: str) -> tuple:
        """viewBox → viewport box (x, y, w, h) as preserveAspectRatio says."""
        vx, vy, vw, vh = vb
        x, y, w, h = box
        sx, sy = w / vw, h / vh
        words = par.split()
        if words and words[0] == "defer":
            words = words[1:]
        align = words[0] if words else "xMidYMid"
        if align != "none":
            s = max(sx, sy) if len(words) > 1 and words[1] == "slice" else min(sx, sy)
            sx = sy = s
            fx = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0}.get(align[:4], 0.5)
            fy = {"YMin": 0.0, "YMid": 0.5, "YMax": 1.0}.get(align[4:], 0.5)
            x += (w - vw * s) * fx
            y += (h - vh * s) * fy
        return (sx, 0.0, 0.0, sy, x - vx * sx, y - vy * sy)

    # ---- the tree

    def children(self, el, style: dict) -> None:
        for child in el:
            name = _local(child)
            if name in DRAWN:
                self.element(child, name, style)

    def element(self, el, name: str, parent_style: dict) -> None:
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise self.error(el, f"makes the face draw more than {MAX_ELEMENTS} elements (each <use> counted)",
                             "fewer elements, or <use> that does not multiply <use>")
        props = _style(el)
        if props.get("display", "").strip() == "none":
            return
        if not UNSUPPORTED_PROPS.isdisjoint(props):
            for key in UNSUPPORTED_PROPS.intersection(props):
                if props[key].strip() not in HARMLESS:
                    raise _Fallback(key)
        if props.get("opacity", "").strip() in ("0", "0.0", "0%"):
            return
        style = self._inherit(parent_style, props)
        matrix = None
        t = props.get("transform")
        if t:
            try:
                matrix = _parse_transform(t)
            except ValueError:
                raise self.error(el, f"has transform={t!r}", "matrix(), translate(), scale(), rotate(), skewX(), skewY()") from None
        clip = props.get("clip-path")
        clip_el = None
        if clip and clip.strip() != "none":
            m = _URL.match(clip)
            clip_el = self.ids.get(m.group(1)) if m else None
            if clip_el is None or _local(clip_el) != "clipPath":
                raise self.error(el, f"has clip-path={clip!r}", "url(#id) of a <clipPath>")
        if matrix is not None and clip_el is None and name in SHAPES:
            scale = _similarity(matrix)
            if scale:  # a turned or moved shape: its points moved instead, no q/cm/Q
                self.shape(el, name, props, style, matrix, scale)
                return
        wrap = matrix is not None or clip_el is not None
        if wrap:
            self.push(_mat(matrix) + " cm" if matrix is not None and matrix != IDENTITY else "")
            if clip_el is not None:
                self._clip(clip_el, style)
        if name in SHAPES:
            self.shape(el, name, props, style)
        elif name == "g" or name == "a":  # a link draws as a group
            self.children(el, style)
        elif name == "svg":
            self.nested_svg(el, props, style)
        elif name == "use":
            self.use(el, props, style)
        elif name == "text":
            self.text(el, props, style)
        elif name == "image":
            self.image(el, props, style)
        if wrap:
            self.pop()

    def _clip(self, cp, style: dict) -> None:
        props = _style(cp)
        if props.get("clipPathUnits", "userSpaceOnUse") != "userSpaceOnUse":
            raise _Fallback("clipPath objectBoundingBox")
        if props.get("clip-path"):
            raise _Fallback("clipPath clip-path")
        base = _parse_transform(props["transform"]) if props.get("transform") else IDENTITY
        parts = []
        rule = None
        cp_style = self._inherit(style, props)
        for child in cp:
            name = _local(child)
            if name not in SHAPES:
                if name in ("", "title", "desc"):
                    continue
                raise _Fallback(f"{name} in clipPath")
            cprops = _style(child)
            if cprops.get("display", "").strip() == "none" or cprops.get("clip-path"):
                if cprops.get("clip-path"):
                    raise _Fallback("clipPath clip-path")
                continue
            cstyle = self._inherit(cp_style, cprops)
            m = base
            if cprops.get("transform"):
                m = _compose(base, _parse_transform(cprops["transform"]))
            segs = self.geometry(child, name, cprops, cstyle)
            if segs:
                parts.append(_segs_ops(segs, m if m != IDENTITY else None))
                rule = rule or cstyle["clip-rule"]
        if parts:
            self.ops.append(" ".join(parts) + (" W* n" if rule == "evenodd" else " W n"))
        else:
            self.ops.append("0 0 m h W n")  # an empty clip path hides everything

    def nested_svg(self, el, props, style) -> None:
        x, y, w, h = self._lengths(el, {"width": "100%", "height": "100%", **props},
                                   (("x", "x"), ("y", "y"), ("width", "x"), ("height", "y")))
        self.viewport_box(el, props, style, (x, y, w, h), self.children)

    def viewport_box(self, el, props, style, box, body) -> None:
        """A new viewport (nested svg, symbol): clipped to its box, viewBox mapped into it."""
        x, y, w, h = box
        if w <= 0 or h <= 0:
            return
        vb = self._viewbox(props)
        m = self._viewbox_matrix(vb, box, props.get("preserveAspectRatio", "xMidYMid meet")) if vb else (1.0, 0.0, 0.0, 1.0, x, y)
        self.push(f"{_num(x)} {_num(y)} {_num(w)} {_num(h)} re W n {_mat(m)} cm")
        saved = self.viewport
        self.viewport = (vb[2], vb[3]) if vb else (w, h)
        body(el, style)
        self.viewport = saved
        self.pop()

    def use(self, el, props, style) -> None:
        href = el.get("href") or el.get(XLINK_HREF) or ""
        target = self.ids.get(href[1:]) if href.startswith("#") else None
        if target is None:
            raise self.error(el, f"refers to {href!r}, which is not an element of this SVG", "href=\"#id\" of an element here")
        if target in self.using or any(a is target for a in el.iterancestors()):
            raise self.error(el, f"refers to {href!r}, which contains it", "a reference that does not loop")
        x, y = self._lengths(el, props, (("x", "x"), ("y", "y")))
        name = _local(target)
        self.using.append(target)
        self.push(f"1 0 0 1 {_num(x)} {_num(y)} cm" if x or y else "")
        if name in ("symbol", "svg"):
            tprops = _style(target)
            if tprops.get("display", "").strip() != "none":
                size = {"width": "100%", "height": "100%"}
                size.update({k: v for k, v in tprops.items() if k in ("width", "height")})
                size.update({k: v for k, v in props.items() if k in ("width", "height")})
                w, h = self._lengths(el, size, (("width", "x"), ("height", "y")))
                tstyle = self._inherit(style, tprops)
                tx, ty = (self._lengths(target, tprops, (("x", "x"), ("y", "y"))) if name == "svg" else (0.0, 0.0))
                self.viewport_box(target, tprops, tstyle, (tx, ty, w, h), self.children)
        elif name in DRAWN:
            self.element(target, name, style)
        self.pop()
        self.using.pop()

    # ---- shapes

    def geometry(self, el, name: str, props: dict, style: dict) -> list[tuple]:
        try:
            if name == "path":
                return _path(props.get("d", ""))
            if name in ("polygon", "polyline"):
                nums = _numbers(props.get("points", ""))
                if len(nums) < 4:
                    return []
                segs = [("m", nums[0], nums[1])]
                segs.extend(("l", nums[j], nums[j + 1]) for j in range(2, len(nums) - 1, 2))
                if name == "polygon":
                    segs.append(("h",))
                return segs
            if name == "rect":
                x, y, w, h = self._lengths(el, props, (("x", "x"), ("y", "y"), ("width", "x"), ("height", "y")))
                if w <= 0 or h <= 0:
                    return []
                rx, ry = props.get("rx"), props.get("ry")
                rxv = self.length(rx, "x") if rx not in (None, "auto") else None
                ryv = self.length(ry, "y") if ry not in (None, "auto") else None
                rxv = ryv if rxv is None else rxv
                ryv = rxv if ryv is None else ryv
                if not rxv or not ryv or rxv <= 0 or ryv <= 0:
                    return [("re", x, y, w, h)]
                return _round_rect(x, y, w, h, min(rxv, w / 2), min(ryv, h / 2))
            if name == "circle":
                cx, cy, r = self._lengths(el, props, (("cx", "x"), ("cy", "y"), ("r", "xy")))
                return _ellipse(cx, cy, r, r) if r > 0 else []
            if name == "ellipse":
                cx, cy, rx, ry = self._lengths(el, props, (("cx", "x"), ("cy", "y"), ("rx", "x"), ("ry", "y")))
                return _ellipse(cx, cy, rx, ry) if rx > 0 and ry > 0 else []
            # line
            x1, y1, x2, y2 = self._lengths(el, props, (("x1", "x"), ("y1", "y"), ("x2", "x"), ("y2", "y")))
            return [("m", x1, y1), ("l", x2, y2)]
        except ValueError as e:
            raise self.error(el, f"has an unreadable value {str(e)!r}", "numbers, optionally with units") from None

    def paint(self, el, style: dict, key: str) -> Any:
        """The fill or stroke: an (r, g, b) colour, None (no paint), or a gradient.Gradient."""
        value = style[key]
        if value.startswith("url("):
            m = _URL.match(value)
            target = self.ids.get(m.group(1)) if m else None
            if target is not None:
                return self.gradient(el, target, key)
            if not (m and m.group(2).strip()):  # a typo would draw nothing, silently
                raise self.error(el, f"has {key}={value!r}, which names no element of the face",
                                 "the id of a gradient or pattern in the same SVG, or a colour")
            value = m.group(2).strip()
        if value == "currentColor":
            value = style["color"]
        try:
            rgb = _colour(value)
        except ValueError:
            raise self.error(el, f"has {key}={value!r}, which is not a colour",
                             "#rrggbb, #rgb, rgb(r, g, b), a CSS colour name or none") from None
        if isinstance(rgb, float):
            if rgb == 0:
                return None
            raise self._transparency(el, {"fill": value[:7]} if value.startswith("#") else {}, f"{key}={value}", rgb)
        return rgb

    def shape(self, el, name: str, props: dict, style: dict, matrix: tuple | None = None,
              scale: float = 1.0) -> None:
        """Fill and/or stroke a shape; ``matrix`` (a similarity, ``scale`` its factor) is
        applied to its points, and the stroke's widths scaled to match."""
        if style["visibility"] in ("hidden", "collapse"):
            return
        fill = None if name == "line" else self.paint(el, style, "fill")
        stroke = self.paint(el, style, "stroke")
        width = 0.0
        if stroke is not None:
            try:
                width = self.length(style["stroke-width"], "xy")
            except ValueError:
                raise self.error(el, f"has stroke-width={style['stroke-width']!r}", "a length") from None
            if width <= 0:
                stroke = None
        if fill is None and stroke is None:
            return
        # Faces repeat their frames, icons and ornaments: the path text is kept per distinct
        # element (its attributes, the viewport percentages refer to, the matrix moving it).
        key = (name, tuple(el.attrib.items()), self.viewport, matrix)
        ops = _SHAPE_OPS.get(key)
        if ops is None:
            segs = self.geometry(el, name, props, style)
            ops = _segs_ops(segs, matrix) if segs else ""
            if len(_SHAPE_OPS) >= 50_000:
                _SHAPE_OPS.clear()
            _SHAPE_OPS[key] = ops
        if not ops:
            return
        if not isinstance(fill, (tuple, type(None))) or not isinstance(stroke, (tuple, type(None))):
            fill, stroke = self.gradient_paint(el, name, props, style, matrix, ops, fill, stroke, width, scale)
            if fill is None and stroke is None:
                return
        if fill is not None:
            self.colour("fill", fill)
        if stroke is not None:
            self.colour("stroke", stroke)
            self.stroke_state(el, style, width, scale)
        self.ops.append(ops + " " + _paint_op(fill is not None, stroke is not None, style))

    # ---- gradients (render/gradient.py)

    def gradient(self, el, target, key: str) -> Any:
        """The paint a ``url(#id)`` names: a gradient (or its one colour, or None); anything
        else (a pattern) is outside the subset."""
        from pnpgen.svg import gradient

        if _local(target) not in gradient.GRADIENTS:
            raise _Fallback(_local(target) or "paint server")
        return gradient.parse(target, self.ids, self.error, self.length)

    def gradient_paint(self, el, name: str, props: dict, style: dict, matrix: tuple | None, ops: str,
                       fill: Any, stroke: Any, width: float, scale: float) -> tuple:
        """A shape with a gradient fill or stroke: written as a paint item when a gradient is
        drawn as a shading. Returns the plain colours (or None) still to be painted the usual way
        — (None, None) when the item paints the shape."""
        from pnpgen.svg import gradient

        segs = self.geometry(el, name, props, style)
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
            self.colour("fill", fill)
        if stroke is not None:
            if stroke_sh is None:
                self.colour("stroke", stroke)
            self.stroke_state(el, style, width, scale)
        self._flush()
        self.items.append(gradient.paint_item(ops, _paint_op(fill is not None, stroke is not None, style),
                                              area, fill_sh, stroke_sh))
        return None, None

    def stroke_state(self, el, style: dict, width: float, scale: float = 1.0) -> None:
        width *= scale
        self.set("w", width, f"{_num(width)} w")
        cap = CAPS.get(style["stroke-linecap"], "0")
        self.set("J", cap, f"{cap} J")
        join = JOINS.get(style["stroke-linejoin"], "0")
        self.set("j", join, f"{join} j")
        try:
            limit = max(1.0, float(style["stroke-miterlimit"]))
        except ValueError:
            limit = 4.0
        self.set("M", limit, f"{_num(limit)} M")
        dash = style["stroke-dasharray"]
        pattern: tuple = ()
        if dash != "none":
            try:
                pattern = tuple(self.length(v, "xy") for v in re.split(r"[\s,]+", dash.strip()) if v)
            except ValueError:
                raise self.error(el, f"has stroke-dasharray={dash!r}", "lengths separated by spaces or commas") from None
            if len(pattern) % 2:
                pattern = pattern * 2
            pattern = tuple(v * scale for v in pattern)
            if any(v < 0 for v in pattern) or sum(pattern) <= 0:
                pattern = ()
        offset = 0.0
        if pattern:
            try:
                offset = self.length(style["stroke-dashoffset"], "xy") * scale
            except ValueError:
                offset = 0.0
        self.set("d", (pattern, offset), f"[{' '.join(_num(v) for v in pattern)}] {_num(offset)} d")

    # ---- text

    def text(self, el, props, style) -> None:
        if len(el):
            for child in el:
                if isinstance(child.tag, str) and _local(child) not in IGNORED:
                    raise _Fallback(_local(child) or "text child")
        for key in ("dx", "dy", "rotate", "textLength", "lengthAdjust"):
            if props.get(key):
                raise _Fallback(f"text {key}")
        if style["visibility"] in ("hidden", "collapse"):
            return
        chars = (el.text or "") + "".join(child.tail or "" for child in el)  # around comments, <title>
        if style["xml:space"] == "preserve":
            chars = chars.replace("\r\n", " ").replace("\n", " ").replace("\t", " ").replace("\r", " ")
        else:
            chars = re.sub(r" +", " ", chars.replace("\n", "").replace("\r", "").replace("\t", " ")).strip()
        if not chars:
            return
        fill = self.paint(el, style, "fill")
        if style["stroke"] != "none" and self.paint(el, style, "stroke") is not None:
            raise _Fallback("stroked text")
        if fill is not None and not isinstance(fill, tuple):
            raise _Fallback("text with a gradient")
        if fill is None:
            return
        font = self._font(el, style["font-family"])
        try:
            size = self.length(style["font-size"], "xy")
            xs = [self.length(v, "x", size) for v in re.split(r"[\s,]+", props.get("x", "0").strip()) if v]
            ys = [self.length(v, "y", size) for v in re.split(r"[\s,]+", props.get("y", "0").strip()) if v]
        except ValueError:
            raise self.error(el, "has an unreadable x, y or font-size", "numbers, optionally with units") from None
        if size <= 0:
            return
        from reportlab.pdfbase.pdfmetrics import stringWidth

        # Chunks: each character with its own x or y starts one (SVG text chunks); the text
        # anchor applies per chunk. Characters whose given x is where the pen already is join
        # the previous run, so a justified line is not one Tj per character.
        chunks: list[list] = [[xs[0] if xs else 0.0, ys[0] if ys else 0.0, chars]]
        if len(xs) > 1 or len(ys) > 1:
            chunks = []
            pen_x, pen_y = xs[0], ys[0]
            for i, ch in enumerate(chars):
                x = xs[i] if i < len(xs) else None
                y = ys[i] if i < len(ys) else None
                if (i == 0 or (x is not None and abs(x - pen_x) > 0.0005 * size)
                        or (y is not None and abs(y - pen_y) > 1e-6)):
                    chunks.append([x if x is not None else pen_x, y if y is not None else pen_y, ch])
                    pen_x, pen_y = chunks[-1][0], chunks[-1][1]
                else:
                    chunks[-1][2] += ch
                pen_x += stringWidth(ch, font, size)
        anchor = style["text-anchor"]
        runs = []
        for x, y, s in chunks:
            if anchor in ("middle", "end"):
                w = stringWidth(s, font, size)
                x -= w / 2 if anchor == "middle" else w
            runs.append((x, y, s))
        self.colour("fill", fill)
        self._flush()
        self.items.append(("text", font, size, tuple(runs)))

    def _font(self, el, family: str) -> str:
        font = known_font(family)
        if font is None:
            raise self.error(el, *unknown_font(family))
        return font

    # ---- images

    def image(self, el, props, style) -> None:
        if style["visibility"] in ("hidden", "collapse"):
            return
        href = (el.get("href") or el.get(XLINK_HREF) or "").strip()
        data = self._image_bytes(el, href)
        x, y = self._lengths(el, props, (("x", "x"), ("y", "y")))
        par = props.get("preserveAspectRatio", "xMidYMid meet")
        if _raster_kind(data):
            iw, ih = self._raster_size(el, data)
            w, h = self._image_box(el, props, iw, ih)
            if w <= 0 or h <= 0:
                return
            sx, _, _, sy, tx, ty = self._viewbox_matrix((0.0, 0.0, iw, ih), (x, y, w, h), par)
            slice_ = par.split()[-1] == "slice" and par.split()[0] != "none"
            if slice_:
                self.push(f"{_num(x)} {_num(y)} {_num(w)} {_num(h)} re W n")
            self._flush()
            self.items.append(("image", data, tx, ty, iw * sx, ih * sy))
            if slice_:
                self.pop()
            return
        if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
            raise self.error(el, f"shows {href[:60]!r}, which is not a PNG, JPEG or SVG image", "a PNG, JPEG or SVG file")
        if self.depth >= MAX_NESTING:
            raise self.error(el, f"nests SVG images more than {MAX_NESTING} deep", "an image that does not show itself")
        sub = _Converter(parse_svg(data, f"{href[:60]} (image in {self.where})"), f"{href[:60]} (image in {self.where})",
                         self.resolve, self.depth + 1)
        sub._prescan()
        svb = sub.root_vb or (0.0, 0.0, sub.width_pt / PT_PER_PX, sub.height_pt / PT_PER_PX)
        w, h = self._image_box(el, props, sub.width_pt / PT_PER_PX, sub.height_pt / PT_PER_PX)
        if w <= 0 or h <= 0:
            return
        m = self._viewbox_matrix(svb, (x, y, w, h), par)
        self.push(f"{_num(x)} {_num(y)} {_num(w)} {_num(h)} re W n {_mat(m)} cm")
        sub.state = {}  # what the sub-document writes must not rely on this one's state
        sub.viewport = (svb[2], svb[3])
        sub.elements = self.elements
        sub.children(sub.root, sub._inherit({}, sub.root_props))
        self.elements = sub.elements
        sub._flush()
        self._flush()
        self.items.extend(sub.items)
        self.state = {}  # and this one can no longer trust its own until the Q
        self.pop()

    def _image_box(self, el, props, iw: float, ih: float) -> tuple[float, float]:
        w, h = props.get("width"), props.get("height")
        if w in (None, "auto") and h in (None, "auto"):
            return iw, ih
        wv = self.length(w, "x") if w not in (None, "auto") else None
        hv = self.length(h, "y") if h not in (None, "auto") else None
        if wv is None:
            wv = hv * iw / ih
        if hv is None:
            hv = wv * ih / iw
        return wv, hv

    def _image_bytes(self, el, href: str) -> bytes:
        if href.startswith("data:"):
            head, sep, payload = href[5:].partition(",")
            if not sep:
                raise self.error(el, "has a data: URI without a comma", "data:image/png;base64,…")
            try:
                if head.endswith(";base64"):
                    return base64.b64decode("".join(payload.split()), validate=True)
                return unquote_to_bytes(payload)
            except (binascii.Error, ValueError):
                raise self.error(el, "has a data: URI that is not valid base64", "data:image/png;base64,…") from None
        if not href:
            raise self.error(el, "has no href", "href=\"icons/x.png\" or a data: URI")
        if self.resolve is None:
            raise self.error(el, f"refers to {href!r}, but images cannot be looked up here",
                             "a data: URI, or a build that resolves image files")
        data = self.resolve(href)
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"resolve({href!r}) must return bytes")
        return bytes(data)

    def _raster_size(self, el, data: bytes) -> tuple[int, int]:
        from PIL import Image

        try:
            with Image.open(io.BytesIO(data)) as im:
                size = im.size
                if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
                    alpha = im.convert("RGBA").getchannel("A")
                    if alpha.getextrema()[0] < 255:
                        raise self.error(el, "is an image with transparent pixels: print files cannot contain "
                                             "transparency", "an image flattened onto its background (no alpha)")
        except OSError as e:
            raise self.error(el, f"is not a readable PNG or JPEG ({e})", "a PNG or JPEG file") from None
        return size
