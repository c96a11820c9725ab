"""What a long-running command (``pnpgen watch``) keeps across its builds: one rulebook process,
whose libraries are imported and fonts parsed on the first save, not on every save; each game's
faces and pages drawn into PDF streams, so a save draws again only what it changed; and its
converted faces, so a save reads none it used before from the cache; and each deck's pages, so a
save imposes again only the decks it changed; and the templates' code, so a save loads no
template it loaded before. A one-off build makes its own rulebook process
(``engine/run.py``) and lets it go."""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import pickle
import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pnpgen.children import end_with_parent, on_main_thread
from pnpgen.engine.imposition import Impositions
from pnpgen.faces.compiled import CompiledTemplates
from pnpgen.pdf.streams import FaceStreams
from pnpgen.svg.artwork import Art

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")

# ``Warm.set_aside`` walks the whole heap, what earlier saves set aside too, once in this many saves:
# what a save set aside and a later save let go of inside a cycle is freed then (a 3,000-card
# deck's saves: some 100 objects a save; docs/speed.md, watch3k).
WALK_ALL_EVERY = 20


class Warm:
    """The rulebook's worker process, started on first use and kept until ``close``, and the
    sheets drawn by the last build of each game (``sheets``)."""

    def __init__(self, own_process: bool = False) -> None:
        self._pool: Worker | None = None
        self.starts = 0  # worker processes started: one for the whole session
        # pnpgen's own process (watch's): each save's kept objects set aside from the collector
        # (``set_aside``); a test's or a script's process keeps its collector as it is
        self.own_process = own_process
        self.saves = 0  # saves set aside so far
        self._sheets: dict[str, tuple[str, FaceStreams]] = {}
        self._arts: dict[str, tuple[str, dict[str, Art]]] = {}
        self._lints: dict[str, tuple[str, dict]] = {}
        self._tiles: dict[str, tuple[str, dict]] = {}
        self._impositions: dict[str, tuple[str, Impositions]] = {}
        # the templates' code, by name and source: a save loads none it loaded before (faces/compiled.py)
        self.compiled = CompiledTemplates()
        # the keys of the decks' pictures the worker holds (its last job's, engine/typeset.py
        # ``held_pictures``): a save sends it only the others; none once it is started again
        self.held: frozenset[str] = frozenset()

    def sheets(self, edition: str, inputs: str) -> FaceStreams:
        """The faces and pages the last build of ``edition`` (a game, in a language) drew, while
        what every face is drawn with — ``inputs``: templates, fonts, options, pnpgen — is the
        same; else a new, empty set."""
        return _kept(self._sheets, edition, inputs, FaceStreams)

    def arts(self, edition: str, inputs: str) -> dict[str, Art]:
        """The converted faces the last build of ``edition`` used, by the name the cache keeps them
        under (a face's key and its pictures'), while ``inputs`` hold: a save reads no face it
        used before from the cache (each a file read, checked and parsed). Faces that show
        pictures are not kept (their pictures' stand-ins are the cache's to give, build by build):
        a save reads them from the faces' pack again, undecoded, as a new process does; a face
        of the pack is kept as its line, never decoded to be kept (engine/game.py ``keep``). The
        build lets go of the faces it did not use."""
        return _kept(self._arts, edition, inputs, dict)

    def lints(self, edition: str, inputs: str) -> dict:
        """The print lint's findings on each face the last build of ``edition`` drew, while
        ``inputs`` hold (faces/printlint.py ``lint_faces``): a save measures only the faces it
        changed (a round token's text against its cut line is some hundred edges)."""
        return _kept(self._lints, edition, inputs, dict)

    def tiles(self, edition: str, inputs: str) -> dict[str, str]:
        """What each tile of a tiled board the last build of ``edition`` printed, by what it is
        drawn from, while ``inputs`` hold (pdf/tilesig.py): a save draws again only the tiles
        it changed."""
        return _kept(self._tiles, edition, inputs, dict)

    def impositions(self, edition: str, inputs: str) -> Impositions:
        """Each deck's pages as the last build of ``edition`` imposed them, while ``inputs`` hold
        (engine/imposition.py): a save imposes again only the decks it changed."""
        return _kept(self._impositions, edition, inputs, Impositions)

    def set_aside(self) -> None:
        """Once a save's files are written: its garbage collected and what it keeps for the next
        save (the drawn sheets, faces, impositions above; some 475,000 objects at 3,000 cards) set
        aside from the collector (``gc.freeze``). A build pauses the collector while it makes its
        sheets and documents (engine/run.py ``collector_paused``), so without this the next save's
        first young collections walked everything the last one made, and its older ones the
        whole kept heap again (0.3–0.9 CPU-s a save at 3,000 cards: a warm save cost more than a
        new process, which ends without collecting). The walk here costs about one such
        collection, after the save's summary line; a new process's teardown skips it."""
        if not self.own_process:
            return
        self.saves += 1
        if self.saves % WALK_ALL_EVERY == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()

    def pool(self, state: Callable[[], Any]) -> Worker:
        """The rulebook's process (``Worker``), started with ``state`` the first time."""
        if self._pool is None:
            self._pool = Worker(state, ends_with_parent=True)
            self.starts += 1
            self.held = frozenset()
        return self._pool

    def lost(self) -> None:
        """The worker died (killed, out of memory): the next build starts another."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self.held = frozenset()

    def worker(self) -> tuple[int, int]:
        """(process id, fonts parsed so far) of the worker, for tests and the bench."""
        return self.pool(dict).submit(_worker_facts).result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Warm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Worker:
    """A process of its own that runs the jobs given to it (``submit``) one after another, each
    called with the process's state as its first argument: what ``state`` made when the process
    started, kept until it ends (the rulebook's: engine/typeset.py ``Setting``), so no module of
    the process holds data between jobs. A job's result or error comes back as
    ``ProcessPoolExecutor``'s would; a process that died fails its jobs with ``BrokenProcessPool``.
    ``ends_with_parent``: the process ends when this one does and leaves Ctrl-C to it (watch)."""

    def __init__(self, state: Callable[[], Any], ends_with_parent: bool = False) -> None:
        # (multiprocessing, some 5 ms of imports: loaded by a build that starts this process, not by every build)
        import multiprocessing
        from concurrent.futures.process import BrokenProcessPool

        self._broken: type[Exception] = BrokenProcessPool
        self._conn, theirs = multiprocessing.Pipe()
        # (``self._conn`` given too, for the process to close its copy: a forked process held both
        # ends of the pipe, so this one killed (SIGKILL, a SIGTERM to it alone) it waited for a job
        # for ever, holding the terminal's or the caller's output pipes open)
        self._process = multiprocessing.Process(target=_serve, args=(theirs, state, ends_with_parent and on_main_thread(),
                                                                         self._conn),
                                                daemon=True)
        self._process.start()
        theirs.close()
        self._waiting: deque[Future] = deque()
        self._lock = threading.Lock()
        self._ended = False
        # what is sent, pickled already, in order: the process reads its first job only once its
        # state is made (the libraries imported), and a job of 300 kB fills the pipe, so a send
        # from the caller's thread waited that long (24 ms of a count edit's build --all)
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        threading.Thread(target=self._sends, daemon=True).start()
        threading.Thread(target=self._answers, daemon=True).start()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future:
        from concurrent.futures import Future  # (imported by watch and serve alone, not by every build)

        future: Future = Future()
        with self._lock:
            if not self._ended:
                job = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)  # (a job that cannot be pickled raises here: nothing sent)
                self._waiting.append(future)  # before it is sent: its answer may come back at once
                self._outbox.put(job)
                return future
        future.set_exception(self._broken("the rulebook's process ended"))
        return future

    def _sends(self) -> None:
        """(A thread's) each job sent as it was given, until the process is told to end or is gone."""
        while (job := self._outbox.get()) is not None:
            try:
                self._conn.send_bytes(job)
            except (OSError, ValueError):  # the process is gone: ``_answers`` fails the jobs waiting
                return
        try:
            self._conn.send(None)
        except (OSError, ValueError):
            pass

    def _answers(self) -> None:
        """(A thread's) each job's result, in the order the jobs were sent, until the process ends."""
        while True:
            try:
                done, value = self._conn.recv()
            except (EOFError, OSError):
                break
            future = self._waiting.popleft()
            if done:
                future.set_result(value)
            else:
                future.set_exception(value)
        with self._lock:
            self._ended = True
            while self._waiting:
                self._waiting.popleft().set_exception(self._broken("the rulebook's process ended"))

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """End the process once the jobs sent are done (``wait``: until then); ``cancel_futures``
        is ProcessPoolExecutor's word, kept for its callers: no job waits in a queue here."""
        with self._lock:
            if not self._ended:
                self._outbox.put(None)  # after every job given: the process ends once they are done
        if wait:
            self._process.join()


def _serve(conn: Any, state: Callable[[], Any], ends_with_parent: bool, ours: Any = None) -> None:
    """The worker process: its state made, then each job called with it, its result sent back;
    ``ours``, the other end of the pipe, closed first, so the process ends when its parent does,
    however it ends (the pipe's end of file)."""
    if ours is not None:
        ours.close()
    if ends_with_parent:
        _end_with_parent()
    kept = state()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, args = job
        try:
            answer = (True, fn(kept, *args))
        except BaseException as e:  # noqa: BLE001 - the job's error is its caller's to raise
            answer = (False, e)
        try:
            conn.send(answer)
        except OSError:  # the process that asked is gone (a build stopped by an error, killed): its
            return  # pipe closed while the job ran; no traceback in the terminal the two share
        except Exception as e:  # noqa: BLE001 - a result or an error that cannot be pickled
            with contextlib.suppress(OSError):  # (the asker gone meanwhile: the next recv ends the loop)
                conn.send((False, RuntimeError(f"the rulebook's process could not send its answer back: {e!r}")))


def _kept(store: dict[str, tuple[str, T]], edition: str, inputs: str, new: Callable[[], T]) -> T:
    """What ``store`` keeps for ``edition`` while it was made with ``inputs``; else a ``new`` one."""
    kept = store.get(edition)
    if kept is None or kept[0] != inputs:
        kept = store[edition] = (inputs, new())
    return kept[1]


def _end_with_parent() -> None:
    """In the worker: end when the process that started it ends, however it ends
    (``children.end_with_parent``; elsewhere the worker ends when its pipe closes). Ctrl-C is the
    watcher's to handle: the terminal sends it to the worker too, which printed a KeyboardInterrupt
    traceback from its queue as the watcher ended quietly; the watcher's ``close`` ends it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent()


def _worker_facts(state: object) -> tuple[int, int]:
    return os.getpid(), importlib.import_module("pnpgen.fonts").parsed()
