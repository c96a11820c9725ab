"""A face svglib draws (outside the own converter's subset) follows the same font rule as every
other face: a ``<text>`` in a font the game does not use is an error naming the template's file
and line (exit 2), not text quietly set in a default font."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from conftest import make_workspace, run
from pnpgen.svg import convert

GRADIENT = ('<defs><linearGradient id="g"><stop offset="0" stop-color="#ff0000"/>'
            '<stop offset="1" stop-color="#0000ff"/></linearGradient><filter id="f"/></defs>\n')  # the filter: svglib


def _front(text: str, gradient: bool) -> str:
    """A card front: a gradient beside a filter (which only svglib draws) or a flat fill, then ``text``
    on line 5."""
    return ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
            + (GRADIENT if gradient else "<!-- flat -->\n")
            + f'<rect x="0" y="0" width="20" height="20" fill="{"url(#g)" if gradient else "#cc3333"}"/>\n'
            + text + "\n{% endblock %}\n")


def _error(tmp_path: Path, name: str, text: str, gradient: bool, capsys) -> str:
    ws = make_workspace(tmp_path / name, front=_front(text, gradient))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert not (ws / "build" / "test").exists()
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err.replace(str(ws), "WS")


def test_the_gradient_face_is_one_svglib_draws():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="20mm" viewBox="0 0 20 20">'
           + GRADIENT + '<rect width="20" height="20" fill="url(#g)"/></svg>')
    assert convert(svg, "test").fallback is not None


def test_unknown_font_in_a_fallback_face_is_the_same_error_as_in_an_own_face(tmp_path, capsys):
    text = '<text x="5" y="15" font-family="NoSuchFont" font-size="4">{{ piece.name }}</text>'
    drawn_by_svglib = _error(tmp_path, "fallback", text, True, capsys)
    drawn_by_own = _error(tmp_path, "own", text, False, capsys)
    assert drawn_by_svglib.startswith("pnpgen: error: templates/test/card-front.svg.j2:5: font-family: ")
    assert "<text> font-family='NoSuchFont', which is not one of the game's fonts (expected one of " in drawn_by_svglib
    assert "piece 1 (カード1" in drawn_by_svglib
    assert drawn_by_svglib == drawn_by_own


def test_text_without_a_font_in_a_fallback_face_is_an_error(tmp_path, capsys):
    err = _error(tmp_path, "none", '<text x="5" y="15" font-size="4">{{ piece.name }}</text>', True, capsys)
    assert re.search(r"card-front\.svg\.j2:5: font-family: .*<text> has no font-family \(expected one of ", err), err


def test_a_fallback_face_in_a_game_font_still_builds(tmp_path):
    text = '<text x="5" y="15" font-family="{{ fonts.gothic }}" font-size="4">{{ piece.name }}</text>'
    ws = make_workspace(tmp_path / "ok", pieces=["カード1"], front=_front(text, True))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    page = PdfReader(ws / "build" / "test" / "shop" / "cards-unique.pdf").pages[0].extract_text()
    assert "カード1" in page


def test_an_unknown_font_says_how_a_font_of_fonts_becomes_one_a_template_may_name(tmp_path, capsys):
    """The list of fonts a template may name holds only those game.yaml's fonts: names (and the
    default roles'): a template author with another .ttf in fonts/ read it as a list of what was
    there and found theirs missing (trial41)."""
    text = '<text x="5" y="15" font-family="NoSuchFont" font-size="4">{{ piece.name }}</text>'
    err = _error(tmp_path, "own", text, False, capsys)
    assert "another .ttf of fonts/ once game.yaml names it under a role of your own" in err, err
    assert "fonts: {quote: DejaVuSerif-Italic}, written fonts.quote" in err, err


def test_a_face_svglib_draws_without_text_builds_in_a_process_whose_text_was_measured_from_kept_tables(tmp_path):
    """hostile47: a build with the machine cache warm measures text from the fonts' kept tables and
    never registers a font with ReportLab; a face svglib draws that holds no text of its own (a
    <switch> of shapes) named the page's starting font in its ReportLab page all the same, which
    stopped the build with ReportLab's KeyError "no afm found for faceName='BIZUDPGothic-Regular'",
    a traceback. The second build, in a fresh process of a warm cache, writes the first's bytes."""
    import subprocess
    import sys

    from conftest import child_env

    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n<switch><rect x="-3" y="-3" width="69" height="94" '
             'fill="#123456"/></switch>\n{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", front=front, pieces=["A"])
    env = child_env(PNPGEN_CACHE=str(tmp_path / "cache"))
    for out in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "-q", "--no-rulebook",
                               "--out", out], cwd=ws, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert (ws / "warm" / "test" / "cards.pdf").read_bytes() == (ws / "cold" / "test" / "cards.pdf").read_bytes()
