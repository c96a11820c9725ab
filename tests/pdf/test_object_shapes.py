"""An object's dictionary written once with its references left open (``Shape``, pdf/objects.py)
and filled with each document's numbers gives the bytes of the dictionary written whole; the file
laid out from such objects (``ObjectFile.finish``) is the one its objects make."""

from __future__ import annotations

import hashlib
import re

import pytest

from pnpgen.pdf.assemble import Stored
from pnpgen.pdf.objects import Name, ObjectFile, Raw, Ref, Shape, Slot, pdf


def test_a_filled_shape_is_the_dictionary_written_whole():
    def page(form: object, font: object, parent: object) -> dict:
        return {"Type": Name("Page"), "Parent": parent, "MediaBox": Raw(b"[0 0 100 200]"),
                "Resources": {"Font": {"F1": font}, "XObject": {"Face%1": form, "Im": [form, 5]}},
                "Contents": Ref(9), "Title": "100 % (Ω)"}

    shape = Shape(page(Slot("form:a"), Slot("font:gothic"), Slot("parent")))
    refs = {"form:a": Ref(12), "font:gothic": Ref(3), "parent": Ref(2)}
    assert shape.fill(refs) == pdf(page(Ref(12), Ref(3), Ref(2)))
    assert shape.slots == ("parent", "font:gothic", "form:a", "form:a")  # in the order written
    assert Shape.from_json(shape.to_json(), set(refs)).fill(refs) == shape.fill(refs)


def test_a_shape_read_back_is_refused_unless_it_holds_up():
    shape = Shape({"Parent": Slot("parent"), "Kids": [Slot("form:a")]})
    fmt, slots = shape.to_json()
    assert Shape.from_json([fmt, slots], {"parent", "form:a"}) is not None
    assert Shape.from_json([fmt, slots], {"parent"}) is None  # a slot the writer would not fill
    assert Shape.from_json([fmt, slots[:1]], {"parent", "form:a"}) is None  # fewer slots than open references
    assert Shape.from_json([fmt.replace("%d", "%s", 1), slots], {"parent", "form:a"}) is None
    assert Shape.from_json([fmt, [["form", "a"]]], {"parent", "form:a"}) is None
    assert Shape.from_json("<< >>", set()) is None


def test_a_nul_byte_in_a_value_is_refused_not_taken_for_a_slot():
    with pytest.raises(ValueError):
        Shape({"Bad": Raw(b"\0"), "Parent": Slot("parent")})


def test_a_file_is_laid_out_from_its_objects_with_the_id_of_their_bytes(tmp_path):
    art = tmp_path / "pixels.bin"
    art.write_bytes(b"0123456789" * 10)
    f = ObjectFile()
    catalog, pages, info = f.reserve(), f.reserve(), f.reserve()
    picture = f.reserve()
    f.put_stream(picture, {"Subtype": Name("Image")}, (Stored(str(art), 40), Stored(str(art), 20, 60)), named=b"KEY")
    plain = f.add_stream({"Filter": Name("FlateDecode")}, b"stream bytes")
    kept = f.add_stream({}, Stored(str(art), 5, 10))
    shaped = f.put_shaped(f.reserve(), Shape({"Type": Name("Page"), "Parent": Slot("parent"),
                                              "Contents": Slot("contents"), "Length": 3}), {"parent": pages, "contents": plain}, b"abc")
    f.put(pages, {"Type": Name("Pages"), "Kids": [shaped], "Count": 1})
    f.put(catalog, {"Type": Name("Catalog"), "Pages": pages})
    f.put(info, {"Title": "t"})
    data = bytes(f.finish(catalog, info, [b"title"]))
    # each object where the table says, the table where startxref says
    startxref = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    assert data[startxref:].startswith(b"xref\n0 8\n")
    offsets = [int(x) for x in re.findall(rb"(\d{10}) 00000 n ", data[startxref:])]
    assert len(offsets) == 7
    for n, at in enumerate(offsets, 1):
        assert data[at:].startswith(b"%d 0 obj\n" % n)
    assert data[offsets[shaped.n - 1]:].startswith(b"%d 0 obj\n<< /Type /Page /Parent 2 0 R /Contents %d 0 R /Length 3 >>"
                                                  b"\nstream\nabc\nendstream\nendobj\n" % (shaped.n, plain.n))
    assert b"stream\n" + art.read_bytes()[:40] + art.read_bytes()[60:80] + b"\nendstream" in data
    # the /ID: the identity and every object's bytes, a named stream's data by its name, a stored part by its file's name
    objects = data[offsets[0]:startxref]
    pic = data[offsets[3]:offsets[4]]
    head, tail = pic[:pic.index(b"stream\n") + 7], b"\nendstream\nendobj\n"
    kept_at = offsets[kept.n - 1]
    kept_body = data[kept_at:offsets[kept.n]]
    identity = (b"title" + objects[:offsets[3] - offsets[0]] + head + b"KEY" + tail
                + data[offsets[4]:kept_at] + kept_body.replace(art.read_bytes()[10:15], b"pixels.bin")
                + data[offsets[kept.n]:startxref])
    fid = hashlib.sha256(identity).hexdigest()[:32].encode()
    assert b"/ID [<" + fid + b"> <" + fid + b">]" in data
