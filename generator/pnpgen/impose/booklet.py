"""Saddle-stitch imposition: A5 pages onto A4 landscape sheets, in millimetres.

The page-order and geometry functions are pure; ``impose_pdf`` is the only one that touches a PDF.

For ``n`` pages (a multiple of 4) sheet ``k`` (1 = outermost) carries, left binding:

    front  [n − 2k + 2, 2k − 1]      back  [2k, n − 2k + 1]

e.g. 8 pages → [8, 1] [2, 7] / [6, 3] [4, 5]. Right binding (vertical text, read right to left)
mirrors each side: front [2k − 1, n − 2k + 2], back [n − 2k + 1, 2k]. Print the sheets duplex,
flipping on the short edge, fold them together and staple on the fold.

Creep: folded sheets nest, and every sheet pushes the ones inside it outward by about the paper's
thickness, so after trimming the fore-edge their text sits nearer it. Sheet ``k`` therefore
shifts both its pages toward the fold by ``creep × (k − 1)``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from pnpgen.units import PT_PER_MM

A5 = (148.0, 210.0)
A4_LANDSCAPE = (297.0, 210.0)


@dataclass(frozen=True)
class Placement:
    """One page slot of one sheet side: which A5 page (None = blank), and where, in mm."""

    page: int | None  # 1-based page of the padded booklet sequence's source, None for a blank
    x_mm: float  # left edge of the page on the sheet
    y_mm: float  # bottom edge of the page on the sheet
    half: str  # "left" | "right"
    shift_mm: float  # creep shift applied, toward the fold (positive = toward the fold)


@dataclass(frozen=True)
class SheetSide:
    sheet: int  # 1 = outermost sheet
    side: str  # "front" | "back"
    left: int | None  # position in the padded sequence (1-based) on the left half
    right: int | None


def padded_count(n: int) -> int:
    """The page count rounded up to a multiple of four (at least 4)."""
    if n < 1:
        raise ValueError("a booklet needs at least one page")
    return -(-n // 4) * 4


def padded_sequence(n: int, keep_last: bool = False) -> list[int | None]:
    """Source pages in booklet order of length ``padded_count(n)``, blanks as None.

    ``keep_last`` keeps the last page (a back cover) last, putting the blanks before it.
    """
    total = padded_count(n)
    blanks = [None] * (total - n)
    pages: list[int | None] = list(range(1, n + 1))
    if keep_last and n > 1:
        return pages[:-1] + blanks + pages[-1:]
    return pages + blanks


def saddle_stitch(n: int, binding: str = "left") -> list[SheetSide]:
    """Sheet sides in print order (sheet 1 front, sheet 1 back, sheet 2 front, …)."""
    if n % 4:
        raise ValueError(f"saddle stitch needs a multiple of 4 pages, got {n}")
    if binding not in ("left", "right"):
        raise ValueError(f"binding must be 'left' or 'right', got {binding!r}")
    sides = []
    for k in range(1, n // 4 + 1):
        front = (n - 2 * k + 2, 2 * k - 1)
        back = (2 * k, n - 2 * k + 1)
        if binding == "right":
            front, back = front[::-1], back[::-1]
        sides.append(SheetSide(k, "front", *front))
        sides.append(SheetSide(k, "back", *back))
    return sides


def creep_shift(sheet: int, creep_mm: float) -> float:
    """How far sheet ``sheet`` (1 = outermost) moves its pages toward the fold."""
    return creep_mm * (sheet - 1)


def layout(
    n_pages: int,
    *,
    binding: str = "left",
    creep_mm: float = 0.0,
    page_mm: tuple[float, float] = A5,
    sheet_mm: tuple[float, float] = A4_LANDSCAPE,
    keep_last: bool = False,
) -> list[tuple[SheetSide, list[Placement]]]:
    """Every sheet side with its two page placements, in mm from the sheet's lower-left corner."""
    pw, ph = page_mm
    sw, sh = sheet_mm
    if 2 * pw > sw + 1e-9 or ph > sh + 1e-9:
        raise ValueError(f"two {pw}×{ph} mm pages do not fit on a {sw}×{sh} mm sheet")
    if creep_mm < 0:
        raise ValueError("creep must not be negative")
    seq = padded_sequence(n_pages, keep_last)
    fold = sw / 2
    y = (sh - ph) / 2
    out = []
    for side in saddle_stitch(len(seq), binding):
        shift = creep_shift(side.sheet, creep_mm)
        if shift > (sw - 2 * pw) / 2 + pw / 4:
            raise ValueError(f"creep {creep_mm} mm per sheet moves sheet {side.sheet} by {shift:.1f} mm: too much")
        assert side.left is not None and side.right is not None  # every slot of a padded sequence
        left = Placement(seq[side.left - 1], fold - pw + shift, y, "left", shift)
        right = Placement(seq[side.right - 1], fold - shift, y, "right", shift)
        out.append((side, [left, right]))
    return out


def impose_pdf(pages_pdf: bytes, sides: list[tuple[SheetSide, list[Placement]]],
               sheet_mm: tuple[float, float] = A4_LANDSCAPE, marks: Sequence[bytes] = ()) -> bytes:
    """Place the pages of ``pages_pdf`` on sheets as laid out, with ``marks[n]`` (a one-page PDF:
    fold marks, printing note) laid over side ``n``; returns the booklet PDF's bytes.

    The A5 document is cloned into the writer; each page's content stream becomes a Form
    XObject (the stream untouched, given the page's resources and a bounding box that clips at
    the fold: a page shifted by creep loses that strip of its empty inner margin, never shows on
    the facing page) and is placed on its sheet with ``q cm … Do Q``. The A5 pages are then
    removed and unreferenced objects dropped. Only pypdf's public API, no content stream parsed:
    as fast as copying bytes. The writer gets no random /ID and no dates: equal input, equal bytes.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    writer = PdfWriter(clone_from=io.BytesIO(pages_pdf))
    pages = list(writer.pages)
    reader_meta: dict = dict(writer.metadata or {})
    sw, sh = (v * PT_PER_MM for v in sheet_mm)

    def form(page, clip):
        """The page's own content stream, made a Form XObject (used once: each page is placed once)."""
        ref = page.raw_get("/Contents")
        if isinstance(ref.get_object(), ArrayObject):  # several streams: joined into one
            page.replace_contents(page.get_contents())
            ref = page.raw_get("/Contents")
        xobj = ref.get_object()
        xobj.update({
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(FloatObject(round(v, 4)) for v in clip),
            NameObject("/Resources"): page.raw_get("/Resources"),
        })
        return ref

    for n, (_side, placements) in enumerate(sides):
        sheet = writer.add_blank_page(sw, sh)
        xobjects = DictionaryObject()
        chunks: list[bytes] = []
        for i, pl in enumerate(p for p in placements if p.page is not None):
            assert pl.page is not None
            src = pages[pl.page - 1]
            box = src.mediabox
            ox, oy, ow, oh = float(box.left), float(box.bottom), float(box.width), float(box.height)
            cut = pl.shift_mm * PT_PER_MM
            clip = (ox, oy, ox + ow - cut, oy + oh) if pl.half == "left" else (ox + cut, oy, ox + ow, oy + oh)
            xobjects[NameObject(f"/Pg{i}")] = form(src, clip)
            tx, ty = pl.x_mm * PT_PER_MM - ox, pl.y_mm * PT_PER_MM - oy
            chunks.append(f"q 1 0 0 1 {tx:.4f} {ty:.4f} cm /Pg{i} Do Q\n".encode("ascii"))
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        content = DecodedStreamObject()
        content.set_data(b"".join(chunks))
        sheet.replace_contents(content)  # type: ignore[arg-type]  # pypdf takes any stream object here
        if n < len(marks):
            sheet.merge_page(PdfReader(io.BytesIO(marks[n])).pages[0])
    for page in pages:
        writer.remove_page(page)
    for key in ("/Outlines", "/PageMode"):  # the A5 bookmarks point at pages the booklet does not have
        writer.root_object.pop(key, None)
    writer.compress_identical_objects(remove_duplicates=False, remove_unreferenced=True)
    meta = {k: str(v) for k, v in reader_meta.items() if k in ("/Title", "/Author", "/Subject", "/Creator")}
    meta["/Producer"] = "pnpgen rulebook booklet"
    writer.add_metadata(meta)
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()
