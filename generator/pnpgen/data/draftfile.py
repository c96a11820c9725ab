"""Which draft a build's rulebook sets: ``draft.en.txt`` beside ``draft.txt`` for ``--lang en``.
Here, below the rulebook, so the build's own process (the history records the draft's sections)
finds it without importing the rulebook."""

from __future__ import annotations

from pathlib import Path

from pnpgen.data.model import Game
from pnpgen.errors import contained


def draft_path(game: Game) -> Path:
    p = Path(game.draft_file)
    return p if p.is_absolute() else Path(game.root) / p


def default_language(game: Game) -> str:
    return game.translations.default if game.translations is not None else game.lang


def draft_for(game: Game) -> tuple[Path, str | None]:
    """The draft to set for the build's language, and a note when it is another language's.

    A build in a language other than the default reads ``<stem>.<lang><suffix>`` beside
    ``draft_file`` (``draft.en.txt`` beside ``draft.txt``) when there is one; without it, the
    default language's draft is set (with English labels for ``--lang en``)."""
    path = draft_path(game)
    if game.lang == default_language(game):
        return path, None
    beside = path.with_name(f"{path.stem}.{game.lang}{path.suffix}")  # (named from the game's folder and said at
    root = Path(game.root)                                                # itself: a link out is told as one)
    own = contained(beside.relative_to(root.resolve()) if beside.is_relative_to(root.resolve()) else beside, root,
                    "draft_file", beside)
    if own.is_file():
        return own, None
    return path, (f"{own}: no {game.lang} draft, so the rulebook sets the {default_language(game)} draft "
                  f"{path.name} (add {own.name} beside it for the {game.lang} rulebook)")
