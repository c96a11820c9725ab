"""What an export checks of the faces and files it sends against the shop: its safe zone, its file names."""

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


def test_a_deck_whose_file_names_an_uploader_may_refuse_is_warned(tmp_path):
    """A deck file named in Japanese and with a space names its shop files so ('役割 カード.pdf');
    Japanese printers ask for file names of 半角英数字 (株式会社栄光's 原稿作成共通設定): the export
    says so, naming the deck file; a deck named cards is not warned, nor a virtual table's export."""
    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 王, text: 本文}\n")
    decks = root / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "役割 カード.yaml")
    (decks / "plain.yaml").write_text(DECK_YAML + "  - {name: 兵, text: 本文}\n", encoding="utf-8")
    warned = []
    for preset, extra in (("doujin", ()), ("tabletopsimulator", ())):
        assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
        found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
        warned.append([w for w in found if "半角英数字" in w])
    assert (root / "build" / "test" / "doujin" / "役割 カード.pdf").is_file()
    assert warned == [[
        "data/test/decks/役割 カード.yaml: deck '役割 カード' names the files sent to 同人印刷所（トンボ付きPDF） "
        "('役割 カード.pdf'); many printers' upload forms take file names of half-width letters, digits, - and _ "
        "only (半角英数字): rename the deck file to such a name if the shop refuses them"], []]
