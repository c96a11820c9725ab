"""Benchmark: SVG face → PDF operators, svglib + renderPDF against pnpgen's own converter
(pnpgen.svg, drawn by pnpgen.pdf.draw), on every distinct face of every game. Run from the repo root:

    python bench/faces.py [--repeat 3]

Prints per game: distinct faces, milliseconds of CPU time for convert + draw each way (best of
the repeats, one canvas page per face, nothing saved; CPU time, as other work on the machine
skews wall-clock time), and the ratio. Goal: ours ≥ 10× faster.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "generator"))

from pnpgen.data.formats import BLEED_MM
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace, find_workspace
from pnpgen.faces.face import Face
from pnpgen.faces.faceset import face_renderer


def distinct_faces(ws: Workspace, slug: str) -> list[tuple[str, str, Callable[[str], bytes]]]:
    """(where, svg, resolve) for each distinct SVG a game's templates produce, in print order;
    ``resolve`` gives the bytes of the art files its ``<image>`` elements name."""
    game = load_game(ws, slug)
    renderer = face_renderer(ws.templates, game, BLEED_MM)
    seen: dict[str, str] = {}
    for deck in game.decks:
        for piece in deck.pieces:
            for copy in range(1, piece.count + 1):
                for side in ("front", "back") if deck.back else ("front",):
                    svg = renderer.render(Face(deck, piece, side, copy))
                    seen.setdefault(svg, f"{slug} {deck.id} {piece.index} {side}")
    resolve = renderer.art.folder.resolver(game.root)
    return [(where, svg, resolve) for svg, where in seen.items()]


def _svglib(faces) -> float:
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.pdf import settings
    from pnpgen.pdf.svglib_fallback import SvgConverter
    from pnpgen.svg.image import inline_images

    settings.flate_only()
    canvas = Canvas(io.BytesIO())
    converter = SvgConverter()
    inlined = [(where, inline_images(svg, resolve)) for where, svg, resolve in faces]
    start = time.process_time()
    for where, svg in inlined:
        renderPDF.draw(converter.drawing(svg, where), canvas, 0, 0, showBoundary=False)
        canvas.showPage()
    return time.process_time() - start


def _ours(faces) -> float:
    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.pdf import settings
    from pnpgen.pdf.draw import draw_art
    from pnpgen.svg import clear_caches, convert

    settings.flate_only()
    canvas = Canvas(io.BytesIO())
    clear_caches()  # a cold start, like svglib's fresh converter
    start = time.process_time()
    for where, svg, resolve in faces:
        draw_art(canvas, convert(svg, where, resolve))
        canvas.showPage()
    return time.process_time() - start


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    ws = find_workspace(Path(__file__).resolve().parents[1])
    rows = []
    for slug in ws.slugs():
        faces = distinct_faces(ws, slug)
        old = min(_svglib(faces) for _ in range(args.repeat))
        new = min(_ours(faces) for _ in range(args.repeat))
        rows.append((slug, len(faces), old, new))
    rows.append(("all games", sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows)))
    print(f"{'game':<24} {'faces':>5} {'svglib ms':>10} {'ours ms':>9} {'ratio':>7}")
    for slug, n, old, new in rows:
        print(f"{slug:<24} {n:>5} {old * 1000:>10.1f} {new * 1000:>9.1f} {old / new:>6.1f}×")


if __name__ == "__main__":
    main()
