"""A fold-over standee in the rulebook: the book pictured the whole strip it is cut from (two
figures, one upside down, and the base tabs); it shows the upright figure the piece stands as
(its layout's ``stand_up`` box), as Tabletop Simulator does."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
from pypdf import PdfReader

from conftest import make_workspace, run
from pdfprobe import PT, placements
from pnpgen.rulebook.piecepics import form_name

STANDEES = "name: 兵士\nlayout: standee\npieces:\n  - {title: 騎士}\n"


def test_the_book_pictures_a_standee_as_the_figure_it_stands_as(tmp_path):
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "decks" / "figs.yaml").write_text(STANDEES, encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    name = "/FormXob." + form_name("figs", "front")
    boxes = [xo.get_object()["/BBox"] for page in PdfReader(tmp_path / "out" / "test" / "rulebook.pdf").pages
             for key, xo in (page["/Resources"].get("/XObject") or {}).items() if key == name]
    assert boxes, name
    x0, y0, x1, y1 = (float(v) for v in boxes[0])
    assert (round((x1 - x0) * PT, 1), round((y1 - y0) * PT, 1)) == (25.0, 50.0)  # the figure, not 25×120


def _placed_at(reader: PdfReader, name: str) -> tuple[int, list[float]]:
    """The page and the matrix (a b c d e f) with which a page places the form ``name``."""
    for number, page in enumerate(reader.pages):
        for placed, ctm in placements(reader, page):
            if placed == name:
                return number, ctm
    raise AssertionError(f"{name} is placed on no page")


def test_the_books_standee_shows_no_dash_of_the_fold_lines_along_its_figure(tmp_path):
    """A designer's trial (trial55): the book's picture of a standee showed the dashes of the fold
    lines along its figure's top and bottom edges, a cutting guide the standing piece never shows.
    The figure is drawn a little larger inside its box (the inset Tabletop Simulator's export
    takes, ``STAND_UP_INSET_MM``), its size in the book unchanged: the rows along its edges show
    the figure's art (a placeholder's light hatching), no dark dash."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "decks" / "figs.yaml").write_text(STANDEES, encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test", "--out", str(tmp_path / "out")) == 0
    book = tmp_path / "out" / "test" / "rulebook.pdf"
    number, (a, _, _, d, e, f) = _placed_at(PdfReader(book), "/FormXob." + form_name("figs", "front"))
    dpi = 600
    k = dpi / 72
    image = pdfium.PdfDocument(str(book))[number].render(scale=k).to_pil().convert("L")
    left, top = e * k, image.height - (f + d * 50 / PT) * k  # the form's box: 25 × 50 mm at its scale
    right, bottom = left + a * 25 / PT * k, image.height - f * k
    pixels = np.asarray(image)
    edge = round(0.3 * d * dpi / 25.4) + 1  # the rows within 0.3 mm of the figure's edge, at its scale
    inner = slice(round(left) + 2, round(right) - 2)
    rows = np.concatenate([pixels[round(top) + 1:round(top) + edge, inner], pixels[round(bottom) - edge:round(bottom) - 1, inner]])
    middle = pixels[round((top + bottom) / 2) + 200:round((top + bottom) / 2) + 220, inner]  # below the placeholder's words
    assert middle.min() < 245  # the hatching shows (the box is found)
    assert rows.min() > 150, rows.min()  # no dark dash
