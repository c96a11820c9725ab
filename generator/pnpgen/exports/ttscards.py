"""Tabletop Simulator's cards: a deck as a ``DeckCustom``, its faces on sheets of at most 10×7
cards and 4096 px a side whose last slot is the hidden card, one back image (or a back sheet when
backs differ), a ``DeckIDs`` entry per printed copy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from pnpgen.data.model import Deck
from pnpgen.errors import InputError
from pnpgen.exports import ttsids
from pnpgen.exports.faces import PageStyle, PngFiles, UniqueFace, face_images
from pnpgen.exports.ttstable import MAX_PX, Table, transform
from pnpgen.exports.ttswords import described, table_names
from pnpgen.units import mm_to_px

MAX_COLS, MAX_ROWS = 10, 7  # a sheet's most cards across and down
NO_BACK = (96, 96, 96)  # a single-sided card's back on the table
# CustomDeck.Type, the API's custom card type (other shapes: rect); which way up a hex card is cut
# neither source says (docs/exports.md)
CARD_TYPES = {"rounded": 0, "rect": 1, "hex": 3, "circle": 4}

# A card face down shows neither its face nor its name and text (a hidden role's name in the tooltip
# of the card dealt to a player told the table who is who), and goes into a player's hand: what
# Tabletop Simulator writes for a card it saves, never left to its loader's default.
HELD_CARD = {"HideWhenFaceDown": True, "Hands": True}


@dataclass(frozen=True)
class Sheet:
    """A Tabletop Simulator image sheet: how many cards across and down and each card's pixels, within the
    4096-pixel limit it loads."""

    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


def sheet_for(n: int, trim: tuple[float, float], dpi: int) -> Sheet:
    """The grid holding ``n`` faces plus the hidden card whose cells are the largest (at ``dpi`` or
    smaller, so the sheet stays within 4096 px a side), with the fewest empty slots among those,
    then the widest: 24 poker cards on 5×5 at 200 dpi, not on 10×3 at 165 dpi."""
    slots = n + 1
    w, h = trim
    best: tuple[tuple[int, int, int], Sheet] | None = None
    for rows in range(1, MAX_ROWS + 1):
        cols = math.ceil(slots / rows)
        if cols > MAX_COLS:
            continue
        cw = min(round(mm_to_px(w, dpi)), MAX_PX // cols, math.floor((MAX_PX // rows) * w / h))
        ch = min(round(cw * h / w), MAX_PX // rows)
        rank = (cw, slots - cols * rows, cols)
        if best is None or rank > best[0]:
            best = rank, Sheet(cols, rows, (cw, ch))
    assert best is not None  # (callers give at most MAX_COLS × MAX_ROWS - 1 faces)
    return best[1]


def card_deck(style: PageStyle, faces: list[UniqueFace], table: Table, x: float, files: dict[str, bytes],
              pngs: PngFiles) -> list[dict]:
    """The deck's ``DeckCustom`` (a lone card's ``Card``), or, for a deck of more faces than one's
    CustomDeck ids hold, one for each part (``sheet_parts``) laid side by side from ``x``, named
    ``<deck> 1/3`` …; its sheets added to ``files``, numbered through the whole deck."""
    deck = style.deck
    per_sheet = MAX_COLS * MAX_ROWS - 1
    check_deck_faces(deck, len(faces), table.id_base)  # (copies that print apart, found as drawn: more faces than pieces)
    w, h = style.fitted.trim
    backs = [f.back for f in faces if f.back is not None]
    unique_back = len(set(backs)) > 1
    names = table_names(deck, table.lang)
    parts = sheet_parts(len(faces))
    out = []
    for k, sheets in enumerate(parts):
        first_id = table.first_ids[deck.id] + k * ttsids.id_layer()
        custom: dict[str, dict] = {}
        deck_ids: list[int] = []
        cards: list[dict] = []
        for n, number in enumerate(sheets):
            chunk = faces[number * per_sheet:(number + 1) * per_sheet]
            key = first_id + n
            entry = _sheet(style, chunk, number + 1, table, files, pngs, backs, unique_back)
            custom[str(key)] = entry
            for slot, face in enumerate(chunk):
                card_id = key * 100 + slot
                for copy in range(face.copies):
                    deck_ids.append(card_id)
                    cards.append({"Name": "Card", "GUID": table.guid(deck, face.object_name, copy),
                                  "Nickname": names[face.piece.index], "Description": described(face, style, table.lang),
                                  "CardID": card_id,
                                  **HELD_CARD, "SidewaysCard": w > h, "CustomDeck": {str(key): entry},
                                  "Transform": transform(face_down=True)})
        at = transform(x + PART_STEP * k, 0.0, w / 63.5, face_down=True)
        if len(cards) == 1:
            out.append(dict(cards[0], Transform=at))
            continue
        guid = table.guid(deck) if k == 0 else table.guid(deck, k + 1)
        name = deck.name if len(parts) == 1 else f"{deck.name} {k + 1}/{len(parts)}"
        out.append({"Name": "DeckCustom", "GUID": guid, "Nickname": name, "Description": "",
                    "Transform": at, **HELD_CARD, "SidewaysCard": w > h, "DeckIDs": deck_ids,
                    "CustomDeck": custom, "ContainedObjects": cards})
    return out


PART_STEP = 3.0  # how far apart (TTS units) a split deck's parts lie, as the export's decks do (export.py)


def _sheet(style: PageStyle, chunk: list[UniqueFace], number: int, table: Table, files: dict[str, bytes],
           pngs: PngFiles, backs: list[str], unique_back: bool) -> dict:
    """A sheet's CustomDeck entry, its face sheet and back image (or back sheet) added to ``files``
    unless the earlier export made them from the same."""
    deck = style.deck
    sheet = sheet_for(len(chunk), style.fitted.trim, table.dpi)
    back_keys = [f.back for f in chunk if f.back is not None] if unique_back else backs[:1]
    hidden_key = back_keys[0] if backs else None
    face_name = f"{deck.id}-faces-{number}.png"
    back_name = f"{deck.id}-backs-{number}.png" if unique_back else f"{deck.id}-back.png"
    grid = (sheet.cols, sheet.rows, *sheet.cell)
    need_faces = not table.earlier.take(
        files, face_name, table.earlier.made_from(style, [f.front for f in chunk] + [hidden_key], grid, "faces"))
    need_back = not table.earlier.take(
        files, back_name, table.earlier.made_from(style, back_keys + [hidden_key] if unique_back else [hidden_key],
                                                  grid if unique_back else sheet.cell, "back"))
    if need_faces or need_back:  # (an image taken from the earlier export keeps its place in files)
        back_images = list(face_images(back_keys, style, sheet.cell)) if backs else []
        hidden = back_images[0] if back_images else Image.new("RGB", sheet.cell, NO_BACK)
        if need_faces:
            drawn = face_images([f.front for f in chunk], style, sheet.cell)  # (its document written meanwhile)
            pngs.room_for(sheet.size)
            pngs.add(files, face_name, _grid(sheet, drawn, hidden))
        if need_back:
            if unique_back:
                pngs.room_for(sheet.size)
            pngs.add(files, back_name, _grid(sheet, back_images, hidden) if unique_back else hidden)
    return {"FaceURL": table.url(face_name), "BackURL": table.url(back_name), "NumWidth": sheet.cols,
            "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back,
            "Type": CARD_TYPES.get(deck.shape, 1)}


def sheet_parts(faces: int) -> list[range]:
    """The sheets (numbered from 0) of each Tabletop Simulator deck a deck of ``faces`` distinct
    faces goes to the table as: one deck while its CustomDeck ids hold every sheet
    (``SHEETS_PER_DECK`` of 69 faces), else the fewest that do, the sheets shared as evenly as they
    go (the first parts one more): 7,000 faces are 102 sheets, two decks of 51."""
    sheets = math.ceil(faces / (MAX_COLS * MAX_ROWS - 1))
    parts = max(1, math.ceil(sheets / ttsids.SHEETS_PER_DECK))
    each, more = divmod(sheets, parts)
    out, start = [], 0
    for k in range(parts):
        out.append(range(start, start + each + (k < more)))
        start = out[-1].stop
    return out


def card_faces(deck: Deck) -> int:
    """The distinct faces a deck of cards sends at least, known before any is drawn: one for each
    piece it prints (the export's faces are its pieces', a file for each, ``unique_faces``;
    copies that print apart add more). 0 for a deck that goes to the table as anything but cards."""
    if deck.kind != "card" or deck.paper_die is not None or deck.standee is not None:
        return 0
    return sum(1 for piece in deck.pieces if piece.count > 0)


def check_deck_faces(deck: Deck, faces: int, base: int = ttsids.DECK_ID_BASE) -> None:
    """A deck's faces against the Tabletop Simulator decks its CustomDeck ids give room for
    (``most_parts`` from ``base``, each ``SHEETS_PER_DECK`` sheets of 69): the export checks its
    pieces before drawing any face (``card_faces``), and the faces once drawn."""
    per_sheet = MAX_COLS * MAX_ROWS - 1
    sheets = ttsids.SHEETS_PER_DECK  # (read from ttsids whenever it checks: the ids and this room are one figure)
    parts = ttsids.most_parts(base)
    most = per_sheet * sheets * parts
    if faces > most:
        raise InputError(f"deck {deck.id!r} has {faces:,} distinct faces; a Tabletop Simulator export takes at "
                         f"most {most:,} a deck ({parts} {'decks' if parts > 1 else 'deck'} on the table of {sheets} "
                         f"sheets of {per_sheet}, CustomDeck ids from {base:,})", path=deck.source,
                         key="--preset", expected=f"the deck split into decks of at most {most:,} pieces each "
                         "(a deck list, from: and list:, can print a part of it), --deck for the others, or a "
                         "lower --deck-id-base")


def _grid(sheet: Sheet, images: Iterable[Image.Image], hidden: Image.Image) -> Image.Image:
    """Faces row by row from the top-left, each pasted as it is rasterised; the last slot holds
    the hidden card."""
    out = Image.new("RGB", sheet.size, (255, 255, 255))
    cw, ch = sheet.cell
    for i, image in enumerate(images):
        out.paste(image, ((i % sheet.cols) * cw, (i // sheet.cols) * ch))
    last = sheet.cols * sheet.rows - 1
    out.paste(hidden, ((last % sheet.cols) * cw, (last // sheet.cols) * ch))
    return out
