"""Lines drawn at least a shop's thinnest line, as printed: a print shop's rulebook (exports/book.py)
shows the pieces' faces drawn smaller (a card's 0.57 pt border at a third of its size is a 0.19 pt
hairline), so every stroke its pages paint thinner than ``min_pt`` — its width through the matrices
in force where it is painted: the stream's ``cm`` and, for a form, the smallest scale any page
places it at (a face's form is drawn once and placed wherever the book shows it) — is drawn
``min_pt`` wide where it is placed smallest, and no thinner anywhere else. Nothing else changes:
the path, its colour and the lines already wide enough stay as they are. A width is the last
``w`` or graphics state's ``/LW`` (``gs``); a form stroking with the width it inherits has that of
its placements when they all agree, and is left as it is where they do not (unknown, never guessed).
"""

from __future__ import annotations

import io
import math
from typing import Any

from pnpgen.pdf.colour import write_content
from pnpgen.pdf.matrix import IDENTITY, Matrix, scale, times
from pnpgen.pdf.resave import pdf_bytes

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
        least, forms, inherited = placements(doc)
        pages = [page.obj for page in doc.pages]
        widened = sum(_widen(doc, page, 1.0, min_pt, 1.0) for page in pages)
        widened += sum(_widen(doc, forms[key], least[key], min_pt, inherited[key]) for key in sorted(forms))
        if not widened:
            return pdf, 0
        return pdf_bytes(doc), widened


def placements(doc: Any) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], Any],
                                   dict[tuple[int, int], float | None]]:
    """For each form the pages of ``doc`` draw (and the forms in them): the smallest scale any page
    places it at, its own ``/Matrix`` counted (a face's form placed at a quarter of its size in the
    shop's rulebook: 0.25); the form; the line width its placements give it (None: unlike)."""
    least: dict[tuple[int, int], float] = {}
    forms: dict[tuple[int, int], Any] = {}
    inherited: dict[tuple[int, int], float | None] = {}
    for page in doc.pages:
        _placements(page.obj, 1.0, least, forms, 0, inherited, 1.0)
    return least, forms, inherited


def _matrix(operands: Any) -> Matrix:
    if operands is None or len(operands) != 6:
        return IDENTITY
    try:
        a, b, c, d, e, f = (float(v) for v in operands)
    except (TypeError, ValueError):  # (not numbers: no matrix a reader applies)
        return IDENTITY
    return (a, b, c, d, e, f)


def _width(obj: Any, name: str, operands: Any, width: float | None) -> float | None:
    """The line width after ``w`` or ``gs`` (a graphics state's ``/LW``); None where it cannot be read."""
    try:
        if name == "w":
            return float(operands[0]) if operands else None
        res = obj.get("/Resources")
        states = res.get("/ExtGState") if res is not None else None
        gs = states.get(str(operands[0])) if states is not None and operands else None
        return float(gs.LW) if gs is not None and "/LW" in gs else width
    except (TypeError, ValueError, AttributeError):
        return None


def _placements(obj: Any, outer: float, least: dict, forms: dict, depth: int, inherited: dict,
                width: float | None) -> None:
    """Record, for each form ``obj`` draws (and they draw), the smallest scale it is placed at and
    the line width it is given there (``inherited``: None where two placements differ); a form is
    read again only when it is placed smaller than before or given another width."""
    import pikepdf

    if depth > _DEPTH:
        return
    res = obj.get("/Resources")
    xobjects = res.get("/XObject") if res is not None else None
    if xobjects is None:
        return
    ctm, stack = IDENTITY, []
    for instruction in pikepdf.parse_content_stream(obj):
        name = str(instruction.operator)
        if name == "q":
            stack.append((ctm, width))
        elif name == "Q" and stack:
            ctm, width = stack.pop()
        elif name == "cm":
            ctm = times(_matrix(instruction.operands), ctm)
        elif name in ("w", "gs"):
            width = _width(obj, name, instruction.operands, width)
        elif name == "Do" and instruction.operands:
            form = xobjects.get(str(instruction.operands[0]))
            if form is None or form.get("/Subtype") != "/Form":
                continue
            placed = outer * scale(ctm) * scale(_matrix(form.get("/Matrix")))
            key = form.objgen
            given = width if inherited.get(key, width) == width else None
            if placed < least.get(key, math.inf) - 1e-12 or key not in inherited or given != inherited[key]:
                least[key], forms[key] = min(placed, least.get(key, math.inf)), form
                inherited[key] = given
                _placements(form, least[key], least, forms, depth + 1, inherited, given)


def _widen(doc: Any, obj: Any, outer: float, min_pt: float, width: float | None) -> int:
    """Rewrite one content stream (``outer``: the scale it is placed at, smallest; ``width``: the line
    width it begins with, None when unknown), each thin stroke's width set where its path starts
    and the width in force set back after it."""
    import pikepdf
    from pikepdf import Operator

    ops = pikepdf.parse_content_stream(obj)
    out: list = []
    ctm, stack = IDENTITY, []
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
            ctm = times(_matrix(operands), ctm)
        elif name in ("w", "gs"):
            width = _width(obj, name, operands, width)
        elif name in _PATH and path_start is None:
            path_start = len(out)
        elif name in _PAINT:
            placed = outer * scale(ctm)
            if name in _STROKED and path_start is not None and width is not None and placed > 0 \
                    and width * placed < min_pt - 1e-9:
                out.insert(path_start, ([math.ceil(min_pt / placed * 1e4) / 1e4], Operator("w")))
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
