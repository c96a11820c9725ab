"""The PDF writer: the only stage that knows points. Turns a page plan (impose/plan.py, mm, y
down) into PDF bytes.

Each face used in a document becomes one Form XObject, drawn once and placed with ``Do`` on
every page that shows it, so a deck of 80 cards over 5 faces carries 5 drawings, not 80.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping

from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfgen import canvas as rl_canvas

from pnpgen import fonts
from pnpgen.impose.plan import (
    DieLine,
    LineOp,
    Page,
    PagePlan,
    PlaceFace,
    RectOp,
    Strokes,
    TextOp,
)
from pnpgen.pdf import settings
from pnpgen.pdf.assemble import Part, PdfFile, assemble
from pnpgen.pdf.colour import REGISTRATION, to_cmyk
from pnpgen.pdf.draw import draw_art
from pnpgen.pdf.layers import add_layers, marked_content
from pnpgen.pdf.raster import ImageStreams
from pnpgen.shapes import Affine, Outline, Straight
from pnpgen.svg.artwork import Art
from pnpgen.units import PT_PER_MM, mm_to_pt

# The die line on print-shop output: a spot colour most RIPs and cutters know by this name.
CUT_CONTOUR = CMYKColorSep(0, 1, 0, 0, spotName="CutContour", density=1)


def write_document(doc: PagePlan, arts: Mapping[str, Art], font: str, cmyk: bool = False,
                   images: ImageStreams | None = None) -> bytes:
    """The document's PDF bytes; ``arts`` holds every face the plan names, ``font`` is the
    embedded font every page starts from (so no page references an unembedded one); pictures
    are placed from their streams in ``images`` (made once per picture, pdf/raster.py)."""
    return bytes(write_pdf(doc, arts, font, cmyk, images))


def write_pdf(doc: PagePlan, arts: Mapping[str, Art], font: str, cmyk: bool = False,
              images: ImageStreams | None = None) -> PdfFile:
    """The same file as ``write_document``, as parts (pdf/assemble.py): the pictures' streams
    stay in the cache folder of ``images`` until the file is written."""
    return _Writer(doc.title, arts, font, cmyk, images or ImageStreams()).write(doc)


class _Writer:
    def __init__(self, title: str, arts: Mapping[str, Art], font: str, cmyk: bool,
                 images: ImageStreams | None = None):
        settings.flate_only()
        self.buffer = io.BytesIO()
        fonts.ensure(font)  # a document may draw no text of its own (a game without decks yet)
        self.c = rl_canvas.Canvas(self.buffer, invariant=1, initialFontName=font, pageCompression=1)
        self.c.setTitle(title)
        self.c.setCreator("pnpgen")
        self.c.setProducer("pnpgen")
        self.arts = arts
        self.cmyk = cmyk
        self.images = images
        self.deferred: dict[str, Part] = {}  # the pictures' streams, by key, put in when written
        self.c.deferred_images = self.deferred  # type: ignore[attr-defined]  # read by raster.place_image
        self.forms: set[str] = set()
        self.layers: set[str] = set()  # optional content groups drawn into
        self.page_h = 0.0

    def write(self, doc: PagePlan) -> PdfFile:
        for n, page in enumerate(doc.pages):
            self.page(page)
            if page.label is not None:
                self.c.addPageLabel(n, prefix=page.label)
        self.c.save()
        drawn = assemble(self.buffer.getvalue(), self.deferred)
        if self.layers:  # pikepdf rewrites the file: it reads the pictures' streams too
            return PdfFile((add_layers(bytes(drawn), sorted(self.layers)),))
        return drawn

    # ------------------------------------------------------------------ colours and coordinates

    def fill(self, rgb) -> None:
        if self.cmyk:
            self.c.setFillColorCMYK(*to_cmyk(*rgb))
        else:
            self.c.setFillColorRGB(*rgb)

    def stroke(self, rgb) -> None:
        if self.cmyk:
            self.c.setStrokeColorCMYK(*to_cmyk(*rgb))
        else:
            self.c.setStrokeColorRGB(*rgb)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return mm_to_pt(x), mm_to_pt(self.page_h - y)

    def to_pt(self) -> Affine:
        """Page mm (y down) → PDF points (y up)."""
        return Affine(PT_PER_MM, 0.0, 0.0, -PT_PER_MM, 0.0, self.page_h * PT_PER_MM)

    def rect_clip(self, box) -> None:
        x0, y0, x1, y1 = box
        r = self.c.beginPath()
        r.rect(mm_to_pt(x0), mm_to_pt(self.page_h - y1), mm_to_pt(x1 - x0), mm_to_pt(y1 - y0))
        self.c.clipPath(r, stroke=0, fill=0)

    def path(self, path: Outline):
        """A ReportLab path object for a closed outline in page mm."""
        p = self.c.beginPath()
        first = True
        for seg in path.segments:
            if first:
                p.moveTo(*self.pt(*seg.p0))
                first = False
            if isinstance(seg, Straight):
                p.lineTo(*self.pt(*seg.p1))
            else:
                x0, y0 = self.pt(seg.cx - seg.r, seg.cy + seg.r)
                x1, y1 = self.pt(seg.cx + seg.r, seg.cy - seg.r)
                # y flips, so angles and the sweep change sign; degrees, anticlockwise.
                p.arcTo(x0, y0, x1, y1, startAng=-math.degrees(seg.a0), extent=-math.degrees(seg.sweep))
        p.close()
        return p

    # ------------------------------------------------------------------ pages

    def page(self, page: Page) -> None:
        c = self.c
        w, h = page.size_mm
        self.page_h = h
        c.setPageSize((mm_to_pt(w), mm_to_pt(h)))
        for box, setter in ((page.trim, c.setTrimBox), (page.bleed, c.setBleedBox)):
            if box is not None:
                x0, y0, x1, y1 = box
                setter((mm_to_pt(x0), mm_to_pt(h - y1), mm_to_pt(x1), mm_to_pt(h - y0)))
        for key in page.faces():  # forms first, so the page's own stream stays flat
            self.define(key)
        if page.matrix is not None:  # a printer profile's correction: the whole page, exactly
            c.transform(*self.to_pt().inverse().then(page.matrix).then(self.to_pt()).tuple())
        for item in page.items:
            if isinstance(item, PlaceFace):
                self.place(item)
            elif isinstance(item, Strokes):
                self.strokes(item)
            elif isinstance(item, DieLine):
                self.die_line(item)
            else:
                self.furniture(item)
        c.showPage()

    def define(self, key: str) -> None:
        if key in self.forms:
            return
        art = self.arts[key]
        self.c.beginForm(_form_name(key), 0, 0, art.width_pt, art.height_pt)
        draw_art(self.c, art, cmyk=self.cmyk, images=self.images)
        self.c.endForm()
        self.forms.add(key)

    def place(self, item: PlaceFace) -> None:
        """A face clipped to its outline (and page rectangle), placed as its form."""
        c = self.c
        c.saveState()
        if item.clip_rect is not None:
            self.rect_clip(item.clip_rect)
        if item.clip is not None:
            box = item.clip.as_rect()
            if box is not None:  # a rectangle: written as one 're', as readers expect of a piece box
                self.rect_clip(box)
            else:
                c.clipPath(self.path(item.clip), stroke=0, fill=0)
        b = item.bleed_mm
        # form points (origin at the bleed's bottom-left, y up) → piece mm → page mm → page points
        form_to_piece = Affine(1 / PT_PER_MM, 0.0, 0.0, -1 / PT_PER_MM, -b, item.trim_mm[1] + b)
        c.transform(*form_to_piece.then(item.to_page).then(self.to_pt()).tuple())
        c.doForm(_form_name(item.face))
        c.restoreState()

    def strokes(self, item: Strokes) -> None:
        c = self.c
        c.saveState()
        if item.registration:
            c.setStrokeColorCMYK(*REGISTRATION)
        else:
            self.stroke(item.colour)
        c.setLineWidth(item.width_pt)
        if item.dash:
            c.setDash([mm_to_pt(v) for v in item.dash])
        for ln in item.lines:
            c.line(*self.pt(ln.x1, ln.y1), *self.pt(ln.x2, ln.y2))
        c.restoreState()

    def die_line(self, item: DieLine) -> None:
        """Stroke a closed outline (a die line): black on home sheets, CutContour on shop pages."""
        c = self.c
        if item.layer is not None:
            self.layers.add(item.layer)
            c.addLiteral(marked_content(item.layer))
        c.saveState()
        if item.clip_rect is not None:
            self.rect_clip(item.clip_rect)
        if item.spot:
            c.setStrokeColor(CUT_CONTOUR)
        else:
            self.stroke(item.colour)
        c.setLineWidth(item.width_pt)
        if item.dash:
            c.setDash([mm_to_pt(v) for v in item.dash])
        c.drawPath(self.path(item.path), stroke=1, fill=0)
        c.restoreState()
        if item.layer is not None:
            c.addLiteral("EMC")

    def furniture(self, op: TextOp | RectOp | LineOp) -> None:
        """Page furniture laid out in mm elsewhere: notes, tables, maps."""
        c = self.c
        c.saveState()
        if isinstance(op, TextOp):
            self.fill(op.colour)
            fonts.ensure(op.font)  # parsed on first use
            c.setFont(op.font, op.size)
            x, y = self.pt(op.x, op.y)
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
                self.fill(op.fill)
            if op.stroke is not None:
                self.stroke(op.stroke)
            c.setLineWidth(op.width_pt)
            c.rect(mm_to_pt(op.x), mm_to_pt(self.page_h - op.y - op.h), mm_to_pt(op.w), mm_to_pt(op.h),
                   stroke=1 if op.stroke is not None else 0, fill=1 if op.fill is not None else 0)
        else:
            self.stroke(op.colour)
            c.setLineWidth(op.width_pt)
            if op.dash:
                c.setDash([mm_to_pt(v) for v in op.dash])
            ln = op.line
            c.line(*self.pt(ln.x1, ln.y1), *self.pt(ln.x2, ln.y2))
        c.restoreState()


def _form_name(key: str) -> str:
    return "Face" + key[:20]
