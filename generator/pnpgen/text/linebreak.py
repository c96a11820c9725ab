"""Line breaking: JLREQ kinsoku + BudouX phrases for Japanese, words and hyphenation for Latin;
greedy fill, no hanging.

A paragraph is a sequence of *units*: one character, an icon (``OBJ``) or a ruby base (kept whole).
``break_classes`` says, for each gap between two units, whether a line may break there:

- ``KINSOKU`` never (a JLREQ rule: a line-start-prohibited character after the gap, a
  line-end-prohibited one before it, or an inseparable pair such as ``……``);
- ``WORD`` never: inside a Latin word (``can't``, ``e.g``, the letters of ``Counter-``);
- ``HYPHEN`` a hyphenation point inside a Latin word (pyphen, by the text's language): used only
  when the word is longer than the line, and the line then ends with a visible hyphen;
- ``CLUSTER`` not unless nothing else fits (a number with its unit ``1VP``, a range ``1〜2``,
  the space before a spaced dash ``word — word``, which stays with the word before it, a
  【term】's first and last characters: ``【パ|ストパイル】`` is JLREQ's, not an editor's);
- ``CHAR`` allowed, but inside a BudouX phrase;
- ``PHRASE`` a phrase boundary (or after a space, a comma, a full stop, a word's hyphen
  ``Counter-|intelligence`` or a dash between words ``double—|counter``): the preferred place.

``fill`` then sets lines greedily: each line takes as many units as fit, and ends at the last
phrase boundary that fits; only a phrase longer than a whole line is broken inside. A
line-start-prohibited character is never hung past the edge: the break moves earlier, so the
character before it comes down with it (追い出し). A Latin word is never split elsewhere than at
its hyphenation points, and a JLREQ rule is never broken: a stretch wider than the line with no
break that fits runs over the edge (the box then sets the text smaller, or warns) — unless the
caller asks to ``force`` a break, as a book does: a Latin run (a long address, a word with no
hyphenation point that fits) is then broken by character at the line's edge, as JLREQ allows
when nothing else fits, and so, as the last resort, is a run JLREQ keeps whole (a long ……,
ーーーー, 。。。): the book's proofing notes name its draft line (rulebook/proof.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache, partial
from typing import TYPE_CHECKING

from pnpgen.patterns import later

if TYPE_CHECKING:
    import pyphen

KINSOKU, CLUSTER, CHAR, PHRASE, WORD, HYPHEN = 0, 1, 2, 3, 4, 5
HYPHEN_CHAR = "-"  # drawn at the end of a line broken at a hyphenation point (every font has it)

OBJ = "\ufffc"  # an icon: one unbreakable character
_BUDOUX_OBJ = "物"  # what BudouX sees for an icon: a one-character noun

# JLREQ: characters not allowed at the start of a line (cl-02 closing brackets, cl-03 hyphens,
# cl-04 dividing punctuation, cl-05 middle dots, cl-06 full stops, cl-07 commas, cl-09 iteration
# marks, cl-10 prolonged sound mark, cl-11 small kana) and their Western forms.
NO_START = frozenset(
    "）」』】〉》］｝〕〙〗〟｠’”)]}»›"
    "‐–〜～゠"
    "？！?!‼⁇⁈⁉"
    "・：；:;"
    "。．.｡"
    "、，,､"
    "ヽヾゝゞ々〻"
    "ーｰ"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｯｬｭｮ"
    "゛゜%％‰℃°′″"
)
# … and not allowed at the end of a line (cl-01 opening brackets, cl-17 prefixed abbreviations).
NO_END = frozenset("（「『【〈《［｛〔〘〖〝｟‘“([{«‹¥$£€#＃￥＄№→⇒")
# JLREQ's classes of 約物 by where a full-width mark's glyph sits in its em (JLREQ 3.1.2: a half-em
# glyph and a half-em space): the rulebook's line setting spaces them (rulebook/jlreq.py), a card's
# ruby reading reaches over their glyph half (text/cells.py)
OPENING = frozenset("「『（【〔［｛〈《〘〖〝“‘")  # 始め括弧類 (cl-01): ink in the right half of the em
CLOSING = frozenset("」』）】〕］｝〉》〙〗〟”’")  # 終わり括弧類 (cl-02): ink in the left half
STOPS = frozenset("、。，．")  # 読点類・句点類 (cl-07, cl-06): ink in the left half
MIDDLE = frozenset("・：；")  # 中点類 (cl-05): ink in the middle
# Inseparable pairs (cl-08): a run of these never splits.
INSEPARABLE = ("…‥", "—―")
# An ideographic space (after ！？, between a name and its count) is a space too: a line may end
# after it, never start with it, and at a line's end it is dropped (JLREQ 3.1.6: the space after
# ！？ is not set at a line's end).
SPACES = frozenset(" \u00a0\u2002\u2003\u2009\u3000")
TRAILING_SPACES = " \u3000"  # what a set line's end is stripped of
# A phrase always ends after these (BudouX sometimes keeps 「するか、あるいは」 as one phrase).
PHRASE_END = frozenset("、。，．！？!?：；")
_NO_BREAK_SPACE = "\u00a0"

_DIGITS = frozenset("0123456789０１２３４５６７８９")
_LATIN = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ"
)
_ALNUM = _DIGITS | _LATIN
_WORD_HYPHENS = frozenset("-‐")  # a break may follow one inside a word: Counter-|intelligence
_DASHES = frozenset("—―–")  # between Latin words: a break after it (double—|counter), not before
_WORD_INNER = frozenset("'’-.,:．，：")  # inside a word or number when alnum on both sides
_RANGE = frozenset("〜～~-−–‐×")  # between two numbers: 1〜2, 3-5, 2×3
# glued to the number after it; an arrow too, a cross reference's 「→４．１」 (the arrow left at a
# line's end, its case number on the next line, sent the reader nowhere: trial59)
_PREFIX = frozenset("+-−＋－±¥$£€#＃￥＄№→⇒")
# a minus after a word or number it is taken from (「総枚数−１」): never starting a line, where it
# would read as a negative number's sign (「−１の得点」); after a particle or a mark it is that sign
_MINUS = frozenset("-−－")
_POSTFIX = frozenset("%％‰℃°′″")
# Counters glued to the number before them (１つ, ３枚, ２点, ４人, ２倍 …).
_COUNTERS = frozenset("つ枚点人個回本円倍番位周歩手度枠段種割分秒年月日時箇ヶケ")


# Quotes typed the same at both ends (”…” from a Japanese IME, "…"): paired up in a paragraph,
# odd ones open and even ones close. A ” or ″ that closes a “/〝 before it is a closing quote; the
# others are paired up among themselves (「”数”」→「“数”」: the last two ” of a proofing note still
# open and close its quotation of the draft).
_AMBIGUOUS_QUOTES = {'"': None, "＂": None, "”": "“", "″": "〝"}


def quote_roles(units: Sequence[str]) -> dict[int, str]:
    """Unit index → 'open' | 'close' for quotes that serve as both."""
    roles: dict[int, str] = {}
    text = "".join(units)
    for q, partner in _AMBIGUOUS_QUOTES.items():
        if q not in text:
            continue
        k = opened = 0  # the same-glyph quotes seen; the partners still open
        for i, u in enumerate(units):
            if partner and u == partner:
                opened += 1
            elif u == q and opened:
                opened -= 1  # “…”: its own closing quote, no role
            elif u == q:
                roles[i] = "open" if k % 2 == 0 else "close"
                k += 1
    return roles


def _katakana(c: str) -> bool:
    return "\u30a1" <= c <= "\u30fa" or c in "ーヽヾ" or "\uff66" <= c <= "\uff9f" or "\u31f0" <= c <= "\u31ff"


def _operand_end(c: str) -> bool:
    """``c`` can end what a minus after it is taken from: a kanji, katakana, a letter or digit, a
    closing bracket (not a hiragana particle, a mark or a space, after which a minus is a sign)."""
    return ("\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf" or c == "々" or _katakana(c) or c in _ALNUM
            or latin_letter(c) or c in CLOSING)


def latin_letter(c: str) -> bool:
    """A letter of a Latin-script word (ASCII, accented, full-width)."""
    return c in _LATIN or (c.isalpha() and ("\u00c0" <= c <= "\u024f" or "\u1e00" <= c <= "\u1eff"))


def _glue(units: Sequence[str]) -> list[bool]:
    """glue[i]: the gap before unit i is inside a cluster (word, number + unit, range)."""
    n = len(units)
    glue = [False] * (n + 1)
    first = [u[0] if u else "" for u in units]
    last = [u[-1] if u else "" for u in units]
    in_unit = False  # inside the katakana unit after a number: ３フェイス
    for i in range(1, n):
        a, b = last[i - 1], first[i]
        prev_digit = a in _DIGITS
        if in_unit and _katakana(b):
            glue[i] = True
            continue
        in_unit = False
        if (a in _ALNUM or latin_letter(a)) and (b in _ALNUM or latin_letter(b)):
            glue[i] = True
        elif (a in _ALNUM or latin_letter(a)) and b in _WORD_INNER and i + 1 < n \
                and (first[i + 1] in _ALNUM or latin_letter(first[i + 1])) and not (b in _RANGE and prev_digit):
            glue[i] = glue[i + 1] = True
        elif prev_digit and b in _RANGE and i + 1 < n and first[i + 1] in _DIGITS:
            glue[i] = glue[i + 1] = True
        elif b in _DIGITS and a in _PREFIX:
            glue[i] = True
        elif b in _MINUS and i + 1 < n and first[i + 1] in _DIGITS and _operand_end(a):
            glue[i] = True
        elif prev_digit and (b in _POSTFIX or b in _COUNTERS or b == OBJ):
            glue[i] = True
        elif prev_digit and _katakana(b):
            glue[i] = True
            in_unit = True
        elif a in _COUNTERS and b == "目" and i >= 2 and last[i - 2] in _DIGITS:
            glue[i] = True  # ２枚目
    return glue


@lru_cache(maxsize=1)
def _parser():
    import budoux  # imported when Japanese text is first broken (a build of cached faces never does)

    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=8192)
def phrase_boundaries(plain: str) -> frozenset[int]:
    """Character offsets in ``plain`` where one BudouX phrase ends and the next begins."""
    out: set[int] = set()
    pos = 0
    for phrase in _parser().parse(plain)[:-1]:
        pos += len(phrase)
        out.add(pos)
    return frozenset(out)


def break_classes(units: Sequence[str], phrases: bool = True, lang: str = "ja", hyphenate: bool = True) -> list[int]:
    """For each i in 0..len(units): the class of the gap before unit i (0 and n are unused).
    With ``phrases=False`` BudouX is not asked: every allowed gap is a plain ``CHAR`` break
    (pure JLREQ character-by-character setting). ``lang`` chooses the hyphenation dictionary;
    ``hyphenate=False`` leaves hyphenation points out (in-word gaps stay ``WORD``)."""
    n = len(units)
    plain = "".join(_BUDOUX_OBJ if u == OBJ else u for u in units)
    bounds = phrase_boundaries(plain) if n > 1 and phrases else frozenset()
    glue = _glue(units)
    roles = quote_roles(units)
    letter = [len(u) == 1 and latin_letter(u) for u in units]
    classes = [KINSOKU] * (n + 1)
    offset = 0
    for i in range(n):
        if i:
            a, b = units[i - 1][-1:], units[i][:1]
            b_start = roles[i] == "close" if i in roles else b in NO_START
            a_end = roles[i - 1] == "open" if i - 1 in roles else a in NO_END
            if b in SPACES or a == _NO_BREAK_SPACE or b_start or a_end:
                cls = KINSOKU
            elif any(a in s and b in s for s in INSEPARABLE):
                cls = KINSOKU
            elif glue[i] and _in_word(letter, units, i):
                cls = PHRASE if a in _WORD_HYPHENS else WORD
            elif glue[i]:
                cls = CLUSTER
            elif a in SPACES and b in _DASHES and i >= 2 and units[i - 2][-1:] not in SPACES:
                cls = CLUSTER  # word |— word: a spaced dash stays on the line of the word before it
            elif a in SPACES or a in PHRASE_END or offset in bounds:
                cls = PHRASE
            elif a in _DASHES and _latin_at(units, i - 2) and _latin_at(units, i):
                cls = PHRASE  # word—|word: after the dash, as after a compound's hyphen
            elif b in _DASHES and _latin_at(units, i - 1):
                cls = CLUSTER  # word|—: a line does not start with the dash unless nothing else fits
            else:
                cls = CHAR
            classes[i] = cls
        offset += len(units[i])
    if hyphenate:
        _hyphenation_points(units, letter, classes, lang)
    _address_breaks(units, classes)
    _term_ends(units, classes)
    return classes


def _term_ends(units: Sequence[str], classes: list[int]) -> None:
    """A 【term】 breaks leaving two characters of it on each side at least, or not at all: JLREQ
    allows 【パ|ストパイル】, an editor does not. The gaps after its first character and before
    its last become ``CLUSTER`` (taken only when the line has no other break)."""
    opened: list[int] = []
    for i, u in enumerate(units):
        if u == "【":
            opened.append(i)
        elif u == "】" and opened:
            start = opened.pop()
            for gap in (start + 2, i - 1):
                if start + 2 <= gap < i and classes[gap] in (CHAR, PHRASE):
                    classes[gap] = CLUSTER


# a web address written in a text, up to the punctuation of the sentence it ends
_ADDRESS = later(r"(?:https?://|www\.)[^\s<>\"“”‘’]*[^\s<>\"“”‘’.,;:!?)\]]")
_BEFORE_IN_ADDRESS = frozenset("/.-_?#%~=&")


def _address_breaks(units: Sequence[str], classes: list[int]) -> None:
    """A web address breaks where CMOS (17th ed., 14.18) has it: after ``//``, before a single
    slash, a full stop, a hyphen or another mark; never inside a word with an added hyphen (which
    a reader would type), nor after the address's own hyphen."""
    plain = "".join(units)
    if "//" not in plain and "www." not in plain:
        return
    unit_at, pos = [], 0  # the unit each character of ``plain`` belongs to
    for i, u in enumerate(units):
        unit_at += [i] * len(u)
        pos += len(u)
    for m in _ADDRESS.finditer(plain):
        first, last = unit_at[m.start()], unit_at[m.end() - 1]
        for i in range(first + 1, last + 1):
            a, b = units[i - 1], units[i]
            after_slashes = a == "/" and i >= 2 and units[i - 2] == "/" and b != "/"
            before_mark = b in _BEFORE_IN_ADDRESS and not (b == "/" and a in "/:")
            classes[i] = PHRASE if after_slashes or before_mark else WORD


def in_address(text: str, at: int) -> bool:
    """Offset ``at`` of ``text`` falls inside a web address (a break there draws no hyphen)."""
    return any(m.start() < at < m.end() for m in _ADDRESS.finditer(text))


def _latin_at(units: Sequence[str], i: int) -> bool:
    """Unit i is a Latin letter or a digit (a word or number beside a dash)."""
    return 0 <= i < len(units) and len(units[i]) == 1 and (units[i] in _ALNUM or latin_letter(units[i]))


def _in_word(letter: Sequence[bool], units: Sequence[str], i: int) -> bool:
    """The glued gap before unit i joins letters of one Latin word (``ab``, ``a|'b``, ``a'|b``)."""
    n = len(units)
    if i == 0 or i >= n:
        return False
    if letter[i - 1] and letter[i]:
        return True
    if letter[i - 1] and units[i] in _WORD_INNER and i + 1 < n and letter[i + 1]:
        return True
    return units[i - 1] in _WORD_INNER and i >= 2 and letter[i - 2] and letter[i]


def _hyphenation_points(units: Sequence[str], letter: Sequence[bool], classes: list[int], lang: str) -> None:
    """Mark the dictionary's hyphenation points of every Latin word as ``HYPHEN`` gaps."""
    n = len(units)
    i = 0
    while i < n:
        if not letter[i]:
            i += 1
            continue
        j = i
        while j < n and letter[j]:
            j += 1
        if j - i >= 5:
            for p in hyphen_positions("".join(units[i:j]), lang):
                if classes[i + p] == WORD:
                    classes[i + p] = HYPHEN
        i = j


@cache
def _dictionary(lang: str) -> pyphen.Pyphen:
    """pyphen's dictionary for ``lang``; Latin words in Japanese text (or a language pyphen does
    not know) are taken as English."""
    import pyphen  # imported when Latin text is first hyphenated

    return pyphen.Pyphen(lang=pyphen.language_fallback(lang.replace("-", "_")) or "en_US", left=2, right=3)


@lru_cache(maxsize=8192)
def hyphen_positions(word: str, lang: str = "en") -> tuple[int, ...]:
    """Offsets in ``word`` where it may be hyphenated."""
    return tuple(_dictionary(lang).positions(word))


def fill(classes: Sequence[int], widths: Sequence[float], spaces: Sequence[bool],
         max_width: float, hyphens: Sequence[float] | None = None, hang: float = 0.0,
         force: bool = False, edges: tuple[Sequence[float], Sequence[float]] | None = None) -> list[tuple[int, int]]:
    """Greedy lines as (start, end) unit ranges; trailing spaces count for no width. ``hyphens[i]``
    is the width of the hyphen drawn when a line ends before unit i at a ``HYPHEN`` gap; ``hang``
    the width the lines after the first give up (a list item's hanging indent); ``force``: a run
    with no break that fits is broken inside a word at the line's edge rather than run over it;
    ``edges``: what unit i adds to a line it starts, and to a line it ends (a ruby reading that
    reached over its neighbour, which the break sends to the other line)."""
    lines = _fill(classes, widths, spaces, max_width, hyphens, first_choice_only=False, hang=hang, force=force,
                  edges=edges)
    assert lines is not None
    return lines


def fill_hyphenating_late(classes_of: Callable[[bool], Sequence[int]], widths: Sequence[float],
                          spaces: Sequence[bool], max_width: float,
                          hyphens: Sequence[float] | None = None,
                          force: bool = False) -> tuple[Sequence[int], list[tuple[int, int]]]:
    """``fill`` with the classes ``classes_of(hyphenate)`` gives, and those classes. A hyphenation
    point is tried only when a line has no phrase or character break that fits, so the lines are
    first set without them (a hyphenation dictionary takes ~50 ms to load); only when a line
    needs another break are they looked up and the lines set again. Same lines either way."""
    classes = classes_of(False)
    lines = _fill(classes, widths, spaces, max_width, hyphens, first_choice_only=True)
    if lines is None:
        classes = classes_of(True)
        lines = fill(classes, widths, spaces, max_width, hyphens, force=force)
    return classes, lines


def _fill(classes: Sequence[int], widths: Sequence[float], spaces: Sequence[bool], max_width: float,
          hyphens: Sequence[float] | None, first_choice_only: bool, hang: float = 0.0,
          force: bool = False, edges: tuple[Sequence[float], Sequence[float]] | None = None) -> list[tuple[int, int]] | None:
    """``fill``; with ``first_choice_only``, None as soon as a line cannot end at a phrase or
    character break that fits."""
    n = len(widths)
    if n == 0:
        return [(0, 0)]
    eps = 1e-9
    lines: list[tuple[int, int]] = []
    start = 0
    while start < n:
        room = (max_width - hang if lines else max_width) - (edges[0][start] if edges else 0.0)
        # furthest end whose visible width fits (trailing spaces are free)
        width = 0.0
        pending = 0.0  # width of spaces not yet followed by ink
        end = start
        while end < n:
            w = widths[end]
            if spaces[end]:
                pending += w
            else:
                if width + pending + w > room + eps and end > start:
                    break
                if edges and end + 1 < n and width + pending + w + edges[1][end] > room + eps and end > start:
                    break  # ending here would bring its reading back inside the line
                width += pending + w
                pending = 0.0
            end += 1
        if end >= n:
            lines.append((start, n))
            break
        cut = _best_break(classes, widths, hyphens, start, end, room + eps, force)
        if first_choice_only and (cut > end or classes[cut] not in (PHRASE, CHAR)):
            return None
        lines.append((start, cut))
        start = cut
    return lines


def _best_break(classes: Sequence[int], widths: Sequence[float], hyphens: Sequence[float] | None,
                start: int, end: int, max_width: float, force: bool = False) -> int:
    """The break for a line [start, end) that is full: the last phrase boundary, else the last
    break inside a phrase, else a hyphenation point where the word and its hyphen fit, else inside
    a cluster, else (``force``) the last gap inside a word where the line and a hyphen fit, else
    (``force``) the line's edge, inside a run JLREQ keeps whole (a long ……, ーーーー); with none of
    these, the line runs over to the first break it allows (never against a JLREQ rule)."""
    for wanted in (PHRASE, CHAR):
        for p in range(end, start, -1):
            if classes[p] == wanted:
                return p
    for p in range(end, start, -1):
        if classes[p] == HYPHEN and sum(widths[start:p]) + (hyphens[p] if hyphens else 0.0) <= max_width:
            return p
    for p in range(end, start, -1):
        if classes[p] == CLUSTER:
            return p
    if force:
        for p in range(end, start, -1):
            if classes[p] == WORD and sum(widths[start:p]) + (hyphens[p] if hyphens else 0.0) <= max_width:
                return p
        if end > start + 1:  # a run JLREQ cannot break (……, ーーーー) wider than the line: at its edge, the last resort
            return end
    p = start + 1
    while p < len(widths) and classes[p] in (WORD, KINSOKU):
        p += 1
    return p


def hyphenated(classes: Sequence[int], end: int, n: int) -> bool:
    """A line ending before unit ``end`` (of ``n``) was broken at a hyphenation point."""
    return end < n and classes[end] == HYPHEN


def break_lines(text: str, max_width: float, measure: Callable[[str], float], phrases: bool = True,
                lang: str = "ja") -> list[str]:
    """Plain text (no markup) → lines no wider than ``max_width`` as measured by ``measure``.

    Newlines are explicit breaks (an empty paragraph gives an empty line); empty text gives no
    lines. Widths are taken per character and added up (true of ReportLab, which does not kern).
    Trailing spaces are dropped from each line. ``phrases=False`` sets character by character
    (JLREQ rules only), as a Japanese book does. A line broken at a hyphenation point of a Latin
    word ends with ``HYPHEN_CHAR``; ``lang`` chooses the dictionary.
    """
    if not text:
        return []
    cache: dict[str, float] = {}
    out: list[str] = []
    for para in text.replace("\r\n", "\n").split("\n"):
        units = list(para)
        widths = []
        for c in units:
            w = cache.get(c)
            if w is None:
                w = cache[c] = measure(c)
            widths.append(w)
        spaces = [u in SPACES for u in units]
        hyphens = [measure(HYPHEN_CHAR)] * (len(units) + 1)
        classes, lines = fill_hyphenating_late(partial(_classes_cached, para, phrases, lang), widths, spaces,
                                               max_width, hyphens)
        for s, e in lines:
            out.append(para[s:e].rstrip(TRAILING_SPACES) + (HYPHEN_CHAR if hyphenated(classes, e, len(units)) else ""))
    return out


def clear_caches() -> None:
    """Forget cached break classes and hyphenation points (for cold-start measurements)."""
    _classes_cached.cache_clear()
    hyphen_positions.cache_clear()


@lru_cache(maxsize=8192)
def _classes_cached(para: str, phrases: bool = True, lang: str = "ja", hyphenate: bool = True) -> tuple[int, ...]:
    return tuple(break_classes(list(para), phrases, lang, hyphenate))
