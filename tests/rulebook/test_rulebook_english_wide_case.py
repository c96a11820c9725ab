"""An English designer typing on a Japanese IME writes a rule case full-width, 「５．１　A unit…」:
it was read as a paragraph (no case, no hanging number, no link to it). It is read as the case
5.1, printed half-width as the book's numbers are, and the proofing report suggests the
half-width form at its draft line."""

from __future__ import annotations

import io

from pypdf import PdfReader

from conftest import DRAFT, make_workspace
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.book import read_rulebook
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.tree import Bullet, Subheading

ENGLISH = ("# Test Game (Draft 1)\n\n## 5.0 Movement\n\n５．１　A unit may move up to its allowance.\n\n"
           "５．２ Terrain\n\n5.2.1 Forest costs two (see ５．１).\n\n## 6.0 Combat\n\n6.1 Attack an adjacent unit.\n")


def test_a_full_width_case_in_an_english_draft_is_the_case_and_a_proofing_note(tmp_path):
    movement = parse(ENGLISH, "en").rules[0]
    case, terrain = movement.children
    assert isinstance(case, Bullet) and case.mark == "5.1" and case.text.startswith("A unit may move")
    assert isinstance(terrain, Subheading) and terrain.text == "5.2 Terrain"
    assert [c.mark for c in terrain.children] == ["5.2.1"]
    assert parse(ENGLISH.replace("５．１　", "5.1 "), "en") == parse(ENGLISH, "en")  # read as the half-width
    game_yaml = ("languages: [ja, en]\ndefault_language: ja\ntitle: {ja: テストゲーム, en: Test Game}\n"
                 "draft: 3\nplayers: 2-4\ndate: 2026-11-30\n")
    ws = make_workspace(tmp_path / "ws", game=game_yaml)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    (ws / "data" / "test" / "draft.en.txt").write_text(ENGLISH, encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    notes = [f.file for f in read_rulebook(game, ws / "fonts").findings if "full-width" in f.file]
    assert [n.split("draft.en.txt:")[1] for n in notes] == [
        "5: “５．１” → “5.1” (a case number typed full-width (an IME in Japanese mode); the book prints it "
        "half-width): ５．１\u3000A unit may move up to i…",
        "7: “５．２” → “5.2” (a case number typed full-width (an IME in Japanese mode); the book prints it "
        "half-width): ５．２ Terrain"], notes
    result = build_rulebook(game, ws / "fonts", rules_only=True)
    page = next(t for t in texts(result.files["rulebook.pdf"]) if "Forest" in t)
    assert "5.1" in page and "5.2 Terrain" in page and "５．１" not in page.split("Forest")[0], page
    reader = PdfReader(io.BytesIO(result.files["rulebook.pdf"]))
    links = [a.get_object() for p in reader.pages for a in p.get("/Annots") or []]
    assert [a for a in links if a["/Dest"][1] == "/XYZ"], links  # "see ５．１" links to the case
