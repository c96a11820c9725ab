"""A version as the designer names it (``pnpgen diff``, ``tag``, ``reprint --since``): v12, a
tag, latest, previous, the start of its hash; and a tag given to one, the history's tags file
written again."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pnpgen.engine.history import Version, entry_numbers, folder, path, read_tags, refuse_links, tags, versions
from pnpgen.errors import InputError, suggest
from pnpgen.safetext import clipped


def resolve(out_root: Path, edition: str, spec: str) -> Version:
    """A version by ``v12`` or ``12``, a tag, ``latest``, ``previous`` or a prefix of its hash."""
    known = versions(out_root, edition)
    damaged = [n for n in entry_numbers(out_root, edition) if n not in {v.number for v in known}]
    if not known and damaged:  # (every entry on disk damaged)
        meant = tags(out_root, edition).get(spec) or _number(spec)
        raise _damaged(out_root, edition, meant if meant in damaged else damaged[-1], known, {},
                       f"version {spec!r}" if meant in damaged else
                       f"every recorded version of {edition!r} (the latest, v{damaged[-1]}, at this file)")
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
    if number is not None and number in damaged:
        raise _damaged(out_root, edition, number, known, named, f"tag {spec!r} names v{number}, which")
    if number is not None and number not in by_number:
        raise InputError(f"tag {spec!r} names v{number}, which the history does not hold (removed or damaged)",
                         path=folder(out_root, edition) / "tags.json", key="version",
                         expected=_which(known, named))
    if number is None:
        number = _number(spec)
    if number in by_number:
        return by_number[number]
    if number in damaged:
        raise _damaged(out_root, edition, number, known, named, f"version {spec!r}")
    by_hash = [v for v in known if len(spec) >= 4 and v.hash.startswith(spec.lstrip("#"))]
    if len(by_hash) == 1:
        return by_hash[0]
    # the history read named: each output folder keeps its own (a tag made in build/ is not in a --out's)
    # a tag mistyped (playtest1 for playtest-1) is offered the one meant, as a mistyped game or deck is;
    # not one of another number (playtest-2, not made yet, is no slip of playtest-1's: the copies differ)
    near = suggest(spec, [*named, "latest", "previous"])
    if near and re.sub(r"\d", "", spec) == re.sub(r"\d", "", near.removeprefix("; did you mean ").removesuffix("?")):
        near = ""
    raise InputError(f"no version {clipped(spec)!r}{near}", path=folder(out_root, edition), key="version",
                     expected=_which(known, named))


# A version's number as a designer types it, v12 or 12: at most as many digits as a history could
# hold versions (v00012 is how its files are named); a longer run of digits is no version of it (5,000
# digits stopped Python's int() with a ValueError, a traceback, past its 4,300-digit limit)
_VERSION_NUMBER = re.compile(r"v?0*(\d{1,12})")


def _number(spec: str) -> int | None:
    """The number ``v12`` or ``12`` names, or None for any other name (a tag, latest, a hash)."""
    m = _VERSION_NUMBER.fullmatch(spec)
    return int(m.group(1)) if m else None


def _damaged(out_root: Path, edition: str, number: int, known: list[Version], named: dict[str, int],
             said: str) -> InputError:
    """A version whose entry is on disk but damaged: changed after pnpgen wrote it (by hand, an
    editor, a sync tool), its check no longer its text's, or not what pnpgen writes; told at its file."""
    others = f"; or another version: {_which(known, named)}" if known else ""
    return InputError(f"{said} is damaged: its file is not as pnpgen wrote it (changed by hand or by another "
                      "program: its check no longer matches), so it is not read", path=path(out_root, edition, number), key="version",
                      expected="the file as pnpgen wrote it, restored from a backup (a version's entry is never "
                      f"edited), or the file deleted, the version then gone{others}")


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
    named = read_tags(out_root, edition)
    if named is None and (where / "tags.json").is_symlink():  # (it said "damaged (not names of versions)")
        raise InputError("the tags file is a link, which pnpgen never writes: not read, nor written through",
                         path=where / "tags.json", expected="tags.json a file of this folder (the link removed, or the file it leads to copied in its place)")
    if named is None:
        raise InputError("the tags file is damaged (not names of versions): a new tag would lose the others",
                         path=where / "tags.json",
                         expected='{"name": version number, …} as pnpgen writes it, or the file removed')
    named[name] = version.number
    return (json.dumps(named, ensure_ascii=False, sort_keys=True, indent=1) + "\n").encode()
