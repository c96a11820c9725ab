"""A command killed on its own (SIGKILL, the out-of-memory killer, a SIGTERM an editor or a
script's ``kill`` sends to its process alone, not to its group as a terminal does) leaves no
process behind: its forked workers (the rulebook's process, the pools') waited for work, or to
send a result, for ever, holding the other end of their own pipes, and the output pipes of
whatever ran the command (``out=$(pnpgen build …)`` and ``pnpgen build | tee log`` never ended)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import child_env, make_workspace

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists() or not hasattr(os, "fork"),
                                reason="reads a process's children from /proc; forks")


def _ended(pid: int, within: float = 30) -> bool:
    """Whether process ``pid`` ends (is gone, or a zombie not yet reaped) within ``within`` seconds
    (only a guard: a process that lingers never ends)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
        except (OSError, IndexError):
            return True
        if state == "Z":
            return True
        time.sleep(0.02)
    return False


def test_a_build_killed_alone_leaves_no_process_of_its_own(tmp_path):
    """A drafted build with a core to spare starts the rulebook's process before it reads the
    game; the build killed then, that process ended with it (it waited for a job for ever)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    proc = subprocess.Popen([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--jobs", "2"], cwd=ws,
                            env=child_env(PNPGEN_CACHE="off"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    children: list[str] = []
    try:
        while proc.poll() is None and not children:
            try:
                children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
            except OSError:
                pass
            os.sched_yield()
        assert children, "the build ended before it started its rulebook's process"
        proc.kill()  # the command alone, not its group
        proc.wait(timeout=60)
        lingering = [c for c in children if not _ended(int(c))]
    finally:
        for child in children:
            try:
                os.kill(int(child), signal.SIGKILL)
            except OSError:
                pass
    assert lingering == []


POOL = textwrap.dedent("""\
    import multiprocessing, os, signal
    from concurrent.futures import ProcessPoolExecutor
    from pnpgen.children import forked_end_with_parent

    forked_end_with_parent()  # as the command does at its start (cli.console)
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    print(pool.submit(os.getpid).result(), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
""")


def test_a_pools_worker_ends_with_the_command_killed_alone(tmp_path):
    """A pool's forked worker (faces converted, documents written, games built side by side)
    waits on its queue, whose other end it holds itself: it outlived the command, and the
    command's caller waited for the end of its output for ever."""
    script = tmp_path / "pool.py"
    script.write_text(POOL, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], env=child_env(), stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        assert proc.wait(timeout=60) == -signal.SIGKILL
        assert _ended(worker)
        assert proc.stdout.read() == ""  # the end of the output: nothing holds the pipe any more
    finally:
        if worker:
            try:
                os.kill(worker, signal.SIGKILL)
            except OSError:
                pass


ON_A_THREAD = textwrap.dedent("""\
    import os, threading, time
    from pnpgen.children import forked_end_with_parent

    forked_end_with_parent()
    forked = []

    def fork():
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # (the fork's hooks have run: say so, so the thread ends only after them)
            os.write(w, b"1")
            time.sleep(5)
            os._exit(0)
        os.read(r, 1)
        forked.append(pid)

    thread = threading.Thread(target=fork)
    thread.start()
    thread.join()  # the thread that forked ends; this process lives on
    time.sleep(1)
    print(os.waitpid(forked[0], 0)[1], flush=True)
""")


def test_a_process_forked_on_a_thread_outlives_that_thread(tmp_path):
    """Linux sends the end-with-parent signal when the *thread* that forked ends: the preview's
    server builds on pool threads that end when idle, so its rulebook process was killed some
    seconds after a save. A process forked on another thread is not marked; it ends by its pipe."""
    script = tmp_path / "thread.py"
    script.write_text(ON_A_THREAD, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == 0  # ended by itself after its sleep (a SIGTERM would give 15)


GONE_WHILE_WORKING = textwrap.dedent("""\
    import os, time
    from pnpgen.engine.warm import Worker

    def slow(kept):
        time.sleep(1)
        return "x" * 1_000_000  # more than a pipe holds: the send meets the closed end

    worker = Worker(dict)
    worker.submit(slow)
    time.sleep(0.3)
    os._exit(2)  # a build stopped by an error while the rulebook's process works
""")


def test_the_rulebook_process_ends_quietly_when_the_build_stopped_while_it_worked(tmp_path):
    """A drafted build stopped by an input error while its rulebook process set a job: the process,
    its answer's pipe closed, printed a BrokenPipeError traceback into the terminal the two share,
    after the build's one-line error."""
    script = tmp_path / "gone.py"
    script.write_text(GONE_WHILE_WORKING, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ""  # (read to its end: the worker's copy of stderr closed too)
