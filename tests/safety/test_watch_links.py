"""``pnpgen watch`` and ``serve`` watch a game's folders with watchfiles, which follows every link
below them: a link in ``data/<game>/`` to a folder outside the workspace (no build reads through
it) had the watcher watch that folder and everything below it — 16,000 watches for ``/usr``, every
folder of the machine for ``/`` — and rebuild on whatever changed there. Such a link is one line
(exit 2) before anything is watched; a link to a folder of the workspace is followed as before."""

from __future__ import annotations

import pytest

from conftest import forked_cli, make_workspace
from pnpgen.data.workspace import Workspace
from pnpgen.engine.fresh import watched


def _free_port() -> str:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize("command", [["watch", "--game", "test"], ["serve", "--game", "test", "--port"]])
def test_a_link_out_of_the_workspace_is_refused_before_anything_is_watched(tmp_path, command):
    command = command + [_free_port()] if command[0] == "serve" else command
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "elsewhere").symlink_to(outside)
    code, err = forked_cli(ws, *command, timeout=30)  # (it watched for ever: killed, -9)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "data/test/elsewhere" in err and "Traceback" not in err


def test_a_link_inside_the_workspace_is_watched(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    (ws / "shared" / "art").mkdir(parents=True)
    (ws / "data" / "test" / "art").symlink_to(ws / "shared" / "art")
    folders = watched(Workspace(ws), "test")
    assert ws / "data" / "test" in folders and ws / "fonts" in folders  # (fonts: a link to the fonts of the checkout)
