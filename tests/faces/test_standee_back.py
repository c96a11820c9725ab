"""A fold-over standee with a back picture of its own, as docs/data-format.md writes it."""

from __future__ import annotations

import re

import pypdfium2
from PIL import Image

from conftest import REPO, make_workspace, run

BLEED = 3.0


def test_a_standees_back_picture_of_its_own_goes_on_the_far_half_turned_for_the_fold(tmp_path):
    """A designer's trial (trial55): the docs named no standee box, so a back picture of its own
    (a figure seen from behind) had to be found in `pnpgen layout export`. The recipe the docs now
    give prints the front picture under the fold and the back picture on the far half, turned half
    round about the fold, so that folded it reads upright from behind."""
    text = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    assert "`fields: {back_art: image}` and `layout: {extends: standee, boxes:\n{back: {field: back_art}}}`" in text
    deck = ("name: Figures\nfields: {back_art: image}\nlayout: {extends: standee, boxes: {back: {field: back_art}}}\n"
            "pieces:\n  - {title: Knight, art: front.png, back_art: back.png}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    art = root / "data" / "test" / "art"
    art.mkdir()
    for name, mark in (("front", (255, 0, 0)), ("back", (0, 0, 255))):
        picture = Image.new("RGB", (370, 600), "white")
        picture.paste(mark, (0, 0, 80, 80))  # a mark at the picture's top-left corner
        picture.save(art / f"{name}.png")
    assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    dpi = 144
    page = pypdfium2.PdfDocument(str(root / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")

    def marked(colour: tuple[int, int, int]) -> list[tuple[float, float]]:  # trim mm of the mark's pixels
        return [(x / 4, y / 4) for y in range(0, 480) for x in range(-8, 108)
                if image.getpixel((round((BLEED + x / 4) / 25.4 * dpi), round((BLEED + y / 4) / 25.4 * dpi))) == colour]

    red, blue = marked((255, 0, 0)), marked((0, 0, 255))
    assert red and blue and all(y >= 60 for _, y in red) and all(y <= 60 for _, y in blue)
    rx, ry = sum(x for x, _ in red) / len(red), sum(y for _, y in red) / len(red)
    bx, by = sum(x for x, _ in blue) / len(blue), sum(y for _, y in blue) / len(blue)
    assert abs(bx - (25 - rx)) < 0.3 and abs(by - (120 - ry)) < 0.3  # the back's mark where the fold puts the front's
    boxes = re.findall(r"`(\w+)` \((?:a panel|image)", text[text.index("Its boxes, top to bottom"):text.index("`pnpgen layout export standee` writes")])
    assert boxes == ["far_tab", "back", "front", "near_tab"]
