"""The booklet's slug: on each A4 sheet side, fold marks at the fold's ends and one line telling
how to print and fold it (両面・短辺とじ, or for a build without duplex the two passes: odd pages, the
stack turned on its short edge, even pages; both where it is not known how it is printed, ``pnpgen
rulebook`` alone; which sheet and side, nest the sheets and fold them in half).

The marks are drawn by ReportLab on a page of the sheet's size and laid over the sheet as it is
imposed (``impose.booklet.impose_pdf``); they sit in the top and bottom margins of the pages,
never on the text, and inside the area a home printer prints (PRINTING.md: it leaves about 5 mm at
each edge unprinted; marks from the edge in, as they were, never printed).
"""

from __future__ import annotations

import io
from functools import lru_cache

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnpgen import fonts as fontreg
from pnpgen.impose.booklet import A4_LANDSCAPE, Placement, SheetSide
from pnpgen.impose.grid import SheetOptions
from pnpgen.messages import msg
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.styles import LATIN_GAP, RULE

# The room a home printer leaves unprinted at each edge: the home sheets' default margin (--margin);
# a build given another margin sets the marks and the note from that one (``overlays``' ``margin_mm``).
PRINTER_MARGIN_MM = SheetOptions.margin_mm
# The tick at each end of the fold line: from 0.5 mm inside that margin to 8.5 mm from the edge,
# short of the A5 pages' nearest ink by the fold (the running head's frame 8.8 mm from the top, the
# cover's frame 8.6 mm from the bottom); inside a margin wider than 5 mm, 3 mm long all the same
# (the pages print nothing on the fold itself).
FOLD_MARK_END_MM = 8.5
FOLD_MARK_LEAST_MM = 3.0
FOLD_GAP = 3 * mm  # least room between the printing note's end and the fold line
NOTE_SIZE = 6.0  # pt: the printing note, its baseline 0.6 mm above the printer's margin (5.6 mm
# above the sheet's bottom edge at the default 5 mm): its descenders (p, g: 0.5 mm at 6 pt) clear
# the margin a home printer leaves unprinted (the home sheets' margin, impose/grid.py
# SheetOptions.margin_mm, --margin), its capitals (1.7 mm) stay below the A5 pages' lowest ink at
# the default margin (the cover's frame, 8.6 mm up; the body's bottom margin is 17 mm). At 4 mm
# most of each letter fell in that margin, cut off by the printer. The note is centred under the
# left-hand page (it sat across the fold, on the fold mark): moved left as far as it needs to end
# FOLD_GAP short of the fold, never into the margin.
NOTE_ABOVE_MARGIN_MM = 0.6


def fold_mark(margin_mm: float) -> tuple[float, float]:
    """How far from the sheet's edge (pt) the fold's tick starts and ends, inside ``margin_mm``."""
    return margin_mm * mm + 0.5 * mm, max(FOLD_MARK_END_MM, margin_mm + 0.5 + FOLD_MARK_LEAST_MM) * mm


# The same side of the same booklet gets the same marks: a warm rulebook process (``pnpgen
# watch``) draws each once (bounded).
@lru_cache(maxsize=256)
def _overlay(side: SheetSide, sheets: int, font: str, fallbacks: tuple[str, ...], lang: str, binding: str,
             sheet_mm: tuple[float, float], paper: str, margin_mm: float, two_pass: bool | None = False) -> bytes:
    """``fallbacks``: the font's fallback chain (``glyphs.chain``), which draws what it lacks."""
    w, h = (v * mm for v in sheet_mm)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, pageCompression=0, initialFontName=font, initialFontSize=NOTE_SIZE)
    c.setStrokeColor(RULE)
    c.setLineWidth(0.3)
    c.setDash(1.5, 1.5)
    near, far = fold_mark(margin_mm)
    for y0, y1 in ((h - near, h - far), (near, far)):
        c.line(w / 2, y0, w / 2, y1)
    c.setFillColor(RULE)
    key = "rulebook.print_note_either" if two_pass is None else "rulebook.print_note_two_pass" if two_pass else "rulebook.print_note"
    note = msg(key, lang, sheet=side.sheet, sheets=sheets,
               side=msg(f"rulebook.print_{side.side}", lang), binding=msg(f"rulebook.print_binding_{binding}", lang),
               paper=paper)
    x, size = note_place(note, font, w, margin_mm)
    glyphs.draw(c, x, (margin_mm + NOTE_ABOVE_MARGIN_MM) * mm, note, font, size, "left")
    c.showPage()
    c.save()
    return buf.getvalue()


def note_place(note: str, font: str, w: float, margin_mm: float = PRINTER_MARGIN_MM) -> tuple[float, float]:
    """Where the printing note starts (pt) on a sheet ``w`` wide, and its size: centred under the
    left-hand page, moved left as far as it needs to end FOLD_GAP short of the fold, never into the
    printer's margin (``margin_mm``); a note longer than that room (English on Letter, right-bound: 136 mm of the
    131.7 there is) is set smaller to fit."""
    margin = margin_mm * mm
    room = w / 2 - FOLD_GAP - margin
    width = glyphs.width(note, font, NOTE_SIZE, LATIN_GAP)
    size = min(NOTE_SIZE, NOTE_SIZE * room / width)
    width *= size / NOTE_SIZE
    return max(margin, min(w / 4 - width / 2, w / 2 - FOLD_GAP - width)), size


def overlays(sides: list[tuple[SheetSide, list[Placement]]], font: str, lang: str, binding: str,
             sheet_mm: tuple[float, float] = A4_LANDSCAPE, paper: str = "A4",
             margin_mm: float = PRINTER_MARGIN_MM, two_pass: bool | None = False) -> list[bytes]:
    """The fold marks and printing note of every sheet side (in print order), each a one-page PDF
    that ``impose.booklet.impose_pdf`` lays over its side, inside the printer's ``margin_mm`` (the
    home sheets' ``--margin``); ``two_pass``: a build printed without duplex, whose note tells the two passes;
    None: not known how it is printed (``pnpgen rulebook`` alone), the note tells duplex and the two passes."""
    sheets = max((s.sheet for s, _ in sides), default=0)
    return [_overlay(side, sheets, font, glyphs.chain(font), lang, binding, sheet_mm, paper, margin_mm, two_pass)
            for side, _ in sides]


# a font file saved over while the book's process runs: set with its new widths (fonts.saved_since)
fontreg.when_saved(_overlay.cache_clear)
