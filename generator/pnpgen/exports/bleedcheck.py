"""Bare bleed in the build's own ``shop/`` files and in ``pnpgen check``: the art that stops at the
trim, the first thing a print shop turns away ("No Bleed"; 塗り足しがない). Each distinct face is
drawn as its shop page (trim + bleed, the art clipped to the bleed outline) and read as a print
shop's export reads its pages (bleedfill.py); one warning per deck and side, naming the
first face and its template, counting the others. A build reads the first face of each deck and
side only (a background that stops at the trim is its template's): some 6 ms a face, 20 with a
picture, which every card of a thousand-card deck would add to each cold build; check reads all.

What a face showed is kept in the cache (a pack per edition) under the face's cache name (its SVG,
pictures and template lines), shape and bleed: a build after an edit reads only the faces it
converted again, a build of an unchanged game none (an up-to-date game says its last warnings
again), and ``pnpgen check`` reads what the last build read. The faces a build reads that convert
in worker processes are rendered there (``paper``), while their pictures are at hand."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pnpgen.data.model import Deck, Piece
from pnpgen.exports.bleedfill import OUTSIDE_MM, PAPER, READ_PX_PER_MM, bare_bleed_warning, bare_sides
from pnpgen.impose.plan import Page, PagePlan, PlaceFace
from pnpgen.impose.sheets import shop_face_page
from pnpgen.memo import Memo
from pnpgen.pdf.pixels import rendered
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.writer import write_document
from pnpgen.shapes import deck_shape, translate
from pnpgen.svg.artwork import Art
from pnpgen.units import MM_PER_PT

if TYPE_CHECKING:  # numpy and Pillow load when a face is read: a build that reads none never imports them
    from PIL import Image

PAGES = 32  # faces drawn into one document at a time (never every face's pixels at once)


@dataclass(frozen=True)
class ShopFace:
    """A distinct face as the shop files show it: ``key`` in the arts, ``name`` its cache name
    (what it is made of: ``key`` and the suffix of its pictures and template lines)."""

    deck: Deck
    piece: Piece
    side: str
    key: str
    name: str


def pack_name(edition: str) -> str:
    """The cache's pack of the faces read for bleed, one per edition (a game in a language)."""
    return f"bleed/{edition}"


@dataclass(frozen=True)
class Paper:
    """A face rendered alone (its trim + bleed, at READ_PX_PER_MM) as one bit a pixel: bare paper
    or not (Pillow's mode "1"); what a converting worker sends back (``paper``), some 13 KB for a
    poker card."""

    size: tuple[int, int]
    bits: bytes

    def image(self) -> Image.Image:
        """The face's pixels as grey: bare paper white (255), the rest black (0)."""
        from PIL import Image

        return Image.frombytes("1", self.size, self.bits).convert("L")


# A face as the converter writes it (svg/): its user space (mm, y down) set first, then a colour,
# then its first shape. When that shape is a rectangle of an inked colour over the whole face (trim
# and bleed), as the built-in layouts and `<rect x="{{ -bleed }}" …>` backgrounds draw it, the bleed
# is not bare: the face is not read (no rendering, some 6–20 ms a face). Only a later shape in a
# paper colour laid over the bleed band itself would be missed.
USER_SPACE = re.compile(r"q (-?[\d.]+) 0 0 (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) cm")
RECT_FILL = re.compile(r"(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re f")
EDGE_PT = 0.01


def filled_to_the_edge(art: Art) -> bool:
    """Does the face's first shape cover the whole face (trim and bleed) in an inked colour?"""
    items = art.items
    if len(items) < 3 or items[0][0] != "ops" or items[1][0] != "fill" or items[2][0] != "ops":
        return False
    space, rect = USER_SPACE.fullmatch(items[0][1]), RECT_FILL.fullmatch(items[2][1])
    if space is None or rect is None or min(items[1][1:]) * 255 >= PAPER:
        return False
    a, d, e, f = (float(v) for v in space.groups())
    x, y, w, h = (float(v) for v in rect.groups())
    x0, x1 = sorted((a * x + e, a * (x + w) + e))
    y0, y1 = sorted((d * y + f, d * (y + h) + f))
    return x0 <= EDGE_PT and y0 <= EDGE_PT and x1 >= art.width_pt - EDGE_PT and y1 >= art.height_pt - EDGE_PT


def paper(art: Art, bleed_mm: float, font: str) -> Paper | None:
    """The face ``art`` (drawn with ``bleed_mm`` of bleed) rendered alone, as ``Paper``: read in the
    worker that converted it, while its pictures are there (faces/convert.py ``read``), so the
    build's own process neither draws the face again nor reads its pictures from their files. The
    face is not clipped to its piece's bleed outline: every place read lies inside it. None for a
    face filled to its edge (``filled_to_the_edge``): nothing to read."""
    if filled_to_the_edge(art):
        return None
    trim = (art.width_pt * MM_PER_PT - 2 * bleed_mm, art.height_pt * MM_PER_PT - 2 * bleed_mm)
    page = Page((trim[0] + 2 * bleed_mm, trim[1] + 2 * bleed_mm))
    page.items.append(PlaceFace("face", translate(bleed_mm, bleed_mm), trim, bleed_mm))
    [image] = rendered(write_document(PagePlan("bleed", [page]), {"face": art}, font), [0], READ_PX_PER_MM)
    # bare paper: every channel at least PAPER, one bit a pixel (Pillow's mode "1", each row whole
    # bytes), by Pillow alone: a converting worker imported numpy for this (some 0.1 CPU-s), its
    # only use there
    from PIL import ImageChops

    red, green, blue = image.convert("RGB").split()
    least = ImageChops.darker(ImageChops.darker(red, green), blue)
    return Paper(image.size, least.point([255 if v >= PAPER else 0 for v in range(256)], "1").tobytes())


def first_faces(faces: Iterable[ShopFace]) -> list[ShopFace]:
    """The first face of each deck and side: what a build reads (a background that stops at the
    trim is its template's, so the first face shows it), a cost per deck rather than per card."""
    seen: dict[tuple[str, str], ShopFace] = {}
    for face in faces:
        seen.setdefault((face.deck.id, face.side), face)
    return list(seen.values())


def bare_bleed_warnings(faces: Iterable[ShopFace], arts: Mapping[str, Art], bleed_mm: float, font: str,
                        memo: Memo[list], images: ImageStreams | None = None, files: bool = False,
                        papers: Mapping[str, Paper] | None = None,
                        bleeds: Mapping[str, tuple[float, float]] | None = None) -> list[str]:
    """One line per deck and side whose faces leave the ``bleed_mm`` bleed bare beyond inked art
    (the first such face named, the others counted); ``memo`` holds what earlier builds read (by
    ``_memo_key``), this call adds what it reads: from ``papers`` (by face key) when a converting
    worker rendered the face, else drawn here as its shop page. ``files``: the build's line (its
    shop files named; it reads the first face of each deck and side: ``first_faces``). ``bleeds``:
    deck id → (the bleed its faces are drawn with, the bleed read: the one it prints) of a deck
    with a bleed of its own (``Game.own_bleeds``); every other deck's are ``bleed_mm``."""
    own = dict(bleeds or {})

    def drawn(face: ShopFace) -> float:
        return own.get(face.deck.id, (bleed_mm, bleed_mm))[0]

    def read(face: ShopFace) -> float:
        return own.get(face.deck.id, (bleed_mm, bleed_mm))[1]

    faces = [f for f in faces if f.key in arts and read(f) > OUTSIDE_MM]  # (--bleed 0, bleed: 0: nothing to read)
    todo: dict[str, ShopFace] = {}
    for face in faces:
        key = _memo_key(face, read(face))
        if memo.get(key) is not None or key in todo:
            continue
        if filled_to_the_edge(arts[face.key]):  # its first shape covers the bleed: nothing to read
            memo.learn(key, [])
            continue
        rendered_there = (papers or {}).get(face.key)
        if rendered_there is not None:
            memo.learn(key, _sides(rendered_there.image(), face, drawn(face), read(face)))
        else:
            todo[key] = face
    waiting = list(todo.items())
    for at in range(0, len(waiting), PAGES):
        batch = waiting[at:at + PAGES]
        pages = [shop_face_page(deck_shape(f.deck), read(f), f.key, f.side, drawn(f)) for _, f in batch]
        pdf = write_document(PagePlan("bleed", pages), arts, font, images=images)
        for (key, f), image in zip(batch, rendered(pdf, range(len(batch)), READ_PX_PER_MM)):
            memo.learn(key, _sides(image, f, read(f), read(f)))
    found: dict[tuple[str, str], list[tuple[ShopFace, list[str]]]] = {}
    for face in faces:
        sides = memo.get(_memo_key(face, read(face)))
        if sides:
            found.setdefault((face.deck.id, face.side), []).append((face, sides))
    out = []
    for bare in found.values():
        first, sides = bare[0]
        deck = first.deck
        where = f"{deck.where(first.side)}: " + (f"shop/{deck.id}.pdf, shop/{deck.id}-unique.pdf: " if files else "") + \
            f"deck {deck.id!r} ({_template(deck, first.side)}) piece {first.piece.index} ({first.piece.said}) {first.side}"
        line = bare_bleed_warning(where, len(bare) - 1, sides, read(first))
        out.append(line + " (the build reads each deck's first face; pnpgen check reads them all)" if files else line)
    return out


def _sides(image: Image.Image, face: ShopFace, at_mm: float, bleed_mm: float) -> list[str]:
    """The sides ``image`` (the face's page, its trim ``at_mm`` in) leaves bare in ``bleed_mm``."""
    return bare_sides(image, READ_PX_PER_MM, (at_mm, at_mm), (face.deck.trim_mm[0], face.deck.trim_mm[1]),
                      bleed_mm, face.deck.shape, face.deck.options, face.side)


def _memo_key(face: ShopFace, bleed_mm: float) -> str:
    """What a face's reading depends on: the face, its side, the bleed and the piece's shape."""
    return hashlib.sha256(f"{face.name} {face.side} {bleed_mm!r} {deck_shape(face.deck)!r}".encode()).hexdigest()[:32]


def _template(deck: Deck, side: str) -> str:
    """What drew a deck's side, as a designer finds it."""
    if deck.layout is not None and (side == "front" or deck.layout.back is not None):  # (a list's own back: a file)
        return f"layout {deck.layout.name}"
    return f"template {deck.front if side == 'front' else deck.back}"
