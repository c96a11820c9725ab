"""Home sheets, board tiles and print-shop pages as page plans (pure mm, no drawing).

Home sheets: pieces on a grid or nested, artwork stopping at each piece's bleed outline, cut marks
round a grid of rectangles, die lines round die-cut shapes; each fronts sheet is followed by its
backs sheet, the mirror image in millimetres. Boards larger than the paper print as numbered page
tiles. Shop pages: one piece per page at full size, page = trim + bleed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial

from pnpgen.impose.cutter import add_registration
from pnpgen.impose.fold import FoldLayout, fold_pages
from pnpgen.impose.grid import SheetLayout, SheetOptions, cut_marks, used_part
from pnpgen.impose.nest import NestLayout
from pnpgen.impose.plan import Alike, DieLine, Item, Page, PlaceFace, RectOp, Strokes, TextOp
from pnpgen.impose.sleeve import SleeveLayout, layout_sleeve, sleeve_pages
from pnpgen.impose.slots import SlotLayout
from pnpgen.impose.tiles import TileOptions, TilePlan, assembly_map, glue_strips, tile_marks
from pnpgen.messages import msg
from pnpgen.shapes import (
    Affine,
    Outline,
    ShapeSpec,
    Straight,
    back_outline,
    back_transform,
    bleed_path,
    cut_path,
    duplex_mirror,
    translate,
)
from pnpgen.units import MM_PER_INCH

TILE_OPTIONS = TileOptions()
GUIDE = (0.85, 0.0, 0.45)
NOTE_INK = (0.3, 0.3, 0.3)


@dataclass(frozen=True)
class DeckSheets:
    """What imposition needs to know of a deck: its shape, and the face keys of every printed
    copy in print order (``backs`` None for a one-sided deck)."""

    id: str
    name: str
    spec: ShapeSpec
    fronts: tuple[str, ...]
    backs: tuple[str, ...] | None
    art_bleed_mm: float  # bleed drawn round every face
    stamp: str = ""  # version stamp's start (game, draft, date); each sheet adds the hash of its faces
    lang: str = "ja"  # the language of the labels pnpgen prints
    pictures: Mapping[str, str] = field(default_factory=dict)  # a face showing pictures → their hash (for the stamp)
    # decks sharing these sheets (game.yaml ``share_sheets: true``, <game>-all.pdf only): each
    # one's (name, id, copies) in print order; empty for one deck, named by ``name`` and ``id``
    parts: tuple[tuple[str, str, int], ...] = ()
    # decks of different outlines sharing these sheets: each copy's shape, centred in a slot the
    # size of the largest (impose/share.py); empty when every copy is ``spec``
    specs: tuple[ShapeSpec, ...] = ()

    def named(self, start: int, stop: int) -> tuple[str, str]:
        """The name and id a sheet holding copies ``start``..``stop - 1`` says it holds: the
        deck's, or those of the sharing decks with a copy on it (``ビッド + 役割``, ``bid+role``)."""
        if not self.parts:
            return self.name, self.id
        on, first = [], 0
        for name, id_, n in self.parts:
            if first < stop and start < first + n:
                on.append((name, id_))
            first += n
        return " + ".join(n for n, _ in on), "+".join(i for _, i in on)

    def stamp_of(self, faces: Iterable[str]) -> str:
        """The version stamp of a sheet showing ``faces`` (each with the hash of the pictures it
        shows: a repainted picture gives its sheet a new stamp, as a new text does)."""
        return sheet_stamp(self.stamp, [f + self.pictures.get(f, "")[:16] for f in faces])


Measure = Callable[[str, str, float], float]  # (text, font, size pt) → width mm


def home_sheets(deck: DeckSheets, layout: SheetLayout | NestLayout | SlotLayout, sheet: SheetOptions,
                font: str, measure: Measure) -> list[Page]:
    """Fronts sheets, each followed by its mirrored backs sheet."""
    spec = deck.spec
    per = layout.per_sheet
    measure = _remembered(measure)  # (every sheet's slug begins with the same line: measured once)
    sb = layout.sheet_bleed_mm
    with_marks = layout.kind in ("grid", "slots") and spec.kind in ("rect", "rounded")
    mirror = duplex_mirror(sheet.duplex, layout.paper_mm)
    front_clip = bleed_path(spec, sb)
    back_clip = back_outline(spec, sb)
    # no die line on a stock that comes cut (a sheet layout's marks: false, round labels kiss-cut to
    # the piece's shape): a thin black ring printed at each label's edge, shown by any drift of the feed;
    # nor on a sheet a cutting machine cuts between its registration marks (its cut files hold the
    # line), where it would show as the drift of the cut round a hex or a round sticker
    precut = (isinstance(layout, SlotLayout) and not layout.marks) or \
        (sheet.silhouette is not None and not isinstance(layout, SlotLayout))
    die = cut_path(spec) if spec.die_cut and not precut else None
    total = len(deck.fronts)
    lang = deck.lang
    how = (f"{layout.cols}×{layout.rows}" if isinstance(layout, SheetLayout) else layout.name
           if isinstance(layout, SlotLayout) else msg("sheet.nested", lang, per=per))
    pages: list[Page] = []
    slots: dict[tuple[int, str, int], tuple] = {}  # a slot's placement, clip and die line for a shape, the same on every sheet
    shapes = list(dict.fromkeys(deck.specs)) if deck.specs else [spec]  # (the copies' distinct shapes, in order)
    shape_of = [shapes.index(s) for s in deck.specs] if deck.specs else []
    marked: dict[int, tuple[list[Item], list[Item]]] = {}  # the cut marks of a block of n pieces, fronts and backs

    def marks_of(n: int) -> tuple[list[Item], list[Item]]:
        """The marks' strokes round a block of ``n`` pieces, made once and shared by every sheet
        of that block (their text, kept on the strokes, is written once: ``kept_repr``)."""
        if n not in marked:
            lines = _marks(layout, n, sheet) if with_marks else []
            # the marks of the block the backs fill, mirrored like them
            backs = [Straight(*mirror((ln.x1, ln.y1)), *mirror((ln.x2, ln.y2))) for ln in lines]
            marked[n] = ([Strokes(tuple(lines))] if lines else [], [Strokes(tuple(backs))] if backs else [])
        return marked[n]

    def slot(n: int, side: str, k: int = 0) -> tuple:
        if (n, side, k) not in slots:
            if not deck.specs:  # the deck's own shape fills its slot
                m = layout.transform(n) if side == "front" else layout.back_transform(n, sheet.duplex)
                outline = front_clip if side == "front" else back_clip
                line = die if side == "front" else None
            else:  # shape ``k`` centred in a slot the size of the largest (its back behind it)
                shape = shapes[k]
                m = _centred(layout, n, shape)
                if side == "back":
                    m = back_transform(m, shape.w, sheet.duplex, layout.paper_mm)
                outline = bleed_path(shape, sb) if side == "front" else back_outline(shape, sb)
                line = cut_path(shape) if side == "front" and die is not None else None
            slots[(n, side, k)] = (m, outline.transformed(m), line.transformed(m) if line is not None else None)
        return slots[(n, side, k)]

    def size(i: int) -> tuple[float, float]:
        return (spec.w, spec.h) if not deck.specs else (deck.specs[i].w, deck.specs[i].h)

    def shape_at(i: int) -> int:
        return shape_of[i] if shape_of else 0

    for start in range(0, total, per):
        chunk = range(start, min(start + per, total))
        front_marks, back_marks = marks_of(len(chunk))
        front = Page(layout.paper_mm)
        for i in chunk:
            m, clip, _ = slot(i - start, "front", shape_at(i))
            front.items.append(PlaceFace(deck.fronts[i], m, size(i), deck.art_bleed_mm, clip=clip))
        if die is not None:
            front.items.extend(DieLine(slot(i - start, "front", shape_at(i))[2]) for i in chunk)
        sides = [("front", front, front_marks)]
        if deck.backs is not None:
            back = Page(layout.paper_mm)
            for i in chunk:
                m, clip, _ = slot(i - start, "back", shape_at(i))
                back.items.append(PlaceFace(deck.backs[i], m, size(i), deck.art_bleed_mm, clip=clip))
            sides.append(("back", back, back_marks))
        # the fronts page's stamp hashes the whole sheet's faces; the backs page's, the backs it prints:
        # a count edit moving the cards of a deck with one back keeps the backs pages' bytes
        stamps = {"front": deck.stamp_of([*(deck.fronts[i] for i in chunk), *(deck.backs[i] for i in chunk if deck.backs)])}
        if deck.backs is not None:
            stamps["back"] = deck.stamp_of([deck.backs[i] for i in chunk])
        for side, page, page_marks in sides:
            page.side = side
            page.items.extend(page_marks)
            name, id_ = deck.named(chunk.start, chunk.stop)
            note = msg("sheet.note_shared" if deck.parts else "sheet.note", lang, deck=name, id=id_, side=msg(f"sheet.{side}", lang),
                       sheet=start // per + 1, sheets=-(-total // per), how=how, bleed=f"{sb:.1f}")
            words = _duplex_words(sheet, deck.backs is not None, lang)
            need = min(sheet.least_bleed_mm, sheet.bleed_mm)  # (a deck's own bleed: below the offset's asks less)
            if deck.backs is not None and sb < need - 1e-9:
                words += " · " + msg("sheet.bleed_short", lang, need=f"{round(need, 2):g}")  # 1.25, not 1.2
            at = layout.slug_y(sheet) if isinstance(layout, SlotLayout) else None  # a stock's slots may take the top
            page.items.extend(slug(words, note, stamps[side], layout.paper_mm, sheet, font, measure, lang, y=at))
            pages.append(page)
    return pages


def _centred(layout: SheetLayout | NestLayout | SlotLayout, n: int, shape: ShapeSpec) -> Affine:
    """Piece frame → sheet for ``shape`` centred in slot ``n`` of a grid of slots the size of the
    largest of the shapes sharing it (impose/share.py)."""
    assert isinstance(layout, SheetLayout)
    w, h = layout.unturned_mm
    return translate((w - shape.w) / 2, (h - shape.h) / 2).then(layout.transform(n))


def plain_sheets(deck: DeckSheets, layout: SheetLayout | NestLayout | SlotLayout, by_hand: bool,
                 sheet: SheetOptions, font: str, measure: Measure) -> list[Page]:
    """Home sheets on a grid, a nesting or a sheet layout's slots (not tiles, fold-over or sleeve
    inserts): a deck's own, and those decks share (impose/share.py). ``by_hand``: a board the
    registration marks leave no room for, cut by hand with cut marks, not by the machine."""
    if isinstance(layout, SlotLayout):
        return home_sheets(deck, layout, sheet, font, measure)
    if by_hand:
        return home_sheets(deck, layout, sheet.cut_by_hand(), font, measure)
    home = home_sheets(deck, layout, sheet, font, measure)
    if sheet.silhouette is not None:
        add_registration(home, sheet.silhouette)
    return home


def duplex_ready(pages: list[Page], two_sided: bool, sheet: SheetOptions, font: str, lang: str) -> list[Page]:
    """A deck's home pages for a file that also holds two-sided sheets (the all-in-one file, the
    reprint): printed duplex, a one-sided deck's sheet is followed by a blank page, so every
    backs page of the next deck lands behind its fronts."""
    if two_sided or sheet.duplex == "none":
        return pages
    out: list[Page] = []
    for page in pages:
        blank = Page(page.size_mm, [TextOp(sheet.margin_mm + 2, sheet.margin_mm + 4,
                                           msg("sheet.blank", lang),
                                           font, 6, (0.5, 0.5, 0.5))])
        out.extend((page, blank))
    return out


def _marks(layout: SheetLayout | NestLayout | SlotLayout, n: int, sheet: SheetOptions) -> list[Straight]:
    """Cut marks round the block ``n`` pieces fill: a grid's used part, or a sheet layout's first slots."""
    if isinstance(layout, SlotLayout):
        return layout.cut_marks(n, sheet)
    return cut_marks(used_part(layout, n), sheet) if isinstance(layout, SheetLayout) else []


def fold_sheets(deck: DeckSheets, lay: FoldLayout, sheet: SheetOptions, font: str, measure: Measure) -> list[Page]:
    """A two-sided deck as fold-over sheets (impose/fold.py), each with its slug (or the sheets
    decks share, impose/share.py)."""
    assert deck.backs is not None
    pages = fold_pages(lay, deck.spec, deck.fronts, deck.backs, deck.art_bleed_mm, sheet, font, deck.lang)
    how = f"{lay.cols}×{lay.rows}"
    # (round and hex pieces have no cut marks: their die line is on the fronts' half)
    instruction = msg("sheet.fold_die" if deck.spec.die_cut else "sheet.fold", deck.lang) + made_for(sheet, deck.lang)
    for n, page in enumerate(pages, 1):  # (decks sharing fold-over sheets: those with a copy on it named)
        name, id_ = deck.named((n - 1) * lay.per_sheet, n * lay.per_sheet)
        note = msg("sheet.note_shared" if deck.parts else "sheet.note", deck.lang, deck=name, id=id_,
                   side=msg("sheet.fold_sides", deck.lang), sheet=n, sheets=len(pages), how=how, bleed=f"{lay.bleed_mm:.1f}")
        page.items.extend(slug(instruction, note, deck.stamp_of(_chunk_faces(deck, lay.per_sheet, n)), lay.paper_mm, sheet, font, measure, deck.lang))
    return pages


def sleeve_sheets(deck: DeckSheets, kind: str, sheet: SheetOptions, font: str, measure: Measure) -> tuple[list[Page], dict] | None:
    """A deck of cards as sleeve inserts (impose/sleeve.py): fronts only, kept at trim or scaled
    down to fit the sleeve; with what the manifest records. None for pieces that are not cards."""
    lay = layout_sleeve(deck.spec, len(deck.fronts), sheet, kind)
    if lay is None:
        return None
    (w, h), insert, s = lay.sleeve_mm, lay.insert, lay.scale
    record = {"layout": "sleeve", "sleeve_mm": [round(w, 3), round(h, 3)], "insert_mm": [round(insert.w, 3), round(insert.h, 3)],
              "scale": round(s, 5), "reduced": s < 1.0, "pieces_per_sheet": lay.per_sheet,
              "sheet_bleed_mm": round(lay.sheet_bleed_mm, 3)}
    return sleeve_drawn(deck, lay, sheet, font, measure), record


def sleeve_drawn(deck: DeckSheets, lay: SleeveLayout, sheet: SheetOptions, font: str, measure: Measure) -> list[Page]:
    """A deck's inserts on ``lay``, each sheet with its slug (or the sheets decks share, impose/share.py:
    those with a copy on it named)."""
    layout, s, insert, lang = lay.inserts, lay.scale, lay.insert, deck.lang
    pages = sleeve_pages(deck.fronts, deck.spec, insert, s, layout, deck.art_bleed_mm, sheet)
    size = f"{insert.w:.1f}×{insert.h:.1f} mm"
    fit = msg("sheet.sleeve_kept", lang) if s == 1.0 else msg("sheet.sleeve_reduced", lang, percent=f"{s * 100:.1f}")
    instruction = msg("sheet.sleeve", lang, sleeve=f"{lay.sleeve_mm[0]:g}×{lay.sleeve_mm[1]:g}", size=size, fit=fit) \
        + made_for(sheet, lang)
    how = f"{layout.cols}×{layout.rows}" if isinstance(layout, SheetLayout) else msg("sheet.nested", lang, per=layout.per_sheet)
    per = layout.per_sheet
    for n, page in enumerate(pages, 1):
        name, id_ = deck.named((n - 1) * per, n * per)
        note = msg("sheet.note_shared" if deck.parts else "sheet.note", lang, deck=name, id=id_,
                   side=msg("sheet.front", lang), sheet=n, sheets=len(pages), how=how, bleed=f"{layout.sheet_bleed_mm:.1f}")
        page.items.extend(slug(instruction, note, deck.stamp_of(deck.fronts[(n - 1) * per:n * per]),
                               layout.paper_mm, sheet, font, measure, lang))
    return pages


def _chunk_faces(deck: DeckSheets, per: int, n: int) -> list[str]:
    """The faces printed on sheet ``n`` (from 1) of ``per`` pieces: its fronts and their backs."""
    part = slice((n - 1) * per, n * per)
    return [*deck.fronts[part], *(deck.backs[part] if deck.backs else ())]


def sheet_stamp(stamp: str, faces: Iterable[str]) -> str:
    """The version stamp of one sheet: the deck's (game, draft, date) and a short hash of the faces
    printed on that sheet, so a sheet whose pieces did not change prints the same stamp and
    keeps its bytes; empty when the game prints no stamp."""
    if not stamp:
        return ""
    return f"{stamp} #{hashlib.sha256(' '.join(faces).encode()).hexdigest()[:7]}"


def _duplex_words(sheet: SheetOptions, two_sided: bool, lang: str) -> str:
    """The print instruction: 片面 or how to flip, and the printer profile the sheet is made for."""
    words = msg(f"sheet.duplex.{sheet.duplex}", lang) if two_sided else msg("sheet.one_sided", lang)
    if sheet.silhouette is not None:  # a print-and-cut sheet: what the machine scans, and which side it cuts
        words += " · " + msg("sheet.silhouette", lang, inset=f"{sheet.silhouette.inset_mm:g}")
    return words + made_for(sheet, lang, two_sided)


def made_for(sheet: SheetOptions, lang: str, backs: bool = False) -> str:
    """What the print instruction adds: the printer profile the sheet is made for (its back
    offset named only where ``backs`` are printed behind the fronts, which it moves), and the ink
    saver (``--ink``) it was drawn with."""
    printer = sheet.printer if backs else sheet.printer_plain or sheet.printer
    words = f" · {msg('sheet.printer', lang, printer=printer)}" if printer else ""
    return words + (f" · {msg('sheet.' + sheet.ink, lang)}" if sheet.ink else "")


SLUG_SIZES = (6.0, 5.0)  # pt: the print instruction line, then the line naming the sheet
SLUG_LEAST_PT = 3.0  # a long deck name shrinks its line down to this, never cut


def slug(instruction: str, note: str, stamp: str, paper: tuple[float, float], sheet: SheetOptions, font: str,
         measure: Measure, lang: str, y: float | None = None) -> list[Item]:
    """The sheet's slug, two lines inside the printable area (the band above the pieces, or from
    ``y``), never cut off: first how to print it (片面 / 両面・長辺とじ / fold / sleeve, printer
    profile) and the scale note, with a 10 mm and a 1 in scale bar on the right to check the
    printer kept the size; then what is on the sheet and the version stamp. A line too long for
    the paper is set smaller (down to SLUG_LEAST_PT), never shortened."""
    x0, x1 = sheet.margin_mm, paper[0] - sheet.margin_mm
    top = sheet.margin_mm if y is None else y
    if sheet.slug_at is not None and y is None:  # a print-and-cut sheet: clear of the registration marks
        x0, top = sheet.slug_at
    bar_y = top + 1.6
    items: list[Item] = []
    x = x1
    for length, label in ((MM_PER_INCH, "1 in"), (10.0, "10 mm")):
        items.append(_scale_bar(x, bar_y, length))
        items.append(_slug_line(x - length / 2, bar_y - 0.4, label, font, 4.5, True, "middle"))
        x -= length + 3
    first = f"{instruction} · {msg('sheet.scale', lang)}"
    size = _fitting(first, x - 1 - x0, SLUG_SIZES[0], font, measure)
    items.append(_slug_line(x0, top + 2.3, first, font, size, False, "start"))
    second = f"{note}   {stamp}" if stamp else note
    size = _fitting(second, x1 - x0, SLUG_SIZES[1], font, measure)
    items.append(TextOp(x0, top + 4.6, second, font, size, NOTE_INK))
    return items


@lru_cache(maxsize=64, typed=True)  # (typed: 210 and 210.0 write different text)
def _scale_bar(x: float, y: float, length: float) -> Strokes:
    """A scale bar of ``length`` mm ending at ``x`` (every sheet of a deck shares one, and its
    text is written once: ``kept_repr``)."""
    return Strokes((Straight(x - length, y, x, y), Straight(x - length, y - 1.2, x - length, y + 1.2),
                    Straight(x, y - 1.2, x, y + 1.2)), width_pt=0.4, colour=NOTE_INK)


@lru_cache(maxsize=256, typed=True)  # (typed: 4.5 and 4 write different text)
def _slug_line(x: float, y: float, text: str, font: str, size: float, note: bool, anchor: str) -> TextOp:
    """A line of the slug that every sheet of a deck prints alike (the scale bars' labels, the
    print instruction), one object for them all: its text is written once (``kept_repr``), not
    once a sheet (3,000 cards: 1,334 home pages). ``note``: in NOTE_INK, else black."""
    return TextOp(x, y, text, font, size, NOTE_INK if note else (0, 0, 0), anchor)


def _remembered(measure: Measure) -> Measure:
    """``measure``, each text, font and size measured once (one deck's sheets)."""
    widths: dict[tuple[str, str, float], float] = {}

    def measured(text: str, font: str, size: float) -> float:
        key = (text, font, size)
        width = widths.get(key)
        if width is None:
            width = widths[key] = measure(text, font, size)
        return width
    return measured


def _fitting(text: str, width: float, size: float, font: str, measure: Measure) -> float:
    """The largest size ≤ ``size`` (in 0.25 pt steps, at least SLUG_LEAST_PT) that sets ``text``
    within ``width`` mm."""
    while size > SLUG_LEAST_PT and measure(text, font, size) > width:
        size -= 0.25
    return size


def board_tiles(deck: DeckSheets, plan: TilePlan, sheet: SheetOptions, font: str, bold: str,
                measure: Measure) -> list[Page]:
    """Each board copy as numbered page tiles (fronts, then each tile's back for duplex)."""
    spec = deck.spec
    front_clip = bleed_path(spec, plan.bleed_mm) if spec.kind != "rect" else None
    back_clip = back_outline(spec, plan.bleed_mm) if spec.kind != "rect" else None
    mirror = duplex_mirror(sheet.duplex, plan.paper_mm)
    size = (spec.w, spec.h)
    copies = len(deck.fronts)
    pages: list[Page] = []
    for copy, front in enumerate(deck.fronts, 1):
        # the front tiles' stamp hashes both sides, the back tiles' the back they print (as a home
        # sheet's backs page): an edit of the board's front keeps its back tiles' bytes
        stamp = deck.stamp_of([front, *([deck.backs[copy - 1]] if deck.backs else [])])
        back_stamp = deck.stamp_of([deck.backs[copy - 1]]) if deck.backs else ""
        for tile in plan.tiles:
            rect = plan.clip(tile)
            page = Page(plan.paper_mm, side="front")
            page.items.append(PlaceFace(front, tile.to_page, size, deck.art_bleed_mm,
                                        clip=front_clip.transformed(tile.to_page) if front_clip else None,
                                        clip_rect=rect))
            if spec.die_cut:
                page.items.append(DieLine(cut_path(spec).transformed(tile.to_page), clip_rect=rect))
            marks = tile_marks(plan, tile, TILE_OPTIONS)
            page.items.append(Strokes(tuple(m.line for m in marks if m.kind != "guide")))
            page.items.append(Strokes(tuple(m.line for m in marks if m.kind == "guide"), width_pt=0.5,
                                      colour=GUIDE, dash=(2.0, 1.0)))
            page.items.extend(_glue_notes(plan, tile, font, deck.lang, measure))
            page.items.extend(_tile_band(plan, tile, deck, copy, copies, font, bold, measure))
            note = msg("sheet.tile_front", deck.lang, deck=deck.name, id=deck.id, copy=copy, copies=copies,
                       tile=tile.number, tiles=plan.pages)
            page.items.extend(slug(_duplex_words(sheet, deck.backs is not None, deck.lang), note, stamp,
                                   plan.paper_mm, sheet, font, measure, deck.lang, y=plan.band[3] - TILE_OPTIONS.slug_mm))
            pages.append(page)
            if deck.backs is not None:
                m = plan.back(tile, sheet.duplex)
                (x0, y0), (x1, y1) = mirror((rect[0], rect[1])), mirror((rect[2], rect[3]))
                page = Page(plan.paper_mm, side="back")
                page.items.append(PlaceFace(deck.backs[copy - 1], m, size, deck.art_bleed_mm,
                                            clip=back_clip.transformed(m) if back_clip else None,
                                            clip_rect=(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))))
                note = msg("sheet.tile_back", deck.lang, deck=deck.name, id=deck.id, copy=copy, copies=copies,
                           tile=tile.number, tiles=plan.pages)
                page.items.extend(slug(_duplex_words(sheet, True, deck.lang), note, back_stamp, plan.paper_mm, sheet, font, measure,
                                       deck.lang, y=plan.band[3] - TILE_OPTIONS.slug_mm))
                pages.append(page)
    return pages


def _glue_notes(plan: TilePlan, tile, font: str, lang: str, measure: Measure) -> list[Item]:
    """A note along each strip a neighbour will cover (hidden once the board is assembled), on a
    white band so it reads over the art (which the neighbour covers anyway)."""
    ops: list[Item] = []
    label = msg("tile.glue", lang)
    half = measure(label, font, 5) / 2 + 1.5  # half the band's length, mm
    inset = 0.6  # the band leaves the dashed edge of the strip visible
    for x0, y0, x1, y1 in glue_strips(plan, tile):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if (y1 - y0) > (x1 - x0):
            h = min(2 * half, y1 - y0)
            ops.append(RectOp(x0 + inset, cy - h / 2, x1 - x0 - 2 * inset, h, fill=(1, 1, 1), stroke=None))
            ops.append(TextOp(cx - 0.8, cy, label, font, 5, GUIDE, "middle", angle=90))
        else:
            w = min(2 * half, x1 - x0)
            ops.append(RectOp(cx - w / 2, y0 + inset, w, y1 - y0 - 2 * inset, fill=(1, 1, 1), stroke=None))
            ops.append(TextOp(cx, cy + 0.8, label, font, 5, GUIDE, "middle"))
    return ops


def _tile_band(plan: TilePlan, tile, deck: DeckSheets, copy: int, copies: int, font: str, bold: str,
               measure: Measure) -> list[Item]:
    """Tile number, assembly instructions and the assembly map in the page foot. A cell's number
    is set at 5 pt, or the size at which every number fits its cell; the numbers are left out where
    that would be less than SLUG_LEAST_PT (a board of 12×9 tiles has cells of about a millimetre:
    the filled cell and the title's column and row tell the page's place)."""
    bx0, by0, bx1, by1 = plan.band
    of = f" · {copy}/{copies}" if copies > 1 else ""
    lang = deck.lang
    ops: list[Item] = [
        TextOp(bx0, by0 + 5, msg("tile.title", lang, deck=deck.name, copy=of, tile=tile.number, tiles=plan.pages,
                                 col=tile.col + 1, row=tile.row + 1), bold, 9),
        TextOp(bx0, by0 + 9.5, msg("tile.howto", lang), font, 5.5, (0.3, 0.3, 0.3)),
        TextOp(bx0, by0 + 13, msg("tile.board", lang, w=f"{plan.board_mm[0]:g}", h=f"{plan.board_mm[1]:g}",
                                  turned=msg("tile.turned", lang) if plan.rot else "", cols=plan.cols, rows=plan.rows,
                                  overlap=f"{plan.overlap_mm:g}"), font, 5.5, (0.45, 0.45, 0.45)),
    ]
    cells = assembly_map(plan, tile)
    size: float = 5  # (an int, as before: the page writes it as it is)
    # one size for the whole map, the digits' height some 0.72 of it (1 pt = 0.3528 mm)
    while size >= SLUG_LEAST_PT and any(measure(str(c.number), bold, size) > c.w or size * 0.3528 * 0.72 > c.h
                                        for c in cells):
        size -= 0.25
    for cell in cells:
        ops.append(RectOp(cell.x, cell.y, cell.w, cell.h, fill=(0.2, 0.2, 0.2) if cell.current else (1, 1, 1),
                          stroke=(0.3, 0.3, 0.3), width_pt=0.4))
        if size >= SLUG_LEAST_PT:
            ops.append(TextOp(cell.x + cell.w / 2, cell.y + cell.h / 2 + size / 5, str(cell.number),
                              bold if cell.current else font, size,
                              (1, 1, 1) if cell.current else (0.3, 0.3, 0.3), "middle"))
    return ops


def face_labels(faces: Sequence[tuple[str, int]]) -> list[str]:
    """The page label of each distinct face, (name, quantity) → ``魚 ×4``; where two faces would
    read the same, each is numbered among them (``ワーカー ×12 (2/5)``), so every label is unique.
    The build's unique-faces shop files and the exports' face PDFs both use it."""
    base = [f"{name} ×{quantity}" for name, quantity in faces]
    total = Counter(base)
    seen: Counter = Counter()
    out = []
    for label in base:
        seen[label] += 1
        out.append(f"{label} ({seen[label]}/{total[label]})" if total[label] > 1 else label)
    return out


def face_label(label: str, side: str, lang: str) -> str:
    """A face's page label (from face_labels) on its front or back page, in the game's language
    ``lang`` (``魚 ×4（裏）``, ``Fish ×4 (back)``: an English word in a Japanese game's file before)."""
    return label if side == "front" else msg("face.back_page", lang, label=label)


def _shop_page(spec: ShapeSpec, bleed_mm: float, label: str | None = None) -> Page:
    tw, th = spec.w, spec.h
    pw, ph = tw + 2 * bleed_mm, th + 2 * bleed_mm
    return Page((pw, ph), trim=(bleed_mm, bleed_mm, bleed_mm + tw, bleed_mm + th), bleed=(0, 0, pw, ph),
                label=label)


def shop_pages(deck: DeckSheets, bleed_mm: float,
               pairs: list[tuple[str, str | None, int, str]] | None = None,
               digests: dict[int, bytes] | None = None) -> list[Page]:
    """One piece per page, page = trim + bleed, TrimBox = trim, front then back; artwork clipped
    to the piece's bleed outline. By default every printed copy; with ``pairs`` (front, back,
    quantity, piece name) each distinct face pair once, name and quantity as the page label.
    ``digests`` gets each distinct page's ``page_digest`` (by its id), made from one model
    page's text a side (``Alike``)."""
    spec = deck.spec
    if pairs is None:
        backs = deck.backs or (None,) * len(deck.fronts)
        pairs = [(f, b, 0, "") for f, b in zip(deck.fronts, backs)]
    dies = dict(zip(("front", "back"), _die_paths(deck, bleed_mm))) if spec.die_cut else {}
    # what every page of a side shares, made once (its text written once, the pieces' shape hashed
    # once, not a page: 3,000 cards' shop files are 9,000 distinct pages): ``shop_face_page``'s
    model = _shop_page(spec, bleed_mm)
    at, trim_mm, art_bleed = translate(bleed_mm, bleed_mm), (spec.w, spec.h), deck.art_bleed_mm
    clips = {side: _shop_clip(spec, bleed_mm, side) for side in ("front", "back")}
    die_lines = {side: DieLine(line, spot=True, layer=CUT_LAYER) for side, line in dies.items()}

    def page_of(side: str, key: str, label: str | None) -> Page:
        page = Page(model.size_mm, [PlaceFace(key, at, trim_mm, art_bleed, clip=clips[side])], model.trim, model.bleed,
                    label)
        if side in die_lines:  # the die line as a layer: shown on screen, not printed
            page.items.append(die_lines[side])
        return page

    alike = {side: Alike(partial(page_of, side)) for side in ("front", "back")}
    pages = []
    # the pages of one face printed alike are one page object: a piece's copies, each of a thousand
    # cards' pages worked out once for the documents' plan keys (engine/cache.py) and drawn once
    made: dict[tuple[str, str, str | None], Page] = {}
    labels = face_labels([(name, qty) for _, _, qty, name in pairs])
    for (front, back, qty, _name), base in zip(pairs, labels):
        for side, key in (("front", front), ("back", back)):
            if key is None:
                continue
            label = face_label(base, side, deck.lang) if qty else None
            page = made.get((key, side, label))
            if page is None:
                page = made[(key, side, label)] = page_of(side, key, label)
                if digests is not None:
                    digests[id(page)] = alike[side].digest(page, key, label)
            pages.append(page)
    return pages


def shop_face_page(spec: ShapeSpec, bleed_mm: float, key: str, side: str, art_bleed_mm: float,
                   label: str | None = None, at: Affine | None = None) -> Page:
    """One face on a shop page (trim + bleed, TrimBox = trim), its art clipped to the piece's
    bleed outline (a back's mirrored); ``at``: ``translate(bleed_mm, bleed_mm)``, when made already."""
    page = _shop_page(spec, bleed_mm, label)
    page.items.append(PlaceFace(key, at or translate(bleed_mm, bleed_mm), (spec.w, spec.h), art_bleed_mm,
                                clip=_shop_clip(spec, bleed_mm, side)))
    return page


@lru_cache(maxsize=64)
def _shop_clip(spec: ShapeSpec, bleed_mm: float, side: str) -> Outline:
    """A shop page's clip (every page of a deck's side shares one: a deck of 10,000 copies)."""
    at = translate(bleed_mm, bleed_mm)
    return (bleed_path(spec, bleed_mm) if side == "front" else back_outline(spec, bleed_mm)).transformed(at)


CUT_LAYER = "CutContour"  # the optional content group of the die line in the shop files


def _die_paths(deck: DeckSheets, bleed_mm: float) -> list:
    """The cut path on a shop page: the front's, and mirrored for the back of a two-sided deck."""
    spec = deck.spec
    at = translate(bleed_mm, bleed_mm)
    paths = [cut_path(spec).transformed(at)]
    if deck.backs is not None:
        paths.append(cut_path(spec).transformed(Affine(-1, 0, 0, 1, spec.w, 0)).transformed(at))
    return paths


def cut_line_label(side: str, lang: str, sheet: int | None = None) -> str:
    """A die-line page's label in the game's language: ``cut line (front)``, ``カットライン（裏）``,
    on a counter sheet ``cut line, sheet 2 (back)`` (a trial of polish47a: English in a Japanese game)."""
    said = msg(f"sheet.{side}", lang)
    return msg("shop.cut_line.page", lang, side=said) if sheet is None else \
        msg("shop.cut_line.sheet", lang, sheet=sheet, side=said)


def shop_die_pages(deck: DeckSheets, bleed_mm: float) -> list[Page]:
    """The die line alone, spot colour CutContour, on pages sized and boxed like the shop pages:
    page 1 for every front, page 2 (two-sided decks) for every back, each labelled in the game's
    language (``カットライン（表）``)."""
    spec = deck.spec
    pages = []
    for path, side in zip(_die_paths(deck, bleed_mm), ("front", "back")):
        page = _shop_page(spec, bleed_mm, cut_line_label(side, deck.lang))
        page.items.append(DieLine(path, spot=True))
        pages.append(page)
    return pages
