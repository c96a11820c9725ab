"""How far a ruby's reading, longer than its base, reaches over the characters beside the base,
and how a group ruby's base or reading is spread along the other: one rule for horizontal text
(text/cells.py, text/svg.py) and vertical text (faces/tate.py), JLREQ 3.3.8's ("Adjustments of
ruby with length longer than that of the base characters", https://www.w3.org/TR/jlreq/) and
3.3.5-3.3.6's (mono- and group ruby), JIS X 4051's method where JLREQ gives a choice.

Mid-line the reading reaches over the neighbour on each side by up to one ruby character (the
full-width size of a ruby character, half a base character): over a hiragana or katakana letter
(a small one too) or the long-vowel mark ー (cl-15, cl-16, cl-11, cl-10) its whole advance, and so
over a dash or leader (— ― … ‥, cl-08); over an opening bracket before the base, or a closing
bracket, 、 or 。 after it, the half em its glyph takes, never the mark's space; over a middle dot
(・：；) either side its quarter-em space on the ruby's side and half a ruby character. Never over
a kanji, a Latin letter, another ruby or a mark on its other side. A kana between two rubies
gives the second only what keeps its reading one ruby character clear of the first's (JLREQ
3.3.8's note, figure 2.3.29.3): the readings never touch over it. What a side's neighbour cannot
take spaces the base out on that side.

A mono ruby's reading (one base character) is set solid and centred on its base (3.3.5). A
group ruby's (two or more) spreads the shorter of base and reading along the longer (3.3.6, JIS X
4051): one part of the room before the first character and after the last for two between each
pair (1:2:1), a reading's ends no more than one ruby character in from the base's (figure
2.3.21: the rest between its characters); a run of dashes or leaders (――, ……) is one character
there, never opened (3.1.10-3.1.11), while ー is spaced as the letter it lengthens. A spread base
fills what its neighbours leave of the reading's length.

At a line's head (a column's top) nothing stands before the base: the base starts the line and the
reading's head is aligned with the base's head, its whole excess on the other side, where the
neighbour takes up to one ruby character (JLREQ 3.3.8's variation of figures 2.3.35 and 2.3.36,
JIS X 4051's: the base, not its reading, keeps the line's edge); at a line's end (a column's
foot) the same the other way round, a group ruby's base characters each followed by an equal
part of the room (3.3.8 c: the JIS X 4051 method; at the foot each preceded by one, d). A ruby
alone on its line stays centred on its base."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from pnpgen.text.linebreak import CLOSING, INSEPARABLE, MIDDLE, OPENING, STOPS

RUBY_SCALE = 0.5  # a reading's size, of its base's
MARK_GLYPH = 0.5  # em: the half em a full-width 約物's glyph takes (JLREQ 3.1.2), the rest its space
LONG_VOWEL = "ー"  # cl-10: a reading may reach over it as over a kana (JLREQ 3.3.8)
DASHES = frozenset("".join(INSEPARABLE))  # cl-08 (and ―, set as —): reached over up to one ruby character


class Reach(NamedTuple):
    """How far a reading reaches past its base's start (``lead``) and end (``tail``) over the
    neighbours there, mid-line; ``head_tail``: its reach past the end with the base heading a
    line (none past the start); ``foot_lead``: its reach past the start with the base ending one."""

    lead: float
    tail: float
    head_tail: float
    foot_lead: float


def kana_like(char: str) -> bool:
    """A neighbour a reading may reach over whole, up to one ruby character: a hiragana or
    katakana letter, a small one, the long-vowel mark ー (JLREQ 3.3.8: cl-15, cl-16, cl-11, cl-10)
    or a dash or leader (cl-08: — ― … ‥); not ・, an iteration mark, a kanji or other punctuation."""
    return len(char) == 1 and ("\u3041" <= char <= "\u3096" or "\u30a1" <= char <= "\u30fa"
                               or char == LONG_VOWEL or char in DASHES)


def room(char: str, advance: float, before: bool, em: float) -> float:
    """How far a reading may reach over ``char`` (``advance`` long along the line, ``em`` its
    size), standing before the ruby or after it: a kana (ー, a dash) its advance; an opening bracket before
    the ruby, a closing bracket, 、 or 。 after it, its glyph's half em and never its space; a
    middle dot either side, its quarter-em space on the ruby's side (none in a proportional
    half-em dot) and half a ruby character; anything else (``""``: a ruby, an icon) nothing."""
    if kana_like(char):
        return advance
    if char in (OPENING if before else CLOSING | STOPS):
        return min(advance, MARK_GLYPH * em)
    if char in MIDDLE:
        return min(advance, max(0.0, (advance - MARK_GLYPH * em) / 2) + RUBY_SCALE * em / 2)
    return 0.0


def reaches(units: Sequence[tuple[str, float]], excess: Mapping[int, float], em: float) -> dict[int, Reach]:
    """Each ruby's reach over its neighbours: ``units`` the line's (or paragraph's) units, each its
    character (``""`` for a ruby, an icon or a run) and advance along the line; ``excess`` ruby
    index → how much longer its reading is than its base; ``em`` the base's size, in the units'
    unit. Up to one ruby character a side (``RUBY_SCALE`` em), as the side's neighbour allows."""
    most = RUBY_SCALE * em
    out: dict[int, Reach] = {}
    taken: dict[int, float] = {}  # unit → how much of it the ruby before it reaches over

    def side(i: int, before: bool) -> float:
        j = i - 1 if before else i + 1
        if not 0 <= j < len(units):
            return 0.0
        char, advance = units[j]
        took = taken.get(j, 0.0)
        clear = most if took and kana_like(char) else 0.0  # one ruby character between two readings over a kana
        return max(0.0, min(room(char, advance, before, em), advance - took - clear))

    for i in sorted(excess):
        extra = excess[i]
        before, after = side(i, True), side(i, False)
        lead, tail = min(extra / 2, most, before), min(extra / 2, most, after)
        taken[i + 1] = tail
        out[i] = Reach(lead, tail, min(extra, most, after), min(extra, most, before))
    for i, r in out.items():  # a kana between two readings: at a line's edge each keeps its mid-line share
        out[i] = r._replace(head_tail=r.tail if i + 2 in out else r.head_tail,
                            foot_lead=r.lead if i - 2 in out else r.foot_lead)
    return out


def parts(text: str) -> list[str]:
    """``text`` (a ruby's base or reading) as the pieces spreading it may space apart: each
    character, a run of dashes or leaders (――, ……, JLREQ cl-08) one piece never opened (JLREQ
    3.1.10-3.1.11: no space is added inside it)."""
    out: list[str] = []
    for ch in text:
        if out and any(out[-1][-1] in pair and ch in pair for pair in INSEPARABLE):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def spread(widths: Sequence[float], length: float, edge: str = "", end: float | None = None) -> list[float]:
    """Where each of the pieces ``widths`` long starts, set along ``length`` (from 0) as a group
    ruby's shorter side is set along its longer (JLREQ 3.3.6, JIS X 4051): one part of the room
    before the first and after the last for two between each pair (1:2:1); ``edge`` ``"head"``
    (the ruby starting a line): none before the first and one after each (3.3.8 c), ``"foot"``:
    one before each and none after the last (d); ``end``: the most before the first and after
    the last (a reading: one ruby character, 3.3.6's figure 2.3.21), the rest between. One piece,
    or no room: centred (at a line's head or foot, at its edge)."""
    n = len(widths)
    spare = length - sum(widths)
    if n < 2 or spare <= 0:
        first = spare if edge == "foot" else 0.0 if edge == "head" else spare / 2
        gap = 0.0
    elif edge == "head":
        first, gap = 0.0, spare / n
    elif edge == "foot":
        first = gap = spare / n
    else:
        first, gap = spare / (2 * n), spare / n
        if end is not None and first > end:
            first, gap = end, (spare - 2 * end) / (n - 1)
    out = []
    at = first
    for w in widths:
        out.append(at)
        at += w + gap
    return out


def character_xs(text: str, widths: Sequence[float], origin: float, length: float, edge: str = "",
                 end: float | None = None) -> list[float]:
    """Each character's place along the line of ``text`` (its advances ``widths``) spread along
    ``length`` from ``origin`` as ``spread`` sets a group ruby's side, a run of dashes kept whole:
    card text's (text/svg.py) and the book's (rulebook/bookruby.py)."""
    pieces = parts(text)
    sizes, at = [], 0
    for piece in pieces:
        sizes.append(sum(widths[at:at + len(piece)]))
        at += len(piece)
    xs: list[float] = []
    at = 0
    for piece, x in zip(pieces, spread(sizes, length, edge, end)):
        for w in widths[at:at + len(piece)]:
            xs.append(origin + x)
            x += w
        at += len(piece)
    return xs
