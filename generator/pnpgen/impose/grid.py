"""Imposition: where pieces, backs and cut marks go on a sheet. Pure geometry in millimetres.

Coordinates: origin at the sheet's top-left corner, y downwards, like the templates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from pnpgen.data.formats import BLEED_MM, PAPER_SIZES
from pnpgen.impose.nest import NestLayout, bleed_steps, nest_at
from pnpgen.impose.registration import SilhouetteMarks
from pnpgen.memo import Memo
from pnpgen.shapes import Affine, ShapeSpec, Straight, back_transform, placement


@dataclass(frozen=True)
class SheetOptions:
    """Home-sheet settings; every figure can be overridden from the CLI or a deck."""

    paper: str = "a4"
    # --paper given on the command line: every deck prints on it, its own ``paper:`` or not (not in
    # the repr: the paper is, and the build's fingerprint holds what was asked)
    paper_given: bool = field(default=False, repr=False)
    margin_mm: float = 5.0  # the printer cannot print closer to the edge than this
    # The build's one bleed (--bleed): drawn round every face, and wanted round each piece on the
    # sheets (reduced there if space is short).
    bleed_mm: float = BLEED_MM
    marks: str = "jp"  # jp (double トンボ + centre marks) | western | none | silhouette | cricut (impose/cutter.py)
    duplex: str = "long"  # long | short | none
    mark_len_mm: float = 5.0
    mark_gap_mm: float = 1.0  # gap between the bleed edge and the start of a mark
    mark_room_mm: float = 3.0  # least room kept outside the grid for marks
    layout: str = "grid"  # grid (facing pages) | fold (side by side, folded and glued) | sleeve (fronts only)
    sleeve_mm: tuple[float, float] | None = None  # --sleeve: the sleeve's inside (default: the trim + 3 mm)
    printer: str = ""  # the printer profile the sheets are made for, as the slug names it
    printer_plain: str = ""  # … on a sheet whose backs it moves none (one-sided, fold-over, sleeve inserts)
    ink: str = ""  # the ink saver the sheets are drawn with (--ink saver | saver-grey), as the slug names it
    least_bleed_mm: float = 0.0  # bleed two-sided pieces keep even at the cost of more sheets (a profile's offset + 0.5)
    slug_mm: float = 6.0  # band at the top of the printable area: the two slug lines and scale bars
    silhouette: SilhouetteMarks | None = None  # --marks silhouette: the registration marks' figures
    cut_area: tuple[float, float, float, float] | None = None  # where pieces go instead of ``area``

    @property
    def paper_mm(self) -> tuple[float, float]:
        return PAPER_SIZES[self.paper]

    def cut_by_hand(self) -> SheetOptions:
        """These options for sheets cut by hand in a print-and-cut build (a board too large for
        the registration marks' area, the reprint): トンボ, no registration marks, slug on top."""
        return replace(self, marks="jp", silhouette=None) if self.silhouette is not None else self

    @property
    def without_duplex(self) -> bool:
        """Is the build printed without the printer's duplex (``--layout fold`` or ``sleeve``: its cards
        on one side, folded or before a backer card; or ``--duplex none``, a printer profile's too)?
        Then the booklet is printed in two passes, which any printer does (a sleeve build's two-sided
        tokens printed duplex say the printer has it: two passes still print the booklet right)."""
        return self.layout in ("fold", "sleeve") or self.duplex == "none"

    def without_backs(self) -> SheetOptions:
        """These options for pieces with no back printed behind them (a one-sided deck, sleeve
        inserts): no gutters for a printer's back offset, which moves only backs."""
        return replace(self, least_bleed_mm=0.0) if self.least_bleed_mm else self

    @property
    def area(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) where pieces and their marks go: the printable area less the slug (or
        ``cut_area``, when given)."""
        if self.cut_area is not None:
            return self.cut_area
        if self.silhouette is not None:
            return self.silhouette.cut_area(self.paper_mm, self.margin_mm, self.slug_mm)
        pw, ph = self.paper_mm
        m = self.margin_mm
        return m, m + self.slug_mm, pw - m, ph - m

    @property
    def slug_at(self) -> tuple[float, float] | None:
        """(x, y) of the slug when not at the top margin (clear of a cutter's registration marks)."""
        return self.silhouette.slug_origin(self.paper_mm, self.margin_mm, self.slug_mm) if self.silhouette is not None else None

    @property
    def area_mm(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.area
        return x1 - x0, y1 - y0


@dataclass(frozen=True)
class Slot:
    """The trim rectangle of one piece on a sheet."""

    col: int
    row: int
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class SheetLayout:
    """How a deck's pieces sit on a home sheet: how many across and down, turned or not, with what gaps and bleed,
    so the cut lines and backs line up."""

    paper_mm: tuple[float, float]
    piece_mm: tuple[float, float]  # as placed on the sheet (after rotation)
    rotated: bool  # pieces turned 90° to fit more
    cols: int
    rows: int
    gutter_mm: tuple[float, float]
    sheet_bleed_mm: float  # bleed actually printed around each piece on this sheet
    slots: list[Slot] = field(default_factory=list)

    kind = "grid"

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    @property
    def unturned_mm(self) -> tuple[float, float]:
        """The piece's trim box as designed."""
        w, h = self.piece_mm
        return (h, w) if self.rotated else (w, h)

    def transform(self, index: int) -> Affine:
        """Piece frame → sheet (mm) for the front in slot ``index``: turned 90° clockwise when rotated."""
        s = self.slots[index]
        w, h = self.unturned_mm
        return placement(90 if self.rotated else 0, s.x, s.y, w, h)

    def back_transform(self, index: int, duplex: str) -> Affine:
        """Piece frame → backs sheet for the back of slot ``index``: the mirror image of the front
        (so it lands at ``back_slot``), turned the other way when pieces are rotated."""
        return back_transform(self.transform(index), self.unturned_mm[0], duplex, self.paper_mm)

    def slot(self, col: int, row: int) -> Slot:
        return self.slots[row * self.cols + col]

    def back_slot(self, slot: Slot, duplex: str) -> Slot:
        """Where the back of ``slot`` goes so it lands behind its front after the flip."""
        if duplex == "long":
            return self.slot(self.cols - 1 - slot.col, slot.row)
        if duplex == "short":
            return self.slot(slot.col, self.rows - 1 - slot.row)
        return slot

    @property
    def grid_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of all pieces with their sheet bleed."""
        b = self.sheet_bleed_mm
        return (min(s.x for s in self.slots) - b, min(s.y for s in self.slots) - b,
                max(s.x + s.w for s in self.slots) + b, max(s.y + s.h for s in self.slots) + b)


def _pieces_along(length: float, piece: float, room: float) -> int:
    """How many pieces fit side by side (abutting at worst) leaving ``room`` at both ends."""
    return max(0, int((length - 2 * room + 1e-9) // piece))


def _axis_bleed(length: float, piece: float, n: int, room: float, bleed: float) -> float:
    """The most bleed (up to ``bleed``) each of ``n`` pieces can keep on this axis, when
    neighbours are two bleeds apart and ``room`` stays free for marks at both ends."""
    return max(0.0, min(bleed, (length - n * piece - 2 * room) / (2 * n)))


def _axis_start(length: float, piece: float, n: int, gutter: float) -> float:
    """Offset that centres a row of ``n`` pieces ``gutter`` apart."""
    return (length - (n * piece + (n - 1) * gutter)) / 2


def _best_grid(piece_w: float, piece_h: float, opts: SheetOptions, room: float,
               bleed: float, most_bleed: float = 0.0) -> tuple[bool, float, float, int, int] | None:
    """(rotated, w, h, cols, rows) of the grid with the most pieces, each taking its size plus two
    bleeds, inside the printable area less ``room`` for marks; pieces turn 90° if that fits more,
    or, as many either way, if turned they keep more of the bleed ``most_bleed`` (six 2.5 × 3.5 in
    cards between a Silhouette's marks on Letter, 3 × 2 at 0.9 mm upright, 2 × 3 at 3 mm turned)."""
    lw, lh = opts.area_mm
    best = None
    kept = 0.0
    for rotated, (w, h) in ((False, (piece_w, piece_h)), (True, (piece_h, piece_w))):
        cols, rows = _pieces_along(lw, w + 2 * bleed, room), _pieces_along(lh, h + 2 * bleed, room)
        if not cols * rows:
            continue
        keeps = min(_axis_bleed(lw, w, cols, room, most_bleed), _axis_bleed(lh, h, rows, room, most_bleed))
        if best is None or cols * rows > best[3] * best[4] or \
                (cols * rows == best[3] * best[4] and keeps > kept + 1e-9):
            best, kept = (rotated, w, h, cols, rows), keeps
    return best


def _grid(opts: SheetOptions, rotated: bool, w: float, h: float, cols: int, rows: int,
          bleed: float) -> SheetLayout:
    """A centred grid of pieces two bleeds apart."""
    pw, ph = opts.paper_mm
    ax, ay, _, _ = opts.area
    aw, ah = opts.area_mm
    g = 2 * bleed
    x0 = _axis_start(aw, w, cols, g)
    y0 = _axis_start(ah, h, rows, g)
    slots = [
        Slot(c, r, ax + x0 + c * (w + g), ay + y0 + r * (h + g), w, h)
        for r in range(rows)
        for c in range(cols)
    ]
    return SheetLayout((pw, ph), (w, h), rotated, cols, rows, (g, g), bleed, slots)


def layout_grid(piece_w: float, piece_h: float, opts: SheetOptions) -> SheetLayout | None:
    """The grid holding the most pieces inside the printable area (abutting at worst), then the
    largest bleed up to opts.bleed_mm that still leaves room for the marks.

    Returns None when one piece does not fit the sheet (a board: split it into tiles instead).
    """
    best = _best_grid(piece_w, piece_h, opts, opts.mark_room_mm, 0.0, most_bleed=opts.bleed_mm)
    if best is None:
        return None
    rotated, w, h, cols, rows = best
    lw, lh = opts.area_mm
    room = opts.mark_room_mm
    bleed = min(_axis_bleed(lw, w, cols, room, opts.bleed_mm), _axis_bleed(lh, h, rows, room, opts.bleed_mm))
    least = min(opts.least_bleed_mm, opts.bleed_mm)
    if bleed < least - 1e-9:  # backs a printer shifts would show white edges: gutters, if the paper allows
        wider = layout_grid_at(piece_w, piece_h, opts, least)
        if wider is not None:
            return wider
    return _grid(opts, rotated, w, h, cols, rows, bleed)


def cut_marks(layout: SheetLayout, opts: SheetOptions) -> list[Straight]:
    """Cut marks outside the grid: on every trim line, plus (jp) bleed lines and centre marks."""
    if opts.marks not in ("jp", "western"):  # none, or a cutting machine's registration marks
        return []
    x0, y0, x1, y1 = layout.grid_box
    ax0, ay0, ax1, ay1 = opts.area  # marks stay inside the printable area, below the slug
    gap, b = opts.mark_gap_mm, layout.sheet_bleed_mm

    def vertical(x: float) -> list[Straight]:
        top = max(ay0, y0 - gap - opts.mark_len_mm)
        bottom = min(ay1, y1 + gap + opts.mark_len_mm)
        return [Straight(x, top, x, y0 - gap), Straight(x, y1 + gap, x, bottom)]

    def horizontal(y: float) -> list[Straight]:
        left = max(ax0, x0 - gap - opts.mark_len_mm)
        right = min(ax1, x1 + gap + opts.mark_len_mm)
        return [Straight(left, y, x0 - gap, y), Straight(x1 + gap, y, right, y)]

    xs: set[float] = set()
    ys: set[float] = set()
    for s in layout.slots:
        xs.update((round(s.x, 4), round(s.x + s.w, 4)))
        ys.update((round(s.y, 4), round(s.y + s.h, 4)))
    if opts.marks == "jp" and b >= 0.5:
        # The second line of each double トンボ sits on the bleed edge, outside the piece.
        for s in layout.slots:
            xs.update((round(s.x - b, 4), round(s.x + s.w + b, 4)))
            ys.update((round(s.y - b, 4), round(s.y + s.h + b, 4)))
    lines = [ln for x in sorted(xs) for ln in vertical(x)] + [ln for y in sorted(ys) for ln in horizontal(y)]
    if opts.marks == "jp":
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        half = opts.mark_len_mm / 2
        lines += vertical(cx) + horizontal(cy)
        # Centre トンボ crossbars, each in the middle of its mark.
        for yy in ((y0 - gap + max(ay0, y0 - gap - opts.mark_len_mm)) / 2,
                   (y1 + gap + min(ay1, y1 + gap + opts.mark_len_mm)) / 2):
            lines.append(Straight(cx - half, yy, cx + half, yy))
        for xx in ((x0 - gap + max(ax0, x0 - gap - opts.mark_len_mm)) / 2,
                   (x1 + gap + min(ax1, x1 + gap + opts.mark_len_mm)) / 2):
            lines.append(Straight(xx, cy - half, xx, cy + half))
    return [ln for ln in lines if (ln.x1, ln.y1) != (ln.x2, ln.y2)]


def used_part(layout: SheetLayout, n: int) -> SheetLayout:
    """The block of a grid that ``n`` pieces fill (slots in reading order): whole rows, or part of
    the first row; cut marks for it leave empty slots unmarked."""
    n = max(1, min(n, layout.per_sheet))
    if n == layout.per_sheet:
        return layout
    rows = -(-n // layout.cols)
    cols = layout.cols if rows > 1 else n
    slots = [s for s in layout.slots if s.row < rows and s.col < cols]
    return SheetLayout(layout.paper_mm, layout.piece_mm, layout.rotated, cols, rows, layout.gutter_mm,
                       layout.sheet_bleed_mm, slots)


def layout_grid_at(piece_w: float, piece_h: float, opts: SheetOptions, bleed: float,
                   room: float | None = None) -> SheetLayout | None:
    """A grid keeping exactly ``bleed`` around every piece (gutters 2·bleed), turning pieces 90° if
    that fits more, ``room`` (default opts.mark_room_mm) kept free for marks. None if none fit."""
    best = _best_grid(piece_w, piece_h, opts, opts.mark_room_mm if room is None else room, bleed)
    return None if best is None else _grid(opts, *best, bleed)


def choose_layout(spec: ShapeSpec, count: int, opts: SheetOptions, kind: str = "card",
                  nest_memo: Memo[list] | None = None):
    """How a deck's pieces go on home sheets.

    Rectangular cards: the card grid (``layout_grid``: the most per sheet, cut marks round it).
    Everything else prints on the fewest sheets the deck needs, and among those layouts the one
    with the most bleed, then the most pieces per sheet, then a grid before a nest:
    rectangles and rounded rectangles on a grid with cut marks (``layout_grid_at``); die-cut
    shapes (circle, hex, tri-hex, polygon) on a bounding-box grid without cut marks, or nested
    on a lattice (``nest.nest_at``, remembering its searches in ``nest_memo``). With a printer
    profile's ``least_bleed_mm`` more than that layout's bleed: the most pieces a sheet at exactly
    that bleed (more sheets, never more bleed). Returns None when not even one piece fits the sheet."""
    if spec.kind == "rect" and kind == "card":
        return layout_grid(spec.w, spec.h, opts)
    paper = opts.paper_mm
    straight = spec.kind in ("rect", "rounded")

    def options(bleed: float) -> list:
        out: list[SheetLayout | NestLayout] = []
        grid = layout_grid_at(spec.w, spec.h, opts, bleed, room=None if straight else 0.0)
        if grid is not None:
            out.append(grid)
        if not straight:
            nested = nest_at(spec, paper, opts.margin_mm, bleed, top=opts.slug_mm, memo=nest_memo)
            if nested is not None:
                out.append(nested)
        return out

    def fewest_sheets(steps: list[float]):
        """Of the bleeds ``steps`` (largest first), the largest giving the fewest sheets the last gives."""
        tightest = options(steps[-1])
        if not tightest:
            return None
        fewest = min(math.ceil(count / lay.per_sheet) for lay in tightest)
        for bleed in steps:
            fitting = [lay for lay in (tightest if bleed == steps[-1] else options(bleed))
                       if math.ceil(count / lay.per_sheet) == fewest]
            if fitting:
                return max(fitting, key=lambda lay: (lay.per_sheet, lay.kind == "grid"))
        raise AssertionError("unreachable: the tightest bleed always fits")

    tight = fewest_sheets(bleed_steps(opts.bleed_mm))
    least = min(opts.least_bleed_mm, opts.bleed_mm)
    if least > 0 and (tight is None or tight.sheet_bleed_mm < least - 1e-9):
        # backs a printer shifts: the bleed its offset needs, on more sheets if need be, and no more, as
        # cards keep it (½-inch counters at 0.8 mm: 234 a sheet; the deck's full 3 mm held 140)
        wide = fewest_sheets([least])
        if wide is not None:
            return wide
    return tight


MARGIN_STEP_MM = 0.5  # the margins tried for a tiled board that would fit one sheet with a smaller one


SHRINK_TO_HOLD_WHOLE = 0.85  # a tiled board is told the size one sheet holds when that is no smaller than this


def size_to_hold_whole(spec: ShapeSpec, opts: SheetOptions, pieces: int = 1) -> tuple[float, float] | None:
    """A rectangular board tiled only just (an A4 score sheet on A4 paper): the largest size of
    its proportions, in whole millimetres, that one sheet holds whole at the margin given, with
    no bleed; None for another shape, or when that is smaller than SHRINK_TO_HOLD_WHOLE of it.
    ``pieces=2``: the size a sheet holds two of (a half-sheet score pad, one a sheet as it is)."""
    if spec.kind not in ("rect", "rounded"):
        return None
    lo, hi = SHRINK_TO_HOLD_WHOLE, 1.0

    def holds(scale: float) -> bool:
        grid = layout_grid_at(spec.w * scale, spec.h * scale, opts, 0.0)
        return grid is not None and grid.per_sheet >= pieces

    if not holds(lo):
        return None
    for _ in range(24):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if holds(mid) else (lo, mid)
    w, h = math.floor(spec.w * lo), math.floor(spec.h * lo)
    return (w, h) if w >= spec.w * SHRINK_TO_HOLD_WHOLE and h >= spec.h * SHRINK_TO_HOLD_WHOLE else None


def margin_to_hold_whole(spec: ShapeSpec, count: int, kind: str, opts: SheetOptions,
                         nest_memo: Memo[list] | None = None) -> tuple[float, float] | None:
    """A board tiled only because the printer's margin (and the marks' room) leave too little of
    the paper: the largest smaller margin (in MARGIN_STEP_MM steps) at which ``choose_layout``
    holds it whole on one sheet, with the bleed it keeps there; None when the paper is too small
    whatever the margin. (A board's bleed is already reduced, to none, before it is tiled.)"""
    below = math.ceil(opts.margin_mm / MARGIN_STEP_MM - 1e-9) - 1
    for k in range(below, -1, -1):
        narrower = replace(opts, margin_mm=k * MARGIN_STEP_MM)
        if layout_grid_at(spec.w, spec.h, narrower, 0.0, room=None if spec.kind in ("rect", "rounded") else 0.0):
            whole = choose_layout(spec, count, narrower, kind, nest_memo)
            if whole is not None:
                return narrower.margin_mm, whole.sheet_bleed_mm
    return None
