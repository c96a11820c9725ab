"""What the template vocabulary returns reads as documented: ``t.inner.h`` (a box with x, y, w,
h that still unpacks), points with ``.x``/``.y``; and a name a template misspells is reported in
the designer's words: "a field declared in the deck's fields:" only for ``piece``, what the
object is everywhere else, never a Python class name."""

from __future__ import annotations

import re

import pytest

from conftest import make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.faces.face import Face
from pnpgen.faces.sourcelines import strip
from pnpgen.faces.templates import Renderer
from pnpgen.faces.tracks import track_inner

BOARD = """\
name: 得点ボード
kind: board
size: [280, 200]
front: card-front.svg.j2
fields: {name: text}
pieces: [{name: ボード}]
"""


def _front(art: str) -> str:
    return '{% extends "common/piece.svg.j2" %}{% block art %}' + art + "{% endblock %}"


def _render(tmp_path, art: str) -> str:
    ws = make_workspace(tmp_path / "ws", deck=BOARD, front=_front(art))
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    return strip(Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front")))  # without source lines


def test_track_inner_by_name_and_unpacked(tmp_path):
    svg = _render(tmp_path, '{% set t = track(30, 5, 5, w - 10, h - 10) %}{{ t }}'
                            '<rect id="named" x="{{ t.inner.x }}" y="{{ t.inner.y }}" width="{{ t.inner.w }}" '
                            'height="{{ t.inner.h }}"/>{% set x, y, iw, ih = t.inner %}'
                            '<rect id="unpacked" x="{{ x }}" y="{{ y }}" width="{{ iw }}" height="{{ ih }}"/>')
    inner = track_inner(30, 5, 5, 270, 190)
    for rect in ("named", "unpacked"):
        m = re.search(rf'<rect id="{rect}" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
        assert m, svg[-400:]
        assert [float(v) for v in m.groups()] == pytest.approx([inner.x, inner.y, inner.w, inner.h])
    assert inner.h > 100  # the hole of a ring round a 270×190 box


def test_points_by_name(tmp_path):
    svg = _render(tmp_path, '{% set t = track(30, 5, 5, w - 10, h - 10) %}'
                            '<circle id="c" cx="{{ t.spaces[0].centre.x }}" cy="{{ t.spaces[0].centre.y }}" r="1"/>'
                            '<circle id="s" cx="{{ shape.centres[0].x }}" cy="{{ shape.centres[0].y }}" r="1"/>'
                            '{% set p = shape.hex_corners(50, 50, 20)[0] %}<circle id="h" cx="{{ p.x }}" cy="{{ p.y }}" r="1"/>')
    assert re.search(r'id="s" cx="140(\.0)?" cy="100(\.0)?"', svg), svg[-400:]
    first = track_inner(30, 5, 5, 270, 190)  # the first space sits at the top-left corner of the box
    c = re.search(r'id="c" cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert float(c.group(1)) < first.x and float(c.group(2)) < first.y
    h = re.search(r'id="h" cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert float(h.group(1)) == pytest.approx(50) and float(h.group(2)) < 40  # the top corner of a pointy hex


@pytest.mark.parametrize("art, said, expected", [
    ("{{ piece.titel }}", "the piece has no field 'titel'", "(expected a field declared in the deck's 'fields:' (name))"),
    ("{{ piece.nam }}", "the piece has no field 'nam'; did you mean name?",
     "(expected a field declared in the deck's 'fields:' (name))"),
    ("{% for i in range(piece.titel) %}.{% endfor %}", "the piece has no field 'titel'",
     "(expected a field declared in the deck's 'fields:' (name))"),
    ("{% set t = track(30, 5, 5, 100, 100) %}{{ t.inner.height }}", "a box has no 'height' (it has x, y, w, h)", None),
    ("{% set t = track(30, 5, 5, 100, 100) %}{{ t.inner[0].h }}", "a number has no 'h'", None),
    ("{% set t = track(30, 5, 5, 100, 100) %}{{ t.centre }}", "a track has no 'centre'", None),
    ("{{ shape.centres[0].z }}", "a point has no 'z' (it has x, y)", None),
    ("{{ deck.titel }}", "no key 'titel' (its keys: id, name, kind", None),
    ("{{ shape.centres.x }}", "a list has no 'x'", None),
    ("{{ piece.name.size }}", "a text has no 'size'", None),
])
def test_missing_names_in_designer_words(tmp_path, capsys, art, said, expected):
    ws = make_workspace(tmp_path / "ws", deck=BOARD, front=_front(art))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert "card-front.svg.j2:1" in err
    assert "object" not in err and "PieceView" not in err and "tuple" not in err, err
    if expected:
        assert expected in err, err
    else:
        assert "fields:" not in err, err


def test_a_macro_file_of_the_game_imported_by_its_bare_name_is_told_its_name_from_templates(tmp_path, capsys):
    """Templates are named from templates/: the game's own _lib.svg.j2 is 'test/_lib.svg.j2', and
    the error for the bare name says so, rather than "a file under templates/test/" (it is one)."""
    front = '{% import "_lib.svg.j2" as my %}' + _front("{{ my.dot() }}")
    ws = make_workspace(tmp_path / "ws", deck=BOARD, front=front)
    (ws / "templates" / "test" / "_lib.svg.j2").write_text(
        '{% macro dot() %}<circle cx="5" cy="5" r="2"/>{% endmacro %}', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "card-front.svg.j2:1: template: _lib.svg.j2" in err, err
    assert "(expected 'test/_lib.svg.j2': an include or import names a template from templates/" in err, err
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(front.replace('"_lib', '"test/_lib'), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
