"""A game's documents written over ``--jobs`` worker processes.

Each document is written whole by one process, so its bytes are those one process writes,
whatever the number of workers. The pictures never travel: the build's process locates each
picture's stream in the cache first (``ImageStreams.stand_ins``), and the workers get the faces
with a short stand-in for each picture; what comes back is each document as parts
(pdf/assemble.py), its pictures still in the cache until the file is written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pnpgen.impose.plan import PagePlan
from pnpgen.pdf.assemble import PdfFile
from pnpgen.pdf.raster import ImageStreams, Placed
from pnpgen.pdf.writer import FaceStreams, write_pdf
from pnpgen.svg.artwork import Art

# Documents go to worker processes only when this many faces need drawing (faces neither drawn by
# the worker that converted them nor kept from an earlier build): pages alone cost the workers more
# in pickling than they save (measured, 2 cores: 1,000 illustrated cards' four documents 2.3 s in two
# workers, 0.9 s in one process; 10,000 text cards' 9.6 s against 4.7 s).
MIN_FACES = 500


def write_documents(todo: Mapping[str, PagePlan], arts: Mapping[str, Art], font: str, images: ImageStreams,
                    jobs: int, say: Callable[[str], None] = lambda s: None,
                    drawn: FaceStreams | None = None) -> dict[str, PdfFile]:
    """Each document of ``todo`` (by output path) as parts; over ``jobs`` workers when there is
    more than one document and ``MIN_FACES`` faces still to draw. ``drawn``: the faces and pages
    drawn already (by the workers that converted the faces, by earlier builds, by the last save)."""
    if jobs <= 1 or len(todo) < 2 or _faces_to_draw(todo, drawn) < MIN_FACES:
        out = {}
        if drawn is None:  # each face and page made into its stream once, for every document that shows it
            drawn = FaceStreams()
        for path, doc in todo.items():
            say(f"drawing {path}")
            out[path] = write_pdf(doc, arts, font, images=images, faces=drawn)
        return out
    slim, placed = images.stand_ins(arts)
    folder, stamp = images.folder, images.stamp
    groups = _groups(todo, jobs)
    with ProcessPoolExecutor(max_workers=len(groups)) as pool:
        futures = []
        for group in groups:
            docs = {path: todo[path] for path in group}
            faces = {k: slim[k] for doc in docs.values() for k in doc.faces() if k in slim}
            used = {it[1]: placed[it[1]] for art in faces.values() for it in art.items if it[0] == "image"}
            part, digests = None, []
            if drawn is not None:  # what earlier builds drew of these documents, and each page's digest
                digests = [[drawn.digests.get(id(page)) for page in doc.pages] for doc in docs.values()]
                part = drawn.part({drawn.names.get(k, k) for k in faces}, {d for ds in digests for d in ds if d})
            futures.append(pool.submit(_write_group, (docs, faces, font, used, folder, stamp, part, digests)))
        written: dict[str, PdfFile] = {}
        for future in futures:
            files, made, kept, seen = future.result()
            written.update(files)
            if drawn is not None:
                drawn.absorb(made, kept, seen)
    out = {}
    for path in todo:  # in the plan's order
        say(f"drawing {path}")
        out[path] = written[path]
    return out


def _faces_to_draw(todo: Mapping[str, PagePlan], drawn: FaceStreams | None) -> int:
    """How many faces the documents need drawn: those drawn already (by the workers that converted
    them, or by an earlier build) are placed as they are."""
    faces = {k for doc in todo.values() for k in doc.faces()}
    if drawn is None:
        return len(faces)
    return sum((drawn.names.get(k, k), False) not in drawn.made for k in faces)


def _groups(todo: Mapping[str, PagePlan], jobs: int) -> list[list[str]]:
    """The documents split into at most ``jobs`` groups of about as many pages, the longest
    placed first: each group is written by one worker, each face's stream made once for the
    group (a face drawn in one process per document was made four times)."""
    groups: list[list[str]] = [[] for _ in range(min(jobs, len(todo)))]
    pages = [0] * len(groups)
    for path in sorted(todo, key=lambda p: (-len(todo[p].pages), p)):
        i = pages.index(min(pages))
        groups[i].append(path)
        pages[i] += len(todo[path].pages)
    return [g for g in groups if g]


def _write_group(job: tuple[dict[str, PagePlan], dict[str, Art], str, dict[bytes, Placed], Path | None, str,
                             FaceStreams | None, list[list[bytes | None]]]
                 ) -> tuple[dict[str, PdfFile], dict, dict, set]:
    """A worker: some documents, each face's stream made once for all of them (or taken from what
    an earlier build drew), the pictures placed from the stand-ins; with the faces and pages it
    drew and used."""
    docs, arts, font, placed, folder, stamp, part, digests = job
    images = ImageStreams(folder, stamp, placed=placed)
    drawn = part or FaceStreams()
    if part is not None:
        drawn.for_build(part.names, {id(page): d for doc, ds in zip(docs.values(), digests)
                                     for page, d in zip(doc.pages, ds) if d is not None})
    files = {path: write_pdf(doc, arts, font, images=images, faces=drawn) for path, doc in docs.items()}
    return files, drawn.made, drawn.kept, drawn.used
