"""Answers remembered between builds: the one known/learned/used memo every stage is handed.

A slow answer that depends only on its key (a nesting search, an index term's reading, a
rendered face, a compiled template) is looked up in a ``Memo`` the caller passes down: ``known``
holds what earlier builds found (read from the build cache), ``learned`` what this build had to
work out (for the cache to write), ``used`` every key asked for (what the cache's pruning keeps).
The stage that computes never reads or writes a module global to share it; the engine loads the
memo from the cache, hands it down and writes back what it learned.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISLNK
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass(eq=False)
class Memo(Generic[V]):
    """What earlier builds found (``known``), what this one found (``learned``) and every key
    asked for (``used``)."""

    known: dict[str, V] = field(default_factory=dict)
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
        return {**{k: v for k, v in self.known.items() if k in self.used}, **self.learned}


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
