"""Nesting die-cut pieces on home sheets: at least as many as a bounding-box grid, inside the
printable area, never closer than two bleeds, backs the mirror image of the fronts in mm."""

from __future__ import annotations

import math

import pytest

from pnpgen.impose.grid import SheetOptions, choose_layout, layout_grid_at
from pnpgen.impose.nest import BLEED_STEPS, clear_cache, density, nest_at
from pnpgen.shapes import (
    back_outline,
    bleed_path,
    bounding_size,
    distance_to_polygon_edges,
    duplex_mirror,
    polygon_distance,
    shape_spec,
    trim_path,
)

A4 = (210.0, 297.0)
MARGIN = 5.0


def spec_of(shape, size, **options):
    return shape_spec(shape, bounding_size(shape, size, options.get("orientation", "pointy")), options)


TRIHEX = spec_of("trihex", 40)  # populous エリアタイル
# the docs' paper d6: a cross of 16 mm faces with glue tabs, whose turned pair interlocks
D6_NET = shape_spec("polygon", (68, 48), {"points": [
    [16, 0], [32, 0], [32, 16], [34, 12], [46, 12], [48, 16], [50, 12], [62, 12], [64, 16], [68, 18], [68, 30],
    [64, 32], [62, 36], [50, 36], [48, 32], [46, 36], [34, 36], [32, 32], [32, 48], [16, 48], [16, 32], [14, 36],
    [2, 36], [0, 32], [0, 16], [2, 12], [14, 12], [16, 16]]})
CASES = [TRIHEX, spec_of("hex", 110), spec_of("hex", 40), spec_of("circle", 16), spec_of("circle", 30),
         spec_of("trihex", 30, orientation="flat"), D6_NET]


def _outlines(spec, layout, offset=0.0):
    base = (bleed_path(spec, offset) if offset else trim_path(spec)).points(0.01)
    return [[layout.transform(i)(p) for p in base] for i in range(layout.per_sheet)]


@pytest.mark.parametrize("bleed", [b for b in BLEED_STEPS])
def test_trihex_tiles_per_a4_at_least_a_bounding_box_grid(bleed):
    opts = SheetOptions()
    nested = nest_at(TRIHEX, A4, MARGIN, bleed)
    grid = layout_grid_at(TRIHEX.w, TRIHEX.h, opts, bleed, room=0.0)
    assert nested.per_sheet >= grid.per_sheet


def test_trihex_nesting_beats_the_grid_and_the_deck_needs_fewer_sheets():
    opts = SheetOptions()
    grid = layout_grid_at(TRIHEX.w, TRIHEX.h, opts, 3.0, room=0.0)
    assert grid.per_sheet == 6
    assert nest_at(TRIHEX, A4, MARGIN, 0.0).per_sheet == 9  # ▲▼ interlocked, abutting
    chosen = choose_layout(TRIHEX, 15, opts, "tile")
    # 15 tiles: the grid needs 3 sheets at any bleed, nesting 2, keeping as much bleed as it can
    assert chosen.kind == "nested" and math.ceil(15 / chosen.per_sheet) == 2
    assert chosen.per_sheet >= 8 and chosen.sheet_bleed_mm == pytest.approx(2.5)


@pytest.mark.parametrize("spec", CASES, ids=lambda s: f"{s.kind}{s.size:g}-{s.orientation}")
@pytest.mark.parametrize("bleed", [3.0, 1.5, 0.0])
def test_nested_pieces_stay_inside_the_printable_area_and_two_bleeds_apart(spec, bleed):
    layout = nest_at(spec, A4, MARGIN, bleed)
    assert layout is not None and layout.per_sheet >= 1
    for outline in _outlines(spec, layout, bleed) if bleed else _outlines(spec, layout):
        for x, y in outline:
            assert MARGIN - 1e-6 <= x <= A4[0] - MARGIN + 1e-6
            assert MARGIN - 1e-6 <= y <= A4[1] - MARGIN + 1e-6
    if spec.kind == "circle":  # centres at least a diameter and two bleeds apart
        cs = [layout.transform(i)(spec.core[0]) for i in range(layout.per_sheet)]
        for i, a in enumerate(cs):
            for b in cs[i + 1:]:
                assert math.dist(a, b) >= spec.w + 2 * bleed - 1e-6
        return
    trims = _outlines(spec, layout)
    reach = max(spec.w, spec.h) + 2 * bleed + 0.1
    for i, a in enumerate(trims):
        for b in trims[i + 1:]:
            if abs(a[0][0] - b[0][0]) > reach or abs(a[0][1] - b[0][1]) > reach:
                continue
            assert polygon_distance(a, b) >= 2 * bleed - 0.05


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("spec,bleed", [(TRIHEX, 0.0), (TRIHEX, 2.5), (spec_of("trihex", 30, orientation="flat"), 1.0),
                                        (spec_of("hex", 40), 3.0)])
def test_nested_backs_are_the_mirror_image_of_the_fronts(duplex, spec, bleed):
    layout = nest_at(spec, A4, MARGIN, bleed)
    mirror = duplex_mirror(duplex, A4)
    for i in range(layout.per_sheet):
        front = [mirror(layout.transform(i)(p)) for p in trim_path(spec).points(0.01)]
        back = [layout.back_transform(i, duplex)(p) for p in back_outline(spec).points(0.01)]
        for p in back:
            assert distance_to_polygon_edges(p, front) < 0.02


def test_circles_pack_hexagonally():
    spec = spec_of("circle", 16)
    opts = SheetOptions()
    for bleed in (3.0, 0.0):
        assert nest_at(spec, A4, MARGIN, bleed).per_sheet > layout_grid_at(16, 16, opts, bleed, room=0.0).per_sheet


def test_small_decks_keep_the_full_bleed():
    """60 workers fit one sheet at 3 mm bleed: no reason to squeeze them."""
    chosen = choose_layout(spec_of("circle", 12), 60, SheetOptions(), "token")
    assert chosen.sheet_bleed_mm == 3.0 and chosen.per_sheet >= 60


def test_rect_cards_keep_the_card_grid():
    chosen = choose_layout(shape_spec("rect", (63, 88)), 80, SheetOptions(), "card")
    assert chosen.kind == "grid" and (chosen.cols, chosen.rows) == (3, 3)


def test_density_is_trim_area_over_printable_area():
    spec = spec_of("hex", 40)
    assert density(spec, 10, A4, MARGIN) == pytest.approx(10 * (math.sqrt(3) / 2 * 40 ** 2) / (200 * 287))


def test_nesting_is_deterministic():
    clear_cache()
    a = nest_at(TRIHEX, A4, MARGIN, 2.5)
    clear_cache()
    b = nest_at(TRIHEX, A4, MARGIN, 2.5)
    assert a == b


@pytest.mark.parametrize("spec", [spec_of("circle", 25), spec_of("circle", 16), spec_of("hex", 45), spec_of("trihex", 20),
                                  spec_of("trihex", 30, orientation="flat")])
def test_a_few_pieces_fill_the_sheet_in_rows_top_first_as_cards_do(spec):
    """10 round tokens went down the left edge in one column; the first pieces of a sheet now
    fill its top row left to right, across the width (1, 3, 10 and a full sheet)."""
    layout = choose_layout(spec, 10, SheetOptions(), "token")
    assert layout.kind == "nested"
    boxes = [layout.transform(i) for i in range(layout.per_sheet)]
    corners = [(m((0, 0)), m((spec.w, spec.h))) for m in boxes]
    left = [min(a[0], b[0]) for a, b in corners]
    top = [min(a[1], b[1]) for a, b in corners]
    tall = max(abs(b[1] - a[1]) for a, b in corners)
    width = max(max(a[0], b[0]) for a, b in corners) - min(left)
    row = [i for i in range(layout.per_sheet) if top[i] - min(top) < 0.7 * tall]  # (staggered: a zigzag)
    assert row == list(range(len(row))) and len(row) >= 3  # the sheet's first pieces: 1, 3, 10 …
    assert all(left[i + 1] > left[i] for i in row[:-1])  # left to right
    assert max(left[i] for i in row) + (width - max(left)) - min(left) > 0.8 * width  # across the sheet
    assert all(top[i] >= min(top[:i + 1]) - 1e-6 for i in range(layout.per_sheet))  # rows top first



@pytest.mark.parametrize("spec, count, least", [
    (shape_spec("rect", (12.7, 12.7)), 280, 0.8),  # ½-inch counters, a 0.3 mm back offset
    (spec_of("circle", 16), 200, 1.7),  # round markers, a 1.2 mm offset
])
def test_a_printer_profiles_offset_keeps_its_bleed_and_no_more(spec, count, least):
    """½-inch counters, 280 a sheet at 0.5 mm of bleed, went 140 a sheet at the deck's full 3 mm
    under a profile whose 0.3 mm back offset needs 0.8 mm: the pieces keep the bleed the offset
    needs, the most a sheet at it, as cards do (docs/home-printing.md, Bleed that survives the offset)."""
    plain = choose_layout(spec, count, SheetOptions(), "token")
    profiled = choose_layout(spec, count, SheetOptions(least_bleed_mm=least), "token")
    assert plain.sheet_bleed_mm < least
    assert profiled.sheet_bleed_mm == pytest.approx(least)  # not the deck's 3 mm
    at_3mm = choose_layout(spec, count, SheetOptions(least_bleed_mm=3.0), "token")
    assert at_3mm.sheet_bleed_mm == pytest.approx(3.0) and profiled.per_sheet > at_3mm.per_sheet
    if spec.kind == "rect":
        assert (plain.per_sheet, profiled.per_sheet, at_3mm.per_sheet) == (280, 247, 140)
    # a profile whose offset the tight layout already gives changes nothing
    assert choose_layout(spec, count, SheetOptions(least_bleed_mm=0.1), "token") == plain
