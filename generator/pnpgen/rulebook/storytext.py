"""The draft's text as the rulebook sets it: paragraphs, notes, lists, asides, sub-headings and
run-in headings, the figures placed after a title, each paragraph in the book's setting.

``StoryText`` holds what the whole story shares (the book's fonts, marks, pictures and their scales,
the heading keys and the pages they land on); rulebook/story.py's ``StoryBuilder`` builds on it the
book's order: sections, the components list, the quick reference, the index and the appendix.
Kept apart so that setting one block of the draft reads without the book around it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Paragraph,
    Spacer,
)

from pnpgen.memo import Memo
from pnpgen.messages import labels_language, msg
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.bookruby import Ruby, placed
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.diagram import Diagram
from pnpgen.rulebook.figures import FigureSpec, RulebookSettings, anchor
from pnpgen.rulebook.flowables import (
    JPara,
    LinkedParagraph,
    mark_indexed,
    terms,
)
from pnpgen.rulebook.headline import HeadText
from pnpgen.rulebook.inline import Icon, with_icons
from pnpgen.rulebook.jlreq import full_width_marks
from pnpgen.rulebook.keeps import (
    FigureKeep,
    Indent,
    boxed,
)
from pnpgen.rulebook.numbering import refers
from pnpgen.rulebook.ownpics import PictureFigure
from pnpgen.rulebook.pictures import DeckPicture
from pnpgen.rulebook.piecepics import Faces, Figure
from pnpgen.rulebook.setlines import SetLines
from pnpgen.rulebook.styles import (
    ACCENT,
    BLOCK_INDENT,
    BODY_H,
    BODY_LEADING,
    BODY_SIZE,
    INK,
    LATIN_GAP,
    NOTE_INK,
    NOTE_LEADING,
    NOTE_SIZE,
    TEXT_W,
    Fonts,
    heading_styles,
)
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
    Step,
    Subheading,
    faq_role,
    note_mark,
)
from pnpgen.rulebook.typography import latin_typography
from pnpgen.rulebook.xrefs import case_number, defined_case, destination
from pnpgen.svg.artwork import Art
from pnpgen.terms import is_latin, unbracket
from pnpgen.text.ruby import RUBY_SCALE

SUB_STYLE = {1: ("h3", "◆"), 2: ("h4", "◎"), 3: ("h5", "●")}
_DOT_MARK = re.compile(r"[0-9０-９]{1,2}[.．]")  # an indented list's number (「１．」)
_CASE_MARK = re.compile(r"[0-9０-９]{1,2}(?:[.．][0-9０-９]{1,2}){1,3}")  # a rule case's number (「５．２．１」)
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
# a piece no longer than this (a counter, a token, a marker) is pictured at actual size when it fits: at
# the list's 1/2 a 12.7 mm counter was 6 mm across, its 5 pt text 2.5 pt, too small to read
SMALL_PIECE_MM = 30.0
LIST_INDENT = BODY_SIZE * 1.1  # a nested list item's mark, under its parent's text


def reduction(scale: float) -> int:
    """The n of the 1/n scale that fits where ``scale`` does (never more than actual size)."""
    return max(1, math.ceil(1 / scale - 1e-6))


def on_grid(f: Flowable) -> Flowable:
    """``f`` starts on a line of the body pages' grid (``document.GridFrame``)."""
    f.on_grid = True  # type: ignore[attr-defined]
    return f


class StoryText:
    def __init__(self, doc: Document, fonts: Fonts, rows: list[ComponentRow], *, rules_only: bool,
                 pictures: Mapping[str, DeckPicture], settings: RulebookSettings, proof: list[tuple[str, str]],
                 lines_recovered: bool = False,
                 lang: str = "ja", text_lang: str = "ja", boards: Collection[str] = (),
                 readings: Memo[str] | None = None, icons: Mapping[str, Icon] | None = None,
                 setting: SetLines | None = None, own: Mapping[int, Art] | None = None,
                 text_w: float = TEXT_W, body_h: float = BODY_H, rubies: Sequence[tuple[str, str, str]] = (),
                 printed: float = 1.0):
        self.doc, self.fonts, self.rows = doc, fonts, rows
        # the column the text is set in (pt): the A5 page's, or a rule sheet's column (rulebook/sheet.py)
        self.text_w, self.body_h = text_w, body_h
        # the size the page prints at, of the size it is set at: a rule sheet's smaller text: (8.5/9); the
        # pieces' pictures are drawn larger by as much, so that they print at the scale their captions say
        self.printed = printed
        self.own = own or {}  # the figures' pictures of the designer's own, by their place in settings.figures
        self.setting = setting  # the book's setting, which recalls and keeps its lines (setlines.py)
        self.icons = icons or {}  # the draft's {name} icons that exist, by name (inline.draft_icons)
        self.readings = readings  # the index terms' readings (``termindex.reading``)
        self.rubies = tuple(rubies)  # the draft's ruby as the reader printed it (reader.Draft.rubies)
        # pnpgen's labels (set by their own language: a German edition's English ones hyphenated as
        # English, not by German's dictionary); the draft's text
        self.lang, self.text_lang = labels_language(lang), text_lang
        self.marks = Marks(is_latin(text_lang))
        self.st = heading_styles(fonts)
        self.rules_only = rules_only
        self.pictures, self.settings, self.proof = pictures, settings, proof
        self.lines_recovered = lines_recovered
        self.boards = set(boards)  # deck ids of the boards (their pictures may be smaller still)
        self.common, self.reductions = self.picture_scales()
        self._key = 0
        self._items = 0  # ・ items keyed (``item_key``)
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
        # a draft that refers to its rules by number (「（→４．１）」): the numbers the book gives its
        # sections and steps are places a reference goes to as well (a draft with none marks none)
        self.refers = refers(doc)

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
        ruby: tuple[Ruby, ...] = ()
        jukugo: tuple[Ruby, ...] = ()
        if self.rubies and not is_latin(self.text_lang) and full_width_marks(font) and leading - size >= size * RUBY_SCALE:
            width = self.text_w - kw.get("left", 0.0)  # a reading longer than the line keeps its parentheses
            text, ruby, jukugo = placed(text, self.rubies,
                                        lambda reading: glyphs.width(reading, font, size * RUBY_SCALE) <= width)
        return self.paragraph(text, font, size, leading, indexed=self.indexing, lang=self.text_lang, icons=icons,
                              links=self.cases, ruby=ruby, jukugo=jukugo, **kw)

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
               notes_as_rules: bool = True, after_text: bool = False) -> list[Flowable]:
        """The draft's blocks as flowables; a step or a ◇ component entry among them sets nothing.
        A blank line of the draft before a block is a grid line of space, but for the first block
        right under a heading (``after_text``: the first follows text set by another call, as a
        section's blocks, set one by one between its steps, do)."""
        out: list[Flowable] = []
        for b in blocks:
            start = len(out)
            # where a paragraph or item starts: the quick reference prints the page of its sentences
            page = (self.node_key(b), self.pages) if isinstance(b, (DraftParagraph, Note, Item)) or \
                isinstance(b, Bullet) and b.mark else None  # (a marked item: the quick reference reads it)
            if isinstance(b, Bullet) and not b.mark:  # a ・ item: the setup's counts may be said in one
                page = (self.item_key(b), self.pages)
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
                    item = self.jpara(b.body, self.fonts.body, BODY_SIZE, BODY_LEADING,
                                      first_indent=left - BODY_SIZE, left=left, prefix=b.term + self.marks.colon,
                                      prefix_font=self.fonts.bold, page=page)
                    item.faq = faq_role(b)  # type: ignore[attr-defined]  # a question or answer: keeps.questions_with_their_answers
                    out.append(item)
                else:
                    out.append(self.para(b.text, indent=left, first=-BODY_SIZE, page=page))
            elif isinstance(b, Preformatted):
                diagram = Diagram(b.lines, self.fonts.mono, left=indent, icons=self.icons, header=b.header,
                                  latin=self.fonts.gothic if self.marks.latin else "", links=self.cases)
                diagram.spaceBefore, diagram.spaceAfter = 3, 4
                diagram.draft_line = b.line  # named when no page holds it
                diagram.fit(self.text_w)
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
                sub = Indent(head, indent, key, self.pages)
                sub.anchors = self.sub_anchor(b)
                out.append(self.indexed(sub, b.text))
                out += self.blocks(b.children, indent + BLOCK_INDENT, notes_as_rules=notes_as_rules)
                out += self.figures_after(b.text)
            if getattr(b, "gap_before", False) and (start or after_text or self.marks.latin) and len(out) > start:
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
        elif _DOT_MARK.fullmatch(mark):  # an indented list numbered 「１．」: 1., as the book's numbered lines are
            mark = case_number(mark)
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
        anchor = next(iter(self.sub_anchor(b)), "")
        if isinstance(first, DraftParagraph):
            children.pop(0)
            self.node_keys[id(first)] = key  # its sentences are on the heading's line
            head = self.jpara(first.text, self.fonts.body, BODY_SIZE, BODY_LEADING, first_indent=indent,
                              left=inner, prefix=lead, prefix_font=self.fonts.bold, page=(key, self.pages),
                              anchor=anchor)
        else:
            head = self.jpara(lead.rstrip(self.marks.gap), self.fonts.bold, BODY_SIZE, BODY_LEADING,
                              first_indent=indent, left=inner, page=(key, self.pages), anchor=anchor)
            head.keepWithNext = 1
        if getattr(b, "gap_before", False):
            head.spaceBefore = 4
        out: list[Flowable] = [head]
        out += self.blocks(children, inner, notes_as_rules=notes_as_rules)
        return out + self.figures_after(b.text)

    def sub_anchor(self, b: Subheading) -> tuple[str, ...]:
        """Where a reference to a sub-heading the draft numbers goes (``5.1 Movement``, cited as
        "see 5.1"): its case's destination, while the rules are set."""
        number = defined_case(b.text) if self.indexing else None
        return self.case_anchor(number) if number else ()

    def node_key(self, node: object) -> str:
        """A new heading key, remembered for the draft's node (the quick reference prints its page)."""
        key = self.node_keys[id(node)] = self.key()
        self.lines[key] = getattr(node, "line", 0)
        return key

    def item_key(self, node: object) -> str:
        """A key of its own (``i1``, ``i2``…, apart from the headings' ``h`` keys, which name the PDF's
        bookmarks) for a ・ item, remembered for the draft's node: the quick reference prints its page."""
        self._items += 1
        key = self.node_keys[id(node)] = f"i{self._items}"
        return key

    def figures_after(self, title: str) -> list[Flowable]:
        self.anchors.add(title)
        out: list[Flowable] = []
        for i, spec in enumerate(self.settings.figures):
            if anchor(spec.after) != anchor(title) or spec in self.figures_placed:
                continue
            placed = [(p.deck, self.pictures[p.deck], p.piece, p.x, p.y, p.rotate, p.side) for p in spec.pieces
                      if p.deck in self.pictures and self.pictures[p.deck].piece(p.piece, p.side)]
            if spec.picture is not None and i in self.own:  # the designer's own picture
                figure: Flowable = PictureFigure(self.own[i], f"{spec.picture.name}\0{spec.size_mm}", *spec.size_mm)
            elif placed:
                figure = Figure(placed, *spec.size_mm)
            else:
                continue
            self.figures_placed.append(spec)
            part: list[Flowable] = [Spacer(1, 4), on_grid(figure)]
            if spec.caption:  # numbered through the book, as JIS Z 8301 and books number figures: a
                # bare 「図」 names nothing, and the draft's 下図 may be a page on when the figure waits
                n = sum(1 for placed_spec in self.figures_placed if placed_spec.caption)
                said = self.label("figure", n=n, caption=self.shown(spec.caption))
                caption: Flowable = LinkedParagraph(said, self.st["figure_caption"], links=self.cases) if self.marks.latin else \
                    HeadText(said, self.st["figure_caption"], icons=self.icons, lang=self.lang, centred=True,
                             links=self.cases)
                part += [Spacer(1, 2), self.indexed(caption, spec.caption)]
            out.append(FigureKeep(part + [Spacer(1, 4)]))
        return out

    def pictured(self, row: ComponentRow) -> list[str]:
        """The decks a row pictures (two at most, one above the other)."""
        return [d for d in row.deck_ids[:2] if d in self.pictures]

    def picture_scales(self) -> tuple[int | None, dict[str, int]]:
        """One scale 1/n for every picture of the components list: the largest at which each
        piece but the boards fits its slot, never above actual size, and never below 1/2 while
        some piece fits at 1/2; a board, or a piece, too big for it is drawn at its own smaller 1/n,
        a small piece (``SMALL_PIECE_MM``) at its own larger one, actual size where it fits, so
        that its text reads. Returns the common n (None when only boards are shown) and the n per
        deck id."""
        need = {d: reduction(Faces.fit(self.pictures[d], PICTURE_H * self.printed, self.text_w * self.printed))
                for row in self.rows for d in self.pictured(row)}
        pieces = [n for d, n in need.items() if d not in self.boards]
        common = max(pieces) if pieces else None
        if common is not None and common > COMMON_MAX and min(pieces) <= COMMON_MAX:
            # one big card (名刺 91 mm) drew every token at 1/3, 8 mm across: the pieces that fit at
            # 1/2 share it, the few that do not get their own scale, captioned, as a board does
            common = COMMON_MAX
        return common, {d: n if d not in self.boards and max(self.pictures[d].trim_mm) <= SMALL_PIECE_MM
                        else max(n, common or 1) for d, n in need.items()}
