"""``plain_values`` (data/telling.py): a piece's fields as a JSON round trip gives them, made
without the round trip for JSON's own values: the same values, of the same types, for every
kind of value a piece's fields can hold."""

from __future__ import annotations

import datetime
import json
import math
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pnpgen.data.model import FieldText
from pnpgen.data.telling import plain_values


def round_trip(values: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(values, ensure_ascii=False, default=str))


def same(a: Any, b: Any) -> bool:
    """Equal, of the same types all the way down (a NaN the same as a NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and str(a) == str(b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


class Word(str):
    pass


class Count(int):
    pass


class Shown(str):
    def __str__(self) -> str:
        return "not what JSON writes"


EDGES = {
    "text": "こんにちは\n\"quoted\"\\", "whole": 7, "big": 2**80, "neg_zero": -0.0, "float": 0.1 + 0.2,
    "inf": math.inf, "nan": math.nan, "yes": True, "none": None, "tuple": (1, ("a", 2.5)),
    "list": [1, [2, {"k": (3,)}]], "date": datetime.date(2026, 12, 5), "in_list": [datetime.date(2026, 1, 2)],
    "int_keys": {1: "one", 2.5: "x", False: "f", None: "n"}, "sub_str": Word("w"), "shown": Shown("s"), "field": FieldText("札", "title"), "sub_int": Count(3),
    "nested_sub": {"k": [Word("v"), {Word("key"): 1, Shown("k2"): Shown("v2")}]}, "object": Path("art/x.png"), "empty": {},
    "collide": {1: "int", "1": "text"},
}


def test_every_kind_of_value_as_the_round_trip_gives_it() -> None:
    for key, value in EDGES.items():
        values = {key: value}
        assert same(plain_values(values), round_trip(values)), key
    assert same(plain_values(EDGES), round_trip(EDGES))
    assert plain_values({"t": (1, 2)})["t"] == [1, 2]
    assert plain_values({"k": {3: "x"}})["k"] == {"3": "x"}
    assert plain_values({"d": datetime.date(2026, 12, 5)})["d"] == "2026-12-05"


def test_a_copy_never_the_pieces_own_lists_and_dicts() -> None:
    values = {"list": [1, [2]], "dict": {"a": [3]}}
    plain = plain_values(values)
    plain["list"][1].append(9)
    plain["dict"]["a"].append(9)
    assert values == {"list": [1, [2]], "dict": {"a": [3]}}


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                    st.dates(), st.builds(Word, st.text(max_size=3)), st.builds(FieldText, st.text(max_size=3)),
                    st.builds(Shown, st.text(max_size=3)))
KEYS = st.one_of(st.text(max_size=3), st.integers(-3, 3), st.booleans(), st.builds(Word, st.text(max_size=2)))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(KEYS, inner, max_size=3)), max_leaves=10)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=4), VALUES, max_size=4))
def test_any_fields_as_the_round_trip_gives_them(values: dict[str, Any]) -> None:
    assert same(plain_values(values), round_trip(values))
