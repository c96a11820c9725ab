"""Lines drawn at least a shop's thinnest line, as printed: a print shop's rulebook (exports/book.py)
shows the pieces' faces drawn smaller (a card's 0.57 pt border at a third of its size is a 0.19 pt
hairline), so every stroke its pages paint thinner than ``min_pt`` — its width through the matrices
in force where it is painted: the stream's ``cm`` and, for a form, the smallest scale any page
places it at (a face's form is drawn once and placed wherever the book shows it) — is drawn
``min_pt`` wide where it is placed smallest, and no thinner anywhere else. Nothing else changes:
the path, its colour and the lines already wide enough stay as they are.
"""

from __future__ import annotations

import io
import math
from typing import Any

from pnpgen.pdf.colour import write_content

Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_PATH = frozenset(("m", "l", "c", "v", "y", "h", "re"))
_STROKED = frozenset(("S", "s", "B", "B*", "b", "b*"))
_PAINT = _STROKED | frozenset(("f", "F", "f*", "n"))
_DEPTH = 12  # forms inside forms, as deep as a shop's preflight reads them


def widen_lines(pdf: bytes, min_pt: float) -> tuple[bytes, int]:
    """The PDF with every stroke thinner than ``min_pt`` as printed drawn ``min_pt`` wide, and how
    many strokes (painting instructions, a form's counted once) were widened; the PDF as it was
    when none was."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        least: dict[tuple[int, int], float] = {}  # a form's smallest placement scale
        forms: dict[tuple[int, int], Any] = {}
        pages = [page.obj for page in doc.pages]
        for page in pages:
            _placements(page, 1.0, least, forms, 0)
        widened = sum(_widen(doc, page, 1.0, min_pt) for page in pages)
        widened += sum(_widen(doc, forms[key], least[key], min_pt) for key in sorted(forms))
        if not widened:
            return pdf, 0
        out = io.BytesIO()
        doc.save(out, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue(), widened


def _scale(m: Matrix) -> float:
    """How much a matrix scales a line's width: the square root of its determinant's size."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def _times(m: Matrix, n: Matrix) -> Matrix:
    """m then n: a ``cm`` (m) applied inside the matrix in effect (n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _matrix(operands: Any) -> Matrix:
    if operands is None or len(operands) != 6:
        return _IDENTITY
    a, b, c, d, e, f = (float(v) for v in operands)
    return (a, b, c, d, e, f)


def _placements(obj: Any, outer: float, least: dict, forms: dict, depth: int) -> None:
    """Record, for each form ``obj`` draws (and they draw), the smallest scale it is placed at;
    a form is read again only when it is placed smaller than before."""
    import pikepdf

    if depth > _DEPTH:
        return
    res = obj.get("/Resources")
    xobjects = res.get("/XObject") if res is not None else None
    if xobjects is None:
        return
    ctm, stack = _IDENTITY, []
    for instruction in pikepdf.parse_content_stream(obj):
        name = str(instruction.operator)
        if name == "q":
            stack.append(ctm)
        elif name == "Q" and stack:
            ctm = stack.pop()
        elif name == "cm":
            ctm = _times(_matrix(instruction.operands), ctm)
        elif name == "Do" and instruction.operands:
            form = xobjects.get(str(instruction.operands[0]))
            if form is None or form.get("/Subtype") != "/Form":
                continue
            scale = outer * _scale(ctm) * _scale(_matrix(form.get("/Matrix")))
            key = form.objgen
            if scale < least.get(key, math.inf) - 1e-12:
                least[key], forms[key] = scale, form
                _placements(form, scale, least, forms, depth + 1)


def _widen(doc: Any, obj: Any, outer: float, min_pt: float) -> int:
    """Rewrite one content stream (``outer``: the scale it is placed at, smallest), each thin
    stroke's width set where its path starts and the width in force set back after it."""
    import pikepdf
    from pikepdf import Operator

    ops = pikepdf.parse_content_stream(obj)
    out: list = []
    ctm, width, stack = _IDENTITY, 1.0, []
    path_start: int | None = None
    widened = 0
    for instruction in ops:
        operands, op = instruction.operands, instruction.operator
        name = str(op)
        if name == "q":
            stack.append((ctm, width))
        elif name == "Q" and stack:
            ctm, width = stack.pop()
        elif name == "cm":
            ctm = _times(_matrix(operands), ctm)
        elif name == "w" and operands:
            width = float(operands[0])
        elif name in _PATH and path_start is None:
            path_start = len(out)
        elif name in _PAINT:
            scale = outer * _scale(ctm)
            if name in _STROKED and path_start is not None and scale > 0 and width * scale < min_pt - 1e-9:
                out.insert(path_start, ([math.ceil(min_pt / scale * 1e4) / 1e4], Operator("w")))
                out.append((operands, op))
                out.append(([width], Operator("w")))
                widened += 1
                path_start = None
                continue
            path_start = None
        out.append((operands, op))
    if widened:
        write_content(doc, obj, out)
    return widened
