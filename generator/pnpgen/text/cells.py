"""Spans → cells: one drawable unit each (a character, an icon, a ruby group), with its font,
colour and width at 1 pt, and the glyph check against the font's cmap (then the fallbacks).

Between a Japanese character (kana, kanji) and a Latin letter or digit next to it, a ``GAP`` cell
holds the 和欧間 space JLREQ gives there (a quarter em unless the game says otherwise). It is
not a character: it never changes where a line may break, and it counts for nothing at a line's
end, like a space.

A ruby reading longer than its base reaches over the characters beside it as text/ruby.py's one
rule says (JLREQ 3.3.8, for vertical text as for horizontal): a ruby cell is only as wide as the
rest needs, ``lead`` and ``tail`` say how far its reading reaches past its left and right edges
mid-line, and ``head``/``foot`` how it reaches at a line's start and end (its base then at the
line's edge, the reading's head or end aligned with it)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from pnpgen import fonts as fontreg
from pnpgen.data.markup import ICON, RUBY, TEXT, Span
from pnpgen.data.model import LATIN_GAP
from pnpgen.text import icons
from pnpgen.text.linebreak import HYPHEN_CHAR, KINSOKU, OBJ, SPACES, break_classes, latin_letter
from pnpgen.text.ruby import RUBY_SCALE, reaches
from pnpgen.units import MM_PER_PT as PT  # mm per point

GAP = "gap"  # 和欧間 space between Japanese and Latin


class GlyphMissing(ValueError):
    def __init__(self, char: str, fonts: Sequence[str]):
        self.char = char
        self.fonts = list(fonts)
        super().__init__(char)


@dataclass(frozen=True, slots=True)
class Cell:
    """One unit of a card's text to set (a character, an icon, a ruby group or a gap), with its font, colour and
    width: what the line breaking lays out."""

    kind: str  # TEXT (one character) | ICON | RUBY | GAP
    text: str  # the character | the icon name | the ruby base
    font: str  # font name the text is drawn with
    colour: str  # '#rrggbb'
    width: float  # advance in mm at 1 pt (the ruby group's: the wider of base and reading)
    reading: str = ""
    path: Path | None = None  # icon file
    lead: float = 0.0  # mm at 1 pt: a ruby reading's reach past the cell's left edge, over the kana before it
    tail: float = 0.0  # … and past its right edge, over the kana after it
    head: float = 0.0  # mm at 1 pt: a ruby heading a line: its reading's reach past its right edge (none past its left)
    foot: float = 0.0  # … ending a line: past its left edge (none past its right)
    edge: str = ""  # "head" | "foot": the ruby as set at a line's start or end, its base at the line's edge

    def at_edge(self, edge: str) -> Cell:
        """This ruby as a line starting (``head``) or ending (``foot``) with it sets it: its base
        at the line's edge and its reading aligned with it there, reaching only the other way."""
        group = self.width + self.lead + self.tail
        if edge == "head":
            return replace(self, width=group - self.head, lead=0.0, tail=self.head, edge=edge)
        return replace(self, width=group - self.foot, lead=self.foot, tail=0.0, edge=edge)

    @property
    def unit(self) -> str:
        """What line breaking sees (nothing for a 和欧間 gap)."""
        return OBJ if self.kind == ICON else self.text

    @property
    def space(self) -> bool:
        return (self.kind == TEXT and self.text in SPACES) or self.kind == GAP


@dataclass(frozen=True, slots=True)
class CellParagraph:
    """A paragraph as cells, with what line breaking needs of each: break class, width, space."""

    cells: tuple[Cell, ...]
    classes: tuple[int, ...]  # break class of the gap before each cell (linebreak)
    widths: tuple[float, ...]
    spaces: tuple[bool, ...]
    ruby: tuple[bool, ...]
    hyphens: tuple[float, ...]  # width at 1 pt of the hyphen a line ending before cell i would get
    hang: float = 0.0  # width at 1 pt of a list marker the paragraph starts with: its later lines start there
    edges: tuple[tuple[float, ...], tuple[float, ...]] | None = None  # each cell's lead and tail; None: no overhang


# A paragraph that starts with one of these (and goes on) is a list item: its lines after the first
# start under its text, not under the mark (JLREQ 箇条書き, the hanging indent of a list or a note).
BULLETS = frozenset("・•●○■□◆◇▶▷►※★☆◎") | frozenset(chr(c) for c in (*range(0x2460, 0x2474), *range(0x2776, 0x2780)))
NUMBERED = re.compile(r"(?:[0-9０-９]{1,2}[.．)）]|[(（][0-9０-９]{1,2}[)）])")
HANG_SPACES = " \u3000"


def list_marker(units: Sequence[str]) -> int:
    """How many units at the start of a paragraph are its list marker and the space after it (0:
    none): a bullet or circled number (「・」「※」「①」), or a number with its stop or brackets
    (「1.」「２．」「(3)」「（４）」), followed by more of the paragraph."""
    head = "".join(units[:5])
    if head[:1] in BULLETS:
        n = 1
    elif (m := NUMBERED.match(head)) is not None and not (head[m.end() - 1] in ".．" and head[m.end():m.end() + 1].isdigit()):
        n = m.end()  # (「1.5倍」 is a number, not an item)
    else:
        return 0
    while n < len(units) and units[n] in HANG_SPACES:
        n += 1
    return n if n < len(units) and units[n] not in HANG_SPACES else 0


@cache
def char_width(font: str, char: str) -> float:
    """Advance of one character in mm at 1 pt."""
    return fontreg.string_width_mm(char, font, 1.0)


@cache
def font_for(char: str, font: str, fallbacks: tuple[str, ...]) -> str:
    """The font that draws ``char``: ``font`` if it has the glyph, else the first fallback that has."""
    if fontreg.has_glyph(font, char):
        return font
    for fb in fallbacks:
        if fontreg.has_glyph(fb, char):
            return fb
    raise GlyphMissing(char, (font, *fallbacks))


def _drawable(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cf") or char == "\t"


def _japanese(c: str) -> bool:
    return ("\u3041" <= c <= "\u30ff" and c not in "゠・") or "\u3400" <= c <= "\u9fff" \
        or "\uf900" <= c <= "\ufaff" or c in "々〆〇"


def overhung(cells: list[Cell], excess: Mapping[int, float]) -> list[Cell]:
    """``cells`` with each ruby of ``excess`` (index → how much wider its reading is than its base,
    mm at 1 pt) narrowed by what its neighbours take of the reading, mid-line and at a line's edge
    (text/ruby.py ``reaches``: the one rule vertical text keeps too)."""
    out = list(cells)
    units = [(c.text if c.kind == TEXT else "", c.width) for c in cells]
    for i, r in reaches(units, excess, PT).items():
        if r.lead or r.tail or r.head_tail or r.foot_lead:
            out[i] = replace(cells[i], width=cells[i].width - r.lead - r.tail, lead=r.lead, tail=r.tail,
                             head=r.head_tail, foot=r.foot_lead)
    return out


def _latin(c: str) -> bool:
    return "0" <= c <= "9" or (latin_letter(c) and c < "\uff00")


def _wakan(a: Cell, b: Cell) -> bool:
    """Two neighbouring cells need the 和欧間 space between them."""
    if a.kind != TEXT or b.kind != TEXT:
        return False
    return (_japanese(a.text) and _latin(b.text)) or (_latin(a.text) and _japanese(b.text))


def with_gaps(cells: list[Cell], classes: list[int], gap_em: float) -> tuple[list[Cell], list[int]]:
    """``cells`` with a GAP cell between Japanese and Latin neighbours; the break class of each
    original gap moves to after the GAP cell (so a line broken there ends with the free GAP)."""
    if gap_em <= 0:
        return cells, classes
    out_cells: list[Cell] = []
    out_classes: list[int] = [KINSOKU]
    for i, cell in enumerate(cells):
        if i and _wakan(cells[i - 1], cell):
            prev = cells[i - 1]
            out_cells.append(Cell(GAP, "", prev.font, prev.colour, gap_em * PT))
            out_classes.append(KINSOKU)
        if i:
            out_classes.append(classes[i])
        out_cells.append(cell)
    out_classes.append(KINSOKU)
    return out_cells, out_classes


def font_pair(fonts: Mapping[str, str], role: str) -> tuple[str, str]:
    """The fonts a text in ``role`` (a role, or a font's name) is set in: regular, and **bold**
    (the role's own bold, else the game's, else the regular)."""
    regular = fonts.get(role, role)
    return regular, fonts.get(f"{role}-bold", fonts.get("bold", regular))


def build(paragraphs: list[list[Span]], fonts: Mapping[str, str], role: str, fallbacks: tuple[str, ...],
          palette: Mapping[str, str], fill: str, icon_dirs: tuple[Path, ...],
          override_colour: str | None = None, lang: str = "ja",
          latin_gap: float = LATIN_GAP) -> list[CellParagraph]:
    """Cells for each paragraph, with break classes computed once for every size. ``lang`` picks
    the hyphenation dictionary; ``latin_gap`` is the 和欧間 space in em (0: none)."""
    regular, bold = font_pair(fonts, role)
    out = []
    for spans in paragraphs:
        cells: list[Cell] = []
        excess: dict[int, float] = {}  # ruby cell → its reading's width past its base's
        for span in spans:
            font = bold if span.bold else regular
            colour = override_colour or (palette[span.colour] if span.colour else fill)
            if span.kind == TEXT:
                for ch in span.text:
                    if ch == "\t":
                        ch = " "
                    if not _drawable(ch):
                        continue
                    f = font_for(ch, font, fallbacks)
                    cells.append(Cell(TEXT, ch, f, colour, char_width(f, ch)))
            elif span.kind == ICON:
                path = icons.find(span.text, icon_dirs)
                if path is None:
                    raise icons.UnknownIcon(span.text)
                icons.load(path)  # fail now on a bad icon file, not later
                cells.append(Cell(ICON, span.text, font, colour, 1.0 * PT, path=path))
            elif span.kind == RUBY:
                base_w = sum(char_width(font_for(ch, font, fallbacks), ch) for ch in span.text)
                read_w = sum(char_width(font_for(ch, font, fallbacks), ch) for ch in span.reading)
                if read_w * RUBY_SCALE > base_w:
                    excess[len(cells)] = read_w * RUBY_SCALE - base_w
                cells.append(Cell(RUBY, span.text, font, colour, max(base_w, read_w * RUBY_SCALE),
                                  reading=span.reading))
        cells = overhung(cells, excess) if excess else cells
        classes = break_classes([c.unit for c in cells], lang=lang)
        cells, classes = with_gaps(cells, classes, latin_gap)
        hyphens = [0.0] + [char_width(c.font, HYPHEN_CHAR) for c in cells]  # the font before the gap
        marker = list_marker([c.text if c.kind == TEXT else "\0" for c in cells])  # one unit a cell
        out.append(CellParagraph(tuple(cells), tuple(classes), tuple(c.width for c in cells),
                             tuple(c.space for c in cells), tuple(c.kind == RUBY for c in cells),
                             tuple(hyphens), sum(c.width for c in cells[:marker]),
                             _edges(cells)))
    return out


def _edges(cells: Sequence[Cell]) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """What each cell adds to a line it starts, and to a line it ends (a ruby set at the line's
    edge: ``Cell.at_edge``), None if nothing anywhere."""
    if not any(c.lead or c.tail or c.head or c.foot for c in cells):
        return None
    return (tuple(c.lead + c.tail - c.head for c in cells), tuple(c.lead + c.tail - c.foot for c in cells))


def hyphen_cell(before: Cell, width: float) -> Cell:
    """The visible hyphen ending a line broken inside a Latin word."""
    return Cell(TEXT, HYPHEN_CHAR, before.font, before.colour, width)
