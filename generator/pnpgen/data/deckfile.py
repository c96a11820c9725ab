"""One deck file → the Deck: its keys, size, shape and fields, its layout or templates, and its
pieces (from the YAML or a spreadsheet) read by their fields' types; every mistake told at its
file:line:column."""

from __future__ import annotations

from itertools import chain
from pathlib import Path
from typing import Any, NoReturn

from pnpgen.data import boxlengths, colourvision, decklist, layouts, layoutsides, lint, optionvalues, piecesize, tuckbox
from pnpgen.data import validate as v
from pnpgen.data.art import ArtFileRefused, ArtFolder, Sizes
from pnpgen.data.formats import CARD_FORMATS, KINDS, PAPER_SIZES, SHAPES, SINGLE_SIZE_SHAPES
from pnpgen.data.mapkeys import checked_keys, one_line_text, parse_at
from pnpgen.data.mapsections import read_sections
from pnpgen.data.model import (
    EMPTY_PAINTED,
    EMPTY_SHOWN,
    NAMING_FIELDS,
    NO_ART_YET,
    Deck,
    Game,
    Layout,
    Piece,
    is_placeholder,
)
from pnpgen.data.piecevalues import (
    Source,
    collect_placeholders,
    field_value,
    left_out_fields,
    optional_fields,
    painted_fields,
    placeholder_field,
    read_elsewhere,
    read_otherwise,
    refuse_totals_row,
    refuse_track_lengths,
    refuse_unprintable_text,
    rows_said,
    shown_fields,
    unplaceheld,
    written_elsewhere,
)
from pnpgen.data.sheetlayouts import SheetStock, load_sheet
from pnpgen.data.spreadsheets import SUFFIXES, SheetDoc, read_pieces
from pnpgen.data.translationsheets import add_translations
from pnpgen.data.unique import refuse_repeats
from pnpgen.data.validate import Invalid
from pnpgen.data.workbooks import Workbooks
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlhint import flow
from pnpgen.data.yamlsrc import Located, load_yaml
from pnpgen.errors import InputError, Where, suggest
from pnpgen.safetext import INVISIBLE, name_invisible_char, shown_invisible
from pnpgen.shapes import bounding_size

DECK_KEYS = (
    "name", "kind", "format", "size", "shape", "corner_radius", "orientation", "points", "front", "back", "bleed",
    "paper", "fields", "defaults", "pieces", "options", "label", "layout", "sheet", "lint", "box", "die",
    "stand_up", "unique", "sealed", "from", "list", "sleeve", "sections",
)
FIELD_TYPES = ("text", "int", "number", "colour", "bool", "list", "map", "image")
RESERVED_FIELDS = ("count", "n", "copy")  # templates read these as piece.count, piece.n, piece.copy
SHAPE_KEYS = ("corner_radius", "orientation", "points", "box")
PIECES_HINT = "; one piece with no fields of its own (a board) is 'pieces: [{}]'"


def _paper_of_stock(doc: Located, deck: Deck) -> None:
    """A deck's ``paper:`` beside its ``sheet:`` card stock of another paper: the stock's paper is
    the sheets' (its slots are measured on it), so the two cannot both be."""
    stock = deck.sheet
    if stock is None or deck.paper is None or sorted(stock.paper_mm) == sorted(PAPER_SIZES[deck.paper]):
        return
    raise doc.error(("paper",), f"paper {deck.paper} is not the paper of this deck's sheet layout {stock.id!r} "
                    f"({stock.paper}, {stock.paper_mm[0]:g}×{stock.paper_mm[1]:g} mm), on which its slots are measured",
                    f"paper: {stock.paper}, or no paper: (the sheet layout's paper is the deck's)")


def _own_paper(doc: Located, data: dict, deck: Deck) -> None:
    """A deck's (or a deck list's) own ``paper:``, over game.yaml's and the printer profile's
    (--paper wins), checked against its sheet layout's paper."""
    if "paper" in data:
        deck.paper, deck.paper_where = parse_at(doc, ("paper",), v.paper, data["paper"]), doc.where(("paper",))
        _paper_of_stock(doc, deck)


def _own_sleeve(doc: Located, data: dict, deck: Deck) -> None:
    """A deck's (or a deck list's) own ``sleeve:``: the sleeve its ``--layout sleeve`` inserts are
    made for, over --sleeve (mini cards beside poker; a starter deck sleeved otherwise than its card
    pool: a list's own, else its source deck's)."""
    if "sleeve" in data:
        deck.sleeve_mm, deck.sleeve_where = parse_at(doc, ("sleeve",), _sleeve, data["sleeve"]), doc.where(("sleeve",))


def _sleeve(value: Any) -> tuple[float, float]:
    """A deck file's ``sleeve:``, written as ``--sleeve`` is (``66x91``, ``2.6x3.6in``) or as a
    size is (``[66, 91]``)."""
    expected = "the sleeve's inside, e.g. sleeve: 66x91 (mm) or [66, 91]"
    if isinstance(value, list) and len(value) == 2 and all(isinstance(n, (int, float, str)) and not isinstance(n, bool)
                                                            for n in value):
        try:
            return optionvalues.sleeve_size("{}x{}".format(*value))
        except Invalid as e:  # (told as written, [-1, 66], not as the text it was read as)
            raise Invalid(f"{v.show(value)} is not a sleeve's size", e.expected) from None
    if not isinstance(value, str):
        raise Invalid(f"{v.show(value)} is not a sleeve's size", expected)
    return optionvalues.sleeve_size(value)


def sheet_layout(ws: Workspace, doc: Located, data: dict) -> SheetStock | None:
    """The sheet layout ``sheet:`` names (None for ``grid``); a bad name is an error at its line.
    A deck whose pieces come from a workbook that names no worksheet is told where a worksheet's
    name goes (trial46: ``sheet: プロモ`` beside ``pieces: {file: cards.xlsx}``, as the docs' 「a deck
    that names its worksheet」 was read, said only that プロモ is no sheet layout's name)."""
    pieces, name = data.get("pieces"), data["sheet"]
    book = pieces.get("file") if isinstance(pieces, dict) and "sheet" not in pieces else None
    meant = (f"pieces: {{file: {flow(book)}, sheet: {flow(name)}}} for the worksheet {flow(name)} of {flow(book)} "
             "(a deck's own sheet: names the card stock its home sheets print on), or ") \
        if isinstance(book, str) and book.lower().endswith((".xlsx", ".ods")) and _worksheet_name(name) else ""

    def where(message: str, expected: str | None) -> InputError:
        return doc.error(("sheet",), message, meant + expected if expected else expected)
    return load_sheet(ws.root, data["sheet"], where)


def _worksheet_name(name: Any) -> bool:
    """Could ``name`` be a worksheet's (Excel's rule: 1 to 31 characters, none of : \\ / ? * [ ]),
    on one line? Only such a name is offered as one (a list, or a line break, was written into
    the message as it stood)."""
    return isinstance(name, str) and 0 < len(name) <= 31 and name == name.strip() and name.isprintable() \
        and not any(c in name for c in ':\\/?*[]')


# said after the keys a piece may have when the key is no near miss of one: a field to add
NEW_FIELD = "; a new field is declared first: {rename}fields: {{{field}: {type}}}"
NEW_FIELD_LAYOUT = ("; a new field is shown by a box of its own, which declares it: {rename}layout: {{extends: {layout}, "
                    "boxes: {{{box}: {{field: {field}, x: …, y: …, w: …, h: …}}}}}}; one kept for yourself and never "
                    "printed (a memo) is declared alone: fields: {{{field}: text}}")  # box: a box's name, lower case


def _layout_name(data: dict) -> str:
    """The layout a deck's ``layout:`` names or extends, as the deck writes it."""
    spec = data.get("layout")
    return str(spec.get("extends", "…") if isinstance(spec, dict) else spec)


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


def _size(doc: Located, data: dict, shape: str) -> tuple[tuple[float, float], str]:
    if "format" in data and "size" in data:
        raise doc.error(("size",), "give either format or size, not both", "one of them", key=True)
    if "format" in data:
        if shape in SINGLE_SIZE_SHAPES:
            raise doc.error(("format",), f"a {shape} takes a size, not a card format", "'size: 40mm'")
        fmt = parse_at(doc, ("format",), v.card_format, data["format"])
        return CARD_FORMATS[fmt], fmt
    if "size" not in data:
        raise doc.error((), "missing size", "'format: poker' or 'size: [63, 88]'")
    sizes = parse_at(doc, ("size",), piecesize.size, data["size"], shape, shape in SINGLE_SIZE_SHAPES)
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
        out["orientation"] = parse_at(doc, ("orientation",), piecesize.orientation, data["orientation"], shape)
    if "corner_radius" in data:
        out["corner_radius"] = parse_at(doc, ("corner_radius",), piecesize.corner_radius, data["corner_radius"], shape, w, h)
    if "points" in data:
        out["points"] = parse_at(doc, ("points",), piecesize.points, data["points"], shape, w, h)
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
    own = checked_keys(doc, data.get("box") or {}, ("box",), list(tuckbox.BOX_KEYS), "box")
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
    name = parse_at(doc, (key,), v.name, name, "a template name")
    where = doc.where((key,))
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise InputError(f"template {v.show(name)} is outside templates/", path=where.path, line=where.line,
                         column=where.column, key=key, expected="a name under templates/ without '..'")
    return name


def _title_box_field(layout: Layout | None) -> str | None:
    """The field a layout's title box reads, where it is a field of the designer's own (a
    spreadsheet's ``card`` column read by ``title: {field: card}``): that field names the pieces,
    as ``label:`` would, since it is the name the card prints (else ``#3`` in the change line and
    reprint.txt); None for a box reading ``title`` (or another of NAMING_FIELDS), or no title box."""
    if layout is None:
        return None
    for box in layout.front.boxes:
        if box.name == "title" and box.type == "text":
            read = box.get("field")
            own = read in dict(layout.fields) and read not in NAMING_FIELDS  # not game.title, deck.name
            return read if own else None
    return None


def _cell_keys(rows: Source, keypath: tuple, raw: dict) -> dict[str, str]:
    """The header and column of each field a spreadsheet row sets (``text.en (column G)``)."""
    keys = {key: rows.key_of(keypath + (key,)) for key in raw} if isinstance(rows, SheetDoc) else {}
    return {key: name for key, name in keys.items() if name}


def _field_lines(rows: Source, keypath: tuple, raw: dict) -> dict[str, tuple[int | None, int | None]]:
    """(line, column) of each field a piece sets: a YAML file's from its marks (no Where made for
    each of a thousand pieces' fields), a spreadsheet's from its cells."""
    if isinstance(rows, Located):
        return {key: rows.mark(keypath + (key,)) for key in raw}
    return {key: (at.line, at.column) for key in raw for at in (rows.where(keypath + (key,)),)}


def _fields(doc: Located, data: dict) -> dict[str, str]:
    """The deck's own fields' types; ``{type: image, placeholder: false}``: an image field that, empty,
    is no art to come (a token's, as ``pnpgen layout export`` writes it; ``optional_fields``)."""
    fields = parse_at(doc, ("fields",), v.mapping, data.get("fields"), "fields")
    types = {}
    for name, ftype in fields.items():
        parse_at(doc, ("fields", name), v.name, name, "a field name")
        hidden = name_invisible_char(name)  # (the template's piece.text 'no field text; did you mean text?', alike)
        if hidden:
            raise doc.error(("fields", name), f"the field name {shown_invisible(name)} holds {hidden}",
                            f"{INVISIBLE.sub('', name)}, typed again without it, as the templates and pieces name it", key=True)
        if name in RESERVED_FIELDS:
            raise doc.error(("fields", name), f"{name!r} is set by pnpgen for every piece",
                            "another field name (" + ", ".join(RESERVED_FIELDS) + " are reserved)", key=True)
        ftype = parse_at(doc, ("fields", name), v.field_spec, ftype)
        types[name] = parse_at(doc, ("fields", name), v.choice, ftype, FIELD_TYPES, "field type")
    return types


EMPTY_DECK = "'name:', 'front:' and 'pieces:' — a save caught half-way? the next save builds it"


def load_deck(ws: Workspace, game: Game, path: Path, art: bool = True, sizes: Sizes | None = None,
              deck_named: tuckbox.DeckLookup | None = None, books: Workbooks | None = None) -> Deck:
    """The deck of the deck file ``path``; ``books``: the workbooks the game's decks read (each
    workbook read once, however many of its worksheets are decks)."""
    pictures = ArtFolder(game.root, sizes=sizes) if art else None  # one for the deck: its folder resolved once
    doc = load_yaml(path)
    written = game.translations.resolve(doc) if game.translations is not None else None  # (the other editions' texts)
    data = checked_keys(doc, doc.data, (), DECK_KEYS, "a deck file")
    if decklist.is_list(data):  # these counts of another deck's pieces (data/decklist.py)
        listed = decklist.listed_deck(doc, data, path, deck_named, game.root, books)
        if data.get("back"):  # a back of its own (a starter deck's colour, its name): its faces its source's
            decklist.own_back(listed, _template(doc, "back", data["back"]), doc.where(("back",)))
        _own_paper(doc, data, listed)
        _own_sleeve(doc, data, listed)
        return listed
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
    kind = parse_at(doc, ("kind",), v.choice, data.get("kind", geo.kind if geo else "card"), KINDS, "kind")
    shape = parse_at(doc, ("shape",), v.choice, data["shape"], SHAPES, "shape") if "shape" in data else \
        geo.shape if geo else "rect"
    if "orientation" in data:
        parse_at(doc, ("orientation",), piecesize.orientation, data["orientation"], shape)
    box, figures = _tuck_box(doc, data, shape, layout_raw, deck_named) if shape == "tuckbox" or "box" in data \
        else (None, {})
    if box is not None:
        trim, fmt = box.size, "custom"
    elif geo is not None and not ("format" in data or "size" in data):
        trim, fmt = _layout_size(doc, geo, shape, data)
    else:
        trim, fmt = _size(doc, data, shape)
    boxed = layout_raw and layouts.fields(layout_raw) or {}  # the fields the layout's boxes show
    fields = boxed | _fields(doc, data)
    allowed = list(fields) + ["count"]
    given = data.get("defaults")
    if isinstance(given, dict) and "count" in given and "count" not in fields:  # (trial73: a memory game's pairs)
        copies = given["count"]  # (as written when it is a count; 'count: None' for `count:` told nothing)
        example = copies if isinstance(copies, int) and not isinstance(copies, bool) and 0 <= copies <= 999 else 2
        raise doc.error(("defaults", "count"), "a count is each piece's own, never a default (a piece without one "
                        "prints 1 copy)", f"'count: {example}' on each piece, as '- {{…, count: {example}}}', and no "
                        "count in defaults:", key=True)
    defaults = checked_keys(doc, given or {}, ("defaults",), list(fields), "defaults")
    defaults = {k: field_value(doc, game, fields[k], x, ("defaults", k), k, pictures) for k, x in defaults.items()}
    # the texts of the game's other editions, read with this one's (a build of the default language
    # keeps them on its pieces: the change report tells a translation's edit, engine/changes.py)
    defaults_elsewhere = read_elsewhere(doc, game, fields, ("defaults",), written_elsewhere(
        game, written.get("defaults") if isinstance(written, dict) else None))
    elsewhere: list[dict[str, dict[str, Any]]] = []  # each piece's, as written
    options = _shape_options(doc, data, shape, trim, geo is not None and "points" in geo.options)
    if box is not None:
        options["box"] = box.frozen()
    given = [key for key in ("size", "format", "box") if key in data]
    if geo is not None:
        _layout_shape_options(geo, shape, trim, options, doc.where((given[0],)) if given else None)
    if shape == "rounded" and options.get("corner_radius") == 0:  # square corners: cut as a rect, not along a die line
        shape = "rect"
        del options["corner_radius"]
    template_options = parse_at(doc, ("options",), v.mapping, data.get("options"), "options")
    for key in template_options:
        if key in SHAPE_KEYS:
            raise doc.error(("options", key), f"{key} is a shape key", f"'{key}:' at the top of the deck file",
                            key=True)
    options.update(template_options)
    deck = Deck(
        id=path.stem,
        name=one_line_text(doc, data["name"], ("name",), "a deck's name"),
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
    held = next((figures[k].value for k in ("deck", "decks") if k in figures), None)
    if held is not None and isinstance(figures.get("count"), tuckbox.Held):  # its count the deck's, not written
        deck.follows = (tuple(held) if isinstance(held, list) else (str(held),)), int(figures["count"].value)
    if "sheet" in data:
        deck.sheet, deck.sheet_where = sheet_layout(ws, doc, data), doc.where(("sheet",))
    if "die" in data:  # a paper d6 a template draws: its faces' boxes (a layout's: its own die:)
        deck.die = parse_at(doc, ("die",), piecesize.die_faces, data["die"], *trim)
    if "stand_up" in data:  # a fold-over standee a template draws: its figure's box (a layout's: its own stand_up:)
        deck.stand_up = parse_at(doc, ("stand_up",), piecesize.stand_up_box, data["stand_up"], *trim)
    if given:
        deck.size_where = doc.where((given[0],))
    _own_paper(doc, data, deck)
    if "bleed" in data:  # the deck's own bleed over --bleed: a punchboard's 0, a board's 5 mm
        deck.bleed_mm = parse_at(doc, ("bleed",), optionvalues.bleed_option, data["bleed"])
        parse_at(doc, ("bleed",), piecesize.bleed_fits, deck.bleed_mm, *trim, "bleed:")
    _own_sleeve(doc, data, deck)
    if "lint" in data:  # the deck's own figures, over the game's (a design that means to reach the edge)
        deck.lint = lint.settings(data["lint"], lambda keypath, parse, value, key: parse_at(doc, keypath, parse, value, key),
                                  base=game.options.get("lint"))
    if layout_raw is not None:
        deck.layout = layoutsides.finish(
            layout_raw, boxlengths.frame(trim, options), shape,
            game=layoutsides.GameNames(game.palette, sorted(game.text_fonts or game.fonts), game.languages),
            deck=layoutsides.DeckFile(doc.path, deck.size_where, frozenset(unplaceheld(data))))
        game.notes += layoutsides.over_tracks(layout_raw, deck.layout)
        game.notes += layoutsides.letters_astride(layout_raw, deck.layout)
        deck.front, deck.back = layouts.side_templates(deck.id, deck.layout)
    if "sealed" in data:  # a legacy game's sealed pack: the book shows its back alone, never its faces
        deck.sealed = parse_at(doc, ("sealed",), v.flag, data["sealed"])
        if deck.sealed and deck.back is None:
            raise doc.error(("sealed",), "a sealed deck is shown in the rulebook by its back alone, and this deck has "
                            "no back", "a back: (or a layout with a back) for the sealed deck, or sealed: false")
    if deck.paper_die is not None and kind != "token":
        _not_a_token(doc, data, layout_raw, kind, "die", "paper die", "die", "as its net")
    if deck.standee is not None and kind != "token":
        _not_a_token(doc, data, layout_raw, kind, "stand_up", "fold-over standee", "standee", "the whole strip")
    pieces = data["pieces"]
    rows: Source = doc  # where the pieces are written: this YAML file, or a spreadsheet (sheets.py)
    if isinstance(pieces, dict):
        rows, pieces = read_pieces(doc, path, game.root, fields, books)
        if "translations" in data["pieces"]:  # a worksheet per language (data/translationsheets.py)
            default = game.translations.default if game.translations is not None else game.languages[0]
            add_translations(doc, rows, pieces, fields, game.languages, default, books)
        if rows.hidden:  # as a hidden sheet is passed over, a hidden row may be taken for one left out
            one = len(rows.hidden) == 1
            game.notes.append(f"{rows.path}:{rows.hidden[0]}: {rows_said(rows.hidden)}, hidden in the office program, "
                              f"{'is read as a piece' if one else 'are read as pieces'} all the same (count: 0 keeps "
                              "a piece and prints none; delete a row to drop its piece)")
        if rows.lone_questions:
            row, col, near = rows.lone_questions[0]
            more = len(rows.lone_questions) - 1
            game.notes.append(f"{rows.path}:{row}: cell {col}{row} holds '?' between Japanese characters ({near})"
                              + (f", and {more} more cell{'s' if more > 1 else ''}" if more else "")
                              + ": a mark the file's encoding cannot hold (♥, ♡, an emoji) is saved as '?' by "
                              "Japanese Excel's CSV; if a mark was meant, save the file as CSV UTF-8 and type it "
                              "again (a question mark in Japanese text: ？)")
        if rows.blank_counts:
            row, col = rows.blank_counts[0]
            more = len(rows.blank_counts) - 1
            sheet = f" of worksheet {rows.worksheet!r}" if rows.worksheet else ""
            game.notes.append(f"{rows.path}:{row}: cell {col}{row}{sheet} ({rows.label('count')}) is a formula that "
                              "gave nothing (an empty text)" + (f", and in {more} more row{'s' if more > 1 else ''}"
                                                                if more else "")
                              + ": 1 copy is printed, as for an empty count (expected the formula to give the "
                              "number of copies for every row, e.g. =IF(…, 2, 1), or 0 for none)")
        if rows.worksheet is not None:
            deck.worksheet = (doc.where(("pieces", "file")), rows.worksheet, rows.sheet is not None)
        deck.sheet_headers = dict(rows.labels)  # export-sheet heads its columns as the sheet does
        if game.translations is not None:
            pieces, elsewhere = game.translations.resolve_rows(rows, pieces, fields)
    elif isinstance(written, dict) and isinstance(written.get("pieces"), list):
        elsewhere = [written_elsewhere(game, piece) for piece in written["pieces"]]
    if isinstance(pieces, str) and Path(pieces).suffix.lower() in SUFFIXES:  # pieces: units.csv
        raise doc.error(("pieces",), f"pieces names the spreadsheet {pieces!r} without 'file:'",
                        f"pieces: {{file: {pieces}}}")
    if not isinstance(pieces, list) or not pieces:
        raise doc.error(("pieces",), "pieces must be a non-empty list",
                        "'- name: …' entries or {file: cards.csv}" + PIECES_HINT)
    _refuse_too_many_copies(doc, pieces)
    if layout_raw is not None and isinstance(pieces, list):
        # a field the deck declares but no box shows may be the one a box misspells (fields: {player: colour},
        # background: piece.playr): its pieces' values are not what the slip is told against
        _misspelt_reads(layout_raw, pieces, defaults, [k for k in allowed if k in boxed or k == "count"])
    label_field = parse_at(doc, ("label",), v.choice, data["label"], list(fields), "label field") \
        if "label" in data else _title_box_field(deck.layout)
    shown = shown_fields(deck, game.lang)
    painted = painted_fields(deck, game.lang) - shown
    optional = optional_fields(deck, data, game.lang)
    count_example = "'count: 3'" if not isinstance(rows, SheetDoc) else \
        f"3 in the {rows.label('count')} column"  # the row and column lead the message (枚数, mapped by columns:)
    missing: list[ArtFileRefused] = []  # art files the pieces name that are not there: told together
    sole = (deck.name or deck.id) if len(pieces) == 1 else ""  # a sole piece without a name: named as its deck
    # a die of several without a name: its deck's name and its number (order.csv's "#2" named nothing the dice show)
    numbered = deck.paper_die is not None and len(pieces) > 1
    for i, raw in enumerate(pieces):
        keypath = ("pieces", i)
        raw = checked_keys(rows, raw, keypath, allowed, "the header row" if rows is not doc else f"piece {i + 1}",
                    NEW_FIELD if layout_raw is None else NEW_FIELD_LAYOUT.replace("{layout}", _layout_name(data)))
        values = {name: None for name in fields}
        values.update(defaults)
        for key, value in raw.items():
            if key != "count":
                try:
                    values[key] = field_value(rows, game, fields[key], value, keypath + (key,), key, pictures)
                except ArtFileRefused as e:
                    missing.append(e)
        read = read_elsewhere(rows, game, fields, keypath, elsewhere[i]) if i < len(elsewhere) else {}
        piece_elsewhere = read_otherwise(values, raw, read, defaults_elsewhere) if read or defaults_elsewhere else {}
        refuse_track_lengths(rows, keypath, deck, values, raw, doc)
        refuse_unprintable_text(rows, keypath, deck, values, raw, doc, game)
        piece = Piece(index=i + 1, values=values, where=rows.where(keypath),
                      count=parse_at(rows, keypath + ("count",), v.count, raw.get("count", 1), v.COUNT, count_example),
                      label_field=label_field, deck_label=f"{deck.name or deck.id} {i + 1}" if numbered else sole,
                      field_lines=_field_lines(rows, keypath, raw),
                      field_keys={} if rows is doc else _cell_keys(rows, keypath, raw), editions=piece_elsewhere)
        deck.pieces.append(piece)
        for key, value in values.items():  # (a parked piece prints nothing: nothing open, but in a list that prints it)
            # (where a value is, looked up only for a value that is open: a thousand cards' values
            # were each looked up twice, some 12 µs a card, for the few that are)
            if isinstance(value, (dict, list)) or is_placeholder(value):
                where = rows.where(keypath + (key,)) if key in raw else doc.where(("defaults", key))
                collect_placeholders(piece.open, where, key, value, piece)
            if fields[key] == "image" and not (value or "").strip() and key not in optional:
                kind = NO_ART_YET
            elif key in shown and (value is None or str(value).strip() == ""):
                kind = EMPTY_SHOWN
            elif key in painted and (value is None or str(value).strip() == ""):
                kind = EMPTY_PAINTED
            else:
                continue
            cell = rows.where(keypath + (key,)) if key in raw or rows is not doc else piece.where  # (an empty cell's own)
            piece.open.append((cell, placeholder_field(piece, key), kind))
    if missing:
        raise ArtFileRefused.together(missing)
    if "unique" in data:  # a field no two pieces share: 番号 on scenario cards
        deck.unique = parse_at(doc, ("unique",), v.choice, data["unique"], list(fields), "unique field")
        refuse_repeats(rows, doc, deck.unique, deck.pieces)
    if "sections" in data:  # the sections of one map: each's column and row (Tabletop Simulator joins them)
        deck.sections = read_sections(doc, rows, data["sections"], deck.kind, fields, deck.pieces)
    # parked pieces print nothing: no translation of theirs is missing (a spreadsheet's: their rows)
    parked = {(rows.path, line, column if rows is doc else None) for piece in deck.pieces if piece.count == 0
              for line, column in piece.field_lines.values()}
    if game.translations is not None and parked:
        game.translations.missing = [m for m in game.translations.missing if (
            m.where.path, m.where.line, m.where.column if rows is doc else None) not in parked]
    if game.translations is not None and rows is doc:  # Japanese left plain among translated texts
        translations = game.translations
        texts = chain(  # (walked only by a build in a Latin-script edition: a thousand pieces' places not made for nothing)
            [(doc.where(("name",)), "name", deck.name)],
            ((doc.where(("defaults", k)), f"defaults.{k}", x) for k, x in defaults.items() if fields[k] == "text"),
            ((doc.where(("pieces", i, k)), f"pieces.{i + 1}.{k}", piece.values[k])
             for i, (raw, piece) in enumerate(zip(pieces, deck.pieces)) if isinstance(raw, dict) and piece.count
             for k in raw if k != "count" and fields.get(k) == "text"),
            ((doc.where(("pieces", i, k, *at)), f"pieces.{i + 1}.{k}" + "".join(f".{n + 1}" for n in at), x)
             for i, (raw, piece) in enumerate(zip(pieces, deck.pieces)) if isinstance(raw, dict) and piece.count
             for k in raw if fields.get(k) == "list" for at, x in translations.list_texts(piece.values[k])))
        translations.plain_texts(path, texts)
    if rows is not doc:
        refuse_totals_row(rows, deck)
    elif layout_raw is None:  # a template's deck: a field one piece forgot prints nothing there, unasked
        game.notes += left_out_fields(deck, pieces, fields, defaults)
    game.notes += tuckbox.miscounted(deck, figures, [k for k, kind in fields.items() if kind == "text"])
    lints = deck.lint if deck.lint is not None else game.options.get("lint", lint.LintSettings())
    colour_fields = [k for k, kind in fields.items() if kind == "colour"]
    if lints.on and colour_fields:  # a suit's colours a red-green colour-blind player cannot tell apart
        if lints.colour_blind_said:  # (the build's and check's alike)
            game.notes += colourvision.lookalikes(deck, colour_fields, game.palette, lints.colour_blind)
        else:  # said by check only, at its own distance
            game.check_notes += colourvision.lookalikes(deck, colour_fields, game.palette, lint.CHECK_COLOUR_BLIND,
                                                        unasked=True)
    _refuse_copies(doc, sum(p.count for p in deck.pieces))
    return deck


def _refuse_copies(doc: Located, copies: int) -> None:
    """More copies than one deck prints: each copy is a page of the shop file (a hundred
    thousand took minutes)."""
    if copies > v.COUNT[1]:
        raise doc.error(("pieces",), f"the deck prints {copies:,} copies",
                        f"at most {v.COUNT[1]:,} copies in one deck (split it into several decks)")


def _refuse_too_many_copies(doc: Located, pieces: list) -> None:
    """The copies the pieces surely print, counted before any piece is read: a piece without a
    count is one copy, a count written as a whole number in bounds is its copies, any other is
    read with its piece (and told there). 150,000 pieces on one line were each read and checked
    (7 CPU-s) before the deck was refused for their copies."""
    if not isinstance(pieces, list) or len(pieces) <= v.COUNT[1]:
        return
    copies = 0
    for raw in pieces:
        if isinstance(raw, dict):
            count = raw.get("count", 1)
            if isinstance(count, int) and not isinstance(count, bool) and v.COUNT[0] <= count <= v.COUNT[1]:
                copies += count
    _refuse_copies(doc, copies)


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
        sizes = geo.where["size"].parse(piecesize.size, shape, shape in SINGLE_SIZE_SHAPES)
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
        options["corner_radius"] = geo.where["corner_radius"].parse(piecesize.corner_radius, shape, *trim)
    if "points" in geo.options and "points" not in options and shape == "polygon":
        options["points"] = layouts.outline(geo, trim, size_where)
