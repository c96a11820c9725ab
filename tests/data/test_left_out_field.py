"""A field one piece of a template's deck leaves out (trial48: a unit card's attack forgotten
printed an empty medallion, and check said ok): check and the build warn at the piece's line."""

from __future__ import annotations

from conftest import DECK_YAML, REPO, make_workspace, run

DECK = DECK_YAML.replace("  text: text\n", "  text: text\n  attack: int\n")


def _deck(attacks: list[int | None]) -> str:
    return DECK + "".join(f"  - {{name: 兵{i}, text: 本文{i}" + (f", attack: {a}" if a is not None else "") + "}\n"
                          for i, a in enumerate(attacks, 1))


def test_a_field_one_piece_leaves_out_is_warned_at_its_line(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=_deck([2, 3, None, 4, 5, 6, 1, 2, 3, 4, 5]))
    assert run(root, "check", "--game", "test") == 0
    said = capsys.readouterr()
    out = said.out + said.err
    assert ("data/test/decks/cards.yaml:12:5: deck 'cards' piece 3 (兵3) sets no attack, which the deck's other 10 "
            "pieces set and defaults: does not give, so its template gets none (printed empty) (expected 'attack: …' "
            "on the piece, or attack: in the deck's defaults: for every piece that leaves it out, or 'attack:' with no value "
            "for none on purpose)") in out, out
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert "piece 3 (兵3) sets no attack" in capsys.readouterr().err


def test_a_field_many_pieces_leave_out_or_a_default_gives_is_not_warned(tmp_path, capsys):
    """A field two of twelve pieces leave out (optional), one a default gives, a small deck's one card
    without it (populous's オールマイティ), one written with no value: no warning."""
    ten = [2, 3, 4, 5, 6, 1, 2, 3, 4, 5]
    for i, deck in enumerate([_deck(ten + [None, None]), _deck([2, 3, 4, 5, None]),
                              _deck(ten + [None]).replace("pieces:\n", "defaults: {attack: 0}\npieces:\n"),
                              _deck(ten).replace("本文3, attack: 4", "本文3, attack: ")]):
        root = make_workspace(tmp_path / f"ws{i}", deck=deck)
        assert run(root, "check", "--game", "test") == 0
        said = capsys.readouterr()
        assert "sets no attack" not in said.out + said.err, deck


def test_a_count_in_defaults_is_told_to_go_on_each_piece(tmp_path, capsys):
    """trial73: a memory game's 36 pairs, ``defaults: {count: 2}``, was told "unknown key in defaults
    (expected one of title, art, text, back_art)", as if a count were no key at all: it is each
    piece's own, and the message says where it goes (exit 2, no traceback)."""
    deck = DECK_YAML.replace("pieces:\n", "defaults: {count: 2}\npieces:\n") + "  - {name: 兵1, text: 本文1}\n"
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err == ("pnpgen: error: data/test/decks/cards.yaml:8:12: defaults.count: a count is each piece's own, never "
                   "a default (a piece without one prints 1 copy) (expected 'count: 2' on each piece, as "
                   "'- {…, count: 2}', and no count in defaults:)\n"), err
    for written in ("", "[1]", '"<&>"', "-3", "true"):  # (hostile46: `count:` was told 'count: None' to write)
        (root / "data/test/decks/cards.yaml").write_text(deck.replace("{count: 2}", f"{{count: {written}}}"), encoding="utf-8")
        assert run(root, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert "(expected 'count: 2' on each piece, as '- {…, count: 2}', and no count in defaults:)" in err, err
    page = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    assert "# values for pieces that do not set them (a count too is each piece's own: no default)" in page
