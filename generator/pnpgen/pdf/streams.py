"""A face's form and a page's own drawing as PDF streams (compressed, with what they name), and
``FaceStreams``: each made once per build, placed by every document of the build that shows it,
and kept across the saves of ``pnpgen watch`` (engine/warm.py). The writer (pdf/writer.py) places
them; the build cache keeps them as JSON (pdf/drawn.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pnpgen.impose.plan import Page, PagePlan
from pnpgen.memo import Unpacked
from pnpgen.pdf.content import Content, art_content
from pnpgen.pdf.objects import Ref, Shape, flate
from pnpgen.pdf.patch import Layout
from pnpgen.pdf.raster import ImageStreams
from pnpgen.svg.artwork import Art


@dataclass
class FaceStream:
    """A face's form content, compressed, and what it names."""

    data: bytes
    content: Content
    width_pt: float
    height_pt: float
    fallback: bool
    json: dict | None = field(default=None, compare=False, repr=False)  # as the build cache held it (pdf/drawn.py)
    # its form's dictionary, written once for every document that shows it (made from the fields above)
    shape: Shape | None = field(default=None, init=False, compare=False, repr=False)
    # what its stream names, worked out once for every document that shows it (``noted``)
    names: tuple | None = field(default=None, init=False, compare=False, repr=False)

    def showing(self, pictures: Mapping[str, bytes]) -> FaceStream | None:
        """This stream with each picture it names (by key) as ``pictures`` holds it (a face's
        stand-ins), or None when a picture is not there."""
        if not set(self.content.pictures) <= set(pictures):
            return None
        return replace(self, content=replace(self.content, pictures={k: pictures[k] for k in self.content.pictures}),
                       json=None)


@dataclass
class PageStream:
    """A page's own content, compressed, and what it names besides the faces' forms."""

    data: bytes
    content: Content
    forms: dict[str, str]  # resource name → face key
    spots: frozenset[str]  # the Separation colours it paints in (SEPARATIONS' names)
    layers: frozenset[str]
    json: dict | None = field(default=None, compare=False, repr=False)  # as the build cache held it (pdf/drawn.py)
    # its page dictionary, written once for every document that shows it (a page kept by the digest of
    # what it draws, boxes included, or one page's own: the same boxes wherever it is placed)
    shape: Shape | None = field(default=None, init=False, compare=False, repr=False)
    # what it names (``noted``; (slot, face key) of its forms; (slot, name) of its layers) and its contents'
    # dictionary, worked out once for every document that shows it
    names: tuple | None = field(default=None, init=False, compare=False, repr=False)


def noted(content: Content) -> tuple:
    """What a stream showing ``content`` names (fonts, pictures, patterns), each with its slot, in the
    order ``_Writer.note`` numbers them: worked out once per face or page, not once per document."""
    return (*((GLYPHS, "font:" + font, font, gids) for font, gids in content.glyphs.items()),
            *((STANDARD, "font:" + font, font, None) for font in content.standard_fonts),
            *((PICTURE, "picture:" + key, key, data) for key, data in sorted(content.pictures.items())),
            *((PAINT, "paint:" + name, name, paint) for name, paint in sorted(content.paints.items())))


GLYPHS, STANDARD, PICTURE, PAINT = range(4)  # (``noted``'s kinds)


def face_stream(art: Art, cmyk: bool, image_key: Callable[[bytes], str]) -> FaceStream:
    """A face drawn into its form's content (kept compressed only): the one drawing of a face,
    in the writer or in the worker process that converted it."""
    content = art_content(art, cmyk, image_key)
    return FaceStream(flate(content.data), replace(content, data=b""), art.width_pt, art.height_pt,
                      art.fallback is not None)


@dataclass
class FaceStreams:
    """Faces made into streams, by (face key, CMYK?), and pages by the page object itself: made
    once, placed in every document of the build that shows them (a deck's home pages are also
    the pages of ``<game>-all.pdf``).

    Kept across the builds of a long-running command (``pnpgen watch``: engine/warm.py), faces
    are known by what they are made from (``names``: the face's key and its pictures') and pages
    by the digest of everything they draw (``digests``), both set for each build (``for_build``);
    what a build did not use is let go of after it (``let_go_of_unused``)."""

    # (both ``Unpacked``: faces and pages read from the cache are each unpacked from their record when
    # looked up — an edit writing its documents from the last files looks up only the few it changed)
    made: Unpacked[tuple[str, bool], FaceStream] = field(default_factory=Unpacked)
    pages: dict[tuple[int, bool], tuple[Page, PageStream]] = field(default_factory=dict)
    # a sheet's few slots, marks and boxes, written once (``once``): a thousand pages place faces at nine spots
    drawn: dict[tuple, Any] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)  # a face's key → what it is made from
    digests: Mapping[int, bytes] = field(default_factory=dict)  # id(page) → the digest of what it draws
    kept: Unpacked[tuple[bytes, bool], PageStream] = field(default_factory=Unpacked)  # pages by that digest
    changed: bool = False  # since ``let_go_of_unused`` last ran: a face or page drawn anew, or let go of
    used: set = field(default_factory=set)
    # the faces and pages of this build checked against what they show: once each, not once per document
    checked: set = field(default_factory=set)
    # each document's writer after its pages, by its first page: one whose pages begin with another's goes on from there
    begun: dict[int, Begun] = field(default_factory=dict)
    # how many documents still to be written begin with each page (by id: ``expect``); a writer's state is
    # kept in ``begun`` only for a document still to come (a thousand cards' state is some 7 MB of objects
    # held to the commit: 3,000 cards' four documents, 30 MB); None: every document's kept
    starts: dict[int, int] | None = None
    # the last build's file and layout of each document (by its plan's id) to write it from (pdf/patch.py);
    # None: no layout recorded (no cache to keep it in)
    last: Mapping[int, tuple[str, Layout]] | None = None
    glyph_texts: dict[int, tuple] = field(default_factory=dict)  # (pdf/patch.py ``Recorder.layout``)
    # each face's name hashed (pdf/patch.py ``name_hash``), once a build for all its documents
    name_hashes: dict[str, str] = field(default_factory=dict)
    # the pictures numbered first by a document, as a block of objects (pdf/writer.py ``number_pictures``),
    # by (CMYK?, first number, their keys): the build's other documents numbering the same put the block as it is
    picture_blocks: dict[tuple, tuple] = field(default_factory=dict)

    def get(self, key: str, art: Art, cmyk: bool, images: ImageStreams) -> FaceStream:
        name = (self.names.get(key, key), cmyk)
        found = self.made.get(name)
        if found is not None and name in self.checked:
            return found
        self.used.add(name)
        if found is not None and found.content.pictures and not set(found.content.pictures) <= {
                images.key(it[1]) for it in art.items if it[0] == "image"}:
            found = None  # (kept from a cache naming pictures this face does not show: drawn again)
        if found is None:
            found = self.made[name] = face_stream(art, cmyk, images.key)
            self.changed = True
        self.checked.add(name)
        return found

    def offer(self, name: str, cmyk: bool, stream: FaceStream) -> None:
        """A face drawn elsewhere (by the worker that converted it: ``face_stream``), by what it
        is made from (``names``' values)."""
        if (name, cmyk) not in self.made:
            self.made[(name, cmyk)] = stream
            self.changed = True

    def once(self, key: tuple, make: Callable[[], Any]) -> Any:
        """What ``make`` writes for ``key`` (a slot's placement, a sheet's marks, a page box),
        written once per build: a thousand pages have the same few."""
        found = self.drawn.get(key)
        if found is None:
            found = self.drawn[key] = make()
        return found

    def page(self, page: Page, cmyk: bool, draw: Callable[[Page], PageStream]) -> PageStream:
        """The page's own drawing, made by ``draw`` once for every document (and, by its digest,
        every build) that shows it."""
        digest = self.digests.get(id(page))
        if digest is not None:
            made = self.kept.get((digest, cmyk))
            if made is not None and (digest, cmyk) in self.checked:
                return made
            self.used.add((digest, cmyk))
            if made is not None and not set(made.forms.values()) <= set(page.faces()):
                made = None  # (kept from a cache naming faces the page does not place: drawn again)
            if made is None:
                made = self.kept[(digest, cmyk)] = draw(page)
                self.changed = True
            self.checked.add((digest, cmyk))
            return made
        drawn = self.pages.get((id(page), cmyk))
        if drawn is None or drawn[0] is not page:
            drawn = (page, draw(page))
            self.pages[(id(page), cmyk)] = drawn  # the page is kept: its id stays its own
        return drawn[1]

    def for_build(self, names: Mapping[str, str], digests: Mapping[int, bytes],
                  last: Mapping[int, tuple[str, Layout]] | None = None) -> FaceStreams:
        """This object for one build's documents: ``names`` of its faces, ``digests`` of its pages,
        ``last``: the layouts to record and write from (pdf/patch.py)."""
        self.names, self.digests, self.last = names, digests, last
        self.checked, self.begun, self.glyph_texts, self.starts = set(), {}, {}, None
        self.picture_blocks, self.name_hashes = {}, {}
        return self

    def expect(self, docs: Iterable[PagePlan]) -> None:
        """The documents this object's writers are to write next (``starts``), each once."""
        starts: dict[int, int] = {}
        for doc in docs:
            if doc.pages:
                starts[id(doc.pages[0])] = starts.get(id(doc.pages[0]), 0) + 1
        self.starts = starts

    def written(self, first: Page, begun: Callable[[], Begun]) -> None:
        """A document beginning with the page ``first`` written: the writer's state after it
        (``begun``) kept while a document still to be written begins there too, else let go of."""
        key = id(first)
        if self.starts is not None:
            left = self.starts[key] = self.starts.get(key, 1) - 1
            if left <= 0:
                self.begun.pop(key, None)
                return
        self.begun[key] = begun()

    def let_go_of_unused(self) -> bool:
        """After a build: only the faces and pages it used stay (the next save differs from it
        by an edit, not by the whole game). True when they differ from what the build began with."""
        made, kept = self.made.only(self.used), self.kept.only(self.used)  # (none unpacked)
        changed = self.changed or len(made) != len(self.made) or len(kept) != len(self.kept)
        self.made, self.kept, self.changed = made, kept, False
        self.pages.clear()
        self.begun.clear()
        self.starts = None
        self.last, self.glyph_texts, self.name_hashes = None, {}, {}
        self.names, self.digests, self.used, self.checked = {}, {}, set(), set()
        if len(self.drawn) > 10_000:
            self.drawn.clear()
        return changed

    def part(self, names: set[str], digests: set[bytes]) -> FaceStreams:
        """The faces (by their names) and pages (by their digests) of some documents, for a worker
        process that writes them (``absorb`` takes back what it drew and used): unpacked here, sent
        as streams (only a build with hundreds of faces to draw has workers write its documents)."""
        made = {k: v for k in self.made if k[0] in names and (v := self.made.get(k)) is not None}
        kept = {k: p for k in self.kept if k[0] in digests and (p := self.kept.get(k)) is not None}
        return FaceStreams(made=Unpacked(made), kept=Unpacked(kept), names=self.names)

    def absorb(self, made: Mapping, kept: Mapping, used: set) -> None:
        """What a worker's part drew and used (``part``)."""
        self.changed |= any(self.made.unpacked.get(k) is not v for k, v in made.items()) \
            or any(self.kept.unpacked.get(k) is not v for k, v in kept.items())
        self.made.update(made)
        self.kept.update(kept)
        self.used |= used


@dataclass(frozen=True)
class Begun:
    """A writer as it stood after a document's pages: ``refs`` (catalog, page tree, information),
    its pages' objects (``kids``), their labels and the rest of its ``state`` (``_Writer.write``)."""

    pages: tuple[Page, ...]
    with_: tuple  # (CMYK?, the faces' arts, the pictures' streams): what the pages were written with
    refs: tuple[Ref, Ref, Ref]
    kids: tuple[Ref, ...]
    labels: tuple
    state: tuple
