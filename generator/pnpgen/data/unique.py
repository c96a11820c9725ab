"""A deck's ``unique: <field>``: the field no two pieces may share (a scenario card's 番号, a
room's number), checked as the deck is read. A duplicate stops ``check`` and ``build`` at its
line, naming the line of the piece that has it first."""

from __future__ import annotations

import unicodedata
from typing import Any

from pnpgen.data.model import Piece, is_placeholder
from pnpgen.data.piecevalues import Source
from pnpgen.data.yamlsrc import Located
from pnpgen.safetext import INVISIBLE


def written_alike(value: Any) -> str:
    """A unique value as compared: written alike is the same (``１`` and ``1``, ``No.3 `` and
    ``No.3``, ``ST01-002`` and ``ST01-002`` + a zero-width space pasted with it from a web page, which
    shows as nothing; the deck's check and a deck list's names alike)."""
    return INVISIBLE.sub("", unicodedata.normalize("NFKC", str(value))).strip()


def refuse_repeats(rows: Source, doc: Located, field: str, pieces: list[Piece]) -> None:
    """Stop at the first piece whose ``field`` another piece before it has. Not compared: an
    empty or open value (未定: not given yet), a parked piece (count 0, which prints none).
    Written alike counts as the same: ``１`` and ``1``, ``No.3 `` and ``No.3``."""
    seen: dict[Any, int] = {}
    for i, piece in enumerate(pieces):
        value = piece.values.get(field)
        if value is None or is_placeholder(value) or not piece.count or not str(value).strip():
            continue
        same = written_alike(value)
        if same not in seen:
            seen[same] = i
            continue
        j = seen[same]
        first = rows.where(("pieces", j, field)).line  # (its piece's line when its deck's default gives it)
        place = "line" if rows is doc else "row"
        raise rows.error(("pieces", i, field), f"{field} {str(value).strip()!r} is piece {j + 1}'s too, at {place} "
                         f"{first}: the deck says unique: {field}",
                         f"a {field} no other piece of the deck has, or count: 0 to park one")
