"""Issue 13: the template vocabulary ships inside pnpgen — common/ templates and icons, a
placeholder-aware colour(), tint/shade filters, hex_points() — and a workspace may replace a
built-in template with its own file."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from lxml import etree

from conftest import make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.model import OPEN_COLOUR, PLACEHOLDER_COLOUR
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.faces.face import Face
from pnpgen.faces.helpers import mix
from pnpgen.faces.templates import Renderer
from pnpgen.shapes import hex_corners
from pnpgen.svg import convert

SVG = "{http://www.w3.org/2000/svg}"
DECK = """\
name: テストチップ
size: 40
shape: hex
front: chip-front.svg.j2
fields: {name: text, colour: colour}
pieces:
  - {name: 赤, colour: red}
  - {name: 未, colour: 未定（色は草案に記載なし）}
  - {name: 無}
"""


def _render(tmp_path, art: str, files: dict[str, str] | None = None) -> list[etree._Element]:
    front = '{% extends "common/piece.svg.j2" %}{% block art %}' + art + "{% endblock %}"
    ws = make_workspace(tmp_path / "ws", deck=DECK)
    (ws / "templates" / "test" / "chip-front.svg.j2").write_text(front, encoding="utf-8")
    for name, text in (files or {}).items():
        (ws / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / "templates" / name).write_text(text, encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    renderer = Renderer(ws / "templates", game, 3.0)
    deck = game.decks[0]
    return [etree.fromstring(renderer.render(Face(deck, p, "front")).encode()) for p in deck.pieces]


def _fills(root) -> list[str]:
    return [e.get("fill") for e in root.iter(f"{SVG}rect")]


def test_workspace_without_common_uses_the_built_in_templates(tmp_path):
    assert not (tmp_path / "ws" / "templates" / "common").exists()
    roots = _render(tmp_path, '{% import "common/macros.svg.j2" as m with context %}{{ m.ground("red") }}')
    assert roots[0].tag == f"{SVG}svg" and roots[0].get("width") == "46.0mm"  # common/piece.svg.j2: trim + bleed
    assert _fills(roots[0]) == ["#cc3333"]  # the palette's red, as textbox(), icon() and track() read it


def test_the_macros_take_palette_names_and_any_svg_colour(tmp_path):
    """m.badge(…, "storm") printed fill='storm' and the face stopped as 'not a colour' at a line of
    pnpgen's macros, while its ink= (a textbox's fill) took the palette name: every colour of a
    macro is a palette name or an SVG colour as given."""
    roots = _render(tmp_path, '{% import "common/macros.svg.j2" as m with context %}{{ m.ground("white") }}'
                              '{{ m.frame("ink", "red") }}{{ m.badge(1, 20, 20, 5, "red", stroke="ink") }}'
                              '{{ m.text_panel("x", 5, 5, 20, 10, "#abcdef", "red") }}{{ m.band(5, 3, "none") }}')
    rects = list(roots[0].iter(f"{SVG}rect"))
    assert [(r.get("fill"), r.get("stroke")) for r in rects] == [
        ("white", None), ("#222222", "#cc3333"), ("#abcdef", "#cc3333"), ("none", None)]
    (circle,) = roots[0].iter(f"{SVG}circle")
    assert (circle.get("fill"), circle.get("stroke")) == ("#cc3333", "#222222")


def test_a_macros_misspelt_palette_name_is_told_at_the_designers_line_and_an_open_colour_is_grey(tmp_path):
    """m.frame("acent", …) stopped at a line of pnpgen's macros as fill='acent' 'not a colour', the
    palette unnamed; a piece's colour left 未定 stopped there too, where colour() gives it grey; and
    ink="white", an SVG colour as the docs say the macros take, was 'unknown colour'."""
    with pytest.raises(InputError) as e:
        _render(tmp_path / "a", '{% import "common/macros.svg.j2" as m with context %}\n{{ m.frame("rde", "ink") }}')
    msg = str(e.value)
    assert "chip-front.svg.j2:2: " in msg and "unknown colour 'rde'; did you mean red?" in msg, msg
    roots = _render(tmp_path / "b", '{% import "common/macros.svg.j2" as m with context %}{{ m.ground(piece.colour) }}'
                                    '{{ m.title("x", 5, ink="white") }}{{ m.title("y", 15, ink=piece.colour) }}')
    assert [_fills(r) for r in roots] == [["#cc3333"], [OPEN_COLOUR], [OPEN_COLOUR]]
    # a text's ink as the docs give it: white (textbox() took only a palette name or hex), an open one grey
    assert [[t.get("fill") for t in r.iter(f"{SVG}text")] for r in roots] == [
        ["#ffffff", "#cc3333"], ["#ffffff", OPEN_COLOUR], ["#ffffff", OPEN_COLOUR]]


def test_the_placeholder_stamp_sets_its_text_on_a_ground_that_differs_from_its_ink(tmp_path):
    """未定 is a placeholder, so the stamp's text takes the placeholder colour: the pill under it
    must be another colour, or the word cannot be read."""
    root = _render(tmp_path, '{% import "common/macros.svg.j2" as m with context %}{{ m.placeholder_stamp(5, 5) }}')[0]
    pill = next(e for e in root.iter(f"{SVG}rect") if e.get("width") == "10")
    text = next(root.iter(f"{SVG}text"))
    assert text.text == "未定"
    assert pill.get("fill").lower() == "#ffffff" and text.get("fill").lower() == PLACEHOLDER_COLOUR.lower()
    assert pill.get("stroke").lower() == PLACEHOLDER_COLOUR.lower()


def test_macros_imported_without_context_say_how_to_import_them(tmp_path, capsys):
    front = ('{% extends "common/piece.svg.j2" %}{% import "common/macros.svg.j2" as m %}'
             '{% block art %}{{ m.ground("#ffffff") }}{% endblock %}')
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "card-front.svg.j2:1: 'bleed' is undefined" in err and "(in pnpgen's common/macros.svg.j2:" in err, err
    assert '(expected {% import "common/macros.svg.j2" as m with context %}' in err, err


@pytest.mark.parametrize("call, meant", [('color("red")', "colour"), ("textbx(piece.name, 5, 5, 20, 8)", "textbox")])
def test_a_helper_name_one_slip_away_is_told_the_one_meant(tmp_path, capsys, call, meant):
    """English trial: ``color("red")`` (the American spelling) was told only "'color' is undefined"."""
    front = f'{{% extends "common/piece.svg.j2" %}}{{% block art %}}\n<rect width="5" height="5" fill="{{{{ {call} }}}}"/>{{% endblock %}}'
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    name = call.split("(")[0]
    assert f"card-front.svg.j2:2: '{name}' is undefined; did you mean {meant}? (rendering deck 'cards'" in err, err


def test_colour_of_a_placeholder_or_empty_value_is_the_default_or_neutral_grey(tmp_path):
    roots = _render(tmp_path, '<rect fill="{{ colour(piece.colour) }}"/><rect fill="{{ colour(piece.colour, \'#123456\') }}"/>')
    assert [_fills(r) for r in roots] == [["#cc3333", "#cc3333"], ["#9a9a9a", "#123456"], ["#9a9a9a", "#123456"]]


def test_colour_still_refuses_an_unknown_name(tmp_path):
    with pytest.raises(InputError, match="unknown colour 'blue'") as e:
        _render(tmp_path, '<rect fill="{{ colour("blue") }}"/>')
    assert str(e.value.path).endswith("chip-front.svg.j2") and e.value.line == 1


def test_tint_and_shade_mix_solid_colours(tmp_path):
    roots = _render(tmp_path, '<rect fill="{{ piece.colour | tint(0.5) }}"/><rect fill="{{ piece.colour | shade(0.25) }}"/>'
                              '<rect fill="{{ "#000" | tint(0.5, "red") }}"/>')
    # red #cc3333: halfway to white, a quarter to black; a 未定 colour mixes the neutral grey
    assert _fills(roots[0]) == ["#e69999", "#992626", "#661a1a"]
    assert _fills(roots[1])[:2] == [mix("#9a9a9a", "#ffffff", 0.5), mix("#9a9a9a", "#000000", 0.25)] == ["#cccccc", "#747474"]


def test_hex_points_is_the_shapes_hexagon(tmp_path):
    (root, *_) = _render(tmp_path, '<polygon points="{{ hex_points(20, 30, 10) }}"/>'
                                   '<polygon points="{{ hex_points(20, 30, 10, "flat") }}"/>')
    for poly, orientation in zip(root.iter(f"{SVG}polygon"), ("pointy", "flat")):
        got = [float(v) for p in poly.get("points").split() for v in p.split(",")]
        assert got == pytest.approx([v for p in hex_corners(20, 30, 10, orientation) for v in p], abs=1e-3)
    assert next(root.iter(f"{SVG}polygon")).get("points") == "20,24.226 25,27.113 25,32.887 20,35.774 15,32.887 15,27.113"


def test_outline_and_centres_of_the_hex(tmp_path):
    (root, *_) = _render(tmp_path, '<path d="{{ outline(-2) }}"/>{% for x, y in shape.centres %}'
                                   '<circle cx="{{ x }}" cy="{{ y }}" r="1"/>{% endfor %}')
    circle = next(root.iter(f"{SVG}circle"))
    assert (float(circle.get("cx")), float(circle.get("cy"))) == pytest.approx((20, 40 / math.sqrt(3)))
    assert next(root.iter(f"{SVG}path")).get("d").startswith("M20 2.309 L")  # 2 mm inside the top corner


def test_a_workspace_file_replaces_the_built_in_one(tmp_path):
    macros = '{% macro ground(fill) %}<rect fill="#010203"/>{% endmacro %}'
    roots = _render(tmp_path, '{% import "common/macros.svg.j2" as m with context %}{{ m.ground("red") }}',
                    files={"common/macros.svg.j2": macros})
    assert _fills(roots[0]) == ["#010203"]


def test_the_built_in_templates_keep_the_containment_guarantee(tmp_path):
    (tmp_path / "secret.svg.j2").write_text("<svg/>", encoding="utf-8")
    for name in ("common/../../secret.svg.j2", "common/../__init__.py", "../secret.svg.j2"):
        with pytest.raises(InputError, match="template: " + name.replace(".", r"\.")):
            _render(tmp_path / name.replace("/", "_"), '{% include "' + name + '" %}')


def test_built_in_icons_are_found_without_a_common_folder(tmp_path):
    (root, *_) = _render(tmp_path, '{{ icon("coin", 1, 1, 5) }}')
    assert len(list(root.iter(f"{SVG}g"))) >= 1


def test_a_fresh_workspace_builds(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert sorted(p.name for p in (ws / "templates").iterdir()) == ["test"]
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 0
    assert (tmp_path / "out" / "test" / "cards.pdf").is_file()


def _refused_front(tmp_path, art: str) -> tuple[Path, str]:
    """The chip deck's front template made of ``art`` (from its line 2), and the message its first
    piece's front is refused with."""
    front = '{% extends "common/piece.svg.j2" %}{% block art %}\n' + art + "{% endblock %}"
    ws = make_workspace(tmp_path / "ws", deck=DECK)
    template = ws / "templates" / "test" / "chip-front.svg.j2"
    template.write_text(front, encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    deck = game.decks[0]
    with pytest.raises(InputError) as e:
        Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[0], "front"))
    return template, str(e.value)


def test_a_bad_colour_given_to_a_macro_is_named_at_the_line_calling_it(tmp_path):
    """m.badge(…, "stom") stopped naming only the template file and line 20 of pnpgen's macros:
    the designer's line that gave the value is named, and the palette's names told."""
    art = ('{% import "common/macros.svg.j2" as m with context %}\n{{ m.ground("white") }}\n'
           '{{ m.badge(1, 20, 20, 5, "stom") }}\n')
    template, msg = _refused_front(tmp_path, art)
    assert msg.startswith(f"{template}:4: ") and "unknown colour 'stom'" in msg, msg
    assert "(expected a palette name (red, ink) or '#rrggbb')" in msg, msg


def test_textbox_fill_takes_a_css_colour_name_as_paint_does(tmp_path):
    """textbox(…, fill="white") was refused ("unknown colour 'white'") though paint() and the
    layouts take CSS names: it is read as paint(name, text=True) reads it, by keyword or position."""
    roots = _render(tmp_path, '{{ textbox("x", 1, 1, 10, 10, fill="white") }}'
                              '{{ textbox("y", 1, 1, 10, 10, 9, 6, "gothic", "left", "top", 1.35, "navy") }}'
                              '{{ textbox("z", 1, 1, 10, 10, fill="ink") }}')
    assert [t.get("fill") for t in roots[0].iter(f"{SVG}text")] == ["#ffffff", "#000080", "#222222"]


def test_textbox_fill_of_an_unknown_word_still_names_the_line_palette_and_piece(tmp_path):
    template, msg = _refused_front(tmp_path, '{{ textbox(piece.name, 1, 1, 10, 10, fill="whte") }}\n')
    assert msg.startswith(f"{template}:2: ") and "textbox fill: unknown colour 'whte'" in msg, msg
    assert "deck 'cards' piece 1 (赤" in msg and "field 'name'" in msg, msg
    assert "(expected a palette name (red, ink) or '#rrggbb')" in msg, msg


def test_a_palette_name_wins_over_the_css_colour_wherever_pnpgen_reads_it_and_not_in_a_bare_attribute(tmp_path):
    """The docs' rule for a palette colour named as a CSS colour (`red` in a palette that defines
    it): the palette's wherever a helper or macro reads the name (colour(), paint(), textbox(),
    track(), the macros), CSS's where the template writes the word straight into SVG."""
    roots = _render(tmp_path, '{% import "common/macros.svg.j2" as m with context %}{{ m.ground("red") }}'
                              '<rect id="bare" width="1" height="1" fill="red"/>'
                              '<rect fill="{{ paint(\'red\') }}"/><rect fill="{{ colour(\'red\') }}"/>{{ textbox("x", 1, 1, 10, 10, fill="red") }}')
    assert _fills(roots[0]) == ["#cc3333", "red", "#cc3333", "#cc3333"]
    assert [t.get("fill") for t in roots[0].iter(f"{SVG}text")] == ["#cc3333"]
    art = convert(etree.tostring(roots[0]).decode(), "f")  # the bare word as SVG reads it: CSS's red
    assert [item[1:] for item in art.items if item[0] == "fill"] == [(0.8, 0.2, 0.2), (1.0, 0.0, 0.0), (0.8, 0.2, 0.2)]
