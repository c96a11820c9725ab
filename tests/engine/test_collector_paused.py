"""A game's sheets and documents are planned and drawn with the garbage collector paused (the
3,000-card edit of issue 22: its collections walked objects that live until they are written);
the faces are read and converted, and a rulebook set in the build's process, with it on, and it
is on again after the build, whether the build succeeded or failed."""

from __future__ import annotations

import gc
import shutil

import pytest

from conftest import make_workspace
from pnpgen.data.workspace import Workspace
from pnpgen.engine import game as build_game
from pnpgen.engine import run as build_run
from pnpgen.engine.options import BuildOptions


def _watched(monkeypatch, fail: bool = False) -> dict[str, list[bool]]:
    """The collector's state as the faces are read, the sheets imposed and the documents written."""
    seen: dict[str, list[bool]] = {"faces": [], "impose": [], "write": []}
    convert, impose, write = build_game.convert_faces, build_game.impose_game, build_game.write_documents

    def converting(*a, **k):
        seen["faces"].append(gc.isenabled())
        return convert(*a, **k)

    def imposing(*a, **k):
        seen["impose"].append(gc.isenabled())
        return impose(*a, **k)

    def writing(*a, **k):
        seen["write"].append(gc.isenabled())
        if fail:
            raise RuntimeError("a document failed")
        return write(*a, **k)

    monkeypatch.setattr(build_game, "convert_faces", converting)
    monkeypatch.setattr(build_game, "impose_game", imposing)
    monkeypatch.setattr(build_game, "write_documents", writing)
    return seen


def test_the_sheets_and_documents_are_made_with_the_collector_paused(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "ws")
    seen = _watched(monkeypatch)
    assert gc.isenabled()
    build_run.run_build(Workspace(root), ["test"], BuildOptions(jobs=1), root / "build", None)
    assert seen == {"faces": [True], "impose": [False], "write": [False]}
    assert gc.isenabled()
    assert (root / "build" / "test" / "cards.pdf").is_file()


def test_a_failed_build_leaves_the_collector_on(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "ws")
    seen = _watched(monkeypatch, fail=True)
    with pytest.raises(RuntimeError, match="a document failed"):
        build_run.run_build(Workspace(root), ["test"], BuildOptions(jobs=1), root / "build", None)
    assert seen["write"] == [False]
    assert gc.isenabled()


def test_a_collector_its_caller_turned_off_stays_off():
    gc.disable()
    try:
        with build_run.collector_paused() as collector:
            collector.pause()
        assert not gc.isenabled()
    finally:
        gc.enable()
    with build_run.collector_paused():
        assert gc.isenabled()  # (not paused until asked)
    assert gc.isenabled()


def test_the_collector_stays_paused_until_the_files_are_committed(tmp_path, monkeypatch):
    """No collection walks what the commit frees (0.10 CPU-s at 3,000 cards); a second game of the
    same run reads and converts its faces with the collector on again (their cycles collected)."""
    root = make_workspace(tmp_path / "ws")
    shutil.copytree(root / "data" / "test", root / "data" / "other")
    shutil.copytree(root / "templates" / "test", root / "templates" / "other")
    seen = _watched(monkeypatch)
    committing = build_run.commit
    at_commit: list[bool] = []

    def commit(*a, **k):
        at_commit.append(gc.isenabled())
        return committing(*a, **k)

    monkeypatch.setattr(build_run, "commit", commit)
    build_run.run_build(Workspace(root), ["test", "other"], BuildOptions(jobs=1), root / "build", None)
    assert seen == {"faces": [True, True], "impose": [False, False], "write": [False, False]}
    assert at_commit == [False]
    assert gc.isenabled()
    assert (root / "build" / "other" / "cards.pdf").is_file()


def test_a_failed_commit_leaves_the_collector_on(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "ws")

    def commit(*a, **k):
        assert not gc.isenabled()
        raise OSError("the disk is full")

    monkeypatch.setattr(build_run, "commit", commit)
    with pytest.raises(OSError, match="the disk is full"):
        build_run.run_build(Workspace(root), ["test"], BuildOptions(jobs=1), root / "build", None)
    assert gc.isenabled()
