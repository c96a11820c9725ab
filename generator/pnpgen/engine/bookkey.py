"""What the rulebook is made from, as one key: a build whose key equals the last good build's
keeps rulebook.pdf, rulebook-booklet.pdf and proof.txt as they are, without typesetting.

The rulebook reads the draft (and the other files of ``data/<game>/`` beside the decks: game.yaml,
a ``draft.<lang>.txt``), the game's model — titles, deck names, kinds, trims, each deck's total
count, every piece's values (the proofreading compares card terms with the book) — the faces it
pictures, the pictures of the designer's own its figures show (``figure_pictures``), the fonts,
pnpgen itself and its options. It does not read a piece's own count (only
its deck's total: a count moved from one piece to another of the same deck changes no page), nor
art files of faces it does not picture. So a count change re-typesets the book only when a
deck's total changes (the components pages print it), and an art edit only when the art is on a
face the book pictures.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pnpgen.data.gamefiles import figure_pictures
from pnpgen.data.model import Deck, Game, Piece, shown_in_book
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import BIG_FILE, big_file_stamp, code
from pnpgen.engine.state import GameState, document_record
from pnpgen.errors import InputError, contained
from pnpgen.litter import is_litter

FILES = ("rulebook.pdf", "rulebook-booklet.pdf", "proof.txt")  # what the rulebook writes
SET_FILES = FILES[:2]  # what setting its pages makes (proof.txt is made on every reading)
RULE_SHEET = "rule-sheet.pdf"  # what setting them makes too when game.yaml asks for a rule sheet (rulebook/sheet.py)
KIND = "books"  # the cache's folder of each key's warnings and report


def no_draft(game: Game) -> str:
    """The warning of a game with no draft (a build and ``pnpgen check`` alike): no rulebook."""
    shown = f"data/{game.slug}/{game.draft_file.relative_to(game.root).as_posix()}"
    nothing = "" if game.decks or game.sourced else (
        f"; and data/{game.slug}/decks/ holds no deck, so the build prints nothing but an empty bill of materials")
    return (f"{shown}: no draft text, so no rulebook was built "
            f"(add the draft there, or set draft_file in game.yaml){nothing}")


def plain(value: Any) -> Any:
    """The model as JSON-able data, the same for the same content in any process (sets sorted)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value).__name__
        out = {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
               if shown_in_book(f)}  # (as the model marks them: data/model.py, a piece's own count never printed)
        out["__type"] = kind
        if isinstance(value, Deck):  # what the model works out from its fields that the book reads
            out["total"] = value.count  # the deck's total: the components pages print it
            out["placeholders"] = plain(value.placeholders)  # its printed pieces' 未定: the proof list
        elif isinstance(value, Piece):
            out["shows_placeholder"] = value.shows_placeholder  # a deck pictured only if its piece shows none
        return out
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(str(plain(v)) for v in value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Path):
        return value.as_posix()
    if hasattr(value, "__dict__"):
        return {"__type": type(value).__name__, **{k: plain(v) for k, v in sorted(vars(value).items())}}
    return repr(value)


def hashable(path: Path, folder: Path) -> bool:
    """Is ``path`` a regular file inside ``folder``, links followed? A link out of the workspace is
    never read, not even to be hashed; a named pipe would never end."""
    try:
        contained(path.relative_to(folder).as_posix(), folder, "file")
    except InputError:
        return False
    return path.is_file()


def _beside_decks(game) -> list[Path]:
    """The game folder's files other than its decks and its art (the model and the pictured
    faces stand for those): game.yaml, the drafts, translations."""
    root = Path(game.root)
    sources = {Path(d.source).resolve() for d in game.decks}
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if rel[0] not in ("decks", "art") and not is_litter(p.name) and hashable(p, root) and p.resolve() not in sources:
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
    out: list[Any] = [rendered.bleed_mm, sorted(rendered.deck_bleeds.items())]
    for df in rendered.decks:
        if df.first is None:
            continue
        fronts, backs = df.piece_fronts, df.piece_backs(df.piece_keys)
        keys = [df.first[0], df.first[1], *(fronts[n] for n in sorted(fronts)), *(backs[n] for n in sorted(backs))]
        out.append([df.deck.id, df.deck.trim_mm, keys])
        if any(k is not None and "<image" in rendered.faces.svgs.get(k, "") for k in keys):
            out.append([_pictures_of(result, k) for k in keys])  # the pictures each shows
    return out


def _pictures_of(result, k: str | None) -> str:
    """What face ``k`` shows of the art: its key's suffix (``face_keys``, the hashes of the pictures
    it shows), else the hash of the whole art (made only when so asked: a face whose pictures are
    not all found); "" for no face (a deck printing no back) and for a face without a picture. A
    deck without backs asked for the whole art's hash once: the book was then keyed by every art
    file, a picture no face shows repainted setting the book again."""
    if k is None or "<image" not in result.rendered.faces.svgs.get(k, ""):
        return ""
    return result.face_keys[k] if k in result.face_keys else result.rendered.art_digest


def shown_faces(result) -> dict[str, dict[str, str]]:
    """What each deck's faces the book may show are made from, by deck id: "front" and "back"
    (the first piece's), each piece's front by its number and its back by ``b`` and its number; a face's key (its SVG's hash), with
    the hashes of the pictures it embeds. The rulebook's process keys its setting by the ones it
    shows (engine/typeset.py)."""
    rendered = result.rendered
    out: dict[str, dict[str, str]] = {}

    def made_from(k: str | None) -> str:
        return "" if k is None else k + _pictures_of(result, k)

    for df in rendered.decks:
        if df.first is not None:
            out[df.deck.id] = {"front": made_from(df.first[0]), "back": made_from(df.first[1]),
                               **{str(n): made_from(k) for n, k in df.piece_fronts.items()},
                               **{f"b{n}": made_from(k) for n, k in df.piece_backs(df.piece_keys).items()}}
    return out


def picture_keys(result, pictures: dict[str, Any], inputs: str) -> dict[str, str]:
    """Each deck's picture (``BuildResult.pictures``) by a key of what it is made of: its faces by
    their names in the cache of converted faces (a face's SVG hash with the hashes of its pictures
    and template lines), what every face is drawn with (``inputs``: templates, fonts, options,
    pnpgen), and its trim, bleed, outline and window as they are. A warm rulebook process keeps
    the pictures it was sent under these keys and is sent again only those it does not hold
    (engine/bookjob.py ``RulebookJob``): after a count edit, none of some 700 kB."""
    rendered = result.rendered

    def name(k: str | None) -> str | None:
        return None if k is None else k + result.face_keys.get(k, "")

    out: dict[str, str] = {}
    for df in rendered.decks:
        pic = pictures.get(df.deck.id)
        if df.first is None or pic is None:
            continue
        front, back = df.first
        parts = [inputs, name(front), name(back) if pic.back is not None else None,
                 {str(n): name(k) for n, k in df.piece_fronts.items()},
                 {str(n): name(k) for n, k in df.piece_backs(df.piece_keys).items()}, list(pic.trim_mm), pic.bleed_mm,
                 [list(p) for p in pic.outline], pic.window, df.deck.sealed]
        out[df.deck.id] = hashlib.sha256(json.dumps(parts, sort_keys=True, default=repr).encode()).hexdigest()[:32]
    return out


class PicturesNotHeld(LookupError):
    """A warm rulebook process was sent a picture's key it does not hold (it was started again
    since, or its last job failed): the job is sent again with every picture."""


def icon_files(ws, game) -> list[Path]:
    """The workspace's icons a draft's ``{name}`` may show (the game's, then the common ones;
    pnpgen's own are its code)."""
    return [p for folder in (Path(ws.templates) / game.slug / "icons", Path(ws.templates) / "common" / "icons")
            for p in sorted(folder.glob("*.svg")) if hashable(p, Path(ws.templates))]


def model_key(ws, game, opts) -> str:
    """What the rulebook is made from besides the faces it pictures (see the module's note): known
    as soon as the game is loaded, so a build can tell early whether the book will likely be set
    again (and start its process then, ``engine/bookjob.py``)."""
    h = hashlib.sha256()
    for part in (code(), repr(opts), game.lang, ws.root.as_posix(),
                 json.dumps(plain(game), sort_keys=True, ensure_ascii=False, default=repr)):
        h.update(part.encode() + b"\0")
    fonts = [p for p in sorted(Path(ws.fonts).glob("*.ttf")) if hashable(p, Path(ws.fonts))]
    for path in [*_beside_decks(game), *fonts, *icon_files(ws, game), *figure_pictures(game)]:
        h.update(os.fsencode(path.as_posix()) + b"\0" + key_part(path) + b"\0")
    return h.hexdigest()[:32]


def key_part(path: Path) -> bytes:
    """What a key takes of a file: its bytes, or the stamp of one too big to read each time (a
    font; an icon of gigabytes, which the book's key read whole: MemoryError)."""
    st = path.stat()
    return big_file_stamp(st) if st.st_size > BIG_FILE else path.read_bytes()


def rulebook_key(model: str, result) -> str:
    """The key of the rulebook this build would typeset: its ``model_key`` and the faces it pictures."""
    pictured = json.dumps(_pictured(result), sort_keys=True, default=repr)
    return hashlib.sha256(f"{model}\0{pictured}".encode()).hexdigest()[:32]


def last_record(cache: Cache, before: GameState | None) -> dict[str, Any] | None:
    """The record of the last build's rulebook (``remember``'s), or None: no rulebook, or no
    record of it. Read once per build: ``model_key`` and ``earlier`` come from it."""
    book = before.documents.get("rulebook.pdf") if before is not None else None
    record = cache.record_value(KIND, book.get("plan", "")) if isinstance(book, dict) else None
    return record if isinstance(record, dict) else None


def kept(cache: Cache, before: GameState | None, key: str, out_dir: Path) -> tuple | None:
    """The last build's rulebook (files, warnings, report, readings used, the key of its pages'
    setting, the entries they settled on) when its key is ``key`` and its files are intact; else None."""
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
    return (files, list(record["warnings"]), list(record["report"]), list(record["used"]), str(record.get("setting", "")),
            record.get("entries"))


def earlier(record: dict[str, Any] | None, before: GameState | None, out_dir: Path | None) -> dict[str, Any] | None:
    """The last build's setting of the pages (``record``: ``last_record``), for the rulebook's
    process (engine/typeset.py): its key, where its PDFs are with the hashes they were written
    with, its warnings, report and readings used, the contents' and index's entries its pages
    settled on. None when the last build made no rulebook or its record is gone."""
    if record is None or before is None or out_dir is None:
        return None
    if not isinstance(record.get("setting"), str) or not record["setting"]:
        return None
    files = {}
    for name in SET_FILES + ((RULE_SHEET,) if RULE_SHEET in record.get("files", []) else ()):
        document = before.documents.get(name)
        if name not in record.get("files", []) or not isinstance(document, dict) or not isinstance(document.get("sha"), str):
            return None
        files[name] = [str(out_dir / name), document["sha"]]
    return {"key": record["setting"], "files": files, "warnings": list(record["warnings"]),
            "report": list(record["report"]), "used": list(record["used"]), "entries": record.get("entries")}


def remember(cache: Cache, result, key: str, files: dict[str, bytes], warnings: list[str],
             report: list[str], used: list[str], setting: str = "", model: str = "", entries: Any = None) -> None:
    """Record this build's rulebook under its key: its files as documents of the game's state,
    its warnings, report, the key of its pages' setting and the entries they settled on in the cache."""
    for name, data in files.items():
        result.documents[name] = document_record(key, data)
    path, data = cache.record(KIND, key, {"files": sorted(files), "warnings": warnings, "report": report,
                                          "used": sorted(used), "setting": setting, "model": model,
                                          "entries": entries})
    result.cache_files[path] = data
    result.uses.add(path)
