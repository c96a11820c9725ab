"""``TMPDIR`` naming a folder in the workspace (``TMPDIR=$PWD/data/tmp``): preflight's folder of
page separations appeared in ``data/`` while it ran (and a fault's report, and the scratch files of
the programs pnpgen runs), among the game's files. Refused, exit 2, as a machine cache there is."""

from __future__ import annotations

import pytest

from conftest import FEW_CARDS, make_workspace, run


@pytest.mark.parametrize("command", [("build", "--game", "test", "-q"), ("preflight", "build/test/doujin"),
                                     ("preflight", "--game", "test", "--preset", "doujin")])
def test_a_temporary_folder_in_the_workspace_is_refused(tmp_path, monkeypatch, capsys, command):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data" / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(ws / "data" / "tmp"))
    assert run(ws, *command) == 2
    err = capsys.readouterr().err
    assert "TMPDIR" in err and "inside the workspace" in err and "outside the workspace" in err, err
    assert "Traceback" not in err
    assert not any((ws / "data" / "tmp").iterdir()) and not (ws / "build").exists()


def test_a_temporary_folder_in_the_output_folder_is_refused(tmp_path, monkeypatch, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    monkeypatch.setenv("TMP", str(tmp_path / "out" / "tmp"))
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("TEMP", raising=False)
    assert run(ws, "build", "--game", "test", "-q", "--out", str(tmp_path / "out")) == 2
    assert "TMP puts" in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_a_temporary_folder_beside_the_workspace_is_used(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    assert run(ws, "build", "--game", "test", "-q", "--no-rulebook") == 0


@pytest.mark.parametrize("first", ["missing", "a file"])
def test_a_temporary_folder_in_the_workspace_behind_one_python_passes_over_is_refused(tmp_path, monkeypatch, capsys,
                                                                                      first):
    """Python takes the first of TMPDIR, TEMP and TMP that names a folder it can write in: a TMPDIR
    that does not (gone, a file) was the one looked at, and TEMP, in the workspace, the one used."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "data" / "tmp").mkdir()
    if first == "a file":
        (tmp_path / "tmpfile").write_text("", encoding="utf-8")
    monkeypatch.setenv("TMPDIR", str(tmp_path / ("tmpfile" if first == "a file" else "gone")))
    monkeypatch.setenv("TEMP", str(ws / "data" / "tmp"))
    assert run(ws, "preflight", "--game", "test", "--preset", "doujin") == 2
    err = capsys.readouterr().err
    assert "TEMP puts" in err and "inside the workspace" in err, err
    assert not any((ws / "data" / "tmp").iterdir())
