"""Convert a build's distinct faces (SVG → vector art), each once, in worker processes when the
machine has cores to spare. Results come back in key order, so output never depends on timing."""

from __future__ import annotations

import io
import os
import re
import sys
from collections import deque
from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, cast

from pnpgen.data.picturebytes import picture_hash
from pnpgen.errors import InputError, place
from pnpgen.faces.faceset import FaceSet
from pnpgen.faces.failure import one_line
from pnpgen.patterns import later
from pnpgen.pdf.draw import draw_art
from pnpgen.pdf.imagestream import piece_hashes
from pnpgen.pdf.raster import STAND_IN
from pnpgen.pdf.streams import FaceStream, face_stream
from pnpgen.svg import convert
from pnpgen.svg.artwork import Art, ArtRecord

CHUNK = 8  # faces sent to a worker at a time


def convert_face(job: tuple[str, str, str, Any]) -> Art:
    """One face's art. Whatever goes wrong is the template's error, named by its file and the
    deck and piece (an InputError pickles whole, so it crosses the worker pool intact); a face
    svglib draws is drawn once here, so its errors surface now, not while a document is written."""
    svg, where, template, art_folder = job
    try:
        art = convert(svg, where, resolve=art_folder.resolver(where))
        if art.fallback is not None:
            from reportlab.pdfgen.canvas import Canvas

            scratch = Canvas(io.BytesIO())
            draw_art(scratch, art)
            scratch.save()  # ReportLab writes some values (shadings) only when the file is saved
        return art
    except InputError as e:
        picture = _PICTURE.search(e.message)
        if picture and e.path is None:  # the SVG picture's own file, and the line of it at fault
            try:
                e.path = art_folder.find(picture.group(1), where, "href", in_templates=True)
                e.line = int(picture.group(2)) if picture.group(2) else None
            except InputError:
                pass
        raise face_error(e.message, where, template, e) from None
    except Exception as e:  # noqa: BLE001 - anything the SVG makes a library raise
        said = " ".join(str(e).split())[:200] or "the converter stopped"
        raise face_error(f"cannot convert the face ({said})", where, template) from None


def convert_chunk(jobs: list[tuple[str, str, str, Any]], draw: bool = False,
                  own: frozenset[str] = frozenset(), read: Callable[[Art], Any] | None = None,
                  wanted: tuple[bool, ...] = ()) -> list[Converted]:
    """A few faces' art, converted in one worker (one round trip for ``CHUNK`` faces); with
    ``draw``, each also drawn into its form's content (``face_stream``) and written as the cache
    keeps it (``ArtRecord``), there, on the worker's core, instead of in the process that settles
    the faces and writes the documents. A picture whose key is in ``own`` (an art file as it is)
    travels back as a stand-in (``STAND_IN`` + its key): the settling process places it from its
    file, so a thousand cards' pictures are not sent back through a pipe. ``read``: what else the
    caller wants of the faces ``wanted`` marks while their pictures are at hand (``Converted.read``)."""
    arts = [convert_face(job) for job in jobs]
    reads = [read(art) if read is not None and want else None for art, want in zip(arts, wanted or (False,) * len(arts))]
    if not draw:
        return [Converted(art, read=found) for art, found in zip(arts, reads)]
    out = []
    for art, found in zip(arts, reads):
        record = ArtRecord.of(art)
        stream = _without_pictures(face_stream(art, False, _picture_key))
        out.append(Converted(_standing_in(art, record.pictures, own), stream, record, _pieces(art, record.pictures, own),
                             found))
    return out


def _pieces(art: Art, keys: Sequence[str], own: frozenset[str]) -> dict[str, list[str]]:
    """The pieces' hashes (``piece_hashes``) of each picture of ``art`` sent back as a stand-in
    (``keys``: its pictures' keys, in order), hashed here, on the worker's core."""
    pictures = (it[1] for it in art.items if it[0] == "image")
    found = {key: piece_hashes(data) for key, data in zip(keys, pictures, strict=True) if key in own}
    return {key: shas for key, shas in found.items() if shas is not None}


def _standing_in(art: Art, keys: Sequence[str], own: frozenset[str]) -> Art:
    """``art`` with each picture in ``own`` (``keys``: its pictures' keys, in order) as a stand-in."""
    if not own or not keys:
        return art
    named = iter(keys)
    items = [("image", STAND_IN + key.encode("ascii"), *it[2:]) if it[0] == "image" and (key := next(named)) in own
             else it for it in art.items]
    return replace(art, items=tuple(items))


@dataclass(frozen=True)
class Converted:
    """A face converted: its art, and (from a worker) its form's content and its cache record."""

    art: Art
    stream: FaceStream | None = None
    record: ArtRecord | None = None
    pieces: Mapping[str, list[str]] | None = None  # picture key → the hashes of the pieces it is copied in
    read: Any = None  # what ``convert_faces``' ``read`` found of the face in the worker


def _without_pictures(stream: FaceStream) -> FaceStream:
    """The stream naming its pictures by key only: their bytes travel once, in the art (the
    process that settles the face puts its own stand-ins back: ``FaceStream.showing``)."""
    return replace(stream, content=replace(stream.content, pictures=dict.fromkeys(stream.content.pictures, b"")))


def _picture_key(data: bytes) -> str:
    """A picture's key as the writer names it (pdf/raster.py ``ImageStreams.key``): its SHA-256."""
    return picture_hash(data)


def face_error(message: str, where: str, template: str, e: InputError | None = None) -> InputError:
    """The error of a face as one line: the template file, the deck and piece, and what is wrong;
    a file the error names besides (an art file) is kept in the message."""
    if where not in message:
        message = f"{where}: {message}"
    if e is not None and e.path is not None and str(e.path) != where:
        message += f" ({place(e.path, e.line, e.column)})"
    # the element's template line, where the converter knows it, goes in front: templates/x.svg.j2:8
    at = _WRITTEN_AT.search(message)
    line = int(at.group(1)) if at and template and template.endswith(at.group(2)) else None
    if at and line is None and template and not at.group(2).startswith("common/"):  # a frame it extends or includes
        shared = _beside(template, at.group(2))
        if shared is not None:  # told at the shared template's line, where the designer mends it for every face
            template, line = shared, int(at.group(1))
    if at and line is None and template and at.group(2).startswith("common/"):  # drawn by a built-in macro
        line = _calling_line(template, message)
    if line is None and template and _PICTURE.search(message):  # an <image> image() wrote: the line calling it
        line = _calling_line(template, "image(")
        if line is not None:  # (not pnpgen's line the group around it was written on)
            message = re.sub(r" \(line \d+ of the SVG, written at line \d+ of common/[^)]*\)", "", message)
    # a built-in layout's face (no template) wrote no href: its picture is the piece's, named in the message
    key = e.key if e and (template or e.key != "href") else None
    return InputError(one_line(message), path=template or None, line=line, key=key, expected=e.expected if e else None)


_PICTURE = later(r"shows '([^']+)', an SVG picture(?:[^(]*\(<textPath[^>]*> at line (\d+) of the picture\))?")
_WRITTEN_AT = later(r"written at line (\d+) of ([^\s,)]+)")  # svg/__init__.py Converter._name
_VALUE = later(r"has [\w:-]+=(['\"])(.+?)\1")  # the value an element's error quotes: fill='stom'


def _beside(template: str, name: str) -> str | None:
    """The file of the template ``name`` (as templates/ names it: ``ironroot/_frame.svg.j2``) in the
    templates folder holding the face's ``template``, when it is there (looked for no higher than
    that ``templates/`` folder)."""
    for folder in Path(template).parents:
        candidate = folder / name
        if candidate.is_file():
            return str(candidate)
        if folder.name == "templates":
            break
    return None


def _calling_line(template: str, message: str) -> int | None:
    """The one line of the face's template that writes the quoted value the error names, in quotes
    (m.badge(1, x, y, r, "stom") for a circle's fill='stom' in pnpgen's macros), or that calls
    the helper ``message`` names (``image(``), else None."""
    value = _VALUE.search(message)
    if value is None and not message.endswith("("):
        return None
    try:
        text = Path(template).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    said = value.group(2) if value is not None else None
    lines = [n for n, t in enumerate(text.splitlines(), 1)
             if (f'"{said}"' in t or f"'{said}'" in t if said is not None else re.search(rf"\b{re.escape(message)}", t))]
    return lines[0] if len(lines) == 1 else None


MIN_FACES = 64  # fewer faces convert faster than worker processes start


def converts_in_workers(faces: FaceSet, known: Mapping[str, Art] | None, jobs: int) -> bool:
    """Will ``convert_faces`` convert in worker processes (its caller may work beside them)?"""
    return jobs > 1 and sum(k not in (known or {}) for k in faces.svgs) > MIN_FACES


def convert_faces(faces: FaceSet, art_folder, jobs: int = 1, known: dict[str, Art] | None = None,
                  settle: Callable[[str, Converted], Art] | None = None,
                  forked: Callable[[], None] | None = None, own: frozenset[str] = frozenset(),
                  read: Callable[[Art], Any] | None = None, read_keys: frozenset[str] = frozenset()) -> dict[str, Art]:
    """Art for every face of ``faces``; ``known`` (e.g. from the cache) is reused, not converted.
    ``art_folder`` (data/art.py ArtFolder) resolves the ``<image>`` files faces name. ``settle``
    takes each new face as it comes, in key order (e.g. to store it and let go of its pictures'
    bytes, so a build never holds every picture at once), with its form's content and its cache
    record when a worker converted it (made there, on the worker's core: ``convert_chunk``).
    ``forked`` is called once the worker processes are running (the caller may start a thread
    then: not before, a fork must not copy a lock another thread holds). ``own``: the keys of the
    pictures ``settle`` can place from their art files, which workers send back as stand-ins.
    ``read`` (a picklable function of a face's art): run in the workers on the faces of
    ``read_keys`` they convert, while their pictures are there, its answer handed to ``settle``
    (``Converted.read``); a face converted in this process is not read (the caller reads it when
    it needs to)."""
    arts = dict(known or {})
    todo = sorted(k for k in faces.svgs if k not in arts)
    jobs_list = [(faces.svgs[k], faces.where[k], faces.template.get(k, ""), art_folder) for k in todo]
    keep = settle or (lambda k, converted: converted.art)
    if converts_in_workers(faces, arts, jobs):
        chunks = [jobs_list[i:i + CHUNK] for i in range(0, len(jobs_list), CHUNK)]
        wanted = [tuple(k in read_keys for k in todo[i:i + CHUNK]) for i in range(0, len(todo), CHUNK)]
        work = partial(convert_chunk, draw=settle is not None, own=own, read=read)
        results = (_forked if can_fork() else _pooled)(work, chunks, wanted, jobs, forked)
        try:
            for at in range(0, len(todo), CHUNK):
                try:
                    done = next(results)
                except InputError as e:
                    raise _first_failing(faces, arts, art_folder, e) from None
                for j, k in enumerate(todo[at:at + CHUNK]):
                    if done is not None:
                        converted = done[j]
                    else:  # its worker ended without it (killed): converted here, as in one process
                        try:
                            converted = Converted(convert_face(jobs_list[at + j]))
                        except InputError as e:
                            raise _first_failing(faces, arts, art_folder, e, k) from None
                    arts[k] = keep(k, converted)
        finally:
            results.close()  # (the workers let go of, whatever happened)
    else:
        for k, job in zip(todo, jobs_list):
            try:
                converted = Converted(convert_face(job))
            except InputError as e:
                raise _first_failing(faces, arts, art_folder, e, k) from None
            arts[k] = keep(k, converted)
    return arts


Chunks = list[list[tuple[str, str, str, Any]]]
Work = Callable[..., list[Converted]]


def can_fork() -> bool:
    """Whether processes start forked here (Linux): the workers then find the faces to convert in
    their copy of this process's memory. ``multiprocessing`` (some 5 ms of imports) is loaded only
    by a build that starts workers."""
    import multiprocessing

    return multiprocessing.get_all_start_methods()[0] == "fork"


def _forked(work: Work, chunks: Chunks, wanted: list[tuple[bool, ...]], jobs: int,
            forked: Callable[[], None] | None) -> Generator[list[Converted] | None, None, None]:
    """Each chunk converted (``work``), in order, by ``jobs`` processes forked from this one: each
    finds the chunks in its copy of this process's memory and takes the next one's number from a
    pipe they share, a few ahead of the one settled (converted faces hold their pictures until
    settled); only the converted faces travel, through each worker's own pipe. A worker ended
    without answering (killed): the chunks not in yet are None (converted by the caller)."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    fork = multiprocessing.get_context("fork")
    sys.stdout.flush()  # (what is still buffered would be printed again by a child)
    sys.stderr.flush()
    n = min(jobs, len(chunks))
    take, give = os.pipe()  # chunk numbers, 4 bytes each (a write that small is whole, a read of 4 gets one)
    answers, children = [], []
    given, finished = 0, False

    def give_upto(upto: int) -> None:
        nonlocal given
        while given < min(upto, len(chunks)):
            os.write(give, given.to_bytes(4, "little"))
            given += 1

    try:
        for _ in range(n):
            answer, send = fork.Pipe(duplex=False)
            answers.append(answer)
            child = fork.Process(target=_convert_forked, args=(send, take, give, list(answers), work, chunks, wanted),
                                 daemon=True)
            child.start()
            children.append(child)
            send.close()
        os.close(take)
        take = -1
        give_upto(2 * n + 1)
        if forked is not None:
            forked()
        came: dict[int, list[Converted]] = {}
        waiting = list(answers)
        for i in range(len(chunks)):
            if waiting:
                give_upto(i + 2 * n + 1)
            while i not in came and waiting:
                for ready in wait(waiting):
                    try:
                        ok, at, found = cast(Connection, ready).recv()
                    except EOFError:  # a worker ended without its chunk (a kill, the system short of memory):
                        waiting = []  # the chunks not in yet are converted here
                        for child in children:
                            child.terminate()
                        break
                    if not ok:
                        raise found
                    came[at] = found
            finished = i == len(chunks) - 1 and bool(waiting)  # (every chunk in: the workers wait for a number)
            yield came.pop(i, None)
    finally:
        for fd in (take, give):
            if fd >= 0:
                os.close(fd)  # (no number left: the workers end)
        for answer in answers:
            answer.close()
        for child in children:
            if not finished:  # (a failure, a worker gone: what they are still converting is not wanted)
                child.terminate()
            child.join()


def _convert_forked(send, take: int, give: int, theirs: list, work: Work, chunks: Chunks,
                    wanted: list[tuple[bool, ...]]) -> None:
    """A forked worker: the chunk of each number it takes converted, sent back as it is done, until
    the numbers end; or what went wrong. ``give`` and ``theirs`` (the build's ends of the pipes
    forked so far, its own too) are closed here first — held, a worker whose build was killed would
    wait for a number or to send for ever (pnpgen/children.py)."""
    os.close(give)
    for answer in theirs:
        answer.close()
    try:
        while len(number := os.read(take, 4)) == 4:
            at = int.from_bytes(number, "little")
            send.send((True, at, work(chunks[at], wanted=wanted[at])))
    except BaseException as e:  # noqa: BLE001 - every failure is the build's to report
        with suppress(BaseException):  # (the build gone: nobody to tell)
            send.send((False, -1, e))
    finally:
        send.close()


def _pooled(work: Work, chunks: Chunks, wanted: list[tuple[bool, ...]], jobs: int,
            forked: Callable[[], None] | None) -> Generator[list[Converted], None, None]:
    """Each chunk converted (``work``), in order, by a pool of ``jobs`` workers (where processes do
    not start forked: each chunk's faces pickled to its worker)."""
    from concurrent.futures import ProcessPoolExecutor  # 16 ms to import: only when used

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # A few chunks ahead of the one being settled, not all: converted faces hold their
        # pictures until settled, and the workers would outrun a slow disk by hundreds of them.
        ahead: deque = deque()
        for i, chunk in enumerate(chunks):
            ahead.append(pool.submit(work, chunk, wanted=wanted[i]))
            if i == 0 and forked is not None:  # (a fork-started pool starts all its workers at its first task)
                forked()
            while ahead and (len(ahead) > 2 * jobs or i == len(chunks) - 1):
                yield ahead.popleft().result()


def _first_failing(faces: FaceSet, arts: Mapping[str, Art], art_folder, e: InputError,
                   failed: str | None = None) -> InputError:
    """The error of the face first in the decks' order (each deck's pieces as the designer wrote
    them) that does not convert: faces convert in key order, so a template line that fails for
    every piece would name whichever piece's face came first by its hash, not piece 1. Only on
    the way out of a failed build: each face not converted yet that comes before the one that
    failed, ``failed`` (unknown: a worker's chunk), is converted here; ``e`` if none fails."""
    for k in faces.svgs:  # (the order the faces were rendered in: deck by deck, piece by piece)
        if k == failed:
            return e
        if k in arts:
            continue
        try:
            convert_face((faces.svgs[k], faces.where[k], faces.template.get(k, ""), art_folder))
        except InputError as first:
            return first
    return e
