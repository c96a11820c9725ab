"""``pnpgen clean``: remove what pnpgen wrote into an output folder, and nothing else.

What pnpgen wrote is what its records say: each game's (and language edition's) state in
``<out>/.cache/`` lists every file of its last good build with its hash; each export folder's
``export.json`` lists the files of its last export. A build's file is removed only while it still
holds the bytes the build wrote: one the designer edited since, or put in its place, is kept and
named. Then go the records themselves, the cache entries no remaining record uses, temporary files
a killed build left, and the folders this leaves empty; a folder that holds anything else stays,
with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.engine import history
from pnpgen.engine.cache import Cache, FileHashes, sha
from pnpgen.engine.output import LOCK_NAME, MARKER_NAME, build_lock, inside, remove_stray_temps
from pnpgen.engine.transaction import TRASH, empty_trash, recover
from pnpgen.usercache import seal

EXPORT_RECORD = "export.json"  # exports/export.py RECORD: the files of one export folder


@dataclass
class Cleaned:
    removed: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # recorded, but changed since pnpgen wrote them


def clean(out_root: Path, game: str | None = None) -> Cleaned:
    """Remove the files pnpgen's records in ``out_root`` name (only ``game``'s, when given)."""
    done = Cleaned()
    if not out_root.is_dir():
        return done
    cache = Cache(out_root)
    touched: set[Path] = set()
    with build_lock(out_root):  # not while a build writes here
        recover(out_root)  # a commit a killed build left half done is finished first: its records hold
        if not (out_root / TRASH).is_symlink():
            empty_trash(out_root / TRASH)  # old outputs a commit left to be freed in the background
        for state in sorted(cache.root.glob("*.json")) if cache.root.is_dir() else []:
            editions = _editions(state.stem)
            if game is not None and game not in (slug for slug, _ in editions):
                continue
            files = _recorded(state)
            for slug, lang in editions:
                out_dir = out_root / slug / lang
                for rel, digest in files.items():
                    _remove(out_dir, rel, digest, done)
                touched.add(out_root / slug)
            state.unlink()
            done.removed.append(state)
        games = [out_root / game] if game is not None else [p for p in out_root.iterdir() if p.is_dir()
                                                            and p != cache.root]
        for folder in games:
            for record in sorted(folder.glob(f"*/{EXPORT_RECORD}")):
                for rel in _exported(record):
                    _remove(record.parent, rel, None, done)
                record.unlink()
                done.removed.append(record)
                touched.add(folder)
            for state in sorted((cache.root / "exports" / folder.name).glob("*.json")):
                state.unlink()  # what the game's exports read (engine/export.py): nothing left to compare
                done.removed.append(state)
        done.removed.extend(_pruned(cache))
        table = FileHashes(cache.root).path  # files' hashes by their stamps: nothing left to know
        if game is None and table.is_file() and not table.is_symlink() and not table.parent.is_symlink():
            table.unlink()
            done.removed.append(table)
            _remove_empty(table.parent)
        done.removed.extend(history.clean(out_root, game))  # the versions recorded (engine/history.py)
        remove_stray_temps([cache.root, *touched])
        for folder in sorted(touched | {cache.root}):
            _remove_empty(folder)
    own = {LOCK_NAME, MARKER_NAME}  # the lock and the marker that says the folder is pnpgen's
    if game is None and {p.name for p in out_root.iterdir()} <= own:
        for name in own:
            (out_root / name).unlink(missing_ok=True)
        out_root.rmdir()
    return done


def _editions(stem: str) -> list[tuple[str, str]]:
    """The (game, language) a state file may stand for: ``populous`` or ``populous.en`` (a game's
    slug may hold a dot too: both readings are tried, and a file goes only if its hash agrees)."""
    slug, dot, lang = stem.rpartition(".")
    return [(stem, "")] + ([(slug, lang)] if dot and slug else [])


def _recorded(state: Path) -> dict[str, str]:
    """The files a state lists (path relative to the game's folder → sha256), whichever pnpgen
    version wrote it; nothing when the record is damaged."""
    try:
        outer = json.loads(state.read_bytes())
        body = outer["body"]
        text = json.dumps(body, ensure_ascii=False, sort_keys=True).encode()
        if outer["check"] not in (seal(text), sha(text)):  # (sealed on this machine, or by an earlier pnpgen)
            return {}
        return {str(k): str(v) for k, v in dict(body["files"]).items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _exported(record: Path) -> list[str]:
    try:
        files = json.loads(record.read_text(encoding="utf-8")).get("files", [])
        return [str(f) for f in files] if isinstance(files, list) else []
    except (OSError, ValueError, AttributeError):
        return []


def _remove(folder: Path, rel: str, digest: str | None, done: Cleaned) -> None:
    """``folder/rel`` if it is a file inside ``folder`` (and still holds ``digest``'s bytes)."""
    path = inside(folder, rel)  # a plain relative path, no link on the way
    try:
        if path is None or path.is_symlink() or not path.is_file():
            return
        if digest is not None and sha(path.read_bytes()) != digest:
            done.kept.append(path)
            return
        path.unlink()
    except (OSError, ValueError):
        return
    done.removed.append(path)


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
