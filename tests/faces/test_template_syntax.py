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
from pnpgen.faces.templates import Face, Renderer

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
    "a macro misspelt": ('{{ m.grund("#ffffff") }}', 5, "the imported template has no macro 'grund'; did you mean ground?",
                         None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_template_slip_is_told_at_its_line(tmp_path, case):
    art, line, what, expected = CASES[case]
    ws = make_workspace(tmp_path / "ws", front=FRONT.format(art))
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    msg = str(e.value).replace(str(ws) + "/", "")
    assert msg.startswith(f"templates/test/card-front.svg.j2:{line}: "), msg
    said, _, hint = msg.partition(" (expected ")
    assert what in said, msg
    assert (expected in hint) if expected else not hint or "the imported template" in said, msg
