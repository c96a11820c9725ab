"""Which games of a build command are up to date: a game whose inputs did not change since its
last good build is not even loaded. Light to import (no stage is loaded), so ``pnpgen build``
with nothing changed answers at once; the command layer loads ``engine/run.py``, which builds,
only when a game must be built."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pnpgen.data.workspace import Workspace, printer_profiles
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import BIG_FILE, FileHashes, big_file_stamp, fingerprint, font_files, staying_in
from pnpgen.engine.journal import recover
from pnpgen.engine.options import BuildOptions, RulebookOptions
from pnpgen.engine.output import build_lock, claim
from pnpgen.engine.state import States
from pnpgen.errors import InputError, contained
from pnpgen.litter import is_litter
from pnpgen.memo import Stamps
from pnpgen.safetext import not_utf8


@dataclass(frozen=True, order=True)
class StaleExport:
    """An export folder made before a build's change (engine/export.py ``exports_made``), and what
    makes it again, read from its record, not from the folder's shape (a game named ``en`` beside
    an ``en`` edition's folder, an output folder nested deeper)."""

    folder: Path
    root: Path  # the output folder it is below: the workspace's build/, or an --out
    lang: str  # the edition it is of (``--lang``); "" for the game's own
    again: str  # ExportOptions.again: the options past --game, --preset and --lang


@dataclass
class GameOutcome:
    """One game of a build: built or already up to date, what changed since the last build and what was written, for
    the summary a designer reads."""

    slug: str
    out_dir: Path
    up_to_date: bool
    result: Any = None  # engine/game.py BuildResult of a game built
    changes: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # a game up to date: those its last build said
    stale_exports: list[StaleExport] = field(default_factory=list)  # export folders made before this build's changes
    # the decks whose pieces this build changed, when nothing but decks did (None: something else too, or unknown)
    decks_changed: frozenset[str] | None = None
    # a game built: every file of its set, name → its hash and, a big document's, its segments' lengths
    wrote: dict[str, tuple[str, list[int] | None]] = field(default_factory=dict)
    # up to date as another run (watch beside serve) built the same inputs while this one waited for
    # the folder's lock: ``changes`` is that build's report, said for the save both saw
    overtaken: bool = False


def _profiles(ws: Workspace) -> tuple[bytes, ...]:
    """The printer profile files (game.yaml's ``printer:`` names one of them): an edit rebuilds.
    The workspace's, linked out of it, is not read (a build that uses it stops at it)."""
    out = []
    for path in printer_profiles(ws.root):
        try:
            if path.parent == ws.root:
                contained(path.name, ws.root, "printers.yaml", path)
        except InputError:
            continue
        if path.is_file():  # (one too big to be a profile by its stamp: loading it says so)
            st = path.stat()
            out.append(big_file_stamp(st) if st.st_size > BIG_FILE else path.read_bytes())
    return tuple(out)


def inputs_of(ws: Workspace, slug: str) -> list[Path]:
    """Every folder a game's build reads. One that is a link leading out of its place (data/<slug>/,
    templates/<slug>/ or common/, layouts/, sheets/; not fonts/, which may be) is left out: the build
    refuses it at its first name, and its files were all read first for the game's fingerprint."""
    folders = [ws.data / slug, ws.templates / slug, ws.templates / "common", ws.fonts, ws.root / "layouts",
               ws.root / "sheets"]
    return staying_in(folders, ws.fonts)


def present_inputs(ws: Workspace, slug: str) -> list[Path]:
    """The folders a game's build reads that are there now: ``watch`` and ``serve`` look on every
    tick, and watch one made since they started (``templates/<game>/`` written by ``pnpgen layout
    export`` for a game ``pnpgen new`` made: its saves were never seen)."""
    return [f for f in inputs_of(ws, slug) if f.is_dir()]


def watched(ws: Workspace, slug: str) -> list[Path]:
    """The folders ``watch`` and ``serve`` watch: ``inputs_of`` that exist. The watcher (watchfiles)
    follows every link below them, so a link to a folder outside the workspace — which no build reads
    through — would have it watch that folder and all below it (``/``: every folder of the machine)
    and rebuild on whatever changes there: such a link is an InputError naming it, before anything
    is watched. A link to a folder of the workspace, or of a watched folder's own place (the fonts
    folder may be a link), is followed. A fonts folder that leads out of the workspace (a shared
    collection, a link to the home folder) is watched by its own ``*.ttf`` files, all a build reads
    of it: walked and watched as a folder, all of the home folder was."""
    folders = present_inputs(ws, slug)
    root = ws.root.resolve()
    if ws.fonts in folders and root not in ws.fonts.resolve().parents:
        folders.remove(ws.fonts)
        fonts = [path for path, _, _ in font_files(ws.fonts)]  # (what a build hashes of it)
    else:
        fonts = []
    places = [root, *(f.resolve() for f in folders)]
    for folder in folders:
        for below, dirs, files in os.walk(folder):  # links are listed, never followed
            for name in sorted(dirs + files):
                path = Path(below, name)
                if not_utf8(name):  # the watcher (watchfiles) stops with a traceback at such a name
                    raise InputError("a file or folder whose name is not UTF-8 (Shift_JIS from a zip made on "
                                     "Windows?), which the watcher cannot read", path=path,
                                     expected="the name typed again (rename it), or the file moved out of the watched folders")
                if path.is_symlink() and path.is_dir():
                    target = path.resolve()
                    if not any(target == p or p in target.parents for p in places):
                        raise InputError("a link to a folder outside the workspace, which the watcher would "
                                         "follow", path=path, expected="no such link below the watched folders "
                                         "(no build reads through one): remove it")
    return folders + fonts


def profile_stamps(ws: Workspace) -> tuple:
    """The printer profile files as they stand (size and time of each, or none): ``watch`` and
    ``serve`` look at them on every tick, since they are files beside the watched folders (the
    workspace's own ``printers.yaml``, the user's), which the watcher would have to watch the
    whole workspace, build/ included, to see saved."""
    out: list[tuple[str, int | None, int | None]] = []
    for path in printer_profiles(ws.root):
        try:
            st = path.stat()
            out.append((str(path), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((str(path), None, None))
    return tuple(out)


def worth_a_build(changes: Iterable[tuple[Any, str]], out: Path) -> bool:
    """Whether a batch of the watcher's changes (``watchfiles``: (change, path)) asks for a build:
    a change to a file other than an editor's or the system's own (``pnpgen/litter.py``: a Vim or
    Excel save makes several, around one change to the file) and outside our own output ``out``
    (resolved; an --out inside a watched folder). A folder is never litter: one named 2024 or 1
    dragged into art/ is one change, of the folder (its name is Vim's probe's pattern)."""
    return any((not is_litter(Path(p).name) or Path(p).is_dir()) and out not in Path(p).resolve().parents
               for _, p in changes)


def for_game(slug: str, options: BuildOptions, own_language: frozenset[str]) -> BuildOptions:
    """The options of one game's build: ``--lang`` naming its default language (a game of
    ``own_language``, ``commands.asked_language``) is no --lang, whichever games the build names."""
    return replace(options, lang=None) if slug in own_language and options.lang else options


def out_dir(out_root: Path, slug: str, options: BuildOptions) -> Path:
    """build/<game>/, or build/<game>/<lang>/ for a --lang build."""
    return out_root / slug / (options.lang or "")


def edition(slug: str, options: BuildOptions) -> str:
    """The cache's name for a build: each language keeps its own state."""
    return f"{slug}.{options.lang}" if options.lang else slug


def finish_killed_commit(out_root: Path, cache: Cache | None = None) -> None:
    """A commit a killed run left half done in ``out_root``, finished (or undone) under the
    folder's lock before anything of it is read — by a build, and by the history's commands, which
    would read a version whose files are half in place — and, once finished, the cache pruned as
    the interrupted build would have pruned it."""
    if not out_root.is_dir():
        return
    with build_lock(out_root):
        if recover(out_root) == "forward":
            cache = cache or Cache(out_root)
            cache.refuse_links()
            cache.prune()


def sort_games(ws: Workspace, slugs: list[str], given: BuildOptions, out_root: Path,
               rulebook: RulebookOptions | None,
               own_language: frozenset[str] = frozenset(),
               states: States | None = None, hashes: FileHashes | None = None,
               stamps: Stamps | None = None) -> tuple[list[GameOutcome], list[tuple[str, str]]]:
    """The outcomes of the games that are up to date, and (slug, fingerprint of its inputs) of
    each game to build. The output folder is claimed (``output.claim``) and a commit a killed
    run left is finished first. ``states``: where the states read are kept for the build
    (``Cache.states``); ``hashes``: the table of files' hashes the build goes on with (``Cache.hashes``);
    ``stamps``: the run's stats of its input files, taken as the inputs are listed and given to the
    build, which asks the disk for none of them again (a 3,000-card deck's art was looked at by the
    check's listing and again, file by file, as its cards loaded)."""
    claim(out_root, ws.input_folders, ws.root)
    cache = Cache(out_root, states, hashes)
    finish_killed_commit(out_root, cache)
    cache.refuse_links()
    fresh: list[GameOutcome] = []
    todo: list[tuple[str, str]] = []
    for slug in slugs:
        options = for_game(slug, given, own_language)
        inputs = fingerprint(inputs_of(ws, slug), (options, rulebook, _profiles(ws)), cache.hashes, ws.fonts,
                             stamps=stamps)
        state = cache.up_to_date(edition(slug, options), inputs, out_dir(out_root, slug, options), cache.hashes)
        if state is not None:
            fresh.append(GameOutcome(slug, out_dir(out_root, slug, options), True, warnings=state.warnings))
        else:
            todo.append((slug, inputs))
    if out_root.is_dir() and not todo:  # a build that is to come keeps them once it has succeeded
        cache.hashes.save()
    return fresh, todo
