"""Find the designer's workspace: the nearest folder, from here upwards, holding data/ and templates/."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pnpgen.errors import InputError
from pnpgen.data.model import Where


@dataclass(frozen=True)
class Workspace:
    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def fonts(self) -> Path:
        return self.root / "fonts"

    def game_dir(self, slug: str) -> Path:
        return self.data / slug

    def shown(self, text: str) -> str:
        """``text`` (a message, a warning, a report) with every path inside the workspace said
        relative to it: ``data/populous/draft.txt:140``, not where this machine keeps it. So a
        file sent to a co-designer names no folder of the sender's, and two copies of a workspace
        write the same bytes."""
        root = str(self.root)
        return text.replace(root + os.sep, "") if root != os.sep else text

    def slugs(self) -> list[str]:
        """Every game: a folder under data/ with a game.yaml."""
        return sorted(p.parent.name for p in self.data.glob("*/game.yaml"))


def find_workspace(start: Path | None = None) -> Workspace:
    """Walk up from ``start`` (default: the current directory) like git finds .git."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "data").is_dir() and (folder / "templates").is_dir():
            return Workspace(folder)
    raise InputError(
        "no pnpgen workspace here or above",
        path=here,
        expected="a folder holding data/<game>/game.yaml and templates/; run pnpgen inside it",
    )


def contained(path: str | Path, folder: Path, key: str, where: Where | Path | str | None = None) -> Path:
    """``path`` as the data names it (relative to ``folder``), resolved through symlinks; an
    InputError naming ``key`` unless it stays inside ``folder``. The one gate for every file a
    workspace's data points at: templates, includes, icons, drafts, fonts, art, spreadsheets."""
    line: int | None = None
    column: int | None = None
    if isinstance(where, Where):
        line, column = where.line, where.column
        where = where.path
    try:
        target = (folder / path).resolve()
        inside = target.is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte, a name too long
        target, inside = None, False
    if not inside or target is None:
        raise InputError(f"{str(path)!r} is outside {folder.name}/", path=where, line=line, column=column,
                         key=key, expected=f"a file inside {folder}/, named relative to it, without '..' "
                         "or links leading out")
    return target
