"""A ``<text>``'s or ``<tspan>``'s font-size, x, y, dx or dy that is no length is told by its
attribute and value — it was "has an unreadable x, y or font-size", which of the five not said
(trial86)."""

from __future__ import annotations

import pytest

from conftest import make_workspace, run


@pytest.mark.parametrize("text, told", [
    ('<text x="5" y="10" font-size="big" font-family="{{ fonts.gothic }}">A</text>', "<text> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has font-size='big', which is no length"),
    ('<text x="5" y="1O" font-size="4" font-family="{{ fonts.gothic }}">A</text>', "has y='1O', which is no length"),
    ('<text x="5 6 seven" y="10" font-size="4" font-family="{{ fonts.gothic }}">ABC</text>', "has x='5 6 seven', which is no length"),
    ('<text x="5" y="10" font-size="4" font-family="{{ fonts.gothic }}">A<tspan dx="1x">B</tspan></text>', "<tspan> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has dx='1x', which is no length"),
])
def test_a_text_length_that_is_none_is_named(tmp_path, capsys, text, told):
    front = '{% extends "common/piece.svg.j2" %}\n{% block art %}\n' + text + "\n{% endblock %}\n"
    ws = make_workspace(tmp_path / "ws", pieces=["甲"], front=front)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    out = "".join(capsys.readouterr())
    assert "Traceback" not in out
    assert "templates/test/card-front.svg.j2:3:" in out and told in out, out
    assert "(expected a number of user units, millimetres in a face: " in out
