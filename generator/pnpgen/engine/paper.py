"""What the build's options say about the decks on the paper: the warnings of a build whose
sheets print but may print badly — backs with too little bleed for the printer's offset,
``--duplex`` beside fold-over sheets, sleeve inserts that leave out backs telling cards apart,
pieces too large for a cutting machine's image; for `check`, a board tiled that one sheet would hold
at a size or margin near its own. (How a deck goes on the paper, and what the sheet
alone says of it: impose/onpaper.py.)"""

from __future__ import annotations

from pnpgen.data.model import Deck
from pnpgen.engine.manifest import DeckRecord, layout_record, tiled_hint
from pnpgen.engine.options import BuildOptions
from pnpgen.exports.cutfiles import too_large_for_cricut
from pnpgen.faces.faceset import DeckFaces
from pnpgen.impose.cutter import CRICUT_AREA_IN
from pnpgen.impose.fold import layout_fold
from pnpgen.impose.grid import SheetOptions
from pnpgen.impose.onpaper import DeckOnPaper, back_behind, deck_sheet, on_deck_paper, own_paper
from pnpgen.impose.sleeve import LOOSE_MM, Sleeve, default_sleeve
from pnpgen.impose.slots import SlotLayout


def short_bleed_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """With a printer profile, each deck with backs whose home sheets give less bleed than the
    profile's back offset needs (its larger offset + 0.5 mm), or than the deck asks when it asks
    less (a deck's own ``bleed: 1``): its backs may show white edges. A deck that asks less
    (``bleed:``, ``--bleed``) is told at the profile's line, with the bleed that would do."""
    out = _offset_bleed_warnings(placed, options)
    for deck, on_paper in placed:
        need = min(options.sheet.least_bleed_mm, deck.bleed(options.sheet.bleed_mm))
        bleed = getattr(on_paper.layout, "sheet_bleed_mm", None)
        if not back_behind(deck, options.sheet, on_paper.on_stock) or options.printer is None or bleed is None \
                or bleed >= need - 1e-9:
            continue
        if getattr(on_paper.layout, "kind", "") == "slots":  # card stock: its slots fix the bleed, not the paper
            why = (f"the slots of sheet layout {on_paper.layout.name!r} leave no room for more, so backs may "
                   "show white edges (a printer that shifts less, or 'sheet: grid' for this deck)")
        else:  # (a deck on its own paper: is told to give a larger one there: --paper moves every deck)
            own = own_paper(deck, options.sheet) is not None
            why = (f"the {on_deck_paper(deck, options.sheet).paper} paper has no room for gutters, so backs may show white edges "
                   f"(a larger {'paper: in its deck file' if own else '--paper'}, --layout fold, or a printer that shifts less)")
        # the deck's sheet: line, which fixes the slots, else its paper: line, which fixes the paper, else its file
        at = deck.sheet_where or (deck.paper_where if own_paper(deck, options.sheet) else None) or deck.where()
        out.append(f"{at}: deck {deck.id!r}: its home sheets give {bleed:.1f} mm of bleed, below the {round(need, 2):g} mm the "
                   f"back offset of printer {options.printer.name!r} needs (the larger offset + 0.5 mm): {why}")
    return out


def profile_paper_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """With a printer profile measured on one paper (its ``paper:``): each deck whose own
    ``paper:`` puts its sheets on another (cards on Letter, the map on Tabloid), where the profile
    moves or scales them: its figures were measured on the profile's paper, not this one. Said
    once per deck, at its ``paper:`` line, with the calibration and profile that would be right (a
    profile holds one paper: docs/home-printing.md)."""
    printer, sheet = options.printer, options.sheet
    if printer is None or printer.paper is None:
        return []
    out = []
    for deck, on_paper in placed:
        own = own_paper(deck, sheet)
        if own is None or own == printer.paper or deck.paper_where is None:
            continue
        moved = back_behind(deck, sheet, on_paper.on_stock) and sheet.duplex != "none" and any(printer.back_offset_mm)
        scaled = printer.scale != (1.0, 1.0)
        if not (moved or scaled):
            continue  # (the profile changes nothing on this deck's pages: a one-sided deck, an offset alone)
        what = " and ".join(w for w, applies in ((f"back offset ({printer.back_offset_mm[0]:+g}/"
                                                  f"{printer.back_offset_mm[1]:+g} mm)", moved),
                                                 (f"scale ({printer.scale[0] * 100:g}/{printer.scale[1] * 100:g} %)",
                                                  scaled)) if applies)
        mine, theirs = own.upper(), printer.paper.upper()  # (as every message names a paper: A3, LETTER)
        out.append(f"{deck.paper_where}: deck {deck.id!r} prints on {mine} (its deck file's paper: {own}), but printer "
                   f"profile {printer.name!r} ({printer.source}) was measured on {theirs}: its {what} "
                   f"{'are' if moved and scaled else 'is'} applied to the {mine} sheets unmeasured (expected: print "
                   f"pnpgen calibrate --paper {own} on that printer and write what it reads as a profile of its own, "
                   f"{printer.name}-{own}: {{paper: {own}, …}} in printers.yaml, to build this deck with; or this deck "
                   f"built without --printer)")
    return out


def _bleed_below_offset(deck: Deck, on_paper: DeckOnPaper, options: BuildOptions) -> bool:
    """The deck's bleed (its own ``bleed:``, else ``--bleed``) below what the profile's back offset
    needs: its backs' art, moved by the offset, leaves white at the cut whatever room the paper
    has. Not for backs the offset does not move (one-sided, sleeve inserts, folded pieces, ``--duplex
    none``, a profile with no offset: ``least_bleed_mm`` 0)."""
    sheet = options.sheet
    return options.printer is not None and deck.bleed(sheet.bleed_mm) < sheet.least_bleed_mm - 1e-9 \
        and back_behind(deck, sheet, on_paper.on_stock) \
        and not (sheet.layout == "fold" and layout_fold(on_paper.spec, deck_sheet(deck, sheet)) is not None)


def _offset_bleed_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """Each deck drawn with less bleed than the profile's back offset needs (``_bleed_below_offset``),
    at the profile's line, with the bleed that would do. The decks drawn with none (counters that
    abut, gang-cut) are told together, once: between their pieces a back off its front shows the
    neighbour's colour, not paper (trial49 was told its backs would leave white at the cut, and to
    give up the gang-cut; three counter decks got three warnings alike)."""
    printer, sheet = options.printer, options.sheet
    short = [deck for deck, on_paper in placed if _bleed_below_offset(deck, on_paper, options)]
    if printer is None or not short:
        return []
    need, (dx, dy) = sheet.least_bleed_mm, printer.back_offset_mm
    offset = f"{printer.source}: the back offset of printer {printer.name!r} ({dx:+g}/{dy:+g} mm) needs {need:g} mm of bleed"

    def asked(deck: Deck) -> str:
        bleed = deck.bleed(sheet.bleed_mm)
        return f"its deck file's bleed: {bleed:g}" if deck.bleed_mm is not None else f"--bleed {bleed:g}"

    def right(decks: list[Deck]) -> str:
        own = [str(d.source) for d in decks if d.bleed_mm is not None]
        ways = ([f"bleed: {need:g} in {', '.join(own)}"] if own else []) \
            + ([f"--bleed {need:g}"] if len(own) < len(decks) else [])
        return " or ".join(ways) + " (the larger offset + 0.5 mm), or a printer that shifts less"

    out = [f"{offset}, but deck {deck.id!r} is drawn with {deck.bleed(sheet.bleed_mm):g} mm ({asked(deck)}): its "
           f"backs' art, moved by the offset, would leave white at the cut; {right([deck])}"
           for deck in short if deck.bleed(sheet.bleed_mm) > 0]
    gang = [deck for deck in short if deck.bleed(sheet.bleed_mm) == 0]
    if len(gang) == 1:
        drawn, whose, pieces = f"deck {gang[0].id!r} is", asked(gang[0]), "its pieces abut"
    elif gang:
        reasons = {asked(d).replace("its deck file's", "their deck files'") for d in gang}
        drawn = f"decks {', '.join(repr(d.id) for d in gang)} are"
        whose = reasons.pop() if len(reasons) == 1 else "; ".join(f"{d.id!r}: {asked(d)}" for d in gang)
        pieces = "their pieces abut"
    if gang:  # counters cut in strips (docs/home-printing.md, gang-cut): no white between them
        out.append(f"{offset}, but {drawn} drawn with none ({whose}): {pieces} (gang-cut), so a back the profile "
                   "leaves off its front shows the neighbour's colour at the cuts between pieces, and paper only along "
                   f"the outer edges of the block; for a bleed round every piece instead (two cuts a gap), {right(gang)}")
    return out


def fold_duplex_warnings(records: list[DeckRecord], options: BuildOptions) -> list[str]:
    """``--duplex long|short`` given with ``--layout fold``: fold-over sheets are printed on one
    side and never turned, so it applies only to the two-sided decks printed as usual (pieces
    too large to fold); said once, naming them, or that it changes nothing. Without ``--duplex``,
    such decks are named too: asked for one-sided fold-over sheets, the designer gets their
    duplex sheets beside them."""
    asked = options.asked[1]
    if options.sheet.layout != "fold" or asked == "none":
        return []
    folded = [r.id for r in records if r.layout.get("layout") == "fold"]
    usual = [r for r in records if r.double_sided and r.layout.get("layout") != "fold"]
    if asked is None:
        if not usual or options.sheet.duplex == "none":
            return []
        return [f"--layout fold: {_not_folded(usual, big='too large to fold (a piece over half the sheet)')}: "
                f"printed as usual, the backs on the sheet's other side (duplex, flip on the "
                f"{options.sheet.duplex} edge); a printer without duplex feeds the sheet again"]
    if not usual:
        return [f"--duplex {asked} changes nothing with --layout fold: fold-over sheets are printed on one side "
                "(front and back side by side, folded), never turned over; leave --duplex out (or --duplex none)"]
    names = ", ".join(repr(r.id) for r in usual)
    reasons = _not_folded(usual, big="too large to fold", named=len(usual) > 1)
    rest = f"; the fold-over sheets of {', '.join(map(repr, folded))} are printed on one side" if folded else ""
    return [f"--duplex {asked} with --layout fold applies only to {names} ({reasons}: printed as usual, "
            f"the backs on the sheet's other side){rest}"]


def _not_folded(usual: list[DeckRecord], big: str, named: bool = True) -> str:
    """Why the two-sided decks of a fold-over build print as usual: a deck on card stock keeps its
    stock's slots (as documented), any other is too large to fold. A deck of 名刺 stickers on
    a-one-51002 was told it was over half the sheet, a size problem it did not have."""
    groups = {"big": [r for r in usual if not r.layout.get("sheet_layout")],
              "stock": [r for r in usual if r.layout.get("sheet_layout")]}
    said = [f"{', '.join(repr(r.id) for r in groups['big'])} {big}" if named else big] if groups["big"] else []
    for r in groups["stock"]:
        stock = f"on card stock (sheet {r.layout['sheet_layout']['id']}), which keeps its slots"
        said.append(f"{r.id!r} {stock}" if named else stock)
    return "; ".join(said)


def sleeve_back_warnings(slug: str, decks: list[tuple[DeckFaces, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """With ``--layout sleeve``: each card deck whose backs tell its cards apart (a back template
    reading the piece: a scenario card's number on its back, to be found face down), which sleeve
    inserts leave out, printing fronts only. Said once per deck; a deck of one back says nothing,
    the backer card standing in for it; nor does a deck on card stock, whose slots print its backs."""
    if options.sheet.layout != "sleeve":
        return []
    out = []
    for faces, on_paper in decks:
        deck = faces.deck
        backs = {pair.back for pair in faces.pairs if pair.back is not None}
        if deck.back is None or back_behind(deck, options.sheet, on_paper.on_stock) or len(backs) < 2:
            continue
        out.append(f"{deck.where('back')}: --layout sleeve: deck {deck.id!r} has {len(backs)} different backs (its back "
                   "reads the piece), and sleeve inserts print fronts only, with a backer card behind: nothing "
                   "on the backs tells its cards apart (expected its sheets from a build without --layout "
                   f"sleeve, e.g. pnpgen build --game {slug} --out build-backs, or one back for "
                   "every card)")
    return out


def sleeve_no_cards_warnings(slug: str, decks: list[Deck], options: BuildOptions) -> list[str]:
    """``--layout sleeve`` for a game with no card deck: inserts are made of cards only (tokens,
    tiles and boards print as usual), so the build made none of what it was asked; said once
    (trial73: a memory game's square tiles came out as the usual duplex sheets without a word)."""
    if options.sheet.layout != "sleeve" or any(deck.kind == "card" for deck in decks):
        return []
    kinds = sorted({deck.kind for deck in decks})
    return [f"--layout sleeve changes nothing in {slug!r}: sleeve inserts are made of card decks (kind: card) "
            f"and it has none; its {', '.join(kinds)} decks print as usual, two-sided ones duplex (expected "
            "--layout fold for two-sided pieces without duplex, or a deck of kind: card)"]


def sleeve_fit_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions, every_own: bool = False) -> list[str]:
    """Each card deck whose sleeve does not suit its cards — smaller than the card with
    CLEARANCE_MM to spare (its inserts are reduced) or more than LOOSE_MM larger either way
    (another format's sleeve: mini cards in poker sleeves slide about): the build's ``--sleeve``
    for a deck of no ``sleeve:`` of its own, said at the deck file with the ``sleeve:`` to write
    there; a deck's own ``sleeve:`` (a deck list's, else its source deck's), at that line. In a
    ``--layout sleeve`` build; ``pnpgen check`` (``every_own``) tells every deck's own whatever the
    layout, as its deck file says what sleeves its cards go in, and ``--sleeve``'s when given."""
    sheet = options.sheet
    if sheet.layout != "sleeve" and not every_own:
        return []
    out = []
    for deck, on_paper in placed:
        if deck.kind != "card" or isinstance(on_paper.layout, SlotLayout):
            continue
        given = deck.sleeve_mm or (sheet.sleeve_mm if sheet.layout == "sleeve" else None)
        if given is None:
            continue
        sleeve = Sleeve(*given)
        small, loose = sleeve.scale_for(on_paper.spec) < 1.0, sleeve.loose_by(on_paper.spec) > LOOSE_MM + 1e-9
        if not (small or loose):
            continue
        w, h = deck.trim_mm
        why = (f"smaller than its {w:g}×{h:g} mm cards with {sleeve.clearance_mm:g} mm to spare, so its inserts are reduced"
               if small else f"over {LOOSE_MM:g} mm larger than its {w:g}×{h:g} mm cards, which would slide about in it")
        right = "{:g}x{:g}".format(*default_sleeve((w, h)))
        if deck.sleeve_mm is not None:
            out.append(f"{deck.sleeve_where or deck.where()}: sleeve: {given[0]:g}x{given[1]:g} does not suit deck "
                       f"{deck.id!r}: the sleeve is {why} (expected sleeve: {right}, or the inside of the sleeves you "
                       "bought for these cards, measured)")
        else:
            out.append(f"{deck.size_where or deck.where()}: --sleeve {given[0]:g}x{given[1]:g} does not suit deck {deck.id!r}: the sleeve is "
                       f"{why} (expected sleeve: {right} in its deck file — the inside of the sleeves you bought for "
                       "these cards, measured — which wins over --sleeve for this deck)")
    return out


def cricut_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """With ``--marks cricut``: each deck whose pieces no Print Then Cut image holds (a deck on
    card stock takes no cutter, as documented, and is not named)."""
    if options.cutter != "cricut":
        return []
    area = options.cricut_area_in or CRICUT_AREA_IN
    found = (too_large_for_cricut(deck, on_paper.spec, area) for deck, on_paper in placed
             if not isinstance(on_paper.layout, SlotLayout))
    return [w for w in found if w]


def cutter_slot_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """With ``--marks silhouette`` or ``cricut``: each deck on a sheet layout of plain paper
    (``stock: false``, the gang-cut counters' ``counters-half``), which prints in its slots without
    registration marks or cut files, so the machine cuts none of it (hostile39: said nothing). A
    deck on card stock, cut or perforated already, takes no cutter, as documented."""
    if not options.cutter:
        return []
    return [f"{deck.sheet_where or deck.where()}: deck {deck.id!r} is on sheet layout {on_paper.layout.stock.id!r} of "
            f"plain paper (stock: false), which a --marks {options.cutter} build prints in its slots without registration "
            "marks or cut files: the machine cuts none of it (leave out its sheet: to lay it on the grid, with bleed: 0 "
            "for counters that abut, each line between two cut once)"
            for deck, on_paper in placed if isinstance(on_paper.layout, SlotLayout) and not on_paper.layout.stock.stock]


def whole_sheet_warnings(placed: list[tuple[Deck, DeckOnPaper]], sheet: SheetOptions) -> list[str]:
    """For ``pnpgen check``: each deck tiled that a sheet would hold whole at a margin or a size near
    its own (an A4 pad of 210 × 297 mm on A4: 80 copies, 160 page tiles), at its ``size:`` line,
    with the figure the build's summary gives under the deck's line (``DeckRecord.hint``)."""
    out = []
    for deck, on_paper in placed:
        if on_paper.tiles is None:
            continue
        tiles = on_paper.tiles
        record = layout_record(on_paper.spec, None, tiles, on_deck_paper(deck, sheet), on_paper.whole_with,
                               on_paper.whole_at)["tiles"]
        hint = tiled_hint(record, whole_only=True)
        if hint:
            w, h = deck.trim_mm
            out.append(f"{deck.where_about(deck.size_where)}: deck {deck.id!r}: a {w:g}×{h:g} mm {deck.kind} prints as "
                       f"{tiles.pages} page tiles ({tiles.cols}×{tiles.rows}{', the board turned 90°' if tiles.rot == 90 else ''}) a copy, {deck.count * tiles.pages} pages "
                       f"for {deck.count}: {hint}")
    return out
