"""The rulebook's story: the document tree, component rows, pictures and proofing notes turned
into platypus flowables, in book order (cover, contents, rules, quick reference, index,
appendix, colophon). The draft's blocks of text themselves are set by rulebook/storytext.py's
``StoryText``, which ``StoryBuilder`` extends with the book's sections, components list and back
matter."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence

from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    NextPageTemplate,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import PageBreakIfNotEmpty

from pnpgen.data.spreadsheets import column_letter  # appendix parts: A … Z, AA …, as spreadsheet columns
from pnpgen.rulebook import glyphs
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.contents import Contents
from pnpgen.rulebook.flowables import (
    Heading,
    JPara,
    PageNumber,
    grid_height,
)
from pnpgen.rulebook.headline import HeadText
from pnpgen.rulebook.inline import with_icons
from pnpgen.rulebook.keeps import (
    EntryKeep,
    EntryRun,
    figures_float,
    headings_with_their_figures,
    lead_ins_with_their_lists,
    lists_kept_together,
    questions_with_their_answers,
    two_lines_under_headings,
)
from pnpgen.rulebook.numbering import unnumbered_summary
from pnpgen.rulebook.piecepics import Faces, FittedFaces
from pnpgen.rulebook.quickref import Line, printed, quick_reference
from pnpgen.rulebook.storytext import StoryText, on_grid
from pnpgen.rulebook.styles import (
    ACCENT,
    BODY_LEADING,
    BODY_SIZE,
    INK,
    NOTE_INK,
    NOTE_LEADING,
    NOTE_SIZE,
    RULE,
    SOFT,
)
from pnpgen.rulebook.termindex import TermIndex
from pnpgen.rulebook.tree import (
    Component,
    Section,
    Step,
    own_section_number,
)
from pnpgen.rulebook.xrefs import case_number

_OWN_NUMBER = re.compile(r"([0-9０-９]{1,3}(?:[.．][0-9０-９]{1,3})+)[ 　]+(?=\S)")  # a section's own (「５．０　」)
# The rule under each part of a component (pt): 0.1 mm, the thinnest line 同人印刷所 print (the
# doujin presets' min_line); at 0.25 pt (0.088 mm), in the rules' 31 % grey, it broke up as a screen.
PART_RULE_PT = 0.3

PICTURE_W = 50 * mm  # pictures at most this wide stand beside the description, wider ones above it
RULE_GAP = 3  # pt between a component's heading rule and its pictures (the card's edge touched the rule)
PICTURE_GAP = 4 * mm  # between the pictures and the description beside them
STEP_INDENT = BODY_SIZE * 2  # a one-sentence step's text, right of its hanging number (``10.`` fits)
QR_INDENT = 4 * mm  # the quick reference's lines under their part's title


def picture_column(widest: float) -> float:
    """The width of the pictures' column beside a description: the pictures and a gap of
    PICTURE_GAP. (A column of PICTURE_W for every row left a token's small picture half a page
    away from its text; rows of like pictures have the same width, so their text lines up.)"""
    return widest + PICTURE_GAP


def _cell_table(rows, widths, style) -> Table:
    t = Table(rows, colWidths=widths)
    t.setStyle(TableStyle(style))
    return t


class StoryBuilder(StoryText):
    # -- sections
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
        after = min([page for key, page in self.pages.items() if key[0] == "h" and int(key[1:]) > self.rules_keys], default=n_pages)
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
        elif number and self.refers and self.indexing:  # the book's own number, 5: where 「（→５）」 goes
            heading.anchors = self.case_anchor(number)
        return [CondPageBreak(45 * mm), self.indexed(heading, title)]

    def step_heading(self, number: str, title: str, node: object = None, case: bool = False) -> Flowable:
        key = self.node_key(node) if node is not None else self.key()
        heading = Heading(number, self.shown(title), 1, self.st["h2"], key=key, bar=True, space_before=8,
                          space_after=4, gap=self.marks.gap, pages=self.pages, icons=self.icons, lang=self.text_lang)
        if (case or self.refers) and self.indexing:  # a step under a section the draft numbers (5.1), or a
            # step the book numbers 4.1 in a draft that refers to it: a case a reference goes to
            heading.anchors = self.case_anchor(number)
        heading.draft_line = self.lines.get(key, 0)  # named when no page holds it
        return self.indexed(heading, title)

    def step_line(self, step: Step) -> JPara:
        """A step the draft wrote as one sentence (``1. Shuffle the deck.``), set as a numbered
        line of the text with its number hanging: an instruction is no heading of the contents."""
        return self.jpara(step.sentence, self.fonts.body, BODY_SIZE, BODY_LEADING, first_indent=STEP_INDENT,
                          left=STEP_INDENT, prefix=f"{step.number}.", prefix_font=self.fonts.bold,
                          prefix_x=BODY_SIZE * 0.2, page=(self.node_key(step), self.pages))

    def section_number(self, n: int, s: Section) -> tuple[str, str]:
        """(the number printed before the section's heading, the one its steps are numbered under):
        the ``n``-th section's n, n; a section the draft numbers itself (「５．０　移動」) none and 5;
        the draft's own 早見表 among sections it numbers itself none and n (``unnumbered_summary``)."""
        own = own_section_number(s.title)
        if own is None and unnumbered_summary(self.doc, s):
            return "", str(n)
        return ("", own) if own is not None else (str(n), str(n))

    def rules_section(self, n: int, s: Section) -> list[Flowable]:
        number, under = self.section_number(n, s)
        out = self.section_heading(number, s.title, self.shown(s.title), s)
        if s.is_spoiler:  # the answers on a page of their own, not under the rules read in play (the
            out[0] = PageBreakIfNotEmpty()  # book's first section: on the page the contents turn to, not after a blank one)
        if s.is_components:  # (a figure may follow it too: a wargame's counters, front and back)
            return out + self.components_section(s) + self.figures_after(s.title)
        under_heading = True  # what comes next stands right under a heading (a blank line there adds no space)
        for child in s.children:
            if isinstance(child, Step) and child.sentence:
                out.append(self.step_line(child))
                out += self.blocks(child.children, STEP_INDENT, after_text=True)
                out += self.figures_after(child.title)
                under_heading = False
            elif isinstance(child, Step):
                out.append(CondPageBreak(30 * mm))
                out.append(self.step_heading(f"{under}.{child.number}", child.title, child, case=not number))
                if len(out) == 4:  # right under the section's heading: no blank grid line between them
                    out[-1].spaceBefore = 0
                text = self.blocks(child.children) + self.figures_after(child.title)
                out += text
                under_heading = not text
            elif isinstance(child, Component):  # a ◇ entry outside a components section cannot occur
                out += self.blocks(child.children)
            else:
                out += self.blocks([child], after_text=not under_heading)
                under_heading = False
        return out + self.figures_after(s.title)

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
        return out + (self.blocks(after, after_text=True) if after else [])

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
            pic += [Faces(d, self.pictures[d], 1 / n / self.printed), Spacer(1, 2)]
            if n != self.common:
                pic += [self.p(self.label("picture_own_scale", n=n) if n > 1 else self.label("picture_own_actual"), "caption"),
                        Spacer(1, 2)]
        widest = max((f.width for f in pic if isinstance(f, Faces)), default=0.0)
        def beside(description: list[Flowable]) -> Table:
            return on_grid(_cell_table([[pic, description or ""]], [picture_column(widest), None], [
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),
            ]))

        # a table's cell does not split: a description beside its pictures that no page holds (a
        # rules text of its own) goes under them, where it runs on, as a wide picture's does
        # (measured on a copy: a paragraph keeps the lines of the measure it is first set to)
        if pic and widest <= PICTURE_W and \
                grid_height([*out, beside(copy.deepcopy([*text, *listed]))], self.text_w, self.body_h) <= self.body_h:
            out.append(self.indexed(beside([*text, *listed]), parts=[*text, *listed]))  # the table draws the description: the index sees it so
            return EntryKeep(out, len(out), len(lead))
        return EntryKeep(out + pic + text + listed, len(out) + len(pic), len(lead))  # a wide picture stands above its description

    def parts_table(self, parts) -> Table:
        data = [[self.p(d.name, "part"), self.p(f"{d.count}{d.unit}", "part_count")]
                for _name, ds in parts for d in ds]
        return on_grid(_cell_table(data, ["78%", "22%"], [
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),  # else Table sets Helvetica
            ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
            ("LINEBELOW", (0, 0), (-1, -1), PART_RULE_PT, RULE),
            ("BACKGROUND", (0, 0), (-1, -1), SOFT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]))

    # -- back matter
    def quick_reference(self, sheet: bool = False) -> list[Flowable]:
        """One page of the rules at a glance, from the parsed draft (``quickref``): the turn
        sequence with the page of each step (``sheet``: on a rule sheet, which has sides, not pages,
        the number of the heading it is under, as the sheet prints it), the end trigger, scoring and victory, the setup's
        counts, the components' counts (stand-ins marked 「（仮）」); a part the draft is silent on
        says so. The game's own summary deck follows when game.yaml names one. A draft with a
        早見表 of its own (■　早見表) keeps it where it stands, and gets no second one."""
        if not self.settings.quick_reference or not self.doc.rules or any(s.is_quick_reference for s in self.doc.rules):
            return []  # (game.yaml's quick_reference: false; a game with no decks, a scenario book: no turn)
        q = quick_reference(self.doc.rules, self.marks.latin)
        numbers = {id(s): self.section_number(n, s)[1] for n, s in enumerate(self.doc.rules, start=1)}
        headings = self.numbered_headings() if sheet else None
        out: list[Flowable] = []

        def numbered(lists: list) -> list[tuple[str, Line]]:
            """Each step by the number the book prints it with: a heading's 3.1, a one-sentence step's 1."""
            return [(f"{'' if line.anchor.sentence else f'{numbers[id(steps.section)]}.'}{line.anchor.number}"
                     f"{'.' if line.anchor.sentence else ''}{self.marks.gap}{line.text}"
                     if isinstance(line.anchor, Step) else f"{self.marks.bullet_lead}{line.text}", line)
                    for steps in lists for line in steps.lines]

        out += self.qr_part("qr_flow", numbered(q.steps), headings)
        def alone(lines: list[Line]) -> list[tuple[str, Line]]:
            return list(zip(printed(lines), lines))

        out += self.qr_part("qr_setup", numbered(q.setup_steps) + alone(q.setup), headings)
        out += self.qr_part("qr_end", alone(q.end), headings)
        out += self.qr_part("qr_scoring", alone(q.scoring), headings)
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
            widest = min(Faces.fit(picture, float("inf"), self.text_w), 1.0)
            card = FittedFaces(deck, picture, widest, min(Faces.fit(picture, 70 * mm, self.text_w), 1.0) / 3)
            card.hAlign = "CENTER"  # the page's centre, under the lines above (left-aligned, it looked misplaced)
            out += [Spacer(1, 4), card]
        title = self.label("quick_reference")
        return [PageBreak(), Heading("", title, 0, self.st["h1"], mark=title, key=self.key(), rule=True,
                                     space_after=4, pages=self.pages, lang=self.lang)] + out

    def numbered_headings(self) -> dict[int, str]:
        """Each section, step and sub-heading of the rules (by id) → the number of the heading a reader
        finds it under, as the rules print it: its section's (3), a step set as a heading's (3.2); a
        sub-heading's and a one-sentence step's, the heading above them."""
        out: dict[int, str] = {}

        def under(nodes: Sequence[object], number: str) -> None:
            for node in nodes:
                own = f"{number}.{node.number}" if isinstance(node, Step) and not node.sentence else number
                out[id(node)] = own
                under(getattr(node, "children", ()), own)

        for n, s in enumerate(self.doc.rules, start=1):
            out[id(s)] = self.section_number(n, s)[1]
            under(s.children, out[id(s)])
        return out

    def qr_title(self, key: str) -> HeadText:
        head = HeadText(self.label(key), self.st["h5"], latin=self.marks.latin, lang=self.lang, mark=self.marks.other)
        head.keepWithNext = 1
        return head

    def qr_part(self, key: str, lines: list[tuple[str, Line]], headings: dict[int, str] | None = None) -> list[Flowable]:
        """A titled part of the quick reference: each line with the page that explains it (a rule
        sheet's: the number of the heading it is under, ``headings``, from ``numbered_headings``), or
        「草案に記載なし」 (the designer's copy; a book to hand out leaves the part out: its reader
        has no draft)."""
        if not lines and self.rules_only:
            return []
        if not lines:
            return [self.qr_title(key), self.paragraph(self.label("qr_silent"), self.fonts.notes, 8, 12, color=NOTE_INK,
                                              left=QR_INDENT, first_indent=QR_INDENT, lang=self.lang)]
        def where(line: Line) -> Callable[[int], str]:
            """What the line's reference prints: the book's page, the sheet's heading number."""
            heading = headings.get(id(line.anchor)) if headings is not None else None
            if heading is None:
                return lambda n: self.label("qr_page", page=n)
            return lambda _side: self.label("qr_section", section=heading)

        rows = [[self.qr_line(text),
                 PageNumber(self.node_keys.get(id(line.block), self.node_keys.get(id(line.anchor), "")), self.pages,
                            where(line), self.fonts.gothic, 7.5)]
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
        if self.settings.contents and (self.doc.rules or (not self.rules_only and self._has_appendix())):
            toc = Contents(levelStyles=[st["toc0"], st["toc1"]], dotsMinLevel=0, tableStyle=TableStyle([
                ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else its Table sets Helvetica
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]), icons=self.icons, lang=self.text_lang)
            out += [NextPageTemplate("front"), PageBreak(), self.p(self.label("contents"), "toc_title"), toc]
        out += [NextPageTemplate("body"), PageBreak()]  # no headings at all (or contents: false): no contents page
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
        return self.kept_together(out)

    def sheet_story(self, quick_reference: bool) -> list[Flowable]:
        """The rules alone, as the book sets them, for a rule sheet's columns (rulebook/sheet.py):
        no cover, contents, index, appendix or colophon; the 早見表 after them when asked for,
        in the columns (a column of its own when less than a third of one is left), not on a page
        of its own."""
        out: list[Flowable] = self.blocks(self.doc.preamble) if self.doc.preamble else []
        for n, s in enumerate(self.doc.rules, start=1):
            out += self.asking_no_more_than_it_holds(self.rules_section(n, s))
        self.indexing = False
        self.rules_keys = self._key
        summary = self.quick_reference(sheet=True) if quick_reference else []
        if summary:
            summary[0] = CondPageBreak(self.body_h / 3)  # (the book's PageBreak: a column break on the sheet)
        return self.kept_together(out + summary)

    def asking_no_more_than_it_holds(self, section: list[Flowable]) -> list[Flowable]:
        """A rule sheet's ``section``, each of its column breaks (the book's 45 mm before a section's
        heading, 30 mm before a step's: no page ends on a heading) asking no more room than what it
        keeps together stands (the whole section; the step up to the next): a short last section the
        column holds whole stays there, rather than turning the sheet over for three lines. A taller
        one asks what the book's page asks (measured on a copy: a paragraph keeps the lines of the
        measure it is first set to)."""
        breaks = [i for i, f in enumerate(section) if type(f) is CondPageBreak]
        for k, i in enumerate(breaks):
            end = len(section) if i == 0 or k + 1 == len(breaks) else breaks[k + 1]
            whole = grid_height(copy.deepcopy(section[i + 1:end]), self.text_w, self.body_h)
            section[i].height = min(section[i].height, whole)
        return section

    def kept_together(self, out: list[Flowable]) -> list[Flowable]:
        """``out`` with what stays on one page kept so (rulebook/keeps.py)."""
        lead_ins_with_their_lists(out)
        lists_kept_together(out)
        questions_with_their_answers(out)
        two_lines_under_headings(out, self.text_w)
        headings_with_their_figures(out)
        figures_float(out)
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

