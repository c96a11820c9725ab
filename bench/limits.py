"""The promise of docs/data-format.md's limits table, measured: anything inside the limits builds in
under 30 s and 1.5 GB on the 2-core machine. Each case is a workspace made here at (or just
inside) one limit, built cold by a whole `pnpgen build` process.

    python bench/limits.py [--only copies,distinct,tiled,sheet] [--keep DIR]

Prints, per case: wall seconds, CPU seconds (user + system, workers included), peak RSS of the
largest process, exit status, and whether the promise holds. Cases:

- copies: two decks of one card at 7,500 copies each (the per-game copy limit, 15,000).
- distinct: one deck of 10,000 distinct text cards (the spreadsheet row limit), count 1 each.
- tiled: a 2000×2000 mm board (the size limit) tiled across A4 pages, copies up to the tiled
  page limit (108 A4 tiles a copy: 11 copies, 1,188 pages).
- sheet: the distinct deck read from a CSV of 10,000 rows instead of YAML.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(REPO / "generator")}
GOAL_S, GOAL_MB = 30.0, 1536.0

GAME = "title: 限界\ndraft: 1\nplayers: 2\ndate: 2026-12-01\n"


def copies(ws: Path) -> None:
    for deck in ("a", "b"):
        (ws / "data/limits/decks" / f"{deck}.yaml").write_text(
            f"name: 山{deck}\nlayout: card-poker\npieces:\n  - {{title: 同じ札, text: カードを1枚引く。, count: 7500}}\n",
            encoding="utf-8")


def _distinct_rows(n: int) -> list[tuple[str, str]]:
    return [(f"札{i}", f"カードを{i % 3 + 1}枚引く。{i}") for i in range(1, n + 1)]


def distinct(ws: Path) -> None:
    rows = "".join(f"  - {{title: {t}, text: {x}}}\n" for t, x in _distinct_rows(10_000))
    (ws / "data/limits/decks/many.yaml").write_text(f"name: 札\nlayout: card-poker\npieces:\n{rows}", encoding="utf-8")


def sheet(ws: Path) -> None:
    rows = "".join(f"{t},{x},1\n" for t, x in _distinct_rows(10_000))
    (ws / "data/limits/decks/many.csv").write_text("title,text,count\n" + rows, encoding="utf-8")
    (ws / "data/limits/decks/many.yaml").write_text("name: 札\nlayout: card-poker\npieces: {file: many.csv}\n", encoding="utf-8")


def tiled(ws: Path) -> None:
    (ws / "data/limits/decks/board.yaml").write_text(
        "name: 盤\nlayout: board\nsize: [2000, 2000]\npieces:\n  - {title: 大きな盤, count: 11}\n", encoding="utf-8")


CASES = {"copies": copies, "distinct": distinct, "sheet": sheet, "tiled": tiled}


def measure(name: str, root: Path) -> tuple[float, float, float, int, str]:
    ws = root / name
    shutil.rmtree(ws, ignore_errors=True)
    (ws / "data/limits/decks").mkdir(parents=True)
    (ws / "templates").mkdir()  # a workspace: data/ and templates/ (built-in layouts draw every deck)
    (ws / "data/limits/game.yaml").write_text(GAME, encoding="utf-8")
    CASES[name](ws)
    cmd = [sys.executable, "-m", "pnpgen", "-q", "build", "--game", "limits", "--no-rulebook"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=ws, env=ENV, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = after.ru_maxrss / 1024  # kB → MB: the largest child so far (cases run largest-last is not assumed)
    said = (done.stderr.strip().splitlines() or [""])[-1][:160]
    return wall, cpu, rss, done.returncode, said


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(CASES))
    ap.add_argument("--keep", type=Path, help="make the workspaces here (kept) instead of a temporary folder")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="pnpgen-limits-"))
    if not args.child:
        print(f"{'case':10} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'exit':>5}  promise (≤{GOAL_S:.0f} s, ≤{GOAL_MB:.0f} MB)")
    for name in args.only.split(","):
        # each case in its own process of this script, so ru_maxrss is that case's peak alone
        if len(args.only.split(",")) > 1:
            subprocess.run([sys.executable, __file__, "--child", "--only", name, "--keep", str(root)], check=False)
            continue
        wall, cpu, rss, rc, said = measure(name, root)
        held = "met" if rc == 0 and wall <= GOAL_S and rss <= GOAL_MB else "NOT met"
        print(f"{name:10} {wall:8.1f} {cpu:8.1f} {rss:8.0f} {rc:5d}  {held}" + (f"  ({said})" if rc else ""), flush=True)
    if args.keep is None and len(args.only.split(",")) > 1:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
