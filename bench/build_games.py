"""Benchmark: time each game's build in memory (nothing written). Run from the repo root:

    python bench/build_games.py [--repeat 3]

Speed goals live here, not in timed tests: the whole set should build in well under a minute.
"""

from __future__ import annotations

import argparse
import time

from pnpgen.data.workspace import find_workspace
from pnpgen.engine.game import build_game
from pnpgen.engine.options import BuildOptions


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    ws = find_workspace()
    total = 0.0
    for slug in ws.slugs():
        best = min(_time(ws, slug) for _ in range(args.repeat))
        total += best
        print(f"{slug:<24} {best:6.2f} s")
    print(f"{'all games':<24} {total:6.2f} s")


def _time(ws, slug: str) -> float:
    start = time.perf_counter()
    build_game(ws, slug, BuildOptions())
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
