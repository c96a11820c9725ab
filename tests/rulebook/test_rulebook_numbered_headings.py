"""A draft's `##` headings numbered by the designer (``## 5. Playing the game`` over its cases 5.1,
5.2): the book numbered them again, ``4 5. Playing the game``, its own count beside the draft's."""

from __future__ import annotations

from conftest import make_workspace
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook

ENGLISH = ("# Test Game (Draft 1)\n\n## 1. Overview\n\nTwo warbands fight.\n\n## 3. Setup\n\n1. Lay the tiles.\n"
           "2. Place the objectives.\n\n## 5. Playing the game\n\n5.1 Rounds. The game lasts 6 rounds.\n\n"
           "5.2 Activation. A unit moves, then attacks (see 5.1).\n\n## 6. End of the game\n\n"
           "The player who holds more objectives wins.\n")


def test_a_heading_the_draft_numbers_keeps_its_number_alone(tmp_path):
    """A designer's trial (trial55): the draft's own section numbers are printed as written, as a
    wargame's ``## 5.0 Movement`` is, and the book adds no count of its own before them."""
    game_yaml = "title: Test Game\nlanguages: [en]\ndraft: 1\nplayers: 2\ndate: 2026-11-30\n"
    ws = make_workspace(tmp_path / "ws", game=game_yaml)
    (ws / "data" / "test" / "draft.txt").write_text(ENGLISH, encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    pages = texts(result.files["rulebook.pdf"])
    contents = next(t for t in pages if "Contents" in t)
    assert "5. Playing the game" in contents and "3 5." not in contents and "4 5." not in contents, contents
    body = next(t for t in pages if "Activation" in t)
    assert "5. Playing the game" in body and "5.1" in body and "3 5. Playing" not in body, body
