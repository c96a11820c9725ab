"""Parse a draft's lines into a document tree.

The designer's markup (see shared/drafts/README.md):

=================  ==========================================================
``■■　タイトル　草案N``  title line: game title and draft number
``■　見出し``          section; ``■　問題点`` holds the designer's open problems
``◇名前（８０枚）``     component entry in ■　コンポーネント, a sub-heading elsewhere
``◎`` ``〇`` ``○``      sub-headings (◎ above 〇)
``１：`` ``１）``        numbered step (unindented)
``・``                  bullet
``　本文``              paragraph (full-width-space indent); ``　（…）`` a note
``（!--…--）``          change-log block (its bullets follow)
map diagrams           lines of □ ◆ ① and spaces: preformatted, spacing kept
=================  ==========================================================

In ``000_…`` a brainstorm precedes the rules: everything before the last ``■　概要``,
when the draft has more than one, is brainstorm, not rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Union

# ---------------------------------------------------------------- tree


@dataclass
class DraftParagraph:
    """A paragraph of the designer's draft, as written (ReportLab's Paragraph sets it later)."""

    text: str
    indent: bool = True  # the draft indented it with a full-width space
    gap_before: bool = False  # a blank line preceded it in the draft
    line: int = 0


@dataclass
class Note:
    """A paragraph wholly in parentheses: an aside to the rule above it."""

    text: str
    gap_before: bool = False
    line: int = 0


@dataclass
class Bullet:
    text: str
    gap_before: bool = False
    line: int = 0


@dataclass
class Item:
    """An unindented line that is no heading: ``傲慢のメダリオン（３）：…``, ``君主　５（…）``."""

    text: str
    term: str | None = None  # the part before the first ：, when it reads as a term
    body: str = ""
    gap_before: bool = False
    line: int = 0


@dataclass
class Preformatted:
    """Lines whose spacing carries meaning (map diagrams, aligned tables): monospace, as is."""

    lines: list[str]
    gap_before: bool = False
    line: int = 0


@dataclass
class Subheading:
    """A ◇ ◎ 〇 sub-heading and the blocks under it, up to where the draft returns to the level
    above: a run of two or more blank lines, a sub-heading of the same or a higher level, the next
    numbered step or a ■ section."""

    marker: str  # ◇ ◎ 〇 (○ is read as 〇)
    text: str
    gap_before: bool = False
    line: int = 0
    children: list["Block"] = field(default_factory=list)
    end_line: int = 0  # the draft's last line inside the block

    @property
    def level(self) -> int:
        return {"◇": 1, "◎": 2, "〇": 3}[self.marker]


Block = Union[DraftParagraph, Note, Bullet, Item, Preformatted, Subheading]


@dataclass
class Component:
    """A ◇ entry of ■　コンポーネント: ``◇ＶＰボード、ＶＰマーカー（１枚／４個）``."""

    names: list[str]
    count_text: str | None  # what the parentheses say, "" for ``（）``, None without
    counts: list[int]  # the numbers stated, in order
    units: list[str]
    heading: str  # the entry as written, without ◇
    children: list[Block] = field(default_factory=list)
    memo: str | None = None  # the designer's count memo line, when it supplies the count
    line: int = 0

    @property
    def name(self) -> str:
        latin = not any(ord(ch) >= 0x2E80 for n in self.names for ch in n)
        return (", " if latin else "、").join(self.names)

    @property
    def each(self) -> bool:
        return bool(self.count_text) and (self.count_text.startswith("各") or "each" in self.count_text.casefold())


@dataclass
class Step:
    number: int
    marker: str  # ： or ）
    title: str
    children: list[Block] = field(default_factory=list)
    line: int = 0


@dataclass
class Section:
    title: str
    kind: str  # rules | notes | brainstorm | changelog
    children: list[Block | Component | Step] = field(default_factory=list)
    line: int = 0
    memos: list[Item] = field(default_factory=list)  # count memos moved out of ■　コンポーネント

    @property
    def is_components(self) -> bool:
        return self.kind == "rules" and ("コンポーネント" in self.title or bool(_COMPONENTS_EN.search(self.title)))


@dataclass
class Document:
    title: str  # the ■■ line without the draft number
    title_parts: list[str]  # title split at full-width spaces
    draft_label: str  # 草案１２
    draft_number: int | None
    sections: list[Section]
    preamble: list[Block] = field(default_factory=list)  # text before the first ■

    def of_kind(self, kind: str) -> list[Section]:
        return [s for s in self.sections if s.kind == kind]

    @property
    def rules(self) -> list[Section]:
        return self.of_kind("rules")

    @property
    def components(self) -> list[Component]:
        return [c for s in self.rules for c in s.children if isinstance(c, Component)]

    @property
    def steps(self) -> list[Step]:
        return [c for s in self.rules for c in s.children if isinstance(c, Step)]

    def blocks(self) -> Iterator[Block]:
        """Every block, sub-headings before their children, in order (glyph coverage, text search)."""
        yield from _walk(self.preamble)
        for s in self.sections:
            for c in s.children:
                yield from _walk(c.children if isinstance(c, (Component, Step)) else [c])

    def stated_players(self) -> tuple[int, int] | None:
        """The ``３〜５人用`` line of ■　コンポーネント (also ``三〜五人用``, ``3–5 players`` in
        English), as (min, max)."""
        number = rf"(\d{{1,6}}|{_KANJI})"
        for s in self.rules:
            for b in s.children:
                if isinstance(b, DraftParagraph):
                    m = re.fullmatch(rf"{number}(?:[〜～~\-－]{number})?人用", to_ascii_digits(b.text.strip())) or \
                        re.fullmatch(r"(?:for\s+)?(\d{1,6})(?:\s*(?:[-–~]|to)\s*(\d{1,6}))?\s+players?\.?", b.text.strip(), re.I)
                    if m:
                        lo = _number(m.group(1))
                        return lo, _number(m.group(2)) if m.group(2) else lo
        return None


def _walk(blocks: list) -> Iterator[Block]:
    for b in blocks:
        yield b
        if isinstance(b, Subheading):
            yield from _walk(b.children)


# ---------------------------------------------------------------- helpers

_COMPONENTS_EN = re.compile(r"component|^contents\b|in the box", re.I)
_FW_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def to_ascii_digits(text: str) -> str:
    return text.translate(_FW_DIGITS)


_STEP = re.compile(r"^([０-９0-9]{1,2})([：）:)])\s*(\S.*)$")
_CHANGELOG = re.compile(r"^（!--(.*?)--）\s*$")
_NUMBER = r"(?<![０-９0-9])([０-９0-9]{1,6})(?![０-９0-9])"  # a longer run of digits is no count
_DRAFT = re.compile(rf"草案\s*{_NUMBER}")
_MAP_GLYPHS = set("□■◆◇○●△▲▽▼☆★") | {chr(c) for c in range(0x2460, 0x2474)}
_UNITS = "枚|個|本|台|体|セット|組|種|人"
_COUNT = re.compile(rf"{_NUMBER}\s*({_UNITS})?")
_KANJI_DIGITS = {ch: n for n, chars in enumerate(("〇零", "一", "二", "三", "四", "五", "六", "七", "八", "九"))
                 for ch in chars}
_KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
_KANJI = "[" + "".join(_KANJI_DIGITS) + "".join(_KANJI_UNITS) + "]+"
# a kanji numeral is a count only before a counter word, or standing alone (三 in 「三つ巴」 is none)
_KANJI_COUNT = re.compile(rf"({_KANJI})\s*({_UNITS})|^\s*({_KANJI})\s*$")


def kanji_number(text: str) -> int:
    """``三`` → 3, ``十二`` → 12, ``二十四`` → 24, ``百五`` → 105, ``二〇`` → 20 (digit by digit)."""
    total = current = 0
    for ch in text:
        if ch in _KANJI_UNITS:
            total += (current or 1) * _KANJI_UNITS[ch]
            current = 0
        else:
            current = current * 10 + _KANJI_DIGITS[ch]
    return total + current


def _number(text: str) -> int:
    """ASCII digits or a kanji numeral."""
    return int(text) if text.isdigit() else kanji_number(text)


def count_in(text: str) -> tuple[int, str] | None:
    """The first count of ``text`` and its counter word (枚, 個 … or ""): digits, full-width
    digits or a kanji numeral (``三枚``, ``二十四個``), all read alike."""
    m = _COUNT.search(text)
    if m:
        return int(to_ascii_digits(m.group(1))), m.group(2) or ""
    k = _KANJI_COUNT.search(text)
    if k:
        return kanji_number(k.group(1) or k.group(3)), k.group(2) or ""
    return None


def _is_map_line(s: str) -> bool:
    body = s.strip(" 　")
    return bool(body) and all(ch in _MAP_GLYPHS or ch in " 　" for ch in body) and any(
        ch in "□◆■◇" for ch in body
    )


def _is_layout_line(s: str) -> bool:
    """A line whose spaces are layout: a map row, an odd indent, a column gap."""
    if not s.strip(" 　") or _is_structural(s):
        return False
    if _is_map_line(s):
        return True
    short = len(s) <= 24
    lead = s[: len(s) - len(s.lstrip(" 　"))]
    body = s.strip(" 　")
    odd_indent = lead not in ("", "　")
    # two spaces in a row, or a half-width space beside Japanese text (not "Wrath of God")
    gap = bool(re.search(r"[ 　]{2,}|[^\x00-\x7f] | [^\x00-\x7f]", body))
    return short and (odd_indent or gap)


def _is_structural(s: str) -> bool:
    """A heading, entry, bullet, step or change-log line: never part of a diagram."""
    t = s.lstrip(" ")
    return t[:1] in "■◇〇○◎・" or bool(_STEP.match(t)) or t.startswith("（!--")


def _has_inner_space(s: str) -> bool:
    return bool(re.search(r"[ 　]", s.strip(" 　")))


def find_preformatted(lines: list[str]) -> list[tuple[int, int]]:
    """Runs of layout lines as half-open [start, end) ranges; one blank line may sit inside a run.

    A short line with an inner space directly beside a run joins it (``　５〜　枚：３``
    under ``　　４　枚：２``).
    """
    layout = [_is_layout_line(s) for s in lines]
    n = len(lines)
    for _ in range(2):  # grow runs by neighbours
        for i in range(n):
            if layout[i] or not lines[i].strip() or len(lines[i]) > 16 or not _has_inner_space(lines[i]) \
                    or _is_structural(lines[i]):
                continue
            if (i > 0 and layout[i - 1]) or (i + 1 < n and layout[i + 1]):
                layout[i] = True
    runs: list[tuple[int, int]] = []
    i = 0
    while i < n:
        if not layout[i]:
            i += 1
            continue
        j = i + 1
        while j < n:
            if layout[j]:
                j += 1
            elif not lines[j].strip() and j + 1 < n and layout[j + 1]:
                j += 2
            else:
                break
        runs.append((i, j))
        i = j
    return runs


def parse_component_heading(text: str) -> Component:
    """``エピックカード（８０枚）`` → names, stated counts and units."""
    m = re.match(r"^(.*?)（([^（）]*)）\s*$", text)
    head, inside = (m.group(1), m.group(2)) if m else (text, None)
    names = [n.strip() for n in re.split(r"[、，,＆&]", head) if n.strip()]
    counts: list[int] = []
    units: list[str] = []
    if inside:
        for part in re.split(r"[／/・、]", inside):
            found = count_in(part)
            if found:
                counts.append(found[0])
                units.append(found[1])
    return Component(names, inside, counts, units, text.strip())


def _memo_count(text: str) -> tuple[str, int] | None:
    """``塔　３スート×１６＋モニュメント２０＝６８`` → ("塔", 68); ``君主　５（…）`` → ("君主", 5)."""
    m = re.match(r"^(\S+?)　+(.+)$", text)
    if not m:
        return None
    head, rest = m.group(1), re.sub(r"（[^（）]*）", "", m.group(2))
    if "＝" in rest:
        rest = rest.rsplit("＝", 1)[1]
    n = count_in(rest)
    return (head, n[0]) if n else None


# ---------------------------------------------------------------- parser


def _paragraph(s: str, gap: bool, line: int) -> Block:
    body = s[1:] if s.startswith("　") else s
    stripped = body.strip()
    if stripped.startswith("（") and stripped.endswith("）") and balanced_outer(stripped):
        return Note(stripped, gap, line)
    if s.startswith("　"):
        return DraftParagraph(body.rstrip(), True, gap, line)
    tm = re.match(r"^([^：]{1,24})：(.+)$", stripped)
    if tm and tm.group(1).count("（") == tm.group(1).count("）"):
        return Item(stripped, tm.group(1), tm.group(2), gap, line)
    return Item(stripped, None, stripped, gap, line)


def balanced_outer(s: str, opening: str = "（", closing: str = "）") -> bool:
    """True when the first bracket closes at the very end (not ``（左）　（右）``)."""
    depth = 0
    for i, ch in enumerate(s):
        depth += ch == opening
        depth -= ch == closing
        if depth == 0:
            return i == len(s) - 1
    return False


class Blocks:
    """Where the next block goes: the section, step or component, or the innermost open
    sub-heading inside it."""

    def __init__(self, base: list) -> None:
        self.base = base
        self.open: list[Subheading] = []
        self.last_line = 0

    def reset(self, base: list) -> None:
        self.close(0)
        self.base = base

    def close(self, level: int) -> None:
        """Close the open sub-headings of ``level`` and below (0: all of them)."""
        while self.open and self.open[-1].level >= level:
            self.open.pop().end_line = self.last_line

    def add(self, block: Block) -> None:
        (self.open[-1].children if self.open else self.base).append(block)
        self.last_line = block.line
        if isinstance(block, Preformatted):
            self.last_line = block.line + len(block.lines) - 1
        if isinstance(block, Subheading):
            self.open.append(block)


def parse(text: str, lang: str = "ja") -> Document:
    """The draft's tree; a draft in a Latin-script language is read by ``latin.parse_latin``."""
    from pnpgen.rulebook.reader import is_latin

    if is_latin(lang):
        from pnpgen.rulebook.latin import parse_latin

        return parse_latin(text)
    lines = text.split("\n")
    pre = {start: end for start, end in find_preformatted(lines)}

    title, parts, label, number = "", [], "", None
    sections: list[Section] = []
    preamble: list[Block] = []
    section: Section | None = None
    out = Blocks(preamble)
    gap = False
    blanks = 0  # blank lines in a row before this one

    i = 0
    while i < len(lines):
        raw = lines[i].rstrip()
        lineno = i + 1
        if raw.strip() and blanks >= 2 and out.open and raw.lstrip(" ")[:1] not in "◇◎〇○":
            out.close(out.open[-1].level)  # a run of blank lines returns one level up
        if i in pre:
            end = pre[i]
            out.add(Preformatted([lines[k].rstrip() for k in range(i, end)], gap, lineno))
            gap, blanks = False, 0
            i = end
            continue
        i += 1
        if not raw.strip():
            gap = True
            blanks += 1
            continue
        blanks = 0
        s = raw.lstrip(" ") if not raw.startswith("　") else raw
        if s.startswith("■■"):
            title_line = s[2:].strip(" 　")
            dm = _DRAFT.search(title_line)
            if dm:
                label = dm.group(0)
                number = int(to_ascii_digits(dm.group(1)))
                title_line = title_line[: dm.start()].rstrip(" 　") + title_line[dm.end() :]
            title = title_line.strip(" 　")
            parts = [p for p in title.split("　") if p]
            gap = False
            continue
        if s.startswith("■"):
            name = s[1:].strip(" 　")
            kind = "notes" if name.startswith("問題点") else "rules"
            section = Section(name, kind, [], lineno)
            sections.append(section)
            out.reset(section.children)
            gap = False
            continue
        cm = _CHANGELOG.match(s)
        if cm:
            section = Section(cm.group(1).strip() or "変更点", "changelog", [], lineno)
            sections.append(section)
            out.reset(section.children)
            gap = False
            continue
        if section is None:
            out.add(_paragraph(s, gap, lineno))
            gap = False
            continue
        sm = _STEP.match(s)
        if sm and section.kind == "rules" and len(sm.group(3)) <= 30:
            step = Step(int(to_ascii_digits(sm.group(1))), sm.group(2), sm.group(3).strip(), [], lineno)
            section.children.append(step)
            out.reset(step.children)
            gap = False
            continue
        head = s[0]
        if head == "◇" and section.is_components:
            comp = parse_component_heading(s[1:].strip(" 　"))
            comp.line = lineno
            section.children.append(comp)
            out.reset(comp.children)
            gap = False
            continue
        if head in "◇◎〇○":
            sub = Subheading("〇" if head == "○" else head, s[1:].strip(" 　"), gap, lineno)
            out.close(sub.level)
            out.add(sub)
        elif head == "・":
            out.add(Bullet(s[1:].strip(), gap, lineno))
        else:
            out.add(_paragraph(s, gap, lineno))
        gap = False
    out.close(0)

    mark_brainstorm(sections)
    _apply_memo_counts(sections)
    return Document(title, parts, label, number, sections, preamble)


def mark_brainstorm(sections: list[Section]) -> None:
    """Everything before the last ■　概要 or Overview (when there are several) is brainstorm."""
    overviews = [k for k, s in enumerate(sections) if s.kind == "rules" and s.title in ("概要", "Overview")]
    if len(overviews) < 2:
        return
    for s in sections[: overviews[-1]]:
        if s.kind == "rules":
            s.kind = "brainstorm"


def _apply_memo_counts(sections: list[Section]) -> None:
    """The eiketsuden draft states its counts in memo lines (``君主　５（…）``) after the entries."""
    for s in sections:
        if not s.is_components:
            continue
        comps = [c for c in s.children if isinstance(c, Component)]
        # Unindented lines under an entry are the designer's count memos, not its description.
        for c in comps:
            s.memos += [b for b in c.children if isinstance(b, Item)]
            c.children = [b for b in c.children if not isinstance(b, Item)]
        for memo in s.memos:
            found = _memo_count(memo.text)
            if not found:
                continue
            head, n = found
            for c in comps:
                if not c.counts and c.count_text is None and any(name.startswith(head) for name in c.names):
                    c.counts, c.units, c.memo = [n], [""], memo.text
                    break
