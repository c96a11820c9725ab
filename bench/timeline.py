"""The timeline of one cold build of a big illustrated deck: where a core idles, stage by stage.

    python bench/timeline.py [--tree DIR] [--jobs 2] [--cards 1000] [--work DIR] [--keep] [--no-warm]

Builds ``bench/big_deck.py``'s deck cold (a new ``--out``, the machine's cache warmed by an untimed
build first) while it samples every thread of the build's tree of processes every 10 ms
(``/proc/<pid>/task/<tid>/schedstat``: the ns each has run and waited to run), and stamps the
monotonic clock and the main thread's CPU at the entry and exit of the build's stages (a wrapper of
the command line, in this process's child: pnpgen's functions wrapped by name, in every module that
imported them, before ``pnpgen.cli.console`` runs). It prints, for each stretch between the main
thread's stages, the CPU-s of each process and thread, the CPU-s spent while at most one thread
was runnable (``serial``), and the stretch's wall on an idle two-core machine as the samples
estimate it (each 10 ms's CPU over the threads runnable in it, at most two).

Why: ``bench/run.py``'s ``--jobs 1 ÷ --jobs 2`` row says how much one core idles only as a ratio,
spread by the machine's load more than by any one change; by Amdahl, with ``--jobs 1`` at C1 CPU-s
and ``--jobs 2`` at C2, the ratio is C1 / ((C2 + idle) / 2), where ``idle`` is the core-seconds one
core waits while the other works: this names the stretches ``idle`` is made of (docs/speed.md,
jobs47). A thread's time waiting for a core counts as runnable, so a loaded machine's samples still
say which threads wanted to run together; its walls do not say what the idle machine's would.
``PYTHONDONTWRITEBYTECODE`` is unset and a ``PYTHONPYCACHEPREFIX`` set for the tree.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import big_deck  # (bench/'s own module, beside this file)

REPO = Path(__file__).resolve().parents[1]
STAMPS = "PNPGEN_BENCH_STAMPS"  # the file the child's stamps go to (the bench's, never pnpgen's)
# the stages stamped: (module, function) wrapped in every module holding it, and (module, class, method)
FUNCTIONS = [
    ("pnpgen.engine.fresh", "sort_games"), ("pnpgen.engine.fingerprint", "fingerprint"),
    ("pnpgen.engine.run", "run_build"), ("pnpgen.engine.run", "_build_one"), ("pnpgen.data.load", "load_game"),
    ("pnpgen.engine.facekeys", "load_and_render"), ("pnpgen.engine.prerender", "prerender"),
    ("pnpgen.engine.prerender", "_render_run"), ("pnpgen.faces.convert", "convert_faces"),
    ("pnpgen.engine.imposition", "impose_game"), ("pnpgen.faces.printlint", "lint_faces"),
    ("pnpgen.engine.documents", "write_documents"), ("pnpgen.pdf.writer", "write_pdf"),
    ("pnpgen.engine.fingerprint", "hashed"), ("pnpgen.engine.changes", "snapshot"),
    ("pnpgen.engine.recording", "record"), ("pnpgen.engine.transaction", "commit"),
    ("pnpgen.engine.run", "_bookkeeping"), ("pnpgen.engine.run", "_forms_pack"),
]
METHODS = [
    ("pnpgen.engine.transaction", "Staging", "fork_copier"), ("pnpgen.engine.transaction", "Staging", "let_go_of_copied"),
    ("pnpgen.engine.beside", "Beside", "__init__"), ("pnpgen.engine.beside", "Beside", "result"),
    ("pnpgen.engine.cache", "Cache", "pack_entry"), ("pnpgen.engine.cache", "Cache", "state_file"),
]


def stamp(event: str, name: str) -> None:
    """One line to the stamps' file: opened each time (a forked child closes what it does not own)."""
    import threading

    fd = os.open(os.environ[STAMPS], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{os.getpid()} {threading.get_ident()} {time.monotonic():.6f} {time.thread_time():.6f} "
                     f"{event} {name}\n".encode())
    finally:
        os.close(fd)


def child() -> None:
    """The stamped command line (``--child`` and pnpgen's arguments): each stage wrapped as its module
    is first imported (an import hook: the modules are imported when and where pnpgen imports them,
    and a module importing a stage by name after takes the wrapped one), then run."""
    import functools
    import importlib.abc
    import importlib.machinery

    stamp("mark", "python-up")
    wanted: dict[str, list[tuple[str | None, str]]] = collections.defaultdict(list)
    for module, name in FUNCTIONS:
        wanted[module].append((None, name))
    for module, cls_name, name in METHODS:
        wanted[module].append((cls_name, name))

    def wrapped(name, f):
        @functools.wraps(f)
        def stamped(*a, **k):
            stamp("in", name)
            try:
                return f(*a, **k)
            finally:
                stamp("out", name)
        return stamped

    def patch(module) -> None:
        for cls_name, name in wanted[module.__name__]:
            owner = module if cls_name is None else getattr(module, cls_name, None)
            f = getattr(owner, name, None) if cls_name is None else vars(owner).get(name) if owner else None
            if f is not None:  # (a stage renamed since: left out of the table, not an error)
                setattr(owner, name, wrapped(name if cls_name is None else f"{cls_name}.{name}", f))

    class Stamping(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname not in wanted:
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is not None and spec.loader is not None:
                run = spec.loader.exec_module

                def exec_module(module, run=run):
                    run(module)
                    patch(module)
                spec.loader.exec_module = exec_module  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, Stamping())
    import pnpgen.cli

    sys.argv = ["pnpgen", *sys.argv[2:]]
    pnpgen.cli.console()


def sampled(cmd: list[str], cwd: Path, env: dict[str, str]) -> dict:
    """Run ``cmd``, sampling its tree's threads every 10 ms: [[monotonic, {tid: [pid, run ns, wait ns]}], ...]."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stderr=subprocess.DEVNULL)
    samples = []

    def children(pid: int) -> list[int]:
        found: list[int] = []
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                try:
                    found += [int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
                except OSError:
                    pass
        except OSError:
            pass
        return found

    while proc.poll() is None:
        snap, todo = {}, [proc.pid]
        t = time.monotonic()
        while todo:
            pid = todo.pop()
            todo += children(pid)
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                try:
                    run, wait, _ = Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()
                except (OSError, ValueError):
                    continue
                snap[int(tid)] = [pid, int(run), int(wait)]
        samples.append([t, snap])
        time.sleep(0.01)
    return {"t0": t0, "end": time.monotonic(), "root": proc.pid, "rc": proc.returncode, "samples": samples}


# the stretches of a build, each from the first entry (or the last exit) of a main-thread stage
STRETCHES = [
    ("the start: interpreter, imports, inputs hashed, the game loaded", None),
    ("rendering: the build and its rendering worker", ("in", "prerender", min)),
    ("rendered → converting", ("out", "load_and_render", max)),
    ("converting: the workers; the sheets planned on a thread", ("in", "convert_faces", min)),
    ("converted → documents: the faces' pack, the pictures' stand-ins", ("out", "convert_faces", min)),
    ("documents: the build's, the forked writer's, the copier", ("in", "write_documents", min)),
    ("the tail: documents hashed, packs, records, state, commit", ("out", "write_documents", max)),
]


def table(run: dict, stamps: list[list[str]]) -> list[tuple[str, float, float, float, float, dict[str, float]]]:
    """Each stretch: its name, wall, CPU-s, serial CPU-s, the idle two-core estimate, CPU-s by process."""
    t0, root = run["t0"], run["root"]
    main = [(float(mono) - t0, event, name) for pid, _, mono, _, event, name in stamps if int(pid) == root]
    cuts = []
    for name, at in STRETCHES:
        if at is None:
            cuts.append((name, 0.0))
            continue
        times = [t for t, e, n in main if (e, n) == at[:2]]
        if times:
            cuts.append((name, at[2](times)))
    cuts.append(("end", run["end"] - t0))
    samples = run["samples"]
    rows = []
    for (name, a), (_, b) in zip(cuts, cuts[1:]):
        cpu: dict[str, float] = collections.defaultdict(float)
        serial = estimate = 0.0
        for (ta, x), (tb, y) in zip(samples, samples[1:]):
            if not a <= ta - t0 < b:
                continue
            ran = runnable = 0.0
            for tid, (pid, run_ns, wait_ns) in y.items():
                run0, wait0 = x[tid][1:] if tid in x else (0, 0)
                r, w = (run_ns - run0) / 1e9, (wait_ns - wait0) / 1e9
                who = "main" if int(tid) == root else "build's threads" if pid == root else f"process {pid}"
                cpu[who] += r
                ran += r
                runnable += min(1.0, (r + w) / (tb - ta))
            serial += ran if runnable < 1.5 else 0.0
            estimate += ran / max(1.0, min(2.0, runnable))
        rows.append((name, b - a, sum(cpu.values()), serial, estimate, dict(cpu)))
    return rows


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child()
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=REPO, help="a checkout of pnpgen (its generator/ put first)")
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--work", type=Path, help="where the workspace goes (kept between runs: the art made once)")
    ap.add_argument("--keep", action="store_true", help="keep the samples and stamps (printed where)")
    ap.add_argument("--no-warm", action="store_true", help="no untimed build first (the tree's byte-code and the "
                    "machine's cache already warm: a run of --work before)")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pnpgen-timeline-"))
    ws = work / "ws"
    if not ws.is_dir():  # (kept from an earlier run of --work: the same deck)
        big_deck.workspace(args.cards, ws, work / "art")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(args.tree.resolve() / "generator"), PYTHONPYCACHEPREFIX=str(work / "pycache"),
               **{STAMPS: str(work / "stamps.txt")})
    build = ["build", "--game", big_deck.SLUG, "-q"]
    if not args.no_warm:  # (the machine's cache warmed, the byte-code compiled)
        subprocess.run([sys.executable, "-m", "pnpgen", *build, "--out", str(work / "warm")], cwd=ws, env=env,
                       check=True, stderr=subprocess.DEVNULL)
        shutil.rmtree(work / "warm")
    Path(env[STAMPS]).unlink(missing_ok=True)
    run = sampled([sys.executable, __file__, "--child", *build, "--jobs", args.jobs, "--out", str(work / "out")],
                  ws, env)
    shutil.rmtree(work / "out", ignore_errors=True)
    stamps = [line.split() for line in Path(env[STAMPS]).read_text().splitlines()]
    rows = table(run, stamps)
    print(f"--jobs {args.jobs}, {args.cards:,} cards cold: wall {run['end'] - run['t0']:.2f} s, status {run['rc']}, "
          f"load {os.getloadavg()[0]:.1f}")
    print("| stretch | wall (s) | CPU-s | serial CPU-s | idle 2-core estimate (s) | CPU-s by process |\n|---|---|---|---|---|---|")
    for name, wall, cpu, serial, estimate, who in rows:
        by = ", ".join(f"{k} {v:.2f}" for k, v in sorted(who.items(), key=lambda kv: -kv[1]) if v >= 0.01)
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {serial:.2f} | {estimate:.2f} | {by} |")
    print(f"| all | {run['end'] - run['t0']:.2f} | {sum(r[2] for r in rows):.2f} | {sum(r[3] for r in rows):.2f} | "
          f"{sum(r[4] for r in rows):.2f} | |")
    if args.keep:
        (work / "samples.json").write_text(json.dumps(run))
        print(f"kept: {work / 'samples.json'}, {env[STAMPS]}")
    elif args.work is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
