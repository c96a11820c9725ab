"""Saddle-stitch imposition: page order, padding, creep, right binding, measured in real PDFs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfgen import canvas

from pdfprobe import form_texts, placed_forms
from pnpgen import fonts as fontreg
from pnpgen.impose import booklet
from pnpgen.impose.booklet import layout, padded_count, padded_sequence, saddle_stitch
from pnpgen.pdf.booklet import ParsedObjects, impose_pdf
from pnpgen.units import PT_PER_MM

FONTS = Path(__file__).resolve().parents[2] / "fonts"
MARK_X = 20.0  # mm from the A5 page's left edge, where each test page prints its number


# ---------------------------------------------------------------- page order


def test_eight_pages_example_from_the_print_facts():
    sides = saddle_stitch(8)
    assert [(s.sheet, s.side, s.left, s.right) for s in sides] == [
        (1, "front", 8, 1), (1, "back", 2, 7), (2, "front", 6, 3), (2, "back", 4, 5)]


@pytest.mark.parametrize("n", [4, 8, 12, 16, 20, 32, 64])
def test_saddle_stitch_order_for_4k_pages(n):
    sides = saddle_stitch(n)
    assert len(sides) == n // 2
    for k in range(1, n // 4 + 1):
        front, back = sides[2 * k - 2], sides[2 * k - 1]
        assert (front.left, front.right) == (n - 2 * k + 2, 2 * k - 1)
        assert (back.left, back.right) == (2 * k, n - 2 * k + 1)
    # every page once; facing pages on one side sum to n + 1
    assert sorted(p for s in sides for p in (s.left, s.right)) == list(range(1, n + 1))
    assert all(s.left + s.right == n + 1 for s in sides)
    assert (sides[0].left, sides[0].right) == (n, 1) and (sides[1].left, sides[1].right) == (2, n - 1)


@pytest.mark.parametrize("n", [4, 8, 16, 28])
def test_right_binding_reverses_each_side(n):
    left, right = saddle_stitch(n, "left"), saddle_stitch(n, "right")
    for a, b in zip(left, right):
        assert (a.sheet, a.side) == (b.sheet, b.side)
        assert (b.left, b.right) == (a.right, a.left)
    assert (right[0].left, right[0].right) == (1, n)


def test_not_a_multiple_of_four_is_refused():
    with pytest.raises(ValueError):
        saddle_stitch(6)
    with pytest.raises(ValueError):
        saddle_stitch(8, "top")


@pytest.mark.parametrize("n,total", [(1, 4), (4, 4), (5, 8), (13, 16), (15, 16), (16, 16)])
def test_padding_to_a_multiple_of_four(n, total):
    assert padded_count(n) == total
    seq = padded_sequence(n)
    assert len(seq) == total and seq[:n] == list(range(1, n + 1)) and seq[n:] == [None] * (total - n)


def test_padding_can_keep_the_back_cover_last():
    assert padded_sequence(13, keep_last=True) == list(range(1, 13)) + [None, None, None, 13]


# ---------------------------------------------------------------- geometry


def test_pages_meet_at_the_fold_without_creep():
    sides = layout(8)
    for _side, (left, right) in sides:
        assert left.x_mm + 148 == pytest.approx(148.5) and right.x_mm == pytest.approx(148.5)
        assert left.y_mm == right.y_mm == 0
        assert left.shift_mm == right.shift_mm == 0


def test_creep_shifts_inner_sheets_toward_the_fold():
    sides = layout(16, creep_mm=0.2)
    for side, (left, right) in sides:
        shift = 0.2 * (side.sheet - 1)
        assert left.x_mm == pytest.approx(0.5 + shift)
        assert right.x_mm == pytest.approx(148.5 - shift)
    assert booklet.creep_shift(4, 0.25) == pytest.approx(0.75)


def test_too_much_creep_is_refused():
    with pytest.raises(ValueError):
        layout(64, creep_mm=5)


# ---------------------------------------------------------------- measured in a PDF


def numbered_pages(n: int, moved: int = 0) -> bytes:
    """A5 pages each printing its number at MARK_X mm from its left edge (page ``moved``'s 5 mm
    further right)."""
    font = fontreg.register("BIZUDPGothic-Regular", FONTS)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(148 * PT_PER_MM, 210 * PT_PER_MM), invariant=1, initialFontName=font)
    for i in range(1, n + 1):
        c.setFont(font, 20)
        c.drawString((MARK_X + (5 if i == moved else 0)) * PT_PER_MM, 100 * PT_PER_MM, f"P{i}")
        c.showPage()
    c.save()
    return buf.getvalue()


def marks(pdf: bytes) -> list[dict[int, float]]:
    """Per booklet page: page number → x of its mark in mm from the sheet's left edge."""
    return [{int(t[1:]): x for t, x, _ in sheet if t.startswith("P") and t[1:].isdigit()} for sheet in form_texts(pdf)]


def test_imposed_pdf_order_and_size():
    pdf = impose_pdf(numbered_pages(8), layout(8))
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4
    box = reader.pages[0].mediabox
    assert float(box.width) / PT_PER_MM == pytest.approx(297, abs=0.01)
    assert float(box.height) / PT_PER_MM == pytest.approx(210, abs=0.01)
    order = [sorted(m, key=m.get) for m in marks(pdf)]
    assert order == [[8, 1], [2, 7], [6, 3], [4, 5]]


def test_a_book_set_again_is_imposed_parsing_only_the_objects_that_changed():
    """watch sets the book again on a save: the booklet takes the objects the last imposing
    parsed where their bytes are the same, and gives the bytes a fresh imposing gives (the page
    that moved is never the last one's)."""
    parsed = ParsedObjects()
    before, after = numbered_pages(8), numbered_pages(8, moved=3)
    first = impose_pdf(before, layout(8), parsed=parsed)
    assert first == impose_pdf(before, layout(8)) and parsed.reused == 0
    pdf = impose_pdf(after, layout(8), parsed=parsed)
    assert pdf == impose_pdf(after, layout(8))
    assert 0 < parsed.reused < after.count(b" 0 obj")  # the font, the other pages: not the moved page
    assert marks(pdf)[2][3] == pytest.approx(marks(first)[2][3] + 5, abs=0.01)  # page 3: sheet 2's front
    assert marks(pdf)[2][6] == pytest.approx(marks(first)[2][6], abs=0.01)


def test_imposed_blank_pages_are_empty():
    pdf = impose_pdf(numbered_pages(5), layout(5, keep_last=True))
    order = [sorted(m, key=m.get) for m in marks(pdf)]
    # 8 slots: pages 1-4, three blanks, then page 5 as the back cover
    assert order == [[5, 1], [2], [3], [4]]


def test_right_binding_in_the_pdf():
    pdf = impose_pdf(numbered_pages(8), layout(8, binding="right"))
    assert [sorted(m, key=m.get) for m in marks(pdf)] == [[1, 8], [7, 2], [3, 6], [5, 4]]


def test_creep_measured_in_the_pdf():
    src = numbered_pages(12)
    plain, crept = marks(impose_pdf(src, layout(12))), marks(impose_pdf(src, layout(12, creep_mm=0.3)))
    sides = layout(12)
    for (side, (left, right)), m0, m1 in zip(sides, plain, crept):
        shift = 0.3 * (side.sheet - 1)
        assert m1[left.page] - m0[left.page] == pytest.approx(shift, abs=0.01)  # left page moves right
        assert m1[right.page] - m0[right.page] == pytest.approx(-shift, abs=0.01)  # right page moves left
        assert m0[left.page] == pytest.approx(0.5 + MARK_X, abs=0.01)
        assert m0[right.page] == pytest.approx(148.5 + MARK_X, abs=0.01)
    # sheet 3 of 3, front [8, 5]: both pages 0.6 mm nearer the fold
    assert crept[4][8] - plain[4][8] == pytest.approx(0.6, abs=0.01)
    assert crept[4][5] - plain[4][5] == pytest.approx(-0.6, abs=0.01)


def test_imposition_is_deterministic():
    src = numbered_pages(8)
    a = impose_pdf(src, layout(8, creep_mm=0.1))
    b = impose_pdf(src, layout(8, creep_mm=0.1))
    assert a == b
    # no random /ID: a hash of the booklet's content, so another layout of the same pages has another
    out_id = PdfReader(io.BytesIO(a)).trailer["/ID"]
    assert list(out_id) == list(PdfReader(io.BytesIO(impose_pdf(src, layout(8, creep_mm=0.1)))).trailer["/ID"])
    assert list(out_id) != list(PdfReader(io.BytesIO(impose_pdf(src, layout(8, creep_mm=0.2)))).trailer["/ID"])


def test_every_page_is_a_clipped_form_placed_once():
    """Each A5 page becomes one Form XObject (its own content stream) clipped at the fold, and
    the booklet keeps no A5 page and no bookmark pointing at one."""
    src = numbered_pages(8)
    pdf = impose_pdf(src, layout(8, creep_mm=0.5))
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4 and "/Outlines" not in reader.trailer["/Root"]
    forms = [form for sheet in reader.pages for _, _, form in placed_forms(sheet)]
    assert len(forms) == 8 and len({f.idnum for f in forms}) == 8
    widths = [float(f.get_object()["/BBox"][2]) - float(f.get_object()["/BBox"][0]) for f in forms]
    # sheet 1 (no creep) whole; sheet 2 clipped 0.5 mm at the fold
    assert widths[:4] == pytest.approx([148 * PT_PER_MM] * 4, abs=0.01)
    assert widths[4:] == pytest.approx([147.5 * PT_PER_MM] * 4, abs=0.01)



def test_a_page_of_several_content_streams_becomes_one_form():
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject

    w = PdfWriter(clone_from=PdfReader(io.BytesIO(numbered_pages(4))))
    page = w.pages[0]
    extra = DecodedStreamObject()
    extra.set_data(b"% a second content stream\n")
    page.replace_contents(ArrayObject([page.get_contents(), extra]))
    assert isinstance(page["/Contents"], ArrayObject)
    buf = io.BytesIO()
    w.write(buf)
    pdf = impose_pdf(buf.getvalue(), layout(4))
    assert [sorted(m, key=m.get) for m in marks(pdf)] == [[4, 1], [2, 3]]


def _split_contents(pdf: bytes) -> bytes:
    """``pdf`` (two pages) with each page's content stream split in two streams, in a page tree
    two levels deep whose top node holds the media box: what other writers make."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject

    writer = PdfWriter(clone_from=io.BytesIO(pdf))
    for page in writer.pages:
        data = page.get_contents().get_data()
        cut = data.index(b"BT")
        parts = ArrayObject()
        for piece in (data[:cut], data[cut:]):
            stream = DecodedStreamObject()
            stream.set_data(piece)
            parts.append(writer._add_object(stream))
        page[NameObject("/Contents")] = parts
    tree = writer.root_object["/Pages"]
    box = writer.pages[0]["/MediaBox"]
    middle = DictionaryObject({NameObject("/Type"): NameObject("/Pages"), NameObject("/Kids"): tree["/Kids"],
                               NameObject("/Count"): NumberObject(len(writer.pages)),
                               NameObject("/Parent"): tree.indirect_reference})
    middle_ref = writer._add_object(middle)
    for page in writer.pages:
        del page["/MediaBox"]
        page[NameObject("/Parent")] = middle_ref
    tree[NameObject("/Kids")] = ArrayObject([middle_ref])
    tree[NameObject("/MediaBox")] = box
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_pages_in_several_streams_and_an_inherited_media_box_are_placed_whole():
    """A page whose content is an array of streams becomes one form of their joined content; a
    media box inherited from the page tree is the page's."""
    pdf = impose_pdf(_split_contents(numbered_pages(4)), layout(4))
    assert marks(pdf) == marks(impose_pdf(numbered_pages(4), layout(4)))
    assert all(sheet for sheet in marks(pdf))


def test_a_pdf_it_cannot_read_is_refused_by_name():
    with pytest.raises(ValueError, match="startxref"):
        impose_pdf(b"%PDF-1.4\n", layout(4))


def test_two_overlays_read_one_after_the_other_keep_their_own_objects():
    """Each side's overlay is a PDF of its own whose objects have the same numbers as the last
    one's: the second is copied whole, never taken for the first (a copy keyed by ``id()`` of a
    source let go of gave a back side the front side's font, so 裏 read as 表)."""
    import gc
    import weakref

    from pnpgen.pdf.booklet import SourcePdf, _Copier
    from pnpgen.pdf.objects import ObjectFile

    copier = _Copier(ObjectFile())
    first = SourcePdf(numbered_pages(1))
    number = next(iter(first.offsets))
    one = copier.ref(first, number)
    held = weakref.ref(first)
    del first
    gc.collect()
    assert held() is not None  # kept while its copies are known: no later source can take its id
    second = SourcePdf(numbered_pages(2))
    assert copier.ref(second, number) != one


def test_on_letter_two_a5_pages_are_set_smaller_to_fit_and_meet_at_the_fold():
    """Two A5 pages (296 mm) are wider than Letter (279.4 mm): they are set at 279.4 / 296 and
    still meet at the sheet's middle, centred on its height; A4 keeps them at their size."""
    sides = layout(8, sheet_mm=booklet.LETTER_LANDSCAPE)
    s = 279.4 / 296
    for _side, (left, right) in sides:
        assert left.scale == right.scale == pytest.approx(s)
        assert left.x_mm == pytest.approx(0) and left.x_mm + 148 * s == pytest.approx(279.4 / 2)
        assert right.x_mm == pytest.approx(279.4 / 2) and right.x_mm + 148 * s == pytest.approx(279.4)
        assert left.y_mm == pytest.approx((215.9 - 210 * s) / 2)
    assert [p.page for _, pls in sides for p in pls] == [p.page for _, pls in layout(8) for p in pls]
    assert all(p.scale == 1 for _, pls in layout(8) for p in pls)


def test_every_font_subset_in_the_booklet_has_a_name_of_its_own():
    """A game trial: the booklet held the A5 pages' ``AAAAAA+NotoSans-Regular`` and each side's
    printing note's, other subsets of the same name (ReportLab tags each document's first subset
    AAAAAA); ISO 32000-1 §9.6.4 wants different subsets tagged differently, and a RIP that takes
    fonts by name may print one with the other's glyphs. Each source's subset keeps one name of its
    own, its font descriptor's FontName the same, and the pages still read as they did."""
    src = numbered_pages(4)
    font = fontreg.register("BIZUDPGothic-Regular", FONTS)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(297 * PT_PER_MM, 210 * PT_PER_MM), invariant=1, initialFontName=font,
                      pageCompression=0)
    c.setFont(font, 8)
    c.drawString(20, 10, "fold here")
    c.showPage()
    c.save()
    note = buf.getvalue()
    pdf = impose_pdf(src, layout(4), marks=[note, note])
    reader = PdfReader(io.BytesIO(pdf))
    fonts = {}
    for page in reader.pages:
        for ref in page["/Resources"]["/Font"].values():
            fonts[ref.idnum] = ref.get_object()
        for form in page["/Resources"]["/XObject"].values():
            for ref in form.get_object()["/Resources"]["/Font"].values():
                fonts[ref.idnum] = ref.get_object()
    names = [str(f["/BaseFont"]) for f in fonts.values()]
    assert len(fonts) == 3 and len(set(names)) == 3, names  # the pages' subset and the two notes'
    assert all(name.endswith("+BIZUDPGothic-Regular") and len(name.split("+")[0]) == 7 for name in names), names
    assert all(f["/FontDescriptor"]["/FontName"] == f["/BaseFont"] for f in fonts.values())
    assert marks(pdf) == marks(impose_pdf(src, layout(4)))
