"""What each CLI command does, in terms of the pipeline stages."""

from __future__ import annotations

import argparse
import sys

import json

from pnpgen.build.game import BuildOptions, build_game
from pnpgen.build.output import build_lock, remove_stray_temps, write_all
from pnpgen.impose.grid import SheetOptions
from pnpgen.data.load import load_game
from pnpgen.data.model import is_placeholder
from pnpgen.data.workspace import Workspace


def _say(text: str) -> None:
    print(text, flush=True)


def _warn(text: str) -> None:
    print(f"pnpgen: warning: {text}", file=sys.stderr, flush=True)


def build(ws: Workspace, args: argparse.Namespace) -> int:
    sheet = SheetOptions(paper=args.paper, duplex=args.duplex, marks=args.marks, margin_mm=args.margin,
                         bleed_mm=args.bleed)
    options = BuildOptions(sheet=sheet, shop_bleed_mm=args.bleed, min_dpi=args.min_dpi)
    slugs = ws.slugs() if args.all else [args.game]
    out_root = args.out or ws.root / "build"
    results = [build_game(ws, slug, options) for slug in slugs]  # all succeed before anything is written
    files = {}
    for result in results:
        out_dir = out_root / result.game.slug
        if not args.no_rulebook:
            _add_rulebook(ws, result, out_dir, args)
        for rel, data in result.files.items():
            files[out_dir / rel] = data
        # the manifest only ever describes complete output: it is renamed with the rest
        files[out_dir / "manifest.json"] = (json.dumps(result.manifest, ensure_ascii=False, indent=2) + "\n").encode()
    with build_lock(out_root):
        remove_stray_temps(out_root)
        write_all(files)
    for result in results:
        out_dir = out_root / result.game.slug
        for w in result.warnings:
            _warn(w)
        _say(f"{result.game.slug}: {len(result.manifest['files'])} files in {out_dir}")
        for deck in result.records:
            _say(f"  {deck.id:<16} {deck.name}  ×{deck.count}  {deck.fit()}, {deck.sheets} sheet(s)")
    return 0


def _add_rulebook(ws: Workspace, result, out_dir, args: argparse.Namespace) -> None:
    """Build the game's rulebook beside its sheets and record it in the manifest."""
    game = result.game
    if not game.draft_file.is_file():
        result.warnings.append(f"{game.draft_file}: no draft text, so no rulebook was built "
                               "(add the draft there, or set draft_file in game.yaml)")
    else:
        book = _rulebook(ws, game, out_dir, args)
        files = [str(f.relative_to(out_dir)) for f in book.files]
        result.manifest["rulebook"] = {"files": files, "report": book.report}
        result.manifest["files"] = sorted(set(result.manifest["files"]) | set(files))
        result.warnings.extend(book.warnings)
    result.manifest["warnings"] = result.warnings


def _rulebook(ws: Workspace, game, out_dir, args: argparse.Namespace):
    """Typeset the draft as rulebook.pdf (A5) and rulebook-booklet.pdf (A4 saddle stitch)."""
    from pnpgen.rulebook import build_rulebook

    return build_rulebook(game, ws.fonts, out_dir, rules_only=args.rules_only, creep_mm=args.creep,
                          binding=args.binding)


def rulebook(ws: Workspace, args: argparse.Namespace) -> int:
    game = load_game(ws, args.game)
    out_dir = (args.out or ws.root / "build") / game.slug
    book = _rulebook(ws, game, out_dir, args)
    for w in book.warnings:
        _warn(w)
    for line in book.report:
        _say(f"  {line}")
    _say(f"{game.slug}: " + ", ".join(str(f) for f in book.files))
    return 0


def export(ws: Workspace, args: argparse.Namespace) -> int:
    from pnpgen.exports.export import ExportOptions, export_game, write_export

    options = ExportOptions(preset=args.preset, fit=args.fit, colour=args.colour, proof=args.proof,
                            base_url=args.base_url, decks=tuple(args.deck), out=args.out)
    result = export_game(ws, args.game, options)
    write_export(result)
    for w in result.warnings:
        _warn(w)
    _say(f"{args.game}: {len(result.files)} files in {result.out_dir}")
    return 0


def list(ws: Workspace, args: argparse.Namespace) -> int:  # noqa: A001 - the command's name
    for slug in ws.slugs():
        game = load_game(ws, slug)
        players = game.players if is_placeholder(game.players) else f"{game.players}人"
        _say(f"{slug}  {game.title}  草案{game.draft}  {players}")
        for deck in game.decks:
            _say(f"    {deck.id:<16} {deck.name}  ×{deck.count}  ({deck.kind}, {deck.shape} "
                 f"{deck.trim_mm[0]:g}×{deck.trim_mm[1]:g} mm)")
    return 0


def check(ws: Workspace, args: argparse.Namespace) -> int:
    slugs = [args.game] if args.game else ws.slugs()
    total = 0
    for slug in slugs:
        game = load_game(ws, slug)
        _say(f"{slug}: ok ({len(game.decks)} decks, {sum(d.count for d in game.decks)} pieces)")
        for deck in game.decks:
            seen = set()
            for where, field, text in deck.placeholders:
                if (str(where), text) in seen:
                    continue
                seen.add((str(where), text))
                _say(f"  {deck.id}: {where}: {field}: {text}")
                total += 1
            for piece in deck.pieces:
                if piece.count == 0:
                    _say(f"  {deck.id}: {piece.where}: {piece.label}: parked (count: 0, prints none)")
        for item in game.sourced:
            if item.note.startswith("未定"):
                _say(f"  sourced: {item.name} ×{item.count}: {item.note}")
                total += 1
    _say(f"{total} placeholder(s) to settle")
    return 0


def export_sheet(ws: Workspace, args: argparse.Namespace) -> int:
    """Write a deck's pieces to a spreadsheet, for designers moving their card list there."""
    from pnpgen.build.output import atomic_write_bytes
    from pnpgen.data.sheets import export_sheet as sheet_bytes
    from pnpgen.errors import InputError

    game = load_game(ws, args.game)
    try:
        deck = game.deck(args.deck)
    except KeyError:
        raise InputError(f"unknown deck {args.deck!r}", key="--deck",
                         expected="one of " + ", ".join(d.id for d in game.decks)) from None
    out = args.out or deck.source.with_suffix("." + args.format)
    if args.out is None and out.exists():
        raise InputError("already exists; not overwritten", path=out, expected="--out another file, or remove it")
    atomic_write_bytes(out, sheet_bytes(deck, args.format))
    _say(f"{deck.id}: {len(deck.pieces)} rows ({deck.count} pieces) in {out}")
    if out.resolve().parent == deck.source.resolve().parent:
        _say(f"  to use it, replace the deck's pieces: list with  pieces: {{file: {out.name}}}")
    return 0
