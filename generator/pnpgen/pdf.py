"""The drawing layer: the only module that knows points. Puts drawings on PDF pages."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Iterable

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.pdfgen import canvas as rl_canvas

from .impose import Line, SheetLayout
from .units import mm_to_pt

MARK_WIDTH_PT = 0.25
REGISTRATION = (1.0, 1.0, 1.0, 1.0)  # all four inks, for shop marks


@dataclass(frozen=True)
class Placed:
    """A piece drawing (trim + full bleed) placed with its trim top-left at (x, y) mm on a sheet."""

    drawing: Drawing
    x: float
    y: float
    trim_w: float  # trim size of the piece as designed (before rotation)
    trim_h: float
    bleed_mm: float  # bleed included in the drawing on each side
    show_bleed_mm: float  # how much of it to print here
    rotated: bool = False


class PdfDocument:
    """A PDF being written in memory; pages are added in millimetres."""

    def __init__(self, default_font: str, title: str = ""):
        self.buffer = io.BytesIO()
        self.canvas = rl_canvas.Canvas(self.buffer, invariant=1, initialFontName=default_font,
                                       pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setCreator("pnpgen")
        self.canvas.setProducer("pnpgen")
        self.pages = 0

    def new_page(self, w_mm: float, h_mm: float, trim: tuple[float, float, float, float] | None = None,
                 bleed: tuple[float, float, float, float] | None = None) -> None:
        """Start a page; trim/bleed boxes as (x0, y0, x1, y1) in mm from the top-left."""
        c = self.canvas
        c.setPageSize((mm_to_pt(w_mm), mm_to_pt(h_mm)))
        for box, setter in ((trim, c.setTrimBox), (bleed, c.setBleedBox)):
            if box is not None:
                x0, y0, x1, y1 = box
                setter((mm_to_pt(x0), mm_to_pt(h_mm - y1), mm_to_pt(x1), mm_to_pt(h_mm - y0)))
        self._page_h = h_mm

    def end_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1

    def place(self, item: Placed) -> None:
        """Draw a piece clipped to its trim plus the bleed shown on this page."""
        c = self.canvas
        d = item.drawing
        b, sb = item.bleed_mm, item.show_bleed_mm
        tw, th = (item.trim_h, item.trim_w) if item.rotated else (item.trim_w, item.trim_h)
        c.saveState()
        clip = c.beginPath()
        clip.rect(mm_to_pt(item.x - sb), mm_to_pt(self._page_h - item.y - th - sb),
                  mm_to_pt(tw + 2 * sb), mm_to_pt(th + 2 * sb))
        c.clipPath(clip, stroke=0, fill=0)
        # The drawing's origin is its bleed corner; put the trim corner at (x, y).
        left = mm_to_pt(item.x - b)
        bottom = mm_to_pt(self._page_h - item.y - th - b)
        if item.rotated:
            # Turn 90° clockwise about the placed box: the piece's top goes to the right.
            c.translate(left, bottom + d.width)
            c.rotate(-90)
        else:
            c.translate(left, bottom)
        renderPDF.draw(d, c, 0, 0, showBoundary=False)
        c.restoreState()

    def lines(self, lines: Iterable[Line], registration: bool) -> None:
        c = self.canvas
        c.saveState()
        if registration:
            c.setStrokeColorCMYK(*REGISTRATION)
        else:
            c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(MARK_WIDTH_PT)
        for ln in lines:
            c.line(mm_to_pt(ln.x1), mm_to_pt(self._page_h - ln.y1), mm_to_pt(ln.x2), mm_to_pt(self._page_h - ln.y2))
        c.restoreState()

    def label(self, text: str, x_mm: float, y_mm: float, font: str, size_pt: float = 6) -> None:
        """A small note on the sheet margin (deck name, sheet number, what was chosen)."""
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.setFont(font, size_pt)
        c.drawString(mm_to_pt(x_mm), mm_to_pt(self._page_h - y_mm), text)
        c.restoreState()

    def finish(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()


def sheet_pieces(layout: SheetLayout, drawings: list[tuple[Drawing, int]], trim: tuple[float, float],
                 bleed_mm: float) -> list[Placed]:
    """Place drawings on layout slots: ``drawings`` pairs a drawing with its slot index."""
    out = []
    for d, index in drawings:
        s = layout.slots[index]
        out.append(Placed(d, s.x, s.y, trim[0], trim[1], bleed_mm, layout.sheet_bleed_mm, layout.rotated))
    return out
