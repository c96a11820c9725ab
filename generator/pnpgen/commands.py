"""What each CLI command does, in terms of the pipeline stages."""

from __future__ import annotations

import argparse
import builtins
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pnpgen.data.workspace import NoWorkspace, Workspace
from pnpgen.safetext import shown
from pnpgen.sheetargs import home_sheet_options


def _say(text: str) -> None:
    print(shown(text), flush=True)  # data's text, escaped: no terminal control sequence gets through


def _warn(text: str) -> None:
    print(f"pnpgen: warning: {shown(text)}", file=sys.stderr, flush=True)


def _note(text: str) -> None:
    print(f"pnpgen: note: {shown(text)}", file=sys.stderr, flush=True)





def _imports_set_aside() -> None:
    """What importing the build's stages made (some 150,000 objects: functions, classes, tables,
    kept for the process's life) set aside from the collector (``gc.freeze``), which otherwise
    walked every one of them at its first collection after the imports: some 10 ms of a short
    build (the poker deck's 0.3 s). Only in pnpgen's own process (a test's or a script's would keep
    its garbage of before, never freed), and once: a later build's (a watch save's) garbage would
    be set aside with them."""
    if gc.get_freeze_count() == 0:
        gc.freeze()


def build(ws: Workspace, args: argparse.Namespace, warm=None, heading: str | None = None) -> int:
    """``warm``: engine/warm.py's rulebook process kept across builds (watch); ``heading``: watch's
    "fixed, built again", said once the build has succeeded and before its lines, as serve says it."""
    from pnpgen.data.formats import booklet_paper_for
    from pnpgen.engine.cache import Cache
    from pnpgen.engine.fresh import sort_games
    from pnpgen.engine.options import BuildOptions, RulebookOptions

    placed = home_sheet_options(ws, args)
    printer = placed["printer"]
    dpi = {"min_dpi": args.min_dpi} if args.min_dpi is not None else {}  # None: --min-dpi not given
    ink = None
    if getattr(args, "ink", None):
        from pnpgen.svg.ink import InkSaver

        ink = InkSaver(args.ink)
    options = BuildOptions(jobs=args.jobs, **dpi, lang=args.lang, ink=ink, rulebook=not args.no_rulebook, **placed)
    slugs = ws.slugs() if args.all else [args.game]
    if not slugs:  # it said nothing and built nothing, exit 0 (a game folder named .game is passed by)
        from pnpgen.errors import InputError

        raise InputError("--all: no game to build: no folder under data/ holds a game.yaml", path=ws.data,
                         expected="a game's folder data/<slug>/ with its game.yaml, named with letters, digits, - "
                         "and _ (not starting with a dot); pnpgen new <slug> writes one")
    out_root = args.out or ws.root / "build"
    paper = printer.paper if printer is not None and printer.paper else args.paper
    # the booklet's paper as given (None: game.yaml's paper:, else A4); A3 gets the A4 booklet, so
    # another paper that leaves the booklet as it was keeps the book
    booklet = None if paper is None else booklet_paper_for(paper)
    rulebook = None if args.no_rulebook else RulebookOptions(args.rules_only, args.creep, args.binding, booklet)
    from pnpgen.progress import progress

    quiet = args.quiet
    own = _own_language(ws, slugs, args.lang)
    told: builtins.list[bool] = []

    def tell(outcomes) -> None:  # the progress bar gone, the summary said (once the files are in place)
        bar.close()
        if not told:
            told.append(True)
            _summary(ws, outcomes, quiet, heading)

    with ExitStack() as bar:
        say = bar.enter_context(progress(slugs, quiet, args.verbose))
        states: dict = {}  # the games' states, read once for the check and the build (engine/cache.py)
        hashes = Cache(out_root).hashes  # the files' hashes by their stamps, one table for both (read on first use)
        outcomes, todo = sort_games(ws, slugs, options, out_root, rulebook, own, states, hashes)
        if todo:  # the stages load only when a game is to be built
            from pnpgen.engine.run import run_build

            if getattr(args, "own_process", False) and not getattr(args, "set_aside", False):
                _imports_set_aside()
                args.set_aside = True  # (a watch's later saves: gc.get_freeze_count walks all 150,000 objects)
            # the summary said as soon as the files are in place, before the caches' bookkeeping
            outcomes = run_build(ws, slugs, options, out_root, rulebook, say=say, sorted_games=(outcomes, todo),
                                 warm=warm, own_language=own, states=states, hashes=hashes, committed=tell,
                                 unkept=_warn)
    tell(outcomes)
    return 0


def _summary(ws: Workspace, outcomes: Sequence[Any], quiet: bool, heading: str | None) -> None:
    """A build's lines: ``heading`` (watch's "fixed, built again") first, then each game's
    warnings, files, decks, book and changes."""
    if heading:
        _say(heading)
    for o in outcomes:
        if o.up_to_date:  # its last build's warnings said again: the files still are what they warned of
            for w in o.warnings:
                _warn(ws.shown(w))
            if not quiet:
                _say(ws.shown(f"{o.slug}: up to date ({o.out_dir})"))
            continue
        result = o.result
        for w in result.warnings:
            _warn(ws.shown(w))
        if quiet:
            continue
        from pnpgen.messages import counted  # (here: a build with nothing to do imports none of it)

        _say(ws.shown(f"{o.slug}: {counted(len(result.manifest['files']), 'file')} in {o.out_dir}, {len(o.written)} written"))

        for deck in result.records:
            own = f" of {deck.paper.upper()}" if deck.paper != result.manifest["paper"] else ""  # (its paper:)
            _say(f"  {deck.id:<16} {deck.name}  ×{deck.count}  {deck.on_paper()}, {counted(deck.sheets, 'sheet')}{own}")
            if deck.hint():
                _say(f"  {'':<16} ({deck.hint()})")
        book = result.manifest.get("rulebook", {}).get("report")
        if book:  # its pages and how many proofing notes proof.txt holds (the report's summary, last)
            _say(f"  {book[-1]}")
        if "ink" in result.manifest:
            ink = result.manifest["ink"]
            _say(f"  ink: {ink['ratio'] * 100:.0f} % of full colour ({ink['mode']}, in {ink['folder']}/)")
        for line in o.changes:
            _say(f"  changed: {line}")
        for folder in o.stale_exports:
            _say(ws.shown(f"  exported before this change: {folder}{os.sep} (pnpgen export --game {o.slug} "
                          f"--preset {folder.name}{_lang_of(folder, o.slug)} makes it again)"))


# How long the watcher waits for a save to go quiet before it builds (watchfiles' ``step``, ms):
# it yields once a whole step passed with no new change after the tick that saw the save, so the
# save is seen some 1.5 steps after it is made (50 ms: 65 ms on average; 20 ms: 29 ms; 10 ms:
# 14 ms, medians of populous's saves). A build that starts in the middle of a slow editor's write
# and fails is built again on the rest of the write, which the watcher has seen meanwhile.
WATCH_STEP_MS = 10


def _lang_of(folder: Path, slug: str) -> str:
    """`` --lang xx`` for an export folder of a --lang edition (``<out>/<game>/<lang>/<preset>``)."""
    return f" --lang {folder.parent.name}" if folder.parent.name != slug else ""


def watch(ws: Workspace, args: argparse.Namespace) -> int:
    """Build, then rebuild on every save of the game's data, templates, icons or fonts. A bad
    save prints its one-line error and the watcher goes on; the last good files stay. A link out
    of the workspace below the watched folders is refused before anything is watched, and on
    every save after one is made while the watcher runs (nothing is built while it is there)."""
    from watchfiles import watch as watch_files

    from pnpgen.engine.fresh import present_inputs, profile_stamps, watched, worth_a_build
    from pnpgen.engine.output import claim
    from pnpgen.engine.warm import Warm
    from pnpgen.errors import InputError

    _known_game(ws, args.game)
    warm = Warm()  # one rulebook process for every save: fonts parsed once
    import signal
    import threading

    def stop(signum, frame):
        raise SystemExit(128 + signum)  # SIGTERM: end like Ctrl-C, the rulebook's process with it

    if threading.current_thread() is threading.main_thread():  # (a test may watch from a thread)
        signal.signal(signal.SIGTERM, stop)

    broken = [False]  # the last save's build stopped at an error

    def once() -> None:
        try:
            watched(ws, args.game)  # a link out of the workspace made since: refused on each save as at the start
            # the save that mends it says so first, as serve does (also with -q: it answers the error)
            fixed = ws.shown(f"{args.game}: fixed, built again ({out / args.game})") if broken[0] else None
            build(ws, args, warm, heading=fixed)
        except InputError as e:
            ws.still_there(root)  # ("unknown game" when the workspace itself is gone: said as that, the watch ended)
            print(f"pnpgen: error: {shown(ws.shown(str(e)))}", file=sys.stderr, flush=True)
            broken[0] = True
            return
        broken[0] = False

    builds = 0
    root = ws.still_there(None)
    folders = watched(ws, args.game)  # (no link below them out of the workspace)
    present = present_inputs(ws, args.game)
    claim(args.out or ws.root / "build", ws.input_folders)  # an --out no save can make right: exit 2 now
    out = (args.out or ws.root / "build").resolve()
    # yield_on_timeout: an empty set every 200 ms without changes, the first one once the watcher
    # runs. The first build starts only then, so a save made while it builds (after it read the
    # file) is seen by the watcher and built next, and "watching" is said when no save can be missed.
    profiles = profile_stamps(ws)  # printers.yaml: looked at on every tick (a file beside the folders)
    with warm:
        while not (args.max_builds and builds >= args.max_builds):
            ready = moved = False
            for changes in _stopped_said(watch_files(*folders, debounce=200, step=WATCH_STEP_MS, rust_timeout=200,
                                                     yield_on_timeout=True)):
                ws.still_there(root)  # (every 200 ms: a batch, or an empty one)
                if not ready:
                    ready = True
                    once()  # whatever was saved before this is in this build
                    builds += 1
                    shown_folders = dict.fromkeys("fonts/*.ttf" if f.parent == ws.fonts else str(f.relative_to(ws.root))
                                                  for f in folders)  # (a fonts/ leading out: its font files)
                    gone = "" if ws.game_dir(args.game) in folders else \
                        f", and for data/{args.game}/ to be back (not there: moved, deleted, the workspace renamed?)"
                    watching = f"{', '.join(shown_folders)} and printers.yaml" if shown_folders else "printers.yaml"
                    _say(f"watching {watching}{gone} (Ctrl-C to stop)")
                    if builds == 1:
                        continue  # (--max-builds counts the builds of saves after the first)
                elif present_inputs(ws, args.game) != present:
                    moved = True  # a folder the build reads made (or removed) since: watched from now on, and built
                    break
                else:
                    now = profile_stamps(ws)
                    if not worth_a_build(changes, out) and now == profiles:
                        continue  # nothing, an editor's own files, or our own output (an --out inside a watched folder)
                    profiles = now
                    once()
                    builds += 1
                if args.max_builds and builds >= args.max_builds:
                    break
            if not moved:
                break
            present = present_inputs(ws, args.game)
            try:
                folders = watched(ws, args.game)
            except InputError as e:  # a link out of the workspace below the new folder: said, and not followed
                print(f"pnpgen: error: {shown(ws.shown(str(e)))}", file=sys.stderr, flush=True)
                folders = [f for f in folders if f.exists()]
    return 0


def _stopped_said(changes: Iterator[Any]) -> Iterator[Any]:
    """The watcher's batches of changes; the watcher stopping by itself (watchfiles raises a
    RuntimeError: a name not UTF-8 made while it runs, which it cannot read) is one line, exit 2."""
    from pnpgen.errors import InputError

    while True:
        try:
            batch = next(changes)
        except StopIteration:
            return
        except RuntimeError as e:
            raise InputError(f"the watcher stopped: {' '.join(str(e).split())}",
                             expected="file names in UTF-8 below the watched folders (rename the one named), "
                             "then start pnpgen watch again") from None
        yield batch


def asked_language(ws: Workspace, slug: str, lang: str | None) -> str | None:
    """``--lang`` as the edition of ``slug`` to make: None when it names the game's default
    language, the edition a plain build makes (``i18n.edition_asked``). The one place it is
    resolved: by ``cli.main`` for a command on one game, by ``build`` (and watch) for each game
    it builds, ``--game`` or ``--all`` (``fresh.for_game``)."""
    if lang is None:
        return None
    from pnpgen.data.i18n import edition_asked

    return edition_asked(ws.game_dir(slug) / "game.yaml", lang)


def _own_language(ws: Workspace, slugs: builtins.list[str], lang: str | None) -> frozenset[str]:
    """The games whose default language ``--lang`` names: built as without it."""
    return frozenset(slug for slug in slugs if lang and asked_language(ws, slug, lang) is None)


def _rulebook(ws: Workspace, game, args: argparse.Namespace):
    """Typeset the draft: rulebook.pdf (A5), rulebook-booklet.pdf (A4 saddle stitch), proof.txt."""
    from pnpgen.engine.game import booklet_paper
    from pnpgen.faces.builtin import icon_dirs
    from pnpgen.rulebook import build_rulebook, pictures_from_game

    return build_rulebook(game, ws.fonts, pictures=pictures_from_game(game, ws.templates),
                          rules_only=args.rules_only, creep_mm=args.creep, binding=args.binding,
                          paper=booklet_paper(ws, game, None), icon_dirs=icon_dirs(ws.templates, game.slug))


def rulebook(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import relative_proof
    from pnpgen.engine.clean import rulebook_record
    from pnpgen.engine.output import build_lock, claim, mark
    from pnpgen.engine.transaction import commit

    out_root = args.out or ws.root / "build"
    claim(out_root, ws.input_folders)
    game = load_game(ws, args.game, lang=args.lang)
    out_dir = out_root / game.slug / (args.lang or "")
    book = _rulebook(ws, game, args)
    files = {name: relative_proof(name, data, ws.root) for name, data in book.files.items()}
    with build_lock(out_root):  # all three or none, and the record that lets clean remove them
        commit(out_root, {out_dir / name: data for name, data in files.items()}
               | rulebook_record(out_root, out_dir, files) | mark(out_root))
    for w in book.warnings:
        _warn(ws.shown(w))
    if args.quiet:
        return 0
    if args.verbose:  # how the draft was read and set, as build -v shows it
        for line in book.report:
            _say(ws.shown(f"  {line}"))
    _say(ws.shown(f"{game.slug}: " + ", ".join(str(out_dir / name) for name in book.files)))
    return 0


def export(ws: Workspace, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from pnpgen.engine.cache import Cache
    from pnpgen.engine.export import earlier_images, export_inputs, owners_unknown, shown, up_to_date, write_export
    from pnpgen.engine.output import claim
    from pnpgen.exports.options import ExportOptions
    from pnpgen.messages import counted

    options = ExportOptions(preset=args.preset, fit=args.fit, colour=args.colour, pdfx=args.pdfx, outline_text=args.outline_text, proof=args.proof,
                            base_url=args.base_url, deck_id_base=args.deck_id_base, decks=tuple(args.deck), out=args.out,
                            lang=args.lang)
    out_root = args.out or ws.root / "build"
    claim(out_root, ws.input_folders)  # not pnpgen's folder to write: stop before anything is made
    Cache(out_root).refuse_links()  # (.cache/exports a link: its states were read through it, as a build refuses)
    if options.decks and owners_unknown(out_root, args.game, options):
        print(f"pnpgen: note: {args.game}: the last export of --preset {args.preset} (an older pnpgen's) does not "
              "record which deck each of its files is: every deck exported this once, so that no other deck's "
              "file is removed and none of the named decks' is left stale; --deck touches only those decks "
              "from the next export on", file=sys.stderr, flush=True)
        options = replace(options, decks=())
    inputs = export_inputs(ws, args.game, options)
    kept = up_to_date(ws, args.game, options, out_root, inputs)
    if kept is not None:  # nothing it reads changed, every file it wrote is there
        folder, warnings = kept
        for w in warnings:  # what that export warned of, said again
            _warn(w)
        if not args.quiet:
            _say(ws.shown(f"{args.game}: up to date ({folder})"))
        return 0
    from pnpgen.exports.export import export_game
    from pnpgen.exports.heap import large_blocks_mapped

    large_blocks_mapped()  # this process's large pictures' memory given back when freed (exports/heap.py)
    result = export_game(ws, args.game, options, earlier_images(args.game, options, out_root))
    result.warnings[:] = [ws.shown(w) for w in result.warnings]  # export.json names no folder of this machine
    write_export(result, inputs, args.game, options, shown(ws, args.game, result.game))
    for w in result.warnings:
        _warn(ws.shown(w))
    if not args.quiet:
        for line in result.black:
            _say(ws.shown(f"  {line}"))
        _say(ws.shown(f"{args.game}: {counted(len(result.files) + 1, 'file')} in {result.out_dir}"))  # and export.json
    return 0


def list(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.engine.listing import game_lines

    for slug in [args.game] if getattr(args, "game", None) else ws.slugs():
        for line in game_lines(ws, slug):
            _say(line)
    return 0


def check_options(ws: Workspace, args: argparse.Namespace):
    """What ``check`` places the decks with: the default sheets, for ``--printer``'s profile."""
    from dataclasses import replace

    from pnpgen.engine.options import BuildOptions
    from pnpgen.printers import load_printer

    dpi = {"min_dpi": args.min_dpi} if getattr(args, "min_dpi", None) is not None else {}  # None: --min-dpi not given
    options = BuildOptions(lang=args.lang, **dpi)
    if not getattr(args, "printer", None):
        return options
    printer = load_printer(ws.root, args.printer)
    duplex = printer.duplex or options.sheet.duplex
    sheet = replace(options.sheet, paper=printer.paper or options.sheet.paper, duplex=duplex,
                    **printer.sheet_fields(duplex))
    return replace(options, sheet=sheet, printer=printer)


def check(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.data.load import load_game
    from pnpgen.data.model import is_placeholder, open_value_said
    from pnpgen.engine.cache import Cache
    from pnpgen.engine.check import check_faces
    from pnpgen.messages import counted

    slugs = [args.game] if args.game else ws.slugs()
    _svg_options(args)
    note = (lambda text: None) if args.quiet else _say  # -q: only the problems and warnings
    total = problems = 0
    cache = Cache(ws.root / "build")
    cache.refuse_links()  # (its records were read through a link in it, from outside the workspace: as a build refuses)
    for slug in slugs:
        game = load_game(ws, slug, lang=args.lang)
        faces = check_faces(ws, game, check_options(ws, args), cache)
        pieces = (f"{counted(len(game.decks), 'deck')}, {counted(sum(d.count for d in game.decks), 'piece')}, "
                  f"{counted(faces.faces, 'face')}")
        if faces.problems or faces.warnings or not args.quiet:
            _say(ws.shown(f"{slug}: {'ok' if not faces.problems else 'would not build'} ({pieces})"))
        for p in faces.problems:
            more = f" — and {counted(p.faces - 1, 'more face')} the same way" if p.faces > 1 else ""
            if p.also:  # the same character in other pieces' texts: where, the first few
                more += " (" + ", ".join(dict.fromkeys(p.also[:5])) + (", …" if len(p.also) > 5 else "") + ")"
            _say(ws.shown(f"  error: {p.error}{more}"))
        problems += len(faces.problems)
        if args.svg:
            _write_svgs(ws, args, game, faces, note)
        for w in faces.warnings:
            _say(ws.shown(f"  warning: {w}"))
        for line in game.translations.warnings:
            note(ws.shown(f"  translation: {line}"))
            total += 1
        for deck in game.decks:
            # a default's placeholder: one line, every piece it reaches (one field of each: a piece's
            # own empty fields share its line, and each is listed)
            same: dict[tuple[str, str, str], builtins.list[str]] = {}
            for where, field, text in deck.placeholders:
                key = (str(where), open_value_said(text, "en", game.lang), field.rpartition(".")[2])
                same.setdefault(key, []).append(field)
            for (at, text, _), fields in same.items():
                more = f" — and {counted(len(fields) - 1, 'more piece')} from the same line" if len(fields) > 1 else ""
                note(ws.shown(f"  {deck.id}: {at}: {fields[0]}: {text}{more}"))
                total += 1
            parked = [piece for piece in deck.pieces if piece.count == 0]  # each named, up to PARKED_NAMED
            for piece in parked[:PARKED_NAMED]:
                note(ws.shown(f"  {deck.id}: {piece.where}: {piece.label}: parked (count: 0, prints none)"))
            if len(parked) > PARKED_NAMED:  # (a starter deck reading a whole card sheet parks most of it)
                note(f"  {deck.id}: and {counted(len(parked) - PARKED_NAMED, 'more piece')} parked")
        for item in game.sourced:
            if is_placeholder(item.note):
                note(ws.shown(f"  sourced: {item.name} ×{item.count}: {item.note}"))
                total += 1
        if is_placeholder(game.players):  # an open value of game.yaml's as of the decks' (pnpgen new writes it)
            note(ws.shown(f"  game: {game.options.get('players_at', 'game.yaml')}: players: {game.players}"))
            total += 1
    note(f"{total} to settle (placeholders and missing translations)" if args.lang
         else f"{counted(total, 'placeholder')} to settle")
    if problems:
        _say(ws.shown(f"{counted(problems, 'problem')} a build would stop at"))
        return 2
    return 0


PARKED_NAMED = 10  # parked pieces `check` names one by one per deck; the rest are counted on one line


def _deck_of(game, deck_id: str):
    """The game's deck ``deck_id`` (``--deck``), or the error naming the nearest and every deck."""
    from pnpgen.errors import InputError, suggest
    try:
        return game.deck(deck_id)
    except KeyError:
        raise InputError(f"unknown deck {deck_id!r}{suggest(deck_id, [d.id for d in game.decks])}", key="--deck",
                         expected="one of " + ", ".join(d.id for d in game.decks)) from None


def _svg_options(args: argparse.Namespace) -> None:
    """``check``'s --deck, --piece and --out choose what --svg writes: without it, or --piece without --deck, they are told."""
    from pnpgen.errors import InputError
    for name in ("deck", "piece", "out"):
        if getattr(args, name) is not None and not args.svg:
            raise InputError(f"--{name} chooses what --svg writes, and --svg is not given", key=f"--{name}",
                             expected=f"pnpgen check --game GAME --svg --{name} …, or no --{name}")
    if args.piece is not None and args.deck is None:
        raise InputError("--piece is a piece's place in one deck, and no --deck is given", key="--piece",
                         expected="pnpgen check --game GAME --svg --deck DECK --piece N")
    if args.deck is not None and not args.game:
        raise InputError("--deck names a deck of one game, and no --game is given", key="--deck",
                         expected="pnpgen check --game GAME --svg --deck DECK")


def _write_svgs(ws: Workspace, args: argparse.Namespace, game, faces, note) -> None:
    """``check --svg``: the faces' SVGs written into ``<out>/<game>/[<lang>/]svg/``, with their record."""
    from pnpgen.engine.clean import svg_files
    from pnpgen.engine.output import build_lock, claim, mark
    from pnpgen.engine.transaction import commit
    from pnpgen.errors import InputError
    from pnpgen.faces.svgfiles import face_files
    from pnpgen.messages import counted

    drawn, scope = [(*d, copy) for d, copy in zip(faces.drawn, faces.copies, strict=True)], ""
    if args.deck is not None:
        deck = _deck_of(game, args.deck)
        if args.piece is not None and args.piece > len(deck.pieces):
            raise InputError(f"deck {deck.id!r} holds {counted(len(deck.pieces), 'piece')}, no piece {args.piece}",
                             key="--piece", expected=f"a number from 1 to {len(deck.pieces)}")
        drawn = [d for d in drawn if d[0].id == deck.id and (args.piece is None or d[1].index == args.piece)]
        scope = f"{deck.id}/" + (f"{args.piece:03d}" if args.piece is not None else "")
    out_root = args.out or ws.root / "build"
    claim(out_root, ws.input_folders)
    lang = asked_language(ws, game.slug, args.lang) or ""  # (the game's own language: its plain folder)
    out_dir = out_root / game.slug / lang / "svg"
    files = face_files(drawn, faces.svgs, faces.art, out_dir)
    with build_lock(out_root):
        plan = svg_files(out_root, out_dir, game.slug, lang, files, scope)
        commit(out_root, plan.files | mark(out_root), plan.stale)
    for name in plan.strangers:
        _warn(ws.shown(f"{out_dir / name}: not written by pnpgen (a file or link of yours): left as it is"))
    note(ws.shown(f"  svg: {counted(len(files) - len(plan.strangers), 'face')} in {out_dir}"
                  + (f", {counted(len(plan.stale), 'earlier one')} removed" if plan.stale else "")))


def _sheet_format(fmt: str | None, out: Path | None) -> str:
    """The spreadsheet format: ``--format``, else the ending of ``--out`` (so an XLSX never lands
    in a .csv file), else csv. Both given and disagreeing is a mistake, not a guess."""
    from pnpgen.errors import InputError

    ending = out.suffix.lower()[1:] if out is not None else None
    if fmt is not None and out is not None and fmt != ending:
        raise InputError(f"{fmt}, but --out {out} is a .{ending} file", key="--format",
                         expected=f"--out {out.with_suffix('.' + fmt)}, or --format {ending} or none")
    return fmt or ending or "csv"


def export_sheet(ws: Workspace, args: argparse.Namespace) -> int:
    """Write a deck's pieces to a spreadsheet, for designers moving their card list there."""
    from pnpgen.data.load import load_game
    from pnpgen.data.sheetcolumns import columns_line
    from pnpgen.data.sheetexport import export_sheet as sheet_bytes
    from pnpgen.engine.output import atomic_write_bytes
    from pnpgen.errors import InputError
    from pnpgen.faces.lookup import check_templates
    from pnpgen.messages import counted

    game = load_game(ws, args.game)
    check_templates(ws.templates, game)
    deck = _deck_of(game, args.deck)
    fmt = _sheet_format(args.format, args.out)
    out = args.out or deck.source.with_suffix("." + fmt)
    if out.exists() or out.is_symlink():  # (the deck's own spreadsheet, or a file of hand edits)
        raise InputError("already exists; not overwritten", path=out, expected="--out another file, or remove it")
    translated, default = {}, "ja"
    if game.translations is not None:  # each other language's texts in <field>.<lang> columns
        default = game.translations.default
        for lang in game.translations.languages:
            if lang != game.translations.lang:
                translated[lang] = load_game(ws, args.game, lang=lang).deck(args.deck)
    atomic_write_bytes(out, sheet_bytes(deck, fmt, translated, default))
    if args.quiet:
        return 0
    _say(ws.shown(f"{deck.id}: {counted(len(deck.pieces), 'row')} ({counted(deck.count, 'piece')}) in {out.resolve()}"))
    if out.resolve().parent == deck.source.resolve().parent:
        read = deck.pieces[0].where.path if deck.pieces else deck.source  # a deck already kept in a sheet
        spec = f"pieces: {{file: {out.name}}}" if not deck.sheet_headers else columns_line(  # its headers mapped as now
            {"file": out.name}, {}, {header: name for name, header in deck.sheet_headers.items()})
        _say(f"  to use it, replace the deck's pieces: list with  {spec}" if read == deck.source
             else f"  the deck reads its pieces from {read.name}; to read them from this file: {spec}")
    return 0


def clean(ws: Workspace, args: argparse.Namespace) -> int:
    """Remove what pnpgen's builds and exports wrote (as their records say) and the cache."""
    from pnpgen.engine.clean import clean as clean_outputs
    from pnpgen.errors import InputError
    from pnpgen.messages import counted

    out_root = args.out or ws.root / "build"
    done = clean_outputs(out_root, args.game, history=args.history, workspace_games=ws.slugs())
    if done.cache_linked is not None:
        raise InputError("is a link to another folder, where pnpgen's records of what it wrote would be: nothing is "
                         "read or removed through it, so everything in the folder stays", path=done.cache_linked,
                         expected="a plain folder: remove the link, build again, then clean")
    if done.cache_refused is not None:
        raise done.cache_refused
    for path in done.kept:
        _warn(ws.shown(f"{path.resolve()}: kept: changed since pnpgen wrote it (remove it yourself if it can go)"))
    for path in done.strangers:
        _warn(ws.shown(f"{path.parent.resolve() / path.name}: kept: pnpgen did not put it in its trash folder, and "
                       "frees only the old files its records there name (an older pnpgen's old output, from before the records, has "
                       "none): nothing there is an output, so move it out if it is yours, else remove it yourself"))
    for link in done.linked:
        _warn(ws.shown(f"{link.parent.resolve() / link.name}: left as it is: a link where pnpgen's folder was, "
                       "and pnpgen writes through none, so nothing it leads to is removed (remove the link yourself)"))
    for folder in done.left:  # exit 0 all the same: what clean can prove pnpgen's is gone
        _warn(ws.shown(f"{folder.resolve()}{os.sep}: left as it is: its record was not written on this machine "
                       "(a build folder from elsewhere, or an older pnpgen's), so nothing proves which files "
                       "pnpgen wrote there (build or export it again, then clean; or remove it yourself)"))
    if not args.quiet:
        where = ws.shown(f"{str(out_root.resolve()).rstrip(os.sep)}{os.sep}")  # (/ is /, not //)
        _say(f"removed {counted(len(done.removed), 'file')} pnpgen wrote in {where}" if done.removed
             else f"nothing pnpgen wrote in {where}" + _no_such_game(ws, args.game))
        if done.history_kept:
            _say(f"kept the {counted(done.history_kept, 'version')} recorded in .history/ and their tags "
                 "(pnpgen clean --history removes them)")
        for folder in sorted({p.parent for p in done.reprints}):  # the folder a designer expected empty
            names = ", ".join(p.name for p in done.reprints if p.parent == folder)
            _say(ws.shown(f"kept {names} in {folder.resolve()}{os.sep}: pnpgen reprint wrote them and no build "
                          "records them (remove them yourself if they can go)"))
    return 0


def calibrate(args: argparse.Namespace) -> int:
    """The duplex calibration sheet (impose/calibration.py) as a two-page PDF."""
    from pnpgen.data.workspace import find_workspace
    from pnpgen.engine.calibration import (
        a_calibration_sheet,
        calibration_sheet,
        games_paper_and_language,
        other_papers,
        write_calibration_sheet,
    )
    from pnpgen.engine.output import claim, mark_now
    from pnpgen.errors import InputError
    from pnpgen.impose.calibration import CalibrationOptions

    try:
        ws: Workspace | None = find_workspace()
    except NoWorkspace:
        ws = None
    root = ws.root if ws is not None else Path.cwd()
    paper, lang = games_paper_and_language(ws, args.lang) if ws is not None else (None, None)
    opts = CalibrationOptions(paper=args.paper or paper or "a4", duplex=args.duplex, lang=args.lang or lang or "ja")
    out = args.out or root / "build" / f"calibration-{opts.paper}-{opts.duplex}.pdf"
    if not args.out:  # build/ as a build takes it (not a link to a folder of other files), and then pnpgen's:
        claim(out.parent, ws.input_folders if ws is not None else [])  # a build after it is not refused
        mark_now(out.parent)
    data = calibration_sheet(opts)
    if (out.exists() or out.is_symlink()) and not a_calibration_sheet(out, data):  # the designer's own PDF
        raise InputError("already exists and is not a calibration sheet pnpgen wrote; not overwritten", path=out,
                         expected="--out another file, or remove it")
    write_calibration_sheet(out, data)
    shown = out.relative_to(root) if not args.out and out.is_relative_to(root) else out  # relative, as every path pnpgen prints
    taken = [what for what, asked, theirs in (("paper", args.paper, paper), ("language", args.lang, lang))
             if asked is None and theirs]
    said = f"; its {' and '.join(taken)} as the workspace's games say" if taken else ""
    if not args.quiet:
        _say(f"calibration sheet: {shown} (print it duplex, then see docs/home-printing.md: 'pnpgen docs home-printing'{said})")
    for other, files in (other_papers(ws, opts.paper, args.lang or lang) if ws is not None else {}).items():
        listed = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        _note(f"{listed} {'print' if len(files) > 1 else 'prints'} on {other.upper()}, not {opts.paper.upper()}: "
              f"a printer profile holds one paper, so calibrate that one too: pnpgen calibrate --paper {other} "
              f"(docs/home-printing.md, A profile and decks on papers of their own)")
    return 0


def serve(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.serve.app import serve as run_server

    _known_game(ws, args.game)
    return run_server(ws, args)


def _no_such_game(ws: Workspace, slug: str | None) -> str:
    """`` for game 'tset', which data/ does not hold; did you mean test?`` after a clean that found
    nothing: a misspelt --game (clean takes a removed game's name too, so it is not refused)."""
    from pnpgen.errors import suggest

    known = ws.slugs()
    if slug is None or slug in known:
        return ""
    return f" for game {slug!r}, which data/ does not hold{suggest(slug, known)}"


def _known_game(ws: Workspace, slug: str | None) -> None:
    """watch and serve wait for saves: a misspelt --game was waited on for ever, its error said
    once among the watcher's lines. Said at once, with the nearest game, exit 2."""
    from pnpgen.data.gamefiles import game_file

    if slug is not None:
        game_file(ws, slug)


def log(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen import playtest

    return playtest.log(ws, args)


def diff(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen import playtest

    return playtest.diff(ws, args)


def tag(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen import playtest

    return playtest.tag(ws, args)


def reprint(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen import playtest

    return playtest.reprint(ws, args)


def docs(args: argparse.Namespace) -> int:
    """Where this pnpgen's documentation is, and its topics; with a topic (``exports``,
    ``docs/exports.md#doujin`` as a message names it, ``readme``), that page's text. The pages
    ship inside pnpgen, so an installed wheel has them wherever it lives."""
    from pnpgen.errors import InputError, suggest
    from pnpgen.readme import readme
    from pnpgen.resources import docs_folder

    folder = docs_folder()
    pages = {p.stem: p for p in sorted(folder.glob("*.md"))}
    topics = ["readme", *pages]
    if args.topic is None:
        readme_file, _ = readme()
        print(f"pnpgen {_version()}'s documentation: {folder}{os.sep}*.md"
              + (f" and {readme_file}" if readme_file else " (README.md: 'pnpgen docs readme')"))
        for name in topics:
            page = pages.get(name)
            title = _title(page.read_text(encoding="utf-8")) if page else "README.md: what pnpgen does, how to start"
            print(f"  {name:<15}{title}")
        print("'pnpgen docs TOPIC' prints one (e.g. pnpgen docs exports | less); a message's docs/exports.md#doujin "
              "is 'pnpgen docs exports'.")
        return 0
    asked = args.topic.split("#")[0].removeprefix("docs/").removesuffix(".md").lower()
    if asked == "readme":
        print(readme()[1])
    elif asked in pages:
        print(pages[asked].read_text(encoding="utf-8"))
    else:
        raise InputError(f"no documentation topic {args.topic!r}{suggest(asked.replace('_', '-'), topics)}",
                         expected="one of " + ", ".join(topics))
    return 0


def _title(text: str) -> str:
    """A page's first heading, its title."""
    return next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), "")


def _version() -> str:
    import pnpgen

    return pnpgen.__version__


def preflight(args: argparse.Namespace) -> int:
    """A print shop's preflight of export folders (pnpgen/preflight/): FOLDERs as given, with or
    without a workspace, or ``--game`` (and ``--preset``) in this workspace's build/."""
    from pnpgen.data.gamefiles import game_file
    from pnpgen.data.workspace import find_workspace
    from pnpgen.errors import InputError
    from pnpgen.preflight.run import export_folders, run
    from pnpgen.preflight.shop import Limits

    if args.folders and (args.game or args.preset or args.lang or args.out):
        raise InputError("an export FOLDER and --game/--preset/--lang/--out together",
                         expected="either the folders (build/<game>/<preset>) or --game G [--preset P]")
    if args.folders:
        folders = builtins.list(args.folders)
    elif args.game is None:
        raise InputError("no export to check" + (" (--preset without --game)" if args.preset else ""),
                         expected="--game G [--preset P], or an export folder: pnpgen preflight build/<game>/<preset>")
    else:
        ws = find_workspace()
        game = ws.game_named(args.game)
        game_file(ws, game)  # an unknown game named with the games there are
        lang = asked_language(ws, game, args.lang)
        here = Path.cwd().resolve()  # the folders said as from here, as a designer types them (a missing one too)
        root = Path(args.out or ws.root / "build")
        folders = export_folders(root.relative_to(here) if root.is_relative_to(here) else root, game, args.preset, lang)
    limits = Limits(args.ink_limit, args.min_line, args.min_ppi, args.min_text)
    return run(folders, limits, _say, _note,
               args.pages_png, args.json, args.quiet)
