"""A spreadsheet's columns headed in the designer's own words: ``pieces: {file: cards.xlsx,
columns: {カード名: title, 枚数: count, カード名（英語）: title.en}}``. Each key is a header as the sheet
writes it, its value the field (or ``count``, or a field's ``<field>.<lang>`` translation) the
column holds: the sheet keeps the headers its co-designers and playtesters read, and the deck file
says once what each means. Every mistake in the mapping is told at its line of the deck file."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pnpgen.data.yamlhint import flow
from pnpgen.data.yamlsrc import Located
from pnpgen.errors import InputError, suggest
from pnpgen.patterns import later
from pnpgen.safetext import clipped

_LANG = later(r"[a-z]{2}(?:-[A-Za-z0-9]+)*")  # title.en, text.zh-Hant: the code i18n checks further
EXAMPLE = "columns: {カード名: title, 枚数: count, 効果: text}"


def header_key(header: Any) -> str:
    """A header as it is matched: without the spaces around it, its case, or the width of its
    letters and brackets (``カード名(英語)`` in the deck file finds ``カード名（英語）`` in the sheet)."""
    return unicodedata.normalize("NFKC", str(header)).strip().casefold()


@dataclass
class Columns:
    """The deck's ``columns:``: each of the sheet's headers (as the deck file writes it) → its field."""

    doc: Located | None = None  # the deck file, where a mistake in the mapping is told
    key: str = "pieces"  # the deck file's key it is under: pieces:, or a deck list's list: (data/decklist.py)
    fields: dict[str, str] = field(default_factory=dict)  # header → field, as written
    _keys: dict[str, str] = field(default_factory=dict, repr=False)  # header_key(header) → field
    # a header the deck file writes unquoted, which YAML read as a number (1.50: 1.5; 012: 12) → the
    # number its key is (the mapping's line is found by it)
    read_as_numbers: dict[str, Any] = field(default_factory=dict)

    def at(self, header: str, message: str, expected: str) -> InputError:
        """An error at the line of the mapping of ``header``."""
        assert self.doc is not None
        return self.doc.error((self.key, "columns", self.read_as_numbers.get(header, header)), message, expected, key=True)

    def mapped(self, cell: Any) -> str | None:
        """The field a header cell of the sheet is mapped to, or None."""
        return self._keys.get(header_key(cell)) if self._keys else None


def flow_name(header: str) -> str:
    """A header (or a field's name) as a message's example writes it: cut to a name's length
    (a paragraph pasted into a header cell made each message 60 KB), in flow style."""
    return flow(clipped(header))


def _as_mapping(items: list) -> str:
    """A ``columns:`` written as a list, as the mapping it meant (``- カード名: title`` items)."""
    pairs = []
    for item in items:
        if isinstance(item, dict) and len(item) == 1:
            (header, target), = item.items()
            pairs.append(f"{flow(str(header))}: {target}")
        elif isinstance(item, str) and ":" in item:
            header, _, target = item.partition(":")
            pairs.append(f"{flow(header.strip())}: {target.strip()}")
        else:
            return EXAMPLE
    return "columns: {" + ", ".join(pairs) + "}" if pairs else EXAMPLE


def columns_of(doc: Located, fields: Mapping[str, str], key: str = "pieces") -> Columns:
    """The deck's ``pieces: {…, columns: …}`` checked against its ``fields`` (and count): a list,
    a field the deck does not declare, two headers mapped to one field and a header that is a
    field's own name are told at their line. ``key``: the deck file's key the sheet is named under
    (a deck list's ``list: {file: …, columns: …}``, whose fields are its id column's)."""
    spec = doc.data[key].get("columns")
    if spec is None:
        return Columns()
    if isinstance(spec, list):
        raise doc.error((key, "columns"), "columns is written as a list ('- ' items), which gives no header "
                        "its field", f"a mapping of each header as the sheet writes it to its field: {_as_mapping(spec)}")
    if not isinstance(spec, dict) or not spec:
        raise doc.error((key, "columns"), "columns maps the sheet's headers to the deck's fields",
                        f"each header as the sheet writes it, then its field: {EXAMPLE}")
    allowed = [*fields, "count"]
    listed = ", ".join(allowed)
    by_field: dict[str, str] = {}
    out = Columns(doc, key)
    for written, target in spec.items():
        header = str(written)  # (a header 2026 is read by YAML as a number)
        keypath = (key, "columns", written)
        if isinstance(written, (int, float)):
            out.read_as_numbers[header] = written
        if not isinstance(target, str) or not target.strip():
            raise doc.error(keypath, f"the header {clipped(header)!r} is mapped to {clipped(repr(target))}, not a field's name",
                            f"{flow_name(header)}: <one of {listed}>")
        target = target.strip()
        base, dot, lang = target.partition(".")
        same = [f for f in allowed if f.lower() == base.lower()]
        if same:
            base = same[0]
        if base not in allowed:
            reversed_ = header_key(header) in {f.lower() for f in allowed}
            raise doc.error(keypath, f"{clipped(target)!r} is not a field of this deck"
                            + (f"; written the other way round? (the sheet's header first: {flow_name(target)}: {clipped(header)})"
                               if reversed_ else suggest(base, allowed)),
                            f"one of {listed}" + (" (or <field>.<language> for a translation: title.en)" if dot else "")
                            + ("; a new field is declared first in fields:" if key == "pieces" else
                               " (a deck list's sheet gives its pieces' ids and counts; their fields are the source deck's)"))
        if dot and (base == "count" or not _LANG.fullmatch(lang.lower()) or key != "pieces"):
            raise doc.error(keypath, f"{clipped(target)!r} is no field's translation" + (
                " (a count is one number in every language)" if base == "count" else
                " (a deck list's id is one in every language)" if key != "pieces" else ""),
                f"a field and a language code, e.g. {flow_name(header)}: {[f for f in allowed if f != 'count'][0]}.en"
                if base != "count" and key == "pieces" else f"{flow_name(header)}: {base}")
        target = base + (f".{lang.lower()}" if dot else "")
        if header_key(header) in {header_key(f) for f in allowed} or "." in header and header_key(
                header.rsplit(".", 1)[0]) in {header_key(f) for f in allowed}:
            raise doc.error(keypath, f"{clipped(header)!r} is already a field's name, and a column so headed "
                            "is read as that field without columns:", "the mapping left out, or the header as the "
                            f"sheet writes it in the designer's words, e.g. {EXAMPLE}", key=True)
        if target in by_field:
            raise doc.error(keypath, f"two headers are mapped to {target}: {by_field[target]!r} and "
                            f"{clipped(header)!r}", f"one column per field: {flow_name(by_field[target])}: {target} "
                            f"and {flow_name(header)} mapped to another field or left out")
        alike = next((h for h in out.fields if header_key(h) == header_key(header)), None)
        if alike is not None:  # (カード名 and ｶｰﾄﾞ名, Name and name: one header of the sheet)
            raise doc.error(keypath, f"{clipped(header)!r} and {clipped(alike)!r} are one header of the sheet (its "
                            "case, spaces and width aside)", "each header mapped once", key=True)
        by_field[target] = header
        out.fields[header] = target
        out._keys[header_key(header)] = target
    return out


def columns_line(spec: Mapping[str, Any], mapped: Mapping[str, str], said: Mapping[str, str], key: str = "pieces") -> str:
    """The deck file's ``pieces:`` line as it would read with the sheet's own headers mapped:
    ``pieces: {file: cards.xlsx, sheet: 役職, columns: {カード名: title, 枚数: count}}``, to paste
    (``mapped``: the deck's ``columns:`` so far; ``said``: the headers in a sheet's own words;
    ``key``: a deck list's ``list:``)."""
    both = {**mapped, **said}
    parts = [f"file: {flow(str(spec.get('file')))}"]
    if isinstance(spec.get("sheet"), str):
        parts.append(f"sheet: {flow(spec['sheet'])}")
    parts.append("columns: {" + ", ".join(f"{flow(h)}: {f}" for h, f in both.items()) + "}")
    return f"{key}: {{" + ", ".join(parts) + "}"
