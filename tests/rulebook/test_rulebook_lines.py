"""The lines the rulebook draws itself (rules under the components and their parts, the contents,
the running head) are printable: at least 0.1 mm, the thinnest line 同人印刷所 print (the doujin
presets' ``min_line``); a part's 0.25 pt (0.088 mm) rule in a 31 % grey broke up as a screen."""

from __future__ import annotations

import pikepdf
import pytest

MM_PER_PT = 25.4 / 72
THINNEST_MM = 0.1  # the doujin presets' min_line
GAMES = ("alicematic-eiketsuden", "alicematic-medallions", "asian-delivery", "populous")


def page_strokes(pdf) -> list[tuple[int, float]]:
    """(page, width in mm as printed) of every stroke a page draws itself: the book's own lines,
    not those inside the forms it places (the pictures of the designer's cards)."""
    out = []
    with pikepdf.open(pdf) as doc:
        for n, page in enumerate(doc.pages, 1):
            width, scale, stack = 1.0, 1.0, []
            for operands, op in pikepdf.parse_content_stream(page):
                name = str(op)
                if name == "q":
                    stack.append((width, scale))
                elif name == "Q" and stack:
                    width, scale = stack.pop()
                elif name == "w":
                    width = float(operands[0])
                elif name == "cm":
                    a, b, c, d = (float(v) for v in operands[:4])
                    scale *= abs(a * d - b * c) ** 0.5
                elif name in ("S", "s", "B", "B*", "b", "b*"):
                    out.append((n, width * scale * MM_PER_PT))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_books_own_lines_are_at_least_a_tenth_of_a_millimetre(built, game):
    strokes = page_strokes(built / game / "rulebook.pdf")
    assert strokes
    thin = sorted({(n, round(w, 3)) for n, w in strokes if w < THINNEST_MM - 1e-6})
    assert not thin, thin
