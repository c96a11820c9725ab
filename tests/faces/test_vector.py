"""The SVG → PDF face converter (pnpgen.svg, drawn by pnpgen.pdf.draw): each element and
attribute of the subset is drawn where and how the SVG says, checked in the PDF's content stream
(points, y up)."""

from __future__ import annotations

import base64
import io
import json
import math
import pickle
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfgen.canvas import Canvas

from pnpgen import fonts
from pnpgen.errors import InputError
from pnpgen.pdf.colour import to_cmyk
from pnpgen.pdf.draw import draw_art
from pnpgen.svg import convert
from pnpgen.svg.artwork import Art, digest

REPO = Path(__file__).resolve().parents[2]
K = 72 / 25.4  # points per mm
GOTHIC = "BIZUDPGothic-Regular"


@pytest.fixture(autouse=True, scope="module")
def _fonts():
    fonts.register(GOTHIC, REPO / "fonts")


def svg(body: str, w: float = 20, h: float = 10, extra: str = "") -> str:
    """A face w×h mm whose user units are millimetres, y down from the top-left."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}"{extra}>{body}</svg>')


def pdf_of(*arts: Art, cmyk: bool = False) -> bytes:
    """One page, each art drawn at the origin (the first one sets the page size)."""
    out = io.BytesIO()
    c = Canvas(out, pagesize=(arts[0].width_pt, arts[0].height_pt), pageCompression=0, invariant=1)
    for art in arts:
        draw_art(c, art, cmyk=cmyk)
    c.showPage()
    c.save()
    return out.getvalue()


def mul(m, n):
    """PDF matrix product m × n (m applied first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


class Painted:
    """What a content stream paints: paths with their device points and state, text runs."""

    def __init__(self, data: bytes):
        reader = PdfReader(io.BytesIO(data))
        self.page = reader.pages[0]
        self.ops = ContentStream(self.page.get_contents(), reader).operations
        self.names = [op.decode() for _, op in self.ops]
        self.paths: list[dict] = []
        self.clips: list[list] = []
        self.texts: list[dict] = []
        ctm = (1, 0, 0, 1, 0, 0)
        stack = []
        state = {"fill": None, "stroke": None, "w": None, "J": None, "j": None, "M": None, "d": None}
        pts: list = []
        tm = (1, 0, 0, 1, 0, 0)
        font = None
        clip_pending = False
        for operands, op in self.ops:
            op = op.decode()
            vals = [float(v) if not isinstance(v, (list, bytes)) and _isnum(v) else v for v in operands]
            if op == "q":
                stack.append((ctm, dict(state)))
            elif op == "Q":
                ctm, state = stack.pop()
            elif op == "cm":
                ctm = mul(tuple(vals), ctm)
            elif op in ("rg", "k", "g"):
                state["fill"] = (op, *vals)
            elif op in ("RG", "K", "G"):
                state["stroke"] = (op, *vals)
            elif op in ("w", "J", "j", "M"):
                state[op] = vals[0]
            elif op == "d":
                state["d"] = ([float(v) for v in vals[0]], vals[1])
            elif op in ("m", "l"):
                pts.append(apply(ctm, *vals))
            elif op == "c":
                pts.extend(apply(ctm, vals[i], vals[i + 1]) for i in (0, 2, 4))
            elif op == "re":
                x, y, w, h = vals
                pts.extend(apply(ctm, *p) for p in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
            elif op in ("W", "W*"):
                clip_pending = True
            elif op in ("f", "f*", "S", "B", "B*", "n"):
                if clip_pending:
                    self.clips.append(pts)
                    clip_pending = False
                if op != "n":
                    self.paths.append({"op": op, "pts": pts, "ctm": ctm, **state})
                pts = []
            elif op == "Tf":
                font = (operands[0], vals[1])
            elif op == "Tm":
                tm = tuple(vals)
            elif op == "Tj":
                m = mul(tm, ctm)
                self.texts.append({"at": apply(m, 0, 0), "size": font[1] * math.hypot(m[2], m[3]),
                                   "upright": m[3] > 0, "fill": state["fill"]})

    @property
    def text(self) -> str:
        """The page's text as pypdf extracts it (only the tests that read it pay for it)."""
        return self.page.extract_text()


def _isnum(v) -> bool:
    try:
        float(v)
        return True
    except (TypeError, ValueError):
        return False


def painted(body: str, cmyk: bool = False, **kw) -> Painted:
    return Painted(pdf_of(convert(svg(body, **kw), "test face"), cmyk=cmyk))


def near(p, q, tol=0.01):
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def box(pts):
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def mm(x, y, h=10):
    """SVG user units (mm, y down) → device points (y up) on a face h mm tall."""
    return (x * K, (h - y) * K)


# ------------------------------------------------------------------------------- geometry


def test_size_in_points_and_rect_where_the_svg_puts_it():
    art = convert(svg('<rect x="2" y="3" width="4" height="5" fill="#ff0000"/>'), "f")
    assert art.fallback is None
    assert (round(art.width_pt, 3), round(art.height_pt, 3)) == (round(20 * K, 3), round(10 * K, 3))
    p = Painted(pdf_of(art))
    (path,) = p.paths
    assert path["op"] == "f" and path["fill"] == ("rg", 1.0, 0.0, 0.0)
    assert near(box(path["pts"]), (2 * K, 2 * K, 6 * K, 7 * K))


def test_rounded_rect_circle_ellipse_line_polyline_polygon():
    p = painted('<rect x="1" y="1" width="8" height="4" rx="1"/>'
                '<circle cx="12" cy="5" r="2"/>'
                '<ellipse cx="17" cy="5" rx="2" ry="1"/>'
                '<line x1="0" y1="9" x2="20" y2="9" stroke="#000" stroke-width="0.5"/>'
                '<polyline points="1,6 3,8 5,6" fill="none" stroke="#000"/>'
                '<polygon points="6,6 8,8 10,6"/>')
    rr, circle, ellipse, line, polyline, polygon = p.paths
    assert near(box(rr["pts"]), (1 * K, 5 * K, 9 * K, 9 * K))
    assert "c" in p.names  # the corners are curves
    assert near(box(circle["pts"]), (10 * K, 3 * K, 14 * K, 7 * K))
    assert near(box(ellipse["pts"]), (15 * K, 4 * K, 19 * K, 6 * K))
    assert line["op"] == "S" and near(line["pts"][0], mm(0, 9)) and near(line["pts"][1], mm(20, 9))
    assert polyline["op"] == "S" and [near(a, mm(*b)) for a, b in zip(polyline["pts"], [(1, 6), (3, 8), (5, 6)])] == [True] * 3
    assert polygon["op"] == "f" and near(polygon["pts"][1], mm(8, 8))


def test_path_grammar_relative_implicit_repeats_shorthands_and_arcs():
    p = painted('<path d="m1,1 4,0 0,4 h-2 v-2 z M10 1 L12 1 14 3 H16 V5"/>'
                '<path d="M1 8 C1 6 3 6 3 8 S5 10 5 8 Q7 6 9 8 T13 8"/>'
                '<path d="M14 8 a2 2 0 01 4 0"/>', h=10)
    first, curves, arc = p.paths
    pts = first["pts"]
    assert [tuple(round(v / K, 3) for v in (x, 10 * K - y)) for x, y in pts] == [
        (1, 1), (5, 1), (5, 5), (3, 5), (3, 3), (10, 1), (12, 1), (14, 3), (16, 3), (16, 5)]
    # S reflects the previous control point (3,6) about (3,8): (3,10); T reflects Q's (7,6) → (11,10)
    ctrl = [tuple(round(v / K, 3) for v in (x, 10 * K - y)) for x, y in curves["pts"]]
    assert ctrl[4] == (3, 10)
    assert ctrl[-1] == (13, 8)
    assert ctrl[-3] == (round(9 + 2 / 3 * 2, 3), round(8 + 2 / 3 * 2, 3))  # T's first control point
    # packed arc flags "01": a half circle of radius 2 from (14,8) over the top to (18,8)
    a = [(x / K, 10 - y / K) for x, y in arc["pts"]]
    assert near(a[-1], (18, 8), 1e-3)
    assert any(near(pt, (16, 6), 1e-3) for pt in a)  # two 90° pieces meeting at the top


def test_transforms_compose_like_svg():
    p = painted('<g transform="translate(10,5)"><rect x="0" y="0" width="2" height="1" '
                'transform="rotate(90)"/></g>'
                '<rect x="0" y="0" width="1" height="1" transform="matrix(2 0 0 3 1 1)"/>'
                '<rect x="0" y="0" width="1" height="1" transform="rotate(180 5 5)"/>'
                '<rect x="0" y="0" width="1" height="1" transform="scale(2) skewX(45)"/>')
    rot, mat, centre, skew = p.paths
    # rotate(90) turns (2,0) into (0,2): the rect spans x 9..10, y 5..7
    assert near(box(rot["pts"]), (9 * K, 3 * K, 10 * K, 5 * K))
    assert near(box(mat["pts"]), (1 * K, 6 * K, 3 * K, 9 * K))
    assert near(box(centre["pts"]), (9 * K, 0, 10 * K, 1 * K))
    # skewX(45) then scale(2): (1,1) → (2,1) → (4,2)
    assert any(near(pt, mm(4, 2)) for pt in skew["pts"])


def test_stroke_widths_and_dashes_follow_the_transform():
    p = painted('<rect width="2" height="2" fill="none" stroke="#000" stroke-width="0.5" '
                'stroke-dasharray="1 0.5" transform="translate(5,5) rotate(30) scale(2)"/>'
                '<rect width="2" height="2" fill="none" stroke="#000" stroke-width="0.5" transform="scale(2,1)"/>')
    turned, squashed = p.paths
    # a turn and a uniform scale move the points: the stroke is as thick as the SVG shows it
    assert turned["w"] * math.hypot(*turned["ctm"][:2]) == pytest.approx(1.0 * K, abs=1e-3)
    assert [v * math.hypot(*turned["ctm"][:2]) for v in turned["d"][0]] == pytest.approx([2 * K, 1 * K], abs=1e-3)
    # a distorting matrix is kept as a matrix, so the stroke is distorted with it
    assert squashed["w"] == 0.5 and squashed["ctm"][0] == pytest.approx(2 * K, abs=1e-4)
    assert near(box(squashed["pts"]), (0, 8 * K, 4 * K, 10 * K))


def test_viewbox_maps_to_the_size_in_mm_with_aspect_ratio_kept():
    art = convert('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" '
                         'viewBox="-5 -5 100 100"><rect x="-5" y="-5" width="100" height="100"/></svg>', "f")
    p = Painted(pdf_of(art))
    # meet: 100 units → 20 mm, centred horizontally in 40 mm
    assert near(box(p.paths[0]["pts"]), (10 * K, 0, 30 * K, 20 * K))


def test_units_on_lengths():
    p = painted('<rect x="2px" y="0" width="1mm" height="50%"/>'
                '<rect x="0" y="0" width="3pt" height="1"/>')
    a, b = p.paths
    # as in CSS, a bare number and px are user units (here mm) and 1mm is 96/25.4 of them
    assert near(box(a["pts"]), (2 * K, 5 * K, (2 + 96 / 25.4) * K, 10 * K))
    assert near(box(b["pts"]), (0, 9 * K, 4 * K, 10 * K))


def test_nested_svg_viewport_clips_and_maps():
    p = painted('<svg x="10" y="2" width="4" height="4" viewBox="0 0 2 2"><rect width="3" height="1"/></svg>')
    (clip,) = p.clips
    assert near(box(clip), (10 * K, 4 * K, 14 * K, 8 * K))
    assert near(box(p.paths[0]["pts"]), (10 * K, 6 * K, 16 * K, 8 * K))


def test_use_symbol_and_defs():
    p = painted('<defs><rect id="r" width="2" height="1" fill="#00ff00"/>'
                '<symbol id="s" viewBox="0 0 1 1"><circle cx=".5" cy=".5" r=".5"/></symbol></defs>'
                '<use href="#r" x="5" y="5"/><use xlink:href="#s" x="10" y="0" width="4" height="4"/>')
    rect, circle = p.paths  # nothing drawn from <defs> itself
    assert rect["fill"] == ("rg", 0.0, 1.0, 0.0)
    assert near(box(rect["pts"]), (5 * K, 4 * K, 7 * K, 5 * K))
    assert near(box(circle["pts"]), (10 * K, 6 * K, 14 * K, 10 * K))


def test_a_link_and_metadata():
    p = painted('<title>face</title><a href="https://example.org"><rect width="2" height="2"/></a>'
                f'<text x="1" y="5" font-family="{GOTHIC}" font-size="2"><title>hint</title>字</text>')
    assert len(p.paths) == 1 and len(p.texts) == 1


def test_use_that_loops_is_an_error():
    with pytest.raises(InputError, match="loop|contains"):
        convert(svg('<g id="a"><use href="#a"/></g>'), "f")


def test_paint_naming_no_element_is_an_error_unless_it_gives_a_fallback_colour():
    with pytest.raises(InputError, match="names no element"):
        convert(svg('<rect width="5" height="5" fill="url(#nope)"/>'), "f")
    p = painted('<rect width="5" height="5" fill="url(#nope) #ff0000"/>')
    assert len(p.paths) == 1


def test_clip_path_clips_in_the_elements_user_space():
    p = painted('<clipPath id="c"><rect x="0" y="0" width="5" height="5"/>'
                '<circle cx="10" cy="5" r="1" transform="translate(2,0)"/></clipPath>'
                '<g transform="translate(1,1)" clip-path="url(#c)"><rect width="20" height="20" fill="blue"/></g>')
    (clip,) = p.clips
    assert "W" in p.names and p.names.index("W") < p.names.index("f")
    bx = box(clip)
    assert near(bx, (1 * K, (10 - 7) * K, 14 * K, 9 * K))  # the rect and the moved circle, both shifted by (1,1)
    assert p.paths[0]["fill"] == ("rg", 0.0, 0.0, 1.0)


# ------------------------------------------------------------------------------- paint


def test_colours_in_every_notation():
    p = painted('<rect width="1" height="1" fill="#f00"/>'
                '<rect width="1" height="1" fill="rgb(0, 255, 0)"/>'
                '<rect width="1" height="1" fill="rgb(0%, 0%, 100%)"/>'
                '<rect width="1" height="1" fill="orange"/>'
                '<g color="#336699"><rect width="1" height="1" fill="currentColor"/></g>'
                '<rect width="1" height="1" fill="#102030FF"/>'
                '<rect width="1" height="1" fill="none" stroke="#000"/>')
    fills = [pp["fill"] for pp in p.paths[:6]]
    assert fills[0] == ("rg", 1.0, 0.0, 0.0)
    assert fills[1] == ("rg", 0.0, 1.0, 0.0)
    assert fills[2] == ("rg", 0.0, 0.0, 1.0)
    assert fills[3] == ("rg", 1.0, 0.6471, 0.0)
    assert fills[4] == ("rg", 0.2, 0.4, 0.6)
    assert fills[5] == ("rg", round(0x10 / 255, 4), round(0x20 / 255, 4), round(0x30 / 255, 4))
    assert p.paths[6]["op"] == "S"


def test_stroke_properties_and_style_attribute_override():
    p = painted('<path d="M1 1 L5 5 L9 1" fill="none" stroke="#000" stroke-width="0.3" stroke-width-ignored="1" '
                'style="stroke-width: 0.5; stroke-linecap: round; stroke-linejoin: bevel; stroke-miterlimit: 7; '
                'stroke-dasharray: 1 0.5 0.25; stroke-dashoffset: 0.2"/>'
                '<rect width="1" height="1" stroke="#000" fill="none"/>')
    dashed, plain = p.paths
    assert (dashed["w"], dashed["J"], dashed["j"], dashed["M"]) == (0.5, 1, 2, 7)
    assert dashed["d"] == ([1, 0.5, 0.25, 1, 0.5, 0.25], 0.2)  # an odd list is repeated
    assert (plain["w"], plain["J"], plain["j"], plain["M"], plain["d"]) == (1, 0, 0, 4, ([], 0))  # SVG defaults


def test_inheritance_through_groups_and_fill_rule():
    p = painted('<g fill="#0000ff" stroke="#ff0000" stroke-width="0.2" fill-rule="evenodd">'
                '<g><rect width="2" height="2"/></g><rect width="1" height="1" fill="#00ff00" fill-rule="nonzero"/></g>')
    a, b = p.paths
    assert a["op"] == "B*" and a["fill"] == ("rg", 0.0, 0.0, 1.0) and a["stroke"] == ("RG", 1.0, 0.0, 0.0)
    assert b["op"] == "B" and b["fill"] == ("rg", 0.0, 1.0, 0.0) and b["w"] == 0.2


def test_display_and_visibility_none_draw_nothing():
    p = painted('<g display="none"><rect width="1" height="1"/></g>'
                '<rect width="1" height="1" style="display:none"/>'
                '<g visibility="hidden"><rect width="1" height="1"/><rect width="2" height="2" visibility="visible"/></g>')
    (only,) = p.paths
    assert near(box(only["pts"]), (0, 8 * K, 2 * K, 10 * K))


# ------------------------------------------------------------------------------- text


def test_text_position_size_font_and_content():
    p = painted(f'<text x="2" y="6" font-family="{GOTHIC}" font-size="3" fill="#e4007f">カード abc</text>')
    (t,) = p.texts
    assert near(t["at"], mm(2, 6)) and t["upright"]
    assert t["size"] == pytest.approx(3 * K, abs=0.01)
    assert t["fill"] == ("rg", 0.8941, 0.0, 0.498)
    assert "カード abc" in p.text
    used = [str(f.get_object()["/BaseFont"]) for f in p.page["/Resources"]["/Font"].values()]
    assert any(name.endswith("+" + GOTHIC) for name in used)  # the embedded subset


def test_text_with_an_x_per_character_and_anchors():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    p = painted(f'<text x="1 3 5" y="5" font-family="{GOTHIC}" font-size="2">ABC</text>'
                f'<text x="10" y="8" font-family="{GOTHIC}" font-size="2" text-anchor="middle">mid</text>'
                f'<text x="20" y="9" font-family="{GOTHIC}" font-size="2" text-anchor="end">end</text>')
    xs = [t["at"][0] / K for t in p.texts]
    assert xs[:3] == pytest.approx([1, 3, 5], abs=1e-3)
    assert xs[3] == pytest.approx(10 - stringWidth("mid", GOTHIC, 2) / 2, abs=1e-3)
    assert xs[4] == pytest.approx(20 - stringWidth("end", GOTHIC, 2), abs=1e-3)


def test_text_whose_characters_sit_where_the_pen_is_is_one_run():
    from reportlab.pdfbase.pdfmetrics import stringWidth

    w = stringWidth("A", GOTHIC, 2)
    p = painted(f'<text x="1 {1 + w:.3f} {1 + 2 * w:.3f}" y="5" font-family="{GOTHIC}" font-size="2">AAA</text>')
    assert len(p.texts) == 1


def test_unknown_font_is_an_error_naming_the_face():
    with pytest.raises(InputError, match="deck x piece 3.*NoSuchFont"):
        convert(svg('<text x="1" y="1" font-family="NoSuchFont">a</text>'), "deck x piece 3")


@pytest.mark.parametrize("body", [
    '<text x="1" y="8" font-family="{f}" font-size="4" fill="#fff" stroke="#231815" stroke-width="0.3">縁</text>',
    '<g stroke="#000" stroke-width="0.2"><text x="1" y="8" font-family="{f}" font-size="4">縁</text></g>',
    '<text x="1" y="8" font-family="{f}" font-size="4" stroke="#000"><tspan>縁</tspan></text>'])
def test_stroked_text_is_an_error_not_an_outline_left_out(body):
    """svglib, which drew such a face, sets text filled only: white lettering ringed in black (縁取り)
    printed white on the art in every PDF, its outline gone without a word."""
    with pytest.raises(InputError) as e:
        convert(svg(body.format(f=GOTHIC)), "deck d piece 1 front")
    msg = str(e.value)
    assert "deck d piece 1 front" in msg and "<text>" in msg and "stroke" in msg and 'stroke="none"' in msg


@pytest.mark.parametrize("body", [
    '<text x="1" y="8" font-family="{f}" font-size="4" fill="url(#g)">虹</text>',
    '<g fill="url(#g)"><text x="1" y="8" font-family="{f}" font-size="4"><tspan>虹</tspan></text></g>'])
def test_gradient_filled_text_is_an_error_not_text_left_out(body):
    """svglib, which drew such a face, printed a gradient-filled text as nothing at all."""
    grad = '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>'
    with pytest.raises(InputError, match=r"deck d piece 1 front.*<text>.*fill='url\(#g\)'.*nothing"):
        convert(svg(grad + body.format(f=GOTHIC)), "deck d piece 1 front")


@pytest.mark.parametrize("weight", ['font-weight="bold"', 'style="font-style: italic; font-weight: 700"'])
def test_bold_text_in_a_face_svglib_draws_is_set_in_the_font_it_names(weight):
    """svglib, asked for the bold face of a font it knew only as itself, took the system's
    (DejaVuSans-Bold, no Japanese glyphs): 太字 printed as empty boxes in a font of the machine's.
    The converter sets a text in the font its font-family names, whatever the weight; so does
    the fallback now, and its letters are the font's glyphs."""
    art = convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" {weight}>太字と</text><switch/>'), "f")
    assert art.fallback == "switch"
    reader = PdfReader(io.BytesIO(pdf_of(art)))
    names = set()
    todo = [reader.pages[0]["/Resources"]]
    while todo:
        res = todo.pop().get_object()
        names |= {str(f.get_object()["/BaseFont"]).split("+")[-1] for f in (res.get("/Font") or {}).values()}
        todo += [x.get_object()["/Resources"] for x in (res.get("/XObject") or {}).values() if "/Resources" in x.get_object()]
    assert names - {"/Helvetica"} == {GOTHIC}, names  # (Helvetica: this test's canvas starts in it, named, never drawn)
    assert "".join(reader.pages[0].extract_text().split()) == "太字と"


@pytest.mark.parametrize("attr, names", [('writing-mode="tb"', "縦書き"), ('style="writing-mode: vertical-rl"', "縦書き"),
                                         ('text-decoration="underline"', "decoration")])
def test_vertical_or_decorated_text_is_an_error_not_text_set_otherwise(attr, names):
    """svglib, which drew such a face, set 縦書き across (running off the piece) and an underline
    as nothing; horizontal text and text-decoration none are drawn."""
    with pytest.raises(InputError, match=names):
        convert(svg(f'<g {attr}><text x="1" y="8" font-family="{GOTHIC}" font-size="4">縦書き</text></g>'), "f")
    for fine in ('writing-mode="horizontal-tb"', 'text-decoration="none"'):
        art = convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" {fine}>横</text>'), "f")
        assert art.fallback is None and art.items


@pytest.mark.parametrize("attr", ['style="alignment-baseline: middle"', 'word-spacing="2"',
                                  'vector-effect="non-scaling-stroke"', 'paint-order="stroke"'])
def test_what_svglib_would_ignore_is_an_error(attr):
    """Outside the converter's subset, and svglib (which drew such a face) reads none of these:
    dominant-baseline="middle" text printed on its baseline, spaced letters unspaced."""
    key = attr.removeprefix('style="').split("=")[0].split(":")[0]
    with pytest.raises(InputError, match=f"has {key}="):
        convert(svg(f'<g {attr}><text x="1" y="8" font-family="{GOTHIC}" font-size="4">字</text>'
                    '<line x1="0" y1="0" x2="5" y2="0" stroke="#000"/></g>'), "f")
    art = convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" letter-spacing="normal" '
                      'dominant-baseline="auto">字</text>'), "f")
    assert art.fallback is None and art.items
    inkscape = 'style="letter-spacing:0px;word-spacing:0px"'  # as Inkscape writes every text: nothing to draw
    convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" {inkscape}>字</text>'), "f")


@pytest.mark.parametrize("value, drop", [("central", (0.87988 - 0.12012) / 2), ("middle", 0.35 * 0.76514),
                                         ("text-top", 0.87988), ("hanging", 0.8 * 0.87988),
                                         ("ideographic", -0.12012), ("alphabetic", 0.0)])
def test_dominant_baseline_places_the_text_as_a_browser_does(value, drop):
    """``dominant-baseline="central"`` (what designers write to centre a number in a circle) sent
    the face to svglib, which set the text on y: half a line low. The converter places it: y is
    the text's middle (top, bottom) and the baseline below it by the font's own measures, on the
    text and through a group (it is inherited)."""
    for face in (f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" dominant-baseline="{value}">字</text>',
                 f'<g style="dominant-baseline: {value}"><text x="1" y="8" font-family="{GOTHIC}" '
                 'font-size="4">字</text></g>'):
        art = convert(svg(face), "f")
        assert art.fallback is None
        (_, _, size, runs), = [it for it in art.items if it[0] == "text"]
        assert runs[0][1] == pytest.approx(8 + drop * 4, abs=0.01), runs
    with pytest.raises(InputError, match="dominant-baseline=.use-script., which svglib"):  # not guessed
        convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" dominant-baseline="use-script">字</text>'
                    '<line x1="0" y1="0" x2="5" y2="0" stroke="#000"/>'), "f")


def test_an_ignored_text_property_is_told_what_to_write_instead():
    """The error said "y for the baseline (a text's y is its baseline)" for every property, also
    where dominant-baseline, which pnpgen places, is the answer."""
    for attr, instead in (('alignment-baseline="middle"', "dominant-baseline on the <text>"),
                          ('letter-spacing="1"', "one value per character")):
        with pytest.raises(InputError, match=instead):  # (letter-spacing: in a face svglib draws, <switch>)
            convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" {attr}>字</text><switch/>'), "f")


def test_letter_spacing_spaces_the_letters_and_is_refused_where_svglib_draws_the_face():
    """Inkscape's and Illustrator's letter-spacing (tracking) was an error everywhere: the
    converter spaces each letter by it (em of the font size too); in a face svglib draws, which
    sets the letters unspaced, it is still an error."""
    for spacing, gap in (("1", 1.0), ("0.25em", 1.0)):
        art = convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" letter-spacing="{spacing}">AB</text>'),
                      "f")
        (_, _, _, runs), = [it for it in art.items if it[0] == "text"]
        assert [(x, s) for x, _, s in runs] == [(1.0, "A"), (pytest.approx(1 + fonts.ttfont(GOTHIC).stringWidth("A", 4) + gap),
                                                                          "B")]
    with pytest.raises(InputError, match="has letter-spacing='1', which svglib, drawing this face"):
        convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" letter-spacing="1">AB</text><switch/>'), "f")


def test_text_whose_stroke_draws_nothing_is_drawn():
    for attrs in ('stroke="none"', 'stroke="#000" stroke-width="0"'):
        art = convert(svg(f'<text x="1" y="8" font-family="{GOTHIC}" font-size="4" {attrs}>縁</text>'), "f")
        assert art.fallback is None and art.items


# ------------------------------------------------------------------------------- CMYK


def test_cmyk_mode_writes_no_rgb_and_black_text_on_k_only():
    body = (f'<rect width="5" height="5" fill="#e4007f" stroke="#808080"/>'
            f'<text x="1" y="8" font-family="{GOTHIC}" font-size="2" fill="#000">黒</text>')
    p = painted(body, cmyk=True)
    assert not {"rg", "RG", "g", "G"} & set(p.names)
    assert p.texts[0]["fill"] == ("k", 0.0, 0.0, 0.0, 1.0)
    c, m, y, k = to_cmyk(0xe4 / 255, 0, 0x7f / 255)
    assert p.paths[0]["fill"] == pytest.approx(("k", round(c, 4), round(m, 4), round(y, 4), round(k, 4)))
    assert p.paths[0]["stroke"] == ("K", 0.0, 0.0, 0.0, pytest.approx(1 - 0x80 / 255, abs=1e-4))
    assert {"rg", "RG"} <= set(painted(body).names)


# ------------------------------------------------------------------------------- cache data


def test_json_round_trip_pickle_and_determinism():
    body = (f'<rect width="5" height="5" fill="#e4007f"/><text x="1" y="8" font-family="{GOTHIC}" '
            f'font-size="2">字</text>')
    art = convert(svg(body), "f")
    obj = json.loads(json.dumps(art.to_json()))
    assert Art.from_json(obj) == art
    assert pickle.loads(pickle.dumps(art)) == art
    assert convert(svg(body), "f") == art
    assert pdf_of(Art.from_json(obj)) == pdf_of(art)


def test_a_face_with_every_kind_of_lint_mark_is_read_back_from_the_cache():
    """fixesK: a face whose template wrote a unit of print (``0.6mm``: a "unit" mark) was refused
    when read back from the cache, so it was converted again on every build; and a dashed
    stroke's "dash" mark is read back too."""
    art = convert(svg('<line x1="1" y1="5" x2="19" y2="5" stroke="#000" stroke-width="0.6mm" stroke-dasharray="0.01"/>'), "f")
    assert {m[0] for m in art.marks} == {"stroke", "dash", "unit"}
    assert Art.from_json(json.loads(json.dumps(art.to_json()))) == art


def test_a_tampered_or_foreign_cache_object_is_rejected():
    obj = convert(svg('<rect width="5" height="5"/>'), "f").to_json()
    tampered = json.loads(json.dumps(obj))
    tampered["items"][0][1] += " 1 0 0 1 5 5 cm"
    with pytest.raises(ValueError, match="digest"):
        Art.from_json(tampered)
    for foreign in ({}, [], "x", {**obj, "format": "other"}, {**obj, "version": 99}, {**obj, "extra": 1}):
        with pytest.raises(ValueError):
            Art.from_json(foreign)


def test_a_cache_object_with_a_number_that_is_not_finite_is_rejected():
    """A standalone art's numbers read back are checked (finite floats taken as they are, the
    quick way, ints made floats); a NaN or an infinity cannot be sealed, and a boolean or a string
    in place of a number refuses the object. A store's record (``sealed=False``: the build cache's,
    sealed under this machine's key, so pnpgen's own) is taken as written, its ints made floats
    alike (tests/engine/test_face_record_ops.py)."""
    obj = convert(svg('<rect width="5" height="5" fill="#e4007f"/>'), "f").to_json()
    body = {k: v for k, v in json.loads(json.dumps(obj)).items() if k != "digest"}
    fill = next(i for i, it in enumerate(body["items"]) if it[0] == "fill")
    for bad in (float("nan"), float("inf"), float("-inf")):
        wrong = json.loads(json.dumps(body))
        wrong["items"][fill][1] = bad
        with pytest.raises(ValueError):
            digest(wrong)  # (the seal refuses what is not finite)
        with pytest.raises(ValueError, match="digest does not match"):
            Art.from_json({**wrong, "digest": obj["digest"]})
    for bad in (True, "1"):
        wrong = json.loads(json.dumps(body))
        wrong["items"][fill][1] = bad
        with pytest.raises(ValueError, match="not a number"):
            Art.from_json({**wrong, "digest": digest(wrong)})
    ints = json.loads(json.dumps(body))
    ints["items"][fill][1:] = [1, 0, 0.5]
    assert Art.from_json(ints, sealed=False).items[fill] == ("fill", 1.0, 0.0, 0.5)
    assert Art.from_json({**ints, "digest": digest(ints)}).items[fill] == ("fill", 1.0, 0.0, 0.5)


# ------------------------------------------------------------------------------- outside the subset


def test_a_fallback_face_in_cmyk_has_cmyk_colours():
    art = convert(svg('<rect width="5" height="5" fill="#e4007f" stroke="#000"/><pattern id="p"/>'), "f")
    assert art.fallback == "pattern"
    names = Painted(pdf_of(art, cmyk=True)).names
    assert "k" in names and "K" in names and not {"rg", "RG"} & set(names)


@pytest.mark.parametrize("attr", ['opacity="0.5"', 'fill-opacity="0.4"', 'style="stroke-opacity: 50%"',
                                  'style="fill: rgba(255,0,0,0.5)"'])
def test_transparency_is_an_error_naming_face_and_element(attr):
    with pytest.raises(InputError) as e:
        convert(svg(f'<rect id="box" width="5" height="5" fill="#e4007f" {attr}/>'), "deck epic piece 2 front")
    msg = str(e.value)
    assert "deck epic piece 2 front" in msg and "<rect id='box'>" in msg and "transparency" in msg
    assert "tint" in msg


def test_a_white_veil_is_not_told_that_it_looks_white_on_white():
    """White at 0.5 mixed on white is white: the advice names what a white veil does instead,
    with the tint it gives on black (#808080), never "#ffffff at 0.5 looks like #ffffff"."""
    with pytest.raises(InputError) as e:
        convert(svg('<rect width="9" height="9" fill="#204080"/><circle r="3" fill="#ffffff" opacity="0.5"/>'), "f")
    msg = str(e.value)
    assert "looks like #ffffff" not in msg and "a white shape at 0.5 lightens what lies under it" in msg, msg
    assert "on #000000, #808080" in msg, msg


def test_invalid_xml_is_an_input_error_naming_the_face():
    with pytest.raises(InputError, match="invalid SVG.*deck d piece 1"):
        convert("<svg><rect></svg>", "deck d piece 1")


# ------------------------------------------------------------------------------- images


def _png(colour=(255, 0, 0), size=(4, 2), mode="RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, colour).save(out, "PNG")
    return out.getvalue()


def test_data_uri_image_is_one_image_xobject_drawn_twice():
    uri = "data:image/png;base64," + base64.b64encode(_png()).decode()
    p = painted(f'<image href="{uri}" x="1" y="1" width="4" height="2"/>'
                f'<image xlink:href="{uri}" x="10" y="5" width="8" height="4" preserveAspectRatio="none"/>')
    xobjects = p.page["/Resources"]["/XObject"]
    images = [k for k in xobjects if xobjects[k].get_object()["/Subtype"] == "/Image"]
    assert len(images) == 1
    assert p.names.count("Do") == 2


def _image_boxes(p: Painted) -> list[tuple]:
    """Device boxes of each image drawn (the unit square under the CTM at each Do)."""
    ctm, stack, out = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in p.ops:
        op = op.decode()
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = mul(tuple(float(v) for v in operands), ctm)
        elif op == "Do":
            out.append(box([apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))]) + ((ctm[3] > 0),))
    return out


def test_image_placement_meet_slice_none_and_upright():
    uri = "data:image/png;base64," + base64.b64encode(_png(size=(4, 2))).decode()
    p = painted(f'<image href="{uri}" x="0" y="0" width="4" height="4"/>'
                f'<image href="{uri}" x="10" y="0" width="4" height="4" preserveAspectRatio="xMinYMin slice"/>'
                f'<image href="{uri}" x="0" y="6" width="4" height="4" preserveAspectRatio="none"/>')
    meet, sliced, none = _image_boxes(p)
    assert near(meet, (0, 7 * K, 4 * K, 9 * K, True))  # 4×2 fitted into 4×4, centred
    assert near(sliced, (10 * K, 6 * K, 18 * K, 10 * K, True))  # 8×4, clipped to the 4×4 box
    assert near(box(p.clips[0]), (10 * K, 6 * K, 14 * K, 10 * K))
    assert near(none, (0, 0, 4 * K, 4 * K, True))


def test_resolved_images_png_and_svg_drawn_as_vectors():
    files = {"icons/a.png": _png(), "icons/b.svg": svg('<rect width="10" height="10" fill="#00ff00"/>', 10, 10).encode()}
    asked = []

    def resolve(href):
        asked.append(href)
        return files[href]

    art = convert(svg('<image href="icons/a.png" width="4" height="2"/>'
                             '<image href="icons/b.svg" x="10" y="0" width="5" height="5"/>'), "f", resolve)
    assert asked == ["icons/a.png", "icons/b.svg"]
    p = Painted(pdf_of(art))
    assert p.names.count("Do") == 1
    (rect,) = p.paths
    assert rect["fill"] == ("rg", 0.0, 1.0, 0.0) and near(box(rect["pts"]), (10 * K, 5 * K, 15 * K, 10 * K))
    with pytest.raises(InputError, match="icons/a.png"):
        convert(svg('<image href="icons/a.png" width="4" height="2"/>'), "f")


def test_a_fallback_face_gets_its_image_files_as_data_uris():
    art = convert(svg('<image href="a.png" width="4" height="2"/><mask id="m"/>'), "f", lambda href: _png())
    assert art.fallback == "mask" and "a.png" not in art.svg and "data:image/png;base64," in art.svg
    assert "INLINE IMAGE" in Painted(pdf_of(art)).names  # svglib draws it


GREEN = '<rect width="10" height="10" fill="#00ff00"/>'
STYLED = '<style>g > rect { stroke: #000 }</style>' + GREEN  # a <style> sheet of more than plain rules


@pytest.mark.parametrize("face, picture", [
    ('<image href="b.svg" width="5" height="5"/><mask id="m"/>', GREEN),  # the face outside the subset
    ('<image href="b.svg" width="5" height="5"/>', STYLED),  # the picture outside it
    ('<g><use href="#p"/></g><defs><image id="p" href="b.svg" width="5" height="5"/></defs>', STYLED),
])
def test_an_svg_picture_in_a_face_svglib_draws_is_an_error(face, picture):
    """svglib, which draws a face outside the converter's subset, leaves an SVG picture out (it
    draws only PNG and JPEG data): the face printed without it, without a word."""
    with pytest.raises(InputError, match=r"<image[^:]*shows 'b\.svg', an SVG picture, in a face that svglib draws "
                                         r"\(it uses '(mask|style)'.*svglib leaves SVG pictures out"):
        convert(svg(face), "f", lambda href: svg(picture, 10, 10).encode())


@pytest.mark.parametrize("picture, advice", [
    (STYLED, "the picture's styles saved as attributes (Illustrator: Export As SVG, Styling: Presentation Attributes)"),
    ('<path id="arc" d="M1 5 A4 4 0 0 1 9 5"/>\n<text font-family="BIZUDPGothic-Regular">'
     '<textPath href="#arc">Moon</textPath></text>',
     "the picture's text on a path as paths (Inkscape: select the text, Path > Object to Path, File > Save"),
])
def test_an_svg_picture_outside_the_subset_is_named_as_written_with_advice_for_what_put_it_there(picture, advice):
    """A designer's trial: Inkscape's 'Moon (Inkscape).svg' was named 'Moon%20%28Inkscape%29.svg',
    and its text was told to save a <style> sheet as attributes, which it had none of. Text on a
    path (Inkscape's Text > Put on Path) is what pnpgen does not draw of an Inkscape picture's text."""
    face = '<image href="Moon%20%28Inkscape%29.svg" width="5" height="5"/>'
    with pytest.raises(InputError) as e:
        convert(svg(face), "f", lambda href: svg(picture, 10, 10).encode())
    assert "shows 'Moon (Inkscape).svg', an SVG picture" in str(e.value) and f"(expected {advice}" in str(e.value)
    if "textPath" in picture:  # the line of the picture that sets its text so
        line = next(n for n, t in enumerate(svg(picture, 10, 10).splitlines(), 1) if "<textPath" in t)
        assert (f"an SVG picture whose text is set on a path (<textPath> at line {line} of the picture), which "
                "pnpgen does not draw") in str(e.value), e.value


def test_an_svg_pictures_text_in_a_font_of_its_own_is_set_in_the_nearest_and_told_once():
    """Illustrator's text in Myriad stopped the build ('which is not one of the game's fonts'):
    it is set in the game's nearest font, a sans-serif, and the print lint is told the picture's
    file as written and the family, once however often it is used."""
    picture = svg('<text x="1" y="5" font-family="\'MyriadPro-Regular\'">Sheriff</text>'
                  '<text x="1" y="9" font-family="MyriadPro-Regular">Badge</text>', 10, 10)
    art = convert(svg('<image href="Sheriff%20Badge.svg" width="5" height="5"/>'), "f", lambda href: picture.encode())
    assert [it[1] for it in art.items if it[0] == "text"] == [GOTHIC, GOTHIC]
    assert [m for m in art.marks if m[0] == "font"] == [
        ("font", "", 0.0, 0.0, 0.0, 0.0, 0.0, f"Sheriff Badge.svg\nMyriadPro-Regular\n{GOTHIC}")]
    with pytest.raises(InputError) as e:  # a face's own text in a stranger font is told the game's fonts alone
        convert(svg('<text x="1" y="5" font-family="Myriad">A</text>'), "f")
    assert "which is not one of the game's fonts" in str(e.value) and "as paths" not in str(e.value)


def test_an_illustrator_pictures_style_sheet_of_plain_rules_is_drawn():
    """An English designer's trial: Illustrator's default SVG export (Styling: Internal CSS, rules
    .st0 {fill: …} and class="st0") was refused as outside the subset. Its plain rules are written
    onto the elements, in CSS order (an id over a class over an element; the element's own style
    last), and the picture is drawn as vectors."""
    picture = svg('<style type="text/css">\n\t.st0{fill:#FF0000;}\n\t/* a comment */ rect.st1, .st2 {fill:#0000FF;'
                  'stroke:#00FF00;stroke-width:1}\n\t#own {fill: #000000}\n\trect {fill: #FFFFFF}\n</style>'
                  '<rect class="st0" width="10" height="4"/><rect class="st1" y="5" width="4" height="4"/>'
                  '<rect class="st0" id="own" x="5" y="5" width="2" height="2"/>'
                  '<rect class="st0" style="fill:#00FFFF" x="8" y="5" width="2" height="2"/>', 10, 10)
    art = convert(svg('<image href="b.svg" width="10" height="10"/>'), "f", lambda href: picture.encode())
    assert art.fallback is None
    fills = [p["fill"] for p in Painted(pdf_of(art)).paths]
    assert fills == [("rg", 1.0, 0.0, 0.0), ("rg", 0.0, 0.0, 1.0), ("rg", 0.0, 0.0, 0.0), ("rg", 0.0, 1.0, 1.0)], fills


def test_an_svg_picture_as_a_data_uri_in_a_face_svglib_draws_is_an_error():
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg(STYLED, 10, 10).encode()).decode()
    with pytest.raises(InputError, match=r"shows 'data:image/svg\+xml;base64,.*svglib leaves SVG pictures out"):
        convert(svg(f'<image href="{uri}" width="5" height="5"/>'), "f")


def test_image_with_transparent_pixels_is_an_error():
    uri = "data:image/png;base64," + base64.b64encode(_png((255, 0, 0, 128), mode="RGBA")).decode()
    with pytest.raises(InputError, match="transparen"):
        convert(svg(f'<image href="{uri}" width="4" height="2"/>'), "f")


def test_drawn_once_into_a_form_and_placed_twice():
    uri = "data:image/png;base64," + base64.b64encode(_png()).decode()
    art = convert(svg(f'<rect width="20" height="10" fill="#fc0"/><image href="{uri}" width="4" height="2"/>'
                             f'<text x="2" y="8" font-family="{GOTHIC}" font-size="3">札</text>'), "f")
    out = io.BytesIO()
    c = Canvas(out, pagesize=(200, 100), invariant=1)
    c.beginForm("face")
    draw_art(c, art)
    c.endForm()
    for x in (0, 100):
        c.saveState()
        c.translate(x, 0)
        c.doForm("face")
        c.restoreState()
    c.showPage()
    c.save()
    reader = PdfReader(io.BytesIO(out.getvalue()))
    page = reader.pages[0]
    forms = [v.get_object() for v in page["/Resources"]["/XObject"].values()
             if v.get_object()["/Subtype"] == "/Form"]
    assert len(forms) == 1
    assert [op for _, op in ContentStream(page.get_contents(), reader).operations].count(b"Do") == 2
    assert page.extract_text().count("札") == 2


def test_a_picture_is_decoded_once_and_the_kept_ones_stay_within_their_budget(tmp_path):
    from PIL import Image

    from pnpgen.pdf import imagestream, raster

    def png(colour: str) -> bytes:
        buf = io.BytesIO()
        Image.new("RGB", (100, 100), colour).save(buf, "PNG")
        return buf.getvalue()

    a, b, c = png("red"), png("green"), png("blue")
    sizes = sorted(len(imagestream.make_stream(p).content) for p in (a, b, c))
    streams = raster.ImageStreams(budget=sizes[1] + sizes[2])  # room for two of them
    first = streams.get(a)
    assert streams.get(a) is first and streams.made == 1  # placed again: not decoded again
    streams.get(b)
    streams.get(a)
    streams.get(c)  # over the budget: b, the least recently placed, goes
    assert streams.made == 3
    streams.get(a)
    assert streams.made == 3
    streams.get(b)
    assert streams.made == 4
