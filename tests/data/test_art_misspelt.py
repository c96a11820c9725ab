"""A picture's name misspelt (``dragn.png`` beside ``dragon.png``) is likened to the file that is
there, as a field or an icon is; it said only "not found" (trial86)."""

from __future__ import annotations

from PIL import Image

from conftest import DECK_YAML, make_workspace, run


def _ws(tmp_path, art: str, front_image: str = ""):
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  art: image\n") + f"  - {{name: 甲, art: {art}}}\n"
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             + (front_image or '{{ image(piece.art, 0, 0, w, h) }}') + "\n{% endblock %}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (64, 64), "#884422").save(ws / "data" / "test" / "art" / "dragon.png")
    return ws


def _told(ws, capsys) -> str:
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    out = "".join(capsys.readouterr())
    assert "Traceback" not in out
    return out


def test_a_misspelt_picture_in_the_data_is_likened_to_the_file_there(tmp_path, capsys):
    out = _told(_ws(tmp_path, "dragn.png"), capsys)
    assert "art file 'dragn.png' not found; did you mean dragon.png?" in out


def test_a_misspelt_picture_in_a_template_is_likened_to_the_file_there(tmp_path, capsys):
    out = _told(_ws(tmp_path, "dragon.png", '<image href="dragonn.png" x="0" y="0" width="9" height="9"/>'), capsys)
    assert "templates/test/card-front.svg.j2:3:" in out and "art file 'dragonn.png' not found; did you mean dragon.png?" in out


def test_a_name_like_no_picture_there_is_not_likened(tmp_path, capsys):
    out = _told(_ws(tmp_path, "zzz.png"), capsys)
    assert "art file 'zzz.png' not found (expected a file zzz.png in " in out and "did you mean" not in out
