"""What the build's options say about the decks on the paper: the warnings of a build whose
sheets print but may print badly — backs with too little bleed for the printer's offset,
``--duplex`` beside fold-over sheets, sleeve inserts that leave out backs telling cards apart,
pieces too large for a cutting machine's image. (How a deck goes on the paper, and what the sheet
alone says of it: impose/onpaper.py.)"""

from __future__ import annotations

from pnpgen.data.model import Deck
from pnpgen.engine.manifest import DeckRecord
from pnpgen.engine.options import BuildOptions
from pnpgen.exports.cutfiles import too_large_for_cricut
from pnpgen.faces.faceset import DeckFaces
from pnpgen.impose.cutter import CRICUT_AREA_IN
from pnpgen.impose.fold import layout_fold
from pnpgen.impose.onpaper import DeckOnPaper, back_behind, deck_sheet, on_deck_paper, own_paper
from pnpgen.impose.slots import SlotLayout


def short_bleed_warnings(placed: list[tuple[Deck, DeckOnPaper]], options: BuildOptions) -> list[str]:
    """With a printer profile, each deck with backs whose home sheets give less bleed than the
    profile's back offset needs (its larger offset + 0.5 mm), or than the deck asks when it asks
    less (a deck's own ``bleed: 1``): its backs may show white edges. A deck that asks less
    (``bleed:``, ``--bleed``) is told at the profile's line, with the bleed that would do."""
    out = [w for deck, on_paper in placed if (w := _bleed_below_offset(deck, on_paper, options))]
    for deck, on_paper in placed:
        need = min(options.sheet.least_bleed_mm, deck.bleed(options.sheet.bleed_mm))
        bleed = getattr(on_paper.layout, "sheet_bleed_mm", None)
        if not back_behind(deck, options.sheet) or options.printer is None or bleed is None or bleed >= need - 1e-9:
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


def _bleed_below_offset(deck: Deck, on_paper: DeckOnPaper, options: BuildOptions) -> str:
    """The deck's bleed (its own ``bleed:``, else ``--bleed``) below what the profile's back offset
    needs: its backs' art, moved by the offset, leaves white at the cut whatever room the paper
    has. Not for backs the offset does not move (one-sided, sleeve inserts, folded pieces, ``--duplex
    none``, a profile with no offset: ``least_bleed_mm`` 0). A deck drawn with none (counters that
    abut, gang-cut) is told that between its pieces a back off its front shows the neighbour's
    colour, not paper (it was told its backs would leave white at the cut, and to give up the gang-cut)."""
    printer, sheet = options.printer, options.sheet
    need, bleed = sheet.least_bleed_mm, deck.bleed(sheet.bleed_mm)
    if printer is None or bleed >= need - 1e-9 or not back_behind(deck, sheet) \
            or (sheet.layout == "fold" and layout_fold(on_paper.spec, deck_sheet(deck, sheet)) is not None):
        return ""
    dx, dy = printer.back_offset_mm
    asked = f"its deck file's bleed: {bleed:g}" if deck.bleed_mm is not None else f"--bleed {bleed:g}"
    right = (f"bleed: {need:g} in {deck.source}" if deck.bleed_mm is not None else f"--bleed {need:g}") \
        + " (the larger offset + 0.5 mm), or a printer that shifts less"
    if bleed == 0:  # counters that abut, cut in strips (docs/home-printing.md, gang-cut): no white between them
        return (f"{printer.source}: the back offset of printer {printer.name!r} ({dx:+g}/{dy:+g} mm) needs {need:g} mm "
                f"of bleed, but deck {deck.id!r} is drawn with none ({asked}): its pieces abut (gang-cut), so a back "
                f"the profile leaves off its front shows the neighbour's colour at the cuts between pieces, and paper "
                f"only along the outer edges of the block; for a bleed round every piece instead (two cuts a gap), "
                f"{right}")
    return (f"{printer.source}: the back offset of printer {printer.name!r} ({dx:+g}/{dy:+g} mm) needs {need:g} mm of "
            f"bleed, but deck {deck.id!r} is drawn with {bleed:g} mm ({asked}): its backs' art, moved by the offset, "
            f"would leave white at the cut; {right}")


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


def sleeve_back_warnings(slug: str, decks: list[DeckFaces], options: BuildOptions) -> list[str]:
    """With ``--layout sleeve``: each card deck whose backs tell its cards apart (a back template
    reading the piece: a scenario card's number on its back, to be found face down), which sleeve
    inserts leave out, printing fronts only. Said once per deck; a deck of one back says nothing,
    the backer card standing in for it."""
    if options.sheet.layout != "sleeve":
        return []
    out = []
    for faces in decks:
        deck = faces.deck
        backs = {pair.back for pair in faces.pairs if pair.back is not None}
        if deck.back is None or back_behind(deck, options.sheet) or len(backs) < 2:
            continue
        out.append(f"{deck.where('back')}: --layout sleeve: deck {deck.id!r} has {len(backs)} different backs (its back "
                   "reads the piece), and sleeve inserts print fronts only, with a backer card behind: nothing "
                   "on the backs tells its cards apart (expected its sheets from a build without --layout "
                   f"sleeve, e.g. pnpgen build --game {slug} --out build-backs, or one back for "
                   "every card)")
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
