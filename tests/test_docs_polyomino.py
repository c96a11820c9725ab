"""docs/data-format.md, "Polyomino tiles": the L tetromino's deck and its two templates build as
written, on A4 and on Letter; the die line is the deck's points, the front's cells stand 1.2 mm
inside it, the notch of the L is paper, the back's cells are the front's mirrored (each behind its
front once the duplex sheet is turned over), and the pieces measure the same in mm on both papers."""

from __future__ import annotations

import re

import numpy as np
import pikepdf
import pypdfium2 as pdfium

from conftest import REPO, docs_deck_workspace, run

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="polyomino"></a>')
SECTION = FORMAT[START:FORMAT.index("tests/test_docs_polyomino.py", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
GAME = "title: Polyomino\nlanguages: [en]\nplayers: 2-4\npalette: {red: \"#c0392b\", blue: \"#2e6db4\"}\n"
SCALE = 20  # px a mm (a shop page)
SHEET = 8  # px a mm (a home sheet)
PT = 72 / 25.4
CELLS = [(0, 0), (0, 1), (0, 2), (1, 2)]


def _image(path, page: int, scale: float = SCALE) -> np.ndarray:
    return np.asarray(pdfium.PdfDocument(str(path))[page].render(scale=scale / PT).to_pil().convert("RGB")).astype(int)


def _at(image: np.ndarray, x: float, y: float) -> tuple[int, ...]:
    """The pixel x, y mm from the trim's top-left corner of a shop page (3 mm of bleed round it)."""
    return tuple(image[round((y + 3) * SCALE), round((x + 3) * SCALE)])


def test_polyomino_tiles_cut_where_their_cells_are(tmp_path, capsys):
    deck, front, back = [body for _, body in FENCE.findall(SECTION)]
    ws = docs_deck_workspace(tmp_path / "ws", GAME, "poly-tet-l", deck,
                             {"poly-front.svg.j2": front, "poly-back.svg.j2": back})
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--paper", "letter",
               "--out", "letter") == 0, capsys.readouterr().err
    out = ws / "build" / "test"
    # the die line: the deck's points, mm from the trim's top-left corner (the PDF's y runs up)
    with pikepdf.open(out / "shop" / "poly-tet-l-die.pdf") as pdf:
        die = pdf.pages[0].Contents.read_bytes()
    path = re.search(rb"([\d.]+) ([\d.]+) m((?: [\d.]+ [\d.]+ l)+)", die)
    assert path is not None
    numbers = [float(v) for v in re.findall(rb"[\d.]+", path.group(0))]
    corners = {(round(x / PT - 3, 2), round(48 - y / PT, 2)) for x, y in zip(numbers[::2], numbers[1::2])}
    assert corners == {(0, 0), (15, 0), (15, 30), (30, 30), (30, 45), (0, 45)}
    # the front (shop page 1: piece 1, red): each cell red from 1.2 mm inside the cut, the notch paper
    face = _image(out / "shop" / "poly-tet-l-unique.pdf", 0)
    red = (0xC0, 0x39, 0x2B)
    for col, row in CELLS:
        assert _at(face, col * 15 + 7.5, row * 15 + 7.5) == red
        assert _at(face, col * 15 + 1.35, row * 15 + 7.5) == red  # 1.2 mm in: the cell
        assert _at(face, col * 15 + 1.05, row * 15 + 7.5) != red  # 1.05 mm in: the ground between
    assert _at(face, 22.5, 7.5) == (255, 255, 255)  # the notch: no piece, no bleed
    # the back (page 2): the cells mirrored, the notch at the left
    turned = _image(out / "shop" / "poly-tet-l-unique.pdf", 1)
    for col, row in CELLS:
        assert _at(turned, 30 - (col * 15 + 7.5), row * 15 + 7.5) != (0x33, 0x33, 0x33)  # a cell, not the ground
    assert _at(turned, 7.5, 7.5) == (255, 255, 255)
    # the same piece on A4 and on Letter: each tile's die line on the home sheet 30 × 45 mm (or turned)
    for sheet in (out / "poly-tet-l.pdf", ws / "letter" / "test" / "poly-tet-l.pdf"):
        black = _image(sheet, 0, SHEET).max(axis=2) < 130  # the thin die line, antialiased
        black[:round(12 * SHEET)] = False  # the slug (5 to 11 mm down): its text and scale bars
        sizes = sorted(tuple(sorted(box)) for box in _outlines(black))
        assert sizes == [(30.0, 45.0)] * 3, (sheet, sizes)


def _outlines(black: np.ndarray) -> list[tuple[float, float]]:
    """Width and height, mm to 0.5, of each run of touching dark pixels (a piece's die
    line, its faint pixels left out)."""
    left = set(zip(*np.nonzero(black)))
    boxes = []
    while left:
        todo = [left.pop()]
        ys, xs = [todo[0][0]], [todo[0][1]]
        while todo:
            y, x = todo.pop()
            for near in ((y + dy, x + dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)):
                if near in left:
                    left.remove(near)
                    todo.append(near)
                    ys.append(near[0])
                    xs.append(near[1])
        boxes.append((round((max(xs) - min(xs)) / SHEET * 2) / 2, round((max(ys) - min(ys)) / SHEET * 2) / 2))
    return boxes
