"""Spans → cells: one drawable unit each (a character, an icon, a ruby group), with its font,
colour and width at 1 pt, and the glyph check against the font's cmap (then the fallbacks).

Between a Japanese character (kana, kanji) and a Latin letter or digit next to it, a ``GAP`` cell
holds the 和欧間 space JLREQ gives there (a quarter em unless the game says otherwise). It is
not a character: it never changes where a line may break, and it counts for nothing at a line's
end, like a space.

A ruby reading longer than its base reaches over a kana neighbour by up to one ruby character
(half a base character) on each side rather than widening its base (JLREQ 3.3.8 "Adjustments of
ruby with length longer than that of the base characters"; JIS X 4051 the same), and over the
glyph of a 約物 beside it that JLREQ names there — an opening bracket before it (cl-01), a closing
bracket (cl-02), 、 or 。 (cl-07, cl-06) after it — never into the mark's space: over the half em
its glyph takes (the whole of a proportional font's half-em bracket), up to one ruby character;
and over a middle dot (cl-05: ・：；) on either side, its quarter-em space on the ruby's side and
half a ruby character more (a full-width dot: one ruby character; a proportional font's half-em
dot, its spaces already taken away: half a ruby character). Never over a kanji, a Latin letter,
ー, a mark on its other side (「、」 before the ruby, 「」」 before it, 「「」 after it) or another
ruby: the cell is only as wide as the rest needs,
and ``lead`` and ``tail`` say how far its reading reaches past its left and right edges. The
reading stays centred on its base; what its neighbours cannot take widens the base on that side."""

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
from pnpgen.text.linebreak import (
    CLOSING,
    HYPHEN_CHAR,
    KINSOKU,
    MIDDLE,
    OBJ,
    OPENING,
    SPACES,
    STOPS,
    break_classes,
    latin_letter,
)
from pnpgen.units import MM_PER_PT as PT  # mm per point

RUBY_SCALE = 0.5
OVERHANG = RUBY_SCALE * PT  # mm at 1 pt: the most a reading reaches over a neighbour, one ruby character
MARK_GLYPH = 0.5 * PT  # mm at 1 pt: the half em a full-width 約物's glyph takes (JLREQ 3.1.2), the rest its space
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


def _kana(cell: Cell) -> bool:
    """A neighbour a ruby reading may reach over: a hiragana or katakana letter (JLREQ cl-15,
    cl-16, and the small kana of cl-11), not ー, ・, an iteration mark, a kanji or punctuation."""
    return cell.kind == TEXT and ("\u3041" <= cell.text <= "\u3096" or "\u30a1" <= cell.text <= "\u30fa")


def _room(cell: Cell, before: bool) -> float:
    """How far a ruby reading may reach over ``cell`` (mm at 1 pt), the cell standing before the
    ruby or after it: a kana its width; an opening bracket before the ruby, a closing bracket, 、
    or 。 after it, its glyph's half em and never its space; a middle dot either side, its quarter-em
    space on the ruby's side (none in a proportional half-em dot) and half a ruby character (JLREQ
    3.3.8); anything else nothing."""
    if _kana(cell):
        return cell.width
    if cell.kind != TEXT:
        return 0.0
    if cell.text in (OPENING if before else CLOSING | STOPS):
        return min(cell.width, MARK_GLYPH)
    if cell.text in MIDDLE:
        return min(cell.width, max(0.0, (cell.width - MARK_GLYPH) / 2) + OVERHANG / 2)
    return 0.0


def overhung(cells: list[Cell], excess: Mapping[int, float]) -> list[Cell]:
    """``cells`` with each ruby of ``excess`` (index → how much wider its reading is than its base,
    mm at 1 pt) narrowed by what its neighbours take of the reading (``_room``): up to ``OVERHANG`` and
    half the excess on each side, so the reading stays centred on its base. A kana or a middle dot
    between two rubies gives the second only what the first left of its width: their readings
    never overlap (a proportional font's く is 0.85 em, less than two half-em overhangs)."""
    out = list(cells)
    taken: dict[int, float] = {}  # cell → how much of it the ruby before it reaches over
    for i in sorted(excess):
        extra = excess[i]
        lead = max(0.0, min(extra / 2, OVERHANG, _room(cells[i - 1], True),
                            cells[i - 1].width - taken.get(i - 1, 0.0))) if i else 0.0
        tail = min(extra / 2, OVERHANG, _room(cells[i + 1], False)) if i + 1 < len(cells) else 0.0
        taken[i + 1] = tail
        if lead or tail:
            out[i] = replace(cells[i], width=cells[i].width - lead - tail, lead=lead, tail=tail)
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
    """Each cell's lead and tail (what a line starting or ending at it adds), None if all are 0."""
    if not any(c.lead or c.tail for c in cells):
        return None
    return tuple(c.lead for c in cells), tuple(c.tail for c in cells)


def hyphen_cell(before: Cell, width: float) -> Cell:
    """The visible hyphen ending a line broken inside a Latin word."""
    return Cell(TEXT, HYPHEN_CHAR, before.font, before.colour, width)
