"""A board printed over several sheets (tiles) is one face: each tile's page placed the whole face,
clipped, so its signature (impose/plan.py ``page_signature``) named the face, and an edit in one
corner changed every tile's — the change report and ``pnpgen reprint`` reprinted them all. Here
each tile's page is known by what it prints: its face drawn alone and clipped as on the sheet,
read at READ_PX_PER_MM, and the page's other marks; a tile whose part of the board is as it was
keeps its signature. Its words (the slug, the version stamp) are not in it, as in any page's."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Protocol

from pnpgen.impose.plan import Page, PagePlan, PlaceFace, page_signature
from pnpgen.impose.tiles import TilePlan
from pnpgen.pdf.pixels import rendered
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.writer import write_document
from pnpgen.svg.artwork import Art

READ_PX_PER_MM = 6.0  # some 150 dpi: a changed word or figure changes the pixels under it
KNOWN_LIMIT = 4096  # tiles ``known`` holds at most (a watch session's): then it starts again


class DeckFiles(Protocol):
    """A deck's record as the signatures read it: its id and its files, the home file first."""

    @property
    def id(self) -> str: ...
    @property
    def files(self) -> Sequence[str]: ...


class ImposedGame(Protocol):
    """What the signatures read of a game imposed but not yet drawn (engine/imposition.py
    ``GamePlan``): its documents by path, its decks' records, their home pages' signatures."""

    @property
    def documents(self) -> Mapping[str, PagePlan]: ...
    @property
    def records(self) -> Sequence[DeckFiles]: ...
    @property
    def home_pages(self) -> Mapping[str, list[str]]: ...


def tile_signatures(plan: ImposedGame, tiles: Sequence[TilePlan | None], arts: Mapping[str, Art],
                    face_keys: Mapping[str, str], images: ImageStreams | None, font: str,
                    known: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Each deck's home pages' signatures (``plan.home_pages``), a tiled board's by what each
    tile prints. ``tiles``: each deck's tile plan (None: not tiled), in the decks' order.
    ``known``: each tile as drawn (its faces, their pictures, clip) → what it printed, kept by
    a watch session (engine/warm.py ``Warm.tiles``) so a save draws again only the tiles it changed."""
    known = {} if known is None else known
    out = dict(plan.home_pages)
    for record, tiled in zip(plan.records, tiles, strict=True):
        if tiled is None or not record.files or record.files[0] not in plan.documents:
            continue
        pages = plan.documents[record.files[0]].pages
        out[record.id] = [_signature(page, arts, face_keys, images, font, known) if page.faces() else sig
                          for page, sig in zip(pages, plan.home_pages[record.id], strict=True)]
    return out


def _signature(page: Page, arts: Mapping[str, Art], face_keys: Mapping[str, str], images: ImageStreams | None,
               font: str, known: dict[str, str]) -> str:
    placed = [it for it in page.items if isinstance(it, PlaceFace)]
    rest = Page(page.size_mm, [it for it in page.items if not isinstance(it, PlaceFace)], side=page.side,
                matrix=page.matrix)
    key = repr((placed, [face_keys.get(it.face, "") for it in placed], page.size_mm, page.matrix))
    drawn = known.get(key)
    if drawn is None:
        alone = Page(page.size_mm, list(placed), matrix=page.matrix)
        [image] = rendered(write_document(PagePlan("tile", [alone]), arts, font, images=images), [0], READ_PX_PER_MM)
        drawn = hashlib.sha256(image.tobytes()).hexdigest()
        if len(known) >= KNOWN_LIMIT:
            known.clear()
        known[key] = drawn
    return hashlib.sha256(f"{page_signature(rest)} {drawn}".encode()).hexdigest()[:16]
