"""The manifest lists every picture a face shows, not only image()'s: a plain ``<image href>``
written in a template is measured at its placed size (transforms and preserveAspectRatio
included) and warns below --min-dpi; SVG art is listed as vector, without a dpi."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from conftest import ART_DECK_YAML, make_workspace, run

DECK = ART_DECK_YAML + """\
  - {name: 竜, art: mark.svg, count: 2}
  - {name: 鳥, art: mark.svg}
"""

# logo.png (600×300 px) at 20×10 mm: 762 dpi; photo.png (300×300 px) sliced into a 20×10 box (a
# 20×20 square drawn), doubled by the group's scale(2): a 40×20 mm box, 40 mm drawn, 190 dpi.
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<image x="5" y="5" width="20" height="10" href="logo.png"/>
<g transform="translate(5 30) scale(2)"><image width="20" height="10" preserveAspectRatio="xMidYMid slice" xlink:href="photo.png" xmlns:xlink="http://www.w3.org/1999/xlink"/></g>
<image x="40" y="5" width="15" href="mark.svg"/>
{{ image(piece.art, 5, 60, 20, 20, fit="contain") }}
{{ textbox(piece.name, 30, 60, 25, 10, size=10) }}
{% endblock %}
"""


def _workspace(tmp_path: Path) -> Path:
    ws = make_workspace(tmp_path / "ws", deck=DECK, front=FRONT)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    Image.new("RGB", (300, 300), (200, 40, 40)).save(art / "photo.png")
    (art / "mark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="30" height="60" viewBox="0 0 30 60">'
                                  '<rect width="30" height="60" fill="#228833"/></svg>', encoding="utf-8")
    Image.new("RGB", (600, 300), (20, 20, 120)).save(ws / "templates" / "test" / "logo.png")
    return ws


def _images(ws: Path) -> list[dict]:
    return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["images"]


def _by_file(images: list[dict], piece: str) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for im in images:
        if im["piece"] == piece:
            out.setdefault(im["file"], []).append(im)
    return out


def test_plain_images_and_svg_art_are_listed_with_their_resolution(tmp_path, capsys):
    ws = _workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    images = _images(ws)
    for piece in ("竜", "鳥"):
        mine = _by_file(images, piece)
        assert set(mine) == {"templates/test/logo.png", "art/photo.png", "art/mark.svg"}, mine
        (logo,) = mine["templates/test/logo.png"]
        assert (logo["kind"], logo["pixels"], logo["box_mm"], logo["dpi"], logo["enough"]) == \
            ("raster", [600, 300], [20.0, 10.0], 762, True)
        (photo,) = mine["art/photo.png"]
        assert (photo["box_mm"], photo["dpi"], photo["enough"]) == ([40.0, 20.0], 190, False)
        # the plain <image> (15 mm wide, height from the SVG's 1:2) and image()'s 20×20 mm box
        assert sorted((m["kind"], m["box_mm"][0], m["box_mm"][1], m["dpi"]) for m in mine["art/mark.svg"]) == \
            [("vector", 15.0, 30.0, None), ("vector", 20.0, 20.0, None)]
    err = capsys.readouterr().err
    assert "art/photo.png: 190 dpi at 40×20 mm, 300 wanted" in err
    assert "logo.png" not in err and "mark.svg" not in err
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--min-dpi", "180", "--out", str(tmp_path / "o")) == 0
    assert "dpi" not in capsys.readouterr().err


def test_faces_replayed_from_the_cache_keep_their_plain_images(tmp_path):
    """An edit re-renders one card; the others come from the build cache, and the manifest
    still lists their plain images."""
    ws = _workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    first = _images(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("{name: 鳥,", "{name: 鷹,"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    again = _images(ws)
    assert len(again) == len(first) == 8
    assert {im["file"] for im in again if im["piece"] == "竜"} == \
        {"templates/test/logo.png", "art/photo.png", "art/mark.svg"}
    assert {im["file"] for im in again if im["piece"] == "鷹"} == \
        {"templates/test/logo.png", "art/photo.png", "art/mark.svg"}


ART_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ image(piece.art, 5, 5, 50, 50, fit="contain") }}
{% endblock %}
"""


def test_a_picture_named_through_dot_dot_is_said_as_the_file_it_is(tmp_path, capsys):
    """safety17: ``art: art/../red.png`` stays inside art/ and is accepted, but the low-resolution
    warning and the manifest said ``art/art/../red.png``, a path no one finds: they name the file
    as it resolves, art/red.png (so does ``./sub/../red.png``)."""
    deck = ART_DECK_YAML + "  - {name: 赤, art: art/../red.png}\n  - {name: 朱, art: ./sub/../red.png}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=ART_FRONT)
    art = ws / "data" / "test" / "art"
    (art / "sub").mkdir(parents=True)
    (art / "art").mkdir()  # (art/art/ is there, so art/art/../red.png is art/red.png on every system)
    Image.new("RGB", (60, 60), (200, 40, 40)).save(art / "red.png")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().err
    low = [line for line in err.splitlines() if " dpi at " in line]
    assert len(low) == 2 and all(": art/red.png: " in line for line in low), low
    assert "../" not in err and "art/art" not in err, err
    assert {im["file"] for im in _images(ws)} == {"art/red.png"}
