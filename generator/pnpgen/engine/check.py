"""`pnpgen check`: what a build would refuse, found without writing a file. Every face of every
deck is rendered and converted as the build does it, every deck is placed on the paper, the
draft and the rulebook's settings are read and checked against the data when there is a draft
(the rulebook's warnings, without setting a page), and each problem is reported
once (a template line that fails for forty cards is one problem), so one run lists them all."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnpgen.data.art import ArtFolder, art_files
from pnpgen.data.formats import booklet_paper_for
from pnpgen.data.gamefiles import asks_for_rule_sheet
from pnpgen.data.lint import LintSettings
from pnpgen.data.load import check_bleed, max_dpi_of
from pnpgen.data.model import Deck, Game, Piece
from pnpgen.data.workspace import Workspace
from pnpgen.engine import bookkey
from pnpgen.engine.cache import Cache
from pnpgen.engine.facekeys import art_fingerprint, cached_nesting, cached_rendering, face_art, face_suffix
from pnpgen.engine.fingerprint import content_hash
from pnpgen.engine.fresh import edition
from pnpgen.engine.options import BuildOptions
from pnpgen.engine.paper import profile_paper_warnings, short_bleed_warnings, sleeve_fit_warnings, whole_sheet_warnings
from pnpgen.engine.placement import booklet_paper, deck_on_paper, deck_stock, game_printer
from pnpgen.errors import InputError, TemplateMistake, place
from pnpgen.exports.bleedcheck import ShopFace, bare_bleed_warnings, pack_name
from pnpgen.faces.builtin import icon_dirs
from pnpgen.faces.convert import convert_face
from pnpgen.faces.face import Face
from pnpgen.faces.faceset import FaceSet, face_renderer, parked_pictures_unsaid, unread_translations
from pnpgen.faces.printlint import lint_faces
from pnpgen.impose.onpaper import DeckOnPaper, deck_sheet, stock_warnings
from pnpgen.memo import Memo
from pnpgen.rulebook import pictures_from_game, rulebook_check
from pnpgen.svg.artwork import Art


@dataclass
class Problem:
    """One thing the build would stop at, and how many faces it stops."""

    error: InputError
    faces: int = 1
    key: tuple = ()  # what tells it apart from another problem (FaceCheck.add)
    also: list[str] = field(default_factory=list)  # the other lines of a character no font has
    first: str = ""  # the first face it stops, as its message says it ("deck 'cards' piece 1 (…) front")
    every: str = ""  # the template file it stops every face of (more than one), the same way at the same line



@dataclass
class FaceCheck:
    """What ``pnpgen check`` found drawing every face: each mistake once with the number of faces it stops, so a
    designer fixes one line instead of reading a thousand."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    faces: int = 0  # distinct faces that render and convert
    drawn: list[tuple[Deck, Piece, str, str]] = field(default_factory=list)  # (deck, piece, side, face key) rendered
    copies: list[int] = field(default_factory=list)  # the copy each of ``drawn`` is (1 but for a template reading piece.copy)
    svgs: dict[str, str] = field(default_factory=dict)  # face key → its rendered SVG (check --svg writes them)
    art: ArtFolder | None = None  # where the faces' pictures are found
    draft_open: list[str] = field(default_factory=list)  # the 未定 left in the draft's rules, each at its file:line (the first 50)
    draft_open_count: int = 0  # the draft's lines holding one, all of them (the list stops at 50, saying how many more)
    rule_sheet: str = ""  # the rule sheet's line of the build's summary, its sides counted (none asked: empty)

    def add(self, error: InputError, where: str = "", face: str = "") -> None:
        """A face's error; one already said is counted as one more face it stops (a template's
        syntax is one mistake of its file, however many faces it draws: said once). A face's
        conversion error names the face (``where``) in its message and no file: what it says
        past that name tells it apart, so two pictures refused for two reasons are both said."""
        said = error.message.replace(where, "") if where else ""  # (a picture's error names it inside: m05.svg
        # (image in deck 'fuda' piece 20 (…) front): every piece showing that picture is one mistake, trial43)
        key: tuple = (str(error.path), error.line, error.key, error.expected, said)
        glyph = error.glyph  # a character no font has, in many pieces' texts: one mistake (one font to
        if glyph:            # add), said once, the other pieces' lines listed
            key = ("no glyph", glyph, error.expected)
        elif error.icon:  # an icon file that cannot be drawn: one mistake of that file, however many pieces
            key = ("icon file", error.icon)  # show it, in a layout's deck (each at its piece's line) or a template's
        for p in self.problems:
            if p.key == key:
                p.faces += not isinstance(error, TemplateMistake)
                if glyph and error.path is not None:
                    p.also.append(place(error.path, error.line))
                return
        self.problems.append(Problem(error, key=key, first=face))

    def every_face(self, tried: dict[str, int]) -> None:
        """Mark each problem of a template file that stopped every face drawn by it (``tried``: the
        faces each template file was asked for), more than one: one template's mistake, told once
        for its file, not as its first piece's and "10 more faces the same way"."""
        for p in self.problems:
            file = str(p.error.path) if p.error.path is not None else ""
            # (a character no font has, an icon file that cannot be drawn: the data's or the icon's
            # mistake, its pieces named)
            if p.faces > 1 and p.first and tried.get(file) == p.faces and p.key[:1] not in (("no glyph",), ("icon file",)):
                p.every = file


def check_faces(ws: Workspace, game: Game, options: BuildOptions, cache: Cache | None = None) -> FaceCheck:
    """Render every piece's faces (the first copy; every copy of a face whose template reads
    ``piece.copy``, as the build does) and convert each distinct one. With the last
    build's ``cache`` (read only), a face rendered from the same inputs is replayed and one
    converted from the same SVG, art and pnpgen is known to convert: neither is done again."""
    out = FaceCheck()
    try:
        check_bleed(game, options.bleed_mm)
    except InputError as e:
        out.add(e)
    compiled, memo = cached_rendering(cache, ws, game.slug, options) if cache is not None else (None, None)
    bleed = options.bleed_mm  # the faces' but a deck's own wider one (a narrower one: its pages clip the art to it)
    renderer = face_renderer(ws.templates, game, bleed, options.min_dpi, compiled, memo,
                             deck_bleeds=game.drawn_bleeds(bleed), max_dpi=max_dpi_of(options.max_dpi, game))
    faces = FaceSet()
    drawn = []  # (deck, piece, side, face key) for the print lint
    read: dict[str, set[str]] = {}  # deck id → the piece fields its faces read
    tried: dict[str, int] = {}  # template file → the faces asked of it
    for deck in game.decks:
        for piece in deck.pieces:
            said = len(renderer.warnings)
            for side in ("front", "back") if deck.back else ("front",):
                reads: set[str] = set()  # (a set of its own: a face that reads nothing is every piece's)
                copy = 1
                while copy == 1 or "copy" in reads and copy <= piece.count:
                    face = Face(deck, piece, side, copy)
                    template = renderer.template_file(face)
                    tried[template] = tried.get(template, 0) + 1
                    try:
                        drawn.append((deck, piece, side, faces.add(renderer.render(face, reads), renderer.where(face),
                                                                   renderer.template_file(face))))
                        out.copies.append(copy)
                    except InputError as e:
                        out.add(e, face=renderer.where(face))
                        break
                    copy += 1
                read.setdefault(deck.id, set()).update(reads)
            parked_pictures_unsaid(renderer.warnings, said, piece)
    unread_translations(game, read, renderer)
    out.every_face(tried)
    out.drawn, out.svgs, out.art = drawn, faces.svgs, renderer.art.folder
    art = art_fingerprint(ws, game)
    if cache is not None:  # pictures that are art files as they are: read from there
        cache.art_files = art_files(ws, game, cache.digest, cache.stamps)
    arts: dict[str, Art] = {}
    names: dict[str, str] = {}  # face key → its cache name
    for key in faces.svgs:  # (in the decks' order: of faces failing alike, the first piece's is named)
        suffix = face_suffix(faces.svgs[key], face_art(faces.svgs[key], renderer.art.folder, art,
                                                       cache.digest if cache is not None else content_hash))
        names[key] = key + suffix
        known = cache.face(key + suffix, Art.from_json) if cache is not None else None
        try:
            arts[key] = known or convert_face((faces.svgs[key], faces.where[key], faces.template[key],
                                               renderer.art.folder))
            out.faces += 1
        except InputError as e:
            out.add(e, faces.where[key])
    lint = lint_faces(drawn, arts, bleed, game.options.get("lint", LintSettings()), ws.templates,
                      bleeds=renderer.deck_bleeds)
    known = Memo(known=cache.pack(pack_name(edition(game.slug, options)))) if cache is not None else Memo()
    lint += bare_bleed_warnings([ShopFace(deck, piece, side, key, names[key]) for deck, piece, side, key in drawn],
                                arts, bleed, game.fonts["gothic"], known, bleeds=game.own_bleeds(bleed))
    nest_memo = cached_nesting(cache)  # the layouts the last build searched for
    try:
        options = game_printer(ws, game, options)  # game.yaml's printer: unless --printer named one
    except InputError as e:
        out.add(e)
    placed: list[tuple[Deck, DeckOnPaper]] = []
    for deck in game.decks:
        try:
            placed.append((deck, deck_on_paper(deck, deck_sheet(deck, options.sheet), nest_memo, deck_stock(game, deck, options.stock))))
        except InputError as e:
            out.add(e)
    short = (short_bleed_warnings(placed, options) + profile_paper_warnings(placed, options)
             + whole_sheet_warnings(placed, options.sheet) + sleeve_fit_warnings(placed, options, every_own=True))
    book: list[str] = []
    if game.draft_file.is_file():  # the build typesets the rulebook: its draft, settings and warnings
        try:
            book, out.draft_open, out.draft_open_count, out.rule_sheet = rulebook_check(
                game, ws.fonts, icon_dirs(ws.templates, game.slug), _sheet_pictures(ws, game, options),
                _book_paper(ws, game, options),
                options.sheet.without_duplex)
        except InputError as e:
            out.add(e)
    else:  # the build warns that it makes no rulebook: so does check
        book = [bookkey.no_draft(game)]
    out.warnings = list(dict.fromkeys(game.notes + game.check_notes + renderer.warnings + renderer.art.case_twins(game) + book + lint + short
                                      + stock_warnings(placed, options.sheet)))
    return out


def _book_paper(ws: Workspace, game: Game, options: BuildOptions) -> str:
    """The booklet's paper the build sets the book (and a rule sheet naming none) on: the printer
    profile's (--printer's, game.yaml's), else game.yaml's ``paper:`` (a broken profile: said
    already, where check reads it)."""
    try:
        return booklet_paper(ws, game, options.printer.paper if options.printer is not None else None)
    except InputError:
        return booklet_paper_for(game.options.get("paper"))


def _sheet_pictures(ws: Workspace, game: Game, options: BuildOptions) -> dict | None:
    """The decks' pictures the rule sheet shows, as ``pnpgen rulebook`` makes them, when game.yaml asks
    for a sheet: check sets it as the build does, to say its sides (None: no sheet, or a face that
    does not render, a problem check says already)."""
    if not asks_for_rule_sheet(game):
        return None
    try:
        return pictures_from_game(game, ws.templates, max_dpi=max_dpi_of(options.max_dpi, game))
    except InputError:
        return None
