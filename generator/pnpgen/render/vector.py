"""SVG face → vector art, converted once per distinct SVG and drawn into any PDF canvas.

Interface used by the rest of the pipeline (the converter behind it may change):

- ``convert(svg, where, resolve=None) -> Art``: parse the SVG a template produced. ``where``
  names the template/deck/piece for error messages; ``resolve(href)`` maps an ``<image href>``
  to a file path (or raises InputError).
- ``draw(canvas, art)``: draw the art on a ReportLab canvas at the current transform, in points,
  origin at the bottom-left of the SVG viewport (the bleed's corner), y up — as a
  ``reportlab.graphics`` Drawing renders at (0, 0). Called inside ``beginForm``/``endForm`` so
  that each face is drawn once per document and placed with ``doForm``.
- ``Art`` is plain, picklable data (for worker processes) and has ``to_json()`` /
  ``Art.from_json()`` for the on-disk cache.

This first implementation wraps svglib; it is replaced by a direct converter for the SVG
subset templates produce.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pnpgen.render.svgdraw import SvgConverter

_converter = SvgConverter()


@dataclass(frozen=True)
class Art:
    width_pt: float
    height_pt: float
    drawing: Any  # svglib Drawing (stand-in)


def convert(svg: str, where: str, resolve: Callable[[str], Any] | None = None) -> Art:
    d = _converter.drawing(svg, where)
    return Art(float(d.width), float(d.height), d)


def draw(canvas, art: Art) -> None:
    from reportlab.graphics import renderPDF

    renderPDF.draw(art.drawing, canvas, 0, 0, showBoundary=False)
