"""The built-in paper d6 (``layout: d6``): a die started in three lines of YAML that prints its
net at its size, cuts along the net's outline (the die-line file, nested on home sheets), rolls in
Tabletop Simulator showing the values its faces print, and a layout that is a polygon."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from conftest import make_workspace, run
from pdfprobe import glyphs
from pnpgen.units import MM_PER_PT

BLEED = 3.0
THREE_LINES = """\
name: Combat die
layout: d6
pieces: [{face1: "1", face2: "2", face3: "3", face4: "4", face5: "5", face6: "6", count: 12}]
"""
# the docs' net (docs/data-format.md, "A paper die"): six 16 mm faces, seven tapered 4 mm glue tabs
NET = [(16, 0), (32, 0), (32, 16), (34, 12), (46, 12), (48, 16), (50, 12), (62, 12), (64, 16), (68, 18), (68, 30),
       (64, 32), (62, 36), (50, 36), (48, 32), (46, 36), (34, 36), (32, 32), (32, 48), (16, 48), (16, 32), (14, 36),
       (2, 36), (0, 32), (0, 16), (2, 12), (14, 12), (16, 16)]
# each face's box on the net, faces 1 to 6: 1 over 3, 2 left of it, 5 and 4 right, 6 under it
FACES = {"1": (16, 0), "2": (0, 16), "3": (16, 16), "4": (48, 16), "5": (32, 16), "6": (16, 32)}


def _die_line_mm(pdf: Path) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """The first page's cut path in mm from the trim's top-left corner, and the page's size in mm."""
    with pikepdf.open(pdf) as doc:
        page = doc.pages[0]
        height = float(page.MediaBox[3])
        points = [(round(float(a[0]) * MM_PER_PT - BLEED, 2), round((height - float(a[1])) * MM_PER_PT - BLEED, 2))
                  for a, op in pikepdf.parse_content_stream(page) if str(op) in ("m", "l")]
        return points, (float(page.MediaBox[2]) * MM_PER_PT, height * MM_PER_PT)


def _tts(root: Path) -> list[dict]:
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    obj = json.loads((root / "build" / "test" / "tabletopsimulator" / "cards.json").read_text(encoding="utf-8"))
    return obj["ObjectStates"][0].get("ContainedObjects") or obj["ObjectStates"][0:1]


def test_a_die_from_three_lines_prints_its_net_cuts_along_it_and_nests(tmp_path, capsys):
    """There was no built-in d6: the docs' net was copied into layouts/ and the deck gave the
    outline, as a layout could not be a polygon. ``layout: d6`` is the whole start: each face's
    value prints in its 16 mm square, the die line is the net's outline with its seven tabs, and
    twelve dice nest on one home sheet."""
    root = make_workspace(tmp_path / "ws", deck=THREE_LINES)
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert "12/sheet (nested), 1 sheet" in capsys.readouterr().out
    shop = root / "build" / "test" / "shop"
    outline, page = _die_line_mm(shop / "cards-die.pdf")
    assert abs(page[0] - (68 + 2 * BLEED)) < 0.01 and abs(page[1] - (48 + 2 * BLEED)) < 0.01
    assert outline[0] == outline[-1] and outline[:-1] == NET
    chars = {c.char: c for c in glyphs(shop / "cards-unique.pdf")[0] if c.char in FACES}
    assert sorted(chars) == sorted(FACES)
    for value, (x, y) in FACES.items():
        c = chars[value]  # the glyph's origin on its baseline, inside its face and near its middle
        assert x + 4 < c.x - BLEED < x + 12 and y + 8 < c.y - BLEED < y + 16, (value, c.x, c.y)
    with pikepdf.open(root / "build" / "test" / "cards.pdf") as home:
        assert len(home.pages) == 1


def test_a_larger_die_is_its_size_in_the_nets_proportions(tmp_path, capsys):
    """Every length of the built-in net follows its height: ``size: [85, 60]`` is a die of 20 mm
    faces. A size of other proportions, whose net would run past it, is told at the deck's size
    line with the size that fits, not at pnpgen's own layout file."""
    deck = THREE_LINES.replace("layout: d6\n", "layout: d6\nsize: [85, 60]\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    outline, _ = _die_line_mm(root / "build" / "test" / "shop" / "cards-die.pdf")
    assert outline[:-1] == [(round(x * 1.25, 2), round(y * 1.25, 2)) for x, y in NET]
    capsys.readouterr()
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("[85, 60]", "[60, 60]"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:3:7: size: a 60×60 mm piece is a size the built-in layout d6 cannot take" in err, err
    assert "expected size: [85, 60]" in err and "Traceback" not in err, err


def test_a_die_rolls_showing_what_its_faces_print(tmp_path):
    """Tabletop Simulator's value of the face rolled was "1" to "6" on every die, a die of swords and
    shields too. Each value is what that face prints: its text as it reads (an icon as its name),
    an icons box's icon names, a picture's file name; a face showing none of them keeps its number."""
    deck = """\
name: Combat die
layout: {extends: d6, boxes: {face6: {type: icons, field: marks}, face4: {type: panel, fill: accent},
                              face3: {type: image, field: picture}}}
pieces:
  - {face1: "1", face2: "2", picture: skull.png, face5: "5", marks: [star]}
  - {face1: "{star}", face2: "**Miss**", picture: skull.png, face5: "2{star}", marks: [coin, star]}
"""
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "data" / "test" / "art").mkdir()
    Image.new("RGB", (200, 200), (20, 20, 20)).save(root / "data" / "test" / "art" / "skull.png")
    dice = _tts(root)
    assert [d["Name"] for d in dice] == ["Custom_Dice", "Custom_Dice"]
    assert [[v["Value"] for v in d["RotationValues"]] for d in dice] == [
        ["1", "2", "skull", "4", "5", "star"], ["star", "Miss", "skull", "4", "2 star", "coin star"]]


@pytest.mark.parametrize("faces, values", [
    (["3", "-1", "0", "12", "", "6"], [3, -1, 0, 12, 5, 6]),  # an empty face is its number, a number too
    (["3", "-1", "0", "12", "★", "6"], ["3", "-1", "0", "12", "★", "6"]),
    (["03", "1", "2", "3", "4", "5"], ["03", "1", "2", "3", "4", "5"]),  # as the face prints it
    (["３", "1", "2", "3", "4", "5"], ["３", "1", "2", "3", "4", "5"]),
])
def test_a_die_of_numbers_rolls_numbers_a_script_can_add(tmp_path, faces, values):
    """Tabletop Simulator's value of a die of numbers was the text "3": a script adding the dice
    rolled (``getValue()``) joined texts. Six whole numbers go to the table as numbers; a face
    that reads otherwise (★, 03, a full-width ３) keeps all six as the faces print them."""
    cells = ", ".join(f"face{n}: {json.dumps(v, ensure_ascii=False)}" for n, v in enumerate(faces, 1) if v)
    root = make_workspace(tmp_path / "ws", deck=f"name: Number die\nlayout: d6\npieces:\n  - {{{cells}}}\n")
    [die] = _tts(root)
    assert [v["Value"] for v in die["RotationValues"]] == values


def test_a_die_face_with_a_label_or_unit_rolls_as_the_face_reads(tmp_path):
    """A face box with ``label: 攻撃`` or ``unit: 枚`` printed 「攻撃 3」 and 「2枚」 but Tabletop
    Simulator's value was the bare 3 and 2: the value is the face's words (an icon label as its
    name); an open value prints no unit after it (未定, not 未定枚); an empty face keeps its number."""
    deck = """\
name: Stat die
layout: {extends: d6, boxes: {face1: {label: 攻撃}, face2: {unit: 枚}, face3: {label: "{star}", unit: 点},
                              face4: {unit: 枚}, face5: {label: 守備}}}
pieces:
  - {face1: "3", face2: "2", face3: "1", face4: 未定, face6: "6"}
"""
    root = make_workspace(tmp_path / "ws", deck=deck)
    [die] = _tts(root)
    assert [v["Value"] for v in die["RotationValues"]] == ["攻撃 3", "2枚", "star 1点", "未定", "5", "6"]


def test_a_layout_that_makes_a_card_a_die_is_told_in_the_layout_file(tmp_path, capsys):
    """A layout file saying ``kind: card`` (or no kind: a card) and ``die:`` was told at the deck's
    ``layout:`` line, where nothing is wrong: it is told at the layout file's line that says so."""
    root = make_workspace(tmp_path / "ws", deck=THREE_LINES.replace("layout: d6", "layout: mydie"))
    (root / "layouts").mkdir()
    mine = root / "layouts" / "mydie.yaml"
    mine.write_text("description: my die\nextends: d6\nkind: card\n", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "layouts/mydie.yaml:3:7: kind: card on a layout that is a paper die" in err, err
    assert "'kind: token' here" in err and "cards.yaml" not in err, err
    boxes = "".join(f"  f{n}: {{field: face{n}, x: {n * 10}, y: 0, w: 10, h: 10}}\n" for n in range(1, 7))
    mine.write_text("description: my die\nsize: [70, 10]\ndie: [f1, f2, f3, f4, f5, f6]\nboxes:\n" + boxes,
                    encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "layouts/mydie.yaml:3:6: die: a paper die is a token, and layout mydie is a card (it says no kind:" in err, err
    assert "'kind: token' in mydie.yaml" in err, err
    mine.write_text("description: my die\nkind: token\nsize: [70, 10]\ndie: [f1, f2, f3, f4, f5, f6]\nboxes:\n" + boxes,
                    encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0


def test_a_die_face_that_is_a_box_of_no_size_is_one_line(tmp_path, capsys):
    """``die:`` naming a box that has no w or h of its own (a frame) stopped with a KeyError."""
    root = make_workspace(tmp_path / "ws", deck=THREE_LINES.replace(
        "layout: d6", "kind: token\nlayout: {extends: card-poker, die: [title, text, art, title, frame, art]}"))
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "die: box frame is a frame box of no area, not a die's face" in err and "Traceback" not in err, err


def test_a_layout_is_a_polygon_with_its_points(tmp_path, capsys):
    """A layout could not be a polygon. It gives its cut outline as ``points:`` (a deck's own win);
    a polygon without them, or points on another shape, is told at the layout's line;
    ``layout export`` prints the points among the deck lines."""
    tri = "description: tri\nkind: token\nshape: polygon\nsize: [30, 26]\n{points}boxes:\n  v: {field: v, w: 30, h: 26}\n"
    root = make_workspace(tmp_path / "ws", deck="name: T\nlayout: tri\npieces: [{v: '1'}]\n")
    (root / "layouts").mkdir()
    layout = root / "layouts" / "tri.yaml"
    layout.write_text(tri.replace("{points}", "points: [[0, 26], [15, 0], ['w', 'h']]\n"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    outline, _ = _die_line_mm(root / "build" / "test" / "shop" / "cards-die.pdf")
    assert outline[:-1] == [(0, 26), (15, 0), (30, 26)]
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text("name: T\nlayout: tri\npoints: [[0, 0], [30, 0], [15, 26]]\npieces: [{v: '1'}]\n", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    outline, _ = _die_line_mm(root / "build" / "test" / "shop" / "cards-die.pdf")
    assert outline[:-1] == [(0, 0), (30, 0), (15, 26)]  # the deck's own
    capsys.readouterr()
    layout.write_text(tri.replace("{points}", ""), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "layouts/tri.yaml:3:8: shape: a polygon layout needs points" in capsys.readouterr().err
    layout.write_text(tri.replace("{points}", "points: [[0, 26], [15, 0], [30, 26]]\n").replace("polygon", "rect"),
                      encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "layouts/tri.yaml:5:1: points: a rect has no points" in capsys.readouterr().err
    assert run(root, "layout", "export", "d6", "--out", str(tmp_path / "d6.svg.j2")) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  points: [" + ", ".join(f"[{x}, {y}]" for x, y in NET) + "]" in lines, lines


@pytest.mark.parametrize("lang, listed", [("ja", "◇ダイス（２個）"), ("en", "- 2 Dice\n")])
def test_a_new_game_starts_with_dice(tmp_path, capsys, lang, listed):
    """``pnpgen new --kind dice``: a game starts with two paper dice of the faces 1 to 6 (layout
    d6), listed in the draft's components, whose deck file's example changes a box the d6 has,
    and builds with no warning but the player count it left open."""
    assert run(tmp_path, "new", "g", "--kind", "dice", "--lang", lang) == 0
    deck = (tmp_path / "data" / "g" / "decks" / "dice.yaml").read_text(encoding="utf-8")
    assert "layout: d6\n" in deck and "boxes: {face1: {size: 12}}" in deck
    assert listed in (tmp_path / "data" / "g" / "draft.txt").read_text(encoding="utf-8")
    capsys.readouterr()
    assert run(tmp_path, "build", "--game", "g", "--jobs", "1") == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(warnings) == 1 and "players is a placeholder" in warnings[0], warnings
    outline, _ = _die_line_mm(tmp_path / "build" / "g" / "shop" / "dice-die.pdf")
    assert outline[:-1] == NET


def test_a_die_of_words_prints_them_inside_the_safe_zone(tmp_path, capsys):
    """A face is "a number, a word or an {icon}": words (Red, Blue, Wild) fitted to the whole 16 mm
    face ran 1 mm from the net's cut edge, so the built-in layout tripped its own print lint on
    every outer face. Each face's text now stays 3 mm inside the face, and the digits of a number
    die print at their size as before."""
    deck = THREE_LINES.replace('face1: "1", face2: "2"', "face1: Red, face2: Blue").replace('face6: "6"', "face6: Wild")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "check", "--game", "test") == 0
    assert "safe zone" not in capsys.readouterr().err
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    chars = [c for c in glyphs(root / "build" / "test" / "shop" / "cards-unique.pdf")[0] if c.char in "RedBlueWild"]
    assert len(chars) == len("RedBlueWild")
    for c in chars:  # every letter at least 3 mm inside its face's outer edge (face 1's top, 2's left, 6's bottom)
        x, y = c.x - BLEED, c.y - BLEED
        assert x > 3 and 3 < y < 45, (c.char, x, y)


def test_dice_of_a_deck_are_named_by_the_deck_and_their_number_or_their_title(tmp_path):
    """A die has no name field: order.csv called a deck's dice ``#1``, ``#2`` and Tabletop Simulator
    ``Combat die #1``. Each is its deck's name and its number, as order.csv, the table and the change
    report call it; a ``title:`` (declared a field of the deck's own) names a die as it names a card."""
    deck = """\
name: Combat die
layout: d6
fields: {title: text}
pieces:
  - {face1: "1", face2: "2", face3: "3", face4: "4", face5: "5", face6: "6", count: 2}
  - {face1: "A", face2: "B", face3: "C", face4: "D", face5: "E", face6: "F"}
  - {title: Red die, face1: "1", face2: "1", face3: "1", face4: "2", face5: "2", face6: "3"}
"""
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "build", "--game", "test", "--no-rulebook", "-q") == 0
    rows = (root / "build" / "test" / "shop" / "order.csv").read_text(encoding="utf-8-sig").splitlines()
    assert [r.split(",")[4] for r in rows[1:]] == ["Combat die 1", "Combat die 2", "Red die"], rows
    dice = _tts(root)
    assert [d["Nickname"] for d in dice] == ["Combat die 1", "Combat die 1", "Combat die 2", "Red die"]
