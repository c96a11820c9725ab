"""The processes a command forks (the rulebook's, the workers of its pools, the PDF writer's
child) end with the command, however it ends: killed (SIGKILL, the out-of-memory killer, a
SIGTERM sent to it alone by an editor or a script's ``kill``), a forked worker waited for a job,
or to send a result, for ever: it held the other end of its own pipe, and the ends of the pipes
forked before it. Orphans of a killed build kept the memory they had and the output pipes of
whatever ran it (``pnpgen build | tee log`` never ended)."""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable


def end_with_parent() -> None:
    """(In a forked process) be sent SIGTERM when the process that forked it ends (Linux's
    PR_SET_PDEATHSIG); elsewhere nothing (the rulebook's process ends when its pipe closes)."""
    prctl = _prctl()
    if prctl is not None:
        prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's prctl, found once in the process that forks (``forked_end_with_parent`` asks before
    each fork): a child finding it itself imported ctypes and loaded libc again, 2.5 ms a fork."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL("libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def forked_end_with_parent() -> None:
    """Every process this one forks from its main thread from now on ends when it ends
    (``end_with_parent``): once per process, at the command's start (cli ``console``). Not one
    forked on another thread: Linux sends the signal when the *thread* that forked it ends, and the
    preview's server builds on pool threads that end when idle (its rulebook process would be
    killed ten seconds after a save); such a process ends when its pipe closes instead."""
    main = threading.main_thread().ident
    forking = [0]  # the process that forks, as it forks

    def before() -> None:
        _prctl()
        forking[0] = os.getpid()

    def forked() -> None:
        if threading.get_ident() == main:  # (in the child: the ident of the thread that forked it)
            end_with_parent()
            if os.getppid() != forking[0]:  # (it ended before the child asked: no signal will come — a build
                os.kill(os.getpid(), signal.SIGTERM)  # killed at once after forking its copier left it copying)

    os.register_at_fork(before=before, after_in_child=forked)


def on_main_thread() -> bool:
    """Whether a process forked now may end with this one (``end_with_parent``): forked on the main
    thread, which lives as long as the process."""
    return threading.current_thread() is threading.main_thread()


def only_these_open(*fds: int) -> None:
    """(In a forked process that only writes its answer) every descriptor but ``fds`` closed: a
    pipe's end held here would keep the other end of it waiting."""
    low = 3
    for fd in sorted(fds):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 65536)


def end_forked(pid: int, answer: int) -> None:
    """A forked process whose answer is no longer wanted: killed (one ended already is only
    waited for), and the pipe it answers through closed."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    os.close(answer)
