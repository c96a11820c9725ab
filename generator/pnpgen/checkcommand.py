"""``pnpgen check``: every face rendered as a build would, writing nothing (but with --svg, each
face's SVG as its template made it); the problems, warnings and 未定 placeholders listed. Apart
from commands.py because it reads a game and says what a build would meet without building."""

from __future__ import annotations

import argparse

from pnpgen.commands import asked_language, print_line, print_warning
from pnpgen.data.workspace import Workspace


def check_options(ws: Workspace, args: argparse.Namespace):
    """What ``check`` places the decks with: the default sheets, for ``--printer``'s profile, as
    a sleeve build's for ``--sleeve``."""
    from dataclasses import replace

    from pnpgen.data.printers import load_printer
    from pnpgen.engine.options import BuildOptions

    dpi = {"min_dpi": args.min_dpi} if getattr(args, "min_dpi", None) is not None else {}  # None: --min-dpi not given
    options = BuildOptions(lang=args.lang, **dpi)
    sleeve = getattr(args, "sleeve", None)
    if sleeve is not None:  # the decks as a sleeve build places them: its cards fronts only
        options = replace(options, sheet=replace(options.sheet, layout="sleeve", sleeve_mm=(sleeve.w, sleeve.h)))
    if getattr(args, "printer", None) is None:  # (--printer "": refused by load_printer)
        return options
    printer = load_printer(ws.root, args.printer)
    duplex = printer.duplex or options.sheet.duplex
    sheet = replace(options.sheet, paper=printer.paper or options.sheet.paper, duplex=duplex,
                    **printer.sheet_fields(duplex))
    return replace(options, sheet=sheet, printer=printer)


def check(ws: Workspace, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from pnpgen.data.load import load_game
    from pnpgen.data.model import is_placeholder, open_value_said, open_values_once
    from pnpgen.engine.cache import Cache
    from pnpgen.engine.check import check_faces
    from pnpgen.engine.output import claim, no_folder
    from pnpgen.messages import counted
    from pnpgen.text.box import known_icons

    slugs = [args.game] if args.game else ws.slugs()
    _svg_options(args)
    note = (lambda text: None) if args.quiet else print_line  # -q: only the problems and warnings
    total = problems = 0
    # the build folder a build wrote (--out, as the build was given it): its cache spares what has not
    # changed (check --out was refused without --svg, so a build made with --out was read from nothing)
    if args.out is not None:  # (an --out a build refuses, / or ~ …: refused with the build's words, not read "ok")
        claim(args.out, ws.input_folders, ws.root)
    stands = no_folder(args.out or ws.root / "build")
    if stands is not None:  # (a file named build: check said ok, the build stopped at it)
        raise stands
    cache = Cache(args.out or ws.root / "build")
    cache.refuse_links()  # (its records were read through a link in it, from outside the workspace: as a build refuses)
    for slug in slugs:
        game = load_game(ws, slug, lang=args.lang)
        _chosen_faces(game, args)  # (a --deck or --piece that is not there: told before any "ok")
        faces = check_faces(ws, game, check_options(ws, args), cache)
        pieces = (f"{counted(len(game.decks), 'deck')}, {counted(sum(d.count for d in game.decks), 'piece')}, "
                  f"{counted(faces.faces, 'face')}")
        if faces.problems or faces.warnings or not args.quiet:
            print_line(ws.shown(f"{slug}: {'ok' if not faces.problems else 'would not build'} ({pieces})"))
        # the icons known, said once under the problems when two or more are unknown icons (each
        # line repeated the whole list)
        icons = [known for p in faces.problems if (known := known_icons(p.error))]
        for p in faces.problems:
            more = f" — and {counted(p.faces - 1, 'more face')} the same way" if p.faces > 1 else ""
            said = str(replace(p.error, expected="an icon listed below") if len(icons) > 1 and known_icons(p.error)
                       else p.error)
            if p.every:  # one template's mistake in every face it draws: its file named once, no piece
                said = said.replace(f" (rendering {p.first})", "", 1)
                more = f" — in every face drawn by {ws.shown(p.every)} ({counted(p.faces, 'face')})"
            if p.also:  # the same character in other pieces' texts: where, the first few
                more += " (" + ", ".join(dict.fromkeys(p.also[:5])) + (", …" if len(p.also) > 5 else "") + ")"
            print_line(ws.shown(f"  error: {said}{more}"))
        if len(icons) > 1:
            print_line(f"  icons known: {icons[0]}")
        problems += len(faces.problems)
        if args.svg:
            _write_svgs(ws, args, game, faces, note)
        for w in faces.warnings:
            print_line(ws.shown(f"  warning: {w}"))
        if faces.rule_sheet:  # its sides, as the build's summary will say them (more than two: warned above)
            note(f"  {faces.rule_sheet}")
        for line in game.translations.warnings:
            note(ws.shown(f"  translation: {line}"))
            total += 1
        opens = open_values_once(game.decks)  # each once, with the decks that print it (a shared sheet's row)
        printed_by: dict[tuple[str | None, str], list[str]] = {}  # a source deck's piece → the deck lists that print it
        for deck in game.decks:
            for piece in deck.pieces if deck.listed is not None else ():
                for source in deck.listed or () if piece.count else ():  # (a row is its worksheet's: one source's)
                    printed_by.setdefault((source, str(piece.where)), []).append(deck.id)
        for deck in game.decks:
            for found in (found for found in opens if found.decks[0] is deck):  # said with the first deck that prints it
                more = (f" — and {counted(len(found.fields) - 1, 'more piece')} from the same line"
                        if len(found.fields) > 1 else "")
                note(ws.shown(f"  {', '.join(d.id for d in found.decks)}: {found.where}: {found.fields[0]}: "
                              f"{open_value_said(found.text, 'en', game.lang)}{more}"))
                total += 1
            parked = [piece for piece in deck.pieces if piece.count == 0]  # each named, up to PARKED_NAMED
            for piece in parked[:PARKED_NAMED]:
                by = printed_by.get((deck.id, str(piece.where)), [])  # deck lists (from: this deck) printing it all the same
                at = piece.count_where or piece.where  # (a list's 0 is at its entry in the list, not the sheet's row)
                note(ws.shown(f"  {deck.id}: {at}: {piece.label}: parked (count: 0, prints none"
                              + (f"; {', '.join(by)} {'prints' if len(by) == 1 else 'print'} it)" if by else ")")))
            if len(parked) > PARKED_NAMED:  # (a starter deck reading a whole card sheet parks most of it)
                note(f"  {deck.id}: and {counted(len(parked) - PARKED_NAMED, 'more piece')} parked")
        for item in game.sourced:
            if is_placeholder(item.note):
                note(ws.shown(f"  sourced: {item.name} ×{item.count}: {item.note}"))
                total += 1
        if is_placeholder(game.players):  # an open value of game.yaml's as of the decks' (pnpgen new writes it)
            note(ws.shown(f"  game: {game.options.get('players_at', 'game.yaml')}: players: {game.players}"))
            total += 1
        for line in faces.draft_open:  # the rules' 未定 proof.txt lists, which the book prints
            note(ws.shown(f"  rulebook: {line}"))
        total += faces.draft_open_count  # every line, past the ones listed
    note(f"{total} to settle (placeholders and missing translations)" if args.lang
         else f"{counted(total, 'placeholder')} to settle")
    if problems:
        print_line(ws.shown(f"{counted(problems, 'problem')} a build would stop at"))
        return 2
    return 0


PARKED_NAMED = 10  # parked pieces `check` names one by one per deck; the rest are counted on one line


def deck_of(game, deck_id: str):
    """The game's deck ``deck_id`` (``--deck``), or the error naming the nearest and every deck."""
    from pnpgen.errors import InputError, suggest
    try:
        return game.deck(deck_id)
    except KeyError:
        raise InputError(f"unknown deck {deck_id!r}{suggest(deck_id, [d.id for d in game.decks])}", key="--deck",
                         expected="one of " + ", ".join(d.id for d in game.decks)) from None


def _svg_options(args: argparse.Namespace) -> None:
    """``check``'s --deck and --piece choose what --svg writes: without it, or --piece without --deck, they are told
    (--out is the build folder check reads, with --svg or without)."""
    from pnpgen.errors import InputError
    for name in ("deck", "piece"):
        if getattr(args, name) is not None and not args.svg:
            raise InputError(f"--{name} chooses what --svg writes, and --svg is not given", key=f"--{name}",
                             expected=f"pnpgen check --game GAME --svg --{name} …, or no --{name}")
    if args.piece is not None and args.deck is None:
        raise InputError("--piece is a piece's place in one deck, and no --deck is given", key="--piece",
                         expected="pnpgen check --game GAME --svg --deck DECK --piece N")
    if args.deck is not None and not args.game:
        raise InputError("--deck names a deck of one game, and no --game is given", key="--deck",
                         expected="pnpgen check --game GAME --svg --deck DECK")


def _chosen_faces(game, args: argparse.Namespace):
    """The deck ``check --svg --deck`` names (None without one), its --piece checked to be in it: told
    before the game's line says it is ok."""
    from pnpgen.errors import InputError
    from pnpgen.messages import counted
    if args.deck is None:
        return None
    deck = deck_of(game, args.deck)
    if args.piece is not None and args.piece > len(deck.pieces):
        raise InputError(f"deck {deck.id!r} holds {counted(len(deck.pieces), 'piece')}, no piece {args.piece}",
                         key="--piece", expected=f"a number from 1 to {len(deck.pieces)}")
    return deck


def _write_svgs(ws: Workspace, args: argparse.Namespace, game, faces, note) -> None:
    """``check --svg``: the faces' SVGs written into ``<out>/<game>/[<lang>/]svg/``, with their record."""
    from pnpgen.engine.clean import svg_files
    from pnpgen.engine.output import build_lock, claim, mark
    from pnpgen.engine.transaction import commit
    from pnpgen.faces.svgfiles import face_files
    from pnpgen.messages import counted

    drawn, scope = [(*d, copy) for d, copy in zip(faces.drawn, faces.copies, strict=True)], ""
    if args.deck is not None:
        deck = _chosen_faces(game, args)
        drawn = [d for d in drawn if d[0].id == deck.id and (args.piece is None or d[1].index == args.piece)]
        scope = f"{deck.id}/" + (f"{args.piece:03d}" if args.piece is not None else "")
    out_root = args.out or ws.root / "build"
    claim(out_root, ws.input_folders, ws.root)
    lang = asked_language(ws, game.slug, args.lang) or ""  # (the game's own language: its plain folder)
    out_dir = out_root / game.slug / lang / "svg"
    files = face_files(drawn, faces.svgs, faces.art, out_dir)
    with build_lock(out_root):
        plan = svg_files(out_root, out_dir, game.slug, lang, files, scope)
        commit(out_root, plan.files | mark(out_root, ws.root), plan.stale)
    for name in plan.strangers:
        print_warning(ws.shown(f"{out_dir / name}: not written by pnpgen (a file or link of yours): left as it is"))
    note(ws.shown(f"  svg: {counted(len(files) - len(plan.strangers), 'face')} in {out_dir}"
                  + (f", {counted(len(plan.stale), 'earlier one')} removed" if plan.stale else "")))
