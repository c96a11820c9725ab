"""The rulebook's booklet as a PDF: the A5 pages ReportLab typeset, two to a sheet side.

Each A5 page's content stream becomes a Form XObject — its bytes copied as they are, given the
page's resources and a bounding box that clips at the fold (a page shifted by creep loses that
strip of its empty inner margin, never shows on the facing page) — and is placed on its sheet
with ``q cm … Do Q``; a side's overlay (fold marks, the printing note: a one-page PDF) is placed
over it the same way. Only the objects the sheets show are copied, renumbered in the order met;
nothing is decoded or compressed again, so imposing costs what copying the bytes costs (pypdf's
clone, merge and write took 0.2 s of every rulebook build, the longest step after typesetting).

The reader knows the PDFs pnpgen has ReportLab write (ISO 32000-1 §7.3, §7.5): a classic
cross-reference table, objects with direct stream lengths, no object streams. Anything else is
refused with ``ValueError`` naming what it met; it is never guessed at.
"""

from __future__ import annotations

import io
import re
import zlib
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from pnpgen.impose.booklet import A4_LANDSCAPE, Placement, SheetSide
from pnpgen.pdf.objects import ObjectFile, Raw, Ref
from pnpgen.pdf.resave import pdf_bytes
from pnpgen.units import PT_PER_MM, num

_SPACE = b" \t\r\n\x0c\x00"
_DELIMITER = b"()<>[]{}/%"
_TOKEN = re.compile(rb"[^ \t\r\n\x0c\x00()<>\[\]{}/%]+")
_INT = re.compile(rb"\d+")
# what a page passes on to its kids (§7.7.3.4): looked up the page tree when a page lacks it
_INHERITED = ("Resources", "MediaBox")
# the catalog's entries that name the A5 pages or their bookmarks: not the booklet's
_NOT_CARRIED = {b"Type", b"Pages", b"Outlines", b"PageMode", b"PageLabels", b"Names", b"Dests", b"OpenAction",
                b"AcroForm"}


class Dictionary(dict):
    """A PDF dictionary as read: keys are the names' bytes without the slash, in file order."""


@dataclass(frozen=True)
class Stream:
    """A PDF stream copied from a typeset page as it is stored (still compressed): the booklet places pages without
    decoding them again."""

    head: Dictionary
    data: bytes  # as stored (still encoded)


class ParsedObjects:
    """Objects parsed from PDFs' bytes, by their number and their bytes as written (from their
    offset to the next object's: a key of content, so a hit is what parsing would give), kept
    from one imposing to the next. A save in ``watch`` sets the book again with a few objects
    changed (a page's stream, a font subset's widths); parsing the others again was most of the
    booklet's time on the save's critical path. Keeps what the last imposing used, no more."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, bytes], object] = {}
        self._used: dict[tuple[int, bytes], object] = {}
        self.reused = 0  # objects taken as parsed before (for tests and the bench)

    def turn(self) -> None:
        """A new imposing: what the last one used is kept for it, the rest let go of."""
        self._kept, self._used = self._used, {}

    def get(self, key: tuple[int, bytes]) -> object:
        value = self._used.get(key, _MISSING)
        if value is _MISSING:
            value = self._kept.get(key, _MISSING)
            if value is not _MISSING:
                self._used[key] = value
        if value is not _MISSING:
            self.reused += 1
        return value

    def put(self, key: tuple[int, bytes], value: object) -> None:
        self._used[key] = value


_MISSING = object()


class SourcePdf:
    """A PDF read object by object, each parsed when first asked for (or found in ``parsed``,
    from an earlier PDF with the same object's bytes). Parsed values are shared: never changed."""

    def __init__(self, data: bytes, parsed: ParsedObjects | None = None):
        self.data = data
        self.offsets: dict[int, int] = {}
        self._parsed: dict[int, object] = {}
        self._memo = parsed
        self._starts: list[int] = []
        start = data.rfind(b"startxref")
        if start < 0:
            raise ValueError("no startxref")
        at = self._xref = int(_INT.search(data, start).group())  # type: ignore[union-attr]
        if not data.startswith(b"xref", at):
            raise ValueError("not a classic cross-reference table (an object stream?)")
        at += 4
        while True:
            at = _skip(data, at)
            if data.startswith(b"trailer", at):
                break
            first = _INT.match(data, at)
            count = _INT.match(data, _skip(data, first.end())) if first else None
            if first is None or count is None:
                raise ValueError(f"a damaged cross-reference table at byte {at}")
            at = _skip(data, count.end())
            for k in range(int(count.group())):
                entry = data[at:at + 20]
                if entry[17:18] == b"n":
                    self.offsets[int(first.group()) + k] = int(entry[:10])
                at += 20
        trailer, _ = _value(data, _skip(data, at + len(b"trailer")))
        if not isinstance(trailer, Dictionary):
            raise ValueError("the trailer is not a dictionary")
        self.trailer: Dictionary = trailer

    def _end(self, at: int) -> int:
        """Where the object at ``at`` ends: the next object's offset, else the cross-reference table's."""
        if not self._starts:
            self._starts = sorted({*self.offsets.values(), self._xref})
        i = bisect_right(self._starts, at)
        return self._starts[i] if i < len(self._starts) else len(self.data)

    def _read(self, n: int, at: int) -> object:
        """Object ``n``, parsed from its bytes at ``at``."""
        head = re.compile(rb"\s*(\d+)\s+(\d+)\s+obj").match(self.data, at)
        if head is None or int(head.group(1)) != n:
            raise ValueError(f"object {n} is not where the table says")
        value, at = _value(self.data, head.end())
        at = _skip(self.data, at)
        if self.data.startswith(b"stream", at) and isinstance(value, Dictionary):
            at += 6
            at += 2 if self.data.startswith(b"\r\n", at) else 1
            length = self.get(value.get(b"Length"))
            if not isinstance(length, Raw) or not length.data.isdigit():
                raise ValueError(f"object {n}: a stream without a length")
            value = Stream(value, self.data[at:at + int(length.data)])
        return value

    def get(self, value: object) -> object:
        """``value``, or the object it refers to."""
        return self.object(value.n) if isinstance(value, Ref) else value

    def object(self, n: int) -> object:
        if n not in self._parsed:
            at = self.offsets.get(n)
            if at is None:
                raise ValueError(f"object {n} is not in the cross-reference table")
            if self._memo is None:
                self._parsed[n] = self._read(n, at)
            else:
                key = (n, self.data[at:self._end(at)])
                value = self._memo.get(key)
                if value is _MISSING:
                    value = self._read(n, at)
                    if not (isinstance(value, Stream) and isinstance(value.head.get(b"Length"), Ref)):
                        self._memo.put(key, value)  # (a length held elsewhere: not this object's bytes alone)
                self._parsed[n] = value
        return self._parsed[n]

    def pages(self) -> list[Dictionary]:
        """The pages in order, each with what it inherits from the page tree filled in."""
        root = self.get(self.trailer.get(b"Root"))
        if not isinstance(root, Dictionary):
            raise ValueError("no document catalog")
        out: list[Dictionary] = []

        def walk(node: object, inherited: dict[bytes, object], depth: int) -> None:
            node = self.get(node)
            if not isinstance(node, Dictionary) or depth > 64:
                raise ValueError("a damaged page tree")
            here = {**inherited, **{k.encode(): node[k.encode()] for k in _INHERITED if k.encode() in node}}
            if node.get(b"Type") == Raw(b"/Pages"):
                kids = self.get(node.get(b"Kids"))
                for kid in kids if isinstance(kids, list) else []:
                    walk(kid, here, depth + 1)
            else:
                out.append(Dictionary({**node, **here}))

        walk(root.get(b"Pages"), {}, 0)
        return out


_BLANK = re.compile(rb"(?:[ \t\r\n\x0c\x00]+|%[^\r\n]*)*")  # white space and comments (to the line's end)


def _skip(data: bytes, at: int) -> int:
    """Past white space and comments."""
    return _BLANK.match(data, at).end()  # type: ignore[union-attr]  # (matches the empty string too)


def _value(data: bytes, at: int) -> tuple[object, int]:
    """The value at ``at`` and where it ends: Dictionary, list, Ref, or Raw (a name, number,
    string, boolean or null, as its own bytes)."""
    at = _skip(data, at)
    c = data[at:at + 1]
    if data.startswith(b"<<", at):
        out = Dictionary()
        at += 2
        while True:
            at = _skip(data, at)
            if data.startswith(b">>", at):
                return out, at + 2
            key, at = _value(data, at)
            if not isinstance(key, Raw) or not key.data.startswith(b"/"):
                raise ValueError(f"a dictionary key that is not a name at byte {at}")
            out[key.data[1:]], at = _value(data, at)
    if c == b"[":
        items: list[object] = []
        at += 1
        while True:
            at = _skip(data, at)
            if data.startswith(b"]", at):
                return items, at + 1
            item, at = _value(data, at)
            items.append(item)
    if c == b"(":
        depth, end = 0, at
        while end < len(data):
            b = data[end]
            if b == 0x5C:  # backslash: the next byte is escaped
                end += 2
                continue
            depth += (b == 0x28) - (b == 0x29)
            end += 1
            if depth == 0:
                return Raw(data[at:end]), end
        raise ValueError("an unterminated string")
    if c == b"<":
        end = data.index(b">", at) + 1
        return Raw(data[at:end]), end
    if c == b"/":
        token = _TOKEN.match(data, at + 1)
        end = token.end() if token else at + 1
        return Raw(data[at:end]), end
    token = _TOKEN.match(data, at)
    if token is None:
        raise ValueError(f"unexpected {c!r} at byte {at}")
    end = token.end()
    if token.group().isdigit():  # an object number, when "n g R" follows
        gen = _INT.match(data, _skip(data, end))
        if gen is not None:
            r = _skip(data, gen.end())
            if data.startswith(b"R", r) and (r + 1 >= len(data) or data[r + 1] in _SPACE + _DELIMITER):
                return Ref(int(token.group())), r + 1
    return Raw(token.group()), end


def _write(value: object) -> bytes:
    """A value as read (its references already renumbered), in PDF syntax."""
    if isinstance(value, Raw):
        return value.data
    if isinstance(value, Ref):
        return b"%d 0 R" % value.n
    if isinstance(value, dict):
        return b"<< " + b" ".join(b"/" + k + b" " + _write(v) for k, v in value.items()) + b" >>"
    if isinstance(value, list):
        return b"[" + b" ".join(_write(v) for v in value) + b"]"
    raise TypeError(f"no PDF form for {type(value).__name__}")


class _Copier:
    """Objects of source PDFs copied into one file, each once, numbered as first met."""

    def __init__(self, out: ObjectFile):
        self.out = out
        # by source, each kept alive here: keyed by id(), a side's overlay read after the last one
        # was let go of could take its id and be given the last one's fonts
        self._done: dict[SourcePdf, dict[int, Ref]] = {}
        # a subset font's name in each source → its name here: ReportLab tags every document's
        # first subset of a font AAAAAA+, and two different subsets under one name in one file
        # (the A5 pages' and a side's printing note) go against ISO 32000-1 §9.6.4 (different
        # subsets, different tags): a RIP that takes fonts by name may print one with the other's glyphs
        self._fonts: dict[tuple[SourcePdf, bytes], bytes] = {}
        self._font_names: set[bytes] = set()

    def value(self, src: SourcePdf, value: object) -> object:
        """``value`` with every object it refers to copied (references to their new numbers)."""
        if isinstance(value, Ref):
            return self.ref(src, value.n)
        if isinstance(value, dict):
            return Dictionary({k: self._font_name(src, v) if k in (b"BaseFont", b"FontName") else self.value(src, v)
                               for k, v in value.items()})
        if isinstance(value, list):
            return [self.value(src, v) for v in value]
        return value

    def _font_name(self, src: SourcePdf, value: object) -> object:
        """A subset font's name (``/AAAAAA+NotoSans-Regular``), given a tag of its own in the
        booklet when another source's subset already has that name (``/AAAAAB+…``)."""
        if not isinstance(value, Raw):
            return self.value(src, value)
        m = re.fullmatch(rb"/[A-Z]{6}\+(.+)", value.data)
        if m is None:
            return value
        key = (src, value.data)
        if key not in self._fonts:
            name, k = value.data, 0
            while name in self._font_names:
                k += 1
                tag = bytes(65 + (k // 26 ** i) % 26 for i in range(5, -1, -1))
                name = b"/" + tag + b"+" + m.group(1)
            self._fonts[key] = name
            self._font_names.add(name)
        return Raw(self._fonts[key])

    def ref(self, src: SourcePdf, n: int) -> Ref:
        done = self._done.setdefault(src, {})
        if n not in done:
            ref = done[n] = self.out.reserve()
            self.put(ref, src.object(n), src)
        return done[n]

    def put(self, ref: Ref, obj: object, src: SourcePdf) -> None:
        if isinstance(obj, Stream):
            head = self.value(src, obj.head)
            assert isinstance(head, dict)
            head[b"Length"] = Raw(b"%d" % len(obj.data))
            self.out.put(ref, Raw(_write(head) + b"\nstream\n" + obj.data + b"\nendstream"))
        else:
            self.out.put(ref, Raw(_write(self.value(src, obj))))

    def form(self, src: SourcePdf, page: Dictionary, clip: tuple[float, float, float, float]) -> Ref:
        """The page's content as a Form XObject clipped to ``clip`` (used once: a page is placed once)."""
        contents = src.get(page.get(b"Contents"))
        if isinstance(contents, Stream):
            stream = contents
        else:  # several streams (or none): decoded and joined into one
            stream = Stream(Dictionary({b"Filter": Raw(b"/FlateDecode")}), zlib.compress(_contents(src, page)))
        head = Dictionary({b"Type": Raw(b"/XObject"), b"Subtype": Raw(b"/Form"),
                           b"BBox": [Raw(num(v, 4).encode()) for v in clip],
                           b"Resources": page.get(b"Resources", Dictionary())})
        head.update((k, v) for k, v in stream.head.items() if k in (b"Filter", b"DecodeParms"))
        ref = self.out.reserve()
        self.put(ref, Stream(head, stream.data), src)
        return ref


def _contents(src: SourcePdf, page: Dictionary) -> bytes:
    """A page's content streams, decoded and joined."""
    contents = src.get(page.get(b"Contents"))
    streams = [src.get(c) for c in contents] if isinstance(contents, list) else [contents]
    if not all(isinstance(s, Stream) for s in streams):
        raise ValueError("a page whose contents are not streams")
    return b"\n".join(_decoded(s) for s in streams)  # type: ignore[arg-type]


def _decoded(stream: Stream) -> bytes:
    filters = stream.head.get(b"Filter")
    names = filters if isinstance(filters, list) else [filters] if filters is not None else []
    if any(f != Raw(b"/FlateDecode") for f in names) or len(names) > 1:
        raise ValueError("a page content stream in a filter other than FlateDecode")
    return zlib.decompress(stream.data) if names else stream.data


def _box(page: Dictionary, src: SourcePdf) -> tuple[float, float, float, float]:
    box = src.get(page.get(b"MediaBox"))
    if not isinstance(box, list) or len(box) != 4:
        raise ValueError("a page without a media box")
    numbers = [src.get(v) for v in box]
    if not all(isinstance(v, Raw) for v in numbers):
        raise ValueError("a media box that is not four numbers")
    left, bottom, right, top = (float(v.data) for v in numbers)  # type: ignore[attr-defined]
    return left, bottom, right, top


def impose_pdf(pages_pdf: bytes, sides: list[tuple[SheetSide, list[Placement]]],
               sheet_mm: tuple[float, float] = A4_LANDSCAPE, marks: Sequence[bytes] = (),
               parsed: ParsedObjects | None = None) -> bytes:
    """Place the pages of ``pages_pdf`` on sheets as laid out (impose/booklet.py ``layout``),
    with ``marks[n]`` (a one-page PDF: fold marks, printing note) over side ``n``; returns the
    booklet PDF's bytes. The same input gives the same bytes. ``parsed``: the objects the last
    imposing parsed (a long-running process's), of which this one reads again only the changed."""
    if parsed is not None:
        parsed.turn()
    src = SourcePdf(pages_pdf, parsed)
    pages = src.pages()
    out = ObjectFile()
    copier = _Copier(out)
    catalog, tree = out.reserve(), out.reserve()
    sw, sh = (v * PT_PER_MM for v in sheet_mm)
    kids: list[Ref] = []
    for n, (_side, placements) in enumerate(sides):
        sheet = out.reserve()
        xobjects = Dictionary()
        chunks: list[bytes] = []
        for i, pl in enumerate(p for p in placements if p.page is not None):
            assert pl.page is not None
            page = pages[pl.page - 1]
            left, bottom, right, top = _box(page, src)
            s = pl.scale
            cut = pl.shift_mm * PT_PER_MM / s  # (in the page's own units)
            clip = (left, bottom, right - cut, top) if pl.half == "left" else (left + cut, bottom, right, top)
            xobjects[b"Pg%d" % i] = copier.form(src, page, clip)
            tx, ty = pl.x_mm * PT_PER_MM - left * s, pl.y_mm * PT_PER_MM - bottom * s
            size = "1 0 0 1" if s == 1 else f"{s:.6f} 0 0 {s:.6f}"
            chunks.append(f"q {size} {tx:.4f} {ty:.4f} cm /Pg{i} Do Q\n".encode("ascii"))
        resources = Dictionary()
        if n < len(marks):  # the side's overlay, drawn over the pages in the sheet's own content
            over = SourcePdf(marks[n], parsed)
            over_page = over.pages()[0]
            left, bottom, _right, _top = _box(over_page, over)
            own = copier.value(over, over.get(over_page.get(b"Resources", Dictionary())))
            if not isinstance(own, dict) or b"XObject" in own:
                raise ValueError("an overlay with resources other than fonts and colours")
            resources.update(own)
            chunks.append(f"q 1 0 0 1 {-left:.4f} {-bottom:.4f} cm\n".encode("ascii") + _contents(over, over_page)
                          + b"\nQ\n")
        resources[b"XObject"] = xobjects
        content = b"".join(chunks)
        body = out.reserve()
        out.put(body, Raw(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"))
        out.put(sheet, Raw(_write(Dictionary({
            b"Type": Raw(b"/Page"), b"Parent": tree,
            b"MediaBox": [Raw(b"0"), Raw(b"0"), Raw(num(sw, 6).encode()), Raw(num(sh, 6).encode())],
            b"Resources": resources, b"Contents": body}))))
        kids.append(sheet)
    out.put(tree, Raw(_write(Dictionary({b"Type": Raw(b"/Pages"), b"Kids": list(kids),
                                         b"Count": Raw(b"%d" % len(kids))}))))
    root = src.get(src.trailer.get(b"Root"))
    assert isinstance(root, Dictionary)
    carried = copier.value(src, Dictionary({k: v for k, v in root.items() if k not in _NOT_CARRIED}))
    out.put(catalog, Raw(_write(Dictionary({b"Type": Raw(b"/Catalog"), b"Pages": tree, **carried}))))  # type: ignore[dict-item]
    info = src.get(src.trailer.get(b"Info"))
    meta = Dictionary(info) if isinstance(info, Dictionary) else Dictionary()
    meta[b"Producer"] = Raw(b"(pnpgen rulebook booklet)")
    info_ref = out.add(Raw(_write(copier.value(src, meta))))
    return b"".join(p for p in out.finish(catalog, info_ref).parts if isinstance(p, bytes))


def outline_carried(pages_pdf: bytes, imposed: bytes, side_of: Sequence[int]) -> bytes:
    """``imposed`` with ``pages_pdf``'s outline (its bookmarks, nested as they are), each pointing
    at the side its page is placed on: ``side_of[n]``, the side (0-based) of page n + 1. Placing
    the pages as forms drops the outline, so a rule sheet set smaller or folded had none."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pages_pdf)) as src, pikepdf.open(io.BytesIO(imposed)) as out:
        number: dict[object, int] = {page.objgen: n for n, page in enumerate(src.pages)}

        def carried(items: list) -> list:
            out_items = []
            for item in items:
                dest = item.destination
                page = number.get(dest[0].objgen) if isinstance(dest, pikepdf.Array) and len(dest) else None
                if page is None:
                    continue  # (a bookmark to no page of the source: nothing to point at)
                new = pikepdf.OutlineItem(str(item.title), side_of[page])
                new.is_closed = item.is_closed
                new.children.extend(carried(list(item.children)))
                out_items.append(new)
            return out_items

        with src.open_outline() as have:
            items = carried(list(have.root))
        if not items:
            return imposed
        with out.open_outline() as outline:
            outline.root.extend(items)
        out.Root.PageMode = src.Root.get("/PageMode", pikepdf.Name.UseOutlines)
        return pdf_bytes(out)
