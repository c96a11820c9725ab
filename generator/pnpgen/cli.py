"""Command line: thin wrappers over the pipeline stages. Bad input → one clear line, exit 2."""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import io
import os
import re
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn

import pnpgen
from pnpgen import playtest
from pnpgen.children import forked_end_with_parent
from pnpgen.data import validate
from pnpgen.data.formats import BLEED_MM, MIN_DPI, PAPER_SIZES, paper_named_by_size
from pnpgen.data.workspace import find_workspace
from pnpgen.errors import InputError, suggest
from pnpgen.safetext import shown


class _Parser(argparse.ArgumentParser):
    """argparse, with its mistakes said in one line (no usage block; ``--help`` shows usage),
    each with what would be right and, for a near miss, "did you mean …?"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # each option string → its action, kept as the options are added (argparse's own table is
        # private): for "did you mean", "an option of another command" and joining values
        self.options: dict[str, argparse.Action] = {}
        self.by_dest: dict[str, argparse.Action] = {}  # every argument by its name (a positional's too)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        return self._remember(super().add_argument(*args, **kwargs))

    def add_subparsers(self, **kwargs: Any) -> Any:
        self.by_dest[kwargs.get("dest") or "command"] = argparse.Action([], kwargs.get("dest") or "command")
        return super().add_subparsers(**kwargs)

    def takes_words(self) -> bool:
        """Does the command take a word that is no option's value (``new SLUG``, ``layout list``)?"""
        return any(not action.option_strings for action in self.by_dest.values())

    def add_mutually_exclusive_group(self, **kwargs: Any) -> Any:
        group = super().add_mutually_exclusive_group(**kwargs)
        add = group.add_argument
        setattr(group, "add_argument", lambda *a, **k: self._remember(add(*a, **k)))  # noqa: B010
        return group

    def _remember(self, action: argparse.Action) -> argparse.Action:
        self.options.update(dict.fromkeys(action.option_strings, action))
        self.by_dest[action.dest] = action
        return action

    # the command being run, for a mistake argparse finds before the command's own parser does
    # (a stray word: ``pnpgen check populous``); a command's parser knows its own from its prog
    running: str | None = None
    game_given = False  # --game (or --all) is on the command line: a stray word is no game name

    def error(self, message: str) -> NoReturn:
        command = self.prog.split(" ", 1)[1] if " " in self.prog else self.running
        # ``pnpgen: error:`` as every other mistake starts (not ``pnpgen build: error:``): the
        # message names the command where it matters ('pnpgen help build')
        self.exit(2, f"pnpgen: error: {_explain(message, command, self.game_given)}\n")


# commands typed as what they show (docs/playtest.md's "Keep the history"): the command, what it shows
WORDS_FOR = {"history": ("log", "the history's versions"), "versions": ("log", "the history's versions"),
             "changelog": ("diff", "the changelog between two versions")}


def _explain(message: str, command: str | None = None, game_given: bool = False) -> str:
    """argparse's message, said the way pnpgen says every mistake: what is wrong, then what would
    be right, in brackets at the end. ``command``: the one being run, whose options are named
    (its help, the nearest of its own options; a stray word that looks like a game: --game)."""
    listed = f"'pnpgen help {command}'" if command else "'pnpgen help COMMAND'"
    m = re.fullmatch(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)", message, re.S)
    if m:
        name, word, listed = m.groups()
        choices = re.findall(r"'([^']*)'", listed) or [c.strip() for c in listed.split(",")]
        if name in ("command", "COMMAND"):
            meant, shows = WORDS_FOR.get(word.lower(), ("", ""))
            near = f"; did you mean {meant}? (it prints {shows})" if meant in choices else suggest(word, choices)
            return (f"unknown command {word!r}{near} "
                    f"(expected one of {', '.join(choices)}; 'pnpgen help' says what each does)")
        named = paper_named_by_size(word) if name == "--paper" else None  # 8.5x11: letter
        hint = f"; did you mean {named}? (the paper of that size)" if named else suggest(word, choices)
        return f"argument {name}: {word!r} is not a choice{hint} (expected one of {', '.join(choices)})"
    m = re.fullmatch(r"unrecognized arguments: (.*)", message, re.S)
    if m:
        first = m.group(1).split()[0] if m.group(1).split() else m.group(1)
        option = first.split("=", 1)[0]
        owners = [name for name, parser in _commands().items() if option in parser.options]
        own = _parser().options
        short = option[:2] if not option.startswith("--") else option  # -C/tmp is -C with its folder
        if short in own:  # pnpgen's own (-C DIR): before the command, as in git
            if not own[short].metavar:  # --version, --help: a command of their own
                return f"{short} is pnpgen's own option, not a command's (expected: pnpgen {short})"
            return (f"{short} goes before the command, not after it "
                    f"(expected: pnpgen {short} {own[short].metavar} COMMAND …, e.g. pnpgen -C my-games build --game epic)")
        if owners:  # a real option, of other commands: no "did you mean" the same name
            return (f"unknown argument {option!r}: an option of {', '.join(owners)}, not of "
                    f"{command or 'this command'} (expected the options {listed} lists)")
        mine = _commands().get(command or "")
        # the nearest of the command's own options (``new --gmae``: new has no --game to offer)
        options = sorted({o for parser in ((_parser(), mine) if mine else (_parser(), *_commands().values()))
                          for o in parser.options})
        hint = suggest(option, options) if first.startswith("-") else ""
        longs = [o for o in options if re.fullmatch(r"-[A-Za-z]", option) and o.startswith("--" + option[1])]
        if not hint and len(longs) == 1:  # -j for --jobs: the one long option of that letter
            hint = f"; did you mean {longs[0]}?"
        if not hint and mine is not None and "--game" in mine.options and not first.startswith("-") and not game_given:
            hint = f"; a game is named with --game (pnpgen {command} --game {first})"
        return f"unknown argument {first!r}{hint} (expected the options {listed} lists)"
    m = re.fullmatch(r"the following arguments are required: (.*)", message, re.S)
    either = re.fullmatch(r"one of the arguments (.*) is required", message, re.S)
    if either and command in _commands():  # build: --game or --all
        wanted = either.group(1).split()
        said = [_required_said(_commands()[command], name) for name in wanted]
        return f"missing {' or '.join(wanted)} (expected {'; or '.join(said)}; see {listed})"
    if m and command in _commands():
        wanted = m.group(1).split(", ")
        said = [_required_said(_commands()[command], name) for name in wanted]
        return f"missing {', '.join(wanted)} (expected {'; '.join(said)}; see {listed})"
    if not message.endswith(")"):
        return f"{message} (see {listed})"
    return message


def _required_said(parser: _Parser, name: str) -> str:
    """What a required argument of ``parser`` takes: its choices, else its help."""
    action = parser.options.get(name) or parser.by_dest.get(name)
    if action is None:
        return name
    if action.choices:
        return f"{name}: one of {', '.join(map(str, action.choices))}"
    return f"{name}: {action.help}" if action.help else name


# The commands: name → (what it does, its options). The name is also the function that runs it:
# in pnpgen.commands (``export-sheet`` → ``export_sheet``), or in scaffold.py for the
# commands that need no workspace (NO_WORKSPACE). A new command is a line here and a function there.
def _commands_table() -> dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]]:
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
        **playtest.command_table(_sheet_options, _jobs_option),  # serve, log, diff, tag, reprint: the playtest loop (pnpgen/playtest.py)
    }


NO_WORKSPACE = ("new", "layout")  # commands of scaffold.py, run with or without a workspace


@functools.cache
def _parsers(only: str | None = None) -> tuple[_Parser, dict[str, _Parser]]:
    """Made once per process: the tests run hundreds of commands in one, and parsing leaves the
    parsers as they were. ``only``: the command being run, the one whose options are added (the
    others' names and help alone: every command's options took 10 ms of each start); the whole
    set is made when a mistake is explained or help asked for."""
    p = _Parser(prog="pnpgen", description="Print-and-play components and rulebooks from YAML.",
                epilog="'pnpgen help COMMAND' (or 'pnpgen COMMAND --help') shows a command's options.")
    p.add_argument("-V", "--version", action="version", version=f"pnpgen {pnpgen.__version__}",
                   help="print pnpgen's version and stop")
    p.add_argument("-C", metavar="DIR", dest="directory",
                   help="run as if pnpgen was started in DIR (a workspace, or a folder inside one)")
    _talk_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    commands: dict[str, _Parser] = {}
    for name, (what, add_options) in _commands_table().items():
        c = sub.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        if only is None or name == only:
            add_options(c)
            _talk_options(c)
        commands[name] = c
    return p, commands


def _parser() -> _Parser:
    return _parsers()[0]


def _commands() -> dict[str, _Parser]:
    return _parsers()[1]


def _choice(text: str) -> str:
    """Choices are read case-insensitively: --paper A4, --duplex Long."""
    return text.lower()


def _game(p: argparse.ArgumentParser, required: bool = True, what: str = "game slug (see 'pnpgen list')") -> None:
    p.add_argument("--game", type=validate.option(validate.game_option), required=required, help=what)


def _build_command(b: argparse.ArgumentParser) -> None:
    which = b.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", type=validate.option(validate.game_option), help="game slug (see 'pnpgen list')")
    which.add_argument("--all", action="store_true", help="every game in data/")
    _build_options(b)


def _watch_command(w: argparse.ArgumentParser) -> None:
    _game(w)
    w.set_defaults(all=False)
    w.add_argument("--max-builds", type=validate.option(validate.max_builds_option), default=0, help=argparse.SUPPRESS)  # for tests and scripts
    _build_options(w)


def _rulebook_command(r: argparse.ArgumentParser) -> None:
    _game(r)
    r.add_argument("--out", type=validate.option(validate.out_option), help="output folder (default: build/ in the workspace)")
    r.add_argument("--lang", type=validate.option(validate.language_option), help="typeset this language of the game (its draft.<lang>.txt) into build/<game>/<lang>/")
    _rulebook_options(r)


def _calibrate_command(k: argparse.ArgumentParser) -> None:
    """``calibrate``: runs with or without a workspace."""
    k.add_argument("--paper", type=_choice, choices=sorted(PAPER_SIZES),
                   help="paper of the sheet (default: the paper every game of the workspace says, else a4)")
    k.add_argument("--duplex", type=_choice, choices=["long", "short"], default="long",
                   help="the flip edge you will print with (default long)")
    k.add_argument("--lang", type=_choice, choices=["ja", "en"],
                   help="the language of the instructions (default: the workspace's games' language, else ja)")
    k.add_argument("--out", type=validate.option(validate.pdf_out_option),
                   help="the .pdf file to write (default: build/calibration-<paper>-<duplex>.pdf in the workspace)")


def _check_command(c: argparse.ArgumentParser) -> None:
    _game(c, required=False, what="only this game (default: every game)")
    c.add_argument("--lang", type=validate.option(validate.language_option), help="also list every text without a translation into this language")
    c.add_argument("--printer", help="a profile of printers.yaml: say which decks' home sheets cannot give the bleed its back offset needs")
    c.add_argument("--min-dpi", type=validate.option(validate.min_dpi_option), default=None,
                   help=f"list art printed below this resolution (default {MIN_DPI:g}; a print shop's export may want more)")
    c.add_argument("--svg", action="store_true",
                   help="also write each distinct face's SVG as its template made it into build/<game>/svg/<deck>/ "
                        "(docs/templates.md, Seeing what your template made)")
    c.add_argument("--deck", type=validate.option(validate.deck_option), help="with --svg: only this deck's faces")
    c.add_argument("--piece", type=validate.option(validate.piece_option),
                   help="with --svg and --deck: only this piece's faces (its place in the deck, 1 the first)")
    c.add_argument("--out", type=validate.option(validate.out_option),
                   help="with --svg: the output folder (default: build/ in the workspace)")


def _sheet_command(e: argparse.ArgumentParser) -> None:
    _game(e)
    e.add_argument("--deck", type=validate.option(validate.deck_option), required=True, help="deck id (see 'pnpgen list')")
    e.add_argument("--format", type=_choice, choices=["csv", "xlsx"],
                   help="default: the ending of --out, else csv; must agree with --out when both are given")
    e.add_argument("--out", type=validate.option(validate.sheet_out_option),
                   help="a .csv or .xlsx file to write (default: data/<game>/decks/<deck>.<format>)")


def _clean_command(c: argparse.ArgumentParser) -> None:
    _game(c, required=False, what="only this game's files (and the cache entries only it used)")
    c.add_argument("--out", type=validate.option(validate.out_option),
                   help="the output folder the builds wrote to (default: build/ in the workspace)")
    c.add_argument("--history", action="store_true",
                   help="also remove the recorded versions and their tags (build/.history/), kept otherwise")


def _preflight_command(f: argparse.ArgumentParser) -> None:
    """``preflight``: export folders, or a game's exports in this workspace (pnpgen/preflight/)."""
    from pathlib import Path

    from pnpgen.preflight.shop import figure, length

    f.add_argument("folders", nargs="*", type=Path, metavar="FOLDER",
                   help="export folders to check, build/<game>/<preset> (instead of --game)")
    f.add_argument("--game", type=validate.option(validate.game_option), help="check this game's exports in build/")
    f.add_argument("--preset", help="only the export of this preset (default: every export of the game)")
    f.add_argument("--lang", type=validate.option(validate.language_option), help="the exports of this language of the game (build/<game>/<lang>/<preset>)")
    f.add_argument("--out", type=validate.option(validate.out_option), help="the output folder the exports wrote to (default: build/ in the workspace)")
    f.add_argument("--ink-limit", type=figure, help="total ink in %% (default: the preset's ink_limit)")
    f.add_argument("--min-line", type=length, help="thinnest line, e.g. 0.1mm or 0.25pt (default: the preset's min_line, else 0.25pt)")
    f.add_argument("--min-ppi", type=figure, help="lowest effective resolution (default: the preset's dpi)")
    f.add_argument("--min-text", type=length, help="smallest text, e.g. 6pt (default 6pt)")
    f.add_argument("--pages-png", type=Path, help="write each page with a finding here as a PNG (60 dpi; needs poppler's pdftoppm)")
    f.add_argument("--json", type=Path, help="write the findings and each file's figures to this file")


def _help_command(h: argparse.ArgumentParser) -> None:
    h.add_argument("topic", nargs="?", metavar="COMMAND", help="the command to explain (default: all of them)")


def _docs_command(d: argparse.ArgumentParser) -> None:
    d.add_argument("topic", nargs="?", metavar="TOPIC",
                   help="the page to print: readme, architecture, data-format, exports, home-printing, output, "
                        "playtest, print-facts, rebuilding, speed, templates (default: list them and where they are)")


def _new_command(n: argparse.ArgumentParser) -> None:
    """``new`` (scaffold.py): runs with or without a workspace."""
    n.add_argument("slug", type=validate.option(validate.new_game_slug), help="the game's folder name under data/, e.g. my-game")
    n.add_argument("--title", help="the game's title (default: the slug)")
    n.add_argument("--kind", type=_choice, choices=validate.NEW_GAME_KINDS, action="append",
                   help="a deck to start with (repeatable; default: cards)")
    n.add_argument("--lang", type=_choice, choices=["ja", "en"], default="ja",
                   help="the language of the game it writes: ja (default) or en (an English game, deck names and draft)")


def _layout_command(la: argparse.ArgumentParser) -> None:
    """``layout`` (scaffold.py): runs with or without a workspace."""
    la.add_argument("action", type=_choice, choices=["list", "export"], help="list the layouts, or export one")
    la.add_argument("name", nargs="?", help="the layout to export (see 'pnpgen layout list')")
    la.add_argument("--game", type=validate.option(validate.game_option), help="with --deck: export that deck's layout as it builds")
    la.add_argument("--deck", type=validate.option(validate.deck_option), help="with --game: the deck (its overrides and size applied)")
    la.add_argument("--out", help="the front template's file, ending in .svg.j2 (default: <name>-front.svg.j2 here), or a folder "
                                  "to write it in (templates/<game>/); the back is written beside it as <name>-back.svg.j2")


def _export_command(e: argparse.ArgumentParser) -> None:
    _game(e)
    e.add_argument("--preset", required=True, help="thegamecrafter, makeplayingcards, drivethrucards, printerstudio, "
                                                   "doujin, doujin-pieces, doujin-book (the rulebook), tabletopsimulator, or one of "
                                                   "your presets/")
    e.add_argument("--deck", type=validate.option(validate.deck_option), action="append", default=[],
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
    e.add_argument("--base-url", type=validate.option(validate.base_url_option),
                   help="where Tabletop Simulator finds the images: an http(s):// or file:/// URL (default: file:/// paths)")
    e.add_argument("--deck-id-base", type=validate.option(validate.deck_id_base_option),
                   help="Tabletop Simulator: the first CustomDeck id pnpgen may use (default 1000), "
                        "to keep clear of the ids of an existing mod")
    e.add_argument("--lang", type=validate.option(validate.language_option), help="export this language of the game (game.yaml languages) into "
                                  "build/<game>/<lang>/<preset>/")
    e.add_argument("--out", type=validate.option(validate.out_option), help="output folder (default: build/ in the workspace)")


def _build_options(p: argparse.ArgumentParser) -> None:
    """The options of ``build`` (and ``watch``, which builds on every save)."""
    p.add_argument("--out", type=validate.option(validate.out_option), help="output folder (default: build/ in the workspace)")
    _sheet_options(p)
    p.add_argument("--no-rulebook", action="store_true", help="skip the rulebook booklets")
    p.add_argument("--ink", type=_choice, choices=["saver", "saver-grey"],
                   help="also draw the home sheets with less toner into ink-saver/ (large fills tinted, text and "
                        "frames kept dark; saver-grey: art in light grey too)")
    p.add_argument("--lang", type=validate.option(validate.language_option), help="build this language of the game (game.yaml languages) into build/<game>/<lang>/")
    p.add_argument("--min-dpi", type=validate.option(validate.min_dpi_option), default=None,
                   help=f"warn about art printed below this resolution (default {MIN_DPI:g})")
    _jobs_option(p)
    _rulebook_options(p)


def _jobs_option(p: argparse.ArgumentParser) -> None:
    """``--jobs``: build's, and ``reprint --since``'s, which builds the game as build does."""
    p.add_argument("--jobs", type=_jobs, default=min(os.cpu_count() or 1, 8),
                   help="worker processes (default: the number of cores, at most 8)")


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
    p.add_argument("--silhouette-marks", type=validate.option(_silhouette),
                   help="registration mark figures for --marks silhouette, e.g. inset=10mm,length=0.33in "
                        "(inset, square, length, thickness, keepout)")
    p.add_argument("--cricut-area", type=validate.option(_cricut_area),
                   help="the Print Then Cut image's size for --marks cricut, e.g. 6.75x9.25in (the default; "
                        "what Design Space takes on your machine and paper)")
    p.add_argument("--margin", type=validate.option(validate.margin_option), default=5.0, help="unprintable margin of the printer (default 5mm)")
    p.add_argument("--bleed", type=validate.option(validate.bleed_option), default=None,
                   help=f"bleed around each piece (default {BLEED_MM:g}mm; a deck file's own bleed: wins for its deck)")
    p.add_argument("--layout", type=_choice, choices=["grid", "fold", "sleeve"], default="grid",
                   help="fold: each two-sided piece's front and back side by side, fold and glue (no duplex); "
                        "sleeve: card fronts only, sized for a sleeve with a backer card")
    p.add_argument("--sleeve", type=validate.option(_sleeve),
                   help="the sleeve's inside, e.g. 66x91 (--layout sleeve; default: the card's trim + 3 mm, 66x91 for "
                        "poker cards; each format's sleeves: pnpgen docs print-facts)")
    p.add_argument("--sheet", help="a sheet layout (sheets/NAME.yaml or built-in, e.g. a-one-51002): pieces go into its "
                        "slots; a deck file's sheet: wins (sheet: grid keeps the grid)")
    p.add_argument("--printer", help="a profile of printers.yaml (see 'pnpgen calibrate'): backs moved, scale corrected; its paper and duplex")


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


def _talk_options(p: argparse.ArgumentParser) -> None:
    """-q and -v, before the command (``pnpgen -q build``) or after it. SUPPRESS: a command's
    parser leaves what was said before the command as it was."""
    p.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                   help="print only warnings and errors (check: only problems and warnings)")
    p.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                   help="build, watch: say each step, document by document; rulebook: how the draft was read and set")


def _rulebook_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules-only", action="store_true", help="the book to hand out: no designer notes appendix, cover playtest line or draft count marks")
    p.add_argument("--creep", type=validate.option(validate.creep_option), default=0.0, help="creep compensation per sheet (e.g. 0.1mm)")
    p.add_argument("--binding", type=_choice, choices=["left", "right"], default="left",
                   help="which edge the booklet is bound on: left (horizontal text) or right (縦書き) (default left)")


# A build is one short process that makes millions of objects and frees nearly all of them as it
# goes. At the collector's default thresholds a cold build of the four games walked its whole heap
# nine times (0.66 s of its 6 s of CPU); fewer, larger young collections cost a third of that, at
# the same peak memory.
COLLECTOR_THRESHOLDS = (50_000, 20, 10)


def console() -> None:
    """The ``pnpgen`` command (and ``python -m pnpgen``): one command per process."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    # A terminal or file whose encoding lacks a character of the game's (Japanese names written to
    # a cp1252 or ascii stdout, as Windows redirects them): \uXXXX, as Python's stderr already
    # says them, where a build ended in a UnicodeEncodeError traceback after writing its files.
    for name in ("stdout", "stderr"):  # started with it closed (pnpgen build >&-): Python leaves None
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # open for the process's life
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
        sys.stdout = _Output(sys.stdout)  # type: ignore[assignment]
    if isinstance(sys.stderr, io.TextIOWrapper):  # (2>/dev/full: an error said there ended in status 1)
        sys.stderr = _Output(sys.stderr)  # type: ignore[assignment]
    signal.signal(signal.SIGINT, functools.partial(_ctrl_c, os.getpid()))
    sys.unraisablehook = functools.partial(_ctrl_c_again, sys.unraisablehook)
    forked_end_with_parent()  # a killed command leaves no process of its own behind
    code = main(own_process=True)
    if isinstance(sys.stdout, _Output) and sys.stdout.failed is not None:
        print(f"pnpgen: error: cannot write the command's output: {sys.stdout.failed.strerror} (expected room "
              "where the output goes, or the output not redirected)", file=sys.stderr)
        code = code or 2
    _leave(code)


class _Output:
    """stdout (stderr) that stops writing, without a traceback, once the disk or device it goes to fails
    (``pnpgen build > log`` on a full disk, ``> /dev/full``): the command finishes its work — a
    build commits its files — and ends saying why in one line, exit 2. A closed pipe (``| head``)
    still ends the command as before."""

    def __init__(self, stream: io.TextIOWrapper) -> None:
        self.stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        if self.failed is None:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                raise
            except OSError as e:
                self.failed = e
        return len(text)

    def flush(self) -> None:
        if self.failed is None:
            try:
                self.stream.flush()
            except BrokenPipeError:
                raise
            except OSError as e:
                self.failed = e

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _ctrl_c(command: int, signum: int, frame) -> None:
    """Ctrl-C: the terminal sends it to every process of the command, its worker processes too
    (forked from it, they keep this handler). The command's own process stops as Python does
    (KeyboardInterrupt: its transactions roll back, ``main`` says it in one line); a worker
    ends at once without a word, where each printed a KeyboardInterrupt traceback of its own."""
    if os.getpid() != command:
        os._exit(128 + signum)
    raise KeyboardInterrupt


def _ctrl_c_again(hook: Callable[[Any], None], unraisable: Any) -> None:
    """``sys.unraisablehook``: a Ctrl-C that landed where Python cannot raise it — an object
    finalised by the collector (a generator a template left open), an at-fork hook (logging's, as
    a worker is forked) — was printed as "Exception ignored in: …" with a traceback, and lost: the
    command went on, its workers gone. It is sent again a moment later, from a thread, so that it
    stops the command where it can (one line, exit 130); anything else as ``hook`` says it."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        hook(unraisable)
        return
    while True:  # (on a loaded machine the Ctrl-C sent again can land while this hook still starts
        try:     # its thread: raised in the hook, it would be lost as the first one was; sent again)
            again = threading.Timer(0.01, os.kill, (os.getpid(), signal.SIGINT))
            again.daemon = True
            again.start()
            return
        except KeyboardInterrupt:
            continue


def _leave(code: int) -> None:
    """End the process once its output is out: without tearing its heap down object by object
    (``os._exit``, 30–50 ms of a short command) when nothing else runs — no worker process, no
    thread besides this one; else as Python usually ends. Every file pnpgen writes is closed (and
    renamed into place) before the command returns, so nothing is left in a buffer."""
    import threading

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: Python's own ending says nothing more either
        sys.exit(code)
    workers = sys.modules.get("multiprocessing")
    if threading.active_count() == 1 and (workers is None or not workers.active_children()):
        os._exit(code)
    sys.exit(code)


# a --jobs worker process (a document's, a game's, the rulebook's) killed while the build waited for it
WORKER_KILLED = ("a worker process of this command ended abruptly (killed, or by the system short of memory): "
                 "nothing of it was written, the last good output is as it was (expected the command run again; "
                 "with --jobs 1 it starts no workers and needs less memory)")


def main(argv: list[str] | None = None, own_process: bool = False) -> int:
    """``own_process``: the command is the whole process (``console``), not one call of a program
    that goes on after it (a test, a script): what only a process's own start-up may do (the
    build's ``gc.freeze``) is done."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # Every file pnpgen writes is dated 2000-01-01 (pdf/settings.py, dated_as_pnpgen_dates); every
    # ReportLab canvas reads SOURCE_DATE_EPOCH, and one not a whole number (1.5, 1e10, a CI's typo)
    # ended a build in a ValueError traceback from the rulebook's fold marks, or called a face's
    # art unconvertible: dropped for the process and the workers it starts.
    os.environ.pop("SOURCE_DATE_EPOCH", None)
    # The Python processes pnpgen starts (spawned workers, as macOS and Windows start them; the
    # trash's) start in the workspace, and would put it first on their path: its own
    # multiprocessing/ or pnpgen/ folder (a stranger's game) would be imported, and run, there.
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        here: str | None = os.getcwd()
    except FileNotFoundError:  # the terminal's folder deleted, or replaced by one of its name, since
        here = None
    try:
        argv = _option_values_joined(_enter_directory(argv))
        if here is None and not _folder_exists():  # (-C DIR went somewhere that is)
            raise InputError("the current folder no longer exists (deleted, or replaced by a new one of the same "
                             "name, since the terminal went into it)", expected='cd into it again (cd "$PWD"), or '
                             "pnpgen -C DIR")
        _unknown_options_first(argv)
        parser = _parsers(_running(argv))[0]
        parser.running = _running(argv)
        args = parser.parse_args(argv)
        args.own_process = own_process
        args.quiet, args.verbose = getattr(args, "quiet", False), getattr(args, "verbose", False)
        if args.quiet and args.verbose:
            parser.error("-q and -v together (say one of them)")
        if args.command is None:
            _parser().print_help()
            return 0
        if args.command == "help":
            return _help(args.topic)
        from pnpgen import commands

        if args.command in ("calibrate", "docs", "preflight"):  # no workspace needed (preflight: with FOLDERs)
            return getattr(commands, args.command)(args)
        if args.command in NO_WORKSPACE:  # new makes one
            from pnpgen import scaffold

            return getattr(scaffold, args.command)(args)
        ws = None
        try:
            ws = find_workspace()
            if isinstance(getattr(args, "game", None), str):
                args.game = ws.game_named(args.game)
                # --lang naming the game's default language: the edition a plain build makes (a
                # build and watch resolve it for each game they build: engine.fresh.for_game)
                if getattr(args, "lang", None) and args.command not in ("build", "watch"):
                    args.lang = commands.asked_language(ws, args.game, args.lang)
            return getattr(commands, args.command.replace("-", "_"))(ws, args)
        except InputError as e:
            text = str(e)
            print(f"pnpgen: error: {shown(ws.shown(text) if ws is not None else text)}", file=sys.stderr)
            return 2
        except Exception as e:  # a BrokenProcessPool (a traceback; the transaction kept the last good output)
            futures = sys.modules.get("concurrent.futures")  # (imported by a command that started workers)
            if futures is None or not isinstance(e, futures.BrokenExecutor):
                raise
            print(f"pnpgen: error: {WORKER_KILLED}", file=sys.stderr)
            return 2
    except InputError as e:  # -C: no such folder
        print(f"pnpgen: error: {shown(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(pnpgen.INTERRUPTED, file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head or less that closed early
        sys.stderr.close()
        return 0
    finally:
        if here is not None:
            with contextlib.suppress(OSError):  # (the folder deleted or renamed while the command ran: watch)
                os.chdir(here)


def _command_at(argv: list[str]) -> int | None:
    """Where the command stands in ``argv`` (after -C DIR is taken out), None without a known one."""
    at = next((i for i, arg in enumerate(argv) if not arg.startswith("-")), None)
    return at if at is not None and argv[at] in _commands_table() else None


def _running(argv: list[str]) -> str | None:
    """The command ``argv`` runs (the one whose options its parser needs), None without a known one."""
    at = _command_at(argv)
    return argv[at] if at is not None else None


def _unknown_options_first(argv: list[str]) -> None:
    """A misspelt option (``--gmae hoshi``) is said as such, with its "did you mean": argparse
    checks a command's required options first and would say only that ``--game`` is missing."""
    at = _command_at(argv)
    if at is None:
        return
    parser = _parsers(argv[at])[1][argv[at]]
    value_next = False  # the word after an option that takes a value is that value
    parser.game_given = False  # (the parsers are made once a process: reset for this command line)
    for arg in argv[at + 1:]:
        if arg == "--":
            return
        option = arg.split("=", 1)[0]
        if option.startswith("--") and not any(o.startswith(option) for o in parser.options):
            parser.error(f"unrecognized arguments: {arg}")
        if not arg.startswith("-") and not value_next and not parser.takes_words():
            # a stray word (``build populous``): argparse would say only that --game or --all is missing
            parser.error(f"unrecognized arguments: {arg}")
        named = {id(a): a for o, a in parser.options.items() if o == option or (option.startswith("--") and o.startswith(option))}
        # (an option of no command, -j: the word after it may be its value; argparse names both)
        value_next = arg.startswith("-") and "=" not in arg and (len(named) != 1 or next(iter(named.values())).nargs != 0)
        parser.game_given = parser.game_given or any(a.dest in ("game", "all") for a in named.values())


_NEGATIVE = re.compile(r"-\.?\d")  # -1mm, -0.5, -.5, -1.5,0: a value, never an option's name
_UNIT = re.compile(f"(?i:{validate.UNITS})")  # a unit written apart from its number: --bleed 0.125 in
# the options whose value is a length (or lengths): the types validate.option names after their readers
_LENGTH_TYPES = {"bleed_option", "margin_option", "creep_option", "_sleeve", "_cricut_area", "_silhouette"}


def _option_values_joined(argv: list[str]) -> list[str]:
    """``--bleed -1mm`` as ``--bleed=-1mm``: argparse takes a value starting with '-' for an
    option ("expected one argument"), so the option's own reading says what is wrong with it (or
    takes it). ``--bleed 0.125 in`` as ``--bleed=0.125in``: a length written with a space before its
    unit, as game.yaml takes it, is one value, not a stray word 'in'. Only after an option of the
    command that takes a value (a length, for the unit); ``--`` ends the options."""
    at = _command_at(argv)
    if at is None:
        return argv
    actions = _parsers(argv[at])[1][argv[at]].options
    out = argv[:at + 1]
    i = at + 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return out + argv[i:]
        name, eq, given = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        named = [actions[name]] if name in actions else [
            a for o, a in actions.items() if name.startswith("--") and o.startswith(name)]  # argparse's --ble for --bleed
        takes_value = len({id(a) for a in named}) == 1 and named[0].nargs != 0
        # the option's value and the word after it: (given, next) for --bleed=0.125 in, else the next two
        value, after = (given, argv[i + 1:i + 2]) if eq else (argv[i + 1:i + 2], argv[i + 2:i + 3])
        if takes_value and value and after and _UNIT.fullmatch(after[0]) \
                and getattr(named[0].type, "__name__", "") in _LENGTH_TYPES:
            out.append(f"{name}={''.join(value)}{after[0]}")
            i += 2 if eq else 3
            continue
        if takes_value and not eq and i + 1 < len(argv) and _NEGATIVE.match(argv[i + 1]):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def _folder_exists() -> bool:
    """Whether the current folder is still there (a deleted one still answers stat)."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return False
    return True


def _enter_directory(argv: list[str]) -> list[str]:
    """-C DIR (before the command, as in git and make): go to DIR, so a workspace and every
    relative path of the other options are found from there; ``argv`` without it."""
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--" or not arg.startswith("-"):
            return rest + argv[i:]  # the command: its own options follow
        if arg == "-C" or (arg.startswith("-C") and not arg.startswith("--")):
            folder = arg[2:] if arg != "-C" else (argv[i + 1] if i + 1 < len(argv) else None)
            i += 1 if arg != "-C" else 2
            if not folder:
                raise InputError("needs a folder", key="-C", expected="-C DIR, a workspace or a folder inside one")
            if not os.path.isdir(folder):
                raise InputError(f"{folder!r} is not a folder", key="-C", expected="-C DIR, a workspace or a folder inside one")
            os.chdir(folder)
            continue
        rest.append(arg)
        i += 1
    return rest


def _help(topic: str | None) -> int:
    """``pnpgen help [COMMAND]``: the help of pnpgen, or of one command."""
    if topic is None:
        _parser().print_help()
        return 0
    command = _commands().get(topic.lower())
    if command is None:
        _commands()["help"].error(f"argument command: invalid choice: '{topic}' (choose from "
                                  + ", ".join(f"'{c}'" for c in _commands()) + ")")
    command.print_help()
    return 0


if __name__ == "__main__":
    console()
