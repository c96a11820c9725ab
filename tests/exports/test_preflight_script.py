"""scripts/preflight.py, the print shop's preflight of an export folder: each of its checks finds
what a hand-made PDF puts there, and finds nothing on a clean page."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import shutil
import sys
import zlib
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
MM = 72 / 25.4

pytestmark = pytest.mark.skipif(shutil.which("gs") is None, reason="the ink check needs Ghostscript")


def _script():
    spec = importlib.util.spec_from_file_location("preflight_script", ROOT / "scripts" / "preflight.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["preflight_script"] = module
    spec.loader.exec_module(module)
    return module


def _page(pdf: pikepdf.Pdf, content: bytes, image: pikepdf.Stream | None = None) -> None:
    """A 63×88 mm card with 3 mm of bleed, as the doujin preset's poker format."""
    w, h = 69 * MM, 94 * MM
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    if image is not None:
        resources.XObject = pikepdf.Dictionary(Im1=image)
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[0, 0, w, h], BleedBox=[0, 0, w, h],
        TrimBox=[3 * MM, 3 * MM, w - 3 * MM, h - 3 * MM], Resources=resources,
        Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))


def _write(folder: Path, pages: list[tuple[bytes, bool]]) -> None:
    pdf = pikepdf.new()
    image = pdf.make_stream(zlib.compress(bytes([0, 0, 0, 255] * 100)), Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Image, Width=10, Height=10, BitsPerComponent=8,
                           ColorSpace=pikepdf.Name.DeviceCMYK, Filter=pikepdf.Name.FlateDecode)
    for content, with_image in pages:
        _page(pdf, content, image if with_image else None)
    folder.mkdir(parents=True)
    pdf.save(folder / "cards.pdf")


def _run(folder: Path):
    script = _script()
    args = argparse.Namespace(ink_limit=None, min_line=None, min_ppi=None, min_text=None, pages_png=None)
    return script.preflight(folder, args, folder.parent / "work")


W, H = 69 * MM, 94 * MM
FULL = f"0 0 0 0.2 k 0 0 {W:.3f} {H:.3f} re f\n".encode()  # a light ground over trim and bleed


def test_preflight_finds_ink_hairline_resolution_and_bare_bleed(tmp_path):
    folder = tmp_path / "doujin"  # the folder's name is the preset: ink 300 %, lines 0.1 mm, 350 dpi
    trim_only = f"0 0 0 0.2 k {3 * MM:.3f} {3 * MM:.3f} {63 * MM:.3f} {88 * MM:.3f} re f\n".encode()
    _write(folder, [
        (FULL + b"1 1 1 1 k 50 50 40 40 re f\n", False),  # 400 % on 14 × 14 mm
        (FULL + b"0 0 0 1 K 0.2 w 40 100 m 140 100 l S\n", False),  # 0.2 pt = 0.07 mm
        (FULL + b"q 56.69 0 0 56.69 40 60 cm /Im1 Do Q\n", True),  # 10 px over 20 mm: 12.7 ppi
        (trim_only, False),
        # 5 pt white text on a ground of three inks (a knock-out the plates fill in), 4 pt K text
        (FULL + b"0.5 0.5 0.5 0 k 20 60 150 100 re f BT /F1 5 Tf 0 0 0 0 k 40 100 Td (knocked) Tj ET "
                b"BT /F1 4 Tf 0 0 0 1 k 40 80 Td (tiny) Tj ET\n", False),
    ])
    shop, found, reports = _run(folder)
    assert (shop.ink_limit, round(shop.min_line_pt, 3), shop.min_ppi) == (300, 0.283, 350)
    by_check = {(f.check, f.page): f for f in found}
    ink = by_check[("ink", 1)]
    assert "peak 400 %" in ink.message and ink.level == "error"
    area = float(ink.message.split(" mm²")[0])
    assert 190 <= area <= 210  # 40 pt square: 14.1 mm a side
    assert "0.200 pt" in by_check[("hairline", 2)].message
    assert "the lowest 13 ppi (10×10 px)" in by_check[("resolution", 3)].message
    bleed = by_check[("bleed", 4)].message
    assert all(side in bleed for side in ("top", "bottom", "left", "right"))
    white = [f.message for f in found if f.check == "text" and f.page == 5]
    assert any(m.startswith("white text 5.0 pt (CMYK 0/0/0/0) knocked out of a ground of 3 or 4 inks") for m in white)
    assert any(m.startswith("small: 4.0 pt in CMYK 0/0/0/100") for m in white)
    assert any(m.startswith("100 % K text knocking out: 4.0 pt") for m in white)
    assert {f.page for f in found} == {1, 2, 3, 4, 5}  # pdf-faces: any page count
    assert reports[0]["pages"] == 5 and reports[0]["trim_mm"] == [63.0, 88.0]


def test_preflight_clean_page_and_page_count(tmp_path):
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"0 0 0 1 K 0.5 w 40 100 m 140 100 l S\n", False)])
    shop, found, reports = _run(folder)
    assert found == []
    # a card a page with its back (pdf-copies, DriveThruCards' two pages a card): one page is one too few
    with pikepdf.open(folder / "cards.pdf") as pdf:
        _script().check_geometry("cards.pdf", pdf, dataclasses.replace(shop, files="pdf-copies"), found, False)
    assert [(f.check, f.message) for f in found] == [("geometry", "1 pages, not a multiple of 2")]
    assert reports[0]["peak_ink"] == {"percent": 100.0, "page": 1}  # the K line, knocking out the ground
    assert reports[0]["thinnest_line_pt"] == 0.5


def test_preflight_takes_the_games_own_preset_for_a_lang_export_too(tmp_path):
    """A game's own preset (data/<game>/presets/) sets the figures for its export folder,
    build/<game>/<preset>, and for a --lang export's, build/<game>/<lang>/<preset>, where the
    folder two up was taken for the game (``en``) and the shipped figures were read instead."""
    ws = tmp_path / "ws"
    (ws / "data" / "kingdom" / "presets").mkdir(parents=True)
    (ws / "data" / "kingdom" / "presets" / "myshop.yaml").write_text("ink_limit: 260\ndpi: 400\n", encoding="utf-8")
    (ws / "presets").mkdir()
    (ws / "presets" / "doujin.yaml").write_text("ink_limit: 280\n", encoding="utf-8")
    script = _script()
    args = argparse.Namespace(ink_limit=None, min_line=None, min_ppi=None, min_text=None, pages_png=None)
    for folder in (ws / "build" / "kingdom" / "myshop", ws / "build" / "kingdom" / "en" / "myshop"):
        folder.mkdir(parents=True)
        assert (script.load_shop(folder, args).ink_limit, script.load_shop(folder, args).min_ppi) == (260, 400)
    # the workspace's presets/ too, before pnpgen's own doujin (300 %)
    assert script.load_shop(ws / "build" / "kingdom" / "en" / "doujin", args).ink_limit == 280
    assert script.load_shop(tmp_path / "elsewhere" / "doujin", args).ink_limit == 300  # no workspace: the shipped one


def test_preflight_says_a_damaged_file_a_wrong_length_and_a_wrong_preset_in_one_line(tmp_path, capsys):
    """A PDF cut short (a copy stopped) or not a PDF at all is one error finding of its own, the
    other files still checked (a traceback stopped the run, exit 1 as for a finding); a length
    option or a game preset's figure it cannot read is one line and exit status 2."""
    preflight = _script()
    folder = tmp_path / "ws" / "build" / "g" / "doujin"
    _write(folder, [(b"", False), (b"", False)])
    whole = (folder / "cards.pdf").read_bytes()
    (folder / "cut.pdf").write_bytes(whole[: len(whole) // 3])
    (folder / "notes.pdf").write_bytes(b"hello\n")
    assert preflight.main([str(folder)]) == 1
    out = capsys.readouterr().out
    assert "error: doujin/notes.pdf: file: not a readable PDF: " in out
    assert "doujin/cards.pdf: pages 2" in out and "Traceback" not in out
    for option in ("--min-line", "--min-text"):
        with pytest.raises(SystemExit) as e:
            preflight.main([str(folder), option, "3furlongs"])
        assert e.value.code == 2
        assert "'3furlongs' is not a length (expected e.g. 0.1mm, 0.25pt or 0.125in)" in capsys.readouterr().err
    presets = tmp_path / "ws" / "data" / "g" / "presets"
    presets.mkdir(parents=True)
    for text, said in (("ink_limit: 250\ndpi: [3]\n", "doujin.yaml: dpi: [3] is not read (expected a number, e.g. 300)"),
                       ("ink_limit: [\n", "doujin.yaml:2: expected the node content")):
        (presets / "doujin.yaml").write_text(text, encoding="utf-8")
        assert preflight.main([str(folder)]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err


def test_preflight_says_a_page_no_rip_takes_and_a_png_of_no_preset_as_findings(tmp_path, capsys):
    """A content stream's operator without its operands, a page box of two numbers and a form
    drawing itself ten times over are each the file's one error finding (tracebacks, and a walk
    of 10¹² forms that never ended); a PNG in a folder named after no preset is read without a
    format's bleed (an IndexError ended the run)."""
    preflight = _script()
    folder = tmp_path / "doujin"
    for name, content in (("cm", b"1 0 0 cm 0 0 m 1 1 l S\n"), ("tf", b"BT 12 Tf (x) Tj ET\n")):
        _write(folder / name, [(content, False)])
    pdf = pikepdf.new()
    _page(pdf, b"/X0 Do\n")
    form = pdf.make_indirect(pikepdf.Stream(pdf, b"/X0 Do " * 10, Type=pikepdf.Name.XObject,
                                            Subtype=pikepdf.Name.Form, BBox=[0, 0, 10, 10]))
    form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(X0=form))
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(X0=form)
    pdf.save(folder / "forms.pdf")
    pdf.pages[0].obj.TrimBox = pikepdf.Array([1, 2])
    pdf.save(folder / "box.pdf")
    assert preflight.main([str(folder)]) == 1
    out = capsys.readouterr().out
    for said in ("cm/cards.pdf: file: not a readable PDF: page 1: the operator cm without the operands it takes",
                 "tf/cards.pdf: file: not a readable PDF: page 1: the operator Tf without the operands it takes",
                 "forms.pdf: file: not a readable PDF: page 1 draws its forms more than 100,000 times",
                 "box.pdf: file: not a readable PDF: a page's TrimBox is pikepdf.Array([ 1, 2 ]), not four numbers"):
        assert f"error: doujin/{said}" in out, out
    mine = tmp_path / "mine"
    mine.mkdir()
    Image.new("RGB", (40, 30), "white").save(mine / "card.png")
    assert preflight.main([str(mine)]) == 0
    assert "mine/card.png: pixels [40, 30], mode RGB" in capsys.readouterr().out
    # a figure checking nothing or everything (nan, 0, a negative line), --json a folder: one line, exit status 2
    for option, value, said in (("--ink-limit", "nan", "'nan' is not a figure (expected a number above 0"),
                                ("--min-ppi", "0", "'0' is not a figure"), ("--min-line", "-1pt", "'-1pt' is not a length")):
        with pytest.raises(SystemExit) as e:
            preflight.main([str(mine), f"{option}={value}"])
        assert e.value.code == 2 and said in capsys.readouterr().err
    assert preflight.main([str(mine), "--json", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"preflight: --json {tmp_path}: is a folder (expected a file to write)\n"
    # a pdf-copies folder's order.csv not in UTF-8, or without its piece column: a finding (tracebacks)
    copies = tmp_path / "drivethrucards"
    _write(copies, [(b"", False), (b"", False)])
    (copies / "order.csv").write_bytes(b"\xff\xfebad")
    assert preflight.main([str(copies)]) == 1
    assert "error: drivethrucards/order.csv: file: not a readable CSV: 'utf-8' codec can't decode" in capsys.readouterr().out
    (copies / "order.csv").write_text("file,back\ncards.pdf,2\n", encoding="utf-8")
    assert preflight.main([str(copies)]) == 1
    assert "order.csv puts the backs of piece ? on pages 2" in capsys.readouterr().out
