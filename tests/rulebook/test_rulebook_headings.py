"""The headings set as the text is (rulebook/headline.py): a Japanese heading's 約物 — ・：； and
the brackets 「」『』（）【】 — at their JLREQ advances in the proportional bold face, glyph by glyph,
the heading's text as the draft wrote it (no no-break spaces padding its ：, which a copied
heading and the PDF outline carried); a run-in ◎/〇 heading's term set so too; an English
heading or paragraph never ends on a line of one word; an English book's aligned table in its
Latin face."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from conftest import DRAFT, GAME_YAML, REPO, make_workspace
from pdfprobe import glyphs, shown
from pnpgen import fonts as fontreg
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.headline import heading_lines
from pnpgen.rulebook.paralines import set_lines

PT = 25.4 / 72
RULES = ("■　準備・手順：基本\n\n　山札を作ります。\n\n"
         "◇「合わせ札」の取り方（基本）\n　場札から１枚を選んで取ります。\n\n"
         "◎神の怒り（Wrath of God）\n　戦争に敗北したら、キューブを１個置きます。\n"
         "傲慢のメダリオン（３）：手札を好きなだけ捨て札にできる\n"
         "憤怒のメダリオン（５）：同時にプレイした軍勢の数字を２倍にする\n\n"
         "■　ゲームの進行")
# headings of two lines (after the draft's last section)
LONG = ("\n■　ゲームの進行と手札と山札と捨て札の扱いと勝利の条件\n\n"
        "◇とても長い見出しの例として手札と山札と捨て札と場札の扱いをまとめて説明する\n　本文です。\n"
        # (one that wraps in the contents too, its smaller type on the page's full width)
        "\n■　ラウンドの終わりと山札の作り直しと手札の上限と捨て札の扱いと得点の数え方のまとめ\n\n　本文です。\n")


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> bytes:
    ws = make_workspace(tmp_path_factory.mktemp("headings") / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("■　ゲームの進行", RULES) + LONG, encoding="utf-8")
    return build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts").files["rulebook.pdf"]


def _drawn(book: bytes, text: str, skip: int = 0) -> tuple[int, list[tuple[str, float, float]]]:
    """The page (from 1) and the glyphs (character, x mm, y mm) of the ``skip``-th drawn run that
    reads ``text`` (the operations' own places: a heading's glyphs are drawn one at a time)."""
    for n in range(1, len(PdfReader(io.BytesIO(book)).pages) + 1):
        drawn = shown(book, n)
        chars = "".join(c for c, _, _ in drawn)
        at = chars.find(text)
        while at >= 0 and skip:
            at, skip = chars.find(text, at + 1), skip - 1
        if at >= 0:
            return n, drawn[at:at + len(text)]
    raise AssertionError(text)


def _width(ch: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(ch, fontreg.register(font, REPO / "fonts"), size) * PT


BOLD = "BIZUDPGothic-Bold"


def test_a_wrapped_headings_second_line_hangs_after_its_number_or_mark(book):
    """A section's heading of two lines: its second line starts where its title does, after the
    number and the em after it, not under the number (as the text's numbered steps hang); a ◇
    sub-heading's second line after its ◆ and the space (docs/rulebook.md)."""
    # (the contents list it first, on one line; a line the heading draws in one run reads as its
    # first character)
    _, (number, gap, first, *_) = _drawn(book, "5\u3000ゲームの進行と", skip=1)
    _, (*_, second) = _drawn(book, "扱いと勝", skip=1)
    assert second[2] > first[2] + 3  # a line below
    assert number[1] < first[1] - 5  # the number stands left of the title's start …
    assert second[1] == pytest.approx(first[1], abs=0.05)  # … and the second line starts with the title
    _, (mark, title, *_) = _drawn(book, "◆とても長い")
    _, (*_, under) = _drawn(book, "扱いをま")
    assert under[2] > mark[2] + 3
    assert under[1] == pytest.approx(title[1], abs=0.05) and under[1] > mark[1] + 2


def test_a_wrapped_contents_entry_hangs_after_its_number(book):
    """The contents' line of a section's heading too long for one line: its second line starts
    under the entry's text, after its number and gap, as the wrapped heading's own does (book47: it
    started under the number, the section's number lost among the titles)."""
    rows: dict[float, list] = {}
    for g in glyphs(book)[1]:  # the contents page, its characters by line
        rows.setdefault(round(g.y, 1), []).append(g)
    lines = [sorted(gs, key=lambda g: g.x) for _, gs in sorted(rows.items())]
    at = next(k for k, line in enumerate(lines) if "".join(g.char for g in line).startswith("6\u3000ラウンド"))
    number, second = lines[at][0], lines[at + 1][0]
    assert second.char == "得" and second.y > number.y + 3  # a line below
    # (the line is one marked run, its glyphs read at its start: the title's is the number's and the em after it)
    title = number.x + _width("6", number.font, number.size) + number.size * PT
    assert second.x == pytest.approx(title, abs=0.05) and second.x > number.x + 5


def test_a_headings_text_is_its_own_in_the_page_the_contents_and_the_outline(book):
    """Copied out of the page (pypdf, which reads the glyphs; PDFium, which reads a marked line's
    ActualText), the contents' line and the outline, 「準備・手順：基本」 holds no space the draft did
    not write (no-break spaces stood either side of its ・ and ：); the gap after the section's
    number copies as the ideographic space the outline holds (it copied as a word space), and a
    mark's gap as nothing (「◆「合わせ札」…」 and the quick reference's 「●ゲームの流れ」 copied as
    「◆ 「…」 and 「● ゲームの流れ」)."""
    reader = PdfReader(io.BytesIO(book))
    lines = [line for page in reader.pages for line in page.extract_text().splitlines()]
    assert "3\u3000準備・手順：基本" in lines
    assert "◆「合わせ札」の取り方（基本）" in lines
    # the contents' line (pypdf reads one or two spaces before its leader, by where its dots fall)
    assert any(re.match("3\u3000準備・手順：基本 +\\. ", line) for line in lines)
    assert "3\u3000準備・手順：基本" in [item.title for item in reader.outline if not isinstance(item, list)]
    assert not any("\u00a0" in line for line in lines if "準備" in line or "合わせ札" in line)
    assert "●ゲームの流れ" in lines and "● ゲームの流れ" not in lines  # the quick reference's
    pdf = pdfium.PdfDocument(book)
    seen = [line.strip() for page in pdf for line in page.get_textpage().get_text_range().splitlines()]
    assert "3\u3000準備・手順：基本" in seen and "◆「合わせ札」の取り方（基本）" in seen
    assert "●ゲームの流れ" in seen


def test_a_heading_with_no_other_gap_copies_its_ideographic_space_in_pdfium(book):
    """「4　ゲームの進行」 holds no 約物, so no gap made its line a marked span: PDFium (and poppler's
    pdftotext) read the U+3000 glyph after the number as an ASCII space, 「4 ゲームの進行」, on the
    page and in the contents. The line holding an ideographic space is a span whose ActualText is
    the heading's own text, as the outline's."""
    pdf = pdfium.PdfDocument(book)
    seen = [line.strip() for page in pdf for line in page.get_textpage().get_text_range().splitlines()]
    heads = [line for line in seen if line.endswith("ゲームの進行") or line.startswith(("4 ", "4\u3000"))]
    assert "4\u3000ゲームの進行" in heads, heads
    assert any(line.startswith("4\u3000ゲームの進行 . ") for line in seen)  # the contents' line
    assert not [line for line in seen if line[:1].isdigit() and " ゲームの進行" in line], seen
    outline = [item.title for item in PdfReader(io.BytesIO(book)).outline if not isinstance(item, list)]
    assert "4\u3000ゲームの進行" in outline, outline


@pytest.mark.parametrize("skip, size", [(1, 14.0), (0, 10.0)])  # the section's heading; its contents line
def test_a_headings_middle_dot_and_colon_take_a_full_em(book, skip, size):
    """備・手 and 順：基: the mark's em between the two characters (JLREQ 3.1.9: a quarter em either
    side of its half em of ink), its ink centred; the face's own ・ is half an em wide."""
    _, head = _drawn(book, "準備・手順：基本", skip)
    face = BOLD if size == 14.0 else "BIZUDPGothic-Regular"
    at = {c: x for c, x, _ in head}
    for before, mark, after in (("備", "・", "手"), ("順", "：", "基")):
        end = at[before] + _width(before, face, size)
        assert at[after] - end == pytest.approx(size * PT, abs=0.03)
        assert at[mark] + _width(mark, face, size) / 2 == pytest.approx(end + size * PT / 2, abs=0.03)


@pytest.mark.parametrize("skip, size", [(1, 14.0), (0, 10.0)])  # the section's heading; its contents line
def test_the_gap_after_a_headings_number_is_a_full_em(book, skip, size):
    """「3　準備…」 and 「4　ゲームの進行」: the ideographic space after a section's number is set a full
    em of the heading's size (全角アキ, JLREQ 4.1.2's block heading: number, space, text), in the
    heading and in its contents line; it printed as the face's word space, some 0.3 em."""
    for number, text in (("3", "準備・手順：基本"), ("4", "ゲームの進行")):
        _, head = _drawn(book, number + "\u3000" + text, skip)
        face = BOLD if size == 14.0 else "BIZUDPGothic-Regular"
        (_, x_number, y), _, (_, x_text, y_text) = head[:3]
        assert x_text - (x_number + _width(number, face, size)) == pytest.approx(size * PT, abs=0.03), head[:3]
        assert y_text == pytest.approx(y, abs=0.01)


def _strings(page, above: float = 15.0) -> list[tuple[str, float]]:
    """Each string ``page`` shows ``above`` mm from its top (the running head) and the x (mm) it
    shows it at (pypdf: a marked span's own glyphs)."""
    runs: list[tuple[str, float]] = []
    top = float(page.mediabox.height)

    def seen(text, cm, tm, font, size):
        if text.strip() and (top - cm[5] - tm[5]) * PT < above:
            runs.append((text.strip(), (cm[4] + tm[4]) * PT))
    page.extract_text(visitor_text=seen)
    return runs


def test_the_running_heads_section_keeps_its_headings_full_em_gap(tmp_path):
    """A section that carries its own number (a wargame's 「■　２．０　移動」) is named so in the running
    head, 「2.0　移動」: its U+3000 is an em of the head's 7 pt there as in the heading (it was the
    face's own ideographic space, 0.67 em), and the head copies as 「2.0　移動」 in PDFium too (the
    line a marked span: PDFium reads a blank glyph drawn alone as an ASCII space)."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(
        "■■　テストゲーム　草案３\n\n■　１．０　概要\n１．１　テスト用のゲームです。\n\n"
        "■　２．０　移動\n" + "２．１　師団駒は４ヘクス移動します。\n" * 40, encoding="utf-8")
    book = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts", rules_only=True).files["rulebook.pdf"]
    heads = [_strings(page) for page in PdfReader(io.BytesIO(book)).pages]
    moving = [h for h in heads if any(t.startswith("2.0") for t, _ in h)]
    assert moving, heads
    for head in moving:
        at = {t: x for t, x in head}
        number = sum(_width(ch, "BIZUDPGothic-Regular", 7.0) for ch in "2.0")
        assert at["移動"] - at["2.0"] - number == pytest.approx(7 * PT, abs=0.02), head
    seen = [line.strip() for page in pdfium.PdfDocument(book) for line in page.get_textpage().get_text_range().splitlines()]
    assert any(line.startswith("2.0\u3000移動") for line in seen), seen[:40]


@pytest.mark.parametrize("room", [0.5, 4.0])  # points past the line as the face measures its U+3000
def test_a_headings_line_holding_its_em_gap_stays_inside_the_width(room):
    """The 　 after a Japanese heading's number is drawn an em wide, wider than the face's own
    (BIZ UDPGothic's: 0.67 em): a line is broken with that em in it, so a heading that fits only as
    the face measures its 　 wraps rather than running past the column (review38)."""
    from reportlab.lib.styles import ParagraphStyle

    from pnpgen.rulebook.headline import HeadText, heading_cells

    bold = fontreg.register(BOLD, REPO / "fonts")
    style = ParagraphStyle("h", fontName=bold, fontSize=14, leading=20)
    text = "3\u3000" + "準備手順" * 6
    as_the_face = sum(advance for advance, _ in heading_cells(text, bold, 14.0, False))
    head = HeadText(text, style)
    head.wrap(as_the_face + room, 1000)
    drawn = [sum(advance for advance, _ in head._cells(head.text[a:b].rstrip())) for a, b in head.lines]
    assert all(width <= as_the_face + room for width in drawn), (drawn, as_the_face + room)
    assert len(head.lines) == 2, head.lines  # (the em kept in the measure: the line's last phrase on a second)


def test_a_headings_brackets_are_set_half_an_em_with_the_bodys_aki(book):
    """「合わせ札」の取り方（基本）in the ◇ heading's 10.5 pt bold: the face's brackets are half an em
    of ink; set as the body sets them, 」 keeps its half-em aki before の, （ its half em after 方
    (方 to 基 one em and the bracket), the ink of an opening bracket at the right of its half."""
    _, head = _drawn(book, "「合わせ札」の取り方（基本）")
    at = {c: x for c, x, _ in head}
    em = 10.5 * PT
    assert at["の"] - (at["札"] + _width("札", BOLD, 10.5)) == pytest.approx(em, abs=0.03)  # 」 and its aki
    end = at["方"] + _width("方", BOLD, 10.5)
    assert at["基"] - end == pytest.approx(em, abs=0.03)
    assert at["（"] + _width("（", BOLD, 10.5) == pytest.approx(at["基"], abs=0.03)  # its ink against 基


def test_a_run_in_headings_term_is_set_as_a_heading(book):
    """◎神の怒り（Wrath of God）, a run-in heading: its term in bold at the start of its text, its
    brackets at the body's widths (り to W: the half-em aki and the bracket), then the ideographic
    space and the text, copied as the draft wrote it."""
    _, term = _drawn(book, "神の怒り（Wrath of God）\u3000戦")
    at = {c: x for c, x, _ in term}
    assert at["W"] - (at["り"] + _width("り", BOLD, 9.0)) == pytest.approx(9.0 * PT, abs=0.03)
    # the ） closed up to the ideographic space after the term (not its half em and the space)
    assert at["戦"] - (at["）"] + _width("）", BOLD, 9.0)) == pytest.approx(_width("\u3000", BOLD, 9.0), abs=0.03)
    lines = [line for page in PdfReader(io.BytesIO(book)).pages for line in page.extract_text().splitlines()]
    assert any(line.startswith("◎神の怒り（Wrath of God）\u3000戦争に") for line in lines), lines


def test_an_items_term_reads_as_written_its_colon_a_full_em_before_the_text(book):
    """傲慢のメダリオン（３）：手札を…, an item: its term's ： a full em (JLREQ 3.1.9, its ink
    centred in the em after ）'s), the text after it from the em's end; copied out (pypdf), the
    line holds no space after the ： (its ink a quarter em short of the text read as one)."""
    _, term = _drawn(book, "メダリオン（３）：手")
    at = {c: x for c, x, _ in term}
    em = 9.0 * PT
    closed = at["）"] + _width("）", BOLD, 9.0)  # the bracket's ink, closed up to the ：
    assert at["："] + _width("：", BOLD, 9.0) / 2 == pytest.approx(closed + em / 2, abs=0.03)
    assert at["手"] == pytest.approx(closed + em, abs=0.03)
    lines = [line for page in PdfReader(io.BytesIO(book)).pages for line in page.extract_text().splitlines()]
    assert "傲慢のメダリオン（３）：手札を好きなだけ捨て札にできる" in lines, [x for x in lines if "メダリオン" in x]
    assert "憤怒のメダリオン（５）：同時にプレイした軍勢の数字を２倍にする" in lines


def test_a_last_line_of_one_word_takes_a_word_down():
    """A runt: 'aaa bbb ccc ddd / eee' is set 'aaa bbb ccc / ddd eee' when the line above stays
    justified within an em a word space; left as it is when that line would open wider."""
    text = "aaa bbb ccc ddd eee"
    one = lambda ch: 1.0  # noqa: E731
    assert [text[s:e].strip() for s, e in set_lines(text, 16, one, em=9, lang="en")] == ["aaa bbb ccc", "ddd eee"]
    assert [text[s:e].strip() for s, e in set_lines(text, 16, one, em=1, lang="en")] == ["aaa bbb ccc ddd", "eee"]


def test_a_heading_never_ends_on_a_line_of_one_word():
    """「1 Scoring and the end of a very long game round」 at 14 pt in a measure that ends its first
    line after 'game': the heading's last line takes 'game' down with 'round'."""
    font = fontreg.register("NotoSans-Bold", REPO / "fonts")
    text = "1 Scoring and the end of a very long game round"
    width = pdfmetrics.stringWidth("1 Scoring and the end of a very long game", font, 14) + 2
    assert [text[s:e].strip() for s, e in heading_lines(text, font, 14, width, True, "en")] == [
        "1 Scoring and the end of a very long", "game round"]


TABLE = """\
# Frontier Reach (Draft 1)

## Scoring

At the end of each round, score as this table says:

  Terrain      Points
  Forest       1 per connected tile
  Lake         2 per tile

Then start again.
"""


def test_an_english_books_table_is_set_in_its_latin_face(tmp_path):
    """The scoring table of an English draft was set in BIZ UDゴシック (the grid's face) among
    Noto text: it is set in the book's Latin face (Noto Sans), each column an em past the widest
    cell before it, its rows' columns aligned."""
    game = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ntitle: {ja: テストゲーム, en: Test Game}")
    ws = make_workspace(tmp_path / "ws", game=game, draft=True)
    (ws / "data" / "test" / "draft.en.txt").write_text(TABLE, encoding="utf-8")
    pdf = build_rulebook(load_game(Workspace(ws), "test", lang="en"), ws / "fonts").files["rulebook.pdf"]
    page = next(p for p in glyphs(pdf) if "Terrain" in "".join(g.char for g in p))
    table = [g for g in page if g.char.strip() and g.size == pytest.approx(9.5)]
    assert {g.font for g in table} == {"NotoSans-Regular"}
    first = {g.char: g for g in reversed(table)}  # each character's first glyph
    terrain, column = first["T"].x, first["P"].x
    assert first["F"].x == pytest.approx(terrain, abs=0.01) and first["L"].x == pytest.approx(terrain, abs=0.01)
    assert first["1"].x == pytest.approx(column, abs=0.01) and first["2"].x == pytest.approx(column, abs=0.01)
    widest = max(sum(_width(c, "NotoSans-Regular", 9.5) for c in word) for word in ("Terrain", "Forest", "Lake"))
    assert column - terrain == pytest.approx(widest + 9.5 * PT, abs=0.02)


def test_a_japanese_headings_latin_letters_and_digits_keep_a_quarter_em_of_wakan():
    """JLREQ 3.2.1 (和欧間): a heading sets a quarter em between Japanese and a Latin letter or digit
    as the body does (「第2版」 had the face's own spacing only); a Latin heading keeps its own."""
    from pnpgen.rulebook.headline import heading_cells
    bold = fontreg.register(BOLD, REPO / "fonts")
    cells = heading_cells("第2版のVP", bold, 10.0, False)
    own = [pdfmetrics.stringWidth(ch, bold, 10.0) for ch in "第2版のVP"]
    assert [round(a - w, 3) for (a, _), w in zip(cells, own)] == [2.5, 2.5, 0.0, 2.5, 0.0, 0.0]
    assert [a for a, _ in heading_cells("第2版", bold, 10.0, True)] == own[:3]


def test_a_term_and_the_line_it_runs_into_read_as_one_text_in_pdfium():
    """An item's term and a run-in heading's term ending in 　 are a marked line (ActualText): PDFium
    read a space after its span, 「（３）： 手札を…」 and 「（Wrath of God）　 戦争に…」; the span now holds
    the line the term runs into, so every reader (pypdf, PDFium, poppler) reads the draft's text."""
    import subprocess

    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.rulebook.flowables import JPara
    body = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    bold = fontreg.register(BOLD, REPO / "fonts")
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(400, 100))
    for k, (term, text) in enumerate([("傲慢のメダリオン（３）：", "手札を好きなだけ捨て札にできる"),
                                      ("〇神の怒り（Wrath of God）\u3000", "戦争に敗北したら")]):
        para = JPara(text, body, 9, 15, prefix=term, prefix_font=bold)
        para.wrapOn(canvas, 380, 100)
        para.drawOn(canvas, 10, 60 - 30 * k)
    canvas.save()
    want = ["傲慢のメダリオン（３）：手札を好きなだけ捨て札にできる", "〇神の怒り（Wrath of God）\u3000戦争に敗北したら"]
    assert pdfium.PdfDocument(out.getvalue())[0].get_textpage().get_text_range().split("\r\n") == want
    assert PdfReader(out).pages[0].extract_text().split("\n") == want
    poppler = subprocess.run(["pdftotext", "-", "-"], input=out.getvalue(), capture_output=True, check=True).stdout
    assert [line for line in poppler.decode().split("\n") if line.strip()] == want


def test_a_long_sections_title_in_the_running_head_is_cut_short_of_the_books_title(tmp_path):
    """trial72: a section titled in 50 characters printed them whole in the running head, over the
    book's title and draft at the inner edge and on past the page's outer margin. The head keeps
    two ems of its 7 pt between them and cuts the section's title with …; a short one stays whole."""
    long = "ゲームの終了――どちらかの庭師が最後の石を置き終え、静けさが庭のすみずみまで満ちて、鳥の声も風の音も遠のいたとき"
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(
        "■■　テストゲーム　草案３\n\n■　概要\n\n　テスト用のゲームです。\n\n"
        f"■　{long}\n\n" + "　石を１つ置き、苔を育て、庭を整えます。\n" * 90, encoding="utf-8")
    book = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts", rules_only=True).files["rulebook.pdf"]
    heads = [sorted((g for g in page if g.on_page and g.y < 14), key=lambda g: g.x) for page in glyphs(book)[2:]]
    cut = [h for h in heads if any(g.char == "…" for g in h) and any(g.char == "ゲ" for g in h)]
    assert len(cut) >= 2, ["".join(g.char for g in h) for h in heads]  # pages going on with the long section
    for head in cut:
        said = "".join(g.char for g in head)
        ends = [g.x + _width(g.char, g.font, g.size) for g in head]
        assert 15 - 0.01 <= head[0].x and max(ends) <= 148 - 15 + 0.01, said  # inside the text's width
        at = said.index("テスト")
        if at:  # a left-hand page: the section at its outer (left) edge, cut two ems short of the title
            gap = head[at].x - ends[at - 1]
        else:  # a right-hand page: the title (no draft: the book to hand out) at the left
            gap = head[6].x - ends[5]
        assert gap >= 2 * 7 * PT - 0.3, (said, gap)
    short = [h for h in heads if "".join(g.char for g in h).startswith("概要")]
    assert all("…" not in "".join(g.char for g in h) for h in short)


def test_a_long_books_title_in_the_running_head_is_cut_and_leaves_the_section_room(tmp_path):
    """hostile46: game.yaml's title may be 200 characters; the running head printed it whole, past
    the rule and the page's outer margin, and the section's title was cut to nothing over it. The
    title is cut with … where it would leave the section less than half the line, two ems apart."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(re.sub(r"(?m)^title: .*$", "title: " + "王" * 150, game.read_text(encoding="utf-8")), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(
        "■■　" + "王" * 150 + "　草案３\n\n■　概要\n\n" + "　石を１つ置き、苔を育て、庭を整えます。\n" * 60, encoding="utf-8")
    book = build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts", rules_only=True).files["rulebook.pdf"]
    heads = [sorted((g for g in page if g.on_page and g.y < 14), key=lambda g: g.x) for page in glyphs(book)[2:]]
    heads = [h for h in heads if any(g.char == "概" for g in h)]
    assert len(heads) >= 2
    for head in heads:
        said = "".join(g.char for g in head)
        ends = [g.x + _width(g.char, g.font, g.size) for g in head]
        assert 15 - 0.01 <= head[0].x and max(ends) <= 148 - 15 + 0.01, said  # inside the text's width
        assert "王…" in said and "概要" in said, said
        titles = [g for g in head if g.char in "王…"]
        section = [g for g in head if g.char in "概要"]
        gap = section[0].x - ends[head.index(titles[-1])] if section[0].x > titles[0].x \
            else titles[0].x - ends[head.index(section[-1])]
        assert gap >= 2 * 7 * PT - 0.3, (said, gap)
