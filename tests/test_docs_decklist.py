"""docs/data-format.md, "Deck lists" and "Starter decks in the card sheet itself": a TCG designer's
deck lists ("these counts of those cards"), as deck files naming the sheet's cards, or as a count
column each in the card sheet. The section's sheet and deck file
build as written: each starter deck prints its own cards alone, and a card's text edited is told
only on the lines of the decks that print it."""

from __future__ import annotations

import json
import re
import subprocess

from conftest import REPO, make_workspace, run
from pdfprobe import texts

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### Starter decks in the card sheet itself")
SECTION = FORMAT[START:FORMAT.index("\n## ", START + 5)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
LISTS = FORMAT[FORMAT.index("### Deck lists"):START]


def _block(path: str) -> str:
    """The section's code block that opens with ``path``."""
    (body,) = [body for _, body in FENCE.findall(LISTS) if body.startswith((f"# {path}\n", f"{{# {path} #}}\n"))]
    return body


def test_the_deck_list_example_builds_as_written_and_says_its_errors(tmp_path, capsys):
    """The section's card sheet and starter deck as written: the list's copies, its count on the
    rulebook's components list, and the error the section quotes at its line."""
    tcg, starter = _block("data/<slug>/decks/tcg.yaml"), _block("data/<slug>/decks/starter-a.yaml")
    ws = make_workspace(tmp_path / "ws", deck=tcg.replace("# data/<slug>/decks/tcg.yaml\n", ""), draft=True)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "tcg.yaml")
    (decks / "starter-a.yaml").write_text(starter, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    shop = ws / "build" / "test" / "shop"
    fronts = [n for page in texts(shop / "starter-a.pdf")[::2] for n in ("陽の兵", "霧の精霊", "風の子") if n in page]
    assert fronts == ["陽の兵"] * 3 + ["風の子"] * 2, fronts
    book = "".join(texts(ws / "build" / "test" / "rulebook.pdf")).replace(" ", "").replace("\n", "")
    assert "スターターA5枚" in book, book
    said = re.search(r"`(data/<slug>/decks/starter-a\.yaml:6:3: list\.ST01-004: [^`]*)`", LISTS).group(1)
    (decks / "starter-a.yaml").write_text(starter.replace("ST01-003", "ST01-004"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    assert said.replace("<slug>", "test").replace("\n", " ") in capsys.readouterr().err


def test_the_list_kept_in_a_spreadsheet_builds_as_written_its_edit_and_error_as_said(tmp_path, capsys):
    """The section's list in a CSV of its own (saved by Google Sheets: BOM, CRLF): its rows in
    order, a count edited named on that deck's change line alone, an unknown id told at its cell."""
    tcg, starter = _block("data/<slug>/decks/tcg.yaml"), _block("data/<slug>/decks/starter-b.yaml")
    (rows,) = [body for lang, body in FENCE.findall(LISTS) if lang == "csv"]
    ws = make_workspace(tmp_path / "ws", deck=tcg.replace("# data/<slug>/decks/tcg.yaml\n", ""))
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "tcg.yaml")
    (decks / "starter-b.yaml").write_text(starter, encoding="utf-8")
    csv = decks / "starter-b.csv"
    csv.write_bytes(("\ufeff" + rows.replace("\n", "\r\n")).encode())
    build = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
    assert run(ws, *build) == 0
    shop = ws / "build" / "test" / "shop"
    fronts = [n for page in texts(shop / "starter-b.pdf")[::2] for n in ("陽の兵", "霧の精霊", "風の子") if n in page]
    assert fronts == ["霧の精霊"] + ["風の子"] * 3, fronts
    (decks / "starter-c.yaml").write_text(_block("data/<slug>/decks/starter-c.yaml"), encoding="utf-8")
    (ws / "templates" / "test" / "starter-back.svg.j2").write_text(_block("templates/<slug>/starter-back.svg.j2"),
                                                                  encoding="utf-8")
    assert run(ws, *build) == 0  # the list's own back, its name on it, and its own paper
    pages = [page.replace(" ", "") for page in texts(shop / "starter-c.pdf")]
    assert ["霧の精霊" in page for page in pages] == [True, False] * 2 and pages[1::2] == ["スターターC"] * 2, pages
    assert "612 x 792 pts (letter)" in subprocess.run(["pdfinfo", ws / "build" / "test" / "starter-c.pdf"],
                                                     capture_output=True, text=True, check=True).stdout
    (decks / "starter-c.yaml").unlink()
    assert run(ws, *build) == 0
    said = re.search(r"\(`starter-b: 4 → 5 \(\+1 風の子\)`\)", LISTS)
    csv.write_bytes(("\ufeff" + rows.replace("ST01-003,3", "ST01-003,4").replace("\n", "\r\n")).encode())
    assert said and run(ws, *build) == 0
    changes = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"]
    assert [line.split(";")[0] for line in changes] == ["starter-b: 4 → 5 (+1 風の子)"], changes
    error = re.search(r"`(data/<slug>/decks/starter-b\.csv:3:1: [^`]*)`", LISTS).group(1)
    csv.write_text(rows.replace("ST01-003", "ST01-004"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    assert error.replace("<slug>", "test").replace("\n", " ") in capsys.readouterr().err


def test_each_starter_deck_prints_its_own_cards_and_an_edit_is_told_where_the_card_prints(tmp_path, capsys):
    (sheet,) = [body for lang, body in FENCE.findall(SECTION) if lang == "csv"]
    (st01,) = [body for lang, body in FENCE.findall(SECTION) if lang == "yaml"]
    st02 = st01.replace("スターターデッキ1", "スターターデッキ2").replace("ST02: int", "ST01: int").replace("ST01: count", "ST02: count")
    cards = st01.replace("スターターデッキ1", "全カード").replace("{枚数: int, ST02: int}", "{ST01: int, ST02: int}") \
        .replace("ST01: count", "枚数: count")
    assert "maps `枚数: count` and declares `fields: {ST01: int, ST02:\nint}`" in SECTION  # (as the section says)
    ws = make_workspace(tmp_path / "ws", deck=cards)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.csv").write_text("\ufeff" + sheet, encoding="utf-8")
    (decks / "st01.yaml").write_text(st01, encoding="utf-8")
    (decks / "st02.yaml").write_text(st02, encoding="utf-8")
    build = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
    assert run(ws, *build) == 0
    shop = ws / "build" / "test" / "shop"

    def names(deck: str) -> list[str]:  # each front page's card (a shop file: a front, then its back)
        return [n for page in texts(shop / f"{deck}.pdf")[::2] for n in ("陽の兵", "霧の精霊") if n in page]
    assert (names("st01"), names("st02"), names("cards")) == (["陽の兵"] * 3, ["霧の精霊"] * 4, ["陽の兵", "霧の精霊"])
    csv = decks / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("相手は手札を１枚捨てる。", "相手は手札を２枚捨てる。"), encoding="utf-8")
    assert run(ws, *build) == 0
    changes = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"]
    assert [line.split(" (")[0] for line in changes] == ["cards: 2 → 2", "st02: 4 → 4"], changes
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "st01: data/test/decks/cards.csv:3: 霧の精霊: parked (count: 0, prints none)" in out, out
