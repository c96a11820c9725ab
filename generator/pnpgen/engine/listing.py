"""What ``pnpgen list`` shows of a game: its title, players and decks, one line each, kept in the
machine's cache under a key made from the files they are read from, so a second listing of an
unchanged workspace loads no game."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pnpgen
from pnpgen import usercache
from pnpgen.data.load import load_game
from pnpgen.data.model import is_placeholder
from pnpgen.data.workspace import Workspace
from pnpgen.faces.lookup import check_templates
from pnpgen.messages import msg
from pnpgen.resources import folder as package_folder


def game_lines(ws: Workspace, slug: str) -> list[str]:
    """The lines ``list`` prints for ``slug``: as listed before when the same files are there, else
    read from the game (a name none of the workspace's games has: its one-line error)."""
    if slug not in ws.slugs():
        listing(ws, slug)  # says what is wrong: the game named is none of the workspace's
    key = listing_key(ws, slug)
    lines = usercache.get("list", key)  # the same files listed before: the same lines
    if not (isinstance(lines, list) and all(isinstance(line, str) for line in lines)):
        lines = listing(ws, slug)
        usercache.put("list", key, lines)
    return lines


def listing(ws: Workspace, slug: str) -> list[str]:
    """The lines of one game, read from its data (its pictures are not opened)."""
    game = load_game(ws, slug, art=False)  # counts and sizes: the pictures are not opened
    check_templates(ws.templates, game)  # as a build would: a deck's template not there is an error
    players = "list.players_one" if game.players.strip() == "1" else "list.players"
    given = [slug, game.title, msg("rulebook.draft", game.lang, draft=game.draft) if str(game.draft).strip() else "",
             game.players if is_placeholder(game.players) or not game.players.strip()
             else msg(players, game.lang, players=game.players)]
    lines = ["  ".join(part for part in given if part)]
    for deck in game.decks:
        lines.append(f"    {deck.id:<16} {deck.name}  ×{deck.count}  ({deck.kind}, {deck.shape} "
                     f"{deck.trim_mm[0]:g}×{deck.trim_mm[1]:g} mm)")
    return lines


def listing_key(ws: Workspace, slug: str) -> str:
    """What ``list`` shows of a game is made from: every file of data/<game>/ but its art (by
    content), the names of the templates, fonts and layouts there are, and pnpgen's own source
    (by size and time): the same key, the same lines. No picture is read."""
    h = hashlib.sha256(f"{pnpgen.__version__}\0{ws.root}\0{slug}".encode())
    code = package_folder("pnpgen")
    data = ws.data / slug
    for top, folders, files in sorted(os.walk(code)):
        folders.sort()
        for name in sorted(files):
            st = os.stat(os.path.join(top, name))
            h.update(os.fsencode(f"{top}/{name}:{st.st_size}:{st.st_mtime_ns}\0"))
    for top, folders, files in os.walk(data):
        folders[:] = sorted(f for f in folders if not (Path(top) == data and f == "art"))
        for name in sorted(files):
            path = Path(top) / name
            h.update(os.fsencode(f"{path.relative_to(data)}\0") + _listed_file(path) + b"\0")
    for folder in (ws.templates, ws.fonts, ws.root / "layouts"):
        for top, folders, files in os.walk(folder):
            folders[:] = [] if folder == ws.fonts else sorted(folders)  # (fonts/<name>.ttf: a link to ~ was walked whole)
            h.update(os.fsencode("\0".join([top, *sorted(files)])) + b"\1")
    return h.hexdigest()[:40]


LISTED_BYTES = 20_000_000  # a data file read for the listing's key (a spreadsheet's limit); a larger one by its stamp


def _listed_file(path: Path) -> bytes:
    """What the listing's key takes of one file of the game's folder: a plain file's bytes; of
    anything else (a link, which may lead out of the workspace or nowhere, as Emacs's lock
    ``.#cards.yaml`` does; a pipe, which would never end; a file too large to be data) its stamp,
    never reading it: the loader says what is wrong with it, if it is a deck."""
    try:
        st = path.lstat()
        if stat.S_ISREG(st.st_mode) and st.st_size <= LISTED_BYTES:
            return path.read_bytes()
        link = os.readlink(path) if stat.S_ISLNK(st.st_mode) else ""
        return os.fsencode(f"{st.st_mode}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}:{link}")
    except OSError as e:  # gone since it was listed, unreadable: its error, as the loader will find it
        return os.fsencode(f"{e.errno}")
