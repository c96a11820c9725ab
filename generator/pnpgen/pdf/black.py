"""Black that prints black: in a CMYK PDF, text and thin strokes in a near-black colour print on
the K plate alone, overprinting what is under them (スミノセ).

A palette's near-black ink (``#2b2233`` → 15.7/33.3/0/80 by pdf/colour.py) puts small text on
the C and M plates too, where the slightest misregistration blurs it; and a pure black knocks out
the ground under it, leaving a hairline of paper round every letter when the plates shift.
Printers ask for small text and lines in 100 % K, overprinting. So, in every content stream
(pages and the faces' forms):

- text (``BT … ET``, its colour set before the object or inside it, as ReportLab sets it) filled,
  and strokes at most THIN_PT wide (in points, as the face draws them: the stream's own ``cm``
  counted), in a colour whose K is at least BLACK_K after conversion and
  that is not already K only, are drawn in 0/0/0/100; so is text or a stroke already in
  0/0/0/100. A path filled and stroked at once (``B``, ``b``: a white panel's thin dark border)
  is drawn as its fill, then as its stroke alone, so only the stroke is black and overprints;
- each of them is drawn with an ExtGState of overprint on (``/OP true /op true /OPM 1``), the
  colour and overprint off again after it (``k_only(pdf, overprint=False)``: overprint off, the
  black knocking out the ground, for a shop whose ink limit the ground and the black together
  pass: pdf/overprint.py);
- fills (areas, whatever their size) keep their colour: a large dark area stays the rich black the
  designer chose; K-only greys (a 60 % grey) are left as they are, and so are the cut marks,
  drawn in the Separation ``All`` (pdf/writer.py), not in a DeviceCMYK colour.

``k_only(pdf)`` returns the new PDF and what it mapped, for the export's report.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from typing import Any

BLACK_K = 0.70  # K after conversion at or above which a colour counts as black
THIN_PT = 1.0  # strokes up to this width (points, the stream's cm counted) are lines, not areas
K100 = (0.0, 0.0, 0.0, 1.0)
OVERPRINT, KNOCKOUT = "/PnpOverprint", "/PnpKnockout"
_PATH = {"m", "l", "c", "v", "y", "h", "re"}
_PAINT = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"}
# A path both filled and stroked, as its fill alone and its stroke alone.
_SPLIT = {"B": ("f", "S"), "B*": ("f*", "S"), "b": ("f", "s"), "b*": ("f*", "s")}


@dataclass(frozen=True)
class Mapped:
    """What a PDF's black mapping changed: each original colour and how often, per kind."""

    text: Counter
    strokes: Counter
    overprint: bool = True  # False: knocking out

    def lines(self, name: str) -> list[str]:
        out = []
        how = "with overprint" if self.overprint else "knocking out the ground"
        for kind, counts in (("text", self.text), ("thin strokes", self.strokes)):
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


def k_only(pdf: bytes, overprint: bool = True) -> tuple[bytes, Mapped]:
    import pikepdf

    mapped = Mapped(Counter(), Counter(), overprint)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        states = {OVERPRINT: doc.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=True, op=True, OPM=1)),
                  KNOCKOUT: doc.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=False, op=False, OPM=0))}
        seen: set[tuple[int, int]] = set()
        for page in doc.pages:
            _rewrite(doc, page.obj, mapped, states)
            todo: list[Any] = [page.obj]
            while todo:
                obj = todo.pop()
                res = obj.get("/Resources")
                xobjects = res.get("/XObject") if res is not None else None
                for xobj in (xobjects.values() if xobjects is not None else ()):
                    if xobj.get("/Subtype") != "/Form" or xobj.objgen in seen:
                        continue
                    seen.add(xobj.objgen)
                    _rewrite(doc, xobj, mapped, states)
                    todo.append(xobj)
        if not (mapped.text or mapped.strokes):
            return pdf, mapped
        out = io.BytesIO()
        doc.save(out, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue(), mapped


def _rewrite(doc, obj, mapped: Mapped, states: dict) -> None:
    """Rewrite one content stream (a page's or a form's), adding the two ExtGStates it uses."""
    import pikepdf
    from pikepdf import Name, Operator

    ops = pikepdf.parse_content_stream(obj)
    out: list = []
    fill = stroke = None
    width = 1.0
    scale = _scale(obj.get("/Matrix")) if isinstance(obj, pikepdf.Stream) else 1.0  # user unit → points
    stack: list = []
    path_start: int | None = None
    text_colour = None  # the original fill of a text object being drawn in K
    in_text = False  # inside BT … ET
    changed = False

    def overprint(colour_op: str) -> list:
        state = OVERPRINT if mapped.overprint else KNOCKOUT
        return [([Name(state)], Operator("gs")), (list(K100), Operator(colour_op))]

    def restore(colour, colour_op: str) -> list:
        return [(list(colour), Operator(colour_op)), ([Name(KNOCKOUT)], Operator("gs"))]

    for instruction in ops:
        operands, op = instruction.operands, instruction.operator
        name = str(op)
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
            scale *= _scale(operands)
        elif name == "q":
            stack.append((fill, stroke, width, scale))
        elif name == "Q" and stack:
            fill, stroke, width, scale = stack.pop()
        if name == "BT" and is_black(fill):
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
            if is_black(fill):
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
            thin = path_start is not None and is_black(stroke) and width * scale <= THIN_PT + 1e-9
            if thin and name in ("S", "s"):
                assert stroke is not None and path_start is not None
                mapped.strokes[_round(stroke)] += 1
                out[path_start:path_start] = overprint("K")
                out.append((operands, op))
                out.extend(restore(stroke, "K"))
                path_start = None
                changed = True
                continue
            if thin and name in _SPLIT:
                assert stroke is not None and path_start is not None
                mapped.strokes[_round(stroke)] += 1
                path = [i for i in out[path_start:] if str(i[1]) in _PATH]  # the clip (W) is set once
                fill_op, stroke_op = _SPLIT[name]
                out.append(([], Operator(fill_op)))
                out.extend(overprint("K"))
                out.extend(path)
                out.append(([], Operator(stroke_op)))
                out.extend(restore(stroke, "K"))
                path_start = None
                changed = True
                continue
            path_start = None
        out.append((operands, op))
    if not changed:
        return
    data = pikepdf.unparse_content_stream(out)
    if isinstance(obj, pikepdf.Stream):
        obj.write(data)
    else:  # a page: its content stream(s) replaced by one
        obj.Contents = doc.make_stream(data)
    res = obj.get("/Resources")
    if res is None:
        obj.Resources = pikepdf.Dictionary()
        res = obj.Resources
    if "/ExtGState" not in res:
        res.ExtGState = pikepdf.Dictionary()
    for key, state in states.items():
        res.ExtGState[key] = state


def _scale(matrix) -> float:
    """How much a matrix (``cm``'s six operands, a form's /Matrix) scales a line's width: the
    square root of its determinant's size (1 for no matrix)."""
    if matrix is None or len(matrix) != 6:
        return 1.0
    a, b, c, d = (float(v) for v in list(matrix)[:4])
    return abs(a * d - b * c) ** 0.5


def _round(cmyk) -> tuple[float, ...]:
    return tuple(round(v, 4) for v in cmyk)
