"""The contact sheet's labels are set in the edition's own face (trial58): an English game's were
set in BIZ UDP Gothic, whose em dash vanishes at the labels' 13 px, so a sheet titled
``Player Sheet — Red`` was labelled ``Player Sheet   Red``."""

from __future__ import annotations

from PIL import Image

from conftest import run
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.exports import contact
from pnpgen.exports.export import _contact_font

TOKENS = """name: Seals
layout: token-round
pieces:
  - {title: "Red — Blue", value: "1", count: 2}
"""


def _label_gaps(sheet: Image.Image) -> list[int]:
    """The runs of blank columns inside the first thumbnail's label (the ink's first to last column)."""
    top = 44 + contact.PAD + contact.THUMB[1] + 4
    band = sheet.convert("L").crop((0, top, contact.THUMB[0] + 2 * contact.PAD, top + 18))
    inked = [any(band.getpixel((x, y)) < 140 for y in range(band.height)) for x in range(band.width)]
    first, last = inked.index(True), len(inked) - 1 - inked[::-1].index(True)
    gaps, run_ = [], 0
    for x in range(first, last + 1):
        run_ = 0 if inked[x] else run_ + 1
        gaps.append(run_)
    return gaps


def test_an_english_games_contact_sheet_prints_the_em_dash_of_a_title(tmp_path):
    folder = tmp_path / "party"
    folder.mkdir()
    assert run(folder, "new", "party", "--lang", "en", "--kind", "tokens") == 0
    (folder / "data" / "party" / "decks" / "tokens.yaml").write_text(TOKENS, encoding="utf-8")
    assert run(folder, "export", "--game", "party", "--preset", "tabletopsimulator") == 0
    sheet = Image.open(folder / "build" / "party" / "tabletopsimulator" / "party-contact.png")
    # "Red — Blue × 2": word spaces of some 3 px; the vanished dash left a gap of 17 px
    assert max(_label_gaps(sheet)) < 8, _label_gaps(sheet)
    game = load_game(Workspace(folder), "party")
    assert _contact_font(game, ["Red — Blue"]) == "NotoSans-Regular"
    # a label the edition's face cannot print (a Japanese name kept in an English game) keeps BIZ UD
    assert _contact_font(game, ["Red — 赤"]) == game.fonts["gothic"] != "NotoSans-Regular"
