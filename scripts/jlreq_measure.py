"""Measure a Japanese rulebook's punctuation and 和欧間 as PDFium reads them (JLREQ 3.1, 3.2.1).

    python scripts/jlreq_measure.py build/populous/rulebook.pdf [more.pdf …]

For the body text (the mincho at body and note sizes), per book: the mid-line 、。 (a glyph of the
same line follows that is no closing bracket or stop: 。」 closes up, JLREQ 3.1.4) and their advance to where the next glyph's em box is inked in ems (an opening
bracket's ink is the right half of its em box, whose origin is half an em further left), how many fall below 0.9 em; the
closing+opening bracket pairs 」「 and their width from the closing bracket to the glyph after the
opening one: 1.5 em as set (JLREQ 3.1.4, a half em between the two brackets' inks; up to 1.75 on a line
spaced out), down to their inks' em, 1.0 em, on a line pushed in (追い込み, JLREQ 3.8.2: the half em
between given up; the book pushes a line in rather than space it out, on every line), 2 em where the
opening mark is a ” set on a full em; any other width is told apart as out of bounds; the joins of a Japanese character and a Latin letter or digit, and how
many have at least a 0.2 em gap (和欧間, a quarter em). Positions are glyph origins (mm) from
``FPDFText_GetCharOrigin``; an em is the glyph's size.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pdfprobe import glyphs

PT = 72 / 25.4
# a 」「 pair's width in ems (see the module's text): as set (or spaced out), squeezed on a pushed-in
# line down to the JLREQ minimum, and 」” (” on a full em)
PAIR_SET = (1.45, 1.75)
PAIR_PUSHED_IN = (1.0, 1.45)
PAIR_FULL_QUOTE = (1.95, 2.1)
OPENING = set("「『（【〔［｛〈《“")
CLOSING = set("」』）】〕］｝〉》”")


def _japanese(ch: str) -> bool:
    o = ord(ch)
    return 0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or (ch.isalnum() and 0xFF10 <= o <= 0xFF5A)


@dataclass
class Measures:
    stops: int = 0
    stops_narrow: int = 0
    stop_min: float = 9.0
    pairs: list[float] | None = None
    joins: int = 0
    joins_spaced: int = 0

    def pairs_as(self, kind: str) -> list[float]:
        """The 」「 pairs of one ``pair_kind``: set, pushed in, quote or out of bounds."""
        return [w for w in self.pairs or [] if pair_kind(w) == kind]

    def line(self) -> str:
        pairs, pushed, odd = self.pairs or [], self.pairs_as("pushed in"), self.pairs_as("out of bounds")
        least = f"; the narrowest {min(pushed):.2f} em" if pushed else ""
        return (f"mid-line 、。 {self.stops} (below 0.9 em: {self.stops_narrow}, least {self.stop_min:.2f} em); "
                f"」「 pairs {len(pairs)}: {len(self.pairs_as('set'))} set at 1.5 em (to 1.75 spaced out), "
                f"{len(pushed)} squeezed on lines pushed in to no less than 1.0 em (JLREQ 3.8.2{least}), "
                f"{len(self.pairs_as('quote'))} 」” at 2 em, out of bounds {len(odd)}"
                + (f" ({', '.join(f'{w:.2f}' for w in odd)} em)" if odd else "")
                + f"; Japanese–Latin joins {self.joins}, with a 和欧間 ≥ 0.2 em: {self.joins_spaced}")


def pair_kind(width: float) -> str:
    """A 」「 pair's width in ems told: ``set`` (1.5 em, to 1.75 on a line spaced out), ``pushed in``
    (squeezed on a line pushed in, down to the JLREQ minimum of 1.0 em), ``quote`` (」” on 2 em),
    else ``out of bounds``."""
    for kind, (low, high) in (("set", PAIR_SET), ("pushed in", PAIR_PUSHED_IN), ("quote", PAIR_FULL_QUOTE)):
        if low <= width <= high:
            return kind
    return "out of bounds"


def _ink(g, em: float) -> float:
    """Where a glyph's ink begins in mm: an opening bracket is inked in the right half of its em."""
    return g.x + (em / 2 if g.char in OPENING else 0.0)


def measure(pdf: Path, body: str = "Mincho") -> Measures:
    m = Measures(pairs=[])
    for page in glyphs(pdf):
        chars = [g for g in page if g.on_page and body in g.font and g.char.strip()]
        for a, b, c in zip(chars, chars[1:], chars[2:] + [None]):
            if abs(a.y - b.y) > 0.3:
                continue  # b starts another line
            em = a.size / PT  # mm
            advance = (_ink(b, em) - a.x) / em
            if a.char in "、。" and b.char not in CLOSING and b.char not in "、。":  # 。」 closes up (連続約物)
                m.stops += 1
                m.stops_narrow += advance < 0.9
                m.stop_min = min(m.stop_min, advance)
            if a.char in CLOSING and b.char in OPENING and c is not None and abs(c.y - b.y) < 0.3:
                m.pairs.append((_ink(c, em) - a.x) / em)
            if (_japanese(a.char) and b.char.isascii() and b.char.isalnum()) or \
                    (a.char.isascii() and a.char.isalnum() and _japanese(b.char)):
                own = 1.0 if _japanese(a.char) else 0.5  # the fixed face's advances
                m.joins += 1
                m.joins_spaced += advance - own >= 0.2
    return m


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(f"{arg}: {measure(Path(arg)).line()}")
