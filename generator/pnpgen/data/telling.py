"""The values that tell apart pieces no name of their own does (pieces sharing a name, or a deck's
pieces without names): the change report, reprint.txt and ``pnpgen diff`` call a piece by them,
``Round［5］``, and so does Tabletop Simulator's table, where a place in the deck file (``#2``)
is nothing a printed piece shows."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pnpgen.data.markup import plain
from pnpgen.data.validate import spelt
from pnpgen.messages import msg

if TYPE_CHECKING:
    from pnpgen.data.model import Piece

LABEL_VALUE = 24  # characters of a value that tells a piece apart, then …
TELLING_FIELDS = 5  # fields at most that tell a piece apart


def plain_values(values: dict[str, Any]) -> dict[str, Any]:
    """A piece's fields as JSON values (anything else as its text), for comparing builds: what a
    JSON round trip (``json.dumps(values, default=str)``, then ``json.loads``) gives, a copy, made
    without the round trip where the values are JSON's own (text, FieldText among it, whole
    numbers, floats, true and false, null, lists and tuples of them, objects of text keys); anything
    else (a date, a key that is no text, a subclass of a number) goes through the round trip itself. (2,000 pieces'
    fields an edit of a 1,000-card deck: the change report's snapshot and the reprint files.)"""
    return _plain(values)


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if isinstance(value, str):  # a FieldText: JSON writes its characters, whatever its own str() says
        return str.__str__(value)
    if kind is float:  # JSON writes a float by its repr and reads the same float back; NaN a new NaN
        return value if value == value else float("nan")
    if kind is list or kind is tuple:
        return [_plain(item) for item in value]
    if kind is dict and all(isinstance(k, str) for k in value):
        return {k if type(k) is str else str.__str__(k): _plain(v) for k, v in value.items()}
    return _round_trip(value)


def _round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def telling_fields(values: list[dict[str, Any]]) -> list[str]:
    """The fields whose values differ among these pieces of one kind, in their order (at most
    TELLING_FIELDS)."""
    return [f for f in dict.fromkeys(f for v in values for f in v)
            if len({str(v.get(f)) for v in values}) > 1][:TELLING_FIELDS]


COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


def shortest_telling_fields(sides: list[list[dict[str, Any]]], changed: set[str]) -> list[str]:
    """The fewest fields that tell apart the pieces of one kind in each build (``sides``: each
    build's pieces' values), for the change report: those that did not change in this comparison
    first (a piece told by the very field edited, ``Art [3, #9fb2cf, Axis]: defense: 2 → 3``, a
    trial of session 47; one that changed only where nothing else tells them apart, ``Round [5]``),
    the designer's readable words (a faction, a type) before numbers and colours; a field added
    only where it tells more pieces apart, none once each is told."""
    order = list(dict.fromkeys(f for side in sides for v in side for f in v))

    def rank(f: str) -> int:
        said = [v.get(f) for side in sides for v in side if v.get(f) not in (None, "")]
        if said and all(isinstance(x, str) and COLOUR.fullmatch(x.strip()) for x in said):
            return 2
        if said and all(isinstance(x, (int, float)) or (isinstance(x, str) and _number_like(x)) for x in said):
            return 1
        return 0

    columns: dict[str, list[list[str]]] = {}  # a field's values as the tag shows them, each side's pieces in order

    def column(f: str) -> list[list[str]]:  # (as the tag shows them: a long text cut short tells nothing past its cut)
        if f not in columns:
            columns[f] = [[_shown(v.get(f)) for v in side] for side in sides]
        return columns[f]

    def groups(fields: list[str]) -> int:
        return sum(len(set(zip(*(column(f)[i] for f in fields)))) if fields else min(len(side), 1)
                   for i, side in enumerate(sides))

    whole = sum(len(side) for side in sides)
    chosen: list[str] = []
    told = groups(chosen)
    for f in sorted(order, key=lambda f: (f in changed, rank(f))):
        if told == whole or len(chosen) == TELLING_FIELDS:
            break
        if (more := groups([*chosen, f])) > told:
            chosen.append(f)
            told = more
    return chosen  # (the readable first, each rank in the deck's order of its fields)


def _shown(value: Any) -> str:
    return "" if value in (None, "") else _clipped(plain(as_text(value, "en")).replace("\n", " "))


def _number_like(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def told_by_values(name: str, values: dict[str, Any], fields: list[str], lang: str) -> str | None:
    """``Round［5］`` (``Round [5]`` in English): ``name`` with the piece's values of ``fields``,
    None when it has none of them to show."""
    shown = [_clipped(plain(as_text(values[f], lang)).replace("\n", " "))
             for f in fields if values.get(f) not in (None, "")]
    return msg("reprint.nameless", lang, piece=name, values=msg("reprint.nameless.sep", lang).join(shown)) \
        if shown else None


def names_told_apart(pieces: Iterable[Piece], lang: str) -> dict[int, str]:
    """Each named piece's name, by its number: a name several pieces of the deck share with the
    values that tell it apart from the others of its name, as the change report calls it
    (``団子［1］`` … ``団子［13］``, a suit's ranks), with its number where no value does
    (``得点 #2``). Pieces without a name of their own (``#2``) are left out: each caller names
    them its way. For the shop's order.csv, the contact sheet and Tabletop Simulator's table."""
    named = {p.index: p.label for p in pieces if p.label != f"#{p.index}"}
    if not named:
        return {}
    shared = Counter(named.values())
    if max(shared.values()) == 1:
        return named
    values = {p.index: plain_values(p.values) for p in pieces if shared.get(named.get(p.index, ""), 0) > 1}
    telling = {name: telling_fields([values[i] for i, n in named.items() if n == name])
               for name, many in shared.items() if many > 1}
    return {i: name if shared[name] == 1 else told_by_values(name, values[i], telling[name], lang) or f"{name} #{i}"
            for i, name in named.items()}


def as_text(value: Any, lang: str) -> str:
    """A field's value as the designer wrote it: a list's items parted by ／ (`` / `` in English),
    never Python's or JSON's brackets and quotes (``['ちょうど３つ取る', '成功で１５点']``); a mapping,
    true or false in YAML's flow words (``{a: 1}``, ``true``), as the lint's messages write them."""
    if isinstance(value, (list, tuple)):
        return msg("reprint.list.sep", lang).join(as_text(item, lang) for item in value)
    if isinstance(value, (dict, bool)):
        return spelt(value)
    return str(value)


def _clipped(text: str) -> str:
    return text if len(text) <= LABEL_VALUE else text[:LABEL_VALUE - 1] + "…"
