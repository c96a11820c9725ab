"""``pnpgen preflight`` (pnpgen/preflight/), the print shop's preflight of an export folder: each
of its checks finds what a hand-made PDF puts there, and finds nothing on a clean page; the
command's exit status 1 names the page and the check, 2 a folder or figure it cannot read."""

from __future__ import annotations

import dataclasses
import json
import shutil
import zlib
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image

from pnpgen.cli import main
from pnpgen.preflight import run as preflight_run
from pnpgen.preflight.inks import ghostscript
from pnpgen.preflight.pdfcheck import check_geometry
from pnpgen.preflight.shop import Limits, load_shop

MM = 72 / 25.4

pytestmark = pytest.mark.skipif(ghostscript() is None, reason="the ink check needs Ghostscript")


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
    return preflight_run.preflight(folder, Limits(), folder.parent / "work", ghostscript())


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
    assert by_check[("resolution", 3)].message == "1 placed picture under 350 ppi, the lowest 13 ppi (10×10 px)"  # (not "1 … pictures")
    bleed = by_check[("bleed", 4)].message
    assert all(side in bleed for side in ("top", "bottom", "left", "right"))
    white = [f.message for f in found if f.check == "text" and f.page == 5]
    assert any(m.startswith("white text 5.0 pt (CMYK 0/0/0/0) knocked out of a ground of 3 or 4 inks") for m in white)
    assert any(m.startswith("small: 4.0 pt in CMYK 0/0/0/100") for m in white)
    assert any(m.startswith("100 % K text knocking out: 4.0 pt") for m in white)
    assert {f.page for f in found} == {1, 2, 3, 4, 5}  # pdf-faces: any page count
    assert reports[0]["pages"] == 5 and reports[0]["trim_mm"] == [63.0, 88.0]


def test_white_text_whose_letters_knock_out_half_its_box_is_read_on_its_ground(tmp_path):
    """preflight48: an outside game's 5 pt white 「写真」 on a rich black (100/100/100/100) was not
    named, where a one-letter 「夜」 on the same ground was: its dense letters left half the box
    bare (35 of 70 pixels), and the median of every pixel read the ground as paper. The white
    rectangle stands for such letters (over 60 % of the box read); white text on paper, and on a
    one-ink ground, stays unnamed."""
    rich = f"1 1 1 1 k 0 0 {W:.3f} {H:.3f} re f\n".encode()
    letters = b"BT /F1 5 Tf 0 0 0 0 k 40 100 Td (ab) Tj ET 0 0 0 0 k 40 100 6.5 3.5 re f\n"
    folder = tmp_path / "doujin"
    _write(folder, [(rich + letters, False), (FULL + letters, False),
                    (b"BT /F1 5 Tf 0 0 0 0 k 40 100 Td (ab) Tj ET\n", False)])
    _, found, _ = _run(folder)
    white = [(f.page, f.message) for f in found if f.message.startswith("white text")]
    assert white == [(1, "white text 5.0 pt (CMYK 0/0/0/0) knocked out of a ground of 3 or 4 inks, ×1 on 1 pages")], white


def test_a_finding_names_its_piece_from_order_csv_and_says_what_to_do(tmp_path, capsys):
    """preflight48: an outside game's findings said a page and a fault (`doujin/cards.pdf page 1:
    hairline: …`), not which card nor what to change, where the export says both. The page's piece
    comes from the folder's order.csv (a counter sheet of many pieces names none), the remedy from
    the shop's figures; a name of two lines is said on the finding's one line, escaped."""
    folder = tmp_path / "doujin"
    hair = b"0 0 0 1 K 0.2 w 40 100 m 140 100 l S\n"
    _write(folder, [(FULL, False), (FULL + hair, False), (FULL + b"1 1 1 1 k 50 50 40 40 re f\n", False)])
    (folder / "order.csv").write_text("\ufefffile,pages,back,deck,piece,name,quantity,note,die\r\n"
                                      "cards.pdf,1-2,2,cards,1,写真,2,,\r\ncards.pdf,3,,cards,2,\"夜\n\x1b[2J明け\",1,,\r\n",
                                      encoding="utf-8")
    assert main(["preflight", str(folder), "-q"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("  error: doujin/cards.pdf page 2 ('写真' of deck 'cards', back): hairline: a 0.200 pt (0.071 mm) "
                        "line in CMYK 0/0/0/100, under 0.283 pt (0.10 mm), ×1 on 1 pages; draw it at least 0.10 mm wide "
                        "(stroke-width in the template), or leave it out"), lines
    # polish48: a name holding a line break (and an escape sequence) is said escaped, the finding one line
    assert lines[1].startswith("  error: doujin/cards.pdf page 3 ('夜\\n\\x1b[2J明け' of deck 'cards', front): ink: "), lines
    assert len(lines) == 3 and lines[2].startswith("preflight: "), lines
    assert lines[1].endswith("; bring the colours there to at most 300 % C+M+Y+K; a black ground as K100 or a rich "
                             "black (C40 M40 Y40 K100, 220 %), never 4色ベタ (100/100/100/100)"), lines


def test_order_csv_pages_read_as_bounds():
    from pnpgen.preflight.run import on_pages
    assert [n for n in range(1, 10) if on_pages("1-7 odd", n)] == [1, 3, 5, 7]
    assert [n for n in range(1, 10) if on_pages("2-8 even", n)] == [2, 4, 6, 8]
    assert on_pages("3", 3) and not on_pages("3", 4) and on_pages("9-12", 10)
    assert not on_pages("", 1) and not on_pages("a-b", 1)
    assert on_pages("1-99999999999999999999", 5)  # (bounds, never a range spread out: a hostile row costs nothing)


def test_text_of_one_size_in_several_colours_is_one_finding_naming_each_colour(tmp_path):
    """trial69: a wargame's counters, 5 pt text in each clan's colour (three inks each), gave one
    line per colour; now one names the three colours, each with its count and pages, and the total."""
    clans = [b"0 0.75 0.75 0.5", b"0.75 0.5 0 0.5", b"0.67 0 0.5 0.62"]
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"".join(b"BT /F1 5 Tf " + c + b" k 40 %d Td (clan) Tj ET " % (60 + 20 * i)
                                     for i, c in enumerate(clans[:n])) + b"\n", False) for n in (1, 2, 3)])
    _, found, _ = _run(folder)
    mixed = [f for f in found if f.message.startswith("mixed-ink text under 8 pt")]
    assert len(mixed) == 1 and mixed[0].page == 1, [f.message for f in mixed]
    assert mixed[0].message == ("mixed-ink text under 8 pt: 5.0 pt in 3 colours (CMYK 0/75/75/50 ×3 on 3 pages; "
                                "CMYK 67/0/50/62 ×1 on 1 pages; CMYK 75/50/0/50 ×2 on 2 pages), ×6 on 3 pages"), mixed[0].message


def test_preflight_clean_page_and_page_count(tmp_path):
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"0 0 0 1 K 0.5 w 40 100 m 140 100 l S\n", False)])
    shop, found, reports = _run(folder)
    assert found == []
    # a card a page with its back (pdf-copies, DriveThruCards' two pages a card): one page is one too few
    with pikepdf.open(folder / "cards.pdf") as pdf:
        check_geometry("cards.pdf", pdf, dataclasses.replace(shop, files="pdf-copies"), found, False)
    assert [(f.check, f.message) for f in found] == [("geometry", "1 pages, not a multiple of 2")]
    assert reports[0]["peak_ink"] == {"percent": 100.0, "page": 1}  # the K line, knocking out the ground
    assert reports[0]["thinnest_line_pt"] == 0.5


@pytest.mark.parametrize("options", ["-dPDFFitPage -sPAPERSIZE=a4 -dFIXEDMEDIA", "-dFOO="])
def test_ghostscripts_options_from_the_environment_change_no_finding(tmp_path, monkeypatch, options):
    """``GS_OPTIONS``, which Ghostscript adds to every command (set to print everything on A4, say),
    drew each page fitted to A4 (the line's ink 20 %, not 100 %; pnpgen's own round tokens' bleed
    'bare', an error), or, one it cannot read, made every file 'not a readable PDF' (hostile48): the
    clean page has no finding and its ink as without it."""
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"0 0 0 1 K 0.5 w 40 100 m 140 100 l S\n", False)])
    monkeypatch.setenv("GS_OPTIONS", options)
    shop, found, reports = _run(folder)
    assert [(f.check, f.message) for f in found] == []
    assert reports[0]["peak_ink"] == {"percent": 100.0, "page": 1}


@pytest.mark.skipif(ghostscript() is None, reason="needs Ghostscript")
def test_ghostscripts_start_up_files_are_its_own(tmp_path, monkeypatch):
    """``GS_LIB`` (and ``GS_FONTPATH``) named a folder outside the workspace where Ghostscript looked
    first for its own start-up PostScript, gs_init.ps, which sets up -dSAFER itself: a preflight ran
    the PostScript found there, with the machine's files open to it (here it only writes a file and
    stops: every file was then 'not a readable PDF'). Ghostscript starts from its own files."""
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"0 0 0 1 K 0.5 w 40 100 m 140 100 l S\n", False)])
    planted = tmp_path / "elsewhere"
    planted.mkdir()
    ran = tmp_path / "ran"
    (planted / "gs_init.ps").write_text(f"10000\n({ran}) (w) file closefile quit\n", encoding="ascii")  # (its first line a version)
    monkeypatch.setenv("GS_LIB", str(planted))
    monkeypatch.setenv("GS_FONTPATH", str(planted))
    shop, found, reports = _run(folder)
    assert not ran.exists()
    assert [(f.check, f.message) for f in found] == []
    assert reports[0]["peak_ink"] == {"percent": 100.0, "page": 1}


@pytest.mark.skipif(ghostscript() is None, reason="needs Ghostscript")
def test_a_temporary_folder_that_is_gone_blames_no_file(tmp_path, monkeypatch):
    """``TMPDIR`` naming a folder that is gone (a shell's leftover): Ghostscript could not open its
    scratch file there, and every file was 'not a readable PDF', an error blamed on the file. It
    keeps its scratch files in pnpgen's own folder of pages."""
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"0 0 0 1 K 0.5 w 40 100 m 140 100 l S\n", False)])
    monkeypatch.setenv("TMPDIR", str(tmp_path / "gone"))
    shop, found, reports = _run(folder)
    assert [(f.check, f.message) for f in found] == []
    assert reports[0]["peak_ink"] == {"percent": 100.0, "page": 1}


def test_preflight_takes_the_games_own_preset_for_a_lang_export_too(tmp_path):
    """A game's own preset (data/<game>/presets/) sets the figures for its export folder,
    build/<game>/<preset>, and for a --lang export's, build/<game>/<lang>/<preset>, where the
    folder two up was taken for the game (``en``) and the shipped figures were read instead."""
    ws = tmp_path / "ws"
    (ws / "data" / "kingdom" / "presets").mkdir(parents=True)
    (ws / "data" / "kingdom" / "presets" / "myshop.yaml").write_text("ink_limit: 260\ndpi: 400\n", encoding="utf-8")
    (ws / "presets").mkdir()
    (ws / "presets" / "doujin.yaml").write_text("ink_limit: 280\n", encoding="utf-8")
    args = Limits()
    for folder in (ws / "build" / "kingdom" / "myshop", ws / "build" / "kingdom" / "en" / "myshop"):
        folder.mkdir(parents=True)
        assert (load_shop(folder, args).ink_limit, load_shop(folder, args).min_ppi) == (260, 400)
    # the workspace's presets/ too, before pnpgen's own doujin (300 %)
    assert load_shop(ws / "build" / "kingdom" / "en" / "doujin", args).ink_limit == 280
    assert load_shop(tmp_path / "elsewhere" / "doujin", args).ink_limit == 300  # no workspace: the shipped one


def test_preflight_says_a_damaged_file_a_wrong_length_and_a_wrong_preset_in_one_line(tmp_path, capsys):
    """A PDF cut short (a copy stopped) or not a PDF at all is one error finding of its own, the
    other files still checked (a traceback stopped the run, exit 1 as for a finding); a length
    option or a game preset's figure it cannot read is one line and exit status 2."""
    folder = tmp_path / "ws" / "build" / "g" / "doujin"
    _write(folder, [(b"", False), (b"", False)])
    whole = (folder / "cards.pdf").read_bytes()
    (folder / "cut.pdf").write_bytes(whole[: len(whole) // 3])
    (folder / "notes.pdf").write_bytes(b"hello\n")
    assert main(["preflight", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "error: doujin/notes.pdf: file: not a readable PDF: " in out
    assert "doujin/cards.pdf: pages 2" in out and "Traceback" not in out
    for option in ("--min-line", "--min-text"):
        with pytest.raises(SystemExit) as e:
            main(["preflight", str(folder), option, "3furlongs"])
        assert e.value.code == 2
        assert "'3furlongs' is not a length (expected e.g. 0.1mm, 0.25pt or 0.125in)" in capsys.readouterr().err
    presets = tmp_path / "ws" / "data" / "g" / "presets"
    presets.mkdir(parents=True)
    for text, said in (("ink_limit: 250\ndpi: [3]\n", "doujin.yaml: dpi: [3] is not read (expected a number, e.g. 300)"),
                       ("ink_limit: [\n", "doujin.yaml:2: expected the node content")):
        (presets / "doujin.yaml").write_text(text, encoding="utf-8")
        assert main(["preflight", str(folder)]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err


def test_the_command_fails_a_file_naming_each_page_and_check_and_passes_a_clean_one(tmp_path, capsys):
    """``pnpgen preflight FOLDER`` (no workspace needed): a file over-inked on page 1, with a
    hairline on page 2 and text past the trim on page 3 is exit status 1, each error naming its
    page and check, and a summary line; the same card clean is exit status 0."""
    bad = tmp_path / "bad" / "doujin"
    _write(bad, [
        (FULL + b"1 1 1 1 k 50 50 40 40 re f\n", False),  # 400 % total ink
        (FULL + b"0 0 0 1 K 0.1 w 40 100 m 140 100 l S\n", False),  # 0.1 pt = 0.035 mm
        (FULL + b"BT /F1 12 Tf 0 0 0 1 k 1 120 Td (CUT) Tj ET\n", False),  # from 1 pt: the trim is at 8.5 pt
    ])
    assert main(["preflight", str(bad)]) == 1
    out = capsys.readouterr().out
    errors = [line.strip() for line in out.splitlines() if line.strip().startswith("error:")]
    assert [e.split(": ")[1:3] for e in errors] == [
        ["doujin/cards.pdf page 1", "ink"], ["doujin/cards.pdf page 2", "hairline"], ["doujin/cards.pdf page 3", "safe"]]
    assert "0.100 pt" in errors[1] and "1 glyph past the trim, in the bleed the cut takes off, the farthest 「C」" in errors[2]
    farthest = float(errors[2].split(" mm past it")[0].rsplit(" ", 1)[1])
    assert 2.3 <= farthest <= 2.65  # the 「C」 from 1 pt, the trim at 3 mm (8.5 pt): 2.65 mm less its side bearing
    assert "note: doujin/cards.pdf page 3: safe: 1 glyph inside the 3.00 mm safe zone, the nearest 「U」" in out
    assert out.splitlines()[-1] == "preflight: 1 file, 3 errors, 2 notes: a shop would turn it away"
    clean = tmp_path / "clean" / "doujin"
    _write(clean, [(FULL + b"0 0 0 1 K 0.5 w 40 100 m 140 100 l S BT /F1 12 Tf 0 0 0 0.9 k 40 120 Td (OK) Tj ET\n",
                    False)])
    assert main(["preflight", str(clean)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "preflight: 1 file, 0 errors, 0 notes: nothing a shop would turn away"
    assert main(["preflight", str(bad), "--json", str(tmp_path / "report.json")]) == 1
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))[str(bad)]
    assert [(f["page"], f["check"], f["level"]) for f in report["findings"]] == [
        (1, "ink", "error"), (2, "hairline", "error"), (3, "text", "note"), (3, "safe", "error"), (3, "safe", "note")]
    assert report["files"][0]["peak_ink"] == {"percent": 400.0, "page": 1}
    capsys.readouterr()
    assert main(["preflight", "-q", str(bad)]) == 1  # -q: the findings and the summary alone
    assert [line.split(":")[0].strip() for line in capsys.readouterr().out.splitlines()] == [
        "error", "error", "note", "error", "note", "preflight"]


def test_without_ghostscript_the_ink_check_is_said_skipped(tmp_path, capsys, monkeypatch):
    """Ghostscript is no dependency of pnpgen's: without it the ink and bleed checks are not made,
    said once and in the summary, and the other checks still fail a file."""
    monkeypatch.setattr(preflight_run, "ghostscript", lambda: None)
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + b"1 1 1 1 k 50 50 40 40 re f\n", False)])
    assert main(["preflight", str(folder)]) == 0  # the 400 % not seen
    said = capsys.readouterr()
    assert said.err.count("Ghostscript (gs) is not on this machine: total ink and the bleed are not checked") == 1
    assert "ink not checked (no Ghostscript)" in said.out and "Traceback" not in said.err
    assert said.out.splitlines()[-1].endswith("0 errors, 0 notes, total ink and bleed not checked (no Ghostscript): "
                                              "nothing a shop would turn away")
    _write(tmp_path / "thin" / "doujin", [(FULL + b"0 0 0 1 K 0.1 w 40 100 m 140 100 l S\n", False)])
    assert main(["preflight", str(tmp_path / "thin" / "doujin")]) == 1
    assert "error: doujin/cards.pdf page 1: hairline: " in capsys.readouterr().out


def test_the_command_finds_a_games_exports_in_the_workspace(tmp_path, capsys, monkeypatch):
    """``--game G --preset P`` is build/G/P of the workspace; ``--game G`` alone every export of
    the game there (a folder with its export.json); a game, preset or folder not there is one line
    and exit status 2."""
    ws = tmp_path / "ws"
    (ws / "data" / "test").mkdir(parents=True)
    (ws / "data" / "test" / "game.yaml").write_text("title: t\n", encoding="utf-8")
    _write(ws / "build" / "test" / "doujin", [(FULL, False)])
    _write(ws / "build" / "test" / "drivethrucards", [(FULL + b"0 0 0 1 K 0.1 w 40 100 m 140 100 l S\n", False)])
    for name in ("doujin", "drivethrucards"):
        (ws / "build" / "test" / name / "export.json").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(ws)
    assert main(["preflight", "--game", "test", "--preset", "doujin"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{Path('build', 'test', 'doujin')}: doujin, ink ≤ 300 %") and "1 file, 0 errors" in out
    assert main(["preflight", "--game", "test"]) == 1  # both: DriveThruCards' line under its 0.25 pt
    out = capsys.readouterr().out
    assert "drivethrucards: drivethrucards, ink ≤ 240 %" in out and "preflight: 2 files, 3 errors" in out
    assert "error: drivethrucards/cards.pdf page 1: hairline: a 0.100 pt" in out
    for argv, said in ((["--game", "nosuch"], "unknown game 'nosuch'"),
                       (["--game", "test", "--preset", "printerstudio"],  # said as from here (trial49: absolute)
                        f"error: {Path('build', 'test', 'printerstudio')}: no export of --preset printerstudio there"),
                       (["build/test/doujin", "--game", "test"], "an export FOLDER and --game/--preset/--lang/--out together"),
                       (["--preset", "doujin"], "no export to check (--preset without --game)"),
                       (["data"], "data: no PDF or PNG in it"),
                       (["build/test/doujin", "--json", "data/test/game.yaml/r.json"],
                        "argument --json: data/test/game.yaml/r.json is below the file data/test/game.yaml")):
        try:
            status = main(["preflight", *argv])
        except SystemExit as e:  # (an option's value argparse refuses by its type)
            status = e.code
        assert status == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err


def test_preflight_says_a_page_no_rip_takes_and_a_png_of_no_preset_as_findings(tmp_path, capsys):
    """A content stream's operator without its operands, a page box of two numbers and a form
    drawing itself ten times over are each the file's one error finding (tracebacks, and a walk
    of 10¹² forms that never ended); a PNG in a folder named after no preset is read without a
    format's bleed; a figure checking nothing or everything, ``--json`` a folder and
    ``--pages-png`` a file are one line, exit status 2; an order.csv it cannot read a finding."""
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
    assert main(["preflight", str(folder)]) == 1
    out = capsys.readouterr().out
    for said in ("cm/cards.pdf: file: not a readable PDF: page 1: the operator cm without the operands it takes",
                 "tf/cards.pdf: file: not a readable PDF: page 1: the operator Tf without the operands it takes",
                 "forms.pdf: file: not a readable PDF: page 1 draws its forms more than 100,000 times",
                 "box.pdf: file: not a readable PDF: a page's TrimBox is pikepdf.Array([ 1, 2 ]), not four numbers"):
        assert f"error: doujin/{said}" in out, out
    mine = tmp_path / "mine"
    mine.mkdir()
    Image.new("RGB", (40, 30), "white").save(mine / "card.png")
    assert main(["preflight", str(mine)]) == 0
    out = capsys.readouterr().out
    assert "mine/card.png: pixels [40, 30], mode RGB" in out
    # a folder of PNGs names no ink, line or text figure it never reads (trial47: The Game Crafter's said ink ≤ 300 %)
    assert out.startswith(f"{mine}: mine, PNGs: pixels as its formats say, RGB, no see-through pixel, bleed (no ink"), out
    assert "ink ≤" not in out and "text ≥" not in out
    # a figure checking nothing or everything (nan, 0, a negative line): one line, exit status 2
    for option, value, said in (("--ink-limit", "nan", "'nan' is not a figure (expected a number above 0"),
                                ("--min-ppi", "0", "'0' is not a figure"), ("--min-line", "-1pt", "'-1pt' is not a length")):
        with pytest.raises(SystemExit) as e:
            main(["preflight", str(mine), f"{option}={value}"])
        assert e.value.code == 2 and said in capsys.readouterr().err
    # --json a folder, --pages-png a file: one line before the run, exit status 2
    (tmp_path / "r.json").mkdir()
    for option, given, said in (("--json", tmp_path / "r.json", "is a folder (expected a file name ending in .json"),
                                ("--pages-png", mine / "card.png", "is a file (expected a folder to write in)")):
        try:
            status = main(["preflight", str(mine), option, str(given)])
        except SystemExit as e:  # (--json's name refused by argparse, by its type)
            status = e.code
        assert status == 2
        said_all = capsys.readouterr()
        assert (f"{option} {given}: {said}" in said_all.err or f"argument {option}: {given} {said}" in said_all.err) \
            and said_all.err.count("\n") == 1, said_all.err
        assert said_all.out == ""
    # the preset's own figures held the same: a dpi of 0 is one line, exit status 2
    ws_folder = tmp_path / "ws" / "build" / "g" / "doujin"
    _write(ws_folder, [(FULL, False)])
    (tmp_path / "ws" / "data" / "g" / "presets").mkdir(parents=True)
    (tmp_path / "ws" / "data" / "g" / "presets" / "doujin.yaml").write_text("dpi: 0\n", encoding="utf-8")
    assert main(["preflight", str(ws_folder)]) == 2
    assert "doujin.yaml: dpi: 0 is not read (expected a number, e.g. 300)" in capsys.readouterr().err
    # a pdf-copies folder's order.csv not in UTF-8, or without its piece column: a finding (tracebacks)
    copies = tmp_path / "drivethrucards"
    _write(copies, [(b"", False), (b"", False)])
    (copies / "order.csv").write_bytes(b"\xff\xfebad")
    assert main(["preflight", str(copies)]) == 1
    assert "error: drivethrucards/order.csv: file: not a readable CSV: 'utf-8' codec can't decode" in capsys.readouterr().out
    (copies / "order.csv").write_text("file,back\ncards.pdf,2\n", encoding="utf-8")
    assert main(["preflight", str(copies)]) == 1
    assert "order.csv puts the backs of piece ? on pages 2" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="--pages-png needs poppler's pdftoppm")
def test_pages_png_shows_each_folders_page_as_exported_now(tmp_path, capsys):
    """``--pages-png``: two games' doujin/cards.pdf, each flagged on page 1, are two PNGs, each
    its own file's page (the second was not written: a PNG of its name stood there, the first
    game's); run again after an export changed the page, the PNG shows the page as it is now."""
    dark = FULL + b"1 1 1 1 k 0 0 300 300 re f\n"  # 400 % over the whole card
    light = FULL + b"0 0 0 1 K 0.1 w 40 100 m 140 100 l S\n"  # a hairline on the light ground
    first, second, pngs = tmp_path / "a" / "doujin", tmp_path / "b" / "doujin", tmp_path / "flagged"
    _write(first, [(dark, False)])
    _write(second, [(light, False)])

    def shade(name: str) -> float:
        with Image.open(pngs / name) as im:
            return float(np.asarray(im.convert("L")).mean())

    assert main(["preflight", str(first), str(second), "--pages-png", str(pngs)]) == 1
    assert sorted(p.name for p in pngs.iterdir()) == ["doujin-cards-p1-2.png", "doujin-cards-p1.png"]
    assert shade("doujin-cards-p1.png") < 60 < 150 < shade("doujin-cards-p1-2.png")
    shutil.rmtree(first)
    _write(first, [(light, False)])  # exported again: the page is light now, a hairline still flagged
    assert main(["preflight", str(first), "--pages-png", str(pngs)]) == 1
    assert shade("doujin-cards-p1.png") > 150
    assert sorted(p.name for p in pngs.iterdir()) == ["doujin-cards-p1-2.png", "doujin-cards-p1.png"]


def test_a_png_see_through_by_its_palette_or_colour_key_is_found(tmp_path, capsys):
    """A PNG's see-through pixels are found whether an alpha channel, a palette's entry or a
    colour key (tRNS) makes them so: a palette PNG and an RGB one keyed on white passed as opaque."""
    mine = tmp_path / "mine"
    mine.mkdir()
    Image.new("RGB", (40, 30), "white").save(mine / "keyed.png", transparency=(255, 255, 255))
    for name, index in (("palette.png", 0), ("opaque.png", 1)):  # entry 0 see-through; opaque.png never shows it
        im = Image.new("P", (40, 30), index)
        im.putpalette([255, 255, 255, 0, 0, 0])
        im.save(mine / name, transparency=0)
    assert main(["preflight", str(mine)]) == 1
    out = capsys.readouterr().out
    assert "error: mine/keyed.png: pixels: see-through pixels" in out and "error: mine/palette.png: pixels: see-through" in out
    assert "error: mine/opaque.png" not in out and out.splitlines()[-1].startswith("preflight: 3 files, 2 errors")


def test_a_link_out_and_a_huge_png_are_findings_not_opened(tmp_path, capsys):
    """A link leading out of the folder was followed and read; a PNG of 8,000² pixels in a folder of a
    preset naming no formats was decoded (some 400 MB). Each is its file's finding, none opened."""
    mine = tmp_path / "mine"
    mine.mkdir()
    Image.new("RGB", (40, 30), "white").save(mine / "card.png")
    Image.new("RGB", (40, 30), "white").save(tmp_path / "outside.png")
    (mine / "out.png").symlink_to(tmp_path / "outside.png")
    (mine / "in.png").symlink_to(mine / "card.png")  # a link inside the folder: read
    Image.new("1", (8_000, 8_000)).save(mine / "huge.png")  # (1-bit: a small file)
    assert main(["preflight", str(mine)]) == 1
    out = capsys.readouterr().out
    assert "error: mine/out.png: file: not a readable PNG: a link leading out of the folder" in out
    assert "error: mine/huge.png: pixels: 8000×8000 px, more than 60,000,000" in out
    assert "mine/in.png: pixels [40, 30], mode RGB" in out and "mine/out.png: readable False" in out



def test_a_resolution_finding_is_told_to_convert_an_rgb_picture_else_to_give_it_pixels():
    """The two remedies of a resolution finding: an RGB picture in a CMYK file is converted, a
    picture too coarse for the shop is given pixels at the shop's figure (the first remedy that
    fits is taken, by the words the message holds)."""
    from pnpgen.preflight.shop import Finding, Shop, what_to_do

    shop = Shop(name="doujin", min_ppi=350)
    rgb = Finding("cards.pdf", 0, "resolution", "error", "2 RGB pictures in a CMYK file")
    coarse = Finding("cards.pdf", 3, "resolution", "error", "a picture at 209 ppi")
    assert what_to_do(rgb, shop).startswith("convert it to CMYK")
    assert what_to_do(coarse, shop).startswith("give the picture more pixels (at least 350 pixels an inch")


def test_ruby_is_held_to_min_ruby_as_the_builds_lint_holds_it(tmp_path):
    """trial81: a card's 4 pt ruby over 8 pt text passed the build's lint (``min_ruby`` 4 pt) and
    preflight said 「small: 4.0 pt … set it at least 6 pt」. A reading set as pnpgen sets one, at half
    its base's size with its baseline 0.88 of the base's em and 0.12 of its own above, is held to
    min_ruby (4 pt, the lint's figure; --min-ruby or a preset's min_ruby another); small text of its
    own still to min_text."""
    base = b"BT /F1 8 Tf 0 0 0 1 k 40 80 Td (kanji) Tj ET "
    reading = b"BT /F1 4 Tf 0 0 0 1 k 42 87.52 Td (kana) Tj ET "
    stray = b"BT /F1 4 Tf 0 0 0 1 k 40 160 Td (tiny) Tj ET\n"
    folder = tmp_path / "doujin"
    _write(folder, [(FULL + base + reading + b"\n", False), (FULL + base + reading + stray, False)])
    shop, found, _ = _run(folder)
    assert shop.min_ruby_pt == 4

    def small(findings):
        return [(f.page, f.message, f.fix) for f in findings if f.check == "text" and f.message.startswith("small")]

    assert small(found) == [(2, "small: 4.0 pt in CMYK 0/0/0/100, ×1 on 1 pages", "set it at least 6 pt")]
    strict = preflight_run.preflight(folder, Limits(min_ruby="5pt"), tmp_path / "work", ghostscript())[1]
    assert sorted(small(strict)) == [
        (1, "small ruby: 4.0 pt in CMYK 0/0/0/100, ×2 on 2 pages",
         "set the text it reads at least 10 pt, its ruby then 5 pt, or leave the ruby out"),
        (2, "small: 4.0 pt in CMYK 0/0/0/100, ×1 on 1 pages", "set it at least 6 pt")]
