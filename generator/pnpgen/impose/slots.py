"""Pieces placed into a sheet layout's slots (data/sheetlayouts.py), in order, page after page.
Pure geometry in millimetres, like impose/grid.py, whose sheets it stands in for: the same
``transform``/``back_transform`` (the backs mirrored by shapes.back_transform, as on the grid),
and cut marks drawn by grid.cut_marks round the slots' trim."""

from __future__ import annotations

from dataclasses import dataclass, replace

from pnpgen.data.sheetlayouts import SheetSlot, SheetStock
from pnpgen.errors import InputError, Where
from pnpgen.impose.grid import SheetLayout, SheetOptions, Slot, cut_marks
from pnpgen.shapes import Affine, ShapeSpec, Straight, back_transform, placement


@dataclass(frozen=True)
class SlotLayout:
    """A deck's pieces on a sheet layout: each piece centred in its slot, turned as the slot says."""

    stock: SheetStock
    piece_mm: tuple[float, float]  # the piece's trim as designed
    sheet_bleed_mm: float  # bleed printed round each piece: the layout's and the build's, no more than the gaps allow
    marks: bool

    kind = "slots"
    rotated = False

    @property
    def paper_mm(self) -> tuple[float, float]:
        return self.stock.paper_mm

    @property
    def per_sheet(self) -> int:
        return len(self.stock.slots)

    @property
    def name(self) -> str:
        return self.stock.id

    def transform(self, index: int) -> Affine:
        """Piece frame → sheet (mm) for the front in slot ``index``: turned, then centred."""
        s = self.stock.slots[index]
        w, h = self.piece_mm
        tw, th = (h, w) if s.rotation in (90, 270) else (w, h)
        return placement(s.rotation, s.x + (s.w - tw) / 2, s.y + (s.h - th) / 2, w, h)

    def back_transform(self, index: int, duplex: str) -> Affine:
        """The back of slot ``index``: the front's placement mirrored for the flip, as on the grid."""
        return back_transform(self.transform(index), self.piece_mm[0], duplex, self.paper_mm)

    def top_free(self, sheet: SheetOptions) -> bool:
        """Whether the slots leave the slug's band at the top of the printable area free."""
        return min(s.y for s in self.stock.slots) >= sheet.margin_mm + sheet.slug_mm - 1e-9

    def slug_y(self, sheet: SheetOptions) -> float | None:
        """Where the slug's band starts: None for the top of the printable area (as on the grid)
        when the slots leave it free, else the band at the bottom if the slots leave that free;
        None again when neither is (``slug_room`` is False: the build warns)."""
        if self.top_free(sheet):
            return None
        band = self.paper_mm[1] - sheet.margin_mm - sheet.slug_mm
        return band if max(s.y + s.h for s in self.stock.slots) <= band + 1e-9 else None

    def slug_room(self, sheet: SheetOptions) -> bool:
        return self.top_free(sheet) or self.slug_y(sheet) is not None

    def cut_marks(self, n: int, sheet: SheetOptions) -> list[Straight]:
        """Cut marks round the trim of the first ``n`` slots (none when the layout says marks:
        false), kept out of the slug's band wherever it goes."""
        if not self.marks or n <= 0:
            return []
        used = [_as_grid_slot(s, i) for i, s in enumerate(self.stock.slots[:n])]
        block = SheetLayout(self.paper_mm, (used[0].w, used[0].h), False, len(used), 1, (0.0, 0.0),
                            self.sheet_bleed_mm, used)
        band = self.slug_y(sheet)
        if band is None:
            return cut_marks(block, self._on_stock(sheet))
        lines = cut_marks(block, self._on_stock(replace(sheet, slug_mm=0.0)))  # the slug is at the bottom: marks stop above it
        return [Straight(ln.x1, min(ln.y1, band), ln.x2, min(ln.y2, band)) for ln in lines
                if min(ln.y1, ln.y2) < band and (ln.x1, min(ln.y1, band)) != (ln.x2, min(ln.y2, band))]

    def _on_stock(self, sheet: SheetOptions) -> SheetOptions:
        """``sheet`` on the stock's own paper: the marks keep inside its printable area, not the
        build's paper's (an A3 map's slot in an A4 build: marks on the A4 area ran across the map)."""
        if sheet.cut_area is not None or sheet.silhouette is not None or self.paper_mm == sheet.paper_mm:
            return sheet
        pw, ph = self.paper_mm
        m = sheet.margin_mm
        return replace(sheet, cut_area=(m, m + sheet.slug_mm, pw - m, ph - m))


def _as_grid_slot(s: SheetSlot, i: int) -> Slot:
    return Slot(i, 0, s.x, s.y, s.w, s.h)


def fits(stock: SheetStock, w: float, h: float) -> list[int]:
    """The slots (from 1) a w×h piece does not fit, turned as each slot says."""
    bad = []
    for n, s in enumerate(stock.slots, 1):
        tw, th = (h, w) if s.rotation in (90, 270) else (w, h)
        if abs(tw - s.w) > stock.tolerance_mm + 1e-9 or abs(th - s.h) > stock.tolerance_mm + 1e-9:
            bad.append(n)
    return bad


def slot_bleed(stock: SheetStock, wanted: float) -> float:
    """The bleed every slot keeps: ``wanted`` (and the layout's ``bleed:``), no more than half the
    gap between any two slots, so no piece's bleed prints on its neighbour."""
    bleed = wanted if stock.bleed_mm is None else min(wanted, stock.bleed_mm)
    slots = sorted(stock.slots, key=lambda s: s.x)
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            if b.x - (a.x + a.w) >= 2 * bleed:  # sorted by x: every later slot is at least this far
                break
            gap = max(b.x - (a.x + a.w), a.x - (b.x + b.w), b.y - (a.y + a.h), a.y - (b.y + b.h))
            bleed = min(bleed, max(0.0, gap / 2))
    return bleed


def slot_layout(stock: SheetStock, spec: ShapeSpec, sheet: SheetOptions, where: Where, key: str) -> SlotLayout:
    """The deck's pieces on ``stock``; an InputError at ``where`` naming both sizes when its
    pieces are another size than the slots."""
    bad = fits(stock, spec.w, spec.h)
    if bad:
        s = stock.slots[bad[0] - 1]
        turned = f", turned {s.rotation}°" if s.rotation else ""
        raise InputError(f"a {spec.w:g}×{spec.h:g} mm piece does not fit sheet layout {stock.id}: its slot {bad[0]} is "
                         f"{s.w:g}×{s.h:g} mm{turned}", path=where.path, line=where.line, column=where.column, key=key,
                         expected=f"pieces of the slots' size (±{stock.tolerance_mm:g} mm), another sheet layout, "
                         "or 'sheet: grid' for this deck")
    return SlotLayout(stock, (spec.w, spec.h), slot_bleed(stock, sheet.bleed_mm), stock.marks and sheet.marks != "none")
