"""A good build's version recorded in the history (engine/history.py): what it holds, its
draft's sections and the hash of its content, the versions pruned; and what a build says of the
history before it records one: the draft's change line, the reprint file's last line."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pnpgen.data.draftfile import draft_for
from pnpgen.data.draftlines import DraftLines
from pnpgen.data.gamefiles import figure_pictures, rulebook_raw
from pnpgen.data.textfile import MAX_DRAFT_BYTES
from pnpgen.data.textfile import decode as decode_text
from pnpgen.engine.history import FORMAT, Version, encode, entry_numbers, is_tag_name, path, sha, tags
from pnpgen.errors import InputError
from pnpgen.messages import msg

KEEP = 50  # versions kept per game (and --lang edition)


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
    numbers = entry_numbers(out_root, edition)
    named = {name: n for name, n in tags(out_root, edition).items() if is_tag_name(name) and n in numbers}
    if not named:  # the previous build compared with, and one before it to name: else it says nothing new
        return msg("reprint.since_any", lang, command=command) if len(numbers) > 1 else ""
    tag = max(named, key=lambda name: (named[name], name))
    if numbers and named[tag] >= numbers[-1]:
        return ""  # the tagged version is the last build's: the file holds every change since it
    return msg("reprint.since_tag", lang, command=f"{command} --since {tag}", tag=tag)


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
            out[title or PREAMBLE] = sha("\n".join(lines))[:12]

    for line in every:
        opened = heading(line)
        if opened is None:
            lines.append(line)
        else:
            close()
            title, lines = opened, []
    close()
    return out


# the key, beside the draft's sections, of what else in game.yaml the book is set from: its
# rulebook: settings (figures and captions, cover, edition, colophon) and the pictures its figures
# show. A figure replaced is a change of the book, said and recorded as a section's edit is
# (trial72: the build wrote the book anew, said no change, recorded no version; diff was silent).
SETTINGS = "(game.yaml rulebook:)"
SETTINGS_SAID = "game.yaml's rulebook:"  # as the build's change line names it


def book_sections(game) -> dict[str, str]:
    """What a version records of the rulebook: the draft's sections (``sections``) and ``SETTINGS``."""
    out = sections(_draft_text(_draft_of(game)))
    digest = hashlib.sha256(json.dumps(rulebook_raw(game), ensure_ascii=False, sort_keys=True, default=str).encode())
    for picture in figure_pictures(game):
        digest.update(b"\0" + hashlib.sha256(picture.read_bytes()).digest())
    out[SETTINGS] = digest.hexdigest()[:12]
    return out


def compared(before: dict[str, str], now: dict[str, str]) -> tuple[list[str], list[str], list[str]]:
    """The rulebook's sections changed, added and removed between two versions' records. A version
    recorded before ``SETTINGS`` was (its key absent) says nothing of it: not "added"."""
    return ([s for s in now if s in before and before[s] != now[s]],
            [s for s in now if s not in before and s != SETTINGS], [s for s in before if s not in now])


def content_hash(decks: dict[str, Any], rulebook: dict[str, str], draft: str) -> str:
    """What the version's printed pieces and rulebook are made of: the same hash, the same game."""
    faces = {d: {"pieces": v["pieces"], "values": v["values"]} for d, v in decks.items()}
    return sha(json.dumps([faces, rulebook, draft], ensure_ascii=False, sort_keys=True))[:12]


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
    before, now = last.body.get("rulebook") or {}, book_sections(game)
    if not isinstance(before, dict):
        return ""
    changed, added, removed = compared(before, now)
    said = [f"{SETTINGS_SAID if s == SETTINGS else s} {how}"
            for found, how in ((changed, "changed"), (added, "added"), (removed, "removed")) for s in found]
    if not said:
        return ""
    if len(said) > 4:
        said = [*said[:3], f"{len(said) - 3} more sections"]
    drafts = f"draft {last.body.get('draft')} → {game.draft}" if str(last.body.get("draft")) != str(game.draft) \
        else f"draft {game.draft}"
    return f"rulebook: {drafts} ({', '.join(said)})"


def home_layout(sheet) -> dict[str, Any]:
    """The home sheets' layout as a version records it (not in the hash): ``{"layout": "fold"}``,
    ``{"layout": "sleeve", "sleeve_mm": [66, 91]}`` (None: the card's trim + 3 mm), or the grid;
    a reprint since that version is laid out so unless told otherwise, its copies printed on the
    printer that version's sheets were laid out for (a fold-over build's for one without duplex)."""
    if sheet.layout == "sleeve":
        return {"layout": "sleeve", "sleeve_mm": list(sheet.sleeve_mm) if sheet.sleeve_mm else None}
    return {"layout": sheet.layout}


def record(out_root: Path, edition: str, game, snapshot: dict[str, Any], last: Version | None,
           now: datetime | None = None, layout: dict[str, Any] | None = None) -> tuple[dict[Path, bytes], list[Path]]:
    """The entry to write for a good build (none when its content is that of the last version,
    ``last``: the build's ``last_version``, read once), and the entries to remove so that at most
    ``KEEP`` remain (oldest first, tagged ones kept). ``layout``: how the build laid its home sheets
    out (``home_layout``), which ``reprint --since`` takes when not told another."""
    rulebook = book_sections(game)
    decks = {d: {**{k: v[k] for k in ("name", "count", "pieces", "values", "pairs", "size", "follows", "art", "grounds",
                                         "translated")
                    if k in v},
                 "field_order": list(dict.fromkeys(f for values in v["values"].values() for f in values))}
             for d, v in snapshot.items()}  # (the entry's keys are sorted: the deck's order of its fields kept apart)
    digest = content_hash(decks, rulebook, str(game.draft))
    if last is not None and last.hash == digest:
        return {}, []
    # (past a link planted in an entry's name, v00002.json -> a file outside: the commit replaced it)
    number = max(entry_numbers(out_root, edition, links=True), default=0) + 1
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    body = {"format": FORMAT, "number": number, "time": when, "game": game.slug, "lang": game.lang, "draft": str(game.draft),
            "hash": digest, "counts": {d: v["count"] for d, v in decks.items()}, "decks": decks, "rulebook": rulebook,
            # the printer profile its home sheets were drawn for (not in the hash): reprint --since's default
            "printer": next((v.get("printer") for v in snapshot.values()), None),
            # each spreadsheet deck's headers in the sheet's own words (not in the hash: a header renamed
            # changes no piece): pnpgen diff names a changed field by its column, 攻撃, not atk
            **({"headers": headers} if (headers := {d: v["headers"] for d, v in snapshot.items() if v.get("headers")}) else {}),
            # each piece's deck file and line (not in the hash: a line added above moves no piece): pnpgen
            # diff names a piece no value tells apart by it, cards.yaml:41, not its number in the deck
            **({"places": places} if (places := {d: v["places"] for d, v in snapshot.items() if v.get("places")}) else {}),
            # each deck's options: (not in the hash: an edit of them that changes no piece is no version):
            # pnpgen diff names an option edited, old → new, not its faces as redrawn
            "options": {d: v.get("options", {}) for d, v in snapshot.items()},
            # the card text's fonts (not in the hash): pnpgen diff names a font changed, not faces as redrawn
            **({"fonts": fonts} if (fonts := next((v.get("fonts") for v in snapshot.values()), None)) else {}),
            # a tiled board's pages' signatures (not in the hash: they follow its faces): reprint --since
            # reprints the tiles whose part of the board changed, as the build's change report does
            **({"tile_pages": tile_pages} if (tile_pages := {d: v["pages"] for d, v in snapshot.items()
                                                            if v.get("tiled") and v.get("pages")}) else {}),
            **({"layout": layout} if layout is not None else {})}
    kept = set(tags(out_root, edition).values())
    old = [n for n in entry_numbers(out_root, edition) if n not in kept]
    gone = old[:max(0, len(old) + 1 - KEEP)]
    return {path(out_root, edition, number): encode(body, edition)}, [path(out_root, edition, n) for n in gone]
