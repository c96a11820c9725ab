"""Issue 12: a fuzz test. Hypothesis mutates a valid deck and a valid game.yaml (types, values,
deletions, unicode, huge and negative numbers, raw text), inserts Jinja/SVG fragments into a valid
template, and varies the build options; every case must end in exit 0 or 2, never a traceback,
never a hang, and a failed build leaves the previous outputs as they were.

CI runs a short deterministic budget; ``scripts/fuzz.py`` runs a long random one
(PNPGEN_FUZZ_EXAMPLES, PNPGEN_FUZZ_SEED)."""

from __future__ import annotations

import contextlib
import copy
import io
import os
import signal
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FRONT, make_workspace, run
from fuzzing import mutate

EXAMPLES = int(os.environ.get("PNPGEN_FUZZ_EXAMPLES", "20"))
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
GAME = {
    "title": "テストゲーム",
    "subtitle": "副題",
    "draft": 3,
    "players": "2-4",
    "date": "2026-11-30",
    "draft_file": "draft.txt",
    "palette": {"red": "#cc3333", "ink": "#222222"},
    "fonts": {"gothic": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"},
    "fallback_fonts": ["BIZUDGothic-Regular"],
    "sourced": [{"name": "サイコロ", "count": 2, "note": "六面ダイス"}],
    "stamp": True,
    "rulebook": {"quick_reference": {"deck": "cards"},
                 "figures": [{"after": "概要", "caption": "例", "size": [120, 100],
                              "pieces": [{"deck": "cards", "piece": 1, "x": 30, "y": 44}]}]},
}
WORDS += ["BIZUDPGothic-Regular", "BIZUDPGothic-Bold", "NoSuchFont", "gothic", "bold", "mincho", "draft.txt",
          "../draft.txt", "/etc/hostname", "game.yaml", "decks/cards.yaml", "cards", "nope", "概要", "#cc3333",
          "ink", "1-99", "２〜４", "2026-02-30", "quick_reference", "figures", "deck", "piece", "caption"]
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)),
                      max_leaves=8)


@st.composite
def documents(draw, base: dict) -> str:
    """``base`` as YAML text with one to three mutations, sometimes with raw text spliced in."""
    data = copy.deepcopy(base)  # (a YAML round trip cost 25 ms an example)
    for _ in range(draw(st.integers(1, 3))):
        if isinstance(data, (dict, list)) and data:
            mutate(draw, data, WORDS, values)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    if draw(st.booleans()) and text:  # and sometimes raw text, for the YAML reader
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.one_of(st.text(max_size=6), st.sampled_from(["&a ", "*a", "!!python/object ", ": ", "\t", "[", "{", "- "]))) + text[at:]
    return text


FRAGMENTS = [
    # SVG the converter must refuse or take
    '<rect', "<g>", "</g>", "</svg>", '<rect width="abc" height="3"/>', '<rect width="1e999" height="3" fill="#000"/>',
    '<path d="M x y L"/>', '<path d="L 1 2" fill="#000"/>', '<polygon points="1,2,x"/>', '<circle r="-1"/>',
    '<image href="../../../etc/passwd" width="3" height="3"/>', '<image href="data:image/png;base64,AAAA"/>',
    '<image href="nope.png" width="3" height="3"/>', '<text font-family="Nope" x="1" y="2">x</text>',
    '<text x="1" y="2" font-size="1e999">x</text>', '<rect width="3" height="3" opacity="0.5"/>',
    '<rect width="3" height="3" fill="#zzz"/>', '<use href="#nope"/>', '<g transform="rotate(x)"/>',
    '<svg viewBox="0 0 0 0"/>', '<rect width="3" height="3" fill="url(#nope)"/>', "<!ENTITY x 'y'>", "&nbsp;",
    "<![CDATA[", "<?xml version='1.0'?>", '<rect width="3" height="3" style="fill: red; stroke-width: x"/>',
    '<defs><linearGradient id="g" x1="1e999"/></defs><rect width="3" height="3" fill="url(#g)"/>',
    # Jinja the renderer must refuse or take
    "{{", "{%", "{% endblock %}", "{% for i in range(10**9) %}{% endfor %}", "{{ nope }}", "{{ piece.nope }}",
    "{{ 1 / 0 }}", "{{ 'x' * 10**9 }}", "{{ 10 ** 10**6 }}", "{% if %}", "{{ textbox() }}", "{{ textbox(1, 2) }}",
    "{{ icon('nope') }}", "{{ icon('../../etc/passwd') }}", "{{ colour('nope') }}", "{{ colour(5) }}",
    "{{ image('../x.png', 0, 0, 5, 5) }}", "{{ outline() }}", "{{ ''.__class__ }}", "{{ range(3) | tint(2) }}",
    "{% include 'nope.svg.j2' %}", "{% include '../../etc/passwd' %}", "{% import 'common/piece.svg.j2' as x %}",
    "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "{% for i in range(99999) %}{% for j in range(99) %}{% endfor %}{% endfor %}",
    "{{ w / 0 }}", "{{ piece.name | int }}", "{% set x = 1 %}{{ x.y.z }}", "{{ lipsum() }}",
]


@st.composite
def templates(draw) -> str:
    """The test front template with one to three fragments (or raw text) inserted at random places."""
    text = FRONT
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8))) + text[at:]
    return text


options = st.fixed_dictionaries({}, optional={
    "--bleed": st.one_of(st.sampled_from(WORDS), st.floats(-100, 100).map(str), st.text(max_size=8)),
    "--margin": st.one_of(st.sampled_from(WORDS), st.floats(-100, 100).map(str)),
    "--creep": st.one_of(st.sampled_from(WORDS), st.floats(-5, 5).map(str)),
    "--paper": st.sampled_from(["a4", "a3", "letter", "b5", ""]),
    "--duplex": st.sampled_from(["long", "short", "none", "both"]),
    "--marks": st.sampled_from(["jp", "western", "none", "x"]),
    "--out": st.sampled_from(["out", "notes.txt", "notes.txt/x", "", "out/\x00"]),
    "--min-dpi": st.one_of(st.sampled_from(WORDS), st.floats(allow_nan=True, allow_infinity=True).map(str)),
    "--jobs": st.sampled_from(["1", "2", "0", "-1", "x", "65"]),
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
@given(deck=documents(BASE))
def test_fuzz_deck(ws, deck):
    _check_and_build(ws, ws / "data" / "test" / "decks" / "cards.yaml", deck)


@fuzz_seed
@FUZZ
@given(game=documents(GAME))
def test_fuzz_game(ws, game):
    _check_and_build(ws, ws / "data" / "test" / "game.yaml", game, "--rules-only")


@fuzz_seed
@FUZZ
@given(template=templates())
def test_fuzz_template(ws, template):
    path = ws / "templates" / "test" / "card-front.svg.j2"
    good = path.read_text(encoding="utf-8")
    path.write_text(template, encoding="utf-8")
    try:
        before = _snapshot(ws / "build")
        status, err = _bounded(ws, "build", "--game", "test", "--no-rulebook")
        _outcome(status, err)
        if status == 2:
            assert _snapshot(ws / "build") == before
            assert ".svg.j2" in err, err  # the error names a template file
    finally:
        path.write_text(good, encoding="utf-8")


def _check_and_build(ws: Path, path: Path, text: str, *build: str) -> None:
    """``text`` in place of ``path``: check, then (when it passes and is small) build; the good
    file is put back whatever happens."""
    good = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    try:
        status, err = _bounded(ws, "check")
        _outcome(status, err)
        if status == 0 and _printable(ws):
            before = _snapshot(ws / "build")
            status, err = _bounded(ws, "build", "--game", "test", *(build or ("--no-rulebook",)))
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
