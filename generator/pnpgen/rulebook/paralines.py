"""A paragraph's lines for the rulebook: where the book breaks them (``set_lines``: JLREQ's
rules for Japanese, word spaces and hyphens for a Latin script, the last line never too short)
and the JLREQ cells of one line as drawn (``line_cells``); both kept by their arguments, and by
the book's last setting (setlines.py). ``flowables.JPara`` draws what these work out."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from pnpgen import fonts as fontreg
from pnpgen.rulebook import bookruby, glyphs, setlines
from pnpgen.rulebook.headline import two_words_down
from pnpgen.rulebook.jlreq import READING_STOPS, jlreq_advances, squeezable
from pnpgen.rulebook.styles import (
    EVEN_LETTER_SPACING,
    LOOSE_WORD_SPACE,
    MAX_HYPHENS_IN_A_ROW,
    MAX_LETTER_SPACING,
    MAX_WORD_SPACE,
    MIN_LAST_LINE,
)
from pnpgen.terms import is_latin
from pnpgen.text import linebreak as lb
from pnpgen.text.ruby import RUBY_SCALE

PREFIX = "〘"  # stands for the first-line indent or term in the line breaker (a no-line-end bracket)


def _visible(text: str) -> int:
    """Characters that count for a last line: punctuation and spaces do not."""
    return sum(1 for ch in text if not ch.isspace() and not unicodedata.category(ch).startswith("P"))


def set_lines(text: str, width: float, measure: Callable[[str], float], lead: float = 0.0,
              em: float = 9.0, lang: str = "ja", advances: Sequence[float] | None = None,
              squeeze: Sequence[float] | None = None, glue: Sequence[int] = ()) -> list[tuple[int, int]]:
    """Lines of ``text`` as (start, end) offsets; the first line starts ``lead`` points in.

    Japanese is set as a book is: character by character within the JLREQ rules
    (``text.linebreak.fill``, no phrase breaks, so lines are full and justified with little
    spacing). A last line shorter than ``MIN_LAST_LINE`` characters takes characters down from
    the line above (追い出し) when that line can give them without spacing beyond
    ``MAX_LETTER_SPACING`` — unless the line above can take it whole by giving up the aki its
    読点, brackets and 中点類 may give (``squeeze``, per character: ``jlreq.squeezable``), when
    it is pushed in instead (追い込み before 追い出し, JLREQ 3.8.2: 「…分のＶＰを得る」 on one line,
    not 「…分のＶＰ」 spaced out over 「を得る」); any line that would be spaced out is first pushed
    in so where that is the smaller adjustment (``_pushed_in``). A Latin-script text (``lang``) is set by ``_latin_lines``, a last
    line of one word (a runt) taking the word above it down when that line's word spaces stay
    within ``MAX_WORD_SPACE`` (``headline.two_words_down``). Either way
    a Latin word breaks at a hyphenation point with a hyphen (``hyphenated``); a run wider than
    the line with none that fits (an address's long part) breaks at the edge, not run off it.
    ``advances``: widths as set beside neighbours (``jlreq_advances``), else measured alone;
    ``glue``: the characters no line starts with (a ruby's base after its first, bookruby.glued)."""
    if not text:
        return []
    units = [PREFIX, *text]
    widths = [lead] + (list(advances) if advances is not None else [measure(ch) for ch in text])
    hyphens = [measure(lb.HYPHEN_CHAR)] * (len(units) + 1)
    spaces = [u in lb.SPACES for u in units]
    classes: Sequence[int]
    if is_latin(lang):
        classes = lb.break_classes(units, phrases=False, lang=lang)
        # a last line of one word takes the word above it down (a runt), the line above still justified
        ranges = two_words_down(_latin_lines(classes, widths, spaces, width, hyphens, em), units, classes, widths,
                                width, MAX_WORD_SPACE * em)
    else:
        # every allowed gap is as good as another (after 、 too): lines are filled to the edge
        def classes_of(h):
            out = [lb.CHAR if c == lb.PHRASE else c for c in lb.break_classes(units, False, lang, h)]
            for k in glue:
                out[k + 1] = lb.KINSOKU
            return out

        classes, ranges = lb.fill_hyphenating_late(classes_of, widths, spaces, width, hyphens, force=True)
        gives = [0.0, *(squeeze or [0.0] * len(text))]
        ranges = _pushed_in(ranges, units, classes, widths, spaces, width, hyphens, em, gives)
        kept = _keep_last_line(ranges, units, classes, widths, width, em, gives)
        kept = _spread_over_two(kept, units, classes, widths, spaces, hyphens, width, em, gives)
        if _above_last(kept, widths, width) > EVEN_LETTER_SPACING * em:  # two characters rather than a loose line
            two = _keep_last_line(ranges, units, classes, widths, width, em, gives, least=2)
            kept = two if _above_last(two, widths, width) < _above_last(kept, widths, width) else kept
        ranges = kept
    return [(max(s - 1, 0), e - 1) for s, e in ranges]


def hyphenated(text: str, end: int) -> bool:
    """A line of ``text`` ending at ``end`` splits a Latin word (at a hyphenation point or the
    line's edge) and is drawn with a hyphen; not in a web address, typed as printed (CMOS 14.18)."""
    return 0 < end < len(text) and lb.latin_letter(text[end - 1]) and lb.latin_letter(text[end]) and not lb.in_address(text, end)


def _pushed_in(ranges, units, classes, widths, spaces, width, hyphens, em, squeeze):
    """``ranges`` with each line that would be spaced out taking the text up to the next break
    instead when its marks' aki (``squeeze``) can make room for it and that is the smaller
    adjustment (JLREQ 3.8.2: 追い込み before 追い出し, the lesser of the two); the lines after a
    pushed-in line are filled again from its new end. A line's end aki (行末二分) counts for nothing,
    so a 、 that fits without it ends the line."""
    n = len(units)
    out: list[tuple[int, int]] = []
    rest = list(ranges)
    while len(rest) > 1:
        s, e = rest[0]
        end = _push_in_end(s, e, units, classes, widths, width, em, squeeze)
        if end != e:
            refilled = [(a + end, b + end) for a, b in
                        lb.fill(classes[end:], widths[end:], spaces[end:], width, hyphens[end:], force=True)] if end < n else []
            pushed = [(s, end), *refilled]
            if _worst(pushed, units, widths, width, em, squeeze) <= _worst(rest, units, widths, width, em, squeeze):
                rest = pushed
        out.append(rest[0])
        rest = rest[1:]
    return out + rest


def _worst(lines, units, widths, width, em, squeeze) -> float:
    """The largest adjustment per gap, pushed in or spaced out, of ``lines`` but the last (a
    pushed-in line is no gain when it leaves a line below it spaced wider than any was)."""
    return max((abs(width - _set_width(s, e, units, widths, em, squeeze)) / max(e - s - 1, 1)
                for s, e in lines[:-1]), default=0.0)


def _push_in_end(s, e, units, classes, widths, width, em, squeeze) -> int:
    """Where the line [s, e) ends pushed in: at the next break (no 禁則 rule broken) when
    giving up its marks' aki takes less than spacing it out would give, else ``e``."""
    end = e + 1
    while end < len(units) and classes[end] not in (lb.CHAR, lb.PHRASE):
        end += 1
    if end < len(units) and classes[end] not in (lb.CHAR, lb.PHRASE):
        return e
    if sum(widths[s:end]) - sum(squeeze[s:end]) > width + 1e-6:  # (a line's end aki is dropped as squeeze is)
        return e
    spread = width - _set_width(s, e, units, widths, em, squeeze)
    needed = _set_width(s, end, units, widths, em, squeeze) - width
    return end if needed <= spread else e


def _set_width(s, e, units, widths, em, squeeze) -> float:
    """The line [s, e)'s width as drawn before any adjustment: a wrapped line's opening bracket
    without its half em before it (天付き), its last mark without the aki after it (行末二分)."""
    first, last = units[s], units[e - 1]
    lead = squeeze[s] if s > 0 and first in lb.OPENING else 0.0
    tail = (squeeze[e - 1] if last in READING_STOPS or last in lb.CLOSING else
            max(widths[e - 1] - em / 2, 0.0) if last in lb.STOPS else em / 4 if last in lb.MIDDLE else 0.0)
    return sum(widths[s:e]) - lead - tail


def _above_last(ranges, widths, width) -> float:
    """The spacing per gap of the line above the last (0 for a paragraph of one line)."""
    if len(ranges) < 2:
        return 0.0
    s, e = ranges[-2]
    return (width - sum(widths[s:e])) / max(e - s - 1, 1)


def _keep_last_line(ranges, units, classes, widths, width, em, squeeze, least: int = MIN_LAST_LINE):
    """``ranges`` with a last line of ``least`` characters at least (punctuation not counted), taken
    down from the line above (追い出し) or that line taking it whole, pushed in (追い込み)."""
    if len(ranges) < 2:
        return ranges
    (ps, pe), (s, e) = ranges[-2], ranges[-1]
    if _visible("".join(units[s:e])) >= least:
        return ranges
    if sum(widths[ps:e]) - sum(squeeze[ps:e - 1]) <= width + 1e-6:  # (the last character's aki goes at the end)
        return ranges[:-2] + [(ps, e)]
    for cut in range(pe - 1, ps + 1, -1):
        if sum(widths[cut:e]) > width + 1e-6:
            break
        if (width - sum(widths[ps:cut])) / max(cut - ps - 1, 1) > MAX_LETTER_SPACING * em:
            break
        if classes[cut] == lb.CHAR and _visible("".join(units[cut:e])) >= least:
            return ranges[:-2] + [(ps, cut), (cut, e)]
    return ranges


def _spread_over_two(ranges, units, classes, widths, spaces, hyphens, width, em, squeeze):
    """``ranges`` with the line above a short last line's, spaced out wider than
    ``EVEN_LETTER_SPACING`` to give it its characters (0.064 to 0.08 em beside lines of 0.01: a
    loose line an editor marks), sharing that spacing with the line above it: that line gives
    a character or more down, and the two lines under it are filled again, as many lines as
    before, the last still of ``MIN_LAST_LINE`` characters."""
    if len(ranges) < 3:
        return ranges

    def spacing(s: int, e: int) -> float:
        return (width - sum(widths[s:e])) / max(e - s - 1, 1)

    (qs, qe), (ps, pe), (s, e) = ranges[-3:]
    worst = _above_last(ranges, widths, width)
    if worst <= EVEN_LETTER_SPACING * em or _visible("".join(units[s:e])) < MIN_LAST_LINE:
        return ranges
    for cut in range(qe - 1, qs + 1, -1):
        if spacing(qs, cut) >= worst:
            break
        if classes[cut] != lb.CHAR:
            continue
        refilled = [(a + cut, b + cut) for a, b in
                    lb.fill(classes[cut:], widths[cut:], spaces[cut:], width, hyphens[cut:], force=True)]
        if len(refilled) != 2:
            continue
        refilled = _keep_last_line(refilled, units, classes, widths, width, em, squeeze)
        (rs, re_), (ls, le) = refilled if len(refilled) == 2 else ((0, 0), (0, 0))
        if le == e and _visible("".join(units[ls:le])) >= MIN_LAST_LINE \
                and max(spacing(qs, cut), spacing(rs, re_)) < worst:
            return [*ranges[:-3], (qs, cut), *refilled]
    return ranges


def _latin_lines(classes: Sequence[int], widths: Sequence[float], spaces: Sequence[bool], width: float,
                 hyphens: Sequence[float], em: float) -> list[tuple[int, int]]:
    """Greedy lines of a Latin-script paragraph, as ``lb.fill`` breaks them (at spaces; a word
    longer than the line at its hyphenation points), except that a line ending at a space with
    word spaces looser than ``LOOSE_WORD_SPACE`` takes the next word's first part, up to the
    last hyphenation point that fits, and a hyphen — unless the ``MAX_HYPHENS_IN_A_ROW`` lines
    above it all end with one (Bringhurst 2.4.4: a ladder of hyphens; a word longer than the
    line is still broken)."""
    n = len(widths)
    out: list[tuple[int, int]] = []
    start = run = 0
    while start < n:
        _, end = lb.fill(classes[start:], widths[start:], spaces[start:], width, hyphens[start:], force=True)[0]
        end += start
        if end < n and spaces[end - 1] and run < MAX_HYPHENS_IN_A_ROW:
            end = _hyphenate_next(classes, widths, spaces, width, hyphens, em, start, end)
        run = run + 1 if end < n and classes[end] in (lb.HYPHEN, lb.WORD) else 0
        out.append((start, end))
        start = end
    return out


def _hyphenate_next(classes, widths, spaces, width, hyphens, em, start: int, end: int) -> int:
    inked = [i for i in range(start, end) if not spaces[i]]
    stop = end + 1
    while stop < len(widths) and classes[stop] in (lb.WORD, lb.HYPHEN):
        stop += 1
    # a compound (``resource-collecting``) breaks only at its own hyphen (CMOS 7.42), never ``re-``
    if not inked or stop < len(widths) and classes[stop] == lb.PHRASE:
        return end
    used = sum(widths[start:inked[-1] + 1])
    gaps = sum(1 for i in range(inked[0], inked[-1]) if spaces[i])
    if (width - used) / max(gaps, 1) <= LOOSE_WORD_SPACE * em:
        return end
    for p in range(stop - 1, end, -1):
        if classes[p] == lb.HYPHEN and sum(widths[start:p]) + hyphens[p] <= width + 1e-9:
            return p
    return end


# A paragraph's lines and a line's JLREQ widths depend on nothing but their text, fonts, size and
# measure, so they are kept by exactly those (``fallbacks``, the font's fallback chain, is part of
# the key): the story is made anew for every book, and a warm rulebook process (``pnpgen watch``)
# sets the same paragraphs on every save. Bounded; the same answers as working them out again.


def measurer(font: str, size: float) -> Callable[[str], float]:
    """A character's width; an icon's (OBJ) an em."""
    return lambda ch: size if ch == lb.OBJ else pdfmetrics.stringWidth(ch, glyphs.font_for(ch, font), size)


def paragraph_lines(text: str, font: str, fallbacks: tuple[str, ...], size: float, width: float, lead: float,
                    lang: str, jlreq: bool, opens: bool, setting: setlines.SetLines | None = None,
                    ruby: tuple[bookruby.Ruby, ...] = (), jukugo: tuple[bookruby.Ruby, ...] = ()
                    ) -> tuple[tuple[int, int], ...]:
    """``set_lines`` of a JPara's text (``jlreq``: at ``jlreq_advances``' widths, ``opens`` as
    there) in ``font`` with its fallback chain ``fallbacks``; as the book's last ``setting``
    worked them out when it did (setlines.py); ``ruby``: its bases, each one unit, spread along a
    longer reading (bookruby.py); ``jukugo``: the jukugo rubies' parts, where a line may part one
    (``bookruby.parted``)."""
    args = (text, font, fallbacks, size, width, lead, lang, jlreq, opens, *((ruby,) if ruby else ()),
            *((jukugo,) if jukugo else ()))
    if setting is None:
        return _paragraph_lines(*args)
    return setting.get(("p", *args), lambda: _paragraph_lines(*args))


@lru_cache(maxsize=8192)
def _paragraph_lines(text: str, font: str, fallbacks: tuple[str, ...], size: float, width: float, lead: float,
                     lang: str, jlreq: bool, opens: bool, ruby: tuple[bookruby.Ruby, ...] = (),
                     jukugo: tuple[bookruby.Ruby, ...] = ()) -> tuple[tuple[int, int], ...]:
    """(A jukugo ruby is kept whole, one group ruby, unless that pushes it down from a line it
    could end in part: then the lines are broken with each jukugo ruby's parts as mono rubies,
    each no wider set as a group again where no line's end parts it, JLREQ 3.3.7.)"""
    measure = measurer(font, size)
    if not jlreq:
        return tuple(set_lines(text, width, measure, lead, size, lang))
    raw = jlreq_advances(text, measure, size, opens=opens)

    def broken(rubies: tuple[bookruby.Ruby, ...]) -> tuple[tuple[int, int], ...]:
        cells = _ruby_widened(text, raw, rubies, font, size, line=False) if rubies else raw
        return tuple(set_lines(text, width, measure, lead, size, lang, [a for a, _ in cells],
                               squeezable(text, cells, size), bookruby.glued(rubies)))

    lines = broken(ruby)
    if jukugo and bookruby.pushed_down(ruby, jukugo, lines):
        apart = broken(bookruby.parted(ruby, jukugo))
        if bookruby.parted(ruby, jukugo, apart) != ruby:  # (a line's end parts one of them)
            return apart
    return lines


def line_cells(line: str, font: str, fallbacks: tuple[str, ...], size: float,
               opens: bool, setting: setlines.SetLines | None = None, ruby: tuple[bookruby.Ruby, ...] = ()
               ) -> tuple[tuple[tuple[float, float], ...], tuple[str, ...], tuple[float, ...]]:
    """A JLREQ line's (advance, offset) cells, the font that draws each character and the
    width it has in that font (where the text cursor goes after drawing it); as the book's last
    ``setting`` worked them out when it did (setlines.py); ``ruby``: the line's bases, spread
    along a longer reading (bookruby.py)."""
    args = (line, font, fallbacks, size, opens, *((ruby,) if ruby else ()))
    if setting is None:
        return _line_cells(*args)
    return setting.get(("c", *args), lambda: _line_cells(*args))


@lru_cache(maxsize=4096)
def _line_cells(line: str, font: str, fallbacks: tuple[str, ...], size: float,
                opens: bool, ruby: tuple[bookruby.Ruby, ...] = ()
                ) -> tuple[tuple[tuple[float, float], ...], tuple[str, ...], tuple[float, ...]]:
    fonts = tuple(font if ch == lb.OBJ else glyphs.font_for(ch, font) for ch in line)
    cells = jlreq_advances(line, measurer(font, size), size, opens=opens)
    if ruby:
        cells = _ruby_widened(line, cells, ruby, font, size, line=True)
    return (tuple(cells), fonts,
            tuple(size if ch == lb.OBJ else pdfmetrics.stringWidth(ch, f, size) for ch, f in zip(line, fonts)))


def _ruby_widened(text: str, cells: list[tuple[float, float]], ruby: tuple[bookruby.Ruby, ...], font: str, size: float,
                  line: bool) -> list[tuple[float, float]]:
    """``cells`` with each base spread along what its reading does not reach over the kana beside it."""
    def reading_width(reading: str) -> float:
        return glyphs.width(reading, font, size * RUBY_SCALE)
    return bookruby.widened(cells, ruby, reading_width, bookruby.reach(text, cells, ruby, reading_width, size, line))


# a font file saved over while the book's process runs: set with its new widths (fonts.saved_since)
fontreg.when_saved(_paragraph_lines.cache_clear)
fontreg.when_saved(_line_cells.cache_clear)
