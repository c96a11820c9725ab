"""How a deck goes on the paper (``DeckOnPaper``: its outline, and its sheet layout or its tiles),
the sheet options it is laid out with, whether its backs go behind its fronts, and what the sheet
alone says of it: registration marks or card stock reaching into the printer's margin. The build's
warnings that read its options (the printer, --duplex, --layout sleeve, the cutting machine) are
engine/paper.py's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pnpgen.data.formats import PAPER_SIZES, paper_named_by_size, paper_title, papers_nearest
from pnpgen.data.model import Deck
from pnpgen.data.sheetlayouts import SheetStock, margin_warnings
from pnpgen.errors import InputError
from pnpgen.impose.grid import SheetOptions, choose_layout
from pnpgen.impose.slots import SlotLayout
from pnpgen.impose.tiles import TilePlan
from pnpgen.shapes import ShapeSpec


@dataclass(frozen=True)
class DeckOnPaper:
    """How a deck goes on the paper: its outline, and a sheet layout or (a board) its tiles."""

    spec: ShapeSpec
    layout: Any  # impose/grid.py or impose/nest.py layout; None for tiles
    tiles: TilePlan | None
    by_hand: bool = False  # --marks silhouette: a board that fits the paper, not the marks' area (トンボ, no cut files)
    whole_with: tuple[float, float] | None = None  # a tiled board: (--margin, bleed) that hold it whole on one sheet
    whole_at: tuple[float, float] | None = None  # a tiled board: the size (w, h) of its proportions one sheet holds

    @property
    def on_stock(self) -> bool:
        """Does the deck go on card stock (a sheet layout's slots: ``sheet:``, --sheet)?"""
        return isinstance(self.layout, SlotLayout)


def back_behind(deck: Deck, sheet: SheetOptions, on_stock: bool) -> bool:
    """Are the deck's backs printed behind its fronts on the home sheets? Not for a one-sided
    deck, nor for cards as sleeve inserts (fronts only, a backer card behind them) — but cards
    ``on_stock`` (``DeckOnPaper.on_stock``) print fronts and backs in its slots whatever --layout says."""
    return deck.back is not None and (on_stock or not (sheet.layout == "sleeve" and deck.kind == "card"))


def on_deck_paper(deck: Deck, sheet: SheetOptions) -> SheetOptions:
    """The build's sheet options on the deck's own ``paper:`` when it gives one and --paper was
    not given on the command line (which wins over every deck's)."""
    own = own_paper(deck, sheet)
    return sheet if own is None or own == sheet.paper else replace(sheet, paper=own)


def own_paper(deck: Deck, sheet: SheetOptions) -> str | None:
    """The deck's ``paper:`` when its sheets are on it (not overridden by --paper), else None."""
    return None if sheet.paper_given else deck.paper


def own_paper_refused(deck: Deck, sheet: SheetOptions, spec: ShapeSpec, stock: SheetStock | None = None) -> InputError | None:
    """A deck's own ``paper:`` (``sheet``: the deck's sheet options) that cannot take it, said at
    its line: not the paper of the card stock its pieces go on (--sheet, game.yaml's ``sheet:``),
    or one on which none of its pieces fits (a board or tile is split into tiles instead), with
    the papers that hold one. None: the deck's paper does, or the deck gives none."""
    own, at = own_paper(deck, sheet), deck.paper_where
    if own is None or at is None:
        return None
    if stock is not None:
        if sorted(stock.paper_mm) == sorted(sheet.paper_mm):
            return None
        return InputError(f"deck {deck.id!r}: paper {own} is not the paper of sheet layout {stock.id!r} "
                          f"({stock.paper}, {stock.paper_mm[0]:g}×{stock.paper_mm[1]:g} mm) its pieces go on",
                          path=at.path, line=at.line, column=at.column, key="paper",
                          expected=f"paper: {stock.paper}, or 'sheet: grid' in this deck file")
    holds = papers_holding(spec, sheet, deck.kind, own)
    return InputError(f"deck {deck.id!r}: a {deck.trim_mm[0]:g}×{deck.trim_mm[1]:g} mm piece does not fit on "
                      f"{own.upper()} inside a {sheet.margin_mm:g} mm margin", path=at.path, line=at.line,
                      column=at.column, key="paper",
                      expected=("one of " + ", ".join(holds) if holds else "a smaller piece (no paper pnpgen knows holds it)")
                      + ("" if deck.kind in ("board", "tile") else ", or kind: board (split into tiles)"))


def papers_holding(spec: ShapeSpec, sheet: SheetOptions, kind: str, but: str) -> list[str]:
    """The papers pnpgen knows, but ``but``, on which one of the pieces fits (``sheet``'s margin and
    bleed), ``but``'s own family first (data/formats.py papers_nearest)."""
    return papers_nearest(but, lambda name: choose_layout(spec, 1, replace(sheet, paper=name), kind) is not None)


def deck_sheet(deck: Deck, sheet: SheetOptions) -> SheetOptions:
    """The sheet options a deck is laid out and drawn with: the build's, with the deck's own
    ``paper:``, ``bleed:`` and (sleeve inserts) ``sleeve:`` (docs/data-format.md) when it gives them."""
    sheet = on_deck_paper(deck, sheet)
    if deck.sleeve_mm is not None and sheet.layout == "sleeve":
        sheet = replace(sheet, sleeve_mm=deck.sleeve_mm)
    return sheet if deck.bleed_mm is None else replace(sheet, bleed_mm=deck.bleed_mm)


def silhouette_warnings(sheet: SheetOptions) -> list[str]:
    """With ``--marks silhouette``: marks whose outer edge lies inside the printer's margin (an
    ``inset`` under 10 mm, or thick lines): the printer leaves them out or cuts them short, and
    the machine finds no marks to cut by."""
    marks = sheet.silhouette
    if marks is None:
        return []
    edge = marks.inset_mm - marks.thickness_mm / 2
    if edge >= sheet.margin_mm - 1e-9:
        return []
    return [f"--silhouette-marks: the registration marks' outer edge is {edge:g} mm from the paper's edge, inside "
            f"the printer's {sheet.margin_mm:g} mm margin (--margin): the printer leaves them out or cuts them "
            f"short and the machine cannot find them; an inset of at least {sheet.margin_mm + marks.thickness_mm / 2:g} "
            "mm (Silhouette Studio's least is 10 mm), or the printer's own --margin"]


def stock_warnings(placed: list[tuple[Deck, DeckOnPaper]], sheet: SheetOptions) -> list[str]:
    """Each sheet layout whose slots reach into the printer's margin, or leave no band above or
    below them for the slug, once; and each whose paper is not that of its decks (--paper, game.yaml's)."""
    layouts = {p.layout.stock.id: p.layout for _, p in placed if isinstance(p.layout, SlotLayout)}
    out = [w for lay in layouts.values() for w in margin_warnings(lay.stock, sheet.margin_mm)]
    out += [f"{lay.stock.source}: sheet layout {lay.stock.id}: its slots leave no {sheet.slug_mm:g} mm band "
            "above or below them for the slug (how to print, scale bars, version stamp); it prints over the "
            "top slots" for lay in layouts.values() if not lay.slug_room(sheet)]
    other = {p.layout.stock.id: (p.layout, on.paper) for deck, p in placed
             if stock_paper_apart(p, on := on_deck_paper(deck, sheet)) is not None}
    return out + [f"{lay.stock.source}: sheet layout {lay.stock.id} is {_said(lay.stock.paper)} paper "
                  f"({lay.stock.paper_mm[0]:g}×{lay.stock.paper_mm[1]:g} mm), not {paper} (--paper): its decks' "
                  f"home sheets, and their pages in the all-in-one file, are {_said(lay.stock.paper)}; print them on it"
                  for lay, paper in other.values()]


def stock_paper_apart(placed: DeckOnPaper, on: SheetOptions) -> SheetStock | None:
    """The sheet layout a deck goes on when its paper is not ``on``'s (the deck's sheet options):
    an A3 map section's layout in an A4 game (``sheet: map-a3``); else None."""
    stock = placed.layout.stock if isinstance(placed.layout, SlotLayout) else None
    return stock if stock is not None and sorted(stock.paper_mm) != sorted(on.paper_mm) else None


def paper_printed_on(placed: DeckOnPaper, on: SheetOptions) -> str:
    """The paper a deck's home sheets are, by the name a designer buys it by: its sheet layout's
    when that is another (``a3`` for ``paper: [420, 297]``, the size as written for one of no
    name), else ``on``'s (the build's, or the deck's own ``paper:``)."""
    stock = stock_paper_apart(placed, on)
    if stock is None:
        return on.paper
    w, h = stock.paper_mm
    return paper_named_by_size(f"{w:g}x{h:g}mm") or stock.paper


def _said(paper: str) -> str:
    """A sheet layout's paper as a designer names it: ``A4`` for ``a4``, ``A3`` for a layout written
    ``420x297`` (trial69: "is 420x297 paper"); the size as written for a paper pnpgen has no name for."""
    named = paper if paper in PAPER_SIZES else paper_named_by_size(paper)
    return paper_title(named) if named else paper
