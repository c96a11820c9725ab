"""``<text>``: glyph runs in one of the game's fonts (``pnpgen.fonts``), one run per SVG text
chunk, set through ReportLab's text API at draw time; and the fonts a face's text names."""

from __future__ import annotations

import math
import re
from typing import Any

from pnpgen import fonts
from pnpgen.data.model import PLACEHOLDER_COLOUR
from pnpgen.errors import InputError
from pnpgen.patterns import later
from pnpgen.svg.families import GENERIC, picture_font
from pnpgen.svg.shapes import paint
from pnpgen.svg.style import (
    IGNORED,
    INHERITED,
    MAX_COORDINATE,
    UNSUPPORTED_PROPS,
    Fallback,
    contrast,
    harmless,
    hex_colour,
    local_name,
    props_of,
)

ASCENT, DESCENT = 0.88, 0.12  # of the font size: the box of a line of text the print lint measures
# a text reading at less than this contrast on the fill under it is marked for the print lint
# (WCAG 2.1's enhanced ratio, 7:1: the highest the lint's min_contrast may ask)
MARKED_CONTRAST = 7.0


SODIPODI_ROLE = "{http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd}role"  # Inkscape's lines of a text
_LIST = re.compile(r"[\s,]+")
_RELATIVE = later(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*(%|em|ex)\s*$", re.I)


class _Frame:
    """A ``<text>``'s or ``<tspan>``'s own x, y, dx, dy lists (user units; None: not given) and
    how many of its characters are placed so far: its n-th value places its n-th character."""

    __slots__ = ("lists", "n")

    def __init__(self, lists: dict[str, list[float]]):
        self.lists = lists
        self.n = 0


def text(conv, el, name: str, props: dict, style: dict) -> None:
    """A ``<text>`` and its ``<tspan>``s, as Inkscape and Illustrator save them: characters placed
    by the x, y, dx, dy lists of the innermost element giving one, each span in its own font,
    size and colour, each text chunk (a character with its own x or y starts one) anchored by
    its text-anchor (rotate, textLength: fallback; a stroke or a gradient fill that would show
    is refused before drawing)."""
    chars: list[tuple[str, dict, tuple[_Frame, ...]]] = []
    lines = {"y": None}  # the last Inkscape line's y, for a line saved without its own
    _gather(conv, el, props, style, (), chars, lines, style)
    if not chars:
        return
    fonts_of: dict[int, tuple[str, float, Any, float, float]] = {}  # style → font, size, fill, baseline drop, spacing
    first, frame = chars[0], chars[0][2][-1]
    if len(first[2]) == 1 and len(frame.lists["x"]) == len(frame.lists["y"]) == 1 and not frame.lists["dx"] \
            and not frame.lists["dy"] and all(c[1] is first[1] and c[2] is first[2] for c in chars):
        fonts_of[id(first[1])] = found = _set_in(conv, el, first[1])
        if not found[4]:  # one run: a text of plain characters (as a template writes), not measured letter by letter
            _draw(conv, el, [[[frame.lists["x"][0], frame.lists["y"][0], "".join(c[0] for c in chars), first[1], 0.0]]],
                  fonts_of)
            return
    chunks: list[list[list]] = []  # each chunk's runs: [x, y, chars, style]
    pen_x = pen_y = 0.0
    for i, (ch, st, frames) in enumerate(chars):
        font, size, _, _, spacing = fonts_of.get(id(st)) or fonts_of.setdefault(id(st), _set_in(conv, el, st))
        given = {}
        for key in ("x", "y", "dx", "dy"):
            given[key] = next((f.lists[key][f.n] for f in reversed(frames) if f.n < len(f.lists[key])), None)
        for f in frames:
            f.n += 1
        x, y = given["x"], given["y"]
        if (i == 0 or (x is not None and abs(x - pen_x) > 0.0005 * size) or (y is not None and abs(y - pen_y) > 1e-6)):
            pen_x, pen_y = x if x is not None else pen_x, y if y is not None else pen_y
            chunks.append([])
        pen_x += given["dx"] or 0.0
        pen_y += given["dy"] or 0.0
        runs = chunks[-1]
        last = runs[-1] if runs else None
        if last is not None and last[3] is st and abs(last[0] + last[4] - pen_x) <= 1e-9 and last[1] == pen_y:
            last[2] += ch
            last[4] += _width(ch, font, size)
        else:
            runs.append([pen_x, pen_y, ch, st, _width(ch, font, size)])
        pen_x = runs[-1][0] + runs[-1][4] + spacing  # (letters spaced: one run each)
    _draw(conv, el, chunks, fonts_of)


def _gather(conv, el, props: dict, style: dict, frames: tuple, chars: list, lines: dict, text_style: dict) -> None:
    """The characters of ``el`` and its ``<tspan>``s, in order, each with the style of the span
    holding it and the position lists around it; white space as ``xml:space`` says."""
    for key in ("rotate", "textLength", "lengthAdjust"):
        if props.get(key):
            raise Fallback(f"text {key}")
    if el is not None and frames:  # a <tspan>: what element() checks of a <text>
        for key in UNSUPPORTED_PROPS.intersection(props):
            if not harmless(props[key]):
                raise Fallback(key)
    frame = _frame(conv, el, props, style, lines, text_style)
    frames = (*frames, frame)
    _add(el.text, style, frames, chars)
    for child in el:
        if not isinstance(child.tag, str):
            _add(child.tail, style, frames, chars)
            continue
        kind = local_name(child)
        if kind == "tspan":
            cprops = props_of(child)
            relative = _RELATIVE.match(cprops.get("font-size", ""))
            if relative:  # of the span's parent's size, not of the picture
                parent = _length(conv, el, "font-size", style["font-size"], "xy")
                cprops["font-size"] = repr(float(relative.group(1)) * parent * (0.01 if relative.group(2) == "%" else
                                                                               0.5 if relative.group(2) == "ex" else 1))
            if cprops.get("display", "").strip() != "none":
                _gather(conv, child, cprops, conv.inherit(style, cprops), frames, chars, lines, text_style)
        elif kind not in IGNORED:
            raise Fallback(kind or "text child")
        _add(child.tail, style, frames, chars)
    if not frames[:-1]:  # the whole text: no white space at its ends unless preserved
        while chars and chars[-1][0] == " " and chars[-1][1]["xml:space"] != "preserve":
            chars.pop()


def _add(s: str | None, style: dict, frames: tuple, chars: list) -> None:
    if not s:
        return
    if style["xml:space"] == "preserve":
        chars.extend((c, style, frames) for c in s.replace("\r\n", " ").translate(_SPACES))
        return
    for c in s.replace("\n", "").replace("\r", "").replace("\t", " "):
        if c == " " and (not chars or chars[-1][0] == " "):
            continue  # collapsed, and none leading
        chars.append((c, style, frames))


_SPACES = str.maketrans("\n\t\r", "   ")


def _frame(conv, el, props: dict, style: dict, lines: dict, text_style: dict) -> _Frame:
    """``el``'s position lists; an Inkscape line (``sodipodi:role="line"``) saved without its x
    or y starts at the text's x, a line below the last."""
    size = _length(conv, el, "font-size", style["font-size"], "xy")
    lists = {key: [_length(conv, el, key, v, "x" if key.endswith("x") else "y", size, props.get(key, ""))
                   for v in _LIST.split(props.get(key, "").strip()) if v] for key in ("x", "y", "dx", "dy")}
    if local_name(el) == "text":
        lists["x"] = lists["x"] or [0.0]
        lists["y"] = lists["y"] or [0.0]
        lines["x"], lines["y"] = lists["x"][0], lists["y"][0]
    elif el.get(SODIPODI_ROLE) == "line":
        if not lists["y"] and lines["y"] is not None:
            lists["y"] = [lines["y"] + _line_height(conv, style, size)]
        if not lists["x"]:
            lists["x"] = [lines["x"]]
    if lists["y"] and local_name(el) != "text" and el.get(SODIPODI_ROLE) == "line":
        lines["y"] = lists["y"][0]
    return _Frame(lists)


def _length(conv, el, key: str, value: str, axis: str, size: float | None = None, written: str = "") -> float:
    """A text's ``x``, ``y``, ``dx``, ``dy`` (one number of ``written``, its list) or ``font-size`` in
    user units; one that is no length is told by its attribute and value (it was "an unreadable x,
    y or font-size", which of them not said)."""
    try:
        return conv.length(value, axis) if size is None else conv.length(value, axis, size)
    except ValueError:
        shown = written.strip() or value
        raise conv.error(el, f"has {key}={shown[:40]!r}, which is no length",
                         "a number of user units, millimetres in a face: "
                         + ('font-size="3.5"' if key == "font-size" else f'{key}="5" (or one a character: "5 7.5 10")')) from None


def _line_height(conv, style: dict, size: float) -> float:
    """Inkscape's distance from one line to the next (``line-height``: a number of font sizes, a
    percentage or a length; 1.25 unless said)."""
    v = (style.get("line-height") or "1.25").strip()
    try:
        if v.endswith("%"):
            return float(v[:-1]) / 100 * size
        return float(v) * size
    except ValueError:
        try:
            return conv.length(v, "y", size)
        except ValueError:
            return 1.25 * size


def _width(s: str, font: str, size: float) -> float:
    return fonts.string_width(s, font, size)


def _set_in(conv, el, st: dict) -> tuple[str, float, Any, float, float]:
    """The font, size, fill, baseline drop and letter spacing of a span's style (a span drawing nothing is
    measured in the game's first font when its own is not one of them)."""
    size = _length(conv, el, "font-size", st["font-size"], "xy")
    if not -MAX_COORDINATE <= size <= MAX_COORDINATE:  # (else found only as the PDF is written, the face unknown)
        raise conv.error(el, f"has font-size {st['font-size']!r}, beyond what a PDF holds",
                         f"a size within ±{MAX_COORDINATE:g}")
    fill = paint(conv, el, st, "fill") if st["visibility"] not in ("hidden", "collapse") and size > 0 else None
    try:
        font = _font(conv, el, st["font-family"], st.get("font-weight", "normal"))
    except InputError:
        if fill is not None or not fonts.registered():
            raise
        font = fonts.registered()[0]
    # a stroke that would show was refused before drawing (unprinted.py): one of width 0 draws nothing
    if fill is not None and not isinstance(fill, tuple):  # (a gradient: refused before drawing)
        raise Fallback("text with a gradient")
    drop = baseline_drop(st["dominant-baseline"], font)
    if drop is None:
        raise Fallback(f"dominant-baseline {st['dominant-baseline']}")
    spacing = st["letter-spacing"]
    try:
        space = 0.0 if spacing in ("normal", "initial") else conv.length(spacing, "x", size)
    except ValueError:
        raise conv.error(el, f"has letter-spacing={spacing[:30]!r}", "a length: 0.5, 0.1em, or normal") from None
    return font, size, fill, drop, space


def _draw(conv, el, chunks: list[list[list]], fonts_of: dict) -> None:
    """Anchor each chunk by its first span's text-anchor, then set its runs: one text item for
    each run of the same font, size and colour, measured for the print lint (one mark for each
    size, over the text); a character its font lacks stops here (it would print as an empty box)."""
    placed: list[tuple[str, float, Any, float, float, str]] = []
    for runs in chunks:
        for r in runs:  # each run measured whole, as it is set
            r[4] = _width(r[2], fonts_of[id(r[3])][0], fonts_of[id(r[3])][1])
        start, end = min(r[0] for r in runs), max(r[0] + r[4] for r in runs)
        anchor = runs[0][3]["text-anchor"]
        shift = (end - start) / 2 if anchor == "middle" else end - start if anchor == "end" else 0.0
        for x, y, s, st, _ in runs:
            font, size, fill, drop, _ = fonts_of[id(st)]
            if fill is not None and size > 0:
                _glyphs_in(conv, el, s, font)
                placed.append((font, size, fill, x - shift, y + drop * size, s))
    boxes: dict[tuple, list] = {}
    for font, size, fill, x, y, s in placed:
        box = boxes.setdefault((size, fill), [math.inf, math.inf, -math.inf, -math.inf, ""])
        w = _width(s, font, size)
        box[:4] = min(box[0], x), min(box[1], y - ASCENT * size), max(box[2], x + w), max(box[3], y + DESCENT * size)
        box[4] += s
    for (size, fill), (x0, y0, x1, y1, chars) in boxes.items():
        conv.mark("text", size, (x0, y0, x1, y1), chars)
        if hex_colour(fill) == PLACEHOLDER_COLOUR:  # pnpgen's own 未定 mark
            continue
        box = conv.device_box((x0, y0, x1, y1))[0]
        ground = conv.ground_under(box)
        grounds = [(box, ground, chars)] if ground is not None else _grounds_of_runs(conv, placed, size, fill)
        for part, ground, chars in grounds:
            if (ratio := contrast(fill, ground)) < MARKED_CONTRAST:
                conv.marks.append(("contrast", conv.at, round(ratio, 2), *(round(c, 3) for c in part),
                                   f"{hex_colour(fill)} {hex_colour(ground)} {chars[:24]}"))
    n = 0
    while n < len(placed):
        font, size, fill = placed[n][:3]
        group = []
        while n < len(placed) and placed[n][:3] == (font, size, fill):
            group.append(placed[n][3:])
            n += 1
        conv.colour("fill", fill)
        conv.flush()
        conv.items.append(("text", font, size, tuple(group)))


def _glyphs_in(conv, el, s: str, font: str) -> None:
    """A character ``font`` has no glyph for, told at the text's line: a ``<text>`` is set in the
    one font its ``font-family`` names (no fallback, as ``textbox()`` has), so it would print as
    an empty box (Japanese in a Latin font's title)."""
    missing = [c for c in dict.fromkeys(s) if not c.isspace() and not fonts.has_glyph(font, c)]
    if not missing:
        return
    holders = [f for f in fonts.registered() if _holds(f, missing)]
    chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing[:5]) + (" …" if len(missing) > 5 else "")
    one = len(missing) == 1
    raise conv.error(el, f"sets {chars} in {font}, which has no glyph for {'it' if one else 'them'}: "
                     + ("it would print as an empty box" if one else "they would print as empty boxes"),
                     "the text in a font that has " + ("it" if one else "them") + ": font-family=\""
                     + (holders[0] if holders else "…") + "\""
                     + (f" (the game's fonts holding {'it' if one else 'them'}: {', '.join(holders[:4])})" if holders else "")
                     + ", or a tspan of its own in one; or the text set by textbox(), which takes what its font "
                     "lacks from game.yaml's fallback_fonts")


def _holds(font: str, chars: list[str]) -> bool:
    """Whether ``font`` has every one of ``chars``; a font named once but unreadable now (its file
    gone from fonts/ while watch or serve runs on) holds none, and is not offered."""
    try:
        return all(fonts.has_glyph(font, c) for c in chars)
    except (InputError, KeyError, OSError):
        return False


def _grounds_of_runs(conv, placed: list[tuple[str, float, Any, float, float, str]], size: float,
                     fill: Any) -> list[tuple[tuple, Any, str]]:
    """Where one text's runs of ``size`` and ``fill`` lie on no one ground together (a vertical
    column set as one ``<text>`` down two filled boxes: its ground was "not known", and its
    contrast never measured, tate46): each run's own ground, the runs on one ground joined —
    (device box, ground, characters) for each ground known."""
    parts: dict[Any, list] = {}
    for font, s_size, s_fill, x, y, s in placed:
        if (s_size, s_fill) != (size, fill):
            continue
        box = conv.device_box((x, y - ASCENT * size, x + _width(s, font, size), y + DESCENT * size))[0]
        ground = conv.ground_under(box)
        if ground is None:
            continue
        part = parts.setdefault(hex_colour(ground), [math.inf, math.inf, -math.inf, -math.inf, "", ground])
        part[:5] = min(part[0], box[0]), min(part[1], box[1]), max(part[2], box[2]), max(part[3], box[3]), part[4] + s
    return [((x0, y0, x1, y1), ground, chars) for x0, y0, x1, y1, chars, ground in parts.values()]


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
    face = fonts.face(font)
    return rule(face.ascent / 1000, face.descent / 1000, face.capHeight / 1000)


def _font(conv, el, family: str, weight: str = "normal") -> str:
    """The game's font a text names: in a face, by its file's name (a template's text); in an SVG
    picture also by its family's name, a generic family or, naming none of the game's, the
    nearest of its kind, told once per picture and family (``font`` mark, the print lint)."""
    if conv.depth:
        found = picture_font(family, weight)
        if found is not None:
            font, named = found
            said = ", ".join(f.strip().strip("'\"") for f in family.split(",") if f.strip(" '\""))
            if not named and (said, font) not in conv.substituted:
                conv.substituted.add((said, font))
                picture = conv.where.split(" (image in ")[0]
                conv.marks.append(("font", conv.at, 0.0, 0.0, 0.0, 0.0, 0.0, f"{picture}\n{said}\n{font}"))
            return font
    known = known_font(family)
    if known is None:
        what, expected = unknown_font(family)
        if conv.depth:  # an SVG picture's text, in the font of the program that drew it
            expected += (", or the picture's text as paths (Inkscape: Edit > Select All in All Layers, Path > Object to "
                         "Path, File > Save; Illustrator: Type > Create Outlines)")
        raise conv.error(el, what, expected)
    return known


def known_font(family: str) -> str | None:
    """The first font of a ``font-family`` list that the game uses (a name in fonts/), else None."""
    for name in (f.strip().strip("'\"") for f in family.split(",") if f.strip()):
        try:
            fonts.face(name)
            return name
        except KeyError:
            continue
    return None


def unknown_font(family: str, weight: str = "normal") -> tuple[str, str]:
    """What is wrong with a ``font-family`` :func:`known_font` finds nothing in, and what would be right:
    a family's name written as CSS writes it (``'DejaVu Serif'``, with ``font-weight`` bold) is told
    the game's font of that family that a template names (``DejaVuSerif-Bold``)."""
    known = fonts.registered()
    what = f"font-family={family!r}, which is not one of the game's fonts" if family.strip(" ,'\"") \
        else "has no font-family"
    found = picture_font(family, weight) if family.strip(" ,'\"") and family.strip() not in GENERIC else None
    if found is not None and found[1]:
        what += (f"; did you mean {found[0]}? (a template names a font by its file's name, as fonts.<role> "
                 "gives it: font-weight and font-style choose none)")
    return what, (("one of " + ", ".join(known) + " (the fonts game.yaml's fonts: gives a role, and the "
                   "default roles'; another .ttf of fonts/ once game.yaml names it under a role of your own, "
                   "e.g. fonts: {quote: DejaVuSerif-Italic}, written fonts.quote)") if known
                  else "a font from fonts/ that game.yaml's fonts: names")


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

