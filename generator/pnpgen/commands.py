"""What each CLI command does, in terms of the pipeline stages: the build and its loop (build,
watch, rulebook, export, list, serve; log, diff, tag and reprint through playtest.py) and the lines
every command prints. ``check`` is checkcommand.py's; the commands beside the build (export-sheet,
clean, calibrate, docs, preflight) toolcommands.py's."""

from __future__ import annotations

import argparse
import builtins
import gc
import os
import shlex
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from pnpgen.commandline import default_out_said
from pnpgen.data.workspace import Workspace
from pnpgen.safetext import SAID_LINE, cut_middle, one_line, shown, warning_line
from pnpgen.sheetargs import home_sheet_options


def print_line(text: str) -> None:
    # data's text, escaped: no terminal control sequence gets through, and a line break it holds
    # (a piece's title with U+2028 in check's list of placeholders) shown as \u2028, one line a line
    print(shown(one_line(cut_middle(text, SAID_LINE))), flush=True)


def print_warning(text: str) -> None:
    print(warning_line(text), file=sys.stderr, flush=True)


def print_note(text: str) -> None:
    print(f"pnpgen: note: {shown(one_line(cut_middle(text, SAID_LINE)))}", file=sys.stderr, flush=True)





def _imports_set_aside() -> None:
    """What importing the build's stages made (some 150,000 objects: functions, classes, tables,
    kept for the process's life) set aside from the collector (``gc.freeze``), which otherwise
    walked every one of them at its first collection after the imports: some 10 ms of a short
    build (the poker deck's 0.3 s). The stages are imported with the collector off: on, it made a
    young collection midway (at 50,000 new objects, ``cli.COLLECTOR_THRESHOLDS``) that walked the
    first imports' objects only to keep them (12–17 ms, a 1,000-card edit's), and the freeze that
    follows sets all of them aside anyway (it empties the young generation). Only in pnpgen's
    own process (a test's or a script's would keep its garbage of before, never freed), and once:
    a later build's (a watch save's) garbage would be set aside with them."""
    if gc.get_freeze_count() == 0:
        on = gc.isenabled()
        gc.disable()
        try:
            import pnpgen.engine.run  # noqa: F401  (the build's stages: what is set aside)
        finally:
            gc.freeze()
            if on:
                gc.enable()


def build(ws: Workspace, args: argparse.Namespace, warm=None, heading: str | None = None) -> int:
    """``warm``: engine/warm.py's rulebook process kept across builds (watch); ``heading``: watch's
    "fixed, built again", said once the build has succeeded and before its lines, as serve says it."""
    from pnpgen.data.formats import booklet_paper_for
    from pnpgen.engine.cache import Cache
    from pnpgen.engine.fresh import sort_games
    from pnpgen.engine.options import BuildOptions, RulebookOptions
    from pnpgen.memo import Stamps

    placed = home_sheet_options(ws, args)
    printer = placed["printer"]
    dpi = {"min_dpi": args.min_dpi} if args.min_dpi is not None else {}  # None: --min-dpi not given
    if getattr(args, "max_dpi", None) is not None:  # None: --max-dpi not given
        dpi["max_dpi"] = args.max_dpi
    ink = None
    if getattr(args, "ink", None):
        from pnpgen.svg.ink import InkSaver

        ink = InkSaver(args.ink)
    options = BuildOptions(jobs=args.jobs, one_core=args.jobs == 1, **dpi, lang=args.lang, ink=ink, rulebook=not args.no_rulebook, **placed)
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
    rulebook = None if args.no_rulebook else RulebookOptions(args.rules_only, args.creep, args.binding, booklet,
                                                             dpi.get("max_dpi"), args.margin)
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
        hashes.threads = not options.one_core
        stamps = Stamps()  # the input files' stats, as the check lists them: the build's (engine/fresh.py)
        measuring: builtins.list = []  # the art measured by a process forked as the inputs hash (below)
        if getattr(args, "own_process", False) and not getattr(args, "set_aside", False) and hashes.threads:
            def set_aside() -> None:  # the build's stages imported while the inputs' files hash on threads, if
                # they do (a cold big deck: some 0.17 CPU-s beside 0.2; docs/speed.md, jobs47); and the
                # games' art measured by a process forked first, the smaller (engine/artbeside.py, jobs48)
                from pnpgen.engine.artbeside import ArtBeside

                measuring.append(ArtBeside([ws.game_dir(slug) / "art" for slug in slugs]))
                _imports_set_aside()
                args.set_aside = True

            hashes.beside = set_aside
        try:
            outcomes, todo = sort_games(ws, slugs, options, out_root, rulebook, own, states, hashes, stamps)
        except BaseException:
            for measures in measuring:
                measures.cancel()
            raise
        for measures in measuring:  # kept before the games load, or let go unread (nothing to build)
            if todo:
                measures.take()
            else:
                measures.cancel()
        if todo:  # the stages load only when a game is to be built
            if getattr(args, "own_process", False) and not getattr(args, "set_aside", False):
                _imports_set_aside()
                args.set_aside = True  # (a watch's later saves: gc.get_freeze_count walks all 150,000 objects)
            from pnpgen.engine.run import run_build

            # the summary said as soon as the files are in place, before the caches' bookkeeping
            outcomes = run_build(ws, slugs, options, out_root, rulebook, say=say, sorted_games=(outcomes, todo),
                                 warm=warm, own_language=own, states=states, hashes=hashes, committed=tell,
                                 unkept=print_warning, stamps=stamps)
    tell(outcomes)
    return 0


def _summary(ws: Workspace, outcomes: Sequence[Any], quiet: bool, heading: str | None) -> None:
    """A build's lines: ``heading`` (watch's "fixed, built again") first, then each game's
    warnings, files, decks, book and changes."""
    if heading:
        print_line(heading)
    for o in outcomes:
        if o.up_to_date:  # its last build's warnings said again: the files still are what they warned of
            for w in o.warnings:
                print_warning(ws.shown(w))
            if quiet:
                continue
            if o.overtaken:  # (watch beside serve: the save built by the other, its change said here too)
                print_line(ws.shown(f"{o.slug}: built by another pnpgen run meanwhile, the same save ({o.out_dir})"))
                for line in o.changes:
                    print_line(f"  changed: {line}")
            else:
                print_line(ws.shown(f"{o.slug}: up to date ({o.out_dir})"))
            continue
        result = o.result
        for w in result.warnings:
            print_warning(ws.shown(w))
        if quiet:
            continue
        from pnpgen.messages import counted  # (here: a build with nothing to do imports none of it)

        print_line(ws.shown(f"{o.slug}: {counted(len(result.manifest['files']), 'file')} in {o.out_dir}, {len(o.written)} written"))

        hints = _hints(result.records)
        for deck in result.records:
            own = f" of {deck.paper.upper()}" if deck.paper != result.manifest["paper"] else ""  # (its paper:)
            print_line(f"  {deck.id:<16} {deck.name}  ×{deck.count}  {deck.on_paper()}, {counted(deck.sheets, 'sheet')}{own}")
            if deck.id in hints:
                print_line(f"  {'':<16} ({hints[deck.id]})")
        book = result.manifest.get("rulebook", {}).get("report")
        if book:  # its pages and how many proofing notes proof.txt holds (the report's summary, last)
            print_line(f"  {book[-1]}")
            for line in book[:-1]:  # the rule sheet's paper and sides (rulebook/sheet.py)
                if line.startswith("rule sheet:"):
                    print_line(f"  {line}")
        if "ink" in result.manifest:
            ink = result.manifest["ink"]
            print_line(f"  ink: {ink['ratio'] * 100:.0f} % of full colour ({ink['mode']}, in {ink['folder']}/)")
        for line in o.changes:
            print_line(f"  changed: {line}")
        for made in o.stale_exports:
            lang = f" --lang {made.lang}" if made.lang else ""
            print_line(ws.shown(f"  exported before this change: {made.folder}{os.sep} (pnpgen export --game {o.slug} "
                                f"--preset {made.folder.name}{lang}{made.again}{_out_of(made.root, ws)} makes it again)"))


def _hints(records: Sequence[Any]) -> dict[str, str]:
    """Deck id → the hint said under its line in the summary: a deck's own under it; one that
    several decks share word for word (the bleed three duplex card decks of one size gave up) said
    once, under the last of them, naming them: ``alice, strategy, tower: 9/sheet at …``."""
    hinted: dict[str, tuple[str, ...]] = {}
    for deck in records:
        if deck.hint():
            hinted[deck.hint()] = (*hinted.get(deck.hint(), ()), deck.id)
    return {ids[-1]: (f"{', '.join(ids)}: {hint}" if len(ids) > 1 else hint) for hint, ids in hinted.items()}


# How long the watcher waits for a save to go quiet before it builds (watchfiles' ``step``, ms):
# it yields once a whole step passed with no new change after the tick that saw the save, so the
# save is seen some 1.5 steps after it is made (50 ms: 65 ms on average; 20 ms: 29 ms; 10 ms:
# 14 ms, medians of populous's saves; 10 → 5 ms: 18.0 → 8.9 ms, a save renamed into place under
# load, docs/speed.md watchO). Idle, the watcher wakes every step: 3.5 → 5.6 ms CPU a second. A build
# that starts in the middle of a slow editor's write and fails is built again on the rest of the
# write, which the watcher has seen meanwhile.
WATCH_STEP_MS = 5


def _out_of(root: Path, ws: Workspace) -> str:
    """`` --out <folder>`` for an export written below another output folder than the workspace's
    ``build/`` (an export made with ``--out``): without it the command named wrote a new export
    into build/ and left the stale one as it was."""
    if root.resolve() == (ws.root / "build").resolve():
        return ""
    return f" --out {shlex.quote(str(root))}"


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
    warm = Warm(own_process=getattr(args, "own_process", False))  # one rulebook process for every save: fonts parsed once
    # (SIGTERM and SIGHUP end it as Ctrl-C does, the rulebook's process with it: cli.py's handler)
    broken = [False]  # the last save's build stopped at an error

    def once() -> None:
        try:
            watched(ws, args.game)  # a link out of the workspace made since: refused on each save as at the start
            # the save that mends it says so first, as serve does (also with -q: it answers the error)
            fixed = ws.shown(f"{args.game}: fixed, built again ({out / args.game})") if broken[0] else None
            build(ws, args, warm, heading=fixed)
        except InputError as e:
            ws.still_there(root)  # ("unknown game" when the workspace itself is gone: said as that, the watch ended)
            print(f"pnpgen: error: {shown(ws.shown(str(default_out_said(e, args))))}", file=sys.stderr, flush=True)
            broken[0] = True
            warm.set_aside()
            return
        broken[0] = False
        warm.set_aside()  # (its summary said: the save's garbage collected now, not by the next save)

    builds = 0
    root = ws.still_there(None)
    folders = watched(ws, args.game)  # (no link below them out of the workspace)
    present = present_inputs(ws, args.game)
    claim(args.out or ws.root / "build", ws.input_folders, ws.root)  # an --out no save can make right: exit 2 now
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
                root = ws.still_there(root)  # (every 200 ms: a batch, or an empty one; what changed since, one at a time)
                if not ready:
                    ready = True
                    once()  # whatever was saved before this is in this build
                    root = ws.still_there(root)  # (the build's own build/ made: the workspace as it left it)
                    builds += 1
                    shown_folders = dict.fromkeys("fonts/*.ttf" if f.parent == ws.fonts else str(f.relative_to(ws.root))
                                                  for f in folders)  # (a fonts/ leading out: its font files)
                    gone = "" if ws.game_dir(args.game) in folders else \
                        f", and for data/{args.game}/ to be back (not there: moved, deleted, the workspace renamed?)"
                    watching = f"{', '.join(shown_folders)} and printers.yaml" if shown_folders else "printers.yaml"
                    print_line(f"watching {watching}{gone} (Ctrl-C to stop)")
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
                    root = ws.still_there(root)
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
    """Typeset the draft: rulebook.pdf (A5), rulebook-booklet.pdf (A4 saddle stitch), proof.txt, and
    rule-sheet.pdf when game.yaml asks for it or ``--rule-sheet`` is given."""
    from pnpgen.data.load import max_dpi_of
    from pnpgen.engine.placement import booklet_paper, game_profile
    from pnpgen.faces.builtin import icon_dirs
    from pnpgen.rulebook import build_rulebook, pictures_from_game

    ceiling = max_dpi_of(None, game)  # game.yaml's, as a build's faces have it
    # printed duplex or in two passes as game.yaml's printer profile says; without one, not known:
    # the booklet's note tells both
    profile = game_profile(ws, game)
    two_pass = None if profile is None or profile.duplex is None else profile.duplex == "none"
    return build_rulebook(game, ws.fonts, pictures=pictures_from_game(game, ws.templates, max_dpi=ceiling),
                          rules_only=args.rules_only, creep_mm=args.creep, binding=args.binding,
                          paper=booklet_paper(ws, game, None), icon_dirs=icon_dirs(ws.templates, game.slug),
                          max_dpi=ceiling, margin_mm=args.margin, two_pass=two_pass,
                          rule_sheet=args.rule_sheet)


def rulebook(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import relative_proof
    from pnpgen.engine.clean import rulebook_record
    from pnpgen.engine.output import build_lock, claim, mark
    from pnpgen.engine.transaction import commit

    out_root = args.out or ws.root / "build"
    claim(out_root, ws.input_folders, ws.root)
    game = load_game(ws, args.game, lang=args.lang)
    out_dir = out_root / game.slug / (args.lang or "")
    book = _rulebook(ws, game, args)
    files = {name: relative_proof(name, data, ws.root) for name, data in book.files.items()}
    with build_lock(out_root):  # all three or none, and the record that lets clean remove them
        commit(out_root, {out_dir / name: data for name, data in files.items()}
               | rulebook_record(out_root, out_dir, files) | mark(out_root, ws.root))
    for w in book.warnings:
        print_warning(ws.shown(w))
    if args.quiet:
        return 0
    if args.verbose:  # how the draft was read and set, as build -v shows it
        for line in book.report:
            print_line(ws.shown(f"  {line}"))
    print_line(ws.shown(f"{game.slug}: " + ", ".join(str(out_dir / name) for name in book.files)))
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
                            lang=args.lang, max_dpi=getattr(args, "max_dpi", None))
    out_root = args.out or ws.root / "build"
    claim(out_root, ws.input_folders, ws.root)  # not pnpgen's folder to write: stop before anything is made
    Cache(out_root).refuse_links()  # (.cache/exports a link: its states were read through it, as a build refuses)
    if options.decks and owners_unknown(out_root, args.game, options):
        print(f"pnpgen: note: {args.game}: the last export of --preset {args.preset} (an older pnpgen's) does not "
              "record which deck each of its files is: every deck exported this once, so that no other deck's "
              "file is removed and none of the named decks' is left stale; --deck touches only those decks "
              "from the next export on", file=sys.stderr, flush=True)
        options = replace(options, decks=())
    inputs = export_inputs(ws, args.game, options, book=_shows_book(ws, args.game, args.preset))
    kept = up_to_date(ws, args.game, options, out_root, inputs)
    if kept is not None:  # nothing it reads changed, every file it wrote is there
        folder, warnings = kept
        for w in warnings:  # what that export warned of, said again
            print_warning(w)
        if not args.quiet:
            print_line(ws.shown(f"{args.game}: up to date ({folder})"))
        return 0
    from pnpgen.exports.export import export_game
    from pnpgen.exports.heap import large_blocks_mapped
    from pnpgen.scratch import sweep

    large_blocks_mapped()  # this process's large pictures' memory given back when freed (exports/heap.py)
    sweep()  # the spill folders an export killed outright left in the temporary folder (scratch.py)
    result = export_game(ws, args.game, options, earlier_images(args.game, options, out_root))
    result.warnings[:] = [ws.shown(w) for w in result.warnings]  # export.json names no folder of this machine
    try:
        write_export(result, inputs, args.game, options, shown(ws, args.game, result.game, book=result.book), ws.root)
    finally:
        result.spill.close()  # (its big files, written out as made, are copied into the folder or not wanted)
    for w in result.warnings:
        print_warning(ws.shown(w))
    if not args.quiet:
        for line in result.black:
            print_line(ws.shown(f"  {line}"))
        print_line(ws.shown(f"{args.game}: {counted(len(result.files) + 1, 'file')} in {result.out_dir}"))  # and export.json
    return 0


def _shows_book(ws: Workspace, slug: str, preset: str) -> bool:
    """Whether the preset prints the rulebook (``files: rulebook``), the one export its game's draft
    shows: an export of pieces (cards for a shop, Tabletop Simulator) stays up to date when only the
    rules were edited. A preset that does not load: read as one (the export says what is wrong)."""
    from pnpgen.errors import InputError
    from pnpgen.exports.presets import load_preset

    try:
        return load_preset(ws, slug, preset).files == "rulebook"
    except InputError:
        return True


def list(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.engine.listing import game_lines

    for slug in [args.game] if getattr(args, "game", None) else ws.slugs():
        for line in game_lines(ws, slug):
            print_line(line)
    return 0


def serve(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.serve.app import serve as run_server

    _known_game(ws, args.game)
    return run_server(ws, args)


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
