"""The history of a game's builds: each good build that changed what is printed records a version
under ``build/.history/<game>/`` — time, draft number, content hash, counts, and per piece its
face hashes and field values — so the designer can say which version is on the table and what
changed since a playtest (``pnpgen log``, ``diff``, ``tag``, ``reprint --since``).

Bounded: the last ``KEEP`` versions, pruned oldest first (a tagged version is kept). Each entry
carries the hash of its own text (a damaged one is skipped) and its seal: HMAC-SHA256 of its
text and its game's name under this machine's key (``usercache.seal``, as the build cache's
records). A history folder can come from elsewhere with a build folder (a zip, a shared drive),
and a hash anyone can compute again proves nothing: an entry this machine did not seal (from
elsewhere, from the designer's other machine, from a pnpgen before entries were sealed, or under
an earlier machine key) is still read — it may well be the designer's own history — but is known
as such (``Version.here`` false): ``log`` and ``diff`` show it and say so in one line, and
``reprint --since`` does not rely on it. The history is read by these commands, and by a build
only when the build cache's record of the last build is gone (``pnpgen clean`` removes the
cache, keeps the history): its change report and reprint files then compare with the last
version recorded here (``last_version``). The home sheets never depend on it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import stat
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pnpgen import usercache
from pnpgen.data.draftfile import draft_for
from pnpgen.data.draftlines import DraftLines
from pnpgen.data.i18n import LANGUAGE_CODE
from pnpgen.data.telling import as_text
from pnpgen.data.textfile import MAX_DRAFT_BYTES
from pnpgen.data.textfile import decode as decode_text
from pnpgen.engine.changes import (
    copies_only,
    followed,
    in_deck_order,
    matched,
    numbered_name,
    parked_throughout,
    rearranged_only,
    renamed,
    replaced_files,
    told_apart,
)
from pnpgen.errors import InputError, suggest
from pnpgen.messages import FALLBACK, msg
from pnpgen.patterns import later
from pnpgen.safetext import quoted
from pnpgen.usercache import seal

KEEP = 50  # versions kept per game (and --lang edition)
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


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _seal(edition: str, text: str | bytes) -> str:
    """The entry's seal: its text and the game (edition) it is a version of, under this machine's
    key (an entry of another game's history moved here does not hold)."""
    return seal(b"pnpgen history\n" + edition.encode() + b"\n" + (text.encode() if isinstance(text, str) else text))


def encode(body: dict[str, Any], edition: str) -> bytes:
    """The entry's file: its body as the text its check and seal are made from, written once (the
    body's JSON text is the file's "body" value as it stands: a save dumped it twice, 12 ms)."""
    text = json.dumps(body, ensure_ascii=False, sort_keys=True)
    return (f'{{"body": {text}, "check": {json.dumps(_sha(text))}, "seal": {json.dumps(_seal(edition, text))}}}'
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
        if outer["check"] != _sha(text) or body["format"] != FORMAT or not _well_formed(body):
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


def _well_formed(body: dict[str, Any]) -> bool:
    """The shape pnpgen writes, which log, diff and reprint read without a further check: an entry
    from elsewhere can hold anything its hash was computed for."""
    if not (_count(body["number"]) and all(isinstance(body[k], str) for k in ("time", "game", "draft", "hash"))
            and isinstance(body["counts"], dict) and isinstance(body["decks"], dict)
            and isinstance(body.get("rulebook", {}), dict)):
        return False
    if not all(isinstance(k, str) and _count(n) for k, n in body["counts"].items()) \
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in body.get("rulebook", {}).items()):
        return False
    for deck in body["decks"].values():
        if not (isinstance(deck, dict) and _count(deck["count"]) and isinstance(deck.get("name"), str | None)
                and isinstance(deck["pieces"], dict) and isinstance(deck["values"], dict)
                and isinstance(deck.get("pairs", []), list) and _size(deck.get("size", [1, 1]))
                and isinstance(deck.get("field_order", []), list)
                and all(isinstance(f, str) for f in deck.get("field_order", []))
                and isinstance(deck.get("art", {}), dict) and _follows(deck.get("follows", [[], 0]))
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


def _numbers(out_root: Path, edition: str) -> list[int]:
    """Every entry's number on disk, damaged or not, oldest first."""
    if not _own_folder(out_root, edition):
        return []
    found = []
    for p in folder(out_root, edition).glob("v*.json"):
        m = ENTRY_NAME.fullmatch(p.name)
        if m and not p.is_symlink():
            found.append(int(m.group(1)))
    return sorted(found)


def versions(out_root: Path, edition: str) -> list[Version]:
    """The game's recorded versions, oldest first, damaged entries skipped (those this machine did
    not seal in the list, ``here`` false)."""
    return [v for n in _numbers(out_root, edition) if (v := _version(out_root, edition, n)) is not None]


def _version(out_root: Path, edition: str, n: int) -> Version | None:
    data = _read(path(out_root, edition, n))
    read = decode(data, edition) if data is not None else None
    return Version(n, read[0], read[1]) if read is not None and read[0]["number"] == n else None


def _latest(out_root: Path, edition: str) -> Version | None:
    """The newest undamaged version this machine sealed (any, when it has no key to seal with:
    ``PNPGEN_CACHE=off``), reading no more entries than it takes (a watch session records one
    on nearly every save and asks for the last one on every save). So the first build on a new
    machine, or after an upgrade, records the game as it is, sealed here, though an entry from
    elsewhere has the same content: that is the version ``tag`` then names and ``reprint
    --since`` relies on."""
    anyone = usercache.secret() is None
    for n in reversed(_numbers(out_root, edition)):
        if (v := _version(out_root, edition, n)) is not None and (v.here or anyone):
            return v
    return None


def last_version(out_root: Path, edition: str) -> Version | None:
    """The version a build compares against when the build cache's record of the last build is
    gone (``pnpgen clean`` keeps the history): the newest this machine recorded (``_latest``),
    none through a link. Its decks are a change report's snapshot without sheets and pages."""
    return _latest(out_root, edition) if _link(out_root, edition) is None else None


def since_hint(out_root: Path, edition: str, lang: str) -> str:
    """The reprint file's last line: it holds what the last build changed, and in ``watch`` and
    ``serve`` each save is a build, so the text edited two saves ago is not in it. The command
    that reprints everything since the version last tagged (the one printed), when that is older
    than the last build; else, when the history holds a version older than the one the file is
    compared with (the only one it might name besides that), the command with a version to fill
    in; else nothing. Only what the history's folder names (no entry is read: this runs on every
    save). Called before the build's own version is recorded."""
    game, _, edition_lang = edition.partition(".")
    command = f"pnpgen reprint --game {game}" + (f" --lang {edition_lang}" if edition_lang else "")
    numbers = _numbers(out_root, edition)
    named = {name: n for name, n in tags(out_root, edition).items() if is_tag_name(name) and n in numbers}
    if not named:  # the previous build compared with, and one before it to name: else it says nothing new
        return msg("reprint.since_any", lang, command=command) if len(numbers) > 1 else ""
    tag = max(named, key=lambda name: (named[name], name))
    if numbers and named[tag] >= numbers[-1]:
        return ""  # the tagged version is the last build's: the file holds every change since it
    return msg("reprint.since_tag", lang, command=f"{command} --since {tag}", tag=tag)


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
    return _tags(out_root, edition) or {}


def _tags(out_root: Path, edition: str) -> dict[str, int] | None:
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


# the key of a draft's lines before its first section (its title line, 草案 number): recorded as
# it is, and said in the changelog's language (``diff.preamble``)
PREAMBLE = "(before the first section)"


def sections(draft: str) -> dict[str, str]:
    """The draft's sections → hash of their text: a line starting with one ■ opens one; in a
    draft with none, an English draft's section heading does (``## Setup``, ``SETUP``,
    ``Chapter 2: Setup``), as the rulebook reads it."""
    out: dict[str, str] = {}
    title = ""
    lines: list[str] = []
    every = draft.splitlines()
    japanese = any(line.startswith("■") and not line.startswith("■■") for line in every)
    latin = None if japanese else DraftLines(every)

    def heading(line: str) -> str | None:
        if latin is None:
            return line.lstrip("■").strip() if line.startswith("■") and not line.startswith("■■") else None
        kind, _, _, text = latin.classify(line.strip())
        return text if kind == "section" else None

    def close() -> None:
        if title or any(s.strip() for s in lines):
            out[title or PREAMBLE] = _sha("\n".join(lines))[:12]

    for line in every:
        opened = heading(line)
        if opened is None:
            lines.append(line)
        else:
            close()
            title, lines = opened, []
    close()
    return out


def content_hash(decks: dict[str, Any], rulebook: dict[str, str], draft: str) -> str:
    """What the version's printed pieces and rulebook are made of: the same hash, the same game."""
    faces = {d: {"pieces": v["pieces"], "values": v["values"]} for d, v in decks.items()}
    return _sha(json.dumps([faces, rulebook, draft], ensure_ascii=False, sort_keys=True))[:12]


def _draft_of(game) -> Path:
    """The draft the build's rulebook sets: ``draft.en.txt`` for ``--lang en`` when there is one
    (recording draft.txt, an English draft edited was no version and no change); one the
    rulebook refuses is its error to report, not this: the default language's then."""
    try:
        return draft_for(game)[0]
    except InputError:
        return Path(game.draft_file)


def _draft_text(path: Path) -> str:
    """The draft's text as the rulebook reads it (a Shift_JIS or UTF-16 draft too); "" when
    there is none, and a draft no encoding reads is the rulebook's error to report, not this."""
    if not path.is_file() or path.stat().st_size > MAX_DRAFT_BYTES:  # (too long: the rulebook's error, not read)
        return ""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return decode_text(data, path)[0]
    except InputError:
        return data.decode("utf-8", errors="replace")


def rulebook_change(last: Version | None, game) -> str:
    """The build's change line for the draft: ``rulebook: draft 12 → 13 (問題点 changed, 勝利条件
    added)``, its sections as ``pnpgen diff`` names them, compared with the last version (the
    last good build's draft: a version is recorded whenever it changes); empty when no section
    changed or the history holds no version. A draft edit reprints no card, but the rulebook's
    pages: the designer is told which, in the terminal, on the live page and in manifest.json.
    ``last``: the build's ``last_version``."""
    if last is None:
        return ""
    before, now = last.body.get("rulebook") or {}, sections(_draft_text(_draft_of(game)))
    if not isinstance(before, dict):
        return ""
    said = [*(f"{s} changed" for s in now if s in before and before[s] != now[s]),
            *(f"{s} added" for s in now if s not in before), *(f"{s} removed" for s in before if s not in now)]
    if not said:
        return ""
    if len(said) > 4:
        said = [*said[:3], f"{len(said) - 3} more sections"]
    drafts = f"draft {last.body.get('draft')} → {game.draft}" if str(last.body.get("draft")) != str(game.draft) \
        else f"draft {game.draft}"
    return f"rulebook: {drafts} ({', '.join(said)})"


def record(out_root: Path, edition: str, game, snapshot: dict[str, Any], last: Version | None,
           now: datetime | None = None) -> tuple[dict[Path, bytes], list[Path]]:
    """The entry to write for a good build (none when its content is that of the last version,
    ``last``: the build's ``last_version``, read once), and the entries to remove so that at most
    ``KEEP`` remain (oldest first, tagged ones kept)."""
    rulebook = sections(_draft_text(_draft_of(game)))
    decks = {d: {**{k: v[k] for k in ("name", "count", "pieces", "values", "pairs", "size", "follows", "art")
                    if k in v},
                 "field_order": list(dict.fromkeys(f for values in v["values"].values() for f in values))}
             for d, v in snapshot.items()}  # (the entry's keys are sorted: the deck's order of its fields kept apart)
    digest = content_hash(decks, rulebook, str(game.draft))
    if last is not None and last.hash == digest:
        return {}, []
    number = max(_numbers(out_root, edition), default=0) + 1
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = {"format": FORMAT, "number": number, "time": when, "game": game.slug, "lang": game.lang, "draft": str(game.draft),
            "hash": digest, "counts": {d: v["count"] for d, v in decks.items()}, "decks": decks, "rulebook": rulebook,
            # the printer profile its home sheets were drawn for (not in the hash): reprint --since's default
            "printer": next((v.get("printer") for v in snapshot.values()), None)}
    kept = set(tags(out_root, edition).values())
    old = [n for n in _numbers(out_root, edition) if n not in kept]
    gone = old[:max(0, len(old) + 1 - KEEP)]
    return {path(out_root, edition, number): encode(body, edition)}, [path(out_root, edition, n) for n in gone]


def resolve(out_root: Path, edition: str, spec: str) -> Version:
    """A version by ``v12`` or ``12``, a tag, ``latest``, ``previous`` or a prefix of its hash."""
    known = versions(out_root, edition)
    if not known:
        raise InputError(f"no recorded version of {edition!r} in {folder(out_root, edition)}",
                         expected="a build first: pnpgen build --game " + edition.split(".")[0])
    named = tags(out_root, edition)
    by_number = {v.number: v for v in known}
    if spec == "latest":
        return known[-1]
    if spec == "previous" and len(known) > 1:
        return known[-2]
    number = named.get(spec)
    if number is not None and number not in by_number:
        raise InputError(f"tag {spec!r} names v{number}, which the history does not hold (removed or damaged)",
                         path=folder(out_root, edition) / "tags.json", key="version",
                         expected=_which(known, named))
    if number is None and re.fullmatch(r"v?\d+", spec):
        number = int(spec.lstrip("v"))
    if number in by_number:
        return by_number[number]
    by_hash = [v for v in known if len(spec) >= 4 and v.hash.startswith(spec.lstrip("#"))]
    if len(by_hash) == 1:
        return by_hash[0]
    # the history read named: each output folder keeps its own (a tag made in build/ is not in a --out's)
    # a tag mistyped (playtest1 for playtest-1) is offered the one meant, as a mistyped game or deck is;
    # not one of another number (playtest-2, not made yet, is no slip of playtest-1's: the copies differ)
    near = suggest(spec, [*named, "latest", "previous"])
    if near and re.sub(r"\d", "", spec) == re.sub(r"\d", "", near.removeprefix("; did you mean ").removesuffix("?")):
        near = ""
    raise InputError(f"no version {spec!r}{near}", path=folder(out_root, edition), key="version",
                     expected=_which(known, named))


def _which(known: list[Version], named: dict[str, int]) -> str:
    """The versions a designer may name: the span the history holds (it said "one of v5, v6, v7,
    v8, v9" of nine versions, as if v1–v4 were gone), the tags, ``latest``, ``previous``."""
    span = known[0].name if len(known) == 1 else f"{known[0].name} to {known[-1].name}"
    shown = sorted(named)[:5] + ([f"… {len(named) - 5} more"] if len(named) > 5 else [])
    tagged = f", a tag ({', '.join(shown)})" if named else ""
    return f"a version 'pnpgen log' lists ({span}){tagged}, latest, previous, or the start of a hash"


def set_tag(out_root: Path, edition: str, name: str, version: Version) -> bytes:
    """The tags file with ``name`` given to ``version``; an InputError when the file there is
    damaged (written again, it would lose every tag it holds) or the history is reached through
    a link."""
    where = folder(out_root, edition)
    refuse_links(out_root, edition)
    named = _tags(out_root, edition)
    if named is None and (where / "tags.json").is_symlink():  # (it said "damaged (not names of versions)")
        raise InputError("the tags file is a link, which pnpgen never writes: not read, nor written through",
                         path=where / "tags.json", expected="tags.json a file of this folder (the link removed, or the file it leads to copied in its place)")
    if named is None:
        raise InputError("the tags file is damaged (not names of versions): a new tag would lose the others",
                         path=where / "tags.json",
                         expected='{"name": version number, …} as pnpgen writes it, or the file removed')
    named[name] = version.number
    return (json.dumps(named, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode()


def diff(a: Version, b: Version, named: dict[str, int] | None = None) -> dict[str, Any]:
    """What changed from ``a`` to ``b``, deck by deck: counts old → new, each changed field old →
    new, pieces added and removed; and the rulebook sections changed. ``named``: the tags (name →
    version number), each version's told with it, as the playtesters know the set printed."""
    named = named or {}
    decks: dict[str, Any] = {}
    lang = b.body.get("lang")  # the game's language, for the changelog's words (a version recorded before: English)
    if not (isinstance(lang, str) and LANGUAGE_CODE.fullmatch(lang)):  # an entry's, as a game.yaml's would be
        lang = FALLBACK
    was_deck = renamed(a.body["decks"], b.body["decks"])  # a deck file renamed: the deck it was
    for deck_id in [*b.body["decks"], *(d for d in a.body["decks"] if d not in b.body["decks"]
                                        and d not in was_deck.values())]:
        old = a.body["decks"].get(deck_id) or a.body["decks"].get(was_deck.get(deck_id, ""),
                                                                  {"count": 0, "pieces": {}, "values": {}})
        new = b.body["decks"].get(deck_id, {"count": 0, "pieces": {}, "values": {}, "name": old.get("name")})
        # in the deck's order (an entry keeps them in its keys' order: 1, 10, 100, 101, …, 2)
        old, new = {**old, "pieces": in_deck_order(old["pieces"])}, {**new, "pieces": in_deck_order(new["pieces"])}
        order = [*new.get("field_order", []), *old.get("field_order", [])]  # (none in an entry recorded before)
        old, new = {**old, "values": _in_field_order(old["values"], order)}, \
            {**new, "values": _in_field_order(new.get("values", {}), order)}
        entry: dict[str, Any] = {"name": new.get("name") or old.get("name"), "count": [old["count"], new["count"]],
                                 "added": [], "removed": [], "counts": [], "fields": []}
        if deck_id in was_deck:
            entry["renamed_from"] = was_deck[deck_id]
        # the pieces' size, recorded since it is (a tuck box resized by its deck's count, a new format)
        if old.get("size") and new.get("size") and old["size"] != new["size"] and old["pieces"] and new["pieces"]:
            entry["size"] = [old["size"], new["size"]]
            held = followed(old, new)  # a tuck box's net after its decks' count: which, and that count
            if held:
                entry["follows"] = {"decks": held[0], "old": held[1], "new": held[2]}
        was = matched(old["pieces"], new["pieces"], old["values"], new.get("values", {}))  # new label → old label
        shared = Counter(map(_name, old["pieces"])) | Counter(map(_name, new["pieces"]))  # pieces of a name, in either
        # two pieces of one name told apart: 彗星 #1, 彗星 #111; one of a deck without names by its
        # values (#11［green・2・6］), as reprint.txt names it
        told_before, told_now = told_apart(old["values"], new.get("values", {}), lang)

        def name_of(label: str, told: dict[str, str] = told_now, names: Counter[str] = shared) -> str:
            return told.get(label) or numbered_name(label, names)
        unprinted = parked_throughout(old["pieces"], new["pieces"], was)  # (as the build's change line: none told)
        for label, (count, *_) in new["pieces"].items():
            if label not in was:
                if count:
                    entry["added"].append({"piece": name_of(label), "count": count})
                continue
            if label in unprinted:
                continue
            if old["pieces"][was[label]][0] != count:
                entry["counts"].append({"piece": name_of(label), "old": old["pieces"][was[label]][0], "new": count})
            ov, nv = old["values"].get(was[label], {}), new["values"].get(label, {})
            for f in [*nv, *(k for k in ov if k not in nv)]:
                if ov.get(f) != nv.get(f):
                    entry["fields"].append({"piece": name_of(label), "field": f, "old": ov.get(f), "new": nv.get(f)})
        taken = set(was.values())
        entry["removed"] = [{"piece": name_of(label, told_before), "count": c} for label, (c, *_) in old["pieces"].items()
                            if label not in taken and c]
        recounted = copies_only(old, new, was)  # (a template numbering its copies: one fewer is no face changed)
        sides = {label: (old["pieces"][was[label]][2:4], new["pieces"][label][2:4]) for label in new["pieces"]
                 if label in was and label not in recounted and label not in unprinted}
        # the pictures its faces show (recorded since they are known: an older version has none),
        # a repaint only where the faces are the same ones (see changes.reasons)
        painted = {label for label, o in was.items() if label in sides and len(old["pieces"][o]) > 4 and len(new["pieces"][label]) > 4
                   and old["pieces"][o][4] != new["pieces"][label][4] and sides[label][0] == sides[label][1]}
        backs = [label for label, (o, n) in sides.items() if len(n) > 1 and n[1] and o[1:] != n[1:]]
        entry["back_changed"] = bool(backs) and len(backs) == len([b for b in was if new["pieces"][b][3:4] != [""]])
        edited = {f["piece"] for f in entry["fields"]}
        pictures: dict[str, list[str]] = {}  # an art file replaced → the pieces whose faces, the same, show it
        # (a piece whose fields changed too, its faces then not the same: its text edited and its
        # picture painted over, both told)
        for label in (label for label in sides if label in painted or name_of(label) in edited):
            for file in replaced_files(old, new, label, was[label]):
                pictures.setdefault(file, []).append(name_of(label))
        told = {name for shown in pictures.values() for name in shown}
        entry["pictures"] = [{"file": file, "pieces": shown} for file, shown in pictures.items()]
        entry["faces"] = [name_of(label) for label, (o, n) in sides.items()  # (a face at another size: the size says it)
                          if name_of(label) not in edited and name_of(label) not in told and "size" not in entry
                          and (o[:1] != n[:1] or label in painted or (label in backs and not entry["back_changed"]))]
        # every piece of both versions redrawn (a font size of the layout): one line, not one a piece
        entry["every_face_changed"] = len(entry["faces"]) > 1 and len(entry["faces"]) == len(sides)
        # the same copies in another order (pieces moved in the deck file): the build says "order
        # changed; nothing to reprint", and so does the changelog (engine/changes.py)
        entry["order_changed"] = rearranged_only(old, new)
        if any(entry.get(k) for k in ("added", "removed", "counts", "fields", "faces", "pictures", "back_changed", "size",
                                      "renamed_from", "order_changed")) \
                or old["count"] != new["count"]:
            decks[deck_id] = entry
    ra, rb = a.body.get("rulebook", {}), b.body.get("rulebook", {})
    return {"game": b.body["game"], "lang": lang, "from": _about(a, named),
            "to": _about(b, named), "decks": decks,
            "rulebook": {"changed": [s for s in rb if s in ra and ra[s] != rb[s]],
                         "added": [s for s in rb if s not in ra], "removed": [s for s in ra if s not in rb]}}


def _in_field_order(values: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """Each piece's values in the deck's order of its fields, as reprint.txt shows them (an entry
    stores them sorted: diff said an unnamed piece's #3［2・green］ for reprint's #3［green・2］); a
    field the order does not know after those it does, as stored."""
    rank = {f: i for i, f in enumerate(dict.fromkeys(order))}
    return {label: {f: v[f] for f in sorted(v, key=lambda f: rank.get(f, len(rank)))} if isinstance(v, dict) else v
            for label, v in values.items()}


def _about(v: Version, named: dict[str, int]) -> dict[str, Any]:
    return {"version": v.name, "tags": sorted(t for t, n in named.items() if n == v.number and is_tag_name(t)),
            "time": v.body["time"],
            "draft": v.body["draft"], "hash": v.hash, "written_here": v.here}


def _name(label: str) -> str:
    return label.split(":", 1)[1] if ":" in label else label


def markdown(d: dict[str, Any]) -> str:
    """The changelog for playtesters, in Markdown, in the game's language (messages/, ``diff.*``)."""
    lang = str(d.get("lang") or FALLBACK)

    def say(key: str, **args: object) -> str:
        return msg(f"diff.{key}", lang, **args)

    a, b = d["from"], d["to"]

    def named(v: dict[str, Any]) -> str:  # a tag the playtesters know the printed set by: playtest-1 (v3)
        return f"{', '.join(map(_md, v['tags']))} ({_md(v['version'])})" if v.get("tags") else _md(v["version"])
    out = [f"# {_md(d['game'])}: {named(a)} → {named(b)}", "",
           say("versions", a=_md(a["version"]), a_time=_md(a["time"]), a_draft=_md(a["draft"] or "-"),
               b=_md(b["version"]), b_time=_md(b["time"]), b_draft=_md(b["draft"] or "-")), ""]
    if not d["decks"] and not any(d["rulebook"].values()):
        out.append(say("nothing"))
    for deck_id, e in d["decks"].items():
        out += [f"## {_md(e['name'])} ({_md(deck_id)}): {e['count'][0]} → {e['count'][1]}", ""]
        out += _capped([*([say("renamed", old=_md(e["renamed_from"]), new=_md(deck_id))] if e.get("renamed_from") else []),
                        *([_resized(e, d["decks"], say)] if e.get("size") else []),
                        *(say("count", piece=_md(c["piece"]), old=c["old"], new=c["new"]) for c in e["counts"]),
                        *(say("field", piece=_md(f["piece"]), field=_md(place), old=_md(_show(old, lang)),
                              new=_md(_show(new, lang))) for f in e["fields"] for place, old, new in _places(f)),
                        *([say("back")] if e["back_changed"] else []),
                        *(say("added", piece=_md(p["piece"]), count=p["count"]) for p in e["added"]),
                        *(say("removed", piece=_md(p["piece"]), count=p["count"]) for p in e["removed"]),
                        *(say("picture", file=_md(p["file"]), pieces=", ".join(map(_md, p["pieces"])))
                          for p in e.get("pictures", [])),
                        *([say("every_face", n=len(e["faces"]))] if e.get("every_face_changed") else
                          (say("face", piece=_md(name)) for name in e["faces"])),
                        *([say("order")] if e.get("order_changed") else [])],
                       _md(deck_id), lang)
        out.append("")
    book = d["rulebook"]
    if any(book.values()):
        out += [say("rulebook"), ""]
        def section(s: str) -> str:
            return say("preamble") if s == PREAMBLE else _md(s)

        out += _capped([*(say("section_changed", section=section(s)) for s in book["changed"]),
                        *(say("section_added", section=section(s)) for s in book["added"]),
                        *(say("section_removed", section=section(s)) for s in book["removed"])],
                       say("the_rulebook"), lang)
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _resized(e: dict[str, Any], decks: dict[str, Any], say: Callable[..., str]) -> str:
    """The size line: old → new, and for a tuck box after its decks' count, whose and how many."""
    old, new = _mm(e["size"][0]), _mm(e["size"][1])
    held = e.get("follows")
    if not held:
        return say("size", old=old, new=new)
    names = ", ".join(_md(decks.get(d, {}).get("name") or d) for d in held["decks"])
    return say("size_follows", old=old, new=new, decks=names, a=held["old"], b=held["new"])


def _places(change: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """A table's change (a list of rows, a mapping) as the rows or keys that changed (``rows[3]``,
    counted from 1 as a table is read; ``stats.hp``), each old → new: a combat results table with
    one cell edited was its 60 cells quoted twice. A list of plain items (a row, a card's lines),
    and a list that grew or shrank, is quoted whole."""
    def walk(place: str, old: Any, new: Any):
        if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) \
                and any(isinstance(x, (list, dict)) for x in (*old, *new)):
            for i, (a, b) in enumerate(zip(old, new), 1):
                if a != b:
                    yield from walk(f"{place}[{i}]", a, b)
        elif isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
            for key in old:
                if old[key] != new[key]:
                    yield from walk(f"{place}.{key}", old[key], new[key])
        else:
            yield place, old, new
    return list(walk(change["field"], change["old"], change["new"])) or [(change["field"], change["old"], change["new"])]


def _mm(size: list[float]) -> str:
    return "×".join(f"{v:g}" for v in size)


SHOWN = 50  # lines of changes the changelog gives a deck (or the rulebook); the JSON lists them all


def _capped(lines: list[str], where: str, lang: str) -> list[str]:
    """A deck's lines of changes, the first ``SHOWN`` and one line saying how many more: a deck
    of 1,000 cards recounted is a changelog a playtester reads, not 1,000 lines."""
    if len(lines) <= SHOWN:
        return lines
    more = len(lines) - SHOWN
    return [*lines[:SHOWN], msg("diff.more_one" if more == 1 else "diff.more", lang, n=more, where=where)]


def _show(value: Any, lang: str) -> str:
    """A field's value as the changelog quotes it: a Japanese text in 「」, any other in “”
    (an English card's text in 「」 read oddly to an English playtester)."""
    if value is None:
        return msg("diff.none", lang)
    if isinstance(value, (list, tuple)):
        return quoted(as_text(value, lang))
    if not isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return quoted(value)


def _md(text: Any) -> str:
    """Text from the data as Markdown text, never markup: also ``&amp;`` (an entity, shown as &)
    and ``~~…~~`` (struck through on GitHub and Discord). Braces are no Markdown, and a card's
    ``{coin}`` read ``\\{coin\\}`` to a playtester reading the file as it is."""
    return re.sub(r"([\\`*_\[\]<>#|&~])", r"\\\1", str(text)).replace("\n", " ")


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
