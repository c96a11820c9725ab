"""Faces of a game: each distinct face rendered and converted once, known by the hash of its SVG.

A template renders once per unique piece and side; only a template that reads ``piece.copy``
renders once per copy. Identical SVG text (two pieces that print the same, every card back)
is one face. Conversion (SVG → vector art) happens once per distinct SVG, in worker processes
when asked, and its result is kept in the on-disk cache for later builds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta

from pnpgen.data.formats import MAX_DPI, MIN_DPI
from pnpgen.data.i18n import Missing
from pnpgen.data.model import Deck, Game, Piece
from pnpgen.errors import InputError
from pnpgen.faces.compiled import CompiledTemplates
from pnpgen.faces.face import Face
from pnpgen.faces.images import LOW_DPI_LINE
from pnpgen.faces.rendermemo import RenderMemo
from pnpgen.faces.sourcelines import face_key
from pnpgen.faces.templates import DrawnBleed, Renderer
from pnpgen.shapes import Point, deck_shape, trim_path
from pnpgen.svg.artwork import Art


@dataclass(frozen=True)
class FacePair:
    """A distinct front/back pair of a deck and how many printed copies show it."""

    piece: Piece
    front: str
    back: str | None
    count: int


@dataclass
class DeckFaces:
    """One deck's faces as printed: every copy's front and back in print order and each distinct face once, so a
    face drawn for ten copies is drawn once."""

    deck: Deck
    fronts: list[str] = field(default_factory=list)  # face key of every printed copy, in print order
    backs: list[str] | None = None
    pairs: list[FacePair] = field(default_factory=list)  # distinct pairs in first-print order
    first: tuple[str, str | None] | None = None  # the faces of the piece that pictures the deck (Deck.shown)
    digests: dict[int, str] = field(default_factory=dict)  # piece number → hash of all its faces
    piece_keys: dict[int, list[str]] = field(default_factory=dict)  # piece number → its faces' keys, fronts then backs
    sides: dict[int, tuple[str, str]] = field(default_factory=dict)  # piece number → hash of its fronts, its backs
    warnings: list[str] = field(default_factory=list)  # what drawing this deck's faces warned of (the game's too)

    @property
    def piece_fronts(self) -> dict[int, str]:
        """Piece number → its (first) front: the first of its faces' keys (``piece_keys``)."""
        return {n: keys[0] for n, keys in self.piece_keys.items()}

    def piece_backs(self, numbers: Iterable[int]) -> dict[int, str]:
        """Piece number → its (first) back, of the pieces ``numbers`` (a figure's pieces shown turned
        over): the first key after its fronts (``piece_keys``); none for a deck without backs."""
        if self.backs is None:
            return {}
        return {n: keys[len(keys) // 2] for n in numbers if (keys := self.piece_keys.get(n))}


class Told(MutableMapping[str, str]):
    """Where each face came from, worked out when first asked: a message names the piece only
    for a face drawn afresh or failing, not for each of a thousand faces remembered unchanged.
    A mapping, not a dict: every way of reading it (``[]``, ``get``, ``items``, ``dict(…)``)
    gets the text, never the function that makes it."""

    def __init__(self, told: Mapping[str, str | Callable[[], str]] | None = None) -> None:
        self._told: dict[str, str | Callable[[], str]] = dict(told or {})

    def __getitem__(self, key: str) -> str:
        value = self._told[key]
        if callable(value):
            value = self._told[key] = value()
        return value

    def __setitem__(self, key: str, value: str | Callable[[], str]) -> None:  # type: ignore[override]
        self._told[key] = value

    def __delitem__(self, key: str) -> None:
        del self._told[key]

    def __contains__(self, key: object) -> bool:  # (without working the place out)
        return key in self._told

    def __iter__(self) -> Iterator[str]:
        return iter(self._told)

    def __len__(self) -> int:
        return len(self._told)

    def __reduce__(self) -> tuple[type, tuple[dict[str, str]]]:  # (sent to another process as its texts)
        return Told, ({k: self[k] for k in self._told},)


@dataclass
class FaceSet:
    """Every distinct SVG of a build, by key, with where it came from (for error messages): the
    deck and piece, and the template file that drew it."""

    svgs: dict[str, str] = field(default_factory=dict)
    where: Told = field(default_factory=Told)
    template: dict[str, str] = field(default_factory=dict)
    lines: dict[str, str] = field(default_factory=dict)  # face key → its source lines, where the render memo knew them

    def add(self, svg: str, where: str | Callable[[], str], template: str = "", known: Mapping[str, Any] | None = None) -> str:
        """The face's key (``face_key``); ``known``: its render's record, which holds the key and
        the SVG's source lines (``Renderer.rendered``) when the render was remembered or learned."""
        key = known.get("face") if known is not None else None
        if not isinstance(key, str):
            key = face_key(svg)
        if key not in self.svgs:
            self.svgs[key] = svg
            self.where[key] = where
            self.template[key] = template
            lines = known.get("lines") if known is not None else None
            if isinstance(lines, str):
                self.lines[key] = lines
        return key

    def subset(self, keys) -> FaceSet:
        """The faces of ``keys``, in the order they were rendered (deck by deck, piece by piece:
        of faces failing alike, ``convert_faces`` names the first piece's)."""
        wanted = set(keys)
        keys = [k for k in self.svgs if k in wanted]
        return FaceSet({k: self.svgs[k] for k in keys}, Told({k: self.where[k] for k in keys}),
                       {k: self.template[k] for k in keys}, {k: self.lines[k] for k in keys if k in self.lines})


@dataclass
class RenderedGame(DrawnBleed):
    """A game's distinct faces rendered, deck by deck, before any sheet is planned: what the
    sheets are imposed from, what the rulebook pictures and what the exports place."""

    game: Game
    faces: FaceSet
    decks: list[DeckFaces]
    art_folder: Any  # data/art.py ArtFolder: resolves <image> files
    images: list[dict]  # every image placement with its resolution, for the manifest
    bleed_mm: float  # bleed drawn round every face (but those of ``deck_bleeds``)
    # the hash of the game's art files (``art_digest``), or what makes it when first asked: only a
    # face whose pictures are not all found in the art folders depends on it (engine/game.py
    # ``face_art``), so an edit whose faces' pictures are all found never scans art/ for it
    art_whole: str | Callable[[], str]
    warnings: list[str] = field(default_factory=list)
    deck_bleeds: dict[str, float] = field(default_factory=dict)  # deck id → its faces' bleed, if not bleed_mm

    @property
    def art_digest(self) -> str:
        """The hash of the game's art files: what a face depends on whose pictures are not all
        found in the art folders (made once, when first asked)."""
        if callable(self.art_whole):
            self.art_whole = self.art_whole()
        return self.art_whole


def face_renderer(templates: Path, game: Game, bleed_mm: float, min_dpi: float = MIN_DPI,
                  compiled: CompiledTemplates | None = None, memo: RenderMemo | None = None,
                  printed: Mapping[str, float] | None = None, deck_bleeds: Mapping[str, float] | None = None,
                  max_dpi: float = MAX_DPI, deck_dpi: Mapping[str, float] | None = None) -> Renderer:
    """The face stage's renderer for one game (the one place a ``Renderer`` is made): every
    command that renders faces — build, check, rulebook, export, the text audit — comes here.
    ``compiled`` and ``memo``: the compiled templates and the faces rendered by earlier builds;
    ``printed``: deck id → how much larger its faces print than drawn (an export's ``--fit scale``),
    for the dpi its pictures print at; ``deck_bleeds``: deck id → the bleed its faces are drawn
    with, when not ``bleed_mm`` (a deck's own bleed, ``Game.drawn_bleeds``); ``max_dpi``: the
    resolution ceiling finer raster art is resampled to (0: none; ``--max-dpi``); ``deck_dpi``: deck id →
    the dpi its pictures are wanted at, when not ``min_dpi`` (a virtual table's image holding less)."""
    return Renderer(templates, game, bleed_mm, min_dpi, compiled, memo, printed, deck_bleeds, max_dpi, deck_dpi)


def render_game(templates: Path, game: Game, bleed_mm: float, min_dpi: float = MIN_DPI,
                compiled: CompiledTemplates | None = None, memo: RenderMemo | None = None,
                art_digest: str | Callable[[], str] = "", before: Callable[[Renderer], None] | None = None,
                printed: Mapping[str, float] | None = None,
                deck_bleeds: Mapping[str, float] | None = None, max_dpi: float = MAX_DPI,
                deck_dpi: Mapping[str, float] | None = None) -> RenderedGame:
    """Each distinct face of the game rendered once, deck by deck. ``before`` sees the renderer
    first (the build fills its memo over worker processes there). ``art_digest``: the hash of the
    game's art files, or what makes it when first asked (``RenderedGame.art_digest``)."""
    renderer = face_renderer(templates, game, bleed_mm, min_dpi, compiled, memo, printed, deck_bleeds, max_dpi, deck_dpi)
    if before is not None:
        before(renderer)
    faces = FaceSet()
    decks = []
    read: dict[str, set[str]] = {}
    for deck in game.decks:
        said = len(renderer.warnings)
        decks.append(render_deck(deck, renderer, faces, read.setdefault(deck.id, set())))
        decks[-1].warnings = renderer.warnings[said:]
    unread_translations(game, read, renderer)
    return RenderedGame(game, faces, decks, renderer.art.folder, renderer.art.images(), bleed_mm,
                        art_digest, game.notes + game.translations.warnings + list(renderer.warnings)
                        + renderer.art.case_twins(game),
                        renderer.deck_bleeds)


def unread_translations(game: Game, read: Mapping[str, set[str]], renderer: Renderer) -> None:
    """Forget the missing translations of fields this edition's faces never read (``read``: deck
    id → the piece fields its faces read) that another edition's template reads, or that no box of
    a layout deck reads at all: a memo of the designer's (``fields: {メモ: text}``, a sheet's
    column), which no edition prints (it was told "printed as written", trial68)."""
    if game.translations is not None and game.translations.missing:
        texts: list[str] | None = None
        kept = []
        for m in game.translations.missing:
            name = _unread_field(m, game, read)
            if name:
                texts = _template_texts(game, renderer) if texts is None else texts
                mention = re.compile(rf"\bpiece\s*(?:\.\s*{re.escape(name)}\b|\[\s*['\"]{re.escape(name)}['\"]\s*\]"
                                     rf"|\.\s*get\s*\(\s*['\"]{re.escape(name)}['\"])")
                if any(mention.search(text) for text in texts) or _layout_memo(m, game):
                    continue
            kept.append(m)
        game.translations.missing = kept


def _unread_field(missing: Missing, game: Game, read: Mapping[str, set[str]]) -> str:
    """The piece field a missing translation is of, when no face of this edition read it (else
    ''). A translation missing from a field nothing here prints, which a template
    of the game's reads in another edition (``{% if game.lang == "en" %}{{ piece.flavour }}``, the
    English edition's own ``front:``, a layout box's ``lang: [en]``), says nothing of this edition:
    no line says it is "printed … marked 〔en〕". A field no template reads at all is still told
    (but a layout deck's: ``_layout_memo``)."""
    parts = missing.key.split(".")
    name = parts[2] if parts[0] == "pieces" and len(parts) > 2 else parts[1] if parts[0] == "defaults" \
        and len(parts) > 1 else (missing.field or missing.key) if missing.cells else ""  # (a column by its field)
    decks = _decks_of(missing, game)
    if not name or not decks or any(name in read.get(d.id, ()) for d in decks):
        return ""
    return name


def _decks_of(missing: Missing, game: Game) -> list[Deck]:
    """The decks whose file (or spreadsheet) a missing translation is in."""
    return [d for d in game.decks if missing.where.path in {d.source, *(p.where.path for p in d.pieces)}]


def _layout_memo(missing: Missing, game: Game) -> bool:
    """The missing translation is of decks drawn by layouts alone, whose boxes (every edition's:
    ``_template_texts`` holds their compiled templates) never name the field: kept, never printed."""
    decks = _decks_of(missing, game)
    return bool(decks) and all(d.layout is not None for d in decks)


def _template_texts(game: Game, renderer: Renderer) -> list[str]:
    """Every template a face of the game may load, as the build loads it (its own loader): the
    game's template files (in subfolders too), its decks' templates and compiled layouts, and all
    they include, import or extend (``templates/_shared/…``, ``common/…``), by name."""
    folder = renderer.templates / game.slug
    names = [p.relative_to(renderer.templates).as_posix() for p in sorted(folder.rglob("*.j2"))
             if p.is_file() and not p.is_symlink()] if folder.is_dir() and not folder.is_symlink() else []
    for deck in game.decks:
        for side in ("front", "back") if deck.back else ("front",):
            try:
                names.append(renderer.template_name(deck, side))
            except InputError:  # (told where its faces are drawn)
                pass
    texts, seen = [], set()
    while names:
        name = names.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            text = renderer.template_source(name)
            names.extend(n for n in meta.find_referenced_templates(renderer.env.parse(text)) if n is not None)
        except (InputError, jinja2.TemplateError):
            continue
        texts.append(text)
    return texts


def render_deck(deck: Deck, renderer: Renderer, faces: FaceSet, read: set[str] | None = None) -> DeckFaces:
    """Render a deck's faces, each distinct template context once; the piece fields they read go
    into ``read``."""
    out = DeckFaces(deck, backs=[] if deck.back else None)
    counts: dict[tuple[str, str | None], int] = {}
    firsts: dict[tuple[str, str | None], Piece] = {}
    shown = deck.shown if deck.pieces else None
    for piece in deck.pieces:
        said = len(renderer.warnings)
        sides = _sides(deck, piece, renderer, faces, read)
        parked_pictures_unsaid(renderer.warnings, said, piece)
        if piece is shown:
            out.first = (sides[0][0], sides[1][0] if deck.back else None)
        out.piece_keys[piece.index] = [k for side in sides for k in side]
        out.digests[piece.index] = face_key(" ".join(out.piece_keys[piece.index]))[:12]
        out.sides[piece.index] = (face_key(" ".join(sides[0]))[:12], face_key(" ".join(sides[1]))[:12] if deck.back else "")
        for pair in _copies(sides, piece.count):
            front, back = pair
            out.fronts.append(front)
            if out.backs is not None and back is not None:
                out.backs.append(back)
            counts[pair] = counts.get(pair, 0) + 1
            firsts.setdefault(pair, piece)
    out.pairs = [FacePair(firsts[p], p[0], p[1], n) for p, n in counts.items()]
    return out


def parked_pictures_unsaid(warnings: list[str], said: int, piece: Piece) -> None:
    """Take back the resolution warnings a parked piece's (``count: 0``) faces said, those after
    ``said``: its pictures print nowhere (the placements stay recorded, as the manifest's images)."""
    if not piece.count:
        warnings[said:] = [w for w in warnings[said:] if not LOW_DPI_LINE.match(w)]


def piece_pairs(deck: Deck, piece: Piece, renderer: Renderer, faces: FaceSet) -> list[tuple[str, str | None]]:
    """One piece's distinct front/back pairs (face keys into ``faces``) in the order its copies
    print them, as ``render_deck`` pairs them, with none of the deck's other pieces rendered: the
    preview's SVG link of one copy of a template reading ``piece.copy``."""
    return list(dict.fromkeys(_copies(_sides(deck, piece, renderer, faces), piece.count)))


def _sides(deck: Deck, piece: Piece, renderer: Renderer, faces: FaceSet,
           read: set[str] | None = None) -> list[list[str]]:
    """A piece's front face keys, then its back's (a deck with a back)."""
    sides = [_side(deck, piece, "front", renderer, faces, read)]
    if deck.back:
        sides.append(_side(deck, piece, "back", renderer, faces, read))
    return sides


def _copies(sides: list[list[str]], count: int) -> Iterator[tuple[str, str | None]]:
    """Each printed copy's front and back face key (None: no back), in print order."""
    for copy in range(count):
        yield sides[0][copy % len(sides[0])], sides[1][copy % len(sides[1])] if len(sides) > 1 else None


def _side(deck: Deck, piece: Piece, side: str, renderer: Renderer, faces: FaceSet,
          read: set[str] | None = None) -> list[str]:
    """Face keys of one side: one for all copies, or one per copy when the template reads ``copy``."""
    reads: set[str] = set()
    face = Face(deck, piece, side, 1)
    where, template = partial(renderer.where, face), renderer.template_file(face)
    svg, known = renderer.rendered(face, reads)
    first = faces.add(svg, where, template, known)
    if read is not None:
        read |= reads
    if "copy" not in reads or piece.count <= 1:
        return [first]
    keys = [first]
    for c in range(2, piece.count + 1):
        svg, known = renderer.rendered(Face(deck, piece, side, c))
        keys.append(faces.add(svg, where, template, known))
    return keys


@dataclass
class DeckPicture:
    """One deck's faces as art. ``outline`` is the trim shape in mm from the trim's top-left
    corner, y down; ``pieces`` holds the fronts of other pieces by piece number (1-based), for
    the setup figures (the first piece's front is ``front``). Made here, beside the faces, so
    the build's own process never imports the rulebook (its libraries load in the rulebook's)."""

    front: Art
    back: Art | None
    trim_mm: tuple[float, float]
    bleed_mm: float
    outline: list[Point] = field(default_factory=list)
    pieces: Mapping[int, Art] = field(default_factory=dict)
    # the part of the face shown, when not all of it: its top-left corner in mm from the face's
    # trim corner and the face's whole trim height (``trim_mm`` is then the part's size)
    window: tuple[float, float, float] | None = None
    # the backs of the pieces a figure shows turned over (``side: back``), by piece number
    backs: Mapping[int, Art] = field(default_factory=dict)

    def piece(self, number: int, side: str = "front") -> Art | None:
        if side == "back":
            return self.back if number == 1 and self.back is not None else self.backs.get(number)
        return self.front if number == 1 else self.pieces.get(number)

    @staticmethod
    def of(deck: Deck, front: Art, back: Art | None, bleed_mm: float, pieces: Mapping[int, Art],
           backs: Mapping[int, Art] | None = None) -> DeckPicture:
        """A deck's picture: its faces whole, or a fold-over standee's upright figure alone (its
        layout's ``stand_up`` box), as it stands on the table, not the strip it is cut from."""
        shape, trim, window = pictured(deck)
        if deck.sealed and back is not None:  # a sealed pack's faces are its secret: the book shows its back alone
            return DeckPicture(back, None, trim, bleed_mm, shape, {n: back for n in pieces}, window,
                               {n: back for n in backs or {}})
        return DeckPicture(front, None if window else back, trim, bleed_mm, shape, pieces, window,
                           {} if window else dict(backs or {}))


def pictured(deck: Deck) -> tuple[list[Point], tuple[float, float], tuple[float, float, float] | None]:
    """What the rulebook pictures of a deck's piece: its cut line and trim, or a fold-over standee's
    upright figure (a rectangle, its size, and its window on the strip: top-left corner and the
    strip's height), so that a setup figure measures what it draws."""
    stand = deck.standee
    if stand is None:
        return outline(deck), deck.trim_mm, None
    x, y, w, h = stand
    (x0, y0), (x1, y1) = (max(x, 0.0), max(y, 0.0)), (min(x + w, deck.trim_mm[0]), min(y + h, deck.trim_mm[1]))
    w, h = x1 - x0, y1 - y0  # (the box's art runs into the bleed: the piece is cut at the trim)
    return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)], (w, h), (x0, y0, deck.trim_mm[1])


STAND_UP_INSET_MM = 0.2  # a standing piece's box (a die's face) is taken this much inside: a fold line on its edge stays off


def taken_in(left: float, top: float, right: float, bottom: float) -> tuple[float, float, float, float]:
    """A standing figure's or a die face's box (its edges in mm) as cut from the piece's picture
    (Tabletop Simulator's image of it, the rulebook's picture of a standee):
    ``STAND_UP_INSET_MM`` inside its edges, or a quarter of a box too small for that (a die's
    faces of 0.1 mm, which the deck file may give, were cut right of their left edge: a
    traceback from the picture library)."""
    inset = max(0.0, min(STAND_UP_INSET_MM, (right - left) / 4, (bottom - top) / 4))
    return left + inset, top + inset, right - inset, bottom - inset


def outline(deck: Deck) -> list[Point]:
    """The deck's cut line as a polygon (circles and rounded corners flattened)."""
    return trim_path(deck_shape(deck)).points()
