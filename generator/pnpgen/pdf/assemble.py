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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

BLOCK = 1 << 20  # bytes read at a time from a stored part


@dataclass(frozen=True)
class Stored:
    """``size`` bytes of a file on disk (a cached image stream, or an output kept as it is)."""

    path: str
    size: int

    def chunks(self) -> Iterator[bytes]:
        left = self.size
        with open(self.path, "rb") as f:
            while left > 0:
                block = f.read(min(BLOCK, left))
                if not block:
                    raise OSError(f"{self.path}: shorter than the {self.size} bytes it held when the build began")
                left -= len(block)
                yield block


Part = bytes | Stored


@dataclass
class PdfFile:
    """A file's bytes as parts, in order: bytes in memory and ``Stored`` file contents."""

    parts: tuple[Part, ...]
    _sha: str | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return sum(len(p) if isinstance(p, bytes) else p.size for p in self.parts)

    def chunks(self) -> Iterator[bytes]:
        for p in self.parts:
            if isinstance(p, bytes):
                yield p
            else:
                yield from p.chunks()

    def sha(self) -> str:
        """The SHA-256 of the file's bytes (hex), as ``hashlib.sha256(bytes(self))``."""
        if self._sha is None:
            h = hashlib.sha256()
            for block in self.chunks():
                h.update(block)
            self._sha = h.hexdigest()
        return self._sha

    def write_to(self, f: BinaryIO) -> None:
        """The file's bytes into ``f``; a stored part is copied by the kernel where it can
        (``copy_file_range``: a 265 MB document's pictures never pass through Python)."""
        for p in self.parts:
            if isinstance(p, bytes):
                f.write(p)
            elif not _copy_in_kernel(p, f):
                for block in p.chunks():
                    f.write(block)

    def same_as(self, path: Path) -> bool:
        """Does the file at ``path`` hold exactly these bytes? (Compared block by block.)"""
        if len(self.parts) == 1 and isinstance(self.parts[0], Stored) and Path(self.parts[0].path) == path:
            try:
                return path.stat().st_size == self.parts[0].size
            except OSError:
                return False
        try:
            if path.stat().st_size != self.size:
                return False
            with open(path, "rb") as f:
                for block in self.chunks():
                    if f.read(len(block)) != block:
                        return False
            return True
        except OSError:
            return False

    def __bytes__(self) -> bytes:
        return b"".join(self.chunks())


def _copy_in_kernel(part: Stored, f: BinaryIO) -> bool:
    """Append ``part`` to ``f`` with ``os.copy_file_range``; False where that is not available
    (another system, another file system), and nothing written then."""
    copy = getattr(os, "copy_file_range", None)
    if copy is None:
        return False
    f.flush()
    out = f.fileno()
    with open(part.path, "rb") as src:
        fd, left = src.fileno(), part.size
        if os.fstat(fd).st_size < part.size:
            raise OSError(f"{part.path}: shorter than the {part.size} bytes it held when the build began")
        start = os.lseek(out, 0, os.SEEK_CUR)
        try:
            while left > 0:
                n = copy(fd, out, left)
                if n == 0:
                    raise OSError(f"{part.path}: shorter than the {part.size} bytes it held when the build began")
                left -= n
        except OSError as e:
            if left == part.size and e.errno in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
                os.lseek(out, start, os.SEEK_SET)
                return False
            raise
    return True
