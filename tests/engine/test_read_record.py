"""A record read back from the cache (atomic.py ``read_record``): its bytes, as many as the file
holds and never more than asked; an edit of a thousand cards reads a thousand faces this way, so a
read asks for no more memory than the record's own size."""

from __future__ import annotations

import os

import pytest

from pnpgen.atomic import MAX_RECORD, read_record


@pytest.mark.parametrize("size", [0, 1, 1600, 70_000])
def test_a_record_reads_back_whole(tmp_path, size):
    path = tmp_path / "r.json"
    data = os.urandom(size)
    path.write_bytes(data)
    assert read_record(path) == data


def test_a_record_over_the_limit_is_not_read(tmp_path):
    path = tmp_path / "r.json"
    path.write_bytes(b"x" * 101)
    with pytest.raises(OSError):
        read_record(path, limit=100)
    assert read_record(path, limit=101) == b"x" * 101


def test_a_small_record_asks_for_no_big_buffer(tmp_path, monkeypatch):
    """A buffered ``read(limit + 1)`` mapped a buffer of the whole limit (256 MB) for each record
    before cutting it to the file's size: 20 µs a face read back. Each read now asks the
    descriptor for at most what the file holds (and one byte more, to see it has not grown)."""
    path = tmp_path / "face.json"
    path.write_bytes(b"{}" * 800)
    asked: list[int] = []
    real = os.read

    def read(fd: int, n: int) -> bytes:
        asked.append(n)
        return real(fd, n)

    monkeypatch.setattr(os, "read", read)
    assert read_record(path) == b"{}" * 800
    assert MAX_RECORD > 1 << 20
    assert asked and max(asked) <= 1601
