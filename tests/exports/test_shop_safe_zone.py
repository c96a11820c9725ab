"""An export measures text against the shop's own safe zone, as the shop prints the face."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run

# the name's text box starts 3.1 mm inside the left trim: outside pnpgen's 3 mm safe zone, inside
# DriveThruCards' and The Game Crafter's 1/8 in (3.175 mm)
NEAR_EDGE = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
{{ textbox(piece.name, 3.1, 40, 30, 8, size=9) }}
{% endblock %}
"""


def _warnings(tmp_path, preset: str, *extra: str) -> list[str]:
    deck = DECK_YAML + "  - {name: 端, text: 本文}\n"
    root = make_workspace(tmp_path, deck=deck, front=NEAR_EDGE)
    assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
    found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in found if "safe zone" in w]


def test_text_inside_the_shops_safe_zone_is_warned(tmp_path):
    """DriveThruCards asks for text 1/8 in (3.175 mm) inside the trim ("Common Card Prep Issues &
    Solutions"); text 3.1 mm in, scaled ×1.010 onto its 2.5×3.5 in card and centred (3.06 mm),
    passes the build's 3 mm but not the shop: the export names the template line and the shop."""
    [line] = _warnings(tmp_path, "drivethrucards", "--fit", "scale")
    assert line == ("templates/test/card-front.svg.j2:4: print lint: deck 'cards' piece 1 (端): text 「端」 "
                    "3.1 mm from the trim, inside the 3.175 mm safe zone DriveThruCards asks for "
                    "(a drifted cut may take it)"), line


def test_the_safe_zone_is_measured_where_the_format_puts_the_face(tmp_path):
    """--fit bleed keeps the 63 mm art at its size, centred on The Game Crafter's 63.5 mm card: the
    text stands 3.35 mm inside that trim, outside its 1/8 in zone; 同人's 3 mm zone holds it too."""
    assert _warnings(tmp_path / "tgc", "thegamecrafter", "--fit", "bleed") == []
    assert _warnings(tmp_path / "doujin", "doujin") == []
