"""What the loaded game keeps for a command alone (how a message names a piece's field) is marked so on
its field (data/model.py UNSHOWN_FIELD), and both digests of what a build shows pass over it by
that mark: the rulebook's key (engine/bookkey.py) and the exports' (engine/export.py), neither
naming the field. So are what no export shows (EXPORTS_UNSHOWN_FIELD: where a thing was read
from, what loading said, the parts bought) and what the book does not (BOOK_UNSHOWN_FIELD: a
piece's own count): each digest passes over fields by the marks alone, naming none by hand."""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

from pnpgen.data.model import UNSHOWN_FIELD, Deck, Game, Piece, shown_field, shown_in_book, shown_in_exports
from pnpgen.data.sheetlayouts import SheetStock
from pnpgen.engine import bookkey, export
from pnpgen.errors import Where


def _deck(headers: dict[str, str]) -> Deck:
    piece = Piece(index=1, values={"title": "騎士"}, count=2, where=Where(Path("decks/cards.yaml"), 4))
    return Deck("cards", "カード", "card", "rect", (63.0, 88.0), "poker", "x.svg.j2", None, [piece],
                Path("decks/cards.yaml"), sheet_headers=headers)


def test_a_decks_sheet_headers_change_the_exports_digest_not_the_books_and_neither_names_the_field():
    """A Tabletop Simulator card's Description labels a field by its sheet's header (fixesO): the
    exports' digest reads the headers; no page of the book shows them."""
    plain, mapped = _deck({}), _deck({"title": "カード名", "count": "枚数"})
    assert bookkey.plain(plain) == bookkey.plain(mapped)
    assert export._plain(plain) != export._plain(mapped)
    assert bookkey.plain(plain) != bookkey.plain(dataclasses.replace(plain, name="札"))  # a shown field still counts
    assert export._plain(plain) != export._plain(dataclasses.replace(plain, name="札"))
    # a deck's unique: field and a deck list's from: are read by the loading of a deck list alone
    # (data/decklist.py): what the list prints is its pieces, which both digests hold
    assert [f.name for f in dataclasses.fields(Deck) if not shown_field(f)] == ["unique", "listed"]
    assert not shown_in_book(next(f for f in dataclasses.fields(Deck) if f.name == "sheet_headers"))
    assert bookkey.plain(plain) == bookkey.plain(dataclasses.replace(plain, unique="title", listed=("sheet",)))
    assert export._plain(plain) == export._plain(dataclasses.replace(plain, unique="title", listed=("sheet",)))
    for module in (bookkey, export):
        assert "sheet_headers" not in inspect.getsource(module), module.__name__


def test_the_mark_cannot_be_changed_by_whoever_holds_it():
    """UNSHOWN_FIELD is one module's value that every marked field shares: read-only, not a module
    global a caller could set (``["shown"] = True``) to put a field back in both digests (review38)."""
    with pytest.raises(TypeError):
        UNSHOWN_FIELD["shown"] = True  # type: ignore[index]
    assert not shown_field(next(f for f in dataclasses.fields(Piece) if f.name == "field_lines"))


MODEL = (Game, Deck, Piece, SheetStock)  # what a digest walks that carries marks


def _marked() -> set[str]:
    return {f.name for kind in MODEL for f in dataclasses.fields(kind) if not (shown_in_book(f) and shown_in_exports(f))}


def test_a_pieces_count_is_in_the_exports_digest_not_the_books_and_its_lines_in_neither():
    """A piece's own count: order.csv and the virtual table print it, the book its deck's total
    alone; where its fields are written and how a message names them, nothing prints."""
    piece = _deck({}).pieces[0]
    other = dataclasses.replace(piece, count=5, field_lines={"title": (4, 7)}, field_keys={"title": "カード名 (column B)"})
    assert bookkey.plain(piece) == bookkey.plain(other)
    assert export._plain(piece) != export._plain(other)
    assert export._plain(piece) == export._plain(dataclasses.replace(other, count=piece.count))
    assert bookkey.plain(_deck({}))["total"] == 2  # (the deck's total still counts)
    assert [f.name for f in dataclasses.fields(Piece) if not shown_field(f)] == ["field_lines", "open", "field_keys", "count_where",
                                                                            "editions"]
    # the other editions' texts, kept for the change report: neither the book nor an export shows them
    translated = dataclasses.replace(piece, editions={"en": {"title": "Fire"}})
    assert bookkey.plain(piece) == bookkey.plain(translated) and export._plain(piece) == export._plain(translated)
    # a piece's place shows in no export, and in the book's key (its proof list names lines)
    moved = dataclasses.replace(piece, where=Where(Path("decks/cards.yaml"), 40))
    assert export._plain(piece) == export._plain(moved)
    assert bookkey.plain(piece) != bookkey.plain(moved)


def test_the_placeholders_the_model_works_out_are_in_the_books_key_not_the_exports():
    """A piece's own 未定 (``open``, a field neither digest reads) makes what the model works out
    from it: whether the piece shows one (the cover pictures a deck only if not) and its deck's
    list (the proof list); the book's key holds both, the exports' neither. A parked piece's shows
    nothing, so its deck's key is the key of a deck without it."""
    deck = _deck({})
    piece = deck.pieces[0]
    unsettled = dataclasses.replace(piece, open=[(Where(Path("decks/cards.yaml"), 5), "騎士.title", "未定")])
    assert (piece.shows_placeholder, unsettled.shows_placeholder) == (False, True)
    assert bookkey.plain(piece) != bookkey.plain(unsettled)
    assert export._plain(piece) == export._plain(unsettled)
    listed = dataclasses.replace(deck, pieces=[unsettled])
    assert listed.placeholders == unsettled.open and deck.placeholders == []
    assert bookkey.plain(deck) != bookkey.plain(listed)
    assert export._plain(deck) == export._plain(listed)
    parked = dataclasses.replace(unsettled, count=0)
    assert not parked.shows_placeholder
    assert dataclasses.replace(deck, pieces=[parked]).placeholders == []
    assert bookkey.plain(dataclasses.replace(deck, pieces=[parked])) == bookkey.plain(dataclasses.replace(
        deck, pieces=[dataclasses.replace(piece, count=0)]))


def test_a_place_read_from_is_marked_out_of_the_exports_digest():
    """A field holding where a thing was written (a ``Where``, as a deck's ``size_where``) shows in no
    export: a new one unmarked would make an added line of English date the Japanese exports."""
    placed = [f"{kind.__name__}.{f.name}" for kind in MODEL for f in dataclasses.fields(kind)
              if "Where" in str(f.type) and shown_in_exports(f)]
    assert placed == []


def test_neither_digest_names_a_field_it_passes_over():
    """The digests name no marked field (``"count"``, ``"where"``) nor a kind of name
    (``"_where"``): a field is left out of them by its mark on the model, once."""
    marked = _marked()
    assert {"sheet_headers", "count", "field_lines", "where", "size_where", "notes"} <= marked
    for module in (bookkey, export):
        said = {node.value for node in ast.walk(ast.parse(inspect.getsource(module)))
                if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        named = sorted(w for w in said if w in marked or any(m.endswith(w) and w.startswith("_") for m in marked))
        assert named == [], module.__name__
