"""Answers remembered between builds: the one known/learned/used memo every stage is handed.

A slow answer that depends only on its key (a nesting search, an index term's reading, a
rendered face, a compiled template) is looked up in a ``Memo`` the caller passes down: ``known``
holds what earlier builds found (read from the build cache), ``learned`` what this build had to
work out (for the cache to write), ``used`` every key asked for (what the cache's pruning keeps).
The stage that computes never reads or writes a module global to share it; the engine loads the
memo from the cache, hands it down and writes back what it learned.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISLNK
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


@dataclass(eq=False)
class Memo(Generic[V]):
    """What earlier builds found (``known``), what this one found (``learned``) and every key
    asked for (``used``)."""

    known: Mapping[str, V] = field(default_factory=dict)  # (a ``Pack``: each record decoded when asked for)
    learned: dict[str, V] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)

    def get(self, key: str) -> V | None:
        """The answer found before (by an earlier build or by this one), or None; the key is
        recorded as used either way."""
        self.used.add(key)
        if key in self.learned:
            return self.learned[key]
        return self.known.get(key)

    def learn(self, key: str, value: V) -> V:
        """Remember an answer this build worked out; returns it."""
        self.used.add(key)
        self.learned[key] = value
        return value

    def kept(self) -> dict[str, V] | None:
        """What the cache keeps after this build — the answers asked for and the ones worked out —,
        or None when that is what it held (nothing new, nothing left unasked)."""
        if not self.learned and self.used.issuperset(self.known):
            return None
        kept = {}
        for key in self.used - self.learned.keys():  # (only what was asked for: the rest is never decoded)
            value = self.known.get(key)
            if value is not None:
                kept[key] = value
        return {**kept, **self.learned}


class Pack(Mapping[str, Any]):
    """The records of one of the build cache's packs (engine/cache.py ``Cache.pack``): each
    record's line (``[key, value]`` in JSON) as read, the whole file checked by its seal when
    read, each value decoded only when it is asked for. An edit of a thousand cards reads the
    file, but decodes only the records its build uses, and writes the others back as their lines.

    ``keep``: a value decoded is kept (asked again, the same object: ``Cache.pack_entry`` writes it
    back as its line); else decoded on each ask and never held here (the caller keeps what it
    needs, and the line for writing it back: ``line``). A line that is not ``[key, value]`` —
    which no pnpgen writes, and the seal vouches for — is a record not held: asking for it finds
    nothing (its answer is made again), ``items`` leaves it out."""

    def __init__(self, lines: dict[str, bytes] | None = None, keep: bool = True, values: dict[str, Any] | None = None):
        self.lines = lines if lines is not None else {}
        self.keep = keep
        self._values: dict[str, Any] = {}
        # ``values``: a pack read whole with one decode (engine/cache.py ``WHOLE``): every record
        # already a value, no line kept; asking for one decodes nothing
        self.whole = values is not None
        # the pack as its file holds it, when read from one with a log beside it or none: its seal,
        # its size and its records (lines, or values) — what an edit's log is made against
        self.base: tuple[str, int, Mapping[str, Any]] | None = None
        if values is not None:
            self._values = values
            self.lines = values  # type: ignore[assignment]  # (its keys: iterated, counted, looked in)

    def __getitem__(self, key: str) -> Any:
        if self.whole:
            return self._values[key]
        value = self._values.get(key)
        if value is not None:
            return value
        line = self.lines[key]
        try:
            pair = json.loads(line)
        except ValueError:
            raise KeyError(key) from None
        if not (isinstance(pair, list) and len(pair) == 2 and pair[0] == key):
            raise KeyError(key)
        if self.keep:
            self._values[key] = pair[1]
        return pair[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def __contains__(self, key: object) -> bool:
        return key in self.lines

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]  # (a mapping: compared by its records)

    def items(self) -> Iterator[tuple[str, Any]]:  # type: ignore[override]
        """Every record held, decoded (a line that is no record left out)."""
        for key in self.lines:
            try:
                yield key, self[key]
            except KeyError:
                continue

    def line(self, key: str) -> bytes:
        """The record's line as read: written back as it is by ``Cache.pack_entry``."""
        if self.whole:
            return pack_line(key, json.dumps(self[key], sort_keys=True, ensure_ascii=False).encode())
        return self.lines[key]

    def as_read(self, key: str, value: Any) -> bytes | None:
        """The line ``value`` was decoded from, when it is the very object decoded (values read
        from a pack are never changed in place); else None (always, for a pack read whole)."""
        known = self._values.get(key)
        return self.lines[key] if known is not None and known is value and not self.whole else None

    def is_read(self, key: str, value: Any) -> bool:
        """Is ``value`` the very object read for ``key`` (values read are never changed in place)?"""
        known = self._values.get(key)
        return known is not None and known is value

    def let_go(self) -> None:
        """Forget the values decoded (their lines stay; a pack read whole keeps them: they are its records)."""
        if not self.whole:
            self._values.clear()


def pack_line(key: str, text: bytes) -> bytes:
    """The line of the record ``key`` whose value is the JSON ``text``, as ``Pack`` reads it
    (``[key, value]``), made without decoding ``text`` and encoding it again (a converted face's
    record, ``ArtRecord.text``: a thousand cards' faces' pack, decoded and encoded again, took
    0.034 CPU-s of the build's own thread between converting and the documents, 0.003 so)."""
    return b"[" + json.dumps(key, ensure_ascii=False).encode() + b", " + text + b"]"


class Unpacked(MutableMapping[K, V]):
    """A mapping some of whose values are still records as read (``waiting``: key → record), each
    made into its value by ``unpack`` when first looked up: an edit of a thousand cards places
    the few faces and pages it changed, and the others' records are never decoded, only written
    back (``waiting``). A record ``unpack`` finds malformed (None) is not held: looking it up
    finds nothing (its value is made again), ``items`` leaves it out. Membership and keys need
    no record unpacked."""

    def __init__(self, unpacked: Mapping[K, V] | None = None, waiting: Mapping[K, Any] | None = None,
                 unpack: Callable[[K, Any], V | None] | None = None):
        self.unpacked: dict[K, V] = dict(unpacked or {})
        self.waiting: dict[K, Any] = dict(waiting or {})
        self.unpack = unpack

    def __getitem__(self, key: K) -> V:
        if key in self.unpacked:
            return self.unpacked[key]
        record = self.waiting.pop(key)  # (KeyError: not held)
        value = self.unpack(key, record) if self.unpack is not None else None
        if value is None:
            raise KeyError(key)
        self.unpacked[key] = value
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self.waiting.pop(key, None)
        self.unpacked[key] = value

    def __delitem__(self, key: K) -> None:
        if key in self.waiting:
            del self.waiting[key]
        else:
            del self.unpacked[key]

    def __contains__(self, key: object) -> bool:
        return key in self.unpacked or key in self.waiting

    def __iter__(self) -> Iterator[K]:
        return iter([*self.unpacked, *self.waiting])  # (a list: looking a key up moves it)

    def __len__(self) -> int:
        return len(self.unpacked) + len(self.waiting)

    def items(self) -> Iterator[tuple[K, V]]:  # type: ignore[override]
        """Every value held, each record unpacked (a malformed one left out)."""
        for key in self:
            try:
                yield key, self[key]
            except KeyError:
                continue

    def values(self) -> Iterator[V]:  # type: ignore[override]
        """Every value held, each record unpacked (a malformed one left out)."""
        return (value for _, value in self.items())

    def only(self, keys: Collection[K]) -> Unpacked[K, V]:
        """The values and records of ``keys`` alone, none unpacked."""
        return Unpacked({k: v for k, v in self.unpacked.items() if k in keys},
                        {k: r for k, r in self.waiting.items() if k in keys}, self.unpack)


@dataclass(eq=False)
class Stamps:
    """Each file's stat (size, times, inode) as this build first asked the disk for it: one build
    asked for each of a thousand cards' art files some fifteen times (listing art/, finding each
    name twice, hashing it for its size, its render, its faces). Made afresh for each build (a
    ``Cache``'s), never kept between builds: what a build checks after writing (a file saved while
    it ran) asks the disk again."""

    seen: dict[Path, os.stat_result] = field(default_factory=dict)  # through links (stat)
    looked: dict[Path, os.stat_result] = field(default_factory=dict)  # the name itself (lstat)
    # (art/, a name) → the file it names, found by this build (data/art.py ``ArtFolder``): a deck's
    # field and its template's image() find the same thousand names
    found: dict[tuple[Path, str], Path] = field(default_factory=dict)
    # a folder's plain files (no link) by their names, as the run's check listed them (engine/fingerprint.py
    # ``_scan``): a card's picture named by its folder and name is that path, its stat known, not a new
    # path made and hashed for each of 3,000 cards (errors.py ``file_right_in``)
    listed: dict[Path, dict[str, Path]] = field(default_factory=dict)

    def of(self, path: Path) -> os.stat_result:
        """``path.stat()``, asked once per build (an OSError is raised each time, never kept); a
        file already looked at that is no link is not asked again."""
        st = self.seen.get(path)
        if st is None:
            itself = self.looked.get(path)
            st = self.seen[path] = itself if itself is not None and not S_ISLNK(itself.st_mode) else path.stat()
        return st

    def itself(self, path: Path) -> os.stat_result:
        """``path.lstat()``, asked once per build."""
        st = self.looked.get(path)
        if st is None:
            st = self.looked[path] = path.lstat()
        return st

    def is_link(self, path: Path) -> bool:
        """``os.path.islink(path)``, asked once per build."""
        try:
            return S_ISLNK(self.itself(path).st_mode)
        except (OSError, ValueError):
            return False
