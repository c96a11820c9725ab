"""Which files are a game's: its game.yaml (an unknown game told with the nearest names) and
the deck files of its decks/ folder (copies kept aside and editors' files passed over)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pnpgen.data import validate as v
from pnpgen.data.art import ArtFolder
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.errors import InputError, contained, suggest
from pnpgen.litter import is_litter
from pnpgen.safetext import INVISIBLE, name_control_char, name_invisible_char, shown_invisible, shown_name


def game_file(ws: Workspace, slug: str) -> Path:
    """The game's game.yaml; an InputError naming the games there are (the nearest first) when
    ``slug`` is none of them."""
    game_yaml = ws.game_dir(slug) / "game.yaml"
    if not game_yaml.is_file():
        if game_yaml.exists():
            raise InputError("game.yaml is not a file", path=game_yaml, expected="a YAML file describing the game")
        known = [s for s in ws.slugs() if s != slug]
        raise InputError(f"unknown game {v.show(slug)}{suggest(slug, known)}",
                         expected="one of " + ", ".join(known) if known else "a data/<slug>/game.yaml")
    return game_yaml


# Copies kept aside in decks/ (by hand, by patch or a merge): not decks, passed over with a note.
# Editors' and the system's own files (pnpgen/litter.py) are passed over without one.
ASIDE = re.compile(r".*\.(bak|orig|rej)", re.IGNORECASE)
DECK_ENDINGS = (".yaml", ".yml")
# A copy a file manager made beside its deck (Windows: 'cards - コピー.yaml', 'cards - Copy (2).yaml', and in
# its other languages 'cards - Copie.yaml', 'cards - Kopie.yaml', 'cards - 副本.yaml'…; macOS: 'cards のコピー.yaml',
# 'cards copy 2.yaml', 'cards Kopie.yaml'; a browser's download again: 'cards (1).yaml'; Google Drive's 'Copy of
# cards.yaml'; a copy's copy, 'cards - コピー - コピー.yaml'): its pieces printed twice under another deck's name,
# unless passed over while its original is there. macOS's newer 'cards 2.yaml' could as well be a deck of its
# own ('season 2.yaml' beside 'season.yaml'): it is a copy only while it holds its original's bytes.
_COPY_WORD = r"(?:コピー|Copy|Copie|Kopie|Copia|Cópia|Kopia|Kopio|Kopi|Копия|副本|复制|複製|복사본)"
_COPY = re.compile(r"(?:コピー ?[～~] ?|Copy of )(?P<before>.+)|(?P<after>.+?)(?: - " + _COPY_WORD + r"(?: \(\d+\))?"
                   r"| ?のコピー(?: \d+)?| " + _COPY_WORD + r"(?: \d+)?| ?\(\d+\))", re.IGNORECASE)
_NUMBERED = re.compile(r"(?P<after>.+?) \d{1,3}")
_COPY_MOST = 1_000_000  # bytes of a numbered copy compared with its original (a deck's YAML is far smaller)


def copy_of(folder: Path, name: str, names: set[str]) -> str | None:
    """The deck file of ``folder`` (its files' ``names``) that ``name`` is a file manager's copy
    of, else None."""
    path = Path(name)
    stem = path.stem
    for _ in range(8):  # (a copy's copy's copy: each file manager's mark taken off in turn)
        made = _COPY.fullmatch(stem)
        if made is None:
            break
        stem = made.group("before") or made.group("after")
        if stem + path.suffix in names:
            return stem + path.suffix
    numbered = _NUMBERED.fullmatch(path.stem)
    original = numbered.group("after") + path.suffix if numbered else None
    return original if original in names and _same_bytes(folder / name, folder / original) else None


def _same_bytes(copy: Path, original: Path) -> bool:
    """Do two plain files of decks/ hold the same bytes? A link or an outsize file is not compared
    (pnpgen reads nothing outside the workspace; the link is the load's to refuse)."""
    try:
        if copy.is_symlink() or original.is_symlink() or not (copy.is_file() and original.is_file()):
            return False
        size = copy.stat().st_size
        return size == original.stat().st_size and size <= _COPY_MOST and copy.read_bytes() == original.read_bytes()
    except OSError:
        return False


def differs(folder: Path, copy: str, original: str) -> bool:
    """Does the copy ``copy`` of ``original`` hold other bytes than it (an edited copy, or the
    original edited since)?"""
    return not _same_bytes(folder / copy, folder / original)


def is_deck_name(name: str) -> bool:
    """Is a file of decks/ named as a deck (``.yaml`` or ``.yml``, not hidden), editors' files and
    copies kept aside apart (``deck_files`` passes those over first)?"""
    return Path(name).suffix.lower() in DECK_ENDINGS and not name.startswith(".")


def deck_ids_in(folder: Path) -> list[str]:
    """The deck ids a game's decks/ folder holds, as ``deck_files`` reads them, without reading
    any: for what must know every deck of the workspace (Tabletop Simulator's CustomDeck ids)."""
    if not folder.is_dir():
        return []
    names = {p.name for p in folder.iterdir()}
    return sorted({Path(n).stem for n in names if not is_litter(n) and not ASIDE.fullmatch(n) and is_deck_name(n)
                   and copy_of(folder, n, names) is None})


def deck_files(game: Game) -> list[Path]:
    """The game's deck files, ``decks/*.yaml`` and ``decks/*.yml``; a decks/ that is not a folder
    is an error (reading it as "no decks" would remove every deck's outputs)."""
    folder = game.root / "decks"
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise InputError("decks is not a folder", path=folder, expected="a folder decks/ holding one YAML file per deck")
    found: dict[str, Path] = {}
    paths = sorted(folder.iterdir())
    names = {p.name for p in paths}
    for path in paths:
        if is_litter(path.name):
            continue
        if ASIDE.fullmatch(path.name):
            game.notes.append(f"data/{game.slug}/decks/{path.name}: passed over (a copy kept aside, not a deck)")
            continue
        original = copy_of(folder, path.name, names) if is_deck_name(path.name) else None
        if original is not None:
            said = ("it differs from that file: what it adds or changes is not built" if differs(folder, path.name, original)
                    else "its pieces would print twice")
            game.notes.append(f"data/{game.slug}/decks/{path.name}: passed over (a copy of {original}, as a file "
                              f"manager names one, not a deck: {said}; give it a name of its own to build it as a deck)")
            continue
        if not is_deck_name(path.name):
            if path.name != path.name.rstrip() and is_deck_name(path.name.rstrip()):  # (passed over: "no deck files")
                raise InputError(f"a deck file's name ends in a space after its ending: {path.name!r}", path=folder,
                                 expected=f"the file renamed {path.name.rstrip()}")
            shown = path.name.lstrip(".")
            if path.name.startswith(".") and (Path(path.name).suffix.lower() in DECK_ENDINGS
                                              or f".{shown.lower()}" in DECK_ENDINGS):
                # ``..yaml`` has no name before its ending: "name it yaml" built nothing
                fix = (f"name it {shown}" if Path(shown).suffix.lower() in DECK_ENDINGS and Path(shown).stem
                       else f"give it a name before .{shown} (the deck's id, say cards.{shown})")
                game.notes.append(f"data/{game.slug}/decks/{path.name}: passed over (a hidden file, not a deck: "
                                  f"{fix} to build it)")
            continue
        bad = name_control_char(path.name)
        if bad:  # the deck id names its files, its objects in exports, and every message about it
            raise InputError(f"a deck file's name holds {bad}", path=folder,
                             expected=f"a deck file name of letters, digits, - and _: rename {shown_name(path.name)}")
        hidden = name_invisible_char(path.name)  # (a deck that looks like another: two decks, one name to see)
        if hidden:
            raise InputError(f"a deck file's name holds {hidden}", path=folder,
                             expected=f"a deck file name without invisible characters: rename {shown_invisible(path.name)} "
                                      f"to {INVISIBLE.sub('', path.name) or 'a name of letters'}")
        if path.stem in found:
            raise InputError(f"deck {path.stem!r} is also {found[path.stem].name}", path=path,
                             expected="one file per deck: remove or rename one of them")
        found[path.stem] = path
    return [found[k] for k in sorted(found)]


def sheet_asked(value: object) -> bool:
    """Is game.yaml's ``rulebook: sheet:`` ``value`` a rule sheet asked for (anything but absent or false)?"""
    return value not in (None, False)


def asks_for_rule_sheet(game: Game) -> bool:
    """Does game.yaml ask for the rule sheet (``rulebook: sheet:``)? The bill of materials lists it
    before the rulebook's process sets it (a bad setting stops that build); rulebook/figures.py
    reads the sheet's settings."""
    return rule_sheet_paper(game) is not None


def rulebook_raw(game: Game) -> Any:
    """game.yaml's ``rulebook:`` value as written (None without one, or when game.yaml does not
    read): what rulebook/figures.py checks at its lines, read here by what needs it before or
    beside the book (the rule sheet's paper, the figures' pictures, a version's record)."""
    try:
        data = load_yaml(game.root / "game.yaml").data
    except InputError:
        return None
    return data.get("rulebook") if isinstance(data, dict) else None


def rule_sheet_paper(game: Game) -> tuple[str | None, bool, bool] | None:
    """The paper game.yaml's rule sheet is asked on (``rulebook: sheet:``), as the bill of materials
    prints it before the rulebook's process sets the sheet: its ``paper:`` (None: the booklet's),
    whether it lies landscape (the default) and whether it is folded in half (``fold: true``); None
    when no sheet is asked. A setting that is no paper
    or orientation is read as the default here: rulebook/figures.py refuses it at its line, and that
    build writes no bill of materials."""
    book = rulebook_raw(game)
    if not isinstance(book, dict) or not sheet_asked(book.get("sheet")):
        return None
    sheet = book["sheet"] if isinstance(book["sheet"], dict) else {}
    try:
        paper: str | None = v.paper(sheet["paper"]) if "paper" in sheet else None
    except v.Invalid:
        paper = None
    orientation = sheet.get("orientation")
    try:
        folded = v.flag(sheet["fold"]) if "fold" in sheet else False
    except v.Invalid:
        folded = False
    return paper, not (isinstance(orientation, str) and orientation.strip().lower() == "portrait"), folded


def figure_pictures(game: Game) -> list[Path]:
    """The files of the game's art/ that game.yaml's rulebook figures show as pictures of their
    own (``picture: setup.jpg``, or one per language), those that are files inside art/, and the
    files an SVG one shows in turn: what
    the rulebook reads of art/ besides the faces it pictures (engine/bookkey.py and
    engine/typeset.py key the book by them). A name that is no such file is left to the
    rulebook, which says why at its line."""
    book = rulebook_raw(game)
    figures = book.get("figures") if isinstance(book, dict) else None
    names = [n for fig in figures if isinstance(fig, dict)
             for n in ((fig.get("picture") or {}).values() if isinstance(fig.get("picture"), dict)
                       else [fig.get("picture")]) if isinstance(n, str)] if isinstance(figures, list) else []
    out: list[Path] = []
    folder = ArtFolder(game.root)
    for name in names:
        try:
            path = contained(name, game.root / "art", "picture")
        except InputError:
            continue
        if not path.is_file():
            continue
        # an SVG picture's own pictures too, found as the rulebook converts it (rulebook/ownpics.py):
        # else repainting one kept the book with the old (one not found, or nested too deep, the
        # conversion refuses at the figure's line)
        shown = folder.shown_files(f'<image href="{html.escape(quote(name), quote=True)}"/>') \
            if path.suffix.lower() == ".svg" else None
        out += [p for p in shown or [path] if p not in out]
    return out
