"""Built-in layouts as data (data/layouts.py → faces/layouts.py): every built-in layout builds
with its text where its boxes say, extends: and per-deck overrides change what they name, bad
layout YAML is one line with file:line, `pnpgen layout export` round-trips byte for byte, and
`pnpgen new` makes a game that builds at once."""

from __future__ import annotations

import filecmp
import json
import re
import shutil
import textwrap
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2
import pytest

from conftest import DECK_YAML, GAME_YAML, REPO, make_workspace, run
from pdfprobe import boxes_mm, glyphs, reader, texts
from pnpgen.data import boxoptions, layouts, layoutsides
from pnpgen.data.yamlsrc import Located
from pnpgen.scaffold import trim_of

CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef■◇]")  # kana, kanji, full-width forms, 「」

BLEED = 3.0
ART = REPO / "data" / "populous" / "art" / "terrain" / "plains.png"
# One character of each value, found nowhere else on the face (the art is a picture, so its
# placeholder text — which repeats the title — does not print).
VALUES = {"title": ("題名", "題"), "text": ("本文の文章", "章"), "flavour": ("香る一言", "香"), "footer": ("脚注", "脚"),
          "cost": ("7", "7"), "value": ("8", "8"),
          **{f"face{n}": (c, c) for n, c in enumerate("壱弐参肆伍陸", 1)}}  # a paper die's faces
BACK_TITLE = "遊戯"  # game.yaml's title, on every card back


def _deck(name: str) -> str:
    raw = layouts.resolve(None, name, Located(Path("test"), None), ())
    known = layouts.fields(raw)
    piece = {k: VALUES[k][0] for k in VALUES if k in known}
    if "art" in known:
        piece["art"] = "plains.png"
    if "icons" in known:
        piece["icons"] = "[vp, food]"
    body = ", ".join(f"{k}: {v!s}" if k == "icons" else f'{k}: "{v}"' for k, v in piece.items())
    return f"name: {name}\nlayout: {name}\npieces:\n  - {{{body}}}\n"


@pytest.fixture(scope="module")
def gallery(tmp_path_factory) -> Path:
    """One workspace with a deck for every built-in layout, built once (no rulebook)."""
    root = make_workspace(tmp_path_factory.mktemp("layouts") / "ws",
                          game="title: 遊戯\ndraft: 1\nplayers: 2-4\ndate: 2026-12-01\n")
    decks = root / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    (root / "data" / "test" / "art").mkdir()
    shutil.copy(ART, root / "data" / "test" / "art" / "plains.png")
    for name in layouts.builtin_names():
        (decks / f"{name}.yaml").write_text(_deck(name), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--min-dpi", "10", "--jobs", "1") == 0
    return root


def _boxes(name: str) -> tuple[layouts.Geometry, dict[str, dict], dict[str, dict]]:
    raw = layouts.resolve(None, name, Located(Path("test"), None), ())
    g = layouts.geometry(raw)
    built = layoutsides.finish(raw, trim_of(g), g.shape)
    front = {b.name: dict(b.options) | {"type": b.type} for b in built.front.boxes}
    back = {b.name: dict(b.options) | {"type": b.type} for b in built.back.boxes} if built.back else {}
    return g, front, back


def _inside(glyph, box: dict) -> bool:
    """The glyph's origin (on its baseline) within the box, the trim's top-left at (bleed, bleed)."""
    x, y = glyph.x - BLEED, glyph.y - BLEED
    return box["x"] - 0.01 <= x <= box["x"] + box["w"] and box["y"] <= y <= box["y"] + box["h"] + 0.01


def _front_without_lint(root: Path, capsys, dpi: int) -> Any:
    """The test game built with no print lint, its first shop front rendered at ``dpi`` in greys."""
    import pypdfium2

    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "print lint" not in capsys.readouterr().err
    page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    return page.render(scale=dpi / 72).to_pil().convert("L")


@pytest.mark.parametrize("name", layouts.builtin_names())
def test_every_builtin_layout_prints_each_value_in_its_box(gallery, name):
    g, front, back = _boxes(name)
    pdf = gallery / "build" / "test" / "shop" / f"{name}-unique.pdf"
    pages = glyphs(pdf)
    assert len(pages) == (2 if back else 1)  # a front, and its back when the layout has one
    w, h = trim_of(g)
    shown = 0
    for field_, (_value, char) in VALUES.items():
        boxes = [b for b in front.values() if b.get("field") == field_]  # a tuck box's title: front, top, spines…
        if not boxes:
            continue
        found = [c for c in pages[0] if c.char == char]
        assert len(found) == len(boxes), (field_, [c.char for c in pages[0]])
        for box in boxes:
            assert any(_inside(c, box) for c in found), (field_, found, box)
        for c in found:  # the safe zone: every value's text starts 3 mm or more inside the trim
            assert 3 - 0.01 <= c.x - BLEED <= w - 3 and 3 <= c.y - BLEED <= h - 3, (field_, c)
        shown += 1
    assert shown >= 1
    if g.shape in ("circle", "hex"):  # the safe zone follows the round or slanted edge
        import math

        cx, cy = w / 2, h / 2
        for c in (c for c in pages[0] if c.char.strip()):
            dx, dy = c.x - BLEED - cx, c.y - BLEED - cy
            if g.shape == "circle":
                assert math.hypot(dx, dy) <= w / 2 - 3, c
            else:  # a hex's six edges, half its size across the flats from the centre
                flat = g.options.get("orientation") == "flat"  # normals every 60° from 30° (flat) or 0°
                assert all(dx * math.cos(math.radians(a)) + dy * math.sin(math.radians(a)) <= min(w, h) / 2 - 3
                           for a in range(30 if flat else 0, 360, 60)), c
    if back:
        title = [c for c in pages[1] if c.char == BACK_TITLE[0]]
        assert len(title) == 1 and _inside(title[0], back["title"])


def test_no_builtin_layout_sets_a_short_value_below_the_print_lints_smallest_text(gallery, capsys):
    """A trick-taking game's summary card on ``card-mini``, its footer 「3〜5人」: every build and check
    warned ``text “3〜5” 5.5 pt, smaller than 6 pt``, the layout's own footer size under the lint's
    default minimum; a short value in any built-in box prints at 6 pt or more."""
    capsys.readouterr()
    run(gallery, "check", "--game", "test", "--min-dpi", "10")
    said = capsys.readouterr()
    assert "smaller than 6 pt" not in said.out + said.err, said.err


def test_icons_and_art_of_a_card_are_drawn(gallery):
    """The icons row and the art: the card's face holds the picture and two icons' drawings."""
    from pypdf import PdfReader

    from pdfprobe import image_xobjects

    reader = PdfReader(gallery / "build" / "test" / "shop" / "card-poker-unique.pdf")
    assert len(image_xobjects(reader)) == 1  # plains.png, once
    assert not (gallery / "build" / "test" / "shop" / "token-round-die.pdf").stat().st_size == 0


OVERRIDE = """\
name: カード
layout: {extends: card-poker, boxes: {title: {size: 20, min_size: 20, x: 20, w: 30, align: left}, flavour: null}}
pieces:
  - {title: 題名, text: 本文}
"""


def test_a_deck_overrides_one_box_and_removes_another(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=OVERRIDE)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0]
    title = next(c for c in page if c.char == "題")
    assert title.x - BLEED == pytest.approx(20, abs=0.05)  # left-aligned at the new x
    assert title.size == pytest.approx(20, abs=0.1)
    # the flavour box is gone, and with it the field: a piece that sets it is told so
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(OVERRIDE.replace("text: 本文}", "text: 本文, flavour: 香}"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2


def test_a_decks_own_layout_palette_wins_over_the_games_for_that_deck_only(tmp_path):
    """A deck's back in its own colour: ``palette: {accent: …}`` in the deck's ``layout:`` was
    passed over without a word when game.yaml names ``accent`` too (a layout file's palette
    stands in only where the game has none, and still does)."""
    import pypdfium2

    game = "title: 遊戯\npalette: {accent: '#3b4a8c'}\n"
    root = make_workspace(tmp_path / "ws", game=game, deck="name: 赤\nlayout: {extends: card-poker, "
                          "palette: {accent: '#7a1f1f'}}\npieces:\n  - {title: 題}\n")
    (root / "data" / "test" / "decks" / "plain.yaml").write_text(
        "name: 青\nlayout: card-poker\npieces:\n  - {title: 題}\n", encoding="utf-8")
    (root / "layouts").mkdir()
    (root / "layouts" / "mine.yaml").write_text("extends: card-poker\npalette: {accent: '#10a010'}\n", encoding="utf-8")
    (root / "data" / "test" / "decks" / "mine.yaml").write_text(
        "name: 緑\nlayout: mine\npieces:\n  - {title: 題}\n", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    dpi = 72

    def back_ground(deck: str) -> tuple[int, int, int]:
        page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / f"{deck}-unique.pdf"))[1]
        return page.render(scale=dpi / 72).to_pil().convert("RGB").getpixel((round(1.5 / 25.4 * dpi),) * 2)

    assert back_ground("cards") == (0x7A, 0x1F, 0x1F)  # the deck's own
    assert back_ground("plain") == (0x3B, 0x4A, 0x8C)  # the game's
    assert back_ground("mine") == (0x3B, 0x4A, 0x8C)  # a layout file's yields to the game's


def test_a_workspace_layout_extends_a_builtin_one_of_the_same_name(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=OVERRIDE.replace(
        "{extends: card-poker, boxes: {title: {size: 20, min_size: 20, x: 20, w: 30, align: left}, flavour: null}}",
        "card-poker"))
    (root / "layouts").mkdir()
    (root / "layouts" / "card-poker.yaml").write_text(
        "extends: card-poker\nboxes:\n  title: {x: 'w - 30', w: 25, align: right, size: 9, min_size: 9}\n",
        encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0]
    title = [c for c in page if c.char in "題名"]
    assert title[-1].x - BLEED < 63 - 5 and title[0].x - BLEED > 63 - 30  # right-aligned in its box
    assert title[0].size == pytest.approx(9, abs=0.1)


@pytest.mark.parametrize("layout, trim", [
    ("{extends: tile-hex, shape: rect, size: [60, 60]}", (60, 60)),  # square tiles from the hex tile's boxes
    ("{extends: token-square, shape: circle, size: 30}", (30, 30)),   # its rounded corner and two sides dropped
])
def test_a_layout_given_another_shape_drops_what_only_the_old_shape_took(tmp_path, capsys, layout, trim):
    """The hex tile's orientation (a rect has none) stopped the build at pnpgen's own layout
    file, named by the folder pnpgen is installed in."""
    root = make_workspace(tmp_path / "ws", deck=f"name: タイル\nlayout: {layout}\npieces:\n  - {{title: 題}}\n")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    trimbox = boxes_mm(reader(root / "build" / "test" / "shop" / "cards.pdf").pages[0])["trimbox"]
    assert (trimbox[2] - trimbox[0], trimbox[3] - trimbox[1]) == pytest.approx(trim, abs=0.01)


def test_a_layout_changed_to_a_rect_without_a_size_asks_for_one_at_the_deck(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck="name: タイル\nlayout: {extends: tile-hex, shape: rect}\npieces:\n"
                                                "  - {title: 題}\n")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml" in err and "gives no size" in err and "builtin" not in err, err


UPSIDE_DOWN = """\
name: ことば
layout:
  extends: card-poker
  boxes:
    title: null
    art: null
    text: null
    band: null
    word: {field: word, x: 6, y: 8, w: 51, h: 14, size: 20, min_size: 20, align: left}
    under: {field: under, x: 6, y: 66, w: 51, h: 14, size: 20, min_size: 20, align: left, rotate: 180}
pieces:
  - {word: 上下, under: 左右}
"""


def test_a_box_turned_180_prints_its_word_upside_down_in_its_own_place(tmp_path):
    """A party-word card's lower word reads from the other side of the table: no layout box could
    turn (the designer had to export the layout to templates for one rotate())."""
    root = make_workspace(tmp_path / "ws", deck=UPSIDE_DOWN)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = {c.char: c for c in glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0]}
    up, down, left, right = (page[c] for c in "上下左右")
    assert up.x < down.x and up.y == pytest.approx(down.y, abs=0.01)  # read left to right, as written
    # turned about the box's centre (31.5, 73): the left-aligned word ends at the box's right
    # edge, read right to left; top-aligned, it stands at the box's bottom (66 to 80 mm)
    assert left.x > right.x
    assert left.x - BLEED == pytest.approx(57, abs=0.05)
    assert 73 < left.y - BLEED < 80 and left.y == pytest.approx(right.y, abs=0.01)


def test_a_box_turn_is_read_as_a_designer_writes_it():
    """-90 is a quarter turn (anticlockwise: 270), 180° and '180deg' are 180; 45 is none."""
    read = {said: boxoptions.quarter_turn(said, (63, 88)) for said in (0, 90, "180", -90, 360, "180°", "180deg", "９０")}
    assert read == {0: 0, 90: 90, "180": 180, -90: 270, 360: 0, "180°": 180, "180deg": 180, "９０": 90}
    for bad in (45, "abc", 720, True, None):
        with pytest.raises(boxoptions.v.Invalid, match="is not a quarter turn"):
            boxoptions.quarter_turn(bad, (63, 88))


@pytest.mark.parametrize("layout, line, says", [
    ("extends: card-poker\nboxes:\n  title: {size: huge}\n", 3, "boxes.title.size: font size 'huge' is not a number"),
    ("extends: card-poker\nboxes:\n  title: {x: 'w - q'}\n", 3, "unknown name 'q'"),
    ("extends: card-poker\nboxes:\n  title: {colour: nosuch}\n", 3, "unknown colour 'nosuch'"),
    ("extends: card-poker\nboxes:\n  title: {colour: accnet}\n", 3, "unknown colour 'accnet'; did you mean accent?"),
    ("extends: card-poker\nboxes:\n  title: {sise: 3}\n", 3, "unknown key in box title"),
    ("extends: card-poker\nboxes:\n  title: {rotate: 45}\n", 3, "rotate 45 is not a quarter turn (expected 0, 90, 180"),
    # the English trial: the American spelling of a box option, and of a layout key
    ("extends: card-poker\nboxes:\n  title: {color: ink}\n", 3, "unknown key in box title; did you mean colour?"),
    ("extend: card-poker\n", 1, "unknown key in layout mine; did you mean extends?"),
    ("extends: card-poker\nboxes:\n  new: {x: 3, y: 4, w: 10}\n", 3, "box new has no h"),
    # the English euro trial: a box's height written out was told 'did you mean line_height?', or nothing
    ("extends: card-poker\nboxes:\n  text: {height: 30}\n", 3, "unknown key in box text; a box's height is h: (expected"),
    ("extends: card-poker\nboxes:\n  text: {widht: 30}\n", 3, "unknown key in box text; a box's width is w: (expected"),
    # a typo in a box's name makes a new box: the message names the boxes there are to change
    ("extends: card-poker\nboxes:\n  titel: {size: 12}\n", 3, "to change a box of the layout, its name: frame, band, title,"),
    ("extends: nosuch\n", 1, "unknown layout 'nosuch'"),
    ("extends: card-poket\n", 1, "unknown layout 'card-poket'; did you mean card-poker?"),  # a game trial
    ("extends: mine\n", 1, "extends itself"),
    # a euro trial: a back box named after the field it is to show, given no field (a back has no
    # base box to take one from) was told to write 'field: title'
    ("extends: token-round\nback:\n  boxes:\n    value: {x: 1, y: 1, w: 10, h: 10}\n", 4,
     "box value shows nothing (expected 'field: value' (the piece field it shows) or 'text: …'"),
    ("extends: token-round\nback:\n  boxes:\n    count: {x: 1, y: 1, w: 10, h: 10}\n", 4,
     "box count shows nothing (expected 'field: title' (the piece field it shows) or 'text: …'"),
    # the standee's new options: a turn it cannot take, a box that cannot stand up, a dash on text
    ("extends: standee\nboxes:\n  front: {rotate: 45}\n", 3, "rotate 45 is not a quarter turn (expected 0, 90, 180 or 270"),
    ("extends: standee\nstand_up: frnt\n", 2, "no image box 'frnt' on the front to stand up; did you mean front?"),
    ("extends: standee\nstand_up: far_tab\n", 2, "box far_tab is a panel box, not an image box"),
    # the far copy, upside down: a Tabletop Simulator token standing on its head
    ("extends: standee\nstand_up: back\n", 2, "box back is turned 180°, so the piece would stand on its side or head "
     "(expected an image box not turned: front)"),
    ("extends: standee\nboxes:\n  title: {dash: 1}\n", 3, "a text box does not take dash"),
    ("extends: board\nboxes:\n  log: {type: grid, x: 5, y: 5, w: 50, h: 50, cols: 0}\n", 3,
     "0 is not a number of cells (expected a whole number from 1 to 200)"),
    ("extends: board\nboxes:\n  fold: {type: line, x: 5, y: 5}\n", 3,
     "box fold is a line of no length (expected 'w:' in mm for a line across, 'h:' for one down)"),
    ("extends: board\nboxes:\n  ticks: {type: grid, x: 5, y: 5, w: 10, h: 8, cols: 8, spacing: 2}\n", 3,
     "box ticks: 8 cols with 7 spaces of 2 mm take 14 of its 10 mm across, leaving no room for the cells "
     "(expected a w over 14 mm, a smaller spacing, or fewer cols)"),
    # a dash finer than a printer prints: 80 million dashes on a 200 × 200 grid, which Poppler gave up drawing
    ("extends: board\nboxes:\n  fold: {type: line, x: 5, y: 5, w: 50, dash: 0.01}\n", 3,
     "a dash of 0.01 mm is finer than a printer prints (a grey line; a viewer may draw nothing) (expected 0 (solid) or "
     "0.1 to 50 mm)"),
    # a size on a tuck box (whose size is its net's), a box: on a card: passed over without a word
    ("extends: tuck-box\nsize: [50, 50]\n", 2, "size: a tuck box's size is its net's, drawn from its box: (expected "
     "'box: {cards: poker, count: 60}' (the cards it holds) instead)"),
    ("extends: card-poker\nbox: {count: 5}\n", 2, "box: a rect has no box (expected 'box:' only with 'shape: tuckbox' "
     "or 'extends: tuck-box')"),
    # a size a built-in layout's boxes cannot take: told at the size or box: written, not in
    # pnpgen's standee.yaml or tuck-box.yaml (the figure 'h / 2 - 10' below 0; of 0, drawn as nothing)
    ("extends: standee\nsize: [30, 15]\n", 2, "size: a 30×15 mm piece is a size the built-in layout standee cannot "
     "take: its box back's h 'h / 2 - 10' is -2.5 mm, out of range (expected a size in which each of its boxes has "
     "room (its own is 25×120 mm))"),
    ("extends: standee\nsize: [30, 20]\n", 2, "its box back's h 'h / 2 - 10' is 0 mm (expected a size"),
    # the English euro trial: the hex tile's text (39–47 mm down) on a 40 mm square tile printed off the piece
    ("extends: tile-hex\nshape: rect\nsize: [40, 40]\n", 3, "size: a 40×40 mm piece is a size the built-in layout "
     "tile-hex cannot take: its box text's y puts it 39–47 mm down, mostly past the piece's 40 mm trim"),
    # and card-poker on a 41×63 card: its text box 0.32 mm high inside a 1.5 mm pad, told as 'textbox h=0' at a piece
    ("extends: card-poker\nformat: mini-american\n", 2, "format: a 41×63 mm piece is a size the built-in layout "
     "card-poker cannot take: its box text's h 'h * 0.64 - 40' is 0.32 mm, leaving nothing inside its 1.5 mm pad"),
    ("extends: tuck-box\nbox: {cards: [3, 3], count: 1}\n", 2, "box: a tuck box whose net is 20.6×10.6 mm is too small "
     "for the built-in layout tuck-box: its box band's w 'front.w - 6' is -2 mm"),
])
def test_bad_layout_yaml_is_one_line_with_its_file_and_line(tmp_path, capsys, layout, line, says):
    root = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: mine\npieces:\n  - {title: 題}\n")
    (root / "layouts").mkdir()
    (root / "layouts" / "mine.yaml").write_text(layout, encoding="utf-8")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"layouts/mine.yaml:{line}:" in err and says in err, err


def test_a_decks_size_a_builtin_layout_cannot_take_is_told_at_the_decks_line(tmp_path, capsys):
    """A standee 15 mm tall, a tuck box for 5 mm cards, given in the deck file: the error named
    pnpgen's own standee.yaml or tuck-box.yaml, a file the designer never wrote."""
    root = make_workspace(tmp_path / "ws", deck="name: 立ち絵\nlayout: standee\nsize: [30, 15]\npieces:\n  - {title: 題}\n")
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    for text, says in (("layout: standee\nsize: [30, 15]", "cards.yaml:3:7: size: a 30×15 mm piece"),
                       ("layout: tuck-box\nbox: {cards: [5, 5], count: 1}", "cards.yaml:3:6: box: a tuck box whose net"),
                       # a named format is named as written (it said size: at the format: line)
                       ("layout: card-poker\nformat: mini-american", "cards.yaml:3:9: format: a 41×63 mm piece"),
                       # trial43: a 12 mm cube stand-in's value at 8 pt, below the 9 pt the round token's
                       # value shrinks to, was said at pnpgen's token-round.yaml
                       ("layout: {extends: token-square, size: [12, 12], boxes: {value: {size: 8}}}",
                        "cards.yaml:2:71: layout.boxes.value.size: box value: size 8 is below the min_size 9 the "
                        "layout gives the box (the smallest its text shrinks to) (expected a size of 9 or more, or a "
                        "min_size beside it: {size: 8, min_size: 8})"),
                       # trial64: a box of one's own at 5 pt said 'min_size is larger than size' at a size
                       # line with no min_size on it: the default's 6 pt, unwritten, is now named
                       ("layout: {extends: tile-hex, boxes: {door: {field: door, x: 20, y: 0, w: 10, h: 3, size: 5}}}",
                        "cards.yaml:2:89: layout.boxes.door.size: box door: size 5 is below the default min_size 6 "
                        "(the smallest its text shrinks to) (expected a size of 6 or more, or a min_size beside it: "
                        "{size: 5, min_size: 5})"),
                       ("layout: {extends: tile-hex, boxes: {door: {field: door, x: 20, y: 0, w: 10, h: 3, size: 5, "
                        "min_size: 7}}}", "box door: min_size 7 is larger than size 5 (expected a min_size at most "
                        "the size)")):
        deck.write_text(f"name: 立ち絵\n{text}\npieces:\n  - {{title: 題}}\n", encoding="utf-8")
        capsys.readouterr()
        assert run(root, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert says in err and "builtin" not in err and len(err.splitlines()) == 1, err


def test_a_vertical_box_below_the_default_min_size_is_set_at_its_size(tmp_path, capsys):
    """review41 (trial64's min_size message met trial61's karuta verse): a vertical box at 4 pt was
    refused as 'below the default min_size 6 … or a min_size beside it', and a min_size beside it
    refused as what a vertical box does not take: no size under 6 pt could be written at all. A
    vertical box never shrinks, so no min_size is compared with its size; print lint still says
    the small text."""
    deck = ("name: 読み札\nformat: karuta\nlayout: {extends: card, boxes: {verse: {field: lines, vertical: true, "
            "x: 8, y: 9, w: 36, h: 50, size: 4, font: mincho, line_height: 1.75}, band: null, title: null, "
            "text: null, cost: null, icons: null, flavour: null, art: null}}\nfields: {lines: list}\n"
            "pieces:\n  - {lines: [あきの田の, かりほの庵の]}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    said = capsys.readouterr()
    # (the column's upright run one text since tate46, named whole as a text box's text is)
    assert "min_size" not in said.out + said.err and "「あきの田の」 4.0 pt, smaller than 6 pt" in said.out + said.err, said


def test_a_square_tile_too_small_for_the_hex_tiles_boxes_is_told_at_its_size_and_builds_once_they_are_placed(tmp_path, capsys):
    """The English euro trial: 'layout: tile-hex, shape: rect, size: [40, 40]' built with the hex
    tile's text 39–47 mm down, off the 40 mm tile, and a lint line that read as a drifted cut's
    risk. Now the deck's size line says so and what to write; with the boxes placed it builds and
    the text prints on the tile."""
    deck = "name: Square\nlayout: {extends: tile-hex, shape: rect, size: [40, 40]%s}\npieces:\n  - {title: Hall, text: Store}\n"
    root = make_workspace(tmp_path / "ws", deck=deck % "")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:2:" in err and "mostly past the piece's 40 mm trim" in err and "builtin" not in err
    assert "(its own is 50), or the box placed on the piece in the deck's layout: layout: {extends: tile-hex, boxes: " \
           "{text: {y: …, h: …}}}" in err, err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        deck % ", boxes: {title: {y: 5}, art: {y: 12, h: 15}, text: {y: 28, h: 8}}", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    page = reader(root / "build" / "test" / "shop" / "cards.pdf").pages[0]
    box = boxes_mm(page)
    top, bottom = box["mediabox"][3] - box["trimbox"][3], box["mediabox"][3] - box["trimbox"][1]  # from the page's top
    word = [c for c in glyphs(root / "build" / "test" / "shop" / "cards.pdf")[0] if c.char == "S"]
    assert word and top + 3 < word[0].y < bottom - 3, (word, top, bottom)  # on the tile, inside its safe zone


def test_layout_export_builds_byte_identical_faces(tmp_path, capsys):
    deck = ("name: カード\nlayout: card-poker\npieces:\n"
            "  - {title: 題名, cost: 2, text: \"本文**2{vp}**\", icons: [vp, food], flavour: 香, footer: 脚}\n"
            "  - {title: 未定}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "a")) == 0
    capsys.readouterr()
    assert run(root / "templates" / "test", "layout", "export", "card-poker") == 0
    told = capsys.readouterr().out
    fields = next(line for line in told.splitlines() if "fields:" in line).strip()
    assert fields.startswith("fields: {title: text")
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace(
        "layout: card-poker\n", f"format: poker\nfront: card-poker-front.svg.j2\nback: card-poker-back.svg.j2\n{fields}\n"),
        encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "b")) == 0
    for name in ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf"):
        assert filecmp.cmp(tmp_path / "a" / "test" / name, tmp_path / "b" / "test" / name, shallow=False), name
    # it never overwrites
    before = (root / "templates" / "test" / "card-poker-front.svg.j2").read_bytes()
    assert run(root / "templates" / "test", "layout", "export", "card-poker") == 2
    assert (root / "templates" / "test" / "card-poker-front.svg.j2").read_bytes() == before


def test_the_layout_export_a_new_game_suggests_runs_as_said_and_makes_the_games_templates_folder(tmp_path, capsys):
    """A 同人 designer's trial: 'pnpgen layout export --game G --deck D --out templates/G/', as the
    docs write it, stopped at "--out: folder templates/G does not exist": pnpgen new leaves no
    templates/G/. It is made (only a game's own: templates/nogame/ still stops); and pnpgen new's
    step 5 names that command for the game's first deck."""
    import shlex

    folder = tmp_path / "ws"
    folder.mkdir()
    assert run(folder, "new", "star", "--kind", "tokens", "--kind", "cards") == 0
    step = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  5. "))
    command = shlex.split(re.search(r"'(pnpgen layout export [^']*)'", step).group(1))
    assert command == ["pnpgen", "layout", "export", "--game", "star", "--deck", "tokens", "--out", "templates/star/"]
    assert not (folder / "templates" / "star").exists()
    assert run(folder, *command[1:]) == 0
    assert (folder / "templates" / "star" / "tokens-front.svg.j2").is_file()
    assert "They are in templates/star/: write in data/star/decks/tokens.yaml" in capsys.readouterr().out
    assert run(folder, "layout", "export", "--game", "star", "--deck", "cards", "--out", "templates/nogame/") == 2
    assert not (folder / "templates" / "nogame").exists()


def test_layout_export_to_a_name_no_deck_takes_for_a_template_is_refused_and_a_games_folder_is_its_folder(
        tmp_path, capsys):
    """--out templates/test/x.txt wrote x.txt and x-back.svg.j2: a front template not named .svg.j2
    (which the docs, the print lint's lookup of a line and editors do not take for a template) and
    a back of another kind. Refused, naming the name that would do; nothing written. --out
    templates/<game> without its slash, the folder not made yet, wrote a file named after the game:
    it is that game's folder, as with the slash."""
    folder = tmp_path / "ws"
    folder.mkdir()
    assert run(folder, "new", "star", "--kind", "cards") == 0
    capsys.readouterr()
    for out, right in (("templates/x.txt", "--out templates/x.svg.j2 (its back written beside it as x-back.svg.j2)"),
                       ("mine", "--out mine.svg.j2")):
        assert run(folder, "layout", "export", "card-poker", "--out", out) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert f"--out: {out!r} is not a template's name: the templates a deck names end in .svg.j2" in err, err
        assert right in err, err
    assert [p for p in (folder / "templates").rglob("*") if p.is_file()] == [] and not (folder / "mine").exists()
    assert not list(folder.glob("*back*"))
    assert run(folder, "layout", "export", "card-poker", "--out", "templates/star") == 0
    assert sorted(p.name for p in (folder / "templates" / "star").iterdir()) == [
        "card-poker-back.svg.j2", "card-poker-front.svg.j2"]
    assert "They are in templates/star/" in capsys.readouterr().out


def test_new_game_builds_at_once_with_no_warning_but_its_placeholders(tmp_path, capsys):
    folder = tmp_path / "empty"
    folder.mkdir()
    assert run(folder, "new", "more", "--title", "もっと", "--kind", "cards", "--kind", "tokens", "--kind", "tiles") == 0
    said = capsys.readouterr().out
    assert "pnpgen build --game more" in said
    game = folder / "data" / "more"
    assert sorted(p.name for p in (game / "decks").iterdir()) == ["cards.yaml", "tiles.yaml", "tokens.yaml"]
    assert [p for p in (folder / "templates").rglob("*") if p.is_file()] == []
    assert run(folder, "build", "--game", "more", "--jobs", "1") == 0
    out = capsys.readouterr()
    warnings = [line for line in out.err.splitlines() if line.strip()]
    assert all("未定" in line for line in warnings), warnings  # the player count it left open
    assert "warning" not in (folder / "build" / "more" / "proof.txt").read_text(encoding="utf-8").lower()
    for deck in ("cards", "tokens", "tiles"):
        assert (folder / "build" / "more" / f"{deck}.pdf").stat().st_size > 0
    # the draft's components are the decks, with their counts
    draft = (game / "draft.txt").read_text(encoding="utf-8")
    assert "◇カード（４枚）" in draft and "◇トークン（１５個）" in draft and "◇タイル（６枚）" in draft
    # and it never overwrites
    before = (game / "game.yaml").read_bytes()
    assert run(folder, "new", "more") == 2
    assert (game / "game.yaml").read_bytes() == before
    # named from the workspace, once (it said '/home/…/data/more: data/more already exists')
    assert capsys.readouterr().err.startswith("pnpgen: error: data/more already exists; pnpgen new never overwrites")


def test_new_writes_a_tuck_box_sized_from_the_games_cards(tmp_path, capsys):
    """fixesG: a designer wrote box.yaml by hand from the docs. ``--kind box`` writes a tuck box
    holding the game's cards deck (their size and count: 4 poker cards, a box 64 × 89 × 2.2 mm
    inside, its net 142.4 × 117.8 mm), its text counting them; its sheets build with no warning (a
    box that thin leaves out the top's and sides' titles, which would not fit).
    Without a cards deck, the layout's 60 poker cards, said in the file."""
    folder = tmp_path / "empty"
    folder.mkdir()
    assert run(folder, "-q", "new", "kit", "--kind", "cards", "--kind", "box") == 0
    game = folder / "data" / "kit"
    box = (game / "decks" / "box.yaml").read_text(encoding="utf-8")
    assert "\nbox: {deck: cards}" in box and 'text: "カード4枚"' in box and "left_spine: null" in box
    assert "◇箱（１個）" in (game / "draft.txt").read_text(encoding="utf-8")
    capsys.readouterr()
    assert run(folder, "build", "--game", "kit", "--jobs", "1", "--no-rulebook") == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert warnings == []  # (the player count left open is the rulebook's cover's to warn of)
    decks = {d["id"]: d for d in json.loads((folder / "build" / "kit" / "manifest.json").read_text(encoding="utf-8"))["decks"]}
    assert decks["box"]["trim_mm"] == [142.4, 117.8] and decks["box"]["count"] == 1  # 2 × 64 + 2 × 2.2 + 10, 89 + 2 × 2.2 + 2 × 12.2
    assert any("kit" in page for page in texts(folder / "build" / "kit" / "box.pdf"))
    assert run(folder, "-q", "new", "solo", "--kind", "box", "--lang", "en") == 0
    alone = (folder / "data" / "solo" / "decks" / "box.yaml").read_text(encoding="utf-8")
    assert "\nlayout: tuck-box\nbox: {cards: poker, count: 60}" in alone and 'text: "60 cards"' in alone


def test_new_prints_a_title_holding_markup_characters_as_typed_on_the_box_and_board(tmp_path):
    """--title 'Dice {Beta} {slug}': the box's and board's title field read {Beta} as an icon (the
    new game did not build: "unknown icon"), and the {slug} in it was filled with the slug."""
    folder = tmp_path / "empty"
    folder.mkdir()
    title = "Dice {Beta} {slug} *x*"
    assert run(folder, "-q", "new", "kit", "--title", title, "--kind", "cards", "--kind", "box", "--kind", "board") == 0
    assert run(folder, "-q", "build", "--game", "kit", "--jobs", "1", "--no-rulebook") == 0
    for deck in ("box", "board"):
        assert any(title in page for page in texts(folder / "build" / "kit" / f"{deck}.pdf")), deck


def test_new_game_in_english_builds_an_english_game_and_rulebook(tmp_path, capsys):
    """English trial: ``pnpgen new`` wrote カード, トークン and a ■ draft whatever the title; with
    ``--lang en`` it writes an English game (languages: [en], Noto faces, English deck names) and
    an English draft whose components are the decks: it builds with no warning but the player
    count it left open, and the book's headings, components and counts are the draft's. Its open
    values are TBD, and not one Japanese character is in anything it prints or writes (an English
    designer's BOM said 人数 未定, the cards 未定 (write its effect))."""
    import pypdfium2

    folder = tmp_path / "empty"
    folder.mkdir()
    assert run(folder, "new", "guild", "--title", "Harvest Guild", "--lang", "en", "--kind", "cards",
               "--kind", "tokens", "--kind", "tiles", "--kind", "board") == 0
    said = capsys.readouterr().out
    assert "its Components bullets match" in said and "TBD values print in magenta" in said
    game = folder / "data" / "guild"
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(game.rglob("*.*")))
    assert not CJK.search(said + text), said + text  # no kana, no ■ marks, no 未定: TBD is its mark
    assert "languages: [en]" in text and "name: Cards" in text and "- 4 Cards\n- 15 Tokens\n- 6 Tiles\n- 1 Board\n" in text
    assert "players: TBD" in text and "text: TBD (write its effect)" in text
    docs = " ".join((REPO / "docs" / "data-format.md").read_text(encoding="utf-8").split())
    listed = re.findall(r"`(## [^`]+)`", docs[docs.index("is an English draft:"):docs.index("each holding a note")])
    assert listed == [line for line in (game / "draft.txt").read_text(encoding="utf-8").splitlines()
                      if line.startswith("## ")]  # the sections data-format.md says it writes
    cards = game / "decks" / "cards.yaml"  # an empty title (the layout's pill) and a 未定 written by hand
    deck = cards.read_text(encoding="utf-8")
    assert "  - title: Card 2\n    count: 2\n    cost: 2\n    text: TBD (write its effect)\n" in deck, deck
    cards.write_text(deck.replace("  - title: Card 2\n    count: 2\n    cost: 2\n    text: TBD (write its effect)\n",
                                  "  - title: ''\n    count: 2\n    cost: 2\n    text: 未定 by hand\n"), encoding="utf-8")
    assert run(folder, "build", "--game", "guild", "--jobs", "1") == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(warnings) == 1 and "players is a placeholder (TBD)" in warnings[0], warnings
    assert warnings[0].startswith("pnpgen: warning: data/guild/game.yaml:4:10: players"), warnings  # its line, to click
    build = folder / "build" / "guild"
    proof = (build / "proof.txt").read_text(encoding="utf-8")
    assert "Count" not in proof and "Open" in proof, proof  # the counts agree; the TBD values are open
    printed = {p.relative_to(build).as_posix(): "\n".join(texts(p)) for p in sorted(build.rglob("*.pdf"))}
    printed.update({p.relative_to(build).as_posix(): p.read_text(encoding="utf-8")
                    for p in sorted(build.rglob("*")) if p.suffix in (".txt", ".csv", ".json")})
    leaks = {name: CJK.findall(words) for name, words in printed.items() if CJK.search(words)}
    assert not leaks, leaks
    assert "players TBD" in printed["guild-all.pdf"]  # the bill of materials
    assert "TBD by hand" in printed["cards.pdf"] and re.search(r"\b2 TBD\s", printed["cards.pdf"]), printed["cards.pdf"]
    assert "TBD (empty: the layout prints TBD)" in proof, proof
    book = pypdfium2.PdfDocument(str(build / "rulebook.pdf"))
    pages = [book[n].get_textpage().get_text_range() for n in range(len(book))]
    assert "Draft 1" in pages[0] and "2 Components" in pages[1] and "3 Setup" in pages[1]
    assert re.search(r"Cards\s+4", "\n".join(pages)) and re.search(r"Tokens\s+15", "\n".join(pages))
    assert run(folder, "check", "--game", "guild") == 0
    listed = capsys.readouterr().out
    assert "Card 1.text: TBD (write its effect)" in listed and "#2.title: TBD (empty: the layout prints TBD)" in listed
    assert not CJK.search(listed), listed
    assert run(folder, "list") == 0
    assert "Harvest Guild  Draft 1  TBD" in capsys.readouterr().out


def test_an_open_value_prints_as_the_editions_word(tmp_path):
    """未定 and TBD both mark an open value, in any game; each edition prints its own word for
    it: 未定 in the Japanese, TBD in the English (the designer's note after the mark as written)."""
    from pnpgen.data.model import is_placeholder, placeholder_said

    assert is_placeholder("TBD") and is_placeholder(" TBD (later)") and is_placeholder("未定（あとで）")
    assert not is_placeholder("TBDX") and not is_placeholder("Tbd") and not is_placeholder("The TBD")
    assert placeholder_said("未定 (later)", "en") == "TBD (later)" and placeholder_said("TBD", "ja") == "未定"
    assert placeholder_said("TBD", "fr") == "TBD" and placeholder_said("Dragon", "ja") == "Dragon"
    root = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [ja, en]\n",
                          deck=DECK_YAML + "  - {name: 竜, text: TBD あとで}\n  - {name: 未定}\n")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--lang", "en") == 0
    ja = "\n".join(texts(root / "build" / "test" / "cards.pdf"))
    en = "\n".join(texts(root / "build" / "test" / "en" / "cards.pdf"))
    assert "未定 あとで" in ja and "TBD" not in ja, ja
    assert "TBD あとで" in en and "未定" not in en, en


def test_a_new_workspace_ignores_its_output_in_git_and_keeps_a_gitignore_it_finds(tmp_path, capsys):
    """A designer's workspace kept in git committed build/ (the docs said to ignore it, pnpgen new
    wrote nothing): a workspace new makes gets a .gitignore of build/; one already there, or a
    workspace that exists, is left as it is."""
    fresh, kept = tmp_path / "fresh", tmp_path / "kept"
    fresh.mkdir()
    kept.mkdir()
    (kept / ".gitignore").write_text("*.psd\n", encoding="utf-8")
    assert run(fresh, "-q", "new", "one") == 0 and run(kept, "-q", "new", "two") == 0
    assert (fresh / ".gitignore").read_text(encoding="utf-8") == "build/\n"
    assert (kept / ".gitignore").read_text(encoding="utf-8") == "*.psd\n"
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "-q", "new", "three") == 0 and not (ws / ".gitignore").exists()


def test_new_game_by_default_is_one_card_deck_in_this_workspace(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws")
    assert run(root / "data", "new", "demo") == 0  # from a folder inside the workspace
    assert sorted(p.name for p in (root / "data" / "demo" / "decks").iterdir()) == ["cards.yaml"]
    capsys.readouterr()
    assert run(root, "-q", "new", "quiet") == 0  # -q: the files, and nothing said
    assert capsys.readouterr().out == "" and (root / "data" / "quiet" / "decks" / "cards.yaml").is_file()
    assert run(root, "check", "--game", "demo") == 0  # its placeholders are listed
    assert "未定" in capsys.readouterr().out


def test_layout_list_names_every_builtin_layout(tmp_path, capsys):
    assert run(tmp_path, "layout", "list") == 0
    out = capsys.readouterr().out
    for name in layouts.builtin_names():
        assert f"\n{name} " in "\n" + out
    assert textwrap.dedent(out).count("built-in") == len(layouts.builtin_names())
    lines = out.splitlines()  # in columns (American trial: a size 57.735×50 mm pushed its line's columns over)
    assert len({line.index("built-in") for line in lines}) == 1, out


def test_layout_list_and_the_names_offered_pass_over_editors_and_the_systems_files(tmp_path, capsys):
    """macOS's ``._card.yaml`` (a workspace on a USB stick) and Emacs's lock ``.#card.yaml``
    beside a layout of the workspace's own: ``layout list`` stopped at them ('not a layout
    name'), and 'unknown sheet layout' offered ``._x`` among the names to use."""
    ws = make_workspace(tmp_path / "ws")
    (ws / "layouts").mkdir()
    (ws / "layouts" / "._card.yaml").write_bytes(b"\x00\x05\x16\x07 AppleDouble")
    (ws / "layouts" / ".#card.yaml").symlink_to("designer@host.4242:1700000000")
    (ws / "sheets").mkdir()
    (ws / "sheets" / "._mine.yaml").write_bytes(b"\x00\x05\x16\x07 AppleDouble")
    assert run(ws, "layout", "list") == 0
    assert "._card" not in capsys.readouterr().out
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "nope") == 2
    err = capsys.readouterr().err
    assert "unknown sheet layout 'nope'" in err and "._mine" not in err, err


def test_layout_list_passes_over_a_yaml_name_that_is_no_file(tmp_path, capsys):
    """A pipe, a folder or a link to nothing named ``layouts/*.yaml`` (which no deck can use):
    ``layout list`` stopped at it, "unknown layout 'pipe'; did you mean pipe?"."""
    import os

    ws = make_workspace(tmp_path / "ws")
    (ws / "layouts").mkdir()
    os.mkfifo(ws / "layouts" / "pipe.yaml")
    (ws / "layouts" / "folder.yaml").mkdir()
    (ws / "layouts" / "gone.yaml").symlink_to("nowhere.yaml")
    (ws / "layouts" / "mine.yaml").write_text("extends: card-poker\n", encoding="utf-8")
    assert run(ws, "layout", "list") == 0
    out = capsys.readouterr().out
    assert "mine" in out and not {"pipe", "folder", "gone"} & set(re.findall(r"^(\S+)", out, re.M)), out


def test_a_layouts_background_may_be_each_pieces_colour(tmp_path):
    """Hex tiles of five terrains from ``tile-hex``: ``background: piece.colour`` grounds each
    tile in its own colour, the field declared by the layout (no ``fields:`` in the deck), as
    data-format.md says of ``background``."""
    import pypdfium2

    game = "title: 遊戯\npalette: {forest: '#8fc58a', lake: '#9fd0ec'}\n"
    root = make_workspace(tmp_path / "ws", game=game, deck="name: 地形\nlayout: {extends: tile-hex, background: "
                          "piece.colour}\npieces:\n  - {title: 森, colour: forest}\n  - {title: 湖, colour: lake}\n")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    dpi = 72
    pdf = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))
    at = (round((BLEED + 25) / 25.4 * dpi), round((BLEED + 5.5) / 25.4 * dpi))  # inside the hex, above its frame
    grounds = [pdf[n].render(scale=dpi / 72).to_pil().convert("RGB").getpixel(at) for n in range(2)]
    assert grounds == [(0x8F, 0xC5, 0x8A), (0x9F, 0xD0, 0xEC)]
    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    keys = docs[docs.index("Layout keys:"):docs.index("Box options")]
    assert "`background: piece.colour`" in keys


def test_every_layout_key_and_box_option_is_documented():
    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Layouts"):docs.index("## Artwork")]
    for key in (*layouts.LAYOUT_KEYS, *boxoptions.BOX_OPTIONS, *boxoptions.BOX_TYPES, *boxoptions.SOURCES):
        assert f"`{key}`" in section or f"`{key}:" in section, key
    for name in layouts.builtin_names():
        assert f"| `{name}` |" in section, name


def test_an_unknown_icon_in_a_layout_deck_is_told_at_the_piece_not_in_pnpgens_files(tmp_path, capsys):
    """A layout deck has no template of the designer's: the error names the piece's line and
    the column of its ``icons:`` value, and the field."""
    root = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n"
                                                "  - {title: 題}\n  - {title: 騎士, icons: [vp, coins]}\n")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "piece.svg.j2" not in err, err
    assert "decks/cards.yaml:5:24: icons: " in err and "unknown icon {coins}; did you mean coin?" in err, err


def test_a_character_of_the_games_title_no_font_has_is_told_at_the_title(tmp_path, capsys):
    """The card back of a built-in layout shows the game's title: 🂡 in it was told at the first
    piece's line as its 'back', a piece that holds no such character."""
    root = make_workspace(tmp_path / "ws", game=GAME_YAML.replace("title: テストゲーム", 'title: "テスト🂡"'),
                          deck="name: カード\nlayout: card-poker\npieces:\n  - {title: 題}\n")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: data/test/game.yaml:1:8: title: character U+1F0A1 '🂡' is in no font"), err
    assert "field 'game.title'" in err and err.count("\n") == 1, err


def test_a_picture_a_layout_deck_cannot_draw_is_told_without_a_template_file(tmp_path, capsys):
    """A built-in layout is no file: an SVG picture's error began 'pnpgen: error: <template>: …',
    Jinja's name for a template made from text. It names the picture and the piece."""
    root = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n  - {title: 題, art: a.svg}\n")
    (root / "data" / "test" / "art").mkdir()
    (root / "data" / "test" / "art" / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="5" writing-mode="tb">Z</text></svg>', encoding="utf-8")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "<template>" not in err, err
    assert err.startswith("pnpgen: error: data/test/art/a.svg (image in deck 'cards' piece 1 (題, data/test/decks/cards.yaml:4:5) "
                          "front): <text> (line 1 of the SVG) has writing-mode='tb'"), err


def test_text_from_a_layout_or_the_data_prints_as_written(tmp_path):
    """Data is data: braces, quotes and angle brackets in a layout's fixed text or a piece's
    value print literally, never as Jinja or SVG."""
    deck = ('name: カード\nlayout: {extends: card-poker, boxes: {note: {text: "a }} b {% raw %} \\" <x> & {{ 1 }}", '
            'x: 5, y: 60, w: 53, h: 6}}}\npieces:\n  - {title: "<b>&{{x}}"}\n')
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    from pdfprobe import texts

    page = texts(root / "build" / "test" / "shop" / "cards-unique.pdf")[0]
    assert "<b>&{{x}}" in page and 'a }} b {% raw %} " <x> & {{ 1 }}' in page


def test_layout_export_out_a_folder_writes_in_it_and_says_where_they_are(tmp_path, capsys):
    """``--out templates/<game>/`` names the folder to write ``<name>-front.svg.j2`` in (it said
    "templates/test already exists"), and the message is true to where the files went: already in
    a game's templates folder, or still to be put there."""
    root = make_workspace(tmp_path / "ws")
    assert run(root, "layout", "export", "card-poker", "--out", "templates/test/") == 0
    told = capsys.readouterr().out.splitlines()
    assert told[:3] == ["wrote templates/test/card-poker-front.svg.j2", "wrote templates/test/card-poker-back.svg.j2",
                        "They are in templates/test/: write in the deck, instead of 'layout:':"], told
    assert "pnpgen layout card-poker, back" in (root / "templates" / "test" / "card-poker-back.svg.j2").read_text(encoding="utf-8")
    assert run(root, "layout", "export", "tile-hex", "--out", "templates/test") == 0  # an existing folder, no slash
    assert (root / "templates" / "test" / "tile-hex-front.svg.j2").is_file()
    assert "They are in templates/test/" in capsys.readouterr().out
    (root / "elsewhere").mkdir()
    assert run(root, "layout", "export", "token-round", "--out", "elsewhere/") == 0
    told = capsys.readouterr().out
    assert "wrote elsewhere/token-round-front.svg.j2" in told and "Put them in templates/<game>/ and write" in told
    assert run(root, "layout", "export", "card-poker", "--out", "templates/test/") == 2  # never overwrites
    assert "templates/test/card-poker-front.svg.j2 already exists" in capsys.readouterr().err
    assert run(root, "layout", "export", "card-poker", "--out", "templates/nogame/") == 2
    assert "--out: folder templates/nogame does not exist" in capsys.readouterr().err


def test_a_decks_own_layout_exports_with_its_overrides_and_size(tmp_path, capsys):
    deck = ("name: カード\nformat: bridge\n"
            "layout: {extends: card-poker, boxes: {title: {size: 20, min_size: 20, align: left}, flavour: null}}\n"
            "pieces:\n  - {title: 題名, cost: 2, text: 本文}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "a")) == 0
    capsys.readouterr()
    assert run(root / "templates" / "test", "layout", "export", "--game", "test", "--deck", "cards") == 0
    told = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "format: bridge" in told and "front: cards-front.svg.j2" in told
    # written where they belong: the message says so, and what is left to do (it said "Put them in")
    assert "They are in templates/test/: write in data/test/decks/cards.yaml, instead of 'layout:':" in told
    fields = next(line for line in told if line.startswith("fields:")).split("   #")[0]
    assert "flavour" not in fields
    assert not [line for line in told if "own fields" in line]  # every field of the deck a box reads: no comment
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        "name: カード\nformat: bridge\nfront: cards-front.svg.j2\nback: cards-back.svg.j2\n"
        f"{fields}\npieces:\n  - {{title: 題名, cost: 2, text: 本文}}\n", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "b")) == 0
    assert filecmp.cmp(tmp_path / "a" / "test" / "shop" / "cards-unique.pdf",
                       tmp_path / "b" / "test" / "shop" / "cards-unique.pdf", shallow=False)
    # a deck drawn by templates has no layout to export
    assert run(root, "layout", "export", "--game", "test", "--deck", "cards") == 2
    # a mistyped deck is named with the near one
    capsys.readouterr()
    assert run(root, "layout", "export", "--game", "test", "--deck", "card") == 2
    assert "game test has no deck 'card'; did you mean cards?" in capsys.readouterr().err


def test_a_decks_own_fields_no_box_reads_are_named_in_its_exported_layout(tmp_path, capsys):
    """``layout export --deck`` ended its fields line with a bare "# and the deck's own fields:":
    it names them, so the designer knows what the layout does not show and what to keep."""
    deck = ("name: カード\nformat: bridge\nlayout: card-poker\nfields: {note: text, power: int}\n"
            "pieces:\n  - {title: 題名, cost: 2, text: 本文, note: メモ, power: 3}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "layout", "export", "--game", "test", "--deck", "cards", "--out", str(tmp_path / "x.svg.j2")) == 0
    [line] = [line.strip() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("fields:")]
    assert line.endswith("   # the deck's own fields no box reads, which the layout does not show: note, power "
                         "(add them here as the deck file gives them)"), line


def test_a_tokens_art_of_placeholder_false_is_no_art_to_come_once_exported_as_templates(tmp_path, capsys):
    """token-round's art box says placeholder: false (a token may go without art): the layout's
    deck listed none, but the same deck drawn by its exported templates listed every token's art
    as "no art yet". The fields line the export prints says so of the field."""
    deck = "name: コイン\nlayout: token-round\npieces:\n  - {title: 金, value: 1}\n  - {title: 銀, value: 5}\n"
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "check", "--game", "test") == 0
    assert "0 placeholders to settle" in capsys.readouterr().out
    assert run(root / "templates" / "test", "layout", "export", "--game", "test", "--deck", "cards") == 0
    told = [line.strip() for line in capsys.readouterr().out.splitlines()]
    fields = next(line for line in told if line.startswith("fields:")).split("   #")[0]
    assert "art: {type: image, placeholder: false}" in fields, fields
    kept = [line for line in told if line.startswith(("kind:", "shape:", "size:", "front:"))]
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        "name: コイン\n" + "\n".join(kept) + f"\n{fields}\npieces:\n  - {{title: 金, value: 1}}\n  - {{title: 銀, value: 5}}\n",
        encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "no art yet" not in out and "0 placeholders to settle" in out, out
    # a plain image field of a deck of templates still is art to come
    text = (root / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8")
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        text.replace("{type: image, placeholder: false}", "image"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0
    assert "金.art: no art yet" in capsys.readouterr().out
    # only an image field takes it
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        text.replace("title: text", "title: {type: text, placeholder: false}"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "fields.title: a field given as a mapping is an image field that may stay empty" in capsys.readouterr().err


@pytest.mark.parametrize("said, framed", [
    ("fields: {art: {type: image, placeholder: false}}\n", False),  # the deck's field: no art to come
    ("layout: {extends: card-poker, boxes: {art: {placeholder: false}}}\n", False),  # the box: the same
    ("", True),  # neither: the built-in layout's default, the frame of art to come
])
def test_an_image_field_of_placeholder_false_leaves_a_layouts_art_room_blank(tmp_path, capsys, said, framed):
    """``fields: {art: {type: image, placeholder: false}}`` in a deck of a built-in layout stopped
    check listing the art, yet the card drew the 「画像未定」 frame, where ``boxes: {art:
    {placeholder: false}}`` left the room blank: both now leave it blank (docs/data-format.md)."""
    deck = ("name: カード\n" + ("" if said.startswith("layout:") else "layout: card-poker\n") + said
            + "pieces:\n  - {title: 騎士, text: 本文}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "o")) == 0
    front = reader(tmp_path / "o" / "test" / "shop" / "cards-unique.pdf").pages[0].extract_text()
    assert "騎士" in front and "本文" in front, front
    assert ("画像未定" in front) is framed, front
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    assert ("no art yet" in capsys.readouterr().out) is framed


def test_the_round_tokens_title_plate_holds_a_round_counters_title_at_the_lints_smallest_size(tmp_path, capsys):
    """token-round's 12 mm title plate shrank 「第10ラウンド」 to 5.2 pt, under the print lint's
    6 pt (a warning for a game's round counter 10); 14 mm holds its seven characters at 6 pt or
    more, inside the safe zone of the round cut: no warning."""
    deck = "name: ラウンド\nlayout: token-round\npieces:\n  - {title: 第10ラウンド, value: 10}\n"
    root = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "o")) == 0
    out = capsys.readouterr()
    assert "print lint" not in out.out + out.err, out
    (page,) = glyphs(tmp_path / "o" / "test" / "shop" / "cards-unique.pdf")
    title = [g for g in page if g.char in "第ラウンド"]
    assert len(title) == 5 and min(g.size for g in title) >= 6.0, [(g.char, g.size) for g in title]


def test_finish_resolves_an_unplaceheld_fields_image_boxes_to_placeholder_false():
    """The deck's ``fields: {art: {type: image, placeholder: false}}`` is one of the options
    layouts.finish resolves for each box (beside ``boxes: {art: {placeholder: false}}``), not a
    patch on the finished layout: its image box reads it, its other boxes keep their own."""
    raw = layouts.resolve(None, "card-poker", Located(Path("test"), None), ())
    g = layouts.geometry(raw)
    def held(names: frozenset[str]) -> dict[str, Any]:
        built = layoutsides.finish(raw, trim_of(g), g.shape, deck=layoutsides.DeckFile(unplaceheld=names))
        return {b.name: dict(b.options).get("placeholder") for b in built.front.boxes if b.type in ("image", "text")}
    before, after = held(frozenset()), held(frozenset({"art"}))
    assert before["art"] is True and after["art"] is False, (before, after)
    assert {k: x for k, x in after.items() if k != "art"} == {k: x for k, x in before.items() if k != "art"}
    assert held(frozenset({"title"})) == before  # a text field of the name: its text box untouched


@pytest.mark.parametrize("joint", ["、", "，"])
def test_icons_joined_by_a_japanese_comma_are_told_the_list_to_write(tmp_path, capsys, joint):
    """``icons: [vp、coin]`` (an input method's comma) is one item to YAML: it was "unknown icon
    {vp、coin}; did you mean coin?", which hid that both icons exist."""
    root = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n"
                                                f"  - {{title: 騎士, icons: [vp{joint}coin]}}\n")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    out = capsys.readouterr()
    assert (f"unknown icon {{vp{joint}coin}}: 2 icons' names joined by '{joint}' (YAML separates a list's items "
            "with a half-width ',' and a space: [vp, coin])") in out.out + out.err, out


def test_a_mistake_in_a_text_is_told_at_the_line_of_that_field(tmp_path, capsys):
    """A piece written over several lines: the unknown icon in its text is said at the text's
    own line, not the piece's first (a designer hunting for {vpp} in a long deck file)."""
    root = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n"
                                                "  - title: 騎士\n    cost: 2\n    text: \"2{vpp}を得る\"\n")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    out = capsys.readouterr()
    assert "decks/cards.yaml:6:11: text: unknown icon {vpp}; did you mean vp?" in out.out + out.err, out


def test_a_title_and_deck_name_with_markup_characters_print_as_written(tmp_path, capsys):
    """``pnpgen new --title "Dice {Beta}"`` made a game that did not build: the built-in back
    showed the title through the card text's markup, {Beta} an unknown icon. A layout shows the
    game's title and a deck's name as they stand (the ``literal`` filter)."""
    assert run(tmp_path, "new", "dice", "--title", "Dice {Beta} *1*") == 0
    deck = tmp_path / "data" / "dice" / "decks" / "cards.yaml"
    deck.write_text(re.sub(r"(?m)^name: .*$", "name: '[Core] cards'", deck.read_text(encoding="utf-8"), count=1),
                    encoding="utf-8")
    capsys.readouterr()
    assert run(tmp_path, "build", "--game", "dice", "--no-rulebook") == 0, capsys.readouterr().err
    printed = re.sub(r"\s", "", "".join(g.char for page in glyphs(tmp_path / "build" / "dice" / "cards.pdf") for g in page))
    assert "Dice{Beta}*1*" in printed and "[Core]cards" in printed, printed


def test_a_layouts_dark_text_turns_light_on_a_dark_piece_colour(tmp_path):
    """``tile-hex`` grounded in each piece's colour: on a deep-forest or night-sea tile the
    title and text (the layout's dark ``ink``) print in its light ``paper``, on a meadow tile in
    ``ink`` as before; the card layout's white title on its band stays white."""
    from rulebook.test_rulebook_english import fill_colours

    game = "title: 遊戯\npalette: {forest: '#1f3b1f', sea: '#102040', meadow: '#a8d08d'}\n"
    root = make_workspace(tmp_path / "ws", game=game, deck="name: 地形\nlayout: {extends: tile-hex, background: "
                          "piece.colour}\npieces:\n  - {title: 森, colour: forest, text: 深い}\n"
                          "  - {title: 海, colour: sea, text: 夜の}\n  - {title: 原, colour: meadow, text: 草の}\n")
    (root / "data" / "test" / "decks" / "spells.yaml").write_text(
        "name: 呪文\nlayout: card-poker\npieces:\n  - {title: 火球, text: 燃える}\n", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    shop = root / "build" / "test" / "shop"
    ink, paper = (0x23, 0x26, 0x2e), (0xfb, 0xf8, 0xf1)
    for page, (title, text, colour) in enumerate([("森", "深い", paper), ("海", "夜の", paper), ("原", "草の", ink)]):
        chars = texts(shop / "cards-unique.pdf")[page]
        colours = fill_colours((shop / "cards-unique.pdf").read_bytes(), page)
        for ch in title + text:
            assert colours[chars.index(ch)] == colour, (ch, colours[chars.index(ch)])
    chars = texts(shop / "spells-unique.pdf")[0]
    colours = fill_colours((shop / "spells-unique.pdf").read_bytes(), 0)
    assert colours[chars.index("火")] == (0xff, 0xff, 0xff) and colours[chars.index("燃")] == ink


def test_a_text_on_a_filled_frame_is_read_on_the_frames_fill(tmp_path):
    """A hex tile's frame filled in a night-sea colour under the title: the layout's dark ``ink``
    title is read on the frame's fill, not on the tile's pale ground, and prints in ``paper``."""
    from rulebook.test_rulebook_english import fill_colours

    deck = ("name: 地形\nlayout:\n  extends: tile-hex\n  boxes:\n    frame: {fill: '#102040'}\n"
            "pieces:\n  - {title: 海, text: 港}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    unique = root / "build" / "test" / "shop" / "cards-unique.pdf"
    chars = texts(unique)[0]
    assert fill_colours(unique.read_bytes(), 0)[chars.index("海")] == (0xfb, 0xf8, 0xf1)


def test_a_title_whose_letters_stand_on_a_shrunk_band_keeps_its_white(tmp_path):
    """trial83: a life board from ``board`` with its band shrunk to 12 mm (``band: {h: 12}``) under
    the 16 mm title box printed its 16 pt title in the dark ``ink`` on the dark accent band: the
    band was no ground, as it is not under the whole box. The letters, one line in the box's middle,
    stand on the band: the title stays white. Moved down off the band (``valign: bottom``), its
    letters stand on the paper, and the white turns ``ink`` as before."""
    from rulebook.test_rulebook_english import fill_colours

    deck = ("name: ライフ\nlayout:\n  extends: board\n  size: [180, 60]\n  boxes:\n    art: null\n    text: null\n"
            "    band: {h: 12}\n    title: {size: 16}\npieces:\n  - {title: 魔女}\n")
    for name, written, colour in (("band", deck, (0xff, 0xff, 0xff)),
                                  ("off", deck.replace("{size: 16}", "{size: 16, valign: bottom}"), (0x22, 0x22, 0x22))):  # (the game's ink)
        root = make_workspace(tmp_path / name, deck=written)
        assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        unique = root / "build" / "test" / "shop" / "cards-unique.pdf"
        chars = texts(unique)[0]
        assert fill_colours(unique.read_bytes(), 0)[chars.index("魔")] == colour, name


BAND_12 = ("name: ボード\nlayout:\n  extends: board\n  boxes:\n    band: {h: 12}\n    title: {size: 28}\n"
           "pieces:\n  - {title: 王国の地図, text: 説明}\n")


@pytest.mark.parametrize("edit, warned", [
    ("", "data/test/decks/cards.yaml:5:5: box title's 28 pt letters (9.1–18.9 mm down) stand 0.9 mm below the "
         "band under them (6–18 mm down): part of each letter on the band, part off it, its colour read on one and "
         "not the other (expected title: {size: 22.5} or less (its letters on the band), or band: {h: 13} or more)"),
    ("{size: 16, valign: bottom}", "data/test/decks/cards.yaml:5:5: box title's 16 pt letters (16.4–22.0 mm down) "
     "stand 4.0 mm below the band under them (6–18 mm down): part of each letter on the band, part off it, its "
     "colour read on one and not the other (expected band: {h: 16} or more)"),
    ("{size: 22.5}", None), ("{h: 13}", None)])
def test_a_title_whose_letters_overhang_a_shrunk_band_is_warned(tmp_path, capsys, edit, warned):
    """A board's title at the default 28 pt over its band shrunk to 12 mm (``band: {h: 12}``) has
    the lower part of its letters on the paper, the rest on the band: the white title, turned to
    ``ink`` for the paper, printed dark on dark. The build warns at the deck's line with the size
    that keeps the letters on the band and the band's height that holds them; either cures it
    (the title then white on the band)."""
    from rulebook.test_rulebook_english import fill_colours

    deck = BAND_12.replace("{h: 12}" if "h:" in edit else "{size: 28}", edit) if edit else BAND_12
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "letters" in line]
    assert said == ([f"pnpgen: warning: {warned}"] if warned else []), err
    if warned is None:
        unique = root / "build" / "test" / "shop" / "cards-unique.pdf"
        assert fill_colours(unique.read_bytes(), 0)[texts(unique)[0].index("王")] == (0xff, 0xff, 0xff)


def test_an_icons_box_prints_its_icons_in_its_colour(tmp_path):
    """trial57: a terrain icon on a dark hex tile printed black, as icon() draws an icon's
    currentColor, and an icons box took no colour (an error at its line). An icons box's ``colour:``
    is what the icons' currentColor prints in (a palette name); without it they print black as
    before."""
    def fills(deck: str) -> set[tuple[float, ...]]:
        root = make_workspace(tmp_path / str(len(list(tmp_path.iterdir()))), deck=deck)
        icons = root / "templates" / "test" / "icons"
        icons.mkdir(parents=True, exist_ok=True)
        (icons / "nami.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect x="2" y="2" '
                                        'width="20" height="20" fill="currentColor"/></svg>', encoding="utf-8")
        assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        out = set()
        with pikepdf.open(root / "build" / "test" / "shop" / "cards-unique.pdf") as doc:
            for form in doc.pages[0].Resources.XObject.values():
                for operands, op in pikepdf.parse_content_stream(form):
                    if str(op) == "rg":
                        out.add(tuple(round(float(v), 3) for v in operands))
        return out

    deck = ("name: 地形\nlayout:\n  extends: tile-hex\n  palette: {accent: '#336699'}\n  boxes:\n"
            "    mark: {type: icons, field: icons, x: 20, y: 17, w: 10, h: 10, colour: accent}\n"
            "pieces:\n  - {title: 海, icons: [nami], text: 港}\n")
    accent, black = (0.2, 0.4, 0.6), (0.0, 0.0, 0.0)
    coloured = fills(deck)
    assert accent in coloured and black not in coloured, coloured
    plain = fills(deck.replace(", colour: accent}", "}"))
    assert black in plain and accent not in plain, plain


def test_a_round_tokens_text_turns_readable_where_its_art_box_prints_nothing(tmp_path):
    """trial57: player tokens from ``token-round`` grounded in each player's colour, the title in
    ``paper`` over the round token's art box (the whole token, ``placeholder: false``): no token has
    art, yet the text was taken as standing on art (colours unknown) and the white 家 on the yellow
    token (1.9:1) printed as written, which the print lint then named. Where the piece has no art
    the text is read on the ground under the art's room: ink on yellow, paper on red; a token with
    art keeps its text as written."""
    from rulebook.test_rulebook_english import fill_colours

    game = "title: 遊戯\npalette: {red: '#c0392b', yellow: '#e0b000'}\n"
    deck = ("name: 家\nlayout:\n  extends: token-round\n  background: piece.colour\n  boxes:\n    value: null\n"
            "    title: {x: 5.5, y: 8.5, w: 14, h: 8, size: 14, min_size: 9, fill: none, colour: paper}\n"
            "fields: {colour: colour}\npieces:\n  - {title: 赤, colour: red}\n  - {title: 黄, colour: yellow}\n"
            "  - {title: 絵, colour: yellow, art: pic.png}\n")
    root = make_workspace(tmp_path / "ws", game=game, deck=deck)
    from PIL import Image
    (root / "data" / "test" / "art").mkdir(exist_ok=True)
    Image.new("RGB", (300, 300), (224, 176, 0)).save(root / "data" / "test" / "art" / "pic.png")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    unique = root / "build" / "test" / "shop" / "cards-unique.pdf"
    ink, paper = (0x23, 0x26, 0x2e), (0xfb, 0xf8, 0xf1)
    for page, (ch, colour) in enumerate([("赤", paper), ("黄", ink), ("絵", paper)]):
        chars = texts(unique)[page]
        assert fill_colours(unique.read_bytes(), page)[chars.index(ch)] == colour, (ch, page)


@pytest.mark.parametrize("pieces", ["  - {title: 森, colour: forest}\n  - {title: 海, colour: sea}\n",
                                    "  {file: tiles.csv}\n"])
def test_a_misspelt_piece_colour_in_a_layout_is_told_at_the_layout_not_at_every_piece(tmp_path, capsys, pieces):
    """``background: piece.color`` over pieces that say ``colour:``: the slip declared a field
    ``color``, and the error said ``pieces.1.colour: unknown key in piece 1; did you mean color?``,
    asking the designer to rename the data to match the slip. It is told at the layout's line,
    with what to write there, exit 2; in a spreadsheet deck as in YAML."""
    game = "title: 遊戯\npalette: {forest: '#1f3b1f', sea: '#102040'}\n"
    root = make_workspace(tmp_path / "ws", game=game, deck="name: 地形\nlayout: {extends: tile-hex, background: "
                          f"piece.color}}\npieces:\n{pieces}")
    (root / "data" / "test" / "decks" / "tiles.csv").write_text("title,colour\n森,forest\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert err == ("pnpgen: error: data/test/decks/cards.yaml:2:41: layout.background: piece.color: no piece has a "
                   "field 'color'; did you mean colour? (expected piece.colour, the field the pieces give, or color: in the "
                   "pieces)"), err
    # a field declared by piece.<field> alone, given by the pieces as written, still builds
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        "name: 地形\nlayout: {extends: tile-hex, background: piece.terrain}\npieces:\n  - {title: 森, terrain: forest}\n",
        encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0


@pytest.mark.parametrize("pieces", ["  - {player: red, count: 15}\n  - {player: blue, count: 15}\n",
                                    "  {file: tokens.csv}\n"])
def test_a_misspelt_piece_colour_over_a_field_the_deck_declares_is_told_at_the_layout(tmp_path, capsys, pieces):
    """English trial (trial80): player tokens, ``fields: {player: colour}`` and ``background: piece.playr``.
    The declared field let the slip through: ``playr`` became a field no piece gives, and the build
    printed 30 grey tokens with no warning, exit 0. It is told at the layout's line, as the slip over
    an undeclared field is; the field spelt right builds the tokens in their colours."""
    game = "title: Tides\npalette: {red: '#c0392b', blue: '#2e5fa8'}\n"
    deck = ("name: Boats\nfields: {player: colour}\nlayout: {extends: token-round, background: piece.playr, "
            f"boxes: {{title: null, value: null}}}}\npieces:\n{pieces}")
    root = make_workspace(tmp_path / "ws", game=game, deck=deck)
    (root / "data" / "test" / "decks" / "tokens.csv").write_text("player,count\nred,15\nblue,15\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert err == ("pnpgen: error: data/test/decks/cards.yaml:3:44: layout.background: piece.playr: no piece has a "
                   "field 'playr'; did you mean player? (expected piece.player, the field the pieces give, or playr: in "
                   "the pieces)"), err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("piece.playr", "piece.player"),
                                                                 encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--quiet") == 0
    page = pypdfium2.PdfDocument(root / "build" / "test" / "shop" / "cards-unique.pdf")
    for n, colour in enumerate([(0xc0, 0x39, 0x2b), (0x2e, 0x5f, 0xa8)]):  # each token's middle in its player's colour
        bitmap = page[n].render(scale=1).to_pil().convert("RGB")
        assert bitmap.getpixel((bitmap.width // 2, bitmap.height // 2)) == colour, n


@pytest.mark.parametrize("pieces", ["  - {word1: 月, word2: 山}\n", "  {file: words.csv}\n"])
def test_a_misspelt_box_field_in_a_layout_is_told_at_the_box_not_as_the_pieces_key(tmp_path, capsys, pieces):
    """A word deck's box ``field: wordl`` (l for 1) over a sheet whose column says ``word1``: the
    build said ``label: unknown label field 'word1'; did you mean wordl?`` (or, without label:,
    the column ``word1`` unknown, did you mean wordl?): asking the designer to copy the slip into
    the data. It is told at the box's line, with what to write there."""
    deck = ("name: ことば\nlayout:\n  extends: card-poker\n  boxes:\n    title: {field: wordl}\n"
            "    text: {field: word2}\nlabel: word1\npieces:\n" + pieces)
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "data" / "test" / "decks" / "words.csv").write_text("word1,word2\n月,山\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert err == ("pnpgen: error: data/test/decks/cards.yaml:5:20: layout.boxes.title.field: wordl: no piece has a "
                   "field 'wordl'; did you mean word1? (expected field: word1, the field the pieces give, or wordl: in "
                   "the pieces)"), err
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("wordl", "word1"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0


def test_the_small_token_of_the_docs_builds_with_its_value_alone_and_no_lint(tmp_path, capsys):
    """A 16 mm token from ``token-round`` keeps the 25 mm token's boxes: the title's plate hid the
    lower half of the value (船 read 白八) and the lint named the title. The layout an example of
    data-format.md gives such a token, copied from the docs, builds quietly with the value centred."""
    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    at = docs.index("`layout: {extends: token-round, size: 16")
    layout = " ".join(docs[at + 1:docs.index("`", at + 1)].split())
    root = make_workspace(tmp_path / "ws", deck=f"name: 船\n{layout}\npieces:\n  - {{value: 船, count: 2}}\n")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "print lint" not in capsys.readouterr().err
    [ship] = [g for g in glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0] if g.char == "船"]
    assert abs(ship.x + ship.size * 0.3528 / 2 - (BLEED + 8)) < 0.5, ship  # centred across the 16 mm token


ROLE = ("あなたは、このラウンドの語り部です。自分のことばカードの上側の言葉を見て、それを直接言わずに、連想される言葉を"
        "一つだけチームに伝えてください。ジェスチャーや音を使ってはいけません。伝えた言葉がカードの下側の言葉と同じだった場合は、"
        "伝え直してください。チームが正解したら、あなたとチーム全員が１点を得ます。")


def test_a_text_too_long_is_given_room_in_the_box_that_shows_it_not_one_named_after_its_field(tmp_path, capsys):
    """The wargame trial (trial76): a counter's unit name in a box of its own, `unit: {field: title}`
    (the token's own `title: null`), was told "give it room …: boxes: {title: {y: …, h: …}}", a box
    the deck had removed; the warning names the box showing the field, on the front and the back."""
    deck = ("name: Units\nlayout:\n  extends: token-square\n  size: [12.7, 12.7]\n  boxes:\n    title: null\n"
            "    value: null\n    art: null\n    unit: {field: title, x: 3, y: 7, w: 6.7, h: 2.2, size: 5, min_size: 5}\n"
            "  back:\n    boxes:\n      unit: {field: title, x: 3, y: 7, w: 6.7, h: 2.2, size: 5, min_size: 5}\n"
            "pieces:\n  - {title: 10/Mech Recon}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    told = [line for line in capsys.readouterr().out.splitlines() if "does not fit" in line]
    assert len(told) == 2 and all("field 'title'" in line and "boxes: {unit: {y: …, h: …}}" in line for line in told), told


def test_the_docs_role_card_without_art_gives_its_long_text_the_arts_room(tmp_path, capsys):
    """A role card's long text overflowed its 13 mm box; `art: null` alone left the art's room
    empty. The override docs/data-format.md gives moves the text up and fits it."""
    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    override = re.search(r"`(layout: \{extends: card-poker, boxes: \{art: null, icons:\s*null, text: \{[^`]*)`", docs)
    assert override, "the docs' role-card override"
    layout = re.sub(r"\s+", " ", override.group(1))
    alone = "layout: {extends: card-poker, boxes: {art: null}}"
    root = make_workspace(tmp_path / "ws", deck=f"name: 役割\n{alone}\npieces:\n  - {{title: 語り部, text: {ROLE}}}\n")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    told = [line for line in capsys.readouterr().err.splitlines() if "does not fit" in line]
    assert len(told) == 1 and "mm more; give it room in the deck's layout: boxes: {text: {y: …, h: …}}); set at" \
        in told[0], told
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        f"name: 役割\n{layout}\npieces:\n  - {{title: 語り部, text: {ROLE}}}\n", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "does not fit" not in capsys.readouterr().err
    page = glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0]
    first = next(c for c in page if c.char == "あ")
    assert 14 < first.y - BLEED < 22  # under the band, where the art was


def test_a_fold_over_standee_prints_its_figure_twice_the_far_copy_upside_down_with_dashed_folds(tmp_path, capsys):
    """A fold-over standee could not be made without a template: no box turned upside down, no
    fold line. ``layout: standee`` prints the art twice on a 25×120 mm strip, the far copy turned
    180° about the fold (so, folded, the back shows the figure mirrored), dashed fold lines at the
    middle and at each 10 mm base tab."""
    import pypdfium2
    from PIL import Image

    root = make_workspace(tmp_path / "ws", deck="name: 兵\nlayout: standee\npieces:\n  - {title: 騎士, art: k.png}\n")
    (root / "data" / "test" / "art").mkdir()
    art = Image.new("RGB", (370, 600), "white")
    art.paste((255, 0, 0), (0, 0, 80, 80))  # a red mark at the figure's top-left: front and back tell apart
    art.save(root / "data" / "test" / "art" / "k.png")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "print lint" not in capsys.readouterr().err
    dpi = 144
    page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    assert (round(page.get_width() * 25.4 / 72), round(page.get_height() * 25.4 / 72)) == (31, 126)
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")

    def px(x_mm: float, y_mm: float) -> tuple[int, int, int]:  # trim coordinates
        return image.getpixel((round((BLEED + x_mm) / 25.4 * dpi), round((BLEED + y_mm) / 25.4 * dpi)))

    red = [(x / 4, y / 4) for y in range(0, 480) for x in range(-8, 108) if px(x / 4, y / 4) == (255, 0, 0)]
    near = [(x, y) for x, y in red if y > 60]
    far = [(x, y) for x, y in red if y < 60]
    assert near and far
    cx, cy = sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near)
    fx, fy = sum(x for x, _ in far) / len(far), sum(y for _, y in far) / len(far)
    assert cx < 5 and 60 < cy < 70  # the front copy upright: its mark top-left, under the fold
    assert abs(fx - (25 - cx)) < 0.3 and abs(fy - (120 - cy)) < 0.3  # the far copy: the front turned 180° about the fold
    for y in (10, 60, 110):  # the fold lines: dark dashes across the whole width
        row = [min(sum(px(x / 4, y + d)) for d in (-0.1, 0, 0.1)) < 200 for x in range(0, 100)]  # ink, not the tab
        dashes = sum(1 for a, b in zip(row, row[1:]) if b and not a)
        assert dashes >= 6, (y, row)


def test_a_roll_and_write_sheets_grid_and_tick_boxes_come_from_yaml(tmp_path, capsys):
    """A roll-and-write sheet's grid and its row of tick boxes needed a picture drawn elsewhere or
    a template: a ``type: grid`` box draws ``cols`` × ``rows`` cells, ruled (``spacing: 0``) or
    as boxes apart (``spacing: 2``), each line where the box's size puts it."""

    deck = ("name: 記録\nkind: board\nsize: [148, 210]\nlayout:\n  extends: board\n  boxes:\n    art: null\n"
            "    grid: {type: grid, x: 14, y: 30, w: 120, h: 60, cols: 6, rows: 3, stroke_width: 0.4}\n"
            "    ticks: {type: grid, x: 14, y: 100, w: 78, h: 8, cols: 8, spacing: 2, fill: white}\n"
            "pieces:\n  - {title: 記録, text: 本文}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    dpi = 144
    image = _front_without_lint(root, capsys, dpi)

    def dark(x_mm: float, y_mm: float) -> bool:  # trim coordinates, a pixel either side of the point
        return min(image.getpixel((round((BLEED + x_mm) / 25.4 * dpi) + d, round((BLEED + y_mm) / 25.4 * dpi) + e))
                   for d in (-1, 0, 1) for e in (-1, 0, 1)) < 100

    assert all(dark(14 + 20 * c, 60) for c in range(7))  # the seven column lines, 20 mm apart, edges too
    assert all(dark(50, 30 + 20 * r) for r in range(4))  # the four row lines
    assert not any(dark(24 + 20 * c, 40 + 20 * r) for c in range(6) for r in range(3))  # cells empty
    assert all(dark(14 + 10 * c, 104) and dark(22 + 10 * c, 104) for c in range(8))  # each tick box's sides,
    assert not any(dark(23 + 10 * c, 104) for c in range(7))  # 8 mm wide, 2 mm apart
    assert not any(dark(18 + 10 * c, 104) for c in range(8))  # and empty


def test_a_grid_the_cut_would_take_cells_off_is_an_error_at_its_box(tmp_path, capsys):
    """An A4 score sheet sized down to the size the build offers (``size: [193, 274] prints whole on
    one sheet``) kept its grid's millimetres: 15 + 180 mm ran 2 mm past the 193 mm trim, its last
    column cut through, and neither ``check`` nor the print lint (which reads text) said a word. A
    grid past the trim stops ``check`` at the box, with where it would fit."""
    deck = ("name: 記録\nkind: board\nsize: [193, 274]\nlayout:\n  extends: board\n  boxes:\n    art: null\n"
            "    grid: {type: grid, x: 15, y: 40, w: 180, h: 180, cols: 6, rows: 6}\n"
            "pieces:\n  - {title: 記録, text: 本文}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:8:" in err and "layout.boxes.grid.w: box grid: its grid runs 15–195 mm from the left, past " \
        "the piece's 193 mm trim: the cut would take cells off" in err, err
    assert "x + w at most 193 (190 inside the 3 mm safe zone)" in err, err
    path = root / "data" / "test" / "decks" / "cards.yaml"
    path.write_text(deck.replace("w: 180", "w: 170"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0


@pytest.mark.parametrize("lang, listed", [("ja", "◇スタンディ（２体）"), ("en", "- 2 Standees\n")])
def test_new_game_with_standees_builds_at_once(tmp_path, capsys, lang, listed):
    """``pnpgen new --kind standees``: a skirmish game starts with its fold-over figures (layout
    standee), listed in the draft's components with their count, and builds with no warning but
    the player count it left open."""
    assert run(tmp_path, "new", "sk", "--kind", "standees", "--lang", lang) == 0
    game = tmp_path / "data" / "sk"
    assert "layout: standee\n" in (game / "decks" / "standees.yaml").read_text(encoding="utf-8")
    assert listed in (game / "draft.txt").read_text(encoding="utf-8")
    capsys.readouterr()
    assert run(tmp_path, "build", "--game", "sk", "--jobs", "1") == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(warnings) == 1 and "players is a placeholder" in warnings[0], warnings
    assert "Count" not in (tmp_path / "build" / "sk" / "proof.txt").read_text(encoding="utf-8")


def test_a_standees_transparent_figure_stands_on_the_paper_colour(tmp_path):
    """A standee's figure is most often a cut-out with a transparent ground: it was flattened onto
    white inside a cream (``paper``) strip, a white rectangle round every figure. It stands on the
    paper colour, the game's own when its palette says one."""
    import pypdfium2
    from PIL import Image

    game = "title: 遊戯\npalette: {paper: '#f0e0c0'}\n"
    root = make_workspace(tmp_path / "ws", game=game, deck="name: 兵\nlayout: standee\npieces:\n  - {title: 騎士, art: k.png}\n")
    (root / "data" / "test" / "art").mkdir()
    art = Image.new("RGBA", (370, 600), (0, 0, 0, 0))
    art.paste((200, 0, 0, 255), (150, 100, 220, 500))  # the figure, the rest transparent
    art.save(root / "data" / "test" / "art" / "k.png")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    dpi = 72
    page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    for y in (30, 90):  # beside the far copy and the front one, the ground between the tabs
        assert image.getpixel((round((BLEED + 4) / 25.4 * dpi), round((BLEED + y) / 25.4 * dpi))) == (0xF0, 0xE0, 0xC0)


def test_a_standee_exported_to_templates_stays_a_standee(tmp_path, capsys):
    """``layout export`` of a standee wrote templates whose deck was a plain token deck: it lay
    flat in Tabletop Simulator and ``doujin-pieces`` ganged its strips on counter sheets. The
    export prints the deck's ``stand_up:`` line (the figure's box in mm, as ``die:`` for a die),
    and the deck of templates with it prints and stands as the layout's did."""
    root = make_workspace(tmp_path / "ws")
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text("name: 兵\nlayout: standee\npieces:\n  - {title: A, count: 4}\n", encoding="utf-8")

    def pages() -> list[tuple[float, ...]]:  # each page's size: a strip's own, or an A4 counter sheet's
        assert run(root, "export", "--game", "test", "--preset", "doujin-pieces") == 0
        with pikepdf.open(root / "build" / "test" / "doujin-pieces" / "cards.pdf") as pdf:
            return [tuple(round((float(b) - float(a)) / 72 * 25.4) for a, b in zip(page.trimbox[:2], page.trimbox[2:]))
                    for page in pdf.pages]

    def standing() -> set[bool]:
        assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
        saved = root / "build" / "test" / "tabletopsimulator" / "cards.json"
        obj = json.loads(saved.read_text(encoding="utf-8"))["ObjectStates"][0]
        objects = obj.get("ContainedObjects") or [obj]
        return {o["CustomImage"]["CustomToken"]["StandUp"] for o in objects}

    from_layout = pages(), standing()
    capsys.readouterr()
    folder = root / "templates" / "test"
    assert run(root, "layout", "export", "--game", "test", "--deck", "cards", "--out", str(folder)) == 0
    lines = [line.strip().split("   #")[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert "stand_up: [0, 60, 25, 50]" in lines, lines
    plain = "name: 兵\n" + "\n".join(line for line in lines if not line.startswith("stand_up:")) + \
        "\npieces:\n  - {title: A, count: 4}\n"
    deck.write_text(plain, encoding="utf-8")
    assert pages() == [(210, 297)] != from_layout[0] and standing() == {False}  # without it: counters, lying flat
    deck.write_text(plain.replace("\npieces:", "\nstand_up: [0, 60, 25, 50]\npieces:"), encoding="utf-8")
    assert (pages(), standing()) == from_layout and from_layout[1] == {True} and (210, 297) not in from_layout[0]
    deck.write_text(plain.replace("\npieces:", "\nstand_up: [0, 60, 25, 70]\npieces:"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:" in err and "stand_up: [0, 60, 25, 70] runs past the piece's 25×120 mm trim" in err, err


EDITION_BOXES = """\
name: 札
layout:
  extends: card-poker
  boxes:
    art: null
    reading: {field: reading, x: 4, y: 40, w: 55, h: 8, size: 9, lang: ja}
    gloss: {field: gloss, x: 4, y: 50, w: 55, h: 8, size: 9, lang: [en]}
pieces:
  - {title: 鏡, text: 映す, reading: かがみ, gloss: "Mirror: reflects a spell"}
  - {title: 剣, text: 斬る, reading: つるぎ}
"""


def test_a_box_with_lang_is_drawn_only_in_those_editions(tmp_path, capsys):
    """A layout box may belong to one edition (trial9: a reading aid in the Japanese, a gloss in
    the English): each edition draws only its own, and a field only another edition draws, left
    empty, is no open value in this one (剣 has no gloss: the Japanese edition does not print it)."""
    root = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [ja, en]\n", deck=EDITION_BOXES)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr()
    assert "gloss" not in said.out + said.err
    ja = texts(root / "build" / "test" / "shop" / "cards-unique.pdf")
    assert "かがみ" in ja[0] and "Mirror" not in ja[0] and "未定" not in ja[2], ja
    assert run(root, "check", "--game", "test") == 0
    assert "gloss" not in capsys.readouterr().out
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--lang", "en") == 0
    en = texts(root / "build" / "test" / "en" / "shop" / "cards-unique.pdf")
    assert "Mirror: reflects a spell" in en[0] and "かがみ" not in en[0] and "TBD" in en[2], en
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(EDITION_BOXES.replace("lang: [en]", "lang: english"),
                                                                 encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "lang: 'english' is not a language code; did you mean en?" in capsys.readouterr().err


@pytest.mark.parametrize("written, said", [
    ("lang: jp", "lang: this game has no edition 'jp'; did you mean ja? (expected one of ja, en (the languages: of"),
    ("lang: [en-US]", "lang: this game has no edition 'en-US' (expected one of ja, en"),
])
def test_a_box_for_an_edition_the_game_has_not_is_told(tmp_path, capsys, written, said):
    """hostile10: ``lang: jp`` (the country's code, not the language's) or ``en-US`` in a game of
    ja and en is a code of the right form that names no edition: the box was left out of every
    edition without a word. It is told at its line, with the game's languages."""
    root = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [ja, en]\n",
                          deck=EDITION_BOXES.replace("lang: [en]", written))
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:7:" in err and said in err, err


def test_a_workspace_layouts_box_may_be_another_games_edition(tmp_path, capsys):
    """A workspace layout is shared by the games: its ``lang: en-US`` box may be another game's
    edition, and a game without it builds; ``lang: jp`` is no language's code in any game."""
    root = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [ja, en]\n",
                          deck=EDITION_BOXES.replace("card-poker", "shared"))
    (root / "layouts").mkdir()
    for code, status in (("en-US", 0), ("jp", 2)):
        (root / "layouts" / "shared.yaml").write_text(
            f"extends: card-poker\nboxes:\n  art: null\n  note: {{field: text, x: 4, y: 60, w: 55, h: 8, lang: {code}}}\n",
            encoding="utf-8")
        assert run(root, "check", "--game", "test") == status
        assert ("layouts/shared.yaml:4:" in capsys.readouterr().err) == bool(status)


def test_a_cost_of_1000_is_set_inside_its_round_badge_and_one_too_long_is_warned(tmp_path, capsys):
    """trial15: the cost circle (8 mm, card-poker) took ``1,000`` whole but as wide as the square
    around it, the 1 and the last 0 standing out past the ring. Its text keeps inside the circle
    (within IN_CIRCLE of its radius), smaller; ``10,000``, which no size down to the minimum keeps
    inside, is warned at the card."""
    deck = ("name: カード\nlayout: card-poker\npieces:\n  - {title: 宝, cost: '1,000', text: 本文}\n"
            "  - {title: 宝, value: '10,000', text: 本文}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().err
    [said] = [line for line in err.splitlines() if "does not fit" in line]
    assert said.startswith("pnpgen: warning: data/test/decks/cards.yaml:5:23: deck 'cards' piece 2 (宝) front, "
                           "field 'value': text does not fit its 8.0×8.0 mm circle even at 6 pt (needs a circle ") and "mm wider; give it room in the deck's layout: boxes: " \
           "{value: {w: …, h: …}}); set at 6 pt, overflowing" in said, said
    page = glyphs(ws / "build" / "test" / "shop" / "cards.pdf")[0]  # the first card, its trim 3 mm in
    cost = [g for g in page if g.char in "1,0" and g.y < 14]
    assert "".join(g.char for g in cost) == "1,000", cost
    left, right = cost[0].x, cost[-1].x + (cost[-1].x - cost[-2].x)  # the last 0 as wide as the one before
    centre, radius = 3 + 4 + 4, 4.0
    assert centre - 0.9 * radius <= left and right <= centre + 0.9 * radius, (left, right)
    assert all(g.size < 7 for g in cost), cost  # set smaller than the square let it (7.5 pt)


def test_a_card_that_says_stand_up_is_told_not_stood_up_on_the_table(tmp_path, capsys):
    """``stand_up:`` on a card deck's file was taken silently (Tabletop Simulator stood every card
    up as its figure box alone). A fold-over standee is a token, as a paper die is: a card deck
    that says ``stand_up:`` (or sets ``kind:`` over the standee layout) stops ``check`` at that line."""
    root = make_workspace(tmp_path / "ws")
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("pieces:", "stand_up: [0, 0, 20, 30]\npieces:", 1), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:" in err and "stand_up: a fold-over standee is a token, and this deck is a card" in err, err
    assert "'kind: token' for a standee folded from paper" in err and "Traceback" not in err, err
    deck.write_text("name: 兵\nlayout: standee\nkind: card\npieces:\n  - {title: A, count: 4}\n", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:3:" in err and "card on a deck whose layout is a fold-over standee" in err, err
    deck.write_text("name: 兵\nlayout: standee\npieces:\n  - {title: A, count: 4}\n", encoding="utf-8")
    run(root, "check", "--game", "test")
    assert "standee is a token" not in capsys.readouterr().err  # the standee layout's own token stands


def test_the_docs_small_score_pad_keeps_its_tick_boxes_off_the_text_panel(tmp_path, capsys):
    """An A6 score pad from ``board`` put its white tick boxes over the layout's text panel at
    ``h - 25``: the panel's text hidden, no warning. The pad docs/data-format.md gives, copied
    from the docs, builds quietly: its tick boxes drawn and no panel under them."""

    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    at = docs.index("# data/<slug>/decks/pad.yaml\n")
    root = make_workspace(tmp_path / "ws", deck=docs[at:docs.index("```", at)])
    dpi = 144
    image = _front_without_lint(root, capsys, dpi)

    def grey(x_mm: float, y_mm: float) -> int:
        return min(image.getpixel((round((BLEED + x_mm) / 25.4 * dpi) + d, round((BLEED + y_mm) / 25.4 * dpi)))
                   for d in (-1, 0, 1))

    assert all(grey(10 + c * (85 + 2) / 8, 124) < 100 for c in range(8))  # each tick box's left side
    assert grey(14, 124) > 200  # inside a tick box: paper
    below = [c.char for c in glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0] if c.y - BLEED > 113]
    assert below == [], below  # no panel (nor its 未定) under the tick boxes


def test_the_docs_landscape_card_without_art_widens_its_text_over_the_arts_half(tmp_path):
    """``card-landscape`` with ``art: null`` left the card's left half empty and the text in the
    right half. The override docs/data-format.md gives sets the text from 4 mm across the card."""
    docs = " ".join((REPO / "docs" / "data-format.md").read_text(encoding="utf-8").split())
    override = re.search(r"`(layout: \{extends: card-landscape, boxes: \{art: null,[^`]*)`", docs)
    assert override, "the docs' landscape override"
    root = make_workspace(tmp_path / "ws", deck=f"name: 役割\n{override.group(1)}\npieces:\n  - {{title: 語り部, text: {ROLE}}}\n")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    page = glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0]
    first = next(c for c in page if c.char == "あ")
    assert first.x - BLEED < 8, first  # from the left edge, where the art was
    assert max(c.x for c in page if c.y - BLEED > 14) - BLEED > 70  # and across to the right


@pytest.mark.parametrize("valign, low, high", [(None, 32.0, 36.0), ("top", 24.0, 29.0)])
def test_a_circle_text_box_sets_its_text_in_the_middle_unless_it_says(tmp_path, valign, low, high):
    """A ``shape: circle`` text box took the default ``valign: top``: a badge's number sat high in
    its circle. It is set in the middle (the 20 mm circle from 20 mm down, the page's 3 mm bleed
    above it: its centre 33 mm down, the 10 pt figure's baseline just below), unless the box
    gives a valign."""
    given = f", valign: {valign}" if valign else ""
    deck = ("name: カード\nformat: poker\nfields: {mark: text}\n"
            "layout: {extends: card-poker, boxes: {badge: {field: mark, x: 20, y: 20, w: 20, h: 20, shape: circle, "
            f"fill: white, stroke: ink, size: 10, align: center{given}}}}}}}\n"
            "pieces:\n  - {title: 題名, cost: 2, text: 本文, mark: Q}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    [q] = [g for g in glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0] if g.char == "Q"]
    assert low < q.y < high, q.y
