"""``pnpgen calibrate --out FILE`` writes a PDF, so FILE must be one: a slip of the shell (``--out
data/test/game.yaml``, ``--out fonts/NotoSans-Regular.ttf``, a tab-completed notes file) once
replaced that file with the sheet, the game's data or a font lost without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run


def _refused(ws: Path, capsys, *args: str) -> str:
    """An --out argparse refuses through its type: one error line, exit 2."""
    with pytest.raises(SystemExit) as e:
        run(ws, *args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("name", ["data/test/game.yaml", "data/test/decks/cards.yaml", "notes.txt", "sheet"])
def test_calibrate_out_at_a_file_not_a_pdf_is_refused_and_the_file_kept(tmp_path, capsys, name):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    target = ws / name
    if not target.exists():
        target.write_bytes(b"the designer's own file")
    before = target.read_bytes()
    err = _refused(ws, capsys, "calibrate", "--out", name)
    assert "argument --out" in err and "not a .pdf file" in err, err
    assert target.read_bytes() == before


def test_calibrate_out_through_a_linked_fonts_folder_is_refused_and_the_font_kept(tmp_path, capsys):
    """The workspace's fonts/ is often a link to a shared folder of fonts: a font is not a PDF."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    fonts = tmp_path / "shared-fonts"
    fonts.mkdir()
    (fonts / "Mine-Regular.ttf").write_bytes(b"\x00\x01\x00\x00 a font")
    (ws / "fonts").unlink()
    (ws / "fonts").symlink_to(fonts)
    assert "argument --out" in _refused(ws, capsys, "calibrate", "--out", "fonts/Mine-Regular.ttf")
    assert (fonts / "Mine-Regular.ttf").read_bytes() == b"\x00\x01\x00\x00 a font"


def test_calibrate_out_at_a_pdf_is_written_whole(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "calibrate", "--out", "sheets-to-print/cal.PDF") == 0
    data = (ws / "sheets-to-print/cal.PDF").read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert [p.name for p in (ws / "sheets-to-print").iterdir()] == ["cal.PDF"]  # no temporary file left


def test_calibrate_out_at_a_pdf_of_the_designers_is_refused_and_the_file_kept(tmp_path, capsys):
    """A slip of the shell (--out rules.pdf, tab-completed) replaced the designer's own PDF."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "rules.pdf").write_bytes(b"%PDF-1.7\n% the designer's own rules\n")
    (ws / "link.pdf").symlink_to(tmp_path / "elsewhere.pdf")  # a link: never written through
    for name in ("rules.pdf", "link.pdf"):
        assert run(ws, "calibrate", "--out", name) == 2
        assert capsys.readouterr().err == (f"pnpgen: error: {name}: already exists and is not a calibration sheet "
                                           "pnpgen wrote; not overwritten (expected --out another file, or remove it)\n")
    assert (ws / "rules.pdf").read_bytes() == b"%PDF-1.7\n% the designer's own rules\n"
    assert (ws / "link.pdf").is_symlink() and not (tmp_path / "elsewhere.pdf").exists()


def test_calibrate_writes_again_over_its_own_sheet(tmp_path):
    """A sheet for the other flip edge over the last one, as the default path always was."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "calibrate", "--out", "cal.pdf") == 0
    long_edge = (ws / "cal.pdf").read_bytes()
    assert run(ws, "calibrate", "--out", "cal.pdf", "--duplex", "short") == 0
    assert (ws / "cal.pdf").read_bytes() != long_edge
    assert run(ws, "calibrate") == 0 and run(ws, "calibrate") == 0


def test_a_build_after_the_calibration_sheet_takes_the_build_folder(tmp_path, capsys):
    """The sheet comes first (docs/home-printing.md: calibrate, then print): its build/ is pnpgen's
    output folder, which the build then takes (it was refused: 'holds files pnpgen did not write')."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "calibrate", "-q") == 0
    assert capsys.readouterr().out == ""
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (ws / "build" / "test" / "cards.pdf").is_file()
    assert (ws / "build" / "calibration-a4-long.pdf").is_file()


def test_calibrate_writes_no_sheet_into_a_linked_build_folder_of_other_files(tmp_path, capsys):
    """A build/ that is a link to a folder of other files (a downloaded workspace's build -> ~/Documents)
    is refused, as a build refuses it: no sheet is put among those files."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    elsewhere = tmp_path / "Documents"
    elsewhere.mkdir()
    (elsewhere / "letter.txt").write_text("mine\n", encoding="utf-8")
    (ws / "build").symlink_to(elsewhere)
    assert run(ws, "calibrate") == 2
    err = capsys.readouterr().err
    assert "build: a link to" in err and "pnpgen reads and writes no build/ outside it" in err, err
    assert len(err.splitlines()) == 1
    assert sorted(p.name for p in elsewhere.iterdir()) == ["letter.txt"]


def test_a_sheet_annotated_and_saved_from_a_viewer_is_not_replaced(tmp_path, capsys, monkeypatch):
    """A calibration sheet noted on ("printer B: back 1.5 mm right") and saved from a viewer keeps
    its title, and was replaced as pnpgen's: pnpgen replaces only the bytes it recorded writing."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "calibrate", "--out", "cal.pdf") == 0
    sheet = ws / "cal.pdf"
    from pypdf import PdfReader
    assert PdfReader(sheet).metadata["/Title"] == "pnpgen 両面位置合わせ用紙"  # (the game's language: left48)
    assert run(ws, "calibrate", "--out", "cal.pdf", "--duplex", "short") == 0  # its own sheet, recorded: replaced
    # a viewer's incremental save: the same start (title and all), a note appended
    noted = sheet.read_bytes() + b"\n% printer B: back 1.5 mm right\n%%EOF\n"
    sheet.write_bytes(noted)
    capsys.readouterr()
    assert run(ws, "calibrate", "--out", "cal.pdf") == 2
    assert "already exists and is not a calibration sheet pnpgen wrote" in capsys.readouterr().err
    assert sheet.read_bytes() == noted


@pytest.mark.parametrize("kind", ["fifo", "folder", "unreadable"])
def test_calibrate_says_a_printers_yaml_it_cannot_read(tmp_path, capsys, kind):
    """The sheet's measures go into printers.yaml: a FIFO, a folder or an unreadable file of that
    name beside data/ was passed over in silence (and a build with --printer stopped at it later).
    Said as a build says it, exit 2, no sheet written."""
    import os

    if kind == "unreadable" and os.geteuid() == 0:
        pytest.skip("root reads every file")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    profiles = ws / "printers.yaml"
    if kind == "fifo":
        os.mkfifo(profiles)
    elif kind == "folder":
        profiles.mkdir()
    else:
        profiles.write_text("home: {paper: a4}\n", encoding="utf-8")
        profiles.chmod(0)
    assert run(ws, "calibrate", "--out", "cal.pdf") == 2
    err = capsys.readouterr().err
    wrong = "cannot be read (permission denied)" if kind == "unreadable" else "is not a file (a folder, a pipe or a device)"
    assert f"printers.yaml: {wrong} (expected printers.yaml, a YAML file of printer profiles" in err, err
    assert not (ws / "cal.pdf").exists()


@pytest.mark.parametrize("appears", ["the designer's PDF", "a link"])
def test_a_file_saved_over_the_last_sheet_while_calibrate_looks_is_kept(tmp_path, capsys, monkeypatch, appears):
    """Looked at, then renamed over: a PDF the designer saved over the last sheet between the two
    (a viewer's 'save', a second calibrate) went. What stands at the name as the sheet goes in is
    what pnpgen looks at, and it is kept where it is not pnpgen's sheet."""
    import pnpgen.engine.calibration as calibration

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "calibrate", "--out", "cal.pdf") == 0
    sheet, looked = ws / "cal.pdf", calibration.a_calibration_sheet
    mine = b"%PDF-1.7\n% the designer's notes, saved as cal.pdf\n%%EOF\n"

    def saved_meanwhile(path: Path, data: bytes) -> bool:
        said = looked(path, data)  # (pnpgen's own sheet: yes) ... and then the designer saves theirs there
        path.unlink()
        if appears == "a link":
            path.symlink_to(tmp_path / "elsewhere.pdf")
        else:
            path.write_bytes(mine)
        return said

    monkeypatch.setattr(calibration, "a_calibration_sheet", saved_meanwhile)
    capsys.readouterr()
    assert run(ws, "calibrate", "--out", "cal.pdf", "--duplex", "short") == 2
    assert "already exists and is not a calibration sheet pnpgen wrote" in capsys.readouterr().err
    if appears == "a link":
        assert sheet.is_symlink() and not (tmp_path / "elsewhere.pdf").exists()
    else:
        assert sheet.read_bytes() == mine
    assert sorted(p.name for p in ws.iterdir() if "cal" in p.name) == ["cal.pdf"]  # nothing left aside


def test_a_file_saved_where_calibrate_writes_a_new_sheet_is_kept(tmp_path, capsys, monkeypatch):
    """No file at --out as calibrate looks, one there as it writes: the link that puts the sheet in
    place fails where anything stands (export-sheet's --out), so the designer's file stays."""
    import pnpgen.engine.calibration as calibration

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    sheet, made = ws / "cal.pdf", calibration.make_folder
    mine = b"%PDF-1.7\n% saved there meanwhile\n%%EOF\n"

    def saved_meanwhile(folder: Path) -> None:
        made(folder)
        sheet.write_bytes(mine)

    monkeypatch.setattr(calibration, "make_folder", saved_meanwhile)  # (its folder made: the sheet written next)
    assert run(ws, "calibrate", "--out", "cal.pdf") == 2
    assert "already exists and is not a calibration sheet pnpgen wrote" in capsys.readouterr().err
    assert sheet.read_bytes() == mine
    assert sorted(p.name for p in ws.iterdir() if "cal" in p.name) == ["cal.pdf"]
