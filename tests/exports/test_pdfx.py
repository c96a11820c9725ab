"""PDF/X-1a:2003 shop files (DriveThruCards, 同人): each passes the project's preflight
(tests/exports/preflight.py), which checks every rule pnpgen claims; the same export without
PDF/X fails it, so the preflight can fail."""

from __future__ import annotations

import io
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
