"""Tabletop Simulator exports as TTS loads them: CustomDeck ids unique across decks and games,
GUIDs across a workspace's objects (even when names hash alike), card and tile types from the shape,
sideways cards, tokens with a back, boards in their aspect, token images with a transparent
border and smooth edges, every card named from its piece."""

from __future__ import annotations

import csv
import hashlib
import json
import math
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import BACK, DECK_YAML, FRONT, GAME_YAML, make_workspace, run
from pnpgen.data.load import load_game
from pnpgen.data.optionvalues import DECK_ID_BASE_MAX
from pnpgen.data.workspace import Workspace
from pnpgen.exports import tts, ttsids, ttspieces
from pnpgen.faces.faceset import STAND_UP_INSET_MM

SQUARE_TOKEN_SVG = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#3366cc"/>{% endblock %}
"""


def _objects(out: Path, deck: str) -> list[dict]:
    obj = json.loads((out / f"{deck}.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    return obj.get("ContainedObjects") or [obj]


def _export(root: Path, game: str = "test", *extra: str) -> Path:
    assert run(root, "export", "--game", game, "--preset", "tabletopsimulator", *extra) == 0
    return root / "build" / game / "tabletopsimulator"


TWO = ["カード1", "カード2"]  # a deck of cards beside what a test reads: two are enough (the small workspace has 11)


def _token_game(tmp_path: Path, decks: dict[str, str], templates: dict[str, str]) -> Path:
    """The test workspace with these deck files (name → YAML) and templates (name → SVG) added."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    for name, text in decks.items():
        (root / "data" / "test" / "decks" / f"{name}.yaml").write_text(text, encoding="utf-8")
    for name, svg in templates.items():
        (root / "templates" / "test" / f"{name}.svg.j2").write_text(svg, encoding="utf-8")
    return root


def _two_games(tmp_path: Path) -> Path:
    """Games 'test' and 'test2', each with the same deck 'cards' and a second deck 'more'."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    decks = root / "data" / "test" / "decks"
    shutil.copy(decks / "cards.yaml", decks / "more.yaml")
    shutil.copytree(root / "data" / "test", root / "data" / "test2")
    shutil.copytree(root / "templates" / "test", root / "templates" / "test2")
    return root


def test_deck_ids_and_guids_differ_across_decks_and_games(tmp_path):
    root = _two_games(tmp_path)
    a, b = _export(root, "test"), _export(root, "test2")
    ids, guids = [], []
    for out in (a, b):
        for deck in ("cards", "more"):
            obj = json.loads((out / f"{deck}.json").read_text(encoding="utf-8"))["ObjectStates"][0]
            ids.append(set(obj["CustomDeck"]))
            guids.append({obj["GUID"], *(c["GUID"] for c in obj["ContainedObjects"])})
            assert {c["CardID"] // 100 for c in obj["ContainedObjects"]} == {int(k) for k in obj["CustomDeck"]}
            assert all(int(k) >= ttsids.DECK_ID_BASE for k in obj["CustomDeck"])
    for i in range(4):
        for j in range(i + 1, 4):
            assert not ids[i] & ids[j], (i, j)
            assert not guids[i] & guids[j], (i, j)  # two games' objects on one table never share one
    # Stable: the next export (with --deck-id-base, which moves them all by the same amount) makes
    # the same ids again. (It replaced a reading of the same file twice, which could not fail.)
    moved = _export(root, "test", "--deck-id-base", "5000")
    shifted = json.loads((moved / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]["CustomDeck"]
    assert {int(k) - 4000 for k in shifted} == {int(k) for k in ids[0]}
    prefixes = ttsids.game_prefixes(["test", "test2"])
    assert {g[:ttsids.GAME_HEX] for gs in guids[:2] for g in gs} == {prefixes["test"]}  # each game's own first digits
    assert {g[:ttsids.GAME_HEX] for gs in guids[2:] for g in gs} == {prefixes["test2"]}
    assert {len(g) for gs in guids for g in gs} == {ttsids.GUID_HEX}


def test_two_editions_of_a_game_on_one_table_share_no_deck_id_or_guid(tmp_path):
    """A bilingual designer's trial (trial79): the Japanese and the English export of one deck had
    the same CustomDeck ids and GUIDs, so the two decks loaded on one table showed each other's
    cards. An edition's ids and GUIDs are its own, after every default edition's: adding a
    language moves none of the Japanese deck's."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    before = json.loads((_export(root) / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    game = root / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "languages: [ja, en]\n", encoding="utf-8")
    english = _export(root, "test", "--lang", "en").parent / "en" / "tabletopsimulator"
    sides = [json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
             for out in (_export(root), english)]
    assert "/en/" in sides[1]["CustomDeck"][next(iter(sides[1]["CustomDeck"]))]["FaceURL"]
    assert set(sides[0]["CustomDeck"]) == set(before["CustomDeck"]) and sides[0]["GUID"] == before["GUID"]
    ids = [set(side["CustomDeck"]) for side in sides]
    guids = [{side["GUID"], *(c["GUID"] for c in side["ContainedObjects"])} for side in sides]
    assert ids[0] and ids[1] and not ids[0] & ids[1], ids
    assert not guids[0] & guids[1], guids
    assert {c["CardID"] // 100 for c in sides[1]["ContainedObjects"]} == {int(k) for k in ids[1]}


def test_every_game_of_a_workspace_has_guids_of_its_own_even_when_names_hash_alike():
    """GUIDs were unique within one game only: two games' objects could share one. A GUID's first
    digits are its game's, one of its own among the workspace's games."""
    games = [f"game{i}" for i in range(200)]  # 200 games in 256 slots: many hash alike
    got = ttsids.game_prefixes(games)
    assert len(set(got.values())) == 200 and {len(p) for p in got.values()} == {ttsids.GAME_HEX}
    assert ttsids.game_prefixes(list(reversed(games))) == got  # the order given does not matter
    a = ttsids.guids([("game1", "cards", "cards-001", 0)], got["game1"])
    b = ttsids.guids([("game2", "cards", "cards-001", 0)], got["game2"])
    assert a[("game1", "cards", "cards-001", 0)] != b[("game2", "cards", "cards-001", 0)]


def test_deck_ids_never_collide_even_when_names_hash_alike():
    decks = [(f"game{g}", f"deck{d}") for g in range(40) for d in range(40)]  # 1,600 decks in 10,000 slots
    ids = ttsids.deck_ids(decks)
    firsts = sorted(ids.values())
    assert len(set(firsts)) == len(decks)
    assert all(b - a >= ttsids.SHEETS_PER_DECK for a, b in zip(firsts, firsts[1:]))  # room for every sheet
    assert ttsids.deck_ids(list(reversed(decks))) == ids  # the order given does not matter
    assert DECK_ID_BASE_MAX == ttsids.MAX_CARD_ID // 100 - ttsids.DECK_ID_SLOTS * ttsids.SHEETS_PER_DECK
    top = max(ttsids.deck_ids(decks, DECK_ID_BASE_MAX).values()) + ttsids.SHEETS_PER_DECK - 1
    assert top * 100 + 69 <= 2**31 - 1  # the highest CardID fits TTS's 32-bit int


def _digest(key: tuple) -> str:
    """An object's GUID as first hashed (no check against the others)."""
    return hashlib.sha1("/".join(str(p) for p in key).encode()).hexdigest()[:ttsids.GUID_HEX - ttsids.GAME_HEX]


def test_guids_stay_distinct_when_names_hash_alike(monkeypatch):
    monkeypatch.setattr(ttsids, "GUID_HEX", ttsids.GAME_HEX + 2)  # 256 GUIDs a game for 121 names: many hash alike
    keys = [("test", "cards")] + [("test", "cards", f"cards-{i:03d}", c) for i in range(1, 61) for c in range(2)]
    plain = {k: _digest(k) for k in keys}
    shared = Counter(plain.values())
    assert len(shared) < len(keys)  # (the collisions this is about)
    got = ttsids.guids(keys)
    assert len(set(got.values())) == len(keys) and {len(g) for g in got.values()} == {2}
    assert ttsids.guids(list(reversed(keys))) == got  # the same whatever the order given
    for guid in shared:  # the first name of those that hash alike keeps its GUID
        alike = sorted((k for k in keys if plain[k] == guid), key=lambda k: "/".join(map(str, k)))
        assert got[alike[0]] == guid
        assert all(got[k] != guid for k in alike[1:])
    assert all(got[k] == plain[k] for k in keys if shared[plain[k]] == 1)  # the others keep theirs
    monkeypatch.setattr(ttsids, "GUID_HEX", 6)
    assert ttsids.guids(keys, "ab") == {k: "ab" + _digest(k) for k in keys}  # four digits: none collide here


def test_exported_guids_are_distinct_and_stable_even_when_names_hash_alike(tmp_path, monkeypatch):
    """Every GUID of an export differs from every other, with two hex digits (so that names do
    hash alike), and an export again, or of one deck (--deck), gives each object the same."""
    monkeypatch.setattr(ttsids, "GUID_HEX", ttsids.GAME_HEX + 2)
    named: list[tuple] = []
    real = ttsids.guids
    monkeypatch.setattr(ttsids, "guids", lambda keys, prefix="": real(named.extend(keys) or named, prefix))
    deck = DECK_YAML + "".join(f"  - {{name: カード{i}, text: 本文, count: 2}}\n" for i in range(1, 31))
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "data" / "test" / "decks" / "hexes.yaml").write_text(PIECES["hexes"].replace(
        "  - {name: 三}\n", "".join(f"  - {{name: 三{i}, count: 3}}\n" for i in range(8))), encoding="utf-8")
    (root / "templates" / "test" / "sq.svg.j2").write_text(SQUARE_TOKEN_SVG, encoding="utf-8")

    def exported(*extra: str) -> dict[str, list[str]]:
        named.clear()
        out = _export(root, "test", *extra)
        found = {}
        for deck in ("cards", "hexes"):
            if (out / f"{deck}.json").exists() and (not extra or deck in extra):
                obj = json.loads((out / f"{deck}.json").read_text(encoding="utf-8"))["ObjectStates"][0]
                found[deck] = [obj["GUID"]] + [g for o in obj["ContainedObjects"]
                                                for g in (o["GUID"], o.get("States", {}).get("2", {}).get("GUID"))
                                                if g]
        return found

    first = exported()
    every = [g for gs in first.values() for g in gs]
    assert len(every) == 1 + 60 + 1 + 2 * 24  # the deck, its cards, the bag, each token and its back
    assert len(set(every)) == len(every)
    assert len({_digest(k) for k in named}) < len(named)  # (the names hash alike)
    assert exported() == first
    assert exported("--deck", "hexes") == {"hexes": first["hexes"]}


def test_bad_deck_id_base_is_one_line(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws")
    for bad in ("0", "abc", str(DECK_ID_BASE_MAX + 1)):
        try:
            code = run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck-id-base", bad)
        except SystemExit as e:
            code = e.code
        assert code == 2
        err = capsys.readouterr().err.strip()
        assert "--deck-id-base" in err and "20,474,836" in err and "Traceback" not in err


LANDSCAPE = DECK_YAML.replace("format: poker", "size: [126mm, 88mm]\nshape: rect") + "  - {name: 横, text: 本文}\n  - {text: 名無し}\n"


def test_cards_type_sideways_and_names(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=LANDSCAPE)
    out = _export(root)
    deck = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert deck["SidewaysCard"] is True and {c["SidewaysCard"] for c in deck["ContainedObjects"]} == {True}
    assert {e["Type"] for e in deck["CustomDeck"].values()} == {1}  # square corners: Rectangle
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["横", "テストカード #2"]
    rounded = make_workspace(tmp_path / "ws2", deck=DECK_YAML.replace("format: poker", "format: poker\nshape: rounded")
                             + "  - {name: 丸, text: 本文}\n  - {name: 角, text: 本文}\n")
    deck = json.loads((_export(rounded) / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert deck["SidewaysCard"] is False and {e["Type"] for e in deck["CustomDeck"].values()} == {0}


PIECES = {
    "board": "name: ボード\nkind: board\nsize: [300mm, 200mm]\nfront: sq.svg.j2\nfields: {name: text}\npieces:\n  - {name: 盤}\n",
    "hexes": "name: 六角\nkind: token\nshape: trihex\nsize: 30\nfront: sq.svg.j2\nback: sq.svg.j2\nfields: {name: text}\npieces:\n  - {name: 三}\n",
    "chits": "name: チット\nkind: token\nshape: rect\nsize: [20mm, 20mm]\nfront: sq.svg.j2\nfields: {name: text}\npieces:\n  - {name: 片}\n",
    "tiles": "name: タイル\nkind: tile\nshape: rect\nsize: [30mm, 30mm]\nfront: sq.svg.j2\nfields: {name: text}\npieces:\n  - {name: 床}\n",
}


TILE_BACK_SVG = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#335533"/>{% endblock %}
"""
OWN_BACK_SVG = TILE_BACK_SVG.replace('fill="#335533"/>', 'fill="#335533"/><text x="5" y="20" font-family="{{ fonts.gothic }}" font-size="3">{{ piece.name }}</text>')


def test_a_back_every_tile_shares_is_one_image(tmp_path):
    """trial22: 60 hex terrain tiles of 5 faces and one common back wrote the back 5 times
    (terrain-001-back.png … -005-back.png, the same pixels), 5 textures for the table to load;
    it is one, terrain-back.png, as a deck's card back is. A back reading a field keeps its own."""
    root = make_workspace(tmp_path / "ws")  # (flat hexes: Tabletop Simulator's hex tile; a pointy one is a token)
    tiles = "kind: tile\nshape: hex\norientation: flat\nsize: 30\nfront: sq.svg.j2\nfields: {name: text}\npieces:\n" + "".join(
        f"  - {{name: 地形{i}, count: {i}}}\n" for i in range(1, 4))
    decks = root / "data" / "test" / "decks"
    (decks / "terrain.yaml").write_text("name: 地形\nback: back.svg.j2\n" + tiles, encoding="utf-8")
    (decks / "flips.yaml").write_text("name: 表裏\nback: own.svg.j2\n" + tiles, encoding="utf-8")
    for name, svg in (("sq", SQUARE_TOKEN_SVG), ("back", TILE_BACK_SVG), ("own", OWN_BACK_SVG)):
        (root / "templates" / "test" / f"{name}.svg.j2").write_text(svg, encoding="utf-8")
    out = _export(root)
    terrain = _objects(out, "terrain")
    assert len(terrain) == 6 and {o["CustomImage"]["ImageSecondaryURL"].rsplit("/", 1)[1] for o in terrain} == {
        "terrain-back.png"}
    assert sorted(p.name for p in out.glob("terrain-*back*")) == ["terrain-back.png"]
    with Image.open(out / "terrain-back.png") as im:
        assert im.convert("RGB").getpixel((im.width // 2, im.height // 2)) == (0x33, 0x55, 0x33)
    flips = {o["CustomImage"]["ImageSecondaryURL"].rsplit("/", 1)[1] for o in _objects(out, "flips")}
    assert flips == {"flips-001-back.png", "flips-002-back.png", "flips-003-back.png"}
    (decks / "terrain.yaml").write_text("name: 地形\nback: back.svg.j2\n" + tiles.replace("地形3", "地形三"), encoding="utf-8")
    again = _export(root)  # an edit: the back is taken as the last export made it, and still one
    assert sorted(p.name for p in again.glob("terrain-*back*")) == ["terrain-back.png"]


MARKED_SVG = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/><rect width="10" height="10" fill="#ff0000"/>{% endblock %}
"""


def test_a_two_sided_tiles_back_goes_to_the_table_upright_as_drawn_and_printed(tmp_path):
    """A tile with a back of its own (trial66: its orientation when flipped unchecked): the back
    image is the back as its template draws it, upright, neither turned 180° nor mirrored, as the
    printed tile's back is drawn (the sheets place it mirrored behind its front, the long-edge flip);
    the tile lies face up (rotZ 0), Tabletop Simulator's flip turning it 180° about its up-down axis
    as a printed tile is turned over left to right. A portrait tile (40 × 60 mm): both images portrait."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "templates" / "test" / "front.svg.j2").write_text(MARKED_SVG, encoding="utf-8")
    (root / "templates" / "test" / "back.svg.j2").write_text(MARKED_SVG.replace("#ff0000", "#0000ff"), encoding="utf-8")
    (root / "data" / "test" / "decks" / "tiles.yaml").write_text(
        "name: 地形\nkind: tile\nshape: rect\nsize: [40, 60]\nfront: front.svg.j2\nback: back.svg.j2\n"
        "fields: {name: text}\npieces:\n  - {name: 森}\n", encoding="utf-8")
    out = _export(root)
    (tile,) = _objects(out, "tiles")
    assert tile["Name"] == "Custom_Tile" and tile["Transform"]["rotZ"] == 0.0
    assert tile["CustomImage"]["ImageSecondaryURL"].endswith("/tiles-001-back.png")
    for name, mark in (("tiles-001-front.png", (255, 0, 0)), ("tiles-001-back.png", (0, 0, 255))):
        with Image.open(out / name) as im:
            rgb, (w, h) = im.convert("RGB"), im.size
            assert h > w  # portrait, as drawn (not turned a quarter)
            corners = [rgb.getpixel((x, y)) for x, y in ((w // 10, h // 14), (w - w // 10, h // 14),
                                                          (w // 10, h - h // 14), (w - w // 10, h - h // 14))]
            assert corners == [mark] + [(255, 255, 255)] * 3, (name, corners)  # its mark top-left, as drawn


def test_a_flat_hex_is_a_hex_tile_and_a_pointy_one_a_token_cut_out_along_its_outline(tmp_path):
    """Tabletop Simulator's hex tile is flat-topped (a corner left and right: the knowledge base's
    Custom Tile picture) and takes the image's proportions: a pointy hex tile (pnpgen's default,
    30 × 34.64 mm) went on it as a flat hex stretched tall, its top and bottom corners cut off and
    the art's blank corners shown left and right. A pointy hex is a Custom_Token cut out along its
    own outline (its back the second state); a flat hex stays a hex tile, its image wider than tall."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    hexes = "name: {name}\nkind: tile\nshape: hex\n{orient}size: 30\nfront: sq.svg.j2\nback: sq.svg.j2\n" \
            "fields: {{name: text}}\npieces:\n  - {{name: 地形}}\n"
    decks = root / "data" / "test" / "decks"
    (decks / "pointy.yaml").write_text(hexes.format(name="尖", orient=""), encoding="utf-8")
    (decks / "flat.yaml").write_text(hexes.format(name="平", orient="orientation: flat\n"), encoding="utf-8")
    (root / "templates" / "test" / "sq.svg.j2").write_text(SQUARE_TOKEN_SVG, encoding="utf-8")
    out = _export(root)
    [flat] = _objects(out, "flat")
    assert flat["Name"] == "Custom_Tile" and flat["CustomImage"]["CustomTile"]["Type"] == ttspieces.TILE_TYPES["hex"]
    assert flat["CustomImage"]["ImageSecondaryURL"].endswith("/flat-001-back.png")
    with Image.open(out / "flat-001-front.png") as im:
        assert abs(im.width / im.height - 2 / 3 ** 0.5) < 0.01  # corner to corner across, flats top and bottom
    [pointy] = _objects(out, "pointy")
    assert pointy["Name"] == "Custom_Token" and "CustomTile" not in pointy["CustomImage"]
    assert pointy["States"]["2"]["CustomImage"]["ImageURL"].endswith("/pointy-001-back.png")
    # the API's defaults for a custom token (docs/exports.md): thickness 0.2, merge distance 15; the
    # back state a token of its own, as thick, where the table shows it (state 1 is the object itself)
    for side in (pointy, pointy["States"]["2"]):
        token = side["CustomImage"]["CustomToken"]
        assert (side["Name"], token["Thickness"], token["MergeDistancePixels"]) == ("Custom_Token", 0.2, 15.0)
        assert side["Transform"] == pointy["Transform"] and "States" not in pointy["States"]["2"]
    with Image.open(out / "pointy-001-front.png") as im:
        alpha = im.getchannel("A")
        border = max(4, round(ttspieces.TOKEN_BORDER * max(im.size) / (1 + 2 * ttspieces.TOKEN_BORDER)))
        w, h = im.width - 2 * border, im.height - 2 * border
        assert abs(w / h - 3 ** 0.5 / 2) < 0.01  # taller than wide: a corner up
        cx, cy = im.width // 2, im.height // 2
        assert alpha.getpixel((cx, border + 2)) == 255  # its top corner is there, not cut off
        assert alpha.getpixel((border + 2, cy)) == 255  # a flat side left
        assert alpha.getpixel((border + 2, border + h // 8)) == 0  # outside the hex: no blank corner shown
    # on the table a token is as wide as the piece's longer side, as a tile is
    assert pointy["Transform"]["scaleX"] == pytest.approx(
        30 / 3 ** 0.5 * 2 / 25.4 / 2 * im.height / (im.height - 2 * border), abs=0.002)


def test_boards_keep_their_aspect_and_tokens_keep_a_back_and_a_border(tmp_path):
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    for deck, text in PIECES.items():
        (root / "data" / "test" / "decks" / f"{deck}.yaml").write_text(text, encoding="utf-8")
    (root / "templates" / "test" / "sq.svg.j2").write_text(SQUARE_TOKEN_SVG, encoding="utf-8")
    out = _export(root)
    [board] = _objects(out, "board")
    assert board["Name"] == "Custom_Tile" and board["CustomImage"]["CustomTile"]["Stretch"] is False
    assert board["CustomImage"]["CustomTile"]["Stackable"] is False  # two boards never make a pile
    [tile] = _objects(out, "tiles")
    assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Stackable"] is True  # tiles do
    with Image.open(out / "board-001-front.png") as im:
        assert abs(im.width / im.height - 1.5) < 0.01  # the image, and so the tile, 3:2
    [tri] = _objects(out, "hexes")  # no tile has this shape: a cut-out token, its back the second state
    assert tri["Name"] == "Custom_Token" and tri["CustomImage"]["ImageSecondaryURL"] == ""
    assert tri["States"]["2"]["Name"] == "Custom_Token"
    assert tri["States"]["2"]["CustomImage"]["ImageURL"].endswith("/hexes-001-back.png")
    assert tri["States"]["2"]["GUID"] != tri["GUID"]
    [chit] = _objects(out, "chits")
    assert chit["Name"] == "Custom_Token"
    with Image.open(out / "chits-001-front.png") as im:
        alpha = im.getchannel("A")
        border = max(4, round(ttspieces.TOKEN_BORDER * 20 / 25.4 * 200))
        assert im.width == im.height and alpha.getbbox() == (border, border, im.width - border, im.height - border)
        assert alpha.getpixel((im.width // 2, im.height // 2)) == 255


def test_a_nameless_board_is_called_on_the_table_by_its_decks_name(tmp_path):
    """docs/data-format.md: a piece with no naming field is named by its place (``#1``), but the
    only piece of a deck by its deck's name, in order.csv as on the table (a one-piece deck's
    ``#1`` reads as a copy's number)."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "data" / "test" / "decks" / "board.yaml").write_text(
        "name: 得点ボード\nkind: board\nsize: [200, 150]\nlayout: card-poker\npieces: [{}]\n", encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    with (root / "build" / "test" / "shop" / "order.csv").open(encoding="utf-8-sig", newline="") as f:
        [built] = [row["name"] for row in csv.DictReader(f) if row["deck"] == "board"]
    [board] = _objects(_export(root), "board")
    assert built == "得点ボード" and board["Nickname"] == "得点ボード", (built, board["Nickname"])


ROUND = "name: 丸\nkind: token\nshape: circle\nsize: 16\nfront: sq.svg.j2\nfields: {name: text}\npieces:\n  - {name: 円}\n"


def test_a_round_tokens_cut_is_smooth_along_its_edge(tmp_path):
    """A 16 mm token at 200 dpi: every pixel the edge runs through is partly transparent (a cut
    of whole pixels stair-steps on the table), inside opaque, outside clear, its area a circle's."""
    import math

    import numpy as np

    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "data" / "test" / "decks" / "round.yaml").write_text(ROUND, encoding="utf-8")
    (root / "templates" / "test" / "sq.svg.j2").write_text(SQUARE_TOKEN_SVG, encoding="utf-8")
    out = _export(root)
    [token] = _objects(out, "round")
    assert token["Name"] == "Custom_Token"
    with Image.open(out / "round-001-front.png") as im:
        alpha = np.asarray(im.getchannel("A"), dtype=float)
    side = round(16 / 25.4 * 200)  # 126 px, inside its border
    border = max(4, round(ttspieces.TOKEN_BORDER * side))
    assert alpha.shape == (side + 2 * border,) * 2
    r = side / 2
    centre = border + r  # pixel (i, j) spans i..i+1: its centre is at i + 0.5
    j, i = np.mgrid[0:alpha.shape[0], 0:alpha.shape[1]]
    dist = np.hypot(i + 0.5 - centre, j + 0.5 - centre)
    edge = np.abs(dist - r) < 0.3  # the edge crosses these pixels near their centre
    assert edge.sum() > 2 * math.pi * r * 0.5  # (found all round)
    assert ((alpha[edge] > 0) & (alpha[edge] < 255)).all(), sorted(alpha[edge])[:5]
    assert (alpha[dist < r - 1.5] == 255).all() and (alpha[dist > r + 1.5] == 0).all()
    assert abs(alpha.sum() / 255 / (math.pi * r * r) - 1) < 0.002  # no pixel-wide bias in or out
    assert np.abs(alpha - alpha[::-1, ::-1]).max() <= 40  # centred: opposite edges alike


def _share_sample_by_sample(points: list[tuple[float, float]], size: tuple[int, int], k: int):
    """Each pixel's share inside the polygon as the cut's rule says it, asked of each of its k × k
    sample centres (even-odd: a ray to the right crosses the outline an odd number of times)."""
    import numpy as np

    w, h = size
    sx, sy = np.meshgrid((np.arange(k * w) + 0.5) / k, (np.arange(k * h) + 0.5) / k)
    inside = np.zeros(sx.shape, dtype=bool)
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        if y0 == y1:
            continue
        crosses = (np.minimum(y0, y1) <= sy) & (sy < np.maximum(y0, y1))
        inside ^= crosses & (sx >= x0 + (sy - y0) * (x1 - x0) / (y1 - y0))
    count = inside.reshape(h, k, w, k).sum(axis=(1, 3))
    return (count * 255 + k * k // 2) // (k * k)


def test_a_cuts_pixels_are_the_share_of_their_samples_inside_for_any_outline():
    """The cut counts each sample row's runs inside, not each sample: the same shares as asking
    every sample, for circles, stars that cross themselves, outlines along pixel and sample lines,
    and outlines past the image's edges."""
    import math
    import random

    import numpy as np

    rng = random.Random(7)
    k = ttspieces.MASK_SUPERSAMPLE
    for n in range(60):
        w, h = rng.randint(1, 24), rng.randint(1, 24)
        if n % 3 == 0:
            m, r = rng.randint(3, 40), min(w, h) / 2 * rng.uniform(0.5, 1.4)
            points = [(w / 2 + r * math.cos(2 * math.pi * t / m), h / 2 + r * math.sin(2 * math.pi * t / m))
                      for t in range(m)]
        elif n % 3 == 1:
            points = [(rng.uniform(-4, w + 4), rng.uniform(-4, h + 4)) for _ in range(rng.randint(3, 12))]
        else:
            points = [(rng.randint(-2 * k, (w + 2) * k) / k, rng.randint(-2 * k, (h + 2) * k) / k)
                      for _ in range(rng.randint(3, 8))]
        got = np.asarray(ttspieces._coverage(points, (w, h)), dtype=np.int64)
        assert (got == _share_sample_by_sample(points, (w, h), k)).all(), (points, (w, h))


def test_a_sheets_grid_gives_its_cards_the_largest_cells_it_can():
    """Each grid holds the faces and the hidden card within 10×7 cells and 4096 px, its cells never
    above 200 dpi, and as large as any grid allows: 24 poker cards on 5×5 at 200 dpi (496 px wide),
    where ten columns gave them 165 dpi; 9 on 5×2, not 10×1 squeezed to 409 px."""
    import math

    from pnpgen.exports.ttscards import MAX_COLS, MAX_ROWS, Sheet, sheet_for
    from pnpgen.exports.ttstable import MAX_PX

    trim, dpi = (63.0, 88.0), 200
    assert sheet_for(24, trim, dpi) == Sheet(5, 5, (496, 693))
    assert sheet_for(9, trim, dpi) == Sheet(5, 2, (496, 693))
    for n in range(1, MAX_COLS * MAX_ROWS):
        sheet = sheet_for(n, trim, dpi)
        cols, rows, (cw, ch) = sheet.cols, sheet.rows, sheet.cell
        assert cols * rows >= n + 1 and cols <= MAX_COLS and rows <= MAX_ROWS
        assert cols * cw <= MAX_PX and rows * ch <= MAX_PX and cw <= round(63 / 25.4 * dpi)
        for r in range(1, MAX_ROWS + 1):  # no grid that holds them has larger cells
            c = math.ceil((n + 1) / r)
            if c <= MAX_COLS:
                assert cw >= min(496, MAX_PX // c, math.floor((MAX_PX // r) * 63 / 88)), (n, r)


def test_a_two_language_game_exports_its_english_edition_beside_the_builds(tmp_path, capsys):
    """``export --lang en`` (a game kept in ja and en): the English cards for Tabletop Simulator or
    an English-language shop, in build/<game>/en/<preset>/ as ``build --lang en`` writes
    build/<game>/en/; its state its own, so each edition is up to date apart, and the output
    folder's cache stays where the build keeps it."""
    game = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ntitle: {ja: テストゲーム, en: Test Game}")
    deck = DECK_YAML.replace("name: テストカード", "name: {ja: テストカード, en: Test cards}") + \
        "  - {name: {ja: 祝福, en: Blessing}, text: {ja: 本文, en: Text}, count: 2}\n"
    root = make_workspace(tmp_path / "ws", deck=deck, game=game)
    build = root / "build" / "test"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "en") == 0
    assert [o["Nickname"] for o in _objects(build / "en" / "tabletopsimulator", "cards")] == ["Blessing"] * 2
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert [o["Nickname"] for o in _objects(build / "tabletopsimulator", "cards")] == ["祝福"] * 2
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "en") == 0
    assert "up to date (build/test/en/tabletopsimulator)" in capsys.readouterr().out
    assert not (build / ".cache").exists() and (root / "build" / ".cache" / "exports" / "test").is_dir()
    (root / "data" / "test" / "decks" / "tiles.yaml").write_text(
        "name: {ja: タイル, en: Tiles}\nkind: tile\nshape: hex\nsize: 50\nfront: card-front.svg.j2\n"
        "fields: {name: text, text: text}\npieces:\n  - {name: {ja: 森, en: Forest}, text: {ja: 森, en: Forest}}\n",
        encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb", "--lang", "en") == 0
    assert ("takes it: --preset doujin-pieces, --preset tabletopsimulator, "
            "pnpgen build --lang en's en/shop/tiles.pdf (any size, RGB)") \
        in capsys.readouterr().err


def test_names_keep_tabletop_simulators_tags_as_written(tmp_path):
    """A card named '\\[b]Fire\\[/b]' (a deck '[00ff00]Green[-]') prints '[b]Fire[/b]' on the card; Tabletop Simulator reads
    [b], [ff0000]…[-], [sup] and [url=…] in a nickname as its own tags (bold, red, a link that
    hides the rest): each '[' is followed by a zero-width space, so none starts a tag."""
    deck = (DECK_YAML.replace("name: テストカード", "name: '[00ff00]Green[-]'")  # (a deck's name is never markup)
            + "  - {name: '\\[b]Fire\\[/b] \\[ff0000]Red\\[-] x\\[sup]2\\[/sup]', text: 本文}\n"
            + "  - {name: '\\[url=http://evil.example]Click', text: 本文}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    out = _export(root)
    doc = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    names = [doc["SaveName"], doc["ObjectStates"][0]["Nickname"], *(o["Nickname"] for o in _objects(out, "cards"))]
    z = "\u200b"
    assert names == [f"テストゲーム — [{z}00ff00]Green[{z}-]", f"[{z}00ff00]Green[{z}-]",
                     f"[{z}b]Fire[{z}/b] [{z}ff0000]Red[{z}-] x[{z}sup]2[{z}/sup]", f"[{z}url=http://evil.example]Click"]


def test_a_deck_kept_in_a_yml_file_of_another_game_keeps_its_own_id(tmp_path):
    """Game 'alpha' keeps its deck d27041 in a .yml file, whose id slot is the slot of game
    'beta''s deck 'cards' (their names hash alike, and alpha's sorts first). Each game's export
    must give the two decks different CustomDeck ids: beta's export used to list the other games'
    decks as decks/*.yaml only, so it gave 'cards' the slot alpha's own export gives d27041 (two
    decks on one table showed each other's cards). Editors' files beside a deck are no deck."""
    assert {ttsids.deck_ids([("alpha", "d27041")])[("alpha", "d27041")],
            ttsids.deck_ids([("beta", "cards")])[("beta", "cards")]} == {ttsids.DECK_ID_BASE + 2319 * ttsids.SHEETS_PER_DECK}
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    shutil.copytree(root / "data" / "test", root / "data" / "beta")
    shutil.copytree(root / "templates" / "test", root / "templates" / "beta")
    shutil.copytree(root / "data" / "test", root / "data" / "alpha")
    shutil.copytree(root / "templates" / "test", root / "templates" / "alpha")
    shutil.rmtree(root / "data" / "test")
    shutil.rmtree(root / "templates" / "test")
    decks = root / "data" / "alpha" / "decks"
    (decks / "cards.yaml").rename(decks / "d27041.yml")
    (root / "data" / "beta" / "decks" / "._cards.yaml").write_bytes(b"\x00\x05\x16\x07")  # macOS's AppleDouble
    alpha = json.loads((_export(root, "alpha") / "d27041.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    beta = json.loads((_export(root, "beta") / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert set(alpha["CustomDeck"]).isdisjoint(beta["CustomDeck"]), (alpha["CustomDeck"], beta["CustomDeck"])


def test_a_fold_over_standee_stands_up_on_the_table_as_its_front_figure(tmp_path):
    """A standee (``layout: standee``) went to the table as the flat 25×120 mm strip it prints as:
    tabs, the far copy upside down and all. Its layout says ``stand_up: front``: the export is a
    standing ``Custom_Token`` of the upright figure alone (its back, on the table, the mirror image
    the fold gives), the fold lines at its edges left off, two copies two tokens."""
    root = make_workspace(tmp_path / "ws", deck="name: 兵\nlayout: standee\npieces:\n  - {title: 騎士, art: k.png, count: 2}\n")
    (root / "data" / "test" / "art").mkdir()
    art = Image.new("RGB", (370, 600), (200, 200, 200))
    art.paste((255, 0, 0), (0, 0, 80, 80))  # a red mark at the figure's top-left: upright, it is top-left
    art.save(root / "data" / "test" / "art" / "k.png")
    out = _export(root)
    objects = _objects(out, "cards")
    assert len(objects) == 2 and {o["Name"] for o in objects} == {"Custom_Token"}
    assert all(o["CustomImage"]["CustomToken"]["StandUp"] is True and o["Nickname"] == "騎士" for o in objects)
    with Image.open(out / "cards-001-front.png") as im:
        px = 200 / 25.4  # the export's 200 dpi
        inset = STAND_UP_INSET_MM
        assert abs(im.width - (25 - 2 * inset) * px) <= 1 and abs(im.height - (50 - 2 * inset) * px) <= 1
        assert im.convert("RGB").getpixel((5, 5)) == (255, 0, 0)  # the upright front, not the far copy
        edges = [im.convert("RGB").getpixel((x, y)) for x in range(im.width // 3, im.width) for y in (0, im.height - 1)]
        assert set(edges) == {(200, 200, 200)}  # the art alone: no dash of a fold line along its top or bottom
    assert abs(objects[0]["Transform"]["scaleX"] - (50 - 2 * inset) / 25.4 / 2) < 0.001  # as tall as the figure


D6_LAYOUT = """\
description: paper d6, 16 mm faces
kind: token
size: [68, 48]
background: '#ffffff'
die: [f1, f2, f3, f4, f5, f6]
boxes:
  f1: {type: panel, x: 16, y: 0, w: 16, h: 16, fill: '#ffffff'}
  f2: {type: panel, x: 0, y: 16, w: 16, h: 16, fill: '#ffffff'}
  f3: {type: panel, x: 16, y: 16, w: 16, h: 16, fill: '#ffffff'}
  f4: {type: panel, x: 32, y: 16, w: 16, h: 16, fill: '#ffffff'}
  f5: {type: panel, x: 48, y: 16, w: 16, h: 16, fill: '#ffffff'}
  f6: {type: panel, x: 16, y: 32, w: 16, h: 16, fill: '#ffffff'}
  c1: {type: panel, x: 18, y: 2, w: 12, h: 12, fill: '#ff0000'}
  c2: {type: panel, x: 2, y: 18, w: 12, h: 12, fill: '#00ff00'}
  c3: {type: panel, x: 18, y: 18, w: 12, h: 12, fill: '#0000ff'}
  c4: {type: panel, x: 34, y: 18, w: 12, h: 12, fill: '#ffff00'}
  c5: {type: panel, x: 50, y: 18, w: 12, h: 12, fill: '#00ffff'}
  c6: {type: panel, x: 18, y: 34, w: 12, h: 12, fill: '#ff00ff'}
  mark: {type: panel, x: 18, y: 2, w: 4, h: 4, fill: '#000000'}
  fold: {type: line, x: 0, y: 16, w: 64, dash: 1}
"""
D6_DECK = """\
name: Combat die
layout: d6
shape: polygon
points: [[16, 0], [32, 0], [32, 16], [64, 16], [64, 32], [32, 32], [32, 48], [16, 48], [16, 32], [0, 32], [0, 16],
         [16, 16]]
pieces:
  - {count: 2}
"""


def test_a_paper_die_rolls_on_the_table_as_a_d6_of_its_faces(tmp_path):
    """A paper d6 (a layout whose ``die:`` names its six face boxes) went to Tabletop Simulator as
    its flat cross-shaped net, a token that cannot roll. It is a ``Custom_Dice`` of type 1 (a d6)
    per copy, its texture Tabletop Simulator's d6 template: a 3 × 3 grid of square faces, the top
    row the edges, 2, 4, 5 on the middle row, 1 and 6 turned upside down beside 3 on the bottom."""
    root = make_workspace(tmp_path / "ws", deck=D6_DECK)
    (root / "layouts").mkdir()
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT, encoding="utf-8")
    out = _export(root)
    objects = _objects(out, "cards")
    assert len(objects) == 2 and {o["Name"] for o in objects} == {"Custom_Dice"}
    assert objects[0]["CustomImage"]["CustomDice"] == {"Type": 1}
    assert objects[0]["CustomImage"]["ImageURL"].endswith("/cards-001-front.png")
    with Image.open(out / "cards-001-front.png") as im:
        cell = round(16 / 25.4 * 200)  # a 16 mm face at 200 dpi
        assert im.size == (3 * cell, 3 * cell)
        rgb = im.convert("RGB")

        def at(col: int, row: int, fx: float = 0.5, fy: float = 0.5) -> tuple[int, int, int]:
            return rgb.getpixel((round((col + fx) * cell), round((row + fy) * cell)))

        assert [at(0, 1), at(1, 1), at(2, 1)] == [(0, 255, 0), (255, 255, 0), (0, 255, 255)]  # 2, 4, 5
        assert [at(0, 2), at(1, 2), at(2, 2)] == [(255, 0, 0), (0, 0, 255), (255, 0, 255)]  # 1, 3, 6
        assert at(0, 2, 0.8, 0.8) == (0, 0, 0) and at(0, 2, 0.2, 0.2) == (255, 0, 0)  # face 1 upside down
        assert at(1, 0) == (255, 255, 255)  # the edges: the faces' rim colour (the paper round the panels)


def test_a_die_that_names_a_box_it_does_not_have_is_one_line(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=D6_DECK)
    (root / "layouts").mkdir()
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT.replace("f6]", "f7]"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert "layouts/d6.yaml:5:" in err and "no box 'f7' on the front to be a die's face (expected a list of the 6 front boxes" in err
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT.replace("f6]", "f5]"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert "die: box f5 is named twice" in err and "die: die:" not in err, err  # (the key said once)
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT.replace("f6]", "f6, f7]"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert "is not a list of 6 box names" in err and "die: die:" not in err, err


def test_a_die_drawn_by_templates_rolls_as_the_layouts_does(tmp_path, capsys):
    """A paper d6 a template draws went to Tabletop Simulator as its net, a flat token; the deck
    file's ``die:`` (six face boxes in mm, faces 1 to 6) makes it the layout's ``Custom_Dice``.
    ``layout export`` of the d6 prints that line among the deck's, and the exported templates
    with it export the very same die texture."""
    root = make_workspace(tmp_path / "ws", deck=D6_DECK)
    (root / "layouts").mkdir()
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT, encoding="utf-8")
    from_layout = (_export(root) / "cards-001-front.png").read_bytes()
    capsys.readouterr()
    folder = root / "templates" / "test"
    assert run(root, "layout", "export", "--game", "test", "--deck", "cards", "--out", str(folder)) == 0
    out_lines = capsys.readouterr().out.splitlines()
    die = [line.strip() for line in out_lines if line.strip().startswith("die:")]
    assert die == ["die: [[16, 0, 16, 16], [0, 16, 16, 16], [16, 16, 16, 16], [32, 16, 16, 16], [48, 16, 16, 16], "
                   "[16, 32, 16, 16]]   # Tabletop Simulator: the faces 1 to 6, a die that rolls"], die
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    front = [line.split("front: ")[1].split()[0] for line in out_lines if "front: " in line][0]
    plain = D6_DECK.replace("layout: d6", f"kind: token\nsize: [68, 48]\nfront: {front}")
    deck.write_text(plain, encoding="utf-8")
    objects = _objects(_export(root), "cards")
    assert {o["Name"] for o in objects} != {"Custom_Dice"}  # without die: its net, flat
    deck.write_text(plain + die[0].split("   #")[0] + "\n", encoding="utf-8")
    out = _export(root)
    objects = _objects(out, "cards")
    assert len(objects) == 2 and {o["Name"] for o in objects} == {"Custom_Dice"}
    assert objects[0]["CustomImage"]["CustomDice"] == {"Type": 1}
    assert (out / "cards-001-front.png").read_bytes() == from_layout


def test_a_die_of_five_faces_in_a_deck_file_is_one_line(tmp_path, capsys):
    deck = D6_DECK.replace("layout: d6", "kind: token\nsize: [64, 48]\nfront: test/card-front.svg.j2\ndie: [[0, 0, 16, 16]]")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:" in err and "die: [[0, 0, 16, 16]] is not a list of 6 face boxes" in err, err
    assert "die: die:" not in err, err  # the key once, as every message gives it


def test_a_deck_files_die_face_past_the_piece_or_given_twice_is_named_by_its_number(tmp_path, capsys):
    """A face box running past the trim was told as ``die: w 16 is out of range (expected 0.1 to 4
    mm)``, naming no face and calling a place a size; one given twice was taken (a layout's ``die:``
    refuses a box named twice). Both name the face by its number, and what would be right."""
    six = "[[16, 0, 16, 16], [0, 16, 16, 16], [16, 16, 16, 16], [32, 16, 16, 16], [48, 16, 16, 16], {last}]"
    base = D6_DECK.replace("layout: d6", "kind: token\nsize: [64, 48]\nfront: test/card-front.svg.j2\ndie: " + six)
    root = make_workspace(tmp_path / "ws", deck=base.replace("{last}", "[60, 40, 16, 16]"))
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:" in err and "die: face 6, [60, 40, 16, 16], runs past the piece's 64×48 mm trim" in err, err
    assert "x + w at most 64, y + h at most 48" in err and "die: die:" not in err, err
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(base.replace("{last}", "[16, 0, 16, 16]"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "die: face 6, [16, 0, 16, 16], is face 1 again; a die has 6 different faces" in err, err


def test_a_pieces_rules_text_is_its_description_on_the_table_as_plain_text(tmp_path):
    """A card's ``Description`` (what Tabletop Simulator shows under its name) was empty. It is the
    piece's rules text as it reads: an icon as its name, ruby as its base, no bold or colour tags;
    a token's from its ``effect`` field; a piece with none keeps it empty."""
    deck = DECK_YAML + '  - {name: 金, text: "{coin}を**2**枚得る。[red]注意[/red]\\n{南瓜|かぼちゃ}も"}\n  - {name: 無}\n'
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "templates" / "test" / "sq.svg.j2").write_text(SQUARE_TOKEN_SVG, encoding="utf-8")
    (root / "data" / "test" / "decks" / "chits.yaml").write_text(PIECES["chits"].replace(
        "fields: {name: text}", "fields: {name: text, effect: text}").replace("{name: 片}", "{name: 片, effect: '[b]1歩進む'}"),
        encoding="utf-8")
    out = _export(root)
    cards = _objects(out, "cards")
    assert [c["Description"] for c in cards] == ["coin を2枚得る。注意\n南瓜も", ""]
    [chit] = _objects(out, "chits")
    assert chit["Name"] == "Custom_Token" and chit["Description"] == "[\u200bb]1歩進む"  # as written, never TTS's bold


def test_a_paper_die_says_the_face_rolled(tmp_path):
    """The d6 had no ``RotationValues``: Tabletop Simulator showed no value when it was rolled. Each
    face 1 to 6 has the rotation that turns it up, and those rotations turn six different sides of
    the cube up, opposite faces adding up to 7 as on the template's die."""
    root = make_workspace(tmp_path / "ws", deck=D6_DECK)
    (root / "layouts").mkdir()
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT, encoding="utf-8")
    die = _objects(_export(root), "cards")[0]
    values = die["RotationValues"]
    assert [v["Value"] for v in values] == [1, 2, 3, 4, 5, 6]

    def up(rotation: dict) -> tuple[int, ...]:
        """The side of the cube (a unit vector of its own frame) the rotation turns up: Unity's
        Euler angles turn z, then x, then y; the side up is R⁻¹ · (0, 1, 0)."""
        x, y, z = (math.radians(rotation[k]) for k in "xyz")
        rx = np.array([[1, 0, 0], [0, math.cos(x), -math.sin(x)], [0, math.sin(x), math.cos(x)]])
        ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
        rz = np.array([[math.cos(z), -math.sin(z), 0], [math.sin(z), math.cos(z), 0], [0, 0, 1]])
        return tuple(int(round(v)) for v in (ry @ rx @ rz).T @ np.array([0, 1, 0]))

    sides = {int(v["Value"]): up(v["Rotation"]) for v in values}
    assert len(set(sides.values())) == 6
    for n in (1, 2, 3):
        assert sides[7 - n] == tuple(-c for c in sides[n])


def test_a_card_that_says_die_is_told_not_made_a_die_on_the_table(tmp_path, capsys):
    """``die:`` on a card deck's file was taken silently and Tabletop Simulator turned every card
    into a rolling cube. A paper die is a token: a card or tile deck that says ``die:`` (or sets
    ``kind:`` over a die's layout) stops ``check`` at that line, saying what would be right."""
    six = "[[16, 0, 16, 16], [0, 16, 16, 16], [16, 16, 16, 16], [32, 16, 16, 16], [48, 16, 16, 16], [16, 32, 16, 16]]"
    deck = D6_DECK.replace("layout: d6", "size: [64, 48]\nfront: test/card-front.svg.j2\ndie: " + six)
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:4:" in err and "die: a paper die is a token, and this deck is a card" in err, err
    assert "'kind: token' for a die folded from paper" in err and "Traceback" not in err, err
    deck_file = root / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck.replace("size:", "kind: tile\nsize:"), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "and this deck is a tile" in capsys.readouterr().err
    deck_file.write_text(D6_DECK.replace("layout: d6", "layout: d6\nkind: card"), encoding="utf-8")
    (root / "layouts").mkdir()
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT, encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "cards.yaml:3:" in (err := capsys.readouterr().err) and "kind: card on a deck whose layout is a paper die" in err, err
    assert "kind: kind:" not in err, err
    deck_file.write_text(deck.replace("size:", "kind: token\nsize:"), encoding="utf-8")
    run(root, "check", "--game", "test")
    assert "paper die" not in (out := capsys.readouterr()).err + out.out  # a token die is a die


def test_copies_share_their_pieces_name_and_pieces_of_one_name_are_numbered(tmp_path):
    """Every copy of a paper die was named ``Combat die #1`` (its place, read as a copy's number),
    and two tokens titled 得点 were both 得点 on the table while the change report numbers them
    (得点 #2). A piece's copies share its name, as a card's do; a one-piece deck's nameless piece is
    the deck's name; pieces of one name get their number, as the change report gives it."""
    root = make_workspace(tmp_path / "ws", deck=D6_DECK)
    (root / "layouts").mkdir()
    (root / "layouts" / "d6.yaml").write_text(D6_LAYOUT, encoding="utf-8")
    (root / "data" / "test" / "decks" / "points.yaml").write_text(
        "name: 点\nkind: token\nsize: [20, 20]\nfront: test/card-front.svg.j2\nfields: {name: text, text: text}\npieces:\n"
        "  - {name: 得点, count: 2}\n  - {name: 得点}\n  - {name: 他}\n", encoding="utf-8")
    out = _export(root)
    assert [o["Nickname"] for o in _objects(out, "cards")] == ["Combat die", "Combat die"]
    assert [o["Nickname"] for o in _objects(out, "points")] == ["得点 #1", "得点 #1", "得点 #2", "他"]


def test_pieces_of_one_name_are_told_apart_on_the_table_by_their_values_as_the_change_report_does(tmp_path):
    """A deck-builder's trial: two coin tokens both titled コイン, of values 1 and 5, were
    ``コイン #1`` and ``コイン #2`` on the table (places in the deck file, which no coin shows), while
    the change report and reprint.txt call them ``コイン［1］`` and ``コイン［5］``. The table names them
    by the value that tells them apart too (every copy alike), in the edition's language."""
    root = make_workspace(tmp_path / "ws", pieces=TWO, game=GAME_YAML + "languages: [ja, en]\n")
    (root / "data" / "test" / "decks" / "coins.yaml").write_text(
        "name: コイン\nkind: token\nsize: [20, 20]\nfront: test/card-front.svg.j2\nfields: {name: text, text: text}\n"
        "pieces:\n  - {name: {ja: コイン, en: Coin}, text: '1'}\n  - {name: {ja: コイン, en: Coin}, text: '5', count: 2}\n"
        "  - {name: {ja: 他, en: Other}}\n", encoding="utf-8")
    assert [o["Nickname"] for o in _objects(_export(root), "coins")] == ["コイン［1］", "コイン［5］", "コイン［5］", "他"]
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "en") == 0
    english = root / "build" / "test" / "en" / "tabletopsimulator"
    assert [o["Nickname"] for o in _objects(english, "coins")] == ["Coin [\u200b1]", "Coin [\u200b5]", "Coin [\u200b5]", "Other"]


@pytest.mark.parametrize("line", ["die: [[0, 0, 0.1, 0.1], [1, 0, 0.1, 0.1], [2, 0, 0.1, 0.1], [3, 0, 0.1, 0.1], "
                                  "[4, 0, 0.1, 0.1], [5, 0, 0.1, 0.1]]", "stand_up: [0, 0, 0.3, 0.1]"])
def test_a_die_face_or_a_standing_figure_smaller_than_its_inset_is_exported(tmp_path, capsys, line):
    """A deck file's die faces or standee box of 0.1 mm (what ``die:`` and ``stand_up:`` take) were
    cut 0.2 mm inside each edge, right of their left edge: a traceback from the picture library
    (``Coordinate 'right' is less than 'left'``). Each is cut whole, at least a pixel."""
    deck = D6_DECK.replace("layout: d6", f"kind: token\nsize: [64, 48]\nfront: test/card-front.svg.j2\n{line}\n"
                           "fields: {name: text, text: text}").replace("{count: 2}", "{count: 2, name: a, text: b}")
    root = make_workspace(tmp_path / "ws", deck=deck)
    out = _export(root)
    assert "Traceback" not in capsys.readouterr().err
    objects = _objects(out, "cards")
    assert len(objects) == 2
    assert {o["Name"] for o in objects} == ({"Custom_Dice"} if line.startswith("die") else {"Custom_Token"})
    with Image.open(out / "cards-001-front.png") as picture:
        assert picture.width >= 1 and picture.height >= 1


def test_a_hidden_roles_card_face_down_tells_the_table_neither_its_name_nor_its_text(tmp_path):
    """A role card dealt face down showed its role in the tooltip: the cards carried no
    ``HideWhenFaceDown``, so a hover over another player's card read 「影」. Every card (and the deck,
    and a deck of one card) hides its name and text while face down and goes into a hand; the back
    is one image and no file is named after a role."""
    deck = DECK_YAML + "  - {name: 市民, text: 能力なし}\n  - {name: 影, text: 失敗を出せる}\n"
    root = make_workspace(tmp_path / "ws", deck=deck, back=TILE_BACK_SVG)  # one back for every role
    (root / "data" / "test" / "decks" / "one.yaml").write_text(
        DECK_YAML.replace("テストカード", "一枚") + "  - {name: 道化, text: 追放で勝つ}\n", encoding="utf-8")
    out = _export(root)
    obj = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    [single] = _objects(out, "one")
    for held in (obj, *obj["ContainedObjects"], single):
        assert held["HideWhenFaceDown"] is True and held["Hands"] is True, held["Nickname"]
    assert {e["BackURL"] for e in obj["CustomDeck"].values()} == {(out / "cards-back.png").as_uri()}
    assert not any(role in p.name for p in out.iterdir() for role in ("市民", "影", "道化"))


VOTE_BACK_SVG = TILE_BACK_SVG.replace('fill="#335533"/>', 'fill="#335533"/><text x="3" y="10" font-family="BIZUDPGothic-Regular" font-size="4">反対</text>')


def test_a_two_sided_pieces_back_is_not_called_by_its_fronts_name(tmp_path):
    """trial: a vote token (賛成 on its front, 反対 on its back) went to the table as one tile
    named 賛成, whichever side was up. A back that does not print the piece's name goes by the
    deck's name (a tile's one name; a token's back state); a counter whose back prints its unit
    keeps the unit's name on both sides."""
    token = "kind: token\nshape: {shape}\nsize: 20\nfront: sq.svg.j2\nback: {back}\nfields: {{name: text}}\n" \
            "pieces:\n  - {{name: 賛成, count: 2}}\n"
    out = _export(_token_game(tmp_path, {
        "vote": "name: 投票トークン\n" + token.format(shape="circle", back="vote.svg.j2"),
        "hexvote": "name: 投票六角\n" + token.format(shape="hex", back="vote.svg.j2"),
        "units": "name: 部隊\n" + token.format(shape="rect", back="own.svg.j2").replace("size: 20", "size: [20, 20]"),
        "hexunits": "name: 六角部隊\n" + token.format(shape="hex", back="own.svg.j2"),
        "unnamed": "name: 無名\n" + token.format(shape="rect", back="vote.svg.j2").replace("size: 20", "size: [20, 20]")
        .replace("{name: text}", "{power: text}").replace("{name: 賛成, count: 2}", "{power: '3'}")},
        {"sq": SQUARE_TOKEN_SVG, "vote": VOTE_BACK_SVG, "own": OWN_BACK_SVG}))
    assert [(o["Name"], o["Nickname"]) for o in _objects(out, "vote")] == [("Custom_Tile", "投票トークン")] * 2
    for obj in _objects(out, "hexvote"):  # a pointy hex: a token, its back the second state
        assert (obj["Nickname"], obj["States"]["2"]["Nickname"]) == ("賛成", "投票六角")
        assert obj["HideWhenFaceDown"] is True and obj["States"]["2"]["HideWhenFaceDown"] is True
    assert [o["Nickname"] for o in _objects(out, "units")] == ["賛成"] * 2  # its back prints 賛成 too
    # a wargame trial: a counter flipped to its reduced side hid its unit's name and factors, saved
    # HideWhenFaceDown as a hidden tile is; its back names it, so face down it hides nothing
    assert all(o["HideWhenFaceDown"] is True for o in _objects(out, "vote"))
    assert not any("HideWhenFaceDown" in o for o in _objects(out, "units"))
    for obj in _objects(out, "hexunits"):
        assert obj["States"]["2"]["Nickname"] == "賛成"
        assert "HideWhenFaceDown" not in obj and "HideWhenFaceDown" not in obj["States"]["2"]
    # a piece with no name of its own: no back names it, so face down its back hides its front
    [unnamed] = _objects(out, "unnamed")
    assert unnamed["Nickname"] == "無名" and unnamed["HideWhenFaceDown"] is True


# (the game's Japanese fonts by name: an English edition's gothic has no 賛成, which a <text> would print as boxes)
WORDED_FRONT_SVG = SQUARE_TOKEN_SVG.replace('fill="#3366cc"/>', 'fill="#3366cc"/><text x="3" y="8" font-family="BIZUDPGothic-Regular" '
                                            'font-size="3">{{ piece.name }}</text><text x="3" y="14" font-family="BIZUDPGothic-Regular" '
                                            'font-size="3">{{ piece.text }}</text>')


def test_a_two_sided_pieces_description_says_each_side(tmp_path):
    """A two-sided tile's Description (one text, whichever side is up) was its front's rules text,
    and a token's back state said its front's: a vote token face down told 賛成's text. A tile's
    says what each side prints, each side named (表 … 裏 …); a token's back state says its back's."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    decks = root / "data" / "test" / "decks"
    token = "kind: token\nshape: {shape}\nsize: 20\nfront: front.svg.j2\nback: vote.svg.j2\n" \
            "fields: {{name: text, text: text}}\npieces:\n  - {{name: 賛成, text: 可決に1票}}\n"
    (decks / "vote.yaml").write_text("name: 投票トークン\n" + token.format(shape="circle"), encoding="utf-8")
    (decks / "hexvote.yaml").write_text("name: 投票六角\n" + token.format(shape="hex"), encoding="utf-8")
    for name, svg in (("front", WORDED_FRONT_SVG), ("vote", VOTE_BACK_SVG)):
        (root / "templates" / "test" / f"{name}.svg.j2").write_text(svg, encoding="utf-8")
    out = _export(root)
    [tile] = _objects(out, "vote")
    assert tile["Name"] == "Custom_Tile" and tile["Description"] == "表: 賛成\n可決に1票\n裏: 反対"
    [token] = _objects(out, "hexvote")  # a pointy hex: a token, its back the second state
    assert (token["Description"], token["States"]["2"]["Description"]) == ("可決に1票", "反対")
    game = root / "data" / "test" / "game.yaml"  # an English game's: its sides in English
    game.write_text("languages: [en]\n" + game.read_text(encoding="utf-8"), encoding="utf-8")
    [tile] = _objects(_export(root), "vote")
    assert tile["Description"] == "Front: 賛成\n可決に1票\nBack: 反対"


def _counter_side(first: tuple[str, int], second: tuple[str, int]) -> str:
    """A counter's side drawing two texts in this order, each ``(field, y)``."""
    texts = "".join(f'<text x="3" y="{y}" font-family="{{{{ fonts.gothic }}}}" font-size="3">{{{{ piece.{field} }}}}</text>'
                    for field, y in (first, second))
    return TILE_BACK_SVG.replace('fill="#335533"/>', 'fill="#335533"/>' + texts)


# a counter whose front template draws its factors (below) before its unit (above), its back the unit first
COUNTER_DECK = ("name: 部隊\nkind: token\nshape: rect\nsize: [20, 20]\nfront: full.svg.j2\nback: reduced.svg.j2\n"
                "fields: {{name: text, factors: text, reduced: text}}\n"
                "pieces:\n  - {{name: 1/US, factors: {factors}, reduced: 2-1-8}}\n")
COUNTER_SIDES = {"full": _counter_side(("factors", 16), ("name", 6)), "reduced": _counter_side(("name", 6), ("reduced", 16))}


def test_a_counters_two_sides_are_described_top_to_bottom_alike(tmp_path):
    """fixesR (trial62's wargame): a counter's front template drew its factors (below) before its
    unit (above), its back the unit first: the Description said "4-3-8 / 1/US" of the front and
    "1/US / 2-1-8" of the back. Each side reads from its top down, whatever order it was drawn in."""
    deck = COUNTER_DECK.format(factors="4-3-8")
    out = _export(_token_game(tmp_path, {"units": deck}, COUNTER_SIDES))
    [tile] = _objects(out, "units")
    assert tile["Description"] == "表: 1/US\n4-3-8\n裏: 1/US\n2-1-8", tile["Description"]
    # the other way round: the front drawn top first, the back its reduced factors (below) first
    out = _export(_token_game(tmp_path / "swapped", {"units": deck}, {
        "full": _counter_side(("name", 6), ("factors", 16)), "reduced": _counter_side(("reduced", 16), ("name", 6))}))
    [tile] = _objects(out, "units")
    assert tile["Description"] == "表: 1/US\n4-3-8\n裏: 1/US\n2-1-8", tile["Description"]


def test_a_two_sided_counters_open_value_is_left_out_of_its_description(tmp_path):
    """review41 (fixesQ's Description without open values met fixesR's sides read top down): a
    counter whose factors were still 未定 was described 「表: 1/US 未定」, the mark a player learns
    nothing from, which a one-sided piece's Description leaves out."""
    out = _export(_token_game(tmp_path, {"units": COUNTER_DECK.format(factors="未定")}, COUNTER_SIDES))
    [tile] = _objects(out, "units")
    assert tile["Description"] == "表: 1/US\n裏: 1/US\n2-1-8", tile["Description"]


RUBY_FRONT_SVG = SQUARE_TOKEN_SVG.replace('fill="#3366cc"/>', 'fill="#3366cc"/>{{ textbox(piece.text, 1, 6, 18, 10, size=6) }}')


def test_a_two_sided_piece_face_down_hides_its_words_and_a_ruby_is_its_base(tmp_path):
    """A two-sided tile's Description says what each side prints (表: … 裏: …), so in a
    hidden-information game a tile face down showed its front's words in its tooltip: two-sided
    tiles and tokens (both states) are saved ``HideWhenFaceDown``, as cards are; a one-sided tile
    is not. A ruby's reading was a line of its own in the Description (表: とうひょう, then 投票で可決):
    the base alone, as the rest of pnpgen names a piece."""
    token = "kind: token\nshape: {shape}\nsize: 20\nfront: front.svg.j2\n{back}" \
            "fields: {{name: text, text: text}}\npieces:\n  - {{name: 賛成, text: \"{{投票|とうひょう}}で可決\"}}\n"
    out = _export(_token_game(tmp_path, {
        "vote": "name: 投票トークン\n" + token.format(shape="circle", back="back: vote.svg.j2\n"),
        "hexvote": "name: 投票六角\n" + token.format(shape="hex", back="back: vote.svg.j2\n"),
        "plain": "name: 一枚\n" + token.format(shape="circle", back="").replace("kind: token", "kind: tile")},
        {"front": RUBY_FRONT_SVG, "vote": VOTE_BACK_SVG}))
    [tile] = _objects(out, "vote")
    assert tile["Name"] == "Custom_Tile" and tile["Description"] == "表: 投票で可決\n裏: 反対", tile["Description"]
    assert tile["HideWhenFaceDown"] is True
    [token] = _objects(out, "hexvote")
    assert token["HideWhenFaceDown"] is True and token["States"]["2"]["HideWhenFaceDown"] is True
    [one] = _objects(out, "plain")
    assert one["Name"] == "Custom_Tile" and "HideWhenFaceDown" not in one


def test_a_two_sided_pieces_description_keeps_japanese_words_in_bold_unspaced(tmp_path):
    """Japanese trial (森の小径): a tile's front 「隣の**森**１枚につき１点。」 was described as
    「隣の 森 １枚につき１点。」, the bold word set apart by spaces as a word of its own, where a Japanese
    line has none; words of two boxes on one baseline (「攻撃 1」 beside 「体力 4」) stay apart."""
    token = ("kind: token\nshape: circle\nsize: 20\nfront: front.svg.j2\nback: vote.svg.j2\n"
             "fields: {{name: text, text: text}}\npieces:\n  - {{name: 賛成, text: \"{text}\"}}\n")
    two_boxes = SQUARE_TOKEN_SVG.replace('fill="#3366cc"/>', 'fill="#3366cc"/>{{ textbox("攻撃 1", 1, 12, 8, 4, size=5) }}'
                                         '{{ textbox("体力 4", 11, 12, 8, 4, size=5) }}')
    out = _export(_token_game(tmp_path, {"vote": "name: 投票トークン\n" + token.format(text="隣の**森**に１点")},
                              {"front": RUBY_FRONT_SVG, "vote": VOTE_BACK_SVG}))
    [tile] = _objects(out, "vote")
    assert tile["Description"] == "表: 隣の森に１点\n裏: 反対", tile["Description"]
    out = _export(_token_game(tmp_path / "two", {"vote": "name: 投票トークン\n" + token.format(text="x")},
                              {"front": two_boxes, "vote": VOTE_BACK_SVG}))
    [tile] = _objects(out, "vote")
    assert tile["Description"] == "表: 攻撃 1 体力 4\n裏: 反対", tile["Description"]


WRAPPED_FRONT_SVG = SQUARE_TOKEN_SVG.replace('fill="#3366cc"/>', 'fill="#3366cc"/>{{ textbox(piece.name, 1, 1, 18, 4, size=3) }}'
                                             '{{ textbox(piece.text, 1, 6, 10, 14, size=2.5) }}')


@pytest.mark.parametrize("lang, text, said", [
    ("ja", "{vp}隣の森１枚につき１点を得る。さらに山があれば２点を得る。\\n手番の終わりに捨てる。",
     "表: 賛成\n隣の森１枚につき１点を得る。さらに山があれば２点を得る。\n手番の終わりに捨てる。\n裏: 反対"),
    ("en", "Draw two cards, then discard one. Pneumonoultramicroscopicsilicovolcanoconiosis.\\nDiscard it at the end.",
     "Front: 賛成\nDraw two cards, then discard one. Pneumonoultramicroscopicsilicovolcanoconiosis.\n"
     "Discard it at the end.\nBack: 反対"),
])
def test_a_two_sided_pieces_description_reads_a_wrapped_text_as_sentences(tmp_path, lang, text, said):
    """A tile's Description said its side's words a printed line each: a rules text wrapped to its
    box came to the table broken mid-sentence (「さらに山が」 / 「あれば２点を得る。」; a word
    hyphenated to fit, Pneumonoultramicro- / scopic…). A break only to fit the box is read on (in
    Japanese with nothing between, in English with a space, the hyphenated word whole); the text's
    own line break, a paragraph's, stays, and so does the break between two boxes (the name's)."""
    token = ("kind: token\nshape: circle\nsize: 20\nfront: front.svg.j2\nback: vote.svg.j2\n"
             f"fields: {{name: text, text: text}}\npieces:\n  - {{name: 賛成, text: \"{text}\"}}\n")
    root = _token_game(tmp_path, {"vote": "name: 投票トークン\n" + token}, {"front": WRAPPED_FRONT_SVG, "vote": VOTE_BACK_SVG})
    if lang == "en":
        game = root / "data" / "test" / "game.yaml"
        game.write_text("languages: [en]\n" + game.read_text(encoding="utf-8"), encoding="utf-8")
    [tile] = _objects(_export(root), "vote")
    assert tile["Description"] == said, tile["Description"]


def test_only_a_break_within_a_texts_line_is_read_on():
    """The lines as a side prints them, and the piece's texts they are read against: a break
    within a line of a text is read on; one at the text's line break, between two texts, or of
    words no text holds (a template's own) stays; a hyphen of the text's own (well-known) is kept."""
    from pnpgen.exports.ttswords import _paragraphs

    texts = ["賛成", "{vp}を得る。さらに**山**が\nあれば２点。", "A well-known trick: Pneumonoultramicroscopic."]
    assert _paragraphs(["賛成", "を得る。さらに山", "が", "あれば２点。"], texts) == ["賛成", "を得る。さらに山が", "あれば２点。"]
    assert _paragraphs(["A well-", "known trick:", "Pneumono-", "ultramicro-", "scopic."], texts) == \
        ["A well-known trick: Pneumonoultramicroscopic."]
    assert _paragraphs(["を得る。さらに", "山が", "GAME OVER"], texts) == ["を得る。さらに山が", "GAME OVER"]
    assert _paragraphs(["を得る。さらに", "山が"], []) == ["を得る。さらに", "山が"]


def test_a_cards_description_holds_the_fields_its_face_shows_in_its_order_labelled_as_its_layout_labels_them(tmp_path):
    """A card's ``Description`` held its ``text`` alone: a player hovering an enemy on the table read
    弱い。 but not its 体力 3 or its reward, which the card prints (docs/exports.md had it as a
    limit). It holds each field the face shows, in the face's order, as the layout labels it (a
    box's label: before, its unit: after), else named by its field (reward: 4点); not the name (the
    Nickname says it) nor a field the face leaves out (note, secret); the rules text bare."""
    enemies = ("name: 敵\nlayout:\n  extends: card-poker\n  boxes:\n    flavour: null\n"
               "    hp: {field: hp, label: 体力, x: 4, y: 70, w: 20, h: 6, font: bold}\n"
               "    reward: {field: reward, unit: 点, x: 40, y: 70, w: 19, h: 6, align: right}\n"
               "fields: {note: text}\n"
               "pieces:\n  - {title: ゴブリン, hp: 3, reward: 4, text: 弱い。, note: 裏話}\n  - {title: 影, hp: 1, reward: 2, text: 謎。}\n")
    front = FRONT.replace("{{ textbox(piece.text,", "{{ textbox('コスト' ~ piece.cost, 5, 20, w - 10, 8, size=9) }}\n"
                          "{{ textbox(piece.text,")
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  cost: int\n  secret: text\n") \
        + "  - {name: 金, cost: 2, text: 金を得る。, secret: 隠し}\n  - {name: 銀, cost: 1000000, text: 銀を得る。}\n"
    # a keyword line of your own over the rules text, added after the built-in boxes (drawn last), is said
    # where the card shows it: before the text, as the card reads top to bottom (trial56: it came last)
    # kept in a sheet headed in the designer's words (Mana mapped to cost): labelled by the sheet's header, on
    # the table as in the sheet, and so in a deck list of it; two keywords a line each in one cell, one line
    # under their label (fixesO: the second line was unlabelled)
    allies = ("name: 味方\nlayout:\n  extends: card-poker\n  boxes:\n"
              "    keywords: {field: keywords, x: 4, y: 46, w: 55, h: 7, font: bold, align: center}\n"
              "fields: {keywords: text}\nunique: footer\n"
              "pieces: {file: allies.csv, columns: {Card: title, Mana: cost, Abilities: keywords, Card Text: text}}\n")
    root = make_workspace(tmp_path / "ws", deck=deck, front=front)
    decks = root / "data" / "test" / "decks"
    (decks / "enemies.yaml").write_text(enemies, encoding="utf-8")
    (decks / "allies.yaml").write_text(allies, encoding="utf-8")
    (decks / "allies.csv").write_text('Card,Mana,Abilities,Card Text,footer\n兵,3,"Guard\nRanged",一枚引く。,A-001\n'
                                      "弓兵,1,,二枚引く。,A-002\n", encoding="utf-8")
    (decks / "starter.yaml").write_text("name: 入門\nfrom: allies\nlist: {A-001: 2}\n", encoding="utf-8")
    out = _export(root)
    assert [c["Description"] for c in _objects(out, "enemies")] == ["弱い。\n体力 3\nreward: 4点", "謎。\n体力 1\nreward: 2点"]
    assert [c["Description"] for c in _objects(out, "allies")] == [
        "Mana: 3\nAbilities: Guard Ranged\n一枚引く。\nfooter: A-001", "Mana: 1\n二枚引く。\nfooter: A-002"]
    assert [c["Description"] for c in _objects(out, "starter")] == ["Mana: 3\nAbilities: Guard Ranged\n一枚引く。\nfooter: A-001"] * 2
    assert [c["Description"] for c in _objects(out, "cards")] == ["cost: 2\n金を得る。", "cost: 1000000\n銀を得る。"]  # (not 1e+06)


def test_an_english_tables_description_says_no_japanese_header(tmp_path):
    """A bilingual designer's trial (trial79): the English edition's cards, kept in a sheet headed in
    Japanese, were described on the English table as ``コスト: 1`` and ``勢力: Oda``. A Latin-script
    edition says such a header by its field's name; the Japanese table keeps the sheet's words."""
    game = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ntitle: {ja: テストゲーム, en: Test Game}")
    root = make_workspace(tmp_path / "ws", pieces=TWO, game=game)
    decks = root / "data" / "test" / "decks"
    (decks / "units.yaml").write_text(
        "name: {ja: 武将, en: Generals}\nfields: {faction: text}\nlayout:\n  extends: card-poker\n  boxes:\n"
        "    faction: {field: faction, x: 5, y: 80, w: 20, h: 4, size: 6}\n"
        "pieces: {file: units.csv, columns: {カード名: title, \"カード名（英語）\": title.en, コスト: cost, 勢力: faction, "
        "\"勢力（英語）\": faction.en, Power: value}}\n", encoding="utf-8")
    (decks / "units.csv").write_text("カード名,カード名（英語）,コスト,勢力,勢力（英語）,Power\n信長,Nobunaga,3,織田,Oda,7\n",
                                     encoding="utf-8")
    assert [c["Description"] for c in _objects(_export(root, "test", "--deck", "units"), "units")] == [
        "コスト: 3\nPower: 7\n勢力: 織田"]
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck", "units", "--lang", "en") == 0
    english = root / "build" / "test" / "en" / "tabletopsimulator"
    assert [c["Description"] for c in _objects(english, "units")] == ["cost: 3\nPower: 7\nfaction: Oda"]


def test_a_cards_description_leaves_out_its_open_values_and_its_picture(tmp_path):
    """A card's Description listed ``art: 未定`` (the face prints the mark) and its open flavour and
    rules text (fixesQ): a placeholder tells a player nothing; a picture's file, which the face does
    not print, never showed."""
    knights = ("name: 騎士団\nlayout: card-poker\npieces:\n"
               "  - {title: 騎士, cost: 2, text: 未定（効果を書く）, flavour: 未定, art: 未定}\n"
               "  - {title: 従者, cost: 1, text: Call a knight., art: knight.png}\n")
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "data" / "test" / "decks" / "knights.yaml").write_text(knights, encoding="utf-8")
    (root / "data" / "test" / "art").mkdir()
    Image.new("RGB", (60, 40), (90, 90, 160)).save(root / "data" / "test" / "art" / "knight.png")
    out = _export(root, "test", "--deck", "knights")
    assert [c["Description"] for c in _objects(out, "knights")] == ["cost: 2", "cost: 1\nCall a knight."]
    from pnpgen.data.model import Piece
    from pnpgen.errors import Where
    from pnpgen.exports.ttswords import shown_fields

    def said(text: str) -> str:  # (a face whose art is not at hand: its rules text alone)
        return shown_fields(Piece(1, {"title": "騎士", "text": text}, 1, Where(Path("x.yaml"))), None, None, "ja")
    assert (said("未定（効果を書く）"), said("呪う。")) == ("", "呪う。")


def test_a_sheet_header_naming_its_field_in_capitals_labels_the_description_as_written(tmp_path, capsys):
    """fixesQ: a sheet headed ``Cost`` (read as the field cost, without columns:) labelled its cards'
    Description ``cost: 2``, the field's name, while a header columns: maps is said as written
    (fixesO): the header as the sheet writes it labels it, ``Cost: 2``, and names its cells in a
    message; export-sheet still offers ``pieces: {file: …}`` alone, as capitals need no columns:."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    decks = root / "data" / "test" / "decks"
    (decks / "spells.yaml").write_text("name: 呪文\nlayout: card-poker\npieces: {file: spells.csv}\n", encoding="utf-8")
    (decks / "spells.csv").write_text("Title,Cost,Text,Count\n火,2,燃やす。,1\n", encoding="utf-8")
    out = _export(root, "test", "--deck", "spells")
    assert [c["Description"] for c in _objects(out, "spells")] == ["Cost: 2\n燃やす。"]
    assert run(root, "export-sheet", "--game", "test", "--deck", "spells", "--out", str(decks / "again.csv")) == 0
    assert "pieces: {file: again.csv}" in capsys.readouterr().out
    assert {"Title", "Cost", "Text", "Count"} <= set((decks / "again.csv").read_text(encoding="utf-8-sig").splitlines()[0].split(","))
    (decks / "spells.csv").write_text("Title,Cost,Text,Count\n火,2,燃やす。,two\n", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    said = capsys.readouterr()
    assert "spells.csv:2:4: Count (column D)" in said.out + said.err, said


KARUTA = ("name: 読み札\nsize: [53, 73]\nfields: {id: text, title: text, lines: list}\nunique: id\nlayout:\n"
          "  extends: card\n  boxes:\n    text: null\n    art: null\n"
          "    verse: {field: lines, vertical: true, x: 8, y: 9, w: 'w - 16', h: 'h - 22', size: 12, font: mincho}\n"
          "pieces:\n  - {id: Y1, title: 春, lines: [はるのよの, ゆめばかりなる]}\n"
          "  - {id: Y3, title: 秋, lines: [あきのたの, かりほのいほの]}\n"
          "  - {id: Y5, title: 朝, lines: ['{朝顔|あさがお}の', 咲く垣根]}\n")


def test_a_vertical_verse_is_its_cards_description_and_a_lists_own_back_its_back_on_the_table(tmp_path):
    """review39 (trial54 × fixesN × decklist2): a karuta card's verse, a list field set in vertical
    columns, was left out of its Description (lists were), which was empty; it is the verse's lines
    a space apart. A starter list of the deck, with a back of its own, is a deck on the table with
    the source's fronts and its own back image. trial61: a verse with ruby, its reading set beside
    the column, was left out again (the printed words read 朝顔あさがおの); it is said by its base."""
    root = make_workspace(tmp_path / "ws", deck=KARUTA)
    (root / "data" / "test" / "decks" / "starter.yaml").write_text(
        "name: 入門\nfrom: cards\nback: starter-back.svg.j2\nlist: {Y3: 2, Y1: 1}\n", encoding="utf-8")
    (root / "templates" / "test" / "starter-back.svg.j2").write_text(BACK.replace("#333366", "#aa2222").replace('"B" ~ piece.name', 'deck.name'), encoding="utf-8")
    out = _export(root)
    verses = ["lines: はるのよの ゆめばかりなる", "lines: あきのたの かりほのいほの", "lines: 朝顔の 咲く垣根"]
    assert [(c["Nickname"], c["Description"]) for c in _objects(out, "cards")] == list(zip(["春", "秋", "朝"], verses))
    assert [(c["Nickname"], c["Description"]) for c in _objects(out, "starter")] == [
        ("秋", verses[1]), ("秋", verses[1]), ("春", verses[0])]
    back = Image.open(out / "starter-back.png").convert("RGB")
    assert back.getpixel((back.width // 2, 4)) == (0xaa, 0x22, 0x22)
    source_back = Image.open(out / "cards-back.png").convert("RGB")  # (the layout's back)
    assert source_back.getpixel((source_back.width // 2, 4)) != (0xaa, 0x22, 0x22)


def test_a_big_boards_pictures_are_warned_at_what_the_table_shows_not_the_tables_200_dpi(tmp_path, capsys):
    """scale2: a big board's picture was warned at its own dpi below the table's 200 ("133 dpi"),
    while the board's one image, 4096 px a side at most (Knowledge Base, Asset Creation), held 69:
    no sharper picture would show. A 600 mm board's image holds 173 dpi: its 186 dpi map is not
    warned (the deck told once why), its 76 dpi badge is, against 173."""
    board = ("name: 盤\nkind: board\nsize: [600, 600]\nfront: board.svg.j2\nfields: {map: image, badge: image}\n"
             "pieces:\n  - {map: map.png, badge: badge.png}\n")
    template = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
                "{{ image(piece.map, 0, 0, w, h) }}\n{{ image(piece.badge, 20, 20, 100, 100) }}\n{% endblock %}\n")
    root = _token_game(tmp_path, {"board": board}, {"board": template})
    (root / "data" / "test" / "art").mkdir(exist_ok=True)
    Image.new("RGB", (4400, 4400), (30, 120, 60)).save(root / "data" / "test" / "art" / "map.png")  # 186 dpi
    Image.new("RGB", (300, 300), (200, 40, 40)).save(root / "data" / "test" / "art" / "badge.png")  # 76 dpi
    assert tts.table_dpi(load_game(Workspace(root), "test").deck("board"), (600.0, 600.0), 200) == 173
    capsys.readouterr()
    out = _export(root, "test", "--deck", "board")
    assert Image.open(out / "board-001-front.png").size == (4096, 4096)  # 4096 px over 600 mm: 173.4 dpi
    said = [line for line in capsys.readouterr().err.splitlines() if "dpi" in line]
    assert said == ["pnpgen: warning: data/test/decks/board.yaml:7:5: deck board, piece 盤: art/badge.png: 76 dpi at "
                    "100×100 mm, 173 wanted (681 × 681 px would do)",
                    "pnpgen: warning: deck board: Tabletop Simulator shows it at 173 dpi (600×600 mm): its images are at "
                    "most 4096 px a side, the most the table takes (Knowledge Base, Asset Creation), so a picture "
                    "sharper than 173 dpi shows no sharper there and is not warned (the print files keep it whole)"], said


def test_a_small_letter_beside_a_big_one_is_no_vertical_ruby():
    """trial61: a vertical reading is a half-size character right of a column's character; a
    cargo token's 「Ｌ」 grade beside its big letter, in no column, stays a word (its Description
    read 'grade: Ｌ', not empty)."""
    from pnpgen.exports.ttswords import _ruby_readings
    alone = [("text", "gothic", 20.0, ((0.0, 30.0, "Ａ"),)), ("text", "gothic", 10.0, ((14.0, 30.0, "Ｌ"),))]
    assert _ruby_readings(alone) == set()
    column = [("text", "mincho", 12.0, ((0.0, 12.0, "朝"),)), ("text", "mincho", 12.0, ((0.0, 25.0, "顔"),)),
              ("text", "mincho", 6.0, ((9.0, 10.0, "あ"),)), ("text", "mincho", 6.0, ((9.0, 16.0, "さ"),))]
    assert _ruby_readings(column) == {(2, 0), (3, 0)}


SECTION_SVG = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#f4efe1"/>
<rect x="{{ w / 2 - 10 }}" y="{{ h / 2 - 10 }}" width="20" height="20" fill="{{ ['#cc0000', '#00aa00', '#0000cc', '#000000'][piece.col0 + 2 * piece.row0] }}"/>{% endblock %}
"""


def test_a_map_in_sections_goes_to_the_table_joined_where_its_sections_meet(tmp_path):
    """trial69: a wargame's 2 × 2 map of 400 × 270 mm sections (docs/data-format.md, a map in
    sections) went to the table as four tiles in one bag at one place. With the deck's
    ``sections: {column: col0, row: row0}`` each section is a board of its own, laid where its
    edges meet its neighbours': the section's width and height apart in the units every tile is
    scaled in (a tile's longer side in inches ÷ 2 is its scale, so 400 mm is 2 × 7.874 units), the
    map's left edge where the deck's objects start; column 0 the map's left (−X), row 0 its top (+Z,
    the side away from the first seat, as every tile lies turned to face it). A deck without it keeps its bag."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "templates" / "test" / "section.svg.j2").write_text(SECTION_SVG, encoding="utf-8")
    sections = ("name: 地図\nkind: board\nsize: [400, 270]\nfront: section.svg.j2\n"
                "fields: {section: text, col0: int, row0: int}\nlabel: section\nsections: {column: col0, row: row0}\n"
                "pieces:\n  - {section: D, col0: 1, row0: 1}\n  - {section: A, col0: 0, row0: 0}\n"
                "  - {section: B, col0: 1, row0: 0}\n  - {section: C, col0: 0, row0: 1}\n")
    decks = root / "data" / "test" / "decks"
    (decks / "map.yaml").write_text(sections, encoding="utf-8")
    out = _export(root)
    saved = json.loads((out / "map.json").read_text(encoding="utf-8"))
    objects = saved["ObjectStates"]
    assert len(objects) == 4 and {o["Name"] for o in objects} == {"Custom_Tile"}, objects  # no Bag
    at = {o["Nickname"]: o["Transform"] for o in objects}
    assert set(at) == {"A", "B", "C", "D"}
    scale = 400 / 25.4 / 2  # 7.874: the tile's longer side, 400 mm, is 2 × scale units
    w, h = 400 / 25.4, 270 / 25.4  # a section's width and height in those units
    for t in at.values():
        assert (t["scaleX"], t["scaleZ"], t["rotY"], t["rotZ"]) == (round(scale, 4), round(scale, 4), 180.0, 0.0)
    assert at["B"]["posX"] - at["A"]["posX"] == pytest.approx(w, abs=0.002)  # B right of A, edge to edge
    assert at["D"]["posX"] - at["C"]["posX"] == pytest.approx(w, abs=0.002)
    assert at["A"]["posZ"] - at["C"]["posZ"] == pytest.approx(h, abs=0.002)  # C below A (toward the first seat)
    assert at["A"]["posX"] == at["C"]["posX"] and at["A"]["posZ"] == at["B"]["posZ"]
    centre = (sum(t["posX"] for t in at.values()) / 4, sum(t["posZ"] for t in at.values()) / 4)
    # the map's left edge where the deck's objects start (past the cards' deck: one object, 3 units
    # on), its middle at Z 0
    assert centre == (pytest.approx(3.0 + w, abs=0.002), pytest.approx(0, abs=0.002)), centre
    assert at["A"]["posX"] == pytest.approx(3.0 + w / 2, abs=0.001) and at["A"]["posZ"] == pytest.approx(h / 2, abs=0.001)
    # each section's own image, its own colour in the middle: the place is the section's, not the order's
    colours = {"A": (0xcc, 0, 0), "B": (0, 0xaa, 0), "C": (0, 0, 0xcc), "D": (0, 0, 0)}
    for o in objects:
        with Image.open(out / o["CustomImage"]["ImageURL"].rsplit("/", 1)[1]) as im:
            assert im.convert("RGB").getpixel((im.width // 2, im.height // 2)) == colours[o["Nickname"]]
    assert saved["SaveName"].endswith("地図") and all(len(o["GUID"]) == 6 for o in objects)
    # without sections: the same four in a bag, as before
    (decks / "map.yaml").write_text(sections.replace("sections: {column: col0, row: row0}\n", ""), encoding="utf-8")
    (bag,) = json.loads((_export(root) / "map.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert bag["Name"] == "Bag" and len(bag["ContainedObjects"]) == 4


@pytest.mark.parametrize(("sections", "pieces", "said"), [
    ("{column: col0}", "  - {col0: 0, row0: 0}\n", "does not name a column field and a row field"),
    ("{column: name, row: row0}", "  - {col0: 0, row0: 0}\n", "column 'name' is not an int field of the deck"),
    ("{column: col0, row: row0}", "  - {col0: 0, row0: 0}\n  - {col0: 0, row0: 0}\n", "col0 0, row0 0 is piece 1's place too"),
    ("{column: col0, row: row0}", "  - {col0: -1, row0: 0}\n", "col0 -1 is no place in the map"),
    ("{column: col0, row: row0}", "  - {col0: 0, row0: 0, count: 2}\n", "a map's section is one piece"),
])
def test_a_map_in_sections_said_wrong_is_an_error_at_its_line(tmp_path, capsys, sections, pieces, said):
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    (root / "templates" / "test" / "section.svg.j2").write_text(SECTION_SVG, encoding="utf-8")
    (root / "data" / "test" / "decks" / "map.yaml").write_text(
        "name: 地図\nkind: board\nsize: [400, 270]\nfront: section.svg.j2\nfields: {name: text, col0: int, row0: int}\n"
        f"sections: {sections}\npieces:\n{pieces}", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/map.yaml:" in err and said in err and "Traceback" not in err, err


def _all(out: Path, game: str = "test") -> list[dict]:
    return json.loads((out / f"{game}-all.json").read_text(encoding="utf-8"))["ObjectStates"]


def test_the_whole_game_is_one_saved_object_its_decks_laid_out_apart(tmp_path):
    """A trial's game made 7 saved objects to load one by one. ``<game>-all.json`` holds every
    deck's objects (the same objects as each deck's own file, every card and copy), laid out on the
    table in rows, no two decks' objects over each other, a row at most GAME_ROW_UNITS wide."""
    root = make_workspace(tmp_path / "ws", pieces=TWO)
    for deck, text in PIECES.items():
        (root / "data" / "test" / "decks" / f"{deck}.yaml").write_text(text, encoding="utf-8")
    (root / "data" / "test" / "decks" / "many.yaml").write_text(
        PIECES["chits"].replace("name: チット", "name: 駒").replace("{name: 片}", "{name: 片, count: 5}"), encoding="utf-8")
    (root / "templates" / "test" / "sq.svg.j2").write_text(SQUARE_TOKEN_SVG, encoding="utf-8")
    out = _export(root)
    game = _all(out)
    decks = ["board", "cards", "chits", "hexes", "many", "tiles"]
    own = {d: json.loads((out / f"{d}.json").read_text(encoding="utf-8"))["ObjectStates"] for d in decks}
    assert len(game) == sum(len(o) for o in own.values()) == 6
    by_guid = {o["GUID"]: o for o in game}
    for objects in own.values():  # each deck's objects as its own file has them, but where they lie
        for obj in objects:
            whole = by_guid[obj["GUID"]]
            assert {k: v for k, v in whole.items() if k != "Transform"} == {k: v for k, v in obj.items() if k != "Transform"}
    [cards] = [o for o in game if o["Name"] == "DeckCustom"]
    assert len(cards["ContainedObjects"]) == len(cards["DeckIDs"]) == 2
    [bag] = [o for o in game if o["Name"] == "Bag"]
    assert bag["Nickname"] == "駒" and len(bag["ContainedObjects"]) == 5
    # where they lie (units about an inch): the 300 × 200 mm board 11.8 units wide, nothing on it
    spans = []
    for obj in game:
        t = obj["Transform"]
        w, d = {"board": (300, 200), "cards": (63, 88), "tiles": (30, 30), "hexes": (60, 52)}.get(
            next(k for k, v in own.items() if v[0]["GUID"] == obj["GUID"]), (20, 20))
        w, d = (50.8, 50.8) if obj["Name"] == "Bag" else (w, d)
        spans.append((t["posX"] - w / 50.8, t["posX"] + w / 50.8, t["posZ"] - d / 50.8, t["posZ"] + d / 50.8))
    for i, a in enumerate(spans):
        for b in spans[i + 1:]:
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2], (a, b)
    xs = [x for s in spans for x in s[:2]]
    assert max(xs) - min(xs) <= 40.0 + 0.01 and abs(max(xs) + min(xs)) < 0.01  # one row's width, centred
    assert json.loads((out / "test-all.json").read_text(encoding="utf-8"))["SaveName"] == "テストゲーム"


def test_nameless_tokens_are_named_on_the_table_by_their_deck_and_the_values_that_tell_them_apart(tmp_path):
    """A player colour's tokens, nameless (``{colour: purple}``, asian-delivery's), were ``ワーカー #1`` … ``#4`` on the
    table (places in the deck file); they are the deck's name with the value that tells them apart,
    as the change report tells them (``ワーカー［purple］``), every copy alike; pieces no value tells
    apart keep their number."""
    root = _token_game(tmp_path, {
        "workers": "name: ワーカー\nkind: token\nshape: circle\nsize: 16\nfront: sq.svg.j2\nfields: {side: text}\n"
                   "pieces:\n  - {side: 紫, count: 2}\n  - {side: 桃}\n",
        "twins": "name: 同じ\nkind: token\nsize: [16, 16]\nfront: sq.svg.j2\nfields: {side: text}\n"
                 "pieces:\n  - {side: 赤}\n  - {side: 赤}\n"}, {"sq": SQUARE_TOKEN_SVG})
    out = _export(root)
    assert [o["Nickname"] for o in _objects(out, "workers")] == ["ワーカー［紫］", "ワーカー［紫］", "ワーカー［桃］"]
    assert [o["Nickname"] for o in _objects(out, "twins")] == ["同じ #1", "同じ #2"]


def test_a_one_sided_tiles_bottom_is_its_top_image(tmp_path):
    """A one-sided tile's ``ImageSecondaryURL`` was ``""``; the Knowledge Base's Custom Tile page says
    a tile given no bottom image shows its top image there: that is named, not left to how an empty
    address is read on loading. A two-sided tile keeps its back."""
    root = _token_game(tmp_path, {"tiles": PIECES["tiles"], "board": PIECES["board"]}, {"sq": SQUARE_TOKEN_SVG})
    out = _export(root)
    for deck in ("tiles", "board"):
        [tile] = _objects(out, deck)
        image = tile["CustomImage"]
        assert image["ImageSecondaryURL"] == image["ImageURL"] and image["ImageURL"].endswith(f"/{deck}-001-front.png")
