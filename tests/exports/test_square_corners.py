"""A rounded piece given a corner radius of 0 has square corners, as a ``shape: rect`` one: cut
between cut marks (no die line, no shop/<deck>-die.pdf) and a square tile on the table (trial49's
gang-cut counters, ``layout: token-square`` with ``corner_radius: 0``)."""

from __future__ import annotations

import json

from conftest import make_workspace, run

# two-sided counters (a back of their own): tiles on the table, as trial49's were
TOKENS = ("name: {name}\nlayout:\n  extends: token-square\n{radius}  back:\n    boxes:\n"
          "      value: {{field: value, x: 5, y: 5, w: 15, h: 15}}\npieces:\n  - {{title: 歩兵, value: 4}}\n")


def test_a_rounded_piece_with_a_radius_of_0_is_cut_and_exported_as_a_square_one(tmp_path):
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])
    decks = root / "data" / "test" / "decks"
    (decks / "square.yaml").write_text(TOKENS.format(name="角", radius="  corner_radius: 0\n"), encoding="utf-8")
    (decks / "round.yaml").write_text(TOKENS.format(name="丸", radius=""), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook", "-q") == 0
    shop = root / "build" / "test" / "shop"
    assert (shop / "round-die.pdf").is_file()  # the layout's 2 mm corners: cut along a die line
    assert not (shop / "square-die.pdf").exists()
    manifest = json.loads((root / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    shapes = {d["id"]: d.get("shape") for d in manifest["decks"]}
    assert shapes["square"] == "rect" and shapes["round"] == "rounded"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    out = root / "build" / "test" / "tabletopsimulator"
    types = {deck: json.loads((out / f"{deck}.json").read_text(encoding="utf-8"))["ObjectStates"][0]
             ["CustomImage"]["CustomTile"]["Type"] for deck in ("square", "round")}
    assert types == {"square": 0, "round": 3}  # Tabletop Simulator's box tile, as shape: rect; rounded
