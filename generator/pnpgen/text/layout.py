"""Fit to box and alignment: choose the size, break the lines, place every cell in millimetres.

Sizes are searched by bisection on a 0.25 pt grid from the maximum down to the minimum. Line
breaking is scale-free (every width is linear in the size), so it runs on the cached cells of
each paragraph with the box width divided by the size.

Vertical metrics: the fonts' em box runs 0.88 em above the baseline and 0.12 em below. The first
line's em box touches the top of the block and the last one's its bottom; lines are
``line_height`` em apart. A line with ruby gets room for the reading (half an em) above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from pnpgen.data.markup import RUBY
from pnpgen.text.cells import PT, RUBY_SCALE, Cell, CellParagraph, hyphen_cell
from pnpgen.text.linebreak import CHAR, CLUSTER, TRAILING_SPACES, fill, hyphenated

ASCENT = 0.88  # baseline below the em box top, in em
STEP = 0.25  # pt
MAX_JUSTIFY_GAP = 0.15  # em: a line that would need more letter spacing stays left-aligned (ragged)
EPS = 1e-6

ALIGNS = ("left", "center", "right", "justify")  # textbox's align, exactly these words
VALIGNS = ("top", "middle", "bottom")  # and its valign
SHAPES = ("rect", "circle")  # and its shape: the box, or the circle (ellipse) inscribed in it
IN_CIRCLE = 0.9  # text in a circle keeps inside 90 % of its radius: clear of a ring drawn on its edge


@dataclass(frozen=True, slots=True)
class SetLine:
    """One line of a laid-out block: its cells, where each sits, and its baseline."""

    cells: tuple[Cell, ...]
    xs: tuple[float, ...]  # left edge of each cell from the box's left, mm
    baseline: float  # from the box's top, mm
    width: float  # set width without trailing spaces, mm (before justification)
    last: bool  # last line of its paragraph
    spacing: float = 0.0  # mm added after every cell (justification)
    hyphen: bool = False  # the last cell is the hyphen of a word broken at a hyphenation point

    @property
    def text(self) -> str:
        """The line's text; an icon is U+FFFC, a ruby group its base, a hyphenated line ends in '-'."""
        return "".join(c.unit for c in self.cells).rstrip(TRAILING_SPACES)


@dataclass(frozen=True, slots=True)
class Layout:
    """A card text set in its box: the size it was set at, its lines, and whether it fits, so an overflowing text is
    reported rather than cut off."""

    size: float  # pt
    lines: tuple[SetLine, ...]
    fits: bool
    height: float  # block height, mm
    w: float
    h: float

    @property
    def texts(self) -> list[str]:
        return [ln.text for ln in self.lines]

    @property
    def em(self) -> float:
        return self.size * PT


@dataclass(frozen=True, slots=True)
class _Trial:
    """One size tried while fitting a text into its box: where its lines break, how much room they take and whether
    they fit; the largest size that fits is the one printed."""

    size: float
    breaks: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (paragraph, line ranges)
    height: float
    width: float
    fits: bool
    w: float = 1.0  # the box it was tried in, mm
    h: float = 1.0


def _trial(paras: list[CellParagraph], size: float, w: float, h: float, line_height: float) -> _Trial:
    em = size * PT
    max_units = w / size  # widths are mm at 1 pt
    breaks = []
    height = 0.0
    widest = 0.0
    first = True
    for pi, p in enumerate(paras):
        hang = _hang(p, max_units)
        ranges = tuple(fill(p.classes, p.widths, p.spaces, max_units, p.hyphens, hang, edges=p.edges))
        breaks.append((pi, ranges))
        for li, (s, e) in enumerate(ranges):
            ruby = any(p.ruby[s:e])
            if first:
                height = em + (RUBY_SCALE * em if ruby else 0.0)
                first = False
            else:
                height += line_height * em + (max(0.0, RUBY_SCALE * em - (line_height - 1) * em) if ruby else 0.0)
            widest = max(widest, (_width(p, s, e) + (hang if li else 0.0)) * size)
    fits = height <= h + EPS and widest <= w + EPS
    return _Trial(size, tuple(breaks), height, widest, fits, w, h)


def _hang(p: CellParagraph, max_units: float) -> float:
    """A list item's hanging indent at 1 pt, unless its mark takes half the line or more (a box
    too narrow to set the item's text beside it)."""
    return p.hang if p.hang < max_units / 2 else 0.0


def _width(p: CellParagraph, s: int, e: int) -> float:
    """Set width at 1 pt of cells [s, e), less trailing spaces, plus the hyphen a break there adds
    and what a ruby starting or ending the line adds, set at the line's edge (``Cell.at_edge``);
    a ruby alone on its line is as wide as its reading, or its base."""
    hyphen = p.hyphens[e] if hyphenated(p.classes, e, len(p.cells)) else 0.0
    while e > s and p.spaces[e - 1]:
        e -= 1
    if not p.edges or e <= s:
        return sum(p.widths[s:e]) + hyphen
    if e - s == 1:
        cell = p.cells[s]
        return cell.width + cell.lead + cell.tail + hyphen
    return sum(p.widths[s:e]) + hyphen + p.edges[0][s] + p.edges[1][e - 1]


def _at_edges(cells: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """A line's cells with a ruby starting it or ending it set at the line's edge (its base at the
    edge, its reading aligned with it there: text/ruby.py); a ruby alone on its line as it is,
    its reading centred on its base, as wide as the wider of them."""
    ink = len(cells)
    while ink and cells[ink - 1].space:
        ink -= 1
    if ink == 1 and cells[0].kind == RUBY:
        return (replace(cells[0], width=cells[0].width + cells[0].lead + cells[0].tail, lead=0.0, tail=0.0),
                *cells[1:])
    out = list(cells)
    if ink and cells[0].kind == RUBY:
        out[0] = cells[0].at_edge("head")
    if ink > 1 and cells[ink - 1].kind == RUBY:
        out[ink - 1] = cells[ink - 1].at_edge("foot")
    return tuple(out)


def candidates(size: float, min_size: float) -> list[float]:
    """Sizes to try, largest first, 0.25 pt apart, ending at the minimum."""
    if size <= min_size:
        return [size]
    out = []
    k = 0
    while size - k * STEP > min_size + EPS:
        out.append(round(size - k * STEP, 4))
        k += 1
    out.append(min_size)
    return out


def choose_size(paras: list[CellParagraph], w: float, h: float, size: float, min_size: float,
                line_height: float, shape: str = "rect") -> _Trial:
    """The largest candidate size that fits (bisection); the minimum, marked unfit, if none does.
    A size that fits only by hyphenating a word longer than the line gives way to the largest
    smaller one, down to the minimum, that fits with every word whole (a card title
    ``Incomprehensibilities`` set smaller on one line, not broken in two at 13 pt); so does a size
    that leaves the last character of a phrase alone on a paragraph's last line (a card back's
    「霧ヶ館殺人事 / 件」 at 24 pt: 「霧ヶ館殺人事件」 on one line at 23). In a
    ``circle`` the block's corners stay inside the ellipse inscribed in the box (a cost of
    ``1,000`` in a round badge: as wide as the box, it stood out past the circle's sides)."""
    sizes = candidates(size, min_size)
    fits: Callable[[_Trial], bool] = _in_ellipse if shape == "circle" else (lambda t: t.fits)
    best = _largest(paras, sizes, w, h, line_height, fits)
    if fits(best) and (_breaks_a_word(paras, best) or _splits_a_cluster(paras, best)
                       or _strands_a_character(paras, best)):
        below = [s for s in sizes if s < best.size]
        if below:
            def good(t: _Trial) -> bool:
                return (fits(t) and not _breaks_a_word(paras, t) and not _splits_a_cluster(paras, t)
                        and not _strands_a_character(paras, t))
            whole = _largest(paras, below, w, h, line_height, good)
            if good(whole):
                return whole
        if _splits_a_cluster(paras, best):  # a number (1,000, 1VP, 1〜2) only a wider box keeps whole: said
            return replace(_trial(paras, sizes[-1], w, h, line_height), fits=False)
    return best if fits(best) else replace(best, fits=False)


def _largest(paras: list[CellParagraph], sizes: list[float], w: float, h: float, line_height: float,
             good: Callable[[_Trial], bool]) -> _Trial:
    """The trial at the largest of ``sizes`` (largest first) that is ``good`` (true of every size
    below one that is), by bisection; the smallest size's trial if none is."""
    top = _trial(paras, sizes[0], w, h, line_height)
    if good(top) or len(sizes) == 1:
        return top
    bottom = _trial(paras, sizes[-1], w, h, line_height)
    if not good(bottom):
        return bottom
    lo, hi, best = 0, len(sizes) - 1, bottom  # sizes[lo] is not good, sizes[hi] is
    while hi - lo > 1:
        mid = (lo + hi) // 2
        t = _trial(paras, sizes[mid], w, h, line_height)
        if good(t):
            hi, best = mid, t
        else:
            lo = mid
    return best


def _in_ellipse(t: _Trial) -> bool:
    """Whether the trial's block, centred in its box, has its corners inside the box's ellipse
    shrunk to IN_CIRCLE (clear of the ring's stroke, with room to breathe)."""
    return t.fits and round_fit(t.width, t.height, t.w, t.h) <= 1 + EPS


def round_fit(width: float, height: float, w: float, h: float) -> float:
    """How far a centred block's corners reach in a w×h box's ellipse as text keeps to it (1: its edge)."""
    return ((width / (IN_CIRCLE * w)) ** 2 + (height / (IN_CIRCLE * h)) ** 2) ** 0.5


def _splits_a_cluster(paras: list[CellParagraph], trial: _Trial) -> bool:
    """Does a line of ``trial`` end inside a number or a number with its unit (``1,000``, ``1VP``),
    which the line breaker splits only when nothing else fits the line?"""
    return any(e < len(paras[pi].cells) and paras[pi].classes[e] == CLUSTER
               for pi, ranges in trial.breaks for _, e in ranges)


def _strands_a_character(paras: list[CellParagraph], trial: _Trial) -> bool:
    """Does a paragraph of ``trial`` end with a line of one character cut off inside its phrase
    (「霧ヶ館殺人事」 over 「件」), where a break at a phrase's end would have kept the word whole?"""
    for pi, ranges in trial.breaks:
        if len(ranges) < 2:
            continue
        s, e = ranges[-1]
        p = paras[pi]
        while e > s and p.spaces[e - 1]:
            e -= 1
        if e - s == 1 and p.classes[s] == CHAR:
            return True
    return False


def _breaks_a_word(paras: list[CellParagraph], trial: _Trial) -> bool:
    """Does a line of ``trial`` end inside a word, at a hyphenation point?"""
    return any(hyphenated(paras[pi].classes, e, len(paras[pi].cells)) for pi, ranges in trial.breaks for _, e in ranges)


def place(paras: list[CellParagraph], trial: _Trial, w: float, h: float, align: str, valign: str,
          line_height: float) -> Layout:
    """Positions for every cell of the chosen trial."""
    size = trial.size
    em = size * PT
    lines: list[SetLine] = []
    top = 0.0
    first = True
    for pi, ranges in trial.breaks:
        p = paras[pi]
        indent = _hang(p, w / size) * size  # mm: the lines after the first start under the item's text
        for li, (s, e) in enumerate(ranges):
            cells = p.cells[s:e]
            hyphen = hyphenated(p.classes, e, len(p.cells))
            if hyphen:
                cells += (hyphen_cell(cells[-1], p.hyphens[e]),)
            ruby = any(p.ruby[s:e])
            if first:
                top = RUBY_SCALE * em if ruby else 0.0
                first = False
            else:
                top += line_height * em + (max(0.0, RUBY_SCALE * em - (line_height - 1) * em) if ruby else 0.0)
            width = _width(p, s, e) * size
            last = li == len(ranges) - 1
            at = indent if li else 0.0
            cells = _at_edges(cells)
            xs, gap = _xs(cells, size, width, w - at, align, last, em)
            if at:
                xs = tuple(x + at for x in xs)
            lines.append(SetLine(cells, xs, top + ASCENT * em, width, last, gap, hyphen))
    height = trial.height
    shift = {"top": 0.0, "middle": (h - height) / 2, "bottom": h - height}[valign]
    if shift:
        lines = [SetLine(ln.cells, ln.xs, ln.baseline + shift, ln.width, ln.last, ln.spacing, ln.hyphen)
                 for ln in lines]
    return Layout(size, tuple(lines), trial.fits, height, w, h)


def _xs(cells: tuple[Cell, ...], size: float, width: float, w: float, align: str, last: bool,
        em: float) -> tuple[tuple[float, ...], float]:
    ink = len(cells)
    while ink and cells[ink - 1].space:
        ink -= 1
    gap = 0.0
    start = 0.0
    if align == "justify" and not last and ink > 1:
        g = (w - width) / (ink - 1)
        if 0 < g <= MAX_JUSTIFY_GAP * em:
            gap = g
    elif align == "center":
        start = (w - width) / 2
    elif align == "right":
        start = w - width
    xs = []
    x = start
    for c in cells:
        xs.append(x)
        x += c.width * size + gap
    return tuple(xs), gap

