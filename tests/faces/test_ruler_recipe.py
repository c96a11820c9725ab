"""docs/data-format.md's range ruler: a stick whose inch ticks are true to 0.1 mm."""

from __future__ import annotations

import re

import numpy as np
import pypdfium2
from pypdf import PdfReader

from conftest import REPO, make_workspace, run
from pnpgen.units import MM_PER_PT


def test_the_docs_range_ruler_is_three_inches_with_a_tick_at_every_inch(tmp_path):
    """A designer's trial (trial55): range rulers a player measures with must be right on paper.
    The docs' recipe (grid boxes across the whole stick) is built as written: its trim is 76.2 mm,
    and its ticks stand at 0, 25.4, 50.8 and 76.2 mm from its end, within 0.1 mm."""
    text = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    recipe = re.search(r"```yaml\n# data/<slug>/decks/ruler3\.yaml[^\n]*\n(.*?)```", text, re.S).group(1)
    root = make_workspace(tmp_path / "ws", deck=recipe)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    shop = root / "build" / "test" / "shop" / "cards.pdf"
    x0, y0, x1, y1 = (float(v) * MM_PER_PT for v in PdfReader(shop).pages[0].trimbox)
    assert round(x1 - x0, 3) == 76.2 and round(y1 - y0, 3) == 19.05
    dpi = 1200
    px = 25.4 / dpi
    page = pypdfium2.PdfDocument(str(shop))[0]
    grey = np.asarray(page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L"))
    top = grey.shape[0] - round(y1 / px)  # the trim's top edge, in pixel rows from the page's top
    band = grey[top + round(4.5 / px):top + round(6 / px)] < 128  # under the inch ticks alone (7 mm long; halves 3.5)
    columns = np.nonzero(band.mean(axis=0) > 0.9)[0]
    ticks, run_ = [], [columns[0]]
    for c in columns[1:]:
        if c - run_[-1] > 1:
            ticks.append(sum(run_) / len(run_))
            run_ = []
        run_.append(c)
    ticks.append(sum(run_) / len(run_))
    at = [(t + 0.5) * px - x0 for t in ticks]
    assert len(at) == 4 and all(abs(a - 25.4 * k) < 0.1 for k, a in enumerate(at)), at
