"""Drawing stage: SVG text → a ReportLab vector drawing (svglib); no rasterising."""

from __future__ import annotations

import logging

from reportlab.graphics import shapes
from reportlab.graphics.shapes import Drawing
from svglib.svglib import SvgRenderer

from pnpgen.render.vector import parse_svg

# svglib logs and skips what it cannot draw; a designer needs that as an error, not a log line.
logging.getLogger("svglib.svglib").setLevel(logging.ERROR)


def use_default_font(name: str) -> None:
    """Make ReportLab's graphics state start from an embedded font instead of Helvetica,
    so no page references a font that is not embedded."""
    shapes.STATE_DEFAULTS["fontName"] = name


class SvgConverter:
    """Converts SVG text to drawings, once per distinct SVG (identical copies share one)."""

    def __init__(self) -> None:
        self._cache: dict[str, Drawing] = {}

    def drawing(self, svg: str, where: str) -> Drawing:
        cached = self._cache.get(svg)
        if cached is not None:
            return cached
        root = parse_svg(svg, where)
        drawing = SvgRenderer("").render(root)
        self._cache[svg] = drawing
        return drawing
