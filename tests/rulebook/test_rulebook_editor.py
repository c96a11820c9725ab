"""An editor's pass over the four rulebooks (book8): a draft table's header row is set off by a
rule under it; the proofing notes never leave one note alone on the last page."""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from conftest import DRAFT, REPO, make_workspace
from pdfprobe import glyphs
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.parse import heads_a_table

TABLE = "　人数　　手札　　山札\n　３人　　５枚　　２０枚\n　４人　　４枚　　１６枚\n"


def _book(tmp_path, table: str) -> bytes:
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = DRAFT.replace("■　ゲームの進行", "■　ゲームの準備\n\n　人数に応じて手札を配ります。\n\n" + table + "\n■　ゲームの進行")
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    return build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"]


def _lines(page) -> list[tuple[float, str, tuple[float, float]]]:
    """The page's lines of text, top down: (baseline in mm, text, (left, right) in mm)."""
    rows: dict[float, list] = {}
    for g in page:
        if g.on_page and g.char.strip():
            rows.setdefault(round(g.y, 1), []).append(g)
    return [(y, "".join(g.char for g in sorted(r, key=lambda g: g.x)), (min(g.x for g in r), max(g.x for g in r)))
            for y, r in sorted(rows.items())]


def _rules(book: bytes, page: int) -> list[tuple[float, float, float]]:
    """The flat strokes the page draws itself: (left, right, y) in mm from the page's top-left."""
    pdf = pdfium.PdfDocument(book)
    height = pdf[page].get_height()
    out = []
    for o in pdf[page].get_objects(max_depth=1):
        if o.type == raw.FPDF_PAGEOBJ_PATH:
            x0, y0, x1, y1 = (v * 25.4 / 72 for v in o.get_bounds())
            if y1 - y0 < 0.5 and x1 - x0 > 10:
                out.append((x0, x1, (height * 25.4 / 72) - (y0 + y1) / 2))
    return out


def test_a_tables_header_row_has_a_rule_under_it(tmp_path):
    """「人数　手札　山札」 over rows of figures: a rule between it and the first row, as wide as the
    table's columns; the rows of figures have none between them."""
    book = _book(tmp_path, TABLE)
    pages = glyphs(book)
    at = next(n for n, p in enumerate(pages) if "人数手札山札" in [t for _, t, _ in _lines(p)])
    lines = _lines(pages[at])
    head, left_x, right_x = next((y, x0, x1) for y, t, (x0, x1) in lines if t == "人数手札山札")
    row1 = next(y for y, t, _ in lines if t == "３人５枚２０枚")
    row2 = next(y for y, t, _ in lines if t == "４人４枚１６枚")
    under = [r for r in _rules(book, at) if head < r[2] < row1 - 2]  # (a baseline: the row's ink stands above it)
    assert len(under) == 1, _rules(book, at)
    left, right, _ = under[0]
    assert left < left_x and right > right_x
    assert not [r for r in _rules(book, at) if row1 < r[2] < row2]


ROLES = "　役職　　５人　　６人　　７人\n　市民　　１　　　２　　　２\n　影　　　１　　　１　　　２\n"


def test_a_player_count_tables_header_has_a_rule_under_it(tmp_path):
    """A hidden-role game's table of roles by player count, 「役職　　５人　　６人」 over 「市民　　１　　２」,
    had no rule under its head: its header holds numbers (５人). Numbers that count something, no
    cell a number alone, over rows each holding a number alone, are a header too."""
    book = _book(tmp_path, ROLES)
    pages = glyphs(book)
    at = next(n for n, p in enumerate(pages) if "役職５人６人７人" in [t for _, t, _ in _lines(p)])
    lines = _lines(pages[at])
    head = next(y for y, t, _ in lines if t == "役職５人６人７人")
    row1 = next(y for y, t, _ in lines if t == "市民１２２")
    assert len([r for r in _rules(book, at) if head < r[2] < row1 - 2]) == 1, _rules(book, at)


def test_only_a_row_of_words_over_rows_of_figures_heads_a_table():
    assert heads_a_table(TABLE.splitlines())
    assert not heads_a_table(["　　〜２枚：０", "　　３　枚：１", "　　４　枚：２", "　５〜　枚：３"])  # all figures
    assert not heads_a_table(["　（左内地）　 （右内地）", "", "　 ③□□　　　　□□③", "　②◆□□　　　□□◆②"])  # a map
    assert not heads_a_table(TABLE.splitlines()[:2])  # one row under it is no table
    assert heads_a_table(ROLES.splitlines())  # counted numbers over numbers alone
    assert heads_a_table(["  Role     5p  6p", "  Citizen  1   2", "  Shadow   1   1"])  # an English draft's
    assert not heads_a_table(["  Role     5   6", "  Citizen  1   2", "  Shadow   1   1"])  # a row of numbers
    assert not heads_a_table(["　市民　　１　　２", "　影　　　１　　１", "　道化　　０　　１"])  # every row a number alone
    assert not heads_a_table(["　５人　　１枚", "　６人　　１　", "　７人　　２　"])  # the first row holds none alone: a row of data


KINDS = ("誤記", "未定", "表記ゆれ", "個数", "内容物", "要確認", "数の不一致", "用語")


@pytest.mark.parametrize("game", ["populous", "alicematic-eiketsuden", "asian-delivery"])
def test_the_proofing_notes_last_page_holds_two_notes_at_least(built, game):
    """populous p22 held one proofing note alone (「につい」→「につき」) before the colophon: the notes
    are a list, which never leaves its last item alone at a page's head."""
    pages = glyphs(built / game / "rulebook.pdf")
    last = pages[-2]  # (the colophon is the last page)
    notes = [t for _, t, _ in _lines(last) if t.startswith(KINDS)]
    assert len(notes) >= 2, notes


def _faq_book(tmp_path, pairs: int) -> list[list[tuple[float, str, tuple[float, float]]]]:
    """A book whose last section holds ``pairs`` questions and answers, answers of one to three
    lines: each page's lines (``_lines``)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    faq = "".join(f"Ｑ：質問{k}ですか？\nＡ：" + "答えの文です。" * (1 + k % 3 * 5) + "\n" for k in range(pairs))
    draft = DRAFT + "\n■　よくある質問\n\n" + faq
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    book = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts", rules_only=True).files["rulebook.pdf"]
    return [_lines(page) for page in glyphs(book)]


def test_questions_and_answers_print_as_pairs_kept_on_one_page(tmp_path):
    """trial59: a FAQ's 「Ｑ：…」 「Ａ：…」 lines printed as one run, pair after pair without a gap, and a
    question could end a page with its answer on the next: each pair is set off by a blank line
    above its question (none between question and answer) and kept on one page."""
    pages = _faq_book(tmp_path, 24)
    heads = [(n, y, text[0]) for n, lines in enumerate(pages) for y, text, _ in lines if text[:2] in ("Ｑ：", "Ａ：")]
    assert sum(1 for *_, kind in heads if kind == "Ｑ") == 24
    pitch = 15 * 25.4 / 72  # the body's line
    for (n, y, kind), (n2, y2, kind2) in zip(heads, heads[1:]):
        if kind == "Ｑ":  # its answer: on the next line of the same page
            assert kind2 == "Ａ" and n2 == n and y2 - y == pytest.approx(pitch, abs=0.2), (n, y, n2, y2)
    questions = [(n, y) for n, y, kind in heads if kind == "Ｑ"]
    for (n, y), (n2, y2) in zip(questions, questions[1:]):
        if n2 == n:  # the answer's last line, then a blank line's space: two lines or more apart
            last = max(yy for yy, text, _ in pages[n] if y < yy < y2)
            assert y2 - last == pytest.approx(2 * pitch, abs=0.2), (n, last, y2)
