"""Total ink where black overprints: K100 text or a line set to overprint (pdf/black.py) adds the
ground's C, M and Y to its own 100 % K. The check (pdf/overprint.py) finds the worst place of
each page by drawing it as a printer separates it; the export warns per face, naming the total,
the limit and how light the ground must be. Checked on hand-made pages (what lies under the text,
what covers or clips the ground) and on real exports, against Ghostscript's separations where it
is installed."""

from __future__ import annotations

import io
import json
import shutil
import subprocess

import numpy as np
import pikepdf
import pytest
from PIL import Image

from conftest import REPO, make_workspace, run
from pnpgen.pdf.overprint import Overprinted, over_limit

TEXT = b"q /Op gs 0 0 0 1 k BT /F1 12 Tf 20 100 Td (Hello) Tj ET Q"  # K100 text, overprinting, at y 97-112
DARK = b"0.7 0.7 0.7 0 k 0 0 200 200 re f "  # C70 M70 Y70: 210 %, under the 300 % limit alone


def _page(content: bytes, opm: int = 1, picture: bytes | None = None) -> bytes:
    """A 200 × 200 pt page drawing ``content``, with /Op (overprint, mode ``opm``), a font /F1
    (Helvetica: no widths, 1 em a letter) and, given CMYK pixels, a 2 × 2 picture /Im."""
    doc = pikepdf.new()
    doc.add_blank_page(page_size=(200, 200))
    page = doc.pages[0]
    resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                      BaseFont=pikepdf.Name.Helvetica)),
        ExtGState=pikepdf.Dictionary(Op=pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, OP=True, op=True, OPM=opm)))
    if picture is not None:
        resources.XObject = pikepdf.Dictionary(Im=doc.make_stream(
            picture, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=2, Height=2,
            ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8))
    page.obj.Resources = resources
    page.obj.Contents = doc.make_stream(content)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_black_text_overprinting_a_rich_ground_adds_its_inks():
    """C70 M70 Y70 (210 %) under overprinting K100 text: 310 % where the letters are."""
    [hit] = over_limit(_page(DARK + TEXT), 300)
    assert hit == Overprinted(0, "text", (0.0, 0.0, 0.0, 1.0), (0.7, 0.7, 0.7, 0.0), 310.0)
    assert over_limit(_page(DARK + TEXT), 310) == []  # at the limit is not over it


@pytest.mark.parametrize("ground, why", [
    (b"0.3 0.3 0.3 0 k 0 0 200 200 re f ", "a light ground: 190 %"),
    (DARK + b"0 0 0 0 k 10 90 150 30 re f ", "a white panel between covers the dark ground"),
    (DARK + b"0.1 0.1 0 0 k 10 90 150 30 re f ", "a light panel between: only its inks are under the text"),
    (b"0.7 0.7 0.7 0 k 0 0 200 50 re f ", "the dark box is below the text, not under it"),
    (b"0.7 0.7 0.7 0 k 0 120 200 80 re f ", "the dark box is above the text"),
    (b"q 0 0 200 50 re W n " + DARK + b"Q ", "the dark ground is clipped to below the text"),
    (b"0.7 0.7 0.7 0 k 0 0 200 200 re 10 80 160 50 re f* ", "the text is in the ground's hole (even-odd)"),
    (b"0.7 0.7 0.7 0 k 0 0 200 200 re 10 80 m 10 130 l 170 130 l 170 80 l h f ",
     "the text is in the ground's hole (non-zero, the hole wound the other way)"),
])
def test_no_warning_where_nothing_heavy_lies_under_the_text(ground, why):
    assert over_limit(_page(ground + TEXT), 300) == [], why


def test_a_hole_wound_the_same_way_is_no_hole():
    """Two rectangles wound alike filled by the non-zero rule: the inner one is ink, not a hole."""
    same_way = b"0.7 0.7 0.7 0 k 0 0 200 200 re 10 80 160 50 re f "  # both rectangles wound alike: no hole
    assert [h.ink for h in over_limit(_page(same_way + TEXT), 300)] == [310.0]


def test_overprint_mode_0_knocks_out():
    """With /OPM 0 a DeviceCMYK colour replaces all four inks (ISO 32000-1 §8.6.7): no sum."""
    assert over_limit(_page(DARK + TEXT, opm=0), 300) == []
    no_overprint = DARK + b"0 0 0 1 k BT /F1 12 Tf 20 100 Td (Hello) Tj ET"
    assert over_limit(_page(no_overprint), 300) == []


def test_a_thin_line_and_an_area_overprinting():
    line = DARK + b"q /Op gs 0 0 0 1 K 0.25 w 10 10 m 190 10 l S Q"
    assert [(h.kind, h.ink) for h in over_limit(_page(line), 300)] == [("lines", 310.0)]
    area = DARK + b"q /Op gs 0 0 0 1 k 10 10 5 5 re f Q"  # an outlined glyph is such an area
    assert [(h.kind, h.ink) for h in over_limit(_page(area), 300)] == [("areas", 310.0)]
    hairline_beside = b"0.7 0.7 0.7 0 k 0 0 200 5 re f q /Op gs 0 0 0 1 K 0.25 w 10 8 m 190 8 l S Q"
    assert over_limit(_page(hairline_beside), 300) == []  # 3 pt (1 mm) above the ground


def test_a_picture_under_the_text_is_read_where_the_text_is():
    """A 2 × 2 CMYK picture over the page: its top half (where the text is) dark, its bottom half
    darker; only the pixels under the text count."""
    top, bottom = bytes((204, 204, 0, 0)), bytes((255, 255, 255, 0))  # 160 %; 300 % below
    picture = top * 2 + bottom * 2
    page = _page(b"q 200 0 0 200 0 0 cm /Im Do Q " + TEXT.replace(b"20 100 Td", b"20 150 Td"), picture=picture)
    [hit] = over_limit(page, 240)
    assert hit.under == (0.8, 0.8, 0.0, 0.0) and hit.ink == 260.0


def test_a_big_picture_is_held_as_its_samples_and_added_up_in_strips(monkeypatch):
    """A CMYK picture's ink plane is its 8-bit samples (a 7700×7700 picture's floats were 950 MB,
    and adding three of its inks up copied them again: 6 GB for one card's art in a doujin
    export), its heaviest inks added up a strip of rows at a time: the same finding."""
    from pnpgen.pdf import overprint, paints

    light, heavy = bytes((100, 100, 0, 0)) * 2, bytes((255, 200, 0, 0)) * 2  # 78 %; 178 % in the 4th row of 6, under the text
    rows = [light] * 3 + [heavy] + [light] * 2
    page = _page(b"q 200 0 0 200 0 0 cm /Im Do Q " + TEXT, picture=b"".join(rows))
    doc = pikepdf.open(io.BytesIO(page))
    image = doc.pages[0].obj.Resources.XObject.Im
    image.Height = 6
    out = io.BytesIO()
    doc.save(out)
    with pikepdf.open(io.BytesIO(out.getvalue())) as again:
        held = paints.Pictures().inks(again.pages[0].obj.Resources.XObject.Im)
    assert held.dtype.itemsize == 1 and held.nbytes == 2 * 6 * 4
    monkeypatch.setattr(overprint, "STRIP_PIXELS", 2)  # a row a strip: the heaviest in the 4th
    [hit] = over_limit(out.getvalue(), 200)
    assert hit.under == (1.0, 0.784, 0.0, 0.0) and hit.ink == 278.4


def test_a_gradient_counts_its_heaviest_stop():
    doc = pikepdf.open(io.BytesIO(_page(b"q /Sh sh Q " + TEXT)))
    fn = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0], C1=[0.9, 0.9, 0, 0], N=1)
    doc.pages[0].obj.Resources.Shading = pikepdf.Dictionary(Sh=pikepdf.Dictionary(
        ShadingType=2, ColorSpace=pikepdf.Name.DeviceCMYK, Coords=[0, 0, 200, 0], Function=fn))
    out = io.BytesIO()
    doc.save(out)
    assert [(h.under, h.ink) for h in over_limit(out.getvalue(), 240)] == [((0.9, 0.9, 0.0, 0.0), 280.0)]


def test_pages_alike_are_read_once_and_each_reported():
    doc = pikepdf.open(io.BytesIO(_page(DARK + TEXT)))
    doc.pages.append(doc.pages[0])
    doc.pages.append(doc.pages[0])
    out = io.BytesIO()
    doc.save(out)
    assert [h.page for h in over_limit(out.getvalue(), 300)] == [0, 1, 2]


def test_a_document_of_many_pictures_keeps_only_the_recent_ones_read(monkeypatch):
    """Pages each over a picture of its own, the ink planes kept within a budget (a thousand
    illustrated cards' planes are gigabytes): the same findings as with every plane kept, and
    never more held than the budget and the picture being read."""
    from pnpgen.pdf import paints

    doc = pikepdf.open(io.BytesIO(_page(b"q 200 0 0 200 0 0 cm /Im Do Q " + TEXT, picture=bytes((255, 255, 0, 0)) * 4)))
    for n in range(1, 12):  # eleven more pages, each its own picture, darker and darker
        doc.pages.append(doc.pages[0])
        new = doc.pages[-1]
        level = 150 + n * 9
        new.obj.Resources = pikepdf.Dictionary(Font=doc.pages[0].obj.Resources.Font,
                                               ExtGState=doc.pages[0].obj.Resources.ExtGState,
                                               XObject=pikepdf.Dictionary(Im=doc.make_stream(
                                                   bytes((level, level, 0, 0)) * 4, Type=pikepdf.Name.XObject,
                                                   Subtype=pikepdf.Name.Image, Width=2, Height=2,
                                                   ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8)))
    out = io.BytesIO()
    doc.save(out)
    everything = [(h.page, h.ink) for h in over_limit(out.getvalue(), 250)]
    held: list[int] = []
    real = paints.Pictures.inks

    def watched(self, image):
        pixels = real(self, image)
        held.append(self._held)
        return pixels

    monkeypatch.setattr(paints.Pictures, "BUDGET", 2 * 2 * 4 * 2)  # two pictures' planes (a byte a sample)
    monkeypatch.setattr(paints.Pictures, "inks", watched)
    assert [(h.page, h.ink) for h in over_limit(out.getvalue(), 250)] == everything
    assert len(everything) >= 8 and max(held) <= 2 * 2 * 4 * 2


def test_clips_are_drawn_only_where_they_reach(monkeypatch):
    """Forty dark squares each clipped to its own box (a counter sheet's counters, each clipped to
    its bleed), one box reaching off the page: only the squares under the text add their inks, and
    each clip is drawn over its own box, not the whole page (150 counters drawn the page's size
    took most of a counter sheet's export)."""
    from pnpgen.pdf import overprint

    squares = b"".join(b"q %d %d 10 10 re W n 0.7 0.7 0.7 0 k 0 0 200 200 re f Q " % (10 + 45 * (i % 4), 5 + 20 * (i // 4))
                       for i in range(40))  # the row at y 105-115 lies under the text
    off_page = b"q 180 -30 60 60 re W n 0.7 0.7 0.7 0 k 0 0 200 200 re f Q "
    drawn: list[int] = []
    real = overprint._mask

    def watched(cover, size, origin):
        drawn.append(size[0] * size[1])
        return real(cover, size, origin)

    monkeypatch.setattr(overprint, "_mask", watched)
    assert [(h.under, h.ink) for h in over_limit(_page(squares + off_page + TEXT), 300)] == [((0.7, 0.7, 0.7, 0.0), 310.0)]
    assert over_limit(_page(squares.replace(b"0.7 0.7 0.7 0 k", b"0.3 0.3 0.3 0 k") + off_page + TEXT), 300) == []
    page = round(200 * overprint._SCALE) ** 2
    assert 0 < sum(drawn) < page  # forty clips and their squares, each a small box, together less than one page


FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="GROUND"/>
<rect x="6" y="40" width="{{ w - 12 }}" height="30" fill="#ffffff"/>
{% if piece.name != "パネルだけ" %}{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, align="center", fill="#000000") }}{% endif %}
{{ textbox(piece.text, 8, 45, w - 16, 20, size=9, fill="#000000") }}
{% endblock %}
"""


def _export(tmp_path, ground: str, preset: str, pieces: list[str]) -> tuple[list[str], object]:
    root = make_workspace(tmp_path / "ws", front=FRONT.replace("GROUND", ground), pieces=pieces)
    fit = ("--fit", "scale") if preset == "drivethrucards" else ()
    assert run(root, "export", "--game", "test", "--preset", preset, *fit) == 0
    out = root / "build" / "test" / preset
    warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in warnings if "with overprint" in w], out / "cards.pdf"


def test_black_title_on_a_red_ground_knocks_out_at_drivethrucards(tmp_path):
    """#cc0000 is 0/100/100/20 (220 %, under DriveThruCards' 240 %); the black title overprinting
    it made 300 % where the letters are, warned. preflight9: pnpgen now knocks that title out of
    the red (100 % K alone: 100 % where the letters are), says so, and warns of nothing; the
    cards' body text on its white panel still overprints. The separations hold 220 % at most."""
    warned, pdf = _export(tmp_path, "#cc0000", "drivethrucards", ["カード1", "パネルだけ", "カード3"])
    assert warned == []
    report = json.loads((pdf.parent / "export.json").read_text(encoding="utf-8"))
    assert report["black"][-1] == ("cards.pdf: 2 text objects printed 100 % K knocking out the ground, where "
                                   "overprinting it passed DriveThruCards's 240 % total ink")
    with pikepdf.open(pdf) as doc:
        form = next(x for x in doc.pages[1].Resources.XObject.values() if x.get("/Subtype") == "/Form")
        states = [str(operands[0]) for operands, op in pikepdf.parse_content_stream(form) if str(op) == "gs"]
    assert states[:2] == ["/PnpKnockout", "/PnpKnockout"] and "/PnpOverprint" in states[2:]  # title; body text
    if shutil.which("gs") is None:
        return
    totals = []
    for page in (2, 4):  # the two fronts: the title on red, and only the panel's text
        sep = pdf.parent / f"sep{page}.tif"
        subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiffsep", "-r72",
                        f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={sep}", str(pdf)],
                       check=True, timeout=120)
        plates = [255.0 - np.asarray(Image.open(pdf.parent / f"sep{page}({c}).tif").convert("L"), dtype=float)
                  for c in ("Cyan", "Magenta", "Yellow", "Black")]
        totals.append(round(float(sum(plates).max()) / 255 * 100))
    assert totals == [220, 220]  # the ground alone: the title knocks out of it (it made 300 %)


@pytest.mark.parametrize("ground, preset", [("#f5e6c8", "drivethrucards"), ("#cc0000", "doujin")])
def test_no_warning_when_ground_and_black_stay_within_the_limit(tmp_path, ground, preset):
    """A light ground (0/6/18/4) under the black title; and the red ground at 同人's 300 %:
    300 % is not over it."""
    warned, _ = _export(tmp_path, ground, preset, ["カード1"])
    assert warned == []


def test_a_preset_may_knock_the_black_out(tmp_path):
    """What the warning offers, ``overprint_black: false``: a workspace preset saying so prints the
    same K100 text without overprint (knocking the red out: 100 % where the letters are), and
    the export no longer warns. Bad values are one line naming the key."""
    root = make_workspace(tmp_path / "ws", front=FRONT.replace("GROUND", "#cc0000"), pieces=["カード1"])
    (root / "presets").mkdir()
    shipped = (REPO / "generator" / "pnpgen" / "exports" / "presets" / "drivethrucards.yaml").read_text(encoding="utf-8")
    (root / "presets" / "dtc-knockout.yaml").write_text(shipped + "overprint_black: false\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "dtc-knockout", "--fit", "scale") == 0
    out = root / "build" / "test" / "dtc-knockout"
    report = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert [w for w in report["warnings"] if "overprint" in w] == []
    assert report["black"] == ["cards.pdf: text printed 100 % K knocking out the ground (was 0/0/0/100 ×2)"]
    with pikepdf.open(out / "cards.pdf") as doc:
        form = next(x for x in doc.pages[1].Resources.XObject.values() if x.get("/Subtype") == "/Form")
        states = [str(operands[0]) for operands, op in pikepdf.parse_content_stream(form) if str(op) == "gs"]
    assert states and set(states) == {"/PnpKnockout"}  # the K100 text drawn, never overprinting
    (root / "presets" / "dtc-knockout.yaml").write_text(shipped + "overprint_black: no thanks\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "dtc-knockout", "--fit", "scale") == 2


def _red_page_with_black_text(grounds: tuple[tuple[float, float, float, float], ...] = ((0.0, 1.0, 1.0, 0.2),)) -> bytes:
    """A page of #cc0000 (0/100/100/20) with 12 pt text in 100 % K over it, mapped by pdf/black.py
    (100 % K overprinting: 300 % where the letters are); a page each of several ``grounds``."""
    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.pdf.black import k_only

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=1)
    for ground in grounds:
        canvas.setFillColorCMYK(*ground)
        canvas.rect(0, 0, 200, 200, stroke=0, fill=1)
        canvas.setFillColorCMYK(0.0, 0.0, 0.0, 1.0)
        canvas.setFont("Helvetica", 12)
        canvas.drawString(20, 100, "Black")
        canvas.showPage()
    canvas.save()
    return k_only(buffer.getvalue())[0]


def test_the_knock_out_switches_pnpgens_black_and_says_what_else_passes():
    """preflight9: pnpgen's own black (its /PnpOverprint state) knocks out where it passes the limit,
    and nothing is left over it; an overprint pnpgen did not set (a state of another name) is left as
    it is and said, as the check that draws the page again says it (the export reads it from the
    knock-out's drawing, not drawing the pages twice)."""
    from pnpgen.pdf.overprint import knock_out_over

    pdf = _red_page_with_black_text()
    assert [(h.kind, h.ink) for h in over_limit(pdf, 240)] == [("text", 300.0)]
    made = knock_out_over(pdf, 240)
    assert dict(made.counts) == {"text": 1} and made.left == [] and over_limit(made.pdf, 240) == []
    with pikepdf.open(io.BytesIO(pdf)) as doc:  # the same overprint under a name of its own
        page = doc.pages[0]
        page.Resources.ExtGState["/Theirs"] = page.Resources.ExtGState["/PnpOverprint"]
        data = page.Contents.read_bytes() if isinstance(page.Contents, pikepdf.Stream) else b"".join(
            s.read_bytes() for s in page.Contents)
        page.Contents = doc.make_stream(data.replace(b"/PnpOverprint gs", b"/Theirs gs"))
        out = io.BytesIO()
        doc.save(out)
    theirs = out.getvalue()
    made = knock_out_over(theirs, 240)
    assert not made.counts and made.pdf == theirs
    assert made.left == over_limit(theirs, 240) and [(h.kind, h.ink) for h in made.left] == [("text", 300.0)]


def test_an_overprint_past_the_limit_is_warned_at_the_deck_files_line_of_the_page(tmp_path):
    """An overprint warning started with the export's file name ("cards.pdf page 1 …"), not the
    deck file's line of the page's side, as the build's warnings and the bare-bleed one do."""
    from pnpgen.data.workspace import Workspace
    from pnpgen.exports.presets import load_preset
    from pnpgen.exports.shop import ink_warnings

    preset = load_preset(Workspace(make_workspace(tmp_path / "ws")), "test", "drivethrucards")
    (line,) = ink_warnings("cards.pdf", _red_page_with_black_text(), preset, ["cards-001 front"],
                           ["card-front.svg.j2"], starts=["data/test/decks/cards.yaml:3:8: "])
    assert line.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 1 (cards-001 front, template "
                           "card-front.svg.j2): text printed 100 % K with overprint lies on CMYK 0/100/100/20"), line


def test_an_overprint_past_the_limit_on_several_grounds_is_one_line_naming_each(tmp_path):
    """The same black text over each clan's colour (trial69's near-identical lines per colour): one
    line naming each ground, its total ink, its first page and face and how many more pages show it."""
    from pnpgen.data.workspace import Workspace
    from pnpgen.exports.presets import load_preset
    from pnpgen.exports.shop import ink_warnings

    preset = load_preset(Workspace(make_workspace(tmp_path / "ws")), "test", "drivethrucards")
    red, blue = (0.0, 1.0, 1.0, 0.2), (1.0, 0.8, 0.0, 0.1)
    pdf = _red_page_with_black_text((red, blue, red))
    (line,) = ink_warnings("cards.pdf", pdf, preset, ["'赤' front", "'青' front", "'赤2' front"],
                           ["card-front.svg.j2"] * 3, starts=["data/test/decks/cards.yaml:3:8: "] * 3)
    assert line.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 1 ('赤' front, template card-front.svg.j2) "
                           "and 2 more pages: text printed 100 % K with overprint lies on 2 grounds (CMYK 0/100/100/20, "
                           "300 % total ink where they meet: page 1 ('赤' front) and 1 more page; CMYK 100/80/0/10, "
                           "280 % total ink where they meet: page 2 ('青' front)), over DriveThruCards's 240 %; lighten "
                           "the grounds under it to at most 140 % C+M+Y"), line
