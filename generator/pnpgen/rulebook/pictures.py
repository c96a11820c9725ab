"""Pictures of the real pieces for the rulebook: the faces the sheets print, as vector art.

The build passes a ``DeckPicture`` per deck id, made from the same ``Art`` its sheets use;
``pictures_from_game`` renders them itself for ``pnpgen rulebook`` and the tests.
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.data.formats import BLEED_MM, MAX_DPI
from pnpgen.data.model import Deck, Game
from pnpgen.faces.face import Face
from pnpgen.faces.faceset import DeckPicture, face_renderer, outline
from pnpgen.rulebook.figures import load_settings
from pnpgen.svg import convert
from pnpgen.svg.artwork import Art

__all__ = ["DeckPicture", "outline", "pictures_from_game"]


def pictures_from_game(game: Game, templates: Path, bleed_mm: float = BLEED_MM,
                       max_dpi: float = MAX_DPI) -> dict[str, DeckPicture]:
    """Render each deck's first piece (front, and back when the deck has one), plus the pieces
    the game's rulebook figures place; ``max_dpi``: the resolution ceiling their pictures are
    resampled to (0: none), the game's as its build has it (``data/load.py max_dpi_of``)."""
    renderer = face_renderer(Path(templates), game, bleed_mm, max_dpi=max_dpi)
    pieces: dict[str, list[int]] = {}
    turned: dict[str, list[int]] = {}  # the pieces a figure shows turned over (side: back)
    for spec in load_settings(game).figures:
        for p in spec.pieces:
            (turned if p.side == "back" else pieces).setdefault(p.deck, []).append(p.piece)

    def art(deck: Deck, index: int, side: str) -> Art:
        piece = deck.pieces[index - 1]
        where = f"deck {deck.id!r} piece {piece.index} {side}"
        return convert(renderer.render(Face(deck, piece, side, 1)), where,
                       resolve=renderer.art.folder.resolver(where))

    out = {}
    for deck in game.decks:
        extra = {n: art(deck, n, "front") for n in sorted(set(pieces.get(deck.id, []))) if 1 < n <= len(deck.pieces)}
        backs = {n: art(deck, n, "back") for n in sorted(set(turned.get(deck.id, []))) if deck.back and 1 < n <= len(deck.pieces)}
        out[deck.id] = DeckPicture.of(deck, art(deck, 1, "front"), art(deck, 1, "back") if deck.back else None,
                                      bleed_mm, extra, backs)
    return out
