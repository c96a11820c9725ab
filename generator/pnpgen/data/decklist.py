"""A deck list: a deck file that takes its pieces from another deck's, by that deck's ``unique:``
field, with counts of its own (a starter deck of a trading-card game's card sheet, ``ST01-042: 3``).

    name: スターターA
    from: cards                 # the deck (file stem) whose pieces it lists
    list: {ST01-001: 3, ST01-002: 2}

The listed deck is the source deck as drawn (its size, templates or layout, fields) with the
listed pieces alone, in the list's order, at the list's counts: its faces are the source's, so
a face both print is one face of the build (faces/ keys a face by its SVG)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.mapkeys import one_line_text, parse_at
from pnpgen.data.model import Deck, Piece
from pnpgen.data.tuckbox import DeckLookup
from pnpgen.data.unique import written_alike
from pnpgen.data.yamlsrc import Located

LIST_KEYS = ("name", "from", "list")


def is_list(data: dict) -> bool:
    """Is the deck file a deck list (``from:`` or ``list:``)?"""
    return "from" in data or "list" in data


def listed_deck(doc: Located, data: dict, path: Path, decks: DeckLookup | None,
                layout_template: Any) -> Deck:
    """The deck a deck list file makes; every mistake told at its line. ``layout_template``: the
    name a deck id's layout side is compiled under (data/deckfile.py)."""
    for key in data:
        if key not in LIST_KEYS:
            raise doc.error((key,), f"a deck list takes no {key}: it prints its pieces as the deck named by from: "
                            "draws them", "name:, from: and list: alone (the size, templates or layout and fields "
                            "are the source deck's)", key=True)
    for required in ("name", "from", "list"):
        if required not in data:
            raise doc.error((), f"a deck list without {required}:",
                            {"name": "'name:' the deck's name", "from": "'from: cards', the deck (file name without "
                             ".yaml) whose pieces it lists", "list": "'list: {ST01-001: 3, …}', each piece's "
                             "unique value and its count"}[required])
    own = path.stem
    source_id = parse_at(doc, ("from",), v.name, data["from"], "a deck id")
    ids = [i for i in (decks.ids if decks is not None else []) if i != own]
    if source_id == own:
        raise doc.error(("from",), "a deck list cannot list its own pieces", "another deck's id")
    if source_id not in ids:
        import difflib  # (only for a mistake)

        near = difflib.get_close_matches(source_id, ids, n=1, cutoff=0.5)
        raise doc.error(("from",), f"no deck {source_id!r} in this game" + (f"; did you mean {near[0]}?" if near else ""),
                        "the id (file name without .yaml) of the deck whose pieces it lists: " + ", ".join(ids[:8]))
    assert decks is not None
    source = decks(source_id)
    if source is None:  # still loading: it lists (or holds) this one
        raise doc.error(("from",), f"deck {source_id!r} takes its pieces from this deck in turn (a circle)",
                        "from: a deck whose pieces are its own")
    if source.listed is not None:
        raise doc.error(("from",), f"deck {source_id!r} is itself a deck list (from: {source.listed})",
                        f"from: {source.listed}, the deck whose pieces it lists")
    if source.unique is None:
        raise doc.error(("from",), f"deck {source_id!r} names no unique field, by which a list names its pieces",
                        f"unique: <field> in {source.source.name} (its set number, e.g. unique: number)")
    field = source.unique
    by_id: dict[str, Piece] = {}
    for piece in sorted(source.pieces, key=lambda p: not p.count):  # a printed piece before a parked old one
        value = piece.values.get(field)
        if value is not None and written_alike(value):
            by_id.setdefault(written_alike(value), piece)
    listed = parse_at(doc, ("list",), v.mapping, data["list"], "list")
    if not listed:
        raise doc.error(("list",), "the list names no piece", f"'list: {{<{field}>: <count>, …}}'")
    pieces: list[Piece] = []
    seen: dict[str, Any] = {}
    for key, count in listed.items():
        name = written_alike(key)
        if name in seen:
            raise doc.error(("list", key), f"{key!r} is listed twice (as {seen[name]!r}, line "
                            f"{doc.where(('list', seen[name]), key=True).line})", "each piece once, its count summed",
                            key=True)
        seen[name] = key
        if name not in by_id:
            import difflib  # (only for a mistake)

            near = difflib.get_close_matches(name, list(by_id), n=3, cutoff=0.5)
            raise doc.error(("list", key), f"no piece of deck {source_id!r} has {field} {name!r}" +
                            (f"; nearest: {', '.join(near)}" if near else ""),
                            f"a {field} of {source.source.name}", key=True)
        n = parse_at(doc, ("list", key), v.count, count, v.COUNT, f"'{key}: 3'")
        piece = by_id[name]
        pieces.append(dataclasses.replace(piece, index=len(pieces) + 1, count=n, deck_label="",
                                          field_lines=dict(piece.field_lines), field_keys=dict(piece.field_keys)))
    name_text = one_line_text(doc, data["name"], ("name",), "a deck's name")
    if len(pieces) == 1:
        pieces[0].deck_label = name_text
    lines = {piece.where.line for piece in pieces} | {line for piece in pieces for line, _ in piece.field_lines.values()}
    deck = dataclasses.replace(
        source, id=own, name=name_text, name_where=doc.where(("name",)), pieces=pieces, source=path,
        placeholders=[p for p in source.placeholders if p[0].line in lines], worksheet=None, sheet_headers={},
        follows=None, listed=source_id, options=dict(source.options))
    if source.layout is not None:
        deck.front = layout_template(own, "front")
        deck.back = layout_template(own, "back") if source.back is not None else None
    copies = sum(p.count for p in pieces)
    if copies > v.COUNT[1]:
        raise doc.error(("list",), f"the deck prints {copies:,} copies",
                        f"at most {v.COUNT[1]:,} copies in one deck (split it into several decks)")
    return deck
