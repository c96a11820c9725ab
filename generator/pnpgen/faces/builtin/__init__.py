"""The template vocabulary shipped inside pnpgen: ``common/piece.svg.j2`` (the SVG root every
piece template extends), ``common/macros.svg.j2`` (shared macros) and ``common/icons/``.

A workspace never copies these; its own ``templates/common/<file>`` of the same name is found
first and replaces the built-in one.
"""

from __future__ import annotations

from pathlib import Path

from pnpgen.resources import folder

FOLDER = folder("pnpgen.faces.builtin")  # holds common/


def icon_dirs(templates: Path, slug: str) -> list[Path]:
    """Where an icon name is looked up, in order: the game's icons, the workspace's common
    icons, then the built-in ones."""
    return [templates / slug / "icons", templates / "common" / "icons", FOLDER / "common" / "icons"]
