"""Typeset the document tree as an A5 rulebook with ReportLab platypus.

Cover, contents (with page numbers, two passes), numbered headings, running header, page
numbers, a components list from the data, the rules, an appendix of designer notes and a
colophon. Everything is drawn with the vendored TrueType fonts (no built-in PDF font is ever
referenced) and with ``invariant=1``, so equal input gives equal bytes.
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_JUSTIFY, TA_RIGHT
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.tableofcontents import TableOfContents

from pnpgen.data.model import Game, is_placeholder
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.parse import (
    Block,
    Bullet,
    Component,
    Document,
    Item,
    Note,
    Preformatted,
    Section,
    Step,
    Subheading,
)
from pnpgen.rulebook.parse import Paragraph as DraftParagraph

PAGE_W, PAGE_H = A5  # points
MARGIN_TOP = 19 * mm
MARGIN_BOTTOM = 17 * mm
MARGIN_INNER = 15 * mm
MARGIN_OUTER = 15 * mm

INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#2f4f6f")
RULE = colors.HexColor("#9aa5b1")
SOFT = colors.HexColor("#eef1f4")
NOTE_INK = colors.HexColor("#4a4a4a")
PLACEHOLDER = colors.HexColor("#c0188c")  # the colour pieces use for 未定 values

BODY_SIZE = 9.0
BODY_LEADING = 15.0
PHRASE_SLACK = 3.0  # ems a line may end short to break at a phrase boundary rather than inside one
JUSTIFY_SLACK = 4.0  # ems: the most a line is stretched to the right edge (about 0.1 em a gap)
PREFIX = "〘"  # stands for the first-line indent or term in the line breaker (a no-line-end bracket)


@dataclass
class Fonts:
    body: str  # mincho
    gothic: str
    bold: str
    mono: str


@dataclass
class Meta:
    """What the page decorations and the colophon need."""

    title: str
    title_parts: list[str]
    subtitle: str
    draft_label: str
    players: str
    date: str
    colophon: list[str]
    binding: str = "left"


@dataclass
class Styles:
    fonts: Fonts
    s: dict[str, ParagraphStyle] = field(default_factory=dict)

    def __post_init__(self) -> None:
        f = self.fonts
        base = dict(fontName=f.body, fontSize=BODY_SIZE, leading=BODY_LEADING, textColor=INK,
                    wordWrap="CJK", alignment=TA_JUSTIFY)
        self.s = {
            "body": ParagraphStyle("body", firstLineIndent=BODY_SIZE, **base),
            "body_noindent": ParagraphStyle("body_noindent", **base),
            "note": ParagraphStyle("note", **{**base, "fontSize": 8.2, "leading": 13.2, "textColor": NOTE_INK},
                                   leftIndent=BODY_SIZE),
            "bullet": ParagraphStyle("bullet", leftIndent=BODY_SIZE * 1.6, bulletIndent=BODY_SIZE * 0.5,
                                     bulletFontName=f.body, bulletFontSize=BODY_SIZE, **base),
            "item": ParagraphStyle("item", leftIndent=BODY_SIZE * 1.5, firstLineIndent=-BODY_SIZE, **base),
            "h1": ParagraphStyle("h1", fontName=f.bold, fontSize=14, leading=19, textColor=ACCENT, wordWrap="CJK"),
            "h2": ParagraphStyle("h2", fontName=f.bold, fontSize=11.5, leading=16, textColor=ACCENT, wordWrap="CJK"),
            "h3": ParagraphStyle("h3", fontName=f.bold, fontSize=10.5, leading=15, textColor=INK, wordWrap="CJK",
                                 spaceBefore=7, spaceAfter=2),
            "h4": ParagraphStyle("h4", fontName=f.bold, fontSize=10, leading=14.5, textColor=INK, wordWrap="CJK",
                                 spaceBefore=6, spaceAfter=1.5),
            "h5": ParagraphStyle("h5", fontName=f.bold, fontSize=9.5, leading=14, textColor=INK, wordWrap="CJK",
                                 spaceBefore=5, spaceAfter=1),
            "comp_name": ParagraphStyle("comp_name", fontName=f.bold, fontSize=10, leading=14, textColor=INK,
                                        wordWrap="CJK"),
            "comp_count": ParagraphStyle("comp_count", fontName=f.gothic, fontSize=10, leading=14,
                                         textColor=INK, alignment=TA_RIGHT, wordWrap="CJK"),
            "part": ParagraphStyle("part", fontName=f.gothic, fontSize=7.8, leading=11, textColor=NOTE_INK,
                                   wordWrap="CJK"),
            "part_count": ParagraphStyle("part_count", fontName=f.gothic, fontSize=7.8, leading=11,
                                         textColor=NOTE_INK, alignment=TA_RIGHT),
            "toc_title": ParagraphStyle("toc_title", fontName=f.bold, fontSize=16, leading=22, textColor=ACCENT,
                                        spaceAfter=10),
            "toc0": ParagraphStyle("toc0", fontName=f.gothic, fontSize=10, leading=17, textColor=INK,
                                   spaceBefore=3, wordWrap="CJK"),
            "toc1": ParagraphStyle("toc1", fontName=f.body, fontSize=8.8, leading=14, leftIndent=14,
                                   textColor=INK, wordWrap="CJK"),
            "appendix_intro": ParagraphStyle("appendix_intro", **{**base, "fontSize": 8.5, "leading": 14,
                                                                  "textColor": NOTE_INK}),
        }

    def __getitem__(self, key: str) -> ParagraphStyle:
        return self.s[key]


# ---------------------------------------------------------------- inline text


def inline(text: str, fonts: Fonts) -> str:
    """Draft text → platypus markup: escaped, with 【terms】 in Gothic."""
    out = escape(text)
    out = re.sub(r"【([^【】]*)】", lambda m: f'<font name="{fonts.gothic}">【{m.group(1)}】</font>', out)
    return out


# ---------------------------------------------------------------- flowables


class Heading(Flowable):
    """A numbered heading that feeds the contents, the PDF outline and the running header."""

    def __init__(self, number: str, text: str, level: int, style: ParagraphStyle, *, mark: str | None = None,
                 key: str, bar: bool = False, rule: bool = False, space_before: float = 0, space_after: float = 0):
        super().__init__()
        self.number, self.text, self.level = number, text, level
        self.style, self.mark, self.key = style, mark, key
        self.bar, self.rule = bar, rule
        label = f"{number}　{text}" if number else text
        self.toc_text = label
        self._para = Paragraph(escape(label), style)
        self.spaceBefore, self.spaceAfter = space_before, space_after

    def wrap(self, aw, ah):
        indent = 3.2 * mm if self.bar else 0
        w, h = self._para.wrap(aw - indent, ah)
        self._indent = indent
        self.width, self.height = aw, h + (2.2 * mm if self.rule else 0)
        return self.width, self.height

    def draw(self):
        c = self.canv
        extra = 2.2 * mm if self.rule else 0
        self._para.drawOn(c, self._indent, extra)
        if self.bar:
            c.setFillColor(ACCENT)
            c.rect(0, extra + 1, 1.3 * mm, self.height - extra - 2, stroke=0, fill=1)
        if self.rule:
            c.setStrokeColor(ACCENT)
            c.setLineWidth(0.8)
            c.line(0, 0.8 * mm, self.width, 0.8 * mm)


class Diagram(Flowable):
    """Preformatted lines set on a character grid: full-width characters take one cell, half-width
    ones (the designer's ASCII spaces) half a cell, each glyph drawn at its own cell, so the map
    diagrams keep their columns whatever the font's advance widths."""

    def __init__(self, lines: list[str], font: str, size: float = 9.5, leading: float = 14.0):
        super().__init__()
        self.font, self.size, self.leading = font, size, leading
        rows = [self._cells(line) for line in lines]
        leads = [r[0][0] for r in rows if r]  # first non-space half-cell of each row
        strip = min(leads) if leads else 0
        self.rows = [[(col - strip, ch) for col, ch in r] for r in rows]
        self.cols = max((col + self._span(ch) for r in self.rows for col, ch in r), default=0)
        self.pad = 2.2 * mm

    @staticmethod
    def _span(ch: str) -> int:
        return 2 if unicodedata.east_asian_width(ch) in "WFA" else 1

    def _cells(self, line: str) -> list[tuple[int, str]]:
        out, col = [], 0
        for ch in line:
            if ch not in (" ", "　"):
                out.append((col, ch))
            col += self._span(ch)
        return out

    @property
    def half(self) -> float:
        return self.size / 2  # points per half cell

    def wrap(self, aw, ah):
        self.width = aw
        self.height = len(self.rows) * self.leading + 2 * self.pad
        return self.width, self.height

    def split(self, aw, ah):
        """A diagram taller than the space left breaks between rows (columns stay aligned)."""
        fit = int((ah - 2 * self.pad) // self.leading)
        if fit >= len(self.rows) or fit < 2 or len(self.rows) - fit < 2:
            return []
        parts = []
        for rows in (self.rows[:fit], self.rows[fit:]):
            part = Diagram([], self.font, self.size, self.leading)
            part.rows, part.cols = rows, self.cols
            parts.append(part)
        return parts

    def draw(self):
        c = self.canv
        box_w = min(self.width, self.cols * self.half + 2 * self.pad + 4 * mm)
        x0 = (self.width - box_w) / 2
        c.setFillColor(SOFT)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.roundRect(x0, 0, box_w, self.height, 1.5 * mm, stroke=1, fill=1)
        left = x0 + (box_w - self.cols * self.half) / 2
        c.setFillColor(INK)
        for i, row in enumerate(self.rows):
            y = self.height - self.pad - (i + 1) * self.leading + (self.leading - self.size) / 2 + 1.5
            for col, ch in row:
                # centre the glyph in its cells (a proportional glyph stays on its column)
                w = pdfmetrics.stringWidth(ch, self.font, self.size)
                x = left + col * self.half + (self._span(ch) * self.half - w) / 2
                c.setFont(self.font, self.size)
                c.drawString(x, y, ch)


def book_breaker():
    """A line breaker for justified book text on top of pnpgen.text.linebreak (JLREQ + BudouX).

    The typography module's own ``break_lines`` always ends a line at the last phrase boundary,
    which suits a few ragged lines on a card but leaves holes in a justified page. Here a line ends
    at the last phrase boundary only when that leaves at most ``PHRASE_SLACK`` ems empty, else at
    the last JLREQ-allowed break between characters, as a Japanese book is set. None when the
    typography module is not there (ReportLab's CJK wrapping is used then).
    """
    try:
        from pnpgen.text import linebreak as lb
    except ImportError:
        return None
    need = ("break_classes", "KINSOKU", "CLUSTER", "CHAR", "PHRASE", "SPACES")
    if not all(hasattr(lb, name) for name in need):
        return None

    def break_lines(text: str, max_width: float, measure) -> list[str]:
        units = list(text)
        n = len(units)
        if n == 0:
            return []
        classes = lb.break_classes(units)
        widths = [measure(u) for u in units]
        em = max((w for u, w in zip(units, widths) if unicodedata.east_asian_width(u) in "WF"), default=10.0)
        lines, start = [], 0
        while start < n:
            width, end = 0.0, start
            while end < n and (width + widths[end] <= max_width + 1e-6 or end == start):
                width += widths[end]
                end += 1
            if end >= n:
                lines.append(text[start:])
                break
            cut = None
            used = width
            for p in range(end, start, -1):  # a phrase boundary close to the edge
                if classes[p] == lb.PHRASE and max_width - used <= PHRASE_SLACK * em:
                    cut = p
                    break
                used -= widths[p - 1]
                if max_width - used > PHRASE_SLACK * em:
                    break
            if cut is None:  # the last allowed break between characters (CHAR or PHRASE)
                cut = next((p for p in range(end, start, -1) if classes[p] in (lb.CHAR, lb.PHRASE)), None)
            if cut is None:
                cut = next((p for p in range(end, start, -1) if classes[p] == lb.CLUSTER), end)
            lines.append(text[start:cut].rstrip(" "))
            start = cut
        return lines

    return break_lines




class JPara(Flowable):
    """A paragraph broken by ``book_breaker`` (JLREQ kinsoku, BudouX phrases) and justified.

    The first line starts at ``first_indent``, the others at ``left``. ``prefix`` (a bold term,
    a bullet) is drawn at the start of the first line, or at ``prefix_x`` when given (a hanging
    bullet). 【terms】 are set in the accent colour (a colour, not a font, so the measured
    widths hold). It splits between lines, never leaving a single line behind or ahead.
    """

    def __init__(self, text: str, font: str, size: float, leading: float, *, color=INK,
                 first_indent: float = 0.0, left: float = 0.0, prefix: str = "", prefix_font: str | None = None,
                 prefix_x: float = 0.0, break_lines=None, justify: bool = True, lines: list[str] | None = None,
                 first: bool = True, space_before: float = 0.0):
        super().__init__()
        self.text, self.font, self.size, self.leading = text, font, size, leading
        self.color, self.first_indent, self.left = color, first_indent, left
        self.prefix, self.prefix_font, self.prefix_x = prefix, prefix_font or font, prefix_x
        self.break_lines, self.justify = break_lines, justify
        self.lines, self.first = lines, first
        self.spaceBefore = space_before
        self._width = None

    def _measure(self, ch: str) -> float:
        return pdfmetrics.stringWidth(ch, self.font, self.size)

    def _break(self, width: float) -> list[str]:
        body = width - self.left
        lead = self.first_indent - self.left  # the first line starts here, relative to the others
        if self.prefix and self.prefix_font != self.font:
            lead += pdfmetrics.stringWidth(self.prefix, self.prefix_font, self.size)
        elif self.prefix:
            lead += pdfmetrics.stringWidth(self.prefix, self.font, self.size)

        def measure(ch: str) -> float:
            return lead if ch == PREFIX else self._measure(ch)

        lines = self.break_lines(PREFIX + self.text, body, measure)
        if lines and lines[0].startswith(PREFIX):
            lines[0] = lines[0][len(PREFIX):]
        return lines

    def wrap(self, aw, ah):
        if self.lines is None or self._width != aw:
            if self.lines is None:
                self.lines = self._break(aw)
            self._width = aw
        self.width = aw
        self.height = len(self.lines) * self.leading
        return aw, self.height

    def split(self, aw, ah):
        self.wrap(aw, ah)
        fit = int((ah + 1e-6) // self.leading)
        n = len(self.lines)
        if fit >= n:
            return [self]
        if fit < 2 or n - fit < 2:  # no widow or orphan line
            fit = min(fit, n - 2)
            if fit < 2:
                return []
        kw = dict(color=self.color, first_indent=self.first_indent, left=self.left, prefix=self.prefix,
                  prefix_font=self.prefix_font, prefix_x=self.prefix_x, break_lines=self.break_lines,
                  justify=self.justify)
        head = JPara(self.text, self.font, self.size, self.leading, lines=self.lines[:fit], first=self.first,
                     space_before=self.spaceBefore, **kw)
        tail = JPara(self.text, self.font, self.size, self.leading, lines=self.lines[fit:], first=False, **kw)
        tail._last_is_end = True
        head._last_is_end = False
        return [head, tail]

    def _accent_mask(self) -> list[bool]:
        mask, depth = [], 0
        for ch in self.text:
            if ch == "【":
                depth += 1
            mask.append(depth > 0)
            if ch == "】" and depth:
                depth -= 1
        return mask

    def draw(self):
        c = self.canv
        mask = self._accent_mask()
        pos = 0
        last_is_end = getattr(self, "_last_is_end", True)
        for i, line in enumerate(self.lines):
            found = self.text.find(line, pos) if line else pos
            if found >= 0:
                pos = found
            y = self.height - (i + 1) * self.leading + (self.leading - self.size) / 2 + self.size * 0.12
            first_line = i == 0 and self.first
            x = self.first_indent if first_line else self.left
            avail = self.width - x
            if first_line and self.prefix:
                c.setFillColor(self.color)
                c.setFont(self.prefix_font, self.size)
                c.drawString(self.prefix_x if self.prefix_x else x, y, self.prefix)
                pw = pdfmetrics.stringWidth(self.prefix, self.prefix_font, self.size)
                if not self.prefix_x:
                    x += pw
                    avail -= pw
                else:
                    x = self.first_indent
            natural = pdfmetrics.stringWidth(line, self.font, self.size)
            gaps = len(line) - 1
            is_last = i == len(self.lines) - 1 and last_is_end
            spacing = 0.0
            slack = avail - natural
            if self.justify and not is_last and gaps > 0 and 0 < slack <= JUSTIFY_SLACK * self.size:
                # a line that ends within a character or so of the edge is justified; a line
                # ended early at a phrase boundary stays ragged instead of being letter-spaced
                spacing = slack / gaps
            t = c.beginText(x, y)
            t.setFont(self.font, self.size)
            t.setCharSpace(spacing)
            run_start = 0
            for j in range(1, len(line) + 1):
                k = pos + run_start
                if j == len(line) or (pos + j < len(mask) and k < len(mask) and mask[pos + j] != mask[k]):
                    accent = k < len(mask) and mask[k]
                    t.setFillColor(ACCENT if accent else self.color)
                    t.textOut(line[run_start:j])
                    run_start = j
            c.drawText(t)
            pos += len(line)


# ---------------------------------------------------------------- document template


class RulebookDoc(BaseDocTemplate):
    def __init__(self, buf, meta: Meta, fonts: Fonts, **kw):
        super().__init__(
            buf, pagesize=A5, leftMargin=MARGIN_INNER, rightMargin=MARGIN_OUTER,
            topMargin=MARGIN_TOP, bottomMargin=MARGIN_BOTTOM, invariant=1,
            initialFontName=fonts.body, title=meta.title, author="", subject="rulebook",
            creator="pnpgen", lang="ja-JP", **kw,
        )
        self.meta, self.fonts = meta, fonts
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", [frame], onPage=self._cover),
            PageTemplate("front", [frame], onPageEnd=self._footer),
            PageTemplate("body", [frame], onPage=self._page_start, onPageEnd=self._decorate),
            PageTemplate("colophon", [frame], onPage=self._colophon),
        ])

    # running header: the section in force at the top of the page (a page that opens with a
    # section heading shows that section)
    def handle_documentBegin(self):
        self._running = ""
        self._page_mark: str | None = None
        self._drawn_on_page = 0
        super().handle_documentBegin()

    def _page_start(self, canv, doc):
        self._page_mark = self._running
        self._drawn_on_page = 0

    def afterFlowable(self, f):
        visible = not isinstance(f, (Spacer, ActionFlowable))
        first = visible and self._drawn_on_page == 0
        self._drawn_on_page += visible
        if isinstance(f, Heading) and f.mark and (first or not self._page_mark):
            self._page_mark = f.mark
        if isinstance(f, Heading):
            c = self.canv
            c.bookmarkPage(f.key)
            c.addOutlineEntry(f.toc_text, f.key, level=f.level, closed=f.level > 0)
            self.notify("TOCEntry", (f.level, escape(f.toc_text), self.page, f.key))
            if f.mark:
                self._running = f.mark

    def _footer(self, canv, doc):
        canv.saveState()
        canv.setFont(self.fonts.gothic, 8)
        canv.setFillColor(INK)
        canv.drawCentredString(PAGE_W / 2, 9 * mm, str(doc.page))
        canv.restoreState()

    def _decorate(self, canv, doc):
        mark = self._page_mark
        canv.saveState()
        y = PAGE_H - 12 * mm
        canv.setFont(self.fonts.gothic, 7)
        canv.setFillColor(NOTE_INK)
        left_text = f"{self.meta.title}　{self.meta.draft_label}".strip()
        canv.drawString(MARGIN_INNER, y, left_text)
        if mark:
            canv.drawRightString(PAGE_W - MARGIN_OUTER, y, mark)
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.4)
        canv.line(MARGIN_INNER, y - 1.8 * mm, PAGE_W - MARGIN_OUTER, y - 1.8 * mm)
        canv.restoreState()
        self._footer(canv, doc)

    def _fit(self, text: str, font: str, size: float, width: float) -> float:
        while size > 8 and pdfmetrics.stringWidth(text, font, size) > width:
            size -= 0.5
        return size

    def _cover(self, canv, doc):
        m, f = self.meta, self.fonts
        canv.saveState()
        # frame
        canv.setStrokeColor(ACCENT)
        canv.setLineWidth(1.2)
        canv.rect(9 * mm, 9 * mm, PAGE_W - 18 * mm, PAGE_H - 18 * mm)
        canv.setLineWidth(0.4)
        canv.rect(11 * mm, 11 * mm, PAGE_W - 22 * mm, PAGE_H - 22 * mm)
        cx = PAGE_W / 2
        canv.setFillColor(ACCENT)
        canv.setFont(f.gothic, 9)
        canv.drawCentredString(cx, PAGE_H - 32 * mm, "ル ー ル ブ ッ ク")
        canv.setStrokeColor(ACCENT)
        canv.line(cx - 18 * mm, PAGE_H - 35 * mm, cx + 18 * mm, PAGE_H - 35 * mm)
        # title
        width = PAGE_W - 34 * mm
        y = PAGE_H * 0.60
        parts = m.title_parts or [m.title]
        canv.setFillColor(INK)
        for i, part in enumerate(parts):
            size = self._fit(part, f.bold, 26 if i == 0 else 16, width)
            canv.setFont(f.bold, size)
            canv.drawCentredString(cx, y, part)
            y -= size * 1.55
        if m.subtitle:
            size = self._fit(m.subtitle, f.gothic, 11, width)
            canv.setFont(f.gothic, size)
            canv.drawCentredString(cx, y, m.subtitle)
            y -= size * 1.8
        if m.draft_label:
            canv.setFont(f.gothic, 12)
            canv.setFillColor(ACCENT)
            canv.drawCentredString(cx, y - 4 * mm, m.draft_label)
        # players
        canv.setFillColor(PLACEHOLDER if is_placeholder(m.players) else INK)
        players = f"プレイ人数　{m.players}"
        canv.setFont(f.gothic, self._fit(players, f.gothic, 10, width))
        canv.drawCentredString(cx, PAGE_H * 0.30, players)
        canv.setFillColor(NOTE_INK)
        canv.setFont(f.gothic, 8.5)
        canv.drawCentredString(cx, 24 * mm, m.date)
        canv.setFont(f.gothic, 6.5)
        canv.drawCentredString(cx, 19 * mm, "プレイテスト用　草案テキストから自動組版")
        canv.restoreState()

    def _colophon(self, canv, doc):
        f = self.fonts
        canv.saveState()
        x = MARGIN_INNER
        lines = self.meta.colophon
        y = MARGIN_BOTTOM + 6 * mm + len(lines) * 11
        canv.setStrokeColor(INK)
        canv.setLineWidth(0.6)
        canv.line(x, y + 8, PAGE_W - MARGIN_OUTER, y + 8)
        canv.setFont(f.bold, 10)
        canv.setFillColor(INK)
        canv.drawString(x, y + 14, self.meta.title)
        canv.setFont(f.gothic, 7.5)
        for i, line in enumerate(lines):
            canv.drawString(x, y - 4 - i * 11, line)
        canv.line(x, y - 10 - (len(lines) - 1) * 11 - 4, PAGE_W - MARGIN_OUTER, y - 10 - (len(lines) - 1) * 11 - 4)
        canv.restoreState()


# ---------------------------------------------------------------- story


class StoryBuilder:
    def __init__(self, doc: Document, game: Game, fonts: Fonts, rows: list[ComponentRow], *,
                 rules_only: bool, break_lines=None):
        self.doc, self.game, self.fonts, self.rows = doc, game, fonts, rows
        self.st = Styles(fonts)
        self.rules_only = rules_only
        self.break_lines = break_lines
        self._key = 0

    def key(self) -> str:
        self._key += 1
        return f"h{self._key}"

    # -- blocks
    def para(self, text: str, style: str = "body") -> Flowable:
        if self.break_lines is None:
            return Paragraph(inline(text, self.fonts), self.st[style])
        st = self.st[style]
        return JPara(text, st.fontName, st.fontSize, st.leading, color=st.textColor,
                     first_indent=st.leftIndent + st.firstLineIndent, left=st.leftIndent,
                     break_lines=self.break_lines)

    def bullet(self, text: str) -> Flowable:
        st = self.st["bullet"]
        if self.break_lines is None:
            return Paragraph(inline(text, self.fonts), st, bulletText="・")
        return JPara(text, st.fontName, st.fontSize, st.leading, color=st.textColor, first_indent=st.leftIndent,
                     left=st.leftIndent, prefix="・", prefix_x=st.bulletIndent or 0.01,
                     break_lines=self.break_lines)

    def item(self, term: str, body: str) -> Flowable:
        st = self.st["item"]
        if self.break_lines is None:
            return Paragraph(f'<font name="{self.fonts.bold}">{escape(term)}</font>：' + inline(body, self.fonts), st)
        return JPara(body, st.fontName, st.fontSize, st.leading, color=st.textColor,
                     first_indent=st.leftIndent + st.firstLineIndent, left=st.leftIndent,
                     prefix=term + "：", prefix_font=self.fonts.bold, break_lines=self.break_lines)

    def blocks(self, blocks: list[Block]) -> list[Flowable]:
        out: list[Flowable] = []
        for b in blocks:
            gap = getattr(b, "gap_before", False)
            if gap and out:
                out.append(Spacer(1, 4))
            if isinstance(b, DraftParagraph):
                out.append(self.para(b.text, "body" if b.indent else "body_noindent"))
            elif isinstance(b, Note):
                out.append(self.para(b.text, "note"))
            elif isinstance(b, Bullet):
                out.append(self.bullet(b.text))
            elif isinstance(b, Item):
                if b.term:
                    out.append(self.item(b.term, b.body))
                else:
                    out.append(self.para(b.text, "item"))
            elif isinstance(b, Preformatted):
                out.append(Spacer(1, 3))
                out.append(Diagram(b.lines, self.fonts.mono))
                out.append(Spacer(1, 4))
            elif isinstance(b, Subheading):
                style, mark = {1: ("h3", "◆"), 2: ("h4", "◎"), 3: ("h5", "●")}[b.level]
                out.append(Paragraph(f'<font color="#2f4f6f">{mark}</font> {escape(b.text)}', self.st[style]))
        # keep a sub-heading with what follows it
        return _keep_headings(out)

    # -- sections
    def section_heading(self, number: str, title: str, mark: str) -> list[Flowable]:
        return [CondPageBreak(45 * mm),
                Heading(number, title, 0, self.st["h1"], mark=mark, key=self.key(), rule=True,
                        space_before=10, space_after=6)]

    def step_heading(self, number: str, title: str) -> Flowable:
        return Heading(number, title, 1, self.st["h2"], key=self.key(), bar=True, space_before=8, space_after=4)

    def rules_section(self, n: int, s: Section) -> list[Flowable]:
        out = self.section_heading(str(n), s.title, s.title)
        if s.is_components:
            return out + self.components_section(s)
        for child in s.children:
            if isinstance(child, Step):
                out.append(CondPageBreak(30 * mm))
                out.append(self.step_heading(f"{n}.{child.number}", child.title))
                out += self.blocks(child.children)
            elif isinstance(child, Component):  # a ◇ entry outside a components section cannot occur
                out += self.blocks(child.children)
            else:
                out += self.blocks([child])
        return _keep_headings(out)

    def components_section(self, s: Section) -> list[Flowable]:
        out: list[Flowable] = []
        lead = [b for b in s.children if not isinstance(b, Component)]
        out += self.blocks(lead)
        out.append(Spacer(1, 4))
        extra = [r for r in self.rows if r.stated is None and not r.description and _data_only(r)]
        for row in self.rows:
            if row in extra:
                continue
            out.append(KeepTogether(self.component(row)))
        if extra:
            out.append(Spacer(1, 6))
            out.append(Paragraph('<font color="#2f4f6f">●</font> その他の内容物（データより）', self.st["h5"]))
            out.append(self.parts_table([(r.name, r.items) for r in extra], size="body"))
        return out

    def component(self, row: ComponentRow) -> list[Flowable]:
        st = self.st
        count_text = row.count_text()
        if count_text is None:
            count_text = "（データなし）"
        head = Table([[Paragraph(escape(row.name), st["comp_name"]), Paragraph(escape(count_text), st["comp_count"])]],
                     colWidths=["72%", "28%"])
        head.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else Table sets Helvetica
            ("LINEBELOW", (0, 0), (-1, -1), 0.5, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ]))
        out: list[Flowable] = [Spacer(1, 5), head, Spacer(1, 2)]
        out += self.blocks(row.description)
        shown = [(name, ds) for name, ds in row.parts if ds and (len(ds) > 1 or len(row.parts) > 1 or ds[0].note)]
        if shown:
            out.append(Spacer(1, 2))
            out.append(self.parts_table(shown))
        return out

    def parts_table(self, parts, size: str = "part") -> Table:
        st = self.st
        data = []
        for _name, ds in parts:
            for d in ds:
                label = escape(d.name)
                if d.note:
                    colour = "#c0188c" if is_placeholder(d.note) else "#4a4a4a"
                    label += f'<font size="6.8" color="{colour}">　{escape(d.note)}</font>'
                data.append([Paragraph(label, st["part"]), Paragraph(f"{d.count}{d.unit}", st["part_count"])])
        t = Table(data, colWidths=["84%", "16%"])
        t.setStyle(TableStyle([
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),  # else Table sets Helvetica
            ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
            ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#d5dbe1")),
            ("BACKGROUND", (0, 0), (-1, -1), SOFT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))
        return t

    # -- the whole book
    def story(self) -> list[Flowable]:
        st = self.st
        out: list[Flowable] = [Spacer(1, 1)]
        if self.doc.rules or (not self.rules_only and self._has_appendix()):
            toc = TableOfContents(levelStyles=[st["toc0"], st["toc1"]], dotsMinLevel=0, tableStyle=TableStyle([
                ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else its Table sets Helvetica
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]))
            out += [NextPageTemplate("front"), PageBreak(), Paragraph("目次", st["toc_title"]), toc]
        out += [NextPageTemplate("body"), PageBreak()]  # no headings at all: no contents page
        if self.doc.preamble:
            out += self.blocks(self.doc.preamble)
        for n, s in enumerate(self.doc.rules, start=1):
            out += self.rules_section(n, s)
        if not self.rules_only:
            out += self.appendix()
        out += [NextPageTemplate("colophon"), PageBreak(), Spacer(1, 1)]
        return out

    def _has_appendix(self) -> bool:
        d = self.doc
        return bool(d.of_kind("notes") or d.of_kind("brainstorm") or d.of_kind("changelog")
                    or any(s.memos for s in d.rules))

    def appendix(self) -> list[Flowable]:
        parts: list[tuple[str, list[Flowable]]] = []
        for s in self.doc.of_kind("notes"):
            parts.append(("問題点（デザイナーの検討課題）", self.blocks(s.children)))
        for s in self.doc.of_kind("brainstorm"):
            parts.append((f"構想メモ（最初の「{s.title}」）", self.blocks(s.children)))
        memos = [m for s in self.doc.rules for m in s.memos]
        if memos:
            intro = self.para("草案の「コンポーネント」に書かれた枚数の覚え書きです。本書の枚数はデータから取っています。",
                              "appendix_intro")
            parts.append(("コンポーネントの覚え書き", [intro, Spacer(1, 3)] + self.blocks(memos)))
        for s in self.doc.of_kind("changelog"):
            parts.append((f"変更履歴（{s.title}）", self.blocks(s.children)))
        if not parts:
            return []
        out: list[Flowable] = [PageBreak(),
                               Heading("付録", "デザイナーノート", 0, self.st["h1"], mark="付録", key=self.key(),
                                       rule=True, space_after=6),
                               self.para("ここから先は草案に含まれる設計メモと変更履歴です。ルールではありません。",
                                         "appendix_intro"),
                               Spacer(1, 4)]
        for i, (title, flow) in enumerate(parts):
            letter = "ABCDEFGH"[i]
            out.append(CondPageBreak(30 * mm))
            out.append(Heading(letter, title, 1, self.st["h2"], key=self.key(), bar=True,
                               space_before=8, space_after=4))
            out += flow
        return _keep_headings(out)


def _data_only(row: ComponentRow) -> bool:
    return len(row.parts) == 1 and row.parts[0][0] == row.name and bool(row.parts[0][1])


def _keep_headings(flow: list[Flowable]) -> list[Flowable]:
    """Sub-headings and headings keep with the next flowable (no heading alone at a page foot)."""
    for f in flow:
        if isinstance(f, Heading) or (isinstance(f, Paragraph) and f.style.name in ("h3", "h4", "h5")):
            f.keepWithNext = 1
    return flow


def render(doc: Document, game: Game, fonts: Fonts, rows: list[ComponentRow], meta: Meta, *,
           rules_only: bool = False, break_lines=None) -> tuple[bytes, int]:
    """The A5 rulebook as PDF bytes, and its page count."""
    builder = StoryBuilder(doc, game, fonts, rows, rules_only=rules_only, break_lines=break_lines)
    buf = io.BytesIO()
    pdf = RulebookDoc(buf, meta, fonts)
    pdf.multiBuild(builder.story())
    return buf.getvalue(), pdf.page
