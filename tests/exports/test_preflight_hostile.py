"""``pnpgen preflight`` given files a shop could not open: an encrypted PDF (a PasswordError
traceback), a PDF pikepdf recovers and pdfium refuses (a PdfiumError traceback after its
other checks), and among the files a pipe, a link to a device and a link to nothing named .pdf
or .png (the open of a pipe or /dev/zero waited for ever). Each is an error finding of its own,
exit status 1, the other files still checked."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pikepdf
import pytest

from conftest import forked_cli
from pnpgen.cli import main

MM = 72 / 25.4


def _card(path: Path) -> pikepdf.Pdf:
    """A 63×88 mm card with 3 mm of bleed, as the doujin preset's poker format; saved."""
    pdf = pikepdf.new()
    w, h = 69 * MM, 94 * MM
    pdf.add_blank_page(page_size=(w, h))
    pdf.pages[0].obj.BleedBox = [0, 0, w, h]
    pdf.pages[0].obj.TrimBox = [3 * MM, 3 * MM, w - 3 * MM, h - 3 * MM]
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.save(path)
    return pdf


def test_an_encrypted_pdf_and_one_pdfium_refuses_are_findings(tmp_path, capsys):
    folder = tmp_path / "mine"  # (a folder of no preset: RGB, no ink check for Ghostscript to fail first)
    pdf = _card(folder / "cards.pdf")
    pdf.save(folder / "locked.pdf", encryption=pikepdf.Encryption(user="secret", owner="secret"))
    (folder / "headless.pdf").write_bytes((folder / "cards.pdf").read_bytes().replace(b"%PDF-", b"%XYZ-", 1))
    assert main(["preflight", str(folder)]) == 1
    said = capsys.readouterr()
    assert "Traceback" not in said.err, said.err
    assert ("error: mine/locked.pdf: file: not a readable PDF: it is encrypted, opened only with a password, "
            "which a shop does not have (save it without a password)") in said.out, said.out
    assert "error: mine/headless.pdf: file: not a readable PDF: Failed to load document" in said.out, said.out
    assert "mine/cards.pdf: pages 1" in said.out and "preflight: 3 files, 2 errors" in said.out, said.out


def test_a_pdf_with_a_permissions_password_only_is_an_error(tmp_path, capsys):
    """A PDF any reader opens without a password whose owner password forbids printing passed as
    'nothing a shop would turn away' (hostile35): PDF/X takes no encryption (Adobe's InDesign
    manual: no security options for the PDF/X standards), and the shops' checks refuse it."""
    folder = tmp_path / "mine"
    pdf = _card(folder / "cards.pdf")
    pdf.save(folder / "owned.pdf", encryption=pikepdf.Encryption(user="", owner="secret",
                                                                 allow=pikepdf.Permissions(print_highres=False)))
    assert main(["preflight", str(folder)]) == 1
    said = capsys.readouterr()
    assert ("error: mine/owned.pdf: file: it is encrypted with a permissions password, printing not allowed at full "
            "resolution: PDF/X takes no encryption") in said.out, said.out
    assert "mine/owned.pdf: pages 1" in said.out and "preflight: 2 files, 1 error" in said.out, said.out


def test_a_pipe_a_device_and_a_link_to_nothing_are_findings_never_opened(tmp_path):
    folder = tmp_path / "doujin"
    _card(folder / "cards.pdf")
    os.mkfifo(folder / "pipe.pdf")
    os.mkfifo(folder / "pipe.png")
    (folder / "zeros.pdf").symlink_to("/dev/zero")
    (folder / "gone.pdf").symlink_to(tmp_path / "nowhere.pdf")
    report = tmp_path / "report.json"
    status, err = forked_cli(tmp_path, "preflight", str(folder), "--json", str(report), timeout=60)
    assert status == 1 and "Traceback" not in err, (status, err)  # (-9: it waited on the pipe)
    found = {f["file"]: f["message"] for f in json.loads(report.read_text(encoding="utf-8"))[str(folder)]["findings"]}
    assert found == {"doujin/gone.pdf": "not a readable PDF: a link to nothing, not a file",
                     "doujin/pipe.pdf": "not a readable PDF: a pipe, socket or device, not a file",
                     "doujin/pipe.png": "not a readable PNG: a pipe, socket or device, not a file",
                     "doujin/zeros.pdf": "not a readable PDF: a pipe, socket or device, not a file"}, found


def test_a_page_of_more_content_than_a_page_has_is_a_finding_in_bounded_memory(tmp_path):
    """A page whose content stream, 70 KB in the file, decodes to 72 MB (its operators parsed whole
    took some six times that: a 3 MB file of 1.8 GB took 10 GB and minutes): an error finding,
    the stream never decoded whole; a page of ordinary content beside it checked."""
    import zlib

    folder = tmp_path / "mine"
    pdf = _card(folder / "cards.pdf")
    pdf.pages[0].obj.Contents = pdf.make_stream(zlib.compress(b"0 0 m\n" * 12_000_000, 1), Filter=pikepdf.Name.FlateDecode)
    pdf.save(folder / "bomb.pdf")
    report = tmp_path / "report.json"
    status, err = forked_cli(tmp_path, "preflight", str(folder), "--json", str(report), timeout=120, memory=1 << 30)
    assert status == 1 and "Traceback" not in err, (status, err)
    found = json.loads(report.read_text(encoding="utf-8"))[str(folder)]["findings"]
    assert [(f["file"], f["message"]) for f in found] == [
        ("mine/bomb.pdf", "not a readable PDF: page 1 has more than 64 MB of content to draw (its own and its "
                          "forms' each time drawn)")], found


def test_json_over_a_pipe_a_link_or_a_file_it_checks_is_refused_before_the_run(tmp_path, capsys):
    """--json is written by a rename over its path: a pipe (or a device: /dev/full, run as root,
    was replaced by the report), a link, or one of the export's own files (--json naming the PDF
    it checked wrote the report over it) was replaced. One line, exit status 2, each left as it was."""
    folder = tmp_path / "mine"
    _card(folder / "cards.pdf")
    pdf = (folder / "cards.pdf").read_bytes()
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "link.json").symlink_to(tmp_path / "elsewhere.json")
    (folder / "export.json").write_text("{}", encoding="utf-8")
    for given, said in ((tmp_path / "pipe.json", "is a pipe, socket or device"), (tmp_path / "link.json", "is a link"),
                        (folder / "export.json", f"is inside {folder}, a folder it checks")):
        assert main(["preflight", str(folder), "--json", str(given)]) == 2
        out = capsys.readouterr()
        assert out.err.startswith(f"pnpgen: error: --json {given}: {said} (expected a file") and out.err.count("\n") == 1, out.err
        assert out.out == ""
    assert (tmp_path / "pipe.json").is_fifo() and (tmp_path / "link.json").is_symlink()
    assert not (tmp_path / "elsewhere.json").exists() and (folder / "export.json").read_text(encoding="utf-8") == "{}"
    # a name that is no .json file's (the PDF it checks, the game's data, a font): refused by its name, kept
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "game.yaml").write_text("title: mine\n", encoding="utf-8")
    for given in (folder / "cards.pdf", tmp_path / "data" / "game.yaml"):
        with pytest.raises(SystemExit) as e:
            main(["preflight", str(folder), "--json", str(given)])
        out = capsys.readouterr()
        assert e.value.code == 2 and f"argument --json: {given} is not a .json file" in out.err and out.err.count("\n") == 1, out.err
    assert (folder / "cards.pdf").read_bytes() == pdf and (tmp_path / "data" / "game.yaml").read_text(encoding="utf-8") == "title: mine\n"
    assert main(["preflight", str(folder), "--json", str(tmp_path / "report.json")]) == 0
    assert str(folder) in json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))


def test_a_games_preset_whose_format_is_no_format_is_one_line(tmp_path, capsys):
    """A game's own preset whose format is a number, its pixels a number, its trim a word: one line
    naming the preset and key, exit status 2 (an AttributeError or TypeError traceback once the
    files were read); a format as the checks read it passes."""
    from PIL import Image

    folder = tmp_path / "ws" / "build" / "g" / "printerstudio"
    folder.mkdir(parents=True)
    Image.new("RGB", (816, 1111), "white").save(folder / "card.png")
    preset = tmp_path / "ws" / "data" / "g" / "presets" / "printerstudio.yaml"
    preset.parent.mkdir(parents=True)
    for spec in ("{poker: 5}", "{poker: {pixels: 5}}", "{poker: {trim: abc}}", "{poker: {pixels: [816, 1111], bleed: x}}"):
        preset.write_text(f"formats: {spec}\n", encoding="utf-8")
        assert main(["preflight", str(folder)]) == 2, spec
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "printerstudio.yaml: formats: " in err and "is not read (expected a mapping of " \
            "formats, each trim: [w, h], bleed:, safe: lengths in mm, pixels: [w, h])" in err, err
    preset.write_text("formats: {poker: {trim: [63, 88], bleed: 3mm, pixels: [816, 1111]}}\n", encoding="utf-8")
    assert main(["preflight", str(folder)]) == 0


def test_a_preset_linked_out_of_the_workspace_is_refused_unread(tmp_path, capsys):
    """The game's or the workspace's preset a link leading out of the workspace: one line, exit
    status 2, as export refuses it (preflight read it through the link); a link inside is read."""
    from PIL import Image

    folder = tmp_path / "ws" / "build" / "g" / "printerstudio"
    folder.mkdir(parents=True)
    Image.new("RGB", (816, 1111), "white").save(folder / "card.png")
    private = tmp_path / "private.yaml"
    private.write_text("formats: {poker: {trim: [63, 88], bleed: 3mm, pixels: [816, 1111]}}\n", encoding="utf-8")
    game = tmp_path / "ws" / "data" / "g" / "presets"
    game.mkdir(parents=True)
    (tmp_path / "ws" / "presets").mkdir()
    for link in (game / "printerstudio.yaml", tmp_path / "ws" / "presets" / "printerstudio.yaml"):
        link.symlink_to(private)
        assert main(["preflight", str(folder)]) == 2
        err = capsys.readouterr().err
        assert err == f"pnpgen: error: {link}: a link leading out of the workspace (expected the preset itself copied " \
                      "in place of the link: pnpgen reads nothing outside the workspace)\n", err
        link.unlink()
    (game / "mine.yaml").write_text(private.read_text(encoding="utf-8"), encoding="utf-8")
    (game / "printerstudio.yaml").symlink_to("mine.yaml")
    assert main(["preflight", str(folder)]) == 0


@pytest.mark.parametrize("theirs", ['{"name": "my-game", "version": "1.0"}\n', "[" * 100_000, "", "{}x"],
                         ids=["package.json", "nested deep", "empty", "not JSON"])
def test_json_over_a_json_file_of_the_designers_is_refused_and_kept(tmp_path, capsys, theirs):
    """--json package.json (tab-completed), --json data/test/strings.json: the designer's own JSON
    file was replaced by the report. Only a report preflight wrote is written over."""
    folder = tmp_path / "mine"
    _card(folder / "cards.pdf")
    mine = tmp_path / "package.json"
    mine.write_text(theirs, encoding="utf-8")
    assert main(["preflight", str(folder), "--json", str(mine)]) == 2
    out = capsys.readouterr()
    assert out.err == (f"pnpgen: error: --json {mine}: already exists and is not a report pnpgen preflight wrote; not "
                       "overwritten (expected --json another file, or remove it)\n"), out.err
    assert mine.read_text(encoding="utf-8") == theirs
    report = tmp_path / "report.json"  # its own report, written again over the last
    assert main(["preflight", str(folder), "--json", str(report)]) == 0
    first = report.read_bytes()
    assert main(["preflight", str(folder), "--json", str(report)]) == 0
    assert report.read_bytes() == first and sorted(p.name for p in tmp_path.iterdir()) == ["mine", "package.json",
                                                                                         "report.json"]


def test_a_json_file_saved_at_json_while_preflight_runs_is_kept(tmp_path, capsys, monkeypatch):
    """Looked at before the run, free; taken as the run went (an editor saving there): kept."""
    import pnpgen.preflight.run as preflight_run

    folder = tmp_path / "mine"
    _card(folder / "cards.pdf")
    mine, checked = tmp_path / "notes.json", preflight_run.preflight

    def saved_meanwhile(*args, **kwargs):
        mine.write_text('{"mine": 1}', encoding="utf-8")
        return checked(*args, **kwargs)

    monkeypatch.setattr(preflight_run, "preflight", saved_meanwhile)
    assert main(["preflight", str(folder), "--json", str(mine)]) == 2
    assert "already exists and is not a report pnpgen preflight wrote" in capsys.readouterr().err
    assert mine.read_text(encoding="utf-8") == '{"mine": 1}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "notes.json"]
