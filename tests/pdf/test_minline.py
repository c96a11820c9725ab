"""pdf/minline.py: a stroke thinner than the shop's thinnest line as printed — a face's form
placed small, as the rulebook's pictures of the pieces are — drawn that wide where the form is
placed smallest; wide lines, fills and the paths themselves untouched."""

from __future__ import annotations

import io

import pikepdf

from pdfprobe import form_placed
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
    def face(c) -> None:
        c.setLineWidth(0.6)
        c.setStrokeColorRGB(1, 0, 0)
        c.rect(5, 5, 90, 90, stroke=1, fill=0)
        c.setLineWidth(2)
        c.setStrokeColorRGB(0, 0, 1)
        c.line(10, 50, 90, 50)

    def hairline(c) -> None:
        c.setLineWidth(0.1)  # the page's own hairline
        c.line(10, 300, 300, 300)

    return form_placed(face, scales, 120, hairline)


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


def _page(content: bytes, form: bytes | None = None, lw: float | None = None) -> bytes:
    """A page drawing ``content``, with a form /F drawing ``form`` and a graphics state /G whose line width is ``lw``."""
    pdf = pikepdf.Pdf.new()
    page = pdf.add_blank_page(page_size=(200, 200))
    resources = pikepdf.Dictionary()
    if lw is not None:
        resources.ExtGState = pikepdf.Dictionary(G=pikepdf.Dictionary(LW=lw))
    if form is not None:
        f = pdf.make_stream(form)
        f.Type, f.Subtype, f.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, pikepdf.Array([0, 0, 100, 100])
        resources.XObject = pikepdf.Dictionary(F=f)
    page.Resources = resources
    page.Contents = pdf.make_stream(content)
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def test_a_width_set_by_a_graphics_state_or_inherited_by_a_form_is_the_width_read():
    """hostile32: ``/LW`` of a graphics state (``gs``) was not read, nor the width a form inherits
    where it is placed (taken as 1 pt): a 5 pt line set by ``gs`` after ``0.1 w`` was drawn 0.28 pt, a
    form inheriting 30 units placed at a tenth (3 pt) was drawn 0.28 pt, a 0.01 pt ``/LW`` stayed."""
    thick_gs = _page(b"0.1 w /G gs 0 0 m 100 100 l S 0 0 m 50 50 l S", lw=5)
    assert widen_lines(thick_gs, MIN_PT) == (thick_gs, 0)
    thin_gs, widened = widen_lines(_page(b"/G gs 0 0 m 100 100 l S", lw=0.01), MIN_PT)
    with pikepdf.open(io.BytesIO(thin_gs)) as doc:
        ops = [(str(i.operator), [float(v) for v in i.operands if not isinstance(v, pikepdf.Name)])
               for i in pikepdf.parse_content_stream(doc.pages[0])]
    assert widened == 1 and ops[:2] == [("gs", []), ("w", [MIN_PT])] and ops[-1] == ("w", [0.01])
    stroke = b"0 0 m 100 100 l S 0 0 m 50 50 l S"
    thick = widen_lines(_page(b"q 0.1 0 0 0.1 0 0 cm 30 w /F Do Q", stroke), MIN_PT)
    assert thick[1] == 0 and [w for w, _ in _strokes(thick[0])] == [3.0, 3.0]
    thin = widen_lines(_page(b"q 0.5 0 0 0.5 0 0 cm 0.1 w /F Do Q", stroke), MIN_PT)
    assert thin[1] == 2 and [w for w, _ in _strokes(thin[0])] == [MIN_PT, MIN_PT]
    unlike = _page(b"q 0.01 w /F Do Q q 10 w /F Do Q", stroke)  # one form, two widths given: left as it is
    assert widen_lines(unlike, MIN_PT) == (unlike, 0)
