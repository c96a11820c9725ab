"""The checker over real data: every text of every game, and the designers' draft prose."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnpgen import fonts
from pnpgen.data.workspace import Workspace
from pnpgen.faces.textaudit import audit_drafts, audit_game

ROOT = Path(__file__).resolve().parents[2]
WS = Workspace(ROOT)
SLUGS = WS.slugs()


@pytest.fixture(scope="module", autouse=True)
def registered():
    for name in fonts.DEFAULT_FONTS.values():
        fonts.register(name, WS.fonts)


@pytest.mark.skipif(not SLUGS, reason="no game data yet")
@pytest.mark.parametrize("slug", SLUGS)
def test_every_text_of_the_game_sets_without_violations(slug):
    report = audit_game(WS, slug)
    assert report.errors == []
    assert report.violations == []
    assert report.texts > 0


@pytest.mark.skipif(not list(WS.data.glob("*/draft.txt")), reason="no drafts")
def test_draft_prose_sets_without_violations():
    n, violations = audit_drafts(WS)
    assert n > 1000
    assert violations == []


def test_a_texts_mistake_starts_at_its_line_in_the_deck_file(tmp_path):
    """The sweep's errors start at the field's line and column, as the build's piece warnings do."""
    from conftest import DECK_YAML, make_workspace

    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 札, text: '{nosuchicon}で1点'}\n")
    report = audit_game(Workspace(root), "test", render=False)
    [error] = report.errors
    assert error.startswith("data/test/decks/cards.yaml:9:21: "), error  # the text: value
    assert "deck 'cards' piece 1 (札)" in error
