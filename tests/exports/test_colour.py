"""pdf/colour: the documented RGB → CMYK conversion and the total-ink check on a real PDF."""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen import canvas

from pnpgen.pdf.colour import over_limit, to_cmyk, total_ink


def test_black_and_greys_print_on_k_alone():
    assert to_cmyk(0, 0, 0) == (0.0, 0.0, 0.0, 1.0)
    assert to_cmyk(0.5, 0.5, 0.5) == pytest.approx((0, 0, 0, 0.5))
    assert to_cmyk(1, 1, 1) == pytest.approx((0, 0, 0, 0))


def test_colours_follow_the_pdf_reference_conversion():
    # #cc3333: c, m, y = 0.2, 0.8, 0.8; k = 0.2; chroma scaled by 1 / (1 − k)
    assert to_cmyk(0.8, 0.2, 0.2) == pytest.approx((0.0, 0.75, 0.75, 0.2))
    assert total_ink(to_cmyk(0.01, 0.0, 0.0)) == pytest.approx(299.0)


def test_ink_over_the_limit_is_found_in_pages_and_forms():
    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    c.beginForm("f")
    c.setFillColorCMYK(0.6, 0.5, 0.5, 1.0)  # 260 %
    c.rect(0, 0, 10, 10, fill=1)
    c.endForm()
    c.setFillColorCMYK(0, 0, 0, 1)
    c.rect(20, 20, 10, 10, fill=1)
    c.doForm("f")
    c.showPage()
    c.setStrokeColorCMYK(1, 1, 1, 1)  # registration: cut marks, not ink on the piece
    c.line(0, 0, 10, 0)
    c.setFillColorCMYK(0.2, 0.2, 0.2, 1)  # 160 %
    c.rect(0, 0, 10, 10, fill=1)
    c.showPage()
    c.save()
    found = over_limit(buf.getvalue(), 240)
    assert [(page, ink) for page, _, ink in found] == [(0, 260.0)]
    assert over_limit(buf.getvalue(), 300) == []
