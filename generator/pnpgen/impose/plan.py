"""Page plans: what imposition hands the PDF writer. Plain data in millimetres, y down.

A document is a list of pages; a page is a list of items. Faces are referred to by key (the
hash of their SVG), so a face converted once can be placed on any page of any document, and a
plan can be compared, cached or concatenated without drawing anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pnpgen.shapes import Affine, Outline, Straight, kept_repr, plain_repr

Box = tuple[float, float, float, float]  # (x0, y0, x1, y1) mm from the page's top-left
RGB = tuple[float, float, float]

MARK_WIDTH_PT = 0.25
DIE_WIDTH_PT = 0.3


@plain_repr
@dataclass(frozen=True)
class PlaceFace:
    """A face (trim + ``bleed_mm`` drawn on each side) placed by ``to_page`` (piece mm → page mm),
    its artwork stopping at ``clip`` (page mm) and, when given, inside ``clip_rect`` too."""

    face: str
    to_page: Affine
    trim_mm: tuple[float, float]
    bleed_mm: float
    clip: Outline | None = None
    clip_rect: Box | None = None


@kept_repr
@dataclass(frozen=True)
class Strokes:
    """Straight lines: cut marks, guides, scale bars. Its text is kept once written: a deck's
    sheets share one set of cut marks per side and one pair of scale bars, and the pages' text
    (their signatures, the documents' plan keys) wrote those lines out for every sheet, some
    two thirds of a home sheet's text."""

    lines: tuple[Straight, ...]
    width_pt: float = MARK_WIDTH_PT
    colour: RGB = (0.0, 0.0, 0.0)
    dash: tuple[float, ...] | None = None  # mm
    registration: bool = False  # shop marks: every plate on a CMYK page (Separation All), black on RGB


@plain_repr
@dataclass(frozen=True)
class DieLine:
    """A closed path stroked: a die line. ``spot`` strokes it in the CutContour spot colour;
    ``layer`` puts it in that optional content group (a layer viewers show and printers skip)."""

    path: Outline
    width_pt: float = DIE_WIDTH_PT
    colour: RGB = (0.0, 0.0, 0.0)
    spot: bool = False
    clip_rect: Box | None = None
    dash: tuple[float, ...] | None = None  # mm
    layer: str | None = None


@kept_repr
@dataclass(frozen=True)
class TextOp:
    """Text at (x, y) mm (baseline), size in pt; anchor start | middle | end. Its text is kept once
    written: a deck's sheets share their slug's scale labels and print instruction (impose/sheets.py
    ``slug``), which the pages' text wrote out for every sheet."""

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: RGB = (0.0, 0.0, 0.0)
    anchor: str = "start"
    angle: float = 0.0  # degrees, clockwise on the page


@plain_repr
@dataclass(frozen=True)
class RectOp:
    """A rectangle on a page, in millimetres (a frame, a swatch, a cutting guide's box): drawn as it is, never
    scaled."""

    x: float
    y: float
    w: float
    h: float
    fill: RGB | None = None
    stroke: RGB | None = (0.0, 0.0, 0.0)
    width_pt: float = 0.5


@plain_repr
@dataclass(frozen=True)
class LineOp:
    """A straight line on a page, in millimetres: a crop mark, a cut or fold line, a tile's guide."""

    line: Straight
    colour: RGB = (0.0, 0.0, 0.0)
    width_pt: float = 0.5
    dash: tuple[float, ...] | None = None  # mm


Item = PlaceFace | Strokes | DieLine | TextOp | RectOp | LineOp


@plain_repr
@dataclass
class Page:
    """One printed page as a plan in millimetres: its paper size, what is placed on it and its trim and bleed boxes,
    before any PDF is written."""

    size_mm: tuple[float, float]
    items: list[Item] = field(default_factory=list)
    trim: Box | None = None  # TrimBox
    bleed: Box | None = None  # BleedBox
    label: str | None = None  # PDF page label (e.g. the quantity of a face on a shop page)
    side: str = ""  # "front" or "back" on a home sheet, "" elsewhere
    matrix: Affine | None = None  # page mm → page mm applied to everything drawn (a printer profile)

    def faces(self) -> list[str]:
        return [it.face for it in self.items if isinstance(it, PlaceFace)]


@dataclass
class PagePlan:
    """One PDF file's pages as plans in mm (not the rulebook's draft tree, rulebook/parse.py)."""

    title: str
    pages: list[Page] = field(default_factory=list)
    # the file's bookmarks, (page index, title) in page order: <game>-all.pdf's decks and bill of
    # materials, so a buyer of a print-and-play file finds the sheets of one deck to print again
    bookmarks: list[tuple[int, str]] = field(default_factory=list)

    def faces(self) -> list[str]:
        """Every face key used, in first-use order."""
        seen: dict[str, None] = {}
        for p in self.pages:
            for key in p.faces():
                seen.setdefault(key, None)
        return list(seen)


def page_signature(page: Page) -> str:
    """A hash of the pieces a page prints and where (faces by key, positions, marks), not of the
    sheet's own words (its slug: "sheet 3/12", the version stamp, the flip instruction): two pages
    with the same signature print the same pieces, so the change report names only the sheets whose
    pieces differ — a card deleted that makes one sheet fewer changes every slug, not every card."""
    return signed(page)[0]


class _Written(list):
    """A page's items as their text written already (``signed``)."""

    def __repr__(self) -> str:
        return f"[{', '.join(self)}]"


def signed(page: Page) -> tuple[str, bytes]:
    """``page_signature``, and the SHA-256 of the page's whole text, its ``repr`` (what a
    document's plan key hashes of each page: engine/cache.py ``plan_key``), each item written
    out once for both (a home sheet's placed faces and marks were written twice)."""
    import hashlib
    from dataclasses import replace

    texts = [repr(item) for item in page.items]
    drawn = [text for text, item in zip(texts, page.items, strict=True) if not isinstance(item, TextOp)]
    signature = hashlib.sha256(f"({page.size_mm!r}, {_Written(drawn)!r})".encode()).hexdigest()[:16]
    return signature, hashlib.sha256(repr(replace(page, items=_Written(texts))).encode()).digest()


def page_digest(page: Page) -> bytes:
    """The SHA-256 of a page's whole text, its ``repr``: what a document's plan key hashes of each
    page (engine/cache.py ``plan_key``)."""
    import hashlib

    return hashlib.sha256(repr(page).encode()).digest()


# stand-ins written where a page's face key and label go, found again in the model page's text
_FACE_MARK = "\x00face\x00"
_LABEL_MARK = "\x00label\x00"


class Alike:
    """``page_digest`` of pages alike but for their face's key and their label (a deck's shop
    pages: one face each, the same box, clip and die line), from one model page's text written
    once: a 3,000-card deck's 6,000 distinct shop pages were each written out whole to be hashed.
    ``model`` makes the page of a face key and label; a page whose text is not the model's with
    those two put in (a key or label whose text holds a mark) is written out and hashed whole."""

    def __init__(self, model: Callable[[str, str | None], Page]) -> None:
        self._model = model
        self._parts: dict[bool, list[str] | None] = {}  # labelled or not → the text around the marks
        self._heads: dict[bool, Any] = {}  # labelled or not → the hash of the text before the face key

    def digest(self, page: Page, face: str, label: str | None) -> bytes:
        import hashlib

        labelled = label is not None
        if labelled not in self._parts:
            self._parts[labelled] = self._split(labelled)
        parts = self._parts[labelled]
        if parts is None or _FACE_MARK in face or (label is not None and _LABEL_MARK in label):
            return page_digest(page)
        if labelled not in self._heads:  # (the text before the key hashed once: each page's hash goes on from it)
            self._heads[labelled] = hashlib.sha256(parts[0].encode())
        h = self._heads[labelled].copy()
        h.update((repr(face) + parts[1] if label is None else repr(face) + parts[1] + repr(label) + parts[2]).encode())
        return h.digest()

    def _split(self, labelled: bool) -> list[str] | None:
        """The model page's text cut at its face key and label (None: they do not each appear once,
        in that order)."""
        text = repr(self._model(_FACE_MARK, _LABEL_MARK if labelled else None))
        head, *rest = text.split(repr(_FACE_MARK))
        if len(rest) != 1:
            return None
        if not labelled:
            return [head, rest[0]]
        middle, *tail = rest[0].split(repr(_LABEL_MARK))
        return [head, middle, tail[0]] if len(tail) == 1 else None

