"""A Japanese designer's own draft (trial43): a wrapped ※ note hangs under its text, as JLREQ
hangs a note (the mark in a column of its own), and so do 注： and ＊ notes; a heading's 約物 in the
proportional bold face take their JLREQ widths (「例：合わせ札」's ： a full em, not a third); a
table's row wider than the page wraps its last column inside the table."""

from __future__ import annotations

import pytest

from conftest import DRAFT, REPO, make_workspace
from pdfprobe import glyphs
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.tree import note_mark

PT = 25.4 / 72
LONG = "スーパーハイパーデラックスアルティメットコレクターズエディションのボードを使う場合も、点数は変わりません。"
TABLE = ("　役　　　　点数　　　条件\n　五光　　　１５点　　光の札５枚\n"
         "　カス　　　１点　　　カス札１０枚（以降１枚ごとに＋１点、上限なし、ただし雨札は含めない）\n")
RULES = (f"■　得点計算\n\n　役と点数は以下のとおりです。\n\n{TABLE}\n　※{LONG}\n　注：{LONG}\n＊{LONG}\n\n"
         "◇例：合わせ札の取り方\n　場札から１枚を選んで取ります。\n\n■　ゲームの進行")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    ws = make_workspace(tmp_path_factory.mktemp("notes") / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("■　ゲームの進行", RULES), encoding="utf-8")
    return glyphs(build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"])


def _lines(pages, first: str):
    """The glyphs of the line whose text starts with ``first`` and of the line under it."""
    for page in pages:
        rows: dict[float, list] = {}
        for g in page:
            if g.on_page and g.char.strip():
                rows.setdefault(round(g.y, 1), []).append(g)
        lines = [sorted(r, key=lambda g: g.x) for _, r in sorted(rows.items())]
        for n, line in enumerate(lines):
            if "".join(g.char for g in line).startswith(first):
                return line, lines[n + 1]
    raise AssertionError(first)


@pytest.mark.parametrize("mark, column", [("※", 1), ("注：", 2), ("＊", 1)])
def test_a_wrapped_note_hangs_under_its_text(pages, mark, column):
    """「　※スーパー…」 over two lines: the ※ where the paragraph's indent puts it, the text an em
    right of it and the second line starting under the text, not under the ※ (注： two ems: its ：
    a full em; an unindented ＊ at the text's left)."""
    first, second = _lines(pages, mark + "スーパー")
    body = first[len(mark)]
    assert body.x - first[0].x == pytest.approx(column * 9 * PT, abs=0.15)
    assert second[0].x == pytest.approx(body.x, abs=0.15)
    assert second[0].char == LONG[len("".join(g.char for g in first)) - len(mark)]


def test_the_note_marks_the_docs_name():
    assert note_mark("※ただし例外です。") == ("※", "ただし例外です。")
    assert note_mark("※１　ただし") == ("※１", "ただし")
    assert note_mark("注：ただし") == ("注：", "ただし")
    assert note_mark("＊ただし") == ("＊", "ただし")
    assert note_mark("注意して進めます。") == ("", "注意して進めます。")
    assert note_mark("※") == ("", "※")


def test_a_headings_colon_takes_a_full_em(pages):
    """「◆ 例：合わせ札」 in the bold proportional face: 例 to 合 is two ems of the heading's
    10.5 pt (the ： on its full em, JLREQ 3.1.9), not the 1.3 ems its own glyph gave."""
    head, _ = _lines(pages, "◆例：合わせ札")
    at = {g.char: g for g in head}
    assert at["合"].x - at["例"].x == pytest.approx(2 * 10.5 * PT, abs=0.2)
    colon = at["："]
    assert colon.x - at["例"].x > 10.5 * PT + 0.5  # its ink centred in its em, not touching 例


def test_a_table_row_wider_than_the_page_wraps_in_its_last_column(pages):
    """「カス　１点　カス札１０枚（以降…含めない）」, 44 full-width characters: its 条件 wraps inside
    the table, each line under the column's first (it was printed as a paragraph under the table);
    the header's rule stays under 「役　点数　条件」, and nothing passes the text's right edge."""
    row, under = _lines(pages, "カス１点カス札")
    assert under[0].x == pytest.approx(row[4].x, abs=0.1)  # under the column's first character, カ
    shown = "".join(g.char for g in row[4:]) + "".join(g.char for g in under)
    assert shown.startswith("カス札１０枚（以降")
    assert max(g.x for g in row + under) < 148 - 15 - 4  # A5: the outer margin's 15 mm, a glyph's width
    head, first = _lines(pages, "役点数条件")
    assert "".join(g.char for g in first) == "五光１５点光の札５枚"
