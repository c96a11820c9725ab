"""The contents page: ReportLab's table of contents, whose page numbers keep their size."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph
from reportlab.platypus.tableofcontents import TableOfContents

DOT = " . "  # what ReportLab fills an entry's line with up to its page number


class Contents(TableOfContents):
    """ReportLab's contents, but an entry whose last line leaves no room for a dot and its page
    number puts them on a line of their own. ReportLab set the number smaller, a tenth at a time,
    until it fitted (down to 1 pt): a long heading's 「7」 printed at 4.3 pt, text a print shop's
    preflight lists as below its smallest size (preflight7)."""

    def wrap(self, availWidth, availHeight):
        entries = self._lastEntries
        self._lastEntries = [_with_room(entry, self.getLevelStyle(entry[0]), availWidth) for entry in entries]
        try:
            return super().wrap(availWidth, availHeight)
        finally:
            self._lastEntries = entries  # what the next pass compares its entries with


def _with_room(entry: tuple, style, width: float) -> tuple:
    """``entry`` (level, markup, page, key), its markup ending in a line break when its last
    line, set in ``width`` points, leaves less than a dot and the page number."""
    level, text, page, key = entry
    para = Paragraph(text, style)
    para.wrap(width, 1e6)
    lines = para.getActualLineWidths0()
    indent = style.leftIndent + (style.firstLineIndent if len(lines) == 1 else 0.0)
    need = stringWidth(DOT + str(page), style.fontName, style.fontSize)
    if not lines or indent + lines[-1] + need <= width + 1e-6:
        return entry
    return level, text + "<br/>\u00a0", page, key
