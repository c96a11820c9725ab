"""Ruby in the book's body text (rulebook/bookruby.py): a reading the draft gives is set above its
word at half the text's size, in the line gap, so the line stays on the book's 15 pt grid (JLREQ
3.3.2); a reading longer than its base spreads the base 1:2:1, a shorter one over a group base is
spread along it. It was printed in parentheses after its word. Measured in millimetres with PDFium."""

from __future__ import annotations

import pytest

from conftest import DRAFT, make_workspace, run
from pdfprobe import glyphs
from pnpgen import fonts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook

PT = 25.4 / 72
SIZE = 9.0  # the body's size, pt
LINE = "漢{湖|みずうみ}字の{騎士|きし}と{東京|とう|きょう}。"


def _page(tmp_path, line: str) -> list:
    """The glyphs of the page where the draft's paragraph ``line`` (with a 湖 in it) is set."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("１：カードを１枚引く。", "１：カードを引く\n　" + line),
                                                    encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    return next(p for p in glyphs(result.files["rulebook.pdf"]) if any(g.char == "湖" for g in p))


def _book(tmp_path, line: str) -> list:
    page = _page(tmp_path, line)
    base_y = next(g.y for g in page if g.char == "湖")
    return [g for g in page if abs(g.y - base_y) < 4 and g.char.strip()]


@pytest.fixture(scope="module")
def line(tmp_path_factory) -> list:
    return _book(tmp_path_factory.mktemp("ruby"), LINE)


def _at(line, chars: str, small: bool = False) -> list:
    return [next(g for g in line if g.char == c and (g.size < SIZE * 0.75) == small) for c in chars]


def _w(text: str, g) -> float:
    return fonts.string_width_mm(text, g.font, g.size)


def test_a_reading_sits_in_the_line_gap_at_half_size_and_the_line_keeps_the_grid(line, tmp_path):
    lake, = _at(line, "湖")
    mi = _at(line, "み", small=True)[0]
    assert mi.size == pytest.approx(SIZE / 2, abs=0.01)
    # its em box on the base's: 0.88 em of the base above the baseline, 0.12 em of its own
    assert lake.y - mi.y == pytest.approx((0.88 * SIZE + 0.12 * SIZE / 2) * PT, abs=0.02)
    # and below the line above's em box (15 pt grid, 9 pt text: the gap holds 6 pt)
    assert (15 - 0.12 * SIZE) * PT - (lake.y - mi.y + 0.88 * SIZE / 2 * PT) > 0.4
    plain = _book(tmp_path, "漢湖（みずうみ）字の騎士（きし）と東京（とうきょう）。")  # the same line in parentheses
    assert next(g.y for g in plain if g.char == "湖") == pytest.approx(lake.y, abs=0.01)  # on the same grid line


def test_a_longer_reading_spreads_its_base_and_a_shorter_one_spreads_along_its_base(line):
    kan, lake, ji = _at(line, "漢湖字")
    reading = sorted(_at(line, "みずう", small=True), key=lambda g: g.x)
    length = _w("みずうみ", reading[0])
    assert lake.x - kan.x == pytest.approx(_w("漢", kan) + (length - _w("湖", lake)) / 2, abs=0.02)  # 湖 centred
    assert reading[0].x == pytest.approx(kan.x + _w("漢", kan), abs=0.02)  # the reading over 湖 alone
    assert ji.x == pytest.approx(reading[0].x + length, abs=0.02)
    ki, shi = _at(line, "きし", small=True)
    kishi = _at(line, "騎士")
    unit = (_w("騎士", kishi[0]) - _w("きし", ki)) / 4  # 1:2:1 along 騎士 (JLREQ 3.3.6)
    assert ki.x - kishi[0].x == pytest.approx(unit, abs=0.02)
    assert shi.x - (ki.x + _w("き", ki)) == pytest.approx(2 * unit, abs=0.02)
    to, kyo = _at(line, "東京")
    # a jukugo's reading half an em longer than 東京, between と and 。: it reaches a quarter em over
    # each (JLREQ 3.3.8), the base set solid
    assert kyo.x - to.x == pytest.approx(_w("東", to), abs=0.02)
    tou, = _at(line, "と", small=True)
    assert tou.x == pytest.approx(to.x - SIZE * PT / 4, abs=0.02)


@pytest.mark.parametrize("before, after, lead, tail", [("の", "へ", 0.5, 0.5), ("漢", "へ", 0.0, 0.5),
                                                       ("の", "字", 0.5, 0.0), ("漢", "字", 0.0, 0.0)])
def test_a_longer_reading_reaches_over_a_kana_beside_its_base_by_one_ruby_character(tmp_path, before, after, lead, tail):
    """JLREQ 3.3.8 (book47): みずうみ over 湖, an em longer than its base, reaches half an em (one ruby
    character) over a kana on either side of it and none over a kanji; what its neighbours do not
    take spreads the base (the book spread it always, setting 湖 an em wide in its own gap)."""
    line = _book(tmp_path, f"あいう{before}{{湖|みずうみ}}{after}えお。")
    first, lake, last = _at(line, before + "湖" + after)
    mi = min(_at(line, "み", small=True), key=lambda g: g.x)
    em = SIZE * PT
    spread = em - (lead + tail) * em  # the base's share of the reading's excess
    assert lake.x - first.x == pytest.approx(_w(before, first) + spread / 2, abs=0.02)
    assert last.x - lake.x == pytest.approx(_w("湖", lake) + spread / 2, abs=0.02)
    assert mi.x == pytest.approx(lake.x - spread / 2 - lead * em, abs=0.02)  # over the kana before, as far as it may


def test_a_reading_longer_than_the_line_keeps_its_parentheses_on_the_page(tmp_path):
    """A reading wider than the text column (hostile46: ｜鏡《か…》 of 10,000 characters spread its
    base, one unit, past the page's edge: a line of readings off the A5 page, the words after it
    gone) is printed in parentheses after its word, which break across lines as text does."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    reading = "か" * 400
    (ws / "data" / "test" / "draft.txt").write_text(
        DRAFT.replace("１：カードを１枚引く。", "１：カードを引く\n　漢｜湖《" + reading + "》字の{騎士|きし}。"), encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    page = next(p for p in glyphs(result.files["rulebook.pdf"]) if any(g.char == "湖" for g in p))
    assert all(0 <= g.x <= 148 - 10 for g in page if g.char.strip())  # nothing past the A5 page's margin
    kana = [g for g in page if g.char == "か"]
    assert len(kana) >= 300 and all(g.size == pytest.approx(SIZE) for g in kana)  # set as text, not ruby
    assert "（" + "か" * 20 in "".join(g.char for g in page)
    ki = next(g for g in page if g.char == "き" and g.size < SIZE * 0.75)  # 騎士's reading still ruby
    assert ki.size == pytest.approx(SIZE / 2, abs=0.01)


def test_a_paragraph_looks_at_its_own_rubies_only():
    """hostile46: every paragraph tried each of the draft's rubies at each of its characters (8,000
    rubies in a 240 kB draft: 24 CPU-s to set the book, 3 now); a paragraph's rubies are those its
    text holds, and only their readings are measured against the line."""
    from pnpgen.rulebook.bookruby import placed

    others = [(f"騎士（{'かきくけこ'[i % 5] * (i % 7 + 1)}{i}）", "騎士", f"x{i}") for i in range(1000)]
    asked: list[str] = []
    text, ruby, jukugo = placed("漢湖（みずうみ）字の騎士（きし）。", [*others, ("湖（みずうみ）", "湖", "みずうみ"),
                                ("騎士（きし）", "騎士", "きし")], lambda reading: asked.append(reading) or True)
    assert text == "漢湖字の騎士。" and ruby == ((1, 2, "みずうみ"), (4, 6, "きし")) and jukugo == ()
    assert asked == ["みずうみ", "きし"]


def test_a_ruby_parted_by_a_line_end_or_without_a_reading_is_warned_at_its_line(tmp_path, capsys):
    """``{東⏎京|とうきょう}`` and Aozora's ``｜大⏎阪《おおさか》`` (a word broken across two lines of the draft)
    and ``{騎士|}`` (no reading) printed their braces and bars in the book, unwarned (book47): each is
    warned at its draft line with the ruby written whole; the book still prints what the draft says."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("１：カードを１枚引く。", "１：カードを引く\n　{東\n京|とうきょう}へ行く。｜大\n阪《おおさか》へ行く。"
                                   "\n　{騎士|}は強い。{騎士|きし}は強い。"), encoding="utf-8")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True)
    line = DRAFT.split("\n").index("１：カードを１枚引く。") + 2
    said = [w.split(str(draft) + ":", 1)[1] for w in result.warnings if "ruby" in w]
    assert said == [
        f"{line}: a ruby the rulebook cannot set, 「{{東⏎京|とうきょう}}」: its word is parted by the end of the line, so its "
        "marks print as written (expected {東京|とうきょう} on one line, or the word alone)",
        f"{line + 1}: a ruby the rulebook cannot set, 「｜大⏎阪《おおさか》」: its word is parted by the end of the line, so "
        "its marks print as written (expected ｜大阪《おおさか》 on one line, or the word alone)",
        f"{line + 3}: a ruby the rulebook cannot set, 「{{騎士|}}」: it gives no reading, so its marks print as written "
        "(expected {騎士|よみがな}, the reading after the bar, or the word alone)"]
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0  # pnpgen check says each at its line too (polish47a)
    told = capsys.readouterr()
    assert all(f"data/test/draft.txt:{s}" in told.out + told.err for s in said) and "Traceback" not in told.err, told
    page = "".join(g.char for p in glyphs(result.files["rulebook.pdf"]) for g in p)
    assert "{東" in page and "{騎士|}は強い" in page  # (what the warnings say the book prints)
    written = draft.read_text(encoding="utf-8").replace("{東\n京|", "{東京|").replace("｜大\n阪", "｜大阪").replace("{騎士|}", "騎士")
    draft.write_text(written, encoding="utf-8")
    assert not [w for w in build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts", rules_only=True).warnings
                if "ruby" in w]


def test_a_jukugo_ruby_parts_at_a_line_end_each_base_character_under_its_own_reading(tmp_path):
    """JLREQ 3.3.7 and Appendix F: a jukugo ruby may break between its base characters. 東京 whose
    東 is the line's last character that fits was pushed down whole, the line above spaced out by an
    em; now 東 ends the line under とう and 京 starts the next under きょう (a word on one line
    keeps one group ruby, the test above)."""
    full = [g for g in _page(tmp_path / "plain", "湖" + "あ" * 60 + "。") if g.char in "湖あ"]
    y1 = next(g.y for g in full if g.char == "湖")  # the paragraph's first line (y down the page)
    line_1 = [g for g in full if abs(g.y - y1) < 0.05]
    y2 = min(g.y for g in full if g.y > y1 + 0.05)
    assert len(line_1) == 34 and y2 - y1 == pytest.approx(15 * PT, abs=0.01)  # 34 a line, on the 15 pt grid
    right = max(g.x for g in line_1) + _w("あ", line_1[-1])  # the text column's right edge
    left = min(g.x for g in full if abs(g.y - y2) < 0.05)  # and its left, where the next line starts
    page = _page(tmp_path / "jukugo", "湖" + "あ" * 32 + "{東京|とう|きょう}に行く。")
    to, kyo = (next(g for g in page if g.char == c and g.size > SIZE * 0.75) for c in "東京")
    assert to.y == pytest.approx(y1, abs=0.01) and to.x + _w("東", to) == pytest.approx(right, abs=0.05)
    assert kyo.y == pytest.approx(y2, abs=0.01) and kyo.x == pytest.approx(left, abs=0.05)
    readings = [g for g in page if g.size < SIZE * 0.75 and g.char.strip()]
    over_to = sorted((g for g in readings if y1 - 4 < g.y < y1), key=lambda g: g.x)
    over_kyo = sorted((g for g in readings if y1 < g.y < y2), key=lambda g: g.x)
    assert "".join(g.char for g in over_to) == "とう" and "".join(g.char for g in over_kyo) == "きょう"
    assert over_to[0].x == pytest.approx(to.x, abs=0.05)  # とう over 東 alone, solid, on its em box
    assert over_to[-1].x + _w("う", over_to[-1]) == pytest.approx(right, abs=0.05)
    assert over_kyo[0].x == pytest.approx(left, abs=0.05)  # きょう's head on 京's, at the line's start
    for g, base in [*((g, to) for g in over_to), *((g, kyo) for g in over_kyo)]:  # half size, in the line gap
        assert g.size == pytest.approx(SIZE / 2, abs=0.01)
        assert base.y - g.y == pytest.approx((0.88 * SIZE + 0.12 * SIZE / 2) * PT, abs=0.02)
