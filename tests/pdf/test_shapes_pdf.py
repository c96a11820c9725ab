"""What the PDFs of the real games hold for shaped pieces, read back in millimetres: die lines on
home sheets with the artwork clipped to the bleed outline round them, backs of two-sided tokens
the mirror image of their fronts, the tri-hex die path in the shop file."""

from __future__ import annotations

import json
import math

import pytest
from pypdf import PdfReader
from test_shapes_probe import dist_point_polyline, page_paths

from conftest import make_workspace, run
from pdfprobe import boxes_mm, form_uses
from pnpgen.shapes import SQRT3, bounding_size, shape_spec, trim_path

A4 = (210.0, 297.0)
MARGIN = 5.0


def _manifest(built, slug):
    return json.loads((built / slug / "manifest.json").read_text(encoding="utf-8"))


def _die_decks(built):
    for slug in ("populous", "asian-delivery"):
        for d in _manifest(built, slug)["decks"]:
            if d["shape"] not in ("rect",) and d["layout"] != "tiled":
                yield slug, d


def test_home_sheets_clip_each_piece_to_its_bleed_outline_round_its_die_line(built):
    checked = 0
    for slug, d in _die_decks(built):
        pdf = PdfReader(built / slug / d["files"][0])
        sb = d["sheet_bleed_mm"]
        page = pdf.pages[0]
        paths = page_paths(pdf, page)
        dies = [p for p in paths if p.kind == "stroke" and len(p.points) > 4 and _closed(p)]
        clips = [p for p in paths if p.kind == "clip"]
        n_front = min(d["count"], d["pieces_per_sheet"])
        assert len(clips) == n_front, d["id"]
        assert len(dies) == n_front, d["id"]
        for clip in clips:
            xs, ys = [p[0] for p in clip.points], [p[1] for p in clip.points]
            assert min(xs) >= MARGIN - 0.01 and max(xs) <= A4[0] - MARGIN + 0.01
            assert min(ys) >= MARGIN - 0.01 and max(ys) <= A4[1] - MARGIN + 0.01
        # every clip outline lies sheet-bleed outside one die line
        for clip in clips:
            cx = sum(p[0] for p in clip.points) / len(clip.points)
            cy = sum(p[1] for p in clip.points) / len(clip.points)
            die = min(dies, key=lambda p: math.dist((cx, cy), (sum(q[0] for q in p.points) / len(p.points),
                                                               sum(q[1] for q in p.points) / len(p.points))))
            for q in clip.points[::3]:
                assert dist_point_polyline(q, die.points) == pytest.approx(sb, abs=0.05), d["id"]
        checked += 1
    assert checked >= 8


def _closed(p) -> bool:
    return math.dist(p.points[0], p.points[-1]) < 0.05


def test_two_sided_tokens_have_mirrored_backs(built):
    m = _manifest(built, "populous")
    town = next(d for d in m["decks"] if d["id"] == "town")
    assert town["double_sided"] and town["shop_pages"] == 2 * town["count"] == 60
    pdf = PdfReader(built / "populous" / "town.pdf")
    assert len(pdf.pages) == 2 * town["sheets"]

    def centres(page):
        out = []
        for p in page_paths(pdf, page):
            if p.kind == "clip":
                out.append((round(sum(q[0] for q in p.points) / len(p.points), 2),
                            round(sum(q[1] for q in p.points) / len(p.points), 2)))
        return sorted(out)

    fronts = centres(pdf.pages[0])
    backs = centres(pdf.pages[1])
    assert len(fronts) == len(backs) == 30
    mirrored = sorted((round(A4[0] - x, 2), y) for x, y in fronts)
    for a, b in zip(mirrored, backs):
        assert a == pytest.approx(b, abs=0.02)


def test_populous_tiles_shop_file_and_die_path_are_the_trihex(built):
    m = _manifest(built, "populous")
    area = next(d for d in m["decks"] if d["id"] == "area")
    assert area["count"] == 15 and area["shape"] == "trihex" and area["shop_pages"] == 15
    shop = PdfReader(built / "populous" / "shop" / "area.pdf")
    assert len(shop.pages) == 15
    spec = shape_spec("trihex", bounding_size("trihex", 40), {"orientation": "pointy"})
    for page in shop.pages:
        b = boxes_mm(page)
        assert b["trimbox"] == pytest.approx((3, 3, 3 + spec.w, 3 + spec.h), abs=0.01)
        assert b["bleedbox"] == pytest.approx((0, 0, spec.w + 6, spec.h + 6), abs=0.01)
    assert "shop/area-die.pdf" in area["files"]
    assert "CutContour" in area["die_line"]["shop"]
    die = PdfReader(built / "populous" / "shop" / "area-die.pdf")
    assert len(die.pages) == 1  # single-sided
    path = [p for p in page_paths(die, die.pages[0]) if p.kind == "stroke"]
    assert len(path) == 1
    # page y from the top: the trim box starts 3 mm in; the die path's corners are the tri-hex's
    corners = {(round(x - 3, 3), round(y - 3, 3)) for x, y in path[0].corners}
    want = {(round(x, 3), round(y, 3)) for x, y in trim_path(spec).points()}
    assert len(want) == 12
    for x, y in want:
        assert any(abs(x - a) < 0.01 and abs(y - b) < 0.01 for a, b in corners)
    # three hexes of 40 mm: the die path spans 2 × 40 mm across and 3.5 corner radii down
    xs = [p[0] for p in path[0].points]
    ys = [p[1] for p in path[0].points]
    assert max(xs) - min(xs) == pytest.approx(80, abs=0.01)
    assert max(ys) - min(ys) == pytest.approx(3.5 * 40 / SQRT3, abs=0.01)


def test_tiles_per_a4_at_least_the_bounding_box_grid(built):
    for _slug, d in _die_decks(built):
        assert d["pieces_per_sheet"] >= d["grid_pieces_per_sheet"], d["id"]
        assert 0 < d["density"] <= 1
    area = next(d for d in _manifest(built, "populous")["decks"] if d["id"] == "area")
    assert area["layout"] == "nested" and area["pieces_per_sheet"] > area["grid_pieces_per_sheet"]
    assert area["sheets"] == 2


def test_each_face_is_one_form_xobject_however_many_copies(tmp_path):
    """12 tokens over 2 pieces: every document holds 2 front forms and 2 back forms, each drawn
    once and placed by reference as often as it prints."""
    deck = """\
name: トークン
kind: token
shape: circle
size: 15
front: card-front.svg.j2
back: card-back.svg.j2
fields:
  name: text
  text: text
pieces:
  - {name: 赤, text: あ, count: 7}
  - {name: 青, text: い, count: 5}
"""
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    for name, placed in (("cards.pdf", 24), ("shop/cards.pdf", 24), ("shop/cards-unique.pdf", 4), ("test-all.pdf", 24)):
        uses = form_uses(PdfReader(out / name))
        assert (len(uses), sum(uses.values())) == (4, placed), name


HELPER_DECK = """\
name: 多角形
kind: tile
shape: {shape}
{size}
front: card-front.svg.j2
back: card-back.svg.j2
fields:
  name: text
  text: text
pieces:
  - {{name: 一, text: あ, count: 5}}
"""

HELPER_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#88aa66"/>
<path d="{{ outline(-1.5) }}" fill="none" stroke="#ffffff" stroke-width="0.5"/>
{% for cx, cy in shape.centres %}<circle cx="{{ cx }}" cy="{{ cy }}" r="2" fill="#000"/>{% endfor %}
{{ track(9, 2, 2, 20, 8, "row") }}
{% endblock %}
"""


@pytest.mark.parametrize("shape,size", [("trihex", "size: 30\norientation: flat"),
                                        ("polygon", "size: [40, 30]\npoints: [[0, 0], [40, 0], [40, 10], [15, 10], [15, 30], [0, 30]]"),
                                        ("rounded", "size: [30, 20]\ncorner_radius: 4")])
def test_template_helpers_and_other_shapes_build(tmp_path, shape, size):
    ws = make_workspace(tmp_path / "ws", deck=HELPER_DECK.format(shape=shape, size=size), front=HELPER_FRONT,
                        back=HELPER_FRONT)
    (ws / "data" / "test" / "draft.txt").write_text("■■テストゲーム\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    d = m["decks"][0]
    assert d["shop_pages"] == 10 and d["die_line"]["shop"].startswith("layer CutContour")
    assert "separate file shop/cards-die.pdf" in d["die_line"]["shop"]
    die = PdfReader(out / "shop" / "cards-die.pdf")
    assert len(die.pages) == 2  # fronts, and the mirrored backs
    pdf = PdfReader(out / "cards.pdf")
    assert len(pdf.pages) == 2 * d["sheets"]
    front, back = page_paths(pdf, pdf.pages[0]), page_paths(pdf, pdf.pages[1])
    fc = sorted((round(A4[0] - x, 2), round(y, 2)) for p in front if p.kind == "clip" for x, y in p.corners[:1])
    assert len([p for p in front if p.kind == "clip"]) == len([p for p in back if p.kind == "clip"]) == 5
    # back clip outlines: the fronts' mirrored (compare the sets of all sampled points)
    fp = sorted((round(A4[0] - x, 1), round(y, 1)) for p in front if p.kind == "clip" for x, y in p.points)
    bp = sorted((round(x, 1), round(y, 1)) for p in back if p.kind == "clip" for x, y in p.points)
    assert len(fp) == len(bp)
    for a, b in zip(fp, bp):
        assert a == pytest.approx(b, abs=0.11)
    assert fc
