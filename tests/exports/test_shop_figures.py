"""The PNG shops' presets against the figures each shop publishes (docs/exports.md, Sources): the
exported faces opened, their pixels, their resolution and their bleed in mm, product by product.
Each figure here is the one docs/exports.md cites, with where it is from; a size no source gives
is not tested against one (the preset says it is unverified on every export)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from conftest import run

MM_PER_INCH = 25.4

# The Game Crafter's product catalogue (its API's /tgc/products, ``size.pixels`` and
# ``size.finished_inches``, as templative-electron's src/shared/componentInfo.js records them):
# PokerDeck, BridgeDeck, MiniDeck, TarotDeck, SquareDeck; 300 dpi, 1/8 in bleed a side.
TGC = {"poker": ((2.5, 3.5), (825, 1125)), "bridge": ((2.25, 3.5), (750, 1125)), "mini": ((1.75, 2.5), (600, 825)),
       "tarot": ((2.75, 4.75), (900, 1500)), "square": ((3.5, 3.5), (1125, 1125))}
# MakePlayingCards: poker 822×1122 px (docs/print-facts.md); tarot 897×1497 px, "36 pixels each
# side based on a 300DPI image" of bleed (its upload FAQ, faq-photo.aspx): 0.12 in, 3.048 mm
MPC = {"poker": ((2.5, 3.5), (822, 1122)), "tarot": ((2.75, 4.75), (897, 1497))}


def _game(tmp_path: Path, sizes: dict[str, tuple[float, float]]) -> Path:
    """An English game from ``pnpgen new`` with a deck of cards per product, at the shop's size."""
    folder = tmp_path / "party"
    folder.mkdir()
    assert run(folder, "new", "party", "--lang", "en", "--kind", "cards") == 0
    decks = folder / "data" / "party" / "decks"
    cards = (decks / "cards.yaml").read_text(encoding="utf-8")
    (decks / "cards.yaml").unlink()
    for name, (w, h) in sizes.items():
        layout = "card-mini" if name == "mini" else "card-poker"  # (card-poker's boxes leave a mini card's text no room)
        (decks / f"{name}.yaml").write_text(cards.replace("# size: [2.5in, 3.5in]", f"size: [{w}in, {h}in]")
                                            .replace("layout: card-poker", f"layout: {layout}\nfields: {{flavour: text}}")
                                            .replace("name: Cards", f"name: {name.title()}"), encoding="utf-8")
    return folder


def _check(out: Path, figures: dict[str, tuple[tuple[float, float], tuple[int, int]]], bleed_mm: float) -> None:
    """Each deck's faces and back at the shop's pixels, 300 dpi, the trim in the middle with
    ``bleed_mm`` a side (±0.05 mm: a pixel is 0.085 mm)."""
    for name, ((w_in, h_in), pixels) in figures.items():
        images = sorted(out.glob(f"{name}-*.png"))
        assert len(images) >= 3, name  # (two fronts, a back)
        for path in images:
            with Image.open(path) as image:
                assert image.size == pixels, path.name
                assert tuple(round(d) for d in image.info["dpi"]) == (300, 300), path.name
                assert image.mode == "RGB"
            width_mm, height_mm = (p / 300 * MM_PER_INCH for p in pixels)
            assert (width_mm - w_in * MM_PER_INCH) / 2 == pytest.approx(bleed_mm, abs=0.05), path.name
            assert (height_mm - h_in * MM_PER_INCH) / 2 == pytest.approx(bleed_mm, abs=0.05), path.name


def test_the_game_crafters_faces_are_its_catalogues_pixels_with_an_eighth_inch_of_bleed(tmp_path):
    folder = _game(tmp_path, {name: size for name, (size, _) in TGC.items()})
    assert run(folder, "export", "--game", "party", "--preset", "thegamecrafter") == 0
    _check(folder / "build" / "party" / "thegamecrafter", TGC, 3.175)


def test_makeplayingcards_faces_are_its_published_pixels_with_36_px_of_bleed(tmp_path):
    folder = _game(tmp_path, {name: size for name, (size, _) in MPC.items()})
    assert run(folder, "export", "--game", "party", "--preset", "makeplayingcards") == 0
    _check(folder / "build" / "party" / "makeplayingcards", MPC, 3.048)


def test_printerstudio_has_no_published_figure_and_says_so_on_its_export(tmp_path, capsys):
    """No figure of PrinterStudio's was found: its preset takes MakePlayingCards' (the same 0.12 in
    at 300 dpi), which its poker-inch faces are, and every export says they are unverified."""
    folder = _game(tmp_path, {"poker": (2.5, 3.5)})
    capsys.readouterr()
    assert run(folder, "export", "--game", "party", "--preset", "printerstudio") == 0
    assert "PrinterStudio: unverified: no published figure" in capsys.readouterr().err
    _check(folder / "build" / "party" / "printerstudio", {"poker": MPC["poker"]}, 3.048)
