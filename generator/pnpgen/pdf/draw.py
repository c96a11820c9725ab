"""Drawing a face's art (``pnpgen.svg.artwork.Art``) on a ReportLab canvas.

``draw_art(canvas, art, cmyk=False)`` paints the art at the canvas's current transform, in points,
origin at the bottom-left of the SVG viewport (the bleed's corner), y up — where a
``reportlab.graphics`` Drawing of the same SVG renders at (0, 0). Meant to be called inside
``beginForm``/``endForm``, so that each face is drawn once per document and placed with
``doForm``. Pictures are placed from their streams in ``pnpgen.pdf.raster`` (each made once: ``place_image``). With ``cmyk`` every colour goes through ``pnpgen.pdf.colour.to_cmyk`` and is written
with k/K. The fonts the text names must be known to ``pnpgen.fonts`` in the drawing process too
(located by loading the game; parsed here on first use if need be). Gradient-painted shapes are
drawn by ``pnpgen.pdf.shading``, faces outside the subset by ``pnpgen.pdf.svglib_fallback``.
"""

from __future__ import annotations

from functools import lru_cache

from pnpgen import fonts
from pnpgen.pdf.content import colour_op
from pnpgen.pdf.imagestream import ImageStream
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.shading import draw_paint
from pnpgen.pdf.svglib_fallback import draw_fallback
from pnpgen.svg.artwork import Art
from pnpgen.svg.style import pdf_num


def draw_art(canvas, art: Art, cmyk: bool = False, images: ImageStreams | None = None) -> None:
    """Paint ``art`` at the canvas's current transform (points, y up); pictures are placed from
    their streams in ``images`` (pnpgen.pdf.raster), each made once per picture."""
    if art.fallback is not None:
        draw_fallback(canvas, art, cmyk)
        return
    pending: list[str] = []
    for it in art.items:
        kind = it[0]
        if kind == "ops":
            pending.append(it[1])
        elif kind == "fill" or kind == "stroke":
            pending.append(colour_op(it, cmyk))
        elif kind == "text":
            if pending:
                canvas.addLiteral(" ".join(pending))
                pending = []
            fonts.drawable(it[1])  # (an art from the cache may be drawn by a process that converted nothing)
            t = canvas.beginText()
            t.setFont(it[1], it[2])
            for x, y, chars in it[3]:
                t.setTextTransform(1, 0, 0, -1, x, y)  # user space is y-down: set glyphs upright
                t.textOut(chars)
            canvas.drawText(t)
        elif kind == "paint":
            if pending:
                canvas.addLiteral(" ".join(pending))
                pending = []
            draw_paint(canvas, it, cmyk)
        else:  # image
            _, data, x, y, w, h = it
            pending.append(f"q 1 0 0 -1 0 {pdf_num(2 * y + h)} cm")
            canvas.addLiteral(" ".join(pending))
            pending = []
            place_image(canvas, data, x, y, w, h, images)
            pending.append("Q")
    if pending:
        canvas.addLiteral(" ".join(pending))


@lru_cache(maxsize=1)
def _image_class():
    """The XObject class (made on first use: ReportLab loads only in a process that writes PDF)."""
    from reportlab.pdfbase import pdfdoc

    class Image(pdfdoc.PDFObject):
        """An image XObject written from a made stream, its dictionary as ReportLab's
        PDFImageXObject writes one (with Decode and DecodeParms when the stream has them: Decode
        maps the decoded samples whatever the filter, DecodeParms are the filter's own, PDF 1.7
        §8.9.5.2 and §7.4.4.4, so the two stand together; tests/pdf/test_raster_kinds.py): a
        PDF object of its own, not that class, whose filters and decode array are private names."""

        def __init__(self, stream: ImageStream):
            self.stream = stream

        def format(self, document):
            stream = self.stream
            s = pdfdoc.PDFStream(content=stream.content)
            d = s.dictionary
            d["Type"], d["Subtype"] = pdfdoc.PDFName("XObject"), pdfdoc.PDFName("Image")
            d["Width"], d["Height"], d["BitsPerComponent"] = stream.width, stream.height, stream.bits
            d["ColorSpace"] = pdfdoc.PDFName(stream.colour_space)
            if stream.decode:
                d["Decode"] = pdfdoc.PDFArray(list(stream.decode))
            d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(f) for f in stream.filters])
            if stream.parms is not None:
                d["DecodeParms"] = pdfdoc.PDFArray([pdfdoc.PDFDictionary(dict(stream.parms))])  # one per filter
            d["Length"] = len(stream.content)
            return s.format(document)

    return Image


_PROCESS = ImageStreams()  # streams for draws given no store (a rulebook's pictures, svglib checks)


def place_image(canvas, data: bytes, x: float, y: float, w: float, h: float, streams: ImageStreams | None = None) -> None:
    """Draw the picture ``data`` in the box (x, y, w, h) of the canvas's user space, as
    ``canvas.drawImage(ImageReader(data), x, y, w, h)`` does, from its stream in ``streams``."""
    from reportlab.lib.boxstuff import aspectRatioFix

    stream = (streams or _PROCESS).get(data)
    doc = canvas._doc
    reg = doc.getXObjectName(stream.name)
    if doc.idToObject.get(reg) is None:
        obj = _image_class()(stream)
        canvas._setXObjects(obj)
        doc.Reference(obj, reg)
        doc.addForm(stream.name, obj)
    x, y, w, h, _ = aspectRatioFix(False, "c", x, y, w, h, stream.width, stream.height)  # as drawImage
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{reg} Do")
    canvas.restoreState()
    canvas._formsinuse.append(stream.name)
