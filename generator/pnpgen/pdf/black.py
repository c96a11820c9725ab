"""Black that prints black: in a CMYK PDF, text and thin strokes in a near-black colour print on
the K plate alone, overprinting what is under them (スミノセ).

A palette's near-black ink (``#2b2233`` → 15.7/33.3/0/80 by pdf/colour.py) puts small text on
the C and M plates too, where the slightest misregistration blurs it; and a pure black knocks out
the ground under it, leaving a hairline of paper round every letter when the plates shift.
Printers ask for small text and lines in 100 % K, overprinting. So, in every content stream
(pages and the faces' forms):

- text (``BT … ET``, its colour set before the object or inside it, as ReportLab sets it) filled,
  at most SMALL_TEXT_PT (its largest em as printed: text over 36 pt keeps its rich black, the rule
  below), and strokes at most THIN_PT wide (in points, as printed: the stream's own ``cm`` counted
  and, for a form placed smaller than it is drawn — the shop's rulebook's pictures of the pieces —
  the smallest scale a page places it at, pdf/minline.placements), in a colour whose K is at least BLACK_K after conversion and that is not already K
  only (a stroke's also a black mix, its C, M and Y within BLACK_HUE of each other: is_black_shape),
  are drawn in 0/0/0/100; so is text or a stroke already in 0/0/0/100. A path filled and stroked at once (``B``, ``b``: a white panel's thin dark border)
  is drawn as its fill, then as its stroke alone, so only the stroke is black and overprints;
- each of them is drawn with an ExtGState of overprint on (``/OP true /op true /OPM 1``), the
  colour and overprint off again after it (``k_only(pdf, overprint=False)``: overprint off, the
  black knocking out the ground, for a shop whose ink limit the ground and the black together
  pass: pdf/overprint.py);
- a filled shape in such a colour (a black mix, not a dark colour of an icon's picture) is drawn
  so too when it is small: its box (as the stream draws
  it) at most SMALL_FILL_PT on each side — an icon, a pip, a letter-like glyph drawn as a path —
  or at most THIN_PT across (a rule drawn as a thin filled rectangle is a line). The figure is a
  printer's published rule: rich black for "large, solid black areas and text over 36 point",
  100 % K below (smartlevels.com, "Design for print"); a shape that fits a 36 pt em is a
  character's size. Larger fills keep their colour: a large dark area stays the rich black the
  designer chose. Small text in a near-black K-only grey (K ≥ GREY_TEXT_K: #222222, K 86.7 %) is
  black text too: as a halftone screen its thin strokes print ragged. Lighter K-only greys (a 71 %
  running head, a 60 % grey) are left as they are, and so are the cut marks,
  drawn in the Separation ``All`` (pdf/writer.py), not in a DeviceCMYK colour.

``k_only(pdf)`` returns the new PDF and what it mapped, for the export's report.
"""

from __future__ import annotations

import io
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pnpgen.pdf.colour import write_content
from pnpgen.pdf.forms import with_forms
from pnpgen.pdf.matrix import IDENTITY, point, scale, times
from pnpgen.pdf.minline import placements
from pnpgen.pdf.resave import pdf_bytes

BLACK_K = 0.70  # K after conversion at or above which a colour counts as black
BLACK_HUE = 0.40  # C, M and Y at most this far apart: a dark colour (#1f4133, 52/0/22/75; #4a0f0a, 0/80/87/71) is not black
THIN_PT = 1.0  # strokes up to this width (points, the stream's cm counted) are lines, not areas
SMALL_FILL_PT = 36.0  # a fill whose box is at most this on each side (points) is small: a 36 pt em
SMALL_TEXT_PT = 36.0  # text up to this size (points, its em as printed) is small text: 100 % K; larger keeps its colour
GREY_TEXT_K = 0.85  # a K-only grey at or above this K is a near-black ink (#222222 → K 87 %): small text in it is K100
K100 = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class BlackRule:
    """The figures of the mapping a shop may set otherwise (a preset's ``black_text_max``,
    ``grey_text_k`` and ``black_hue``; docs/exports.md): some ask for all text in 100 % K, some
    for text under 12 pt only, some leave a grey alone."""

    text_pt: float = SMALL_TEXT_PT  # black text up to this size prints 100 % K
    grey_k: float | None = GREY_TEXT_K  # K-only grey text from this K on prints 100 % K (None: never)
    hue: float = BLACK_HUE  # a dark mix's C, M and Y at most this far apart is black (thin lines, small fills)


RULE = BlackRule()  # the defaults: what the shipped presets use
OVERPRINT, KNOCKOUT = "/PnpOverprint", "/PnpKnockout"
_PATH = {"m", "l", "c", "v", "y", "h", "re"}
_PAINT = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"}
# A path both filled and stroked, as its fill alone and its stroke alone.
_SPLIT = {"B": ("f", "S"), "B*": ("f*", "S"), "b": ("f", "s"), "b*": ("f*", "s")}
_STROKED = {"S", "s", "B", "B*", "b", "b*"}
_FILLED = {"f", "F", "f*", "B", "B*", "b", "b*"}
_SHOW = {"Tj", "TJ", "'", '"'}
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points


@dataclass(frozen=True)
class Mapped:
    """What a PDF's black mapping changed: each original colour and how often, per kind."""

    text: Counter
    strokes: Counter
    fills: Counter
    overprint: bool = True  # False: knocking out

    def lines(self, name: str) -> list[str]:
        out = []
        how = "with overprint" if self.overprint else "knocking out the ground"
        for kind, counts in (("text", self.text), ("thin strokes", self.strokes), ("small fills", self.fills)):
            if counts:
                colours = ", ".join(f"{_show(c)} ×{n}" for c, n in sorted(counts.items()))
                out.append(f"{name}: {kind} printed 100 % K {how} (was {colours})")
        return out


def _show(cmyk: tuple[float, ...]) -> str:
    return "/".join(f"{100 * v:.3g}" for v in cmyk)


def is_black(cmyk: tuple[float, ...] | None) -> bool:
    """A colour to print as 100 % K: K ≥ BLACK_K, not a K-only grey below 100 %."""
    if cmyk is None or len(cmyk) != 4:
        return False
    c, m, y, k = cmyk
    if k < BLACK_K - 1e-9:
        return False
    return k >= 1.0 - 1e-9 or max(c, m, y) > 1e-9


def is_black_shape(cmyk: tuple[float, ...] | None, hue: float = BLACK_HUE) -> bool:
    """A thin line's or a small shape's colour to print as 100 % K: black (``is_black``) and a mix
    the eye reads as black, its C, M and Y within BLACK_HUE of each other (#2b2233: 16/33/0/80; a
    Photoshop black, 75/68/67/90). A dark colour (a cube's shaded pine-green face, #1f4133:
    52/0/22/75; the dark-red outline of the built-in red cube, #4a0f0a: 0/80/87/71) is a part of an
    icon's picture and keeps its hue: in 100 % K overprinting the cube's red, the outline turned
    black and printed 260 % where DriveThruCards allows 240 %. Text in it is black text (a dark red
    at 275 % prints 100 % K: less ink, one plate)."""
    if not is_black(cmyk):
        return False
    assert cmyk is not None
    c, m, y, k = cmyk
    return k >= 1.0 - 1e-9 or max(c, m, y) - min(c, m, y) <= hue + 1e-9


def is_black_text(cmyk: tuple[float, ...] | None, em_pt: float | None, rule: BlackRule = RULE) -> bool:
    """Text to print 100 % K: in a black (``is_black``) at most ``rule.text_pt`` (SMALL_TEXT_PT),
    or in a near-black K-only grey (K ≥ ``rule.grey_k``, GREY_TEXT_K: a palette's #222222) at most
    that size — as a halftone screen its thin strokes print ragged. Text already 100 % K stays K
    at any size; larger text keeps its rich black or its grey (rich black for text over 36 pt: the
    figure SMALL_FILL_PT cites)."""
    if cmyk is None or len(cmyk) != 4:
        return False
    if cmyk[3] >= 1.0 - 1e-9 and max(cmyk[:3]) <= 1e-9:
        return True
    small = em_pt is None or em_pt <= rule.text_pt + 1e-9
    grey = rule.grey_k is not None and max(cmyk[:3]) <= 1e-9 and cmyk[3] >= rule.grey_k - 1e-9
    return small and (is_black(cmyk) or grey)


def k_only(pdf: bytes, overprint: bool = True, rule: BlackRule = RULE) -> tuple[bytes, Mapped]:
    import pikepdf

    mapped = Mapped(Counter(), Counter(), Counter(), overprint)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        states = {OVERPRINT: doc.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=True, op=True, OPM=1)),
                  KNOCKOUT: doc.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=False, op=False, OPM=0))}
        seen: set[tuple[int, int]] = set()
        least, _, _ = placements(doc)  # where a form is placed smallest: its text and lines as printed there
        for page in doc.pages:  # (a page is placed by no page: least has none of its)
            for obj in with_forms([page.obj], seen):
                _rewrite(doc, obj, mapped, states, rule, least.get(obj.objgen))
        if not (mapped.text or mapped.strokes or mapped.fills):
            return pdf, mapped
        return pdf_bytes(doc), mapped


def _rewrite(doc, obj, mapped: Mapped, states: dict, rule: BlackRule, placed: float | None = None) -> None:
    """Rewrite one content stream (a page's or a form's, ``placed``: the smallest scale a page places
    the form at, its /Matrix counted), adding the two ExtGStates it uses."""
    import pikepdf
    from pikepdf import Name, Operator

    ops = pikepdf.parse_content_stream(obj)
    # user space → points: a form's /Matrix, then the stream's cm; a form placed smaller than it is
    # drawn (the shop's rulebook's pictures of the pieces) as it prints where it is smallest, one
    # placed at its size or larger (a card's page, --fit scale's 63 → 63.5 mm) at its own size
    start = _matrix(obj.get("/Matrix")) if isinstance(obj, pikepdf.Stream) else IDENTITY
    own = scale(start)
    if placed is not None and own > 0 and placed < own:
        start = times(start, (placed / own, 0.0, 0.0, placed / own, 0.0, 0.0))
    drawn = _states(ops, start)
    parts = _parts_of_areas(drawn, ops)  # small dark fills that belong to a dark area (kept as it is)
    out: list = []
    path_start: int | None = None
    text_colour = None  # the original fill of a text object being drawn in K
    in_text = False  # inside BT … ET
    em: float | None = None  # the largest em the text object being drawn shows (points)
    changed = False

    def overprint(colour_op: str) -> list:
        state = OVERPRINT if mapped.overprint else KNOCKOUT
        return [([Name(state)], Operator("gs")), (list(K100), Operator(colour_op))]

    def restore(colour, colour_op: str) -> list:
        return [(list(colour), Operator(colour_op)), ([Name(KNOCKOUT)], Operator("gs"))]

    for n, (instruction, (fill, stroke, line_pt, box, shown)) in enumerate(zip(ops, drawn)):
        operands, op = instruction.operands, instruction.operator
        name = str(op)
        if name == "BT":
            em = shown  # None: the object shows nothing (ReportLab's BT /F1 9 Tf 10.8 TL ET), left as it is
        if name == "BT" and em is not None and is_black_text(fill, em, rule):
            text_colour = fill
            mapped.text[_round(fill)] += 1
            out.extend(overprint("k"))
            out.append((operands, op))
            changed = True
            in_text = True
            continue
        if name == "BT":
            in_text = True
        if in_text and name in ("k", "g"):  # a colour set inside the text object (ReportLab sets it there)
            if em is not None and is_black_text(fill, em, rule):
                assert fill is not None
                mapped.text[_round(fill)] += 1
                out.extend(overprint("k"))
                text_colour = fill
                changed = True
                continue
            if text_colour is not None:  # black text before it in the object: overprint off again
                out.append(([Name(KNOCKOUT)], Operator("gs")))
                text_colour = None
        if name == "ET":
            in_text = False
        if name == "ET" and text_colour is not None:
            out.append((operands, op))
            out.extend(restore(text_colour, "k"))
            text_colour = None
            continue
        if name in _PATH and path_start is None:
            path_start = len(out)
        if name in _PAINT:
            thin = (name in _STROKED and path_start is not None and is_black_shape(stroke, rule.hue)
                    and line_pt <= THIN_PT + 1e-9)
            small = (name in _FILLED and path_start is not None and box is not None and is_black_shape(fill, rule.hue)
                     and _small(box) and n not in parts)
            if not (thin or small):
                path_start = None
                out.append((operands, op))
                continue
            assert path_start is not None
            changed = True
            if thin:
                assert stroke is not None
                mapped.strokes[_round(stroke)] += 1
            if small:
                assert fill is not None
                mapped.fills[_round(fill)] += 1
            if name in _SPLIT and thin != small:  # its fill and its stroke apart, one of them in K
                path = [i for i in out[path_start:] if str(i[1]) in _PATH]  # the clip (W) is set once
                fill_op, stroke_op = _SPLIT[name]
                if small:
                    out[path_start:path_start] = overprint("k")
                out.append(([], Operator(fill_op)))
                if small:
                    out.extend(restore(fill, "k"))
                    out.extend(path)
                    out.append(([], Operator(stroke_op)))
                else:
                    out.extend(overprint("K"))
                    out.extend(path)
                    out.append(([], Operator(stroke_op)))
                    out.extend(restore(stroke, "K"))
            else:  # a stroke, a fill, or a path filled and stroked both in K
                before = (overprint("K") if thin else []) + (overprint("k") if small else [])
                out[path_start:path_start] = before
                out.append((operands, op))
                out.extend((restore(stroke, "K") if thin else []) + (restore(fill, "k") if small else []))
            path_start = None
            continue
        out.append((operands, op))
    if not changed:
        return
    write_content(doc, obj, out)
    res = obj.get("/Resources")
    if res is None:
        obj.Resources = pikepdf.Dictionary()
        res = obj.Resources
    if "/ExtGState" not in res:
        res.ExtGState = pikepdf.Dictionary()
    for key, state in states.items():
        res.ExtGState[key] = state


def _matrix(operands) -> tuple[float, ...]:
    """``cm``'s six operands, or a form's /Matrix, as numbers (the identity for none)."""
    if operands is None or len(operands) != 6:
        return IDENTITY
    return tuple(float(v) for v in operands)


def _points(name: str, operands: list[float], ctm: tuple[float, ...]) -> list[tuple[float, float]]:
    """The points a path operator adds (a rectangle's four corners), in points."""
    if name == "re":
        x, y, w, h = operands
        pairs = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
    else:
        pairs = list(zip(operands[0::2], operands[1::2]))
    return [point(ctm, x, y) for x, y in pairs]


def _states(ops, ctm: tuple[float, ...]) -> list[tuple[Any, Any, float, Box | None, float | None]]:
    """For each instruction of a content stream, the graphics state it is drawn in: (fill, stroke,
    line width in points, for a painting operator the box of its path in points — curves'
    control points counted — and for a ``BT`` the largest em its text object shows, in points:
    ``Tf``'s size by the text matrix and the stream's ``cm``)."""
    out: list[tuple[Any, Any, float, Box | None, float | None]] = []
    fill = stroke = None
    width = 1.0
    stack: list = []
    points: list[tuple[float, float]] = []
    size, text_at, em = 0.0, None, None
    tm: tuple[float, ...] = IDENTITY  # the text matrix
    for instruction in ops:
        operands, name = instruction.operands, str(instruction.operator)
        if name == "k":
            fill = tuple(float(v) for v in operands)
        elif name == "K":
            stroke = tuple(float(v) for v in operands)
        elif name in ("g", "rg", "sc", "scn", "cs"):
            fill = (0.0, 0.0, 0.0, 1.0 - float(operands[0])) if name == "g" else None
        elif name in ("G", "RG", "SC", "SCN", "CS"):
            stroke = (0.0, 0.0, 0.0, 1.0 - float(operands[0])) if name == "G" else None
        elif name == "w":
            width = float(operands[0])
        elif name == "cm":
            ctm = times(_matrix(operands), ctm)
        elif name == "q":
            stack.append((fill, stroke, width, ctm, size))  # the font size too: text state is graphics state
        elif name == "Q" and stack:
            fill, stroke, width, ctm, size = stack.pop()
        elif name in _PATH:
            points.extend(_points(name, [float(v) for v in operands], ctm))
        elif name == "BT":
            tm, text_at, em = IDENTITY, len(out), None
        elif name == "Tf":
            size = abs(float(operands[1]))
        elif name == "Tm":
            tm = _matrix(operands)
        elif name in _SHOW:
            shown = size * scale(times(tm, ctm))
            em = shown if em is None else max(em, shown)
        elif name == "ET" and text_at is not None:
            out[text_at] = out[text_at][:4] + (em,)
            text_at = None
        box = None
        if name in _PAINT:
            if points:
                box = (min(x for x, _ in points), min(y for _, y in points),
                       max(x for x, _ in points), max(y for _, y in points))
            points = []
        out.append((fill, stroke, width * scale(ctm), box, None))
    return out


def _small(box: Box) -> bool:
    """A fill is small when its box is at most SMALL_FILL_PT each way, or at most THIN_PT across."""
    w, h = box[2] - box[0], box[3] - box[1]
    return max(w, h) <= SMALL_FILL_PT + 1e-9 or min(w, h) <= THIN_PT + 1e-9


def _parts_of_areas(drawn: list, ops) -> set[int]:
    """The instructions painting a small dark fill that is a part of a dark area (a fill too large
    to be small) of its own colour: on it or touching it (within THIN_PT), or touching such a part
    (a badge on its panel, a shape built of pieces). In 100 % K they would print as darker patches
    on the area, so they keep its colour."""
    areas, small = [], {}
    for n, ((fill, _, _, box, _), instruction) in enumerate(zip(drawn, ops)):
        if str(instruction.operator) in _FILLED and box is not None and is_black(fill):
            if _small(box):
                small[n] = (fill, box)
            else:
                areas.append((fill, box))
    # Each small fill is looked for only in the cells of a grid its box (and THIN_PT round it)
    # covers: a face of thousands of pixel-art squares, each touching the next, was checked against
    # every other at each step (16 s for 8,000; hostile10). A box over too many cells is looked at
    # from every side instead.
    grid: dict[tuple[int, int], list[int]] = {}
    loose: list[int] = []
    for n, (_, box) in small.items():
        cells = _cells(box)
        if cells is None:
            loose.append(n)
        for cell in cells or ():
            grid.setdefault(cell, []).append(n)
    parts: set[int] = set()
    while areas:
        found = []
        for fill, box in areas:
            cells = _cells(box)
            near = list(small) if cells is None else loose + [n for cell in cells for n in grid.get(cell, ())]
            for n in near:
                if n in small and small[n][0] == fill and _touch(small[n][1], box):
                    parts.add(n)
                    found.append(small.pop(n))
        areas = found
    return parts


CELL_PT = SMALL_FILL_PT + 2 * THIN_PT  # the side of a cell of _parts_of_areas' grid: a small fill's box covers 4 at most
MAX_CELLS = 1024


def _cells(box: Box) -> list[tuple[int, int]] | None:
    """The grid cells ``box`` and THIN_PT round it cover; None when more than MAX_CELLS."""
    x0, y0 = math.floor((box[0] - THIN_PT) / CELL_PT), math.floor((box[1] - THIN_PT) / CELL_PT)
    x1, y1 = math.floor((box[2] + THIN_PT) / CELL_PT), math.floor((box[3] + THIN_PT) / CELL_PT)
    if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS:
        return None
    return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]


def _touch(a: Box, b: Box) -> bool:
    """Whether two boxes overlap or lie within THIN_PT of each other."""
    return a[0] <= b[2] + THIN_PT and b[0] <= a[2] + THIN_PT and a[1] <= b[3] + THIN_PT and b[1] <= a[3] + THIN_PT


def _round(cmyk) -> tuple[float, ...]:
    return tuple(round(v, 4) for v in cmyk)
