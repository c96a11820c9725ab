"""Issue 22: a document written from the last build's file (pdf/patch.py ``plan``) takes each face's
name hash once a build, for every document showing it (a deck's home sheets, shop file and
unique-card file show the same faces: 3,000 cards' 3,001 names were hashed three times), and the
faces of a page object once, however many copies of a card a shop file prints with it."""

from __future__ import annotations

from pathlib import Path

from conftest import PICTURE_FRONT, picture_workspace, run
from pnpgen.impose.plan import Page
from pnpgen.pdf import patch, writer

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


def _workspace(tmp_path: Path, cards: int) -> Path:
    pieces = "".join(f"  - {{name: 札{i}, count: 3, art: a.png}}\n" for i in range(1, cards + 1))
    return picture_workspace(tmp_path / f"ws{cards}", pieces, PICTURE_FRONT, {"a.png": (200, 40, 40)})


def test_a_text_edit_hashes_each_faces_name_once_and_walks_each_page_object_once(tmp_path, monkeypatch):
    hashed: list[str] = []  # the names hashed by the plans
    walked: list[int] = []  # the page objects whose faces the plans walked
    planned: list[int] = []  # pages of the documents planned
    name_hash, faces, plan = patch.name_hash, Page.faces, writer.plan

    def planning(w, pages, last, path):
        planned.append(len(pages))
        monkeypatch.setattr(Page, "faces", lambda page: walked.append(id(page)) or faces(page))
        monkeypatch.setattr(patch, "name_hash", lambda name: hashed.append(name) or name_hash(name))
        try:
            return plan(w, pages, last, path)
        finally:
            monkeypatch.setattr(Page, "faces", faces)
            monkeypatch.setattr(patch, "name_hash", name_hash)

    monkeypatch.setattr(writer, "plan", planning)
    for n in (6, 12):
        ws = _workspace(tmp_path, n)
        assert run(ws, *BUILD) == 0
        deck = ws / "data" / "test" / "decks" / "cards.yaml"
        hashed.clear()
        walked.clear()
        planned.clear()
        deck.write_text(deck.read_text(encoding="utf-8").replace("{name: 札2,", "{name: 札2x,", 1), encoding="utf-8")
        assert run(ws, *BUILD) == 0
        # home sheets, shop file, unique-card file (the all-in-one file goes on from the home sheets' writer)
        assert len(planned) == 3 and planned[1] == 2 * 3 * n  # (the shop file: each copy's front and back)
        faces_shown = 2 * n  # every card's front and its own back (its name on it)
        # a shop file's three copies of a card are one page object: its faces walked once
        assert len(walked) == len(set(walked)), (n, len(walked), len(set(walked)))
        assert sorted(hashed) == sorted(set(hashed)) and len(hashed) == faces_shown  # each once (three times before)
