"""JLREQ spacing in the Japanese book (rulebook.style: jlreq, the default): 約物 at their widths,
連続約物 closed up, half-width at a line's end, 和欧間; measured on the shipped books with PDFium
(scripts/jlreq_measure.py) and on the spacing model itself; the proportional style keeps BIZ UDP明朝."""

from __future__ import annotations

import importlib.util
import sys
from io import BytesIO

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from conftest import GAME_YAML, REPO, make_workspace
from pdfprobe import glyphs, shown
from pnpgen import fonts as fontreg
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook import glyphs as glyphs_
from pnpgen.rulebook.flowables import JPara
from pnpgen.rulebook.jlreq import full_width_marks, jlreq_advances
from pnpgen.rulebook.paralines import line_cells

EM = 10.0
SPEC = importlib.util.spec_from_file_location("jlreq_measure", REPO / "scripts" / "jlreq_measure.py")
measure_script = sys.modules.setdefault("jlreq_measure", importlib.util.module_from_spec(SPEC))
SPEC.loader.exec_module(measure_script)


def _widths(text: str, **kw) -> list[float]:
    return [round(a / EM, 3) for a, _ in jlreq_advances(text, lambda ch: EM if ord(ch) > 0x2000 else EM / 2, EM, **kw)]


def test_marks_take_their_jlreq_widths():
    assert _widths("あ、い。う") == [1, 1, 1, 1, 1]
    assert _widths("あ」「い") == [1, 1, 0.5, 1]  # 」「: 1.5 em from 」 to い
    assert _widths("あ、「い") == [1, 1, 0.5, 1]
    assert _widths("い。」う") == [1, 0.5, 1, 1]  # 。」 close up
    assert _widths("「（あ") == [1, 0.5, 1]  # a paragraph's first bracket keeps its half em
    assert _widths("「（あ", opens=False) == [0.5, 0.5, 1]  # a wrapped line starts flush
    assert _widths("あ。") == [1, 0.5]  # a line's last stop: half width
    assert _widths("あ・い") == [1, 1, 1]
    assert _widths("第1回") == [1.25, 0.75, 1]  # 和欧間: a quarter em either side of the digit
    assert _widths("２枚") == [1, 1]  # full-width digits are Japanese
    # 3.1.6: ！？ followed by text take a full em after them, unless typed, before a bracket, at the end
    assert _widths("本当？はい") == [1, 1, 2, 1, 1] and _widths("驚き！？これ") == [1, 1, 1, 2, 1, 1]
    assert _widths("本当？　はい") == [1] * 6 and _widths("実物（？）だ") == [1] * 6 and _widths("終わり！") == [1] * 4
    assert _widths("は”【あ】”") == [1, 1, 0.5, 1, 0.5, 0.5]  # a ” that opens: the 【 after it closes up, as after 「
    # a no-break space (a name glued to its count) beside Japanese is glue: the 和欧間 or nothing
    assert _widths("ド\u00a024枚") == [1, 0.25, 0.5, 0.75, 1] and _widths("（赤）\u00a05個") == [1, 1, 1, 0, 0.75, 1]
    assert _widths("300\u00a0g") == [0.5] * 5  # between Latin text it is a word space
    offsets = [round(o / EM, 3) for _, o in jlreq_advances("あ、「い", lambda ch: EM, EM)]
    assert offsets == [0, 0, -0.5, 0]  # the bracket's em box starts half an em left of its ink


def test_a_middle_dot_keeps_its_quarter_em_beside_other_marks():
    """A 中点類 beside another mark keeps its quarter em, and a closing bracket before it drops its
    half: ）： a quarter em of space between their inks (the term 「（３）：」 had a half em),
    。・ three quarters, ・」 and ・・ a quarter either side (the class-to-class spacing of the
    jlreq class's JFM, abenori/jlreq jfm-jlreq.lua)."""
    assert _widths("あ）：い") == [1, 0.5, 1, 1]
    assert _widths("あ。・い") == [1, 1, 1, 1]
    assert _widths("「あ・」い") == [1, 1, 1, 1, 1]
    assert _widths("あ・・い") == [1, 1, 1, 1]
    assert _widths("あ（い）：") == [1, 1, 1, 0.5, 0.75]  # a line's last ：: no quarter after it


@pytest.mark.parametrize("slug", ["alicematic-eiketsuden", "alicematic-medallions", "asian-delivery", "populous"])
def test_the_shipped_books_set_marks_at_jlreq_widths(built, slug):
    m = measure_script.measure(built / slug / "rulebook.pdf")
    # a 、 under a full em only on a line pushed in (追い込み, JLREQ 3.8.2: its aki given up, its ink kept;
    # any line that takes the next characters so rather than being spaced out: an eighth of them at most)
    assert m.stops > 150 and m.stops_narrow <= m.stops // 8 and m.stop_min >= 0.5
    # 」「 1.5 em, down to their inks' em on a pushed-in line; 」” (” opening): 2 em (the script's bounds)
    assert m.pairs and not m.pairs_as("out of bounds"), m.line()
    assert len(m.pairs_as("set")) > len(m.pairs) // 2
    assert m.joins > 10 and m.joins_spaced == m.joins
    fonts = {g.font for page in glyphs(built / slug / "rulebook.pdf") for g in page
             if g.char == "、" and g.on_page and "Mincho" in g.font}  # (not the card faces' own text)
    assert fonts == {"BIZUDMincho-Regular"}


def test_the_measure_script_tells_pairs_pushed_in_from_pairs_out_of_bounds():
    """The script reported every 」「 pair against 1.5 em, as if a pair squeezed on a pushed-in line
    (追い込み, JLREQ 3.8.2, on every line the book sets) fell short: it counts those apart, down to
    the JLREQ minimum of the two inks' em, and names only a width none of the rules gives."""
    kind = measure_script.pair_kind
    assert [kind(w) for w in (1.5, 1.72, 1.0, 1.2, 2.0, 0.98, 1.8, 2.2)] == [
        "set", "set", "pushed in", "pushed in", "quote", "out of bounds", "out of bounds", "out of bounds"]
    said = measure_script.Measures(pairs=[1.5, 1.5, 1.125, 1.0, 2.0, 0.9]).line()
    assert "」「 pairs 6: 2 set at 1.5 em (to 1.75 spaced out), 2 squeezed on lines pushed in to no less " \
           "than 1.0 em (JLREQ 3.8.2; the narrowest 1.00 em), 1 」” at 2 em, out of bounds 1 (0.90 em);" in said, said


def test_proportional_style_keeps_the_proportional_mincho_and_a_bad_style_is_one_line(tmp_path):
    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + "\nrulebook:\n  style: proportional\n")
    game = load_game(Workspace(ws), "test")
    book = build_rulebook(game, REPO / "fonts").files["rulebook.pdf"]
    fonts = {g.font for page in glyphs(book) for g in page if g.char in "、。" and g.on_page and "Mincho" in g.font}
    assert fonts == {"BIZUDPMincho-Regular"} and not full_width_marks("BIZUDPMincho-Regular")
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "\nrulebook:\n  style: tight\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        build_rulebook(load_game(Workspace(ws), "test"), REPO / "fonts")
    assert "game.yaml" in str(e.value) and "jlreq or proportional" in str(e.value)


def test_a_drafts_two_em_dash_prints_two_ems_long():
    """JLREQ's ―― typed on a Mac is two U+2014, which the fixed-width mincho draws half an em
    wide: beside Japanese text it is set as the full-width dash (U+2015), a Latin one stays."""
    font = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    assert pdfmetrics.stringWidth("\u2014", font, EM) < EM  # what made ―― one em long
    para = JPara("それは\u2014\u2014罠だ。self\u2014made", font, EM, 15)
    para.wrap(500, 500)
    cells, _, _ = line_cells(para.text, font, glyphs_.chain(font), EM, True)
    dashes = [round(a / EM, 3) for (a, _), ch in zip(cells, para.text) if ch in "\u2014\u2015"]
    assert dashes[:2] == [1, 1] and para.text.endswith("self\u2014made")


def test_an_items_colon_takes_a_full_em_before_its_text():
    """傲慢のメダリオン（３）：手札を…: the term in bold gothic, its ： set on a full em (JLREQ 中点類)
    as the mincho text after it would set it, not the proportional face's half of one."""
    body = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    bold = fontreg.register("BIZUDPGothic-Bold", REPO / "fonts")
    para = JPara("手札を好きなだけ捨て札にできる", body, EM, 15, prefix="傲慢のメダリオン（３）：", prefix_font=bold)
    out = BytesIO()
    canvas = Canvas(out, pagesize=(600, 100))
    para.wrapOn(canvas, 500, 100)
    para.drawOn(canvas, 10, 10)
    canvas.save()
    at = {ch: x for ch, x, _ in shown(out.getvalue(), 1)}  # (as drawn: the term is a marked span)
    em = EM / 72 * 25.4
    colon_w = pdfmetrics.stringWidth("：", bold, EM) / 72 * 25.4
    assert colon_w <= 0.5 * em + 1e-6  # the bold face's own colon: half an em, its ink centred
    start = at["："] - (em - colon_w) / 2  # where its em starts: right after the term's ）
    assert abs(at["手"] - start - em) < 0.05  # 手 starts a full em after it


def test_a_proofing_notes_text_hangs_under_itself_beside_its_kind():
    """校正メモ: the kind (誤記, 数の不一致) in a column of its own, the note's text beside it from the
    same edge on every line (its opening 「 flush, as on the lines under it)."""
    body = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    gothic = fontreg.register("BIZUDPGothic-Regular", REPO / "fonts")
    text = "「しください」→「してください」（て抜け、草案140行「…払った後に通常と同じ様に建築しください。」）"
    para = JPara(text, body, EM, 15, first_indent=60, left=60, prefix="誤記", prefix_font=gothic, prefix_x=0.0)
    out = BytesIO()
    canvas = Canvas(out, pagesize=(300, 200))
    para.wrapOn(canvas, 250, 200)
    para.drawOn(canvas, 10, 10)
    canvas.save()
    page = [g for g in glyphs(out.getvalue())[0] if g.char.strip()]
    rows = sorted({round(g.y, 1) for g in page})
    assert len(rows) >= 2
    starts = [min((g for g in page if round(g.y, 1) == y and g.char != "誤" and g.char != "記"), key=lambda g: g.x)
              for y in rows]
    em = EM / 72 * 25.4
    inks = [g.x + (em / 2 if g.char in "「（" else 0) for g in starts]
    assert max(inks) - min(inks) < 0.05, inks
    kind = next(g for g in page if g.char == "誤")
    assert abs(kind.x - 10 / 72 * 25.4) < 0.05 and inks[0] - kind.x > 2 * em


def test_a_short_last_line_is_pushed_in_by_its_marks_aki_before_the_line_above_is_spaced_out():
    """暴食のメダリオン（３）：ゲーム終了時、”自分が持つ軍勢の数”分のＶＰを得る, a quarter em too long for
    its line: JLREQ 3.8.2 pushes it in (追い込み) by the 、's aki, one line, rather than pushing 「を得る」
    out and spacing 「…分のＶＰ」 a seventh of an em apart (pdftotext read it letter-spaced)."""
    body = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    bold = fontreg.register("BIZUDPGothic-Bold", REPO / "fonts")
    text = "ゲーム終了時、”自分が持つ軍勢の数”分のＶＰを得る"
    para = JPara(text, body, 9.0, 15, first_indent=13.5, left=22.5, prefix="暴食のメダリオン（３）：", prefix_font=bold)
    width = 334.488
    para.wrap(width, 100)
    assert para.lines == [(0, len(text))]
    # (read without its term, whose marked span PDFium reads as one text spread over the line)
    para = JPara(text, body, 9.0, 15, first_indent=13.5 + para._prefix_width(), left=22.5)
    para.wrap(width, 100)
    assert para.lines == [(0, len(text))]
    out = BytesIO()
    canvas = Canvas(out, pagesize=(width + 20, 100))
    para.drawOn(canvas, 10, 10)
    canvas.save()
    at = [(g.char, g.x) for g in glyphs(out.getvalue())[0] if g.char.strip()]
    em = 9.0 / 72 * 25.4
    comma = [k for k, (ch, _) in enumerate(at) if ch == "、"][0]
    assert 0.5 * em < at[comma + 1][1] - at[comma][1] < 0.95 * em  # the 、's aki gave up what the line lacked
    assert all(0.99 * em < b - a < 1.01 * em for (_, a), (_, b) in zip(at[-4:], at[-3:]))  # 分のＶＰを得る: unspaced
    assert at[-1][1] + em <= (10 + width) / 72 * 25.4 + 0.01  # within the measure
    # a line that can give too little still pushes the last one out
    assert (JPara("自分の好きな手札１枚を、他のプレイヤーに渡してもよい", body, 9.0, 15, first_indent=13.5, left=22.5,
                  prefix="嫉妬のメダリオン（３）：", prefix_font=bold).wrap(width, 100)[1] // 15) == 2


def test_a_line_is_pushed_in_before_it_is_spaced_out_anywhere_in_a_paragraph():
    """populous p3: 「また、マスには５種類の地形があり、「平地」 could not take 「（緑）」 (no line starts
    or ends inside it) and was spaced 0.148 em apart; its 、 and brackets' aki make room for it
    (JLREQ 3.8.2: 追い込み before 追い出し, the smaller adjustment), on any line, not only above a
    paragraph's last; the line below fills anew, its 、 ending its line without its aki (行末二分)."""
    body = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    text = "また、マスには５種類の地形があり、「平地（緑）」以外の適性のない地形に配置する為にはフードが必要となります。"
    width = 74 / 25.4 * 72  # the text beside the area tiles' picture
    para = JPara(text, body, 9.0, 15, left=0, first_indent=9.0)
    para.wrap(width, 100)
    assert [text[s:e] for s, e in para.lines] == ["また、マスには５種類の地形があり、「平地（緑）」",
                                                 "以外の適性のない地形に配置する為にはフードが必", "要となります。"]
    out = BytesIO()
    canvas = Canvas(out, pagesize=(width + 20, 100))
    para.drawOn(canvas, 10, 10)
    canvas.save()
    em = 9.0 / 72 * 25.4
    rows: dict[float, list] = {}
    for g in glyphs(out.getvalue())[0]:
        if g.char.strip():
            rows.setdefault(round(g.y, 1), []).append(g)
    first, second = (sorted(rows[y], key=lambda g: g.x) for y in sorted(rows)[:2])
    assert "".join(g.char for g in first) == text[:24]
    letters = [b.x - a.x for a, b in zip(first, first[1:]) if a.char in "マスには５種類" and b.char in "スには５種類の"]
    assert letters and all(0.99 * em < d < 1.01 * em for d in letters), letters  # not spaced out
    # from a 、 to the next ink (an opening bracket's ink is the right half of its em box)
    marks = [b.x + (em / 2 if b.char == "「" else 0) - a.x for a, b in zip(first, first[1:]) if a.char == "、"]
    assert len(marks) == 2 and all(0.5 * em <= d < 0.95 * em for d in marks), marks  # aki given up, never ink
    right = (10 + width) / 72 * 25.4
    assert first[-1].x + em / 2 <= right + 0.01  # 」's ink within the measure
    spacing = [b.x - a.x - em for a, b in zip(second, second[1:])]
    assert max(spacing) < 0.02 * em and second[-1].x + em <= right + 0.01


@pytest.mark.parametrize("minus", ["−", "-", "－"])
def test_a_minus_taken_from_a_word_never_starts_a_line(minus):
    """medallions p8 (designer's notes): 「例えば、総枚数」 over 「−１の得点」, the minus starting a line
    and read as a negative one: after a kanji, katakana, letter, digit or closing bracket a minus
    before a digit stays with the word it is taken from (分離禁止); after a particle it is a sign."""
    body = fontreg.register("BIZUDMincho-Regular", REPO / "fonts")
    text = "あいうえおかきくけこさしすせそたちつ総枚数" + minus + "１の得点になるとか。"
    width = 21 * 9.0 + 0.5  # the line is full after 数
    para = JPara(text, body, 9.0, 15, left=0, first_indent=0)
    para.wrap(width, 100)
    out = BytesIO()
    canvas = Canvas(out, pagesize=(width + 20, 100))
    para.drawOn(canvas, 10, 10)
    canvas.save()
    rows: dict[float, list] = {}
    for g in glyphs(out.getvalue())[0]:
        if g.char.strip():
            rows.setdefault(round(g.y, 1), []).append(g)
    lines = ["".join(g.char for g in sorted(rows[y], key=lambda g: g.x)) for y in sorted(rows)]
    assert len(lines) == 2 and lines[1].startswith("数" + minus + "１"), lines
    first = min(rows[sorted(rows)[1]], key=lambda g: g.x)
    assert abs(first.x - 10 / 72 * 25.4) < 0.05  # 数 flush at the line's start, the minus after it
    # a sign after a particle may start a line: 「得点は」 over 「−１です」
    sign = "あいうえおかきくけこさしすせそたちつ得点は" + minus + "１です"
    para = JPara(sign, body, 9.0, 15, left=0, first_indent=0)
    para.wrap(width, 100)
    assert [sign[s:e] for s, e in para.lines][1].startswith(minus)


def test_a_full_stop_inside_a_number_is_the_numbers_not_a_sentences_end():
    """trial59: 「（→４．１）」 printed 「４．　１」, its full stop with a sentence's half-em aki after
    it: a ． or ， between two digits is a number's mark (a case's 4.1, 1,000), its half em of ink
    and no aki; a ． ending a sentence after a digit (「手順４．次に」) keeps its aki."""
    from pnpgen.rulebook.jlreq import jlreq_advances

    em = 9.0
    cells = jlreq_advances("（→４．１）と１，０００点。手順４．次に", lambda ch: em, em)
    widths = [a for a, _ in cells]
    assert widths[3] == em / 2 and widths[8] == em / 2  # ４．１, １，０００
    assert widths[17] == em  # ４．次: a sentence's full stop, its aki kept
    assert widths[2] == widths[4] == em  # the digits keep their em
    # a sentence's full stop before a digit (「終わり．２人目」): its aki kept, a number's only between two
    assert [a for a, _ in jlreq_advances("終わり．２人目", lambda ch: em, em)][3] == em
