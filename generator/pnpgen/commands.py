"""What each CLI command does, in terms of the pipeline stages."""

from __future__ import annotations

import argparse
import sys

from pnpgen.build.game import BuildOptions, build_game, write_result
from pnpgen.build.output import atomic_write_bytes
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
    options = BuildOptions(out=args.out, sheet=sheet, shop_bleed_mm=args.bleed)
    slugs = ws.slugs() if args.all else [args.game]
    out_root = args.out or ws.root / "build"
    results = [build_game(ws, slug, options) for slug in slugs]  # all succeed before anything is written
    for result in results:
        out_dir = out_root / result.game.slug
        if not args.no_rulebook:
            _add_rulebook(ws, result, args)
        write_result(result, out_dir)
        for w in result.warnings:
            _warn(w)
        _say(f"{result.game.slug}: {len(result.manifest['files'])} files in {out_dir}")
        for deck in result.manifest["decks"]:
            _say(f"  {deck['id']:<16} {deck['name']}  ×{deck['count']}  {_fit(deck)}, {deck['sheets']} sheet(s)")
    return 0


def _add_rulebook(ws: Workspace, result, args: argparse.Namespace) -> None:
    """Build the game's rulebook beside its sheets and record it in the manifest."""
    game = result.game
    if not game.draft_file.is_file():
        result.warnings.append(f"{game.draft_file}: no draft text, so no rulebook was built "
                               "(add the draft there, or set draft_file in game.yaml)")
    else:
        book = _rulebook(ws, game, args)
        result.files.update(book.files)
        files = sorted(book.files)
        result.manifest["rulebook"] = {"files": files, "report": book.report}
        result.manifest["files"] = sorted(set(result.manifest["files"]) | set(files))
        result.warnings.extend(book.warnings)
    result.manifest["warnings"] = result.warnings


def _fit(deck: dict) -> str:
    """How the deck sits on the paper, in a designer's words."""
    tiles = deck.get("tiles")
    if tiles:
        cols, rows = tiles["grid"]
        return f"{tiles['pages_per_piece']} page tiles each ({cols}×{rows}, {tiles['overlap_mm']:g} mm overlap)"
    return f"{deck['pieces_per_sheet']}/sheet ({deck['layout']})"


def _rulebook(ws: Workspace, game, args: argparse.Namespace):
    """Typeset the draft: rulebook.pdf (A5), rulebook-booklet.pdf (A4 saddle stitch), proof.txt."""
    from pnpgen.rulebook import build_rulebook, pictures_from_game

    return build_rulebook(game, ws.fonts, pictures=pictures_from_game(game, ws.templates),
                          rules_only=args.rules_only, creep_mm=args.creep, binding=args.binding)


def rulebook(ws: Workspace, args: argparse.Namespace) -> int:
    game = load_game(ws, args.game)
    out_dir = (args.out or ws.root / "build") / game.slug
    book = _rulebook(ws, game, args)
    for name, data in book.files.items():
        atomic_write_bytes(out_dir / name, data)
    for w in book.warnings:
        _warn(w)
    for line in book.report:
        _say(f"  {line}")
    _say(f"{game.slug}: " + ", ".join(str(out_dir / name) for name in book.files))
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
        for item in game.sourced:
            if item.note.startswith("未定"):
                _say(f"  sourced: {item.name} ×{item.count}: {item.note}")
                total += 1
    _say(f"{total} placeholder(s) to settle")
    return 0
