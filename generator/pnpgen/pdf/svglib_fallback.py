"""Drawing stage: SVG text → a ReportLab vector drawing (svglib); no rasterising."""

from __future__ import annotations

import logging

from reportlab.graphics.shapes import Drawing
from svglib.svglib import SvgRenderer

from pnpgen.pdf.settings import use_default_font  # noqa: F401 - the rulebook imports it from here
from pnpgen.svg.vector import parse_svg

# svglib logs and skips what it cannot draw; a designer needs that as an error, not a log line.
logging.getLogger("svglib.svglib").setLevel(logging.ERROR)


_svglib_fonts: set[str] = set()


def _register_fonts() -> None:
    """Tell svglib about every font the data named (ReportLab registers each on first use)."""
    from svglib.fonts import register_font

    from pnpgen import fonts

    for name in fonts.registered():
        if name not in _svglib_fonts:
            fonts.ttfont(name)
            register_font(name, str(fonts.path_of(name)), rlgFontName=name)
            _svglib_fonts.add(name)


class SvgConverter:
    """Converts SVG text to drawings, once per distinct SVG (identical copies share one)."""

    def __init__(self) -> None:
        self._cache: dict[str, Drawing] = {}

    def drawing(self, svg: str, where: str) -> Drawing:
        cached = self._cache.get(svg)
        if cached is not None:
            return cached
        root = parse_svg(svg, where)
        _register_fonts()
        drawing = SvgRenderer("").render(root)
        self._cache[svg] = drawing
        return drawing
