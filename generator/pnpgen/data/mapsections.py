"""A deck's ``sections: {column: col0, row: row0}``: its pieces are the sections of one map (a
wargame's four A3 sheets that join edge to edge), each at the column and row of the whole map its two
fields give. The print files are as without it (each section a piece on its own paper); the Tabletop
Simulator export lays the sections out on the table where they meet, joined, rather than in a bag.
Checked as the deck is read: each at its line."""

from __future__ import annotations

from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.model import Piece, is_placeholder
from pnpgen.data.piecevalues import Source
from pnpgen.data.yamlsrc import Located

SECTIONS_KEYS = ("column", "row")
EXAMPLE = "sections: {column: col0, row: row0} (two int fields of the deck: each section's column and row in the map)"


def read_sections(doc: Located, rows: Source, value: Any, kind: str, fields: dict[str, str],
                  pieces: list[Piece]) -> tuple[str, str]:
    """The fields giving each section's column and row (``column``, ``row``), once every printed
    piece is checked: a whole number from 0 in each, one copy, no two on one place."""
    at = ("sections",)
    if kind == "card":
        raise doc.error(at, "a deck of cards is not a map in sections (Tabletop Simulator makes it a deck of cards)",
                        "sections: in a deck of kind board or tile, or no sections:")
    if not isinstance(value, dict) or set(value) != set(SECTIONS_KEYS):
        raise doc.error(at, f"{v.show(value)} does not name a column field and a row field", EXAMPLE)
    named = []
    for key in SECTIONS_KEYS:
        field = value[key]
        if not isinstance(field, str) or fields.get(field) != "int":
            ints = [name for name, kind_of in fields.items() if kind_of == "int"]
            raise doc.error(at + (key,), f"{key} {v.show(field)} is not an int field of the deck",
                            (f"one of {', '.join(ints)}" if ints else "a field declared as int in fields: (col0: int)")
                            + "; " + EXAMPLE)
        named.append(field)
    column, row = named
    if column == row:
        raise doc.error(at + ("row",), f"row {row!r} is the column's field too", EXAMPLE)
    taken: dict[tuple[int, int], int] = {}
    for i, piece in enumerate(pieces):
        if not piece.count:  # (a parked piece: on no table)
            continue
        place = []
        for field in named:
            n = piece.values.get(field)
            if not isinstance(n, int) or isinstance(n, bool) or is_placeholder(n) or n < 0:
                raise rows.error(("pieces", i, field), f"{field} {v.show(n)} is no place in the map",
                                 f"a whole number from 0, the section's {'column' if field == column else 'row'} "
                                 "(0 the map's first)")
            place.append(n)
        if piece.count != 1:
            raise rows.error(("pieces", i, "count"), f"a map's section is one piece, and this one has {piece.count} "
                             "copies", "count: 1 (a second map is a deck of its own)")
        j = taken.setdefault((place[0], place[1]), i)
        if j != i:
            raise rows.error(("pieces", i, column), f"{column} {place[0]}, {row} {place[1]} is piece {j + 1}'s place "
                             f"too, at line {rows.where(('pieces', j)).line}", "each section's own column and row")
    return column, row
