"""PDF/X-1a:2003 shop files (DriveThruCards, 同人): each passes the project's preflight
(tests/exports/preflight.py), which checks every rule pnpgen claims; the same export without
PDF/X fails it, so the preflight can fail."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from preflight import problems

from conftest import REPO, make_workspace, run

PICTURE_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#cc3333"/>
<image x="5" y="30" width="40" height="40" href="photo.png"/>
{{ textbox(piece.name, 5, 5, w - 10, 12, size=12) }}
{% endblock %}
"""


def _export(root: Path, preset: str, *extra: str, game: str = "test", out: Path | None = None) -> Path:
    args = ["export", "--game", game, "--preset", preset, *extra]
    if out is not None:
        args += ["--out", str(out)]
    assert run(root, *args) == 0
    return (out or root / "build") / game / preset


@pytest.mark.parametrize("preset, condition", [("drivethrucards", "CGATS TR 001"), ("doujin", "JC200103")])
def test_shop_pdfs_pass_the_pdfx1a_preflight(tmp_path, preset, condition):
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT)
    Image.new("RGB", (120, 120), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    fit = ("--fit", "scale")  # the test deck is 63×88 mm; DriveThruCards' poker is 2.5×3.5 in
    out = _export(root, preset, *fit)
    pdf = (out / "cards.pdf").read_bytes()
    assert problems(pdf) == []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        [intent] = doc.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == condition
        assert str(intent.RegistryName) == "http://www.color.org"
        assert str(doc.trailer.Info.CreationDate) == "D:20261130000000Z"  # the game's date, not the clock
        images = [o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert images and {str(i.ColorSpace) for i in images} == {"/DeviceCMYK"}  # the RGB picture converted
    again = _export(root, preset, *fit, out=tmp_path / "elsewhere")
    assert (again / "cards.pdf").read_bytes() == pdf  # deterministic, in any folder
    # Without PDF/X the same file fails the very preflight.
    plain = _export(root, preset, *fit, "--pdfx", "none", out=tmp_path / "plain")
    found = problems((plain / "cards.pdf").read_bytes())
    assert any("GTS_PDFX output intents" in p for p in found) and any("GTS_PDFXVersion" in p for p in found)
    rgb = _export(root, preset, *fit, "--colour", "rgb", out=tmp_path / "rgb")
    assert any("RGB colour operator" in p for p in problems((rgb / "cards.pdf").read_bytes()))


def test_the_picture_is_converted_as_the_vector_colours_are(tmp_path):
    from pnpgen.pdf.colour import to_cmyk

    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT)
    Image.new("RGB", (120, 120), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    out = _export(root, "doujin")
    with pikepdf.open(out / "cards.pdf") as doc:
        image = next(o for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image")
        pixel = tuple(image.read_bytes()[:4])
    want = tuple(round(255 * v) for v in to_cmyk(30 / 255, 160 / 255, 60 / 255))
    assert all(abs(a - b) <= 1 for a, b in zip(pixel, want)), (pixel, want)


def test_real_games_pass(tmp_path):
    for preset in ("doujin", "drivethrucards"):
        out = _export(REPO, preset, "--fit", "scale", game="alicematic-medallions", out=tmp_path / preset)
        pdfs = sorted(out.glob("*.pdf"))
        assert pdfs
        for pdf in pdfs:
            assert problems(pdf.read_bytes()) == [], pdf.name


@pytest.mark.parametrize("args, message", [
    (["--preset", "doujin", "--colour", "rgb", "--pdfx", "x1a"], "PDF/X-1a holds CMYK colour only"),
    (["--preset", "thegamecrafter", "--pdfx", "x1a"], "takes images, not PDF"),
    (["--preset", "thegamecrafter", "--outline-text"], "so --outline-text does not apply"),
])
def test_pdfx_that_cannot_be_made_is_one_line(tmp_path, capsys, args, message):
    """--pdfx x1a asked for where it cannot be made; --colour rgb alone is a plain RGB PDF."""
    root = make_workspace(tmp_path / "ws")
    assert run(root, "export", "--game", "test", *args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err


def _pictures(pdf: Path) -> list[tuple[str, tuple[int, ...]]]:
    """(colour space, first pixel) of every image of the PDF."""
    with pikepdf.open(pdf) as doc:
        return [(str(o.ColorSpace), tuple(o.read_bytes()[:4])) for o in doc.objects
                if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def test_a_cmyk_pdf_without_pdfx_holds_no_rgb_picture(tmp_path):
    """--colour cmyk --pdfx none: the picture is converted as under PDF/X (the docs: every colour
    in DeviceCMYK), not left RGB for the shop's RIP to separate by a conversion of its own."""
    from pnpgen.pdf.colour import to_cmyk

    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT)
    Image.new("RGB", (120, 120), (30, 160, 60)).save(root / "templates" / "test" / "photo.png")
    plain = _export(root, "doujin", "--pdfx", "none")
    x1a = _export(root, "doujin", out=tmp_path / "x1a")
    want = tuple(round(255 * v) for v in to_cmyk(30 / 255, 160 / 255, 60 / 255))
    for out in (plain, x1a):
        [(space, pixel)] = _pictures(out / "cards.pdf")
        assert space == "/DeviceCMYK" and all(abs(a - b) <= 1 for a, b in zip(pixel, want)), (out, space, pixel)
    rgb = _export(root, "doujin", "--colour", "rgb", out=tmp_path / "rgb")
    assert [space for space, _ in _pictures(rgb / "cards.pdf")] == ["/DeviceRGB"]  # an RGB PDF keeps it


@pytest.mark.parametrize("preset, limit, fit", [("drivethrucards", 240, ("--fit", "scale")), ("doujin", 300, ())])
def test_a_picture_over_the_ink_limit_is_warned(tmp_path, preset, limit, fit):
    """A dark red picture (#5a0000 → 0/100/100/64.7, 264.7 % ink) is over DriveThruCards' 240 %:
    the export warns, naming the page, the heaviest pixel and its ink, as it does for a vector
    colour; under 同人's 300 % it says nothing. The figure is the one the file's pixels hold."""
    root = make_workspace(tmp_path / "ws", front=PICTURE_FRONT)
    Image.new("RGB", (120, 120), (90, 0, 0)).save(root / "templates" / "test" / "photo.png")
    out = _export(root, preset, *fit)
    [(_, pixel)] = _pictures(out / "cards.pdf")
    ink = round(sum(pixel) * 100 / 255, 1)
    assert ink == 264.7
    warned = [w for w in json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"] if "total ink" in w]
    if ink <= limit:
        assert warned == []
        return
    [line] = warned
    assert line.startswith("cards.pdf page 2 (cards-001 front) and 10 more pages: a picture reaches CMYK 0/100/100/64.7")
    assert f"{ink:g} % total ink" in line and f"100 % of its pixels are over DriveThruCards's {limit} %" in line
