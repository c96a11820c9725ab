"""Issue 22: manifest.json written without json's pure-Python encoder (engine/manifest.py
``manifest_text``), its bytes as ``json.dumps(…, ensure_ascii=False, indent=2)`` made them — the
file format docs/output.md shows, and what designers and tests read."""

from __future__ import annotations

import json
import json.encoder
import math
from enum import IntEnum
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BUILT_ARGS, run
from pnpgen.engine.manifest import manifest_text

KEYS = st.one_of(st.text(max_size=6), st.integers(), st.floats(), st.booleans(), st.none())
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
                            st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(VALUES)
def test_any_plain_value_is_written_as_json_writes_it(value):
    assert manifest_text(value) == _json(value)


class Copies(IntEnum):
    TWO = 2


def test_what_is_not_plain_json_is_json_own_text_or_error():
    odd = {"n": Copies.TWO, "f": [math.nan, -math.inf, -0.0, 1e300], 1.5: {True: None}, "t": (), "d": {}, "s": "\x00\"é\n"}
    assert manifest_text(odd) == _json(odd)  # (an IntEnum, a subclass of int: json.dumps writes that one)
    looped: list = []
    looped.append(looped)
    for bad, error in (({"a": object()}, TypeError), (looped, ValueError)):
        try:
            manifest_text(bad)
        except error as e:
            assert str(e) in ("Object of type object is not JSON serializable", "Circular reference detected")
        else:
            raise AssertionError(f"{bad!r}: no {error.__name__}")


def test_the_four_games_manifests_are_json_own_text(built: Path):
    manifests = sorted(built.rglob("manifest.json"))
    assert len(manifests) >= 4
    for path in manifests:
        text = path.read_text(encoding="utf-8")
        assert manifest_text(json.loads(text)) + "\n" == text, path


def test_a_build_writes_its_manifest_without_the_pure_python_encoder(built_workspace: Path, monkeypatch):
    pure = json.encoder._make_iterencode  # (json takes it whenever indent is set)
    calls: list[int] = []
    monkeypatch.setattr(json.encoder, "_make_iterencode", lambda *a, **k: calls.append(1) or pure(*a, **k))
    deck = built_workspace / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文", "新しい本文", 1), encoding="utf-8")
    assert run(built_workspace, *BUILT_ARGS) == 0
    text = (built_workspace / "build" / "test" / "manifest.json").read_text(encoding="utf-8")
    assert calls == []
    assert text == _json(json.loads(text)) + "\n" and json.loads(text)["changes"]  # (the edit's change line in it)
