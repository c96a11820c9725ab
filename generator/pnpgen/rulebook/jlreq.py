"""The JLREQ spacing model of the Japanese book (W3C, *Requirements for Japanese Text Layout*,
3.1 and 3.2.1): each character's advance beside its neighbours — 約物 at their widths, 連続約物
closed up, 行末二分, 中点類, 和欧間 — for a face whose marks are full-width. Beside another mark a
中点類 keeps its quarter em and a closing bracket before it drops its half (」・ and ）： a quarter
em apart, 。・ three quarters, ・・ a half), as in the class-to-class spacing of the jlreq document
class's JFM (abenori/jlreq, jfm-jlreq.lua), which sets JLREQ's table of spacing between classes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from pnpgen import fonts as fontreg
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.glyphs import PUNCT
from pnpgen.rulebook.styles import LATIN_GAP
from pnpgen.text import linebreak as lb
from pnpgen.text.linebreak import CLOSING, MIDDLE, OPENING, STOPS

_AFTER_NONE = CLOSING | STOPS  # after these, a mark keeps no space of its own before it
DIVIDING = frozenset("！？‼⁇⁈⁉")  # 区切り約物 (cl-04)
# a closing bracket, another ！？ or a space typed after one: no space added (「実物（？）」, 「！？」)
_NO_SPACE_AFTER_DIVIDING = CLOSING | STOPS | DIVIDING | frozenset(" \u3000\u00a0")
NO_BREAK_SPACE = "\u00a0"  # what the book glues a name to its count with (「ウッドキューブ（赤）5個」)
# a full stop or comma between two digits is a number's (「４．１」, 「１，０００」): no sentence's end
NUMBER_MARKS = frozenset("．，")
DIGITS = frozenset("0123456789０１２３４５６７８９")


@lru_cache(maxsize=32)
def full_width_marks(font: str) -> bool:
    """The font sets 、 on a full em (a fixed-width face): JLREQ's widths can be set with it."""
    return pdfmetrics.stringWidth("、", font, 1000) >= 900


def jlreq_advances(text: str, measure: Callable[[str], float], em: float, *, opens: bool = True,
                   closes: bool = True, latin_gap: float = LATIN_GAP) -> list[tuple[float, float]]:
    """(advance, offset) in points of each character of ``text``, set by JLREQ (3.1 and 3.2.1,
    Requirements for Japanese Text Layout): 約物 take half an em of ink and keep the half-em
    space of their em box (a full em for 、。 and brackets, 1.5 em for 」「 and 、「), except where
    another mark's space already stands (連続約物: 」。 and 「（ close up) and at a line's end
    (``closes``: the space after the last mark is dropped, 行末二分); 中点類 keep a quarter em on
    each side; ！？ followed by text take a full em after them (3.1.6: a space typed after them
    stays as typed, and none is added before a closing bracket or at a line's end); a Japanese
    character next to a Latin letter or digit is ``latin_gap`` em apart
    (和欧間); a full-width ． or ， between two digits (「４．１」, a case's number; 「１，０００」) is a
    number's mark, not a sentence's: its half em of ink alone, no aki after it (JLREQ 3.1.4 spaces
    the 句読点 of sentences; a number's 小数点 is part of the number, as cl-25's grouped numerals
    are: the case number printed 「４．　１」 a full em apart, trial59); a no-break space beside a Japanese character or a mark is glue, not a word space: the
    和欧間 where it stands between Japanese and Latin (「カード 24枚」), else nothing (「（赤）5個」:
    the bracket's half em is the space). ``opens``: the text starts a paragraph, whose opening bracket keeps its space
    (a wrapped line's starts flush, 天付き). The offset moves the glyph from the advance's
    start to its em box (an opening bracket whose space is dropped). For a font whose marks are
    full-width (``full_width_marks``)."""
    out: list[tuple[float, float]] = []
    n = len(text)
    half, quarter = em / 2, em / 4
    plain = {i for i, role in lb.quote_roles(text).items() if role == "open"}  # ”…” used both ways: a full em
    for i, ch in enumerate(text):
        # after a ” that opens, a bracket closes up as after 「 (”【…】”: no half-em between them)
        before = text[i - 1] if i and i - 1 not in plain else ("「" if i else None)
        after = text[i + 1] if i + 1 < n and i + 1 not in plain else ("あ" if i + 1 < n else None)
        if i in plain:
            out.append((measure(ch), 0.0))
            continue
        if ch in OPENING:
            keep = half if (before is None and opens) or (before is not None and before not in PUNCT) else 0.0
            out.append((half + keep, keep - half))
            continue
        if ch in NUMBER_MARKS and before in DIGITS and after in DIGITS:
            out.append((half, 0.0))  # a decimal point or thousands' comma: its half em of ink, no aki
            continue
        if ch in CLOSING or ch in STOPS:
            keep = half if after is not None and after not in _AFTER_NONE else 0.0
            if ch in CLOSING and after in MIDDLE:  # 」・, ）：: the 中点類's quarter is the space
                keep = 0.0
            if after is None and not closes:
                keep = half
            out.append((half + keep, 0.0))
            continue
        if ch in MIDDLE:  # its quarter em either side beside any mark too (）：, ：「, ・・ a half em)
            lead = quarter if before is not None else 0.0
            tail = quarter if after is not None or not closes else 0.0
            out.append((half + lead + tail, lead - quarter))
            continue
        glue = _glue_gaps(text[i - 1] if i else "", text[i + 1] if i + 1 < n else "") if ch == NO_BREAK_SPACE else None
        if glue is not None:
            out.append((glue * latin_gap * em, 0.0))
            continue
        width = measure(ch)
        if ch in DIVIDING and after is not None and after not in _NO_SPACE_AFTER_DIVIDING:
            width += em  # 3.1.6: a full em after ！？ mid-line (the draft's 「？　」 types it itself)
        if after is not None and glyphs.wakan(ch, after):
            width += latin_gap * em
        out.append((width, 0.0))
    return out


READING_STOPS = frozenset("、，")  # 読点類 (cl-07): their aki may be pushed in; a 句点's may not


def squeezable(text: str, cells: Sequence[tuple[float, float]], em: float) -> list[float]:
    """How much of each character's advance (``cells``, as ``jlreq_advances`` set them) a line
    pushed in (追い込み) may give up: the aki after a 読点 and beside a bracket (half an em, to none)
    and a 中点類's quarters (JLREQ 3.8.2 and its appendix on reducing spacing: 追い込み shrinks these
    aki before a line is pushed out, 追い出し, and spaced; a 句点's aki and the letters' own widths
    stay); a ” used both ways keeps its em."""
    plain = {i for i, role in lb.quote_roles(text).items() if role == "open"}
    return [max(advance - em / 2, 0.0) if i not in plain and (ch in READING_STOPS or ch in CLOSING or ch in OPENING
                                                                or ch in MIDDLE) else 0.0
            for i, (ch, (advance, _)) in enumerate(zip(text, cells))]


def squeezed(text: str, cells: Sequence[tuple[float, float]], em: float, excess: float) -> list[tuple[float, float]]:
    """``cells`` with ``excess`` points taken from their ``squeezable`` aki, in proportion (a
    pushed-in line): an opening bracket's glyph moved left with its aki, a 中点類's by half of
    what it gives up, so the ink stays against the text it belongs to."""
    room = squeezable(text, cells, em)
    total = sum(room)
    if excess <= 0 or total <= 0:
        return list(cells)
    share = min(excess / total, 1.0)
    out = []
    for ch, (advance, offset), r in zip(text, cells, room):
        cut = r * share
        out.append((advance - cut, offset - (cut if ch in OPENING else cut / 2 if ch in MIDDLE else 0.0)))
    return out


def _glue_gaps(before: str, after: str) -> int | None:
    """A no-break space's width in 和欧間 (1 or 0) between ``before`` and ``after`` when one of
    them is Japanese or a mark; None beside Latin text alone (300 g: a word space)."""
    if not any(glyphs.japanese(c) or c in PUNCT for c in (before, after) if c):
        return None
    return 1 if before and after and glyphs.wakan(before, after) else 0


# a font file saved over while the book's process runs: set with its new widths (fonts.saved_since)
fontreg.when_saved(full_width_marks.cache_clear)
