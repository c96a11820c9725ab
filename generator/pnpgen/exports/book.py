"""A print shop's rulebook (a preset of ``files: rulebook``, doujin-book.yaml): the A5 pages
``pnpgen rulebook`` sets, each on a page of the trim + 塗り足し + room for トンボ, boxed
(TrimBox, BleedBox) and marked as the cards' shop pages are, the page count made up with
blank pages before the last (the colophon stays the back page) to the preset's ``page_multiple``
(中綴じ: 4), and, for a CMYK preset,
in the cards' one conversion (vector colours, gradients, pictures), black text 100 % K
overprinting, PDF/X-1a for the preset's printing condition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pnpgen.data.formats import MIN_DPI
from pnpgen.data.lint import LintSettings
from pnpgen.data.load import max_dpi_of
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.exports.faces import MARK_ROOM_MM, shop_marks
from pnpgen.exports.presets import Preset
from pnpgen.exports.shop import Finish, ink_warnings, knock_out_black
from pnpgen.faces.builtin import icon_dirs
from pnpgen.impose.booklet import A5
from pnpgen.impose.plan import Item, Page, PagePlan, Strokes
from pnpgen.messages import counted, msg
from pnpgen.pdf.black import k_only
from pnpgen.pdf.colour import vectors_to_cmyk
from pnpgen.pdf.minline import widen_lines
from pnpgen.pdf.onsheets import page_count, place_on_sheets
from pnpgen.pdf.outline import outline_text
from pnpgen.pdf.overprint import small_text
from pnpgen.pdf.pdfx import make_x1a, pictures_to_cmyk
from pnpgen.pdf.subsettags import retagged
from pnpgen.pdf.writer import write_document
from pnpgen.rulebook import build_rulebook, pictures_from_game
from pnpgen.rulebook.figures import load_settings
from pnpgen.units import PT_PER_MM

BOOK = "rulebook.pdf"  # the export's file
# the smallest text the book sets of its own; smaller text is the cards' faces drawn smaller in
# the pieces' pictures (populous: 1.75 pt), which a printer's preflight lists
SMALL_TEXT_PT = 5.0


@dataclass
class ShopBook:
    """The export's files, what it warns of, and what it made 100 % K."""

    files: dict[str, bytes] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    black: list[str] = field(default_factory=list)


def shop_rulebook(ws: Workspace, game: Game, preset: Preset, cmyk: bool, finish: Finish,
                  max_dpi: float | None = None) -> ShopBook:
    """The game's rulebook typeset as ``pnpgen rulebook --rules-only`` sets it (no build needed):
    the copies printed are handed out, so without the designer's appendix and the cover's
    playtest line; as the preset's shop takes it (its one format the A5 page: presets.py checks it).
    ``max_dpi``: the export's ``--max-dpi`` (None: game.yaml's), for the pieces' pictures and the
    figures' own alike."""
    ceiling = max_dpi_of(max_dpi, game)
    book = build_rulebook(game, ws.fonts, rules_only=True, pictures=pictures_from_game(game, ws.templates, max_dpi=ceiling),
                          icon_dirs=icon_dirs(ws.templates, game.slug), booklet=False,
                          min_dpi=max(MIN_DPI, preset.dpi),  # a figure's own picture: the shop's dpi
                          max_dpi=ceiling)
    # the pieces' pictures are their faces drawn smaller: each line at least the shop's thinnest as printed
    a5, _ = widen_lines(book.files["rulebook.pdf"], min_line_pt(preset))
    pages = page_count(a5)
    total = -(-pages // preset.page_multiple) * preset.page_multiple
    out = ShopBook(warnings=list(book.warnings))
    at = list(range(pages))
    if total > pages and pages > 1:
        at[-1] = total - 1  # the back page (the colophon) last; the blanks before it, as the booklet has them
    starts = _starts(book.draft, book.page_lines, at, total)
    if total > pages:
        out.warnings.append(f"{book.draft}: " * (book.draft is not None) + _blanks_said(pages, total, preset))
    title = msg("book.title", game.lang, title=game.title, shop=preset.name,  # the book's metadata: its language
                book=load_settings(game).cover or msg("rulebook.cover", game.lang))
    sheets = write_document(PagePlan(title, [_sheet(preset) for _ in range(total)]), {}, game.fonts["gothic"],
                            cmyk=cmyk)
    pdf = retagged(place_on_sheets(a5, sheets, at))  # ReportLab tags every font's first subset AAAAAA+
    if cmyk:
        pdf = vectors_to_cmyk(pdf)
        pdf, mapped = k_only(pdf, preset.overprint_black, preset.black)
        out.black.extend(mapped.lines(BOOK))
        pdf = pictures_to_cmyk(pdf)
        pdf, knocked, still = knock_out_black(BOOK, pdf, preset)
        out.black.extend(knocked)
    if finish.outline_text:
        pdf, left = outline_text(pdf)
        out.warnings.extend(f"{BOOK}: {what}" for what in left)
    if finish.pdfx is not None:
        pdf = make_x1a(pdf, finish.pdfx, title, finish.date, finish.edition)
    out.warnings.extend(_small_text_said(pdf, starts))
    if cmyk:  # the cards' ink checks: colours, pictures, and the black overprinting its ground
        out.warnings.extend(ink_warnings(BOOK, pdf, preset, [""] * total, [""] * total, None, still,
                                         starts))
    out.files[BOOK] = pdf
    return out


def min_line_pt(preset: Preset) -> float:
    """The thinnest line the shop's book is drawn with (points): the preset's ``min_line``, else
    the build's print lint's (0.25 pt), the figure a shop's preflight reads a line against."""
    if preset.min_line_mm is not None:
        return preset.min_line_mm * PT_PER_MM
    return LintSettings().min_stroke_pt or 0.0


def _starts(draft: Path | None, lines: list[int], at: list[int], total: int) -> list[str]:
    """Per page of the shop's book, the ``file:line: `` its warnings start with, as a card's start
    with its deck's line: the draft's line the page sets (the draft alone for the cover and the
    contents; nothing for a blank page)."""
    out = [""] * total
    for a5, page in enumerate(at):
        if draft is not None:
            line = lines[a5] if a5 < len(lines) else 0
            out[page] = f"{draft}:{line}: " if line else f"{draft}: "
    return out


def _said_at_least(found: list[tuple[int, float]], starts: list[str], say: Callable[[str, float], str]) -> list[str]:
    """One line for the least of ``found`` (page, size), none when nothing was found: ``say`` given
    where it is (the draft's line, the page, how many more pages) and that size."""
    if not found:
        return []
    page, size = min(found, key=lambda hit: (hit[1], hit[0]))
    more = "" if len(found) == 1 else f" and {counted(len(found) - 1, 'more page')}"
    return [say(f"{starts[page]}{BOOK} page {page + 1}{more}", size)]


def _small_text_said(pdf: bytes, starts: list[str]) -> list[str]:
    """One line, in English as pnpgen's every terminal line (README), for the text under ``SMALL_TEXT_PT`` the pages show
    (none once outlined): its smallest size and page (``starts``: the draft's line it sets), and
    how many more pages show such text."""
    return _said_at_least(small_text(pdf, SMALL_TEXT_PT), starts, lambda where, size: (
        f"{where}: text as small as {size:g} pt, under {SMALL_TEXT_PT:g} pt: the "
        f"pieces' pictures (their faces drawn smaller on the cover, the components and the setup pages; the book's "
        f"own text is {SMALL_TEXT_PT:g} pt or more), a picture's words not meant to be read; a printer's preflight "
        "that checks for small text lists them: if its 入稿ガイド refuses text this small, export with --outline-text "
        "(every glyph a path)"))


def _blanks_said(pages: int, total: int, preset: Preset) -> str:
    """The blank pages added, and where: before the last page (the back page, the colophon, stays
    last, as the booklet keeps it), or after a one-page book."""
    first, last = (pages, total - 1) if pages > 1 else (2, total)
    where = f"page {first}" if first == last else f"pages {first}–{last}"
    return (f"{BOOK}: {pages} pages of the rulebook and {total - pages} blank, {total} in all: {preset.name} binds a "
            f"multiple of {preset.page_multiple} pages (page_multiple); blank: {where}"
            + (" (the last page, the colophon, stays last)" if pages > 1 else ""))


def _sheet(preset: Preset) -> Page:
    """One page of the shop's: the A5 trim centred in its 塗り足し and the room for its marks."""
    bleed = preset.formats[0].bleed
    room = MARK_ROOM_MM if preset.marks != "none" else 0.0
    o = room + bleed
    size = (A5[0] + 2 * o, A5[1] + 2 * o)
    trim = (o, o, o + A5[0], o + A5[1])
    items: list[Item] = []
    if preset.marks != "none":
        items.append(Strokes(tuple(shop_marks(size, trim, bleed, preset.marks)), registration=True))
    return Page(size, items, trim=trim, bleed=(o - bleed, o - bleed, o + A5[0] + bleed, o + A5[1] + bleed))
