"""Template stage: one piece face → an SVG document, through autoescaped Jinja templates: the game's
environment (sandboxed, budgeted), the context a template sees, each face rendered (or found alike or
remembered) and what it produced checked."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import jinja2
from lxml import etree

from pnpgen.data.formats import MAX_DPI, MIN_DPI, SAFE_MM
from pnpgen.data.markup import literal
from pnpgen.data.model import PLACEHOLDER_COLOUR, Deck, FieldText, Game, is_placeholder, placeholder_word, text_box_of
from pnpgen.errors import InputError, TemplateMistake, parser_said
from pnpgen.faces import builtin, layouts, vertical
from pnpgen.faces.budget import MAX_FACE_CHARS, FaceEnvironment, LoopBudget, printed
from pnpgen.faces.colours import FaceColours
from pnpgen.faces.compiled import CompiledTemplates
from pnpgen.faces.face import Face
from pnpgen.faces.failure import RenderFailure, one_line
from pnpgen.faces.helpers import shape_tools
from pnpgen.faces.images import ArtPlacer
from pnpgen.faces.jinjahints import syntax_mistake, unprinted
from pnpgen.faces.loaders import NamedPrefixLoader, WorkspaceLoader
from pnpgen.faces.lookup import check_templates, find_template
from pnpgen.faces.pieceview import DeckView, FaceUndefined, PieceView, last_empty_read
from pnpgen.faces.rendermemo import RenderMemo
from pnpgen.faces.rootsize import give_size, root_box, root_mistake
from pnpgen.faces.sourcelines import COMMON, SourceLines, designers_line, face_key, lines_of, svg_mistake, traced
from pnpgen.svg.style import SOURCE, props_of
from pnpgen.svg.text import known_font, text_fonts, unknown_font
from pnpgen.svg.unprinted import read_from_elsewhere
from pnpgen.terms import is_latin
from pnpgen.text import TextContext, icon, icons_saved, textbox


def _bound(helper: Callable[..., Any], ctx: TextContext,
           shown: Callable[[Any], Any] = lambda value: value,
           ink: Callable[[Any], Any] | None = None) -> Callable[..., Any]:
    """``helper`` with this face's text context bound, as a plain function: a template sees its
    arguments, not the context (a partial's ``.args`` would show fonts and folders). ``shown``:
    what the first argument (the text it sets) must pass; ``ink``: what reads its ``fill`` (text/
    knows palette names and hex only; a CSS name is read here, where ``paint`` is)."""
    bound = partial(helper, ctx)
    fill_at = list(_signature_after_context(helper).parameters).index("fill") if ink is not None else -1

    def call(*args: Any, **kwargs: Any) -> Any:
        if args:
            args = (shown(args[0]), *args[1:])
        elif "text" in kwargs:
            kwargs["text"] = shown(kwargs["text"])
        if ink is not None:
            if "fill" in kwargs:
                kwargs["fill"] = ink(kwargs["fill"])
            elif len(args) > fill_at:
                args = (*args[:fill_at], ink(args[fill_at]), *args[fill_at + 1:])
        return bound(*args, **kwargs)

    call.__name__ = helper.__name__
    call.__signature__ = _signature_after_context(helper)  # type: ignore[attr-defined]
    return call


@lru_cache(maxsize=16)
def _signature_after_context(helper: Callable[..., Any]) -> inspect.Signature:
    """``helper``'s signature without its first parameter (the context ``_bound`` gives it): the
    signature ``inspect`` reads from the partial, worked out once per helper, not once per face."""
    sig = inspect.signature(helper)
    return sig.replace(parameters=list(sig.parameters.values())[1:])


class _TooLong(Exception):
    pass


def _designers_line() -> str | None:
    """The line of the game's template (not pnpgen's macros, not a layout) placing a text box."""
    at = designers_line((*COMMON, layouts.PREFIX))
    return f"templates/{at}" if at else None


def _bounded_text(chunks: Iterable[str]) -> str:
    """The rendered text, stopped once it passes MAX_FACE_CHARS."""
    out, n = [], 0
    for chunk in chunks:
        n += len(chunk)
        if n > MAX_FACE_CHARS:
            raise _TooLong
        out.append(chunk)
    return "".join(out)


class DrawnBleed:
    """The bleed each deck's faces are drawn with: ``bleed_mm``, or a deck's own (``deck_bleeds``,
    ``Game.drawn_bleeds``); the renderer and the game it rendered answer alike."""

    bleed_mm: float
    deck_bleeds: dict[str, float]  # deck id → the bleed its faces are drawn with, if not bleed_mm

    def bleed_of(self, deck: Deck) -> float:
        """The bleed ``deck``'s faces are drawn with (a template's ``bleed``)."""
        return self.deck_bleeds.get(deck.id, self.bleed_mm)


class Renderer(DrawnBleed, FaceColours, RenderFailure):
    """Holds the Jinja environment for one game; renders faces to SVG text."""

    def template_source(self, name: str) -> str:
        """A game template's text by its name, as Jinja loads it ('' for none), once per build."""
        if name not in self._sources:
            try:
                self._sources[name] = self.env.loader.get_source(self.env, name)[0] if self.env.loader else ""
            except jinja2.TemplateNotFound:
                self._sources[name] = ""
        return self._sources[name]

    def __init__(self, templates: Path, game: Game, bleed_mm: float, min_dpi: float = MIN_DPI,
                 compiled: CompiledTemplates | None = None, memo: RenderMemo | None = None,
                 printed: Mapping[str, float] | None = None, deck_bleeds: Mapping[str, float] | None = None,
                 max_dpi: float = MAX_DPI, deck_dpi: Mapping[str, float] | None = None):
        self.game = game
        self.memo = memo
        self.bleed_mm = bleed_mm
        self.deck_bleeds = dict(deck_bleeds or {})
        self.env = FaceEnvironment(
            # The workspace's templates/ first, so its own common/<file> replaces a built-in one.
            loader=jinja2.ChoiceLoader([
                NamedPrefixLoader({layouts.PREFIX: jinja2.FunctionLoader(self._layout_source)}),
                WorkspaceLoader(templates),
                NamedPrefixLoader({"common": jinja2.FileSystemLoader(str(builtin.FOLDER / "common"))}),
            ]),
            bytecode_cache=compiled if compiled is not None else CompiledTemplates(),
            auto_reload=False,  # a renderer lives for one build: no template file is stat'ed again per face
            extensions=[LoopBudget, SourceLines],
            autoescape=True,
            undefined=FaceUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters.update(tint=self.tint, shade=self.shade, literal=literal, tate_marks=vertical.tate_marks)
        del self.env.globals["lipsum"]  # lipsum(10**9) would be a face of a billion words
        loops = self.env.extensions[LoopBudget.identifier]
        assert isinstance(loops, LoopBudget)  # added above, in the Environment's extensions
        self.loops = loops
        self.templates = templates
        self.icon_dirs = builtin.icon_dirs(templates, game.slug)
        icons_saved(self.icon_dirs)  # (one process building save after save: an icon edited is drawn anew)
        self.warnings: list[str] = []
        self._sources: dict[str, str] = {}  # template name → its text (template_source)
        default = game.translations.default if game.translations is not None else game.lang
        # another edition set in Latin script: Japanese a template writes itself is warned (text/box.py)
        self.translated_from = default if game.lang != default and is_latin(game.lang) else ""
        self.art = ArtPlacer(game, templates, min_dpi, self.warnings, printed, memo.stamps if memo is not None else None,
                              max_dpi, deck_dpi, memo.sizes if memo is not None else None)  # image(); art.folder.resolver for <image>
        # (SVG, trim, bleed) found well-formed → (placements, grounded, the warnings once a deck and file it asked for)
        self._checked: dict[tuple[str, tuple[float, float], float], tuple[list, str | None, list[list[str]]]] = {}
        self._printed: set[str] = set()  # templates whose art is all inside their parent's blocks (unprinted)
        self._deck_counts: dict[str, int] = {}  # deck id → its total count, summed once per deck
        self._names: dict[tuple[str, str], str] = {}  # (deck id, side) → the template's name for Jinja
        self._files: dict[tuple[str, str], str] = {}  # (deck id, side) → its template's file (template_file): once, not per face
        # (deck id, side) → the SVG of a face whose template read nothing of its piece or deck and
        # placed no picture and warned of nothing: every piece's face on that side (a deck's back)
        self._alike: dict[tuple[str, str], dict[str, Any]] = {}
        self._printed_by: dict[str, list[str]] | None = None  # a data line → the decks printing it (``where``)
        self._reading: tuple[Face, PieceView] | None = None  # the face being rendered and its piece as read
        self._names.update(check_templates(templates, game))  # a template not there: no face renders

    def replays(self, face: Face, known: Any) -> bool:
        """Whether ``known``, the memo's record under ``face``'s key, is the face as it renders now:
        the counts are no part of the key (rendermemo.py), so a record whose render read the
        deck's total (``deck_count``) or its piece's count (``count``) holds the one it was drawn
        with, one that read its index (``piece.n``: ``n``) that index, one that warned where its
        piece was written and which it is (``at``: its warnings name them), and the art files it
        looked at are still what they were."""
        return isinstance(known, dict) and known.get("deck_count", self.deck_count(face.deck)) == self.deck_count(face.deck) \
            and known.get("count", face.piece.count) == face.piece.count and known.get("n", face.piece.index) == face.piece.index \
            and self.memo is not None \
            and (known.get("at") is None or known["at"] == self.memo.place(face.piece)) \
            and self.memo.fresh(known, self.art.folder)

    def deck_count(self, deck: Deck) -> int:
        """The deck's total count (summed over its pieces once, not for every face)."""
        count = self._deck_counts.get(deck.id)
        if count is None:
            count = self._deck_counts[deck.id] = deck.count
        return count

    def _layout_source(self, name: str) -> tuple[str, None, Callable[[], bool]] | None:
        """The template text of a deck's layout side (``@layout/<deck>/<side>``), compiled from
        the layout the deck was loaded with."""
        deck_id, _, side = name.rpartition("/")
        for deck in self.game.decks:
            if deck.id == deck_id and deck.layout is not None and (side == "front" or deck.layout.back is not None):
                return layouts.compile_side(deck.layout, side), None, lambda: True
        return None

    def where(self, face: Face) -> str:
        """The deck, piece (with its YAML file:line) and side, for error messages; a piece the deck
        parks (``count: 0``) said so, with the decks that print its line (starter decks reading one
        card sheet by their count columns): the first deck's error named one that prints none."""
        piece = face.piece
        parked = ""
        if piece.count == 0:
            if self._printed_by is None:  # (once: a starter deck reading a whole card sheet parks most of it)
                self._printed_by = {}
                for deck in self.game.decks:
                    for printed in deck.pieces:
                        if printed.count and deck.id not in (by := self._printed_by.setdefault(str(printed.where), [])):
                            by.append(deck.id)
            by = self._printed_by.get(str(piece.where), [])
            parked = "; parked here (count: 0)" + (f", {', '.join(by)} {'prints' if len(by) == 1 else 'print'} it"
                                                    if by else "")
        return f"deck {face.deck.id!r} piece {piece.index} ({piece.said}, {piece.where}{parked}) {face.side}"

    @staticmethod
    def piece_words(face: Face) -> str:
        """The deck, piece and side, said after the piece's file:line (a warning about its text)."""
        return f"deck {face.deck.id!r} piece {face.piece.index} ({face.piece.said}) {face.side}"

    def template_name(self, deck: Deck, side: str) -> str:
        """The name Jinja loads the deck's ``side`` template by (``find_template``)."""
        key = (deck.id, side)
        if key not in self._names:
            self._names[key] = find_template(self.templates, self.game.slug, deck, side)
        return self._names[key]

    def template_file(self, face: Face) -> str:
        """The file of the template a face names (a workspace or a built-in one), for messages
        about what it produced; the name as written when no file has it; "" for a built-in
        layout's face, which no file holds (Jinja names it '<template>': messages began
        'pnpgen: error: <template>: …'); its messages name the piece."""
        key = (face.deck.id, face.side)
        known = self._files.get(key)
        if known is None:
            known = self._files[key] = self._template_file(self.template_name(face.deck, face.side))
        return known

    def _template_file(self, name: str) -> str:
        if name.startswith(layouts.PREFIX):
            return ""
        try:
            return self.env.get_template(name).filename or name
        except Exception:  # noqa: BLE001 - rendering reports a template that does not load
            return name

    def render(self, face: Face, reads: set[str] | None = None) -> str:
        """The face's SVG; the names of the piece fields the template read go into ``reads``
        (a face that never reads ``copy`` is the same for every copy; one whose template read
        nothing of its piece, placed no picture and warned of nothing — a deck's back — is the
        same for every piece of the deck, and Jinja runs once for it). With a ``memo``, a face
        rendered by an earlier build from the same inputs comes back without running Jinja,
        its warnings and image placements replayed."""
        return self.rendered(face, reads)[0]

    def rendered(self, face: Face, reads: set[str] | None = None) -> tuple[str, dict[str, Any] | None]:
        """``render``'s SVG and, with a ``memo``, its record: what a remembered render replays, and
        the face's key and source lines (``face``, ``lines``: faces/faceset.py ``FaceSet.add``),
        so that a face remembered is not hashed or searched again."""
        reads = reads if reads is not None else set()
        alike = self._alike.get((face.deck.id, face.side))
        if self.memo is None:
            if alike is not None:  # the same for every piece: a thousand cards' back is drawn once
                return alike["svg"], None
            n_warnings, n_images = len(self.warnings), self.art.count()
            svg = self._render(face, reads)
            if not reads and len(self.warnings) == n_warnings and self.art.count() == n_images:
                self._alike[(face.deck.id, face.side)] = {"svg": svg, "reads": [], "warnings": [], "images": [], "art": []}
            return svg, None
        key = self.memo.key(face, self.bleed_of(face.deck))
        known = self.memo.get(key)
        if isinstance(known, dict) and isinstance(known.get("svg"), str) and self.replays(face, known):
            reads.update(known.get("reads", ()))
            self.warnings.extend(known.get("warnings", ()))
            self.art.replay_once(known.get("once"), face.piece)  # (said here if no face before said it)
            self.art.replay(known.get("images", ()), face.piece)
            if not any(known.get(k) for k in ("reads", "warnings", "images", "art", "once")):
                self._alike[(face.deck.id, face.side)] = known
            return known["svg"], known
        if alike is not None:  # the same for every piece: drawn once, remembered for each
            self.memo.learn(key, alike)
            return alike["svg"], alike
        n_warnings, n_images = len(self.warnings), self.art.count()
        n_asked, n_said = len(self.art.once_asked), len(self.art.once_said)
        deck_reads: set[str] = set()
        trail = self.art.folder.trail = []
        try:
            svg = self._render(face, reads, deck_reads)
        finally:
            self.art.folder.trail = None
        said_once = self.art.once_said[n_said:]  # (remembered as asked, not as said: replayed where a cold build says them)
        learned: dict[str, Any] = {"svg": svg, "reads": sorted(reads),
                                   "warnings": [w for w in self.warnings[n_warnings:] if w not in said_once],
                                   "once": self.art.once_asked[n_asked:],
                                   "images": self.art.placements_since(n_images),
                                   "art": self.memo.art_of(self.art.folder, trail), "face": face_key(svg), "lines": lines_of(svg)}
        if "count" in deck_reads:
            learned["deck_count"] = self.deck_count(face.deck)
        if "count" in reads:
            learned["count"] = face.piece.count
        if "n" in reads:  # (the index is no part of the key: rendermemo.py)
            learned["n"] = face.piece.index
        if learned["warnings"]:  # (they name where the piece is written: replayed only there)
            learned["at"] = self.memo.place(face.piece)
        if not reads and not learned["warnings"] and not learned["images"] and not learned["art"] and not learned["once"]:
            self._alike[(face.deck.id, face.side)] = learned
        self.memo.learn(key, learned)
        return svg, learned

    def _render(self, face: Face, reads: set[str], deck_reads: set[str] | None = None) -> str:
        deck, piece = face.deck, face.piece
        template_name = self.template_name(deck, face.side)
        where = self.where(face)
        ctx = TextContext(
            fonts=self.game.text_fonts or self.game.fonts,  # the language's card-text fonts (data/i18n.py)
            fallback_fonts=self.game.text_fallback_fonts or self.game.fallback_fonts,
            palette=self.game.palette,
            icon_dirs=self.icon_dirs,
            where=where,
            lang=self.game.lang,
            latin_gap=self.game.latin_gap,
            in_layout=deck.layout is not None,
            box_of=None if deck.layout is None else partial(text_box_of, deck.layout, face.side),
            placed_at=_designers_line,
            piece_at=lambda name: str(piece.where_of(name)),
            piece_words=self.piece_words(face),
            translated_from=self.translated_from,
            template_source=self.template_source,
        )
        w, h = deck.trim_mm
        values: dict[str, Any] = dict(piece.values)
        values.update(count=piece.count, n=piece.index, copy=face.copy)
        context: dict[str, Any] = dict(
            piece=PieceView(values, reads),
            deck=DeckView(dict(id=deck.id, name=deck.name, kind=deck.kind, shape=deck.shape,
                               count=self.deck_count(deck), options=deck.options),
                          deck_reads if deck_reads is not None else set()),
            game=dict(title=FieldText(str(self.game.title), "game.title"), draft=self.game.draft, players=self.game.players,
                      lang=self.game.lang),
            w=w, h=h, bleed=self.bleed_of(deck), safe=SAFE_MM,
            palette=self.game.palette,
            colour=self.colour,
            paint=self.paint,
            readable=self.readable,
            fonts=self.game.text_fonts or self.game.fonts,
            textbox=traced(_bound(textbox, ctx, printed, self.text_ink)),
            icon=traced(_bound(icon, ctx)),
            tate_columns=_bound(vertical.tate_columns, ctx),
            tate_start=_bound(vertical.tate_start, ctx),
            tate_column=_bound(vertical.tate_column, ctx),
            is_placeholder=is_placeholder,
            placeholder_colour=PLACEHOLDER_COLOUR,
            placeholder_word=placeholder_word(self.game.lang),
        )
        # Shape and score-track helpers (helpers.py): track(), outline(), shape, hex_points().
        context.update(shape_tools(deck, face.side, self.game.text_fonts or self.game.fonts, self.colour))
        context.update(self.art.tools(deck, piece, template_name, context["textbox"], self.colour))
        self.loops.reset()
        self._reading = (face, context["piece"])
        try:
            template = self.env.get_template(template_name)
            if template_name not in self._printed:
                self._all_printed(template_name, template.filename)
            svg = _bounded_text(template.generate(context))
        except jinja2.TemplateSyntaxError as e:
            said, expected, line = syntax_mistake(e.message or "", e.lineno, e.source, self.env.filters)
            raise TemplateMistake(one_line(f"template syntax error: {said}"), path=e.filename or self.templates / template_name,
                                  line=line, expected=expected) from None
        except _TooLong:
            raise InputError(f"the face's SVG is longer than {MAX_FACE_CHARS:,} characters (rendering {where})",
                             path=self.templates / template_name, expected="a smaller face") from None
        except TemplateMistake:  # (unprinted art: said at its own line already)
            raise
        except Exception as e:  # noqa: BLE001 - whatever a template or a helper raises is the template's error
            failure = self._failure(e, face, template_name, where, context)
            failure.glyph = e.glyph if isinstance(e, InputError) else None  # (said once by check, for every piece;
            failure.icon = e.icon if isinstance(e, InputError) else None  # an icon file's fault, too)
            raise failure from None
        finally:
            self._reading = None
        found, grounded = self._well_formed(svg, template_name, where, face)
        self.art.place(deck, piece, found)
        svg = grounded or svg
        self.warnings.extend(ctx.warnings)
        return svg

    def painted_open(self) -> None:
        """A template's ``colour(piece.edge)`` of a piece whose ``edge`` is empty paints it grey:
        warned at the piece's line, with the template's (a layout's empty colour fields are listed
        as open by check and proof.txt instead: data/piecevalues.py ``painted_fields``)."""
        if self._reading is None or self._reading[0].deck.layout is not None:
            return
        face, view = self._reading
        field = last_empty_read(view)
        if field is None:
            return
        placed = _designers_line()
        msg = (f"{face.piece.where_of(field)}: deck {face.deck.id!r}, piece {face.piece.said}: {field} is empty, so "
               f"{placed or 'the template'} paints it the grey of a colour still open (expected its colour, or "
               f"{placeholder_word(self.game.lang)}, which check and proof.txt list as open)")
        if msg not in self.warnings:
            self.warnings.append(msg)

    def _all_printed(self, template_name: str, filename: str | None) -> None:
        """Stop at art a template writes where its parent prints nothing (outside {% block art %})."""
        found = unprinted(self.env, template_name)
        if found is not None:
            what, line, expected = found
            raise TemplateMistake(what, path=filename or self.templates / template_name, line=line, expected=expected)
        self._printed.add(template_name)

    def _well_formed(self, svg: str, template_name: str, where: str, face: Face) -> tuple[list, str | None]:
        """Invalid SVG, and an ``<image href>`` naming no readable file, are the template's
        mistakes: say so here, where the template is known. Returns the face's plain ``<image>``
        placements, for the manifest, and the SVG with its see-through pictures' grounds (or None:
        unchanged)."""
        trim, bleed = face.deck.trim_mm, self.bleed_of(face.deck)
        if (svg, trim, bleed) in self._checked:
            found, grounded, asked = self._checked[(svg, trim, bleed)]
            for once in asked:  # (another piece's face alike: its warnings once a deck and file asked for again)
                self.art.warn_once(once, face.piece)
            return found, grounded
        try:
            root = etree.fromstring(svg.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
        except etree.XMLSyntaxError as e:
            at, what, expected = svg_mistake(svg, parser_said(e.msg), e.lineno or 0, e.offset or 0)
            name, _, line = (at or "").rpartition(":")
            written = name and (self.templates / name).is_file()  # a template of the workspace's
            raise InputError(f"the template produced invalid SVG: {what} (rendering {where})",
                             path=self.templates / (name if written else template_name),
                             line=int(line) if written else None, expected=expected) from None
        filename = self.env.get_template(template_name).filename  # none for a layout (faces/layouts.py)
        template = Path(filename) if filename else self.templates / template_name
        self._refuse_reads(root, template, where)
        sized = self._check_root(root, template, where, trim, bleed)
        self._check_fonts(root, template, where)
        found = self.art.check_hrefs(root, template, where)
        n_asked = len(self.art.once_asked)
        grounded = etree.tostring(root, encoding="unicode") \
            if self.art.ground(root, face.deck, face.piece) or sized else None
        self._checked[(svg, trim, bleed)] = found, grounded, self.art.once_asked[n_asked:]
        return found, grounded

    def _refuse_reads(self, root, template: Path, where: str) -> None:
        """An XInclude or an external entity the SVG asks for (``read_from_elsewhere``), said at the
        template line that wrote it: pnpgen reads no file into a face, so the face would print without it."""
        found = read_from_elsewhere(root)
        if found is None:
            return
        el, what, written = found
        name, _, line = ((el.get(SOURCE) or "") if el is not None else "").rpartition(":")
        path, at = (self.templates / name, int(line)) if name and line.isdigit() and (self.templates / name).is_file() \
            else self.art.written_at(written, template)
        raise InputError(f"{where}: {what}, which pnpgen never reads (nor does a browser): the face would print "
                         "without it", path=path, line=at,
                         expected="the content written into the template itself, or a template of templates/ "
                         "included with {% include %}, or a picture of art/ shown with <image href>")

    def _check_root(self, root, template: Path, where: str, trim: tuple[float, float], bleed: float) -> bool:
        """The root <svg> is the face (faces/rootsize.py), said at the line that wrote it; True
        if the face's size was written on a root that gives none."""
        box = root_box(root, where)
        mistake = root_mistake(box, trim, bleed, where)
        if mistake is None:
            return give_size(root, box, trim, bleed)
        name, _, line = box.at.rpartition(":")
        written = bool(name) and (self.templates / name).is_file()  # the workspace's (its own common/piece.svg.j2 too)
        raise TemplateMistake(mistake[0], path=self.templates / name if written else template,
                              line=int(line) if written and line.isdigit() else None, expected=mistake[1])

    def _check_fonts(self, root, template: Path, where: str) -> None:
        """Every text names one of the game's fonts: the own converter requires it, and svglib,
        drawing a face outside the converter's subset, would set it in a default font instead."""
        for el, family in text_fonts(root):
            if known_font(family) is None:
                weight = next((w for w in (props_of(n).get("font-weight") for n in (el, *el.iterancestors())) if w), "normal")
                what, expected = unknown_font(family, weight)
                first = family.split(",")[0].strip(" '\"")
                path, line = self.art.written_at(f'"{first}"' if first else "<text", template)
                if line is None and first:
                    path, line = self.art.written_at(first, template)
                raise InputError(f"{where}: <{etree.QName(el).localname}> {what}", path=path, line=line, key="font-family",
                                 expected=expected)
