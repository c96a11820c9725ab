"""SIGTERM (kill, timeout, a CI runner's time limit, docker and systemd stop) and SIGHUP (a closed
terminal) stop a command as Ctrl-C does: one line, exit 143 (129) as a shell reports them, the last
good output byte-identical, no file of the command's left in the workspace, the output folder or the
temporary folder (an export's spill folder), and no process of it left running. Each run is a real
``python -m pnpgen`` in a process group of its own, the signal sent to its process alone, as
``kill PID`` sends it, at several instants of its work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import child_env, in_a_terminal_group, make_workspace
from pnpgen.atomic import TMP_SUFFIX

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists() or not hasattr(signal, "SIGHUP"),
                                reason="reads a process's children from /proc")

# The command as `python -m pnpgen` starts it, but every file an export makes spilled out of memory
# into its folder of the temporary folder (exports/spill.py: past 32 MB, which a test's export is not).
SPILLING = textwrap.dedent("""\
    import sys
    from pnpgen.exports import spill
    spill.Spill.__init__.__defaults__ = (0, 0)
    from pnpgen.cli import console
    sys.argv[0] = "pnpgen"
    console()
""")


def _files(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder below ``folder``: a file by its bytes, a folder as None."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
            for p in sorted(folder.rglob("*")) if "fonts" not in p.relative_to(folder).parts[:1]}


def _outside_cache(files: dict[str, bytes | None]) -> dict[str, bytes | None]:
    return {name: data for name, data in files.items() if not name.startswith("build/.cache")}


def _group_gone(pgid: int) -> bool:
    """No process of the command's group left (its workers, its rulebook's process), within 10 s."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def _handles(pid: int, signum: int) -> bool:
    """Has process ``pid`` put a handler of its own on ``signum``? (/proc's SigCgt mask)"""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) >> (signum - 1) & 1)


def _children_at_work(pid: int) -> bool:
    try:
        return bool(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    except OSError:
        return False


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
    before, temp_before = _files(ws), _files(temp)
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
            end = time.monotonic() + 60
            while proc.poll() is None and not _children_at_work(proc.pid) and time.monotonic() < end:
                time.sleep(0.005)
            time.sleep(0.05)
        else:  # at its start: as soon as its handler is in place (before, the system's default ends it, having written nothing)
            end = time.monotonic() + 60
            while proc.poll() is None and not _handles(proc.pid, signum) and time.monotonic() < end:
                time.sleep(0.002)
        assert proc.poll() is None, proc.communicate()
        os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert _group_gone(proc.pid), "a process of the command still runs"
    name = signal.Signals(signum).name
    assert (proc.returncode, err.splitlines()[-1:]) == (128 + signum, [f"pnpgen: interrupted ({name})"]), err
    after = _files(ws)
    assert not [name for name in after if name.endswith(TMP_SUFFIX)]  # (the build cache's own temporaries too)
    # the last good output as it was, no staging folder left (the build cache keeps what it learned: its records)
    assert _outside_cache(after) == _outside_cache(before)
    assert _files(temp) == temp_before  # no spill folder, no temporary of the command's


BUILD = ["build", "--game", "test", "--jobs", "2", "--quiet"]
EXPORT = ["export", "--game", "test", "--preset", "tabletopsimulator", "--quiet"]
PAUSE = "PNPGEN_TEST_PAUSE_BEFORE_COMMIT"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("when", ["start", "working", "staged"])
def test_a_build_stopped_by_sigterm_or_sighup_leaves_the_last_good_output_and_nothing_else(tmp_path, signum, when):
    _stopped(tmp_path, BUILD, signum, when)


def test_an_export_stopped_by_sigterm_removes_its_spilled_files(tmp_path):
    _stopped(tmp_path, EXPORT, signal.SIGTERM, "staged", script=SPILLING)
