"""Issue 22, the serial start of a big cold build: the build's stages (``engine/run.py`` and what it
imports, some 0.17 CPU-s) are imported while the inputs' files hash on threads (a thousand cards'
art, some 0.2 CPU-s), not after — the second core hashes as the first imports (docs/speed.md,
jobs47). With ``--jobs 1`` (one core, no thread) they are imported after the hashing, as before."""

from __future__ import annotations

import os
import threading

import pytest

from conftest import make_workspace
from pnpgen import cli, commands
from pnpgen.engine import fingerprint


def test_a_build_imports_its_stages_while_its_inputs_hash_on_threads(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=["A", "B"])
    monkeypatch.setattr(fingerprint, "THREADED_BYTES", 0)  # (the tiny game's files hashed on threads, as 300 MB of art)
    seen: list[list[str]] = []  # the threads alive as the stages are imported
    # (recorded, not done: the real one sets this process's objects aside from the collector for good)
    monkeypatch.setattr(commands, "_imports_set_aside", lambda: seen.append([t.name for t in threading.enumerate()]))
    monkeypatch.chdir(ws)
    assert cli.main(["build", "--game", "test", "--no-rulebook", "-q", "--jobs", "2", "--out", str(tmp_path / "out")],
                    own_process=True) == 0
    # once, while the hashing threads run (the build does not import them again after); --jobs 1, whose
    # one thread hashes, never hands them over (the FileHashes test below; tests/engine/test_one_core.py)
    assert [any(name.startswith("ThreadPoolExecutor") for name in names) for names in seen] == [True], seen
    assert (tmp_path / "out" / "test" / "manifest.json").is_file()


def test_hashed_runs_the_work_beside_while_its_threads_check_the_items():
    beside_done = threading.Event()
    waited: list[bool] = []

    def check(item: int) -> int:  # each item's check waits for the work beside (a second at most)
        waited.append(beside_done.wait(timeout=1))
        return item * 2

    assert fingerprint.hashed(check, [1, 2, 3], threads=True, beside=beside_done.set) == [2, 4, 6]
    assert waited == [True, True, True]


@pytest.mark.parametrize("threads", [True, False])
def test_the_work_beside_is_taken_once_and_only_by_threads_that_hash(tmp_path, threads):
    (tmp_path / "art").mkdir()
    for i in range(3):
        (tmp_path / "art" / f"a{i}.png").write_bytes(os.urandom(1000))
    known = fingerprint.FileHashes(tmp_path / "cache")
    known.threads = threads
    calls: list[int] = []
    known.beside = lambda: calls.append(1)
    old = fingerprint.THREADED_BYTES
    fingerprint.THREADED_BYTES = 0
    try:
        first = fingerprint.fingerprint([tmp_path / "art"], None, known)
        again = fingerprint.fingerprint([tmp_path / "art"], None, known)  # (known now: nothing to hash)
    finally:
        fingerprint.THREADED_BYTES = old
    assert first == again
    # threads: done beside them, once; one thread (--jobs 1): never done here, the caller does it after
    assert calls == ([1] if threads else []) and (known.beside is None) == threads
