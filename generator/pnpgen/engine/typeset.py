"""The rulebook typeset for a build, in the rulebook's own process (``engine/run.py`` starts it
and loads this module there by name, so the build's process never imports the rulebook)."""

from __future__ import annotations

from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.engine.options import RulebookOptions
from pnpgen.memo import Memo
from pnpgen.rulebook import build_rulebook, prepare


def prepare_rulebook(ws: Workspace, game: Game) -> None:
    """Before the faces arrive: the rulebook's libraries and its fonts."""
    prepare(game, ws.fonts)


def typeset(ws: Workspace, game: Game, pictures: dict, opts: RulebookOptions, readings: dict) -> tuple:
    """Typeset the draft as rulebook.pdf (A5) and rulebook-booklet.pdf (A4 saddle stitch): its
    files, warnings and report, with the index readings it had to look up and every term whose
    reading it used. Plain values, so the build's process takes them back without importing the
    rulebook."""
    memo: Memo[str] = Memo(known={k: v for k, v in readings.items() if isinstance(v, str)})
    book = build_rulebook(game, ws.fonts, rules_only=opts.rules_only, creep_mm=opts.creep_mm,
                          binding=opts.binding, pictures=pictures, readings=memo)
    return book.files, book.warnings, book.report, memo.learned, memo.used
