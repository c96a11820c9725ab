"""Command line: thin wrappers over the pipeline stages. Bad input → one clear line, exit 2."""

from __future__ import annotations

import argparse
import functools
import gc
import os
import sys

from pnpgen.errors import InputError
from pnpgen.safetext import shown
from pnpgen.data.formats import PAPER_SIZES
from pnpgen.data import validate
from pnpgen.data.workspace import find_workspace
from pnpgen.impose.sleeve import sleeve_option


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """Made once per process: the tests run hundreds of commands in one, and parsing leaves the
    parser as it was."""
    p = argparse.ArgumentParser(prog="pnpgen", description="Print-and-play components and rulebooks from YAML.")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build print-ready PDFs for a game")
    which = b.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", type=validate.option(validate.game_option), help="game slug (see 'pnpgen list')")
    which.add_argument("--all", action="store_true", help="every game in data/")
    _build_options(b)

    w = sub.add_parser("watch", help="rebuild a game on every save of its data, templates, icons or fonts")
    w.add_argument("--game", type=validate.option(validate.game_option), required=True, help="game slug (see 'pnpgen list')")
    w.set_defaults(all=False)
    w.add_argument("--max-builds", type=validate.option(validate.max_builds_option), default=0, help=argparse.SUPPRESS)  # for tests and scripts
    _build_options(w)

    r = sub.add_parser("rulebook", help="build only the rulebook booklets")
    r.add_argument("--game", type=validate.option(validate.game_option), required=True)
    r.add_argument("--out", type=validate.option(validate.out_option))
    r.add_argument("--lang", help="typeset this language of the game (its draft.<lang>.txt) into build/<game>/<lang>/")
    _rulebook_options(r)

    _export_parser(sub)
    _scaffold_parsers(sub)

    k = sub.add_parser("calibrate", help="write a two-sided duplex calibration sheet for a printer profile (printers.yaml)")
    k.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
    k.add_argument("--duplex", choices=["long", "short"], default="long")
    k.add_argument("--lang", choices=["ja", "en"], default="ja", help="the language of the instructions")
    k.add_argument("--out", help="the PDF to write (default: build/calibration-<paper>-<duplex>.pdf in the workspace)")
    sub.add_parser("list", help="list the games and their decks")
    c = sub.add_parser("check", help="render every face as a build would, writing nothing; list problems and 未定 placeholders")
    c.add_argument("--game", type=validate.option(validate.game_option), help="only this game")
    c.add_argument("--lang", help="also list every text without a translation into this language")
    e = sub.add_parser("export-sheet", help="write a deck's pieces to a spreadsheet (CSV or XLSX)")
    e.add_argument("--game", type=validate.option(validate.game_option), required=True)
    e.add_argument("--deck", type=validate.option(validate.deck_option), required=True, help="deck id (see 'pnpgen list')")
    e.add_argument("--format", choices=["csv", "xlsx"],
                   help="default: the ending of --out, else csv; must agree with --out when both are given")
    e.add_argument("--out", type=validate.option(validate.sheet_out_option),
                   help="a .csv or .xlsx file to write (default: data/<game>/decks/<deck>.<format>)")
    return p


def _scaffold_parsers(sub) -> None:
    """``new`` and ``layout`` (engine/scaffold.py): they run with or without a workspace."""
    from pnpgen.engine.scaffold import KINDS, slug_option

    n = sub.add_parser("new", help="write a new game (decks drawn by built-in layouts) into this workspace, or make one here")
    n.add_argument("slug", type=validate.option(slug_option), help="the game's folder name under data/, e.g. my-game")
    n.add_argument("--title", help="the game's title (default: the slug)")
    n.add_argument("--kind", choices=KINDS, action="append",
                   help="a deck to start with (repeatable; default: cards)")
    la = sub.add_parser("layout", help="the built-in and workspace layouts: list them, or export one as templates")
    la.add_argument("action", choices=["list", "export"])
    la.add_argument("name", nargs="?", help="the layout to export (see 'pnpgen layout list')")
    la.add_argument("--out", help="the front template's file (default: <name>-front.svg.j2 here); the back "
                                  "is written beside it as <name>-back.svg.j2")


def _export_parser(sub) -> None:
    e = sub.add_parser("export", help="files for a print shop or Tabletop Simulator (see docs/exports.md)")
    e.add_argument("--game", type=validate.option(validate.game_option), required=True)
    e.add_argument("--preset", required=True, help="thegamecrafter, makeplayingcards, drivethrucards, printerstudio, "
                                                   "doujin, tabletopsimulator, or one of your presets/")
    e.add_argument("--deck", type=validate.option(validate.deck_option), action="append", default=[],
                   help="only this deck (repeatable)")
    e.add_argument("--fit", choices=["scale", "bleed"], help="adapt a deck to the preset's nearest format")
    e.add_argument("--colour", choices=["rgb", "cmyk"], help="default: the preset's")
    e.add_argument("--pdfx", choices=["x1a", "none"],
                   help="PDF/X-1a:2003 for the preset's printing condition, or a plain PDF (default: the preset's)")
    e.add_argument("--outline-text", action=argparse.BooleanOptionalAction, default=None,
                   help="PDF presets: draw every glyph as a path from the embedded font, for printers that ask "
                        "(default: the preset's)")
    e.add_argument("--proof", action="store_true", help="overlay trim, bleed and safe zone on every piece")
    e.add_argument("--base-url", type=validate.option(validate.base_url_option),
                   help="where Tabletop Simulator finds the images: an http(s):// or file:/// URL (default: file:/// paths)")
    e.add_argument("--deck-id-base", type=validate.option(validate.deck_id_base_option),
                   help="Tabletop Simulator: the first CustomDeck id pnpgen may use (default 1000), "
                        "to keep clear of the ids of an existing mod")
    e.add_argument("--out", type=validate.option(validate.out_option), help="output folder (default: build/ in the workspace)")


def _build_options(p: argparse.ArgumentParser) -> None:
    """The options of ``build`` (and ``watch``, which builds on every save)."""
    p.add_argument("--out", type=validate.option(validate.out_option), help="output folder (default: build/ in the workspace)")
    p.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")
    p.add_argument("--duplex", choices=["long", "short", "none"], default="long")
    p.add_argument("--marks", choices=["jp", "western", "none"], default="jp")
    p.add_argument("--margin", type=validate.option(validate.margin_option), default=5.0, help="unprintable margin of the printer (default 5mm)")
    p.add_argument("--bleed", type=validate.option(validate.bleed_option), default=3.0, help="bleed around each piece (default 3mm)")
    p.add_argument("--no-rulebook", action="store_true", help="skip the rulebook booklets")
    p.add_argument("--layout", choices=["grid", "fold", "sleeve"], default="grid",
                   help="fold: each two-sided piece's front and back side by side, fold and glue (no duplex); "
                        "sleeve: card fronts only, sized for a sleeve with a backer card")
    p.add_argument("--sleeve", type=validate.option(sleeve_option), help="the sleeve's inside, e.g. 66x91 (--layout sleeve)")
    p.add_argument("--printer", help="a profile of printers.yaml (see 'pnpgen calibrate'): backs moved, scale corrected; its paper and duplex")
    p.add_argument("--lang", help="build this language of the game (game.yaml languages) into build/<game>/<lang>/")
    p.add_argument("--min-dpi", type=validate.option(validate.min_dpi_option), default=300.0,
                   help="warn about art printed below this resolution (default 300)")
    _engine_options(p)
    _rulebook_options(p)


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of worker processes from 1 to 64")
    return n


def _engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=_jobs, default=min(os.cpu_count() or 1, 8),
                   help="worker processes (default: the number of cores)")
    talk = p.add_mutually_exclusive_group()
    talk.add_argument("--quiet", action="store_true", help="print only warnings and errors")
    talk.add_argument("--verbose", action="store_true", help="say what is drawn, document by document")


def _rulebook_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules-only", action="store_true", help="leave the designer notes appendix out")
    p.add_argument("--creep", type=validate.option(validate.creep_option), default=0.0, help="creep compensation per sheet (e.g. 0.1mm)")
    p.add_argument("--binding", choices=["left", "right"], default="left")


# A build is one short process that makes millions of objects and frees nearly all of them as it
# goes. At the collector's default thresholds a cold build of the four games walked its whole heap
# nine times (0.66 s of its 6 s of CPU); fewer, larger young collections cost a third of that, at
# the same peak memory.
COLLECTOR_THRESHOLDS = (50_000, 20, 10)


def console() -> None:
    """The ``pnpgen`` command (and ``python -m pnpgen``): one command per process."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    sys.exit(main())


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        from pnpgen import commands

        if args.command == "calibrate":  # no workspace needed
            return commands.calibrate(args)
        if args.command in ("new", "layout"):  # they need no workspace: new makes one
            from pnpgen.engine import scaffold

            return getattr(scaffold, args.command)(args)
        return getattr(commands, args.command.replace("-", "_"))(find_workspace(), args)
    except InputError as e:
        print(f"pnpgen: error: {shown(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head or less that closed early
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    console()
