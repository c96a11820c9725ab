#!/usr/bin/env python3
"""Fuzz pnpgen by hand with a long budget: the CI fuzz test (tests/data/test_fuzz.py) run with
many more examples and a random (or given) seed.

    python scripts/fuzz.py [--examples 5000] [--seed N] [--only deck|game|template|options]

Every case must end in exit 0 or 2 without a traceback or a hang, and a failed build must keep
the previous outputs. A failure prints the shrunk example and the seed to replay it with.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=5000, help="cases per fuzz test (CI runs 20)")
    ap.add_argument("--seed", type=int, help="replay a run (default: a new random seed)")
    ap.add_argument("--only", choices=["deck", "game", "template", "options"], help="one fuzz test (default: all)")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"fuzzing with {args.examples} examples per test, seed {seed}", flush=True)
    env = {**os.environ, "PNPGEN_FUZZ_EXAMPLES": str(args.examples), "PNPGEN_FUZZ_SEED": str(seed)}
    status = subprocess.call([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:warnings",
                              str(ROOT / "tests" / "data" / "test_fuzz.py"),
                              *(["-k", f"test_fuzz_{args.only}"] if args.only else [])], cwd=ROOT, env=env)
    if status:
        only = f" --only {args.only}" if args.only else ""
        print(f"replay with: python scripts/fuzz.py --examples {args.examples} --seed {seed}{only}")
    return status


if __name__ == "__main__":
    sys.exit(main())
