"""A build that changes the rulebook's pictures of the pieces and not its draft says so: the book
pictures a deck's first card, so an edit of that card reprints a page of the book as well as the
card (a designer's trial, trial85: the new 提灯 reprinted, nothing said of the figure showing the old)."""

from __future__ import annotations

import json

from conftest import make_workspace, run
from pnpgen.engine.run import BOOK_REDRAWN


def _said(ws) -> list[str]:
    return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"]


def test_a_card_the_book_pictures_edited_says_the_book_changed_and_one_it_does_not_picture_does_not(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2", "カード3"], draft=True)
    deck, book = ws / "data" / "test" / "decks" / "cards.yaml", ws / "build" / "test" / "rulebook.pdf"
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    first = book.read_bytes()
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 新しい本文"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert book.read_bytes() == first and BOOK_REDRAWN not in _said(ws)  # カード3 is pictured nowhere in the book
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード1", "text: 一枚目の新しい本文"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert book.read_bytes() != first  # the components page pictures the deck's first card
    assert _said(ws)[-1] == BOOK_REDRAWN and f"  changed: {BOOK_REDRAWN}" in capsys.readouterr().out
