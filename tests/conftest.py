"""Shared fixtures: a tiny throwaway workspace, and the four real games built once per session."""

from __future__ import annotations

import ast
import functools
import gc
import itertools
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from pathlib import Path

import pytest

# Where the test processes and the pnpgen processes they start keep their bytecode: as on a
# designer's machine, a process reuses what the one before it compiled (even where
# PYTHONDONTWRITEBYTECODE is set for the test run), and nothing is written into the checkout.
# Set before pnpgen and the test modules are imported: each worker compiled pnpgen and
# assertion-rewrote every test module anew, 6.5 of the 12 CPU-seconds of a worker's collection.
PYCACHE = Path(tempfile.gettempdir()) / "pnpgen-tests-pycache"
sys.dont_write_bytecode = False
sys.pycache_prefix = str(PYCACHE)
# Hypothesis keeps what it works out once (which characters UTF-8 encodes: 3.4 CPU-s in each
# worker; the constants of the source files) under its storage folder, by default .hypothesis/ in
# the checkout: a fresh clone (CI's) worked it out again in every worker. Kept beside the bytecode
# instead, for every checkout on the machine (its example database with it), unless set otherwise.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(Path(tempfile.gettempdir()) / "pnpgen-tests-hypothesis"))

# Test the package of this checkout (also in a git worktree beside the editable install).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "generator"))

# The rulebook's typesetting, loaded once here: a drafted build typesets its book in a process
# forked from this one (engine/bookjob.py ``RulebookJob``), which imported it anew for every such
# test (some 40 ms of CPU each: the suite has some 200 drafted builds).
import pnpgen.engine.typeset  # noqa: E402, F401
from pdfprobe import KEEP_ENV  # noqa: E402
from pnpgen.cli import COLLECTOR_THRESHOLDS, main  # noqa: E402
from pnpgen.engine.cache import Cache  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TEST_PROCESS = os.getpid()  # this test worker's own process (a process forked from it has another)


def kill_this_forked_process(code: int | None = None) -> None:
    """End the calling process as a kill would (SIGKILL; ``code``: ``os._exit(code)``): a test's
    stand-in for a build's forked worker that dies. Called in the test's own process (the build did
    the work there, not in a worker), it raises instead: it would take the pytest worker down with
    it, and the whole run would wait for that worker."""
    if os.getpid() == TEST_PROCESS:
        raise AssertionError("a worker's death was asked of the test's own process: the build did not fork for it")
    if code is not None:
        os._exit(code)
    os.kill(os.getpid(), signal.SIGKILL)


def child_env(base: dict[str, str] | None = None, **extra: str) -> dict[str, str]:
    """The environment of a ``python -m pnpgen`` the tests start: this checkout's package, its
    bytecode in PYCACHE; ``base`` (default: this process's environment) and ``extra`` added."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONPATH": str(REPO / "generator"), "PYTHONPYCACHEPREFIX": str(PYCACHE)} | extra



def ctrl_c_as_in_a_terminal() -> None:
    """A child's ``preexec_fn``: Ctrl-C as a designer's terminal delivers it, whoever started the
    tests: a test run started in the background of a script (``pytest &``, nohup, some CI
    runners) ignores SIGINT, its children inherit that, and Python then never turns SIGINT into
    KeyboardInterrupt. SIGHUP likewise: a suite run under ``nohup`` passed its ignored SIGHUP on, and
    pnpgen keeps an ignored SIGHUP ignored (nohup's wish), so the tests of a closed terminal's
    SIGHUP failed there (report51)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)


def in_a_terminal_group() -> None:
    """A child's ``preexec_fn``: as ``ctrl_c_as_in_a_terminal``, in a process group of its own, so
    ``os.killpg(proc.pid, SIGINT)`` reaches it and every process it starts, as a terminal's Ctrl-C does."""
    ctrl_c_as_in_a_terminal()
    os.setpgrp()


COPY_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
{{ textbox(piece.name ~ piece.copy, 5, 5, w - 10, 12, size=12) }}
{% endblock %}
"""  # a front that differs copy by copy (piece.copy): every copy its own face

GAMES = ["alicematic-eiketsuden", "alicematic-medallions", "asian-delivery", "populous"]

GAME_YAML = """\
title: テストゲーム
draft: 3
players: 2-4
date: 2026-11-30
palette:
  red: "#cc3333"
  ink: "#222222"
"""

DECK_YAML = """\
name: テストカード
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields:
  name: text
  text: text
pieces:
"""

# The same deck with a picture field (data/<game>/art/ files), for the art tests: fields on one
# line, so the first piece is line 7.
ART_DECK_YAML = """\
name: テストカード
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields: {name: text, text: text, art: image}
pieces:
"""
# A deck of illustrated cards, a name and a picture each; tests append their pieces.
PICTURE_DECK_YAML = """\
name: 絵札
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields: {name: text, art: image}
pieces:
"""
# Its front: the picture in a 40 mm box under the name.
PICTURE_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ image(piece.art, 5, 20, w - 10, 40) }}
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, align="center") }}
{% endblock %}
"""

DRAFT = """■■　テストゲーム　草案３

■　概要

　テスト用の小さなゲームです。２〜４人で遊びます。

■　コンポーネント

◇テストカード（１１枚）
　名前と本文が書かれたカードです。

■　ゲームの進行

１：カードを１枚引く。
２：カードを１枚出す。
"""

FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ colour('red') }}"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, min_size=7, align="center") }}
{{ textbox(piece.text, 5, 30, w - 10, 40, size=9, min_size=7) }}
{% endblock %}
"""

# FRONT for a template that draws some copies alike (piece.copy, as asian-delivery's requests cycle
# their bars): the odd copies' text ends 奇, the even ones' 偶
ODD_EVEN_FRONT = FRONT.replace("{{ textbox(piece.text,", "{{ textbox(piece.text ~ ('奇' if piece.copy % 2 else '偶'),")
assert ODD_EVEN_FRONT != FRONT

BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#333366"/>
{{ textbox("B" ~ piece.name, 5, 40, w - 10, 10, size=10, align="center", fill="#ffffff") }}
{% endblock %}
"""


def source_tree(path: Path) -> ast.Module:
    """A Python file's syntax tree, parsed once per worker: the tests of the package's shape read
    its 130 modules, six of them each (1.4 CPU-s a reading). Shared: read it, never change it."""
    stat = path.stat()
    return _parsed(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.cache
def _parsed(path: str, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"), path)


def source_nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of ``source_tree(path)`` in ``ast.walk``'s order, listed once per worker: the
    tests of the package's shape walked each module's tree nine times (``ast.walk`` is most of
    what they cost)."""
    stat = path.stat()
    return _walked(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.cache
def _walked(path: str, mtime_ns: int, size: int) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_parsed(path, mtime_ns, size)))


def picture_workspace(root: Path, pieces: str, front: str, colours: dict[str, tuple[int, int, int]],
                      size: tuple[int, int] = (300, 200), chunks: int = 1) -> Path:
    """The small workspace with a deck of illustrated cards (``PICTURE_DECK_YAML`` + ``pieces``)
    and one PNG per name in ``colours`` in its art folder: the colour, its top-left quarter white.
    ``chunks``: the PNG's pixel data split over that many IDAT chunks (a PNG in more pieces than
    pdf/raster.py's MAX_PIECES gets an image stream of its own in the cache)."""
    from PIL import Image

    ws = make_workspace(root, deck=PICTURE_DECK_YAML + pieces, front=front)
    (ws / "data" / "test" / "art").mkdir()
    for name, colour in colours.items():
        im = Image.new("RGB", size, colour)
        im.paste((255, 255, 255), (0, 0, size[0] // 2, size[1] // 2))
        im.save(ws / "data" / "test" / "art" / name)
        if chunks > 1:
            path = ws / "data" / "test" / "art" / name
            path.write_bytes(png_in_chunks(path.read_bytes(), chunks))
    return ws


def png_in_chunks(png: bytes, chunks: int) -> bytes:
    """The same PNG with its pixel data in ``chunks`` IDAT chunks (as libpng's 8 kB chunks split a
    big picture): the same picture, the same pixels, in more pieces."""
    import struct
    import zlib

    at, head, data, tail = 8, [], b"", []
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, body = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        if kind == b"IDAT":
            data += body
        else:
            (tail if data else head).append((kind, body))
        at += length + 12
    step = -(-len(data) // chunks)
    pieces = [data[i:i + step] for i in range(0, len(data), step)]
    out = png[:8]
    for kind, body in head + [(b"IDAT", p) for p in pieces] + tail:
        out += struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return out


# The first three of make_workspace's eleven cards, for a test whose check reads no more: a tiny
# build of eleven cards costs some 50 ms of CPU, of three some 20 (their faces drawn, converted and
# written). make_workspace(path, pieces=FEW_CARDS).
FEW_CARDS = ["カード1", "カード2", "カード3"]


def make_workspace(root: Path, pieces: list[str] | None = None, deck: str | None = None,
                   front: str = FRONT, back: str = BACK, game: str = GAME_YAML, draft: bool = False) -> Path:
    """A workspace with one game 'test' and one deck 'cards' (fonts shared), as a designer makes
    one: no templates/common/, the built-in templates serve it. The game sets no 和欧間 gap
    (unless ``game`` says otherwise), so names such as カード1 stay one text run in the PDF for
    text extraction; tests/text tests the gap."""
    (root / "data" / "test" / "decks").mkdir(parents=True)
    (root / "templates" / "test").mkdir(parents=True)
    (root / "fonts").symlink_to(REPO / "fonts")
    if "latin_gap:" not in game:
        game += "\nlatin_gap: 0\n"
    (root / "data" / "test" / "game.yaml").write_text(game, encoding="utf-8")
    if draft:
        (root / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    if deck is None:
        names = pieces or [f"カード{i}" for i in range(1, 12)]
        deck = DECK_YAML + "".join(f"  - {{name: {n}, text: 本文{n}}}\n" for n in names)
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(textwrap.dedent(deck), encoding="utf-8")
    (root / "templates" / "test" / "card-front.svg.j2").write_text(front, encoding="utf-8")
    (root / "templates" / "test" / "card-back.svg.j2").write_text(back, encoding="utf-8")
    return root



def faces_drawn(monkeypatch, field: str) -> list[str]:
    """The faces Jinja draws from now on (not replayed from the render memo), each as "<its
    piece's ``field``> <side>": what an edit renders again, counted."""
    from pnpgen.faces.templates import Renderer

    drawn: list[str] = []
    render = Renderer._render

    def counted(self, face, reads, deck_reads=None):
        drawn.append(f"{face.piece.values.get(field)} {face.side}")
        return render(self, face, reads, deck_reads)

    monkeypatch.setattr(Renderer, "_render", counted)
    return drawn


def docs_deck_workspace(root: Path, game: str, deck_id: str, deck: str, templates: dict[str, str]) -> Path:
    """A workspace whose one deck is a docs page's example as written: ``deck`` as
    ``data/test/decks/<deck_id>.yaml`` and each of ``templates`` (file name → text) in ``templates/test/``."""
    ws = make_workspace(root, deck="name: x\n", game=game)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    (decks / f"{deck_id}.yaml").write_text(deck, encoding="utf-8")
    for name, text in templates.items():
        (ws / "templates" / "test" / name).write_text(text, encoding="utf-8")
    return ws

def forked_main(ws: Path, args: list[str]) -> int:
    """Run ``pnpgen args`` in a child forked from this process inside ``ws`` (no interpreter
    start: a test kills it at an instant of its own); its pid."""
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        code = 1
        try:
            os.chdir(ws)
            code = main(args)
        finally:
            os._exit(code)
    return pid


def run(root: Path, *args: str, monkeypatch=None) -> int:
    """Run the CLI inside ``root`` as a designer would."""
    import os

    old = Path.cwd()
    os.chdir(root)
    try:
        return main(list(args))
    finally:
        os.chdir(old)


def forked_cli(root: Path, *args: str, timeout: float = 60, memory: int | None = None) -> tuple[int, str]:
    """Run the CLI inside ``root`` in a child forked from this process (no interpreter start, no
    imports: pnpgen is loaded here already), for a test that must survive what the run might do
    to its process (take all its memory, never end); (exit status, stderr). Killed after
    ``timeout`` seconds, only a guard against a hang: its status is then -9. The child runs in a
    process group of its own, ended with it: a process the run started and left (a drafted
    build's rulebook process: the child ends without the interpreter's exit handlers, which
    would stop it) does not outlive the test, waiting for work. ``memory``: the bytes the child
    may map beyond what it holds when forked (RLIMIT_AS): what a run under a memory limit checks,
    without a new interpreter's start and imports (a drafted build in ``python -m pnpgen`` some
    0.4 CPU-s more)."""
    handle, name = tempfile.mkstemp(prefix="pnpgen-stderr-")
    os.close(handle)
    err = Path(name)
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        code = 1
        try:
            os.setpgid(0, 0)
            if memory is not None:
                held = Path("/proc/self/statm").read_text().split()[0]  # pages mapped
                limit = int(held) * resource.getpagesize() + memory
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            os.chdir(root)
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
            sys.stderr = open(err, "w", encoding="utf-8")
            code = main(list(args))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:  # noqa: BLE001 - printed as the interpreter would print it
            traceback.print_exc()
        finally:
            sys.stderr.flush()
            os._exit(code)
    deadline = time.monotonic() + timeout
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0:
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            done = os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # nothing left of it
        pass
    try:
        return os.waitstatus_to_exitcode(done[1]), err.read_text(encoding="utf-8")
    finally:
        err.unlink()


_TMP_NUMBERS = itertools.count()


@pytest.fixture
def tmp_path(request, tmp_path_factory) -> Path:
    """pytest's ``tmp_path`` (a new empty folder for each test, under the run's temporary folder,
    kept after the run as pytest keeps it), numbered by a counter: pytest numbers each one by
    listing every folder made before it in the run and points a ``…current`` link at it, 4 ms a
    test by the end of a worker's 800 (quadratic in the number of tests)."""
    name = re.sub(r"[\W]", "_", request.node.name)[:30]
    path = tmp_path_factory.getbasetemp() / f"t{next(_TMP_NUMBERS)}-{name}"
    path.mkdir(mode=0o700)
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """The test workspace without a draft: its builds make no rulebook."""
    return make_workspace(tmp_path / "ws")


@pytest.fixture
def read_back(monkeypatch) -> list[str]:
    """The faces found in the cache from now on (their keys)."""
    found: list[str] = []
    real = Cache.face

    def counted(self, key, from_json, **kw):
        art = real(self, key, from_json, **kw)
        if art is not None:
            found.append(key)
        return art

    monkeypatch.setattr(Cache, "face", counted)
    return found


@pytest.fixture
def drafted(tmp_path: Path) -> Path:
    """The test workspace with its draft, for the tests of the rulebook beside the sheets."""
    return make_workspace(tmp_path / "ws", draft=True)


BUILT_ARGS = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


@pytest.fixture(scope="session")
def _built_workspace_once(tmp_path_factory, worker_id) -> Path:
    def make(folder: Path) -> None:
        assert run(make_workspace(folder / "ws"), *BUILT_ARGS) == 0

    return shared_dir(tmp_path_factory, worker_id, "built-workspace", make) / "ws"


@pytest.fixture
def built_workspace(_built_workspace_once: Path, tmp_path: Path) -> Path:
    """The ``workspace`` fixture as ``pnpgen build --game test --no-rulebook`` (``BUILT_ARGS``)
    leaves it: sheets, shop files, manifest and cache in ``build/``. Built once per run (the
    tests that start from it made the same first build some 30 times), each test gets its own
    copy to edit and build again. The copy is not "up to date": a game's inputs are
    fingerprinted with their paths, so its next build runs as after an edit, faces from the
    cache."""
    return Path(shutil.copytree(_built_workspace_once, tmp_path / "ws", symlinks=True))


@pytest.fixture(scope="session")
def built_copy(tmp_path_factory):
    """``built_copy(dest, *args, **workspace)``: at ``dest``, a copy of ``make_workspace(**workspace)``
    after ``pnpgen *args`` (exit 0); each distinct (args, workspace) is built once per worker
    and copied for every test that starts from it (as ``built_workspace``, the copy's next build
    runs as after an edit, faces from the cache). Only for tests that do not read what that
    first run printed."""
    made: dict[str, Path] = {}

    def copy(dest: Path, *args: str, **workspace) -> Path:
        key = repr((args, sorted(workspace.items())))
        if key not in made:
            ws = make_workspace(tmp_path_factory.mktemp("built-copy") / "ws", **workspace)
            assert run(ws, *args) == 0
            made[key] = ws
        return Path(shutil.copytree(made[key], dest, symlinks=True))

    return copy


@pytest.fixture(scope="session")
def built_shared(tmp_path_factory):
    """``built_shared(*args, **workspace)``: ``make_workspace(**workspace)`` after ``pnpgen *args``
    (exit 0), made once per worker and the same folder for every test that asks for the same
    (args, workspace): for tests that only read what that run wrote, not what it printed. A test
    that edits the workspace or runs pnpgen in it again takes ``built_copy`` (or copies it)."""
    made: dict[str, Path] = {}

    def shared(*args: str, **workspace) -> Path:
        key = repr((args, sorted(workspace.items())))
        if key not in made:
            ws = make_workspace(tmp_path_factory.mktemp("built-shared") / "ws", **workspace)
            assert run(ws, *args) == 0
            made[key] = ws
        return made[key]

    return shared


def _run_folder(tmp_path_factory, worker_id: str) -> Path:
    """The folder of this test run that every pytest-xdist worker sees (each worker's own
    temporary folder is inside it); without xdist, the run's own temporary folder."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


def shared_dir(tmp_path_factory, worker_id: str, name: str, make) -> Path:
    """A folder made once per test run, shared by every pytest-xdist worker: the first worker to
    need it makes it under a lock, the others wait and read it (``make(path)`` fills it)."""
    if worker_id == "master":  # not under xdist
        path = tmp_path_factory.mktemp(name)
        make(path)
        return path
    from filelock import FileLock

    root = _run_folder(tmp_path_factory, worker_id)
    path, done = root / name, root / f"{name}.done"
    with FileLock(str(root / f"{name}.lock")):
        if not done.exists():
            if path.exists():  # a worker that failed half-way
                shutil.rmtree(path)
            path.mkdir()
            make(path)
            done.touch()
    return path


# ``pnpgen build --all`` of the four real games in a process of its own, started as soon as a test
# run that needs them begins: it builds while the workers run the other tests (a worker that
# built them itself kept the other one waiting 8 s for them, one core idle). It writes its exit
# status into ``built.status`` when it ends, however it ends. One job: the workers keep the cores
# busy meanwhile, and two build processes cost 2.9 CPU-s more than one (20.7 against 17.8).
BUILD_ALL = """\
import sys
from pathlib import Path
from pnpgen.cli import main
code = 1
try:
    code = main(["build", "--all", "--jobs", "1", "--out", sys.argv[1]])
finally:
    Path(sys.argv[2] + ".new").write_text(str(code))
    Path(sys.argv[2] + ".new").replace(sys.argv[2])
"""
BUILT_WAIT_S = 600  # only against a hang: the build takes some 15 s on the 2-core machine


@pytest.fixture(scope="session", autouse=True)
def _build_the_games_beside_the_tests(request, tmp_path_factory):
    """Start building the four games (``built``) once per run, in the background, when a selected
    test needs them; the worker that started the build waits for its end before it stops."""
    if not any("built" in getattr(item, "fixturenames", ()) for item in request.session.items):
        yield
        return
    # the worker's name as the worker_id fixture gives it, read here so that every test does not
    # depend on pytest-xdist's fixture
    worker_id = getattr(request.config, "workerinput", {}).get("workerid", "master")
    root = _run_folder(tmp_path_factory, worker_id)
    proc = None
    from filelock import FileLock

    with FileLock(str(root / "built.lock")):
        if not (root / "built.started").exists():
            (root / "built.started").touch()
            with open(root / "built.log", "wb") as log:
                proc = subprocess.Popen([sys.executable, "-c", BUILD_ALL, str(root / "built"), str(root / "built.status")],
                                        cwd=REPO, env=child_env(), stdout=log, stderr=subprocess.STDOUT)
    yield
    if proc is not None:
        proc.wait()


@pytest.fixture(scope="session")
def built(_build_the_games_beside_the_tests, tmp_path_factory, worker_id) -> Path:
    """All four games built once per run as a designer builds them (sheets, shop files,
    rulebooks), into a temporary build folder every worker reads."""
    root = _run_folder(tmp_path_factory, worker_id)
    status = root / "built.status"
    waited = 0.0
    while not status.exists():
        assert waited < BUILT_WAIT_S, f"pnpgen build --all has not ended in {BUILT_WAIT_S} s: {root / 'built.log'}"
        time.sleep(0.05)
        waited += 0.05
    log = (root / "built.log").read_text(encoding="utf-8", errors="replace")
    assert status.read_text() == "0", f"pnpgen build --all of the four games failed:\n{log}"
    os.environ[KEEP_ENV] = str(root / "built")  # what the tests read of its PDFs, read once per run
    return root / "built"


def pytest_configure(config) -> None:
    """A test worker runs hundreds of builds in one process: the collector works as in the
    ``pnpgen`` command.

    The run's temporary folders stay in the system's temporary folder, on disk. They were put on
    the RAM disk (/dev/shm: the suite 1.5-2 s sooner), where each run left some 1 GB of memory
    taken until the next boot; runs that were killed or failed left theirs too (pytest keeps a
    run's folders while its lock file looks alive, three days). After a month of sessions the
    RAM disk held 19 GB of the machine's 24, and CI's run on that machine had its two test
    workers ended by the out-of-memory killer (the kernel's log, 04:05 on 7 December 2026). A run
    that passes now removes its folders (pyproject.toml: ``tmp_path_retention_policy``)."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def pytest_collection_modifyitems(items) -> None:
    """The modules that read the four real games (``built``) run after the others, each in its
    own order: the workers start on tests that need nothing while ``pnpgen build --all`` runs
    beside them, instead of waiting for it with a core idle. (pytest-xdist hands out modules in
    this order; every worker sorts alike.)"""
    reading = {item.nodeid.split("::")[0] for item in items if "built" in getattr(item, "fixturenames", ())}
    items.sort(key=lambda item: item.nodeid.split("::")[0] in reading)


# Test modules that read the package's syntax trees (``source_tree``, parsed once per worker, some
# 1.4 CPU-s): one unit of work for pytest-xdist, so one worker parses them.
SHARED_SCOPES = dict.fromkeys(("tests/test_architecture.py", "tests/test_packaging.py", "tests/pdf/test_structure.py",
                               "tests/pdf/test_settings.py", "tests/rulebook/test_rulebook_layout.py",
                               "tests/test_dataclass_docs.py"),
                              "the package's syntax trees")


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` (each module on one worker) with the modules of ``SHARED_SCOPES`` as
    one unit, and a worker's death reported once rather than waited on (tests/scheduling.py)."""
    if config.getvalue("dist") != "loadscope":
        return None
    from scheduling import scheduling_for

    return scheduling_for(SHARED_SCOPES)(config, log)


def pytest_collection_finish(session) -> None:
    """What collection imported (pnpgen, its libraries, the test modules) stays to the end, so
    the collector stops walking it once it is collected."""
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config) -> None:
    """The heap a worker built up (fonts, compiled templates, pictures) is frozen as it stops,
    so the interpreter's last garbage collection does not walk it: that walk kept each worker
    alive most of a second after its last test."""
    gc.freeze()


def remove_tree(folder: Path) -> None:
    """Remove a folder a build wrote into, which the reclaim a finished commit started (a process
    of its own, engine/trash.reclaim) may still be emptying: an entry it frees as rmtree walks is
    no error (a fresh clone's CI run failed on '.pnpgen-trash' so)."""
    for _ in range(100):
        try:
            shutil.rmtree(folder)
            return
        except FileNotFoundError:
            if not folder.exists():
                return
    raise AssertionError(f"{folder}: could not be removed")
