"""Issue 12: a fuzz test. Hypothesis mutates a valid deck (types, values, deletions, unicode,
huge and negative numbers, raw text) and the build options; every case must end in exit 0 or 2,
never a traceback, never a hang, and a failed build leaves the previous outputs as they were.

CI runs a short deterministic budget; ``scripts/fuzz.py`` runs a long random one
(PNPGEN_FUZZ_EXAMPLES, PNPGEN_FUZZ_SEED)."""

from __future__ import annotations

import contextlib
import io
import os
import signal
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import make_workspace, run

EXAMPLES = int(os.environ.get("PNPGEN_FUZZ_EXAMPLES", "30"))
SEED = os.environ.get("PNPGEN_FUZZ_SEED")
CASE_BOUND_S = 60  # a hang guard, not a speed test (speed is measured in bench/)
FUZZ = settings(max_examples=EXAMPLES, derandomize=SEED is None, database=None, deadline=None,
                suppress_health_check=list(HealthCheck), print_blob=True)

BASE = {
    "name": "テストカード",
    "kind": "card",
    "format": "poker",
    "front": "card-front.svg.j2",
    "back": "card-back.svg.j2",
    "fields": {"name": "text", "text": "text"},
    "defaults": {"text": "本文"},
    "pieces": [{"name": "祝福", "count": 2}, {"name": "呪い", "text": "**太字**と[red]赤[/red]"}],
}
WORDS = ["0", "-1", "-1mm", "1e9", "63mm", "2.5in", "10pt", "#zzz", "#fff", "red", "../../etc/passwd",
         "/etc/passwd", "未定", "{{ 7*7 }}", "<script>", "{nope}", "{card}", "**", "[red]", "pointy", "flat",
         "poker", "rect", "rounded", "circle", "hex", "trihex", "polygon", "board", "tile", "token",
         "corner_radius", "orientation", "points", "size", "format", "count", "card-back.svg.j2", "", " "]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20), st.sampled_from(WORDS),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)),
                      max_leaves=8)


def _paths(data, prefix=()):
    """Every place in the document a mutation can touch."""
    yield prefix
    if isinstance(data, dict):
        for k, val in data.items():
            yield from _paths(val, prefix + (k,))
    elif isinstance(data, list):
        for i, val in enumerate(data):
            yield from _paths(val, prefix + (i,))


def _mutate(draw, data):
    paths = [p for p in _paths(data) if p]
    path = draw(st.sampled_from(paths))
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    op = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
    if op == "delete":
        del parent[path[-1]]
    elif op == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(WORDS))] = draw(values)
    else:
        parent[path[-1]] = draw(values)


@st.composite
def decks(draw) -> str:
    data = yaml.safe_load(yaml.safe_dump(BASE))  # a fresh deep copy
    for _ in range(draw(st.integers(1, 3))):
        if isinstance(data, (dict, list)) and data:
            _mutate(draw, data)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    if draw(st.booleans()) and text:  # and sometimes raw text, for the YAML reader
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.one_of(st.text(max_size=6), st.sampled_from(["&a ", "*a", "!!python/object ", ": ", "\t", "[", "{", "- "]))) + text[at:]
    return text


options = st.fixed_dictionaries({}, optional={
    "--bleed": st.one_of(st.sampled_from(WORDS), st.floats(-100, 100).map(str), st.text(max_size=8)),
    "--margin": st.one_of(st.sampled_from(WORDS), st.floats(-100, 100).map(str)),
    "--creep": st.one_of(st.sampled_from(WORDS), st.floats(-5, 5).map(str)),
    "--paper": st.sampled_from(["a4", "a3", "letter", "b5", ""]),
    "--duplex": st.sampled_from(["long", "short", "none", "both"]),
    "--marks": st.sampled_from(["jp", "western", "none", "x"]),
    "--out": st.sampled_from(["out", "notes.txt", "notes.txt/x", "", "out/\x00"]),
})


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = make_workspace(tmp_path_factory.mktemp("fuzz") / "ws", pieces=["祝福"])
    (root / "notes.txt").write_text("a file, not a folder")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    return root


class _Hang(Exception):
    pass


def _bounded(ws: Path, *args: str) -> tuple[int, str]:
    """Run the CLI with a time bound; return (exit status, stderr). argparse's exit counts as 2."""
    def hang(signum, frame):
        raise _Hang(f"pnpgen {' '.join(args)} ran longer than {CASE_BOUND_S} s")

    err = io.StringIO()
    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(CASE_BOUND_S)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                status = run(ws, *args)
            except SystemExit as e:
                status = e.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return status, err.getvalue()


def _snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _printable(ws: Path) -> bool:
    """Build only what a CI budget affords: a handful of copies of pieces up to A3 size."""
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace

    game = load_game(Workspace(ws), "test")
    return all(d.count <= 20 and max(d.trim_mm) <= 420 for d in game.decks)


def _outcome(status: int, err: str) -> None:
    assert status in (0, 2), err
    assert "Traceback" not in err, err
    if status == 2 and err.startswith("pnpgen: error: "):
        assert err.count("\n") == 1, err  # one line


fuzz_seed = (lambda f: f) if SEED is None else __import__("hypothesis").seed(int(SEED))


@fuzz_seed
@FUZZ
@given(deck=decks())
def test_fuzz_deck(ws, deck):
    path = ws / "data" / "test" / "decks" / "cards.yaml"
    good = path.read_text(encoding="utf-8")
    path.write_text(deck, encoding="utf-8")
    try:
        status, err = _bounded(ws, "check")
        _outcome(status, err)
        if status == 0 and _printable(ws):
            before = _snapshot(ws / "build")
            status, err = _bounded(ws, "build", "--game", "test", "--no-rulebook")
            _outcome(status, err)
            if status == 2:
                assert _snapshot(ws / "build") == before  # a failed build keeps the old files
    finally:
        path.write_text(good, encoding="utf-8")


@fuzz_seed
@FUZZ
@given(opts=options)
def test_fuzz_options(ws, opts):
    args = ["build", "--game", "test", "--no-rulebook"]
    for k, val in opts.items():
        args.append(f"{k}={val}")
    before = _snapshot(ws / "build")
    status, err = _bounded(ws, *args)
    _outcome(status, err)
    if status == 2:
        assert _snapshot(ws / "build") == before
    assert (ws / "notes.txt").read_text() == "a file, not a folder"
