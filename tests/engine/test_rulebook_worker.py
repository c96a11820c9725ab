"""The rulebook's process (engine/warm.py ``Worker``): what it keeps from one job to the next is
made where the process starts and handed to each job, never held by a module (engine/typeset.py)."""

from __future__ import annotations

import ast
import os
import signal
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from pnpgen.engine import typeset
from pnpgen.engine.warm import Worker
from pnpgen.errors import InputError


def _remember(state: dict, key: str, value: int) -> tuple[int, int | None]:
    old = state.get(key)
    state[key] = value
    return os.getpid(), old


def _fail(state: dict) -> None:
    raise InputError("no such deck", path="data/test/decks/x.yaml")


def _pid(state: dict) -> int:
    return os.getpid()


def test_each_job_is_handed_the_state_made_where_the_process_started():
    worker = Worker(dict)
    try:
        first = worker.submit(_remember, "a", 1).result()
        second = worker.submit(_remember, "a", 2).result()
        assert first[1] is None and second[1] == 1  # the second job sees what the first kept
        assert first[0] == second[0] != os.getpid()  # in one process, not this one
        other = Worker(dict)  # another process: a state of its own
        try:
            assert other.submit(_remember, "a", 3).result()[1] is None
        finally:
            other.shutdown()
    finally:
        worker.shutdown()


def test_a_jobs_error_comes_back_as_itself_and_a_killed_process_fails_its_jobs():
    worker = Worker(dict)
    try:
        with pytest.raises(InputError, match="no such deck"):
            worker.submit(_fail).result()
        assert worker.submit(_remember, "b", 1).result()[1] is None  # the process goes on
        os.kill(worker.submit(_pid).result(), signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):
            worker.submit(_pid).result(timeout=30)
    finally:
        worker.shutdown()


def test_the_rulebook_job_module_keeps_nothing_between_jobs():
    """No module-level dict, list, set or object of engine/typeset.py: what the process keeps
    is its ``Setting``, handed down (the house rule: no module globals carrying data)."""
    tree = ast.parse(Path(typeset.__file__).read_text(encoding="utf-8"))
    held = [node.lineno for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
            and isinstance(node.value, (ast.Dict, ast.List, ast.Set, ast.Call))]
    assert held == []
    assert typeset.Setting().read_ahead == {}


class _SlowStart:
    """A state that is made only once ``gate`` exists: a process still importing its libraries."""

    def __init__(self, gate: Path) -> None:
        self.gate = gate

    def __call__(self) -> dict:
        while not self.gate.exists():
            os.sched_yield()
        return {}


def _size(state: dict, data: bytes) -> int:
    return len(data)


def test_a_big_job_is_handed_over_without_waiting_for_the_process_to_read_it(tmp_path):
    """A job bigger than a pipe holds (the rulebook's: 300 kB) is sent by the worker's own thread:
    the build goes on while the process is still starting (its send used to wait for that)."""
    import threading

    gate = tmp_path / "started"
    worker = Worker(_SlowStart(gate))
    try:
        futures = []
        submitting = threading.Thread(target=lambda: futures.append(worker.submit(_size, b"x" * (4 << 20))))
        submitting.start()
        submitting.join(30)  # (only a send that waits for the reader can take this long: it never reads yet)
        handed = not submitting.is_alive()
        gate.touch()
        submitting.join()
        assert handed, "submit waited for the process to read the job"
        assert futures[0].result() == 4 << 20
    finally:
        gate.touch()
        worker.shutdown()
