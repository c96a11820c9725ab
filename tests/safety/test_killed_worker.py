"""A --jobs worker killed while the build waits for it (the system short of memory, a kill): the
build ended in a BrokenProcessPool traceback, exit status 1. A face worker's faces are rendered by
the build's own process, as without workers, the files the same bytes as --jobs 1's; a worker the
build cannot do without ends it in one line, exit status 2, the last good output as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import kill_this_forked_process, make_workspace, run
from pnpgen.engine import prerender

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork (the workers inherit the patched run)")
PIECES = [f"カード{i}" for i in range(1, 7)]


def _killed(*args, **kwargs):
    kill_this_forked_process()


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.relative_to(folder).as_posix().startswith((".cache", ".history", ".pnpgen"))}


def test_a_killed_face_worker_leaves_its_faces_to_the_build_and_the_files_are_those_of_jobs_1(tmp_path, monkeypatch, capsys):
    _killed_worker_leaves_its_faces_to_the_build(tmp_path, monkeypatch, capsys, prerender, "_render_run")


def test_a_killed_converting_worker_leaves_its_faces_to_the_build_and_the_files_are_those_of_jobs_1(tmp_path, monkeypatch,
                                                                                                   capsys):
    """A worker converting faces (forked: it finds them in its copy of the build's memory) killed:
    its faces are converted by the build's own process, as without workers (it ended in a
    BrokenProcessPool traceback, exit status 1)."""
    from pnpgen.faces import convert

    if not convert.can_fork():
        pytest.skip("the converting workers are forked only where the system forks")
    _killed_worker_leaves_its_faces_to_the_build(tmp_path, monkeypatch, capsys, convert, "convert_chunk")


def _killed_worker_leaves_its_faces_to_the_build(tmp_path: Path, monkeypatch, capsys, module, work: str) -> None:
    """A build of 6 cards with --jobs 2, over workers from 4 faces up, whose ``module.work`` kills
    the worker: its faces are made by the build's own process, the files those of --jobs 1."""
    ws = make_workspace(tmp_path / "ws", PIECES)
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", "one") == 0
    monkeypatch.setattr(module, "MIN_FACES", 4)  # (7 to 12 faces: over the workers)
    monkeypatch.setattr(module, work, _killed)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", "two") == 0
    assert "Traceback" not in capsys.readouterr().err
    assert _tree(ws / "two") == _tree(ws / "one") and (ws / "two" / "test" / "cards.pdf").is_file()


def test_a_worker_the_build_cannot_do_without_killed_is_one_line_and_the_last_output_kept(tmp_path, monkeypatch, capsys):
    from concurrent.futures.process import BrokenProcessPool

    from pnpgen.engine import run as engine_run

    ws = make_workspace(tmp_path / "ws", PIECES[:3])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    before = _tree(ws / "build")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード1", "カード一"), encoding="utf-8")

    def dies(*args, **kwargs):  # as a pool's future answers when its process was killed
        raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    monkeypatch.setattr(engine_run, "build_game", dies)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: a worker process of this command ended abruptly") and err.count("\n") == 1
    assert "--jobs 1" in err and _tree(ws / "build") == before
