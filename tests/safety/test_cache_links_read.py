"""A link inside build/.cache (pnpgen never makes one) to records elsewhere — another
workspace's, from a zip: `check` and `reprint` read the records through it, outside the
workspace (the build stops at it, `build/.cache holds a link`); now they stop the same way."""

from __future__ import annotations

import shutil

import pytest

from conftest import FEW_CARDS, make_workspace, run


@pytest.fixture(autouse=True)
def _machine(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "mine"))


@pytest.mark.parametrize("command", [("check", "--game", "test"), ("reprint", "--game", "test", "--since", "v1")])
def test_a_command_reading_the_cache_stops_at_a_link_inside_it(tmp_path, capsys, command):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    renders = ws / "build" / ".cache" / "renders"
    assert renders.is_dir()
    shutil.move(renders, tmp_path / "elsewhere")
    renders.symlink_to(tmp_path / "elsewhere")
    capsys.readouterr()
    assert run(ws, *command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "build/.cache: the build cache holds a link (.cache/renders)" in err, err
    assert not list((ws / "build" / "test").glob("reprint-since-*"))
