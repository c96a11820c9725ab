"""pdf/minline.py: a stroke thinner than the shop's thinnest line as printed — a face's form
placed small, as the rulebook's pictures of the pieces are — drawn that wide where the form is
placed smallest; wide lines, fills and the paths themselves untouched."""

from __future__ import annotations

import io

import pikepdf
from reportlab.pdfgen import canvas

from pnpgen.pdf.minline import widen_lines
from pnpgen.preflight.content import walk

MIN_PT = 0.2835  # 0.1 mm


def _strokes(pdf: bytes) -> list[tuple[float, tuple]]:
    """Each stroke the pages paint, as a shop's preflight reads it: (width as printed, colour)."""
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return [(round(p.width, 4), p.colour) for i, page in enumerate(doc.pages) for p in walk(page, i + 1)
                if p.kind == "stroke"]


def _book(scales: list[float]) -> bytes:
    """A page placing one face's form at each of ``scales``: a 0.6 pt red border, a 2 pt blue bar."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(400, 400), invariant=1)
    c.beginForm("face", 0, 0, 100, 100)
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(1, 0, 0)
    c.rect(5, 5, 90, 90, stroke=1, fill=0)
    c.setLineWidth(2)
    c.setStrokeColorRGB(0, 0, 1)
    c.line(10, 50, 90, 50)
    c.endForm()
    for i, s in enumerate(scales):
        c.saveState()
        c.translate(10 + 120 * i, 10)
        c.scale(s, s)
        c.doForm("face")
        c.restoreState()
    c.setLineWidth(0.1)  # the page's own hairline
    c.line(10, 300, 300, 300)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_a_form_placed_small_draws_its_thin_lines_at_the_shops_minimum():
    before = _book([0.25, 1.0])
    assert sorted(w for w, _ in _strokes(before)) == [0.1, 0.15, 0.5, 0.6, 2.0]  # as placed: thin at a quarter
    after, widened = widen_lines(before, MIN_PT)
    assert widened == 2  # the form's red border and the page's line (the form counted once)
    strokes = _strokes(after)
    assert min(w for w, _ in strokes) >= MIN_PT - 1e-4
    red = sorted(w for w, colour in strokes if colour == ("rgb", (1.0, 0.0, 0.0)))
    assert red == [round(0.2835 / 0.25 * 0.25, 4), round(1.134 * 1.0, 4)]  # smallest placement sets it
    blue = sorted(w for w, colour in strokes if colour == ("rgb", (0.0, 0.0, 1.0)))
    assert blue == [0.5, 2.0]  # wide enough where it is smallest: as it was


def test_nothing_thin_is_the_same_bytes():
    pdf = _book([1.0])
    wide, _ = widen_lines(pdf, 0.1)
    assert wide == pdf
