"""docs/data-format.md, "Hex tiles with roads and rivers on chosen edges": the deck, its
spreadsheet and its template build as written, and each road and river reaches the middle of the
edge its number names (1 top right, clockwise), out into the bleed; the other edges stay ground."""

from __future__ import annotations

import math
import re

import pypdfium2 as pdfium

from conftest import REPO, make_workspace, run

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="hex-edges"></a>')
SECTION = FORMAT[START:FORMAT.index("A test builds this example", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
COLOURS = {"green": (58, 143, 75), "indigo": (59, 74, 140), "road": (242, 230, 201), "river": (47, 109, 181)}
GAME = 'title: 六角の国\nplayers: 2-4\npalette: {green: "#3a8f4b", indigo: "#3b4a8c"}\n'  # as game.yaml's example
SCALE = 8  # px a mm
PT = 72 / 25.4


def _near(pixel: tuple[int, ...], name: str) -> bool:
    return all(abs(a - b) <= 6 for a, b in zip(pixel, COLOURS[name]))


def test_roads_and_rivers_reach_the_edges_their_numbers_name(tmp_path, capsys):
    blocks = {lang: body for lang, body in FENCE.findall(SECTION)}
    deck, sheet, template = blocks["yaml"], blocks["csv"], blocks["jinja"]
    ws = make_workspace(tmp_path / "ws", deck="name: x\n", game=GAME)
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    (decks / "land.yaml").write_text(deck, encoding="utf-8")
    (decks / "land.csv").write_text(sheet, encoding="utf-8")
    (ws / "templates" / "test" / "land-front.svg.j2").write_text(template, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    pdf = pdfium.PdfDocument(str(ws / "build" / "test" / "shop" / "land.pdf"))
    assert len(pdf) == 5  # 3 森 and 2 湖, one a page
    edges = {"森": ({1, 4}, "road", "green"), "湖": ({2, 5}, "river", "indigo")}
    for index, (title, (drawn, ink, ground)) in zip((0, 3), edges.items()):
        page = pdf[index]
        image = page.render(scale=SCALE / PT).to_pil().convert("RGB")
        left, top = 3 + (page.get_width() / PT - 6 - 50) / 2, 3 + (page.get_height() / PT - 6 - 50 / math.cos(math.pi / 6)) / 2
        cx, cy = left + 25, top + 25 / math.cos(math.pi / 6)  # the hexagon's centre, mm from the page's top left
        for edge in range(1, 7):
            angle = math.radians(60 * edge - 120)  # edge 1's middle lies up and to the right, 60° from the right
            for reach in (23.5, 26.5):  # inside the trim, and out in the bleed
                x, y = cx + reach * math.cos(angle), cy + reach * math.sin(angle)
                pixel = image.getpixel((round(x * SCALE), round(y * SCALE)))
                assert _near(pixel, ink if edge in drawn else ground), (title, edge, reach, pixel)
