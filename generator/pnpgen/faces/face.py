"""What a face is: one side of one piece, the unit the faces stage renders, remembers and converts."""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.data.model import Deck, Piece


@dataclass(frozen=True)
class Face:
    """What to draw for one side of one piece."""

    deck: Deck
    piece: Piece
    side: str  # "front" | "back"
    copy: int = 1
