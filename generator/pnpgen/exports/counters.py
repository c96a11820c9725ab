"""Counter sheets: a deck of tokens at a print shop's any-size format (``doujin-pieces``) ganged
on sheets, every copy once, as a shop prints and die-cuts counters (a punchboard), not one counter
a page.

The sheet is the preset's ``counter_sheet`` (A4 by default) with its own 塗り足し and トンボ; the counters
stand in a grid inside it, each with the format's full bleed: ``gap`` between two counters' trims
is twice the bleed, so neighbours' bleeds meet but never overlap (the rule of the home sheets,
impose/nest.py), and the cut may wander by the bleed without showing a neighbour's art. That gap
(6 mm at 3 mm 塗り足し) is also more than the 0.125 in (3.175 mm) a die maker's setup guide names
as the standard space between cuts (Leapin' Lizard Labels, "How to Order a Cutting Die"). The
outermost counters' bleed stays the format's safe zone inside the sheet's trim. Every counter is
cut along its own path (a rect one too: a punchboard is die-cut, not guillotined), in the file
beside the pages or on them (the preset's ``cut_line``); a back sheet is the front sheet mirrored
left to right (long-edge flip), each back behind its front. A half-full last sheet keeps the full
grid, filled from the top: a shop cuts every sheet with the one die made for a full sheet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pnpgen.exports.faces import MARK_ROOM_MM, PROOF, PROOF_PT, PageStyle, UniqueFace, shop_marks
from pnpgen.exports.presets import COUNTER_SHEET_MM
from pnpgen.impose.plan import DieLine, Item, Page, PagePlan, PlaceFace, Strokes
from pnpgen.impose.sheets import cut_line_label
from pnpgen.messages import counted, msg
from pnpgen.pdf.writer import write_document
from pnpgen.shapes import Affine, cut_path, mirror_x, outline, shape_spec, translate

SIDES = ("front", "back")
SHEET_FACES_NAMED = 3  # a warning about a counter sheet names its first faces and counts the rest (64 named in one line)


@dataclass(frozen=True)
class CounterSheets:
    """Where the counters go: the sheet's trim, and each counter's top-left on it (mm from the
    sheet's trim's top-left), one sheet's worth."""

    sheet_mm: tuple[float, float]
    piece_mm: tuple[float, float]
    slots: tuple[tuple[float, float], ...]
    gap_mm: float

    @property
    def per_sheet(self) -> int:
        return len(self.slots)


def counter_grid(piece_mm: tuple[float, float], bleed: float, safe: float,
                 sheet_mm: tuple[float, float] = COUNTER_SHEET_MM) -> CounterSheets:
    """As many counters as fit the sheet in a grid, centred: ``2 × bleed`` between trims, the
    outermost bleed ``safe`` inside the sheet's trim."""
    (w, h), (W, H) = piece_mm, sheet_mm
    gap, margin = 2 * bleed, bleed + safe
    cols = max(0, math.floor((W - 2 * margin + gap) / (w + gap) + 1e-9))
    rows = max(0, math.floor((H - 2 * margin + gap) / (h + gap) + 1e-9))
    x0 = (W - (cols * w + (cols - 1) * gap)) / 2
    y0 = (H - (rows * h + (rows - 1) * gap)) / 2
    slots = tuple((x0 + c * (w + gap), y0 + r * (h + gap)) for r in range(rows) for c in range(cols))
    return CounterSheets(sheet_mm, piece_mm, slots, gap)


def counters_of(style: PageStyle, sheet_mm: tuple[float, float] = COUNTER_SHEET_MM) -> CounterSheets | None:
    """The counter sheets of a deck of tokens at an any-size format with more than one copy,
    when two or more fit a sheet of ``sheet_mm`` (the preset's ``counter_sheet``); None for any other deck (a page a face, as before)."""
    deck = style.deck
    if style.fitted.format.trim is not None or deck.kind != "token" or deck.count < 2 or style.fitted.scale != 1:
        return None
    if deck.paper_die is not None or deck.standee is not None:
        return None  # a die's net and a standee's strip are printed a page a face, each with its cut
    grid = counter_grid(deck.trim_mm, style.fitted.format.bleed, style.fitted.format.safe, sheet_mm)
    return grid if grid.per_sheet >= 2 else None


@dataclass(frozen=True)
class CounterPages:
    """The deck's counter sheets as a shop file: its PDF, the cut line's (empty when on the
    pages), and per page what it shows (for the ink warnings), and per face the pages it is on."""

    pdf: bytes
    die: bytes
    where: list[str]
    sides: list[str]
    face_pages: list[tuple[list[int], list[int]]]  # per face: (front pages, back pages), 1-based


def counter_pages(style: PageStyle, grid: CounterSheets, faces: Sequence[UniqueFace], title: str,
                  die_on_page: bool, cut_title: str = "", lang: str = "en") -> CounterPages:
    """Every copy of every face on sheets of ``grid``, in print order; each sheet's front page,
    then its back page (a deck with backs). The cut lines on the pages with ``die_on_page``,
    else in a file of their own whose pages register with the print pages; the pages labelled in
    ``lang``, the game's language (``シート1（表）``: ``sheet 1 (front)`` in a Japanese game before)."""
    copies = [(i, face) for i, face in enumerate(faces) for _ in range(face.copies)]
    two_sided = any(face.back is not None for face in faces)
    pages: list[Page] = []
    die_pages: list[Page] = []
    where: list[str] = []
    sides: list[str] = []
    face_pages: list[tuple[list[int], list[int]]] = [([], []) for _ in faces]
    n = grid.per_sheet
    sheets = math.ceil(len(copies) / n)
    for number in range(1, sheets + 1):
        chunk = copies[(number - 1) * n:number * n]
        for side in SIDES if two_sided else SIDES[:1]:
            placed = [(slot, face) for slot, (_, face) in zip(grid.slots, chunk)]
            page, die = _sheet_page(style, grid, placed, side, msg("sheet.page", lang, sheet=number, side=msg(f"sheet.{side}", lang)),
                                    cut_line_label(side, lang, number), die_on_page)
            pages.append(page)
            die_pages.append(die)
            shown = sorted({i for i, _ in chunk})
            named = ", ".join(faces[i].said for i in shown[:SHEET_FACES_NAMED])
            more = len(shown) - SHEET_FACES_NAMED
            where.append(f"sheet {number} {side} of deck {style.deck.id!r}: {named}" + (f" and {counted(more, 'more face')}" if more > 0 else ""))
            sides.append(side)
            for i in shown:
                face_pages[i][0 if side == "front" else 1].append(len(pages))
    pdf = write_document(PagePlan(title, pages), style.arts, style.font, cmyk=style.cmyk, images=style.images)
    cut = b"" if die_on_page else write_document(PagePlan(cut_title or msg("shop.cut_line", lang, title=title), die_pages), style.arts, style.font,
                                                 cmyk=style.cmyk, images=style.images)
    return CounterPages(pdf, cut, where, sides, face_pages)


Box = tuple[float, float, float, float]


def sheet_boxes(grid: CounterSheets, bleed: float) -> tuple[tuple[float, float], Box, Box]:
    """The page (mm), and the sheet's trim and bleed boxes on it (x0, y0, x1, y1, y down)."""
    W, H = grid.sheet_mm
    o = MARK_ROOM_MM + bleed
    page = (W + 2 * o, H + 2 * o)
    trim = (o, o, o + W, o + H)
    return page, trim, (o - bleed, o - bleed, o + W + bleed, o + H + bleed)


def _sheet_page(style: PageStyle, grid: CounterSheets, placed: list, side: str, label: str, die_label: str,
                die_on_page: bool) -> tuple[Page, Page]:
    """One side of a sheet, and its cut line's page: each counter's face clipped to its own
    bleed, the backs where they fall behind their fronts once the sheet is turned left to right."""
    fmt = style.fitted.format
    page_mm, trim, bleed_box = sheet_boxes(grid, fmt.bleed)
    x0, y0 = trim[0], trim[1]
    spec = shape_spec(style.deck.shape, style.deck.trim_mm, style.deck.options)
    w, h = style.deck.trim_mm
    page = Page(page_mm, trim=trim, bleed=bleed_box, label=label)
    die = Page(page_mm, trim=trim, bleed=bleed_box, label=die_label)
    cuts: list[Item] = []
    for (x, y), face in placed:
        key = face.front if side == "front" else face.back
        if side == "back":
            x = grid.sheet_mm[0] - x - w  # (long-edge flip: column c of the fronts is cols − 1 − c)
        at: Affine = translate(x0 + x, y0 + y)
        if key is not None:
            page.items.append(PlaceFace(key, at, (w, h), style.art_bleed, clip=outline(spec, fmt.bleed).transformed(at)))
        turn = mirror_x(spec.w) if side == "back" else Affine()  # a back's shape is its front's mirror image
        cuts.append(DieLine(cut_path(spec).transformed(turn).transformed(at), spot=True))
        if style.proof:  # each counter's trim (solid), bleed edge and safe zone (dashed), as on a page of its own
            page.items.extend(DieLine(outline(spec, offset).transformed(turn).transformed(at), PROOF_PT, PROOF[kind][0],
                                      dash=PROOF[kind][1])
                              for kind, offset in (("trim", 0.0), ("bleed", fmt.bleed), ("safe", -fmt.safe)))
    (page if die_on_page else die).items.extend(cuts)
    if style.marks != "none":
        marks = Strokes(tuple(shop_marks(page_mm, trim, fmt.bleed, style.marks)), registration=True)
        page.items.append(marks)
        die.items.append(marks)
    return page, die
