"""A YAML mapping's keys checked against those it may have, and its values parsed where they are
written: a mistake told at its file:line:column, with the near miss, the column in a sheet's own
words or the text YAML cut at ', ' that was meant."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnpgen.data import boxoptions
from pnpgen.data import validate as v
from pnpgen.data.art import SUFFIXES as ART_SUFFIXES
from pnpgen.data.piecevalues import Source
from pnpgen.data.spreadsheets import (
    KIND_WORDS,
    SYNONYMS,
    SheetDoc,
    more_renames,
    said_columns,
    said_kind,
    said_translated,
)
from pnpgen.data.yamlhint import cut_text, flow, quoted
from pnpgen.errors import suggest
from pnpgen.patterns import later
from pnpgen.safetext import INVISIBLE, LINE_BREAKS, SAID, clipped, name_invisible_char, shown_invisible


def parse_at(doc: Source, keypath: tuple, parse: Callable[..., Any], value: Any, *args: Any) -> Any:
    """``parse(value, *args)`` from validate.py, its complaint placed at the value's file:line."""
    try:
        return parse(value, *args)
    except v.Invalid as e:
        raise doc.error(keypath, e.message, e.expected) from None


# a header cell that reads as a note to the sheet's users, not a field's name: a note mark, a sentence
_NOTE = later(r"^[※＊*]|[。、！？]|\s\S+\s")


def checked_keys(doc: Source, mapping: Any, keypath: tuple, allowed, what: str, more: str = "") -> dict:
    mapping = parse_at(doc, keypath, v.mapping, mapping, what)
    for key in mapping:
        if key not in allowed:
            cut = cut_text(doc, mapping, keypath, key)  # (a number cut at its thousands commas: told as read, yamlsrc)
            if cut is not None:
                raise doc.error(keypath + (key,), f"unknown key in {what}: the ', ' before it ended the text of "
                                f"{cut[0]!r}", f"the text in quotes: {cut[0]}: {quoted(cut[1])}", key=True)
            if isinstance(key, str) and key[:1] == "\u3000":  # typed by a Japanese input method
                raise doc.error(keypath + (key,), f"unknown key in {what}: it starts with a full-width space "
                                "(全角スペース), which YAML reads as part of the key, not as indentation",
                                "half-width spaces in the indentation", key=True)
            narrow = unicodedata.normalize("NFKC", key).strip() if isinstance(key, str) else key
            if narrow != key and narrow in allowed and key.strip() == narrow:
                # ("count " in quotes, 能力 and a 全角スペース: no full-width letter in it, hostile39; it was told
                # to be typed in full-width letters)
                space = "a full-width space (全角スペース)" if "\u3000" in key else "a space"
                end = "start" if key[:1].isspace() else "end"
                raise doc.error(keypath + (key,), f"unknown key in {what}: {key!r} has {space} at its {end}, which is "
                                "kept as part of the key", f"{narrow}, without the space", key=True)
            if narrow != key and narrow in allowed:  # ｃｏｕｎｔ, typed with the input method still on 全角
                raise doc.error(keypath + (key,), f"unknown key in {what}: {key!r} is typed in full-width letters "
                                f"(全角), which are not the key {narrow}",
                                f"{narrow}, typed in half-width letters (半角)", key=True)
            hidden = name_invisible_char(key) if isinstance(key, str) else None
            if hidden and INVISIBLE.sub("", key).strip() in allowed:  # (a header pasted from a web page: 'title' + U+200B)
                raise doc.error(keypath + (key,), f"unknown key in {what}: '{shown_invisible(key)}' has {hidden}, which "
                                "shows as nothing", f"{INVISIBLE.sub('', key).strip()}, typed again without it", key=True)
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
            if not near and not others and what == "the header row" and _NOTE.search(str(key)):
                others = ("; a note written in the header row? (a row above the header holding no field name is "
                          "passed over, up to five, and so is an empty column under a note)")
            box = "memo" if what == "the header row" and _NOTE.search(str(key)) else \
                re.sub(r"[^a-z0-9_-]+", "-", str(key).lower()[:SAID]).strip("-_") or ("type" if word in KIND_WORDS else "new")
            named = boxoptions.is_field_name(str(key))  # a layout's box reads no 'Card Type': told to rename it
            # a header in capitals (ID) reads the field of its name in small letters (data/spreadsheets.py): the
            # YAML to write names the field as the box is named, id, never the box id with field: ID
            field = box if named and what == "the header row" and str(key).lower() == box else key if named else box
            if not near and isinstance(doc, SheetDoc) and doc.mapped and what == "the header row":
                raise _unmapped(doc, keypath + (key,), str(key), [a for a in allowed if a not in given], named, box)
            rename = "" if named else f"rename the {'column' if what == 'the header row' else 'key'} {clipped(str(key))!r} " \
                f"to {box} (a field name has no spaces), then "
            # a sheet headed in its own words: the deck file's pieces: line mapping them, to paste
            said = said_columns(allowed, given) if what == "the header row" and (near or others) else {}
            mapped = doc.columns_said(said) if said and isinstance(doc, SheetDoc) else ""
            raise doc.error(keypath + (key,), f"unknown key in {what}{near}{others}",
                            ("one of " + listed if listed else "no keys here") + ("" if near else more.format(
                                key=key, box=box, field=field, rename=rename,
                                type=_field_type(mapping[key]))) + mapped,
                            key=True)
    return mapping


def _unmapped(doc: SheetDoc, keypath: tuple, key: str, free: list[str], named: bool, box: str) -> Exception:
    """A header of no known meaning in a sheet the deck's ``columns:`` maps: no rename to a field's
    name (the sheet keeps its own words), but its line in ``columns:``, or a note declared alone."""
    mapping = "columns: {" + ", ".join(f"{flow(h)}: {f}" for h, f in doc.mapped.items())
    if doc.columns.key != "pieces":  # a deck list's sheet: its id and count columns alone
        return doc.error(keypath, "unknown key in the header row: a deck list's sheet holds the id and the count "
                         f"of each piece it lists, which its columns: maps ({mapping}}})", "the column deleted (the card's name and text "
                         "are the source deck's)", key=True)
    memo = f"fields: {{{flow(key)}: text}}" if named else f"its column renamed to {box} and fields: {{{box}: text}}"
    return doc.error(keypath, "unknown key in the header row: the deck file's columns: does not map it, and a "
                     "column left out of columns: is read by its header, which names no field of this deck",
                     f"{clipped(key)} added to columns: ({doc.columns_where()}) with the field its column holds: "
                     f"{mapping}, {flow(key)}: <one of {', '.join(free)}>}}; or, a note of your own never printed, "
                     f"declared alone in the deck file: {memo}; or its column left empty", key=True)


def _field_type(value: Any) -> str:
    """The field type a new key's value reads as (``danger: 2`` is an int field, not text; a
    picture's file name an image, not text that would print the name)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str) and Path(value.strip()).suffix.lower() in ART_SUFFIXES:
        return "image"
    return {int: "int", float: "number", list: "list", dict: "map"}.get(type(value), "text")


def _text(doc: Source, value: Any, keypath: tuple) -> str:
    return parse_at(doc, keypath, v.text, value)


def one_line_text(doc: Source, value: Any, keypath: tuple, what: str) -> str:
    """A name said on one line wherever pnpgen names the thing — the build's summary, reprint.txt,
    the change report, page labels, Tabletop Simulator: a line break there began a line of the
    data's own (a forged 'pnpgen: error …' on the terminal, a false entry in reprint.txt)."""
    text = _text(doc, value, keypath)
    if LINE_BREAKS.search(text):  # (U+2028 too: a line break to YAML, Python and JavaScript)
        raise doc.error(keypath, f"{what} holds a line break", f"{what} on one line")
    return text
