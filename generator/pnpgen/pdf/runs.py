"""A page's objects kept as a run of bytes, so that a later build copies the pages an edit did not
change from the file it wrote last, rather than serialising them again (issue 22).

The writer (pdf/writer.py) writes each page as one run of objects numbered one after the other:
the forms of the faces it shows first, its patterns and layers, its contents, the page itself.
Those bytes follow from the page's drawing (its digest), the faces it places (each by what it is
made from, and its form's number when an earlier page numbered it), the number of its first
object, its page tree, and the numbers of the fonts, pictures, patterns and layers named before
it — the last kept as a *chain*: a hash of every such name the document has numbered so far
(``advance``). A text edit numbers no other font, picture or pattern than before, so every page
after the edited one has the key it had in the last build. A count edit moves the pages after it
to other numbers: their keys are new, and they are written.

Each run's key, its place in the file written (offset and each object's length), the SHA-256 of
its bytes and what it numbered (``delta``) are kept in a sealed pack of the cache by the engine;
``Runs.take`` reads a run from the last build's file and hands it over only when its bytes are the
ones recorded: a damaged, stale or foreign file is never copied from.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

TAG = b"pnpgen runs 1\0"  # change with what a run's bytes follow from
KINDS = ("form", "paint", "layer")  # what a run may number and still be copied (each written in the run)
START = hashlib.sha256(TAG).digest()
BLOCK = 1 << 20  # bytes read at a time from the last build's file


@dataclass(frozen=True)
class Run:
    """Where the last build wrote a run: its file, offset, each object's length, the SHA-256 of
    its bytes (hex), and what it numbered, as (kind, name, object number)."""

    path: str
    offset: int
    lengths: tuple[int, ...]
    sha: str
    delta: tuple[tuple[str, str, int], ...]


def advance(chain: bytes, numbered: Iterable[tuple[str, str, int]]) -> bytes:
    """The chain after a page that numbered ``numbered`` (kind, name, object number)."""
    items = list(numbered)
    if not items:
        return chain
    return hashlib.sha256(chain + repr(items).encode()).digest()


def run_key(chain: bytes, start: int, cmyk: bool, parent: int, digest: bytes, faces: Iterable[tuple[str, int]]) -> str:
    """The key of a page's run: what its bytes follow from (the module's docstring)."""
    return hashlib.sha256(b"".join((TAG, chain, digest, repr((start, cmyk, parent, *faces)).encode()))).hexdigest()[:32]


@dataclass
class Runs:
    """The runs of the last build's documents by key (``known``), read from their files when a
    page of this build has the same key: the files opened once each, read a block at a time (the
    runs of consecutive pages follow one another in the file)."""

    known: Mapping[str, Run] = field(default_factory=dict)
    _open: dict[str, int | None] = field(default_factory=dict)
    _block: tuple[str, int, bytes] = ("", 0, b"")  # the last block read: its file, offset, bytes

    def take(self, key: str) -> tuple[list[bytes], Run] | None:
        """The objects' bytes of the run of ``key`` and the run, when its file still holds exactly
        the bytes recorded; else None (the page is written)."""
        run = self.known.get(key)
        if run is None:
            return None
        size = sum(run.lengths)
        path, at, block = self._block
        if path != run.path or not at <= run.offset <= run.offset + size <= at + len(block):
            fd = self._file(run.path)
            if fd is None:
                return None
            try:
                block = os.pread(fd, max(size, BLOCK), run.offset)
            except OSError:
                return None
            path, at = run.path, run.offset
            self._block = (path, at, block)
        data = memoryview(block)[run.offset - at:run.offset - at + size]
        if len(data) != size or hashlib.sha256(data).hexdigest() != run.sha:
            return None
        bodies, here = [], run.offset - at
        for n in run.lengths:
            bodies.append(block[here:here + n])
            here += n
        return bodies, run

    def _file(self, path: str) -> int | None:
        if path not in self._open:
            fd: int | None = None
            try:
                fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    os.close(fd)
                    fd = None
            except OSError:
                fd = None
            self._open[path] = fd
        return self._open[path]

    def close(self) -> None:
        for fd in self._open.values():
            if fd is not None:
                os.close(fd)
        self._open.clear()
        self._block = ("", 0, b"")


def recorded(runs: Iterable[tuple[str, list[bytes], int, tuple, Run | None]]) -> list:
    """The record of a written file's runs, each given as (key, its objects' bytes, its offset,
    what it numbered, the last build's run it was copied from): ``[key, offset, [lengths], sha,
    [[kind, name, number], …]]`` each, as ``from_record`` reads them."""
    return [[key, offset, list(copied.lengths), copied.sha, [list(d) for d in delta]] if copied is not None else
            [key, offset, [len(b) for b in parts], hashlib.sha256(b"".join(parts)).hexdigest(), [list(d) for d in delta]]
            for key, parts, offset, delta, copied in runs]


def from_record(path: str, value: object) -> dict[str, Run]:
    """The runs a document's record holds (``recorded``), its file at ``path``; none when any is
    not as ``recorded`` writes them."""
    out: dict[str, Run] = {}
    if not isinstance(value, list):
        return {}
    for item in value:
        if not (isinstance(item, list) and len(item) == 5 and isinstance(item[0], str) and type(item[1]) is int
                and isinstance(item[2], list) and all(type(n) is int and n > 0 for n in item[2])
                and isinstance(item[3], str) and isinstance(item[4], list) and item[1] >= 0):
            return {}
        delta = []
        for d in item[4]:
            if not (isinstance(d, list) and len(d) == 3 and d[0] in KINDS and isinstance(d[1], str)
                    and type(d[2]) is int):
                return {}
            delta.append((d[0], d[1], d[2]))
        out[item[0]] = Run(path, item[1], tuple(item[2]), item[3], tuple(delta))
    return out
