"""Each distinct face of a deck, rendered once, drawn on its own PDF page at a shop's size, and
rasterised from those pages, so a PNG never differs from its PDF page.

Kept small and apart on purpose: when the engine's page-plan writer renders distinct faces once,
this is the one module to switch to it.
"""

from __future__ import annotations

import io
import inspect
from dataclasses import dataclass
from typing import Callable, Sequence

import pypdfium2
from PIL import Image
from reportlab.pdfgen import canvas as rl_canvas

from pnpgen.data.model import Deck, Game, Piece
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.exports.presets import Fitted
from pnpgen.impose.grid import SheetLayout, SheetOptions, Slot, cut_marks
from pnpgen.render import vector
from pnpgen.render.templates import Face, Renderer
from pnpgen.shapes import outline, shape_spec
from pnpgen.units import PT_PER_MM

MARK_ROOM_MM = 8.0  # paper kept outside the bleed for トンボ
MARK_PT = 0.25
REGISTRATION = (1.0, 1.0, 1.0, 1.0)
# Proof overlay: trim solid, bleed edge and safe zone dashed; (RGB, CMYK) each.
PROOF = {"trim": ((0.9, 0.0, 0.5), (0.0, 1.0, 0.0, 0.0)), "bleed": ((0.0, 0.45, 0.9), (1.0, 0.5, 0.0, 0.0)),
         "safe": ((0.0, 0.6, 0.2), (0.9, 0.0, 1.0, 0.0))}


@dataclass(frozen=True)
class UniqueFace:
    """A piece's art as printed on ``copies`` of its copies (all of them unless the template
    draws copies differently), front and back."""

    deck: Deck
    piece: Piece
    first_copy: int
    copies: int
    front: vector.Art
    back: vector.Art | None  # arts are shared per distinct SVG: equal backs are the same object

    @property
    def stem(self) -> str:
        """File-name stem: deck, piece number, and the copy when copies differ."""
        variant = f"c{self.first_copy}" if self.copies < self.piece.count else ""
        return f"{self.deck.id}-{self.piece.index:03d}{variant}"


def render_faces(ws: Workspace, game: Game, deck: Deck, art_bleed: float) -> tuple[list[UniqueFace], list[str]]:
    """Every distinct (front, back) of a deck, converted once, in print order; and the template warnings."""
    renderer = Renderer(ws.templates, game, art_bleed)
    arts: dict[str, vector.Art] = {}

    def art(svg: str, piece: Piece) -> vector.Art:
        if svg not in arts:
            arts[svg] = vector.convert(svg, f"{deck.source.name} piece {piece.index} ({piece.label})")
        return arts[svg]

    faces: list[UniqueFace] = []
    for piece in deck.pieces:
        seen: dict[tuple[str, str | None], int] = {}  # (front svg, back svg) → index in faces
        for copy in range(1, piece.count + 1):
            front = renderer.render(Face(deck, piece, "front", copy))
            back = renderer.render(Face(deck, piece, "back", copy)) if deck.back else None
            key = (front, back)
            if key in seen:
                i = seen[key]
                faces[i] = UniqueFace(deck, piece, faces[i].first_copy, faces[i].copies + 1, faces[i].front,
                                      faces[i].back)
                continue
            seen[key] = len(faces)
            faces.append(UniqueFace(deck, piece, copy, 1, art(front, piece), art(back, piece) if back else None))
    return faces, renderer.warnings


def check_cmyk_drawing() -> None:
    """CMYK pages need the converter's CMYK drawing (``vector.draw(..., cmyk=True)``)."""
    if "cmyk" not in inspect.signature(vector.draw).parameters:
        raise InputError("--colour cmyk needs the CMYK drawing of render/vector.py, which this version lacks",
                         key="--colour", expected="--colour rgb")


@dataclass(frozen=True)
class PageStyle:
    """How face pages look: the deck at its fitted format, with トンボ or a proof overlay."""

    deck: Deck
    fitted: Fitted
    font: str
    marks: str = "none"  # none | jp | western
    cmyk: bool = False
    proof: bool = False

    @property
    def room(self) -> float:
        return MARK_ROOM_MM if self.marks != "none" else 0.0

    @property
    def page_mm(self) -> tuple[float, float]:
        w, h = self.fitted.page_mm
        return w + 2 * self.room, h + 2 * self.room

    @property
    def trim_box_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the trim from the page's top-left, y down."""
        o = self.room + self.fitted.format.bleed
        W, H = self.fitted.trim
        return o, o, o + W, o + H


def face_pdf(pages: Sequence[vector.Art], style: PageStyle, title: str) -> bytes:
    """One page per art, page = the format's trim + bleed (+ room for marks), TrimBox and BleedBox
    set; each art is a form XObject drawn once and placed on every page that shows it."""
    buf = io.BytesIO()
    c = rl_canvas.Canvas(buf, invariant=1, initialFontName=style.font, pageCompression=1)
    c.setTitle(title)
    c.setCreator("pnpgen")
    c.setProducer("pnpgen")
    pw, ph = style.page_mm
    x0, y0, x1, y1 = style.trim_box_mm
    b = style.fitted.format.bleed
    forms: dict[int, str] = {}
    for art in pages:
        c.setPageSize((pw * PT_PER_MM, ph * PT_PER_MM))
        c.setTrimBox(_box_pt(x0, y0, x1, y1, ph))
        c.setBleedBox(_box_pt(x0 - b, y0 - b, x1 + b, y1 + b, ph))
        name = forms.get(id(art))
        if name is None:
            name = forms[id(art)] = f"face{len(forms) + 1}"
            c.beginForm(name, 0, 0, art.width_pt, art.height_pt)
            if style.cmyk:
                vector.draw(c, art, cmyk=True)
            else:
                vector.draw(c, art)
            c.endForm()
        c.saveState()
        clip = c.beginPath()
        clip.rect(*_rect_pt(x0 - b, y0 - b, x1 + b, y1 + b, ph))
        c.clipPath(clip, stroke=0, fill=0)
        c.transform(*_art_to_page(style, ph))
        c.doForm(name)
        c.restoreState()
        if style.marks != "none":
            _marks(c, style, ph)
        if style.proof:
            _proof(c, style, ph)
        c.showPage()
    c.save()
    return buf.getvalue()


def _box_pt(x0: float, y0: float, x1: float, y1: float, ph: float) -> tuple[float, float, float, float]:
    return x0 * PT_PER_MM, (ph - y1) * PT_PER_MM, x1 * PT_PER_MM, (ph - y0) * PT_PER_MM


def _rect_pt(x0: float, y0: float, x1: float, y1: float, ph: float) -> tuple[float, float, float, float]:
    return x0 * PT_PER_MM, (ph - y1) * PT_PER_MM, (x1 - x0) * PT_PER_MM, (y1 - y0) * PT_PER_MM


def _art_to_page(style: PageStyle, ph: float) -> tuple[float, float, float, float, float, float]:
    """Art points (origin at its bleed's bottom-left) → page points: the art's trim centred on the
    format's trim, scaled by the fit."""
    w, h = style.deck.trim_mm
    W, H = style.fitted.trim
    s, ab = style.fitted.scale, style.fitted.art_bleed
    x0, _, _, y1 = style.trim_box_mm
    tx = x0 + (W - s * w) / 2 - s * ab
    ty = (ph - y1) + (H - s * h) / 2 - s * ab
    return s, 0.0, 0.0, s, tx * PT_PER_MM, ty * PT_PER_MM


def _marks(c, style: PageStyle, ph: float) -> None:
    """The shop's cut marks round the one piece: the home sheets' トンボ on a one-slot sheet."""
    x0, y0, x1, y1 = style.trim_box_mm
    pw, _ = style.page_mm
    slot = Slot(0, 0, x0, y0, x1 - x0, y1 - y0)
    layout = SheetLayout((pw, ph), (x1 - x0, y1 - y0), False, 1, 1, (0.0, 0.0), style.fitted.format.bleed, [slot])
    lines = cut_marks(layout, SheetOptions(marks=style.marks, margin_mm=0.0))
    c.saveState()
    if style.cmyk:
        c.setStrokeColorCMYK(*REGISTRATION)
    else:
        c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(MARK_PT)
    for ln in lines:
        c.line(ln.x1 * PT_PER_MM, (ph - ln.y1) * PT_PER_MM, ln.x2 * PT_PER_MM, (ph - ln.y2) * PT_PER_MM)
    c.restoreState()


def _proof(c, style: PageStyle, ph: float) -> None:
    """Trim (solid), bleed edge and safe zone (dashed) of the piece's shape, named in the corner."""
    x0, y0, _, _ = style.trim_box_mm
    fmt = style.fitted.format
    spec = shape_spec(style.deck.shape, style.fitted.trim, style.deck.options)
    c.saveState()
    c.setLineWidth(0.6)
    for kind, offset, dash in (("trim", 0.0, None), ("bleed", fmt.bleed, (3, 2)), ("safe", -fmt.safe, (1.5, 1.5))):
        rgb, cmyk = PROOF[kind]
        if style.cmyk:
            c.setStrokeColorCMYK(*cmyk)
        else:
            c.setStrokeColorRGB(*rgb)
        c.setDash(dash or [])
        path = c.beginPath()
        pts = outline(spec, offset).points()
        for i, (x, y) in enumerate(pts):
            (path.moveTo if i == 0 else path.lineTo)((x0 + x) * PT_PER_MM, (ph - y0 - y) * PT_PER_MM)
        path.close()
        c.drawPath(path, stroke=1, fill=0)
    rgb, cmyk = PROOF["trim"]
    if style.cmyk:
        c.setFillColorCMYK(*cmyk)
    else:
        c.setFillColorRGB(*rgb)
    c.setFont(style.font, 4.5)
    W, H = style.fitted.trim
    c.drawString((x0 + 0.8) * PT_PER_MM, (ph - y0 - H - fmt.bleed + 0.8) * PT_PER_MM,
                 f"{fmt.name} trim {W:.2f}×{H:.2f} · bleed {fmt.bleed:.2f} · safe {fmt.safe:.2f} mm")
    c.restoreState()


def rasterise(pdf: bytes, size: Callable[[int], tuple[int, int]]) -> list[Image.Image]:
    """Every page as an RGB image of exactly ``size(page index)`` pixels (pdfium; a page whose
    rounding misses by a pixel is resampled to the size)."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        images = []
        for i in range(len(doc)):
            page = doc[i]
            w_pt, h_pt = page.get_size()
            px = size(i)
            scale = min(px[0] / w_pt, px[1] / h_pt) * (1 - 1e-9)
            image = page.render(scale=scale).to_pil().convert("RGB")
            page.close()
            if image.size != px:
                image = image.resize(px, Image.LANCZOS)
            images.append(image)
        return images
    finally:
        doc.close()


def png_bytes(image: Image.Image, dpi: int | None = None) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", optimize=False, **({"dpi": (dpi, dpi)} if dpi else {}))
    return buf.getvalue()
