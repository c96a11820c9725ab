"""A big pack of the build cache grows by what changed (engine/cache.py ``Cache.pack``,
``pack_entry``): an edit writes a *log* beside it (``<kind>.pack.log``: the records made or
changed since the pack was written whole, and the keys gone), not the pack again — a one-card edit
of 3,000 cards wrote some 31 MB of packs whole (docs/speed-rounds.md, records46). The log is sealed as a
pack is (HMAC-SHA256 under this machine's key) and names the pack it goes with by the pack's seal:
a log of another pack (one written before the pack was written whole again) is passed over, a torn
or tampered one refuses the pack (its records are made again). When the log would pass
``LOG_SHARE`` of the pack's size the pack is written whole again, with the log's records in it (and
the log removed in the same commit: ``Cache.stale_logs``). Packs under ``LOG_FROM`` bytes are
always written whole: a small file is cheaper written than merged.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Mapping
from typing import Any

from pnpgen.engine.fingerprint import code
from pnpgen.memo import Pack
from pnpgen.usercache import seal

LOG_FROM = 1 << 20
LOG_SHARE = 1 / 16
LOG_FORMAT = "log"
_ABSENT = object()  # (a record the pack does not hold)
Base = tuple[str, int, Mapping[str, Any]]  # a pack as its file holds it: its seal, size and records (``Pack.base``)


def record_key(line: bytes) -> str | None:
    """The key of a pack's line (``["key", value]``), read without decoding its value: the text
    between its first two quotes when that holds no escape (pnpgen writes ``", `` after it), else
    the whole line decoded; None for a line that is no ``[key, value]`` of a text key."""
    end = line.find(b'", ', 2) if line.startswith(b'["') else -1
    if end > 0 and b"\\" not in line[2:end] and b'"' not in line[2:end]:
        return line[2:end].decode()
    try:
        pair = json.loads(line)
    except ValueError:
        return None
    return pair[0] if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) else None


def _head(check: str, base: str, gone: list[str]) -> bytes:
    """A log's first line: the code it was made by, the seal of its records, the seal of the pack
    it goes with, and the keys of the pack's records gone since."""
    return json.dumps({"pnpgen": code(), "check": check, "base": base, "format": LOG_FORMAT, "gone": gone},
                      sort_keys=True, ensure_ascii=False).encode()


def merged(data: bytes | None, base: str, records: dict[str, Any], whole: bool) -> dict[str, Any] | None:
    """The pack's records (``records``, as its file holds them, sealed ``base``) with those of its
    log (``data``; ``whole``: a pack of one marshal value) put in: the records themselves when
    there is no log, or a log of another pack (passed over); None when the log is torn, tampered
    with or another pnpgen's (the pack is refused: made again). ValueError for a head not JSON."""
    if data is None:
        return records  # (no log)
    cut = data.find(b"\n")
    text = memoryview(data)[cut + 1:] if cut >= 0 else memoryview(b"")
    outer = json.loads(data[:cut] if cut >= 0 else data)
    if type(outer) is not dict or outer.get("base") != base:
        return records  # a log of the pack this one replaced: passed over (the next commit writes or removes it)
    gone = outer.get("gone")
    if outer.get("pnpgen") != code() or outer.get("check") != seal(text) or outer.get("format") != LOG_FORMAT \
            or type(gone) is not list or not all(type(k) is str for k in gone):
        return None
    out = dict(records)
    for key in gone:
        out.pop(key, None)
    if whole:
        made = marshal.loads(text)
        if type(made) is not dict or not all(type(k) is str for k in made):
            return None
        out.update(made)
        return out
    seen: set[str] = set()
    for line in data.split(b"\n")[1:] if len(text) else []:
        key = record_key(line)
        if key is None or key in seen:
            return None
        seen.add(key)
        out[key] = line
    return dict(sorted(out.items()))  # (by key, as a pack's lines are)


def of_values(values: dict[str, Any], base: Base | None, version: int) -> bytes | None:
    """The log of a pack of one value holding ``values`` (those not the very records, or equal
    ones, of the pack as written; the keys gone), or None when the pack is small or absent or the
    log would pass ``LOG_SHARE`` of it."""
    if base is None or base[1] < LOG_FROM:
        return None
    seal_of, size, records = base
    made = {key: value for key, value in values.items()
            if (was := records.get(key, _ABSENT)) is not value and was != value}
    log = marshal.dumps(made, version)
    gone = [key for key in records if key not in values]
    if len(log) + 40 * len(gone) > size * LOG_SHARE:
        return None
    return _head(seal(log), seal_of, gone) + b"\n" + log


def of_lines(records: Mapping[str, Any], read: Pack) -> bytes | None:
    """The log of a pack of lines holding ``records`` (its lines not those of the pack as
    written, and the pack's keys gone), or None when the pack is small or absent or the log would
    pass ``LOG_SHARE`` of it. A record given as bytes is its line as read (``Pack.line``)."""
    if read.base is None or read.base[1] < LOG_FROM:
        return None
    seal_of, size, base = read.base
    limit = size * LOG_SHARE
    made: list[bytes] = []
    length = 0
    for key in sorted(records):
        value = records[key]
        line = value if isinstance(value, bytes) else read.as_read(key, value) if key in read else None
        if line is None:
            line = json.dumps([key, value], sort_keys=True, ensure_ascii=False).encode()
        was = base.get(key)
        if was is line or was == line:
            continue
        made.append(line)
        length += len(line) + 1
        if length > limit:
            return None
    gone = [key for key in base if key not in records]
    if length + 40 * len(gone) > limit:
        return None
    body = b"\n".join(made)
    return _head(seal(body), seal_of, gone) + b"\n" + body
