"""Preformatted lines of a draft on a character grid: the map diagrams (□ ◆ ① and spaces) and
the aligned tables (columns parted by two or more spaces), each glyph at its own cell so their
columns hold whatever the font's widths; a Latin book's table in its own Latin face instead,
its columns placed by their text's widths (``Diagram.latin``)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

from pnpgen.data.markup import ICON_TOKEN
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.flowables import sketching
from pnpgen.rulebook.inline import Icon, draw_icon
from pnpgen.rulebook.styles import INK, RULE, SOFT
from pnpgen.rulebook.tables import cells, is_map_line, wrapping_column
from pnpgen.rulebook.xrefs import destination, references_in
from pnpgen.text import linebreak as lb

HEADER_RULE_PT = 0.5  # a table header's rule: 0.18 mm, above the 0.1 mm a shop prints


def wrap_row(s: str, room: int) -> list[str]:
    """The lines ``wrapped_row`` prints ``s`` on."""
    return [line for line, _, _ in wrapped_row(s, room)]


def wrapped_row(s: str, room: int) -> list[tuple[str, int, int]]:
    """A table's row wider than ``room`` half-width cells (past its indent) as the lines it prints
    on: its last column's text wrapped inside that column (the columns before it on the first
    line, each line after it starting where the column does), by the JLREQ line-break rules
    (``text.linebreak``: no line starting with 。」 nor a Latin word split where it has a space);
    an icon's ``{name}`` one full-width cell, as it prints. A row that fits, or has no column to
    wrap in, is one line as written. Each line with where its words come from: (the line, the
    characters of its pad, where in ``s`` the text after the pad starts) — a reference wrapped
    across two lines is read in ``s`` and linked on both (``Diagram._link``)."""
    lead = len(s) - len(s.lstrip(" 　"))
    indent = sum(cells(ch) for ch in s[:lead])
    at = wrapping_column(s, room)
    if at is None:
        return [(s, 0, 0)]
    col, cut = 0, len(s)
    for k, ch in enumerate(s):  # the character where the wrapping column starts
        if col == at and ch not in " 　":
            cut = k
            break
        col += cells(ch)
    units = [m.group() for m in re.finditer(ICON_TOKEN.pattern + "|.", s[cut:])]
    widths = [2 if len(u) > 1 else cells(u) for u in units]
    ranges = lb.fill(lb.break_classes(units, phrases=False, hyphenate=False), widths,
                     [u in lb.SPACES for u in units], room - (at - indent), force=True)
    pad = "　" * (at // 2) + " " * (at % 2)
    offsets = [0]
    for u in units:
        offsets.append(offsets[-1] + len(u))
    return [(s[:cut] + "".join(units[a:b]).rstrip(" 　"), 0, 0) if n == 0 else
            (pad + "".join(units[a:b]).rstrip(" 　"), len(pad), cut + offsets[a]) for n, (a, b) in enumerate(ranges)]


class DiagramTooWide(ValueError):
    """A diagram whose widest row runs past the text's width: its glyphs would print past the page's
    edge (a row of 20,000 □ printed its first 46 and lost the rest off the sheet, without a word)."""

    def __init__(self, row: int, cells: int, room: int, draft_line: int):
        super().__init__(f"a diagram's row {row} is {cells} half-width cells, the page holds {room}")
        self.row, self.cells, self.room, self.draft_line = row, cells, room, draft_line


class Diagram(Flowable):
    """Preformatted lines set on a character grid: full-width characters take one cell, half-width
    ones (the designer's ASCII spaces) half a cell, each glyph drawn at its own cell, so the map
    diagrams keep their columns whatever the font's advance widths. Never split across pages.
    A table's ``header`` row has a thin rule under it, across the table's columns."""

    def __init__(self, lines: list[str], font: str, size: float = 9.5, leading: float = 14.0, left: float = 0.0,
                 icons: Mapping[str, Icon] | None = None, header: bool = False, latin: str = "",
                 links: Collection[str] = ()):
        super().__init__()
        self.links = links  # the case numbers the book sets: a reference to one links to it, as in the text
        self.latin = latin  # a Latin book's face for its tables (its maps keep the grid)
        self.placed: list[list[tuple[float, str]]] | None = None  # a table set in ``latin``: each row's cells
        self.font, self.size, self.leading, self.left = font, size, leading, left
        self.icons = icons or {}
        self.pad = 2.2 * mm
        self.on_grid = True  # starts on a line of the body's grid
        self.draft_line = 0  # the draft line it was set from, for a message
        self.lines = lines
        # each printed line's row (its index in ``lines``), pad and where its text starts in the row
        # (``wrapped_row``): one line a row until ``fit`` wraps a long one
        self.origins = [(k, 0, 0) for k in range(len(lines))]
        self._set(lines, int(header))

    def _set(self, lines: list[str], header: int) -> None:
        """The rows' glyphs by half cell; ``header``: the lines of the table's header row (a rule under them)."""
        self.header = header
        self.texts = lines  # each row's text as set (a long row's wrapped lines each one)
        rows = [self._cells(line)[0] for line in lines]
        leads = [r[0][0] for r in rows if r]  # first non-space half-cell of each row
        strip = self.strip = min(leads) if leads else 0
        self.rows = [[(col - strip, ch) for col, ch in r] for r in rows]
        self.cols = max((col + self._span(ch) for r in self.rows for col, ch in r), default=0)

    @staticmethod
    def _span(ch: str | Icon) -> int:
        return 2 if isinstance(ch, Icon) or unicodedata.east_asian_width(ch) in "WFA" else 1

    def _cells(self, line: str) -> tuple[list[tuple[int, str | Icon]], list[int]]:
        """Each glyph's half-cell column, and the half cell each character of ``line`` starts at
        (then the line's end: a link's box). A known ``{name}`` is its icon in one full-width cell; the
        half cells its name took in the draft are given back at the next gap of two or more spaces,
        so a table's next column stays where the designer aligned it."""
        out: list[tuple[int, str | Icon]] = []
        starts: list[int] = []
        col = owed = 0
        for m in re.finditer(ICON_TOKEN.pattern + r"|[ \u3000]{2,}|.", line):
            token = m.group()
            icon = self.icons.get(token[1:-1]) if token[0] == "{" and len(token) > 2 else None
            if icon is not None:
                starts += [col] * len(token)
                out.append((col, icon))
                col += 2
                owed += sum(self._span(ch) for ch in token) - 2
            elif len(token) > 1 and not token.strip(" \u3000"):  # a gap between columns
                starts += [col] * len(token)
                col += sum(self._span(ch) for ch in token) + owed
                owed = 0
            else:  # a glyph (a space: its cell left empty), or a {name} no icon has, as written
                for ch in token:
                    starts.append(col)
                    if ch not in (" ", "\u3000"):
                        out.append((col, ch))
                    col += self._span(ch)
        return out, [*starts, col]

    def fit(self, width: float) -> None:
        """A table's row wider than its box holds in ``width`` points wraps its last column's text
        inside that column (``wrap_row``: the row taller, the columns kept); DiagramTooWide
        when a row still needs more half cells (a map's, a row with no column to wrap in)."""
        room = int((width - self.left - 2 * self.pad) // (self.size / 2))
        if self.latin and not any(map(is_map_line, self.lines)) and not any(ICON_TOKEN.search(s) for s in self.lines):
            self.placed = latin_columns(self.lines, self.latin, self.size)
            if self._table_width() <= width - self.left - 2 * self.pad:
                return
            self.placed = None  # too wide in the Latin face: on the grid, its last column wrapped
        if self.cols > room and not any(map(is_map_line, self.lines)):
            rows = [wrapped_row(line, room) for line in self.lines]
            self.origins = [(k, pad, at) for k, row in enumerate(rows) for _, pad, at in row]
            self._set([line for row in rows for line, _, _ in row], len(rows[0]) if self.header else 0)
        if self.cols > room:
            widths = [max((col + self._span(ch) for col, ch in r), default=0) for r in self.rows]
            widest = max(range(len(widths)), key=widths.__getitem__)
            raise DiagramTooWide(widest + 1, widths[widest], room, self.draft_line)

    def _table_width(self) -> float:
        """The width the rows take: their cells' as set in the Latin face, else their half cells'."""
        if self.placed is None:
            return self.cols * self.size / 2
        return max((x + glyphs.width(t, self.latin, self.size, 0.0) for r in self.placed for x, t in r), default=0.0)

    def wrap(self, aw, ah):
        self.width = aw
        self.height = len(self.rows) * self.leading + 2 * self.pad
        return self.width, self.height

    def draw(self):
        c = self.canv
        if sketching(c):
            return
        half = self.size / 2  # points per half cell
        room = self.width - self.left
        wide = self._table_width()
        box_w = min(room, wide + 2 * self.pad + 4 * mm)
        x0 = self.left + (room - box_w) / 2
        c.setFillColor(SOFT)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.roundRect(x0, 0, box_w, self.height, 1.5 * mm, stroke=1, fill=1)
        left = x0 + (box_w - wide) / 2
        if self.header:  # between the header's row (its lines) and the first row of figures
            y = self.height - self.pad - self.header * self.leading + 0.6  # halfway between the rows' ink
            c.setLineWidth(HEADER_RULE_PT)
            c.line(left - mm, y, left + wide + mm, y)
        c.setFillColor(INK)
        baseline = lambda i: self.height - self.pad - (i + 1) * self.leading + (self.leading - self.size) / 2 + 1.5  # noqa: E731
        if self.placed is not None:
            for i, cells_of_row in enumerate(self.placed):
                for x, text in cells_of_row:
                    glyphs.draw(c, left + x, baseline(i), text, self.latin, self.size, gap_em=0.0)
            self._link(left, baseline)
            return
        for i, row in enumerate(self.rows):
            y = baseline(i)
            for col, ch in row:
                if isinstance(ch, Icon):  # one em square in its full-width cell, as in the text
                    draw_icon(c, ch, left + col * half, y, self.size)
                    c.setFillColor(INK)
                    continue
                # centre the glyph in its cells (a proportional glyph stays on its column)
                font = glyphs.font_for(ch, self.font)
                w = pdfmetrics.stringWidth(ch, font, self.size)
                c.setFont(font, self.size)
                c.drawString(left + col * half + (self._span(ch) * half - w) / 2, y, ch)
        self._link(left, baseline)

    def _link(self, left: float, baseline) -> None:
        """Each cross reference to a case the book sets (「→６．４参照」's →６．４, "see 6.4") a link to
        where that case is, as a paragraph's are (``JPara._link``): a box over its glyphs' cells
        (a Latin table's: over its text in its cell), one reference on one row."""
        if not self.links:
            return
        for i, text in enumerate(self.texts):
            row, pad, at = self.origins[i]
            if self.placed is None:  # a reference read in its row, linked where this line shows part of it
                shown = (at, at + len(text) - pad)
                found = [(max(a, shown[0]) - at + pad, min(b, shown[1]) - at + pad, n)
                         for a, b, n in references_in(self.lines[row]) if n in self.links and a < shown[1] and b > shown[0]]
            else:
                found = [(a, b, n) for a, b, n in references_in(text) if n in self.links]
            if not found:
                continue
            y = baseline(i)
            if self.placed is None:
                starts = self._cells(text)[1]
                spans = [(left + (starts[a] - self.strip) * self.size / 2, left + (starts[b] - self.strip) * self.size / 2, n)
                         for a, b, n in found]
            else:
                spans = [span for a, b, n in found if (span := self._latin_span(i, text, a, b, n, left))]
            for x0, x1, number in spans:
                self.canv.linkRect("", destination(number), (x0, y - 0.2 * self.size, x1, y + 0.88 * self.size),
                                   relative=1, thickness=0)

    def _latin_span(self, row: int, text: str, a: int, b: int, number: str,
                    left: float) -> tuple[float, float, str] | None:
        """The x span of ``text[a:b]`` as a Latin table sets it: inside the cell that holds it."""
        assert self.placed is not None
        for (x, cell), m in zip(self.placed[row], _CELL.finditer(text), strict=False):
            if m.start() <= a and b <= m.end():
                x0, x1 = (glyphs.width(cell[:k - m.start()], self.latin, self.size, 0.0) for k in (a, b))
                return left + x + x0, left + x + x1, number
        return None


_CELL = re.compile(r"[^ \u3000]+(?:[ \u3000][^ \u3000]+)*")  # a table's cell: words parted by single spaces


def latin_columns(lines: list[str], font: str, size: float) -> list[list[tuple[float, str]]]:
    """Each row of an aligned table as (x, text) cells in points from its left, set in the Latin
    ``font``: a cell starts where its column does, the column starting an em past the widest
    cell before it in any row that goes on into it (the draft's columns, parted by two or more
    spaces, stand for the book's; a proportional face's words do not keep the draft's cells)."""
    rows: list[list[tuple[int, str]]] = []
    for line in lines:
        found, col, pos = [], 0, 0
        for m in _CELL.finditer(line):
            col += sum(cells(ch) for ch in line[pos:m.start()])
            found.append((col, m.group()))
            col += sum(cells(ch) for ch in m.group())
            pos = m.end()
        rows.append(found)
    xs: dict[int, float] = {}
    last = 0.0
    for start in sorted({c for row in rows for c, _ in row}):
        x = last if xs else 0.0
        for row in rows:
            for (before, text), (at, _) in zip(row, row[1:]):
                if at == start:
                    x = max(x, xs[before] + glyphs.width(text, font, size, 0.0) + size)
        xs[start] = last = x
    return [[(xs[c], text) for c, text in row] for row in rows]

