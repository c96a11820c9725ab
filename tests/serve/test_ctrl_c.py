"""Ctrl-C ends ``watch`` and ``serve`` alike: exit status 130 (the shell's for SIGINT), no
traceback. ``serve`` exited 0 — uvicorn ends quietly on the signal and returns as if it had
ended by itself — so a script could not tell a preview stopped from one that finished."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from conftest import child_env, in_a_terminal_group, make_workspace


def _free_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


@pytest.mark.parametrize("command", [["watch", "--game", "test", "--no-rulebook"], ["serve", "--game", "test", "--port"]])
def test_ctrl_c_ends_watch_and_serve_with_130(tmp_path, command):
    if command[0] == "serve":
        pytest.importorskip("uvicorn", reason="the preview's HTTP stack")
        command = [*command, _free_port()]
    ws = make_workspace(tmp_path / "ws")

    proc = subprocess.Popen([sys.executable, "-u", "-m", "pnpgen", *command], cwd=ws, env=child_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=in_a_terminal_group)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the first build, then the watcher or the server
            if line.startswith("watching ") or " preview on " in line:
                break
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.endswith("\npnpgen: interrupted\n") or err == "pnpgen: interrupted\n", err  # as every command


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("command", [["watch", "--game", "test"], ["serve", "--game", "test", "--port"]])
def test_sigterm_and_sighup_end_watch_and_serve_as_ctrl_c_does(tmp_path, command, signum):
    """Sent to the command's process alone (kill, docker stop, a closed terminal): SIGHUP killed
    watch and serve without a word, leaving the watcher's rulebook process to the system; serve
    took SIGTERM, watch only SIGTERM, each with a status of its own. Now every one is one line,
    128 + the signal, and no process of the command left."""
    if command[0] == "serve":
        pytest.importorskip("uvicorn", reason="the preview's HTTP stack")
        command = [*command, _free_port()]
    ws = make_workspace(tmp_path / "ws", draft=True)
    proc = subprocess.Popen([sys.executable, "-u", "-m", "pnpgen", *command], cwd=ws, env=child_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=in_a_terminal_group)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("watching ") or " preview on " in line:
                break
        os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    name = signal.Signals(signum).name
    assert (proc.returncode, err.splitlines()[-1:]) == (128 + signum, [f"pnpgen: interrupted ({name})"]), err
    assert "Traceback" not in err, err
    for _ in range(500):  # (the rulebook's process ends with the command: the system tells it)
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    else:
        raise AssertionError("a process of the command still runs")


@pytest.mark.parametrize("command", [["watch", "--game", "test", "--no-rulebook"], ["serve", "--game", "test", "--port"]])
def test_watch_and_serve_refuse_an_out_no_save_can_make_right_and_exit_2(tmp_path, command, capsys):
    """``--out data`` (inside the workspace's data/): watch and serve printed the error and went
    on watching, a loop that could never build; they exit 2 at once, as build does, having
    written nothing."""
    from conftest import forked_cli

    if command[0] == "serve":
        pytest.importorskip("uvicorn", reason="the preview's HTTP stack")
        command = [*command, _free_port()]
    ws = make_workspace(tmp_path / "ws")
    before = sorted(p.relative_to(ws) for p in ws.rglob("*"))
    code, err = forked_cli(ws, *command, "--out", "data", timeout=30)
    assert code == 2, (code, err)
    assert "--out: data is inside the workspace's data/" in err and "Traceback" not in err, err
    assert sorted(p.relative_to(ws) for p in ws.rglob("*")) == before


def test_serve_says_its_address_once_it_listens(tmp_path):
    """``serve`` printed "preview on …" before uvicorn had started: a browser opened at once found
    nothing, and a Ctrl-C in that instant could fall in an import's clean-up, where Python ignores
    it, leaving the preview running. The line comes once the port takes connections."""
    pytest.importorskip("uvicorn", reason="the preview's HTTP stack")
    port = _free_port()
    ws = make_workspace(tmp_path / "ws")
    proc = subprocess.Popen([sys.executable, "-u", "-m", "pnpgen", "serve", "--game", "test", "--port", port], cwd=ws,
                            env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=in_a_terminal_group)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if " preview on " in line:
                break
        with socket.create_connection(("127.0.0.1", int(port)), timeout=5):
            pass  # refused (ConnectionRefusedError) while nothing listens yet
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=60)
    assert proc.returncode == 130
