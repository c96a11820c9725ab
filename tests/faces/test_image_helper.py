"""Issue 9: the image() helper places art by fit/focus/clip in mm, draws a placeholder frame for
art still to come, and measures the resolution of every placement."""

from __future__ import annotations

import dataclasses
import re

import pytest
from lxml import etree
from PIL import Image

from conftest import make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.faces.face import Face
from pnpgen.faces.templates import Renderer

DECK = """\
name: テストカード
format: poker
front: card-front.svg.j2
fields: {name: text, art: image}
pieces:
  - {name: 竜, art: dragon.png, count: 3}
  - {name: 鳥, art: 未定}
  - {name: 馬}
"""


def _front(call: str) -> str:
    return ('{% extends "common/piece.svg.j2" %}{% block art %}'
            + "{{ " + call + " }}" + "{% endblock %}")


def render(tmp_path, call: str, art_px=(600, 300), min_dpi: float = 300.0, piece: int = 0):
    ws = make_workspace(tmp_path / "ws", deck=DECK, front=_front(call))
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", art_px, (10, 20, 30)).save(ws / "data" / "test" / "art" / "dragon.png")
    (ws / "data" / "test" / "art" / "v.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 40"/>', encoding="utf-8")
    game = load_game(Workspace(ws), "test")
    renderer = Renderer(ws / "templates", game, 3.0, min_dpi=min_dpi)
    deck = game.decks[0]
    svgs = [renderer.render(Face(deck, p, "front", c)) for p in deck.pieces for c in range(1, p.count + 1)]
    return renderer, svgs[piece], svgs


def _image(svg: str) -> dict:
    root = etree.fromstring(svg.encode())
    (img,) = root.iter("{http://www.w3.org/2000/svg}image")
    return {k: (float(v) if k in ("x", "y", "width", "height") else v) for k, v in img.attrib.items()}


def test_cover_fills_the_box_and_crops_to_it(tmp_path):
    _, svg, _ = render(tmp_path, 'image(piece.art, 10, 20, 40, 40)')
    img = _image(svg)  # 2:1 picture in a square: 80×40 mm, centred
    assert (img["x"], img["y"], img["width"], img["height"]) == pytest.approx((-10, 20, 80, 40))
    assert img["href"] == "dragon.png" and img["preserveAspectRatio"] == "none"
    assert re.search(r'<clipPath id="art1"><rect x="10" y="20" width="40" height="40"/></clipPath>'
                     r'<g clip-path="url\(#art1\)"><image', svg)


def test_focus_keeps_the_chosen_part(tmp_path):
    _, svg, _ = render(tmp_path, 'image(piece.art, 10, 20, 40, 40, focus=(0, 0.5))')
    assert _image(svg)["x"] == pytest.approx(10)  # the left edge kept
    _, svg, _ = render(tmp_path / "b", 'image(piece.art, 10, 20, 40, 40, focus=(1, 0.5))')
    assert _image(svg)["x"] == pytest.approx(-30)  # the right edge kept


def test_contain_and_stretch(tmp_path):
    _, svg, _ = render(tmp_path, 'image(piece.art, 10, 20, 40, 40, fit="contain")')
    img = _image(svg)
    assert (img["x"], img["y"], img["width"], img["height"]) == pytest.approx((10, 30, 40, 20))
    assert "clipPath" not in svg  # nothing overflows
    _, svg, _ = render(tmp_path / "b", 'image(piece.art, 10, 20, 40, 40, fit="stretch")')
    img = _image(svg)
    assert (img["x"], img["y"], img["width"], img["height"]) == pytest.approx((10, 20, 40, 40))


def test_clip_to_an_outline_and_background(tmp_path):
    _, svg, _ = render(tmp_path, 'image(piece.art, 0, 0, w, h, clip=outline(-1), background="red")')
    assert re.search(r'<clipPath id="art1c"><path d="M', svg) and 'clip-path="url(#art1c)"' in svg
    assert _image(svg)["href"] == "dragon.png#bg=cc3333"  # alpha goes onto the palette's red


def test_svg_art_keeps_its_aspect(tmp_path):
    _, svg, _ = render(tmp_path, 'image("v.svg", 0, 0, 40, 40, fit="contain")')
    img = _image(svg)
    assert (img["x"], img["width"], img["height"]) == pytest.approx((15, 10, 40))


def test_placeholder_frame_names_the_piece(tmp_path):
    """Art to come is a light cross-hatch in a thin solid frame: no dashed line (its dashed magenta
    frame passed for a board's glue strip, printed the same way) and no line corner to corner."""
    _, _, svgs = render(tmp_path, 'image(piece.art, 5, 5, 50, 40)')
    for svg, name in ((svgs[3], "鳥"), (svgs[4], "馬")):
        assert "<image" not in svg and "dasharray" not in svg
        assert '<rect x="5" y="5" width="50" height="40" fill="none" stroke="#f7b3d8" stroke-width="0.5"/>' in svg
        root = etree.fromstring(svg.encode())
        (hatch,) = [p for p in root.iter("{*}path") if p.get("stroke") == "#f7b3d8"]
        lines = [tuple(map(float, m)) for m in re.findall(r"M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)", hatch.get("d"))]
        assert len(lines) == 2 * 26, lines  # every 3.33 mm (a twelfth of 40 mm) both ways: 90 mm / 3.33 - 1
        for x0, y0, x1, y1 in lines:
            assert 5 <= min(x0, x1) and max(x0, x1) <= 55 + 1e-6 and 5 <= min(y0, y1) and max(y0, y1) <= 45 + 1e-6
            assert abs(x1 - x0) == pytest.approx(abs(y1 - y0)) and abs(x1 - x0) > 0  # at 45°, inside the box
        assert {(x1 - x0 > 0) == (y1 - y0 > 0) for x0, y0, x1, y1 in lines} == {True, False}  # both ways
        assert [t.text for t in root.iter("{*}text")] == ["画像未定", name]


def test_placeholder_frame_in_a_box_no_line_fits_has_no_label(tmp_path):
    """An art slot of 2 mm warned that its label did not fit; one of 0.01 mm stopped the build with
    'textbox w=0.008', a box of pnpgen's own: the frame alone, without a word."""
    for size in ("2", "0.01"):
        _, _, svgs = render(tmp_path / size, f'image(piece.art, 5, 5, {size}, {size})')
        assert "<text" not in svgs[3] and f'width="{size}" height="{size}" fill="none"' in svgs[3], svgs[3]


def test_placeholder_frame_names_the_file_to_come(tmp_path):
    """``art: 未定 dragon2.png`` names the picture to come on the frame, under the piece's name;
    markup characters in it print as they are."""
    deck = DECK.replace("art: 未定}", "art: 未定 dragon2.png}").replace("{name: 馬}", "{name: 馬, art: \"TBD {vp}\"}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=_front('image(piece.art, 5, 5, 50, 40)'))
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (60, 30), (10, 20, 30)).save(ws / "data" / "test" / "art" / "dragon.png")
    game = load_game(Workspace(ws), "test")
    deck_ = game.decks[0]
    renderer = Renderer(ws / "templates", game, 3.0)
    said = [[t.text for t in etree.fromstring(renderer.render(Face(deck_, p, "front", 1)).encode()).iter("{*}text")]
            for p in deck_.pieces[1:]]
    assert said == [["画像未定", "鳥", "dragon2.png"], ["画像未定", "馬", "{vp}"]], said


def test_low_resolution_warns_once_with_the_figure(tmp_path):
    # 600 px across 80 mm drawn (cover of a 40 mm box) = 190.5 dpi
    renderer, _, _ = render(tmp_path, 'image(piece.art, 10, 20, 40, 40)')
    warnings = [w for w in renderer.warnings if "dpi" in w]
    assert len(warnings) == 1, warnings  # three copies, one warning
    assert "cards.yaml:6:5: deck cards, piece 竜: art/dragon.png: 190 dpi at 40×40 mm, 300 wanted" in warnings[0]
    (record,) = renderer.art.images()
    assert record == {"file": "art/dragon.png", "deck": "cards", "piece": "竜", "kind": "raster", "pixels": [600, 300],
                      "box_mm": [40.0, 40.0], "dpi": 190, "enough": False}


def test_150_dpi_placement(tmp_path):
    # 1181 px over 200 mm = 150 dpi
    renderer, _, _ = render(tmp_path, 'image(piece.art, 0, 0, 200, 100, fit="stretch")', art_px=(1181, 591))
    assert any("art/dragon.png: 150 dpi at 200×100 mm, 300 wanted" in w for w in renderer.warnings)


def test_low_resolution_names_the_box_to_a_tenth_of_a_millimetre(tmp_path):
    """A box of 200/7 mm (a layout's thirds, a shop's --fit scale) is said as a designer measures it,
    28.6×40 mm, not 28.5714×40 mm; manifest.json keeps its two decimals."""
    renderer, _, _ = render(tmp_path, 'image(piece.art, 10, 20, 200 / 7, 40, fit="stretch")')
    [warning] = [w for w in renderer.warnings if "dpi" in w]
    assert warning.endswith(" dpi at 28.6×40 mm, 300 wanted (337 × 472 px would do)"), warning
    assert renderer.art.images()[0]["box_mm"] == [28.57, 40.0]

def test_min_dpi_is_configurable(tmp_path):
    renderer, _, _ = render(tmp_path, 'image(piece.art, 10, 20, 40, 40)', min_dpi=150)
    assert not [w for w in renderer.warnings if "dpi" in w]
    assert renderer.art.images()[0]["enough"] is True


@pytest.mark.parametrize("call, message", [
    ('image(piece.art, 0, 0, 10, 10, fit="fill")', "unknown fit 'fill'"),
    ('image(piece.art, 0, 0, 10, 10, focus=(2, 0))', "focus (2, 0)"),
    ('image("missing.png", 0, 0, 10, 10)', "art file 'missing.png' not found"),
    ('image("../game.yaml", 0, 0, 10, 10)', "not a PNG, JPEG, WebP or SVG"),
])
def test_template_mistakes_name_template_and_piece(tmp_path, call, message):
    with pytest.raises(InputError, match=re.escape(message)) as e:
        render(tmp_path, call)
    assert "card-front.svg.j2" in str(e.value)
    # the template and the piece said once each (a bad fit named them three times over)
    assert str(e.value).count("card-front.svg.j2") == 1 and str(e.value).count("piece 1 (") == 1, str(e.value)


def test_placeholder_frame_speaks_the_games_language(tmp_path):
    """An English edition's frame says "Art to come", not 「画像未定」 (a designer's English game
    showed Japanese on every card without art)."""
    ws = make_workspace(tmp_path / "ws", deck=DECK, front=_front('image(piece.art, 5, 5, 50, 40)'))
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (60, 30), (10, 20, 30)).save(ws / "data" / "test" / "art" / "dragon.png")
    game = dataclasses.replace(load_game(Workspace(ws), "test"), lang="en")
    deck = game.decks[0]
    svg = Renderer(ws / "templates", game, 3.0).render(Face(deck, deck.pieces[1], "front", 1))
    assert [t.text for t in etree.fromstring(svg.encode()).iter("{*}text")] == ["Art", "to", "come", "鳥"]  # a Latin line is set word by word


def test_placeholder_label_shows_the_pieces_name_as_written(tmp_path):
    """A piece named '\\[b]Fire \\{x}' (printed '[b]Fire {x}') without its art yet: the frame's
    label shows that name as written, not read again as markup ('[b]' stopped the build as an
    unknown colour, '{x}' would name an icon)."""
    deck = "name: 試し\nlayout: card-poker\npieces:\n  - {title: '\\[b]Fire\\[/b] \\{x} **', art: 未定}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    game = load_game(Workspace(ws), "test")
    deck_ = game.decks[0]
    svg = Renderer(ws / "templates", game, 3.0).render(Face(deck_, deck_.pieces[0], "front", 1))
    words = [t.text for t in etree.fromstring(svg.encode()).iter("{*}text")]
    label = words[words.index("画像未定"):][:4]
    assert label == ["画像未定", "[b]Fire[/b]", "{x}", "**"], words  # (a Latin line is set word by word)


def _framed_layouts() -> list[str]:
    """The built-in layouts whose art box draws the placeholder frame (the tokens' is covered
    by their value, so they draw none)."""
    from pathlib import Path

    from pnpgen.data import layouts, layoutsides
    from pnpgen.data.yamlsrc import Located
    from pnpgen.scaffold import trim_of

    names = []
    for name in layouts.builtin_names():
        raw = layouts.resolve(None, name, Located(Path("test"), None), ())
        g = layouts.geometry(raw)
        boxes = layoutsides.finish(raw, trim_of(g), g.shape).front.boxes
        if any(b.type == "image" and b.get("placeholder") for b in boxes):
            names.append(name)
    return names


@pytest.mark.parametrize("name", _framed_layouts())
def test_placeholder_label_reads_in_every_builtin_layouts_art_box(tmp_path, name):
    """The 「画像未定」 label's type grows with the art box (a board's was 9 pt, lost on a thin
    strip 200 mm long) and stays inside it: the label's ground within the art's frame, each
    line within the ground. Sizes from the SVG the layout renders, in mm."""
    from pnpgen.units import mm_to_pt

    deck = f"name: 試し\nlayout: {name}\npieces:\n  - {{title: 題名, art: 未定}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    game = load_game(Workspace(ws), "test")
    deck_ = game.decks[0]
    svg = Renderer(ws / "templates", game, 3.0).render(Face(deck_, deck_.pieces[0], "front", 1))
    root = etree.fromstring(svg.encode())
    rects = list(root.iter("{*}rect"))
    frame = next(r for r in rects if r.get("stroke") == "#f7b3d8")  # the hatch's frame
    ground = rects[rects.index(frame) + 1]  # the label's white ground, drawn next
    assert ground.get("fill") == "#ffffff"
    fx, fy, fw, fh = (float(frame.get(k)) for k in ("x", "y", "width", "height"))
    gx, gy, gw, gh = (float(ground.get(k)) for k in ("x", "y", "width", "height"))
    assert fx <= gx and gx + gw <= fx + fw and fy <= gy and gy + gh <= fy + fh
    lines = [t for t in root.iter("{*}text") if t.get("fill") == "#e4007f" and t.text in ("画像未定", "題名")
             and fx <= float(t.get("x")) <= fx + fw and fy <= float(t.get("y")) <= fy + fh]  # (a standee has two)
    assert [t.text for t in lines] == ["画像未定", "題名"]
    for t in lines:
        size, x, y = float(t.get("font-size")), float(t.get("x")), float(t.get("y"))
        assert gx <= x and x + len(t.text) * size <= gx + gw + 1e-6  # (no glyph is wider than the size)
        assert gy <= y - size and y <= gy + gh
        # 9 pt at least, a tenth of the art box's shorter side up to 36 pt: 36 on a board (127 mm)
        assert mm_to_pt(size) >= (36 - 0.01 if name == "board" else 9 - 0.01), (name, mm_to_pt(size))


def test_a_decks_pictures_below_the_dpi_are_three_lines_and_a_count():
    """A deck of many pictures below the wanted dpi printed a warning line each on every build and
    export (103 lines for a 120-card deck): the three lowest are named, the rest counted in one
    line; other warnings, and a deck of three or fewer, as they were."""
    from pnpgen.faces.grouped import grouped_per_deck
    from pnpgen.faces.images import LOW_DPI

    def low(deck: str, n: int, dpi: int) -> str:
        return LOW_DPI.format(where=f"data/g/decks/{deck}.yaml:{n}:5", deck=deck, piece=f"札{n}", name=f"art/{n}.png",
                              dpi=dpi, w="53", h="40", wanted="300", need_w=627, need_h=472)

    cards = [low("cards", n, 280 - n) for n in range(10)]
    tokens = [low("tokens", n, 250) for n in range(2)]
    said = grouped_per_deck(["first", *cards[:5], "middle", *tokens, *cards[5:], "last"])
    assert said == ["first", cards[9], cards[8], cards[7], "deck cards: 7 more pictures below 300 dpi (274–280 dpi; "
                    "pnpgen check lists each)", "middle", *tokens, "last"]
    assert grouped_per_deck(["a", *tokens, "b"]) == ["a", *tokens, "b"]
    # four are four lines, not three and "1 more pictures … (274–274 dpi"; a range of one dpi is one figure
    assert grouped_per_deck(cards[:4]) == cards[:4]
    same = [low("cards", n, 277) for n in range(6)]
    assert grouped_per_deck(same)[-1] == "deck cards: 3 more pictures below 300 dpi (277 dpi; pnpgen check lists each)"
    # a shop's figure (同人: 350): check lists them with that figure, not with its own 300
    shop = [low("cards", n, 305).replace("300 wanted", "350 wanted") for n in range(6)]
    assert grouped_per_deck(shop)[-1] == ("deck cards: 3 more pictures below 350 dpi (305 dpi; "
                                          "pnpgen check --min-dpi 350 lists each)")


def test_one_picture_on_many_pieces_below_the_dpi_is_named_not_counted_as_many():
    """trial60: a card back given every piece by ``defaults: {back_art: back.png}`` (297 dpi on
    DriveThruCards' card) was counted "238 more pictures below 300 dpi": one file, which the line
    names; several files on more pieces are counted both ways."""
    from pnpgen.faces.grouped import grouped_per_deck
    from pnpgen.faces.images import LOW_DPI

    def low(n: int, name: str) -> str:
        return LOW_DPI.format(where=f"data/g/decks/cards.yaml:{n}:5", deck="cards", piece=f"札{n}", name=name,
                              dpi=297, w="69.7", h="95", wanted="300", need_w=824, need_h=1122)

    assert grouped_per_deck([low(n, "art/back.png") for n in range(10)])[-1] == (
        "deck cards: 7 more pieces show art/back.png below 300 dpi (297 dpi; pnpgen check lists each)")
    assert grouped_per_deck([low(n, f"art/{n % 3}.png") for n in range(10)])[-1] == (
        "deck cards: 7 more pieces show 3 pictures below 300 dpi (297 dpi; pnpgen check lists each)")


@pytest.mark.parametrize("box", ["-bleed, -bleed, w + 2 * bleed, h + 2 * bleed", "-3, 10, 31, 50"])
def test_placeholder_label_keeps_out_of_the_safe_zone(tmp_path, box):
    """The 「画像未定」 label of a full-bleed art box (the standee layout's figure, 31 mm wide on a
    25 mm strip) reached 1.6 mm from the trim, and the print lint named the built-in layout:
    its ground is cut to the 3 mm safe zone, where that leaves it half its width."""
    deck = "name: 駒\nsize: [25, 120]\nfront: card-front.svg.j2\nfields: {name: text, art: image}\n" \
           "pieces:\n  - {name: Harbor Master, art: TBD}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=_front(f"image(piece.art, {box})"))
    game = load_game(Workspace(ws), "test")
    deck_ = game.decks[0]
    root = etree.fromstring(Renderer(ws / "templates", game, 3.0).render(Face(deck_, deck_.pieces[0], "front")).encode())
    rects = list(root.iter("{*}rect"))
    frame = next(r for r in rects if r.get("stroke") == "#f7b3d8")
    ground = rects[rects.index(frame) + 1]
    gx, gy, gw, gh = (float(ground.get(k)) for k in ("x", "y", "width", "height"))
    assert 3 - 1e-6 <= gx and gx + gw <= 25 - 3 + 1e-6 and 3 - 1e-6 <= gy and gy + gh <= 120 - 3 + 1e-6, (gx, gw, gy, gh)
    assert [t.text for t in root.iter("{*}text")][:1] == ["画像未定"]  # the label is still there


def test_a_parked_pieces_picture_is_no_resolution_warning_a_printed_ones_still_is(tmp_path):
    """A TCG trial: starter decks reading the whole card sheet park the cards they do not take, and
    the 同人 export warned the resolution of their pictures in every deck (`deck st02, piece
    陽の兵1: … 305 dpi …, 350 wanted`), pictures no deck prints there."""
    from pnpgen.faces.faceset import render_game

    deck = DECK.replace("{name: 竜, art: dragon.png, count: 3}",
                        "{name: 竜, art: dragon.png, count: 0}\n  - {name: 龍, art: dragon.png, count: 2}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=_front("image(piece.art, 10, 20, 40, 40)"))
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (600, 300), (10, 20, 30)).save(ws / "data" / "test" / "art" / "dragon.png")
    rendered = render_game(ws / "templates", load_game(Workspace(ws), "test"), 3.0)
    said = [w for w in rendered.warnings if " dpi at " in w]
    assert [w.split(": ")[1] for w in said] == ["deck cards, piece 龍"], said
    assert said == [w for w in rendered.decks[0].warnings if " dpi at " in w]


def test_check_says_no_resolution_warning_of_a_parked_pieces_picture(tmp_path, capsys):
    """`pnpgen check --min-dpi 350`, whose faces are rendered apart from a build's, listed the
    pictures of the cards the starter decks park, 61 lines a deck."""
    from conftest import run

    deck = DECK.replace("{name: 竜, art: dragon.png, count: 3}",
                        "{name: 竜, art: dragon.png, count: 0}\n  - {name: 龍, art: dragon.png, count: 2}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=_front("image(piece.art, 10, 20, 40, 40)"))
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (600, 300), (10, 20, 30)).save(ws / "data" / "test" / "art" / "dragon.png")
    assert run(ws, "check", "--game", "test") == 0
    said = [line for line in capsys.readouterr().out.splitlines() if " dpi at " in line]
    assert [line.split(": ")[2] for line in said] == ["deck cards, piece 龍"], said
