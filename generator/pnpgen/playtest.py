"""The playtest loop's commands: ``log``, ``diff``, ``tag``, ``reprint --since`` (engine/history.py,
engine/versionnames.py, engine/changelog.py, engine/reprint.py) and ``serve`` (serve/)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnpgen.data import optionvalues
from pnpgen.data.workspace import Workspace
from pnpgen.safetext import CONTROL, shown, shown_name, warning_line

if TYPE_CHECKING:
    from pnpgen.engine.history import Version


def command_table(sheet_options: Callable[[argparse.ArgumentParser], None],
                  jobs_option: Callable[[argparse.ArgumentParser], None],
                  margin_option: Callable[[argparse.ArgumentParser], None],
                  ) -> dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]]:
    """The commands for cli.py's table: name → (what it does, its options). ``sheet_options``:
    build's options of the home sheets' layout, and ``jobs_option`` its ``--jobs``, which reprint
    takes too (it builds the game as build does); ``margin_option`` build's ``--margin``, which
    serve takes (its sheets and booklet set inside it, as build's are)."""

    def _serve_options(s: argparse.ArgumentParser) -> None:
        s.add_argument("--port", type=_port, default=8765, help="default 8765; the page is on 127.0.0.1 only")
        _common(s, lang=False)
        s.add_argument("--lang", type=optionvalues.option(optionvalues.language_option),
                       help="build and show this language of the game (game.yaml languages), into build/<game>/<lang>/")
        margin_option(s)

    def _reprint_options(r: argparse.ArgumentParser) -> None:
        r.add_argument("--since", required=True, help="a version (see 'pnpgen log'): v12, a tag, or a hash")
        _common(r)
        sheet_options(r)
        jobs_option(r)

    return {
        "serve": ("a live preview of every face on http://127.0.0.1:8765, rebuilt on every save", _serve_options),
        "log": ("the recorded versions of a game, newest first", _common),
        "diff": ("what changed between two versions, as a Markdown changelog for playtesters", _diff_options),
        "tag": ("give a version a name (e.g. playtest-3)", _tag_options),
        "reprint": ("reprint-since-<V>.pdf/.txt: the copies new or changed since version V", _reprint_options),
    }


def _common(p: argparse.ArgumentParser, lang: bool = True) -> None:
    p.add_argument("--game", type=optionvalues.option(optionvalues.game_option), required=True,
                   help="game slug (see 'pnpgen list')")
    p.add_argument("--out", type=optionvalues.option(optionvalues.out_option),
                   help="the build folder (default: build/ in the workspace)")
    if lang:
        p.add_argument("--lang", help="the history of this language's edition (build --lang)")


def _diff_options(d: argparse.ArgumentParser) -> None:
    d.add_argument("a", nargs="?", help="the older version (default: the one before B)")
    d.add_argument("b", nargs="?", help="the newer version (default: the latest)")
    d.add_argument("--format", type=str.lower, choices=["markdown", "json"], default="markdown",
                   help="markdown (default): a changelog for playtesters; json: the same for tools")
    _common(d)


def _tag_options(t: argparse.ArgumentParser) -> None:
    t.add_argument("name", type=_tag_name, help="letters, digits, - _ . (not v<number>, latest or previous; "
                   "not starting with -, nor only dots)")
    t.add_argument("version", nargs="?", default="latest", help="default: the latest version")
    _common(t)


def _tag_name(text: str) -> str:
    from pnpgen.engine import history  # the command table above loads with the CLI: this only when run

    if not history.is_tag_name(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a tag name (letters, digits, - _ . up to 64; "
                                         "not v<number>, latest or previous, which name versions; not starting "
                                         "with -, which reads as an option, nor only dots, which read as a folder)")
    return text


def _port(text: str) -> int:
    if not text.isdigit() or not 1024 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port from 1024 to 65535")
    return int(text)


def _edition(args: argparse.Namespace) -> str:
    """The history's folder name: the game, or game.lang for a --lang edition (as the cache names it)."""
    return f"{args.game}.{args.lang}" if getattr(args, "lang", None) else args.game


def _root(ws: Workspace, args: argparse.Namespace) -> Path:
    """The output folder whose history the command reads; its history reached through a link is
    refused (it would be read from, and tags written to, anywhere), and so is another workspace's
    output folder (its versions are of that workspace's games: ``output.refuse_other_workspace``)."""
    from pnpgen.data.gamefiles import game_file
    from pnpgen.data.i18n import LANGUAGE_CODE
    from pnpgen.data.names import check_edition_twin
    from pnpgen.data.optionvalues import LANGUAGE_EXPECTED
    from pnpgen.engine import history
    from pnpgen.engine.fresh import finish_killed_commit
    from pnpgen.engine.journal import JOURNAL, STAGING
    from pnpgen.engine.output import refuse_other_workspace
    from pnpgen.errors import InputError

    game_file(ws, args.game)  # a misspelt game: log said "no recorded version yet", exit 0
    check_edition_twin(args.game, ws.slugs())  # data/g.en/ would read g's --lang en history
    lang = getattr(args, "lang", None)
    if lang is not None and not LANGUAGE_CODE.fullmatch(lang):  # a path (en/../..) led the history and reprint out
        raise InputError(f"{shown(lang)!r} is not a language code", key="--lang", expected=LANGUAGE_EXPECTED)
    root = args.out or ws.root / "build"
    refuse_other_workspace(root, ws.root)
    history.refuse_links(root, _edition(args))
    if any(os.path.lexists(root / name) for name in (JOURNAL, STAGING)):  # a build killed as it committed
        finish_killed_commit(root)
    return root


ELSEWHERE = "(not written on this machine)"  # log's mark on a version this machine did not seal


def _not_written_here(ws: Workspace, root: Path, edition: str, shown_versions: list[Version]) -> None:
    """One warning line naming the versions shown that this machine did not seal (engine/history.py)."""
    from pnpgen.engine import history
    from pnpgen.usercache import secret

    foreign = [v.name for v in shown_versions if not v.here]
    if not foreign:
        return
    names = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
    why = ("no machine key (PNPGEN_CACHE=off, or a machine cache that cannot be written) tells this machine's "
           "versions from planted ones"
           if secret() is None else "a build folder from elsewhere, your other machine's, a pnpgen's before "
           "versions were sealed, or written under an earlier machine key")
    print(shown(ws.shown(f"pnpgen: warning: {history.folder(root, edition)}{os.sep}: {names} "
                         f"{'was' if len(foreign) == 1 else 'were'} not written on this machine ({why}): shown as "
                         "recorded, and 'pnpgen reprint --since' does not rely on "
                         f"{'it' if len(foreign) == 1 else 'them'}")), file=sys.stderr, flush=True)


def _edition_named(args: argparse.Namespace) -> str:
    """The game as the history commands name it: ``guild (en)`` for a language's edition, whose
    history and tags are its own, not the default edition's."""
    return f"{args.game} ({args.lang})" if args.lang else args.game


def log(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.engine import history  # the command table above loads with the CLI: this only when run

    root = _root(ws, args)
    named: dict[int, list[str]] = {}
    edition = _edition(args)
    for name, n in history.tags(root, edition).items():
        named.setdefault(n, []).append(name)
    known = history.versions(root, edition)
    by_number: dict[int, history.Version | None] = {n: None for n in history.entry_numbers(root, edition)}  # None: damaged
    by_number.update((v.number, v) for v in known)
    if not by_number:
        print(shown_name(f"{_edition_named(args)}: no recorded version yet (each good build that changes the game "
                         "records one)"))
    elif args.lang:  # the English edition keeps a history of its own: its list says whose it is
        print(shown_name(f"{_edition_named(args)}: the {args.lang} edition's versions, newest first"))
    _not_written_here(ws, root, edition, known[::-1])
    for number, v in sorted(by_number.items(), reverse=True):
        if v is None:  # (diff, tag and reprint --since refuse it, saying so: engine/versionnames.py)
            where = ws.shown(str(history.path(root, edition, number)))
            print(shown_name(f"{f'v{number}':<6} damaged: {where} is not as pnpgen wrote it, and not read"))
            continue
        counts = ", ".join(f"{d} {n}" for d, n in v.body["counts"].items())
        tag = f"  [{', '.join(sorted(named[v.number]))}]" if v.number in named else ""
        draft = f"  draft {v.body['draft']}" if v.body["draft"] else ""
        mark = "" if v.here else f"  {ELSEWHERE}"
        # (the history may come from elsewhere: one line a version, a line break in its time shown as \n)
        print(shown_name(f"{v.name:<6} {v.body['time']}{draft}  #{v.hash[:7]}  {counts}{tag}{mark}"))
    return 0


def diff(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.engine import changelog, history  # the command table above loads with the CLI: this only when run
    from pnpgen.engine.versionnames import resolve

    root = _root(ws, args)
    edition = _edition(args)
    b = resolve(root, edition, args.b or "latest")
    if args.a:
        a = resolve(root, edition, args.a)
    else:
        older = [v for v in history.versions(root, edition) if v.number < b.number]
        a = older[-1] if older else b
    _not_written_here(ws, root, edition, [b] if a is b else [a, b])
    d = changelog.diff(a, b, history.tags(root, edition))
    # the history may come from elsewhere (a zip): no terminal control sequence of its gets through
    sys.stdout.write(CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(d, ensure_ascii=False, indent=2)) + "\n"
                     if args.format == "json" else shown(changelog.markdown(d)))
    return 0


def tag(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.engine import history  # the command table above loads with the CLI: this only when run
    from pnpgen.engine.output import atomic_write_bytes
    from pnpgen.engine.versionnames import resolve, set_tag

    root = _root(ws, args)
    edition = _edition(args)
    v = resolve(root, edition, args.version)
    _not_written_here(ws, root, edition, [v])  # named all the same: reprint --since will not rely on it
    was = history.tags(root, edition).get(args.name)
    atomic_write_bytes(history.folder(root, edition) / "tags.json", set_tag(root, edition, args.name, v))
    moved = f", moved from v{was}" if was is not None and was != v.number else ""  # the name no longer marks what it did
    print(shown_name(f"{_edition_named(args)}: {args.name} = {v.name} ({v.body['time']}, #{v.hash[:7]}){moved}"))
    return 0


def reprint(ws: Workspace, args: argparse.Namespace) -> int:
    """The copies new or changed since an earlier version, against the game as it is now."""
    from pnpgen.data.names import REPRINT_SINCE
    from pnpgen.engine import history  # the command table above loads with the CLI: this only when run
    from pnpgen.engine.cache import Cache
    from pnpgen.engine.clean import changed_by_hand, reprint_record
    from pnpgen.engine.game import build_game
    from pnpgen.engine.options import BuildOptions
    from pnpgen.engine.output import build_lock
    from pnpgen.engine.reprint import reprint_files, since_decks
    from pnpgen.engine.transaction import commit
    from pnpgen.engine.versionnames import resolve
    from pnpgen.errors import InputError
    from pnpgen.sheetargs import home_sheet_options
    from pnpgen.usercache import secret

    root = _root(ws, args)
    since = resolve(root, _edition(args), args.since)
    if not since.here:  # what it says was printed could be anyone's: the reprint would be of their choosing
        raise InputError(
            f"{since.name} was not written on this machine (a build folder from elsewhere, your other machine's, "
            "a pnpgen's before versions were sealed, or written under an earlier machine key"
            + ("; no machine key (PNPGEN_CACHE=off, or a machine cache that cannot be written) tells this machine's "
               "versions from planted ones" if secret() is None else "") + "), so what it says was printed is not relied on",
            path=history.path(root, _edition(args), since.number), key="--since",
            expected="a version written on this machine, one 'pnpgen log' does not mark; to see what changed "
            f"since {since.name}: pnpgen diff --game {args.game}{f' --lang {args.lang}' if args.lang else ''}"
            f"{f' --out {args.out}' if args.out else ''} {since.name} latest")
    recorded, unknown = _since_printer(ws, since) if args.printer is None else (None, "")  # (--printer "": refused by load_printer)
    asked = argparse.Namespace(**{**vars(args), "printer": recorded}) if recorded else args  # the version's profile
    laid = _since_layout(since, args)
    if laid is not None:  # the version's fold-over or sleeve sheets, for the printer they were printed on
        asked = argparse.Namespace(**{**vars(asked), **laid})
        print(f"pnpgen: reprint laid out --layout {laid['layout']}"
              + (f" --sleeve {_mm(laid['sleeve'].w)}x{_mm(laid['sleeve'].h)}" if laid.get("sleeve") else "")
              + f", as {since.name}'s build was; --layout grid for the grid of fronts and backs pages",
              file=sys.stderr, flush=True)
    elif not _layout_given(args) and not isinstance(since.body.get("layout"), dict):
        print(f"pnpgen: reprint laid out as the grid of fronts and backs pages: {since.name} was recorded by an "
              "earlier pnpgen, which did not record its build's layout; --layout fold (or --layout sleeve) lays the "
              "copies out as a fold-over (or sleeve) build", file=sys.stderr, flush=True)
    options = BuildOptions(jobs=args.jobs, one_core=args.jobs == 1, lang=args.lang, **home_sheet_options(ws, asked))  # (as the build they go beside)
    out_dir = root / args.game / (args.lang or "")
    with build_lock(root):  # not while a build writes here; written as a build writes (never through a link)
        cache = Cache(root)
        cache.hashes.threads = not options.one_core
        cache.refuse_links()  # (the last build's records read through none, as a build refuses)
        result = build_game(ws, args.game, options, cache=cache)
        papers_apart: list[str] = []  # its pages on a paper not the game's (a deck's A3), said as the build says them
        files = reprint_files(result, options, since_decks(since.body), name=f"{REPRINT_SINCE}{since.name}",
                              since=f"{args.since} ({since.name}, {since.body['time']})"
                              if history.tags(root, _edition(args)).get(args.since) == since.number
                              else f"{since.name} ({since.body['time']})", said=papers_apart)  # the tag the designer printed
        if args.printer is None:  # which profile the copies are laid out for, and how to pick another: one line
            _said_printer(ws, since, recorded, unknown, result.options or options)
        if not files:
            print(f"{args.game}: no copy changed since {since.name}")
            return 0
        mine = changed_by_hand(root, out_dir, files)
        if mine:  # the designer's notes on the last one: kept, never written over
            said = ("a link, which pnpgen never writes" if (out_dir / mine[0]).is_symlink()
                    else "changed since pnpgen reprint wrote it (notes added, saved again from a viewer?)")
            raise InputError(f"{said}: kept as it is, nothing written", path=out_dir / mine[0],
                             expected=f"{mine[0]} renamed or moved out of {out_dir}/ (or removed, if it can go), "
                             f"then pnpgen reprint --game {args.game}{f' --lang {args.lang}' if args.lang else ''}"
                             f"{f' --out {args.out}' if args.out else ''} "
                             f"--since {args.since} again: it writes {' and '.join(sorted(files))} anew")
        commit(root, {out_dir / rel: data for rel, data in files.items()} | reprint_record(root, out_dir, files))
    for line in papers_apart:
        print(warning_line(ws.shown(line)), file=sys.stderr)
    print(ws.shown(f"{args.game}: " + ", ".join(str(out_dir / rel) for rel in sorted(files))))
    return 0



def _layout_given(args: argparse.Namespace) -> bool:
    """Does the reprint say how its sheets are laid out: --layout, or --sheet or a cutting machine's
    --marks, which take the grid?"""
    return args.layout is not None or getattr(args, "sheet", None) is not None or args.marks in ("silhouette", "cricut")


def _since_layout(since: Version, args: argparse.Namespace) -> dict[str, Any] | None:
    """``--layout`` (and ``--sleeve``) as the build that recorded ``since`` laid its home sheets
    out, when the reprint is given no layout and that one was fold-over sheets or sleeve inserts (a
    fold-over build's copies printed duplex on a printer without duplex: a trial's); None when the
    reprint is told its layout, or its sheets go on card stock or a cutting machine's grid, which take
    the grid, or the version records the grid (or nothing: an earlier pnpgen's)."""
    if _layout_given(args):
        return None
    recorded = since.body.get("layout")
    if not isinstance(recorded, dict):
        return None
    layout = recorded.get("layout")
    if layout == "fold" and args.sleeve is None:
        return {"layout": "fold"}
    if layout == "sleeve":
        size = recorded.get("sleeve_mm")
        if args.sleeve is None and isinstance(size, list) and len(size) == 2 and all(isinstance(v, int | float) for v in size):
            return {"layout": "sleeve", "sleeve": argparse.Namespace(w=float(size[0]), h=float(size[1]))}
        return {"layout": "sleeve"}
    return None


def _mm(value: float) -> str:
    return f"{value:g}"


def _since_printer(ws: Workspace, since: Version) -> tuple[str | None, str]:
    """The printer profile the build that recorded ``since`` drew its home sheets for (None: none,
    or not known), and why it is not used when the version names one no ``printers.yaml`` holds."""
    from pnpgen.data.printers import load_printer
    from pnpgen.errors import InputError

    recorded = since.body.get("printer")
    name = recorded.get("name") if isinstance(recorded, dict) else None
    if not isinstance(name, str) or not name:
        return None, ""
    try:
        load_printer(ws.root, name)
    except InputError:
        return None, name
    return name, ""


def _said_printer(ws: Workspace, since: Version, recorded: str | None, unknown: str, options) -> None:
    """One line on stderr: the printer profile a ``reprint --since`` without ``--printer`` laid its
    copies out for (its back offset and scale corrected on every page, as the home sheets), where
    that came from, and how to pick another; a warning when it is not the one ``since``'s build used."""
    used = options.printer.name if options.printer is not None else None
    how = "--printer NAME for another (printers.yaml)" if used or recorded or unknown else ""
    if recorded is not None and used == recorded:
        print(shown(f"pnpgen: reprint laid out for the printer profile '{used}', as {since.name}'s build was; "
                    f"{how}"), file=sys.stderr, flush=True)
        return
    was = (f"{since.name} was built for the printer profile '{unknown}', which no printers.yaml holds now"
           if unknown else f"{since.name} was built with no printer profile" if "printer" in since.body
           else f"{since.name} does not record the printer profile it was built for (an earlier pnpgen's)")
    from pnpgen.data.workspace import printer_profiles

    if used is None and not unknown and ("printer" in since.body or not any(p.is_file() for p in printer_profiles(ws.root))):
        return  # none then, none now (or no profile to pick): the layout the build had
    now = f"laid out for the printer profile '{used}' (game.yaml's printer:)" if used \
        else "laid out with no printer profile (no back offset or scale corrected)"
    print(shown(f"pnpgen: warning: reprint: {was}: {now}; "
                f"{how or '--printer NAME to correct for one (printers.yaml)'}"), file=sys.stderr, flush=True)
