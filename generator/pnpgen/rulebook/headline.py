"""The lines of a heading (a section's, a step's, a ``◇`` sub-heading's) and of a contents entry,
set as the book's text is and drawn glyph by glyph.

A Japanese heading's 約物 take their JLREQ advances beside their neighbours (``jlreq_advances``,
3.1: brackets 「」『』（）【】 and stops half an em of ink with the aki the body gives them,
連続約物 closed up, the 中点類 ・：； a quarter em either side), in the proportional bold or gothic
face the headings are set in as in a fixed-width one: each glyph is drawn where its em box falls
(an opening bracket's ink at the right of its half em, a closing one's at the left, a 中点類's
centred), so the text the PDF holds is the heading's own — a copied or searched heading, and the
PDF outline, hold no spaces it did not have. Lines break where the body's lines may (JLREQ's
禁則), at a phrase (文節) by preference; a Latin heading breaks at its spaces, unhyphenated, and a
last line of one word takes the word before it down with it (a heading's line of one word reads
as a fragment)."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

from pnpgen import fonts as fontreg
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.inline import Icon, draw_icon, with_icons
from pnpgen.rulebook.jlreq import full_width_marks, jlreq_advances
from pnpgen.rulebook.styles import ACCENT
from pnpgen.rulebook.xrefs import destination, references_in
from pnpgen.text import linebreak as lb
from pnpgen.text.linebreak import CLOSING, MIDDLE, OPENING, STOPS

_WHITE = re.compile(r"[ \t\n\u2002\u2003\u2009\u3000]+")
_IDEO = "\ue000"  # a private-use stand-in for a heading's 　 while its icons are read
Cells = Sequence[tuple[float, float]]  # per character: (advance, offset of its glyph's origin), points


def measurer(font: str, size: float) -> Callable[[str], float]:
    """A character's advance in the font that draws it; an icon's (OBJ) an em."""
    return lambda ch: size if ch == lb.OBJ else pdfmetrics.stringWidth(ch, glyphs.font_for(ch, font), size)


@lru_cache(maxsize=2048)
def heading_cells(text: str, font: str, size: float, latin: bool, closes: bool = True) -> Cells:
    """(advance, offset) of each character of a heading's line: a Latin heading's glyphs at their
    own widths; a Japanese one's by ``jlreq_advances`` (a quarter em of 和欧間 between Japanese
    and a Latin letter or digit, as the body sets it, JLREQ 3.2.1: 「第2版」, 「（Wrath of God）の」;
    ``closes=False``: text follows on the line, as after a run-in heading or an item's term), the
    約物 of a proportional face placed where a full-width glyph's ink would be (``placed``)."""
    measure = measurer(font, size)
    if latin:
        return tuple((measure(ch), 0.0) for ch in text)
    cells = jlreq_advances(text, measure, size, opens=False, closes=closes)
    return tuple(cells if full_width_marks(glyphs.font_for("、", font)) else placed(text, cells, measure, size))


def placed(text: str, cells: Sequence[tuple[float, float]], measure: Callable[[str], float], em: float) -> Cells:
    """``cells`` (set for a full-width face, whose 約物 carry their ink in their em box) for a
    proportional face, whose 約物 are their ink and a little side space: an opening bracket's glyph
    ends where a full-width one's em box ends, a closing bracket's or stop's starts where its box
    starts, a 中点類's is centred on its box's middle."""
    roles = lb.quote_roles(text)
    out: list[tuple[float, float]] = []
    for i, (ch, (advance, offset)) in enumerate(zip(text, cells, strict=True)):
        if i in roles and roles[i] == "open" and ch not in OPENING:  # a ”…” used both ways: as measured
            out.append((advance, offset))
        elif ch in OPENING:
            out.append((advance, offset + em - measure(ch)))
        elif ch in MIDDLE:
            out.append((advance, offset + (em - measure(ch)) / 2))
        else:  # closing brackets and stops at the start of their box; the rest as measured
            out.append((advance, offset if ch in CLOSING or ch in STOPS else 0.0))
    return out


@lru_cache(maxsize=1024)
def heading_lines(text: str, font: str, size: float, width: float, latin: bool, lang: str,
                  hang: float = 0.0) -> tuple[tuple[int, int], ...]:
    """The lines of ``text`` set ``width`` points wide, as (start, end) offsets (their trailing
    spaces included): JLREQ's breaks, a phrase's end first; a Latin text at its spaces, its last
    line never one word when the line above can give it a second (``two_words_down``); the lines
    after the first ``hang`` points narrower (they hang after a heading's number or mark). Kept by
    its arguments: the contents set each entry again on every pass of the book."""
    if not text:
        return ()
    units = list(text)
    widths = [a for a, _ in heading_cells(text, font, size, latin)]
    spaces = [u in lb.SPACES for u in units]
    classes = lb.break_classes(units, phrases=not latin, lang=lang, hyphenate=False)
    lines = lb.fill(classes, widths, spaces, width, hang=hang, force=True)
    return tuple(two_words_down(lines, units, classes, widths, width - hang) if latin else lines)


def two_words_down(lines: list[tuple[int, int]], units: Sequence[str], classes: Sequence[int],
                   widths: Sequence[float], width: float, loosest: float | None = None) -> list[tuple[int, int]]:
    """``lines`` of a Latin text whose last line is one word (a runt: 'the game / ends.') with
    the last word of the line above taken down to it, when the two fit the line, the line above
    keeps a word and (``loosest``, points) its word spaces, justified, open by no more than that
    each; else as they are. A line above that ends in a hyphen keeps its word's part."""
    if len(lines) < 2:
        return lines
    (ps, pe), (s, e) = lines[-2], lines[-1]
    starts = [k for k in range(ps + 1, e) if units[k - 1] in lb.SPACES and units[k] not in lb.SPACES
              and classes[k] == lb.PHRASE]  # where a word starts after a space
    if any(k > s for k in starts) or units[pe - 1] not in lb.SPACES:
        return lines  # the last line holds two words already, or the word above was split
    above = [k for k in starts if k < pe]
    if not above or sum(widths[above[-1]:e]) > width + 1e-6:
        return lines
    if loosest is not None:
        inked = max(k for k in range(ps, above[-1]) if units[k] not in lb.SPACES) + 1
        gaps = len(above) - 1
        if not gaps or (width - sum(widths[ps:inked])) / gaps > loosest:
            return lines
    return [*lines[:-2], (ps, above[-1]), (above[-1], e)]


class HeadText(Flowable):
    """A heading's text in its ParagraphStyle's font, size, leading and colour, ``mark`` (◆, the
    contents' nothing) before it in the accent colour and a space; known ``{icons}`` an em square
    each. Lines as ``heading_lines`` sets them, the first baseline an ascent below the top (as a
    ReportLab Paragraph sets it). A wrapped heading's later lines hang after its mark and the space
    after it, or (``hang``: that many characters of ``text``) after its number and the gap after
    that, as a book sets a numbered heading and as the text's numbered steps hang after their
    number: a second line under the number hid where the title starts.

    What the PDF's text holds (a copy, a search): the space after the mark is a gap, no character
    (「●ゲームの流れ」, as the run-in 「●雇用」 copies); in a Japanese heading an ideographic space
    the text has (the gap after a section's number, 「3　ゲームの準備」, as the PDF outline holds it)
    is that character, set a full em of the heading's size (全角アキ between a heading's number and
    its text, JLREQ 4.1.2 別行見出しの構成, https://www.w3.org/TR/jlreq/#elements_of_block_heading:
    it printed as the face's word space, some 0.3 em), its line a marked span whose ActualText is
    the line's own text (PDFium and poppler read the blank glyph as an ASCII space)."""

    def __init__(self, text: str, style, *, icons: Mapping[str, Icon] | None = None, latin: bool = False,
                 lang: str = "ja", mark: str = "", centred: bool = False, links: Collection[str] = (),
                 hang: int = 0):
        super().__init__()
        self.links = links  # the case numbers the book sets: a reference to one links to it (a caption's)
        self.style, self.latin, self.lang = style, latin, lang
        # ``centred``: each line centred on the width (a figure's caption); its ideographic spaces are
        # a full em as a heading's are, as JLREQ sets the 全角アキ after a figure's number (「図1　3人
        # プレイ…」: a word space read 「図1 3人」 as one number)
        self.centred = centred
        self.spaceBefore, self.spaceAfter = style.spaceBefore, style.spaceAfter
        self.source = text
        lead = f"{mark} " if mark else ""
        # its spaces one word space each, as a ReportLab Paragraph sets them, but a Japanese
        # heading's 　 (the gap after its number): kept in the text it copies as and set an em wide
        # (_IDEO stands for it until the icons' names are replaced, which moves the offsets)
        spaced = _WHITE.sub(lambda m: _IDEO if m.group(0) == "\u3000" and not latin else " ", lead + text)
        spaced, self.icons = with_icons(spaced, icons or {})
        self.ideographic = frozenset(k for k, ch in enumerate(spaced) if ch == _IDEO)
        self.text = spaced.replace(_IDEO, "\u3000")
        self.marked = len(lead.rstrip())  # characters drawn in the accent colour
        self.silent = frozenset({self.marked} if mark else ())  # the mark's space: a gap, not text
        # the characters the lines after the first hang after: the mark and its space, or the number
        # and its gap (a centred caption's lines are centred)
        self.hang = 0 if centred else len(lead) + hang
        self.hang_width = 0.0
        self.lines: tuple[tuple[int, int], ...] = ()
        self.width = self.height = 0.0

    def wrap(self, aw, ah):
        st = self.style
        # (a 　 an em, wider than a proportional face's own may be: room kept for it)
        wider = (st.fontSize - measurer(st.fontName, st.fontSize)("\u3000")) * self.text.count("\u3000")
        self.hang_width = sum(a for a, _ in self._cells(self.text[:self.hang])) if self.hang else 0.0
        if self.hang_width > (aw - wider) / 2:  # a number or mark half the line wide: no room to hang
            self.hang_width = 0.0
        self.lines = heading_lines(self.text, st.fontName, st.fontSize, aw - wider, self.latin, self.lang,
                                   self.hang_width)
        self.width, self.height = aw, len(self.lines) * st.leading
        return aw, self.height

    def line_widths(self) -> list[float]:
        """Each line's inked width in points (its trailing spaces left out), as set."""
        return [sum(a for a, _ in self._cells(line)) for line in self._texts()]

    def _texts(self) -> list[str]:
        return [self.text[s:e].rstrip(lb.TRAILING_SPACES) for s, e in self.lines]

    def _cells(self, line: str) -> Cells:
        cells = heading_cells(line, self.style.fontName, self.style.fontSize, self.latin)
        return tuple((self.style.fontSize, 0.0) if ch == "\u3000" else cell for ch, cell in zip(line, cells, strict=True))

    def baseline(self, n: int) -> float:
        """The baseline of line ``n`` (from 0), from the flowable's bottom: the first an em below
        its top, as a ReportLab Paragraph of the style sets it."""
        st = self.style
        return self.height - st.fontSize - n * st.leading

    def draw(self):
        drawing = getattr(self.canv, "drawing", None)  # a warm process's headings as its last setting drew them
        if drawing is None or self.icons or (self.links and any(n in self.links for _, _, n in references_in(self.text))):
            self._draw_in_full()
            return
        st = self.style
        drawing.draw((type(self), self.text, tuple(self.lines), st.fontName, st.fontSize, st.leading, repr(st.textColor),
                      self.marked, self.silent, self.ideographic, self.width, self.height, self.centred, self.latin,
                      self.hang_width),
                     self._draw_in_full)

    def _draw_in_full(self) -> None:
        st = self.style
        for n, ((s, _), line) in enumerate(zip(self.lines, self._texts(), strict=True)):
            x = (self.width - sum(a for a, _ in self._cells(line))) / 2 if self.centred else self.hang_width if n else 0.0
            draw_cells(self.canv, x, self.baseline(n), line, self._cells(line), st.fontName, st.fontSize,
                       st.textColor, accent=max(self.marked - s, 0),
                       icons=self.icons[self.text.count(lb.OBJ, 0, s):],
                       silent=frozenset(k - s for k in self.silent if k >= s),
                       ideographic=frozenset(k - s for k in self.ideographic if k >= s))
            if self.links:
                self._link(s, line, x, self.baseline(n))

    def _link(self, start: int, line: str, x: float, y: float) -> None:
        """Each cross reference to a case the book sets on this line (a caption's 「→６．４参照」) a
        link to where the case is, as a paragraph's (``JPara._link``): a box over its cells."""
        size = self.style.fontSize
        edges = [x]
        for advance, _ in self._cells(line):
            edges.append(edges[-1] + advance)
        for a, b, number in references_in(self.text):
            if number in self.links and a < start + len(line) and b > start:
                x0, x1 = edges[max(a - start, 0)], edges[min(b - start, len(line))]
                self.canv.linkRect("", destination(number), (x0, y - 0.2 * size, x1, y + 0.88 * size),
                                   relative=1, thickness=0)


def draw_cells(canv, x: float, y: float, line: str, cells: Cells, font: str, size: float, colour,
               accent: int = 0, icons: Sequence[Icon] = (), run_on: bool = False,
               silent: frozenset[int] = frozenset(), ideographic: frozenset[int] = frozenset(),
               span_after: str | None = None) -> bool:
    """``line`` drawn from ``x`` on the baseline ``y``, each glyph at its cell (``heading_cells``),
    in ``colour`` (its first ``accent`` characters in the accent colour), each OBJ the next of
    ``icons``. The glyphs are one run of text, each followed by the character spacing (PDF ``Tc``)
    that brings the next to its place, not moved there: a text extractor reads the heading's own
    characters, where a glyph moved half an em on (``Td``) read as a space before it. ``run_on``:
    text follows on the line (a term's), and the last glyph's spacing runs to its cell's end, where
    that text starts (an item's ： is a quarter em of ink short of it, read as a space after it).
    ``silent``: the offsets of characters that are a gap on the line and no text (a mark's space);
    ``ideographic``: those of spaces held in the text as 　 (U+3000), each drawn over its cell.
    ``span_after``: the text drawn after the line (a term's paragraph's first line): the marked
    span a gapped line opens holds it too and is left open for the caller to close (``EMC``) once
    it is drawn (True returned) — PDFium ended a term's span with a space (「（３）： 手札を」,
    「（Wrath of God）　 戦争」)."""
    glyph_at: list[tuple[str, str, float, float]] = []  # (character, font, origin, width)
    after_icon: set[int] = set()  # the glyphs an icon stands before
    pos = x
    icon = iter(icons)
    for k, (ch, (advance, offset)) in enumerate(zip(line, cells, strict=True)):
        if k in silent:
            pos += advance
            continue
        if k in ideographic:
            ch = "\u3000"
        if ch == lb.OBJ:
            draw_icon(canv, next(icon), pos + offset, y, size)
            after_icon.add(len(glyph_at))
        else:
            face = glyphs.font_for(ch, font)
            glyph_at.append((ch, face, pos + offset, pdfmetrics.stringWidth(ch, face, size)))
        pos += advance
    if not glyph_at:
        return False
    gaps = [glyph_at[k + 1][2] - origin - width for k, (_, _, origin, width) in enumerate(glyph_at[:-1])] + [0.0]
    # a gap a viewer would read as a space (an icon's is the icon's); or an ideographic space, which
    # PDFium and poppler read from the glyph as an ASCII one (「1 概要」 copied for 「1　概要」)
    spaced = any(gap > 0.01 * size and k + 1 not in after_icon for k, gap in enumerate(gaps)) \
        or any(ch == "\u3000" for ch, *_ in glyph_at)
    if run_on and line[-1] != lb.OBJ:
        gaps[-1] = max(pos - glyph_at[-1][2] - glyph_at[-1][3], 0.0)
    t = canv.beginText(glyph_at[0][2], y)
    face, tint, spacing, run = "", None, 0.0, ""
    for k, (ch, want, _, _) in enumerate(glyph_at):
        paint = ACCENT if k < accent else colour
        # a run of glyphs alike is one string, except in a marked span, where each glyph is its own
        # (so each one's place can be read back as drawn)
        if run and (spaced or want != face or paint != tint or abs(gaps[k] - spacing) > 1e-6):
            t.textOut(run)
            run = ""
        if want != face:
            t.setFont(want, size)
            face = want
        if paint != tint:
            t.setFillColor(paint)
            tint = paint
        if abs(gaps[k] - spacing) > 1e-6:
            t.setCharSpace(gaps[k])
            spacing = gaps[k]
        run += ch
    t.textOut(run)
    if spacing:
        t.setCharSpace(0)
    if not spaced:
        canv.drawText(t)
        return False
    if span_after is not None:
        canv.addLiteral(f"/Span <</ActualText <{glyphs.actual_text(''.join(g[0] for g in glyph_at) + span_after)}>>> BDC")
        canv.drawText(t)
        return True
    # the line's text as it is, for a viewer's copy and search: a viewer reads a gap between two
    # glyphs (the half em before a bracket, the quarter round a ・) as a space (pypdf follows Tc)
    canv.addLiteral(f"/Span <</ActualText <{glyphs.actual_text(''.join(g[0] for g in glyph_at))}>>> BDC")
    canv.drawText(t)
    canv.addLiteral("EMC")
    return False


def term_cells(line: str, font: str, size: float) -> Cells:
    """The cells of a Japanese run-in heading or item's term set before its text: the term's
    last mark keeps its space for the text after it (``closes=False``: an item's ： its full em),
    except before the em's space a run-in heading ends with, which stands for it (JLREQ's 追い込み
    見出し: 「（Wrath of God）」 then an em, not the bracket's half em and an em)."""
    head = line.rstrip(" \u3000")
    tail = line[len(head):]
    return [*heading_cells(head, font, size, False, closes=bool(tail)), *((measurer(font, size)(ch), 0.0) for ch in tail)]


def term_width(text: str, font: str, size: float, known: Mapping[str, Icon]) -> float:
    """The advance of a Japanese run-in heading or item's term ``text`` (``{icons}`` an em each)
    set before its text (``term_cells``)."""
    line, _ = with_icons(text, known)
    return sum(a for a, _ in term_cells(line, font, size))


def draw_term(canv, x: float, y: float, text: str, font: str, size: float, known: Mapping[str, Icon], colour,
              then: str | None = None) -> bool:
    """``text`` as ``term_width`` sets it, drawn from ``x`` on the baseline ``y``; ``then``: the
    text of the line it runs into, which the caller draws next and then closes the marked span
    this opens over both (``draw_cells``' ``span_after``): True when it opened one."""
    line, icons = with_icons(text, known)
    return draw_cells(canv, x, y, line, term_cells(line, font, size), font, size, colour, icons=icons, run_on=True,
                      span_after=then)


# a font file saved over while the book's process runs: set with its new widths (fonts.saved_since)
fontreg.when_saved(heading_lines.cache_clear)
fontreg.when_saved(heading_cells.cache_clear)
