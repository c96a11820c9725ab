"""Find the designer's workspace: the nearest folder, from here upwards, holding data/ and templates/,
or data/ with a game in it (a game drawn by built-in layouts has no templates, and git or a zip
keeps no empty templates/ folder)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnpgen import resources
from pnpgen.errors import InputError, written_alike

PRINTERS_FILE = "printers.yaml"


def printer_profiles(root: Path) -> list[Path]:
    """Where printer profiles (data/printers.py) are looked for, first wins: the workspace, then
    the user's config folder. Here, with the workspace's other paths: a build that finds
    everything up to date fingerprints these files without loading the profiles' reader."""
    xdg = os.environ.get("XDG_CONFIG_HOME")  # relative: no folder (the XDG spec), not one of the workspace's
    try:
        config = Path(xdg if xdg and os.path.isabs(xdg) else Path.home() / ".config") / "pnpgen"
    except (RuntimeError, KeyError):  # no home folder (HOME unset, no user entry: a container): the workspace's alone
        return [root / PRINTERS_FILE]
    return [root / PRINTERS_FILE, config / PRINTERS_FILE]


# a workspace folder as watch and serve know it (Workspace.still_there): (device, inode, change
# time) of the folder, of its data/ and of its templates/ (None: not there)
Identity = tuple[tuple[int, int, int], tuple[int, int, int], "tuple[int, int, int] | None"]


@dataclass(frozen=True)
class Workspace:
    """The designer's folder (data/, templates/, fonts/, sheets/, layouts/): where pnpgen reads a game from, and
    nothing outside it."""

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

    @property
    def input_folders(self) -> tuple[Path, ...]:
        """The folders a designer keeps the game in, never an output folder's place."""
        return self.data, self.templates, self.fonts, self.root / "sheets", self.root / "layouts"

    def game_dir(self, slug: str) -> Path:
        return self.data / slug

    def game_named(self, slug: str) -> str:
        """``--game`` as its folder under data/ is written: as typed, or the folder's own name
        when the two differ only in how characters are composed (``ガード`` typed, the folder's
        name decomposed as macOS writes names); it said "unknown game 'ガード' (expected one of
        ガード)"."""
        if os.path.lexists(self.data / slug):
            return slug
        alike = written_alike(f"{slug}/game.yaml", [self.data])
        return alike.split("/")[0] if alike is not None else slug

    def shown(self, text: str) -> str:
        """``text`` (a message, a warning, a report) with every path inside the workspace said
        relative to it: ``data/populous/draft.txt:140``, not where this machine keeps it (and a
        file pnpgen ships as ``pnpgen's faces/builtin/layouts/tile-hex.yaml``). So a
        file sent to a co-designer names no folder of the sender's, and two copies of a workspace
        write the same bytes."""
        text = text.replace(str(resources.folder("pnpgen")) + os.sep, "pnpgen's ")  # a built-in layout, preset…
        root = str(self.root)
        if root == os.sep:
            return text
        # the workspace's own folder, named as a folder ("inside /home/me/games/, named …"): said so,
        # not dropped to nothing ("inside , named …")
        text = re.sub(re.escape(root + os.sep) + r"(?=$|[\s,;:)\]'\"])", "the workspace's own folder", text)
        return text.replace(root + os.sep, "")

    def still_there(self, seen: Identity | None, command: str = "watch") -> Identity:
        """The workspace folder's identity as last seen; InputError when it is no longer the folder
        ``seen`` was (deleted, renamed or moved, or its name given to a link or another folder while
        ``pnpgen watch`` or ``serve`` (``command``) ran: watch printed "unknown game" and ended in a
        traceback, serve showed "unknown game" for ever). A folder is known as pnpgen knows its own
        files (docs/output.md): by its device and inode and its change time — the workspace's and
        its data/'s (templates/'s too while it is there), which a file system gives back to a copy
        made just after they were deleted (ext4) — and the copy, whose folders all have a new change
        time, is told apart: the same workspace changes one of them at a time (a game added in
        data/, build/ made beside it), so all of them changed between two looks is a copy."""
        now = self._identity()
        if now is not None and seen is not None:
            pairs = [(a, b) for a, b in zip(now, seen) if a is not None and b is not None]
            copied = len(pairs) < 2 or any(a[:2] != b[:2] for a, b in pairs) or all(a[2] != b[2] for a, b in pairs)
            now = None if copied else now
        if now is None:
            doing = {"watch": "watching", "serve": "serving"}.get(command, command)
            raise InputError(f"the workspace {self.root} is gone while {doing}: deleted, renamed, moved, or its name "
                             "given to a link or another folder", expected=f"pnpgen {command} started again in the "
                             "workspace where it is now; the files built so far stay in its build/")
        return now

    def _identity(self) -> Identity | None:
        """(device, inode, change time) of the workspace's folder, its data/ and its templates/
        (None for a templates/ not there); None when the folder or its data/ is not there."""
        def stat(path: Path) -> tuple[int, int, int] | None:
            try:
                st = os.stat(path)
            except OSError:
                return None
            return (st.st_dev, st.st_ino, st.st_ctime_ns)
        root, data = stat(self.root), stat(self.data)
        return None if root is None or data is None else (root, data, stat(self.templates))

    def slugs(self) -> list[str]:
        """Every game: a folder under data/ with a game.yaml. Not a hidden one (``.cache``,
        ``.history``, ``.pnpgen-staging`` …): its outputs would go into pnpgen's own folders of
        the same names in build/ (``build --all`` wrote a game into the cache, and one into the
        staging folder, which the commit then removed), and ``--game`` refuses such a name."""
        return sorted(p.parent.name for p in self.data.glob("*/game.yaml") if not p.parent.name.startswith("."))


class NoWorkspace(InputError):
    """No workspace here or above (``pnpgen new`` then makes one here)."""


# the workspace's own: never a link leading out of it (fonts/ may be); build/ neither, the output
# folder a command reads (.cache, .history) and writes without being told where: --out names one elsewhere
OWN_FOLDERS = ("data", "templates", "build")


def find_workspace(start: Path | None = None) -> Workspace:
    """Walk up from ``start`` (default: the current directory) like git finds .git."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "data").is_dir() and ((folder / "templates").is_dir()
                                           or any((folder / "data").glob("*/game.yaml"))):
            refuse_folders_linked_out(folder)
            return Workspace(folder)
    raise NoWorkspace(
        "no pnpgen workspace here or above",
        path=here,
        expected="a folder holding data/<game>/game.yaml (and templates/ for templates of its own); "
                 "run pnpgen inside it, or 'pnpgen new SLUG' to start one",
    )


def refuse_folders_linked_out(root: Path) -> None:
    """``data/`` and ``templates/`` are the workspace's own folders: each file the data names is
    checked to stay inside them, so one of them that is itself a link out of the workspace (a game
    from a stranger whose ``templates`` leads to another project's, or ``data`` to a folder of
    the designer's) had every command read, and ``new`` and ``layout export`` write, there. So is
    ``build/``, the output folder: a link leading out (a downloaded workspace's ``build -> ~/Documents``)
    had every command read its records and write its output there; ``--out`` names a folder elsewhere.
    A link to a folder inside the workspace is taken; ``fonts/`` may lead anywhere (a shared
    collection of fonts, on purpose)."""
    real = root.resolve()
    for name in OWN_FOLDERS:
        folder = root / name
        if not folder.is_symlink():
            continue
        try:
            inside = folder.resolve(strict=True).is_relative_to(real)
        except (OSError, RuntimeError):  # a loop, or nowhere
            inside = False
        if not inside and name == "build":  # (a downloaded workspace's build -> ~/Documents, or a shared drive)
            raise InputError(f"a link to {os.readlink(folder)!r}, not a folder of the workspace: pnpgen reads and "
                             "writes no build/ outside it unless told so", path=folder,
                             expected=f"build/ a folder, or the output there named on the command line: --out "
                             f"{os.readlink(folder)} (and the link removed)")
        if not inside:
            raise InputError(f"a link to {os.readlink(folder)!r}, not a folder of the workspace: pnpgen reads "
                             f"no {name}/ outside it", path=folder, expected=f"{name}/ a folder (the one it leads "
                             "to copied in its place), or a link to a folder inside the workspace")


def workspace_relative(value: Any, root: Path) -> Any:
    """``value`` (text, or lists and mappings of it) with every file named by its absolute path
    inside the workspace ``root`` named from the workspace instead (``data/<game>/decks/x.yaml:10:5``):
    what pnpgen writes is the same bytes whatever folder the workspace is in."""
    ws = Workspace(root)
    # a text naming neither folder is said as it is, and not looked at again (3,000 cards' manifest:
    # some 48,000 names, hashes and labels, each through ``shown`` cost 0.05 CPU-s)
    own, ours = str(root) + os.sep, str(resources.folder("pnpgen")) + os.sep

    def said(value: Any) -> Any:
        if isinstance(value, str):  # the one place that says a path from the workspace
            return ws.shown(value) if own in value or ours in value else value
        if isinstance(value, list):
            return [said(v) for v in value]
        if isinstance(value, dict):
            return {k: said(v) for k, v in value.items()}
        return value

    return said(value)


def relative_proof(name: str, data: bytes, root: Path) -> bytes:
    """A rulebook output with the workspace's absolute paths made relative (proof.txt, the only
    text one); the PDFs as they are."""
    return workspace_relative(data.decode("utf-8"), root).encode("utf-8") if name.endswith(".txt") else data
