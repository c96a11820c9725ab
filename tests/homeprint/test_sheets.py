"""Sheet layouts as data (issue 25, item 6): ``--sheet NAME`` (or ``sheet:`` in a deck file or
game.yaml) puts the pieces into a stock's slots, page after page; read back from the PDF in mm:
fronts centred in their slots, backs mirrored for the flip and moved by the printer profile, a
workspace layout extending a built-in one, cut marks on the slots' trim; a piece of another size,
overlapping slots and slots off the paper are one line naming the file:line."""

from __future__ import annotations

import json

import pytest

from conftest import DECK_YAML, REPO, make_workspace, run
from homeprint.test_printer import placements
from pdfprobe import boxes_mm, reader, stroked_lines, texts

W, H = 210.0, 297.0
# A-one マルチカード 名刺 10面: 2 × 5 slots of 91 × 55 mm, 14 mm from the sides, 11 mm from top and bottom
A_ONE = [(14 + 45.5 + c * 91, 11 + 27.5 + r * 55) for r in range(5) for c in range(2)]
MEISHI = DECK_YAML.replace("format: poker", "format: meishi")


def _centres(boxes):
    return [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes]


def _flat(points) -> list[float]:
    """Points sorted, as one flat list (pytest.approx compares flat sequences)."""
    return [v for point in sorted(points) for v in point]


def _sizes(boxes):
    return [(round(x1 - x0, 2), round(y1 - y0, 2)) for x0, y0, x1, y1 in boxes]


def _deck(head: str, n: int) -> str:
    return head + "".join(f"  - {{name: 札{i}, text: 本文{i}}}\n" for i in range(1, n + 1))


def test_a_one_front_and_back_land_in_the_slots(tmp_path):
    """12 portrait meishi cards on the A-one stock: 10 on sheet 1, 2 on sheet 2, each centred in
    its 91×55 slot (turned a quarter); each back at its front's mirror image, moved by the
    printer profile's back offset; fronts where the stock has them."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(MEISHI, 12))
    (ws / "printers.yaml").write_text("steady: {back_offset_mm: [0.3, -0.2]}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "a-one-51002", "--printer", "steady",
               "--out", str(out)) == 0
    pages = placements(out / "test" / "cards.pdf")
    assert [len(p) for p in pages] == [10, 10, 2, 2]
    fronts, backs = _centres(pages[0]), _centres(pages[1])
    assert _flat(fronts) == pytest.approx(_flat(A_ONE), abs=0.002)
    assert len({w for w, h in _sizes(pages[0])}) == 1 and _sizes(pages[0])[0][0] > _sizes(pages[0])[0][1]  # turned
    mirrored = sorted((W - x + 0.3, y - 0.2) for x, y in fronts)
    assert _flat(backs) == pytest.approx(_flat(mirrored), abs=0.002)
    assert _flat(_centres(pages[2])) == pytest.approx(_flat(A_ONE[:2]), abs=0.002)  # slots in order
    assert _flat(_centres(pages[3])) == pytest.approx(_flat((W - x + 0.3, y - 0.2) for x, y in A_ONE[:2]), abs=0.002)
    deck = json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["layout"] == "sheet a-one-51002" and deck["pieces_per_sheet"] == 10 and deck["sheets"] == 2
    assert deck["sheet_layout"]["source"] == "pnpgen:a-one-51002" and deck["sheet_layout"]["marks"] is False
    assert deck["sheet_bleed_mm"] == 0.0  # perforated, no gutter: the art stops at the trim
    page_text = texts(out / "test" / "cards.pdf")
    assert all("a-one-51002" in t for t in page_text)
    pdf = reader(out / "test" / "cards.pdf")
    assert not any(abs(x1 - x2) < 1e-6 and abs(y1 - y2) > 1 and round(x1, 2) in (14.0, 105.0, 196.0)
                   for x1, y1, x2, y2 in stroked_lines(pdf, pdf.pages[0]))  # marks: false
    # the bill of materials lists the stock to buy: its name, the sheets the deck takes, for which deck
    bom = json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]
    assert bom["stock"] == [{"sheet_layout": "a-one-51002", "name": "A-one マルチカード 名刺 10面", "paper": "a4",
                             "sheets": 2, "decks": ["テストカード"]}]
    last = texts(out / "test" / "test-all.pdf")[-1]
    assert "A-one マルチカード 名刺 10面 2 カード用紙（テストカード用）· シートレイアウト a-one-51002" in last  # (not "--sheet": a deck file may choose it)


def test_a_workspace_layout_extends_a_built_in_one(tmp_path, capsys):
    """sheets/landscape.yaml takes the A-one stock, unturned, 1 mm further right, with cut marks:
    91×55 pieces centred in its slots, marks on every trim line; a deck's ``sheet: grid`` keeps
    another deck on the grid; game.yaml names the layout."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML.replace("format: poker", "size: [91, 55]"), 4))
    (ws / "sheets").mkdir()
    (ws / "sheets" / "landscape.yaml").write_text(
        "extends: a-one-51002\nname: landscape\nmarks: true\ngrid:\n  left: 15\n  rotation: 0\n", encoding="utf-8")
    poker = _deck(DECK_YAML, 2).replace("format: poker", "format: poker\nsheet: grid")
    (ws / "data" / "test" / "decks" / "poker.yaml").write_text(poker, encoding="utf-8")
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "sheet: landscape\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    built = ws / "build" / "test"
    pages = placements(built / "cards.pdf")
    want = [(15 + 45.5 + c * 91, 11 + 27.5 + r * 55) for r in range(2) for c in range(2)]
    assert _flat(_centres(pages[0])) == pytest.approx(_flat(want), abs=0.002)
    assert all(w > h for w, h in _sizes(pages[0]))
    pdf = reader(built / "cards.pdf")
    lines = stroked_lines(pdf, pdf.pages[0])
    verticals = {round(x1, 2) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 1e-6}
    horizontals = {round(y1, 2) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 1e-6}
    assert {15.0, 106.0, 197.0} <= verticals and {11.0, 66.0, 121.0} <= horizontals  # the used slots' trim
    assert not any(x1 < 197 and x2 > 15 and y1 > 11 + 1 and y1 < 121 - 1 for x1, y1, x2, y2 in lines
                   if abs(y1 - y2) < 1e-6)  # no mark across a piece
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    decks = {d["id"]: d for d in manifest["decks"]}
    assert decks["cards"]["sheet_layout"]["source"] == "sheets/landscape.yaml"
    assert decks["cards"]["sheet_layout"]["name"] == "landscape"
    assert decks["poker"]["layout"] == "grid"


def test_a_piece_of_another_size_is_one_line(tmp_path, capsys):
    """Poker cards on the 91×55 stock: one line naming the deck file and both sizes; a deck's
    own ``sheet:`` is blamed at its line."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 3))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "a-one-51002") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "cards.yaml" in err and "63×88 mm piece" in err and "91×55 mm" in err and "Traceback" not in err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("format: poker", "format: poker\nsheet: a-one-51002"),
                    encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cards.yaml:3" in err and "91×55 mm" in err, err
    assert not (ws / "build" / "test" / "cards.pdf").exists()


@pytest.mark.parametrize("text, where, says", [
    ("grid: {cols: 2, rows: 1, left: 10, top: 20, width: 63, height: 88, gap: -1}\n", "bad.yaml:1", "gap"),
    ("slots:\n  - {x: 10, y: 20, width: 63, height: 88}\n  - {x: 70, y: 20, width: 63, height: 88}\n",
     "bad.yaml:3", "slot 2 overlaps slot 1"),
    ("slots:\n  - {x: 10, y: 20, width: 63, height: 88}\n  - {x: 150, y: 20, width: 63, height: 88}\n",
     "bad.yaml:3", "off the 210×297 mm paper"),
    ("extends: bad\n", "bad.yaml:1", "extends itself"),
    ("extends: nope\n", "bad.yaml:1", "unknown sheet layout 'nope'"),
    ("paper: b9\nslots: [{x: 0, y: 0, width: 63, height: 88}]\n", "bad.yaml:1", "not a paper"),
    ("slots: [{x: 10, y: 20, width: 63, height: 88, rotation: 45}]\n", "bad.yaml:1", "quarter turn"),
    ("colour: red\n", "bad.yaml:1", "unknown key"),
    # a typo gets the name meant, as every other key and name does (the README's promise)
    ("grid: {colums: 2, rows: 1, left: 10, top: 20, width: 63, height: 88}\n", "bad.yaml:1",
     "unknown key 'colums' in grid; did you mean cols?"),
    ("extend: poker-3x3-a4\n", "bad.yaml:1", "unknown key 'extend'; did you mean extends?"),
    ("slots: [{x: 10, y: 20, widht: 63, height: 88}]\n", "bad.yaml:1", "in a slot; did you mean width?"),
    ("extends: poker-3x3-a5\n", "bad.yaml:1", "unknown sheet layout 'poker-3x3-a5'; did you mean poker-3x3-a4?"),
])
def test_a_bad_layout_is_one_line(tmp_path, capsys, text, where, says):
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 2))
    (ws / "sheets").mkdir()
    (ws / "sheets" / "bad.yaml").write_text(text, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "bad") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and where in err, err


def test_slots_in_the_printer_margin_warn(tmp_path, capsys):
    """A 3×3 poker stock starting 2 mm from the edge (a deck's ``sheet:``) builds, with one
    warning naming the slots; ``pnpgen check`` says the same."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML.replace("format: poker", "format: poker\nsheet: edge"), 2))
    (ws / "sheets").mkdir()
    (ws / "sheets" / "edge.yaml").write_text("extends: poker-3x3-a4\ngrid: {left: 2, top: 16.5}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().err
    warnings = [ln for ln in err.splitlines() if "margin" in ln]
    assert len(warnings) == 1 and "sheets/edge.yaml" in warnings[0] and "slots 1, 4, 7 reach" in warnings[0], err
    pages = placements(ws / "build" / "test" / "cards.pdf")
    assert _flat(_centres(pages[0])) == pytest.approx(_flat([(2 + 31.5, 16.5 + 44), (2 + 63 + 31.5, 16.5 + 44)]), abs=0.002)
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "warning: sheets/edge.yaml" in out and "slots 1, 4, 7 reach" in out, out


def test_a_sheet_layout_linked_from_outside_is_refused(tmp_path, capsys):
    """sheets/x.yaml that is a link to a file outside the workspace is never read (issue 23)."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 2))
    secret = tmp_path / "secret.yaml"
    secret.write_text("name: SECRET-TEXT\ngrid: {cols: 3, rows: 3, left: 10.5, top: 16.5, width: 63, height: 88}\n",
                      encoding="utf-8")
    (ws / "sheets").mkdir()
    (ws / "sheets" / "x.yaml").symlink_to(secret)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "x") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "outside" in err and "SECRET-TEXT" not in err, err
    assert not (ws / "build" / "test" / "cards.pdf").exists()


def test_the_slug_goes_below_slots_that_take_the_top(tmp_path, capsys):
    """A stock whose first row starts 6 mm from the top leaves no room for the slug there: it goes
    in the free band at the bottom, the marks stop above it; with no band free either, a warning."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 9))
    (ws / "sheets").mkdir()  # slots 6 to 282 mm down: the marks below them would run into the bottom band
    (ws / "sheets" / "high.yaml").write_text("extends: poker-3x3-a4\ngrid: {top: 6, height: 92}\ntolerance: 4\n",
                                             encoding="utf-8")
    (ws / "sheets" / "full.yaml").write_text(
        "extends: poker-3x3-a4\ngrid: {top: 8, height: 93}\ntolerance: 5\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "high") == 0
    assert "slug" not in capsys.readouterr().err
    pdf = reader(ws / "build" / "test" / "cards.pdf")
    from pdfprobe import text_positions

    slug = [(t, y) for t, x, y in text_positions(pdf.pages[0]) if "100" in t or "テストカード" in t]
    assert slug and all(297 - 5 - 6 - 0.01 <= y <= 297 - 5 for t, y in slug), slug  # the bottom band
    lines = stroked_lines(pdf, pdf.pages[0])
    below = [(y1, y2) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 1e-6 and round(x1, 2) in (10.5, 73.5, 136.5, 199.5)
             and min(y1, y2) > 6 + 3 * 92]  # the marks below the block, on the trim lines
    assert below and all(max(y1, y2) <= 297 - 5 - 6 + 1e-3 for y1, y2 in below), below  # stop above the band
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "full") == 0
    err = capsys.readouterr().err
    assert "sheets/full.yaml" in err and "no 6 mm band" in err, err


@pytest.mark.parametrize("other", [["--layout", "fold"], ["--marks", "silhouette"]])
def test_sheet_does_not_combine_with_fold_or_a_cutter(tmp_path, capsys, other):
    ws = make_workspace(tmp_path / "ws", deck=_deck(DECK_YAML, 2))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "poker-3x3-a4", *other) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--sheet" in err and other[1] in err, err


def test_a_card_stock_of_another_paper_than_the_builds_is_warned_of(tmp_path, capsys):
    """A4 label stock in a Letter build: its pages are A4 among Letter ones (the all-in-one file
    mixes the two), so the build says which to print on what; an A4 build says nothing."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(MEISHI, 12))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "a-one-51002", "--paper", "letter") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "a-one-51002 is" in line]
    assert len(said) == 1 and "not letter (--paper)" in said[0] and "is A4 paper (210×297 mm)" in said[0] and "are A4; print them on it" in said[0], said
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "a-one-51002") == 0
    assert "a-one-51002 is" not in capsys.readouterr().err


def test_an_extends_chain_past_the_limit_says_so(tmp_path, capsys):
    """Eleven layouts each extending the one before: the limit named, not "extends itself"."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(MEISHI, 2))
    sheets = ws / "sheets"
    sheets.mkdir()
    (sheets / "c0.yaml").write_text("extends: a-one-51002\n", encoding="utf-8")
    for i in range(1, 12):
        (sheets / f"c{i}.yaml").write_text(f"extends: c{i - 1}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "c11") == 2
    err = capsys.readouterr().err
    assert "layouts deep" in err and "extends itself" not in err and err.count("\n") == 1, err


def test_counters_gang_cut_with_no_bleed_abut_and_their_backs_land_behind(tmp_path):
    """docs/home-printing.md, Counters: ½-inch counters on the grid each get their own bleed (a
    gutter, two cuts a gap); with ``--bleed 0`` they abut, each cut line shared by two counters,
    and each back lands behind its front when the sheet is flipped on the long edge."""
    counters = _deck(DECK_YAML.replace("format: poker", "kind: token\nsize: [0.5in, 0.5in]"), 30)
    ws = make_workspace(tmp_path / "ws", deck=counters)
    for bleed, out in (("3mm", tmp_path / "gutter"), ("0", tmp_path / "gang")):
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--bleed", bleed, "--out", str(out)) == 0
    gutter = sorted({round(x0, 2) for x0, *_ in placements(tmp_path / "gutter" / "test" / "cards.pdf")[0]})
    assert gutter[1] - gutter[0] == pytest.approx(12.7 + 6, abs=0.01)
    fronts, backs = placements(tmp_path / "gang" / "test" / "cards.pdf")[:2]
    assert {w for w, _ in _sizes(fronts)} == {12.7}  # (the test card's text runs out below: widths only)
    lefts = sorted({round(x0, 2) for x0, *_ in fronts})
    assert [round(b - a, 2) for a, b in zip(lefts, lefts[1:])] == [12.7] * (len(lefts) - 1)  # abutting
    mirrored = sorted(round(W - x1, 2) for x0, _, x1, _ in fronts)
    assert sorted(round(x0, 2) for x0, *_ in backs) == pytest.approx(mirrored, abs=0.002)


def test_a_sheet_layout_of_plain_paper_is_no_stock_to_buy(tmp_path):
    """A wargame's ½-inch counters on a sheet layout of abutting slots (cut in strips, on plain
    paper) were listed under Sourced as card stock to buy; ``stock: false`` says it is paper."""
    counters = _deck(DECK_YAML.replace("format: poker", "kind: token\nsize: [0.5in, 0.5in]\nsheet: counters"), 30)
    ws = make_workspace(tmp_path / "ws", deck=counters)
    (ws / "sheets").mkdir()
    layout = "paper: a4\ngrid: {cols: 14, rows: 20, left: 16.1, top: 21.5, width: 0.5in, height: 0.5in}\n"
    for plain, out in ((False, tmp_path / "stock"), (True, tmp_path / "paper")):
        (ws / "sheets" / "counters.yaml").write_text(layout + ("stock: false\n" if plain else ""), encoding="utf-8")
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    stock = json.loads((tmp_path / "stock" / "test" / "manifest.json").read_text(encoding="utf-8"))
    paper = json.loads((tmp_path / "paper" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert [s["sheet_layout"] for s in stock["bill_of_materials"]["stock"]] == ["counters"]
    assert paper["bill_of_materials"]["stock"] == [] and paper["decks"][0]["sheet_layout"]["stock"] is False
    assert "シートレイアウト counters" in texts(tmp_path / "stock" / "test" / "test-all.pdf")[-1]
    assert "シートレイアウト counters" not in texts(tmp_path / "paper" / "test" / "test-all.pdf")[-1]
    lefts = sorted({round(x0, 2) for x0, *_ in placements(tmp_path / "paper" / "test" / "cards.pdf")[0]})
    assert [round(b - a, 2) for a, b in zip(lefts, lefts[1:])] == [12.7] * (len(lefts) - 1)  # abutting


def test_marks_of_a_sheet_layout_on_other_paper_stay_on_its_paper(tmp_path):
    """A map section on an A3 sheet layout in an A4 build (docs/data-format.md, A map in sections):
    the right-hand cut marks were drawn from the A3 page's edge back to the A4 page's, across the
    map, and the right centre mark stood 100 mm inside it. Every mark now lies outside the piece's
    bleed, each side's marks beside that side, on the A3 page's printable area."""
    board = _deck(DECK_YAML.replace("format: poker", "kind: board\nsize: [380, 250]\nsheet: a3-map"), 1)
    ws = make_workspace(tmp_path / "ws", deck=board)
    (ws / "sheets").mkdir()
    (ws / "sheets" / "a3-map.yaml").write_text(
        "paper: [420, 297]\nstock: false\ngrid: {left: 20, top: 24, width: 380, height: 250}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--duplex", "none", "--out", str(out)) == 0
    pdf = reader(out / "test" / "cards.pdf")
    assert float(pdf.pages[0].mediabox.width) == pytest.approx(420 / 25.4 * 72, abs=0.01)
    lines = stroked_lines(pdf, pdf.pages[0])
    bleed = 3.0
    inside = [ln for ln in lines if max(ln[0], ln[2]) > 20 - bleed + 1e-3 and min(ln[0], ln[2]) < 400 + bleed - 1e-3
              and max(ln[1], ln[3]) > 24 - bleed + 1e-3 and min(ln[1], ln[3]) < 274 + bleed - 1e-3]
    assert inside == [], inside  # no mark over the map
    marks = [ln for ln in lines if min(ln[1], ln[3]) > 5 + 6]  # below the slug's band (its scale bars)
    right = [ln for ln in marks if abs(ln[1] - ln[3]) < 1e-6 and max(ln[0], ln[2]) > 400]
    assert len(right) >= 5 and all(min(x1, x2) >= 400 + bleed and max(x1, x2) <= 420 - 5 + 1e-6 for x1, _, x2, _ in right)
    bars = sorted(round((x1 + x2) / 2, 2) for x1, y1, x2, y2 in marks
                  if abs(x1 - x2) < 1e-6 and abs((y1 + y2) / 2 - 149) < 1e-3)  # the centre marks' crossbars
    assert bars == [pytest.approx(13.5, abs=0.01), pytest.approx(406.5, abs=0.01)], bars


def test_a_worksheets_name_written_as_the_decks_sheet_is_told_where_it_goes(tmp_path, capsys):
    """trial46: a designer who read 「a deck that names its worksheet (sheet: スペル)」 wrote
    ``sheet: プロモ`` beside ``pieces: {file: cards.xlsx}``, which reads the card stock's sheet
    layout, and was told only that プロモ is no sheet layout's name. A deck whose pieces come from a
    workbook is told the pieces: line that names the worksheet; one from a CSV is not."""
    import openpyxl

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "format: poker\nsheet: プロモ")
                        .replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    book = openpyxl.Workbook()
    book.active.title = "基本"
    book.active.append(["name", "text"])
    book.active.append(["祝福", "本文"])
    book.save(ws / "data" / "test" / "decks" / "cards.xlsx")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cards.yaml:3:8: sheet: 'プロモ' is not a sheet layout name" in err, err
    assert "(expected pieces: {file: cards.xlsx, sheet: プロモ} for the worksheet プロモ of cards.xlsx" in err, err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("sheet: プロモ", "sheet: promo"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "unknown sheet layout 'promo' (expected pieces: {file: cards.xlsx, sheet: promo}" in err, err
    (ws / "data" / "test" / "decks" / "cards.csv").write_text("name,text\n祝福,本文\n", encoding="utf-8")
    deck.write_text(deck.read_text(encoding="utf-8").replace("cards.xlsx", "cards.csv"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "unknown sheet layout 'promo' (expected one of grid" in err and "pieces:" not in err, err


@pytest.mark.parametrize("value, offered", [
    ('"Pro\\nline2"', None),  # a line break: was written into the message, the line broken in two
    ("[a, b]", None),  # not a name: was offered as the worksheet "['a', 'b']"
    ("x" * 40, None),  # longer than a worksheet's name may be (31): was written out twice, whole
    ('"a, b"', '{file: cards.xlsx, sheet: "a, b"}'),  # quoted, as YAML reads it back
])
def test_a_decks_sheet_that_could_be_no_worksheet_is_offered_as_none(tmp_path, capsys, value, offered):
    """A deck's own ``sheet:`` beside a workbook's pieces is offered as the worksheet's name only
    when it could be one, written as YAML reads it; the error stays one line."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", f"format: poker\nsheet: {value}")
                        .replace("pieces:\n", "pieces: {file: cards.xlsx}\n"))
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cards.yaml:3:8: sheet: " in err, err
    assert (f"(expected pieces: {offered} for the worksheet" in err) if offered else "pieces:" not in err, err


def test_square_tiles_gang_cut_as_counters_do_on_the_grid_and_the_cutters_file(tmp_path):
    """trial66 routed tiles to be ganged through ``kind: token`` (the shop's counter sheets take
    tokens alone): on the home sheets the gang-cut is the deck's, whatever its kind. A tile-laying
    game's 40 mm square tiles with their deck file's ``bleed: 0`` abut on the grid (pitch 40 mm),
    their backs mirrored behind them, and a print-and-cut build's cut file holds each line between
    two rows or columns once, end to end (4 × 6 tiles: 5 + 7 straight cuts, no closed path)."""
    tiles = DECK_YAML.replace("format: poker", "kind: tile\nsize: [40, 40]\nbleed: 0") \
        + "  - {name: 草原, text: 本文, count: 24}\n"  # (one face, drawn once: the layout is what is read)
    ws = make_workspace(tmp_path / "ws", deck=tiles)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 0
    out = ws / "build" / "test"
    fronts, backs = placements(out / "cards.pdf")[:2]
    lefts, tops = sorted({round(x0, 2) for x0, *_ in fronts}), sorted({round(y0, 2) for _, y0, *_ in fronts})
    assert (len(lefts), len(tops)) == (4, 6) and len(fronts) == 24
    assert {round(b - a, 2) for a, b in zip(lefts, lefts[1:])} == {40.0}  # abutting: one cut between two
    assert sorted(round(W - x1, 2) for x0, _, x1, _ in fronts) == pytest.approx(sorted(round(x0, 2) for x0, *_ in backs),
                                                                                 abs=0.002)
    svg = (out / "cut" / "cards-p01.svg").read_text(encoding="utf-8")
    assert svg.count("<path ") == 5 + 7 and " Z" not in svg and "z\"" not in svg


def test_poker_cards_for_a_paper_cutter_abut_with_their_deck_files_bleed_0(tmp_path):
    """docs/home-printing.md, Cards cut with a paper cutter (trial71, a trick-taking deck cut at home):
    nine poker cards of a layout's deck abut 3 × 3 on A4 at a pitch of 63 and 88 mm with ``bleed: 0``
    (the default grid parts them by two bleeds, 0.83 mm each); the build's shop file takes the deck's bleed, none."""
    said = " ".join((REPO / "docs" / "home-printing.md").read_text(encoding="utf-8").split())
    assert "`bleed: 0` abuts them, 3 × 3 at a pitch of 63 and 88 mm" in said
    deck = "name: 月見札\nlayout: card-poker\nbleed: 0\npieces:\n  - {title: 団子, text: 本文, count: 9}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    fronts = placements(ws / "build" / "test" / "cards.pdf")[0]
    lefts, tops = sorted({round(x0, 2) for x0, *_ in fronts}), sorted({round(y0, 2) for _, y0, *_ in fronts})
    assert len(fronts) == 9 and {round(b - a, 2) for a, b in zip(lefts, lefts[1:])} == {63.0}
    assert {round(b - a, 2) for a, b in zip(tops, tops[1:])} == {88.0}
    assert boxes_mm(reader(ws / "build" / "test" / "shop" / "cards.pdf").pages[0])["bleedbox"][2] == pytest.approx(63.0, abs=0.01)
