"""Gradient-painted shapes (``("paint", …)`` items of an art, made by ``pnpgen.svg.gradient``)
as PDF shading patterns.

Each is written as a small Form XObject of its own — the path painted with
``/Pattern cs /GradFill scn`` — whose /Resources name the shading patterns it uses, through
ReportLab's public form API (``beginForm``/``endForm(Resources=…)``/``doForm``). So the face's
form, whatever it holds, keeps the resources ReportLab gives it, and every name a content stream
uses is in its own /Resources: no dangling ``/Sh0`` (ReportLab's own ``linearGradient`` in a form
leaves it dangling, as its form XObjects carry no /Shading).

The shading is smooth (ShadingType 2 axial, 3 radial, a stitching function of the stops),
opaque, deterministic, and its colours are CMYK in a CMYK document.
"""

from __future__ import annotations

from pnpgen.pdf.content import paint_form
from pnpgen.pdf.objects import Name


def draw_paint(canvas, item: tuple, cmyk: bool) -> None:
    """Place the gradient-painted shape as a form of its own, defined once per document (the
    writer's form, pdf/content.py ``paint_form``, in ReportLab's objects)."""
    name, paint = paint_form(item, cmyk)
    if not canvas.hasForm(name):
        patterns = {key: _reportlab(value) for key, value in paint.patterns.items()}
        _form(canvas, name, paint.area, paint.data.decode("latin-1"), patterns)
    canvas.doForm(name)


def _form(canvas, name: str, area: tuple, content: str, patterns: dict) -> None:
    """A form XObject over ``area`` whose /Resources hold ``patterns`` (and the document's
    fonts, which ReportLab's form preamble names)."""
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary  # (where ReportLab draws: imports46)

    x0, y0, x1, y1 = area
    canvas.beginForm(name, x0, y0, x1, y1)
    canvas.addLiteral(content)
    resources = PDFResourceDictionary(Pattern=patterns)
    resources.basicFonts()
    canvas.endForm(Resources=resources)


def _reportlab(value):
    """A value for pdf/objects.py as ReportLab's PDF object (booleans as their keywords)."""
    from reportlab.pdfbase.pdfdoc import PDFArrayCompact, PDFDictionary, PDFName

    if isinstance(value, dict):
        return PDFDictionary({k: _reportlab(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return PDFArrayCompact([_reportlab(v) for v in value])
    if isinstance(value, Name):
        return PDFName(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
