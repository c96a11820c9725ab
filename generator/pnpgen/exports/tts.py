"""Tabletop Simulator: a saved object per deck, with the images it names.

Cards become a ``DeckCustom`` (several side by side, a deck past one's ids: ``ttscards.sheet_parts``): face sheets of at most 10×7 cards and 4096 px a side whose last
slot is the hidden card (the back), one back image (or a back sheet when backs differ), and one
``DeckIDs`` entry per printed copy. Each deck's CustomDeck ids are its own in the whole workspace
(``deck_ids``), so decks of different games on one table never show each other's cards. Tokens
become ``Custom_Token`` (the image cut out along the piece's outline, a transparent border round
it; a back as the token's second state), double-sided tokens of a tile's shape and every tile and
board ``Custom_Tile`` (rect, hex, circle or rounded, never stretched out of their aspect) — one
object per copy, in a ``Bag`` when there are several. Images are named by ``file:///`` paths to the
output folder, or under ``--base-url`` when they are hosted. Field meanings: the Tabletop Simulator
API's custom game objects and the knowledge base's save file format (docs/exports.md).

This module picks each deck's kind of object and writes the saved file; each kind is made by a
module of its own: ttscards (card sheets), ttspieces (tokens, tiles, boards, standees), ttsdice
(paper dice), with ttsids (CustomDeck ids, GUIDs), ttstable (where a game's objects go) and
ttswords (the names and Descriptions they show).
"""

from __future__ import annotations

import json
import math

from pnpgen.data.model import Deck
from pnpgen.exports.faces import PageStyle, PngFiles, UniqueFace
from pnpgen.exports.ttscards import MAX_COLS, MAX_ROWS, card_deck, card_faces, sheet_for
from pnpgen.exports.ttsdice import dice
from pnpgen.exports.ttspieces import standees, tokens_and_tiles
from pnpgen.exports.ttstable import MAX_PX, Table
from pnpgen.units import MM_PER_INCH, mm_to_px

SHOWN_FIELDS = frozenset({"SaveName", "Nickname", "Description"})  # text Tabletop Simulator shows, reading its tags
NO_TAG = "\u200b"  # after each '[' of such a text: no tag starts there, and Tabletop Simulator's text draws it as nothing


def as_written(text: str) -> str:
    """``text`` as Tabletop Simulator shows it, never read as its own tags: its labels (NGUI) read
    ``[b]``, ``[i]``, ``[sup]``, ``[ff0000]`` … ``[-]`` and ``[url=…]`` (which hides the rest of a
    text without its ``]``) in a nickname or a description, and offer no escape; a zero-width space
    after each ``[`` keeps every bracket as written (``[b]Fire`` shows as typed, not in bold)."""
    return text.replace("[", "[" + NO_TAG)


def _shown_as_written(value: object) -> object:
    """A saved object with every text Tabletop Simulator shows passed through ``as_written``."""
    if isinstance(value, dict):
        return {k: as_written(v) if k in SHOWN_FIELDS and isinstance(v, str) else _shown_as_written(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_shown_as_written(v) for v in value]
    return value


def saved_object(name: str, objects: list[dict]) -> str:
    """A Saved Objects file (Saves/Saved Objects/*.json) holding a deck's objects (one, or a split
    deck's parts side by side); the names it shows as written (``as_written``)."""
    doc = {"SaveName": name, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5,
           "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
           "TabStates": {}, "ObjectStates": objects}
    return json.dumps(_shown_as_written(doc), ensure_ascii=False, indent=2) + "\n"


def deck_objects(style: PageStyle, faces: list[UniqueFace], table: Table, x: float, files: dict[str, bytes],
                 pngs: PngFiles) -> list[dict]:
    """Add the deck's images to ``files`` (encoded by ``pngs``) and return its TTS objects: one, or
    a deck of cards too big for one's CustomDeck ids in parts (``ttscards.sheet_parts``)."""
    die = style.deck.paper_die
    if die is not None:  # a paper d6, its layout's or its template's (the deck file's die:)
        return [dice(style, die, faces, table, x, files, pngs)]
    if style.deck.standee is not None:  # a fold-over standee, its layout's or its template's (stand_up:)
        return [standees(style, style.deck.standee, faces, table, x, files, pngs)]
    if style.deck.kind == "card":
        return card_deck(style, faces, table, x, files, pngs)
    return tokens_and_tiles(style, faces, table, x, files, pngs)


def table_dpi(deck: Deck, trim: tuple[float, float], dpi: int) -> int:
    """The resolution Tabletop Simulator shows a deck's faces at, whole dots rounded down: its images'
    pixels over the piece's size (``trim``, mm, as exported), at most ``dpi`` (the preset's 200),
    less where an image reaches MAX_PX a side, the most the table takes: a 1,500 mm board is one
    image of 4096 px, 69 dpi; a sheet of 69 poker cards, 409 px a cell, 163 dpi; a die's face, its
    texture's third. A picture sharper than that shows no sharper on the table."""
    w, h = trim
    if deck.paper_die is not None:  # (as dice: the largest face box, a third of the texture at most)
        sx, sy = w / deck.trim_mm[0], h / deck.trim_mm[1]
        side_mm = max(max(bw * sx, bh * sy) for _, _, bw, bh in deck.paper_die)
        return min(dpi, math.floor(min(round(mm_to_px(side_mm, dpi)), MAX_PX // 3) / side_mm * MM_PER_INCH))
    faces = card_faces(deck)
    if faces:  # (as card_deck: the fullest sheet's cells)
        cw, ch = sheet_for(min(faces, MAX_COLS * MAX_ROWS - 1), trim, dpi).cell
        return min(dpi, math.floor(min(cw / w, ch / h) * MM_PER_INCH))
    return min(dpi, math.floor(MAX_PX / max(w, h) * MM_PER_INCH))  # (as tokens_and_tiles and standees: one image)


def table_dpi_said(deck: Deck, trim: tuple[float, float], shown: int) -> str:
    """The warning of a deck Tabletop Simulator shows at fewer dots than its preset makes (``shown``,
    ``table_dpi``): what the table shows, and why no sharper picture helps."""
    return (f"deck {deck.id}: Tabletop Simulator shows it at {shown} dpi ({trim[0]:g}×{trim[1]:g} mm): its images "
            f"are at most {MAX_PX} px a side, the most the table takes (Knowledge Base, Asset Creation), so a "
            f"picture sharper than {shown} dpi shows no sharper there and is not warned (the print files keep it whole)")
