"""A document's plan key (engine/cache.py) covers every field of its plan, its pages and their
items, whether its pages are written out afresh or taken from the pages another document of the
same build shares (a deck's home pages are the all-in-one file's pages too)."""

from __future__ import annotations

import copy
from dataclasses import replace

from pnpgen.engine.cache import plan_key
from pnpgen.impose.plan import Page, PagePlan, PlaceFace, TextOp
from pnpgen.shapes import Affine


def _plan() -> PagePlan:
    pages = [Page((210.0, 297.0), [PlaceFace(f"face{i}", Affine(1, 0, 0, 1, 10.0 * i, 5.0), (63.0, 88.0), 3.0),
                                   TextOp(5, 5, f"sheet {i}", "gothic", 6)], label=f"p{i}") for i in range(3)]
    return PagePlan("title", pages)


def test_the_key_follows_every_field_and_not_the_objects():
    plan = _plan()
    key = plan_key(plan, {"face0": "-a"})
    assert plan_key(copy.deepcopy(plan), {"face0": "-a"}) == key  # the same plan in other objects
    changed = [
        PagePlan("other title", plan.pages),
        PagePlan(plan.title, [replace(plan.pages[0], label="x"), *plan.pages[1:]]),
        PagePlan(plan.title, [replace(plan.pages[0], side="back"), *plan.pages[1:]]),
        PagePlan(plan.title, [*plan.pages[:2], replace(plan.pages[2], items=[
            replace(plan.pages[2].items[0], bleed_mm=2.0), plan.pages[2].items[1]])]),
        PagePlan(plan.title, plan.pages[:2]),
    ]
    assert len({key, *(plan_key(p, {"face0": "-a"}) for p in changed)}) == len(changed) + 1
    assert plan_key(plan, {"face0": "-b"}) != key  # a face's art changed


def test_pages_shared_by_two_documents_are_written_out_once_with_the_same_keys():
    plan = _plan()
    everything = PagePlan("all", [*plan.pages, Page((210.0, 297.0), [])])
    alone = (plan_key(plan, {}), plan_key(everything, {}))
    shown: dict[int, bytes] = {}
    assert (plan_key(plan, {}, shown), plan_key(everything, {}, shown)) == alone
    assert len(shown) == 4  # three pages shared, one the second document's own
