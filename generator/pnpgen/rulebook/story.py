"""The rulebook's story: the document tree, component rows, pictures and proofing notes turned
into platypus flowables, in book order (cover, contents, rules, quick reference, index,
appendix, colophon)."""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Collection, Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import PageBreakIfNotEmpty

from pnpgen.data.spreadsheets import column_letter  # appendix parts: A … Z, AA …, as spreadsheet columns
from pnpgen.memo import Memo
from pnpgen.messages import msg
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.contents import Contents
from pnpgen.rulebook.diagram import Diagram
from pnpgen.rulebook.figures import FigureSpec, RulebookSettings, anchor
from pnpgen.rulebook.flowables import (
    GridKeep,
    Heading,
    JPara,
    LinkedParagraph,
    PageNumber,
    grid_height,
    mark_indexed,
    terms,
)
from pnpgen.rulebook.headline import HeadText
from pnpgen.rulebook.inline import Icon, with_icons
from pnpgen.rulebook.keeps import (
    EntryKeep,
    EntryRun,
    Indent,
    boxed,
    headings_with_their_figures,
    lead_ins_with_their_lists,
    lists_kept_together,
    two_lines_under_headings,
)
from pnpgen.rulebook.ownpics import PictureFigure
from pnpgen.rulebook.pictures import DeckPicture
from pnpgen.rulebook.piecepics import Faces, Figure, FittedFaces
from pnpgen.rulebook.quickref import Line, printed, quick_reference
from pnpgen.rulebook.setlines import SetLines
from pnpgen.rulebook.styles import (
    ACCENT,
    BLOCK_INDENT,
    BODY_LEADING,
    BODY_SIZE,
    INK,
    LATIN_GAP,
    MARGIN_BOTTOM,
    MARGIN_TOP,
    NOTE_INK,
    NOTE_LEADING,
    NOTE_SIZE,
    PAGE_H,
    RULE,
    SOFT,
    TEXT_W,
    Fonts,
    heading_styles,
)
from pnpgen.rulebook.termindex import TermIndex
from pnpgen.rulebook.tree import (
    Aside,
    Block,
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
    note_mark,
    own_section_number,
)
from pnpgen.rulebook.typography import latin_typography
from pnpgen.rulebook.xrefs import case_number, destination
from pnpgen.svg.artwork import Art
from pnpgen.terms import is_latin, unbracket

SUB_STYLE = {1: ("h3", "◆"), 2: ("h4", "◎"), 3: ("h5", "●")}
_CASE_MARK = re.compile(r"[0-9０-９]{1,2}(?:[.．][0-9０-９]{1,2}){1,3}")  # a rule case's number (「５．２．１」)
_OWN_NUMBER = re.compile(r"([0-9０-９]{1,3}(?:[.．][0-9０-９]{1,3})+)[ 　]+(?=\S)")  # a section's own (「５．０　」)
# The rule under each part of a component (pt): 0.1 mm, the thinnest line 同人印刷所 print (the
# doujin presets' min_line); at 0.25 pt (0.088 mm), in the rules' 31 % grey, it broke up as a screen.
PART_RULE_PT = 0.3
SUB_STYLE_LATIN = {1: ("h3", ""), 2: ("h4", ""), 3: ("h5", "•")}  # Latin faces have no ◆ ◎ ●
# The book has three heading levels (section, step, ◆ sub-heading); a draft's deeper levels (◎, ●)
# are set as run-in headings, at the start of their first paragraph
RUN_IN = 2


class Marks:
    """The punctuation pnpgen sets around the draft's text, by the script it is set in."""

    def __init__(self, latin: bool):
        self.latin = latin
        self.gap = "\u2002" if latin else "　"  # between a number and its title
        self.bullet = "•" if latin else "・"
        self.bullet_lead = "• " if latin else "・"  # a bullet before a line's text (・ holds its own space)
        self.colon = ": " if latin else "："
        self.section = "" if latin else "■"  # before a section's name in the quick reference
        # a group's head (the quick reference's parts, その他の内容物): ● over ・ items in Japanese;
        # in English its bold alone, the items taking the • (both • set no hierarchy)
        self.other = "" if latin else "●"
        self.sub = SUB_STYLE_LATIN if latin else SUB_STYLE
        self.list_sep = " / " if latin else "／"

    def outline(self, sub: Subheading) -> str:
        """A sub-heading with the ◎-level ones under it: 手札配置（通常配置・エピック移行）."""
        inner = [b.text for b in sub.children if isinstance(b, Subheading) and b.level <= 2]
        if not inner:
            return sub.text
        return f"{sub.text} ({', '.join(inner)})" if self.latin else f"{sub.text}（{'・'.join(inner)}）"
# the tallest a deck's faces are drawn in the components list: a poker card (88 mm), the inch
# shops' poker card (3.5 in, 88.9 mm) and a bridge card (89 mm) at 1/2
PICTURE_H = 44.5 * mm
COMMON_MAX = 2  # the components' shared scale is 1/2 at most when some pieces fit it (the rest: their own)
PICTURE_W = 50 * mm  # pictures at most this wide stand beside the description, wider ones above it
RULE_GAP = 3  # pt between a component's heading rule and its pictures (the card's edge touched the rule)
PICTURE_GAP = 4 * mm  # between the pictures and the description beside them
BODY_H = PAGE_H - MARGIN_TOP - MARGIN_BOTTOM  # the body pages' frame
STEP_INDENT = BODY_SIZE * 2  # a one-sentence step's text, right of its hanging number (``10.`` fits)
LIST_INDENT = BODY_SIZE * 1.1  # a nested list item's mark, under its parent's text
QR_INDENT = 4 * mm  # the quick reference's lines under their part's title


def picture_column(widest: float) -> float:
    """The width of the pictures' column beside a description: the pictures and a gap of
    PICTURE_GAP. (A column of PICTURE_W for every row left a token's small picture half a page
    away from its text; rows of like pictures have the same width, so their text lines up.)"""
    return widest + PICTURE_GAP


def reduction(scale: float) -> int:
    """The n of the 1/n scale that fits where ``scale`` does (never more than actual size)."""
    return max(1, math.ceil(1 / scale - 1e-6))


def _on_grid(f: Flowable) -> Flowable:
    """``f`` starts on a line of the body pages' grid (``document.GridFrame``)."""
    f.on_grid = True  # type: ignore[attr-defined]
    return f


def _cell_table(rows, widths, style) -> Table:
    t = Table(rows, colWidths=widths)
    t.setStyle(TableStyle(style))
    return t


class StoryBuilder:
    def __init__(self, doc: Document, fonts: Fonts, rows: list[ComponentRow], *, rules_only: bool,
                 pictures: Mapping[str, DeckPicture], settings: RulebookSettings, proof: list[tuple[str, str]],
                 lines_recovered: bool = False,
                 lang: str = "ja", text_lang: str = "ja", boards: Collection[str] = (),
                 readings: Memo[str] | None = None, icons: Mapping[str, Icon] | None = None,
                 setting: SetLines | None = None, own: Mapping[int, Art] | None = None):
        self.doc, self.fonts, self.rows = doc, fonts, rows
        self.own = own or {}  # the figures' pictures of the designer's own, by their place in settings.figures
        self.setting = setting  # the book's setting, which recalls and keeps its lines (setlines.py)
        self.icons = icons or {}  # the draft's {name} icons that exist, by name (inline.draft_icons)
        self.readings = readings  # the index terms' readings (``termindex.reading``)
        self.lang, self.text_lang = lang, text_lang  # pnpgen's labels; the draft's text
        self.marks = Marks(is_latin(text_lang))
        self.st = heading_styles(fonts)
        self.rules_only = rules_only
        self.pictures, self.settings, self.proof = pictures, settings, proof
        self.lines_recovered = lines_recovered
        self.boards = set(boards)  # deck ids of the boards (their pictures may be smaller still)
        self.common, self.reductions = self.picture_scales()
        self._key = 0
        self.figures_placed: list[FigureSpec] = []
        self.anchors: set[str] = set()  # every title a figure may follow (``after:``)
        self.indexing = True  # what is set now is the rules' text: its 【terms】 go to the index
        self.pages: dict[str, int] = {}  # heading key → the page it was drawn on (filled while drawing)
        self.node_keys: dict[int, str] = {}  # id of a section, step or sub-heading of the draft → its key
        self.lines: dict[str, int] = {}  # heading key → the draft line of its node (``page_lines``)
        self.rules_keys = 0  # heading keys h1 to this one are the rules'; later ones, what follows them
        self.has_terms = False  # the index has an entry
        # the rule cases set so far, each where a reference to it links (filled as the story is made,
        # complete before a page is drawn: every paragraph holds this one set)
        self.cases: set[str] = set()

    def case_anchor(self, *numbers: str) -> tuple[str, ...]:
        """The named destinations (``xrefs.destination``) of a rule case set here, under each of its
        ``numbers`` (5.0 and 5) the book has not set before (the quick reference repeats no anchor)."""
        new = [n for n in dict.fromkeys(numbers) if n not in self.cases]
        self.cases.update(new)
        return tuple(destination(n) for n in new)

    def indexed(self, f: Flowable, text: str = "", parts: Sequence[Flowable] = ()) -> Flowable:
        """``f`` seen by the index, while the rules are set (``flowables.mark_indexed``)."""
        if not self.indexing:
            return f
        self.has_terms = self.has_terms or bool(terms(text))
        return mark_indexed(f, text, parts)

    def paragraph(self, text: str, font: str, size: float, leading: float, **kw) -> JPara:
        """A paragraph set in this book (its lines recalled and kept by its ``setting``)."""
        return JPara(text, font, size, leading, setting=self.setting, **kw)

    def jpara(self, text: str, font: str, size: float, leading: float, **kw) -> JPara:
        """A paragraph of the draft: indexed while the rules are set."""
        self.has_terms = self.has_terms or (self.indexing and bool(terms(kw.get("prefix", "") + text)))
        if "prefix" in kw:
            kw["prefix"], kw["prefix_icons"] = self.typo(kw["prefix"]), self.icons  # (a run-in heading's, a term's icons)
        text, icons = with_icons(self.typo(text), self.icons)
        return self.paragraph(text, font, size, leading, indexed=self.indexing, lang=self.text_lang, icons=icons,
                              links=self.cases, **kw)

    def typo(self, text: str) -> str:
        """The draft's words as a Latin book prints them: ``latin_typography``'s quotes and dashes."""
        return latin_typography(text) if self.marks.latin else text

    def shown(self, text: str) -> str:
        """A heading or caption of the draft as printed: ``typo``'s quotes, and in a Latin book
        its index terms without their 【】 (the index still reads them from the draft's words)."""
        return unbracket(self.typo(text))[0] if self.marks.latin else text

    def key(self) -> str:
        self._key += 1
        return f"h{self._key}"

    # -- text blocks
    def para(self, text: str, *, indent: float = 0.0, first: float | None = None, note: bool = False,
             colour=INK, page: tuple[str, dict] | None = None) -> JPara:
        size, leading = (NOTE_SIZE, NOTE_LEADING) if note else (BODY_SIZE, BODY_LEADING)
        return self.jpara(text, self.fonts.body, size, leading, color=NOTE_INK if note else colour,
                          first_indent=indent + (size if first is None else first), left=indent, page=page)

    def p(self, text: str, style: str) -> Paragraph:
        """A Paragraph of plain ``text`` in one of the heading styles (with glyph fallback)."""
        return Paragraph(glyphs.markup(text, self.st[style].fontName), self.st[style])

    def label(self, key: str, **args: object) -> str:
        return msg(f"rulebook.{key}", self.lang, **args)

    def label_para(self, key: str) -> JPara:
        """One of pnpgen's own notes (in the labels' language), set as a designer's note is."""
        return self.paragraph(self.label(key), self.fonts.notes, NOTE_SIZE, NOTE_LEADING, color=NOTE_INK, first_indent=0,
                     lang=self.lang)

    def blocks(self, blocks: Sequence[Block | Component | Step], indent: float = 0.0, *,
               notes_as_rules: bool = True) -> list[Flowable]:
        """The draft's blocks as flowables; a step or a ◇ component entry among them sets nothing."""
        out: list[Flowable] = []
        for b in blocks:
            start = len(out)
            # where a paragraph or item starts: the quick reference prints the page of its sentences
            page = (self.node_key(b), self.pages) if isinstance(b, (DraftParagraph, Note, Item)) or \
                isinstance(b, Bullet) and b.mark else None  # (a marked item: the quick reference reads it)
            mark, rest = note_mark(b.text) if isinstance(b, (DraftParagraph, Item)) else ("", "")
            if mark:  # ※…, 注：…, ＊…: the mark where the paragraph would start, the lines under its text
                x = indent + (BODY_SIZE if isinstance(b, DraftParagraph) and b.indent else 0)
                out.append(self.note_line(mark, rest, x, page))
            elif isinstance(b, DraftParagraph):
                out.append(self.para(b.text, indent=indent, first=BODY_SIZE if b.indent else 0, page=page))
            elif isinstance(b, Note):
                # a parenthesised rule is body text; only the designer's notes are set as asides
                # (flush in a Latin book, whose paragraphs are parted by space, not indented)
                out.append(self.para(b.text, indent=indent, first=0 if self.marks.latin else None, page=page)
                           if notes_as_rules
                           else self.para(b.text, indent=indent + BODY_SIZE, first=0, note=True, page=page))
            elif isinstance(b, Bullet):
                out.append(self.list_item(b, indent, page))
            elif isinstance(b, Item):
                left = indent + BODY_SIZE * 1.5
                if b.term:
                    out.append(self.jpara(b.body, self.fonts.body, BODY_SIZE, BODY_LEADING,
                                          first_indent=left - BODY_SIZE, left=left, prefix=b.term + self.marks.colon,
                                          prefix_font=self.fonts.bold, page=page))
                else:
                    out.append(self.para(b.text, indent=left, first=-BODY_SIZE, page=page))
            elif isinstance(b, Preformatted):
                diagram = Diagram(b.lines, self.fonts.mono, left=indent, icons=self.icons, header=b.header,
                                  latin=self.fonts.gothic if self.marks.latin else "", links=self.cases)
                diagram.spaceBefore, diagram.spaceAfter = 3, 4
                diagram.draft_line = b.line  # named when no page holds it
                diagram.fit(TEXT_W)
                out.append(self.indexed(diagram, "\n".join(b.lines)))
            elif isinstance(b, Aside):
                out.append(self.aside(b, indent, notes_as_rules))
            elif isinstance(b, Subheading) and b.level >= RUN_IN:
                out += self.run_in(b, indent, notes_as_rules)
            elif isinstance(b, Subheading):
                style, mark = self.marks.sub[b.level]
                head = HeadText(self.shown(b.text), self.st[style], icons=self.icons, latin=self.marks.latin,
                                lang=self.text_lang, mark=mark)
                head.keepWithNext = 1
                key = self.node_key(b)
                out.append(self.indexed(Indent(head, indent, key, self.pages), b.text))
                out += self.blocks(b.children, indent + BLOCK_INDENT, notes_as_rules=notes_as_rules)
                out += self.figures_after(b.text)
            if getattr(b, "gap_before", False) and (start or self.marks.latin) and len(out) > start:
                # a blank line in the draft: space above (a flowable, not a Spacer, so that
                # a heading's keep-with-next reaches the text); a Latin draft's paragraphs are
                # set apart by it wherever they stand (they have no indent)
                out[start].spaceBefore = max(getattr(out[start], "spaceBefore", 0), 4)
        return out

    def aside(self, b: Aside, indent: float, notes_as_rules: bool) -> Flowable:
        """An example (例) or a caution (注意) as its box (``keeps.boxed``): its label a small bold
        heading in the accent colour, then its blocks as the text sets them."""
        label = self.jpara(b.label, self.fonts.bold, NOTE_SIZE, BODY_LEADING, color=ACCENT,
                           page=(self.node_key(b), self.pages))
        return boxed([label, *self.blocks(b.children, 0.0, notes_as_rules=notes_as_rules)], indent,
                     b.kind == "caution")

    def note_line(self, mark: str, text: str, x: float, page: tuple[str, dict] | None) -> JPara:
        """A note (``※``, ``注：``, ``＊``) hanging under its text: the mark at ``x`` in a column
        of its own, every line of the text starting after it (JLREQ's hanging indent for notes, 注の
        ぶら下げ字下げ); a 注's ： takes its full em (中点類, JLREQ 3.1.9), the column rounded up to
        half ems; a mark ending in a Latin digit (``※1``) stands the 和欧間 (JLREQ 3.2.1) or more
        from the Japanese text after it, which would touch its digit."""
        if mark[-1] in "：:":
            wide = glyphs.width(mark[:-1], self.fonts.body, BODY_SIZE) + BODY_SIZE
        else:
            wide = glyphs.width(mark, self.fonts.body, BODY_SIZE)
            if text and glyphs.wakan(mark[-1], text[0]):
                wide += LATIN_GAP * BODY_SIZE
        left = x + math.ceil(wide / (BODY_SIZE / 2) - 0.05) * BODY_SIZE / 2
        return self.jpara(text, self.fonts.body, BODY_SIZE, BODY_LEADING, first_indent=left, left=left,
                          prefix=mark, prefix_x=x, page=page)

    def list_item(self, b: Bullet, indent: float, page: tuple[str, dict] | None = None) -> JPara:
        """A list's item, its mark hanging (the book's ・, or the draft's a) （１） ①), its lines
        aligned after it; a nested item's mark under its parent's text."""
        x = indent + b.level * LIST_INDENT + BODY_SIZE * 0.5
        mark = self.typo(b.mark) or self.marks.bullet
        anchor = ""
        if _CASE_MARK.fullmatch(mark):  # a rule case's number, 「１．１１」: half-width, as the book's numbers are
            mark = case_number(mark)
            anchor = next(iter(self.case_anchor(mark)), "") if self.indexing else ""
        # ・ and ① are an em wide; a full-width bracket closes with its own half-em of space
        gap = 0.1 if mark[-1] in "）" or mark == self.marks.bullet or "①" <= mark <= "⑳" else 0.4
        left = x + glyphs.width(mark, self.fonts.body, BODY_SIZE) + gap * BODY_SIZE if b.mark else x + BODY_SIZE * 1.1
        item = self.jpara(b.text, self.fonts.body, BODY_SIZE, BODY_LEADING, first_indent=left, left=left,
                          prefix=mark, prefix_x=x, page=page, anchor=anchor)
        item.list_level = b.level  # type: ignore[attr-defined]
        return item

    def run_in(self, b: Subheading, indent: float, notes_as_rules: bool) -> list[Flowable]:
        """A sub-heading below the book's three heading levels (◎, ●) set as a run-in heading: its
        mark and text in bold at the start of its first paragraph (a line of its own when its text
        begins with something else), its text indented as a sub-heading's."""
        _, mark = self.marks.sub[b.level]
        lead = f"{mark}{self.marks.gap if mark and self.marks.latin else ''}{b.text}{self.marks.gap}"
        key = self.node_key(b)
        inner = indent + BLOCK_INDENT
        children = list(b.children)
        first = children[0] if children else None
        if isinstance(first, DraftParagraph):
            children.pop(0)
            self.node_keys[id(first)] = key  # its sentences are on the heading's line
            head = self.jpara(first.text, self.fonts.body, BODY_SIZE, BODY_LEADING, first_indent=indent,
                              left=inner, prefix=lead, prefix_font=self.fonts.bold, page=(key, self.pages))
        else:
            head = self.jpara(lead.rstrip(self.marks.gap), self.fonts.bold, BODY_SIZE, BODY_LEADING,
                              first_indent=indent, left=inner, page=(key, self.pages))
            head.keepWithNext = 1
        if getattr(b, "gap_before", False):
            head.spaceBefore = 4
        out: list[Flowable] = [head]
        out += self.blocks(children, inner, notes_as_rules=notes_as_rules)
        return out + self.figures_after(b.text)

    # -- sections
    def node_key(self, node: object) -> str:
        """A new heading key, remembered for the draft's node (the quick reference prints its page)."""
        key = self.node_keys[id(node)] = self.key()
        self.lines[key] = getattr(node, "line", 0)
        return key

    def page_lines(self, n_pages: int) -> list[int]:
        """Per page of the book set, the draft's line it sets first (the block it goes on with when
        none starts there); 0 for a page before the draft's first (the cover, the contents) and for
        one after the rules (the quick reference, the index, the appendix, the colophon)."""
        begun: dict[int, int] = {}
        for key, page in self.pages.items():
            line = self.lines.get(key, 0)
            if line and (page not in begun or line < begun[page]):
                begun[page] = line
        # the first page after the rules: a heading's made after them (the quick reference's, the
        # index's, the appendix's), else the colophon (the last)
        after = min([page for key, page in self.pages.items() if int(key[1:]) > self.rules_keys], default=n_pages)
        out, last = [], 0
        for page in range(1, n_pages + 1):
            last = begun.get(page, last)
            out.append(last if page < min(after, n_pages) else 0)
        return out

    def section_heading(self, number: str, title: str, mark: str, node: object = None) -> list[Flowable]:
        key = self.node_key(node) if node is not None else self.key()
        shown = self.shown(title)
        own = _OWN_NUMBER.match(shown) if not number and own_section_number(title) is not None else None
        if own:  # 「５．０　移動」: its number set as the book's are, half-width, and the gap after it (5.0　移動)
            number, shown = case_number(own.group(1)), shown[own.end():]
            mark = _OWN_NUMBER.sub(lambda m: case_number(m.group(1)) + m.group(0)[len(m.group(1)):], mark, count=1)
        heading = Heading(number, shown, 0, self.st["h1"], mark=mark, key=key, rule=True,
                          space_before=10, space_after=4.5, gap=self.marks.gap, pages=self.pages,
                          icons=self.icons, lang=self.text_lang)
        heading.draft_line = self.lines.get(key, 0)  # named when no page holds it (a heading of 2,000 characters)
        if own and self.indexing:  # where a reference to 5.0 (or 5) goes
            heading.anchors = self.case_anchor(number, number.split(".")[0])
        return [CondPageBreak(45 * mm), self.indexed(heading, title)]

    def step_heading(self, number: str, title: str, node: object = None, case: bool = False) -> Flowable:
        key = self.node_key(node) if node is not None else self.key()
        heading = Heading(number, self.shown(title), 1, self.st["h2"], key=key, bar=True, space_before=8,
                          space_after=4, gap=self.marks.gap, pages=self.pages, icons=self.icons, lang=self.text_lang)
        if case and self.indexing:  # a step under a section the draft numbers (5.1): a case a reference goes to
            heading.anchors = self.case_anchor(number)
        heading.draft_line = self.lines.get(key, 0)  # named when no page holds it
        return self.indexed(heading, title)

    def step_line(self, step: Step) -> JPara:
        """A step the draft wrote as one sentence (``1. Shuffle the deck.``), set as a numbered
        line of the text with its number hanging: an instruction is no heading of the contents."""
        return self.jpara(step.sentence, self.fonts.body, BODY_SIZE, BODY_LEADING, first_indent=STEP_INDENT,
                          left=STEP_INDENT, prefix=f"{step.number}.", prefix_font=self.fonts.bold,
                          prefix_x=BODY_SIZE * 0.2, page=(self.node_key(step), self.pages))

    @staticmethod
    def section_number(n: int, s: Section) -> tuple[str, str]:
        """(the number printed before the section's heading, the one its steps are numbered under):
        the ``n``-th section's n, n; a section the draft numbers itself (「５．０　移動」) none and 5."""
        own = own_section_number(s.title)
        return ("", own) if own is not None else (str(n), str(n))

    def rules_section(self, n: int, s: Section) -> list[Flowable]:
        number, under = self.section_number(n, s)
        out = self.section_heading(number, s.title, self.shown(s.title), s)
        if s.is_spoiler:  # the answers on a page of their own, not under the rules read in play (the
            out[0] = PageBreakIfNotEmpty()  # book's first section: on the page the contents turn to, not after a blank one)
        if s.is_components:
            return out + self.components_section(s)
        for child in s.children:
            if isinstance(child, Step) and child.sentence:
                out.append(self.step_line(child))
                out += self.blocks(child.children, STEP_INDENT)
                out += self.figures_after(child.title)
            elif isinstance(child, Step):
                out.append(CondPageBreak(30 * mm))
                out.append(self.step_heading(f"{under}.{child.number}", child.title, child, case=not number))
                if len(out) == 4:  # right under the section's heading: no blank grid line between them
                    out[-1].spaceBefore = 0
                out += self.blocks(child.children)
                out += self.figures_after(child.title)
            elif isinstance(child, Component):  # a ◇ entry outside a components section cannot occur
                out += self.blocks(child.children)
            else:
                out += self.blocks([child])
        return out + self.figures_after(s.title)

    def figures_after(self, title: str) -> list[Flowable]:
        self.anchors.add(title)
        out: list[Flowable] = []
        for i, spec in enumerate(self.settings.figures):
            if anchor(spec.after) != anchor(title) or spec in self.figures_placed:
                continue
            placed = [(p.deck, self.pictures[p.deck], p.piece, p.x, p.y, p.rotate) for p in spec.pieces
                      if p.deck in self.pictures and self.pictures[p.deck].piece(p.piece)]
            if spec.picture is not None and i in self.own:  # the designer's own picture
                figure: Flowable = PictureFigure(self.own[i], f"{spec.picture.name}\0{spec.size_mm}", *spec.size_mm)
            elif placed:
                figure = Figure(placed, *spec.size_mm)
            else:
                continue
            self.figures_placed.append(spec)
            part: list[Flowable] = [Spacer(1, 4), _on_grid(figure)]
            if spec.caption:  # numbered through the book, as JIS Z 8301 and books number figures: a
                # bare 「図」 names nothing, and the draft's 下図 may be a page on when the figure waits
                n = sum(1 for placed_spec in self.figures_placed if placed_spec.caption)
                said = self.label("figure", n=n, caption=self.shown(spec.caption))
                caption: Flowable = LinkedParagraph(said, self.st["figure_caption"], links=self.cases) if self.marks.latin else \
                    HeadText(said, self.st["figure_caption"], icons=self.icons, lang=self.lang, centred=True,
                             links=self.cases)
                part += [Spacer(1, 2), self.indexed(caption, spec.caption)]
            out.append(GridKeep(part + [Spacer(1, 4)]))
        return out

    def pictured(self, row: ComponentRow) -> list[str]:
        """The decks a row pictures (two at most, one above the other)."""
        return [d for d in row.deck_ids[:2] if d in self.pictures]

    def picture_scales(self) -> tuple[int | None, dict[str, int]]:
        """One scale 1/n for every picture of the components list: the largest at which each
        piece but the boards fits its slot, never above actual size, and never below 1/2 while
        some piece fits at 1/2; a board, or a piece, too big for it is drawn at its own smaller 1/n. Returns the common n (None when only boards are shown)
        and the n per deck id."""
        need = {d: reduction(Faces.fit(self.pictures[d], PICTURE_H, TEXT_W))
                for row in self.rows for d in self.pictured(row)}
        pieces = [n for d, n in need.items() if d not in self.boards]
        common = max(pieces) if pieces else None
        if common is not None and common > COMMON_MAX and min(pieces) <= COMMON_MAX:
            # one big card (名刺 91 mm) drew every token at 1/3, 8 mm across: the pieces that fit at
            # 1/2 share it, the few that do not get their own scale, captioned, as a board does
            common = COMMON_MAX
        return common, {d: max(n, common or 1) for d, n in need.items()}

    def components_section(self, s: Section) -> list[Flowable]:
        """The section's text before its ◇ entries, the entries, then its rules after them (a rule case
        after a blank line under the last entry, 「１．１　…」, is the section's: rulebook/parse.py)."""
        first = next((k for k, b in enumerate(s.children) if isinstance(b, Component)), len(s.children))
        out: list[Flowable] = self.blocks(s.children[:first])
        after = [b for b in s.children[first:] if not isinstance(b, Component)]
        if self.common is not None:
            key = "picture_scale" if self.common > 1 else "picture_actual"
            others = self.label("picture_others") if set(self.reductions.values()) != {self.common} else ""
            out.append(self.paragraph(self.label(key, n=self.common, others=others), self.fonts.notes, NOTE_SIZE, NOTE_LEADING,
                             color=NOTE_INK, lang=self.lang))
        out.append(Spacer(1, 4))
        extra = [r for r in self.rows if r.stated is None and not r.description and _data_only(r)]
        listed = [self.component(row) for row in self.rows if row not in extra]
        if listed:
            out.append(EntryRun(listed))
        if extra:
            out.append(Spacer(1, 6))
            head = HeadText(self.label("other_components"), self.st["h3"], latin=self.marks.latin, lang=self.lang,
                            mark=self.marks.other)
            out.append(EntryRun([self.component(extra[0], [head]), *map(self.component, extra[1:])]))
        return out + (self.blocks(after) if after else [])

    def component(self, row: ComponentRow, lead: Sequence[Flowable] = ()) -> EntryKeep:
        """A component's entry after ``lead``: its heading, pictures and description (which runs
        on to the next page when the entry misses this one, ``EntryKeep``)."""
        count = row.count_text() or self.label("no_data")
        if row.provisional and row.count_text():
            count += self.label("provisional")  # a stand-in of the data: 「5枚（仮）」
        if row.stand_in:
            count += self.label("stand_in")
        head = _cell_table([[self.p(row.name, "comp_name"), self.p(count, "comp_count")]],
                           ["55%", "45%"], [
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else Table sets Helvetica
            ("LINEBELOW", (0, 0), (-1, -1), 0.5, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ])
        head.on_grid = True  # one grid line: the description beside the picture is on the grid
        head.spaceBefore = 6  # (none at a page's top)
        out: list[Flowable] = [*lead, head]
        text: list[Flowable] = []
        for label, draft_n in [] if self.rules_only else row.mismatches:  # the designer's (the build warns), not a reader's
            text.append(self.paragraph(self.label("count_differs", part=label, count=draft_n), self.fonts.gothic,
                              7.5, 11, color=ACCENT, lang=self.lang))
        text += self.blocks(row.description)
        parts = [(name, ds) for name, ds in row.parts if ds and (len(ds) > 1 or len(row.parts) > 1)]
        listed: list[Flowable] = [Spacer(1, 2), self.parts_table(parts)] if parts else []
        pic: list[Flowable] = [Spacer(1, RULE_GAP)] if self.pictured(row) else []  # clear of the heading's rule
        for d in self.pictured(row):
            n = self.reductions[d]
            pic += [Faces(d, self.pictures[d], 1 / n), Spacer(1, 2)]
            if n != self.common:
                pic += [self.p(self.label("picture_own_scale", n=n), "caption"), Spacer(1, 2)]
        widest = max((f.width for f in pic if isinstance(f, Faces)), default=0.0)
        def beside(description: list[Flowable]) -> Table:
            return _on_grid(_cell_table([[pic, description or ""]], [picture_column(widest), None], [
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),
            ]))

        # a table's cell does not split: a description beside its pictures that no page holds (a
        # rules text of its own) goes under them, where it runs on, as a wide picture's does
        # (measured on a copy: a paragraph keeps the lines of the measure it is first set to)
        if pic and widest <= PICTURE_W and \
                grid_height([*out, beside(copy.deepcopy([*text, *listed]))], TEXT_W, BODY_H) <= BODY_H:
            out.append(self.indexed(beside([*text, *listed]), parts=[*text, *listed]))  # the table draws the description: the index sees it so
            return EntryKeep(out, len(out), len(lead))
        return EntryKeep(out + pic + text + listed, len(out) + len(pic), len(lead))  # a wide picture stands above its description

    def parts_table(self, parts) -> Table:
        data = [[self.p(d.name, "part"), self.p(f"{d.count}{d.unit}", "part_count")]
                for _name, ds in parts for d in ds]
        return _on_grid(_cell_table(data, ["78%", "22%"], [
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),  # else Table sets Helvetica
            ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
            ("LINEBELOW", (0, 0), (-1, -1), PART_RULE_PT, RULE),
            ("BACKGROUND", (0, 0), (-1, -1), SOFT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))

    # -- back matter
    def quick_reference(self) -> list[Flowable]:
        """One page of the rules at a glance, from the parsed draft (``quickref``): the turn
        sequence with the page of each step, the end trigger, scoring and victory, the setup's
        counts, the components' counts (stand-ins marked 「（仮）」); a part the draft is silent on
        says so. The game's own summary deck follows when game.yaml names one. A draft with a
        早見表 of its own (■　早見表) keeps it where it stands, and gets no second one."""
        if not self.settings.quick_reference or not self.doc.rules or any(s.is_quick_reference for s in self.doc.rules):
            return []  # (game.yaml's quick_reference: false; a game with no decks, a scenario book: no turn)
        q = quick_reference(self.doc.rules, self.marks.latin)
        numbers = {id(s): self.section_number(n, s)[1] for n, s in enumerate(self.doc.rules, start=1)}
        out: list[Flowable] = []

        def numbered(lists: list) -> list[tuple[str, Line]]:
            """Each step by the number the book prints it with: a heading's 3.1, a one-sentence step's 1."""
            return [(f"{'' if line.anchor.sentence else f'{numbers[id(steps.section)]}.'}{line.anchor.number}"
                     f"{'.' if line.anchor.sentence else ''}{self.marks.gap}{line.text}"
                     if isinstance(line.anchor, Step) else f"{self.marks.bullet_lead}{line.text}", line)
                    for steps in lists for line in steps.lines]

        out += self.qr_part("qr_flow", numbered(q.steps))
        def alone(lines: list[Line]) -> list[tuple[str, Line]]:
            return list(zip(printed(lines), lines))

        out += self.qr_part("qr_setup", numbered(q.setup_steps) + alone(q.setup))
        out += self.qr_part("qr_end", alone(q.end))
        out += self.qr_part("qr_scoring", alone(q.scoring))
        counted = [r for r in self.rows if r.count_text()]
        if counted:
            sep, tie = ("; ", ":\u00a0") if self.marks.latin else ("、", "\u00a0")
            # a no-break space between a part's name and its count: no line ends with the name
            # and the next starts with the count (「ウッドキューブ（緑）」/「5個（仮）」); a colon before
            # it in English, whose count has no counter word (“Alice cards: 53”, not “Alice cards 53”)
            text = sep.join(f"{r.name}{tie}{r.count_text()}"
                            f"{self.label('provisional') if r.provisional else ''}" for r in counted)
            out += [self.qr_title("qr_components"), self.paragraph(text, self.fonts.body, 8, 12, left=QR_INDENT,
                                                         first_indent=QR_INDENT, lang=self.text_lang)]
        deck = self.settings.quick_reference_deck
        if deck and deck in self.pictures:
            picture = self.pictures[deck]
            # as large as the page leaves room for, up to the text's width (a summary card on a page of
            # its own printed 70 mm high, its text at 3 pt); smaller, down to a third of that, to stay
            # on the page of the lines above
            widest = min(Faces.fit(picture, float("inf"), TEXT_W), 1.0)
            card = FittedFaces(deck, picture, widest, min(Faces.fit(picture, 70 * mm, TEXT_W), 1.0) / 3)
            card.hAlign = "CENTER"  # the page's centre, under the lines above (left-aligned, it looked misplaced)
            out += [Spacer(1, 4), card]
        title = self.label("quick_reference")
        return [PageBreak(), Heading("", title, 0, self.st["h1"], mark=title, key=self.key(), rule=True,
                                     space_after=4, pages=self.pages, lang=self.lang)] + out

    def qr_title(self, key: str) -> HeadText:
        head = HeadText(self.label(key), self.st["h5"], latin=self.marks.latin, lang=self.lang, mark=self.marks.other)
        head.keepWithNext = 1
        return head

    def qr_part(self, key: str, lines: list[tuple[str, Line]]) -> list[Flowable]:
        """A titled part of the quick reference: each line with the page that explains it, or
        「草案に記載なし」 (the designer's copy; a book to hand out leaves the part out: its reader
        has no draft)."""
        if not lines and self.rules_only:
            return []
        if not lines:
            return [self.qr_title(key), self.paragraph(self.label("qr_silent"), self.fonts.notes, 8, 12, color=NOTE_INK,
                                              left=QR_INDENT, first_indent=QR_INDENT, lang=self.lang)]
        page = lambda n: self.label("qr_page", page=n)  # noqa: E731
        rows = [[self.qr_line(text),
                 PageNumber(self.node_keys.get(id(line.block), self.node_keys.get(id(line.anchor), "")), self.pages, page, self.fonts.gothic, 7.5)]
                for text, line in lines]
        return [self.qr_title(key), _cell_table(rows, [None, 14 * mm], [
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.8),
            ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),
        ])]

    def qr_line(self, text: str) -> JPara:
        """A line of the quick reference, its ``{coin}`` icons drawn as the rules draw them, its cross
        references (see 6.3) links to their cases as in the rules."""
        text, icons = with_icons(self.typo(text), self.icons)
        return self.paragraph(text, self.fonts.body, 8, 12, left=QR_INDENT + 8, first_indent=QR_INDENT, lang=self.text_lang,
                     icons=icons, ragged=True, links=self.cases)  # (a Latin line ragged right: a narrow column's list, not justified)

    def index(self) -> list[Flowable]:
        if not self.has_terms:
            return []
        title = self.label("index")
        return [PageBreak(), Heading("", title, 0, self.st["h1"], mark=title, key=self.key(), rule=True,
                                     space_after=6, pages=self.pages, lang=self.lang),
                TermIndex(self.st, self.fonts.gothic, latin=self.marks.latin, other=self.label("index_other"),
                          readings=self.readings)]

    def proofing(self) -> list[Flowable]:
        if not self.proof:
            return []
        out: list[Flowable] = [self.label_para("proof_note")]
        if self.lines_recovered:  # 「草案66行」 of a draft that is one line in its file
            out.append(self.label_para("proof_lines_recovered"))
        # each note's kind in a column of its own, its text beside it and its later lines under
        # that text (a hanging list: 「誤記」 and 「数の不一致」 notes start their text alike)
        widest = max(glyphs.width(kind, self.fonts.gothic, NOTE_SIZE) for kind, _ in self.proof)
        left = max(BODY_SIZE * 5.5, widest + NOTE_SIZE)
        for kind, text in self.proof:
            note = self.paragraph(text, self.fonts.body, NOTE_SIZE, NOTE_LEADING, color=INK, first_indent=left,
                         left=left, prefix=kind, prefix_font=self.fonts.gothic, prefix_x=0.0)
            note.list_level = 0  # type: ignore[attr-defined]  # a list: its last note never alone on a page
            out.append(note)
        return out

    # -- the whole book
    def story(self) -> list[Flowable]:
        st = self.st
        out: list[Flowable] = [Spacer(1, 1)]
        if self.doc.rules or (not self.rules_only and self._has_appendix()):
            toc = Contents(levelStyles=[st["toc0"], st["toc1"]], dotsMinLevel=0, tableStyle=TableStyle([
                ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else its Table sets Helvetica
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]), icons=self.icons, lang=self.text_lang)
            out += [NextPageTemplate("front"), PageBreak(), self.p(self.label("contents"), "toc_title"), toc]
        out += [NextPageTemplate("body"), PageBreak()]  # no headings at all: no contents page
        if self.doc.preamble:
            out += self.blocks(self.doc.preamble)
        for n, s in enumerate(self.doc.rules, start=1):
            out += self.rules_section(n, s)
        self.indexing = False  # the index covers the rules, not their summary nor the appendix
        self.rules_keys = self._key
        out += self.quick_reference()
        out += self.index()
        if not self.rules_only:
            out += self.appendix()
        out += [NextPageTemplate("colophon"), PageBreak(), Spacer(1, 1)]
        lead_ins_with_their_lists(out)
        lists_kept_together(out)
        two_lines_under_headings(out, TEXT_W)
        headings_with_their_figures(out)
        return out

    def _has_appendix(self) -> bool:
        d = self.doc
        return bool(d.of_kind("notes") or d.of_kind("brainstorm") or d.of_kind("changelog")
                    or any(s.memos for s in d.rules) or self.proof)

    def appendix(self) -> list[Flowable]:
        parts: list[tuple[str, list[Flowable]]] = []
        for s in self.doc.of_kind("notes"):
            parts.append((self.label("issues"), self.blocks(s.children, notes_as_rules=False)))
        for s in self.doc.of_kind("brainstorm"):
            parts.append((self.label("memo", title=s.title), self.blocks(s.children, notes_as_rules=False)))
        memos = [m for s in self.doc.rules for m in s.memos]
        if memos:
            intro = self.label_para("component_memo_note")
            parts.append((self.label("component_memo"), [intro, Spacer(1, 3)] + self.blocks(memos)))
        for s in self.doc.of_kind("changelog"):
            parts.append((self.label("changes", title=s.title), self.blocks(s.children, notes_as_rules=False)))
        if self.proof:
            parts.append((self.label("proof"), self.proofing()))
        if not parts:
            return []
        appendix = self.label("appendix")
        out: list[Flowable] = [PageBreak(),
                               Heading(self.label("appendix_number"), self.label("designer_notes"), 0, self.st["h1"], mark=appendix,
                                       key=self.key(), rule=True, space_after=6, gap=self.marks.gap, pages=self.pages,
                                       lang=self.lang),
                               self.label_para("appendix_note"),
                               Spacer(1, 4)]
        for i, (title, flow) in enumerate(parts):
            out.append(CondPageBreak(30 * mm))
            out.append(Heading(column_letter(i + 1), title, 1, self.st["h2"], key=self.key(), bar=True,
                               space_before=8, space_after=4, gap=self.marks.gap, lang=self.text_lang))
            out += flow
        return out


def _data_only(row: ComponentRow) -> bool:
    return len(row.parts) == 1 and row.parts[0][0] == row.name and bool(row.parts[0][1])

