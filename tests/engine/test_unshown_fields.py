"""What the loaded game keeps for a command alone (export-sheet's column headers) is marked so on
its field (data/model.py UNSHOWN_FIELD), and both digests of what a build shows pass over it by
that mark: the rulebook's key (engine/bookkey.py) and the exports' (engine/export.py), neither
naming the field."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from pnpgen.data.model import UNSHOWN_FIELD, Deck, Piece, shown_field
from pnpgen.engine import bookkey, export
from pnpgen.errors import Where


def _deck(headers: dict[str, str]) -> Deck:
    piece = Piece(index=1, values={"title": "騎士"}, count=2, where=Where(Path("decks/cards.yaml"), 4))
    return Deck("cards", "カード", "card", "rect", (63.0, 88.0), "poker", "x.svg.j2", None, [piece],
                Path("decks/cards.yaml"), sheet_headers=headers)


def test_a_decks_sheet_headers_change_neither_digest_and_neither_names_the_field():
    plain, mapped = _deck({}), _deck({"title": "カード名", "count": "枚数"})
    assert bookkey.plain(plain) == bookkey.plain(mapped)
    assert export._plain(plain) == export._plain(mapped)
    assert bookkey.plain(plain) != bookkey.plain(dataclasses.replace(plain, name="札"))  # a shown field still counts
    assert export._plain(plain) != export._plain(dataclasses.replace(plain, name="札"))
    # a deck's unique: field and a deck list's from: are read by the loading of a deck list alone
    # (data/decklist.py): what the list prints is its pieces, which both digests hold
    assert [f.name for f in dataclasses.fields(Deck) if not shown_field(f)] == ["sheet_headers", "unique", "listed"]
    assert bookkey.plain(plain) == bookkey.plain(dataclasses.replace(plain, unique="title", listed="sheet"))
    assert export._plain(plain) == export._plain(dataclasses.replace(plain, unique="title", listed="sheet"))
    for module in (bookkey, export):
        assert "sheet_headers" not in inspect.getsource(module), module.__name__


def test_the_mark_cannot_be_changed_by_whoever_holds_it():
    """UNSHOWN_FIELD is one module's value that every marked field shares: read-only, not a module
    global a caller could set (``["shown"] = True``) to put a field back in both digests (review38)."""
    with pytest.raises(TypeError):
        UNSHOWN_FIELD["shown"] = True  # type: ignore[index]
    assert not shown_field(next(f for f in dataclasses.fields(Deck) if f.name == "sheet_headers"))
