"""A game's documents written over ``--jobs`` worker processes.

Each document is written whole by one process, so its bytes are those one process writes,
whatever the number of workers. The pictures never travel: the build's process locates each
picture's stream in the cache first (``ImageStreams.stand_ins``), and the workers get the faces
with a short stand-in for each picture; what comes back is each document as parts
(pdf/assemble.py), its pictures still in the cache until the file is written. With the faces
drawn already (by the workers that converted them, or by an earlier build), the documents are
split in two: one half written by a process forked from the build's own, which finds everything
it needs in its copy of the build's memory (nothing is pickled to it), while the build's own
process writes the other.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from pnpgen.impose.plan import PagePlan
from pnpgen.pdf.assemble import PdfFile
from pnpgen.pdf.raster import ImageStreams, Placed
from pnpgen.pdf.streams import FaceStreams
from pnpgen.pdf.writer import write_pdf
from pnpgen.svg.artwork import Art

# Documents go to worker processes only when this many faces need drawing (faces neither drawn by
# the worker that converted them nor kept from an earlier build): pages alone cost the workers more
# in pickling than they save (measured, 2 cores: 1,000 illustrated cards' four documents 2.3 s in two
# workers, 0.9 s in one process; 10,000 text cards' 9.6 s against 4.7 s).
MIN_FACES = 500
# With the faces drawn, half the documents go to a forked process only when this many pages still
# need drawing (a cold build: all of them; an edit: the few that show what changed, and assembling
# the rest costs less than the fork: 1,000 cards' edit, 0.3 s more CPU in two processes).
MIN_PAGES = 500
# The forked child's streams are sent this many to a message (a page's or a face's: some 600 bytes
# pickled at 5,000 text cards).
STREAMS_A_PIECE = 1000


def write_documents(todo: Mapping[str, PagePlan], arts: Mapping[str, Art], font: str, images: ImageStreams,
                    jobs: int, say: Callable[[str], None] = lambda s: None,
                    drawn: FaceStreams | None = None,
                    ready: Callable[[str, PdfFile], None] = lambda path, pdf: None,
                    meanwhile: Callable[[], None] = lambda: None) -> dict[str, PdfFile]:
    """Each document of ``todo`` (by output path) as parts; over ``jobs`` workers when there is
    more than one document and ``MIN_FACES`` faces still to draw. ``drawn``: the faces and pages
    drawn already (by the workers that converted the faces, by earlier builds, by the last save).
    ``ready``: told of each document as it is made — in this process as each is written, a forked
    child's or the workers' as they come back — so its copy into the staging folder begins while
    the rest is drawn (engine/transaction.py ``Staging.early``). ``meanwhile``: work of this
    process that needs none of the documents, called once: after this process's own documents,
    while a forked child or the workers still draw theirs (in one process: after them all); what
    it raises is raised once the others' documents are in, theirs failing first, as in one process."""
    if jobs <= 1 or len(todo) < 2 or _few_faces_to_draw(todo, arts, drawn):
        if drawn is None:  # each face and page made into its stream once, for every document that shows it
            drawn = FaceStreams()
        drawn.expect(todo.values())  # (a writer's state kept only for a document going on from it)
        if jobs > 1 and len(todo) > 1 and _pages_to_draw(todo, drawn) >= MIN_PAGES and _can_fork():
            return _beside_a_fork(todo, arts, font, images, say, drawn, ready, meanwhile)
        out = {}
        for path, doc in todo.items():
            say(f"drawing {path}")
            out[path] = write_pdf(doc, arts, font, images=images, faces=drawn)
            ready(path, out[path])
        meanwhile()
        return out
    from concurrent.futures import ProcessPoolExecutor  # (multiprocessing: imported by a build that starts workers)

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
        failed = _failure_of(meanwhile)
        written: dict[str, PdfFile] = {}
        for future in futures:
            files, made, kept, seen = future.result()
            written.update(files)
            if drawn is not None:
                drawn.absorb(made, kept, seen)
    if failed is not None:
        raise failed
    out = {}
    for path in todo:  # in the plan's order
        say(f"drawing {path}")
        out[path] = written[path]
        ready(path, out[path])
    return out


def _beside_a_fork(todo: Mapping[str, PagePlan], arts: Mapping[str, Art], font: str, images: ImageStreams,
                   say: Callable[[str], None], drawn: FaceStreams, ready: Callable[[str, PdfFile], None],
                   meanwhile: Callable[[], None]) -> dict[str, PdfFile]:
    """The documents in two groups of about as much drawing (``_halves``): the first written by a
    process forked from this one, the second here meanwhile. The child returns its documents as
    parts and the faces and pages it drew (some ten MB for a thousand cards' four documents);
    every picture is located here first (``stand_ins``), so the child makes no stream that this
    process would not know of. A child that ends without answering leaves its documents to be
    written here."""
    theirs, ours = _halves(todo)
    if not ours:  # every document shows the pages of another: one process draws them once
        alone = {}
        for path, doc in todo.items():
            alone[path] = write_pdf(doc, arts, font, images=images, faces=drawn)
            ready(path, alone[path])
        meanwhile()
        return alone
    slim, _ = images.stand_ins(arts)
    sys.stdout.flush()  # (what is still buffered would be printed again by the child)
    sys.stderr.flush()
    import multiprocessing

    fork = multiprocessing.get_context("fork")
    answer, send = fork.Pipe(duplex=False)
    child = fork.Process(target=_write_forked, args=(send, {p: todo[p] for p in theirs}, slim, font, images, drawn),
                         daemon=True)
    child.start()
    send.close()
    try:
        out = {}
        for path in ours:
            say(f"drawing {path}")
            out[path] = write_pdf(todo[path], slim, font, images=images, faces=drawn)
            ready(path, out[path])  # copied while the child draws the others
        failed = _failure_of(meanwhile)
        try:
            for path, pdf in _answers(answer, drawn):  # (each document let go of here as it comes)
                out[path] = pdf
                ready(path, pdf)
        except EOFError:  # the child ended without its documents (killed): the rest written here
            for path in theirs:
                if path not in out:
                    out[path] = write_pdf(todo[path], slim, font, images=images, faces=drawn)
                    ready(path, out[path])
        if failed is not None:
            raise failed
    finally:
        answer.close()
        child.join()
    return {path: out[path] for path in todo}  # in the plan's order


def _failure_of(work: Callable[[], None]) -> Exception | None:
    """``work`` done; what it raised, to be raised later (a Ctrl-C is raised at once)."""
    try:
        work()
    except Exception as e:  # noqa: BLE001 - raised by the caller once the other documents are in
        return e
    return None


def _halves(todo: Mapping[str, PagePlan]) -> tuple[list[str], list[str]]:
    """The documents in two groups of about as many faces placed on pages drawn: documents that
    show the same pages (a deck's home sheets and the all-in-one file) stay together, as a page
    is drawn once for both; the larger group first. (1,000 cards: the home sheets and the
    all-in-one file, 4,000 faces on 447 pages, against the shop's two files, 6,000 on 6,000.)"""
    paths = list(todo)
    lead = list(range(len(paths)))  # each document's group, by its first document (a union-find)

    def find(i: int) -> int:
        while lead[i] != i:
            i = lead[i] = lead[lead[i]]
        return i

    shown: dict[int, int] = {}  # a page (by id) → a document showing it
    for i, path in enumerate(paths):
        for page in todo[path].pages:
            j = shown.setdefault(id(page), i)
            lead[find(i)] = find(j)
    groups: dict[int, list[str]] = {}
    for i, path in enumerate(paths):
        groups.setdefault(find(i), []).append(path)
    weights = []
    for group in groups.values():
        pages = {id(page): page for path in group for page in todo[path].pages}
        weights.append((sum(len(page.faces()) for page in pages.values()), group))
    halves: tuple[list[str], list[str]] = ([], [])
    sums = [0, 0]
    for weight, group in sorted(weights, key=lambda wg: (-wg[0], wg[1])):
        i = sums.index(min(sums))
        halves[i].extend(group)
        sums[i] += weight
    first, second = halves if sums[0] >= sums[1] else halves[::-1]
    return [p for p in todo if p in first], [p for p in todo if p in second]


def _write_forked(send, docs: dict[str, PagePlan], arts: Mapping[str, Art], font: str, images: ImageStreams,
                  drawn: FaceStreams) -> None:
    """The forked child: its documents, and the faces and pages it drew that the build's process
    had not (``FaceStreams.absorb``), or what went wrong — in pieces (``_answers``): each document,
    then the streams ``STREAMS_A_PIECE`` at a time, so the build's process never holds the whole
    answer twice (its pickled bytes beside what they unpickle to: at 5,000 text cards some 37 MB
    pickled, the build's peak)."""
    made, kept = dict(drawn.made.unpacked), dict(drawn.kept.unpacked)  # (the streams unpacked so far)
    drawn.used, drawn.checked = set(), set()  # (what it uses is sent back: each face and page checked here)
    try:
        files = {path: write_pdf(doc, arts, font, images=images, faces=drawn) for path, doc in docs.items()}
        for path in list(files):  # (each let go of here once sent)
            send.send(("file", (path, files.pop(path))))
        # the streams it made or unpacked (a record found malformed here: drawn again, sent back)
        for which, before in (("made", made), ("kept", kept)):
            new = [(k, v) for k, v in getattr(drawn, which).unpacked.items() if before.get(k) is not v]
            for at in range(0, len(new), STREAMS_A_PIECE):
                send.send((which, dict(new[at:at + STREAMS_A_PIECE])))
        send.send(("used", drawn.used))
    except BaseException as e:  # noqa: BLE001 - every failure is the build's to report
        send.send(("failed", e))
    finally:
        send.close()


def _answers(answer, drawn: FaceStreams) -> Iterator[tuple[str, PdfFile]]:
    """The forked child's documents as they come (``_write_forked``), its streams absorbed into
    ``drawn``; what went wrong in it raised. ``EOFError``: it ended without saying all."""
    while True:
        kind, what = answer.recv()
        if kind == "file":
            yield what
        elif kind == "made":
            drawn.absorb(what, {}, set())
        elif kind == "kept":
            drawn.absorb({}, what, set())
        elif kind == "used":
            drawn.absorb({}, {}, what)
            return
        else:
            raise what


def _can_fork() -> bool:
    """Whether processes start forked here (Linux). ``multiprocessing`` (some 5 ms of imports) is
    loaded by a build that has the pages to draw beside a fork, not by every build."""
    import multiprocessing

    return multiprocessing.get_all_start_methods()[0] == "fork"


def _pages_to_draw(todo: Mapping[str, PagePlan], drawn: FaceStreams) -> int:
    """How many distinct pages the documents need drawn: a page kept by an earlier build (by the
    digest of what it draws) is placed as it is."""
    pages = {id(page) for doc in todo.values() for page in doc.pages}
    return sum((drawn.digests.get(i), False) not in drawn.kept for i in pages)


def _few_faces_to_draw(todo: Mapping[str, PagePlan], arts: Mapping[str, Art], drawn: FaceStreams | None) -> bool:
    """Whether the documents need fewer than ``MIN_FACES`` faces drawn. Every face they show is
    one of ``arts``, so the game's faces are counted first and the pages walked only when that
    many of them are not drawn yet: an edit draws a handful of faces, and 3,000 cards' documents
    place 62,000 (four documents' pages walked for a count that ``arts`` bounds already)."""
    return _faces_to_draw(arts, drawn) < MIN_FACES \
        or _faces_to_draw({k for doc in todo.values() for k in doc.faces()}, drawn) < MIN_FACES


def _faces_to_draw(faces: Iterable[str], drawn: FaceStreams | None) -> int:
    """How many of ``faces`` need drawing: those drawn already (by the workers that converted
    them, or by an earlier build) are placed as they are."""
    if drawn is None:
        return len(set(faces))
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
    drawn.expect(docs.values())
    files = {path: write_pdf(doc, arts, font, images=images, faces=drawn) for path, doc in docs.items()}
    return files, drawn.made.unpacked, drawn.kept.unpacked, drawn.used  # (a part: every record unpacked)
