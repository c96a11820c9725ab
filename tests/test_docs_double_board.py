"""docs/data-format.md, a double-sided board: a designer's trial (trial68) wanted an A3 map board
with a summer and a winter side and found no word of one (only a card's picture on each side).
The example builds as written: one A3 sheet, its front and back page, the back's top edge behind the
front's when the sheet is flipped over its long edge (両面・長辺とじ, as its slug says)."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from conftest import GAME_YAML, REPO, docs_deck_workspace, run
from pdfprobe import texts

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="double-sided-board"></a>')
(DECK,) = re.findall(r"```yaml\n(# data/<slug>/decks/sea-map\.yaml\n.*?)```", FORMAT[START:], re.S)[:1]


def _centre(image: Image.Image, colour: tuple[int, int, int]) -> tuple[float, float]:
    """The centre of the pixels near ``colour``, as fractions of the page's width and height."""
    found = [(x, y) for y in range(image.height) for x in range(image.width)
             if sum(abs(a - b) for a, b in zip(image.getpixel((x, y)), colour)) < 90]
    assert found, colour
    return (sum(x for x, _ in found) / len(found) / image.width, sum(y for _, y in found) / len(found) / image.height)


def test_the_double_sided_board_prints_its_back_behind_its_front_on_one_a3_sheet(tmp_path):
    ws = docs_deck_workspace(tmp_path / "ws", GAME_YAML, "sea-map", DECK, {})
    art = ws / "data" / "test" / "art"
    art.mkdir()
    for name, top in (("map-summer.png", (220, 0, 0)), ("map-winter.png", (0, 0, 220))):
        picture = Image.new("RGB", (800, 560), "white")
        ImageDraw.Draw(picture).rectangle([0, 0, 800, 60], fill=top)  # each side's top edge
        picture.save(art / name)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
    sheet = pdfium.PdfDocument(str(ws / "build" / "test" / "sea-map.pdf"))
    assert len(sheet) == 2 and round(sheet[0].get_width() / 72 * 25.4) == 297  # A3, portrait: the board turned
    assert "両面・長辺とじ" in texts(ws / "build" / "test" / "sea-map.pdf")[0]
    front = sheet[0].render(scale=0.15).to_pil().convert("RGB")
    back = sheet[1].render(scale=0.15).to_pil().convert("RGB")
    (fx, fy), (bx, by) = _centre(front, (220, 0, 0)), _centre(back, (0, 0, 220))
    # each top band along a long side of the sheet (the board turned), the back's on the other side, at the
    # same height: flipped over the long edge, behind the front's (the front's art starts under the title band)
    assert (fx > 0.75 and bx < 0.25) or (fx < 0.25 and bx > 0.75), (fx, bx)
    assert abs(fx - (1 - bx)) < 0.1 and abs(fy - by) < 0.03, ((fx, fy), (bx, by))
