"""docs/data-format.md, "Square tiles with edges to match, two-sided, without a template": the
game's palette, the deck and its sheet build as written; each edge of a tile's front is the colour
its row names, inside the trim and out in the bleed, and the back (the tile turned over left to
right) shows the same edges, east and west changing sides, on the ruin ground. (Its deck's
first line names the palette beside it, so tests/test_docs.py's one workspace of every example,
whose game has no such palette, leaves it to this test.)"""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import yaml

from conftest import REPO, make_workspace, run

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="square-edges"></a>')
SECTION = FORMAT[START:FORMAT.index("A test builds this example", START)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SCALE = 8  # px a mm
PT = 72 / 25.4


def _rgb(hex_colour: str) -> tuple[int, ...]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def test_a_tiles_edges_are_its_rows_colours_and_its_back_shows_them_turned_over(tmp_path, capsys):
    blocks = FENCE.findall(SECTION)
    game = next(body for lang, body in blocks if lang == "yaml" and "palette:" in body.splitlines()[1])
    deck = next(body for lang, body in blocks if lang == "yaml" and "decks/land-tiles.yaml" in body)
    palette = {name: _rgb(colour) for name, colour in re.findall(r'(\w+): "(#[0-9a-f]{6})"', game)}
    ws = make_workspace(tmp_path / "ws", deck="name: x\n", game="title: 廃都\nplayers: 2-4\n" + game.splitlines()[1])
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    (decks / "land-tiles.yaml").write_text(deck, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    pdf = pdfium.PdfDocument(str(ws / "build" / "test" / "shop" / "land-tiles-unique.pdf"))
    rows = yaml.safe_load(deck)["pieces"]
    assert len(pdf) == 2 * len(rows)  # each tile's front, then its back
    near = {"n": (20, 1.5), "e": (38.5, 20), "s": (20, 38.5), "w": (1.5, 20)}  # inside the trim, mm
    bleed = {"n": (20, -1.5), "e": (41.5, 20), "s": (20, 41.5), "w": (-1.5, 20)}  # out in the bleed
    for index, row in enumerate(rows):
        title = row["title"]
        front_edges = {"n": row["north"], "e": row["east"], "s": row["south"], "w": row["west"]}
        back_edges = {**front_edges, "e": row["west"], "w": row["east"]}  # turned over left to right
        for page, edges, ground in ((pdf[2 * index], front_edges, "field"), (pdf[2 * index + 1], back_edges, "ruin")):
            image = page.render(scale=SCALE / PT).to_pil().convert("RGB")
            trim = (page.get_width() / PT - 40) / 2  # the trim's inset: the bleed

            def pixel(x: float, y: float, image=image, trim=trim) -> tuple[int, ...]:
                return image.getpixel((round((trim + x) * SCALE), round((trim + y) * SCALE)))

            for side, colour in edges.items():
                for at in (near[side], bleed[side]):
                    got = pixel(*at)
                    assert all(abs(a - b) <= 4 for a, b in zip(got, palette[colour])), (title, side, at, got, colour)
            corner = pixel(4, 4)  # no edge there: the side's ground
            assert all(abs(a - b) <= 4 for a, b in zip(corner, palette[ground])), (title, ground, corner)
