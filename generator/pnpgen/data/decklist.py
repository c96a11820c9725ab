"""A deck list: a deck file that takes its pieces from another deck's, by that deck's ``unique:``
field, with counts of its own (a starter deck of a trading-card game's card sheet, ``ST01-042: 3``).

    name: スターターA
    from: cards                 # the deck (file stem) whose pieces it lists
    list: {ST01-001: 3, ST01-002: 2}

The listed deck is the source deck as drawn (its size, templates or layout, fields) with the
listed pieces alone, in the list's order, at the list's counts: its faces are the source's, so
a face both print is one face of the build (faces/ keys a face by its SVG). Its own are a
``back:`` (a template: a starter deck's colour; ``own_back``), a ``paper:`` and a ``sleeve:``; the list may be
kept in a spreadsheet, ``list: {file: starter.csv}``, read as a deck's ``pieces: {file: …}``. A
card pool kept as a worksheet per kind is listed from several decks drawn alike, ``from: [heroes,
allies, events]`` (``_drawn_alike``), each number found in the one of them that has it."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen.data import validate as v
from pnpgen.data.gamefiles import DECK_ENDINGS, copy_of
from pnpgen.data.layouts import side_templates
from pnpgen.data.mapkeys import checked_keys, one_line_text, parse_at
from pnpgen.data.model import Deck, Piece
from pnpgen.data.spreadsheets import SUFFIXES, SheetDoc, in_worksheet, read_pieces
from pnpgen.data.tuckbox import DeckLookup
from pnpgen.data.unique import written_alike
from pnpgen.data.workbooks import Workbooks
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, contained

LIST_KEYS = ("name", "from", "list", "back", "paper", "sleeve")  # back:, paper: and sleeve: its own (data/deckfile.py reads them)
FACE_KEYS = ("layout", "front")  # what draws a face: the source deck's
LIST_SHEET_KEYS = ("file", "sheet", "columns")  # list: {file: starter.xlsx, sheet: スターターA, columns: {番号: id}}


@dataclass(frozen=True)
class _Entry:
    """One piece a list names: its unique value and count as written, and where (``key``: the
    YAML's key is the place; a sheet's row is told at its id cell)."""

    written: Any
    count: Any
    at: tuple
    key: bool


def _sheet_entries(doc: Located, path: Path, game_root: Path, books: Workbooks | None,
                   field: str) -> tuple[SheetDoc, list[_Entry]]:
    """A list kept in a spreadsheet, ``list: {file: starter.csv}``: read by the reader of a deck's
    ``pieces: {file: …}`` (data/spreadsheets.py), two columns headed by the source deck's unique
    field (or ``id``) and ``count`` (or headed in the sheet's words, mapped by ``columns:`` as a deck's
    are: ``{番号: footer, 枚数: count}``), its rows in order, each mistake at its cell."""
    spec = doc.data["list"]
    id_said = field if field == "id" else f"{field} (or id)"
    for key in spec:
        if key not in LIST_SHEET_KEYS:
            raise doc.error(("list", key), f"a deck list's spreadsheet takes no {key}: its columns are headed "
                            f"{id_said} and count", "file: starter.csv (and sheet: name for .xlsx/.ods; columns: "
                            f"{{<header>: {field}, <header>: count}} for headers in the sheet's own words)", key=True)
    ids = [field] if field == "id" else [field, "id"]
    rows, found = read_pieces(doc, path, game_root, {name: "text" for name in ids}, books, key="list")
    for i, raw in enumerate(found):  # a header not the list's first (枚数: told to be count)
        checked_keys(rows, raw, ("list", i), [*ids, "count"], "the header row")
    heads = [h for h in ids if h in rows.headers]
    if len(heads) > 1:
        raise rows.error(("list", 0, heads[1]), f"two id columns, {heads[0]} and {heads[1]}", "one column "
                         f"headed {id_said} and one headed count", key=True)
    for head, there in ((field, bool(heads)), ("count", "count" in rows.headers)):
        if not there:
            raise InputError(f"the list has no {head} column", path=rows.path, line=rows.header_row,
                             key=in_worksheet(None, rows.sheet), expected=f"a header row of {id_said} and count, then a row per piece")
    entries = []
    for i, raw in enumerate(found):
        if heads[0] not in raw:
            raise rows.error(("list", i, "count"), f"a count without the {heads[0]} of its piece",
                             f"the {field} of a piece of the deck it lists in column {heads[0]}, or the row deleted")
        if "count" not in raw:
            raise rows.error(("list", i, "count"), f"{raw[heads[0]]!r} is listed without a count",
                             "its copies, e.g. 3 (0 parks it: none printed)")
        entries.append(_Entry(raw[heads[0]], raw["count"], ("list", i, heads[0]), False))
    return rows, entries


def is_list(data: dict) -> bool:
    """Is the deck file a deck list (``from:`` or ``list:``)?"""
    return "from" in data or "list" in data


def listed_deck(doc: Located, data: dict, path: Path, decks: DeckLookup | None,
                game_root: Path, books: Workbooks | None = None) -> Deck:
    """The deck a deck list file makes; every mistake told at its line (a list kept in a
    spreadsheet: at its cell). ``books``: the workbooks the game's decks read."""
    for key in data:
        if key in FACE_KEYS:
            raise doc.error((key,), f"a deck list takes no {key}: its pieces' faces are the source deck's, the cards "
                            "its numbers name (one card, one face, drawn once for every deck that prints it)",
                            "back: <template> for a back of its own; for other faces, a deck of its own (pieces:)",
                            key=True)
        if key not in LIST_KEYS:
            raise doc.error((key,), f"a deck list takes no {key}: it prints its pieces as the deck named by from: "
                            "draws them", "name:, from: and list:, and back:, paper: and sleeve: of its own (the size, "
                            "templates or layout and fields are the source deck's)", key=True)
    for required in ("name", "from", "list"):
        if required not in data:
            raise doc.error((), f"a deck list without {required}:",
                            {"name": "'name:' the deck's name", "from": "'from: cards', the deck (file name without "
                             ".yaml) whose pieces it lists", "list": "'list: {ST01-001: 3, …}', each piece's "
                             "unique value and its count"}[required])
    own = path.stem
    froms = data["from"] if isinstance(data["from"], list) else None  # from: [heroes, allies, events]
    if froms is not None and not froms:
        raise doc.error(("from",), "from: names no deck", "from: cards, or several drawn alike: from: [heroes, allies]")
    sources = [_source(doc, at, written, own, decks) for at, written in
               ([(("from", i), w) for i, w in enumerate(froms)] if froms is not None else [(("from",), data["from"])])]
    source_ids = [s.id for s in sources]
    for i, other in enumerate(sources[1:], 1):
        if other.id in source_ids[:i]:
            raise doc.error(("from", i), f"deck {other.id!r} is named twice", "each deck once")
        _drawn_alike(doc, ("from", i), sources[0], other)
    source = sources[0]
    field = source.unique
    assert field is not None
    by_id: dict[str, dict[str, Piece]] = {}  # a unique value → the piece of each source deck that has it
    for deck in sources:
        for piece in sorted(deck.pieces, key=lambda p: not p.count):  # a printed piece before a parked old one
            value = piece.values.get(field)
            if value is not None and written_alike(value):
                by_id.setdefault(written_alike(value), {}).setdefault(deck.id, piece)
    named = f"deck {source.id!r}" if len(sources) == 1 else "decks " + ", ".join(repr(i) for i in source_ids)
    of_names = source.source.name if len(sources) == 1 else ", ".join(s.source.name for s in sources)
    if isinstance(data["list"], str) and Path(data["list"].strip()).suffix.lower() in SUFFIXES:
        raise doc.error(("list",), f"list names the spreadsheet {data['list']!r} without 'file:'",
                        f"list: {{file: {data['list'].strip()}}}")
    listed = parse_at(doc, ("list",), v.mapping, data["list"], "list")
    if not listed:
        raise doc.error(("list",), "the list names no piece", f"'list: {{<{field}>: <count>, …}}'")
    rows, entries = _sheet_entries(doc, path, game_root, books, field) if isinstance(listed.get("file"), str) \
        else (doc, [_Entry(key, count, ("list", key), True) for key, count in listed.items()])
    said = "row" if rows is not doc else "line"
    pieces: list[Piece] = []
    seen: dict[str, _Entry] = {}
    for entry in entries:
        key = entry.written
        name = written_alike(key)
        if name in seen:
            first = seen[name]
            raise rows.error(entry.at, f"{key!r} is listed twice (as {first.written!r}, {said} "
                             f"{rows.where(first.at, key=first.key).line})", "each piece once, its count summed",
                             key=entry.key)
        seen[name] = entry
        if name not in by_id:
            import difflib  # (only for a mistake)

            same = [c for c in by_id if _unpadded(c) == _unpadded(name)]  # SM-5 for SM-005: that one first
            near = (same + [c for c in difflib.get_close_matches(name, list(by_id), n=3, cutoff=0.5) if c not in same])[:3]
            copy = next((c for s in sources if (c := _copy_holding(s, field, name, game_root))), None)
            raise rows.error(entry.at, f"no piece of {named} has {field} {name!r}" +
                             (f"; nearest: {', '.join(near)}" if near and not copy else "") +
                             (f" ({copy.said})" if copy else ""),
                             f"the {field} of a piece of {of_names}" +
                             (f", or the piece moved from {copy.copy} into {copy.original}" if copy else ""), key=entry.key)
        if len(by_id[name]) > 1:
            raise rows.error(entry.at, f"{field} {name!r} is a piece of " + " and of ".join(
                f"{d!r} ({p.where})" for d, p in by_id[name].items()), f"a {field} one deck's piece has: "
                "the other piece's changed, or from: naming one of the decks", key=entry.key)
        count_at = entry.at if rows is doc else entry.at[:2] + ("count",)
        n = parse_at(rows, count_at, v.count, entry.count, v.COUNT,
                     f"'{key}: 3'" if rows is doc else "3 in the count column")
        (piece,) = by_id[name].values()
        pieces.append(dataclasses.replace(piece, index=len(pieces) + 1, count=n, deck_label="",
                                          field_lines=dict(piece.field_lines), field_keys=dict(piece.field_keys),
                                          open=list(piece.open), count_where=rows.where(count_at)))
    name_text = one_line_text(doc, data["name"], ("name",), "a deck's name")
    if len(pieces) == 1:
        pieces[0].deck_label = name_text
    deck = dataclasses.replace(
        source, id=own, name=name_text, name_where=doc.where(("name",)), pieces=pieces, source=path,
        worksheet=None,
        sheet_headers={f: h for f, h in source.sheet_headers.items()  # (the headers its source decks agree on)
                       if all(other.sheet_headers.get(f, h) == h for other in sources)},
        follows=None, listed=tuple(source_ids), options=dict(source.options))
    if source.layout is not None:
        deck.front, deck.back = side_templates(own, source.layout)
    copies = sum(p.count for p in pieces)
    if copies > v.COUNT[1]:
        raise doc.error(("list",), f"the deck prints {copies:,} copies",
                        f"at most {v.COUNT[1]:,} copies in one deck (split it into several decks)")
    return deck


def _unpadded(number: str) -> str:
    """A set number as a designer may type it, its numbers without their leading zeros and its
    letters in either case (``sm-5`` for ``SM-005``): a list naming ``SM-5`` was offered SM-150,
    SM-145 and SM-135, as near as SM-005 to difflib (trial83)."""
    return re.sub(r"\d+", lambda m: str(int(m.group())), number).casefold()


@dataclass(frozen=True)
class _Copy:
    """A file manager's copy holding the piece a list names: the copy, the file it is a copy of, and
    why the copy's pieces are not the deck's (how the message says it)."""

    copy: str
    original: str
    said: str


def _copy_holding(deck: Deck, field: str, name: str, game_root: Path) -> _Copy | None:
    """The file manager's copy whose pieces hold one of ``field`` ``name`` where ``deck`` holds none:
    beside its deck file (``cards (1).yaml``, passed over, not built), or, for a deck whose pieces
    are a spreadsheet's, beside that file (``cards (1).csv``, ``cards - Copy.xlsx``: a file no deck
    reads). Where the piece a list names was kept."""
    folder = deck.source.parent
    try:
        names = {p.name for p in folder.iterdir()}
    except OSError:
        return None
    for other in sorted(names):
        if Path(other).suffix.lower() not in DECK_ENDINGS or copy_of(folder, other, names) != deck.source.name:
            continue
        try:
            pieces = load_yaml(folder / other).data.get("pieces")
        except (InputError, OSError, AttributeError):
            continue  # (a copy that does not read: not the place to tell it)
        if isinstance(pieces, list) and any(isinstance(p, dict) and p.get(field) is not None
                                            and written_alike(p[field]) == name for p in pieces):
            return _Copy(other, deck.source.name, f"the copy {other} holds one, but is passed over as a file "
                         f"manager's copy of {deck.source.name}, not built")
    return _sheet_copy_holding(deck, field, name, game_root)


def _sheet_copy_holding(deck: Deck, field: str, name: str, game_root: Path) -> _Copy | None:
    """``_copy_holding`` for a deck whose ``pieces: {file: cards.csv}`` names a spreadsheet: a copy
    beside that file, read as the deck reads its own (its worksheet, its ``columns:``)."""
    try:
        doc = load_yaml(deck.source)
    except (InputError, OSError):
        return None
    data = doc.data if isinstance(doc.data, dict) else {}
    spec = data.get("pieces")
    written = spec.get("file") if isinstance(spec, dict) else None
    if not isinstance(spec, dict) or not isinstance(written, str) or Path(written.strip()).suffix.lower() not in SUFFIXES:
        return None
    sheet = Path(written.strip())
    try:
        folder = contained(deck.source.parent.resolve().relative_to(game_root.resolve()) / sheet.parent, game_root,
                           "pieces.file")
        names = {p.name for p in folder.iterdir()}
    except (InputError, OSError):
        return None
    fields = {f: "text" for piece in deck.pieces for f in piece.values} | {field: "text"}
    for other in sorted(names):
        if Path(other).suffix.lower() != sheet.suffix.lower() or copy_of(folder, other, names) != sheet.name:
            continue
        copy_doc = dataclasses.replace(doc, data={**data, "pieces": {**spec, "file": (sheet.parent / other).as_posix()}})
        try:
            _, found = read_pieces(copy_doc, deck.source, game_root, fields)
        except (InputError, OSError):
            continue  # (a copy that does not read: not the place to tell it)
        if any(row.get(field) is not None and written_alike(row[field]) == name for row in found):
            return _Copy(other, sheet.name, f"the copy {other} holds one, but deck {deck.id!r} reads {sheet.name} "
                         "(pieces: file:), not its file manager's copy")
    return None


def _source(doc: Located, at: tuple, written: Any, own: str, decks: DeckLookup | None) -> Deck:
    """A deck ``from:`` names (``at``: its key path, ``("from", 1)`` in a list of several), checked:
    another deck of the game, not a list itself, with a ``unique:`` field to name its pieces by."""
    source_id = parse_at(doc, at, v.name, written, "a deck id")
    ids = [i for i in (decks.ids if decks is not None else []) if i != own]
    if source_id == own:
        raise doc.error(at, "a deck list cannot list its own pieces", "another deck's id")
    if source_id not in ids:
        import difflib  # (only for a mistake)

        near = difflib.get_close_matches(source_id, ids, n=1, cutoff=0.5)
        folder = Path(doc.path).parent
        names = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
        copied = next(((n, made) for n in (source_id + e for e in DECK_ENDINGS) if n in names
                       and (made := copy_of(folder, n, names))), None)
        if copied:  # (hostile39: it said 'no deck in this game' of the file there, named as a deck)
            raise doc.error(at, f"{copied[0]} is passed over as a file manager's copy of {copied[1]}, not built as a "
                            "deck", f"from: {Path(copied[1]).stem}, or the copy renamed to a name of its own")
        raise doc.error(at, f"no deck {source_id!r} in this game" + (f"; did you mean {near[0]}?" if near else ""),
                        "the id (file name without .yaml) of the deck whose pieces it lists: " + ", ".join(ids[:8]))
    assert decks is not None
    source = decks(source_id)
    if source is None:  # still loading: it lists (or holds) this one
        raise doc.error(at, f"deck {source_id!r} takes its pieces from this deck in turn (a circle)",
                        "from: a deck whose pieces are its own")
    if source.listed is not None:
        raise doc.error(at, f"deck {source_id!r} is itself a deck list (from: {', '.join(source.listed)})",
                        f"from: {', '.join(source.listed)}, the deck whose pieces it lists")
    if source.unique is None:
        raise doc.error(at, f"deck {source_id!r} names no unique field, by which a list names its pieces",
                        f"unique: <field> in {source.source.name} (its set number, e.g. unique: number)")
    return source


# what draws a deck's pieces and lays them out: the decks of one list's from: must agree on each
_DRAWN = (("layout", "layout"), ("front", "front template"), ("back", "back template"), ("kind", "kind"),
          ("shape", "shape"), ("trim_mm", "size"), ("options", "shape options"), ("sheet", "sheet"),
          ("bleed_mm", "bleed"), ("lint", "lint"), ("die", "die"), ("stand_up", "stand_up"),
          ("sealed", "sealed"), ("unique", "unique field"))


def _drawn_alike(doc: Located, at: tuple, first: Deck, other: Deck) -> None:
    """A list of several decks' pieces is one deck, drawn one way: ``other`` must be drawn as
    ``first`` is (its layout or templates, size, shape, back, sheet, unique field)."""
    for attr, said in _DRAWN:
        mine, theirs = getattr(first, attr), getattr(other, attr)
        if attr in ("front", "back") and first.layout is not None:
            continue  # (a layout deck's templates are compiled under its own id: its layout is compared)
        if attr == "layout" and mine is not None and theirs is not None:
            if dataclasses.replace(mine, name="") == dataclasses.replace(theirs, name=""):
                continue  # (an inline override is named after its deck: the same boxes are the same layout)
            mine, theirs = (mine.name, theirs.name) if mine.name != theirs.name else ("its boxes", "other boxes")
        elif attr == "layout":
            mine, theirs = (mine and mine.name), (theirs and theirs.name)
        if mine != theirs:
            raise doc.error(at, f"deck {other.id!r} is drawn otherwise than {first.id!r}: its {said} is "
                            f"{theirs!r}, {first.id}'s {mine!r}", "decks drawn alike (one layout or the same "
                            "templates, one size and unique field), or a deck list of each")


def own_back(deck: Deck, template: str, where: Any) -> None:
    """A deck list's own ``back:`` (a template, as a deck's): over its source's back, of templates
    or of a layout (whose front it keeps: the layout's back left out, so the back is looked up
    and told as the template it is)."""
    deck.back, deck.template_where = template, {**deck.template_where, "back": where}
    if deck.layout is not None:
        deck.layout = dataclasses.replace(deck.layout, back=None)
