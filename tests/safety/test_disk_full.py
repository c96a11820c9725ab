"""A disk that fills up while a build writes (here: a limit on the size of a file the process
may write, RLIMIT_FSIZE, as ``ulimit -f`` sets it: the write fails with EFBIG as on a full disk
with ENOSPC) stops the build in one line saying so, exit 2, the last good outputs as they were,
and no part-written file of the machine's cache left behind."""

from __future__ import annotations

import resource
import subprocess
import sys

from conftest import FEW_CARDS, child_env, make_workspace, run


def _small_files_only() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, resource.RLIM_INFINITY))


def test_a_full_disk_is_one_line_and_keeps_the_last_good_build(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    cache = tmp_path / "cache"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    out = ws / "build" / "test"
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード3", "書き直した札"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--no-rulebook"], cwd=ws,
                          env=child_env(PNPGEN_CACHE=str(cache)), capture_output=True, text=True, timeout=120,
                          preexec_fn=_small_files_only)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "File too large" in proc.stderr and "room on the disk" in proc.stderr and "nothing was replaced" in proc.stderr
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before
    assert not [p for p in (ws / "build").rglob("*") if "staging" in p.name or p.name.endswith("pnpgen-tmp")]
    assert [p.name for p in cache.rglob(".*")] == []  # each write that failed took its part with it
