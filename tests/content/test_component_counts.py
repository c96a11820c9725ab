"""The shipped games' components as the drafts count them (issue 4), in the built manifests and
the loaded data: checks on the games' content, not on pnpgen's code."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace


def _manifest(built, slug):
    return json.loads((built / slug / "manifest.json").read_text(encoding="utf-8"))


# Issue 4's components, as the drafts count them.
COUNTS = {
    "populous": {"area": 15, "town": 30, "worker": 60, "terrain": None, "race": 5},
    "asian-delivery": {"areas": 10, "facilities": 40, "vp-markers": 4, "start-marker": 1, "workers": 16,
                       "cargo": 90},
}


@pytest.mark.parametrize("slug", sorted(COUNTS))
def test_component_counts_in_the_manifest(built, slug):
    decks = {d["id"]: d for d in _manifest(built, slug)["decks"]}
    for deck_id, count in COUNTS[slug].items():
        assert deck_id in decks
        if count is not None:
            assert decks[deck_id]["count"] == count, deck_id


def test_cargo_counters_are_60_20_10(built):
    game = load_game(Workspace(REPO), "asian-delivery")
    cargo = game.deck("cargo")
    assert sorted(p.count for p in cargo.pieces) == [10, 20, 60]


