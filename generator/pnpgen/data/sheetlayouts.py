"""Sheet layouts as data ("sprues" in Squib's words): the fixed positions of a card stock — a
perforated A-one マルチカード sheet, a 3×3 poker-card sheet — where pieces go instead of on the
grid pnpgen computes.

A sheet layout is a YAML file: the paper, the slots (each the trim box of one piece on the
paper: x, y of its top-left corner, width, height, and how the piece is turned in it), cut marks
on or off, and a name, notes and the source of its figures. Built-in ones ship in
``pnpgen/data/sheets/`` (read through importlib.resources), a workspace's own live in
``sheets/<name>.yaml`` (found first) and may ``extends:`` another one. Every option is declared
once below (OPTIONS, GRID_OPTIONS, SLOT_OPTIONS) with its parser and default.

The result is the plain ``SheetStock`` that impose/slots.py places pieces into. Checked here,
where the file and line are known: slots off the paper or overlapping each other are errors.
Slots inside the printer's margin are a warning at build time (the margin is a build option).
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.formats import PAPER_SIZES
from pnpgen.data.model import EXPORTS_UNSHOWN_FIELD
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, contained, not_a_file, suggest
from pnpgen.litter import is_litter
from pnpgen.patterns import later

FOLDER = "sheets"  # a workspace's own sheet layouts: sheets/<name>.yaml
GRID = "grid"  # the name that asks for pnpgen's own grid (a deck's ``sheet: grid``)
MAX_SLOTS = 500  # slots of one sheet layout (a stock of 1 mm stickers on A3 would be more; none is sold)
MAX_EXTENDS = 10  # sheet layouts extending sheet layouts
MAX_GRID = 50  # columns or rows of a grid: of slots
PAPER_MM = (20.0, 2000.0)  # each side of a sheet layout's paper
SLOT_MM = (1.0, 2000.0)  # each side of a slot
POSITION_MM = (-2000.0, 4000.0)  # a slot's x, y (off the paper is refused after parsing)
TOLERANCE_MM = (0.0, 5.0)
TEXT_CHARS = 500  # name, notes, source
ROTATIONS = (0, 90, 180, 270)
OVERLAP_MM = 0.001  # slots sharing an edge touch; overlapping by more than this is an error
_NAME = later(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_PAPER = later(r"^\s*([0-9.]+)\s*[x×]\s*([0-9.]+)\s*(mm)?\s*$")


@dataclass(frozen=True)
class SheetSlot:
    """The trim box of one piece on the paper (mm, from the paper's top-left, y down), and how
    the piece is turned in it (clockwise): at 90 or 270 a w×h piece fills an h×w slot."""

    x: float
    y: float
    w: float
    h: float
    rotation: int = 0
    line: int | None = None  # where the slot is written (a grid's slots: the grid's line)


@dataclass(frozen=True)
class SheetStock:
    """A sheet layout, every layer merged and checked."""

    id: str  # the file's stem, as --sheet and ``sheet:`` name it
    # where it was read: ``sheets/<id>.yaml`` or ``pnpgen:<id>`` (never a path on disk)
    source: str = field(metadata=EXPORTS_UNSHOWN_FIELD)
    paper: str  # as written: a4, letter, a3 or WxH
    paper_mm: tuple[float, float]
    slots: tuple[SheetSlot, ...]
    marks: bool = True  # cut marks round the slots' trim (a perforated stock wants none)
    bleed_mm: float | None = None  # the most bleed printed round a slot (None: the build's --bleed)
    tolerance_mm: float = 0.5  # how far a piece's size may differ from its slot's, each way
    name: str = ""
    notes: str = field(default="", metadata=EXPORTS_UNSHOWN_FIELD)
    reference: str = ""  # the ``source:`` key: where the figures come from
    stock: bool = True  # card stock to buy (the bill of materials lists it); false: plain paper

    @property
    def title(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Opt:
    """One option: its parser (value → parsed, or validate.Invalid), default and meaning."""

    parse: Callable[[Any], Any]
    default: Any
    help: str


def _length(lo: float, hi: float, what: str) -> Callable[[Any], float]:
    return lambda value: v.length(value, lo, hi, what)


def _text(value: Any) -> str:
    return str(v.label(value, "text", TEXT_CHARS))


def _paper(value: Any) -> tuple[str, tuple[float, float]]:
    """``a4`` | ``letter`` | ``a3`` | ``210x297`` | ``[210, 297]`` (mm, or lengths with units)."""
    if isinstance(value, str) and value.strip().lower() in PAPER_SIZES:
        name = value.strip().lower()
        return name, PAPER_SIZES[name]
    pair: Any = value
    if isinstance(value, str) and (m := _PAPER.match(v.typed(value))):
        pair = [m.group(1), m.group(2)]
    if isinstance(pair, list) and len(pair) == 2:
        w, h = (v.length(x, *PAPER_MM, what="paper side") for x in pair)
        return f"{w:g}x{h:g}", (w, h)
    raise v.Invalid(f"{v.show(value)} is not a paper", f"{' | '.join(sorted(PAPER_SIZES))}, or its size '210x297' or [210, 297] in mm")


def _rotation(value: Any) -> int:
    n = v.whole(value)
    if n not in ROTATIONS:
        raise v.Invalid(f"rotation {v.show(value)} is not a quarter turn", "0, 90, 180 or 270 (degrees clockwise)")
    return int(n)


def _span(value: Any) -> int:
    n = v.whole(value)
    if n is None or not 1 <= n <= MAX_GRID:
        raise v.Invalid(f"{v.show(value)} is not a number of slots from 1 to {MAX_GRID}", f"a whole number 1..{MAX_GRID}")
    return n


def _gap(value: Any) -> tuple[float, float]:
    if isinstance(value, list) and len(value) == 2:
        x, y = (v.length(g, 0.0, SLOT_MM[1], "gap") for g in value)
        return x, y
    g = v.length(value, 0.0, SLOT_MM[1], "gap")
    return g, g


OPTIONS: dict[str, Opt] = {
    "extends": Opt(lambda x: x, None, "the sheet layout this one changes (its name)"),
    "name": Opt(_text, "", "what the slug and the manifest call it"),
    "notes": Opt(_text, "", "for the designer: which product, how to feed it"),
    "source": Opt(_text, "", "where the figures come from"),
    "paper": Opt(_paper, ("a4", PAPER_SIZES["a4"]), " | ".join(PAPER_SIZES) + " | WxH in mm"),
    "marks": Opt(v.flag, True, "cut marks round the slots' trim, and a die line round a round or hex piece (false for a stock that comes cut: perforated cards, labels)"),
    "stock": Opt(v.flag, True, "card stock to buy, listed in the bill of materials (false: plain paper, e.g. counters cut in strips)"),
    "bleed": Opt(_length(0.0, 10.0, "bleed"), None, "the most bleed round each slot (default: the build's --bleed)"),
    "tolerance": Opt(_length(*TOLERANCE_MM, "tolerance"), 0.5, "how far a piece's size may differ from its slot's"),
    "grid": Opt(lambda x: x, None, "slots in rows and columns (GRID_OPTIONS)"),
    "slots": Opt(lambda x: x, None, "slots one by one (SLOT_OPTIONS)"),
}
GRID_OPTIONS: dict[str, Opt] = {
    "cols": Opt(_span, 1, "slots across"),
    "rows": Opt(_span, 1, "slots down"),
    "left": Opt(_length(*POSITION_MM, "left"), 0.0, "the paper's left edge to the first column's trim"),
    "top": Opt(_length(*POSITION_MM, "top"), 0.0, "the paper's top edge to the first row's trim"),
    "width": Opt(_length(*SLOT_MM, "width"), None, "each slot's width on the paper"),
    "height": Opt(_length(*SLOT_MM, "height"), None, "each slot's height on the paper"),
    "gap": Opt(_gap, (0.0, 0.0), "between slots: one length, or [across, down]"),
    "rotation": Opt(_rotation, 0, "how the piece is turned in every slot"),
}
SLOT_OPTIONS: dict[str, Opt] = {
    "x": Opt(_length(*POSITION_MM, "x"), None, "the paper's left edge to the slot's trim"),
    "y": Opt(_length(*POSITION_MM, "y"), None, "the paper's top edge to the slot's trim"),
    "width": Opt(_length(*SLOT_MM, "width"), None, "the slot's width on the paper"),
    "height": Opt(_length(*SLOT_MM, "height"), None, "the slot's height on the paper"),
    "rotation": Opt(_rotation, 0, "how the piece is turned in the slot"),
}


def builtin_folder() -> Path:
    """The sheet layouts pnpgen ships (package data, read through importlib.resources)."""
    return Path(str(importlib.resources.files("pnpgen").joinpath("data", "sheets")))


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_folder().glob("*.yaml"))


def known_names(root: Path | None) -> list[str]:
    """The layouts a deck may name: pnpgen's and the workspace's sheets/*.yaml that are files (a
    folder or a FIFO of that name is none: listing it beside "unknown" contradicted itself)."""
    own = {p.stem for p in (root / FOLDER).glob("*.yaml") if p.is_file() and not is_litter(p.name)
           and not p.name.startswith(".")} \
        if root is not None and (root / FOLDER).is_dir() else set()
    return sorted(set(builtin_names()) | own)


def _find(root: Path | None, name: str, skip: Path | None) -> tuple[Path, str] | None:
    """The file of ``name`` and how it is shown: the workspace's sheets/ first, then pnpgen's;
    ``skip`` (the file extending it) is passed over, so sheets/x.yaml may extend the built-in x."""
    if root is not None:
        path = root / FOLDER / f"{name}.yaml"
        if path.is_file() and (skip is None or path.resolve() != skip.resolve()):
            contained(path.relative_to(root), root, "sheet", path)  # a link out is never read
            return path, f"{FOLDER}/{name}.yaml"
    path = builtin_folder() / f"{name}.yaml"
    if path.is_file() and (skip is None or path.resolve() != skip.resolve()):
        return path, f"pnpgen:{name}"
    return None


def load_sheet(root: Path | None, name: Any, where: Callable[[str, str | None], InputError]) -> SheetStock | None:
    """The sheet layout ``name`` (None for ``grid``, pnpgen's own grid), every ``extends:``
    layer merged and checked. ``where(message, expected)`` makes the error of a bad or unknown
    name at the place that named it (a deck's ``sheet:``, game.yaml's, or ``--sheet``)."""
    if not isinstance(name, str) or not (name == GRID or _NAME.match(name)):
        raise where(f"{v.show(name)} is not a sheet layout name", "a name such as a-one-51002 (lower case, digits, - and _)")
    if name == GRID:
        return None
    layers: list[tuple[Located, str]] = []
    seen: list[Path] = []
    skip: Path | None = None
    current: Any = name
    named_by: Located | None = None  # the layout whose extends: names ``current`` (None: the caller)

    def blame(message: str, expected: str | None) -> InputError:
        return where(message, expected) if named_by is None else named_by.error(("extends",), message, expected)

    while current is not None:
        if not isinstance(current, str) or not _NAME.match(current):
            raise blame(f"{v.show(current)} is not a sheet layout name", "a name such as a-one-51002")
        found = _find(root, current, skip)
        if found is None and skip is not None and skip.stem == current:
            raise blame(f"sheet layout {current!r} extends itself", "the name of another sheet layout")
        what = not_a_file(root / FOLDER / f"{current}.yaml") if found is None and root is not None else None
        if what is not None and root is not None:  # (not "unknown sheet layout": the file is there, as no file)
            raise blame(f"sheet layout {current!r}: {FOLDER}/{current}.yaml is {what}, not a file",
                        f"a sheet layout file {root / FOLDER / f'{current}.yaml'}")
        if found is None:
            known = [GRID, *known_names(root)]
            raise blame(f"unknown sheet layout {current!r}{suggest(current, known)}", "one of " + ", ".join(known))
        path, shown = found
        if path.resolve() in seen:
            raise blame(f"sheet layout {current!r} extends itself", "a chain of extends: that ends in a layout without one")
        if len(seen) >= MAX_EXTENDS:
            raise blame(f"extends: goes more than {MAX_EXTENDS} layouts deep (at {current!r})",
                        f"a chain of at most {MAX_EXTENDS} extends: (the limit for sheet layouts)")
        seen.append(path.resolve())
        doc = load_yaml(path)
        data = doc.data if doc.data is not None else {}
        if not isinstance(data, dict):
            raise doc.error((), "a sheet layout must be a mapping", "paper:, grid: or slots:, marks: … (docs/data-format.md)")
        for key in data:
            if key not in OPTIONS:
                raise doc.error((key,), f"unknown key {v.show(key)}{suggest(str(key), OPTIONS)}", "one of " + ", ".join(OPTIONS),
                                key=True)
        layers.append((doc, shown))
        skip, named_by = path, doc
        current = data.get("extends")
    layers.reverse()  # base first
    return _merge(name, layers)


def _parse(doc: Located, keypath: tuple, opt: Opt, value: Any) -> Any:
    try:
        return opt.parse(value)
    except v.Invalid as e:
        raise doc.error(keypath, e.message, e.expected) from None


def _merge(name: str, layers: list[tuple[Located, str]]) -> SheetStock:
    """Each option from the most derived layer that sets it; a grid's keys one by one (so a
    layout may move a built-in's grid by setting only ``left:``); ``slots:`` replace a base's."""
    values: dict[str, Any] = {k: o.default for k, o in OPTIONS.items() if k not in ("grid", "slots", "extends")}
    grid: dict[str, tuple[Located, Any]] = {}
    grid_doc: Located | None = None
    slots: tuple[Located, list] | None = None
    last = layers[-1][0]
    for doc, _ in layers:
        data = doc.data or {}
        for key, opt in OPTIONS.items():
            if key not in data or key in ("extends", "grid", "slots"):
                continue
            values[key] = _parse(doc, (key,), opt, data[key])
        if "grid" in data:
            if data["grid"] is None:  # a derived layout drops the base's grid
                grid, grid_doc = {}, None
            else:
                g = data["grid"]
                if not isinstance(g, dict):
                    raise doc.error(("grid",), "grid: must be a mapping", "{cols: 2, rows: 5, left: 14, top: 11, width: 91, height: 55}")
                for key in g:
                    if key not in GRID_OPTIONS:
                        raise doc.error(("grid", key), f"unknown key {v.show(key)} in grid{suggest(str(key), GRID_OPTIONS)}",
                                        "one of " + ", ".join(GRID_OPTIONS), key=True)
                    grid[key] = (doc, g[key])
                grid_doc = doc
        if "slots" in data:
            s = data["slots"]
            if s is not None and not isinstance(s, list):
                raise doc.error(("slots",), "slots: must be a list", "- {x: 14, y: 11, width: 91, height: 55}")
            slots = (doc, s) if s else None
    out: list[SheetSlot] = []
    if grid_doc is not None:
        out += _grid_slots(grid, grid_doc)
    if slots is not None:
        doc, entries = slots
        if len(entries) > MAX_SLOTS:
            raise doc.error(("slots",), f"{len(entries):,} slots", f"at most {MAX_SLOTS} (the limit for slots of a sheet layout)")
        out += [_slot(doc, i, entry) for i, entry in enumerate(entries)]
    if not out:
        raise last.error((), f"sheet layout {name!r} has no slots", "grid: {cols, rows, left, top, width, height} or slots: [{x, y, width, height}]")
    if len(out) > MAX_SLOTS:
        raise last.error(("grid",), f"{len(out):,} slots", f"at most {MAX_SLOTS} (the limit for slots of a sheet layout)")
    paper, paper_mm = values["paper"]
    _check(last, out, paper_mm)
    return SheetStock(id=name, source=layers[-1][1], paper=paper, paper_mm=paper_mm, slots=tuple(out),
                      marks=values["marks"], bleed_mm=values["bleed"], tolerance_mm=values["tolerance"],
                      name=values["name"], notes=values["notes"], reference=values["source"], stock=values["stock"])


def _grid_slots(grid: dict[str, tuple[Located, Any]], at: Located) -> list[SheetSlot]:
    got: dict[str, Any] = {}
    for key, opt in GRID_OPTIONS.items():
        if key in grid:
            doc, value = grid[key]
            got[key] = _parse(doc, ("grid", key), opt, value)
        else:
            got[key] = opt.default
        if got[key] is None:
            raise at.error(("grid",), f"grid: needs {key}:", "width: and height: of each slot in mm")
    total = got["cols"] * got["rows"]
    if total > MAX_SLOTS:
        raise at.error(("grid",), f"{total:,} slots", f"at most {MAX_SLOTS} (the limit for slots of a sheet layout)")
    gx, gy = got["gap"]
    line = at.where(("grid",), key=True).line
    return [SheetSlot(got["left"] + c * (got["width"] + gx), got["top"] + r * (got["height"] + gy),
                      got["width"], got["height"], got["rotation"], line)
            for r in range(got["rows"]) for c in range(got["cols"])]


def _slot(doc: Located, i: int, entry: Any) -> SheetSlot:
    if not isinstance(entry, dict):
        raise doc.error(("slots", i), "a slot must be a mapping", "{x: 14, y: 11, width: 91, height: 55, rotation: 0}")
    got: dict[str, Any] = {}
    for key in entry:
        if key not in SLOT_OPTIONS:
            raise doc.error(("slots", i, key), f"unknown key {v.show(key)} in a slot{suggest(str(key), SLOT_OPTIONS)}",
                            "one of " + ", ".join(SLOT_OPTIONS), key=True)
    for key, opt in SLOT_OPTIONS.items():
        got[key] = _parse(doc, ("slots", i, key), opt, entry[key]) if key in entry else opt.default
        if got[key] is None:
            raise doc.error(("slots", i), f"slot {i + 1} needs {key}:", "x, y, width and height in mm")
    return SheetSlot(got["x"], got["y"], got["width"], got["height"], got["rotation"],
                     doc.where(("slots", i)).line)


def _check(doc: Located, slots: list[SheetSlot], paper: tuple[float, float]) -> None:
    """Every slot on the paper, no two overlapping: an error at the slot's line."""
    pw, ph = paper
    for n, s in enumerate(slots, 1):
        if s.x < -1e-9 or s.y < -1e-9 or s.x + s.w > pw + 1e-9 or s.y + s.h > ph + 1e-9:
            raise InputError(f"slot {n} ({s.x:g}, {s.y:g}, {s.w:g}×{s.h:g} mm) is off the {pw:g}×{ph:g} mm paper",
                             path=doc.path, line=s.line, key="slots",
                             expected="every slot inside the paper: x + width ≤ paper width, y + height ≤ paper height")
    order = sorted(range(len(slots)), key=lambda k: slots[k].x)
    for a_i, a in enumerate(order):  # sweep along x: only slots that start before this one ends
        sa = slots[a]
        for b in order[a_i + 1:]:
            sb = slots[b]
            if sb.x >= sa.x + sa.w - OVERLAP_MM:
                break
            if min(sa.y + sa.h, sb.y + sb.h) - max(sa.y, sb.y) > OVERLAP_MM:
                first, second = sorted((a, b))
                raise InputError(f"slot {second + 1} overlaps slot {first + 1}", path=doc.path, line=slots[second].line,
                                 key="slots", expected="slots that at most share an edge")


def margin_warnings(stock: SheetStock, margin_mm: float) -> list[str]:
    """The slots that reach into the printer's unprintable margin (``--margin``): the printer
    leaves their edge white there."""
    pw, ph = stock.paper_mm
    inside = [n for n, s in enumerate(stock.slots, 1)
              if s.x < margin_mm - 1e-9 or s.y < margin_mm - 1e-9
              or s.x + s.w > pw - margin_mm + 1e-9 or s.y + s.h > ph - margin_mm + 1e-9]
    if not inside:
        return []
    shown = ", ".join(str(n) for n in inside[:8]) + (" …" if len(inside) > 8 else "")
    return [f"{stock.source}: sheet layout {stock.id}: {'slots' if len(inside) > 1 else 'slot'} {shown} {'reach' if len(inside) > 1 else 'reaches'} into the printer's {margin_mm:g} mm margin; "
            "their edge there prints white (a smaller --margin if the printer prints closer to the edge)"]
