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

import hashlib

from reportlab.pdfbase.pdfdoc import (
    PDFArrayCompact,
    PDFAxialShading,
    PDFDictionary,
    PDFExponentialFunction,
    PDFName,
    PDFRadialShading,
    PDFResourceDictionary,
    PDFStitchingFunction,
)

from pnpgen.pdf.colour import to_cmyk
from pnpgen.svg.gradient import Stops


def draw_paint(canvas, item: tuple, cmyk: bool) -> None:
    """Place the gradient-painted shape as a form of its own, defined once per document."""
    _, ops, op, area, fill, stroke = item
    key = repr((ops, op, area, fill, stroke, cmyk)).encode()
    name = "Grad" + hashlib.sha256(key).hexdigest()[:24]
    if not canvas.hasForm(name):
        patterns = {}
        head = []
        if fill is not None:
            patterns["GradFill"] = _pattern(fill, cmyk)
            head.append("/Pattern cs /GradFill scn")
        if stroke is not None:
            patterns["GradStroke"] = _pattern(stroke, cmyk)
            head.append("/Pattern CS /GradStroke SCN")
        # fill, then stroke, as B means: pdfium paints a pattern stroke of B under the fill
        paint = f"{ops} {op[1:] and 'f*' or 'f'} {ops} S" if op.startswith("B") else f"{ops} {op}"
        _form(canvas, name, area, " ".join([*head, paint]), patterns)
    canvas.doForm(name)


def _form(canvas, name: str, area: tuple, content: str, patterns: dict) -> None:
    """A form XObject over ``area`` whose /Resources hold ``patterns`` (and the document's
    fonts, which ReportLab's form preamble names)."""
    x0, y0, x1, y1 = area
    canvas.beginForm(name, x0, y0, x1, y1)
    canvas.addLiteral(content)
    resources = PDFResourceDictionary(Pattern=patterns)
    resources.basicFonts()
    canvas.endForm(Resources=resources)


def _pattern(spec: tuple, cmyk: bool):
    """A shading pattern (PatternType 2) for a spec from ``pnpgen.svg.gradient.shading``."""
    kind, coords, domain, matrix, stops, spread = spec
    fn = _function(stops, domain, spread, cmyk)
    space = "DeviceCMYK" if cmyk else "DeviceRGB"
    extra = {"Extend": "[true true]", "Domain": PDFArrayCompact(domain)}
    sh = PDFAxialShading(*coords, Function=fn, ColorSpace=space, **extra) if kind == "axial" \
        else PDFRadialShading(*coords, Function=fn, ColorSpace=space, **extra)
    return PDFDictionary({"Type": PDFName("Pattern"), "PatternType": 2, "Shading": sh,
                          "Matrix": PDFArrayCompact([_round(v) for v in matrix])})


def _round(v: float) -> float:
    return round(v, 6) + 0.0


def _function(stops: Stops, domain: tuple, spread: str, cmyk: bool):
    """The stops as one function over 0 … 1 (a stitching of linear pieces; a stop pair at one
    offset is a hard edge), repeated or mirrored per period of ``domain`` for reflect/repeat."""

    def colour(s) -> list[float]:
        return [_round(v) for v in (to_cmyk(*s[1:]) if cmyk else s[1:])]

    pts = list(stops)
    if pts[0][0] > 0:
        pts.insert(0, (0.0, *pts[0][1:]))
    if pts[-1][0] < 1:
        pts.append((1.0, *pts[-1][1:]))
    pieces = [(a[0], b[0], PDFExponentialFunction(colour(a), colour(b), 1))
              for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
    if len(pieces) == 1:
        base = pieces[0][2]
    else:
        base = PDFStitchingFunction([p[2] for p in pieces], [_round(p[0]) for p in pieces[1:]],
                                    [0, 1] * len(pieces), Domain=PDFArrayCompact([0, 1]))
    k0, k1 = int(domain[0]), int(domain[1])
    if k1 - k0 == 1 and k0 == 0:
        return base
    encode: list[int] = []
    for k in range(k0, k1):
        encode.extend((1, 0) if spread == "reflect" and k % 2 else (0, 1))
    return PDFStitchingFunction([base] * (k1 - k0), list(range(k0 + 1, k1)), encode,
                                Domain=PDFArrayCompact([k0, k1]))
