"""Bytes made by a process forked from the build's, while the build's own process goes on.

A big deck's cold build ends on one core: after the documents, the build's process alone makes
the forms pack (every face and page drawn, as JSON: some 0.1 CPU-s at a thousand cards), the
manifest, the state and the commit. The pack needs nothing of what follows it, so a process
forked for it makes it on the other core meanwhile and hands its bytes back through a pipe
(docs/speed.md, jobs45). The bytes are those the build's process would make: the child runs the
same function on its copy of the build's memory, and where it cannot be forked or does not answer
in full (killed, short of memory) the function runs here instead.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import NoReturn

from pnpgen.children import end_forked, only_these_open


class Beside:
    """``make()``'s bytes, made by a forked process when ``fork`` (else, and when the fork fails,
    by this one when asked: ``result``; or ``instead()``'s, when given). Taken once; ``cancel``
    ends a process whose bytes are no longer wanted (the build failed): unread, it would wait for
    ever on its full pipe."""

    def __init__(self, make: Callable[[], bytes], fork: bool = True, instead: Callable[[], bytes] | None = None) -> None:
        self._make: Callable[[], bytes] | None = make if instead is None else instead  # (``instead``: what
        # ``result`` takes where the process could not make the bytes; default ``make`` here)
        self.pid = 0
        self._answer = -1
        self._made: bytes | None = None  # made here ahead of ``result`` (``now``)
        if not fork or not hasattr(os, "fork"):
            return
        answer, said = os.pipe()
        try:
            with warnings.catch_warnings():  # (3.12 warns of forking beside threads: the child only encodes)
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
        except OSError:  # no process to be had: made here when asked
            os.close(answer)
            os.close(said)
            return
        if pid == 0:
            _make_and_exit(make, said)
        os.close(said)
        self.pid, self._answer = pid, answer

    def now(self) -> None:
        """The bytes made here at once when no forked process makes them, for ``result`` to give:
        while this process would otherwise wait (a watch save's build waits for the rulebook's
        process), not after the wait, where the save waited for them too."""
        if not self.pid and self._make is not None and self._made is None:
            self._made = self._make()

    def result(self) -> bytes:
        """The bytes: the forked process's, read whole, once it has ended well; else made here
        (or by ``now``)."""
        make, self._make = self._make, None
        if self._made is not None:
            made, self._made = self._made, None
            return made
        assert make is not None, "Beside.result is taken once"
        if self.pid:
            chunks = []
            try:
                while chunk := os.read(self._answer, 1 << 20):
                    chunks.append(chunk)
            finally:
                os.close(self._answer)
                status = os.waitpid(self.pid, 0)[1]
                self.pid = 0
            if os.waitstatus_to_exitcode(status) == 0:
                return b"".join(chunks)
            chunks.clear()
        return make()

    def cancel(self) -> None:
        """The forked process ended and its bytes not read (nothing once ``result`` is taken)."""
        self._make = self._made = None
        if self.pid:
            end_forked(self.pid, self._answer)
            self.pid = 0


def _make_and_exit(make: Callable[[], bytes], said: int) -> NoReturn:
    """The forked process: ``make()``'s bytes into ``said``, then gone (``os._exit``: none of the
    build's state torn down or flushed twice; status 0 only once every byte is written), every
    other descriptor closed first."""
    code = 1
    try:
        only_these_open(said)
        data = memoryview(make())
        while data:
            data = data[os.write(said, data):]
        code = 0
    except BaseException:  # noqa: BLE001 - the build's process makes the bytes itself and says what is wrong
        pass
    finally:
        os._exit(code)
