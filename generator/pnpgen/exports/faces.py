"""Each distinct face of a deck on its own page at a shop's size, as a page plan written by the
one PDF writer (pdf/writer.py), and rasterised from those pages, so a PNG never differs from its
PDF page. The faces come from the build engine (build/faces.py), rendered and converted once.
"""

from __future__ import annotations

import hashlib
import io
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import pypdfium2
from PIL import Image

from pnpgen.data.model import PLACEHOLDER_COLOUR, Deck, Piece
from pnpgen.data.telling import names_told_apart
from pnpgen.exports.presets import Fitted
from pnpgen.exports.spill import Spill
from pnpgen.faces.faceset import DeckFaces
from pnpgen.impose.grid import SheetLayout, SheetOptions, Slot, cut_marks
from pnpgen.impose.plan import DieLine, Item, Page, PagePlan, PlaceFace, Strokes, TextOp
from pnpgen.impose.sheets import cut_line_label
from pnpgen.pdf.assemble import PdfFile
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.writer import write_document
from pnpgen.shapes import Affine, cut_path, mirror_x, outline, shape_spec, translate
from pnpgen.svg.artwork import Art, ArtRecord

MARK_ROOM_MM = 8.0  # paper kept outside the bleed for トンボ
# Proof overlay: trim solid, bleed edge and safe zone dashed (mm); CMYK pages convert the colours.
# The trim and the figures under it in pnpgen's 未定 magenta, which a CMYK file prints on the magenta
# plate alone (pdf/colour.py): in three inks, the 4.5 pt figures were warned as the designer's text
# too small for mixed inks, naming their template.
_R, _G, _B = (int(PLACEHOLDER_COLOUR[i:i + 2], 16) / 255 for i in (1, 3, 5))
PROOF_MAGENTA = (_R, _G, _B)
PROOF = {"trim": (PROOF_MAGENTA, None), "bleed": ((0.0, 0.45, 0.9), (1.0, 0.7)),
         "safe": ((0.0, 0.6, 0.2), (0.5, 0.5))}
PROOF_PT = 0.6


@dataclass(frozen=True)
class UniqueFace:
    """A piece's art as printed on ``copies`` of its copies (all of them unless the template
    draws copies differently), front and back, as face keys of the build's arts."""

    deck: Deck
    piece: Piece
    first_copy: int
    copies: int
    front: str
    back: str | None
    copy_digits: int = 1  # digits of the deck's largest count: copy numbers padded to it
    name: str = ""  # the piece's name as order.csv and the contact sheet say it (団子［1］: names_told_apart)

    @property
    def stem(self) -> str:
        """File-name stem: deck, piece number, and the copy when copies differ, padded to the
        deck's largest count (``c02`` … ``c12``), so a file browser lists copies in order."""
        return self._named(self.copy_digits)

    @property
    def said(self) -> str:
        """The face as a warning about a page of a shop file names it: its piece by name
        (``'Market Stall'``; an unnamed piece by its number, ``piece 3``) and, where the deck's
        copies differ, which copies (``copies 3–4``), not the file stem a designer never wrote."""
        piece = self.piece
        named = repr(piece.said) if piece.own_name or piece.deck_label else f"piece {piece.index}"
        if self.copies >= piece.count:
            return named
        last = self.first_copy + self.copies - 1
        return f"{named} copy {self.first_copy}" if self.copies == 1 else f"{named} copies {self.first_copy}–{last}"

    @property
    def object_name(self) -> str:
        """The face's part of its Tabletop Simulator objects' GUIDs (exports/ttsids.py): the stem as
        it was before copy numbers were padded, so a saved table keeps its GUIDs."""
        return self._named(1)

    def _named(self, digits: int) -> str:
        variant = f"c{self.first_copy:0{digits}d}" if self.copies < self.piece.count else ""
        return f"{self.deck.id}-{self.piece.index:03d}{variant}"


def unique_faces(faces: DeckFaces, lang: str) -> list[UniqueFace]:
    """Each piece's distinct (front, back) in print order: a file per piece, even when two pieces
    print the same, so every file and order row names its piece (a name several share told apart
    by its values, as the change report does, in the game's language ``lang``)."""
    backs: list[str | None] = list(faces.backs) if faces.backs else [None] * len(faces.fronts)
    copies = iter(zip(faces.fronts, backs))
    digits = len(str(max((piece.count for piece in faces.deck.pieces), default=1)))
    out: list[UniqueFace] = []
    names = names_told_apart(faces.deck.pieces, lang)
    for piece in faces.deck.pieces:
        seen: dict[tuple[str, str | None], int] = {}  # (front, back) → index in out
        for copy in range(1, piece.count + 1):
            pair = next(copies)
            if pair in seen:
                f = out[seen[pair]]
                out[seen[pair]] = replace(f, copies=f.copies + 1)
            else:
                seen[pair] = len(out)
                out.append(UniqueFace(faces.deck, piece, copy, 1, *pair, copy_digits=digits,
                                      name=names.get(piece.index, piece.label)))
    return out


@dataclass(frozen=True)
class PageStyle:
    """How face pages look: the deck at its fitted format, with トンボ or a proof overlay.
    ``arts`` holds the converted faces, each rendered with ``art_bleed`` mm of bleed."""

    deck: Deck
    fitted: Fitted
    font: str
    arts: Mapping[str, Art]
    art_bleed: float
    marks: str = "none"  # none | jp | western
    cmyk: bool = False
    proof: bool = False
    # where the faces' pictures are placed from (their art files), when ``arts`` holds stand-ins
    images: ImageStreams | None = field(default=None, compare=False)

    @property
    def room(self) -> float:
        return MARK_ROOM_MM if self.marks != "none" else 0.0

    @property
    def page_mm(self) -> tuple[float, float]:
        w, h = self.fitted.page_mm
        return w + 2 * self.room, h + 2 * self.room

    @property
    def trim_box_mm(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the trim from the page's top-left, y down."""
        o = self.room + self.fitted.format.bleed
        W, H = self.fitted.trim
        return o, o, o + W, o + H

    @property
    def bleed_box_mm(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.trim_box_mm
        b = self.fitted.format.bleed
        return x0 - b, y0 - b, x1 + b, y1 + b


def face_pdf(keys: Sequence[str], style: PageStyle, title: str, labels: Sequence[str | None] | None = None,
             sides: Sequence[str] | None = None, cut_line: bool = False) -> bytes:
    """One page per face key, page = the format's trim + bleed (+ room for marks), TrimBox and
    BleedBox set, ``labels`` as page labels; each face drawn once by the writer, placed on every
    page that shows it. ``sides`` (front or back of each page): a turned deck's back is turned the
    other way (``_piece_to_page``); with ``cut_line``, a die-cut piece at an any-size format carries
    its cut path on the page (a preset's ``cut_line: page``)."""
    labels = labels or [None] * len(keys)
    page_sides: Sequence[str | None] = sides or [None] * len(keys)
    pages = [_face_page(key, style, label, side, cut_line) for key, label, side in zip(keys, labels, page_sides)]
    return write_document(PagePlan(title, pages), style.arts, style.font, cmyk=style.cmyk, images=style.images)


def has_cut_line(style: PageStyle) -> bool:
    """A hex, round, tri-hex, rounded or polygon piece at an any-size format is cut along its own
    path, not the trim's rectangle; at a card format the shop's own card die cuts it."""
    return style.fitted.format.trim is None and _spec(style).die_cut


def die_pdf(style: PageStyle, title: str, sides: Sequence[str], lang: str) -> bytes:
    """The cut path alone, one page per side (the front's, the back's mirrored), each page sized,
    boxed and marked as the deck's print pages, so it registers with them (``cut_line: file``);
    its pages labelled in the game's language ``lang``."""
    pages = []
    for side in sides:
        page = Page(style.page_mm, trim=style.trim_box_mm, bleed=style.bleed_box_mm, label=cut_line_label(side, lang))
        page.items.extend(_die_line(style, side))
        if style.marks != "none":
            page.items.append(Strokes(tuple(_marks(style)), registration=True))
        pages.append(page)
    return write_document(PagePlan(title, pages), style.arts, style.font, cmyk=style.cmyk, images=style.images)


@dataclass
class EarlierImages:
    """An earlier export's images, by what each was made from (``made_from``: the faces' art, the
    size, the style): an image made from the same is taken as that export wrote it, not
    rasterised and encoded again (an edit to one card re-makes one Tabletop Simulator sheet, not
    every deck's). ``made`` is this export's record, for the next."""

    # the file as written, checked (the file itself, never read into memory: engine/export.py); None
    images: Callable[[str], bytes | PdfFile | None] = lambda made_from: None
    made: dict[str, str] = field(default_factory=dict)  # file name → what it is made from
    _arts: dict[str, str] = field(default_factory=dict)

    def made_from(self, style: PageStyle, keys: Sequence[str | None], size: tuple[int, ...], *more: object) -> str:
        """What an image of the faces ``keys`` (None: none there) at ``size`` is made from."""
        faces = [self._art(style, k) if k is not None else None for k in keys]
        deck = style.deck
        seen = (IMAGE_FORMAT, faces, size, more, deck.id, deck.shape, deck.trim_mm, sorted(deck.options.items()),
                style.fitted, style.font, style.art_bleed, style.marks, style.cmyk, style.proof)
        return hashlib.sha256(repr(seen).encode()).hexdigest()

    def take(self, files: dict[str, bytes], name: str, made_from: str) -> bool:
        """Put the earlier image made from ``made_from`` in ``files`` as ``name``, if there is one."""
        self.made[name] = made_from
        data = self.images(made_from)
        if data is None:
            return False
        files[name] = data  # type: ignore[assignment]  # (a file written: the commit keeps it, as a spilled one)
        return True

    def _art(self, style: PageStyle, key: str) -> str:
        """A face's art by its content (its cache record: every item, pictures by their hash)."""
        if key not in self._arts:
            self._arts[key] = hashlib.sha256(ArtRecord.of(style.arts[key]).text).hexdigest()
        return self._arts[key]


IMAGE_FORMAT = 1  # how an exported image is made: a change makes every earlier one unusable


def face_images(keys: Sequence[str], style: PageStyle, size: tuple[int, int],
                sides: Sequence[str] | None = None) -> Iterator[Image.Image]:
    """The face pages rasterised, each at exactly ``size`` pixels, one at a time (``rasterise``);
    ``sides`` as ``face_pdf`` takes them."""
    return rasterise(face_pdf(keys, style, style.deck.name, sides=sides), lambda i: size) if keys else iter(())


BLANK = ""  # a page key for a page with no face: the blank back of a single-sided card (shop.py)


def _face_page(key: str, style: PageStyle, label: str | None, side: str | None = None, cut_line: bool = False) -> Page:
    w, h = style.deck.trim_mm
    page = Page(style.page_mm, trim=style.trim_box_mm, bleed=style.bleed_box_mm, label=label)
    if key != BLANK:
        page.items.append(PlaceFace(key, _piece_to_page(style, side), (w, h), style.art_bleed, clip_rect=style.bleed_box_mm))
        if side is not None and cut_line:
            page.items.extend(_die_line(style, side))
    if style.marks != "none":
        page.items.append(Strokes(tuple(_marks(style)), registration=True))
    if style.proof:
        page.items.extend(_proof(style))
    return page


def _piece_to_page(style: PageStyle, side: str | None = None) -> Affine:
    """The deck's trim centred on the format's trim, scaled by the fit; a turned deck (a
    landscape card on a portrait format) a quarter turn clockwise: its top edge on the page's
    right, its left edge at the top — its back a quarter turn counter-clockwise, its top edge on
    the page's left: a shop backs a portrait card top to top, so the landscape card's two tops
    fall on one edge and it turns over left to right as a landscape card does (both turned
    clockwise, its back read upside down: trial80)."""
    w, h = style.deck.trim_mm
    W, H = style.fitted.trim
    s = style.fitted.scale
    x0, y0, _, _ = style.trim_box_mm
    if style.fitted.turned and side == "back":  # x' = y, y' = w − x (y down), then scaled and centred
        return Affine(0.0, -s, s, 0.0, x0 + (W - s * h) / 2, y0 + (H - s * w) / 2 + s * w)
    if style.fitted.turned:  # x' = h − y, y' = x (y down), then scaled and centred
        return Affine(0.0, s, -s, 0.0, x0 + (W - s * h) / 2 + s * h, y0 + (H - s * w) / 2)
    return Affine(s, 0.0, 0.0, s, x0 + (W - s * w) / 2, y0 + (H - s * h) / 2)


def _spec(style: PageStyle):
    return shape_spec(style.deck.shape, style.deck.trim_mm, style.deck.options)


def _die_line(style: PageStyle, side: str) -> list[Item]:
    """The cut path of a piece ``has_cut_line`` names in the spot colour CutContour, overprinting
    (as the build's shop files carry it, but not as a layer: PDF/X-1a has none), mirrored on a
    back; nothing for any other piece."""
    if not has_cut_line(style):
        return []
    spec = _spec(style)
    path = cut_path(spec)
    if side == "back":
        path = path.transformed(mirror_x(spec.w))
    return [DieLine(path.transformed(_piece_to_page(style, side)), spot=True)]


def _marks(style: PageStyle) -> list:
    return shop_marks(style.page_mm, style.trim_box_mm, style.fitted.format.bleed, style.marks)


def shop_marks(page_mm: tuple[float, float], trim_box_mm: tuple[float, float, float, float], bleed_mm: float,
               marks: str) -> list:
    """A shop's cut marks round the one trim of a page (a piece, a rulebook page): the home
    sheets' トンボ on a one-slot sheet."""
    x0, y0, x1, y1 = trim_box_mm
    slot = Slot(0, 0, x0, y0, x1 - x0, y1 - y0)
    layout = SheetLayout(page_mm, (x1 - x0, y1 - y0), False, 1, 1, (0.0, 0.0), bleed_mm, [slot])
    # The marks' area is this page, not the home sheets' A4: on a board wider than A4 they were cut
    # short at 210 mm, drawn back into the piece.
    return cut_marks(layout, SheetOptions(marks=marks, margin_mm=0.0, slug_mm=0.0, cut_area=(0.0, 0.0, *page_mm)))


def _proof(style: PageStyle) -> list[Item]:
    """Trim (solid), bleed edge and safe zone (dashed) of the piece's shape, named in the bleed."""
    x0, y0, _, _ = style.trim_box_mm
    fmt = style.fitted.format
    W, H = style.fitted.trim
    spec = shape_spec(style.deck.shape, (W, H), style.deck.options)
    at = translate(x0, y0)
    items: list[Item] = [DieLine(outline(spec, offset).transformed(at), PROOF_PT, PROOF[kind][0], dash=PROOF[kind][1])
                         for kind, offset in (("trim", 0.0), ("bleed", fmt.bleed), ("safe", -fmt.safe))]
    items.append(TextOp(x0 + 0.8, y0 + H + fmt.bleed - 0.8,
                        f"{fmt.name} trim {W:.2f}×{H:.2f} · bleed {fmt.bleed:.2f} · safe {fmt.safe:.2f} mm",
                        style.font, 4.5, PROOF["trim"][0]))
    return items


def rasterise(pdf: bytes, size: Callable[[int], tuple[int, int]]) -> Iterator[Image.Image]:
    """Every page as an RGB image of exactly ``size(page index)`` pixels (pdfium; a page whose
    rounding misses by a pixel is resampled to the size), each made as it is asked for: a caller
    that pastes or encodes each in turn never holds them all (a Tabletop Simulator sheet's 69
    cards, some 50 MB of pixels at 5,000 cards, were held beside the sheet they were pasted into)."""
    doc = pypdfium2.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            page = doc[i]
            w_pt, h_pt = page.get_size()
            px = size(i)
            scale = min(px[0] / w_pt, px[1] / h_pt) * (1 - 1e-9)
            image = page.render(scale=scale).to_pil()  # RGB decoded from pdfium's BGR: pixels of its own
            if image.mode != "RGB":
                image = image.convert("RGB")
            page.close()
            if image.size != px:
                image = image.resize(px, Image.Resampling.LANCZOS)
            yield image
    finally:
        doc.close()


class PngFiles:
    """PNG files encoded on threads beside the rasterising (Pillow's encoder lets go of the
    interpreter's lock while it compresses), each file put in its place in ``files`` when done:
    the same bytes, in the same order, as encoding them one by one. At most ``workers`` + 1
    images wait at a time, and never more than ``WAITING_BYTES`` of pixels beyond the one being
    encoded: one Tabletop Simulator sheet (some 50 MB of pixels at 4096 px) is encoded while the
    next is drawn, never two waiting (five waiting on a 4-core machine took a 3,000-card export
    to 738 MB; three on two cores, a 5,000-card one to 589 MB), while a shop's cards, 1–3 MB each,
    still wait several to a core."""

    WAITING_BYTES = 60_000_000

    def __init__(self, workers: int = min(os.cpu_count() or 1, 4), spill: Spill | None = None):
        self.workers = max(1, workers)
        self.spill = spill  # a big export's files written out as encoded (exports/spill.py)
        self._pool: ThreadPoolExecutor | None = None
        self._waiting: deque[tuple[dict[str, bytes], str, Future[bytes], int]] = deque()

    def add(self, files: dict[str, bytes], name: str, image: Image.Image, dpi: int | None = None) -> None:
        if self.workers == 1:
            files[name] = self._kept(png_bytes(image, dpi))
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.workers)
        files[name] = b""  # its place in the order, filled when encoded
        size = image.width * image.height * len(image.getbands())
        self._waiting.append((files, name, self._pool.submit(png_bytes, image, dpi), size))
        while len(self._waiting) > self.workers + 1 or (
                len(self._waiting) > 1 and sum(w[3] for w in self._waiting) > self.WAITING_BYTES):
            self._settle_one()

    def room_for(self, size: tuple[int, int], bands: int = 3) -> None:
        """Wait, before an image of ``size`` pixels is drawn, until it and the images waiting fit
        ``WAITING_BYTES`` (or none waits): a Tabletop Simulator sheet (49 MB of pixels, 66 MB as
        Pillow holds them) was drawn while the last was encoded, and a contact sheet (62 MB) the
        same, two of them held at once (a 3,000-card export's peak, 557 MB)."""
        wanted = size[0] * size[1] * bands
        while self._waiting and sum(w[3] for w in self._waiting) + wanted > self.WAITING_BYTES:
            self._settle_one()

    def finish(self) -> None:
        """Every file added is in its place (an encoder's error is raised here)."""
        try:
            while self._waiting:
                self._settle_one()
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None

    def _settle_one(self) -> None:
        files, name, future, _ = self._waiting.popleft()
        files[name] = self._kept(future.result())

    def _kept(self, data: bytes) -> bytes:
        """An encoded file as the export holds it: in memory, or written out (``Spill``), its
        bytes read from there as the commit stages it (``PdfFile``, which the commit takes)."""
        return data if self.spill is None else self.spill.keep(data)  # type: ignore[return-value]


# zlib's level for exported PNGs: 3 encodes a Tabletop Simulator sheet or a card 40 % faster than
# Pillow's default 6 for files some 5 % larger (measured on populous's exports)
PNG_LEVEL = 3


# PNG files this process encoded, by what they were encoded from: a process that exports again
# (serve, a script exporting each preset, the tests) encodes an image it encoded before once, a
# hash of its pixels (2 ms for a card at 300 dpi) against zlib's 20 ms. The least recently used go
# first.
ENCODED_KEPT_BYTES = 64 << 20
# … not an image of more pixel bytes than this (a Tabletop Simulator sheet's 50 MB, a contact
# sheet's, a big board's): one export encodes it once, and its file kept here was held beside the
# copy a big export writes out (exports/spill.py) — a card's 2.8 MB at 300 dpi is kept
ENCODED_LARGEST_PIXELS = 16 << 20
_encoded: OrderedDict[tuple, bytes] = OrderedDict()
_encoded_size = [0]  # the bytes of the files kept
_encoded_lock = threading.Lock()


def png_bytes(image: Image.Image, dpi: int | None = None) -> bytes:
    """The image as a PNG file (``encode_png``), the bytes of an equal image encoded before in this
    process taken again: what the encoder reads of it is in the key (mode, size, pixels; an image
    carrying more, such as a palette or an ICC profile, is encoded each time)."""
    if image.mode not in ("RGB", "RGBA", "L", "LA") or image.info \
            or image.width * image.height * len(image.getbands()) > ENCODED_LARGEST_PIXELS:
        return encode_png(image, dpi)
    key = (image.mode, image.size, dpi, pixels_digest(image))
    with _encoded_lock:
        data = _encoded.get(key)
        if data is not None:
            _encoded.move_to_end(key)
            return data
    data = encode_png(image, dpi)
    with _encoded_lock:
        if key not in _encoded:  # (another thread may have encoded it meanwhile)
            _encoded[key] = data
            _encoded_size[0] += len(data)
        while _encoded_size[0] > ENCODED_KEPT_BYTES and len(_encoded) > 1:
            _encoded_size[0] -= len(_encoded.popitem(last=False)[1])
    return data


HASHED_ROWS = 256  # rows of an image hashed at a time (``pixels_digest``)


def pixels_digest(image: Image.Image) -> bytes:
    """The SHA-256 of an image's pixels, read a band of HASHED_ROWS rows at a time: a Tabletop
    Simulator sheet's 50 MB of pixels were copied whole to be hashed, beside the sheet itself,
    on each encoder's thread."""
    digest = hashlib.sha256()
    for top in range(0, image.height, HASHED_ROWS):
        digest.update(image.crop((0, top, image.width, min(image.height, top + HASHED_ROWS))).tobytes())
    return digest.digest()


def encode_png(image: Image.Image, dpi: int | None = None) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", optimize=False, compress_level=PNG_LEVEL, **({"dpi": (dpi, dpi)} if dpi else {}))
    return buf.getvalue()
