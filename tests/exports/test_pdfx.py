"""PDF/X-1a:2003 shop files (DriveThruCards, 同人): each passes the project's preflight
(tests/exports/preflight.py), which checks every rule pnpgen claims; the same export without
PDF/X fails it, so the preflight can fail."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from preflight import problems

from conftest import REPO, make_workspace, run

PICTURE_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
<image x="5" y="30" width="40" height="40" href="photo.png"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12) }}
{% endblock %}
"""


TWO = ["カード1", "カード2"]  # what a file's checks read needs no more cards than two (the small workspace has 11)


def _export(root: Path, preset: str, *extra: str, game: str = "test", out: Path | None = None) -> Path:
    args = ["export", "--game", game, "--preset", preset, *extra]
    if out is not None:
        args += ["--out", str(out)]
    assert run(root, *args) == 0
    return (out or root / "build") / game / preset


@pytest.mark.parametrize("preset, condition", [("drivethrucards", "CGATS TR 001"), ("doujin", "JC200103")])
def test_shop_pdfs_pass_the_pdfx1a_preflight(tmp_path, preset, condition):
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=TWO)
    Image.new("RGB", (120, 120), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    fit = ("--fit", "scale")  # the test deck is 63×88 mm; DriveThruCards' poker is 2.5×3.5 in
    out = _export(root, preset, *fit)
    pdf = (out / "cards.pdf").read_bytes()
    assert problems(pdf) == []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        [intent] = doc.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == condition
        assert str(intent.RegistryName) == "http://www.color.org"
        assert str(doc.trailer.Info.CreationDate) == "D:20261130000000Z"  # the game's date, not the clock
        # what the document says of itself, and no stand-in (ReportLab's Author "anonymous",
        # Subject "unspecified") a shop's preflight report would show as the designer's
        assert sorted(doc.trailer.Info.keys()) == ["/CreationDate", "/Creator", "/GTS_PDFXVersion", "/ModDate",
                                                   "/Producer", "/Title", "/Trapped"]
        images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert images and {str(i.ColorSpace) for i in images} == {"/DeviceCMYK"}  # the RGB picture converted
    again = _export(root, preset, *fit, out=tmp_path / "elsewhere")
    assert (again / "cards.pdf").read_bytes() == pdf  # deterministic, in any folder
    # Without PDF/X the same file fails the very preflight.
    plain = _export(root, preset, *fit, "--pdfx", "none", out=tmp_path / "plain")
    found = problems((plain / "cards.pdf").read_bytes())
    assert any("GTS_PDFX output intents" in p for p in found) and any("GTS_PDFXVersion" in p for p in found)
    rgb = _export(root, preset, *fit, "--colour", "rgb", out=tmp_path / "rgb")
    assert any("RGB colour operator" in p for p in problems((rgb / "cards.pdf").read_bytes()))


@pytest.fixture(scope="module")
def green_doujin(tmp_path_factory) -> Path:
    """PICTURE_FRONT's two cards with a green picture, exported for 同人 (PDF/X-1a) once: the
    tests that read ``build/test/doujin`` share it; one that exports again works in a copy."""
    root = make_workspace(tmp_path_factory.mktemp("green") / "ws", front=PICTURE_FRONT, pieces=TWO)
    Image.new("RGB", (120, 120), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    _export(root, "doujin")
    return root


def test_the_picture_is_converted_as_the_vector_colours_are(green_doujin):
    from pnpgen.pdf.colour import to_cmyk

    out = green_doujin / "build" / "test" / "doujin"
    with pikepdf.open(out / "cards.pdf") as doc:
        image = next(o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image")
        pixel = tuple(image.read_bytes()[:4])
    want = tuple(round(255 * v) for v in to_cmyk(30 / 255, 160 / 255, 60 / 255))
    assert all(abs(a - b) <= 1 for a, b in zip(pixel, want)), (pixel, want)


def test_real_games_pass(tmp_path):
    for preset in ("doujin", "drivethrucards"):
        out = _export(REPO, preset, "--fit", "scale", game="alicematic-medallions", out=tmp_path / preset)
        pdfs = sorted(out.glob("*.pdf"))
        assert pdfs
        for pdf in pdfs:
            assert problems(pdf.read_bytes()) == [], pdf.name


@pytest.mark.parametrize("args, message", [
    (["--preset", "doujin", "--colour", "rgb", "--pdfx", "x1a"], "PDF/X-1a holds CMYK colour only"),
    (["--preset", "thegamecrafter", "--pdfx", "x1a"], "takes images, not PDF"),
    (["--preset", "thegamecrafter", "--outline-text"], "so --outline-text does not apply"),
])
def test_pdfx_that_cannot_be_made_is_one_line(tmp_path, capsys, args, message):
    """--pdfx x1a asked for where it cannot be made; --colour rgb alone is a plain RGB PDF."""
    root = make_workspace(tmp_path / "ws")
    assert run(root, "export", "--game", "test", *args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err


def _pictures(pdf: Path) -> list[tuple[str, tuple[int, ...]]]:
    """(colour space, first pixel) of every image of the PDF."""
    with pikepdf.open(pdf) as doc:
        return [(str(o.ColorSpace), tuple(o.read_bytes()[:4])) for o in doc.objects
                if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def test_pdfx1a_2001_for_a_printer_that_asks_for_it(tmp_path):
    """Many Japanese printers' RIPs take PDF/X-1a:2001 (PDF 1.3; "現在日本の市場において主に使用されて
    いるPDF/Xは、PDF/X-1a:2001", mksign.jp). --pdfx x1a-2001 (or a preset's pdfx: x1a-2001) writes
    it: %PDF-1.3, GTS_PDFXVersion PDF/X-1:2001 with GTS_PDFXConformance PDF/X-1a:2001, the 2001
    preflight passed by the print file and the die file; its pages are the 2003 file's, which
    the 2001 preflight turns away (PDF 1.4)."""
    from pnpgen.pdf.pixels import rendered

    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=TWO)
    Image.new("RGB", (120, 120), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    (root / "data" / "test" / "decks" / "coins.yaml").write_text(
        "name: コイン\nkind: token\nshape: circle\nsize: 30\nfront: card-front.svg.j2\n"
        "fields: {name: text, text: text}\npieces:\n  - {name: 金}\n", encoding="utf-8")
    old = _export(root, "doujin-pieces", out=tmp_path / "2003")
    new = _export(root, "doujin-pieces", "--pdfx", "x1a-2001", out=tmp_path / "2001")
    for name in ("cards.pdf", "coins.pdf", "coins-die.pdf"):
        pdf = (new / name).read_bytes()
        assert pdf.startswith(b"%PDF-1.3\n") and problems(pdf, "2001") == [], (name, problems(pdf, "2001"))
        with pikepdf.open(io.BytesIO(pdf)) as doc:
            info = doc.trailer.Info
            assert (str(info.GTS_PDFXVersion), str(info.GTS_PDFXConformance)) == ("PDF/X-1:2001", "PDF/X-1a:2001")
        before = (old / name).read_bytes()
        assert problems(before) == [] and "header b'%PDF-1.4': PDF/X-1a:2001 is PDF 1.3 at most" in problems(before, "2001")
        pages = len(pikepdf.open(io.BytesIO(pdf)).pages)
        assert [i.tobytes() for i in rendered(pdf, range(pages), 2)] == \
            [i.tobytes() for i in rendered(before, range(pages), 2)]
    preset = (REPO / "generator" / "pnpgen" / "exports" / "presets" / "doujin.yaml").read_text(encoding="utf-8")
    (root / "presets").mkdir()
    (root / "presets" / "old-rip.yaml").write_text(preset.replace("pdfx: x1a", "pdfx: x1a-2001"), encoding="utf-8")
    assert (_export(root, "old-rip", "--deck", "cards") / "cards.pdf").read_bytes().startswith(b"%PDF-1.3\n")

def test_a_cmyk_pdf_without_pdfx_holds_no_rgb_picture(tmp_path, green_doujin):
    """--colour cmyk --pdfx none: the picture is converted as under PDF/X (the docs: every colour
    in DeviceCMYK), not left RGB for the shop's RIP to separate by a conversion of its own."""
    from pnpgen.pdf.colour import to_cmyk

    root = Path(shutil.copytree(green_doujin, tmp_path / "ws", symlinks=True))
    plain = _export(root, "doujin", "--pdfx", "none")
    x1a = green_doujin / "build" / "test" / "doujin"
    want = tuple(round(255 * v) for v in to_cmyk(30 / 255, 160 / 255, 60 / 255))
    for out in (plain, x1a):
        [(space, pixel)] = _pictures(out / "cards.pdf")
        assert space == "/DeviceCMYK" and all(abs(a - b) <= 1 for a, b in zip(pixel, want)), (out, space, pixel)
    rgb = _export(root, "doujin", "--colour", "rgb", out=tmp_path / "rgb")
    assert [space for space, _ in _pictures(rgb / "cards.pdf")] == ["/DeviceRGB"]  # an RGB PDF keeps it


@pytest.mark.parametrize("preset, limit, fit", [("drivethrucards", 240, ("--fit", "scale")), ("doujin", 300, ())])
def test_a_picture_over_the_ink_limit_is_held_to_it_and_said(tmp_path, preset, limit, fit):
    """A dark red picture (#5a0000 → 0/100/100/64.7, 264.7 % ink) is over DriveThruCards' 240 %:
    its pixels print held to the limit, C, M and Y lightened together and K kept (0/87/87/64.7,
    238.8 %: DriveThruCards turns away a file over it), and the export says so, naming the page,
    the art's heaviest pixel and its ink; under 同人's 300 % the file holds the formula's pixels
    and the export says nothing."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=["カード1", "カード2", "カード3"])
    Image.new("RGB", (120, 120), (90, 0, 0)).save(root / "templates" / "test" / "photo.png")
    out = _export(root, preset, *fit)
    [(_, pixel)] = _pictures(out / "cards.pdf")
    ink = round(sum(pixel) * 100 / 255, 1)
    warned = [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
              if "converted from RGB" in w]
    if limit == 300:
        assert (pixel, ink) == ((0, 255, 255, 165), 264.7)
        assert warned == []
        return
    assert pixel == (0, 222, 222, 165) and ink == 238.8  # K 64.7 % kept, C+M+Y held to 240 − 64.7 − 0.8
    [line] = warned
    assert line.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 2 ('カード1' of deck 'cards', front) and 2 more pages: "
                           "templates/test/photo.png converted from RGB reached CMYK "
                           "0/100/100/64.7, 264.7 % total ink")
    assert f"100 % of its pixels were over DriveThruCards's {limit} % and print held to it" in line


def test_a_few_pixels_over_the_ink_limit_are_not_called_none(tmp_path):
    """One dark red pixel among 14,400 (0.007 %) is over DriveThruCards' 240 %: the warning names it
    and says "under 0.1 %" of the pixels, not "0 %", which would deny the pixel it has just named."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=TWO)
    picture = Image.new("RGB", (120, 120), (230, 230, 230))
    picture.putpixel((60, 60), (90, 0, 0))
    picture.save(root / "templates" / "test" / "photo.png")
    out = _export(root, "drivethrucards", "--fit", "scale")
    [line] = [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
              if "converted from RGB reached" in w]
    assert "264.7 % total ink; under 0.1 % of its pixels were over DriveThruCards's 240 % and print held" in line, line

def _tiling(doc) -> None:
    pattern = doc.make_stream(b"1 0 0 rg 0 0 5 5 re f", Type=pikepdf.Name.Pattern, PatternType=1, PaintType=1,
                              TilingType=1, BBox=[0, 0, 5, 5], XStep=5, YStep=5, Resources=pikepdf.Dictionary())
    page = doc.pages[0]
    page.obj.Resources.Pattern = pikepdf.Dictionary(P0=pattern)
    page.contents_add(doc.make_stream(b"q /Pattern cs /P0 scn 0 0 20 20 re f Q"))


def _transfer(doc) -> None:
    page = doc.pages[0]
    identity = doc.make_indirect(pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0], C1=[1], N=2))
    page.obj.Resources.ExtGState = pikepdf.Dictionary(T0=pikepdf.Dictionary(TR2=identity))
    page.contents_add(doc.make_stream(b"q /T0 gs Q"))


# What a file may not hold under PDF/X-1a that the preflight once let through: each made in an
# export that passes, then found.
BREAKS = {
    "an RGB colour space set by name": (
        lambda doc: doc.pages[0].contents_add(doc.make_stream(b"q /DeviceRGB cs 1 0 0 sc 0 0 9 9 re f Q")),
        "colour operator cs sets /DeviceRGB"),
    "an RGB inline image": (
        lambda doc: doc.pages[0].contents_add(doc.make_stream(
            b"q 9 0 0 9 0 0 cm BI /W 1 /H 1 /CS /RGB /BPC 8 ID \xff\x00\x00 EI Q")),
        "inline image: /DeviceRGB"),
    "an RGB tiling pattern": (_tiling, "pattern /P0: RGB colour operator rg"),
    "a transfer function TR2": (_transfer, "transfer function /TR2"),
    "JavaScript run on opening": (
        lambda doc: setattr(doc.Root, "OpenAction", pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS="app.alert(1)")),
        "catalog /OpenAction"),
    "a creation date that is not a PDF date": (
        lambda doc: setattr(doc.trailer.Info, "CreationDate", pikepdf.String("2026-11-30")),
        "Info /CreationDate '2026-11-30' is not a PDF date"),
    "a picture whose print version is elsewhere (OPI)": (
        lambda doc: [setattr(o, "OPI", pikepdf.Dictionary()) for o in doc.objects
                     if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"],
        "OPI"),
    "a named halftone": (
        lambda doc: [setattr(doc.pages[0].obj.Resources, "ExtGState", pikepdf.Dictionary(H0=pikepdf.Dictionary(
            HT=pikepdf.Dictionary(HalftoneType=1, HalftoneName="DotShop", Frequency=150, Angle=45,
                                  SpotFunction=pikepdf.Name.Round)))),
                     doc.pages[0].contents_add(doc.make_stream(b"q /H0 gs Q"))],
        "a named halftone"),
}


@pytest.fixture(scope="module")
def x1a_pdf(green_doujin) -> bytes:
    return (green_doujin / "build" / "test" / "doujin" / "cards.pdf").read_bytes()


@pytest.mark.parametrize("what", sorted(BREAKS))
def test_the_preflight_finds_what_pdfx1a_forbids(x1a_pdf, what):
    """The preflight is only as good as what it can fail: each break above, made in a file that
    passes, is named."""
    assert problems(x1a_pdf) == []
    change, found = BREAKS[what]
    with pikepdf.open(io.BytesIO(x1a_pdf)) as doc:
        change(doc)
        out = io.BytesIO()
        doc.save(out, force_version="1.4", object_stream_mode=pikepdf.ObjectStreamMode.disable)
    named = problems(out.getvalue())
    assert any(found in p for p in named), named


# A face outside the converter's subset (the unused <mask> sends it to svglib), with text.
SVGLIB_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<defs><mask id="m"/></defs>
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12) }}
{% endblock %}
"""


def test_faces_svglib_draws_embed_every_font_under_names_of_their_own(tmp_path):
    """Each face svglib draws is drawn on a canvas of its own: it named ReportLab's Helvetica
    (never embedded: PDF/X refuses the file) and called its own subset AAAAAA+ as every other
    face did, two subsets of different glyphs under one name. Now the preflight passes and each
    subset has its own tag."""
    root = make_workspace(tmp_path / "ws", front=SVGLIB_FRONT, pieces=["火山", "水田"])
    out = _export(root, "doujin")
    pdf = (out / "cards.pdf").read_bytes()
    assert problems(pdf) == []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        fonts = {str(o.FontName): o.FontFile2.read_bytes() for o in doc.objects
                 if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/FontDescriptor"}
    assert not any("Helvetica" in name for name in fonts)
    assert len(set(fonts.values())) == len(fonts) >= 3  # the writer's subset and one for each face


@pytest.mark.parametrize("art, key", [
    ('<defs><mask id="m"><rect width="20" height="40" fill="#fff"/></mask></defs>'
     '<rect width="40" height="40" fill="#f00" mask="url(#m)"/>', "mask='url(#m)'"),
    ('<defs><filter id="f"><feGaussianBlur stdDeviation="2"/></filter></defs>'
     '<rect width="40" height="40" fill="#f00" filter="url(#f)"/>', "filter='url(#f)'"),
    ('<rect width="40" height="40" fill="#f00" style="mix-blend-mode: multiply"/>', "mix-blend-mode='multiply'"),
    ('<defs><marker id="a"><rect width="3" height="3"/></marker></defs>'
     '<line x2="40" y2="40" stroke="#000" marker-end="url(#a)"/>', "marker-end='url(#a)'"),
    ('<defs><pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="2"/></pattern>'
     '</defs><rect width="40" height="40" fill="url(#p)"/>', "fill='url(#p)', a <pattern>"),
])
def test_what_svglib_leaves_out_is_an_error_not_a_face_printed_without_it(tmp_path, capsys, art, key):
    """svglib (faces outside the converter's subset) draws neither masks, filters, blend modes,
    markers nor patterns: the face printed as if they were not there (a masked rectangle whole, a
    pattern's fill empty), with no word. Now the export stops with one line naming the template,
    the piece and the property; nothing is written."""
    front = PICTURE_FRONT.replace('<image x="5" y="30" width="40" height="40" href="photo.png"/>', art)
    root = make_workspace(tmp_path / "ws", front=front)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert re.match(r"pnpgen: error: templates/test/card-front\.svg\.j2:\d+: deck 'cards' piece ", err) and key in err, err
    assert not (root / "build" / "test" / "doujin").exists()


def test_a_picture_is_wanted_at_the_shops_dpi(tmp_path):
    """同人印刷所 asks 350 dpi (its preset's dpi): a 40 mm picture of 504 px (320 dpi) is enough
    for DriveThruCards' 300 and warned at doujin, naming the figure it wants; it was measured
    against 300 only, so passed in silence."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=["カード1"])
    Image.new("RGB", (504, 504), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")

    def dpi_lines(out: Path) -> list[str]:
        return [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"] if " dpi at " in w]

    assert dpi_lines(_export(root, "drivethrucards", "--fit", "scale")) == []
    [line] = dpi_lines(_export(root, "doujin"))
    assert line.endswith("deck cards, piece カード1: templates/test/photo.png: 320 dpi at 40×40 mm, 350 wanted (551 × 551 px would do)"), line
    Image.new("RGB", (394, 394), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")  # 250 dpi
    assert dpi_lines(_export(root, "tabletopsimulator")) == []  # its cells are made at 200 dpi: filled
    [line] = dpi_lines(_export(root, "drivethrucards", "--fit", "scale"))  # ×1.0102 onto 63.5×88.9 mm
    assert line.endswith("248 dpi at 40.4×40.4 mm, 300 wanted (477 × 477 px would do)"), line


def test_fit_scale_measures_a_pictures_dpi_at_the_size_it_prints(tmp_path):
    """--fit scale prints a 63×88 mm card ×1.0102 onto DriveThruCards' 63.5×88.9 mm: a 40 mm
    picture of 476 px (302 dpi as drawn) prints 40.4 mm wide, 299 dpi, below the 300 wanted; it
    was measured as drawn and passed. --fit bleed keeps its size: 302 dpi, no warning."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=["カード1"])
    Image.new("RGB", (476, 476), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")

    def dpi_lines(out: Path) -> list[str]:
        return [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"] if " dpi at " in w]

    assert dpi_lines(_export(root, "drivethrucards", "--fit", "bleed", out=tmp_path / "bleed")) == []
    [line] = dpi_lines(_export(root, "drivethrucards", "--fit", "scale", out=tmp_path / "scale"))
    assert line.endswith("photo.png: 299 dpi at 40.4×40.4 mm, 300 wanted (477 × 477 px would do)"), line


def test_pictures_below_the_dpi_are_said_for_the_decks_exported_only(tmp_path):
    """A deck ``--deck`` leaves out, or one the preset cannot take (a round token), is not sent to
    the shop: its pictures below 350 dpi are not the export's business (they were warned, naming
    a dpi the deck is never printed at). The deck exported still has its own warned."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=["カード1"])
    Image.new("RGB", (504, 504), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    decks = root / "data" / "test" / "decks"
    deck = (decks / "cards.yaml").read_text(encoding="utf-8")
    (decks / "other.yaml").write_text(deck.replace("カード1", "別札"), encoding="utf-8")
    token = deck.replace("format: poker", "kind: token\nshape: circle\nsize: 50").replace("カード1", "丸")
    (decks / "coins.yaml").write_text(token, encoding="utf-8")

    def dpi_decks(out: Path) -> list[str]:
        warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
        return sorted(w.split("deck ", 1)[1].split(",")[0] for w in warnings if " dpi at " in w)

    assert dpi_decks(_export(root, "doujin", "--deck", "cards")) == ["cards"]
    assert dpi_decks(_export(root, "doujin", out=tmp_path / "all")) == ["cards", "other"]  # not the coins left out


def test_a_picture_in_a_face_svglib_draws_is_cmyk_and_its_ink_checked(tmp_path):
    """svglib draws a face's pictures inline: in a CMYK file that picture stayed RGB (an inline
    image the picture conversion never saw: the PDF/X-1a file held RGB) and its ink unchecked.
    Now it is an image like any other: CMYK by the same conversion, held to 240 % and said."""
    front = SVGLIB_FRONT.replace('fill="#cc3333"/>', 'fill="#cc3333"/>\n<image x="5" y="30" width="40" height="40" '
                                                     'href="photo.png"/>')
    root = make_workspace(tmp_path / "ws", front=front, pieces=["火山"])
    Image.new("RGB", (600, 600), (90, 0, 0)).save(root / "templates" / "test" / "photo.png")
    out = _export(root, "drivethrucards", "--fit", "scale")
    pdf = (out / "cards.pdf").read_bytes()
    assert problems(pdf) == []
    [(space, pixel)] = _pictures(out / "cards.pdf")
    assert space == "/DeviceCMYK" and pixel == (0, 222, 222, 165)
    warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert any("templates/test/photo.png converted from RGB reached CMYK 0/100/100/64.7, "
               "264.7 % total ink" in w for w in warnings), warnings


def test_pictures_converted_on_every_core_are_the_bytes_of_one_at_a_time(monkeypatch):
    """A CMYK shop file's RGB pictures are converted in worker processes, in order: the same file
    as converting them one by one in this process."""
    import io

    import pikepdf

    from pnpgen.pdf import pdfx

    pdf = _rgb_pictures([bytes((20 * n % 256, 255 - 20 * n % 256, 7 * n % 256)) for n in range(12)], (30, 20))
    monkeypatch.setattr(pdfx, "MIN_PARALLEL", 10**9)
    one_by_one = pdfx.pictures_to_cmyk(pdf)
    monkeypatch.setattr(pdfx, "MIN_PARALLEL", 2)
    assert pdfx.pictures_to_cmyk(pdf) == one_by_one
    with pikepdf.open(io.BytesIO(one_by_one)) as converted:
        spaces = {str(im.ColorSpace) for im in pdfx._images(converted)}
    assert spaces == {"/DeviceCMYK"}


def test_a_big_picture_is_converted_a_strip_of_rows_at_a_time():
    """An RGB picture is converted to CMYK a strip of rows at a time (whole, a 7700×7700 picture's
    conversion took some 4 GB): the same stream, and the same heaviest pixel (the first of equals)
    and share over the ink limit, as converted whole; the pixels over it held to it."""
    import zlib

    from pnpgen.pdf import pdfx

    w, h = 5, 7
    rgb = bytearray(bytes((250, 240, 230)) * (w * h))  # light: little ink
    # two equally heavy pixels (260 %): dark red (0/100/100/60) in row 3, dark blue (100/100/0/60) in row 6
    rgb[3 * (2 * w + 1):3 * (2 * w + 2)] = bytes((102, 0, 0))
    rgb[3 * (5 * w + 3):3 * (5 * w + 4)] = bytes((0, 0, 102))
    whole = pdfx._cmyk_stream((w, h), bytes(rgb), 250.0, strip=w * h)
    for strip in (1, w, 2 * w + 3):  # a row a strip; whole rows; strips of two rows and more
        assert pdfx._cmyk_stream((w, h), bytes(rgb), 250.0, strip=strip) == whole
    samples = zlib.decompress(whole[0])
    assert len(samples) == w * h * 4 and samples[4 * (2 * w + 1):4 * (2 * w + 2)] == bytes((0, 241, 241, 153))
    assert whole[1] is not None and (whole[1].colour, whole[1].ink, whole[1].share) == ((0.0, 1.0, 1.0, 0.6), 260.0, 100 * 2 / 35)


def test_pictures_measured_as_they_are_converted_are_not_decoded_again(monkeypatch):
    """Each RGB picture converted to CMYK is measured against the ink limit as it is made: the
    picture ink check then finds the same pictures over it without decoding any, as the art was
    before its pixels were held to the limit (decoded, the file's pixels are within it)."""
    from pnpgen.pdf import colour, pdfx

    # dark reds (0/100/100/50: about 250 %) on every other page, light greys between
    pdf = _rgb_pictures([bytes((128, 0, 0)) if n % 2 == 0 else bytes((200, 200, 200 - n)) for n in range(10)], (16, 8))
    measured: dict = {}
    cmyk = pdfx.pictures_to_cmyk(pdf, 240, measured)
    decoded: list[int] = []
    real = colour._cmyk_pixels
    monkeypatch.setattr(colour, "_cmyk_pixels", lambda image: decoded.append(1) or real(image))
    found = colour.pictures_over_limit(cmyk, 240, measured)
    assert decoded == [] and len(measured) == 6  # (the five reds are one stream)
    assert colour.pictures_over_limit(cmyk, 240) == [] and len(decoded) == 10
    assert [h.pages for h in found] == [(0,), (2,), (4,), (6,), (8,)] and all(h.ink > 240 and h.held for h in found)


def _rgb_pictures(colours: list[bytes], size: tuple[int, int]) -> bytes:
    """A PDF of a page a colour, each page a DeviceRGB picture of ``size`` pixels all that colour."""
    import io

    import pikepdf

    doc = pikepdf.new()
    for rgb in colours:
        doc.add_blank_page(page_size=(100, 100))
        doc.pages[-1].obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im=doc.make_stream(
            rgb * (size[0] * size[1]), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=size[0],
            Height=size[1], ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8)))
        doc.pages[-1].obj.Contents = doc.make_stream(b"q 100 0 0 100 0 0 cm /Im Do Q")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_a_proof_is_never_pdfx_and_says_it_is_not_for_the_shop(tmp_path):
    """--proof draws the trim, bleed and safe lines, which print: the DriveThruCards or 同人 proof
    was a PDF/X-1a file passing every preflight, ready to be sent by mistake. It is a plain PDF now
    (a shop's upload check turns it away), the export says so, and --pdfx x1a --proof is refused."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    out = _export(root, "doujin", "--proof")
    found = problems((out / "cards.pdf").read_bytes())
    assert any("GTS_PDFX output intents" in p for p in found)
    warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert [w for w in warnings if w.startswith("--proof: ")] == [
        "--proof: the trim, bleed and safe lines print on every page and image; these files are for checking, "
        "not for the shop (a plain PDF, not PDF/X-1a)"]
    assert problems((_export(root, "doujin", out=tmp_path / "real") / "cards.pdf").read_bytes()) == []
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--proof", "--pdfx", "x1a") == 2


def test_a_picture_over_the_limit_on_two_pages_says_one_more_page(tmp_path):
    """preflight9: the picture warning counted the other pages as "and 1 more pages"."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT, pieces=["カード1", "カード2"])
    Image.new("RGB", (120, 120), (90, 0, 0)).save(root / "templates" / "test" / "photo.png")
    out = _export(root, "drivethrucards", "--fit", "scale")
    [line] = [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"] if "converted" in w]
    assert line.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 2 ('カード1' of deck 'cards', front) and 1 more page: "
                           "templates/test/photo.png converted from RGB reached CMYK 0/100/100/64.7")


@pytest.mark.parametrize("identifier", ["MyPrinter2024", "FOGRA39"])
def test_a_printing_condition_the_registry_may_not_hold_is_said(tmp_path, capsys, identifier):
    """preflight10: a preset of one's own naming its printer's condition (``MyPrinter2024``)
    wrote a PDF/X-1a file whose output intent names it with the ICC registry and embeds no profile,
    which our preflight (and a shop's) fails, and nothing was said. The export still writes it, and
    warns; a registered condition (FOGRA39) is not warned of, and its file passes."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "presets").mkdir()
    (root / "presets" / "printer.yaml").write_text(
        f"name: My printer\nfiles: pdf-faces\ncolour: cmyk\npdfx: x1a\noutput_condition: {{identifier: {identifier}}}\n"
        "formats:\n  poker: {trim: [63mm, 88mm], bleed: 3mm}\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "printer") == 0
    err = capsys.readouterr().err
    found = problems((root / "build" / "test" / "printer" / "cards.pdf").read_bytes())
    if identifier == "FOGRA39":
        assert "output_condition" not in err and found == []
    else:
        assert "presets/printer.yaml: output_condition: 'MyPrinter2024' is not a printing condition" in err
        assert "--pdfx none" in err and any("MyPrinter2024" in p for p in found)


@pytest.mark.parametrize("preset", ["doujin", "doujin-pieces"])
def test_a_proofs_own_figures_are_not_warned_as_the_designers_small_text(tmp_path, preset):
    """A designer trial: ``--proof`` prints the format's figures at 4.5 pt under the trim, in a
    magenta that a CMYK file printed in three inks, so every proof warned 'text 4.5 pt printed in
    three inks … set it at least 8 pt', naming the deck's template, which holds no such text. The
    trim and its figures print in pnpgen's one-ink magenta; the export without --proof warns as before."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    out = _export(root, preset, "--proof")
    warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert not [w for w in warnings if "min_mixed_text" in w or "inks, CMYK" in w], warnings
    plain = json.loads((_export(root, preset, out=tmp_path / "real") / "export.json").read_text(encoding="utf-8"))
    assert not [w for w in plain["warnings"] if "min_mixed_text" in w]


def test_many_pictures_held_to_the_ink_limit_are_named_by_the_heaviest_three_and_counted(tmp_path):
    """trial60: 240 illustrated cards exported for DriveThruCards gave 67 lines of pictures held
    to its 240 % (the file within it), which buried the 24 CMYK JPEGs over it that the shop turns
    away. Held pictures past four are named by the heaviest three and one line counting the rest,
    with their inks and pages; a picture over the limit as placed is still named each time."""
    front = PICTURE_FRONT.replace('href="photo.png"', 'href="{{ piece.name }}.png"')
    names = [f"p{i}" for i in range(6)]
    root = make_workspace(tmp_path / "ws", front=front, pieces=names)
    for i, name in enumerate(names):  # dark reds, each heavier than the one before: 0/100/100/K
        Image.new("RGB", (16, 16), (100 - 3 * i, 0, 0)).save(root / "templates" / "test" / f"{name}.png")
    out = _export(root, "drivethrucards", "--fit", "scale")
    warned = [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
              if "total ink" in w]
    named = [w.split(": ", 1)[1].split(":", 1)[0] for w in warned[:-1]]
    assert named == ["cards.pdf page 8 ('p3' of deck 'cards', front)", "cards.pdf page 10 ('p4' of deck 'cards', front)",
                     "cards.pdf page 12 ('p5' of deck 'cards', front)"], warned  # the three heaviest, in page order
    assert all("print held to it (their C, M and Y" in w for w in warned[:-1])
    # each named by its own art file and piece (pictures of one size, told apart by the piece on the page)
    assert [w.split(": ", 2)[2].split(" converted")[0] for w in warned[:-1]] == [
        f"templates/test/{name}.png" for name in ("p3", "p4", "p5")]
    assert re.fullmatch(r"data/test/decks/cards\.yaml:3:8: cards\.pdf: 3 more pictures converted from RGB reached "
                        r"[\d.]+–[\d.]+ % total ink, over DriveThruCards's 240 %, and print held to it as above "
                        r"\(pages 2–6; the file is within the limit\)", warned[-1]), warned[-1]


def test_a_converted_picture_is_named_only_by_the_one_file_of_its_size_on_its_page():
    """A picture converted from RGB is named by the art file of its pixel size that the page's
    pieces place (either way up: a JPEG turned by its EXIF orientation); where two files of that
    size could be it, or none (a picture resized), it stays "a picture", never a guess."""
    from pnpgen.exports.shop import Pictured
    from pnpgen.pdf.colour import HeavyPicture

    placed = {("cards", "火山", 120, 80): frozenset({"art/volcano.png"}),
              ("cards", "海", 64, 64): frozenset({"art/sea.png", "art/wave.png"})}
    pictured = Pictured({}, "cards", placed, [frozenset({"火山"}), frozenset({"海"}), frozenset({"火山", "海"})])

    def said(page: int, size: tuple[int, int]) -> str:
        return pictured.said(HeavyPicture((page,), (0, 1, 1, 0.647), 264.7, 100.0, held=True, pixels=size))

    assert said(0, (120, 80)) == "art/volcano.png"
    assert said(0, (80, 120)) == "art/volcano.png"
    assert said(2, (120, 80)) == "art/volcano.png"  # a shared back: the one file of its size there
    assert said(1, (64, 64)) == "a picture"  # two files of its size on the piece
    assert said(0, (60, 40)) == "a picture"  # resized: no file of its size
