"""The PDF writer: the only stage that knows points. Turns a page plan (impose/plan.py, mm, y
down) into PDF bytes.

Each face used in a document becomes one Form XObject, drawn once and placed with ``Do`` on
every page that shows it, so a deck of 80 cards over 5 faces carries 5 drawings, not 80. A
face's stream does not depend on the document (pdf/content.py: glyph ids of the font, pictures
and patterns named by their content), so it is made once per build and reused by every document
that shows it (``FaceStreams``, pdf/streams.py); pictures are placed from their cached streams when the file is
written (pdf/assemble.py). Fonts are embedded as CIDFontType2 subsets that keep the font's glyph
ids (pdf/sfnt.py). Faces outside the converter's subset (svglib's drawings) are drawn by
ReportLab and put in afterwards (pdf/svglib_fallback.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from pnpgen import fonts
from pnpgen.impose.plan import DieLine, LineOp, Page, PagePlan, PlaceFace, RectOp, Strokes, TextOp
from pnpgen.pdf.assemble import PdfFile
from pnpgen.pdf.colour import REGISTRATION, to_cmyk
from pnpgen.pdf.content import (
    Content,
    Paint,
    font_operator,
    font_resource,
    image_resource,
    metrics,
    show_text,
)
from pnpgen.pdf.embed import embed_font
from pnpgen.pdf.objects import Name, ObjectFile, Raw, Ref, Shape, Slot, flate, pdf, text_string
from pnpgen.pdf.patch import Layout, Recorder, laid_out, patched, plan
from pnpgen.pdf.pictures import picture_shape
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.streams import GLYPHS, PICTURE, STANDARD, Begun, FaceStreams, PageStream, noted
from pnpgen.pdf.svglib_fallback import put_fallback_faces
from pnpgen.shapes import Affine, Outline, Straight
from pnpgen.svg.artwork import Art
from pnpgen.svg.style import pdf_matrix
from pnpgen.units import PT_PER_MM, mm_to_pt, num

CUT_CONTOUR = "CutContour"  # the die line's spot colour on print-shop output: most RIPs and cutters know it
CUT_CONTOUR_CMYK = (0.0, 1.0, 0.0, 0.0)  # how a proof shows it (magenta)
# Shop marks (トンボ) on CMYK pages print in the registration colour: the Separation ``All`` (ISO
# 32000-1 §8.6.6.4), which a RIP puts on every plate and a preflight counts as no ink of the design
# (a DeviceCMYK 100/100/100/100 reads as 400 % ink); its alternate is all four inks.
ALL = "All"


def _separation(name: str, cmyk: tuple[float, ...]) -> list:
    return [Name("Separation"), Name(name), Name("DeviceCMYK"),
            {"FunctionType": 2, "Domain": [0, 1], "C0": [0, 0, 0, 0], "C1": list(cmyk), "N": 1}]


SEPARATIONS = {CUT_CONTOUR: _separation(CUT_CONTOUR, CUT_CONTOUR_CMYK), ALL: _separation(ALL, REGISTRATION)}
# The die line overprints (ISO 32000-1 §8.6.7): a RIP that draws the CutContour layer to find the
# cut (print-and-cut RIPs read it whatever its print state) leaves the art's inks under it, where a
# knock-out would print a hairline of bare paper along the cut.
CUT_OVERPRINT = "PnpCutOverprint"
CUT_OVERPRINT_STATE = {"Type": Name("ExtGState"), "OP": True, "op": True, "OPM": 1}
DATE = "D:20000101000000+00'00'"  # a fixed date: the same inputs give the same bytes



def write_document(doc: PagePlan, arts: Mapping[str, Art], font: str, cmyk: bool = False,
                   images: ImageStreams | None = None, faces: FaceStreams | None = None) -> bytes:
    """The document's PDF bytes; ``arts`` holds every face the plan names; pictures are placed
    from their streams in ``images`` (made once per picture, pdf/raster.py). ``font`` is the
    document's font (a game without decks yet still names one)."""
    return bytes(write_pdf(doc, arts, font, cmyk, images, faces))


def write_pdf(doc: PagePlan, arts: Mapping[str, Art], font: str, cmyk: bool = False,
              images: ImageStreams | None = None, faces: FaceStreams | None = None) -> PdfFile:
    """The same file as ``write_document``, as parts (pdf/assemble.py): the pictures' streams
    stay in the cache folder of ``images`` until the file is written."""
    fonts.ensure(font)
    images, faces = images or ImageStreams(), faces or FaceStreams()
    last = faces.last.get(id(doc)) if faces.last is not None else None
    out = _Writer(doc.title, arts, cmyk, images, faces).write(doc, last) if last is not None else None
    if out is None:  # (not written from the last build's file: written afresh)
        out = _Writer(doc.title, arts, cmyk, images, faces).write(doc)
        assert out is not None  # (afresh: always written)
    if out.fallbacks:
        faces_drawn = {_form_name(k): arts[k] for k in out.fallbacks}
        return PdfFile((put_fallback_faces(bytes(out.file), faces_drawn, cmyk, font),))
    return out.file


@dataclass
class _Written:
    """A written PDF and the faces it left as empty stand-ins (what pnpgen's writer does not draw itself): svglib
    draws those in afterwards."""

    file: PdfFile
    fallbacks: list[str]


class _Writer:
    def __init__(self, title: str, arts: Mapping[str, Art], cmyk: bool, images: ImageStreams,
                 faces: FaceStreams):
        self.title = title
        self.arts = arts
        self.cmyk = cmyk
        self.images = images
        self.faces = faces
        self.f = ObjectFile()
        self.forms: dict[str, Ref] = {}
        self.fallbacks: list[str] = []
        self.pictures: dict[str, Ref] = {}
        self.paints: dict[str, Ref] = {}
        self.glyphs: dict[str, dict[int, str]] = {}  # font → glyph id → a character it shows
        self.font_refs: dict[str, Ref] = {}
        self.standard: dict[str, Ref] = {}
        self.layers: dict[str, Ref] = {}
        self.page_h = 0.0
        # each item of furniture as written on a page this high, with the glyphs it shows (``furniture``)
        self.form_names: dict[str, str] = {}  # each face's form as a page names it (``place``)
        self.furnished: dict[tuple, tuple[str, tuple[tuple[str, dict[int, str]], ...], tuple[str, ...]]] = {}
        self.rec = Recorder() if faces.last is not None else None  # what the pages number (pdf/patch.py)
        # a face's form copied from the last file, numbered next, or None (set by pdf/patch.py ``patched``)
        self.copy_form: Callable[[str], Ref | None] | None = None

    def write(self, doc: PagePlan, last: tuple[str, Layout] | None = None) -> _Written | None:
        """The document; with ``last`` (the last build's file and layout), written from that
        file, or None when it cannot be (pdf/patch.py ``patched``)."""
        begun = self.begun_as(doc.pages)  # (going on from another document's writer costs less)
        found = plan(self, doc.pages, last[1], last[0]) if last is not None and begun is None else None
        if last is not None and begun is None and found is None:
            return None
        if begun is None:
            laid = laid_out(self, doc.pages, last[1], found) if last is not None and found is not None else None
            if laid is None:
                self.pictures_first(doc.pages)
            else:  # (the unchanged pages' pictures by their keys: their faces not walked)
                self.number_pictures(laid)
            catalog, pages_ref, info = self.f.reserve(), self.f.reserve(), self.f.reserve()
            if self.rec is not None:
                self.rec.first = self.f.next
            kids: list[Ref] = []
            labels: list[tuple[int, str]] = []
        else:  # its first pages are another document's: on from where that one's writer stood
            self.state = begun.state
            (catalog, pages_ref, info), kids, labels = begun.refs, list(begun.kids), list(begun.labels)
        if last is not None and found is not None:
            copied = patched(self, doc.pages, last[1], found, pages_ref)
            if copied is None:
                return None
            kids = copied
            for n, page in enumerate(doc.pages):
                if page.label is not None:
                    labels.append((n, page.label))
        for n in range(len(kids), len(doc.pages)):
            page = doc.pages[n]
            kids.append(self.page(page, pages_ref))
            if page.label is not None:
                labels.append((n, page.label))
        end = self.f.next
        if doc.pages:
            self.faces.written(doc.pages[0], lambda: Begun(tuple(doc.pages), (self.cmyk, self.arts, self.images),
                                                           (catalog, pages_ref, info), tuple(kids), tuple(labels), self.state))
        f = self.f
        for name, ref in self.font_refs.items():
            embed_font(f, name, ref, self.glyphs.get(name, {}))
        for name, ref in self.standard.items():
            f.put(ref, {"Type": Name("Font"), "Subtype": Name("Type1"), "BaseFont": Name(name),
                        "Encoding": Name("WinAnsiEncoding")})
        f.put(pages_ref, {"Type": Name("Pages"), "Kids": kids, "Count": len(kids)})
        root: dict = {"Type": Name("Catalog"), "Pages": pages_ref, "PageMode": Name("UseNone")}
        if labels:
            root["PageLabels"] = {"Nums": page_labels(labels)}
        if doc.bookmarks:
            root["Outlines"] = self.outline(doc.bookmarks, kids)
            root["PageMode"] = Name("UseOutlines")
        if self.layers:
            f.version = "1.5"
            every = [self.layers[name] for name in sorted(self.layers)]
            root["OCProperties"] = {"OCGs": every, "D": {
                "Name": "pnpgen", "Order": every, "ON": every, "OFF": [],
                "AS": [{"Event": Name("Print"), "OCGs": every, "Category": [Name("Print")]},
                       {"Event": Name("View"), "OCGs": every, "Category": [Name("View")]}]}}
        f.put(catalog, root)
        # No Author, Subject or Keywords: ReportLab's "anonymous" and "unspecified" stood in a
        # shop's preflight report and Acrobat's document properties as if the designer wrote them.
        f.put(info, {"CreationDate": DATE, "Creator": "pnpgen", "ModDate": DATE, "Producer": "pnpgen",
                     "Title": self.title, "Trapped": Name("False")})
        file = f.finish(catalog, info, [self.title.encode()])
        if self.rec is not None:
            file.layout = self.rec.layout(self, end, [self.faces.digests.get(id(page)) for page in doc.pages])
        return _Written(file, self.fallbacks)

    def begun_as(self, pages: list[Page]) -> Begun | None:
        """A document of this build whose pages (faces, pictures, colours) begin these, or None."""
        begun = self.faces.begun.get(id(pages[0])) if pages else None
        if begun is None or begun.with_[0] != self.cmyk or begun.with_[1] is not self.arts \
                or begun.with_[2] is not self.images or len(begun.pages) > len(pages):
            return None
        if not all(a is b for a, b in zip(begun.pages, pages)):
            return None  # (and the pages after them show no picture those did not: each is numbered first)
        return begun if all(key in begun.state[3] for key, _ in self.shown(pages[len(begun.pages):])) else None

    @property
    def state(self) -> tuple:  # what the pages written so far left: the file's objects and what they number (a copy)
        return (self.f.copy(), dict(self.forms), list(self.fallbacks), dict(self.pictures), dict(self.paints),
                {font: dict(gids) for font, gids in self.glyphs.items()}, dict(self.font_refs), dict(self.standard),
                dict(self.layers), self.rec.copy() if self.rec is not None else None)

    @state.setter
    def state(self, state: tuple) -> None:
        f, forms, fallbacks, pictures, paints, glyphs, font_refs, standard, layers, rec = state
        self.rec = rec.copy() if rec is not None and self.rec is not None else None
        self.f, self.forms, self.fallbacks, self.pictures, self.paints, self.font_refs, self.standard, self.layers = \
            f.copy(), dict(forms), list(fallbacks), dict(pictures), dict(paints), dict(font_refs), dict(standard), dict(layers)
        self.glyphs = {font: dict(gids) for font, gids in glyphs.items()}

    def pictures_first(self, pages: list[Page]) -> None:
        """Every picture's image object numbered and laid out first in the file, in the order the
        pages first show them (``shown``): an edit of a card's text or count leaves the pictures'
        bytes, nearly all of a big document, the same at the same offsets, so the file it replaces
        can be rewritten from there on only (engine/spare.py)."""
        met: set[str] = set()
        shows = []  # (each page's pictures' keys, for the layout: pdf/patch.py ``laid_out``)
        every: list[tuple[str, bytes]] = []
        for page in pages:
            shown = self.shown_on(page, met)
            shows.append([key for key, _ in shown])
            every += shown
        self.number_pictures(every)
        if self.rec is not None:
            self.rec.shows = shows

    def number_pictures(self, shown: list[tuple[str, bytes]]) -> None:
        """The pictures ``shown`` (each by its key and data or stand-in), numbered first in the
        file as ``picture`` numbers them, once a build for every document that numbers the same
        pictures in the same order (a deck's home sheets, shop file and unique-card file): the
        first document's picture objects are kept as a block (``ObjectFile.block``), laid out once,
        and put as they are in the others' files."""
        f, first = self.f, self.f.next
        if self.pictures or not shown:
            for key, data in shown:
                self.picture(key, data)
            return
        known = (self.cmyk, first, tuple(k for k, _ in shown))
        found = self.faces.picture_blocks.get(known)
        if found is not None and found[0] is self.images:
            f.put_block(found[1])
            self.pictures.update(found[2])
            return
        for k, data in shown:
            self.picture(k, data)
        self.faces.picture_blocks[known] = (self.images, f.block(first), dict(self.pictures))

    def shown(self, pages: list[Page]) -> Iterator[tuple[str, bytes]]:
        """The pictures of ``pages`` as ``page`` meets them: the page's own, then each face's."""
        met: set[str] = set()
        for page in pages:
            yield from self.shown_on(page, met)

    def shown_on(self, page: Page, met: set[str]) -> list[tuple[str, bytes]]:
        """The pictures of one page as ``page`` meets them, but those of faces ``met`` already
        (``met`` then holds the page's faces too)."""
        made = self.faces.page(page, self.cmyk, self.page_stream)
        out = sorted(made.content.pictures.items())
        for face in made.forms.values():
            if face not in met:
                met.add(face)
                out += sorted(self.faces.get(face, self.arts[face], self.cmyk, self.images).content.pictures.items())
        return out

    def outline(self, bookmarks: list[tuple[int, str]], kids: list[Ref]) -> Ref:
        """The document outline (ISO 32000-1 §12.3.3): one level, each item opening its page."""
        f = self.f
        root, items = f.reserve(), [f.reserve() for _ in bookmarks]
        for n, ((page, title), ref) in enumerate(zip(bookmarks, items, strict=True)):
            item: dict = {"Title": title, "Parent": root, "Dest": [kids[page], Name("Fit")]}
            if n:
                item["Prev"] = items[n - 1]
            if n + 1 < len(items):
                item["Next"] = items[n + 1]
            f.put(ref, item)
        f.put(root, {"Type": Name("Outlines"), "First": items[0], "Last": items[-1], "Count": len(items)})
        return root

    # ------------------------------------------------------------------ resources

    def font(self, name: str) -> Ref:
        known = self.font_refs.get(name) or self.standard.get(name)  # (met before: every face names its fonts)
        if known is not None:
            return known
        if metrics(name) is None:
            if name not in self.standard:
                self.standard[name] = self.f.reserve()
            return self.standard[name]
        if name not in self.font_refs:
            self.font_refs[name] = self.f.reserve()
        return self.font_refs[name]

    def note(self, names: tuple, refs: dict[str, Ref]) -> None:
        """The objects a stream names (``noted``: its fonts, pictures and patterns), in ``refs``
        by their slots' names (``resources``), each numbered as this document first meets it."""
        for kind, slot, name, value in names:
            if kind == GLYPHS:
                self.glyphs.setdefault(name, {}).update(value)
            if kind in (GLYPHS, STANDARD):
                refs[slot] = self.font(name)
            elif kind == PICTURE:
                refs[slot] = self.pictures.get(name) or self.picture(name, value)
            else:
                refs[slot] = self.paint(name, value)

    def paint(self, name: str, paint: Paint) -> Ref:
        ref = self.paints.get(name)
        if ref is None:
            x0, y0, x1, y1 = paint.area
            ref = self.f.add_stream({"Type": Name("XObject"), "Subtype": Name("Form"), "FormType": 1,
                                     "BBox": [x0, y0, x1, y1], "Resources": {"Pattern": paint.patterns},
                                     "Filter": Name("FlateDecode")}, flate(paint.data))
            self.paints[name] = ref
        return ref

    def picture(self, key: str, data: bytes) -> Ref:
        ref = self.pictures.get(key)
        if ref is None:
            placed = self.images.locate(data)
            shape = self.faces.once(("picture", placed.key, placed.size), lambda: picture_shape(placed, self.faces.once))
            ref = self.f.put_shaped(self.f.reserve(), shape, {}, placed.part, named=placed.key.encode("ascii"))
            self.pictures[key] = ref
        return ref

    def form(self, key: str) -> Ref:
        ref = self.forms.get(key)
        if ref is None and self.copy_form is not None:  # (its form as the last file holds it: pdf/patch.py)
            ref = self.copy_form(key)
            if ref is not None:
                self.forms[key] = ref
        if ref is None:
            face = self.faces.get(key, self.arts[key], self.cmyk, self.images)
            refs: dict[str, Ref] = {}
            if face.names is None:
                face.names = noted(face.content)
            self.note(face.names, refs)
            if face.shape is None:
                face.shape = Shape({"Type": Name("XObject"), "Subtype": Name("Form"), "FormType": 1,
                                    "BBox": [0, 0, face.width_pt, face.height_pt],
                                    "Resources": resources(face.content), "Filter": Name("FlateDecode"),
                                    "Length": len(face.data)})
            ref = self.f.put_shaped(self.f.reserve(), face.shape, refs, face.data)
            self.forms[key] = ref
            if self.rec is not None:
                self.rec.form(self.faces.names.get(key, key), ref, face.content.glyphs, sorted(face.content.pictures))
            if face.fallback:
                self.fallbacks.append(key)
        return ref

    # ------------------------------------------------------------------ colours and coordinates

    def colour(self, rgb, stroke: bool = False) -> str:
        if self.cmyk:
            c, m, y, k = to_cmyk(*rgb)
            return f"{pdf_num(c)} {pdf_num(m)} {pdf_num(y)} {pdf_num(k)} {'K' if stroke else 'k'}"
        r, g, b = rgb
        return f"{pdf_num(r)} {pdf_num(g)} {pdf_num(b)} {'RG' if stroke else 'rg'}"

    def pt(self, x: float, y: float) -> str:
        return f"{pdf_num(mm_to_pt(x))} {pdf_num(mm_to_pt(self.page_h - y))}"

    def to_pt(self) -> Affine:
        """Page mm (y down) → PDF points (y up)."""
        return Affine(PT_PER_MM, 0.0, 0.0, -PT_PER_MM, 0.0, self.page_h * PT_PER_MM)

    def rect_clip(self, box) -> str:
        x0, y0, x1, y1 = box
        return (f"{pdf_num(mm_to_pt(x0))} {pdf_num(mm_to_pt(self.page_h - y1))} "
                f"{pdf_num(mm_to_pt(x1 - x0))} {pdf_num(mm_to_pt(y1 - y0))} re W n")

    def path(self, path: Outline) -> str:
        """A closed outline in page mm as path operators (arcs as Bézier curves of ≤ 90°)."""
        ops = []
        first = True
        for seg in path.segments:
            if first:
                ops.append(f"{self.pt(*seg.p0)} m")
                first = False
            if isinstance(seg, Straight):
                ops.append(f"{self.pt(*seg.p1)} l")
                continue
            n = max(1, math.ceil(abs(seg.sweep) / (math.pi / 2) - 1e-9))
            step = seg.sweep / n
            k = 4 / 3 * math.tan(step / 4) * seg.r
            for i in range(n):
                a0 = seg.a0 + step * i
                a1 = a0 + step
                x0, y0 = seg.cx + seg.r * math.cos(a0), seg.cy + seg.r * math.sin(a0)
                x1, y1 = seg.cx + seg.r * math.cos(a1), seg.cy + seg.r * math.sin(a1)
                c1 = (x0 - k * math.sin(a0), y0 + k * math.cos(a0))
                c2 = (x1 + k * math.sin(a1), y1 - k * math.cos(a1))
                ops.append(f"{self.pt(*c1)} {self.pt(*c2)} {self.pt(x1, y1)} c")
        ops.append("h")
        return " ".join(ops)

    @staticmethod
    def dash(values) -> str:
        return "[" + " ".join(pdf_num(mm_to_pt(v)) for v in values) + "] 0 d"

    # ------------------------------------------------------------------ pages

    def page(self, page: Page, parent: Ref) -> Ref:
        if self.rec is not None:
            self.rec.page_begun(self)
        made = self.faces.page(page, self.cmyk, self.page_stream)
        if made.names is None:
            made.names = (noted(made.content), tuple(("form:" + key, key) for key in made.forms.values()),
                          tuple(("layer:" + name, name) for name in sorted(made.layers)),
                          self.faces.once(("contents", len(made.data)), lambda: Shape(
                              {"Filter": Name("FlateDecode"), "Length": len(made.data)})))
        resources, forms_named, layers, contents = made.names
        refs: dict[str, Ref] = {"parent": parent}
        if resources:  # (numbered in this order: its resources, forms, layers, contents, itself)
            self.note(resources, refs)
        forms = self.forms
        for slot, key in forms_named:
            refs[slot] = forms.get(key) or self.form(key)
        for slot, name in layers:
            refs[slot] = self.layer(name)
        f = self.f
        refs["contents"] = f.put_shaped(f.reserve(), contents, refs, made.data)
        if made.shape is None:
            made.shape = self.page_shape(page, made)
        ref = f.put_shaped(f.reserve(), made.shape, refs)
        if self.rec is not None:
            self.rec.page_done(self, made.content.glyphs)
        return ref

    def page_shape(self, page: Page, made: PageStream) -> Shape:
        """The page's dictionary with its references left open (``page`` fills them)."""
        res = resources(made.content)
        forms = {name: Slot("form:" + key) for name, key in made.forms.items()}
        if forms:
            res["XObject"] = {**res.get("XObject", {}), **forms}
        if made.spots:
            res["ColorSpace"] = {name: SEPARATIONS[name] for name in sorted(made.spots)}
        if CUT_CONTOUR in made.spots:
            res["ExtGState"] = {**res.get("ExtGState", {}), CUT_OVERPRINT: CUT_OVERPRINT_STATE}
        if made.layers:
            res["Properties"] = {name: Slot("layer:" + name) for name in sorted(made.layers)}
        d: dict = {"Type": Name("Page"), "Parent": Slot("parent"), "MediaBox": self.boxes(page.size_mm, None)}
        for key, box in (("TrimBox", page.trim), ("BleedBox", page.bleed)):
            if box is not None:
                d[key] = self.boxes(page.size_mm, box)
        d["Resources"] = res
        d["Contents"] = Slot("contents")
        return Shape(d)

    def boxes(self, size_mm: tuple[float, float], box: tuple[float, float, float, float] | None) -> Raw:
        """A page box in PDF syntax (the media box without ``box``)."""
        def make() -> Raw:
            w, h = size_mm
            if box is None:
                return Raw(pdf([0, 0, mm_to_pt(w), mm_to_pt(h)]))
            x0, y0, x1, y1 = box
            return Raw(pdf([mm_to_pt(x0), mm_to_pt(h - y1), mm_to_pt(x1), mm_to_pt(h - y0)]))

        return self.faces.once(("box", size_mm, box), make)

    def page_stream(self, page: Page) -> PageStream:
        """The page's own drawing: faces placed (by their forms' names), marks, die lines, text."""
        self.page_h = page.size_mm[1]
        ops: list[str] = []
        content = Content()
        forms: dict[str, str] = {}
        spots: set[str] = set()
        layers: set[str] = set()
        if page.matrix is not None:  # a printer profile's correction: the whole page, exactly
            ops.append(pdf_matrix(self.to_pt().inverse().then(page.matrix).then(self.to_pt()).tuple()) + " cm")
        for item in page.items:
            if isinstance(item, PlaceFace):
                forms[_form_name(item.face)] = item.face
                ops.append(self.place(item))
            elif isinstance(item, Strokes):
                if item.registration and self.cmyk:
                    spots.add(ALL)
                ops.append(self.strokes(item))
            elif isinstance(item, DieLine):
                if item.spot:
                    spots.add(CUT_CONTOUR)
                if item.layer is not None:
                    layers.add(item.layer)
                ops.append(self.die_line(item))
            else:
                ops.append(self.furniture(item, content))
        return PageStream(flate("\n".join(ops).encode("latin-1")), content, forms, frozenset(spots), frozenset(layers))

    def layer(self, name: str) -> Ref:
        """An optional content group (ISO 32000-1 §8.11): shown on screen, not printed (a cutter's
        RIP reads the spot colour)."""
        if name not in self.layers:
            self.layers[name] = self.f.add({"Type": Name("OCG"), "Name": name, "Usage": {
                "Print": {"PrintState": Name("OFF")}, "View": {"ViewState": Name("ON")}}})
        return self.layers[name]

    def place(self, item: PlaceFace) -> str:
        """A face clipped to its outline (and page rectangle), placed as its form."""
        where = self.faces.once(("place", item.to_page, item.trim_mm, item.bleed_mm, item.clip, item.clip_rect,
                                 self.page_h), lambda: self.placing(item))
        named = self.form_names.get(item.face)
        if named is None:
            named = self.form_names[item.face] = Name(_form_name(item.face)).pdf().decode("latin-1")
        return f"{where} {named} Do Q"

    def placing(self, item: PlaceFace) -> str:
        """What comes before a face's form is named: its clip and its matrix."""
        ops = ["q"]
        if item.clip_rect is not None:
            ops.append(self.rect_clip(item.clip_rect))
        if item.clip is not None:
            box = item.clip.as_rect()
            if box is not None:  # a rectangle: written as one 're', as readers expect of a piece box
                ops.append(self.rect_clip(box))
            else:
                ops.append(self.path(item.clip) + " W n")
        b = item.bleed_mm
        # form points (origin at the bleed's bottom-left, y up) → piece mm → page mm → page points
        form_to_piece = Affine(1 / PT_PER_MM, 0.0, 0.0, -1 / PT_PER_MM, -b, item.trim_mm[1] + b)
        ops.append(pdf_matrix(form_to_piece.then(item.to_page).then(self.to_pt()).tuple()) + " cm")
        return " ".join(ops)

    def strokes(self, item: Strokes) -> str:
        return self.faces.once(("strokes", item, self.page_h, self.cmyk), lambda: self.draw_strokes(item))

    def draw_strokes(self, item: Strokes) -> str:
        registration = item.registration and self.cmyk  # (an RGB page has no plates: its marks print black)
        ops = ["q", f"/{ALL} CS 1 SCN" if registration else self.colour(item.colour, stroke=True),
               f"{pdf_num(item.width_pt)} w"]
        if item.dash:
            ops.append(self.dash(item.dash))
        for ln in item.lines:
            ops.append(f"{self.pt(ln.x1, ln.y1)} m {self.pt(ln.x2, ln.y2)} l S")
        ops.append("Q")
        return " ".join(ops)

    def die_line(self, item: DieLine) -> str:
        """Stroke a closed outline (a die line): black on home sheets, CutContour on shop pages."""
        ops = []
        if item.layer is not None:
            ops.append(f"/OC {Name(item.layer).pdf().decode('latin-1')} BDC")
        ops.append("q")
        if item.clip_rect is not None:
            ops.append(self.rect_clip(item.clip_rect))
        ops.append(f"/{CUT_OVERPRINT} gs /{CUT_CONTOUR} CS 1 SCN" if item.spot else self.colour(item.colour, stroke=True))
        ops.append(f"{pdf_num(item.width_pt)} w")
        if item.dash:
            ops.append(self.dash(item.dash))
        ops.append(self.path(item.path) + " S Q")
        if item.layer is not None:
            ops.append("EMC")
        return " ".join(ops)

    def furniture(self, op: TextOp | RectOp | LineOp, content: Content) -> str:
        """Page furniture laid out in mm elsewhere: notes, tables, maps. Each item written once
        per document and page height (a sheet's title, its scale bar and its legend are the same
        on every sheet of a deck), its glyphs noted in ``content`` as ``show_text`` notes them."""
        key = (op, self.page_h)
        found = self.furnished.get(key)
        if found is None:
            own = Content()
            text = self.furnish(op, own)
            found = self.furnished[key] = (text, tuple(own.glyphs.items()),
                                           tuple(sorted(own.standard_fonts)))
        text, glyphs, standard = found
        for font, pairs in glyphs:
            gids = content.glyphs.setdefault(font, {})
            if gids:
                for g, c in pairs.items():
                    gids.setdefault(g, c)
            else:  # (the page's first text in the font: its glyphs as they came)
                gids.update(pairs)
        content.standard_fonts.update(standard)
        return text

    def furnish(self, op: TextOp | RectOp | LineOp, content: Content) -> str:
        """One item of furniture written out (``furniture``)."""
        ops = ["q"]
        if isinstance(op, TextOp):
            fonts.ensure(op.font)  # parsed on first use
            ops.append(self.colour(op.colour))
            x, y = mm_to_pt(op.x), mm_to_pt(self.page_h - op.y)
            if op.angle:
                a = math.radians(-op.angle)
                ops.append(pdf_matrix((math.cos(a), math.sin(a), -math.sin(a), math.cos(a), x, y)) + " cm")
                x = y = 0.0
            m = metrics(op.font)
            width = m.width(op.text, op.size) if m is not None else _standard_width(op.text, op.font, op.size)
            x -= width / 2 if op.anchor == "middle" else width if op.anchor == "end" else 0.0
            shown = show_text(content, op.font, op.text).decode("latin-1")
            ops.append(f"BT {font_operator(op.font, op.size).decode('latin-1')} "
                       f"1 0 0 1 {pdf_num(x)} {pdf_num(y)} Tm {shown} Tj ET")
        elif isinstance(op, RectOp):
            if op.fill is not None:
                ops.append(self.colour(op.fill))
            if op.stroke is not None:
                ops.append(self.colour(op.stroke, stroke=True))
            ops.append(f"{pdf_num(op.width_pt)} w")
            paint = "B" if op.fill is not None and op.stroke is not None else "f" if op.fill is not None else \
                "S" if op.stroke is not None else "n"
            ops.append(f"{pdf_num(mm_to_pt(op.x))} {pdf_num(mm_to_pt(self.page_h - op.y - op.h))} "
                       f"{pdf_num(mm_to_pt(op.w))} {pdf_num(mm_to_pt(op.h))} re {paint}")
        else:
            ops.append(self.colour(op.colour, stroke=True))
            ops.append(f"{pdf_num(op.width_pt)} w")
            if op.dash:
                ops.append(self.dash(op.dash))
            ln = op.line
            ops.append(f"{self.pt(ln.x1, ln.y1)} m {self.pt(ln.x2, ln.y2)} l S")
        ops.append("Q")
        return " ".join(ops)


def resources(content: Content) -> dict:
    """The resources of a stream showing ``content`` (its fonts, pictures and patterns), each
    object left open as the slot ``_Writer.note`` fills."""
    res: dict = {}
    names = {}
    for font in content.glyphs:
        names[font_resource(font)] = Slot("font:" + font)
    for font in content.standard_fonts:
        names["S" + font_resource(font)] = Slot("font:" + font)
    if names:
        res["Font"] = dict(sorted(names.items()))
    xobjects = {image_resource(key): Slot("picture:" + key) for key in sorted(content.pictures)}
    xobjects.update((name, Slot("paint:" + name)) for name in sorted(content.paints))
    if xobjects:
        res["XObject"] = xobjects
    return res


def page_labels(labels: list[tuple[int, str]]) -> Raw:
    """The page labels' number tree (ISO 32000-1 §12.4.2: each labelled page's index, then
    ``<< /P label >>``) as ``pdf`` writes the array, written at once: a shop's unique-faces file
    labels every page (6,000 at 3,000 cards, written again at every edit), each a dictionary ``pdf``
    took value by value."""
    return Raw(b"[" + b" ".join([b"%d << /P %s >>" % (n, text_string(label)) for n, label in labels]) + b"]")


def pdf_num(v: float) -> str:
    """A number of a page's own drawing: six decimals (a millionth of a point), so a mark put at
    5 mm reads back as 5 mm, not 4.99999."""
    return num(v, 6)


def _form_name(key: str) -> str:
    return "Face" + key[:20]


def _standard_width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, size)
