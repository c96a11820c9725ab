"""``m.tate()``: two lines of rule text in vertical writing (縦書き) on a bid card. The converter draws
no vertical writing-mode, and the docs said to stack one character per line; stacked so, 「」, ー
and … kept their horizontal forms, and 。 sat low left in its cell, as in horizontal text."""

from __future__ import annotations

import ctypes
import re

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from conftest import BACK, DECK_YAML, REPO, make_workspace, run
from pnpgen.faces import tate
from pnpgen.units import MM_PER_PT

FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.ground("#ffffff") }}
{{ m.tate(piece.text, w / 2, 10, size=10) }}
{% endblock %}
"""


def _chars(pdf) -> list[tuple[str, float, float, bool]]:
    """Each character: its text, its box's centre in mm from the page's top-left, and whether it is
    drawn turned (its text matrix has a rotation)."""
    page = pdfium.PdfDocument(str(pdf))[0]
    h = page.get_height()
    tp = page.get_textpage()
    m = raw.FS_MATRIX()
    out = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.strip():
            continue
        left, bottom, right, top = tp.get_charbox(i)
        raw.FPDFText_GetMatrix(tp, i, ctypes.byref(m))
        out.append((ch, (left + right) / 2 * MM_PER_PT, (h - (top + bottom) / 2) * MM_PER_PT, abs(m.b) > 0.5))
    return out


def test_vertical_text_turns_brackets_and_the_long_vowel_and_sets_the_full_stop_upper_right(tmp_path):
    deck = DECK_YAML + "  - {name: 宣言, text: 「全部」取るーよ。}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=FRONT, back=BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    chars = _chars(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(c for c, *_ in chars) == "「全部」取るーよ。"
    turned = {c for c, _, _, t in chars if t}
    assert turned == {"「", "」", "ー"}, chars
    em = 10 / 72 * 25.4
    column = {c: (x, y) for c, x, y, _ in chars}
    xs = [column[c][0] for c in "全部取るよ"]
    assert max(xs) - min(xs) < 0.3  # one column
    ys = [column[c][1] for c in "全部取るよ"]
    assert all(b > a + em for a, b in zip(ys, ys[1:]))  # downwards, a cell each
    # 。 in its cell's upper right: right of the column's centre, above the middle of its cell
    x, y = column["。"]
    cell_middle = column["よ"][1] + em * 1.1
    assert x > xs[0] + em * 0.2 and y < cell_middle, (x, y, xs[0], cell_middle)
    # a turned 「 has its ink in the lower half of its cell (horizontal: the right half)
    assert column["「"][1] > column["全"][1] - em * 1.1 + 0.05 and abs(column["「"][0] - xs[0]) < em * 0.3


def test_small_kana_sit_right_of_the_centre_and_numbers_and_latin_words_are_set_as_jlreq_sets_them(tmp_path):
    """editor7: small kana (ゃ ッ) sat centred in their cell, where horizontal text puts them (low);
    JLREQ 2.1.2 places their face at the cell's middle, right of its centre. A two-digit number
    stood as two upright digits in two cells, a Latin word letter by letter: JLREQ 3.2.3 and 3.2.5
    set ``10`` across in one cell (tate-chu-yoko) and ``Game Over`` turned a quarter clockwise,
    reading downwards; a single letter or digit stays upright."""
    deck = DECK_YAML + "  - {name: 宣言, text: 'きゃッ10点Game Over、5枚'}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=FRONT, back=BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    chars = _chars(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(c for c, *_ in chars) == "きゃッ10点GameOver、5枚"
    em, cell = 10 / 72 * 25.4, 10 / 72 * 25.4 * 1.1
    x0, y0 = chars[0][1], chars[0][2]  # き: the column's centre line and its first cell's middle
    for k, (ch, x, y, turned) in enumerate(chars[1:3], start=1):  # ゃ ッ: right of the centre, at the middle
        assert x > x0 + em * 0.06 and abs(y - (y0 + k * cell)) < em * 0.04 and not turned, (ch, x, y, x0, y0)
    one, zero = chars[3], chars[4]  # 10: across, in the fourth cell
    assert abs(one[2] - zero[2]) < 0.05 and one[1] < x0 < zero[1] and not one[3] and not zero[3], (one, zero)
    assert abs((one[1] + zero[1]) / 2 - x0) < em * 0.1 and chars[5][0] == "点"
    assert abs(chars[5][2] - (y0 + 4 * cell)) < em * 0.1  # 点 in the fifth cell: 10 took one
    word = chars[6:14]
    assert all(turned and abs(x - x0) < em * 0.5 for _, x, _, turned in word), word
    assert all(b[2] > a[2] for a, b in zip(word, word[1:]))  # reading downwards
    five = chars[15]
    assert five[0] == "5" and not five[3] and abs(five[1] - x0) < em * 0.2 and five[2] > word[-1][2] + em * 0.3


def test_the_column_is_cut_into_jlreqs_marks():
    marks = tate.marks("きゃ、12点VP 3枚「x」", 10)
    assert [(m.kind, m.text) for m in marks] == [
        ("upright", "き"), ("small", "ゃ"), ("stop", "、"), ("across", "12"), ("upright", "点"), ("latin", "VP 3"),
        ("upright", "枚"), ("turned", "「"), ("upright", "x"), ("turned", "」")]
    em = 10 / 72 * 25.4
    latin = marks[5]
    assert latin.top == marks[4].top + marks[4].length + em / 4 and latin.length == 4 * em / 2
    assert marks[6].top == latin.top + latin.length + em / 4  # a quarter em each side of the word


VERSE_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.tate_box(piece.lines, 10, 10, 40, 36, size=10, font="mincho", step=3) }}
{% endblock %}
"""
VERSE_DECK = """\
name: 読み札
format: poker
front: card-front.svg.j2
fields: {name: text, lines: list}
pieces:
  - {name: 句, lines: [あいうえおかきくけ、こ, GOODの字, 」で始まる]}
"""


def _trimmed(pdf) -> list[tuple[str, float, float, float, float]]:
    """Each character of the first page: its text and its box (left, top, right, bottom) in mm from
    the trim's top-left corner."""
    page = pdfium.PdfDocument(str(pdf))[0]
    left0, _, _, top0 = page.get_trimbox()
    tp = page.get_textpage()
    out = []
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.strip():
            left, bottom, right, top = tp.get_charbox(i)
            out.append((ch, (left - left0) * MM_PER_PT, (top0 - top) * MM_PER_PT, (right - left0) * MM_PER_PT,
                        (top0 - bottom) * MM_PER_PT))
    return out


def test_a_verse_in_a_box_is_set_in_columns_right_to_left_broken_as_jlreq_allows(tmp_path, capsys):
    """trial54: a karuta verse of three to five columns had its columns' x worked out by hand in the
    template, a line too long ran off the card, a column could start with 、 or 」 unsaid, and a Latin
    word set in a proportional face (mincho) was measured as the fixed-width gothic sets it: GOOD ran
    over the の after it. ``m.tate_box()`` places the columns from the box's right edge, a column's
    centre size × line_height from the next, each ``step`` lower; breaks a long line before the
    character ahead of a 、; warns of a line the data starts with 」 at the template's line."""
    ws = make_workspace(tmp_path / "ws", deck=VERSE_DECK, front=VERSE_FRONT, back=BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = capsys.readouterr().err
    assert "templates/test/card-front.svg.j2:4: deck 'cards' piece 1" in said and "data/test/decks/cards.yaml:6:5" in said
    assert "line 3 「」で始まる」 starts a column with 「」」" in said
    chars = _trimmed(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    em = 10 / 72 * 25.4
    cell, advance = em * 1.1, em * 1.7
    columns: list[list] = []
    for c in chars:  # the characters in reading order, a new column where one moves left
        if not columns or (c[1] + c[3]) / 2 < (columns[-1][0][1] + columns[-1][0][3]) / 2 - em:
            columns.append([])
        columns[-1].append(c)
    texts = ["".join(c[0] for c in column) for column in columns]
    assert texts == ["あいうえおかきく", "け、こ", "GOODの字", "」で始まる"], texts  # け went with 、
    for k, column in enumerate(columns):
        kana = next(c for c in column if c[0] in "あけの」")
        if kana[0] != "」":  # (a turned bracket's ink sits off the centre line)
            assert abs((kana[1] + kana[3]) / 2 - (10 + 40 - em / 2 - k * advance)) < 0.25, (k, kana)
        first = column[0]
        if first[0] in "あけ":  # a kana's ink fills its cell's middle: the column's top k × 3 mm lower
            assert abs((first[2] + first[4]) / 2 - (10 + 3 * k + cell / 2)) < 0.3, (k, first)
        assert all(c[1] > 10 - 0.3 and c[4] < 10 + 36 + 0.3 for c in column), column  # inside the box
    good, no = columns[2][:4], columns[2][4]
    assert no[0] == "の" and no[2] >= max(c[4] for c in good) + em * 0.1, (good, no)  # GOOD clear of の


def test_a_single_column_starting_with_a_closing_bracket_is_warned_once_and_a_boxs_not_twice(tmp_path, capsys):
    """fixesQ: ``m.tate()`` alone set a column starting with 」 unsaid (``m.tate_box()`` warned of
    its lines): it is warned once, at the template's line, the piece's data line with it; a
    column m.tate_box() hands m.tate() is not warned again."""
    front = FRONT.replace("m.tate(piece.text,", "m.tate(piece.name,")
    ws = make_workspace(tmp_path / "ws", ["」と言った", "言った"], front=front, back=BACK)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    said = [ln.strip() for ln in capsys.readouterr().out.splitlines() if "vertical text" in ln]
    assert len(said) == 1 and said[0].startswith("warning: templates/test/card-front.svg.j2:5: deck 'cards' piece 1"), said
    assert "「」と言った」 starts its column with 「」」, which JLREQ keeps off a line's start" in said[0], said
    ws = make_workspace(tmp_path / "verse", deck=VERSE_DECK, front=VERSE_FRONT, back=BACK)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    said = [ln for ln in capsys.readouterr().out.splitlines() if "」で始まる" in ln]
    assert len(said) == 1 and "line 3 「」で始まる」 starts a column with 「」」" in said[0], said


def test_columns_break_before_a_mark_kept_off_a_columns_top_and_say_what_the_box_cannot_hold():
    em = 10 / 72 * 25.4
    found = tate.columns(["あいうえ「かき」く"], 0, 0, 20, em * 1.1 * 4 + 0.01, 10)
    assert [c.text for c in found.columns] == ["あいうえ", "「かき」", "く"] and found.problems == []
    found = tate.columns(["あいう「かき"], 0, 0, 20, em * 1.1 * 4 + 0.01, 10)  # 「 not left at a column's foot
    assert [c.text for c in found.columns] == ["あいう", "「かき"]
    found = tate.columns(["あ", "い", "う", "え"], 5, 0, 15, 50, 10, line_height=2, align="left")
    assert [round(c.x, 2) for c in found.columns] == [round(5 + em / 2 + 3 * 2 * em - k * 2 * em, 2) for k in range(4)]
    assert found.problems == [f"4 columns need {em + 6 * em:.1f} mm across (10 pt, line_height 2), the box is 15.0 mm "
                              "wide: they run past its right edge"]


def test_a_box_of_vertical_text_given_a_bad_number_stops_at_the_template_line(tmp_path, capsys):
    front = VERSE_FRONT.replace("step=3)", "step=3, line_height=0)")
    ws = make_workspace(tmp_path / "ws", deck=VERSE_DECK, front=front, back=BACK)
    assert run(ws, "check", "--game", "test") == 2
    said = capsys.readouterr().out
    assert "templates/test/card-front.svg.j2:4" in said and "tate_columns line_height=0" in said, said
    assert "a number from 0.5 to 5" in said and "Traceback" not in said


def test_a_single_column_given_a_bad_number_stops_at_the_template_line_as_a_box_does(tmp_path, capsys):
    """tate46: m.tate(text, "ten", 10) stopped at Python's words (unsupported operand type(s) for
    -: 'str' and 'float'); it is told as tate_columns() tells a bad number."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 宣言, text: 取る}\n",
                        front=FRONT.replace("w / 2, 10", '"ten", 10'), back=BACK)
    assert run(ws, "check", "--game", "test") == 2
    said = capsys.readouterr().out
    assert "templates/test/card-front.svg.j2:5" in said and "m.tate x='ten'" in said, said
    assert "a number from" in said and "Traceback" not in said and "operand" not in said


def test_the_docs_karuta_verse_is_centred_on_its_card_and_six_columns_are_told(tmp_path, capsys):
    """The 読み札 docs/data-format.md gives, built as written: three columns centred across the
    52 mm karuta card, 12 pt × 1.75 apart, each 4 mm lower; a verse of six lines is told in the docs' words."""
    docs = " ".join((REPO / "docs" / "data-format.md").read_text(encoding="utf-8").split())
    call = re.search(r"`(\{\{ m\.tate_box\(piece\.lines, 8, 9[^`]*\}\})`", docs)
    lines = re.search(r"`(lines: \[いっせーの[^`]*\])`", docs)
    told = re.search(r"\(`(6 columns need [^`]*)`, a verse of six lines", docs)
    assert call and lines and told
    front = VERSE_FRONT.replace(VERSE_FRONT.splitlines()[3], call.group(1))
    deck = VERSE_DECK.replace("format: poker", "format: karuta").split("pieces:")[0] + (
        f"pieces:\n  - {{name: 句, {lines.group(1)}}}\n  - {{name: 六, lines: [あ, い, う, え, お, か]}}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front, back=BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = capsys.readouterr().err
    assert f"piece 2 (六, data/test/decks/cards.yaml:7:5) front: vertical text: {told.group(1)}" in said, said
    assert "piece 1" not in said
    em = 12 / 72 * 25.4
    chars = _trimmed(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    for ch, k in (("い", 0), ("数", 1), ("札", 2)):  # each column's first kana or kanji: its centre line
        c = next(c for c in chars if c[0] == ch)
        assert abs((c[1] + c[3]) / 2 - (52 / 2 + em * 1.75 * (1 - k))) < 0.3, (ch, c)
        if ch != "数":  # (the column's fifth cell)
            assert abs((c[2] + c[4]) / 2 - (9 + 4 * k + em * 1.1 / 2)) < 0.4, (ch, c)


LAYOUT_VERSE = """\
name: 読み札
format: karuta
layout:
  extends: card
  boxes: {band: null, title: null, cost: null, value: null, art: null, icons: null, text: null, flavour: null, footer: null,
          verse: {field: lines, vertical: true, x: 8, y: 9, w: "w - 16", h: "h - 22", size: 12, font: mincho, line_height: 1.75, align: center, step: 4}}
fields: {lines: list}
pieces:
  - {lines: [いっせーの, 10まで数えて, 札をとる]}
"""


def test_a_layouts_vertical_box_sets_a_verse_without_a_template(tmp_path, capsys):
    """trial54: a karuta 読み札 needed a template of its own for its vertical verse. A layout's text
    box with ``vertical: true`` sets it as m.tate_box() does: the same columns to the mm (the box
    docs/data-format.md gives, as written)."""
    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    box = re.search(r"`(verse: \{field: lines, vertical: true[^`]*\})`", docs)
    assert box and box.group(1) in LAYOUT_VERSE, "the docs' verse box"
    ws = make_workspace(tmp_path / "ws", deck=LAYOUT_VERSE)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "vertical text" not in capsys.readouterr().err
    em = 12 / 72 * 25.4
    chars = _trimmed(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(c[0] for c in chars) == "いっせーの10まで数えて札をとる"
    for ch, k in (("い", 0), ("数", 1), ("札", 2)):
        c = next(c for c in chars if c[0] == ch)
        assert abs((c[1] + c[3]) / 2 - (52 / 2 + em * 1.75 * (1 - k))) < 0.3, (ch, c)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    for wrong, told in [("align: center, step: 4", "a vertical box's columns are not justified"),
                        ("vertical: true, x: 8", "step lowers the columns of vertical text, and the box is not vertical"),
                        ("line_height: 1.75,", "a vertical box does not take valign")]:
        fix = {"align: center, step: 4": "align: justify, step: 4", "vertical: true, x: 8": "vertical: false, x: 8",
               "line_height: 1.75,": "line_height: 1.75, valign: middle,"}[wrong]
        deck.write_text(LAYOUT_VERSE.replace(wrong, fix), encoding="utf-8")
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert err.startswith("pnpgen: error: data/test/decks/cards.yaml:6:") and told in err, err


def test_a_single_columns_print_lint_names_the_designers_line_not_the_macros(tmp_path, capsys):
    """trial: ``m.tate()``'s 5 pt column by the trim was linted at ``pnpgen's common/macros.svg.j2:59``,
    a file the designer never opens; it is named at the template line calling ``m.tate()``, as
    ``m.tate_box()``'s warnings are (faces/sourcelines.py ``designers_line``), and a layout's
    vertical box at its box (tests/test_docs_pass.py: a tag the macro writes itself stays the macro's)."""
    front = FRONT.replace("{{ m.tate(piece.text, w / 2, 10, size=10) }}",
                          "{{ m.tate(piece.text, w / 2, 10, size=10) }}\n{{ m.tate(piece.name, 2, 10, size=5) }}")
    ws = make_workspace(tmp_path / "ws", ["」あ"], front=front, back=BACK)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    lint = [ln.strip() for ln in capsys.readouterr().out.splitlines() if "print lint" in ln]
    assert lint == ["warning: templates/test/card-front.svg.j2:6: print lint: deck 'cards' piece 1 (」あ): text “」” 5.0 pt, "
                    "smaller than 6 pt", "warning: templates/test/card-front.svg.j2:6: print lint: deck 'cards' piece 1 "
                    "(」あ): text 「あ」 1.1 mm from the trim, inside the 3 mm safe zone (a drifted cut may take it)"], lint


def test_columns_stepped_past_the_boxs_foot_are_told_once_not_a_character_a_column():
    """hostile37: a verse of 30 lines, each column 4 mm lower, in a 51 mm box: from column 13 no
    character fits above the foot. Each line was broken a character a column, each told
    ``「い」 is longer than its column's -5.0 mm`` (188 warnings for 5,000 lines); the lines keep
    their columns, and the first column past the foot is told once, with what the box holds."""
    found = tate.columns(["あい"] * 30, 8, 9, 37, 51, 12, step=4)
    assert [c.text for c in found.columns[12:14]] == ["い", "あい"] and len(found.columns) == 31
    assert found.problems[0] == ("column 13 starts 48.0 mm down the box (4 mm a column), 3.0 mm above its foot: it "
                                 "and the columns after it run past the foot (at step 4 the box holds 12 columns)")
    assert len(found.problems) == 2 and found.problems[1].startswith("31 columns need")
    assert not any("longer than its column" in p for p in found.problems)
    assert tate.columns(["あい"] * 3, 8, 9, 37, 51, 12, step=4).problems == []


def test_a_layouts_text_box_refuses_a_list_it_would_print_as_python_writes_it(tmp_path, capsys):
    """hostile37: a text box (not vertical) given a list field printed ``['いっせーの', '札をとる']``,
    and a vertical box's item that is a mapping, a list, true or nothing printed ``{'a': 1}``,
    ``True``, ``None``: each is told at the piece's value, the box named."""
    ws = make_workspace(tmp_path / "ws", deck=LAYOUT_VERSE)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    flat = LAYOUT_VERSE.replace("vertical: true, ", "").replace(", step: 4", "")
    for edit, told in [((LAYOUT_VERSE, flat), ":9:13: pieces.1.lines: [いっせーの, 10まで数えて, 札をとる] is a "
                         "list, and box verse prints its field as text"),
                       (("10まで数えて", "{a: 1}"), ":9:21: pieces.1.lines.2: item 2, {a: 1}, is a mapping: box verse "
                        "sets the list's items a column each, as text"),
                       (("10まで数えて", "[x]"), ":9:21: pieces.1.lines.2: item 2, [x], is a list"),
                       (("10まで数えて", "true"), ":9:21: pieces.1.lines.2: item 2, true, is true/false"),
                       (("10まで数えて", "~"), ":9:21: pieces.1.lines.2: item 2, (empty), is nothing")]:
        deck.write_text(LAYOUT_VERSE.replace(*edit), encoding="utf-8")
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert err.startswith("pnpgen: error: data/test/decks/cards.yaml" + told) and "Traceback" not in err, err
    deck.write_text(LAYOUT_VERSE.replace("10まで数えて", "10"), encoding="utf-8")  # a number is an item it sets
    assert run(ws, "check", "--game", "test") == 0


def test_a_templates_vertical_box_given_an_item_that_is_no_text_stops_at_the_template_line(tmp_path, capsys):
    """hostile37: ``m.tate_box(piece.lines, …)`` set an item that is a mapping, a list, true or
    nothing as Python writes it (``{'a': 1}``, ``True``, ``None``); it stops at the template's
    line, the piece named, as a bad number does."""
    for item, told in [("{a: 1}", "item 2, {a: 1}, is a mapping"), ("[x]", "item 2, [x], is a list"),
                       ("true", "item 2, true, is true/false"), ("~", "item 2, (empty), is nothing")]:
        deck = VERSE_DECK.replace("GOODの字", item)
        ws = make_workspace(tmp_path / item.strip("{}[]~:") / "ws", deck=deck, front=VERSE_FRONT, back=BACK)
        assert run(ws, "check", "--game", "test") == 2
        said = capsys.readouterr().out
        assert "templates/test/card-front.svg.j2:4" in said and f"tate_columns: {told}, not a text" in said, said
        assert "(expected a text or a number, or a list of them (a column each))" in said and "Traceback" not in said


def test_a_verses_ruby_is_set_right_of_its_base_not_printed_as_written(tmp_path, capsys):
    """trial61: a karuta verse's ``{朝顔|あさがお}`` printed as written, braces, bar and all, down
    the column: the card text's ruby was unknown to vertical text. The reading is set at half size
    right of its base (JLREQ 3.3), centred on it, the block of columns keeping the reading inside
    the box, and the line never broken inside the ruby."""
    deck = LAYOUT_VERSE.replace("[いっせーの, 10まで数えて, 札をとる]", "['{朝顔|あさがお}の', 咲く垣根]")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "vertical text" not in capsys.readouterr().err
    em = 12 / 72 * 25.4
    chars = _trimmed(ws / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "".join(c[0] for c in chars) == "朝顔あさがおの咲く垣根", chars
    at = {c[0]: c for c in chars}
    base_x = (at["朝"][1] + at["朝"][3]) / 2
    ruby = [at[c] for c in "あさがお"]
    top, foot = at["朝"][2] - 0.5, at["顔"][4] + 0.5
    for r in ruby:  # right of the base, half its size, beside the base's two cells
        assert abs((r[1] + r[3]) / 2 - (base_x + em * 0.75)) < 0.3 and r[3] - r[1] < em * 0.6, (r, base_x)
        assert top < r[2] and r[4] < foot, (r, top, foot)
    assert all(a[2] < b[2] for a, b in zip(ruby, ruby[1:]))  # downwards
    # the two columns centred across the 52 mm card with the reading's half em at the right
    assert abs(base_x - (52 / 2 - em / 4 + em * 1.75 / 2)) < 0.3, base_x
    # never broken inside a ruby; the rest cut again as written
    found = tate.columns(["あ{朝顔|あさがお}の"], 0, 0, 30, em * 1.1 * 2 + 0.01, 12, line_height=1.75)
    assert [c.text for c in found.columns] == ["あ", "{朝顔|あさがお}", "の"] and found.problems == []
    told = tate.columns(["{朝顔|あさがお}"], 0, 0, 30, 30, 12, line_height=1.35).problems
    assert told == ["ruby needs line_height 1.5 or more (it is 1.35): a reading set right of its column would "
                    "touch the column on its right"]
    # set against the box's right edge, the reading's half em inside it; a box as wide as the column and
    # not its reading is told; a reading longer than its base by more than a ruby character spaces the base
    # from the kana after it (嵐 1.1 em, あらしのあ 2.5 em: 0.5 em over の at the column's top, 0.9 em of space);
    # あらし's 0.4 em more takes no room at all (0.4 em over の)
    [right] = tate.columns(["{朝顔|あさがお}"], 0, 0, 30, 30, 12, line_height=1.75).columns
    assert right.x == pytest.approx(30 - em / 2 - em / 2)
    assert tate.columns(["{朝顔|あさがお}"], 0, 0, em * 1.2, 30, 12, line_height=1.75).problems == [
        f"1 columns need {em * 1.5:.1f} mm across (12 pt, line_height 1.75, ruby), the box is {em * 1.2:.1f} mm wide: "
        "they run past its left edge"]
    spaced = tate.columns(["{嵐|あらしのあ}の"], 0, 0, 30, em * 1.1 * 2 + 0.01, 12, line_height=1.75)
    assert [c.text for c in spaced.columns] == ["{嵐|あらしのあ}", "の"]
    over = tate.columns(["{嵐|あらし}の"], 0, 0, 30, em * 1.1 * 2 + 0.01, 12, line_height=1.75)
    assert [c.text for c in over.columns] == ["{嵐|あらし}の"]


def test_a_verses_ruby_is_linted_as_ruby_not_as_small_text(tmp_path, capsys):
    """trial61: a 9 pt verse's reading (4.5 pt, set beside its base) was named small text under
    6 pt, where the same ruby over horizontal text passes the 4 pt ``min_ruby``; at 7 pt it is told
    as ruby, with the size to set the text at."""
    deck = LAYOUT_VERSE.replace("[いっせーの, 10まで数えて, 札をとる]", "['{朝顔|あさがお}の', 咲く垣根]")
    ws = make_workspace(tmp_path / "ws", deck=deck.replace("size: 12,", "size: 9,"))
    assert run(ws, "check", "--game", "test") == 0
    assert "print lint" not in capsys.readouterr().out
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("size: 12,", "size: 7,"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    said = capsys.readouterr().out
    assert "ruby 「あ」 3.5 pt, smaller than 4 pt" in said and "smaller than 6 pt" not in said, said


def test_a_column_is_drawn_a_run_of_upright_characters_a_text_and_its_one_character_reading_still_linted_as_ruby(
        tmp_path, capsys):
    """tate46: m.tate() drew every character as a text box of its own (two SVG elements each for
    the converter, a macro call each); a run of upright characters in one font, size and ink is
    now one ``<text>`` placing each at its own x and y. The glyphs stay where they were (the tests
    above measure them), and a one-character reading beside a base drawn in such a run is still
    told as ruby, not as small text (printlint.py: a text taller than its size and narrow is a column)."""
    deck = LAYOUT_VERSE.replace("size: 12,", "size: 7,").replace("[いっせーの, 10まで数えて, 札をとる]",
                                                                   "['さき{吹|ふ}くかぜ']")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test", "--svg") == 0
    said = capsys.readouterr().out
    assert "ruby 「ふ」 3.5 pt, smaller than 4 pt" in said and "smaller than 6 pt" not in said, said
    svg = (ws / "build" / "test" / "svg" / "cards" / "001-読み札.front.svg").read_text(encoding="utf-8")
    texts = re.findall(r"<text ([^>]*)>([^<]*)</text>", svg)
    assert [t for _, t in texts] == ["さき吹", "ふ", "くかぜ"], texts  # (in the order they were drawn)
    xs = re.search(r'x="([^"]*)"', texts[0][0]).group(1).split()
    ys = [float(v) for v in re.search(r'y="([^"]*)"', texts[0][0]).group(1).split()]
    assert len(xs) == len(ys) == 3 and all(b > a for a, b in zip(ys, ys[1:])), texts[0]


def test_a_line_the_data_ends_with_an_opening_bracket_is_told_as_one_it_starts_with_a_closing_one():
    """trial61: 「」 opening a verse's line was told, 「 closing one (a column ending with 「, which
    JLREQ 3.1.8 keeps off a line's end) went unsaid."""
    told = tate.columns(["かれは「", "ゆく」と"], 0, 0, 40, 40, 12, line_height=1.75).problems
    assert told == ["line 1 「かれは「」 ends a column with 「「」, which JLREQ keeps off a line's end (begin line 2 with it)"]
    assert tate.columns(["かれは", "「ゆく」と"], 0, 0, 40, 40, 12, line_height=1.75).problems == []


def test_the_lints_vertical_ruby_is_a_reading_beside_a_column_not_a_small_letter_beside_a_big_one():
    from pnpgen.faces.printlint import _ruby_readings
    big, small = ("text", "t:3", 20.0, 0.0, 100.0, 20.0, 120.0, "Ａ"), ("text", "t:3", 10.0, 22.0, 105.0, 30.0, 115.0, "Ｌ")
    assert _ruby_readings((big, small)) == set()
    below = ("text", "t:3", 20.0, 0.0, 78.0, 20.0, 98.0, "顔")
    assert _ruby_readings((big, below, small)) == {2}


def test_a_verses_ruby_with_a_side_left_empty_is_warned_as_a_text_boxs_is(tmp_path, capsys):
    """hostile39: a text box warns of ``{朝顔|}`` printed as written; a vertical verse set it in
    silence, in a layout's vertical box and in m.tate() alike. Told as a text box tells it (tateR: vertical
    text reads the markup with the text box's reader), at the field's data line, an item at a time."""
    deck = LAYOUT_VERSE.replace("[いっせーの, 10まで数えて, 札をとる]", '["{朝顔|}に", "{|あさ}の", "{朝顔|あさがお}"]')
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 0
    said = [ln.strip() for ln in capsys.readouterr().out.splitlines() if "a ruby" in ln]
    assert said == [f"warning: data/test/decks/cards.yaml:9:13: deck 'cards' piece 1 (読み札) front, field 'lines': {ruby}: "
                    "printed as written (ruby is {漢字|かんじ}, the base and its reading)"
                    for ruby in ("a ruby {朝顔|} without its reading", "a ruby {|あさ} without its base")], said
    deck = LAYOUT_VERSE.replace("[いっせーの, 10まで数えて, 札をとる]", '["{朝顔|あさがおに", "{朝顔|あさがお}の"]')
    ws = make_workspace(tmp_path / "open", deck=deck)  # trial81: a brace forgotten printed as written, silently
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    said = [ln.strip() for ln in capsys.readouterr().out.splitlines() if "a ruby" in ln]
    assert said == ["warning: data/test/decks/cards.yaml:9:13: deck 'cards' piece 1 (読み札) front, field 'lines': a ruby "
                    "{朝顔|あさがおに never closed by }: printed as written (ruby is {漢字|かんじ}, the base and its reading)"], said
    ws = make_workspace(tmp_path / "one", deck=DECK_YAML + '  - {name: x, text: "{朝顔|}に"}\n  - {name: y, text: "{朝顔|あさがお}に"}\n',
                        front=FRONT, back=BACK)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    said = [ln.strip() for ln in capsys.readouterr().out.splitlines() if "a ruby" in ln]
    assert said == ["warning: data/test/decks/cards.yaml:9:21: deck 'cards' piece 1 (x) front, field 'text': a ruby {朝顔|} "
                    "without its reading: printed as written (ruby is {漢字|かんじ}, the base and its reading)"], said


def test_a_built_in_text_box_made_vertical_by_the_deck_takes_its_own_options_left(tmp_path, capsys):
    """hostile40: ``layout: {extends: card-poker, boxes: {text: {vertical: true}}}`` stopped at pnpgen's own
    layout file, 'card.yaml:28:43: boxes.text.min_size: a vertical box does not take min_size (expected the
    key left out)', a key the designer never wrote and cannot leave out: the built-in box's min_size and
    valign (for its horizontal text) are passed over; the deck's own still refused."""
    deck = ("name: 縦\nlayout: {extends: card-poker, boxes: {text: {vertical: true}}}\npieces:\n"
            "  - {title: 札, text: あいう, art: 未定}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "min_size" not in capsys.readouterr().err
    chars = [c for c in _trimmed(ws / "build" / "test" / "shop" / "cards-unique.pdf") if c[0] in "あいう"]
    assert [c[0] for c in chars] == ["あ", "い", "う"]
    centres = [(c[1] + c[3]) / 2 for c in chars]
    assert max(centres) - min(centres) < 0.5 and chars[0][2] < chars[1][2] < chars[2][2], chars  # one column, downwards
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("vertical: true", "vertical: true, min_size: 6"),
                                                               encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: data/test/decks/cards.yaml:2:") and "a vertical box does not take min_size" in err, err


def test_a_vertical_warning_shows_the_designers_text_not_the_escapes_that_read_it_back():
    """hostile40: a literal ``[red`` or ``{{x`` (no markup to the reader) was told as 「\\[red」,
    「\\{\\{x」, the escapes the next column's text is cut with; markup written (bold, ruby) stays."""
    em = 10 / 72 * 25.4
    room = em * 1.1 * 4 + 0.01
    told = tate.columns(["[red」」」」」」」」"], 0, 0, 40, room, 10).problems
    assert told[0].startswith("「[red」」 is broken before 「」」"), told
    told = tate.columns(["{{x」」」」」」」」"], 0, 0, 40, room, 10).problems
    assert told[0].startswith("「{{x」」 is broken before 「」」"), told
    told = tate.columns(["**あ**」」」」」」」」"], 0, 0, 40, room, 10).problems
    assert told[0].startswith("「**あ**」」」」 is broken before"), told
    told = tate.columns(tate.lines("あ[red\n」{{x|y"), 0, 0, 40, 40, 10).problems  # a text's lines: markup read back
    assert told == ["line 2 「」{{x|y」 starts a column with 「」」, which JLREQ keeps off a line's start (break the "
                    "line before the character ahead of it, or end line 1 with it)"], told
    assert not any("\\" in t for t in told)


TWO_GROUNDS = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ 40 + bleed }}" fill="#2a2a2a"/>
<rect x="{{ -bleed }}" y="40" width="{{ w + 2 * bleed }}" height="{{ h - 40 + bleed }}" fill="#f0f0f0"/>
{{ m.tate(piece.text, w / 2, 10, size=10, ink=piece.ink) }}
{% endblock %}
"""


@pytest.mark.parametrize("ink, said", [("#333333", "「あいうえおかき」 in #333333 on #2a2a2a, contrast 1.1:1"),
                                       ("#e0e0e0", "「けこさしすせそ」 in #e0e0e0 on #f0f0f0, contrast 1.2:1"),
                                       ("#c03030", None)])
def test_a_column_down_two_grounds_is_measured_on_each(tmp_path, capsys, ink, said):
    """A column set as one <text> (tate46) down two filled boxes lay on no one ground: its contrast
    was never measured ("ground not known"), where each character set alone had been. Each run is
    measured on its own ground now, the characters on a ground too near their ink named (く, across
    the edge, on neither)."""
    deck = DECK_YAML.replace("  name: text\n", "  name: text\n  ink: text\n") + \
        f"  - {{name: 札, text: あいうえおかきくけこさしすせそ, ink: '{ink}'}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=TWO_GROUNDS)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr()
    lint = [line for line in (out.out + out.err).splitlines() if "print lint" in line and "contrast" in line]
    if said is None:  # (a red readable on both)
        assert lint == [], lint
    else:
        assert len(lint) == 1 and said in lint[0] and "card-front.svg.j2:6" in lint[0], lint
