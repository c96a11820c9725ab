"""Tabletop Simulator's ids: each deck's CustomDeck ids, its own in the whole workspace, and
each object's GUID (its game's first digits, then its name's), the same from export to export.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable

from pnpgen.data.model import Deck
from pnpgen.errors import InputError
from pnpgen.exports.faces import UniqueFace

# CustomDeck ids: DECK_ID_BASE + SHEETS_PER_DECK × slot + sheet − 1, the slot one of DECK_ID_SLOTS
# taken from a hash of game/deck (the next free one when two decks of the workspace hash alike).
DECK_ID_BASE = 1000
DECK_ID_SLOTS = 10_000
SHEETS_PER_DECK = 100
MAX_CARD_ID = 2**31 - 1  # CardID = id × 100 + slot is a 32-bit int in TTS saves (data/optionvalues.py's
# DECK_ID_BASE_MAX, the bound of --deck-id-base, keeps the highest one under it; tests/exports/test_tts.py)
GUID_HEX = 6  # an object's GUID: six hex digits, GAME_HEX of its game's and the rest of the object's
GAME_HEX = 2  # the game's part: its slot among the workspace's games (``game_prefixes``), so no two games share a GUID


def id_layer() -> int:
    """How far apart the ids of a split deck's parts are: every slot's room of ids (SHEETS_PER_DECK
    × DECK_ID_SLOTS), so part k of the deck in slot s takes slot s of the k-th copy of the ids above
    the first, which no other deck of the workspace takes (read whenever asked: tests make it small)."""
    return SHEETS_PER_DECK * DECK_ID_SLOTS


def most_parts(base: int = DECK_ID_BASE) -> int:
    """How many Tabletop Simulator decks one deck may go to the table as, its ids from ``base``
    (``--deck-id-base``) up: as many layers of ``id_layer`` ids as keep every CardID (id × 100 + slot)
    a 32-bit number — 21 from 1000, one from the highest base."""
    return max(1, (MAX_CARD_ID // 100 - base) // id_layer())


def edition(game: str, lang: str | None) -> str:
    """The name a game's edition is known by among the ids: the game's slug for its default language,
    ``<slug>/<lang>`` for another (a slug holds no ``/``), whose decks and objects are other objects
    on the table than the default edition's: the two loaded together must not share an id."""
    return f"{game}/{lang}" if lang else game


def deck_ids(decks: list[tuple[str, str]], base: int = DECK_ID_BASE,
             editions: Iterable[tuple[str, str]] = ()) -> dict[tuple[str, str], int]:
    """(game, deck) → the deck's first CustomDeck id; its sheets take the next ids, up to
    SHEETS_PER_DECK. Derived from the names, so stable from export to export; ``decks`` is every
    deck of the workspace (in any order), so no two of them share an id. ``editions``: the decks of
    the games' other languages (``edition(game, lang)``, deck), given slots after every deck of
    ``decks``, so adding a language to a game never moves a default edition's ids."""
    every = sorted(set(decks)) + sorted(set(editions) - set(decks))
    if len(every) > DECK_ID_SLOTS:
        raise InputError(f"the workspace has {len(every):,} decks; Tabletop Simulator exports give distinct "
                         f"CustomDeck ids to at most {DECK_ID_SLOTS:,}", expected="fewer decks in data/")
    taken: set[int] = set()
    out = {}
    for game, deck in every:
        slot = int(hashlib.sha1(f"{game}/{deck}".encode()).hexdigest(), 16) % DECK_ID_SLOTS
        while slot in taken:
            slot = (slot + 1) % DECK_ID_SLOTS
        taken.add(slot)
        out[(game, deck)] = base + SHEETS_PER_DECK * slot
    return out


def object_keys(game: str, deck: Deck, faces: list[UniqueFace], parts: int = 1) -> list[tuple]:
    """The names of a deck's objects, each its GUID's parts: the deck (its DeckCustom or Bag; a
    deck split into ``parts`` Tabletop Simulator decks, its first, and the others by their number,
    2 …), every copy, and every copy's back when pieces have backs (a token's second state; a tile,
    whose back is an image, leaves its name unused)."""
    keys: list[tuple] = [(game, deck.id), *((game, deck.id, part) for part in range(2, parts + 1))]
    for face in faces:
        for copy in range(face.copies):
            keys.append((game, deck.id, face.object_name, copy))
            if deck.back and deck.kind != "card":
                keys.append((game, deck.id, face.object_name, copy, "back"))
    return keys


def game_prefixes(games: Iterable[str], editions: Iterable[str] = ()) -> dict[str, str]:
    """game → the first GAME_HEX hex digits of its objects' GUIDs, one of its own among ``games``
    (every game of the workspace, in any order): the SHA-1 of its slug modulo 16 ** GAME_HEX, the
    next free one when two games hash alike (the one that sorts later moves on). Two games' objects
    on one table then never share a GUID. ``editions`` (``edition(game, lang)``: the games' other
    languages) take theirs after every game's, so a language added never moves a game's."""
    slots = 16 ** GAME_HEX
    named = set(games)
    every = sorted(named) + sorted(set(editions) - named)
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
