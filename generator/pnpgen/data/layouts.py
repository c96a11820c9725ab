"""Layouts as data: a deck may say ``layout: NAME`` (or ``layout: {extends: NAME, …}``) instead
of ``front:``/``back:`` templates. A layout is a YAML file naming boxes in mm, each bound to a
piece field and styled; ``extends:`` derives one layout from another. Built-in layouts ship in
``pnpgen/faces/builtin/layouts/``, a workspace's own live in ``layouts/`` (found first).

Every option is declared once (LAYOUT_KEYS, SIDE_KEYS below; a box's, BOX_OPTIONS, in boxoptions.py)
with its parser and default. Layers are merged option by option, each value remembering the file
and line it was written on, so a bad value is reported there. The result is the plain ``model.Layout`` that
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
from pnpgen.data.boxlengths import Frame, frame, length
from pnpgen.data.boxoptions import BOX_OPTIONS, BOX_TYPES, SOURCES, TRACK_MOST, colour_spec, is_field_name, source
from pnpgen.data.formats import CARD_FORMATS, KINDS, SAFE_MM, SHAPES, SINGLE_SIZE_SHAPES, size_word
from pnpgen.data.i18n import language_code_hint, language_code_meant
from pnpgen.data.markup import colour_names
from pnpgen.data.model import Layout, LayoutBox, LayoutSide
from pnpgen.data.tuckbox import BOX_KEYS, Given, merged, tuck_box
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, Where, contained, not_a_file, suggest
from pnpgen.litter import is_litter
from pnpgen.patterns import later
from pnpgen.shapes import ring_hole

MAX_DEPTH = 20  # layouts extending layouts
LENGTH_LIMIT = 100_000.0  # mm: a polygon layout's corner read before its range is checked
TEMPLATE_PREFIX = "@layout"  # a deck's layout sides are rendered as templates @layout/<deck>/front, …/back
FIELD_OF = {"text": "text", "image": "image", "icons": "list", "track": "int"}  # a box's type → its field's type
# Colours every layout knows, whatever its palette says; a game's palette of the same name wins.
BASE_PALETTE = {"ink": "#23262e", "paper": "#fbf8f1", "accent": "#3b4a8c", "panel": "#efe9dc", "white": "#ffffff"}
_NAME = later(r"^[a-z0-9][a-z0-9_-]{0,63}$")


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


def _editions_of_game(origin: Origin, codes: tuple[str, ...], languages: list[str], deck_file: Path | None) -> None:
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
        if _builtin(layer_doc):
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
            if key in top and not _builtin(top[key].doc):
                raise top[key].error("a tuck box's size is its net's, drawn from its box:",
                                     "'box: {cards: poker, count: 60}' (the cards it holds) instead", key=True)
        box = tuck_box(raw.box)
        g.size, g.options["box"] = box.size, box.frozen()
    else:  # (a layout's box: on another shape was passed over without a word)
        own = [o for o in raw.box.values() if isinstance(o, Origin) and not _builtin(o.doc)]
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
        if size_where is None or not _builtin(given.doc):
            raise given.error(e.message, e.expected) from None
        meant = (f"size: [{round(g.size[0] * trim[1] / g.size[1], 1):g}, {trim[1]:g}] (its own {g.size[0]:g}×"
                 f"{g.size[1]:g} mm grown to that height), or " if g.size and len(g.size) == 2 else "")
        raise InputError(f"a {trim[0]:g}×{trim[1]:g} mm piece is a size the built-in layout {g.name} cannot take: its "
                         f"outline's {e.message} (its corners are worked out from its size)", path=size_where.path,
                         line=size_where.line, column=size_where.column, key=_size_key(size_where),
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


def _side(raw: RawSide, trim: tuple[float, float], colours: Callable[[Origin | None, str | None], None],
          font_roles: list[str] | None, languages: list[str] | None = None,
          deck_file: Path | None = None, unplaceheld: frozenset[str] = frozenset()) -> LayoutSide:
    background = raw.background.parse(colour_spec(True), trim) if raw.background is not None else None
    if raw.background is not None:
        colours(raw.background, background)
    boxes = []
    for name, given in raw.boxes.items():
        btype = given["type"].parse(BOX_OPTIONS["type"].parse, trim) if "type" in given else "text"
        options: dict[str, Any] = {}
        for key, opt in BOX_OPTIONS.items():
            if key == "type":
                continue
            if key in given and btype not in opt.types:
                raise given[key].error(f"{'an' if btype[0] in 'aeiou' else 'a'} {btype} box does not take {key}",
                                       "one of " + ", ".join(k for k, o in BOX_OPTIONS.items() if btype in o.types),
                                       key=True)
            if btype not in opt.types:
                continue
            if key not in given:
                if opt.default is None and key in ("w", "h") and btype == "line":
                    options[key] = 0.0  # a line across gives its w alone, one down its h
                    continue
                if opt.default is None and key in ("w", "h"):
                    others = ", ".join(n for n in raw.boxes if n != name) or "none"
                    raise InputError(f"box {name} has no {key}", path=_where(given),
                                     expected=f"'{key}:' in mm for a new box; to change a box of the layout, "
                                              f"its name: {others}")
                options[key] = opt.default
                if key in ("colour", "fill", "stroke"):
                    colours(None, opt.default)  # a default is one of BASE_PALETTE's
                continue
            options[key] = given[key].parse(opt.parse, trim)
            if key in ("colour", "fill", "stroke"):
                colours(given[key], options[key])
            if key == "font" and font_roles is not None and options[key] not in font_roles:
                raise given[key].error(f"unknown font role {options[key]!r}", "one of " + ", ".join(font_roles))
            if key == "lang" and languages is not None and options[key] is not None:
                _editions_of_game(given[key], options[key], languages, deck_file)
        if btype == "text" and options.get("field") is None and options.get("text") is None:
            field = name if is_field_name(name) else "title"  # the box named after its field, as the built-in ones are
            raise InputError(f"box {name} shows nothing", path=_where(given),
                             expected=f"'field: {field}' (the piece field it shows) or 'text: …' (a fixed text)")
        if btype in ("image", "icons") and (options.get("field") is None or options["field"] in SOURCES):
            raise InputError(f"box {name} reads no piece field", path=_where(given),
                             expected="'field: art' (a field of the pieces)")
        if btype == "image" and options["field"] in unplaceheld:  # fields: {art: {type: image, placeholder: false}}
            options["placeholder"] = False  # empty: the room left blank, no 「画像未定」 frame
        if btype == "track":
            _track_length(name, given, options)
            if options.get("around") and options.get("rows", 1) > 1:
                raise given["rows"].error(f"box {name}: a track round the box's edge (around: true) has no rows",
                                          "rows: left out with around: true, or around: false for rows that snake")
            if "fill" in given and options["fill"] is None:
                options["fill"] = "none"  # see-through spaces, not the track's white ones (no fill given)
        for side in ("w", "h"):
            if btype in FIELD_OF and side in given and options[side] <= 0 and _builtin(given[side].doc):  # (drawn: an error)
                raise given[side].error(f"{v.show(given[side].value)} is {options[side]:g} mm", "more than 0 mm")
            pad = options.get("pad", 0.0)
            if btype in FIELD_OF and side in given and 0 < options[side] <= 2 * pad and _builtin(given[side].doc):
                # (card-poker's text on a 41×63 card: 0.32 mm inside a 1.5 mm pad, said as 'textbox h=0' at a piece)
                raise given[side].error(f"{v.show(given[side].value)} is {options[side]:g} mm, leaving nothing inside "
                                        f"its {pad:g} mm pad", f"more than {2 * pad:g} mm")
        if btype in ("text", "icons"):
            _on_piece(name, given, options, trim)
        if btype == "line" and options["w"] == 0 and options["h"] == 0:
            raise InputError(f"box {name} is a line of no length", path=_where(given),
                             expected="'w:' in mm for a line across, 'h:' for one down")
        if btype in ("grid", "track"):
            _grid_on_piece(name, btype, given, options, trim)
        if btype == "grid":
            for n, gaps, side, length_ in (("cols", "across", "w", options["w"]), ("rows", "down", "h", options["h"])):
                need = (options[n] - 1) * options["spacing"]
                if need >= length_:
                    raise (given.get("spacing") or given[side]).error(
                        f"box {name}: {options[n]} {n} with {options[n] - 1} spaces of {options['spacing']:g} mm take "
                        f"{need:g} of its {length_:g} mm {gaps}, leaving no room for the cells",
                        f"a {side} over {need:g} mm, a smaller spacing, or fewer {n}")
        if options.get("min_size", 0) > options.get("size", 1e9):
            if "size" in given and "min_size" in given and _builtin(given["min_size"].doc) \
                    and not _builtin(given["size"].doc):  # (said at the deck's size:, not at pnpgen's own file, trial43)
                raise given["size"].error(
                    f"box {name}: size {options['size']:g} is below the min_size {options['min_size']:g} the layout "
                    f"gives the box (the smallest its text shrinks to)",
                    f"a size of {options['min_size']:g} or more, or a min_size beside it: "
                    f"{{size: {options['size']:g}, min_size: {options['size']:g}}}")
            raise given.get("min_size", given.get("size", next(iter(given.values())))).error(
                "min_size is larger than size", "a min_size at most the size")
        boxes.append(LayoutBox(name, btype, tuple(options.items())))
    return LayoutSide(background, tuple(boxes))


def _on_piece(name: str, given: dict[str, Origin], options: dict[str, Any], trim: tuple[float, float]) -> None:
    """A built-in layout's text or icons box that a deck's smaller size puts mostly past the trim
    (the hex tile's text, 39–47 mm down, on a 40 mm square tile) would print off the piece: its
    boxes keep their millimetres. Told as an error at the box, which ``_sized_out`` says at the
    size; a box only grazing the edge (a 25 mm token's value circle on a 12 mm one) is the print
    lint's to name."""
    if any(not _builtin(given[k].doc) for k in ("x", "y", "w", "h") if k in given):
        return  # a box the designer placed: the print lint names what reaches the trim
    for start, size, key, edge, across in (("x", "w", "x" if "x" in given else "w", trim[0], "from the left"),
                                           ("y", "h", "y" if "y" in given else "h", trim[1], "down")):
        low, high = options[start], options[start] + options[size]
        on = min(high, edge) - max(low, 0.0)  # how much of it the piece holds: a box grazing the edge is the lint's
        if on < (high - low) / 2 and key in given:
            raise given[key].error(f"puts it {low:g}–{high:g} mm {across}, mostly past the piece's {edge:g} mm trim "
                                   f"(the layout's boxes keep their millimetres: its text would print off the piece)",
                                   f"the box placed on the piece in the deck's layout: "
                                   f"layout: {{extends: …, boxes: {{{name}: {{{start}: …, {size}: …}}}}}}")


def _track_length(name: str, given: dict[str, Origin], options: dict[str, Any]) -> None:
    """A track box runs from ``start`` to the number a piece field gives (its health) or ``last``:
    one of them, and a fixed one with at least one space, at most TRACK_MOST."""
    field, last, start = options.get("field"), options.get("last"), options["start"]
    told = (f"box {name} is a track of no length" if field is None and last is None else
            f"box {name}: a track's length comes from field: or last:, not both" if field is not None and last is not None
            else f"box {name}: a track's length is a piece field's number, not {field}" if field in SOURCES else None)
    if told is not None:
        raise InputError(told, path=_where(given), expected="'field: hp' (a whole-number field of the pieces: 0 to its "
                         "value) or 'last: 10' (0 to 10, the same on every piece)")
    if last is not None and not 1 <= last - start + 1 <= TRACK_MOST:
        raise (given.get("last") or given["start"]).error(
            f"box {name}: a track from {start} to {last} has {max(last - start + 1, 0):,} spaces",
            f"a last at least its start ({start}) and at most {start + TRACK_MOST - 1:,}: last is the last "
            "space's number, not how many")


def _grid_on_piece(name: str, btype: str, given: dict[str, Origin], options: dict[str, Any],
                   trim: tuple[float, float]) -> None:
    """A roll-and-write grid (or a track) running past the trim has cells (spaces) the cut takes off: a sheet
    sized down (to the size the build offers so that it prints whole) keeps its boxes' millimetres. No grid
    is meant to be cut, so it is an error at the box, not the print lint's (which reads text)."""
    cells = "spaces" if btype == "track" else "cells"
    for start, size, edge, across in (("x", "w", trim[0], "from the left"), ("y", "h", trim[1], "down")):
        low, high = options[start], options[start] + options[size]
        if low < -0.01 or high > edge + 0.01:
            key = next((k for k in (size, start) if k in given), None)
            origin = given[key] if key is not None else next(iter(given.values()))
            raise origin.error(f"box {name}: its {btype} runs {low:g}–{high:g} mm {across}, past the piece's {edge:g} mm "
                               f"trim: the cut would take {cells} off",
                               f"the {btype} inside the piece: {start} from 0 and {start} + {size} at most {edge:g} "
                               f"({edge - SAFE_MM:g} inside the {SAFE_MM:g} mm safe zone), or a larger size")


def over_tracks(raw: RawLayout, layout: Layout) -> list[str]:
    """A box of a side that lies over the spaces of a track round that side's edge (``around:
    true``, its last space fixed): one of the two hides the other where they meet (trial36: the
    board layout's own band and title, 6 mm down, over a track placed at 6 mm). One warning a box,
    at its line (at the track's, for a box of the built-in layout under it), with the hole the
    spaces leave, where the box fits. A box holding the whole track (a ground, a frame round the
    board) and one inside the hole are not over it."""
    notes = []
    for raw_side, side in ((raw.front, layout.front), (raw.back, layout.back)):
        if raw_side is None or side is None:
            continue
        boxes = {b.name: b for b in side.boxes}
        for track in side.boxes:
            if track.type != "track" or not track.get("around") or track.get("last") is None:
                continue
            count = track.get("last") - track.get("start") + 1
            tx, ty, tw, th = (track.get(k) for k in ("x", "y", "w", "h"))
            if count < 4 or tw <= 0 or th <= 0:
                continue
            hx, hy, hw, hh = ring_hole(count, tx, ty, tw, th)
            hole = (hx, hy, hx + hw, hy + hh)
            for name, given in raw_side.boxes.items():
                box = boxes.get(name)
                at = dict(box.options) if box is not None and box is not track else {}
                if not all(isinstance(at.get(k), int | float) for k in ("x", "y", "w", "h")):
                    continue  # (folds: lines across the whole piece)
                x0, y0 = at["x"], at["y"]
                x1, y1 = x0 + at["w"], y0 + at["h"]
                meets = x0 < tx + tw and x1 > tx and y0 < ty + th and y1 > ty or \
                    (x0 == x1 and tx < x0 < tx + tw and y0 < ty + th and y1 > ty) or \
                    (y0 == y1 and ty < y0 < ty + th and x0 < tx + tw and x1 > tx)  # (a line)
                holds = x0 <= tx and y0 <= ty and x1 >= tx + tw and y1 >= ty + th
                inside = x0 >= hole[0] and y0 >= hole[1] and x1 <= hole[2] and y1 <= hole[3]
                if not meets or holds or inside:
                    continue
                track_at = _where(raw_side.boxes[track.name])
                placed = f"box {name} ({x0:g}–{x1:g} mm across, {y0:g}–{y1:g} down)"
                own = {k: o for k, o in given.items() if not _builtin(o.doc)}  # (the deck's layout's keys of it)
                if own:
                    said = f"{_where(own)}: {placed} and the spaces of track {track.name} ({track_at}) meet"
                else:  # (the built-in layout's box, which the deck's layout did not move)
                    said = (f"{track_at}: the spaces of track {track.name} and the built-in layout "
                            f"{raw.base[0] if raw.base else raw.name}'s {placed} meet")
                notes.append(f"{said}: one hides the other there (expected the box inside the hole the "
                             f"spaces leave, {hole[0]:.1f}–{hole[2]:.1f} mm across, {hole[1]:.1f}–{hole[3]:.1f} down, "
                             "or the track moved)")
    return notes


def _where(given: dict[str, Origin]) -> str:
    first = next(iter(given.values()), None)
    if first is None:
        return "layout"
    w = first.doc.where(first.keypath[:-1], key=True)
    return str(w)


def finish(raw: RawLayout, trim: tuple[float, float], shape: str, palette: dict[str, str] | None,
           font_roles: list[str] | None, size_where: Where | None = None, languages: list[str] | None = None,
           deck_file: Path | None = None, unplaceheld: frozenset[str] = frozenset()) -> Layout:
    """The layout for one deck (written in ``deck_file``, or a layer of it): lengths resolved for its
    ``trim``, colours, fonts and a box's ``lang:`` checked against the game's palette, font roles
    and languages (None: not checked, for ``layout export``). ``size_where``: where the deck gives
    its own size, else the layout's size is the deck's. ``unplaceheld``: the image fields the deck
    file says ``{type: image, placeholder: false}`` of, whose image boxes resolve to
    ``placeholder: false`` as ``boxes: {art: {placeholder: false}}`` makes them (docs/data-format.md)."""
    try:
        return _finish(raw, trim, shape, palette, font_roles, size_where, languages, deck_file, unplaceheld)
    except InputError as e:
        raise _sized_out(raw, trim, size_where, e) or e from None


def _size_key(where: Where) -> str:
    """The key the designer gave the size with at ``where``: ``format: mini-american`` is named
    format:, not size:."""
    try:
        marks = load_yaml(where.path).key_marks
    except InputError:
        return "size"
    return next((str(path[-1]) for path, (line, _) in marks.items()
                 if path and path[-1] == "format" and line == where.line), "size")


def _builtin(doc: Located) -> bool:
    return doc.path.is_relative_to(builtin_folder())


def _sized_out(raw: RawLayout, trim: tuple[float, float], size_where: Where | None, e: InputError) -> InputError | None:
    """A built-in layout's box that a size of the designer's leaves no room for (a standee 15 mm
    tall: the figure's 'h / 2 - 10' is -2.5 mm; a tuck box for 3 mm cards) is told at that size
    or box:, which is the slip, not at pnpgen's own layout file; None when the slip is not the size."""
    tuck = isinstance(trim, Frame)
    given = [o for o in raw.box.values() if isinstance(o, Origin)] if tuck else \
        [o for o in (raw.top.get("size"), raw.top.get("format")) if o is not None]
    own = [o for o in given if not _builtin(o.doc)]
    where = size_where or (own[0].doc.where(own[0].keypath) if own else None)
    if where is None or e.path is None or not Path(e.path).is_relative_to(builtin_folder()) \
            or (e.key or "").rpartition(".")[2] not in ("x", "y", "w", "h"):  # (a box's place or size: not its font)
        return None
    name, size = raw.base or (raw.name, None)
    box, _, key = (e.key or "").removeprefix("boxes.").rpartition(".")
    why = f"its box {box}'s {key} {e.message}"
    if tuck:
        return InputError(f"a tuck box whose net is {trim[0]:g}×{trim[1]:g} mm is too small for the built-in layout "
                          f"{name}: {why}", path=where.path, line=where.line, column=where.column, key="box",
                          expected=f"box: figures of larger cards, in which each box of {name} has room (or a layout "
                          f"extending {name} whose boxes fit)")
    said = "×".join(f"{x:g}" for x in size) + " mm" if isinstance(size, list) else size
    placed = e.expected or ""  # _on_piece's: the box placed on the piece, in this layout
    return InputError(f"a {trim[0]:g}×{trim[1]:g} mm piece is a size the built-in layout {name} cannot take: {why}",
                      path=where.path, line=where.line, column=where.column, key=_size_key(where),
                      expected="a size in which each of its boxes has room" + (f" (its own is {said})" if said else "")
                      + (f", or {placed.replace('extends: …', f'extends: {name}')}"
                         if placed.startswith("the box placed") else ""))


def _finish(raw: RawLayout, trim: tuple[float, float], shape: str, palette: dict[str, str] | None,
            font_roles: list[str] | None, size_where: Where | None, languages: list[str] | None,
            deck_file: Path | None, unplaceheld: frozenset[str]) -> Layout:
    if shape == "tuckbox" and not isinstance(trim, Frame):  # the panels of the layout's own box
        trim = frame(trim, {"box": tuck_box(raw.box).frozen()})
    own = dict(BASE_PALETTE)
    for name, origin in raw.palette.items():
        origin.parse(v.name, "a colour name")
        own[name] = origin.parse(v.hex_colour)
    used: dict[str, str] = {}
    game_colours: set[str] = set()

    def colours(origin: Origin | None, value: str | None) -> None:
        if value is None or value.startswith("#") or value.startswith("piece."):
            return
        if value in own:
            used[value] = own[value]
        elif palette is not None and value in palette:
            game_colours.add(value)
        elif palette is not None and value not in palette and origin is not None:
            names = sorted(set(colour_names(palette)) | set(own))
            raise origin.error(f"unknown colour {value!r}{suggest(value, names)}", "a palette name (" + ", ".join(names) + ") or '#rrggbb'")

    front = _side(raw.front, trim, colours, font_roles, languages, deck_file, unplaceheld)
    back = _side(raw.back, trim, colours, font_roles, languages, deck_file, unplaceheld) if raw.back is not None else None
    return Layout(raw.name, (trim[0], trim[1]), shape, tuple(sorted(used.items())), tuple(fields(raw).items()), front, back,
                  tuple(sorted(name for name in used if name in raw.deck_palette)), tuple(sorted(game_colours)),
                  _stand_up(raw, front), *_die(raw, front))


def _stand_up(raw: RawLayout, front: LayoutSide) -> tuple[float, float, float, float] | None:
    """``stand_up: front``: the front's image box a piece stands as on a virtual table (a fold-over
    standee's upright figure), as x, y, w, h in mm; None when the layout names none."""
    given = raw.top.get("stand_up")
    if given is None or given.value is None:
        return None
    images = [b for b in front.boxes if b.type == "image"]
    box = next((b for b in images if b.name == given.value), None)
    if box is None:
        names = [b.name for b in images]
        other = next((b for b in front.boxes if b.name == given.value), None)
        told = (f"box {other.name} is a {other.type} box, not an image box, so it cannot stand up" if other else
                f"no image box {v.show(given.value)} on the front to stand up{suggest(str(given.value), names)}")
        raise given.error(told,
                          "the name of one of the front's image boxes: " + (", ".join(names) or "none"))
    if box.get("rotate"):  # (the table and the rulebook show the box as printed: the figure on its side or head)
        upright = [b.name for b in images if not b.get("rotate")]
        raise given.error(f"box {box.name} is turned {box.get('rotate')}°, so the piece would stand on its side or head",
                          "an image box not turned: " + (", ".join(upright) or "none"))
    return (box.get("x"), box.get("y"), box.get("w"), box.get("h"))


DIE_FACES = 6  # ``die:`` names a d6's faces: Tabletop Simulator's Custom_Dice of type 1


def _has_area(box: LayoutBox) -> bool:
    """A box with a w and h of its own, which a die's face can be (a frame or folds box has none)."""
    options = dict(box.options)
    return bool(options.get("w") and options.get("h"))


def _die(raw: RawLayout, front: LayoutSide) -> tuple[tuple[tuple[float, float, float, float], ...] | None,
                                                    tuple[LayoutBox, ...] | None]:
    """``die: [f1, f2, f3, f4, f5, f6]``: the front's boxes a folded paper die shows as its faces 1
    to 6 (1 opposite 6, 2 opposite 5, 3 opposite 4), each as x, y, w, h in mm, and the boxes
    themselves (what each face shows is its value on a virtual table); None when the layout names
    none."""
    given = raw.top.get("die")
    if given is None or given.value is None:
        return None, None
    names = [b.name for b in front.boxes if _has_area(b)]
    expected = f"a list of the {DIE_FACES} front boxes that are the die's faces 1 to 6: " + ", ".join(names)
    if not isinstance(given.value, list) or len(given.value) != DIE_FACES:
        raise given.error(f"{v.show(given.value)} is not a list of {DIE_FACES} box names", expected)
    out, faces = [], []
    for name in given.value:
        box = next((b for b in front.boxes if b.name == name), None)
        if box is None or not _has_area(box):
            told = (f"box {box.name} is a {box.type} box of no area, not a die's face" if box is not None else
                    f"no box {v.show(name)} on the front to be a die's face{suggest(str(name), names)}")
            raise given.error(told, expected)
        out.append((box.get("x"), box.get("y"), box.get("w"), box.get("h")))
        faces.append(box)
    twice = sorted({str(n) for n in given.value if given.value.count(n) > 1})
    if twice:
        raise given.error(f"box {', '.join(twice)} is named twice; a die has {DIE_FACES} different faces", expected)
    return tuple(out), tuple(faces)
