"""Outline geometry in millimetres: trim, bleed and cut paths of every shape, placements and the
duplex mirror."""

from __future__ import annotations

import math

import pytest

from pnpgen.shapes import (
    SQRT3,
    Affine,
    back_outline,
    back_transform,
    bleed_path,
    bounding_size,
    cut_path,
    distance_to_polygon_edges,
    duplex_mirror,
    hex_corners,
    outline,
    placement,
    point_in_polygon,
    polygon_area,
    shape_spec,
    trihex_centres,
    trim_path,
)

A4 = (210.0, 297.0)


def spec_of(shape: str, size, **options):
    trim = bounding_size(shape, size, options.get("orientation", "pointy")) if not isinstance(size, tuple) else size
    return shape_spec(shape, trim, options)


SHAPES = {
    "trihex-pointy": lambda: spec_of("trihex", 40),
    "trihex-flat": lambda: spec_of("trihex", 40, orientation="flat"),
    "hex-pointy": lambda: spec_of("hex", 110),
    "hex-flat": lambda: spec_of("hex", 30, orientation="flat"),
    "circle": lambda: spec_of("circle", 15),
    "rounded": lambda: spec_of("rounded", (12.0, 12.0), corner_radius=1.5),
    "polygon-L": lambda: spec_of("polygon", (40.0, 30.0), points=[[0, 0], [40, 0], [40, 10], [15, 10], [15, 30], [0, 30]]),
    "polygon-tri": lambda: spec_of("polygon", (30.0, 26.0), points=[[0, 26], [15, 0], [30, 26]]),
}


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_trihex_is_three_hexes_of_the_configured_size(orientation):
    size = 40.0
    r = size / SQRT3  # corner radius of one hexagon
    spec = spec_of("trihex", size, orientation=orientation)
    corners = spec.core
    assert len(corners) == 12
    # the trim box
    w, h = (2 * size, 3.5 * r) if orientation == "pointy" else (3.5 * r, 2 * size)
    assert (spec.w, spec.h) == pytest.approx((w, h), abs=1e-9)
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx((0, 0, w, h), abs=1e-9)
    # every side is one hexagon side long
    for i in range(12):
        (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 12]
        assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(r, abs=1e-9)
    # each hexagon of the configured size: its centre sees five outline corners at the corner
    # radius (the sixth is the common point), and its corners are a regular hexagon's
    centres = trihex_centres(size, orientation)
    for cx, cy in centres:
        on = [p for p in corners if abs(math.hypot(p[0] - cx, p[1] - cy) - r) < 1e-9]
        assert len(on) == 5
        for p in on:
            assert any(math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-9
                       for q in hex_corners(cx, cy, size, orientation))
    # centres one hexagon width apart, meeting in one point inside every hexagon's corner set
    for i in range(3):
        for j in range(i + 1, 3):
            assert math.dist(centres[i], centres[j]) == pytest.approx(size, abs=1e-9)
    meet = (sum(c[0] for c in centres) / 3, sum(c[1] for c in centres) / 3)
    for c in centres:
        assert math.dist(meet, c) == pytest.approx(r, abs=1e-9)
    assert polygon_area(corners) == pytest.approx(3 * SQRT3 / 2 * size ** 2, rel=1e-12)
    # pointy: symmetric about the vertical axis, so its back shares its outline; flat is not
    assert spec.mirror_symmetric == (orientation == "pointy")


def test_pointy_trihex_has_two_hexes_on_top():
    """The convention the populous template draws: upper left, upper right, bottom."""
    c = trihex_centres(40)
    assert c[0][1] == c[1][1] < c[2][1]
    assert c[0][0] < c[2][0] < c[1][0]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_bleed_path_lies_3mm_outside_the_trim_path(name):
    spec = SHAPES[name]()
    trim = trim_path(spec).points(0.01)  # curves flattened to within 0.01 mm, well inside the 0.05 mm asked
    bleed = bleed_path(spec, 3.0).points(0.01)
    for p in bleed:
        assert not point_in_polygon(p, trim)
        assert distance_to_polygon_edges(p, trim) == pytest.approx(3.0, abs=0.05)
    # and the bleed area is exactly what lies within 3 mm of the piece: sample a grid around it
    step = max(spec.w, spec.h) / 60
    for i in range(-8, int(spec.w / step) + 9):
        for j in range(-8, int(spec.h / step) + 9):
            p = (i * step, j * step)
            if point_in_polygon(p, trim):
                continue
            d = distance_to_polygon_edges(p, trim)
            if d < 2.95:
                assert point_in_polygon(p, bleed), p
            elif d > 3.05:
                assert not point_in_polygon(p, bleed), p


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_cut_path_is_the_trim_path_and_fills_the_trim_box(name):
    spec = SHAPES[name]()
    cut = cut_path(spec)
    assert cut == trim_path(spec)
    x0, y0, x1, y1 = cut.bbox()
    assert (x0, y0, x1, y1) == pytest.approx((0, 0, spec.w, spec.h), abs=0.01)
    d = cut.svg()
    assert d.startswith("M") and d.endswith("Z")


def test_rect_bleed_path_is_the_bleed_box():
    spec = shape_spec("rect", (63, 88))
    assert bleed_path(spec, 3).as_rect() == pytest.approx((-3, -3, 66, 91))
    assert trim_path(spec).as_rect() == pytest.approx((0, 0, 63, 88))
    assert not spec.die_cut


def test_inset_outline_keeps_its_distance():
    spec = spec_of("trihex", 40)
    trim = trim_path(spec).points(0.002)
    inner = outline(spec, -2.0).points(0.002)
    for p in inner:
        assert point_in_polygon(p, trim)
        assert distance_to_polygon_edges(p, trim) == pytest.approx(2.0, abs=0.05)


def test_circle_and_rounded_areas():
    assert spec_of("circle", 12).area == pytest.approx(math.pi * 36)
    r = spec_of("rounded", (12.0, 12.0), corner_radius=1.5)
    assert r.area == pytest.approx(polygon_area(trim_path(r).points(0.0005)), rel=1e-4)


@pytest.mark.parametrize("rot", [0, 90, 180, 270])
def test_placement_puts_the_turned_box_at_xy(rot):
    m = placement(rot, 20, 30, 63, 88)
    pts = [m(p) for p in ((0, 0), (63, 0), (63, 88), (0, 88))]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    w, h = (88, 63) if rot in (90, 270) else (63, 88)
    assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx((20, 30, 20 + w, 30 + h))
    assert m.det == pytest.approx(1)
    assert m.inverse()(m((5, 7))) == pytest.approx((5, 7))
    if rot == 90:  # the piece's top edge goes to the right
        assert m((31.5, 0))[0] == pytest.approx(20 + 88)


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("rot", [0, 90])
@pytest.mark.parametrize("name", ["trihex-pointy", "polygon-L", "circle"])
def test_back_outline_is_the_mirror_image_of_the_front_in_mm(duplex, rot, name):
    spec = SHAPES[name]()
    front = placement(rot, 17.0, 23.0, spec.w, spec.h)
    back = back_transform(front, spec.w, duplex, A4)
    mirror = duplex_mirror(duplex, A4)
    front_on_sheet = [mirror(front(p)) for p in trim_path(spec).points(0.01)]
    back_on_sheet = [back(p) for p in back_outline(spec).points(0.01)]
    for p in back_on_sheet:
        assert distance_to_polygon_edges(p, front_on_sheet) < 0.02
    for p in front_on_sheet:
        assert distance_to_polygon_edges(p, back_on_sheet) < 0.02
    # the back art is upright in its own frame and not mirrored
    assert back.det == pytest.approx(1)


def test_back_of_long_edge_flip_turns_a_rotated_piece_the_other_way():
    front = placement(90, 10, 10, 63, 88)
    back = back_transform(front, 63, "long", A4)
    assert front.rotation == 90 and back.rotation == 270
    assert back_transform(placement(0, 10, 10, 63, 88), 63, "short", A4).rotation == 180
    assert back_transform(front, 63, "none", A4) == front


def test_affine_composition():
    a = Affine(0, 1, -1, 0, 5, 6)
    b = Affine(2, 0, 0, 2, 1, 1)
    p = (3.0, 4.0)
    assert a.then(b)(p) == pytest.approx(b(a(p)))
