"""``pnpgen clean``: remove what pnpgen wrote into an output folder, and nothing else.

What pnpgen wrote is what its records say, and only its records sealed on this machine
(``usercache.seal``): each game's (and language edition's) state in ``<out>/.cache/`` lists every
file of its last good build with its hash; each export's state in ``<out>/.cache/exports/<game>/``
its folder and the files of its last export with theirs, and ``pnpgen rulebook``'s in
``<out>/.cache/rulebooks/<game>/`` the same (``rulebook_record``). A file is removed only while it still
holds the bytes pnpgen wrote: one the designer edited since, or put in its place, is kept and
named. A record this machine did not seal (from a zip or a shared drive, written before records
were sealed, or under an earlier machine key) proves nothing: what it names stays, and so does the
record, and the folder is named as left (``Cleaned.left``); a build or export of it, then a clean,
removes it. An export folder's ``export.json`` (which anyone can write) is never read to decide
anything. Then go the records themselves, the cache entries no remaining record uses, temporary
files a killed build left, and the folders this leaves empty; a folder that holds anything else
stays, with it.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.atomic import read_record
from pnpgen.engine import history as history_files
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import FileHashes, sha
from pnpgen.engine.journal import recover
from pnpgen.engine.output import LOCK_NAME, MARKER_NAME, OWNER, build_lock, inside, is_output_folder, remove_stray_temps
from pnpgen.engine.state import layout_of
from pnpgen.engine.trash import TRASH, empty_trash, strangers
from pnpgen.errors import InputError
from pnpgen.pdf.assemble import PdfFile, file_digest
from pnpgen.usercache import seal

EXPORT_RECORD = "export.json"  # exports/export.py RECORD: the files of one export folder
RULEBOOKS = "rulebooks"  # .cache/rulebooks/<game>/: what ``pnpgen rulebook`` wrote, read as an export's state
SVGS = "svgs"  # .cache/svgs/<game>/: the faces' SVGs ``pnpgen check --svg`` wrote, read as an export's state
REPRINTS = "reprints"  # .cache/reprints/<game>/: what ``pnpgen reprint`` wrote (clean keeps those files: not read here)


@dataclass
class Cleaned:
    """What ``pnpgen clean`` removed, and what it left and why (changed by hand, not recorded on this machine,
    reached through a link): it deletes only what pnpgen wrote."""

    removed: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # recorded, but changed since pnpgen wrote them
    left: list[Path] = field(default_factory=list)  # folders whose record this machine did not seal: untouched
    linked: list[Path] = field(default_factory=list)  # links where a recorded folder was: nothing removed through them
    history_kept: int = 0  # versions recorded in .history/, kept (without --history)
    reprints: list[Path] = field(default_factory=list)  # pnpgen reprint's files, which no build records: kept
    strangers: list[Path] = field(default_factory=list)  # in .pnpgen-trash/, not put there by pnpgen: kept
    cache_linked: Path | None = None  # <out>/.cache, the records, a link: nothing done (as a build refuses it)
    cache_not_folder: Path | None = None  # <out>/.cache, the records, a file: nothing shows what pnpgen wrote
    cache_refused: InputError | None = None  # a link inside <out>/.cache (.cache/exports): nothing done, as a build refuses it


def clean(out_root: Path, game: str | None = None, history: bool = False,
          workspace_games: Collection[str] = ()) -> Cleaned:
    """Remove the files pnpgen's records in ``out_root`` name (only ``game``'s, when given).
    The versions recorded in ``.history/`` (and their tags) are the designer's record of what was
    printed, not outputs: they go only with ``history``. ``workspace_games``: the workspace's games, so that
    ``game``'s cleaning takes nothing of a game named ``<game>.<something>`` (data/g.en beside
    data/g: its records read as g's English edition's, and ``clean --game g`` removed its files,
    records and versions)."""
    done = Cleaned()
    if not out_root.is_dir() or not is_output_folder(out_root):
        return done  # a folder pnpgen never wrote: nothing in it is pnpgen's, not even a lock to leave
    cache = Cache(out_root)
    if cache.root.is_symlink():  # the records live elsewhere: nothing is read or removed through the link
        done.cache_linked = cache.root
        return done
    if cache.root.exists() and not cache.root.is_dir():  # (said as "nothing pnpgen wrote", its files all there)
        done.cache_not_folder = cache.root
        return done
    try:  # a link inside it (.cache/exports to another workspace's): its records were read and removed through it
        cache.refuse_links()
    except InputError as e:
        done.cache_refused = e
        return done
    touched: set[Path] = set()
    with build_lock(out_root):  # not while a build writes here
        recover(out_root)  # a commit a killed build left half done is finished first: its records hold
        if not (out_root / TRASH).is_symlink():
            empty_trash(out_root / TRASH)  # old outputs a commit left to be freed in the background
            done.strangers = [out_root / TRASH / name for name in strangers(out_root / TRASH)]
        for state in sorted(cache.root.glob("*.json")) if cache.root.is_dir() else []:
            editions = _editions(state.stem)
            if game is not None:  # only the game's readings, and none that is another game's own state
                editions = [(slug, lang) for slug, lang in editions if slug == game and not (lang and state.stem in workspace_games)]
                if not editions:
                    continue
            files = _recorded(state)
            if files is None:  # not sealed here: it proves nothing, so nothing it names goes (nor itself)
                done.left.extend(p for p in (out_root / slug / lang for slug, lang in editions) if p.is_dir())
                continue
            for slug, lang in editions:
                below = f"{slug}/{lang}" if lang else slug
                _linked(out_root, below, done)
                for rel, (digest, layout) in files.items():
                    _remove(out_root, f"{below}/{rel}", digest, done, layout)
                touched.add(out_root / slug)
            state.unlink()
            done.removed.append(state)
        # every game folder, and every game with an export's or rulebook's record whose folder was
        # deleted by hand: what the record names elsewhere (an export's own folder) is still pnpgen's
        games = [out_root / game] if game is not None else sorted(
            {p for p in out_root.iterdir() if p.is_dir() and p != cache.root}
            | {out_root / p.name for kind in ("exports", RULEBOOKS, SVGS) if (cache.root / kind).is_dir()
               for p in (cache.root / kind).iterdir() if p.is_dir() and not p.is_symlink()})
        for folder in games:
            if folder.is_symlink():
                _linked(out_root, folder.name, done)
                continue
            proven: set[Path] = set()
            for state in [*sorted((cache.root / "exports" / folder.name).glob("*.json")),
                          *sorted((cache.root / RULEBOOKS / folder.name).glob("*.json")),
                          *sorted((cache.root / SVGS / folder.name).glob("*.json"))]:
                exported = _exported(state, out_root)
                if exported is None:
                    continue  # not sealed here (or not an export's state): it proves nothing, and stays
                where, exports = exported
                _linked(out_root, where.relative_to(out_root).as_posix(), done)
                for rel, digest in exports.items():
                    _remove(out_root, f"{where.relative_to(out_root).as_posix()}/{rel}", digest, done)
                state.unlink()  # what the game's exports read (engine/export.py): nothing left to compare
                done.removed.append(state)
                proven.add(where)
                touched.add(folder)
            done.left.extend(record.parent for record in sorted(folder.glob(f"*/{EXPORT_RECORD}"))
                             if record.parent not in proven and not record.is_symlink())
        done.removed.extend(_pruned(cache))
        table = FileHashes(cache.root).path  # files' hashes by their stamps: nothing left to know
        if game is None and table.is_file() and not table.is_symlink() and not table.parent.is_symlink():
            table.unlink()
            done.removed.append(table)
            _remove_empty(table.parent)
        if history:  # the versions recorded (engine/history.py), tags and all
            done.removed.extend(history_files.clean(out_root, game, workspace_games))
        else:
            done.history_kept = history_files.recorded(out_root, game, workspace_games)
        touched |= _spent_reprint_records(cache, out_root, game, done)
        remove_stray_temps([cache.root, *(f for f in touched if not f.is_symlink())], cache.root.parent)
        for folder in sorted(touched | {cache.root}):
            _remove_empty(folder)
        owner = out_root / OWNER  # the workspace's record goes with the last of pnpgen's records
        if game is None and not (out_root / ".history").exists() and owner.is_file() and not owner.is_symlink() \
                and [p.name for p in cache.root.iterdir()] == [owner.name]:
            owner.unlink()  # (as the lock and the marker: not counted among the outputs)
            _remove_empty(cache.root)
        done.reprints = [p for folder in sorted(touched) if folder.is_dir() and not folder.is_symlink()
                         for p in sorted(folder.glob("reprint-since-*")) if p.is_file() and not p.is_symlink()]
    own = {LOCK_NAME, MARKER_NAME}  # the lock and the marker that says the folder is pnpgen's
    if game is None and {p.name for p in out_root.iterdir()} <= own:
        for name in own:
            (out_root / name).unlink(missing_ok=True)
        out_root.rmdir()
    return done


def rulebook_record(out_root: Path, out_dir: Path, files: dict[str, bytes]) -> dict[Path, bytes]:
    """The record of the files ``pnpgen rulebook`` writes into ``out_dir`` (name → bytes), to be
    committed with them, so that ``clean`` removes them as it removes an export's: sealed as an
    export's state is, it keeps what an earlier run wrote there and this one did not."""
    return _written(_record_path(out_root, out_dir, RULEBOOKS, "rulebook"), out_root, out_dir, files)


def reprint_record(out_root: Path, out_dir: Path, files: Mapping[str, bytes | PdfFile]) -> dict[Path, bytes]:
    """The record of the files ``pnpgen reprint`` writes into ``out_dir``, committed with them: a
    file of that name holding other bytes next time is the designer's (``changed_by_hand``)."""
    return _written(_record_path(out_root, out_dir, REPRINTS, "reprints"), out_root, out_dir, files)


@dataclass
class SvgWrite:
    """What ``pnpgen check --svg`` commits: the files (with their sealed record), the ones an earlier
    run wrote that this one no longer makes, and the names it leaves alone (a file or link there it
    did not write)."""

    files: dict[Path, bytes]
    stale: list[Path]
    strangers: list[str]


def svg_files(out_root: Path, out_dir: Path, slug: str, lang: str, files: Mapping[str, bytes],
              scope: str = "") -> SvgWrite:
    """The faces' SVGs ``files`` (name → bytes) to write into ``out_dir``, recorded in
    ``.cache/svgs/<game>/`` so that ``clean`` removes them and a later run replaces only its own: a
    name holding a link, or a file this record does not name with its bytes, is left as it is (a
    stranger). The earlier run's files under ``scope`` (``<deck>/``; ``<deck>/007``, that piece's
    ``007-….svg`` and ``007.….svg``, not piece 1007's; "" every one) that this one does not write
    go, while they hold what it wrote; the others stay recorded."""
    record = Cache(out_root).root / SVGS / slug / (f"svg.{lang}.json" if lang else "svg.json")
    earlier = _exported(record, out_root)
    written = earlier[1] if earlier is not None and earlier[0] == out_dir else {}
    keep, stale, strangers, new = {}, [], [], {}
    for name, digest in sorted(written.items()):
        path = inside(out_root, f"{out_dir.relative_to(out_root).as_posix()}/{name}")
        if path is None or name in files:
            continue
        held = file_digest(path, None) if path.is_file() and not path.is_symlink() else None
        if not (name.startswith(scope) and (scope[-1:] in ("", "/") or name[len(scope):][:1] in ("-", "."))):
            if held == digest:
                keep[name] = digest
        elif held == digest:
            stale.append(path)
    for name, data in files.items():
        target = out_dir / name
        if target.is_symlink() or target.exists() and (
                not target.is_file() or sha(target.read_bytes()) not in {sha(data), written.get(name)}):
            strangers.append(name)
            continue
        new[name] = data
    return SvgWrite({out_dir / name: data for name, data in new.items()}
                    | _sealed(record, out_root, out_dir, keep | {name: sha(data) for name, data in new.items()}),
                    stale, strangers)


def changed_by_hand(out_root: Path, out_dir: Path, files: Mapping[str, bytes | PdfFile]) -> list[str]:
    """The names of ``files`` already in ``out_dir`` holding bytes neither these nor those
    ``pnpgen reprint`` recorded writing there (``reprint_record``): notes added to a reprint, a
    file saved again from a viewer, one an older pnpgen wrote unrecorded, or a link put there
    (pnpgen writes none). pnpgen replaces only what it wrote, so these are not written over."""
    earlier = _exported(_record_path(out_root, out_dir, REPRINTS, "reprints"), out_root)
    written = earlier[1] if earlier is not None and earlier[0] == out_dir else {}
    out = []
    for name, data in files.items():
        target = out_dir / name
        if target.is_symlink():  # (the commit replaced it, the designer's link, without a word)
            out.append(name)
            continue
        if not target.is_file():
            continue  # (a folder there: the commit refuses it, in its own words)
        held = sha(target.read_bytes())
        if held != sha(data) and held != written.get(name):
            out.append(name)
    return out


def _spent_reprint_records(cache: Cache, out_root: Path, game: str | None, done: Cleaned) -> set[Path]:
    """The records of ``pnpgen reprint``'s files none of which is left where it wrote them (removed
    by hand): removed, as they have nothing left to tell, and the game folders they were for, to go
    if empty. A record naming a file still there stays with it: the file is kept, and a later
    reprint knows it by that record as its own (``changed_by_hand``)."""
    root = cache.root / REPRINTS
    folders: set[Path] = set()
    for state in sorted(root.glob(f"{game}/*.json" if game else "*/*.json")) if root.is_dir() else []:
        if state.is_symlink() or state.parent.is_symlink() or (exported := _exported(state, out_root)) is None:
            continue  # not sealed here: it proves nothing, and stays
        where, files = exported
        if any((where / rel).is_file() or (where / rel).is_symlink() for rel in files):
            continue
        state.unlink()
        done.removed.append(state)
        folders.add(out_root / state.parent.name)
    return folders


def _record_path(out_root: Path, out_dir: Path, kind: str, stem: str) -> Path:
    slug, _, lang = out_dir.relative_to(out_root).as_posix().partition("/")
    return Cache(out_root).root / kind / slug / (f"{stem}.{lang}.json" if lang else f"{stem}.json")


def _written(path: Path, out_root: Path, out_dir: Path, files: Mapping[str, bytes | PdfFile]) -> dict[Path, bytes]:
    """A sealed record of ``files`` (name → bytes) written into ``out_dir``, with those an earlier
    run recorded there and this one did not write."""
    earlier = _exported(path, out_root)
    kept = earlier[1] if earlier is not None and earlier[0] == out_dir else {}
    return _sealed(path, out_root, out_dir, kept | {name: sha(data) for name, data in files.items()})


def _sealed(path: Path, out_root: Path, out_dir: Path, digests: Mapping[str, str]) -> dict[Path, bytes]:
    """The record at ``path`` of the files ``digests`` (name → SHA-256) in ``out_dir``, sealed with
    this machine's key as an export's state is."""
    body = json.dumps({"folder": out_dir.relative_to(out_root).as_posix(), "files": dict(digests)},
                      sort_keys=True).encode()
    return {path: json.dumps({"check": seal(body)}).encode() + b"\n" + body}


def _editions(stem: str) -> list[tuple[str, str]]:
    """The (game, language) a state file may stand for: ``populous`` or ``populous.en`` (a game's
    slug may hold a dot too: both readings are tried, and a file goes only if its hash agrees)."""
    slug, dot, lang = stem.rpartition(".")
    return [(stem, "")] + ([(slug, lang)] if dot and slug else [])


def _recorded(state: Path) -> dict[str, tuple[str, tuple[int, ...] | None]] | None:
    """The files a state lists (path relative to the game's folder → what it records of the file,
    and the layout of a document's digest), whichever pnpgen version wrote it, when this machine
    sealed it; None when it did not (or the record is damaged): nothing it names can be proven pnpgen's."""
    try:
        outer = json.loads(read_record(state))
        body = outer["body"]
        text = json.dumps(body, ensure_ascii=False, sort_keys=True).encode()
        if outer["check"] != seal(text):  # (one sealed by a plain hash, as before seals, proves nothing)
            return None
        documents = body.get("documents")
        documents = documents if isinstance(documents, dict) else {}
        return {str(k): (str(v), layout_of(documents.get(k))) for k, v in dict(body["files"]).items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _exported(state: Path, out_root: Path) -> tuple[Path, dict[str, str]] | None:
    """An export's folder and the files it wrote there (→ sha256), as its state sealed on this
    machine says (engine/export.py); None for any other."""
    try:
        head, _, text = read_record(state).partition(b"\n")
        if json.loads(head).get("check") != seal(text):
            return None
        body = json.loads(text)
        where = inside(out_root, body["folder"])
        files = body["files"]
        if where is None or not isinstance(files, dict):
            return None
        return where, {str(k): str(v) for k, v in files.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _remove(out_root: Path, rel: str, digest: str | None, done: Cleaned,
            layout: tuple[int, ...] | None = None) -> None:
    """``out_root/rel`` if it is a file inside ``out_root`` (and still holds ``digest``'s bytes, a
    document's read by its ``layout``). Never through a link below ``out_root``, the game's
    folder included: pnpgen writes through none (a build stops at one), so what it leads to is
    not pnpgen's, whatever its bytes."""
    path = inside(out_root, rel)  # a plain relative path, no link on the way
    try:
        if path is None or path.is_symlink() or not path.is_file():
            return
        if digest is not None and file_digest(path, layout) != digest:
            done.kept.append(path)
            return
        path.unlink()
    except (OSError, ValueError):
        return
    done.removed.append(path)


def _linked(out_root: Path, rel: str, done: Cleaned) -> None:
    """Say the first link on the way to the recorded folder ``out_root/rel`` (once)."""
    folder = out_root
    for part in rel.split("/"):
        folder = folder / part
        if folder.is_symlink():
            if folder not in done.linked:
                done.linked.append(folder)
            return


def _pruned(cache: Cache) -> list[Path]:
    """The cache entries no remaining state lists (all of them once every state is gone)."""
    if not cache.root.is_dir():
        return []
    before = {p for p in cache.root.glob("*/**/*") if p.is_file()}
    cache.prune()
    return sorted(p for p in before if not p.exists())


def _remove_empty(folder: Path) -> None:
    """``folder`` and the folders below it that hold nothing (deepest first)."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir() and not p.is_symlink()), reverse=True):
        if not any(sub.iterdir()):
            sub.rmdir()
    if not any(folder.iterdir()):
        folder.rmdir()
