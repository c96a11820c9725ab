"""Faces of one game rendered over ``--jobs`` processes: the build's own and ``jobs - 1`` workers.

Each renders a run of pieces, in order: the build's process the first, as its face stage comes
to it; each worker another, returning what a render remembers (the SVG, the fields it read, its
warnings and image placements) into the render memo (faces/rendermemo.py ``RenderMemo``). The
face stage renders every face as it always does, in order, a worker's replayed from the memo
(waited for when first asked for) — so the faces, warnings, image placements and every byte
written are those of one process, whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pnpgen.data.art import Sizes
from pnpgen.data.load import max_dpi_of
from pnpgen.data.model import Game
from pnpgen.data.workspace import Workspace
from pnpgen.engine.fingerprint import content_hash
from pnpgen.engine.options import BuildOptions
from pnpgen.faces.face import Face
from pnpgen.faces.faceset import face_renderer
from pnpgen.faces.rendermemo import RenderMemo
from pnpgen.faces.templates import Renderer
from pnpgen.memo import Memo

MIN_FACES = 64  # fewer faces render faster than worker processes start
# The build's own run is this much longer than a worker's: a worker starts later (forked, the game
# pickled to it, its templates compiled), and the build's process replays the worker's faces after
# its own run. 1.25 until the thirty-fourth session: the build's process then rendered 0.72-0.98
# CPU-s against the worker's 0.54-0.77 (1,000 cards, ten builds: 0.19 more, median) and ended its
# face stage alone while the worker idled; at 1.0, 0.63-0.73 against 0.59-0.69 (six: 0.03-0.08
# more, about the worker's own start): docs/speed-rounds.md, editG.
OWN_SHARE = 1.0


@dataclass
class Workers:
    """The worker processes rendering a game's faces: how many faces they render (0: none, too
    few to be worth them) and ``close``, called once the face stage is done (or has failed)."""

    faces: int = 0
    pool: Any = None

    def close(self, done: bool = False) -> None:
        """Let the workers go: ``done``, every run taken (they end now, before the build forks
        anything else); else after a failure, without waiting for their faces."""
        if self.pool is not None:
            self.pool.shutdown(wait=done, cancel_futures=not done)
            self.pool = None


def prerender(ws: Workspace, game: Game, options: BuildOptions, renderer: Renderer, memo: RenderMemo,
              bleed_mm: float) -> Workers:
    """Hand the faces (first copies) the memo does not know to ``options.jobs`` renderers: this
    process renders the first run itself, as the face stage comes to it, while ``jobs - 1``
    workers render the others — it renders beside them rather than waiting for them, and has
    nothing of its own run to replay. The memo waits for a worker's run when the face stage
    first asks for one of its faces (``RenderMemo.arriving``)."""
    todo: list[tuple[int, int]] = []  # (deck number, piece number in the deck): both sides together
    keys: list[list[str]] = []  # the memo keys of its sides the memo does not know
    for d, deck in enumerate(game.decks):
        for p, piece in enumerate(deck.pieces):
            sides = [Face(deck, piece, s) for s in (["front", "back"] if deck.back else ["front"])]
            missing = [memo.key(face, renderer.bleed_of(deck)) for face in sides if not _known(memo, renderer, face)]
            if missing:
                todo.append((d, p))
                keys.append(missing)
    if options.jobs <= 1 or sum(map(len, keys)) < MIN_FACES:
        return Workers()
    from concurrent.futures import ProcessPoolExecutor

    n = min(options.jobs, len(todo))
    cuts = _cuts(len(todo), n)
    workers = Workers(sum(map(len, keys[cuts[1]:])), ProcessPoolExecutor(max_workers=n - 1))
    sizes = {**memo.sizes.memo.known, **memo.sizes.memo.learned} if memo.sizes is not None and memo.sizes.memo.learned else None
    futures = [workers.pool.submit(_render_run, (ws, game, options, memo.inputs, bleed_mm, renderer.deck_bleeds,
                                                 todo[cuts[i]:cuts[i + 1]], sizes)) for i in range(1, n)]

    from concurrent.futures.process import BrokenProcessPool

    def arrive(upto: int) -> Callable[[], None]:
        def wait() -> None:  # the runs up to this one, in order: the first failing face is the one reported
            while futures and len(futures) >= n - upto:
                try:
                    learned, sizes_learned = futures.pop(0).result()
                except BrokenProcessPool:  # a worker killed (a kill, the system short of memory): the faces not
                    futures.clear()        # learned yet are rendered here, as without workers (it ended in a traceback)
                    memo.arriving.clear()
                    workers.close()
                    return
                memo.learned.update(learned)
                if memo.sizes is not None:  # (what the worker found of its pictures: see-through, kept beside their sizes)
                    for key, value in sizes_learned.items():
                        memo.sizes.memo.learn(key, value)
                for key in learned:
                    memo.arriving.pop(key, None)
            if not futures:  # every run came: nothing more is arriving (a key a worker did not learn is rendered here)
                memo.arriving.clear()
                workers.close(done=True)
        return wait

    for i in range(1, n):
        wait = arrive(i)
        memo.arriving.update((key, wait) for missing in keys[cuts[i]:cuts[i + 1]] for key in missing)
    return workers


def _cuts(pieces: int, n: int) -> list[int]:
    """Where ``pieces`` are cut into ``n`` contiguous runs, in order: the first, this process's,
    ``OWN_SHARE`` times as long as each of the others."""
    whole = OWN_SHARE + n - 1
    return [0] + [round(pieces * (OWN_SHARE + i - 1) / whole) for i in range(1, n)] + [pieces]


def _known(memo: RenderMemo, renderer: Renderer, face: Face) -> bool:
    return renderer.replays(face, memo.known.get(memo.key(face, renderer.bleed_of(face.deck))))


def _render_run(job: tuple[Workspace, Game, BuildOptions, str, float, dict[str, float], list[tuple[int, int]],
                            dict[str, list] | None]) -> tuple[dict[str, Any], dict[str, list]]:
    """A worker: render the pieces of one run (both sides), return the memo entries, and the art
    sizes' entries it learned (``sizes``: the build's, by content hash)."""
    ws, game, options, inputs, bleed_mm, deck_bleeds, run, known_sizes = job
    sizes = Sizes(Memo(known=known_sizes), content_hash, learning=True) if known_sizes is not None else None
    memo = RenderMemo(inputs=inputs, digest=content_hash, sizes=sizes)  # an art file hashed once per worker, not per face
    renderer = face_renderer(ws.templates, game, bleed_mm, options.min_dpi, memo=memo, deck_bleeds=deck_bleeds,
                             max_dpi=max_dpi_of(options.max_dpi, game))
    for d, p in run:
        deck = game.decks[d]
        for side in (["front", "back"] if deck.back else ["front"]):
            renderer.render(Face(deck, deck.pieces[p], side))
    return memo.learned, sizes.memo.learned if sizes is not None else {}
