"""The contents page: ReportLab's table of contents (its passes, its entries), each entry's text
set as its heading is (``headline.HeadText``: the 約物 at their JLREQ widths, the text as the
heading's own), then a dot leader and its page number, which keep their size."""

from __future__ import annotations

import re
from collections.abc import Mapping

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Spacer, Table
from reportlab.platypus.tableofcontents import TableOfContents

from pnpgen.rulebook.headline import HeadText
from pnpgen.rulebook.inline import Icon
from pnpgen.terms import is_latin

DOT = " . "  # what an entry's line is filled with up to its page number
# the number a heading's entry opens with and the gap after it (``flowables.Heading.toc_text``: 「3.1　」,
# 「5.0　」, 「付録　」, "A\u2002"): a wrapped entry's later lines hang after it, as the heading's own do
_NUMBER = re.compile(r"^(?:[0-9]{1,3}(?:\.[0-9]{1,3})*|[A-Z]|付録|Appendix:)[　\u2002]")


class Contents(TableOfContents):
    """ReportLab's contents, its entries (level, the heading's text, page, key) set by
    ``ContentsEntry``; ``icons``: the draft's, ``lang``: the language of the headings' text."""

    def __init__(self, *args, icons: Mapping[str, Icon] | None = None, lang: str = "ja", **kw):
        super().__init__(*args, **kw)
        self.icons, self.lang = icons or {}, lang

    def wrap(self, availWidth, availHeight):
        rows: list[list[Flowable]] = []
        entries = self._lastEntries or [(0, "", 0, None)]
        numbers = tuple(sorted({str(page) for _, _, page, _ in entries}))
        for level, text, page, key in entries:
            style = self.getLevelStyle(level)
            if style.spaceBefore:
                rows.append([Spacer(1, style.spaceBefore)])
            rows.append([ContentsEntry(text, style, page, key, self.icons, self.lang, numbers)])
        self._table = Table(rows, colWidths=(availWidth,), style=self.tableStyle)
        self.width, self.height = self._table.wrapOn(self.canv, availWidth, availHeight)
        return self.width, self.height


class ContentsEntry(Flowable):
    """A heading's line of the contents: its text from the style's left indent, linking to the
    heading, then dots up to its page number at the right; a wrapped entry's later lines start under
    its text, after its number (as the wrapped heading's do). When the text's last line leaves no
    room for a dot and the number, they go on a line of their own (ReportLab set the number
    smaller, a tenth at a time, until it fitted, down to 1 pt: a long heading's 「7」 printed at
    4.3 pt, text a print shop's preflight lists as below its smallest size — preflight7). The
    dots end where the widest of the contents' page ``numbers`` starts, so the dots of the entries
    of one size stand in the same columns, a 9's as a 10's (they stood half a dot apart, book48)."""

    def __init__(self, text: str, style, page: int, key: str | None, icons: Mapping[str, Icon], lang: str,
                 numbers: tuple[str, ...] = ()):
        super().__init__()
        self.style, self.page, self.key = style, page, key
        self.numbers = (*numbers, str(page))
        number = _NUMBER.match(text)
        self.head = HeadText(text, style, icons=icons, latin=is_latin(lang), lang=lang,
                             hang=number.end() if number else 0)

    def wrap(self, aw, ah):
        st = self.style
        _, h = self.head.wrap(aw - st.leftIndent, ah)
        widths = self.head.line_widths() or [0.0]
        self.room = max(stringWidth(n, st.fontName, st.fontSize) for n in self.numbers)  # the widest number's
        need = stringWidth(DOT, st.fontName, st.fontSize) + self.room
        self.end = st.leftIndent + widths[-1]  # where the dots start, on the last line
        self.own_line = self.end + need > aw + 1e-6
        if self.own_line:
            self.end, h = st.leftIndent, h + st.leading
        self.width, self.height = aw, h
        return aw, h

    def draw(self):
        c, st = self.canv, self.style
        extra = st.leading if self.own_line else 0.0
        self.head.drawOn(c, st.leftIndent, extra)
        y = self.head.baseline(len(self.head.lines) - 1) + extra - (st.leading if self.own_line else 0.0)
        number = str(self.page)
        number_w = stringWidth(number, st.fontName, st.fontSize)
        dot_w = stringWidth(DOT, st.fontName, st.fontSize)
        dots = max(int((self.width - self.end - self.room) / dot_w), 0)
        t = c.beginText(self.width - dots * dot_w - self.room, y)
        t.setFont(st.fontName, st.fontSize)
        t.setFillColor(st.textColor)
        t.textOut(dots * DOT)
        t.setTextOrigin(self.width - number_w, y)  # (right-aligned: the digits stand in their columns)
        t.textOut(number)
        c.drawText(t)
        if self.key:
            for n, w in enumerate(self.head.line_widths()):
                base = self.head.baseline(n) + extra
                c.linkRect("", self.key, (st.leftIndent, base - 0.2 * st.fontSize, st.leftIndent + w,
                                          base + st.fontSize), relative=1, thickness=0)
            c.linkRect("", self.key, (self.width - number_w, y, self.width, y + st.leading), relative=1, thickness=0)
