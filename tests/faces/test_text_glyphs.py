"""A ``<text>`` is set in the one font its ``font-family`` names, with no fallback: a character
that font lacks (Japanese in a Latin title font) printed as an empty box, and check said ok
(trial86). It stops at the template's line, naming the characters and the game's fonts that have
them; the same characters in a ``<tspan>`` of such a font print."""

from __future__ import annotations

from pypdf import PdfReader

from conftest import GAME_YAML, make_workspace, run

GAME = GAME_YAML + "fonts:\n  title: NotoSerif-Regular\n"
DECK = ("name: カード\nformat: poker\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
        "fields: {name: text}\npieces:\n")


def _front(text: str) -> str:
    return '{% extends "common/piece.svg.j2" %}\n{% block art %}\n' + text + "\n{% endblock %}\n"


def test_a_character_the_texts_font_lacks_stops_at_the_template_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", game=GAME, deck=DECK + "  - {name: Warden}\n  - {name: 鉄根 Warden}\n",
                        front=_front('<text x="5" y="10" font-family="{{ fonts.title }}" font-size="4">'
                                     '{{ piece.name }}</text>'))
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr()
    out = (err.out + err.err).replace(str(ws), "WS")
    assert "Traceback" not in out
    assert "templates/test/card-front.svg.j2:3:" in out and "piece 2 (鉄根 Warden" in out, out
    assert "sets '鉄' (U+9244), '根' (U+6839) in NotoSerif-Regular, which has no glyph for them" in out
    assert 'font-family="BIZUDGothic-Regular"' in out
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert not (ws / "build" / "test").exists()


def test_the_same_characters_in_a_tspan_of_a_font_that_has_them_print(tmp_path):
    ws = make_workspace(tmp_path / "ws", game=GAME, deck=DECK + "  - {name: Warden}\n",
                        front=_front('<text x="5" y="10" font-family="{{ fonts.title }}" font-size="4">'
                                     '{{ piece.name }} <tspan font-family="{{ fonts.gothic }}">鉄根</tspan></text>'))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 0
    text = PdfReader(tmp_path / "out" / "test" / "cards.pdf").pages[0].extract_text()
    assert "Warden" in text and "鉄根" in text

