#!/usr/bin/env python3
"""How much of a build is text layout? Builds every game in memory (no files written) from cold
caches and times the textbox() calls inside it; then lays out every recorded text box again
from cold caches on its own.

    python bench/text_layout.py [--game SLUG ...] [--repeat N]

The issue's bar: laying out all texts of the four games takes under 10 % of their build time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))

from pnpgen.data.workspace import find_workspace  # noqa: E402
from pnpgen.engine.game import build_game  # noqa: E402
from pnpgen.engine.options import BuildOptions  # noqa: E402
from pnpgen.text import STATS, clear_caches, recording  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append")
    ap.add_argument("--repeat", type=int, default=1, help="best of N runs")
    args = ap.parse_args(argv)
    ws = find_workspace(ROOT)
    slugs = args.game or ws.slugs()

    best = None
    for _ in range(args.repeat):
        rows = []
        records = []
        for slug in slugs:
            clear_caches()
            with recording() as rec:
                t0 = time.perf_counter()
                build_game(ws, slug, BuildOptions())
                total = time.perf_counter() - t0
            rows.append((slug, total, STATS["seconds"], STATS["calls"], len(rec)))
            records += rec
        if best is None or sum(r[1] for r in rows) < sum(r[1] for r in best[0]):
            best = (rows, records)
    rows, records = best

    print(f"{'game':<24}{'build s':>9}{'text s':>9}{'text %':>8}{'calls':>7}")
    for slug, total, tsec, calls, _ in rows:
        print(f"{slug:<24}{total:9.3f}{tsec:9.3f}{100 * tsec / total:7.1f}%{calls:7d}")
    build_s = sum(r[1] for r in rows)
    text_s = sum(r[2] for r in rows)
    print(f"{'all':<24}{build_s:9.3f}{text_s:9.3f}{100 * text_s / build_s:7.1f}%{sum(r[3] for r in rows):7d}")

    # every distinct text box again, cold, without the rest of the build
    clear_caches()
    unique = {}
    for r in records:
        unique.setdefault((r.text, r.args, tuple(sorted(r.ctx.fonts.items())), tuple(r.ctx.icon_dirs)), r)
    t0 = time.perf_counter()
    for r in unique.values():
        r.replay()
    cold = time.perf_counter() - t0
    print(f"cold layout of the {len(unique)} distinct text boxes ({len(records)} drawn): "
          f"{cold:.3f} s = {100 * cold / build_s:.1f}% of the build")
    ok = text_s / build_s < 0.10
    print("under 10 % of build time:", "yes" if ok else "NO")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
