"""Tabletop Simulator: a saved object per deck, with the images it names.

Cards become a ``DeckCustom``: face sheets of at most 10×7 cards and 4096 px a side whose last
slot is the hidden card (the back), one back image (or a back sheet when backs differ), and one
``DeckIDs`` entry per printed copy. Each deck's CustomDeck ids are its own in the whole workspace
(``deck_ids``), so decks of different games on one table never show each other's cards. Tokens
become ``Custom_Token`` (the image cut out along the piece's outline, a transparent border round
it; a back as the token's second state), double-sided tokens of a tile's shape and every tile and
board ``Custom_Tile`` (rect, hex, circle or rounded, never stretched out of their aspect) — one
object per copy, in a ``Bag`` when there are several. Images are named by ``file:///`` paths to the
output folder, or under ``--base-url`` when they are hosted. Field meanings: the Tabletop Simulator
API's custom game objects and the knowledge base's save file format (docs/exports.md).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import numpy as np
from PIL import Image

from pnpgen.data.markup import plain
from pnpgen.data.model import Deck, is_placeholder
from pnpgen.data.telling import plain_values, telling_fields, told_by_values
from pnpgen.errors import InputError
from pnpgen.exports.faces import EarlierImages, PageStyle, PngFiles, UniqueFace, face_images
from pnpgen.exports.ttswords import printed_words, rules_text, shown_fields
from pnpgen.faces.faceset import taken_in
from pnpgen.messages import msg
from pnpgen.patterns import later
from pnpgen.shapes import outline, shape_spec
from pnpgen.units import MM_PER_INCH, mm_to_px

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
NO_BACK = (96, 96, 96)  # a single-sided card's back on the table
TILE_TYPES = {"rect": 0, "hex": 1, "circle": 2, "rounded": 3}  # CustomTile.Type (the KB's save file format)
# CustomDeck.Type, the API's custom card type (other shapes: rect); which way up a hex card is cut
# neither source says (docs/exports.md)
CARD_TYPES = {"rounded": 0, "rect": 1, "hex": 3, "circle": 4}
# CustomDeck ids: DECK_ID_BASE + SHEETS_PER_DECK × slot + sheet − 1, the slot one of DECK_ID_SLOTS
# taken from a hash of game/deck (the next free one when two decks of the workspace hash alike).
DECK_ID_BASE = 1000
DECK_ID_SLOTS = 10_000
SHEETS_PER_DECK = 100
MAX_CARD_ID = 2**31 - 1  # CardID = id × 100 + slot is a 32-bit int in TTS saves (data/optionvalues.py's
# DECK_ID_BASE_MAX, the bound of --deck-id-base, keeps the highest one under it; tests/exports/test_tts.py)
TOKEN_BORDER = 0.03  # transparent border round a token image, of the piece's longer side in px (at least 4 px)
MASK_SUPERSAMPLE = 16  # a token's cut sampled 16 × 16 times a pixel: edge pixels partly transparent
MASK_MAX_PX = 8192  # … fewer for a large token, at most this many samples a side
GUID_HEX = 6  # an object's GUID: six hex digits, GAME_HEX of its game's and the rest of the object's
GAME_HEX = 2  # the game's part: its slot among the workspace's games (``game_prefixes``), so no two games share a GUID
INCH_PER_UNIT = 1.0  # a TTS unit is about an inch; a custom tile at scale 1 is about 2 units wide


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


def urls(out_dir: Path, base_url: str | None) -> Callable[[str], str]:
    """File name → the address TTS loads it from."""
    if base_url:
        return lambda name: base_url.rstrip("/") + "/" + quote(name)
    return lambda name: (out_dir / name).resolve().as_uri()


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
    lang: str = "ja"  # the edition's language: the names that tell pieces apart, and the words pnpgen adds to a Description (表, Front)

    def guid(self, deck: Deck, *parts: object) -> str:
        """An object's GUID, by its name in ``object_keys``."""
        return self.guids[(self.game, deck.id, *parts)]


def deck_ids(decks: list[tuple[str, str]], base: int = DECK_ID_BASE) -> dict[tuple[str, str], int]:
    """(game, deck) → the deck's first CustomDeck id; its sheets take the next ids, up to
    SHEETS_PER_DECK. Derived from the names, so stable from export to export; ``decks`` is every
    deck of the workspace (in any order), so no two of them share an id."""
    if len(set(decks)) > DECK_ID_SLOTS:
        raise InputError(f"the workspace has {len(set(decks)):,} decks; Tabletop Simulator exports give distinct "
                         f"CustomDeck ids to at most {DECK_ID_SLOTS:,}", expected="fewer decks in data/")
    taken: set[int] = set()
    out = {}
    for game, deck in sorted(set(decks)):
        slot = int(hashlib.sha1(f"{game}/{deck}".encode()).hexdigest(), 16) % DECK_ID_SLOTS
        while slot in taken:
            slot = (slot + 1) % DECK_ID_SLOTS
        taken.add(slot)
        out[(game, deck)] = base + SHEETS_PER_DECK * slot
    return out


def object_keys(game: str, deck: Deck, faces: list[UniqueFace]) -> list[tuple]:
    """The names of a deck's objects, each its GUID's parts: the deck (its DeckCustom or Bag),
    every copy, and every copy's back when pieces have backs (a token's second state; a tile,
    whose back is an image, leaves its name unused)."""
    keys: list[tuple] = [(game, deck.id)]
    for face in faces:
        for copy in range(face.copies):
            keys.append((game, deck.id, face.object_name, copy))
            if deck.back and deck.kind != "card":
                keys.append((game, deck.id, face.object_name, copy, "back"))
    return keys


def game_prefixes(games: Iterable[str]) -> dict[str, str]:
    """game → the first GAME_HEX hex digits of its objects' GUIDs, one of its own among ``games``
    (every game of the workspace, in any order): the SHA-1 of its slug modulo 16 ** GAME_HEX, the
    next free one when two games hash alike (the one that sorts later moves on). Two games' objects
    on one table then never share a GUID."""
    slots = 16 ** GAME_HEX
    every = sorted(set(games))
    if len(every) > slots:
        raise InputError(f"the workspace has {len(every):,} games; Tabletop Simulator exports give the objects of "
                         f"at most {slots:,} games GUIDs of their own", expected="fewer games in data/")
    taken: set[int] = set()
    out = {}
    for game in every:
        slot = int(hashlib.sha1(game.encode()).hexdigest(), 16) % slots
        while slot in taken:
            slot = (slot + 1) % slots
        taken.add(slot)
        out[game] = f"{slot:0{GAME_HEX}x}"
    return out


def guids(keys: Iterable[tuple], prefix: str = "") -> dict[tuple, str]:
    """key → GUID: ``prefix`` (the game's, ``game_prefixes``) and the object's part, distinct among
    ``keys`` (one game's objects) and the same from export to export: the first GUID_HEX − GAME_HEX
    hex digits of the SHA-1 of the key's parts joined by ``/``; of keys that hash alike, the one
    first in that text's order keeps it and each later one takes the SHA-1 of its parts and 1, 2, …
    the first no other key has."""
    digits = GUID_HEX - GAME_HEX

    def digest(text: str) -> str:
        return hashlib.sha1(text.encode()).hexdigest()[:digits]

    named = {"/".join(str(p) for p in key): key for key in keys}
    if len(named) > 16 ** digits:
        raise InputError(f"the game has {len(named):,} objects on the table; a Tabletop Simulator export gives GUIDs "
                         f"to at most {16 ** digits:,} a game", expected="fewer pieces or copies")
    out: dict[tuple, str] = {}
    taken: set[str] = set()
    later: list[tuple[str, tuple]] = []
    for text, key in sorted(named.items()):
        guid = digest(text)  # every key that hashes alike with no key before it keeps its GUID
        if guid in taken:
            later.append((text, key))
        else:
            taken.add(guid)
            out[key] = prefix + guid
    for text, key in later:
        guid = next(g for g in (digest(f"{text}/{n}") for n in itertools.count(1)) if g not in taken)
        taken.add(guid)
        out[key] = prefix + guid
    return out


def _transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


# A card face down shows neither its face nor its name and text (a hidden role's name in the tooltip
# of the card dealt to a player told the table who is who), and goes into a player's hand: what
# Tabletop Simulator writes for a card it saves, never left to its loader's default.
HELD_CARD = {"HideWhenFaceDown": True, "Hands": True}
# A two-sided tile or token face down tells nothing of its face either: a tile's one Description
# says what each side prints (表: … 裏: …), and a hidden tile's front words were read in its tooltip. Not one
# whose back prints its own name (a wargame counter): it hides nothing face down.
HIDDEN_FACE_DOWN = {"HideWhenFaceDown": True}
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


def saved_object(name: str, obj: dict) -> str:
    """A Saved Objects file (Saves/Saved Objects/*.json) holding one object; the names it shows
    as written (``as_written``)."""
    doc = {"SaveName": name, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5,
           "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
           "TabStates": {}, "ObjectStates": [obj]}
    return json.dumps(_shown_as_written(doc), ensure_ascii=False, indent=2) + "\n"


def deck_object(style: PageStyle, faces: list[UniqueFace], table: Table, x: float, files: dict[str, bytes],
                pngs: PngFiles) -> dict:
    """Add the deck's images to ``files`` (encoded by ``pngs``) and return its TTS object."""
    die = style.deck.paper_die
    if die is not None:  # a paper d6, its layout's or its template's (the deck file's die:)
        return _dice(style, die, faces, table, x, files, pngs)
    if style.deck.standee is not None:  # a fold-over standee, its layout's or its template's (stand_up:)
        return _standing(style, style.deck.standee, faces, table, x, files, pngs)
    if style.deck.kind == "card":
        return _cards(style, faces, table, x, files, pngs)
    return _pieces(style, faces, table, x, files, pngs)


def table_names(deck: Deck, lang: str) -> dict[int, str]:
    """Each piece's name on the table, by its number: its name as order.csv and the build call it;
    a name several pieces share with the values that tell it from the others of its name, as the
    change report and reprint.txt call it (``コイン［5］``, ``Coin [5]``: a place in the deck file,
    ``#2``, is nothing the printed piece shows), with its number only where no value tells them
    apart (``得点 #2``). A piece with no naming field is its deck's name (on the table nothing else
    says which deck it came from), with its number (``#2``) when the deck has other pieces. The
    copies of one piece share its name, as a card's copies do: a die's two copies are not ``#1``."""
    named = {p.index: p.label for p in deck.pieces if p.label != f"#{p.index}"}
    shared = Counter(named.values())
    values = {p.index: plain_values(p.values) for p in deck.pieces}
    telling = {name: telling_fields([values[i] for i, n in named.items() if n == name])
               for name, many in shared.items() if many > 1}

    def name_of(index: int) -> str:
        name = named[index]
        if shared[name] == 1:
            return name
        return told_by_values(name, values[index], telling[name], lang) or f"{name} #{index}"
    alone = len(deck.pieces) == 1
    return {p.index: name_of(p.index) if p.index in named else deck.name if alone else f"{deck.name} #{p.index}"
            for p in deck.pieces}


def described(face: UniqueFace, style: PageStyle, lang: str) -> str:
    """A piece's ``Description`` on the table: the fields its front shows (``shown_fields``)."""
    return shown_fields(face.piece, style.arts.get(face.front), face.deck.layout, lang, face.deck.sheet_headers)


def _cards(style: PageStyle, faces: list[UniqueFace], table: Table, x: float, files: dict[str, bytes],
           pngs: PngFiles) -> dict:
    deck = style.deck
    dpi, url = table.dpi, table.url
    per_sheet = MAX_COLS * MAX_ROWS - 1
    first_id = table.first_ids[deck.id]
    check_deck_faces(deck, len(faces))  # (copies that print apart, found as drawn: more faces than pieces)
    w, h = style.fitted.trim
    sideways = w > h
    card_type = CARD_TYPES.get(deck.shape, 1)
    backs = [f.back for f in faces if f.back is not None]
    unique_back = len(set(backs)) > 1
    custom: dict[str, dict] = {}
    deck_ids: list[int] = []
    cards: list[dict] = []
    names = table_names(deck, table.lang)
    for start in range(0, len(faces), per_sheet):
        chunk = faces[start:start + per_sheet]
        number = start // per_sheet + 1
        sheet = sheet_for(len(chunk), style.fitted.trim, dpi)
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
                pngs.add(files, face_name, _grid(sheet, face_images([f.front for f in chunk], style, sheet.cell), hidden))
            if need_back:
                pngs.add(files, back_name, _grid(sheet, back_images, hidden) if unique_back else hidden)
        entry = {"FaceURL": url(face_name), "BackURL": url(back_name), "NumWidth": sheet.cols,
                 "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": card_type}
        key = first_id + number - 1
        custom[str(key)] = entry
        for slot, face in enumerate(chunk):
            card_id = key * 100 + slot
            for copy in range(face.copies):
                deck_ids.append(card_id)
                cards.append({"Name": "Card", "GUID": table.guid(deck, face.object_name, copy),
                              "Nickname": names[face.piece.index], "Description": described(face, style, table.lang),
                              "CardID": card_id,
                              **HELD_CARD, "SidewaysCard": sideways, "CustomDeck": {str(key): entry},
                              "Transform": _transform(face_down=True)})
    scale = w / 63.5
    if len(cards) == 1:
        return dict(cards[0], Transform=_transform(x, 0.0, scale, face_down=True))
    return {"Name": "DeckCustom", "GUID": table.guid(deck), "Nickname": deck.name, "Description": "",
            "Transform": _transform(x, 0.0, scale, face_down=True), **HELD_CARD, "SidewaysCard": sideways,
            "DeckIDs": deck_ids,
            "CustomDeck": custom, "ContainedObjects": cards}


def table_dpi(deck: Deck, trim: tuple[float, float], dpi: int) -> int:
    """The resolution Tabletop Simulator shows a deck's faces at, whole dots rounded down: its images'
    pixels over the piece's size (``trim``, mm, as exported), at most ``dpi`` (the preset's 200),
    less where an image reaches MAX_PX a side, the most the table takes: a 1,500 mm board is one
    image of 4096 px, 69 dpi; a sheet of 69 poker cards, 409 px a cell, 163 dpi; a die's face, its
    texture's third. A picture sharper than that shows no sharper on the table."""
    w, h = trim
    if deck.paper_die is not None:  # (as _dice: the largest face box, a third of the texture at most)
        sx, sy = w / deck.trim_mm[0], h / deck.trim_mm[1]
        side_mm = max(max(bw * sx, bh * sy) for _, _, bw, bh in deck.paper_die)
        return min(dpi, math.floor(min(round(mm_to_px(side_mm, dpi)), MAX_PX // 3) / side_mm * MM_PER_INCH))
    faces = card_faces(deck)
    if faces:  # (as _cards: the fullest sheet's cells)
        cw, ch = sheet_for(min(faces, MAX_COLS * MAX_ROWS - 1), trim, dpi).cell
        return min(dpi, math.floor(min(cw / w, ch / h) * MM_PER_INCH))
    return min(dpi, math.floor(MAX_PX / max(w, h) * MM_PER_INCH))  # (as _pieces and _standing: one image)


def table_dpi_said(deck: Deck, trim: tuple[float, float], shown: int) -> str:
    """The warning of a deck Tabletop Simulator shows at fewer dots than its preset makes (``shown``,
    ``table_dpi``): what the table shows, and why no sharper picture helps."""
    return (f"deck {deck.id}: Tabletop Simulator shows it at {shown} dpi ({trim[0]:g}×{trim[1]:g} mm): its images "
            f"are at most {MAX_PX} px a side, the most the table takes (Knowledge Base, Asset Creation), so a "
            f"picture sharper than {shown} dpi shows no sharper there and is not warned (the print files keep it whole)")


def card_faces(deck: Deck) -> int:
    """The distinct faces a deck of cards sends at least, known before any is drawn: one for each
    piece it prints (the export's faces are its pieces', a file for each, ``unique_faces``;
    copies that print apart add more). 0 for a deck that goes to the table as anything but cards."""
    if deck.kind != "card" or deck.paper_die is not None or deck.standee is not None:
        return 0
    return sum(1 for piece in deck.pieces if piece.count > 0)


def check_deck_faces(deck: Deck, faces: int) -> None:
    """A deck's faces against the sheets its CustomDeck ids give room for (``SHEETS_PER_DECK`` of
    69): the export checks its pieces before drawing any face (``card_faces``), and the faces
    once drawn."""
    per_sheet = MAX_COLS * MAX_ROWS - 1
    if faces > per_sheet * SHEETS_PER_DECK:
        most = per_sheet * SHEETS_PER_DECK
        raise InputError(f"deck {deck.id!r} has {faces:,} distinct faces; a Tabletop Simulator export takes at "
                         f"most {most:,} a deck ({SHEETS_PER_DECK} sheets of {per_sheet})", path=deck.source,
                         key="--preset", expected=f"the deck split into decks of at most {most:,} pieces each "
                         "(a deck list, from: and list:, can print a part of it), or --deck for the others")


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


def _pieces(style: PageStyle, faces: list[UniqueFace], table: Table, x: float, files: dict[str, bytes],
            pngs: PngFiles) -> dict:
    """Tokens cut out along their outline (``Custom_Token``, a back as the second state);
    tiles, boards and double-sided tokens of a tile's shape as ``Custom_Tile`` with both sides."""
    deck = style.deck
    url = table.url
    w, h = style.fitted.trim
    px_per_mm = min(mm_to_px(1, table.dpi), MAX_PX / max(w, h))
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    two_sided = bool(deck.back)
    tile_type = _tile_type(deck) if deck.kind != "token" or two_sided else None
    stackable = deck.kind != "board"  # tiles and tokens pile up; a board dropped on another stays a board
    earlier = table.earlier
    cut = () if tile_type is not None else ("cut", MASK_SUPERSAMPLE)  # (an earlier hard-edged cut is not taken)
    front_from = [earlier.made_from(style, [f.front], size, "piece", *cut) for f in faces]
    back_from = [earlier.made_from(style, [f.back], size, "piece", *cut) if two_sided and f.back is not None else ""
                 for f in faces]
    if tile_type is None:
        # A token: cut out, with a transparent border all round (the knowledge base's advice for
        # a clean cut); the border widens the image, so the scale grows to keep the piece's size.
        pad = max(4, round(TOKEN_BORDER * max(size)))
        mask = _mask(style, size)
        scale = max(w, h) / MM_PER_INCH / 2 / INCH_PER_UNIT * (max(size) + 2 * pad) / max(size)
    else:
        pad, mask = 0, None
        scale = max(w, h) / MM_PER_INCH / 2 / INCH_PER_UNIT
    # only the images no earlier export made from the same are rasterised; each goes in its place
    taken: dict[str, bytes] = {}
    # one back every piece shares (a back template reading no field) is one image, as a deck's
    # card back is: 60 terrain tiles are not 60 copies of it for the table to load
    shared = len(faces) > 1 and back_from[0] != "" and len(set(back_from)) == 1
    back_names = [f"{deck.id}-back.png" if shared else f"{f.stem}-back.png" for f in faces]
    new_fronts = [i for i, f in enumerate(faces) if not earlier.take(taken, f"{f.stem}-front.png", front_from[i])]
    new_backs = [i for i, f in enumerate(faces) if back_from[i] and not (shared and i)
                 and not earlier.take(taken, back_names[i], back_from[i])]
    fronts = dict(zip(new_fronts, face_images([faces[i].front for i in new_fronts], style, size)))
    backs = dict(zip(new_backs, face_images([faces[i].back for i in new_backs], style, size)))  # type: ignore[misc]
    objects = []
    names = table_names(deck, table.lang)
    for i, face in enumerate(faces):
        front_name = f"{face.stem}-front.png"
        if i in fronts:
            pngs.add(files, front_name, _cut(fronts[i], mask, pad))
        else:
            files[front_name] = taken[front_name]
        back_url = ""
        if back_from[i]:
            back_name = back_names[i]
            if i in backs:
                pngs.add(files, back_name, _cut(backs[i], mask, pad))
            elif back_name not in files:
                files[back_name] = taken[back_name]
            back_url = url(back_name)
        name = names[face.piece.index]
        back_side = _back_name(face, name, style) if back_url else name
        # face down it hides something only when its back does not name it (a wargame counter flipped
        # to its reduced side is that unit still, its name and factors the table's to read)
        hidden = HIDDEN_FACE_DOWN if back_url and not _back_names_it(face, style) else {}
        texts = [v for v in face.piece.values.values() if isinstance(v, str)]  # a box's text, whole
        # both sides read top to bottom, whatever order each template draws its words in
        # a value still open (未定) printed on a side tells a player nothing: left out, as ``described`` leaves it
        back_words = printed_words(style.arts.get(face.back or ""), texts, top_down=True) if back_url else ""
        front_words = printed_words(style.arts.get(face.front), texts, top_down=True) or rules_text(face.piece) \
            or face.piece.own_name
        # a tile's one Description, whichever side is up: each side's words when its back has any
        said = msg("tts.sides", table.lang, front=front_words, back=back_words) if back_words \
            else described(face, style, table.lang)
        for copy in range(face.copies):
            guid = table.guid(deck, face.object_name, copy)
            if tile_type is None:
                obj = _token(guid, name, url(front_name), x, scale, described(face, style, table.lang))
                if back_url:  # a state of its own: its own Description, what the back says
                    back = _token(table.guid(deck, face.object_name, copy, "back"), back_side, back_url, x, scale,
                                  back_words) | hidden
                    # a sealed pack's token arrives showing its back (a token has one image, so not by
                    # turning it over): the back is state 1, the front state 2, a key press away
                    front, back = (back, obj) if deck.sealed else (obj, back)
                    obj = front | {"States": {"2": back | hidden}} | hidden
            else:
                # Stretch false: the tile takes the image's proportions (true stretches it to a
                # symmetrical tile, a 3:2 board to a square).
                image = {"ImageURL": url(front_name), "ImageSecondaryURL": back_url, "ImageScalar": 1.0,
                         "WidthScale": 0.0, "CustomTile": {"Type": tile_type, "Thickness": 0.2, "Stackable": stackable,
                                                           "Stretch": False}}
                obj = {"Name": "Custom_Tile", "GUID": guid, "Nickname": back_side, "Description": said,
                       # a sealed pack's tile arrives face down, as every card does
                       "Transform": _transform(x, 0.0, scale, face_down=deck.sealed), "CustomImage": image,
                       **hidden}
            objects.append(obj)
    return _one_or_bag(objects, deck, table, x)


def _back_name(face: UniqueFace, name: str, style: PageStyle) -> str:
    """What a piece's back goes by on the table (a tile's one name, whichever side is up; a
    token's back state): the piece's name when its back prints that name too (a counter's unit on
    both sides), else its deck's name — a vote token's back, 反対, is not called 賛成 after its
    front, nor a face-down tile after the front it hides."""
    if not face.piece.own_name.split() or _back_names_it(face, style):
        return name  # (a piece with no name of its own is called by its deck's already)
    return face.deck.name


def _back_names_it(face: UniqueFace, style: PageStyle) -> bool:
    """Does the piece's back print the piece's own name (a counter's unit on both sides)?"""
    art = style.arts.get(face.back or "")
    shown = "".join(m[7] for m in art.marks if m[0] == "text") if art is not None else ""
    own = "".join(face.piece.own_name.split())
    return bool(own) and own in "".join(shown.split())


def _tile_type(deck: Deck) -> int | None:
    """The ``CustomTile.Type`` of the deck's shape; None (a token cut out along its outline) for a
    shape no tile has: a tri-hex, a polygon, and a pointy hex. Tabletop Simulator's hex tile is
    flat-topped (a corner left and right, the image across it: the knowledge base's Custom Tile
    picture) and, with ``Stretch: false``, as tall as the image: a pointy hex's art on it was cut
    as a flat hex stretched tall, its top and bottom corners lost."""
    if deck.shape == "hex" and str(deck.options.get("orientation", "pointy")) == "pointy":
        return None
    return TILE_TYPES.get(deck.shape)


def _one_or_bag(objects: list[dict], deck: Deck, table: Table, x: float) -> dict:
    if len(objects) == 1:
        return objects[0]
    return {"Name": "Bag", "GUID": table.guid(deck), "Nickname": deck.name, "Description": "",
            "Transform": _transform(x, 0.0), "ContainedObjects": objects}


def _standing(style: PageStyle, box_mm: tuple[float, float, float, float], faces: list[UniqueFace], table: Table,
              x: float, files: dict[str, bytes], pngs: PngFiles) -> dict:
    """A piece whose layout says ``stand_up:`` (a fold-over standee): a ``Custom_Token`` of that
    image box alone, standing up. Tabletop Simulator shows a standing token's back as its front's
    mirror image, as the folded paper does; the tabs and the far copy stay off the table."""
    deck = style.deck
    w, h = style.fitted.trim
    px_per_mm = min(mm_to_px(1, table.dpi), MAX_PX / max(w, h))
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    sx, sy = w / deck.trim_mm[0], h / deck.trim_mm[1]  # a fitted export scales the box with the piece
    bx, by, bw, bh = box_mm
    x0, y0, x1, y1 = taken_in(max(bx * sx, 0.0), max(by * sy, 0.0), min((bx + bw) * sx, w), min((by + bh) * sy, h))
    crop = _pixels((x0, y0, x1, y1), px_per_mm)
    made = [table.earlier.made_from(style, [f.front], size, "stand_up", crop) for f in faces]
    taken: dict[str, bytes] = {}
    new = [i for i, f in enumerate(faces) if not table.earlier.take(taken, f"{f.stem}-front.png", made[i])]
    images = dict(zip(new, face_images([faces[i].front for i in new], style, size)))
    scale = max(x1 - x0, y1 - y0) / MM_PER_INCH / 2 / INCH_PER_UNIT
    objects = []
    names = table_names(deck, table.lang)
    for i, face in enumerate(faces):
        name = f"{face.stem}-front.png"
        if i in images:
            pngs.add(files, name, images[i].crop(crop))
        else:
            files[name] = taken[name]
        for copy in range(face.copies):
            obj = _token(table.guid(deck, face.object_name, copy), names[face.piece.index], table.url(name), x, scale,
                         described(face, style, table.lang))
            obj["CustomImage"]["CustomToken"]["StandUp"] = True
            objects.append(obj)
    return _one_or_bag(objects, deck, table, x)


# Where each face of a d6 goes on Tabletop Simulator's die texture: its column and row of a 3 × 3
# grid (the top row is the cube's rounded edges) and its turn; the knowledge base's Custom Dice
# page shows its template so: 2, 4, 5 upright on the middle row, 1 and 6 upside down either side of
# 3 on the bottom one.
D6_CELLS = ((0, 2, 180), (0, 1, 0), (1, 2, 0), (1, 1, 0), (2, 1, 0), (2, 2, 180))
D6_TYPE = 1  # CustomDice.Type: 0 d4, 1 d6, 2 d8, 3 d10, 4 d12, 5 d20
# The d6's rotation values (the save file format's ``RotationValues``: a value and the rotation that
# turns it up): the rotations Tabletop Simulator's own d6 is saved with for faces 1 to 6, whose
# texture is the template above; the table's tooltip then says the face rolled, and a script's
# getRotationValue() (and getValue(), the same on an object with rotation values) returns it.
D6_TURNS = ((-90.0, 0.0), (0.0, 0.0), (0.0, -90.0), (0.0, 90.0), (0.0, -180.0), (90.0, 0.0))  # faces 1–6: x, z


def d6_rotations(values: Iterable[str | int]) -> list[dict]:
    """``RotationValues``: each face's value with the rotation that turns it up."""
    return [{"Value": value, "Rotation": {"x": x, "y": 0.0, "z": z}} for value, (x, z) in zip(values, D6_TURNS)]


def die_values(deck: Deck, values: dict) -> list[str] | list[int]:
    """What the faces 1 to 6 of a paper die show, as the table's tooltip and ``getValue()`` give
    them: the text of the field the layout puts in each face, as it reads (an icon as its name:
    ``{sword}`` → ``sword``) with its box's ``label:`` and ``unit:`` (``攻撃 3``, ``2枚``), an icons
    box's icon names, a picture's file name; the face's number where it shows none of these (a
    panel, an empty field, a die drawn by templates). Six whole numbers are numbers (``3``, not
    ``"3"``): a script adds up the dice rolled; one face that reads otherwise keeps all six text."""
    boxes = deck.layout.die_boxes if deck.die is None and deck.layout is not None else None
    out = [str(n) for n in range(1, 7)]
    for n, box in enumerate(boxes or (), 1):
        field, text = box.get("field") if box.type in ("text", "icons", "image") else None, \
            box.get("text") if box.type == "text" else None
        shown = values.get(field) if field is not None else text
        if isinstance(shown, list):
            said = " ".join(str(name) for name in shown)
        elif box.type == "image" and isinstance(shown, str):
            said = Path(shown).stem
        else:
            said = " ".join(plain(str(shown)).split()) if shown is not None else ""
        if said and box.type == "text":  # as the face prints it: 攻撃 3, 2枚
            label, unit = box.get("label"), box.get("unit")
            said = " ".join(plain(label).split() + [said]) if label is not None else said
            said += plain(unit).strip() if unit is not None and not is_placeholder(shown) else ""
        out[n - 1] = said or str(n)
    if all(_whole_number(v) for v in out):
        return [int(v) for v in out]
    return out


WHOLE_NUMBER = later("0|-?[1-9][0-9]*")  # as a script reads it back: not 03, +1 or ３


def _whole_number(text: str) -> bool:
    """Whether a face's value is a whole number (``3``, ``-1``), which a face printing ``03`` or a
    full-width ``３`` is not: the table would say it otherwise than the face."""
    return WHOLE_NUMBER.fullmatch(text) is not None


def _dice(style: PageStyle, boxes: tuple[tuple[float, float, float, float], ...], faces: list[UniqueFace],
          table: Table, x: float, files: dict[str, bytes], pngs: PngFiles) -> dict:
    """A folded paper die whose layout or deck file says ``die:`` (its six face boxes): a ``Custom_Dice``
    (a d6) per copy, its texture the six boxes cut from the net, not the flat net itself."""
    deck = style.deck
    w, h = style.fitted.trim
    sx, sy = w / deck.trim_mm[0], h / deck.trim_mm[1]
    side_mm = max(max(bw * sx, bh * sy) for _, _, bw, bh in boxes)
    cell = max(1, min(round(mm_to_px(side_mm, table.dpi)), MAX_PX // 3))
    px_per_mm = cell / side_mm
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    # (the fold lines along a face's edges stay off it, as off a standee)
    crops = tuple(_pixels(taken_in(bx * sx, by * sy, (bx + bw) * sx, (by + bh) * sy), px_per_mm)
                  for bx, by, bw, bh in boxes)
    made = [table.earlier.made_from(style, [f.front], size, "d6", cell, crops) for f in faces]
    taken: dict[str, bytes] = {}
    new = [i for i, f in enumerate(faces) if not table.earlier.take(taken, f"{f.stem}-front.png", made[i])]
    images = dict(zip(new, face_images([faces[i].front for i in new], style, size)))
    objects = []
    names = table_names(deck, table.lang)
    for i, face in enumerate(faces):
        name = f"{face.stem}-front.png"
        if i in images:
            pngs.add(files, name, d6_texture([images[i].crop(c) for c in crops], cell))
        else:
            files[name] = taken[name]
        for copy in range(face.copies):
            image = {"ImageURL": table.url(name), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                     "CustomDice": {"Type": D6_TYPE}}
            objects.append({"Name": "Custom_Dice", "GUID": table.guid(deck, face.object_name, copy),
                            "Nickname": names[face.piece.index], "Description": described(face, style, table.lang),
                            "Transform": _transform(x, 0.0), "CustomImage": image,
                            "RotationValues": d6_rotations(die_values(deck, face.piece.values))})
    return _one_or_bag(objects, deck, table, x)


def _pixels(box: tuple[float, float, float, float], px_per_mm: float) -> tuple[int, int, int, int]:
    """A box (left, top, right, bottom mm) in whole pixels, at least one wide and high."""
    left, top = round(box[0] * px_per_mm), round(box[1] * px_per_mm)
    return left, top, max(left + 1, round(box[2] * px_per_mm)), max(top + 1, round(box[3] * px_per_mm))


def d6_texture(faces: list[Image.Image], cell: int) -> Image.Image:
    """Faces 1 to 6, each made ``cell`` px square, where Tabletop Simulator's d6 takes them
    (``D6_CELLS``); the top row, the cube's edges, in the colour most of the faces' rims have."""
    squares = [face.convert("RGB").resize((cell, cell), Image.Resampling.LANCZOS) for face in faces]
    rims: Counter[tuple[int, ...]] = Counter()
    for square in squares:
        for px in (*((i, 0) for i in range(cell)), *((i, cell - 1) for i in range(cell)),
                   *((0, j) for j in range(cell)), *((cell - 1, j) for j in range(cell))):
            rims[square.getpixel(px)] += 1  # type: ignore[index]
    edge = max(rims.items(), key=lambda item: (item[1], item[0]))[0]
    out = Image.new("RGB", (3 * cell, 3 * cell), edge)
    for square, (col, row, turn) in zip(squares, D6_CELLS):
        out.paste(square.transpose(Image.Transpose.ROTATE_180) if turn else square, (col * cell, row * cell))
    return out


def _token(guid: str, name: str, image_url: str, x: float, scale: float, description: str = "") -> dict:
    """A Custom_Token: one image, cut out along its transparency (it has no back image)."""
    image = {"ImageURL": image_url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
             "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}}
    return {"Name": "Custom_Token", "GUID": guid, "Nickname": name, "Description": description,
            "Transform": _transform(x, 0.0, scale), "CustomImage": image}


def _mask(style: PageStyle, size: tuple[int, int]) -> Image.Image:
    """Opaque inside the piece's outline, for tokens cut out of their image; an edge pixel as
    opaque as the share of it inside, so a round token's edge is smooth on the table, not
    stair-stepped."""
    w, h = style.fitted.trim
    spec = shape_spec(style.deck.shape, (w, h), style.deck.options)
    sx, sy = size[0] / w, size[1] / h
    return _coverage([(x * sx, y * sy) for x, y in outline(spec).points()], size)


def _coverage(points: list[tuple[float, float]], size: tuple[int, int]) -> Image.Image:
    """An "L" image of ``size`` px, each pixel the share of it inside the polygon ``points`` (px,
    pixel (i, j) the square from (i, j) to (i + 1, j + 1)): k × k samples a pixel, at their
    centres, even-odd. (Pillow's polygon fill, drawn 8× larger and reduced, was up to 60 of 255
    off the true share at a circle's edge.) Counted from each sample row's runs inside, not sample
    by sample (a 16-fold token's samples were 67 million bytes to walk, 0.7 s a token)."""
    W, H = size
    k = max(1, min(MASK_SUPERSAMPLE, MASK_MAX_PX // max(size)))
    p = np.asarray(points, dtype=np.float64) * k  # in samples: row r is at y = r + 0.5
    x0, y0 = p[:, 0], p[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    # each edge crosses the rows whose centre is in [low y, high y) (a level edge, none)
    first = np.clip(np.ceil(np.minimum(y0, y1) - 0.5), 0, k * H).astype(np.int64)
    stop = np.clip(np.ceil(np.maximum(y0, y1) - 0.5), 0, k * H).astype(np.int64)
    n = stop - first
    edge = np.repeat(np.arange(len(p)), n)
    row = first[edge] + np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    x = x0[edge] + (row + 0.5 - y0[edge]) * (x1[edge] - x0[edge]) / (y1[edge] - y0[edge])
    # inside from the first sample right of a crossing to the first right of the next (even-odd):
    # a row's crossings in order, taken in pairs, are its runs [start, end) of samples inside
    column = np.clip(np.ceil(x - 0.5), 0, k * W).astype(np.int64)
    order = np.lexsort((column, row))
    row, column = row[order], column[order]
    start, end, run_row = column[0::2], column[1::2], row[0::2]  # (a row crosses the outline an even number of times)
    # each run's samples added to the pixels it covers: whole pixels through a difference table,
    # the pixels it starts and ends in by their share
    count = np.zeros((H, W + 1), dtype=np.int64)
    whole = np.zeros((H, W + 1), dtype=np.int64)
    i, a, b = run_row // k, start // k, end // k
    same = a == b
    np.add.at(count, (i[same], a[same]), (end - start)[same])
    i, a, b, start, end = i[~same], a[~same], b[~same], start[~same], end[~same]
    np.add.at(count, (i, a), (a + 1) * k - start)
    np.add.at(count, (i, b), end - b * k)  # (b = W: the run ends at the image's edge, nothing in column W)
    np.add.at(whole, (i, a + 1), k)
    np.add.at(whole, (i, b), -k)
    count = (count + np.cumsum(whole, axis=1))[:, :W]
    return Image.fromarray(((count * 255 + k * k // 2) // (k * k)).astype(np.uint8), "L")


def _cut(image: Image.Image, mask: Image.Image | None, pad: int = 0) -> Image.Image:
    """The image cut out along ``mask``, inside a transparent border ``pad`` pixels wide."""
    if mask is None:
        return image
    cut = image.convert("RGBA")
    cut.putalpha(mask)
    out = Image.new("RGBA", (cut.width + 2 * pad, cut.height + 2 * pad), (0, 0, 0, 0))
    out.paste(cut, (pad, pad))
    return out
