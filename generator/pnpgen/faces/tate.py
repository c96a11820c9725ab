"""A line of vertical writing (縦書き) cut into what ``m.tate()`` places in its column, as JLREQ
(W3C, Requirements for Japanese Text Layout) sets vertical text: kana and kanji upright a cell each;
brackets, ー, dashes and leaders turned a quarter clockwise; 、。 and small kana moved within their
cell (2.1.2: a small kana's face right of the cell's centre, at its middle); a two-digit number
set across in one cell, tate-chu-yoko (3.2.5); a longer run of Latin letters or digits turned a
quarter clockwise as one word, reading downwards (3.2.3); a single letter or digit upright; a
ruby, ``{漢字|かんじ}``, one mark a column never breaks inside, its reading set at half size on the
column's right (JLREQ 3.3: vertical text's ruby stands right of its base), a reading longer than
its base reaching over the characters above and below it as horizontal text's does, by one rule
(text/ruby.py, JLREQ 3.3.8: up to one ruby character onto a kana, ー or a dash, onto the glyph of a bracket or
、。; at the column's top or foot the base keeps the column's edge, the reading aligned with it), a
group ruby's shorter side spread 1:2:1 along the longer (JLREQ 3.3.6), a base of Latin letters or
digits set as such a run is outside a ruby (turned as one word, a 縦中横 pair). The card text's markup read as
horizontal text reads it (data/markup.py ``parse``, the one reader): a mark keeps its span's bold
and colour, an icon a cell of its own.

``columns`` sets several lines in a box as vertical text sets a page: columns from right to left,
each line starting a column of its own, a line longer than the box broken into the next column
where JLREQ allows (3.1.7, 3.1.8: no closing bracket, 、。, ー or small kana at a column's top, no opening
bracket at its foot), the breaks it cannot avoid and a box too narrow for the columns told."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import groupby
from typing import NamedTuple

from pnpgen.data.markup import ICON, RUBY, TEXT, Span, parse
from pnpgen.patterns import later
from pnpgen.text.linebreak import NO_END, NO_START
from pnpgen.text.ruby import RUBY_SCALE, parts, reaches, spread

TURNED = frozenset("「」『』（）［］【】〔〕〈〉《》｛｝ー－―—…‥〜～：；＝→←")
STOPS = frozenset("、。，．")
SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
# Latin letters and digits, with the spaces and marks inside a word or phrase (Game Over, 2-3, 50%)
_LATIN = later(r"[A-Za-z0-9]+(?:[ .,'’&:/+%-]+[A-Za-z0-9]+)*[.!?%]?")
_TWO_DIGITS = later(r"[0-9]{2}")
LATIN_ADVANCE = 0.5  # em: a Latin letter's width in the fixed-width gothic (half of a kana's)
LATIN_SPACE = 0.25  # em: the quarter-em JLREQ puts between Japanese and Latin text, each side


class Mark(NamedTuple):
    kind: str  # upright | turned | stop | small | across (tate-chu-yoko) | latin (a run turned) | space | ruby | icon
    text: str  # a ruby's: its base; an icon's: its name
    top: float  # mm from the column's top
    length: float  # mm down the column
    reading: str = ""  # a ruby's reading, set at RUBY_SCALE of the size on the column's right
    bold: bool = False  # the card text's **bold**
    colour: str = ""  # the card text's [name]…[/name]: a palette name
    reading_top: float = 0.0  # a ruby's: mm from the column's top where its reading starts
    base_top: float = 0.0  # a ruby's: mm from the column's top where its base starts, a cell a character
    markup: str = ""  # a Latin run (or 縦中横 pair) whose pieces differ in bold or colour: the run as card text
    base_parts: tuple[tuple[str, float], ...] = ()  # a ruby's base as set: each piece and its top (mm)
    reading_parts: tuple[tuple[str, float], ...] = ()  # … its reading's (a group ruby's shorter side spread)

    def styled(self, text: str) -> str:
        """``text`` (the mark's, or a ruby's base or reading) as card-text markup in the mark's
        bold and colour, its markup characters escaped: what textbox() and m.tate() are handed to
        set it as horizontal text sets it (read and checked already: m.tate() tells nothing of it
        again); a run of pieces in different styles (``**Game** Over``) each piece in its own."""
        if self.markup and text == self.text:
            return SetColumn(self.markup)
        return SetColumn(_styled(text, self.bold, self.colour))


def _styled(text: str, bold: bool, colour: str) -> str:
    """``text`` as card-text markup in ``bold`` and ``colour``, its markup characters escaped."""
    said = _escaped(text)
    said = f"**{said}**" if bold else said
    return f"[{colour}]{said}[/{colour}]" if colour else said


_MARKUP_CHARACTERS = later(r"([\\*\[\]{}|｜])")


def _escaped(text: str) -> str:
    """``text`` with the characters card-text markup reads escaped (a ruby's bar too), to be read back as written."""
    return _MARKUP_CHARACTERS.sub(r"\\\1", text)


def source(mark: Mark) -> str:
    """The card text a mark was cut from, as markup that reads back to it (its bold, colour, an
    icon's or a ruby's braces): to be cut again in the next column."""
    if mark.kind == ICON:
        said = "{" + mark.text + "}"
    elif mark.kind == RUBY:
        said = "{" + _escaped(mark.text) + "|" + _escaped(mark.reading) + "}"
    else:
        return mark.styled(mark.text)
    said = f"**{said}**" if mark.bold else said
    return f"[{mark.colour}]{said}[/{mark.colour}]" if mark.colour else said


_ESCAPE = later(r"\\([\\*\[\]{}|｜])")


def written(cut: Sequence[Mark]) -> str:
    """The card text of ``cut`` as a warning shows it: its markup (bold, colour, a ruby's or an
    icon's braces) as the designer writes it, without the escapes ``source`` adds to read it
    back (a literal ``[red`` or ``{{x`` was told as ``\\[red``, ``\\{\\{x``)."""
    return _ESCAPE.sub(r"\1", "".join(source(m) for m in cut))


_CHARACTERS = ("upright", "turned", "stop", "small")  # a mark that is one character (a reading may reach over some)


def _overhung(cut: list[Mark], em: float, cell: float, bases: Sequence[float]) -> list[Mark]:
    """``cut`` with each ruby whose reading is longer than its base reaching over the marks before
    and after it as text/ruby.py's one rule says (horizontal text's: up to one ruby character a
    side, the reading centred on its base, the base set a cell a character, the rest of the
    reading's length spacing it from a neighbour that cannot take it); at the column's top its
    base and reading start there, at its foot they end there; the marks after it moved by as much.
    ``bases``: each mark's base length down the column (a ruby's: ``_base_length``)."""
    units = [(m.text if m.kind in _CHARACTERS else "", m.length) for m in cut]
    excess = {k: m.length - bases[k] for k, m in enumerate(cut) if m.kind == RUBY and m.length > bases[k] + 1e-9}
    found = reaches(units, excess, em)
    out: list[Mark] = []
    shift = 0.0
    for k, mark in enumerate(cut):
        mark = mark._replace(top=mark.top + shift)
        if mark.kind == RUBY:
            base, reading = bases[k], len(mark.reading) * em * RUBY_SCALE
            r = found.get(k)
            if r is None:  # a reading no longer than its base, centred on it
                length, start, base_top = base, mark.top + (base - reading) / 2, mark.top
            elif len(cut) == 1:  # alone in its column: centred
                length, start, base_top = reading, mark.top, mark.top + (reading - base) / 2
            elif k == 0:  # at the column's top: the base and its reading start there
                length, start, base_top = reading - r.head_tail, mark.top, mark.top
            elif k == len(cut) - 1:  # at its foot: they end there
                length, start = reading - r.foot_lead, mark.top - r.foot_lead
                base_top = start + reading - base
            else:
                length, start = reading - r.lead - r.tail, mark.top - r.lead
                base_top = start + (reading - base) / 2
            shift += length - mark.length
            pieces = _spread_ruby(mark, r is None, k, len(cut), base_top, start, length, em, cell, base)
            mark = mark._replace(length=length, reading_top=start, base_top=base_top,
                                 base_parts=pieces[0], reading_parts=pieces[1])
        out.append(mark)
    return out


def _spread_ruby(mark: Mark, short: bool, k: int, n: int, base_top: float, reading_top: float, length: float,
                 em: float, cell: float, room: float) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]:
    """A ruby's base and reading as pieces with their tops: each side whole where it is set solid
    (a mono ruby, sides of one length), a group ruby's shorter side spread 1:2:1 along the longer
    (text/ruby.py ``spread``): a longer reading's base along what the marks beside it leave of the
    reading (at the column's top each piece followed by an equal part, at its foot preceded), a
    shorter reading along its base, its ends no more than one ruby character in; ``room`` the
    base's length. A Latin base (``latin_base``) is one piece, a word never spread."""
    base = (mark.text, base_top)
    reading = (mark.reading, reading_top)
    rem = em * RUBY_SCALE
    bases, reads = [mark.text] if latin_base(mark.text) else parts(mark.text), parts(mark.reading)
    if short and len(bases) > 1 and len(reads) > 1 and len(mark.reading) * rem < room - 1e-9:
        tops = spread([len(p) * rem for p in reads], room, "", rem)
        return (base,), tuple((p, mark.top + t) for p, t in zip(reads, tops))
    if not short and len(bases) > 1:
        edge = "" if n == 1 else "head" if k == 0 else "foot" if k == n - 1 else ""
        tops = spread([len(p) * cell for p in bases], length, edge)
        return tuple((p, mark.top + t) for p, t in zip(bases, tops)), (reading,)
    return (base,), (reading,)


def marks(text: str, size: float, pitch: float = 1.1, width: Callable[[str, bool], float] | None = None,
          palette: Mapping[str, str] | None = None) -> list[Mark]:
    """The column's marks for ``text`` (card text: its markup read with ``palette``, as a text
    box reads it) at ``size`` pt, a kana every ``size`` × ``pitch``; a Latin run as long as
    ``width`` measures it in the column's font, bold or not (mm; none: half an em a letter, the
    fixed-width gothic's)."""
    em = size * 25.4 / 72
    cell = em * pitch
    out: list[Mark] = []
    top = 0.0
    spans = [span for n, para in enumerate(parse(str(text), palette or {}))
             for span in ([Span(TEXT, "\n")] if n else []) + para]
    stretch: list[tuple[str, bool, str]] = []  # the text spans since the last ruby or icon: each character's style
    bases: dict[int, float] = {}  # a ruby mark's base length down the column
    for n, span in enumerate(spans):
        if span.kind == TEXT:
            stretch += [(ch, span.bold, span.colour or "") for ch in span.text]
            if n + 1 < len(spans) and spans[n + 1].kind == TEXT:
                continue  # a run goes on across **bold** or a colour's edge: set with the next span's text
            top = _set_text(out, stretch, top, em, cell, width, last=n == len(spans) - 1)
            stretch = []
            continue
        colour = span.colour or ""
        if span.kind == RUBY:  # the base a cell a character, spaced out to the reading's length where that is longer
            bases[len(out)] = _base_length(span.text, span.bold, em, cell, width)
            length = max(bases[len(out)], len(span.reading) * em * RUBY_SCALE)
            out.append(Mark(RUBY, span.text, top, length, span.reading, span.bold, colour))
            top += length
            continue
        if span.kind == ICON:  # upright in a cell of its own
            out.append(Mark(ICON, span.text, top, cell, "", span.bold, colour))
            top += cell
    return _overhung(out, em, cell, [bases.get(k, 0.0) for k in range(len(out))])


def latin_base(text: str) -> bool:
    """A ruby's base a column sets as it sets a Latin run outside a ruby (``_set_text``): letters
    or digits, more than one, turned a quarter clockwise as one word (JLREQ 3.2.3), or a 縦中横
    pair of digits across one cell (3.2.5) — not a cell a letter."""
    return len(text) > 1 and _LATIN.fullmatch(text) is not None


def _base_length(text: str, bold: bool, em: float, cell: float,
                 width: Callable[[str, bool], float] | None) -> float:
    """How long a ruby's base is down the column: a cell a character; a Latin run as long as the
    column's font sets it (half an em a letter without ``width``), a 縦中横 pair one cell."""
    if not latin_base(text):
        return len(text) * cell
    if _TWO_DIGITS.fullmatch(text):
        return cell
    return width(text, bold) if width is not None else len(text) * em * LATIN_ADVANCE


def _set_text(out: list[Mark], stretch: list[tuple[str, bool, str]], top: float, em: float, cell: float,
              width: Callable[[str, bool], float] | None, last: bool) -> float:
    """The marks of a stretch of card text (each character with its bold and colour) appended to
    ``out`` from ``top``; where the column goes on below them. A Latin run (or a 縦中横 pair of
    digits) is one mark however its pieces are styled (``**Game** Over``), each piece measured and
    set in its own style."""
    chunk = "".join(ch for ch, _, _ in stretch)
    at = 0
    while at < len(chunk):
        run = _LATIN.match(chunk, at)
        if run and len(run.group(0)) > 1:
            word = run.group(0)
            pieces = [(k, list(g)) for k, g in groupby(stretch[run.start():run.end()], key=lambda c: c[1:])]
            bold, colour = pieces[0][0]
            markup = "".join(_styled("".join(ch for ch, _, _ in g), *k) for k, g in pieces) if len(pieces) > 1 else ""
            if _TWO_DIGITS.fullmatch(word):
                out.append(Mark("across", word, top, cell, "", bold, colour, markup=markup))
                top += cell
            else:
                gap = em * LATIN_SPACE
                before = gap if out else 0.0
                length = sum(width("".join(ch for ch, _, _ in g), k[0]) if width is not None
                             else len(g) * em * LATIN_ADVANCE for k, g in pieces)
                out.append(Mark("latin", word, top + before, length, "", bold, colour, markup=markup))
                top += before + length + (gap if run.end() < len(chunk) or not last else 0.0)
            at = run.end()
            continue
        ch, bold, colour = stretch[at]
        out.append(Mark(_kind(ch), ch, top, cell, "", bold, colour))
        top += cell
        at += 1
    return top


def lines(text: str, palette: Mapping[str, str] | None = None) -> list[str]:
    """``text``'s lines, a column's each, as markup that reads back to what each holds: **bold**
    or a colour going on past a line break (as a text box reads it) closed and opened again."""
    out = [""]
    for mark in marks(text, 9, palette=palette):
        if mark.text == "\n":
            out.append("")
        else:
            out[-1] += source(mark)
    return out


def _kind(ch: str) -> str:
    if not ch.strip():
        return "space"
    if ch in TURNED:
        return "turned"
    if ch in STOPS:
        return "stop"
    return "small" if ch in SMALL_KANA else "upright"


ALIGNS = ("right", "center", "left")
EDGES = {"right": "left edge", "center": "edges", "left": "right edge"}  # where columns too many for the box run out
MAX_COLUMNS = 200  # a box's columns: a verse has a handful, a card's rules a dozen


class Column(NamedTuple):
    text: str
    x: float  # mm: the column's centre line
    y: float  # mm: its top
    length: float  # mm down the column, as m.tate() sets it


class SetColumn(str):
    """A column's text as ``columns`` broke it (its start checked, told there once): m.tate_box()
    hands each to m.tate(), which then says nothing of its start again."""


def _first(cut: Sequence[Mark]) -> str:
    """The character a column of ``cut`` starts with (none for an icon)."""
    return cut[0].text[:1] if cut and cut[0].kind != ICON else ""


def _last(cut: Sequence[Mark]) -> str:
    """The character a column of ``cut`` ends with (none for an icon)."""
    return cut[-1].text[-1:] if cut and cut[-1].kind != ICON else ""


def start_problem(cut: Sequence[Mark], text: str) -> str | None:
    """What m.tate() given ``text`` alone (one column, set as given: its marks ``cut``) says of its
    start: a mark JLREQ keeps off a line's start (3.1.7: 、。」』）ー！？, a small kana) heading the
    column; else None."""
    if _first(cut) not in NO_START or not _first(cut):
        return None
    return (f"「{text}」 starts its column with 「{_first(cut)}」, which JLREQ keeps off a line's start (m.tate() sets "
            "one column as given: end the column before it with the character, or start this one with the one ahead of it)")


class Columns(NamedTuple):
    columns: list[Column]
    problems: list[str]  # what a designer is told: a break JLREQ forbids, columns wider than the box


def _length(cut: Sequence[Mark]) -> float:
    return max((m.top + m.length for m in cut), default=0.0)


def _break(cut: list[Mark], room: float) -> tuple[int, bool]:
    """How many of the line's marks the column holds, and whether JLREQ allows the break there:
    as many as fit in ``room``, fewer where the next would start the column with a mark JLREQ keeps
    off a line's start (or this one end it with an opening bracket); at least one."""
    fit = max(1, next((i for i, m in enumerate(cut) if m.top + m.length > room + 1e-6), len(cut)))

    def allowed(at: int) -> bool:
        return at >= len(cut) or not (cut[at].text[0] in NO_START or cut[at - 1].text[-1] in NO_END)

    at = fit
    while at > 1 and not allowed(at):
        at -= 1
    return (at, True) if allowed(at) else (fit, False)


def columns(lines: Sequence[str], x: float, y: float, w: float, h: float, size: float, pitch: float = 1.1,
            line_height: float = 1.7, align: str = "right", step: float = 0.0,
            width: Callable[[str, bool], float] | None = None, palette: Mapping[str, str] | None = None) -> Columns:
    """``lines`` set in vertical columns inside the box (x, y, w, h in mm), the first at its right
    (``align``: the block of columns against the box's right edge, centred, or against its left),
    a column's centre ``size`` × ``line_height`` from the next, each column ``step`` mm lower than
    the one before it (散らし書き, a karuta verse's); a line longer than its column's room broken
    into the next column as JLREQ allows (each line card text, its markup read with ``palette``;
    a column's text handed back as markup that reads back to what it holds)."""
    em = size * 25.4 / 72
    problems: list[str] = []
    cut: list[tuple[str, float]] = []  # (text, length)
    below = False  # a column has started too far down the box for a character
    ruby = 0.0  # a reading's half em right of a column, where a line holds ruby
    for n, line in enumerate(lines, 1):
        line = str(line)
        these = marks(line, size, pitch, width, palette)
        ruby = em * RUBY_SCALE if any(m.kind == RUBY for m in these) else ruby
        if _first(these) in NO_START and _first(these):
            problems.append(f"line {n} 「{written(these)}」 starts a column with 「{_first(these)}」, which JLREQ keeps off a line's "
                            f"start (break the line before the character ahead of it, or end line {n - 1} with it)"
                            if n > 1 else f"line 1 「{written(these)}」 starts with 「{_first(these)}」, which JLREQ keeps off a line's start")
        if _last(these) in NO_END and _last(these):
            problems.append(f"line {n} 「{written(these)}」 ends a column with 「{_last(these)}」, which JLREQ keeps off a line's end "
                            + (f"(begin line {n + 1} with it)" if n < len(lines) else "(take it out, or close it)"))
        rest = line
        while True:
            room = h - len(cut) * step
            these = marks(rest, size, pitch, width, palette) if rest is not line else these
            if len(cut) >= MAX_COLUMNS:
                problems.append(f"more than {MAX_COLUMNS} columns: the rest is left out")
                break
            if _length(these) <= room + 1e-6 or not these:
                cut.append((rest, _length(these)))
                break
            if cut and step > 0 and _length(these[:1]) > room + 1e-6:  # the steps have passed the box's foot
                cell = _length(these[:1])
                if not below:
                    problems.append(f"column {len(cut) + 1} starts {len(cut) * step:.1f} mm down the box ({step:g} mm "
                                    f"a column), {room:.1f} mm above its foot: it and the columns after it run past "
                                    f"the foot (at step {step:g} the box holds {int((h - cell) // step) + 1} columns)")
                below = True
                cut.append((rest, _length(these)))  # a line a column, unbroken: broken, each character one
                break
            at, allowed = _break(these, room)
            head = "".join(source(m) for m in these[:at])
            length = _length(marks(head, size, pitch, width, palette))
            if length > room + 1e-6 and _length(these[:at]) <= room + 1e-6 and at > 1:
                at -= 1  # a ruby ending it overhung the kana after it, now the next column's: longer, it fits no more
                head = "".join(source(m) for m in these[:at])
                length = _length(marks(head, size, pitch, width, palette))
            cut.append((head, length))
            if not allowed:
                problems.append(f"「{written(these[:at])}」 is broken before 「{these[at].text}」, which JLREQ keeps off a column's top, "
                                "for want of room")
            if length > room + 1e-6:
                problems.append(f"「{written(these[:at])}」 is longer than its column's {room:.1f} mm: it runs past the box's foot")
            rest = "".join(source(m) for m in these[at:]).lstrip(" \u3000")
            if not rest:
                break
    advance = em * line_height
    if ruby and line_height < 1 + RUBY_SCALE:
        problems.append(f"ruby needs line_height {1 + RUBY_SCALE:g} or more (it is {line_height:g}): a reading "
                        "set right of its column would touch the column on its right")
    across = em + ruby + advance * (len(cut) - 1) if cut else 0.0
    if across > w + 1e-6:
        problems.append(f"{len(cut)} columns need {across:.1f} mm across ({size:g} pt, line_height {line_height:g}"
                        f"{', ruby' if ruby else ''}), the box is {w:.1f} mm wide: they run past its {EDGES[align]}")
    first = {"right": x + w - em / 2 - ruby, "center": x + w / 2 - ruby / 2 + advance * (len(cut) - 1) / 2,
             "left": x + em / 2 + advance * (len(cut) - 1)}[align]
    out = [Column(text, first - k * advance, y + k * step, length) for k, (text, length) in enumerate(cut)]
    return Columns(out, problems)
