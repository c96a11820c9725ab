"""Black that prints black: in a CMYK export, text and thin strokes in a near-black colour are
100 % K and overprint (/OP /op /OPM 1); the report lists what was mapped; the separations (where
Ghostscript is installed) show no text on the C, M or Y plates and no knock-out under it."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from conftest import REPO, make_workspace, run
from pnpgen.pdf.black import BLACK_K, is_black, k_only

INK_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
<rect x="5" y="60" width="{{ w - 10 }}" height="20" fill="#2b2233"/>
<line x1="5" y1="55" x2="{{ w - 5 }}" y2="55" stroke="#2b2233" stroke-width="0.2"/>
<line x1="5" y1="57" x2="{{ w - 5 }}" y2="57" stroke="#2b2233" stroke-width="3"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, fill="#2b2233") }}
{{ textbox(piece.text, 5, 30, w - 10, 20, size=9, fill="#2b2233") }}
{% endblock %}
"""


def text_objects(pdf: Path) -> list[tuple[tuple[float, ...] | None, dict]]:
    """(fill colour, ExtGState entries in effect) of every text object on every page and form."""
    out: list = []
    with pikepdf.open(pdf) as doc:
        seen: set = set()
        for page in doc.pages:
            _walk(page.obj, out, seen)
    return out


def _walk(obj, out: list, seen: set) -> None:
    res = obj.get("/Resources")
    states = res.get("/ExtGState") if res is not None else None
    fill, gs, stack = None, {}, []
    for operands, op in pikepdf.parse_content_stream(obj):
        name = str(op)
        if name == "k":
            fill = tuple(float(v) for v in operands)
        elif name == "gs":
            gs = dict(gs, **{str(k): v for k, v in states[operands[0]].items()})
        elif name == "q":
            stack.append((fill, gs))
        elif name == "Q":
            fill, gs = stack.pop()
        elif name == "BT":
            out.append((fill, gs))
        elif name == "Do":
            xobj = res.XObject[operands[0]]
            if xobj.get("/Subtype") == "/Form" and xobj.objgen not in seen:
                seen.add(xobj.objgen)
                _walk(xobj, out, seen)


def _overprints(gs: dict) -> bool:
    return gs.get("/OP") is True and gs.get("/op") is True and int(gs.get("/OPM", 0)) == 1


def test_medallions_card_text_is_k_only_and_overprints(tmp_path):
    assert run(REPO, "export", "--game", "alicematic-medallions", "--preset", "doujin", "--deck", "medallion",
               "--out", str(tmp_path)) == 0
    out = tmp_path / "alicematic-medallions" / "doujin"
    texts = text_objects(out / "medallion.pdf")
    black = [(fill, gs) for fill, gs in texts if fill == (0.0, 0.0, 0.0, 1.0)]
    assert len(black) >= 14  # a name and a rule text on each of the 7 medallions at least
    assert all(_overprints(gs) for _, gs in black)
    # No small text is left in a near-black mix of inks: the only rich black text left is each of
    # the 7 medallions' 50 pt numeral (text over 36 pt keeps its rich black: pdf/black.py).
    rich = [fill for fill, _ in texts if fill is not None and fill[3] >= BLACK_K and max(fill[:3]) > 0]
    assert rich == [(0.1569, 0.3333, 0.0, 0.8)] * 7
    report = json.loads((out / "export.json").read_text(encoding="utf-8"))["black"]
    assert report == [f"medallion.pdf: text printed 100 % K with overprint (was 15.7/33.3/0/80 ×{len(black)})"]


INK_DOUJIN = ("export", "--game", "test", "--preset", "doujin")  # INK_FRONT's card exported for 同人: read by three tests


def test_thin_strokes_map_and_areas_keep_their_rich_black(built_shared):
    root = built_shared(*INK_DOUJIN, front=INK_FRONT, pieces=["カード1"])
    pdf = root / "build" / "test" / "doujin" / "cards.pdf"
    with pikepdf.open(pdf) as doc:
        form = next(x for x in doc.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form")
        ops = [(str(op), [float(v) for v in operands]) for operands, op in pikepdf.parse_content_stream(form)
               if str(op) in ("k", "K")]
    strokes_k = [args for name, args in ops if name == "K"]
    fills_k = [args for name, args in ops if name == "k"]
    assert [0.0, 0.0, 0.0, 1.0] in strokes_k  # the 0.2 mm line
    assert [0.1569, 0.3333, 0.0, 0.8] in [[round(v, 4) for v in a] for a in strokes_k]  # the 3 mm one stays
    assert [0.1569, 0.3333, 0.0, 0.8] in [[round(v, 4) for v in a] for a in fills_k]  # the dark box stays
    assert is_black((0.157, 0.333, 0.0, 0.8)) and not is_black((0.0, 0.0, 0.0, 0.6))
    assert not is_black((0.0, 0.0, 0.0, 0.75))  # a K-only grey


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (tiffsep) not installed")
def test_separations_show_text_on_k_alone_overprinting(tmp_path, built_shared):
    root = built_shared(*INK_DOUJIN, front=INK_FRONT, pieces=["カード1"])
    pdf = root / "build" / "test" / "doujin" / "cards.pdf"
    subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiffsep", "-r100", "-dFirstPage=1",
                    "-dLastPage=1", f"-sOutputFile={tmp_path / 'sep.tif'}", str(pdf)], check=True, timeout=120)
    plates = {c: Image.open(tmp_path / f"sep({c}).tif").convert("L") for c in ("Cyan", "Magenta", "Yellow", "Black")}
    # tiffsep plates: 255 = no ink. The card's text region (the name and the rule text, above the
    # dark box): K shows the letters, C none at all, M and Y the red ground unbroken under them.
    px = 100 / 25.4
    box = tuple(round(v * px) for v in (8 + 6, 8 + 3 + 5, 8 + 3 + 58, 8 + 3 + 50))  # in the page, mm → px
    k, c, m, y = (plates[n].crop(box) for n in ("Black", "Cyan", "Magenta", "Yellow"))
    assert k.getextrema()[0] < 64  # letters on the K plate
    assert c.getextrema() == (255, 255)  # no cyan anywhere near the text
    assert m.getextrema()[1] - m.getextrema()[0] <= 2 and y.getextrema()[1] - y.getextrema()[0] <= 2  # no knock-out


def test_outline_text_draws_every_glyph_as_a_path(tmp_path, built_shared):
    """--outline-text: no text object and no font left, the same page drawn (glyphs as filled
    paths in place: the rendered pages agree), the K-only black kept; PDF/X-1a still passes."""
    import pypdfium2
    from preflight import problems

    shared = built_shared(*INK_DOUJIN, front=INK_FRONT, pieces=["カード1"])
    root = Path(shutil.copytree(shared, tmp_path / "ws", symlinks=True))  # (this test exports in it again)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--outline-text",
               "--out", str(tmp_path / "outlined")) == 0
    text_pdf = shared / "build" / "test" / "doujin" / "cards.pdf"
    outlined = tmp_path / "outlined" / "test" / "doujin" / "cards.pdf"
    assert text_objects(text_pdf) and not text_objects(outlined)
    assert problems(outlined.read_bytes()) == []
    with pikepdf.open(outlined) as doc:
        for obj in doc.objects:
            assert not (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font")
        form = next(x for x in doc.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form")
        ops = [str(op) for _, op in pikepdf.parse_content_stream(form)]
        assert "/PnpOverprint" in str(form.Resources.ExtGState.keys()) and ops.count("f") >= 2
    pages = []
    for pdf in (text_pdf, outlined):
        doc = pypdfium2.PdfDocument(str(pdf))
        pages.append(doc[0].render(scale=150 / 72).to_pil().convert("L"))
        doc.close()
    from PIL import ImageChops

    px = 150 / 25.4
    box = tuple(round(v * px) for v in (11, 11 + 4, 11 + 63, 11 + 52))  # the name and the text, in the trim
    a, b = (p.crop(box) for p in pages)
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > 40 else 0)
    letters = a.point(lambda v: 255 if v < 75 else 0).histogram()[255]
    assert letters > 500  # the text is there (dark on the red ground)
    # Only antialiased edges differ (4 % here); glyphs half a point off differ by 160 %.
    assert diff.histogram()[255] < 0.15 * letters


PANEL_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
<rect x="5" y="20" width="{{ w - 10 }}" height="30" fill="#ffffff" stroke="#2b2233" stroke-width="0.35"/>
<line x1="5" y1="60" x2="{{ w - 5 }}" y2="60" stroke="#2b2233" stroke-width="0.8"/>
{% endblock %}
"""


def _paths(pdf: Path) -> list[tuple[str, tuple[float, ...] | None, tuple[float, ...] | None, float, bool]]:
    """(painting operator, fill, stroke, line width in points, overprint on) of every path painted in
    the first page's face form."""
    out = []
    with pikepdf.open(pdf) as doc:
        form = next(x for x in doc.pages[0].Resources.XObject.values() if x.get("/Subtype") == "/Form")
        states = form.Resources.ExtGState
        fill = stroke = None
        width, scale, op_on = 1.0, 1.0, False
        for operands, op in pikepdf.parse_content_stream(form):
            name = str(op)
            if name == "k":
                fill = tuple(round(float(v), 4) for v in operands)
            elif name == "K":
                stroke = tuple(round(float(v), 4) for v in operands)
            elif name == "w":
                width = float(operands[0])
            elif name == "cm":
                scale *= abs(float(operands[0]) * float(operands[3])) ** 0.5
            elif name == "gs":
                op_on = states[operands[0]].get("/OP") is True
            elif name in ("S", "s", "f", "f*", "B", "B*", "b", "b*"):
                out.append((name, fill, stroke, round(width * scale, 3), op_on))
    return out


def test_a_filled_path_s_thin_border_prints_k100_overprinting_and_its_fill_keeps_its_colour(tmp_path):
    """A white panel with a 0.35 mm (1 pt) near-black border is one path filled and stroked
    (``B``): the border is a thin stroke like any other, so it prints 100 % K overprinting, and the
    panel stays white and knocks out. A 0.8 mm line (2.3 pt) is past THIN_PT, whatever the face's
    millimetre units make of its width: it keeps its colour."""
    root = make_workspace(tmp_path / "ws", front=PANEL_FRONT, pieces=["カード1"])
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    out = root / "build" / "test" / "doujin"
    paths = _paths(out / "cards.pdf")
    rich = (0.1569, 0.3333, 0.0, 0.8)
    white = (0.0, 0.0, 0.0, 0.0)
    assert not [p for p in paths if p[0] in ("B", "B*", "b", "b*") and p[2] == rich]  # no rich black border left
    assert ("f", white, rich, 0.992, False) in paths  # the panel: white, knocking out the ground
    assert ("S", white, (0.0, 0.0, 0.0, 1.0), 0.992, True) in paths  # its border: K only, overprinting
    assert ("S", white, rich, 2.268, False) in paths  # the 0.8 mm line: not a thin stroke
    report = json.loads((out / "export.json").read_text(encoding="utf-8"))["black"]
    assert report == ["cards.pdf: thin strokes printed 100 % K with overprint (was 15.7/33.3/0/80 ×1)"]


ICON_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
<circle cx="10" cy="10" r="6.3" fill="#2b2233"/>
<rect x="5" y="30" width="{{ w - 10 }}" height="0.3" fill="#2b2233"/>
<rect x="5" y="40" width="12.8" height="12.8" fill="#2b2233"/>
<path d="M 30 10 h 6 v 6 h -6 Z" fill="#2b2233" stroke="#e4007f" stroke-width="0.5"/>
<rect x="20" y="60" width="40" height="20" fill="#2b2233"/>
<rect x="25" y="65" width="6" height="6" fill="#2b2233"/>
<rect x="30" y="80.2" width="4" height="3.8" fill="#2b2233"/>
<rect x="30" y="84.2" width="4" height="2.8" fill="#2b2233"/>
{% endblock %}
"""


def test_small_near_black_fills_print_k100_overprinting_and_larger_ones_keep_their_rich_black(tmp_path):
    """A 12.6 mm icon (a circle, within a 36 pt em), a rule drawn as a 0.3 mm filled rectangle
    (thinner than 1 pt, however long) and a 6 mm square outlined in magenta print 100 % K with
    overprint, the square's magenta outline kept; a 12.8 mm square (36.3 pt a side) is an area and
    keeps its rich black, and so do a 6 mm badge on a dark panel of its own colour (in K100 it
    would show as a black box on the panel), a small piece touching the panel's edge (0.2 mm off)
    and one touching that piece."""
    root = make_workspace(tmp_path / "ws", front=ICON_FRONT, pieces=["カード1"])
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    out = root / "build" / "test" / "doujin"
    paths = _paths(out / "cards.pdf")
    rich, k100, magenta = (0.1569, 0.3333, 0.0, 0.8), (0.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 0.0)
    fills = [(name, fill, op_on) for name, fill, _, _, op_on in paths if name.startswith("f")]
    assert fills.count(("f", k100, True)) == 3  # the circle, the rule and the outlined square's inside
    assert fills.count(("f", rich, False)) == 5  # the 12.8 mm square, the panel and the three parts of it
    assert ("S", rich, magenta, 1.417, False) in paths  # the square's outline: its own colour, knocking out
    assert not [p for p in paths if p[0] in ("B", "B*", "b", "b*")]
    report = json.loads((out / "export.json").read_text(encoding="utf-8"))["black"]
    assert report == ["cards.pdf: small fills printed 100 % K with overprint (was 15.7/33.3/0/80 ×3)"]


def _shown(pdf: bytes) -> list[tuple[float, tuple[float, ...] | None, bool]]:
    """(font size as set, fill, whether it overprints) of every string a page shows, in order."""
    out: list = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        states = page.Resources.get("/ExtGState", {})
        fill, gs, size, stack = None, {}, 0.0, []
        for operands, op in pikepdf.parse_content_stream(page):
            name = str(op)
            if name == "q":
                stack.append((fill, gs, size))
            elif name == "Q":
                fill, gs, size = stack.pop()
            elif name == "k":
                fill = tuple(round(float(v), 3) for v in operands)
            elif name == "gs":
                gs = dict(gs, **{str(k): v for k, v in states[operands[0]].items()})
            elif name == "Tf":
                size = float(operands[1])
            elif name in ("Tj", "TJ"):
                out.append((size, fill, _overprints(gs)))
    return out


def _text_page(lines: list[tuple[tuple[float, float, float, float], float]], scale: float = 1.0) -> bytes:
    """A page drawing one string per (CMYK colour, font size), at ``scale`` (a ``cm``)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 400), invariant=1)
    canvas.scale(scale, scale)
    for n, (colour, size) in enumerate(lines):
        canvas.setFillColorCMYK(*colour)
        canvas.setFont("Helvetica", size)
        canvas.drawString(10, 20 + 60 * n, "Text")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_near_black_grey_text_prints_k100_and_greys_and_large_text_keep_their_colour():
    """A palette's near-black K-only ink (#222222 → K 86.7 %) at 9 pt prints 100 % K overprinting
    (as a halftone screen its thin strokes print ragged); a 71 % grey (a running head) and the same
    ink at 40 pt keep their tint; a rich near-black at 9 pt is K100, at 40 pt it keeps its rich
    black (text over 36 pt: Smart Levels' rule), and a 60 pt one drawn at half size (30 pt as
    printed) is small text."""
    ink, grey, rich = (0.0, 0.0, 0.0, 0.867), (0.0, 0.0, 0.0, 0.71), (0.157, 0.333, 0.0, 0.8)
    pdf, mapped = k_only(_text_page([(ink, 9), (grey, 7), (ink, 40), (rich, 9), (rich, 40)]))
    k100 = (0.0, 0.0, 0.0, 1.0)
    assert _shown(pdf) == [(9, k100, True), (7, grey, False), (40, ink, False), (9, k100, True), (40, rich, False)]
    assert set(mapped.text) == {ink, rich}  # the report names what it mapped
    halved, _ = k_only(_text_page([(rich, 60), (ink, 80)], scale=0.5))
    assert _shown(halved) == [(60, k100, True), (80, ink, False)]


def test_a_face_placed_small_is_measured_as_printed():
    """trial57: the rulebook's picture of a 500 × 350 mm board at 1/8 printed its 40.7 pt track
    numbers at 5.1 pt in C, M and K (the face's form was measured at its own size, where 40 pt text
    keeps its rich black), which a shop's preflight lists as mixed-ink text under 8 pt. A form's text
    and lines are measured where the pages place it smallest: 40 pt text and a 2 pt rule drawn at
    1/8 are 5 pt text and a 0.25 pt line, printed 100 % K overprinting; the same form placed only at
    full size keeps its rich black."""
    from pdfprobe import form_placed
    from pnpgen.preflight.content import walk

    rich = (0.239, 0.174, 0.0, 0.82)

    def page(scales: list[float]) -> bytes:
        def face(canvas) -> None:
            canvas.setFillColorCMYK(*rich)
            canvas.setStrokeColorCMYK(*rich)
            canvas.setFont("Helvetica", 40)
            canvas.drawString(10, 100, "42")
            canvas.setLineWidth(2)
            canvas.line(10, 50, 190, 50)

        return form_placed(face, scales, 200)

    def painted(pdf: bytes) -> list[tuple[str, float, tuple, bool]]:
        with pikepdf.open(io.BytesIO(pdf)) as doc:
            return sorted((p.kind, round(p.width, 2), tuple(round(v, 3) for v in p.colour[1]), p.overprint)
                          for p in walk(doc.pages[0], 1) if p.kind in ("text", "stroke"))

    k100 = (0.0, 0.0, 0.0, 1.0)
    small, mapped = k_only(page([0.125, 1.0]))
    assert painted(small) == [("stroke", 0.25, k100, True), ("stroke", 2.0, k100, True),
                              ("text", 5.0, k100, True), ("text", 40.0, k100, True)]
    assert mapped.text[rich] == 1 and mapped.strokes[rich] == 1  # the form, rewritten once (its empty BT … ET, ReportLab's font set, left as it is)
    whole, _ = k_only(page([1.0]))
    assert painted(whole) == [("stroke", 2.0, rich, False), ("text", 40.0, rich, False)]

    def thirty(canvas) -> None:
        canvas.setFillColorCMYK(*rich)
        canvas.setFont("Helvetica", 30)
        canvas.drawString(10, 100, "42")

    # placed only larger than drawn (--fit scale's 63 → 63.5 mm): measured at its own size, where
    # 30 pt text prints K only, as the card exports did (preflight3; review40: no test held it)
    larger, _ = k_only(form_placed(thirty, [1.5], 200))
    assert painted(larger) == [("text", 45.0, k100, True)]


def test_a_small_shape_in_a_dark_colour_keeps_its_hue_and_a_neutral_mix_is_black():
    """Small fills (a 5 mm square each): a cube's shaded pine-green face (#1f4133 → 52.3/0/21.5/74.5)
    is a dark colour, not black, and keeps it; the palette's ink (0/11.6/20.9/83.1) and a Photoshop
    black (75/68/67/90: its inks close together) are black and print 100 % K overprinting."""
    from reportlab.pdfgen.canvas import Canvas

    pine, ink, photoshop = (0.523, 0.0, 0.215, 0.745), (0.0, 0.116, 0.209, 0.831), (0.75, 0.68, 0.67, 0.9)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=1)
    for n, colour in enumerate((pine, ink, photoshop)):
        canvas.setFillColorCMYK(*colour)
        canvas.rect(10 + 30 * n, 10, 14, 14, stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    pdf, mapped = k_only(buffer.getvalue())
    fills, fill, gs = [], None, {}
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        states = doc.pages[0].Resources.get("/ExtGState", {})
        for operands, op in pikepdf.parse_content_stream(doc.pages[0]):
            if str(op) == "k":
                fill = tuple(round(float(v), 3) for v in operands)
            elif str(op) == "gs":
                gs = dict(gs, **{str(k): v for k, v in states[operands[0]].items()})
            elif str(op) in ("f", "f*", "B", "B*"):
                fills.append((fill, _overprints(gs)))
    k100 = (0.0, 0.0, 0.0, 1.0)
    assert fills == [(pine, False), (k100, True), (k100, True)]
    assert set(mapped.fills) == {ink, photoshop}


def test_a_font_size_set_inside_q_is_undone_by_q():
    """The text state is graphics state: a 9 pt size set between q and Q is gone after Q, and the
    60 pt text then shown keeps its rich black (text over 36 pt)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 400), invariant=1)
    canvas.setFont("Helvetica", 60)  # a font resource for the hand-made stream below
    canvas.drawString(10, 10, "")
    canvas.showPage()
    canvas.save()
    with pikepdf.open(io.BytesIO(buffer.getvalue())) as doc:
        font = next(iter(doc.pages[0].Resources.Font.keys()))
        doc.pages[0].Contents = doc.make_stream(
            f"0.157 0.333 0 0.8 k {font} 60 Tf q {font} 9 Tf Q BT 10 100 Td (Text) Tj ET".encode())
        out = io.BytesIO()
        doc.save(out)
    pdf, mapped = k_only(out.getvalue())
    assert not mapped.text
    assert _shown(pdf) == [(60, (0.157, 0.333, 0.0, 0.8), False)]


def test_a_text_object_that_shows_nothing_is_left_as_it_is_its_colour_set_inside_too():
    """A text object that sets a font and a rich black inside it and shows no text (ReportLab
    writes such) is no black text: the file comes back as it was, nothing counted (review40: the
    colour set inside it was still counted and wrapped in overprint states, no test saying so)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 400), invariant=1)
    canvas.setFont("Helvetica", 9)
    canvas.drawString(10, 10, "")
    canvas.showPage()
    canvas.save()
    with pikepdf.open(io.BytesIO(buffer.getvalue())) as doc:
        font = next(iter(doc.pages[0].Resources.Font.keys()))
        doc.pages[0].Contents = doc.make_stream(f"BT {font} 9 Tf 0.6 0.5 0.4 1 k 10.8 TL ET".encode())
        out = io.BytesIO()
        doc.save(out)
    pdf, mapped = k_only(out.getvalue())
    assert not mapped.text and pdf == out.getvalue()


def test_thousands_of_touching_small_fills_are_each_looked_at_a_few_times(monkeypatch):
    """hostile10: pixel art drawn as a square per pixel on a dark panel, each square touching the
    next, was checked square against square at each step out from the panel (8,000 took 16 s per
    face). Each small fill is compared with the few in the grid cells round it: the chain of 2,000
    still keeps the panel's colour, with a few dozen comparisons a square, not two million in all."""
    import io

    from reportlab.pdfgen import canvas

    from pnpgen.pdf import black

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(2000, 2000))
    c.setFillColorCMYK(0.7, 0.6, 0.6, 1)
    c.rect(0, 0, 100, 100, fill=1, stroke=0)
    for i in range(2000):
        c.rect(100 + i * 0.5, 100 + i * 0.5, 1, 1, fill=1, stroke=0)
    c.showPage()
    c.save()
    calls, touch = [], black._touch
    monkeypatch.setattr(black, "_touch", lambda a, b: calls.append(1) or touch(a, b))
    _, mapped = black.k_only(buf.getvalue())
    assert mapped.lines("x.pdf") == []  # every square a part of the panel: none turned 100 % K
    assert len(calls) < 50 * 2000, len(calls)  # (the squares overlap: some 40 each)


def test_a_shops_own_figures_for_black_text_greys_and_black_mixes():
    """preflight7: the figures are a preset's (``black_text_max``, ``grey_text_k``, ``black_hue``):
    a shop that asks for 100 % K under 12 pt gets the rich black's 20 pt text kept and its 9 pt
    text in K; ``grey_text_k: off`` keeps the #222222 grey's 9 pt text a grey; ``black_hue: 0``
    keeps a Photoshop black (75/68/67/90) a mix while a neutral one (60/60/60/90) is black."""
    from pnpgen.pdf.black import RULE, BlackRule, is_black_shape

    ink, rich, k100 = (0.0, 0.0, 0.0, 0.867), (0.157, 0.333, 0.0, 0.8), (0.0, 0.0, 0.0, 1.0)
    page = _text_page([(ink, 9), (rich, 9), (rich, 20)])
    assert [fill for _, fill, _ in _shown(k_only(page)[0])] == [k100, k100, k100]  # the defaults: 36 pt, 85 %
    shop = BlackRule(text_pt=12.0, grey_k=None, hue=0.0)
    assert [fill for _, fill, _ in _shown(k_only(page, rule=shop)[0])] == [ink, k100, rich]
    photoshop, neutral = (0.75, 0.68, 0.67, 0.9), (0.6, 0.6, 0.6, 0.9)
    assert is_black_shape(photoshop, RULE.hue) and not is_black_shape(photoshop, shop.hue)
    assert is_black_shape(neutral, shop.hue)


def test_a_preset_sets_which_text_prints_k100(tmp_path, capsys):
    """A workspace copy of 同人's preset with ``black_text_max: 10pt``: the card's 9 pt text prints
    100 % K, its 12 pt name keeps the rich black #2b2233 (15.7/33.3/0/80); the shipped preset maps
    both. A value that is no size is one line naming the key (exit 2)."""
    root = make_workspace(tmp_path / "ws", front=INK_FRONT, pieces=["カード1"])
    (root / "presets").mkdir()
    shipped = (REPO / "generator" / "pnpgen" / "exports" / "presets" / "doujin.yaml").read_text(encoding="utf-8")
    (root / "presets" / "small-k.yaml").write_text(shipped + "black_text_max: 10pt\n", encoding="utf-8")

    def text_fills(preset: str) -> set:
        assert run(root, "export", "--game", "test", "--preset", preset) == 0
        pdf = root / "build" / "test" / preset / "cards.pdf"
        return {tuple(round(v, 4) for v in fill) for fill, _ in text_objects(pdf) if fill is not None}

    rich, k100 = (0.1569, 0.3333, 0.0, 0.8), (0.0, 0.0, 0.0, 1.0)
    assert rich not in text_fills("doujin")
    assert {rich, k100} <= text_fills("small-k")
    for bad, said in (("black_text_max: big", "black_text_max: length 'big' is not a length"),
                      ("grey_text_k: 120", "grey_text_k: 120 is not a percentage from 50 to 100"),
                      ("black_hue: off", "black_hue: 'off' is not a percentage from 0 to 100")):
        (root / "presets" / "small-k.yaml").write_text(shipped + bad + "\n", encoding="utf-8")
        capsys.readouterr()
        assert run(root, "export", "--game", "test", "--preset", "small-k") == 2
        err = capsys.readouterr().err
        assert err.startswith("pnpgen: error: presets/small-k.yaml:") and said in err and len(err.splitlines()) == 1, err


def _icon_front(icon: str) -> str:
    """A card on the icon's own red (#a1251b, 0/77/83.2/36.9: 197 %) showing the built-in ``icon``
    6 mm wide, its 5 % outline 0.3 mm (0.85 pt: a thin line), and a rule 0.2 mm wide in the
    palette's near-black (#2b2233, 15.7/33.3/0/80) on the white below."""
    svg = (REPO / "generator" / "pnpgen" / "faces" / "builtin" / "common" / "icons" / f"{icon}.svg").read_text(encoding="utf-8")
    paths = "\n".join(line for line in svg.splitlines() if line.strip().startswith("<path"))
    return ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
            '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="40" fill="#a1251b"/>\n'
            f'<g transform="translate(10,10) scale(0.06)">{paths}</g>\n'
            '<line x1="5" y1="60" x2="{{ w - 5 }}" y2="60" stroke="#2b2233" stroke-width="0.2"/>\n'
            '{% endblock %}\n')


def _painted(pdf: bytes, page: int, colour_op: str, paint_ops: tuple[str, ...]) -> list[tuple[tuple[float, ...] | None, bool]]:
    """(CMYK colour set by ``colour_op``, whether it overprints) of every ``paint_ops`` mark a
    page and its forms paint, in order (each form once)."""
    out: list = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        seen: set = set()
        todo = [doc.pages[page].obj]
        while todo:
            obj = todo.pop(0)
            res = obj.get("/Resources")
            states = res.get("/ExtGState", {}) if res is not None else {}
            colour, gs = None, {}
            for operands, op in pikepdf.parse_content_stream(obj):
                name = str(op)
                if name == colour_op:
                    colour = tuple(round(float(v), 3) for v in operands)
                elif name == "gs":
                    gs = dict(gs, **{str(k): v for k, v in states[operands[0]].items()})
                elif name in paint_ops:
                    out.append((colour, _overprints(gs)))
                elif name == "Do" and res.XObject[operands[0]].get("/Subtype") == "/Form" \
                        and res.XObject[operands[0]].objgen not in seen:
                    seen.add(res.XObject[operands[0]].objgen)
                    todo.append(res.XObject[operands[0]])
    return out


def _strokes(pdf: bytes, page: int) -> list[tuple[tuple[float, ...] | None, bool]]:
    """(stroke colour, whether it overprints) of every stroke a page and its forms paint."""
    return _painted(pdf, page, "K", ("S", "s", "B", "b", "B*", "b*"))


RED_CUBE = ("export", "--game", "test", "--preset", "drivethrucards", "--fit", "scale")  # the red cube's card: two tests read it


def test_a_dark_coloured_outline_keeps_its_hue_and_stays_under_the_ink_limit(built_shared):
    """preflight9: the built-in red cube's dark-red outline (#4a0f0a → 0/79.7/86.5/71) went 100 % K
    overprinting its own red: 0/77/83.2/100, 260.2 % where DriveThruCards allows 240 %, warned on
    every card with the icon. A dark colour whose C, M and Y lie far apart (87 %, more than
    ``black_hue``'s 40 %) is a colour, not black: the outline keeps it, knocking out (237.2 %); the
    near-black rule still prints 100 % K overprinting."""
    from pnpgen.pdf.colour import to_cmyk
    from pnpgen.pdf.overprint import over_limit

    root = built_shared(*RED_CUBE, front=_icon_front("res_red"), pieces=["カード1"])
    out = root / "build" / "test" / "drivethrucards"
    report = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert not [w for w in report["warnings"] if "total ink" in w]
    outline = tuple(round(v, 3) for v in to_cmyk(0x4a / 255, 0x0f / 255, 0x0a / 255))
    assert outline == (0.0, 0.797, 0.865, 0.71)
    pdf = (out / "cards.pdf").read_bytes()
    assert over_limit(pdf, 240.0) == []  # was 260.2 % on every card (the line, K100, on 0/77/83.2/36.9)
    strokes = _strokes(pdf, 1)
    assert (outline, False) in strokes and ((0.0, 0.0, 0.0, 1.0), True) in strokes  # the near-black rule
    assert {s for s, _ in strokes} == {outline, (0.0, 0.0, 0.0, 1.0)}
    assert report["black"] == ["cards.pdf: thin strokes printed 100 % K with overprint (was 15.7/33.3/0/80 ×1)"]


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (tiffsep) not installed")
def test_the_red_cube_s_separations_stay_under_240_percent(tmp_path, built_shared):
    """preflight9, the plates as Ghostscript separates them: the card with the red cube prints at
    most DriveThruCards' 240 % anywhere (its heaviest ink, the outline's own 237 %), where its
    outline in K100 over the cube's red reached 260 %."""
    import numpy as np

    root = built_shared(*RED_CUBE, front=_icon_front("res_red"), pieces=["カード1"])
    pdf = root / "build" / "test" / "drivethrucards" / "cards.pdf"
    subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiffsep", "-r300", "-dFirstPage=2",
                    "-dLastPage=2", "-dTextAlphaBits=1", "-dGraphicsAlphaBits=1",
                    f"-sOutputFile={tmp_path / 'sep.tif'}", str(pdf)], check=True, timeout=120)
    ink = sum(255.0 - np.asarray(Image.open(tmp_path / f"sep({c}).tif").convert("L"), dtype=np.float64)
              for c in ("Cyan", "Magenta", "Yellow", "Black")) / 255 * 100
    assert 225 < ink.max() <= 240.5


GROUND_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="50" fill="#c8412f"/>
<rect x="10" y="10" width="5" height="5" fill="#2b2233"/>
<rect x="10" y="70" width="5" height="5" fill="#2b2233"/>
{% endblock %}
"""


def _fills(pdf: bytes, page: int) -> list[tuple[tuple[float, ...] | None, bool]]:
    """(fill colour, whether it overprints) of every fill a page and its forms paint, in order."""
    return _painted(pdf, page, "k", ("f", "f*", "B", "B*", "b", "b*"))


def test_black_that_would_overprint_past_the_ink_limit_knocks_out_there(tmp_path):
    """preflight9: a small near-black shape (#2b2233 → 15.7/33.3/0/80) prints 100 % K overprinting;
    on an orange ground (#c8412f → 0/67.5/76.5/21.6) that made 0/67.5/76.5/100, 244 % where
    DriveThruCards allows 240 %, warned on every card (asian-delivery's base cards). A prepress
    operator knocks such a black out of its ground: the shape on the orange now prints 100 % K
    alone (100 %), the one on white still overprints, nothing passes 240 % and nothing is warned;
    at 同人's 300 % both overprint."""
    from pnpgen.pdf.overprint import over_limit

    root = make_workspace(tmp_path / "ws", front=GROUND_FRONT, pieces=["カード1"])
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--fit", "scale") == 0
    out = root / "build" / "test" / "drivethrucards"
    report = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert not [w for w in report["warnings"] if "total ink" in w]
    pdf = (out / "cards.pdf").read_bytes()
    assert over_limit(pdf, 240.0) == []
    k100, ground = (0.0, 0.0, 0.0, 1.0), (0.0, 0.675, 0.765, 0.216)
    assert _fills(pdf, 1) == [(ground, False), (k100, False), (k100, True)]
    assert ("cards.pdf: 1 small fill printed 100 % K knocking out the ground, where overprinting it passed "
            "DriveThruCards's 240 % total ink") in report["black"]
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    doujin = (root / "build" / "test" / "doujin" / "cards.pdf").read_bytes()
    assert _fills(doujin, 0)[-2:] == [(k100, True), (k100, True)]


def _placed_face(scales: list[float]) -> bytes:
    """A page placing one face's form at each of ``scales`` (a ``cm`` before ``Do``), as the shop's
    rulebook places the pieces' faces smaller: 40 pt text in a rich near-black, a 2 pt stroke in
    the palette's ink (0/11.6/20.9/83.1) and a 0.99 pt one (a 0.35 mm line)."""
    from pdfprobe import form_placed

    def face(canvas) -> None:
        canvas.setFillColorCMYK(0.157, 0.333, 0.0, 0.8)
        canvas.setFont("Helvetica", 40)
        canvas.drawString(10, 120, "50")
        canvas.setStrokeColorCMYK(0.0, 0.116, 0.209, 0.831)
        canvas.setLineWidth(2)
        canvas.line(10, 60, 190, 60)
        canvas.setLineWidth(0.99)
        canvas.line(10, 30, 190, 30)

    return form_placed(face, scales, 240)


def _printed(pdf: bytes) -> list[tuple[str, float, tuple, bool]]:
    """What a shop's preflight reads on the page: (kind, text size or line width as printed, CMYK
    colour, overprint) of every text and stroke, through the form's placement."""
    from pnpgen.preflight.content import walk

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return sorted((p.kind, round(p.width, 2), tuple(round(v, 3) for v in p.colour[1]),
                       bool(p.overprint)) for p in walk(doc.pages[0], 1) if p.kind in ("text", "stroke"))


def test_a_face_placed_smaller_is_black_text_and_thin_lines_as_printed():
    """The doujin-book's pictures of the pieces draw each face's form smaller: a 40 pt numeral in a
    rich near-black at 0.7 is 28 pt as printed (its 2 pt line, 1.4 pt there, is not thin), and the 2 pt
    line at 0.4 a 0.8 pt one — small text and a thin line, which print 100 % K overprinting (docs/exports.md, "its em as printed"); the
    preflight read 15.7/33.3/0/80 text at 35.2 pt on Alicematic Medallions' book cover and 117
    strokes of 0/11.6/20.9/83.1 under 1 pt in asian-delivery's. A face placed at its size, or a
    little larger (`--fit scale`'s 63 → 63.5 mm), keeps its 40 pt text's rich black and its 2 pt
    line's colour, and its 0.99 pt line is thin."""
    k100, rich, ink = (0.0, 0.0, 0.0, 1.0), (0.157, 0.333, 0.0, 0.8), (0.0, 0.116, 0.209, 0.831)
    small, _ = k_only(_placed_face([0.7]))
    assert _printed(small) == [("stroke", 0.69, k100, True), ("stroke", 1.4, ink, False), ("text", 28.0, k100, True)]
    small, _ = k_only(_placed_face([0.4, 1.0]))  # placed smallest at 0.4: K there, and so wherever it is placed
    assert _printed(small) == [("stroke", 0.4, k100, True), ("stroke", 0.8, k100, True), ("stroke", 0.99, k100, True),
                               ("stroke", 2.0, k100, True), ("text", 16.0, k100, True), ("text", 40.0, k100, True)]
    for scales in ([1.0], [1.008]):
        kept, _ = k_only(_placed_face(scales))
        s = scales[0]
        assert _printed(kept) == [("stroke", round(0.99 * s, 2), k100, True), ("stroke", round(2 * s, 2), ink, False),
                                  ("text", round(40 * s, 2), rich, False)]
