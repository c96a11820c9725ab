"""How the suite's tests are handed to its pytest-xdist workers (tests/conftest.py
``pytest_xdist_make_scheduler``): ``--dist loadscope`` — each module on one worker, the modules of
``shared`` as one unit — mended where a worker dies.

A worker that dies mid-run (killed, out of memory, a crash in a library) made pytest-xdist 3.8's
loadscope scheduler put the dead worker's whole workload back on the queue: the test that killed
it, to be run again by the next worker (which it killed too), and every module the worker had
already finished, as empty units a worker is never answered for. The run then waited for ever:
CI's run of the forty-third session stopped at its 90-minute limit, two workers down at 97 %
(pytest-xdist issues #1323, #1371, #1378). Here the test a worker died on is reported failed once
(pytest-xdist's "worker 'gw0' crashed while running …", with what the machine had left), the rest
of its module goes to another worker, and the run ends as any run does."""

from __future__ import annotations

import sys
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling


def scheduling_for(shared: dict[str, str]) -> type[LoadScopeScheduling]:
    """The scheduler class: loadscope with each module of ``shared`` (path → unit name) in one unit."""

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return shared.get(nodeid.split("::", 1)[0]) or super()._split_scope(nodeid)

        def remove_node(self, node):  # type: ignore[no-untyped-def]
            """A dead worker's unfinished tests back on the queue, but for the one it died on."""
            workload = self.assigned_work.get(node)
            crashed = next((nodeid for unit in (workload or {}).values() for nodeid, done in unit.items() if not done),
                           None)
            if workload is None or crashed is None:  # (ended well, or a worker that was never given work)
                return super().remove_node(node)
            del self.assigned_work[node]
            workload[self._split_scope(crashed)][crashed] = True  # reported failed, not run again
            self.workqueue.update((scope, unit) for scope, unit in workload.items() if not all(unit.values()))
            print(f"\npnpgen tests: worker {node.gateway.id} died running {crashed}; {machine_state()}",
                  file=sys.stderr, flush=True)
            for other in list(self.assigned_work):
                self._reschedule(other)
            return crashed

        def _reschedule(self, node) -> None:  # type: ignore[no-untyped-def]
            """As loadscope's, but a worker is always given two tests or told none follow: a worker
            runs a test only once it knows the next one or that none follows (a replacement worker
            given a unit of one test waited for ever, pytest-xdist #1327)."""
            try:
                super()._reschedule(node)
                if node.shutting_down or node not in self.assigned_work:
                    return
                while self.workqueue and self._pending_of(self.assigned_work[node]) < 2:
                    self._assign_work_unit(node)  # (a unit of one test alone is never run)
                if not self.workqueue:
                    node.shutdown()
            except OSError:  # its channel closed: the worker died after its last report (CI saw it:
                pass         # "cannot send (already closed?)"); its going down hands its units back

    return Scheduling


def machine_state() -> str:
    """What the machine had left when a worker died (the out-of-memory killer ends a worker
    without a word): its free memory and the free room of the run's folders."""
    told = []
    try:
        info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
        told.append(f"memory available {info['MemAvailable'].strip()} of {info['MemTotal'].strip()}")
    except (OSError, KeyError, ValueError):
        pass
    import shutil
    import tempfile

    for folder in {tempfile.gettempdir(), "/dev/shm"}:
        try:
            told.append(f"{folder}: {shutil.disk_usage(folder).free // 2**20} MB free")
        except OSError:
            pass
    return "; ".join(told) or "the machine's state unknown"
