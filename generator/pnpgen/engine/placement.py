"""Where a game's decks go on paper: the printer profile it prints with, each deck's sheet stock and
layout on its paper (or the clear error when a piece cannot fit), the rulebook's paper, and the
page limits a game's files stay under. Apart from game.py: what build_game asks before it
imposes, and what ``pnpgen check`` asks without building."""

from __future__ import annotations

from dataclasses import replace

from pnpgen.boxnet import TuckBox, deepest
from pnpgen.data.formats import PAPER_SIZES, booklet_paper_for, papers_nearest
from pnpgen.data.model import Deck, Game
from pnpgen.data.printers import Printer, check_asked, load_printer
from pnpgen.data.sheetlayouts import SheetStock
from pnpgen.data.workspace import Workspace
from pnpgen.engine.imposition import GamePlan
from pnpgen.engine.options import BuildOptions
from pnpgen.errors import InputError, Where
from pnpgen.impose.cutter import silhouette_layout
from pnpgen.impose.grid import SheetOptions, choose_layout, margin_to_hold_whole, size_to_hold_whole
from pnpgen.impose.onpaper import (
    DeckOnPaper,
    back_behind,
    deck_sheet,
    own_paper,
    own_paper_refused,
    papers_holding,
)
from pnpgen.impose.sheets import (
    TILE_OPTIONS,
)
from pnpgen.impose.slots import slot_layout
from pnpgen.impose.tiles import plan_tiles
from pnpgen.memo import Memo
from pnpgen.shapes import ShapeSpec, deck_shape


def _spec(deck: Deck) -> ShapeSpec:
    try:
        return deck_shape(deck)
    except ValueError as e:
        raise InputError(f"deck {deck.id!r}: {e}", path=deck.source, key="shape") from None



def paper_layouts(game: Game, sheet: SheetOptions, nest_memo: Memo[list] | None = None,
                  stock: SheetStock | None = None) -> list[DeckOnPaper]:
    """Each deck's layout on the paper, or the error of a deck that fits nowhere: known before
    anything is drawn, so a piece too large stops the build at once. ``stock``: --sheet."""
    return [deck_on_paper(deck, deck_sheet(deck, sheet), nest_memo, deck_stock(game, deck, stock)) for deck in game.decks]


def deck_stock(game: Game, deck: Deck, stock: SheetStock | None) -> tuple[SheetStock, Where, str] | None:
    """The sheet layout a deck goes on, where it was chosen and by which key: the deck file's
    ``sheet:`` (``grid``: none), else --sheet, else game.yaml's ``sheet:``; None: the grid."""
    if deck.sheet_where is not None:
        return (deck.sheet, deck.sheet_where, "sheet") if deck.sheet is not None else None
    if stock is not None:
        return stock, Where(deck.source), "--sheet"
    if game.options.get("sheet") is not None:
        return game.options["sheet"], game.options["sheet_at"], "sheet"
    return None


def deck_on_paper(deck: Deck, sheet: SheetOptions, nest_memo: Memo[list] | None = None,
                  stock: tuple[SheetStock, Where, str] | None = None) -> DeckOnPaper:
    """The deck's layout on the paper; an InputError when its pieces fit nowhere, or not the
    slots of its sheet layout (``stock``, from ``deck_stock``). ``nest_memo``: the nesting
    searches of earlier builds (``cached_nesting``)."""
    spec = _spec(deck)
    if not back_behind(deck, sheet, on_stock=stock is not None):
        sheet = sheet.without_backs()
    if stock is not None:
        if (refused := own_paper_refused(deck, sheet, spec, stock[0])) is not None:  # (--sheet, game.yaml's sheet:)
            raise refused
        return DeckOnPaper(spec, slot_layout(stock[0], spec, sheet, stock[1], stock[2]), None)
    if sheet.silhouette is not None:
        layout = silhouette_layout(spec, deck.count, sheet, sheet.silhouette, deck.kind)
        if layout is None and deck.kind in ("board", "tile"):  # whole on the paper, cut by hand, not tiled
            whole = choose_layout(spec, deck.count, sheet.cut_by_hand(), deck.kind, nest_memo)
            if whole is not None:
                return DeckOnPaper(spec, whole, None, by_hand=True)
    else:
        layout = choose_layout(spec, deck.count, sheet, deck.kind, nest_memo)
    tiles = None
    if layout is None and deck.kind in ("board", "tile") and spec.tuck_box is None:  # a net is never tiled
        tiles = plan_tiles(spec.w, spec.h, sheet.paper_mm, sheet.margin_mm, sheet.bleed_mm, TILE_OPTIONS)
        if sheet.silhouette is None:
            return DeckOnPaper(spec, None, tiles, whole_with=margin_to_hold_whole(spec, deck.count, deck.kind, sheet, nest_memo),
                               whole_at=size_to_hold_whole(spec, sheet))
    if layout is None and tiles is None:
        size = f"deck {deck.id!r}: a {deck.trim_mm[0]:g}×{deck.trim_mm[1]:g} mm piece does not fit"
        if sheet.silhouette is not None:  # the paper holds it: the registration marks' area does not
            x0, y0, x1, y1 = sheet.area
            z, h = sheet.silhouette.reach_mm, sheet.paper_mm[1]
            raise _at_size(f"{size} between the Silhouette registration marks on {sheet.paper.upper()} "
                           f"(room: {x1 - z:.1f}×{y1 - y0:.1f} mm right of the bottom-left mark's keep-out "
                           f"zone, or {x1 - x0:.1f}×{min(y1, h - z) - y0:.1f} mm above it)", deck,
                           f"a larger {'paper: in its deck file' if own_paper(deck, sheet) else '--paper'}, a smaller "
                           "inset or keepout (--silhouette-marks), or a build without --marks silhouette (cut by hand)")
        if spec.tuck_box is not None:  # (on its own paper: too: the paper that holds the net, or a shallower box)
            raise _box_too_big(deck, spec.tuck_box, sheet)
        if (refused := own_paper_refused(deck, sheet, spec)) is not None:  # the deck file's paper: too small
            raise refused
        holds = papers_holding(spec, sheet, deck.kind, sheet.paper)  # (a deck file's paper: moves this deck alone)
        raise _at_size(f"{size} on {sheet.paper.upper()} inside a {sheet.margin_mm:g} mm margin", deck,
                       (f"{'--paper' if sheet.paper_given else 'paper:'} {holds[0]}"
                        f"{'' if sheet.paper_given else ' in its deck file'} (one of {', '.join(holds)}), " if holds else "")
                       + "or kind: board (split into tiles)")
    return DeckOnPaper(spec, layout, tiles)


def _box_too_big(deck: Deck, box: TuckBox, sheet: SheetOptions) -> InputError:
    """A tuck box whose net the paper does not hold: which paper would, or how deep a box would
    fit this one (a net is no board: it is never split into tiles)."""
    m, top = sheet.margin_mm, sheet.margin_mm + sheet.slug_mm  # the room nets are placed in (SheetOptions.area)
    w, h = box.size
    holds = papers_nearest(sheet.paper, lambda name: any(  # (not A3 first to a Letter game)
        w <= across - 2 * m and h <= down - m - top for across, down in (PAPER_SIZES[name], PAPER_SIZES[name][::-1])))
    deep = deepest(box, sheet.area_mm)
    # the deck file's paper: moves this deck alone, where --paper moves every deck (and a printer
    # profile measured on one paper refuses it: trial64's Letter box of sleeved tarot cards)
    asked = "--paper {}" if sheet.paper_given and not own_paper(deck, sheet) else (
        "paper: {}" if own_paper(deck, sheet) else "paper: {} in its deck file")
    offers = ([f"{asked.format(holds[0])} (its net fits there)"] if holds else []) + (
        [f"a box at most {deep:g} mm deep inside (fewer or thinner cards: box: {{count: …}} or {{thickness: …}})"]
        if deep >= 3 else ["smaller cards (box: {cards: …})"])
    where = deck.size_at  # the deck's box:, else the deck (its layout's box)
    return InputError(f"deck {deck.id!r}: its tuck box ({box.w:g}×{box.h:g}×{box.d:g} mm inside) has a {w:g}×{h:g} "
                      f"mm net, which does not fit on {sheet.paper.upper()} inside a {m:g} mm margin", path=where.path,
                      line=where.line, column=where.column, key="box" if deck.size_where else None,
                      expected=", or ".join(offers))


def _at_size(message: str, deck: Deck, expected: str) -> InputError:
    """A deck too large for the paper, said at the size the deck file gives (a size written in the
    wrong unit, 22cm for 22 mm, shows there), else at the deck file (a layout's size)."""
    where = deck.size_at
    return InputError(message, path=where.path, line=where.line, column=where.column,
                      key="size" if deck.format == "custom" else "format", expected=expected)


def game_printer(ws: Workspace, game: Game, options: BuildOptions) -> BuildOptions:
    """The options with game.yaml's ``paper:`` (unless --paper or --printer named one) and its
    ``printer:`` profile applied, unless --printer named one; an unknown or bad profile is an error
    naming game.yaml's line (or printers.yaml's)."""
    paper = game.options.get("paper")
    if paper and options.asked[0] is None and options.printer is None:
        options = replace(options, sheet=replace(options.sheet, paper=paper))
    if options.printer is not None:
        return options
    printer = game_profile(ws, game, options.asked)
    if printer is None:
        return options
    duplex = printer.duplex or options.sheet.duplex
    sheet = replace(options.sheet, paper=printer.paper or options.sheet.paper, duplex=duplex,
                    **printer.sheet_fields(duplex))
    return replace(options, sheet=sheet, printer=printer)


def game_profile(ws: Workspace, game: Game, asked: tuple[str | None, str | None] = (None, None)) -> Printer | None:
    """game.yaml's ``printer:`` profile (None: it names none); an unknown profile, or ``asked``
    (--paper, --duplex) against it, is an error at game.yaml's printer: line."""
    name = game.options.get("printer")
    if not name:
        return None
    at = game.options["printer_at"]
    try:
        printer = load_printer(ws.root, name)
        check_asked(printer, *asked)
    except InputError as e:  # an unknown profile, or --paper/--duplex against it: said at game.yaml's printer: line
        if e.key not in ("--printer", "--paper", "--duplex"):
            raise  # (a bad profile names printers.yaml's own line)
        raise InputError(e.message, path=at.path, line=at.line, column=at.column, key="printer",
                         expected=e.expected) from None
    return printer


def booklet_paper(ws: Workspace, game: Game, given: str | None) -> str:
    """The paper the rulebook's booklet is printed on, as the home sheets' is chosen: ``given``
    (--paper, or --printer's profile), else game.yaml's ``printer:`` profile's paper, else its
    ``paper:``; a US paper (Letter, Legal, Tabloid) gives the Letter booklet, every other (A4,
    A3) the A4 one."""
    profile = game_profile(ws, game) if given is None else None
    paper = given or (profile.paper if profile is not None else None) or game.options.get("paper")
    return booklet_paper_for(paper)


MAX_PAGES = 50_000  # pages of every file of a game together (a 10,000-copy two-sided deck's shop files: 21,000)
MAX_TILED_PAGES = 1_200  # measured (bench/limits.py): 1,200 build in under 30 s; pages of boards tiled across sheets (each holds the whole board's art, clipped)


def check_pages(game: Game, plan: GamePlan) -> None:
    """The game's page plans against the page limit, before any page is drawn."""
    _within(game, sum(len(doc.pages) for doc in plan.documents.values()), "pages", MAX_PAGES)


def check_tiled(game: Game, on_paper: list[DeckOnPaper]) -> None:
    """Boards tiled across sheets against their limit, before a page is planned: every copy of a
    board is its tiles' pages (and their backs)."""
    tiled = sum(p.tiles.pages * d.count * (2 if d.back else 1)
                for d, p in zip(game.decks, on_paper) if p.tiles is not None)
    _within(game, tiled, "pages of tiled boards", MAX_TILED_PAGES)


def _within(game: Game, n: int, what: str, limit: int) -> None:
    if n > limit:
        raise InputError(f"the build would draw {n:,} {what}", path=f"data/{game.slug}/decks",
                         expected=f"at most {limit:,} (the limit for {what} per game): fewer copies, or "
                         "a larger --paper for the boards")
