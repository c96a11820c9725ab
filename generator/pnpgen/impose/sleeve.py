"""Sleeve inserts (``--layout sleeve [--sleeve 66x91]``), as page plans in mm: fronts only, printed
at the size that slips into a card sleeve in front of a backer card (any card of the deck's size,
or an old card), no backs.

The insert keeps the piece's trim when that is at least ``clearance`` smaller than the sleeve's
inside on both axes; otherwise the whole face (art, text, bleed) is scaled down uniformly to the
largest size that leaves that clearance, and the sheets and manifest say so. Cut marks are for
the insert's size.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pnpgen.data.optionvalues import sleeve_size
from pnpgen.impose.grid import SheetLayout, SheetOptions, choose_layout, cut_marks, used_part
from pnpgen.impose.nest import NestLayout
from pnpgen.impose.plan import DieLine, Page, PlaceFace, Strokes
from pnpgen.shapes import Affine, ShapeSpec, bleed_path, cut_path

CLEARANCE_MM = 1.0  # the insert is at least this much narrower and shorter than the sleeve's inside
# Without --sleeve: the card's trim + this much each way, what the sleeves sold for a format
# leave (poker 63×88 → 66×91; docs/print-facts.md, Sleeves to buy for each card format)
DEFAULT_ROOM_MM = 3.0
# A sleeve more than this larger than the card either way lets it slide about: another format's
# sleeve (a build's --sleeve 66x91 beside mini cards), which the build warns of (engine/paper.py)
LOOSE_MM = 5.0


@dataclass(frozen=True)
class Sleeve:
    """A card sleeve for sleeve inserts (``--layout sleeve``): its inside size and the room a face needs in it; a
    face too large is printed smaller to slip in."""

    w: float
    h: float
    clearance_mm: float = CLEARANCE_MM

    def scale_for(self, spec: ShapeSpec) -> float:
        """1.0 when the piece fits as it is; else the factor that makes it fit (either way up)."""
        w, h = self._turned(spec)
        room_w, room_h = self.w - self.clearance_mm, self.h - self.clearance_mm
        return min(1.0, room_w / w, room_h / h)

    def loose_by(self, spec: ShapeSpec) -> float:
        """How much larger than the piece the sleeve is, on its looser side (either way up)."""
        w, h = self._turned(spec)
        return max(self.w - w, self.h - h)

    def _turned(self, spec: ShapeSpec) -> tuple[float, float]:
        """The piece's width and height, turned to lie as the sleeve does."""
        return (spec.w, spec.h) if (spec.w <= spec.h) == (self.w <= self.h) else (spec.h, spec.w)


def default_sleeve(trim: tuple[float, float]) -> tuple[float, float]:
    """The sleeve inserts are made for when ``--sleeve`` is not given: the trim + DEFAULT_ROOM_MM."""
    return (trim[0] + DEFAULT_ROOM_MM, trim[1] + DEFAULT_ROOM_MM)


@dataclass(frozen=True)
class SleeveLayout:
    """A card deck's inserts on the paper: the sleeve's inside (mm), the insert (the card at
    ``scale``) and the grid or nesting of inserts. Decks of one such layout may share sheets
    (impose/share.py)."""

    sleeve_mm: tuple[float, float]
    insert: ShapeSpec
    scale: float
    inserts: SheetLayout | NestLayout

    @property
    def per_sheet(self) -> int:
        return self.inserts.per_sheet

    @property
    def sheet_bleed_mm(self) -> float:
        return self.inserts.sheet_bleed_mm

    @property
    def paper_mm(self) -> tuple[float, float]:
        return self.inserts.paper_mm


def layout_sleeve(spec: ShapeSpec, count: int, sheet: SheetOptions, kind: str) -> SleeveLayout | None:
    """``count`` cards of ``spec`` as inserts for the build's sleeve (``sheet.sleeve_mm``, else the
    trim + DEFAULT_ROOM_MM); None for pieces that are not cards, or inserts no sheet holds."""
    if kind != "card":
        return None
    w, h = sheet.sleeve_mm or default_sleeve((spec.w, spec.h))
    s = Sleeve(w, h).scale_for(spec)
    insert = scaled(spec, s)
    inserts = choose_layout(insert, count, sheet.without_backs(), kind)
    return None if inserts is None else SleeveLayout((w, h), insert, s, inserts)


def sleeve_option(text: str) -> Sleeve:
    """``66x91`` (mm, the sleeve's inside; ``2.6x3.6in``, ``6.6cmx9.1cm`` too: a unit after the
    height is both sides') → Sleeve."""
    return Sleeve(*sleeve_size(text))


def sleeve_pages(fronts: tuple[str, ...], spec: ShapeSpec, insert: ShapeSpec, scale: float,
                 layout: SheetLayout | NestLayout, art_bleed_mm: float, sheet: SheetOptions) -> list[Page]:
    """The fronts at insert size on the layout made for ``insert`` (the piece scaled by
    ``scale``), marks round grids of rectangles, die lines round other shapes; no slug (the
    caller adds it)."""
    per = layout.per_sheet
    sb = layout.sheet_bleed_mm
    clip = bleed_path(insert, sb)
    shrink = Affine(scale, 0.0, 0.0, scale, 0.0, 0.0)
    pages = []
    for start in range(0, len(fronts), per):
        chunk = range(start, min(start + per, len(fronts)))
        page = Page(layout.paper_mm, side="front")
        for i in chunk:
            m = layout.transform(i - start)
            page.items.append(PlaceFace(fronts[i], shrink.then(m), (spec.w, spec.h), art_bleed_mm,
                                        clip=clip.transformed(m)))
        if insert.die_cut:
            page.items.extend(DieLine(cut_path(insert).transformed(layout.transform(i - start))) for i in chunk)
        elif isinstance(layout, SheetLayout):
            marks = cut_marks(used_part(layout, len(chunk)), sheet)
            if marks:
                page.items.append(Strokes(tuple(marks)))
        pages.append(page)
    return pages


def scaled(spec: ShapeSpec, s: float) -> ShapeSpec:
    """The outline ``s`` times as large (about the trim box's top-left corner)."""
    if s == 1.0:
        return spec
    return replace(spec, w=spec.w * s, h=spec.h * s, core=tuple((x * s, y * s) for x, y in spec.core),
                   radius=spec.radius * s, size=spec.size * s)
