"""Plain data passed between stages: a Game holds Decks, a Deck holds its unique Pieces with their counts."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnpgen.data.markup import plain
from pnpgen.errors import Where
from pnpgen.messages import msg
from pnpgen.safetext import SAID, clipped

# An open value starts with 未定, or with TBD as an English draft writes it: either mark is read in
# every language, and prints as the edition's own word (msg "placeholder": 未定, TBD)
PLACEHOLDER_MARK = re.compile(r"\s*(未定|TBD(?![A-Za-z0-9]))")
PLACEHOLDER_COLOUR = "#e4007f"  # process magenta: a 未定 value must be seen on the proof
OPEN_COLOUR = "#9a9a9a"  # a neutral grey where a colour field is still 未定 (templates' colour())
NAMING_FIELDS = ("name", "title", "id", "number", "value", "label")  # a piece's name, unless its deck says
SAID_LABEL = SAID  # characters of a piece's label a message names it by (Piece.said)
# what a placeholder list (check, proof.txt) says of a piece's field the data leaves open
NO_ART_YET = "no art yet"
EMPTY_SHOWN = "(empty: the layout prints the placeholder)"  # said as msg proof.open.empty: open_value_said
EMPTY_PAINTED = "(empty: the layout paints it grey)"  # a colour field a layout paints with: msg proof.open.grey
# A field's metadata: what the digests of what a build shows — the rulebook's key (engine/bookkey.py)
# and the exports' (engine/export.py) — pass over, each by these marks alone, never by a field's name:
# a new field of the kind is marked once, here on the model, and every digest follows.
# (Read-only: a module's dict one caller changed would unmark every field it marks.)
# What the loaded game keeps for a command or a message that no face, page or export shows
# (how a message names a piece's field and where it is set): neither digest
UNSHOWN_FIELD: Mapping[str, bool] = MappingProxyType({"shown": False})
# What no export shows but the rulebook may: where a thing was read from (its proof list names the
# lines; an added line of English moves the Japanese lines below it), what loading said of it, the
# components bought: the exports' digest passes over it, the rulebook's key reads it
EXPORTS_UNSHOWN_FIELD: Mapping[str, bool] = MappingProxyType({"exports": False})
# What the rulebook does not show of a piece: its own count (the components pages print its deck's
# total, so a count moved between two pieces of a deck sets no page again); the exports print it (and
# a deck's sheet headers, which a Tabletop Simulator card's Description labels its fields by)
BOOK_UNSHOWN_FIELD: Mapping[str, bool] = MappingProxyType({"book": False})


def shown_field(f: Any) -> bool:
    """Is the dataclass field ``f`` part of what the game shows (not marked ``UNSHOWN_FIELD``)?"""
    return f.metadata.get("shown", True)


def shown_in_exports(f: Any) -> bool:
    """Is the dataclass field ``f`` read by the exports' digest (marked neither ``UNSHOWN_FIELD``
    nor ``EXPORTS_UNSHOWN_FIELD``)?"""
    return shown_field(f) and f.metadata.get("exports", True)


def shown_in_book(f: Any) -> bool:
    """Is the dataclass field ``f`` read by the rulebook's key (marked neither ``UNSHOWN_FIELD``
    nor ``BOOK_UNSHOWN_FIELD``)?"""
    return shown_field(f) and f.metadata.get("book", True)


LATIN_GAP = 0.25  # em: JLREQ's 和欧間 between Japanese and Western characters, unless the game says


class FieldText(str):
    """A text value from YAML that remembers its field, so warnings can name it."""

    field: str = ""

    def __new__(cls, value: str, field_name: str = "") -> FieldText:
        obj = super().__new__(cls, value)
        obj.field = field_name
        return obj


def is_placeholder(value: object) -> bool:
    """The designer's draft is silent here: the value starts with 未定 (or TBD) and prints visibly."""
    return isinstance(value, str) and PLACEHOLDER_MARK.match(value) is not None


def placeholder_note(value: object) -> str:
    """What a placeholder says after its mark (``未定 dragon.png`` → ``dragon.png``), else nothing."""
    if not isinstance(value, str):
        return ""
    found = PLACEHOLDER_MARK.match(value)
    return value[found.end():].strip() if found else ""


def placeholder_word(lang: str) -> str:
    """The word an edition prints for a value still open: 未定, TBD."""
    return msg("placeholder", lang)


def placeholder_said(value: str, lang: str) -> str:
    """A placeholder as the ``lang`` edition prints it: its mark (未定 or TBD) in that language's
    word, the designer's note after it as written (``未定 (write its effect)`` → ``TBD (write its
    effect)``); any other text as it is."""
    found = PLACEHOLDER_MARK.match(value)
    if found is None:
        return value
    return value[:found.start(1)] + placeholder_word(lang) + value[found.end(1):]


def open_value_said(value: str, lang: str, word_lang: str) -> str:
    """A placeholder list's entry (Deck.placeholders) in ``lang``'s words; an empty box names the
    word the ``word_lang`` edition prints there."""
    if value == NO_ART_YET:
        return msg("proof.open.no_art", lang)
    if value == EMPTY_SHOWN:
        return msg("proof.open.empty", lang, word=placeholder_word(word_lang))
    if value == EMPTY_PAINTED:
        return msg("proof.open.grey", lang)
    return value


@dataclass(frozen=True)
class OpenValue:
    """One 未定 (or picture not drawn yet) where the data writes it, listed once with every deck that
    prints it: a sheet's row that several decks read, each by its count column, is one entry naming
    them (``open_values_once``)."""

    where: Where
    text: str  # as Deck.placeholders holds it (open_value_said says it)
    decks: tuple[Deck, ...]  # in the game's order, the first that prints it first
    fields: tuple[str, ...]  # ``竜.art``: each piece's field it leaves open (a default's reach many pieces)


def open_values_once(decks: Iterable[Deck]) -> list[OpenValue]:
    """The decks' placeholders, each place, text and field once with the decks that print it: the
    one rule of ``pnpgen check``, proof.txt and an export's warnings. A default's placeholder is one
    entry with every piece it reaches (one field of each: a piece's own empty fields share its
    line, and each is listed); a sheet's row that decks reading the one sheet each print (starter
    decks by their count columns) one entry naming them, in the order of the first deck that
    prints each."""
    same: dict[tuple[str, str, str], tuple[Where, dict[str, Deck], dict[str, list[str]]]] = {}
    for deck in decks:
        for where, name, text in deck.placeholders:
            _, found, fields = same.setdefault((str(where), text, name.rpartition(".")[2]), (where, {}, {}))
            found[deck.id] = deck
            fields.setdefault(deck.id, []).append(name)  # (pieces of one name each counted: five リソースボード.food_max)
    # the pieces of the first deck that prints it: each deck reading a shared row prints the same ones
    return [OpenValue(where, text, tuple(found.values()), tuple(next(iter(fields.values()))))
            for (_, text, _), (where, found, fields) in same.items()]


@dataclass
class Piece:
    """One unique entry of a deck, with how many copies to print."""

    index: int  # 1-based among the deck's unique entries
    values: dict[str, Any]  # fields with defaults applied
    count: int = field(metadata=BOOK_UNSHOWN_FIELD)
    where: Where = field(metadata=EXPORTS_UNSHOWN_FIELD)
    label_field: str | None = None  # the deck's ``label:``: the field that names its pieces
    # the deck's name (else its file's), for the one piece of a deck that gives it no name (a board, a
    # deck of one entry of 54 cards): what the designer calls it, where "#1" said nothing; a die of a
    # deck of several dice, the deck's name and its number (``ダイス 2``)
    deck_label: str = ""
    # (line, column) of each field the piece sets itself, in the file ``where`` names: a mistake in
    # one field's text is said at that field's line, not the piece's first
    field_lines: dict[str, tuple[int | None, int | None]] = field(default_factory=dict, repr=False, compare=False,
                                                                  metadata=UNSHOWN_FIELD)
    # the piece's own placeholders (where, field, text), listed whether or not it prints: its deck's
    # ``placeholders`` are its printed pieces', and a deck list that prints a parked one lists its
    open: list[tuple[Where, str, str]] = field(default_factory=list, repr=False, compare=False, metadata=UNSHOWN_FIELD)
    # how a message names each field a spreadsheet's row sets: its header and column (``text.en
    # (column G)``), where the designer looks; a YAML piece's are its field names
    field_keys: dict[str, str] = field(default_factory=dict, repr=False, compare=False, metadata=UNSHOWN_FIELD)
    # where the piece's count is written when not at ``where``: a deck list's entry (``ST01-005: 0``, a
    # list sheet's count cell), where a piece the list parks is told; None: at ``where``
    count_where: Where | None = field(default=None, repr=False, compare=False, metadata=UNSHOWN_FIELD)
    # the fields the game's other editions read otherwise, as each reads them (language → field →
    # value: ``{"en": {"title": "Fire"}}``), kept by a build of the default language from the one
    # read of the data (Translations.other_editions): the change report tells a translation's edit
    editions: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False, metadata=UNSHOWN_FIELD)

    def where_of(self, name: str | None) -> Where:
        """Where the piece sets field ``name`` (its own line), else where the piece starts."""
        line, column = self.field_lines.get(name or "", (None, None))
        return Where(self.where.path, line, column, self.where.sheet) if line is not None else self.where

    def key_of(self, name: str) -> str:
        """How a message names the piece's field ``name``: its spreadsheet header and column, else the name."""
        return self.field_keys.get(name, name)

    @property
    def shows_placeholder(self) -> bool:
        """Does this piece show a placeholder (未定, no art yet)? A printed one with one of its own
        (``open``): told by the piece, not by its label, which other pieces of the deck may share."""
        return bool(self.count and self.open)

    @property
    def label(self) -> str:
        """The piece's name in order.csv, page labels, change reports and messages: the deck's
        ``label:`` field, else the first of NAMING_FIELDS it has, else the deck's name when it is
        the deck's only piece, or with its number when it is a paper die (``deck_label``), else ``#<index>``; as it reads, without its markup
        (``{南瓜|かぼちゃ}`` → 南瓜, ``**強**`` → 強)."""
        return self.own_name or self.deck_label or f"#{self.index}"

    @property
    def said(self) -> str:
        """The label as a message names the piece: at most ``SAID_LABEL`` characters (a paragraph
        pasted into a title made each warning about the piece 15 KB long)."""
        return clipped(self.label, SAID_LABEL)

    @property
    def own_name(self) -> str:
        """The name the piece is given ('' when none: its label is then its place, ``#<index>``,
        which moves when a piece before it is deleted, so no face prints it)."""
        key = self.name_field
        return _label_text(str(self.values[key])) if key is not None else ""

    @property
    def name_field(self) -> str | None:
        """The field that gives the piece its name (``own_name``): the deck's ``label:`` field, else
        the first of NAMING_FIELDS it has; None when none does."""
        return next((key for key in ((self.label_field,) if self.label_field else NAMING_FIELDS)
                     if key in self.values and self.values[key] not in (None, "")), None)


@lru_cache(maxsize=1 << 16)
def _label_text(text: str) -> str:
    """A label as it reads (markup removed, on one line): worked out once per text, not each of
    the seven times a build names a piece."""
    return plain(text).replace("\n", " ")


@dataclass(frozen=True)
class LayoutBox:
    """One box of a layout (data/layouts.py), its lengths resolved to mm for the deck's trim."""

    name: str
    type: str  # text | image | icons | panel | frame | line | grid | folds | track (a track's fill "none": see-through)
    options: tuple[tuple[str, Any], ...]  # every box option (BOX_OPTIONS), given or default

    def get(self, key: str) -> Any:
        return dict(self.options)[key]


@dataclass(frozen=True)
class LayoutSide:
    """One side of a built-in layout as the faces draw it: its background and its boxes in drawing order."""

    background: str | None  # colour spec: '#rrggbb', a palette name, 'piece.<field>'
    boxes: tuple[LayoutBox, ...]


@dataclass(frozen=True)
class Layout:
    """A built-in or workspace layout (``layout:`` in a deck) resolved for one deck: what
    faces/layouts.py compiles into the deck's front and back templates."""

    name: str  # as the deck names it; ``<deck file's stem> (inline)`` for an inline override
    trim_mm: tuple[float, float]
    shape: str
    palette: tuple[tuple[str, str], ...]  # colour names the layout uses, with the colour used when the game has none
    fields: tuple[tuple[str, str], ...]  # piece fields the boxes read, with their types
    front: LayoutSide
    back: LayoutSide | None
    # the colour names a deck's own ``layout: {extends: …, palette: …}`` sets: they win over the
    # game's palette for that deck (a layout file's only stand in where the game has none)
    deck_palette: tuple[str, ...] = ()
    # the game's palette names the boxes read that the layout has no colour of its own for
    # (``band: {fill: wheat}``): read, so never a near miss of one the layout has
    game_colours: tuple[str, ...] = ()
    # ``stand_up:``: the front's image box the piece stands as in Tabletop Simulator (x, y, w, h mm)
    stand_up: tuple[float, float, float, float] | None = None
    # ``die:``: the front's boxes that are a folded die's faces 1 to 6, each x, y, w, h mm (a
    # Tabletop Simulator ``Custom_Dice`` is made of them)
    die: tuple[tuple[float, float, float, float], ...] | None = None
    # … and those six boxes: what each shows (a text or icons field) is that face's value on the table
    die_boxes: tuple[LayoutBox, ...] | None = None


def text_box_of(layout: Layout, side: str, field: str) -> str | None:
    """The name of the one text box of ``layout``'s ``side`` showing ``field`` (``unit: {field: title}``),
    for a warning to name the box the deck file writes; None when no box, or several, show it."""
    boxes = (layout.back if side == "back" else layout.front) or layout.front
    names = [box.name for box in boxes.boxes if box.type == "text" and box.get("field") == field]
    return names[0] if len(names) == 1 else None


@dataclass
class Deck:
    """One deck file of a game (cards, tiles, tokens or a board): the pieces, their shape and size, the templates or
    layout that draw them and where each setting was written, so an error names the line."""

    id: str  # file stem of data/<game>/decks/<id>.yaml
    name: str
    kind: str  # card | tile | token | board
    shape: str  # rect | rounded | circle | hex | trihex | polygon
    trim_mm: tuple[float, float]  # bounding box of the trim shape
    format: str  # named format or "custom"
    front: str  # template name as the deck names it (faces/templates.py finds its file)
    back: str | None
    pieces: list[Piece]
    source: Path = field(metadata=EXPORTS_UNSHOWN_FIELD)
    options: dict[str, Any] = field(default_factory=dict)  # shape options: corner_radius, points, orientation, …
    # "front"/"back" → where the deck names it
    template_where: dict[str, Where] = field(default_factory=dict, metadata=EXPORTS_UNSHOWN_FIELD)
    layout: Layout | None = None  # the deck's ``layout:``; front and back then name its compiled templates
    # where the deck file says ``layout:`` (None: its templates draw it)
    layout_where: Where | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)
    sheet: Any = None  # the deck's ``sheet:`` (data/sheetlayouts.py SheetStock; None: grid or not said)
    sheet_where: Where | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)  # where the deck file says ``sheet:``
    # where the deck file gives ``size:`` or ``format:`` (None: its layout's size)
    size_where: Where | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)
    name_where: Where | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)  # where the deck file gives its ``name:``
    lint: Any = None  # the deck file's ``lint:`` over the game's (data/lint.py LintSettings; None: the game's)
    die: tuple[tuple[float, float, float, float], ...] | None = None  # ``die:``: a template's paper d6's faces 1–6
    stand_up: tuple[float, float, float, float] | None = None  # ``stand_up:``: a template's standee's figure box
    # a workbook's pieces: (pieces.file's line, worksheet read, named by sheet:)
    worksheet: tuple[Where, str, bool] | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)
    # a spreadsheet's columns the deck's ``columns:`` maps, or headed with its field's name in other
    # letters' case (``Cost``): field (or title.en) → the header the sheet writes
    # (export-sheet heads its columns so; a Tabletop Simulator card's Description labels a field so: no
    # page of the book shows it)
    sheet_headers: dict[str, str] = field(default_factory=dict, metadata=BOOK_UNSHOWN_FIELD)
    bleed_mm: float | None = None  # the deck file's ``bleed:`` over the build's --bleed (None: the build's)
    # a tuck box's: the decks whose copies its figures follow (box: {deck: cards}) and that count
    follows: tuple[tuple[str, ...], int] | None = None
    paper: str | None = None  # the deck file's ``paper:`` (data/formats.py PAPER_SIZES) over the game's (None: the build's)
    paper_where: Where | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)  # where the deck file says ``paper:``
    # the deck file's ``sleeve:``, the inside in mm its ``--layout sleeve`` inserts are made for, over --sleeve (None: the build's)
    sleeve_mm: tuple[float, float] | None = None
    sleeve_where: Where | None = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)  # where the deck file says ``sleeve:``
    sealed: bool = False  # ``sealed: true``: a legacy game's sealed pack, its faces kept out of the rulebook
    unique: str | None = field(default=None, metadata=UNSHOWN_FIELD)  # ``unique:``: the field no two pieces share
    listed: tuple[str, ...] | None = field(default=None, metadata=UNSHOWN_FIELD)  # a deck list's ``from:``: the decks it lists
    # ``sections:``: its pieces the sections of one map, each's column and row these fields (the
    # Tabletop Simulator export lays them out joined: data/mapsections.py); None: pieces apart
    sections: tuple[str, str] | None = field(default=None, metadata=BOOK_UNSHOWN_FIELD)

    def where(self, side: str | None = None) -> Where:
        """Where a warning about the whole deck starts, as a piece's starts at its line: the line
        naming the ``side``'s template when the deck names one, else its ``layout:`` line (which draws
        both sides and gives the size; line 1 of a deck ``pnpgen new`` wrote is a comment), else line 1."""
        return self.template_where.get(side or "") or self.layout_where or Where(self.source, 1)

    @property
    def size_at(self) -> Where:
        """Where the deck's size is written, or is to be written: its ``size:``/``format:`` line, else
        the file of the deck whose layout sizes it — a deck list's source deck's (a list takes no
        ``size:``: an export that sent the designer to write one there had it refused: trial83)."""
        if self.size_where is not None:
            return self.size_where
        return Where(self.where().path if self.listed else self.source)

    def where_about(self, line: Where | None) -> Where:
        """Where a warning about the whole deck starts when one line of a template deck's file is
        what it is about (its ``name:``, ``size:``, ``back:``; line 1 is often a comment); a layout
        deck's at its ``layout:`` line, which draws and sizes it, as ``where()``."""
        return line if line is not None and self.layout_where is None else self.where()

    def bleed(self, build_bleed_mm: float) -> float:
        """The bleed round this deck's pieces on its sheets and shop pages: its own, else the build's."""
        return build_bleed_mm if self.bleed_mm is None else self.bleed_mm

    @property
    def count(self) -> int:
        return sum(p.count for p in self.pieces)

    @property
    def placeholders(self) -> list[tuple[Where, str, str]]:
        """The placeholders (where, field, text) the deck prints: its printed pieces' ``open``, in
        their order (a parked piece, ``count: 0``, prints none)."""
        return [p for piece in self.pieces if piece.count for p in piece.open]

    @property
    def shown(self) -> Piece:
        """The piece that pictures the deck (the rulebook's components list and cover): its first
        printed one, not one parked (``count: 0``) before it that no copy of the game holds (a starter
        deck reading the whole card sheet through its own count column); the first when none prints."""
        return next((p for p in self.pieces if p.count), self.pieces[0])

    @property
    def paper_die(self) -> tuple[tuple[float, float, float, float], ...] | None:
        """A folded d6's faces 1–6: the deck file's ``die:`` (templates), else its layout's; None
        for any other piece. Every export reads it here, so a template's die is a die as a layout's is."""
        return self.die or (self.layout.die if self.layout is not None else None)

    @property
    def standee(self) -> tuple[float, float, float, float] | None:
        """A fold-over standee's upright figure (x, y, w, h mm): the deck file's ``stand_up:``
        (templates), else its layout's; None for a piece that lies flat. Read here by every export,
        so the templates ``layout export`` writes keep a standee a standee."""
        return self.stand_up or (self.layout.stand_up if self.layout is not None else None)


@dataclass
class Sourced:
    """A component bought, not printed: dice, cubes, pawns."""

    name: str
    count: int
    note: str = ""
    where: str = ""  # game.yaml's line that lists it (``path:line:column``): the proofing report names it


@dataclass
class Game:
    """One game as its data folder holds it, loaded and checked: its decks, the parts bought rather than printed,
    fonts, palette and languages; what every later stage reads instead of the YAML."""

    slug: str
    title: str
    draft: int | str
    players: str
    date: str  # printed on the rulebook cover; from data, never the clock
    palette: dict[str, str]
    fonts: dict[str, str]  # role (gothic, bold, mincho, mono) → font name (file stem in fonts/)
    fallback_fonts: list[str]
    decks: list[Deck]
    sourced: list[Sourced] = field(metadata=EXPORTS_UNSHOWN_FIELD)  # (the rulebook and the bill of materials list them)
    root: Path = field(metadata=EXPORTS_UNSHOWN_FIELD)  # data/<slug>
    draft_file: Path = field(metadata=EXPORTS_UNSHOWN_FIELD)
    options: dict[str, Any] = field(default_factory=dict)
    lang: str = "ja"  # the language this load was resolved in (data/i18n.py)
    languages: list[str] = field(default_factory=lambda: ["ja"])
    latin_gap: float = LATIN_GAP  # 和欧間 space between Japanese and Latin, em
    # data.i18n.Translations: what was resolved and what is missing
    translations: Any = field(default=None, metadata=EXPORTS_UNSHOWN_FIELD)
    text_fonts: dict[str, str] = field(default_factory=dict)  # roles for card text in ``lang`` (else fonts)
    named_fonts: frozenset[str] = frozenset()  # the roles game.yaml's fonts: names (plain or ``lang``'s own)
    text_fallback_fonts: list[str] = field(default_factory=list)  # … and its fallbacks (else fallback_fonts)
    # what loading passed over (a ._ file, an editor backup)
    notes: list[str] = field(default_factory=list, metadata=EXPORTS_UNSHOWN_FIELD)
    # what only ``pnpgen check`` says: colours a colour-blind player cannot tell apart, at check's
    # distance, in decks whose lint says no colour_blind of its own (a build stays quiet of them)
    check_notes: list[str] = field(default_factory=list, metadata=UNSHOWN_FIELD)

    def own_bleeds(self, build_bleed_mm: float) -> dict[str, tuple[float, float]]:
        """Deck id → (the bleed its faces are drawn with, the bleed it prints) of each deck with a
        bleed of its own: a wider one is drawn at its own, a narrower one at the build's (its
        pages clip the art to its own); every other deck is drawn and prints at the build's."""
        return {d.id: (max(build_bleed_mm, d.bleed_mm), d.bleed_mm) for d in self.decks if d.bleed_mm is not None}

    def drawn_bleeds(self, build_bleed_mm: float) -> dict[str, float]:
        """Deck id → the bleed its faces are drawn with, for the decks not drawn at the build's."""
        return {k: drawn for k, (drawn, _) in self.own_bleeds(build_bleed_mm).items() if drawn != build_bleed_mm}

    def deck(self, deck_id: str) -> Deck:
        """The deck of this id; typed with its characters composed otherwise than its file's name
        (``--deck カード``, the file named decomposed as macOS writes names), that deck too."""
        for d in self.decks:
            if d.id == deck_id:
                return d
        for d in self.decks:  # (ids differing only so are refused when the game loads: one at most)
            if unicodedata.normalize("NFC", d.id) == unicodedata.normalize("NFC", deck_id):
                return d
        raise KeyError(deck_id)
