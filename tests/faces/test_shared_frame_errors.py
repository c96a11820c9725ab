"""A mistake in a frame several templates extend (``{% extends "test/_frame.svg.j2" %}``) that only
the converter finds (a stroke-width that is no length) is told at the frame's file and line, once
for the faces of every template showing it; it was told at each face's own template, without a
line, once per template (trial86)."""

from __future__ import annotations

from conftest import make_workspace, run

FRAME = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
         '<rect x="0" y="0" width="{{ w }}" height="{{ h }}" fill="#ffffff"/>\n'
         '<rect x="3" y="3" width="9" height="9" fill="#cc3333" stroke="#000000" stroke-width="thin"/>\n'
         '{% block inner %}{% endblock %}\n{% endblock %}\n')
FACE = '{% extends "test/_frame.svg.j2" %}\n{% block inner %}\n<circle cx="20" cy="20" r="5" fill="#222222"/>\n{% endblock %}\n'


def test_a_converter_mistake_in_a_shared_frame_is_told_at_its_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["甲", "乙"], front=FACE, back=FACE)
    (ws / "templates" / "test" / "_frame.svg.j2").write_text(FRAME, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    out = "".join(capsys.readouterr())
    assert "Traceback" not in out
    errors = [line for line in out.splitlines() if "error:" in line]
    assert len(errors) == 1, out
    assert errors[0].lstrip().startswith("error: templates/test/_frame.svg.j2:4: ")
    assert "has stroke-width='thin'" in errors[0]
