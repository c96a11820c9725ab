"""Load and validate a game's YAML into the model: every mistake is reported with file:line:column."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from pnpgen import fonts as fontreg
from pnpgen.data import boxoptions, i18n, ink, layouts, lint, tuckbox
from pnpgen.data import validate as v
from pnpgen.data.art import SUFFIXES as ART_SUFFIXES
from pnpgen.data.art import ArtFolder, ArtNotFound, Sizes
from pnpgen.data.formats import CARD_FORMATS, KINDS, SHAPES, SINGLE_SIZE_SHAPES
from pnpgen.data.model import EMPTY_SHOWN, NO_ART_YET, Deck, Game, Piece, Sourced
from pnpgen.data.names import check_deck_ids
from pnpgen.data.piecevalues import (
    Source,
    collect_placeholders,
    field_value,
    optional_fields,
    placeholder_field,
    refuse_totals_row,
    refuse_track_lengths,
    rows_said,
    shown_fields,
)
from pnpgen.data.sheetlayouts import SheetStock, load_sheet
from pnpgen.data.spreadsheets import (
    KIND_WORDS,
    SUFFIXES,
    SYNONYMS,
    SheetDoc,
    more_renames,
    read_pieces,
    said_kind,
    said_translated,
)
from pnpgen.data.unique import refuse_repeats
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlhint import quoted
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, Where, contained, suggest
from pnpgen.litter import is_litter
from pnpgen.safetext import INVISIBLE, LINE_BREAKS, name_control_char, name_invisible_char, shown_invisible, shown_name
from pnpgen.shapes import bounding_size

GAME_KEYS = {
    "title": "text", "draft": "the 草案 number", "players": "e.g. 3-5", "date": "YYYY-MM-DD",
    "draft_file": "file name", "palette": "name: '#rrggbb'", "fonts": "role: font",
    "fallback_fonts": "list of fonts", "sourced": "list of {name, count, note}", "subtitle": "text",
    "rulebook": "{figures, quick_reference, proof} (read by pnpgen.rulebook.figures)",
    "stamp": "true or false: the version stamp on home sheets",
    "share_sheets": "true or false: small decks share the sheets of <game>-all.pdf (docs/home-printing.md)",
    "printer": "a profile name of printers.yaml (see pnpgen calibrate)",
    "paper": "the home sheets' paper: a4, letter, a3, legal or tabloid (--paper wins)",
    "sheet": "a sheet layout (sheets/<name>.yaml or built-in) every deck goes on, or grid",
    "ink": "the ink saver's figures (--ink): {large, keep, art_keep} (docs/home-printing.md)",
    "lint": "the print lint's figures: false, or {min_stroke, min_text, safe, thin_stroke} (docs/data-format.md)",
    "languages": "language codes, e.g. [ja, en]", "default_language": "one of languages",
    "latin_gap": "em between Japanese and Latin, e.g. 0.25",
}
DECK_KEYS = (
    "name", "kind", "format", "size", "shape", "corner_radius", "orientation", "points", "front", "back", "bleed",
    "fields", "defaults", "pieces", "options", "label", "layout", "sheet", "lint", "box", "die",
    "stand_up", "unique",
)
FIELD_TYPES = ("text", "int", "number", "colour", "bool", "list", "map", "image")
RESERVED_FIELDS = ("count", "n", "copy")  # templates read these as piece.count, piece.n, piece.copy
SHAPE_KEYS = ("corner_radius", "orientation", "points", "box")
SOURCED_KEYS = ("name", "count", "note")
PIECES_HINT = "; one piece with no fields of its own (a board) is 'pieces: [{}]'"


def _sheet(ws: Workspace, doc: Located, data: dict) -> SheetStock | None:
    """The sheet layout ``sheet:`` names (None for ``grid``); a bad name is an error at its line."""
    return load_sheet(ws.root, data["sheet"], lambda message, expected: doc.error(("sheet",), message, expected))


def _parse(doc: Source, keypath: tuple, parse: Callable[..., Any], value: Any, *args: Any) -> Any:
    """``parse(value, *args)`` from validate.py, its complaint placed at the value's file:line."""
    try:
        return parse(value, *args)
    except v.Invalid as e:
        raise doc.error(keypath, e.message, e.expected) from None


# said after the keys a piece may have when the key is no near miss of one: a field to add
NEW_FIELD = "; a new field is declared first: fields: {{{key}: {type}}}"
NEW_FIELD_LAYOUT = ("; a new field is shown by a box of its own, which declares it: {rename}layout: {{extends: {layout}, "
                    "boxes: {{{box}: {{field: {field}, x: …, y: …, w: …, h: …}}}}}}; one kept for yourself and never "
                    "printed (a memo) is declared alone: fields: {{{field}: text}}")  # box: a box's name, lower case


def _layout_name(data: dict) -> str:
    """The layout a deck's ``layout:`` names or extends, as the deck writes it."""
    spec = data.get("layout")
    return str(spec.get("extends", "…") if isinstance(spec, dict) else spec)


def _keys(doc: Source, mapping: Any, keypath: tuple, allowed, what: str, more: str = "") -> dict:
    mapping = _parse(doc, keypath, v.mapping, mapping, what)
    for key in mapping:
        if key not in allowed:
            cut = _cut_text(doc, mapping, keypath, key)
            if cut is not None:
                raise doc.error(keypath + (key,), f"unknown key in {what}: the ', ' before it ended the text of "
                                f"{cut[0]!r}", f"the text in quotes: {cut[0]}: {quoted(cut[1])}", key=True)
            if isinstance(key, str) and key[:1] == "\u3000":  # typed by a Japanese input method
                raise doc.error(keypath + (key,), f"unknown key in {what}: it starts with a full-width space "
                                "(全角スペース), which YAML reads as part of the key, not as indentation",
                                "half-width spaces in the indentation", key=True)
            listed = ", ".join(str(k) for k in allowed)
            near = v.ELSEWHERE.get((what, str(key))) or suggest(str(key), [str(k) for k in allowed], cutoff=0.75)
            word = str(key).strip().lower().rstrip(".:")
            given = getattr(doc, "headers", mapping)  # a sheet's own columns: title.en alone gives no title column
            meant = next((f for f, (words, _) in SYNONYMS.items() if word in words and f in allowed
                          and f not in given), None) if not near else None
            kind = said_kind(str(key), [a for a in allowed if a not in given], given) if not near and not meant else None
            # a translation column (カード名.en comes here as カード名, the key of its language's text)
            column = key if key in given else next((h for h in given if str(h).strip().lower().startswith(word + ".")), key)
            translated = said_translated(str(column), allowed, given) if not near and not meant and not kind else None
            if kind:  # 種類: the piece's name in a list with none, else the card's type
                near = f"; did you mean {kind[0]}? ({kind[1]})" + more_renames(key, allowed, given)
            elif meant:  # a sheet's Qty column, a Name column under a layout that prints the title
                near = f"; did you mean {meant}? ({SYNONYMS[meant][1]})" + more_renames(key, allowed, given)
            elif translated:
                field, lang = translated
                near = f"; did you mean {field}.{lang}? ({SYNONYMS[field][1]}, in {lang})" + \
                    more_renames(column, allowed, given)
            # a column of the sheet's own (種類) beside ones in its words for fields (枚数, 効果): those told too
            others = more_renames(key, allowed, given) if not near and what == "the header row" else ""
            box = re.sub(r"[^a-z0-9_-]+", "-", str(key).lower()).strip("-_") or ("type" if word in KIND_WORDS else "new")
            named = boxoptions.is_field_name(str(key))  # a layout's box reads no 'Card Type': told to rename it
            rename = "" if named else f"rename the {'column' if what == 'the header row' else 'key'} {str(key)!r} " \
                f"to {box} (a field name has no spaces), then "
            raise doc.error(keypath + (key,), f"unknown key in {what}{near}{others}",
                            ("one of " + listed if listed else "no keys here") + ("" if near else more.format(
                                key=key, box=box, field=key if named else box, rename=rename,
                                type=_field_type(mapping[key]))),
                            key=True)
    return mapping


def _field_type(value: Any) -> str:
    """The field type a new key's value reads as (``danger: 2`` is an int field, not text; a
    picture's file name an image, not text that would print the name)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str) and Path(value.strip()).suffix.lower() in ART_SUFFIXES:
        return "image"
    return {int: "int", float: "number", list: "list", dict: "map"}.get(type(value), "text")


def _misspelt_reads(raw: layouts.RawLayout, pieces: list, defaults: dict, allowed: list) -> None:
    """``field: wordl`` or ``background: piece.color`` over pieces (or a sheet's columns) that say
    ``word1:``, ``colour:``: told at the layout's line, which is where the slip is, not as
    ``word1`` unknown in every piece (the field the slip declared; a label: word1 then told to
    read wordl)."""
    keys = {key for piece in pieces if isinstance(piece, dict) for key in piece if isinstance(key, str)}
    for name, (origin, colour) in layouts.own_reads(raw).items():
        if name in keys or name in defaults or origin.doc.path.is_relative_to(layouts.builtin_folder()):
            continue  # (a built-in layout's reading is as meant: the pieces' key is the slip, told at them)
        near = suggest(name, sorted(keys - set(allowed)), cutoff=0.75)
        if near:
            meant = near[len("; did you mean "):-1]
            said = f"piece.{name}" if colour else name
            raise origin.error(f"{said}: no piece has a field {name!r}{near}",
                               f"{'piece.' if colour else 'field: '}{meant}, the field the pieces give, or {name}: in the pieces")


def _cut_text(doc: Source, mapping: dict, keypath: tuple, key: Any) -> tuple[str, str] | None:
    """In ``{title: 港, effect: 売る, 買う}`` YAML ends the text at ', ' and reads 買う as a key
    without a value: the text and key before it on the same line, and the text as meant."""
    if not isinstance(doc, Located) or mapping[key] is not None:
        return None
    keys = list(mapping)
    at = keys.index(key)
    line = doc.key_marks.get(keypath + (key,), (None,))[0]
    first = at
    while first > 0 and mapping[keys[first - 1]] is None:
        first -= 1
    if first == 0 or doc.key_marks.get(keypath + (keys[first - 1],), (None,))[0] != line:
        return None
    text = mapping[keys[first - 1]]
    if not isinstance(text, (str, int, float)) or isinstance(text, bool):
        return None
    tail = [str(k) for k in keys[first:] if mapping[k] is None
            and doc.key_marks.get(keypath + (k,), (None,))[0] == line]
    return str(keys[first - 1]), ", ".join([str(text), *tail])


def _text(doc: Source, value: Any, keypath: tuple) -> str:
    return _parse(doc, keypath, v.text, value)


def _one_line(doc: Source, value: Any, keypath: tuple, what: str) -> str:
    """A name said on one line wherever pnpgen names the thing — the build's summary, reprint.txt,
    the change report, page labels, Tabletop Simulator: a line break there began a line of the
    data's own (a forged 'pnpgen: error …' on the terminal, a false entry in reprint.txt)."""
    text = _text(doc, value, keypath)
    if LINE_BREAKS.search(text):  # (U+2028 too: a line break to YAML, Python and JavaScript)
        raise doc.error(keypath, f"{what} holds a line break", f"{what} on one line")
    return text


def game_file(ws: Workspace, slug: str) -> Path:
    """The game's game.yaml; an InputError naming the games there are (the nearest first) when
    ``slug`` is none of them."""
    game_yaml = ws.game_dir(slug) / "game.yaml"
    if not game_yaml.is_file():
        if game_yaml.exists():
            raise InputError("game.yaml is not a file", path=game_yaml, expected="a YAML file describing the game")
        known = [s for s in ws.slugs() if s != slug]
        raise InputError(f"unknown game {v.show(slug)}{suggest(slug, known)}",
                         expected="one of " + ", ".join(known) if known else "a data/<slug>/game.yaml")
    return game_yaml


def load_game(ws: Workspace, slug: str, lang: str | None = None, art: bool = True, sizes: Sizes | None = None) -> Game:
    """The game with every text in ``lang`` (default: the game's default language). With
    ``art=False`` (``pnpgen list``) the art files ``image`` fields name are not opened; ``sizes``:
    the art files' sizes found by earlier builds (data/art.py)."""
    folder = ws.game_dir(slug)
    bad = name_control_char(slug)
    if bad and folder.exists():  # the slug names the game's output folder and every message about it (typed: unknown)
        raise InputError(f"a game folder's name holds {bad}", path=ws.data,
                         expected=f"a folder name of letters, digits, - and _: rename {shown_name(slug)}")
    game_yaml = game_file(ws, slug)
    contained(game_yaml, ws.data, "game", game_yaml)
    doc = load_yaml(game_yaml)
    if not _keys(doc, doc.data, (), GAME_KEYS, "game.yaml"):  # a mistyped key first (langauges: leaves fonts.en unplaced)
        raise doc.error((), "game.yaml is empty", "'title:' and the game's other keys — a save caught half-way? "
                        "the next save builds it")
    translations = i18n.Translations.from_game(doc, lang)
    data = _keys(doc, doc.data, (), GAME_KEYS, "game.yaml")
    if "title" not in data:
        raise doc.error((), "missing key 'title'", GAME_KEYS["title"])
    palette = _parse(doc, ("palette",), v.mapping, data.get("palette"), "palette")
    for name, value in palette.items():
        _parse(doc, ("palette", name), v.name, name, "a colour name")
        _parse(doc, ("palette", name), v.hex_colour, value)
    fontreg.saved_since()  # (watch, serve: a font saved over since the last build is read anew)
    font_roles = dict(fontreg.DEFAULT_FONTS)
    fonts_in = _parse(doc, ("fonts",), v.mapping, data.get("fonts"), "fonts")
    for role, name in fonts_in.items():
        font_roles[_parse(doc, ("fonts", role), v.name, role, "a font role")] = \
            _parse(doc, ("fonts", role), v.name, name, "a font")
    fallback = _parse(doc, ("fallback_fonts",), v.names, data.get("fallback_fonts"), "fallback_fonts")
    for role, name in font_roles.items():
        where = doc.where(("fonts", role)) if role in fonts_in else Where(doc.path)
        fontreg.locate(name, ws.fonts, where=where, key=f"fonts.{role}" if role in fonts_in else "fonts")
    for i, name in enumerate(fallback):
        fontreg.locate(name, ws.fonts, where=doc.where(("fallback_fonts", i)), key=f"fallback_fonts.{i + 1}")
    text_fonts, text_fallbacks = translations.text_fonts(doc, font_roles, fallback, ws.fonts, frozenset(fonts_in))
    sourced = []
    for i, item in enumerate(_parse(doc, ("sourced",), v.sequence, data.get("sourced"), "sourced")):
        item = _keys(doc, item, ("sourced", i), SOURCED_KEYS, "a sourced component")
        sourced.append(Sourced(_one_line(doc, item.get("name"), ("sourced", i, "name"), "a component's name"),
                               _parse(doc, ("sourced", i, "count"), v.count, item.get("count", 1), v.SOURCED_COUNT),
                               str(item.get("note", "") or "")))
    draft_name = _parse(doc, ("draft_file",), v.name, data.get("draft_file", "draft.txt"), "draft_file")
    game = Game(
        slug=slug,
        title=_one_line(doc, _parse(doc, ("title",), v.label, data["title"], "title"), ("title",), "the game's title"),
        draft=v.draft_number(_parse(doc, ("draft",), v.label, data.get("draft", ""), "draft")),
        players=v.players_count(str(_parse(doc, ("players",), v.label, data.get("players", ""), "players"))),
        date=str(_parse(doc, ("date",), v.label, data.get("date", ""), "date")),
        palette=dict(palette),
        fonts=font_roles,
        fallback_fonts=fallback,
        decks=[],
        sourced=sourced,
        root=folder,
        draft_file=contained(draft_name, folder, "draft_file", doc.where(("draft_file",))),
        options={"subtitle": str(_parse(doc, ("subtitle",), v.label, data.get("subtitle", ""), "subtitle")),
                 "stamp": _parse(doc, ("stamp",), v.flag, data.get("stamp", True)),
                 "share_sheets": _parse(doc, ("share_sheets",), v.flag, data.get("share_sheets", False)),
                 "printer": str(_parse(doc, ("printer",), v.label, data["printer"], "printer")) if data.get("printer") else None,
                 "printer_at": doc.where(("printer",)),
                 "players_at": doc.where(("players",)),  # (a warning of players: 未定 starts there)
                 "paper": _parse(doc, ("paper",), v.paper, str(data["paper"])) if data.get("paper") else None,
                 "sheet": _sheet(ws, doc, data) if "sheet" in data else None,
                 "sheet_at": doc.where(("sheet",)),
                 "ink": ink.figures(data.get("ink"), lambda keypath, parse, value, key: _parse(doc, keypath, parse, value, key)),
                 "lint": lint.settings(data.get("lint"), lambda keypath, parse, value, key: _parse(doc, keypath, parse, value, key))},
        lang=translations.lang,
        languages=translations.languages,
        latin_gap=translations.latin_gap,
        translations=translations,
        text_fonts=text_fonts,
        named_fonts=frozenset(fonts_in) | frozenset(translations.fonts),
        text_fallback_fonts=text_fallbacks,
    )
    if game.draft_file.exists() and not game.draft_file.is_file():
        raise InputError("the draft is not a file", path=game.draft_file, expected="the draft as a text file")
    if "draft_file" in data and not game.draft_file.exists():
        where = doc.where(("draft_file",))
        texts = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in (".txt", ".md", ".text"))
        near = suggest(str(draft_name), texts)
        raise InputError(f"draft_file: {v.show(draft_name)} not found in {folder.name}/{near}", path=where.path,
                         line=where.line, column=where.column,
                         expected="the draft's file name, or no draft_file: for a game without a rulebook")
    decks = _Decks({path.stem: path for path in deck_files(game)},
                   lambda path, named: load_deck(ws, game, path, art, sizes, named), folder)
    game.decks += [deck for deck in map(decks, decks.ids) if deck is not None]
    check_deck_ids(game, ws.slugs())
    game.notes += _palette_near_misses(game, doc)
    game.notes += _worksheets_read_twice(game)
    copies = sum(d.count for d in game.decks)
    if copies > v.GAME_COPIES:  # before anything is drawn: ten decks of 10,000 ran for minutes
        raise InputError(f"the game's decks print {copies:,} copies together", path=f"data/{slug}/decks",
                         expected=f"at most {v.GAME_COPIES:,} copies in one game (the limit for copies per game)")
    return game


def _palette_near_misses(game: Game, doc: Source) -> list[str]:
    """A palette name of game.yaml one slip from a colour the decks' layouts draw with pnpgen's own
    value (``acent:`` for ``accent``): the layouts never read it, so the designer's colour would
    not print, and nothing else would say so. A name the pieces give as a value (``terrain:
    water``, which a template reads as ``colour(piece.terrain)``) is read, and so is no slip; nor
    is a name more than one slip away (``water`` is no ``white``)."""
    own = {name for d in game.decks if d.layout is not None for name, _ in d.layout.palette
           if name not in game.palette}  # drawn with the layout's colour: the game's palette lacks it
    read = {name for d in game.decks if d.layout is not None
            for name in [n for n, _ in d.layout.palette] + list(d.layout.game_colours)}
    given = {value for d in game.decks for p in d.pieces for value in p.values.values() if isinstance(value, str)}
    notes = []
    for name in (n for n in game.palette if n not in read and n not in given):
        near = [n for n in sorted(own) if _one_slip(name.lower(), n.lower())]
        if near:
            notes.append(f"{doc.where(('palette', name), key=True)}: palette colour {name!r} is read by no "
                         f"layout, which draw {near[0]!r} in pnpgen's own colour; did you mean {near[0]}?")
    return notes


def _one_slip(typed: str, meant: str) -> bool:
    """One letter left out, added, changed or two swapped (``acent``, ``accnet``, ``pannel``)."""
    if typed == meant or abs(len(typed) - len(meant)) > 1:
        return False
    head = next((i for i, (a, b) in enumerate(zip(typed, meant)) if a != b), min(len(typed), len(meant)))
    t, m = typed[head:], meant[head:]
    return t[1:] == m[1:] or t == m[1:] or t[1:] == m or (t[:2] == m[1::-1] and t[2:] == m[2:])


def _worksheets_read_twice(game: Game) -> list[str]:
    """A worksheet two decks read, one of them naming no ``sheet:`` (so reading the workbook's
    first): a workbook of a sheet per deck whose second deck forgot its sheet printed the first
    deck's cards twice, told only by the draft's counts."""
    read: dict[tuple[Path, str], list[Deck]] = {}
    for deck in game.decks:
        if deck.worksheet is not None and deck.pieces:
            read.setdefault((deck.pieces[0].where.path, deck.worksheet[1]), []).append(deck)
    notes = []
    for (path, worksheet), decks in read.items():
        for deck in decks:
            others = [d.id for d in decks if d is not deck]
            if others and deck.worksheet is not None and not deck.worksheet[2]:
                notes.append(f"{deck.worksheet[0]}: deck {deck.id!r} names no sheet: and reads {path.name}'s first "
                             f"worksheet, {worksheet}, which deck {others[0]!r} reads too (expected the worksheet "
                             f"meant: pieces: {{file: {path.name}, sheet: …}})")
    return notes


# Copies kept aside in decks/ (by hand, by patch or a merge): not decks, passed over with a note.
# Editors' and the system's own files (pnpgen/litter.py) are passed over without one.
ASIDE = re.compile(r".*\.(bak|orig|rej)", re.IGNORECASE)
DECK_ENDINGS = (".yaml", ".yml")


def is_deck_name(name: str) -> bool:
    """Is a file of decks/ named as a deck (``.yaml`` or ``.yml``, not hidden), editors' files and
    copies kept aside apart (``deck_files`` passes those over first)?"""
    return Path(name).suffix.lower() in DECK_ENDINGS and not name.startswith(".")


def deck_ids_in(folder: Path) -> list[str]:
    """The deck ids a game's decks/ folder holds, as ``deck_files`` reads them, without reading
    any: for what must know every deck of the workspace (Tabletop Simulator's CustomDeck ids)."""
    if not folder.is_dir():
        return []
    return sorted({p.stem for p in folder.iterdir()
                   if not is_litter(p.name) and not ASIDE.fullmatch(p.name) and is_deck_name(p.name)})


def deck_files(game: Game) -> list[Path]:
    """The game's deck files, ``decks/*.yaml`` and ``decks/*.yml``; a decks/ that is not a folder
    is an error (reading it as "no decks" would remove every deck's outputs)."""
    folder = game.root / "decks"
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise InputError("decks is not a folder", path=folder, expected="a folder decks/ holding one YAML file per deck")
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        if is_litter(path.name):
            continue
        if ASIDE.fullmatch(path.name):
            game.notes.append(f"data/{game.slug}/decks/{path.name}: passed over (a copy kept aside, not a deck)")
            continue
        if not is_deck_name(path.name):
            if path.name.startswith(".") and Path(path.name).suffix.lower() in DECK_ENDINGS:
                game.notes.append(f"data/{game.slug}/decks/{path.name}: passed over (a hidden file, not a deck: "
                                  f"name it {path.name.lstrip('.')} to build it)")
            continue
        bad = name_control_char(path.name)
        if bad:  # the deck id names its files, its objects in exports, and every message about it
            raise InputError(f"a deck file's name holds {bad}", path=folder,
                             expected=f"a deck file name of letters, digits, - and _: rename {shown_name(path.name)}")
        hidden = name_invisible_char(path.name)  # (a deck that looks like another: two decks, one name to see)
        if hidden:
            raise InputError(f"a deck file's name holds {hidden}", path=folder,
                             expected=f"a deck file name without invisible characters: rename {shown_invisible(path.name)} "
                                      f"to {INVISIBLE.sub('', path.name) or 'a name of letters'}")
        if path.stem in found:
            raise InputError(f"deck {path.stem!r} is also {found[path.stem].name}", path=path,
                             expected="one file per deck: remove or rename one of them")
        found[path.stem] = path
    return [found[k] for k in sorted(found)]


def _size(doc: Located, data: dict, shape: str) -> tuple[tuple[float, float], str]:
    if "format" in data and "size" in data:
        raise doc.error(("size",), "give either format or size, not both", "one of them", key=True)
    if "format" in data:
        if shape in SINGLE_SIZE_SHAPES:
            raise doc.error(("format",), f"a {shape} takes a size, not a card format", "'size: 40mm'")
        fmt = _parse(doc, ("format",), v.card_format, data["format"])
        return CARD_FORMATS[fmt], fmt
    if "size" not in data:
        raise doc.error((), "missing size", "'format: poker' or 'size: [63, 88]'")
    sizes = _parse(doc, ("size",), v.size, data["size"], shape, shape in SINGLE_SIZE_SHAPES)
    if shape in SINGLE_SIZE_SHAPES:  # orientation checked by the caller
        return bounding_size(shape, sizes[0], data.get("orientation", "pointy")), "custom"
    return sizes, "custom"


def _shape_options(doc: Located, data: dict, shape: str, trim: tuple[float, float],
                   outlined: bool = False) -> dict[str, Any]:
    """corner_radius, orientation and points, each checked against the shape and its size
    (``outlined``: a polygon layout gives the points the deck does not)."""
    w, h = trim
    out: dict[str, Any] = {}
    if "orientation" in data:
        out["orientation"] = _parse(doc, ("orientation",), v.orientation, data["orientation"], shape)
    if "corner_radius" in data:
        out["corner_radius"] = _parse(doc, ("corner_radius",), v.corner_radius, data["corner_radius"], shape, w, h)
    if "points" in data:
        out["points"] = _parse(doc, ("points",), v.points, data["points"], shape, w, h)
    elif shape == "polygon" and not outlined:
        raise doc.error((), "a polygon needs points", "'points: [[0, 0], [30, 0], [15, 26]]' in mm")
    return out


def _tuck_box(doc: Located, data: dict, shape: str, layout_raw: layouts.RawLayout | None,
              deck_named: tuckbox.DeckLookup | None) -> tuple[tuckbox.TuckBox, dict[str, tuckbox.Given]]:
    """A tuck box's figures: its layout's ``box:``, then the deck it holds (``deck:``: its cards'
    size and count), then the deck's own figures, key by key; and those figures as given."""
    if shape != "tuckbox":
        raise doc.error(("box",), f"a {shape} has no box", "'box:' only with 'shape: tuckbox' or 'layout: tuck-box'",
                        key=True)
    for key in ("format", "size"):
        if key in data:
            raise doc.error((key,), "a tuck box's size is its net's, drawn from its box:",
                            "'box: {cards: poker, count: 60}' (the cards it holds) instead", key=True)
    own = _keys(doc, data.get("box") or {}, ("box",), list(tuckbox.BOX_KEYS), "box")
    under = layout_raw.box if layout_raw is not None else {}
    given = {key: layouts.Origin(value, doc, ("box", key)) for key, value in own.items()}
    if "deck" in given and "decks" in given:
        raise given["decks"].error("box gives both deck and decks", "either 'deck: cards' or 'decks: [cards, extras]'",
                                   key=True)
    holder = next((k for layer in (given, under) for k in ("deck", "decks") if k in layer), None)
    held = {}
    if holder is not None:  # the deck or decks it holds, one of them (a deck's decks: over its layout's deck:)
        held = tuckbox.holding((given if holder in given else under)[holder], deck_named, doc.path.stem,
                               several=holder == "decks")
        under = {k: g for k, g in under.items() if k not in ("deck", "decks") or k == holder}
    figures = tuckbox.merged(tuckbox.merged(under, held), given)
    return tuckbox.tuck_box(figures), figures



def _not_a_token(doc: Located, data: dict[str, Any], raw: layouts.RawLayout | None, kind: str, key: str, what: str,
                 short: str, flat: str) -> NoReturn:
    """A paper die and a fold-over standee are tokens (docs/exports.md): a card or tile that says
    ``die:`` or ``stand_up:`` would leave Tabletop Simulator every copy a rolling cube or a standing
    figure, so the line that made it one is told: the deck file's, else the layout file's that
    says the kind (or the ``die:`` of a layout that says none, a card by default)."""
    expected = (f"'kind: token' for a {short} folded from paper, or no '{key}:' for a flat {kind} (Tabletop "
                f"Simulator then lays it flat, {flat})")
    if key in data or "kind" in data or raw is None or key not in raw.top:
        where = (key,) if key in data else ("kind",) if "kind" in data else ("layout",)
        told = {key: f"a {what} is a token, and this deck is a {kind}",
                "kind": f"{kind} on a deck whose layout is a {what} (its {key}:); a {what} is a token",
                "layout": f"{data.get('layout')} is a {what} (its {key}:), and this deck is a {kind}"}[where[0]]
        raise doc.error(where, told, expected)
    said, made = raw.top.get("kind"), raw.top[key]
    if said is not None and not said.doc.path.is_relative_to(layouts.builtin_folder()):
        raise said.error(f"{kind} on a layout that is a {what} (its {key}: at line {made.doc.where(made.keypath).line}"
                         + ("" if made.doc is said.doc else f" of {made.doc.path.name}") + f"); a {what} is a token",
                         expected.replace("'kind: token'", "'kind: token' here"))
    raise made.error(f"a {what} is a token, and layout {raw.name} is a {kind}"
                     + (" (it says no kind:, and a card is the default)" if said is None else ""),
                     expected.replace("'kind: token'", f"'kind: token' in {made.doc.path.name}"))


def _template(doc: Located, key: str, name: Any) -> str:
    """The template's name as written, checked to stay under templates/ (``faces.templates.
    find_template`` looks it up when the faces are rendered)."""
    name = _parse(doc, (key,), v.name, name, "a template name")
    where = doc.where((key,))
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise InputError(f"template {v.show(name)} is outside templates/", path=where.path, line=where.line,
                         column=where.column, key=key, expected="a name under templates/ without '..'")
    return name


def _cell_keys(rows: Source, keypath: tuple, raw: dict) -> dict[str, str]:
    """The header and column of each field a spreadsheet row sets (``text.en (column G)``)."""
    keys = {key: rows.key_of(keypath + (key,)) for key in raw} if isinstance(rows, SheetDoc) else {}
    return {key: name for key, name in keys.items() if name}


def _line_column(where: Where) -> tuple[int | None, int | None]:
    return where.line, where.column


def _fields(doc: Located, data: dict) -> dict[str, str]:
    """The deck's own fields' types; ``{type: image, placeholder: false}``: an image field that, empty,
    is no art to come (a token's, as ``pnpgen layout export`` writes it; ``optional_fields``)."""
    fields = _parse(doc, ("fields",), v.mapping, data.get("fields"), "fields")
    types = {}
    for name, ftype in fields.items():
        _parse(doc, ("fields", name), v.name, name, "a field name")
        if name in RESERVED_FIELDS:
            raise doc.error(("fields", name), f"{name!r} is set by pnpgen for every piece",
                            "another field name (" + ", ".join(RESERVED_FIELDS) + " are reserved)", key=True)
        ftype = _parse(doc, ("fields", name), v.field_spec, ftype)
        types[name] = _parse(doc, ("fields", name), v.choice, ftype, FIELD_TYPES, "field type")
    return types


class _Decks:
    """The game's decks by id, each loaded once, in file-name order or sooner when a tuck box's
    ``box: {deck: …}`` names one further on (None while it loads: two boxes holding each other)."""

    def __init__(self, files: dict[str, Path], load: Callable[[Path, _Decks], Deck], folder: Path):
        self.files, self.load, self.folder = files, load, folder
        self.loaded: dict[str, Deck | None] = {}

    @property
    def ids(self) -> list[str]:
        return list(self.files)

    def __call__(self, deck_id: str) -> Deck | None:
        if deck_id not in self.loaded:
            path = self.files[deck_id]  # (KeyError: no such deck)
            contained(path.relative_to(self.folder), self.folder, "decks", path)  # a link out is never read
            self.loaded[deck_id] = None
            self.loaded[deck_id] = self.load(path, self)
        return self.loaded[deck_id]


EMPTY_DECK = "'name:', 'front:' and 'pieces:' — a save caught half-way? the next save builds it"


def load_deck(ws: Workspace, game: Game, path: Path, art: bool = True, sizes: Sizes | None = None,
              deck_named: tuckbox.DeckLookup | None = None) -> Deck:
    pictures = ArtFolder(game.root, sizes=sizes) if art else None  # one for the deck: its folder resolved once
    doc = load_yaml(path)
    if game.translations is not None:
        game.translations.resolve(doc)
    data = _keys(doc, doc.data, (), DECK_KEYS, "a deck file")
    layout_raw = geo = None
    if "layout" in data:
        for key in ("front", "back"):
            if key in data:
                raise doc.error((key,), f"a deck with a layout takes no {key} template", "either 'layout:' or "
                                "'front:'/'back:' templates (pnpgen layout export writes a layout as templates)",
                                key=True)
        layout_raw = layouts.resolve(ws.root, data["layout"], doc)
        geo = layouts.geometry(layout_raw)
    if not data:  # (an editor's save caught between emptying the file and writing it: 'missing name' misleads)
        raise doc.error((), "the deck file is empty", EMPTY_DECK)
    for required in ("name", "front", "pieces"):
        if required not in data and not (required == "front" and layout_raw is not None):
            raise doc.error((), f"missing key {required!r}", f"'{required}:' in the deck file" + (
                PIECES_HINT if required == "pieces" else "") + (" or 'layout: card-poker'" if required == "front"
                                                                 else ""))
    kind = _parse(doc, ("kind",), v.choice, data.get("kind", geo.kind if geo else "card"), KINDS, "kind")
    shape = _parse(doc, ("shape",), v.choice, data["shape"], SHAPES, "shape") if "shape" in data else \
        geo.shape if geo else "rect"
    if "orientation" in data:
        _parse(doc, ("orientation",), v.orientation, data["orientation"], shape)
    box, figures = _tuck_box(doc, data, shape, layout_raw, deck_named) if shape == "tuckbox" or "box" in data \
        else (None, {})
    if box is not None:
        trim, fmt = box.size, "custom"
    elif geo is not None and not ("format" in data or "size" in data):
        trim, fmt = _layout_size(doc, geo, shape, data)
    else:
        trim, fmt = _size(doc, data, shape)
    fields = (layout_raw and layouts.fields(layout_raw) or {}) | _fields(doc, data)
    allowed = list(fields) + ["count"]
    defaults = _keys(doc, data.get("defaults") or {}, ("defaults",), list(fields), "defaults")
    defaults = {k: field_value(doc, game, fields[k], x, ("defaults", k), k, pictures) for k, x in defaults.items()}
    options = _shape_options(doc, data, shape, trim, geo is not None and "points" in geo.options)
    if box is not None:
        options["box"] = box.frozen()
    given = [key for key in ("size", "format", "box") if key in data]
    if geo is not None:
        _layout_shape_options(geo, shape, trim, options, doc.where((given[0],)) if given else None)
    template_options = _parse(doc, ("options",), v.mapping, data.get("options"), "options")
    for key in template_options:
        if key in SHAPE_KEYS:
            raise doc.error(("options", key), f"{key} is a shape key", f"'{key}:' at the top of the deck file",
                            key=True)
    options.update(template_options)
    deck = Deck(
        id=path.stem,
        name=_one_line(doc, data["name"], ("name",), "a deck's name"),
        kind=kind,
        shape=shape,
        trim_mm=trim,
        format=fmt,
        front=_template(doc, "front", data["front"]) if layout_raw is None else "",
        back=_template(doc, "back", data["back"]) if data.get("back") else None,
        template_where={side: doc.where((side,)) for side in ("front", "back") if data.get(side)},
        layout_where=doc.where(("layout",)) if layout_raw is not None else None,
        name_where=doc.where(("name",)),
        pieces=[],
        source=path,
        options=options,
    )
    if "sheet" in data:
        deck.sheet, deck.sheet_where = _sheet(ws, doc, data), doc.where(("sheet",))
    if "die" in data:  # a paper d6 a template draws: its faces' boxes (a layout's: its own die:)
        deck.die = _parse(doc, ("die",), v.die_faces, data["die"], *trim)
    if "stand_up" in data:  # a fold-over standee a template draws: its figure's box (a layout's: its own stand_up:)
        deck.stand_up = _parse(doc, ("stand_up",), v.stand_up_box, data["stand_up"], *trim)
    if given:
        deck.size_where = doc.where((given[0],))
    if "bleed" in data:  # the deck's own bleed over --bleed: a punchboard's 0, a board's 5 mm
        deck.bleed_mm = _parse(doc, ("bleed",), v.bleed_option, data["bleed"])
        _parse(doc, ("bleed",), v.bleed_fits, deck.bleed_mm, *trim, "bleed:")
    if "lint" in data:  # the deck's own figures, over the game's (a design that means to reach the edge)
        deck.lint = lint.settings(data["lint"], lambda keypath, parse, value, key: _parse(doc, keypath, parse, value, key),
                                  base=game.options.get("lint"))
    if layout_raw is not None:
        deck.layout = layouts.finish(layout_raw, layouts.frame(trim, options), shape, game.palette,
                                      sorted(game.text_fonts or game.fonts), deck.size_where, game.languages, doc.path)
        deck.front = layout_template(deck.id, "front")
        deck.back = layout_template(deck.id, "back") if deck.layout.back is not None else None
    if deck.paper_die is not None and kind != "token":
        _not_a_token(doc, data, layout_raw, kind, "die", "paper die", "die", "as its net")
    if deck.standee is not None and kind != "token":
        _not_a_token(doc, data, layout_raw, kind, "stand_up", "fold-over standee", "standee", "the whole strip")
    pieces = data["pieces"]
    rows: Source = doc  # where the pieces are written: this YAML file, or a spreadsheet (sheets.py)
    if isinstance(pieces, dict):
        rows, pieces = read_pieces(doc, path, game.root, fields)
        if rows.hidden:  # as a hidden sheet is passed over, a hidden row may be taken for one left out
            one = len(rows.hidden) == 1
            game.notes.append(f"{rows.path}:{rows.hidden[0]}: {rows_said(rows.hidden)}, hidden in the office program, "
                              f"{'is read as a piece' if one else 'are read as pieces'} all the same (count: 0 keeps "
                              "a piece and prints none; delete a row to drop its piece)")
        if rows.worksheet is not None:
            deck.worksheet = (doc.where(("pieces", "file")), rows.worksheet, rows.sheet is not None)
        if game.translations is not None:
            pieces = game.translations.resolve_rows(rows, pieces, fields)
    if isinstance(pieces, str) and Path(pieces).suffix.lower() in SUFFIXES:  # pieces: units.csv
        raise doc.error(("pieces",), f"pieces names the spreadsheet {pieces!r} without 'file:'",
                        f"pieces: {{file: {pieces}}}")
    if not isinstance(pieces, list) or not pieces:
        raise doc.error(("pieces",), "pieces must be a non-empty list",
                        "'- name: …' entries or {file: cards.csv}" + PIECES_HINT)
    if layout_raw is not None and isinstance(pieces, list):
        _misspelt_reads(layout_raw, pieces, defaults, allowed)
    label_field = _parse(doc, ("label",), v.choice, data["label"], list(fields), "label field") \
        if "label" in data else None
    shown = shown_fields(deck, game.lang)
    optional = optional_fields(deck, data, game.lang)
    count_example = "'count: 3'" if rows is doc else "3 in the count column"  # the row and column lead the message
    missing: list[ArtNotFound] = []  # art files the pieces name that are not there: told together
    sole = (deck.name or deck.id) if len(pieces) == 1 else ""  # a sole piece without a name: named as its deck
    for i, raw in enumerate(pieces):
        keypath = ("pieces", i)
        raw = _keys(rows, raw, keypath, allowed, "the header row" if rows is not doc else f"piece {i + 1}",
                    NEW_FIELD if layout_raw is None else NEW_FIELD_LAYOUT.replace("{layout}", _layout_name(data)))
        values = {name: None for name in fields}
        values.update(defaults)
        for key, value in raw.items():
            if key != "count":
                try:
                    values[key] = field_value(rows, game, fields[key], value, keypath + (key,), key, pictures)
                except ArtNotFound as e:
                    missing.append(e)
        refuse_track_lengths(rows, keypath, deck, values, raw, doc)
        piece = Piece(index=i + 1, values=values, where=rows.where(keypath),
                      count=_parse(rows, keypath + ("count",), v.count, raw.get("count", 1), v.COUNT, count_example),
                      label_field=label_field, deck_label=sole,
                      field_lines={key: _line_column(rows.where(keypath + (key,))) for key in raw},
                      field_keys={} if rows is doc else _cell_keys(rows, keypath, raw))
        deck.pieces.append(piece)
        listed = len(deck.placeholders)
        for key, value in values.items() if piece.count else ():  # a parked piece prints nothing: nothing open
            where = rows.where(keypath + (key,)) if key in raw else doc.where(("defaults", key))
            collect_placeholders(deck, where, key, value, piece)
            cell = rows.where(keypath + (key,)) if key in raw or rows is not doc else piece.where  # (an empty cell's own)
            if fields[key] == "image" and not (value or "").strip() and key not in optional:
                deck.placeholders.append((cell, placeholder_field(piece, key), NO_ART_YET))
            elif key in shown and (value is None or str(value).strip() == ""):
                deck.placeholders.append((cell, placeholder_field(piece, key), EMPTY_SHOWN))
        piece.shows_placeholder = len(deck.placeholders) > listed
    if missing:
        raise ArtNotFound.together(missing)
    if "unique" in data:  # a field no two pieces share: 番号 on scenario cards
        refuse_repeats(rows, doc, _parse(doc, ("unique",), v.choice, data["unique"], list(fields), "unique field"),
                       deck.pieces)
    # parked pieces print nothing: no translation of theirs is missing (a spreadsheet's: their rows)
    parked = {(rows.path, line, column if rows is doc else None) for piece in deck.pieces if piece.count == 0
              for line, column in piece.field_lines.values()}
    if game.translations is not None and parked:
        game.translations.missing = [m for m in game.translations.missing if (
            m.where.path, m.where.line, m.where.column if rows is doc else None) not in parked]
    if game.translations is not None and rows is doc:  # Japanese left plain among translated texts
        texts = [(doc.where(("name",)), "name", deck.name)]
        texts += [(doc.where(("defaults", k)), f"defaults.{k}", x) for k, x in defaults.items() if fields[k] == "text"]
        texts += [(doc.where(("pieces", i, k)), f"pieces.{i + 1}.{k}", piece.values[k])
                  for i, (raw, piece) in enumerate(zip(pieces, deck.pieces)) if isinstance(raw, dict) and piece.count
                  for k in raw if k != "count" and fields.get(k) == "text"]
        texts += [(doc.where(("pieces", i, k, *at)), f"pieces.{i + 1}.{k}" + "".join(f".{n + 1}" for n in at), x)
                  for i, (raw, piece) in enumerate(zip(pieces, deck.pieces)) if isinstance(raw, dict) and piece.count
                  for k in raw if fields.get(k) == "list" for at, x in game.translations.list_texts(piece.values[k])]
        game.translations.plain_texts(path, texts)
    if rows is not doc:
        refuse_totals_row(rows, deck)
    game.notes += tuckbox.miscounted(deck, figures, [k for k, kind in fields.items() if kind == "text"])
    copies = sum(p.count for p in deck.pieces)
    if copies > v.COUNT[1]:  # each copy is a page of the shop file: a hundred thousand took minutes
        raise doc.error(("pieces",), f"the deck prints {copies:,} copies",
                        f"at most {v.COUNT[1]:,} copies in one deck (split it into several decks)")
    return deck


def layout_template(deck_id: str, side: str) -> str:
    """The template name a deck's layout side is rendered under (faces/layouts.py compiles it)."""
    return f"{layouts.TEMPLATE_PREFIX}/{deck_id}/{side}"


def _layout_size(doc: Located, geo: layouts.Geometry, shape: str, data: dict) -> tuple[tuple[float, float], str]:
    """The trim a layout gives a deck that names no size of its own."""
    if geo.format is not None:
        if shape in SINGLE_SIZE_SHAPES:
            raise geo.where["format"].error(f"a {shape} takes a size, not a card format", "'size: 40mm'")
        return CARD_FORMATS[geo.format], geo.format
    if geo.size is None:
        raise geo.no_size()
    sizes = geo.size
    if shape != geo.shape and "size" not in geo.where:  # a tuck box's net, its size from its box: figures
        raise doc.error(("shape",), f"layout {geo.name} draws a tuck box's net, which a {shape} cannot be",
                        f"no 'shape:' with layout {geo.name} (it is a tuckbox), or a layout of a {shape}", key=True)
    if shape != geo.shape:
        sizes = geo.where["size"].parse(v.size, shape, shape in SINGLE_SIZE_SHAPES)
    if shape in SINGLE_SIZE_SHAPES:
        orientation = data.get("orientation", geo.options.get("orientation", "pointy"))
        return bounding_size(shape, sizes[0], orientation), "custom"
    return (sizes[0], sizes[1]), "custom"


def _layout_shape_options(geo: layouts.Geometry, shape: str, trim: tuple[float, float], options: dict,
                          size_where: Where | None) -> None:
    """orientation, corner_radius and a polygon's points from the layout, where the deck gives
    none of its own (``size_where``: the deck's own size, told when the layout's outline is past it)."""
    if "orientation" in geo.options and "orientation" not in options and shape in v.ORIENTED_SHAPES:
        options["orientation"] = geo.options["orientation"]
    if "corner_radius" in geo.options and "corner_radius" not in options and shape == "rounded":
        options["corner_radius"] = geo.where["corner_radius"].parse(v.corner_radius, shape, *trim)
    if "points" in geo.options and "points" not in options and shape == "polygon":
        options["points"] = layouts.outline(geo, trim, size_where)


def check_bleed(game: Game, bleed_mm: float) -> None:
    """The build's bleed against every deck's pieces (the bleed is a build option, the size data);
    a deck with a ``bleed:`` of its own was checked against it as it loaded."""
    for deck in game.decks:
        if deck.bleed_mm is not None:
            continue
        try:
            v.bleed_fits(bleed_mm, *deck.trim_mm)
        except v.Invalid as e:
            where = deck.size_where or Where(deck.source)
            raise InputError(e.message, path=where.path, line=where.line, column=where.column,
                             key="format" if deck.format != "custom" else "size", expected=e.expected) from None
