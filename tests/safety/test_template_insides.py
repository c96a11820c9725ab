"""A template reaching Python's insides (``piece.__class__``, ``''.__class__.__mro__``, a helper's
``__globals__``): Jinja's sandbox stops it, and its words ('access to attribute '__class__' of
'PieceView' object is unsafe') named pnpgen's class and no way on. Now the standard's error: the
template file and line, the object in the designer's words, what a template may read instead."""

from __future__ import annotations

import pytest

from conftest import FEW_CARDS, FRONT, make_workspace, run


@pytest.mark.parametrize(("reached", "what"), [("piece.__class__", "the piece's '__class__'"),
                                               ("''.__class__.__mro__", "a text's '__class__'"),
                                               ("piece._values", "the piece's '_values'"),
                                               ("textbox.__globals__", "a helper's '__globals__'"),
                                               ("'{0.__class__}'.format(piece)", "the piece's '__class__'")])
def test_a_template_reaching_pythons_insides_is_told_at_its_line(tmp_path, capsys, reached, what):
    front = FRONT.replace("{% block art %}\n", "{% block art %}\n<text>{{ " + reached + " }}</text>\n")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, front=front)
    assert run(ws, "build", "--game", "test", "-q", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pnpgen: error: templates/test/card-front.svg.j2:3: {what} is closed to templates"), err
    assert "(expected a field of the piece (piece.name, piece.text), a text's filters" in err, err
    assert "PieceView" not in err and "unsafe" not in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert not (ws / "build" / "test").exists()
