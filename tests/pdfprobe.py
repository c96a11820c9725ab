"""Read back what a PDF really holds, in millimetres: page boxes, clip rectangles, text positions;
and a page placing one form at several scales, as the rulebook places a face (``form_placed``)."""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject

PT = 25.4 / 72.0


def boxes_mm(page) -> dict[str, tuple[float, ...]]:
    out = {}
    for name in ("mediabox", "trimbox", "bleedbox"):
        box = getattr(page, name)
        out[name] = tuple(round(float(v) * PT, 3) for v in (box.left, box.bottom, box.right, box.top))
    return out


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float  # from the page top, mm
    x1: float
    y1: float

    def inside(self, other: Rect, tol: float = 0.01) -> bool:
        return (self.x0 >= other.x0 - tol and self.y0 >= other.y0 - tol
                and self.x1 <= other.x1 + tol and self.y1 <= other.y1 + tol)

    def overlaps(self, other: Rect) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


def clip_rects(reader: PdfReader, page) -> list[Rect]:
    """The rectangles used as clip paths at page level (each piece is clipped to trim + bleed)."""
    h = float(page.mediabox.top)
    ops = ContentStream(page.get_contents(), reader).operations
    rects = []
    for i, (operands, op) in enumerate(ops):
        if op == b"re" and i + 1 < len(ops) and ops[i + 1][1] in (b"W", b"W*"):
            x, y, w, hh = (float(v) for v in operands)
            rects.append(Rect(x * PT, (h - y - hh) * PT, (x + w) * PT, (h - y) * PT))
    return rects


def stroked_lines(reader: PdfReader, page) -> list[tuple[float, float, float, float]]:
    """Straight 'm … l S' segments drawn at page level (cut marks), as (x1, y1, x2, y2) mm from top."""
    h = float(page.mediabox.top)
    ops = ContentStream(page.get_contents(), reader).operations
    lines = []
    depth = 0
    for i, (operands, op) in enumerate(ops):
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
        elif op == b"m" and i + 2 < len(ops) and ops[i + 1][1] == b"l" and ops[i + 2][1] == b"S" and depth <= 1:
            x1, y1 = (float(v) for v in operands)
            x2, y2 = (float(v) for v in ops[i + 1][0])
            lines.append((x1 * PT, (h - y1) * PT, x2 * PT, (h - y2) * PT))
    return lines


def text_positions(page) -> list[tuple[str, float, float]]:
    """(text, x, y) of each run of text without spaces — (x, y) the first character's origin on
    its baseline, y from the page top, mm — as a viewer places them, inside Form XObjects too
    (pdfium reads the page; ``page`` is a pypdf page, copied out alone)."""
    import io

    from pypdf import PdfWriter

    one = PdfWriter()
    one.add_page(page)
    buf = io.BytesIO()
    one.write(buf)
    found: list[tuple[str, float, float]] = []
    run: list[Glyph] = []
    for g in glyphs(buf.getvalue())[0] + [Glyph(" ", 0, 0, "", 0, False, None)]:
        if run and (g.char.isspace() or g.obj != run[0].obj):
            found.append(("".join(c.char for c in run), run[0].x, run[0].y))
            run = []
        if not g.char.isspace():
            run.append(g)
    return found


def shown(pdf: bytes | Path, page_no: int) -> list[tuple[str, float, float]]:
    """(character, x, y) of each text-showing operation of page ``page_no`` (from 1): its first
    character and its origin as the operation's matrix places it (character spacing included),
    mm from the page's top-left. For the rulebook's headings (``headline.draw_cells``: one glyph
    an operation in a marked ActualText span), whose glyphs a viewer's text spreads evenly over
    the span: the span's first operation gives the span's text, the later ones none, and get its
    next characters in turn."""
    import ctypes

    import pypdfium2.raw as raw

    page = _document(pdf)[page_no - 1]
    tp, h = page.get_textpage(), page.get_height()
    out: list[tuple[str, float, float]] = []
    pending: list[str] = []
    for o in page.get_objects(max_depth=1):
        if o.type != raw.FPDF_PAGEOBJ_TEXT:
            continue
        n = raw.FPDFTextObj_GetText(o.raw, tp.raw, None, 0)
        buf = (ctypes.c_ushort * max(n, 1))()
        raw.FPDFTextObj_GetText(o.raw, tp.raw, buf, n)
        text = bytes(buf)[:max(2 * n - 2, 0)].decode("utf-16-le").rstrip("\0")
        if text:
            pending = list(text)
        if pending:
            m = o.get_matrix()
            out.append((pending.pop(0), m.e * PT, (h - m.f) * PT))
    return out


@dataclass(frozen=True)
class Glyph:
    """One character as a viewer reads it (pdfium)."""
    char: str
    x: float  # its origin, mm from the page's left edge
    y: float  # its baseline, mm from the page top
    font: str  # the font's base name, subset prefix removed ("BIZUDGothic-Regular")
    size: float  # its size on the page in points (font size × text and placing matrices)
    on_page: bool  # drawn by the page itself, not inside a placed Form XObject (a face picture)
    obj: object  # the text object it belongs to (a run of text shares one)


def _document(pdf):
    import pypdfium2 as pdfium

    return pdfium.PdfDocument(pdf.read_bytes() if isinstance(pdf, Path) else pdf)


# A folder whose PDFs stay as they are for the whole test run (the four games ``built`` once
# per run): what ``texts`` and ``glyphs`` read from a file under it is kept, in this process and
# beside the folder (``<folder>.probe/``) for the run's other processes. The books were read
# again and again, each reading of them 1.7 CPU-s. Keyed by the file's path, size and time.
KEEP_ENV = "PNPGEN_PROBE_KEEP"
_KEPT: dict[str, object] = {}


def _kept(pdf: bytes | Path, kind: str, read):
    folder = os.environ.get(KEEP_ENV)
    if not folder or not isinstance(pdf, Path):
        return read(pdf)
    try:
        rel = pdf.resolve().relative_to(Path(folder).resolve())
    except ValueError:
        return read(pdf)
    st = pdf.stat()
    key = kind + "-" + hashlib.sha256(f"{rel.as_posix()}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:32]
    if key not in _KEPT:
        file = Path(folder + ".probe") / f"{key}.pickle"
        try:
            _KEPT[key] = pickle.loads(file.read_bytes())
        except (OSError, EOFError, pickle.UnpicklingError):
            _KEPT[key] = value = read(pdf)
            file.parent.mkdir(exist_ok=True)
            part = file.with_name(f"{file.name}.{os.getpid()}")
            part.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            part.replace(file)
    return _KEPT[key]


def texts(pdf: bytes | Path) -> list[str]:
    """The text of each page as a viewer copies it (pdfium: fast, and inside forms too)."""
    return list(_kept(pdf, "texts", _texts))


def _texts(pdf: bytes | Path) -> list[str]:
    return [page.get_textpage().get_text_range() for page in _document(pdf)]


def glyphs(pdf: bytes | Path) -> list[list[Glyph]]:
    """Every character of every page with its position, font and size (see ``Glyph``)."""
    return [list(page) for page in _kept(pdf, "glyphs", _glyphs)]


def _glyphs(pdf: bytes | Path) -> list[list[Glyph]]:
    import ctypes

    import pypdfium2.raw as raw

    out: list[list[Glyph]] = []
    x, y, name, flags = ctypes.c_double(), ctypes.c_double(), ctypes.create_string_buffer(128), ctypes.c_int()
    m = raw.FS_MATRIX()
    for page in _document(pdf):
        h = page.get_height()
        top = {ctypes.cast(raw.FPDFPage_GetObject(page, i), ctypes.c_void_p).value
               for i in range(raw.FPDFPage_CountObjects(page))}
        tp = page.get_textpage()
        chars = []
        for i in range(tp.count_chars()):
            obj = ctypes.cast(raw.FPDFText_GetTextObject(tp, i), ctypes.c_void_p).value
            raw.FPDFText_GetCharOrigin(tp, i, x, y)
            raw.FPDFText_GetFontInfo(tp, i, name, len(name), flags)
            raw.FPDFText_GetMatrix(tp, i, m)
            font = name.value.decode("latin-1").split("+")[-1]
            size = raw.FPDFText_GetFontSize(tp, i) * (abs(m.a * m.d - m.b * m.c) ** 0.5)
            chars.append(Glyph(tp.get_text_range(i, 1), x.value * PT, (h - y.value) * PT, font, size,
                               obj in top, obj))
        out.append(chars)
    return out


def reader(path: Path) -> PdfReader:
    return PdfReader(str(path))


def form_uses(reader: PdfReader) -> dict[int, int]:
    """How often each Form XObject is placed (``Do``) by the pages of a document, by object number."""
    uses: dict[int, int] = {}
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject") or {}
        for args, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"Do":
                xo = xobjects[args[0]].get_object()
                assert xo["/Subtype"] == "/Form"
                uses[xo.indirect_reference.idnum] = uses.get(xo.indirect_reference.idnum, 0) + 1
    return uses


def placed_forms(page) -> list[tuple[float, float, object]]:
    """(x, y offset in points, Form XObject reference) of every form a page places with
    ``q 1 0 0 1 tx ty cm /Name Do Q`` (the rulebook booklet's A5 pages on a sheet)."""
    import re

    data = page.get_contents().get_data().decode("latin-1")
    forms = page["/Resources"].get("/XObject") or {}
    return [(float(tx), float(ty), forms.raw_get(name))
            for tx, ty, name in re.findall(r"1 0 0 1 ([-\d.]+) ([-\d.]+) cm (/[\w.]+) Do", data) if name in forms]


def placements(reader: PdfReader, page) -> list[tuple[str, list[float]]]:
    """(name, matrix a b c d e f) of every XObject a page's own content places (``Do``), the
    ``cm`` matrices before it multiplied through ``q``/``Q``."""
    out = []
    ctm, stack = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], []
    for args, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            m = [float(a) for a in args]
            ctm = [m[0] * ctm[0] + m[1] * ctm[2], m[0] * ctm[1] + m[1] * ctm[3], m[2] * ctm[0] + m[3] * ctm[2],
                   m[2] * ctm[1] + m[3] * ctm[3], m[4] * ctm[0] + m[5] * ctm[2] + ctm[4],
                   m[4] * ctm[1] + m[5] * ctm[3] + ctm[5]]
        elif op == b"Do":
            out.append((str(args[0]), ctm))
    return out


def form_texts(pdf: bytes | Path) -> list[list[tuple[str, float, float]]]:
    """Per page: (text, x in mm from the page's left edge, size in points) of each text run drawn
    inside the forms the page places, such as the A5 pages a booklet sheet shows (pdfium)."""
    out = []
    for page in glyphs(pdf):
        runs: list[list] = []
        run_of = None
        for g in page:
            if g.on_page:
                continue
            if runs and g.obj == run_of:
                runs[-1][0] += g.char
            else:
                runs.append([g.char, g.x, g.size])
                run_of = g.obj
        out.append([(text.strip(), x, size) for text, x, size in runs if text.strip()])
    return out


def image_xobjects(reader: PdfReader) -> dict[tuple[int, int], object]:
    """Every distinct Image XObject the pages draw, also from inside Form XObjects (the faces),
    by object number: one image drawn on many faces and pages counts once."""
    images: dict[tuple[int, int], object] = {}
    forms: set[tuple[int, int]] = set()

    def visit(resources) -> None:
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        for ref in (xobjects.get_object() if xobjects is not None else {}).values():
            assert isinstance(ref, IndirectObject), "XObjects are indirect objects"
            key, obj = (ref.idnum, ref.generation), ref.get_object()
            if obj["/Subtype"] == "/Image":
                images[key] = obj
            elif obj["/Subtype"] == "/Form" and key not in forms:
                forms.add(key)
                visit(obj.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return images


def soft_masks(reader: PdfReader) -> list[str]:
    """Every place in the file that carries transparency: a /SMask other than /None, a constant
    alpha below 1, a transparency group (a description of each; empty for a print-safe file).
    Every object is read, and the dictionaries written inside it (an inline /ExtGState)."""
    found: list[str] = []

    def visit(num: int, obj) -> None:
        if isinstance(obj, ArrayObject):
            for item in obj:
                visit(num, item)
        if not isinstance(obj, DictionaryObject):  # streams are dictionaries too
            return
        if obj.get("/SMask", "/None") != "/None":
            found.append(f"object {num}: /SMask")
        found.extend(f"object {num}: {k} {obj[k]}" for k in ("/CA", "/ca") if k in obj and float(obj[k]) < 1)
        if obj.get("/S") == "/Transparency":
            found.append(f"object {num}: transparency group")
        for value in obj.values():
            if not isinstance(value, IndirectObject):
                visit(num, value)

    for num in range(1, int(reader.trailer["/Size"])):
        visit(num, reader.get_object(num))
    return found


def page_fonts(page) -> dict[str, DictionaryObject]:
    """Every font a page shows, by its BaseFont (subset prefix dropped): those of the page's own
    resources and of the forms it places (a face's text lives in its form), at any depth."""
    found: dict[str, DictionaryObject] = {}
    seen: set[int] = set()
    todo = [page.get("/Resources")]
    while todo:
        res = todo.pop()
        res = res.get_object() if res is not None else None
        if not res:
            continue
        for ref in (res.get("/Font") or {}).values():
            font = ref.get_object()
            found[str(font["/BaseFont"]).split("+")[-1]] = font
        for ref in (res.get("/XObject") or {}).values():
            x = ref.get_object()
            if x.get("/Subtype") == "/Form" and id(x) not in seen:
                seen.add(id(x))
                todo.append(x.get("/Resources"))
    return found


def font_program(font: DictionaryObject):
    """The embedded TrueType program's descriptor of a simple or a Type0 font, else None."""
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    desc = font.get("/FontDescriptor")
    return desc.get_object() if desc is not None else None


def shown_sizes(pdf: bytes | Path) -> list[float]:
    """The size in points, as printed (``Tf`` by the text matrix and the ``cm`` in effect), of
    every text-showing operator of every page and of the forms it places: what a RIP's "text
    below n pt" check reads (pdfium reports spaces it makes up for line ends at 1 pt)."""
    import io

    import pikepdf

    def times(m, n):
        a, b, c, d, e, f = m
        p, q, r, s, t, u = n
        return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)

    sizes: list[float] = []
    seen: set = set()

    def read(obj, ctm) -> None:
        stack, size, tm = [], 0.0, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        for instruction in pikepdf.parse_content_stream(obj):
            op, args = str(instruction.operator), instruction.operands
            if op == "q":
                stack.append((ctm, size))
            elif op == "Q" and stack:
                ctm, size = stack.pop()
            elif op == "cm":
                ctm = times(tuple(float(v) for v in args), ctm)
            elif op == "Tf":
                size = abs(float(args[1]))
            elif op == "Tm":
                tm = tuple(float(v) for v in args)
            elif op == "BT":
                tm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            elif op in ("Tj", "TJ", "'", '"'):
                a, b, c, d = times(tm, ctm)[:4]
                sizes.append(size * abs(a * d - b * c) ** 0.5)
            elif op == "Do":
                form = obj.Resources.XObject.get(str(args[0]))
                if form is not None and form.get("/Subtype") == "/Form" and form.objgen not in seen:
                    seen.add(form.objgen)
                    m = tuple(float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                    read(form, times(m, ctm))

    with pikepdf.open(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf) as doc:
        for page in doc.pages:
            read(page.obj, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return sizes


def form_placed(draw, scales: list[float], step: float, after=None) -> bytes:
    """A 400 × 400 pt page placing one form, drawn by ``draw(canvas)`` in a 200 pt box, at each of
    ``scales``, ``step`` pt apart (a face the rulebook pictures small); ``after(canvas)`` draws on
    the page itself."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 400), invariant=1)
    canvas.beginForm("face", 0, 0, 200, 200)
    draw(canvas)
    canvas.endForm()
    for n, s in enumerate(scales):
        canvas.saveState()
        canvas.translate(10 + step * n, 10)
        canvas.scale(s, s)
        canvas.doForm("face")
        canvas.restoreState()
    if after is not None:
        after(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
