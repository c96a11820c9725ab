"""One namespace for a game's outputs: the files each deck makes (``<deck>.pdf``,
``shop/<deck>.pdf``, ``shop/<deck>-unique.pdf``, ``shop/<deck>-die.pdf``, an export's
``<deck>.json`` and PNGs) must not be the game-level files (``<game>-all.pdf``, ``rulebook.pdf``, ``rule-sheet.pdf``,
``manifest.json``, ``shop/order.csv``, ``proof.txt``, ``reprint.pdf``, ``reprint-since-*.pdf``, an export's ``export.json``, ``order.csv``
and ``<game>-contact.png``) or another deck's; an export's preset folder must not be a folder the
build makes (``shop/``, ``cut/``, a language's ``<lang>/``). A deck id or game folder that
Windows cannot hold as a file name (``aux``, ``con.old``, ``a:b``) is refused too. Checked when the game is loaded, before anything
is drawn or written; a collision is one line naming both."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pnpgen.data.formats import PAPER_SIZES
from pnpgen.data.i18n import LANGUAGE_CODE
from pnpgen.data.model import Deck, Game
from pnpgen.errors import InputError
from pnpgen.safetext import WINDOWS_FORBIDDEN, same_file, windows_trouble

NAME_MAX = 255  # bytes in a file name, on every common file system
# A game's folder name names its files and folders with more after it: <slug>-contact-12.png,
# the cache's <slug>.<lang>.pack.json (zh-Hant-TW): it said "cannot write …: File name too long".
SLUG_MAX = NAME_MAX - 55
REPRINT_SINCE = "reprint-since-"  # pnpgen reprint --since V: reprint-since-V.pdf and .txt beside the outputs
DECK_SUFFIXES = {"-unique": "shop/{id}-unique.pdf (its faces, each once)",
                 "-die": "shop/{id}-die.pdf (its die line; an export's {id}-die.pdf too)"}


def game_level(slug: str) -> dict[str, str]:
    """Names a deck id must not take, and the file that already has each."""
    return {
        f"{slug}-all": f"{slug}-all.pdf (every home sheet of the game)",
        "rulebook": "rulebook.pdf", "rulebook-booklet": "rulebook-booklet.pdf", "manifest": "manifest.json",
        "rule-sheet": "rule-sheet.pdf (the rules on one sheet)",
        "order": "shop/order.csv and an export's order.csv", "proof": "proof.txt", "export": "export.json (an export's record)",
        "reprint": "reprint.pdf (the copies to reprint after a build that changed pieces, with reprint.txt)",
        f"{slug}-contact": f"{slug}-contact.png (an export's contact sheet)",
        **{f"reprint-{paper}": f"reprint-{paper}.pdf (the reprint's pages on {paper.capitalize()})" for paper in PAPER_SIZES},
    }


def _shell_trouble(name: str) -> str | None:
    """Why a shell would misread a file named ``name``: a leading ``-`` is read as an option (a
    designer's ``rm *.pdf`` in the output folder took ``-rf.pdf`` for options)."""
    return "starts with '-', which a shell reads as an option (rm *.pdf would)" if name.startswith("-") else None


def edition_twin(slug: str, games: Iterable[str]) -> tuple[str, str, str] | None:
    """A game folder named as another game's edition: ``g.en`` beside ``g``, as Windows and macOS
    compare names. A --lang edition keeps its state under ``<game>.<lang>`` (the cache's
    ``<game>.<lang>.json``, the history's ``.history/<game>.<lang>/``), so ``build --game g.en``
    and ``build --game g --lang en`` would read and replace each other's. Refused whichever
    languages ``g`` lists now (one added later would join the two), when ``slug`` is either of the
    pair: (the folder to rename, the game, the language), or None."""
    names = {same_file(g): g for g in games}
    names[same_file(slug)] = slug
    for name in names.values():
        base, dot, code = name.rpartition(".")
        game = names.get(same_file(base))
        if dot and game is not None and slug in (name, game) and re.fullmatch(LANGUAGE_CODE.pattern, code, re.I):
            return name, game, code
    return None


def check_edition_twin(slug: str, games: Iterable[str]) -> None:
    """:func:`edition_twin` as one line naming the folder to rename."""
    twin = edition_twin(slug, tuple(games))
    if twin is not None:
        folder, game, code = twin
        raise InputError(f"game folder data/{folder}/ is named as the {code} edition of game {game!r}: a --lang {code} "
                         f"build of {game!r} keeps its cache and history under the name {folder!r} too",
                         path=f"data/{folder}", expected=f"another folder name for data/{folder}/, e.g. "
                         f"{folder.replace('.', '-')} (no '.' before a language code)")


def check_deck_ids(game: Game, games: Iterable[str] = ()) -> None:
    """The game's and its decks' names, as they name files: ``games``, every game's folder name
    under data/ (``Test`` beside ``test``: one output folder on Windows and macOS)."""
    trouble = windows_trouble(game.slug, folder=True) or _shell_trouble(game.slug)
    if trouble is not None:  # build/<slug>/ and <slug>-all.pdf
        raise InputError(f"the game's folder name {game.slug!r} {trouble}, and it names the game's output folder",
                         path=f"data/{game.slug}", expected="another folder name for the game, e.g. "
                         f"{_windows_safe(game.slug, '-game')}")
    twin = sorted(g for g in games if g != game.slug and same_file(g) == same_file(game.slug))
    if twin:
        raise InputError(f"games {twin[0]!r} and {game.slug!r} build into the same folder on Windows and macOS "
                         "(they differ only in letter case or in how a character is written)",
                         path=f"data/{game.slug}", expected=f"another folder name for one of data/{twin[0]}/ "
                         f"and data/{game.slug}/")
    check_edition_twin(game.slug, games)
    if len(game.slug.encode()) > SLUG_MAX:
        raise InputError(f"the game's folder name of {len(game.slug.encode())} bytes is too long for its files' names",
                         path=f"data/{game.slug[:40]}…", expected=f"a folder name of at most {SLUG_MAX} bytes "
                         "(UTF-8; a Japanese character takes 3)")
    for deck in game.decks:
        trouble = windows_trouble(deck.id) or _shell_trouble(deck.id)
        if trouble is not None:
            raise InputError(f"deck id {deck.id!r} {trouble}, and it names the deck's files ({deck.id}.pdf…)",
                             path=_shown(game, deck), line=_line(deck), expected=f"another file name for the deck, e.g. "
                             f"{_windows_safe(deck.id, '-cards')}{deck.source.suffix}")
    reserved = {same_file(k): v for k, v in game_level(game.slug).items()}
    ids: dict[str, Deck] = {}
    for deck in game.decks:
        other = ids.setdefault(same_file(deck.id), deck)
        if other is not deck:
            raise InputError(f"deck ids {other.id!r} and {deck.id!r} name the same files on Windows and macOS "
                             "(they differ only in letter case or in how a character is written)",
                             path=_shown(game, deck), line=_line(deck), expected=f"another file name for one of decks/{other.source.name} "
                             f"and decks/{deck.source.name}")
    for deck in game.decks:
        key = same_file(deck.id)
        longest = f"{deck.id}-unique.pdf".encode()
        if len(longest) > NAME_MAX:  # its shop file's name would be too long for the file system
            raise InputError(f"deck id of {len(deck.id.encode())} bytes is too long for its files' names",
                             path=_shown(game, deck)[:80] + "…", expected=f"a deck file name of at most "
                             f"{NAME_MAX - len(b'-unique.pdf')} bytes (UTF-8; a Japanese character takes 3)")
        if key in reserved:
            raise InputError(f"deck id {deck.id!r} is the name of the game's {reserved[key]}", path=_shown(game, deck), line=_line(deck),
                             expected="another file name for the deck")
        if key.startswith(REPRINT_SINCE):  # pnpgen reprint --since V writes reprint-since-V.pdf over it
            raise InputError(f"deck id {deck.id!r} is a name pnpgen reprint gives its files "
                             f"({REPRINT_SINCE}<version>.pdf and .txt)", path=_shown(game, deck), line=_line(deck),
                             expected="another file name for the deck")
        for suffix, made in DECK_SUFFIXES.items():
            if key.endswith(suffix) and key[:-len(suffix)] in ids:
                other = ids[key[:-len(suffix)]]
                raise InputError(f"deck id {deck.id!r} is the name of deck {other.id!r}'s "
                                 f"{made.format(id=other.id)}", path=_shown(game, deck), line=_line(deck),
                                 expected=f"another file name for one of decks/{deck.source.name} and "
                                 f"decks/{other.source.name}")


# The build's own folders in build/<game>/, which no export goes into: shop/, cut/ (--marks
# silhouette, cricut) and the ink saver's (--ink: "ink-" and svg/ink.py's MODES). An export into
# ink-saver/ wrote its <deck>.pdf over the ink-saver home sheets, and the next build wrote them back.
BUILD_FOLDERS = {"shop": "the build's print-shop folder shop/", "cut": "the build's cutting-machine folder cut/",
                 "ink-saver": "the build's ink saver folder ink-saver/ (--ink saver)",
                 "ink-saver-grey": "the build's ink saver folder ink-saver-grey/ (--ink saver-grey)"}


def check_preset_folder(game: Game, preset: str, presets: Iterable[str] = ()) -> None:
    """An export writes into ``<out>/<game>/<preset>/``: not the build's shop/ or a language's
    folder, nor another preset's (``presets``: the names there are) as Windows and macOS compare
    names (``Shop`` is ``shop/`` there), nor a name Windows cannot hold."""
    taken = dict(BUILD_FOLDERS)
    taken.update({same_file(lang): f"the build's {lang} edition folder {lang}/" for lang in game.languages})
    if same_file(preset) in taken:
        raise InputError(f"preset {preset!r} would export into {taken[same_file(preset)]}", key="--preset",
                         expected="rename the preset's file (presets/<name>.yaml) to another name")
    twin = sorted(p for p in presets if p != preset and same_file(p) == same_file(preset))
    if twin:
        raise InputError(f"presets {twin[0]!r} and {preset!r} export into the same folder on Windows and macOS "
                         "(they differ only in letter case or in how a character is written)", key="--preset",
                         expected="rename one of the presets' files (presets/<name>.yaml)")
    trouble = windows_trouble(preset, folder=True)
    if trouble is not None:  # the export's folder <out>/<game>/aux/
        raise InputError(f"preset {preset!r} {trouble}, and it names the export's folder", key="--preset",
                         expected="rename the preset's file (presets/<name>.yaml) to another name")


def _windows_safe(name: str, more: str) -> str:
    """``name`` with ``-`` for what Windows refuses, no dot or space at its end, and ``more`` after
    a device name (aux-cards)."""
    name = "".join("-" if c in WINDOWS_FORBIDDEN else c for c in name).rstrip(". ").lstrip("-") or more.strip("-")
    head, dot, rest = name.partition(".")
    return f"{head}{more}{dot}{rest}" if windows_trouble(name) else name


def _shown(game: Game, deck) -> str:
    return f"data/{game.slug}/decks/{deck.source.name}"


def _line(deck) -> int:
    """The line a deck file's own name (its id) is said at, as an editor opens the file: its
    ``name:`` line, else the first (a reserved deck id was said with no line, unlike the others)."""
    return deck.name_where.line if deck.name_where is not None and deck.name_where.line else 1
