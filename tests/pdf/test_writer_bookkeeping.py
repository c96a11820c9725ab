"""Issue 22 (a 1,000-card edit's own thread): what a face or a page names is worked out once per
build, not once for every document that shows it, and a document's size is summed once; the
bytes are those each document gets written on its own."""

from __future__ import annotations

import base64
import io

from PIL import Image

from pnpgen.impose.plan import Page, PagePlan, PlaceFace, TextOp
from pnpgen.pdf import pictures, raster, writer
from pnpgen.pdf.assemble import PdfFile, Stored
from pnpgen.pdf.streams import FaceStreams
from pnpgen.pdf.writer import write_document
from pnpgen.shapes import translate
from pnpgen.svg import convert


def _png(colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, "PNG")
    return out.getvalue()


def _plans() -> tuple[list[PagePlan], dict]:
    """Three faces (a picture each), their pages shown by two documents (as a deck's home sheets
    and the all-in-one file show theirs), and a third document of one face per page."""
    arts, pages = {}, []
    for i, colour in enumerate([(200, 30, 30), (30, 200, 30), (30, 30, 200), (90, 90, 90)]):
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">'
               f'<image href="data:image/png;base64,{base64.b64encode(_png(colour)).decode()}" width="60" '
               'height="40"/></svg>')
        arts[f"face{i}"] = convert(svg, f"face {i}")
    for n in range(2):
        pages.append(Page((100.0, 100.0), [PlaceFace(f"face{i}", translate(10.0, 10.0 + 45 * j), (60.0, 40.0), 0.0)
                                           for j, i in enumerate((n, 2))]
                          + [TextOp(5.0, 95.0, f"sheet {n + 1}", "Helvetica", 8.0)]))
    single = [Page((70.0, 50.0), [PlaceFace(f"face{i}", translate(5.0, 5.0), (60.0, 40.0), 0.0)]) for i in range(4)]
    return [PagePlan("home", pages), PagePlan("all", [*pages, *single[:1]]), PagePlan("shop", single[:3])], arts


def test_a_face_or_page_shown_by_several_documents_has_what_it_names_worked_out_once(monkeypatch):
    plans, arts = _plans()
    alone = [write_document(plan, arts, "Helvetica", images=raster.ImageStreams()) for plan in plans]
    worked_out = []
    noted = writer.noted
    monkeypatch.setattr(writer, "noted", lambda content: worked_out.append(content) or noted(content))
    shared, images = FaceStreams(), raster.ImageStreams()
    together = [write_document(plan, arts, "Helvetica", images=images, faces=shared) for plan in plans]
    assert together == alone  # the same bytes as each document written by itself
    pages = {id(page) for plan in plans for page in plan.pages}
    faces = {k for plan in plans for k in plan.faces()}
    assert len(worked_out) == len(faces) + len(pages)  # 3 faces, 5 pages: not once per document (13)
    again = [write_document(plan, arts, "Helvetica", images=images, faces=shared) for plan in plans]
    assert again == alone and len(worked_out) == len(faces) + len(pages)


def test_a_document_whose_pages_begin_with_anothers_goes_on_from_where_that_one_stood(monkeypatch):
    """The all-in-one file begins with a deck's home sheets: written after them, its first pages'
    objects are theirs (the same numbers, the same bytes), not written again."""
    plans, arts = _plans()
    home, everything, shop = plans
    apart = PagePlan("apart", [home.pages[0], shop.pages[1]])  # its first page is the home sheets', not the rest
    plans.append(apart)
    alone = [write_document(plan, arts, "Helvetica", images=raster.ImageStreams()) for plan in plans]
    drawn = []
    page = writer._Writer.page
    monkeypatch.setattr(writer._Writer, "page", lambda self, p, parent: drawn.append(p) or page(self, p, parent))
    shared, images = FaceStreams(), raster.ImageStreams()
    together = [write_document(plan, arts, "Helvetica", images=images, faces=shared) for plan in plans]
    assert together == alone
    assert len(drawn) == 2 + 1 + 3 + 2  # the home sheets, the all-in-one file's last page, the shop's, the other's


def test_a_writers_state_is_kept_only_while_a_document_still_to_be_written_goes_on_from_it(monkeypatch):
    """Issue 22 (3,000 cards' peak with ``--jobs 1``): each document's objects were kept to the
    build's end for a document that might go on from its pages; with the documents to come known
    (``expect``), only a state one of them goes on from is kept, and let go of once it has."""
    plans, arts = _plans()
    home, everything, shop = plans
    alone = [write_document(plan, arts, "Helvetica", images=raster.ImageStreams()) for plan in plans]
    drawn = []
    page = writer._Writer.page
    monkeypatch.setattr(writer._Writer, "page", lambda self, p, parent: drawn.append(p) or page(self, p, parent))
    shared, images = FaceStreams(), raster.ImageStreams()
    shared.expect(plans)
    held = []
    for plan in plans:
        written = write_document(plan, arts, "Helvetica", images=images, faces=shared)
        held.append(sorted(shared.begun))
        assert written == alone[len(held) - 1]
    assert len(drawn) == 2 + 1 + 3  # the all-in-one file went on from the home sheets
    assert held == [[id(home.pages[0])], [], []]  # the home sheets' state until the all-in-one file; no other


def test_a_document_whose_later_pages_show_a_picture_its_first_do_not_is_written_whole(monkeypatch):
    """Each picture is numbered first in its file (in the order the pages show them): a document
    going on from another's pages would number a picture those did not show later than that."""
    plans, arts = _plans()
    home = plans[0]
    more = PagePlan("more", [*home.pages, Page((70.0, 50.0), [PlaceFace("face3", translate(5.0, 5.0), (60.0, 40.0),
                                                                        0.0)])])
    alone = [write_document(plan, arts, "Helvetica", images=raster.ImageStreams()) for plan in (home, more)]
    drawn = []
    page = writer._Writer.page
    monkeypatch.setattr(writer._Writer, "page", lambda self, p, parent: drawn.append(p) or page(self, p, parent))
    shared, images = FaceStreams(), raster.ImageStreams()
    assert [write_document(plan, arts, "Helvetica", images=images, faces=shared) for plan in (home, more)] == alone
    assert len(drawn) == 2 + 3


class _Parts(tuple):
    """A file's parts that count how often they are gone through."""

    walked = 0

    def __iter__(self):
        _Parts.walked += 1
        return super().__iter__()


def test_a_documents_size_is_summed_once(tmp_path):
    (tmp_path / "pic").write_bytes(b"x" * 500)
    parts = _Parts((b"%PDF-1.4\n", Stored(str(tmp_path / "pic"), 500), b"%%EOF\n"))
    doc = PdfFile(parts)
    assert doc.size == 9 + 500 + 6
    walked = _Parts.walked
    assert [doc.size for _ in range(5)] == [515] * 5
    assert _Parts.walked == walked  # (the staging's copies and the records each ask it)


def test_what_pictures_of_one_kind_share_is_written_once_per_build(monkeypatch):
    """Three thousand pictures' dictionaries were each written value by value on every build;
    what pictures of one kind share (bits, colour space, filters) is written once, and each
    picture's dictionary still reads as its own (size, length)."""
    import pypdf

    plans, arts = _plans()
    kinds = []
    kind = pictures.picture_kind
    monkeypatch.setattr(pictures, "picture_kind", lambda *a: kinds.append(a) or kind(*a))
    shared, images = FaceStreams(), raster.ImageStreams()
    written = [write_document(plan, arts, "Helvetica", images=images, faces=shared) for plan in plans]
    assert len(kinds) == 1  # four pictures of one kind (8-bit RGB PNGs), in three documents
    for data, shown in zip(written, (3, 3, 3), strict=True):
        reader = pypdf.PdfReader(io.BytesIO(data))
        shown_pictures = [obj for obj in (reader.get_object(n) for n in range(1, reader.trailer["/Size"]))
                    if hasattr(obj, "get") and obj.get("/Subtype") == "/Image"]
        assert len(shown_pictures) == shown
        for picture in shown_pictures:
            assert (picture["/Width"], picture["/Height"], picture["/BitsPerComponent"]) == (40, 30, 8)
            assert picture["/ColorSpace"] == "/DeviceRGB"
            assert Image.frombytes("RGB", (40, 30), picture.get_data()).getpixel((3, 3)) in {
                (200, 30, 30), (30, 200, 30), (30, 30, 200), (90, 90, 90)}


def test_furniture_written_once_a_document_names_its_glyphs_on_every_page_that_shows_it(monkeypatch):
    """Issue 22 (a count edit's redrawn home sheets): each item of a page's furniture (a sheet's
    title, scale bar, legend) is written once per document and page height, and still noted on
    every page that shows it: a page whose only text is the one the page before wrote names the
    font and shows the text, and the bytes are those of writing each item anew."""
    from pypdf import PdfReader

    from conftest import REPO
    from pnpgen import fonts

    font = fonts.locate("BIZUDPGothic-Regular", REPO / "fonts")  # (a font pnpgen comes with)
    title, other = TextOp(5.0, 10.0, "カード 表 1/2", font, 8.0), TextOp(5.0, 20.0, "表 カード二", font, 8.0)
    mark = TextOp(5.0, 30.0, "Helvetica text", "Helvetica", 6.0)
    pages = [Page((100.0, 100.0), [title, mark]), Page((100.0, 100.0), [title]),
             Page((100.0, 100.0), [other, title, mark]), Page((100.0, 80.0), [title])]
    plan = PagePlan("furniture", pages)
    furnished = []
    furnish = writer._Writer.furnish
    written = write_document(plan, {}, font)
    monkeypatch.setattr(writer._Writer, "furnish", lambda self, op, content: furnished.append(op) or furnish(self, op, content))
    assert write_document(plan, {}, font) == written
    assert len(furnished) == 4  # title (twice: two page heights), mark, other: not 7
    monkeypatch.setattr(writer._Writer, "furniture", lambda self, op, content: furnish(self, op, content))
    assert write_document(plan, {}, font) == written  # the same bytes as each item written anew
    reader = PdfReader(io.BytesIO(written))
    for page, texts in zip(reader.pages, (["カード 表 1/2", "Helvetica text"], ["カード 表 1/2"],
                                          ["表 カード二", "カード 表 1/2", "Helvetica text"], ["カード 表 1/2"])):
        shown = page.extract_text()
        assert all(text in shown for text in texts), shown
        assert len(page["/Resources"]["/Font"]) == 1 + ("Helvetica text" in texts)
