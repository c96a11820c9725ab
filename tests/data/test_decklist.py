"""A deck list (data/decklist.py): a deck file naming another deck's pieces by its ``unique:``
field with counts of its own — a trading-card game's starter deck of its card sheet (trial52)."""

from __future__ import annotations

import json

import openpyxl
from pypdf import PdfReader

from conftest import BACK, DECK_YAML, DRAFT, make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.faces.faceset import render_game

SHEET = DECK_YAML.replace("  text: text\n", "  text: text\n  id: text\nunique: id\n") + "".join(
    f"  - {{id: ST01-00{i}, name: カード{i}, text: 本文{i}}}\n" for i in range(1, 6))
STARTER = "name: スターターA\nfrom: cards\nlist:\n  ST01-002: 3\n  ST01-005: 2\n"


def _workspace(tmp_path, lists: dict[str, str], name: str = "ws"):
    ws = make_workspace(tmp_path / name, deck=SHEET)
    for deck_id, text in lists.items():
        (ws / "data" / "test" / "decks" / f"{deck_id}.yaml").write_text(text, encoding="utf-8")
    return ws


def _fronts(pdf) -> list[str]:
    """The text of each front page of a shop file (its pages front, back, front, back…)."""
    return [page.extract_text().replace("\n", "") for page in PdfReader(pdf).pages[::2]]


def test_a_list_prints_its_counts_of_the_source_decks_cards_and_follows_an_edit(tmp_path):
    ws = _workspace(tmp_path, {"starter": STARTER})
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    assert len(PdfReader(out / "shop" / "cards.pdf").pages) == 10  # the sheet: 5 cards, front and back
    fronts = _fronts(out / "shop" / "starter.pdf")
    assert len(fronts) == 5 and [f.startswith("カード2") for f in fronts].count(True) == 3, fronts
    assert [f.startswith("カード5") for f in fronts].count(True) == 2 and not any("カード1" in f for f in fronts)
    assert len(PdfReader(out / "shop" / "starter-unique.pdf").pages) == 4  # two distinct cards
    game = load_game(Workspace(ws), "test")
    assert [(d.id, d.count) for d in game.decks] == [("cards", 5), ("starter", 5)]
    rendered = render_game(ws / "templates", game, 3.0)
    assert len(rendered.faces.svgs) == 10  # the list's faces are the sheet's: none drawn (or converted) twice
    sheet = ws / "data" / "test" / "decks" / "cards.yaml"
    sheet.write_text(SHEET.replace("本文2", "改訂2"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert [f for f in _fronts(out / "shop" / "starter.pdf") if f.startswith("カード2")] == ["カード2改訂2"] * 3
    listing = ws / "data" / "test" / "decks" / "starter.yaml"
    listing.write_text(STARTER.replace("ST01-005: 2", "ST01-005: 4"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert len(PdfReader(out / "shop" / "starter.pdf").pages) == 14
    old = "pieces:\n  - {id: ST01-005, name: 旧版5, text: 旧, count: 0}\n"  # a parked old print of a number, first
    sheet.write_text(SHEET.replace("pieces:\n", old), encoding="utf-8")  # the list takes the printed one
    assert [(p.label, p.count) for p in load_game(Workspace(ws), "test").decks[1].pieces] == [("カード2", 3), ("カード5", 4)]


ERRORS = {
    "unknown": (STARTER.replace("ST01-005", "ST01-006"), "starter.yaml:5:3: list.ST01-006: no piece of deck 'cards' "
                "has id 'ST01-006'; nearest: ST01-005, ST01-004, ST01-003"),
    "twice": (STARTER.replace("ST01-005", "ST01-002"), "starter.yaml:5:3: list.ST01-002: duplicate key"),
    "alike": (STARTER.replace("ST01-005", "ＳＴ０１－００２"), "starter.yaml:5:3: list.ＳＴ０１－００２: "
              "'ＳＴ０１－００２' is listed twice (as 'ST01-002', line 4)"),
    "fraction": (STARTER.replace(": 2\n", ": 2.5\n"), "starter.yaml:5:13: list.ST01-005: count 2.5 is not a whole"),
    "missing": (STARTER.replace("from: cards", "from: card"), "starter.yaml:2:7: from: no deck 'card' in this "
                "game; did you mean cards?"),
    "itself": (STARTER.replace("from: cards", "from: starter"), "starter.yaml:2:7: from: a deck list cannot list "
               "its own pieces"),
    "a list": (STARTER.replace("from: cards", "from: other"), "starter.yaml:2:7: from: deck 'other' is itself a "
               "deck list (from: cards)"),
    "its key": (STARTER + "fields: {x: text}\n", "starter.yaml:6:1: fields: a deck list takes no fields"),
    "no value": (STARTER.replace("ST01-005: 2", "~: 2"), "starter.yaml:5:3: list: YAML reads the key ~ as no value "
                 "(null), not as a name (expected the key in quotes: \"~\": …)"),  # it was 'list.None', Python's word
}


def test_each_mistake_of_a_list_is_told_at_its_line_with_exit_2(tmp_path, capsys):
    for n, (text, said) in enumerate(ERRORS.values()):
        ws = _workspace(tmp_path, {"starter": text, "other": STARTER}, f"ws{n}")
        capsys.readouterr()
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert f"data/test/decks/{said}" in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_a_set_number_typed_without_its_zeros_is_offered_first(tmp_path, capsys):
    """trial83: a starter deck of a 150-card sheet listing ``SM-5`` was offered SM-150, SM-145 and
    SM-135 (as near as SM-005 to difflib); the number written without its leading zeros (or in the
    other case) is offered first."""
    sheet = DECK_YAML.replace("  text: text\n", "  text: text\n  id: text\nunique: id\n") + "".join(
        f"  - {{id: SM-{i:03d}, name: カード{i}, text: 本文{i}}}\n" for i in (5, 135, 145, 150))
    ws = make_workspace(tmp_path / "ws", deck=sheet)
    starter = ws / "data" / "test" / "decks" / "starter.yaml"
    for typed in ("SM-5", "sm-05"):
        starter.write_text(f"name: スターター\nfrom: cards\nlist:\n  {typed}: 3\n", encoding="utf-8")
        capsys.readouterr()
        assert run(ws, "check", "--game", "test") == 2
        assert f"has id '{typed}'; nearest: SM-005" in capsys.readouterr().err, typed


def test_a_list_from_a_copy_passed_over_says_it_is_one(tmp_path, capsys):
    """hostile39: a list naming 'cards (1)', a browser's copy of cards.yaml beside it, was told 'no
    deck in this game' of the file there: it says the file is passed over as a copy, and of what."""
    ws = _workspace(tmp_path, {"starter": STARTER.replace("from: cards", 'from: "cards (1)"'), "cards (1)": SHEET})
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    assert capsys.readouterr().err == (
        "pnpgen: error: data/test/decks/starter.yaml:2:7: from: cards (1).yaml is passed over as a file manager's "
        "copy of cards.yaml, not built as a deck (expected from: cards, or the copy renamed to a name of its own)\n")


def test_a_circle_and_a_source_without_a_unique_field_are_told(tmp_path, capsys):
    circle = "name: B\nfrom: starter\nlist: {ST01-001: 1}\n"
    ws = _workspace(tmp_path, {"starter": STARTER.replace("from: cards", "from: zz"), "zz": circle})
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    assert "zz.yaml:2:7: from: deck 'starter' takes its pieces from this deck in turn (a circle)" in \
        capsys.readouterr().err
    ws = _workspace(tmp_path, {"starter": STARTER}, "plain")
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(SHEET.replace("unique: id\n", ""), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    assert "starter.yaml:2:7: from: deck 'cards' names no unique field" in capsys.readouterr().err


def test_an_id_pasted_with_a_character_that_shows_as_nothing_is_the_id(tmp_path, capsys):
    """A card sheet's id pasted from a web page with a zero-width space (ST01-002 + U+200B), listed
    as typed: 'no piece has id ST01-002; nearest: ST01-002' named the card it could not find. Written
    alike is the same, for the deck list and for the sheet's own unique: check (hostile36)."""
    pasted = SHEET.replace("id: ST01-002,", 'id: "ST01-002\\u200b",')
    ws = _workspace(tmp_path, {"starter": STARTER})
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(pasted, encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    assert [(p.label, p.count) for p in game.decks[1].pieces] == [("カード2", 3), ("カード5", 2)]
    twice = pasted.replace("id: ST01-003,", 'id: "\\ufeffST01-002",')
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(twice, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "id '\\ufeffST01-002' is piece 2's too, at line" in err and err.count("\n") == 1, err


def test_a_list_of_a_sealed_deck_is_sealed_and_takes_no_sealed_of_its_own(tmp_path, capsys):
    """A starter deck listing a sealed pack's cards keeps them secret as the pack does (the book
    pictures its back alone); a list cannot seal the cards of an open sheet (sealed: is the sheet's)."""
    ws = _workspace(tmp_path, {"starter": STARTER})
    sheet = ws / "data" / "test" / "decks" / "cards.yaml"
    sheet.write_text(SHEET.replace("unique: id\n", "unique: id\nsealed: true\n"), encoding="utf-8")
    assert [(d.id, d.sealed) for d in load_game(Workspace(ws), "test").decks] == [("cards", True), ("starter", True)]
    (ws / "data" / "test" / "decks" / "starter.yaml").write_text(STARTER + "sealed: true\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    assert "starter.yaml:6:1: sealed: a deck list takes no sealed" in capsys.readouterr().err


def test_a_list_kept_in_a_spreadsheet_prints_its_rows_in_order_and_its_edit_is_that_decks_alone(tmp_path):
    """``list: {file: starter.csv}`` read as a deck's sheet is: a Google Sheets CSV (BOM, CRLF,
    blank rows, headers in capitals) or a workbook's worksheet named by ``sheet:``."""
    ws = _workspace(tmp_path, {"starter": "name: スターターA\nfrom: cards\nlist: {file: starter.csv}\n"})
    csv = ws / "data" / "test" / "decks" / "starter.csv"
    csv.write_bytes("\ufeffID,Count\r\nST01-005,2\r\n,\r\n\r\nST01-002,3\r\n".encode())
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    assert [f[:4] for f in _fronts(out / "shop" / "starter.pdf")] == ["カード5"] * 2 + ["カード2"] * 3
    csv.write_bytes("\ufeffID,Count\r\nST01-005,2\r\n,\r\n\r\nST01-002,4\r\n".encode())
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    changes = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["changes"]
    assert [line.split(":")[0] for line in changes] == ["starter"] and "+1 カード2" in changes[0], changes
    book = openpyxl.Workbook()
    book.active.title = "A"
    book.active.append(["id", "count"])
    book.active.append(["ST01-001", 1])
    sheet_b = book.create_sheet("B")
    for row in (["id", "count"], ["ST01-003", 2], ["ST01-004", 1]):
        sheet_b.append(row)
    book.save(csv.with_name("lists.xlsx"))
    (csv.with_name("starter.yaml")).write_text("name: B\nfrom: cards\nlist: {file: lists.xlsx, sheet: B}\n",
                                              encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    assert [(p.label, p.count) for p in game.deck("starter").pieces] == [("カード3", 2), ("カード4", 1)]


SHEET_ERRORS = {  # the list's CSV (its header id,count unless given) → what is said, at its cell
    "unknown": ("ST01-002,3\nST01-006,2\n", "starter.csv:3:1: id (column A): no piece of deck 'cards' has id "
                "'ST01-006'; nearest: ST01-005, ST01-004, ST01-003"),
    "alike": ("ST01-002,3\nＳＴ０１－００２,2\n", "starter.csv:3:1: id (column A): 'ＳＴ０１－００２' is listed twice "
              "(as 'ST01-002', row 2)"),
    "fraction": ("ST01-002,3\nST01-003,2.5\n", "starter.csv:3:2: count (column B): count 2.5 is not a whole"),
    "no count": ("ST01-002,3\nST01-003,\n", "starter.csv:3:2: count (column B): 'ST01-003' is listed without a count"),
    "no id": ("ST01-002,3\n,2\n", "starter.csv:3:2: count (column B): a count without the id of its piece"),
    "header": ("id,枚数\nST01-002,3\n", "starter.csv:1:2: 枚数 (column B): unknown key in the header row; did you "
               "mean count?"),
    "no count column": ("id\nST01-002\n", "starter.csv:1: the list has no count column"),
}


def test_each_mistake_of_a_list_kept_in_a_spreadsheet_is_told_at_its_cell(tmp_path, capsys):
    for n, (rows, said) in enumerate(SHEET_ERRORS.values()):
        ws = _workspace(tmp_path, {"starter": "name: A\nfrom: cards\nlist: {file: starter.csv}\n"}, f"ws{n}")
        (ws / "data" / "test" / "decks" / "starter.csv").write_text(
            rows if rows.startswith("id") else "id,count\n" + rows, encoding="utf-8")
        capsys.readouterr()
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert f"data/test/decks/{said}" in err and err.count("\n") == 1 and "Traceback" not in err, err


LIST_COLUMNS = {  # the list's columns: → what is said, at its line of the deck file
    "{番号: id, 枚数: cost}": "starter.yaml:3:49: list.columns.枚数: 'cost' is not a field of this deck; did you "
                            "mean count? (expected one of id, count (a deck list's sheet gives",
    "{番号: id.en, 枚数: count}": "starter.yaml:3:41: list.columns.番号: 'id.en' is no field's translation (a deck "
                               "list's id is one in every language) (expected 番号: id)",
    "{番号: id}": "starter.csv:1:2: 枚数 (column B): unknown key in the header row; did you mean count?",
    "[番号: id]": "starter.yaml:3:36: list.columns: columns is written as a list",
}


def test_a_lists_sheet_headed_in_its_own_words_is_read_through_columns_as_a_decks_is(tmp_path, capsys):
    """trials: ``list: {file: …, columns: {番号: id, 枚数: count}}`` was refused; it is read as a
    deck's ``columns:`` (the same parser, its mistakes at their line); a piece the list parks is
    told at its count cell (and at its 0 in a YAML list: test above)."""
    ws = _workspace(tmp_path, {"starter": "name: A\nfrom: cards\nlist: {file: starter.csv, columns: {番号: id, 枚数: count}}\n"})
    (ws / "data" / "test" / "decks" / "starter.csv").write_text("番号,枚数\nST01-004,2\nＳＴ０１－００１,0\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    assert "  starter: data/test/decks/starter.csv:3:2: カード1: parked (count: 0, prints none)\n" in capsys.readouterr().out
    assert [(p.label, p.count) for p in load_game(Workspace(ws), "test").deck("starter").pieces] == [("カード4", 2), ("カード1", 0)]
    listing = ws / "data" / "test" / "decks" / "starter.yaml"
    for columns, said in LIST_COLUMNS.items():
        listing.write_text(f"name: A\nfrom: cards\nlist: {{file: starter.csv, columns: {columns}}}\n", encoding="utf-8")
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert f"data/test/decks/{said}" in err and err.count("\n") == 1, err
    (listing.parent / "starter.csv").write_text("番号,枚数,カード名\nST01-004,2,カード4\n", encoding="utf-8")
    listing.write_text("name: A\nfrom: cards\nlist: {file: starter.csv, columns: {番号: id, 枚数: count}}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2  # (a name column beside them: the list's fields are the source's)
    assert "starter.csv:1:3: カード名 (column C): unknown key in the header row: a deck list's sheet holds the id and " \
        "the count of each piece it lists" in capsys.readouterr().err


def test_a_parked_or_open_source_piece_a_list_prints_is_told_with_the_list(tmp_path, capsys):
    """The sheet parks ST01-004 (an old print) and leaves ST01-004's and ST01-005's text 未定: the
    list that prints them is named by ``check`` and by the build's proof.txt, as the sheet is."""
    sheet = SHEET.replace("本文4}", "未定, count: 0}").replace("本文5}", "未定 強さ}")
    ws = _workspace(tmp_path, {"starter": "name: スターターA\nfrom: cards\nlist: {ST01-004: 2, ST01-005: 1}\n"})
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(sheet, encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "  cards, starter: data/test/decks/cards.yaml:15:38: カード5.text: 未定 強さ\n" in out, out
    assert "  cards: data/test/decks/cards.yaml:14:5: カード4: parked (count: 0, prints none; starter prints it)\n" \
        in out and "  starter: data/test/decks/cards.yaml:14:38: カード4.text: 未定\n" in out, out
    assert "2 placeholders to settle" in out
    assert run(ws, "build", "--game", "test") == 0
    proof = (ws / "build" / "test" / "proof.txt").read_text(encoding="utf-8")
    assert "data/test/decks/cards.yaml:14:38: スターターA カード4.text" in proof, proof



def test_a_list_that_parks_an_open_source_piece_is_not_told_with_it(tmp_path, capsys):
    """review39: the sheet prints ST01-005 with its text 未定 and the list parks it (0: none in
    the starter): the placeholder is the sheet's alone, the list not named with it (a list's
    open piece counted only where the list prints it, as a sheet's parked piece is); the piece
    told parked in the list's file, where its 0 is, not at the sheet's row (which prints it)."""
    sheet = SHEET.replace("本文5}", "未定 強さ}")
    ws = _workspace(tmp_path, {"starter": "name: スターターA\nfrom: cards\nlist: {ST01-002: 3, ST01-005: 0}\n"})
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(sheet, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "  cards: data/test/decks/cards.yaml:15:38: カード5.text: 未定 強さ\n" in out, out
    assert "  starter: data/test/decks/starter.yaml:3:31: カード5: parked (count: 0, prints none)\n" in out, out  # its 0
    assert out.count("starter:") == 1 and "1 placeholder to settle" in out, out
    game = load_game(Workspace(ws), "test")
    assert [(p.label, p.count, p.shows_placeholder) for p in game.decks[1].pieces] == [
        ("カード2", 3, False), ("カード5", 0, False)]
    assert game.decks[1].placeholders == []

OWN_BACK = BACK.replace("#333366", "#aa2222").replace('"B" ~ piece.name', '"帯" ~ deck.name')


def test_a_lists_own_back_and_paper_over_a_template_deck_and_a_layout_deck(tmp_path, capsys):
    """A starter deck's own back (its colour, its name in a band) and paper; its fronts stay the
    sheet's, drawn once; a layout: or front: on a list is told why not."""
    starter = STARTER + "back: starter-back.svg.j2\npaper: letter\n"
    ws = _workspace(tmp_path, {"starter": starter})
    (ws / "templates" / "test" / "starter-back.svg.j2").write_text(OWN_BACK, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    shop = ws / "build" / "test" / "shop"
    reader = PdfReader(shop / "starter.pdf")
    backs = [page.extract_text().replace("\n", "") for page in reader.pages[1::2]]
    assert backs == ["帯スターターA"] * 5, backs
    assert all(p.extract_text().startswith("Bカード") for p in PdfReader(shop / "cards.pdf").pages[1::2])
    home = PdfReader(ws / "build" / "test" / "starter.pdf").pages[0].mediabox
    assert (round(float(home.width) / 72 * 25.4), round(float(home.height) / 72 * 25.4)) == (216, 279)
    game = load_game(Workspace(ws), "test")
    assert len(render_game(ws / "templates", game, 3.0).faces.svgs) == 10 + 1  # the list's one back (its name) its own
    layout_sheet = SHEET.replace("front: card-front.svg.j2\nback: card-back.svg.j2\n", "layout: card-poker\n") \
        .replace("  name: text\n", "  title: text\n").replace("name: カード", "title: カード")
    ws = _workspace(tmp_path, {"starter": starter}, "layout")
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(layout_sheet, encoding="utf-8")
    (ws / "templates" / "test" / "starter-back.svg.j2").write_text(OWN_BACK, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    pages = PdfReader(ws / "build" / "test" / "shop" / "starter.pdf").pages
    assert [p.extract_text().replace("\n", "") for p in pages[1::2]] == ["帯スターターA"] * 5
    assert all("カード2" in p.extract_text() for p in pages[:6:2])  # the layout's fronts
    for key, said in (("layout: card-poker", "starter.yaml:6:1: layout: a deck list takes no layout: its pieces' "
                       "faces are the source deck's"), ("front: f.svg.j2", "starter.yaml:6:1: front: a deck list takes no "
                       "front: its pieces' faces are the source deck's"), ("paper: b5", "starter.yaml:6:8: paper: ")):
        (ws / "data" / "test" / "decks" / "starter.yaml").write_text(STARTER + key + "\n", encoding="utf-8")
        capsys.readouterr()
        assert run(ws, "check", "--game", "test") == 2
        assert f"data/test/decks/{said}" in capsys.readouterr().err


def test_export_sheet_writes_a_lists_list_that_list_file_reads_back_to_the_same_pieces(tmp_path, capsys):
    ws = _workspace(tmp_path, {"starter": STARTER})
    capsys.readouterr()
    assert run(ws, "export-sheet", "--game", "test", "--deck", "starter") == 0
    assert "to use it, write the deck's list: as  list: {file: starter.csv}" in capsys.readouterr().out
    decks = ws / "data" / "test" / "decks"
    assert (decks / "starter.csv").read_bytes().decode() == "\ufeffid,count\r\nST01-002,3\r\nST01-005,2\r\n"
    was = [(p.label, p.count, p.where) for p in load_game(Workspace(ws), "test").deck("starter").pieces]
    (decks / "starter.yaml").write_text("name: スターターA\nfrom: cards\nlist: {file: starter.csv}\n", encoding="utf-8")
    assert [(p.label, p.count, p.where) for p in load_game(Workspace(ws), "test").deck("starter").pieces] == was


EXTRA = SHEET.replace("name: テストカード", "name: 追加カード").split("pieces:\n")[0] + "pieces:\n" + "".join(
    f"  - {{id: EX-00{i}, name: 追加{i}, text: 追加本文{i}}}\n" for i in range(1, 4))
MIXED = "name: 混成\nfrom: [cards, extra]\nlist: {EX-002: 2, ST01-003: 1, EX-001: 1}\n"


def test_a_list_from_several_decks_drawn_alike_prints_each_in_its_order_and_follows_their_edits(tmp_path, capsys):
    """A card pool kept as a worksheet per kind (heroes, allies, events): one starter deck lists
    cards of each, ``from: [heroes, allies, events]`` (trial56)."""
    ws = _workspace(tmp_path, {"extra": EXTRA, "starter": MIXED})
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    assert [f[:3] for f in _fronts(out / "shop" / "starter.pdf")] == ["追加2", "追加2", "カード", "追加1"]
    assert _fronts(out / "shop" / "starter.pdf")[2].startswith("カード3")
    game = load_game(Workspace(ws), "test")
    assert game.deck("starter").listed == ("cards", "extra")
    assert len(render_game(ws / "templates", game, 3.0).faces.svgs) == 2 * 5 + 2 * 3  # the list's all the sheets'
    decks = ws / "data" / "test" / "decks"
    (decks / "extra.yaml").write_text(EXTRA.replace("追加本文2", "改訂").replace("追加本文1}", "追加本文1, count: 0}"),
                                      encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    changes = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["changes"]
    assert [line.split(":")[0] for line in changes] == ["extra", "starter"], changes
    assert "追加2: text" in changes[1] and "+" not in changes[1], changes
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    assert "  extra: data/test/decks/extra.yaml:11:5: 追加1: parked (count: 0, prints none; starter prints it)\n" \
        in capsys.readouterr().out


def test_each_mistake_of_a_list_from_several_decks_is_told_at_its_from_line(tmp_path, capsys):
    cases = {  # (extra.yaml, the list's from:) → what is said
        "drawn otherwise": (EXTRA.replace("front: card-front.svg.j2", "front: other.svg.j2"), "[cards, extra]",
                            "starter.yaml:2:15: from.2: deck 'extra' is drawn otherwise than 'cards': its front "
                            "template is 'other.svg.j2', cards's 'card-front.svg.j2'"),
        "in both": (EXTRA.replace("EX-001", "ST01-003"), "[cards, extra]", "starter.yaml:3:19: list.ST01-003: id "
                    "'ST01-003' is a piece of 'cards' (data/test/decks/cards.yaml:13:5) and of 'extra' "
                    "(data/test/decks/extra.yaml:11:5)"),
        "twice": (EXTRA, "[cards, cards]", "starter.yaml:2:15: from.2: deck 'cards' is named twice"),
        "none": (EXTRA, "[]", "starter.yaml:2:7: from: from: names no deck"),
        "no such": (EXTRA, "[cards, extras]", "starter.yaml:2:15: from.2: no deck 'extras' in this game; did you "
                    "mean extra?"),
    }
    for n, (extra, froms, said) in enumerate(cases.values()):
        ws = _workspace(tmp_path, {"extra": extra, "starter": MIXED.replace("[cards, extra]", froms)}, f"ws{n}")
        (ws / "templates" / "test" / "other.svg.j2").write_text(OWN_BACK, encoding="utf-8")
        capsys.readouterr()
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert f"data/test/decks/{said}" in err and err.count("\n") == 1, err


def test_a_list_files_header_pasted_with_an_invisible_character_is_told_what_it_has(tmp_path, capsys):
    """review39 (hostile36 × decklist2): a list's count header pasted with a zero-width space was
    'unknown key in the header row; did you mean count?', the two looking alike; it names the
    character, as an id's (written alike) is taken and a file name's is told."""
    ws = _workspace(tmp_path, {"starter": "name: A\nfrom: cards\nlist: {file: s.csv}\n"})
    (ws / "data" / "test" / "decks" / "s.csv").write_text("id,count\u200b\nST01-002\u200b,3\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "s.csv:1:2: " in err and "unknown key in the header row: 'count\\u200b' has the invisible character U+200B " \
        "(ZERO WIDTH SPACE), character 6, which shows as nothing (expected count, typed again without it)" in err, err


def test_a_piece_only_a_file_managers_copy_holds_is_told_where_it_is(tmp_path, capsys):
    """A list naming ST01-009, which only the passed-over copy 'cards (1).yaml' holds, was told 'no
    piece of deck 'cards' has id' as if it were nowhere: the copy holding it is named, not built."""
    ws = _workspace(tmp_path, {"starter": "name: スターターA\nfrom: cards\nlist:\n  ST01-002: 3\n  ST01-009: 1\n"})
    decks = ws / "data" / "test" / "decks"
    (decks / "cards (1).yaml").write_text(SHEET + "  - {id: ST01-009, name: カード9, text: 本文9}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "data/test/decks/starter.yaml:5:" in err, err
    assert "no piece of deck 'cards' has id 'ST01-009' (the copy cards (1).yaml holds one, but is passed over as a " \
        "file manager's copy of cards.yaml, not built) (expected the id of a piece of cards.yaml, or the piece " \
        "moved from cards (1).yaml into cards.yaml)" in err, err
    (decks / "cards (1).yaml").write_text(SHEET, encoding="utf-8")  # a copy without it: nothing more said
    assert run(ws, "check", "--game", "test") == 2
    assert "copy" not in capsys.readouterr().err


def test_a_piece_only_a_spreadsheets_file_manager_copy_holds_is_told_where_it_is(tmp_path, capsys):
    """hostile40: a source deck of 'pieces: {file: cards.csv}' whose piece ST01-009 only 'cards (1).csv'
    (a browser's copy beside it) holds was told 'no piece … nearest', as the YAML copy was before
    fixesV; a workbook's copy 'cards - Copy.xlsx' alike, read at the deck's own worksheet."""
    sheet_deck = SHEET.split("pieces:\n")[0] + "pieces: {file: cards.csv}\n"
    rows = [("id", "name", "text")] + [(f"ST01-00{i}", f"カード{i}", f"本文{i}") for i in range(1, 6)]
    ws = _workspace(tmp_path, {"starter": "name: スターターA\nfrom: cards\nlist:\n  ST01-002: 3\n  ST01-009: 1\n"})
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").write_text(sheet_deck, encoding="utf-8")
    (decks / "cards.csv").write_text("".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    (decks / "cards (1).csv").write_text("".join(",".join(r) + "\n" for r in rows) + "ST01-009,カード9,本文9\n",
                                         encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err == ("pnpgen: error: data/test/decks/starter.yaml:5:3: list.ST01-009: no piece of deck 'cards' has id "
                   "'ST01-009' (the copy cards (1).csv holds one, but deck 'cards' reads cards.csv (pieces: file:), not "
                   "its file manager's copy) (expected the id of a piece of cards.yaml, or the piece moved from "
                   "cards (1).csv into cards.csv)\n"), err
    for name, extra in (("cards.xlsx", []), ("cards - Copy.xlsx", [("ST01-009", "カード9", "本文9")])):
        book = openpyxl.Workbook()
        book.active.title = "表紙"
        own = book.create_sheet("カード")
        for row in rows + extra:
            own.append(row)
        book.save(decks / name)
    (decks / "cards.yaml").write_text(sheet_deck.replace("{file: cards.csv}", "{file: cards.xlsx, sheet: カード}"),
                                      encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "data/test/decks/starter.yaml:5:3: " in err, err
    assert "(the copy cards - Copy.xlsx holds one, but deck 'cards' reads cards.xlsx (pieces: file:), not its file " \
        "manager's copy) (expected the id of a piece of cards.yaml, or the piece moved from cards - Copy.xlsx into " \
        "cards.xlsx)" in err, err
