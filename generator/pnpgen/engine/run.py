"""One build command: every game asked for, built in memory, then written all-or-nothing.

A game whose inputs did not change since its last good build is ``up to date`` and not even
loaded (``engine/fresh.py``, which the command layer asks first); a document whose page plan
did not change keeps its file; only changed bytes reach the disk. After each game, a change report says what the designer must reprint.
"""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from pnpgen import usercache
from pnpgen.atomic import read_record
from pnpgen.data.art import Sizes
from pnpgen.data.load import load_game
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace, workspace_relative
from pnpgen.engine import history, recording
from pnpgen.engine.beside import Beside
from pnpgen.engine.bookjob import RulebookJob
from pnpgen.engine.cache import Cache
from pnpgen.engine.changes import PRINTER_CHANGED, change_report, placed_decks, snapshot
from pnpgen.engine.export import exports_made
from pnpgen.engine.facekeys import render_inputs, saved_again
from pnpgen.engine.fingerprint import FileHashes, fingerprint
from pnpgen.engine.fresh import GameOutcome, edition, for_game, inputs_of, sort_games
from pnpgen.engine.fresh import out_dir as game_out_dir
from pnpgen.engine.game import BuildResult, build_game
from pnpgen.engine.manifest import manifest_text
from pnpgen.engine.options import RULEBOOK_FILES, BuildOptions, RulebookOptions
from pnpgen.engine.output import inside, mark, refuse_strangers, remove_stray_temps
from pnpgen.engine.piecematch import DeckMatch
from pnpgen.engine.reprint import is_reprint_file, reprint_files
from pnpgen.engine.state import GameState, States, as_written, recorded
from pnpgen.engine.transaction import Staging, commit
from pnpgen.engine.trash import empty_trash
from pnpgen.engine.warm import Warm
from pnpgen.engine.written import note_written, written_before, written_names
from pnpgen.errors import InputError
from pnpgen.memo import Memo, Stamps
from pnpgen.pdf import drawn
from pnpgen.pdf.assemble import PdfFile, SourceChanged, file_digest
from pnpgen.pdf.streams import FaceStreams


def run_build(ws: Workspace, slugs: list[str], options: BuildOptions, out_root: Path,
              rulebook: RulebookOptions | None, say: Callable[[str], None] = lambda s: None,
              sorted_games: tuple[list[GameOutcome], list[tuple[str, str]]] | None = None,
              warm: Warm | None = None, own_language: frozenset[str] = frozenset(),
              states: States | None = None, hashes: FileHashes | None = None,
              committed: Callable[[list[GameOutcome]], None] | None = None,
              unkept: Callable[[str], None] | None = None, stamps: Stamps | None = None) -> list[GameOutcome]:
    """Build ``slugs`` into ``out_root/<slug>/``; nothing is written unless every game succeeds.
    Games are built side by side in worker processes when there are cores for it.
    ``sorted_games``: ``fresh.sort_games`` already asked (else it is asked here: it claims the
    folder and finishes a commit a killed run left). ``warm``: a rulebook process kept across
    builds (watch, serve). ``own_language``: the games whose default language --lang names.
    ``states``: the games' states as ``sort_games`` read them (``Cache.states``); ``hashes``: the
    table of files' hashes it fingerprinted the inputs with (``Cache.hashes``). ``committed``: told
    the outcomes (every game's, the fresh ones too, in the order asked) as soon as the new files are
    in place, before the caches' bookkeeping that follows under the same lock (the unused entries
    pruned, the files' hashes saved): a watch save's summary line waits for the last file, not
    for that. ``unkept``: told the one line of that bookkeeping's failures (``_bookkeeping``).
    ``stamps``: the stats ``sort_games`` took of the input files as it listed them (given with
    ``sorted_games``, else taken here): a game built in this process asks the disk for none again."""
    cache = Cache(out_root, states, hashes)
    if options.one_core:  # (--jobs 1: no thread hashes files beside the build)
        cache.hashes.threads = False
    # one table of files' hashes for the check and the build (given with sorted_games, else made here)
    shared = hashes is not None or sorted_games is None
    if sorted_games is None:
        stamps = Stamps()
    fresh, todo = sorted_games or sort_games(ws, slugs, options, out_root, rulebook, own_language, cache.states,
                                             cache.hashes, stamps)
    outcomes = list(fresh)
    if not todo:
        return outcomes
    jobs = [(ws, slug, inputs, for_game(slug, options, own_language), rulebook, out_root) for slug, inputs in todo]
    # the big documents are copied into the staging folder as each game has them, while the build goes on;
    # the collector, paused as each game's sheets are made, stays paused until the files are committed
    with collector_paused() as collector, Staging(out_root, beside=not options.one_core) as staging:
        if options.jobs > 1 and len(todo) > 1:
            from concurrent.futures import ProcessPoolExecutor, as_completed

            jobs = [(*job[:3], replace(job[3], jobs=1), *job[4:]) for job in jobs]
            # the largest games first, so the workers finish together
            jobs.sort(key=lambda job: -_size(ws.data / job[1]))
            with ProcessPoolExecutor(max_workers=min(options.jobs, len(todo))) as pool:
                for slug, _ in todo:
                    say(f"{slug}: building")
                futures = {pool.submit(_build_one, job): job[1] for job in jobs}
                for future in as_completed(futures):
                    say(f"{futures[future]}: built")
                    _stage_early(staging, future.result()[1])
                done = {futures[f]: f.result() for f in futures}
                built = [done[slug] for slug, _ in todo]  # in the order asked, whatever finished first
        else:
            built = [_build_one(job, say, warm, cache.states, staging, collector, cache.hashes if shared else None,
                                stamps if shared else None) for job in jobs]
        files: dict[Path, bytes | PdfFile] = dict(mark(out_root, ws.root))
        stale: list[Path] = []
        for outcome, write, gone in built:
            outcomes.append(outcome)
            files.update(write)
            stale.extend(gone)
        outcomes.sort(key=lambda o: slugs.index(o.slug))
        with staging.lock():  # built in memory first: a failed build leaves no trace
            overtaken = _built_meanwhile(cache, todo, options, own_language, out_root)
            if overtaken is not None:  # another run built these very inputs while this one waited: its files stay
                return sorted(fresh + overtaken, key=lambda o: slugs.index(o.slug))
            # one transaction: the old set or the new one; the old small files it replaced freed after the summary
            later: list[Path] = []
            written = set(commit(out_root, files, stale, staging, later))
            _told(outcomes, written, out_root, ws)
            if committed is not None:
                committed(outcomes)
            learned = shared and not (options.jobs > 1 and len(todo) > 1)  # the check's table is the build's
            built_dirs = [o.out_dir for o, _, _ in built]

            def learn() -> None:
                if learned:
                    cache.hashes.learn_again()
                else:  # the inputs' hashes, known in this process since they were fingerprinted (the check's, a worker's)
                    for slug, _ in todo:
                        fingerprint(inputs_of(ws, slug), None, cache.hashes, ws.fonts)

            def free() -> None:  # the old files the commit moved aside (``later``)
                for folder in later:
                    empty_trash(folder, keep_spares=True)

            def save() -> None:
                for path, data in files.items():  # the next run knows these files by their stamps, unread
                    if any(d in path.parents for d in built_dirs):
                        cache.hashes.wrote(path, recorded(data))
                cache.hashes.save()

            steps: list[tuple[str, str, Callable[[], object]]] = [
                # (some 4 ms of ext4 a file: 40 ms of a watch save's 16, said done before them)
                ("the replaced files freed", "the next build frees them", free),
                # a killed build's (an older pnpgen's): a walk of the cache, some 2 ms, said done before it
                ("the temporaries a killed build left removed", "the next build removes them",
                 lambda: remove_stray_temps([cache.root, *(out_root / slug for slug in slugs)], out_root)),
                ("the cache's unused entries removed", "the next build removes them", cache.prune),
                ("the inputs' hashes learned", "the next build reads them again", learn),
                ("the files' hashes saved", "the next build reads them again", save)]
            if usercache.secret() is None:  # the next run reads no state: what was written, by inode
                steps.append(("the record of the files written", "the next build keeps a file of this one it no "
                              "longer makes, not removes it",
                              lambda: note_written(out_root, [(o.out_dir, o.wrote) for o, _, _ in built])))
            failed = _bookkeeping(steps)
            if failed and unkept is not None:
                unkept(ws.shown(f"{', '.join(o.slug for o, _, _ in built)}: built, its files in place, but not "
                                + "; not ".join(failed)))
    return outcomes


def _built_meanwhile(cache: Cache, todo: list[tuple[str, str]], options: BuildOptions,
                     own_language: frozenset[str], out_root: Path) -> list[GameOutcome] | None:
    """Each game to build as up to date, when another run (``watch`` beside ``serve``, a ``pnpgen
    build`` typed while the preview runs) committed the same inputs after this one found the folder
    out of date: its files, change report and version are the save's, and this build, compared
    with them, would have written the manifest again saying nothing changed (a designer's trial,
    trial85: the preview then showed an earlier card's reprint under an edit of the rules). Asked
    under the folder's lock, before the commit; None when any game is not so."""
    found = []
    for slug, inputs in todo:
        game_options = for_game(slug, options, own_language)
        folder = game_out_dir(out_root, slug, game_options)
        try:  # (the usual case, the record this build began with: its bytes name other inputs, not parsed again)
            if inputs.encode() not in read_record(cache.state_path(edition(slug, game_options))):
                return None
        except OSError:
            return None
        state = cache.up_to_date(edition(slug, game_options), inputs, folder, cache.hashes)
        if state is None:
            return None
        found.append(GameOutcome(slug, folder, True, changes=_reported(folder), warnings=state.warnings, overtaken=True))
    return found


def _reported(folder: Path) -> list[str]:
    """The change lines of the build whose manifest is in ``folder`` (checked as it wrote it)."""
    try:
        changes = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("changes", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [str(line) for line in changes] if isinstance(changes, list) else []


def art_sizes(cache: Cache, slug: str) -> Sizes:
    """The game's art files' sizes as its last build measured them (``art/<slug>``, by their
    content's hash, each file known by its stamp): what a build loads the game with, and the
    preview (serve/preview.py), so that neither opens every picture to measure it again."""
    return Sizes(Memo(known=cache.pack(f"art/{slug}")), cache.digest, cache.stamps)


def _bookkeeping(steps: list[tuple[str, str, Callable[[], object]]]) -> list[str]:
    """The caches' bookkeeping after a commit, each step (what it does, what its failure costs,
    the step) tried alone, the failures said as ``what (error): cost``. The build's files are in
    place and its summary said by then: a step that fails (an unused entry in a folder it may not
    change, a disk full, an input deleted since it was read) is a warning after the summary, not
    an error or a traceback under a line that said the build was done (exit 1); what it leaves
    costs the next build only time, or a file left behind."""
    failed = []
    for what, cost, step in steps:
        try:
            step()
        except (OSError, InputError) as e:
            failed.append(f"{what} ({e}): {cost}")
    return failed


def _told(outcomes: list[GameOutcome], written: set[Path], out_root: Path, ws: Workspace) -> None:
    """What the summary says of each game built: the files this commit wrote, the exports it left behind."""
    for o in outcomes:
        o.written = sorted(p for p in written if o.out_dir in p.parents)
        if o.changes:  # the game's exports show the cards as they were until exported again
            game = getattr(o.result, "game", None)
            o.stale_exports = sorted(made for root in [out_root, *other_output_folders(ws, out_root, o.slug)]
                                     for made in exports_made(root, o.slug, ws, game, o.decks_changed))


def other_output_folders(ws: Workspace, out_root: Path, slug: str) -> list[Path]:
    """The workspace's other output folders holding records of the game's exports: each folder
    directly in the workspace (``--out proofs``) whose cache has them, but ``out_root`` and links
    (a build reads nothing outside the workspace; an export written elsewhere, or deeper, is told
    by a build with its ``--out``)."""
    try:
        with os.scandir(ws.root) as entries:
            children = sorted(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
    except OSError:
        return []
    own = out_root.resolve()
    return [child for child in children if child.resolve() != own and (child / ".cache" / "exports" / slug).is_dir()]


class Collector:
    """The garbage collector of a build: ``pause`` turns it off, ``resume`` back on as it was
    when ``collector_paused`` began (off stays off)."""

    def __init__(self, was: bool):
        self.was = was

    def pause(self) -> None:
        gc.disable()

    def resume(self) -> None:
        if self.was:
            gc.enable()


@contextmanager
def collector_paused() -> Iterator[Collector]:
    """Gives a ``Collector``: the garbage collector off from when it is paused to the end of the
    block (or its next ``resume``), then on again (as it was). A game's sheets and documents are
    hundreds of thousands of objects that live until they are written (pages, placements, the
    writer's objects) and hold no cycles: each young collection walked them only to keep them, and
    the first older one walked the game's faces too (3,000 cards' text edit: 0.46 CPU-s of
    collections, 0.25 s of it one walk of the whole heap during the shop pages). The faces are read
    and converted with it on: their conversion makes cycles (a cold 3,000-card build with no
    collector at all peaked 200 MB higher). ``run_build`` keeps it paused until the build's files
    are committed (the first collection after, 0.10 s at 3,000 cards, walked what the commit
    freed); each next game of the run turns it on again before its faces are read."""
    collector = Collector(gc.isenabled())
    try:
        yield collector
    finally:
        collector.resume()


def drawn_sheets(cache: Cache, edition: str, inputs: str, read: drawn.Read) -> FaceStreams:
    """The faces and pages the last build of ``edition`` drew into PDF streams (the cache's
    ``forms/<edition>.pack.json``), when they were drawn with ``inputs``; else none. ``read``
    gets the records read as written, with their lines (``drawn.to_json`` writes them back)."""
    kept = cache.pack(f"forms/{edition}", keep=False)  # (each record's JSON let go of once its stream is made)
    return drawn.from_json(kept, kept.lines, read) if kept.get("inputs") == inputs else FaceStreams()


# The forms pack is made by a process forked for it, beside the game's manifest, state and the rest
# of its end, when it has this many faces and pages to encode anew (1,000 cards' cold build: 4,449,
# some 0.1 CPU-s; a fork costs some 10 ms; an edit writes most lines back as read): docs/speed.md, jobs45.
BESIDE_FORMS = 1000


def _forms_pack(cache: Cache, ed: str, drawn_with: str, sheets: FaceStreams, read: drawn.Read) -> bytes:
    """The forms pack's bytes: every face and page drawn, as the next build reads them (``drawn.to_json``)."""
    return cache.pack_entry(f"forms/{ed}", {"inputs": drawn_with, **drawn.to_json(sheets, read)})[1]


def _new_forms(sheets: FaceStreams, read: drawn.Read) -> int:
    """About how many faces and pages the forms pack encodes anew: those drawn or decoded, less
    those read as written (their lines go back as they are)."""
    return len(sheets.made.unpacked) + len(sheets.kept.unpacked) - len(read)


def _size(folder: Path) -> int:
    """Bytes of a game's data: how long its build takes, roughly."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _stage_early(staging: Staging, files: dict[Path, bytes | PdfFile]) -> None:
    """A game's big documents into the staging folder from now (``Staging.early``)."""
    for path, data in files.items():
        staging.early(path, data)
    staging.staged_early()


def _build_one(job, say: Callable[[str], None] = lambda s: None, warm: Warm | None = None,
               states: States | None = None, staging: Staging | None = None, collector: Collector | None = None,
               hashes: FileHashes | None = None,
               stamps: Stamps | None = None) -> tuple[GameOutcome, dict[Path, bytes | PdfFile], list[Path]]:
    """One game, in memory: its outcome, the files to write (outputs, manifest, cache) and the
    files of its last build that it no longer makes. ``states``: the states read so far
    (``Cache.states``); ``staging``: where its big documents are copied from the moment they are made;
    ``collector``: the run's, paused from when the faces are ready and left so (else one of the
    game's own, on again when its documents are made: a worker process's); ``hashes``: the run's
    table of files' hashes (else read here); ``stamps``: its stats of the inputs (else asked here)."""
    ws, slug, inputs, options, rulebook, out_root = job
    if collector is not None:  # (an earlier game's sheets paused it): reading and converting faces makes cycles
        collector.resume()
    out_dir = game_out_dir(out_root, slug, options)
    cache = Cache(out_root, states, hashes, stamps)
    if options.one_core:  # (--jobs 1: no thread hashes files beside the build)
        cache.hashes.threads = False
    say(f"{slug}: building")
    ed = edition(slug, options)  # the game in its language: the cache's name for this build
    before = cache.state(ed)
    book = RulebookJob(ws, rulebook, cache, beside=options.jobs > 1, before=before, out_dir=out_dir,
                       warm=warm, build=options) if rulebook is not None else None
    sizes = art_sizes(cache, slug)
    # a big pack of the cache written into the staging folder as it is made, not held to the commit
    staged = staging.early_entry if staging is not None else (lambda path, data: data)
    forms_pack: Beside | None = None  # the forms pack, when made (by a process forked for it, if big)
    try:
        if book is not None:
            book.start_early(slug)
        game = load_game(ws, slug, lang=options.lang, sizes=sizes)
        _nothing_went_missing(game, before, rulebook is not None)
        if book is not None:
            book.prepare(game)
        drawn_with = render_inputs(ws, slug, options, cache.hashes)  # templates, fonts, options, pnpgen
        # the faces and pages an earlier build drew, while what they are drawn with holds: the
        # last save's (watch, serve), else the last build's from the cache
        read: drawn.Read = {}  # the faces and pages read from the cache as written, by their records
        sheets = warm.sheets(ed, drawn_with) if warm is not None else drawn_sheets(cache, ed, drawn_with, read)
        forms = cache.pack_path(f"forms/{ed}")  # the faces and pages drawn: written when they changed

        def drawn_ready() -> None:  # every face and page drawn: the forms pack made beside the build's last steps
            nonlocal forms_pack  # (by a process forked for it when there is much to encode and a core for it)
            if sheets.let_go_of_unused() or not forms.is_file():
                forms_pack = Beside(partial(_forms_pack, cache, ed, drawn_with, sheets, read),
                                    fork=not options.one_core and _new_forms(sheets, read) >= BESIDE_FORMS)

        with collector_paused() if collector is None else nullcontext(collector) as paused:
            def faces_ready(result: BuildResult) -> None:  # the rulebook (set here without a core for it), then the sheets
                if book is not None:
                    book.start(result, drawn_with)
                paused.pause()

            result = build_game(ws, slug, options, game=game, cache=cache, state=before, out_dir=out_dir, say=say, sizes=sizes,
                                sheets=sheets, arts=warm.arts(ed, drawn_with) if warm is not None else None,
                                lints=warm.lints(ed, drawn_with) if warm is not None else None,
                                tiles=warm.tiles(ed, drawn_with) if warm is not None else None,
                                impositions=warm.impositions(ed, drawn_with) if warm is not None else None,
                                faces_ready=faces_ready, inputs=drawn_with,
                                compiled=warm.compiled if warm is not None else None,
                                document_ready=(lambda rel, pdf: staging.early(out_dir / rel, pdf))
                                if staging is not None else (lambda rel, pdf: None), drawn_ready=drawn_ready,
                                entry_ready=staged,
                                workers_forked=staging.fork_copier if staging is not None else (lambda: None))
        if staging is not None:
            _stage_early(staging, {out_dir / rel: data for rel, data in result.files.items()})
        # what the sheets alone decide, worked out while the rulebook's process may still be setting the book
        now = snapshot(result)
        latest = history.last_version(out_root, ed)  # (read once: the report, the draft's sections, the new version)
        last, since = _last_report(before, latest)
        matches: dict[str, DeckMatch] = {}  # (each deck's pieces matched once, for the report and the reprint)
        changes, reprint = change_report(last, now, matches)
        # each change a deck's, with sheets to reprint or copies to pull out (no printer, deck added or removed):
        # an export of other decks, which shows no draft either, was not made before this change (engine/export.py)
        decks_only = len(changes) == len(reprint) and since is None
        if last is not None and book is not None and (line := recording.rulebook_change(latest, game)):
            changes.append(line)  # a draft edit: no card to reprint, the rulebook's pages
        if since is not None and changes:
            changes.insert(0, f"compared with {since.name} in the history (the last build's record is gone: "
                              "pnpgen clean, or damaged)")
        # the copies new or changed since the last good build (none: no file)
        papers_apart: list[str] = []  # reprint.pdf's pages on a paper not the game's (a deck's A3): said in the summary
        reprint_out = reprint_files(result, options, last, hint=recording.since_hint(out_root, ed, result.game.lang),
                                    since=f"{since.name} ({since.body['time']})" if since is not None else "",
                                    now=now, said=papers_apart, matches=matches) if last is not None else {}
        result.warnings.extend(papers_apart)
        version, pruned = recording.record(out_root, ed, game, now, latest,  # a version, if content changed
                                           layout=recording.home_layout(options.sheet))
        # the faces, the art and the pictures stay in the worker: only bytes and records come back; let
        # go of here, before the caches' JSON is made (10,000 text cards: some 300 MB less at the peak);
        # the caches' packs made while the rulebook's process may still be setting the book
        result.rendered = None
        result.arts = {}
        result.images = None
        if staging is not None:  # (the documents copied by now: their bytes let go of before the packs are made)
            staging.let_go_of_copied()
        if forms_pack is None:
            read.clear()  # (the lines read, let go of with their pack)
        result.uses.add(forms)
        if sizes.memo.used:  # the art files' sizes, by their content: one file, written when it changed
            result.uses.add(cache.pack_path(f"art/{slug}"))
            kept_sizes = sizes.memo.kept()
            if kept_sizes is not None:
                pack, packed = cache.pack_entry(f"art/{slug}", kept_sizes)
                result.cache_files[pack] = staged(pack, packed)
        if book is not None:
            if forms_pack is not None and book.still_setting():  # made while the book is set, not after
                forms_pack.now()  # (a save waited for both: docs/speed.md, watch49)
            book.finish(result)
    except BaseException as e:
        if forms_pack is not None:  # (its bytes no longer wanted)
            forms_pack.cancel()
        if isinstance(e, SourceChanged):  # an art file saved again since build_game took it (the reprint reads the pictures)
            raise saved_again(e) from None
        raise
    finally:
        if book is not None:
            book.close()
    try:
        last_files = before.files if before else _keyless_before(out_root, out_dir, game)
        reprints_kept = _reprint_kept(before, last_files, reprint_out, out_dir, cache) \
            or _reprints_found(before, reprint_out, out_root, out_dir)  # no piece changed: they stay, maybe not printed yet
        if any(rel.endswith(".pdf") for rel in reprints_kept) and (any(r["why"] == ["sheets changed"] for r in reprint.values())
                                               or any(line.startswith(PRINTER_CHANGED) for line in changes)):
            changes.append(RELAID)  # (the sheets laid out anew, no piece changed: another paper, printer or layout)
        if changes and before is not None and not any(line.startswith("rulebook:") for line in changes) \
                and _book_redrawn(before, result):
            changes.append(BOOK_REDRAWN)  # (a pictured card's art or text: the book's pages to print again too)
        result.manifest["changes"] = changes
        result.manifest["reprint"] = reprint
        if reprint_out:
            result.files.update(reprint_out)
            result.manifest["files"] += sorted(reprint_out)
        kept = _rulebook_kept(before, rulebook is not None)
        if kept:  # left out on purpose (--no-rulebook): the last rulebook stays, and the manifest says so
            result.manifest["rulebook"] = {"kept": sorted(kept)}
        kept |= reprints_kept
        # (manifest.json too, made below: one the designer changed was told 'no output of this build any
        # more … kept, it is yours now', and written over)
        stale, changed = _no_longer_made(before, last_files, result.files.keys() | {"manifest.json"}, kept, reprint_out,
                                         out_dir, cache)
        result.warnings.extend(f"{rel}: no output of this build any more, but not the file pnpgen wrote there (changed "
                               "since, or put in its place): kept, it is yours now" for rel in changed)
        if kept:
            result.manifest["files"] = sorted(set(result.manifest["files"]) | set(kept))
        manifest = workspace_relative(result.manifest, ws.root)  # the same bytes in any folder
        result.files["manifest.json"] = (manifest_text(manifest) + "\n").encode()  # (json.dumps indent=2's text)
        _no_strangers_replaced(before, result.files, out_root, out_dir)
        state = GameState(inputs, documents=result.documents,
                          files={**kept, **{rel: recorded(data) for rel, data in result.files.items()}},
                          report=now, uses=sorted(cache.entry(p) for p in cache.with_logs(result.uses)),
                          # said from the workspace: a copy of it (cp -r, its build/ too) said them, up to date, naming the first one's files
                          warnings=workspace_relative(list(result.warnings), ws.root))
        files = {out_dir / rel: data for rel, data in result.files.items()}
        state_path, data = cache.state_file(ed, state)
        files[state_path] = data
        if forms_pack is not None:  # (last: made meanwhile on the other core)
            packed = forms_pack.result()  # (the pack written whole, or its log)
            written = cache.entry_path(f"forms/{ed}", packed)
            result.cache_files[written] = staged(written, packed)
            read.clear()  # (the lines read, let go of with their pack)
            cache.let_go_of_pack(f"forms/{ed}")
        files.update(result.cache_files)
        below = out_dir.relative_to(out_root).as_posix()
        gone = [path for rel in stale if (path := inside(out_root, f"{below}/{rel}")) is not None]
        files.update(version)
        gone += pruned
        gone += cache.stale_logs(result.cache_files)  # (a pack written whole: its log's records are in it)
        layouts: dict[str, Any] = {rel: doc.get("layout") for rel, doc in state.documents.items()}  # a big document's
        wrote = {rel: (digest, layouts.get(rel)) for rel, digest in state.files.items()}
        decks_changed = frozenset(reprint) if decks_only and RELAID not in changes else None
        return GameOutcome(slug, out_dir, False, result, changes, wrote=wrote, decks_changed=decks_changed), files, gone
    finally:
        if forms_pack is not None:
            forms_pack.cancel()  # (the build failed before its bytes were taken: nothing once they are)


def _as_it_wrote(before: GameState, out_dir: Path, rel: str, digest: str, cache: Cache) -> bool:
    """Whether a file of the last build is still as it wrote it: one a designer edited since, or
    put in its place under its name, is theirs, and a build that no longer makes it leaves it."""
    layout = before.documents.get(rel, {}).get("layout")  # a big document's digest is by segments
    return as_written(out_dir, rel, digest, cache.hashes, tuple(layout) if isinstance(layout, list) else None)


def _keyless_before(out_root: Path, out_dir: Path, game: Game) -> dict[str, str]:
    """Without a machine key (``PNPGEN_CACHE=off``) the last build's state cannot be read: the
    files it wrote that are still as it wrote them (engine/written.py), so that those this build
    no longer makes (a deck renamed) go. Not its rulebook, which a build that typesets none, or
    whose draft is missing, keeps; none when the game has no deck files (a mistake, not a reason
    to delete the sheets: what ``_nothing_went_missing`` says when the state can be read). Its
    reprint files are among them: a build with copies to reprint replaces them all (the last
    one's reprint-a3.pdf left beside this one's reprint.pdf was a mixed set, hostile46), one
    without keeps them (``_no_longer_made``)."""
    if usercache.secret() is not None or not game.decks:
        return {}
    return {rel: digest for rel, digest in written_before(out_root, out_dir).items() if rel not in RULEBOOK_FILES}


# said when a kept reprint.pdf is laid out as the sheets were: its copies are still the ones to
# print, so it stays (see _reprint_kept), and the designer is told how to have them on the new sheets
RELAID = ("reprint.pdf kept as it was laid out before the sheets changed (paper, printer or layout; no piece "
          "changed): pnpgen reprint --since VERSION lays its copies out as the sheets are now")


# the change line of a build that changed the rulebook's pictures of the pieces or their counts (a card
# it pictures edited, a deck's total) and not its draft: a designer's trial (trial85) reprinted the new 提灯 and
# was told nothing of the book's figure that showed the old one
BOOK_REDRAWN = ("rulebook: the pieces it shows changed (their pictures or counts; the draft did not): "
                "print rulebook.pdf again")


def _book_redrawn(before: GameState, result: BuildResult) -> bool:
    """Did this build set rulebook.pdf otherwise than the last one, which recorded it?"""
    made, last = result.files.get("rulebook.pdf"), before.files.get("rulebook.pdf")
    return made is not None and last is not None and recorded(made) != last


def _last_report(before: GameState | None,
                 version: history.Version | None) -> tuple[dict[str, Any] | None, history.Version | None]:
    """What the change report and the reprint files compare with, and the history version it is
    (None for the last build's own record): the build cache's record, else (after ``pnpgen
    clean``, which keeps the history) the last version recorded (``version``), which holds the pieces but not the sheets."""
    if before is not None:
        return before.report, None
    if version is None or not all("pairs" in deck for deck in version.body["decks"].values()):
        return None, None  # (a version recorded before versions held the copies printed: every copy would look new)
    return placed_decks(version.body), version  # (its pieces' places with them: a piece named by its file and line)


def _no_longer_made(before: GameState | None, last: Mapping[str, str], made: Collection[str],
                    kept: Mapping[str, str], reprint_out: Mapping[str, bytes], out_dir: Path,
                    cache: Cache) -> tuple[list[str], list[str]]:
    """The last build's files (``last``: its state's, or without a machine key the record of what
    it wrote, checked already) this one no longer makes: those still as pnpgen wrote them (to
    remove), and those changed since or put in their place (kept: the designer's now; a state
    copied from another game's cache names files pnpgen never wrote here)."""
    stale: list[str] = []
    changed: list[str] = []
    for rel, digest in last.items():
        if rel in made or rel in kept or (is_reprint_file(rel) and not reprint_out):
            continue  # (a reprint file not replaced stays: kept as it was, or edited since and the designer's)
        if before is None or _as_it_wrote(before, out_dir, rel, digest, cache):  # (keyless: checked so)
            stale.append(rel)
        elif os.path.lexists(out_dir / rel):
            changed.append(rel)
    return stale, changed


def _reprints_found(before: GameState | None, made: Mapping[str, Any], out_root: Path, out_dir: Path) -> dict[str, str]:
    """The reprint files in ``out_dir`` when no record of a last build can be read (a build folder
    from elsewhere, ``build/.cache`` deleted) and this build writes none: the folder's files are
    its outputs (as it makes the others again), recorded as kept, so that the next build with
    copies to reprint replaces them rather than stopping at them as not pnpgen's."""
    if before is not None or made or written_names(out_root, out_dir) is not None or not out_dir.is_dir():
        return {}
    return {path.name: file_digest(path, None) for path in sorted(out_dir.iterdir())
            if is_reprint_file(path.name) and path.is_file() and not path.is_symlink()}


def _no_strangers_replaced(before: GameState | None, files: Mapping[str, bytes | PdfFile],
                           out_root: Path, out_dir: Path) -> None:
    """Stop the build (exit 2, nothing written) when a file stands where it writes one under a name
    the last build did not write (its state's files, or without a machine key ``.cache/written``'s
    names), holding other bytes: a designer's own ``reprint.pdf`` or ``reprint-a3.pdf`` beside a
    build that wrote none, a new deck's ``<deck>.pdf``, a link. pnpgen replaces only what it wrote,
    whatever the name; a name it wrote is its own to write again (an output damaged or edited since
    is made again, as it was). With no record of a last build (``build/.cache`` deleted, a build
    folder from elsewhere) the folder's files are its outputs, made again."""
    wrote: Collection[str]
    if before is not None:
        wrote = before.files.keys()
    elif (recorded := written_names(out_root, out_dir)) is not None:
        wrote = recorded
    else:
        return
    refuse_strangers(wrote, files, out_dir, "build")


def _rulebook_kept(before: GameState | None, typeset: bool) -> dict[str, str]:
    """The last build's rulebook files (name → hash) when this build leaves the rulebook out: a
    build of the sheets alone is no reason to delete the book."""
    if typeset or before is None:
        return {}
    return {rel: digest for rel, digest in before.files.items() if rel in RULEBOOK_FILES}


def _reprint_kept(before: GameState | None, last: Mapping[str, str], made: dict[str, bytes], out_dir: Path,
                  cache: Cache) -> dict[str, str]:
    """The last build's reprint files (name → hash) when this build changed no piece and they are
    still as pnpgen wrote them: the copies to print stay until a build with new changes replaces
    them (a designer who has not printed them yet keeps them; one who deleted them is not given
    them back). Without a machine key, ``last`` (``_keyless_before``: checked as written
    already): recorded as this build's, or the next one would not know them to replace."""
    if made:
        return {}
    if before is None:
        return {rel: digest for rel, digest in last.items() if is_reprint_file(rel)}
    return {rel: digest for rel, digest in before.files.items()
            if is_reprint_file(rel) and as_written(out_dir, rel, digest, cache.hashes)}


def _nothing_went_missing(game: Game, before: GameState | None, rulebook: bool) -> None:
    """Input the last good build had and this one lacks is a mistake, not a reason to delete its
    outputs: the draft that made rulebook.pdf, every deck file at once."""
    if before is None:
        return
    shown = f"data/{game.slug}/{game.draft_file.relative_to(game.root).as_posix()}"
    if rulebook and not game.draft_file.exists() and "rulebook.pdf" in before.files:
        raise InputError("the draft is missing, and the last build made rulebook.pdf from it", path=shown,
                         expected="the draft back in its place (its outputs are kept), or --no-rulebook")
    if not game.decks and before.report:
        raise InputError(f"the game has no deck files, and the last build had {len(before.report)}",
                         path=f"data/{game.slug}/decks",
                         expected="the deck files back in decks/ (their outputs are kept), or delete the "
                         "game's output folder to start over")
