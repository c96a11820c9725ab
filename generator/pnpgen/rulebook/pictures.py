"""Pictures of the real pieces for the rulebook: the faces the sheets print, as vector art.

The build passes a ``DeckPicture`` per deck id, made from the same ``Art`` its sheets use;
``pictures_from_game`` renders them itself for ``pnpgen rulebook`` and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from pnpgen.data.model import Deck, Game
from pnpgen.render import vector
from pnpgen.render.templates import Face, Renderer
from pnpgen.rulebook.figures import load_settings
from pnpgen.shapes import Point, deck_shape, trim_path


@dataclass
class DeckPicture:
    """One deck's faces as art. ``outline`` is the trim shape in mm from the trim's top-left
    corner, y down; ``pieces`` holds the fronts of other pieces by piece number (1-based), for
    the setup figures (the first piece's front is ``front``)."""

    front: vector.Art
    back: vector.Art | None
    trim_mm: tuple[float, float]
    bleed_mm: float
    outline: list[Point] = field(default_factory=list)
    pieces: Mapping[int, vector.Art] = field(default_factory=dict)

    def piece(self, number: int) -> vector.Art | None:
        return self.front if number == 1 else self.pieces.get(number)


def outline(deck: Deck) -> list[Point]:
    """The deck's cut line as a polygon (circles and rounded corners flattened)."""
    return trim_path(deck_shape(deck)).points()


def pictures_from_game(game: Game, templates: Path, bleed_mm: float = 3.0) -> dict[str, DeckPicture]:
    """Render each deck's first piece (front, and back when the deck has one), plus the pieces
    the game's rulebook figures place."""
    renderer = Renderer(Path(templates), game, bleed_mm)
    pieces: dict[str, list[int]] = {}
    for spec in load_settings(game).figures:
        for p in spec.pieces:
            pieces.setdefault(p.deck, []).append(p.piece)

    def art(deck: Deck, index: int, side: str) -> vector.Art:
        piece = deck.pieces[index - 1]
        where = f"deck {deck.id!r} piece {piece.index} {side}"
        return vector.convert(renderer.render(Face(deck, piece, side, 1)), where,
                              resolve=renderer.art.folder.resolver(where))

    out = {}
    for deck in game.decks:
        extra = {n: art(deck, n, "front") for n in sorted(set(pieces.get(deck.id, []))) if 1 < n <= len(deck.pieces)}
        out[deck.id] = DeckPicture(art(deck, 1, "front"), art(deck, 1, "back") if deck.back else None,
                                   deck.trim_mm, bleed_mm, outline(deck), extra)
    return out
