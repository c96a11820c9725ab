"""A colour helper given a field the piece does not have (``colour(piece.factoin)``, a typo, or a
field one deck has and the deck sharing its frame has not) says so as printing it does — the field
and the one meant — where it said "unknown colour Undefined" (trial86)."""

from __future__ import annotations

import pytest

from conftest import make_workspace, run


@pytest.mark.parametrize("call", ["colour(piece.nmae)", "paint(piece.nmae)", "piece.nmae | tint(0.3)",
                                  "colour('red') | tint(0.3, toward=piece.nmae)", "colour(piece.nmae, 'red')",
                                  "colour(piece.undeclared, 'red')"])
def test_a_missing_field_in_a_colour_helper_is_named(tmp_path, capsys, call):
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             f'<rect x="0" y="0" width="9" height="9" fill="{{{{ {call} }}}}"/>\n{{% endblock %}}\n')
    ws = make_workspace(tmp_path / "ws", pieces=["甲", "乙"], front=front)
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    out = "".join(capsys.readouterr())
    assert "Traceback" not in out and "Undefined" not in out
    field = "undeclared" if "undeclared" in call else "nmae"
    assert f"templates/test/card-front.svg.j2:3: the piece has no field '{field}'" in out
    assert ("did you mean name?" in out) == (field == "nmae")
