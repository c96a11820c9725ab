"""A PDF file as parts, written to disk when the build commits: bytes in memory, and the
pictures' image streams left in the cache folder (``Stored``) until the file is written.

A deck of a thousand illustrated cards makes four files of 265 MB each; the writer
(pdf/writer.py, pdf/objects.py) lays a document out with each picture's stream as a ``Stored``
part and its length known, so a build holds only the drawing of its documents in memory, never
their pictures, and a stream file is read from the cache (``build/.cache/images``) only while the
output file is written (or hashed).
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

BLOCK = 1 << 20  # bytes read at a time from a stored part


@dataclass(frozen=True)
class Stored:
    """``size`` bytes of a file on disk from ``offset`` (a cached image stream, an output kept as
    it is, or a picture's own compressed pixels inside its art file). ``stamp``: the file's size,
    modification and change times and inode when the build took it (``stat_stamp``); a file that no longer has them is refused
    when written (an art file saved again meanwhile), never copied half old, half new."""

    path: str
    size: int
    offset: int = 0
    stamp: tuple[int, int, int, int] | None = None
    sha: str | None = field(default=None, compare=False)  # the SHA-256 of these bytes, when known (a cached stream's)

    def chunks(self) -> Iterator[bytes]:
        with _Sources() as sources:
            yield from self.read_from(sources)

    def read_from(self, sources: _Sources) -> Iterator[bytes]:
        """The part's bytes, block by block, from its file as ``sources`` has it open."""
        fd = sources.open(self)
        at, left = self.offset, self.size
        while left > 0:
            block = _read_at(fd, min(BLOCK, left), at)
            if not block:
                raise self.cut()
            left -= len(block)
            at += len(block)
            yield block

    def cut(self) -> OSError:
        return OSError(f"{self.path}: shorter than the {self.offset + self.size} bytes it held when the build began")

    def check(self, fd: int) -> None:
        """``SourceChanged`` unless the open file is still the one the build took (``stamp``)."""
        if self.stamp is None:
            return
        if stat_stamp(os.fstat(fd)) != tuple(self.stamp):
            raise SourceChanged(self.path)


class SourceChanged(OSError):
    """A file a document's part is copied from (an art file) was saved again after the build took it."""

    def __init__(self, path: str):
        super().__init__(f"{path} changed during the build")
        self.path = path


class _Sources:
    """The file a run of stored parts comes from, opened once for the run (a picture's pieces are
    several parts of one art file) and checked against the parts' stamp when opened. A bare
    descriptor, read at offsets: a Python file object costs three more system calls an opening
    (a thousand pictures, four documents)."""

    def __init__(self) -> None:
        self.path: str | None = None
        self.fd: int | None = None

    def open(self, part: Stored) -> int:
        if part.path != self.path or self.fd is None:
            self.close()
            self.fd = os.open(part.path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
            self.path = part.path
            part.check(self.fd)
        return self.fd

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
        self.fd, self.path = None, None

    def __enter__(self) -> _Sources:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def file_stamp(path: str | Path) -> tuple[int, int, int, int]:
    """A file's ``stat_stamp`` (``Stored.stamp``)."""
    return stat_stamp(os.stat(path))


def stat_stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """A file's size, modification time, change time and inode: a file written over in place with
    its size kept and its modification time set back (``touch -r``, ``cp -p``) has another change
    time, which no tool puts back (``usercache.file_stamp``'s rule)."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


Part = bytes | Stored


# What the hash of a document names (``PdfFile.digest``): the layout's tag, then each segment's
# length and SHA-256. A version of it lives in the game's state: change the tag with the recipe.
DIGEST_TAG = b"pnpgen segments 1\0"


def digest_of(segments: Iterable[tuple[int, bytes]]) -> str:
    """The document digest of segments given as (length, SHA-256 digest)."""
    h = hashlib.sha256(DIGEST_TAG)
    for n, d in segments:
        h.update(n.to_bytes(8, "big") + d)
    return h.hexdigest()


def file_digest(path: Path, layout: Sequence[int] | None) -> str:
    """What ``PdfFile.digest`` gives for the file at ``path`` cut at ``layout`` (its segments'
    lengths; None: the plain SHA-256 of the whole file), read block by block. A file of another
    length than the layout's gets ``""``, which matches no digest."""
    with open(path, "rb") as f:
        if layout is None:
            return hashlib.file_digest(f, "sha256").hexdigest()
        if os.fstat(f.fileno()).st_size != sum(layout):
            return ""
        segments = []
        for n in layout:
            h, left = hashlib.sha256(), n
            while left > 0:
                block = f.read(min(BLOCK, left))
                if not block:
                    return ""
                h.update(block)
                left -= len(block)
            segments.append((n, h.digest()))
        return digest_of(segments)


@dataclass
class PdfFile:
    """A file's bytes as parts, in order: bytes in memory and ``Stored`` file contents."""

    parts: tuple[Part, ...]
    _sha: str | None = field(default=None, repr=False, compare=False)
    # the digest the state records (``digest``), and its layout, when known (a file kept as it was)
    _digest: tuple[str, tuple[int, ...] | None] | None = field(default=None, repr=False, compare=False)
    _size: int | None = field(default=None, repr=False, compare=False)
    layout: Any = field(default=None, repr=False, compare=False)  # what its pages' objects are (pdf/patch.py ``Layout``)
    # its parts before ``now_in`` let its bytes go (each run of bytes by its length), for ``take_back``
    _held: tuple[Stored | int, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        """The file's length, summed once: a thousand cards' document has some 5,000 parts, and
        a build asks each document's size some five times (the staging's copies, the records)."""
        if self._size is None:
            self._size = sum(len(p) if isinstance(p, bytes) else p.size for p in self.parts)
        return self._size

    def chunks(self) -> Iterator[bytes]:
        with _Sources() as sources:
            for p in self.parts:
                if isinstance(p, bytes):
                    yield p
                else:
                    yield from p.read_from(sources)

    def sha(self) -> str:
        """The SHA-256 of the file's bytes (hex), as ``hashlib.sha256(bytes(self))``."""
        if self._sha is None:
            h = hashlib.sha256()
            for block in self.chunks():
                h.update(block)
            self._sha = h.hexdigest()
        return self._sha

    def digest(self, known: dict[Stored, bytes] | None = None) -> tuple[str, tuple[int, ...] | None]:
        """What a game's state records for this file, and the layout that lets it be checked
        against a file on disk (``file_digest``). A file of bytes alone: its SHA-256, no layout. A
        file with stored parts: the SHA-256 of each segment — each stored part, each run of bytes
        between — hashed together with their lengths (``digest_of``), so a picture whose stream's
        hash is known (``Stored.sha``, or ``known``: parts hashed already, shared by the documents
        of a build) is not read: a big deck's documents, a gigabyte, are not read to be recorded."""
        if self._digest is None:
            if not any(isinstance(p, Stored) for p in self.parts):
                self._digest = (self.sha(), None)
            else:
                segments: list[tuple[int, bytes]] = []
                run: list[bytes] = []
                with _Sources() as sources:
                    for p in (*self.parts, None):
                        if isinstance(p, bytes):
                            run.append(p)
                            continue
                        if run:
                            joined = b"".join(run)
                            segments.append((len(joined), hashlib.sha256(joined).digest()))
                            run = []
                        if p is not None:
                            segments.append((p.size, _part_sha(p, sources, known)))
                self._digest = (digest_of(segments), tuple(n for n, _ in segments))
        return self._digest

    def write_to(self, f: BinaryIO) -> None:
        """The file's bytes into ``f``, at its descriptor's position: a stored part is copied by
        the kernel where it can (``copy_file_range``: a 265 MB document's pictures never pass
        through Python), the bytes between written straight to the descriptor (no buffer to flush
        before each copy)."""
        f.flush()
        self.write_into(f.fileno())

    def write_into(self, out: int) -> None:
        """The file's bytes into the open descriptor ``out``, at its position (``write_to``)."""
        kernel = getattr(os, "copy_file_range", None) is not None
        with _Sources() as sources:
            for p in _joined(self.parts):
                if isinstance(p, bytes):
                    _write_all(out, p)
                elif not (kernel and _copy_in_kernel(p, out, sources)):
                    kernel = False  # (another file system: every part read and written)
                    for block in p.read_from(sources):
                        _write_all(out, block)

    def same_as(self, path: Path) -> bool:
        """Does the file at ``path`` hold exactly these bytes? (Compared block by block.)"""
        if len(self.parts) == 1 and isinstance(self.parts[0], Stored) and Path(self.parts[0].path) == path \
                and not self.parts[0].offset:
            try:
                return path.stat().st_size == self.parts[0].size
            except OSError:
                return False
        try:
            if path.stat().st_size != self.size:
                return False
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
            try:
                # the parts in memory first: an edit changes the drawing, seldom a picture, and a
                # file of the same size differing there is told apart without reading its pictures
                # (a thousand cards' document: some 10 MB read, not 265)
                at, stored = 0, []
                for p in self.parts:
                    if isinstance(p, bytes):
                        if not _same_at(fd, at, (p,)):
                            return False
                    else:
                        stored.append((at, p))
                    at += len(p) if isinstance(p, bytes) else p.size
                return all(_same_at(fd, at, p.chunks()) for at, p in stored)
            finally:
                os.close(fd)
        except OSError:
            return False

    def __bytes__(self) -> bytes:
        return b"".join(self.chunks())

    def in_memory(self) -> bool:
        """Are all its bytes in memory (no stored part: a document of text cards)?"""
        return all(isinstance(p, bytes) for p in self.parts)

    def digested(self) -> bool:
        """Is its digest made already (``digest``: a build's records are made before the commit)?"""
        return self._digest is not None

    def now_in(self, path: Path, digest: bool = True) -> None:
        """This file written whole at ``path`` (its staged copy): the bytes it held in memory let go
        of, read from there if read again. Its digest is made first (from the bytes in memory, where
        a caller has not made it: ``digested``), so what the records say of it is what it was
        (5,000 text cards: four documents, some 40 MB no longer held to the commit); ``digest``
        False: a file no record names by its digest (a cache's pack)."""
        if digest:
            self.digest()
        st = os.stat(path)
        if st.st_size != self.size:
            raise Stored(str(path), self.size).cut()
        self._held = tuple(p if isinstance(p, Stored) else len(p) for p in self.parts)
        self.parts = (Stored(str(path), self.size, 0, stat_stamp(st)),)

    def take_back(self) -> None:
        """Its parts as they were before ``now_in``, the bytes read back from its staged copy (which
        is about to go), its stored parts as they were."""
        if self._held is None:
            return
        (copy,) = self.parts
        assert isinstance(copy, Stored)
        parts: list[Part] = []
        at = 0
        for p in self._held:
            size = p if isinstance(p, int) else p.size
            if isinstance(p, int):
                parts.append(b"".join(Stored(copy.path, size, at, copy.stamp).chunks()))
            else:
                parts.append(p)
            at += size
        self.parts, self._held = tuple(parts), None


def _joined(parts: Iterable[Part]) -> Iterator[Part]:
    """``parts`` with each run of bytes joined into one write, and stored parts that follow one
    another in the same file into one copy: fewer system calls for the same bytes."""
    run: list[bytes] = []
    last: Stored | None = None
    for p in parts:
        if isinstance(p, bytes):
            if last is not None:
                yield last
                last = None
            run.append(p)
            continue
        if run:
            yield run[0] if len(run) == 1 else b"".join(run)
            run = []
        if last is not None and last.path == p.path and last.stamp == p.stamp and last.offset + last.size == p.offset:
            last = Stored(last.path, last.size + p.size, last.offset, last.stamp)
        else:
            if last is not None:
                yield last
            last = p
    if last is not None:
        yield last
    if run:
        yield run[0] if len(run) == 1 else b"".join(run)


def _part_sha(part: Stored, sources: _Sources, known: dict[Stored, bytes] | None) -> bytes:
    """The SHA-256 of a stored part: as it is known, else read (and then kept in ``known``)."""
    if part.sha is not None:
        return bytes.fromhex(part.sha)
    done = known.get(part) if known is not None else None
    if done is None:
        h = hashlib.sha256()
        for block in part.read_from(sources):
            h.update(block)
        done = h.digest()
        if known is not None:
            known[part] = done
    return done


def _same_at(fd: int, at: int, blocks: Iterable[bytes]) -> bool:
    """Does the open file hold ``blocks``, one after the other, from ``at``?"""
    for block in blocks:
        for start in range(0, len(block), BLOCK):
            piece = block[start:start + BLOCK] if len(block) > BLOCK else block
            if _read_at(fd, len(piece), at) != piece:
                return False
            at += len(piece)
    return True


def _read_at(fd: int, n: int, at: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, n, at)
    os.lseek(fd, at, os.SEEK_SET)  # (Windows)
    return os.read(fd, n)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _copy_in_kernel(part: Stored, out: int, sources: _Sources) -> bool:
    """Append ``part`` at the position of the descriptor ``out`` with ``os.copy_file_range``;
    False where the file systems cannot (nothing written then)."""
    fd, left, at = sources.open(part), part.size, part.offset
    try:
        while left > 0:
            n = os.copy_file_range(fd, out, left, at)
            if n == 0:
                raise part.cut()
            left -= n
            at += n
    except OSError as e:
        if left == part.size and e.errno in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
            return False
        raise
    return True
