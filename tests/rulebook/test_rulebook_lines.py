"""The lines and text the rulebook draws itself (rules under the components and their parts, the
contents, the running head) are printable: lines at least 0.1 mm, the thinnest line 同人印刷所
print (the doujin presets' ``min_line``; a part's 0.25 pt (0.088 mm) rule in a 31 % grey broke up
as a screen), text at least 5 pt, below which a shop's preflight lists it (docs/exports.md,
doujin-book). The pictures of the pieces, at 1/n, are the designer's cards, not the book's."""

from __future__ import annotations

import re

import pikepdf
import pytest

from conftest import REPO

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


# JLREQ's characters not starting a line (3.1.7, cl-02 closing brackets, cl-04 ？！, cl-05 ・：；, cl-06
# 。．, cl-07 、，, cl-09 iteration marks, cl-10 small kana and ー) and not ending one (3.1.8, cl-01), as
# the spec lists them: read from the printed lines, not the line breaker's own lists
NOT_STARTING = frozenset("）」』】〉》］｝〕。、．，・：；？！ヽヾゝゞ々ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
NOT_ENDING = frozenset("（「『【〈《［｛〔")
TEXT_RIGHT_MM = 148.0 - 15.0  # the A5 page's text block: its outer (and inner) margin 15 mm
HALF_INK = frozenset("、。，．）」』】〉》］｝〕")  # at a line's end, half an em (行末二分)
QUARTER_AKI = frozenset("・：；")  # a quarter em either side of the mark


def _body_rows(page) -> list[tuple[float, list]]:
    """The page's own lines of text between the running head and the folio, top down, each cut
    where a gap of more than two ems parts it (a table's cells, the index's columns)."""
    rows: dict[float, list] = {}
    for g in page:
        if g.on_page and g.char.strip() and 18 < g.y < 194:
            rows.setdefault(round(g.y, 1), []).append(g)
    out = []
    for y, row in sorted(rows.items()):
        row.sort(key=lambda g: g.x)
        part = [row[0]]
        for a, b in zip(row, row[1:]):
            if b.x - a.x > 2.5 * a.size * MM_PER_PT + 0.5:
                out.append((y, part))
                part = []
            part.append(b)
        out.append((y, part))
    return out


def _right_ink(g) -> float | None:
    """Where a line's last character ends on the page (mm), None for a Latin one (its width unknown here)."""
    if g.char.isascii():
        return None
    em = g.size * MM_PER_PT
    return g.x + em * (0.5 if g.char in HALF_INK else 0.75 if g.char in QUARTER_AKI else 1.0)


@pytest.mark.parametrize("game", GAMES)
def test_every_line_of_the_books_keeps_jlreqs_line_breaking_rules(built, game):
    """An editor's pass over every page as printed (book51): where a paragraph wraps (a line set
    to the text block's right edge, the next a line below), the next line opens with none of
    JLREQ's 行頭禁則 characters (a bullet of the draft, 「・事業所」, is the item's mark), the line
    ends with no 行末禁則 one, no number (連数字), leader pair or Latin word is split between the
    two; and no line hangs past the right edge (the book sets no ぶら下げ: JLREQ 3.8.2's option
    is off, docs/rulebook.md)."""
    from pdfprobe import glyphs

    draft = (REPO / "data" / game / "draft.txt").read_text(encoding="utf-8")
    bullets = {m.group(1) for m in re.finditer(r"(?:^|[\s　])・([^\s　・]{1,6})", draft)}
    pages = glyphs(built / game / "rulebook.pdf")
    wrapped = hanging = 0
    faults = []
    for n, page in enumerate(pages, 1):
        rows = _body_rows(page)
        for _y, row in rows:
            ink = _right_ink(row[-1])
            if ink is not None and ink > TEXT_RIGHT_MM + 0.2:
                hanging += 1
                faults.append((n, "past the edge", "".join(g.char for g in row)[-12:], round(ink, 2)))
        for (y1, above), (y2, below) in zip(rows, rows[1:]):
            ink = _right_ink(above[-1])
            if not (ink and ink > TEXT_RIGHT_MM - 0.6 and 4.5 < y2 - y1 < 6.5 and below[0].x < above[0].x + 12):
                continue  # not a paragraph wrapping: its line set to the edge, the next right under it
            wrapped += 1
            a, b = "".join(g.char for g in above), "".join(g.char for g in below)
            if b[0] in NOT_STARTING and not (b[0] == "・" and any(b[1:].startswith(w) for w in bullets)):
                faults.append((n, "line start", a[-6:], b[:6]))
            if a[-1] in NOT_ENDING:
                faults.append((n, "line end", a[-6:], b[:6]))
            if re.match(r"[0-9０-９][0-9０-９]", a[-1] + b[0]) or (a[-1] + b[0]) in ("……", "――", "‥‥"):
                faults.append((n, "split", a[-6:], b[:6]))
            if re.fullmatch(r"[A-Za-z]{2}", a[-1] + b[0]):
                faults.append((n, "Latin word split", a[-6:], b[:6]))
    assert wrapped > 40 and not faults, (wrapped, faults)
    assert hanging == 0
