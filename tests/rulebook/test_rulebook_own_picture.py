"""A picture of the designer's own in the rulebook (game.yaml ``rulebook: figures: - {after: …,
picture: setup.jpg}``): placed after its heading, at its size in mm, captioned and numbered with
the figures of pieces, in both editions and in the doujin-book export (CMYK); checked as the
cards' art is (dpi, orientation, files outside art/, unreadable files)."""

from __future__ import annotations

import json
import re

import numpy as np
import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import run
from rulebook.test_rulebook_english import english_workspace

DPI = 144
BLUE = (30, 90, 200)  # the pictures' (the test card's ground is red)
GREEN = (40, 160, 60)
PIECES = ("    - after: 概要\n      caption: 場の例\n      size: [80, 50]\n"
          "      pieces:\n        - {deck: cards, piece: 1, x: 40, y: 25}\n")


def _figures(ws, *entries: str) -> int:
    """game.yaml with ``rulebook: figures:`` of ``entries``; the line of the last entry's ``- after:``."""
    game = ws / "data" / "test" / "game.yaml"
    text = game.read_text(encoding="utf-8") + "rulebook:\n  figures:\n" + "".join(entries)
    game.write_text(text, encoding="utf-8")
    return len(text.splitlines()) - entries[-1].count("\n") + 1


def _art(ws, name: str, size: tuple[int, int], colour=BLUE, **save) -> None:
    art = ws / "data" / "test" / "art"
    art.mkdir(exist_ok=True)
    Image.new("RGB", size, colour).save(art / name, **save)


def _box_mm(pdf, page: int, colour=BLUE) -> tuple[float, float]:
    """The width and height (mm) of what ``page`` paints in ``colour``."""
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[page].render(scale=DPI / 72).to_pil()
    doc.close()
    hit = (np.abs(np.asarray(image.convert("RGB"), dtype=np.int16) - colour) <= 8).all(axis=2)
    ys, xs = np.nonzero(hit)
    assert len(xs), f"nothing in {colour} on page {page + 1}"
    px_per_mm = DPI / 25.4
    return (xs.max() - xs.min() + 1) / px_per_mm, (ys.max() - ys.min() + 1) / px_per_mm


def _page_of(pdf, text: str) -> tuple[int, str]:
    pages = [p.extract_text() or "" for p in PdfReader(pdf).pages]
    page = next(i for i, p in enumerate(pages) if text in p)
    return page, pages[page]


def _warnings(out) -> list[str]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))["warnings"]


def test_a_picture_is_a_figure_at_its_size_captioned_and_numbered_after_the_pieces_figure(drafted):
    """The picture prints at its size: 60 × 40 mm, 図2 after the pieces' 図1, under its heading;
    720 × 480 px is 304 dpi there: no warning. Painted again, the book is set again."""
    _figures(drafted, PIECES, "    - after: ゲームの進行\n      caption: 準備の済んだ卓\n"
                                     "      picture: setup.png\n      size: [60, 40]\n")
    _art(drafted, "setup.png", (720, 480))
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    out = drafted / "build" / "test"
    pdf = out / "rulebook.pdf"
    page, text = _page_of(pdf, "準備の済んだ卓")
    assert re.search(r"図2\s+準備の済んだ卓", text), text  # numbered after the pieces' figure
    assert re.search(r"図1\s+場の例", "".join(p.extract_text() or "" for p in PdfReader(pdf).pages))
    assert text.index("カードを１枚出す") < text.index("準備の済んだ卓"), text  # after its section's last step
    w, h = _box_mm(pdf, page)
    assert abs(w - 60) < 0.5 and abs(h - 40) < 0.5, (w, h)
    assert not [w for w in _warnings(out) if "setup.png" in w]
    _art(drafted, "setup.png", (720, 480), GREEN)  # repainted: the book's key holds the picture
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    w, h = _box_mm(pdf, page, GREEN)
    assert abs(w - 60) < 0.5 and abs(h - 40) < 0.5, (w, h)


def test_an_svg_pictures_own_picture_repainted_sets_the_book_again(drafted):
    """An SVG figure's own ``<image href="inner.png">`` is a file the book reads: repainted, the
    next build sets the book with the new one (the book's keys held the SVG's bytes alone: the
    old picture stayed, where a cold build showed the new)."""
    _figures(drafted, "    - after: ゲームの進行\n      caption: 準備の済んだ卓\n"
                      "      picture: setup.svg\n      size: [60, 40]\n")
    _art(drafted, "inner.png", (300, 200))
    (drafted / "data" / "test" / "art" / "setup.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" viewBox="0 0 60 40">'
        '<image href="inner.png" x="0" y="0" width="60" height="40"/></svg>', encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    pdf = drafted / "build" / "test" / "rulebook.pdf"
    page, _ = _page_of(pdf, "準備の済んだ卓")
    assert _box_mm(pdf, page)[0] > 55
    _art(drafted, "inner.png", (300, 200), GREEN)
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    w, h = _box_mm(pdf, page, GREEN)
    assert abs(w - 60) < 0.5 and abs(h - 40) < 0.5, (w, h)


def test_a_picture_without_size_prints_at_the_text_width_and_its_dpi_is_warned_with_the_pixels_that_do(drafted):
    """No size: its own proportions at the text's width, 118 mm (2:1, 59 mm tall); 1,000 px across
    118 mm is 215 dpi: warned at its line with the 1,394 × 697 px that would do."""
    line = _figures(drafted, "    - after: ゲームの進行\n      picture: wide.png\n")
    _art(drafted, "wide.png", (1000, 500))
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    out = drafted / "build" / "test"
    said = [w for w in _warnings(out) if "wide.png" in w]
    assert said == [f"data/test/game.yaml:{line + 1}: figure after 「ゲームの進行」: art/wide.png: 215 dpi at 118×59 mm, "
                    "300 wanted (1,394 × 697 px would do; or the figure's size: smaller)"], said
    doc = pypdfium2.PdfDocument(str(out / "rulebook.pdf"))
    pages = len(doc)
    doc.close()
    sizes = []
    for page in range(pages):
        try:
            sizes.append(_box_mm(out / "rulebook.pdf", page))
        except AssertionError:
            continue
    assert any(abs(w - 118) < 0.5 and abs(h - 59) < 0.5 for w, h in sizes), sizes


def test_a_photo_turned_by_its_exif_prints_upright_no_taller_than_a_figure(drafted):
    """A phone's JPEG stored 400 × 300 with EXIF orientation 6 is 300 × 400 upright: at the
    text's width it would be 157 mm tall, so it is drawn as figures are, 90 mm at most: 67.5 × 90."""
    _figures(drafted, "    - after: ゲームの進行\n      caption: 卓\n      picture: photo.jpg\n")
    exif = Image.Exif()
    exif[0x0112] = 6
    _art(drafted, "photo.jpg", (400, 300), quality=100, subsampling=0, exif=exif)
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    pdf = drafted / "build" / "test" / "rulebook.pdf"
    page, _ = _page_of(pdf, "卓")
    w, h = _box_mm(pdf, page)
    assert abs(w - 67.5) < 0.5 and abs(h - 90) < 0.5, (w, h)


@pytest.mark.parametrize(("entry", "said"), [
    ("      picture: setup.png\n      pieces:\n        - {deck: cards, piece: 1, x: 1, y: 1}\n",
     "picture: a figure shows a picture or pieces, not both"),
    ("      picture: ../../../secret.png\n", "picture: '../../../secret.png' is outside art/"),
    ("      picture: broken.png\n", "picture: cannot read the image art/broken.png"),
    ("      picture: strip.png\n", "picture: art/strip.png (3000 × 1 px) prints 118 × 0.0393 mm in its figure, too thin"),
])
def test_a_bad_picture_is_one_error_at_its_line(drafted, capsys, entry, said):
    line = _figures(drafted, "    - after: ゲームの進行\n" + entry)
    _art(drafted, "setup.png", (60, 40))
    _art(drafted, "strip.png", (3000, 1))  # its own proportions at the text's width: a line of nothing
    (drafted / "data" / "test" / "art" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot a picture")
    capsys.readouterr()
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith(f"pnpgen: error: data/test/game.yaml:{line + 1}:"), err
    assert said in err and "Traceback" not in err
    assert not (drafted / "build" / "test" / "rulebook.pdf").exists()
    assert run(drafted, "check", "--game", "test") == 2  # pnpgen check says the same, as a problem of the game
    assert f"  error: {err.removeprefix('pnpgen: error: ')}\n" in capsys.readouterr().out


def test_the_english_edition_places_the_picture_after_its_own_heading(tmp_path):
    ws = english_workspace(tmp_path)
    _figures(ws, "    - after: {ja: ゲームの進行, en: Playing the game}\n"
                 "      caption: {ja: 準備の済んだ卓, en: The table set up}\n      picture: setup.png\n      size: [60, 40]\n")
    _art(ws, "setup.png", (720, 480))
    assert run(ws, "build", "--game", "test", "--lang", "en", "--jobs", "1") == 0
    pdf = ws / "build" / "test" / "en" / "rulebook.pdf"
    page, text = _page_of(pdf, "The table set up")
    assert "Figure 1" in text
    w, h = _box_mm(pdf, page)
    assert abs(w - 60) < 0.5 and abs(h - 40) < 0.5, (w, h)


def test_a_picture_given_only_in_another_language_names_the_one_missing_once(tmp_path, capsys):
    ws = english_workspace(tmp_path)
    line = _figures(ws, "    - after: ゲームの進行\n      picture: {en: setup.png}\n")
    _art(ws, "setup.png", (720, 480))
    capsys.readouterr()
    assert run(ws, "rulebook", "--game", "test") == 2  # the Japanese edition: the game's default language
    err = capsys.readouterr().err
    assert f"game.yaml:{line + 1}:" in err and "picture: no text in ja (expected {ja: …})" in err, err


def test_doujin_book_prints_the_picture_in_cmyk_with_an_english_warning_and_a_japanese_title(drafted):
    """The shop's book converts the picture to CMYK as the pieces' pictures are (PDF/X-1a has no
    RGB); the export's lines are English (README: pnpgen's own terminal lines), its title is the
    book's: 「テストゲーム　ルールブック（…）」, no English word in a Japanese book's metadata."""
    _figures(drafted, "    - after: ゲームの進行\n      caption: 準備の済んだ卓\n      picture: setup.png\n      size: [60, 40]\n")
    _art(drafted, "setup.png", (360, 240))  # 152 dpi at 60 mm: under the preset's 350
    assert run(drafted, "export", "--game", "test", "--preset", "doujin-book") == 0
    folder = drafted / "build" / "test" / "doujin-book"
    reader = PdfReader(folder / "rulebook.pdf")
    spaces = set()
    for p in reader.pages:
        for xobject in _images(p):
            spaces.add(str(xobject.get("/ColorSpace")))
    assert spaces == {"/DeviceCMYK"}, spaces
    title = str(reader.metadata["/Title"])
    assert title.startswith("テストゲーム　ルールブック（") and "rulebook" not in title, title
    warnings = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert any("art/setup.png: 152 dpi at 60×40 mm, 350 wanted" in w for w in warnings), warnings


def test_doujin_book_holds_a_picture_of_your_own_to_350_dpi_as_the_preflight_does(drafted, capsys):
    """The 同人印刷所 ask 350 dpi of a book's pages as of its cards (docs/exports.md, doujin-book):
    a picture at 336 dpi (794 × 529 px at 60 × 40 mm), which the home book's 300 takes, is warned by
    the doujin-book export with the pixels that would do, and is an error of ``pnpgen preflight``,
    which reads the preset's figure (trial75: the preset said none, 300, and both passed it)."""
    _figures(drafted, "    - after: ゲームの進行\n      caption: 準備の済んだ卓\n      picture: setup.png\n      size: [60, 40]\n")
    _art(drafted, "setup.png", (794, 529))
    assert run(drafted, "export", "--game", "test", "--preset", "doujin-book") == 0
    folder = drafted / "build" / "test" / "doujin-book"
    warnings = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert any("art/setup.png: 336 dpi at 60×40 mm, 350 wanted (827 × 551 px would do" in w for w in warnings), warnings
    capsys.readouterr()
    assert run(drafted, "preflight", "--game", "test", "--preset", "doujin-book") == 1
    out = capsys.readouterr().out
    assert "pictures ≥ 350 ppi" in out and "resolution: 1 placed picture under 350 ppi, the lowest 336 ppi" in out, out


def _images(page) -> list:
    """The image XObjects a page shows, in its forms too."""
    found, todo = [], [page.get("/Resources")]
    while todo:
        res = todo.pop()
        res = res.get_object() if res is not None else None
        if not res or "/XObject" not in res:
            continue
        for ref in res["/XObject"].get_object().values():
            x = ref.get_object()
            if x.get("/Subtype") == "/Image":
                found.append(x)
            elif "/Resources" in x:
                todo.append(x["/Resources"])
    return found
