"""What the last build wrote, for a run with no machine key (``PNPGEN_CACHE=off``).

A game's state in ``<out>/.cache/`` is sealed under a key of the running process's own when the
machine keeps no key (usercache.py), so the next run cannot read it: the outputs of a deck renamed
since (``cards`` → ``monsters``, ``Cards`` → ``cards``) stayed beside the new ones. This record,
``<out>/.cache/written``, written after each commit, names every file a game's build wrote with
its hash and the file's device, inode and change time — numbers a folder unpacked from a zip, a
clone or a shared drive gets anew, which no one packing it could know; the change time because a
file made after one was deleted may get its inode number back at once (ext4), but never its change
time, which the kernel sets as a file is made and no call sets back. The next run removes a file
of the last build it no longer makes only while that very file (the same inode and change time)
still holds the bytes it wrote: a file a designer put in its place, or edited, is another file or
other bytes, and stays (an entry of the earlier record, without the change time, is not read: its
file stays too). Without a key
nothing else of the record is trusted (not the change report, nor what is up to date)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from pnpgen.atomic import read_record
from pnpgen.engine.output import atomic_write_bytes
from pnpgen.engine.state import as_written, plain_file, safe_rel

# <out>/.cache/written: {"<game folder>": {"<file>": [device, inode, change time (ns), digest, segments' lengths or null]}}
RECORD = "written"


def _path(out_root: Path) -> Path:
    return out_root / ".cache" / RECORD


def _read(out_root: Path) -> dict:
    try:
        record = json.loads(read_record(_path(out_root)))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def written_before(out_root: Path, out_dir: Path) -> dict[str, str]:
    """The files (name → hash) the last build of ``out_dir`` wrote that are still the very files it
    wrote: the same inode of the same device and change time, holding the bytes it recorded."""
    below = out_dir.relative_to(out_root).as_posix()
    entries = _read(out_root).get(below)
    if not isinstance(entries, dict):
        return {}
    out: dict[str, str] = {}
    for rel, entry in entries.items():
        if not (safe_rel(rel) and isinstance(entry, list) and len(entry) == 5 and isinstance(entry[3], str)):
            continue
        layout = entry[4]
        if layout is not None and not (isinstance(layout, list) and all(type(n) is int and n >= 0 for n in layout)):
            continue
        found = plain_file(out_dir, rel)
        if found is not None and [found[1].st_dev, found[1].st_ino, found[1].st_ctime_ns] == entry[:3] \
                and as_written(out_dir, rel, entry[3], layout=tuple(layout) if layout is not None else None):
            out[rel] = entry[3]
    return out


def written_names(out_root: Path, out_dir: Path) -> set[str] | None:
    """The names the record says the last build of ``out_dir`` wrote (None: no record of one), as
    they are now or not: a file at another name there is not pnpgen's (engine/run.py)."""
    entries = _read(out_root).get(out_dir.relative_to(out_root).as_posix())
    return {rel for rel in entries if safe_rel(rel)} if isinstance(entries, dict) else None


def note_written(out_root: Path, games: Iterable[tuple[Path, Mapping[str, tuple[str, list[int] | None]]]]) -> None:
    """After the commit: each built game folder's files (name → hash, and a big document's
    segments: ``GameOutcome.wrote``) with their device, inode and change time, replacing that folder's entry of
    the record (other games' stay)."""
    record = _read(out_root)
    for out_dir, files in games:
        entries = {}
        for rel, (digest, layout) in sorted(files.items()):
            found = plain_file(out_dir, rel)
            if found is not None:
                entries[rel] = [found[1].st_dev, found[1].st_ino, found[1].st_ctime_ns, digest, layout]
        record[out_dir.relative_to(out_root).as_posix()] = entries
    if _path(out_root).parent.is_dir() and not os.path.islink(_path(out_root).parent):
        atomic_write_bytes(_path(out_root), json.dumps(record, ensure_ascii=False, sort_keys=True).encode())
