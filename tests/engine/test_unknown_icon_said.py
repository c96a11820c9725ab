"""An unknown icon is said at the card's own line, naming the decks that print it when the deck the
error is found in parks the card (starter decks reading one card sheet by count columns: the first
deck's error named one that prints none, trial74), and ``pnpgen check`` lists the icons known once
under its problems, not on each line (fixes47)."""

from __future__ import annotations

from conftest import make_workspace, run

SHEET = """番号,カード名,効果,ST01,ST02
ST01-001,陽の兵,登場時、カードを１枚引く。,3,0
ST01-002,霧の精霊,{surge}を得る。,0,4
ST01-003,風の子,{gust}と{vp}を得る。,2,0
"""


def _starters(root):
    ws = make_workspace(root, pieces=["カード1"])
    decks = ws / "data" / "test" / "decks"
    (decks / "cards.yaml").unlink()
    (decks / "cards.csv").write_text(SHEET, encoding="utf-8")
    for deck, other in (("st01", "ST02"), ("st02", "ST01")):
        (decks / f"{deck}.yaml").write_text(
            f"name: {deck}\nlayout: card-poker\nfields: {{{other}: int}}\npieces:\n  file: cards.csv\n"
            f"  columns: {{番号: footer, カード名: title, 効果: text, {deck.upper()}: count}}\n", encoding="utf-8")
    return ws


def test_the_build_names_the_decks_printing_a_card_it_finds_parked(tmp_path, capsys):
    ws = _starters(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: data/test/decks/cards.csv:3:3: 効果 (column C): unknown icon {surge} in "
                          "deck 'st01' piece 2 (霧の精霊, data/test/decks/cards.csv:3; parked here (count: 0), "
                          "st02 prints it) front"), err
    assert err.count("\n") == 1 and "{vp}" in err  # one line, the icons known in it


def test_check_lists_the_icons_known_once_under_its_problems(tmp_path, capsys):
    ws = _starters(tmp_path / "ws")
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if line.startswith("  error: ")]
    assert len(errors) == 2, out
    assert "unknown icon {surge}" in errors[0] and "unknown icon {gust}" in errors[1]
    assert all(line.endswith("(expected an icon listed below)") or "(expected an icon listed below) —" in line
               for line in errors), errors
    assert out.count("{vp}") == 1, out  # the list alone
    known = [line for line in out.splitlines() if line.startswith("  icons known: ")]
    assert len(known) == 1 and "{vp}" in known[0] and "{star}" in known[0], out
    assert out.index(errors[1]) < out.index(known[0])


def test_a_fresh_games_unknown_icon_lists_its_own_icons_and_the_built_in_ones_by_name(tmp_path, capsys):
    """In a game ``pnpgen new`` made, the error listed {cargo_h}, {faith} bare: read as another
    game's icons (loop51). They are pnpgen's built-in ones, read from the package (no other
    game's folder is looked at): said so, and the game's own icons first, under their name."""
    root = tmp_path / "ws"
    root.mkdir()
    assert run(root, "new", "fresh") == 0
    deck = root / "data" / "fresh" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("icons: [vp]", "icons: [vp]\n    footer: '{zzbogus}'", 1),
                    encoding="utf-8")
    capsys.readouterr()
    assert run(root, "build", "--game", "fresh", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "unknown icon {zzbogus}" in err and \
        "(expected one of pnpgen's built-in icons, {card}, {cargo_h}, " in err and "this game's" not in err, err
    (root / "templates" / "fresh" / "icons").mkdir(parents=True)
    (root / "templates" / "fresh" / "icons" / "kome.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>', encoding="utf-8")
    assert run(root, "build", "--game", "fresh", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "(expected one of this game's icons, {kome}; pnpgen's built-in icons, {card}, " in err, err
    assert run(root, "check", "--game", "fresh") == 2
    out = capsys.readouterr().out
    assert "(expected one of this game's icons, {kome}; pnpgen's built-in icons, {card}, " in out, out
