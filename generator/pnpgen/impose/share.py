"""The all-in-one file's home sheets (a page plan, pure mm): each deck's in turn, and with game.yaml
``share_sheets: true`` decks that go on the paper alike as one run, the copies of their last
sheets on sheets they share.

Each deck's home sheets come as an ``OnAll``; a deck that may share says how it goes on the paper
(``Sharing``). The sheets the decks share are drawn by the caller's ``draw``, as a deck's own are
(its printer profile's matrix on them too), so they print exactly as a deck's own sheets would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pnpgen.impose.fold import FoldLayout
from pnpgen.impose.grid import SheetLayout, SheetOptions, layout_grid_at
from pnpgen.impose.nest import NestLayout
from pnpgen.impose.plan import Page
from pnpgen.impose.sheets import DeckSheets, duplex_ready
from pnpgen.impose.sleeve import SleeveLayout
from pnpgen.impose.slots import SlotLayout


@dataclass(frozen=True)
class Sharing:
    """How a deck that may share goes on the paper: the deck as imposition knows it, its layout,
    whether it is cut by hand (``--marks silhouette``, a board the marks leave no room for), its
    kind (card, tile, …) and the sheet options it is laid out with (its own ``bleed:``)."""

    deck: DeckSheets
    layout: SheetLayout | NestLayout | SlotLayout | FoldLayout | SleeveLayout
    by_hand: bool
    kind: str
    sheet: SheetOptions

    def alike(self) -> tuple:
        """Decks share only with those of the same piece, bleed, sides, layout and sheet options;
        die-cut pieces with no cut marks (``OUTLINES``) of any outline and size, each deck on a
        grid or nested, at the same sheet bleed (``common_layout`` finds them a common slot)."""
        ds = self.deck
        if any_outline(self):
            piece: tuple = ("any outline", self.layout.sheet_bleed_mm)
        else:
            piece = (repr(ds.spec), repr(self.layout))
        return (*piece, self.by_hand, ds.art_bleed_mm, ds.backs is None, self.kind, repr(self.sheet))

    def same(self) -> tuple:
        """The piece and layout: decks of one shape share its own layout."""
        return (repr(self.deck.spec), repr(self.layout))


OUTLINES = ("circle", "hex", "trihex", "polygon")  # cut along their own die line, no cut marks round a block


def any_outline(like: Sharing) -> bool:
    """May this deck share sheets with decks of other outlines (a grid or nesting of die-cut pieces)?"""
    return like.deck.spec.kind in OUTLINES and isinstance(like.layout, (SheetLayout, NestLayout))


def common_layout(run: list[Sharing]) -> SheetLayout | NestLayout | SlotLayout | FoldLayout | SleeveLayout | None:
    """The layout decks sharing sheets print on: their own, when all are of one shape and layout;
    else a grid of slots the size of the largest piece (the widest by the tallest), at their
    sheet bleed, each piece centred in its slot (impose/sheets.py ``_centred``). None when that
    slot fits no sheet."""
    if len({like.same() for like in run}) == 1:
        return run[0].layout
    w = max(like.deck.spec.w for like in run)
    h = max(like.deck.spec.h for like in run)
    return layout_grid_at(w, h, run[0].sheet, run[0].layout.sheet_bleed_mm, room=0.0)


@dataclass
class OnAll:
    """A deck's home sheets as the all-in-one file holds them, or those decks share
    (``shared_sheets``): whether they have backs pages, and the bookmark of each deck on them
    (the sheet its first copy is on, from 0; its name)."""

    home: list[Page]
    backs: bool
    bookmarks: list[tuple[int, str]]
    shares: Sharing | None  # what sharing needs; None: never shares (tiles)
    alone: int = 0  # shared: the sheets the decks take each on its own

    @property
    def sheets(self) -> int:
        return len(self.home) // (2 if self.backs else 1)


Draw = Callable[[Sharing], list[Page]]  # the home sheets of a deck (those decks share: ``Sharing.deck``)


def shared_sheets(decks: list[OnAll], draw: Draw) -> list[OnAll]:
    """The decks that go on the paper alike (``Sharing.alike``) printed as one run where the first
    of them stands: each deck's full sheets as in its own file, then the copies of their last
    sheets together (``_one_run``). Decks whose last sheets together would take as many sheets
    stay where they are, as do tiled boards (no ``Sharing``); fold-over decks share fold-over
    sheets with those that fold alike (their ``FoldLayout``), sleeve inserts inserts' sheets with
    those of the same card and sleeve (their ``SleeveLayout``), one-sided and two-sided alike (an
    insert is a front alone).
    (A ``--marks silhouette`` build shares none: the machine cuts each deck's sheets by its own
    cut files, engine/imposition.py.)"""
    runs: dict[tuple, list[OnAll]] = {}
    key_of: dict[int, tuple] = {}
    for n, on in enumerate(decks):
        if on.shares is not None and _left_over(on):  # (a deck of full sheets only: nothing to share)
            key_of[n] = on.shares.alike()
            runs.setdefault(key_of[n], []).append(on)
    layouts = {key: common_layout([on.shares for on in run if on.shares is not None]) for key, run in runs.items()}
    out: list[OnAll] = []
    for n, on in enumerate(decks):
        run = runs.get(key_of.get(n, ()), [on])
        layout = layouts.get(key_of.get(n, ()))
        if layout is None or not _saves_a_sheet(run, layout.per_sheet):  # as it stands
            out.append(on)
        elif run[0] is on:
            out.append(_one_run(run, layout, draw))
    return out


def _saves_a_sheet(run: list[OnAll], per: int) -> bool:
    """Do the copies of the decks' last sheets, together (``per`` a shared sheet), take fewer sheets than alone?"""
    left = [_left_over(on) for on in run]
    return -(-sum(left) // per) < sum(n > 0 for n in left)


def _left_over(on: OnAll) -> int:
    """How many copies of a deck that may share are on its last sheet, when that one has free slots."""
    if on.shares is None:
        return 0
    return len(on.shares.deck.fronts) % on.shares.layout.per_sheet


def _one_run(run: list[OnAll], layout: SheetLayout | NestLayout | SlotLayout | FoldLayout | SleeveLayout,
             draw: Draw) -> OnAll:
    """Decks' home sheets as one run: each deck's full sheets (its own file's pages), then the
    copies of their last sheets on sheets they share (on ``layout``), in deck order, each naming
    the decks on it; each deck's bookmark at the sheet of its first copy."""
    per_page = 2 if run[0].backs else 1
    home: list[Page] = []
    sheet_of: list[int] = []  # each deck's first sheet in the run (-1: on the shared sheets)
    rest: list[tuple[int, DeckSheets, int]] = []  # each deck with copies left, and its first copy left
    for n, on in enumerate(run):
        assert on.shares is not None
        ds, per = on.shares.deck, on.shares.layout.per_sheet
        full = len(ds.fronts) // per
        sheet_of.append(len(home) // per_page if full else -1)
        home += on.home[:full * per_page]
        if _left_over(on):
            rest.append((n, ds, full * per))
    parts = tuple((ds.name, ds.id, len(ds.fronts) - at) for _n, ds, at in rest)
    first = rest[0][1]
    together = replace(first, id="+".join(p[1] for p in parts), name=" + ".join(p[0] for p in parts),
                       fronts=tuple(f for _n, ds, at in rest for f in ds.fronts[at:]),
                       backs=None if first.backs is None else tuple(b for _n, ds, at in rest for b in (ds.backs or ())[at:]),
                       parts=parts,
                       specs=() if layout is first_like(run).layout else tuple(ds.spec for _n, ds, at in rest for _f in ds.fronts[at:]))
    like = replace(first_like(run), layout=layout)
    shared = draw(replace(like, deck=together))
    at, first_shared = 0, len(home) // per_page
    for n, ds, left in rest:
        if sheet_of[n] < 0:
            sheet_of[n] = first_shared + at // like.layout.per_sheet
        at += len(ds.fronts) - left
    marks = sorted(((sheet, on.shares.deck.name) for sheet, on in zip(sheet_of, run) if on.shares is not None),
                   key=lambda mark: mark[0])  # in page order (a deck of no full sheet: after the others' full sheets)
    return OnAll(home + shared, run[0].backs, marks, None, alone=sum(on.sheets for on in run))


def first_like(run: list[OnAll]) -> Sharing:
    """How the first deck of a run goes on the paper."""
    like = run[0].shares
    assert like is not None
    return like


def all_in_one_sheets(decks: list[OnAll], sheet: SheetOptions, font: str,
                      lang: str) -> tuple[list[Page], list[tuple[int, str]], list[dict[str, Any]]]:
    """The all-in-one file's home pages, deck after deck (or run after run), with each deck's
    bookmark (page from 0, name) and the bill of materials' word of the sheets decks share (their
    names, sheets, the sheets they take alone, first and last page). Printed duplex, each one-sided
    sheet gets a blank back so every backs page lands behind its fronts; a file of one-sided sheets
    only (fold-over, sleeve inserts) prints one-sided, no blanks."""
    two_sided = any(on.backs for on in decks)
    pages: list[Page] = []
    bookmarks: list[tuple[int, str]] = []
    shared: list[dict[str, Any]] = []
    for on in decks:
        step = 2 if on.backs or (two_sided and sheet.duplex != "none") else 1  # pages a sheet: fronts, backs or a blank
        bookmarks.extend((len(pages) + at * step, name) for at, name in on.bookmarks)
        first = len(pages) + 1
        pages.extend(on.home if not two_sided else duplex_ready(on.home, on.backs, sheet, font, lang))
        if len(on.bookmarks) > 1:
            shared.append({"decks": [name for _at, name in on.bookmarks], "sheets": on.sheets, "alone": on.alone,
                           "pages": [first, len(pages)]})
    return pages, bookmarks, shared
