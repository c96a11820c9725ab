"""pdf/colour: the documented RGB → CMYK conversion and the total-ink check on a real PDF."""

from __future__ import annotations

import io
import json
import re

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
    c.setStrokeColorCMYK(1, 1, 1, 1)  # a DeviceCMYK 400 %: ink, whatever it is (the marks are Separation All)
    c.line(0, 0, 10, 0)
    c.setFillColorCMYK(0.2, 0.2, 0.2, 1)  # 160 %
    c.rect(0, 0, 10, 10, fill=1)
    c.showPage()
    c.save()
    found = over_limit(buf.getvalue(), 240)
    assert [(page, ink) for page, _, ink in found] == [(0, 260.0), (1, 400.0)]
    assert [(page, ink) for page, _, ink in over_limit(buf.getvalue(), 300)] == [(1, 400.0)]


DARK_RED_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12, fill="#400000") }}
{% if piece.name == "面" %}<rect x="5" y="40" width="20" height="20" fill="#400000"/>{% endif %}
{% endblock %}
"""


def test_only_colours_that_paint_count_against_the_ink_limit(tmp_path):
    """#400000 is 0/100/100/74.9 (274.9 %) converted. As text it prints 100 % K (pdf/black.py),
    which sets the red back after the letters without painting in it: no ink warning. As an
    area it paints: warned, on its page alone."""
    from conftest import make_workspace, run

    root = make_workspace(tmp_path / "ws", front=DARK_RED_FRONT, pieces=["字", "面"])
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--fit", "scale") == 0
    out = root / "build" / "test" / "drivethrucards"
    pdf = (out / "cards.pdf").read_bytes()
    assert [(page, ink) for page, _, ink in over_limit(pdf, 240)] == [(3, 274.9)]  # 面's front (back, front, …)
    warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    ink = [w for w in warnings if "274.9 % total ink" in w]
    assert len(ink) == 1 and ink[0].startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 4 ('面' of deck 'cards', front)"), warnings


GRADIENT_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<defs><linearGradient id="g"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#000080"/></linearGradient></defs>
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="url(#g)"/>
{% endblock %}
"""


def test_a_gradient_stop_over_the_limit_is_said_to_a_hundredth(tmp_path):
    """The navy stop #000080 converts to 100/100/0/49.8039… (249.8039… %): the warning names it as
    every other ink is named, 100/100/0/49.8 and 249.8 %, not 49.8039 and 249.804."""
    from conftest import make_workspace, run

    root = make_workspace(tmp_path / "ws", front=GRADIENT_FRONT, pieces=["青"])
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--fit", "scale") == 0
    warnings = json.loads((root / "build" / "test" / "drivethrucards" / "export.json").read_text(encoding="utf-8"))["warnings"]
    [ink] = [w for w in warnings if "% total ink, over" in w]
    assert ink == "data/test/decks/cards.yaml:3:8: cards.pdf page 2 ('青' of deck 'cards', front): CMYK 100/100/0/49.8 is 249.8 % total ink, over DriveThruCards's 240 %; choose a lighter colour there, at most 240 % C+M+Y+K", ink


@pytest.mark.parametrize("kind", ["tiff", "jpeg"])
def test_ink_of_a_cmyk_picture_is_measured_per_pixel(tmp_path, kind):
    """A picture's ink is its heaviest pixel's: a CMYK JPEG (embedded as it is, Adobe's inverted
    samples) and a CMYK TIFF ReportLab decodes and compresses read the same."""
    import numpy as np
    from PIL import Image

    from pnpgen.pdf.colour import pictures_over_limit

    pixels = np.zeros((40, 40, 4), dtype=np.uint8)
    pixels[..., 3] = 128  # 50 % K
    pixels[:10, :10] = (0, 230, 230, 200)  # 0/90.2/90.2/78.4: 258.8 %, a sixteenth of the picture
    picture = tmp_path / f"p.{kind}"
    Image.fromarray(pixels, "CMYK").save(picture, **({"quality": 100} if kind == "jpeg" else {}))
    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    c.drawImage(str(picture), 0, 0, 40, 40)
    c.showPage()
    c.save()
    [heavy] = pictures_over_limit(buf.getvalue(), 240)
    assert heavy.pages == (0,)
    assert heavy.ink == pytest.approx(258.8, abs=2.5)  # JPEG's loss, a percent or two
    assert heavy.share == pytest.approx(100 / 16, abs=1)
    assert pictures_over_limit(buf.getvalue(), 270) == []


def test_the_card_layouts_warm_grey_is_said_with_the_plates_it_prints_in():
    """docs/data-format.md's card boxes say what a CMYK export makes of the flavour's and footer's
    warm grey: it said the Y and K plates, and a designer's trial read 0/0.066/0.209/0.643 in the
    DriveThruCards file's text operators (M too). The figures said are the conversion's."""
    from conftest import REPO

    table = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    said = re.search(r"`#5b5548` \(no palette colour: a CMYK export prints it in the (.*?) plates, "
                     r"(\d+)/(\d+)/(\d+)/(\d+), not K only", table)
    assert said, "the flavour row names its plates and figures"
    cmyk = to_cmyk(0x5B / 255, 0x55 / 255, 0x48 / 255)
    assert [round(v * 100) for v in cmyk] == [int(said.group(i)) for i in range(2, 6)], cmyk
    inks = [name for name, v in zip("CMYK", cmyk) if round(v * 100)]
    assert said.group(1) == ", ".join(inks[:-1]) + " and " + inks[-1], (said.group(1), inks)
