"""Where a deck's template is: the one lookup of a template name, for the face stage and for
the commands that only read the data (``pnpgen list``). Light to import: no Jinja."""

from __future__ import annotations

from pathlib import Path

from pnpgen.data import validate
from pnpgen.data.model import Deck, Game
from pnpgen.errors import InputError, Where, contained, suggest, windows_path_name, written_alike
from pnpgen.faces import builtin


def find_template(templates: Path, slug: str, deck: Deck, side: str) -> str:
    """The name Jinja loads a deck's ``front:`` or ``back:`` template by: the game's own folder
    first, then the name as given under templates/ (either written with its characters composed
    otherwise, as macOS writes names), then the built-in common/ templates; never outside
    templates/. An InputError at the deck's line when none has it."""
    name = deck.front if side == "front" else deck.back
    assert name is not None
    if deck.layout is not None and (side == "front" or deck.layout.back is not None):  # compiled from the
        # deck's layout (faces/layouts.py), not a file; a deck list's own back: over its source's layout, a file
        return name
    where = deck.template_where.get(side, Where(deck.source))
    there = []  # a folder or a pipe of the name: no template, though "did you mean" would offer its name
    for candidate in (f"{slug}/{name}", name):
        path = contained(candidate, templates, side, where)
        if path.is_file():
            return candidate
        if path.exists():
            there.append((candidate, "a folder" if path.is_dir() else "a pipe, socket or device"))
    for candidate in (f"{slug}/{name}", name):  # its name's characters composed otherwise (NFD, as macOS writes names)
        alike = written_alike(candidate, [templates])
        if alike is not None and contained(alike, templates, side, where).is_file():
            return alike
    if (builtin.FOLDER / name).is_file() and name.startswith("common/"):  # shipped inside pnpgen
        return name
    if there:
        candidate, what = there[0]
        raise InputError(f"template {validate.show(name)} is {what}, not a file", path=where.path, line=where.line,
                         column=where.column, key=side, expected=f"a template file templates/{candidate}")
    left = windows_path_name(str(name))
    if left is not None:  # C:\Users\…\back.svg.j2: a template left on the designer's computer
        raise InputError(f"template '{name}' is a path on a Windows computer, not in the workspace", path=where.path,
                         line=where.line, column=where.column, key=side,
                         expected=f"the template copied into templates/{slug}/ and named there: {left}")
    folder = templates / slug
    near = suggest(str(name), sorted(p.name for p in folder.glob("*.j2"))) if folder.is_dir() else ""
    raise InputError(f"template {validate.show(name)} not found{near}", path=where.path, line=where.line,
                     column=where.column, key=side, expected=f"a file templates/{slug}/{name}")


def check_templates(templates: Path, game: Game) -> dict[tuple[str, str], str]:
    """Every deck's templates found (``find_template``), by (deck id, side); an InputError at the
    first deck whose template is not there."""
    return {(deck.id, side): find_template(templates, game.slug, deck, side)
            for deck in game.decks for side in (("front", "back") if deck.back else ("front",))}
