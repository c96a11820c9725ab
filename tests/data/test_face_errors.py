"""Issue 12: whatever goes wrong while a face is converted (SVG → PDF art) or drawn into a
document is one InputError naming the template file, the deck and the piece (with its YAML
file:line) — in this process, in face workers (``--jobs``) and in game workers (several games)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import DECK_YAML, FRONT, make_workspace, run

ART = "{% block art %}"


def front_with(markup: str) -> str:
    """The test front template with ``markup`` at the start of its art (line 3 of the file)."""
    return FRONT.replace(ART, ART + "\n" + markup)


CASES = {
    # name: (markup, what the message says)
    "length not a number": ('<rect width="abc" height="3" fill="#000"/>', "<rect> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has width='abc'"),
    "path data with junk": ('<path d="M 0 0 L x y" fill="#000"/>', "path data 'M 0 0 L x y': L takes 2 numbers"),
    "path without moveto": ('<path d="L 3 4" fill="#000"/>', "does not start with a moveto"),
    "points with junk": ('<polygon points="1,2 x,4 5,6" fill="#000"/>', "<polygon> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has an unreadable value"),
    "infinite coordinate": ('<path d="M 1e999 0 L 3 4" stroke="#000"/>', "<path> (line 2 of the SVG, written at line 3 "
                            "of test/card-front.svg.j2) has the number inf, beyond what a PDF holds"),
    # the element named, and its line (it was "the face has the number 1e+308", no element)
    "huge size": ('<rect width="1e308" height="1e308" fill="#000"/>',
                  "<rect> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has the number 1e+308, beyond"),
    "huge stroke": ('<rect width="3" height="3" fill="#000" stroke="#000" stroke-width="1e309"/>',
                    "<rect> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has the number inf, beyond"),
    "scale beyond a PDF inside a group": ('<g id="outer" transform="scale(2)"><g id="inner" transform="scale(1e308)">'
                                 '<rect width="3" height="3" fill="#000"/></g></g>',
                                 "<g id='inner'> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has the number"),
    # each scale within a PDF's numbers, their product (1e10) not: the element whose own made it so named
    "scales nested beyond a PDF": ('<g id="outer" transform="scale(1e5)"><g id="inner" transform="scale(1e5)">'
                                   '<rect width="3" height="3" fill="#000"/></g></g>',
                                   "<g id='inner'> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has "
                                   "a transform that, with those of the groups around it, comes to 2.83465e+10 (points on the page), "
                                   "beyond what a PDF holds"),
    "a shape's scale in a group's beyond a PDF": ('<g transform="translate(1 1) scale(1e5)">\n<rect transform="scale(1e5)" '
                                                  'width="3" height="3" fill="#000"/></g>',
                                                  "<rect> (line 3 of the SVG, written at line 4 of test/card-front.svg.j2)"
                                                  " has a transform that, with those of the groups around it, comes to "
                                                  "2.83465e+10 (points on the page), beyond what a PDF holds"),
    "image file missing": ('<image href="nope.png" width="3" height="3"/>', "art file 'nope.png' not found"),
    "image data not an image": ('<image href="data:image/png;base64,AAAA" width="3" height="3"/>',
                                "which is not a PNG, JPEG or SVG image"),
    # an SVG picture saved as UTF-16 (with its byte-order mark), as some Windows editors save: said so
    "svg saved as utf-16": ('<image href="data:image/svg+xml;base64,//48AHMAdgBnACAAeABtAGwAbgBzAD0AIgBoAHQAdABwADoALwAvAHcAdwB3AC4AdwAzAC4AbwByAGcALwAyADAAMAAwAC8AcwB2AGcAIgAgAHcAaQBkAHQAaAA9ACIAMwAiACAAaABlAGkAZwBoAHQAPQAiADMAIgAvAD4A" width="3" height="3"/>',
                            "an SVG saved as UTF-16 (expected the SVG saved as UTF-8"),
    "unknown font": ('<text font-family="Nope" x="1" y="2">x</text>', "font-family='Nope', which is not one of the game's fonts"),
    "bad transform": ('<g transform="rotate(abc)"><rect width="3" height="3"/></g>', "has transform='rotate(abc)'"),
    # a <pattern> sends the face to svglib
    "colour svglib cannot read": ('<defs><linearGradient id="g"><stop offset="0" stop-color="#zzz"/></linearGradient>'
                                  '<pattern id="p"/></defs><rect width="3" height="3" fill="url(#g)"/>',
                                  "cannot convert the face ("),
    "shading svglib writes only on save": ('<defs><linearGradient id="g" x1="1e999"><stop offset="0" stop-color="#f00"/>'
                                           '<stop offset="1" stop-color="#00f"/></linearGradient><pattern id="p"/></defs>'
                                           '<rect width="3" height="3" fill="url(#g)"/>',
                                           "cannot convert the face ("),
    "bad gradient stop colour": ('<defs><linearGradient id="g"><stop offset="0" stop-color="#zzz"/></linearGradient></defs>'
                                 '<rect width="3" height="3" fill="url(#g)"/>', "<stop> (line 2 of the SVG, written at line 3 of test/card-front.svg.j2) has stop-color='#zzz'"),
    "gradient beyond a PDF": ('<defs><linearGradient id="g" x1="1e999"><stop offset="0" stop-color="#f00"/>'
                              '</linearGradient></defs><rect width="3" height="3" fill="url(#g)"/>',
                              "has x1='1e999', beyond what a PDF holds"),
    "use that multiplies": ('<defs><rect id="l0" width="1" height="1"/>'
                            + "".join(f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 7))
                            + '</defs><use href="#l6"/>', "makes the face draw more than 100000 elements"),
    # the same in a face svglib would draw (a <style> sheet): svglib expanded it itself, seconds a face
    "use that multiplies in a face svglib draws": (
        '<style>rect { stroke: none }</style><defs><rect id="l0" width="1" height="1"/>'
        + "".join(f'<g id="l{i}">' + f'<use href="#l{i - 1}"/>' * 10 + "</g>" for i in range(1, 7))
        + '</defs><use href="#l6"/>', "makes the face draw more than 100000 elements"),
}


def check(err: str, ws: Path, what: str) -> None:
    """One line, exit 2 checked by the caller: the template file first, the deck, the piece and its
    YAML file:line, what is wrong; no traceback."""
    assert err.startswith("pnpgen: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert re.match(r"pnpgen: error: templates/test/card-front\.svg\.j2(:\d+)?: ", err), err  # relative to the workspace
    assert "deck 'cards' piece " in err and "cards.yaml:" in err and ") front: " in err, err
    assert what in err, err
    if "written at line 3 of test/card-front.svg.j2" in what:  # the line known: said where editors jump to it
        assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2:3: "), err


@pytest.mark.parametrize("case", sorted(CASES))
def test_face_that_does_not_convert(tmp_path, capsys, case):
    markup, what = CASES[case]
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=front_with(markup))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 2
    check(capsys.readouterr().err, ws, what)
    assert not (tmp_path / "out" / "test").exists()


def test_an_svg_pictures_transform_counts_with_the_faces_around_it(tmp_path, capsys):
    """A scale(1e5) inside an SVG picture drawn in a scale(1e5) group: each fine, 1e10 together;
    named as the picture's own errors are, its element and line, in the face that shows it."""
    picture = ("PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIzIiBoZWlnaHQ9IjMiPjxnIHRyYW5zZm9ybT0ic2Nh"
               "bGUoMWU1KSI+PHJlY3Qgd2lkdGg9IjEiIGhlaWdodD0iMSIvPjwvZz48L3N2Zz4=")  # <g transform="scale(1e5)"><rect/>
    front = front_with(f'<g transform="scale(1e5)"><image width="3" height="3" href="data:image/svg+xml;base64,{picture}"/></g>')
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "(image in deck 'cards' piece 1 (祝福, data/test/decks/cards.yaml:9:5) front): <g> (line 1 of the SVG) has a " \
           "transform that, with those of the groups around it, comes to 2.83465e+10 (points on the page), beyond what " \
           "a PDF holds" in err, err
    assert not (tmp_path / "out" / "test").exists()


def test_face_error_keeps_the_last_build(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(front_with('<rect width="abc" height="3"/>'),
                                                                 encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 2
    check(capsys.readouterr().err, ws, "has width='abc'")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_face_error_from_face_workers(tmp_path, capsys):
    """70 pieces: 140 distinct faces, converted in worker processes with --jobs 2."""
    names = [f"札{i}" for i in range(70)]
    front = FRONT.replace(ART, ART + "\n{% if piece.name == '札50' %}<rect width=\"abc\" height=\"3\"/>{% endif %}")
    ws = make_workspace(tmp_path / "ws", pieces=names, front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    check(err, ws, "has width='abc'")
    assert "piece 51 (札50" in err, err


def test_face_error_from_game_workers(tmp_path, capsys):
    """Two games built side by side: the broken one's error comes back whole, and neither is written."""
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    shutil.copytree(ws / "data" / "test", ws / "data" / "good")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "good")
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(front_with('<text font-family="Nope" x="1" y="2">x</text>'),
                                                                 encoding="utf-8")
    out = tmp_path / "out"
    assert run(ws, "build", "--all", "--no-rulebook", "--jobs", "2", "--out", str(out)) == 2
    check(capsys.readouterr().err, ws, "font-family='Nope'")
    assert not (out / "good").exists() and not (out / "test").exists()


def test_face_error_in_export(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 祝福, text: 本文}\n",
                        front=front_with('<rect width="abc" height="3"/>'))
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "--out", str(tmp_path / "out")) == 2
    check(capsys.readouterr().err, ws, "has width='abc'")


@pytest.mark.parametrize("front", [
    '{% include "test/card-front.svg.j2" %}\n',
    '{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(1) }}\n',
], ids=["includes itself", "macro without end"])
def test_a_template_that_calls_itself_without_end_is_told_so(tmp_path, capsys, front):
    """A hostile round: it said only "maximum recursion depth exceeded while calling a Python object"."""
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "templates/test/card-front.svg.j2:1: the template calls itself without end" in err, err
    assert "recursion" not in err and "Traceback" not in err
