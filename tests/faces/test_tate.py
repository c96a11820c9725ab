"""``m.tate()``: two lines of rule text in vertical writing (縦書き) on a bid card. The converter draws
no vertical writing-mode, and the docs said to stack one character per line; stacked so, 「」, ー
and … kept their horizontal forms, and 。 sat low left in its cell, as in horizontal text."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as raw

from conftest import BACK, DECK_YAML, make_workspace, run
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
