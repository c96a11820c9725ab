"""Load and validate a game's YAML into the model: game.yaml read here, each deck file by
data/deckfile.py, every mistake reported with file:line:column."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pnpgen import fonts as fontreg
from pnpgen.data import i18n, ink, lint, piecesize
from pnpgen.data import validate as v
from pnpgen.data.art import Sizes
from pnpgen.data.deckfile import load_deck, sheet_layout
from pnpgen.data.formats import MAX_DPI
from pnpgen.data.gamefiles import deck_files, game_file
from pnpgen.data.mapkeys import checked_keys, one_line_text, parse_at
from pnpgen.data.model import Deck, Game, Sourced
from pnpgen.data.names import check_deck_ids
from pnpgen.data.piecevalues import Source, refuse_yes_no
from pnpgen.data.workbooks import Workbooks
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.errors import InputError, Where, contained, suggest
from pnpgen.safetext import INVISIBLE, name_control_char, name_invisible_char, shown_invisible, shown_name

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
    "max_dpi": "the resolution ceiling raster art is resampled to: a dpi from 72 to 2400, or none (--max-dpi wins)",
}
SOURCED_KEYS = ("name", "count", "note")


def max_dpi_of(given: float | None, game: Game) -> float:
    """The resolution ceiling of a build or export: ``--max-dpi`` as given, else game.yaml's
    ``max_dpi:``, else 600 (``MAX_DPI``); 0: none."""
    return given if given is not None else float(game.options.get("max_dpi", MAX_DPI))


def load_game(ws: Workspace, slug: str, lang: str | None = None, art: bool = True, sizes: Sizes | None = None) -> Game:
    """The game with every text in ``lang`` (default: the game's default language). With
    ``art=False`` (``pnpgen list``) the art files ``image`` fields name are not opened; ``sizes``:
    the art files' sizes found by earlier builds (data/art.py)."""
    folder = ws.game_dir(slug)
    bad = name_control_char(slug)
    if bad and folder.exists():  # the slug names the game's output folder and every message about it (typed: unknown)
        raise InputError(f"a game folder's name holds {bad}", path=ws.data,
                         expected=f"a folder name of letters, digits, - and _: rename {shown_name(slug)}")
    hidden = name_invisible_char(slug)
    if hidden and folder.exists():  # (two games, or a game and its typed name, alike on the screen; its outputs too)
        raise InputError(f"a game folder's name holds {hidden}", path=ws.data,
                         expected=f"a folder name without invisible characters: rename {shown_invisible(slug)} to "
                                  f"{INVISIBLE.sub('', slug) or 'a name of letters'}")
    game_yaml = game_file(ws, slug)
    contained(game_yaml, ws.data, "game", game_yaml)
    doc = load_yaml(game_yaml)
    if not checked_keys(doc, doc.data, (), GAME_KEYS, "game.yaml"):  # a mistyped key first (langauges: leaves fonts.en unplaced)
        raise doc.error((), "game.yaml is empty", "'title:' and the game's other keys — a save caught half-way? "
                        "the next save builds it")
    translations = i18n.Translations.from_game(doc, lang)
    data = checked_keys(doc, doc.data, (), GAME_KEYS, "game.yaml")
    if "title" not in data:
        raise doc.error((), "missing key 'title'", GAME_KEYS["title"])
    palette = parse_at(doc, ("palette",), v.mapping, data.get("palette"), "palette")
    for name, value in palette.items():
        parse_at(doc, ("palette", name), v.name, name, "a colour name")
        parse_at(doc, ("palette", name), v.hex_colour, value)
    fontreg.saved_since()  # (watch, serve: a font saved over since the last build is read anew)
    font_roles = dict(fontreg.DEFAULT_FONTS)
    fonts_in = parse_at(doc, ("fonts",), v.mapping, data.get("fonts"), "fonts")
    for role, name in fonts_in.items():
        font_roles[parse_at(doc, ("fonts", role), v.name, role, "a font role")] = \
            parse_at(doc, ("fonts", role), v.name, name, "a font")
    fallback = parse_at(doc, ("fallback_fonts",), v.names, data.get("fallback_fonts"), "fallback_fonts")
    for role, name in font_roles.items():
        where = doc.where(("fonts", role)) if role in fonts_in else Where(doc.path)
        font_roles[role] = fontreg.locate(name, ws.fonts, where=where, key=f"fonts.{role}" if role in fonts_in else "fonts")
    for i, name in enumerate(fallback):
        fallback[i] = fontreg.locate(name, ws.fonts, where=doc.where(("fallback_fonts", i)), key=f"fallback_fonts.{i + 1}")
    text_fonts, text_fallbacks = translations.text_fonts(doc, font_roles, fallback, ws.fonts, frozenset(fonts_in))
    sourced = []
    for i, item in enumerate(parse_at(doc, ("sourced",), v.sequence, data.get("sourced"), "sourced")):
        item = checked_keys(doc, item, ("sourced", i), SOURCED_KEYS, "a sourced component")
        sourced.append(Sourced(one_line_text(doc, item.get("name"), ("sourced", i, "name"), "a component's name"),
                               parse_at(doc, ("sourced", i, "count"), v.count, item.get("count", 1), v.SOURCED_COUNT,
                                        "'count: 3'", ("the parts bought, not printed", "parts")),
                               str(item.get("note", "") or ""), str(doc.where(("sourced", i)))))
    draft_name = parse_at(doc, ("draft_file",), v.name, data.get("draft_file", "draft.txt"), "draft_file")
    for key in ("title", "subtitle"):
        refuse_yes_no(doc, (key,), data.get(key))
    game = Game(
        slug=slug,
        title=one_line_text(doc, parse_at(doc, ("title",), v.label, data["title"], "title"), ("title",), "the game's title"),
        draft=v.draft_number(parse_at(doc, ("draft",), v.label, data.get("draft", ""), "draft")),
        players=v.players_count(str(parse_at(doc, ("players",), v.label, data.get("players", ""), "players"))),
        date=str(parse_at(doc, ("date",), v.label, data.get("date", ""), "date")),
        palette=dict(palette),
        fonts=font_roles,
        fallback_fonts=fallback,
        decks=[],
        sourced=sourced,
        root=folder,
        draft_file=contained(draft_name, folder, "draft_file", doc.where(("draft_file",))),
        options={"subtitle": str(parse_at(doc, ("subtitle",), v.label, data.get("subtitle", ""), "subtitle")),
                 "stamp": parse_at(doc, ("stamp",), v.flag, data.get("stamp", True)),
                 "share_sheets": parse_at(doc, ("share_sheets",), v.flag, data.get("share_sheets", False)),
                 "printer": str(parse_at(doc, ("printer",), v.label, data["printer"], "printer")) if data.get("printer") else None,
                 "printer_at": doc.where(("printer",)),
                 "players_at": doc.where(("players",)),  # (a warning of players: 未定 starts there)
                 "paper": parse_at(doc, ("paper",), v.paper, data["paper"]) if data.get("paper") else None,
                 "max_dpi": parse_at(doc, ("max_dpi",), v.max_dpi, data["max_dpi"]) if "max_dpi" in data else MAX_DPI,
                 "sheet": sheet_layout(ws, doc, data) if "sheet" in data else None,
                 "sheet_at": doc.where(("sheet",)),
                 "ink": ink.figures(data.get("ink"), lambda keypath, parse, value, key: parse_at(doc, keypath, parse, value, key)),
                 "lint": lint.settings(data.get("lint"), lambda keypath, parse, value, key: parse_at(doc, keypath, parse, value, key))},
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
    books = Workbooks()  # a workbook of several decks' worksheets: opened once
    decks = _Decks({path.stem: path for path in deck_files(game)},
                   lambda path, named: load_deck(ws, game, path, art, sizes, named, books), folder)
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


def check_bleed(game: Game, bleed_mm: float) -> None:
    """The build's bleed against every deck's pieces (the bleed is a build option, the size data);
    a deck with a ``bleed:`` of its own was checked against it as it loaded."""
    for deck in game.decks:
        if deck.bleed_mm is not None:
            continue
        try:
            piecesize.bleed_fits(bleed_mm, *deck.trim_mm)
        except v.Invalid as e:
            where = deck.size_at
            raise InputError(e.message, path=where.path, line=where.line, column=where.column,
                             key="format" if deck.format != "custom" else "size", expected=e.expected) from None
