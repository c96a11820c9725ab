"""How messages name files (data/workspace.py Workspace.shown)."""

from __future__ import annotations

from pnpgen.data.workspace import Workspace
from pnpgen.resources import folder


def test_a_file_pnpgen_ships_is_named_as_pnpgens_not_by_the_folder_it_is_installed_in(tmp_path):
    layout = folder("pnpgen", "faces", "builtin", "layouts") / "tile-hex.yaml"
    said = Workspace(tmp_path).shown(f"{layout}:7:14: orientation: … and {tmp_path / 'data' / 'g' / 'game.yaml'}:2")
    assert said == "pnpgen's faces/builtin/layouts/tile-hex.yaml:7:14: orientation: … and data/g/game.yaml:2"


def test_a_value_is_said_from_the_workspace_as_shown_says_each_text_and_a_text_naming_neither_folder_as_it_is(tmp_path):
    from pathlib import Path

    from pnpgen.data.workspace import workspace_relative

    ours = folder("pnpgen", "faces", "builtin", "layouts") / "tile-hex.yaml"
    texts = [f"{tmp_path / 'data' / 'g' / 'decks' / 'a.yaml'}:10:5", f"{ours}:7", f"inside {tmp_path}{'/'} named",
             "かあの札1", "2d3da6556ebb", "art/card-00001.png", f"{tmp_path}", f"{tmp_path}/", ""]
    value = {"decks": [{"id": "a", "where": texts[0], "trim_mm": [63.0, 88.0], "n": 3, "ok": True, "none": None}],
             "warnings": texts, "nested": {"k": texts[1:4]}}
    for root in (tmp_path, Path("/")):
        ws = Workspace(root)

        def each(v, ws=ws):
            return ws.shown(v) if isinstance(v, str) else [each(x) for x in v] if isinstance(v, list) \
                else {k: each(x) for k, x in v.items()} if isinstance(v, dict) else v

        assert workspace_relative(value, root) == each(value)
    said = workspace_relative(value, tmp_path)
    assert said["decks"][0]["where"] == "data/g/decks/a.yaml:10:5"
    assert said["warnings"][1] == "pnpgen's faces/builtin/layouts/tile-hex.yaml:7"
    assert said["warnings"][2] == "inside the workspace's own folder named"
    assert said["warnings"][3:6] == ["かあの札1", "2d3da6556ebb", "art/card-00001.png"]
    assert said["decks"][0]["trim_mm"] == [63.0, 88.0] and said["decks"][0]["ok"] is True
