"""Load and validate a game's YAML into the model: every mistake is reported with file:line:column."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pnpgen import fonts as fontreg
from pnpgen.errors import InputError
from pnpgen.data.formats import CARD_FORMATS, KINDS, SHAPES, SINGLE_SIZE_SHAPES
from pnpgen.data.model import FieldText, Game, Piece, Deck, Sourced, is_placeholder
from pnpgen.data.art import check_art
from pnpgen.data.sheets import read_pieces
from pnpgen.shapes import bounding_size
from pnpgen.units import parse_length
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import Located, load_yaml

MAX_COUNT = 10_000
GAME_KEYS = {
    "title": "text", "draft": "the 草案 number", "players": "e.g. 3-5", "date": "YYYY-MM-DD",
    "draft_file": "file name", "palette": "name: '#rrggbb'", "fonts": "role: font",
    "fallback_fonts": "list of fonts", "sourced": "list of {name, count, note}", "subtitle": "text",
    "rulebook": "{figures, quick_reference} (read by pnpgen.rulebook.figures)",
}
DECK_KEYS = (
    "name", "kind", "format", "size", "shape", "corner_radius", "orientation", "points",
    "front", "back", "fields", "defaults", "pieces", "options",
)
FIELD_TYPES = ("text", "int", "number", "colour", "bool", "list", "map", "image")
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _keys(doc: Located, mapping: Any, keypath: tuple, allowed, what: str) -> None:
    if not isinstance(mapping, dict):
        raise doc.error(keypath, f"{what} must be a mapping", "key: value pairs")
    for key in mapping:
        if key not in allowed:
            raise doc.error(keypath + (key,), f"unknown key in {what}", "one of " + ", ".join(allowed), key=True)


def _text(doc: Located, value: Any, keypath: tuple) -> str:
    if isinstance(value, (dict, list)) or value is None:
        raise doc.error(keypath, f"expected text, got {type(value).__name__}", "a string")
    return str(value)


def load_game(ws: Workspace, slug: str) -> Game:
    folder = ws.game_dir(slug)
    if not (folder / "game.yaml").is_file():
        known = ws.slugs()
        raise InputError(f"unknown game {slug!r}", expected="one of " + ", ".join(known) if known else "a data/<slug>/game.yaml")
    doc = load_yaml(folder / "game.yaml")
    data = doc.data
    _keys(doc, data, (), GAME_KEYS, "game.yaml")
    for required in ("title", "palette"):
        if required not in data:
            raise doc.error((), f"missing key {required!r}", GAME_KEYS[required])
    palette = data["palette"]
    _keys(doc, palette, ("palette",), palette.keys() if isinstance(palette, dict) else (), "palette")
    for name, value in palette.items():
        if not isinstance(value, str) or not HEX.match(value):
            raise doc.error(("palette", name), f"colour {value!r} is not a hex colour", "'#rrggbb' in quotes")
    font_roles = dict(fontreg.DEFAULT_FONTS)
    fonts_in = data.get("fonts", {}) or {}
    _keys(doc, fonts_in, ("fonts",), fonts_in.keys() if isinstance(fonts_in, dict) else (), "fonts")
    font_roles.update({k: str(v) for k, v in fonts_in.items()})
    fallback = [str(f) for f in data.get("fallback_fonts", []) or []]
    for role, name in font_roles.items():
        fontreg.register(name, ws.fonts, where=doc.where(("fonts", role)) if role in fonts_in else doc.path)
    for i, name in enumerate(fallback):
        fontreg.register(name, ws.fonts, where=doc.where(("fallback_fonts", i)))
    sourced = []
    for i, item in enumerate(data.get("sourced", []) or []):
        _keys(doc, item, ("sourced", i), ("name", "count", "note"), "a sourced component")
        sourced.append(Sourced(_text(doc, item.get("name"), ("sourced", i, "name")),
                               _count(doc, item.get("count", 1), ("sourced", i, "count")),
                               str(item.get("note", "") or "")))
    game = Game(
        slug=slug,
        title=_text(doc, data["title"], ("title",)),
        draft=data.get("draft", ""),
        players=str(data.get("players", "")),
        date=str(data.get("date", "")),
        palette=dict(palette),
        fonts=font_roles,
        fallback_fonts=fallback,
        decks=[],
        sourced=sourced,
        root=folder,
        draft_file=folder / str(data.get("draft_file", "draft.txt")),
        options={"subtitle": str(data.get("subtitle", "") or "")},
    )
    for deck_file in sorted((folder / "decks").glob("*.yaml")):
        game.decks.append(load_deck(ws, game, deck_file))
    return game


def _count(doc: Located, value: Any, keypath: tuple) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COUNT:
        raise doc.error(keypath, f"count {value!r} is not a whole number from 1 to {MAX_COUNT:,}",
                        f"an integer 1..{MAX_COUNT}, e.g. 'count: 3'")
    return value


def _size(doc: Located, data: dict, shape: str) -> tuple[tuple[float, float], str]:
    if "format" in data and "size" in data:
        raise doc.error(("size",), "give either format or size, not both", "one of them", key=True)
    if "format" in data:
        fmt = data["format"]
        if fmt not in CARD_FORMATS:
            raise doc.error(("format",), f"unknown format {fmt!r}", "one of " + ", ".join(CARD_FORMATS))
        return CARD_FORMATS[fmt], fmt
    if "size" not in data:
        raise doc.error((), "missing size", "'format: poker' or 'size: [63, 88]'")
    raw = data["size"]
    try:
        if shape in SINGLE_SIZE_SHAPES:
            if isinstance(raw, list):
                raise ValueError(f"a {shape} takes one size")
            return bounding_size(shape, parse_length(raw), data.get("orientation", "pointy")), "custom"
        if not isinstance(raw, list) or len(raw) != 2:
            raise ValueError("needs [width, height]")
        w, h = (parse_length(v) for v in raw)
        if w <= 0 or h <= 0:
            raise ValueError("sizes must be positive")
        return (w, h), "custom"
    except ValueError as e:
        expected = "one length, e.g. 'size: 40mm'" if shape in SINGLE_SIZE_SHAPES else "'size: [63, 88]' in mm or with units"
        raise doc.error(("size",), str(e), expected) from None


def _template(ws: Workspace, game: Game, doc: Located, key: str, name: Any) -> str:
    if not isinstance(name, str):
        raise doc.error((key,), "template name must be text", "a file name like 'epic-front.svg.j2'")
    for candidate in (f"{game.slug}/{name}", name):
        if (ws.templates / candidate).is_file():
            return candidate
    raise doc.error((key,), f"template {name!r} not found", f"a file templates/{game.slug}/{name}")


def _value(doc: Located, game: Game, ftype: str, value: Any, keypath: tuple, field: str) -> Any:
    """Check one field value against its declared type; text becomes FieldText."""
    ok = {
        "text": lambda v: isinstance(v, (str, int, float)) and not isinstance(v, bool),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "colour": lambda v: isinstance(v, str) and (v in game.palette or is_placeholder(v)),
        "bool": lambda v: isinstance(v, bool),
        "list": lambda v: isinstance(v, list),
        "map": lambda v: isinstance(v, dict),
        "image": lambda v: isinstance(v, str),
    }[ftype]
    if value is None or (is_placeholder(value) and ftype != "colour"):
        return FieldText(value, field) if isinstance(value, str) else value
    if not ok(value):
        expected = {
            "colour": "a palette colour: " + ", ".join(game.palette),
            "text": "text", "int": "a whole number", "number": "a number", "bool": "true or false",
            "list": "a list [..]", "map": "a mapping {key: value}", "image": "a file name in art/, e.g. dragon.png",
        }[ftype]
        raise doc.error(keypath, f"{value!r} is not a valid {ftype}", expected)
    if ftype == "image" and value.strip():
        try:
            check_art(game.root, value)
        except InputError as e:  # say it at the piece's file:line (YAML or spreadsheet)
            raise doc.error(keypath, e.message, e.expected) from None
    return FieldText(str(value), field) if ftype == "text" else value


def load_deck(ws: Workspace, game: Game, path: Path) -> Deck:
    doc = load_yaml(path)
    data = doc.data
    _keys(doc, data, (), DECK_KEYS, "a deck file")
    for required in ("name", "front", "pieces"):
        if required not in data:
            raise doc.error((), f"missing key {required!r}", f"'{required}:' in the deck file")
    kind = data.get("kind", "card")
    if kind not in KINDS:
        raise doc.error(("kind",), f"unknown kind {kind!r}", "one of " + ", ".join(KINDS))
    shape = data.get("shape", "rect")
    if shape not in SHAPES:
        raise doc.error(("shape",), f"unknown shape {shape!r}", "one of " + ", ".join(SHAPES))
    trim, fmt = _size(doc, data, shape)
    fields = data.get("fields", {}) or {}
    _keys(doc, fields, ("fields",), fields.keys() if isinstance(fields, dict) else (), "fields")
    for name, ftype in fields.items():
        if ftype not in FIELD_TYPES:
            raise doc.error(("fields", name), f"unknown field type {ftype!r}", "one of " + ", ".join(FIELD_TYPES))
    allowed = list(fields) + ["count"]
    defaults = data.get("defaults", {}) or {}
    _keys(doc, defaults, ("defaults",), list(fields), "defaults")
    defaults = {k: _value(doc, game, fields[k], v, ("defaults", k), k) for k, v in defaults.items()}
    options = {k: data[k] for k in ("corner_radius", "orientation", "points") if k in data}
    options.update(data.get("options", {}) or {})
    deck = Deck(
        id=path.stem,
        name=_text(doc, data["name"], ("name",)),
        kind=kind,
        shape=shape,
        trim_mm=trim,
        format=fmt,
        front=_template(ws, game, doc, "front", data["front"]),
        back=_template(ws, game, doc, "back", data["back"]) if data.get("back") else None,
        pieces=[],
        source=path,
        options=options,
    )
    pieces = data["pieces"]
    rows = doc  # where the pieces are written: this YAML file, or a spreadsheet (sheets.py)
    if isinstance(pieces, dict):
        rows, pieces = read_pieces(doc, path, game.root, fields)
    if not isinstance(pieces, list) or not pieces:
        raise doc.error(("pieces",), "pieces must be a non-empty list", "'- name: …' entries or {file: cards.csv}")
    for i, raw in enumerate(pieces):
        keypath = ("pieces", i)
        _keys(rows, raw, keypath, allowed, f"piece {i + 1}")
        values = {name: None for name in fields}
        values.update(defaults)
        for key, value in raw.items():
            if key != "count":
                values[key] = _value(rows, game, fields[key], value, keypath + (key,), key)
        piece = Piece(index=i + 1, values=values, count=_count(rows, raw.get("count", 1), keypath + ("count",)),
                      where=rows.where(keypath))
        deck.pieces.append(piece)
        for key, value in values.items():
            where = rows.where(keypath + (key,)) if key in raw else doc.where(("defaults", key))
            _collect_placeholders(deck, where, key, value, piece)
            if fields[key] == "image" and not (value or "").strip():
                deck.placeholders.append((piece.where, f"{piece.label}.{key}", "no art yet"))
    return deck


def _collect_placeholders(deck: Deck, where, key: str, value: Any, piece: Piece) -> None:
    if is_placeholder(value):
        deck.placeholders.append((where, f"{piece.label}.{key}", str(value)))
    elif isinstance(value, dict):
        for k, v in value.items():
            _collect_placeholders(deck, where, f"{key}.{k}", v, piece)
    elif isinstance(value, list):
        for k, v in enumerate(value):
            _collect_placeholders(deck, where, f"{key}[{k}]", v, piece)
