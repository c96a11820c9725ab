"""A machine cache named inside the workspace or the output folder (``PNPGEN_CACHE=$PWD``,
``PNPGEN_CACHE=$PWD/data/test``) wrote its key, compiled templates and private folders among the
game's files: refused as a relative one is, exit 2, nothing written."""

from __future__ import annotations

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
