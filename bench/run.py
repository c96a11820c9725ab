"""Speed goals of the build engine, measured as a designer meets them: whole `pnpgen` processes.

    python bench/run.py [--runs 5]

Prints a table (figure, median, min, max, goal, met?). Figures:

- poker deck ÷ floor: a 53-card poker deck with backs (9 unique faces, counts 8,8,6,6,6,5,5,5,4;
  coloured ground, a big number, a Japanese title, one line of rule text) built by pnpgen from
  YAML and templates (home sheets and shop files, no rulebook, no cache), divided by the time of
  `bench/floor_poker.py`, a short hand-written ReportLab script that draws the same cards with
  crop marks and mirrored backs. Both timed as whole processes, alternately, in the same run.
- build --all cold: the four games, rulebooks included, into an empty folder.
- no-op rebuild: the same again with nothing changed.
- one count changed: one piece's count in one deck edited, then `build --all`.
- pnpgen list.
- peak RSS of the cold build (the largest process, workers included).
- a big illustrated deck (``bench/big_deck.py``: ``--big`` distinct poker cards, 1,000 by
  default, each with its own 600×840 PNG, counts 1–3): its cold build, the first edit after it
  (one card's rule text; no replaced document to rewrite yet: engine/spare.py, shown without a
  goal), then the designer's loop: a rebuild after another card's rule text is edited, a rebuild
  after one card's count is changed, the cold build's peak RSS,
  the cold build's time with ``--jobs 1`` divided by its time with ``--jobs 2`` (paired runs),
  the share of its files that ``--jobs 1`` and ``--jobs 2`` write byte-identical (1: all), the
  cold build's peak RSS (with the default ``--jobs`` and with ``--jobs 1``), the first edit and one
  text edit at ``--huge`` cards (3,000 by default), the cold build's and one text edit's peak RSS at
  ``--text`` distinct text cards of the built-in poker layout (5,000 by default: ``big_deck.text_workspace``),
  and ``pnpgen list`` in a workspace of ``--list-n`` such cards (3,000 by default; its art/ is
  left empty, as list never opens a picture). The pictures are made once into ``--art`` (a
  minute or two for 1,000) and hard-linked into each run's workspace.

Each big-deck figure is also given in CPU seconds (user + system, workers included): on a shared
machine wall times swell with its load, CPU times much less.

- the watch loop (``--only watch``): ``pnpgen watch --game populous`` running in a copy of the
  workspace; a count, the text of a card the rulebook pictures, the text of one it does not (its
  pages are then not set again) and a picture are edited in turn (each edit then undone, so
  every save changes something; each written beside the file and renamed over it, as most editors
  save), and the time from the save to the build's summary line (printed
  once the last file is renamed into place) is taken, and the CPU seconds the watch process and
  its workers (the warm rulebook process, the build's worker processes) spent on that save.
  A save unanswered within ``WATCH_ANSWER_S`` (120 s), or watch ending, stops the figures with
  what watch said last on its stderr (a failed build says so only there).
- a repeated Tabletop Simulator export of populous with nothing changed (``--only export``).
- the poker deck against its floor alone: ``--only poker``.

``--only big`` (or ``games``, ``watch``, ``export``, ``poker``, ``list``) measures one group of figures.

Every process runs as on a designer's machine: Python writes its bytecode (.pyc) on the first run
and reuses it after, so PYTHONDONTWRITEBYTECODE is removed from the children's environment and one
untimed warm-up build (every game, and the poker deck, and the floor) writes those files first.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import big_deck

REPO = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(REPO / "generator")}

POKER_GAME = """\
title: ベンチマーク
draft: 1
players: 2-4
date: 2026-11-30
palette:
  red: "#c8372d"
  blue: "#2d5fc8"
  green: "#2d9a4b"
  ink: "#1a1a1a"
  paper: "#fbf8f0"
"""
POKER_DECK = """\
name: 数字カード
format: poker
front: number-front.svg.j2
back: number-back.svg.j2
fields: {number: int, title: text, rule: text, colour: colour}
pieces:
"""
POKER_PIECES = [(1, "はじまり", "red", 8), (2, "ふたつめ", "blue", 8), (3, "みっつめ", "green", 6),
                (4, "よっつめ", "red", 6), (5, "いつつめ", "blue", 6), (6, "むっつめ", "green", 5),
                (7, "ななつめ", "red", 5), (8, "やっつめ", "blue", 5), (9, "ここのつめ", "green", 4)]
POKER_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ colour(piece.colour) }}"/>
<rect x="4" y="4" width="{{ w - 8 }}" height="{{ h - 8 }}" rx="2" fill="{{ colour('paper') }}"/>
{{ textbox(piece.number, 4, 18, w - 8, 30, size=60, font="bold", align="center", valign="middle", fill=colour(piece.colour)) }}
{{ textbox(piece.title, 6, 52, w - 12, 9, size=14, font="bold", align="center", fill=colour('ink')) }}
{{ textbox(piece.rule, 6, 66, w - 12, 10, size=9, min_size=7, align="center", fill=colour('ink')) }}
{% endblock %}
"""
POKER_BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ colour('ink') }}"/>
<circle cx="{{ w / 2 }}" cy="{{ h / 2 }}" r="18" fill="none" stroke="{{ colour('paper') }}" stroke-width="1.2"/>
{% endblock %}
"""


def poker_workspace(root: Path) -> Path:
    (root / "data" / "bench" / "decks").mkdir(parents=True)
    (root / "templates" / "bench").mkdir(parents=True)
    common = REPO / "templates" / "common"
    if common.is_dir():
        shutil.copytree(common, root / "templates" / "common")
    (root / "fonts").symlink_to(REPO / "fonts")
    (root / "data" / "bench" / "game.yaml").write_text(POKER_GAME, encoding="utf-8")
    pieces = "".join(f"  - {{number: {n}, title: {t}, rule: カードを{n}枚引く。, colour: {c}, count: {k}}}\n"
                     for n, t, c, k in POKER_PIECES)
    (root / "data" / "bench" / "decks" / "numbers.yaml").write_text(POKER_DECK + pieces, encoding="utf-8")
    (root / "templates" / "bench" / "number-front.svg.j2").write_text(POKER_FRONT, encoding="utf-8")
    (root / "templates" / "bench" / "number-back.svg.j2").write_text(POKER_BACK, encoding="utf-8")
    return root


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall time of one whole process and its peak RSS in MB: the largest of the process and
    every worker it waited for (Linux's wait4 reports the maximum over the process's tree)."""
    took, rss, _ = timed_cpu(cmd, cwd)
    return took, rss


def timed_cpu(cmd: list[str], cwd: Path) -> tuple[float, float, float]:
    """``timed``, and the CPU seconds (user + system) of the process and its waited-for workers:
    the figure to compare when the machine is shared and wall times swell with its load."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            sys.exit(f"{' '.join(cmd)} failed:\n{err.read().decode()}")
    _settled(cmd, cwd)
    return took, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def _settled(cmd: list[str], cwd: Path, limit: float = 120.0) -> None:
    """Wait, untimed, until the old files a build replaced are freed (the detached process that
    empties ``.pnpgen-trash``, engine/transaction.py): the designer does not wait for it, but the
    next measurement must not share the machine with it."""
    outs = [cwd / "build"] + [Path(cmd[i + 1]) for i, a in enumerate(cmd[:-1]) if a == "--out"]
    trash = [str((o / ".pnpgen-trash").resolve()).encode() for o in outs]
    end = time.perf_counter() + limit
    # (the folder itself may stay: it keeps each big document's spare, engine/spare.py)
    while _emptying(trash) and time.perf_counter() < end:
        time.sleep(0.05)


def _emptying(folders: list[bytes]) -> bool:
    """Is a process emptying one of ``folders`` (its command line names ``empty_trash`` and the folder)?"""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            line = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if b"empty_trash" in line and any(f in line for f in folders):
            return True
    return False


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--only", choices=("games", "big", "watch", "export", "poker", "list"),
                   help="measure one group of figures")
    p.add_argument("--big", type=int, default=1000, help="distinct cards of the big deck")
    p.add_argument("--big-runs", type=int, default=3, help="runs of each big-deck figure")
    p.add_argument("--huge", type=int, default=3000, help="cards of the deck whose memory and edit are measured "
                   "at a larger size (0: not measured)")
    p.add_argument("--huge-runs", type=int, default=1, help="runs at --huge cards")
    p.add_argument("--text", type=int, default=5000, help="distinct text cards whose cold build's and text edit's "
                   "peak RSS are measured (0: not measured)")
    p.add_argument("--list-n", type=int, default=3000, help="cards of the workspace pnpgen list is timed in")
    p.add_argument("--art", type=Path, default=Path(tempfile.gettempdir()) / "pnpgen-bench-art",
                   help="folder of the big deck's pictures, kept between runs")
    args = p.parse_args()
    pnpgen = [sys.executable, "-m", "pnpgen"]
    rows: list[tuple[str, list[float], float, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.only in (None, "games", "poker"):
            rows += _games(pnpgen, tmp, args.runs, poker_only=args.only == "poker")
        if args.only in (None, "big"):
            rows += _big(pnpgen, tmp, args)
        if args.only in (None, "watch"):
            rows += _watch(pnpgen, tmp, args.runs)
        if args.only in (None, "export"):
            rows += _export(pnpgen, tmp, args.runs)
        if args.only == "list":  # (the big group measures it too)
            rows += _list(pnpgen, tmp, args)
    _table(rows)
    print(f"\n{os.cpu_count()} cores, {args.runs} runs each ({args.big_runs} of the big deck), "
          f"Python {sys.version.split()[0]}")


def _games(pnpgen: list[str], tmp: Path, runs: int, poker_only: bool = False) -> list[tuple[str, list[float], float, str]]:
    """The poker deck against its floor, and the four shipped games."""
    rows: list[tuple[str, list[float], float, str]] = []
    ws = poker_workspace(tmp / "poker")
    # untimed warm-up: bytecode for every module the figures below load
    if not poker_only:
        timed(pnpgen + ["build", "--all", "--out", str(tmp / "warm-up")], REPO)
    timed(pnpgen + ["build", "--game", "bench", "--no-rulebook", "--out", str(tmp / "warm-up-poker")], ws)
    timed([sys.executable, str(REPO / "bench" / "floor_poker.py"), str(tmp / "warm-up-floor")], ws)
    ratios, ours, floors, cpu_ratios = [], [], [], []
    for i in range(runs):
        out = tmp / f"poker-out-{i}"
        t_ours, _, c_ours = timed_cpu(pnpgen + ["build", "--game", "bench", "--no-rulebook", "--out", str(out)], ws)
        t_floor, _, c_floor = timed_cpu([sys.executable, str(REPO / "bench" / "floor_poker.py"), str(tmp / f"floor-{i}")], ws)
        ours.append(t_ours)
        floors.append(t_floor)
        ratios.append(t_ours / t_floor)
        cpu_ratios.append(c_ours / c_floor)
    rows.append(("poker deck: pnpgen (s)", ours, 0.0, ""))
    rows.append(("poker deck: hand-written floor (s)", floors, 0.0, ""))
    rows.append(("poker deck ÷ floor", ratios, 1.5, "×"))
    rows.append(("poker deck ÷ floor, CPU", cpu_ratios, 1.5, "×"))
    if poker_only:
        return rows

    cold, noop, count = [], [], []
    before = peak_rss_mb()
    for i in range(runs):
        out = tmp / f"all-{i}"
        cold.append(timed(pnpgen + ["build", "--all", "--out", str(out)], REPO)[0])
        noop.append(timed(pnpgen + ["build", "--all", "--out", str(out)], REPO)[0])
        count.append(_count_change(pnpgen, out, tmp / f"ws-{i}"))
    rss = peak_rss_mb()
    rows.append(("build --all, cold (s)", cold, 5.0, "s"))
    rows.append(("build --all, no-op (s)", noop, 0.3, "s"))
    rows.append(("build --all, one count changed (s)", count, 1.0, "s"))
    rows.append(("pnpgen list (s)", [timed(pnpgen + ["list"], REPO)[0] for _ in range(runs)], 0.3, "s"))
    rows.append(("peak RSS, largest process (MB)", [max(rss, before)], 400.0, "MB"))
    return rows


def _big(pnpgen: list[str], tmp: Path, args: argparse.Namespace) -> list[tuple[str, list[float], float, str]]:
    """The big illustrated deck: cold, one text edited, one count changed, peak RSS; list at --list-n."""
    n = args.big
    build = pnpgen + ["build", "--game", big_deck.SLUG]
    cold, first, text, count, rss, ratio, same = [], [], [], [], [], [], []
    cpu: dict[str, list[float]] = {"cold": [], "text": [], "count": []}
    for i in range(args.big_runs):
        ws = big_deck.workspace(n, tmp / f"big-{i}", args.art)
        if i == 0:  # untimed: what the machine's cache keeps of the art (each picture checked once) is
            timed(build + ["--out", str(tmp / "big-warm")], ws)  # there for both of the paired runs
            shutil.rmtree(tmp / "big-warm")
        one, _ = timed(build + ["--jobs", "1", "--out", str(tmp / f"big-one-{i}")], ws)  # paired with the next
        took, peak, used = timed_cpu(build + ["--jobs", "2"], ws)
        same.append(_same_files(tmp / f"big-one-{i}" / big_deck.SLUG, ws / "build" / big_deck.SLUG))
        shutil.rmtree(tmp / f"big-one-{i}")
        cold.append(took)
        rss.append(peak)
        ratio.append(one / took)
        cpu["cold"].append(used)
        # the first edit after a cold build has no replaced file to rewrite yet (engine/spare.py):
        # timed on its own row; the designer's loop is the edits after it
        big_deck.edit(ws, n, edited=n // 4)
        took, _, _ = timed_cpu(build, ws)
        first.append(took)
        big_deck.edit(ws, n, edited=n // 2)
        took, _, used = timed_cpu(build, ws)
        text.append(took)
        cpu["text"].append(used)
        big_deck.edit(ws, n, edited=n // 2, counted=n // 3)
        took, _, used = timed_cpu(build, ws)
        count.append(took)
        cpu["count"].append(used)
        shutil.rmtree(ws)
    listed = _list(pnpgen, tmp, args)
    huge = _huge(build, tmp, args) if args.huge else []
    huge += _text(pnpgen, tmp, args) if args.text else []
    return [(f"{n:,} illustrated cards, cold build (s)", cold, 10.0, "s"),
            (f"{n:,} cards, cold --jobs 1 ÷ --jobs 2", ratio, -1.7, "×"),
            (f"{n:,} cards, files --jobs 1 = --jobs 2 (share)", same, -1.0, ""),
            (f"{n:,} cards, first edit after a cold build (s)", first, 0.0, "s"),
            (f"{n:,} cards, one card's text edited (s)", text, 1.0, "s"),
            (f"{n:,} cards, one count changed (s)", count, 1.0, "s"),
            (f"{n:,} cards, cold build peak RSS (MB)", rss, 400.0, "MB"),
            (f"{n:,} cards, cold build, CPU (s)", cpu["cold"], 0.0, "s"),
            (f"{n:,} cards, text edited, CPU (s)", cpu["text"], 0.0, "s"),
            (f"{n:,} cards, count changed, CPU (s)", cpu["count"], 0.0, "s"), *listed, *huge]


def _huge(build: list[str], tmp: Path, args: argparse.Namespace) -> list[tuple[str, list[float], float, str]]:
    """The deck at ``--huge`` cards (3,000): the cold build's peak RSS (``--jobs 2``, then ``--jobs 1``
    into a folder of its own) and one text edit."""
    n = args.huge
    rss, rss_one, first, text, text_cpu = [], [], [], [], []
    for i in range(args.huge_runs):
        ws = big_deck.workspace(n, tmp / f"huge-{i}", args.art)
        _, peak, _ = timed_cpu(build + ["--jobs", "2"], ws)
        rss.append(peak)
        _, peak, _ = timed_cpu(build + ["--jobs", "1", "--out", str(tmp / f"huge-one-{i}")], ws)  # (a one-core machine)
        rss_one.append(peak)
        shutil.rmtree(tmp / f"huge-one-{i}")
        big_deck.edit(ws, n, edited=n // 4)  # (the first edit: no replaced file to rewrite yet)
        first.append(timed_cpu(build, ws)[0])
        big_deck.edit(ws, n, edited=n // 2)
        took, _, used = timed_cpu(build, ws)
        text.append(took)
        text_cpu.append(used)
        shutil.rmtree(ws)
    return [(f"{n:,} cards, cold build peak RSS (MB)", rss, 400.0, "MB"),
            (f"{n:,} cards, cold --jobs 1 peak RSS (MB)", rss_one, 400.0, "MB"),
            (f"{n:,} cards, first edit after a cold build (s)", first, 0.0, "s"),
            (f"{n:,} cards, one card's text edited (s)", text, 1.5, "s"),
            (f"{n:,} cards, text edited, CPU (s)", text_cpu, 0.0, "s")]


def _text(pnpgen: list[str], tmp: Path, args: argparse.Namespace) -> list[tuple[str, list[float], float, str]]:
    """``--text`` distinct text cards (``big_deck.text_workspace``), ``--huge-runs`` times: the cold
    build's peak RSS and CPU, then one card's text edited (the first edit after it), its peak RSS."""
    n = args.text
    build = pnpgen + ["build", "--game", big_deck.TEXT_SLUG, "--no-rulebook"]
    rss, cpu, edit_rss = [], [], []
    for i in range(args.huge_runs):
        ws = big_deck.text_workspace(n, tmp / f"text-{i}")
        _, peak, used = timed_cpu(build, ws)
        rss.append(peak)
        cpu.append(used)
        big_deck.text_edit(ws, n, edited=n // 2)
        edit_rss.append(timed_cpu(build, ws)[1])
        shutil.rmtree(ws)
    return [(f"{n:,} text cards, cold build peak RSS (MB)", rss, 400.0, "MB"),
            (f"{n:,} text cards, cold build, CPU (s)", cpu, 0.0, "s"),
            (f"{n:,} text cards, text edited, peak RSS (MB)", edit_rss, 400.0, "MB")]


def _same_files(a: Path, b: Path) -> float:
    """The share of the output files of ``a`` that ``b`` holds with the same bytes (1.0: all)."""
    files = (p.relative_to(a) for p in a.rglob("*") if p.is_file())
    names = sorted(rel for rel in files if not any(part.startswith(".") for part in rel.parts))
    same = sum(1 for rel in names if (b / rel).is_file() and filecmp.cmp(a / rel, b / rel, shallow=False))
    return same / len(names) if names else 0.0


def _list(pnpgen: list[str], tmp: Path, args: argparse.Namespace) -> list[tuple[str, list[float], float, str]]:
    """``pnpgen list`` in a workspace of ``--list-n`` cards (no pictures: list never opens them);
    the first run, untimed, is the first look at a new folder."""
    ws = big_deck.workspace(args.list_n, tmp / "big-list", args.art, pictures=False)
    timed(pnpgen + ["list"], ws)
    listed, listed_cpu = [], []
    for _ in range(args.runs):
        took, _, used = timed_cpu(pnpgen + ["list"], ws)
        listed.append(took)
        listed_cpu.append(used)
    return [(f"pnpgen list, {args.list_n:,} cards (s)", listed, 0.3, "s"),
            (f"pnpgen list, {args.list_n:,} cards, CPU (s)", listed_cpu, 0.0, "s")]


def _copy_workspace(ws: Path) -> Path:
    shutil.copytree(REPO / "data", ws / "data")
    shutil.copytree(REPO / "templates", ws / "templates")
    (ws / "fonts").symlink_to(REPO / "fonts")
    return ws


# (what is edited, file under data/populous/, the text replaced, its replacement); a picture is
# edited by recolouring one pixel.
WATCH_EDITS = [("count", "decks/town.yaml", "count: 6}", "count: 7}"),
               ("text", "decks/epic.yaml", "name: 祝福", "name: 祝福と恵み"),  # the first epic card: the book pictures it
               ("unshown text", "decks/epic.yaml", "name: 降臨", "name: 降臨の時"),  # a card the book does not show
               ("art", "art/terrain/plains.png", "", "")]


def _watch(pnpgen: list[str], tmp: Path, runs: int) -> list[tuple[str, list[float], float, str]]:
    """``pnpgen watch --game populous``: save → the build's summary line, for each kind of edit."""
    import queue
    import threading

    ws = _copy_workspace(tmp / "watch-ws")
    proc = subprocess.Popen(pnpgen + ["watch", "--game", "populous"], cwd=ws, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdout is not None and proc.stderr is not None
    lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
    said_wrong: list[str] = []  # watch's error and warning lines (a save whose build failed says so only there)

    def read(stream) -> None:  # each line with the time it arrived; None once watch's output ends
        for line in stream:
            lines.put((time.perf_counter(), line))
        lines.put((time.perf_counter(), None))

    def read_errors(stream) -> None:
        for line in stream:
            said_wrong.append(line.rstrip())

    threading.Thread(target=read, args=(proc.stdout,), daemon=True).start()
    threading.Thread(target=read_errors, args=(proc.stderr,), daemon=True).start()

    def until(word: str, what: str, limit: float = WATCH_ANSWER_S) -> float:
        end = time.perf_counter() + limit
        while time.perf_counter() < end:
            try:
                when, line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if line is None:
                proc.wait(timeout=10)
                _watch_failed(f"pnpgen watch ended (exit status {proc.returncode}) before it answered {what}",
                              said_wrong)
            if word in line:
                return when
        _watch_failed(f"pnpgen watch printed no {word!r} line within {limit:g} s of {what}", said_wrong)

    times: dict[str, list[float]] = {kind: [] for kind, *_ in WATCH_EDITS}
    cpu: dict[str, list[float]] = {kind: [] for kind, *_ in WATCH_EDITS}
    try:
        until("watching", "its start", 900.0)  # (the first build: the cold one)
        for i in range(runs + 1):  # the first round warms the worker's caches up: untimed
            for kind, rel, old, new in WATCH_EDITS:
                for back in (False, True):  # the edit, then back: two saves, two builds
                    time.sleep(1.0)  # the last build's lines are all out
                    while not lines.empty():  # a line from before the save is not this save's
                        if lines.get()[1] is None:
                            lines.put((0.0, None))  # (watch ended: said by the wait below)
                            break
                    path = ws / "data" / "populous" / rel
                    if kind == "art":
                        _saved(path, _recoloured(path))
                    else:
                        text = path.read_text(encoding="utf-8")
                        _saved(path, (text.replace(new, old, 1) if back else text.replace(old, new, 1)).encode())
                    used = _tree_cpu(proc.pid)
                    saved = time.perf_counter()
                    undone = ", undone" if back else ""
                    took = until("populous:", f"the save of data/populous/{rel} ({kind} edit{undone})") - saved
                    if i:
                        times[kind].append(took)
                        cpu[kind].append(_tree_cpu(proc.pid) - used)
    finally:
        proc.terminate()
        proc.wait()
    return [(f"watch populous: {kind} edit, save → written (s)", v, 0.25, "s") for kind, v in times.items()] + \
        [(f"watch populous: {kind} edit, CPU of the save (s)", v, 0.0, "s") for kind, v in cpu.items()]


# How long a save may go unanswered before the watch figures stop: a warm save takes a second or
# two, a few under a heavy load.
WATCH_ANSWER_S = 120.0


def _watch_failed(why: str, said_wrong: list[str]) -> NoReturn:
    """The watch figures stopped with what went wrong and what watch said on its stderr last."""
    errors = [line for line in said_wrong if "error" in line][-3:] or said_wrong[-3:]
    sys.exit(why + ("; its last lines on stderr:\n  " + "\n  ".join(errors) if errors else "; nothing on its stderr"))


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` and every process below it, the ones that
    ended and were waited for included (Linux /proc; 0 elsewhere): a save's work, whatever else
    the machine is doing, where its wall time swells with the machine's load."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats: dict[int, tuple[int, float]] = {}  # pid → (parent, CPU seconds)
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        # after the name: state ppid … utime(14) stime(15) cutime(16) cstime(17), numbered from 1
        stats[int(entry.parent.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / tick)
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, (0, 0.0))[1]
        todo += [c for c, (parent, _) in stats.items() if parent == p]
    return total


def _recoloured(path: Path) -> bytes:
    import io

    from PIL import Image

    with Image.open(path) as im:
        im.load()
        copy = im.copy()
    if copy.mode not in ("RGB", "RGBA"):
        copy = copy.convert("RGBA")
    pixel = copy.getpixel((0, 0))
    copy.putpixel((0, 0), (pixel[0] ^ 1, *pixel[1:]))  # one bit of one pixel: a new picture
    out = io.BytesIO()
    copy.save(out, "PNG")
    return out.getvalue()


def _saved(path: Path, data: bytes) -> None:
    """``data`` saved as most editors save: written whole beside ``path`` (``.tmp``: a name watch
    passes over), then renamed over it. Written in place, a save the watcher saw half-way (on a
    busy machine the writer stops between its writes) was built twice, and the second build's
    summary line was taken for the next save's."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _export(pnpgen: list[str], tmp: Path, runs: int) -> list[tuple[str, list[float], float, str]]:
    """A Tabletop Simulator export of populous, then the same again with nothing changed."""
    ws = _copy_workspace(tmp / "export-ws")
    cmd = pnpgen + ["export", "--game", "populous", "--preset", "tabletopsimulator"]
    timed(cmd, ws)
    again, cpu = [], []
    for _ in range(runs):
        took, _, used = timed_cpu(cmd, ws)
        again.append(took)
        cpu.append(used)
    return [("TTS export of populous, repeated (s)", again, 0.5, "s"),
            ("TTS export, repeated, CPU (s)", cpu, 0.0, "s")]


def _table(rows: list[tuple[str, list[float], float, str]]) -> None:
    print(f"{'figure':<42} {'median':>8} {'min':>8} {'max':>8} {'goal':>8}  met?")
    for name, values, goal, _unit in rows:  # a negative goal is a floor: at least -goal
        med = statistics.median(values)
        goal_s = (f"≤ {goal:g}" if goal > 0 else f"≥ {-goal:g}") if goal else ""
        met = ("yes" if (med <= goal if goal > 0 else med >= -goal) else "NO") if goal else ""
        print(f"{name:<42} {med:8.3f} {min(values):8.3f} {max(values):8.3f} {goal_s:>8}  {met}")


def _count_change(pnpgen: list[str], out: Path, ws: Path) -> float:
    """Copy the workspace, build it, change one count in one deck, time the rebuild."""
    shutil.copytree(REPO / "data", ws / "data")
    shutil.copytree(REPO / "templates", ws / "templates")
    (ws / "fonts").symlink_to(REPO / "fonts")
    shutil.copytree(out, ws / "build")
    timed(pnpgen + ["build", "--all"], ws)  # the copy's own paths: settle the cache
    deck = ws / "data" / "populous" / "decks" / "town.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("count: 6}", "count: 7}", 1), encoding="utf-8")
    took, _ = timed(pnpgen + ["build", "--all"], ws)
    return took


if __name__ == "__main__":
    main()
