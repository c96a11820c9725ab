"""A setup figure's piece shown turned over (``side: back``): a wargame's example of play pictures a
counter at full strength and the same counter flipped to its reduced side (trial69)."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, DRAFT, GAME_YAML, make_workspace, run
from pdfprobe import texts

FIGURE = ("rulebook:\n  figures:\n    - {{after: ゲームの進行, caption: 裏返した駒, size: [140, 100], pieces: "
          "[{{deck: cards, piece: 3, x: 35, y: 50}}, {{deck: cards, piece: 3, x: 105, y: 50, {side}}}]}}\n")
PIECES = "".join(f"  - {{name: カード{i}, text: 本文{i}}}\n" for i in range(1, 6))
REDUCED = "pieces:\n" + "".join(f"  - {{name: カード{i}, text: 本文{i}, reduced: {i}}}\n" for i in range(1, 6))


def _workspace(tmp_path, side: str, deck: str = DECK_YAML, reduced: bool = False):
    ws = make_workspace(tmp_path / "ws", deck=deck + (REDUCED if reduced else PIECES), game=GAME_YAML + FIGURE.format(side=side))
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("（１１枚）", "（５枚）"), encoding="utf-8")
    return ws


def test_a_figure_shows_a_piece_turned_over_and_a_back_edited_sets_the_book_again(tmp_path):
    """The figure's second piece is piece 3's back, whose template prints its reduced value (a field no
    front shows): the page shows 「減3」 beside カード3's front. That value edited, the next build sets
    the book again with it: the book's key holds the backs its figures show, as it holds the fronts."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  reduced: text\n")
    ws = _workspace(tmp_path, "side: back", deck.replace("pieces:\n", ""), reduced=True)
    (ws / "templates" / "test" / "card-back.svg.j2").write_text(
        '{% extends "common/piece.svg.j2" %}{% block art %}'
        '{{ textbox("減" ~ piece.reduced, 5, 40, w - 10, 10, size=10, align="center") }}{% endblock %}', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--quiet") == 0
    page = next(p for p in texts(ws / "build" / "test" / "rulebook.pdf") if "裏返した駒" in p)
    assert "減3" in page and "本文3" in page and "減4" not in page, page
    cards = ws / "data" / "test" / "decks" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("reduced: 3}", "reduced: 三}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--quiet") == 0
    page = next(p for p in texts(ws / "build" / "test" / "rulebook.pdf") if "裏返した駒" in p)
    assert "減三" in page and "減3" not in page, page


@pytest.mark.parametrize(("side", "deck", "said"), [
    ("side: sideways", DECK_YAML, "rulebook.figures.1.pieces.2.side: side 'sideways' is not a side of a piece "
                                  "(expected front (the default) or back)"),
    ("side: back", DECK_YAML.replace("back: card-back.svg.j2\n", ""),
     "rulebook.figures.1.pieces.2.side: deck 'cards' is single-sided: its pieces have no back to show"),
])
def test_a_side_that_is_not_there_is_one_line_at_its_key(tmp_path, capsys, side, deck, said):
    ws = _workspace(tmp_path, side, deck)
    assert run(ws, "check", "--game", "test") == 2
    said_all = "".join(capsys.readouterr())  # (check lists the problems on stdout)
    assert said in said_all and "data/test/game.yaml:10:" in said_all and "Traceback" not in said_all, said_all


def test_a_piece_number_past_the_deck_names_the_pieces_it_may_be(tmp_path, capsys):
    """English trial (trial80): ``piece: 99`` said ``expected 1 to 10 (the order of its pieces:)``, a
    list cut off at its colon. It names the numbers with their pieces, the first five and the last."""
    ws = _workspace(tmp_path, "side: front")
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("piece: 3, x: 105", "piece: 99, x: 105"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    said = "".join(capsys.readouterr())
    assert "rulebook.figures.1.pieces.2.piece: piece 99 is not in deck 'cards' (expected 1 to 5, its pieces in the " \
           "order the deck lists them: 1 カード1, 2 カード2, 3 カード3, 4 カード4, 5 カード5)" in said, said
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        DECK_YAML + "".join(f"  - {{name: カード{i}, text: 本文{i}}}\n" for i in range(1, 9)), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    said = "".join(capsys.readouterr())
    assert "(expected 1 to 8, its pieces in the order the deck lists them: 1 カード1, 2 カード2, 3 カード3, 4 カード4, " \
           "5 カード5, …, 8 カード8)" in said and "Traceback" not in said, said


def test_a_piece_number_past_the_deck_names_pieces_sharing_a_name_by_what_tells_them_apart(tmp_path, capsys):
    """A suit's cards named alike (月, ranks 1–5): ``piece: 75`` listed 「1 月, 2 月, …」, nothing
    telling which is which (loop51); each is named as the change report and order.csv name it."""
    ws = _workspace(tmp_path, "side: front")
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("piece: 3, x: 105", "piece: 75, x: 105"), encoding="utf-8")
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        DECK_YAML.replace("  text: text\n", "  text: text\n  rank: int\n")
        + "".join(f"  - {{name: 月, text: 本文, rank: {i}}}\n" for i in range(1, 6)), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    said = "".join(capsys.readouterr())
    assert "piece 75 is not in deck 'cards' (expected 1 to 5, its pieces in the order the deck lists them: " \
           "1 月［1］, 2 月［2］, 3 月［3］, 4 月［4］, 5 月［5］)" in said, said
