"""Jukugo ruby (JLREQ 3.3.7, Appendix F), ``{東京|とう|きょう}``: a reading a base character, set on
each character where each fits it (two ruby characters or fewer, F.1), as one group ruby where one
does not (W3C "Rules for Simple Placement of Japanese Ruby" 3.4), across a line and down a column;
and a Latin base down a column (``{CPU|シーピーユー}``) turned as one word, as the column turns a
Latin run outside a ruby (JLREQ 3.2.3), where it stood a letter a cell. Measured in millimetres in
the built PDF."""

from __future__ import annotations

import pytest
from test_text_ruby import GROUP_FRONT
from test_text_ruby import ctx as text_context  # noqa: F401 (test_text_ruby's fixture, by this name here)

from conftest import DECK_YAML, make_workspace, run
from pdfprobe import glyphs
from pnpgen import fonts
from pnpgen.data.markup import RUBY, loose_marks, parse, plain
from pnpgen.rulebook.reader import ruby_in_parentheses
from pnpgen.text import layout_text
from pnpgen.text.cells import PT

EM = 10 * PT  # mm
TEXT = r"漢{日本|に|ほん}字\nあ{東京|とう|きょう}へ"
VERSE = "漢{東京|とう|きょう}字"
VERSE2 = "あ{CPU|シーピーユー}が"


def test_a_reading_a_character_that_fits_is_mono_ruby_and_one_that_does_not_a_group():
    assert [(s.kind, s.text, s.reading) for s in parse("{日本|に|ほん}", {})[0]] == [(RUBY, "日", "に"), (RUBY, "本", "ほん")]
    assert [(s.kind, s.text, s.reading) for s in parse("{東京|とう|きょう}", {})[0]] == [(RUBY, "東京", "とうきょう")]
    assert [(s.text, s.reading) for s in parse("{東京｜とう｜きょう}", {})[0]] == [("東京", "とうきょう")]
    assert plain("{東京|とう|きょう}へ") == "東京へ"


@pytest.mark.parametrize("said", ["{東京|と|う|きょう}", "{東京|とうきょう|}"])
def test_readings_not_one_a_character_print_as_written_and_are_told(said):
    assert parse(said, {})[0][0].text == said
    (told,) = loose_marks(said, {})
    assert said in told and ("3 readings to the 2 characters of 東京" in told or "without its reading" in told)
    if "3 readings" in told:
        assert "{東京|…|…}" in told and "{東京|とうきょう}" in told


@pytest.mark.parametrize("said", ["{東京|" + "|".join(["あ"] * 1000) + "}", "{東京|" + "あ" * 5000 + "|}"])
def test_a_ruby_of_a_thousand_readings_is_told_in_a_line_not_pages(said):
    """hostile46: 1,000 readings were told in a warning of 2,546 characters, the ruby written out
    twice; the ruby and the whole word's reading are named cut with … as other values are."""
    (told,) = loose_marks(said, {})
    assert len(told) < 400, len(told)
    assert told.startswith("a ruby {東京|あ") and "…" in told


def test_the_rulebook_prints_a_jukugo_rubys_readings_run_together():
    assert ruby_in_parentheses("{東京|とう|きょう}へ")[0] == "東京（とうきょう）へ"


def test_a_line_may_break_between_a_fitting_jukugos_characters_not_inside_a_group(request):
    """JLREQ 3.3.7: jukugo ruby set on each character breaks between them as mono ruby does; one
    set as a group ruby is one unit (pnpgen keeps it whole where JLREQ would split it)."""
    context = request.getfixturevalue("text_context")
    assert [ln.text for ln in layout_text(context, "{魔法陣|ま|ほう|じん}", 8, 20, 10, 10).lines] == ["魔法", "陣"]
    group = layout_text(context, "{東京都|とう|きょう|と}", 8, 20, 10, 10)
    assert [ln.text for ln in group.lines] == ["東京都"] and not group.fits


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> list:
    ws = make_workspace(tmp_path_factory.mktemp("jukugo") / "ws", front=GROUP_FRONT,
                        deck=DECK_YAML.replace("fields:\n", "fields:\n  verse: text\n  verse2: text\n")
                        + f'  - {{name: 甲, text: "{TEXT}", verse: "{VERSE}", verse2: "{VERSE2}"}}\n')
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    return [g for g in glyphs(ws / "build" / "test" / "cards.pdf")[0] if g.char.strip() and g.char != "甲"]


def _w(text: str, g, size: float = 10) -> float:
    return fonts.string_width_mm(text, g.font, size)


def _line(page, first: str) -> list:
    """The horizontal line starting with ``first`` (10 pt), its readings with it, left to right."""
    start = min((g for g in page if g.char == first and g.size > 6), key=lambda g: g.x)
    return sorted((g for g in page if abs(g.x - start.x) < 30 and (abs(g.y - start.y) < 0.01 or (g.size < 6 and 0 < start.y - g.y < EM)))
                  , key=lambda g: (g.size < 6, g.x))


def test_a_fitting_jukugo_sets_each_reading_centred_on_its_own_character(page):
    kan, hi, hon, ji, *reading = _line(page, "漢")
    ni, ho, n = reading[:3]
    assert (kan.char, hi.char, hon.char, ji.char) == ("漢", "日", "本", "字")
    assert hi.x - kan.x == pytest.approx(_w("漢", kan), abs=0.01)  # set solid: nothing spaced out
    assert ni.x + _w("に", ni, 5) / 2 == pytest.approx(hi.x + _w("日", hi) / 2, abs=0.01)  # に centred on 日
    assert (ho.x + n.x + _w("ん", n, 5)) / 2 == pytest.approx(hon.x + _w("本", hon) / 2, abs=0.01)  # ほん on 本
    assert n.x + _w("ん", n, 5) < ji.x  # over no neighbour: each reading its own character's


def test_a_jukugo_too_long_for_a_character_is_a_group_ruby_reaching_over_the_kana_beside_it(page):
    """とう|きょう over 東京 between あ and へ: five ruby characters, longer than the base, reach
    half the excess over あ and へ each (JLREQ 3.3.8), the base solid in its place (as {東京|とうきょう})."""
    a, to, kyo, he, *reading = _line(page, "あ")
    assert "".join(g.char for g in reading) == "とうきょう"
    assert to.x - a.x == pytest.approx(_w("あ", a), abs=0.01)
    assert he.x - kyo.x == pytest.approx(_w("京", kyo), abs=0.01)
    over = (_w("とうきょう", reading[0], 5) - _w("東京", to)) / 2
    assert 0.3 < over <= EM / 4
    assert reading[0].x == pytest.approx(to.x - over, abs=0.01)
    assert reading[-1].x + _w("う", reading[-1], 5) == pytest.approx(he.x + over, abs=0.01)


def test_a_jukugo_group_down_a_column_spreads_its_base_along_the_reading_between_kanji(page):
    """漢{東京|とう|きょう}字 down m.tate()'s column (a cell 1.1 em): the kanji take none of the
    reading, so 東京 is spread 1:2:1 along its 8.82 mm (JLREQ 3.3.6), as a group ruby is."""
    column = sorted((g for g in page if g.size > 6 and g.char in "漢東京字" and g.x > min(h.x for h in page) + 45),
                    key=lambda g: g.y)
    unit = (5 * EM / 2 - 2 * EM * 1.1) / 4  # a fourth of what the reading is longer than two cells
    steps = [b.y - a.y - EM * 1.1 for a, b in zip(column[-4:], column[-3:])]  # 漢→東, 東→京, 京→字, less a cell
    assert steps == pytest.approx([unit, 2 * unit, unit], abs=0.02)


def test_a_latin_base_down_a_column_is_turned_as_one_word(page):
    """{CPU|シーピーユー} down a column: CPU turned a quarter clockwise as a Latin run outside a
    ruby is (JLREQ 3.2.3), its letters on one line down the column and as close as the font sets
    them, centred along its reading (which reaches one ruby character over あ and が); it stood a
    letter a cell, upright, spread 1:2:1."""
    letters = [g for g in page if g.char in "CPU" and g.size > 6]
    assert len(letters) == 3
    xs = {round(g.x, 1) for g in letters}
    assert len(xs) == 1  # one line, turned: the same x down the column
    c, p, u = sorted(letters, key=lambda g: g.y)
    assert p.y - c.y == pytest.approx(_w("C", c), abs=0.05) and u.y - p.y == pytest.approx(_w("P", p), abs=0.05)
    a, ga = sorted((g for g in page if g.char in "あが" and g.size > 6 and abs(g.x - c.x) < 5), key=lambda g: g.y)
    cell = EM * 1.1
    reading = 6 * EM / 2
    assert ga.y - a.y == pytest.approx(cell + reading - EM, abs=0.05)  # the reading over a ruby character of each
