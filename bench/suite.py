"""The test suite's speed goal (≤ 30 s on the 2-core machine), measured so that runs on a machine
whose speed drifts can be compared.

    python bench/suite.py [--runs 3]

Each run of README's test command is bracketed by a calibration: a fixed pure-Python loop whose
CPU time shows how fast the machine is at that moment (on the 2-core machine it has taken from
0.21 s to 0.41 s within one session). The table gives the suite's wall time as pytest reports
it, its CPU time (all processes) and the calibration (the mean of the one before and the one
after), so that two runs of this script can be compared; the suite's CPU divided by the
calibration is the figure least changed by the machine's speed (compare it between two versions of
the suite). It samples the machine's speed, it does not
follow it: on the 2-core machine the suite's time has varied by a fifth at the same calibration.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOAL_S = 30.0


def calibration() -> float:
    """CPU seconds of a fixed loop (the median of three)."""
    times = []
    for _ in range(3):
        start = time.process_time()
        total = 0
        for i in range(5_000_000):
            total += i * i
        times.append(time.process_time() - start)
    return statistics.median(times)


def suite() -> tuple[float, float]:
    """(wall seconds as pytest reports them, CPU seconds of every process) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=REPO, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"(\d+) passed.* in ([\d.]+)s", proc.stdout)
    if proc.returncode != 0 or not found:
        sys.exit(f"the suite failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return float(found.group(2)), cpu


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    walls, cpus, calibs = [], [], []
    for _ in range(args.runs):
        before = calibration()
        wall, cpu = suite()
        calib = (before + calibration()) / 2
        walls.append(wall)
        cpus.append(cpu)
        calibs.append(calib)
    print(f"{'figure':<40} {'median':>8} {'min':>8} {'max':>8}")
    per_loop = [cpu / calib for cpu, calib in zip(cpus, calibs)]
    for name, values in (("suite wall, as pytest reports it (s)", walls), ("suite CPU, all processes (s)", cpus),
                         ("calibration loop (s)", calibs), ("suite CPU / calibration loop", per_loop)):
        print(f"{name:<40} {statistics.median(values):8.2f} {min(values):8.2f} {max(values):8.2f}")
    met = "yes" if statistics.median(walls) <= GOAL_S else "NO"
    print(f"\ngoal: suite wall ≤ {GOAL_S:g} s: {met}   ({args.runs} runs)")


if __name__ == "__main__":
    main()
