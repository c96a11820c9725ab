"""Answers remembered between builds: the one known/learned/used memo every stage is handed.

A slow answer that depends only on its key (a nesting search, an index term's reading, a
rendered face, a compiled template) is looked up in a ``Memo`` the caller passes down: ``known``
holds what earlier builds found (read from the build cache), ``learned`` what this build had to
work out (for the cache to write), ``used`` every key asked for (what the cache's pruning keeps).
The stage that computes never reads or writes a module global to share it; the engine loads the
memo from the cache, hands it down and writes back what it learned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
