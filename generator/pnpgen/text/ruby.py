"""How far a ruby's reading, longer than its base, reaches over the characters beside the base:
one rule for horizontal text (text/cells.py) and vertical text (faces/tate.py), JLREQ 3.3.8's
("Adjustments of ruby with length longer than that of the base characters",
https://www.w3.org/TR/jlreq/; JIS X 4051 the same).

Mid-line the reading stays centred on its base and reaches over the neighbour on each side by up
to one ruby character (the full-width size of a ruby character, half a base character): over a
hiragana or katakana letter (a small one too) its whole advance; over an opening bracket before
the base, or a closing bracket, 、 or 。 after it, the half em its glyph takes, never the mark's
space; over a middle dot (・：；) either side its quarter-em space on the ruby's side and half a
ruby character. Never over a kanji, a Latin letter, ー, another ruby or a mark on its other side.
A kana between two rubies gives the second only what the first left of it: the readings never
overlap. What a side's neighbour cannot take spaces the base out on that side.

At a line's head (a column's top) nothing stands before the base: the base starts the line and the
reading's head is aligned with the base's head, its whole excess on the other side, where the
neighbour takes up to one ruby character (JLREQ 3.3.8's variation of figures 2.3.35 and 2.3.36,
JIS X 4051's: the base, not its reading, keeps the line's edge); at a line's end (a column's
foot) the same the other way round. A ruby alone on its line stays centred on its base."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from pnpgen.text.linebreak import CLOSING, MIDDLE, OPENING, STOPS

RUBY_SCALE = 0.5  # a reading's size, of its base's
MARK_GLYPH = 0.5  # em: the half em a full-width 約物's glyph takes (JLREQ 3.1.2), the rest its space


class Reach(NamedTuple):
    """How far a reading reaches past its base's start (``lead``) and end (``tail``) over the
    neighbours there, mid-line; ``head_tail``: its reach past the end with the base heading a
    line (none past the start); ``foot_lead``: its reach past the start with the base ending one."""

    lead: float
    tail: float
    head_tail: float
    foot_lead: float


def kana(char: str) -> bool:
    """A neighbour a reading may reach over whole: a hiragana or katakana letter (JLREQ cl-15,
    cl-16, and the small kana of cl-11), not ー, ・, an iteration mark, a kanji or punctuation."""
    return len(char) == 1 and ("\u3041" <= char <= "\u3096" or "\u30a1" <= char <= "\u30fa")


def room(char: str, advance: float, before: bool, em: float) -> float:
    """How far a reading may reach over ``char`` (``advance`` long along the line, ``em`` its
    size), standing before the ruby or after it: a kana its advance; an opening bracket before
    the ruby, a closing bracket, 、 or 。 after it, its glyph's half em and never its space; a
    middle dot either side, its quarter-em space on the ruby's side (none in a proportional
    half-em dot) and half a ruby character; anything else (``""``: a ruby, an icon) nothing."""
    if kana(char):
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
        return max(0.0, min(room(char, advance, before, em), advance - taken.get(j, 0.0)))

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
