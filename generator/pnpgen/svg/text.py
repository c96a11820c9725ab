"""``<text>``: glyph runs in one of the game's fonts (``pnpgen.fonts``), one run per SVG text
chunk, set through ReportLab's text API at draw time; and the fonts a face's text names."""

from __future__ import annotations

import math
import re
from typing import Any

from pnpgen import fonts
from pnpgen.data.model import PLACEHOLDER_COLOUR
from pnpgen.svg.shapes import paint
from pnpgen.svg.style import IGNORED, INHERITED, Fallback, contrast, hex_colour, local_name, props_of

ASCENT, DESCENT = 0.88, 0.12  # of the font size: the box of a line of text the print lint measures
# a text reading at less than this contrast on the fill under it is marked for the print lint
# (WCAG 2.1's enhanced ratio, 7:1: the highest the lint's min_contrast may ask)
MARKED_CONTRAST = 7.0


def text(conv, el, name: str, props: dict, style: dict) -> None:
    """A ``<text>`` of plain characters (tspans, dx/dy, rotate: fallback; a stroke or a gradient fill
    that would show is refused before drawing)."""
    if len(el):
        for child in el:
            if isinstance(child.tag, str) and local_name(child) not in IGNORED:
                raise Fallback(local_name(child) or "text child")
    for key in ("dx", "dy", "rotate", "textLength", "lengthAdjust"):
        if props.get(key):
            raise Fallback(f"text {key}")
    if style["visibility"] in ("hidden", "collapse"):
        return
    chars = (el.text or "") + "".join(child.tail or "" for child in el)  # around comments, <title>
    if style["xml:space"] == "preserve":
        chars = chars.replace("\r\n", " ").replace("\n", " ").replace("\t", " ").replace("\r", " ")
    else:
        chars = re.sub(r" +", " ", chars.replace("\n", "").replace("\r", "").replace("\t", " ")).strip()
    if not chars:
        return
    fill = paint(conv, el, style, "fill")
    # a stroke that would show was refused before drawing (Converter._refuse_undrawn_text): one of width 0 draws nothing
    if fill is not None and not isinstance(fill, tuple):  # (a gradient: refused before drawing)
        raise Fallback("text with a gradient")
    if fill is None:
        return
    font = _font(conv, el, style["font-family"])
    try:
        size = conv.length(style["font-size"], "xy")
        xs = [conv.length(v, "x", size) for v in re.split(r"[\s,]+", props.get("x", "0").strip()) if v]
        ys = [conv.length(v, "y", size) for v in re.split(r"[\s,]+", props.get("y", "0").strip()) if v]
    except ValueError:
        raise conv.error(el, "has an unreadable x, y or font-size", "numbers, optionally with units") from None
    if size <= 0:
        return
    from reportlab.pdfbase.pdfmetrics import stringWidth  # loaded where text is set, not by every import

    drop = baseline_drop(style["dominant-baseline"], font)
    if drop is None:
        raise Fallback(f"dominant-baseline {style['dominant-baseline']}")

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
    if drop:  # y names the middle, top or bottom of the text, not its baseline
        chunks = [[x, y + drop * size, s] for x, y, s in chunks]
    runs = []
    x0 = y0 = math.inf
    x1 = y1 = -math.inf
    for x, y, s in chunks:
        w = stringWidth(s, font, size)
        if anchor in ("middle", "end"):
            x -= w / 2 if anchor == "middle" else w
        runs.append((x, y, s))
        x0, x1, y0, y1 = min(x0, x), max(x1, x + w), min(y0, y - ASCENT * size), max(y1, y + DESCENT * size)
    conv.mark("text", size, (x0, y0, x1, y1), chars)
    box = conv.device_box((x0, y0, x1, y1))[0]
    ground = conv.ground_under(box) if hex_colour(fill) != PLACEHOLDER_COLOUR else None  # pnpgen's own 未定 mark
    if ground is not None and (ratio := contrast(fill, ground)) < MARKED_CONTRAST:
        conv.marks.append(("contrast", conv.at, round(ratio, 2), *(round(c, 3) for c in box),
                           f"{hex_colour(fill)} {hex_colour(ground)} {chars[:24]}"))
    conv.colour("fill", fill)
    conv.flush()
    conv.items.append(("text", font, size, tuple(runs)))


# How far below ``y`` a text's baseline is, per ``dominant-baseline`` (CSS Inline 3, as browsers
# and Inkscape place it), from the font's ascent, descent and cap height (of its size).
BASELINES = {
    "auto": lambda a, d, cap: 0.0, "alphabetic": lambda a, d, cap: 0.0, "baseline": lambda a, d, cap: 0.0,
    "central": lambda a, d, cap: (a + d) / 2,  # the middle of the em box (d is negative)
    "middle": lambda a, d, cap: 0.35 * cap,  # half the x-height, taken as 0.7 of the cap height
    "mathematical": lambda a, d, cap: 0.35 * cap,
    "hanging": lambda a, d, cap: 0.8 * a,
    "text-before-edge": lambda a, d, cap: a, "text-top": lambda a, d, cap: a,
    "text-after-edge": lambda a, d, cap: d, "text-bottom": lambda a, d, cap: d, "ideographic": lambda a, d, cap: d,
}


def baseline_drop(value: str, font: str) -> float | None:
    """The baseline's distance below ``y`` in ems for ``dominant-baseline: value`` in ``font``;
    None for a value pnpgen does not place."""
    rule = BASELINES.get(value.strip().lower())
    if rule is None:
        return None
    face = fonts.ttfont(font).face
    return rule(face.ascent / 1000, face.descent / 1000, face.capHeight / 1000)


def _font(conv, el, family: str) -> str:
    font = known_font(family)
    if font is None:
        what, expected = unknown_font(family)
        if conv.depth:  # an SVG picture's text, in the font of the program that drew it
            expected += (", or the picture's text as paths (Inkscape: Edit > Select All in All Layers, Path > Object to "
                         "Path, File > Save; Illustrator: Type > Create Outlines)")
        raise conv.error(el, what, expected)
    return font


def known_font(family: str) -> str | None:
    """The first font of a ``font-family`` list that the game uses (a name in fonts/), else None."""
    for name in (f.strip().strip("'\"") for f in family.split(",") if f.strip()):
        try:
            fonts.ttfont(name)
            return name
        except KeyError:
            continue
    return None


def unknown_font(family: str) -> tuple[str, str]:
    """What is wrong with a ``font-family`` :func:`known_font` finds nothing in, and what would be right."""
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
        if not isinstance(el.tag, str) or local_name(el) in ("defs", "symbol"):
            continue
        own = props_of(el).get("font-family")
        if own is not None and own.strip() not in ("inherit", "unset"):
            family = own.strip()
        shown = (el.text or "") + "".join(child.tail or "" for child in el)
        if local_name(el) in ("text", "tspan") and shown.strip():
            out.append((el, family))
        stack.extend((child, family) for child in reversed(el))
    return out

