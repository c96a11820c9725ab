"""A template that prints SVG that is not XML is named at the template line that wrote the broken
tag, with what to write instead: the designer never sees the printed SVG, whose line and column
were all the message gave before (``line 3, column 138 of the SVG``)."""

from __future__ import annotations

import re

import jinja2
import pytest
from lxml import etree

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.faces.face import Face
from pnpgen.faces.sourcelines import ATTRIBUTE, SourceLines
from pnpgen.faces.templates import Renderer

FRONT = """{{% extends "common/piece.svg.j2" %}}
{{% block art %}}
<rect x="0" y="0" width="{{{{ w }}}}" height="{{{{ h }}}}" fill="#ffffff"/>
{{{{ textbox(piece.name, 5, 5, w - 10, 10) }}}}
{}
<circle cx="10" cy="10" r="3" fill="#000000"/>
{{% endblock %}}
"""

CASES = {
    "a tag never closed": ('<path d="M0 0 L5 5" stroke="#000000">', "card-front.svg.j2:5: ",
                           "<path> is never closed", "<path …/>"),
    "a value without quotes": ('<rect width=4 height="4"/>', "card-front.svg.j2:5: ", "AttValue",
                               'every attribute value in quotes'),
    "a bare ampersand": ('<text x="1" y="9" font-family="{{ fonts.gothic }}" font-size="3">Salt & Sand</text>',
                         "card-front.svg.j2:5: ", "a bare &", "&amp;"),
    "an HTML entity": ('<text x="1" y="9" font-family="{{ fonts.gothic }}" font-size="3">a&nbsp;b</text>',
                       "card-front.svg.j2:5: ", "'nbsp' not defined", "&#160;"),
    "a closing tag too many": ("</g>", "card-front.svg.j2:4: ", "</g> closes no tag the template opened",
                               "each closing tag after the tag it closes"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_invalid_svg_is_named_at_the_template_line(tmp_path, case):
    art, at, what, expected = CASES[case]
    ws = make_workspace(tmp_path / "ws", front=FRONT.format(art))
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    msg = str(e.value)
    assert f"templates/test/{at}the template produced invalid SVG: " in msg.replace(str(ws) + "/", ""), msg
    assert what in msg.split(" (expected ")[0] and expected in msg.split(" (expected ", 1)[1], msg
    assert "of the SVG" not in msg and "column" not in msg, msg
    assert not re.search(r"line \d", msg), msg  # libxml2's 'path line 5 and svg' is a line of the SVG


def test_a_tag_in_an_xml_comment_is_left_as_written():
    """A tag commented out (<!-- <rect …/> -->) got its source-line mark, which holds the template's
    name: a template named x--front.svg.j2 put '--' inside the comment, and its valid SVG was
    refused ('Double hyphen within comment')."""
    env = jinja2.Environment(loader=jinja2.DictLoader({
        "g/x--front.svg.j2": '<svg xmlns="http://www.w3.org/2000/svg"><!-- old: <rect width="1"/>\n{{ 2 }} <g/> -->'
                             '\n<circle r="1"/></svg>'}), extensions=[SourceLines])
    svg = env.get_template("g/x--front.svg.j2").render()
    root = etree.fromstring(svg.encode())  # (valid: the comment holds no mark)
    assert 'old: <rect width="1"/>\n2 <g/> ' in svg
    assert root[-1].get(ATTRIBUTE) == "g/x--front.svg.j2:3" and root.get(ATTRIBUTE) == "g/x--front.svg.j2:1"
