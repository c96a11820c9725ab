"""Ruby as JLREQ 3.3.8 sets it: a reading longer than its base reaches over the kana beside it (up
to one ruby character, half a base character, a side) instead of spacing its base out, and over the
glyph of an opening bracket before it or a closing bracket, 、 or 。 after it (never the mark's
space); never over a kanji, a mark on its other side, another ruby or the line's edge. Measured in
millimetres in the built PDF."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import DECK_YAML, REPO, make_workspace, run
from pdfprobe import glyphs
from pnpgen import fonts
from pnpgen.text import TextContext, layout_text
from pnpgen.text.cells import PT
from pnpgen.text.linebreak import CHAR, KINSOKU, fill
from pnpgen.text.ruby import parts, reaches, room, spread

FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ textbox(piece.text, 5, 20, 14.5, 50, size=10, min_size=10) }}
{% endblock %}
"""
# six paragraphs in a 14.5 mm box at 10 pt: 湖 between kana, between kanji, starting a line
# after the kana before it (「とても」「大きな」「湖の」「そば」), between brackets, before 、, and ending one
TEXT = r"あ{湖|みずうみ}の\n漢{湖|みずうみ}字\nとても{大|おお}きな{湖|みずうみ}のそば\n「{湖|みずうみ}」\n{湖|みずうみ}、\nあ{湖|みずうみ}"
EM = 10 * PT  # mm


@pytest.fixture(scope="module")
def lines(tmp_path_factory) -> list[list]:
    """The card's glyphs line by line (a reading with the line under it), left to right."""
    ws = make_workspace(tmp_path_factory.mktemp("ruby") / "ws", front=FRONT,
                        deck=DECK_YAML + f'  - {{name: 甲, text: "{TEXT}"}}\n')
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = [g for g in glyphs(ws / "build" / "test" / "cards.pdf")[0] if g.char and g.char in TEXT and g.char != "甲"]
    base = sorted({round(g.y, 2) for g in page if abs(g.size - 10) < 0.01})
    out = []
    for y in base:  # a reading sits less than an em above its line
        out.append(sorted((g for g in page if -0.01 < y - g.y < EM * 1.2 and (abs(g.y - y) < 0.01 or g.size < 6)),
                          key=lambda g: (g.size < 6, g.x)))
    return out


def _w(text: str, g, size: float = 10) -> float:
    return fonts.string_width_mm(text, g.font, size)


def _parts(line) -> tuple[list, list]:
    return [g for g in line if g.size > 6], [g for g in line if g.size < 6]


def test_a_long_reading_reaches_over_the_kana_beside_it_and_its_base_keeps_its_place(lines):
    (a, lake, no), reading = _parts(lines[0])
    assert "".join(g.char for g in reading) == "みずうみ" and reading[0].size == pytest.approx(5, abs=0.01)
    over = (_w("みずうみ", reading[0], 5) - _w("湖", lake)) / 2  # 1.63 mm a side
    assert 0 < over <= EM / 2
    assert lake.x - a.x == pytest.approx(_w("あ", a), abs=0.01)  # was あ's advance + 1.63: 湖 spaced out
    assert no.x - lake.x == pytest.approx(_w("湖", lake), abs=0.01)
    assert reading[0].x == pytest.approx(lake.x - over, abs=0.01)  # over あ by 1.63 mm
    assert reading[-1].x + _w("み", reading[-1], 5) == pytest.approx(no.x + over, abs=0.01)  # and over の


def test_beside_kanji_the_base_is_spaced_out_and_the_reading_touches_no_kanji(lines):
    (kan, lake, ji), reading = _parts(lines[1])
    over = (_w("みずうみ", reading[0], 5) - _w("湖", lake)) / 2
    assert lake.x - kan.x == pytest.approx(_w("漢", kan) + over, abs=0.01)
    assert ji.x - lake.x == pytest.approx(_w("湖", lake) + over, abs=0.01)
    assert reading[0].x == pytest.approx(kan.x + _w("漢", kan), abs=0.01)
    assert reading[-1].x + _w("み", reading[-1], 5) == pytest.approx(ji.x, abs=0.01)


def test_a_ruby_starting_a_line_keeps_its_base_at_the_lines_start_and_reaches_only_forwards(lines):
    """JLREQ 3.3.8 (the variation of figures 2.3.35 and 2.3.36, JIS X 4051's): at a line's start
    the base stays at the line's start, its reading's head aligned with it; the reading's excess
    goes after the base, over の by up to one ruby character. (It pushed 湖 in by half the excess,
    1.63 mm, the reading at the line's start.)"""
    left = lines[0][0].x  # the box's left edge: あ starts the first line
    assert ["".join(g.char for g in ln) for ln in lines[2:6]] == ["とても", "大きなおお", "湖のみずうみ", "そば"]
    (lake, no), reading = _parts(lines[4])
    assert lake.x == pytest.approx(left, abs=0.01)  # な, which it would reach over, ends the line above
    assert reading[0].x == pytest.approx(left, abs=0.01)
    end = reading[-1].x + _w("み", reading[-1], 5)
    assert end - (lake.x + _w("湖", lake)) == pytest.approx(_w("みずうみ", reading[0], 5) - _w("湖", lake), abs=0.01)
    assert end - no.x == pytest.approx(EM / 2, abs=0.01)  # one ruby character over の


def test_a_reading_reaches_over_the_glyph_of_the_brackets_beside_it_never_their_space(lines):
    """JLREQ 3.3.8: up to one ruby character over an opening bracket before the base and a closing
    bracket after it, never into the space on the mark's far side (the proportional gothic's
    brackets are half an em, all glyph). Before, 湖 was spaced out by 1.63 mm on each side."""
    (opening, lake, closing), reading = _parts(lines[6])
    assert "".join(g.char for g in reading) == "みずうみ"
    over = (_w("みずうみ", reading[0], 5) - _w("湖", lake)) / 2  # 1.63 mm a side
    assert lake.x - opening.x == pytest.approx(_w("「", opening), abs=0.01)  # 1.76 mm, was 3.39
    assert closing.x - lake.x == pytest.approx(_w("湖", lake), abs=0.01)  # 3.53 mm, was 5.16
    assert reading[0].x == pytest.approx(lake.x - over, abs=0.01)
    assert reading[0].x >= opening.x - 0.01  # over 「's glyph, not the space before it
    end = reading[-1].x + _w("み", reading[-1], 5)
    assert end == pytest.approx(closing.x + over, abs=0.01)
    assert end <= closing.x + _w("」", closing) + 0.01  # over 」's glyph, not past it


def test_a_reading_reaches_over_the_comma_after_it(lines):
    left = lines[0][0].x
    (lake, comma), reading = _parts(lines[7])
    assert lake.x == pytest.approx(left, abs=0.01)  # nothing before it: the base keeps the line's start
    assert reading[0].x == pytest.approx(left, abs=0.01)  # and the reading's head with it (was: base 1.63 mm in)
    end = reading[-1].x + _w("み", reading[-1], 5)
    assert end - comma.x == pytest.approx(min(EM / 2, _w("、", comma)), abs=0.01)  # over 、's glyph half


def test_a_ruby_ending_a_line_keeps_its_base_at_the_lines_end_and_reaches_only_backwards(lines):
    """The line's end as its start: 湖 ends the paragraph, its reading's end level with the base's,
    reaching back over あ by one ruby character."""
    (a, lake), reading = _parts(lines[8])
    end = reading[-1].x + _w("み", reading[-1], 5)
    assert end == pytest.approx(lake.x + _w("湖", lake), abs=0.01)
    assert a.x + _w("あ", a) - reading[0].x == pytest.approx(EM / 2, abs=0.01)


def test_a_line_is_never_ended_by_a_reading_that_would_pass_its_edge():
    """Unit 2 is a ruby whose reading reaches 0.5 over unit 3: a line ending after it would need
    that 0.5 back, so a 3-wide line ends before it."""
    classes = [KINSOKU, CHAR, CHAR, CHAR, KINSOKU]
    widths, spaces = [1.0, 1.0, 1.0, 1.0], [False] * 4
    assert fill(classes, widths, spaces, 3.0) == [(0, 3), (3, 4)]
    edges = ((0.0, 0.0, 0.0, 0.5), (0.0, 0.0, 0.5, 0.0))
    assert fill(classes, widths, spaces, 3.0, edges=edges) == [(0, 2), (2, 4)]
    assert fill(classes, widths, spaces, 3.5, edges=edges) == [(0, 3), (3, 4)]  # room for it: the line takes it
    # a line starting with a ruby whose reading reached back over the line above has that much less room
    edges = ((0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0))
    assert fill(classes, widths, spaces, 2.0, edges=((0.0, 0.0, 0.6, 0.0), edges[1])) == [(0, 2), (2, 3), (3, 4)]


@pytest.fixture(scope="module")
def ctx() -> TextContext:
    for name in fonts.DEFAULT_FONTS.values():
        fonts.register(name, Path(REPO) / "fonts")
    return TextContext(fonts=dict(fonts.DEFAULT_FONTS), fallback_fonts=[], palette={}, icon_dirs=[], where="test")


@pytest.mark.parametrize(("before", "after"), [("漢", "字"), ("々", "〻"), ("、", "「"), ("」", "（"),
                                               ("A", "B"), ("{湖|みずうみ}", "{湖|みずうみ}")])
def test_no_reading_reaches_over_a_kanji_a_mark_on_its_far_side_a_latin_letter_or_another_ruby(ctx, before, after):
    """JLREQ lets a reading over an opening bracket before it and a closing one, 、 or 。 after it:
    not over 、 or 」 before it, nor 「 or （ after it, nor an iteration mark (cl-09)."""
    lay = layout_text(ctx, before + "{湖|みずうみ}" + after, 60, 20, 10, 10)
    rubies = [c for c in lay.lines[0].cells if c.reading]
    lake = rubies[1] if len(rubies) == 3 else rubies[0]  # the one between its neighbours
    assert lake.reading == "みずうみ" and lake.lead == lake.tail == 0.0
    spaced = layout_text(ctx, "{湖|みずうみ}", 60, 20, 10, 10).lines[0].cells[0]
    assert lake.width == spaced.width  # spaced out, as before


def test_a_group_ruby_never_breaks_inside_its_base_and_mono_ruby_may_break_between_kanji(ctx):
    group = layout_text(ctx, "{魔法陣|まほうじん}", 8, 20, 10, 10)
    assert lay_texts(group) == ["魔法陣"] and not group.fits  # wider than the box: said, never split
    mono = layout_text(ctx, "{魔|ま}{法|ほう}{陣|じん}", 8, 20, 10, 10)
    assert lay_texts(mono) == ["魔法", "陣"] and mono.fits
    assert all(c.lead == c.tail == 0.0 for ln in mono.lines for c in ln.cells)  # a ruby never reaches over a ruby


def lay_texts(lay) -> list[str]:
    return [ln.text for ln in lay.lines]


@pytest.mark.parametrize(("font", "reach"), [("BIZUDPGothic-Regular", 0.25), ("BIZUDGothic-Regular", 0.5)])
def test_a_reading_reaches_over_a_middle_dot_by_its_space_and_half_a_ruby_character(ctx, font, reach):
    """JLREQ 3.3.8 (cl-05): a full-width ・ gives its quarter-em space and half a ruby character
    (0.5 em); the proportional gothic's half-em ・, its spaces already gone, half a ruby character
    (0.25 em) a side, so two readings over one dot meet without overlapping."""
    fonts_ = {**ctx.fonts, "gothic": font}
    one = TextContext(fonts=fonts_, fallback_fonts=[], palette={}, icon_dirs=[], where="test")
    line = layout_text(one, "{湖|みずうみ}・{湖|みずうみ}", 60, 20, 10, 10).lines[0]
    (a, dot, b), (xa, _, xb) = line.cells, line.xs
    assert a.tail == pytest.approx(reach * PT) and b.lead == pytest.approx(reach * PT)
    assert a.tail + b.lead <= dot.width + 1e-9
    assert xa + (a.width + a.tail) * 10 <= xb - b.lead * 10 + 1e-6  # 1st reading ends where the 2nd starts, or before


def test_two_readings_over_one_kana_stay_a_ruby_character_apart(ctx):
    """JLREQ 3.3.8's note (figure 2.3.29.3): over one kana between two rubies the first reading
    reaches as usual and the second only so far as keeps one ruby character between them — over
    a full-width ー (1 em) the first takes half an em and the second none; before, the second
    took the other half and the readings touched (figure 2.3.29.2, "not recommended")."""
    fonts_ = {**ctx.fonts, "gothic": "BIZUDGothic-Regular"}  # full-width kana
    full = TextContext(fonts=fonts_, fallback_fonts=[], palette={}, icon_dirs=[], where="test")
    line = layout_text(full, "あ{湖|みずうみ}ー{湖|みずうみ}あ", 60, 20, 10, 10).lines[0]
    (_, a, bar, b, _), xs = line.cells, line.xs
    assert bar.text == "ー"
    assert a.tail == pytest.approx(0.5 * PT) and b.lead == 0.0
    first_end, second_start = xs[1] + (a.width + a.tail) * 10, xs[3] - b.lead * 10
    assert second_start - first_end == pytest.approx(EM / 2, abs=0.001)  # one ruby character, 1.76 mm
    narrow = layout_text(ctx, "{湖|みずうみ}く{湖|みずうみ}", 60, 20, 10, 10).lines[0]  # く 0.85 em: no room left
    assert narrow.cells[0].tail > 0 and narrow.cells[2].lead == 0.0


def test_a_kana_shared_by_two_readings_gives_each_its_mid_line_share_at_a_line_edge():
    """Between two rubies, a kana the first reads over gives the second only what keeps a ruby
    character (0.5 em) between the readings; at a line's head or foot neither takes more
    (text/ruby.py ``reaches``). Over a 1.3 em kana the short second reading (0.4 em over) reaches
    0.2 mid-line (1.3 - 0.5 - 0.5 leaves 0.3), and at the line's foot no further over the kana."""
    got = reaches([("", 1.0), ("く", 1.3), ("", 1.0)], {0: 1.0, 2: 0.4}, 1.0)
    assert got[0].tail == pytest.approx(0.5) and got[0].head_tail == pytest.approx(0.5)
    assert got[2].lead == pytest.approx(0.2) and got[2].foot_lead == pytest.approx(0.2)
    tight = reaches([("", 1.0), ("く", 1.1), ("", 1.0)], {0: 1.0, 2: 0.4}, 1.0)[2]
    assert tight.lead == pytest.approx(0.1)  # 1.1 - 0.5 taken - 0.5 kept clear
    alone = reaches([("く", 0.85), ("", 1.0)], {1: 0.4}, 1.0)[1]  # no ruby before the kana: all of the excess
    assert alone.lead == pytest.approx(0.2) and alone.foot_lead == pytest.approx(0.4)


@pytest.mark.parametrize("mark", ["ー", "…", "―", "ッ"])
def test_a_reading_reaches_over_the_long_vowel_mark_and_dashes_beside_it(mark):
    """JLREQ 3.3.8: a reading may reach over a prolonged sound mark (cl-10) and an inseparable
    dash or leader (cl-08) by up to one ruby character, as over a kana (pnpgen held ー and the dashes
    like kanji, and spaced the base out)."""
    assert room(mark, 1.0, True, 1.0) == 1.0 and room(mark, 1.0, False, 1.0) == 1.0
    got = reaches([(mark, 1.0), ("", 1.0), (mark, 1.0)], {1: 1.5}, 1.0)[1]
    assert got.lead == got.tail == pytest.approx(0.5)
    assert room("々", 1.0, True, 1.0) == 0.0  # an iteration mark (cl-09) is not listed: none


def test_a_group_rubys_shorter_side_is_spread_one_two_one():
    """JLREQ 3.3.6 (JIS X 4051): one part of the room before the first piece and after the last
    for two between each pair; at a line's head none before and one after each (3.3.8 c), at its
    foot the other way (d); a reading's ends capped at one ruby character, the rest between (figure
    2.3.21); a run of dashes is one piece (3.1.10)."""
    assert spread([1.0, 1.0], 4.0) == pytest.approx([0.5, 2.5])  # 0.5 | 1 | 1 | 1 | 0.5
    assert spread([1.0, 1.0, 1.0], 4.5) == pytest.approx([0.25, 1.75, 3.25])
    assert spread([1.0, 1.0], 4.0, "head") == pytest.approx([0.0, 2.0])
    assert spread([1.0, 1.0], 4.0, "foot") == pytest.approx([1.0, 3.0])
    assert spread([0.5, 0.5], 4.0, "", 0.5) == pytest.approx([0.5, 3.0])  # ends 0.5, not 0.75
    assert spread([1.0], 3.0) == pytest.approx([1.0])  # one piece: centred
    assert parts("ラーメン――……") == ["ラ", "ー", "メ", "ン", "――", "……"]


def test_a_reading_may_reach_over_a_brackets_glyph_only_never_its_space():
    """``room``: a kana its advance; a closing bracket or 。 after the ruby, an opening one before
    it, the half em of its glyph; a bracket on its far side nothing (JLREQ 3.3.8)."""
    assert room("の", 1.0, True, 1.0) == 1.0
    assert room("」", 1.0, False, 1.0) == 0.5 and room("。", 1.0, False, 1.0) == 0.5
    assert room("「", 1.0, True, 1.0) == 0.5 and room("「", 1.0, False, 1.0) == 0.0
    assert room("」", 1.0, True, 1.0) == 0.0 and room("漢", 1.0, True, 1.0) == 0.0


GROUP_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ textbox(piece.text, 3, 20, 33, 40, size=10, min_size=10) }}
{{ m.tate(piece.verse, 54, 8, size=10) }}
{{ m.tate(piece.verse2, 44, 8, size=10) }}
{% endblock %}
"""
# five paragraphs: a group ruby's long reading between kanji, its short reading between kana, a long one
# starting a line, a base with a double dash, a base with ー under a short reading; the column the first again
GROUP_TEXT = r"漢{光速|ライトスピード}字\nあ{聖母像|ピエタ}の\n{光速|ライトスピード}字\n漢{光――|ひかりのだっしゅ}字\n漢{ラーメン|拉麺}字"


@pytest.fixture(scope="module")
def group(tmp_path_factory) -> dict[str, list]:
    """The group rubies' glyphs by character: horizontal ones by line, the column's apart."""
    ws = make_workspace(tmp_path_factory.mktemp("group") / "ws", front=GROUP_FRONT,
                        deck=DECK_YAML.replace("fields:\n", "fields:\n  verse: text\n  verse2: text\n")
                        + f'  - {{name: 甲, text: "{GROUP_TEXT}", verse: "漢{{光速|ライトスピード}}字", '
                        + 'verse2: "あ{湖|みずうみ}ー{湖|みずうみ}あ"}\n')
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = [g for g in glyphs(ws / "build" / "test" / "cards.pdf")[0] if g.char and g.char in GROUP_TEXT + "ピエタ湖みずう"]
    box = min(g.x for g in page if g.char == "漢") - 3  # the card's left edge on the sheet: the text box starts 3 mm in
    rows = sorted({round(g.y, 1) for g in page if g.x <= box + 37 and abs(g.size - 10) < 0.01})
    lines = [[g for g in page if g.x <= box + 37 and (abs(g.y - y) < 0.1 or (g.size < 6 and 0 < y - g.y < EM))]
             for y in rows]
    return {"lines": lines, "column": [g for g in page if g.x > box + 50],
            "bar": [g for g in page if box + 40 < g.x <= box + 50]}


def _at(line, chars: str) -> list:
    return [next(g for g in line if g.char == c) for c in chars]


def test_a_group_rubys_base_is_spread_one_two_one_under_its_longer_reading(group):
    """JLREQ 3.3.6 (JIS X 4051): 光速 under ライトスピード between two kanji, which take none of
    it: the base spread along the reading, half as much room before 光 and after 速 as between
    them (0.96 mm, 1.91 mm, 0.96 mm at 10 pt in the proportional gothic). Before, 光速 stood solid
    in the middle, 1.91 mm from each kanji."""
    kan, hikari, haya, ji = _at(group["lines"][0], "漢光速字")
    ra, do = _at(group["lines"][0], "ラド")
    reading = do.x + _w("ド", do, 5) - ra.x
    unit = (reading - _w("光速", hikari)) / 4
    assert unit == pytest.approx(0.96, abs=0.05)
    assert ra.x == pytest.approx(kan.x + _w("漢", kan), abs=0.01)  # the reading touches no kanji
    assert hikari.x - (kan.x + _w("漢", kan)) == pytest.approx(unit, abs=0.01)
    assert haya.x - (hikari.x + _w("光", hikari)) == pytest.approx(2 * unit, abs=0.01)
    assert ji.x - (haya.x + _w("速", haya)) == pytest.approx(unit, abs=0.01)


def test_a_group_rubys_short_reading_is_spread_one_two_one_over_its_base(group):
    """JLREQ 3.3.6: ピエタ over 聖母像, the base solid, the reading spread along it, one part before
    ピ and after タ for two between its characters (JIS X 4051's method; the ends under one ruby
    character, 1.76 mm, figure 2.3.21). Before, ピエタ stood solid in the middle."""
    sei, zo = _at(group["lines"][1], "聖像")
    pi, e, ta = _at(group["lines"][1], "ピエタ")
    base_end = zo.x + _w("像", zo)
    unit = (base_end - sei.x - _w("ピエタ", pi, 5)) / 6
    assert 0 < unit < EM / 2
    assert pi.x - sei.x == pytest.approx(unit, abs=0.01)
    assert e.x - (pi.x + _w("ピ", pi, 5)) == pytest.approx(2 * unit, abs=0.01)
    assert ta.x - (e.x + _w("エ", e, 5)) == pytest.approx(2 * unit, abs=0.01)
    assert base_end - (ta.x + _w("タ", ta, 5)) == pytest.approx(unit, abs=0.01)


def test_a_group_ruby_starting_a_line_spreads_its_base_after_each_character(group):
    """JLREQ 3.3.8 c (JIS X 4051): at a line's head 光 and the reading's head keep the line's
    start, and an equal part of the room follows each base character (0:1:1)."""
    left = group["lines"][0][0].x
    hikari, haya, ji = _at(group["lines"][2], "光速字")
    ra, do = _at(group["lines"][2], "ラド")
    assert hikari.x == pytest.approx(left, abs=0.01) and ra.x == pytest.approx(left, abs=0.01)
    gap = (do.x + _w("ド", do, 5) - ra.x - _w("光速", hikari)) / 2
    assert haya.x - (hikari.x + _w("光", hikari)) == pytest.approx(gap, abs=0.01)
    assert ji.x - (haya.x + _w("速", haya)) == pytest.approx(gap, abs=0.01)


def test_a_group_rubys_base_is_spread_one_two_one_down_a_column(group):
    """Vertical text the same way (m.tate(), a cell 1.1 em a character): 光速 down the column along
    ライトスピード (7 × 1.76 mm), 1.15 mm before 光 and after 速 and 2.29 mm between, measured from
    baseline to baseline; before, 光速 stood solid, 2.29 mm below 漢."""
    kan, hikari, haya, ji = _at(group["column"], "漢光速字")
    cell = EM * 1.1
    unit = (7 * EM / 2 - 2 * cell) / 4
    assert hikari.y - kan.y == pytest.approx(cell + unit, abs=0.02)
    assert haya.y - hikari.y == pytest.approx(cell + 2 * unit, abs=0.02)
    assert ji.y - haya.y == pytest.approx(cell + unit, abs=0.02)


def test_a_bases_double_dash_stays_whole_and_its_long_vowel_mark_is_spread_as_a_letter(group):
    """JLREQ 3.1.10-3.1.11: no space is added inside ―― — spreading 光―― along its reading (3.3.6)
    moves the pair as one piece, 1:2:1 around 光 and ――; ー in ラーメン is a letter (cl-10) under the
    short reading 拉麺, whose ends stop one ruby character (1.76 mm) in from the base's, the rest
    between 拉 and 麺 (figure 2.3.21: 1:2:1 would set them 2.4 mm in)."""
    kan, hikari, ji = _at(group["lines"][3], "漢光字")
    dashes = [g for g in group["lines"][3] if g.char == "―"]
    assert len(dashes) == 2
    d1, d2 = sorted(dashes, key=lambda g: g.x)
    assert d2.x - d1.x == pytest.approx(_w("―", d1), abs=0.01)  # the pair unopened
    unit = hikari.x - (kan.x + _w("漢", kan))
    assert unit > 0.5
    assert d1.x - (hikari.x + _w("光", hikari)) == pytest.approx(2 * unit, abs=0.01)
    assert ji.x - (d2.x + _w("―", d2)) == pytest.approx(unit, abs=0.01)
    ra, bar, me, n = _at(group["lines"][4], "ラーメン")
    assert bar.x - ra.x == pytest.approx(_w("ラ", ra), abs=0.01) and n.x - me.x == pytest.approx(_w("メ", me), abs=0.01)
    la, men = _at(group["lines"][4], "拉麺")
    assert la.x - ra.x == pytest.approx(EM / 2, abs=0.01)
    assert n.x + _w("ン", n) - (men.x + _w("麺", men, 5)) == pytest.approx(EM / 2, abs=0.01)


def test_down_a_column_a_reading_reaches_over_ー_and_the_next_keeps_a_ruby_character_clear(group):
    """m.tate() keeps the one rule (JLREQ 3.3.8): あ{湖|みずうみ}ー{湖|みずうみ}あ at 10 pt, a cell
    1.1 em: the first reading reaches 1.59 mm down over ー, the second only 0.53 mm up over it, so
    1.76 mm (one ruby character) stays between them — the last み of the first and the first み of
    the second one em apart, baseline to baseline. Before, ー took no reading: 5.64 mm."""
    reading = sorted((g for g in group["bar"] if g.size < 6), key=lambda g: g.y)
    assert "".join(g.char for g in reading) == "みずうみみずうみ"
    assert reading[4].y - reading[3].y == pytest.approx(EM, abs=0.02)
    assert reading[1].y - reading[0].y == pytest.approx(EM / 2, abs=0.02)  # set solid within a reading
    a, lake, bar, lake2, a2 = sorted((g for g in group["bar"] if g.size > 6), key=lambda g: g.y)
    assert reading[0].y < lake.y and reading[-1].y > lake2.y
    cell = EM * 1.1
    assert lake.y - a.y == pytest.approx(cell, abs=0.02)  # the first reaches over あ and ー: 湖 keeps its cell
