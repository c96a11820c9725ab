"""Two workspaces given one ``--out`` (``--out ~/pnp/build`` typed in each, a script's default):
each build replaced the other's ``<out>/test/`` without a word, its change report listing the other
workspace's cards as removed, their versions mixed in ``.history/test/``, and ``clean`` from one
removed the other's files. An output folder is one workspace's (``output.refuse_other_workspace``):
another's build, export and clean stop in one line naming it, exit 2, nothing written or removed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _built(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Workspaces a (built into the shared folder) and b, each with a game 'test' of its own cards."""
    a = make_workspace(tmp_path / "a", pieces=FEW_CARDS)
    b = make_workspace(tmp_path / "b", pieces=["びー1"])
    shared = tmp_path / "shared"
    assert run(a, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 0
    return a, b, shared


@pytest.mark.parametrize("command", [("build", "--game", "test", "--no-rulebook", "--jobs", "1"),
                                     ("export", "--game", "test", "--preset", "doujin"),
                                     ("clean",), ("clean", "--history"), ("tag", "printed", "--game", "test"),
                                     ("log", "--game", "test"), ("reprint", "--game", "test", "--since", "v1")])
def test_another_workspace_neither_writes_nor_cleans_the_folder(tmp_path, capsys, command):
    a, b, shared = _built(tmp_path)
    capsys.readouterr()
    before = _tree(shared)
    assert run(b, *command, "--out", str(shared)) == 2
    err = capsys.readouterr().err
    assert f"is the output folder of another workspace, {a.resolve()}" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2  # (a warning of the game's, then the line)
    assert _tree(shared) == before


def test_the_workspace_itself_goes_on_building_and_cleaning_there(tmp_path, capsys):
    a, b, shared = _built(tmp_path)
    (a / "data" / "test" / "decks" / "cards.yaml").write_text(
        (a / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8").replace("本文カード1", "新しい本文"),
        encoding="utf-8")
    assert run(a, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 0
    assert run(a, "clean", "--history", "--out", str(shared)) == 0
    assert not shared.exists()  # every file pnpgen wrote gone, the record of the workspace with them
    assert run(b, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 0  # free again


def test_a_moved_workspace_leaves_its_folder_to_the_next(tmp_path, capsys):
    a, b, shared = _built(tmp_path)
    a.rename(tmp_path / "a-moved")
    assert run(b, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 0
    assert run(tmp_path / "a-moved", "build", "--game", "test", "--no-rulebook", "--jobs", "1",
               "--out", str(shared)) == 2  # b's now
    assert "another workspace" in capsys.readouterr().err


def test_a_copied_workspace_builds_into_its_own_build_folder(tmp_path, capsys):
    """``cp -r a a2``: a2/build/ names a as its workspace; it is a2's all the same (inside it)."""
    a = make_workspace(tmp_path / "a", pieces=FEW_CARDS)
    assert run(a, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    a2 = tmp_path / "a2"
    shutil.copytree(a, a2, symlinks=True)
    (a2 / "data" / "test" / "decks" / "cards.yaml").write_text(
        (a2 / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8").replace("本文カード1", "写し"),
        encoding="utf-8")
    assert run(a2, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert run(a2, "clean") == 0
    assert not (a2 / "build" / "test").exists()
    assert (a / "build" / "test" / "cards.pdf").is_file()


def test_two_first_builds_at_once_leave_one_workspaces_folder(tmp_path, capsys, monkeypatch):
    """Two workspaces' first builds into one new folder at once: each claimed it while no workspace
    had (``claim``, before the build), so the second to commit is refused there, under the lock."""
    from pnpgen.engine import fresh

    a = make_workspace(tmp_path / "a", pieces=FEW_CARDS)
    b = make_workspace(tmp_path / "b", pieces=["びー1"])
    shared = tmp_path / "shared"
    claim = fresh.claim

    def b_built_meanwhile(*args, **kwargs):
        claim(*args, **kwargs)
        monkeypatch.setattr(fresh, "claim", claim)
        assert run(b, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 0

    monkeypatch.setattr(fresh, "claim", b_built_meanwhile)
    capsys.readouterr()
    assert run(a, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 2
    assert f"is the output folder of another workspace, {b.resolve()}" in capsys.readouterr().err
    before = _tree(shared / "test")
    assert run(b, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(shared)) == 0
    assert _tree(shared / "test") == before  # b's, as b built it
