"""Shop marks (トンボ) on CMYK pages print in the registration colour: the Separation ``All`` with
a DeviceCMYK 100/100/100/100 alternate (pdf/writer.py). A RIP puts it on every plate, a
preflight passes it, and the ink check does not count it as 400 % ink on the piece. RGB pages
(an export in RGB, the home sheets) keep black marks: an RGB page has no plates."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from preflight import problems

from conftest import make_workspace, run
from pnpgen.pdf.colour import inks_used, over_limit
from pnpgen.pdf.overprint import over_limit as overprint_over_limit

MM = 25.4 / 72
ROOM, BLEED, TRIM = 8.0, 3.0, (63.0, 88.0)  # the doujin preset's page round a poker card (exports/faces.py)


def _export(tmp_path: Path, *extra: str, name: str = "out") -> bytes:
    root = tmp_path / "ws"
    if not root.exists():
        make_workspace(root, pieces=["カード1", "カード2"])
    out = tmp_path / name
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--out", str(out), *extra) == 0
    return (out / "test" / "doujin" / "cards.pdf").read_bytes()


def _page_strokes(pdf: bytes) -> tuple[list[tuple[str, tuple[float, ...], list[tuple[float, float]]]], dict]:
    """(stroke colour space, stroke colour, the path's points in mm from the page's top-left) of
    every stroke in the first page's own content (the marks: the faces are forms), and the
    page's colour space resources."""
    out = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        height = float(page.MediaBox[3])
        spaces = {str(k): v for k, v in (page.Resources.get("/ColorSpace") or {}).items()}
        space, colour, points = "/DeviceGray", (0.0,), []
        for operands, op in pikepdf.parse_content_stream(page):
            name, numbers = str(op), [float(v) for v in operands if not isinstance(v, pikepdf.Name)]
            if name == "CS":
                space = str(operands[0])
            elif name in ("K", "RG", "G", "SC", "SCN"):
                space = {"K": "/DeviceCMYK", "RG": "/DeviceRGB", "G": "/DeviceGray"}.get(name, space)
                colour = tuple(numbers)
            elif name in ("m", "l"):
                points.append((numbers[0] * MM, (height - numbers[1]) * MM))
            elif name == "S":
                out.append((space, colour, points))
                points = []
        return out, {k: _plain(v) for k, v in spaces.items()}


def _plain(obj):
    if isinstance(obj, pikepdf.Array):
        return [_plain(v) for v in obj]
    if isinstance(obj, pikepdf.Dictionary):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, pikepdf.Name):
        return str(obj)
    return float(obj)


def _outside_the_bleed(x: float, y: float) -> bool:
    x0, y0 = ROOM, ROOM
    x1, y1 = ROOM + TRIM[0] + 2 * BLEED, ROOM + TRIM[1] + 2 * BLEED
    return not (x0 + 1e-3 < x < x1 - 1e-3 and y0 + 1e-3 < y < y1 - 1e-3)


def test_cmyk_marks_print_in_the_separation_all_and_pass_preflight_and_the_ink_check(tmp_path):
    pdf = _export(tmp_path)
    strokes, spaces = _page_strokes(pdf)
    assert len(strokes) >= 16  # the double トンボ at four corners and the centre marks
    assert {(space, colour) for space, colour, _ in strokes} == {("/All", (1.0,))}  # every mark, full tint
    assert spaces == {"/All": ["/Separation", "/All", "/DeviceCMYK",
                               {"/C0": [0.0] * 4, "/C1": [1.0] * 4, "/Domain": [0.0, 1.0], "/FunctionType": 2.0,
                                "/N": 1.0}]}
    # the marks stand in the room round the bleed, none on the piece
    assert all(_outside_the_bleed(x, y) for _, _, points in strokes for x, y in points)
    assert problems(pdf) == []  # PDF/X-1a: a Separation with a DeviceCMYK alternate
    assert all((1.0, 1.0, 1.0, 1.0) not in inks for inks in inks_used(pdf))
    assert over_limit(pdf, 300) == [] and overprint_over_limit(pdf, 300) == []
    # The check would see the marks if they were a DeviceCMYK 100/100/100/100: 400 % on every page.
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            page.Contents.write(page.Contents.read_bytes().replace(b"/All CS 1 SCN", b"1 1 1 1 K"))
        four = io.BytesIO()
        doc.save(four)
    assert [(page, ink) for page, _, ink in over_limit(four.getvalue(), 300)] == [(0, 400.0), (1, 400.0),
                                                                                   (2, 400.0), (3, 400.0)]


def test_the_preflight_finds_a_colour_space_the_resources_do_not_define(tmp_path):
    pdf = _export(tmp_path)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        del doc.pages[0].Resources["/ColorSpace"]
        broken = io.BytesIO()
        doc.save(broken)
    assert "page 1: colour operator CS sets /All, which the resources do not define" in problems(broken.getvalue())


def test_the_export_without_pdfx_and_with_outlined_text_keeps_the_marks_in_all(tmp_path):
    for extra in (("--pdfx", "none"), ("--outline-text",)):
        strokes, spaces = _page_strokes(_export(tmp_path, *extra, name=extra[0]))
        assert {(space, colour) for space, colour, _ in strokes} == {("/All", (1.0,))}
        assert list(spaces) == ["/All"]


def test_rgb_pages_keep_black_marks(tmp_path):
    pdf = _export(tmp_path, "--colour", "rgb", "--pdfx", "none")
    strokes, spaces = _page_strokes(pdf)
    assert len(strokes) >= 16 and {(space, colour) for space, colour, _ in strokes} == {("/DeviceRGB", (0.0, 0.0, 0.0))}
    assert spaces == {}


def test_home_sheets_keep_black_marks(tmp_path):
    root = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "b")) == 0
    pdf = (tmp_path / "b" / "test" / "cards.pdf").read_bytes()
    assert b"/Separation /All" not in pdf and b"/All" not in pdf
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        data = doc.pages[0].Contents.read_bytes()
    assert re.search(rb"(?<![\d.])0 0 0 RG", data)  # the トンボ, black


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript (tiffsep) not installed")
def test_the_marks_are_on_all_four_plates(tmp_path):
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(_export(tmp_path))
    subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiffsep", "-r100", "-dFirstPage=1",
                    "-dLastPage=1", f"-sOutputFile={tmp_path / 'sep.tif'}", str(pdf)], check=True, timeout=120)
    assert not (tmp_path / "sep(All).tif").exists()  # a registration colour, not a fifth plate
    px = 100 / 25.4
    # the room left of the bleed (tiffsep plates: 255 = no ink): the marks alone, on every plate alike
    strip = (0, 0, round((ROOM - 0.5) * px), round((2 * ROOM + TRIM[1] + 2 * BLEED) * px))
    inked = {}
    for plate in ("Cyan", "Magenta", "Yellow", "Black"):
        image = Image.open(tmp_path / f"sep({plate}).tif").convert("L").crop(strip)
        inked[plate] = image.point(lambda v: 255 if v < 128 else 0).tobytes()
        assert inked[plate].count(255) > 20, plate  # the left トンボ and centre mark
    assert len(set(inked.values())) == 1
