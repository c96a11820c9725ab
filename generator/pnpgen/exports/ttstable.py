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
from pnpgen.units import MM_PER_INCH

MAX_PX = 4096  # the most pixels a side of an image the table loads (Knowledge Base, Asset Creation)
INCH_PER_UNIT = 1.0  # a TTS unit is about an inch; a custom tile at scale 1 is about 2 units wide
GAME_ROW_UNITS = 40.0  # the whole game's saved object: how wide a row of its decks grows before the next row
GAME_GAP_UNITS = 1.0  # … and the table between two decks, and between two rows
BAG_UNITS = 2.0  # how wide a bag lies on the table, about (its pieces are inside it)


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


def laid_out(decks: list[tuple[list[dict], tuple[float, float]]]) -> list[dict]:
    """The whole game's objects for one saved object, each deck's objects (as its own saved object
    places them) moved as one onto the table: decks side by side in the export's order, a row at
    most ``GAME_ROW_UNITS`` wide (a deck wider than that alone on its row), the rows from the far
    side towards the first seat (-Z), ``GAME_GAP_UNITS`` apart, the whole centred on the table's
    middle. ``decks``: each deck's objects and its pieces' trim (mm, as exported), from which the
    room an object takes is reckoned as its scale is (a tile's longer side in inches ÷ 2 at scale
    1, about 2 units: about its size in inches); a bag takes ``BAG_UNITS``."""
    boxes = [_extent(objects, trim) for objects, trim in decks]
    moves: list[tuple[float, float]] = []
    x = top = 0.0
    depth = 0.0  # the deepest deck of the row so far
    for left, right, near, far in boxes:
        width = right - left
        if x > 0 and x + width > GAME_ROW_UNITS:
            x, top, depth = 0.0, top - depth - GAME_GAP_UNITS, 0.0
        moves.append((x - left, top - far))
        x += width + GAME_GAP_UNITS
        depth = max(depth, far - near)
    placed = [(left + dx, right + dx, near + dz, far + dz) for (left, right, near, far), (dx, dz) in zip(boxes, moves)]
    mid_x = (min(b[0] for b in placed) + max(b[1] for b in placed)) / 2 if placed else 0.0
    mid_z = (min(b[2] for b in placed) + max(b[3] for b in placed)) / 2 if placed else 0.0
    out = []
    for (objects, _), (dx, dz) in zip(decks, moves):
        for obj in objects:
            at = obj["Transform"]
            out.append(obj | {"Transform": at | {"posX": round(at["posX"] + dx - mid_x, 3),
                                                 "posZ": round(at["posZ"] + dz - mid_z, 3)}})
    return out


def _extent(objects: list[dict], trim: tuple[float, float]) -> tuple[float, float, float, float]:
    """The table a deck's objects cover (left, right, near, far: X and Z, TTS units)."""
    sides = []
    for obj in objects:
        w, d = (BAG_UNITS, BAG_UNITS) if obj["Name"] == "Bag" else (trim[0] / MM_PER_INCH, trim[1] / MM_PER_INCH)
        x, z = obj["Transform"]["posX"], obj["Transform"]["posZ"]
        sides.append((x - w / 2, x + w / 2, z - d / 2, z + d / 2))
    return (min(s[0] for s in sides), max(s[1] for s in sides), min(s[2] for s in sides), max(s[3] for s in sides))
