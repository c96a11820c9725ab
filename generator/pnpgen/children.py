"""The processes a command forks (the rulebook's, the workers of its pools, the PDF writer's
child) end with the command, however it ends: killed (SIGKILL, the out-of-memory killer, a
SIGTERM sent to it alone by an editor or a script's ``kill``), a forked worker waited for a job,
or to send a result, for ever: it held the other end of its own pipe, and the ends of the pipes
forked before it. Orphans of a killed build kept the memory they had and the output pipes of
whatever ran it (``pnpgen build | tee log`` never ended)."""

from __future__ import annotations

import os
import signal
import sys


def end_with_parent() -> None:
    """(In a forked process) be sent SIGTERM when the process that forked it ends (Linux's
    PR_SET_PDEATHSIG); elsewhere nothing (the rulebook's process ends when its pipe closes)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def forked_end_with_parent() -> None:
    """Every process this one forks from now on ends when it ends (``end_with_parent``): once per
    process, at the command's start (cli ``console``)."""
    os.register_at_fork(after_in_child=end_with_parent)
