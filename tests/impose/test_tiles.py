"""Boards larger than the paper: numbered page tiles whose overlaps line up, mapped back onto the
board within 0.1 mm, and one full-size page for the shop."""

from __future__ import annotations

import json
import re

import pytest
from pypdf import PdfReader

from conftest import GAME_YAML, make_workspace, run
from pdfprobe import boxes_mm, text_positions
from pnpgen.impose.grid import SheetOptions, choose_layout
from pnpgen.impose.tiles import TileOptions, assembly_map, board_point, plan_tiles, tile_at, tile_marks
from pnpgen.shapes import shape_spec

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
MARGIN = 5.0
GAME_LETTER = GAME_YAML + "paper: letter\n"


def _cover(plan):
    """Regions in the turned frame must cover the turned board, neighbours overlapping 10 mm."""
    W, H = plan.turned_mm
    for t in plan.tiles:
        x0, y0, x1, y1 = t.region
        assert -1e-9 <= x0 and x1 <= W + 1e-9 and -1e-9 <= y0 and y1 <= H + 1e-9
    for r in range(plan.rows):
        row = [tile_at(plan, c, r) for c in range(plan.cols)]
        assert row[0].region[0] == pytest.approx(0) and row[-1].region[2] == pytest.approx(W)
        for a, b in zip(row, row[1:]):
            assert a.region[2] - b.region[0] == pytest.approx(10.0, abs=0.1)
    for c in range(plan.cols):
        col = [tile_at(plan, c, r) for r in range(plan.rows)]
        assert col[0].region[1] == pytest.approx(0) and col[-1].region[3] == pytest.approx(H)
        for a, b in zip(col, col[1:]):
            assert a.region[3] - b.region[1] == pytest.approx(10.0, abs=0.1)


@pytest.mark.parametrize("board,paper", [((400, 300), A4), ((270, 180), LETTER), ((600, 420), A4),
                                         ((300, 200), (297.0, 420.0))])
def test_tiles_cover_the_board_and_stay_on_the_page(board, paper):
    plan = plan_tiles(*board, paper, MARGIN, 3.0)
    _cover(plan)
    assert plan.pages == plan.cols * plan.rows >= 1
    for t in plan.tiles:
        x0, y0, x1, y1 = plan.clip(t)
        assert x0 >= MARGIN and y0 >= MARGIN and x1 <= paper[0] - MARGIN and y1 <= paper[1] - MARGIN
        for m in tile_marks(plan, t):
            for x, y in ((m.line.x1, m.line.y1), (m.line.x2, m.line.y2)):
                assert MARGIN - 1e-9 <= x <= paper[0] - MARGIN + 1e-9
                assert MARGIN - 1e-9 <= y <= paper[1] - MARGIN + 1e-9
        cells = assembly_map(plan, t)
        assert sum(c.current for c in cells) == 1 and len(cells) == plan.pages
        for c in cells:
            assert plan.band[0] <= c.x and c.x + c.w <= plan.band[2] + 1e-9


def test_every_tile_maps_back_onto_the_board_within_0_1_mm():
    plan = plan_tiles(400, 300, A4, MARGIN, 3.0)
    assert plan.rot == 90 and (plan.cols, plan.rows) == (2, 2)  # turned: 4 pages instead of 6
    turn = plan.turn
    for t in plan.tiles:
        # the printed part of the page is exactly the tile's visible part of the board
        x0, y0, x1, y1 = plan.clip(t)
        back = [board_point(plan, t, p) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        want = [turn.inverse()(p) for p in ((t.visible[0], t.visible[1]), (t.visible[2], t.visible[1]),
                                           (t.visible[2], t.visible[3]), (t.visible[0], t.visible[3]))]
        for got, exp in zip(sorted(back), sorted(want)):
            assert got == pytest.approx(exp, abs=0.1)
        # the same board point prints at the same place relative to the board on every tile
        for u, v in ((0, 0), (123.4, 56.7), (300, 400)):
            page = t.to_page((u, v))
            assert board_point(plan, t, page) == pytest.approx((u, v), abs=1e-9)


def test_alignment_marks_of_neighbours_mark_the_same_board_line():
    plan = plan_tiles(400, 300, A4, MARGIN, 3.0)
    turn = plan.turn
    for t in plan.tiles:
        for m in tile_marks(plan, t):
            if m.kind == "edge":
                continue
            # the guide/tick line maps back onto the board line it names
            for p in ((m.line.x1, m.line.y1), (m.line.x2, m.line.y2)):
                turned = turn(board_point(plan, t, p))
                assert turned[0 if m.axis == "x" else 1] == pytest.approx(m.at, abs=0.1)
            # and the neighbour that goes over it has its cut edge on that very line
            nb = tile_at(plan, t.col + 1, t.row) if m.axis == "x" else tile_at(plan, t.col, t.row + 1)
            edges = [e for e in tile_marks(plan, nb) if e.kind == "edge" and e.axis == m.axis]
            assert any(abs(e.at - m.at) < 1e-9 for e in edges)
            e = next(e for e in edges if abs(e.at - m.at) < 1e-9)
            got = turn(board_point(plan, nb, (e.line.x1, e.line.y1)))[0 if m.axis == "x" else 1]
            assert got == pytest.approx(m.at, abs=0.1)


def test_a_board_that_fits_is_not_tiled():
    spec = shape_spec("rect", (270, 180))
    assert choose_layout(spec, 1, SheetOptions(), "board") is not None  # A4, turned
    assert choose_layout(spec, 1, SheetOptions(paper="letter"), "board") is None
    plan = plan_tiles(270, 180, LETTER, MARGIN, 3.0)
    assert plan.pages == 2


BOARD_DECK = """\
name: 大ボード
kind: board
size: [400, 300]
front: card-front.svg.j2
fields:
  name: text
pieces:
  - {name: 盤}
"""

POINTS = [(u, v) for u in (20, 120, 145, 150, 155, 250, 380) for v in (20, 140, 146, 150, 280)]

BOARD_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#e8f0e0"/>
{{ track(50, 30, 30, w - 60, h - 60) }}
{% for u, v in points %}<text x="{{ u }}" y="{{ v }}" font-family="{{ fonts.gothic }}" font-size="2">P{{ u }}_{{ v }}</text>
{% endfor %}
{% endblock %}
""".replace("{% for u, v in points %}", "{% for u, v in " + repr(POINTS).replace("(", "[").replace(")", "]") + " %}")


def test_board_tiles_in_the_pdf_line_up_with_the_board(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=BOARD_DECK, front=BOARD_FRONT)
    (ws / "data" / "test" / "draft.txt").write_text("■■テストゲーム\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    deck = manifest["decks"][0]
    assert deck["layout"] == "tiled" and deck["tiles"]["pages_per_piece"] == 4
    assert deck["tiles"]["overlap_mm"] == 10 and deck["pages"] == 4
    plan = plan_tiles(400, 300, A4, MARGIN, 3.0, TileOptions())
    pdf = PdfReader(out / "cards.pdf")
    assert len(pdf.pages) == plan.pages
    seen: dict[tuple[float, float], list[int]] = {}
    for t, page in zip(plan.tiles, pdf.pages):
        texts = {s: (x, y) for s, x, y in text_positions(page)}
        assert any(f"{t.number}/{plan.pages}" in s for s in texts), "tile number printed"
        clip = plan.clip(t)
        for u, v in POINTS:
            key = f"P{u}_{v}"
            if key not in texts:
                continue
            bx, by = board_point(plan, t, texts[key])
            assert (bx, by) == pytest.approx((u, v), abs=0.1), (t.number, key)
            x, y = texts[key]
            if clip[0] <= x <= clip[2] and clip[1] <= y <= clip[3]:
                seen.setdefault((u, v), []).append(t.number)
    # every point is printed on some tile; points in an overlap strip on both tiles
    assert set(seen) == set(POINTS)
    turned = [plan.turn(p) for p in POINTS]
    for (u, v), (tx, ty) in zip(POINTS, turned):
        owners = [t.number for t in plan.tiles
                  if t.region[0] <= tx <= t.region[2] and t.region[1] <= ty <= t.region[3]]
        assert sorted(seen[(u, v)]) == sorted(owners)
    # the shop gets the board in one piece at full size
    shop = PdfReader(out / "shop" / "cards.pdf")
    assert len(shop.pages) == 1
    b = boxes_mm(shop.pages[0])
    assert b["mediabox"] == pytest.approx((0, 0, 406, 306), abs=0.01)
    assert b["trimbox"] == pytest.approx((3, 3, 403, 303), abs=0.01)


def test_the_glue_note_reads_on_a_white_band_inside_its_strip():
    """Each strip a neighbour covers carries its note on an opaque white band (the art there is
    hidden once the board is assembled), and the band leaves the strip's dashed edge showing."""
    from pnpgen.impose.plan import RectOp, TextOp
    from pnpgen.impose.sheets import DeckSheets, board_tiles
    from pnpgen.impose.tiles import glue_strips

    spec = shape_spec("rect", (400, 300))
    sheet = SheetOptions()
    plan = plan_tiles(400, 300, A4, MARGIN, sheet.bleed_mm, TileOptions())
    deck = DeckSheets("board", "盤面", spec, ("f",), None, 3.0)
    pages = board_tiles(deck, plan, sheet, "F", "B", lambda text, font, size: len(text) * size * 0.35 / 2)
    assert sum(len(glue_strips(plan, t)) for t in plan.tiles) >= 2
    for tile, page in zip(plan.tiles, pages):
        strips = glue_strips(plan, tile)
        bands = [i for i in page.items if isinstance(i, RectOp) and i.fill == (1, 1, 1) and i.stroke is None]
        notes = [i for i in page.items if isinstance(i, TextOp) and "glue" in i.text]
        assert len(bands) == len(notes) == len(strips)
        for (x0, y0, x1, y1), band, note in zip(strips, bands, notes):
            assert x0 < band.x and band.x + band.w < x1 or y0 < band.y and band.y + band.h < y1  # edge shows
            assert x0 <= band.x and band.x + band.w <= x1 + 1e-9 and y0 <= band.y and band.y + band.h <= y1 + 1e-9
            assert band.x <= note.x <= band.x + band.w and band.y <= note.y <= band.y + band.h
            assert page.items.index(band) < page.items.index(note)


@pytest.mark.parametrize("board, numbered", [(400, True), (2000, False)])
def test_the_assembly_maps_numbers_stay_in_their_cells(board, numbered):
    """The map in each tile's foot numbers its cells at 5 pt where they hold it (a 40 cm board: 3 × 2
    tiles); a 2 × 2 m board of
    12 × 9 tiles has cells of about a millimetre, where 5 pt numbers ran over each other: there
    every number is left out and the page's own cell is still the one filled."""
    from pnpgen.impose.plan import RectOp, TextOp
    from pnpgen.impose.sheets import DeckSheets, board_tiles

    def measure(text, font, size):
        return len(text) * size * 0.35 / 2

    spec = shape_spec("rect", (board, board))
    sheet = SheetOptions()
    plan = plan_tiles(board, board, A4, MARGIN, sheet.bleed_mm, TileOptions())
    deck = DeckSheets("board", "盤面", spec, ("f",), None, 3.0)
    pages = board_tiles(deck, plan, sheet, "F", "B", measure)
    assert (plan.cols, plan.rows) == ((3, 2) if numbered else (12, 9))
    for tile, page in zip(plan.tiles, pages):
        cells = [i for i in page.items if isinstance(i, RectOp) and i.width_pt == 0.4 and i.stroke]
        assert len(cells) == plan.pages
        assert [c.fill for c in cells].count((0.2, 0.2, 0.2)) == 1
        assert cells[tile.number - 1].fill == (0.2, 0.2, 0.2)
        numbers = [i for i in page.items if isinstance(i, TextOp) and i.text.isdigit() and i.size <= 5]
        assert len(numbers) == (plan.pages if numbered else 0)
        for cell, n in zip(cells, numbers):
            assert n.text == str(cells.index(cell) + 1) and n.size == 5
            assert cell.x <= n.x - measure(n.text, n.font, n.size) / 2
            assert n.x + measure(n.text, n.font, n.size) / 2 <= cell.x + cell.w


@pytest.mark.parametrize("size, hint", [((200, 260), 3.5), ((400, 300), None)])
def test_a_board_tiled_only_for_the_margin_says_the_margin_that_holds_it_whole(tmp_path, capsys, size, hint):
    """A 200 × 260 mm player board on Letter was tiled onto two sheets without a word that the
    paper holds it: only the 5 mm margin and the marks' room leave too little (its bleed is already
    dropped to none first). The summary says the --margin that holds it whole, and that margin
    does; a board larger than the paper gets no such line."""
    deck = BOARD_DECK.replace("size: [400, 300]", f"size: [{size[0]}, {size[1]}]")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=BOARD_FRONT, game=GAME_LETTER)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = capsys.readouterr().out
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    tiles = manifest["decks"][0]["tiles"]
    assert tiles["pages_per_piece"] == (2 if hint else 4)
    if hint is None:
        assert "whole_with" not in tiles and "--margin" not in out
        return
    assert tiles["whole_with"] == {"margin_mm": hint, "sheet_bleed_mm": 0.0}
    said = [line for line in out.splitlines() if "whole on one sheet" in line]
    assert said == [" " * 19 + f"(tiled only for the printer's margin: whole on one sheet with --margin {hint:g}mm "
                    "(bleed 0 mm there), if the printer prints that near the edge; or size: [197, 257] prints "
                    "whole on one sheet)"], out
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--margin", f"{hint}mm") == 0
    whole = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert whole["layout"] == "grid" and whole["pieces_per_sheet"] == 1 and "whole on one sheet" not in \
        capsys.readouterr().out
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--margin", f"{hint + 0.5}mm") == 0
    assert json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0][
        "layout"] == "tiled"  # the figure said is the largest margin that holds it


def test_an_a4_score_sheet_on_a4_paper_is_told_the_size_that_prints_whole(tmp_path, capsys):
    """A party game's score pad of 210 × 297 mm printed as two page tiles to glue, without a word
    of the size one A4 sheet holds inside the printer's margin; the summary names it, and that
    size prints whole on one sheet."""
    deck = BOARD_DECK.replace("size: [400, 300]", "size: [210, 297]")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=BOARD_FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    tiles = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]["tiles"]
    assert tiles["pages_per_piece"] == 2 and tiles["whole_at"] == {"size_mm": [193, 274]}
    assert " " * 19 + "(tiled, as the sheet's printable area is smaller than the board: size: [193, 274] prints " \
        "whole on one sheet)" in out.splitlines(), out
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck.replace("size: [210, 297]", "size: [193, 274]"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    whole = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert whole["layout"] == "grid" and whole["pieces_per_sheet"] == 1


def test_a_half_letter_score_pad_is_told_the_size_that_prints_two_a_sheet(tmp_path, capsys):
    """A half-Letter score pad (5.5 × 8.5 in, 20 copies) printed one a Letter sheet without a word:
    two at full size need the whole sheet, edge to edge, which the printer's margin does not
    print (A5 on A4 is the same). The summary names the size a sheet holds two of; at that size
    the pad prints two a sheet, half the sheets, with the cut marks of the grid."""
    from pdfprobe import stroked_lines

    deck = BOARD_DECK.replace("size: [400, 300]", "size: [5.5in, 8.5in]").replace("{name: 盤}", "{name: 盤, count: 20}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=BOARD_FRONT, game=GAME_YAML + "paper: letter\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "1/sheet (grid), 20 sheets" in out
    assert " " * 19 + "(2/sheet at size: [128, 198]: two at full size would need the whole sheet, edge to edge, " \
        "where the printer's margin prints nothing)" in out.splitlines(), out
    assert "2/sheet at size" not in json.dumps(json.loads((ws / "build" / "test" / "manifest.json").read_text()))
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck.replace("size: [5.5in, 8.5in]", "size: [128, 198]"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "2/sheet (grid), 10 sheets" in capsys.readouterr().out
    reader = PdfReader(ws / "build" / "test" / "cards.pdf")
    assert len(reader.pages) == 10
    marks = stroked_lines(reader, reader.pages[0])
    across = sorted({round(y1, 1) for x1, y1, x2, y2 in marks if abs(y1 - y2) < 1e-6})  # horizontal marks: the cuts
    assert len(across) >= 3, across  # top, middle (between the two pads) and bottom trim lines marked
    deck_file.write_text(deck.replace("{name: 盤, count: 20}", "{name: 盤}"), encoding="utf-8")  # one copy: nothing to say
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "2/sheet at size" not in capsys.readouterr().out


def test_a_quarter_letter_score_pad_is_told_the_size_that_prints_four_a_sheet(tmp_path, capsys):
    """A quarter-Letter score pad (4.25 × 5.5 in, 40 copies) printed two a Letter sheet without a
    word that 3 % less prints four: four at full size are the whole sheet, which the printer's
    margin does not print. The summary names that size and the sheets it takes; at that size the
    pad prints four a sheet. A deck of cards a few a sheet is not told to change its size."""
    deck = BOARD_DECK.replace("size: [400, 300]", "size: [4.25in, 5.5in]").replace("{name: 盤}", "{name: 盤, count: 40}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=BOARD_FRONT, game=GAME_YAML + "paper: letter\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "2/sheet (grid), 20 sheets" in out
    assert " " * 19 + "(4/sheet at size: [99, 128], 10 sheets)" in out.splitlines(), out
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck.replace("count: 40", "count: 4"), encoding="utf-8")  # one sheet at that size, said so
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert " " * 19 + "(4/sheet at size: [99, 128], 1 sheet)" in capsys.readouterr().out.splitlines()
    deck_file.write_text(deck.replace("size: [4.25in, 5.5in]", "size: [99, 128]"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "4/sheet (grid), 10 sheets" in capsys.readouterr().out
    assert len(PdfReader(ws / "build" / "test" / "cards.pdf").pages) == 10
    deck_file.write_text(deck.replace("kind: board", "kind: card"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "4/sheet at size" not in capsys.readouterr().out


def test_a_board_on_two_tiles_is_told_the_size_one_sheet_holds_whole(tmp_path, capsys):
    """The harbour trial: a 350 × 248 mm board on two A4 tiles was told "(1 page tiles (1×1) hold a
    board of up to 247×175 mm …)": one sheet holds a board whole, and the size to write is said as
    the other lines say it."""
    plan = plan_tiles(350, 248, A4, MARGIN, 3.0)
    assert (plan.cols * plan.rows, plan.fewer[:2]) == (2, (1, 1))
    w, h = plan.fewer[2:]
    ws = make_workspace(tmp_path / "ws", deck=BOARD_DECK.replace("size: [400, 300]", "size: [350, 248]"),
                        front=BOARD_FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert " " * 19 + f"(size: [{w:g}, {h:g}] prints whole on one sheet, the largest board of the same " \
        "proportions one sheet holds)" in out.splitlines(), out
    assert "1 page tiles" not in out
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("size: [350, 248]", f"size: [{w:g}, {h:g}]"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "×1  1/sheet (grid), 1 sheet" in capsys.readouterr().out  # as said: whole on one sheet


def test_a_tiled_board_is_told_the_largest_board_fewer_page_tiles_hold(tmp_path, capsys):
    """The skirmish trial: a 400 × 400 mm board meant for 2×2 A4 sheets came out on 3×2 without a
    word of how large a 2×2 board may be. The summary says the grid of fewer pages that holds the
    largest board of the same proportions, and its size: that board tiles so, one millimetre more
    does not."""
    plan = plan_tiles(400, 400, A4, MARGIN, 3.0)
    assert (plan.cols * plan.rows, plan.fewer) == (6, (2, 2, 360, 360))
    assert (plan_tiles(360, 360, A4, MARGIN, 3.0).cols, plan_tiles(360, 360, A4, MARGIN, 3.0).rows) == (2, 2)
    assert len(plan_tiles(361, 361, A4, MARGIN, 3.0).tiles) > 4
    assert plan_tiles(100, 100, A4, MARGIN, 3.0).fewer is None  # one page: nothing fewer
    ws = make_workspace(tmp_path / "ws", deck=BOARD_DECK.replace("size: [400, 300]", "size: [400, 400]"),
                        front=BOARD_FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert " " * 19 + "(4 page tiles (2×2) hold a board of up to 360×360 mm, the same proportions)" in out.splitlines()
    tiles = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]["tiles"]
    assert tiles["fewer"] == {"grid": [2, 2], "pages_per_piece": 4, "board_mm": [360, 360]}


def test_a_tiled_board_turned_on_its_pages_says_so_beside_its_grid(tmp_path, capsys):
    """The wargame trial: a tall 11 × 17 in map panel on A4 was told "(3 page tiles (3×1) hold a
    board of up to 248×383 mm …)", and the 22 × 34 in map "15 page tiles each (5×3, …)": three
    across a panel 248 mm wide, five across a map narrower than it is tall. Both grids are the board
    turned 90° on the pages; the summary and the manifest say so."""
    plan = plan_tiles(279.4, 431.8, A4, MARGIN, 3.0)
    assert (plan.rot, plan.cols, plan.rows, plan.fewer, plan.fewer_turned) == (0, 2, 2, (3, 1, 248, 383), True)
    whole = plan_tiles(558.8, 863.6, A4, MARGIN, 3.0)
    assert (whole.rot, whole.cols, whole.rows, whole.fewer_turned) == (90, 5, 3, False)
    assert plan_tiles(400, 400, A4, MARGIN, 3.0).fewer_turned is False
    ws = make_workspace(tmp_path / "ws", deck=BOARD_DECK.replace("size: [400, 300]", "size: [279.4, 431.8]"),
                        front=BOARD_FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    lines = capsys.readouterr().out.splitlines()
    assert " " * 19 + "(3 page tiles (3×1, the board turned 90°) hold a board of up to 248×383 mm, the same proportions)" in lines
    tiles = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]["tiles"]
    assert tiles["fewer"] == {"grid": [3, 1], "pages_per_piece": 3, "board_mm": [248, 383], "turned": True}
    ws2 = make_workspace(tmp_path / "ws2", deck=BOARD_DECK.replace("size: [400, 300]", "size: [558.8, 863.6]"),
                         front=BOARD_FRONT)
    assert run(ws2, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "15 page tiles each (5×3, the board turned 90°, 10 mm overlap)" in capsys.readouterr().out


EDITED_BOARD = BOARD_DECK.replace("  name: text\n", "  name: text\n  note: text\n").replace("{name: 盤}", "{name: 盤, note: 初版}")
EDITED_FRONT = BOARD_FRONT.replace("{% endblock %}", '<text x="20" y="20" font-family="{{ fonts.gothic }}" '
                                   'font-size="6">{{ piece.note }}</text>\n{% endblock %}')


def test_a_tiled_board_edited_in_one_corner_reprints_only_the_tiles_showing_it(tmp_path):
    """Each tile's sheet placed the whole board, clipped: an edit anywhere changed every tile's
    page, and the change report and reprint.pdf reprinted all four. Only the tiles whose part of
    the board shows the corner are reprinted now."""
    ws = make_workspace(tmp_path / "ws", deck=EDITED_BOARD, front=EDITED_FRONT)
    build = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")
    assert run(ws, *build) == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("初版", "第二版"), encoding="utf-8")
    assert run(ws, *build) == 0
    out = ws / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    plan = plan_tiles(400, 300, A4, MARGIN, 3.0, TileOptions())
    tx, ty = plan.turn((20, 18))
    owners = sorted(t.number for t in plan.tiles if t.region[0] - 3 <= tx <= t.region[2] + 3
                    and t.region[1] - 3 <= ty <= t.region[3] + 3)
    assert plan.pages == 4 and 0 < len(owners) < plan.pages
    assert manifest["reprint"]["cards"]["sheets"] == owners, manifest["changes"]
    assert manifest["changes"] == [f"cards: 1 → 1 (盤: note); reprint cards.pdf: sheet{'s' * (len(owners) > 1)} "
                                   f"{', '.join(map(str, owners))} (page{'s' * (len(owners) > 1)} "
                                   f"{', '.join(map(str, owners))})"]
    assert len(PdfReader(out / "reprint.pdf").pages) == len(owners)


def test_reprint_since_a_version_reprints_only_the_tiles_the_build_named(tmp_path):
    """A trial of session 47: ``reprint --since`` a tagged version of a 15-tile map reprinted every
    tile, where the build's own change report named tiles 1, 4 and 7: a history version recorded no
    pages. It keeps a tiled board's now, and the reprint holds the tiles the build named."""
    ws = make_workspace(tmp_path / "ws", deck=EDITED_BOARD, front=EDITED_FRONT)
    build = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")
    assert run(ws, *build) == 0
    assert run(ws, "tag", "--game", "test", "t1") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("初版", "第二版"), encoding="utf-8")
    assert run(ws, *build) == 0
    out = ws / "build" / "test"
    named = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["reprint"]["cards"]["sheets"]
    assert 0 < len(named) < 4, named
    assert run(ws, "reprint", "--game", "test", "--since", "t1", "-q") == 0
    since = PdfReader(out / "reprint-since-v1.pdf")
    assert len(since.pages) == len(named)
    tiles = [int(m.group(1)) for page in since.pages for m in [re.search(r"タイル (\d+)/4", page.extract_text())] if m]
    assert tiles == named, tiles


def test_a_board_nearly_as_large_on_fewer_tiles_is_the_one_named(tmp_path, capsys):
    """The hidden-role trial: a 400 × 270 mm mission board meant for two A4 halves was told "(3 page
    tiles (3×1) hold a board of up to 367×248 mm …)", not that two tiles hold 360 × 243 mm, 2 %
    smaller. A grid of still fewer pages holding a board at most 3 % smaller is named instead."""
    plan = plan_tiles(400, 270, A4, MARGIN, 3.0)
    assert (plan.cols * plan.rows, plan.fewer) == (4, (2, 1, 360, 243))
    assert len(plan_tiles(360, 243, A4, MARGIN, 3.0).tiles) == 2
    assert plan_tiles(400, 400, A4, MARGIN, 3.0).fewer == (2, 2, 360, 360)  # two tiles hold far less: not named
    ws = make_workspace(tmp_path / "ws", deck=BOARD_DECK.replace("size: [400, 300]", "size: [400, 270]"),
                        front=BOARD_FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert " " * 19 + "(2 page tiles (2×1) hold a board of up to 360×243 mm, the same proportions)" \
        in capsys.readouterr().out.splitlines()


def test_the_size_a_silhouette_sheet_holds_whole_is_said_to_be_between_its_registration_marks(tmp_path, capsys):
    """trial: under `--marks silhouette` a Letter board was told `size: [230, 159]` prints "whole on
    one sheet", without the cutter `[257, 178]`: two sizes for one sheet, the first unexplained."""
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "decks" / "board.yaml").write_text(
        "name: B\nkind: board\nsize: [260, 180]\nlayout: board\npieces:\n  - {title: B, text: t}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--paper", "letter", "--marks", "silhouette") == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("(size: [230, 159] prints whole on one sheet between the Silhouette's registration marks, the largest "
            "board of the same proportions the room inside them holds)") in said, said
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    board = next(d for d in manifest["decks"] if d["id"] == "board")
    assert board["tiles"]["fewer"] == {"grid": [1, 1], "pages_per_piece": 1, "board_mm": [230, 159], "between_marks": True}


def test_a_front_edit_of_a_tiled_board_keeps_its_back_tiles_stamp(tmp_path):
    """A back tile's version stamp hashes the back it prints, as a home sheet's backs page does
    (count50): an edit of the board's front gives its front tiles a new stamp and leaves each back
    tile's page as it was, its stamp and its place the same; an edit of the back stamps them anew."""
    deck_yaml = EDITED_BOARD.replace("front: card-front.svg.j2\n", "front: card-front.svg.j2\nback: card-back.svg.j2\n")
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml, front=EDITED_FRONT)
    build = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")
    pdf = ws / "build" / "test" / "cards.pdf"

    def stamps() -> list[str]:
        return [m.group(0) for page in PdfReader(pdf).pages for m in [re.search(r"#[0-9a-f]{7}", page.extract_text())]
                if m]
    assert run(ws, *build) == 0
    before = [page.extract_text() for page in PdfReader(pdf).pages]
    first = stamps()
    assert len(first) == 8 and len(set(first[0::2])) == 1 and len(set(first[1::2])) == 1, first
    assert first[0] != first[1]  # the fronts' stamp hashes both sides, the backs' the back alone
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("初版", "第二版"), encoding="utf-8")
    assert run(ws, *build) == 0
    after = [page.extract_text() for page in PdfReader(pdf).pages]
    assert stamps()[1::2] == first[1::2] and after[1::2] == before[1::2]
    assert set(stamps()[0::2]) != set(first[0::2])
    back = ws / "templates" / "test" / "card-back.svg.j2"
    back.write_text(back.read_text(encoding="utf-8").replace('fill="#333366"', 'fill="#336633"'),
                    encoding="utf-8")
    assert run(ws, *build) == 0
    assert set(stamps()[1::2]) != set(first[1::2])
