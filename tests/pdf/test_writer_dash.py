"""pdf/writer: a dashed DieLine (the proof's bleed and safe lines) is stroked with its dash in points."""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.generic import ContentStream

from pnpgen.impose.plan import DieLine, Page, PagePlan
from pnpgen.pdf.writer import write_document
from pnpgen.shapes import Outline, Straight


def test_die_line_dash_is_written_in_points():
    square = Outline((Straight(10, 10, 20, 10), Straight(20, 10, 20, 20), Straight(20, 20, 10, 20), Straight(10, 20, 10, 10)))
    doc = PagePlan("dash", [Page((30, 30), [DieLine(square, dash=(1.0, 0.5)), DieLine(square)])])
    reader = PdfReader(io.BytesIO(write_document(doc, {}, "Helvetica")))
    ops = ContentStream(reader.pages[0].get_contents(), reader).operations
    dashes = [[round(float(v), 3) for v in args[0]] for args, op in ops if op == b"d"]
    assert dashes == [[2.835, 1.417]]  # 1 mm and 0.5 mm; the solid outline sets none
