"""Issue 22: what every page of a deck's side shows alike is made once a deck, not once a page —
a shop page's boxes, placement, clip and die line (3,000 cards: 9,000 distinct shop pages), a home
sheet's slug lines that read alike on every sheet (its scale labels, its print instruction). The
pages' text, their hashes and their signatures stay what they were, counted at n and 2n cards."""

from __future__ import annotations

import pickle
from dataclasses import fields

from pnpgen.impose import sheets
from pnpgen.impose.grid import SheetOptions, choose_layout
from pnpgen.impose.plan import DieLine, TextOp, page_digest
from pnpgen.impose.sheets import CUT_LAYER, DeckSheets, home_sheets, shop_face_page, shop_pages
from pnpgen.shapes import shape_spec


def _measure(text: str, font: str, size: float) -> float:
    return len(text) * size * 0.35 / 2


def _deck(spec, n: int) -> DeckSheets:
    return DeckSheets("tokens", "札", spec, tuple(f"f{i}" for i in range(n)), ("b",) * n, 3.0)


def test_a_decks_shop_pages_share_their_clip_and_die_line_at_n_and_2n(monkeypatch):
    """Each side's clip is asked for once a deck (once a page before: 2n + 2 at n round tokens);
    every page is the page ``shop_face_page`` makes with its die line on the cut layer, and its
    hash the one its text gives."""
    spec = shape_spec("circle", (30.0, 30.0))
    assert spec.die_cut
    asked: list[str] = []
    clip = sheets._shop_clip
    monkeypatch.setattr(sheets, "_shop_clip", lambda spec, bleed, side: asked.append(side) or clip(spec, bleed, side))
    for n in (12, 24):
        deck = _deck(spec, n)
        asked.clear()
        digests: dict[int, bytes] = {}
        shop = shop_pages(deck, 3.0, digests=digests)
        unique = shop_pages(deck, 3.0, [(f"f{i}", "b", 1, f"札{i}") for i in range(n)], digests=digests)
        assert len(shop) == len(unique) == 2 * n
        assert len(asked) == 4  # (front and back, once for each file; 2n + 2 pages were each a clip)
        assert len({id(page.items[1]) for page in shop + unique}) == 4  # one die line a side a file, shared
        for page in shop + unique:
            side = "back" if page.items[0].face == "b" else "front"
            alone = shop_face_page(spec, 3.0, page.items[0].face, side, 3.0, page.label)
            alone.items.append(DieLine(sheets._die_paths(deck, 3.0)[side == "back"], spot=True, layer=CUT_LAYER))
            assert repr(page) == repr(alone) and page == alone
            assert digests[id(page)] == page_digest(page)


def test_the_slug_lines_every_sheet_prints_alike_are_one_object_at_n_and_2n():
    """A home sheet's scale labels and print instruction read alike on every sheet of a deck: one
    text object each for the whole deck, written out once (``kept_repr``), so the sheets' text
    objects are one a page (the sheet's own line) and three; before, four a page."""
    spec = shape_spec("rect", (63.0, 88.0))
    sheet = SheetOptions()
    for n in (18, 36):
        layout = choose_layout(spec, n, sheet)
        pages = home_sheets(_deck(spec, n), layout, sheet, "F", _measure)
        texts = [item for page in pages for item in page.items if isinstance(item, TextOp)]
        assert len(texts) == 4 * len(pages) == 4 * 2 * n // 9
        assert len({id(t) for t in texts}) == len(pages) + 3
        for text in texts:
            shown = ", ".join(f"{f.name}={getattr(text, f.name)!r}" for f in fields(text))
            assert repr(text) == f"TextOp({shown})"  # the text ``@dataclass`` writes
        shared = texts[0]
        fresh = pickle.loads(pickle.dumps(shared))
        assert "_repr" not in vars(fresh) and repr(fresh) == repr(shared) and fresh == shared


def test_a_slug_line_of_another_size_type_is_another_object():
    """The shared lines are kept by their values and their types: a label at 4.5 pt is not the one
    at 4 pt, nor 10 the one at 10.0 (their texts differ)."""
    a = sheets._slug_line(10.0, 5.0, "1 in", "F", 4.5, True, "middle")
    assert sheets._slug_line(10.0, 5.0, "1 in", "F", 4.5, True, "middle") is a
    b = sheets._slug_line(10, 5.0, "1 in", "F", 4.5, True, "middle")
    assert b is not a and repr(b) != repr(a)
