"""The watch loop's process sets each save's kept objects aside from the garbage collector once
its files are written (engine/warm.py ``Warm.set_aside``): the next save's collections walk only
what that save makes, not the last save's sheets and faces again (a 3,000-card deck's warm save
cost more than a new process: docs/speed.md, watch3k), and each save writes a one-off build's bytes."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

from test_warm_imposition import _files

from conftest import REPO, child_env, make_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.engine import run as build_run
from pnpgen.engine import warm as warm_module
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.warm import Warm

# A test of the collector's whole walks runs in a new interpreter (``in_a_new_process``): each
# walk of a test worker's heap late in its run costs about a second (the two tests below some 8
# CPU-s of the suite's, 1 of a new process), and unfreezing that heap left every later
# collection of the worker walking it all again.
CHILD = """
import gc, sys
from pathlib import Path
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/engine"]
import pytest
import test_warm_set_aside as module
from pnpgen.cli import COLLECTOR_THRESHOLDS
gc.set_threshold(*COLLECTOR_THRESHOLDS)  # as the pnpgen command's process sets its collector
with pytest.MonkeyPatch.context() as monkeypatch:
    getattr(module, sys.argv[2])(Path(sys.argv[3]), monkeypatch)
"""


def in_a_new_process(body, tmp_path: Path) -> None:
    """``body(tmp_path, monkeypatch)`` run in a new interpreter (as ``watch``'s own process); its
    failure, with the child's traceback, fails the test."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(REPO / "tests"), body.__name__, str(tmp_path)],
                          env=child_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


def _walked(saves: list[int]):
    """A collector callback adding to ``saves[-1]`` the objects each collection walks (those
    tracked, outside the frozen set, in the generations it collects): the work counted."""
    def count(phase: str, info: dict) -> None:
        if phase == "start" and saves:
            saves[-1] += sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1))
    return count


def test_a_save_leaves_nothing_for_the_next_saves_collections_and_writes_a_one_off_builds_bytes(tmp_path):
    in_a_new_process(_saves_leave_nothing, tmp_path)


def _saves_leave_nothing(tmp_path: Path, monkeypatch) -> None:
    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(1, 41)])
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    ws = Workspace(root)
    monkeypatch.setattr(warm_module, "WALK_ALL_EVERY", 3)
    walked: list[int] = []
    gc.callbacks.append(_walked(walked))
    try:
        with Warm(own_process=True) as warm:
            build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
            warm.set_aside()
            for n in range(1, 5):
                text = deck.read_text(encoding="utf-8")
                deck.write_text(text.replace(f"本文カード{n}}}", f"本文カード{n}を書き直した}}"), encoding="utf-8")
                build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None, warm=warm)
                warm.set_aside()
                # every object the save left (the kept sheets and faces, its garbage) set aside or freed:
                assert len(gc.get_objects()) < 100
                walked.append(0)
                gc.collect(1)  # the next save's first collections walk none of them
                assert walked[-1] < 1000
                assert gc.collect() == 0  # the save's garbage collected already
                cold = tmp_path / f"cold{n}"
                build_run.run_build(ws, ["test"], BuildOptions(jobs=1), cold, None)
                assert _files(root / "build" / "test") == _files(cold / "test")
            assert warm.saves == 5
    finally:
        gc.callbacks.pop()


class _Node:
    """An object of a cycle, watched by a weak reference."""

    def __init__(self) -> None:
        self.me = self


def test_a_freeze_every_few_saves_walks_the_whole_heap_again(tmp_path):
    """What a set-aside save kept and a later one let go of inside a cycle is freed at the next
    whole walk, not kept for the session."""
    in_a_new_process(_whole_walk_every_few_saves, tmp_path)


def _whole_walk_every_few_saves(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(warm_module, "WALK_ALL_EVERY", 2)
    warm = Warm(own_process=True)
    warm.set_aside()
    kept = _Node()  # kept by a save, set aside with it
    gone = weakref.ref(kept)
    warm.set_aside()
    del kept  # let go of by the next save: a cycle among the frozen objects
    warm.set_aside()
    assert gone() is not None  # (not walked: set aside)
    warm.set_aside()  # the fourth walks everything again
    assert gone() is None


def test_a_tests_or_scripts_process_keeps_its_collector():
    frozen = gc.get_freeze_count()
    Warm().set_aside()
    assert gc.get_freeze_count() == frozen


def test_watch_sets_each_save_aside_once_its_files_are_written_or_its_error_said(tmp_path, capsys, monkeypatch):
    root = make_workspace(tmp_path / "ws", ["カード1", "カード2"])
    cards = root / "build" / "test" / "cards.pdf"
    seen: list[tuple[bool, bool]] = []  # (the cards' file there, own process) at each set-aside
    monkeypatch.setattr(Warm, "set_aside", lambda self: seen.append((cards.exists(), self.own_process)))
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        root, "watch", "--game", "test", "--no-rulebook", "--max-builds", "1", "--jobs", "1")), daemon=True)
    watcher.start()
    for _ in range(300):
        if "watching data/test" in capsys.readouterr().out:
            break
        time.sleep(0.05)
    assert seen == [(True, False)]  # the first build's, once written (a test's process: its collector kept)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: [\n", encoding="utf-8")  # a bad save
    watcher.join(30)
    assert done == [0]
    assert "pnpgen: error:" in capsys.readouterr().err
    assert seen == [(True, False), (True, False)]  # the bad save's too
