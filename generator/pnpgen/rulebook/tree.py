"""The draft's tree: what the Japanese parser (``parse``) and the Latin-script one (``latin``)
both read a draft into, and the small readers both use (counts, kanji numerals, brackets).

A ``Document`` has the title line, the ■ sections in order (rules, notes, brainstorm, change
log) and their blocks: paragraphs, notes, bullets, items, preformatted diagrams and sub-headings
holding the blocks under them; a components section holds ``Component`` entries, a rules section
numbered ``Step`` s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from pnpgen.data.validate import KANJI_DIGITS, KANJI_UNITS, kanji_number

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


# A list nests this deep at most (its marks a little over an em apart): deeper items are set at it,
# their text keeping most of the line.
LIST_LEVELS = 6


@dataclass
class Bullet:
    """A list's item: a ``・`` bullet, or one marked ``a)``, ``（１）``, ``①`` (``mark``); ``level`` 1 is
    an item nested under the one above it (a draft's ``　・`` under ``・``)."""

    text: str
    gap_before: bool = False
    line: int = 0
    mark: str = ""  # the draft's own mark (a) （１） ①); none: the book's bullet
    level: int = 0


@dataclass
class Item:
    """An unindented line that is no heading: ``傲慢のメダリオン（３）：…``, ``君主　５（…）``."""

    text: str
    term: str | None = None  # the part before the first ：, when it reads as a term
    body: str = ""
    gap_before: bool = False
    line: int = 0


# a question's and an answer's term in a section of questions and answers (「Ｑ：…」 over 「Ａ：…」,
# numbered 「Ｑ１：」, an English draft's "Q: …" over "A: …")
_FAQ_TERM = re.compile(r"([QＱ]|[AＡ])[0-9０-９]{0,3}")


def faq_role(block: object) -> str | None:
    """"Q" for an item that asks (its term 「Ｑ」, 「Ｑ１」, "Q"), "A" for one that answers, else None:
    the book sets a question and its answer as one group, space between the pairs."""
    term = getattr(block, "term", None) if isinstance(block, Item) else None
    m = _FAQ_TERM.fullmatch(term or "")
    return None if m is None else "Q" if m.group(1) in "QＱ" else "A"


@dataclass
class Preformatted:
    """Lines whose spacing carries meaning (map diagrams, aligned tables): monospace, as is."""

    lines: list[str]
    gap_before: bool = False
    line: int = 0
    header: bool = False  # its first line heads a table's columns: a rule is drawn under it


@dataclass
class Subheading:
    """A ◇ ◎ 〇 sub-heading and the blocks under it, up to where the draft returns to the level
    above: a run of two or more blank lines, a sub-heading of the same or a higher level, the next
    numbered step or a ■ section."""

    marker: str  # ◇ ◎ 〇 (○ is read as 〇)
    text: str
    gap_before: bool = False
    line: int = 0
    children: list[Block] = field(default_factory=list)
    end_line: int = 0  # the draft's last line inside the block

    @property
    def level(self) -> int:
        return {"◇": 1, "◎": 2, "〇": 3}[self.marker]


@dataclass
class Aside:
    """An example or a caution the draft writes as a block: a line opening ``例：``, ``【例】``,
    ``注意：``, ``【注意】`` or ``※注意`` (in English ``Example:``, ``Example of play:``, ``Caution:``) and the lines right under it, up to the next blank line (the
    label's line may hold the block's first words); set boxed, its label a small heading."""

    kind: str  # "example" (例) or "caution" (注意)
    label: str  # 例, 注意; Example, Example of play, Caution as an English draft writes it
    children: list[Block] = field(default_factory=list)
    gap_before: bool = False
    line: int = 0


Block = DraftParagraph | Note | Bullet | Item | Preformatted | Subheading | Aside


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
    parts_off: list[int] = field(default_factory=list)  # "54 cards: 40 X and 10 Y": the parts' counts, not the total's
    note: str = ""  # "4 Player mats (double-sided)": the parenthesis after the name, set as a note (its first child)
    total: str = ""  # "36 Tiles: 20 Square tiles and 16 L tiles": the total's name, the entry's heading over its parts
    whole: str = ""  # "24 Fish and spice": the name before "and", "&" or "," split it, for a deck named so

    @property
    def name(self) -> str:
        latin = not any(ord(ch) >= 0x2E80 for n in self.names for ch in n)
        return (", " if latin else "、").join(self.names)

    @property
    def each(self) -> bool:
        text = self.count_text or ""
        return bool(text) and (text.startswith("各") or "each" in text.casefold())


@dataclass
class Step:
    """A numbered step of the draft (1：, 2）…): set as a heading of the rules, or as a numbered line when the draft
    wrote it as a sentence."""

    number: int
    marker: str  # ： or ）
    title: str
    children: list[Block] = field(default_factory=list)
    line: int = 0
    # an English step the draft wrote as one whole sentence (``1. Shuffle the deck.``): its words
    # as written, set as a numbered line of the text, not as a heading of the contents
    sentence: str = ""
    # an English step of several sentences and nothing under them (``2. Place the map. The Axis
    # sets up first.``): its words as written, the sentence it is set as when its section's other
    # steps are sentences (a heading 3.2 under a numbered line 1. would read as two kinds of step)
    whole: str = ""


@dataclass
class Section:
    """A ■ section of the draft: rules, notes, brainstorm or changelog; only the rules go into the book."""

    title: str
    kind: str  # rules | notes | brainstorm | changelog
    children: list[Block | Component | Step] = field(default_factory=list)
    line: int = 0
    memos: list[Item] = field(default_factory=list)  # count memos moved out of ■　コンポーネント

    @property
    def is_components(self) -> bool:
        return self.kind == "rules" and bool(COMPONENTS_JA.search(self.title) or COMPONENTS_EN.search(self.title))

    @property
    def is_quick_reference(self) -> bool:
        """The draft's own 早見表 (■　早見表, ## Quick reference): the book then makes none of its own."""
        return self.kind == "rules" and bool(QUICK_REFERENCE.search(self.title))

    @property
    def is_spoiler(self) -> bool:
        """A section the players read only after the game (■　解答編（ネタバレ注意）, ## Solution (spoilers)): it
        starts a page of its own and the quick reference, read during play, repeats nothing of it."""
        return self.kind == "rules" and bool(SPOILER.search(self.title))


@dataclass
class Document:
    """The designer's draft as read: its title, draft number and sections, what the book, the proof and the quick
    reference are all made from."""

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
        yield from walk(self.preamble)
        for s in self.sections:
            for c in s.children:
                yield from walk(c.children if isinstance(c, (Component, Step)) else [c])

    def stated_players(self) -> tuple[int, int] | None:
        """The ``３〜５人用`` line of ■　コンポーネント (also ``三〜五人用``, ``3–5 players`` in
        English), as (min, max)."""
        found = self._players_statement()
        return found[:2] if found else None

    def players_line(self) -> int:
        """The draft's line stating the player count (0: none), where a count differing from the data's is told."""
        found = self._players_statement()
        return found[2] if found else 0

    def _players_statement(self) -> tuple[int, int, int] | None:
        number = rf"(\d{{1,6}}|{_KANJI})"
        for s in self.rules:
            for b in s.children:
                if isinstance(b, DraftParagraph):
                    m = re.fullmatch(rf"{number}(?:[〜～~\-－]{number})?人用", to_ascii_digits(b.text.strip())) or \
                        re.fullmatch(r"(?:for\s+)?(\d{1,6})(?:\s*(?:[-–~]|to)\s*(\d{1,6}))?\s+players?\.?", b.text.strip(), re.I)
                    if m:
                        lo = read_number(m.group(1))
                        return lo, read_number(m.group(2)) if m.group(2) else lo, b.line
        return None


def walk(blocks: list) -> Iterator[Block]:
    for b in blocks:
        yield b
        if isinstance(b, (Subheading, Aside)):
            yield from walk(b.children)


# ---------------------------------------------------------------- helpers

# ■　コンポーネント, and the word most Japanese rulebooks print for the list, ■　内容物 (内容物一覧, ゲームの内容物;
# 同梱物, the box's contents)
COMPONENTS_JA = re.compile(r"コンポーネント|内容物|同梱物")
COMPONENTS_EN = re.compile(r"component|^contents\b|in the box", re.I)
# a section that is the draft's own summary of the rules: 早見表, クイックリファレンス, Quick reference
QUICK_REFERENCE = re.compile(r"早見表|クイックリファレンス|クイック・リファレンス|quick[- ]?reference|at a glance", re.I)
# a section of the answers, to be read after the game: 「ネタバレ」 or "spoiler(s)" in its title
SPOILER = re.compile(r"ネタバレ|\bspoilers?\b", re.I)
_FW_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def to_ascii_digits(text: str) -> str:
    return text.translate(_FW_DIGITS)


# a count: one to six digits (a longer run of digits is no count)
NUMBER = r"(?<![０-９0-9])([０-９0-9]{1,6})(?![０-９0-9])"
_UNITS = "枚|個|本|台|体|セット|組|種|人"
_COUNT = re.compile(rf"{NUMBER}\s*({_UNITS})?")
_KANJI = "[" + "".join(KANJI_DIGITS) + "".join(KANJI_UNITS) + "]+"
# a kanji numeral is a count only before a counter word, or standing alone (三 in 「三つ巴」 is none)
_KANJI_COUNT = re.compile(rf"({_KANJI})\s*({_UNITS})|^\s*({_KANJI})\s*$")


# a section the draft numbers itself, as a wargame's rules are (「■　５．０　移動」, ``5.0 Movement``):
# its major number, then the minor ones, then the title after a space
_OWN_SECTION_NUMBER = re.compile(r"^([０-９0-9]{1,3})[.．](?:[０-９0-9]{1,3})?[ 　]+\S")


def own_section_number(title: str) -> str | None:
    """The major number of a section title that carries its own case number (「５．０　移動」: "5"),
    or its own number and a dot (``## 5. Playing the game``, whose rule cases are 5.1, 5.2: the book
    printed it ``4 5. Playing the game``, trial55), which the book prints as written instead of
    numbering the section itself; None for any other."""
    m = _OWN_SECTION_NUMBER.match(title)
    return to_ascii_digits(m.group(1)) if m else None


def read_number(text: str) -> int:
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

    @property
    def last(self) -> Block | None:
        """The block added last where the next one goes (in the innermost open sub-heading)."""
        blocks = self.open[-1].children if self.open else self.base
        return blocks[-1] if blocks else None

    def add(self, block: Block) -> None:
        (self.open[-1].children if self.open else self.base).append(block)
        self.last_line = block.line
        if isinstance(block, Preformatted):
            self.last_line = block.line + len(block.lines) - 1
        if isinstance(block, Subheading):
            self.open.append(block)



def mark_brainstorm(sections: list[Section]) -> None:
    """Everything before the last ■　概要 or Overview (when there are several) is brainstorm."""
    overviews = [k for k, s in enumerate(sections) if s.kind == "rules" and s.title in ("概要", "Overview")]
    if len(overviews) < 2:
        return
    for s in sections[: overviews[-1]]:
        if s.kind == "rules":
            s.kind = "brainstorm"




# a note's mark at a paragraph's start: ※ (※1 ※２ numbered), 注： (注1： numbered) or ＊; the
# space typed after it is the mark's own, full-width or half-width (the IME in half-width mode: 「※ ただし」
# was no note, and a short one was set as a diagram, boxed)
_NOTE_MARK = re.compile(r"^(※[0-9０-９]{0,2}|注[0-9０-９]{0,2}[：:]|＊)[　 ]?(?=\S)")


def note_mark(text: str) -> tuple[str, str]:
    """(mark, text after it) of a note the draft writes as ``※…``, ``注：…`` or ``＊…``, which the
    book hangs under its text (the mark in its own column, JLREQ's hanging indent for notes);
    ("", ``text``) for any other paragraph."""
    m = _NOTE_MARK.match(text)
    return (m.group(1), text[m.end():]) if m else ("", text)


# an example's or a caution's label at a line's start: 【例】 〈例〉 例： 【注意】 〈注意〉 注意： ※注意 (※注意
# followed by text, 「※注意してください」, is a ※ note)
_ASIDE = re.compile(r"^(?:【(例|注意)】|〈(例|注意)〉|(例|注意)[：:]|※(注意)(?=[：:　]|$)[：:]?)[ 　]*")
# an English draft's: Example: / Examples: / Example of play: / Caution: (a wargame's example of play)
_LATIN_ASIDE = re.compile(r"^(Examples?(?: of [Pp]lay)?|Caution)\s*:\s*")
_IN_ASIDE = (DraftParagraph, Note, Bullet, Item, Preformatted)


def asides(blocks: list, latin: bool = False) -> list:
    """``blocks`` with each example or caution the draft writes (``_ASIDE``'s label opening a line,
    ``_LATIN_ASIDE``'s in an English draft, the lines right under it up to a blank line) gathered as
    an ``Aside``, in the blocks of sub-headings and steps too."""
    out: list = []
    i = 0
    label_at = _LATIN_ASIDE if latin else _ASIDE
    while i < len(blocks):
        b = blocks[i]
        if isinstance(b, (Subheading, Step)):
            b.children = asides(b.children, latin)
        m = label_at.match(b.text) if isinstance(b, (DraftParagraph, Item)) else None
        if m:
            label = next(g for g in m.groups() if g)
            rest = b.text[m.end():]
            children: list[Block] = [DraftParagraph(rest, not latin, False, b.line)] if rest else []
            j = i + 1
            while j < len(blocks) and isinstance(blocks[j], _IN_ASIDE) and not blocks[j].gap_before:
                children.append(blocks[j])
                j += 1
            if children:
                kind = "example" if label == "例" or label.startswith("Example") else "caution"
                out.append(Aside(kind, label, children, b.gap_before, b.line))
                i = j
                continue
        out.append(b)
        i += 1
    return out
