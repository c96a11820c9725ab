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


def test_an_inch_shop_taking_none_of_the_poker_decks_names_the_size_and_each_deck_file(tmp_path, capsys):
    """Three card-poker decks (63×88 mm) sent to The Game Crafter: the line said '--fit scale'
    and dropped what one deck alone is told — the shop's size and the deck file to write it in."""
    folder = tmp_path / "party"
    folder.mkdir()
    assert run(folder, "new", "party", "--lang", "en", "--kind", "cards", "--kind", "tokens") == 0
    decks = folder / "data" / "party" / "decks"
    cards = (decks / "cards.yaml").read_text(encoding="utf-8")
    (decks / "dares.yaml").write_text(cards.replace("name: Cards", "name: Dares"), encoding="utf-8")
    capsys.readouterr()
    assert run(folder, "export", "--game", "party", "--preset", "thegamecrafter") == 2
    err = capsys.readouterr().err
    # the two decks' one reason said once, for both (twenty decks said it twenty times: 6 KB), a
    # reason a line and an alternative a line (fixes45b: asian-delivery's was one line of 1,873
    # characters, its middle cut out)
    assert err.splitlines() == [
        "pnpgen: error: --preset: The Game Crafter takes none of the decks of 'party':",
        "  decks 'cards', 'dares' are each 63×88 mm; The Game Crafter has no format of that size, the nearest is "
        "poker 63.5×88.9 mm",
        "  deck 'tokens' is a circle token (25×25 mm); The Game Crafter prints rectangular cards of its sizes only, "
        "and --fit does not make a circle piece a card",
        "  (expected --preset thegamecrafter --fit scale --deck cards --deck dares (takes 'cards', 'dares');",
        "   for every deck: --preset doujin-pieces, --preset tabletopsimulator, or pnpgen build's shop/ files (any size, RGB);",
        "   or, with no --fit, the shop's size in the deck files: size: [2.5in, 3.5in] in "
        "data/party/decks/cards.yaml, data/party/decks/dares.yaml)"], err
    assert not (folder / "build" / "party" / "thegamecrafter").exists()
    # one deck given the size: it is exported, and the other's warning names the size and its file
    (decks / "cards.yaml").write_text(cards.replace("# size: [2.5in, 3.5in]", "size: [2.5in, 3.5in]"), encoding="utf-8")
    assert run(folder, "export", "--game", "party", "--preset", "thegamecrafter") == 0
    left = [line for line in capsys.readouterr().err.splitlines() if "left out: deck 'dares'" in line]
    assert len(left) == 1 and left[0].endswith("; or, with no --fit, size: [2.5in, 3.5in] in data/party/decks/dares.yaml")


def test_a_starter_deck_list_is_sized_in_its_card_sheets_deck_file_which_the_export_names(tmp_path, capsys):
    """A starter deck (``from: cards``) sent to DriveThruCards: the error asked for the shop's size in
    the card deck's file *and* the list's, whose ``size:`` is refused (a list prints its cards as
    the deck it lists draws them: trial83). It names the card deck's file alone, and that size
    written there exports both decks at the shop's poker size."""
    import pypdf

    folder = tmp_path / "majo"
    folder.mkdir()
    assert run(folder, "new", "majo", "--kind", "cards") == 0
    decks = folder / "data" / "majo" / "decks"
    (decks / "cards.yaml").write_text(
        "name: 魔女カード\nlayout: card-poker\nunique: footer\npieces:\n"
        "  - {footer: SM-001, title: 星の魔女, text: カードを１枚引く。, count: 2}\n"
        "  - {footer: SM-002, title: 月の使い魔, text: 魔力を１得る。}\n", encoding="utf-8")
    (decks / "starter.yaml").write_text("name: スターター\nfrom: cards\nlist: {SM-002: 3, SM-001: 1}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(folder, "export", "--game", "majo", "--preset", "drivethrucards") == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == ("   or, with no --fit, the shop's size in the deck file: size: [2.5in, 3.5in] in "
                                    "data/majo/decks/cards.yaml)"), err
    assert run(folder, "export", "--game", "majo", "--preset", "drivethrucards", "--deck", "starter") == 2
    assert capsys.readouterr().err.startswith("pnpgen: error: data/majo/decks/cards.yaml: ")  # not starter.yaml
    # the advice followed: both decks at the shop's poker page, 2.75 × 3.75 in with its bleed
    cards = (decks / "cards.yaml").read_text(encoding="utf-8")
    (decks / "cards.yaml").write_text(cards.replace("layout: card-poker\n", "layout: card-poker\nsize: [2.5in, 3.5in]\n"),
                                      encoding="utf-8")
    assert run(folder, "export", "--game", "majo", "--preset", "drivethrucards") == 0
    out = folder / "build" / "majo" / "drivethrucards"
    for name, pages in (("cards.pdf", 6), ("starter.pdf", 8)):
        reader = pypdf.PdfReader(out / name)
        assert len(reader.pages) == pages  # a back and a front a copy
        for page in reader.pages:
            assert [round(float(v), 2) for v in page.mediabox] == [0, 0, 198, 270]
            assert [round(float(v), 2) for v in page.trimbox] == [9, 9, 189, 261]
