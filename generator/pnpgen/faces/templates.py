"""Template stage: one piece face → an SVG document, through autoescaped Jinja templates."""

from __future__ import annotations

import hashlib
import inspect
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from lxml import etree

from pnpgen import usercache
from pnpgen.data import validate
from pnpgen.data.art import ArtFolder
from pnpgen.data.formats import MIN_DPI, SAFE_MM
from pnpgen.data.markup import literal
from pnpgen.data.model import (
    OPEN_COLOUR,
    PLACEHOLDER_COLOUR,
    Deck,
    FieldText,
    Game,
    Piece,
    is_placeholder,
    placeholder_word,
)
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.errors import (
    NAME_BYTES,
    PATH_BYTES,
    InputError,
    TemplateMistake,
    ValueMistake,
    parser_said,
    suggest,
    too_long,
)
from pnpgen.faces import builtin, layouts, tate
from pnpgen.faces.budget import MAX_FACE_CHARS, FaceEnvironment, LoopBudget, printed
from pnpgen.faces.helpers import mix, readable, shape_tools
from pnpgen.faces.images import ArtPlacer
from pnpgen.faces.jinjahints import macro_called, nearly, syntax_mistake, unprinted
from pnpgen.faces.lookup import check_templates, find_template
from pnpgen.faces.pieceview import DeckView, FaceUndefined, MissingField, PieceView
from pnpgen.faces.rootsize import give_size, root_box, root_mistake
from pnpgen.faces.sourcelines import SourceLines, designers_line, svg_mistake, traced
from pnpgen.memo import Memo, Stamps
from pnpgen.patterns import later
from pnpgen.svg.style import hex_colour, parse_colour
from pnpgen.svg.text import known_font, text_fonts, unknown_font
from pnpgen.terms import is_latin
from pnpgen.text import TextContext, icon, icons_saved, textbox


@dataclass(frozen=True)
class Face:
    """What to draw for one side of one piece."""

    deck: Deck
    piece: Piece
    side: str  # "front" | "back"
    copy: int = 1


def _words(e: BaseException) -> str:
    """What went wrong in the words of the error, without Python's name for its kind."""
    said = " ".join(str(e).split())
    if isinstance(e, ZeroDivisionError):
        return f"a division by zero ({said})" if said else "a division by zero"
    return said or "the template stopped here"


class NamedPrefixLoader(jinja2.PrefixLoader):
    """Jinja's PrefixLoader, but its templates keep their whole name (``common/macros.svg.j2``,
    ``@layout/<deck>/front``): Jinja's own names them by what follows the prefix, so their lines
    were named ``templates/macros.svg.j2:N`` in the print lint, a file that is not there."""

    load = jinja2.BaseLoader.load  # the source through get_source (prefix resolved), the name whole


MAX_TEMPLATE_BYTES = 16_000_000  # one template file: the shipped ones are at most 14 kB; a 300 MB one took a minute and a gigabyte


class WorkspaceLoader(jinja2.FileSystemLoader):
    """Templates, includes and imports from templates/ only: Jinja refuses '..' in a name, and
    this refuses a file that a symlink leads out of the folder (an error, so the built-in
    templates tried next never stand in for it)."""

    def __init__(self, root: Path):
        super().__init__(str(root))
        self.root = root.resolve()

    def get_source(self, environment: jinja2.Environment, template: str):
        if too_long(template):  # (looked up, it raises ENAMETOOLONG: said raw, the whole name)
            raise jinja2.TemplateNotFound(template)
        for folder in self.searchpath:  # as Jinja finds it; measured before it is read whole
            path = Path(folder, *jinja2.loaders.split_template_path(template))
            if path.is_file() and path.stat().st_size > MAX_TEMPLATE_BYTES:
                raise InputError(f"template {template!r} is {path.stat().st_size:,} bytes", path=f"templates/{template}",
                                 key="template", expected=f"at most {MAX_TEMPLATE_BYTES:,} bytes (a picture pasted in "
                                 "as data: belongs in the art folder, placed with image())")
        try:
            source, filename, uptodate = super().get_source(environment, template)
        except UnicodeDecodeError as e:  # Shift-JIS, UTF-16…: the template is wrong, not the deck
            raise InputError(f"template {template!r} is not UTF-8 text (byte {e.start + 1} is {e.object[e.start]:#04x})",
                             path=f"templates/{template}", key="template",
                             expected="the template saved as UTF-8 (in the editor's save-as encoding)") from None
        if not Path(filename).resolve().is_relative_to(self.root):  # not TemplateNotFound: no fallback
            raise InputError(f"template {template!r} leads outside templates/", key="template",
                             expected="a file inside templates/, without links leading out")
        return source, filename, uptodate


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


_UNDEFINED = later(r"^'(\w+)' is undefined")
# "textbox() got an unexpected keyword argument 'colour'"; a helper made inside another is named by
# Python's path to it, "shape_tools.<locals>.outline() takes from 0 to 1 positional arguments"
_CALLED = later(r"^(?:[\w.]*<locals>\.)?(\w+)\(\) ")


def _helper_called(e: TypeError, context: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    """(name, arguments) of the template helper a TypeError says was called wrongly, if it names one."""
    m = _CALLED.match(str(e))
    helper = context.get(m.group(1)) if m else None
    if m is None or not callable(helper):
        return None
    try:
        params = inspect.signature(helper).parameters.values()
    except (TypeError, ValueError):
        return None
    return m.group(1), [p.name if p.default is p.empty else f"{p.name}={p.default!r}" for p in params]


# Templates compiled in this process, by bucket key: the default ``memory`` of every
# ``CompiledTemplates`` (``pnpgen watch`` and every later build of the same process reuse them).
# Jinja checks each entry's source checksum, so sharing it can never serve a stale template.
PROCESS_COMPILED: dict[str, bytes] = {}
COMPILED_KIND = "templates"  # compiled templates by name and source, in the machine's cache (usercache.py)


class CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept between builds (Jinja's public bytecode-cache interface): in
    ``memory`` (by default the process's own, so ``pnpgen watch`` compiles a template once) and
    in the machine's cache (``usercache.py``), by the template's name and source text, so the
    same template in another folder (a copied workspace, a new build folder, ``pnpgen check``)
    is not compiled again — 10 % of the CPU of a first ``pnpgen build --all`` of the shipped
    games, 13 ms of a small game's first build. Jinja checks each entry's source checksum, so an
    edited template is compiled again; an entry that does not load (damaged, other Python) is
    too. Jinja's generated code does not depend on the file's path; the code found is pointed at
    this file (``_at``), so tracebacks and messages name it.

    Never in the workspace's own ``.cache/``: compiled code there would come with a zipped or
    shared workspace and run outside the template sandbox (its checks are a checksum anyone can
    compute). The machine's cache is written by pnpgen alone, for this user."""

    GENERATION = "sandbox+budget+lines+joins+printed+compares+slices 6"  # how templates are compiled (faces/budget.py): a change makes old entries unused

    def __init__(self, memory: dict[str, bytes] | None = None):
        self.memory = PROCESS_COMPILED if memory is None else memory

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        """The template's bucket, keyed by its name and source (not its file's path), its code
        found in memory or in the machine's cache when it was compiled before."""
        checksum = self.get_source_checksum(source)
        key = usercache.key(self.GENERATION.encode(), jinja2.__version__.encode(), name.encode(), checksum.encode())
        bucket = jinja2.bccache.Bucket(environment, key, checksum)
        data = self.memory.get(key)
        if data is None:
            kept = usercache.get(COMPILED_KIND, key)
            data = kept if isinstance(kept, bytes) else None
        if data is not None:
            try:
                bucket.bytecode_from_string(data)  # Jinja's own checks: its format, this source
            except Exception:  # noqa: BLE001 - a damaged entry (any error unpickling it): compile again
                bucket.reset()
        if bucket.code is not None:
            self.memory[key] = data  # type: ignore[assignment]  # loaded above
            bucket.code = _at(bucket.code, filename or "<template>")
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        """Unused: ``get_bucket`` looks entries up by name and source."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key not in self.memory:
            data = self.memory[bucket.key] = bucket.bytecode_to_string()
            usercache.put(COMPILED_KIND, bucket.key, data)


def _at(code: CodeType, filename: str) -> CodeType:
    """Compiled template code (its functions' code nested in its constants) as compiled from
    ``filename``: Jinja names a template's file, and a traceback its lines, by ``co_filename``."""
    consts = tuple(_at(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


@dataclass(eq=False)
class RenderMemo(Memo[dict]):
    """Faces rendered by earlier builds, by a key of everything a render reads: ``inputs`` (the
    hash of the templates, icons, fonts, art, game.yaml and pnpgen itself, made by the build)
    and the face's own deck, piece and side. The deck's total count is not in the key: a face
    whose template read it remembers the count it was drawn with (``deck_count``), so a count
    edit renders again only the faces that show the total, and the piece whose count changed."""

    inputs: str = ""
    # The hash of an art file's content (the build's, kept by stamps; else read here): a face
    # remembers the files its template looked at (sizes, existence) by their hashes, so a
    # repainted picture renders again only the faces that looked at it.
    digest: Callable[[Path], str] | None = None
    stamps: Stamps | None = None  # the build's stats of files (the digest's): its templates' art found by them
    _decks: dict[int, tuple[Deck, str]] = field(default_factory=dict, repr=False)  # _deck_key's, by deck
    _pieces: dict[int, tuple[Piece, str]] = field(default_factory=dict, repr=False)  # _piece_key's, by piece
    # Faces another process is rendering (engine/prerender.py), by key: a call that waits for them
    # and learns them, made when the face stage first asks for one.
    arriving: dict[str, Callable[[], None]] = field(default_factory=dict, repr=False)
    # each face's key and each remembered render's freshness, worked out once per build: the
    # prerender (engine/prerender.py) asks both before the face stage asks them again
    _keys: dict[tuple, tuple[Face, str]] = field(default_factory=dict, repr=False)
    _fresh: dict[tuple[int, int], tuple[Any, ArtFolder, bool]] = field(default_factory=dict, repr=False)

    def get(self, key: str) -> dict | None:
        wait = self.arriving.pop(key, None)
        if wait is not None:
            wait()
        return super().get(key)

    def art_of(self, folder: ArtFolder, trail: list[tuple[str, bool]]) -> list[list]:
        """[name, in_templates, hash] of each art file a render found (each once)."""
        seen = dict.fromkeys(trail)
        return [[rel, in_templates, self._hash(folder.find(rel, in_templates=in_templates))]
                for rel, in_templates in seen]

    def fresh(self, known: Any, folder: ArtFolder) -> bool:
        """Are the art files a remembered render looked at still what they were? (Asked once per
        build: the art's hashes are the build's, by its stamps.)"""
        seen = self._fresh.get((id(known), id(folder)))
        if seen is not None and seen[0] is known and seen[1] is folder:
            return seen[2]
        try:
            verdict = all(self._hash(folder.find(rel, in_templates=bool(t))) == digest
                          for rel, t, digest in known.get("art", ()))
        except (InputError, OSError, ValueError, TypeError):
            verdict = False
        self._fresh[(id(known), id(folder))] = (known, folder, verdict)
        return verdict

    def _hash(self, path: Path) -> str:
        return self.digest(path) if self.digest is not None else hashlib.sha256(path.read_bytes()).hexdigest()

    def key(self, face: Face, bleed_mm: float) -> str:
        """(Worked out once per face and build: the prerender asks it before the face stage.)"""
        kept = self._keys.get((id(face.deck), id(face.piece), face.side, face.copy, bleed_mm))
        if kept is not None and kept[0].deck is face.deck and kept[0].piece is face.piece:
            return kept[1]
        seen = (self.inputs, self._deck_key(face.deck), face.side, face.copy, bleed_mm, self._piece_key(face.piece))
        key = hashlib.sha256(repr(seen).encode()).hexdigest()
        self._keys[(id(face.deck), id(face.piece), face.side, face.copy, bleed_mm)] = (face, key)
        return key

    def _piece_key(self, piece: Piece) -> str:
        """What a face's render reads of its piece, hashed once per piece: its fields written out
        once for its front, its back and each copy, not once for each."""
        kept = self._pieces.get(id(piece))
        if kept is None or kept[0] is not piece:
            seen = (piece.index, piece.count, str(piece.where), sorted(piece.values.items(), key=lambda kv: str(kv[0])))
            kept = self._pieces[id(piece)] = (piece, hashlib.sha256(repr(seen).encode()).hexdigest())
        return kept[1]

    def _deck_key(self, deck: Deck) -> str:
        """What a face's render reads of its deck, hashed once per deck: its layout and options
        written out for each of 10,000 faces took 6 of a build's 25 s."""
        kept = self._decks.get(id(deck))
        if kept is None or kept[0] is not deck:
            seen = (deck.id, deck.name, deck.kind, deck.shape, deck.format, deck.trim_mm, deck.options, deck.front,
                    deck.back, deck.layout)
            kept = self._decks[id(deck)] = (deck, hashlib.sha256(repr(seen).encode()).hexdigest())
        return kept[1]


def one_line(text: str) -> str:
    """A message as one line: text from a template or the data may hold line breaks."""
    return " ".join(text.split())


class _TooLong(Exception):
    pass


def _designers_line() -> str | None:
    """The line of the game's template (not pnpgen's macros, not a layout) placing a text box."""
    at = designers_line(("common/", layouts.PREFIX))
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


class Renderer(DrawnBleed):
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
                 printed: Mapping[str, float] | None = None, deck_bleeds: Mapping[str, float] | None = None):
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
        self.env.filters.update(tint=self.tint, shade=self.shade, literal=literal, tate_marks=tate.marks)
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
        # another edition set in Latin script: Japanese a template writes itself is warned (text/__init__.py)
        self.translated_from = default if game.lang != default and is_latin(game.lang) else ""
        self.art = ArtPlacer(game, templates, min_dpi, self.warnings, printed, memo.stamps if memo is not None else None)  # image(); art.folder.resolver for <image>
        self._checked: dict[tuple[str, tuple[float, float], float], tuple[list, str | None]] = {}  # (SVG, trim, bleed) found well-formed → (placements, grounded)
        self._printed: set[str] = set()  # templates whose art is all inside their parent's blocks (unprinted)
        self._deck_counts: dict[str, int] = {}  # deck id → its total count, summed once per deck
        self._names: dict[tuple[str, str], str] = {}  # (deck id, side) → the template's name for Jinja
        # (deck id, side) → the SVG of a face whose template read nothing of its piece or deck and
        # placed no picture and warned of nothing: every piece's face on that side (a deck's back)
        self._alike: dict[tuple[str, str], dict[str, Any]] = {}
        self._names.update(check_templates(templates, game))  # a template not there: no face renders

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

    def colour(self, name: str | None, default: str | None = None) -> str:
        """A palette name or '#rrggbb' → '#rrggbb'; a colour the draft leaves open (未定, empty,
        none) gives ``default`` or a neutral grey. The caller's template line is added on failure."""
        if name is None or (isinstance(name, str) and not name.strip()) or is_placeholder(name):
            if default is None:
                return OPEN_COLOUR
            name = default
        try:
            return validate.colour(name, self.game.palette)
        except validate.Invalid as e:
            raise InputError(e.message, key="colour", expected=e.expected) from None

    def paint(self, name: Any, text: bool = False) -> str:
        """The common macros' fill or stroke: a palette name's colour, any other SVG paint as
        written (none, white, url(#id)), an open value grey as ``colour()`` gives it; a word that
        is none of these fails with the palette name it nearly is (it stopped at pnpgen's macro
        line as 'not a colour', with no word of the palette). ``text``: a text's ink, which
        textbox() takes as hex (white → #ffffff)."""
        if isinstance(name, str) and (name in self.game.palette or (text and name.startswith("#"))):
            return self.colour(name)
        if isinstance(name, str) and name.strip() and not is_placeholder(name):
            if not text and (name.startswith("url(") or name == "currentColor"):
                return name
            try:
                rgb = parse_colour(name)
            except ValueError:
                return self.colour(name)  # (fails, naming the palette)
            if isinstance(rgb, tuple):
                return hex_colour(rgb) if text else name
            if not text:  # none, transparent, a translucent colour: the converter's to judge, as before
                return name
        return self.colour(name)

    def text_ink(self, name: Any) -> Any:
        """``textbox()``'s fill: a colour as ``paint(name, text=True)`` reads it (white → #ffffff;
        a palette name still wins); a palette name, hex or a word that is no colour goes on as
        written, for textbox() to take or refuse naming the deck, piece, field and palette."""
        if isinstance(name, str) and (name in self.game.palette or name.startswith("#")):
            return name
        try:
            return self.paint(name, text=True)
        except InputError:
            return name

    def tint(self, name: str | None, amount: float, toward: str = "#ffffff") -> str:
        """The ``tint`` filter: the colour moved toward white (or ``toward``) by ``amount`` (0–1)."""
        return mix(self.colour(name), self.colour(toward), amount)

    def shade(self, name: str | None, amount: float) -> str:
        """The ``shade`` filter: the colour moved toward black by ``amount`` (0–1)."""
        return mix(self.colour(name), "#000000", amount)

    def readable(self, ink: str | None, ground: str | None, dark: str = "#000000", light: str = "#ffffff") -> str:
        """The ``readable()`` helper: ``ink`` where it reads on ``ground``, else ``dark`` or
        ``light``, whichever reads better (palette names or hex, as ``colour()`` takes them)."""
        return readable(self.colour(ink), self.colour(ground), self.colour(dark), self.colour(light))

    @staticmethod
    def where(face: Face) -> str:
        """The deck, piece (with its YAML file:line) and side, for error messages."""
        piece = face.piece
        return f"deck {face.deck.id!r} piece {piece.index} ({piece.label}, {piece.where}) {face.side}"

    @staticmethod
    def piece_words(face: Face) -> str:
        """The deck, piece and side, said after the piece's file:line (a warning about its text)."""
        return f"deck {face.deck.id!r} piece {face.piece.index} ({face.piece.label}) {face.side}"

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
        name = self.template_name(face.deck, face.side)
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
        reads = reads if reads is not None else set()
        alike = self._alike.get((face.deck.id, face.side))
        if self.memo is None:
            if alike is not None:  # the same for every piece: a thousand cards' back is drawn once
                return alike["svg"]
            n_warnings, n_images = len(self.warnings), self.art.count()
            svg = self._render(face, reads)
            if not reads and len(self.warnings) == n_warnings and self.art.count() == n_images:
                self._alike[(face.deck.id, face.side)] = {"svg": svg, "reads": [], "warnings": [], "images": [], "art": []}
            return svg
        key = self.memo.key(face, self.bleed_of(face.deck))
        known = self.memo.get(key)
        deck_count = self.deck_count(face.deck)
        if isinstance(known, dict) and isinstance(known.get("svg"), str) \
                and known.get("deck_count", deck_count) == deck_count and self.memo.fresh(known, self.art.folder):
            reads.update(known.get("reads", ()))
            self.warnings.extend(known.get("warnings", ()))
            self.art.replay(known.get("images", ()))
            if not any(known.get(k) for k in ("reads", "warnings", "images", "art")):
                self._alike[(face.deck.id, face.side)] = known
            return known["svg"]
        if alike is not None:  # the same for every piece: drawn once, remembered for each
            self.memo.learn(key, alike)
            return alike["svg"]
        n_warnings, n_images = len(self.warnings), self.art.count()
        deck_reads: set[str] = set()
        trail = self.art.folder.trail = []
        try:
            svg = self._render(face, reads, deck_reads)
        finally:
            self.art.folder.trail = None
        learned: dict[str, Any] = {"svg": svg, "reads": sorted(reads), "warnings": self.warnings[n_warnings:],
                                   "images": self.art.placements_since(n_images),
                                   "art": self.memo.art_of(self.art.folder, trail)}
        if "count" in deck_reads:
            learned["deck_count"] = deck_count
        if not reads and not learned["warnings"] and not learned["images"] and not learned["art"]:
            self._alike[(face.deck.id, face.side)] = learned
        self.memo.learn(key, learned)
        return svg

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
            is_placeholder=is_placeholder,
            placeholder_colour=PLACEHOLDER_COLOUR,
            placeholder_word=placeholder_word(self.game.lang),
        )
        # Shape and score-track helpers (helpers.py): track(), outline(), shape, hex_points().
        context.update(shape_tools(deck, face.side, self.game.text_fonts or self.game.fonts, self.colour))
        context.update(self.art.tools(deck, piece, template_name, context["textbox"], self.colour))
        self.loops.reset()
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
            failure.glyph = e.glyph if isinstance(e, InputError) else None  # (said once by check, for every piece)
            raise failure from None
        found, grounded = self._well_formed(svg, template_name, where, face)
        self.art.place(deck, piece, found)
        svg = grounded or svg
        self.warnings.extend(ctx.warnings)
        return svg

    def _failure(self, e: Exception, face: Face, template_name: str, where: str,
                 context: Mapping[str, Any]) -> InputError:
        """One line for an exception raised while rendering: the template file and line (the
        innermost template frame of the traceback), the deck and piece, and what went wrong; a
        helper called with an argument it does not take is answered with its arguments."""
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if f.filename and (Path(f.filename).is_relative_to(self.templates)
                                     or Path(f.filename).is_relative_to(builtin.FOLDER))]
        if isinstance(e, InputError) and e.key == "template" and str(e.path or "").startswith("templates/"):
            # the template file itself is wrong (its encoding): it is the one to name, not the deck
            return InputError(one_line(f"{e.message} (rendering {where})"), path=e.path, line=e.line, expected=e.expected)
        if isinstance(e, InputError):
            message, key, expected = e.message, e.key, e.expected
            if e.path is not None:  # where the helper found the bad value (an icon file …)
                message += f" ({e.path}{f':{e.line}' if e.line else ''})"
        elif isinstance(e, MissingField):
            fields = [k for k in face.piece.values]
            message, key = e.message or "undefined", None
            expected = "a field declared in the deck's 'fields:' " + (f"({', '.join(fields)})" if fields else
                                                                         "(it declares none)")
        elif isinstance(e, jinja2.UndefinedError):
            message, key, expected = e.message or "undefined", None, None
            unknown = _UNDEFINED.match(message)
            if unknown:  # color() for colour(), textbx(): a name of the template vocabulary one slip away
                said = unknown.group(1)
                message += suggest(said, [k for k in context if not k.startswith("_") and k != said])
        elif isinstance(e, TypeError) and (helper := _helper_called(e, context)) is not None:
            name, signature = helper
            message, key, expected = _CALLED.sub(f"{name}() ", str(e), count=1), None, \
                f"{name}({', '.join(signature)}), as docs/data-format.md gives it"
            message += nearly(str(e), [a.partition("=")[0] for a in signature])
        elif isinstance(e, TypeError) and (macro := macro_called(e)) is not None:
            name, arguments = macro
            message, key = _words(e) + nearly(str(e), arguments), None
            expected = f"macro {name}({', '.join(arguments)}), as docs/data-format.md gives it"
        elif isinstance(e, RecursionError):  # a template including or extending itself, a macro calling itself
            message, key = "the template calls itself without end (an include, extends or macro that leads back to it)", None
            expected = ("an include or extends naming another template, and a macro that calls itself only "
                        "while a count runs down")
        elif isinstance(e, jinja2.TemplateNotFound):
            name = str(e.message or e.name)  # quoted when it holds a line break or space that hides in print
            message, key = name if name.isprintable() and name == name.strip() else repr(name), "template"
            slug = self.game.slug
            if too_long(name):
                message = f"{name[:40]!r}… is too long for a file name"
                expected = (f"a template under templates/{slug}/, each part of its name at most {NAME_BYTES} bytes "
                            f"and the whole at most {PATH_BYTES}")
            elif "/" not in name and not too_long(name) and (self.templates / slug / name).is_file():  # named from its own folder
                expected = (f"'{slug}/{name}': an include or import names a template from templates/, "
                            f"so templates/{slug}/{name} is '{slug}/{name}'")
            else:
                expected = f"a file under templates/{slug}/, named '{slug}/<file>', or a built-in common/ template"
        else:
            message, key, expected = _words(e), None, None
        if where not in message:
            message += f" (rendering {where})"
        message = one_line(message)
        if isinstance(e, ValueMistake) and key == "game.title":  # (a character no font has: said at the piece's line)
            title = load_yaml(self.game.root / "game.yaml").where(("title",))
            return InputError(message, path=title.path, line=title.line, column=title.column, key="title",
                              expected=expected)
        if isinstance(e, ValueMistake) and key in face.piece.field_lines:  # in the piece's own text or icons
            field = face.piece.where_of(key)
            return InputError(message, path=field.path, line=field.line, column=field.column,
                              key=face.piece.key_of(key), expected=expected)
        if not frames:
            return InputError(message, path=face.deck.source, key=key or face.side, expected=expected)
        # The designer's own line that led there; a built-in macro it called is named beside it.
        own = [f for f in frames if Path(f.filename).is_relative_to(self.templates)]
        if not own and face.deck.layout is not None:  # a layout's face: the piece's data, not pnpgen's file
            at_piece = face.piece.where
            return InputError(message, path=at_piece.path, line=at_piece.line, column=at_piece.column,
                              key=key or face.side, expected=expected)
        at = own[-1] if own else frames[-1]
        if at is not frames[-1] and Path(frames[-1].filename).is_relative_to(builtin.FOLDER):
            inside = Path(frames[-1].filename).relative_to(builtin.FOLDER).as_posix()
            message = one_line(f"{message} (in pnpgen's {inside}:{frames[-1].lineno}, called from here)")
            undefined = _UNDEFINED.match(message) if isinstance(e, jinja2.UndefinedError) else None
            if undefined and undefined.group(1) in context:  # the template has it; the macro was not given it
                expected = f'{{% import "{inside}" as m with context %}}: its macros read w, h, bleed and the helpers'
        elif isinstance(e, jinja2.UndefinedError) and len({f.filename for f in own}) > 1:  # in a macro file of the game's
            undefined = _UNDEFINED.match(message)
            if undefined and undefined.group(1) in context and Path(at.filename).is_relative_to(self.templates):
                name = Path(at.filename).relative_to(self.templates).as_posix()
                expected = (f'{{% import "{name}" as … with context %}} in the template that imports it: a macro '
                            "imported without 'with context' reads none of w, h, bleed, piece or the helpers")
        return InputError(message, path=at.filename, line=at.lineno, key=key, expected=expected)

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
            return self._checked[(svg, trim, bleed)]
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
        sized = self._check_root(root, template, where, trim, bleed)
        self._check_fonts(root, template, where)
        found = self.art.check_hrefs(root, template, where)
        grounded = etree.tostring(root, encoding="unicode") \
            if self.art.ground(root, face.deck, face.piece) or sized else None
        self._checked[(svg, trim, bleed)] = found, grounded
        return found, grounded

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
                what, expected = unknown_font(family)
                first = family.split(",")[0].strip(" '\"")
                path, line = self.art.written_at(f'"{first}"' if first else "<text", template)
                if line is None and first:
                    path, line = self.art.written_at(first, template)
                raise InputError(f"{where}: <{etree.QName(el).localname}> {what}", path=path, line=line, key="font-family",
                                 expected=expected)
