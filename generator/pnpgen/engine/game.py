"""Build one game: load → render faces once → impose page plans → convert faces → write PDFs.

Everything is produced in memory; the caller writes the files (all-or-nothing) only when every
game of the command succeeded, so a failed build leaves the previous good output untouched.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.atomic import Stores
from pnpgen.data.art import Sizes, art_files
from pnpgen.data.lint import LintSettings
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.engine import inksaver
from pnpgen.engine.cache import Cache, plan_keys_of
from pnpgen.engine.documents import write_documents
from pnpgen.engine.facekeys import (
    cache_uses,
    cached_nesting,
    cached_rendering,
    face_grounds,
    face_keys_of,
    face_pictures_of,
    faces_pack,
    lints_pack,
    load_and_render,
    pieces_pack,
    renders_pack,
    saved_again,
)
from pnpgen.engine.fingerprint import code, content_hash, hashed
from pnpgen.engine.fresh import edition
from pnpgen.engine.imposition import GamePlan, Impositions, impose_game, remember_digests
from pnpgen.engine.manifest import DeckRecord
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.output import mark_now
from pnpgen.engine.paper import (
    cricut_warnings,
    cutter_slot_warnings,
    fold_duplex_warnings,
    profile_paper_warnings,
    short_bleed_warnings,
    sleeve_back_warnings,
    sleeve_fit_warnings,
    sleeve_no_cards_warnings,
)
from pnpgen.engine.placement import check_pages, check_tiled, game_printer, paper_layouts
from pnpgen.engine.state import GameState, document_record
from pnpgen.exports.bleedcheck import Paper, ShopFace, bare_bleed_warnings, first_faces, pack_name, paper
from pnpgen.exports.bleedfill import OUTSIDE_MM
from pnpgen.exports.cutfiles import cutter_record
from pnpgen.exports.order import BUILD_ORDER_COLUMNS, order_csv
from pnpgen.faces.compiled import CompiledTemplates
from pnpgen.faces.convert import Converted, convert_faces, converts_in_workers
from pnpgen.faces.faceset import DeckPicture, RenderedGame
from pnpgen.faces.grouped import grouped_per_deck
from pnpgen.faces.printlint import lint_faces
from pnpgen.impose.onpaper import (
    DeckOnPaper,
    silhouette_warnings,
    stock_warnings,
)
from pnpgen.memo import Memo, Pack, pack_line
from pnpgen.pdf.assemble import PdfFile, SourceChanged
from pnpgen.pdf.patch import layout_of
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.settings import default_font
from pnpgen.pdf.streams import FaceStreams
from pnpgen.pdf.tilesig import tile_signatures
from pnpgen.svg.artwork import Art, ArtRecord, ArtToRead

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor


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
    face_grounds: dict[str, list[str]] = field(default_factory=dict)  # face → its see-through pictures grounded (face_grounds)
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
                {n: art(self.arts[k]) for n, k in df.piece_fronts.items()},
                {n: art(self.arts[k]) for n, k in df.piece_backs(df.piece_keys).items()})  # (a figure's side: back)
        return out



def build_game(ws: Workspace, slug: str, options: BuildOptions, cache: Cache | None = None,
               state: GameState | None = None, out_dir: Path | None = None,
               say: Callable[[str], None] = lambda s: None,
               faces_ready: Callable[[BuildResult], None] | None = None, game: Game | None = None,
               sheets: FaceStreams | None = None, arts: dict[str, Art] | None = None, lints: dict | None = None,
               tiles: dict[str, str] | None = None,
               impositions: Impositions | None = None,
               document_ready: Callable[[str, PdfFile], None] = lambda path, pdf: None,
               drawn_ready: Callable[[], None] = lambda: None,
               entry_ready: Callable[[Path, bytes], bytes | PdfFile] = lambda path, data: data,
               workers_forked: Callable[[], None] = lambda: None,
               inputs: str | None = None, compiled: CompiledTemplates | None = None,
               sizes: Sizes | None = None) -> BuildResult:
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
    begin copying it into the staging folder while the rest is made; ``drawn_ready``, once every
    document is drawn (``sheets`` holds every face and page this build draws): the caller may make
    what needs only them beside the build's last steps (the forms pack: engine/beside.py); ``entry_ready``, of each pack of
    the cache as it is made, what stands for it in the new set (a big one written into the staging
    folder and let go of: engine/transaction.py ``Staging.early_entry``); ``workers_forked``, once the
    faces' converting workers are forked, before any thread starts (the caller may fork then too:
    ``Staging.fork_copier``). ``compiled``: the templates' code a long-running command keeps
    (engine/warm.py); ``sizes``: the art files' sizes the game was loaded with (engine/run.py
    ``art_sizes``), for its faces' image() too."""
    memo = None
    nest_memo = cached_nesting(cache)
    if cache is not None:
        compiled, memo = cached_rendering(cache, ws, slug, options, compiled, sizes)
    rendered = load_and_render(ws, slug, options, compiled=compiled, game=game, memo=memo,
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
    # the cache entries of the faces converted now, written beside the conversion (--jobs 1: as each is made)
    stores = Stores(beside=not options.one_core)
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
            # (a face of the pack whose pictures are placed already: as it is, decoded only if read)
            if not (isinstance(art, ArtToRead) and not art.decoded and images.settled(art.pictures)):
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
            # a face showing pictures is not kept: their stand-ins are this build's (the next reads
            # it from the pack again, undecoded); a face of the pack is kept or not by its line,
            # never decoded for it (a 3,000-card deck's save decoded every face here: warm50)
            if arts is None:
                return
            if isinstance(art, ArtToRead) and not art.decoded:
                if not art.pictures:
                    arts[name] = art
            elif not any(it[0] == "image" for it in art.items):
                arts[name] = art

        for k, digest in face_keys.items():
            art = arts.get(k + digest) if arts is not None else None
            if art is None:
                art = cache.face(k + digest, Art.from_json, pictures=picture, packed=packed, read=packing,
                                 later=ArtToRead.later)
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
    beside: ThreadPoolExecutor | None = None
    if converts_in_workers(rendered.faces, known, options.jobs):  # (concurrent.futures imported only then)
        from concurrent.futures import ThreadPoolExecutor

        beside = ThreadPoolExecutor(max_workers=1)
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
                                 forked=partial(_workers_forked, workers_forked, beside, imposed, planned),
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
    # the print lint's findings go after the faces' own warnings, but are found while the documents
    # are drawn (``meanwhile``): its core would otherwise idle here, the faces converted, nothing forked yet
    rendered_warnings = grouped_per_deck(list(rendered.warnings))
    result = BuildResult(game, warnings=rendered_warnings
                         + short_bleed_warnings(list(zip(game.decks, on_paper)), options)
                         + profile_paper_warnings(list(zip(game.decks, on_paper)), options)
                         + stock_warnings(list(zip(game.decks, on_paper)), options.sheet) + silhouette_warnings(options.sheet)
                         + cricut_warnings(list(zip(game.decks, on_paper)), options)
                         + cutter_slot_warnings(list(zip(game.decks, on_paper)), options)
                         + sleeve_back_warnings(game.slug, list(zip(rendered.decks, on_paper, strict=True)), options)
                         + sleeve_fit_warnings(list(zip(game.decks, on_paper)), options)
                         + sleeve_no_cards_warnings(game.slug, game.decks, options),
                         rendered=rendered, arts=arts, cache_files=cache_files, on_paper=on_paper, images=images,
                         face_keys=face_keys, face_arts=face_arts, face_files=face_files,
                         face_grounds=face_grounds(rendered), options=options)
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
        result.uses.add(cache.pack_path(faces_pack(slug, options)))  # (the faces' records: ``meanwhile``)
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

    linted: list[bool] = []

    def lint() -> None:  # the print lint over the faces (their pictures' stand-ins are as good: it reads their marks)
        linted.append(True)
        lint_memo = Memo(known=cache.pack(lints_pack(slug, options))) if cache is not None else None
        found = lint_faces(((df.deck, p.piece, side, k) for df in rendered.decks for p in df.pairs
                            for side, k in (("front", p.front), ("back", p.back)) if k),
                           arts, rendered.bleed_mm, game.options.get("lint", LintSettings()), ws.templates, seen=lints,
                           bleeds=rendered.deck_bleeds, kept=lint_memo, names={k: k + v for k, v in face_keys.items()})
        result.warnings[len(rendered_warnings):len(rendered_warnings)] = found  # (where one process put them)
        if cache is not None and lint_memo is not None:  # the findings measured and asked for, for the next build
            if kept_lint := lint_memo.kept():  # (None: the pack as it is)
                add_pack(lints_pack(slug, options), kept_lint)
            cache.let_go_of_pack(lints_pack(slug, options))
            if lint_memo.used or lint_memo.learned:
                result.uses.add(cache.pack_path(lints_pack(slug, options)))

    def meanwhile() -> None:  # what needs none of the documents: done while other processes draw theirs, if they do
        if bleed:
            return
        if not linted:
            lint()
            if cache is not None:  # the cache entries of the faces' records this build used
                result.uses |= cache_uses(cache, renders_pack(slug, options), face_keys, nest_memo)
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
                             size=lambda f: f[1].size if isinstance(f[1], PdfFile) else len(f[1]), threads=not options.one_core)
        except SourceChanged as e:  # an art file a document copies pictures from
            raise saved_again(e) from None
        for (path, data, _), record in zip(files, records):
            result.files[path] = data
            result.documents[path] = record
            if path in kept and path in last_layouts:  # (kept as it was: its layout as it was)
                layouts[path] = last_layouts[path]
            elif isinstance(data, PdfFile) and data.layout is not None:
                layouts[path] = data.layout.to_json()
    drawn_ready()
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


def _workers_forked(told: Callable[[], None], beside: ThreadPoolExecutor | None, imposed: Callable[[], GamePlan],
                    planned: list[Future]) -> None:
    """The faces' converting workers are forked: the caller told (it may fork too), then the sheets
    planned on a thread (``beside``), if one is to plan them — a thread started only after every fork."""
    told()
    if beside is not None:
        planned.append(beside.submit(imposed))
