"""Faces of one game rendered over ``--jobs`` worker processes.

The workers fill the render memo (faces/templates.py ``RenderMemo``): each renders a run of
pieces, in order, and returns what a render remembers (the SVG, the fields it read, its
warnings and image placements). The build then renders every face as it always does, in
order, in its own process, each one replayed from the memo — so the faces, warnings, image
placements and every byte written are those of one worker, whatever the number of workers.
"""

from __future__ import annotations

from typing import Any

from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.engine.fingerprint import content_hash
from pnpgen.engine.options import BuildOptions
from pnpgen.faces.faceset import face_renderer
from pnpgen.faces.templates import Face, Renderer, RenderMemo

MIN_FACES = 64  # fewer faces render faster than worker processes start


def prerender(ws: Workspace, game: Game, options: BuildOptions, renderer: Renderer, memo: RenderMemo,
              bleed_mm: float) -> int:
    """Render over ``options.jobs`` workers the faces (first copies) the memo does not know;
    returns how many were rendered there (0 when too few to be worth the workers)."""
    todo: list[tuple[int, int]] = []  # (deck number, piece number in the deck): both sides together
    faces = 0
    for d, deck in enumerate(game.decks):
        for p, piece in enumerate(deck.pieces):
            sides = ["front", "back"] if deck.back else ["front"]
            missing = [s for s in sides if not _known(memo, renderer, Face(deck, piece, s))]
            if missing:
                todo.append((d, p))
                faces += len(missing)
    if options.jobs <= 1 or faces < MIN_FACES:
        return 0
    from concurrent.futures import ProcessPoolExecutor

    n = min(options.jobs, len(todo))
    runs = [todo[len(todo) * i // n:len(todo) * (i + 1) // n] for i in range(n)]  # contiguous, in order
    jobs = [(ws, game, options, memo.inputs, bleed_mm, renderer.deck_bleeds, run) for run in runs]
    with ProcessPoolExecutor(max_workers=n) as pool:
        for learned in pool.map(_render_run, jobs):  # in order: the first failing face is reported
            memo.known.update(learned)
            memo.learned.update(learned)
    return faces


def _known(memo: RenderMemo, renderer: Renderer, face: Face) -> bool:
    known = memo.known.get(memo.key(face, renderer.bleed_of(face.deck)))
    return isinstance(known, dict) and known.get("deck_count", renderer.deck_count(face.deck)) \
        == renderer.deck_count(face.deck) and memo.fresh(known, renderer.art.folder)


def _render_run(job: tuple[Workspace, Game, BuildOptions, str, float, dict[str, float], list[tuple[int, int]]]) -> dict[str, Any]:
    """A worker: render the pieces of one run (both sides), return the memo entries."""
    ws, game, options, inputs, bleed_mm, deck_bleeds, run = job
    memo = RenderMemo(inputs=inputs, digest=content_hash)  # an art file hashed once per worker, not per face
    renderer = face_renderer(ws.templates, game, bleed_mm, options.min_dpi, memo=memo, deck_bleeds=deck_bleeds)
    for d, p in run:
        deck = game.decks[d]
        for side in (["front", "back"] if deck.back else ["front"]):
            renderer.render(Face(deck, deck.pieces[p], side))
    return memo.learned
