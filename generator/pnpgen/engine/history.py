"""The history of a game's builds: each good build that changed what is printed records a version
under ``build/.history/<game>/`` — time, draft number, content hash, counts, and per piece its face
hashes and field values — so the designer can say which version is on the table and what changed
since a playtest (``pnpgen log``, ``diff``, ``tag``, ``reprint --since``). This module keeps the
entries on disk: written and read, sealed, tagged, removed; a build's version is made in
engine/recording.py, a version named in engine/versionnames.py, the changelog between two in
engine/changelog.py.

Bounded: the last ``KEEP`` versions (engine/recording.py), pruned oldest first (a tagged version is
kept). Each entry carries the hash of its own text (a damaged one is skipped) and its seal:
HMAC-SHA256 of its text and its game's name under this machine's key (``usercache.seal``, as the
build cache's records). A history folder can come from elsewhere with a build folder (a zip, a
shared drive), and a hash anyone can compute again proves nothing: an entry this machine did not
seal (from elsewhere, from the designer's other machine, from a pnpgen before entries were sealed,
or under an earlier machine key) is still read — it may well be the designer's own history — but is
known as such (``Version.here`` false): ``log`` and ``diff`` show it and say so in one line, and
``reprint --since`` does not rely on it. The history is read by these commands, and by a build only
when the build cache's record of the last build is gone (``pnpgen clean`` removes the cache, keeps
the history): its change report and reprint files then compare with the last version recorded here
(``last_version``). The home sheets never depend on it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import stat
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen import usercache
from pnpgen.errors import InputError
from pnpgen.patterns import later
from pnpgen.usercache import seal

FORMAT = 1
# an entry's file as ``encode`` writes it: its body's text between these, then its check and seal
# (64 hex digits each) and the end
ENTRY_HEAD, CHECK_AT, SEAL_AT, ENTRY_END = b'{"body": ', b', "check": "', b'", "seal": "', b'"}\n'
ENTRY_TAIL = len(CHECK_AT) + 64 + len(SEAL_AT) + 64 + len(ENTRY_END)


@dataclass(frozen=True)
class Version:
    """One earlier build recorded in .history/ (v1, v2 …): what a designer compares against or goes back to."""

    number: int
    body: dict[str, Any]
    here: bool = True  # sealed on this machine; False: from elsewhere (shown, not relied on)

    @property
    def name(self) -> str:
        return f"v{self.number}"

    @property
    def hash(self) -> str:
        return str(self.body["hash"])


def folder(out_root: Path, edition: str) -> Path:
    return out_root / ".history" / edition


def path(out_root: Path, edition: str, number: int) -> Path:
    return folder(out_root, edition) / f"v{number:05d}.json"


MAX_ENTRY = 32 << 20  # bytes: an entry of 10,000 pieces is a few MB; a planted 365 MB one took 2.8 GB to read
ENTRY_NAME = later(r"v(\d{5,9})\.json")  # as ``path`` names them (a planted v999…9 gave names too long to write)


def _link(out_root: Path, edition: str) -> Path | None:
    """``.history`` or ``.history/<edition>`` when it is a link (which would have the history read
    from, and tags written to, anywhere); None when neither is."""
    return next((p for p in (out_root / ".history", folder(out_root, edition)) if p.is_symlink()), None)


def _own_folder(out_root: Path, edition: str) -> bool:
    """``.history/<edition>/`` is a real folder of the output folder, reached through no link."""
    return _link(out_root, edition) is None and folder(out_root, edition).is_dir()


def refuse_links(out_root: Path, edition: str) -> None:
    """An InputError when ``.history`` or its game's folder is a link (log, diff, tag, reprint)."""
    link = _link(out_root, edition)
    if link is not None:
        raise InputError("is a link: the history is read only from the output folder's own .history/", path=link,
                         expected="a real folder (remove the link; each good build records a version again)")


def _read(file: Path) -> bytes | None:
    """A history file's bytes: only a regular file (a FIFO would never end), no link, of at most
    MAX_ENTRY bytes; None otherwise."""
    try:
        st = file.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY:
            return None
        return file.read_bytes()
    except OSError:
        return None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _seal(edition: str, text: str | bytes) -> str:
    """The entry's seal: its text and the game (edition) it is a version of, under this machine's
    key (an entry of another game's history moved here does not hold)."""
    return seal(b"pnpgen history\n" + edition.encode() + b"\n" + (text.encode() if isinstance(text, str) else text))


def encode(body: dict[str, Any], edition: str) -> bytes:
    """The entry's file: its body as the text its check and seal are made from, written once (the
    body's JSON text is the file's "body" value as it stands: a save dumped it twice, 12 ms)."""
    text = json.dumps(body, ensure_ascii=False, sort_keys=True)
    return (f'{{"body": {text}, "check": {json.dumps(sha(text))}, "seal": {json.dumps(_seal(edition, text))}}}'
            "\n").encode()


def decode(data: bytes, edition: str) -> tuple[dict[str, Any], bool] | None:
    """An entry's body and whether this machine sealed it; None when it is damaged (its hash does
    not match, or it is not what pnpgen writes) or of another format. One without a seal (an
    earlier pnpgen's) or sealed elsewhere is read all the same, as not this machine's."""
    own = _own_entry(data, edition)
    if own is not None:
        return own, True
    try:
        outer = json.loads(data)
        body = outer["body"]
        text = json.dumps(body, ensure_ascii=False, sort_keys=True)
        if outer["check"] != sha(text) or body["format"] != FORMAT or not _well_formed(body):
            return None
        sealed = outer.get("seal")
        return body, isinstance(sealed, str) and hmac.compare_digest(sealed, _seal(edition, text))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):  # (JSON nested 200,000 deep)
        return None


def _own_entry(data: bytes, edition: str) -> dict[str, Any] | None:
    """The body of an entry whose file is byte for byte as ``encode`` writes it, sealed by this
    machine for ``edition``; None for any other (``decode`` then reads it the long way). Its
    sealed text is what pnpgen wrote here, so it is not written out again for its check, only
    read (and walked for its shape, as any entry): 3,000 cards' last version, read by every
    build, 29 → 16 ms."""
    end = len(data) - ENTRY_TAIL
    tail = data[end:]
    if end < len(ENTRY_HEAD) or not (data.startswith(ENTRY_HEAD) and tail.startswith(CHECK_AT)
                                     and tail[len(CHECK_AT) + 64:].startswith(SEAL_AT) and tail.endswith(ENTRY_END)):
        return None
    text = data[len(ENTRY_HEAD):end]
    check, sealed = tail[len(CHECK_AT):len(CHECK_AT) + 64], tail[-len(ENTRY_END) - 64:-len(ENTRY_END)]
    if not (hmac.compare_digest(sealed, _seal(edition, text).encode()) and check == hashlib.sha256(text).hexdigest().encode()):
        return None
    try:
        body = json.loads(text)
        return body if isinstance(body, dict) and body["format"] == FORMAT and _well_formed(body) else None
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):  # (the long way then refuses it too)
        return None


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _size(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, int | float) and not isinstance(v, bool) and 0 < v < 1e6 for v in value)


def _follows(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and isinstance(value[0], list) \
        and all(isinstance(d, str) for d in value[0]) and _count(value[1])


def _headers(headers: Any) -> bool:
    """A version's sheet headers as recorded: deck id → {field: the sheet's header}; its pieces'
    places so too: deck id → {piece: its file and line}."""
    return isinstance(headers, dict) and all(
        isinstance(d, str) and isinstance(h, dict) and all(isinstance(f, str) and isinstance(t, str) for f, t in h.items())
        for d, h in headers.items())


def _well_formed(body: dict[str, Any]) -> bool:
    """The shape pnpgen writes, which log, diff and reprint read without a further check: an entry
    from elsewhere can hold anything its hash was computed for."""
    if not (_count(body["number"]) and all(isinstance(body[k], str) for k in ("time", "game", "draft", "hash"))
            and isinstance(body["counts"], dict) and isinstance(body["decks"], dict)
            and isinstance(body.get("rulebook", {}), dict)):
        return False
    if not all(isinstance(k, str) and _count(n) for k, n in body["counts"].items()) \
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in body.get("rulebook", {}).items()) \
            or not _headers(body.get("headers", {})) or not _headers(body.get("places", {})):
        return False
    for deck in body["decks"].values():
        if not (isinstance(deck, dict) and _count(deck["count"]) and isinstance(deck.get("name"), str | None)
                and isinstance(deck["pieces"], dict) and isinstance(deck["values"], dict)
                and isinstance(deck.get("pairs", []), list) and _size(deck.get("size", [1, 1]))
                and isinstance(deck.get("field_order", []), list)
                and all(isinstance(f, str) for f in deck.get("field_order", []))
                and isinstance(deck.get("art", {}), dict) and _follows(deck.get("follows", [[], 0]))
                and isinstance(deck.get("grounds", {}), dict)
                and all(isinstance(g, list) and all(isinstance(h, str) for h in g) for g in deck.get("grounds", {}).values())
                and all(isinstance(files, dict) and all(isinstance(k, str) and isinstance(h, str) for k, h in files.items())
                        for files in deck.get("art", {}).values())):
            return False
        if not all(isinstance(p, list) and p and _count(p[0]) and all(isinstance(x, str | None) for x in p[1:])
                   for p in deck["pieces"].values()) \
                or not all(isinstance(v, dict) for v in deck["values"].values()) \
                or not all(isinstance(p, list) and len(p) >= 4 and isinstance(p[0], str) and isinstance(p[1], str | None)
                           and _count(p[2]) and all(isinstance(x, str) for x in p[3:]) for p in deck.get("pairs", [])):
            return False
    return True


def entry_numbers(out_root: Path, edition: str, links: bool = False) -> list[int]:
    """Every entry's number on disk, damaged or not, oldest first; with ``links``, the numbers of
    entry names that are links too (never read, never removed: a name no new entry may take)."""
    if not _own_folder(out_root, edition):
        return []
    found = []
    for p in folder(out_root, edition).glob("v*.json"):
        m = ENTRY_NAME.fullmatch(p.name)
        if m and (links or not p.is_symlink()):
            found.append(int(m.group(1)))
    return sorted(found)


def versions(out_root: Path, edition: str) -> list[Version]:
    """The game's recorded versions, oldest first, damaged entries skipped (those this machine did
    not seal in the list, ``here`` false)."""
    return [v for n in entry_numbers(out_root, edition) if (v := _version(out_root, edition, n)) is not None]


def _version(out_root: Path, edition: str, n: int) -> Version | None:
    data = _read(path(out_root, edition, n))
    read = decode(data, edition) if data is not None else None
    return Version(n, read[0], read[1]) if read is not None and read[0]["number"] == n else None


def version(out_root: Path, edition: str, n: int) -> Version | None:
    """Version ``n`` alone (None when it is not there or damaged): the preview compares the latest
    with the tagged one on each save without reading the 50 entries between."""
    return _version(out_root, edition, n) if _link(out_root, edition) is None else None


def _latest(out_root: Path, edition: str) -> Version | None:
    """The newest undamaged version this machine sealed (any, when it has no key to seal with:
    ``PNPGEN_CACHE=off``), reading no more entries than it takes (a watch session records one
    on nearly every save and asks for the last one on every save). So the first build on a new
    machine, or after an upgrade, records the game as it is, sealed here, though an entry from
    elsewhere has the same content: that is the version ``tag`` then names and ``reprint
    --since`` relies on."""
    anyone = usercache.secret() is None
    for n in reversed(entry_numbers(out_root, edition)):
        if (v := _version(out_root, edition, n)) is not None and (v.here or anyone):
            return v
    return None


def last_version(out_root: Path, edition: str) -> Version | None:
    """The version a build compares against when the build cache's record of the last build is
    gone (``pnpgen clean`` keeps the history): the newest this machine recorded (``_latest``),
    none through a link. Its decks are a change report's snapshot without sheets and pages."""
    return _latest(out_root, edition) if _link(out_root, edition) is None else None


def is_tag_name(text: str) -> bool:
    """Whether ``text`` may name a version (``pnpgen tag``): letters, digits, - _ . up to 64, not a
    version's own name, not starting with - (``reprint --since -x`` reads it as an option) nor only
    dots (``..`` reads as a folder)."""
    return bool(re.fullmatch(r"[\w.-]{1,64}", text)) and not is_version_name(text) \
        and not text.startswith("-") and text.strip(".") != ""


def is_version_name(text: str) -> bool:
    """Whether ``text`` is a version's own name (v12, 12, latest, previous), which a tag would take over."""
    return bool(re.fullmatch(r"v?\d+|latest|previous", text))


def tags(out_root: Path, edition: str) -> dict[str, int]:
    """Names given to versions (``pnpgen tag``): name → version number; a damaged file is none."""
    return read_tags(out_root, edition) or {}


def read_tags(out_root: Path, edition: str) -> dict[str, int] | None:
    """The tags file read: {} when there is none, None when it is damaged (not JSON, not names
    to version numbers, not a regular file of ours)."""
    file = folder(out_root, edition) / "tags.json"
    if not _own_folder(out_root, edition) or not (file.exists() or file.is_symlink()):
        return {}
    data = _read(file)  # (None for a link, a FIFO, a folder, a file too large)
    try:
        named = json.loads(data) if data is not None else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(named, dict) or not all(isinstance(k, str) and not is_version_name(k) and _count(v)
                                              for k, v in named.items()):
        return None  # (a name "v1" for v2 made 'reprint --since v1' reprint since v2)
    return named


def _history_files(out_root: Path, game: str | None, games: Collection[str] = ()) -> list[Path]:
    """The files of ``.history/<game>/`` and ``<game>.<lang>/`` (every game's without ``game``;
    not those of another of the workspace's ``games`` named ``<game>.<lang>``) named as this
    module names them (v<number>.json, tags.json), in no linked folder."""
    root = out_root / ".history"
    if not root.is_dir() or root.is_symlink():
        return []
    return [f for edition in sorted(p for p in root.iterdir() if p.is_dir() and not p.is_symlink())
            if game is None or edition.name == game or (edition.name.startswith(game + ".") and edition.name not in games)
            for f in sorted(edition.iterdir())
            if f.is_file() and not f.is_symlink() and (ENTRY_NAME.fullmatch(f.name) or f.name == "tags.json")]


def recorded(out_root: Path, game: str | None = None, games: Collection[str] = ()) -> int:
    """How many versions ``.history/`` holds (``game``'s, or every game's; ``games``: as ``clean``)."""
    return sum(1 for f in _history_files(out_root, game, games) if f.name != "tags.json")


def clean(out_root: Path, game: str | None = None, games: Collection[str] = ()) -> list[Path]:
    """Remove the history (``pnpgen clean --history``): in ``.history/<game>/`` and
    ``<game>.<lang>/`` only the files named as this module names them (v<number>.json,
    tags.json); anything else stays; ``games``: the workspace's games, whose own ``.history/<game>.<x>/``
    is not ``game``'s."""
    root = out_root / ".history"
    removed = _history_files(out_root, game, games)
    if not removed:
        return removed
    for f in removed:
        f.unlink()
    for edition in sorted({f.parent for f in removed}):
        if not any(edition.iterdir()):
            edition.rmdir()
    if not any(root.iterdir()):
        root.rmdir()
    return removed
