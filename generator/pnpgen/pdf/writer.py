"""The drawing layer: the only module that knows points. Puts drawings, outlines, marks and
text on PDF pages; every input is in millimetres from the page's top-left, y down."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfgen import canvas as rl_canvas

from pnpgen.shapes import Affine, Line, Path, placement
from pnpgen.units import PT_PER_MM, mm_to_pt

MARK_WIDTH_PT = 0.25
DIE_WIDTH_PT = 0.3
REGISTRATION = (1.0, 1.0, 1.0, 1.0)  # all four inks, for shop marks
# The die line on print-shop output: a spot colour most RIPs and cutters know by this name.
CUT_CONTOUR = CMYKColorSep(0, 1, 0, 0, spotName="CutContour", density=1)
REPLAY = True  # reuse each drawing's operators within a document (False: render every copy)


@dataclass(frozen=True)
class Placed:
    """A piece drawing (trim + full bleed) placed on a sheet.

    Either by ``transform`` (piece frame mm → sheet mm, any quarter turn or mirror) or, as
    before, with its trim top-left at (x, y), turned 90° clockwise when ``rotated``. ``clip``
    is the outline the artwork stops at, in sheet mm (default: the trim box plus
    ``show_bleed_mm``)."""

    drawing: Drawing
    x: float
    y: float
    trim_w: float  # trim size of the piece as designed (before rotation)
    trim_h: float
    bleed_mm: float  # bleed included in the drawing on each side
    show_bleed_mm: float  # how much of it to print here
    rotated: bool = False
    transform: Affine | None = None
    clip: Path | None = None
    clip_rect: tuple[float, float, float, float] | None = None  # also clip to this (x0, y0, x1, y1)

    def piece_to_sheet(self) -> Affine:
        if self.transform is not None:
            return self.transform
        return placement(90 if self.rotated else 0, self.x, self.y, self.trim_w, self.trim_h)


@dataclass(frozen=True)
class TextOp:
    """Text at (x, y) mm (baseline), size in pt; anchor start | middle | end."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    anchor: str = "start"
    angle: float = 0.0  # degrees, clockwise on the page


@dataclass(frozen=True)
class RectOp:
    x: float
    y: float
    w: float
    h: float
    fill: tuple[float, float, float] | None = None
    stroke: tuple[float, float, float] | None = (0.0, 0.0, 0.0)
    width_pt: float = 0.5


@dataclass(frozen=True)
class LineOp:
    line: Line
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    width_pt: float = 0.5
    dash: tuple[float, ...] | None = None  # mm


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
        self._page_h = 0.0
        self._drawn: dict[int, tuple[list[str], Drawing]] = {}  # id(drawing) → (operators, drawing kept alive)

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

    # ------------------------------------------------------------------ coordinates

    def _sheet_to_pt(self) -> Affine:
        """Page mm (y down) → PDF points (y up)."""
        return Affine(PT_PER_MM, 0.0, 0.0, -PT_PER_MM, 0.0, self._page_h * PT_PER_MM)

    def _pt(self, x: float, y: float) -> tuple[float, float]:
        return mm_to_pt(x), mm_to_pt(self._page_h - y)

    def _path(self, path: Path):
        """A ReportLab path object for a closed outline in page mm."""
        p = self.canvas.beginPath()
        first = True
        for seg in path.segments:
            if first:
                p.moveTo(*self._pt(*seg.p0))
                first = False
            if isinstance(seg, Line):
                p.lineTo(*self._pt(*seg.p1))
            else:
                x0, y0 = self._pt(seg.cx - seg.r, seg.cy + seg.r)
                x1, y1 = self._pt(seg.cx + seg.r, seg.cy - seg.r)
                # y flips, so angles and the sweep change sign; degrees, anticlockwise.
                p.arcTo(x0, y0, x1, y1, startAng=-math.degrees(seg.a0), extent=-math.degrees(seg.sweep))
        p.close()
        return p

    # ------------------------------------------------------------------ content

    def _draw(self, drawing: Drawing) -> None:
        """Draw at the current transform. A drawing's operators are produced once per document
        and replayed for every later copy: the same drawing always starts from the same graphics
        state (inside place()'s saveState on a fresh page state), so the bytes are those a fresh
        render would write, at a fraction of the cost."""
        c = self.canvas
        code = self._drawn.get(id(drawing))
        if code is None or not REPLAY:
            start = len(c._code)
            renderPDF.draw(drawing, c, 0, 0, showBoundary=False)
            self._drawn[id(drawing)] = (c._code[start:], drawing)
        else:
            c._code.extend(code[0])

    def place(self, item: Placed) -> None:
        """Draw a piece clipped to its bleed outline (or its trim box plus the shown bleed)."""
        c = self.canvas
        d = item.drawing
        b = item.bleed_mm
        to_sheet = item.piece_to_sheet()
        c.saveState()
        if item.clip_rect is not None:
            x0, y0, x1, y1 = item.clip_rect
            r = c.beginPath()
            r.rect(mm_to_pt(x0), mm_to_pt(self._page_h - y1), mm_to_pt(x1 - x0), mm_to_pt(y1 - y0))
            c.clipPath(r, stroke=0, fill=0)
        if item.clip is not None:
            box = item.clip.as_rect()
            if box is not None:  # a rectangle: written as one 're', as readers expect of a piece box
                x0, y0, x1, y1 = box
                r = c.beginPath()
                r.rect(mm_to_pt(x0), mm_to_pt(self._page_h - y1), mm_to_pt(x1 - x0), mm_to_pt(y1 - y0))
                c.clipPath(r, stroke=0, fill=0)
            else:
                c.clipPath(self._path(item.clip), stroke=0, fill=0)
        elif item.clip_rect is None:
            sb = item.show_bleed_mm
            (x0, y0), (x1, y1) = to_sheet((-sb, -sb)), to_sheet((item.trim_w + sb, item.trim_h + sb))
            r = c.beginPath()
            r.rect(mm_to_pt(min(x0, x1)), mm_to_pt(self._page_h - max(y0, y1)),
                   mm_to_pt(abs(x1 - x0)), mm_to_pt(abs(y1 - y0)))
            c.clipPath(r, stroke=0, fill=0)
        # drawing points (origin at the bleed's bottom-left, y up) → piece mm → sheet mm → page points
        drawing_to_piece = Affine(1 / PT_PER_MM, 0.0, 0.0, -1 / PT_PER_MM, -b, item.trim_h + b)
        m = drawing_to_piece.then(to_sheet).then(self._sheet_to_pt())
        c.transform(*m.tuple())
        self._draw(d)
        c.restoreState()

    def outline(self, path: Path, width_pt: float = DIE_WIDTH_PT, colour=(0.0, 0.0, 0.0),
                spot: bool = False, dash: Sequence[float] | None = None,
                clip_rect: tuple[float, float, float, float] | None = None) -> None:
        """Stroke a closed outline (a die line): black on home sheets, CutContour on shop pages;
        only inside ``clip_rect`` (x0, y0, x1, y1) when given."""
        c = self.canvas
        c.saveState()
        if clip_rect is not None:
            x0, y0, x1, y1 = clip_rect
            r = c.beginPath()
            r.rect(mm_to_pt(x0), mm_to_pt(self._page_h - y1), mm_to_pt(x1 - x0), mm_to_pt(y1 - y0))
            c.clipPath(r, stroke=0, fill=0)
        if spot:
            c.setStrokeColor(CUT_CONTOUR)
        else:
            c.setStrokeColorRGB(*colour)
        c.setLineWidth(width_pt)
        if dash:
            c.setDash([mm_to_pt(v) for v in dash])
        c.drawPath(self._path(path), stroke=1, fill=0)
        c.restoreState()

    def lines(self, lines: Iterable[Line], registration: bool, width_pt: float = MARK_WIDTH_PT,
              colour=(0.0, 0.0, 0.0), dash: Sequence[float] | None = None) -> None:
        c = self.canvas
        c.saveState()
        if registration:
            c.setStrokeColorCMYK(*REGISTRATION)
        else:
            c.setStrokeColorRGB(*colour)
        c.setLineWidth(width_pt)
        if dash:
            c.setDash([mm_to_pt(v) for v in dash])
        for ln in lines:
            c.line(*self._pt(ln.x1, ln.y1), *self._pt(ln.x2, ln.y2))
        c.restoreState()

    def label(self, text: str, x_mm: float, y_mm: float, font: str, size_pt: float = 6) -> None:
        """A small note on the sheet margin (deck name, sheet number, what was chosen)."""
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.setFont(font, size_pt)
        c.drawString(mm_to_pt(x_mm), mm_to_pt(self._page_h - y_mm), text)
        c.restoreState()

    def ops(self, ops: Iterable[TextOp | RectOp | LineOp]) -> None:
        """Draw simple page furniture laid out in mm elsewhere (tables, maps, notes)."""
        c = self.canvas
        for op in ops:
            c.saveState()
            if isinstance(op, TextOp):
                c.setFillColorRGB(*op.colour)
                c.setFont(op.font, op.size)
                x, y = self._pt(op.x, op.y)
                if op.angle:
                    c.translate(x, y)
                    c.rotate(-op.angle)
                    x = y = 0.0
                if op.anchor == "middle":
                    c.drawCentredString(x, y, op.text)
                elif op.anchor == "end":
                    c.drawRightString(x, y, op.text)
                else:
                    c.drawString(x, y, op.text)
            elif isinstance(op, RectOp):
                if op.fill is not None:
                    c.setFillColorRGB(*op.fill)
                if op.stroke is not None:
                    c.setStrokeColorRGB(*op.stroke)
                c.setLineWidth(op.width_pt)
                c.rect(mm_to_pt(op.x), mm_to_pt(self._page_h - op.y - op.h), mm_to_pt(op.w), mm_to_pt(op.h),
                       stroke=1 if op.stroke is not None else 0, fill=1 if op.fill is not None else 0)
            else:
                c.setStrokeColorRGB(*op.colour)
                c.setLineWidth(op.width_pt)
                if op.dash:
                    c.setDash([mm_to_pt(v) for v in op.dash])
                ln = op.line
                c.line(*self._pt(ln.x1, ln.y1), *self._pt(ln.x2, ln.y2))
            c.restoreState()

    def finish(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()

