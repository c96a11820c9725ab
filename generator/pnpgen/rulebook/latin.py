"""A plain-text draft in English (or another Latin-script language) read into the same tree as a
Japanese one (``tree.Document``), so the rest of the rulebook build does not know the difference.

What the draft's marks mean:

* headings: ``#`` marks (when the first, shallowest one stands alone it is the title; the next
  level gives sections, deeper ones sub-headings), ``Chapter 1``/``Part 1`` lines, numbered
  lines ``1. Setup`` (sections, when the draft has no other section marks and their numbers
  never restart), ``1.2 Drawing`` (a sub-heading) and short lines in ALL CAPS (sections); a
  short first line before the first section is the title (in capitals too, unless it names a
  section: ``OVERVIEW``, ``SETUP``); ``Draft 3`` in the title is the draft
  number (also alone on the line under the title);
* bullets ``-``, ``*``, ``•`` (indented under one: nested), list items ``a)``, ``(a)``, ``(1)``; numbered steps ``1)``, ``1.``, ``Step 1:``, ``1:`` in a rules section;
  ``Term: text`` lines are items, a paragraph wholly in parentheses is a note;
* an aligned table, rows whose columns (parted by two or more spaces) start at the same place, is
  set as its rows stand, as a Japanese draft's is (``tables``);
* the components section (a title with "component", "contents" or "in the box"): each bullet is
  an entry, ``- 80 Epic cards``, ``- Epic cards (80)``, ``- VP board, VP markers (1 / 4)``,
  ``- 1 VP board and 4 VP markers``, ``- Cubes (5 each)``; the lines under it describe it;
* sections called "Open issues" / "Designer notes" are the designer's notes, "Changes" / "Change
  log" the change log; every section before the last of several "Overview" is brainstorm.

Lines of a paragraph are joined (a blank line, a heading, a bullet, a step or a ``Term:`` line
ends it) when the draft is wrapped by hand (three or more lines break off mid-sentence);
otherwise each line is a paragraph, and only an indented line continues the one above (or one
under a line ending in an abbreviation that ends no sentence: ``e.g.``, ``i.e.``, ``vs.``, ``p.``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from pnpgen.data.draftlines import DraftLines, title_like
from pnpgen.rulebook.tables import heads_a_table, table_row
from pnpgen.rulebook.tree import (
    LIST_LEVELS,
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
    mark_brainstorm,
)
from pnpgen.rulebook.xrefs import half_width_case

# a) (a) (1), and a rule case 5.2.1 (three or four numbers), or 5.2 before a capital on a line that
# is no title (a sentence: ``5.2 A unit may not move.``; ``5.1 Movement`` is a sub-heading, ``1.5
# times`` a number in the text)
_LIST_ITEM = re.compile(r"^(\(?[a-zA-Z]\)|\([0-9]{1,2}\)|[0-9]{1,2}(?:\.[0-9]{1,2}){2,3}"
                        r"|[0-9]{1,2}\.[0-9]{1,2}(?=\s+[A-Z]))\s+(?=\S)")
_CASE_NUMBER = re.compile(r"([0-9]{1,2}(?:\.[0-9]{1,2})+)\s")  # a numbered sub-heading's case: 6.2 of 6.2 Attacking
_TERM = re.compile(r"^([A-Z0-9][^:.!?]{0,48}(?<=\S)):\s+(\S.*)$")
_DRAFT = re.compile(r"[\s,(—–-]*\b(draft)\s*(?:#|no\.?\s*)?(\d+)\b\)?", re.I)

# a line ending in an abbreviation that does not end a sentence goes on on the next line (a draft
# of one paragraph per line wrapped after "(e.g." or "vs.")
_GOES_ON = re.compile(r"(?:^|[\s(])(?:e\.\s?g|i\.\s?e|vs|cf|viz|approx|incl|pp?)\.$", re.I)
_DRAFT_LINE = re.compile(r"\(?draft\s*(?:#|no\.?\s*)?\d+\)?", re.I)
_COUNT_FIRST = re.compile(r"^(\d+)\s*[x×]?\s+(\S.*)$", re.I)
# a count written as a word, as English rulebooks list components: "Four player mats", "A cloth bag"
NUMBER_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {
    "a": 1, "an": 1, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_WORD_FIRST = re.compile(r"^(" + "|".join(NUMBER_WORDS) + r")\s+(?:x\s+)?(\S.*)$", re.I)
_NOTE_LAST = re.compile(r"^(.*?\S)\s*\(([^()]*)\)\s*$")
_COUNT_LAST = re.compile(r"^(.*?\S)\s*(?:\(([^()]*)\)|[x×]\s*(\d+)|:\s*(\d+))\s*$", re.I)

_TYPED_SPACING = re.compile(r"[.!?][)\"'”’]?  +\S")  # two spaces after a sentence, as typists set them

NOTES = ("open issues", "issues", "problems", "designer notes", "designer's notes", "design notes", "to do", "todo")
CHANGES = ("changes", "change log", "changelog", "version history", "revision history")


def _definitions(blocks: list) -> None:
    """Two or more ``Term: text`` lines in a row are a list of terms, also where a text starts in
    lower case (a glossary: ``Lit lighthouse: a lighthouse with a Lamp on it.``), which one such
    line alone does not make an item (``That is: the…`` is a sentence); in every block below."""
    loose = [_loose_term(b.text) if isinstance(b, DraftParagraph) else None for b in blocks]
    listed = [m is not None or isinstance(b, Item) and b.term is not None for b, m in zip(blocks, loose)]
    for i, (b, m) in enumerate(zip(blocks, loose)):
        if m is not None and (i > 0 and listed[i - 1] or i + 1 < len(blocks) and listed[i + 1]):
            blocks[i] = Item(b.text, m.group(1), m.group(2), b.gap_before, b.line)
    for b in blocks:
        if isinstance(getattr(b, "children", None), list):
            _definitions(b.children)


def _loose_term(text: str) -> re.Match | None:
    """``Term: text`` with a term of at most four words, whatever the text starts with."""
    m = _TERM.match(text)
    return m if m and len(m.group(1).split()) <= 4 else None


def _term(text: str) -> re.Match | None:
    """``Term: text``: a term of at most four words (or one ending in ``(3)``) before a text that
    starts a sentence, or a term with a number in it."""
    m = _TERM.match(text)
    if not m or (len(m.group(1).split()) > 4 and not m.group(1).endswith(")")):
        return None
    # "That is: the…" is a sentence; "Pride (3): discard…", "3 players: none", "Setup: Shuffle…" are items
    return m if re.search(r"\d|\)$", m.group(1)) or m.group(2)[0].isupper() or m.group(2)[0].isdigit() else None


def _wrapped(lines: list[str]) -> bool:
    """Long lines end mid-sentence with more text right under them: two or more, or one in a
    draft with no line longer than a hand-wrapped one (100 characters)."""
    ends = sum(1 for a, b in zip(lines, lines[1:])
               if len(a.strip()) >= 40 and b.strip() and (a.rstrip()[-1].isalnum() or a.rstrip()[-1] in ",-"))
    return ends >= 2 or (ends == 1 and max(len(s) for s in lines) <= 100)


def _kind(title: str) -> str:
    t = title.casefold().rstrip(": ")
    if t.startswith(NOTES):
        return "notes"
    return "changelog" if t.startswith(CHANGES) else "rules"


def parse_latin(text: str) -> Document:
    """The draft's tree (see the module's docstring for the marks it reads). A case number typed
    full-width (「５．１　Movement」, an IME in Japanese mode) is read, and printed, as 5.1."""
    lines = [half_width_case(line) for line in text.split("\n")]
    cls = DraftLines(lines)
    wrapped = _wrapped(lines)
    title, label, number = "", "", None
    sections: list[Section] = []
    preamble: list[Block] = []
    section: Section | None = None
    out = Blocks(preamble)
    gap = False
    open_text: list | None = None  # [block, [lines]] a paragraph, bullet, item or step still taking lines
    seen_content = False
    under_heading = True
    chain: list[int] = []  # the indents of the list's items down to the last one (a deeper one is nested in it)

    def close_text() -> None:
        nonlocal open_text
        if open_text is not None:
            _finish(open_text, section, out)
        open_text = None

    tables = _tables(lines, cls)
    table_end = 0
    for i, raw in enumerate(lines):
        lineno = i + 1
        if i < table_end:
            continue
        s = raw.strip()
        kind, level, num, body = cls.classify(s, lines[i + 1] if i + 1 < len(lines) else "")
        if i in tables:  # an aligned table, set as its rows stand (as a Japanese draft's is)
            close_text()
            table_end = tables[i]
            rows = [row.rstrip() for row in lines[i:table_end]]
            out.add(Preformatted(rows, gap, lineno, header=heads_a_table(rows)))
            gap, under_heading, seen_content = False, False, True
            continue
        if kind == "blank":
            # the blank line under a heading adds no space; under a step whose line goes on past
            # its title (``3. Repair: Fix a tower. …``) it parts that text from the next paragraph
            gap = not under_heading or _carries_text(open_text)
            instruction = open_text is not None and isinstance(open_text[0], Step)
            close_text()
            if instruction and section is not None and section.children and _bare_instruction(section.children[-1]):
                out.reset(section.children)  # a paragraph after a blank line goes on with the section, not the step
                gap = True  # (set apart from the numbered lines, as the blank line parts any paragraph)
            continue
        indented = raw[:1] in (" ", "\t")
        listed = _LIST_ITEM.match(s) if kind == "text" else None  # a) (a) (1): a list's item, as a bullet is
        if kind == "text" and open_text is not None and not _term(s) and not listed \
                and (wrapped or indented or bool(_GOES_ON.search(open_text[1][-1]))) \
                and not _body_of_step(open_text, s, indented):
            open_text[1].append(s)  # (a step line that reads as a title is a heading: the text under it is not)
            continue
        close_text()
        under_heading = kind in ("title", "section", "sub") or section is not None and (
            (kind == "step" and section.kind == "rules") or (kind == "bullet" and section.is_components))
        first_line = not seen_content
        seen_content = True
        # (a first heading that says its draft, "# Moon Feast — draft 1" over "# Overview", every
        # heading marked alike as Markdown marks them: the title, not a section of that name; trial71)
        draft_said = kind == "section" and _DRAFT.search(body) is not None
        if kind == "title" or (first_line and (kind == "text" or kind == "section" and (cls.caps_title == i or draft_said))
                               and title_like(s, 80) and section is None
                               and any(cls.classify(t.strip())[0] == "section" for t in lines[i + 1:])):
            title, label, number = _title(body)
            gap = False
            continue
        if title and number is None and section is None and not preamble and _DRAFT_LINE.fullmatch(s):
            label, number = _title(s)[1:]  # "Draft 3" on the line under the title
            continue
        if kind == "section":
            section = Section(body, _kind(body), [], lineno)
            sections.append(section)
            out.reset(section.children)
        elif kind == "sub" and section is not None and section.is_components:
            comp = parse_entry(body, lineno)
            section.children.append(comp)
            out.reset(comp.children)
        elif kind == "sub":
            # a rule case's number (``5.1 Movement``) is the draft's own, which its text cites (see 5.1): kept
            sub = Subheading("◇◎〇"[level - 1], body if s.startswith("#") else s, gap, lineno)
            out.close(sub.level)
            out.add(sub)
        elif kind == "bullet" and section is not None and section.is_components:
            open_text = [parse_entry(body, lineno), [body]]
        elif kind == "step" and section is not None and section.kind == "rules":
            open_text = [Step(num, ")", body, [], lineno), [body]]
        elif kind == "bullet" or listed:
            if listed and not indented and section is not None:
                _place_case(listed.group(1), section, out)
            body = s[listed.end():] if listed else body  # (an indented item under a list's item is nested in it)
            above = out.last if isinstance(out.last, Bullet) and not gap else None
            width = len(raw) - len(raw.lstrip(" \t"))
            if not (indented and above):
                chain.clear()  # (the indents of the items this one may be nested in)
            while chain and chain[-1] >= width:
                chain.pop()
            level = min(len(chain), above.level + 1, LIST_LEVELS) if indented and above else 0
            chain.append(width)
            open_text = [Bullet(body, gap, lineno, listed.group(1) if listed else "", level), [body]]
        else:
            open_text = [DraftParagraph(s, False, gap, lineno), [s]]
        gap = False
    close_text()
    out.close(0)
    for section in sections:
        _definitions(section.children)
        _steps_alike(section)
        if section.kind == "rules":
            section.children = asides(section.children, latin=True)
    _definitions(preamble)
    mark_brainstorm(sections)
    parts = [p.strip() for p in re.split(r"\s+[—–]\s+|:\s+|\u3000", title) if p.strip()]
    return Document(title, parts, label, number, sections, preamble)


def _place_case(mark: str, section: Section, out: Blocks) -> None:
    """Where an unindented rule case goes (``6.3 A unit that…``): after the components' entries, in
    the section (the section's rule, not the last entry's description, as a Japanese draft's
    「１．１　…」 is); after a numbered sub-heading it is no case of (``6.2 Attacking``,
    its cases 6.21, 6.2.1), beside that sub-heading, not under it (a figure placed after 6.2 came
    after 6.3)."""
    if not mark[:1].isdigit():
        return
    if section.is_components and out.base is not section.children:
        out.reset(section.children)
        return
    while out.open:
        number = _CASE_NUMBER.match(out.open[-1].text)
        if number is None or mark.startswith(number.group(1)):
            return
        out.close(out.open[-1].level)


def _tables(lines: list[str], cls: DraftLines) -> dict[int, int]:
    """Runs of two or more lines of text whose columns, parted by two or more spaces, line up
    (``Terrain      Points`` over ``Forest       1 per connected tile``), as [start, end) by
    their start: joined as a paragraph's lines they read "Terrain Points Forest 1 per…". Two
    spaces after a full stop (``Draw a card.  Then play.``) are a typist's, not a column's."""
    row = [cls.classify(line.strip())[0] == "text" and "\t" not in line and not _TYPED_SPACING.search(line)
           for line in lines]
    runs: dict[int, int] = {}
    i = 0
    while i < len(lines) - 1:
        j = i
        while j + 1 < len(lines) and row[j] and row[j + 1] \
                and table_row(lines[j], lines[j + 1]) and table_row(lines[j + 1], lines[j]):
            j += 1
        if j > i:
            runs[i] = j + 1
        i = j + 1
    return runs


def _steps_alike(section: Section) -> None:
    """In a section of one-sentence steps (numbered lines), a step of several sentences with
    nothing under them is one too: a heading 3.2 under a numbered line 1. reads as two kinds of step.
    What follows such a step after a blank line is the section's text, as after any numbered line
    (trial70: ``6. Take 5 coins. The youngest goes first.`` and a paragraph after it, ``With five
    players, …``, was set as a heading 3.6 over both)."""
    steps = [c for c in section.children if isinstance(c, Step)]
    if any(step.sentence for step in steps):
        for step in steps:
            after = step.children[1:]
            if step.whole and step.children and (not after or isinstance(after[0], DraftParagraph) and after[0].gap_before):
                step.sentence, step.children = step.whole, []
                at = section.children.index(step) + 1
                section.children[at:at] = after


def _bare_instruction(block: object) -> bool:
    """A step written as one sentence with nothing under it (``3. Shuffle the deck.``): a numbered
    line of the text, so what follows it after a blank line is the section's (``With 3 players,
    remove the purple suit.`` was set indented under step 3, as its own text)."""
    return isinstance(block, Step) and bool(block.sentence) and not block.children


def _carries_text(open_text: list | None) -> bool:
    """The open block is a step whose lines hold text after its title (``Buy: Spend coins.``)."""
    return open_text is not None and isinstance(open_text[0], Step) and bool(_first_sentence(" ".join(open_text[1]))[1])


def _body_of_step(open_text: list, line: str, indented: bool) -> bool:
    """Is ``line`` the body under a step whose line reads as a title (``1. Place the board``),
    not more of that title? A line under it that is not indented is; an indented one is when it
    starts a sentence (a capital), not when it goes on with the title's words (``another tile.``)."""
    block, lines = open_text
    if not isinstance(block, Step) or not title_like(" ".join(lines)) or _ends_sentence(" ".join(lines)):
        return False
    return not indented or (len(lines) == 1 and line[:1].isupper())


def _finish(open_text: list, section: Section | None, out: Blocks) -> None:
    """Put a block whose lines are all read where it belongs."""
    block, parts = open_text
    text = " ".join(parts)
    if isinstance(block, Component):
        if len(parts) > 1:  # the lines under the entry describe it
            block.children.append(DraftParagraph(" ".join(parts[1:]), False, False, block.line + 1))
        section.children.append(block)  # type: ignore[union-attr]
        out.reset(block.children)
    elif isinstance(block, Step):
        head, rest = _first_sentence(text)
        if head is None:
            out.add(DraftParagraph(f"{block.number}. {text}", False, False, block.line))
            return
        block.title = head
        if not rest and _ends_sentence(text):
            block.sentence = text  # an instruction, not a title: a numbered line of the text
        section.children.append(block)  # type: ignore[union-attr]
        out.reset(block.children)
        if rest:
            out.add(DraftParagraph(rest, False, False, block.line))
            if _ends_sentence(text) and not text[len(head)].startswith(":"):
                block.whole = text
    elif isinstance(block, Bullet):
        block.text = text
        out.add(block)
    else:
        out.add(_paragraph(text, block.gap_before, block.line))


def _ends_sentence(text: str) -> bool:
    """Does ``text`` end as a sentence does: a full stop, ``!`` or ``?``, also inside the closing
    quote or bracket an American text puts after it (``is the "first player."``, CMOS 6.9)?"""
    return text.rstrip("\"'”’)").endswith((".", "!", "?"))


def _first_sentence(text: str) -> tuple[str | None, str]:
    """A step's title and the rest: its first sentence when more follow (``Draw a tile. Take the
    top one.``: a title line ending in ``:`` counts as one), else its whole text; None when the
    first of several sentences runs on past 200 characters (a paragraph, not a step). A colon
    before a number after more than three words, or after a number, goes on with its sentence
    (``Deal 10 cards: 6 Pennies and 4 Ships.`` lists what is dealt; ``Setup: 2 players use 20
    cards.`` is titled)."""
    m = re.match(r"^(.{1,200}?[.:!?])\s+([A-Z0-9(“\"'‘].*)$", text)
    head = m.group(1) if m else ""
    if m and not (head.endswith(":") and m.group(2)[0].isdigit() and (len(head.split()) > 3 or re.search(r"\d", head))):
        return m.group(1).rstrip(".:"), m.group(2)
    # (its full stop dropped, also one inside a closing quote: ``the "first player."`` → ``the "first player"``)
    return (re.sub(r"\.+([\"'”’]*)$", r"\1", text), "") if len(text) <= 200 else (None, text)


def _paragraph(text: str, gap: bool, line: int) -> Block:
    if text.startswith("(") and text.endswith(")") and balanced_outer(text, "(", ")"):
        return Note(text, gap, line)
    m = _term(text)
    if m:
        return Item(text, m.group(1), m.group(2), gap, line)
    return DraftParagraph(text, False, gap, line)


def _title(text: str) -> tuple[str, str, int | None]:
    """The title line → (title, ``Draft 3``, 3)."""
    m = _DRAFT.search(text)
    if not m:
        return text.strip(), "", None
    rest = (text[: m.start()] + text[m.end():]).strip(" ,—–-()")
    return rest, f"{m.group(1).capitalize()} {m.group(2)}", int(m.group(2))


def parse_entry(text: str, line: int = 0) -> Component:
    """A components entry: ``80 Epic cards``, ``Epic cards (80)``, ``VP board, VP markers (1 / 4)``,
    ``1 VP board and 4 VP markers``, ``Cubes (5 each)``, ``Four player mats``, ``A cloth bag``; a description after `` — `` or ``: ``
    that is no count goes under the entry, unless it lists the parts a total before it adds up to
    (``60 cards: 24 Starter cards and 36 Market cards``): then the parts are the entry. After a
    count written first, a parenthesis is a note under the entry (``4 Player mats (double-sided)``,
    ``28 Coin tokens (20 worth 1, 8 worth 5)``)."""
    head, description = text, ""
    m = re.match(r"^(.*?)(?:\s+[—–]\s+|:\s+)(.*)$", text)
    if m and not re.fullmatch(r"\d+(\s*each)?", m.group(2).strip()):
        head, description = m.group(1), m.group(2)
    note = ""  # "4 Player mats (double-sided)": the count comes first, the parenthesis is a note
    paren = _NOTE_LAST.match(head)
    if paren and (_COUNT_FIRST.match(paren.group(1)) or _WORD_FIRST.match(paren.group(1))):
        head, note = paren.group(1), paren.group(2).strip()
    names: list[str] = []
    counts: list[int] = []
    count_text: str | None = None
    last = _COUNT_LAST.match(head)
    if last and (last.group(3) or last.group(4) or re.search(r"\d", last.group(2) or "")):
        count_text = last.group(2) or last.group(3) or last.group(4)
        counts = [int(n) for n in re.findall(r"\d+", count_text)]
        name_text = last.group(1)
        names = _names(name_text)
    else:
        name_text = head
        for part in _names(head):
            first = _COUNT_FIRST.match(part)
            word = None if first else _WORD_FIRST.match(part)
            if first:
                counts.append(int(first.group(1)))
                names.append(first.group(2))
            elif word:
                counts.append(NUMBER_WORDS[word.group(1).lower()])
                names.append(word.group(2))
            else:
                names.append(part)
        count_text = " / ".join(str(n) for n in counts) if counts else None
        counted_first = _COUNT_FIRST.match(head.strip()) or _WORD_FIRST.match(head.strip())
        if counted_first:  # "24 Fish and spice": the name after the count
            name_text = counted_first.group(2)
    # "24 Fish and spice" may be one deck's name: the components list tries it unsplit before its parts
    whole = name_text.strip() if len(names) >= 2 and len(counts) <= 1 else ""
    listed: list[int] = []
    if description and len(counts) == 1:
        parts = parse_entry(description, line)  # "60 cards: 24 Starter cards and 36 Market cards"
        if len(parts.names) >= 2 and len(parts.counts) == len(parts.names):
            if sum(parts.counts) == counts[0]:
                return replace(parts, total=names[0][:1].upper() + names[0][1:])  # a total, then its parts: under its name
            listed = parts.counts  # told: a total mistyped reads as one component that matches no deck
    comp = Component(names, count_text, counts, [""] * len(counts), head.strip(), line=line, parts_off=listed,
                     note=note, whole=whole)
    if note:
        comp.children.append(DraftParagraph(f"({note})", False, False, line))
    if description:
        comp.children.append(DraftParagraph(description, False, False, line))
    return comp


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r",|&|\band\b", text) if n.strip()]
