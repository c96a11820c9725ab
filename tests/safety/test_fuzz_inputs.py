"""Issue 23, "Hypothesis fuzzing covers the new inputs": random sheet layouts (sheets/*.yaml),
printer profiles (printers.yaml) and spreadsheets (CSV, XLSX, ODS) end in a clean InputError —
one line, naming the file — or a valid result, never any other exception. Each test is bounded
(max_examples, no deadline) and derandomized, so the suite runs the same cases every time."""

from __future__ import annotations

import copy
import math
import os
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DECK_YAML, make_workspace
from fuzzing import mutate
from pnpgen.data.load import load_game
from pnpgen.data.printers import load_printer
from pnpgen.data.sheetlayouts import load_sheet
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError, Where
from pnpgen.impose.grid import SheetOptions
from pnpgen.impose.slots import slot_layout
from pnpgen.shapes import ShapeSpec
from workbooks import ods_bytes, xlsx_bytes

EXAMPLES = int(os.environ.get("PNPGEN_FUZZ_EXAMPLES", "20"))  # scripts/fuzz.py's knob: a long run finds more
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))

WORDS = ["a4", "letter", "a3", "b5", "210x297", "91x55", "0", "-1", "1e9", "63mm", "2.5in", "10pt", "nan", "inf",
         "a-one-51002", "poker-3x3-a4", "x", "grid", "../x", "/etc/passwd", "未定", "", " ", "long", "short", "none",
         "cols", "rows", "left", "top", "width", "height", "gap", "rotation", "x", "y", "slots", "extends", "marks"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.integers(-3, 400),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), st.sampled_from(WORDS))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(WORDS), inner, max_size=4)),
                      max_leaves=10)


@st.composite
def mutated(draw, base) -> str:
    """``base`` as YAML with one to four values replaced, deleted or added, sometimes raw text spliced in."""
    data = copy.deepcopy(base)  # (a YAML round trip cost 25 ms an example)
    for _ in range(draw(st.integers(0, 4))):
        if not mutate(draw, data, WORDS, values):
            break
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.one_of(st.text(max_size=6), st.sampled_from(["&a ", "*a", "!!python/object ", ": ", "\t", "[", "{"]))) + text[at:]
    return text


def _clean(e: InputError, name: str) -> None:
    """A clean refusal: one line, naming the file (or the option), no exception class."""
    text = str(e)
    assert "\n" not in text.strip() and "Error" not in text.replace("InputError", "") and "Traceback" not in text, text
    assert name in text or (e.key or "").startswith("--"), text


SHEET = {"extends": "poker-3x3-a4", "name": "mine", "notes": "n", "source": "s", "paper": "a4", "marks": True,
         "bleed": 1, "tolerance": 0.5, "grid": {"cols": 3, "rows": 3, "left": 10.5, "top": 16.5, "width": 63,
                                                "height": 88, "gap": [0, 0], "rotation": 0},
         "slots": [{"x": 0, "y": 0, "width": 10, "height": 10, "rotation": 90}]}


@FUZZ
@given(text=mutated(SHEET), piece=st.tuples(st.sampled_from([10.0, 63.0, 88.0, 91.0, 55.0]), st.sampled_from([10.0, 63.0, 88.0])))
def test_random_sheet_layouts_are_refused_cleanly_or_placed(text, piece):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "sheets").mkdir()
        (root / "sheets" / "mine.yaml").write_text(text, encoding="utf-8")
        try:
            stock = load_sheet(root, "mine", lambda message, expected: InputError(message, key="--sheet", expected=expected))
        except InputError as e:
            _clean(e, "mine.yaml")
            return
        assert stock is not None and stock.slots
        pw, ph = stock.paper_mm
        for s in stock.slots:  # what the loader accepts is on the paper
            assert s.x >= -1e-6 and s.y >= -1e-6 and s.x + s.w <= pw + 1e-6 and s.y + s.h <= ph + 1e-6
        w, h = piece
        spec = ShapeSpec("rect", w, h, ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h)))
        try:
            layout = slot_layout(stock, spec, SheetOptions(), where=Where(root / "deck.yaml"), key="sheet")
        except InputError as e:
            _clean(e, "deck.yaml")
            return
        for i in range(layout.per_sheet):
            for m in (layout.transform(i), layout.back_transform(i, "long")):
                assert all(math.isfinite(v) for v in (m.a, m.b, m.c, m.d, m.e, m.f))
        assert 0.0 <= layout.sheet_bleed_mm <= 3.0


PROFILE = {"home-laser": {"paper": "a4", "duplex": "long", "back_offset_mm": [0.8, -1.2], "scale": [1.0, 0.995]},
           "other": {"back_offset_mm": 0.5}}


@FUZZ
@given(text=mutated(PROFILE), name=st.sampled_from(["home-laser", "other", "nope", ""]))
def test_random_printer_profiles_are_refused_cleanly_or_valid(text, name):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "printers.yaml").write_text(text, encoding="utf-8")
        try:
            printer = load_printer(root, name)
        except InputError as e:
            _clean(e, "printers.yaml")
            return
        assert all(math.isfinite(v) for v in (*printer.back_offset_mm, *printer.scale))
        for back in (False, True):
            m = printer.page_matrix((210.0, 297.0), back)
            assert m is None or all(math.isfinite(v) for v in (m.a, m.b, m.c, m.d, m.e, m.f))
        assert printer.least_bleed_mm("long") >= 0 and printer.least_bleed_mm("none") == 0


CELLS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                  st.text(max_size=10), st.sampled_from(["=1+1", "=HYPERLINK(\"x\")", "[a, b]", "{k: v}", "1:30", "0x10",
                                                         "count", "name", "text", "\x00", "\x1b[31m", "\u202e", "未定"]))
HEADERS = st.lists(st.sampled_from(["name", "text", "count", "nope", "", "name.en", "text"]), min_size=1, max_size=4)
FIELDS_DECK = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.%s}\n")


def _workspace(tmp: str, fmt: str) -> Path:
    return make_workspace(Path(tmp) / "ws", deck=FIELDS_DECK % fmt)


def _load(ws: Path) -> None:
    try:
        game = load_game(Workspace(ws), "test")
    except InputError as e:
        _clean(e, "cards.")
        return
    assert game.decks[0].pieces and all(p.count >= 0 for p in game.decks[0].pieces)


@FUZZ
@given(data=st.one_of(st.binary(max_size=200), st.lists(st.lists(CELLS, max_size=4), max_size=5).map(
    lambda rows: "\n".join(",".join('"' + str(c).replace('"', '""') + '"' if c is not None else "" for c in r)
                           for r in [["name", "text", "count"], *rows]).encode())))
def test_random_csv_is_refused_cleanly_or_read(data):
    with tempfile.TemporaryDirectory() as tmp:
        ws = _workspace(tmp, "csv")
        (ws / "data" / "test" / "decks" / "cards.csv").write_bytes(data)
        _load(ws)


@settings(FUZZ, max_examples=max(1, EXAMPLES * 3 // 10))
@given(fmt=st.sampled_from(["xlsx", "ods"]), header=HEADERS, rows=st.lists(st.lists(CELLS, max_size=4), max_size=4),
       cut=st.one_of(st.none(), st.integers(0, 4000)))
def test_random_workbooks_are_refused_cleanly_or_read(fmt, header, rows, cut):
    def safe(v):  # what a spreadsheet cell can hold at all (openpyxl refuses control characters itself)
        return v if not isinstance(v, str) or v.isprintable() else "x"

    table = [header, *[[safe(v) for v in r] for r in rows]]
    data = xlsx_bytes(table) if fmt == "xlsx" else ods_bytes(table)
    if cut is not None:  # a damaged file: cut short
        data = data[:cut]
    with tempfile.TemporaryDirectory() as tmp:
        ws = _workspace(tmp, fmt)
        (ws / "data" / "test" / "decks" / f"cards.{fmt}").write_bytes(data)
        _load(ws)
