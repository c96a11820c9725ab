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
``patched`` writes a document from the last build's file when most of its pages are pages of that
file (the same digest, the same faces first shown on them): the part is read from the file in
place and used only when its bytes are the ones recorded (a damaged, stale or foreign file is never
copied from); the pages that changed are written by the writer as it writes every page. A page
copied where it stood, everything before it numbered as before, is copied as it is; a page a count
edit moved (or one after a page that now numbers otherwise, or after pictures laid out otherwise by
an art edit) is copied with every reference in its objects' dictionaries renumbered — its streams
are the same bytes, and what depends on its place (its sheet number, the stamp's hash) is in its
content, so in its digest. A page is copied only when the fonts, patterns and layers it numbered
first there are new here too, and all it met before there is met here: else it is written. A
written page (a home sheet a count edit gave other cards) has the form of each face it shows first
copied from the last file, renumbered, when every reference of the form's dictionary is numbered
here already, and its pictures known by the keys the layout records for each face: the face's
record is not unpacked.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, TypeGuard

from pnpgen.pdf.objects import Ref

TAG = "pnpgen layout 3"  # change with what a layout records or how the writer numbers
NAMED = ("font", "standard", "paint", "layer")  # what a page numbers besides its faces' forms (``Recorder``)
GLYPH = 0x10000  # a glyph id is written as the character this far on (never a surrogate)
_HEX = re.compile(r"[0-9a-f]*")  # pictures' keys (64 of these digits each: ``keys_all``) joined


def name_hash(name: str) -> str:
    """A face by what it is made from (FaceStreams' names), shortly."""
    return hashlib.blake2b(name.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def glyph_text(glyphs: Mapping[str, Mapping[int, str]]) -> dict[str, str]:
    """A stream's glyphs (font → glyph id → character) as one string per font: each glyph id as a
    character, then the character it shows."""
    return {font: "".join(chr(GLYPH + g) + c for g, c in gids.items()) for font, gids in glyphs.items()}


def count_glyphs(counts: dict[str, Counter], text: Mapping[str, str], by: int = 1) -> None:
    """A stream's glyphs (``glyph_text``) counted in (``by`` 1) or out (-1) of a document's, or
    ``by`` times more: how many of its streams show each (glyph id, character) pair."""
    for font, s in text.items():
        pairs = zip(s[0::2], s[1::2])
        counted = counts.setdefault(font, Counter())
        if by == 1:
            counted.update(pairs)
        elif by == -1:
            counted.subtract(pairs)
        else:
            counted.update(dict.fromkeys(pairs, by))


def count_all(counts: dict[str, Counter], texts: Sequence[Mapping[str, str]], by: int = 1) -> None:
    """Many streams' glyphs (``glyph_text``) counted in (``by`` 1) or out (-1) of a document's at
    once, as ``count_glyphs`` one stream after another counts them (the same counts, the pairs met
    in the same order): joined a font and counted by ``Counter`` in C, then added or taken off
    once a font. A count edit writes some 300 home sheets again and drops the last file's: one
    stream at a time, ``Counter.subtract`` takes each pair off in Python, some 20,000 at 1,000 cards."""
    joined: dict[str, list[str]] = {}
    for text in texts:
        for font, s in text.items():
            joined.setdefault(font, []).append(s)
    for font, parts in joined.items():
        s = "".join(parts)  # (each text's length even: the pairs stay pairs)
        pairs = Counter(zip(s[0::2], s[1::2]))
        counted = counts.setdefault(font, Counter())
        if by == 1:
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
    # by position: the keys of the pictures the face's form shows, sorted (``laid_out``: a page written
    # again knows its faces' pictures without their records unpacked); empty: not known
    face_pictures: list[list[str]] = field(default_factory=list)

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
            and keys_all(layout.shows)
            and isinstance(layout.face_pictures, list) and len(layout.face_pictures) in (0, len(layout.faces))
            and keys_all(layout.face_pictures)
            and isinstance(layout.counts, dict) and layout.counts.keys() == layout.union.keys()
            and all(isinstance(c, list) and len(c) * 2 == len(layout.union[f]) and all(type(n) is int and n > 0 for n in c)
                    for f, c in layout.counts.items())):
        return None
    return layout


def keys_all(lists: list) -> TypeGuard[list[list[str]]]:
    """Whether each of ``lists`` is a list of pictures' keys (64 lowercase hex digits each),
    checked at once rather than a key at a time: 3,000 cards' documents record some 6,000 keys
    each, checked when a layout is made and when it is read, every build."""
    flat: list = []
    for keys in lists:
        if type(keys) is not list:
            return False
        flat += keys
    return set(map(type, flat)) <= {str} and set(map(len, flat)) <= {64} and _HEX.fullmatch("".join(flat)) is not None


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
        # the glyphs' counts, when known (``patched``; a page written after them counted in: ``page_done``)
        self.counts: dict[str, Counter] | None = None
        self.shows: list[list[str]] = []  # ``Layout``'s, set with the pictures
        self.face_pictures: list[list[str] | None] = []  # ``Layout``'s (None: not known)
        self._before: tuple[int, ...] = ()
        self._forms_before = 0  # the forms numbered before the page last begun

    def copy(self) -> Recorder:
        out = Recorder()
        out.ok, out.first, out.starts, out.faces, out.forms, out.form_pages, out.named = \
            self.ok, self.first, list(self.starts), list(self.faces), list(self.forms), list(self.form_pages), list(self.named)
        out.page_glyphs, out.face_glyphs, out.shows = dict(self.page_glyphs), list(self.face_glyphs), list(self.shows)
        out.face_pictures, out._forms_before = list(self.face_pictures), self._forms_before
        out.counts = {font: Counter(c) for font, c in self.counts.items()} if self.counts is not None else None
        return out

    def page_begun(self, w: Any) -> None:
        self.starts.append(w.f.next)
        self._before = _counts(w)
        self._forms_before = len(self.face_glyphs)

    def page_done(self, w: Any, glyphs: Mapping[str, Mapping[int, str]]) -> None:
        """After a page written: what it numbered besides its forms (``form`` noted those). Its
        glyphs and its new forms' counted into the counts when they are known (the all-in-one file
        going on from the home sheets' writer: 3,000 cards' faces not counted again by ``layout``)."""
        if glyphs:
            self.page_glyphs[str(len(self.starts) - 1)] = glyphs  # (made text by ``layout``)
        if self.counts is not None:
            memo = w.faces.glyph_texts
            for shown in (glyphs, *self.face_glyphs[self._forms_before:]):
                if shown:
                    count_glyphs(self.counts, _text(shown, memo))
        after = _counts(w)
        if after == self._before:
            return
        if after[4:] != self._before[4:]:  # a picture after the pictures, a face svglib draws
            self.ok = False
        page = len(self.starts) - 1
        for kind, d, n, m in zip(NAMED, _tables(w), self._before, after):
            self.named += [[page, kind, name, ref.n] for name, ref in islice(d.items(), n, m)]

    def form(self, name: str, ref: Ref, glyphs: Mapping[str, Mapping[int, str]], pictures: list[str] | None) -> None:
        """A face's form numbered (by the page last begun), with the keys of the pictures it shows."""
        self.faces.append(name_hash(name))
        self.forms.append(ref.n)
        self.form_pages.append(len(self.starts) - 1)
        self.face_glyphs.append(glyphs)  # (made text by ``layout``)
        self.face_pictures.append(pictures)

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
        shows = self.shows if len(self.shows) == len(self.starts) and keys_all(self.shows) else []
        # (a face whose pictures are not known, None, fails keys_all: then none are recorded)
        face_pictures = list(self.face_pictures) if len(self.face_pictures) == len(self.faces) \
            and keys_all(self.face_pictures) else []
        return Layout(w.cmyk, pictures_hash(w.pictures), self.first, end, offsets[0],
                      [b - a for a, b in zip(offsets, offsets[1:])], hashlib.sha256(part).hexdigest(),
                      "".join(d.hex()[:32] for d in digests if d is not None), self.starts, self.faces, self.forms,
                      self.form_pages, self.named, page_glyphs, face_glyphs,
                      {k: v for k, v in union.items() if v}, {k: v for k, v in numbers.items() if v}, shows,
                      face_pictures)


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
    """A document found to be made of the last one's pages (``plan``): the last file's pages'
    part (checked), each page's digest, the faces in the order first shown (``keys``, each by the
    page first showing it: ``first``), and for each page the last file's page to copy (``src``;
    None: written)."""

    path: str
    part: bytes
    digests: list[bytes]
    keys: list[str]
    first: dict[str, int]
    hashes: dict[str, str]  # each face's ``name_hash``
    src: list[int | None]


_SCAN = 64  # the last file's pages of a digest looked at for one page, at most (a shop's backs are all alike)


def plan(w: Any, pages: Sequence, last: Layout, path: str) -> Plan | None:
    """What ``patched`` needs to write a document from the last build's file at ``path``, found
    before anything is written: each page copied from a page of that file with the same digest
    whose first shown faces are the same (where the page stood, or where it stood before a count
    edit moved it), or written. None when more than half the pages are written, or the file is
    not the one recorded."""
    faces = w.faces
    if last.cmyk != w.cmyk:
        return None
    digests = [faces.digests.get(id(page)) for page in pages]
    if None in digests:
        return None
    first: dict[str, int] = {}  # each face key by the page that shows it first, in that order
    firsts: list[list[str]] = [[] for _ in pages]
    met: set[int] = set()  # (a page object met before shows no face first: a shop file's copies of a card)
    for i, page in enumerate(pages):
        if id(page) in met:
            continue
        met.add(id(page))
        for key in page.faces():
            if key not in first:
                first[key] = i
                firsts[i].append(key)
    names, known = faces.names, faces.name_hashes  # (a deck's documents show the same faces: hashed once)
    hashes = {}
    for key in first:
        name = names.get(key, key)
        hashes[key] = known.get(name) or known.setdefault(name, name_hash(name))
    if len(set(hashes.values())) != len(hashes):
        return None
    old_lists: dict[int, list[str]] = {}
    for p, page_of in enumerate(last.form_pages):
        old_lists.setdefault(page_of, []).append(last.faces[p])
    old_firsts = {j: tuple(sorted(hs)) for j, hs in old_lists.items()}
    n_old, digested = len(last.starts), last.digests
    by_digest: dict[str, list[int]] = {}  # (the last file's pages by digest, made when a page moved)
    src: list[int | None] = []
    shift = 0  # the new page's index less its last page's, as last found
    for i, d in enumerate(digests):
        h = d.hex()[:32] if d is not None else ""
        mine = tuple(sorted(hashes[k] for k in firsts[i])) if firsts[i] else ()
        at = i - shift
        if 0 <= at < n_old and digested[32 * at:32 * at + 32] == h and old_firsts.get(at, ()) == mine:
            j: int | None = at
        else:
            if not by_digest:
                for k in range(n_old):
                    by_digest.setdefault(digested[32 * k:32 * k + 32], []).append(k)
            j = next((c for c in islice(by_digest.get(h, ()), _SCAN) if old_firsts.get(c, ()) == mine), None)
        if j is not None:
            shift = i - j
        src.append(j)
    if sum(j is None for j in src) > len(pages) * 9 // 10:  # (nearly all of it written: as always)
        return None
    part = read_part(path, last)
    if part is None:
        return None
    return Plan(path, part, [d for d in digests if d is not None], list(first), first, hashes, src)


def laid_out(w: Any, pages: Sequence, last: Layout, found: Plan) -> list[tuple[str, bytes]] | None:
    """The pictures of a document written from the last build's file (``plan``), in the order the
    writer meets them (``_Writer.shown``): a copied page's by the keys the layout recorded for the
    page it is copied from (its page and faces not walked), each by the stand-in the build's image
    streams place it by; a written page's walked. None when the layout holds no keys or a picture
    is known by no stand-in (the pictures are then walked as always)."""
    if len(last.shows) != len(last.starts):
        return None
    first, hashes = found.first, found.hashes
    where = {h: p for p, h in enumerate(last.faces)} if last.face_pictures else {}
    out: list[tuple[str, bytes]] = []
    shows = []
    for i, page in enumerate(pages):
        j = found.src[i]
        if j is None:  # (as ``_Writer.shown_on`` meets them: the page's own, then each face's it shows first)
            made = w.faces.page(page, w.cmyk, w.page_stream)
            if set(made.forms.values()) != set(page.faces()):
                return None
            shown = sorted(made.content.pictures.items())
            for face in made.forms.values():
                if first[face] == i:
                    shown += _face_pictures(w, face, last.face_pictures[p] if (p := where.get(hashes[face])) is not None
                                            else None)
        else:
            shown = []
            for key in last.shows[j]:
                stand_in = w.images.stand_in_of(key)
                if stand_in is None:
                    return None
                shown.append((key, stand_in))
        shows.append([key for key, _ in shown])
        out += shown
    w.rec.shows = shows
    return out


def _face_pictures(w: Any, face: str, keys: list[str] | None) -> list[tuple[str, bytes]]:
    """The pictures a face's form shows, each by its key and stand-in: by ``keys`` (what the last
    file's layout recorded of the face) when each has a stand-in, else from the face's stream (its
    record unpacked)."""
    if keys is not None:
        out = [(key, stand_in) for key in keys if (stand_in := w.images.stand_in_of(key)) is not None]
        if len(out) == len(keys):
            return out
    return sorted(w.faces.get(face, w.arts[face], w.cmyk, w.images).content.pictures.items())


def _renumbered(body: bytes, n: int, number: Callable[[int], int | None]) -> bytes | None:
    """An object of the last file as object ``n``, each reference in its dictionary renumbered by
    ``number`` (old → new, or None: not known); None when one is not known, or the dictionary
    holds a string (whose text could read as a reference). A stream's data is never read: the
    dictionary is the object's second line (``pdf`` writes no line break in one)."""
    head = body.find(b"\n")
    end = body.find(b"\n", head + 1)
    if head < 0 or end < 0:
        return None
    d = body[head + 1:end]
    if b" 0 R" not in d:
        return b"%d 0 obj\n" % n + body[head + 1:]
    if b"(" in d:
        return None
    parts = d.split(b" 0 R")  # each but the last ends with a reference's number, after a space or [
    for k in range(len(parts) - 1):
        part = parts[k]
        cut = max(part.rfind(b" "), part.rfind(b"[")) + 1
        digits = part[cut:]
        new = number(int(digits)) if digits.isdigit() else None
        if new is None:
            return None
        parts[k] = part[:cut] + b"%d" % new
    return b"%d 0 obj\n" % n + b" 0 R".join(parts) + body[end:]


def _moved(bodies: list[bytes | None], start: int, end: int, delta: int, number: Mapping[int, int]
           ) -> list[bytes | None] | None:
    """A page's objects (``start`` to ``end``; None: a font's, written at the end) moved ``delta``
    on, their references renumbered: their own by ``delta``, the others' by ``number``; None when
    one is not known."""
    def renumber(old: int) -> int | None:
        return old + delta if start <= old < end else number.get(old)

    out: list[bytes | None] = []
    for n, body in enumerate(bodies, start + delta):
        if body is not None:
            body = _renumbered(body, n, renumber)
            if body is None:
                return None
        out.append(body)
    return out


def _form_copier(w: Any, last: Layout, found: Plan, cut: list[int], number: Mapping[int, int]
                 ) -> Callable[[str], Ref | None]:
    """``_Writer.copy_form`` for ``patched``: a face's form (by its key) copied from the last file
    as the next object, each reference of its dictionary renumbered by ``number`` (what this file
    has numbered already), and recorded as ``_Writer.form`` records it; None when the last file
    has no form of that face, or its form names what is not numbered here yet (a font, a pattern
    that ``_Writer.form`` would number first). Its stream is the same bytes: a face is known by
    what it is made from (``name_hash``), and the part it is copied from was checked (``read_part``)."""
    f, rec, part, at = w.f, w.rec, found.part, last.first
    where = {h: p for p, h in enumerate(last.faces)}

    def copy(key: str) -> Ref | None:
        p = where.get(found.hashes.get(key, ""))
        if p is None:
            return None
        o, n = last.forms[p], f.next
        body = _renumbered(part[cut[o - at]:cut[o - at + 1]], n, number.get)
        if body is None:
            return None
        f.put_copied(body)
        rec.faces.append(last.faces[p])
        rec.forms.append(n)
        rec.form_pages.append(len(rec.starts) - 1)
        rec.face_glyphs.append(last.face_glyphs[p])
        rec.face_pictures.append(last.face_pictures[p] if last.face_pictures else None)
        return Ref(n)

    return copy


def _old_pictures(last: Layout) -> dict[str, int] | None:
    """The last file's pictures' numbers (the objects before the pages, in the order its pages
    showed them), when its layout holds their keys and they are as recorded."""
    if len(last.shows) != len(last.starts):
        return None
    out: dict[str, int] = {}
    for keys in last.shows:
        for key in keys:
            if key not in out:
                out[key] = len(out) + 1
    if len(out) + 4 != last.first or pictures_hash({k: Ref(n) for k, n in out.items()}) != last.pictures:
        return None
    return out


def patched(w: Any, pages: Sequence, last: Layout, found: Plan, pages_ref: Ref) -> list[Ref] | None:
    """The pages of a document written by ``w`` (its pictures, catalog, page tree and information
    numbered already) from the last build's file (``plan``): each page ``plan`` found there copied
    with what it numbers first (the forms of the faces it shows first, fonts, patterns, layers)
    when the names it meets are new here as they were there; the others written. A copied page
    that stands where it stood, all before it numbered as before, is copied as it is; one moved
    (a count edit) has every reference of its objects' dictionaries renumbered (its streams are
    the same). The page objects (the page tree's kids), or None when the document cannot be
    written so (``w`` is then spent: the document is written afresh by another writer)."""
    f, faces, names = w.f, w.faces, w.faces.names
    same = pictures_hash(w.pictures) == last.pictures and f.next == last.first
    number: dict[int, int] = {}  # the last file's objects outside a page's own → this file's
    if same:
        number.update((r.n, r.n) for r in w.pictures.values())
        number[pages_ref.n] = pages_ref.n
    else:
        old_pictures = _old_pictures(last)
        if old_pictures is None:
            return None
        number.update((n, w.pictures[k].n) for k, n in old_pictures.items() if k in w.pictures)
        number[last.first - 2] = pages_ref.n
    part, digests, src = found.part, found.digests, found.src
    cut, at = [0], 0  # each object's place in ``part``
    for n in last.lengths:
        at += n
        cut.append(at)
    by_page: dict[int, list] = {}
    for e in last.named:
        by_page.setdefault(e[0], []).append(e)
    before = [0] * (len(last.starts) + 1)  # how many of ``last.named`` the pages before each numbered
    for e in last.named:
        before[e[0] + 1] += 1
    for k in range(len(last.starts)):
        before[k + 1] += before[k]
    forms_of: dict[int, list[int]] = {}
    for p, i in enumerate(last.form_pages):
        forms_of.setdefault(i, []).append(p)
    old_named = {(e[1], e[2]): e[3] for e in last.named}
    old_forms = dict(zip(last.faces, last.forms))
    by_hash = {h: k for k, h in found.hashes.items()}
    fonts = {e[3] for e in last.named if e[1] in ("font", "standard")}  # written with the subsets, at the end
    tables = dict(zip(NAMED, _tables(w)))
    met = 0  # how many of ``last.named`` (in order) this file has numbered already
    rec: Recorder = w.rec
    counts = {font: Counter(dict(zip(zip(text[0::2], text[1::2]), last.counts[font])))
              for font, text in last.union.items()}  # the last file's glyphs, less what is gone, plus what is new
    uses = [0] * len(last.starts)
    added: list[Mapping[str, str]] = []  # the glyphs of the streams written here (``count_all``)
    kids: list[Ref] = []
    # a face first shown on a page written here has its form copied from the last file when every
    # reference of its dictionary is numbered here already (else it is written: ``_Writer.form``)
    w.copy_form = _form_copier(w, last, found, cut, number)
    base = last.first
    pending: list[int] = []  # the last file's objects copied where they stood, held, not yet filled: [first, end]

    def fill() -> None:  # (the run held so far, as one slice of the last file: ``ObjectFile.fill_run``)
        if pending:
            a, b = pending
            f.fill_run(a, part[cut[a - base]:cut[b - base]], last.lengths[a - base:b - base])
            pending.clear()

    def held(start: int, end: int) -> None:  # (the last file's objects start to end, where they stood)
        if pending and pending[1] == start:  # (on from the run held before them, or a run of their own)
            pending[1] = end
        else:
            fill()
            pending[:] = [start, end]
        f.hold(end - start)

    # the positions of the last file's faces' forms by the page first showing them (``copy_run``)
    order = sorted(range(len(last.form_pages)), key=last.form_pages.__getitem__)
    order_pages = [last.form_pages[p] for p in order]
    n_old = len(last.starts)

    def copy_run(i: int) -> int:
        """The pages from ``i`` on that stand where they stood, everything before them numbered
        as before, and number nothing but their own objects and their faces' forms, copied as
        one run of the last file (as the loop below copies each such page): where the run ends
        (``i``: no such page). A text edit of 3,000 cards leaves some 13,000 such pages."""
        nonlocal met
        if not (same and src[i] == i and i not in by_page and f.next == last.starts[i]):
            return i
        while met < len(last.named) and last.named[met][2] in tables[last.named[met][1]]:
            met += 1
        if before[i] > met:
            return i
        k = i + 1
        while k < len(pages) and k < n_old and src[k] == k and k not in by_page:
            k += 1
        start, end = last.starts[i], last.starts[k] if k < n_old else last.end
        if any(start <= n < end for n in fonts):
            return i
        uses[i:k] = [u + 1 for u in uses[i:k]]
        rec.starts.extend(last.starts[i:k])
        held(start, end)
        for t in range(i, k) if last.page_glyphs else ():
            text = last.page_glyphs.get(str(t))
            if text is not None:
                rec.page_glyphs[str(t)] = text
        shown = order[bisect_left(order_pages, i):bisect_left(order_pages, k)]
        for p in shown:
            n = last.forms[p]
            w.forms[by_hash[last.faces[p]]] = Ref(n)
            number[n] = n
        rec.faces += [last.faces[p] for p in shown]
        rec.forms += [last.forms[p] for p in shown]
        rec.form_pages += [last.form_pages[p] for p in shown]
        rec.face_glyphs += [last.face_glyphs[p] for p in shown]
        rec.face_pictures += [last.face_pictures[p] for p in shown] if last.face_pictures else [None] * len(shown)
        kids.extend([Ref(n - 1) for n in (*last.starts[i + 1:k], end)])
        return k

    run_end = 0
    for i, page in enumerate(pages):
        if i < run_end:
            continue
        run_end = copy_run(i)
        if run_end > i:
            continue
        j = src[i]
        if j is not None:
            while met < len(last.named) and last.named[met][2] in tables[last.named[met][1]]:
                met += 1
            firsts = by_page.get(j)
            if before[j] > met or (firsts is not None and any(e[2] in tables[e[1]] for e in firsts)):
                j = None  # (it would not number here what it numbered there: written)
        in_place = False
        if j is not None:
            start = last.starts[j]
            end = last.starts[j + 1] if j + 1 < len(last.starts) else last.end
            delta = f.next - start
            # where it stood, all before it numbered as before, no font's object among its own: a run
            in_place = same and delta == 0 and j == i and not any(start <= n < end for n in fonts)
            if not in_place:
                bodies = [None if n in fonts else part[cut[n - base]:cut[n - base + 1]] for n in range(start, end)]
                copies = bodies if same and delta == 0 and j == i else _moved(bodies, start, end, delta, number)
                if copies is None:
                    j = None  # (a reference not known here: written)
        if j is None:  # written as always
            fill()
            named, formed, begun = len(rec.named), len(rec.forms), f.next
            kids.append(w.page(page, pages_ref))
            if not rec.ok:
                return None
            for e in rec.named[named:]:
                if (e[1], e[2]) in old_named:
                    number[old_named[(e[1], e[2])]] = e[3]
            for h, n in zip(rec.faces[formed:], rec.forms[formed:]):
                if h in old_forms:
                    number[old_forms[h]] = n
            if same and not (i < len(last.starts) and begun == last.starts[i]
                             and f.next == (last.starts[i + 1] if i + 1 < len(last.starts) else last.end)
                             and rec.named[named:] == by_page.get(i, [])
                             and rec.forms[formed:] == [last.forms[p] for p in forms_of.get(i, [])]):
                same = False  # (what follows is numbered otherwise than there: renumbered)
            added += [_text(shown, faces.glyph_texts) for shown in (rec.page_glyphs.get(str(i)), *rec.face_glyphs[formed:])
                      if shown]
            continue
        uses[j] += 1
        rec.starts.append(f.next)
        if in_place:
            held(start, end)
        else:
            fill()
            assert copies is not None
            for body in copies:
                if body is None:
                    f.reserve()
                else:
                    f.put_copied(body)
        same = same and delta == 0 and j == i
        text = last.page_glyphs.get(str(j))
        if text is not None:
            rec.page_glyphs[str(i)] = text
        for e in by_page.get(j, ()):
            tables[e[1]][e[2]] = Ref(e[3] + delta)
            number[e[3]] = e[3] + delta
            rec.named.append([i, e[1], e[2], e[3] + delta])
        for p in forms_of.get(j, ()):
            key = by_hash[last.faces[p]]
            w.forms[key] = Ref(last.forms[p] + delta)
            number[last.forms[p]] = last.forms[p] + delta
            rec.faces.append(last.faces[p])
            rec.forms.append(last.forms[p] + delta)
            rec.form_pages.append(i)
            rec.face_glyphs.append(last.face_glyphs[p])
            rec.face_pictures.append(last.face_pictures[p] if last.face_pictures else None)
        kids.append(Ref(end - 1 + delta))
    fill()
    w.copy_form = None
    gone: list[Mapping[str, str]] = []  # the last file's streams no page copies (a count edit's home sheets)
    for k, n in enumerate(uses):  # each page of the last file's glyphs counted as often as it is copied
        if n != 1:
            for shown in (last.page_glyphs.get(str(k)), *(last.face_glyphs[p] for p in forms_of.get(k, ()))):
                if shown:
                    if n:
                        count_glyphs(counts, shown, n - 1)
                    else:
                        gone.append(shown)
    count_all(counts, added)  # (the written pages' glyphs, then the pages gone: as one stream at a time)
    count_all(counts, gone, -1)
    glyphs = document_glyphs(counts)
    if glyphs is None:
        return None
    w.glyphs, rec.counts = glyphs, counts
    used = faces.used  # (what the next save keeps: every face and page this document shows)
    used.update((names.get(k, k), w.cmyk) for k in found.keys)
    used.update((d, w.cmyk) for d in digests)
    return kids
