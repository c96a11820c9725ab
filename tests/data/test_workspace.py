"""How messages name files (data/workspace.py Workspace.shown)."""

from __future__ import annotations

from pnpgen.data.workspace import Workspace
from pnpgen.resources import folder


def test_a_file_pnpgen_ships_is_named_as_pnpgens_not_by_the_folder_it_is_installed_in(tmp_path):
    layout = folder("pnpgen", "faces", "builtin", "layouts") / "tile-hex.yaml"
    said = Workspace(tmp_path).shown(f"{layout}:7:14: orientation: … and {tmp_path / 'data' / 'g' / 'game.yaml'}:2")
    assert said == "pnpgen's faces/builtin/layouts/tile-hex.yaml:7:14: orientation: … and data/g/game.yaml:2"
