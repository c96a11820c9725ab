"""Gradients drawn by pnpgen's own converter (svg/gradient.py, drawn by pdf/shading.py): the
colours a viewer shows (pdfium), print safety (opaque, CMYK, deterministic), and that no content stream of any PDF
pnpgen writes names a resource its page or form does not carry."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject, IndirectObject
from reportlab.pdfgen.canvas import Canvas

from conftest import make_workspace, run
from pnpgen import fonts
from pnpgen.errors import InputError
from pnpgen.pdf.colour import over_limit, to_cmyk, total_ink
from pnpgen.pdf.draw import draw_art
from pnpgen.svg import clear_caches, convert
from pnpgen.svg.artwork import Art, digest

REPO = Path(__file__).resolve().parents[2]
GOTHIC = "BIZUDPGothic-Regular"
PX_PER_MM = 8
RED, BLUE, WHITE = (255, 0, 0), (0, 0, 255), (255, 255, 255)


@pytest.fixture(autouse=True, scope="module")
def _fonts():
    fonts.register(GOTHIC, REPO / "fonts")


# ------------------------------------------------------------------------ the resource probe

def streams(pdf: bytes, parse: bool = True):
    """(where, operations, resources) of every page and, recursively, every Form XObject they
    place, each form once, with its own /Resources (a form that has none holds nothing). With
    ``parse=False`` the operations are the stream's bytes, undecoded (fast, for the probe)."""
    reader = PdfReader(io.BytesIO(pdf))
    seen: set[int] = set()
    todo = [(f"page {n}", page.get_contents(), page.get("/Resources")) for n, page in enumerate(reader.pages, 1)]
    while todo:
        where, content, resources = todo.pop(0)
        resources = resources.get_object() if resources is not None else DictionaryObject()
        if parse:
            ops = ContentStream(content, reader).operations if content is not None else []
        else:
            ops = content.get_object().get_data() if content is not None else b""
        yield where, ops, resources
        xobjects = resources.get("/XObject")
        for key, ref in (xobjects.get_object().items() if xobjects is not None else ()):
            obj = ref.get_object()
            ident = ref.idnum if isinstance(ref, IndirectObject) else id(obj)
            if obj.get("/Subtype") == "/Form" and ident not in seen:
                seen.add(ident)
                todo.append((f"{where} form {key}", obj, obj.get("/Resources")))


# How a content stream names a resource, read from its bytes once its strings are taken out:
# ``/X Do``, ``/F 9 Tf``, ``/Sh sh``, ``/GS gs``, ``/CS cs``, ``/P scn`` (the last operand),
# ``/Tag /Props BDC``. A regex scan is ten times faster than parsing every operation.
_STRING = re.compile(rb"\((?:\\.|[^\\()])*\)", re.S)
_NAME = rb"/([^\s/\[\]()<>{}%]+)"
_END = rb"(?=[\s\[/<(]|$)"
_USES = [
    (re.compile(_NAME + rb"\s+(Do|sh|gs|cs|CS)" + _END), None),
    (re.compile(_NAME + rb"\s+[-+.\d]+\s+Tf" + _END), "/Font"),
    (re.compile(_NAME + rb"\s+(?:scn|SCN)" + _END), "/Pattern"),
    (re.compile(rb"/[^\s/\[\]()<>{}%]+\s*" + _NAME + rb"\s+(?:BDC|DP)" + _END), "/Properties"),
]
_CATEGORY = {b"Do": "/XObject", b"sh": "/Shading", b"gs": "/ExtGState", b"cs": "/ColorSpace", b"CS": "/ColorSpace"}
_DEVICE_SPACES = {"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern"}


def dangling(pdf: bytes) -> list[str]:
    """Every resource name a content stream uses (``/X Do``, ``/F Tf``, ``/Sh sh``, ``/GS gs``,
    ``/CS cs``/``CS``, ``/P scn``/``SCN``, marked-content properties) that the /Resources of its
    own page or Form XObject does not hold, as "where: /Category/Name"."""
    out = []
    for where, data, resources in streams(pdf, parse=False):
        data = _STRING.sub(b"()", data)
        for pattern, category in _USES:
            for m in pattern.finditer(data):
                cat = category or _CATEGORY[m.group(2)]
                name = "/" + m.group(1).decode("latin-1")
                if cat == "/ColorSpace" and name in _DEVICE_SPACES:
                    continue
                held = resources.get(cat)
                if held is None or name not in held.get_object():
                    out.append(f"{where}: {cat}{name}")
    return out


def shadings(pdf: bytes) -> list:
    """The shading dictionaries of every pattern the content streams can use."""
    out = []
    for _, _, resources in streams(pdf):
        patterns = resources.get("/Pattern")
        for ref in (patterns.get_object().values() if patterns is not None else ()):
            out.append(ref.get_object()["/Shading"].get_object())
    return out


def first_colour(function) -> list[float]:
    """C0 of a shading function's first piece."""
    f = function.get_object()
    while "/Functions" in f:
        f = f["/Functions"][0].get_object()
    return [float(v) for v in f["/C0"]]


def test_the_probe_finds_what_reportlab_leaves_dangling():
    """ReportLab's own gradient in a form names /Sh0, which the form's /Resources lack."""
    out = io.BytesIO()
    c = Canvas(out, invariant=1)
    c.beginForm("F", 0, 0, 10, 10)
    c.linearGradient(0, 0, 10, 0, [(1, 0, 0), (0, 0, 1)])  # type: ignore[list-item]
    c.endForm()
    c.doForm("F")
    c.showPage()
    c.save()
    assert dangling(out.getvalue()) == ["page 1 form /FormXob.F: /Shading/Sh0"]


# ------------------------------------------------------------------------------ helpers


def svg(body: str, w: float = 40, h: float = 20) -> str:
    """A face w×h mm whose user units are millimetres."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">{body}</svg>')


def pdf_of(art: Art, cmyk: bool = False) -> bytes:
    """The art drawn as the writer draws a face: one form, placed on a page of its size."""
    out = io.BytesIO()
    c = Canvas(out, pagesize=(art.width_pt, art.height_pt), invariant=1, pageCompression=1)
    c.beginForm("Face", 0, 0, art.width_pt, art.height_pt)
    draw_art(c, art, cmyk=cmyk)
    c.endForm()
    c.doForm("Face")
    c.showPage()
    c.save()
    return out.getvalue()


class Pixels:
    """The page as pdfium shows it, read at (x, y) mm from the top-left."""

    def __init__(self, pdf: bytes, page: int = 0):
        doc = pdfium.PdfDocument(pdf)
        self.im = doc[page].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("RGB")

    def __call__(self, x: float, y: float) -> tuple[int, int, int]:
        return self.im.getpixel((min(self.im.width - 1, round(x * PX_PER_MM)),
                                 min(self.im.height - 1, round(y * PX_PER_MM))))


def near(a, b, tol: int = 10) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def mix(a, b, t: float) -> tuple[int, ...]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


STOPS = '<stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>'


def drawn(body: str, w: float = 40, h: float = 20, cmyk: bool = False) -> tuple[Art, bytes, Pixels]:
    art = convert(svg(body, w, h), "face")
    assert art.fallback is None
    pdf = pdf_of(art, cmyk)
    assert dangling(pdf) == []
    return art, pdf, Pixels(pdf)


# ------------------------------------------------------------------------------ linear


def test_a_linear_gradient_runs_from_its_first_stop_to_its_last():
    _, pdf, px = drawn(f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
                       '<rect width="40" height="20" fill="url(#g)"/>')
    assert near(px(0.3, 10), RED) and near(px(39.7, 10), BLUE)
    assert near(px(20, 10), mix(RED, BLUE, 0.5))
    assert near(px(10, 3), mix(RED, BLUE, 0.25)) and near(px(10, 17), mix(RED, BLUE, 0.25))
    assert b"/ShadingType 2" in pdf and b"/SMask" not in pdf and b"/CA" not in pdf and b"/ca" not in pdf


def test_object_bounding_box_follows_the_shape_and_user_space_the_drawing():
    defs = (f'<defs><linearGradient id="box">{STOPS}</linearGradient>'
            f'<linearGradient id="user" gradientUnits="userSpaceOnUse" x1="0" x2="40">{STOPS}</linearGradient></defs>')
    _, _, px = drawn(defs + '<rect x="20" width="20" height="10" fill="url(#box)"/>'
                            '<rect x="20" y="10" width="20" height="10" fill="url(#user)"/>')
    assert near(px(20.3, 5), RED) and near(px(39.7, 5), BLUE)  # the box: its own width
    assert near(px(20.3, 15), mix(RED, BLUE, 0.5)) and near(px(39.7, 15), BLUE)  # user space: 0 … 40
    assert near(px(10, 5), WHITE)  # nothing outside the shapes


def test_vertical_transformed_and_multi_stop_gradients():
    _, _, px = drawn('<defs><linearGradient id="v" x2="0" y2="1">' + STOPS + '</linearGradient>'
                     '<linearGradient id="t" gradientTransform="rotate(90 0.5 0.5)">' + STOPS + '</linearGradient>'
                     '<linearGradient id="m"><stop offset="0" stop-color="red"/><stop offset="50%" stop-color="lime"/>'
                     '<stop offset="50%" stop-color="#000"/><stop offset="1" style="stop-color: white"/></linearGradient>'
                     '</defs><rect width="10" height="20" fill="url(#v)"/><rect x="10" width="10" height="20" fill="url(#t)"/>'
                     '<rect x="20" width="20" height="20" fill="url(#m)"/>')
    assert near(px(5, 0.3), RED) and near(px(5, 19.7), BLUE) and near(px(5, 10), mix(RED, BLUE, 0.5))
    assert near(px(15, 0.3), RED) and near(px(15, 19.7), BLUE)
    assert near(px(29.7, 10), (0, 255, 0)) and near(px(30.3, 10), (0, 0, 0))  # a hard edge at 50 %
    assert near(px(35, 10), (128, 128, 128), 12)


def test_href_lends_stops_and_attributes_between_gradients():
    _, _, px = drawn(f'<defs><linearGradient id="base" x2="0" y2="1">{STOPS}</linearGradient>'
                     '<linearGradient id="flip" href="#base" x1="1" x2="0" y2="0"/>'
                     '<radialGradient id="r" xlink:href="#base"/></defs>'
                     '<rect width="20" height="20" fill="url(#flip)"/><rect x="20" width="20" height="20" fill="url(#r)"/>')
    assert near(px(0.3, 10), BLUE) and near(px(19.7, 10), RED)  # own x1/x2 win, y2 too
    assert near(px(30, 10), RED) and near(px(39.9, 0.1), BLUE)  # a radial one takes only the stops


@pytest.mark.parametrize("spread, at_quarter, at_three_quarters", [
    ("pad", BLUE, BLUE), ("repeat", mix(RED, BLUE, 0.5), mix(RED, BLUE, 0.5)),
    ("reflect", mix(RED, BLUE, 0.5), mix(RED, BLUE, 0.5))])
def test_spread_methods(spread, at_quarter, at_three_quarters):
    # the gradient vector spans the left fifth: 0 … 8 mm of 40
    _, _, px = drawn(f'<defs><linearGradient id="g" x2="0.2" spreadMethod="{spread}">{STOPS}</linearGradient></defs>'
                     '<rect width="40" height="20" fill="url(#g)"/>')
    assert near(px(4, 10), mix(RED, BLUE, 0.5))
    assert near(px(12, 10), at_quarter) and near(px(28, 10), at_three_quarters)
    if spread == "repeat":
        assert near(px(8.4, 10), mix(RED, BLUE, 0.05), 16)  # starts again from red
    if spread == "reflect":
        assert near(px(8.4, 10), mix(RED, BLUE, 0.95), 16) and near(px(15.6, 10), mix(RED, BLUE, 0.05), 16)


# ------------------------------------------------------------------------------ radial


def test_a_radial_gradient_runs_from_its_centre_to_its_circle():
    _, pdf, px = drawn(f'<defs><radialGradient id="g">{STOPS}</radialGradient></defs>'
                       '<circle cx="10" cy="10" r="10" fill="url(#g)"/>'
                       f'<defs><radialGradient id="f" fx="0.25" fy="0.5" r="0.5">{STOPS}</radialGradient></defs>'
                       '<rect x="20" width="20" height="20" fill="url(#f)"/>')
    assert b"/ShadingType 3" in pdf
    assert near(px(10, 10), RED) and near(px(19.6, 10), BLUE, 16) and near(px(10, 5), mix(RED, BLUE, 0.5))
    assert near(px(0.2, 0.2), WHITE)  # outside the circle: not painted
    assert near(px(25, 10), RED) and near(px(39.8, 0.2), BLUE)  # the focal point is red, the corners padded


def test_a_gradient_stroke_and_a_gradient_on_a_moved_shape():
    _, _, px = drawn(f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
                     '<rect x="2" y="2" width="16" height="16" fill="#ffffff" stroke="url(#g)" stroke-width="2"/>'
                     '<rect width="10" height="10" fill="url(#g)" transform="translate(25 5)"/>')
    assert near(px(2, 10), mix(RED, BLUE, 1 / 16), 16) and near(px(18, 10), BLUE, 16)  # the stroke
    assert near(px(10, 10), WHITE)  # its plain fill
    assert near(px(25.3, 10), RED) and near(px(34.7, 10), BLUE)


def test_one_stop_is_a_plain_colour_and_no_stops_paint_nothing():
    art, _, px = drawn('<defs><linearGradient id="one"><stop stop-color="#00f"/></linearGradient>'
                       '<linearGradient id="none"/></defs>'
                       '<rect width="20" height="20" fill="url(#one)"/><rect x="20" width="20" height="20" fill="url(#none)"/>')
    assert near(px(10, 10), BLUE) and near(px(30, 10), WHITE)
    assert not any(it[0] == "paint" for it in art.items)


# ------------------------------------------------------------------------- print safety


def test_a_gradient_in_cmyk_has_cmyk_stops_and_no_rgb():
    _, pdf, px = drawn(f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
                       '<rect width="40" height="20" fill="url(#g)" stroke="#00ff00"/>', cmyk=True)
    assert_cmyk(pdf)
    assert reddish(px(1, 10)) and bluish(px(39, 10))


def reddish(p) -> bool:
    """Red as a viewer shows a CMYK red (pdfium converts CMYK naively, not as RGB went in)."""
    return p[0] > p[2] + 100


def bluish(p) -> bool:
    return p[2] > p[0] + 60


def assert_cmyk(pdf: bytes) -> None:
    """Every colour CMYK: no RGB operators, every shading in DeviceCMYK from a CMYK stop."""
    ops = {op for _, stream, _ in streams(pdf) for _, op in stream}
    assert not ops & {b"rg", b"RG", b"g", b"G"}
    found = shadings(pdf)
    assert found and all(sh["/ColorSpace"] == "/DeviceCMYK" for sh in found)
    assert any(first_colour(sh["/Function"]) == pytest.approx(to_cmyk(1, 0, 0)) for sh in found)


def test_the_same_face_makes_the_same_bytes():
    face = svg(f'<defs><radialGradient id="g" spreadMethod="reflect" r="0.2">{STOPS}</radialGradient></defs>'
               '<rect width="40" height="20" fill="url(#g)" stroke="url(#g)"/>')
    first = pdf_of(convert(face, "f"))
    clear_caches()
    assert pdf_of(convert(face, "f")) == first


def test_a_gradient_survives_the_art_cache():
    art = convert(svg(f'<defs><linearGradient id="g" spreadMethod="repeat" x2="0.3">{STOPS}'
                             '</linearGradient></defs><rect width="40" height="20" fill="url(#g)" stroke="red"/>'), "f")
    assert any(it[0] == "paint" for it in art.items)
    assert Art.from_json(art.to_json()) == art
    body = art.to_json()
    paint = next(it for it in body["items"] if it[0] == "paint")
    paint[4][4][0][0] = 2.0  # a stop offset beyond 1, sealed again
    body.pop("digest")
    body["digest"] = digest(body)
    with pytest.raises(ValueError):
        Art.from_json(body)


@pytest.mark.parametrize("stop, what", [
    ('<stop offset="1" stop-color="#00f" stop-opacity="0.5"/>', "stop-opacity 0.5"),
    ('<stop offset="1" style="stop-color: #00f; stop-opacity: 0"/>', "stop-opacity 0"),
    ('<stop offset="1" style="stop-color: rgba(0,0,255,0.5)"/>', "transparency"),
    ('<stop offset="1" stop-color="bluish"/>', "not a colour"),
    ('<stop offset="x" stop-color="#00f"/>', "offset"),
])
def test_bad_stops_are_errors_naming_the_stop(stop, what):
    with pytest.raises(InputError) as e:
        convert(svg(f'<defs><linearGradient id="g"><stop stop-color="red"/>{stop}</linearGradient></defs>'
                           '<rect width="4" height="4" fill="url(#g)"/>'), "deck cards, piece 1")
    assert what in e.value.message and "<stop>" in e.value.message and "deck cards, piece 1" in e.value.message


@pytest.mark.parametrize("body", ['<rect width="9" height="9" fill="red" fill-opacity="0.5"/><pattern id="p"/>',
                                  '<rect width="9" height="9" fill="rgba(255,0,0,0.5)"/><pattern id="p"/>',
                                  '<linearGradient id="g"><stop stop-opacity="0.2"/></linearGradient><mask id="m"/>'])
def test_transparency_is_an_error_in_faces_svglib_draws_too(body):
    """svglib would write it as an alpha ExtGState (which the face's form would not carry)."""
    with pytest.raises(InputError) as e:
        art = convert(svg(body), "f")
        assert art.fallback is not None
        pdf_of(art)
    assert "transparency" in e.value.message


def test_a_face_svglib_draws_keeps_every_resource():
    art = convert(svg('<rect width="9" height="9" fill="#e4007f" stroke="#000"/><pattern id="p"/>'
                             f'<text x="2" y="10" font-family="{GOTHIC}" font-size="5"><tspan>A</tspan></text>'
                             '<image width="4" height="4" href="data:image/png;base64,' + PNG + '"/>'), "f")
    assert art.fallback == "pattern"
    for cmyk in (False, True):
        pdf = pdf_of(art, cmyk)
        assert dangling(pdf) == []
        ops = [op for _, stream, _ in streams(pdf) for _, op in stream]
        assert b"Tj" in ops or b"TJ" in ops
        assert b"Do" in ops


def _png() -> str:
    import base64

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (2, 2), (0, 128, 255)).save(buf, "PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")


PNG = _png()


# -------------------------------------------------------------- faces svglib draws, built games


def test_a_gradient_in_a_face_svglib_draws_keeps_its_resources_and_colours():
    """A <switch> sends the face to svglib; its gradient is drawn as pnpgen's are."""
    art = convert(svg(f'<defs><linearGradient id="g">{STOPS}</linearGradient></defs>'
                             '<rect width="40" height="20" fill="url(#g)"/>'
                             f'<text x="2" y="10" font-family="{GOTHIC}" font-size="5">A</text><switch/>'), "f")
    assert art.fallback == "switch"
    for cmyk in (False, True):
        pdf = pdf_of(art, cmyk)
        assert dangling(pdf) == []
        px = Pixels(pdf)
        if cmyk:
            assert_cmyk(pdf)
            assert reddish(px(0.3, 18)) and bluish(px(39.7, 18))
        else:
            assert near(px(0.3, 18), RED) and near(px(39.7, 18), BLUE) and near(px(20, 18), mix(RED, BLUE, 0.5))


GRADIENT_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient>
<radialGradient id="r"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#008000"/></radialGradient></defs>
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="url(#g)"/>
<circle cx="{{ w / 2 }}" cy="{{ h / 2 }}" r="20" fill="url(#r)"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, min_size=7, align="center") }}
{% endblock %}
"""


def test_a_built_card_with_gradients_prints_them(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["A"], front=GRADIENT_FRONT)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    shop = ws / "build" / "test" / "shop" / "cards.pdf"
    pdf = shop.read_bytes()
    assert dangling(pdf) == []
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    w_mm, h_mm = float(page.mediabox.width) * 25.4 / 72, float(page.mediabox.height) * 25.4 / 72
    px = Pixels(pdf)
    assert near(px(0.2, h_mm - 3), RED) and near(px(w_mm - 0.2, h_mm - 3), BLUE)
    assert near(px(w_mm / 2, h_mm - 3), mix(RED, BLUE, 0.5))
    assert near(px(w_mm / 2, h_mm / 2), WHITE) and near(px(w_mm / 2, h_mm / 2 + 19.6), (0, 128, 0), 16)
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "--colour", "cmyk") == 0
    exported = sorted((ws / "build" / "test" / "doujin").glob("*.pdf"))
    assert exported
    cmyk = exported[0].read_bytes()
    assert dangling(cmyk) == []
    assert_cmyk(cmyk)
    bleed = PdfReader(io.BytesIO(cmyk)).pages[0].bleedbox  # the export's page has a margin
    x0, x1 = (float(v) * 25.4 / 72 for v in (bleed.left, bleed.right))
    y = (float(PdfReader(io.BytesIO(cmyk)).pages[0].mediabox.top) - float(bleed.bottom)) * 25.4 / 72 - 3
    px = Pixels(cmyk)
    assert reddish(px(x0 + 0.3, y)) and bluish(px(x1 - 0.3, y))


def test_the_four_games_have_no_dangling_resources(built):
    pdfs = sorted(built.rglob("*.pdf"))
    assert len(pdfs) >= 8
    for pdf in pdfs:
        assert dangling(pdf.read_bytes()) == [], pdf.relative_to(built)


def test_the_ink_check_reads_gradient_stops():
    art = convert(svg('<defs><linearGradient id="g"><stop stop-color="#fff"/><stop offset="1" stop-color="#400000"/>'
                             '</linearGradient></defs><rect width="40" height="20" fill="url(#g)"/>'), "f")
    pdf = pdf_of(art, cmyk=True)
    dark = to_cmyk(0x40 / 255, 0, 0)
    assert [(page, ink) for page, _, ink in over_limit(pdf, 240)] == [(0, total_ink(tuple(round(v, 6) for v in dark)))]
    assert over_limit(pdf, 300) == []
