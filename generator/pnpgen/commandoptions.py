"""The options of each command, and the table of commands: what each command is called, what it
does and what it takes. A new command is a line in COMMANDS' table and a function that adds its
options here; commandline.py reads the command line with them, cli.py runs the command."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from pnpgen import playtest
from pnpgen.data import optionvalues
from pnpgen.data.formats import BLEED_MM, MAX_DPI, MIN_DPI, PAPER_SIZES


# The commands: name → (what it does, its options). The name is also the function that runs it:
# in pnpgen.commands, checkcommand or toolcommands (``export-sheet`` → ``export_sheet``), or in scaffold.py for the
# commands that need no workspace (NO_WORKSPACE). A new command is a line here and a function there.
def commands_table() -> dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]]:
    return {
        "build": ("build print-ready PDFs for a game", _build_command),
        "watch": ("rebuild a game on every save of its data, templates, icons or fonts", _watch_command),
        "rulebook": ("build only the rulebook booklets", _rulebook_command),
        "export": ("files for a print shop or Tabletop Simulator (see 'pnpgen docs exports')", _export_command),
        "export-sheet": ("write a deck's pieces to a spreadsheet (CSV or XLSX)", _sheet_command),
        "list": ("list the games and their decks", lambda c: _game(c, required=False, what="only this game (default: every game)")),
        "check": ("render every face as a build would, writing nothing (but with --svg); list problems and 未定 (TBD) placeholders",
                  _check_command),
        "new": ("write a new game (decks drawn by built-in layouts) into this workspace, or make one here",
                _new_command),
        "layout": ("the built-in and workspace layouts: list them, or export one as templates", _layout_command),
        "calibrate": ("write a two-sided duplex calibration sheet for a printer profile (printers.yaml)",
                      _calibrate_command),
        "preflight": ("read an export's files as a print shop does: total ink, hairlines, resolution, text, bleed, "
                      "page boxes (see 'pnpgen docs exports')", _preflight_command),
        "clean": ("remove what pnpgen wrote: the files its builds and exports recorded, and the cache",
                  _clean_command),
        "help": ("show the help of pnpgen or of one command", _help_command),
        "docs": ("where pnpgen's documentation is, or one page of it printed (pnpgen docs exports)", _docs_command),
        **playtest.command_table(_sheet_options, _jobs_option, margin_option),  # serve, log, diff, tag, reprint: the playtest loop (pnpgen/playtest.py)
    }


NO_WORKSPACE = ("new", "layout")  # commands of scaffold.py, run with or without a workspace


def _choice(text: str) -> str:
    """Choices are read case-insensitively: --paper A4, --duplex Long."""
    return text.lower()


def _game(p: argparse.ArgumentParser, required: bool = True, what: str = "game slug (see 'pnpgen list')") -> None:
    p.add_argument("--game", type=optionvalues.option(optionvalues.game_option), required=required, help=what)


def _build_command(b: argparse.ArgumentParser) -> None:
    which = b.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", type=optionvalues.option(optionvalues.game_option), help="game slug (see 'pnpgen list')")
    which.add_argument("--all", action="store_true", help="every game in data/")
    _build_options(b)


def _watch_command(w: argparse.ArgumentParser) -> None:
    _game(w)
    w.set_defaults(all=False)
    w.add_argument("--max-builds", type=optionvalues.option(optionvalues.max_builds_option), default=0, help=argparse.SUPPRESS)  # for tests and scripts
    _build_options(w)


def _rulebook_command(r: argparse.ArgumentParser) -> None:
    _game(r)
    r.add_argument("--out", type=optionvalues.option(optionvalues.out_option), help="output folder (default: build/ in the workspace)")
    r.add_argument("--lang", type=optionvalues.option(optionvalues.language_option), help="typeset this language of the game (its draft.<lang>.txt) into build/<game>/<lang>/")
    _rulebook_options(r)
    margin_option(r)  # the booklet's fold marks and note inside it, as build sets them
    r.add_argument("--rule-sheet", action="store_true",
                   help="also rule-sheet.pdf: the rules on one sheet of paper, as game.yaml's rulebook: sheet: asks "
                        "(default: the booklet's paper, landscape, two columns; docs/rulebook.md, The rule sheet)")


def _calibrate_command(k: argparse.ArgumentParser) -> None:
    """``calibrate``: runs with or without a workspace."""
    k.add_argument("--paper", type=_choice, choices=sorted(PAPER_SIZES),
                   help="paper of the sheet (default: the paper every game of the workspace says, else a4)")
    k.add_argument("--duplex", type=_choice, choices=["long", "short"], default="long",
                   help="the flip edge you will print with (default long)")
    k.add_argument("--lang", type=_choice, choices=["ja", "en"],
                   help="the language of the instructions (default: the workspace's games' language, else ja)")
    k.add_argument("--out", type=optionvalues.option(optionvalues.pdf_out_option),
                   help="the .pdf file to write (default: build/calibration-<paper>-<duplex>.pdf in the workspace)")


def _check_command(c: argparse.ArgumentParser) -> None:
    _game(c, required=False, what="only this game (default: every game)")
    c.add_argument("--lang", type=optionvalues.option(optionvalues.language_option), help="also list every text without a translation into this language")
    c.add_argument("--printer", help="a profile of printers.yaml: say which decks' home sheets cannot give the bleed its back offset needs")
    c.add_argument("--sleeve", type=optionvalues.option(_sleeve),
                   help="a sleeve's inside, e.g. 66x91: say which card decks of no sleeve: of their own it does not suit, "
                        "as build --layout sleeve --sleeve does (a deck's own sleeve: is checked always)")
    c.add_argument("--min-dpi", type=optionvalues.option(optionvalues.min_dpi_option), default=None,
                   help=f"list art printed below this resolution (default {MIN_DPI:g}; a print shop's export may want more)")
    c.add_argument("--svg", action="store_true",
                   help="also write each distinct face's SVG as its template made it into build/<game>/svg/<deck>/ "
                        "(docs/templates.md, Seeing what your template made)")
    c.add_argument("--deck", type=optionvalues.option(optionvalues.deck_option), help="with --svg: only this deck's faces")
    c.add_argument("--piece", type=optionvalues.option(optionvalues.piece_option),
                   help="with --svg and --deck: only this piece's faces (its place in the deck, 1 the first)")
    c.add_argument("--out", type=optionvalues.option(optionvalues.out_option),
                   help="the output folder a build wrote, whose cache spares what has not changed; with --svg, "
                        "where the SVGs go (default: build/ in the workspace)")


def _sheet_command(e: argparse.ArgumentParser) -> None:
    _game(e)
    e.add_argument("--deck", type=optionvalues.option(optionvalues.deck_option), required=True, help="deck id (see 'pnpgen list')")
    e.add_argument("--format", type=_choice, choices=["csv", "xlsx"],
                   help="default: the ending of --out, else csv; must agree with --out when both are given")
    e.add_argument("--out", type=optionvalues.option(optionvalues.sheet_out_option),
                   help="a .csv or .xlsx file to write (default: data/<game>/decks/<deck>.<format>)")


def _clean_command(c: argparse.ArgumentParser) -> None:
    _game(c, required=False, what="only this game's files (and the cache entries only it used)")
    c.add_argument("--out", type=optionvalues.option(optionvalues.out_option),
                   help="the output folder the builds wrote to (default: build/ in the workspace)")
    c.add_argument("--history", action="store_true",
                   help="also remove the recorded versions and their tags (build/.history/), kept otherwise")


def _preflight_command(f: argparse.ArgumentParser) -> None:
    """``preflight``: export folders, or a game's exports in this workspace (pnpgen/preflight/)."""
    from pathlib import Path

    from pnpgen.preflight.shop import figure, length

    f.add_argument("folders", nargs="*", type=Path, metavar="FOLDER",
                   help="export folders to check, build/<game>/<preset> (instead of --game)")
    f.add_argument("--game", type=optionvalues.option(optionvalues.game_option), help="check this game's exports in build/")
    f.add_argument("--preset", help="only the export of this preset (default: every export of the game)")
    f.add_argument("--lang", type=optionvalues.option(optionvalues.language_option), help="the exports of this language of the game (build/<game>/<lang>/<preset>)")
    f.add_argument("--out", type=optionvalues.option(optionvalues.out_option), help="the output folder the exports wrote to (default: build/ in the workspace)")
    f.add_argument("--ink-limit", type=figure, help="total ink in %% (default: the preset's ink_limit)")
    f.add_argument("--min-line", type=length, help="thinnest line, e.g. 0.1mm or 0.25pt (default: the preset's min_line, else 0.25pt)")
    f.add_argument("--min-ppi", type=figure, help="lowest effective resolution (default: the preset's dpi)")
    f.add_argument("--min-text", type=length, help="smallest text, e.g. 6pt (default 6pt)")
    f.add_argument("--min-ruby", type=length, help="smallest ruby reading, e.g. 4pt (default: the preset's min_ruby, "
                   "else 4pt, as the build's lint)")
    f.add_argument("--pages-png", type=Path, help="write each page with a finding here as a PNG (60 dpi; needs poppler's pdftoppm)")
    f.add_argument("--json", type=optionvalues.option(optionvalues.json_out_option),
                   help="write the findings and each file's figures to this .json file")


def _help_command(h: argparse.ArgumentParser) -> None:
    h.add_argument("topic", nargs="?", metavar="COMMAND", help="the command to explain (default: all of them)")


def _docs_command(d: argparse.ArgumentParser) -> None:
    d.add_argument("topic", nargs="?", metavar="TOPIC",
                   help="the page to print: readme, architecture, data-format, exports, home-printing, output, "
                        "playtest, print-facts, rebuilding, rulebook, speed, speed-rounds, templates (default: list them and where they are)")


def _new_command(n: argparse.ArgumentParser) -> None:
    """``new`` (scaffold.py): runs with or without a workspace."""
    n.add_argument("slug", type=optionvalues.option(optionvalues.new_game_slug), help="the game's folder name under data/, e.g. my-game")
    n.add_argument("--title", help="the game's title (default: the slug)")
    n.add_argument("--kind", type=_choice, choices=optionvalues.NEW_GAME_KINDS, action="append",
                   help="a deck to start with (repeatable; default: cards)")
    n.add_argument("--lang", type=_choice, choices=["ja", "en"], default="ja",
                   help="the language of the game it writes: ja (default) or en (an English game, deck names and draft)")
    n.add_argument("--paper", type=_choice, choices=sorted(PAPER_SIZES), default=None,
                   help="the paper of the game's home sheets and booklet, written as game.yaml's paper: "
                        "(letter for US Letter; default: none written, a4)")


def _layout_command(la: argparse.ArgumentParser) -> None:
    """``layout`` (scaffold.py): runs with or without a workspace."""
    la.add_argument("action", type=_choice, choices=["list", "export"], help="list the layouts, or export one")
    la.add_argument("name", nargs="?", help="the layout to export (see 'pnpgen layout list')")
    la.add_argument("--game", type=optionvalues.option(optionvalues.game_option), help="with --deck: export that deck's layout as it builds")
    la.add_argument("--deck", type=optionvalues.option(optionvalues.deck_option), help="with --game: the deck (its overrides and size applied)")
    la.add_argument("--out", help="the front template's file, ending in .svg.j2 (default: <name>-front.svg.j2 here), or a folder "
                                  "to write it in (templates/<game>/); the back is written beside it as <name>-back.svg.j2")


def _export_command(e: argparse.ArgumentParser) -> None:
    _game(e)
    e.add_argument("--preset", required=True, help="thegamecrafter, makeplayingcards, drivethrucards, printerstudio, "
                                                   "doujin, doujin-pieces, doujin-book (the rulebook), tabletopsimulator, or one of "
                                                   "your presets/")
    e.add_argument("--deck", type=optionvalues.option(optionvalues.deck_option), action="append", default=[],
                   help="only this deck (repeatable)")
    e.add_argument("--fit", type=_choice, choices=["scale", "bleed"], help="adapt a deck to the preset's nearest format")
    e.add_argument("--colour", type=_choice, choices=["rgb", "cmyk"], help="default: the preset's")
    e.add_argument("--pdfx", type=_choice, choices=["x1a", "x1a-2001", "none"],
                   help="PDF/X-1a:2003 (x1a) or PDF/X-1a:2001 (PDF 1.3, for printers that ask for it) for the "
                        "preset's printing condition, or a plain PDF (default: the preset's)")
    e.add_argument("--outline-text", action=argparse.BooleanOptionalAction, default=None,
                   help="PDF presets: draw every glyph as a path from the embedded font, for printers that ask "
                        "(default: the preset's)")
    e.add_argument("--proof", action="store_true", help="overlay trim, bleed and safe zone on every piece")
    e.add_argument("--base-url", type=optionvalues.option(optionvalues.base_url_option),
                   help="where Tabletop Simulator finds the images: an http(s):// or file:/// URL (default: file:/// paths)")
    e.add_argument("--deck-id-base", type=optionvalues.option(optionvalues.deck_id_base_option),
                   help="Tabletop Simulator: the first CustomDeck id pnpgen may use (default 1000), "
                        "to keep clear of the ids of an existing mod")
    e.add_argument("--lang", type=optionvalues.option(optionvalues.language_option), help="export this language of the game (game.yaml languages) into "
                                  "build/<game>/<lang>/<preset>/")
    e.add_argument("--out", type=optionvalues.option(optionvalues.out_option), help="output folder (default: build/ in the workspace)")
    max_dpi_argument(e)


def max_dpi_argument(p: argparse.ArgumentParser) -> None:
    """``--max-dpi`` of build, watch and export: the resolution ceiling (data/pixels.py ``ceiling_size``)."""
    p.add_argument("--max-dpi", type=optionvalues.option(optionvalues.max_dpi_option), default=None,
                   help=f"resample raster art placed finer than 1.5 times this resolution to it (default {MAX_DPI:g}; "
                        "none keeps every picture as it is)")


def _build_options(p: argparse.ArgumentParser) -> None:
    """The options of ``build`` (and ``watch``, which builds on every save)."""
    p.add_argument("--out", type=optionvalues.option(optionvalues.out_option), help="output folder (default: build/ in the workspace)")
    _sheet_options(p)
    p.add_argument("--no-rulebook", action="store_true", help="skip the rulebook booklets")
    p.add_argument("--ink", type=_choice, choices=["saver", "saver-grey"],
                   help="also draw the home sheets with less toner into ink-saver/ (large fills tinted, text and "
                        "frames kept dark; saver-grey: art in light grey too)")
    p.add_argument("--lang", type=optionvalues.option(optionvalues.language_option), help="build this language of the game (game.yaml languages) into build/<game>/<lang>/")
    p.add_argument("--min-dpi", type=optionvalues.option(optionvalues.min_dpi_option), default=None,
                   help=f"warn about art printed below this resolution (default {MIN_DPI:g})")
    max_dpi_argument(p)
    _jobs_option(p)
    _rulebook_options(p)


def _jobs_option(p: argparse.ArgumentParser) -> None:
    """``--jobs``: build's, and ``reprint --since``'s, which builds the game as build does."""
    p.add_argument("--jobs", type=_jobs, default=min(os.cpu_count() or 1, 8),
                   help="worker processes (default: the number of cores, at most 8; 1: one core, nothing beside the build)")


def _sheet_options(p: argparse.ArgumentParser) -> None:
    """How the home sheets are laid out (sheetargs.home_sheet_options): ``build``'s, and ``reprint
    --since``'s, whose sheets go beside the ones printed from a build given the same."""
    p.add_argument("--paper", type=_choice, choices=sorted(PAPER_SIZES), default=None,
                   help="paper of every deck's home sheets, over a deck file's own paper: (default: a deck's paper:, "
                        "else the printer profile's, else game.yaml's paper:, else a4)")
    p.add_argument("--duplex", type=_choice, choices=["long", "short", "none"], default=None,
                   help="how the printer turns the sheet for the backs: long or short edge, or none for one-sided "
                        "sheets (default long, or the printer profile's)")
    p.add_argument("--marks", type=_choice, choices=["jp", "western", "none", "silhouette", "cricut"], default="jp",
                   help="cut marks: Japanese double トンボ, single western crop marks, or none (default jp); "
                        "silhouette: Silhouette Print & Cut registration marks and cut files (cut/*.svg, *.dxf); "
                        "cricut: Print Then Cut images and cut outlines (cut/*.png, *.svg)")
    p.add_argument("--silhouette-marks", type=optionvalues.option(_silhouette),
                   help="registration mark figures for --marks silhouette, e.g. inset=10mm,length=0.33in "
                        "(inset, square, length, thickness, keepout)")
    p.add_argument("--cricut-area", type=optionvalues.option(_cricut_area),
                   help="the Print Then Cut image's size for --marks cricut, e.g. 6.75x9.25in (the default; "
                        "what Design Space takes on your machine and paper)")
    margin_option(p)
    p.add_argument("--bleed", type=optionvalues.option(optionvalues.bleed_option), default=None,
                   help=f"bleed around each piece (default {BLEED_MM:g}mm; a deck file's own bleed: wins for its deck)")
    p.add_argument("--layout", type=_choice, choices=["grid", "fold", "sleeve"], default=None,
                   help="fold: each two-sided piece's front and back side by side, fold and glue (no duplex); "
                        "sleeve: card fronts only, sized for a sleeve with a backer card (default grid; reprint "
                        "--since: the layout of the build that recorded the version)")
    p.add_argument("--sleeve", type=optionvalues.option(_sleeve),
                   help="the sleeve's inside, e.g. 66x91 (--layout sleeve; default: the card's trim + 3 mm, 66x91 for "
                        "poker cards; each format's sleeves: pnpgen docs print-facts; a deck file's sleeve: wins for its deck)")
    p.add_argument("--sheet", help="a sheet layout (sheets/NAME.yaml or built-in, e.g. a-one-51002): pieces go into its "
                        "slots; a deck file's sheet: wins (sheet: grid keeps the grid)")
    p.add_argument("--printer", help="a profile of printers.yaml (see 'pnpgen calibrate'): backs moved, scale corrected; its paper and duplex")


def margin_option(p: argparse.ArgumentParser) -> None:
    """``--margin``, the printer's unprinted margin: the home sheets' (build, watch, reprint --since)
    and the booklet's fold marks and printing note (build, rulebook, serve) stand inside it."""
    p.add_argument("--margin", type=optionvalues.option(optionvalues.margin_option), default=5.0,
                   help="unprintable margin of the printer (default 5mm)")


def _silhouette(text: str):
    """``--silhouette-marks`` (impose/cutter.py, loaded only when the option is given)."""
    from pnpgen.impose.registration import silhouette_option

    return silhouette_option(text)


def _cricut_area(text: str):
    """``--cricut-area`` (impose/cutter.py, loaded only when the option is given)."""
    from pnpgen.impose.cutter import cricut_area_option

    return cricut_area_option(text)


def _sleeve(text: str):
    """``--sleeve`` (impose/sleeve.py, loaded only when the option is given)."""
    from pnpgen.impose.sleeve import sleeve_option

    return sleeve_option(text)


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of worker processes (expected a whole number from 1 to 64)")
    return n


def talk_options(p: argparse.ArgumentParser) -> None:
    """-q and -v, before the command (``pnpgen -q build``) or after it. SUPPRESS: a command's
    parser leaves what was said before the command as it was."""
    p.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                   help="print only warnings and errors (check: only problems and warnings)")
    p.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                   help="build, watch: say each step, document by document; rulebook: how the draft was read and set")


def _rulebook_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules-only", action="store_true", help="the book to hand out: no designer notes appendix, cover playtest line or draft count marks")
    p.add_argument("--creep", type=optionvalues.option(optionvalues.creep_option), default=0.0, help="creep compensation per sheet (e.g. 0.1mm)")
    p.add_argument("--binding", type=_choice, choices=["left", "right"], default="left",
                   help="which edge the booklet is bound on: left (horizontal text) or right (縦書き) (default left)")
