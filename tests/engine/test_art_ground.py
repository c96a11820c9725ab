"""See-through art placed on a coloured ground: its clear pixels print the ground beneath it,
not a white box (print files carry no transparency, so the art is flattened onto that colour);
where the ground is not one plain colour pnpgen reads, the build says so with the fix."""

from __future__ import annotations

from pathlib import Path

from lxml import etree
from test_art_build import DECK, close, half_clear, out, pixel

from conftest import REPO, make_workspace, run
from pdfprobe import image_xobjects, reader, soft_masks
from pnpgen.faces.ground import ground_beneath

DARK = (0x20, 0x30, 0x40)
BOX = (5.0, 20.0, 53.0, 40.0)  # image(piece.art, 5, 20, w - 10, 40) on a poker card, from the trim's corner


def front(ground: str) -> str:
    return ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n' + ground
            + '\n{{ image(piece.art, 5, 20, w - 10, 40) }}\n{% endblock %}\n')


def game(tmp_path: Path, ground: str) -> Path:
    ws = make_workspace(tmp_path / "ws", deck=DECK + "  - {name: 竜, art: dragon.png, count: 2}\n  - {name: 鳥, art: dragon.png}\n",
                        front=front(ground))
    (ws / "data" / "test" / "art").mkdir()
    half_clear((200, 30, 40)).save(ws / "data" / "test" / "art" / "dragon.png")
    return ws


FULL_BLEED = '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#203040"/>'


def test_clear_pixels_show_the_dark_ground_beneath_not_a_white_box(tmp_path, capsys):
    ws = game(tmp_path, FULL_BLEED)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "see-through" not in capsys.readouterr().err
    x, y, w, h = BOX
    for name in ("shop/cards-unique.pdf", "shop/cards.pdf"):
        shop = out(ws, name)
        assert close(pixel(shop, 0, 3 + x + w * 0.25, 3 + y + h / 2), DARK), name  # the clear half
        assert close(pixel(shop, 0, 3 + x + w * 0.75, 3 + y + h / 2), (200, 30, 40)), name
        assert soft_masks(reader(shop)) == [] and len(image_xobjects(reader(shop))) == 1


def test_a_ground_not_read_warns_once_with_the_file_and_the_fix(tmp_path, capsys):
    ws = game(tmp_path, '<path d="M -3 -3 H 66 V 92 H -3 Z" fill="#203040"/>')
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "see-through" in line]
    assert len(said) == 1, said  # three faces, one deck, one file
    assert "art/dragon.png" in said[0] and 'background=\\"#rrggbb\\"' not in said[0] and 'background="#rrggbb"' in said[0]
    x, y, w, h = BOX  # printed on white, as the warning says
    assert close(pixel(out(ws, "shop/cards-unique.pdf"), 0, 3 + x + w * 0.25, 3 + y + h / 2), (255, 255, 255))


def test_a_background_given_is_kept_and_nothing_beneath_is_the_paper(tmp_path, capsys):
    ws = game(tmp_path, "")
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(
        front(FULL_BLEED).replace("w - 10, 40)", 'w - 10, 40, background="#f4ead5")'), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    x, y, w, h = BOX
    assert close(pixel(out(ws, "shop/cards-unique.pdf"), 0, 3 + x + w * 0.25, 3 + y + h / 2), (0xF4, 0xEA, 0xD5))
    plain = game(tmp_path / "plain", "")
    assert run(plain, "build", "--game", "test", "--no-rulebook") == 0
    assert "see-through" not in capsys.readouterr().err
    assert close(pixel(out(plain, "shop/cards-unique.pdf"), 0, 3 + x + w * 0.25, 3 + y + h / 2), (255, 255, 255))


def ground(svg: str) -> str | None:
    root = etree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
    return ground_beneath(root.find(".//{http://www.w3.org/2000/svg}image"))


def test_the_ground_is_the_nearest_plain_shape_covering_the_whole_picture():
    pic = '<g clip-path="url(#c)"><image x="10" y="10" width="10" height="10" href="a.png"/></g>'
    assert ground('<rect width="50" height="50" fill="#123456"/>' + pic) == "123456"
    assert ground('<rect width="50" height="50" fill="#123456"/><rect x="30" width="5" height="5" fill="red"/>'
                  '<text>x</text>' + pic) == "123456"  # beside it, and text: passed
    assert ground('<circle cx="15" cy="15" r="8" style="fill:#abc"/>' + pic) == "aabbcc"
    assert ground('<circle cx="15" cy="15" r="6" fill="#abc"/>' + pic) is None  # its corners stick out
    assert ground('<rect width="50" height="50" fill="#123456"/><rect x="12" width="5" height="50" fill="#fff"/>'
                  + pic) is None  # partly under it
    assert ground('<rect width="50" height="50" fill="url(#g)"/>' + pic) is None
    assert ground('<g transform="scale(2)"><rect width="50" height="50" fill="#123456"/></g>' + pic) is None
    assert ground('<defs><rect id="r" width="50" height="50" fill="#123456"/></defs>' + pic) == "ffffff"
    assert ground(pic) == "ffffff"


def test_the_picture_is_measured_as_clipped_and_outlines_are_passed():
    """As a built-in layout draws a card: a title bar above the art box a cover fit overflows,
    a frame drawn as an outline: the ground is the card's colour (no warning)."""
    clipped = ('<clipPath id="a"><rect x="10" y="10" width="10" height="10"/></clipPath>'
               '<g clip-path="url(#a)"><image x="10" y="0" width="10" height="30" href="a.png"/></g>')
    assert ground('<rect width="50" height="50" fill="#123456"/><rect width="50" height="8" fill="#3b4a8c"/>'
                  '<path d="M0 0 L50 50" fill="none" stroke="#000"/>' + clipped) == "123456"
    assert ground('<rect width="50" height="50" fill="#123456"/><rect width="50" height="12" fill="#3b4a8c"/>'
                  + clipped) is None  # the bar reaches under the art box


def test_no_built_in_layout_warns_of_see_through_art(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck="name: x\nlayout: card-poker\npieces:\n  - {title: x, art: half.png}\n")
    for layout in ("tile-hex", "token-square", "card-tarot"):
        (ws / "data" / "test" / "decks" / f"{layout}.yaml").write_text(
            f"name: {layout}\nlayout: {layout}\npieces:\n  - {{title: x, art: half.png}}\n", encoding="utf-8")
    (ws / "data" / "test" / "art").mkdir()
    half_clear((200, 30, 40)).save(ws / "data" / "test" / "art" / "half.png")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "see-through" not in capsys.readouterr().err


def test_a_picture_running_past_the_face_is_measured_as_the_face_shows_it():
    """trial73: a square tile's layout art box written 3 mm out (``x: -3``) on a face drawn without
    bleed (Tabletop Simulator's images) ran past the face's ground rectangle: warned "see-through
    pixels … print on white" in the export, never in the build. The face shows only its root's
    viewBox: the picture is measured as cut to it."""
    def face(view: str, pic: str) -> str | None:
        root = etree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}">'
                                f'<rect x="0" y="0" width="60" height="60" fill="#fbf8f1"/>{pic}</svg>')
        return ground_beneath(root.find(".//{http://www.w3.org/2000/svg}image"))
    bleeding = '<image x="-3" y="-3" width="66" height="66" href="a.png"/>'
    assert face("0 0 60 60", bleeding) == "fbf8f1"  # no bleed: the face is the trim, which the ground covers
    assert face("-3 -3 66 66", bleeding) is None  # with 3 mm of bleed the picture's edge has no ground beneath
    assert face("0,0,60,60", f'<g transform="translate(1 1)">{bleeding}</g>') is None  # (moved: not worked out)
    assert face("0 0 sixty 60", bleeding) is None  # a viewBox not read cuts nothing
    page = " ".join((REPO / "docs" / "data-format.md").read_text(encoding="utf-8").split())
    assert "covering the whole picture as its box clips it and as the face shows it (of a layout's art box written 3 mm " \
        "out, `x: -3`, on a face Tabletop Simulator's export draws without bleed, the part on the face; a full-bleed" in page


def test_a_16_bit_picture_of_8_bit_values_is_warned_at_its_file_once(tmp_path, capsys):
    """trial: a 16-bit grey PNG whose values use 0–255 of 65535 (Pillow's convert("I;16") of an
    8-bit picture) printed near black, unwarned. The build names the file and its brightest value
    once a deck (three faces); the same picture scaled to full 16 bits is not named."""
    from PIL import Image

    ws = game(tmp_path, FULL_BLEED)
    grey = Image.linear_gradient("L").resize((700, 500))
    grey.convert("I").convert("I;16").save(ws / "data" / "test" / "art" / "dragon.png")
    assert Image.open(ws / "data" / "test" / "art" / "dragon.png").mode == "I;16"
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "16-bit" in line]
    assert len(said) == 1, said
    assert "art/dragon.png is a 16-bit picture whose brightest value is 255 of 65535: it prints near black" in said[0]
    x, y, w, h = BOX  # as the warning says: the brightest part of the picture printed near black
    assert all(c < 8 for f in (0.1, 0.5, 0.9) for c in pixel(out(ws, "shop/cards-unique.pdf"), 0, 3 + x + w * 0.5, 3 + y + h * f))
    grey.convert("I").point(lambda v: v * 257).convert("I;16").save(ws / "data" / "test" / "art" / "dragon.png")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "16-bit" not in capsys.readouterr().err


def _warnings(ws: Path, capsys) -> list[str]:
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    return [line for line in capsys.readouterr().err.splitlines() if "see-through" in line or "16-bit" in line]


def test_a_see_through_warning_comes_out_as_a_cold_builds_after_the_card_that_warned_goes(tmp_path, capsys, monkeypatch):
    """Warned once a deck and file, at the first card showing it: the render memo replayed the
    other cards' faces, which had warned of nothing, so deleting or editing the card that warned
    lost the warning (insert46). Each edit's warnings are a cold build's of the edited data."""
    import shutil

    ws = game(tmp_path, '<path d="M -3 -3 H 66 V 92 H -3 Z" fill="#203040"/>')
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: 魚, art: dragon.png}\n", encoding="utf-8")
    first = _warnings(ws, capsys)
    assert len(first) == 1 and "cards.yaml:" in first[0], first
    for old, new in (("  - {name: 竜, art: dragon.png, count: 2}\n", ""),  # the card that warned, deleted
                     ("{name: 鳥, art: dragon.png}", "{name: 鳥 改, art: dragon.png}")):  # the one that warns now, edited
        deck.write_text(deck.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        warm = _warnings(ws, capsys)
        cold = tmp_path / f"cold{len(list(tmp_path.glob('cold*')))}"
        for folder in ("data", "templates"):
            shutil.copytree(ws / folder, cold / folder)
        (cold / "fonts").symlink_to((ws / "fonts").resolve())
        with monkeypatch.context() as m:
            m.setenv("PNPGEN_CACHE", "off")
            assert warm == _warnings(cold, capsys) and len(warm) == 1, (warm, old)
