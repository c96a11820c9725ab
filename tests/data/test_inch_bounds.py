"""A length at a bound that another unit gave (a 1.5in tile is 38.099999999999994 mm as a float) is
the bound: a polygon's corner written 38.1 on that tile was refused with the self-contradictory
"x 38.1 is out of range (expected 0 to 38.1 mm)" (a US designer's square tile cut as a polygon)."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.validate import Invalid, length
from pnpgen.data.workspace import Workspace


def test_a_corner_on_the_edge_of_an_inch_sized_piece(tmp_path):
    deck = DECK_YAML.replace("format: poker", "kind: token\nsize: [1.5in, 1.5in]\nshape: polygon\n"
                             "points: [[0, 0], [38.1, 0], [38.1, 38.1], [0, 38.1]]") + "  - {name: 牧草地}\n"
    game = load_game(Workspace(make_workspace(tmp_path / "ws", deck=deck)), "test")
    (d,) = game.decks
    assert d.trim_mm == pytest.approx((38.1, 38.1))
    xs = sorted({x for x, _ in d.options["points"]})
    assert xs[0] == 0 and xs[-1] <= d.trim_mm[0] and xs[-1] == pytest.approx(38.1)


def test_a_hair_past_the_bound_is_the_bound_and_beyond_it_still_refused():
    hi = 1.5 * 25.4
    assert length(38.1, 0.0, hi, "x") == hi
    assert length("1.5in", 0.0, 38.1, "x") == pytest.approx(38.1)
    with pytest.raises(Invalid, match="x 38.11 is out of range"):
        length(38.11, 0.0, hi, "x")
    with pytest.raises(Invalid, match="is out of range"):
        length(-0.001, 0.0, hi, "x")
