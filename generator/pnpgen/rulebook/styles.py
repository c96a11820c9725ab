"""The rulebook's page, colours and type sizes: one place for every measure the other modules share."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm

PAGE_W, PAGE_H = A5  # points
MARGIN_TOP = 19 * mm
MARGIN_BOTTOM = 17 * mm
MARGIN_INNER = 15 * mm
MARGIN_OUTER = 15 * mm
TEXT_W = PAGE_W - MARGIN_INNER - MARGIN_OUTER  # the text's width: a figure's, a picture's at the most
BODY_H = PAGE_H - MARGIN_TOP - MARGIN_BOTTOM  # the body pages' frame
FIGURE_H = 90 * mm  # the tallest a setup figure is drawn (a taller one is drawn smaller)

INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#2f4f6f")
RULE = colors.HexColor("#9aa5b1")
SOFT = colors.HexColor("#eef1f4")
NOTE_INK = colors.HexColor("#4a4a4a")

MIN_SIZE = 7.0  # no text is set smaller (running header, table notes included)
BODY_SIZE = 9.0
BODY_LEADING = 15.0
NOTE_SIZE = 8.2  # the designer's notes in the appendix
NOTE_LEADING = 13.2
BLOCK_INDENT = BODY_SIZE  # the text under a ◆ ◎ ● sub-heading is indented by one em per level
MAX_LETTER_SPACING = 0.25  # ems between two characters at most when a line is justified (JLREQ 3.8)
LOOSE_WORD_SPACE = 0.3  # ems added to each word space before a Latin line takes part of the next word
MAX_HYPHENS_IN_A_ROW = 3  # lines in a row a Latin paragraph ends with a hyphen it chose (Bringhurst 2.4.4)
MAX_WORD_SPACE = 1.0  # ems added to a word space at most when a Latin line is justified
LATIN_GAP = 0.25  # em between Japanese and a Latin letter or digit in the book (和欧間, JLREQ 3.2.1)
MIN_LAST_LINE = 3  # characters (punctuation not counted) a paragraph's last line keeps when it can
EVEN_LETTER_SPACING = 0.05  # ems: a line spaced out wider than this for a short last line shares it with the line above


@dataclass
class Fonts:
    """The rulebook's fonts by role (body, gothic, bold, mono, pnpgen's own notes): which of the game's fonts set
    which text."""

    body: str  # mincho
    gothic: str
    bold: str
    mono: str
    # pnpgen's own notes ("Pictures are at 1/2…"): the body, but in a Latin edition of a Japanese
    # draft the body a Latin book has (the Japanese book's fixed-width 明朝 set them as typewriting)
    notes: str = ""

    def __post_init__(self) -> None:
        self.notes = self.notes or self.body


def heading_styles(fonts: Fonts) -> dict[str, ParagraphStyle]:
    """Headings, sub-headings and contents entries (body text is set by ``flowables.JPara``)."""
    f = fonts

    def style(name: str, font: str, size: float, leading: float, colour=INK, **kw) -> ParagraphStyle:
        return ParagraphStyle(name, fontName=font, fontSize=size, leading=leading, textColor=colour,
                              wordWrap="CJK", **kw)

    return {
        "h1": style("h1", f.bold, 14, 19, ACCENT),
        "h2": style("h2", f.bold, 11.5, 16, ACCENT),
        "h3": style("h3", f.bold, 10.5, 15, spaceBefore=7, spaceAfter=2),
        "h4": style("h4", f.bold, 10, 14.5, spaceBefore=6, spaceAfter=1.5),
        "h5": style("h5", f.bold, 9.5, 14, spaceBefore=5, spaceAfter=1),
        "comp_name": style("comp_name", f.bold, 10.5, 14),  # a third-level heading, as ◆
        "comp_count": style("comp_count", f.gothic, 10, 14, alignment=TA_RIGHT),
        "part": style("part", f.gothic, 8, 11.5, NOTE_INK),
        "part_count": style("part_count", f.gothic, 8, 11.5, NOTE_INK, alignment=TA_RIGHT),
        "caption": style("caption", f.gothic, 7.5, 10.5, NOTE_INK),
        "figure_caption": style("figure_caption", f.gothic, 7.5, 10.5, NOTE_INK, alignment=TA_CENTER),  # under a centred figure
        "toc_title": style("toc_title", f.bold, 16, 22, ACCENT, spaceAfter=10),
        "toc0": style("toc0", f.gothic, 10, 17, spaceBefore=3),
        "toc1": style("toc1", f.gothic, 8.8, 14, leftIndent=14),  # the face of level 0: one column of page numbers
        "index": style("index", f.body, 8, 12),
        "index_page": style("index_page", f.gothic, 8, 12, alignment=TA_RIGHT),
    }
