"""The A5 document: page templates (cover, front matter, body, colophon), running header and
page numbers, and ``render`` that builds the story into PDF bytes.

Everything is drawn with the vendored TrueType fonts (no built-in PDF font is ever referenced)
and with ``invariant=1``, so equal input gives equal bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from reportlab.lib.units import mm
from reportlab.platypus import BaseDocTemplate, Frame, KeepTogether, PageTemplate
from reportlab.platypus.doctemplate import LayoutError

from pnpgen.messages import msg
from pnpgen.pdf import settings
from pnpgen.pdf.svglib_fallback import give_font
from pnpgen.rulebook import glyphs, inline
from pnpgen.rulebook.drawnparas import Drawing, DrawnParagraphs
from pnpgen.rulebook.flowables import Heading, index_terms, sketching
from pnpgen.rulebook.inline import Icon
from pnpgen.rulebook.keeps import HeadingKeep
from pnpgen.rulebook.pictures import DeckPicture
from pnpgen.rulebook.piecepics import form_name, place_face
from pnpgen.rulebook.styles import (
    ACCENT,
    BODY_LEADING,
    INK,
    LATIN_GAP,
    MARGIN_BOTTOM,
    MARGIN_INNER,
    MARGIN_OUTER,
    MARGIN_TOP,
    MIN_SIZE,
    NOTE_INK,
    PAGE_H,
    PAGE_W,
    RULE,
    Fonts,
)
from pnpgen.rulebook.termindex import page_destination
from pnpgen.safetext import shown
from pnpgen.units import PT_PER_MM as PT  # points per millimetre


@dataclass
class Meta:
    """What the page decorations and the colophon need. ``players`` is empty when the data
    leaves it open (the cover then leaves the line out)."""

    title: str
    title_parts: list[str]
    subtitle: str
    draft_label: str
    players: str
    date: str
    colophon: list[str]
    binding: str = "left"
    cover: list[tuple[str, DeckPicture]] = field(default_factory=list)  # faces shown on the cover
    lang: str = "ja"  # the build's language: pnpgen's own cover labels (pnpgen.messages)
    latin: bool = False  # the book is set in Latin faces (no full-width space between title and draft)
    icons: Mapping[str, Icon] = field(default_factory=dict)  # the draft's icons, drawn in headings and the contents
    playtest: bool = True  # the cover says 「プレイテスト用」: not on a book to hand out, sell or print (--rules-only)
    cover_label: str = ""  # the cover's top line, game.yaml's rulebook: cover (シナリオブック); else pnpgen's ルールブック

    @property
    def one_line_title(self) -> str:
        """The title on one line (running header, colophon): a Latin face has no full-width space."""
        return self.title.replace("　", " · ") if self.latin else self.title


class GridFrame(Frame):
    """A frame with a line grid (行送り): a flowable marked ``on_grid`` starts on one of its
    lines, ``pitch`` points apart from the frame's top (its space before rounded up to the next
    line), so the body's lines share one grid on every page and across facing pages."""

    def __init__(self, *args, pitch: float, **kw):
        super().__init__(*args, **kw)
        self.pitch = pitch

    def _space_before(self, flowable) -> float:
        """The space ReportLab's ``Frame._add`` leaves above ``flowable`` here."""
        if self._atTop:
            return 0.0
        s = flowable.getSpaceBefore()
        if self._oASpace:
            if getattr(flowable, "_SPACETRANSFER", False) or getattr(flowable, "_ZEROSIZE", False):
                s = self._prevASpace
            s = max(s - self._prevASpace, 0)
        return s

    def _grid_top(self, flowable) -> float | None:
        """Where ``flowable``'s top would stand, on the next grid line below its space before; None
        for one off the grid or at the frame's top (where it stands as it is)."""
        first = flowable
        while isinstance(first, KeepTogether) and first._content:  # a heading kept with its text
            first = first._content[0]
        if not getattr(first, "on_grid", False) or self._atTop:
            return None
        s = self._space_before(flowable)
        top: float = self._y2 - self._topPadding
        y = float(self.__dict__["_y"])  # (ReportLab sets it untyped)
        lines = math.ceil((top - (y - s)) / self.pitch - 1e-6)
        return top - lines * self.pitch

    def _snap(self, flowable) -> None:
        grid_top = self._grid_top(flowable)
        if grid_top is not None:
            self._y = grid_top + self._space_before(flowable)

    def drop(self, flowable) -> float:
        """How far below the frame's place ``flowable``'s top stands once placed (a floating
        figure's run measures the text filling its page by it: rulebook/keeps.py)."""
        grid_top = self._grid_top(flowable)
        return self._space_before(flowable) if grid_top is None else float(self.__dict__["_y"]) - grid_top

    def _add(self, flowable, canv, trySplit=0):
        # on the page's first line: less than a line of the frame used above it (a zero-height
        # mark, a spacer): what the running head reads, by where the flowable stands, not by
        # what was placed before it
        flowable.__dict__["first_line"] = self._y2 - self._topPadding - float(self.__dict__["_y"]) < self.pitch
        self._snap(flowable)
        return super()._add(flowable, canv, trySplit)

    add = _add  # as Frame has it (the document calls ``add``)

    def y_now(self) -> float:
        """Where the next flowable would go, points from the page's foot (a rule sheet measures how
        full its columns are by it: rulebook/sheet.py)."""
        return float(self.__dict__["_y"])  # (ReportLab sets it untyped)

    def split(self, flowable, canv):
        self._snap(flowable)
        if getattr(flowable, "fills_page", False):  # a floating figure's run measures its text on the grid
            flowable.__dict__["drop"] = self.drop
        return super().split(flowable, canv)


class RulebookDoc(BaseDocTemplate):
    def __init__(self, buf, meta: Meta, fonts: Fonts, sketch_first: bool = True,
                 drawn: DrawnParagraphs | None = None, **kw):
        # the A5 page; another page (rulebook/sheet.py's rule sheet) gives its own size, margins and subject
        kw = {"pagesize": (PAGE_W, PAGE_H), "leftMargin": MARGIN_INNER, "rightMargin": MARGIN_OUTER,
              "topMargin": MARGIN_TOP, "bottomMargin": MARGIN_BOTTOM, "subject": "rulebook"} | kw
        super().__init__(
            buf, invariant=1, initialFontName=fonts.body, title=meta.title, author="",
            creator="pnpgen", lang="ja-JP" if meta.lang == "ja" else meta.lang,
            keepTogetherClass=HeadingKeep,  # a heading and its text kept together as the line grid places them
            **kw,
        )
        settings.flate_only()  # how ReportLab writes the book's streams
        self.meta, self.fonts = meta, fonts
        self.sketch_first = sketch_first
        self.drawn = drawn  # a warm process's paragraphs as its last setting drew them (drawnparas.py)
        self.addPageTemplates(self.page_templates())

    def page_templates(self) -> list[PageTemplate]:
        """The book's pages: the cover, the front matter, the body on its line grid, the colophon."""
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        # the body pages' line grid: the body's 行送り from the top margin (JLREQ 4.2.2 版面)
        grid = GridFrame(self.leftMargin, self.bottomMargin, self.width, self.height, id="grid",
                         leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, pitch=BODY_LEADING)
        return [
            PageTemplate("cover", [frame], onPage=self._cover),
            PageTemplate("front", [frame], onPageEnd=self._footer),
            PageTemplate("body", [grid], onPage=self._page_start, onPageEnd=self._decorate),
            PageTemplate("colophon", [frame], onPage=self._colophon),
        ]

    def handle_flowable(self, flowables):
        """Place the next flowable; one that no page holds carries the draft line it was set
        from (``draft_line``) on the LayoutError, for the designer's message."""
        f = flowables[0] if flowables else None
        try:
            super().handle_flowable(flowables)
        except LayoutError as e:
            e.draft_line = getattr(e, "draft_line", None) or getattr(f, "draft_line", None)  # type: ignore[attr-defined]
            raise

    # running head (柱): the section in force at the page's first line — a page whose first line
    # is a section's heading shows that section, else the section the page goes on with (the
    # first section of the book on a page before any is in force)
    def handle_documentBegin(self):
        # multiBuild sets the story once to learn the pages of headings and terms, then again
        # with them; the first pass is a sketch: where each flowable falls, its text and
        # pictures not drawn (a pass saved is never a sketch: see _allSatisfied)
        self.passes = getattr(self, "passes", 0) + 1
        self.notified: list[tuple[str, tuple]] = []  # this pass's entries (``render``)
        self.canv.sketch = self.passes == 1 and self.sketch_first  # type: ignore[attr-defined]
        self.canv.drawing = Drawing(self.drawn, self.canv) if self.drawn is not None else None  # type: ignore[attr-defined]
        give_font(self.canv, self.fonts.body)  # (the font it was made with) for faces svglib draws
        self._running = ""
        self._page_mark: str | None = None
        super().handle_documentBegin()

    def _allSatisfied(self):
        """The contents and index are settled, and the pass was drawn in full (ReportLab saves
        the pass after which this is true)."""
        return not sketching(self.canv) and super()._allSatisfied()

    def notify(self, kind, stuff):
        self.notified.append((kind, stuff))
        super().notify(kind, stuff)

    def _page_start(self, canv, doc):
        self._page_mark = self._running
        canv.bookmarkPage(page_destination(doc.page))  # where the index's page numbers link to

    def afterFlowable(self, f):
        for term in index_terms(f):
            self.notify("IndexTerm", (term, self.page))
        if isinstance(f, Heading):
            if f.mark and (getattr(f, "first_line", False) or not self._page_mark):
                self._page_mark = f.mark
            c = self.canv
            c.bookmarkPage(f.key)
            icons = self.meta.icons
            # (a heading's control characters as escapes: U+202E turned the bookmark round in a reader's list)
            c.addOutlineEntry(shown(inline.spelt(f.toc_text, icons)), f.key, level=f.level, closed=f.level > 0)
            self.notify("TOCEntry", (f.level, f.toc_text, self.page, f.key))  # (set by contents.ContentsEntry)
            if f.mark:
                self._running = f.mark

    def _footer(self, canv, doc):
        canv.saveState()
        canv.setFillColor(INK)
        glyphs.draw(canv, PAGE_W / 2, 9 * mm, str(doc.page), self.fonts.gothic, 8, "centre")
        canv.restoreState()

    def _decorate(self, canv, doc):
        if sketching(canv):
            return
        drawing = getattr(canv, "drawing", None)  # a warm process's running heads as its last setting drew them
        if drawing is None or (self.meta.icons and "{" in (self._page_mark or "")):
            self._running_head(canv, doc)
            return
        m = self.meta
        drawing.draw(("running head", doc.page, self._page_mark, m.one_line_title, m.draft_label, m.binding, m.latin,
                      self.fonts.gothic), lambda: self._running_head(canv, doc))

    def _running_head(self, canv, doc):
        """The running head (柱) and the page number."""
        canv.saveState()
        y = PAGE_H - 12 * mm
        canv.setFillColor(NOTE_INK)
        gap = "\u2002" if self.meta.latin else "　"
        label = f"{gap}{self.meta.draft_label}" if self.meta.draft_label else ""
        # the book's title cut with … where it would leave the section less than half the line
        # (hostile46: a title of 200 characters ran past the rule and the page's outer margin)
        measure = PAGE_W - MARGIN_INNER - MARGIN_OUTER
        section = min(inline.width(self._page_mark, self.fonts.gothic, MIN_SIZE, self.meta.icons, LATIN_GAP,
                                   not self.meta.latin), measure / 2) + 2 * MIN_SIZE if self._page_mark else 0.0
        title = inline.fitted(self.meta.one_line_title, self.fonts.gothic, MIN_SIZE, {},
                              measure - section - glyphs.width(label, self.fonts.gothic, MIN_SIZE, LATIN_GAP))
        head = f"{title}{label}".strip()
        # mirrored on facing pages: the section at the outer edge, the title at the inner one (a
        # left-bound book's odd pages are right-hand pages; a right-bound one's are left-hand)
        right_hand = (doc.page % 2 == 1) == (self.meta.binding != "right")
        inner, outer = (MARGIN_INNER, PAGE_W - MARGIN_OUTER) if right_hand else (PAGE_W - MARGIN_INNER, MARGIN_OUTER)
        glyphs.draw(canv, inner, y, head, self.fonts.gothic, MIN_SIZE, "left" if right_hand else "right")
        if self._page_mark:  # (cut with … where it would reach the title: two ems kept between them)
            room = PAGE_W - MARGIN_INNER - MARGIN_OUTER - glyphs.width(head, self.fonts.gothic, MIN_SIZE, LATIN_GAP) \
                - 2 * MIN_SIZE
            mark = inline.fitted(self._page_mark, self.fonts.gothic, MIN_SIZE, self.meta.icons, room,
                                 em_space=not self.meta.latin)
            inline.draw_line(canv, outer, y, mark, self.fonts.gothic, MIN_SIZE, self.meta.icons,
                             "right" if right_hand else "left", em_space=not self.meta.latin)
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.4)
        canv.line(MARGIN_INNER, y - 1.8 * mm, PAGE_W - MARGIN_OUTER, y - 1.8 * mm)
        canv.restoreState()
        self._footer(canv, doc)

    def _cover(self, canv, doc):
        if sketching(canv):
            return
        m, f = self.meta, self.fonts
        width = PAGE_W - 34 * mm

        def fitted(text: str, font: str, size: float) -> float:
            while size > 8 and glyphs.width(text, font, size, LATIN_GAP) > width:
                size -= 0.5
            return size

        canv.saveState()
        canv.setStrokeColor(ACCENT)
        canv.setLineWidth(1.2)
        canv.rect(9 * mm, 9 * mm, PAGE_W - 18 * mm, PAGE_H - 18 * mm)
        canv.setLineWidth(0.4)
        canv.rect(11 * mm, 11 * mm, PAGE_W - 22 * mm, PAGE_H - 22 * mm)
        cx = PAGE_W / 2
        canv.setFillColor(ACCENT)
        glyphs.draw(canv, cx, PAGE_H - 28 * mm, m.cover_label or msg("rulebook.cover", m.lang), f.gothic, 9, "centre")
        canv.line(cx - 18 * mm, PAGE_H - 31 * mm, cx + 18 * mm, PAGE_H - 31 * mm)
        y = PAGE_H - 50 * mm
        canv.setFillColor(INK)
        for i, part in enumerate(m.title_parts or [m.title]):
            size = fitted(part, f.bold, 26 if i == 0 else 16)
            glyphs.draw(canv, cx, y, part, f.bold, size, "centre")
            y -= size * 1.55
        if m.subtitle:
            size = fitted(m.subtitle, f.gothic, 11)
            glyphs.draw(canv, cx, y, m.subtitle, f.gothic, size, "centre")
            y -= size * 1.8
        if m.draft_label:
            canv.setFillColor(ACCENT)
            glyphs.draw(canv, cx, y - 2 * mm, m.draft_label, f.gothic, 12, "centre")
            y -= 12 + 2 * mm
        self._cover_picture(canv, top=y - 8 * mm, bottom=46 * mm)
        canv.setFillColor(INK)
        if m.players:
            players = msg("rulebook.players", m.lang, players=m.players)
            glyphs.draw(canv, cx, 34 * mm, players, f.gothic, fitted(players, f.gothic, 10), "centre")
        canv.setFillColor(NOTE_INK)
        glyphs.draw(canv, cx, 24 * mm, m.date, f.gothic, 8.5, "centre")
        if m.playtest:
            glyphs.draw(canv, cx, 18 * mm, msg("rulebook.playtest", m.lang), f.gothic, MIN_SIZE, "centre")
        canv.restoreState()

    def _cover_picture(self, canv, top: float, bottom: float) -> None:
        """The game's own pieces fanned in a row between the title and the players line."""
        faces = self.meta.cover
        if not faces or top - bottom < 20 * mm:
            return
        height = min(top - bottom, 62 * mm)
        gap = 4 * mm
        room = PAGE_W - 34 * mm
        sizes = [(p.trim_mm[0] * PT, p.trim_mm[1] * PT) for _, p in faces]
        scale = min(1.0, height / max(h for _, h in sizes),  # never larger than the piece itself
                    (room - gap * (len(faces) - 1)) / sum(w for w, _ in sizes))
        x = (PAGE_W - sum(w for w, _ in sizes) * scale - gap * (len(faces) - 1)) / 2
        middle = bottom + (top - bottom) / 2
        tilt = [-6, 3, -3, 6]
        for i, ((deck_id, picture), (w, h)) in enumerate(zip(faces, sizes)):
            place_face(canv, form_name(deck_id, "front"), picture.front, picture, x, middle - h * scale / 2, scale,
                       tilt[i % 4] if len(faces) > 1 else 0)
            x += w * scale + gap

    def _colophon(self, canv, doc):
        f = self.fonts
        canv.saveState()
        x = MARGIN_INNER
        lines = self.meta.colophon
        y = MARGIN_BOTTOM + 6 * mm + len(lines) * 11
        canv.setStrokeColor(INK)
        canv.setLineWidth(0.6)
        canv.line(x, y + 8, PAGE_W - MARGIN_OUTER, y + 8)
        canv.setFillColor(INK)
        glyphs.draw(canv, x, y + 14, self.meta.one_line_title, f.bold, 10)
        for i, line in enumerate(lines):
            glyphs.draw(canv, x, y - 4 - i * 11, line, f.gothic, 7.5)
        bottom = y - 14 - (len(lines) - 1) * 11
        canv.line(x, bottom, PAGE_W - MARGIN_OUTER, bottom)
        canv.restoreState()


def well_formed_entries(value: object) -> list | None:
    """``value`` when it is entries as ``render`` gives them (read back from the cache), else None."""
    def one(e: object) -> bool:
        if not (isinstance(e, list) and len(e) == 2 and isinstance(e[1], list)):
            return False
        kind, stuff = e
        if kind == "TOCEntry":
            return (len(stuff) == 4 and type(stuff[0]) is int and isinstance(stuff[1], str)
                    and type(stuff[2]) is int and (stuff[3] is None or isinstance(stuff[3], str)))
        return kind == "IndexTerm" and len(stuff) == 2 and isinstance(stuff[0], str) and type(stuff[1]) is int

    return value if isinstance(value, list) and all(one(e) for e in value) else None


def render(story: list, meta: Meta, fonts: Fonts, sketch_first: bool = True,
           entries: list | None = None, compressions: settings.Compressions | None = None,
           drawn: DrawnParagraphs | None = None) -> tuple[bytes, int, list]:
    """The A5 rulebook as PDF bytes, its page count, and the contents' and index's entries it
    settled on (the notifications of its last pass, JSON-able). ``sketch_first``: the first of
    multiBuild's passes only places the flowables (the same bytes, sooner). ``entries``: the ones
    an earlier setting of the same draft settled on; the first pass is then drawn in full with
    them, and when it finds them again (a count or a card edited: no page turns) it is the last,
    one pass instead of two. Entries that no longer hold only cost passes: multiBuild goes on
    until they settle, as it does after a sketch. ``compressions``: the streams the last setting
    in this process compressed (``settings.compressed_by``); ``drawn``: the paragraphs the last
    setting in this process drew (``drawnparas``)."""
    buf = io.BytesIO()
    if entries:
        for f in story:
            if f.isIndexing():
                for kind, stuff in entries:
                    f.notify(kind, tuple(stuff))
        sketch_first = False
    with settings.dated_as_pnpgen_dates(), settings.compressed_by(compressions):
        pdf = RulebookDoc(buf, meta, fonts, sketch_first, drawn)
        pdf.multiBuild(story)
    return buf.getvalue(), pdf.page, [[kind, list(stuff)] for kind, stuff in pdf.notified]
