"""Layouts as data: a deck may say ``layout: NAME`` (or ``layout: {extends: NAME, …}``) instead
of ``front:``/``back:`` templates. A layout is a YAML file naming boxes in mm, each bound to a
piece field and styled; ``extends:`` derives one layout from another. Built-in layouts ship in
``pnpgen/faces/builtin/layouts/``, a workspace's own live in ``layouts/`` (found first).

Every option is declared once (LAYOUT_KEYS, SIDE_KEYS below; a box's, BOX_OPTIONS, in boxoptions.py)
with its parser and default. Layers are merged option by option, each value remembering the file
and line it was written on, so a bad value is reported there. data/layoutsides.py (``finish``) reads
the merged ``RawLayout`` against the deck's piece into the plain ``model.Layout`` that
``faces/layouts.py`` compiles into template text.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnpgen.data import piecesize
from pnpgen.data import validate as v
from pnpgen.data.boxlengths import length
from pnpgen.data.boxoptions import BOX_OPTIONS, BOX_TYPES, SOURCES, source
from pnpgen.data.formats import CARD_FORMATS, KINDS, SHAPES, SINGLE_SIZE_SHAPES, size_word
from pnpgen.data.i18n import language_code_hint, language_code_meant
from pnpgen.data.model import Layout
from pnpgen.data.tuckbox import BOX_KEYS, Given, merged, tuck_box
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, Where, contained, not_a_file, suggest
from pnpgen.litter import is_litter
from pnpgen.patterns import later

MAX_DEPTH = 20  # layouts extending layouts
LENGTH_LIMIT = 100_000.0  # mm: a polygon layout's corner read before its range is checked
TEMPLATE_PREFIX = "@layout"  # a deck's layout sides are rendered as templates @layout/<deck>/front, …/back
FIELD_OF = {"text": "text", "image": "image", "icons": "list", "track": "int"}  # a box's type → its field's type
# Colours every layout knows, whatever its palette says; a game's palette of the same name wins.
BASE_PALETTE = {"ink": "#23262e", "paper": "#fbf8f1", "accent": "#3b4a8c", "panel": "#efe9dc", "white": "#ffffff"}
_NAME = later(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def side_templates(deck_id: str, layout: Layout) -> tuple[str, str | None]:
    """The template names a deck's layout (data/model.py Layout) is rendered under, its front and
    its back (None: the layout draws no back); faces/layouts.py compiles them. A deck list drawn by
    its source deck's layout names them by its own id."""
    return f"{TEMPLATE_PREFIX}/{deck_id}/front", f"{TEMPLATE_PREFIX}/{deck_id}/back" if layout.back is not None else None


def builtin_folder() -> Path:
    """The layouts pnpgen ships (package data beside the built-in templates, read through
    importlib.resources without importing the faces stage)."""
    return Path(str(importlib.resources.files("pnpgen").joinpath("faces", "builtin", "layouts")))


def own_names(root: Path | None) -> list[str]:
    """The workspace's layouts, ``layouts/*.yaml``: not an editor's or the system's file beside
    them (macOS's ``._card.yaml`` from a USB stick, Emacs's lock ``.#card.yaml``), which stopped
    ``pnpgen layout list`` as 'not a layout name'; nor a pipe, a folder or a link to nothing named
    ``*.yaml``, which no deck finds (``_find``): layout list stopped at it, "unknown layout 'l'; did you
    mean l?"."""
    folder = root / "layouts" if root is not None else None
    if folder is None or not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if not is_litter(p.name) and not p.name.startswith(".")
                  and p.is_file())


def builtin_names() -> list[str]:
    return sorted(p.stem for p in builtin_folder().glob("*.yaml"))


def editions_of_game(origin: Origin, codes: tuple[str, ...], languages: list[str], deck_file: Path | None) -> None:
    """A box's ``lang:`` names editions the game has: a code it has not (``jp`` for ja, ``en-US``
    in a game of ``en``) would leave the box out of every edition without a word. A workspace
    layout's box may be another game's edition (a gloss only the English games print): only a
    code written another way (``jp``, ``eng``) is refused there."""
    for code in codes:
        meant = language_code_meant(code)
        if code not in languages and (meant is not None or origin.doc.path == deck_file):
            raise origin.error(f"this game has no edition {code!r}{language_code_hint(code, languages)}",
                               "one of " + ", ".join(languages) + " (the languages: of game.yaml)")


SIDE_KEYS = ("background", "boxes")
LAYOUT_KEYS = ("description", "extends", "stand_up", "die", "kind", "shape", "format", "size", "orientation", "corner_radius",
               "points", "box", "palette", "fields", "background", "boxes", "back")
GEOMETRY_KEYS = ("kind", "shape", "format", "size", "orientation", "corner_radius", "points")
FIELD_TYPES = ("text", "int", "number", "colour", "bool", "list", "map", "image")


@dataclass
class Origin:
    """A value and where it was written."""

    value: Any
    doc: Located
    keypath: tuple

    def parse(self, parse: Callable[..., Any], *args: Any) -> Any:
        try:
            return parse(self.value, *args)
        except v.Invalid as e:
            raise self.doc.error(self.keypath, e.message, e.expected) from None

    def error(self, message: str, expected: str | None = None, key: bool = False) -> InputError:
        return self.doc.error(self.keypath, message, expected, key=key)

    def item(self, index: int) -> Origin:
        return Origin(self.value[index], self.doc, (*self.keypath, index))


@dataclass
class RawSide:
    """One side of a layout as its files write it, each value still with its file and line, before the layouts it
    extends are merged in and checked."""

    background: Origin | None = None
    boxes: dict[str, dict[str, Origin]] = field(default_factory=dict)  # in drawing order


@dataclass
class RawLayout:
    """Every layer merged, values not yet parsed (lengths need the deck's trim)."""

    name: str
    source: Path | None = None  # the most derived layout file
    top: dict[str, Origin] = field(default_factory=dict)
    palette: dict[str, Origin] = field(default_factory=dict)
    deck_palette: set[str] = field(default_factory=set)  # the names the deck file's own layer sets
    fields: dict[str, Origin] = field(default_factory=dict)
    box: dict[str, Given] = field(default_factory=dict)  # a tuck box's figures (data/tuckbox.py), key by key
    base: tuple[str, Any] | None = None  # the built-in layout under it and the size that one gives
    front: RawSide = field(default_factory=RawSide)
    back: RawSide | None = None


_SPELT_OUT = {"width": "w", "height": "h", "left": "x", "top": "y"}  # a box's place and size, as written out


def _mapping(doc: Located, keypath: tuple, value: Any, allowed: tuple[str, ...] | None, what: str) -> dict:
    if not isinstance(value, dict):
        raise doc.error(keypath, f"{what} must be a mapping", "key: value lines")
    for key in value:
        if allowed is not None and key not in allowed:
            near = suggest(key, list(allowed)) if isinstance(key, str) else ""  # color: for colour
            word = suggest(key, list(_SPELT_OUT), 0.7)[len("; did you mean "):-1] if isinstance(key, str) else ""
            if word and "w" in allowed:  # height: 8 for h: 8 (not line_height: a box's size is w, h)
                near = f"; a box's {word} is {_SPELT_OUT[word]}:"
            if key == "bleed" and "boxes" in allowed:  # a layout shared by decks: the bleed is each deck's
                near = "; a deck's own bleed is bleed: in the deck file, beside layout:, not in its layout"
            raise doc.error(keypath + (key,), f"unknown key in {what}{near}", "one of " + ", ".join(allowed), key=True)
    return value


def _find(root: Path | None, name: str, skip: Path | None) -> Path | None:
    """The layout file for ``name``: the workspace's layouts/ first, then pnpgen's; ``skip`` (the
    file extending it) is passed over, so layouts/card-poker.yaml may extend the built-in card-poker."""
    folders = ([root / "layouts"] if root is not None else []) + [builtin_folder()]
    for folder in folders:
        path = folder / f"{name}.yaml"
        if path.is_file() and (skip is None or path.resolve() != skip.resolve()):
            if root is not None and folder == root / "layouts":  # the designer's: a link out is never read
                contained(path.relative_to(root), root, "layout", path)
            return path
    return None


def _layers(root: Path | None, spec: Any, doc: Located, keypath: tuple) -> tuple[str, list[tuple[Located, tuple, dict]]]:
    """The chain of layers, base first: (document, key path of the layer in it, its mapping)."""
    chain: list[tuple[Located, tuple, dict]] = []
    if isinstance(spec, str):
        name, at, skip = spec, (doc, keypath), None
    else:
        layer = _mapping(doc, keypath, spec, LAYOUT_KEYS, "a layout")
        if "extends" not in layer:
            raise doc.error(keypath, "an inline layout needs 'extends:'",
                            "'layout: {extends: card-poker, boxes: {title: {size: 12}}}'")
        chain.append((doc, keypath, layer))
        name, at, skip = layer["extends"], (doc, keypath + ("extends",)), None
    shown = name if isinstance(spec, str) else f"{doc.path.stem} (inline)"
    seen: list[Path] = []
    name_: Any = name
    while name_ is not None:
        name = name_
        where_doc, where_key = at
        meant = size_word(name)
        if meant is not None and meant[1] is not None and not _NAME.match(str(name)):  # layout: 名刺
            w, h = CARD_FORMATS[meant[0]]
            raise where_doc.error(where_key, f"{v.show(name)} is not a layout name; did you mean {meant[1]}? "
                                  f"(the built-in layout of {name.strip()} cards, {w:g}×{h:g} mm)",
                                  f"layout: {meant[1]} (pnpgen layout list names them all)")
        if not isinstance(name, str) or not _NAME.match(name):
            raise where_doc.error(where_key, f"{v.show(name)} is not a layout name",
                                  "a name such as card-poker (lower case, digits, - and _)")
        path = _find(root, name, skip)
        if path is None and skip is not None and skip.stem == name:
            raise where_doc.error(where_key, f"layout {name!r} extends itself", "the name of another layout")
        if path is None:
            there = root / "layouts" / f"{name}.yaml" if root is not None else None
            what = not_a_file(there) if there is not None else None
            if what is not None and there is not None:  # (not "unknown layout 'l'": the file is there, as no file)
                raise where_doc.error(where_key, f"layout {name!r}: layouts/{there.name} is {what}, not a file",
                                      f"a layout file {there}")
            known = sorted(set(builtin_names()) | set(own_names(root)))
            raise where_doc.error(where_key, f"unknown layout {name!r}{suggest(name, known)}", "one of " + ", ".join(known))
        if path.resolve() in seen or len(seen) >= MAX_DEPTH:
            raise where_doc.error(where_key, f"layout {name!r} extends itself (through {', '.join(p.stem for p in seen)})",
                                  "a chain of extends: that ends in a layout without one")
        seen.append(path.resolve())
        layer_doc = load_yaml(path)
        layer = _mapping(layer_doc, (), layer_doc.data if layer_doc.data != {} else {}, LAYOUT_KEYS,
                         f"layout {name}")
        chain.append((layer_doc, (), layer))
        skip = path
        at = (layer_doc, ("extends",))
        name_ = layer.get("extends")
    chain.reverse()
    return shown, chain


def _merge_side(side: RawSide, doc: Located, keypath: tuple, data: dict) -> None:
    if "background" in data:
        side.background = Origin(data["background"], doc, keypath + ("background",))
    if "boxes" in data:
        boxes = data["boxes"] if data["boxes"] is not None else {}
        _mapping(doc, keypath + ("boxes",), boxes, None, "boxes")
        for name, options in boxes.items():
            at = keypath + ("boxes", name)
            if options is None:  # a derived layout leaves a box out
                side.boxes.pop(name, None)
                continue
            if not isinstance(name, str) or not _NAME.match(name):
                raise doc.error(at, f"{v.show(name)} is not a box name", "a name such as title, art, text", key=True)
            _mapping(doc, at, options, tuple(BOX_OPTIONS), f"box {name}")
            merged = side.boxes.setdefault(name, {})
            if "type" in options and options["type"] in BOX_TYPES:  # a box turned into another kind keeps
                for key in [k for k in merged if options["type"] not in BOX_OPTIONS[k].types]:  # what it still takes
                    del merged[key]
            for given, other in (("text", "field"), ("field", "text")):  # a fixed text replaces the base's
                if given in options and other not in options:  # field, a field its text (a card back's
                    merged.pop(other, None)  # deck: {text: 開封禁止}: else the field won, unsaid)
            for key, value in options.items():
                merged[key] = Origin(value, doc, at + (key,))


def _reshape(top: dict[str, Origin], layer: dict) -> None:
    """A layer giving another shape (``{extends: tile-hex, shape: rect}``) drops what the layers
    below gave for the old one and the new one does not take: a hex's orientation, a rounded
    corner's radius, and a size of the other kind (one length for a circle or hex, two for a
    rectangle), unless the layer gives its own."""
    old = top["shape"].value if "shape" in top else "rect"
    new = layer["shape"]
    if new not in v.ORIENTED_SHAPES and "orientation" not in layer:
        top.pop("orientation", None)
    if new != "rounded" and "corner_radius" not in layer:
        top.pop("corner_radius", None)
    if new != "polygon" and "points" not in layer:
        top.pop("points", None)
    if (old in SINGLE_SIZE_SHAPES) != (new in SINGLE_SIZE_SHAPES) and "size" not in layer and "format" not in layer:
        top.pop("size", None)
        top.pop("format", None)


def resolve(root: Path | None, spec: Any, doc: Located, keypath: tuple = ("layout",)) -> RawLayout:
    """``layout:`` as a deck writes it (a name, or a mapping with ``extends:``), every layer merged."""
    name, chain = _layers(root, spec, doc, keypath)
    raw = RawLayout(name)
    for layer_doc, at, layer in chain:
        raw.source = layer_doc.path
        if is_builtin(layer_doc):
            raw.base = (layer_doc.path.stem, layer.get("size", layer.get("format", raw.base and raw.base[1])))
        if isinstance(layer.get("shape"), str):
            _reshape(raw.top, layer)
        for key in GEOMETRY_KEYS + ("description", "stand_up", "die"):
            if key in layer:
                if key == "format":
                    raw.top.pop("size", None)
                if key == "size":
                    raw.top.pop("format", None)
                raw.top[key] = Origin(layer[key], layer_doc, at + (key,))
        for key, target in (("palette", raw.palette), ("fields", raw.fields)):
            if key in layer:
                values = _mapping(layer_doc, at + (key,), layer[key] or {}, None, key)
                for name_, value in values.items():
                    target[name_] = Origin(value, layer_doc, at + (key, name_))
                    if key == "palette" and layer_doc is doc and not isinstance(spec, str):
                        raw.deck_palette.add(name_)  # the deck's inline layer: its colours are meant
        if "box" in layer:
            box = _mapping(layer_doc, at + ("box",), layer["box"] or {}, tuple(BOX_KEYS), "box")
            raw.box = merged(raw.box, {k: Origin(x, layer_doc, at + ("box", k)) for k, x in box.items()})
        _merge_side(raw.front, layer_doc, at, layer)
        if "back" in layer:
            if layer["back"] is None:
                raw.back = None
            else:
                back = _mapping(layer_doc, at + ("back",), layer["back"], SIDE_KEYS, "back")
                raw.back = raw.back or RawSide()
                _merge_side(raw.back, layer_doc, at + ("back",), back)
    return raw


@dataclass
class Geometry:
    """The piece a layout is drawn for; a deck's own keys win over these."""

    kind: str = "card"
    shape: str = "rect"
    format: str | None = None
    size: tuple[float, ...] | None = None
    options: dict[str, Any] = field(default_factory=dict)  # orientation, corner_radius
    where: dict[str, Origin] = field(default_factory=dict)
    name: str = ""
    source: Path | None = None

    def no_size(self) -> InputError:
        """A layout without a size, used where nothing else gives one."""
        return InputError(f"layout {self.name} gives no size", path=self.source,
                          expected="'format: poker' or 'size: [63, 88]' in the layout or the deck, or 'extends:' "
                          "a layout that has one")


def geometry(raw: RawLayout) -> Geometry:
    top = raw.top
    g = Geometry(where=dict(top), name=raw.name, source=raw.source)
    if "kind" in top:
        g.kind = top["kind"].parse(v.choice, KINDS, "kind")
    if "shape" in top:
        g.shape = top["shape"].parse(v.choice, SHAPES, "shape")
    if "points" in top and g.shape != "polygon":
        raise top["points"].error(f"a {g.shape} has no points", "points only with 'shape: polygon'", key=True)
    if g.shape == "polygon" and "points" not in top:
        raise top["shape"].error("a polygon layout needs points: its cut outline",
                                 "'points: [[0, 0], [30, 0], [15, 26]]' in mm (or arithmetic on w and h, as its boxes "
                                 "take), or another shape")
    if "format" in top:
        if g.shape in SINGLE_SIZE_SHAPES:
            raise top["format"].error(f"a {g.shape} takes a size, not a card format", "'size: 40mm'")
        g.format = top["format"].parse(v.card_format)
    elif "size" in top:
        g.size = top["size"].parse(piecesize.size, g.shape, g.shape in SINGLE_SIZE_SHAPES)
    if g.shape == "tuckbox":  # its size is its net's, from its box: figures (a size written was passed over)
        for key in ("format", "size"):
            if key in top and not is_builtin(top[key].doc):
                raise top[key].error("a tuck box's size is its net's, drawn from its box:",
                                     "'box: {cards: poker, count: 60}' (the cards it holds) instead", key=True)
        box = tuck_box(raw.box)
        g.size, g.options["box"] = box.size, box.frozen()
    else:  # (a layout's box: on another shape was passed over without a word)
        own = [o for o in raw.box.values() if isinstance(o, Origin) and not is_builtin(o.doc)]
        if own:
            raise own[0].doc.error(own[0].keypath[:-1], f"a {g.shape} has no box",
                                   "'box:' only with 'shape: tuckbox' or 'extends: tuck-box'", key=True)
    if "orientation" in top:
        g.options["orientation"] = top["orientation"].parse(piecesize.orientation, g.shape)
    if "corner_radius" in top:
        g.options["corner_radius"] = top["corner_radius"]
    if "points" in top:
        g.options["points"] = top["points"]
    return g


def outline(g: Geometry, trim: tuple[float, float], size_where: Where | None = None) -> list[tuple[float, float]]:
    """A polygon layout's ``points:`` (its cut outline: a paper die's net) for a deck's ``trim``,
    read as a deck's own points are, each corner also taking the arithmetic its boxes' lengths
    take (``'h / 3'``: the built-in d6 grows with its size). A built-in layout's corner that a
    size of the designer's puts past the trim is told at that size, which is the slip."""
    given: Origin = g.options["points"]

    def coordinate(value: Any, hi: float, what: str) -> float:
        mm = length(-LENGTH_LIMIT, LENGTH_LIMIT)(value, trim)
        if not 0.0 <= mm <= hi:
            shown = f"{v.show(value)} is {mm:g} mm," if isinstance(value, str) else f"{v.show(value)} is"
            raise v.Invalid(f"{what} {shown} out of range", f"0 to {hi:g} mm")
        return mm

    try:
        return piecesize.points(given.value, "polygon", trim[0], trim[1], coordinate)
    except v.Invalid as e:
        if size_where is None or not is_builtin(given.doc):
            raise given.error(e.message, e.expected) from None
        meant = (f"size: [{round(g.size[0] * trim[1] / g.size[1], 1):g}, {trim[1]:g}] (its own {g.size[0]:g}×"
                 f"{g.size[1]:g} mm grown to that height), or " if g.size and len(g.size) == 2 else "")
        raise InputError(f"a {trim[0]:g}×{trim[1]:g} mm piece is a size the built-in layout {g.name} cannot take: its "
                         f"outline's {e.message} (its corners are worked out from its size)", path=size_where.path,
                         line=size_where.line, column=size_where.column, key=size_key(size_where),
                         expected=f"{meant}no size (its own)") from None


def _reads(raw: RawLayout) -> list[tuple[str, str, Origin, bool]]:
    """Each piece field the layout's boxes read: its name, type, where it is read, and whether
    only as a colour (``piece.<field>``, not a box's ``field:``)."""
    out: list[tuple[str, str, Origin, bool]] = []
    for side in (raw.front, raw.back):
        if side is None:
            continue
        for options in side.boxes.values():
            btype = options["type"].parse(BOX_OPTIONS["type"].parse, (1, 1)) if "type" in options else "text"
            for key, origin in options.items():
                value = origin.value
                if key == "field" and btype in FIELD_OF and isinstance(value, str) and value not in SOURCES:
                    out.append((origin.parse(source, (1, 1)), FIELD_OF[btype], origin, False))
                if isinstance(value, str) and value.startswith("piece.") and key in ("colour", "fill", "stroke"):
                    out.append((value[6:], "colour", origin, True))
        if side.background is not None and isinstance(side.background.value, str) \
                and side.background.value.startswith("piece."):
            out.append((side.background.value[6:], "colour", side.background, True))
    return out


def own_reads(raw: RawLayout) -> dict[str, tuple[Origin, bool]]:
    """Every field the layout's boxes read that its ``fields:`` does not declare, with the first
    place it is read and whether only as a colour: a misspelt ``field: wordl`` or ``piece.color``
    declares a field no piece has."""
    reads = _reads(raw)
    shown = {name for name, _, _, colour in reads if not colour}
    out: dict[str, tuple[Origin, bool]] = {}
    for name, _, origin, _ in reads:
        if name not in raw.fields:
            out.setdefault(name, (origin, name not in shown))
    return out


def fields(raw: RawLayout) -> dict[str, str]:
    """The piece fields the layout's boxes read, with their types (the layout's ``fields:`` win)."""
    out: dict[str, str] = {}
    for name, kind, _, _ in _reads(raw):
        out.setdefault(name, kind)
    for name, origin in raw.fields.items():
        origin.parse(v.name, "a field name")
        out[name] = origin.parse(v.choice, FIELD_TYPES, "field type")
    return out


def size_key(where: Where) -> str:
    """The key the designer gave the size with at ``where``: ``format: mini-american`` is named
    format:, not size:."""
    try:
        marks = load_yaml(where.path).key_marks
    except InputError:
        return "size"
    return next((str(path[-1]) for path, (line, _) in marks.items()
                 if path and path[-1] == "format" and line == where.line), "size")


def is_builtin(doc: Located) -> bool:
    return doc.path.is_relative_to(builtin_folder())


