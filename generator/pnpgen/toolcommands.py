"""The commands beside the build: ``export-sheet`` (a deck's pieces to a spreadsheet), ``clean``,
``calibrate`` (the duplex calibration sheet), ``docs`` and ``preflight`` (an export read as a print
shop reads it). Each writes or reads one thing of its own, not a game's print files."""

from __future__ import annotations

import argparse
import builtins
import contextlib
import os
from pathlib import Path

from pnpgen import scratch
from pnpgen.checkcommand import deck_of
from pnpgen.commands import asked_language, print_line, print_note, print_warning
from pnpgen.data.workspace import NoWorkspace, Workspace


def _sheet_format(fmt: str | None, out: Path | None) -> str:
    """The spreadsheet format: ``--format``, else the ending of ``--out`` (so an XLSX never lands
    in a .csv file), else csv. Both given and disagreeing is a mistake, not a guess."""
    from pnpgen.errors import InputError

    ending = out.suffix.lower()[1:] if out is not None else None
    if fmt is not None and out is not None and fmt != ending:
        raise InputError(f"{fmt}, but --out {out} is a .{ending} file", key="--format",
                         expected=f"--out {out.with_suffix('.' + fmt)}, or --format {ending} or none")
    return fmt or ending or "csv"


def export_sheet(ws: Workspace, args: argparse.Namespace) -> int:
    """Write a deck's pieces to a spreadsheet, for designers moving their card list there."""
    from pnpgen.data.load import load_game
    from pnpgen.data.sheetcolumns import columns_line
    from pnpgen.data.sheetexport import export_sheet as sheet_bytes
    from pnpgen.engine.output import write_new_only
    from pnpgen.errors import InputError
    from pnpgen.faces.lookup import check_templates
    from pnpgen.messages import counted

    game = load_game(ws, args.game)
    check_templates(ws.templates, game)
    deck = deck_of(game, args.deck)
    fmt = _sheet_format(args.format, args.out)
    out = args.out or deck.source.with_suffix("." + fmt)
    taken = InputError("already exists; not overwritten", path=out, expected="--out another file, or remove it")
    if out.exists() or out.is_symlink():  # (the deck's own spreadsheet, or a file of hand edits)
        raise taken
    translated, default = {}, "ja"
    if game.translations is not None:  # each other language's texts in <field>.<lang> columns
        default = game.translations.default
        for lang in game.translations.languages:
            if lang != game.translations.lang:
                translated[lang] = load_game(ws, args.game, lang=lang).deck(args.deck)
    if not write_new_only(out, sheet_bytes(deck, fmt, translated, default)):  # (made while it was read: kept)
        raise taken
    if args.quiet:
        return 0
    print_line(ws.shown(f"{deck.id}: {counted(len(deck.pieces), 'row')} ({counted(deck.count, 'piece')}) in {out.resolve()}"))
    if out.resolve().parent == deck.source.resolve().parent and deck.listed is not None:  # a deck list's list
        print_line(f"  to use it, write the deck's list: as  list: {{file: {out.name}}}")
    elif out.resolve().parent == deck.source.resolve().parent:
        read = deck.pieces[0].where.path if deck.pieces else deck.source  # a deck already kept in a sheet
        mapped = {header: name for name, header in deck.sheet_headers.items()
                  if header.casefold() != name.casefold()}  # (Cost is read as cost without columns:)
        spec = f"pieces: {{file: {out.name}}}" if not mapped else columns_line({"file": out.name}, {}, mapped)  # as now
        print_line(f"  to use it, replace the deck's pieces: list with  {spec}" if read == deck.source
             else f"  the deck reads its pieces from {read.name}; to read them from this file: {spec}")
    return 0


def clean(ws: Workspace, args: argparse.Namespace) -> int:
    """Remove what pnpgen's builds and exports wrote (as their records say) and the cache. A machine
    cache named inside the workspace or the output folder, which refuses every other command, is
    set aside (``usercache.set_aside``): the records are proven by the key of the one pnpgen keeps
    without it, and the folder named stays, said so."""
    from pnpgen.cli import cache_kept_from
    from pnpgen.engine.clean import clean as clean_outputs
    from pnpgen.engine.output import refuse_other_workspace
    from pnpgen.errors import InputError
    from pnpgen.messages import counted
    from pnpgen.usercache import machine_folder, set_aside

    out_root = args.out or ws.root / "build"
    refuse_other_workspace(out_root, ws.root)  # its files are the other workspace's to clean
    with set_aside(cache_kept_from(ws.root, args)) as aside:
        if aside is not None:
            base, named_by, holder, what = aside
            used = machine_folder()[0]
            print_warning(ws.shown(
                f"{named_by} puts pnpgen's machine cache ({base}) inside {what} ({holder}), where pnpgen keeps none: "
                f"clean proved what pnpgen wrote by the key of the machine cache it keeps without {named_by} "
                f"({used if used is not None else 'none: nothing proven'}), and leaves {base} as it is (not an output; "
                f"remove it yourself if pnpgen made it there, and set {named_by} outside the workspace, or unset it, "
                "to build)"))
        done = clean_outputs(out_root, args.game, history=args.history, workspace_games=ws.slugs())
    scratch.sweep()  # (and what an export or preflight killed outright left in the temporary folder)
    if done.cache_linked is not None:
        raise InputError("is a link to another folder, where pnpgen's records of what it wrote would be: nothing is "
                         "read or removed through it, so everything in the folder stays", path=done.cache_linked,
                         expected="a plain folder: remove the link, build again, then clean")
    if done.cache_not_folder is not None:
        raise InputError("is a file where pnpgen keeps its records of what it wrote, so nothing shows which files in "
                         "the output folder are pnpgen's: nothing was removed", path=done.cache_not_folder,
                         expected="the file moved away, then a build (which records its files again), then clean; "
                         "or the output folder removed yourself")
    if done.cache_refused is not None:
        raise done.cache_refused
    for path in done.kept:
        print_warning(ws.shown(f"{path.resolve()}: kept: changed since pnpgen wrote it (remove it yourself if it can go)"))
    for path in done.strangers:
        print_warning(ws.shown(f"{path.parent.resolve() / path.name}: kept: pnpgen did not put it in its trash folder, and "
                       "frees only the old files its records there name (an older pnpgen's old output, from before the records, has "
                       "none): nothing there is an output, so move it out if it is yours, else remove it yourself"))
    for link in done.linked:
        print_warning(ws.shown(f"{link.parent.resolve() / link.name}: left as it is: a link where pnpgen's folder was, "
                       "and pnpgen writes through none, so nothing it leads to is removed (remove the link yourself)"))
    for folder in done.left:  # exit 0 all the same: what clean can prove pnpgen's is gone
        print_warning(ws.shown(f"{folder.resolve()}{os.sep}: left as it is: its record was not written on this machine "
                       "(a build folder from elsewhere, or an older pnpgen's), so nothing proves which files "
                       "pnpgen wrote there (build or export it again, then clean; or remove it yourself)"))
    if not args.quiet:
        where = ws.shown(f"{str(out_root.resolve()).rstrip(os.sep)}{os.sep}")  # (/ is /, not //)
        print_line(f"removed {counted(len(done.removed), 'file')} pnpgen wrote in {where}" if done.removed
             else f"nothing pnpgen wrote in {where}" + _no_such_game(ws, args.game))
        if done.history_kept:
            print_line(f"kept the {counted(done.history_kept, 'version')} recorded in .history/ and their tags "
                 "(pnpgen clean --history removes them)")
        for folder in sorted({p.parent for p in done.reprints}):  # the folder a designer expected empty
            names = ", ".join(p.name for p in done.reprints if p.parent == folder)
            print_line(ws.shown(f"kept {names} in {folder.resolve()}{os.sep}: pnpgen reprint wrote them and no build "
                          "records them (remove them yourself if they can go)"))
    return 0


def calibrate(args: argparse.Namespace) -> int:
    """The duplex calibration sheet (impose/calibration.py) as a two-page PDF."""
    from pnpgen.data.formats import paper_title
    from pnpgen.data.printers import profiles_file
    from pnpgen.data.workspace import find_workspace, printer_profiles
    from pnpgen.engine.calibration import (
        calibration_sheet,
        games_paper_and_language,
        other_papers,
        write_calibration_sheet,
    )
    from pnpgen.engine.output import claim, mark_now
    from pnpgen.errors import InputError
    from pnpgen.impose.calibration import CalibrationOptions

    try:
        ws: Workspace | None = find_workspace()
    except NoWorkspace:
        ws = None
    root = ws.root if ws is not None else Path.cwd()
    for profiles in printer_profiles(root):  # where the sheet's measures go: one that cannot be read said now
        profiles_file(profiles)
    paper, lang = games_paper_and_language(ws, args.lang) if ws is not None else (None, None)
    opts = CalibrationOptions(paper=args.paper or paper or "a4", duplex=args.duplex, lang=args.lang or lang or "ja")
    out = args.out or root / "build" / f"calibration-{opts.paper}-{opts.duplex}.pdf"
    if not args.out:  # build/ as a build takes it (not a link to a folder of other files), and then pnpgen's:
        claim(out.parent, ws.input_folders if ws is not None else [])  # a build after it is not refused
        mark_now(out.parent)
    data = calibration_sheet(opts)
    if not write_calibration_sheet(out, data):  # the designer's own PDF (never replaced, even one saved there meanwhile)
        raise InputError("already exists and is not a calibration sheet pnpgen wrote; not overwritten", path=out,
                         expected="--out another file, or remove it")
    shown = out.relative_to(root) if not args.out and out.is_relative_to(root) else out  # relative, as every path pnpgen prints
    taken = [what for what, asked, theirs in (("paper", args.paper, paper), ("language", args.lang, lang))
             if asked is None and theirs]
    said = f"; its {' and '.join(taken)} as the workspace's games say" if taken else ""
    if not args.quiet:
        print_line(f"calibration sheet: {shown} (print it duplex, then see docs/home-printing.md: 'pnpgen docs home-printing'{said})")
    for other, files in (other_papers(ws, opts.paper, args.lang or lang) if ws is not None else {}).items():
        listed = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        print_note(f"{listed} {'print' if len(files) > 1 else 'prints'} on {paper_title(other)}, "
                   f"not {paper_title(opts.paper)}: a printer profile holds one paper, so calibrate that one too: "
                   f"pnpgen calibrate --paper {other} (docs/home-printing.md, A profile and decks on papers of their own)")
    return 0


def _no_such_game(ws: Workspace, slug: str | None) -> str:
    """`` for game 'tset', which data/ does not hold; did you mean test?`` after a clean that found
    nothing: a misspelt --game (clean takes a removed game's name too, so it is not refused)."""
    from pnpgen.errors import suggest

    known = ws.slugs()
    if slug is None or slug in known:
        return ""
    return f" for game {slug!r}, which data/ does not hold{suggest(slug, known)}"


def docs(args: argparse.Namespace) -> int:
    """Where this pnpgen's documentation is, and its topics; with a topic (``exports``,
    ``docs/exports.md#doujin`` as a message names it, ``readme``), that page's text. The pages
    ship inside pnpgen, so an installed wheel has them wherever it lives."""
    from pnpgen.errors import InputError, suggest
    from pnpgen.readme import readme
    from pnpgen.resources import docs_folder

    folder = docs_folder()
    pages = {p.stem: p for p in sorted(folder.glob("*.md"), key=lambda page: page.stem)}  # speed before speed-rounds
    topics = ["readme", *pages]
    if args.topic is None:
        readme_file, _ = readme()
        print(f"pnpgen {_version()}'s documentation: {folder}{os.sep}*.md"
              + (f" and {readme_file}" if readme_file else " (README.md: 'pnpgen docs readme')"))
        for name in topics:
            page = pages.get(name)
            title = _title(page.read_text(encoding="utf-8")) if page else "README.md: what pnpgen does, how to start"
            print(f"  {name:<15}{title}")
        print("'pnpgen docs TOPIC' prints one (e.g. pnpgen docs exports | less); a message's docs/exports.md#doujin "
              "is 'pnpgen docs exports'.")
        return 0
    asked = args.topic.split("#")[0].removeprefix("docs/").removesuffix(".md").lower()
    if asked == "readme":
        print(readme()[1])
    elif asked in pages:
        print(pages[asked].read_text(encoding="utf-8"))
    else:
        meant = suggest(asked.replace("_", "-"), topics)
        raise InputError(f"no documentation topic {args.topic!r}{meant or _pages_saying(args.topic, pages)}",
                         expected="one of " + ", ".join(topics))
    return 0


# pnpgen's own workings, not a designer's: a word they hold (tts, 48 times in speed-rounds) is not where to read of it
DEVELOPER_PAGES = ("architecture", "speed", "speed-rounds")
PAGES_NAMED = 3


def _pages_saying(word: str, pages: dict[str, Path]) -> str:
    """A topic that is no page but a word of them (``tts``, ``preflight``, ``dice``): the designer's pages
    that hold it most, and the command that opens the first at it; '' when none does."""
    import re
    import shlex

    from pnpgen.readme import readme

    word = word.strip()
    if not word:
        return ""
    found = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
    texts = {"readme": readme()[1], **{name: page.read_text(encoding="utf-8") for name, page in pages.items()
                                       if name not in DEVELOPER_PAGES}}
    counts = [(n, name) for n, name in sorted(((len(found.findall(text)), name) for name, text in texts.items()),
                                              key=lambda c: (-c[0], c[1]))[:PAGES_NAMED] if n]
    if not counts:
        return ""
    said = ", ".join(f"{name} ({n} time{'' if n == 1 else 's'})" for n, name in counts)
    return f"; {word!r} is in {said}: pnpgen docs {counts[0][1]} | less -i -p {shlex.quote(word)}"


def _title(text: str) -> str:
    """A page's first heading, its title."""
    return next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("# ")), "")


def _version() -> str:
    import pnpgen

    return pnpgen.__version__


def preflight(args: argparse.Namespace) -> int:
    """A print shop's preflight of export folders (pnpgen/preflight/): FOLDERs as given, with or
    without a workspace, or ``--game`` (and ``--preset``) in this workspace's build/."""
    from pnpgen.data.gamefiles import game_file
    from pnpgen.data.workspace import find_workspace
    from pnpgen.errors import InputError
    from pnpgen.preflight.run import export_folders, run
    from pnpgen.preflight.shop import Limits

    if args.folders and (args.game or args.preset or args.lang or args.out):
        raise InputError("an export FOLDER and --game/--preset/--lang/--out together",
                         expected="either the folders (build/<game>/<preset>) or --game G [--preset P]")
    if args.folders:
        folders = builtins.list(args.folders)
    elif args.game is None:
        raise InputError("no export to check" + (" (--preset without --game)" if args.preset else ""),
                         expected="--game G [--preset P], or an export folder: pnpgen preflight build/<game>/<preset>")
    else:
        ws = find_workspace()
        game = ws.game_named(args.game)
        game_file(ws, game)  # an unknown game named with the games there are
        lang = asked_language(ws, game, args.lang)
        here = Path.cwd().resolve()  # the folders said as from here, as a designer types them (a missing one too)
        root = Path(args.out or ws.root / "build")
        scratch.refuse_inside([(ws.root, "the workspace"), (root, "the output folder")])
        folders = export_folders(root.relative_to(here) if root.is_relative_to(here) else root, game, args.preset, lang)
    kept_apart = [(Path(f), "the export folder") for f in folders]
    for f in folders:  # (its workspace: build/<game>/<preset> in it)
        with contextlib.suppress(InputError, OSError):
            kept_apart.append((find_workspace(Path(f)).root, "the workspace"))
    scratch.refuse_inside(kept_apart)
    limits = Limits(args.ink_limit, args.min_line, args.min_ppi, args.min_text, args.min_ruby)
    return run(folders, limits, print_line, print_note,
               args.pages_png, args.json, args.quiet)
