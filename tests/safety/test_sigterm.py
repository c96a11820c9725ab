"""SIGTERM (kill, timeout, a CI runner's time limit, docker and systemd stop) and SIGHUP (a closed
terminal) stop a command as Ctrl-C does: one line, exit 143 (129) as a shell reports them, the last
good output byte-identical, no file of the command's left in the workspace, the output folder or the
temporary folder (an export's spill folder), and no process of it left running. Each run is a real
``python -m pnpgen`` in a process group of its own, the signal sent to its process alone, as
``kill PID`` sends it, at several instants of its work."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import child_env, in_a_terminal_group, make_workspace
from pnpgen.atomic import TMP_SUFFIX
from signals import SPILLING, children_at_work, files, handles, outside_cache, sent, waited

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists() or not hasattr(signal, "SIGHUP"),
                                reason="reads a process's children from /proc")


def _stopped(tmp_path: Path, command: list[str], signum: int, when: str, script: str | None = None) -> None:
    ws = make_workspace(tmp_path / "ws", pieces=[f"札{i}" for i in range(60)], draft=True)
    temp, cache = tmp_path / "temp", tmp_path / "cache"
    temp.mkdir()
    env = child_env(TMPDIR=str(temp), PNPGEN_CACHE=str(cache))
    start = [sys.executable, "-c", script] if script else [sys.executable, "-m", "pnpgen"]
    first = subprocess.run([*start, *command], cwd=ws, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("札1", "改訂"), encoding="utf-8")
    before, temp_before = files(ws), files(temp)
    if when == "staged":
        env[PAUSE] = "60"
    proc = subprocess.Popen([*start, *command], cwd=ws, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=in_a_terminal_group)
    try:
        if when == "staged":  # every new file staged, nothing committed
            line = proc.stderr.readline() if proc.stderr else ""
            assert "every file staged" in line, line
            if script:  # (the export's files are there, spilled, until it ends)
                assert any(p.name.startswith("pnpgen-export-") for p in temp.iterdir())
        elif when == "working":  # its workers (the faces', the rulebook's) started
            waited(proc, children_at_work, 0.005)
            time.sleep(0.05)
        else:  # at its start: as soon as its handler is in place (before, the system's default ends it, having written nothing)
            waited(proc, lambda pid: handles(pid, signum))
    except BaseException:
        proc.kill()
        raise
    err = sent(proc, signum)
    name = signal.Signals(signum).name
    assert (proc.returncode, err.splitlines()[-1:]) == (128 + signum, [f"pnpgen: interrupted ({name})"]), err
    after = files(ws)
    assert not [name for name in after if name.endswith(TMP_SUFFIX)]  # (the build cache's own temporaries too)
    # the last good output as it was, no staging folder left (the build cache keeps what it learned: its records)
    assert outside_cache(after) == outside_cache(before)
    assert files(temp) == temp_before  # no spill folder, no temporary of the command's


BUILD = ["build", "--game", "test", "--jobs", "2", "--quiet"]
EXPORT = ["export", "--game", "test", "--preset", "tabletopsimulator", "--quiet"]
PAUSE = "PNPGEN_TEST_PAUSE_BEFORE_COMMIT"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("when", ["start", "working", "staged"])
def test_a_build_stopped_by_sigterm_or_sighup_leaves_the_last_good_output_and_nothing_else(tmp_path, signum, when):
    _stopped(tmp_path, BUILD, signum, when)


def test_an_export_stopped_by_sigterm_removes_its_spilled_files(tmp_path):
    _stopped(tmp_path, EXPORT, signal.SIGTERM, "staged", script=SPILLING)
