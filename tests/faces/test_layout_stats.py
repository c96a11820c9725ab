"""A layout's stat boxes without a template: a label or unit beside a field's value in one box
(「体力 3」), and a ``track`` box of numbered spaces (a character mat's health track), drawn by
the same ``track()`` as templates — positions read back from the PDF in mm."""

from __future__ import annotations

import pypdfium2
import pytest
from pypdf import PdfReader

from conftest import GAME_YAML, REPO, make_workspace, run
from pdfprobe import text_positions

BLEED = 3.0
ENEMIES = """\
name: 敵
layout:
  extends: card-poker
  boxes:
    flavour: null
    hp: {field: hp, label: 体力, x: 4, y: 70, w: 20, h: 6, font: bold}
    reward: {field: reward, unit: 点, x: 40, y: 70, w: 19, h: 6, align: right}
pieces:
  - {title: ゴブリン, hp: 3, reward: 4, text: 弱い。}
  - {title: 罠, hp: "{hp.__class__}", reward: "{0}", text: 罠。}
  - {title: 影, text: 謎。}
"""


def _runs(root, deck: str) -> list[list[tuple[str, float, float]]]:
    """Each unique face's runs of text as (text, x, y) in mm from the trim's top-left corner."""
    pages = PdfReader(root / "build" / "test" / "shop" / f"{deck}-unique.pdf").pages
    return [[(t, x - BLEED, y - BLEED) for t, x, y in text_positions(page)] for page in pages]


def test_a_label_sets_a_stats_name_beside_its_value_in_one_box(tmp_path, capsys):
    """An enemy card's three stats took six boxes, a name and a value each: ``label:`` sets the
    name before the value in the value's own box, a space between, ``unit:`` one after it. The
    value stays data: ``{hp.__class__}`` and ``{0}`` print as written. An empty value prints the
    label and 未定 (no unit after it), and check names the piece and its field."""
    root = make_workspace(tmp_path / "ws", deck=ENEMIES)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    goblin, trap, _, shadow = [_runs(root, "cards")[i] for i in (0, 2, 3, 4)]  # (the back is the 2nd face)
    label = next((x, y) for t, x, y in goblin if t == "体力")
    value = next((x, y) for t, x, y in goblin if t == "3")
    assert 4 <= label[0] < value[0] < 24 and 70 < label[1] < 76 and abs(label[1] - value[1]) < 0.2, (label, value)
    assert value[0] - label[0] > 2 * 9 * 0.3528 * 0.9  # 体力 (two 9 pt ideographs) then a space before 3
    unit = next((t, x, y) for t, x, y in goblin if t.startswith("4"))
    assert unit[0] == "4点" and 40 <= unit[1] < 59 and 70 < unit[2] < 76, unit
    said = [t for t, _, _ in trap]
    assert "{hp.__class__}" in said and "{0}点" in said, said  # as written: no format, no icon
    assert [t for t, _, _ in shadow if t.startswith("体力") or t.startswith("未定")] == ["体力", "未定", "未定"]
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "cards.yaml:11:5: 影.hp: 未定 (empty: the layout prints 未定)" in out, out


def test_a_label_whose_markup_has_no_partner_is_refused_at_its_line(tmp_path, capsys):
    """A label's ``{`` or ``**`` would pair with markup in the value beside it (``{体力`` and a
    value ``3|さん}`` made a ruby): it stops check at the label, as a format-looking ``{0}`` does;
    whole markup (an icon) is taken."""
    for bad in ('"{0}"', '"{hp.__class__}"', '"**体力"'):
        root = make_workspace(tmp_path / bad.strip('"*{}._'), deck=ENEMIES.replace("label: 体力", f"label: {bad}"))
        capsys.readouterr()
        assert run(root, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert "cards.yaml:6:" in err and "layout.boxes.hp.label:" in err and "no whole markup" in err, err
        assert "Traceback" not in err
    root = make_workspace(tmp_path / "icon", deck=ENEMIES.replace("label: 体力", 'label: "{vp} \\\\{"'))
    assert run(root, "check", "--game", "test") == 0


def test_a_value_and_its_unit_make_no_markup_neither_has_alone(tmp_path):
    """A value ``{漢字|かんじ`` and a unit ``\\}`` (an escaped brace, whole by itself) joined
    into a ruby whose reading ended in a backslash: the card printed かんじ\\ above 漢字. The
    unit's brace stays a brace: the words print as written."""
    deck = ENEMIES.replace("unit: 点", 'unit: "\\\\}"').replace("reward: 4,", 'reward: "{漢字|かんじ",')
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = "".join(t for t, _, _ in _runs(root, "cards")[0])
    assert "{漢字|かんじ}" in said, said


MATS = """\
name: マット
kind: board
size: [200, 120]
layout:
  extends: board
  boxes:
    art: null
    health: {type: track, field: hp, x: 6, y: 40, w: 187, h: 12}
    xp: {type: track, last: 9, rows: 2, first: none, x: 6, y: 60, w: 100, h: 20}
pieces:
  - {title: 戦士, hp: 10, text: 前に立つ。}
  - {title: 魔法使い, text: 呪文。}
"""


def test_a_track_box_numbers_its_spaces_evenly_across_the_box(tmp_path):
    """A character mat's health track needed a template calling ``track()``: a ``type: track``
    box draws spaces 0 to the piece's ``hp`` (11 for hp 10), each 1/11 of the box, numbered in
    order, the start space filled in accent; ``last: 9, rows: 2`` snakes 0…9 in two rows of five."""
    root = make_workspace(tmp_path / "ws", deck=MATS)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    warrior = _runs(root, "cards")[0]
    cell = 187 / 11
    numbers = {t: (x, y) for t, x, y in warrior if t.isdigit() and 40 < y < 52}
    assert sorted(numbers, key=int) == [str(n) for n in range(11)], numbers
    for n, (x, _) in numbers.items():  # each number inside its own space, in order across the box
        assert 6 + int(n) * cell < x < 6 + (int(n) + 1) * cell, (n, x)
    snake = sorted(((int(t), x, y) for t, x, y in warrior if t.isdigit() and 60 < y < 80))
    assert [n for n, _, _ in snake] == list(range(10))
    assert all(y < 70 for n, _, y in snake if n < 5) and all(y > 70 for n, _, y in snake if n >= 5)
    assert snake[5][1] > snake[9][1]  # the second row runs back, right to left
    dpi = 144
    page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    image = page.render(scale=dpi / 72).to_pil().convert("L")

    def grey(x_mm: float, y_mm: float) -> int:
        return image.getpixel((round((BLEED + x_mm) / 25.4 * dpi), round((BLEED + y_mm) / 25.4 * dpi)))

    for k in range(12):  # the spaces' borders, evenly apart, from the box's left edge to its right
        x = 6 + k * cell
        assert min(grey(x + d / 10, 41) for d in range(-3, 4)) < 100, k
    assert all(grey(6 + k * cell + cell / 2, 41) > 200 for k in (1, 2, 3, 4, 6, 7, 8, 9))  # plain spaces: white
    assert grey(6 + cell / 2, 41) < 120  # the start space: filled in accent
    assert grey(6 + 5.5 * cell, 41) < 240 and grey(6 + 5.5 * cell, 41) > 200  # every 5th: light grey


def test_a_track_s_open_or_impossible_length_is_told_with_the_piece_and_box(tmp_path, capsys):
    """A piece with no ``hp`` prints 未定 in the track's room and check lists it; an ``hp`` of -3
    (no space) or 2000 (past 1,000 spaces) stops check at the value with the box it feeds, not as
    the face's drawing failing; a track box with neither ``field:`` nor ``last:`` stops at the box."""
    root = make_workspace(tmp_path / "ws", deck=MATS)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    mage = _runs(root, "cards")[1]
    assert any(t == "未定" and 40 < y < 52 for t, x, y in mage), mage
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    assert "cards.yaml:12:5: 魔法使い.hp: 未定 (empty: the layout prints 未定)" in capsys.readouterr().out
    path = root / "data" / "test" / "decks" / "cards.yaml"
    for hp, spaces in (("-3", "0…-3, 0 spaces"), ("2000", "0…2000, 2,001 spaces")):
        path.write_text(MATS.replace("hp: 10", f"hp: {hp}"), encoding="utf-8")
        assert run(root, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert f"cards.yaml:11:21: pieces.1.hp: {hp} gives box health's track {spaces} (expected a whole number " \
               "from 0 to 999" in err, err
    path.write_text(MATS.replace("last: 9, ", ""), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:9:" in err and "box xp is a track of no length" in err and "'last: 10'" in err, err


def test_a_track_box_with_fill_none_lets_the_picture_under_it_show(tmp_path):
    """``fill: none`` on a track box drew the helper's white spaces (and grey every 5th and 10th):
    a health track over a mat's picture hid it. Now every space is see-through, its border and
    number still drawn; a track without ``fill:`` keeps its white spaces."""
    under = '    under: {type: panel, fill: "#000000", x: 0, y: 35, w: 200, h: 50}\n'
    deck = MATS.replace("    health: {type: track, field: hp,", under + "    health: {type: track, field: hp, fill: none,")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    dpi = 144
    page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    image = page.render(scale=dpi / 72).to_pil().convert("L")

    def grey(x_mm: float, y_mm: float) -> int:
        return image.getpixel((round((BLEED + x_mm) / 25.4 * dpi), round((BLEED + y_mm) / 25.4 * dpi)))

    cell = 187 / 11
    assert all(grey(6 + k * cell + cell / 2, 41) < 30 for k in (1, 2, 5, 9, 10)), \
        [grey(6 + k * cell + cell / 2, 41) for k in range(11)]  # plain, 5th and 10th: the black panel shows
    assert grey(6 + cell / 2, 41) > 30  # the start space: still filled in accent (first:)
    assert grey(6 + 1.5 * cell, 65) > 200  # the xp track, no fill given: white spaces over the panel


def test_a_track_number_too_far_is_told_so_not_that_it_is_no_whole_number(tmp_path, capsys):
    """hostile20: ``last: 10000`` was 'not a whole number of the track' — it is one, beyond reach."""
    root = make_workspace(tmp_path / "ws", deck=MATS.replace("last: 9,", "last: 10000,"))
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "layout.boxes.xp.last: 10000 is beyond a track's numbers (expected a whole number such as 10 " \
           "(-1,000 to 1,000))" in err, err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(MATS.replace("last: 9,", "last: nine,"),
                                                                  encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "layout.boxes.xp.last: 'nine' is not a whole number (expected" in capsys.readouterr().err


def test_a_loose_mark_in_a_label_is_told_its_own_escape(tmp_path, capsys):
    """hostile20: ``label: "\\{0}"`` (the ``{`` escaped as told) was refused for its ``}``, and
    told to escape ``\\{ \\* \\[`` — never ``\\}``, the escape it needed (``\\{0\\}`` prints {0})."""
    root = make_workspace(tmp_path / "ws", deck=ENEMIES.replace("label: 体力", 'label: "\\\\{0}"'))
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "has a '}' that is no whole markup" in err and "or the character escaped: \\})" in err, err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        ENEMIES.replace("label: 体力", 'label: "\\\\{0\\\\}"'), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert any(t.startswith("{0}") for t, _, _ in _runs(root, "cards")[0]), _runs(root, "cards")[0]


@pytest.mark.parametrize("bar", ["|", "｜"])
def test_a_label_prints_a_bar_escaped(tmp_path, capsys, bar):
    """A label's ``|`` or ``｜`` outside a ruby (``HP|MP``) is refused, as it would pair with a
    value's ``{…}``: it had no escape, so a label could never print one. ``\\|`` and ``\\｜`` print
    the bar, as the other marks' escapes do, beside a ruby in the value too."""
    root = make_workspace(tmp_path / "ws", deck=ENEMIES.replace("label: 体力", f'label: "HP{bar}MP"'))
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert f"has a '{bar}' that is no whole markup" in err and f"or the character escaped: \\{bar})" in err, err
    deck = ENEMIES.replace("label: 体力", f'label: "HP\\\\{bar}MP"').replace("hp: 3", "hp: \"{三|さん}\"")
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck, encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = [t for t, _, _ in _runs(root, "cards")[0]]
    assert f"HP{bar}MP" in said and "三" in said and "さん" in said and not any("\\" in t for t in said), said


def _brightest(image, k: int, dpi: int = 288) -> int:
    """The lightest pixel in the middle of the night mat's health space ``k`` (its number)."""
    cell = 188 / 13
    x0, x1 = (round((BLEED + 6 + (k + f) * cell) / 25.4 * dpi) for f in (0.3, 0.7))
    y0, y1 = (round((BLEED + y) / 25.4 * dpi) for y in (69, 75))
    return image.crop((x0, y0, x1, y1)).getextrema()[1]


def test_a_see_through_track_over_a_dark_picture_takes_the_boxs_colour(tmp_path):
    """A ``fill: none`` track over a dark picture drew its numbers and lines in ink, black on
    black. ``colour: paper`` (data-format.md's night mat, built as written) draws them in paper:
    each space's number reads light on the picture; without it they stay dark."""
    import re
    from pathlib import Path

    from PIL import Image

    doc = (Path(__file__).parents[2] / "docs" / "data-format.md").read_text(encoding="utf-8")
    [deck] = [b for b in re.findall(r"```yaml\n(.*?)```", doc, re.S) if b.startswith("# data/<slug>/decks/night-mats.yaml")]
    for colour, light in (("paper", True), (None, False)):
        root = make_workspace(tmp_path / str(colour), deck=deck if colour else deck.replace(" colour: paper,", ""))
        (root / "data" / "test" / "art").mkdir()
        Image.new("RGB", (400, 200), (10, 10, 30)).save(root / "data" / "test" / "art" / "night.png")
        assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
        image = page.render(scale=288 / 72).to_pil().convert("L")
        assert all((_brightest(image, k) > 200) == light for k in (3, 7, 11)), \
            (colour, [_brightest(image, k) for k in range(13)])


SCORE_BOARD = """\
name: 得点ボード
kind: board
size: [200, 200]
layout:
  extends: board
  boxes: {art: null, text: null, band: null, title: null, score: {type: track, around: true, last: 50, x: 6, y: 6, w: 188, h: 188}}
pieces: [{}]
"""


def test_a_track_box_around_a_board_runs_round_its_edge(tmp_path, capsys):
    """Japanese trial: a score board's 0–50 track round its edge needed a template calling
    ``track()``; a layout's track box ran only in rows. ``around: true`` runs it clockwise round
    the box from the top-left corner, every space on the box's edge and the middle left free;
    with ``rows:`` as well it is told at its line."""
    root = make_workspace(tmp_path / "ws", deck=SCORE_BOARD)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    numbers = {t: (x, y) for t, x, y in _runs(root, "cards")[0] if t.isdigit()}
    assert sorted(numbers, key=int) == [str(n) for n in range(51)], numbers
    for n, (x, y) in numbers.items():  # each on the edge: within one space (~15 mm) of a side of the box
        assert min(x - 6, 194 - x, y - 6, 194 - y) < 15, (n, x, y)
    (x0, y0), (x1, _), (x_top_right, y_top_right) = numbers["0"], numbers["1"], numbers["13"]
    assert x0 < 20 and y0 < 20 and x1 > x0  # from the top-left corner, rightwards along the top
    assert x_top_right > 180 and y_top_right < 20  # to the top-right corner
    assert numbers["25"][1] > 170 and numbers["38"][0] < 30  # along the bottom, then up the left side
    bad = SCORE_BOARD.replace("around: true,", "around: true, rows: 2,")
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(bad, encoding="utf-8")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:6:" in err and "around: true" in err and "has no rows" in err, err


@pytest.mark.parametrize(("last", "spaces"), [(0, "0 to 0 has 1 space,"), (2, "0 to 2 has 3 spaces,")])
def test_a_track_around_a_board_too_short_for_its_corners_is_told_at_its_last(tmp_path, capsys, last, spaces):
    """English trial (trial80): a score track round the board with ``last: 0`` stopped at the piece's
    line with template words the deck never wrote, ``track(0, start=0)`` and ``track(start + 24,
    start=start)``. It is told at the box's ``last:``, in the layout's words, with the last that would do."""
    root = make_workspace(tmp_path / "ws", deck=SCORE_BOARD.replace("last: 50", f"last: {last}"))
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert f"cards.yaml:6:{SCORE_BOARD.splitlines()[5].index('last: 50') + 7}: layout.boxes.score.last: box score: " \
           f"a track round its box's edge (around: true) from {spaces} and one round the edge needs at least 4" in err, err
    assert "(expected last: 3 or more" in err and "track(" not in err and "Traceback" not in err, err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(SCORE_BOARD.replace("last: 50", "last: 3"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert sorted(t for t, _, _ in _runs(root, "cards")[0] if t.isdigit()) == ["0", "1", "2", "3"]


def test_a_track_the_cut_would_take_spaces_off_is_told_as_a_track(tmp_path, capsys):
    """A hero mat sized down to the size the build offers for two a sheet (200×120 → 193×116) kept its
    health track's 6 + 188 mm: the error at the box called the track a grid of cells. It names the
    track and its spaces, and the track fits once shortened."""
    deck = MATS.replace("size: [200, 120]", "size: [193, 116]").replace("w: 187", "w: 188")
    root = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:8:" in err and "layout.boxes.health.w: box health: its track runs 6–194 mm from the left, " \
        "past the piece's 193 mm trim: the cut would take spaces off (expected the track inside the piece: " \
        "x from 0 and x + w at most 193" in err, err
    assert "grid" not in err and "cells" not in err, err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("w: 188", "w: 181"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0


@pytest.mark.parametrize("key", ["label", "text"])
def test_a_text_by_language_in_a_shared_layout_file_is_told_at_its_line(tmp_path, capsys, key):
    """``label: {ja: 体力, en: HP}`` in ``layouts/monster.yaml`` of a game in ja and en stopped with
    ``expected text, got a mapping (expected a string)``. A layout file is shared by every edition:
    the error says so and names the two ways that work (a box per edition with ``lang:``, or the
    box in the deck's own layout, where the same mapping is read per edition — built here)."""
    game = GAME_YAML.replace("title: テストゲーム", "title: {ja: テストゲーム, en: Test game}") + "languages: [ja, en]\n"
    field = "field: hp, " if key == "label" else ""  # a fixed text: no field
    box = f"hp: {{{field}{key}: {{ja: 体力, en: HP}}, x: 4, y: 70, w: 20, h: 6}}"
    piece = "\npieces:\n  - {title: ゴブリン, " + ("hp: 3, " if field else "") + "text: 弱い。}\n"
    root = make_workspace(tmp_path / "ws", game=game,
                          deck="name: 敵\nlayout: monster" + piece)
    (root / "layouts").mkdir()
    (root / "layouts" / "monster.yaml").write_text(f"extends: card-poker\nboxes:\n  {box}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "layouts/monster.yaml:3:" in err and f"boxes.hp.{key}: a text by language (ja, en) in a layout file, " \
        "which every edition shares" in err and "lang: ja" in err and "deck file's own layout:" in err, err
    assert "got a mapping" not in err and "Traceback" not in err, err
    (root / "layouts" / "monster.yaml").unlink()
    deck = "name: 敵\nlayout:\n  extends: card-poker\n  boxes:\n    " + box + piece
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck, encoding="utf-8")
    for lang, said in (("ja", "体力"), ("en", "HP")):
        assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--lang", lang) == 0
        out = root / "build" / "test" / ("en" if lang == "en" else "") / "shop" / "cards-unique.pdf"
        runs = [t for t, x, y in text_positions(PdfReader(out).pages[0])]
        assert any(t.startswith(said) for t in runs), runs


def test_the_docs_small_table_on_a_card_builds_with_each_cell_in_its_row(tmp_path, capsys):
    """docs/data-format.md, "A small table on a card": card text has no tables (a tab prints as a
    space), so the docs show one made of a layout's boxes. Built as written, each row's roll and
    result stand inside their 5 mm row (61–76 mm down), the rolls left of the column line at 18.75 mm
    and the results right of it, and the grid's lines are drawn at the row edges."""
    doc = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    start = doc.index('<a id="card-table"></a>')
    deck = doc[doc.index("```yaml\n", start) + 8:doc.index("```\n", doc.index("```yaml\n", start) + 8)]
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    runs = _runs(root, "cards")[0]
    for row, (roll, result) in enumerate((("1–2", "罠。"), ("3–4", "宝。"), ("5–6", "静寂。"))):
        top = 61 + 5 * row
        (rx, ry), = [(x, y) for t, x, y in runs if t == roll]
        (ox, oy), = [(x, y) for t, x, y in runs if t.startswith(result)]
        assert top + 2 < ry < top + 5 and top + 2 < oy < top + 5, (roll, ry, oy)  # the baseline low in its row
        assert 6 < rx < 18.75 < 19.75 <= ox + 0.01, (rx, ox)
    pdf = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))
    image = pdf[0].render(scale=8 * 25.4 / 72).to_pil().convert("L")  # 8 px a mm

    def dark(x_mm: float, y_mm: float) -> bool:
        return min(image.getpixel((round((BLEED + x_mm) * 8) + d, round((BLEED + y_mm) * 8) + e))
                   for d in (-1, 0, 1) for e in (-1, 0, 1)) < 100
    assert all(dark(40, y) for y in (61, 66, 71, 76)) and dark(18.75, 63.5) and not dark(40, 63.5)
