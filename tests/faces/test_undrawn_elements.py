"""What a template author writes that would print as nothing, without a word, is named at the
template's line (a template author's trial, session 33): an element that is no SVG element (a
typo, ``<circel>``), a ``<foreignObject>`` or Inkscape's flowed text, which svglib leaves out; a
text's ``rotate`` or ``textLength``, which svglib drew the face for and left out; and a
``font-family`` written as CSS writes it (``'BIZ UDPGothic'`` with ``font-weight="bold"``) is told
the game's font to name."""

from __future__ import annotations

import re

import pytest

from conftest import make_workspace, run
from pnpgen.errors import InputError
from pnpgen.svg import convert


def _svg(body: str) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" viewBox="0 0 20 20">\n'
            + body + "\n</svg>")


def _front(line5: str) -> str:
    return ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
            '<rect x="0" y="0" width="20" height="20" fill="#cc3333"/>\n<!-- line 4 -->\n'
            + line5 + "\n{% endblock %}\n")


def _error(tmp_path, line5: str, capsys) -> str:
    ws = make_workspace(tmp_path / "ws", front=_front(line5))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert not (ws / "build" / "test").exists()
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("line5, what", [
    ('<circel cx="10" cy="10" r="3" fill="#000000"/>',
     "<circel> (line N of the SVG, written at line 5 of test/card-front.svg.j2) is not an SVG element, so "
     "nothing of it prints (a browser draws nothing of it either); did you mean circle?"),
    ('<foreignObject x="0" y="0" width="9" height="9"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>',
     "<foreignObject> (line N of the SVG, written at line 5 of test/card-front.svg.j2) is drawn by neither "
     "pnpgen nor svglib: the face would print without it (expected the content as SVG shapes and <text>"),
    ('<text x="2" y="9" font-family="{{ fonts.gothic }}" font-size="4" rotate="10">{{ piece.name }}</text>',
     "<text> (line N of the SVG, written at line 5 of test/card-front.svg.j2) has rotate='10', which pnpgen "
     "does not draw (nor svglib, which draws this face for it): the text would print with its letters upright"),
    ('<text x="2" y="9" font-family="{{ fonts.gothic }}" font-size="4" textLength="30">{{ piece.name }}</text>',
     "has textLength='30', which pnpgen does not draw (nor svglib, which draws this face for it): the text "
     "would print at its font's own width"),
    ('<text x="2" y="9" font-family="BIZ UDPGothic" font-weight="bold" font-size="4">{{ piece.name }}</text>',
     "<text> font-family='BIZ UDPGothic', which is not one of the game's fonts; did you mean BIZUDPGothic-Bold? "
     "(a template names a font by its file's name, as fonts.<role> gives it: font-weight and font-style choose none)"),
])
def test_what_would_print_as_nothing_is_named_at_the_template_line(tmp_path, capsys, line5, what):
    err = _error(tmp_path, line5, capsys)
    assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2:5: "), err
    assert what in re.sub(r"line \d+ of the SVG", "line N of the SVG", err), err


def test_an_unknown_element_is_told_even_after_one_that_sends_the_face_to_svglib():
    """The first element outside the subset (a <style>) sent the face to svglib before the typo
    after it was seen."""
    with pytest.raises(InputError, match=r"<linearGradiant id='g'> \(line 3 of the SVG\) is not an SVG "
                                         r"element.*did you mean linearGradient\?"):
        convert(_svg('<style>rect { fill: #ff0000 }</style>\n<linearGradiant id="g"/>'), "f")


@pytest.mark.parametrize("body, fallback", [
    ('<switch><foreignObject width="9" height="9"/><rect width="9" height="9"/></switch>', "switch"),  # draw.io's
    ('<defs><flowRoot><flowPara>x</flowPara></flowRoot></defs><rect width="9" height="9"/>', "flowRoot"),
    ('<defs><filter id="f"><feGaussianBlur stdDeviation="2"/></filter></defs>', "filter"),  # unused
    ('<text x="1" y="9" font-family="BIZUDPGothic-Regular" font-size="4" rotate="0">A</text><pattern id="p"/>',
     "pattern"),
])
def test_what_prints_nothing_in_any_renderer_is_left_to_svglib_as_before(body, fallback):
    art = convert(_svg(body), "f")
    assert art.fallback == fallback
