"""Tokens, tiles and boards for a 同人 printer that takes CMYK PDF/X-1a only (--preset
doujin-pieces): every piece at its own size, each file passing the PDF/X-1a preflight, a die-cut
piece's cut path in the spot colour CutContour in a file beside it (or on its pages), the トンボ
outside the bleed on a page wider than A4. The build's shop/ files are RGB, which such a printer refuses."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pikepdf
import pytest
from preflight import problems
from pypdf import PdfReader

from conftest import DECK_YAML, make_workspace, run

MM = 72 / 25.4
CARDS = DECK_YAML + "  - {name: 魚, text: 売る, count: 4}\n  - {name: 塩, text: 未定, count: 2}\n"
SEAS = "name: 海域タイル\nkind: tile\nshape: hex\nsize: 50\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n" \
       "pieces:\n  - {name: 港}\n  - {name: 外洋, count: 3}\n"
BOARD = "name: 得点ボード\nkind: board\nsize: [280, 200]\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n" \
        "pieces:\n  - {name: 盤}\n"
COIN = "name: コイン\nkind: token\nshape: circle\nsize: 30\nfront: card-front.svg.j2\nback: card-back.svg.j2\n" \
       "fields: {name: text, text: text}\npieces:\n  - {name: 金}\n"
TRIMS = {"cards": (63, 88), "seas": (50, 57.735), "board": (280, 200), "coins": (30, 30)}


def _export(tmp_path: Path, preset: str = "doujin-pieces") -> Path:
    root = make_workspace(tmp_path / "ws", deck=CARDS)
    for name, text in (("seas", SEAS), ("board", BOARD), ("coins", COIN)):
        (root / "data" / "test" / "decks" / f"{name}.yaml").write_text(text, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", preset) == 0
    return root / "build" / "test" / preset


@pytest.fixture(scope="module")
def pieces_export(tmp_path_factory) -> Path:
    """The four decks exported with doujin-pieces, once for the tests that only read the files."""
    return _export(tmp_path_factory.mktemp("pieces"))


def _box(page, key: str) -> list[float]:
    return [float(v) / MM for v in page.obj[key]]


def _strokes(page, spot: str) -> list[tuple[list[tuple[float, float]], dict]]:
    """Each path stroked in the Separation ``spot`` on the page: its points (mm) and the
    ExtGState in effect (graphics state saved and restored with q/Q)."""
    out, points, states, colour = [], [], [{}], [None]
    for operands, op in pikepdf.parse_content_stream(page):
        name = str(op)
        if name == "q":
            states.append(dict(states[-1]))
            colour.append(colour[-1])
        elif name == "Q":
            states.pop()
            colour.pop()
        elif name == "gs":
            states[-1] = {**states[-1], **dict(page.Resources.ExtGState[operands[0]].items())}
        elif name == "CS":
            space = page.Resources.ColorSpace.get(operands[0])
            colour[-1] = str(space[1]) if isinstance(space, pikepdf.Array) else None
        elif name in ("m", "l"):
            points.append((float(operands[0]) / MM, float(operands[1]) / MM))
        elif name == "c":
            points.append((float(operands[4]) / MM, float(operands[5]) / MM))
        elif name in ("S", "s"):
            if colour[-1] == spot:
                out.append((points, states[-1]))
            points = []
        elif name in ("n", "f", "F", "f*", "B", "b", "B*", "b*"):
            points = []
    return out


def test_tiles_boards_and_tokens_are_pdfx1a_at_their_own_size(pieces_export):
    out = pieces_export
    for deck, (w, h) in TRIMS.items():
        data = (out / f"{deck}.pdf").read_bytes()
        assert problems(data) == [], deck
        with pikepdf.open(out / f"{deck}.pdf") as doc:
            boxes = {tuple(round(v, 2) for v in _box(p, "/TrimBox") + _box(p, "/BleedBox")) for p in doc.pages}
            [(tx0, ty0, tx1, ty1, bx0, by0, bx1, by1)] = boxes  # one geometry for every page
            assert abs(tx1 - tx0 - w) < 0.02 and abs(ty1 - ty0 - h) < 0.02, deck
            assert all(abs(d - 3) < 0.02 for d in (tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1)), deck
            assert doc.Root.OutputIntents[0].OutputConditionIdentifier == "JC200103"
    rows = list(csv.DictReader((out / "order.csv").open(encoding="utf-8-sig", newline="")))
    assert {r["deck"]: r["note"] for r in rows} == {d: "" for d in TRIMS}  # nothing left out
    assert sum(int(r["quantity"]) for r in rows if r["deck"] == "seas") == 4


def _cut_paths(doc) -> list:
    """Each page's CutContour strokes: their points, after checking they overprint."""
    out = []
    for page in doc.pages:
        strokes = _strokes(page, "/CutContour")
        for _, state in strokes:
            assert state.get("/OP") is True and int(state.get("/OPM", 0)) == 1  # the art under it stays whole
        out.append([points for points, _ in strokes])
    return out


def _fits_trim(page, points) -> bool:
    x0, y0, x1, y1 = _box(page, "/TrimBox")
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return all(abs(a - b) < 0.05 for a, b in ((min(xs), x0), (max(xs), x1), (min(ys), y0), (max(ys), y1)))


def test_a_die_cut_piece_s_cut_path_is_a_file_beside_its_print_pages(pieces_export):
    """Hex and round pieces are cut along their outline: <deck>-die.pdf holds the path in the spot
    colour CutContour with overprint, fitting the trim, on pages boxed and marked as the print pages
    (a page for the fronts, one for the backs); the print pages hold no spot colour a printer might
    print. Rectangular cards and boards are cut at the trim: no die file."""
    out = pieces_export
    for deck, sides in (("seas", 1), ("coins", 2)):
        with pikepdf.open(out / f"{deck}.pdf") as doc, pikepdf.open(out / f"{deck}-die.pdf") as die:
            assert _cut_paths(doc) == [[]] * 2  # seas: 2 distinct faces; coins: 1 face and its back
            print_boxes = {tuple(_box(p, k)) for p in doc.pages for k in ("/MediaBox", "/TrimBox", "/BleedBox")}
            assert {tuple(_box(p, k)) for p in die.pages for k in ("/MediaBox", "/TrimBox", "/BleedBox")} == print_boxes
            paths = _cut_paths(die)
            assert len(paths) == sides and all(len(p) == 1 and _fits_trim(page, p[0]) for p, page in zip(paths, die.pages))
            assert all(_strokes(p, "/All") for p in die.pages)  # the トンボ, to register it with the print pages
            # titled in the game's language (a Japanese game's was 「… — cut line (…)」: a trial of session 47)
            assert " — カットライン (" in str(die.docinfo.Title) and "cut" not in str(die.docinfo.Title), die.docinfo.Title
        # and its pages labelled in it ("cut line (front)" in a Japanese game: polish47a)
        assert list(PdfReader(out / f"{deck}-die.pdf").page_labels) == ["カットライン（表）", "カットライン（裏）"][:sides]
        assert problems((out / f"{deck}-die.pdf").read_bytes()) == [], deck
    assert not (out / "cards-die.pdf").exists() and not (out / "board-die.pdf").exists()
    # order.csv tells the print shop which die file goes with which print file
    rows = list(csv.DictReader((out / "order.csv").open(encoding="utf-8-sig", newline="")))
    assert {(r["file"], r["die"]) for r in rows} == {("seas.pdf", "seas-die.pdf"), ("coins.pdf", "coins-die.pdf"),
                                                    ("cards.pdf", ""), ("board.pdf", "")}
    assert all((out / r["die"]).is_file() for r in rows if r["die"])


def test_cut_line_page_puts_the_cut_path_on_the_print_pages(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=CARDS)
    (root / "data" / "test" / "decks" / "coins.yaml").write_text(COIN, encoding="utf-8")
    shipped = Path(__file__).parents[2] / "generator" / "pnpgen" / "exports" / "presets" / "doujin-pieces.yaml"
    (root / "presets").mkdir()
    (root / "presets" / "cutter.yaml").write_text(
        shipped.read_text(encoding="utf-8").replace("cut_line: file", "cut_line: page"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "cutter") == 0
    out = root / "build" / "test" / "cutter"
    assert not (out / "coins-die.pdf").exists()
    rows = list(csv.DictReader((out / "order.csv").open(encoding="utf-8-sig", newline="")))
    assert [r["die"] for r in rows] == [""] * len(rows)  # the cut line is on the pages: no file to name
    with pikepdf.open(out / "coins.pdf") as doc:
        paths = _cut_paths(doc)
        assert len(paths) == 2 and all(len(p) == 1 and _fits_trim(page, p[0]) for p, page in zip(paths, doc.pages))
        assert _cut_paths(pikepdf.open(out / "cards.pdf")) == [[]] * 4
    assert problems((out / "coins.pdf").read_bytes()) == []


def test_the_marks_stay_outside_the_bleed_on_a_page_wider_than_a4(pieces_export):
    """The トンボ of a 280×200 mm board: every line outside the bleed box (they were cut short at
    A4's 210 mm and drawn back across the board's right edge, 400 % registration ink on the art)."""
    out = pieces_export
    with pikepdf.open(out / "board.pdf") as doc:
        page = doc.pages[0]
        marks = _strokes(page, "/All")
        assert len(marks) > 20
        x0, y0, x1, y1 = _box(page, "/BleedBox")
        for points, _ in marks:
            (ax, ay), (bx, by) = points
            outside = max(ax, bx) <= x0 + 1e-3 or min(ax, bx) >= x1 - 1e-3 or \
                max(ay, by) <= y0 + 1e-3 or min(ay, by) >= y1 - 1e-3
            assert outside, (points, (x0, y0, x1, y1))


def test_doujin_names_doujin_pieces_for_the_pieces_it_leaves_out(tmp_path):
    out = _export(tmp_path, "doujin")
    left = {o["deck"]: o for o in json.loads((out / "export.json").read_text(encoding="utf-8"))["left_out"]}
    assert set(left) == {"seas", "board", "coins"}
    for o in left.values():
        assert o["taken_by"][0] == "--preset doujin-pieces"
        assert o["taken_by"][-1] == f"pnpgen build's shop/{o['deck']}.pdf (any size, RGB)"


THIN_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
<line x1="5" y1="20" x2="58" y2="20" stroke="#000000" stroke-width="{{ piece.text }}"/>
{% endblock %}
"""


def _lines_export(tmp_path: Path, width: str, preset: str, *extra: str, lint: str = "") -> list[str]:
    deck = DECK_YAML.replace("pieces:\n", lint + "pieces:\n") + f"  - {{name: 線, text: '{width}', count: 2}}\n"
    root = make_workspace(tmp_path / "ws", deck=deck, front=THIN_FRONT)
    assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
    return json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]


def test_a_line_thinner_than_the_shop_prints_is_warned_at_its_template_line(tmp_path, capsys):
    """同人 printers ask for lines of at least 0.1 mm (min_line in doujin and doujin-pieces); a
    0.09 mm line passes the build's print lint (0.25 pt = 0.088 mm) but not the shop: the export
    names the template line and the figures, even for a deck whose own lint is off."""
    for preset in ("doujin", "doujin-pieces"):
        warnings = _lines_export(tmp_path / preset, "0.09", preset, lint="lint: false\n")
        [line] = [w for w in warnings if "print lint" in w]
        assert line.startswith("templates/test/card-front.svg.j2:4: print lint: deck 'cards' piece 1 (線)"), line
        assert "stroke 0.26 pt (0.09 mm), thinner than the 0.1 mm line 同人印刷所" in line
    assert "thinner than" in capsys.readouterr().err


def test_a_line_of_the_shops_minimum_or_a_shop_without_one_is_not_warned(tmp_path):
    assert not [w for w in _lines_export(tmp_path / "a", "0.1", "doujin") if "print lint" in w]
    assert not [w for w in _lines_export(tmp_path / "b", "0.09", "drivethrucards", "--fit", "scale") if "print lint" in w]


def test_a_doujin_preset_is_named_in_the_games_language(tmp_path):
    """An English game's doujin-pieces export said 同人印刷所（トークン・タイル・ボード） in its
    warnings and its PDFs' titles: a preset's name given per language is said in the game's."""
    deck = DECK_YAML.replace("pieces:\n", "lint: false\npieces:\n") + "  - {name: Line, text: '0.09', count: 2}\n"
    root = make_workspace(tmp_path / "ws", deck=deck, front=THIN_FRONT, game="title: Harbor\nlanguages: [en]\n")
    for preset, name in (("doujin-pieces", "doujin printer (tokens, tiles, boards)"),
                         ("doujin", "doujin printer (PDF with crop marks)")):
        assert run(root, "export", "--game", "test", "--preset", preset) == 0
        folder = root / "build" / "test" / preset
        warnings = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
        assert any(f"thinner than the 0.1 mm line {name} prints" in w for w in warnings), warnings
        assert not any("同人印刷所" in w for w in warnings), warnings
        with pikepdf.open(folder / "cards.pdf") as pdf:
            assert str(pdf.docinfo["/Title"]).endswith(f"({name})")


def test_a_card_of_a_named_format_prints_at_it_beside_an_any_size_format(tmp_path):
    """preflight10: a preset of a 63×88 ``poker`` with 3 mm bleed and an ``any`` format with 2 mm
    (a shop's cards, and its custom pieces) printed the poker cards at 2 mm, 67×92 mm pages: the
    ``any`` format took every deck before a named one was looked at, whatever the order. The cards
    now print at poker's 3 mm (69×94 mm, the shop's page size), the hex tiles at any's 2 mm."""
    root = make_workspace(tmp_path / "ws", deck=CARDS)
    (root / "data" / "test" / "decks" / "seas.yaml").write_text(SEAS, encoding="utf-8")
    (root / "presets").mkdir()
    (root / "presets" / "printer.yaml").write_text(
        "name: A shop\nfiles: pdf-faces\ncolour: cmyk\nformats:\n  any: {trim: any, bleed: 2mm}\n"
        "  poker: {trim: [63mm, 88mm], bleed: 3mm}\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "printer") == 0
    out = root / "build" / "test" / "printer"
    for deck, bleed in (("cards", 3), ("seas", 2)):
        with pikepdf.open(out / f"{deck}.pdf") as doc:
            trim, box = _box(doc.pages[0], "/TrimBox"), _box(doc.pages[0], "/BleedBox")
            w, h = TRIMS[deck]
            assert abs(trim[2] - trim[0] - w) < 0.01 and abs(trim[3] - trim[1] - h) < 0.01
            assert abs(box[2] - box[0] - (w + 2 * bleed)) < 0.01 and abs(box[3] - box[1] - (h + 2 * bleed)) < 0.01, deck
