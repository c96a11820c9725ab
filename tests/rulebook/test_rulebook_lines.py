"""The lines and text the rulebook draws itself (rules under the components and their parts, the
contents, the running head) are printable: lines at least 0.1 mm, the thinnest line 同人印刷所
print (the doujin presets' ``min_line``; a part's 0.25 pt (0.088 mm) rule in a 31 % grey broke up
as a screen), text at least 5 pt, below which a shop's preflight lists it (docs/exports.md,
doujin-book). The pictures of the pieces, at 1/n, are the designer's cards, not the book's."""

from __future__ import annotations

import pikepdf
import pytest

MM_PER_PT = 25.4 / 72
THINNEST_MM = 0.1  # the doujin presets' min_line
SMALLEST_PT = 5.0  # text below this a shop's preflight may list (a RIP's "text below n pt" check)
GAMES = ("alicematic-eiketsuden", "alicematic-medallions", "asian-delivery", "populous")


def page_marks(pdf) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """(page, width in mm as printed) of every stroke a page draws itself, and (page, size in pt
    as printed) of every text it shows: the book's own, not what is inside the forms it places
    (the pictures of the designer's cards)."""
    out, text = [], []
    with pikepdf.open(pdf) as doc:
        for n, page in enumerate(doc.pages, 1):
            width, scale, size, text_scale, stack = 1.0, 1.0, 0.0, 1.0, []
            for operands, op in pikepdf.parse_content_stream(page):
                name = str(op)
                if name == "q":
                    stack.append((width, scale, size))
                elif name == "Q" and stack:
                    width, scale, size = stack.pop()
                elif name == "w":
                    width = float(operands[0])
                elif name == "cm":
                    a, b, c, d = (float(v) for v in operands[:4])
                    scale *= abs(a * d - b * c) ** 0.5
                elif name == "Tf":
                    size = abs(float(operands[1]))
                elif name == "BT":
                    text_scale = 1.0
                elif name == "Tm":
                    a, b, c, d = (float(v) for v in operands[:4])
                    text_scale = abs(a * d - b * c) ** 0.5
                elif name in ("Tj", "TJ", "'", '"'):
                    text.append((n, size * text_scale * scale))
                elif name in ("S", "s", "B", "B*", "b", "b*"):
                    out.append((n, width * scale * MM_PER_PT))
    return out, text


@pytest.mark.parametrize("game", GAMES)
def test_the_books_own_lines_and_text_are_printable(built, game):
    strokes, text = page_marks(built / game / "rulebook.pdf")
    assert strokes and text
    thin = sorted({(n, round(w, 3)) for n, w in strokes if w < THINNEST_MM - 1e-6})
    assert not thin, thin
    small = sorted({(n, round(pt, 2)) for n, pt in text if pt < SMALLEST_PT - 1e-6})
    assert not small, small


def test_a_leader_pair_is_never_parted_and_may_open_a_line_and_an_arrow_keeps_its_number():
    """trial59's editor's pass: 「……」 (三点リーダ twice) never splits between its two (JLREQ 3.1.10,
    cl-08 分離禁止): a pair that would straddle a line's end goes whole to the next line, which it
    may open (JLREQ 3.1.7's 行頭禁則 lists no cl-08; a paragraph may start with it too); a cross
    reference's arrow stays with its case number (「（→」 ended a line, 「３．１）」 opened the next)."""
    from pnpgen.rulebook.paralines import set_lines

    def lines(text: str) -> list[str]:
        return [text[a:b] for a, b in set_lines(text, 32 * 9.0, lambda ch: 9.0, em=9.0)]

    assert lines("あ" * 31 + "……" + "い" * 10) == ["あ" * 31, "……" + "い" * 10]
    assert lines("……" + "あ" * 40)[0] == "……" + "あ" * 30
    for k in range(28, 33):  # wherever the line's end falls about it
        got = lines("あ" * k + "（→３．１）を見てください。" + "い" * 10)
        assert not any(line.endswith(("→", "→３", "３．", "→３．")) for line in got), got
