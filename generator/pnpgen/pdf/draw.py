"""Drawing a face's art (``pnpgen.svg.artwork.Art``) on a ReportLab canvas.

``draw_art(canvas, art, cmyk=False)`` paints the art at the canvas's current transform, in points,
origin at the bottom-left of the SVG viewport (the bleed's corner), y up — where a
``reportlab.graphics`` Drawing of the same SVG renders at (0, 0). Meant to be called inside
``beginForm``/``endForm``, so that each face is drawn once per document and placed with
``doForm``. Pictures are placed by ``pnpgen.pdf.raster`` (each picture's stream made once). With ``cmyk`` every colour goes through ``pnpgen.pdf.colour.to_cmyk`` and is written
with k/K. The fonts the text names must be known to ``pnpgen.fonts`` in the drawing process too
(located by loading the game; parsed here on first use if need be). Gradient-painted shapes are
drawn by ``pnpgen.pdf.shading``, faces outside the subset by ``pnpgen.pdf.svglib_fallback``.
"""

from __future__ import annotations

from pnpgen import fonts
from pnpgen.pdf.content import colour_op
from pnpgen.pdf.raster import ImageStreams, place_image
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
            fonts.ensure(it[1])  # (an art from the cache may be drawn by a process that converted nothing)
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

