"""What the rulebook is made from, as one key: a build whose key equals the last good build's
keeps rulebook.pdf, rulebook-booklet.pdf and proof.txt as they are, without typesetting.

The rulebook reads the draft (and the other files of ``data/<game>/`` beside the decks: game.yaml,
a ``draft.<lang>.txt``), the game's model — titles, deck names, kinds, trims, each deck's total
count, every piece's values (the proofreading compares card terms with the book) — the faces it
pictures, the fonts, pnpgen itself and its options. It does not read a piece's own count (only
its deck's total: a count moved from one piece to another of the same deck changes no page), nor
art files of faces it does not picture. So a count change re-typesets the book only when a
deck's total changes (the components pages print it), and an art edit only when the art is on a
face the book pictures.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from pnpgen.data.model import Game
from pnpgen.engine.cache import BIG_FILE, Cache, GameState, code, sha

FILES = ("rulebook.pdf", "rulebook-booklet.pdf", "proof.txt")  # what the rulebook writes
KIND = "books"  # the cache's folder of each key's warnings and report


def no_draft(game: Game) -> str:
    """The warning of a game with no draft (a build and ``pnpgen check`` alike): no rulebook."""
    shown = f"data/{game.slug}/{game.draft_file.relative_to(game.root).as_posix()}"
    return (f"{shown}: no draft text, so no rulebook was built "
            "(add the draft there, or set draft_file in game.yaml)")


def _plain(value: Any) -> Any:
    """The model as JSON-able data, the same for the same content in any process (sets sorted)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value).__name__
        out = {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)
               if not (kind == "Piece" and f.name == "count")}  # a piece's own count: never printed
        out["__type"] = kind
        if kind == "Deck":
            out["total"] = getattr(value, "count")  # noqa: B009 - the deck's total: the components pages print it
        return out
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(str(_plain(v)) for v in value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Path):
        return value.as_posix()
    if hasattr(value, "__dict__"):
        return {"__type": type(value).__name__, **{k: _plain(v) for k, v in sorted(vars(value).items())}}
    return repr(value)


def _beside_decks(game) -> list[Path]:
    """The game folder's files other than its decks and its art (the model and the pictured
    faces stand for those): game.yaml, the drafts, translations."""
    root = Path(game.root)
    sources = {Path(d.source).resolve() for d in game.decks}
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if p.is_file() and rel[0] not in ("decks", "art") and p.resolve() not in sources:
            out.append(p)
    draft = Path(game.draft_file)
    if draft.is_file() and draft not in out:  # a draft_file outside the game folder
        out.append(draft)
    return out


def _pictured(result) -> list[Any]:
    """The faces the book pictures, by content: each deck's first front and back and its
    pieces' fronts (face keys hash the SVG); a face that embeds a picture also by the hashes of the
    pictures it shows (``face_art``): a repainted picture no face of the book shows sets nothing."""
    rendered = result.rendered
    out: list[Any] = [rendered.bleed_mm]
    for df in rendered.decks:
        if df.first is None:
            continue
        keys = [df.first[0], df.first[1], *(df.piece_fronts[n] for n in sorted(df.piece_fronts))]
        out.append([df.deck.id, df.deck.trim_mm, keys])
        if any(k is not None and "<image" in rendered.faces.svgs.get(k, "") for k in keys):
            out.append([result.face_keys.get(k, rendered.art_digest) for k in keys])  # the pictures each shows
    return out


def rulebook_key(ws, game, result, opts) -> str:
    """The key of the rulebook this build would typeset (see the module's note)."""
    h = hashlib.sha256()
    for part in (code(), repr(opts), game.lang, ws.root.as_posix(),
                 json.dumps(_plain(game), sort_keys=True, ensure_ascii=False, default=repr),
                 json.dumps(_pictured(result), sort_keys=True, default=repr)):
        h.update(part.encode() + b"\0")
    for path in [*_beside_decks(game), *sorted(Path(ws.fonts).glob("*.ttf"))]:
        st = path.stat()
        h.update(path.as_posix().encode() + b"\0")
        h.update(f"{st.st_size}:{st.st_mtime_ns}".encode() if st.st_size > BIG_FILE else path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:32]


def kept(cache: Cache, before: GameState | None, key: str, out_dir: Path) -> tuple | None:
    """The last build's rulebook (files, warnings, report, readings used) when its key is
    ``key`` and its files are intact; else None."""
    if before is None:
        return None
    record = cache.record_value(KIND, key)
    if not isinstance(record, dict):
        return None
    files = {}
    for name in record.get("files", []):
        data = cache.reuse(before, name, key, out_dir)
        if data is None:
            return None
        files[name] = data
    return files, list(record["warnings"]), list(record["report"]), list(record["used"])


def remember(cache: Cache, result, key: str, files: dict[str, bytes], warnings: list[str],
             report: list[str], used: list[str]) -> None:
    """Record this build's rulebook under its key: its files as documents of the game's state,
    its warnings and report in the cache."""
    for name, data in files.items():
        result.documents[name] = {"plan": key, "sha": sha(data)}
    path, data = cache.record(KIND, key, {"files": sorted(files), "warnings": warnings, "report": report,
                                          "used": sorted(used)})
    result.cache_files[path] = data
    result.uses.add(path)
