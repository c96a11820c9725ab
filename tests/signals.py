"""What the tests of a command stopped by a signal look at (tests/safety/test_sigterm.py,
test_stopped_commands.py): a folder's files, a process's handlers and children, its group gone."""

from __future__ import annotations

import os
import subprocess
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

# The command as `python -m pnpgen` starts it, but every file an export makes spilled out of memory
# into its folder of the temporary folder (exports/spill.py: past 32 MB, which a test's export is not).
SPILLING = textwrap.dedent("""\
    import sys
    from pnpgen.exports import spill
    spill.Spill.__init__.__defaults__ = (0, 0)
    from pnpgen.cli import console
    sys.argv[0] = "pnpgen"
    console()
""")


def files(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder below ``folder``: a file by its bytes, a folder as None."""
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
            for p in sorted(folder.rglob("*")) if "fonts" not in p.relative_to(folder).parts[:1]}


def outside_cache(files: dict[str, bytes | None]) -> dict[str, bytes | None]:
    return {name: data for name, data in files.items() if not name.startswith("build/.cache")}


def group_gone(pgid: int) -> bool:
    """No process of the command's group left (its workers, its rulebook's process), within 10 s."""
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def handles(pid: int, signum: int) -> bool:
    """Has process ``pid`` put a handler of its own on ``signum``? (/proc's SigCgt mask)"""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) >> (signum - 1) & 1)


def children_at_work(pid: int) -> bool:
    try:
        return bool(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())
    except OSError:
        return False


def waited(proc: subprocess.Popen, ready: Callable[[int], bool], step: float = 0.002) -> None:
    """Until ``ready(pid)`` (its handler in place, its children at work), or the process ended, or 60 s."""
    end = time.monotonic() + 60
    while proc.poll() is None and not ready(proc.pid) and time.monotonic() < end:
        time.sleep(step)


def sent(proc: subprocess.Popen, signum: int) -> str:
    """``signum`` sent to the running ``proc`` alone, as ``kill PID`` sends it: its stderr once it ended,
    none of its processes left."""
    try:
        assert proc.poll() is None, proc.communicate()
        os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert group_gone(proc.pid), "a process of the command still runs"
    return err
