"""A machine cache named inside the workspace or the output folder (``PNPGEN_CACHE=$PWD``,
``PNPGEN_CACHE=$PWD/data/test``) wrote its key, compiled templates and private folders among the
game's files: refused as a relative one is, exit 2, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.conftest import FEW_CARDS, make_workspace, run


@pytest.mark.parametrize("inside", [".", "data/test"])
def test_cache_in_the_workspace_is_refused(tmp_path: Path, monkeypatch, capsys, inside: str) -> None:
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    before = sorted(p.relative_to(ws) for p in ws.rglob("*"))
    monkeypatch.setenv("PNPGEN_CACHE", str(ws / inside))
    assert run(ws, "build", "--game", "test", "-q") == 2
    err = capsys.readouterr().err
    assert "PNPGEN_CACHE" in err and "inside the workspace" in err and "PNPGEN_CACHE=off" in err
    assert "Traceback" not in err
    assert sorted(p.relative_to(ws) for p in ws.rglob("*")) == before  # no secret, no code/, no build/


def test_cache_in_the_output_folder_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    out = tmp_path / "out"
    monkeypatch.setenv("PNPGEN_CACHE", str(out / "cache"))
    assert run(ws, "build", "--game", "test", "-q", "--out", str(out)) == 2
    assert "inside the output folder" in capsys.readouterr().err
    assert not out.exists()


def test_cache_beside_the_workspace_is_used(tmp_path: Path, monkeypatch) -> None:
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    assert run(ws, "build", "--game", "test", "-q") == 0
    assert (tmp_path / "cache" / "secret").is_file()


@pytest.mark.parametrize("variable", ["PNPGEN_CACHE", "XDG_CACHE_HOME"])
def test_clean_with_the_cache_named_in_the_workspace_cleans_and_says_why_it_stays(
        tmp_path: Path, monkeypatch, capsys, variable: str) -> None:
    """left47's refusal stopped ``pnpgen clean`` too, so what the builds wrote could not go: clean
    sets that cache aside, proves the records by the key of the one pnpgen keeps without it (the
    builds' own here), removes the outputs, and names the folder it leaves; every other command is
    still refused, and nothing is written where the variable points."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "-q", "--no-rulebook") == 0
    assert (ws / "build" / "test" / "cards.pdf").is_file()
    monkeypatch.setenv(variable, str(ws / "mine"))
    capsys.readouterr()
    assert run(ws, "clean") == 0
    out, err = capsys.readouterr()
    cache = "mine" if variable == "PNPGEN_CACHE" else "mine/pnpgen"
    assert f"{variable} puts pnpgen's machine cache ({cache}) inside the workspace" in err and f"leaves {cache} as it is" in err, err
    assert "removed" in out and not (ws / "build" / "test").exists(), out
    assert not (ws / "mine").exists() and Path.cwd() != ws
    assert os.environ[variable] == str(ws / "mine")  # (set aside for clean alone)
    assert run(ws, "build", "--game", "test", "-q") == 2
