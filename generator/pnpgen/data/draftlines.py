"""The lines of a Latin-script (English) draft told apart: headings (``#`` marks, ``Chapter 1``,
numbered titles, ALL CAPS), steps, bullets and text. The rulebook's reader (``rulebook/latin.py``)
builds its tree from them, and the history (``engine/recording.py``) finds the sections a changelog
names, in the build's own process, which never loads the rulebook."""

from __future__ import annotations

import re

from pnpgen.patterns import later

_HASH = re.compile(r"^(#{1,6})\s+(\S.*?)\s*#*\s*$")
_CHAPTER = later(r"^(?:chapter|part)\s+(\d+|[ivxlc]+)\b\s*[.:—–-]?\s*(.*)$", re.I)
_SUBNUMBER = later(r"^(\d+)\.(\d+)(?:\.(\d+))?\.?\s+(\S.*)$")
_NUMBERED = re.compile(r"^(\d+)\.\s+(\S.*)$")
# a step: ``1) Draw``, ``Step 1: Draw``, and ``1: Draw`` as a Japanese draft writes its steps (「１：配置」),
# a number and a colon before a space (``10:30`` is a time, not step 10)
_STEP = later(r"^(?:(\d+)\)|(\d+):(?=\s)|step\s+(\d+)\s*[:.)—–-])\s*(\S.*)$", re.I)
_BULLET = later(r"^([-*•])\s+(\S.*)$")
_SENTENCE_END = (".", "!", "?", ":", ";", ",")
# two or more spaces inside a line: where an aligned table's columns part
_COLUMN_GAP = re.compile(r"\S[ \u3000]{2,}(?=\S)")
# words: a numbered line longer than this that goes on on the next line is a rule case's sentence
# (``5.3 A unit that ends its move beside an enemy unit must`` …), not a title (``5.3 Zones of Control``)
TITLE_WORDS = 6
# the words of a rulebook's sections: a first line in capitals holding one is a section, not the title
_SECTION_WORDS = later(
    r"\b(?:overview|introduction|components?|contents|set[- ]?up|preparation|rules|play(?:ing)?|gameplay|"
    r"turns?|rounds?|end|scoring|winning|victory|goal|object|variants?|credits|glossary|notes|issues|changes)\b", re.I)


def title_like(text: str, limit: int = 60) -> bool:
    """Short and not ending as a sentence does: a heading, not a line of text."""
    return 0 < len(text) <= limit and not text.endswith(_SENTENCE_END)


def all_caps(text: str) -> bool:
    """A short line in capitals (``SETUP``): a section heading — not a row of an aligned table,
    whose cells are parted by column gaps (a combat results table's ``1     AE   AR   DR`` was set
    as six numbered sections and its rows lost, trial76)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters) and title_like(text, 50) \
        and not _BULLET.match(text) and len(_COLUMN_GAP.findall(text)) < 2


def _goes_on(text: str, following: str) -> bool:
    """Does a numbered line's ``text`` go on as a sentence rather than title what follows? It
    starts in lower case, or (a rule case's ``5.1.2``: ``following`` given) the next line holds
    more of it: not blank, and no line of its own (a number, a mark, a heading)."""
    if text[:1].islower():
        return True
    nxt = following.strip()
    return bool(nxt) and not (_HASH.match(nxt) or _CHAPTER.match(nxt) or _SUBNUMBER.match(nxt) or _NUMBERED.match(nxt)
                              or _STEP.match(nxt) or _BULLET.match(nxt) or all_caps(nxt))


class DraftLines:
    """The draft's lines classified: ``(kind, level, number, text)`` per line, kind one of
    blank, title, section, sub, step, bullet, text."""

    def __init__(self, lines: list[str]):
        self.raw = lines
        marks = [len(m.group(1)) for m in map(_HASH.match, (s.strip() for s in lines)) if m]
        levels = sorted(set(marks))
        self.title_level = levels[0] if len(levels) > 1 and marks.count(levels[0]) == 1 \
            and marks[0] == levels[0] else None
        rest = [lv for lv in levels if lv != self.title_level]
        self.section_level = rest[0] if rest else 1
        stripped = [s.strip() for s in lines]
        # a first line in capitals that names no section is the title (HARBOUR MASTERS above 1. Overview)
        first = next((i for i, s in enumerate(stripped) if s), 0)
        self.caps_title = first if stripped and all_caps(stripped[first]) and not _SECTION_WORDS.search(stripped[first]) \
            else None
        other_marks = bool(rest) or any(_CHAPTER.match(s) or all_caps(s) and i != self.caps_title
                                        for i, s in enumerate(stripped))
        numbered = [int(m.group(1)) for m in map(_NUMBERED.match, stripped) if m and title_like(m.group(2), 40)]
        self.numbered_sections = not other_marks and len(numbered) >= 2 and all(
            a < b for a, b in zip(numbered, numbered[1:]))

    def classify(self, s: str, following: str = "") -> tuple[str, int, int, str]:
        """``s`` (stripped) classified; ``following``, the raw line after it, tells a hard-wrapped
        rule case (``5.1.2 Terrain costs follow the chart, and a road costs`` going on below)
        from a numbered sub-heading."""
        if not s:
            return ("blank", 0, 0, "")
        m = _HASH.match(s)
        if m:
            level = len(m.group(1))
            if level == self.title_level:
                return ("title", 0, 0, m.group(2))
            if level <= self.section_level:
                return ("section", 0, 0, m.group(2))
            return ("sub", min(level - self.section_level, 3), 0, m.group(2))
        m = _CHAPTER.match(s)
        if m:
            return ("section", 0, 0, m.group(2).strip() or s)
        m = _SUBNUMBER.match(s)
        # three numbers mark a case whatever its length; two, a title unless it is longer than one
        wraps = bool(m and (m.group(3) or len(m.group(4).split()) > TITLE_WORDS))
        if m and title_like(m.group(4)) and not _goes_on(m.group(4), following if wraps else ""):
            return ("sub", 2 if m.group(3) else 1, 0, m.group(4))
        m = _NUMBERED.match(s)
        if m and self.numbered_sections and title_like(m.group(2), 40):
            return ("section", 0, int(m.group(1)), m.group(2))
        if all_caps(s):
            return ("section", 0, 0, s)
        m = _STEP.match(s) or (None if self.numbered_sections else _NUMBERED.match(s))
        if m:
            groups = [g for g in m.groups() if g is not None]
            return ("step", 0, int(groups[0]), groups[-1])
        m = _BULLET.match(s)
        if m:
            return ("bullet", 0, 0, m.group(2))
        return ("text", 0, 0, s)
