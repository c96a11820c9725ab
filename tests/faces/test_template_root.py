"""A template that writes its own root <svg> instead of extending common/piece.svg.j2: a root of
the face's size (trim + 2 × bleed) is drawn as SVG sizes it, in any unit and viewBox scale, and
lands on the trim; one of the trim's size (what a designer who knows SVG writes first) or any
other is refused at its template line, where it printed a bleed off the trim with a white band
inside it and no check said a word. Each case builds a one-card game and reads the shop PDF back:
where the face's blue panel (drawn 5 mm inside the trim) lands, in mm from the trim's corner."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import make_workspace, run
from pdfprobe import boxes_mm

# The drawing in millimetres, with the trim's corner at (0, 0): red to the bleed, a blue panel
# 5 mm inside the trim. ``k`` scales it into the root's user units, ``o`` moves its origin there.
DRAWING = """{% set k = k | default(1) %}{% set o = o | default(0) %}
<rect x="{{ o - bleed * k }}" y="{{ o - bleed * k }}" width="{{ (w + 2 * bleed) * k }}" height="{{ (h + 2 * bleed) * k }}" fill="#cc3333"/>
<rect x="{{ o + 5 * k }}" y="{{ o + 5 * k }}" width="{{ (w - 10) * k }}" height="{{ (h - 10) * k }}" fill="#224466"/>
"""
PANEL = (5.0, 5.0, 58.0, 83.0)  # a poker card's (63×88) blue panel, mm from the trim's top-left corner


def _own_root(root: str, head: str = "") -> str:
    return f'{head}<svg xmlns="http://www.w3.org/2000/svg" {root}>\n{DRAWING}</svg>\n'


def _game(tmp_path: Path, front: str) -> Path:
    return make_workspace(tmp_path / "ws", pieces=["甲"], front=front)


def _panel(ws: Path) -> tuple[float, ...]:
    """The blue panel's box on the shop page, mm from the TrimBox's top-left corner."""
    import numpy as np
    import pypdfium2 as pdfium

    pdf = ws / "build" / "test" / "shop" / "cards.pdf"
    media, trim = (boxes_mm(PdfReader(pdf).pages[0])[k] for k in ("mediabox", "trimbox"))
    px_mm = 10
    rgb = np.asarray(pdfium.PdfDocument(str(pdf))[0].render(scale=px_mm * 25.4 / 72).to_pil().convert("RGB")).astype(int)
    ys, xs = np.nonzero((abs(rgb[..., 0] - 0x22) < 8) & (abs(rgb[..., 1] - 0x44) < 8) & (abs(rgb[..., 2] - 0x66) < 8))
    left, top = trim[0] - media[0], media[3] - trim[3]
    return (xs.min() / px_mm - left, ys.min() / px_mm - top, (xs.max() + 1) / px_mm - left, (ys.max() + 1) / px_mm - top)


DRAWN = {
    "mm, the house's viewBox": 'width="{{ w + 2 * bleed }}mm" height="{{ h + 2 * bleed }}mm" '
                               'viewBox="{{ -bleed }} {{ -bleed }} {{ w + 2 * bleed }} {{ h + 2 * bleed }}"',
    "px": 'width="260.787px" height="355.276px" viewBox="-3 -3 69 94"',
    "no unit (px)": 'width="260.787" height="355.276" viewBox="-3 -3 69 94"',
    "inches": 'width="2.7165in" height="3.7008in" viewBox="-3 -3 69 94"',
    "no width or height: the face's box": 'viewBox="-3 -3 69 94"',
    "100%": 'width="100%" height="100%" viewBox="-3 -3 69 94"',
    "a viewBox in tenths of a mm": ('width="69mm" height="94mm" viewBox="-30 -30 690 940"', "{% set k = 10 %}"),
    "points, (0, 0) at the bleed's corner": ('width="195.591pt" height="266.457pt" viewBox="0 0 69 94"', "{% set o = 3 %}"),
    "another aspect, stretched": ('width="69mm" height="94mm" viewBox="-6 -3 138 94" preserveAspectRatio="none"',
                                  "{% set k = 1 %}"),
}


@pytest.mark.parametrize("case", sorted(DRAWN))
def test_a_root_of_the_faces_size_lands_on_the_trim(tmp_path, case):
    root, head = (DRAWN[case], "") if isinstance(DRAWN[case], str) else DRAWN[case]
    front = _own_root(root, head)
    if case == "another aspect, stretched":  # x in half-millimetres: the viewBox is twice as wide
        front = front.replace('x="{{ o - bleed * k }}"', 'x="-6"').replace('width="{{ (w + 2 * bleed) * k }}"', 'width="138"')
        front = front.replace('x="{{ o + 5 * k }}"', 'x="10"').replace('width="{{ (w - 10) * k }}"', 'width="106"')
    ws = _game(tmp_path, front)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert _panel(ws) == pytest.approx(PANEL, abs=0.15)


REFUSED = {
    "the trim in mm": ('width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}"',
                       "is the trim size, 63×88 mm; a face is drawn trim + 2 × bleed, 69×94 mm, with the trim at (3, 3)"),
    "the trim in px": ('width="238.11px" height="332.6px" viewBox="0 0 63 88"', "is the trim size, 63×88 mm"),
    "the trim as a viewBox alone": ('viewBox="0 0 {{ w }} {{ h }}"', "has the trim, 63×88, for its viewBox"),
    "the face, with the trim for viewBox": ('width="{{ w + 2 * bleed }}mm" height="{{ h + 2 * bleed }}mm" '
                                            'viewBox="0 0 {{ w }} {{ h }}" preserveAspectRatio="none"',
                                            "has the trim, 63×88, for its viewBox"),
    "another size": ('width="100mm" height="50mm"', "is 100×50 mm, neither the trim (63×88 mm) nor the face"),
    "half the face": ('width="50%" height="50%" viewBox="-3 -3 69 94"', "is 34.5×47 mm, neither"),
    "a square viewBox, scaled evenly": ('width="69mm" height="94mm" viewBox="0 0 100 100"',
                                        "has a viewBox of other proportions than its size (100×100 in 69×94 mm): SVG "
                                        "scales it evenly (preserveAspectRatio 'xMidYMid'), so the drawing's edges land "
                                        "12.5 mm off the face's"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_root_not_the_faces_size_is_refused_at_its_line(tmp_path, capsys, case):
    root, said = REFUSED[case]
    ws = _game(tmp_path, _own_root(root, "{# the card's own root #}\n"))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "templates/test/card-front.svg.j2:2: " in err and said in err, err
    expected = 'preserveAspectRatio="none"' if "proportions" in said else '{% extends "common/piece.svg.j2" %}'
    assert expected in err.split("(expected ", 1)[1] and "Traceback" not in err, err
    assert not (ws / "build" / "test" / "shop").exists()


def test_a_workspace_root_replacing_the_house_one_is_named_at_its_own_line(tmp_path, capsys):
    """A template extends common/piece.svg.j2, but the workspace's own file of that name (which
    replaces the built-in one) writes the root at the trim size: named there, not at the card."""
    ws = make_workspace(tmp_path / "ws", pieces=["甲"])
    (ws / "templates" / "common").mkdir()
    (ws / "templates" / "common" / "piece.svg.j2").write_text(
        '{# my root #}\n<svg xmlns="http://www.w3.org/2000/svg" width="{{ w }}mm" height="{{ h }}mm" '
        'viewBox="0 0 {{ w }} {{ h }}">\n{% block art %}{% endblock %}\n</svg>\n', encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "templates/common/piece.svg.j2:2: " in err and "is the trim size, 63×88 mm" in err, err


def test_a_nested_svg_at_the_trim_is_drawn_at_the_trim(tmp_path):
    """A template that extends the house root and nests its own <svg> over the trim (in tenths of
    a mm) draws inside it as SVG says: the nested viewport is the trim."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n<rect x="{{ -bleed }}" y="{{ -bleed }}" '
             'width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>\n'
             '<svg x="0" y="0" width="{{ w }}" height="{{ h }}" viewBox="0 0 630 880">\n'
             '<rect x="50" y="50" width="530" height="780" fill="#224466"/>\n</svg>\n{% endblock %}\n')
    ws = _game(tmp_path, front)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert _panel(ws) == pytest.approx(PANEL, abs=0.15)


PICTURE = ('<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">'
           '<rect width="63" height="88" fill="#cc3333"/><rect x="5" y="5" width="53" height="78" fill="#224466"/></svg>')


@pytest.mark.parametrize("placed", [
    '{{ image("trim.svg", 0, 0, w, h) }}',
    '<image href="trim.svg" x="0" y="0" width="{{ w }}" height="{{ h }}"/>',
])
def test_an_svg_picture_exported_at_the_trim_size_is_placed_on_the_trim(tmp_path, placed):
    """Art exported by Inkscape or Illustrator at the trim size (width="63mm", its viewBox in mm),
    placed over the trim, is scaled into the box it is given: its panel lands 5 mm inside the trim."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n<rect x="{{ -bleed }}" y="{{ -bleed }}" '
             'width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>\n' + placed + "\n{% endblock %}\n")
    ws = _game(tmp_path, front)
    (ws / "data" / "test" / "art").mkdir()
    (ws / "data" / "test" / "art" / "trim.svg").write_text(PICTURE, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert _panel(ws) == pytest.approx(PANEL, abs=0.15)


def test_the_docs_own_root_example_builds_and_fills_the_face_to_the_bleed(tmp_path):
    """docs/data-format.md's template with a root of its own, as written: it builds, and its red
    ground reaches the shop page's corners (the bleed's) with the name inside the trim."""
    import pypdfium2 as pdfium

    from pdfprobe import text_positions

    docs = (Path(__file__).parents[2] / "docs" / "data-format.md").read_text(encoding="utf-8")
    [example] = [b for b in docs.split("```jinja\n")[1:] if b.startswith("{# templates/<slug>/token-front.svg.j2 #}")]
    ws = _game(tmp_path, example.split("```")[0])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    pdf = ws / "build" / "test" / "shop" / "cards.pdf"
    image = pdfium.PdfDocument(str(pdf))[0].render(scale=2).to_pil().convert("RGB")
    corners = [(1, 1), (image.width - 2, 1), (1, image.height - 2), (image.width - 2, image.height - 2)]
    assert {image.getpixel(c) for c in corners} == {(0xCC, 0x33, 0x33)}
    page = PdfReader(pdf).pages[0]
    trim = boxes_mm(page)["trimbox"]
    [(_, x, _)] = [t for t in text_positions(page) if "甲" in t[0]]
    assert trim[0] + 5 - 0.5 <= x <= trim[0] + 30


def test_a_nested_svg_sized_in_mm_is_named_by_the_print_lint(tmp_path, capsys):
    """A nested <svg width="63mm"> inside the house root is 63 mm in CSS units of a user space in
    millimetres (238 mm): the print lint names the length at its line, as for any other."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<svg x="0" y="0" width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">\n'
             '<rect width="{{ w }}" height="{{ h }}" fill="#224466"/>\n</svg>\n{% endblock %}\n')
    ws = _game(tmp_path, front)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().err
    assert "templates/test/card-front.svg.j2:3: print lint" in err and "'63.0mm' draws 238.11 mm" in err, err


@pytest.mark.parametrize("root, line", [
    ('width="{{ w + 2 * bleed }}mm" height="{{ h + 2 * bleed }}mm"', 1),  # the face's size, no viewBox
    ("", 1),  # no size either: the face's box, its user unit still a CSS px
    ('width="{{ w + 2 * bleed }}mm" height="{{ h + 2 * bleed }}mm" viewBox="{{ -bleed }} {{ -bleed }} '
     '{{ w + 2 * bleed }} {{ h + 2 * bleed }}"', None),  # the house's: nothing to say
])
def test_a_root_of_the_faces_size_without_a_viewbox_is_named_with_the_viewbox_to_write(tmp_path, capsys, root, line):
    """fixesK: a root of the face's size without a viewBox draws in CSS px (SVG's rule), so a
    drawing in millimetres printed at 1/3.78 of its size and nothing was said: the print lint
    names the root's line and the viewBox that makes user units millimetres, (0, 0) the trim's corner."""
    ws = _game(tmp_path, _own_root(root))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = [w for w in capsys.readouterr().err.splitlines() if "viewBox" in w]
    if line is None:
        assert said == []
        return
    assert said == [f"pnpgen: warning: templates/test/card-front.svg.j2:{line}: print lint: deck 'cards' piece 1 (甲): "
                    "the <svg> root (69×94 mm) has no viewBox, so its user unit is a CSS pixel (0.26 mm) and a drawing "
                    'in millimetres prints at 1/3.78 of its size; viewBox="-3 -3 69 94" makes the units millimetres, '
                    "(0, 0) the trim's top-left corner (viewBox=\"{{ -bleed }} {{ -bleed }} {{ w + 2 * bleed }} "
                    '{{ h + 2 * bleed }}" in the template)'], said
