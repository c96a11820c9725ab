"""Parse a draft's lines into the document tree (``tree``); a Latin-script draft is read by ``latin``.

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
import unicodedata

from pnpgen.rulebook.latin import parse_latin
from pnpgen.rulebook.tables import MAP_GLYPHS, heads_a_table, is_map_line, table_row
from pnpgen.rulebook.tree import (
    LIST_LEVELS,
    NUMBER,
    Block,
    Blocks,
    Bullet,
    Component,
    Document,
    DraftParagraph,
    Item,
    Note,
    Preformatted,
    Section,
    Step,
    Subheading,
    asides,
    balanced_outer,
    count_in,
    mark_brainstorm,
    note_mark,
    to_ascii_digits,
)
from pnpgen.terms import is_latin

STEP_TITLE_MAX = 30  # characters: a step line longer than this is no heading but a numbered line
# a step line ending as a sentence ends (。 ！ ？): an instruction, never a heading (a heading has no 。)
_SENTENCE_END = re.compile(r"[。！？!?]$")
_STEP = re.compile(r"^([０-９0-9]{1,2})([：）:)])\s*(\S.*)$")
# the change log's heading, （!--大まかな変更点--）; or （!-- alone on its line, the log written as a
# block whose lone --） line closes it (as an HTML comment is written)
_CHANGELOG = re.compile(r"^（!--(.*?)(?:--）)?\s*$")
_CHANGELOG_END = re.compile(r"^--）\s*$")


def is_changelog_mark(line: str) -> bool:
    """A line that is the change log's mark, not text (its brackets are no slip of the pen)."""
    s = line.strip(" 　")
    return bool(_CHANGELOG.match(s) or _CHANGELOG_END.match(s))
_DRAFT = re.compile(rf"草案\s*{NUMBER}")
_NUMBERED = re.compile(r"^[0-9０-９]{1,2}[.．] (?=[^ 　])")


def _is_layout_line(s: str) -> bool:
    """A line whose spaces are layout: a map row, an odd indent, a column gap."""
    if not s.strip(" 　") or _is_structural(s):
        return False
    if is_map_line(s):
        return True
    short = len(s) <= 24
    lead = s[: len(s) - len(s.lstrip(" 　"))]
    # a number and its stop, a half-width space after them (「1. カードを配る。」, typed with the IME
    # in half-width mode): a line of text like 「１．カードを配る。」, its one space no column gap
    body = note_mark(_NUMBERED.sub("", s.strip(" 　"), count=1))[1]  # (and a note's mark, 「※ ただし」)
    odd_indent = lead not in ("", "　")
    # two spaces in a row, or a half-width space beside Japanese text (not "Wrath of God")
    gap = bool(re.search(r"[ 　]{2,}|[^\x00-\x7f] | [^\x00-\x7f]", body))
    return short and (odd_indent or gap)


def _is_structural(s: str) -> bool:
    """A heading, entry, bullet, list item, step or change-log line: never part of a diagram."""
    t = s.lstrip(" ")
    return t[:1] in "■◇〇○◎・" or bool(_STEP.match(t)) or t.startswith("（!--") or _list_mark(t) is not None


# a list item's own mark: a) ａ） (a) （ａ） (1) （１） ① … ⑳, a rule case ５．２．１ and its space (１） and
# １： are steps; １．５倍 is a number)
_LIST_MARK = re.compile(r"^([a-zA-Zａ-ｚＡ-Ｚ][)）]|[（(](?:[a-zA-Zａ-ｚＡ-Ｚ]|[0-9０-９]{1,2})[)）]|[①-⑳]"
                        r"|[0-9０-９]{1,2}(?:[.．][0-9０-９]{1,2}){1,3}(?=[ 　]))[ 　]*(?=\S)")


def _list_mark(t: str) -> re.Match | None:
    """``t``'s list mark, when it starts with one and goes on with text (not a diagram's ①□□ row)."""
    m = _LIST_MARK.match(t)
    return m if m and any(ch not in MAP_GLYPHS and not ch.isspace() for ch in t[m.end():]) else None


# a number and its full stop opening an item of a list indented as its text is (「　１．カードを引く」,
# 「　2. 出す」): a mark only in a run of two or more numbered in order (``indented_lists``); a lone
# line, or one unindented, is a line of text (the build warns of the second: draftchecks.dot_numbered)
_DOT_MARK = re.compile(r"^([0-9０-９]{1,2}[.．])(?![0-9０-９])[ 　]*(?=\S)")


def _ordinal(t: str) -> tuple[str, int] | None:
    """The kind and number of the mark ``t`` opens with (① → ("circled", 1), （２） → ("paren", 2),
    b) → ("letter", 2), ３． → ("dot", 3)); None for ・ and text."""
    m = _list_mark(t) or _DOT_MARK.match(t)
    if m is None or t[:1] == "・":
        return None
    if "①" <= t[0] <= "⑳":
        return "circled", ord(t[0]) - ord("①") + 1
    mark = unicodedata.normalize("NFKC", m.group(1))
    digits = re.sub(r"\D", "", mark)
    kind = "paren" if mark[0] == "(" else "dot" if mark[-1] == "." else "close"
    if digits and not re.search(r"\d\.\d", mark):
        return kind, int(digits)
    letter = re.sub(r"[^A-Za-z]", "", mark)
    return (f"letter-{kind}", ord(letter.lower()) - ord("a") + 1) if len(letter) == 1 else None


def _in_order(heads: list[str]) -> bool:
    """Items whose marks are of one kind and numbered one after another (①②③, （１）（２）, １．２．)."""
    numbers = [_ordinal(h) for h in heads]
    kinds = {n[0] for n in numbers if n is not None}
    counted = [n[1] for n in numbers if n is not None]
    return len(counted) == len(heads) and len(kinds) == 1 and counted == list(range(counted[0], counted[0] + len(heads)))


def _case_item(t: str) -> bool:
    """``t`` opens with a rule case's number and its space (「１．１　…」, ``1.1 …``), as a wargame's
    rules number their cases."""
    m = _list_mark(t)
    return m is not None and m.group(1)[:1] in "0123456789０１２３４５６７８９"


def _opens_item(t: str) -> bool:
    """``t`` (its indent stripped) starts a list's item: ・ or a mark (a) （１） ①) and its text."""
    return t[:1] == "・" or _list_mark(t) is not None


def _has_inner_space(s: str) -> bool:
    return bool(re.search(r"[ 　]", s.strip(" 　")))


def indented_lists(lines: list[str]) -> dict[int, int]:
    """Lists written indented as the text around them is (「　・場札に…」, 「　①Ａさんが…」 under a
    paragraph that is indented so): the lines of each run of indented items whose outermost indent
    holds two items or more — all ・, or circled numbers in order (①, ②) — by index, with that
    indent in full-width spaces (their level 0; an item indented deeper is nested), unless the run
    is nested under an unindented list's item above it. One such line
    alone, 「　①のエリアボードを…」, stays a paragraph (trial43: such a list was set as paragraphs,
    its nested items as a diagram)."""
    def indent(s: str) -> int:
        return len(s) - len(s.lstrip("　"))

    out: dict[int, int] = {}
    i, n = 0, len(lines)
    while i < n:
        j = i
        while j < n and lines[j].startswith("　") and (_opens_item(t := lines[j].lstrip("　")) or _DOT_MARK.match(t)):
            j += 1
        if j == i:
            i += 1
            continue
        if i and _opens_item(lines[i - 1].lstrip(" ")):  # under an unindented list's item: nested in it
            i = j
            continue
        base = min(indent(lines[k]) for k in range(i, j))
        heads = [lines[k].lstrip("　") for k in range(i, j) if indent(lines[k]) == base]
        if len(heads) >= 2 and (all(h[:1] == "・" for h in heads) or _in_order(heads)):
            out.update({k: base for k in range(i, j)})
        i = j
    return out


def find_preformatted(lines: list[str]) -> list[tuple[int, int]]:
    """Runs of layout lines as half-open [start, end) ranges; one blank line may sit inside a run.

    A short line with an inner space directly beside a run joins it (``　５〜　枚：３``
    under ``　　４　枚：２``), and so does a longer row of an aligned table whose column starts where
    its neighbour's does.
    """
    layout = [_is_layout_line(s) for s in lines]
    n = len(lines)
    indented = indented_lists(lines)
    item = [_opens_item(s.lstrip(" ")) or i in indented for i, s in enumerate(lines)]  # a list's item: unindented,
    # or nested in one, or of a list indented as its text is
    for i in range(1, n):  # an item indented under a list's item is nested in it, however deep: no diagram
        if item[i - 1] and _opens_item(lines[i].lstrip(" 　")):
            item[i], layout[i] = True, False
    for i in range(n - 1):  # two rows of a table whose columns line up, however long (each fitting the page)
        if not (item[i] or item[i + 1] or _is_structural(lines[i]) or _is_structural(lines[i + 1])) \
                and table_row(lines[i], lines[i + 1]) and table_row(lines[i + 1], lines[i]):
            layout[i] = layout[i + 1] = True
    for _ in range(2):  # grow runs by neighbours
        for i in range(n):
            if layout[i] or not lines[i].strip() or not _has_inner_space(lines[i]) or _is_structural(lines[i]):
                continue
            beside = [lines[j] for j in (i - 1, i + 1) if 0 <= j < n and layout[j]]
            if beside and (len(lines[i]) <= 16 or any(table_row(lines[i], b) for b in beside)):
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



def parse(text: str, lang: str = "ja") -> Document:
    """The draft's tree; a draft in a Latin-script language is read by ``latin.parse_latin``."""
    if is_latin(lang):
        return parse_latin(text)
    lines = text.split("\n")
    pre = {start: end for start, end in find_preformatted(lines)}
    indented = indented_lists(lines)

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
            rows = [lines[k].rstrip() for k in range(i, end)]
            out.add(Preformatted(rows, gap, lineno, header=heads_a_table(rows)))
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
        if section is not None and section.kind == "changelog" and _CHANGELOG_END.match(s):
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
        if sm and section.kind == "rules":
            # a sentence, or a line too long for a heading, is an instruction: a numbered line
            text = sm.group(3).strip()
            instruction = len(sm.group(3)) > STEP_TITLE_MAX or bool(_SENTENCE_END.search(text))
            step = Step(int(to_ascii_digits(sm.group(1))), sm.group(2), text, [], lineno,
                        sentence=text if instruction else "")
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
        item = s.lstrip(" 　")
        if gap and s == item and section.is_components and out.base is not section.children and _case_item(item):
            # a rule case after a blank line, unindented (「１．１　駒は…」 under the last ◇ entry): the
            # section's rule, not the entry's description
            out.reset(section.children)
        above = out.last if isinstance(out.last, Bullet) and not gap else None  # (a list's item right above)
        base = indented.get(i - 1)  # (i: the next line's index already)
        mark = None if item[:1] == "・" else _list_mark(item) or (_DOT_MARK.match(item) if base is not None else None)
        if (item[:1] == "・" or mark) and (s == item or above or base is not None):
            # ・ and a) （１） ① items; an indented one under a list's item is nested in it, a level a
            # full-width space of indent, one deeper than the item above at most (an indented
            # line that opens no list, 「　①のエリアボードを…」, is a paragraph); a list indented as
            # its text is (``indented_lists``) counts its indent from its own
            depth = len(s) - len(s.lstrip("　")) - (base or 0)
            level = min(max(depth, 1), above.level + 1, LIST_LEVELS) if above and depth > 0 else 0
            out.add(Bullet(item[mark.end():].strip() if mark else item[1:].strip(), gap, lineno,
                           mark.group(1) if mark else "", level))
        elif head in "◇◎〇○":
            sub = Subheading("〇" if head == "○" else head, s[1:].strip(" 　"), gap, lineno)
            out.close(sub.level)
            out.add(sub)
        else:
            out.add(_paragraph(s, gap, lineno))
        gap = False
    out.close(0)

    for each in sections:
        _steps_one_kind(each)
        if each.kind == "rules":
            each.children = asides(each.children)
    mark_brainstorm(sections)
    _apply_memo_counts(sections)
    return Document(title, parts, label, number, sections, preamble)


def _steps_one_kind(section: Section) -> None:
    """A section's steps are all headings or all numbered lines: when one is an instruction
    (``１：カードを１枚引く。``, a numbered line), a step written as a title (``２：手札を出す``, its
    lines under it) is a numbered line too, its lines indented under it — a heading 3.2 beside a
    numbered line 1. read as two kinds of step (the English drafts' rule, ``latin._steps_alike``)."""
    steps = [c for c in section.children if isinstance(c, Step)]
    if any(step.sentence for step in steps):
        for step in steps:
            step.sentence = step.sentence or step.title


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

