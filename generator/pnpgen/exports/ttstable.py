"""Where one game's objects go on the Tabletop Simulator table: its ids and image addresses
(``Table``), where an object stands, several copies in a bag, and the most pixels an image has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from pnpgen.data.model import Deck
from pnpgen.exports.faces import EarlierImages
from pnpgen.exports.ttsids import DECK_ID_BASE

MAX_PX = 4096  # the most pixels a side of an image the table loads (Knowledge Base, Asset Creation)
INCH_PER_UNIT = 1.0  # a TTS unit is about an inch; a custom tile at scale 1 is about 2 units wide


def urls(out_dir: Path, base_url: str | None) -> Callable[[str], str]:
    """File name → the address TTS loads it from."""
    if base_url:
        return lambda name: base_url.rstrip("/") + "/" + quote(name)
    return lambda name: (out_dir / name).resolve().as_uri()


@dataclass(frozen=True)
class Table:
    """Where one game's objects go: its slug (in every GUID), the first CustomDeck id of each of
    its decks, how its images are named and at what resolution."""

    game: str
    first_ids: dict[str, int]
    url: Callable[[str], str]
    dpi: int
    earlier: EarlierImages = field(default_factory=EarlierImages)  # images an earlier export made
    guids: dict[tuple, str] = field(default_factory=dict)  # every object of the game's: ``guids``
    id_base: int = DECK_ID_BASE  # the workspace's first CustomDeck id (--deck-id-base): how many parts a deck may split into
    lang: str = "ja"  # the edition's language: the names that tell pieces apart, and the words pnpgen adds to a Description (表, Front)

    def guid(self, deck: Deck, *parts: object) -> str:
        """An object's GUID, by its name in ``object_keys``."""
        return self.guids[(self.game, deck.id, *parts)]


def transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def one_or_bag(objects: list[dict], deck: Deck, table: Table, x: float) -> dict:
    if len(objects) == 1:
        return objects[0]
    return {"Name": "Bag", "GUID": table.guid(deck), "Nickname": deck.name, "Description": "",
            "Transform": transform(x, 0.0), "ContainedObjects": objects}


def pixels(box: tuple[float, float, float, float], px_per_mm: float) -> tuple[int, int, int, int]:
    """A box (left, top, right, bottom mm) in whole pixels, at least one wide and high."""
    left, top = round(box[0] * px_per_mm), round(box[1] * px_per_mm)
    return left, top, max(left + 1, round(box[2] * px_per_mm)), max(top + 1, round(box[3] * px_per_mm))
