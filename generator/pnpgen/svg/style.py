"""What every part of the SVG converter shares: the SVG namespaces and the subset's property
defaults, parsing (XML, ``style=""``, colours, transforms) and the PDF numbers the converted
operators are written with."""

from __future__ import annotations

import math
import re
from functools import lru_cache

from lxml import etree

from pnpgen.data.colourvision import linear
from pnpgen.errors import InputError, parser_said
from pnpgen.patterns import later
from pnpgen.units import MM_PER_INCH, PT_PER_MM, num

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
MAX_COORDINATE = 1e9  # beyond this a number is a mistake, and more than PDF readers hold

IGNORED = {"title", "desc", "metadata"}
INHERITED = {
    "fill": "#000", "fill-rule": "nonzero", "stroke": "none", "stroke-width": "1",
    "stroke-linecap": "butt", "stroke-linejoin": "miter", "stroke-miterlimit": "4",
    "stroke-dasharray": "none", "stroke-dashoffset": "0", "font-family": "", "font-size": "16",
    "text-anchor": "start", "dominant-baseline": "auto", "visibility": "visible", "color": "#000", "clip-rule": "nonzero",
    "xml:space": "default", "font-weight": "normal", "line-height": "1.25",
    "letter-spacing": "normal",
}
OPACITY = ("opacity", "fill-opacity", "stroke-opacity", "stop-opacity")
# Properties that change how something is painted and that this converter does not draw.
UNSUPPORTED_PROPS = frozenset(("mask", "filter", "marker", "marker-start", "marker-mid", "marker-end",
                     "mix-blend-mode", "paint-order", "text-decoration", "writing-mode",
                     "word-spacing", "alignment-baseline",
                     "baseline-shift", "vector-effect"))
HARMLESS = frozenset(("none", "normal", "auto", "0", "baseline", "horizontal-tb", "lr-tb", "lr", "fill",
                      "fill stroke", "inherit"))
ZERO_LENGTH = later(r"^[+-]?(?:0+\.?0*|\.0+)(?:px|pt|pc|em|ex|mm|cm|in|q|%)?$", re.I)


def harmless(value: str) -> bool:
    """A value of an unsupported property that changes nothing (``none``, Inkscape's ``0px``)."""
    v = value.strip()
    return v in HARMLESS or bool(ZERO_LENGTH.match(v))


UNITS_PX = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / MM_PER_INCH, "cm": 960 / MM_PER_INCH, "in": 96.0, "q": 96 / (4 * MM_PER_INCH)}
PT_PER_PX = 0.75  # an SVG (CSS) pixel is 1/96 in, not the 300 dpi print pixel of units.MM_PER_UNIT
UNITS_PT = {"px": PT_PER_PX, "pt": 1.0, "pc": 12.0, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM, "in": 72.0,
            "q": PT_PER_MM / 4, "": PT_PER_PX}
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(px|pt|pc|mm|cm|in|q|em|ex|%)?\s*$",
                    re.I)
URL = re.compile(r"^\s*url\(\s*['\"]?#([^'\")]+)['\"]?\s*\)\s*(.*)$")
_TRANSFORM = later(r"\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*,?")


class Fallback(Exception):
    """The face uses something outside the subset: draw it with svglib."""


# ------------------------------------------------------------------------------------ XML

# An entity the SVG declares with its text (<!ENTITY ns_svg "http://…">, as Illustrator's SVG export
# writes them) is expanded, as a browser expands it: kept unexpanded, a text using one printed without
# it, unsaid. One naming a file (<!ENTITY x SYSTEM "file:///…">) is never read: an error, "not
# defined". libxml2 refuses an expansion to more than its amplification limit (a billion laughs).
_PARSER = etree.XMLParser(resolve_entities="internal", no_network=True, huge_tree=False)


def parse_svg(svg: str | bytes, where: str):
    """The SVG's root element; InputError (naming ``where``) for text that is not XML."""
    try:
        return etree.fromstring(svg.encode("utf-8") if isinstance(svg, str) else svg, _PARSER)
    except etree.XMLSyntaxError as e:
        entity = e.msg.startswith("Entity '") and "not defined" in e.msg
        raise InputError(f"the template produced invalid SVG: {parser_said(e.msg)} (line {e.lineno} of the SVG, {where})",
                         expected="the entity declared in the SVG with its text (one naming a file, <!ENTITY x SYSTEM "
                         "…>, is not read: its text written out instead)" if entity else
                         "well-formed SVG; check unclosed tags in the template") from None


def local_name(el) -> str:
    """An SVG element's name without the namespace ("" for comments and foreign elements)."""
    tag = el.tag
    return _tag_name(tag) if isinstance(tag, str) else ""


@lru_cache(maxsize=512)
def _tag_name(tag: str) -> str:
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return name if ns == SVG_NS else ""
    return tag


SOURCE = "data-pnpgen-at"  # the template line that wrote an element (pnpgen.faces.sourcelines); not drawn


def props_of(el) -> dict[str, str]:
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


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The contrast ratio of two (r, g, b) colours in 0–1: 1 (the same) to 21 (black on white),
    WCAG 2.1's relative luminance, (L1 + 0.05) / (L2 + 0.05)."""
    def lum(c: tuple[float, float, float]) -> float:
        r, g, b_ = (linear(x) for x in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def hex_colour(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(x * 255):02x}" for x in rgb)


@lru_cache(maxsize=1024)
def parse_colour(value: str) -> tuple[float, float, float] | float | None:
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


# ---------------------------------------------------------------------------- transforms


def compose(o: tuple, i: tuple) -> tuple:
    """The matrix for ``o(i(p))`` (PDF order: a b c d e f)."""
    a, b, c, d, e, f = i
    A, B, C, D, E, F = o
    return (A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * e + C * f + E, B * e + D * f + F)


@lru_cache(maxsize=4096)
def parse_transform(text: str) -> tuple:
    """A ``transform`` attribute as one matrix; ValueError for what is not one."""
    m = IDENTITY
    pos = 0
    text = text.strip()
    while pos < len(text):
        t = _TRANSFORM.match(text, pos)
        if not t:
            raise ValueError(text)
        pos = t.end()
        name, args = t.group(1), [float(v) for v in NUMBER.findall(t.group(2))]
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
                step = compose((1.0, 0.0, 0.0, 1.0, cx, cy), compose(step, (1.0, 0.0, 0.0, 1.0, -cx, -cy)))
        elif name == "skewX" and len(args) == 1:
            step = (1.0, 0.0, math.tan(math.radians(args[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and len(args) == 1:
            step = (1.0, math.tan(math.radians(args[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            raise ValueError(text)
        m = compose(m, step)
    return m


def similarity(m: tuple) -> float:
    """The scale factor of a matrix that keeps shapes (turns, moves, mirrors, uniform scales);
    0 for one that distorts them (a stroke would then need the matrix itself)."""
    a, b, c, d = m[:4]
    if abs(a - d) < 1e-9 and abs(b + c) < 1e-9 or abs(a + d) < 1e-9 and abs(b - c) < 1e-9:
        return math.hypot(a, b)
    return 0.0


# ------------------------------------------------------------------------------- numbers


@lru_cache(maxsize=1 << 17)
def pdf_num(v: float) -> str:
    """A PDF number: at most 4 decimals, no trailing zeros, never ``-0`` (deterministic).
    Memoised: a face repeats its coordinates many times."""
    return num(bounded(v), 4)


def pdf_matrix(m: tuple) -> str:
    """A matrix: 6 decimals, as scales and rotations need more than coordinates."""
    return " ".join(num(bounded(v), 6) for v in m)


class BeyondPdf(InputError):
    """``bounded``'s error, which the converter names the element of where it draws one (the check
    itself knows no element: it is on the hot path)."""


def combined(outer: tuple, inner: tuple) -> tuple:
    """``compose(outer, inner)``: the transform an element's numbers are drawn with, its groups'
    (``outer``, each within bounds) and its own together; a BeyondPdf when the product reaches
    beyond what a PDF holds (``scale(1e5)`` in a ``scale(1e5)``: each number fine, 1e10 drawn)."""
    m = compose(outer, inner)
    for v in m:
        if not -MAX_COORDINATE <= v <= MAX_COORDINATE:
            raise BeyondPdf(f"the face has a transform that, with those of the groups around it, comes to {v:g} (points on the page), "
                            "beyond what a PDF holds", expected=f"transforms whose product stays within "
                            f"±{MAX_COORDINATE:g} (a scale() inside another scale() multiplies)")
    return m


def bounded(v: float) -> float:
    """``v``, unless it is infinite, not a number, or too large for a PDF page (an InputError
    that the build completes with the template and face, and the converter with the element)."""
    if not -MAX_COORDINATE <= v <= MAX_COORDINATE:
        raise BeyondPdf(f"the face has the number {v:g}, beyond what a PDF holds",
                        expected=f"coordinates and sizes within ±{MAX_COORDINATE:g}")
    return v
