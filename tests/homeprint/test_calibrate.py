"""``pnpgen calibrate`` (issue 25, item 1): a two-page sheet whose back rulers sit exactly behind
the front's crosshairs after the duplex flip, with 100 mm bars on both sides, read back in mm."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from conftest import run
from pdfprobe import stroked_lines, texts
from pnpgen.data.formats import PAPER_SIZES
from pnpgen.impose.calibration import RULER_AT, CalibrationOptions, targets


def _has(lines, x1, y1, x2, y2, tol=0.01) -> bool:
    return any(abs(a - x1) < tol and abs(b - y1) < tol and abs(c - x2) < tol and abs(d - y2) < tol
               for a, b, c, d in lines)


@pytest.mark.parametrize("paper, duplex", [("a4", "long"), ("letter", "short")])
def test_back_rulers_read_zero_behind_each_front_cross(tmp_path, paper, duplex):
    out = tmp_path / "cal.pdf"
    assert run(tmp_path, "calibrate", "--paper", paper, "--duplex", duplex, "--out", str(out)) == 0
    reader = PdfReader(out)
    assert len(reader.pages) == 2
    front, back = (stroked_lines(reader, p) for p in reader.pages)
    w, h = PAPER_SIZES[paper]
    for tx, ty in targets(CalibrationOptions(paper=paper, duplex=duplex)):
        assert _has(front, tx - 12, ty, tx + 12, ty) and _has(front, tx, ty - 12, tx, ty + 12)
        bx, by = (w - tx, ty) if duplex == "long" else (tx, h - ty)
        for v in range(-6, 7):  # tick v (2 mm; the zero tick 3 mm) at v mm from the mirrored cross
            long = 3.0 if v == 0 else 2.0
            assert _has(back, bx + v, by + RULER_AT, bx + v, by + RULER_AT + long), (tx, ty, v)
            assert _has(back, bx + RULER_AT, by + v, bx + RULER_AT + long, by + v), (tx, ty, v)
    for lines in (front, back):  # the 100 mm bars, across and down
        assert any(abs((c - a) - 100) < 0.001 and abs(d - b) < 0.001 for a, b, c, d in lines)
        assert any(abs((d - b) - 100) < 0.001 and abs(c - a) < 0.001 for a, b, c, d in lines)
    say = texts(out)
    assert "printers.yaml" in say[0] and "back_offset_mm" in say[1]


def test_english_instructions(tmp_path):
    out = tmp_path / "cal.pdf"
    assert run(tmp_path, "calibrate", "--lang", "en", "--out", str(out)) == 0
    assert "Duplex calibration A4" in texts(out)[0]
