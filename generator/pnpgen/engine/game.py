"""Build one game: load → render faces once → impose page plans → convert faces → write PDFs.

Everything is produced in memory; the caller writes the files (all-or-nothing) only when every
game of the command succeeded, so a failed build leaves the previous good output untouched.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from pnpgen.atomic import Stores
from pnpgen.boxnet import TuckBox, deepest
from pnpgen.data.art import ArtFolder, art_files, art_folders
from pnpgen.data.formats import PAPER_SIZES, booklet_paper_for
from pnpgen.data.lint import LintSettings
from pnpgen.data.load import check_bleed, load_game
from pnpgen.data.model import Deck, Game
from pnpgen.data.sheetlayouts import SheetStock
from pnpgen.data.workspace import Workspace
from pnpgen.engine import inksaver
from pnpgen.engine import prerender as parallel
from pnpgen.engine.cache import Cache, GameState, document_record, plan_keys_of
from pnpgen.engine.documents import write_documents
from pnpgen.engine.fingerprint import FileHashes, code, content_hash, fingerprint, hashed, sha, staying_in
from pnpgen.engine.fresh import edition
from pnpgen.engine.imposition import GamePlan, Impositions, impose_game, remember_digests
from pnpgen.engine.manifest import DeckRecord
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.output import mark_now
from pnpgen.engine.paper import cricut_warnings, fold_duplex_warnings, short_bleed_warnings, sleeve_back_warnings
from pnpgen.errors import InputError, Where
from pnpgen.exports.bleedcheck import Paper, ShopFace, bare_bleed_warnings, first_faces, pack_name, paper
from pnpgen.exports.bleedfill import OUTSIDE_MM
from pnpgen.exports.cutfiles import cutter_record
from pnpgen.exports.order import BUILD_ORDER_COLUMNS, order_csv
from pnpgen.faces import builtin, sourcelines
from pnpgen.faces.compiled import CompiledTemplates
from pnpgen.faces.convert import Converted, convert_faces, converts_in_workers
from pnpgen.faces.faceset import DeckPicture, RenderedGame
from pnpgen.faces.faceset import render_game as faces_of_game
from pnpgen.faces.grouped import grouped_per_deck
from pnpgen.faces.printlint import lint_faces
from pnpgen.faces.rendermemo import RenderMemo
from pnpgen.faces.templates import Renderer
from pnpgen.impose.cutter import silhouette_layout
from pnpgen.impose.grid import SheetOptions, choose_layout, margin_to_hold_whole, size_to_hold_whole
from pnpgen.impose.onpaper import (
    DeckOnPaper,
    back_behind,
    deck_sheet,
    own_paper,
    own_paper_refused,
    papers_holding,
    silhouette_warnings,
    stock_warnings,
)
from pnpgen.impose.sheets import (
    TILE_OPTIONS,
)
from pnpgen.impose.slots import slot_layout
from pnpgen.impose.tiles import plan_tiles
from pnpgen.memo import Memo, Pack, Stamps, pack_line
from pnpgen.pdf.assemble import PdfFile, SourceChanged
from pnpgen.pdf.patch import layout_of
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.settings import default_font
from pnpgen.pdf.streams import FaceStreams
from pnpgen.pdf.tilesig import tile_signatures
from pnpgen.printers import Printer, check_asked, load_printer
from pnpgen.shapes import ShapeSpec, deck_shape
from pnpgen.svg.artwork import Art, ArtRecord


@dataclass
class BuildResult:
    """Everything one game's build made before it is written: the files' bytes, the warnings, the manifest and what
    the cache, the reprint files and the rulebook reuse of it."""

    game: Game
    files: dict[str, bytes | PdfFile] = field(default_factory=dict)  # path relative to build/<slug>/ → its bytes
    warnings: list[str] = field(default_factory=list)
    records: list[DeckRecord] = field(default_factory=list)
    manifest: dict = field(default_factory=dict)
    rendered: RenderedGame | None = None
    arts: dict[str, Art] = field(default_factory=dict)  # every face of the build, converted
    documents: dict[str, dict[str, str]] = field(default_factory=dict)  # PDF path → plan key and hash
    # faces newly converted, the packs, for the cache (a big pack written into the staging folder already)
    cache_files: dict[Path, bytes | PdfFile] = field(default_factory=dict)
    uses: set[Path] = field(default_factory=set)  # every cache entry the build used, kept by pruning
    home_pages: dict[str, list[str]] = field(default_factory=dict)  # deck → signature of each home page
    images: ImageStreams | None = None  # the pictures' PDF streams, made once (a reprint file places them too)
    face_keys: dict[str, str] = field(default_factory=dict)  # face → its key suffix: the pictures it shows (face_art)
    face_arts: dict[str, str] = field(default_factory=dict)  # face showing a picture → the hash of its pictures (face_art)
    face_files: dict[str, dict[str, str]] = field(default_factory=dict)  # face → its art files' names and hashes (face_pictures_of)
    home_faces: dict[str, list[list[str]]] = field(default_factory=dict)  # deck → the faces of each home page
    on_paper: list[DeckOnPaper] = field(default_factory=list)  # each deck's layout on the paper (a reprint file reuses it)
    options: BuildOptions | None = None  # the game's own: game.yaml's paper and printer applied (a reprint file's too)

    def pictures(self) -> dict:
        """Each deck's faces for the rulebook, from the arts the sheets use."""
        out = {}
        assert self.rendered is not None
        art = self.images.real_art if self.images is not None else (lambda a: a)  # pictures, not stand-ins

        for df in self.rendered.decks:
            if df.first is None:
                continue
            front, back = df.first
            out[df.deck.id] = DeckPicture.of(
                df.deck, art(self.arts[front]), art(self.arts[back]) if back else None, self.rendered.bleed_of(df.deck),
                {n: art(self.arts[k]) for n, k in df.piece_fronts.items()})
        return out


def _spec(deck: Deck) -> ShapeSpec:
    try:
        return deck_shape(deck)
    except ValueError as e:
        raise InputError(f"deck {deck.id!r}: {e}", path=deck.source, key="shape") from None


def render_game(ws: Workspace, slug: str, options: BuildOptions, compiled: CompiledTemplates | None = None,
                game: Game | None = None, memo: RenderMemo | None = None,
                known: FileHashes | None = None) -> RenderedGame:
    """Load the game (unless given, loaded) and render each distinct face once (``known``: files'
    hashes kept by their stamps)."""
    game = game or load_game(ws, slug, lang=options.lang)
    check_bleed(game, options.bleed_mm)
    bleed = options.bleed_mm  # every deck's faces drawn at the build's bleed, but a deck's own wider one
    own = game.drawn_bleeds(bleed)  # (a narrower one: its pages clip the art to it)

    workers = parallel.Workers()

    def spread(renderer: Renderer) -> None:  # the faces over the workers, replayed in order by the face stage
        nonlocal workers
        if memo is not None and options.jobs > 1:
            workers = parallel.prerender(ws, game, options, renderer, memo, bleed)

    try:
        return faces_of_game(ws.templates, game, bleed, options.min_dpi, compiled, memo,
                             partial(art_fingerprint, ws, game, known, memo.stamps if memo is not None else None),
                             before=spread, deck_bleeds=own)  # (the art's hash made only if a face needs it)
    finally:
        workers.close()


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
    if not back_behind(deck, sheet):
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
    holds = [name for name, (pw, ph) in PAPER_SIZES.items() if name != sheet.paper and any(
        w <= across - 2 * m and h <= down - m - top for across, down in ((pw, ph), (ph, pw)))]
    deep = deepest(box, sheet.area_mm)
    asked = "paper:" if own_paper(deck, sheet) else "--paper"  # (the deck file's own paper: is where to say it)
    offers = ([f"{asked} {holds[0]} (its net fits there)"] if holds else []) + (
        [f"a box at most {deep:g} mm deep inside (fewer or thinner cards: box: {{count: …}} or {{thickness: …}})"]
        if deep >= 3 else ["smaller cards (box: {cards: …})"])
    where = deck.size_where or Where(deck.source)  # the deck's box:, else the deck (its layout's box)
    return InputError(f"deck {deck.id!r}: its tuck box ({box.w:g}×{box.h:g}×{box.d:g} mm inside) has a {w:g}×{h:g} "
                      f"mm net, which does not fit on {sheet.paper.upper()} inside a {m:g} mm margin", path=where.path,
                      line=where.line, column=where.column, key="box" if deck.size_where else None,
                      expected=", or ".join(offers))


def _at_size(message: str, deck: Deck, expected: str) -> InputError:
    """A deck too large for the paper, said at the size the deck file gives (a size written in the
    wrong unit, 22cm for 22 mm, shows there), else at the deck file (a layout's size)."""
    where = deck.size_where or Where(deck.source)
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


def render_inputs(ws: Workspace, slug: str, options: BuildOptions, known: FileHashes | None = None) -> str:
    """What every face of a game is rendered from besides its own deck and piece: templates,
    icons, fonts, game.yaml, pnpgen itself and the options (the art files a face looks at are
    remembered with it: ``RenderMemo.fresh``)."""
    path = ws.data / slug / "game.yaml"
    game_yaml = path.read_bytes() if path.is_file() else b""  # missing: loading the game says so
    return fingerprint(staying_in([ws.templates / slug, ws.templates / "common", builtin.FOLDER, ws.fonts], ws.fonts),
                       (options, game_yaml), known, ws.fonts)  # the art: each face by the files it looked at (RenderMemo)


def _uses(cache: Cache, renders: str, face_keys: dict[str, str], nest_memo: Memo[list]) -> set[Path]:
    """The cache entries this build used: its faces, rendered faces and nest choices. (Compiled
    templates are kept in the machine's cache, never in the workspace's: ``CompiledTemplates``.)"""
    uses = {cache.face_path(k + digest) for k, digest in face_keys.items()}
    uses.add(cache.pack_path(renders))  # the faces' renders, in one file
    uses |= {cache.record_path("nest", k) for k in nest_memo.used}
    return uses


def art_fingerprint(ws: Workspace, game: Game, known: FileHashes | None = None, stamps: Stamps | None = None) -> str:
    """Hash of the game's art files (and its templates, which may name art): what a face that
    embeds an image depends on beyond its SVG. ``stamps``: the build's (``Cache.stamps``)."""
    return fingerprint(staying_in(art_folders(ws, game), ws.fonts), None, known, stamps=stamps)


def face_art(svg: str, folder: ArtFolder, whole: str, digest: Callable[[Path], str] = content_hash) -> str:
    """What a face's pictures are made of: the hash of the art files its SVG shows, so editing
    one picture converts again only the faces that show it (an SVG picture with the pictures it
    shows); ``whole`` (``art_fingerprint``) when a file it names is not found in the art folders
    (a link elsewhere); "" when it shows none."""
    if "<image" not in svg:
        return ""
    files = folder.shown_files(svg)
    return whole if files is None else _pictures_hash([(p, digest(p)) for p in files])


def _pictures_hash(hashed: list[tuple[Path, str]]) -> str:
    """The hash of a face's art files, each by its name and its content's hash."""
    return sha(os.fsencode("\n".join(f"{p.name}:{h}" for p, h in hashed)))


def face_pictures_of(rendered: RenderedGame, digest: Callable[[Path], str] = content_hash
                     ) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Each face that shows a picture → the hash of its pictures (``face_art``); and each face that
    shows art files → each file as the designer names it (``art/dragon.png``) and the first 12
    digits of its content's hash, so the change report names a picture replaced. One pass: each
    face's SVG read for its files once."""
    arts: dict[str, str] = {}
    files_of: dict[str, dict[str, str]] = {}
    folder = rendered.art_folder
    for k, svg in rendered.faces.svgs.items():
        if "<image" not in svg:
            continue
        files = folder.shown_files(svg)
        if files is None:
            arts[k] = rendered.art_digest
            continue
        hashed = [(p, digest(p)) for p in files]
        arts[k] = _pictures_hash(hashed)
        if hashed:
            files_of[k] = {folder.shown_name(p): h[:12] for p, h in hashed}
    return arts, files_of


def face_keys_of(rendered: RenderedGame, digest: Callable[[Path], str] = content_hash,
                 arts: dict[str, str] | None = None) -> dict[str, str]:
    """Each face's key suffix (``face_suffix``) in the cache of converted faces; ``arts``: the
    faces' pictures (``face_pictures_of``) when already worked out."""
    arts = face_pictures_of(rendered, digest)[0] if arts is None else arts
    known = rendered.faces.lines  # (each remembered face's, from its render's record)
    return {k: face_suffix(svg, arts.get(k, ""), known.get(k)) for k, svg in rendered.faces.svgs.items()}


def face_suffix(svg: str, art: str, lines: str | None = None) -> str:
    """What a converted face is cached under beyond its SVG's hash: the hash of the pictures it
    shows (``face_art``) when it embeds an image, and the template lines that drew it (the print
    lint's marks name them; ``lines``: ``sourcelines.lines_of(svg)``, when known), hashed
    together into one 16-digit suffix."""
    images = art[:16] if "<image" in svg else ""
    if lines is None:
        lines = sourcelines.lines_of(svg)  # the template lines the print lint names are part of the art
    if not lines:
        return "-" + images if images else ""
    return "-" + sha(f"{images} {lines}".encode())[:16]


def cached_rendering(cache: Cache, ws: Workspace, slug: str, options: BuildOptions,
                     compiled: CompiledTemplates | None = None) -> tuple[CompiledTemplates, RenderMemo]:
    """The templates compiled and the faces rendered by earlier builds, from ``cache``;
    ``compiled``: a long-running command's (engine/warm.py), else new."""
    return (compiled or CompiledTemplates(),
            RenderMemo(known=cache.pack(renders_pack(slug, options)), inputs=render_inputs(ws, slug, options, cache.hashes),
                       digest=cache.digest, stamps=cache.stamps))


def renders_pack(slug: str, options: BuildOptions) -> str:
    """The pack of a game's rendered faces in the cache, one per edition (a game in a language)."""
    return f"renders/{edition(slug, options)}"


def saved_again(e: SourceChanged) -> InputError:
    """An art file saved again while the build read it: build again (nothing was replaced)."""
    return InputError(f"{Path(e.path).name} was saved again while the build read it", path=e.path,
                      expected="build again: the last good files are kept")


def faces_pack(slug: str, options: BuildOptions) -> str:
    """The pack of a game's converted faces (their JSON, each picture by its SHA-256): an edit
    reads the thousand faces it did not change in one file, not a thousand files."""
    return f"converted/{edition(slug, options)}"


def lints_pack(slug: str, options: BuildOptions) -> str:
    """The pack of the print lint's findings on a game's faces (faces/printlint.py): an edit
    measures only the faces it changed."""
    return f"lint/{edition(slug, options)}"


def pieces_pack(slug: str, options: BuildOptions) -> str:
    """The pack of the hashes of the pieces of a game's pictures placed from their art files."""
    return f"pieces/{edition(slug, options)}"


def cached_nesting(cache: Cache | None) -> Memo[list]:
    """The nesting searches of earlier builds, from ``cache`` (none without one)."""
    return Memo(known=cache.records("nest") if cache is not None else {})


def build_game(ws: Workspace, slug: str, options: BuildOptions, cache: Cache | None = None,
               state: GameState | None = None, out_dir: Path | None = None,
               say: Callable[[str], None] = lambda s: None,
               faces_ready: Callable[[BuildResult], None] | None = None, game: Game | None = None,
               sheets: FaceStreams | None = None, arts: dict[str, Art] | None = None, lints: dict | None = None,
               tiles: dict[str, str] | None = None,
               impositions: Impositions | None = None,
               document_ready: Callable[[str, PdfFile], None] = lambda path, pdf: None,
               entry_ready: Callable[[Path, bytes], bytes | PdfFile] = lambda path, data: data,
               inputs: str | None = None, compiled: CompiledTemplates | None = None) -> BuildResult:
    """The game's files as bytes, its deck records and its manifest (rulebook not included).
    With a ``cache``, faces converted by earlier builds are reused, and a document whose plan is
    unchanged since ``state`` keeps the bytes of its file in ``out_dir``. ``game``: the game
    already loaded (else it is loaded here). ``sheets``: the faces and pages drawn into PDF
    streams by an earlier build (the cache's, or a long-running command's: engine/warm.py); the
    caller lets go of what this build did not use (``FaceStreams.let_go_of_unused``). ``arts``:
    converted faces kept by a long-running command, by their cache names (engine/warm.py): read
    from there, not from the cache; this build's are put there, the ones it did not use let go;
    ``lints``, likewise, the print lint's findings on each face (faces/printlint.py); ``tiles``,
    what each tile of a tiled board printed (pdf/tilesig.py); ``impositions``, each deck's pages (engine/imposition.py). ``document_ready``: told of each
    document written in this process as it is made (its path in ``out_dir``): the caller may
    begin copying it into the staging folder while the rest is made; ``entry_ready``, of each pack of
    the cache as it is made, what stands for it in the new set (a big one written into the staging
    folder and let go of: engine/transaction.py ``Staging.early_entry``). ``compiled``: the templates'
    code a long-running command keeps (engine/warm.py)."""
    memo = None
    nest_memo = cached_nesting(cache)
    if cache is not None:
        compiled, memo = cached_rendering(cache, ws, slug, options, compiled)
    rendered = render_game(ws, slug, options, compiled=compiled, game=game, memo=memo,
                           known=cache.hashes if cache is not None else None)
    game = rendered.game
    options = game_printer(ws, game, options)
    if options.ink is not None and game.options.get("ink"):  # game.yaml ink: the saver's figures
        options = replace(options, ink=replace(options.ink, **game.options["ink"]))
    face_arts, face_files = face_pictures_of(rendered, cache.digest if cache is not None else content_hash)
    face_keys = face_keys_of(rendered, arts=face_arts)
    on_paper = paper_layouts(game, options.sheet, nest_memo, options.stock)
    check_tiled(game, on_paper)
    cache_files: dict[Path, bytes | PdfFile] = {}

    def add_pack(kind: str, records: Mapping[str, Any]) -> None:  # a pack of the cache, made once a build
        assert cache is not None
        path, data = cache.pack_entry(kind, records)
        cache_files[path] = entry_ready(path, data)  # (a big one staged now, not held to the commit)

    if cache is not None:
        # The input is read and every piece laid out: from here the folder is pnpgen's (its marker),
        # so the cache entries made from now on are written as they are made, never held all at once
        # (an input error before this point leaves no folder behind).
        mark_now(cache.root.parent)
    stores = Stores()  # the cache entries of the faces converted now, written beside the conversion
    images = ImageStreams(cache.root / "images" if cache is not None else None, code(),
                          store_now=cache is not None and cache.marked(), stores=stores)
    known: dict[str, Art] = {}
    packing: dict[str, Any] = {}  # each face this build shows, for the faces' pack: its line as read, made, or its JSON
    packed = Pack()  # the faces' pack as the last build left it
    # the first face of each deck and side, read for bare bleed (a background stopping at the trim is
    # the template's, so every face shows it): a cost per deck, not per card; pnpgen check reads every face
    bleed_faces = first_faces([ShopFace(df.deck, p.piece, side, k, k + face_keys[k]) for df in rendered.decks
                               for p in df.pairs for side, k in (("front", p.front), ("back", p.back)) if k])
    papers: dict[str, Paper] = {}  # those rendered for their bleed by the workers that converted them
    settle = None
    if cache is not None:
        cache.stores = stores
        cache.art_files = art_files(ws, game, cache.digest, cache.stamps)
        images.own = cache.art_files  # a picture that is an art file, shown as it is, is placed from it
        images.own_hash = lambda path, st: content_hash(path, cache.hashes, st)  # (while it still is that file)
        images.own_stat = cache.stamps.of
        images.piece_hashes = Memo(known=cache.pack(pieces_pack(slug, options)))
        packed = cache.pack(faces_pack(slug, options), keep=False)  # the faces of the last build, in one file
        stored = cache.picture_source  # where a picture can be read again, only if something needs it

        def let_go(art: Art) -> Art:  # each picture's stream found or made, its bytes let go of
            art = images.settle(art, stored, cache.picture_keys)
            cache.picture_keys.clear()
            return art

        def picture(name: str) -> bytes:  # a stand-in, unread, when the cache holds the picture's stream
            path = stored(name)
            stand_in = images.stand_in_for(name, path) if path is not None else None
            if stand_in is None:
                return cache.picture(name)
            if name not in cache.art_files:
                cache.pictures_used.add(path)  # type: ignore[arg-type]
            return stand_in

        def settle(k: str, converted: Converted) -> Art:  # a face just converted: stored, let go of
            if converted.read is not None:  # rendered for its bleed by the worker that converted it
                papers[k] = converted.read
            record = converted.record or ArtRecord.of(converted.art)  # (made by a worker, or here)
            # (the faces' pack's line: a worker's record's made around its text, not decoded and encoded
            # again; one made here decoded: lines made here as the pictures are let go of held 30 MB more
            # of the heap at 1,000 cards with --jobs 1)
            packing[k + face_keys[k]] = pack_line(k + face_keys[k], record.text) if converted.record is not None \
                else json.loads(record.text)
            for where, entry in cache.face_entries(k + face_keys[k], converted.art, record).items():
                if not cache.store(where, entry):
                    cache_files[where] = entry  # written with the build's files (whose write says what is wrong)
            keep(k + face_keys[k], converted.art)
            if converted.pieces and images.piece_hashes is not None:  # hashed by the worker: no art file read again
                for key, shas in converted.pieces.items():
                    images.piece_hashes.learn(key, shas)
            art, stream = let_go(converted.art), converted.stream
            if stream is not None and sheets is not None:  # drawn by the worker that converted it
                shown = stream.showing({images.key(it[1]): it[1] for it in art.items if it[0] == "image"})
                if shown is not None:
                    sheets.offer(k + face_keys[k], False, shown)
            return art

        def keep(name: str, art: Art) -> None:  # for the next save of a long-running command
            if arts is not None and not any(it[0] == "image" for it in art.items):
                arts[name] = art

        for k, digest in face_keys.items():
            art = arts.get(k + digest) if arts is not None else None
            if art is None:
                art = cache.face(k + digest, Art.from_json, pictures=picture, packed=packed, read=packing)
                if art is not None:
                    keep(k + digest, art)
            elif k + digest in packed:  # (kept by a long-running command: its line in the pack stays)
                packing[k + digest] = packed.line(k + digest)
            if art is not None:
                known[k] = let_go(art)
        cache.let_go_of_pictures()
        if arts is not None:  # only the faces this build shows stay
            for name in set(arts) - {k + digest for k, digest in face_keys.items()}:
                del arts[name]
    # The sheets are planned from the rendered faces alone: while faces convert in worker processes,
    # on a thread, as this process waits for them (some two thirds of the time); else after them.
    # The thread starts once the workers are forked (a fork while a thread holds a lock, the import
    # lock say, leaves the child waiting for ever) and ends before anything else forks.
    beside = ThreadPoolExecutor(max_workers=1) if converts_in_workers(rendered.faces, known, options.jobs) else None
    planned: list[Future] = []
    digested: dict[int, bytes] = {}  # each page's digest and each document's plan key, made there too
    early_keys: dict[str, str] = {}

    def imposed() -> GamePlan:
        imposing = impose_game(rendered, options, on_paper, face_arts, impositions)
        digested.update(imposing.digests)
        early_keys.update(plan_keys_of(imposing.documents, face_keys, digested))
        return imposing

    try:
        try:
            arts = convert_faces(rendered.faces, rendered.art_folder, jobs=options.jobs, known=known, settle=settle,
                                 forked=(lambda: planned.append(beside.submit(imposed)))
                                 if beside is not None else None,
                                 own=frozenset(cache.art_files) if cache is not None else frozenset(),
                                 read=partial(paper, bleed_mm=rendered.bleed_mm, font=game.fonts["gothic"])
                                 if rendered.bleed_mm > OUTSIDE_MM else None,
                                 read_keys=frozenset(f.key for f in bleed_faces
                                                     if rendered.bleed_of(f.deck) == rendered.bleed_mm))
        except SourceChanged as e:
            raise saved_again(e) from None
        finally:
            failed = stores.join()
        plan = planned[0].result() if planned else None
    finally:
        if beside is not None:
            beside.shutdown(wait=True)
    cache_files.update(images.after_writes(failed))  # what could not be written now goes with the build's files
    images.stores = None
    rendered.art_folder.let_go_of_bytes()  # (each face's pictures are in its art, or its stand-ins are)
    if cache is not None:
        cache.stores = None
        if packing.keys() != packed.keys() or any(v is not packed.lines.get(k) for k, v in packing.items()):
            add_pack(faces_pack(slug, options), packing)  # (else the pack as it is)
        packing.clear()  # (its text made: the faces' lines let go of before the documents are drawn)
        packed = Pack()
        cache.let_go_of_pack(faces_pack(slug, options))
    font = game.fonts["gothic"]
    if any(art.fallback for art in arts.values()):  # svglib draws these: start it from an embedded font
        default_font(font)
    lint_memo = Memo(known=cache.pack(lints_pack(slug, options))) if cache is not None else None
    lint = lint_faces(((df.deck, p.piece, side, k) for df in rendered.decks for p in df.pairs
                       for side, k in (("front", p.front), ("back", p.back)) if k),
                      arts, rendered.bleed_mm, game.options.get("lint", LintSettings()), ws.templates, seen=lints,
                      bleeds=rendered.deck_bleeds, kept=lint_memo, names={k: k + v for k, v in face_keys.items()})
    if cache is not None and lint_memo is not None:  # the findings measured and asked for, for the next build
        if kept_lint := lint_memo.kept():  # (None: the pack as it is)
            add_pack(lints_pack(slug, options), kept_lint)
        cache.let_go_of_pack(lints_pack(slug, options))
    result = BuildResult(game, warnings=grouped_per_deck(list(rendered.warnings)) + lint
                         + short_bleed_warnings(list(zip(game.decks, on_paper)), options)
                         + stock_warnings(list(zip(game.decks, on_paper)), options.sheet) + silhouette_warnings(options.sheet)
                         + cricut_warnings(list(zip(game.decks, on_paper)), options)
                         + sleeve_back_warnings(game.slug, rendered.decks, options),
                         rendered=rendered, arts=arts, cache_files=cache_files, on_paper=on_paper, images=images,
                         face_keys=face_keys, face_arts=face_arts, face_files=face_files, options=options)
    if faces_ready is not None:  # e.g. start the rulebook, which shows the faces, while the sheets
        faces_ready(result)      # are imposed (unless they were beside the converting workers) and drawn
    if plan is None:
        plan = impose_game(rendered, options, on_paper, face_arts, impositions)
    check_pages(game, plan)
    result.records = plan.records
    result.warnings += fold_duplex_warnings(plan.records, options)
    result.home_pages = tile_signatures(plan, [placed.tiles for placed in on_paper], arts, face_keys, images,
                                        game.fonts["gothic"], tiles)  # a tiled board's sheets by what each prints
    result.home_faces = plan.home_faces
    if cache is not None:
        assert memo is not None  # made from the cache above
        cache_files.update(cache.record("nest", k, v) for k, v in sorted(nest_memo.learned.items()))
        result.uses = _uses(cache, renders_pack(slug, options), face_keys, nest_memo)
        result.uses.add(cache.pack_path(faces_pack(slug, options)))
        if lint_memo is not None and (lint_memo.used or lint_memo.learned):
            result.uses.add(cache.pack_path(lints_pack(slug, options)))
    drawn = [(plan.documents, arts, face_keys)]
    homes = [r.files[0] for r in plan.records if r.files] + [f"{game.slug}-all.pdf"]
    if options.ink is not None:  # the home sheets again, by the ink saver, into ink-saver/
        saved, new, used = inksaver.saver_arts(arts, face_keys, options.ink, cache, images.real_art)
        if cache is not None:
            cache.let_go_of_pictures()
        cache_files.update(new)
        result.uses |= used
        saver_plan = impose_game(rendered, inksaver.saver_options(options), on_paper, face_arts)
        drawn.append((inksaver.home_documents(saver_plan.documents, homes, options.ink), saved,
                      {k: v + inksaver.ink_key(options.ink) for k, v in face_keys.items()}))
    if cache is not None:  # the documents place each picture's stream from the cache: the pictures' bytes can go
        drawn = [(documents, images.stand_ins(faces)[0], keys) for documents, faces, keys in drawn]
        arts = result.arts = drawn[0][1]
    hashed_parts: dict = {}  # stored parts hashed (a picture's pieces in its art file), once for every document
    bleed_memo = Memo(known=cache.pack(pack_name(edition(slug, options)))) if cache is not None else Memo()
    bleed: list[list[str]] = []  # the bare bleed warnings, once read
    # what each document's objects are, to write the next build's from its file (pdf/patch.py), while
    # what the faces are drawn with (``inputs``) holds
    layouts_pack = f"layouts/{edition(slug, options)}"
    laying = cache is not None and out_dir is not None and sheets is not None and inputs is not None
    last_layouts = cache.pack(layouts_pack) if laying and cache is not None else {}
    if last_layouts.get("inputs") != inputs:
        last_layouts = {}
    layouts: dict[str, Any] = {"inputs": inputs}

    def meanwhile() -> None:  # what needs none of the documents: done while other processes draw theirs, if they do
        if bleed:
            return
        if cache is not None and memo is not None and (kept_renders := memo.kept()) is not None:
            add_pack(renders_pack(slug, options), kept_renders)  # the renders used and made
        try:  # the first faces read for bare bleed (one read here draws its pictures from their art files)
            bleed.append(bare_bleed_warnings(bleed_faces, arts, rendered.bleed_mm, font, bleed_memo, images,
                                             files=True, papers=papers, bleeds=game.own_bleeds(rendered.bleed_mm)))
        except SourceChanged as e:
            raise saved_again(e) from None

    for documents, faces, keys in drawn:
        digests: dict[int, bytes] = {**plan.digests, **digested}  # (those of pages kept from the last save)
        plan_keys = early_keys if documents is plan.documents and keys is face_keys and early_keys \
            else plan_keys_of(documents, keys, digests)
        remember_digests(impositions, digests)
        names = {k: k + v for k, v in keys.items()}
        kept: dict[str, PdfFile] = {}
        for path in documents:
            data = cache.reuse(state, path, plan_keys[path], out_dir, cache.hashes) if cache is not None and out_dir is not None else None
            if data is not None:
                kept[path] = data
        last = {id(doc): (str(out_dir / path), layout) for path, doc in documents.items()
                if laying and out_dir is not None and path not in kept
                and (layout := layout_of(last_layouts.get(path))) is not None}
        written = write_documents({p: doc for p, doc in documents.items() if p not in kept}, faces, font, images,
                                  options.jobs, say=lambda s: say(f"{slug}: {s}"),
                                  drawn=sheets.for_build(names, digests, last if laying else None)
                                  if sheets is not None else None,
                                  ready=document_ready, meanwhile=meanwhile)
        files = [(path, kept.get(path) or written[path], plan_keys[path]) for path in documents]
        try:
            records = hashed(lambda f: document_record(f[2], f[1], hashed_parts), files,
                             size=lambda f: f[1].size if isinstance(f[1], PdfFile) else len(f[1]))
        except SourceChanged as e:  # an art file a document copies pictures from
            raise saved_again(e) from None
        for (path, data, _), record in zip(files, records):
            result.files[path] = data
            result.documents[path] = record
            if path in kept and path in last_layouts:  # (kept as it was: its layout as it was)
                layouts[path] = last_layouts[path]
            elif isinstance(data, PdfFile) and data.layout is not None:
                layouts[path] = data.layout.to_json()
    if laying and cache is not None:
        if layouts.keys() != last_layouts.keys() or any(layouts[k] is not last_layouts[k] for k in layouts if k != "inputs"):
            add_pack(layouts_pack, layouts)
        result.uses.add(cache.pack_path(layouts_pack))
        cache.let_go_of_pack(layouts_pack)
    if impositions is not None:  # only the decks this build shows stay
        impositions.let_go_of_unused()
    cache_files.update(images.new)  # each picture's stream, made once, for every later build
    if cache is not None and images.piece_hashes is not None:  # the pieces the digests read, for the next build
        images.learn_piece_hashes(hashed_parts)
        kept_pieces = images.piece_hashes.kept()  # (None: the pack as it is; empty: no pack)
        if kept_pieces:
            add_pack(pieces_pack(slug, options), kept_pieces)
        if kept_pieces or (kept_pieces is None and images.piece_hashes.used):
            result.uses.add(cache.pack_path(pieces_pack(slug, options)))
    result.uses |= images.used
    if cache is not None:
        result.uses |= cache.pictures_used  # the pictures of the faces read and stored (the ink saver's too)
    for path, cut in plan.cuts.items():  # the cutting machine's files: SVG, DXF, Print Then Cut images
        result.files[path] = cut.data(arts, font, images)
    if plan.orders:
        result.files["shop/order.csv"] = order_csv(BUILD_ORDER_COLUMNS, plan.orders)
    meanwhile()  # (done once: beside the first documents)
    result.warnings += bleed[0]
    if cache is not None and (kept_bleed := bleed_memo.kept()):
        add_pack(pack_name(edition(slug, options)), kept_bleed)
    if cache is not None and bleed_memo.used:
        result.uses.add(cache.pack_path(pack_name(edition(slug, options))))
    result.manifest = {
        "game": slug,
        "title": game.title,
        "lang": game.lang,
        "draft": game.draft,
        "players": game.players,
        "paper": options.sheet.paper,
        "duplex": options.sheet.duplex,
        "marks": options.sheet.marks,
        **({"cutter": cutter_record(options)} if options.cutter else {}),
        "printer": options.printer.record() if options.printer is not None else None,
        "decks": [r.to_json() for r in plan.records],
        "bill_of_materials": plan.bom,
        "images": rendered.images,
        "files": sorted(result.files) + ["manifest.json"],
        "warnings": result.warnings,
    }
    if options.ink is not None:
        wanted = set(homes[:-1]) | {f"{inksaver.folder(options.ink)}/{h}" for h in homes[:-1]}
        home_files = {p: bytes(data) for p, data in result.files.items() if p in wanted}  # rasterised, so whole
        result.manifest["ink"] = inksaver.coverage_record(home_files, homes[:-1], options.ink)  # not -all: it repeats them
    return result
