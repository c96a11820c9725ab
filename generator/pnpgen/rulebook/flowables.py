"""Platypus flowables of the rulebook: justified Japanese paragraphs (their lines broken by
``paralines``), headings, diagrams on a character grid (the pictures of the pieces are in
``piecepics``, the index of terms in ``termindex``)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, KeepTogether, Paragraph

from pnpgen.rulebook import bookruby, glyphs, inline, setlines
from pnpgen.rulebook.headline import HeadText, draw_term, term_width
from pnpgen.rulebook.inline import Icon, draw_icon
from pnpgen.rulebook.jlreq import full_width_marks, jlreq_advances, squeezed
from pnpgen.rulebook.paralines import hyphenated, line_cells, measurer, paragraph_lines
from pnpgen.rulebook.styles import (
    ACCENT,
    BODY_LEADING,
    INK,
    MAX_LETTER_SPACING,
    MAX_WORD_SPACE,
)
from pnpgen.rulebook.termindex import page_destination
from pnpgen.rulebook.xrefs import destination, references_in
from pnpgen.terms import is_latin, unbracket
from pnpgen.text import linebreak as lb
from pnpgen.text.layout import ASCENT
from pnpgen.text.ruby import RUBY_SCALE

# ---------------------------------------------------------------- paragraphs


def sketching(canv) -> bool:
    """The document is in its first pass (``document.RulebookDoc``): only where things fall
    counts (the contents' and index's page numbers), the text and pictures need not be drawn."""
    return bool(getattr(canv, "sketch", False))


def terms(text: str) -> list[str]:
    """The 【terms】 of a text, in order."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "【":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == "】" and depth:
            depth -= 1
            if depth == 0 and i > start:
                out.append(text[start:i])
    return out


def mark_indexed(f: Flowable, text: str = "", parts: Sequence[Flowable] = ()) -> Flowable:
    """Let the index see what ``f`` shows besides a JPara's own lines: ``text`` (a heading, a
    sub-heading, a caption, a diagram) and ``parts`` (the flowables a table draws in its cells,
    which the document never meets one by one). Returns ``f``."""
    f.index_text, f.index_parts = text, list(parts)
    return f


def index_terms(f: Flowable) -> list[str]:
    """The 【terms】 a drawn flowable shows, for the index: a JPara's (when ``indexed``), and
    whatever ``mark_indexed`` gave it."""
    if isinstance(f, JPara):
        return f.terms()
    return terms(getattr(f, "index_text", "")) + [t for p in getattr(f, "index_parts", ()) for t in index_terms(p)]


class GridKeep(KeepTogether):
    """Flowables kept on one page, measured as the line grid will place them (the first starts
    on a grid line; each other one marked ``on_grid`` on the next grid line below it): also what
    keeps a heading with its text (``RulebookDoc.keepTogetherClass``), so a group measured as
    fitting the page's foot does fit there once its lines snap to the grid."""

    def wrap(self, aW, aH):
        w, h = super().wrap(aW, aH)
        self._H = max(self._H, grid_height(self._content, aW, aH, self.canv))
        return w, h


def grid_height(flowables: Sequence[Flowable], aW: float, aH: float, canv=None) -> float:
    """How tall ``flowables`` stand one under the other once the line grid places them. Each is
    wrapped on ``canv`` (None: measured before any page, as a rule sheet measures a step), as
    ReportLab's frame wraps it: a group kept together wraps its parts on the canvas it is given."""
    y = 0.0  # below the first one's grid line, where the frame puts it
    for i, f in enumerate(flowables):
        y += f.getSpaceBefore() if i else 0.0
        if i and getattr(f, "on_grid", False):
            y = math.ceil(y / BODY_LEADING - 1e-6) * BODY_LEADING
        y += f.wrapOn(canv, aW, aH)[1] + f.getSpaceAfter()
    return y


class JPara(Flowable):
    """A paragraph set by ``set_lines`` and justified.

    The first line starts at ``first_indent``, the others at ``left``. ``prefix`` (a bold term,
    a bullet) is drawn at the start of the first line, or at ``prefix_x`` when given (a hanging
    bullet, a proofing note's kind); the text after a prefix starts flush, an opening bracket
    without its half-em, as the lines under it do. 【terms】 are set in the accent colour (a colour, not a font, so the measured widths
    hold). It splits between lines, never leaving a single line behind or ahead. A Latin-script
    paragraph (``lang``) is justified by its word spaces, never by spacing letters.
    """

    def __init__(self, text: str, font: str, size: float, leading: float, *, color=INK,
                 first_indent: float = 0.0, left: float = 0.0, prefix: str = "", prefix_font: str | None = None,
                 prefix_x: float | None = None, lines: list[tuple[int, int]] | None = None, first: bool = True,
                 last: bool = True, indexed: bool = False, lang: str = "ja", page: tuple[str, dict] | None = None,
                 icons: tuple = (), prefix_icons: Mapping[str, Icon] | None = None,
                 setting: setlines.SetLines | None = None, anchor: str = "", links: Collection[str] = (),
                 ragged: bool = False, ruby: tuple[bookruby.Ruby, ...] = (), jukugo: tuple[bookruby.Ruby, ...] = ()):
        super().__init__()
        self.ruby = ruby  # each base's place in the text and its reading, set above it (bookruby.py)
        self.jukugo = jukugo  # each jukugo ruby's parts, which a line's end may part (bookruby.parted)
        # a Latin paragraph set flush left, ragged right (the quick reference's narrow lines: a
        # short one justified opened its two word spaces to an em each, trial49), its spaces never opened
        self.ragged = ragged
        self.anchor = anchor  # the named destination its first line is (a rule case's: xrefs.destination)
        self.links = links  # the case numbers the book sets: a reference to one links to it (xrefs.references_in)
        self.setting = setting  # the book's setting, which recalls and keeps its lines (setlines.py)
        self.icons, self.prefix_icons = icons, prefix_icons or {}  # each OBJ's icon (inline.with_icons); the prefix's
        self.page = page  # (key, pages): the page its first line is drawn on goes to pages[key]
        self.lang, self.latin = lang, is_latin(lang)
        self.indexed = indexed  # its 【terms】 go to the index (the rules' text; not the appendix)
        self.source = text  # as the draft marks it (a Latin paragraph prints its terms without 【】)
        self.spans: list[tuple[int, int]] | None = None  # a Latin text's terms, where they print
        self.text, self.spans = unbracket(text) if self.latin else (text, None)
        self.prefix_source, self.prefix_terms = prefix, terms(prefix)
        prefix = unbracket(prefix)[0] if self.latin else prefix
        self.font, self.size, self.leading = font, size, leading
        self.color, self.first_indent, self.left = color, first_indent, left
        self.prefix, self.prefix_font, self.prefix_x = prefix, prefix_font or font, prefix_x
        self.lines, self.first, self.last = lines, first, last
        # JLREQ's 約物 widths and 和欧間 when the font's marks are full-width (the jlreq style's
        # BIZ UD明朝); a proportional face (BIZ UDP明朝) sets the marks at its own widths
        self.jlreq = not self.latin and full_width_marks(font)
        if self.jlreq:  # (same length: the terms' and lines' offsets hold)
            self.text = glyphs.japanese_dashes(self.text)
        self.on_grid = abs(leading - BODY_LEADING) < 1e-6  # set at the body's 行送り: on the line grid

    def _measure(self, ch: str) -> float:
        return self.size if ch == lb.OBJ else pdfmetrics.stringWidth(ch, glyphs.font_for(ch, self.font), self.size)

    def _icon(self, at: int, x: float, y: float) -> None:
        """Draw the icon whose OBJ is the text's character ``at``, its square from ``x`` on the line at ``y``."""
        draw_icon(self.canv, self.icons[self.text.count(lb.OBJ, 0, at)], x, y, self.size)

    def _set_term(self) -> bool:
        """A Japanese item's term or run-in heading (a prefix on the text's first line) is set as
        a heading is (``headline.heading_cells``): its 約物 at their JLREQ widths in the bold
        proportional face, its ： on a full em (中点類, 3.1.9), where the face draws it half an em
        wide, touching the text after it."""
        return self.jlreq and self.prefix_x is None

    def _prefix_width(self) -> float:
        if self._set_term():
            return term_width(self.prefix, self.prefix_font, self.size, self.prefix_icons)
        return inline.width(self.prefix, self.prefix_font, self.size, self.prefix_icons, 0.0)

    def _draw_prefix(self, x: float, y: float, then: str | None = None) -> bool:
        """Draw the prefix; True when it opened a marked span over it and ``then``, its line, which
        the caller closes once the line is drawn (``headline.draw_cells``)."""
        if self._set_term():
            return draw_term(self.canv, x, y, self.prefix, self.prefix_font, self.size, self.prefix_icons, self.color,
                             then)
        inline.draw_line(self.canv, x, y, self.prefix, self.prefix_font, self.size, self.prefix_icons, gap_em=0.0)
        return False

    def _bracket_pad(self) -> float:
        """A paragraph that opens with a bracket (【 「 （) keeps the bracket's own half-em of
        space as a book's full-width bracket does; the proportional fonts set it half width."""
        if not self.text or self.text[0] not in lb.NO_END or self.prefix or self.latin:
            return 0.0
        return max(self.size - self._measure(self.text[0]), 0.0)

    def wrap(self, aw, ah):
        if self.lines is None:
            lead = self.first_indent - self.left + self._bracket_pad()
            if self.prefix and self.prefix_x is None:
                lead += self._prefix_width()
            opens = not self.prefix  # after a term, bullet or number the text starts flush
            self.lines = list(paragraph_lines(self.text, self.font, glyphs.chain(self.font), self.size,
                                              aw - self.left, lead, self.lang, self.jlreq, opens, self.setting,
                                              self.ruby, self.jukugo))
            self.ruby = bookruby.parted(self.ruby, self.jukugo, self.lines)  # (as set: a jukugo ruby parted)
        self.width = aw
        self.height = len(self.lines) * self.leading
        return aw, self.height

    def split(self, aw, ah):
        self.wrap(aw, ah)
        fit = int((ah + 1e-6) // self.leading)
        n = len(self.lines)
        if fit >= n:
            return [self]
        fit = min(fit, n - 2)  # no widow or orphan line
        if fit < 2:
            return []
        return self.parted(fit)

    def parted(self, fit: int) -> list[JPara]:
        """The paragraph as two: its first ``fit`` lines (once wrapped), and the rest."""
        assert self.lines is not None  # (set by ``wrap``)
        kw = dict(color=self.color, first_indent=self.first_indent, left=self.left, prefix=self.prefix_source,
                  prefix_font=self.prefix_font, prefix_x=self.prefix_x, indexed=self.indexed, lang=self.lang,
                  icons=self.icons, prefix_icons=self.prefix_icons, setting=self.setting, links=self.links,
                  ragged=self.ragged, ruby=self.ruby, jukugo=self.jukugo)
        return [JPara(self.source, self.font, self.size, self.leading, lines=self.lines[:fit], first=self.first,
                      last=False, page=self.page, anchor=self.anchor, **kw),
                JPara(self.source, self.font, self.size, self.leading, lines=self.lines[fit:], first=False,
                      last=self.last, **kw)]

    def terms(self) -> list[str]:
        """The 【terms】 on the lines this part shows (with its prefix, an item's term, on the
        first), for the index; none unless ``indexed``."""
        if not self.lines or not self.indexed:
            return []
        start, end = self.lines[0][0], self.lines[-1][1]
        shown = terms(self.text[start:end]) if self.spans is None else \
            [self.text[a:b] for a, b in self.spans if start <= a and b <= end]
        return (self.prefix_terms if self.first else []) + shown

    def _accent_mask(self) -> list[bool]:
        if self.spans is not None:
            return [any(a <= k < b for a, b in self.spans) for k in range(len(self.text))]
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
        if self.page is not None and self.first:
            self.page[1][self.page[0]] = c.getPageNumber()
        if sketching(c):
            return
        drawing = getattr(c, "drawing", None)  # a warm process's paragraphs as its last setting drew them
        key = self._drawing_key() if drawing is not None else None
        if key is None:
            self._draw_in_full()
        elif drawing.draw(key, self._draw_in_full):  # taken as drawn: its lines' cells are this setting's too
            for (s, _), (line, _, first_line) in zip(self.lines, self._lines()):
                if self.jlreq and not self.latin:
                    line_cells(line, self.font, glyphs.chain(self.font), self.size, first_line and not self.prefix,
                               self.setting, bookruby.in_line(self.ruby, s, s + len(line)))

    def _drawing_key(self) -> tuple | None:
        """What the paragraph's drawing is made from (``drawnparas``), when drawing it writes page
        operators and subset characters alone: None with a named destination, a link, an icon or
        a spot colour."""
        if (self.anchor and self.first) or lb.OBJ in self.text or getattr(self.color, "spotName", None) \
                or (self.prefix_icons and "{" in self.prefix) \
                or (self.links and any(n in self.links for _, _, n in references_in(self.text))):
            return None
        return (type(self), self.text, tuple(self.lines or ()), self.font, self.size, self.leading, repr(self.color),
                self.first_indent, self.left, self.prefix, self.prefix_font, self.prefix_x, self.first, self.last,
                self.jlreq, self.latin, self.ragged, self.width, self.height, tuple(self.spans or ()), self.lang,
                self.ruby)

    def _lines(self):
        """Each line as drawn: its text, its baseline (points from the paragraph's foot), and
        whether it is the paragraph's first."""
        for i, (s, e) in enumerate(self.lines):
            line = self.text[s:e].rstrip(lb.TRAILING_SPACES) + (lb.HYPHEN_CHAR if hyphenated(self.text, e) else "")
            y = self.height - (i + 1) * self.leading + (self.leading - self.size) / 2 + self.size * 0.12
            yield line, y, i == 0 and self.first

    def _draw_in_full(self):
        c = self.canv
        if self.anchor and self.first:
            c.bookmarkHorizontal(self.anchor, 0, self.height)
        mask = self._accent_mask()
        for i, ((s, _), (line, y, first_line)) in enumerate(zip(self.lines, self._lines())):
            x = self.first_indent + self._bracket_pad() if first_line else self.left
            avail = self.width - x
            # a term and the line it runs into: one marked span, read as one text (headline.draw_cells)
            spanned = False
            if first_line and self.prefix:
                c.setFillColor(self.color)
                spanned = self._draw_prefix(x if self.prefix_x is None else self.prefix_x, y,
                                            line.replace(lb.OBJ, "") if self._set_term() else None)
                if self.prefix_x is None:
                    pw = self._prefix_width()
                    x += pw
                    avail -= pw
            is_last = i == len(self.lines) - 1 and self.last
            if self.jlreq and not self.latin:  # (its slack from its JLREQ widths, not the glyphs')
                opens = first_line and not self.prefix
                self._draw_jlreq(line, s, mask, x, y, avail, is_last, opens)
                if spanned:
                    c.addLiteral("EMC")
                continue
            slack = avail - glyphs.width(line, self.font, self.size)
            if self.latin:
                self._draw_words(line, s, mask, x, y, 0.0 if is_last or self.ragged else slack)
                continue
            gaps = len(line) - 1
            spacing = 0.0
            if not is_last and gaps > 0 and 0 < slack <= MAX_LETTER_SPACING * self.size * gaps:
                spacing = slack / gaps
            if lb.OBJ not in line:
                self._draw_spaced(line, s, mask, x, y, spacing)
                continue
            at = 0
            for part in re.split(f"({lb.OBJ})", line):  # icons between the runs
                if part == lb.OBJ:
                    self._icon(s + at, x, y)
                    x += self.size + spacing
                elif part:
                    self._draw_spaced(part, s + at, mask, x, y, spacing)
                    x += glyphs.width(part, self.font, self.size) + spacing * len(part)
                at += len(part)

    def _draw_spaced(self, text: str, start: int, mask: list[bool], x: float, y: float, spacing: float) -> None:
        """A run of a proportional face's line, every character spaced alike."""
        t = self.canv.beginText(x, y)
        for piece, accent in _runs(text, [mask[min(k, len(mask) - 1)] for k in range(start, start + len(text))]):
            t.setFillColor(ACCENT if accent else self.color)
            for part, font in glyphs.runs(piece, self.font):
                t.setFont(font, self.size)
                t.setCharSpace(spacing)
                t.textOut(part)
        self.canv.drawText(t)

    def _draw_jlreq(self, line: str, start: int, mask: list[bool], x: float, y: float, avail: float,
                    is_last: bool, opens: bool) -> None:
        """One Japanese line at JLREQ's widths (``jlreq_advances``), justified by spacing every
        character alike (at most ``MAX_LETTER_SPACING``); runs whose glyphs fall where the text
        cursor is are drawn in one go."""
        rubies = bookruby.in_line(self.ruby, start, start + len(line)) if self.ruby else ()
        cells, fonts, inked = line_cells(line, self.font, glyphs.chain(self.font), self.size, opens, self.setting,
                                         rubies)
        gaps = len(line) - 1
        slack = avail - sum(a for a, _ in cells)
        if slack < -1e-6:  # a line pushed in (追い込み): its marks' aki give up what it lacks
            cells = tuple(squeezed(line, cells, self.size, -slack))
            slack = avail - sum(a for a, _ in cells)
        spacing = slack / gaps if not is_last and gaps > 0 and 0 < slack <= MAX_LETTER_SPACING * self.size * gaps else 0.0
        t = self.canv.beginText(x, y)
        t.setCharSpace(spacing)
        # the colours by number (0 the text's, 1 the accent's; the same number when they are the same
        # colour): ReportLab's colours compare slowly, and a line compared one for every character
        accent = 0 if self.color == ACCENT else 1
        cursor, font, colour, run = -1e9, "", -1, ""  # where the text cursor is; nothing set yet
        last = len(mask) - 1
        pos = x
        starts = []  # where each character's cell starts, then the line's end (a link's box)
        for k, ch in enumerate(line):
            starts.append(pos)
            advance, offset = cells[k]
            if ch == lb.OBJ:  # an icon: drawn on its own, the text cursor set anew after it
                if run:
                    t.textOut(run)
                    run = ""
                self._icon(start + k, pos + offset, y)
                cursor = -1e9
                pos += advance + spacing
                continue
            want_font = fonts[k]
            want_colour = accent if mask[min(start + k, last)] else 0
            origin = pos + offset
            if run and (want_font != font or want_colour != colour or abs(origin - cursor) > 1e-6):
                t.textOut(run)
                run = ""
            if not run:
                if want_font != font:
                    t.setFont(want_font, self.size)
                    font = want_font
                if want_colour != colour:
                    t.setFillColor(ACCENT if want_colour else self.color)
                    colour = want_colour
                if abs(origin - cursor) > 1e-6:
                    t.setTextOrigin(origin, y)
            run += ch
            cursor = origin + inked[k] + spacing
            pos += advance + spacing
        starts.append(pos - spacing)
        if run:
            t.textOut(run)
        self.canv.drawText(t)
        if rubies:
            raw = jlreq_advances(line, measurer(self.font, self.size), self.size, opens=opens)
            reached = bookruby.reach(line, raw, rubies, lambda r: glyphs.width(r, self.font, self.size * RUBY_SCALE),
                                     self.size, line=True)
            self._readings(rubies, reached, starts, spacing, start, mask, y)
        if self.links:
            self._link(start, line, starts, y)

    def _readings(self, rubies: Sequence[bookruby.Ruby], reached: Sequence[bookruby.Reach], starts: Sequence[float],
                  spacing: float, start: int, mask: list[bool], y: float) -> None:
        """The line's ruby readings at half size above their bases (``starts``: where each
        character's cell starts as drawn, then the line's end), their em box on the base's, in the
        line gap (bookruby.py), each in its base's colour, reaching over the kana beside its base
        as far as ``reached`` says (``bookruby.reach``)."""
        size = self.size * RUBY_SCALE
        t = self.canv.beginText(0, 0)
        for (s, e, reading), (lead, tail) in zip(rubies, reached, strict=True):
            right = (starts[e] - spacing if e < len(starts) - 1 else starts[e]) + tail
            fonts = [glyphs.font_for(ch, self.font) for ch in reading]
            widths = [pdfmetrics.stringWidth(ch, f, size) for ch, f in zip(reading, fonts)]
            t.setFillColor(ACCENT if mask[min(start + s, len(mask) - 1)] and self.color != ACCENT else self.color)
            for ch, f, x in zip(reading, fonts, bookruby.reading_xs(reading, widths, starts[s] - lead, right, size, e - s > 1)):
                t.setFont(f, size)
                t.setTextOrigin(x, y + ASCENT * self.size + (1 - ASCENT) * size)
                t.textOut(ch)
        self.canv.drawText(t)

    def _link(self, start: int, line: str, starts: Sequence[float], y: float) -> None:
        """Each cross reference to a case the book sets on this line (「→６．４参照」: →６．４) a link
        to where that case is (its named destination, ``xrefs.destination``): a box over its
        characters as set (``starts``: each one's x and the line's end), for a reader on screen."""
        end = start + len(line)
        for a, b, number in references_in(self.text):
            if number in self.links and a < end and b > start:
                x0, x1 = starts[max(a - start, 0)], starts[min(b - start, len(line))]
                self.canv.linkRect("", destination(number), (x0, y - 0.2 * self.size, x1, y + 0.88 * self.size),
                                   relative=1, thickness=0)

    def _draw_words(self, line: str, start: int, mask: list[bool], x: float, y: float, slack: float) -> None:
        """One Latin line: word by word, the slack shared by its word spaces (at most
        ``MAX_WORD_SPACE`` each; a looser line stays ragged), letters never spaced."""
        gaps = line.count(" ")
        extra = slack / gaps if gaps and 0 < slack <= MAX_WORD_SPACE * self.size * gaps else 0.0
        t = self.canv.beginText(x, y)
        t.setFont(self.font, self.size)
        pos = 0
        icon = self.text.count(lb.OBJ, 0, start)  # the number of the line's first icon
        starts: list[float] = []  # where each character starts, then the line's end (a link's box)
        for token in re.findall(r" +|[^ ]+", line):
            at = x
            if token[0] != " ":
                for piece, accent in _runs(token, [mask[min(start + pos + k, len(mask) - 1)] for k in range(len(token))]):
                    t.setFillColor(ACCENT if accent else self.color)
                    for part, font in glyphs.runs(piece, self.font):
                        for bit in re.split(f"({lb.OBJ})", part) if lb.OBJ in part else (part,):
                            if bit == lb.OBJ:  # an icon, an em square in the word
                                draw_icon(self.canv, self.icons[icon], x, y, self.size)
                                icon += 1
                                x += self.size
                                continue
                            t.setTextOrigin(x, y)
                            t.setFont(font, self.size)
                            t.textOut(bit)
                            x += pdfmetrics.stringWidth(bit, font, self.size)
            else:
                x += pdfmetrics.stringWidth(token, self.font, self.size) + extra * len(token)
            pos += len(token)
            if self.links:  # each character's x within the word as drawn, in proportion to the face's widths
                widths = [pdfmetrics.stringWidth(token[:k], self.font, self.size) for k in range(len(token) + 1)]
                starts += [at + (x - at) * w / (widths[-1] or 1) for w in widths[:-1]]
        self.canv.drawText(t)
        if self.links:
            self._link(start, line, [*starts, x], y)


def _runs(text: str, flags: list[bool]) -> list[tuple[str, bool]]:
    """``text`` cut where ``flags`` change: (piece, flag) pairs."""
    out: list[tuple[str, bool]] = []
    for ch, flag in zip(text, flags):
        if out and out[-1][1] == flag:
            out[-1] = (out[-1][0] + ch, flag)
        else:
            out.append((ch, flag))
    return out


# ---------------------------------------------------------------- headings and diagrams


def grid_lines(height: float, pitch: float = BODY_LEADING) -> float:
    """``height`` rounded up to whole lines of the body's line grid (a heading, a sub-heading:
    the body text after it stays on the grid)."""
    return math.ceil(height / pitch - 0.02) * pitch


class LinkedParagraph(Paragraph):
    """A ReportLab Paragraph of plain ``text`` (a Latin book's figure caption) whose cross references
    to a case ``links`` holds ("(see 6.3)") are links to it, as a JPara's are. Which cases the book
    sets is known once the story is made, after the caption (a figure after 5.0 names 6.3): its
    links are marked when it is first wrapped, before any page is drawn."""

    def __init__(self, text, style, bulletText=None, frags=None, links: Collection[str] | None = None, **kw):
        self.plain = text if links is not None else None  # (None: a part ReportLab split off, its links marked)
        self.links = links if links is not None else ()
        super().__init__(glyphs.markup(text, style.fontName) if links is not None else text, style, bulletText=bulletText,
                         frags=frags, **kw)

    def wrap(self, aw, ah):
        if self.plain is not None:
            font, marked, at = self.style.fontName, [], 0
            for a, b, number in references_in(self.plain):
                if number in self.links:
                    marked += [glyphs.markup(self.plain[at:a], font),
                               f'<a href="#{destination(number)}">{glyphs.markup(self.plain[a:b], font)}</a>']
                    at = b
            if marked:
                Paragraph.__init__(self, "".join(marked) + glyphs.markup(self.plain[at:], font), self.style)
            self.plain = None
        return super().wrap(aw, ah)


class Heading(Flowable):
    """A numbered heading that feeds the contents, the PDF outline and the running header."""

    def __init__(self, number: str, text: str, level: int, style, *, mark: str | None = None,
                 key: str, bar: bool = False, rule: bool = False, space_before: float = 0, space_after: float = 0,
                 gap: str = "　", pages: dict[str, int] | None = None, icons: Mapping[str, Icon] | None = None,
                 lang: str = "ja"):
        super().__init__()
        self.pages = pages  # where the heading was drawn, by key: the quick reference's page numbers
        self.number, self.text, self.level = number, text, level
        self.style, self.mark, self.key = style, mark, key
        self.bar, self.rule = bar, rule
        self.toc_text = f"{number}{gap}{text}" if number else text  # gap: an en space in Latin faces
        self._para = HeadText(self.toc_text, style, icons=icons, latin=is_latin(lang), lang=lang,
                              hang=len(f"{number}{gap}") if number else 0)
        self.spaceBefore, self.gap_after = space_before, space_after
        self.spaceAfter = 0  # taken into its grid lines (``grid_lines``)
        self.keepWithNext = 1
        self.on_grid = True
        self.draft_line = 0  # the draft line it was set from, for a message
        self.anchors: tuple[str, ...] = ()  # named destinations it is (a rule case's: xrefs.destination)

    def wrap(self, aw, ah):
        self._indent = 3.2 * mm if self.bar else 0
        _, h = self._para.wrap(aw - self._indent, ah)
        self._own = h + (2.2 * mm if self.rule else 0)
        self.width, self.height = aw, grid_lines(self._own + self.gap_after)
        return self.width, self.height

    def draw(self):
        c = self.canv
        if self.pages is not None:
            self.pages[self.key] = c.getPageNumber()
        for name in self.anchors:
            c.bookmarkHorizontal(name, 0, self.height)
        base = (self.height - self._own - self.gap_after) / 2 + self.gap_after  # centred in its lines
        extra = 2.2 * mm if self.rule else 0
        self._para.drawOn(c, self._indent, base + extra)
        if self.bar:
            c.setFillColor(ACCENT)
            c.rect(0, base + extra + 1, 1.3 * mm, self._own - extra - 2, stroke=0, fill=1)
        if self.rule:
            c.setStrokeColor(ACCENT)
            c.setLineWidth(0.8)
            c.line(0, base + 0.8 * mm, self.width, base + 0.8 * mm)


class PageNumber(Flowable):
    """The page a heading was drawn on (``Heading.pages``), right-aligned in its cell: read when
    drawn, so it is the page of this pass (the headings it names come earlier in the book). On
    screen it links to that page, as the contents' and the index's numbers do."""

    def __init__(self, key: str, pages: dict[str, int], text: Callable[[int], str], font: str, size: float):
        super().__init__()
        self.key, self.pages, self.text, self.font, self.size = key, pages, text, font, size

    def wrap(self, aw, ah):
        self.width, self.height = aw, self.size * 1.4
        return self.width, self.height

    def draw(self):
        page = self.pages.get(self.key)
        if page is not None:
            text = self.text(page)
            glyphs.draw(self.canv, self.width, self.size * 0.35, text, self.font, self.size, "right")
            if not sketching(self.canv):
                left = self.width - glyphs.width(text, self.font, self.size)
                self.canv.linkRect("", page_destination(page), (left, 0, self.width, self.height), relative=1,
                                   thickness=0)
