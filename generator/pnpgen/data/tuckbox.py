"""A deck's ``box:`` (``shape: tuckbox``): the tuck box's figures from the cards it holds, each
checked, with its default. The layout's ``box:`` (the built-in ``tuck-box``'s) gives defaults a
deck's own ``box:`` changes key by key; boxnet.py draws the net from the result.

Defaults are the figures of the usual home-made tuck-box templates: 1 mm of play round the cards
(more for sleeved cards), a tuck flap as deep as the box plus 10 mm, a 10 mm glue flap, dust flaps
as deep as the box, 3 mm chamfers, a thumb notch 16 mm across; a card 0.3 mm thick (a 300 g/m²
print-and-play card; sleeved cards are nearer 0.5 mm).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from pnpgen.boxnet import TuckBox
from pnpgen.data import piecesize
from pnpgen.data import validate as v
from pnpgen.data.formats import CARD_FORMATS
from pnpgen.errors import InputError, suggest
from pnpgen.patterns import later

BOX_KEYS = {
    "deck": "the deck it holds: its cards' size and count",
    "decks": "the decks it holds together: the largest of their cards, their counts summed",
    "cards": "the cards it holds: a format (poker) or [w, h]",
    "count": "how many cards (× card_thickness gives the depth)",
    "card_thickness": "one card's thickness, mm",
    "thickness": "the deck's thickness, mm, instead of count × card_thickness",
    "allowance": "play added to the cards' width, height and thickness, mm",
    "tuck": "the tuck flaps' depth, mm",
    "glue": "the glue flap's width, mm",
    "dust": "the dust flaps' depth, mm",
    "chamfer": "the flaps' 45° corners, mm",
    "notch": "the thumb notch's radius, mm (0: none)",
}
BOX_COUNTS = ("the cards the box holds", "cards")  # what its count counts, as a fraction or a range is told
DEFAULTS: dict[str, Any] = {"cards": "poker", "count": 60, "card_thickness": 0.3, "allowance": 1.0, "glue": 10.0,
                            "chamfer": 3.0, "notch": 8.0}
TUCK_PAST_DEPTH = 10.0  # mm: the tuck flap's default depth past the box's
MAX_COUNT = 5000  # cards in one box


class Given(Protocol):
    """A value as written and where (data/layouts.py's Origin)."""

    value: Any

    def parse(self, parse: Callable[..., Any], *args: Any) -> Any: ...

    def error(self, message: str, expected: str | None = None, key: bool = False) -> InputError: ...

    def item(self, index: int) -> Given:
        """The list's entry ``index`` and where it is written (a bad id is told at itself)."""
        ...


def merged(under: Mapping[str, Given], over: Mapping[str, Given]) -> dict[str, Given]:
    """A layer's box figures over those below (a deck's over its layout's): a ``thickness`` over
    a ``count`` replaces it, and the other way round."""
    out = dict(under)
    if "thickness" in over:
        out.pop("count", None)
        out.pop("card_thickness", None)
    if "count" in over or "card_thickness" in over:
        out.pop("thickness", None)
    out.update(over)
    return out


class Held:
    """A figure taken from the deck a box holds, told at the box's ``deck:`` when it is wrong."""

    def __init__(self, value: Any, at: Given):
        self.value, self.at = value, at

    def parse(self, parse: Callable[..., Any], *args: Any) -> Any:
        try:
            return parse(self.value, *args)
        except v.Invalid as e:
            if isinstance(self.value, int) and self.value > MAX_COUNT:  # its copies (it read 'count 6000 is not a whole number')
                raise self.at.error(f"the deck it holds prints {self.value:,} cards, more than a box holds",
                                    f"at most {MAX_COUNT:,} in one box: 'count: {MAX_COUNT}' beside 'deck:' for a box "
                                    "of part of the deck") from None
            raise self.at.error(f"the deck it holds gives {e.message}", e.expected) from None

    def error(self, message: str, expected: str | None = None, key: bool = False) -> InputError:
        return self.at.error(message, expected, key)

    def item(self, index: int) -> Given:
        return self.at.item(index)


class DeckLookup(Protocol):
    """The game's decks by id (data/load.py): a box's ``deck:`` reads the one it holds."""

    @property
    def ids(self) -> list[str]: ...

    def __call__(self, deck_id: str) -> Any: ...


def holding(at: Given, decks: DeckLookup | None, own_id: str, several: bool = False) -> dict[str, Given]:
    """The figures ``box: {deck: id}`` takes from that deck: its pieces' size and its copies; those
    ``box: {decks: [a, b, c]}`` takes from several, one box for the game's cards: the largest card
    each way and their copies summed (カード75枚 follows all three counts)."""
    ids = at.parse(_deck_ids) if several else [at.parse(v.name, "a deck id")]
    held = [_held(at.item(i) if several else at, decks, own_id, deck_id) for i, deck_id in enumerate(ids)]
    return {"cards": Held([max(d.trim_mm[0] for d in held), max(d.trim_mm[1] for d in held)], at),
            "count": Held(sum(d.count for d in held), at)}


def _deck_ids(value: Any) -> list[str]:
    ids = v.names(value, "decks")
    if not ids or len(set(ids)) < len(ids):
        raise v.Invalid("decks must name each deck it holds once" if ids else "decks names no deck",
                        "the ids (file names) of the decks of cards it holds: 'decks: [cards, extras]'")
    return ids


def _held(at: Given, decks: DeckLookup | None, own_id: str, deck_id: str) -> Any:
    """The deck of cards ``deck_id`` a box holds, told at its ``deck:`` or ``decks:`` when it is none."""
    if decks is None or deck_id not in decks.ids:
        ids = decks.ids if decks is not None else []
        raise at.error(f"no deck {deck_id!r} in this game{suggest(deck_id, ids)}",
                       "the id (file name) of the game's deck of cards it holds" + (": " + ", ".join(ids) if ids else ""))
    if deck_id == own_id:
        raise at.error("a box cannot hold its own deck", "the id (file name) of the deck of cards it holds")
    deck = decks(deck_id)
    if deck is None or deck.shape == "tuckbox":  # (None: it is loading, a box holding this one)
        raise at.error(f"deck {deck_id!r} is a box, not cards", "the id (file name) of the deck of cards it holds")
    if deck.count < 1:
        raise at.error(f"deck {deck_id!r} prints no copies", "a deck whose pieces' counts add up to 1 or more")
    return deck


def _cards(value: Any) -> tuple[float, float]:
    """A format's cards or ``[w, h]``; told as ``cards:`` is written (not ``size:``)."""
    try:
        if isinstance(value, list) or (isinstance(value, str) and any(ch.isdigit() for ch in value)):
            return piecesize.size(value, "rect", False)  # type: ignore[return-value]  # (63x88: told as [63, 88])
        return CARD_FORMATS[v.card_format(value)]
    except v.Invalid as e:
        raise v.Invalid(e.message.replace("size needs", "cards needs"),
                        e.expected.replace("'size: ", "'cards: ") if e.expected else e.expected) from None


def tuck_box(given: Mapping[str, Given]) -> TuckBox:
    """The box ``given`` (key → value and where) describes, the defaults filling the rest."""
    def length(key: str, lo: float, hi: float) -> float | None:
        if key not in given:
            return None
        return float(given[key].parse(v.length, lo, hi, key))

    def said(key: str, default: Any) -> Any:
        return given[key].parse(_cards) if key == "cards" and key in given else default

    cw, ch = said("cards", CARD_FORMATS[DEFAULTS["cards"]])
    allowance = length("allowance", 0, 30)
    allowance = DEFAULTS["allowance"] if allowance is None else allowance
    thickness = length("thickness", 0.5, 500)
    if thickness is None:
        count = given["count"].parse(v.count, (1, MAX_COUNT), "'count: 60'", BOX_COUNTS) if "count" in given else DEFAULTS["count"]
        card = length("card_thickness", 0.05, 5)
        thickness = count * (DEFAULTS["card_thickness"] if card is None else card)
    elif "count" in given or "card_thickness" in given:
        key = "count" if "count" in given else "card_thickness"
        raise given[key].error(f"box gives both thickness and {key}", "either 'thickness:' or 'count:' (with "
                               "'card_thickness:')", key=True)
    w, h, d = cw + allowance, ch + allowance, thickness + allowance
    chamfer = length("chamfer", 0, 20)
    chamfer = min(DEFAULTS["chamfer"], d / 4) if chamfer is None else _at_most(given["chamfer"], chamfer, d / 4,
                                                                                "a quarter of the box's depth")
    tuck = length("tuck", 5, 500)
    tuck = min(d + TUCK_PAST_DEPTH, h / 2) if tuck is None else _at_most(given["tuck"], tuck, h, "the box's height")
    dust = length("dust", 3, 500)
    most = min(w / 2, d + tuck - chamfer)
    dust = min(d, most) if dust is None else _at_most(given["dust"], dust, most, "half the box's width, and its "
                                                      "depth and tuck flap less the chamfer")
    glue = length("glue", 3, 100)
    glue = DEFAULTS["glue"] if glue is None else glue
    notch = length("notch", 0, 200)
    most = min(w / 2 - chamfer - 1, h / 3)
    notch = min(DEFAULTS["notch"], most) if notch is None else _at_most(given["notch"], notch, most,
                                                                          "a third of the height, within the width")
    box = TuckBox(round(w, 3), round(h, 3), round(d, 3), round(tuck, 3), round(glue, 3), round(dust, 3),
                  round(chamfer, 3), round(max(notch, 0.0), 3))
    if max(box.size) > v.SIZE_MM[1]:  # as any piece's size: a count of 5000 thick cards is no box
        at = next((given[k] for k in ("thickness", "count", "card_thickness", "cards") if k in given), None)
        message = f"the box's net would be {box.size[0]:g}×{box.size[1]:g} mm"
        expected = f"a net at most {v.SIZE_MM[1]:g} mm each way: fewer or thinner cards"
        raise at.error(message, expected) if at is not None else InputError(message, expected=expected)
    return box


def _at_most(at: Given, value: float, most: float, what: str) -> float:
    if value > most + 1e-9:
        raise at.error(f"{value:g} mm is more than {what} ({most:g} mm) allows", f"at most {most:g} mm")
    return value


# a count of cards a box's text prints: カード60枚, 60 cards (full-width digits read as NFKC makes them)
_COUNTED = later(r"(\d[\d,]*)\s*(?:枚|cards?\b)", re.I)


def miscounted(deck: Any, figures: Mapping[str, Given], text_fields: list[str]) -> list[str]:
    """A box holding a deck (``box: {deck: cards}``) whose pieces' text counts cards, none of them
    as many as the box holds: the figures follow the deck, the words the designer wrote do not
    (the box printed カード54枚 after the deck grew to 60). Named at the field, the largest count. A box
    of several decks whose text gives one count a deck, adding up to what it holds, says it right."""
    holder = next((key for key in ("deck", "decks") if key in figures), None)
    if holder is None or "count" not in figures:
        return []
    count = figures["count"].parse(v.count, (1, MAX_COUNT), "'count: 60'", BOX_COUNTS)
    held = figures[holder].value
    if holder == "decks":  # box: {decks: [a, b]}: their count together
        follows = f" (decks {', '.join(map(repr, held))} print {count})"
        held = "[" + ", ".join(held) + "]"
    else:
        follows = f" (deck {held!r} prints {count})"
    follows = follows if isinstance(figures["count"], Held) else ""
    notes = []
    for piece in deck.pieces:
        said = [(int(m.group(1).replace(",", "")), m.group(0), key) for key in text_fields if piece.count
                for m in _COUNTED.finditer(unicodedata.normalize("NFKC", str(piece.values.get(key) or "")))]
        # a box of several decks whose text counts each of them (読み札48枚・取り札48枚) says them all
        each = holder == "decks" and len(said) == len(figures[holder].value) and sum(n for n, _, _ in said) == count
        if said and all(n != count for n, _, _ in said) and not each:
            n, words, key = max(said)
            notes.append(f"{piece.where_of(key)}: deck {deck.id!r} piece {piece.index} ({piece.said}): its {key} "
                         f"says {words!r}, but the box holds {count} cards{follows} (expected {count} there"
                         + (f", or box: {{{holder}: {held}, count: {n}}} for a box of part of {'those decks' if holder == 'decks' else 'that deck'})"
                            if n < count else ")"))
    return notes
