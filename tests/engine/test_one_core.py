"""Issue 22: ``--jobs 1`` keeps the build to one core — no process forked (a document's copy into
the staging folder, a worker) and no thread started (files hashed, the cache's entries written)
beside its own work — while the default ``--jobs`` does both where they save time; the files are
the same bytes either way."""

from __future__ import annotations

import os
import threading

from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run
from pnpgen.engine import fingerprint, transaction


def test_jobs_1_forks_no_process_and_starts_no_thread_and_writes_what_jobs_2_writes(tmp_path, monkeypatch):
    pieces = "".join(f"  - {{name: 札{i}, art: a{i}.png}}\n" for i in range(1, 5))
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + pieces, front=PICTURE_FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(1, 5):
        Image.new("RGB", (60, 45), (30 * i, 90, 200)).save(ws / "data" / "test" / "art" / f"a{i}.png")
    # the thresholds down: at this size --jobs 2 copies each document by a forked process and
    # hashes files on threads, as it does a thousand cards' (BIG_DOCUMENT 8 MB, THREADED_BYTES 4 MB)
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)
    monkeypatch.setattr(fingerprint, "THREADED_BYTES", 0)
    forks: list[int] = []
    threads: list[str] = []
    real_fork, real_start = os.fork, threading.Thread.start

    def fork() -> int:
        forks.append(1)
        return real_fork()

    def start(self) -> None:
        threads.append(self.name)
        real_start(self)

    monkeypatch.setattr(os, "fork", fork)
    monkeypatch.setattr(threading.Thread, "start", start)
    outs, seen = [], []
    for jobs in ("2", "1"):
        forks.clear()
        threads.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs.append(out / "test")
        seen.append((len(forks), sorted(set(threads))))
    # --jobs 2: the four documents copied by forked processes, the cache's entries by their thread
    assert seen[0][0] >= 4 and "pnpgen-stores" in seen[0][1], seen[0]
    assert any(name.startswith("ThreadPoolExecutor") for name in seen[0][1]), seen[0]  # (the files hashed)
    assert seen[1] == (0, []), seen[1]
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
    assert len(files) >= 5 and sorted(p.relative_to(outs[1]) for p in outs[1].rglob("*") if p.is_file()) == files
    for rel in files:
        assert (outs[0] / rel).read_bytes() == (outs[1] / rel).read_bytes(), rel
    assert sorted(p.name for p in (outs[1].parent / ".cache" / "images").rglob("*") if p.is_file()) == \
        sorted(p.name for p in (outs[0].parent / ".cache" / "images").rglob("*") if p.is_file())
