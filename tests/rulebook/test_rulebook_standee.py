"""A fold-over standee in the rulebook: the book pictured the whole strip it is cut from (two
figures, one upside down, and the base tabs); it shows the upright figure the piece stands as
(its layout's ``stand_up`` box), as Tabletop Simulator does."""

from __future__ import annotations

from pypdf import PdfReader

from conftest import make_workspace, run
from pdfprobe import PT
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
