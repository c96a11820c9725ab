"""impose/share.py, the page plan of ``share_sheets: true`` without a build: decks that go on the
paper alike keep their full sheets and put the copies of their last sheets together; a deck of
another piece, or a run that saves no sheet, stays as it is (the built PDFs:
tests/homeprint/test_share_sheets.py)."""

from __future__ import annotations

from pnpgen.impose.grid import SheetOptions, layout_grid, layout_grid_at
from pnpgen.impose.plan import DieLine, Page
from pnpgen.impose.share import OnAll, Sharing, all_in_one_sheets, shared_sheets
from pnpgen.impose.sheets import DeckSheets, plain_sheets
from pnpgen.shapes import shape_spec

SHEET = SheetOptions()
POKER = shape_spec("rect", (63, 88))


def measure(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.2


def on_all(name: str, n: int, spec=POKER, backs: bool = False) -> OnAll:
    """A deck of ``n`` copies, face ``<name><i>`` (its back ``B<name><i>``), on its own grid sheets."""
    layout = layout_grid(spec.w, spec.h, SHEET)
    assert layout is not None
    deck = DeckSheets(name, name, spec, tuple(f"{name}{i}" for i in range(n)),
                      tuple(f"B{name}{i}" for i in range(n)) if backs else None, SHEET.bleed_mm)
    like = Sharing(deck, layout, False, "card", SHEET)
    return OnAll(draw(like), backs, [(0, name)], like)


def draw(like: Sharing) -> list[Page]:
    return plain_sheets(like.deck, like.layout, like.by_hand, like.sheet, "F", measure)


def test_the_last_sheets_of_decks_alike_are_printed_together():
    assert layout_grid(63, 88, SHEET).per_sheet == 9  # type: ignore[union-attr]
    bid, role, summary = on_all("bid", 10), on_all("role", 4), on_all("summary", 5)
    out = shared_sheets([bid, role, summary], draw)
    assert len(out) == 1
    run = out[0]
    assert [p.faces() for p in run.home] == [
        [f"bid{i}" for i in range(9)],
        ["bid9", *(f"role{i}" for i in range(4)), *(f"summary{i}" for i in range(4))],
        ["summary4"],
    ]
    assert run.home[0] is bid.home[0]  # the full sheet is the deck's own page
    assert run.bookmarks == [(0, "bid"), (1, "role"), (1, "summary")]
    assert (run.sheets, run.alone) == (3, 4)


def test_a_deck_of_another_piece_or_a_run_that_saves_no_sheet_stays():
    bid, tile = on_all("bid", 8), on_all("tile", 3, shape_spec("rect", (40, 40)))
    role = on_all("role", 8)  # 8 + 8 left over take two sheets together as alone
    decks = [bid, tile, role]
    assert shared_sheets(decks, draw) == decks
    never = OnAll(bid.home, False, [(0, "bid")], None)  # tiles, fold-over, sleeve inserts
    assert shared_sheets([never, on_all("role", 1)], draw)[0] is never


def test_the_all_in_one_file_gives_one_sided_sheets_a_blank_back_beside_two_sided_ones():
    run = shared_sheets([on_all("bid", 10), on_all("role", 4), on_all("summary", 5)], draw)
    pages, bookmarks, shared = all_in_one_sheets([*run, on_all("x", 3, backs=True)], SHEET, "F", "en")
    assert [p.faces()[:1] for p in pages] == [["bid0"], [], ["bid9"], [], ["summary4"], [], ["x0"], ["Bx0"]]
    assert bookmarks == [(0, "bid"), (2, "role"), (2, "summary"), (6, "x")]
    assert shared == [{"decks": ["bid", "role", "summary"], "sheets": 3, "alone": 4, "pages": [1, 6]}]
    alone, _marks, none_shared = all_in_one_sheets([on_all("bid", 10)], SHEET, "F", "en")
    assert len(alone) == 2 and none_shared == []  # one-sided sheets only: no blanks


def polygon_deck(name: str, n: int, w: float, h: float) -> OnAll:
    """A deck of ``n`` two-sided ``w`` × ``h`` mm rectangles cut as polygons, on its own grid."""
    spec = shape_spec("polygon", (w, h), {"points": [(0, 0), (w, 0), (w, h), (0, h)]})
    layout = layout_grid_at(w, h, SHEET, SHEET.bleed_mm, room=0.0)
    assert layout is not None
    deck = DeckSheets(name, name, spec, tuple(f"{name}{i}" for i in range(n)), tuple(f"B{name}{i}" for i in range(n)),
                      SHEET.bleed_mm)
    like = Sharing(deck, layout, False, "tile", SHEET)
    return OnAll(draw(like), True, [(0, name)], like)


def test_die_cut_decks_of_other_outlines_share_a_grid_of_the_largest_slot_unless_none_fits():
    small, tall = polygon_deck("small", 2, 20, 20), polygon_deck("tall", 1, 15, 60)
    run = shared_sheets([small, tall], draw)
    assert len(run) == 1 and run[0].sheets == 1 and run[0].home[0].faces() == ["small0", "small1", "tall0"]
    # each cut along its own outline, the 20 mm squares centred in slots 20 × 60 mm (one row of three,
    # or one column when turned): every die line's centre on one line
    boxes = [item.path.bbox() for item in run[0].home[0].items if isinstance(item, DieLine)]
    assert sorted(round(max(x1 - x0, y1 - y0), 2) for x0, y0, x1, y1 in boxes) == [20.0, 20.0, 60.0]
    centres = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes]
    assert len({round(y, 2) for _x, y in centres}) == 1 or len({round(x, 2) for x, _y in centres}) == 1
    wide, long = polygon_deck("wide", 1, 190, 15), polygon_deck("long", 1, 15, 270)  # 190 × 270 fits no A4 sheet
    assert shared_sheets([wide, long], draw) == [wide, long]
