"""Counters for a 同人 printer (--preset doujin-pieces): a deck of ½-inch tokens went one counter a
page; a shop that prints counters wants them ganged on a counter sheet. Every copy is on A4 sheets
with the preset's 3 mm 塗り足し round each counter and round the sheet, twice the bleed between two
counters (their bleeds meet, never overlap), トンボ round the sheet, each counter's cut path in the
die file, the back sheet the front mirrored left to right."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pikepdf
from preflight import problems
from pypdf import PdfReader
from test_pieces_preset import _box, _cut_paths, _strokes

from conftest import DECK_YAML, REPO, make_workspace, run

COUNTERS = ("name: カウンター\nkind: token\nshape: rect\nsize: [0.5in, 0.5in]\nfront: card-front.svg.j2\n"
            "back: card-back.svg.j2\nfields: {name: text, text: text}\n"
            "pieces:\n  - {name: 歩, count: 150}\n  - {name: 騎, count: 60}\n")
DISCS = ("name: 円\nkind: token\nshape: circle\nsize: 16\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n"
         "pieces:\n  - {name: 丸, count: 24}\n")
SIDE = 12.7  # ½ inch


def _export(tmp_path: Path, preset: str = "doujin-pieces", *decks: str) -> Path:
    """The cards, counters and discs exported (only ``decks``, if named)."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 魚, text: 売る}\n")
    for name, text in (("counters", COUNTERS), ("discs", DISCS)):
        (root / "data" / "test" / "decks" / f"{name}.yaml").write_text(text, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", preset, *(f"--deck={d}" for d in decks)) == 0
    return root / "build" / "test" / preset


def _corners(paths: list) -> list[tuple[float, float, float, float]]:
    """Each path's box (x0, y0, x1, y1), in mm from the page's bottom-left."""
    return [(min(p[0] for p in ps), min(p[1] for p in ps), max(p[0] for p in ps), max(p[1] for p in ps))
            for ps in paths]


def test_half_inch_counters_are_ganged_on_a4_counter_sheets(tmp_path):
    out = _export(tmp_path)
    with pikepdf.open(out / "counters.pdf") as doc, pikepdf.open(out / "counters-die.pdf") as die:
        assert len(doc.pages) == 4 == len(die.pages)  # 210 counters, 150 a sheet: 2 sheets, front and back
        for page in [*doc.pages, *die.pages]:
            tx0, ty0, tx1, ty1 = _box(page, "/TrimBox")
            bx0, by0, bx1, by1 = _box(page, "/BleedBox")
            assert abs(tx1 - tx0 - 210) < 0.02 and abs(ty1 - ty0 - 297) < 0.02  # the sheet is the trim
            assert all(abs(d - 3) < 0.02 for d in (tx0 - bx0, ty0 - by0, bx1 - tx1, by1 - ty1))
            assert _strokes(page, "/All")  # トンボ round the sheet
        assert _cut_paths(doc) == [[]] * 4  # the print pages hold no cut line
        boxes = [_corners(paths) for paths in _cut_paths(die)]
        assert [len(b) for b in boxes] == [150, 150, 60, 60]
        tx0, ty0, tx1, ty1 = _box(die.pages[0], "/TrimBox")
        for page in boxes:
            assert all(abs(x1 - x0 - SIDE) < 0.02 and abs(y1 - y0 - SIDE) < 0.02 for x0, y0, x1, y1 in page)
            # the outermost counter's 3 mm bleed stays 3 mm (the safe zone) inside the sheet's trim
            assert min(b[0] for b in page) >= tx0 + 6 - 0.02 and max(b[2] for b in page) <= tx1 - 6 + 0.02
            assert min(b[1] for b in page) >= ty0 + 6 - 0.02 and max(b[3] for b in page) <= ty1 - 6 + 0.02
        xs = sorted({round(b[0], 2) for b in boxes[0]})
        ys = sorted({round(b[1], 2) for b in boxes[0]})
        assert (len(xs), len(ys)) == (10, 15)
        assert all(abs(b - a - (SIDE + 6)) < 0.02 for a, b in zip(xs, xs[1:]))  # 6 mm: twice the 3 mm bleed
        assert all(abs(b - a - (SIDE + 6)) < 0.02 for a, b in zip(ys, ys[1:]))
        # the half-full last sheet keeps the full sheet's die: its 60 stand in the top six rows' places
        def top_down(page):
            return sorted((round(-b[1], 2), round(b[0], 2)) for b in page)
        assert top_down(boxes[2]) == top_down(boxes[0])[:60]
        # the back sheet is the front mirrored left to right about the sheet's middle
        mid = (tx0 + tx1) / 2
        assert sorted((round(2 * mid - x1, 2), round(y0, 2)) for x0, y0, x1, _ in boxes[2]) == \
            sorted((round(x0, 2), round(y0, 2)) for x0, y0, _, _ in boxes[3])
    assert list(PdfReader(out / "counters-die.pdf").page_labels) == [  # in the game's language (polish47a)
        f"カットライン・シート{n}（{side}）" for n in (1, 2) for side in "表裏"]
    # and the sheets' own pages (`sheet 1 (front)` in a Japanese game: left48)
    assert list(PdfReader(out / "counters.pdf").page_labels) == [f"シート{n}（{side}）" for n in (1, 2) for side in "表裏"]
    for name in ("counters.pdf", "counters-die.pdf", "discs.pdf", "discs-die.pdf"):
        assert problems((out / name).read_bytes()) == [], name
    rows = {r["name"]: r for r in csv.DictReader((out / "order.csv").open(encoding="utf-8-sig", newline=""))}
    assert (rows["歩"]["pages"], rows["歩"]["back"], rows["歩"]["quantity"]) == ("1", "2", "150")
    assert (rows["騎"]["pages"], rows["騎"]["back"], rows["騎"]["die"]) == ("3", "4", "counters-die.pdf")
    assert "counter sheets" in rows["騎"]["note"] and rows["魚"]["note"] == ""
    with pikepdf.open(out / "discs-die.pdf") as die:  # round ones too, one sheet, a disc's path each
        [paths] = _cut_paths(die)
        assert len(paths) == 24 and all(abs(x1 - x0 - 16) < 0.05 for x0, _, x1, _ in _corners(paths))
    with pikepdf.open(out / "cards.pdf") as doc:  # a card is still a page of its own
        tx0, ty0, tx1, ty1 = _box(doc.pages[0], "/TrimBox")
        assert abs(tx1 - tx0 - 63) < 0.02


def test_counters_whose_art_stops_at_the_trim_are_still_warned(tmp_path):
    """The bleed is read as a shop reads it, each counter's face alone (not the sheet, where a
    neighbour's bleed would hide a bare edge)."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<path d="{{ outline(0) }}" fill="#2060c0"/>\n{% endblock %}\n')
    deck = DISCS.replace("front: card-front.svg.j2", "front: bare.svg.j2")
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "templates" / "test" / "bare.svg.j2").write_text(front, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces") == 0
    found = json.loads((root / "build" / "test" / "doujin-pieces" / "export.json").read_text(encoding="utf-8"))
    [line] = [w for w in found["warnings"] if "bare paper" in w]
    assert line.startswith("data/test/decks/cards.yaml:5:8: cards.pdf ('丸' of deck 'cards', front): the art stops at the trim "
                           "round the cut line"), line


def test_a_proof_outlines_every_counter_on_the_sheet(tmp_path):
    """--proof draws each counter's trim, bleed edge and safe zone, as it does on a page a piece."""
    def strokes(out: Path) -> int:
        with pikepdf.open(out / "discs.pdf") as doc:
            return sum(1 for _, op in pikepdf.parse_content_stream(doc.pages[0]) if str(op) in ("S", "s"))

    plain = _export(tmp_path / "a", "doujin-pieces", "discs")
    root = tmp_path / "a" / "ws"
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces", "--deck", "discs", "--proof",
               "--out", str(tmp_path / "p")) == 0
    assert strokes(tmp_path / "p" / "test" / "doujin-pieces") - strokes(plain) == 3 * 24


def test_a_preset_names_its_own_counter_sheet(tmp_path):
    """counter_sheet: [257mm, 364mm] (B4): the sheet is the trim, 13 × 19 counters on it."""
    shipped = (REPO / "generator" / "pnpgen" / "exports" / "presets" / "doujin-pieces.yaml").read_text(encoding="utf-8")
    (tmp_path / "ws" / "presets").mkdir(parents=True)
    (tmp_path / "ws" / "presets" / "b4-pieces.yaml").write_text(shipped + "counter_sheet: [257mm, 364mm]\n", encoding="utf-8")
    out = _export(tmp_path, "b4-pieces", "counters")
    with pikepdf.open(out / "counters.pdf") as doc, pikepdf.open(out / "counters-die.pdf") as die:
        assert len(doc.pages) == 2  # 210 counters, 247 a sheet: one sheet, front and back
        tx0, ty0, tx1, ty1 = _box(doc.pages[0], "/TrimBox")
        assert abs(tx1 - tx0 - 257) < 0.02 and abs(ty1 - ty0 - 364) < 0.02
        boxes = _corners(_cut_paths(die)[0])
        assert (len({round(b[0], 2) for b in boxes}), len({round(b[1], 2) for b in boxes})) == (13, 17)


def test_a_counter_sheet_that_is_no_size_is_said_at_its_line(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws")
    (root / "presets").mkdir()
    (root / "presets" / "bad.yaml").write_text("name: bad\nfiles: pdf-faces\ncounter_sheet: [257mm]\n"
                                               "formats:\n  any: {trim: any, bleed: 3mm}\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "bad") == 2
    err = capsys.readouterr().err
    assert "bad.yaml:3" in err and "counter_sheet" in err and "[257mm, 364mm]" in err and "Traceback" not in err


TEMPLATE_DIE = ("name: 資源ダイス\nkind: token\nshape: polygon\nsize: [64, 48]\nfront: card-front.svg.j2\n"
                "points: [[16, 0], [32, 0], [32, 16], [64, 16], [64, 32], [32, 32], [32, 48], [16, 48], [16, 32], "
                "[0, 32], [0, 16], [16, 16]]\n"
                "die: [[16, 0, 16, 16], [0, 16, 16, 16], [16, 16, 16, 16], [48, 16, 16, 16], [32, 16, 16, 16], "
                "[16, 32, 16, 16]]\nfields: {name: text, text: text}\npieces:\n  - {name: 木, count: 3}\n")


def test_a_paper_die_drawn_by_templates_is_no_counter(tmp_path):
    """A paper d6 drawn by templates (its deck file's ``die:``) of more than one copy was ganged on
    an A4 counter sheet, as if it were a counter, while the same die from a layout's ``die:`` printed
    a page a face with its net's cut path: a die is a net to fold, never a counter (exports.md).
    Both are one page a face now, the die's own size, every copy in order.csv's quantity."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 魚, text: 売る}\n")
    (root / "data" / "test" / "decks" / "dice.yaml").write_text(TEMPLATE_DIE, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces") == 0
    out = root / "build" / "test" / "doujin-pieces"
    with pikepdf.open(out / "dice.pdf") as doc:
        assert len(doc.pages) == 1
        tx0, ty0, tx1, ty1 = _box(doc.pages[0], "/TrimBox")
        assert abs(tx1 - tx0 - 64) < 0.02 and abs(ty1 - ty0 - 48) < 0.02  # the net, not an A4 counter sheet
    with (out / "order.csv").open(encoding="utf-8-sig") as f:
        rows = [r for r in csv.DictReader(f) if r["deck"] == "dice"]
    assert [(r["quantity"], r["note"], r["die"]) for r in rows] == [("3", "", "dice-die.pdf")]


def test_a_warning_about_a_counter_sheet_names_three_of_its_faces_and_counts_the_rest(tmp_path):
    """A wargame trial: a sheet of 140 counters of 64 unit types, their names in white 5 pt text on a
    ground of three inks, was warned of in a line of 1,268 characters naming all 64 faces. The
    sheet's first three faces are named, the others counted."""
    deck = ("name: 部隊\nkind: token\nshape: rect\nsize: [0.5in, 0.5in]\nfront: unit.svg.j2\n"
            "fields: {name: text}\npieces:\n" + "".join(f"  - {{name: 隊{i}}}\n" for i in range(1, 9)))
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<rect x="-3" y="-3" width="{{ w + 6 }}" height="{{ h + 6 }}" fill="#2f5d8a"/>\n'
             '{{ textbox(piece.name, 1, 1, w - 2, 4, size=5, min_size=5, fill="#fbf8f1") }}\n{% endblock %}\n')
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "templates" / "test" / "unit.svg.j2").write_text(front, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces") == 0
    found = json.loads((root / "build" / "test" / "doujin-pieces" / "export.json").read_text(encoding="utf-8"))
    [line] = [w for w in found["warnings"] if "knocked out" in w]
    assert "(sheet 1 front of deck 'cards': '隊1', '隊2', '隊3' and 5 more faces, template unit.svg.j2)" in line, line


def test_page_labels_of_a_language_pnpgen_has_no_words_for_are_english():
    """docs/data-format.md: a German edition's page labels and titles pnpgen writes are English
    (a counter sheet's, a face's back page, the cut line's), its Japanese ones Japanese."""
    from pnpgen.impose.sheets import cut_line_label, face_label
    from pnpgen.messages import msg

    said = {lang: (msg("sheet.page", lang, sheet=1, side=msg("sheet.front", lang)), face_label("歩 ×150", "back", lang),
                   cut_line_label("back", lang, 2), msg("doc.shop_unique", lang, title="T"))
            for lang in ("ja", "en", "de")}
    assert said["de"] == said["en"] == ("sheet 1 (front)", "歩 ×150 (back)", "cut line, sheet 2 (back)",
                                        "T (print shop, each face once)")
    assert said["ja"] == ("シート1（表）", "歩 ×150（裏）", "カットライン・シート2（裏）", "T（入稿用・各面1回）")
