"""Saddle-stitch imposition: A5 pages onto A4 landscape sheets, in millimetres.

Pure page order and geometry: ``pnpgen.pdf.booklet`` places the pages on the sheets of a PDF.

For ``n`` pages (a multiple of 4) sheet ``k`` (1 = outermost) carries, left binding:

    front  [n − 2k + 2, 2k − 1]      back  [2k, n − 2k + 1]

e.g. 8 pages → [8, 1] [2, 7] / [6, 3] [4, 5]. Right binding (vertical text, read right to left)
mirrors each side: front [2k − 1, n − 2k + 2], back [n − 2k + 1, 2k]. Print the sheets duplex,
flipping on the short edge, fold them together and staple on the fold.

Creep: folded sheets nest, and every sheet pushes the ones inside it outward by about the paper's
thickness, so after trimming the fore-edge their text sits nearer it. Sheet ``k`` therefore
shifts both its pages toward the fold by ``creep × (k − 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

A5 = (148.0, 210.0)
A4_LANDSCAPE = (297.0, 210.0)
LETTER_LANDSCAPE = (279.4, 215.9)
# The booklet's sheet for the build's paper: two A5 pages fill A4 landscape; on US Letter they are
# set at 94 % (Letter is 17.6 mm narrower than two A5 pages); A3 paper gets the A4 booklet, Legal
# and Tabloid the Letter one (data/formats.py booklet_paper_for).
BOOKLET_SHEETS = {"a4": A4_LANDSCAPE, "a3": A4_LANDSCAPE, "letter": LETTER_LANDSCAPE, "legal": LETTER_LANDSCAPE,
                  "tabloid": LETTER_LANDSCAPE, "ledger": LETTER_LANDSCAPE}


@dataclass(frozen=True)
class Placement:
    """One page slot of one sheet side: which A5 page (None = blank), and where, in mm."""

    page: int | None  # 1-based page of the padded booklet sequence's source, None for a blank
    x_mm: float  # left edge of the page on the sheet
    y_mm: float  # bottom edge of the page on the sheet
    half: str  # "left" | "right"
    shift_mm: float  # creep shift applied, toward the fold (positive = toward the fold)
    scale: float = 1.0  # the page's size on the sheet (two A5 pages on Letter: 0.944)


@dataclass(frozen=True)
class SheetSide:
    """One side of a folded booklet's sheet: which page goes on its left half and which on its right, so the pages
    read in order once folded."""

    sheet: int  # 1 = outermost sheet
    side: str  # "front" | "back"
    left: int | None  # position in the padded sequence (1-based) on the left half
    right: int | None


def padded_count(n: int) -> int:
    """The page count rounded up to a multiple of four (at least 4)."""
    if n < 1:
        raise ValueError("a booklet needs at least one page")
    return -(-n // 4) * 4


def padded_sequence(n: int, keep_last: bool = False) -> list[int | None]:
    """Source pages in booklet order of length ``padded_count(n)``, blanks as None.

    ``keep_last`` keeps the last page (a back cover) last, putting the blanks before it.
    """
    total = padded_count(n)
    blanks = [None] * (total - n)
    pages: list[int | None] = list(range(1, n + 1))
    if keep_last and n > 1:
        return pages[:-1] + blanks + pages[-1:]
    return pages + blanks


def saddle_stitch(n: int, binding: str = "left") -> list[SheetSide]:
    """Sheet sides in print order (sheet 1 front, sheet 1 back, sheet 2 front, …)."""
    if n % 4:
        raise ValueError(f"saddle stitch needs a multiple of 4 pages, got {n}")
    if binding not in ("left", "right"):
        raise ValueError(f"binding must be 'left' or 'right', got {binding!r}")
    sides = []
    for k in range(1, n // 4 + 1):
        front = (n - 2 * k + 2, 2 * k - 1)
        back = (2 * k, n - 2 * k + 1)
        if binding == "right":
            front, back = front[::-1], back[::-1]
        sides.append(SheetSide(k, "front", *front))
        sides.append(SheetSide(k, "back", *back))
    return sides


def creep_shift(sheet: int, creep_mm: float) -> float:
    """How far sheet ``sheet`` (1 = outermost) moves its pages toward the fold."""
    return creep_mm * (sheet - 1)


def book_scale(page_mm: tuple[float, float], sheet_mm: tuple[float, float]) -> float:
    """The size two facing pages are set at on a sheet: 1, or less where they do not fit it."""
    return min(1.0, sheet_mm[0] / (2 * page_mm[0]), sheet_mm[1] / page_mm[1])


def layout(
    n_pages: int,
    *,
    binding: str = "left",
    creep_mm: float = 0.0,
    page_mm: tuple[float, float] = A5,
    sheet_mm: tuple[float, float] = A4_LANDSCAPE,
    keep_last: bool = False,
) -> list[tuple[SheetSide, list[Placement]]]:
    """Every sheet side with its two page placements, in mm from the sheet's lower-left corner;
    two pages wider or taller than the sheet are set smaller to fit (``book_scale``)."""
    sw, sh = sheet_mm
    scale = book_scale(page_mm, sheet_mm)
    pw, ph = page_mm[0] * scale, page_mm[1] * scale
    if creep_mm < 0:
        raise ValueError("creep must not be negative")
    seq = padded_sequence(n_pages, keep_last)
    fold = sw / 2
    y = (sh - ph) / 2
    out = []
    for side in saddle_stitch(len(seq), binding):
        shift = creep_shift(side.sheet, creep_mm)
        if shift > (sw - 2 * pw) / 2 + pw / 4:
            raise ValueError(f"creep {creep_mm} mm per sheet moves sheet {side.sheet} by {shift:.1f} mm: too much")
        assert side.left is not None and side.right is not None  # every slot of a padded sequence
        left = Placement(seq[side.left - 1], fold - pw + shift, y, "left", shift, scale)
        right = Placement(seq[side.right - 1], fold - shift, y, "right", shift, scale)
        out.append((side, [left, right]))
    return out
