"""Line setting of the rulebook body (set_lines over text.linebreak.fill), the rulebook settings
in game.yaml, and the index readings."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from pnpgen import fonts as fontreg
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.rulebook.figures import load_settings
from pnpgen.rulebook.jlreq import jlreq_advances, squeezable
from pnpgen.rulebook.paralines import _visible, set_lines
from pnpgen.rulebook.parse import parse
from pnpgen.rulebook.reader import read_draft
from pnpgen.rulebook.styles import (
    BODY_SIZE,
    EVEN_LETTER_SPACING,
    MARGIN_INNER,
    MARGIN_OUTER,
    MAX_LETTER_SPACING,
    MIN_LAST_LINE,
    PAGE_W,
)
from pnpgen.rulebook.termindex import kana_row, reading
from pnpgen.rulebook.tree import DraftParagraph
from pnpgen.text import linecheck

ROOT = Path(__file__).resolve().parents[2]
SLUGS = ["alicematic-eiketsuden", "alicematic-medallions", "populous", "asian-delivery"]
WIDTH = PAGE_W - MARGIN_INNER - MARGIN_OUTER


@pytest.fixture(scope="module")
def measure():
    font = fontreg.register("BIZUDPMincho-Regular", ROOT / "fonts")
    return lambda c: pdfmetrics.stringWidth(c, font, BODY_SIZE)


@pytest.fixture(scope="module")
def paragraphs():
    out = []
    for slug in SLUGS:
        doc = parse(read_draft(ROOT / "data" / slug / "draft.txt").text)
        out += [b.text for b in doc.blocks() if isinstance(b, DraftParagraph)]
    return out


def test_every_paragraph_is_set_within_jlreq(paragraphs, measure):
    """Every paragraph of the four drafts at the A5 text width: all text kept, every line fits,
    and the typography module's independent checker finds nothing but breaks inside a BudouX
    phrase (a justified book page breaks between any two characters the rules allow)."""
    assert len(paragraphs) > 400
    for text in paragraphs:
        lines = [text[s:e] for s, e in set_lines(text, WIDTH, measure, BODY_SIZE, BODY_SIZE)]
        assert "".join(lines) == text
        widths = [sum(map(measure, ln)) + (BODY_SIZE if i == 0 else 0) for i, ln in enumerate(lines)]
        assert all(w <= WIDTH + 1e-6 for w in widths)
        problems = linecheck.check_plain(text, [ln.rstrip(" ") for ln in lines], WIDTH, measure, "rulebook")
        assert [p for p in problems if "inside phrase" not in p and "first line" not in p] == []


def test_lines_are_full_and_spacing_stays_within_the_limit(paragraphs, measure):
    """A line other than a paragraph's last ends within the letter-spacing limit of the edge
    (so justifying it never spreads letters further), with rare exceptions (a long Latin word)."""
    loose = total = 0
    for text in paragraphs:
        ranges = set_lines(text, WIDTH, measure, BODY_SIZE, BODY_SIZE)
        for i, (s, e) in enumerate(ranges[:-1]):
            line = text[s:e].rstrip(" ")
            room = WIDTH - (BODY_SIZE if i == 0 else 0)
            total += 1
            loose += (room - sum(map(measure, line))) / max(len(line) - 1, 1) > MAX_LETTER_SPACING * BODY_SIZE
    assert total > 300 and loose <= total * 0.005, (loose, total)


def test_no_short_last_line_where_a_re_break_avoids_it(paragraphs, measure):
    """A last line keeps three characters, or two where three would space the line above wider
    than ``EVEN_LETTER_SPACING``: never one and its 。."""
    short = two = 0
    for text in paragraphs:
        ranges = set_lines(text, WIDTH, measure, BODY_SIZE, BODY_SIZE)
        if len(ranges) > 1 and _visible(text[ranges[-1][0]:]) < MIN_LAST_LINE:
            two += 1
            short += _visible(text[ranges[-1][0]:]) < 2
    assert short == 0 and two <= len(paragraphs) * 0.05, (short, two)


def test_a_short_last_line_takes_characters_from_the_line_above(measure):
    per_line = int(WIDTH // measure("あ"))
    text = "あ" * (per_line + 1) + "。"
    ranges = set_lines(text, WIDTH, measure)
    assert len(ranges) == 2
    assert _visible(text[ranges[1][0]:]) >= 2  # (three would space the line above 0.06 em: two characters)
    text = "あ" * (2 * per_line + 1) + "。"  # three lines: the line above the last shares the spacing with its own
    ranges = set_lines(text, WIDTH, measure)
    assert len(ranges) == 3 and _visible(text[ranges[2][0]:]) >= MIN_LAST_LINE
    spacing = [(WIDTH - sum(map(measure, text[s:e]))) / (e - s - 1) / BODY_SIZE for s, e in ranges[:-1]]
    assert 0 < max(spacing) <= EVEN_LETTER_SPACING, spacing


def test_no_line_above_a_short_last_line_is_spaced_out_loosely(paragraphs, measure):
    """The line above a last line, spaced out to give it its characters, stays within
    ``EVEN_LETTER_SPACING`` (0.064 to 0.08 em were seen beside lines of 0.01, asian-delivery's
    「…注意してく」 over 「ださい。」), with rare exceptions (a term that cannot be parted)."""
    loose = total = 0
    for text in paragraphs:
        cells = jlreq_advances(text, measure, BODY_SIZE)  # the widths the book sets them at
        widths = [a for a, _ in cells]
        ranges = set_lines(text, WIDTH, measure, BODY_SIZE, BODY_SIZE, "ja", widths, squeezable(text, cells, BODY_SIZE))
        if len(ranges) < 2:
            continue
        s, e = ranges[-2]
        room = WIDTH - (BODY_SIZE if len(ranges) == 2 else 0)
        total += 1
        loose += (room - sum(widths[s:e])) / max(e - s - 1, 1) > EVEN_LETTER_SPACING * BODY_SIZE + 1e-6
    assert total > 100 and loose <= total * 0.02, (loose, total)  # (13 of 233 were; 3 are, a number kept whole)


def test_no_line_of_the_book_starts_with_an_ideographic_space():
    """JLREQ 3.1.6: the full-width space after ！？ (or between a name and its count in the
    quick reference's components) ends its line; the next line starts with the text after it."""
    measure = lambda ch: 10.0 if ord(ch) > 0x2000 else 5.0  # noqa: E731
    for text in ("インスピレーションとする？　神のフレーズ。", "（緑）　5個（仮）、ウッドキューブ（黒）　5個"):
        for width in range(30, 160, 5):
            lines = [text[s:e] for s, e in set_lines(text, width, measure)]
            assert "".join(lines) == text
            assert not any(line.startswith("\u3000") for line in lines[1:]), (width, lines)


def test_index_readings_sort_in_gojuon_order(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))  # read by the dictionary, not kept from before
    assert reading("創世エリア") == "そうせいえりあ"
    assert [kana_row(t) for t in ("依頼置き場", "倉庫", "ストック", "プレイエリア", "VP")] == ["あ", "さ", "さ", "は", "英数"]


def test_a_term_in_kana_is_read_without_loading_the_dictionary(monkeypatch):
    from pnpgen.rulebook import termindex

    monkeypatch.setattr(termindex, "_kakasi", lambda: pytest.fail("the reading dictionary was loaded"))
    assert reading("ターミナルアイコン") == "たーみなるあいこん"
    assert reading("ヴァイオリン") == "ゔぁいおりん" and reading("ぱーてぃー") == "ぱーてぃー"


def test_a_term_read_once_on_this_machine_is_read_again_without_the_dictionary(tmp_path, monkeypatch):
    from pnpgen.memo import Memo
    from pnpgen.rulebook import termindex

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    memo: Memo[str] = Memo()
    assert reading("倉庫番", memo) == "そうこばん" and memo.learned == {"倉庫番": "そうこばん"}
    monkeypatch.setattr(termindex, "_kakasi", lambda: pytest.fail("the reading dictionary was loaded"))
    memo = Memo()  # a new build folder: its cache has no readings
    assert reading("倉庫番", memo) == "そうこばん" and memo.learned == {"倉庫番": "そうこばん"}
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    with pytest.raises(pytest.fail.Exception, match="dictionary was loaded"):
        reading("倉庫番")


def test_rulebook_settings_are_read_with_their_lines():
    ws = Workspace(ROOT)
    settings = load_settings(load_game(ws, "asian-delivery"))
    (fig,) = settings.figures
    assert fig.after == "蓬旦の作成" and len(fig.pieces) == 10 and fig.size_mm == (440, 317.5)
    assert settings.quick_reference_deck == "summary"


def test_bad_figure_is_an_input_error_with_its_line(tmp_path):
    ws = Workspace(ROOT)
    game = load_game(ws, "asian-delivery")
    text = (ROOT / "data" / "asian-delivery" / "game.yaml").read_text("utf-8").replace(
        "{deck: areas, piece: 10,", "{deck: nothere, piece: 10,")
    (tmp_path / "game.yaml").write_text(text, "utf-8")
    game.root = tmp_path
    with pytest.raises(InputError) as e:
        load_settings(game)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "nothere" in ln)
    assert f"game.yaml:{line}:" in str(e.value) and "no deck 'nothere'" in str(e.value)


@pytest.mark.parametrize("tail, block", [
    ("□□□\n" * 60, "(a diagram)"),
    ("◇" + "x" * 3000 + "（１個）\n", "beginning “xxx"),
])
def test_a_block_taller_than_a_page_is_named_not_a_traceback(tmp_path, capsys, tail, block):
    """A diagram of sixty lines, or a component name of 3,000 letters in the components table:
    ReportLab cannot split them over pages; the build says which block and exits 2."""
    from conftest import make_workspace, run

    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("１：カードを１枚引く。", tail + "１：カードを１枚引く。")
                     if tail.startswith("□") else draft.read_text(encoding="utf-8").replace(
                         "◇テストカード（１１枚）", "◇テストカード（１１枚）\n" + tail.strip()), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    err = capsys.readouterr().err
    where = "draft.txt:14: the rulebook" if tail.startswith("□") else "draft.txt: the rulebook"  # the diagram's line
    assert f"{where} has a block taller than an A5 page (" in err and block in err, err
    assert "Traceback" not in err and not (ws / "build" / "test").exists()


def test_a_heading_taller_than_a_page_is_named_at_its_line(tmp_path, capsys):
    """A paragraph pasted into a ■ heading (2,000 characters, set glyph by glyph by
    rulebook/headline.py): the error named no line and called the block 'Heading'."""
    from conftest import make_workspace, run

    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8").replace("１：カードを１枚引く。", "１：カードを１枚引く。\n\n■　" + "長" * 2000 + "\n　本文。", 1)
    draft.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "長長長" in ln)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert f"draft.txt:{line}: the rulebook has a block taller than an A5 page (a heading)" in err, err
    assert "expected a heading of a line or two" in err and "Traceback" not in err


@pytest.mark.parametrize("tail, message", [
    ("".join(f"■　節{i}\n　本文。\n" for i in range(400)), "the draft has 403 sections"),
    ("".join(f"　【用語{i}】を使う。\n" for i in range(1200)), "the draft marks 1,200 different 【terms】"),
    ("　" + "あ" * 120_000 + "\n", "the draft is larger than 300,000 bytes"),
])
def test_a_draft_beyond_a_rulebook_stops_check_and_build_at_once(tmp_path, capsys, tail, message):
    """Twenty thousand sections or index terms took minutes to set: a draft past the bounds of a
    rulebook is named, with its file, before a page is set."""
    from conftest import make_workspace, run

    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8") + tail, encoding="utf-8")
    for command in ("check", "build"):
        assert run(ws, command, "--game", "test") == 2
        out = capsys.readouterr()
        assert "draft.txt" in out.out + out.err and message in out.out + out.err, out


def test_appendix_parts_beyond_z_are_lettered_on():
    from pnpgen.data.spreadsheets import column_letter  # what the story letters its appendix parts with

    assert [column_letter(i + 1) for i in (0, 7, 25, 26, 27, 52)] == ["A", "H", "Z", "AA", "AB", "BA"]


def test_index_sorts_the_long_vowel_mark_as_its_vowel():
    """JIS X 4061: ー reads as the vowel before it, voiced and small kana as plain ones first."""
    from pnpgen.rulebook.termindex import sort_reading

    assert sort_reading("かーど") == "かあと" and sort_reading("すきっぷ") == "すきつふ"
    terms = ["カウンター", "カード", "カート", "カエル"]
    ordered = sorted(terms, key=lambda t: (sort_reading(reading(t)), reading(t)))
    assert ordered == ["カート", "カード", "カウンター", "カエル"]  # かあと, かあど < かうんたあ < かえる


def test_a_one_line_paragraph_under_a_heading_keeps_with_the_next():
    """So that a heading never stands at a page's foot with one line of its text."""
    from reportlab.platypus import Paragraph

    from pnpgen.rulebook.flowables import JPara
    from pnpgen.rulebook.keeps import two_lines_under_headings
    from pnpgen.rulebook.styles import TEXT_W

    font = fontreg.register("BIZUDMincho-Regular", ROOT / "fonts")
    head = Paragraph("見出し")
    head.keepWithNext = 1
    short, long_, after = (JPara(t, font, 9, 15) for t in ("短い。", "長い文。" * 40, "次。"))
    story = [head, short, after]
    two_lines_under_headings(story, TEXT_W)
    assert short.keepWithNext == 1 and not getattr(after, "keepWithNext", 0)
    story = [head, long_, after]
    two_lines_under_headings(story, TEXT_W)
    assert not getattr(long_, "keepWithNext", 0)


def test_preparing_the_rulebook_process_does_not_read_the_draft(tmp_path, monkeypatch):
    """The rulebook's process loads its fonts before the faces arrive without reading the draft:
    the draft is read once, when the book is set."""
    from conftest import make_workspace
    from pnpgen.rulebook import book

    ws = make_workspace(tmp_path / "ws", draft=True)
    game = load_game(Workspace(ws), "test")
    reads: list[object] = []
    monkeypatch.setattr(book, "read_draft", lambda *a, **k: reads.append(a))
    book.prepare(game, ws / "fonts")
    assert reads == []
