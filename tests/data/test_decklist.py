"""A deck list (data/decklist.py): a deck file naming another deck's pieces by its ``unique:``
field with counts of its own — a trading-card game's starter deck of its card sheet (trial52)."""

from __future__ import annotations

from pypdf import PdfReader

from conftest import DECK_YAML, make_workspace, run
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
    "its key": (STARTER + "back: card-back.svg.j2\n", "starter.yaml:6:1: back: a deck list takes no back"),
    "a file": (STARTER.replace("list:\n  ST01-002: 3\n  ST01-005: 2\n", "list: {file: starter.csv}\n"),
               "starter.yaml:3:8: list.file: a list kept in a file of its own (list: {file: …}) is not read"),
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


def test_export_sheet_of_a_list_does_not_tell_it_to_read_pieces_from_the_file(tmp_path, capsys):
    """export-sheet --deck starter wrote the list's cards and said 'to read them from this file:
    pieces: {file: starter.csv}', a key a deck list refuses (hostile36)."""
    ws = _workspace(tmp_path, {"starter": STARTER})
    capsys.readouterr()
    assert run(ws, "export-sheet", "--game", "test", "--deck", "starter") == 0
    out = capsys.readouterr().out
    assert "pieces: {file" not in out and "the deck lists pieces of cards (from: cards, list:)" in out, out
    rows = (ws / "data" / "test" / "decks" / "starter.csv").read_text(encoding="utf-8-sig").splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["カード2", "カード5"] and rows[1].endswith(",3"), rows
