"""A font file saved over in fonts/ while ``pnpgen watch`` (or ``serve``) runs: the next build of
the same process draws the new font's glyphs and sets its text with the new font's widths, as a
new process would. Its metrics, subsets and the layouts made with it were kept by the font's name
or path, so the old font went on being embedded and measured."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from conftest import REPO, make_workspace, run
from pdfprobe import glyphs, page_fonts, reader
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook

NAME = "カード1"
GAME = 'title: テスト\npalette: {red: "#cc3333"}\nfonts: {gothic: Swap}\n'


def _cut(font: str, text: str) -> bytes:
    """A small font of ``text``'s characters cut from one pnpgen ships (its names kept)."""
    f = TTFont(REPO / "fonts" / f"{font}.ttf")
    cutter = subset.Subsetter()
    cutter.populate(text=text)
    cutter.subset(f)
    out = io.BytesIO()
    f.save(out)
    return out.getvalue()


def _name_advances(pdf: Path) -> tuple[str, list[float]]:
    """The font the card's name is drawn in, and the steps in mm from each of its characters to the next."""
    shown = [g for g in glyphs(pdf)[0] if g.char in NAME]
    at = next(i for i in range(len(shown)) if "".join(g.char for g in shown[i:i + len(NAME)]) == NAME)
    name = shown[at:at + len(NAME)]
    return name[0].font, [round(b.x - a.x, 2) for a, b in zip(name, name[1:])]


def test_a_font_saved_over_between_two_builds_of_one_process_is_embedded_and_measured_anew(tmp_path):
    root = make_workspace(tmp_path / "ws", pieces=[NAME], game=GAME)
    (root / "fonts").unlink()
    (root / "fonts").mkdir()
    chars = NAME + "本文B"
    font = root / "fonts" / "Swap.ttf"
    font.write_bytes(_cut("BIZUDPGothic-Regular", chars))  # proportional kana
    assert run(root, "build", "--game", "test", "-q") == 0
    pdf = root / "build" / "test" / "cards.pdf"
    before = _name_advances(pdf)
    assert before[0] == "BIZUDPGothic-Regular-Swap"  # its face, and the file it is in (fonts._named_as_its_file)

    font.write_bytes(_cut("BIZUDGothic-Regular", chars))  # saved over in place: every kana a full em
    assert run(root, "build", "--game", "test", "-q") == 0
    shown, steps = _name_advances(pdf)
    assert shown == "BIZUDGothic-Regular-Swap"  # its glyphs embedded, not the old font's
    assert steps[:2] == [round(12 * 25.4 / 72, 2)] * 2  # カ, ー set a full em of 12 pt apart: its widths
    assert steps != before[1]
    embedded = page_fonts(reader(pdf).pages[0])["BIZUDGothic-Regular-Swap"]
    assert 500 in embedded["/DescendantFonts"][0].get_object()["/W"][1]  # the digit's half em, as the font says


def test_a_book_set_after_its_font_is_saved_over_is_set_in_the_new_font(tmp_path):
    """The rulebook's process (warm across saves) sets the next book in the font now in the file."""
    root = make_workspace(tmp_path / "ws", draft=True, game=GAME.replace("{gothic: Swap}", "{mincho: Body}"))
    (root / "fonts").unlink()
    (root / "fonts").mkdir()
    font = root / "fonts" / "Body.ttf"
    shutil.copyfile(REPO / "fonts" / "BIZUDMincho-Regular.ttf", font)
    ws = Workspace(root)
    first = build_rulebook(load_game(ws, "test"), ws.fonts)
    assert "BIZUDMincho-Regular-Body" in _book_fonts(first.files["rulebook.pdf"])

    shutil.copyfile(REPO / "fonts" / "BIZUDPMincho-Regular.ttf", font)
    again = build_rulebook(load_game(ws, "test"), ws.fonts)
    shown = _book_fonts(again.files["rulebook.pdf"])
    assert "BIZUDPMincho-Regular-Body" in shown and "BIZUDMincho-Regular-Body" not in shown


def _book_fonts(pdf: bytes) -> set[str]:
    from pypdf import PdfReader

    return {name for page in PdfReader(io.BytesIO(pdf)).pages for name in page_fonts(page)}


def test_a_copy_of_a_bundled_font_under_a_name_of_its_own_sets_the_book_beside_it(tmp_path):
    """fonts/Body.ttf, a copy of the bundled BIZUDMincho-Regular, as the gothic role beside the
    bundled mincho: two fonts of one PostScript name in one book were ReportLab's traceback,
    `redefining named object: 'toUnicodeCMap:AAAAAA+BIZUDMincho-Regular'` (an installed pnpgen's
    trial: a designer's title font copied in). Each is embedded, the copy by its face and file."""
    root = make_workspace(tmp_path / "ws", draft=True, game=GAME.replace("{gothic: Swap}", "{gothic: Body}"))
    (root / "fonts").unlink()
    (root / "fonts").mkdir()
    shutil.copyfile(REPO / "fonts" / "BIZUDMincho-Regular.ttf", root / "fonts" / "Body.ttf")
    ws = Workspace(root)
    book = build_rulebook(load_game(ws, "test"), ws.fonts)
    shown = _book_fonts(book.files["rulebook.pdf"])
    assert {"BIZUDMincho-Regular", "BIZUDMincho-Regular-Body"} <= shown, sorted(shown)
