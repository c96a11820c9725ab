"""The workspace deleted, renamed, or its name given to a link while ``pnpgen watch`` runs: the
watcher printed "unknown game 'test'" and ended in a FileNotFoundError traceback (the command's
folder restored after it, gone). One line saying the workspace is gone, exit 2, nothing written
where its name now leads."""

from __future__ import annotations

import shutil
import threading

import pytest

from conftest import FEW_CARDS, make_workspace, run


@pytest.mark.parametrize("how", ["deleted", "renamed", "a link"])
def test_the_workspace_gone_while_watching_is_one_line(tmp_path, monkeypatch, capsys, how):
    from pnpgen import commands

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real_build = commands.build

    def build_then_go(ws_, args, warm=None, heading=None):
        code = real_build(ws_, args, warm, heading=heading)
        if how == "deleted":
            shutil.rmtree(ws)
        else:
            ws.rename(tmp_path / "moved")
            if how == "a link":
                ws.symlink_to(elsewhere)
        return code

    monkeypatch.setattr(commands, "build", build_then_go)
    done: list[int] = []
    watcher = threading.Thread(target=lambda: done.append(run(
        ws, "watch", "--game", "test", "--no-rulebook", "--jobs", "1")), daemon=True)
    watcher.start()
    watcher.join(60)  # (it watched a folder that was gone for ever)
    err = capsys.readouterr().err
    assert done == [2], err
    errors = [line for line in err.splitlines() if line.startswith("pnpgen: error: ")]
    assert errors == [line for line in err.splitlines() if "error" in line] and len(errors) == 1, err
    assert f"the workspace {ws} is gone while watching" in errors[0] and "Traceback" not in err, err
    assert list(elsewhere.iterdir()) == []
    if how != "deleted":
        assert (tmp_path / "moved" / "build" / "test" / "cards.pdf").is_file()  # the files built stay
