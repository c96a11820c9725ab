"""Print-and-cut for hobby cutting machines (issue 25, item 5): Silhouette registration marks and
keep-out zones read back from the PDF in mm; every cut path of the SVG and DXF cut files equal to
what the PDF places (the pieces' trim boxes, the die lines); Cricut's images within its area."""

from __future__ import annotations

import json
import re
import shutil

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import DECK_YAML, REPO, make_workspace, run
from pdfprobe import PT, Rect, clip_rects, placed_forms, stroked_lines, text_positions, texts

INSET, SQUARE, ARM, THICK, KEEPOUT = 10.0, 5.0, 0.33 * 25.4, 0.039 * 25.4, 3.0
REACH = INSET + ARM + KEEPOUT

HEX_DECK = """\
name: 六角タイル
kind: tile
shape: hex
size: 40
front: card-front.svg.j2
fields: {name: text, text: text}
pieces:
  - {name: 海, text: 本文, count: 7}
"""

ONE = ["カード1"]  # the cards beside what a test reads: one is enough (the small workspace has 11)


def _filled(pdf, index: int = 0) -> list[Rect]:
    """The filled rectangles drawn at page level (not inside a face), mm from the top-left."""
    doc = pdfium.PdfDocument(pdf.read_bytes())
    page = doc[index]
    h = page.get_size()[1]
    out = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        fill = pdfium_c.c_int()
        stroke = pdfium_c.FPDF_BOOL()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if fill.value and not stroke.value:
            x0, y0, x1, y1 = obj.get_bounds()
            out.append(Rect(x0 * PT, (h - y1) * PT, x1 * PT, (h - y0) * PT))
    return out


def _svg_paths(data: bytes) -> list[list[tuple[float, float]]]:
    """Each <path> of a cut SVG as its points (M/L end points; A end points)."""
    out = []
    for d in re.findall(r'<path d="([^"]+)"', data.decode()):
        nums = [tuple(map(float, m)) for m in re.findall(r"(?:[ML]|A[\d.]+ [\d.]+ 0 [01] [01]) ?([-\d.]+) ([-\d.]+)", d)]
        out.append(nums)
    return out


def _dxf_paths(path, paper_h: float) -> list[list[tuple[float, float, float]]]:
    """Each LWPOLYLINE of a DXF as (x, y from the page top, bulge)."""
    import ezdxf  # 0.3 s to import: here, not in every test worker's collection

    doc = ezdxf.readfile(path)
    assert doc.units == ezdxf.units.MM
    return [[(x, paper_h - y, b) for x, y, b in e.get_points("xyb")] for e in doc.modelspace() if e.dxftype() == "LWPOLYLINE"]


def _die_lines(pdf, index: int = 0) -> list[list[tuple[float, float]]]:
    """The closed stroked paths (m l … h S) at page level: the die lines, as points mm from top."""
    reader = PdfReader(pdf)
    page = reader.pages[index]
    h = float(page.mediabox.top)
    ops = ContentStream(page.get_contents(), reader).operations
    out, current = [], []
    for operands, op in ops:
        if op == b"m":
            current = [tuple(float(v) for v in operands)]
        elif op == b"l":
            current.append(tuple(float(v) for v in operands))
        elif op in (b"S", b"s"):
            if len(current) > 2:
                out.append([(x * PT, (h - y) * PT) for x, y in current])
            current = []
        elif op != b"h":  # anything else ends the path
            current = []
    return out


def _corner(box) -> tuple[float, float]:
    return round(box[0]), round(box[1])


@pytest.fixture(scope="module")
def silhouette(tmp_path_factory):
    ws = make_workspace(tmp_path_factory.mktemp("cut") / "ws")
    (ws / "data" / "test" / "decks" / "tiles.yaml").write_text(HEX_DECK, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    return ws


def test_registration_marks_at_silhouette_studios_defaults(silhouette):
    """The marks where silhouette-card-maker draws them for Studio's own templates (page_manager.py,
    generate_reg_mark): each L's lines centred on the 10 mm inset, so their outer edge is at 9.5 mm
    and each arm reaches 10 + 8.382 mm; the 5 mm square from 10 mm with a border of the lines'
    width (9.5 to 15.5 mm). They were drawn with their outer edges at 10 mm: half a line inward."""
    out = silhouette / "build" / "test"
    pdf = out / "cards.pdf"
    w, h, e = 210.0, 297.0, THICK / 2
    want = [Rect(INSET - e, INSET - e, INSET + SQUARE + e, INSET + SQUARE + e),
            Rect(w - INSET - ARM, INSET - e, w - INSET + e, INSET + e),
            Rect(w - INSET - e, INSET - e, w - INSET + e, INSET + ARM),
            Rect(INSET - e, h - INSET - e, INSET + ARM, h - INSET + e),
            Rect(INSET - e, h - INSET - ARM, INSET + e, h - INSET + e)]
    for index in range(len(PdfReader(pdf).pages)):
        got = _filled(pdf, index)
        if index % 2 == 1:  # the backs page: printed duplex, never scanned, no marks
            assert not any(r == pytest.approx(want[0]) for r in got)
            continue
        for mark in want:
            assert any(all(abs(a - b) < 0.01 for a, b in zip((r.x0, r.y0, r.x1, r.y1), (mark.x0, mark.y0, mark.x1, mark.y1)))
                       for r in got), (mark, got)
        reader = PdfReader(pdf)
        assert stroked_lines(reader, reader.pages[index]) == [] or all(  # no crop marks: only the slug's scale bars
            y > h - 12 for _, y, _, _ in stroked_lines(reader, reader.pages[index]))
    assert "シルエット用トンボ（内側10mm）・表から裁断" in "".join(texts(pdf)[0].split())  # the slug says so
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["cutter"]["inset_mm"] == INSET and manifest["cutter"]["machine"] == "silhouette"


def test_no_piece_and_no_slug_inside_the_keep_out_zones(silhouette):
    pdf = silhouette / "build" / "test" / "cards.pdf"
    w, h = 210.0, 297.0
    zones = [Rect(0, 0, REACH, REACH), Rect(w - REACH, 0, w, REACH), Rect(0, h - REACH, REACH, h)]
    reader = PdfReader(pdf)
    deck = json.loads((silhouette / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    pieces = clip_rects(reader, reader.pages[0])  # each piece with the bleed printed round it
    assert len(pieces) == deck["pieces_per_sheet"] >= 6
    cut_area = Rect(INSET, INSET, w - INSET, h - INSET)
    for p in pieces:
        inner = Rect(p.x0 + 0.001, p.y0 + 0.001, p.x1 - 0.001, p.y1 - 0.001)  # the PDF's rounding
        assert inner.inside(cut_area) and not any(inner.overlaps(z) for z in zones), p
    page = reader.pages[0]
    for text, x, y in text_positions(page):
        if text and y > 100:  # the slug, at the foot
            assert not any(Rect(x + 0.01, y - 2, x + 1, y).overlaps(z) for z in zones), (text, x, y)


def test_cut_paths_are_the_pieces_trim_boxes(silhouette):
    out = silhouette / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    deck = next(d for d in manifest["decks"] if d["id"] == "cards")
    bleed = deck["sheet_bleed_mm"]
    per = deck["pieces_per_sheet"]
    assert "cut/cards-p01.svg" in deck["files"] and "cut/cards-p02.dxf" in deck["files"]
    reader = PdfReader(out / "cards.pdf")
    for sheet in (1, 2):
        trims = sorted(((r.x0 + bleed, r.y0 + bleed, r.x1 - bleed, r.y1 - bleed)
                        for r in clip_rects(reader, reader.pages[2 * (sheet - 1)])), key=_corner)
        svg = _svg_paths((out / f"cut/cards-p{sheet:02d}.svg").read_bytes())
        dxf = _dxf_paths(out / f"cut/cards-p{sheet:02d}.dxf", 297.0)
        assert len(svg) == len(dxf) == len(trims) == (per if sheet == 1 else 11 - per)
        for points in (svg, [[(x, y) for x, y, b in p] for p in dxf]):
            boxes = sorted(((min(x for x, _ in p), min(y for _, y in p), max(x for x, _ in p), max(y for _, y in p))
                            for p in points), key=_corner)
            assert len(boxes) == len(trims)
            assert all(abs(a - b) <= 0.01 for box, trim in zip(boxes, trims) for a, b in zip(box, trim)), (boxes, trims)
            assert all(len(p) in (4, 5) for p in points)  # rectangles (the SVG repeats the start)
        assert all(b == 0 for p in dxf for _, _, b in p)
    head = (out / "cut/cards-p01.svg").read_text()
    assert 'viewBox="0 0 210 297"' in head and 'width="210mm"' in head


def _face_centres(pdf, index: int = 0) -> list[tuple[float, float]]:
    """The centre of each face a page places (its form's box: the piece and its bleed), mm from top."""
    page = PdfReader(pdf).pages[index]
    h = float(page.mediabox.top)
    out = []
    for tx, ty, form in placed_forms(page):
        _, _, w, hh = (float(v) for v in form.get_object()["/BBox"])
        out.append(((tx + w / 2) * PT, (h - ty - hh / 2) * PT))
    return out


def _centre(points) -> tuple[float, float]:
    corners = list(dict.fromkeys((round(x, 3), round(y, 3)) for x, y in points))
    return sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners)


def test_a_hex_deck_cuts_along_its_die_line(silhouette):
    """The machine cuts each hex along the cut files' die line, round the hex the sheet prints; the
    sheet prints no die line (fixesG: it showed wherever the cut drifted, as on round labels)."""
    out = silhouette / "build" / "test"
    assert _die_lines(out / "tiles.pdf") == []
    placed = sorted(_face_centres(out / "tiles.pdf"))  # each hex placed with its bleed
    assert len(placed) == 7
    svg = _svg_paths((out / "cut/tiles-p01.svg").read_bytes())
    dxf = _dxf_paths(out / "cut/tiles-p01.dxf", 297.0)
    for paths in (svg, [[(x, y) for x, y, _ in p] for p in dxf]):
        hexes = sorted(sorted((round(x, 2), round(y, 2)) for x, y in dict.fromkeys(p)) for p in paths)
        assert len(hexes) == 7 and all(len(p) == 6 for p in hexes)  # six corners each: a hexagon
        for cut, at in zip(sorted(_centre(p) for p in paths), placed):
            assert cut == pytest.approx(at, abs=0.011)  # centred on the printed hex
        for p in paths:  # a regular hexagon 40 mm across flats: sides of 40/√3 mm
            side = ((p[0][0] - p[1][0]) ** 2 + (p[0][1] - p[1][1]) ** 2) ** 0.5
            assert side == pytest.approx(40 / 3 ** 0.5, abs=0.01)
    def corners(paths) -> list[float]:  # every corner's x and y, in an order rounding does not change
        return [c for p in paths for q in sorted(dict.fromkeys(p), key=lambda q: (round(q[0]), round(q[1]))) for c in q]

    # the two files: the same corners
    assert corners(sorted(svg, key=_centre)) == pytest.approx(
        corners(sorted([[(x, y) for x, y, _ in p] for p in dxf], key=_centre)), abs=0.011)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert next(d for d in manifest["decks"] if d["id"] == "tiles")["die_line"]["home"] == \
        "the cutting machine: cut/tiles-pNN.svg, .dxf"


def test_cut_files_are_byte_identical_in_any_folder(silhouette, tmp_path):
    out = silhouette / "build" / "test" / "cut"
    copy = tmp_path / "elsewhere"
    shutil.copytree(silhouette, copy, symlinks=True, ignore=shutil.ignore_patterns("build"))
    assert run(copy, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    again = copy / "build" / "test" / "cut"
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(p.name for p in again.iterdir()) and len(names) == 6
    for name in names:
        assert (out / name).read_bytes() == (again / name).read_bytes(), name
    assert (silhouette / "build" / "test" / "cards.pdf").read_bytes() == (copy / "build" / "test" / "cards.pdf").read_bytes()


def test_cricut_images_fit_print_then_cut_with_their_outlines(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2", "カード3", "カード4", "カード5"])
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "cricut") == 0
    out = ws / "build" / "test"
    images = sorted((out / "cut").glob("cards-p*.png"))
    assert len(images) == 2  # 5 poker cards, 4 to an image
    for png in images:
        image = Image.open(png)
        assert image.size == (2025, 2775)  # 6.75 × 9.25 in at 300 dpi
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
        svg = png.with_suffix(".svg").read_text()
        assert 'width="6.75in" height="9.25in" viewBox="0 0 171.45 234.95"' in svg
        for p in _svg_paths(svg.encode()):
            xs, ys = [x for x, _ in p], [y for _, y in p]
            assert 0 <= min(xs) and max(xs) <= 171.45 and 0 <= min(ys) and max(ys) <= 234.95
            assert max(xs) - min(xs) == pytest.approx(63, abs=0.01) and max(ys) - min(ys) == pytest.approx(88, abs=0.01)
            # inside each outline the image shows the card's art (red), not the white paper
            cx, cy = (min(xs) + max(xs)) / 2, min(ys) + 20
            assert image.getpixel((round(cx / 25.4 * 300), round(cy / 25.4 * 300)))[0] > 150
    assert len(_svg_paths((out / "cut/cards-p02.svg").read_bytes())) == 1
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["cutter"] == {"machine": "cricut", "image_in": [6.75, 9.25], "dpi": 300}


def test_a_piece_larger_than_the_print_then_cut_area_is_warned_of(tmp_path, capsys):
    """185 × 260 mm fits A4 but no 6.75 × 9.25 in image, even turned: no cut/ files, as documented,
    and the build says so (it was silent: the designer found no files and no reason)."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "size: [185, 260]")
                        + "  - {name: A, text: b}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "cricut") == 0
    out = ws / "build" / "test"
    assert not (out / "cut").exists()
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:2:7: deck 'cards': a 185×260 mm piece is larger than Cricut's Print Then Cut area" in err, err
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert any("Print Then Cut" in w for w in manifest["warnings"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # no cutter: nothing to say
    assert "Print Then Cut" not in capsys.readouterr().err


def test_a_layout_decks_warning_starts_at_its_layout_line(tmp_path, capsys):
    """A deck drawn by a built-in layout gives its size by its layout: line, which is where the warning
    starts (it started at line 1, which in a deck file 'pnpgen new' writes is a comment)."""
    ws = make_workspace(tmp_path / "ws", deck="# a comment, as pnpgen new writes\nname: 盤\nlayout: board\n"
                        "pieces:\n  - {title: 盤}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "cricut") == 0
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:3:9: deck 'cards': a 260×180 mm piece is larger than Cricut's" in err, err


def test_the_print_then_cut_area_is_an_option(tmp_path, capsys):
    """Newer Design Space versions take a larger Print Then Cut image on some machines and papers:
    --cricut-area 8x10.5in makes the images that size (2400 × 3150 px at 300 dpi) and holds the
    185 × 260 mm piece that 6.75 × 9.25 in refused."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "size: [185, 260]")
                        + "  - {name: A, text: b}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "cricut", "--cricut-area", "8x10.5in") == 0
    assert "Print Then Cut" not in capsys.readouterr().err
    out = ws / "build" / "test"
    assert Image.open(out / "cut" / "cards-p01.png").size == (2400, 3150)
    svg = (out / "cut" / "cards-p01.svg").read_text()
    assert 'width="8in" height="10.5in" viewBox="0 0 203.2 266.7"' in svg
    [path] = _svg_paths(svg.encode())
    xs, ys = [x for x, _ in path], [y for _, y in path]
    assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx((185, 260), abs=0.01)
    assert (min(xs), min(ys)) == pytest.approx(((203.2 - 185) / 2, (266.7 - 260) / 2), abs=0.01)  # centred
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["cutter"] == {"machine": "cricut", "image_in": [8, 10.5], "dpi": 300}


def test_a_card_too_large_for_the_marks_names_the_marks_not_the_paper(tmp_path, capsys):
    """185 × 260 mm fits A4 (it builds without marks); between Silhouette's marks it does not: the
    error said 'does not fit on A4 inside a 5 mm margin', which the designer could not act on."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "size: [185, 260]")
                        + "  - {name: A, text: b}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cards.yaml" in err and "5 mm margin" not in err, err
    assert "between the Silhouette registration marks on A4" in err and "--silhouette-marks" in err, err
    assert "178.6×264.6 mm right of" in err and "190.0×254.2 mm above" in err, err  # 210 − 10 − 21.382 …
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0


BOARD_DECK = """\
name: ボード
kind: board
size: [180, 270]
front: card-front.svg.j2
fields: {name: text, text: text}
pieces:
  - {name: 盤, text: 本文}
"""


def test_a_board_too_large_for_the_marks_but_not_the_paper_prints_whole_cut_by_hand(tmp_path, capsys):
    """180 × 270 mm fits A4 inside the 5 mm margin, not between the registration marks: one whole
    sheet with トンボ and the slug on top, no registration marks, no cut files (it was split into
    two page tiles to glue, though the paper holds it); the build's summary says so under the
    deck's line (a roll-and-write sheet went without a cut file unsaid: trial58)."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    (ws / "data" / "test" / "decks" / "board.yaml").write_text(BOARD_DECK, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    said = capsys.readouterr().out.splitlines()
    board_line = next(i for i, line in enumerate(said) if line.lstrip().startswith("board "))
    assert said[board_line + 1].strip() == ("(too large for the room between the Silhouette's registration marks: "
                                            "printed whole with crop marks and no cut file, to cut by hand)")
    assert "registration marks" not in "".join(said[:board_line] + said[board_line + 2:])  # the cards: cut by machine
    out = ws / "build" / "test"
    decks = {d["id"]: d for d in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["decks"]}
    board = decks["board"]
    assert board["layout"] == "grid" and board["pieces_per_sheet"] == 1 and board["pages"] == 1
    assert not any(f.startswith("cut/") for f in board["files"])
    assert any(f.startswith("cut/cards-") for f in decks["cards"]["files"])  # the cards still cut by machine
    reader = PdfReader(out / "board.pdf")
    (piece,) = clip_rects(reader, reader.pages[0])
    b = board["sheet_bleed_mm"]
    assert (piece.x1 - piece.x0 - 2 * b, piece.y1 - piece.y0 - 2 * b) == pytest.approx((180, 270), abs=0.01)
    assert not any(abs(r.x1 - r.x0 - SQUARE) < 0.01 and abs(r.y1 - r.y0 - SQUARE) < 0.01
                   for r in _filled(out / "board.pdf"))  # no registration square
    xs = {round(x1, 2) for x1, y1, x2, y2 in stroked_lines(reader, reader.pages[0]) if x1 == x2}
    assert {round(piece.x0 + b, 2), round(piece.x1 - b, 2)} <= xs  # トンボ on the trim lines
    words = "".join(texts(out / "board.pdf")[0].split())
    assert "シルエット" not in words


def test_board_tiles_in_a_print_and_cut_build_do_not_claim_registration_marks(tmp_path):
    """A board larger than the paper: page tiles cut by hand, their slug without the Silhouette
    note (it said 「シルエット用トンボ…表から裁断」 on tiles that carry no registration marks)."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    (ws / "data" / "test" / "decks" / "board.yaml").write_text(BOARD_DECK.replace("[180, 270]", "[270, 400]"),
                                                               encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    out = ws / "build" / "test"
    board = {d["id"]: d for d in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["decks"]}["board"]
    assert board["layout"] == "tiled" and not any(f.startswith("cut/") for f in board["files"])
    for page in texts(out / "board.pdf"):
        assert "シルエット" not in "".join(page.split())
    assert "シルエット" in "".join(texts(out / "cards.pdf")[0].split())


def test_with_a_small_keep_out_the_grid_may_go_up_between_the_top_marks(tmp_path):
    """Poker cards on Letter: 6 a sheet below the top marks' zones; with keepout=0 the grid may
    start at the marks' top edge between the two top marks, 8 a sheet (2 × 4, turned), every
    piece with its bleed still clear of each mark's zone."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: カード1, text: 本文, count: 16}\n")  # 16 cards, one face
    per = {}
    for keepout in ("3mm", "0"):
        out = tmp_path / keepout
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--paper", "letter", "--marks", "silhouette",
                   "--silhouette-marks", f"keepout={keepout}", "--out", str(out)) == 0
        per[keepout] = json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]["pieces_per_sheet"]
    assert per == {"3mm": 6, "0": 8}
    reader = PdfReader(tmp_path / "0" / "test" / "cards.pdf")
    pieces = clip_rects(reader, reader.pages[0])
    w, h, reach = 215.9, 279.4, INSET + ARM
    zones = [Rect(0, 0, reach, reach), Rect(w - reach, 0, w, reach), Rect(0, h - reach, reach, h)]
    assert len(pieces) == 8 and min(p.y0 for p in pieces) < reach  # up between the top marks
    assert not any(p.overlaps(z) for p in pieces for z in zones)
    svg = _svg_paths((tmp_path / "0" / "test" / "cut" / "cards-p01-p02.svg").read_bytes())
    assert len(svg) == 8  # (16 cards: 2 sheets instead of 3)


def test_sheets_that_cut_alike_share_one_cut_file_and_the_summary_says_how_many(tmp_path, capsys):
    """fixes45b: a score pad's 20 pages, 2 a sheet, wrote ten cut files of the same bytes,
    cards-p01 … p10. Sheets in a row that cut alike are one file named by the run, the sheet that
    differs (the last, partly filled) its own; the summary and the manifest say how many sheets
    each run's file cuts."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: カード1, text: 本文, count: 20}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--paper", "letter", "--marks", "silhouette",
               "--silhouette-marks", "keepout=0", "--out", str(tmp_path / "out")) == 0  # 8 a sheet: 8, 8, 4
    said = capsys.readouterr().out
    out = tmp_path / "out" / "test"
    assert sorted(p.name for p in (out / "cut").iterdir()) == ["cards-p01-p02.dxf", "cards-p01-p02.svg",
                                                              "cards-p03.dxf", "cards-p03.svg"]
    assert [len(_svg_paths((out / "cut" / f"cards-{run}.svg").read_bytes())) for run in ("p01-p02", "p03")] == [8, 4]
    deck = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["die_line"]["cut_alike"] == {"cut/cards-p01-p02": 2}
    assert "cut/cards-p01-p02: one cut file for 2 sheets that cut alike, each cut with it" in said, said


def test_silhouette_figures_are_options(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette",
               "--silhouette-marks", "inset=0.625in,length=20mm") == 0
    got = _filled(ws / "build" / "test" / "cards.pdf")
    i, e = 0.625 * 25.4, THICK / 2  # the square with its border, the top-right L's arm from its corner
    assert any(abs(r.x0 - (i - e)) < 0.01 and abs(r.y0 - (i - e)) < 0.01 and abs(r.x1 - r.x0 - SQUARE - THICK) < 0.01
               for r in got)
    assert any(abs(r.x1 - (210 - i + e)) < 0.01 and abs(r.x1 - r.x0 - 20 - e) < 0.01 for r in got)


def test_arcs_of_round_and_rounded_pieces_keep_their_shape_in_the_dxf_and_svg(tmp_path):
    """Bulges and SVG arcs drawn back are the outline itself: every point of the DXF's flattened
    polylines within 0.01 mm of the piece's cut path (a wrong bulge sign bows the corners out)."""
    import ezdxf
    from ezdxf import path as dxfpath

    from pnpgen.exports.cutfiles import cut_dxf, cut_svg
    from pnpgen.impose.cutter import CutSheet
    from pnpgen.shapes import cut_path, distance_to_polygon_edges, shape_spec, translate

    outlines = [cut_path(shape_spec("rounded", (63, 88), {"corner_radius": 4})).transformed(translate(20, 30)),
                cut_path(shape_spec("circle", (30, 30))).transformed(translate(120, 40)),
                cut_path(shape_spec("trihex", (80, 80))).transformed(translate(40, 150))]
    sheet = CutSheet((210.0, 297.0), tuple(outlines))
    (tmp_path / "s.dxf").write_bytes(cut_dxf(sheet))
    doc = ezdxf.readfile(tmp_path / "s.dxf")
    polylines = [e for e in doc.modelspace() if e.dxftype() == "LWPOLYLINE"]
    assert len(polylines) == 3 and any(b for _, _, b in polylines[0].get_points("xyb"))
    for outline, pl in zip(outlines, polylines):
        exact = outline.points(0.001)
        points = [(v.x, 297.0 - v.y) for v in dxfpath.make_path(pl).flattening(0.001)]
        assert max(distance_to_polygon_edges(p, exact) for p in points) < 0.01
        assert max(distance_to_polygon_edges(p, [(x, y) for x, y in points]) for p in exact) < 0.01
    svg = cut_svg(sheet).decode()
    assert svg.count("<path ") == 3 and "A4 4 0 0 1" in svg and "A15 15 0 0 1" in svg  # arcs, clockwise on the page


@pytest.mark.parametrize("args", [("--marks", "silhouette", "--silhouette-marks", "inset=tenmm"),
                                  ("--marks", "cricut", "--silhouette-marks", "inset=12mm"),
                                  ("--marks", "silhouette", "--layout", "fold"),
                                  ("--marks", "silhouette", "--cricut-area", "7x10in"),
                                  ("--marks", "cricut", "--cricut-area", "7x10ft")])
def test_a_bad_cutter_option_is_one_line(tmp_path, capsys, args):
    ws = make_workspace(tmp_path / "ws")
    try:
        code = run(ws, "build", "--game", "test", "--no-rulebook", *args)
    except SystemExit as e:
        code = e.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err)
    assert any(w in err[-1] for w in ("tenmm", "--marks silhouette", "--layout grid", "--marks cricut", "7x10ft")) and not (ws / "build" / "test" / "cards.pdf").exists()


def test_the_reprint_of_a_print_and_cut_build_is_cut_by_hand_and_a_plain_build_removes_the_cut_files(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "本文カード1 改}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    pdf = ws / "build" / "test" / "reprint.pdf"
    reader = PdfReader(pdf)
    assert len(stroked_lines(reader, reader.pages[0])) > 8  # トンボ round the reprinted card
    assert not any(abs(r.x0 - INSET) < 0.01 and abs(r.y0 - INSET) < 0.01 for r in _filled(pdf))
    # built again without a cutter: the cut files go
    assert (ws / "build" / "test" / "cut" / "cards-p01.dxf").is_file()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert not list((ws / "build" / "test").glob("cut/*"))
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert "cutter" not in manifest and not any(f.startswith("cut/") for f in manifest["files"])


def test_the_docs_tell_a_print_and_cut_designer_that_reprints_are_cut_by_hand():
    """The playtest page said reprint.pdf is laid out with the home sheets' marks, and the
    Silhouette steps said nothing of reprints: a designer fed one to the machine, which found no
    registration marks (the test above shows what a reprint has)."""
    playtest = (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")
    said = playtest[playtest.index("## Or print only the new cards"):playtest.index("## Keep the history")]
    assert "トンボ in place of the registration marks and no cut file" in said
    home = (REPO / "docs" / "home-printing.md").read_text(encoding="utf-8")
    steps = home[home.index("### Silhouette"):home.index("### Cricut")]
    assert "are cut by hand: their sheets have トンボ in place of the registration marks, and no cut file" in steps


def test_a_dxf_is_the_same_whatever_order_ezdxf_meets_its_entity_types_in(monkeypatch):
    """ezdxf lists the entity types a drawing uses as a set, whose order follows the process's
    string hashing: the DXF's CLASSES section (and so its bytes) changed with PYTHONHASHSEED. The
    types met in reverse order give the same bytes."""
    from ezdxf.entitydb import EntityDB

    from pnpgen.exports.cutfiles import CutSheet, cut_dxf

    sheet = CutSheet((210.0, 297.0), ())
    plain = cut_dxf(sheet)
    in_use = EntityDB.dxf_types_in_use
    monkeypatch.setattr(EntityDB, "dxf_types_in_use", lambda self: list(reversed(sorted(in_use(self)))))
    assert cut_dxf(sheet) == plain
    monkeypatch.setattr(EntityDB, "dxf_types_in_use", lambda self: sorted(in_use(self)))
    assert cut_dxf(sheet) == plain


def test_silhouette_marks_inside_the_printers_margin_are_warned_of(tmp_path, capsys):
    """hostile10: ``--silhouette-marks inset=4mm`` (the option takes 3 to 40 mm) puts the marks'
    outer edge 3.5 mm from the paper's edge, where a printer with the build's 5 mm margin leaves
    them out and the machine finds nothing to cut by: the build said nothing. It warns, with the
    inset that clears the margin; the defaults (outer edge 9.5 mm) say nothing."""
    from pnpgen.impose.grid import SheetOptions
    from pnpgen.impose.onpaper import silhouette_warnings
    from pnpgen.impose.registration import SILHOUETTE, silhouette_option

    assert silhouette_warnings(SheetOptions(marks="silhouette", silhouette=SILHOUETTE)) == []
    [said] = silhouette_warnings(SheetOptions(marks="silhouette", silhouette=silhouette_option("inset=4mm,thickness=1mm")))
    assert "outer edge is 3.5 mm from the paper's edge, inside the printer's 5 mm margin" in said
    assert "an inset of at least 5.5 mm" in said
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette",
               "--silhouette-marks", "inset=4mm") == 0
    assert "the registration marks' outer edge is" in capsys.readouterr().err


SQUARE_TILES = """\
name: Square tiles
layout:
  extends: tile-hex
  shape: rect
  size: [50, 50]
  back: {background: accent, boxes: {title: {field: game.title, x: 5, y: 18, w: 40, h: 14}}}
pieces:
  - {title: Forest, text: Score 1., count: 15}
"""


def test_two_sided_tiles_between_the_marks_keep_the_bleed_the_back_offset_needs(tmp_path, capsys):
    """A designer's trial (trial47): 50 mm two-sided square tiles on Letter, --marks silhouette
    with a printer profile, were laid 15 a sheet at 0.5 mm of bleed, warned that 'the letter paper
    has no room for gutters', where 12 a sheet at 3 mm fit between the marks: as on sheets with
    トンボ (docs/home-printing.md, Bleed that survives the offset), the grid keeps the bleed the
    offset needs on more sheets, says what the tight grid held, and the cut file follows it."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    (ws / "data" / "test" / "decks" / "squares.yaml").write_text(SQUARE_TILES, encoding="utf-8")
    (ws / "printers.yaml").write_text("jet: {paper: letter, back_offset_mm: [-0.75, -0.5]}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette", "--printer", "jet") == 0
    said = capsys.readouterr()
    out = ws / "build" / "test"
    deck = next(d for d in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["decks"] if d["id"] == "squares")
    assert deck["sheet_bleed_mm"] >= 1.25 and deck["pieces_per_sheet"] == 12 and deck["sheets"] == 2
    assert deck["more_with"] == {"bleed_mm": 0.5, "pieces_per_sheet": 15}
    assert "no room for gutters" not in said.err and "(15/sheet at 0.5 mm of bleed: the grid keeps" in said.out
    bleed = deck["sheet_bleed_mm"]
    reader = PdfReader(out / "squares.pdf")
    trims = sorted(((r.x0 + bleed, r.y0 + bleed, r.x1 - bleed, r.y1 - bleed)
                    for r in clip_rects(reader, reader.pages[0])), key=_corner)
    boxes = sorted(((min(x for x, _ in p), min(y for _, y in p), max(x for x, _ in p), max(y for _, y in p))
                    for p in _svg_paths((out / "cut/squares-p01.svg").read_bytes())), key=_corner)
    assert len(boxes) == len(trims) == 12
    assert all(abs(a - b) <= 0.01 for box, trim in zip(boxes, trims) for a, b in zip(box, trim)), (boxes, trims)
    zones = [(0, 0, REACH, REACH), (215.9 - REACH, 0, 215.9, REACH), (0, 279.4 - REACH, REACH, 279.4)]
    assert not any(x0 - bleed < z[2] and z[0] < x1 + bleed and y0 - bleed < z[3] and z[1] < y1 + bleed
                   for x0, y0, x1, y1 in trims for z in zones)


def test_two_sided_pieces_between_the_marks_say_the_bleed_they_gave_up(tmp_path, capsys):
    """A designer's trial (trial55): 60 two-sided round tokens on Letter, --marks silhouette, went
    63 a sheet at 0.5 mm of bleed and the summary said nothing, while the docs told a print-and-cut
    designer that a back printed off its front shows paper at the cut. The summary says it as a
    duplex grid of cards does, with the count the full bleed holds: the figure a profile whose
    offset needs the full bleed lays out. A one-sided deck there says nothing."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    decks = ws / "data" / "test" / "decks"
    (decks / "squares.yaml").write_text(SQUARE_TILES, encoding="utf-8")
    (decks / "plain.yaml").write_text(SQUARE_TILES.replace(SQUARE_TILES.splitlines()[5], "  back: null"), encoding="utf-8")
    (ws / "printers.yaml").write_text("far: {paper: letter, back_offset_mm: [2.5, 0]}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette", "--paper", "letter") == 0
    said = [line.strip() for line in capsys.readouterr().out.splitlines() if "the full" in line]
    assert said == ["(15/sheet at 0.5 mm of bleed, 12/sheet at the full 3 mm: a back printed more than 0.5 mm off "
                    "its front shows paper at the cut; a printer profile's back_offset_mm keeps the bleed its offset "
                    "needs)"]
    decks_made = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"]
    squares = next(d for d in decks_made if d["id"] == "squares")
    assert (squares["pieces_per_sheet"], squares["sheet_bleed_mm"]) == (15, 0.5) and "full_bleed" not in squares
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette", "--printer", "far",
               "--out", str(tmp_path / "far")) == 0
    far = json.loads((tmp_path / "far" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"]
    assert [(d["pieces_per_sheet"], d["sheet_bleed_mm"]) for d in far if d["id"] == "squares"] == [(12, 3.0)]
    assert "the full" not in capsys.readouterr().out


def test_counters_that_abut_are_cut_once_along_each_shared_line(tmp_path):
    """A wargame trial: 232 ½-inch counters printed with no gap (bleed: 0, gang-cut) had a closed
    cut path each, so the cutter cut every line between two counters twice (232 rectangles, 928
    edges). Pieces that abut are cut along the lines they share, each once, end to end across the
    block: every edge of every piece lies on one cut, and no cut runs through a piece."""
    import ezdxf

    from pnpgen.exports.cutfiles import cut_dxf, cut_svg
    from pnpgen.impose.cutter import CutSheet, shared_cuts
    from pnpgen.shapes import cut_path, shape_spec, translate

    side = 12.7
    square = cut_path(shape_spec("rect", (side, side)))
    places = [(c, r) for r in range(2) for c in range(3)] + [(0, 2)]  # two full rows and one counter
    paths = [square.transformed(translate(20 + c * side, 30 + r * side)) for c, r in places]
    outlines, cuts = shared_cuts(paths)
    assert outlines == ()
    got = sorted((round(c.x1, 3), round(c.y1, 3), round(c.x2, 3), round(c.y2, 3)) for c in cuts)
    assert got == sorted([(20, 30, 58.1, 30), (20, 42.7, 58.1, 42.7), (20, 55.4, 58.1, 55.4), (20, 68.1, 32.7, 68.1),
                          (20, 30, 20, 68.1), (32.7, 30, 32.7, 68.1), (45.4, 30, 45.4, 55.4), (58.1, 30, 58.1, 55.4)])
    for c, r in places:  # each edge of each counter on a cut
        x, y = 20 + c * side, 30 + r * side
        for (x1, y1, x2, y2) in ((x, y, x + side, y), (x, y + side, x + side, y + side), (x, y, x, y + side),
                                 (x + side, y, x + side, y + side)):
            assert any(
                (abs(k.y1 - y1) < 1e-6 and abs(k.y2 - y2) < 1e-6 and k.x1 <= x1 + 1e-6 and x2 <= k.x2 + 1e-6) if y1 == y2
                else (abs(k.x1 - x1) < 1e-6 and abs(k.x2 - x2) < 1e-6 and k.y1 <= y1 + 1e-6 and y2 <= k.y2 + 1e-6)
                for k in cuts), (c, r)
    sheet = CutSheet((215.9, 279.4), outlines, cuts)
    svg = cut_svg(sheet).decode()
    assert svg.count("<path ") == 8 and '<path d="M20 30 L58.1 30"/>' in svg
    (tmp_path / "s.dxf").write_bytes(cut_dxf(sheet))
    lines = [e for e in ezdxf.readfile(tmp_path / "s.dxf").modelspace() if e.dxftype() == "LWPOLYLINE"]
    assert len(lines) == 8 and not any(e.closed for e in lines)
    assert [tuple(round(v, 3) for v in p) for p in lines[0].get_points("xy")] == [(20, 249.4), (58.1, 249.4)]
    # with a gutter between them the counters share no line: each keeps its closed outline
    apart = [square.transformed(translate(20 + c * 15, 30)) for c in range(3)]
    assert shared_cuts(apart) == (tuple(apart), ())
    # rounded counters that abut keep their own outlines: an arc is cut as the piece's, not merged
    rounded = cut_path(shape_spec("rounded", (side, side), {"corner_radius": 2}))
    abut = [rounded.transformed(translate(20 + c * side, 30)) for c in range(3)]
    assert shared_cuts(abut) == (tuple(abut), ())


def test_a_deck_on_a_sheet_layout_of_plain_paper_is_told_it_gets_no_cut_files(tmp_path, capsys):
    """hostile39: the docs' gang-cut counters on a sheet layout of plain paper (``stock: false``)
    in a ``--marks silhouette`` build printed in their slots without marks or cut files, and the
    build said nothing: the machine had nothing to cut. It is warned at the deck's ``sheet:``
    line; a deck on card stock, cut already, is not."""
    deck = DECK_YAML.replace("format: poker", "kind: token\nsize: [0.5in, 0.5in]\nsheet: counters") + \
        "  - {name: A, text: a, count: 4}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "sheets").mkdir()
    layout = "paper: a4\ngrid: {cols: 14, rows: 20, left: 16.1, top: 21.5, width: 0.5in, height: 0.5in}\n"
    for plain in (True, False):
        (ws / "sheets" / "counters.yaml").write_text(layout + ("stock: false\n" if plain else ""), encoding="utf-8")
        capsys.readouterr()
        out = tmp_path / f"out{plain}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette", "--out", str(out)) == 0
        said = [ln for ln in capsys.readouterr().err.splitlines() if "cut files" in ln]
        assert not (out / "test" / "cut").exists()
        assert said == ([
            "pnpgen: warning: data/test/decks/cards.yaml:4:8: deck 'cards' is on sheet layout 'counters' of plain paper "
            "(stock: false), which a --marks silhouette build prints in its slots without registration marks or cut "
            "files: the machine cuts none of it (leave out its sheet: to lay it on the grid, with bleed: 0 for counters "
            "that abut, each line between two cut once)"] if plain else []), said


def test_cards_as_many_either_way_up_between_the_marks_turn_to_keep_the_most_bleed():
    """A US designer's 2.5 × 3.5 in cards between a Silhouette's marks on Letter (trial78): 6 a sheet
    either way up above the bottom-left mark's zone, 3 × 2 upright at 0.9 mm of bleed, 2 × 3 turned at
    the full 3 mm; the grid kept the upright 0.9 (right of the zone, 1.68 mm), as a tie in count kept
    the first orientation. The docs' rule: the fewest sheets, then the most bleed."""
    from pnpgen.impose.cutter import clear_of, silhouette_layout
    from pnpgen.impose.grid import SheetOptions, layout_grid
    from pnpgen.impose.registration import SILHOUETTE
    from pnpgen.shapes import shape_spec

    card = shape_spec("rect", (63.5, 88.9))
    sheet = SheetOptions(paper="letter", marks="silhouette", silhouette=SILHOUETTE)
    lay = silhouette_layout(card, 18, sheet, SILHOUETTE)
    assert lay is not None and lay.per_sheet == 6 and lay.rotated and (lay.cols, lay.rows) == (2, 3)
    assert lay.sheet_bleed_mm == pytest.approx(3.0)
    assert clear_of(lay, SILHOUETTE.zones(sheet.paper_mm))
    # the tie on a plain sheet alike: an area as wide as three upright cards and as tall as three turned
    tall = SheetOptions(paper="letter", cut_area=(10.0, 10.0, 205.9, 246.6), mark_room_mm=0.0)
    grid = layout_grid(63.5, 88.9, tall)
    assert grid is not None and grid.per_sheet == 6 and grid.rotated and grid.sheet_bleed_mm == pytest.approx(3.0)
