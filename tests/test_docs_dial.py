"""docs/data-format.md, "Letters round a circle": the cipher disc's deck and templates build as
written; each of the 46 かな stands on the circle 9 mm inside the 140 mm disc's edge, the i-th at
360·i/46 degrees clockwise from the top, and the centre mark of the back lands on the front's when
the sheet is printed duplex (the backs page mirrored)."""

from __future__ import annotations

import math
import re

import numpy as np
import pypdfium2 as pdfium

from conftest import REPO, docs_deck_workspace, run
from pdfprobe import glyphs

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="dial"></a>')
SECTION = FORMAT[START:FORMAT.index("tests/test_docs_dial.py", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
GAME = ("title: {ja: 時計塔, en: Clock Tower}\nlanguages: [ja, en]\nplayers: 1-4\n"
        "palette: {ink: \"#23262e\", paper: \"#fbf8f1\", accent: \"#3b4a8c\"}\n")  # as pnpgen new writes it
SCALE = 10  # px a mm
PT = 72 / 25.4


def _cross(page, dark_on: str) -> tuple[float, float]:
    """The centre mark's cross, mm from the page's top left: the row and the column of the middle
    of the page holding the most pure-black pixels (the letters are in the palette's ink)."""
    image = np.asarray(page.render(scale=SCALE / PT).to_pil().convert("RGB")).astype(int)
    h, w, _ = image.shape
    middle = image[h // 4:3 * h // 4, w // 5:4 * w // 5]
    black = middle.max(axis=2) < 20
    rows, cols = black.sum(axis=1), black.sum(axis=0)
    y = np.nonzero(rows >= rows.max() * 0.9)[0].mean() + h // 4
    x = np.nonzero(cols >= cols.max() * 0.9)[0].mean() + w // 5
    assert rows.max() > 6 * SCALE, dark_on  # a line of 8 mm found, not a stray pixel
    return x / SCALE, y / SCALE


def test_letters_stand_round_the_disc_and_the_centre_marks_meet(tmp_path, capsys):
    yaml_block, front, back = [body for _, body in FENCE.findall(SECTION)]
    ws = docs_deck_workspace(tmp_path / "ws", GAME, "wheel-outer", yaml_block,
                             {"wheel-front.svg.j2": front, "wheel-back.svg.j2": back})
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    out = ws / "build" / "test"
    # the shop file: the disc alone on a page of 140 mm and its 3 mm bleed, its centre at 73, 73
    [face] = [page for page in glyphs(out / "shop" / "wheel-outer.pdf")[:1]]
    letters = [g for g in face if g.char.strip()]
    kana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
    assert sorted(g.char for g in letters) == sorted(kana)
    for g in letters:
        i = kana.index(g.char)
        dx, dy = g.x - 73, g.y - 73
        assert 60.9 < math.hypot(dx, dy) < 61.3, (g.char, math.hypot(dx, dy))  # 70 - 9 mm, the origin half a letter left
        angle = math.degrees(math.atan2(dx, -dy)) % 360  # clockwise from the top
        # the origin, at the letter's left, lies 2 degrees before its centre's 360·i/46
        assert -3.5 < (angle - 360 * i / 46 + 180) % 360 - 180 < -0.5, (g.char, angle, 360 * i / 46)
    # the home sheet: fronts page, backs page; the back's mark is the front's mirrored left-right
    sheet = pdfium.PdfDocument(str(out / "wheel-outer.pdf"))
    assert len(sheet) == 2
    width = sheet[0].get_width() / PT
    (fx, fy), (bx, by) = _cross(sheet[0], "front"), _cross(sheet[1], "back")
    assert abs(fx - (width - bx)) < 0.15 and abs(fy - by) < 0.15, ((fx, fy), (bx, by), width)
