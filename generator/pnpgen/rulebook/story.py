"""The rulebook's story: the document tree, component rows, pictures and proofing notes turned
into platypus flowables, in book order (cover, contents, rules, quick reference, index,
appendix, colophon)."""

from __future__ import annotations

import math
from typing import Collection, Mapping

from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from pnpgen.rulebook import glyphs
from pnpgen.rulebook.components import ComponentRow
from pnpgen.rulebook.figures import FigureSpec, RulebookSettings
from pnpgen.rulebook.flowables import Diagram, Faces, Figure, Heading, JPara, TermIndex, mark_indexed, terms
from pnpgen.rulebook.parse import (
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
)
from pnpgen.data.spreadsheets import column_letter  # appendix parts: A … Z, AA …, as spreadsheet columns
from pnpgen.memo import Memo
from pnpgen.messages import msg
from pnpgen.rulebook.pictures import DeckPicture
from pnpgen.rulebook.reader import is_latin
from pnpgen.rulebook.styles import (
    ACCENT,
    BLOCK_INDENT,
    BODY_LEADING,
    BODY_SIZE,
    INK,
    NOTE_INK,
    NOTE_LEADING,
    NOTE_SIZE,
    RULE,
    SOFT,
    MARGIN_INNER,
    MARGIN_OUTER,
    PAGE_W,
    Fonts,
    heading_styles,
)

SUB_STYLE = {1: ("h3", "◆"), 2: ("h4", "◎"), 3: ("h5", "●")}
SUB_STYLE_LATIN = {1: ("h3", ""), 2: ("h4", ""), 3: ("h5", "•")}  # Latin faces have no ◆ ◎ ●


class Marks:
    """The punctuation pnpgen sets around the draft's text, by the script it is set in."""

    def __init__(self, latin: bool):
        self.latin = latin
        self.gap = "\u2002" if latin else "　"  # between a number and its title
        self.bullet = "•" if latin else "・"
        self.colon = ": " if latin else "："
        self.section = "" if latin else "■"  # before a section's name in the quick reference
        self.other = "•" if latin else "●"
        self.sub = SUB_STYLE_LATIN if latin else SUB_STYLE
        self.list_sep = " / " if latin else "／"

    def outline(self, sub: Subheading) -> str:
        """A sub-heading with the ◎-level ones under it: 手札配置（通常配置・エピック移行）."""
        inner = [b.text for b in sub.children if isinstance(b, Subheading) and b.level <= 2]
        if not inner:
            return sub.text
        return f"{sub.text} ({', '.join(inner)})" if self.latin else f"{sub.text}（{'・'.join(inner)}）"
PICTURE_H = 44 * mm  # the tallest a deck's faces are drawn in the components list
PICTURE_W = 50 * mm  # pictures at most this wide stand beside the description, wider ones above it
TEXT_W = PAGE_W - MARGIN_INNER - MARGIN_OUTER


def reduction(scale: float) -> int:
    """The n of the 1/n scale that fits where ``scale`` does (never more than actual size)."""
    return max(1, math.ceil(1 / scale - 1e-6))


def _cell_table(rows, widths, style) -> Table:
    t = Table(rows, colWidths=widths)
    t.setStyle(TableStyle(style))
    return t


class StoryBuilder:
    def __init__(self, doc: Document, fonts: Fonts, rows: list[ComponentRow], *, rules_only: bool,
                 pictures: Mapping[str, DeckPicture], settings: RulebookSettings, proof: list[tuple[str, str]],
                 lang: str = "ja", text_lang: str = "ja", boards: Collection[str] = (),
                 readings: Memo[str] | None = None):
        self.doc, self.fonts, self.rows = doc, fonts, rows
        self.readings = readings  # the index terms' readings (``flowables.reading``)
        self.lang, self.text_lang = lang, text_lang  # pnpgen's labels; the draft's text
        self.marks = Marks(is_latin(text_lang))
        self.st = heading_styles(fonts)
        self.rules_only = rules_only
        self.pictures, self.settings, self.proof = pictures, settings, proof
        self.boards = set(boards)  # deck ids of the boards (their pictures may be smaller still)
        self.common, self.reductions = self.picture_scales()
        self._key = 0
        self.figures_placed: list[FigureSpec] = []
        self.anchors: set[str] = set()  # every title a figure may follow (``after:``)
        self.indexing = True  # what is set now is the rules' text: its 【terms】 go to the index
        self.has_terms = False  # the index has an entry

    def indexed(self, f: Flowable, text: str = "", parts: list[Flowable] = ()) -> Flowable:
        """``f`` seen by the index, while the rules are set (``flowables.mark_indexed``)."""
        if not self.indexing:
            return f
        self.has_terms = self.has_terms or bool(terms(text))
        return mark_indexed(f, text, parts)

    def jpara(self, text: str, font: str, size: float, leading: float, **kw) -> JPara:
        """A paragraph of the draft: indexed while the rules are set."""
        self.has_terms = self.has_terms or (self.indexing and bool(terms(kw.get("prefix", "") + text)))
        return JPara(text, font, size, leading, indexed=self.indexing, lang=self.text_lang, **kw)

    def key(self) -> str:
        self._key += 1
        return f"h{self._key}"

    # -- text blocks
    def para(self, text: str, *, indent: float = 0.0, first: float | None = None, note: bool = False,
             colour=INK) -> JPara:
        size, leading = (NOTE_SIZE, NOTE_LEADING) if note else (BODY_SIZE, BODY_LEADING)
        return self.jpara(text, self.fonts.body, size, leading, color=NOTE_INK if note else colour,
                          first_indent=indent + (size if first is None else first), left=indent)

    def p(self, text: str, style: str) -> Paragraph:
        """A Paragraph of plain ``text`` in one of the heading styles (with glyph fallback)."""
        return Paragraph(glyphs.markup(text, self.st[style].fontName), self.st[style])

    def label(self, key: str, **args: object) -> str:
        return msg(f"rulebook.{key}", self.lang, **args)

    def label_para(self, key: str) -> JPara:
        """One of pnpgen's own notes (in the labels' language), set as a designer's note is."""
        return JPara(self.label(key), self.fonts.body, NOTE_SIZE, NOTE_LEADING, color=NOTE_INK, first_indent=0,
                     lang=self.lang)

    def blocks(self, blocks: list[Block], indent: float = 0.0, *, notes_as_rules: bool = True) -> list[Flowable]:
        out: list[Flowable] = []
        for b in blocks:
            start = len(out)
            if isinstance(b, DraftParagraph):
                out.append(self.para(b.text, indent=indent, first=BODY_SIZE if b.indent else 0))
            elif isinstance(b, Note):
                # a parenthesised rule is body text; only the designer's notes are set as asides
                out.append(self.para(b.text, indent=indent) if notes_as_rules
                           else self.para(b.text, indent=indent + BODY_SIZE, first=0, note=True))
            elif isinstance(b, Bullet):
                out.append(self.jpara(b.text, self.fonts.body, BODY_SIZE, BODY_LEADING,
                                      first_indent=indent + BODY_SIZE * 1.6, left=indent + BODY_SIZE * 1.6,
                                      prefix=self.marks.bullet, prefix_x=indent + BODY_SIZE * 0.5))
            elif isinstance(b, Item):
                left = indent + BODY_SIZE * 1.5
                if b.term:
                    out.append(self.jpara(b.body, self.fonts.body, BODY_SIZE, BODY_LEADING,
                                          first_indent=left - BODY_SIZE, left=left, prefix=b.term + self.marks.colon,
                                          prefix_font=self.fonts.bold))
                else:
                    out.append(self.para(b.text, indent=left, first=-BODY_SIZE))
            elif isinstance(b, Preformatted):
                diagram = Diagram(b.lines, self.fonts.mono, left=indent)
                diagram.spaceBefore, diagram.spaceAfter = 3, 4
                out.append(self.indexed(diagram, "\n".join(b.lines)))
            elif isinstance(b, Subheading):
                style, mark = self.marks.sub[b.level]
                head = Paragraph(_marked(mark, b.text, self.st[style].fontName), self.st[style])
                head.keepWithNext = 1
                out.append(self.indexed(_indented(head, indent), b.text))
                out += self.blocks(b.children, indent + BLOCK_INDENT, notes_as_rules=notes_as_rules)
                out += self.figures_after(b.text)
            if getattr(b, "gap_before", False) and (start or self.marks.latin) and len(out) > start:
                # a blank line in the draft: space above (a flowable, not a Spacer, so that
                # a heading's keep-with-next reaches the text); a Latin draft's paragraphs are
                # set apart by it wherever they stand (they have no indent)
                out[start].spaceBefore = max(getattr(out[start], "spaceBefore", 0), 4)
        return out

    # -- sections
    def section_heading(self, number: str, title: str, mark: str) -> list[Flowable]:
        return [CondPageBreak(45 * mm),
                self.indexed(Heading(number, title, 0, self.st["h1"], mark=mark, key=self.key(), rule=True,
                                     space_before=10, space_after=6, gap=self.marks.gap), title)]

    def step_heading(self, number: str, title: str) -> Flowable:
        return self.indexed(Heading(number, title, 1, self.st["h2"], key=self.key(), bar=True, space_before=8,
                                    space_after=4, gap=self.marks.gap), title)

    def rules_section(self, n: int, s: Section) -> list[Flowable]:
        out = self.section_heading(str(n), s.title, s.title)
        if s.is_components:
            return out + self.components_section(s)
        for child in s.children:
            if isinstance(child, Step):
                out.append(CondPageBreak(30 * mm))
                out.append(self.step_heading(f"{n}.{child.number}", child.title))
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
        for spec in self.settings.figures:
            if spec.after != title or spec in self.figures_placed:
                continue
            placed = [(p.deck, self.pictures[p.deck], p.piece, p.x, p.y, p.rotate) for p in spec.pieces
                      if p.deck in self.pictures and self.pictures[p.deck].piece(p.piece)]
            if not placed:
                continue
            self.figures_placed.append(spec)
            part: list[Flowable] = [Spacer(1, 4), Figure(placed, *spec.size_mm)]
            if spec.caption:
                caption = self.p(self.label("figure", caption=spec.caption), "caption")
                part += [Spacer(1, 2), self.indexed(caption, spec.caption)]
            out.append(KeepTogether(part + [Spacer(1, 4)]))
        return out

    def pictured(self, row: ComponentRow) -> list[str]:
        """The decks a row pictures (two at most, one above the other)."""
        return [d for d in row.deck_ids[:2] if d in self.pictures]

    def picture_scales(self) -> tuple[int | None, dict[str, int]]:
        """One scale 1/n for every picture of the components list: the largest at which each
        piece but the boards fits its slot, never above actual size; a board too big for it is
        drawn at its own smaller 1/n. Returns the common n (None when only boards are shown)
        and the n per deck id."""
        need = {d: reduction(Faces.fit(self.pictures[d], PICTURE_H, TEXT_W))
                for row in self.rows for d in self.pictured(row)}
        pieces = [n for d, n in need.items() if d not in self.boards]
        common = max(pieces) if pieces else None
        return common, {d: max(n, common or 1) for d, n in need.items()}

    def components_section(self, s: Section) -> list[Flowable]:
        out: list[Flowable] = self.blocks([b for b in s.children if not isinstance(b, Component)])
        if self.common is not None:
            key = "picture_scale" if self.common > 1 else "picture_actual"
            others = self.label("picture_others") if set(self.reductions.values()) != {self.common} else ""
            out.append(JPara(self.label(key, n=self.common, others=others), self.fonts.body, NOTE_SIZE, NOTE_LEADING,
                             color=NOTE_INK, lang=self.lang))
        out.append(Spacer(1, 4))
        extra = [r for r in self.rows if r.stated is None and not r.description and _data_only(r)]
        for row in self.rows:
            if row not in extra:
                out.append(KeepTogether(self.component(row)))
        if extra:
            out.append(Spacer(1, 6))
            head = Paragraph(_marked(self.marks.other, self.label("other_components"), self.st["h5"].fontName),
                             self.st["h5"])
            out.append(KeepTogether([head] + self.component(extra[0])))
            for row in extra[1:]:
                out.append(KeepTogether(self.component(row)))
        return out

    def component(self, row: ComponentRow) -> list[Flowable]:
        count = row.count_text() or self.label("no_data")
        if row.stand_in:
            count += self.label("stand_in")
        head = _cell_table([[self.p(row.name, "comp_name"), self.p(count, "comp_count")]],
                           ["55%", "45%"], [
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else Table sets Helvetica
            ("LINEBELOW", (0, 0), (-1, -1), 0.5, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ])
        out: list[Flowable] = [Spacer(1, 6), head, Spacer(1, 3)]
        text: list[Flowable] = []
        for label, draft_n in row.mismatches:
            text.append(JPara(self.label("count_differs", part=label, count=draft_n), self.fonts.gothic,
                              7.5, 11, color=ACCENT, lang=self.lang))
        text += self.blocks(row.description)
        parts = [(name, ds) for name, ds in row.parts if ds and (len(ds) > 1 or len(row.parts) > 1)]
        if parts:
            text += [Spacer(1, 2), self.parts_table(parts)]
        pic: list[Flowable] = []
        for d in self.pictured(row):
            n = self.reductions[d]
            pic += [Faces(d, self.pictures[d], 1 / n), Spacer(1, 2)]
            if n != self.common:
                pic += [self.p(self.label("picture_own_scale", n=n), "caption"), Spacer(1, 2)]
        if pic and max(f.width for f in pic if isinstance(f, Faces)) <= PICTURE_W:
            out.append(self.indexed(_cell_table([[pic, text or ""]], [PICTURE_W + 4 * mm, None], [
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),
            ]), parts=text))  # the description is drawn by the table: the index sees it so
        else:
            out += pic + text  # a wide picture stands above its description
        return out

    def parts_table(self, parts) -> Table:
        data = [[self.p(d.name, "part"), self.p(f"{d.count}{d.unit}", "part_count")]
                for _name, ds in parts for d in ds]
        return _cell_table(data, ["78%", "22%"], [
            ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 8),  # else Table sets Helvetica
            ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
            ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
            ("BACKGROUND", (0, 0), (-1, -1), SOFT), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ])

    # -- back matter
    def quick_reference(self) -> list[Flowable]:
        """Turn order at a glance: every numbered step of the sections that have steps, with its
        sub-headings; the game's own summary deck when game.yaml names one."""
        lines: list[Flowable] = []
        for n, s in enumerate(self.doc.rules, start=1):
            steps = [c for c in s.children if isinstance(c, Step)]
            if not steps:
                continue
            lines.append(Paragraph(_marked(self.marks.section, s.title, self.st["h4"].fontName), self.st["h4"]))
            for step in steps:
                subs = [self.marks.outline(b) for b in step.children if isinstance(b, Subheading)]
                body = f"{n}.{step.number}{self.marks.gap}{step.title}"
                lines.append(JPara(body, self.fonts.gothic, 9.5, 15, first_indent=BODY_SIZE, left=BODY_SIZE,
                                   lang=self.text_lang))
                if subs:
                    lines.append(JPara(self.marks.list_sep.join(subs), self.fonts.body, 8.5, 13,
                                       first_indent=BODY_SIZE * 3, left=BODY_SIZE * 3, color=NOTE_INK,
                                       lang=self.text_lang))
        deck = self.settings.quick_reference_deck
        if deck and deck in self.pictures:
            picture = self.pictures[deck]
            lines += [Spacer(1, 6), Faces(deck, picture, min(Faces.fit(picture, 70 * mm, 118 * mm), 1.0))]
        if not lines:
            return []
        title = self.label("quick_reference")
        return [PageBreak(), Heading("", title, 0, self.st["h1"], mark=title, key=self.key(), rule=True,
                                     space_after=6)] + lines

    def index(self) -> list[Flowable]:
        if not self.has_terms:
            return []
        title = self.label("index")
        return [PageBreak(), Heading("", title, 0, self.st["h1"], mark=title, key=self.key(), rule=True,
                                     space_after=6),
                TermIndex(self.st, self.fonts.gothic, latin=self.marks.latin, other=self.label("index_other"),
                          readings=self.readings)]

    def proofing(self) -> list[Flowable]:
        if not self.proof:
            return []
        out: list[Flowable] = [self.label_para("proof_note")]
        for kind, text in self.proof:
            out.append(JPara(text, self.fonts.body, NOTE_SIZE, NOTE_LEADING, color=INK, first_indent=0,
                             left=BODY_SIZE * 5.5, prefix=f"{kind}{self.marks.gap}", prefix_font=self.fonts.gothic))
        return out

    # -- the whole book
    def story(self) -> list[Flowable]:
        st = self.st
        out: list[Flowable] = [Spacer(1, 1)]
        if self.doc.rules or (not self.rules_only and self._has_appendix()):
            toc = TableOfContents(levelStyles=[st["toc0"], st["toc1"]], dotsMinLevel=0, tableStyle=TableStyle([
                ("FONT", (0, 0), (-1, -1), self.fonts.gothic, 10),  # else its Table sets Helvetica
                ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ]))
            out += [NextPageTemplate("front"), PageBreak(), self.p(self.label("contents"), "toc_title"), toc]
        out += [NextPageTemplate("body"), PageBreak()]  # no headings at all: no contents page
        if self.doc.preamble:
            out += self.blocks(self.doc.preamble)
        for n, s in enumerate(self.doc.rules, start=1):
            out += self.rules_section(n, s)
        self.indexing = False  # the index covers the rules, not their summary nor the appendix
        out += self.quick_reference()
        out += self.index()
        if not self.rules_only:
            out += self.appendix()
        out += [NextPageTemplate("colophon"), PageBreak(), Spacer(1, 1)]
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
                               Heading(appendix, self.label("designer_notes"), 0, self.st["h1"], mark=appendix,
                                       key=self.key(), rule=True, space_after=6, gap=self.marks.gap),
                               self.label_para("appendix_note"),
                               Spacer(1, 4)]
        for i, (title, flow) in enumerate(parts):
            out.append(CondPageBreak(30 * mm))
            out.append(Heading(column_letter(i + 1), title, 1, self.st["h2"], key=self.key(), bar=True,
                               space_before=8, space_after=4, gap=self.marks.gap))
            out += flow
        return out


class _Indent(Flowable):
    """A heading paragraph moved right by ``indent`` points (a sub-heading inside a block)."""

    def __init__(self, inner: Paragraph, indent: float):
        super().__init__()
        self.inner, self.indent = inner, indent
        self.keepWithNext = inner.keepWithNext
        self.spaceBefore, self.spaceAfter = inner.getSpaceBefore(), inner.getSpaceAfter()

    def wrap(self, aw, ah):
        w, h = self.inner.wrap(aw - self.indent, ah)
        return w + self.indent, h

    def draw(self):
        self.inner.drawOn(self.canv, self.indent, 0)


def _indented(p: Paragraph, indent: float) -> Flowable:
    return _Indent(p, indent) if indent else p


def _marked(mark: str, text: str, font: str) -> str:
    """A heading's markup: its mark in the accent colour (none for a Latin sub-heading), then the text."""
    return f'<font color="#2f4f6f">{mark}</font> {glyphs.markup(text, font)}' if mark else glyphs.markup(text, font)


def _data_only(row: ComponentRow) -> bool:
    return len(row.parts) == 1 and row.parts[0][0] == row.name and bool(row.parts[0][1])

