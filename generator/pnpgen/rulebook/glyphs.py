"""Per-character font fallback for the rulebook, as card text has (``text.cells.font_for``).

A character the font of its text lacks (a Japanese name from the data in an English book set in Noto) is
drawn by the first of the game's ``fallback_fonts`` that has it, else by the game's plain font of
the same role (mincho, gothic, bold, mono) that the language's fonts replaced, else by BIZ UD of
that role, the last resort for Japanese. ``use`` sets the chains
for a book; ``runs``, ``width``, ``markup`` and ``draw`` are how every piece of the book's text
is measured and drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics

from pnpgen import fonts as fontreg
from pnpgen.rulebook.styles import LATIN_GAP, Fonts
from pnpgen.text.linebreak import CLOSING, MIDDLE, OPENING, STOPS

# JLREQ's classes of 約物 (the book's line setting, jlreq.jlreq_advances, spaces them)
PUNCT = OPENING | CLOSING | STOPS | MIDDLE


def japanese(ch: str) -> bool:
    """A kana, kanji or full-width letter or digit: the Japanese side of a 和欧間."""
    o = ord(ch)
    return ch not in PUNCT and (0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF
                                or ch.isalnum() and 0xFF10 <= o <= 0xFF5A or ch in "々〆〇")


def latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


EM_DASH, BAR = "\u2014", "\u2015"


def japanese_dashes(text: str) -> str:
    """``text`` with each em dash (U+2014) that stands beside a kana, a kanji or another dash set
    as the horizontal bar (U+2015): the full-width ダッシュ of JIS X 0208 1-29, which a Mac IME
    types as U+2014 and a Windows one as U+2015. The book's fixed-width mincho draws U+2014 half an
    em wide (a Latin em dash), so a draft's ――, JLREQ's two-em dash, printed one em long."""
    if EM_DASH not in text:
        return text
    n = len(text)
    out = list(text)
    for i, ch in enumerate(text):
        if ch != EM_DASH:
            continue
        near = [text[k] for k in (i - 1, i + 1) if 0 <= k < n]
        if any(c in (EM_DASH, BAR) or japanese(c) or c in PUNCT for c in near):
            out[i] = BAR
    return "".join(out)


def wakan(a: str, b: str) -> bool:
    """Two neighbouring characters that JLREQ sets a 和欧間 apart (3.2.1: 2026年, Ａは3)."""
    return (japanese(a) and latin(b)) or (latin(a) and japanese(b))


_chains: dict[str, tuple[str, ...]] = {}  # a font → the fonts that draw what it lacks, in order


def use(fonts: Fonts, fallbacks: Sequence[str], plain: Mapping[str, str], font_dir: Path) -> None:
    """The fallback chains of this book's fonts: the game's ``fallback_fonts``, then the font of
    the same role the book's language replaced (``plain``: game.yaml's plain ``fonts``, a Japanese
    face under English ones), then BIZ UD of that role."""
    roles = {fonts.notes: "mincho", fonts.body: "mincho", fonts.gothic: "gothic", fonts.bold: "bold", fonts.mono: "mono"}
    _chains.clear()
    for font, role in roles.items():
        chain = [*fallbacks, plain.get(role, ""), fontreg.DEFAULT_FONTS[role]]
        _chains[font] = tuple(fontreg.register(f, font_dir) for f in dict.fromkeys(chain) if f and f != font)


def chain(font: str) -> tuple[str, ...]:
    return _chains.get(font, ())


def font_for(ch: str, font: str) -> str:
    """The font that draws ``ch``: ``font`` when it has the glyph (or none of its chain has)."""
    if ch.isspace() or fontreg.has_glyph(font, ch):
        return font
    return next((f for f in chain(font) if fontreg.has_glyph(f, ch)), font)


def lacks(ch: str, font: str) -> bool:
    """Neither ``font`` nor its fallbacks have ``ch``."""
    return not ch.isspace() and not fontreg.has_glyph(font_for(ch, font), ch)


def _drawable(ch: str, f: str) -> str:
    """A space no font of the chain has (an English book's en space in BIZ UDP Mincho, between a
    step's number and its title) as a plain space: drawn as itself it was a box."""
    return " " if ch.isspace() and ch != " " and not fontreg.has_glyph(f, ch) else ch


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """``text`` cut where the drawing font changes: (piece, font) pairs."""
    out: list[tuple[str, str]] = []
    for ch in text:
        f = font_for(ch, font)
        ch = _drawable(ch, f)
        if out and out[-1][1] == f:
            out[-1] = (out[-1][0] + ch, f)
        else:
            out.append((ch, f))
    return out


def _spaced(text: str, font: str) -> list[tuple[str, str, bool]]:
    """``text`` cut where the drawing font changes and at each 和欧間: (piece, font, a 和欧間 after it)."""
    out: list[list] = []
    for i, ch in enumerate(text):
        f = font_for(ch, font)
        ch = _drawable(ch, f)
        gap = i > 0 and wakan(text[i - 1], ch)
        if out and out[-1][1] == f and not gap:
            out[-1][0] += ch
            continue
        if gap:
            out[-1][2] = True
        out.append([ch, f, False])
    return [(piece, f, gap) for piece, f, gap in out]


def width(text: str, font: str, size: float, gap_em: float = 0.0) -> float:
    """Advance width of ``text`` in points, each character in the font that draws it, with a
    ``gap_em`` 和欧間 between Japanese and a Latin letter or digit (as ``draw`` sets it)."""
    return sum(pdfmetrics.stringWidth(piece, f, size) + (gap_em * size if gap else 0.0)
               for piece, f, gap in _spaced(text, font))


def markup(text: str, font: str) -> str:
    """``text`` escaped for a ReportLab Paragraph set in ``font``, the characters it lacks in
    ``<font>`` tags of their fallback."""
    return "".join(escape(piece) if f == font else f'<font name="{f}">{escape(piece)}</font>'
                   for piece, f in runs(text, font))


def draw(canv, x: float, y: float, text: str, font: str, size: float, align: str = "left",
         gap_em: float = LATIN_GAP) -> None:
    """``canvas.drawString`` with fallback and the 和欧間 (``gap_em``, as the book's paragraphs
    have it): ``align`` left, centre or right of ``x``."""
    w = width(text, font, size, gap_em)
    x -= {"left": 0.0, "centre": w / 2, "right": w}[align]
    for piece, f, gap in _spaced(text, font):
        canv.setFont(f, size)
        canv.drawString(x, y, piece)
        x += pdfmetrics.stringWidth(piece, f, size) + (gap_em * size if gap else 0.0)


def actual_text(text: str) -> str:
    """``text`` as the hex string of a marked-content ActualText (PDF 32000-1, 14.9.4): UTF-16BE
    with its byte order mark."""
    return "FEFF" + text.encode("utf-16-be").hex().upper()
