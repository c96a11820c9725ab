"""Named piece sizes in millimetres (docs/print-facts.md), and what each shape's size means."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

CARD_FORMATS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "bridge-jp": (58.0, 89.0),
    "small-jp": (59.0, 86.0),  # 日本規格・スモールサイズ (the card-jp layout's)
    "mini-euro": (44.0, 68.0),
    "mini-american": (41.0, 63.0),
    "tarot": (70.0, 120.0),
    "meishi": (55.0, 91.0),
    "square": (70.0, 70.0),
    "poker-double": (126.0, 88.0),
    "karuta": (52.0, 73.0),  # かるた: 大石天狗堂's 競技用百人一首標準 73×52 (docs/print-facts.md)
}

# A card size as a Japanese designer names it (名刺, ポーカーサイズ): the card format meant and the
# built-in layout of that size, or None where no layout has it. Told as the name to write, as a
# layout: or format: written so is no name pnpgen reads.
SIZE_WORDS: dict[str, tuple[str, str | None]] = {
    "名刺": ("meishi", "card-meishi"),
    "ポーカー": ("poker", "card-poker"),
    "ブリッジ": ("bridge", "card-bridge"),
    "タロット": ("tarot", "card-tarot"),
    "スモール": ("small-jp", "card-jp"),
    "日本規格": ("small-jp", "card-jp"),
    "スクエア": ("square", None),
    "かるた": ("karuta", None),
    "カルタ": ("karuta", None),
    "百人一首": ("karuta", None),
}


def size_word(value: object) -> tuple[str, str | None] | None:
    """The (format, layout) a size written in Japanese names (``名刺``, ``名刺サイズ``, ``ポーカーサイズ``), else None."""
    if not isinstance(value, str):
        return None
    word = unicodedata.normalize("NFKC", value).strip().removesuffix("サイズ").removesuffix("判").strip()
    return SIZE_WORDS.get(word)

# Bleed (塗り足し) round every piece: artwork runs this far past the trim (docs/print-facts.md;
# the 3 mm Japanese doujin printers and The Game Crafter ask for). The one default of --bleed.
BLEED_MM = 3.0
# Text and thin lines keep this far inside the trim (a drifted cut takes what is nearer): the
# templates' ``safe``, the built-in macros' and layouts' margin, and the print lint's default.
SAFE_MM = 3.0
# Art printed below this resolution warns (dots per inch at its printed size); --min-dpi's one default.
MIN_DPI = 300.0
# The resolution ceiling: raster art placed finer than 1.5 times it (data/pixels.py CAP_ABOVE) is
# resampled to it at the size it prints; --max-dpi's one default (0: none, originals kept). A home
# printer or a shop's RIP gains nothing above 600.
MAX_DPI = 600.0

PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "legal": (215.9, 355.6),  # 8.5 × 14 in
    "tabloid": (279.4, 431.8),  # 11 × 17 in (Ledger is the same sheet lying)
    "ledger": (279.4, 431.8),
}
# Papers the rule sheet alone may also be printed on (``rulebook: sheet: {paper: b5}``): JIS B5 and
# B4 (JIS P 0138), the sizes Japanese copiers and 同人 printers take a 説明書 on beside A4 and A3;
# no home sheet or booklet is laid out on them (trial71).
RULE_SHEET_PAPERS: dict[str, tuple[float, float]] = {**PAPER_SIZES, "b5": (182.0, 257.0), "b4": (257.0, 364.0)}
# The papers whose rulebook booklet is set on US Letter; every other paper gets the A4 booklet
# (a printer loaded with A3 or Tabloid has the smaller sheet of its system too).
US_PAPERS = frozenset({"letter", "legal", "tabloid", "ledger"})


def papers_nearest(paper: str, holds: Callable[[str], bool]) -> list[str]:
    """The papers pnpgen knows, but ``paper``, that ``holds`` takes (a piece fits on it, a tuck
    box's net does), ``paper``'s own family first (Tabloid for a Letter game, A3 for an A4 one:
    what its printer is likely to take), each family from the smallest sheet up: the one order in
    which every message offers a larger paper."""
    order = list(PAPER_SIZES)
    return sorted((name for name in PAPER_SIZES if name != paper and holds(name)),
                  key=lambda name: ((name in US_PAPERS) != (paper in US_PAPERS),
                                    PAPER_SIZES[name][0] * PAPER_SIZES[name][1], order.index(name)))


def paper_title(paper: str) -> str:
    """A paper's name as a designer reads it in a summary or on a page: ``A4``, ``Letter``, ``Tabloid``."""
    return paper.capitalize()


def booklet_paper_for(paper: str | None) -> str:
    """The booklet's paper for the home sheets' ``paper``: letter for a US paper, else a4."""
    return "letter" if paper in US_PAPERS else "a4"


def paper_named_by_size(word: str) -> str | None:
    """The paper pnpgen knows that ``word`` names by its size — ``8.5x11`` (inches), ``210×297``
    (mm), either way round, ``8.5 x 11 in`` — else None: for the "did you mean letter?" of a
    paper written as Americans and Europeans write it."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(?:x|\*|by)\s*([0-9]+(?:\.[0-9]+)?)\s*(in(?:ch(?:es)?)?|\"|mm|cm)?\s*",
                     unicodedata.normalize("NFKC", str(word)).lower().replace("×", "x"))
    if m is None:
        return None
    a, b = float(m.group(1)), float(m.group(2))
    units = [m.group(3)] if m.group(3) else (["in", "cm"] if max(a, b) < 50 else ["mm"])
    for unit in units:
        scale = {"mm": 1.0, "cm": 10.0}.get(unit, 25.4)
        size = sorted((a * scale, b * scale))
        for name, (w, h) in PAPER_SIZES.items():
            if abs(size[0] - w) <= 1.0 and abs(size[1] - h) <= 1.0:
                return name
    return None


# Paper sizes a designer may write as a piece's format (a player mat the size of A5): not card
# formats, so the message gives the size to write instead.
PAPER_FORMATS: dict[str, tuple[float, float]] = {
    **PAPER_SIZES, "a5": (148.0, 210.0), "a6": (105.0, 148.0), "b5": (182.0, 257.0), "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
}

KINDS = ("card", "tile", "token", "board")
SHAPES = ("rect", "rounded", "circle", "hex", "trihex", "polygon", "tuckbox")
# Shapes whose size is one number (across flats of one hexagon, or a diameter).
SINGLE_SIZE_SHAPES = ("circle", "hex", "trihex")
