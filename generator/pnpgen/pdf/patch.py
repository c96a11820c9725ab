"""A document written as the file the last build wrote, with only what an edit changed written
again (issue 22): the document, not the page, as the unit.

The writer (pdf/writer.py) numbers a document's objects in one order: the pictures first (in the
order the pages first show them), the catalog, page tree and information, then each page's run —
what it names first (fonts, patterns, layers), the forms of the faces it shows first, its contents,
itself —, then the fonts' subsets and what follows them. A text edit leaves that order as it was:
the edited face's form keeps its number (a face is known by where it is first shown, its
*position*, not by its key, which changes with its SVG), so the new file is the old one with the
edited faces' forms, the pages that show them, the fonts and what follows replaced.

``Recorder`` notes at each write what every object of the pages' part of the file is (``Layout``:
each page's first object and digest, each face's form and first page by position, what each page
numbered besides, the glyphs each page and face shows, for the fonts' subsets), each object's
length and the SHA-256 of that part's bytes; the engine keeps it in a sealed pack of the cache.
``patched`` writes a document from the last build's file when its plan is that file's but for some
faces' content: the part is read from the file in place and used only when its bytes are the ones
recorded (a damaged, stale or foreign file is never copied from); the pages that changed are
written by the writer as it writes every page, and must number exactly what they numbered before.
Anything else (a count edit moves pages, an art edit changes the pictures) is written as always.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from pnpgen.pdf.objects import Ref

TAG = "pnpgen layout 2"  # change with what a layout records or how the writer numbers
NAMED = ("font", "standard", "paint", "layer")  # what a page numbers besides its faces' forms (``Recorder``)
GLYPH = 0x10000  # a glyph id is written as the character this far on (never a surrogate)
_KEY = re.compile(r"[0-9a-f]{64}")  # a picture's key


def name_hash(name: str) -> str:
    """A face by what it is made from (FaceStreams' names), shortly."""
    return hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def glyph_text(glyphs: Mapping[str, Mapping[int, str]]) -> dict[str, str]:
    """A stream's glyphs (font → glyph id → character) as one string per font: each glyph id as a
    character, then the character it shows."""
    return {font: "".join(chr(GLYPH + g) + c for g, c in gids.items()) for font, gids in glyphs.items()}


def count_glyphs(counts: dict[str, Counter], text: Mapping[str, str], by: int = 1) -> None:
    """A stream's glyphs (``glyph_text``) counted in (``by`` 1) or out (-1) of a document's: how
    many of its streams show each (glyph id, character) pair."""
    for font, s in text.items():
        pairs = zip(s[0::2], s[1::2])
        counted = counts.setdefault(font, Counter())
        if by > 0:
            counted.update(pairs)
        else:
            counted.subtract(pairs)


def document_glyphs(counts: Mapping[str, Counter]) -> dict[str, dict[int, str]] | None:
    """The glyphs the writer's ``note`` gathers from a document's streams (font → glyph id →
    character), from their counts; None when a glyph id shows two characters (``note`` keeps the
    last one met: an order the counts do not hold)."""
    out = {}
    for font, counted in counts.items():
        shown = [pair for pair, n in counted.items() if n > 0]
        gids = {ord(g) - GLYPH: c for g, c in shown}
        if len(gids) != len(shown):
            return None
        if gids:
            out[font] = gids
    return out


@dataclass
class Layout:
    """What a document's pages' part of the file holds (the module's docstring), as recorded."""

    cmyk: bool
    pictures: str  # the hash of the pictures' keys in their order (the objects before the pages)
    first: int  # the pages' first object (after the pictures, catalog, page tree and information)
    end: int  # the first object after the pages' (the fonts' subsets and what follows)
    at: int = 0  # where ``first`` begins in the file
    lengths: list[int] = field(default_factory=list)  # each object's, ``first`` to ``end``
    sha: str = ""  # of those bytes
    digests: str = ""  # each page's digest, 32 hex digits each
    starts: list[int] = field(default_factory=list)  # each page's first object
    faces: list[str] = field(default_factory=list)  # by position: the face (``name_hash``)
    forms: list[int] = field(default_factory=list)  # by position: its form's number
    form_pages: list[int] = field(default_factory=list)  # by position: the page first showing it
    named: list[list] = field(default_factory=list)  # [page, kind, name, number]: ``NAMED`` numbered by a page
    page_glyphs: dict[str, dict[str, str]] = field(default_factory=dict)  # page (index) → glyph_text
    face_glyphs: list[dict[str, str]] = field(default_factory=list)  # by position: glyph_text
    # every (glyph id, character) pair the streams show, by font, as glyph_text, and how many show each
    union: dict[str, str] = field(default_factory=dict)
    counts: dict[str, list[int]] = field(default_factory=dict)
    # each page's pictures' keys as the writer meets them (``_Writer.shown_on``); empty: not known
    shows: list[list[str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"tag": TAG, **{k: getattr(self, k) for k in self.__dataclass_fields__}}


def layout_of(value: object) -> Layout | None:
    """The layout a pack's record holds, or None when it is not one ``Layout.to_json`` wrote."""
    if not isinstance(value, dict) or value.get("tag") != TAG:
        return None
    try:
        layout = Layout(**{k: v for k, v in value.items() if k != "tag"})
    except TypeError:
        return None
    ints = (layout.lengths, layout.starts, layout.forms, layout.form_pages)
    n = len(layout.starts)
    if not (isinstance(layout.cmyk, bool) and all(isinstance(v, str) for v in (layout.pictures, layout.sha, layout.digests))
            and all(type(v) is int and v >= 0 for v in (layout.first, layout.end, layout.at))
            and all(isinstance(x, list) and all(type(i) is int and i >= 0 for i in x) for x in ints)
            and isinstance(layout.faces, list) and all(isinstance(f, str) for f in layout.faces)
            and len(layout.faces) == len(layout.forms) == len(layout.form_pages) == len(layout.face_glyphs)
            and len(layout.lengths) == layout.end - layout.first and len(layout.digests) == 32 * n
            and layout.starts == sorted(layout.starts) and (not n or layout.first <= layout.starts[0])
            and all(layout.first <= f < layout.end for f in layout.forms) and all(p < n for p in layout.form_pages)
            and isinstance(layout.named, list)
            and all(isinstance(e, list) and len(e) == 4 and type(e[0]) is int and e[1] in NAMED
                    and isinstance(e[2], str) and type(e[3]) is int and layout.first <= e[3] < layout.end
                    for e in layout.named)
            and _glyphs_ok(layout.face_glyphs) and isinstance(layout.page_glyphs, dict)
            and _glyphs_ok(list(layout.page_glyphs.values())) and _glyphs_ok([layout.union])
            and isinstance(layout.shows, list) and len(layout.shows) in (0, n)
            and all(isinstance(keys, list) and all(isinstance(k, str) and _KEY.fullmatch(k) for k in keys)
                    for keys in layout.shows)
            and isinstance(layout.counts, dict) and layout.counts.keys() == layout.union.keys()
            and all(isinstance(c, list) and len(c) * 2 == len(layout.union[f]) and all(type(n) is int and n > 0 for n in c)
                    for f, c in layout.counts.items())):
        return None
    return layout


def _glyphs_ok(texts: list) -> bool:
    return all(isinstance(t, dict) and all(isinstance(k, str) and isinstance(v, str) and not len(v) % 2
                                           for k, v in t.items()) for t in texts)


class Recorder:
    """What the writer numbers as it writes a document's pages, for its ``Layout``."""

    def __init__(self) -> None:
        self.ok = True  # False: a document this cannot lay out (a fallback face, a picture numbered late)
        self.first = 0
        self.starts: list[int] = []
        self.faces: list[str] = []
        self.forms: list[int] = []
        self.form_pages: list[int] = []
        self.named: list[list] = []
        self.page_glyphs: dict[str, Mapping[str, Any]] = {}  # ``Layout``'s, as streams' glyphs or their text
        self.face_glyphs: list[Mapping[str, Any]] = []
        self.counts: dict[str, Counter] | None = None  # the glyphs' counts, when known (``patched``)
        self.shows: list[list[str]] = []  # ``Layout``'s, set with the pictures
        self._before: tuple[int, ...] = ()

    def copy(self) -> Recorder:
        out = Recorder()
        out.ok, out.first, out.starts, out.faces, out.forms, out.form_pages, out.named = \
            self.ok, self.first, list(self.starts), list(self.faces), list(self.forms), list(self.form_pages), list(self.named)
        out.page_glyphs, out.face_glyphs, out.shows = dict(self.page_glyphs), list(self.face_glyphs), list(self.shows)
        out.counts = {font: Counter(c) for font, c in self.counts.items()} if self.counts is not None else None
        return out

    def page_begun(self, w: Any) -> None:
        self.starts.append(w.f.next)
        self.counts = None  # (a page written: its glyphs counted from the streams' by ``layout``)
        self._before = _counts(w)

    def page_done(self, w: Any, glyphs: Mapping[str, Mapping[int, str]]) -> None:
        """After a page written: what it numbered besides its forms (``form`` noted those)."""
        if glyphs:
            self.page_glyphs[str(len(self.starts) - 1)] = glyphs  # (made text by ``layout``)
        after = _counts(w)
        if after == self._before:
            return
        if after[4:] != self._before[4:]:  # a picture after the pictures, a face svglib draws
            self.ok = False
        page = len(self.starts) - 1
        for kind, d, n, m in zip(NAMED, _tables(w), self._before, after):
            self.named += [[page, kind, name, ref.n] for name, ref in islice(d.items(), n, m)]

    def form(self, name: str, ref: Ref, glyphs: Mapping[str, Mapping[int, str]]) -> None:
        """A face's form numbered (by the page last begun)."""
        self.faces.append(name_hash(name))
        self.forms.append(ref.n)
        self.form_pages.append(len(self.starts) - 1)
        self.face_glyphs.append(glyphs)  # (made text by ``layout``)

    def layout(self, w: Any, end: int, digests: Sequence[bytes | None]) -> Layout | None:
        """The document's layout once its file is finished (``end``: the pages' part's end)."""
        if not self.ok or None in digests or len(digests) != len(self.starts):
            return None
        f = w.f
        part = f.bytes_of(self.first, end)
        if part is None or len(f.offsets) < end - 1:
            return None
        memo: dict[int, tuple[Mapping, dict[str, str]]] = w.faces.glyph_texts  # (a face's glyphs: made text once a build)
        face_glyphs = [_text(t, memo) for t in self.face_glyphs]
        page_glyphs = {k: _text(t, memo) for k, t in self.page_glyphs.items()}
        for texts in (face_glyphs, page_glyphs.values()):
            for t in texts:
                for s in t.values():
                    try:
                        s.encode("utf-8")
                    except UnicodeEncodeError:  # (a lone surrogate in the data: not kept)
                        return None
        counts = self.counts
        if counts is None:
            counts = {}
            for t in (*face_glyphs, *page_glyphs.values()):
                count_glyphs(counts, t)
        union = {font: "".join(g + c for (g, c), n in counted.items() if n > 0) for font, counted in counts.items()}
        numbers = {font: [n for n in counted.values() if n > 0] for font, counted in counts.items()}
        offsets = f.offsets[self.first - 1:end - 1] + [f.offsets[self.first - 1] + len(part)]
        shows = self.shows if len(self.shows) == len(self.starts) \
            and all(_KEY.fullmatch(k) for keys in self.shows for k in keys) else []
        return Layout(w.cmyk, pictures_hash(w.pictures), self.first, end, offsets[0],
                      [b - a for a, b in zip(offsets, offsets[1:])], hashlib.sha256(part).hexdigest(),
                      "".join(d.hex()[:32] for d in digests if d is not None), self.starts, self.faces, self.forms,
                      self.form_pages, self.named, page_glyphs, face_glyphs,
                      {k: v for k, v in union.items() if v}, {k: v for k, v in numbers.items() if v}, shows)


def _text(glyphs: Mapping, memo: dict[int, tuple[Mapping, dict[str, str]]]) -> dict[str, str]:
    """``glyph_text`` of a stream's glyphs, or the text itself (copied from a layout); made once
    a build for each stream's glyphs (``memo``, by the object, held so that its id names no other)."""
    if all(isinstance(v, str) for v in glyphs.values()):
        return dict(glyphs)
    found = memo.get(id(glyphs))
    if found is None or found[0] is not glyphs:
        found = memo[id(glyphs)] = (glyphs, glyph_text(glyphs))
    return found[1]


def pictures_hash(pictures: Mapping[str, Ref]) -> str:
    return hashlib.sha256("\n".join(f"{k} {r.n}" for k, r in pictures.items()).encode()).hexdigest()


def _tables(w: Any) -> tuple[dict, ...]:
    return w.font_refs, w.standard, w.paints, w.layers


def _counts(w: Any) -> tuple[int, ...]:
    return len(w.font_refs), len(w.standard), len(w.paints), len(w.layers), len(w.pictures), len(w.fallbacks)


def read_part(path: str, layout: Layout) -> bytes | None:
    """The pages' part of the file at ``path``, when its bytes are the ones ``layout`` recorded."""
    size = sum(layout.lengths)
    try:  # (not blocking on a pipe put in the file's place; no link followed out of the workspace)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.pread(fd, size, layout.at) if hasattr(os, "pread") else _read_at(fd, size, layout.at)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == size and hashlib.sha256(data).hexdigest() == layout.sha else None


def _read_at(fd: int, size: int, at: int) -> bytes:
    os.lseek(fd, at, os.SEEK_SET)
    return os.read(fd, size)


@dataclass(frozen=True)
class Plan:
    """A document found to be the last one's but for some faces' content (``plan``): the last
    file's pages' part (checked), each page's digest, the faces by position, the pages to write."""

    path: str
    part: bytes
    digests: list[bytes]
    keys: list[str]
    redo: set[int]


def plan(w: Any, pages: Sequence, last: Layout, path: str) -> Plan | None:
    """What ``patched`` needs to write a document from the last build's file at ``path``, found
    before anything is written (so a count edit costs the writer a walk of the pages, no more);
    None when the document is not the last one's but for faces' content, or the file is not the
    one recorded."""
    faces = w.faces
    if last.cmyk != w.cmyk or len(pages) != len(last.starts):
        return None
    digests = [faces.digests.get(id(page)) for page in pages]
    if None in digests:
        return None
    order: dict[str, int] = {}  # each face key by the page that shows it first, in that order
    for i, page in enumerate(pages):
        for key in page.faces():
            if key not in order:
                order[key] = i
    if list(order.values()) != last.form_pages:
        return None
    names = faces.names
    keys = list(order)
    changed = {p for p, key in enumerate(keys) if name_hash(names.get(key, key)) != last.faces[p]}
    redo = {i for i, d in enumerate(digests) if d is not None and d.hex()[:32] != last.digests[32 * i:32 * i + 32]}
    redo |= {last.form_pages[p] for p in changed}
    if len(redo) > len(pages) // 2:  # (most of it written: as always)
        return None
    part = read_part(path, last)
    if part is None:
        return None
    return Plan(path, part, [d for d in digests if d is not None], keys, redo)


def laid_out(w: Any, pages: Sequence, last: Layout, found: Plan) -> list[tuple[str, bytes]] | None:
    """The pictures of a document written from the last build's file (``plan``), in the order the
    writer meets them (``_Writer.shown``): an unchanged page's by the keys the layout recorded (its
    page and faces not walked), each by the stand-in the build's image streams place it by; a
    rewritten page's walked. None when the layout holds no keys or a picture is known by no
    stand-in (the pictures are then walked as always)."""
    if len(last.shows) != len(pages):
        return None
    first = dict(zip(found.keys, last.form_pages))  # each face by the page first showing it
    out: list[tuple[str, bytes]] = []
    shows = []
    for i, page in enumerate(pages):
        if i in found.redo:
            made = w.faces.page(page, w.cmyk, w.page_stream)
            if set(made.forms.values()) != set(page.faces()):
                return None
            shown = w.shown_on(page, {face for face in made.forms.values() if first[face] < i})
        else:
            shown = []
            for key in last.shows[i]:
                stand_in = w.images.stand_in_of(key)
                if stand_in is None:
                    return None
                shown.append((key, stand_in))
        shows.append([key for key, _ in shown])
        out += shown
    w.rec.shows = shows
    return out


def patched(w: Any, pages: Sequence, last: Layout, found: Plan, pages_ref: Ref) -> list[Ref] | None:
    """The pages of a document written by ``w`` (its pictures, catalog, page tree and information
    numbered already) from the last build's file (``plan``): each page that did not change, and
    the form of each face it shows first, copied; the others written. The page objects (the page
    tree's kids), or None when the document is not the last one's but for faces' content (``w``
    is then spent: the document is written afresh by another writer)."""
    f, faces, names = w.f, w.faces, w.faces.names
    if f.next != last.first or pictures_hash(w.pictures) != last.pictures:
        return None
    part, digests, keys, redo = found.part, found.digests, found.keys, found.redo
    cut, at = [0], 0  # each object's place in ``part``
    for n in last.lengths:
        at += n
        cut.append(at)
    by_page: dict[int, list] = {}
    for e in last.named:
        by_page.setdefault(e[0], []).append(e)
    forms_of: dict[int, list[int]] = {}
    for p, i in enumerate(last.form_pages):
        forms_of.setdefault(i, []).append(p)
    fonts = {e[3] for e in last.named if e[1] in ("font", "standard")}  # written with the subsets, at the end
    tables = dict(zip(NAMED, _tables(w)))
    rec: Recorder = w.rec
    counts = {font: Counter(dict(zip(zip(text[0::2], text[1::2]), last.counts[font])))
              for font, text in last.union.items()}  # the last file's glyphs, less what changed, plus what is new
    kids: list[Ref] = []
    for i, page in enumerate(pages):
        start = last.starts[i]
        end = last.starts[i + 1] if i + 1 < len(pages) else last.end
        if f.next != start:
            return None
        if i in redo:  # written as always: it must number what it numbered before
            named, formed = len(rec.named), len(rec.forms)
            kids.append(w.page(page, pages_ref))
            if f.next != end or not rec.ok or rec.named[named:] != by_page.get(i, []) \
                    or rec.forms[formed:] != [last.forms[p] for p in forms_of.get(i, [])]:
                return None
            for old in (last.page_glyphs.get(str(i)), *(last.face_glyphs[p] for p in forms_of.get(i, ()))):
                if old:
                    count_glyphs(counts, old, -1)
            for shown in (rec.page_glyphs.get(str(i)), *rec.face_glyphs[formed:]):
                if shown:
                    count_glyphs(counts, _text(shown, faces.glyph_texts))
            continue
        for n in range(start, end):
            if n in fonts:
                f.reserve()
            else:
                f.put_copied(part[cut[n - last.first]:cut[n - last.first + 1]])
        rec.starts.append(start)
        text = last.page_glyphs.get(str(i))
        if text is not None:
            rec.page_glyphs[str(i)] = text
        for e in by_page.get(i, ()):
            tables[e[1]][e[2]] = Ref(e[3])
            rec.named.append(e)
        for p in forms_of.get(i, ()):
            w.forms[keys[p]] = Ref(last.forms[p])
            rec.faces.append(last.faces[p])
            rec.forms.append(last.forms[p])
            rec.form_pages.append(i)
            rec.face_glyphs.append(last.face_glyphs[p])
        kids.append(Ref(end - 1))
    if f.next != last.end:
        return None
    glyphs = document_glyphs(counts)
    if glyphs is None:
        return None
    w.glyphs, rec.counts = glyphs, counts
    used = faces.used  # (what the next save keeps: every face and page this document shows)
    used.update((names.get(k, k), w.cmyk) for k in keys)
    used.update((d, w.cmyk) for d in digests)
    return kids

