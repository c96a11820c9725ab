"""A nesting remembered in the cache (``.cache/nest/``) is used only when it is one the search
could have made: pieces inside the sheet's usable box, never closer than two bleeds, a lattice cell
no smaller than its pieces, as many pieces as it says. Anything else is searched again: a record
that stacks every piece on one spot, runs off the sheet or has no lattice (a division by zero) is
never a sheet, nor a traceback."""

from __future__ import annotations

import pytest

from pnpgen.impose import nest
from pnpgen.memo import Memo
from pnpgen.shapes import bounding_size, shape_spec

A4 = (210.0, 297.0)
TRIHEX = shape_spec("trihex", bounding_size("trihex", 40, "pointy"), {})
CIRCLE = shape_spec("circle", bounding_size("circle", 16, "pointy"), {})


def _remembered(spec) -> tuple[str, list]:
    memo: Memo[list] = Memo()
    nest.clear_cache()
    nest.nest_at(spec, A4, 5.0, 3.0, memo=memo)
    (key, value), = memo.learned.items()
    return key, value


def _slots(layout) -> list[tuple[float, float, int]]:
    return [(round(s.x, 6), round(s.y, 6), s.rot) for s in layout.slots]


TAMPERED = {
    "stacked": lambda v: v[:3] + [[0.0, 1.0], [1.0, 0.0]] + v[5:],  # a lattice cell far smaller than a piece
    "no lattice": lambda v: v[:3] + [[0.0, 0.0], [0.0, 0.0]] + v[5:],  # was a ZeroDivisionError
    "off the sheet": lambda v: v[:6] + [[v[6][0] - 80, v[6][1] - 80, v[6][2] + 80, v[6][3] + 80]],
}


@pytest.mark.parametrize("spec", [TRIHEX, CIRCLE], ids=["trihex", "circle"])
@pytest.mark.parametrize("tampered", sorted(TAMPERED))
def test_a_remembered_nesting_that_the_search_could_not_have_made_is_searched_again(spec, tampered):
    key, value = _remembered(spec)
    nest.clear_cache()
    fresh = nest.nest_at(spec, A4, 5.0, 3.0)
    nest.clear_cache()
    layout = nest.nest_at(spec, A4, 5.0, 3.0, memo=Memo(known={key: TAMPERED[tampered](value)}))
    assert layout is not None and _slots(layout) == _slots(fresh)


def test_a_remembered_nesting_that_holds_is_not_searched_again(monkeypatch):
    key, value = _remembered(TRIHEX)
    nest.clear_cache()
    fresh = nest.nest_at(TRIHEX, A4, 5.0, 3.0)
    nest.clear_cache()

    def no_search(*args):
        raise AssertionError("searched again")

    monkeypatch.setattr(nest, "_search", no_search)
    assert _slots(nest.nest_at(TRIHEX, A4, 5.0, 3.0, memo=Memo(known={key: value}))) == _slots(fresh)
