"""The rule sheet (``rule-sheet.pdf``): the draft's rules on one sheet of paper, for the table at a
playtest, beside the A5 book. game.yaml's ``rulebook: sheet:`` asks for it (figures.py ``SheetSpec``),
``pnpgen rulebook --rule-sheet`` too.

The rules are the book's: the same story (rulebook/story.py ``sheet_story``), set in columns of
the sheet's paper (A4 or Letter landscape, two columns, by default) on the book's line grid, each
column a ``GridFrame``; the first side opens with the title and a line of the players, the playing
time, the draft and its date; no cover, contents, index, appendix or colophon. What the first side
does not hold goes on the back; what the back does not hold is set on further sides all the same
(nothing is cut off) and warned, with how much is over.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageTemplate

from pnpgen.data.formats import paper_title
from pnpgen.impose import booklet as booklets
from pnpgen.messages import msg
from pnpgen.pdf import settings
from pnpgen.pdf.booklet import impose_pdf, outline_carried
from pnpgen.pdf.subsettags import tags_apart
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.document import GridFrame, Meta, RulebookDoc
from pnpgen.rulebook.figures import SHEET_TEXT_LEAST, SheetSpec
from pnpgen.rulebook.styles import ACCENT, BODY_LEADING, LATIN_GAP, MIN_SIZE, NOTE_INK, RULE, Fonts

FILE = "rule-sheet.pdf"
SIDES = 2  # a sheet of paper: the front, then the back
TITLE_SIZE, TITLE_LEAST = 16.0, 10.0  # the title at the head of the first side (smaller when it is long)
INFO_SIZE = 8.5  # its line of players, time, draft and date
HEAD_H = 17 * mm  # the first side's head, from the top margin to its columns
BAND_H = 7 * mm  # a later side's head (the title and the side's number), to its columns


@dataclass
class SheetPage:
    """The rule sheet's page in points: its size, margin, columns and the gap between them."""

    width: float
    height: float
    margin: float
    columns: int
    gap: float

    @classmethod
    def of(cls, spec: SheetSpec, paper: str) -> SheetPage:
        """The page as it is set: the paper's (or its half), larger by what a smaller ``text:`` scales it down by."""
        w, h = spec.page_mm(paper)
        s = mm / spec.scale
        return cls(w * s, h * s, spec.margin_mm * s, spec.columns, spec.gap_mm * s)

    @property
    def column(self) -> float:
        return (self.width - 2 * self.margin - (self.columns - 1) * self.gap) / self.columns

    def frames(self, head: float, page: str) -> list[GridFrame]:
        """The columns below a head ``head`` points tall, left to right, on the book's line grid."""
        top = self.height - self.margin - head
        return [GridFrame(self.margin + i * (self.column + self.gap), self.margin, self.column, top - self.margin,
                          id=f"{page}{i + 1}", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0,
                          pitch=BODY_LEADING) for i in range(self.columns)]


class SheetDoc(RulebookDoc):
    """The rule sheet's document: the book's (its headings' bookmarks and outline, its contents'
    entries for the quick reference's page numbers), on the sheet's page, its columns filled left
    to right and side after side. Records how full each side's columns are (``fill``)."""

    def __init__(self, buf, meta: Meta, fonts: Fonts, page: SheetPage, time: str):
        self.page_plan, self.time = page, time
        self.fill: list[float] = []  # per side, the columns it holds: full ones and the last's part
        super().__init__(buf, meta, fonts, sketch_first=False, pagesize=(page.width, page.height),
                         leftMargin=page.margin, rightMargin=page.margin, topMargin=page.margin,
                         bottomMargin=page.margin, subject="rule sheet")

    def page_templates(self) -> list[PageTemplate]:
        p = self.page_plan
        return [PageTemplate("first", p.frames(HEAD_H, "first"), onPage=self.first_side, onPageEnd=self.side_end,
                             autoNextPageTemplate="later"),
                PageTemplate("later", p.frames(BAND_H, "later"), onPage=self.later_side, onPageEnd=self.side_end)]

    def handle_documentBegin(self):
        self.fill = []
        super().handle_documentBegin()

    def first_side(self, canv, doc) -> None:
        """The first side's head: the title, then the players, time, draft and date, over a rule."""
        self._page_start(canv, doc)
        m, f, p = self.meta, self.fonts, self.page_plan
        room = p.width - 2 * p.margin
        size = TITLE_SIZE
        while size > TITLE_LEAST and glyphs.width(m.one_line_title, f.bold, size, LATIN_GAP) > room:
            size -= 0.5
        top = p.height - p.margin
        canv.saveState()
        canv.setFillColor(ACCENT)
        glyphs.draw(canv, p.margin, top - 0.88 * TITLE_SIZE, m.one_line_title, f.bold, size)
        canv.setFillColor(NOTE_INK)
        glyphs.draw(canv, p.margin, top - 0.88 * TITLE_SIZE - 6.5 * mm, self.head_line(), f.gothic, INFO_SIZE)
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.6)
        y = top - 0.88 * TITLE_SIZE - 9 * mm
        canv.line(p.margin, y, p.width - p.margin, y)
        canv.restoreState()

    def head_line(self) -> str:
        m = self.meta
        sep = " · " if m.latin else "　"
        players = msg("rulebook.players", m.lang, players=m.players) if m.players else ""
        time = msg("rulebook.sheet_time", m.lang, time=self.time) if self.time else ""
        return sep.join(part for part in (players, time, m.draft_label, m.date) if part)

    def later_side(self, canv, doc) -> None:
        """A later side's head: the title and the side's number, over a rule."""
        self._page_start(canv, doc)
        m, f, p = self.meta, self.fonts, self.page_plan
        top = p.height - p.margin
        canv.saveState()
        canv.setFillColor(NOTE_INK)
        glyphs.draw(canv, p.margin, top - 0.88 * MIN_SIZE, m.one_line_title, f.gothic, MIN_SIZE)
        glyphs.draw(canv, p.width - p.margin, top - 0.88 * MIN_SIZE, str(doc.page), f.gothic, MIN_SIZE, "right")
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.4)
        y = top - 0.88 * MIN_SIZE - 2 * mm
        canv.line(p.margin, y, p.width - p.margin, y)
        canv.restoreState()

    def side_end(self, canv, doc) -> None:
        """A thin rule down each gap between two columns this side filled, and how full they are."""
        p = self.page_plan
        frames = self.pageTemplate.frames
        last = frames.index(self.frame) if self.frame in frames else len(frames) - 1
        top = p.height - p.margin - (HEAD_H if doc.page == 1 else BAND_H)
        self.fill.append(last + min(1.0, max(0.0, (top - self.frame.y_now()) / (top - p.margin))))
        canv.saveState()
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.4)
        for i in range(last):
            x = p.margin + (i + 1) * p.column + i * p.gap + p.gap / 2
            canv.line(x, p.margin, x, top)
        canv.restoreState()


def column_measures(spec: SheetSpec, paper: str) -> tuple[float, float]:
    """A column's width and the first side's column height (pt): what the story is set to."""
    page = SheetPage.of(spec, paper)
    return page.column, page.height - 2 * page.margin - HEAD_H


@dataclass
class SheetResult:
    """The rule sheet as set: its PDF, its sides, the report line and the warning when it is more than one sheet."""

    data: bytes
    sides: int
    report: str
    warnings: list[str] = field(default_factory=list)


def set_sheet(story_for: Callable[[float, float], list[Flowable]], meta: Meta, fonts: Fonts, spec: SheetSpec,
              paper: str, draft: Path, two_pass: bool | None = False) -> SheetResult:
    """The rule sheet of the draft ``draft`` on ``paper`` (the booklet's, when ``spec`` names none):
    ``story_for`` sets the rules' story (``StoryBuilder.sheet_story``) for a column's width and height (pt).
    ``two_pass``: as the booklet's note (rulebook/slug.py) — a build without duplex (a sleeve or
    fold-over build, ``--duplex none``) prints both sides in two passes, ``pnpgen rulebook`` alone
    (None) is told both ways."""
    page = SheetPage.of(spec, paper)
    story = story_for(*column_measures(spec, paper))
    buf = io.BytesIO()
    with settings.dated_as_pnpgen_dates():
        doc = SheetDoc(buf, meta, fonts, page, spec.time)
        doc.multiBuild(story)
    if spec.fold:
        return _folded(buf.getvalue(), doc, spec, paper, draft, two_pass)
    sides = doc.page
    data = buf.getvalue() if spec.scale == 1 else _scaled(buf.getvalue(), sides, spec, paper)
    name = f"{paper_title(spec.paper or paper)} {'landscape' if spec.landscape else 'portrait'}, " \
        f"{spec.columns} column{'s' if spec.columns > 1 else ''}{_text(spec)}"
    edge = "short" if spec.landscape else "long"
    passes = f"side 1, the sheet turned over on the {edge} edge, side 2"
    both = (f"in two passes: {passes}" if two_pass else f"print both sides, flip on the {edge} edge"
            + (f"; no duplex: {passes}" if two_pass is None else ""))
    how = "one side" if sides == 1 else f"2 sides ({both})" if sides == SIDES else f"{sides} sides"
    report = f"rule sheet: {FILE}, {name}, {how}"
    warnings = []
    if sides > SIDES:
        over = sum(doc.fill[SIDES:])
        lines = round(over * (page.height - 2 * page.margin - BAND_H) / BODY_LEADING)  # (a later side's columns)
        warnings.append(f"{draft}: the rule sheet ({FILE}, {name}) takes {sides} sides, more than the two of one sheet: "
                        f"{over:.1f} columns of text past the back, some {lines:,} lines of the body; all of it is "
                        "printed, nothing cut off (shorten the draft, give the sheet more columns, a larger paper, a "
                        f"smaller margin{_smaller(spec)} in game.yaml's rulebook: sheet:, or hand out the booklet, "
                        "rulebook-booklet.pdf)")
    return SheetResult(tags_apart(data), sides, report, warnings)


def _scaled(pages_pdf: bytes, sides: int, spec: SheetSpec, paper: str) -> bytes:
    """The sides set larger for a smaller ``text:`` (``SheetPage.of``), each placed on its paper at ``spec.scale``."""
    placed = [(booklets.SheetSide(n, "front", n, None), [booklets.Placement(n, 0.0, 0.0, "left", 0.0, spec.scale)])
              for n in range(1, sides + 1)]
    return _with_outline(pages_pdf, impose_pdf(tags_apart(pages_pdf), placed, sheet_mm=spec.sheet_mm(paper)), placed)


def _with_outline(pages_pdf: bytes, imposed: bytes, placed: list) -> bytes:
    """``imposed`` with the set pages' bookmarks, each to the side its page is placed on."""
    side_of = {pl.page - 1: k for k, (_side, on) in enumerate(placed) for pl in on if pl.page is not None}
    return outline_carried(pages_pdf, imposed, [side_of[n] for n in range(len(side_of))])


def _smaller(spec: SheetSpec) -> str:
    """What else of the sheet's settings makes it shorter: a smaller text, the pictures left out (those not set yet)."""
    said = [f"text: {SHEET_TEXT_LEAST:g}pt (the book's 9 pt text and its spacing smaller)"] \
        if spec.text_pt > SHEET_TEXT_LEAST else []
    said += ["pictures: false (the rules' text alone)"] if spec.pictures else []
    return "".join(f", {part}" for part in said[:-1]) + (f" or {said[-1]}" if said else "")


def _text(spec: SheetSpec) -> str:
    """The report's word of a smaller text: ``, 8.5 pt text``; nothing for the book's."""
    return f", {spec.text_pt:g} pt text" if spec.scale != 1 else ""


FOLDED_PAGES = 4  # a sheet folded in half: the front page, the two inside, the back


def _folded(pages_pdf: bytes, doc: SheetDoc, spec: SheetSpec, paper: str, draft: Path,
            two_pass: bool | None) -> SheetResult:
    """The rule sheet folded in half (``fold: true``): its pages, each half the sheet, imposed as a
    saddle-stitched booklet's are (impose/booklet.py), so that one sheet printed on both sides and
    folded reads page 1 (the front, outside right), 2 and 3 (inside), 4 (the back); a draft longer
    than four pages nests more sheets, all printed, and is warned."""
    pages = doc.page
    sheet_mm = spec.sheet_mm(paper)
    page_mm = tuple(v / spec.scale for v in spec.page_mm(paper))  # (set larger for a smaller text: placed at its scale)
    placed = booklets.layout(pages, page_mm=(page_mm[0], page_mm[1]), sheet_mm=sheet_mm)
    data = tags_apart(_with_outline(pages_pdf, impose_pdf(tags_apart(pages_pdf), placed, sheet_mm=sheet_mm), placed))
    sheets = len(placed) // 2
    name = f"{paper_title(spec.paper or paper)} landscape folded in half, " \
        f"{spec.columns} column{'s' if spec.columns > 1 else ''} a page{_text(spec)}"
    passes = "side 1, the sheet turned over on the short edge, side 2"
    both = (f"in two passes: {passes}" if two_pass else "print both sides, flip on the short edge"
            + (f"; no duplex: {passes}" if two_pass is None else ""))
    fold = "fold in half, page 1 outside" if sheets == 1 else "fold the sheets in half together, sheet 1 outside"
    report = f"rule sheet: {FILE}, {name}, {pages} page{'s' if pages > 1 else ''} on {2 * sheets} sides ({both}; {fold})"
    warnings = []
    if pages > FOLDED_PAGES:
        over = sum(doc.fill[FOLDED_PAGES:])
        page = SheetPage.of(spec, paper)
        lines = round(over * (page.height - 2 * page.margin - BAND_H) / BODY_LEADING)
        warnings.append(f"{draft}: the rule sheet ({FILE}, {name}) takes {pages} pages, more than the four of one "
                        f"sheet folded in half: {over:.1f} columns of text past page 4, some {lines:,} lines of the "
                        f"body; all of it is printed, on {sheets} sheets folded together (shorten the draft, give the "
                        f"sheet a larger paper, a smaller margin{_smaller(spec)} in game.yaml's rulebook: sheet:, or "
                        "hand out the booklet, rulebook-booklet.pdf)")
    return SheetResult(data, 2 * sheets, report, warnings)
