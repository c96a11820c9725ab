"""Faces outside the converter's subset (``Art.fallback``): their SVG drawn by svglib as a
ReportLab vector drawing (no rasterising), on a canvas that keeps pnpgen's rules — gradients as
the converter's shading forms, no transparency, CMYK colours in a CMYK document."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from pnpgen import fonts
from pnpgen.errors import InputError
from pnpgen.pdf import settings
from pnpgen.pdf.colour import to_cmyk
from pnpgen.pdf.resave import pdf_bytes
from pnpgen.pdf.shading import draw_paint
from pnpgen.pdf.subsettags import fonts_in, retag
from pnpgen.svg.artwork import Art, paint_item
from pnpgen.svg.image import file_references
from pnpgen.svg.style import IDENTITY, parse_svg
from pnpgen.svg.text import known_font, text_fonts

# svglib and reportlab.graphics take half a second to import: they are imported where a face
# outside the subset is drawn, not by every build.

# svglib logs and skips what it cannot draw; a designer needs that as an error, not a log line.
logging.getLogger("svglib.svglib").setLevel(logging.ERROR)

_svglib_fonts: set[tuple[str, str]] = set()  # (name, file) told to svglib


def _register_fonts(names: Iterable[str]) -> None:
    """Tell svglib about the fonts a face's text names (ReportLab registers each on first use):
    those alone, not every font this process located — in ``watch``, a font game.yaml named
    before an edit (a broken one, say) is never read again for a face that does not use it."""
    from svglib.fonts import register_font

    for name in dict.fromkeys(names):
        told = (name, str(fonts.path_of(name)))
        if told not in _svglib_fonts:
            fonts.ttfont(name)
            register_font(name, told[1], rlgFontName=name)
            _svglib_fonts.add(told)


class SvgConverter:
    """Converts SVG text to drawings, once per distinct SVG (identical copies share one)."""

    def __init__(self) -> None:
        self._cache: dict[str, Any] = {}

    def drawing(self, svg: str, where: str) -> Any:
        """svglib's ``reportlab.graphics.shapes.Drawing`` of the SVG."""
        from svglib.svglib import SvgRenderer

        cached = self._cache.get(svg)
        if cached is not None:
            return cached
        root = parse_svg(svg, where)
        for el, attr, href in file_references(root):  # svglib opens these itself, relative to any folder
            if not href.startswith("data:"):
                raise InputError(f"{where}: a face outside the converter's subset refers to {href[:60]!r}, "
                                 "a file svglib would read from outside the game",
                                 expected="href=\"#id\" of an element of the face, or <image href> of a file in art/")
            del el.attrib[attr]  # data svglib cannot draw (an SVG picture) would be taken for a file name
        told = [font for _, family in text_fonts(root) if family and (font := known_font(family))]
        _register_fonts(told)
        _plain_faces(root)
        drawing = SvgRenderer("").render(root)
        _refuse_other_fonts(drawing, set(told), where)
        self._cache[svg] = drawing
        return drawing


# font-weight and font-style as presentation attributes or in a style attribute
_FACE_DECLARATION = re.compile(r"(?i)(^|;)\s*font-(?:weight|style)\s*:[^;]*")


def _plain_faces(root) -> None:
    """Take font-weight and font-style off the face, as the converter sets a text in the font its
    font-family names whatever they say: svglib, asked for the bold face of a font it was told
    of only as itself, took one from the system (fc-match: DejaVuSans-Bold here), without the
    Japanese glyphs — 太字 printed as two empty boxes, in a font of this machine's."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for key in ("font-weight", "font-style"):
            el.attrib.pop(key, None)
        style = el.get("style")
        if style and "font-" in style:
            el.set("style", _FACE_DECLARATION.sub(r"\1", style))


def _refuse_other_fonts(drawing, told: set[str], where: str) -> None:
    """An error for text svglib set in a font the face does not name among the game's (one of
    this machine's it found, or ReportLab's unembedded Helvetica): what prints would not be the
    game's letters, nor the same on another machine."""
    from reportlab.graphics.shapes import String

    stack = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String) and node.text.strip() and node.fontName not in told:
            raise InputError(f"{where}: a face outside the converter's subset sets {node.text[:20]!r} in "
                             f"{node.fontName}, not one of the game's fonts its text names (svglib, which draws "
                             "such a face, found it itself)",
                             expected="font-family naming a font of fonts/ on every text, in the face's own "
                                      "attributes (not a <style> sheet)")
        stack.extend(getattr(node, "contents", ()))


FONT_SIZE = 12  # the size a canvas starts with (Canvas's default initialFontSize)


def give_font(canvas, font: str) -> None:
    """Say which font ``canvas`` was made with (``initialFontName``, a font its document embeds):
    a face outside the subset drawn on it starts from that font (``draw_fallback``)."""
    canvas.pnpgen_font = font


def draw_fallback(canvas, art: Art, cmyk: bool) -> None:
    """Paint a face outside the subset (``art.svg``) at the canvas's current transform."""
    from reportlab.graphics import renderPDF

    drawing = _fallback_drawing(art.svg, cmyk)
    # renderPDF starts every drawing by setting its font, ReportLab's Helvetica unless the drawing
    # names one: a font the page names and never embeds, which PDF/X and shops' preflights refuse.
    # The font the canvas was made with (the document's, embedded: ``give_font``) is named instead.
    drawing.initialFontName = getattr(canvas, "pnpgen_font", None) or settings.canvas_font()
    drawing.initialFontSize = FONT_SIZE
    canvas = FallbackCanvas(canvas, cmyk)  # its gradients carry their resources; no alpha
    if not cmyk:
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)
        return
    # renderPDF starts from ReportLab's default (RGB) black; a CMYK file must not hold even that
    with settings.cmyk_black_defaults():
        renderPDF.draw(drawing, canvas, 0, 0, showBoundary=False)


@lru_cache(maxsize=64)
def _fallback_drawing(svg: str, cmyk: bool):
    """svglib's drawing of a face outside the subset; with ``cmyk`` its colours made CMYK
    (its gradients are made CMYK as they are drawn, by FallbackCanvas)."""
    from reportlab.lib.colors import CMYKColor, Color

    drawing = SvgConverter().drawing(svg, "")
    if cmyk:
        stack = [drawing]
        while stack:
            node = stack.pop()
            for attr in ("fillColor", "strokeColor"):
                c = getattr(node, attr, None)
                if isinstance(c, Color) and not isinstance(c, CMYKColor):
                    setattr(node, attr, CMYKColor(*to_cmyk(c.red, c.green, c.blue)))
            stack.extend(getattr(node, "contents", ()))
    return drawing


FALLBACK_AREA = (-14400.0, -14400.0, 14400.0, 14400.0)  # points: beyond any page; svglib clips first


class FallbackCanvas:
    """The canvas svglib's drawing of a face (outside the subset) is drawn on: its gradients —
    ReportLab's ``linearGradient``/``radialGradient``, which in a form XObject name a /Shading
    the form does not carry — are drawn as the converter's are (a shading pattern in a form of
    its own, CMYK in a CMYK document); transparency (an ExtGState, which the form would not carry
    either) is an error; everything else goes to the canvas unchanged."""

    def __init__(self, canvas, cmyk: bool):
        object.__setattr__(self, "canvas", canvas)
        object.__setattr__(self, "cmyk", cmyk)

    def __getattr__(self, name: str):
        return getattr(self.canvas, name)

    def __setattr__(self, name: str, value) -> None:  # the renderer sets state on its canvas
        setattr(self.canvas, name, value)

    def setFillAlpha(self, alpha: float) -> None:
        _opaque(alpha, "fill")

    def drawInlineImage(self, image, x, y, width=None, height=None, **kwargs):
        """svglib draws its images inline. ReportLab writes inline image data as text only in
        ASCII85; with Flate-only streams (pnpgen.pdf.settings) it would put bytes among the
        page's text and fail, so an inline image alone is written in ASCII85. In a CMYK document
        the picture is an image XObject instead, as the converter's pictures are: an RGB inline
        image escaped the CMYK conversion of pictures (pdf/pdfx.py) and the ink check."""
        if self.cmyk:
            from reportlab.lib.utils import ImageReader

            picture = ImageReader(image) if hasattr(image, "mode") else image  # svglib's PIL image, or a path
            return self.canvas.drawImage(picture, x, y, width, height, **kwargs)
        with settings.ascii85_streams():
            return self.canvas.drawInlineImage(image, x, y, width, height, **kwargs)

    def setStrokeAlpha(self, alpha: float) -> None:
        _opaque(alpha, "stroke")

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True) -> None:
        self._gradient("axial", (x0, y0, x1, y1), colors, positions)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True) -> None:
        self._gradient("radial", (x, y, 0.0, x, y, radius), colors, positions)

    def _gradient(self, kind: str, coords: tuple, colors, positions) -> None:
        """Fill the current clip (svglib sets it to the shape) with the gradient."""
        n = len(colors)
        offsets = list(positions) if positions else [i / max(1, n - 1) for i in range(n)]
        stops: list[tuple[float, float, float, float]] = []
        for o, c in zip(offsets, colors):
            stops.append((min(1.0, max(stops[-1][0] if stops else 0.0, float(o))), *c.rgb()))
        spec = (kind, tuple(float(v) for v in coords), (0.0, 1.0), IDENTITY, tuple(stops), "pad")
        x0, y0, x1, y1 = FALLBACK_AREA
        draw_paint(self.canvas, paint_item(f"{x0:g} {y0:g} {x1 - x0:g} {y1 - y0:g} re", "f", FALLBACK_AREA,
                                           spec, None), self.cmyk)


def _opaque(alpha: float, what: str) -> None:
    """Opaque is the state a face starts in: nothing to write; anything less is an error."""
    if alpha < 1:
        raise InputError(f"the face has a {what} of opacity {alpha:g}: print files cannot contain transparency",
                         expected="an opaque tint colour instead of opacity or rgba()")


def put_fallback_faces(pdf: bytes, faces: dict[str, Art], cmyk: bool, font: str) -> bytes:
    """``pdf`` (from pdf/writer.py) with each face outside the subset drawn by svglib: the writer
    leaves an empty form named ``name`` for each; ReportLab draws the face on a page of its own
    (``font`` the page's starting font, so no unembedded font is named), and that page, as a
    form, takes the stand-in's place (pikepdf's public API)."""
    import io

    import pikepdf
    from reportlab.pdfgen import canvas as rl_canvas

    settings.flate_only()
    # The page's starting font registered with ReportLab, which names it in the page's preamble: a
    # build whose text was measured from the fonts' kept tables (imports46) never registered it,
    # and a face of no text of its own (a back of shapes and a <switch>) stopped with ReportLab's
    # KeyError "no afm found for faceName='BIZUDPGothic-Regular'", a traceback (hostile47)
    fonts.drawable(font)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for name, art in sorted(faces.items()):
            drawn = io.BytesIO()
            c = rl_canvas.Canvas(drawn, pagesize=(art.width_pt, art.height_pt), invariant=1, initialFontName=font,
                                 initialFontSize=FONT_SIZE, pageCompression=1)
            give_font(c, font)
            draw_fallback(c, art, cmyk)
            c.showPage()
            c.save()
            with pikepdf.open(io.BytesIO(drawn.getvalue())) as src:
                form = doc.copy_foreign(src.pages[0].as_form_xobject())
            retag(fonts_in(form))  # each face's subsets tagged apart (pdf/subsettags.py)
            key = pikepdf.Name("/" + name)
            for page in doc.pages:
                xobjects = page.Resources.get("/XObject")
                if xobjects is not None and key in xobjects:
                    xobjects[key] = form
        return pdf_bytes(doc)
