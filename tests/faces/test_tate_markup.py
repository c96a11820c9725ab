"""Vertical text (``m.tate()``, ``m.tate_box()``, a layout's ``vertical: true`` box) and the card
text's markup. trial-tateR: a karuta designer's ``**いっせー**の`` printed its asterisks down the
column, ``[red]十[/red]`` its tags, ``{star}`` its braces: vertical text read ruby and nothing else
of the markup (the docs said "prints as written"). It reads all of it now, with horizontal text's one
reader (data/markup.parse), and tells its mistakes as a text box does. And a ruby's reading longer
than its base spaced the base out even beside kana, where JLREQ 3.3.8 lets it overhang the kana;
it now reaches over its neighbours by horizontal text's one rule (text/ruby.py: up to one ruby
character, onto a kana or a bracket's glyph; the base at the column's top or foot keeps the edge)."""

from __future__ import annotations

import ctypes
import json

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from test_tate import LAYOUT_VERSE

from conftest import DECK_YAML, REPO, make_workspace, run
from pnpgen import fonts
from pnpgen.faces import tate
from pnpgen.units import MM_PER_PT

EM = 12 / 72 * 25.4  # the verse's 12 pt in mm
CELL = EM * 1.1
READING = 4 * EM / 2  # あらしの at half size

KARUTA = LAYOUT_VERSE.replace("[いっせーの, 10まで数えて, 札をとる]",
                              "['**いっせー**の', '[red]十{star}[/red]まで', 'あ{嵐|あらしの}が札', '山{嵐|あらしの}川']")


def _glyphs(pdf) -> list[dict]:
    """Each character of the first page: its text, font, fill colour, baseline origin and box
    centre (mm from the trim's top-left)."""
    page = pdfium.PdfDocument(str(pdf))[0]
    left0, _, _, top0 = page.get_trimbox()
    tp = page.get_textpage()
    return [_glyph(tp, i, left0, top0) for i in range(tp.count_chars()) if tp.get_text_range(i, 1).strip()]


def _glyph(tp, i: int, left0: float, top0: float) -> dict:
    font = ctypes.create_string_buffer(128)
    raw.FPDFText_GetFontInfo(tp, i, font, 128, None)
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    raw.FPDFText_GetFillColor(tp, i, *(ctypes.byref(v) for v in (r, g, b, a)))
    ox, oy = ctypes.c_double(), ctypes.c_double()
    raw.FPDFText_GetCharOrigin(tp, i, ctypes.byref(ox), ctypes.byref(oy))
    left, bottom, right, top = tp.get_charbox(i)
    return dict(ch=tp.get_text_range(i, 1), font=font.value.decode(), fill=(r.value, g.value, b.value),
                origin=((ox.value - left0) * MM_PER_PT, (top0 - oy.value) * MM_PER_PT),
                centre=(((left + right) / 2 - left0) * MM_PER_PT, (top0 - (top + bottom) / 2) * MM_PER_PT),
                box=((left - left0) * MM_PER_PT, (top0 - top) * MM_PER_PT,
                     (right - left0) * MM_PER_PT, (top0 - bottom) * MM_PER_PT))


@pytest.fixture(scope="module")
def karuta(tmp_path_factory):
    """The karuta card built once: its workspace, its build's stderr."""
    import contextlib
    import io

    ws = make_workspace(tmp_path_factory.mktemp("karuta") / "ws", deck=KARUTA)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    return ws, err.getvalue()


def test_a_karuta_verses_bold_colour_and_icon_are_set_as_horizontal_text_sets_them(karuta):
    ws, err = karuta
    assert "vertical text" not in err and "printed as written" not in err, err
    glyphs = _glyphs(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    words = "".join(g["ch"] for g in glyphs)
    assert words == "いっせーの十まであ嵐あらしのが札山嵐あらしの川", words  # no **, [red], {star} or {|}
    at = {g["ch"]: g for g in glyphs}
    # **いっせー** in the bold font, as a text box's **bold**; の after it regular
    assert all(at[c]["font"].endswith("-Bold") for c in "いっせー"), [at[c]["font"] for c in "いっせー"]
    assert not at["の"]["font"].endswith("-Bold")
    # [red]十…[/red] in the palette's red (#cc3333), まで in the box's ink
    assert at["十"]["fill"] == (0xCC, 0x33, 0x33) and at["ま"]["fill"] != (0xCC, 0x33, 0x33)
    # {star} upright in a cell of its own between 十 and ま: a square the column's width, centred
    x0 = at["十"]["centre"][0]
    assert at["ま"]["origin"][1] - at["十"]["origin"][1] == pytest.approx(2 * CELL, abs=0.01)
    page = pdfium.PdfDocument(str(ws / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    left0, _, _, top0 = page.get_trimbox()
    px = 10  # pixels a mm
    image = np.asarray(page.render(scale=px * 25.4 / 72).to_pil().convert("RGB")).astype(int)
    off = (left0 * MM_PER_PT * px, (page.get_height() - top0) * MM_PER_PT * px)
    paper = image[int(off[1] + 5 * px), int(off[0] + 5 * px)]
    rows = slice(int(off[1] + at["十"]["box"][3] * px) + 2, int(off[1] + at["ま"]["box"][1] * px) - 2)
    cols = slice(int(off[0] + (x0 - 0.7 * EM) * px), int(off[0] + (x0 + 0.7 * EM) * px))
    ink = np.argwhere(np.abs(image[rows, cols] - paper).sum(axis=2) > 60)
    assert len(ink), "no icon drawn between 十 and ま"
    (y_lo, x_lo), (y_hi, x_hi) = ink.min(axis=0), ink.max(axis=0)
    width, height = (x_hi - x_lo + 1) / px, (y_hi - y_lo + 1) / px
    centre = (cols.start + (x_lo + x_hi) / 2) / px - off[0] / px, (rows.start + (y_lo + y_hi) / 2) / px - off[1] / px
    assert 0.7 * EM < width <= EM + 0.2 and 0.7 * EM < height <= EM + 0.2, (width, height, EM)
    assert centre[0] == pytest.approx(x0, abs=0.3)
    assert centre[1] == pytest.approx((at["十"]["centre"][1] + at["ま"]["centre"][1]) / 2, abs=0.3)


def test_a_readings_overhang_of_a_kana_is_measured_in_the_pdf(karuta):
    """あ{嵐|あらしの}が: the reading (two em at half size, 8.5 mm) overhangs あ and が by half its
    excess over the base's cell each (0.45 em, under one ruby character), 嵐 in a cell of its own;
    山{嵐|あらしの}川: kanji each side, nothing overhung, the base centred in the whole reading."""
    ws, _ = karuta
    glyphs = _glyphs(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(g["ch"] for g in glyphs[8:]) == "あ嵐あらしのが札山嵐あらしの川"
    a, storm, reading, ga = glyphs[8], glyphs[9], glyphs[10:14], glyphs[14]
    hill, storm2, reading2, river = glyphs[16], glyphs[17], glyphs[18:22], glyphs[22]
    assert ga["origin"][1] - a["origin"][1] == pytest.approx(2 * CELL, abs=0.01)  # was CELL + READING - EM / 2
    assert river["origin"][1] - hill["origin"][1] == pytest.approx(CELL + READING, abs=0.01)
    # the reading starts 0.45 em above its base's cell beside a kana, level with the base's room beside a kanji
    over = (reading[0]["origin"][1] - a["origin"][1]) - (reading2[0]["origin"][1] - hill["origin"][1])
    assert over == pytest.approx(-(READING - CELL) / 2, abs=0.01)
    assert [g["origin"][1] - reading[0]["origin"][1] for g in reading] == pytest.approx([0, EM / 2, EM, EM * 1.5], abs=0.01)
    # beside the base's column, at half size; the base's one character in the middle of its room
    assert reading[0]["centre"][0] - storm["centre"][0] == pytest.approx(EM * 0.75, abs=0.3)
    assert storm["origin"][1] - a["origin"][1] == pytest.approx(CELL, abs=0.01)
    assert storm2["origin"][1] - hill["origin"][1] == pytest.approx(CELL / 2 + READING / 2, abs=0.01)


def test_the_verses_description_on_the_table_is_its_plain_words(karuta):
    ws, _ = karuta
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    card = json.loads((ws / "build" / "test" / "tabletopsimulator" / "cards.json").read_text(encoding="utf-8"))
    assert card["ObjectStates"][0]["Description"] == "lines: いっせーの 十 star まで あ嵐が札 山嵐川"


def test_an_overhang_only_where_jlreq_allows_it():
    """In mm, horizontal text's rule (text/ruby.py): half the reading's excess a side, up to one
    ruby character, onto a kana and onto the glyph of a closing bracket after the base or an opening
    one before it; none onto a kanji, 、 before the base or another ruby, the base spaced from it;
    at the column's top the base and its reading start there, at its foot they end there, the whole
    excess reaching the other way; a reading no longer than its base centred on it."""
    def ruby(text):
        marks = tate.marks(text, 12)
        return next(m for m in marks if m.kind == "ruby"), marks

    half = (READING - CELL) / 2  # 0.45 em: half of あらしの's excess over 嵐's cell
    both, marks = ruby("あ{嵐|あらしの}が")
    assert both.length == pytest.approx(CELL) and both.reading_top == pytest.approx(both.top - half)
    assert both.base_top == pytest.approx(both.top) and marks[2].top == pytest.approx(both.top + both.length)
    after, _ = ruby("山{嵐|あらしの}が")
    assert after.length == pytest.approx(READING - half) and after.reading_top == pytest.approx(after.top)
    assert after.base_top == pytest.approx(after.top + half)  # spaced from 山 by the half 山 cannot take
    for bracket in ("ア{嵐|あらしの}」", "「{嵐|あらしの}が"):  # a bracket's glyph takes it: was spaced out
        marked, _ = ruby(bracket)
        assert marked.length == pytest.approx(CELL) and marked.reading_top == pytest.approx(marked.top - half), bracket
    stop, _ = ruby("、{嵐|あらしの}が")  # 、 before the base: its glyph is on its far side
    assert stop.length == pytest.approx(READING - half) and stop.reading_top == pytest.approx(stop.top)
    for alone in ("{嵐|あらしの}", "山{嵐|あらしの}川", "{雨|あめ}{嵐|あらしの}"):
        [spaced] = [m for m in tate.marks(alone, 12) if m.text == "嵐"]
        assert spaced.length == pytest.approx(READING) and spaced.reading_top == pytest.approx(spaced.top), alone
    short, _ = ruby("あ{朝顔|あさ}が")
    assert short.length == pytest.approx(2 * CELL) and short.reading_top == pytest.approx(short.top + CELL - EM / 2)
    # one ruby character at most: a longer reading spaces its base from its neighbours for the rest
    long, _ = ruby("あ{嵐|あらしのあら}が")
    assert long.length == pytest.approx(6 * EM / 2 - EM) and long.reading_top == pytest.approx(long.top - EM / 2)
    # at the column's top: base and reading start there, the excess over が up to one ruby character
    top, _ = ruby("{嵐|あらしの}が")
    assert (top.top, top.reading_top, top.base_top) == (0, 0, 0) and top.length == pytest.approx(READING - EM / 2)
    foot, _ = ruby("あ{嵐|あらしの}")  # at its foot: they end there, over あ by one ruby character
    assert foot.length == pytest.approx(READING - EM / 2) and foot.reading_top == pytest.approx(foot.top - EM / 2)
    assert foot.base_top + CELL == pytest.approx(foot.top + foot.length)


def test_a_column_never_ends_with_a_reading_overhanging_the_next_columns_kana():
    """Cut at a ruby that overhung the kana after it, the column would set it longer (its end is
    the column's): the break goes before it when the longer ruby no longer fits."""
    room = 2 * CELL + 0.01  # あ and the ruby overhanging both kana (a cell): fits the line's measure; at the
    # column's foot the ruby is 1.5 em long (its reading's end there, 0.5 em over あ): it fits no more
    found = tate.columns(["あ{嵐|あらしの}がいい"], 0, 0, 60, room + CELL * 3, 12, line_height=1.75)
    assert found.columns[0].text == "あ{嵐|あらしの}がいい"
    found = tate.columns(["あ{嵐|あらしの}がいい"], 0, 0, 60, room, 12, line_height=1.75)
    for column in found.columns:
        assert column.length == pytest.approx(max(m.top + m.length for m in tate.marks(column.text, 12)))
        assert column.length <= room + 1e-6, found
    assert found.columns[0].text == "あ"


def test_the_markup_is_read_once_and_goes_on_across_a_columns_break():
    palette = {"red": "#cc3333"}
    marks = tate.marks(r"**強**[red]火{star}[/red]\*", 12, palette=palette)
    assert [(m.kind, m.text, m.bold, m.colour) for m in marks] == [
        ("upright", "強", True, ""), ("upright", "火", False, "red"), ("icon", "star", False, "red"),
        ("upright", "*", False, "")]
    assert marks[2].length == pytest.approx(CELL)  # an icon a cell of its own
    # a bold line broken into two columns is bold in both; a text's bold goes on past its line break
    found = tate.columns(["**あいうえおか**"], 0, 0, 60, CELL * 3 + 0.01, 12, line_height=1.75)
    assert [[m.bold for m in tate.marks(c.text, 12)] for c in found.columns] == [[True] * 3, [True] * 3]
    assert [[(m.text, m.bold) for m in tate.marks(line, 12)] for line in tate.lines("**あ\nい**う")] == [
        [("あ", True)], [("い", True), ("う", False)]]


LOOSE = """\
name: 読み札
format: karuta
front: verse.svg.j2
fields: {lines: list, word: text}
pieces:
  - {lines: ['**いっせー', 'の'], word: 'ことば'}
"""
VERSE_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.tate_box(piece.lines, 8, 9, w - 16, h - 22, size=12) }}
{{ m.tate(piece.word, 5, 5, size=9) }}
{% endblock %}
"""


def test_vertical_markups_mistakes_are_told_as_a_text_boxs_are(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=LOOSE, front=VERSE_FRONT)
    (ws / "templates" / "test" / "verse.svg.j2").write_text(VERSE_FRONT, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().err
    assert "a '**' without its partner: printed as written" in err and "cards.yaml:6" in err, err
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(LOOSE.replace("'**いっせー'", "'[red]い[/rd]'").replace("'ことば'", "'こと[rd]ば[/rd]'"),
                    encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "unknown colour [rd]" in err and "cards.yaml:6" in err and "Traceback" not in err, err
    deck.write_text(LOOSE.replace("'ことば'", "'こと{stra}'"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "unknown icon {stra}" in err and "star" in err and "field 'word'" in err and "Traceback" not in err, err


def test_a_character_no_font_draws_in_vertical_text_is_told_as_a_text_boxs_is(tmp_path, capsys):
    """trial67: 😀 in m.tate()'s column stopped the build at the template's line, inside the macro,
    naming no field (each mark is set by a text box of its own, given the character alone). It is
    told as a text box tells it now, by the same reporter: the piece's data line, the deck, piece
    and field, and the fallback font that would draw it; m.tate_box()'s list items and a layout's
    vertical box too."""
    ws = make_workspace(tmp_path / "ws", deck=LOOSE.replace("'ことば'", "'こと😀'"), front=VERSE_FRONT)
    (ws / "templates" / "test" / "verse.svg.j2").write_text(VERSE_FRONT, encoding="utf-8")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    said = "character U+1F600 '😀' is in no font"
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert f"cards.yaml:6:36: word: {said}" in err and "field 'word'" in err and "fallback_fonts" in err, err
    assert "macros.svg.j2" not in err and "Traceback" not in err, err
    deck.write_text(LOOSE.replace("'**いっせー'", "'いっ😀'"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:6:" in err and said in err and "field 'lines'" in err and "macros.svg.j2" not in err, err
    deck.write_text(LAYOUT_VERSE.replace("札をとる", "札を😀"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:9:13: lines: " + said in err and "field 'lines'" in err and "macros.svg.j2" not in err, err


def test_an_overhanging_reading_is_linted_as_ruby_not_as_small_text(tmp_path, capsys):
    """The print lint knows a reading by its place beside its base: one starting a quarter em above
    it, over the kana before, is ruby still (3.5 pt, under min_ruby), never 'small text'."""
    ws = make_workspace(tmp_path / "ws", deck=KARUTA.replace("size: 12,", "size: 7,"))
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr().out
    assert "ruby 「あ」 3.5 pt, smaller than 4 pt" in said and "small-text" not in said and "smaller than 6 pt" not in said, said


SPREAD = """\
name: 札
format: karuta
front: verse.svg.j2
fields: {word: text}
pieces:
  - {word: '漢{湖|みずうみ}'}
  - {word: '{湖|みずうみ}'}
  - {word: '{光速|ライトスピード}字'}
"""
SPREAD_FRONT = VERSE_FRONT.replace("{{ m.tate_box(piece.lines, 8, 9, w - 16, h - 22, size=12) }}\n", "").replace(
    "m.tate(piece.word, 5, 5, size=9)", "m.tate(piece.word, 20, 10, size=10)")


def test_a_long_reading_that_spaces_its_base_apart_is_linted_as_ruby_not_as_small_text(tmp_path, capsys):
    """ruby45: a four-kana reading beside a one-kanji base (漢{湖|みずうみ}, or 湖 alone) spaces the
    base away from any column neighbour, and the print lint took the 5 pt reading for small text
    ('text 「み」 5.0 pt, smaller than 6 pt'): a reading is known by its own column of readings too."""
    ws = make_workspace(tmp_path / "ws", deck=SPREAD, front=SPREAD_FRONT)
    (ws / "templates" / "test" / "verse.svg.j2").write_text(SPREAD_FRONT, encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr().out
    assert "print lint" not in said, said
    small = make_workspace(tmp_path / "small", deck=SPREAD, front=SPREAD_FRONT.replace("size=10", "size=7"))
    (small / "templates" / "test" / "verse.svg.j2").write_text(SPREAD_FRONT.replace("size=10", "size=7"), encoding="utf-8")
    assert run(small, "check", "--game", "test") == 0
    said = capsys.readouterr().out
    assert "ruby 「" in said and "3.5 pt, smaller than 4 pt" in said and "smaller than 6 pt" not in said, said


def test_bold_inside_a_latin_run_keeps_the_run_one_turned_word(tmp_path):
    """trial67: ``m.tate("**Game** Over")`` set **Game** turned, then a full cell for the space and
    Over turned again, 6.8 mm below at 12 pt: the markup's edge cut the run. It is one run now,
    turned as one word (3.2.3), Game in the bold font and Over in the regular one, a space apart
    as in ``Game Over``; two digits either side of the edge stay one 縦中横 cell."""
    from test_tate import FRONT

    deck = DECK_YAML + '  - {name: 甲, text: "あ**Game** Overい"}\n  - {name: 乙, text: "あGame Overい"}\n' \
        '  - {name: 丙, text: "あ**1**2い"}\n'
    ws = make_workspace(tmp_path / "ws", front=FRONT, deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    glyphs = [g for g in _glyphs(ws / "build" / "test" / "cards.pdf") if g["ch"] in "あいGameOver12"]
    bold, plain, digits = glyphs[:10], glyphs[10:20], glyphs[20:]
    assert "".join(g["ch"] for g in bold) == "".join(g["ch"] for g in plain) == "あGameOverい"
    em = 10 * MM_PER_PT
    for name in {g["font"].split("+")[-1] for g in glyphs}:
        fonts.register(name, REPO / "fonts")
    for card in (bold, plain):
        word = card[1:9]
        assert max(g["origin"][0] for g in word) - min(g["origin"][0] for g in word) < 0.05  # one baseline, turned
        e, o = word[3], word[4]  # O follows e by e's advance and a space's, within the word (was 6.8 mm at 12 pt)
        space = fonts.string_width_mm("e", e["font"].split("+")[-1], 10) + fonts.string_width_mm(" ", o["font"].split("+")[-1], 10)
        assert o["origin"][1] - e["origin"][1] == pytest.approx(space, abs=0.05)
    assert all("Bold" in g["font"] for g in bold[1:5]) and not any("Bold" in g["font"] for g in bold[5:9])
    # Over and the quarter em after it set alike: the run ends where its pieces' lengths say, い a gap below
    assert [g["origin"][1] - bold[5]["origin"][1] for g in bold[5:]] == pytest.approx(
        [g["origin"][1] - plain[5]["origin"][1] for g in plain[5:]], abs=0.01)
    one, two = digits[1], digits[2]  # 「12」 across in one cell: level, side by side
    assert abs(one["origin"][1] - two["origin"][1]) < 0.05 and 0 < two["origin"][0] - one["origin"][0] < em
    assert "Bold" in one["font"] and "Bold" not in two["font"]
