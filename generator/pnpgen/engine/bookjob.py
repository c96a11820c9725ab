"""The game's rulebook in a build (rulebook.pdf, the A4 booklet, proof.txt): typeset in a process
of its own beside the sheets when there is a core for it, else in the build's, or kept as the
last build made it; its files, warnings and report taken into the game's result. The build
(``engine/run.py``) asks it; ``engine/typeset.py`` is what the process runs."""

from __future__ import annotations

import importlib
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace, relative_proof, workspace_relative
from pnpgen.engine import bookkey
from pnpgen.engine.cache import Cache
from pnpgen.engine.game import BuildResult
from pnpgen.engine.options import BuildOptions, RulebookOptions
from pnpgen.engine.placement import booklet_paper, game_printer
from pnpgen.engine.state import GameState
from pnpgen.engine.warm import Warm, Worker


class RulebookJob:
    """The game's rulebook (rulebook.pdf, the A4 booklet, proof.txt), typeset once the faces it
    shows are converted: in a second process while the sheets are imposed and written when there
    is a core for it (``beside``), else right away. The second process starts before the game is
    read when the game has a draft in its usual place, else once it is read, and loads its
    libraries and fonts while the faces are drawn."""

    def __init__(self, ws: Workspace, opts: RulebookOptions, cache: Cache, beside: bool,
                 before: GameState | None = None, out_dir: Path | None = None, warm: Warm | None = None,
                 build: BuildOptions | None = None):
        self.ws, self.opts, self.cache, self.beside = ws, opts, cache, beside
        self.build = build  # the build's options: the game's printer profile may print without duplex
        self.before, self.out_dir, self.warm = before, out_dir, warm if beside else None
        self.pool: Any = None
        self.future: Any = None
        self.done: Any = None
        self.key = ""
        self.model = ""
        self.model_asked: Any = None  # a warm process's answer to come: the book's model key (``prepare``)
        self.job: tuple = ()  # the setting's job with every picture (``start``), sent again when asked
        self.keys: dict[str, str] = {}  # its pictures' keys, in a warm process (``bookkey.picture_keys``)

    @cached_property
    def last(self) -> dict[str, Any] | None:
        """The last build's rulebook record (``bookkey.last_record``), read once."""
        return bookkey.last_record(self.cache, self.before)

    def _pool(self) -> Any:
        if self.pool is None:
            self.pool = self.warm.pool(_setting) if self.warm is not None else Worker(_setting)
        return self.pool

    def options(self, game: Game) -> RulebookOptions:
        """The options with the booklet's paper this game's book is set on (``booklet_paper``: the
        one given, else game.yaml's printer profile's, else its ``paper:``; A3 and A4 both give
        the A4 booklet), so the book's key changes only when its sheets do; printed in two passes
        when the game's sheets are printed without duplex (--layout fold, --duplex none, a printer profile's)."""
        two_pass = game_printer(self.ws, game, self.build).sheet.without_duplex if self.build is not None else self.opts.two_pass
        return replace(self.opts, paper=booklet_paper(self.ws, game, self.opts.paper), two_pass=two_pass)

    def start_early(self, slug: str) -> None:
        """A one-off build's rulebook process, started before the game is read when the game has
        its draft where drafts usually are (``draft.txt``; one named elsewhere waits for
        ``prepare``): its libraries load (platypus, some 0.15 s) while this process reads the game.
        A warm process (watch) has them already."""
        if self.beside and self.warm is None and (self.ws.data / slug / "draft.txt").is_file():
            self._pool()  # (the process loads them as it starts: ``_setting``)

    def prepare(self, game: Game) -> None:
        """Start the rulebook's process ahead of the faces — unless the last build made a rulebook
        from the same data, draft and fonts (``bookkey.model_key``), which this one will likely keep
        as it is (engine/bookkey.py): then only once it must be typeset (a face it pictures changed).
        A warm process (watch, serve) works the key out itself, while this one draws the faces (a
        save's path: the book waits for them, the save for the book)."""
        if not game.draft_file.is_file():
            return
        if self.warm is not None:  # the key worked out by the warm process, which waits for the faces anyway
            self.model_asked = self._pool().submit(_model_key, self.ws, game, self.options(game))
            self._pool().submit(_read_ahead)  # its errors are _typeset's too: they surface there
            return
        self.model = bookkey.model_key(self.ws, game, self.options(game))
        if self.beside and (self.last or {}).get("model") != self.model:
            self._pool().submit(_prepare, self.ws, game, self.model, False)  # its errors are _typeset's too: they surface there

    def start(self, result: BuildResult, drawn_with: str = "") -> None:
        """The book set from the faces (``drawn_with``: what every face is drawn with), unless the
        last build's is kept. A warm process is sent only the pictures it does not hold."""
        game = result.game
        if not game.draft_file.is_file():
            return
        if self.model_asked is not None:  # (worked out by now: the rulebook's process had the faces' time for it)
            self.model = self._answer(self.model_asked)
            self.model_asked = None
        self.key = bookkey.rulebook_key(self.model or bookkey.model_key(self.ws, game, self.options(game)), result)
        if self.out_dir is not None and (kept := bookkey.kept(self.cache, self.before, self.key, self.out_dir)):
            files, warnings, report, used, setting, entries = kept  # what the book is made from did not change
            self.done = files, warnings, report, {}, used, setting, entries
            return
        pictures = result.pictures()
        if self.warm is not None:
            self.keys = bookkey.picture_keys(result, pictures, drawn_with)
        self.job = job = (self.ws, game, pictures, self.options(game), self.cache.records("readings"),
                          bookkey.shown_faces(result), bookkey.earlier(self.last, self.before, self.out_dir),
                          self.model if self.beside else "", self.keys or None)
        if self.beside:
            held = self.warm.held if self.warm is not None else frozenset()
            sent = {deck: None if self.keys.get(deck) in held else pic for deck, pic in pictures.items()}
            self.future = self._pool().submit(_typeset, *job[:2], sent, *job[3:])
        else:
            self.done = _typeset(_setting(), *job)

    def still_setting(self) -> bool:
        """Whether the book is being set in its process and its answer has not come yet (what
        ``finish`` will wait for)."""
        return self.future is not None and not self.future.done()

    def _answer(self, future: Any) -> Any:
        """What a job sent to the rulebook's process gave back (its error raised here)."""
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool:
            if self.warm is not None:
                self.warm.lost()  # a killed warm worker: the next build starts another
            raise

    def _set(self) -> tuple:
        """The setting's answer. A warm process holds this job's pictures from now on
        (``Warm.held``); sent a key it does not hold, it is sent every picture."""
        if self.warm is not None:
            self.warm.held = frozenset()  # (until the answer comes: a failed job leaves what it holds unknown)
        try:
            done = self._answer(self.future)
        except bookkey.PicturesNotHeld:
            done = self._answer(self._pool().submit(_typeset, *self.job))
        if self.warm is not None:
            self.warm.held = frozenset(self.keys.values())
        return done

    def close(self) -> None:
        """Let the second process go (at once when the build failed before the rulebook was
        typeset); a warm one stays for the next build."""
        if self.pool is not None and self.warm is None:
            self.pool.shutdown(wait=self.future is not None, cancel_futures=True)
        self.pool = None

    def finish(self, result: BuildResult) -> None:
        game = result.game
        if not game.draft_file.is_file():
            result.warnings.append(bookkey.no_draft(game))
            return
        if self.future is not None:
            self.done = self._set()
        files, warnings, report, learned, used, setting, entries = self.done
        result.cache_files.update(self.cache.record("readings", k, v) for k, v in sorted(learned.items()))
        result.uses.update(self.cache.record_path("readings", k) for k in used)
        files = {name: relative_proof(name, data, self.ws.root) if isinstance(data, bytes) else data  # a kept
                 for name, data in files.items()}  # file (cache.reuse: as on disk) was made relative when written
        bookkey.remember(self.cache, result, self.key, files, workspace_relative(list(warnings), self.ws.root), list(report), list(used), setting,
                         self.model, entries)
        result.files.update(files)
        result.manifest["rulebook"] = {"files": sorted(files), "report": report}
        result.manifest["files"] = sorted(set(result.manifest["files"]) | set(files))
        result.warnings.extend(warnings)


# The rulebook's own process loads the rulebook stage (platypus, its fonts: 0.15 s of imports)
# by name, in these functions, so the build's process never imports it. This is the one
# place below the command layer that loads a stage when called, and it does so across a process
# boundary: engine/typeset.py imports the rulebook at its top like any module.
RULEBOOK_JOB = "pnpgen.engine.typeset"


def _setting() -> Any:
    """Where the rulebook's process starts: what it keeps from job to job (``typeset.Setting``),
    handed to each job below; its libraries loaded (platypus, some 0.15 s)."""
    return importlib.import_module(RULEBOOK_JOB).Setting()


def _prepare(setting: Any, ws: Workspace, game: Game, model: str, warm: bool) -> None:
    """In the rulebook's process, before the faces arrive: its libraries and its fonts, and the
    draft read under the book's ``model`` key."""
    importlib.import_module(RULEBOOK_JOB).prepare_rulebook(setting, ws, game, model, warm)


def _model_key(setting: Any, ws: Workspace, game: Game, opts: RulebookOptions) -> str:
    """In a warm rulebook process (watch, serve): the book's model key (``bookkey.model_key``, some
    5–10 ms of the game's model as JSON and its files hashed), worked out while the build's process
    draws the faces, not before it starts them; kept in ``setting`` for ``_read_ahead``, the job after it."""
    setting.asked = (ws, game, bookkey.model_key(ws, game, opts))
    return setting.asked[2]


def _read_ahead(setting: Any) -> None:
    """In a warm rulebook process: the draft read ahead under the key ``_model_key`` worked out."""
    if setting.asked is not None:
        ws, game, model = setting.asked
        setting.asked = None
        _prepare(setting, ws, game, model, True)


def _typeset(setting: Any, ws: Workspace, game: Game, pictures: dict, opts: RulebookOptions, readings: dict,
             faces: dict[str, dict[str, str]], earlier: dict[str, Any] | None, model: str,
             keys: dict[str, str] | None = None) -> tuple:
    """``engine/typeset.py`` ``typeset``, in the rulebook's process (or this one, without a core
    to spare)."""
    return importlib.import_module(RULEBOOK_JOB).typeset(setting, ws, game, pictures, opts, readings, faces, earlier,
                                                         model, keys)
