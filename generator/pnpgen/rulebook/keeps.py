"""What the story keeps on one page (``keepWithNext``): a lead-in with the list it introduces,
a list's first and last two items, two lines of text under a heading; and the indented
sub-heading those lists may hold."""

from __future__ import annotations

import re
from collections.abc import Callable

from reportlab.lib.units import mm
from reportlab.platypus import ActionFlowable, CondPageBreak, Flowable, Paragraph, Spacer, Table
from reportlab.platypus.flowables import UseUpSpace

from pnpgen.rulebook.diagram import Diagram
from pnpgen.rulebook.flowables import GridKeep, Heading, JPara, grid_height, grid_lines
from pnpgen.rulebook.styles import ACCENT, BODY_SIZE, SOFT


class Indent(Flowable):
    """A heading paragraph moved right by ``indent`` points (a sub-heading inside a block); the
    page it is drawn on goes to ``pages`` under ``key`` (the quick reference's page numbers)."""

    def __init__(self, inner: Paragraph, indent: float, key: str = "", pages: dict[str, int] | None = None):
        super().__init__()
        self.inner, self.indent, self.key, self.pages = inner, indent, key, pages
        self.keepWithNext = inner.keepWithNext
        self.spaceBefore, self.gap_after = inner.getSpaceBefore(), inner.getSpaceAfter()
        self.spaceAfter = 0  # taken into its grid lines
        self.on_grid = True
        self.anchors: tuple[str, ...] = ()  # named destinations it is (a numbered sub-heading's: xrefs.destination)

    def wrap(self, aw, ah):
        w, self._own = self.inner.wrap(aw - self.indent, ah)
        self.height = grid_lines(self._own + self.gap_after)
        return w + self.indent, self.height

    def draw(self):
        if self.pages is not None:
            self.pages[self.key] = self.canv.getPageNumber()
        for name in self.anchors:
            self.canv.bookmarkHorizontal(name, 0, self.height)
        self.inner.drawOn(self.canv, self.indent, (self.height - self._own - self.gap_after) / 2 + self.gap_after)


FAQ_GAP = 4  # points above a question after an answer, as a blank line's (the line grid rounds it up to a line)
LEAD_IN_ENDS = (":", "：")  # a paragraph ending so introduces what follows it ("Each player takes:")
# a Japanese lead-in whose last sentence points at what follows, ending with 。 as a sentence does:
# 「施設には以下の種類があります。」, 「下記の効果を適用します。」 (not 「７枚以下になる。」)
POINTS_ON = re.compile(r"(?:以下の|下記の|次の(?:とおり|通り))[^。]*。$")


def lead_ins_with_their_lists(story: list[Flowable]) -> None:
    """A lead-in (a paragraph ending with a colon, or a Japanese one whose last sentence points at
    what follows: ``POINTS_ON``) never stands alone at a page's foot: it keeps with the list it
    introduces — a bullet, an item, a step line, a run-in or sub-heading, a diagram, or a
    paragraph set deeper in — as a heading keeps with its text."""
    for above, below in zip(story, story[1:]):
        if not isinstance(above, JPara) or not (above.text.rstrip().endswith(LEAD_IN_ENDS)
                                                or POINTS_ON.search(above.text.rstrip())):
            continue
        listed = isinstance(below, (Diagram, Indent)) or (
            isinstance(below, JPara) and (bool(below.prefix) or below.left > above.left))
        if listed:
            above.keepWithNext = 1


def lists_kept_together(story: list[Flowable]) -> None:
    """A list's first item never stands alone at a page's foot, nor its last at a page's head
    (a list's widow and orphan: it breaks between two items of each side at least), and an item
    keeps with the first of the items nested under it."""
    def level(f: Flowable) -> int | None:
        return getattr(f, "list_level", None)

    run: list[Flowable] = []
    for f in [*story, None]:
        if f is not None and level(f) is not None:
            if run and level(f) > level(run[-1]):  # type: ignore[operator]
                run[-1].keepWithNext = 1
            run.append(f)
            continue
        if len(run) >= 2:
            run[0].keepWithNext = run[-2].keepWithNext = 1
        run = []


def questions_with_their_answers(story: list[Flowable]) -> None:
    """A section of questions and answers (「Ｑ：…」 over 「Ａ：…」, ``tree.faq_role``) set as
    pairs: a question keeps with its answer on one page (a pair taller than the page still
    splits), no space between the two, a blank line's space above a question that follows an
    answer (the pairs printed as one run of lines, trial59)."""
    for above, below in zip(story, story[1:]):
        roles = getattr(above, "faq", None), getattr(below, "faq", None)
        if roles == ("Q", "A"):
            above.keepWithNext = 1
            below.spaceBefore = 0
        elif roles == ("A", "Q"):
            below.spaceBefore = max(below.getSpaceBefore(), FAQ_GAP)


def two_lines_under_headings(story: list[Flowable], width: float) -> None:
    """A heading keeps at least two lines of its text with it: a one-line paragraph right under
    a heading (which keeps with what follows) keeps with the paragraph after it too (a paragraph
    splits leaving two lines at least, ``JPara.split``); ``width``: the text's, a line's measure."""
    for above, below in zip(story, story[1:]):
        if getattr(above, "keepWithNext", 0) and not isinstance(above, JPara) and isinstance(below, JPara) \
                and not getattr(below, "keepWithNext", 0) \
                and (len(below.prefix) + len(below.text)) * below.size <= width - below.first_indent:
            below.keepWithNext = 1
            below.under_heading = True  # kept for its heading's lines (``HeadingKeep`` may end a page after it)


class HeadingKeep(GridKeep):
    """What the story keeps with what follows it, as the document groups it (its
    ``keepTogetherClass``): a heading with its text, a lead-in with its list. A group that does
    not fit the rest of the page moves to the next one whole — but for a heading's: a heading, or
    a heading over a sub-heading (「4.2」 over 「◆ワーカー配置」, the one-line paragraph between
    them kept with it), ends the page with its first lines of text, the rest of its paragraph
    going on at the next page's head (never fewer than two lines there). It keeps two lines of
    text with it, one under each heading of a pair being two, and never ends the page on a
    heading: moved whole, the pair left populous' page 9 eight lines empty."""

    def split(self, aW, aH):
        if getattr(self, "_wrapInfo", None) != (aW, aH):
            self.wrap(aW, aH)
        if self._H > aH:
            first = self._first_lines(aW, aH)
            if first is not None:
                return first
        return super().split(aW, aH)

    def _first_lines(self, aW: float, aH: float) -> list[Flowable] | None:
        """The group with its last paragraph parted where the page ends (or before it, when the
        one-line paragraphs under a pair of headings already give two lines), or None when the
        group is no heading's, or its first lines do not fit either."""
        content, canv = self._content, getattr(self, "canv", None)
        last = content[-1]
        if not isinstance(content[0], (Heading, Indent)) or not isinstance(last, JPara) or not all(
                isinstance(f, (Heading, Indent)) or getattr(f, "under_heading", False) for f in content[1:-1]):
            return None  # (a lead-in keeps its list; a list's items keep as they are)
        heads = [i for i, f in enumerate(content) if isinstance(f, (Heading, Indent))]
        under_last = len(content) - 2 - heads[-1]  # one-line paragraphs under the last heading
        above = sum(not isinstance(f, (Heading, Indent)) for f in content[:-1])  # all the group's
        last.wrap(aW, aH)
        n = len(last.lines or [])
        for fit in range(n - 2, max(2 - above, 1 if under_last else 2) - 1, -1):
            parts = last.parted(fit)
            if grid_height([*content[:-1], parts[0]], aW, aH, canv) <= aH:
                return [*content[:-1], *parts]
        if under_last and above >= 2 and grid_height(content[:-1], aW, aH, canv) <= aH:
            return [*content[:-1], last]  # a line under each heading of the pair; the paragraph opens the next page
        return None


class FigureKeep(GridKeep):
    """A figure of game.yaml with its caption, kept whole (``figures_float`` lets one after text float)."""


class FloatRun(GridKeep):
    """A figure after text and the story after it, up to the next page break, figure or components
    list: where the figure does not fit the rest of the page, it goes to the next page's head and
    the text after it fills the page, as a typesetter floats a figure (JLREQ, W3C, 4.2: a figure
    follows the text that refers to it, on the page or the next). Kept in place it left populous'
    page 7 half empty, 図1 waiting for page 8."""

    fills_page = True  # the frame gives it ``drop``: where the text after it would stand on the grid

    def wrap(self, aW, aH):
        return aW, 0xffffff  # always split: the figure is placed, or the text after it first

    def split(self, aW, aH):
        figure, rest = self._content[0], self._content[1:]
        if grid_height(figure._content, aW, aH) <= aH:
            return [self.NullActionFlowable(), figure, *rest]
        drop = self.__dict__.get("drop") or (lambda f: f.getSpaceBefore())
        filled, rest = _filling(rest, aW, aH, drop)
        return [self.NullActionFlowable(), *filled, figure, *rest]


def _stops(f: Flowable) -> bool:
    """What text never passes to fill a figure's page: a page break, another figure, a components list."""
    return isinstance(f, (ActionFlowable, UseUpSpace, FigureKeep, FloatRun, EntryRun))


def _filling(story: list[Flowable], aW: float, aH: float,
             drop: Callable[[Flowable], float]) -> tuple[list[Flowable], list[Flowable]]:
    """The start of ``story`` that stands in ``aH`` (a paragraph split between its lines, a
    heading kept with what follows it), and the rest; ``drop``: how far below the frame's place
    the first one's top stands."""
    def height(run: list[Flowable]) -> float:
        shown = [f for f in run if not isinstance(f, CondPageBreak)]  # (measuring one breaks the frame)
        return drop(shown[0]) + grid_height(_flat(shown), aW, aH) if shown else 0.0

    filled: list[Flowable] = []
    i = 0
    while i < len(story) and not _stops(story[i]):
        if isinstance(story[i], CondPageBreak):
            if aH - height(filled) < story[i].height:
                break
            filled.append(story[i])
            i += 1
            continue
        end = i
        while end + 1 < len(story) and story[end].getKeepWithNext() and not _stops(story[end + 1]) \
                and not isinstance(story[end + 1], CondPageBreak):
            end += 1
        group = story[i:end + 1]
        if height([*filled, *group]) <= aH:
            filled += group
            i = end + 1
            continue
        last = group[-1]
        if isinstance(last, JPara):  # its first lines end the page, the rest goes on after the figure
            room = aH - height([*filled, *group[:-1]]) - last.getSpaceBefore()
            for _ in range(3):
                parts = last.split(aW, room)
                if len(parts) != 2 or height([*filled, *group[:-1], parts[0]]) <= aH:
                    break
                room -= last.leading
            if len(parts) == 2 and height([*filled, *group[:-1], parts[0]]) <= aH:
                return [*filled, *group[:-1], parts[0]], [parts[1], *story[end + 1:]]
        break
    return filled, story[i:]


def _flat(story: list[Flowable]) -> list[Flowable]:
    """``story`` with what each group keeps together in its place (a group measures nothing itself)."""
    return [g for f in story for g in (_flat(f._content) if isinstance(f, GridKeep) else [f])]


def figures_float(story: list[Flowable]) -> None:
    """Each figure after text goes into a ``FloatRun`` with the story after it, up to what text
    never passes (``_stops``). A figure with its heading (a section holding only its picture) stays
    where it stands: the text after it is another section's."""
    for i in range(len(story) - 1, -1, -1):
        f = story[i]
        if type(f) is FigureKeep and i and type(f._content[0]) is Spacer:  # (not a heading put in it)
            end = next((j for j in range(i + 1, len(story)) if _stops(story[j])), len(story))
            if end > i + 1:
                story[i:end] = [FloatRun(story[i:end])]


def headings_with_their_figures(story: list[Flowable]) -> None:
    """A heading right above a figure (a section or step holding only a picture) goes into the
    figure's group, which moves to the next page whole: ReportLab's ``keepWithNext`` keeps a
    heading with no group (a KeepTogether is no flowable it may bundle), so such a heading stood
    alone at a page's foot, its figure on the next page (trial43's 「■　月めぐりの図」; JLREQ, W3C, on headings:
    a heading is never the last line of a page). Walked from the end, a chain of headings (a
    section's over its first step's) goes in whole."""
    for i in range(len(story) - 2, -1, -1):
        above, below = story[i], story[i + 1]
        if type(below) in (GridKeep, FigureKeep) and above.getKeepWithNext() and not isinstance(above, GridKeep):
            above.keepWithNext = False
            below._content.insert(0, above)
            del story[i]


class EntryKeep(GridKeep):
    """A component's entry, kept on one page when it fits. When it does not, its heading and
    pictures (the first ``whole`` flowables) stay together and the description runs on to the
    next page: an entry missing the page by a hair left half a page empty. They stay only with
    the start of the description under them (its first paragraph, or two lines of it,
    ``JPara.split``): a description is never parted from its picture (a trial's 表題札, populous'
    種族ボード at one scale: its one line opened the next page alone); its last paragraph, of one
    line, runs on with the one above it. An entry that does not fit so moves whole
    (``EntryRun`` fills the space it leaves with the small entries after it). Its parts' table runs on whole, as a figure
    does. ``lead``: flowables before its heading (the その他の内容物 heading), which nothing passes."""

    def __init__(self, flowables: list[Flowable], whole: int, lead: int = 0):
        super().__init__(flowables)
        self.whole, self.lead = whole, lead

    def stays(self, above: list[Flowable], aW: float, aH: float) -> bool:
        """Whether its heading and pictures stand in ``aH`` under ``above`` with the start of
        their description (its first paragraph, or two lines of it when it splits), the rest
        running on: else it moves whole. A description never opens the next page away from its
        picture, as a heading keeps two lines of its text (a trial's 表題札, its one line alone
        at the next page's head)."""
        at = next((i for i in range(self.whole, len(self._content))
                   if not isinstance(self._content[i], Spacer)), len(self._content))
        if at == len(self._content):
            return False
        first = self._content[at]
        height = grid_height([*above, *self._content[:at + 1]], aW, aH, getattr(self, "canv", None))
        own = first.wrap(aW, aH)[1]
        if isinstance(first, JPara) and len(first.lines or []) >= 4:  # it splits leaving two lines (JPara.split)
            height -= own - 2 * first.leading
        return height <= aH

    def split(self, aW, aH):
        if getattr(self, "_wrapInfo", None) != (aW, aH):
            self.wrap(aW, aH)
        if self._H <= aH or not self.stays([], aW, aH):
            return super().split(aW, aH)
        rest = [GridKeep([f]) if isinstance(f, Table) else f for f in self._content[self.whole:]]
        if len(rest) >= 2 and isinstance(rest[-2], JPara) and isinstance(rest[-1], JPara) \
                and rest[-1].wrap(aW, aH)[1] < 1.5 * rest[-1].leading:
            # a last paragraph of one line never opens the next page alone (the English Alice
            # cards' 1 : 2 : 3 … ratio): it keeps with the paragraph it ends
            rest[-2:] = [GridKeep(rest[-2:])]
        return self._content[:self.whole] + rest


class EntryRun(GridKeep):
    """The components' entries in the draft's order, but for one rule of a book's figures: an
    entry whose heading and pictures do not fit the rest of the page goes to the next page's head
    as a figure does (JLREQ: a figure follows its text, never splits), and the entries after it
    that fit whole fill the space it leaves (asian-delivery's VPボード left 56 mm empty, with two
    small markers' entries waiting behind it). Only whole entries pass it, in their order, and
    none passes an entry with a heading of its group above it, nor one that does not fit either:
    readers check the pages against the box's contents list in its order (docs/rulebook.md)."""

    def wrap(self, aW, aH):
        return aW, 0xffffff  # always split: the entries are placed one by one

    def split(self, aW, aH):
        return [self.NullActionFlowable(), *self.placed(aW, aH)]  # (the document takes a list so)

    def placed(self, aW: float, aH: float) -> list[Flowable]:
        entries: list[EntryKeep] = self._content

        def height(run: list[EntryKeep]) -> float:
            return grid_height([f for e in run for f in e._content], aW, aH, getattr(self, "canv", None))

        k = 0
        while k < len(entries) and height(entries[:k + 1]) <= aH:
            k += 1
        if k == len(entries):
            return list(entries)
        if k:
            return [*entries[:k], EntryRun(entries[k:])]
        entry, rest = entries[0], entries[1:]
        filling: list[EntryKeep] = []
        if not entry.lead and not entry.stays([], aW, aH):
            for after in rest:
                if height([*filling, after]) > aH:
                    break
                filling.append(after)
        if filling:
            return [*filling, EntryRun([entry, *rest[len(filling):]])]
        return [entry, *([EntryRun(rest)] if rest else [])]


ASIDE_PAD = BODY_SIZE  # the box's inset: an em of tint left and right of its text
ASIDE_KEEP = 8 * 15.0  # points: an example or a caution up to 8 lines tall moves whole; a taller one breaks


class Boxed(Flowable):
    """One part of an example's or a caution's box (``asides``): its label, a paragraph, a list's
    item, a table, or the box's foot, on the box's tint from ``left`` to the text's right edge, the
    part an em in; a caution has a bar in the accent colour down its left edge. Each part is
    whole lines of the grid tall, so the parts stack without a gap, and a paragraph splits
    between its lines as the text does (the box breaks cleanly across pages)."""

    def __init__(self, inner: Flowable, left: float, caution: bool):
        super().__init__()
        self.inner, self.left, self.caution = inner, left, caution
        self.on_grid = True
        self.keepWithNext = getattr(inner, "keepWithNext", 0)

    def _inner_width(self, aw: float) -> float:
        return aw - self.left - 2 * ASIDE_PAD

    def wrap(self, aw, ah):
        _, h = self.inner.wrap(self._inner_width(aw), ah)
        self._own = self.inner.getSpaceBefore() + h + self.inner.getSpaceAfter()
        self.width, self.height = aw, grid_lines(self._own) if self.on_grid else self._own
        return aw, self.height

    def split(self, aw, ah):
        parts = self.inner.split(self._inner_width(aw), ah)
        return [Boxed(p, self.left, self.caution) for p in parts]

    def draw(self):
        c = self.canv
        c.saveState()
        c.setFillColor(SOFT)
        c.rect(self.left, 0, self.width - self.left, self.height, stroke=0, fill=1)
        if self.caution:
            c.setFillColor(ACCENT)
            c.rect(self.left, 0, 0.8 * mm, self.height, stroke=0, fill=1)
        c.restoreState()
        self.inner.drawOn(c, self.left + ASIDE_PAD, self.height - self._own + self.inner.getSpaceAfter())


class AsideKeep(GridKeep):
    """A box kept on one page when it is ``ASIDE_KEEP`` tall or less; a taller one flows on, its
    parts split where the page ends (ReportLab's ``maxHeight`` reads the room left, not the box)."""

    def split(self, aW, aH):
        self.wrap(aW, aH)
        if self._H > ASIDE_KEEP:
            return list(self._content)
        return super().split(aW, aH)


def boxed(parts: list[Flowable], left: float, caution: bool) -> GridKeep:
    """An example's or a caution's flowables, its label first, as its box: kept on one page when
    it is ``ASIDE_KEEP`` tall or less, else broken where the page ends (its label never alone at
    a page's foot); a half line of tint under its last line."""
    foot = Boxed(Spacer(1, 4), left, caution)
    foot.on_grid = False  # a half line's tint, not a line
    box = [Boxed(p, left, caution) for p in parts] + [foot]
    box[0].keepWithNext = 1
    box[0].spaceBefore = 4
    return AsideKeep(box)
