"""A Japanese designer's own draft (trial43): a wrapped ※ note hangs under its text, as JLREQ
hangs a note (the mark in a column of its own), and so do 注： and ＊ notes; a heading's 約物 in the
proportional bold face take their JLREQ widths (「例：合わせ札」's ： a full em, not a third); a
table's row wider than the page wraps its last column inside the table."""

from __future__ import annotations

import ctypes
import io

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader

from conftest import DRAFT, REPO, make_workspace
from pdfprobe import glyphs, shown
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.tree import note_mark

PT = 25.4 / 72
LONG = "スーパーハイパーデラックスアルティメットコレクターズエディションのボードを使う場合も、点数は変わりません。"
TABLE = ("　役　　　　点数　　　条件\n　五光　　　１５点　　光の札５枚\n"
         "　カス　　　１点　　　カス札１０枚（以降１枚ごとに＋１点、上限なし、ただし雨札は含めない）\n")
RULES = (f"■　得点計算\n\n　役と点数は以下のとおりです。\n\n{TABLE}\n　※{LONG}\n　注：{LONG}\n＊{LONG}\n※1 {LONG}\n\n"
         "◇例：合わせ札の取り方\n　場札から１枚を選んで取ります。\n\n"
         "【例】\n　場札に「桜に短冊」があれば、合わせて取ります。\n　・山札の札も同じように合わせます。\n\n"
         "注意：【雨札】を含む役は、点数が１点少なくなります。\n\n"
         "例：長い例です。\n" + "".join(f"　{n}番目の段落です。" + "場札と手札を合わせて取ります。" * 3 + "\n" for n in range(1, 17))
         + "\n　例のあとの本文です。\n\n■　ゲームの進行")


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> bytes:
    ws = make_workspace(tmp_path_factory.mktemp("notes") / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("■　ゲームの進行", RULES), encoding="utf-8")
    return build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"]


@pytest.fixture(scope="module")
def pages(book):
    return glyphs(book)


def _tints(book: bytes) -> list[list[tuple[float, float, float]]]:
    """Per page, the boxes' tint (the book's SOFT, #eef1f4) as (left, top, bottom) in mm from the page's top-left."""
    pdf = pdfium.PdfDocument(book)
    out = []
    for page in pdf:
        h = page.get_height()
        found = []
        for o in page.get_objects(max_depth=1):
            r, g, b, a = (ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint())
            if o.type == raw.FPDF_PAGEOBJ_PATH and raw.FPDFPageObj_GetFillColor(o, r, g, b, a) \
                    and (r.value, g.value, b.value) == (0xEE, 0xF1, 0xF4):
                x0, y0, x1, y1 = o.get_bounds()
                found.append((x0 * PT, (h - y1) * PT, (h - y0) * PT))
        out.append(found)
    return out


def _lines(pages, first: str):
    """The glyphs of the line whose text starts with ``first`` and of the line under it."""
    for page in pages:
        lines = _page_lines(page)
        for n, line in enumerate(lines):
            if "".join(g.char for g in line).startswith(first):
                return line, lines[n + 1]
    raise AssertionError(first)


@pytest.mark.parametrize("mark, column", [("※", 1), ("注：", 2), ("＊", 1), ("※1", 2)])
def test_a_wrapped_note_hangs_under_its_text(pages, mark, column):
    """「　※スーパー…」 over two lines: the ※ where the paragraph's indent puts it, the text an em
    right of it and the second line starting under the text, not under the ※ (注： two ems: its ：
    a full em; an unindented ＊ at the text's left; ※1, an em and a half, keeps the 和欧間 from the
    text after its digit, rounded up to two ems: 「※1スーパー」 touched)."""
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
    assert note_mark("※ ただし例外です。") == ("※", "ただし例外です。")  # the IME in half-width mode
    assert note_mark("＊ ただし") == ("＊", "ただし")


def test_a_note_typed_with_a_half_width_space_is_a_note_not_a_diagram():
    """「※ 注。」, its space typed half-width: a short one was a diagram (a boxed, centred grid
    of characters), a long one no note (its lines not hanging); both are notes now."""
    from pnpgen.rulebook.tree import DraftParagraph, Item

    doc = parse("■■　テスト　草案１\n\n■　ルール\n\n　本文です。\n※ 半角空白の注。\n" f"※ {LONG}\n\n■　終了\n")
    blocks = [b for b in doc.rules[0].children if isinstance(b, (DraftParagraph, Item))]
    assert [(type(b).__name__, note_mark(b.text)[0]) for b in doc.rules[0].children] == [
        ("DraftParagraph", ""), ("Item", "※"), ("Item", "※")], doc.rules[0].children
    assert note_mark(blocks[2].text)[1] == LONG


def _heading(book: bytes, pages, text: str) -> list[tuple[str, float, float]]:
    """The glyphs (character, x, y) of the heading line that reads ``text``, as drawn."""
    for n, page in enumerate(pages, start=1):
        if text in "".join(g.char for g in page):
            drawn = shown(book, n)
            chars = "".join(c for c, _, _ in drawn)
            at = chars.index(text)
            return drawn[at:at + len(text)]
    raise AssertionError(text)


def test_a_headings_colon_takes_a_full_em(book, pages):
    """「◆ 例：合わせ札」 in the bold proportional face: 例 to 合 is two ems of the heading's
    10.5 pt (the ： on its full em, JLREQ 3.1.9), not the 1.3 ems its own glyph gave; and the
    heading's text is its own, no space added round the ：."""
    at = {c: x for c, x, _ in _heading(book, pages, "例：合わせ札")}
    assert at["合"] - at["例"] == pytest.approx(2 * 10.5 * PT, abs=0.05)
    # its glyph (half an em) centred on its em: a quarter em in from the em after 例
    assert at["："] - at["例"] == pytest.approx(1.25 * 10.5 * PT, abs=0.05)
    lines = [line for p in PdfReader(io.BytesIO(book)).pages for line in p.extract_text().splitlines()]
    assert "◆例：合わせ札の取り方" in lines  # as the draft wrote it (no-break spaces stood round its ：; the ◆ a mark)


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


def _page_of(pages, first: str) -> int:
    return next(n for n, page in enumerate(pages) if first in "".join(g.char for g in page if g.char.strip()))


def _in_tint(tints, line) -> bool:
    y = line[0].y
    return any(left < line[0].x and top < y < bottom for left, top, bottom in tints)


def test_an_example_and_a_caution_are_boxed(book, pages):
    """「【例】」 over two lines, and 「注意：…」 with its text on the label's line: each a tinted box
    (its label, 例 or 注意, a small bold heading on a line of its own, the text an em in from the
    box's edge, a list's item in it too); the paragraph after the box is outside it."""
    tints = _tints(book)
    at = _page_of(pages, "場札に「桜に短冊」があれば")
    label, text = _lines(pages, "例")  # the label's line, and the first line of its text
    assert "".join(g.char for g in label) == "例" and label[0].size < 9
    assert "".join(g.char for g in text).startswith("場札に「桜に短冊」")
    item, _ = _lines(pages, "・山札の札も")
    assert _in_tint(tints[at], label) and _in_tint(tints[at], text) and _in_tint(tints[at], item)
    left = min(t[0] for t in tints[at])
    assert label[0].x == pytest.approx(left + 9 * PT, abs=0.2)  # an em in from the box's edge
    assert text[0].x == pytest.approx(label[0].x + 9 * PT, abs=0.2)  # and the paragraph's indent
    caution, words = _lines(pages, "注意")
    assert "".join(g.char for g in caution) == "注意"
    assert "".join(g.char for g in words).startswith("【雨札】を含む役")
    assert _in_tint(tints[_page_of(pages, "【雨札】を含む役")], words)
    after, _ = _lines(pages, "例のあとの本文です")
    assert not _in_tint(tints[_page_of(pages, "例のあとの本文です")], after)


def test_a_long_example_breaks_cleanly_across_pages(book, pages):
    """An example of sixteen paragraphs, taller than a box kept whole: it breaks where the page
    ends, its label with two lines of text at least, the lines on the next page still in the box,
    none lost."""
    tints = _tints(book)
    first, last = _page_of(pages, "1番目の段落です"), _page_of(pages, "16番目の段落です")
    assert last > first
    shown = "".join(g.char for page in pages[first:last + 1] for g in page if g.char.strip())
    for n in range(1, 17):
        assert f"{n}番目の段落です" in shown
    head, below = _lines(pages, "1番目の段落です")
    assert _in_tint(tints[first], head) and _in_tint(tints[first], below)
    top = min((line for line in _page_lines(pages[last]) if line[0].y > 25), key=lambda line: line[0].y)
    assert _in_tint(tints[last], top), "".join(g.char for g in top)


def _page_lines(page) -> list[list]:
    rows: dict[float, list] = {}
    for g in page:
        if g.on_page and g.char.strip():
            rows.setdefault(round(g.y, 1), []).append(g)
    return [sorted(r, key=lambda g: g.x) for _, r in sorted(rows.items())]


def test_an_examples_text_is_the_rules_text():
    """The lines of an example or a caution are read as the rules' text (the proofing report's
    searches, the index, the quick reference): ``Document.blocks`` yields them; a blank line ends
    the block, and ※注意 followed by text is a ※ note, not a caution."""
    from pnpgen.rulebook.parse import parse
    from pnpgen.rulebook.tree import Aside, DraftParagraph

    doc = parse("■■　花札　草案１\n\n■　手番\n\n【例】\n　一行目です。\n　二行目です。\n\n　本文です。\n\n"
                "※注意：雨札に注意。\n\n　※注意してください。\n")
    blocks = list(doc.blocks())
    example, caution = [b for b in blocks if isinstance(b, Aside)]
    assert (example.kind, example.label, example.line) == ("example", "例", 5)
    assert [c.text for c in example.children] == ["一行目です。", "二行目です。"]
    assert (caution.kind, [c.text for c in caution.children]) == ("caution", ["雨札に注意。"])
    texts = [b.text for b in blocks if isinstance(b, DraftParagraph)]
    assert texts == ["一行目です。", "二行目です。", "本文です。", "雨札に注意。", "※注意してください。"]
