"""Text outlined (アウトライン化): every glyph of every text object drawn as a filled path from the
embedded font, for printers that ask for no live text. A pass over a finished PDF through pikepdf:
each ``BT … ET`` whose fonts are embedded TrueType subsets (simple, or Type0 over CIDFontType2 as the writer embeds them)
becomes the glyphs' outlines, placed by the text matrix, font size, character and word spacing,
horizontal scale and rise of the text state, filled (non-zero winding, as TrueType outlines are
drawn) in the colour in effect; the fonts then leave the resources. Text in another font type or
render mode is left as it is and reported.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

from pnpgen.pdf.forms import with_forms
from pnpgen.pdf.matrix import point, times
from pnpgen.pdf.resave import pdf_bytes

_TEXT_STATE = {"Tc", "Tw", "Tz", "TL", "Tf", "Tr", "Ts"}


class _PathPen(BasePen):
    """Glyph outlines → PDF path operators, through an affine map (a, b, c, d, e, f)."""

    def __init__(self, glyphset, matrix):
        super().__init__(glyphset)
        self.m = matrix
        self.ops: list = []

    def _pt(self, p):
        x, y = point(self.m, *p)
        return [round(x, 4), round(y, 4)]

    def _moveTo(self, p):
        self.ops.append((self._pt(p), "m"))

    def _lineTo(self, p):
        self.ops.append((self._pt(p), "l"))

    def _curveToOne(self, p1, p2, p3):
        self.ops.append((self._pt(p1) + self._pt(p2) + self._pt(p3), "c"))

    def _closePath(self):
        self.ops.append(([], "h"))


@lru_cache(maxsize=64)
def _font(data: bytes):
    font = TTFont(io.BytesIO(data))
    cmap: dict[int, str] = {}
    for table in font["cmap"].tables if "cmap" in font else ():
        for code, name in table.cmap.items():
            cmap.setdefault(code, name)
    return font.getGlyphSet(), cmap, font["head"].unitsPerEm, font.getGlyphOrder()



def cid_widths(w) -> dict[int, float]:
    """A CIDFont's ``/W`` array as code → width (ISO 32000-1 §9.7.4.3: ``c [w1 w2 …]`` and
    ``c_first c_last w``); an array cut short ends where it is."""
    import pikepdf

    widths: dict[int, float] = {}
    w = list(w)
    i = 0
    while i + 1 < len(w):
        first = int(w[i])
        if isinstance(w[i + 1], pikepdf.Array):
            widths.update((first + k, float(v)) for k, v in enumerate(w[i + 1]))
            i += 2
        elif i + 2 < len(w):
            widths.update((code, float(w[i + 2])) for code in range(first, int(w[i + 1]) + 1))
            i += 3
        else:
            break
    return widths

def _shown(font):
    """(glyph set, code → glyph name, code → width in text space units, two-byte codes?, units per
    em) of an embedded TrueType font: a simple one (codes through its cmap) or a Type0 over a
    CIDFontType2 with Identity-H codes that are the font's glyph ids (pdf/writer.py); else None."""

    if font is None:
        return None
    if font.get("/Subtype") == "/Type0":
        if font.get("/Encoding") != "/Identity-H":
            return None
        cid = font.DescendantFonts[0]
        desc = cid.get("/FontDescriptor", {})
        if cid.get("/Subtype") != "/CIDFontType2" or "/FontFile2" not in desc or cid.get("/CIDToGIDMap", "/Identity") != "/Identity":
            return None
        glyphset, _, upm, order = _font(bytes(desc.FontFile2.read_bytes()))
        widths = cid_widths(cid.get("/W", []))
        dw = float(cid.get("/DW", 1000))
        return (glyphset, lambda code: order[code] if code < len(order) else None,
                lambda code: widths.get(code, dw) / 1000, True, upm)
    if font.get("/Subtype") != "/TrueType" or "/FontFile2" not in font.get("/FontDescriptor", {}):
        return None
    glyphset, cmap, upm, _ = _font(bytes(font.FontDescriptor.FontFile2.read_bytes()))
    first, simple = int(font.get("/FirstChar", 0)), font.get("/Widths", [])
    return (glyphset, cmap.get,
            lambda code: float(simple[code - first]) / 1000 if 0 <= code - first < len(simple) else 0.0, False, upm)


def outline_text(pdf: bytes) -> tuple[bytes, list[str]]:
    """The PDF with its text drawn as paths; and what could not be outlined."""
    import pikepdf

    left: list[str] = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        seen: set = set()
        for obj in with_forms([page.obj for page in doc.pages], seen):
            _outline(doc, obj, left)
        if "kept fonts" not in left:  # no text left: no font is named any more
            for obj in [page.obj for page in doc.pages] + [doc.get_object(og) for og in seen]:
                res = obj.get("/Resources")
                if res is not None and "/Font" in res:
                    del res["/Font"]
        left = [w for w in left if w != "kept fonts"]
        return pdf_bytes(doc), sorted(set(left))


def _outline(doc, obj, left: list[str]) -> None:
    import pikepdf
    from pikepdf import Operator

    res = obj.get("/Resources")
    fonts = res.get("/Font") if res is not None else None
    if not fonts:
        return
    ops = pikepdf.parse_content_stream(obj)
    out: list = []
    text: list | None = None  # a text object's operators, kept in case it cannot be outlined
    paths: list = []
    ok = True
    tm = tlm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    state = {"Tc": 0.0, "Tw": 0.0, "Tz": 100.0, "TL": 0.0, "Tr": 0, "Ts": 0.0}
    font: Any = None
    size = 0.0
    kept_fonts: set[str] = set()  # fonts of text left as text

    def show(string: bytes, adjust: float = 0.0) -> None:
        nonlocal tm, ok
        if adjust:
            tm = times((1, 0, 0, 1, -adjust / 1000 * size * state["Tz"] / 100, 0), tm)
        shown = _shown(font)
        if shown is None:
            ok = False
            return
        glyphset, names, width, two_bytes, upm = shown
        h = state["Tz"] / 100
        codes = [int.from_bytes(string[i:i + 2], "big") for i in range(0, len(string) - 1, 2)] if two_bytes \
            else list(string)
        for code in codes:
            name = names(code)
            if name is not None and name in glyphset:
                s = size / upm
                trm = times((s * h, 0, 0, s, 0, state["Ts"]), tm)
                pen = _PathPen(glyphset, trm)
                glyphset[name].draw(pen)
                paths.extend(pen.ops)
            w = width(code)
            tx = (w * size + state["Tc"] + (state["Tw"] if code == 32 else 0.0)) * h
            tm = times((1, 0, 0, 1, tx, 0), tm)

    for instruction in ops:
        operands, op = instruction.operands, instruction.operator
        name = str(op)
        if name == "BT":
            text, paths, ok = [(operands, op)], [], True
            tm = tlm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            continue
        if text is None:
            if name in _TEXT_STATE:  # text state set outside a text object persists into the next
                _set_state(state, name, operands)
                if name == "Tf":
                    font, size = fonts.get(operands[0]), float(operands[1])
            out.append((operands, op))
            continue
        text.append((operands, op))
        if name == "ET":
            if ok and state["Tr"] == 0:
                if paths:
                    out.extend(paths)
                    out.append(([], Operator("f")))
            else:
                out.extend(text)
                kept_fonts.update(str(a[0]) for a, o in text if str(o) == "Tf")
                left.append("text in a font or render mode that cannot be outlined: left as text")
            text = None
        elif name in _TEXT_STATE:
            _set_state(state, name, operands)
            if name == "Tf":
                font, size = fonts.get(operands[0]), float(operands[1])
        elif name == "Tm":
            tm = tlm = tuple(float(v) for v in operands)  # type: ignore[assignment]
        elif name in ("Td", "TD"):
            tx, ty = float(operands[0]), float(operands[1])
            if name == "TD":
                state["TL"] = -ty
            tm = tlm = times((1, 0, 0, 1, tx, ty), tlm)
        elif name == "T*":
            tm = tlm = times((1, 0, 0, 1, 0, -state["TL"]), tlm)
        elif name in ("Tj", "'", '"'):
            if name != "Tj":
                if name == '"':
                    state["Tw"], state["Tc"] = float(operands[0]), float(operands[1])
                tm = tlm = times((1, 0, 0, 1, 0, -state["TL"]), tlm)
            show(bytes(operands[-1]))
        elif name == "TJ":
            adjust = 0.0
            for item in operands[0]:
                if isinstance(item, pikepdf.String):
                    show(bytes(item), adjust)
                    adjust = 0.0
                else:
                    adjust += float(item)
            if adjust:
                show(b"", adjust)
        elif name not in ("Tj",):
            pass  # colour and graphics state inside the text object apply to its paths as well
    obj_data = pikepdf.unparse_content_stream(out)
    if isinstance(obj, pikepdf.Stream):
        obj.write(obj_data)
    else:
        obj.Contents = doc.make_stream(obj_data)
    if kept_fonts:
        left.append("kept fonts")


def _set_state(state: dict, name: str, operands) -> None:
    if name in ("Tc", "Tw", "Tz", "TL", "Ts"):
        state[name] = float(operands[0])
    elif name == "Tr":
        state["Tr"] = int(operands[0])
