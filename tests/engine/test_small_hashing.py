"""A small game's few files are hashed on the build's own thread: threads pay for themselves only
on megabytes (a big deck's art and documents), and every tiny build was starting a pool of two."""

from __future__ import annotations

import pytest

from conftest import make_workspace, run
from pnpgen.engine import fingerprint


class NoThreads:
    def __init__(self, *args, **kwargs):
        raise AssertionError("a thread pool was started")


def test_a_tiny_build_hashes_without_threads(tmp_path, monkeypatch):
    root = make_workspace(tmp_path, pieces=["A", "B", "C"])
    for i in range(12):  # more files than a pool was started for (8)
        (root / "data" / "test" / f"notes{i}.txt").write_text(f"note {i}", encoding="utf-8")
    monkeypatch.setattr(fingerprint, "ThreadPoolExecutor", NoThreads)
    assert run(root, "build", "--all", "-q") == 0
    assert (root / "build" / "test").is_dir()


def test_megabytes_to_hash_still_go_to_threads(monkeypatch):
    monkeypatch.setattr(fingerprint, "ThreadPoolExecutor", NoThreads)
    with pytest.raises(AssertionError, match="thread pool"):
        fingerprint.hashed(len, [b"x", b"y"], size=lambda item: fingerprint.THREADED_BYTES)
    assert fingerprint.hashed(len, [b"x", b"yy"], size=len) == [1, 2]
