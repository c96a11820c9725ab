"""Issue 22 (jobs45): a big deck's forms pack made by a process forked for it, beside the rest of
the build's end — the same bytes as the build's own process makes, never with ``--jobs 1``, and
made here when the forked process does not answer (engine/beside.py)."""

from __future__ import annotations

import os
import time

import pytest

from conftest import DECK_YAML, kill_this_forked_process, make_workspace, run
from pnpgen.engine import beside, bookjob
from pnpgen.engine import run as engine_run

N = 12  # cards: 13 faces, 4 documents' pages — over BESIDE_FORMS set down to 1


def _deck(n: int) -> str:
    return DECK_YAML + "".join(f"  - {{name: 札{i}, text: 効果{i}, count: {i % 2 + 1}}}\n" for i in range(1, n + 1))


def test_forms_pack_made_beside_is_the_one_made_here(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", deck=_deck(N))
    monkeypatch.setattr(engine_run, "BESIDE_FORMS", 1)
    forked: list[bool] = []  # each forms pack: made by a forked process?
    real = beside.Beside.__init__

    def counted(self, make, fork=True):
        real(self, make, fork)
        forked.append(self.pid != 0)

    monkeypatch.setattr(beside.Beside, "__init__", counted)
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs[jobs] = out
    assert forked == [False, True]  # --jobs 1 keeps to one core (tests/engine/test_one_core.py)
    packs = [(out / ".cache" / "forms" / "test.pack.json").read_bytes() for out in outs.values()]
    assert packs[0] == packs[1] and packs[0].count(b"\n") > N  # every face and page, as one process makes them
    files = sorted(p.relative_to(outs["1"] / "test") for p in (outs["1"] / "test").rglob("*") if p.is_file())
    assert len(files) >= 5
    assert all((outs["1"] / "test" / rel).read_bytes() == (outs["2"] / "test" / rel).read_bytes() for rel in files)
    # the next build reads the pack the forked process made: nothing changed, nothing written
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(outs["2"])) == 0
    assert forked == [False, True]


def test_below_the_threshold_no_process_is_forked(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", deck=_deck(3))
    made = []
    real = beside.Beside.__init__
    monkeypatch.setattr(beside.Beside, "__init__", lambda self, make, fork=True: made.append(fork) or real(self, make, fork))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(tmp_path / "out")) == 0
    assert made == [False]  # a handful of faces: encoded here, quicker than a fork


def test_a_forked_process_that_dies_leaves_the_bytes_to_be_made_here():
    here = os.getpid()

    def make() -> bytes:
        if os.getpid() != here:
            kill_this_forked_process()
        return b"made here"

    pack = beside.Beside(make)
    assert pack.pid
    assert pack.result() == b"made here" and pack.pid == 0


def test_what_the_forked_process_raises_is_raised_here():
    def make() -> bytes:
        raise ValueError("a face that cannot be encoded")

    pack = beside.Beside(make)
    with pytest.raises(ValueError, match="cannot be encoded"):
        pack.result()


def test_big_bytes_come_back_whole_and_an_unread_process_is_ended():
    data = bytes(range(256)) * 8192  # 2 MB: more than a pipe holds
    assert beside.Beside(lambda: data).result() == data
    assert beside.Beside(lambda: data, fork=False).result() == data
    waiting = beside.Beside(lambda: data)  # blocked on its full pipe: a failed build never reads it
    pid = waiting.pid
    time.sleep(0.05)
    waiting.cancel()
    assert waiting.pid == 0
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # ended and reaped: no process left behind


@pytest.mark.parametrize("where", ["_no_longer_made", "finish"])  # after the game's step that forked, and in it
def test_a_build_failing_after_the_fork_leaves_no_process(tmp_path, monkeypatch, where):
    ws = make_workspace(tmp_path / "ws", deck=_deck(N), draft=where == "finish")
    monkeypatch.setattr(engine_run, "BESIDE_FORMS", 1)
    pids: list[int] = []
    real = beside.Beside.__init__
    monkeypatch.setattr(beside.Beside, "__init__", lambda self, make, fork=True: real(self, make, fork) or pids.append(self.pid))

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bookjob.RulebookJob if where == "finish" else engine_run, where, broken)
    try:
        code = run(ws, "build", "--game", "test", *(() if where == "finish" else ("--no-rulebook",)), "--jobs", "2",
                   "--out", str(tmp_path / "out"))
    except OSError:
        code = 1
    assert code != 0 and len(pids) == 1 and pids[0]
    with pytest.raises(ChildProcessError):
        os.waitpid(pids[0], os.WNOHANG)  # ended and reaped, not left waiting on its full pipe


def test_made_here_now_is_made_once_and_given_by_result():
    made: list[int] = []

    def make() -> bytes:
        made.append(1)
        return b"the forms"

    pack = beside.Beside(make, fork=False)
    pack.now()
    assert made == [1]  # at once, not when the bytes are asked for
    pack.now()
    assert pack.result() == b"the forms" and made == [1]
    with pytest.raises(AssertionError):
        pack.result()  # taken once
    dropped = beside.Beside(make, fork=False)
    dropped.now()
    dropped.cancel()  # (a failed build: the bytes let go of)
    with pytest.raises(AssertionError):
        dropped.result()
    forked = beside.Beside(lambda: b"by the other process")
    forked.now()  # a forked process makes them: nothing made here
    assert forked.result() == b"by the other process" and made == [1, 1]


class _StillSetting:
    """The book's answer to come, as on a loaded machine: not done until it is asked for."""

    def __init__(self, future, order: list[str]) -> None:
        self.future, self.order = future, order

    def done(self) -> bool:
        return False

    def result(self):
        self.order.append("the book's answer waited for")
        return self.future.result()


def test_the_forms_pack_is_made_while_the_book_is_set_not_after(tmp_path, monkeypatch):
    """watch49: a build whose book is set in the rulebook's process (a watch save, a build with a
    core for it) makes the forms pack while it waits for the book, not once the book is back:
    after it, the save waited for both. The same bytes as a build that sets the book itself."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(3), draft=True)
    order: list[str] = []
    forms = engine_run._forms_pack
    monkeypatch.setattr(engine_run, "_forms_pack", lambda *a: order.append("forms pack made") or forms(*a))
    start = bookjob.RulebookJob.start

    def started(self, *args, **kwargs):
        start(self, *args, **kwargs)
        if self.future is not None:
            self.future = _StillSetting(self.future, order)

    monkeypatch.setattr(bookjob.RulebookJob, "start", started)
    outs = {jobs: tmp_path / f"jobs{jobs}" for jobs in ("2", "1")}
    assert run(ws, "build", "--game", "test", "--jobs", "2", "--out", str(outs["2"])) == 0
    assert order == ["forms pack made", "the book's answer waited for"]
    order.clear()
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--out", str(outs["1"])) == 0
    assert order == ["forms pack made"]  # (--jobs 1: the book set in the build's own process)
    pack = [(out / ".cache" / "forms" / "test.pack.json").read_bytes() for out in outs.values()]
    assert pack[0] == pack[1] and pack[0].count(b"\n") > 3
    files = sorted(p.relative_to(outs["1"] / "test") for p in (outs["1"] / "test").rglob("*") if p.is_file())
    assert {"rulebook.pdf", "manifest.json"} <= {f.as_posix() for f in files}
    assert all((outs["1"] / "test" / rel).read_bytes() == (outs["2"] / "test" / rel).read_bytes() for rel in files)
