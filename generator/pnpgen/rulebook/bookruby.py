"""Ruby in the book's body text: the draft's readings (``{騎士|きし}``, ``｜鏡《かがみ》``; the reader
prints them in parentheses, rulebook/reader.py) set above their words in a paragraph of the rules,
at half the text's size in the line gap, as JLREQ 3.3.2 sets ruby where the gap holds it (the 9 pt
body's 15 pt grid leaves 6 pt, a 4.5 pt reading fits: no line leaves the grid). The base is one
unit no line breaks inside (3.3.5-3.3.6), but for a jukugo ruby's, which a line's end may part
between its characters, each under its own reading (3.3.7, Appendix F: ``parted``); a reading longer than its base reaches over a kana
beside it by up to one ruby character (3.3.8, as card text does: ``text.ruby.reaches``) and
spreads the base along the rest 1:2:1 (3.3.6, JIS X 4051; a mono ruby's base centred); a reading shorter than a group ruby's base is spread along the base 1:2:1, its ends no
more than one ruby character in (``text.ruby.spread``, the cards' rule). Headings, tables, the
contents and the index keep the parentheses; so does a book whose face is proportional."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pnpgen.rulebook.reader import PART
from pnpgen.text.ruby import RUBY_SCALE, character_xs, parts, reaches

Ruby = tuple[int, int, str]  # a base's start and end in its paragraph's text, and its reading
Reach = tuple[float, float]  # how far a reading reaches over the characters before and after its base


def placed(text: str, rubies: Sequence[tuple[str, str, str]],
           fits: Callable[[str], bool] = lambda reading: True) -> tuple[str, tuple[Ruby, ...], tuple[Ruby, ...]]:
    """``text`` with each ruby the reader set in parentheses (``rubies``: as printed, 騎士（きし）,
    its base and reading) back to its base, and where each base stands (a 【term】's inside its
    brackets); then each jukugo ruby's parts (``{東京|とう|きょう}``: 東 and とう, 京 and きょう, a
    reading a base character, the reader's ``PART`` between them), which a line may part
    (``parted``). A reading that ``fits`` not (longer than the line: its base, one unit,
    would be spread past the page's edge) keeps its parentheses, which break across lines."""
    if not rubies or "（" not in text:
        return text, (), ()
    # (the paragraph's own: a draft's thousands of rubies were each tried at every character of every paragraph)
    shown = {said: (base, reading) for said, base, reading in rubies
             if said in text and fits(reading.replace(PART, ""))}
    out: list[str] = []
    found: list[Ruby] = []
    jukugo: list[Ruby] = []
    at = length = 0
    while at < len(text):
        hit = next((said for said in shown if text.startswith(said, at)), None)
        if hit is None:
            out.append(text[at])
            at += 1
            length += 1
            continue
        base, reading = shown[hit]
        out.append(base)
        term = base[:1] == "【" and base[-1:] == "】" and len(base) > 2  # a 【term】's reading over the term, not its brackets
        start, end, pieces = length + term, length + len(base) - term, reading.split(PART)
        found.append((start, end, "".join(pieces)))
        if len(pieces) == end - start > 1 and all(pieces):
            jukugo += [(start + k, start + k + 1, piece) for k, piece in enumerate(pieces)]
        length += len(base)
        at += len(hit)
    return "".join(out), tuple(found), tuple(jukugo)


def parted(rubies: Sequence[Ruby], jukugo: Sequence[Ruby], lines: Sequence[tuple[int, int]] | None = None
           ) -> tuple[Ruby, ...]:
    """``rubies`` as set in ``lines``: a jukugo ruby a line's end parts (JLREQ 3.3.7 and Appendix F:
    it may break between its base characters) becomes its parts, each base character with its own
    reading on its own line (``jukugo``, from ``placed``); one on a line of its own is set as one
    group ruby of its readings run together, as before. ``lines`` None: every jukugo ruby parted
    (how the line breaker tries it)."""
    if not jukugo:
        return tuple(rubies)
    starts = {s for s, _ in (lines or ())[1:]}
    out: list[Ruby] = []
    for s, e, reading in rubies:
        mine = [p for p in jukugo if s <= p[0] and p[1] <= e]
        if mine and (lines is None or any(s < b < e for b in starts)):
            out += mine
        else:
            out.append((s, e, reading))
    return tuple(out)


def pushed_down(rubies: Sequence[Ruby], jukugo: Sequence[Ruby], lines: Sequence[tuple[int, int]]) -> bool:
    """Does a jukugo ruby start a line after the first, pushed down whole from the line above?"""
    starts = {s for s, _ in lines[1:]}
    return any(s in starts and any(p[0] == s for p in jukugo) for s, _, _ in rubies)


def in_line(rubies: Sequence[Ruby], start: int, end: int) -> tuple[Ruby, ...]:
    """The rubies of a line of the paragraph (``start``-``end``), their places from the line's start."""
    return tuple((s - start, e - start, r) for s, e, r in rubies if start <= s and e <= end)


def reach(text: str, cells: Sequence[tuple[float, float]], rubies: Sequence[Ruby],
          reading_width: Callable[[str], float], em: float, line: bool) -> list[Reach]:
    """Each ruby's reach (before, after) over the characters beside its base, as card text sets it
    (``text.ruby.reaches``, JLREQ 3.3.8): a reading longer than its base reaches over a kana (ー, a
    dash) beside it by up to one ruby character, over a bracket or 、。 by its glyph's half em at most,
    never over a kanji, a Latin letter or another ruby. ``cells``: ``text``'s (advance, offset)
    unspread. ``line``: ``text`` is one line of the page, so a base heading it reaches past its end
    alone (the reading's head on the base's, JIS X 4051) and a base ending it past its start alone;
    else a paragraph to break into lines, where each ruby is given the least reach it may have at
    either edge of a line, so that no line set is longer than its break allowed."""
    units: list[tuple[str, float]] = []
    unit_of: dict[int, int] = {}
    starts = {s: (i, e) for i, (s, e, _) in enumerate(rubies)}
    k = 0
    while k < len(text):
        if k in starts:
            i, e = starts[k]
            unit_of[i] = len(units)
            units.append(("", sum(a for a, _ in cells[k:e])))
            k = e
        else:
            units.append((text[k], cells[k][0]))
            k += 1
    excess = {unit_of[i]: reading_width(r) - units[unit_of[i]][1] for i, (_, _, r) in enumerate(rubies) if i in unit_of}
    found = reaches(units, {u: x for u, x in excess.items() if x > 1e-9}, em)
    out: list[Reach] = []
    for i, (s, e, _) in enumerate(rubies):
        r = found.get(unit_of.get(i, -1))
        if r is None:
            out.append((0.0, 0.0))
        elif not line:
            least = min(r.lead + r.tail, r.head_tail, r.foot_lead)
            out.append((least / 2, least / 2))
        elif s == 0 and e < len(text):
            out.append((0.0, r.head_tail))
        elif e == len(text) and s > 0:
            out.append((r.foot_lead, 0.0))
        elif s == 0:
            out.append((0.0, 0.0))  # (alone on its line: centred on its base)
        else:
            out.append((r.lead, r.tail))
    return out


def widened(cells: Sequence[tuple[float, float]], rubies: Sequence[Ruby],
            reading_width: Callable[[str], float], reached: Sequence[Reach] = ()) -> list[tuple[float, float]]:
    """The (advance, offset) ``cells`` with each base shorter than its reading spread along what
    the reading does not reach over its neighbours (``reached``, from ``reach``): one part of it
    before the first character and after the last for two between each pair (a mono ruby's base
    centred)."""
    out = list(cells)
    for n, (s, e, reading) in enumerate(rubies):
        lead, tail = reached[n] if n < len(reached) else (0.0, 0.0)
        extra = reading_width(reading) - sum(a for a, _ in cells[s:e]) - lead - tail
        if extra <= 1e-9:
            continue
        unit = extra / (2 * (e - s))
        for k in range(s, e):
            advance, offset = out[k]
            out[k] = (advance + 2 * unit, offset + unit)
    return out


def glued(rubies: Sequence[Ruby]) -> tuple[int, ...]:
    """The places in the text no line may break before: each base character after its first."""
    return tuple(k for s, e, _ in rubies for k in range(s + 1, e))


def reading_xs(reading: str, widths: Sequence[float], left: float, right: float, size: float,
               group: bool) -> list[float]:
    """Each character's x of ``reading`` (its advances ``widths``) over a base from ``left`` to
    ``right``: solid and centred, or, shorter than a ``group`` ruby's base, spread along it 1:2:1,
    its ends one ruby character in at most (JLREQ 3.3.6, figure 2.3.21)."""
    total = sum(widths)
    if group and len(parts(reading)) > 1 and total < right - left - 1e-9:
        return character_xs(reading, widths, left, right - left, "", size * RUBY_SCALE)
    out, x = [], left + (right - left - total) / 2
    for w in widths:
        out.append(x)
        x += w
    return out
