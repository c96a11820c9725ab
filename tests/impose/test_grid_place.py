"""Where a home sheet's pieces are, as docs/home-printing.md ("Where the pieces are on the sheet")
gives the figures a designer measures a printed sheet against (trial48: the docs were silent)."""

from __future__ import annotations

import pytest

from pnpgen.impose.grid import SheetOptions, layout_grid


@pytest.mark.parametrize("w, h, rotated", [(63, 88, False), (88, 63, True)])
def test_poker_cards_on_a4_stand_where_the_docs_say(w, h, rotated):
    """3 × 3 poker cards (a landscape card turned a quarter, as it then fits 9 rather than 8),
    centred in 5–205 × 11–292 mm, 2 × 0.83 mm apart: the first trim at (8.83, 17.83) mm."""
    sheet = layout_grid(w, h, SheetOptions())
    assert sheet is not None and (sheet.rotated, sheet.cols, sheet.rows) == (rotated, 3, 3)
    assert sheet.sheet_bleed_mm == pytest.approx(5 / 6)
    first, last = sheet.slots[0], sheet.slots[-1]
    assert (first.x, first.y) == (pytest.approx(8 + 5 / 6), pytest.approx(17 + 5 / 6))
    assert (last.x, last.y) == (pytest.approx(8 + 5 / 6 + 2 * (63 + 5 / 3)), pytest.approx(17 + 5 / 6 + 2 * (88 + 5 / 3)))
    assert (210 - (last.x + 63)) == pytest.approx(first.x)  # centred across: the backs' mirror lands on it
