"""An export or preflight killed outright (``kill -9``, the out-of-memory killer) leaves its folder
of the system's temporary folder (``pnpgen-export-*``, its spilled files; ``pnpgen-preflight-*``)
for ever: the next export, preflight or clean removes it — but only one pnpgen marked as its own,
whose process is provably gone. Folders merely named alike (someone else's, a link, another user's,
a marker naming a process still running, or another machine's) stay, whatever they hold."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FEW_CARDS, child_env, in_a_terminal_group, make_workspace, run
from pnpgen import scratch
from signals import SPILLING

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's start from /proc")

EXPORT = ["export", "--game", "test", "--preset", "tabletopsimulator", "--quiet"]


def _look_alikes(temp: Path) -> dict[str, Path]:
    """Folders named as pnpgen's in ``temp`` that are not its own to remove, each holding a file."""
    me = scratch._this_process()
    made = {
        "theirs": temp / "pnpgen-export-theirs",  # no marker: another program's, or a person's
        "running": temp / "pnpgen-export-running",  # marked for a process still running (this test's)
        "elsewhere": temp / "pnpgen-preflight-elsewhere",  # a dead process of another machine (a shared TMPDIR)
        "unreadable": temp / "pnpgen-export-garbled",  # a marker that does not read
    }
    markers = {"running": me, "elsewhere": me | {"pid": 2**22 + 7, "host": me["host"] + "-other"},
               "unreadable": None}
    for name, folder in made.items():
        folder.mkdir()
        (folder / "notes.txt").write_text("someone's", encoding="utf-8")
        if name in markers:
            marker = markers[name]
            (folder / scratch.MARKER).write_text("{not json" if marker is None else
                                                 json.dumps({"pnpgen": "scratch", **marker}), encoding="utf-8")
    elsewhere = temp.parent / "dead-lookalike-target"  # a link named alike, to a folder a dead pnpgen marked
    elsewhere.mkdir()
    (elsewhere / scratch.MARKER).write_text(json.dumps({"pnpgen": "scratch", **me, "pid": 2**22 + 9}), encoding="utf-8")
    (elsewhere / "notes.txt").write_text("someone's", encoding="utf-8")
    (temp / "pnpgen-export-link").symlink_to(elsewhere)
    made["link"] = elsewhere
    return made


def _still_there(made: dict[str, Path]) -> None:
    for name, folder in made.items():
        assert (folder / "notes.txt").read_text(encoding="utf-8") == "someone's", name


def test_an_export_killed_outright_leaves_its_spill_folder_to_the_next_export(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=[f"札{i}" for i in range(20)])
    temp = tmp_path / "temp"
    temp.mkdir()
    env = child_env(TMPDIR=str(temp), PNPGEN_CACHE=str(tmp_path / "cache"), PNPGEN_TEST_PAUSE_BEFORE_COMMIT="60")
    proc = subprocess.Popen([sys.executable, "-c", SPILLING, *EXPORT], cwd=ws, env=env, stderr=subprocess.PIPE,
                            text=True, preexec_fn=in_a_terminal_group)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        assert "every file staged" in line, line
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.stderr:
            proc.stderr.close()
    left = [p for p in temp.iterdir() if p.name.startswith("pnpgen-export-")]
    assert len(left) == 1 and len(list(left[0].iterdir())) > 1, left  # its marker and its spilled files
    made = _look_alikes(temp)
    env.pop("PNPGEN_TEST_PAUSE_BEFORE_COMMIT")
    done = subprocess.run([sys.executable, "-m", "pnpgen", *EXPORT], cwd=ws, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert not left[0].exists()
    _still_there(made)
    assert (temp / "pnpgen-export-link").is_symlink()
    assert sorted(p.name for p in temp.iterdir()) == sorted(
        ["pnpgen-export-theirs", "pnpgen-export-running", "pnpgen-preflight-elsewhere", "pnpgen-export-garbled",
         "pnpgen-export-link"])


def test_a_folder_of_a_process_whose_number_was_used_again_is_removed_by_clean(tmp_path, monkeypatch):
    """Killed outright, its number later given to another process: the marker's start tells them
    apart (a process running under that number is not the one that made the folder)."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(scratch.tempfile, "tempdir", None)  # (read again from TMPDIR)
    me = scratch._this_process()
    parent = os.getppid()  # (a process running now: its number, but an earlier start)
    for name, marker in (("pnpgen-preflight-reused", me | {"pid": parent, "started": scratch._started(parent) - 1}),
                         ("pnpgen-export-gone", me | {"pid": _a_free_number()}),
                         ("pnpgen-export-rebooted", me | {"boot": "another boot"})):
        (temp / name).mkdir()
        (temp / name / scratch.MARKER).write_text(json.dumps({"pnpgen": "scratch", **marker}), encoding="utf-8")
        (temp / name / "page-1.tif").write_bytes(b"separations")
    made = _look_alikes(temp)
    assert run(ws, "clean") == 0
    _still_there(made)
    assert sorted(p.name for p in temp.iterdir()) == sorted(
        ["pnpgen-export-theirs", "pnpgen-export-running", "pnpgen-preflight-elsewhere", "pnpgen-export-garbled",
         "pnpgen-export-link"])


def test_own_folder_is_marked_before_anything_goes_in(tmp_path):
    folder = scratch.own_folder("pnpgen-preflight-")
    try:
        assert [p.name for p in folder.iterdir()] == [scratch.MARKER]
        marker = json.loads((folder / scratch.MARKER).read_text(encoding="utf-8"))
        assert marker["pid"] == os.getpid() and marker["started"] == scratch._started(os.getpid())
        assert scratch.sweep(str(folder.parent)).count(folder) == 0  # (this process's: running)
        assert folder.exists()
    finally:
        import shutil
        shutil.rmtree(folder)


def _a_free_number() -> int:
    """A process number no process has now (dead, as a killed export's is)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid
