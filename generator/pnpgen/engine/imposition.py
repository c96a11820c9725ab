"""A game's documents planned from its rendered faces: each deck's home sheets, shop files, die
line and cutting-machine files, and the all-in-one file with the bill of materials.

A deck is imposed by ``impose_deck`` from what it shows and how it goes on the paper; a
long-running command (``pnpgen watch``, ``serve``) keeps each deck's imposition between saves
(``Impositions``), so a save imposes again only the decks it changed and the pages of the others
keep their hashes (``plan_key``'s page digests) without being written out again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from pnpgen import fonts as fontreg
from pnpgen.data.model import Deck, Game
from pnpgen.data.telling import names_told_apart
from pnpgen.engine.bom import bill_of_materials
from pnpgen.engine.manifest import DeckRecord, die_line_record, layout_record
from pnpgen.engine.options import BuildOptions
from pnpgen.exports.cutfiles import CutFile, alike_sheets, cut_files
from pnpgen.faces.faceset import DeckFaces, RenderedGame
from pnpgen.impose.bom import bom_pages
from pnpgen.impose.cutter import CRICUT_AREA_IN, silhouette_layout
from pnpgen.impose.fold import FoldLayout, layout_fold, more_with_less_bleed
from pnpgen.impose.grid import SheetOptions, choose_layout, layout_grid, layout_grid_at, size_to_hold_whole
from pnpgen.impose.onpaper import DeckOnPaper, back_behind, deck_sheet, on_deck_paper, paper_printed_on
from pnpgen.impose.plan import Page, PagePlan, signed
from pnpgen.impose.share import OnAll, Sharing, all_in_one_sheets, shared_sheets
from pnpgen.impose.sheets import (
    DeckSheets,
    board_tiles,
    fold_sheets,
    plain_sheets,
    shop_die_pages,
    shop_pages,
    sleeve_drawn,
    sleeve_sheets,
)
from pnpgen.impose.sleeve import SleeveLayout, layout_sleeve
from pnpgen.impose.slots import SlotLayout
from pnpgen.messages import catalogue as catalogue_of
from pnpgen.messages import msg
from pnpgen.shapes import ShapeSpec


@dataclass
class GamePlan:
    """A game imposed but not yet drawn: documents by output path (naming the faces by key)."""

    documents: dict[str, PagePlan]
    records: list[DeckRecord]
    bom: dict
    orders: list[list] = field(default_factory=list)  # rows of shop/order.csv
    home_pages: dict[str, list[str]] = field(default_factory=dict)  # deck → signature of each home page
    home_faces: dict[str, list[list[str]]] = field(default_factory=dict)  # deck → the faces of each home page
    cuts: dict[str, CutFile] = field(default_factory=dict)  # cut/…: a cutting machine's files, by path
    digests: dict[int, bytes] = field(default_factory=dict)  # page (by id) → its hash: home pages', and pages kept from an earlier save


@dataclass
class DeckImposition:
    """One deck's pages: home sheets (``sheets`` of paper), shop files, die line (None: the
    deck has none), its cutting machine's files, and the record of a fold or sleeve layout."""

    home: list[Page]
    sheets: int
    shop: list[Page]
    unique: list[Page]
    die: list[Page] | None
    cuts: dict[str, CutFile]
    fold_or_sleeve: dict[str, Any] | None
    signatures: list[str]  # each home page's (impose/plan.py page_signature)
    faces: list[list[str]]  # the faces on each home page
    digests: dict[int, bytes] = field(default_factory=dict)  # each page's hash (by id), once worked out

    def pages(self) -> list[Page]:
        return [*self.home, *self.shop, *self.unique, *(self.die or [])]


class Impositions:
    """Each deck's imposition from the last save of a long-running command, by everything it is
    made from (``deck_inputs``); those a save did not use are let go of (``let_go_of_unused``)."""

    def __init__(self) -> None:
        self._kept: dict[tuple, DeckImposition] = {}
        self._used: set[tuple] = set()

    def get(self, key: tuple) -> DeckImposition | None:
        found = self._kept.get(key)
        if found is not None:
            self._used.add(key)
        return found

    def put(self, key: tuple, imposed: DeckImposition) -> None:
        self._kept[key] = imposed
        self._used.add(key)

    def used(self) -> list[DeckImposition]:
        return [self._kept[k] for k in self._used if k in self._kept]

    def let_go_of_unused(self) -> None:
        self._kept = {k: v for k, v in self._kept.items() if k in self._used}
        self._used = set()


def impose_game(rendered: RenderedGame, options: BuildOptions, on_paper: list[DeckOnPaper],
                face_arts: dict[str, str] | None = None, kept: Impositions | None = None) -> GamePlan:
    """Every document of the game: each deck's home sheets, shop files and die line, and the
    all-in-one file with the bill of materials. ``face_arts``: the hash of the pictures each face
    shows (``face_pictures_of``), in the sheets' version stamps. ``kept``: the decks imposed by the
    last save of a long-running command."""
    game = rendered.game
    font = sheet_fonts(game, options)[0]
    sheet = options.sheet
    documents: dict[str, PagePlan] = {}
    records: list[DeckRecord] = []
    sheets_of: list[OnAll] = []  # each deck's home sheets, as the all-in-one file holds them
    orders: list[list] = []  # shop/order.csv: each distinct face of the unique-faces files
    home_pages: dict[str, list[str]] = {}
    home_faces: dict[str, list[list[str]]] = {}
    cuts: dict[str, CutFile] = {}
    digests: dict[int, bytes] = {}
    for df, placed in zip(rendered.decks, on_paper, strict=True):
        deck = df.deck
        ds = DeckSheets(deck.id, deck.name, placed.spec, tuple(df.fronts),
                        tuple(df.backs) if df.backs is not None else None, rendered.bleed_of(deck), version_stamp(game),
                        game.lang,
                        face_arts or {})
        key = deck_inputs(ds, df, placed, deck, game, options) if kept is not None else ()
        imposed = kept.get(key) if kept is not None else None
        if imposed is None:
            imposed = impose_deck(ds, df, placed, deck, game, options)
            if kept is not None:
                kept.put(key, imposed)
        digests.update(imposed.digests)
        home = imposed.home
        home_pages[deck.id] = imposed.signatures
        home_faces[deck.id] = imposed.faces
        files = []
        if home:
            files = [f"{deck.id}.pdf", f"shop/{deck.id}.pdf", f"shop/{deck.id}-unique.pdf"]
            files += list(imposed.cuts)
            cuts.update(imposed.cuts)
            documents[files[0]] = PagePlan(f"{game.title} — {deck.name}", home)
            documents[files[1]] = PagePlan(msg("doc.shop", game.lang, title=f"{game.title} — {deck.name}"), imposed.shop)
            names = names_told_apart(deck.pieces, game.lang)  # (団子［1］ … 団子［13］, as the change report names them)
            orders.extend([files[2], n * (2 if p.back else 1) + 1, deck.id, p.piece.index,
                           names.get(p.piece.index, p.piece.label), p.count] for n, p in enumerate(df.pairs))
            documents[files[2]] = PagePlan(msg("doc.shop_unique", game.lang, title=f"{game.title} — {deck.name}"),
                                           imposed.unique)
            if imposed.die is not None:
                files.append(f"shop/{deck.id}-die.pdf")
                documents[files[-1]] = PagePlan(msg("doc.die_line", game.lang, title=f"{game.title} — {deck.name}"), imposed.die)
            if home:  # (fold-over decks share fold-over sheets, sleeve inserts inserts' sheets: their layouts)
                laid = (imposed.fold_or_sleeve or {}).get("layout")
                own = _fold_layout(ds, deck_sheet(deck, sheet)) if laid == "fold" else \
                    layout_sleeve(ds.spec, len(ds.fronts), deck_sheet(deck, sheet), deck.kind) if laid == "sleeve" else None
                shares = own is not None or isinstance(placed.layout, SlotLayout) or (placed.tiles is None and not imposed.fold_or_sleeve)
                like = Sharing(replace(ds, backs=None) if laid == "sleeve" else ds,  # (an insert is a front alone)
                               own or placed.layout, placed.by_hand, deck.kind, deck_sheet(deck, sheet)) if shares else None
                sheets_of.append(OnAll(home, ds.backs is not None and not imposed.fold_or_sleeve, [(0, deck.name)], like))
        on = on_deck_paper(deck, sheet)  # the build's sheet options on the deck's own paper:
        die_line = die_line_record(deck.id, placed.spec.die_cut, deck.back is not None)
        if imposed.cuts:
            die_line["home"] = f"the cutting machine: cut/{deck.id}-pNN.{'svg, .dxf' if sheet.silhouette else 'png, .svg'}"
            alike = alike_sheets(imposed.cuts)
            if alike:  # (a score pad's twenty pages: one file for the sheets that cut alike, cut/pad-p01-p10.svg)
                die_line["cut_alike"] = alike
        elif isinstance(placed.layout, SlotLayout) and not placed.layout.marks:
            # perforated cards or kiss-cut labels: no crop marks to cut at (a sticker deck's manifest said so)
            die_line["home"] = f"none: the stock's own cuts (sheet {placed.layout.stock.id}, no cut marks)"
        records.append(DeckRecord(
            id=deck.id, name=deck.name, kind=deck.kind, shape=deck.shape, format=deck.format,
            trim_mm=[round(v, 3) for v in deck.trim_mm], bleed_mm=deck.bleed(sheet.bleed_mm), count=deck.count,
            unique=len(deck.pieces), faces=len({*df.fronts, *(df.backs or ())}),
            double_sided=deck.back is not None, paper=paper_printed_on(placed, on),  # (an A3 sheet layout's A3)
            layout=imposed.fold_or_sleeve or layout_record(placed.spec, placed.layout, placed.tiles, on,
                                                           placed.whole_with, placed.whole_at)
            | _offset_cost(deck, placed.spec, placed.layout, on),
            sheets=imposed.sheets if home else 0, pages=len(home),
            shop_pages=len(imposed.shop) if files else 0, die_line=die_line,
            files=files, placeholders=len(deck.placeholders),
            pieces={f"{p.index}:{p.label}": [p.count, df.digests[p.index]] for p in deck.pieces},
            double_at=_double_at(deck, placed, on) if home and not imposed.fold_or_sleeve else None,
            full_bleed=_full_bleed(deck, placed, on) if home and not imposed.fold_or_sleeve else None,
            by_hand=placed.by_hand and bool(home),
        ))
    if game.options.get("share_sheets") and sheet.silhouette is None:  # (the machine cuts each deck by its own files)
        sheets_of = shared_sheets(sheets_of, lambda like: _shared_drawn(like, font, options))
    everything, bookmarks, shared = all_in_one_sheets(sheets_of, sheet, font, game.lang)
    bom = bill_of_materials(game, records, sheet.paper, rulebook=options.rulebook, shared=shared,
                            two_pass=sheet.without_duplex, duplex=sheet.duplex)
    bookmarks.append((len(everything), msg("all.bookmark.bom", game.lang)))
    # (its pieces' names too: every text of the record, with its keys and JSON's marks, all ASCII)
    regular, bold = sheet_fonts(game, options, ("bom.",), [json.dumps(bom, ensure_ascii=False)])
    faces = {**game.fonts, "gothic": regular, "bold": bold}
    for ops in bom_pages(game, bom, sheet.paper_mm, sheet.margin_mm, faces, fontreg.string_width_mm, game.lang):
        everything.append(Page(sheet.paper_mm, list(ops)))
    documents[f"{game.slug}-all.pdf"] = PagePlan(msg("doc.all_sheets", game.lang, title=game.title), everything, bookmarks)
    return GamePlan(documents, records, bom, orders, home_pages, home_faces, cuts, digests)


def deck_inputs(ds: DeckSheets, df: DeckFaces, placed: DeckOnPaper, deck: Deck, game: Game,
                options: BuildOptions) -> tuple:
    """Everything ``impose_deck`` reads, as a key: the deck's faces in print order with the
    pictures each shows, its shape and layout on the paper, the sheet's options, the fonts and
    language of pnpgen's own words, the cutting machine and the printer profile. (Fonts' metrics
    and pnpgen itself are the long-running command's to watch: a change of either starts afresh.)"""
    shown = {*ds.fronts, *(ds.backs or ())}
    return (ds.id, ds.name, repr(ds.spec), ds.fronts, ds.backs, ds.art_bleed_mm, ds.stamp, ds.lang,
            tuple(sorted((f, ds.pictures[f]) for f in shown if f in ds.pictures)),
            repr(placed), deck.kind, *sheet_fonts(game, options), repr(deck_sheet(deck, options.sheet)),
            options.cutter, options.cricut_area_in, repr(options.printer),
            tuple((p.front, p.back, p.count, p.piece.label) for p in df.pairs))


def impose_deck(ds: DeckSheets, df: DeckFaces, placed: DeckOnPaper, deck: Deck, game: Game,
                options: BuildOptions) -> DeckImposition:
    """One deck's pages (see ``DeckImposition``)."""
    spec, layout, tiles = placed.spec, placed.layout, placed.tiles
    font, bold = sheet_fonts(game, options)
    sheet = deck_sheet(deck, options.sheet)  # the deck's own bleed:, else the build's
    fold_or_sleeve: dict[str, Any] | None = None  # the manifest's layout record of a fold or sleeve deck
    deck_cuts: dict[str, CutFile] = {}  # its cutting machine's files (grid sheets only)
    if isinstance(layout, SlotLayout):  # a sheet layout: its slots, whatever --layout or a cutter says
        home = plain_sheets(ds, layout, placed.by_hand, sheet, font, fontreg.string_width_mm)
        sheets = -(-len(df.fronts) // layout.per_sheet)
    elif tiles is not None:  # cut by hand, in a print-and-cut build too: no word of registration marks
        home = board_tiles(ds, tiles, sheet.cut_by_hand(), font, bold, fontreg.string_width_mm)
        sheets = len(df.fronts) * tiles.pages
    elif (one_sided := folded_or_sleeved(ds, deck.kind, sheet, font)) is not None:
        home, fold_or_sleeve = one_sided
        sheets = len(home)
    else:
        home = plain_sheets(ds, layout, placed.by_hand, sheet, font, fontreg.string_width_mm)
        sheets = -(-len(df.fronts) // layout.per_sheet)
        if not placed.by_hand:
            deck_cuts = cut_files(options.cutter, ds, layout, options.cricut_area_in or CRICUT_AREA_IN)
    fit_to_printer(home, options)
    bleed = deck.bleed(options.bleed_mm)  # the shop pages' (the art is drawn with this or the build's, the wider)
    pairs = [(p.front, p.back, p.count, p.piece.label) for p in df.pairs]
    signed_home = [signed(p) for p in home]  # (each home page's text hashed once for both)
    digests = {id(p): digest for p, (_, digest) in zip(home, signed_home, strict=True)}
    return DeckImposition(
        home=home, sheets=sheets,
        shop=shop_pages(ds, bleed, digests=digests) if home else [],
        unique=shop_pages(ds, bleed, pairs, digests=digests) if home else [],
        die=shop_die_pages(ds, bleed) if home and spec.die_cut else None,
        cuts=deck_cuts, fold_or_sleeve=fold_or_sleeve,
        signatures=[signature for signature, _ in signed_home], faces=[p.faces() for p in home],
        digests=digests)


def _shared_drawn(like: Sharing, font: str, options: BuildOptions) -> list[Page]:
    """The home sheets decks share, drawn as a deck's own (``plain_sheets``, ``fold_sheets``,
    ``sleeve_drawn``, ``fit_to_printer``)."""
    if isinstance(like.layout, FoldLayout):
        pages = fold_sheets(like.deck, like.layout, like.sheet, font, fontreg.string_width_mm)
    elif isinstance(like.layout, SleeveLayout):
        pages = sleeve_drawn(like.deck, like.layout, like.sheet, font, fontreg.string_width_mm)
    else:
        pages = plain_sheets(like.deck, like.layout, like.by_hand, like.sheet, font, fontreg.string_width_mm)
    fit_to_printer(pages, options)
    return pages


def remember_digests(kept: Impositions | None, digests: dict[int, bytes]) -> None:
    """After the documents' keys are made: each kept deck's pages' hashes, for the next save."""
    if kept is None:
        return
    for imposed in kept.used():  # (a deck imposed by this save holds its home and shop pages' only)
        known = imposed.digests
        known.update({id(p): digests[id(p)] for p in imposed.pages() if id(p) in digests and id(p) not in known})


def _double_at(deck: Deck, placed: DeckOnPaper, sheet: SheetOptions) -> tuple[float, float] | None:
    """The size a sheet holds twice as many of, for copies that fill more than one sheet: a piece
    one a sheet (a half-Letter pad), or a board a few a sheet (a quarter-Letter pad, two on Letter
    where four want a few mm less). Cards keep their size: a card's is its sleeve's and its shop's."""
    if getattr(placed.layout, "kind", "") != "grid":
        return None
    per = placed.layout.per_sheet
    if deck.count <= per or (per > 1 and deck.kind != "board"):
        return None
    return size_to_hold_whole(placed.spec, sheet, 2 * per)


# Bleed given up that the summary leaves unsaid: less than the slug's figure, to 0.1 mm, rounds away
# (mini-euro cards on Letter: 12 a sheet at 2.988 mm of 3, "a back printed more than 2.988 mm off"
# said of a grid that prints bleed 3.0 mm: trial58)
BLEED_UNSAID_MM = 0.05


def _full_bleed(deck: Deck, placed: DeckOnPaper, sheet: SheetOptions) -> tuple[int, float] | None:
    """Two-sided pieces on a duplex grid or nesting with no printer profile's back offset, which
    took more a sheet for less bleed than the deck's (mini-euro on A4: 16 at 0.375 mm): how many a
    sheet hold at the deck's full bleed, and that bleed, for the summary to say what was given up
    (a back printed further off its front than the bleed shows paper at the cut). Cards on the
    home sheets' grid; tokens and tiles there, laid out as a profile needing the full bleed would
    lay them (fixesN: two-sided status tokens at 2 mm of 3, and not a word); and every two-sided
    deck of a print-and-cut sheet (``--marks silhouette``), cut from the front, whose backs a
    printer's offset moves against that cut as against cut marks (trial55: 60 round tokens at
    0.5 mm of bleed there, and not a word)."""
    lay, own = placed.layout, deck_sheet(deck, sheet)
    if (getattr(lay, "kind", "") not in ("grid", "nested") or sheet.least_bleed_mm or sheet.duplex == "none"
            or not back_behind(deck, sheet, placed.on_stock) or lay.sheet_bleed_mm >= own.bleed_mm - BLEED_UNSAID_MM):
        return None
    full_kept = replace(own, least_bleed_mm=own.bleed_mm)  # the layout a profile needing the full bleed gets
    if sheet.silhouette is not None:  # the grids clear of the marks, the deck's full bleed kept first
        full = silhouette_layout(placed.spec, deck.count, full_kept, sheet.silhouette, "")
    elif placed.spec.kind != "rect" or deck.kind != "card":  # tokens and tiles: the fewest sheets at that bleed
        full = choose_layout(placed.spec, deck.count, full_kept, deck.kind)
    else:
        full = layout_grid_at(placed.spec.w, placed.spec.h, own, own.bleed_mm)
    if full is None or full.sheet_bleed_mm < own.bleed_mm - 1e-9:
        return None
    return (full.per_sheet, own.bleed_mm) if full is not None and full.per_sheet < lay.per_sheet else None


def _offset_cost(deck: Deck, spec: ShapeSpec, layout, sheet: SheetOptions) -> dict[str, Any]:
    """A two-sided deck's grid (or nesting) that took gutters for a printer profile's back offset:
    how many the tight one holds, and its bleed (``more_with``, said under the deck's line)."""
    if not (sheet.least_bleed_mm and back_behind(deck, sheet, isinstance(layout, SlotLayout))
            and getattr(layout, "kind", "") in ("grid", "nested")):
        return {}
    card = spec.kind == "rect" and deck.kind == "card"
    if sheet.silhouette is not None:
        tight = silhouette_layout(spec, deck.count, sheet.without_backs(), sheet.silhouette, deck.kind)  # clear of its marks
    else:
        tight = layout_grid(spec.w, spec.h, sheet.without_backs()) if card else \
            choose_layout(spec, deck.count, sheet.without_backs(), deck.kind)
    if tight is None or tight.per_sheet <= layout.per_sheet:
        return {}
    return {"more_with": {"bleed_mm": round(tight.sheet_bleed_mm, 3), "pieces_per_sheet": tight.per_sheet}}


def fit_to_printer(pages: list[Page], options: BuildOptions) -> None:
    """Home pages (a deck's sheets, the reprint's) drawn for the build's printer profile: its scale
    corrected, and each backs page printed behind its fronts moved by its back offset."""
    if options.printer is not None:
        for page in pages:
            page.matrix = options.printer.page_matrix(page.size_mm,
                                                      page.side == "back" and options.sheet.duplex != "none")


SHEET_LABELS = ("sheet.", "tile.")  # the catalogue's labels the home sheets' own lines print


def sheet_fonts(game: Game, options: BuildOptions, labels: tuple[str, ...] = SHEET_LABELS,
                more: Iterable[str] = ()) -> tuple[str, str]:
    """The faces (regular, bold) of the home sheets' own lines: the slug, the scale bars' labels,
    a board tile's band (the bill of materials' pages: its ``labels`` and its texts, ``more``). The edition's card-text faces (game.yaml's ``fonts:`` for its language,
    Noto in a Latin-script edition naming none) when they hold every character those lines can
    print — the catalogue's sheet and tile labels, the decks' names, the version stamp, the
    printer profile's name; else the plain roles (BIZ UD unless game.yaml names others), which
    hold Japanese: an English game's slug was set in BIZ UDP Gothic beside its own faces (trial37)."""
    plain = game.fonts["gothic"], game.fonts.get("bold", game.fonts["gothic"])
    own = game.text_fonts or game.fonts
    chosen = own.get("gothic", plain[0]), own.get("bold", own.get("gothic", plain[1]))
    if chosen == plain:
        return plain
    printed = [v for k, v in catalogue_of(game.lang).items() if k.startswith(labels)] + list(more)
    printed += [d.name + d.id for d in game.decks] + [game.title, version_stamp(game), options.sheet.printer, "0123456789 /·–×…%"]
    regular, bold = fontreg.holding(chosen, plain, printed)
    return regular, bold


def folded_or_sleeved(ds: DeckSheets, kind: str, sheet: SheetOptions, font: str) -> tuple[list[Page], dict] | None:
    """With ``--layout sleeve`` or ``fold``: a deck's one-sided sheets so and their manifest
    record — the home sheets' and the reprint's alike (None: the deck prints as usual)."""
    if sheet.layout == "sleeve" and (sleeved := sleeve_sheets(ds, kind, sheet, font, fontreg.string_width_mm)):
        return sleeved
    if (fold := _fold_layout(ds, sheet)) is not None:
        return (fold_sheets(ds, fold, sheet, font, fontreg.string_width_mm),
                _fold_record(fold, more_with_less_bleed(ds.spec, sheet, fold)))
    return None


def _fold_layout(ds: DeckSheets, sheet: SheetOptions) -> FoldLayout | None:
    """With ``--layout fold``, a two-sided deck's fold-over layout (None: printed as usual, a
    one-sided deck or a piece larger than half the sheet)."""
    if sheet.layout != "fold" or ds.backs is None:
        return None
    return layout_fold(ds.spec, sheet)


def _fold_record(fold: FoldLayout, more: FoldLayout | None = None) -> dict[str, Any]:
    """``more``: the layout of a smaller bleed that holds more pieces a sheet (said, not chosen)."""
    return {"layout": "fold", "fold": "vertical" if fold.vertical else "horizontal", "rotated": fold.rotated,
            "pieces_per_sheet": fold.per_sheet, "cols": fold.cols, "rows": fold.rows,
            "sheet_bleed_mm": round(fold.bleed_mm, 3),
            **({"more_with": {"bleed_mm": more.bleed_mm, "pieces_per_sheet": more.per_sheet}} if more else {})}


def version_stamp(game: Game) -> str:
    """Game, draft number and date: the start of each sheet's version stamp (impose/sheets.py
    adds the hash of the faces on that sheet, so printouts of two drafts or two edits can be told
    apart sheet by sheet); empty when game.yaml says ``stamp: false``."""
    if not game.options.get("stamp", True):
        return ""
    draft = " " + msg("rulebook.draft", game.lang, draft=game.draft) if str(game.draft).strip() else ""
    return f"{game.slug}{draft} {game.date}".replace("  ", " ").strip()
