"""Latin text: words break at spaces and hyphens, a word longer than the line at its hyphenation
points with a visible hyphen, never elsewhere; mixed Japanese/Latin keeps JLREQ and the 和欧間 space.

Positions are measured in millimetres on the laid-out cells (and on the emitted SVG)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pyphen
import pytest

from pnpgen import fonts
from pnpgen.text import TextContext, break_lines, layout_text, textbox
from pnpgen.text.cells import GAP, PT, char_width
from pnpgen.text.linecheck import check_layout

ROOT = Path(__file__).resolve().parents[2]
GOTHIC = fonts.DEFAULT_FONTS["gothic"]
MONO = fonts.DEFAULT_FONTS["mono"]


@pytest.fixture(scope="module", autouse=True)
def registered():
    for name in fonts.DEFAULT_FONTS.values():
        fonts.register(name, ROOT / "fonts")


def ctx(lang="en", **kw) -> TextContext:
    return TextContext(fonts=dict(fonts.DEFAULT_FONTS), fallback_fonts=[], palette={}, icon_dirs=[],
                       where="test", lang=lang, **kw)


def width_mm(text: str, font: str, size: float) -> float:
    return sum(char_width(font, c) for c in text) * size


WORD = "Counterintelligence"


@functools.cache
def en_points() -> set[int]:
    """The dictionary's hyphenation points of WORD (loaded when a test asks, not at collection)."""
    return set(pyphen.Pyphen(lang="en_US", left=2, right=3).positions(WORD.lower()))


@pytest.mark.parametrize("chars", [7, 9, 11, 14])
def test_long_word_breaks_only_at_hyphenation_points_with_a_hyphen(chars):
    size = 10.0
    w = width_mm("n" * chars, GOTHIC, size)  # narrower than the word
    assert width_mm(WORD, GOTHIC, size) > w
    lay = layout_text(ctx(), WORD, w, 100, size=size, min_size=size)
    lines = lay.lines
    assert len(lines) >= 2
    offsets, pos = [], 0
    for ln in lines[:-1]:
        assert ln.hyphen and ln.text.endswith("-")  # a visible hyphen, drawn as the last cell
        pos += len(ln.text) - 1
        offsets.append(pos)
    assert not lines[-1].hyphen and "".join(ln.text[:-1] for ln in lines[:-1]) + lines[-1].text == WORD
    assert set(offsets) <= en_points(), f"broken at {offsets}, dictionary points {sorted(en_points())}"
    for ln in lines:  # every line, hyphen included, stays inside the box
        assert ln.xs[-1] + ln.cells[-1].width * size <= w + 1e-6
    assert check_layout(lay) == []


def test_hyphen_is_drawn_in_the_svg():
    size = 10.0
    w = width_mm("n" * 9, GOTHIC, size)
    svg = str(textbox(ctx(), WORD, 0, 0, w, 100, size=size, min_size=size))
    drawn = re.findall(r">([^<]+)</text>", svg)
    assert drawn[0].endswith("-") and "".join(s.rstrip("-") for s in drawn) == WORD


def test_words_that_fit_move_down_whole():
    text = "Place one worker on any unoccupied space of the genesis area"
    for chars in range(12, 40, 3):
        w = width_mm("n" * chars, GOTHIC, 9)
        lay = layout_text(ctx(), text, w, 200, size=9, min_size=9)
        assert " ".join(ln.text for ln in lay.lines) == text  # every break at a space, no hyphen
        assert not any(ln.hyphen for ln in lay.lines)


def test_compound_breaks_after_its_own_hyphen_without_adding_one():
    lines = break_lines("Counter-intelligence-operations", 7, lambda c: 0.5, lang="en")
    assert lines == ["Counter-", "intelligence-", "operations"]


def test_a_dash_between_words_breaks_after_it_on_the_line_it_fits():
    """``double—counterintelligence`` on a hex tile: the line ends after the dash where it fits
    (「score double—」), as after a compound's hyphen, not before 「double」, which left 「score」 alone
    on its line and cost the box a line it did not have; no line starts with the dash."""
    text = "Mountain-adjacent tiles score double—counterintelligence!"
    assert break_lines(text, 24, lambda c: 1.0, lang="en") == [
        "Mountain-adjacent tiles", "score double—", "counterintelligence!"]
    assert break_lines("tiles score—", 11, lambda c: 1.0, lang="en") == ["tiles", "score—"]


@pytest.mark.parametrize("dash", ["—", "―"])
def test_a_spaced_dash_stays_on_the_line_of_the_word_before_it(dash):
    """``Take a card — then pass``: at every width a line ends with the dash (or with the word
    before it, both going down), never starts with it; on a card and in the book."""
    from pnpgen.rulebook.paralines import set_lines

    text = f"Take a card {dash} then pass the turn to the next player."
    for chars in range(8, len(text)):
        lines = break_lines(text, chars, lambda c: 1.0, lang="en")
        assert not [ln for ln in lines if ln.startswith(dash)], (chars, lines)
        book = [text[s:e] for s, e in set_lines(text, chars, lambda c: 1.0, 0.0, 1.0, "en")]
        assert not [ln for ln in book if ln.startswith(dash)], (chars, book)
    assert break_lines(text, 12, lambda c: 1.0, lang="en")[:2] == ["Take a", f"card {dash} then"]


def test_no_mid_word_break_without_a_hyphenation_point():
    # "rhythms" has no hyphenation point: it runs over the line rather than split
    assert break_lines("a rhythms b", 2, lambda c: 0.5, lang="en") == ["a", "rhythms", "b"]


def test_language_chooses_the_dictionary():
    # Dutch, whose dictionary splits this word where the English one does not (and loads fast)
    word = "Arbeidsongeschiktheidsverzekering"
    nl = break_lines(word, 6, lambda c: 0.5, lang="nl")
    nl_points = set(pyphen.Pyphen(lang="nl_NL", left=2, right=3).positions(word))
    pos, offsets = 0, []
    for ln in nl[:-1]:
        pos += len(ln) - 1
        offsets.append(pos)
    assert offsets and set(offsets) <= nl_points
    assert not set(offsets) <= set(pyphen.Pyphen(lang="en_US", left=2, right=3).positions(word))


def test_latin_words_in_japanese_text_never_split():
    # the README's promise: a Latin word is one unit (the Japanese around it breaks as JLREQ says)
    text = "このカードはCounterintelligenceを得る。"
    for chars in range(20, 40):
        lines = break_lines(text, chars / 2, lambda c: 1.0 if ord(c) > 0x2000 else 0.5)
        joined = "".join(lines)
        assert "Counterintelligence" in joined.replace("-", "") and joined.count("-") == 0


# --- mixed Japanese/Latin: JLREQ for the Japanese, 和欧間 between the scripts -------------------

def gaps(lay):
    """For every Latin/Japanese boundary inside a line: the space (mm) between the two glyphs."""
    out = []

    def ja(c):
        return "\u3040" <= c.text[:1] <= "\u9fff"

    def la(c):
        return c.text[:1].isascii() and c.text[:1].isalnum()

    for ln in lay.lines:
        glyphs = [(c, x) for c, x in zip(ln.cells, ln.xs) if c.kind != GAP]
        for (a, xa), (b, xb) in zip(glyphs, glyphs[1:]):
            if (ja(a) and la(b)) or (la(a) and ja(b)):
                out.append((a.text + b.text, xb - (xa + a.width * lay.size)))
    return out


MIXED = "手番ごとにVPを1点得る。ただし、Counter-intelligenceは「使用済み」にする。"


def test_mixed_sentence_has_a_quarter_em_between_scripts():
    size = 10.0
    lay = layout_text(ctx("ja"), MIXED, 200, 50, size=size, min_size=size, font="mono")
    assert len(lay.lines) == 1
    found = dict(gaps(lay))
    # kana/kanji against a Latin letter or digit; none after 、 (punctuation has its own space)
    assert set(found) == {"にV", "Pを", "を1", "1点", "eは"}
    for pair, g in found.items():
        assert g == pytest.approx(0.25 * size * PT, abs=1e-6), pair
    # and nowhere else: the line is exactly its glyphs plus five quarter-em gaps
    glyphs = sum(c.width for c in lay.lines[0].cells if c.kind != GAP) * size
    assert lay.lines[0].width == pytest.approx(glyphs + 5 * 0.25 * size * PT)


def test_game_can_set_or_drop_the_gap():
    size = 10.0
    for em in (0.0, 0.5):
        lay = layout_text(ctx("ja", latin_gap=em), "手番ごとにVPを得る", 200, 50, size=size, min_size=size)
        assert {p: round(g, 6) for p, g in gaps(lay)} == {"にV": round(em * size * PT, 6), "Pを": round(em * size * PT, 6)}


@pytest.mark.parametrize("chars", range(6, 30))
def test_mixed_sentence_keeps_jlreq_at_every_width(chars):
    size = 10.0
    w = chars * size * PT + 1e-4  # whole ems of the monospaced face
    lay = layout_text(ctx("ja"), MIXED, w, 200, size=size, min_size=size, font="mono")
    assert check_layout(lay) == []  # no 。、」 at a line start, no 「 at an end, no split word
    for ln in lay.lines:
        assert ln.text[:1] not in "。、」ー" and ln.text[-1:] != "「"
        ink = [i for i, c in enumerate(ln.cells) if not c.space]
        last = ink[-1]
        assert ln.xs[last] + ln.cells[last].width * size <= w + 1e-6  # a gap at the end never overhangs
        assert ln.cells[0].kind != GAP
    assert "".join(ln.text for ln in lay.lines) == MIXED


def test_gap_at_a_line_end_counts_for_nothing():
    size = 10.0
    text = "手番ごとにVPを得る"
    w = width_mm("手番ごとに", MONO, size) + 1e-4  # the line ends where the gap before V would be
    lay = layout_text(ctx("ja"), text, w, 50, size=size, min_size=size, font="mono", align="right")
    first = lay.lines[0]
    assert first.text == "手番ごとに"
    ink = [i for i, c in enumerate(first.cells) if not c.space][-1]
    assert first.xs[ink] + first.cells[ink].width * size == pytest.approx(w, abs=1e-3)  # flush right


def test_a_box_sets_a_long_word_smaller_and_whole_before_it_hyphenates_it():
    """A game trial: a card title ``Incomprehensibilities`` (13 pt, min 8) was hyphenated onto two
    lines at 10 pt although it fits whole on one line at 8.75 pt. A size that fits only by breaking
    a word gives way to the largest smaller one, down to ``min_size``, with every word whole; a word
    too long even at ``min_size`` is still hyphenated."""
    word = "Incomprehensibilities"
    bold = fonts.DEFAULT_FONTS["bold"]
    fonts.register(bold, ROOT / "fonts")
    w, h = 37.0, 9.0
    one_line = next(s / 4 for s in range(52, 31, -1) if width_mm(word, bold, s / 4) <= w)  # the largest 0.25 pt step
    assert 8 <= one_line < 11
    lay = layout_text(ctx(), word, w, h, size=13, min_size=8, font="bold")
    assert [ln.text for ln in lay.lines] == [word] and not lay.lines[0].hyphen
    assert lay.size == one_line, (lay.size, one_line)
    assert check_layout(lay) == []
    lay = layout_text(ctx(), word, w, h, size=13, min_size=11, font="bold")  # no whole size allowed
    assert len(lay.lines) == 2 and lay.lines[0].hyphen and lay.size >= 11


def test_a_number_is_set_smaller_and_whole_before_it_is_broken_and_said_when_it_cannot_be():
    """An English designer's trial: a cost of "1,000" in the card's 8 mm cost circle (12 pt, min 7)
    printed as "1,00" over "0", without a word, although it fits whole on one line at a smaller
    size. A number gives way to a smaller size as a long word does; one too wide even at the
    minimum is warned, not broken in silence."""
    bold = fonts.DEFAULT_FONTS["bold"]
    fonts.register(bold, ROOT / "fonts")
    w, h = 8.0, 8.0
    one_line = next(s / 4 for s in range(48, 27, -1) if width_mm("1,000", bold, s / 4) <= w)
    c = ctx()
    lay = layout_text(c, "1,000", w, h, size=12, min_size=7, font="bold")
    assert [ln.text for ln in lay.lines] == ["1,000"] and lay.size == one_line and lay.fits
    textbox(c, "100,000", 0, 0, w, h, size=12, min_size=7, font="bold")  # too wide even at 7 pt
    assert len(c.warnings) == 1 and "text does not fit its 8.0×8.0 mm box even at 7 pt (needs a wider box); " \
        "set at 7 pt, a number broken over two lines" in c.warnings[0], c.warnings


def test_a_glyph_too_wide_for_its_box_is_warned_with_how_much_wider_the_box_must_be():
    """The warning said "needs a wider box" without saying by how much: it gives the width."""
    bold = fonts.DEFAULT_FONTS["bold"]
    fonts.register(bold, ROOT / "fonts")
    c = ctx()
    textbox(c, "W", 0, 0, 1.0, 20, size=12, min_size=10, font="bold")
    wide = width_mm("W", bold, 10)
    assert len(c.warnings) == 1 and f"(needs a box {wide - 1.0:.1f} mm wider); set at 10 pt, overflowing" \
        in c.warnings[0], c.warnings


def test_text_in_a_circle_keeps_its_corners_inside_it_and_an_unknown_shape_is_an_error():
    """textbox(shape="circle") (a layout's round panel, m.badge): the block, centred, reaches at
    most IN_CIRCLE of the way to the ellipse inscribed in the box; in the square box the same
    number is set larger, its corners past the circle."""
    from pnpgen.errors import InputError
    from pnpgen.text.layout import IN_CIRCLE

    c = ctx()
    square = layout_text(c, "1,000", 8, 8, size=12, min_size=5, font="bold", align="center", valign="middle")
    round_ = layout_text(c, "1,000", 8, 8, size=12, min_size=5, font="bold", align="center", valign="middle",
                         shape="circle")
    reach = [((lay.lines[0].width / 8) ** 2 + (lay.height / 8) ** 2) ** 0.5 / IN_CIRCLE for lay in (square, round_)]
    assert round_.fits and round_.texts == ["1,000"] and round_.size < square.size, (round_.size, square.size)
    assert reach[0] > 1 >= reach[1], reach
    with pytest.raises(InputError) as e:
        textbox(c, "1", 0, 0, 8, 8, shape="oval")
    assert "textbox: unknown shape 'oval' (test) (expected shape rect|circle)" in str(e.value), e.value
