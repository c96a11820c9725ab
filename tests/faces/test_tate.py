"""``m.tate()``: two lines of rule text in vertical writing (縦書き) on a bid card. The converter draws
no vertical writing-mode, and the docs said to stack one character per line; stacked so, 「」, ー
and … kept their horizontal forms, and 。 sat low left in its cell, as in horizontal text."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from conftest import BACK, DECK_YAML, make_workspace, run
from pnpgen.faces import tate
from pnpgen.units import MM_PER_PT

FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.ground("#ffffff") }}
{{ m.tate(piece.text, w / 2, 10, size=10) }}
{% endblock %}
"""


def _chars(pdf) -> list[tuple[str, float, float, bool]]:
    """Each character: its text, its box's centre in mm from the page's top-left, and whether it is
    drawn turned (its text matrix has a rotation)."""
    page = pdfium.PdfDocument(str(pdf))[0]
    h = page.get_height()
    tp = page.get_textpage()
    m = raw.FS_MATRIX()
    out = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.strip():
            continue
        left, bottom, right, top = tp.get_charbox(i)
        raw.FPDFText_GetMatrix(tp, i, ctypes.byref(m))
        out.append((ch, (left + right) / 2 * MM_PER_PT, (h - (top + bottom) / 2) * MM_PER_PT, abs(m.b) > 0.5))
    return out


def test_vertical_text_turns_brackets_and_the_long_vowel_and_sets_the_full_stop_upper_right(tmp_path):
    deck = DECK_YAML + "  - {name: 宣言, text: 「全部」取るーよ。}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=FRONT, back=BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    chars = _chars(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(c for c, *_ in chars) == "「全部」取るーよ。"
    turned = {c for c, _, _, t in chars if t}
    assert turned == {"「", "」", "ー"}, chars
    em = 10 / 72 * 25.4
    column = {c: (x, y) for c, x, y, _ in chars}
    xs = [column[c][0] for c in "全部取るよ"]
    assert max(xs) - min(xs) < 0.3  # one column
    ys = [column[c][1] for c in "全部取るよ"]
    assert all(b > a + em for a, b in zip(ys, ys[1:]))  # downwards, a cell each
    # 。 in its cell's upper right: right of the column's centre, above the middle of its cell
    x, y = column["。"]
    cell_middle = column["よ"][1] + em * 1.1
    assert x > xs[0] + em * 0.2 and y < cell_middle, (x, y, xs[0], cell_middle)
    # a turned 「 has its ink in the lower half of its cell (horizontal: the right half)
    assert column["「"][1] > column["全"][1] - em * 1.1 + 0.05 and abs(column["「"][0] - xs[0]) < em * 0.3


def test_small_kana_sit_right_of_the_centre_and_numbers_and_latin_words_are_set_as_jlreq_sets_them(tmp_path):
    """editor7: small kana (ゃ ッ) sat centred in their cell, where horizontal text puts them (low);
    JLREQ 2.1.2 places their face at the cell's middle, right of its centre. A two-digit number
    stood as two upright digits in two cells, a Latin word letter by letter: JLREQ 3.2.3 and 3.2.5
    set ``10`` across in one cell (tate-chu-yoko) and ``Game Over`` turned a quarter clockwise,
    reading downwards; a single letter or digit stays upright."""
    deck = DECK_YAML + "  - {name: 宣言, text: 'きゃッ10点Game Over、5枚'}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=FRONT, back=BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    chars = _chars(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(c for c, *_ in chars) == "きゃッ10点GameOver、5枚"
    em, cell = 10 / 72 * 25.4, 10 / 72 * 25.4 * 1.1
    x0, y0 = chars[0][1], chars[0][2]  # き: the column's centre line and its first cell's middle
    for k, (ch, x, y, turned) in enumerate(chars[1:3], start=1):  # ゃ ッ: right of the centre, at the middle
        assert x > x0 + em * 0.06 and abs(y - (y0 + k * cell)) < em * 0.04 and not turned, (ch, x, y, x0, y0)
    one, zero = chars[3], chars[4]  # 10: across, in the fourth cell
    assert abs(one[2] - zero[2]) < 0.05 and one[1] < x0 < zero[1] and not one[3] and not zero[3], (one, zero)
    assert abs((one[1] + zero[1]) / 2 - x0) < em * 0.1 and chars[5][0] == "点"
    assert abs(chars[5][2] - (y0 + 4 * cell)) < em * 0.1  # 点 in the fifth cell: 10 took one
    word = chars[6:14]
    assert all(turned and abs(x - x0) < em * 0.5 for _, x, _, turned in word), word
    assert all(b[2] > a[2] for a, b in zip(word, word[1:]))  # reading downwards
    five = chars[15]
    assert five[0] == "5" and not five[3] and abs(five[1] - x0) < em * 0.2 and five[2] > word[-1][2] + em * 0.3


def test_the_column_is_cut_into_jlreqs_marks():
    marks = tate.marks("きゃ、12点VP 3枚「x」", 10)
    assert [(m.kind, m.text) for m in marks] == [
        ("upright", "き"), ("small", "ゃ"), ("stop", "、"), ("across", "12"), ("upright", "点"), ("latin", "VP 3"),
        ("upright", "枚"), ("turned", "「"), ("upright", "x"), ("turned", "」")]
    em = 10 / 72 * 25.4
    latin = marks[5]
    assert latin.top == marks[4].top + marks[4].length + em / 4 and latin.length == 4 * em / 2
    assert marks[6].top == latin.top + latin.length + em / 4  # a quarter em each side of the word
