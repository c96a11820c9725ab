"""One build command: every game asked for, built in memory, then written all-or-nothing.

A game whose inputs did not change since its last good build is ``up to date`` and not even
loaded; a document whose page plan did not change keeps its file; only changed bytes reach the
disk. After each game, a change report says what the designer must reprint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from pnpgen.printers import profile_files
from pnpgen.engine.cache import Cache, GameState, fingerprint, sha
from pnpgen.engine.changes import change_report, snapshot
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.output import build_lock, claim, inside, mark, remove_stray_temps, relative_proof, workspace_relative
from pnpgen.engine.transaction import commit, recover
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError

if TYPE_CHECKING:
    from pnpgen.engine.game import BuildResult
    from pnpgen.data.model import Game


@dataclass(frozen=True)
class RulebookOptions:
    rules_only: bool = False
    creep_mm: float = 0.0
    binding: str = "left"


@dataclass
class GameOutcome:
    slug: str
    out_dir: Path
    up_to_date: bool
    result: BuildResult | None = None
    changes: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)


def _profiles(ws: Workspace) -> tuple[bytes, ...]:
    """The printer profile files (game.yaml's ``printer:`` names one of them): an edit rebuilds."""
    return tuple(p.read_bytes() for p in profile_files(ws.root) if p.is_file())


def inputs_of(ws: Workspace, slug: str) -> list[Path]:
    """Every folder a game's build reads."""
    return [ws.data / slug, ws.templates / slug, ws.templates / "common", ws.fonts, ws.root / "layouts"]


def run_build(ws: Workspace, slugs: list[str], options: BuildOptions, out_root: Path,
              rulebook: RulebookOptions | None, say: Callable[[str], None] = lambda s: None) -> list[GameOutcome]:
    """Build ``slugs`` into ``out_root/<slug>/``; nothing is written unless every game succeeds.
    Games are built side by side in worker processes when there are cores for it."""
    claim(out_root)
    cache = Cache(out_root)
    if out_root.is_dir():
        with build_lock(out_root):  # a commit a killed run left half done: finished before anything is read
            if recover(out_root) == "forward":
                cache.refuse_links()
                cache.prune()  # what the interrupted build would have pruned after its commit
    cache.refuse_links()
    outcomes: list[GameOutcome] = []
    todo: list[tuple[str, str]] = []
    for slug in slugs:
        inputs = fingerprint(inputs_of(ws, slug), (options, rulebook, _profiles(ws)))
        if cache.up_to_date(_edition(slug, options), inputs, _out_dir(out_root, slug, options)) is not None:
            outcomes.append(GameOutcome(slug, _out_dir(out_root, slug, options), True))
        else:
            todo.append((slug, inputs))
    if not todo:
        return outcomes
    jobs = [(ws, slug, inputs, options, rulebook, out_root) for slug, inputs in todo]
    if options.jobs > 1 and len(todo) > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        inner = replace(options, jobs=1)
        jobs = [(ws, slug, inputs, inner, rulebook, out_root) for slug, inputs in todo]
        # the largest games first, so the workers finish together
        jobs.sort(key=lambda job: -_size(ws.data / job[1]))
        with ProcessPoolExecutor(max_workers=min(options.jobs, len(todo))) as pool:
            for slug, _ in todo:
                say(f"{slug}: building")
            futures = {pool.submit(_build_one, job): job[1] for job in jobs}
            for future in as_completed(futures):
                say(f"{futures[future]}: built")
            done = {futures[f]: f.result() for f in futures}
            built = [done[slug] for slug, _ in todo]  # in the order asked, whatever finished first
    else:
        built = [_build_one(job, say) for job in jobs]
    files: dict[Path, bytes] = mark(out_root)
    stale: list[Path] = []
    for outcome, write, gone in built:
        outcomes.append(outcome)
        files.update(write)
        stale.extend(gone)
    outcomes.sort(key=lambda o: slugs.index(o.slug))
    with build_lock(out_root):  # built in memory first: a failed build leaves no trace
        remove_stray_temps([cache.root, *(out_root / slug for slug in slugs)])  # an older pnpgen's
        written = set(commit(out_root, files, stale))  # one transaction: the old set or the new one
        cache.prune()  # entries no game's current state uses (this build's states are written)
    for o in outcomes:
        o.written = sorted(p for p in written if o.out_dir in p.parents)
    return outcomes


def _size(folder: Path) -> int:
    """Bytes of a game's data: how long its build takes, roughly."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _out_dir(out_root: Path, slug: str, options: BuildOptions) -> Path:
    """build/<game>/, or build/<game>/<lang>/ for a --lang build."""
    return out_root / slug / (options.lang or "")


def _edition(slug: str, options: BuildOptions) -> str:
    """The cache's name for a build: each language keeps its own state."""
    return f"{slug}.{options.lang}" if options.lang else slug


def _build_one(job, say: Callable[[str], None] = lambda s: None) -> tuple[GameOutcome, dict[Path, bytes], list[Path]]:
    """One game, in memory: its outcome, the files to write (outputs, manifest, cache) and the
    files of its last build that it no longer makes."""
    from pnpgen.engine.game import build_game
    from pnpgen.data.load import load_game

    ws, slug, inputs, options, rulebook, out_root = job
    out_dir = _out_dir(out_root, slug, options)
    cache = Cache(out_root)
    say(f"{slug}: building")
    before = cache.state(_edition(slug, options))
    book = _Rulebook(ws, rulebook, cache, beside=options.jobs > 1) if rulebook is not None else None
    game = load_game(ws, slug, lang=options.lang)
    _nothing_went_missing(game, before, rulebook is not None)
    try:
        if book is not None:
            book.prepare(game)
        result = build_game(ws, slug, options, game=game, cache=cache, state=before, out_dir=out_dir, say=say,
                            faces_ready=book.start if book is not None else None)
        if book is not None:
            book.finish(result)
    finally:
        if book is not None:
            book.close()
    now = snapshot(result)
    changes, reprint = change_report(before.report if before else None, now)
    result.manifest["changes"] = changes
    result.manifest["reprint"] = reprint
    if before is not None:  # the copies new or changed since the last good build (none: no file)
        from pnpgen.engine.reprint import reprint_files

        reprint_out = reprint_files(result, options, before.report)
        result.files.update(reprint_out)
        result.manifest["files"] += sorted(reprint_out)
    manifest = workspace_relative(result.manifest, ws.root)  # the same bytes in any folder
    result.files["manifest.json"] = (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode()
    state = GameState(inputs, documents=result.documents,
                      files={rel: sha(data) for rel, data in result.files.items()},
                      report=now, uses=sorted(cache.entry(p) for p in result.uses))
    files = {out_dir / rel: data for rel, data in result.files.items()}
    files[cache.state_path(_edition(slug, options))] = state.to_json()
    files.update(result.cache_files)
    below = out_dir.relative_to(out_root).as_posix()
    gone = [path for rel in (before.files if before else []) if rel not in result.files
            and (path := inside(out_root, f"{below}/{rel}")) is not None]
    from pnpgen.engine import history

    version, pruned = history.record(out_root, _edition(slug, options), game, now)  # a version, if content changed
    files.update(version)
    gone += pruned
    result.rendered = None  # the faces and the art stay in the worker: only bytes and records come back
    result.arts = {}
    return GameOutcome(slug, out_dir, False, result, changes), files, gone


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


class _Rulebook:
    """The game's rulebook (rulebook.pdf, the A4 booklet, proof.txt), typeset once the faces it
    shows are converted: in a second process while the sheets are imposed and written when there
    is a core for it (``beside``), else right away. The second process starts as soon as the game is
    loaded, and loads its libraries and fonts while the faces are drawn."""

    def __init__(self, ws: Workspace, opts: RulebookOptions, cache: Cache, beside: bool):
        self.ws, self.opts, self.cache, self.beside = ws, opts, cache, beside
        self.pool: Any = None
        self.future: Any = None
        self.done: Any = None

    def prepare(self, game: Game) -> None:
        if self.beside and game.draft_file.is_file():
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(max_workers=1)
            self.pool.submit(_prepare, self.ws, game)  # its errors are _typeset's too: they surface there

    def start(self, result: BuildResult) -> None:
        game = result.game
        if not game.draft_file.is_file():
            return
        job = (self.ws, game, result.pictures(), self.opts, self.cache.records("readings"))
        if self.beside:
            from concurrent.futures import ProcessPoolExecutor

            self.pool = self.pool or ProcessPoolExecutor(max_workers=1)
            self.future = self.pool.submit(_typeset, *job)
        else:
            self.done = _typeset(*job)

    def close(self) -> None:
        """Let the second process go (at once when the build failed before the rulebook was typeset)."""
        if self.pool is not None:
            self.pool.shutdown(wait=self.future is not None, cancel_futures=True)
            self.pool = None

    def finish(self, result: BuildResult) -> None:
        game = result.game
        if not game.draft_file.is_file():
            shown = f"data/{game.slug}/{game.draft_file.relative_to(game.root).as_posix()}"
            result.warnings.append(f"{shown}: no draft text, so no rulebook was built "
                                   "(add the draft there, or set draft_file in game.yaml)")
            return
        if self.future is not None:
            self.done = self.future.result()
        files, warnings, report, learned, used = self.done
        result.cache_files.update(self.cache.record("readings", k, v) for k, v in sorted(learned.items()))
        result.uses.update(self.cache.record_path("readings", k) for k in used)
        files = {name: relative_proof(name, data, self.ws.root) for name, data in files.items()}
        result.files.update(files)
        result.manifest["rulebook"] = {"files": sorted(files), "report": report}
        result.manifest["files"] = sorted(set(result.manifest["files"]) | set(files))
        result.warnings.extend(warnings)


def _prepare(ws: Workspace, game: Game) -> None:
    """In the rulebook's process, before the faces arrive: its libraries and its fonts."""
    from pnpgen.rulebook import prepare

    prepare(game, ws.fonts)


def _typeset(ws: Workspace, game, pictures, opts: RulebookOptions, readings: dict):
    """Typeset the draft as rulebook.pdf (A5) and rulebook-booklet.pdf (A4 saddle stitch): its
    files, warnings and report, with the index readings it had to look up and every term whose
    reading it used. Plain values, so the build's process takes them back without importing the
    rulebook."""
    from pnpgen.rulebook import build_rulebook, flowables

    flowables.KNOWN_READINGS.update({k: v for k, v in readings.items() if isinstance(v, str)})
    flowables.USED_READINGS.clear()
    book = build_rulebook(game, ws.fonts, rules_only=opts.rules_only, creep_mm=opts.creep_mm,
                          binding=opts.binding, pictures=pictures)
    learned = dict(flowables.LEARNED_READINGS)
    flowables.LEARNED_READINGS.clear()
    return book.files, book.warnings, book.report, learned, set(flowables.USED_READINGS)
