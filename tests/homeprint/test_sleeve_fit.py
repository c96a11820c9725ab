"""The sleeve-fit warning's two edges (engine/paper.py ``sleeve_fit_warnings``): a sleeve up to
``LOOSE_MM`` larger than the card either way suits it, one more is another format's; a sleeve with
less than ``CLEARANCE_MM`` to spare reduces the inserts. Checked on the decision alone (no build)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pnpgen.engine.options import BuildOptions
from pnpgen.engine.paper import sleeve_fit_warnings
from pnpgen.impose.grid import SheetOptions
from pnpgen.impose.sleeve import CLEARANCE_MM, LOOSE_MM
from pnpgen.shapes import ShapeSpec


def _warned(sleeve: tuple[float, float], card: tuple[float, float] = (63.0, 88.0), own=None) -> list[str]:
    deck = SimpleNamespace(kind="card", sleeve_mm=own, trim_mm=card, id="cards", size_where=None,
                           where=lambda: "data/test/decks/cards.yaml:1")
    on_paper = SimpleNamespace(layout=None, spec=ShapeSpec("rect", card[0], card[1], ()))
    options = BuildOptions(sheet=SheetOptions(layout="sleeve", sleeve_mm=sleeve))
    return sleeve_fit_warnings([(deck, on_paper)], options)


@pytest.mark.parametrize("sleeve, told", [
    ((63 + LOOSE_MM, 88.0 + 3), False),       # exactly LOOSE_MM wider: still this format's sleeve
    ((63 + LOOSE_MM + 1, 88.0 + 3), True),    # 1 mm more: slides about
    ((66.0, 88 + LOOSE_MM + 1), True),        # looser the long way only
    ((88.0 + 3, 63 + LOOSE_MM), False),       # the sleeve written the other way up suits as well
    ((63 + CLEARANCE_MM, 88 + CLEARANCE_MM), False),  # 1 mm to spare: the trim kept
    ((63 + CLEARANCE_MM - 0.5, 91.0), True),  # less: its inserts reduced
])
def test_a_sleeve_suits_a_card_up_to_loose_mm_larger_and_with_the_clearance_to_spare(sleeve, told):
    said = _warned(sleeve)
    assert bool(said) == told, said
    if told:
        assert said[0].startswith("data/test/decks/cards.yaml:1: --sleeve") and "expected sleeve: 66x91" in said[0]


def test_a_deck_with_its_own_sleeve_is_not_told_of_the_builds():
    assert _warned((90.0, 120.0)) and not _warned((90.0, 120.0), own=(66.0, 91.0))
