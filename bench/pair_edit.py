"""Two (or more) source trees' text edit of a big illustrated deck, paired closely.

    python bench/pair_edit.py TREE [TREE ...] [--cards 1000] [--reps 12] [--work DIR] [--kind text|count]

A TREE is a checkout of pnpgen (its ``generator/`` put first on ``PYTHONPATH``): the session's
start as a detached worktree beside main, say. Each tree builds its own copy of one
``bench/big_deck.py`` workspace cold, makes a first edit (no replaced document to rewrite yet), then
``--reps`` text edits of a different card each time, the trees in turns (the order reversed every
other round), and prints each tree's median user + system CPU of the whole ``pnpgen build`` process.
``--kind count`` times count edits instead: each changes exactly one card's count (a card one copy
more, then the same card back, then the next card), the first edit's text kept.

Why: ``bench/run.py``'s two-run rows cannot tell 0.2 s apart on this machine, whose speed moves
within the hour (a 1,000-card edit's runs spread 1.1–1.8 s in the forty-second session); twelve
alternated edits each can. ``PYTHONDONTWRITEBYTECODE`` is unset and a ``PYTHONPYCACHEPREFIX`` set,
so no tree pays for compiling its modules on every run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import big_deck  # (bench/'s own module, beside this file)


def cpu_of_build(tree: Path, workspace: Path, env: dict[str, str]) -> float:
    """User + system CPU seconds of one ``pnpgen build`` process of ``tree`` in ``workspace``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", big_deck.SLUG, "-q"], cwd=workspace,
                   env=dict(env, PYTHONPATH=str(tree / "generator")), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path, help="checkouts of pnpgen to compare")
    parser.add_argument("--cards", type=int, default=1000, help="distinct illustrated cards (default 1000)")
    parser.add_argument("--reps", type=int, default=12, help="text edits timed per tree (default 12)")
    parser.add_argument("--work", type=Path, default=None, help="folder for the workspaces (default: a temporary one)")
    parser.add_argument("--kind", choices=("text", "count"), default="text", help="the edit timed (default text)")
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    work = args.work or Path(tempfile.mkdtemp(prefix="pnpgen-pair-"))
    env.setdefault("PYTHONPYCACHEPREFIX", str(work / "pycache"))
    model = work / "model"
    if not model.exists():
        big_deck.workspace(args.cards, model)
    spaces: dict[Path, Path] = {}
    for i, tree in enumerate(args.trees):
        spaces[tree] = work / f"tree{i}"
        if not spaces[tree].exists():
            shutil.copytree(model, spaces[tree], symlinks=True)
        cpu_of_build(tree, spaces[tree], env)  # cold
        big_deck.edit(spaces[tree], args.cards, edited=1)
        cpu_of_build(tree, spaces[tree], env)  # the first edit
    times: dict[Path, list[float]] = {tree: [] for tree in args.trees}
    for rep in range(args.reps):
        for tree in args.trees if rep % 2 == 0 else args.trees[::-1]:
            if args.kind == "count":  # one count changed: card c one copy more, then back
                big_deck.edit(spaces[tree], args.cards, edited=1,
                              counted=args.cards // 3 + rep // 2 if rep % 2 == 0 else None)
            else:
                big_deck.edit(spaces[tree], args.cards, edited=2 + rep)
            times[tree].append(cpu_of_build(tree, spaces[tree], env))
    for tree in args.trees:
        print(f"{tree}: median CPU {statistics.median(times[tree]):.3f} s of {args.reps} {args.kind} edits "
              f"(min {min(times[tree]):.3f}, max {max(times[tree]):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
