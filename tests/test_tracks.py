"""Score tracks: spaces 0..N round an edge or as a snake, every 5th and 10th marked, drawn with
svgwrite into templates."""

from __future__ import annotations

import pytest
from lxml import etree

from pnpgen.tracks import ring_grid, track_spaces, track_svg


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
