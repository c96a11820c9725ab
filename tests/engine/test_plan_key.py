"""A document's plan key (engine/cache.py) covers every field of its plan, its pages and their
items, whether its pages are written out afresh or taken from the pages another document of the
same build shares (a deck's home pages are the all-in-one file's pages too)."""

from __future__ import annotations

import copy
import hashlib
import pickle
from dataclasses import fields, replace

from pnpgen.engine.cache import plan_key
from pnpgen.impose.grid import SheetOptions, choose_layout
from pnpgen.impose.plan import DieLine, Page, PagePlan, PlaceFace, Strokes, TextOp, page_signature, signed
from pnpgen.impose.sheets import DeckSheets, home_sheets, shop_pages
from pnpgen.shapes import Affine, Outline, Straight, shape_spec


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


def test_an_outline_written_out_once_keeps_its_text_but_does_not_carry_it_to_a_worker():
    """A deck's clip outline is shared by every piece placed with it and written out for each, in
    a page's signature and again in its document's key: it keeps its text once written
    (shapes.kept_repr), the text dataclass writes; a copy pickled for a worker process carries
    none and writes the same text again."""
    clip = Outline((Straight(0.0, 0.0, 63.0, 0.0), Straight(63.0, 0.0, 63.0, 88.0)))
    place = PlaceFace("face0", Affine(1, 0, 0, 1, 10.0, 5.0), (63.0, 88.0), 3.0, clip=clip)
    assert repr(place) == ("PlaceFace(face='face0', to_page=Affine(a=1, b=0, c=0, d=1, e=10.0, f=5.0), "
                           "trim_mm=(63.0, 88.0), bleed_mm=3.0, clip=Outline(segments=(Straight(x1=0.0, y1=0.0, "
                           "x2=63.0, y2=0.0), Straight(x1=63.0, y1=0.0, x2=63.0, y2=88.0))), clip_rect=None)")
    assert repr(clip) is repr(clip)  # written once
    plan = PagePlan("title", [Page((210.0, 297.0), [place, replace(place, face="face1")])])
    key = plan_key(plan, {})
    fresh = pickle.loads(pickle.dumps(plan))
    assert all("_repr" not in vars(item.clip) for item in fresh.pages[0].items)
    assert plan_key(fresh, {}) == key and fresh == plan
    other = replace(clip, segments=clip.segments[:1])
    assert plan_key(PagePlan("title", [Page((210.0, 297.0), [replace(place, clip=other)])]), {}) != \
        plan_key(PagePlan("title", [Page((210.0, 297.0), [place])]), {})  # another outline, another text


def test_the_sheets_of_a_deck_share_their_marks_and_write_them_out_once():
    """A home sheet's cut marks and scale bars were some two thirds of its text (its signature,
    its document's key), written out anew for every sheet: the sheets of a deck now share one
    set of strokes per side and block of pieces, which keep their text once written; the text is
    the one dataclass writes, and a sheet with fewer pieces has marks of its own."""
    spec = shape_spec("rect", (63.0, 88.0))
    sheet = SheetOptions()
    layout = choose_layout(spec, 20, sheet)
    deck = DeckSheets("cards", "札", spec, tuple(f"f{i}" for i in range(20)), tuple(f"b{i}" for i in range(20)), 3.0)
    pages = home_sheets(deck, layout, sheet, "F", lambda text, font, size: len(text) * size * 0.35 / 2)
    assert layout.per_sheet == 9 and len(pages) == 6  # fronts and backs of 9, 9 and 2 cards

    def strokes(page: Page) -> list[Strokes]:
        return [item for item in page.items if isinstance(item, Strokes)]

    marks = [strokes(p)[0] for p in pages]
    assert marks[0] is marks[2] and marks[1] is marks[3]  # fronts, backs of a full sheet: one each
    assert marks[0] != marks[1] and marks[4] != marks[0] and marks[5] != marks[1]  # mirrored; a block of 2
    assert all(strokes(p)[1:] == strokes(pages[0])[1:] and strokes(p)[1] is strokes(pages[0])[1] for p in pages)
    text = repr(marks[0])
    assert repr(marks[0]) is text and text.startswith("Strokes(lines=(Straight(x1=")
    fresh = pickle.loads(pickle.dumps(marks[0]))
    assert "_repr" not in vars(fresh) and repr(fresh) == text == dataclass_repr(marks[0])


def dataclass_repr(strokes: Strokes) -> str:
    """The text ``@dataclass`` writes for ``strokes``, field by field."""
    shown = ", ".join(f"{f.name}={getattr(strokes, f.name)!r}" for f in fields(strokes))
    return f"Strokes({shown})"


def _page_and_its_variants() -> tuple[Page, list[Page]]:
    """A page holding one item of each kind, and that page with one field changed (each item's, the page's own)."""
    clip = Outline((Straight(0.0, 0.0, 63.0, 0.0), Straight(63.0, 0.0, 63.0, 88.0)))
    place = PlaceFace("face0", Affine(1, 0, 0, 1, 10.0, 5.0), (63.0, 88.0), 3.0, clip=clip)
    marks = Strokes((Straight(1.0, 2.0, 3.0, 4.0),))
    die = DieLine(clip)
    text = TextOp(5.0, 5.0, "sheet 1", "gothic", 6.0)
    page = Page((210.0, 297.0), [place, marks, die, text], trim=(3.0, 3.0, 66.0, 91.0), bleed=(0, 0, 69.0, 94.0),
                label="p", side="front", matrix=Affine(1, 0, 0, 1, 0.0, 0.0))
    items = [replace(place, to_page=Affine(1, 0, 0, 1, 10.0, 5.5)),  # a position
             replace(place, trim_mm=(63.0, 88.5)), replace(place, clip=replace(clip, segments=clip.segments[:1])),
             replace(place, clip_rect=(0.0, 0.0, 1.0, 1.0)), replace(place, face="face1"),
             replace(marks, lines=(Straight(1.0, 2.0, 3.0, 4.5),)), replace(marks, dash=(1.0,)),  # a mark
             replace(marks, registration=True), replace(die, spot=True), replace(die, layer="CutContour"),
             replace(text, text="sheet 2"), replace(text, angle=90.0)]
    changed = [replace(page, items=[item if type(item) is type(old) else old for old in page.items]) for item in items]
    changed += [replace(page, matrix=Affine(1, 0, 0, 1, 0.5, 0.0)),  # a back offset
                replace(page, trim=(3.0, 3.0, 66.0, 91.5)), replace(page, bleed=None), replace(page, size_mm=(210.0, 298.0)),
                replace(page, label=None), replace(page, side="back")]
    return page, changed


def test_a_change_to_any_one_field_of_a_page_changes_its_documents_key():
    """A position, a mark, a die line, a text, a page's back offset (its printer matrix), its
    boxes: one field changed in one page of a plan, the document's key is another."""
    page, changed = _page_and_its_variants()
    key = plan_key(PagePlan("t", [page, page]), {})
    keys = {plan_key(PagePlan("t", [page, other]), {}) for other in changed}
    assert len(keys) == len(changed) and key not in keys


def test_a_home_pages_hash_made_with_its_signature_is_the_one_its_documents_key_makes():
    """A deck's imposition hashes each home page's whole text as it makes the page's signature
    (impose/plan.py ``signed``: each item written out once for both), and the documents' keys
    take that hash for the page: the signature as the change report had it (the drawn items, no
    text), and the hash of the page's ``repr``, for every kind of item and field."""
    page, changed = _page_and_its_variants()
    pages = [page, *changed, Page((210.0, 297.0)), Page((210.0, 297.0), [TextOp(1.0, 2.0, "only words", "g", 6.0)])]
    for p in pages:
        signature, digest = signed(p)
        drawn = [item for item in p.items if not isinstance(item, TextOp)]
        assert signature == page_signature(p) == hashlib.sha256(repr((p.size_mm, drawn)).encode()).hexdigest()[:16]
        assert digest == hashlib.sha256(repr(p).encode()).digest()
        assert plan_key(PagePlan("t", [p]), {}, {id(p): digest}) == plan_key(PagePlan("t", [p]), {})
    assert len({signed(p)[1] for p in pages}) == len(pages)
    assert len({signed(p)[0] for p in pages}) < len(pages)  # (a text changed is the same signature, another hash)


def test_a_shop_files_copies_share_one_page_and_keep_the_key_of_pages_made_apart():
    """Every printed copy of a face is one page object on the shop file (its key and drawing worked
    out once); the file's key is that of the same pages as separate objects, and each face's
    pages are its own."""
    spec = shape_spec("rect", (63.0, 88.0))
    deck = DeckSheets("cards", "札", spec, ("f0", "f0", "f1", "f0"), ("b0", "b0", "b1", "b0"), 3.0)
    pages = shop_pages(deck, 3.0)
    assert [p.faces() for p in pages] == [["f0"], ["b0"], ["f0"], ["b0"], ["f1"], ["b1"], ["f0"], ["b0"]]
    assert pages[0] is pages[2] is pages[6] and pages[1] is pages[3] and pages[0] is not pages[4]
    shared = PagePlan("shop", pages)
    apart = PagePlan("shop", [copy.deepcopy(p) for p in pages])
    assert plan_key(shared, {}) == plan_key(apart, {})
    assert plan_key(shared, {}) != plan_key(PagePlan("shop", [*pages[:6], *pages[4:6]]), {})
    unique = shop_pages(deck, 3.0, [("f0", "b0", 3, "札A"), ("f1", "b1", 1, "札B")])
    assert [p.label for p in unique] == ["札A ×3", "札A ×3（裏）", "札B ×1", "札B ×1（裏）"]


def test_a_shop_pages_hash_made_from_one_model_page_is_the_hash_of_its_whole_text():
    """A deck's shop pages differ only in their face and label: impose/plan.py ``Alike`` hashes
    each from one model page's text a side, and the hash is the one the page's whole ``repr``
    gives — two-sided and one-sided, die-cut (the die line's layer on each page), labels with
    quotes, a backslash, a line break, and a key or label holding the mark the model is cut at
    (hashed whole)."""
    from pnpgen.impose.plan import _FACE_MARK, _LABEL_MARK, page_digest

    for spec, backs in ((shape_spec("rect", (63.0, 88.0)), ("b0", "b0", "b1", "b0")),
                        (shape_spec("circle", (30.0, 30.0)), None)):
        fronts = ("f0", "f0", "f'1", f"x{_FACE_MARK}")
        deck = DeckSheets("cards", "札", spec, fronts, backs, 3.0)
        for pairs in (None, [("f0", backs and "b0", 3, "札 'A'"), ("f'1", backs and "b1", 1, 'B\\ "x"\nC'),
                             (f"x{_FACE_MARK}", backs and "b0", 2, f"L{_LABEL_MARK}")]):
            digests: dict[int, bytes] = {}
            pages = shop_pages(deck, 2.5, pairs, digests=digests)
            assert {id(p) for p in pages} == set(digests)
            assert all(digests[id(p)] == page_digest(p) == hashlib.sha256(repr(p).encode()).digest() for p in pages)
            assert plan_key(PagePlan("shop", pages), {}, dict(digests)) == plan_key(PagePlan("shop", pages), {})
            assert spec.die_cut == all(isinstance(p.items[-1], DieLine) for p in pages)


def test_a_decks_shop_pages_are_hashed_without_writing_each_out(monkeypatch):
    """Counted, not timed: imposing the shop files of a deck of 12 and of 24 distinct cards writes
    out the same few model pages (one a side, labelled or not), never each page; their
    documents' keys, given those hashes, write none out again."""
    spec = shape_spec("rect", (63.0, 88.0))
    written: list[Page] = []
    write = Page.__repr__

    def counted(page: Page) -> str:
        written.append(page)
        return write(page)

    monkeypatch.setattr(Page, "__repr__", counted)
    for n in (12, 24):
        deck = DeckSheets("cards", "札", spec, tuple(f"f{i}" for i in range(n)), ("b",) * n, 3.0)
        written.clear()
        digests: dict[int, bytes] = {}
        shop = shop_pages(deck, 3.0, digests=digests)
        unique = shop_pages(deck, 3.0, [(f"f{i}", "b", 1, f"札{i}") for i in range(n)], digests=digests)
        # every copy's fronts and the one back; each piece's front and back, labelled: four models, two a file
        assert len(digests) == (n + 1) + 2 * n and len(written) == 4
        written.clear()
        plan_key(PagePlan("shop", shop), {}, digests)
        plan_key(PagePlan("unique", unique), {}, digests)
        assert written == []


def test_a_model_page_holding_its_face_or_label_twice_is_hashed_whole():
    """``Alike`` cuts the model page's text at its face key and its label, each once: a page that
    holds either twice (its label as the text of a mark too) is hashed from its whole text, so its
    hash is still the one its ``repr`` gives, for every key and label."""
    from pnpgen.impose.plan import Alike, page_digest

    def face_twice(face: str, label: str | None) -> Page:
        return Page((100.0, 100.0), [PlaceFace(face, Affine(1, 0, 0, 1, 0.0, 0.0), (63.0, 88.0), 3.0),
                                     PlaceFace(face, Affine(1, 0, 0, 1, 5.0, 0.0), (63.0, 88.0), 3.0)], label=label)

    def label_twice(face: str, label: str | None) -> Page:
        page = face_twice(face, label)
        return replace(page, items=[page.items[0], TextOp(1.0, 1.0, label or "", "Helvetica", 6.0)])

    for model in (face_twice, label_twice):
        alike = Alike(model)
        for face, label in (("f0", "札A"), ("f1", "札B"), ("f2", None)):
            assert alike.digest(model(face, label), face, label) == page_digest(model(face, label)), (model, face)
