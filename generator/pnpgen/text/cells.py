"""Spans → cells: one drawable unit each (a character, an icon, a ruby group), with its font,
colour and width at 1 pt, and the glyph check against the font's cmap (then the fallbacks)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from pnpgen import fonts as fontreg
from pnpgen.text import icons
from pnpgen.text.linebreak import OBJ, SPACES, break_classes
from pnpgen.text.markup import ICON, RUBY, TEXT, Span
from pnpgen.units import MM_PER_PT as PT  # mm per point

RUBY_SCALE = 0.5


class GlyphMissing(ValueError):
    def __init__(self, char: str, fonts: Sequence[str]):
        self.char = char
        self.fonts = list(fonts)
        super().__init__(char)


@dataclass(frozen=True, slots=True)
class Cell:
    kind: str  # TEXT (one character) | ICON | RUBY
    text: str  # the character | the icon name | the ruby base
    font: str  # font name the text is drawn with
    colour: str  # '#rrggbb'
    width: float  # advance in mm at 1 pt (the ruby group's: the wider of base and reading)
    reading: str = ""
    path: Path | None = None  # icon file

    @property
    def unit(self) -> str:
        """What line breaking sees."""
        return OBJ if self.kind == ICON else self.text

    @property
    def space(self) -> bool:
        return self.kind == TEXT and self.text in SPACES


@dataclass(frozen=True, slots=True)
class Paragraph:
    cells: tuple[Cell, ...]
    classes: tuple[int, ...]  # break class of the gap before each cell (linebreak)
    widths: tuple[float, ...]
    spaces: tuple[bool, ...]
    ruby: tuple[bool, ...]


@lru_cache(maxsize=None)
def char_width(font: str, char: str) -> float:
    """Advance of one character in mm at 1 pt."""
    return fontreg.string_width_mm(char, font, 1.0)


@lru_cache(maxsize=None)
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


def build(paragraphs: list[list[Span]], fonts: Mapping[str, str], role: str, fallbacks: tuple[str, ...],
          palette: Mapping[str, str], fill: str, icon_dirs: tuple[Path, ...],
          override_colour: str | None = None) -> list[Paragraph]:
    """Cells for each paragraph, with break classes computed once for every size."""
    regular = fonts.get(role, role)
    bold = fonts.get(f"{role}-bold", fonts.get("bold", regular))
    out = []
    for spans in paragraphs:
        cells: list[Cell] = []
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
                cells.append(Cell(RUBY, span.text, font, colour, max(base_w, read_w * RUBY_SCALE),
                                  reading=span.reading))
        classes = break_classes([c.unit for c in cells])
        out.append(Paragraph(tuple(cells), tuple(classes), tuple(c.width for c in cells),
                             tuple(c.space for c in cells), tuple(c.kind == RUBY for c in cells)))
    return out
