"""One rulebook process kept alive across the builds of a long-running command (``pnpgen watch``,
``pnpgen serve``): its libraries are imported and its fonts parsed on the first save, not on
every save. A one-off build makes its own rulebook process (``engine/run.py``) and lets it go."""

from __future__ import annotations

import importlib
import os
from concurrent.futures import ProcessPoolExecutor


class WarmRulebook:
    """The rulebook's worker process, started on first use and kept until ``close``."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.starts = 0  # worker processes started: one for the whole session

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, initializer=_end_with_parent)
            self.starts += 1
        return self._pool

    def lost(self) -> None:
        """The worker died (killed, out of memory): the next build starts another."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def worker(self) -> tuple[int, int]:
        """(process id, fonts parsed so far) of the worker, for tests and the bench."""
        return self.pool().submit(_worker_facts).result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> WarmRulebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _end_with_parent() -> None:
    """In the worker: end when the process that started it ends, however it ends (Linux's
    PR_SET_PDEATHSIG; elsewhere the worker ends when its queue closes)."""
    import ctypes
    import signal
    import sys

    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _worker_facts() -> tuple[int, int]:
    return os.getpid(), importlib.import_module("pnpgen.fonts").parsed()
