"""A designer's pass over docs/home-printing.md and the new parts of docs/data-format.md: their
YAML examples (printers.yaml, sheets/my-stock.yaml, the full sheet-layout listing, game.yaml's
printer:/ink:/lint: lines) copied literally into a fresh workspace build and place the pieces where
the docs say, read back from the PDF in mm; check --printer's advice for a deck on card stock
names the stock, not the paper."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from conftest import DECK_YAML, FRONT, REPO, make_workspace, run
from homeprint.test_printer import placements
from pdfprobe import glyphs, reader, text_positions, texts
from pnpgen.data import boxlengths, layouts, layoutsides, sheetlayouts
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import Located
from pnpgen.exports.presets import load_preset
from pnpgen.scaffold import trim_of

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
HOME = (REPO / "docs" / "home-printing.md").read_text(encoding="utf-8")
FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")


def _block(doc: str, first_line_starts: str) -> str:
    """The one code block of ``doc`` whose first line starts so."""
    found = [body for _, body in FENCE.findall(doc) if body.startswith(first_line_starts)]
    assert len(found) == 1, first_line_starts
    return found[0]


def _deck(head: str, n: int) -> str:
    return head + "".join(f"  - {{name: 札{i}, text: 本文{i}}}\n" for i in range(1, n + 1))


def _centres(boxes):
    return sorted(((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes)


def _flat(points) -> list[float]:
    return [v for point in sorted(points) for v in point]


def test_home_printing_own_stock_example_builds_as_written(tmp_path):
    """home-printing.md's sheets/my-stock.yaml (poker-3x3-a4 moved to 11 mm / 17 mm), then
    ``pnpgen build --sheet my-stock`` as the page says: the cards' centres in the moved slots."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 11))
    (ws / "sheets").mkdir()
    (ws / "sheets" / "my-stock.yaml").write_text(_block(HOME, "# sheets/my-stock.yaml"), encoding="utf-8")
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "my-stock", "--out", str(out)) == 0
    pages = placements(out / "test" / "cards.pdf")
    assert [len(p) for p in pages] == [9, 9, 2, 2]
    want = [(11 + 31.5 + c * 63, 17 + 44 + r * 88) for r in range(3) for c in range(3)]
    assert _flat(_centres(pages[0])) == pytest.approx(_flat(want), abs=0.002)
    assert all("my-stock" in t for t in texts(out / "test" / "cards.pdf"))


def test_data_format_sheet_listing_builds_as_written(tmp_path):
    """data-format.md's full sheets/ listing (extends a-one-51002, every key written): portrait
    meishi cards turned into its ten 91×55 slots; the slug gives the file name, the manifest the
    layout's name:, as the listing's comment says."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML.replace("format: poker", "format: meishi"), 10))
    (ws / "sheets").mkdir()
    listing = _block(FORMAT, "# sheets/my-stock.yaml — every key")
    (ws / "sheets" / "multi.yaml").write_text(listing, encoding="utf-8")
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "multi", "--out", str(out)) == 0
    pages = placements(out / "test" / "cards.pdf")
    assert [len(p) for p in pages] == [10, 10]
    want = [(14 + 45.5 + c * 91, 11 + 27.5 + r * 55) for r in range(5) for c in range(2)]
    assert _flat(_centres(pages[0])) == pytest.approx(_flat(want), abs=0.002)
    assert all(" multi " in t for t in texts(out / "test" / "cards.pdf")[:1])
    deck = json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["sheet_layout"]["name"] == "マルチカード 名刺 10面" and deck["layout"] == "sheet multi"


def test_game_yaml_printer_ink_lint_lines_work_uncommented(tmp_path, capsys):
    """The game.yaml listing's optional printer:, ink: and lint: lines, uncommented as written,
    with home-printing.md's printers.yaml: check passes and names the profile's bleed problem
    for a deck on the abutting poker-3x3-a4 stock in the stock's words (its slots, not the paper)."""
    game_lines = [line[2:] for line in _block(FORMAT, "# data/<slug>/game.yaml").splitlines()
                  if re.match(r"# (printer|ink|lint): ", line)]
    assert len(game_lines) == 3
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML.replace("format: poker", "format: poker\nsheet: poker-3x3-a4"), 9))
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\n".join(game_lines) + "\n", encoding="utf-8")
    (ws / "printers.yaml").write_text(_block(HOME, "# printers.yaml"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines() if "bleed" in line]
    assert lines == ["warning: data/test/decks/cards.yaml:3:8: deck 'cards': its home sheets give 0.0 mm of bleed, below the 1.7 mm the back offset "
                     "of printer 'home-laser' needs (the larger offset + 0.5 mm): the slots of sheet layout "
                     "'poker-3x3-a4' leave no room for more, so backs may show white edges (a printer that shifts "
                     "less, or 'sheet: grid' for this deck)"]
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--ink", "saver", "--out", str(out)) == 0
    manifest = json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["printer"]["name"] == "home-laser"
    assert manifest["ink"]["mode"] == "saver"
    assert (out / "test" / "ink-saver" / "cards.pdf").is_file()


def test_the_dxf_extents_are_the_paper(tmp_path):
    """home-printing.md: "the DXF's extents are the paper, $EXTMIN/$EXTMAX" (the way to place the
    paths in Studio when it moves them), and its limits too."""
    import ezdxf

    from pnpgen.exports.cutfiles import cut_dxf
    from pnpgen.impose.cutter import CutSheet

    sheet = CutSheet((210.0, 297.0), ())
    (tmp_path / "s.dxf").write_bytes(cut_dxf(sheet))
    doc = ezdxf.readfile(tmp_path / "s.dxf")
    assert tuple(doc.header["$EXTMIN"]) == (0.0, 0.0, 0.0)
    assert tuple(doc.header["$EXTMAX"]) == (210.0, 297.0, 0.0)
    assert tuple(doc.header["$LIMMIN"]) == (0.0, 0.0) and tuple(doc.header["$LIMMAX"]) == (210.0, 297.0)


def test_a_draft_file_line_naming_a_deleted_draft_stops_no_rulebook_too(tmp_path, capsys):
    """data-format.md: a ``draft_file:`` naming a file that is not there stops the build even with
    --no-rulebook (the typo guard), naming the line; without the line, --no-rulebook builds."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 2))
    game = ws / "data" / "test" / "game.yaml"
    plain = game.read_text(encoding="utf-8")
    game.write_text(plain + "draft_file: draft.txt\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pnpgen: error: data/test/game.yaml:") and "draft_file: 'draft.txt'" in err[0]
    game.write_text(plain, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 0


LINT_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.frame("#ffffff", "#000000", width=0.05) }}
{{ textbox(piece.name, 10, 45, w - 20, 5, size=7, min_size=7, align="center") }}
{% endblock %}
"""


def test_the_lint_names_built_in_macros_and_layouts_as_the_docs_say(tmp_path, capsys):
    """data-format.md: a tag in a built-in macro is named ``pnpgen's common/macros.svg.j2:N``, a
    deck drawn by a built-in layout at the deck file's line that sets the box's field, ``(field
    flavour, box flavour of the front of the built-in layout card-poker)`` (not a templates/ file
    that is not there, nor a line of the template the layout compiles to); a 7 pt text is not smaller than ``min_text: 7pt``."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 2), front=LINT_FRONT)
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "lint: {min_text: 7pt}\n", encoding="utf-8")
    (ws / "data" / "test" / "decks" / "spells.yaml").write_text(
        "name: 呪文\nlayout: card-poker\npieces:\n  - {title: 火球, flavour: 燃えよ。}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    lines = [line.strip().removeprefix("warning: ") for line in capsys.readouterr().out.splitlines() if "print lint" in line]
    assert lines == ["pnpgen's common/macros.svg.j2:10: print lint: deck 'cards' piece 1 (札1) and 1 more: stroke 0.14 pt, "
                     "thinner than 0.25 pt (a printer may drop it)"]
    game.write_text(game.read_text(encoding="utf-8").replace("min_text: 7pt", "min_text: 8pt"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    lines = [line.strip().removeprefix("warning: ") for line in capsys.readouterr().out.splitlines() if "print lint" in line]
    assert "templates/test/card-front.svg.j2:5: print lint: deck 'cards' piece 1 (札1) and 1 more: text 「札1」 7.0 pt, " \
           "smaller than 8 pt" in lines
    # the deck file's line that sets the box's field, not a line of a template the designer never sees
    assert "data/test/decks/spells.yaml:4:26 (field flavour, box flavour of the front of the built-in layout " \
           "card-poker): print lint: deck 'spells' piece 1 (火球): text 「燃えよ。」 7.5 pt, smaller than 8 pt" in lines, lines
    assert not any(line.startswith("templates/") and "card-front" not in line for line in lines), lines
    (ws / "layouts").mkdir()  # the workspace's own layout: not called built-in
    (ws / "layouts" / "spell-card.yaml").write_text("extends: card-poker\n", encoding="utf-8")
    spells = ws / "data" / "test" / "decks" / "spells.yaml"
    spells.write_text(spells.read_text(encoding="utf-8").replace("layout: card-poker", "layout: spell-card"),
                      encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    lines = [line.strip().removeprefix("warning: ") for line in capsys.readouterr().out.splitlines() if "print lint" in line]
    # the flavour box is card-poker's, not written in spell-card.yaml: the compiled template's line
    assert any(line.startswith("the layout of deck 'spells' (front, box flavour, from layouts/spell-card.yaml; line ")
               and "of the template it compiles to" in line and "「燃えよ。」 7.5 pt" in line for line in lines), lines
    # a euro trial: the deck's own layout (layout: {extends: …} in the deck file) was called built-in
    spells.write_text(spells.read_text(encoding="utf-8").replace("layout: spell-card", "layout: {extends: card-poker}"),
                      encoding="utf-8")
    (ws / "data" / "test" / "decks" / "markers.yaml").write_text(
        "name: M\nlayout: {extends: token-round, size: 12, boxes: {title: null, value: {x: 1, y: 1, w: 10, h: 10, "
        "size: 10}}, back: {background: accent, boxes: {value: {field: value, x: 1, y: 1, w: 10, h: 10, size: 10}}}}\n"
        "pieces:\n  - {value: R}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    lines = [line.strip().removeprefix("warning: ") for line in capsys.readouterr().out.splitlines() if "print lint" in line]
    assert any(line.startswith("the layout of deck 'spells' (front, box flavour, from data/test/decks/spells.yaml; line ")
               and "「燃えよ。」 7.5 pt" in line for line in lines), lines
    # a box the deck file writes is named at its line there (its compiled template's line 14 sent
    # a designer to the deck file's line 14, a piece)
    assert any(line.startswith("the layout of deck 'markers' (back, box value, from data/test/decks/markers.yaml:2): ")
               and "safe zone" in line for line in lines), lines
    spells.write_text("name: 呪文\nlayout:\n  extends: card-poker\n  boxes:\n    flavour: {size: 7.5}\n"
                      "pieces:\n  - {title: 火球, flavour: 燃えよ。}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    lines = [line.strip().removeprefix("warning: ") for line in capsys.readouterr().out.splitlines() if "print lint" in line]
    assert any(line.startswith("the layout of deck 'spells' (front, box flavour, from data/test/decks/spells.yaml:5): ")
               for line in lines), lines



def test_calibrate_names_its_file_relative_to_the_workspace(tmp_path, capsys):
    """home-printing.md: ``pnpgen calibrate`` writes build/calibration-<paper>-<duplex>.pdf in the
    workspace; it says so by the workspace-relative path, as every path pnpgen prints."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 1))
    capsys.readouterr()
    assert run(ws / "data", "calibrate", "--paper", "letter", "--duplex", "short") == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("calibration sheet: build/calibration-letter-short.pdf ")
    assert (ws / "build" / "calibration-letter-short.pdf").is_file()


def test_the_print_and_play_pdf_to_sell_is_built_as_the_docs_say(tmp_path):
    """home-printing.md's commands for a print-and-play PDF to sell, run as written: one folder per
    paper, its sheets on that paper, and a rulebook without the appendix whose proofing notes
    (counts the data disagrees with, open values) are the designer's, never a buyer's; the files
    it says to upload are there."""
    section = HOME[HOME.index("## A print-and-play PDF to sell"):].split("\n## ")[0]  # not the contest entry's
    commands = [line.split()[1:] for line in _block(section, "pnpgen check").splitlines()]
    ws = make_workspace(tmp_path / "ws", draft=True)
    for args in commands:
        jobs = ["--jobs", "1"] if args[0] == "build" else []
        assert run(ws, *[a.replace("mygame", "test") for a in args], *jobs) == 0, args
    for folder, width in (("sale-a4", 210.0), ("sale-letter", 215.9)):
        made = ws / folder / "test"
        for name in ("test-all.pdf", "rulebook.pdf", "rulebook-booklet.pdf"):
            assert f"`{name.replace('test', 'mygame')}`" in section and (made / name).is_file(), name
        assert round(float(reader(made / "test-all.pdf").pages[0].mediabox.width) * 25.4 / 72, 1) == width
        book = "".join(texts(made / "rulebook.pdf"))
        assert "付録" not in book and "校正" not in book and "プレイテスト用" not in book, folder
    assert run(ws, "build", "--game", "test", "--out", "full", "--jobs", "1") == 0  # without --rules-only: the appendix
    full = "".join(texts(ws / "full" / "test" / "rulebook.pdf"))
    assert "付録" in full and "プレイテスト用" in full  # the cover says a playtest book is one


def _faces_in_their_squares(ws) -> None:
    """The first die's six values, each in its 16 mm square of the d6 net (opposite faces adding
    up to 7: 1 on top, 6 under it, 2 and 5 left and right, 3 and 4 front and back)."""
    first = glyphs(ws / "build" / "test" / "shop" / "cards-unique.pdf")[0]
    squares = {"1": (16, 0), "2": (0, 16), "3": (16, 16), "5": (32, 16), "4": (48, 16), "6": (16, 32)}
    assert sorted(g.char for g in first if g.char.strip()) == sorted(squares)
    for g in (g for g in first if g.char.strip()):
        x, y = squares[g.char]
        assert x + 3 < g.x - 3 < x + 13 and y + 8 < g.y - 3 < y + 14, g  # its square, the bleed at 3 mm


def test_the_paper_die_of_data_format_builds_as_written(tmp_path, capsys):
    """data-format.md's paper d6 of a layout of its own (layouts/mydie.yaml, a polygon), copied as
    written: each face's value prints in the middle of its 16 mm square of the net, the folds are
    dashed lines, and nothing is told about it (no print lint, no error)."""
    ws = make_workspace(tmp_path / "ws", deck=_block(FORMAT, "# data/<slug>/decks/mydice.yaml"))
    (ws / "layouts").mkdir()
    (ws / "layouts" / "mydie.yaml").write_text(_block(FORMAT, "# layouts/mydie.yaml"), encoding="utf-8")
    (ws / "templates" / "test" / "icons").mkdir()
    for name in ("sword", "shield"):
        (ws / "templates" / "test" / "icons" / f"{name}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>')
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert capsys.readouterr().err == ""
    _faces_in_their_squares(ws)
    die = reader(ws / "build" / "test" / "shop" / "cards-die.pdf")
    assert len(die.pages) >= 1  # its outline, in the die-line file for a shop


def test_the_three_line_die_of_data_format_builds_as_written(tmp_path, capsys):
    """data-format.md's start of a paper die from the built-in d6, three lines copied as written:
    it builds quietly, each face's value in its 16 mm square of the net, cut along the net."""
    block = _block(FORMAT, "# data/<slug>/decks/dice.yaml")
    assert len(block.splitlines()) == 4  # the file's name, then the three lines
    ws = make_workspace(tmp_path / "ws", deck=block)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert capsys.readouterr().err == ""
    _faces_in_their_squares(ws)
    assert len(reader(ws / "build" / "test" / "shop" / "cards-die.pdf").pages) == 1


def test_the_roll_and_write_sheet_of_data_format_builds_as_written(tmp_path, capsys):
    """data-format.md's score sheet (grid and tick boxes from the board layout), copied as written:
    an A5 sheet, one a page, twenty pages, quietly."""
    ws = make_workspace(tmp_path / "ws", deck=_block(FORMAT, "# data/<slug>/decks/log.yaml"))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert capsys.readouterr().err == ""
    shop = reader(ws / "build" / "test" / "shop" / "cards.pdf")
    assert len(shop.pages) == 20
    box = shop.pages[0].trimbox
    assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (148, 210)


def test_the_card_boxes_table_is_the_card_layout():
    """data-format.md's table of the card boxes gives each box where card-poker draws it (63×88):
    its x, y, w × h, the frame's inset and radius, and the sizes in points."""
    raw = layouts.resolve(None, "card-poker", Located(Path("test"), None), ())
    g = layouts.geometry(raw)
    front = {b.name: dict(b.options) for b in layoutsides.finish(raw, trim_of(g), g.shape).front.boxes}
    table = FORMAT[FORMAT.index("| box | field | where | style |", FORMAT.index("The card boxes (63×88")):]
    table = table[:table.index("\n\n")]
    w, h = 63.0, 88.0
    mm = r"(`[^`]+`|[0-9.]+)"
    rows = 0
    for name, where, style in re.findall(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \| ([^|]+) \|$", table, re.M):
        box = front[name]
        full = re.match(rf"{mm}, {mm}, {mm} × {mm}", where)
        if full:
            x, y, bw, bh = (boxlengths.length(-100, 2000)(v.strip("`"), (w, h)) for v in full.groups())
            assert (box["x"], box["y"], box["w"], box["h"]) == pytest.approx((x, y, bw, bh)), name
            rows += 1
        line = re.match(r"a line ([0-9.]+) mm inside the trim.*, radius ([0-9.]+)", where)
        if line:
            assert (box["inset"], box["radius"]) == pytest.approx(tuple(map(float, line.groups()))), name
            rows += 1
        size = re.search(r"([0-9.]+) pt(?: \(min ([0-9.]+)\))?", style)
        if size:
            assert box["size"] == pytest.approx(float(size.group(1))), name
            assert size.group(2) is None or box["min_size"] == pytest.approx(float(size.group(2))), name
    assert rows == 8  # frame, band, title, cost, value, art, icons, text


def test_the_full_bleed_picture_size_the_docs_give_is_enough(tmp_path, capsys):
    """data-format.md's pixels for a full-bleed poker card at 300 dpi are enough (815×1110 px, each
    side to the nearest pixel, was warned at 299.9 dpi); a pixel fewer is warned, and the manifest
    records the dpi the warning says (not 300)."""
    w, h = map(int, re.search(r"full-bleed picture \(69×94 mm\) needs (\d+)×(\d+) px", FORMAT).groups())
    deck = (DECK_YAML.replace("  text: text\n", "  text: text\n  art: image\n")
            + "  - {name: 足りる, art: enough.png}\n  - {name: 足りない, art: short.png}\n")
    front = FRONT.replace("{% block art %}", "{% block art %}{{ image(piece.art, -bleed, -bleed, w + 2 * bleed, h + 2 * bleed) }}")
    root = make_workspace(tmp_path / "ws", deck=deck, front=front)
    (root / "data" / "test" / "art").mkdir()
    for name, size in (("enough", (w, h)), ("short", (w, h - 1))):
        Image.new("RGB", size, (90, 60, 30)).save(root / "data" / "test" / "art" / f"{name}.png")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert (w, h) == (815, 1110)  # as the poker format's pixels: [815, 1110]
    assert "enough.png" not in err and "art/short.png: 299.6 dpi at 69×94 mm, 300 wanted" in err, err
    images = {im["file"]: im for im in json.loads((root / "build" / "test" / "manifest.json").read_text())["images"]}
    assert (images["art/enough.png"]["dpi"], images["art/enough.png"]["enough"]) == (300, True)
    assert (images["art/short.png"]["dpi"], images["art/short.png"]["enough"]) == (299.6, False)


def test_a_preset_of_formats_alone_takes_the_defaults_the_docs_give(tmp_path):
    """docs/exports.md's preset example gives each key's default in its comment (backs: each,
    quantity: csv, marks: none … were told nowhere); a preset of formats: alone loads with them."""
    text = (REPO / "docs" / "exports.md").read_text(encoding="utf-8")
    block = re.search(r"^```yaml\n(name: My print shop.*?)^```", text, re.S | re.M).group(1)
    told = {m.group(1): m.group(2) for m in re.finditer(r"^(\w+): .*#.*\bdefault:? ([^;), ]+)", block, re.M)}
    ws = make_workspace(tmp_path / "ws")
    (ws / "presets").mkdir()
    (ws / "presets" / "mine.yaml").write_text("formats:\n  poker: {trim: [63mm, 88mm], bleed: 3mm}\n")
    preset = load_preset(Workspace(ws), "test", "mine")
    loaded = {
        "dpi": preset.dpi, "colour": preset.colour, "ink_limit": preset.ink_limit, "files": preset.files,
        "quantity": preset.quantity, "backs": preset.backs, "page_order": preset.page_order, "marks": preset.marks,
        "page_multiple": preset.page_multiple, "pdfx": preset.pdfx, "outline_text": preset.outline_text,
        "cut_line": preset.cut_line, "overprint_black": preset.overprint_black, "min_line": preset.min_line_mm,
        "min_mixed_line": preset.min_mixed_line_mm, "min_mixed_text": preset.min_mixed_text_pt,
        "mixed_inks": preset.mixed_inks, "black_text_max": preset.black.text_pt,
        "grey_text_k": preset.black.grey_k, "black_hue": preset.black.hue,
    }
    words = {"none": None, "true": True, "false": False}
    for key, value in loaded.items():
        assert key in told, f"docs/exports.md: the preset's {key}: gives no default"
        said = told[key]
        expected = words.get(said, said) if said in words and key not in ("marks", "pdfx") else said
        if isinstance(value, bool) or value is None or isinstance(value, str):
            assert value == expected, (key, said, value)
        else:
            number = float(re.match(r"[0-9.]+", said).group())
            assert value in (pytest.approx(number), pytest.approx(number / 100)), (key, said, value)


def test_the_sheet_layout_listing_gives_each_keys_default():
    """docs/data-format.md's sheets/my-stock.yaml says each key's default (a grid's left, top,
    cols, rows, gap, rotation and the paper's were nowhere, width and height never said required)."""
    text = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    block = re.search(r"^```yaml\n(# sheets/my-stock\.yaml.*?)^```", text, re.S | re.M).group(1)
    top, _, grid = block.partition("\ngrid:")
    parts = ((top, {k: sheetlayouts.OPTIONS[k] for k in ("paper", "marks", "tolerance")}),
             (grid.partition("# slots:")[0], sheetlayouts.GRID_OPTIONS))
    for part, options in parts:
        comments = dict(re.findall(r"^\s*(\w+): [^#\n]*#(.*)$", part, re.M))
        for key, opt in options.items():
            comment = comments[key]
            if opt.default is None:
                assert "(required)" in comment, (key, comment)
                continue
            said = re.search(r"default (\w[\w.]*)", comment)
            assert said, (key, comment)
            default = opt.default[0] if isinstance(opt.default, tuple) else opt.default
            shown = f"{default:g}" if isinstance(default, float) else str(default).lower()
            assert said.group(1) == shown, (key, said.group(1), opt.default)


@pytest.mark.parametrize("page, first", [("exports.md", "name: My print shop  "), ("data-format.md", "name: My print shop\n")])
def test_the_docs_preset_listings_load_as_written(tmp_path, page, first):
    """docs/exports.md's preset, every key at its default, copied whole into presets/ loads: its
    page_multiple: 1 (the default, no page added) was refused on a preset of PNGs."""
    block = _block((REPO / "docs" / page).read_text(encoding="utf-8"), first)
    ws = make_workspace(tmp_path / "ws")
    (ws / "presets").mkdir()
    (ws / "presets" / "mine.yaml").write_text(block, encoding="utf-8")
    preset = load_preset(Workspace(ws), "test", "mine")
    assert (preset.name, preset.files, preset.page_multiple, preset.dpi) == ("My print shop", "png-faces", 1, 300)
    assert [(f.name, f.trim) for f in preset.formats] == [("poker", pytest.approx((63.5, 88.9)))]


@pytest.mark.parametrize("size, paper, quote", [
    ("[200, 260]", "letter", "(tiled only for the printer's margin: whole on one sheet with --margin 3.5mm"),
    ("[210, 297]", "a4", "(tiled, as the sheet's printable area is smaller than the board: size: [193, 274] prints"),
    ("[400, 400]", "a4", "(4 page tiles (2×2) hold a board of up to 360×360 mm, the same proportions)"),
    ("[400, 270]", "a4", "(2 page tiles (2×1) hold a board of up to 360×243 mm, the same proportions)"),
    ("[350, 248]", "a4", "(size: [247, 175] prints whole on one sheet, the largest board of the same proportions one"),
])
def test_the_tiled_board_lines_data_format_quotes_are_what_the_build_says(tmp_path, capsys, size, paper, quote):
    """data-format.md's lines under a tiled board's deck line, each as the build prints it, whole
    (the 200 × 260 mm board's line went on with the size that prints whole, which the docs cut off)."""
    said = " ".join(FORMAT.split())
    start = said.index(quote)
    told = said[start:said.index(")`", start) + 1]
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "decks" / "board.yaml").write_text(
        f"name: B\nkind: board\nsize: {size}\nlayout: board\npieces:\n  - {{title: B, text: t}}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--paper", paper) == 0
    assert told in " ".join(capsys.readouterr().out.split())


def test_an_rgb_png_goes_in_as_its_own_pixels_and_a_grey_one_is_made_rgb_as_the_docs_say(tmp_path):
    """README (now docs/rebuilding.md) and data-format.md said a grey PNG went in as its own compressed pixels too: it is
    converted to an RGB one (a grey JPEG is what goes in as it is)."""
    import pikepdf

    from conftest import PICTURE_DECK_YAML, PICTURE_FRONT

    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 灰, art: grey.png}\n"
                        "  - {name: 色, art: colour.png}\n  - {name: 写, art: grey.jpg}\n", front=PICTURE_FRONT)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    grey = Image.linear_gradient("L").resize((600, 400))
    grey.save(art / "grey.png")
    grey.transpose(Image.Transpose.ROTATE_180).convert("RGB").save(art / "colour.png")
    grey.save(art / "grey.jpg")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    with pikepdf.open(ws / "build" / "test" / "shop" / "cards-unique.pdf") as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        kinds = sorted((str(o.ColorSpace), ",".join(str(f) for f in o.Filter), "/DecodeParms" in o) for o in images)
    assert kinds == [("/DeviceGray", "/DCTDecode", False), ("/DeviceRGB", "/FlateDecode", True),
                     ("/DeviceRGB", "/FlateDecode", True)], kinds
    said = " ".join(" ".join(page.read_text(encoding="utf-8").split())
                    for page in [REPO / "README.md", *(REPO / "docs").glob("*.md")])
    assert "its own compressed pixels" in said  # the claim is still made somewhere: docs/rebuilding.md
    assert "RGB or greyscale PNG" not in said and "RGB or grey PNG" not in said


def test_the_two_sided_counter_of_data_format_prints_its_reduced_values_on_its_back(tmp_path, capsys):
    """A wargame designer's question: a counter whose back shows its reduced values, read from the
    spreadsheet's columns. data-format.md's deck and CSV, copied as written, build quietly; each
    counter's back prints its `reduced` column (and `move`) where its front prints `value`, behind
    its own front on the home sheet."""
    ws = make_workspace(tmp_path / "ws", deck=_block(FORMAT, "# data/<slug>/decks/units.yaml"))
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "units.yaml")
    (decks / "units.csv").write_text(_block(FORMAT, "title,value,reduced,move,count"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert capsys.readouterr().err == ""
    shop = reader(ws / "build" / "test" / "shop" / "units.pdf")
    assert len(shop.pages) == 20  # ten counters, front and back
    front, back = (text_positions(shop.pages[i]) for i in (0, 1))
    assert sorted(t for t, *_ in front) == sorted(["第1連隊", "4-4", "4"])
    assert sorted(t for t, *_ in back) == sorted(["第1連隊", "2-2", "4"])
    (x, y), bleed = next((x, y) for t, x, y in back if t == "2-2"), 3
    assert 1.5 <= x - bleed < 9.5 and 10 < y - bleed < 14.5  # in the value box, the counter's lower left
    assert next((x, y) for t, x, y in front if t == "4-4") == (x, y)
    sheet = reader(ws / "build" / "test" / "units.pdf")
    width = float(sheet.pages[0].mediabox.width) * 25.4 / 72
    fronts = sorted((x, y) for t, x, y in text_positions(sheet.pages[0]) if t == "4-4")
    backs = sorted(((x, y) for t, x, y in text_positions(sheet.pages[1]) if t == "2-2"), reverse=True)
    assert len(fronts) == len(backs) == 6
    # mirrored for a long-edge flip: a counter's left edge at a on the front is at width - 16 - a on
    # the back, and each value stands x - bleed into its counter (the shop page's): f + b is one figure
    for f, b in zip(fronts, backs, strict=True):
        assert abs(f[1] - b[1]) < 0.01 and abs(f[0] + b[0] - (width - 16 + 2 * (x - bleed))) < 0.05, (f, b)


def test_a_counters_boxes_written_from_w_and_h_follow_its_new_size(tmp_path):
    """The wargame trial (trial76): ½-inch counters resized to ⅝ inch kept their boxes' millimetres,
    crowded into the top-left corner. data-format.md's note under the two-sided counter says to write
    them from ``w`` and ``h``; its ``move`` box so written stands at the foot's right corner of a
    16 mm counter and of a 20 mm one alike, where the plain millimetres stay put."""
    said = " ".join(FORMAT.split())
    assert 'move: {x: "w - 3.9", y: "h - 3.3", w: 3.2, h: 2.8, …}' in said
    deck = _block(FORMAT, "# data/<slug>/decks/units.yaml")
    plain = "move: {field: move, x: 10, y: 10, w: 4.5, h: 4.5, font: bold, size: 9, align: center, valign: middle}"
    assert deck.count(plain) == 2
    deck = deck.replace(plain, 'move: {field: move, x: "w - 3.9", y: "h - 3.3", w: 3.2, h: 2.8, font: bold, size: 9, '
                        'min_size: 6, align: center, valign: middle}')
    found = {}
    for size in (16, 20):
        ws = make_workspace(tmp_path / f"ws{size}", deck=deck.replace("size: [16, 16]", f"size: [{size}, {size}]"))
        decks = ws / "data" / "test" / "decks"
        (decks / "cards.yaml").rename(decks / "units.yaml")
        (decks / "units.csv").write_text(_block(FORMAT, "title,value,reduced,move,count"), encoding="utf-8")
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
        front = text_positions(reader(ws / "build" / "test" / "shop" / "units.pdf").pages[0])
        found[size] = next((x - 3, y - 3) for t, x, y in front if t == "4")  # the shop page's 3 mm bleed
    assert abs(found[20][0] - found[16][0] - 4) < 0.01 and abs(found[20][1] - found[16][1] - 4) < 0.01, found


def _hex_map(root: Path, s: int = 20, size: str = "[190, 180]") -> Path:
    """data-format.md's hex map, deck and template copied as written (hexes ``s`` mm across and
    the board ``size``, as its last sentence says for a larger map)."""
    ws = make_workspace(root, deck=_block(FORMAT, "# data/<slug>/decks/map.yaml").replace("[190, 180]", size))
    (ws / "data" / "test" / "decks" / "cards.yaml").rename(ws / "data" / "test" / "decks" / "map.yaml")
    template = _block(FORMAT, "{# templates/<slug>/map-front.svg.j2 #}")
    (ws / "templates" / "test" / "map-front.svg.j2").write_text(template.replace("s = 20", f"s = {s}"), encoding="utf-8")
    return ws


def test_the_hex_map_of_data_format_numbers_ten_columns_of_eight_hexes(tmp_path, capsys):
    """A designer's question: a hex map drawn with hex_points(). data-format.md's example, built
    as written, quietly: 80 hexes numbered 0101 to 1008, columns 17.32 mm apart (every other one
    half a hex lower), rows 20 mm apart, the grid centred on the 190 × 180 mm board."""
    ws = _hex_map(tmp_path / "ws")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert capsys.readouterr().err == ""
    shop = reader(ws / "build" / "test" / "shop" / "map.pdf")
    assert len(shop.pages) == 1
    box = shop.pages[0].trimbox
    assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (190, 180)
    labels: dict[str, tuple[float, float]] = {}  # each label's middle and baseline, mm from the trim's corner
    chars: list = []
    for g in [*glyphs(ws / "build" / "test" / "shop" / "map.pdf")[0], None]:
        if chars and (g is None or g.obj != chars[0].obj):
            last = chars[-1].x + (chars[-1].x - chars[-2].x)  # (the last digit's end: a digit's advance on)
            labels["".join(c.char for c in chars)] = ((chars[0].x + last) / 2 - 3, chars[0].y - 3)
            chars = []
        if g is not None and not g.char.isspace():
            chars.append(g)
    assert sorted(labels) == [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 9)]
    step, top = 20 * 3 ** 0.5 / 2, labels["0101"][1]
    assert 15 - 10 < top < 15 - 10 + 4  # under the first hex's top edge (its centre 15 mm down)
    for name, (x, y) in labels.items():
        c, r = int(name[:2]), int(name[2:])
        # columns centred on the board (95 mm), 17.32 mm apart; rows 20 mm, every other column 10 mm lower
        assert abs(x - (95 + (c - 5.5) * step)) < 0.3, (name, x)
        assert abs(y - (top + (r - 1) * 20 + (10 if c % 2 == 0 else 0))) < 0.05, (name, y)
    assert len(reader(ws / "build" / "test" / "map.pdf").pages) == 1  # whole on one A4 sheet


def test_the_larger_hex_map_of_data_format_prints_as_page_tiles(tmp_path):
    ws = _hex_map(tmp_path / "ws", s=30, size="[280, 265]")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    shop = reader(ws / "build" / "test" / "shop" / "map.pdf")
    assert sorted(t for t, *_ in text_positions(shop.pages[0]))[::79] == ["0101", "1008"]
    assert len(reader(ws / "build" / "test" / "map.pdf").pages) > 1


def test_home_printing_contest_rules_cards_layout_builds_as_written(tmp_path, capsys):
    """home-printing.md's contest entry: rules the size of a card, a deck of the layout it gives
    (card-poker's text box made tall): built, the rules read on the cards, nothing overflows."""
    section = HOME[HOME.index("## A contest entry's file package"):]
    layout = re.search(r"`(layout: \{extends: card-poker,.*?\}\}\})`", " ".join(section.split())).group(1)
    deck = (f"name: Rules\n{layout}\npieces:\n"
            "  - {title: Rules 1/2, text: \"**Setup.** Shuffle the cards; deal 3 to each player.\\n\\n"
            "**Turn.** Draw a card, then play one and do what it says.\\n\\n"
            "**End.** When the deck runs out, the most points wins.\"}\n"
            "  - {title: Rules 2/2, text: Score your cards at the end.}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr()
    assert "overflow" not in said.out + said.err and "below the minimum" not in said.out + said.err, said
    front = re.sub(r"\s+", " ", texts(ws / "build" / "test" / "cards.pdf")[0])
    assert "Rules 1/2" in front and "most points wins." in front and "Score your cards" in front, front
