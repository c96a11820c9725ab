"""Exact line splits: JLREQ kinsoku classes, clusters, BudouX phrases, markup units.

Widths are in ems: full-width characters measure 1, others ½ (plain cases), or the monospaced
BIZ UDGothic at 10 pt (markup cases), so every split below is exact.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from pnpgen import fonts
from pnpgen.faces import builtin
from pnpgen.text import TextContext, break_lines, layout_text
from pnpgen.text.cells import PT
from pnpgen.text.linecheck import check_layout, check_paragraph, check_plain

ROOT = Path(__file__).resolve().parents[2]


def em(s: str) -> float:
    return sum(1.0 if unicodedata.east_asian_width(c) in "WFA" else 0.5 for c in s)


def split(text: str, width: float, phrases: bool = True) -> str:
    lines = break_lines(text, width, em, phrases=phrases)
    assert not check_plain(text, lines, width, em) or not phrases
    return "|".join(lines)


# --- JLREQ, character by character (phrases off): each class pushed out, never hung ----------

CLOSING = "）」』】〉》］｝"
STOPS = "。、．，"
MIDDLE = "・：；？！"
ITERATION = "ヽヾゝゞ々"
SMALL_KANA = "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
OPENING = "（「『【〈《［｛"

NO_START_CASES = [(c, f"あいうえお{c}かきく", 5, f"あいうえ|お{c}かきく")
                  for c in CLOSING + STOPS + MIDDLE + ITERATION + "ー" + SMALL_KANA]


@pytest.mark.parametrize("char,text,width,expected", NO_START_CASES, ids=[c[0] for c in NO_START_CASES])
def test_no_line_starts_with_prohibited_character(char, text, width, expected):
    assert split(text, width, phrases=False) == expected


NO_END_CASES = [(c, f"あいうえ{c}おかき", 5, f"あいうえ|{c}おかき") for c in OPENING]


@pytest.mark.parametrize("char,text,width,expected", NO_END_CASES, ids=[c[0] for c in NO_END_CASES])
def test_no_line_ends_with_opening_bracket(char, text, width, expected):
    assert split(text, width, phrases=False) == expected


CASES = [
    # (id, text, width in em, phrases, expected)
    ("two closers in a row", "あいうえお」。かき", 6, False, "あいうえ|お」。かき"),
    ("closer then opener", "あいうえ」「かき", 5, False, "あいうえ」|「かき"),
    ("leaders never split", "あいうえ……かき", 5, False, "あいうえ|……かき"),
    ("dashes never split", "あいうえ——かき", 5, False, "あいうえ|——かき"),
    ("leaders fit", "あいう……かき", 5, False, "あいう……|かき"),
    ("latin word whole", "あいうABCDEF", 5, False, "あいう|ABCDEF"),
    ("number with latin unit", "あいうえ1VPを", 5, False, "あいうえ|1VPを"),
    ("number with katakana unit", "あいうえ３フェイス", 5, False, "あいうえ|３フェイス"),
    ("range half-width", "あいう1〜2枚", 4.5, False, "あいう|1〜2枚"),
    ("range full-width", "あいう１〜２枚", 5, False, "あいう|１〜２枚"),
    ("number with counter", "あいうえ３枚", 5, False, "あいうえ|３枚"),
    ("thousands separator", "あいうえ1,000円", 5.5, False, "あいうえ|1,000円"),
    ("decimal and percent", "あいうえ12.5%", 5.5, False, "あいうえ|12.5%"),
    ("sign stays with number", "あいうえ+3点", 4.5, False, "あいうえ|+3点"),
    ("spaces break latin text", "Draw two cards", 5, False, "Draw two|cards"),
    ("trailing spaces dropped", "ab   cd", 1.5, False, "ab|cd"),
    # JLREQ 3.1.6: the space after ！？ ends its line, never starts the next
    ("ideographic space after ！ ends the line", "得る！　次に引く", 4, False, "得る！|次に引く"),
    ("ideographic space after ？ ends the line", "あいうか？　はい", 5, True, "あいうか？|はい"),
    ("ideographic space between name and count", "アリスカード　24枚", 6.5, False, "アリスカード|24枚"),
    ("same-glyph quotes: opening one", "あいうえ”かき”く", 5, False, "あいうえ|”かき”く"),
    ("same-glyph quotes: closing one", "”あいうえ”かき", 5, False, "”あいう|え”かき"),
    ("same-glyph quotes beside curly ones", "“あ”ああ”いう”", 6, False, "“あ”ああ|”いう”"),
    ("prolonged mark pushes word", "プレイヤー", 4, False, "プレイ|ヤー"),
    ("small tsu pushes two", "ビュッフェ", 4, False, "ビュッ|フェ"),
    ("one character", "あ", 5, True, "あ"),
    ("empty text", "", 5, True, ""),
    ("explicit line break", "一行目\n二行目", 10, True, "一行目|二行目"),
    ("blank line kept", "上\n\n下", 10, True, "上||下"),
    ("wider than the box", "あい", 0.5, False, "あ|い"),
    # BudouX phrases
    ("phrase moves down whole", "ワーカーを１つ配置する。", 8, True, "ワーカーを１つ|配置する。"),
    ("phrases at narrow width", "ワーカーを１つ配置する。", 6, True, "ワーカーを|１つ|配置する。"),
    ("phrases, not characters", "強欲のメダリオンの効果", 6, True, "強欲の|メダリオンの|効果"),
    ("characters when phrases off", "強欲のメダリオンの効果", 6, False, "強欲のメダリ|オンの効果"),
    ("phrase longer than the line", "メダリオン", 3, True, "メダリ|オン"),
    ("bracketed phrase", "彼は「祝福」を得る。", 6, True, "彼は|「祝福」を|得る。"),
    ("parenthesis phrase", "次の手番（左隣）へ渡す。", 7, True, "次の手番|（左隣）へ|渡す。"),
    ("question mark stays", "本当ですか？はい。", 6, True, "本当ですか？|はい。"),
    ("unit phrase", "合計1VPを得ます。", 6, True, "合計1VPを|得ます。"),
    ("range phrase", "カードを1〜2枚引く。", 7, True, "カードを|1〜2枚引く。"),
    ("full text fits", "山札から１枚引く。", 9, True, "山札から１枚引く。"),
]


@pytest.mark.parametrize("name,text,width,phrases,expected", CASES, ids=[c[0] for c in CASES])
def test_split(name, text, width, phrases, expected):
    assert split(text, width, phrases) == expected


def test_checker_names_a_line_that_starts_with_an_ideographic_space():
    assert check_plain("得る！　次に引く", ["得る！", "次に引く"], 4, em) == []
    lines = [list("得る！"), list("\u3000次に引く")]
    assert any("starts with an ideographic space" in p
               for p in check_paragraph(lines, [[em(c) for c in line] for line in lines], 5))


# --- markup units: icons, bold, ruby, colours (laid out with the monospaced font at 10 pt) ----

@pytest.fixture(scope="module")
def ctx():
    for name in fonts.DEFAULT_FONTS.values():
        fonts.register(name, ROOT / "fonts")
    return TextContext(
        fonts={**fonts.DEFAULT_FONTS, "mono-bold": "BIZUDGothic-Regular"},
        fallback_fonts=[], palette={"red": "#c0392b"},
        icon_dirs=[builtin.FOLDER / "common" / "icons"], where="test card")


MARKUP_CASES = [
    ("icon is one unit", "{food}を１つ得る。", 5, "◆を|１つ得る。"),
    ("number glued to icon", "あいうえ2{vp}", 5, "あいうえ|2◆"),
    ("icons in a row may break", "{food}{food}{food}{food}を払う", 3, "◆◆◆|◆を|払う"),
    ("bold span breaks like plain", "**強欲の**メダリオンの効果", 6, "強欲の|メダリオンの|効果"),
    ("colour span across lines", "[red]強欲のメダリオンの[/red]効果", 6, "強欲の|メダリオンの|効果"),
    ("ruby base never splits", "あいうえ{漢字|かんじ}", 5, "あいうえ|漢字"),
    ("ruby inside phrases", "{強欲|ごうよく}のメダリオン", 5, "強欲の|メダリオン"),
    ("markup newline", "**一行目**\n二行目", 10, "一行目|二行目"),
    ("escaped markup is text", "\\*\\*そのまま\\*\\*", 20, "**そのまま**"),
]


@pytest.mark.parametrize("name,text,width,expected", MARKUP_CASES, ids=[c[0] for c in MARKUP_CASES])
def test_markup_split(ctx, name, text, width, expected):
    lay = layout_text(ctx, text, w=width * 10 * PT + 1e-4, h=500, size=10, min_size=10, font="mono")
    assert "|".join(t.replace("\ufffc", "◆") for t in lay.texts) == expected
    assert check_layout(lay) == []


def test_table_has_at_least_forty_cases():
    assert len(NO_START_CASES) + len(NO_END_CASES) + len(CASES) + len(MARKUP_CASES) >= 40


def test_no_hanging_every_line_fits():
    text = "アクション１回につき、【創世エリア】に追加でワーカーを１個配置するか、あるいは移動させます。"
    for w in range(3, 30):
        for line in break_lines(text, w, em):
            assert em(line) <= w


def test_break_lines_is_fast_on_repeated_text():
    import time

    text = "好きなプレイヤー１人から３フェイスを奪う。その後、1VPを得る。" * 5
    break_lines(text, 12, em)
    t = time.perf_counter()
    for _ in range(200):
        break_lines(text, 12, em)
    assert (time.perf_counter() - t) / 200 < 0.005
