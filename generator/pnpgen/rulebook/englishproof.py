"""Slips of the pen in an English draft, as an editor queries them before the book is set (the
analyser of ``grammar`` reads Japanese only): a word written twice (``the the``), one word spelt
the British and the American way in the rules (colour / color), and ``its`` for ``it's`` (``its
not``) or the other way round (``it's own``), and a case number typed full-width (``５．１``, an IME in
Japanese mode), which the book prints half-width."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from pnpgen.rulebook.grammar import Slip, without_column_gaps
from pnpgen.rulebook.xrefs import case_number, wide_case

_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+(\1)\b", re.I)
_MEANT_TWICE = frozenset("that had bye no ha knock very so really far more many".split())
# its before a word no noun it owns can be (its too late, its the last round, its your turn)
_ITS = re.compile(r"\b(its)\s+(?:not|a|an|been|going|very|too|the|your|their|my|our|now|just|also|still|because|"
                  r"here|there)\b|\b(it['’]s)\s+own\b", re.I)
# British and American spellings of one word (each also with an ending: colours, coloured, favourite)
_SPELLINGS = (("colour", "color"), ("favour", "favor"), ("harbour", "harbor"), ("neighbour", "neighbor"),
              ("honour", "honor"), ("armour", "armor"), ("behaviour", "behavior"), ("labour", "labor"),
              ("centre", "center"), ("grey", "gray"), ("defence", "defense"), ("offence", "offense"),
              ("catalogue", "catalog"), ("travell", "travel", "ll"), ("cancell", "cancel", "ll"), ("organis", "organiz"),
              ("recognis", "recogniz"), ("realis", "realiz"), ("minimis", "minimiz"), ("maximis", "maximiz"),
              ("randomis", "randomiz"), ("prioritis", "prioritiz"))
_ENDINGS = r"(?:s|ed|ing|ful|ite|ites|able|er|ers|e|es|ation|ations)?"
# a final l doubled before an ending in British spelling only (travelled, traveled): the word itself
# and travels are spelt alike, so only its forms with an ending are told apart
_ENDINGS_LL = r"(?:ed|ing|er|ers)"
_FORMS = [(re.compile(rf"\b({uk}{ends})\b", re.I), re.compile(rf"\b({us}{ends})\b", re.I))
          for uk, us, *ll in _SPELLINGS for ends in [_ENDINGS_LL if ll else _ENDINGS]]


def _context(line: str, start: int, end: int, width: int = 24) -> str:
    line, start, end = without_column_gaps(line, start, end)  # a table's row quoted by its words
    a, b = max(0, start - width), min(len(line), end + width)
    return ("…" if a else "") + line[a:b].strip() + ("…" if b < len(line) else "")


def slips(lines: list[tuple[int, str]], rules: set[int], names: Iterable[str] = ()) -> list[Slip]:
    """The slips of the draft's lines (number, text), in line order; one word's two spellings are
    read in the ``rules`` lines only, and a spelling one of ``names`` uses (the game's title, a
    deck's name) is the name's own."""
    named = {w.casefold() for name in names for w in re.findall(r"[A-Za-z]+", name)}
    out: list[Slip] = []
    for n, line in lines:
        for m in _DOUBLED.finditer(line):
            # (a name said twice, Bora Bora, Walla Walla: both words capitalised, mid-sentence or not)
            if m.group(1).casefold() not in _MEANT_TWICE and not (m.group(1)[0].isupper() and m.group(2)[0].isupper()):
                out.append(Slip("doubled", n, m.group(0), m.group(1), _context(line, m.start(), m.end()), m.start()))
        if (wide := wide_case(line)) is not None:  # 「５．１」: read and printed as 5.1; the draft's to mend
            at, found = wide
            out.append(Slip("widecase", n, found, case_number(found), _context(line, at, at + len(found)), at))
        for m in _ITS.finditer(line):
            found = m.group(1) or m.group(2)
            start = m.start(1) if m.group(1) else m.start(2)
            right = "it’s" if m.group(1) else "its"
            out.append(Slip("its", n, found, found[0] + right[1:],
                            _context(line, start, start + len(found)), start))
    for uk, us in _FORMS:
        seen: dict[bool, list[tuple[int, str, re.Match]]] = defaultdict(list)
        for n, line in lines:
            if n in rules:
                for american, form in ((False, uk), (True, us)):
                    seen[american] += [(n, line, m) for m in form.finditer(line)
                                       if m.group(1).casefold() not in named]
        if seen[False] and seen[True]:
            # the more usual in the rules; in a tie, the one the names use (an American game's Harbor
            # tokens: its draft's harbors are no slip), else the one written first
            by_name = {a: any(form.fullmatch(w) for w in named) for a, form in ((False, uk), (True, us))}
            usual = max((False, True), key=lambda a: (len(seen[a]), by_name[a], -seen[a][0][0]))
            word = seen[usual][0][2].group(1)
            for n, line, m in seen[not usual]:
                out.append(Slip("variant", n, m.group(1), f"{word} ({len(seen[usual])}×)",
                                _context(line, m.start(), m.end()), m.start()))
    return sorted(out, key=lambda s: (s.line, s.at))
