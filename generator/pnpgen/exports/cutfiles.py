"""Cut files for hobby cutting machines (``--marks silhouette`` and ``--marks cricut``): SVG and
DXF text made from the cut sheets of impose/cutter.py (mm, y down from the paper's top-left), and
the Cricut Print Then Cut images drawn through the PDF writer and rasterised.

Both formats are written byte-identically for the same sheet: numbers at a fixed precision, and
the DXF's time stamps and GUIDs fixed (ezdxf writes the current time and fresh GUIDs otherwise).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import Any

from pnpgen.data.model import Deck
from pnpgen.impose.cutter import (
    CRICUT_AREA_IN,
    CRICUT_DPI,
    CutSheet,
    cricut_area_mm,
    cricut_layout,
    cricut_pages,
    cut_sheets,
)
from pnpgen.impose.grid import SheetLayout
from pnpgen.impose.plan import Page, PagePlan
from pnpgen.impose.registration import figures
from pnpgen.impose.sheets import DeckSheets
from pnpgen.pdf.writer import write_document
from pnpgen.shapes import Arc, Outline, ShapeSpec, Straight
from pnpgen.units import MM_PER_INCH, num

DIGITS = 4  # decimals of a millimetre written into the SVG: 0.1 µm
CUT_STROKE = "#ff0000"


def cut_svg(sheet: CutSheet, size_in: tuple[float, float] | None = None) -> bytes:
    """The cut paths as an SVG whose viewBox is the paper in mm (``size_in``: its printed size in
    inches instead of mm, for an image Design Space scales by it)."""
    w, h = sheet.paper_mm
    size = (f'width="{num(size_in[0], DIGITS)}in" height="{num(size_in[1], DIGITS)}in"' if size_in
            else f'width="{num(w, DIGITS)}mm" height="{num(h, DIGITS)}mm"')
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" {size} viewBox="0 0 {num(w, DIGITS)} {num(h, DIGITS)}">',
             f'<g id="cut" fill="none" stroke="{CUT_STROKE}" stroke-width="0.1">']
    lines += [f'<path d="{path.svg(DIGITS)}"/>' for path in sheet.paths]
    lines += [f'<path d="M{num(c.x1, DIGITS)} {num(c.y1, DIGITS)} L{num(c.x2, DIGITS)} {num(c.y2, DIGITS)}"/>'
              for c in sheet.lines]  # the cuts pieces that abut share, each once
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines).encode()


def _vertices(path: Outline, height: float) -> list[tuple[float, float, float]]:
    """(x, y, bulge) of a closed LWPOLYLINE in the DXF's y-up millimetres (y = height − page y):
    one vertex per straight segment, an arc split into parts of at most a half turn, each with its
    bulge (tan of a quarter of the included angle, positive counter-clockwise in y-up)."""
    out = []
    for s in path.segments:
        if isinstance(s, Straight):
            out.append((s.x1, height - s.y1, 0.0))
            continue
        assert isinstance(s, Arc)
        parts = max(1, math.ceil(abs(s.sweep) / math.pi - 1e-9))
        bulge = -math.tan(s.sweep / parts / 4)  # clockwise on the y-down page = clockwise in y-up
        for k in range(parts):
            x, y = s.at(k / parts)
            out.append((x, height - y, bulge))
    return out


def cut_dxf(sheet: CutSheet) -> bytes:
    """The cut paths as a DXF R2010 drawing in millimetres, one closed LWPOLYLINE per piece on
    layer CUT (pieces that abut: an open one per shared straight cut), the paper's bottom-left
    corner at (0, 0) as on the PDF page."""
    import ezdxf  # 2 s to import: only when a build writes a DXF
    from ezdxf import units

    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # fixed dates, GUIDs and ezdxf's version stamp
    try:
        return _dxf(sheet, ezdxf.new("R2010", setup=False), units.MM)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


def _dxf(sheet: CutSheet, doc, mm: int) -> bytes:
    doc.units = mm
    doc.header["$INSUNITS"] = mm
    doc.header["$MEASUREMENT"] = 1  # metric
    w, h = sheet.paper_mm
    msp = doc.modelspace()
    # The paper as the drawing's extents and limits. ezdxf writes the header's from the
    # modelspace's on saving, except an extent at (0, 0, 0), which it keeps from the header.
    doc.header["$EXTMIN"] = (0.0, 0.0, 0.0)
    doc.header["$EXTMAX"] = (w, h, 0.0)
    msp.dxf.extmin, msp.dxf.extmax = (0.0, 0.0, 0.0), (w, h, 0.0)
    msp.dxf.limmin, msp.dxf.limmax = (0.0, 0.0), (w, h)
    doc.layers.add("CUT", color=1)
    for path in sheet.paths:
        msp.add_lwpolyline(_vertices(path, h), format="xyb", close=True, dxfattribs={"layer": "CUT"})
    for c in sheet.lines:  # the cuts pieces that abut share, each once: an open polyline of one segment
        msp.add_lwpolyline([(c.x1, h - c.y1), (c.x2, h - c.y2)], format="xy", close=False, dxfattribs={"layer": "CUT"})
    # ezdxf adds the CLASS entries of the entity types in use in the order of a set, which follows
    # the process's string hashing (PYTHONHASHSEED): added here first, in name order, the
    # CLASSES section is the same in every run
    for dxftype in sorted(doc.entitydb.dxf_types_in_use()):
        doc.classes.add_class(dxftype)
    buf = io.StringIO()
    doc.write(buf)
    return buf.getvalue().encode("utf-8")


def cricut_png(page: Page, arts, font: str, images=None) -> bytes:
    """One Print Then Cut image: the page drawn by the PDF writer, rasterised at CRICUT_DPI (its
    pixels the page's size in inches × dpi), 8-bit RGB PNG with its resolution recorded."""
    import pypdfium2  # only when a build makes Print Then Cut images
    from PIL import Image

    pdf = write_document(PagePlan("Print Then Cut", [page]), arts, font, images=images)
    w, h = page.size_mm
    px = (round(w / MM_PER_INCH * CRICUT_DPI), round(h / MM_PER_INCH * CRICUT_DPI))
    doc = pypdfium2.PdfDocument(pdf)
    try:
        image = doc[0].render(scale=CRICUT_DPI / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    if image.size != px:  # a pixel lost to rounding
        image = image.resize(px, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    image.save(buf, "PNG", dpi=(CRICUT_DPI, CRICUT_DPI))
    return buf.getvalue()


@dataclass(frozen=True)
class CutFile:
    """One file of the cut/ folder, made when the build writes: a cut sheet as SVG (``size_in``:
    sized in inches, for Design Space) or DXF, or a Print Then Cut image of ``page``."""

    kind: str  # svg | dxf | png
    sheet: CutSheet | None = None
    page: Page | None = None
    size_in: tuple[float, float] | None = None
    sheets: int = 1  # the sheets it cuts, alike (a run: cut/pad-p01-p10.svg)

    def data(self, arts, font: str, images=None) -> bytes:
        if self.kind == "png":
            assert self.page is not None
            return cricut_png(self.page, arts, font, images)
        assert self.sheet is not None
        return cut_dxf(self.sheet) if self.kind == "dxf" else cut_svg(self.sheet, self.size_in)


def too_large_for_cricut(deck: Deck, spec: ShapeSpec, area_in: tuple[float, float] = CRICUT_AREA_IN) -> str | None:
    """The warning for a deck whose piece fits no Print Then Cut image, even turned and without
    bleed: it gets no cut/ files, which the build would otherwise leave unsaid. Said at the size
    the deck file gives (else at the deck file)."""
    if cricut_layout(spec, 0.0, area_in) is not None:
        return None
    w, h = cricut_area_mm(area_in)
    return (f"{deck.size_where or deck.where()}: deck {deck.id!r}: a {spec.w:g}×{spec.h:g} mm piece is larger than Cricut's Print Then Cut area "
            f"({w:g}×{h:g} mm, {area_in[0]:g}×{area_in[1]:g} in) even turned: no cut/ image for it; "
            "cut it by hand at the home sheets' marks")


def cut_files(cutter: str, deck: DeckSheets, layout, area_in: tuple[float, float] = CRICUT_AREA_IN) -> dict[str, CutFile]:
    """A deck's files in cut/: for Silhouette, each fronts sheet's cut paths as SVG and DXF, in
    the home sheet's coordinates; for Cricut, each Print Then Cut image (PNG) of ``area_in``
    inches and its cut paths (SVG) at the image's size, laid out on their own (``layout``: the
    home sheets', used by Silhouette only, whose cut files follow the printed sheet)."""
    spec = deck.spec
    out: dict[str, CutFile] = {}
    if cutter == "silhouette" and isinstance(layout, SheetLayout):
        sheets = cut_sheets(spec, layout, len(deck.fronts))
        for names, sheet, n in alike_runs(deck.id, sheets, ".svg", ".dxf"):
            out[names[0]] = CutFile("svg", sheet, sheets=n)
            out[names[1]] = CutFile("dxf", sheet, sheets=n)
        return out
    if cutter != "cricut":
        return out
    image = cricut_layout(spec, deck.art_bleed_mm, area_in)
    if image is None:
        return {}
    pages = cricut_pages(deck.fronts, spec, image, deck.art_bleed_mm)
    sheets = cut_sheets(spec, image, len(deck.fronts))
    for names, (page, sheet), n in alike_runs(deck.id, list(zip(pages, sheets, strict=True)), ".png", ".svg"):
        out[names[0]] = CutFile("png", page=page, sheets=n)
        out[names[1]] = CutFile("svg", sheet, size_in=area_in, sheets=n)
    return out


def alike_runs(deck_id: str, sheets: list[Any], *suffixes: str) -> list[tuple[list[str], Any, int]]:
    """Each run of sheets in a row that cut alike (a score pad's twenty pages, every full sheet of
    a deck on the Silhouette: the same paths) as one file, named by the run, ``cut/pad-p01-p10.svg``,
    with that sheet; a sheet unlike its neighbours by its own number, ``cut/cards-p06.svg`` (numbers
    at least two digits, as many as the last sheet needs). Ten files of the same bytes told nothing
    the name of one does not."""
    runs: list[tuple[int, int, Any]] = []  # (first sheet, last sheet, what they cut)
    for n, sheet in enumerate(sheets, 1):
        if runs and runs[-1][2] == sheet:
            runs[-1] = (runs[-1][0], n, sheet)
        else:
            runs.append((n, n, sheet))
    digits = max(2, len(str(len(sheets))))
    return [([f"cut/{deck_id}-p{a:0{digits}d}{f'-p{b:0{digits}d}' if b > a else ''}{suffix}" for suffix in suffixes],
             sheet, b - a + 1) for a, b, sheet in runs]


def alike_sheets(cuts: dict[str, CutFile]) -> dict[str, int]:
    """The files of ``cut_files`` that cut a run of sheets alike (``cut/pad-p01-p10``, without its
    suffix), each with how many sheets it cuts: for the manifest and the build's summary."""
    return {name.rsplit(".", 1)[0]: f.sheets for name, f in cuts.items() if f.sheets > 1}


def cutter_record(options) -> dict:
    """What the manifest says of the cutting machine's files."""
    if options.cutter == "silhouette":
        assert options.sheet.silhouette is not None
        return {"machine": "silhouette", "registration": "type 1", **figures(options.sheet.silhouette)}
    return {"machine": "cricut", "image_in": list(options.cricut_area_in or CRICUT_AREA_IN), "dpi": CRICUT_DPI}
