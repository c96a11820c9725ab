"""Boards larger than the paper: numbered page tiles with overlap strips, alignment marks and an
assembly map. Pure geometry in millimetres.

The board may be turned 90° (clockwise) on the page when that needs fewer pages; the *turned
frame* is the board as it lies on the pages. It is cut into ``cols × rows`` equal regions that
overlap by ``overlap_mm``: region (c, r) spans x from c·(tw − overlap) to that + tw. The outer
edges of the board keep their bleed.

Assembly: cut every tile along its crop marks (its region's edges), then lay the tiles out as
the map shows, each tile over its left and upper neighbours: its edge goes on the neighbour's
dashed guide line, and the neighbour's overlap strip (the glue strip) disappears under it. The
guide line, its ticks and the tile's edge all sit at the same board coordinate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pnpgen.shapes import Affine, Point, Straight, back_transform, placement, translate

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class TileOptions:
    """How a board larger than the paper is cut into pages: how much they overlap and the room left for marks,
    numbers and the assembly map."""

    overlap_mm: float = 10.0
    band_mm: float = 21.0  # at the page foot: tile number, assembly map, instructions, then the slug
    slug_mm: float = 6.0  # the band's last two lines: print instruction, scale bars, stamp
    mark_room_mm: float = 6.0  # around the printed area, for crop marks and ticks
    mark_len_mm: float = 4.0
    mark_gap_mm: float = 1.0


@dataclass(frozen=True)
class Tile:
    """One page of a board printed in pieces: which part of the board it shows and where that lies on the page."""

    number: int  # 1-based, row by row
    col: int
    row: int
    region: Rect  # trim part of the board on this tile, turned frame
    visible: Rect  # region plus bleed at the board's outer edges, turned frame
    to_page: Affine  # board frame (as designed) → page

    def page_rect(self, r: Rect, turn: Affine) -> Rect:
        """A turned-frame rectangle on this tile's page."""
        m = turn.inverse().then(self.to_page)
        (x0, y0), (x1, y1) = m((r[0], r[1])), m((r[2], r[3]))
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


@dataclass(frozen=True)
class TileMark:
    """An alignment mark: a line at one board coordinate, drawn on a tile's page."""

    tile: int  # tile number
    axis: str  # "x": a vertical line at turned-frame x = at; "y": horizontal
    at: float  # turned-frame coordinate of the boundary it marks
    line: Straight  # on the page
    kind: str  # "guide" (dashed, across the glue strip) | "tick" (in the margin) | "edge" (crop mark)


@dataclass(frozen=True)
class TilePlan:
    """A board larger than the paper printed over several pages: the grid of tiles, their overlap and the page area
    each prints, and whether a smaller board would need fewer pages."""

    paper_mm: tuple[float, float]
    board_mm: tuple[float, float]  # as designed
    rot: int  # 0 or 90: the board's turn on the pages
    cols: int
    rows: int
    overlap_mm: float
    bleed_mm: float
    tile_mm: tuple[float, float]  # region size (turned frame)
    content: Rect  # page area for the printed part of a tile
    band: Rect  # page area for number, map and note
    tiles: list[Tile] = field(default_factory=list)
    # the next fewer pages a tile grid gives, and the largest board it holds (as designed, mm):
    # (cols, rows, width, height), for the summary to say; None when one page or nothing fewer
    fewer: tuple[int, int, float, float] | None = None
    fewer_turned: bool = False  # that grid is the board turned 90° on the pages (its cols × rows as they lie)

    @property
    def turn(self) -> Affine:
        """Board frame → turned frame."""
        return placement(self.rot, 0.0, 0.0, *self.board_mm)

    @property
    def turned_mm(self) -> tuple[float, float]:
        w, h = self.board_mm
        return (h, w) if self.rot == 90 else (w, h)

    @property
    def pages(self) -> int:
        return len(self.tiles)

    def clip(self, tile: Tile) -> Rect:
        """What of the board prints on the tile's page (page rectangle)."""
        return tile.page_rect(tile.visible, self.turn)

    def back(self, tile: Tile, duplex: str) -> Affine:
        """Board-back frame → page for the back of a tile (mirror image of the front)."""
        return back_transform(tile.to_page, self.board_mm[0], duplex, self.paper_mm)


def _count(length: float, avail: float, overlap: float, bleed: float) -> int | None:
    """Regions needed along one axis, or None if even a sliver does not fit."""
    if length + 2 * bleed <= avail + 1e-9:
        return 1
    step = avail - bleed - overlap
    if step <= 0:
        return None
    return max(2, math.ceil((length - overlap) / step - 1e-9))


def _most(n: int, avail: float, overlap: float, bleed: float) -> float:
    """The longest length ``n`` regions hold along one axis (``_count``'s inverse)."""
    return avail - 2 * bleed if n == 1 else n * (avail - bleed - overlap) + overlap


# a board this much smaller on fewer pages is the one to name: a 400 × 270 mm mission board was told
# 3 A4 tiles hold 367 × 248 mm, not that 2 (two A4 halves) hold 360 × 243
NEAR_FEWER = 0.03


def _fewer(board: tuple[float, float], pages: int, aw: float, ah: float, ov: float,
           bleed: float) -> tuple[tuple[int, int, float, float], bool] | None:
    """The grid of fewer pages that holds the largest board of the same proportions, or one of
    still fewer pages holding one at most ``NEAR_FEWER`` smaller (on a tie, the fewest pages),
    with that board's size; and whether the grid is the board turned 90° (a tall 279 × 432 mm map
    panel's ``3×1`` of A4 pages is three across the panel lying on its side, trial76)."""
    grids = []
    for rot in (0, 90):
        tw_, th_ = (board[1], board[0]) if rot == 90 else board
        for cols in range(1, pages):
            for rows in range(1, pages // cols + 1):
                if cols * rows >= pages:
                    continue
                fit = min(_most(cols, aw, ov, bleed) / tw_, _most(rows, ah, ov, bleed) / th_, 1.0)
                if fit > 0:
                    grids.append((fit, cols, rows, rot))
    if not grids:
        return None
    largest = max(g[0] for g in grids)
    fit, cols, rows, rot = min((g for g in grids if g[0] >= largest * (1 - NEAR_FEWER)), key=lambda g: (g[1] * g[2], -g[0]))
    return (cols, rows, math.floor(board[0] * fit), math.floor(board[1] * fit)), rot == 90


def plan_tiles(board_w: float, board_h: float, paper: tuple[float, float], margin: float, bleed: float,
               opts: TileOptions = TileOptions()) -> TilePlan:
    """Split a board into the fewest page tiles (upright or turned 90°, upright on ties)."""
    pw, ph = paper
    room = opts.mark_room_mm
    content = (margin + room, margin + room, pw - margin - room, ph - margin - opts.band_mm - room)
    band = (margin, ph - margin - opts.band_mm, pw - margin, ph - margin)
    aw, ah = content[2] - content[0], content[3] - content[1]
    best = None
    for rot in (0, 90):
        tw_, th_ = (board_h, board_w) if rot == 90 else (board_w, board_h)
        cols, rows = _count(tw_, aw, opts.overlap_mm, bleed), _count(th_, ah, opts.overlap_mm, bleed)
        if cols is None or rows is None:
            continue
        if best is None or cols * rows < best[0]:
            best = (cols * rows, rot, cols, rows, tw_, th_)
    if best is None:
        raise ValueError("the page has no room for a tile")
    _, rot, cols, rows, W, H = best
    ov = opts.overlap_mm
    tw = W if cols == 1 else (W + (cols - 1) * ov) / cols
    th = H if rows == 1 else (H + (rows - 1) * ov) / rows
    turn = placement(rot, 0.0, 0.0, board_w, board_h)
    tiles = []
    for r in range(rows):
        for c in range(cols):
            x0 = c * (tw - ov)
            y0 = r * (th - ov)
            region = (x0, y0, x0 + tw, y0 + th)
            visible = (x0 - (bleed if c == 0 else 0.0), y0 - (bleed if r == 0 else 0.0),
                       x0 + tw + (bleed if c == cols - 1 else 0.0), y0 + th + (bleed if r == rows - 1 else 0.0))
            vw, vh = visible[2] - visible[0], visible[3] - visible[1]
            # Centre the printed part in the content area.
            dx = content[0] + (aw - vw) / 2 - visible[0]
            dy = content[1] + (ah - vh) / 2 - visible[1]
            tiles.append(Tile(r * cols + c + 1, c, r, region, visible, turn.then(translate(dx, dy))))
    found = _fewer((board_w, board_h), cols * rows, aw, ah, ov, bleed) if cols * rows > 1 else None
    fewer, fewer_turned = found if found is not None else (None, False)
    return TilePlan(paper, (board_w, board_h), rot, cols, rows, ov, bleed, (tw, th), content, band, tiles, fewer,
                    fewer_turned)


def tile_at(plan: TilePlan, col: int, row: int) -> Tile:
    return plan.tiles[row * plan.cols + col]


def board_point(plan: TilePlan, tile: Tile, page_xy: Point) -> Point:
    """Where a point of a tile's page lies on the board (board frame, as designed)."""
    return tile.to_page.inverse()(page_xy)


def tile_marks(plan: TilePlan, tile: Tile, opts: TileOptions = TileOptions()) -> list[TileMark]:
    """Crop marks at the tile's region edges, and for each neighbour that overlaps this tile from
    the right or below: a dashed guide line where that neighbour's edge goes, with ticks in the
    margin at the same place."""
    turn = plan.turn
    to_page = turn.inverse().then(tile.to_page)  # turned frame → page
    vx0, vy0, vx1, vy1 = plan.clip(tile)
    gap, ln = opts.mark_gap_mm, opts.mark_len_mm
    marks: list[TileMark] = []

    def vertical(at: float, kind: str) -> None:
        x, _ = to_page((at, 0.0))
        marks.append(TileMark(tile.number, "x", at, Straight(x, vy0 - gap - ln, x, vy0 - gap), kind))
        marks.append(TileMark(tile.number, "x", at, Straight(x, vy1 + gap, x, vy1 + gap + ln), kind))

    def horizontal(at: float, kind: str) -> None:
        _, y = to_page((0.0, at))
        marks.append(TileMark(tile.number, "y", at, Straight(vx0 - gap - ln, y, vx0 - gap, y), kind))
        marks.append(TileMark(tile.number, "y", at, Straight(vx1 + gap, y, vx1 + gap + ln, y), kind))

    x0, y0, x1, y1 = tile.region
    for at in (x0, x1):
        vertical(at, "edge")
    for at in (y0, y1):
        horizontal(at, "edge")
    tw, th = plan.tile_mm
    if tile.col < plan.cols - 1:  # the right neighbour's left edge lands here
        at = x1 - plan.overlap_mm
        vertical(at, "tick")
        (gx, gy0), (_, gy1) = to_page((at, y0)), to_page((at, y1))
        marks.append(TileMark(tile.number, "x", at, Straight(gx, min(gy0, gy1), gx, max(gy0, gy1)), "guide"))
    if tile.row < plan.rows - 1:  # the lower neighbour's top edge lands here
        at = y1 - plan.overlap_mm
        horizontal(at, "tick")
        (gx0, gy), (gx1, _) = to_page((x0, at)), to_page((x1, at))
        marks.append(TileMark(tile.number, "y", at, Straight(min(gx0, gx1), gy, max(gx0, gx1), gy), "guide"))
    return marks


def glue_strips(plan: TilePlan, tile: Tile) -> list[Rect]:
    """The overlap strips of this tile that a neighbour will cover (page rectangles)."""
    x0, y0, x1, y1 = tile.region
    out = []
    if tile.col < plan.cols - 1:
        out.append(tile.page_rect((x1 - plan.overlap_mm, y0, x1, y1), plan.turn))
    if tile.row < plan.rows - 1:
        out.append(tile.page_rect((x0, y1 - plan.overlap_mm, x1, y1), plan.turn))
    return out


@dataclass(frozen=True)
class MapCell:
    """One tile in the small assembly map at a page's foot, the page's own tile marked: how the designer finds where
    this page goes."""

    x: float
    y: float
    w: float
    h: float
    number: int
    current: bool


def assembly_map(plan: TilePlan, tile: Tile, height_mm: float = 11.0) -> list[MapCell]:
    """A small picture of the whole board in the page foot, the tile's own cell marked, at the
    right of the band."""
    W, H = plan.turned_mm
    scale = min(height_mm / H, 40.0 / W)
    bx0, by0, bx1, by1 = plan.band
    by1 -= TileOptions.slug_mm  # the slug line stays free
    mw, mh = W * scale, H * scale
    ox = bx1 - mw
    oy = by0 + (by1 - by0 - mh) / 2
    cells = []
    for t in plan.tiles:
        x0, y0, x1, y1 = t.region
        # each cell shows what the tile adds (without the strip its neighbour covers)
        if t.col < plan.cols - 1:
            x1 -= plan.overlap_mm
        if t.row < plan.rows - 1:
            y1 -= plan.overlap_mm
        cells.append(MapCell(ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale,
                             t.number, t.number == tile.number))
    return cells
