"""A warm process's book takes the paragraphs its last setting drew (rulebook/drawnparas.py):
the paragraphs drawn counted, the files the same bytes as a setting that draws every one."""

from __future__ import annotations

from pathlib import Path

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook.book import build_rulebook
from pnpgen.rulebook.drawnparas import DrawnParagraphs

RULES = "".join(f"　{n}番目の手番では、好きな行動をひとつ選ぶ。\n" for n in "１２３４５６")


def _book(ws: Path, drawn: DrawnParagraphs | None) -> bytes:
    game = load_game(Workspace(ws), "test")
    return build_rulebook(game, ws / "fonts", booklet=False, drawn=drawn).files["rulebook.pdf"]


def test_a_book_set_again_takes_its_paragraphs_and_a_changed_one_is_drawn_the_same_bytes(tmp_path):
    """Set once (its paragraphs drawn), set again unchanged (none drawn: all taken), then with its
    last paragraph edited as a count is (the one paragraph drawn, the others taken): each time the
    same bytes as a book set with nothing kept."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8") + RULES
    draft.write_text(text, encoding="utf-8")
    kept = DrawnParagraphs()
    first = _book(ws, kept)
    assert kept.drawn >= 10  # (a later pass of the same setting may take a paragraph the pass before drew)
    assert _book(ws, kept) == first
    assert kept.drawn == 0 and kept.taken >= 10

    draft.write_text(text.replace("６番目の手番では、好きな行動をひとつ", "６番目の手番では、好きな行動をつとひ"), encoding="utf-8")
    edited = _book(ws, kept)
    assert (kept.drawn, kept.taken >= 10) == (1, True)
    assert edited == _book(ws, None) != first


def test_a_paragraph_whose_characters_come_out_with_other_codes_is_drawn_again(tmp_path):
    """The book's first paragraph shows new characters after a setting that drew the others: every
    later paragraph that shows a character first shown after them has it at another code, and is
    drawn; the file is the one a setting with nothing kept makes."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8") + RULES
    draft.write_text(text, encoding="utf-8")
    kept = DrawnParagraphs()
    _book(ws, kept)
    # characters no other paragraph shows: the subsets' codes of every character first shown after them move
    draft.write_text(text.replace("テスト用の小さなゲームです。", "テスト用の小さなゲームです。麒麟と鳳凰。"), encoding="utf-8")
    assert _book(ws, kept) == _book(ws, None)
    assert kept.drawn >= 2  # the edited paragraph and at least one after it
