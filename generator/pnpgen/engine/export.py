"""``pnpgen export``'s files written: the export made in memory (exports/export.py), then written
with the record of what it wrote as one transaction over the output folder
(engine/transaction.py), removing what the last export of the preset wrote and this one did not.

An export whose inputs did not change since it was last written (the game's data, templates,
fonts and layouts, the presets, the workspace's deck names that Tabletop Simulator's deck ids
count, pnpgen itself and the options) and whose files are all there as written is ``up to
date``: nothing is rendered, rasterised or written. Its state is kept in
``<out>/.cache/exports/``, beside the build's.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.atomic import read_record
from pnpgen.data.draftfile import draft_for, draft_path
from pnpgen.data.load import load_game
from pnpgen.data.model import Game, shown_in_exports
from pnpgen.data.spreadsheets import SUFFIXES as SPREADSHEETS
from pnpgen.data.workspace import Workspace
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import code, fingerprint, sha
from pnpgen.engine.fresh import StaleExport, inputs_of
from pnpgen.engine.journal import recover
from pnpgen.engine.output import build_lock, inside, mark, refuse_strangers
from pnpgen.engine.state import as_written, plain_file, safe_rel
from pnpgen.engine.transaction import commit
from pnpgen.errors import InputError
from pnpgen.exports.options import RECORD, ExportOptions
from pnpgen.litter import is_litter
from pnpgen.pdf.assemble import PdfFile, Stored, stat_stamp
from pnpgen.usercache import seal

if TYPE_CHECKING:
    from pnpgen.exports.export import ExportResult

STATE_FORMAT = 2  # 2: each file's deck (owners), so an export of some decks keeps the others'


def export_inputs(ws: Workspace, slug: str, options: ExportOptions, book: bool = True) -> str:
    """The fingerprint of everything an export of ``slug`` reads: not another edition's rulebook
    draft (``_a_draft``; the game's game.yaml read, without its art, to know which is whose), nor,
    for a preset of pieces (``book`` False: no ``files: rulebook``), its own. An edit of draft.en.txt made the Japanese
    doujin export again, the same bytes (fixesG); an edit of the rules, the card exports (fixes46)."""
    decks = sorted(p.relative_to(ws.data).as_posix() for p in ws.data.glob("*/decks/*")
                   if p.is_file() and not is_litter(p.name))
    game = load_game(ws, slug, lang=options.lang, art=False)
    # every game's name too: Tabletop Simulator's GUIDs start with the game's slot among them
    return fingerprint([*inputs_of(ws, slug), ws.root / "presets"], (options, decks, ws.slugs(), STATE_FORMAT),
                       fonts=ws.fonts, skip=lambda p: _a_draft(p, game, own=book))



def state_path(out_root: Path, slug: str, options: ExportOptions) -> Path:
    """One state per game, preset and --lang: ``.cache/exports/<game>/<hash>.json`` (``pnpgen clean`` removes a game's)."""
    edition = options.preset + (f"/{options.lang}" if options.lang else "")  # a --lang export's state of its own
    return Cache(out_root).root / "exports" / slug / f"{sha(edition.encode())[:32]}.json"


def up_to_date(ws: Workspace, slug: str, options: ExportOptions, out_root: Path,
               inputs: str) -> tuple[Path, list[str]] | None:
    """The export's folder, and the warnings that export gave (said again: its files still are what
    they warn of), when it was made from ``inputs`` and every file it wrote is there as written;
    else None."""
    with build_lock(out_root):
        recover(out_root)  # a commit a killed run left, finished first
    try:
        head, _, text = read_record(state_path(out_root, slug, options)).partition(b"\n")
        state = json.loads(text)
        if json.loads(head).get("check") != seal(text) or state.get("format") != STATE_FORMAT \
                or state.get("inputs") != inputs:  # (sealed on this machine: one from elsewhere is not trusted)
            return None
        out = inside(out_root, state["folder"]) if safe_rel(state["folder"]) else None
        files = state["files"]
        if out is None or not files or not all(safe_rel(rel) for rel in files):
            return None
        for rel, digest in files.items():
            found = plain_file(out, rel)  # (never through a link: it could lead to a FIFO)
            if found is None or sha(found[0].read_bytes()) != digest:
                return None
        warnings = state.get("warnings", [])
        return out, [w for w in warnings if isinstance(w, str)] if isinstance(warnings, list) else []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


# what a game's texts are read from: its game.yaml, deck files and spreadsheets (``shown``)
TEXT_FILES = (".yaml", ".yml", *SPREADSHEETS)


def shown(ws: Workspace, slug: str, game: Game, book: bool = True) -> dict[str, Any]:
    """What an export of ``game`` (loaded in its edition's language) shows, in two parts: every
    file it reads but the game's texts (templates, art, fonts, layouts, the rulebook draft,
    pnpgen), and the game's data as that edition reads it — an edit of one language's text
    changes the second part of that language's exports only (``exports_made``). ``book``: the
    export holds the rulebook (``files: rulebook``); any other shows no draft (trial70: a rule
    rewritten named the Tabletop Simulator and DriveThruCards exports as made before the change)."""
    data = ws.data / slug
    rest = fingerprint(inputs_of(ws, slug), None, fonts=ws.fonts,
                       skip=lambda p: (p.suffix.lower() in TEXT_FILES and p.is_relative_to(data))
                       or _a_draft(p, game, own=book))
    text = json.dumps(_plain(game), sort_keys=True, ensure_ascii=False, default=repr)
    return {"lang": game.lang, "rest": rest, "texts": sha(text.encode()), **({} if book else {"book": False})}


def _a_draft(p: Path, game: Game, own: bool = True) -> bool:
    """``p`` is another edition's rulebook draft (``draft.en.txt`` to the Japanese edition, whose
    book sets ``draft.txt``), which nothing this edition prints shows (trial46's edit of the English
    draft named the Japanese card exports as made before the change); with ``own`` False, or any
    edition's, its own too (an export of pieces, which shows no book)."""
    default, own_draft = draft_path(game), draft_for(game)[0]
    return (p != own_draft or not own) and p.parent == default.parent and p.suffix == default.suffix \
        and (p == default or p.name.startswith(f"{default.stem}."))


def _plain(value: Any) -> Any:
    """A loaded game's parts as JSON, without what no export shows: the fields the model marks so
    (data/model.py ``shown_in_exports``: places read from, what loading said, the parts bought)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value) if shown_in_exports(f)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(_plain(v)) for v in value)
    if isinstance(value, Path) or value is None or isinstance(value, (str, int, float, bool)):
        return None if isinstance(value, Path) else value
    return repr(value)


def exports_made(out_root: Path, slug: str, ws: Workspace | None = None,
                 built: Game | None = None, decks_changed: frozenset[str] | None = None) -> list[StaleExport]:
    """The folders the exports of ``slug`` were written to, as their states in the output
    folder's cache record them (sealed on this machine), that are still there, each with the
    edition and options that made it (``ExportOptions.again``): what a build that changed the game leaves
    showing the cards as they were, and the command that makes it again. With ``ws`` and ``built`` (the game
    as the build read it), an export of another edition is left out when nothing it shows
    changed (``shown``): an edit of the English texts leaves the Japanese exports current, and a
    build for another printer profile or paper every export. With ``decks_changed`` (a build that
    changed those decks' pieces and nothing else but the draft), an export whose files are of other
    decks alone is left out: a DriveThruCards export of the cards stays current when the board is edited."""
    now: dict[str, dict[str, Any] | None] = {}
    folders: dict[Path, StaleExport] = {}
    try:
        states = sorted((Cache(out_root).root / "exports" / slug).glob("*.json"))
    except OSError:
        return []
    for path in states:
        try:
            head, _, text = read_record(path).partition(b"\n")
            state = json.loads(text)
            if json.loads(head).get("check") != seal(text) or not safe_rel(state["folder"]):
                continue
            folder = inside(out_root, state["folder"])
            if folder is not None and folder.is_dir() and not folder.is_symlink() \
                    and not _of_other_decks(state.get("owners"), decks_changed) \
                    and not _current(state.get("shows"), ws, slug, built, now):
                again = state.get("again", "")
                parts = state["folder"].split("/")  # <game>/<preset>, or <game>/<lang>/<preset> (exports/export.py)
                folders[folder] = StaleExport(folder, out_root, parts[1] if len(parts) == 3 else "",
                                              again if isinstance(again, str) and "\n" not in again else "")
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return sorted(folders.values())


def _of_other_decks(owners: Any, decks_changed: frozenset[str] | None) -> bool:
    """Whether an export's files (``owners``: file → the deck it is of, "" for the export's own
    files, its contact sheet and order.csv, which show its decks alone) are of decks none of which
    ``decks_changed`` names (trial70: a board edit named the DriveThruCards export of the cards as
    made before the change)."""
    if decks_changed is None or not isinstance(owners, dict):
        return False
    decks = {deck for deck in owners.values() if isinstance(deck, str) and deck}
    return bool(decks) and not decks & decks_changed


def _current(then: Any, ws: Workspace | None, slug: str, built: Game | None,
             now: dict[str, dict[str, Any] | None]) -> bool:
    """Whether an export still shows what it was made from (``then``: its state's ``shows``; ``now``:
    each edition's, found once): an edit of another edition's texts, or a build for another printer
    or paper (home sheets only), leaves it current."""
    if ws is None or built is None or not isinstance(then, dict) or then.get("lang") is None:
        return False
    lang, book = str(then["lang"]), then.get("book", True) is not False  # (an export of pieces shows no draft)
    key = f"{lang}/{'book' if book else 'pieces'}"
    if lang == built.lang and key not in now:
        now[key] = shown(ws, slug, built, book)
    if key not in now:
        try:
            now[key] = shown(ws, slug, load_game(ws, slug, lang=lang), book)
        except InputError:  # (that edition does not load: its export is told)
            now[key] = None
    return now[key] == then


def earlier_images(slug: str, options: ExportOptions, out_root: Path) -> Callable[[str], PdfFile | None]:
    """The images the last export of this game and preset made, by what each was made from
    (exports/faces.py ``EarlierImages``), as its state records them (sealed on this machine, by
    this pnpgen): each checked only when asked for, and given only while the file still holds
    the bytes that export wrote — as the file itself, never read into memory (a one-card edit of
    a 3,000-card deck held its 43 unchanged sheets, some 300 MB, to the commit), which the commit
    keeps where it is (``PdfFile.same_as``)."""
    by_made: dict[str, tuple[Path, str]] = {}
    try:
        head, _, text = read_record(state_path(out_root, slug, options)).partition(b"\n")
        state = json.loads(text)
        if json.loads(head).get("check") == seal(text) and state.get("format") == STATE_FORMAT \
                and state.get("pnpgen") == code() and safe_rel(state["folder"]):
            out = inside(out_root, state["folder"])
            files, made = state["files"], state.get("made", {})
            for name, what in made.items():
                if out is not None and isinstance(what, str) and safe_rel(name) and isinstance(files.get(name), str) \
                        and (found := plain_file(out, name)) is not None:
                    by_made.setdefault(what, (found[0], files[name]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        by_made = {}

    def image(made_from: str) -> PdfFile | None:
        found = by_made.get(made_from)
        if found is None:
            return None
        try:
            with open(found[0], "rb") as f:  # (hashed block by block; its stamp taken on the file hashed)
                stamp = stat_stamp(os.fstat(f.fileno()))
                digest = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError:
            return None
        if digest != found[1]:
            return None
        return PdfFile((Stored(str(found[0]), stamp[0], 0, stamp, digest),), _sha=digest)

    return image


def write_export(result: ExportResult, inputs: str | None = None, slug: str = "",
                 options: ExportOptions | None = None, shows: dict[str, str] | None = None,
                 workspace: Path | None = None) -> list[Path]:
    """Write every file and the record of them, and remove what the last export wrote and this
    one did not, as one transaction over the output folder (engine/transaction.py); an export of
    some decks (``--deck``) leaves the files the last export wrote of the others as they are, and
    its record names them too (``kept``). With ``inputs``: the state that lets the next export
    with the same inputs say ``up to date``. ``workspace``: the one whose export it is, recorded
    as the folder's (``output.mark``)."""
    out, root = result.out_dir, result.out_root
    with build_lock(root):
        recover(root)
        then = _last(root, slug, options, out) if options is not None else {}
        kept, others = _kept(then, result, out, set(options.decks) if options is not None else set())
        files = _files(result, out, kept)
        # names an export wrote here and may write again: another deck's file edited since a --deck export
        # (not kept, so not in its files) is still one, made again by the next export of every deck
        left = sorted({name for name in others if name not in kept}
                      | {name for name in then.get("left", ()) if name not in result.files})
        if "files" in then:  # (a last export recorded: a name it did not write is not its own to replace, as a build's)
            refuse_strangers({*then["files"], *then.get("left", ()), RECORD},
                             {p.relative_to(out).as_posix(): data for p, data in files.items()}, out, "export")
        if inputs is not None and options is not None:
            digests = {p.relative_to(out).as_posix(): sha(data) for p, data in files.items()}
            owners = result.owners | {name: owner for name, (_, owner) in kept.items()}
            state = {"format": STATE_FORMAT, "inputs": inputs, "folder": out.relative_to(root).as_posix(),
                     "files": digests | {name: digest for name, (digest, _) in kept.items()},
                     "owners": owners,
                     "pnpgen": code(), "made": {name: made for name, made in sorted(result.made.items())
                                                if name in result.files},
                     "warnings": result.warnings, "shows": shows,
                     "again": options.again(tuple(sorted({owner for owner in owners.values() if owner})))}
            if left:
                state["left"] = left
            body = json.dumps(state, sort_keys=True).encode()
            files[state_path(root, slug, options)] = json.dumps({"check": seal(body)}).encode() + b"\n" + body
        # a file the last export wrote goes while it holds the bytes written: one put in its place stays
        stale = [path for name, digest in then.get("files", {}).items() if name not in result.files
                 and name not in others and "/" not in name and name != RECORD and (path := inside(out, name)) is not None
                 and isinstance(digest, str) and as_written(out, name, digest)]
        commit(root, files | mark(root, workspace), stale)
    return sorted(files)


def _files(result: ExportResult, out: Path, kept: dict[str, tuple[str, str]]) -> dict[Path, bytes]:
    """The export's files and its ``export.json``, which names the files kept beside them too."""
    left_out = [{"deck": o.deck.id, "name": o.deck.name, "why": o.why, "taken_by": list(o.takers)}
                for o in result.left_out]
    record: dict[str, Any] = {"game": result.game.slug, "files": sorted({*result.files, *kept})}
    if kept:  # (an export of every deck keeps nothing: its record as it always was)
        record["kept"] = sorted(kept)
    record |= {"warnings": result.warnings, "left_out": left_out, "black": result.black}
    files = {out / rel: data for rel, data in sorted(result.files.items())}
    files[out / RECORD] = (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    return files


def _kept(then: dict[str, Any], result: ExportResult, out: Path,
          named: set[str]) -> tuple[dict[str, tuple[str, str]], set[str]]:
    """What an export of the decks ``named`` (``--deck``) leaves of the last export's files: every
    file of another deck (never removed), and of them those still as written, by name, with their
    hash and deck (recorded again). Nothing when every deck is exported. A file of a deck the game
    no longer has, or that prints nothing now (every piece parked), is no other deck's: a deck
    renamed between exports left its old files beside its new ones, the shop's order twice."""
    owners, digests = then.get("owners"), then.get("files")
    if not named or not isinstance(owners, dict) or not isinstance(digests, dict):
        return {}, set()
    printing = {deck.id for deck in result.game.decks if deck.count}
    others = {name for name, owner in owners.items() if isinstance(name, str) and isinstance(owner, str)
              and owner in printing and owner not in named and name not in result.files and safe_rel(name)}
    kept = {}
    for name in sorted(others):
        found = plain_file(out, name)
        digest = digests.get(name)
        if found is not None and isinstance(digest, str) and sha(found[0].read_bytes()) == digest:
            kept[name] = (digest, owners[name])
    return kept, others


def owners_unknown(out_root: Path, slug: str, options: ExportOptions) -> bool:
    """Does the last export of this game and preset (its state sealed on this machine) name files
    without saying which deck each is (an older pnpgen's state, format 1)? An export of some decks
    then cannot tell the others' files from the ones of its own it no longer makes: it removed
    them all, or, keeping them all, would leave a deck's stale files beside its new ones."""
    state = _sealed_state(out_root, slug, options)
    return isinstance(state, dict) and bool(state.get("files")) and not isinstance(state.get("owners"), dict)


def _sealed_state(out_root: Path, slug: str, options: ExportOptions) -> Any:
    """The last export's state of this game and preset as read, when this machine sealed it; else None."""
    try:
        head, _, text = read_record(state_path(out_root, slug, options)).partition(b"\n")
        return json.loads(text) if json.loads(head).get("check") == seal(text) else None
    except (OSError, ValueError, AttributeError):
        return None


def _last(out_root: Path, slug: str, options: ExportOptions, out: Path) -> dict[str, Any]:
    """The state of the last export of this game and preset into ``out``, sealed on this machine:
    ``export.json``, which anyone can write, never decides what is removed or kept."""
    state = _sealed_state(out_root, slug, options)
    try:
        if state is None or not safe_rel(state["folder"]) \
                or inside(out_root, state["folder"]) != out or not isinstance(state["files"], dict):
            return {}
        left = state.get("left", [])
        return {"files": {name: digest for name, digest in state["files"].items() if isinstance(name, str)},
                "owners": state.get("owners"),
                "left": [name for name in left if isinstance(name, str)] if isinstance(left, list) else []}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
