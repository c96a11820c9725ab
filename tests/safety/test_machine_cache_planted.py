"""What is put in the machine's cache in place of pnpgen's own files (usercache.py): an entry, the
key or a folder's sweep stamp that is a pipe made every build wait for ever on it; a kind's folder
that is a link to a folder elsewhere had its files named like entries removed by the sweep, its
mode changed and entries written into it. Each is passed over: nothing read, waited on, written,
changed or removed there."""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import threading
import time
from pathlib import Path

import pytest

from pnpgen import usercache

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="pipes and links: POSIX")

OLD = time.time() - 100 * 86400  # not read for longer than the sweep keeps an unused entry


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "machine" / "pnpgen"
    monkeypatch.setenv("PNPGEN_CACHE", str(folder))
    return folder


def _entry(value) -> bytes:
    body = marshal.dumps(value)
    return hashlib.sha256(body).digest() + body


def _returns(call, pipes: list[Path]):
    """``call()``'s value, or a failure when it waits on one of ``pipes`` (then let go: opened
    for writing, each gives the waiting reader its end)."""
    said: list = []
    worker = threading.Thread(target=lambda: said.append(call()), daemon=True)
    worker.start()
    worker.join(10)
    if worker.is_alive():
        for pipe in pipes:
            try:
                os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        worker.join(10)
        pytest.fail(f"waited on a pipe planted at {', '.join(p.name for p in pipes)}")
    return said[0]


def test_an_entry_that_is_a_pipe_or_too_large_is_passed_over(cache):
    usercache.put("yaml", "a" * 40, {"kept": 1})
    assert usercache.get("yaml", "a" * 40) == {"kept": 1}
    pipe = cache / "yaml" / ("a" * 40)
    pipe.unlink()
    os.mkfifo(pipe)
    assert _returns(lambda: usercache.get("yaml", "a" * 40), [pipe]) is None
    big = cache / "yaml" / ("b" * 40)
    with big.open("wb") as f:  # sparse: 300 MB on no disk, read whole before
        f.write(_entry(1))
        f.truncate(usercache.ENTRY_MOST + 1)
    assert usercache.get("yaml", "b" * 40) is None


def test_a_key_or_a_sweep_stamp_that_is_a_pipe_is_not_waited_on(cache):
    cache.mkdir(parents=True, mode=0o700)
    pipes = [cache / "secret", cache / f"{usercache.SWEPT}-yaml"]
    for pipe in pipes:
        os.mkfifo(pipe, 0o600)
    key = _returns(usercache.secret, pipes)
    assert key is not None and len(key) == usercache.SECRET_BYTES  # the pipe replaced by a new key
    assert stat.S_ISREG((cache / "secret").lstat().st_mode)
    _returns(lambda: usercache.put("yaml", "c" * 40, 1), pipes)
    assert usercache.get("yaml", "c" * 40) == 1


def test_a_kinds_folder_that_is_a_link_elsewhere_is_neither_read_written_changed_nor_swept(cache, tmp_path):
    elsewhere = tmp_path / "pictures"
    elsewhere.mkdir(mode=0o700)
    elsewhere.chmod(0o775)
    named_like_an_entry = elsewhere / ("d" * 40)
    named_like_an_entry.write_bytes(_entry("planted"))
    os.utime(named_like_an_entry, (OLD, OLD))
    named_like_a_dead_write = elsewhere / f".{'e' * 40}.999999999"
    named_like_a_dead_write.write_bytes(b"mine")
    os.utime(named_like_a_dead_write, (OLD, OLD))
    cache.mkdir(parents=True, mode=0o700)
    (cache / "yaml").symlink_to(elsewhere)
    assert usercache.get("yaml", "d" * 40) is None
    usercache.put("yaml", "f" * 40, 1)
    assert sorted(p.name for p in elsewhere.iterdir()) == sorted([named_like_an_entry.name, named_like_a_dead_write.name])
    assert stat.S_IMODE(elsewhere.stat().st_mode) == 0o775


def test_the_cache_folder_itself_may_be_a_link(tmp_path, monkeypatch):
    """``~/.cache`` kept on another disk: the machine's cache there is used as ever."""
    disk = tmp_path / "disk"
    disk.mkdir(mode=0o700)
    (tmp_path / "pnpgen").symlink_to(disk)
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "pnpgen"))
    usercache.put("yaml", "0" * 40, 2)
    assert usercache.get("yaml", "0" * 40) == 2 and (disk / "yaml" / ("0" * 40)).is_file()


def test_a_key_that_is_a_pipe_someone_writes_into_is_not_taken_as_the_key(cache):
    """A pipe planted at the key with a writer holding it open gives a reader the writer's bytes:
    the key is read only from a plain file (``_plain_bytes``), so the planted bytes never seal."""
    cache.mkdir(parents=True, mode=0o700)
    pipe = cache / "secret"
    os.mkfifo(pipe, 0o600)
    planted = b"k" * usercache.SECRET_BYTES
    writer = os.open(pipe, os.O_RDWR | os.O_NONBLOCK)  # (Linux: a pipe's both ends at once, never waited on)
    try:
        os.write(writer, planted)
        key = _returns(usercache.secret, [pipe])
    finally:
        os.close(writer)
    assert key is not None and key != planted and len(key) == usercache.SECRET_BYTES
    assert stat.S_ISREG((cache / "secret").lstat().st_mode)
