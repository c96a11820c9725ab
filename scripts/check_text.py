#!/usr/bin/env python3
"""Check the typesetting of every text of every game: JLREQ rules, BudouX phrase breaks, glyphs,
icons, and the sizes the text boxes had to shrink to.

    python scripts/check_text.py [--game SLUG ...] [--no-render] [--no-drafts] [--min-size 7] [-v]

Exit status 1 when a violation or an error is found (text below --min-size is reported only).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))

from pnpgen import fonts  # noqa: E402
from pnpgen.data.workspace import find_workspace  # noqa: E402
from pnpgen.faces.textaudit import audit_drafts, audit_game  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--no-render", action="store_true", help="skip the templates: only sweep the texts")
    ap.add_argument("--no-drafts", action="store_true", help="skip the draft prose sweep")
    ap.add_argument("--min-size", type=float, default=7.0, help="report text boxes set below this size (pt)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every text box's size")
    args = ap.parse_args(argv)

    ws = find_workspace(ROOT)
    for name in fonts.DEFAULT_FONTS.values():
        fonts.register(name, ws.fonts)
    slugs = args.game or ws.slugs()
    total_v = total_e = 0
    for slug in slugs:
        r = audit_game(ws, slug, render=not args.no_render)
        small = [b for b in r.boxes if b.layout.lines and b.size < args.min_size - 1e-9]
        print(f"{slug}: {r.texts} texts, {len(r.boxes)} text boxes drawn, {r.sweeps} sweep layouts, "
              f"{len(r.violations)} violations, {len(r.errors)} errors, {len(r.warnings)} warnings, "
              f"{len(small)} boxes below {args.min_size:g} pt")
        sizes: dict[tuple[str, str], list[float]] = defaultdict(list)
        for b in r.boxes:
            if b.layout.lines:
                deck = b.where.split("'")[1] if "'" in b.where else b.where
                sizes[(deck, b.field or "(template text)")].append(b.size)
        for (deck, fld), ss in sorted(sizes.items()):
            if args.verbose or min(ss) < args.min_size:
                print(f"  {deck}.{fld}: {len(ss)} boxes, {min(ss):g}–{max(ss):g} pt")
        for b in small:
            print(f"  below {args.min_size:g} pt: {b.where} field {b.field!r} at {b.size:g} pt "
                  f"in {b.w:g}×{b.h:g} mm: {b.text[:40]!r}")
        for msg in r.errors + r.violations:
            print("  " + msg)
        for msg in r.warnings:
            print("  warning: " + msg)
        total_v += len(r.violations)
        total_e += len(r.errors)
    if not args.no_drafts:
        n, v = audit_drafts(ws)
        print(f"draft prose: {n} paragraph layouts, {len(v)} violations")
        for msg in v:
            print("  " + msg)
        total_v += len(v)
    print(f"total: {total_v} violations, {total_e} errors")
    return 1 if total_v or total_e else 0


if __name__ == "__main__":
    sys.exit(main())
