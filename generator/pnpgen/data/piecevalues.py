"""A piece's values as its deck's fields declare them: each checked against its type (text,
number, colour, image …), the placeholders (未定) among them collected, the fields a layout
prints 未定 for or may leave empty, and a sheet's totals row told apart from a piece."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.art import ArtFileRefused, ArtFolder
from pnpgen.data.boxoptions import COLOUR_OPTIONS, TRACK_MOST
from pnpgen.data.markup import colour_names
from pnpgen.data.model import SAID_LABEL, Deck, FieldText, Game, Piece, is_placeholder
from pnpgen.data.spreadsheets import SheetDoc
from pnpgen.data.yamlhint import quoted
from pnpgen.data.yamlsrc import Located
from pnpgen.errors import InputError, suggest
from pnpgen.safetext import clipped

Source = Located | SheetDoc  # where values come from: a YAML file or a spreadsheet

# what each field type takes (made once, not as eight functions for each of a deck's values)
_OK: dict[str, Callable[[Any, Game], bool]] = {
    "text": lambda x, game: isinstance(x, (str, int, float)) and not isinstance(x, bool),
    "int": lambda x, game: isinstance(x, int) and not isinstance(x, bool),
    "number": lambda x, game: isinstance(x, (int, float)) and not isinstance(x, bool),
    "colour": lambda x, game: isinstance(x, str) and (x in game.palette or is_placeholder(x) or v.is_hex_colour(x)),
    "bool": lambda x, game: isinstance(x, bool),
    "list": lambda x, game: isinstance(x, list),
    "map": lambda x, game: isinstance(x, dict),
    "image": lambda x, game: isinstance(x, str),
}


def refuse_yes_no(doc: Source, keypath: tuple, value: Any) -> None:
    """A text read as yes/no — a card titled No, a text Yes!, a game titled NO in YAML; TRUE typed in
    a sheet's cell, which the office program keeps as a yes/no value — said, with the text to write."""
    if not isinstance(value, bool):
        return
    word = getattr(doc, "words", {}).get(keypath)
    if word is not None:
        raise doc.error(keypath, f"YAML reads {word} as the yes/no value {str(value).lower()}, not as text",
                        f"the text in quotes: {keypath[-1]}: {quoted(word)}")
    if isinstance(doc, SheetDoc):
        raise doc.error(keypath, f"the cell holds the yes/no value {str(value).upper()}, not text (the office program "
                        f"takes {str(value).upper()} typed in a cell for one)",
                        f"'{str(value).upper()} typed with an apostrophe before it, which keeps it as text")


def field_value(doc: Source, game: Game, ftype: str, value: Any, keypath: tuple, field: str,
                art: ArtFolder | None) -> Any:
    """Check one field value against its declared type; text becomes FieldText. An ``image``
    value's file is found and measured in ``art`` (None: not opened, for ``pnpgen list``)."""
    ok = _OK[ftype]
    if ftype == "image" and isinstance(value, str) and game.translations is not None:
        value = game.translations.shared_picture(value, lambda: doc.where(keypath))
    if value is None or (is_placeholder(value) and ftype != "colour"):
        return FieldText(value, field) if isinstance(value, str) else value
    if ftype in ("int", "number"):  # "3" and ３ are numbers as typed (quoted, Japanese input)
        read = v.whole(value) if ftype == "int" else v.decimal(value)
        value = value if read is None else read
    word = getattr(doc, "words", {}).get(keypath)
    if ftype == "text":
        refuse_yes_no(doc, keypath, value)
    if ftype == "text" and isinstance(value, (int, float)) and word is not None:
        value = word  # +2, 007, 1.50 as written (they printed 2, 7, 1.5)
    if not ok(value, game):
        expected = {
            "colour": "a palette colour (" + (", ".join(colour_names(game.palette)) or "none yet: palette: in game.yaml")
                      + (") or '#rrggbb'" if isinstance(doc, SheetDoc) else ") or '#rrggbb' in quotes"),  # (a cell needs none)
            "text": "text", "int": "a whole number", "number": "a number", "bool": "true or false",
            "list": "a list [..]", "map": "a mapping {key: value}", "image": "a file name in art/, e.g. dragon.png",
        }[ftype]
        near = suggest(value, colour_names(game.palette)) if ftype == "colour" and isinstance(value, str) else ""
        grouped = v.thousands(value) if ftype in ("int", "number") and isinstance(doc, SheetDoc) else None
        if grouped is not None:  # a Google Sheets CSV saves a number formatted 1,000 as it shows it (trial79)
            raise doc.error(keypath, f"{v.show(value)} is a number written with a thousands comma, not read as one",
                            f"{grouped}, the digits alone: the column given a format without the comma "
                            "(Google Sheets: Format > Number > Automatic) and the CSV saved again, or the field "
                            "declared text, which prints it as written")
        if ftype == "list" and isinstance(value, str) and value.strip().startswith("［"):  # as a Japanese IME types it
            half = re.sub(r"\s*[、，,]\s*", ", ", value.strip().replace("［", "[").replace("］", "]"))
            expected += f" with half-width brackets and ', ' between its items: {half}"
        elif ftype == "list" and isinstance(value, str) and value.strip():  # "vp, lamp" as a spreadsheet cell holds it
            named = re.findall(r"[{｛]\s*([^{}｛｝\s]+)\s*[}｝]", value)  # {coin}{vp}, as a card's text writes icons
            apart = r"\s*[、，,]\s*" if re.search(r"[、，,]", value) else r"\s+"  # coin vp: two items, not one
            body = re.sub(r"^\[\s*|\s*\]$", "", value.strip())  # [vp, coin: one bracket left out, not two to add
            items = ", ".join(named or [x for x in re.split(apart, body) if x])
            expected += f" in brackets, ', ' between its items: [{items}]"
        elif ftype == "list" and isinstance(value, dict) and value and set(value) <= set(game.languages) \
                and all(isinstance(x, list) and x for x in value.values()):  # {ja: [地形, …], en: [Terrain, …]}
            first = ", ".join(f"{lang}: {items[0]}" for lang, items in value.items())
            expected += f", translated item by item, each item a text by language: [{{{first}}}, …]"
        raise doc.error(keypath, f"{v.show(value)} is not a valid {ftype}{near}", expected)
    bad = v.not_finite(value) if ftype in ("number", "list", "map") else None
    if bad is not None:  # (the preview's JSON cannot hold one: its page stopped in a 500)
        raise doc.error(keypath, f"{v.show(value)} is not a valid {ftype}: it holds {'NaN' if bad != bad else 'infinity'} "
                        "(YAML reads .nan, .inf and numbers past 1e308 so), which no card can print",
                        "a number, e.g. 2.5, or text in quotes: '.nan'")
    if ftype == "image" and value.strip() and art is not None:
        try:
            art.info(value)
        except InputError as e:  # say it at the piece's file:line (YAML or spreadsheet)
            said = doc.error(keypath, e.message, e.expected)  # (a picture not there: the deck's others told with it)
            raise (ArtFileRefused.like(said) if isinstance(e, ArtFileRefused) else said) from None
    if ftype == "list":  # an icon name in a list (icons: [star]) names its field when it is wrong
        return [FieldText(x, field) if isinstance(x, str) else x for x in value]
    return FieldText(str(value), field) if ftype == "text" else value


def written_elsewhere(game: Game, written: Any) -> dict[str, dict[str, Any]]:
    """A YAML piece's fields (or a deck's ``defaults:``) as written, as each of the game's other
    editions reads them before checking them (language → field → value; none kept, none): only
    those holding a translation or a list, every other reads the same there (but for a
    placeholder's word, which no change report tells)."""
    held = {k: x for k, x in written.items() if isinstance(x, (dict, list))} if isinstance(written, dict) else {}
    if not held or game.translations is None:
        return {}
    return {lang: {k: game.translations.in_edition(x, lang) for k, x in held.items()}
            for lang in game.translations.other_editions}


def read_elsewhere(doc: Source, game: Game, fields: dict[str, str], keypath: tuple,
                   written: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``written`` (language → field → value) checked as each edition's load checks it
    (``field_value``, no art file opened). An edition a value of which does not read (a number
    translated into a word) is left out, named in ``Translations.unread``: its own build stops there."""
    out: dict[str, dict[str, Any]] = {}
    for lang, texts in written.items():
        try:
            out[lang] = {k: field_value(doc, game, fields[k], x, keypath + (k,), k, None)
                         for k, x in texts.items() if k in fields}
        except InputError:
            if game.translations is not None:
                game.translations.unread.add(lang)
    return out


def read_otherwise(values: dict[str, Any], own: dict[str, Any], read: dict[str, dict[str, Any]],
                   defaults: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The piece's fields each other edition reads otherwise than this one (``Piece.editions``),
    in the order of its fields: its own (``read``), else its deck's defaults' where it sets
    none (``own``: the fields it sets)."""
    out: dict[str, dict[str, Any]] = {}
    for lang in dict.fromkeys([*read, *defaults]):
        there = {k: x for k, x in defaults.get(lang, {}).items() if k not in own} | read.get(lang, {})
        differ = {k: there[k] for k in values if k in there and there[k] != values[k]}
        if differ:
            out[lang] = differ
    return out


def rows_said(rows: list[int]) -> str:
    """``row 3``, ``rows 3, 7–9``: sheet rows, runs of neighbours joined."""
    runs: list[list[int]] = []
    for r in rows:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    said = ", ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)
    return f"row {said}" if len(rows) == 1 else f"rows {said}"


TOTAL_WORDS = {"total", "totals", "grand total", "sum", "合計", "総計", "計"}  # a sheet's totals row


def refuse_totals_row(rows: Source, deck: Deck) -> None:
    """A sheet's last row named Total (合計…, in any of its cells) or holding nothing but its count
    (Excel's AutoSum under the column), whose count is the sum of the rows above, is the sheet's
    totals row, not a piece: it would print that many copies of a card called Total, or untitled."""
    *above, last = deck.pieces
    own = [k for k in last.field_lines if k != "count"]  # the cells the row fills besides its count
    word = next((str(last.values.get(k) or "").strip() for k in own
                 if str(last.values.get(k) or "").strip().casefold() in TOTAL_WORDS), None)
    bare = not own and any(k != "count" for p in above for k in p.field_lines)  # (not a sheet of counts alone)
    if len(above) >= 2 and "count" in last.field_lines and (word or bare) and last.count == sum(p.count for p in above):
        row = f"the row of {word!r} with the count" if word else "the last row, with nothing but the count"
        said = (f"a piece named {word!r}" if word == last.label else f"a piece showing {word!r}") if word \
            else "an untitled piece"
        raise rows.error(("pieces", len(above), "count"), f"{row} {last.count} "
                         "(the sum of the rows above) is the sheet's totals row, not a piece: it would print "
                         f"{last.count} copies of {said}",
                         "one row per piece: delete the totals row, or keep it on another worksheet")


def _drawn_boxes(deck: Deck, lang: str | None, types: tuple[str, ...] | None = None) -> list:
    """The layout's boxes of ``types`` (None: of every type) the ``lang`` edition draws (a box with
    ``lang:`` only in those; ``lang`` None: every box)."""
    if deck.layout is None:
        return []
    sides = [deck.layout.front] + ([deck.layout.back] if deck.layout.back is not None else [])
    return [box for side in sides for box in side.boxes
            if (types is None or box.type in types) and (lang is None or not box.get("lang") or lang in box.get("lang"))]


def shown_fields(deck: Deck, lang: str) -> set[str]:
    """The piece fields a deck's layout prints 未定 for when they are empty."""
    return {box.get("field") for box in _drawn_boxes(deck, lang, ("text", "icons", "track"))
            if box.get("placeholder") and box.get("field")}


def painted_fields(deck: Deck, lang: str) -> set[str]:
    """The colour fields a deck's layout paints with (``piece.<field>`` as a box's ``fill``,
    ``stroke``, ``colour`` or a track's ``first``: every colour option, ``COLOUR_OPTIONS``; or a
    side's ``background``): left empty, each is the neutral grey of an open colour (``OPEN_COLOUR``),
    a tile's edge or a player's colour still to be chosen."""
    if deck.layout is None:
        return set()
    specs = [deck.layout.front.background, deck.layout.back.background if deck.layout.back is not None else None]
    specs += [dict(box.options).get(key) for box in _drawn_boxes(deck, lang) for key in COLOUR_OPTIONS]
    return {spec[6:] for spec in specs if isinstance(spec, str) and spec.startswith("piece.")}


def optional_fields(deck: Deck, data: dict, lang: str) -> set[str]:
    """Fields only a layout's ``placeholder: false`` boxes read (art a token may do without), or
    only boxes this edition does not draw, or image fields the deck says ``placeholder: false``
    of: empty, they are no placeholder."""
    read = ("text", "image", "icons", "track")
    placeheld = {box.get("field") for box in _drawn_boxes(deck, lang, read) if box.get("placeholder")}
    own: dict = data["fields"] if isinstance(data.get("fields"), dict) else {}
    return ({box.get("field") for box in _drawn_boxes(deck, None, read)} - placeheld - set(own)) | unplaceheld(data)


def unplaceheld(data: dict) -> set[str]:
    """The image fields a deck file's ``fields:`` says ``{type: image, placeholder: false}`` of."""
    own: dict = data["fields"] if isinstance(data.get("fields"), dict) else {}
    return {name for name, spec in own.items() if isinstance(spec, dict) and spec.get("placeholder") is False}


def refuse_track_lengths(doc: Source, keypath: tuple, deck: Deck, values: dict, written: dict, defaults: Source) -> None:
    """A piece's number that a layout's track box runs to (``field: hp``) gives it at least one
    space and at most TRACK_MOST: told at the value, with the box, not as the face's drawing."""
    for box in _drawn_boxes(deck, None, ("track",)):
        field, start = box.get("field"), box.get("start")
        value = values.get(field) if field is not None else None
        if isinstance(value, int) and not 1 <= value - start + 1 <= TRACK_MOST:
            at, said = (doc, keypath + (field,)) if field in written else (defaults, ("defaults", field))
            raise at.error(said, f"{value} gives box {box.name}'s track {start}…{value}, "
                            f"{max(value - start + 1, 0):,} spaces",
                            f"a whole number from {start} to {start + TRACK_MOST - 1:,}: the track's last space's number")


def refuse_unprintable_text(doc: Source, keypath: tuple, deck: Deck, values: dict, written: dict,
                            defaults: Source, game: Game) -> None:
    """A piece's value that a layout's text box prints is a text or a number: a list or a mapping
    there printed as Python writes one (``['あ', 'い']``, ``{'a': 1}``). A ``vertical`` box sets a
    list's items a column each, so each item is a text or a number (or one by language:
    ``{ja: …, en: …}``), not a list, a mapping, true/false or nothing (printed ``True``, ``None``)."""
    for box in _drawn_boxes(deck, None, ("text",)):
        field = box.get("field")
        value = values.get(field) if field is not None else None
        at, said = (doc, keypath + (field,)) if field in written else (defaults, ("defaults", field))
        if box.get("vertical") and isinstance(value, list):
            bad = next(((n, x) for n, x in enumerate(value) if not _item_text(x, game)), None)
            if bad is not None:
                raise at.error(said + (bad[0],), f"item {bad[0] + 1}, {v.show(bad[1])}, is {v.type_name(bad[1])}: box "
                               f"{box.name} sets the list's items a column each, as text",
                               "a text or a number for each item, e.g. [いっせーの, 10まで数えて]")
        elif isinstance(value, (list, dict)) and not box.get("vertical"):
            raise at.error(said, f"{v.show(value)} is {v.type_name(value)}, and box {box.name} prints its field as "
                           "text: the card would show it as Python writes one, brackets, quotes and all",
                           "a text or a number" + (f"; a list's items a column each: 'vertical: true' on box {box.name}"
                                                   if isinstance(value, list) else ""))


def _item_text(item: Any, game: Game) -> bool:
    """A vertical box's list item it can set: a text, a number, or one by language ({ja: …, en: …})."""
    if isinstance(item, dict):
        return bool(item) and set(item) <= set(game.languages) and all(_item_text(x, game) for x in item.values())
    return isinstance(item, (str, int, float)) and not isinstance(item, bool)


def placeholder_field(piece: Piece, key: str) -> str:
    """A piece's open field as proof.txt names it: ``塔 #1.cost``, by the piece's name, but by its
    place when the name is itself a placeholder (``#1.name``: 「未定（アリス01…）.name：未定（アリス01…）」
    said the 未定 twice, and for a deck's sole piece without a name: ``依頼カード #1.vp``, not
    the deck's name twice); a name longer than a message says (``Piece.said``) cut with an ellipsis."""
    named = piece.own_name and not is_placeholder(piece.own_name)
    return f"{clipped(piece.own_name, SAID_LABEL) if named else f'#{piece.index}'}.{key}"  # (a paragraph as a title: cut)


def collect_placeholders(out: list, where, key: str, value: Any, piece: Piece) -> None:
    """The placeholders (未定) of a piece's field ``key``, at ``where``, added to ``out``."""
    if is_placeholder(value):
        out.append((where, placeholder_field(piece, key), str(value)))
    elif isinstance(value, dict):
        for k, v in value.items():
            collect_placeholders(out, where, f"{key}.{k}", v, piece)
    elif isinstance(value, list):
        for k, v in enumerate(value):
            collect_placeholders(out, where, f"{key}.{k + 1}", v, piece)


# the kinds of field a piece that leaves one out prints nothing of (an image prints 画像未定, and is listed)
_LEFT_OUT_KINDS = ("text", "int", "number", "colour")


def left_out_fields(deck: Deck, pieces: list, fields: dict, defaults: dict) -> list[str]:
    """A warning for each piece of a template's deck that leaves out a field the deck's other
    pieces all set, with no default for it (a card's attack forgotten: its medallion printed empty,
    and nothing said so). A field at least ten pieces set and at most one in ten leaves out is a
    slip; one that more leave out is optional (a flavour line), and a small deck's one card without
    it is meant (populous's オールマイティ has no number), not told. A piece that writes the key with
    no value (``attack:``) leaves it empty on purpose."""
    notes: list[str] = []
    live = [(raw, piece) for raw, piece in zip(pieces, deck.pieces) if isinstance(raw, dict) and piece.count]
    for name, kind in fields.items():
        if kind not in _LEFT_OUT_KINDS or name in defaults:
            continue
        lacking = [piece for raw, piece in live if name not in raw]
        setting = len(live) - len(lacking)
        if not lacking or setting < 10 or len(lacking) > setting // 10:
            continue
        for piece in lacking:
            notes.append(f"{piece.where}: deck {deck.id!r} piece {piece.index} ({piece.said}) sets no {name}, which the "
                         f"deck's other {setting} pieces set and defaults: does not give, so its template gets none (printed empty) "
                         f"(expected '{name}: …' on the piece, or {name}: in the deck's defaults: for every piece "
                         f"that leaves it out, or '{name}:' with no value for none on purpose)")
    return notes
