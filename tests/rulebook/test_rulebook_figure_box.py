"""A setup figure's piece placed past the figure's box is cut at the box (never printed over the
page around it) and the build says by how much, naming game.yaml's line."""

from __future__ import annotations

import json
import re

import numpy as np
import pypdfium2
from pypdf import PdfReader

from conftest import run
from pnpgen.rulebook.figures import Placed, reach_mm

FIGURE = ("rulebook:\n  figures:\n    - after: ゲームの進行\n      caption: 場の例\n      size: [80, 50]\n"
          "      pieces:\n        - {deck: cards, piece: 1, x: 10, y: 25}\n")
DPI = 144
RED = (204, 51, 51)  # the test card's ground (#cc3333)


def test_reach_is_measured_on_the_turned_cut_line():
    card = (63.0, 88.0)
    assert reach_mm([], card, Placed("c", 1, 40, 50, 0), (80, 100)) == 0  # inside: 8.5 / 6 mm to spare
    assert abs(reach_mm([], card, Placed("c", 1, 10, 50, 0), (80, 100)) - 21.5) < 1e-9  # 31.5 left of x = 10
    # turned a quarter, the card lies 88 wide and 63 high: past a 80×100 box by 4 mm on each side
    assert abs(reach_mm([], card, Placed("c", 1, 40, 50, 90), (80, 100)) - 4.0) < 1e-9


def _red_bands(image, px_per_mm: float) -> list[tuple[float, float]]:
    """(width, height) in mm of each run of rows holding the card's red, top to bottom."""
    red = (np.abs(np.asarray(image.convert("RGB"), dtype=np.int16) - RED) <= 6).all(axis=2)  # [y, x]
    rows = {int(y): [int(xs[0]), int(xs[-1])] for y in range(red.shape[0]) if len(xs := np.flatnonzero(red[y]))}
    bands, current = [], []
    for y in sorted(rows):
        if current and y > current[-1] + 2:
            bands.append(current)
            current = []
        current.append(y)
    if current:
        bands.append(current)
    return [((max(rows[y][1] for y in b) - min(rows[y][0] for y in b) + 1) / px_per_mm, (b[-1] - b[0] + 1) / px_per_mm)
            for b in bands]


def test_a_piece_past_the_figure_box_is_cut_there_and_named(drafted):
    game = drafted / "data" / "test" / "game.yaml"
    line = len(game.read_text(encoding="utf-8").splitlines()) + 3  # the figure's "- after:" line
    game.write_text(game.read_text(encoding="utf-8") + FIGURE, encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    out = drafted / "build" / "test"
    warnings = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["warnings"]
    said = [w for w in warnings if "past the figure's" in w]
    assert len(said) == 1 and said[0].startswith(f"data/test/game.yaml:{line}:"), warnings
    assert "piece 1 of 'cards'" in said[0] and "reaches 21.5 mm past the figure's 80×50 mm box" in said[0]
    pdf = out / "rulebook.pdf"
    page = next(i for i, p in enumerate(PdfReader(pdf).pages) if "場の例" in (p.extract_text() or ""))
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[page].render(scale=DPI / 72).to_pil()
    doc.close()
    bands = _red_bands(image, DPI / 25.4)
    # the figure's card: from the box's left edge to its own right edge (10 + 31.5 mm), the box's height
    assert any(abs(w - 41.5) < 1.0 and abs(h - 50) < 1.0 for w, h in bands), bands
    assert not any(h > 51 and w > 45 for w, h in bands[-1:]), bands  # not the whole card over the page


def test_a_figures_caption_is_centred_under_the_figure(drafted):
    """A setup figure is centred in the column; its caption was set flush left under it (trial20):
    the caption's middle is the figure's, within half a millimetre."""
    from pdfprobe import shown, texts

    game = drafted / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + FIGURE.replace("x: 10, y: 25", "x: 40, y: 50").replace("size: [80, 50]", "size: [80, 100]"), encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    pdf = drafted / "build" / "test" / "rulebook.pdf"
    page = next(i for i, p in enumerate(PdfReader(pdf).pages) if "場の例" in (p.extract_text() or ""))
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[page].render(scale=DPI / 72).to_pil()
    doc.close()
    red = (np.abs(np.asarray(image.convert("RGB"), dtype=np.int16) - RED) <= 6).all(axis=2)
    cols = np.flatnonzero(red.any(axis=0)) / (DPI / 25.4)
    figure_middle = (cols[0] + cols[-1]) / 2  # the card placed in the box's middle: the figure's middle
    # each glyph where its operation draws it (the caption is a marked span: PDFium spreads its text)
    drawn = shown(pdf, page + 1)
    at = "".join(c for c, _, _ in drawn).find("図1\u3000場の例")
    assert at >= 0, drawn
    left, right = drawn[at][1], drawn[at + 5][1] + 7.5 * 25.4 / 72  # (例 a full em)
    assert abs((left + right) / 2 - figure_middle) < 0.5, (left, right, figure_middle)
    # 「図1　場の例」: the gap after the number a full em (JLREQ's 全角アキ; a word space read 「図1 3人…」 as 図13),
    # copied as the 　 it is (PDFium read the glyph as an ASCII space)
    assert abs(drawn[at + 3][1] - drawn[at + 2][1] - 7.5 * 25.4 / 72) < 0.02, drawn[at:at + 4]
    assert "図1\u3000場の例" in texts(pdf)[page]


def test_captioned_figures_are_numbered_through_the_book(drafted):
    """A caption printed 「図　場の例」, a label with no number naming nothing: the captioned
    figures are 図1, 図2 in the book's order (a figure without a caption takes no number)."""
    from pdfprobe import texts

    piece = "      size: [80, 100]\n      pieces:\n        - {deck: cards, piece: 1, x: 40, y: 50}\n"
    figures = ("rulebook:\n  figures:\n"
               f"    - after: ゲームの進行\n      caption: 進行の例\n{piece}"
               f"    - after: ゲームの進行\n{piece}"
               f"    - after: 概要\n      caption: 場の例\n{piece}")
    game = drafted / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + figures, encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--rules-only") == 0
    text = re.sub(r"\s", "", "".join(texts(drafted / "build" / "test" / "rulebook.pdf")))
    assert "図1場の例" in text and "図2進行の例" in text, text  # (the space extracted or not)
    assert text.index("図1場の例") < text.index("図2進行の例") and "図3" not in text


def test_a_standee_in_a_figure_is_measured_as_the_figure_it_shows(drafted):
    """The harbour trial: a first-player standee placed in a setup figure is pictured as its upright
    figure (25 × 50 mm), but the warning measured the whole 25 × 120 mm strip, saying it reached
    40 mm past a box it overlapped by 5; one well inside was told it was cut."""
    (drafted / "data" / "test" / "decks" / "standee.yaml").write_text(
        "name: 手番\nlayout: standee\npieces:\n  - {title: 船長}\n", encoding="utf-8")
    game = drafted / "data" / "test" / "game.yaml"
    figure = FIGURE.replace("size: [80, 50]", "size: [80, 100]").replace(
        "{deck: cards, piece: 1, x: 10, y: 25}", "{deck: standee, piece: 1, x: 40, y: 50}\n"
        "        - {deck: standee, piece: 1, x: 60, y: 50, rotate: 90}")
    game.write_text(game.read_text(encoding="utf-8") + figure, encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    warnings = json.loads((drafted / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["warnings"]
    said = [w for w in warnings if "past the figure's" in w]
    # upright, its 50 mm fit the 100 mm box; turned, its 50 mm from x 35 to 85 reach 5 mm past (the strip: 40)
    assert len(said) == 1 and "at (60, 50) mm reaches 5.0 mm past" in said[0], said


PICTURE = ("rulebook:\n  figures:\n    - after: ゲームの進行\n      caption: 封印された地域\n      size: [60, 40]\n"
           "      pieces:\n        - {deck: scene, piece: 1, x: 30, y: 20}\n")
SCENE = ("name: 挿絵\nkind: board\nsize: [60, 40]\n"
         "layout: {extends: board, boxes: {band: null, title: null, text: null, frame: null, art: {x: 0, y: 0, w: w, h: h}}}\n"
         "pieces:\n  - {art: scene.png, count: 0}\n")


def test_a_picture_of_your_own_is_a_figure_of_a_parked_deck_the_components_list_leaves_out(drafted):
    """A picture in the book (a designer trial: an illustration in the rules): a board deck of one
    parked piece whose art is the picture, shown by a figure. It prints no sheet, and the
    components list, which listed it as 「挿絵　0枚」 under その他の内容物 (and proof.txt asked about
    it), leaves it out: a deck that prints nothing is no component."""
    from PIL import Image

    art = drafted / "data" / "test" / "art"
    art.mkdir()
    Image.new("RGB", (720, 480), RED).save(art / "scene.png")
    (drafted / "data" / "test" / "decks" / "scene.yaml").write_text(SCENE, encoding="utf-8")
    game = drafted / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + PICTURE, encoding="utf-8")
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    out = drafted / "build" / "test"
    assert not (out / "scene.pdf").exists()  # parked: no home sheet
    pages = [p.extract_text() or "" for p in PdfReader(out / "rulebook.pdf").pages]
    assert not any("挿絵" in p for p in pages), [p for p in pages if "挿絵" in p]  # no component 挿絵 0枚
    assert "挿絵" not in (out / "proof.txt").read_text(encoding="utf-8")
    page = next(i for i, p in enumerate(pages) if "封印された地域" in p)
    doc = pypdfium2.PdfDocument(str(out / "rulebook.pdf"))
    image = doc[page].render(scale=DPI / 72).to_pil()
    doc.close()
    bands = _red_bands(image, DPI / 25.4)
    assert any(abs(w - 60) < 1.5 and abs(h - 40) < 1.5 for w, h in bands), bands  # the picture, at its size
