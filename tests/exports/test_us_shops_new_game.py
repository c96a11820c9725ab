"""An American designer's game from ``pnpgen new --lang en`` goes to the inch shops (trial19):
its cards deck uses card-poker, 63×88 mm, which The Game Crafter, MakePlayingCards and
DriveThruCards do not print, so the deck file it writes carries their size, commented out,
and that line uncommented is all the export needs."""

from __future__ import annotations

from PIL import Image

from conftest import run


def test_an_english_new_game_says_the_inch_shops_poker_size_and_uncommented_it_exports(tmp_path, capsys):
    folder = tmp_path / "party"
    folder.mkdir()
    assert run(folder, "new", "party", "--lang", "en", "--kind", "cards", "--kind", "tokens") == 0
    decks = folder / "data" / "party" / "decks"
    cards = (decks / "cards.yaml").read_text(encoding="utf-8")
    assert "size: [2.5in, 3.5in]" not in (decks / "tokens.yaml").read_text(encoding="utf-8")  # cards only
    capsys.readouterr()
    # as written (63×88 mm), the shop takes none of the game's cards
    assert run(folder, "export", "--game", "party", "--preset", "thegamecrafter", "--deck", "cards") == 2
    assert "nearest is poker 63.5×88.9 mm" in capsys.readouterr().err
    (decks / "cards.yaml").write_text(cards.replace("# size: [2.5in, 3.5in]", "size: [2.5in, 3.5in]"), encoding="utf-8")
    assert run(folder, "export", "--game", "party", "--preset", "thegamecrafter", "--deck", "cards") == 0
    out = folder / "build" / "party" / "thegamecrafter"
    fronts = sorted(out.glob("cards-*-front.png"))
    assert fronts and all(Image.open(p).size == (825, 1125) for p in fronts)  # TGC's poker, not scaled to fit
    assert "--fit" not in capsys.readouterr().err
    assert run(folder, "build", "--game", "party", "--jobs", "1") == 0  # it builds as before
