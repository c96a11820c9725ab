"""What the preview keeps of the pictures it drew: the PNGs within a budget of bytes, the least
recently asked for dropped first (drawn again when asked for: the same bytes, from the same
page of the same file), and the build's PDFs kept open, the least recently used closed first,
and each once it has drawn as many pages as it may while open (``Open.uses``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Container
from typing import Generic, TypeVar

# The bytes of PNG the preview keeps (fixed, not an option): with no bound every picture drawn
# stayed in memory, a 1,000-card illustrated deck paged through grew the server by the PNGs'
# bytes and their overhead (docs/playtest.md). 64 MB is some 700 illustrated faces at 260 px,
# five panes of 120 faces and their backs; text faces are ~5 KB each.
PICTURE_BYTES = 64 * 1024 * 1024
# The build's PDFs open in PDFium at once: the shop file of each deck, its sheets' files, the
# rulebook. One more opened closes the least used.
OPEN_PDFS = 8
# The pages an open PDF draws before it is closed (and opened again for its next picture): PDFium
# keeps what it read of each page drawn (its pictures' streams, its objects) until the document
# closes, some 0.15 MB a face of bench/big_deck.py's shop file (400 faces drawn: 20 → 80 MB of
# the process, all freed by its closing: 24 MB after malloc_trim). Opening it again costs one walk of its page list
# (0.25 s on a 20,000-page file), once every this many pictures.
PAGES_PER_OPEN = 200
# The same for a file of home sheets (a deck's <deck>.pdf, the rulebook): a page draws a sheet of
# faces, each of whose pictures PDFium keeps: paging through the 446 sheet pictures of
# bench/big_deck.py's 1,000 illustrated cards grew the process by 152 MB (to 261 MB) at 200, by
# 65 MB (to 119 MB) at 20, the same PNG bytes (docs/playtest.md).
SHEETS_PER_OPEN = 20

V = TypeVar("V")


class Budgeted:
    """PNG bytes by picture id, at most ``budget`` bytes of them, the least recently used dropped
    first; a picture larger than the budget is given but not kept. Safe across the server's threads."""

    def __init__(self, budget: int = PICTURE_BYTES):
        self.budget = budget
        self.held = 0  # the bytes kept now
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: str) -> bytes | None:
        with self._lock:
            data = self._items.get(key)
            if data is not None:
                self._items.move_to_end(key)
            return data

    def put(self, key: str, data: bytes) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            self.held -= len(old) if old is not None else 0
            if len(data) > self.budget:
                return
            self._items[key] = data
            self.held += len(data)
            while self.held > self.budget:
                _, dropped = self._items.popitem(last=False)
                self.held -= len(dropped)

    def keep_only(self, keys: Container[str]) -> None:
        """Drop every picture whose id is not in ``keys`` (a save's build no longer shows it)."""
        with self._lock:
            for key in [k for k in self._items if k not in keys]:
                self.held -= len(self._items.pop(key))


class Open(Generic[V]):
    """At most ``limit`` open things by key, the least recently used closed by ``close`` when one
    more is opened, and each closed once it has been ``used`` ``uses`` times (what it holds
    since it was opened let go). Not locked: its caller holds the lock its things need (``PDFIUM``)."""

    def __init__(self, close: Callable[[V], None], limit: int = OPEN_PDFS, uses: int = PAGES_PER_OPEN):
        self.limit, self.close, self.uses = limit, close, uses
        self._items: OrderedDict[str, V] = OrderedDict()
        self._used: dict[str, int] = {}  # how many times each was used since it was opened
        self._uses: dict[str, int] = {}  # how many uses each is closed after

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> V | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: str, item: V, uses: int | None = None) -> None:
        """``item`` open under ``key``, closed once used ``uses`` times (default: the ``uses`` given
        at first)."""
        self._items[key] = item
        self._items.move_to_end(key)
        self._used[key] = 0
        self._uses[key] = self.uses if uses is None else uses
        while len(self._items) > self.limit:
            self._drop(next(iter(self._items)))

    def used(self, key: str) -> None:
        """``key``'s thing used once more: closed once used ``uses`` times since it was opened."""
        if key in self._items:
            self._used[key] += 1
            if self._used[key] >= self._uses[key]:
                self._drop(key)

    def keep_only(self, keys: Container[str]) -> None:
        """Close every one whose key is not in ``keys``."""
        for key in [k for k in self._items if k not in keys]:
            self._drop(key)

    def _drop(self, key: str) -> None:
        self._used.pop(key, None)
        self._uses.pop(key, None)
        self.close(self._items.pop(key))
