"""A Jinja slip in a template is told in the designer's words, at the line to fix: where the block
left open was opened, the tag, filter or macro meant, the ``%}`` or ``}}`` a line leaves out —
Jinja itself says only where its parser stopped (``expected token ':', got '}'`` on the line
after, ``'grund' is not there``)."""

from __future__ import annotations

import pytest

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.faces.face import Face
from pnpgen.faces.templates import Renderer

FRONT = """{{% extends "common/piece.svg.j2" %}}
{{% import "common/macros.svg.j2" as m with context %}}
{{% block art %}}
{{{{ m.ground("#ffffff") }}}}
{}
<circle cx="10" cy="10" r="3" fill="#000000"/>
{{% endblock %}}
"""

CASES = {  # the lines from 5 on, the line named, what the message says, what it expects
    "a for never closed": ("{% for i in range(2) %}\n<rect width=\"1\" height=\"1\"/>", 8,
                           "the {% for %} of line 5 is never closed", "{% endfor %} where the for block ends"),
    "a tag misspelt": ("{% fro i in range(2) %}{% endfor %}", 5, "unknown tag {% fro %}; did you mean for?", "a Jinja tag"),
    "an end tag misspelt": ("{% if w %}x{% edif %}", 5, "unknown tag {% edif %}; did you mean endif?", "a Jinja tag"),
    "a filter misspelt": ("{{ [1, 2] | lenght }}", 5, "No filter named 'lenght'; did you mean length?", None),
    "a tag left open": ("{% for i in range(2) %\n<g/>\n{% endfor %}", 5, "", "%} closing the {% … %} this line opens"),
    "an expression left open": ('<rect width="{{ w }" height="1"/>', 5, "", "}} closing the {{ … }} this line opens"),
    "an end tag too many": ("{% for i in range(2) %}<g/>{% endfor %}{% endfor %}", 5, "{% endfor %} closes no {% for %}: "
                            "none is open here; the {% block %} of line 3 is the block open there", "{% endfor %} only after"),
    "an end tag of another block": ("{% for i in range(2) %}<g/>{% endif %}", 5, "{% endif %} closes no {% if %}: none is "
                                    "open here; the {% for %} of line 5", "{% endfor %} to close the for"),
    "a set block never closed": ("{% set a = 1 %}{% set big %}<g/>", 7, "the {% set %} of line 5 is never closed",
                                 "{% endset %} where the set block ends"),
    "elseif": ("{% if w %}<g/>{% elseif h %}<g/>{% endif %}", 5, "unknown tag {% elseif %}; did you mean elif?", "a Jinja tag"),
    "else if": ("{% if w %}<g/>{% else if h %}<g/>{% endif %}", 5, "{% else if … %} is no Jinja tag", "{% elif … %}"),
    "a comment left open": ("{# a note", 5, "Missing end of comment tag", "#} closing the {# … #} this line opens"),
    "an end tag naming another block": ("{% endblock arts %}", 5, "{% endblock arts %} names another block than the "
                                        "one it closes, the {% block art %} of line 3", "{% endblock art %}, or "
                                        "{% endblock %}"),
    "a macro misspelt": ('{{ m.grund("#ffffff") }}', 5, "the imported template has no macro 'grund'; did you mean ground?",
                         None),
}


def _first_face_refused(tmp_path, front: str) -> str:
    """The error rendering the first card's front of a workspace with this front template, its
    paths said from the workspace."""
    ws = make_workspace(tmp_path / "ws", front=front)
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    return str(e.value).replace(str(ws) + "/", "")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_template_slip_is_told_at_its_line(tmp_path, case):
    art, line, what, expected = CASES[case]
    msg = _first_face_refused(tmp_path, FRONT.format(art))
    assert msg.startswith(f"templates/test/card-front.svg.j2:{line}: "), msg
    said, _, hint = msg.partition(" (expected ")
    assert what in said, msg
    assert (expected in hint) if expected else not hint or "the imported template" in said, msg


UNPRINTED = {  # a whole template, the line named, what is said
    "art outside the block": ('{% extends "common/piece.svg.j2" %}\n<rect width="5" height="5" fill="#000000"/>\n', 2,
                              "this is outside the blocks of common/piece.svg.j2 it extends, so it is never printed"),
    "art after the block": ('{% extends "common/piece.svg.j2" %}\n{% block art %}<g/>{% endblock %}\n'
                            '{% if w %}<circle r="2"/>{% endif %}\n', 3, "this is outside the blocks"),
    "a block of another name": ('{% extends "common/piece.svg.j2" %}\n{% import "common/macros.svg.j2" as m with '
                                'context %}\n{% block artwork %}<g/>{% endblock %}\n', 3,
                                "{% block artwork %} is no block of common/piece.svg.j2, so what it holds is never "
                                "printed; did you mean art?"),
    "a block inside an if": ('{% extends "common/piece.svg.j2" %}\n{% if w > 100 %}\n{% block art %}<g/>{% endblock %}'
                             '\n{% endif %}\n', 3, "{% block art %} stands inside a {% if %}, which Jinja does not "
                             "apply to a block: the block always fills its place in common/piece.svg.j2"),
    "an include outside the block": ('{% extends "common/piece.svg.j2" %}\n{% include "test/part.svg.j2" %}\n'
                                     '{% block art %}<g/>{% endblock %}\n', 2, "this {% include %} is outside the blocks "
                                     "of common/piece.svg.j2 it extends, so what it includes is printed outside the "
                                     "face's <svg>, never on the face"),
    "an include in an if after the block": ('{% extends "common/piece.svg.j2" %}\n{% block art %}<g/>{% endblock %}\n'
                                            '{% if w %}{% include "test/part.svg.j2" %}{% endif %}\n', 3,
                                            "this {% include %} is outside the blocks"),
    "a block of another name inside a for": ('{% extends "common/piece.svg.j2" %}\n{% for i in [1] %}\n'
                                             '{% block arts %}<g/>{% endblock %}{% endfor %}\n', 3,
                                             "{% block arts %} is no block of common/piece.svg.j2"),
}


@pytest.mark.parametrize("case", sorted(UNPRINTED))
def test_art_jinja_would_leave_out_is_an_error(tmp_path, case):
    """Jinja prints only the blocks of a template that extends another: a template whose drawing
    stood outside {% block art %}, or in {% block artwork %}, built blank faces without a word."""
    front, line, what = UNPRINTED[case]
    ws = make_workspace(tmp_path / "ws", front=front)
    (ws / "templates" / "test" / "part.svg.j2").write_text('<circle r="2"/>\n', encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    msg = str(e.value).replace(str(ws) + "/", "")
    assert msg.startswith(f"templates/test/card-front.svg.j2:{line}: {what}"), msg
    assert "{% block art %}" in msg.partition(" (expected ")[2], msg


def test_a_template_that_extends_nothing_is_told_to(tmp_path):
    ws = make_workspace(tmp_path / "ws", front='<rect width="5" height="5"/>\n<circle r="1"/>\n')
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    assert '{% extends "common/piece.svg.j2" %} first' in str(e.value), e.value


def test_what_jinja_prints_or_what_shows_nothing_outside_the_blocks_is_no_error(tmp_path):
    """Before the {% extends %} Jinja prints what stands there (an XML declaration); an XML
    comment after it shows nothing either way."""
    front = ('<?xml version="1.0" encoding="UTF-8"?>\n{% extends "common/piece.svg.j2" %}\n<!-- Tidewater -->\n'
             '{% block art %}<rect id="t" width="1" height="1"/>{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", front=front)
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    assert 'id="t"' in Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))


def test_a_block_of_a_template_further_up_is_printed(tmp_path):
    """A child of the game's own base template fills a block the base only inherits (art, from
    common/piece.svg.j2) or adds (title): no error, and its art is drawn."""
    base = '{% extends "common/piece.svg.j2" %}\n{% block art %}<g id="base">{% block title %}{% endblock %}</g>{% endblock %}\n'
    plain = '{% extends "common/piece.svg.j2" %}\n'
    for i, (parent, child) in enumerate([(base, '{% block title %}<rect id="t" width="1" height="1"/>{% endblock %}'),
                                         (plain, '{% block art %}<rect id="t" width="1" height="1"/>{% endblock %}')]):
        front = '{% extends "test/base.svg.j2" %}\n' + child + "\n"
        ws = make_workspace(tmp_path / f"ws{i}", front=front)
        (ws / "templates" / "test" / "base.svg.j2").write_text(parent, encoding="utf-8")
        game = load_game(Workspace(ws), "test")
        deck = game.decks[0]
        assert 'id="t"' in Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))


def test_a_macro_file_of_the_games_imported_without_context_is_told_to_take_it(tmp_path):
    """A macro of templates/<slug>/_lib.svg.j2 imported without 'with context' stopped at "'w' is
    undefined", nothing said of why (pnpgen's own macros were told the import line to write)."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% import "test/_lib.svg.j2" as my %}\n'
             '{% block art %}{{ my.label("x") }}{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", front=front)
    (ws / "templates" / "test" / "_lib.svg.j2").write_text(
        '{% macro label(t) %}\n<rect width="{{ w }}" height="1"/>{% endmacro %}\n', encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    msg = str(e.value).replace(str(ws) + "/", "")
    assert msg.startswith("templates/test/_lib.svg.j2:2: 'w' is undefined"), msg
    assert '(expected {% import "test/_lib.svg.j2" as … with context %} in the template that imports it' in msg, msg


@pytest.mark.parametrize(("art", "said", "expected"), [
    # trial80: a hexagon's corners or letters round a circle reached for sin(): told what templates have instead
    ('{% set x = 10 * sin(1) %}', "'sin' is undefined", "no trigonometry in templates: shape.hex_corners() for a "
     "hexagon's corners, SVG's transform=\"rotate(angle cx cy)\""),
    # a helper held in a namespace written bare: the namespace's name told
    ('{% set c = hex_corners(w / 2, h / 2, 10) %}', "'hex_corners' is undefined; did you mean shape.hex_corners()?",
     "shape.hex_corners(…), as docs/data-format.md gives it"),
])
def test_a_name_templates_do_not_have_is_told_what_they_have_instead(tmp_path, art, said, expected):
    front = '{% extends "common/piece.svg.j2" %}\n{% block art %}' + art + '<rect width="1" height="1"/>{% endblock %}\n'
    msg = _first_face_refused(tmp_path, front)
    assert msg.startswith(f"templates/test/card-front.svg.j2:2: {said}"), msg
    assert f"(expected {expected}" in msg, msg
