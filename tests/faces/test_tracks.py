"""Score tracks: spaces 0..N round an edge or as a snake, every 5th and 10th marked, drawn with
svgwrite into templates."""

from __future__ import annotations

import pytest
from lxml import etree

from conftest import make_workspace, run
from pnpgen.faces.tracks import ring_grid, track_inner, track_spaces, track_svg


def _adjacent(a, b) -> bool:
    """Two spaces share an edge."""
    ax1, ay1, bx1, by1 = a.x + a.w, a.y + a.h, b.x + b.w, b.y + b.h
    touch_x = (abs(ax1 - b.x) < 1e-6 or abs(bx1 - a.x) < 1e-6) and min(ay1, by1) - max(a.y, b.y) > 1e-6
    touch_y = (abs(ay1 - b.y) < 1e-6 or abs(by1 - a.y) < 1e-6) and min(ax1, bx1) - max(a.x, b.x) > 1e-6
    return touch_x or touch_y


def _disjoint(spaces) -> None:
    for i, a in enumerate(spaces):
        for b in spaces[i + 1:]:
            ox = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
            oy = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
            assert ox <= 1e-6 or oy <= 1e-6, (a, b)


@pytest.mark.parametrize("n,w,h", [(50, 250, 160), (30, 100, 100), (99, 270, 180), (9, 60, 20)])
def test_ring_runs_round_the_edge_in_order(n, w, h):
    x, y = 10.0, 5.0
    spaces = track_spaces(n, x, y, w, h, "ring")
    assert [s.value for s in spaces] == list(range(0, n + 1))
    _disjoint(spaces)
    for s in spaces:
        assert x - 1e-9 <= s.x and s.x + s.w <= x + w + 1e-9 and y - 1e-9 <= s.y and s.y + s.h <= y + h + 1e-9
        # on the edge: touching the box's border
        assert (abs(s.x - x) < 1e-9 or abs(s.y - y) < 1e-9 or abs(s.x + s.w - x - w) < 1e-9
                or abs(s.y + s.h - y - h) < 1e-9)
    for a, b in zip(spaces, spaces[1:]):
        assert _adjacent(a, b)
    assert spaces[0].x == x and spaces[0].y == y  # starts at the top-left corner, clockwise
    assert spaces[1].x > spaces[0].x
    cols, rows = ring_grid(n + 1, w, h)
    assert 0 <= 2 * cols + 2 * rows - 4 - (n + 1) <= 1


def test_every_fifth_and_tenth_space_is_marked():
    spaces = track_spaces(50, 0, 0, 200, 100)
    marks = {s.value: s.mark for s in spaces}
    assert [v for v, m in marks.items() if m == 10] == [0, 10, 20, 30, 40, 50]
    assert [v for v, m in marks.items() if m == 5] == [5, 15, 25, 35, 45]


@pytest.mark.parametrize("layout,rows", [("snake", 3), ("snake", None), ("row", None), ("column", None)])
def test_snake_row_and_column_are_contiguous(layout, rows):
    spaces = track_spaces(20, 0, 0, 120, 60, layout, start=1, rows=rows)
    assert [s.value for s in spaces] == list(range(1, 21))
    _disjoint(spaces)
    for a, b in zip(spaces, spaces[1:]):
        assert _adjacent(a, b)
    if layout == "snake" and rows == 3:
        assert {s.side for s in spaces} == {"row 1", "row 2", "row 3"}
        first, second = [s for s in spaces if s.side == "row 1"], [s for s in spaces if s.side == "row 2"]
        assert first[0].x < first[-1].x and second[0].x > second[-1].x  # boustrophedon


def test_svg_fragment_has_a_rect_and_a_number_per_space():
    g = track_svg(12, 0, 0, 60, 40, "ring", fonts={"gothic": "F", "bold": "FB"},
                  width_mm=lambda text, font, pt: len(text) * pt * 0.2, highlight={3: "#ffd700"},
                  labels={0: "S"})
    root = etree.fromstring(str(g).encode())
    rects = root.findall("rect")
    texts = root.findall("text")
    assert len(rects) == 13 and len(texts) == 13
    assert [t.text for t in texts][:2] == ["S", "1"]
    assert rects[3].get("fill") == "#ffd700"
    assert {t.get("font-family") for t in texts if t.text == "10"} == {"FB"}
    assert {t.get("font-family") for t in texts if t.text == "7"} == {"F"}


def test_unknown_layout_is_an_error():
    with pytest.raises(ValueError):
        track_spaces(10, 0, 0, 10, 10, "spiral")


def test_a_number_read_as_the_layout_is_told_the_arguments_track_takes():
    """The harbour trial: track(49, 5, 5, 10, w - 10, h - 10), one length too many, stopped with
    "unknown track layout 287.0": the sixth value given is the layout, and the message says so."""
    with pytest.raises(ValueError, match=r"^track\(\)'s sixth value, layout, is 287\.0, a number: track takes n, x, y, "
                       r"w, h, then layout= \(one of ring, snake, row, column\); one length too many\?$"):
        track_spaces(49, 5, 5, 10, 410.0, 287.0)  # type: ignore[arg-type]


def _tiles_the_ring(spaces, x, y, w, h, inner):
    """The spaces cover the ring (box minus hole) exactly: disjoint, inside the box, outside the
    hole, and their areas add up."""
    _disjoint(spaces)
    ix, iy, iw, ih = inner
    for s in spaces:
        assert x - 1e-9 <= s.x and s.x + s.w <= x + w + 1e-9 and y - 1e-9 <= s.y and s.y + s.h <= y + h + 1e-9
        ox = min(s.x + s.w, ix + iw) - max(s.x, ix)
        oy = min(s.y + s.h, iy + ih) - max(s.y, iy)
        assert ox <= 1e-6 or oy <= 1e-6, (s, inner)
    assert sum(s.w * s.h for s in spaces) == pytest.approx(w * h - iw * ih)


def test_odd_ring_leaves_a_gap_by_default():
    # 0..50 is 51 spaces on a 17 × 11 grid of 52 slots: the slot just below the start stays empty
    x, y, w, h = 7.0, 7.0, 256.0, 166.0
    spaces = track_spaces(50, x, y, w, h)
    cw, ch = w / 17, h / 11
    assert len(spaces) == 51
    assert (spaces[0].x, spaces[0].y, spaces[0].w, spaces[0].h) == (x, y, pytest.approx(cw), pytest.approx(ch))
    assert spaces[16].x == pytest.approx(x + 16 * cw) and spaces[16].y == y  # top-right corner
    assert spaces[-1].x == x and spaces[-1].y == pytest.approx(y + 2 * ch)  # one slot short of the start
    assert sum(s.w * s.h for s in spaces) == pytest.approx(52 * cw * ch - cw * ch)


def test_odd_ring_with_a_wide_start_space():
    # populous' board: the start takes two slots, so 15 is the top-right corner, 25 the
    # bottom-right, 41 the bottom-left and 50 sits just below the start
    x, y, w, h = 7.0, 7.0, 256.0, 166.0
    spaces = track_spaces(50, x, y, w, h, spare="start")
    cw, ch = w / 17, h / 11
    first = spaces[0]
    assert (first.x, first.y) == (x, y)
    assert first.w == pytest.approx(2 * cw) and first.h == pytest.approx(ch)
    assert spaces[1].x == pytest.approx(x + 2 * cw)
    at = {s.value: (round(s.x, 6), round(s.y, 6)) for s in spaces}
    assert at[15] == (round(x + 16 * cw, 6), y)
    assert at[25] == (round(x + 16 * cw, 6), round(y + 10 * ch, 6))
    assert at[41] == (x, round(y + 10 * ch, 6))
    assert at[50] == (x, round(y + ch, 6))
    for a, b in zip(spaces, spaces[1:] + spaces[:1]):  # a closed loop
        assert _adjacent(a, b)
    inner = track_inner(50, x, y, w, h, spare="start")
    assert inner == pytest.approx((x + cw, y + ch, w - 2 * cw, h - 2 * ch))
    _tiles_the_ring(spaces, x, y, w, h, inner)


def test_odd_ring_uneven_has_one_space_fewer_along_the_top():
    # asian-delivery's board: 16 spaces along the top, 17 along the bottom, 9 down each side
    x, y, w, h = 4.5, 4.5, 261.0, 171.0
    spaces = track_spaces(50, x, y, w, h, spare="uneven")
    sides = [s.side for s in spaces]
    top = [s for s in spaces if s.y == y]
    bottom = [s for s in spaces if abs(s.y + s.h - y - h) < 1e-9]
    assert len(top) == 16 and len(bottom) == 17
    assert sides.count("right") == 10 and sides.count("left") == 9  # right includes the bottom-right corner
    cw, ch = w / 17, h / 11
    for s in bottom:
        assert s.w == pytest.approx(cw) and s.h == pytest.approx(ch)
    # the corners keep the columns' width; the 14 between them share what is left
    assert top[0].w == top[-1].w == pytest.approx(cw)
    for s in top[1:-1]:
        assert s.w == pytest.approx((w - 2 * cw) / 14) and s.h == pytest.approx(ch)
    assert spaces[15].x == pytest.approx(x + w - cw) and spaces[16].x == pytest.approx(spaces[15].x)
    assert (spaces[25].x, spaces[25].y) == (pytest.approx(x + w - w / 17), pytest.approx(y + h - h / 11))
    assert (spaces[41].x, spaces[41].y) == (x, pytest.approx(y + h - h / 11))
    assert (spaces[50].x, spaces[50].y) == (x, pytest.approx(y + h / 11))
    for a, b in zip(spaces, spaces[1:] + spaces[:1]):
        assert _adjacent(a, b)
    _tiles_the_ring(spaces, x, y, w, h, track_inner(50, x, y, w, h, spare="uneven"))


def test_uneven_on_a_tall_box_shortens_the_right_column():
    spaces = track_spaces(20, 0, 0, 60, 120, spare="uneven")  # 21 spaces; a 4 × 9 grid has 22 slots
    right = [s for s in spaces if s.side == "right"]
    left = [s for s in spaces if s.side == "left"]
    assert len([s for s in spaces if s.side == "top"]) == 4 and len(left) == 7
    assert len(right) == 7  # 6 between the corners plus the bottom-right corner
    assert right[0].y == pytest.approx(120 / 9) and right[0].h == pytest.approx((120 - 2 * 120 / 9) / 6)
    for a, b in zip(spaces, spaces[1:] + spaces[:1]):
        assert _adjacent(a, b)
    _tiles_the_ring(spaces, 0, 0, 60, 120, track_inner(20, 0, 0, 60, 120, spare="uneven"))


def test_even_ring_ignores_spare_and_other_layouts_have_no_inner():
    plain = track_spaces(49, 0, 0, 250, 160)
    assert track_spaces(49, 0, 0, 250, 160, spare="start") == plain
    assert track_spaces(49, 0, 0, 250, 160, spare="uneven") == plain
    assert track_inner(20, 0, 0, 120, 60, "snake") is None
    with pytest.raises(ValueError):
        track_spaces(50, 0, 0, 250, 160, spare="wide")


def _styled(**kw):
    return track_svg(50, 7, 7, 256, 166, "ring", fonts={"gothic": "F", "bold": "FB"},
                     width_mm=lambda text, font, pt: len(text) * pt * 0.2,
                     resolve=lambda c: {"crimson": "#a52a2a", "gold": "#d4a017"}.get(c, c), **kw)


def test_per_space_styles_cascade_plain_mark5_mark10_first():
    g = _styled(spare="start", gap=1.0, radius=1.2, stroke="none", fill=["#ffffff", "#eeeeee"], size=12,
                frame="#333333", frame_inset=0.8, frame_width=0.3,
                mark5={"fill": "gold", "size": 15},
                mark10={"fill": "#000080", "ink": "#ffffff", "frame": "gold", "size": 17, "dy": -1},
                first={"fill": "crimson", "size": 18, "dy": 0})
    root = etree.fromstring(str(g).encode())
    spaces = {s.value: s for s in g.spaces}
    rects = [r for r in root.findall("rect") if r.get("class") != "frame"]
    frames = root.findall("rect[@class='frame']")
    texts = {t.text: t for t in root.findall("text")}
    assert len(rects) == len(frames) == len(texts) == 51
    fill = {v: rects[i].get("fill") for i, v in enumerate(spaces)}
    assert fill[0] == "#a52a2a"  # first over mark10, palette name resolved
    assert [v for v in fill if fill[v] == "#000080"] == [10, 20, 30, 40, 50]
    assert [v for v in fill if fill[v] == "#d4a017"] == [5, 15, 25, 35, 45]
    assert fill[1] == "#eeeeee" and fill[2] == "#ffffff" and fill[3] == "#eeeeee"  # cycled by position
    assert all(r.get("stroke") == "none" and r.get("stroke-width") is None for r in rects)
    assert frames[10].get("stroke") == "#d4a017" and frames[1].get("stroke") == "#333333"
    # geometry in mm: the wide start rect, inset by half the gap, and its frame 0.8 further in
    s0 = spaces[0]
    assert [float(rects[0].get(k)) for k in ("x", "y", "width", "height", "rx")] == pytest.approx(
        [7.5, 7.5, s0.w - 1, s0.h - 1, 1.2], abs=1e-3)
    assert [float(frames[0].get(k)) for k in ("x", "y", "width", "height", "rx")] == pytest.approx(
        [8.3, 8.3, s0.w - 2.6, s0.h - 2.6, 0.4], abs=1e-3)
    pt = 25.4 / 72

    def number(v, size, dy=0.0):
        t, s = texts[str(v)], spaces[v]
        assert float(t.get("font-size")) == pytest.approx(size * pt, abs=1e-3)
        width = len(str(v)) * size * 0.2
        assert float(t.get("x")) == pytest.approx(s.x + s.w / 2 - width / 2, abs=1e-3)  # centred
        assert float(t.get("y")) == pytest.approx(s.y + s.h / 2 + dy + 0.36 * size * pt, abs=1e-3)
        return t

    assert number(0, 18).get("font-family") == "FB"  # mark10's bold font is kept under first
    assert number(20, 17, -1).get("fill") == "#ffffff" and texts["20"].get("font-family") == "FB"
    assert number(35, 15).get("font-family") == "F"
    assert number(7, 12).get("fill") == "#000000"


def test_defaults_keep_the_old_marks_and_labels_can_hide_a_number():
    g = _styled(labels={0: ""})
    root = etree.fromstring(str(g).encode())
    rects = root.findall("rect")
    assert len(rects) == 51 and not root.findall("rect[@class='frame']")
    by_value = dict(zip((s.value for s in g.spaces), rects))
    assert by_value[10].get("fill") == "#c8c8c8" and by_value[10].get("stroke-width") == "0.6"
    assert by_value[5].get("fill") == "#e6e6e6" and by_value[5].get("stroke-width") == "0.3"
    assert by_value[1].get("fill") == "#ffffff" and by_value[1].get("stroke") == "#000000"
    assert "0" not in [t.text for t in root.findall("text")]
    assert g.inner == pytest.approx(track_inner(50, 7, 7, 256, 166))
    with pytest.raises(ValueError):
        _styled(mark5={"colour": "red"})


@pytest.mark.parametrize("spare", ["start", "uneven"])
@pytest.mark.parametrize("n,w,h", [(4, 30, 30), (6, 40, 20), (20, 60, 120), (50, 256, 166), (98, 270, 180),
                                   (30, 100, 100)])
def test_odd_rings_close_without_a_gap(spare, n, w, h):
    spaces = track_spaces(n, 2, 3, w, h, spare=spare)
    assert [s.value for s in spaces] == list(range(n + 1))
    for a, b in zip(spaces, spaces[1:] + spaces[:1]):
        assert _adjacent(a, b), (a, b)
    _tiles_the_ring(spaces, 2, 3, w, h, track_inner(n, 2, 3, w, h, spare=spare))


@pytest.mark.parametrize(("n", "start", "layout", "said"), [
    (25, 25, "ring", "track(25, start=25) has 1 space, 25…25"),
    (10, 30, "row", "track(10, start=30) has 0 spaces, 30…10"),
])
def test_a_track_too_short_says_how_many_spaces_it_has(n, start, layout, said):
    """track(25, start=25) for a second board half numbered 25 to 49 said only 'a ring needs at
    least 4 spaces': a designer reading n as a count did not see why 25 spaces were too few."""
    with pytest.raises(ValueError) as e:
        track_spaces(n, 0, 0, 250, 160, layout, start=start)
    assert said in str(e.value) and "its first number is the last space's, not how many" in str(e.value), e.value


MAT = """\
name: マット
kind: board
size: [148, 210]
front: card-front.svg.j2
fields: {name: text, hp: int}
pieces:
  - {name: 剣士, hp: 12}
  - {name: 僧侶, hp: 未定}
"""
MAT_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ track(piece.hp, 10, 10, 120, 60, layout="snake", rows=4, highlight={piece.hp: "#c00000"}) }}
{% endblock %}
"""


def test_a_track_whose_length_the_draft_leaves_open_is_told_at_the_template_line(tmp_path, capsys):
    """A designer trial: a character mat's health track, ``track(piece.hp, …)``, with ``hp: 未定``
    in the draft stopped at ``invalid literal for int() with base 10: '未定'``, Python's words. It
    says now that the value is open, at the template's line, and how to draw it meanwhile; the
    same template with the value set builds."""
    ws = make_workspace(tmp_path / "ws", deck=MAT, front=MAT_FRONT)
    assert run(ws, "check", "--game", "test") == 2
    said = capsys.readouterr()
    err = said.err + said.out
    assert "invalid literal" not in err, err
    assert "templates/test/card-front.svg.j2:3: track(): n, the last space's number is '未定', a value the draft " \
           "leaves open" in err, err
    assert "{% if is_placeholder(piece.hp) %}{{ m.placeholder_stamp(x, y) }}" in err
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(MAT.replace("hp: 未定", "hp: 9"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
