"""What a long-running command (``pnpgen watch``) keeps across its builds: one rulebook process,
whose libraries are imported and fonts parsed on the first save, not on every save; each game's
faces and pages drawn into PDF streams, so a save draws again only what it changed; and its
converted faces, so a save reads none it used before from the cache; and each deck's pages, so a
save imposes again only the decks it changed. A one-off build makes its own rulebook process
(``engine/run.py``) and lets it go."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from pnpgen.engine.imposition import Impositions
from pnpgen.pdf.writer import FaceStreams
from pnpgen.svg.artwork import Art

T = TypeVar("T")


class Warm:
    """The rulebook's worker process, started on first use and kept until ``close``, and the
    sheets drawn by the last build of each game (``sheets``)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.starts = 0  # worker processes started: one for the whole session
        self._sheets: dict[str, tuple[str, FaceStreams]] = {}
        self._arts: dict[str, tuple[str, dict[str, Art]]] = {}
        self._lints: dict[str, tuple[str, dict]] = {}
        self._impositions: dict[str, tuple[str, Impositions]] = {}

    def sheets(self, edition: str, inputs: str) -> FaceStreams:
        """The faces and pages the last build of ``edition`` (a game, in a language) drew, while
        what every face is drawn with — ``inputs``: templates, fonts, options, pnpgen — is the
        same; else a new, empty set."""
        return _kept(self._sheets, edition, inputs, FaceStreams)

    def arts(self, edition: str, inputs: str) -> dict[str, Art]:
        """The converted faces the last build of ``edition`` used, by the name the cache keeps them
        under (a face's key and its pictures'), while ``inputs`` hold: a save reads no face it
        used before from the cache (each a file read, checked and parsed). Faces that show
        pictures are not kept (their pictures' stand-ins are the cache's to give, build by build);
        the build lets go of the faces it did not use."""
        return _kept(self._arts, edition, inputs, dict)

    def lints(self, edition: str, inputs: str) -> dict:
        """The print lint's findings on each face the last build of ``edition`` drew, while
        ``inputs`` hold (faces/printlint.py ``lint_faces``): a save measures only the faces it
        changed (a round token's text against its cut line is some hundred edges)."""
        return _kept(self._lints, edition, inputs, dict)

    def impositions(self, edition: str, inputs: str) -> Impositions:
        """Each deck's pages as the last build of ``edition`` imposed them, while ``inputs`` hold
        (engine/imposition.py): a save imposes again only the decks it changed."""
        return _kept(self._impositions, edition, inputs, Impositions)

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

    def __enter__(self) -> Warm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _kept(store: dict[str, tuple[str, T]], edition: str, inputs: str, new: Callable[[], T]) -> T:
    """What ``store`` keeps for ``edition`` while it was made with ``inputs``; else a ``new`` one."""
    kept = store.get(edition)
    if kept is None or kept[0] != inputs:
        kept = store[edition] = (inputs, new())
    return kept[1]


def _end_with_parent() -> None:
    """In the worker: end when the process that started it ends, however it ends (Linux's
    PR_SET_PDEATHSIG; elsewhere the worker ends when its queue closes). Ctrl-C is the watcher's
    to handle: the terminal sends it to the worker too, which printed a KeyboardInterrupt
    traceback from its queue as the watcher ended quietly; the watcher's ``close`` ends it."""
    import ctypes
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _worker_facts() -> tuple[int, int]:
    return os.getpid(), importlib.import_module("pnpgen.fonts").parsed()
