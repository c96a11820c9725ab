"""Fold-over ("gutterfold") home sheets, as page plans in mm: each piece's front and its back on
the same side of the paper, the backs the mirror image of the fronts across a fold line through
the middle of the sheet, so that folding the sheet along that line (and gluing it) puts every
back exactly behind its own front. No duplex printing is needed.

The fold is vertical (fronts on the left half, backs on the right) or horizontal (fronts on the
upper half, backs on the lower), whichever holds more pieces; a fold at x = W/2 is the geometry
of a long-edge duplex flip and one at y = H/2 that of a short-edge flip, so the backs are placed
by the same ``back_transform``. Cut marks go on the outer edges only (the fold edge is glued, not
cut); the fold line is dashed and labelled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pnpgen.impose.grid import SheetOptions
from pnpgen.impose.nest import bleed_steps
from pnpgen.impose.plan import DieLine, Item, LineOp, Page, PlaceFace, Strokes, TextOp
from pnpgen.messages import msg
from pnpgen.shapes import Affine, ShapeSpec, Straight, back_outline, back_transform, bleed_path, cut_path, placement

FOLD_INK = (0.85, 0.0, 0.45)


@dataclass(frozen=True)
class FoldLayout:
    """Fronts and backs side by side on one sheet, folded along the middle: for a printer that cannot print both
    sides."""

    paper_mm: tuple[float, float]
    vertical: bool  # fold line x = W/2 (fronts left) if True, else y = H/2 (fronts above)
    rotated: bool  # pieces turned 90°
    cols: int
    rows: int
    bleed_mm: float  # printed round each piece (the gutter is twice this)
    origin: tuple[float, float]  # top-left trim corner of the first front
    piece_mm: tuple[float, float]  # as designed (unturned)

    kind = "fold"

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def sheet_bleed_mm(self) -> float:
        """The bleed printed round each piece, as the grid's and the nesting's say it (sheets decks share)."""
        return self.bleed_mm

    @property
    def duplex(self) -> str:
        """The duplex flip with the same geometry as this fold."""
        return "long" if self.vertical else "short"

    @property
    def fold_at(self) -> float:
        return self.paper_mm[0] / 2 if self.vertical else self.paper_mm[1] / 2

    @property
    def turned_mm(self) -> tuple[float, float]:
        w, h = self.piece_mm
        return (h, w) if self.rotated else (w, h)

    def front(self, index: int) -> Affine:
        """Piece frame → page for the front in slot ``index`` (row by row)."""
        tw, th = self.turned_mm
        col, row = index % self.cols, index // self.cols
        step = 2 * self.bleed_mm
        x = self.origin[0] + col * (tw + step)
        y = self.origin[1] + row * (th + step)
        return placement(90 if self.rotated else 0, x, y, *self.piece_mm)

    def back(self, index: int) -> Affine:
        """Piece frame → page for the back of slot ``index``: the mirror image across the fold."""
        return back_transform(self.front(index), self.piece_mm[0], self.duplex, self.paper_mm)

    def used(self, n: int) -> FoldLayout:
        """The part of the sheet ``n`` pieces fill (slots in reading order, from the outer edge):
        whole rows, or part of the first row, as a grid's ``used_part``; its marks leave the empty
        slots of a last sheet unmarked, so that no one cuts out blank cards."""
        n = max(1, min(n, self.per_sheet))
        rows = -(-n // self.cols)
        return replace(self, cols=self.cols if rows > 1 else n, rows=rows)

    def block(self) -> tuple[float, float, float, float]:
        """The fronts' trim block (x0, y0, x1, y1)."""
        tw, th = self.turned_mm
        step = 2 * self.bleed_mm
        x0, y0 = self.origin
        return x0, y0, x0 + self.cols * tw + (self.cols - 1) * step, y0 + self.rows * th + (self.rows - 1) * step


def layout_fold(spec: ShapeSpec, sheet: SheetOptions) -> FoldLayout | None:
    """The fold-over layout with the most pieces a sheet (the widest bleed that fits any), or None
    when not one piece fits in half the printable area."""
    paper = sheet.paper_mm
    ax0, ay0, ax1, ay1 = sheet.area
    best: FoldLayout | None = None
    for bleed in (sheet.bleed_mm, sheet.bleed_mm / 2, 0.0):
        outer = bleed + sheet.mark_room_mm + sheet.mark_gap_mm  # marks beyond the outer bleed
        for vertical in (True, False):
            fold = paper[0] / 2 if vertical else paper[1] / 2
            for rotated in (False, True):
                tw, th = (spec.h, spec.w) if rotated else (spec.w, spec.h)
                step = 2 * bleed
                if vertical:  # fronts between the left edge of the area and the fold
                    across = fold - bleed - (ax0 + outer)
                    along = (ay1 - ay0) - 2 * outer
                    cols, rows = _fit(across, tw, step), _fit(along, th, step)
                else:
                    across = fold - bleed - (ay0 + outer)
                    along = (ax1 - ax0) - 2 * outer
                    cols, rows = _fit(along, tw, step), _fit(across, th, step)
                if cols * rows == 0:
                    continue
                bw, bh = cols * tw + (cols - 1) * step, rows * th + (rows - 1) * step
                if vertical:
                    origin = (fold - bleed - bw, ay0 + ((ay1 - ay0) - bh) / 2)
                else:
                    origin = (ax0 + ((ax1 - ax0) - bw) / 2, fold - bleed - bh)
                lay = FoldLayout(paper, vertical, rotated, cols, rows, bleed, origin, (spec.w, spec.h))
                if best is None or lay.per_sheet > best.per_sheet:
                    best = lay
        if best is not None:
            return best
    return None


def more_with_less_bleed(spec: ShapeSpec, sheet: SheetOptions, lay: FoldLayout) -> FoldLayout | None:
    """Fold-over keeps the bleed asked (a fold never lands exactly: the back needs its bleed):
    the layout of the largest smaller bleed of ``BLEED_STEPS``, down to half the one asked, that
    holds more pieces a sheet than ``lay`` (3 poker cards on A4 at 3 mm, 4 at 2.5 mm), for the
    build's summary to say; None when no such bleed holds more."""
    for bleed in bleed_steps(lay.bleed_mm)[1:]:
        if bleed < lay.bleed_mm / 2 - 1e-9:
            break
        more = layout_fold(spec, replace(sheet, bleed_mm=bleed))
        if more is not None and more.per_sheet > lay.per_sheet:
            return more
    return None


def _fit(length: float, piece: float, step: float) -> int:
    return max(0, int((length + step + 1e-9) // (piece + step)))


def fold_marks(lay: FoldLayout, sheet: SheetOptions) -> list[Straight]:
    """Cut marks on every trim line, outside the outer edges of the folded block only (``lay``
    the part of the sheet its pieces fill: ``FoldLayout.used``)."""
    if sheet.marks == "none":
        return []
    x0, y0, x1, y1 = lay.block()
    tw, th = lay.turned_mm
    step = 2 * lay.bleed_mm
    gap = lay.bleed_mm + sheet.mark_gap_mm
    n = sheet.mark_len_mm
    xs = sorted({x0 + c * (tw + step) for c in range(lay.cols)} | {x0 + c * (tw + step) + tw for c in range(lay.cols)})
    ys = sorted({y0 + r * (th + step) for r in range(lay.rows)} | {y0 + r * (th + step) + th for r in range(lay.rows)})
    W, H = lay.paper_mm
    lines: list[Straight] = []
    if lay.vertical:  # columns: marks above and below both halves; rows: at the outer left and right
        for x in xs:
            for xx in (x, W - x):
                lines += [Straight(xx, y0 - gap - n, xx, y0 - gap), Straight(xx, y1 + gap, xx, y1 + gap + n)]
        for y in ys:
            lines += [Straight(x0 - gap - n, y, x0 - gap, y), Straight(W - x0 + gap, y, W - x0 + gap + n, y)]
    else:
        for y in ys:
            for yy in (y, H - y):
                lines += [Straight(x0 - gap - n, yy, x0 - gap, yy), Straight(x1 + gap, yy, x1 + gap + n, yy)]
        for x in xs:
            lines += [Straight(x, y0 - gap - n, x, y0 - gap), Straight(x, H - y0 + gap, x, H - y0 + gap + n)]
    return lines


def fold_line(lay: FoldLayout, sheet: SheetOptions, font: str, lang: str) -> list[Item]:
    """The dashed fold line across the printable area, and its label at the top (or left) end."""
    ax0, ay0, ax1, ay1 = sheet.area
    f = lay.fold_at
    label = msg("sheet.fold_line", lang)
    if lay.vertical:
        return [LineOp(Straight(f, ay0, f, ay1), FOLD_INK, 0.5, (3.0, 1.5)),
                TextOp(f + 1.0, ay0 + 1.0, label, font, 5, FOLD_INK, angle=90)]
    return [LineOp(Straight(ax0, f, ax1, f), FOLD_INK, 0.5, (3.0, 1.5)),
            TextOp(ax0, f - 1.0, label, font, 5, FOLD_INK)]


def fold_page_items(lay: FoldLayout, spec: ShapeSpec, fronts: list[str], backs: list[str],
                    art_bleed_mm: float, sheet: SheetOptions) -> list[Item]:
    """The faces of one sheet: fronts, and each back across the fold; marks or die lines."""
    front_clip = bleed_path(spec, lay.bleed_mm)
    back_clip = back_outline(spec, lay.bleed_mm)
    items: list[Item] = []
    for i, (front, back) in enumerate(zip(fronts, backs, strict=True)):
        m, mb = lay.front(i), lay.back(i)
        items.append(PlaceFace(front, m, (spec.w, spec.h), art_bleed_mm, clip=front_clip.transformed(m)))
        items.append(PlaceFace(back, mb, (spec.w, spec.h), art_bleed_mm, clip=back_clip.transformed(mb)))
    if spec.die_cut:  # cut through both layers after gluing: the die line on the fronts' side
        items.extend(DieLine(cut_path(spec).transformed(lay.front(i))) for i in range(len(fronts)))
    elif spec.kind in ("rect", "rounded"):
        marks = fold_marks(lay.used(len(fronts)), sheet)
        if marks:
            items.append(Strokes(tuple(marks)))
    return items


def fold_pages(lay: FoldLayout, spec: ShapeSpec, fronts: tuple[str, ...], backs: tuple[str, ...],
               art_bleed_mm: float, sheet: SheetOptions, font: str, lang: str) -> list[Page]:
    """Every fold-over sheet of a deck (without its slug, which the caller adds)."""
    pages = []
    per = lay.per_sheet
    for start in range(0, len(fronts), per):
        page = Page(lay.paper_mm, side="fold")
        page.items.extend(fold_page_items(lay, spec, list(fronts[start:start + per]), list(backs[start:start + per]),
                                          art_bleed_mm, sheet))
        page.items.extend(fold_line(lay, sheet, font, lang))
        pages.append(page)
    return pages
