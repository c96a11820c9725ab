"""docs/data-format.md, "A deck of playing cards": a trick-taking deck from card-poker, its rank and
suit in both corners (the lower pair turned half round), its suits icons of the designer's own,
and the warning of suit colours a red-green colour-blind player cannot tell apart (trial71)."""

from __future__ import annotations

import re

from conftest import REPO, make_workspace, run
from pdfprobe import glyphs

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index("### A deck of playing cards")
SECTION = FORMAT[START:FORMAT.index("\n### ", START + 5)]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SAID = " ".join(SECTION.split())
GAME = "title: 月見の宴\nplayers: 3-5\nlatin_gap: 0\n"


def _workspace(tmp_path, deck: str):
    ws = make_workspace(tmp_path / "ws", deck=deck, game=GAME)
    (icon,) = [body for lang, body in FENCE.findall(SECTION) if lang == "svg"]
    shape = icon.splitlines()[1]
    icons = ws / "templates" / "test" / "icons"
    icons.mkdir()
    for name in ("dango", "usagi", "tanuki"):  # (the section's circle for each: the shapes are the designer's)
        (icons / f"{name}.svg").write_text(shape + "\n", encoding="utf-8")
    return ws


def test_the_playing_cards_print_their_indices_in_both_corners_and_warn_of_lookalike_suit_colours(tmp_path, capsys):
    (deck,) = [body for _, body in FENCE.findall(SECTION) if body.startswith("# data/<slug>/decks/cards.yaml")]
    ws = _workspace(tmp_path, deck)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    err = capsys.readouterr().err
    told = re.search(r"at the second colour's line: `(.*?) \(…\)`", SAID).group(1)
    told = told.replace("decks/cards.yaml", "data/test/decks/cards.yaml")
    assert told in " ".join(err.split()), err
    line = next(n for n, text in enumerate(deck.splitlines(), 1) if "#3d7a3a" in text)
    assert f"cards.yaml:{line}:" in told
    # the shop file: a page a copy, the trim 3 mm in; the rank 10 top left and, turned, bottom right
    pages = glyphs(ws / "build" / "test" / "shop" / "cards.pdf")
    fronts = pages[::2]
    assert len(fronts) == 5
    tens = [g for g in fronts[0] if g.char in "10"]
    top = [g for g in tens if g.y < 3 + 12]
    bottom = [g for g in tens if g.y > 3 + 88 - 12]
    assert len(top) == 2 and len(bottom) == 2, [(g.char, round(g.x, 1), round(g.y, 1)) for g in tens]
    for g in top + bottom:  # inside the 3 mm safe zone: never cut, never in the bleed
        assert 3 + 3 - 0.5 <= g.x <= 3 + 63 - 3 + 0.5 and 3 + 3 - 0.5 <= g.y <= 3 + 88 - 3 + 0.5, g
    assert min(g.x for g in bottom) > 3 + 63 - 13 and max(g.x for g in top) < 3 + 13
    one, zero = (next(g for g in top if g.char == c) for c in "10")
    assert one.x < zero.x  # read left to right
    one, zero = (next(g for g in bottom if g.char == c) for c in "10")
    assert one.x > zero.x  # turned half round: read from across the table, 1 right of 0
    # the special's rank, a word, in both corners too
    assert sum(g.char == "狸" for g in fronts[2]) >= 3  # the two indices and the title
    # a green apart from the red in lightness too is not warned of
    # (and a 団子 10 renumbered 0 among two 団子: the change report names it by its rank)
    second = '  - {title: 団子, suit: [dango], rank: "9", colour: "#b8322c"}\n'
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck + second, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    renumbered = deck.replace('rank: "10", colour: "#b8322c"', 'rank: "0", colour: "#b8322c"')
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(renumbered.replace("#3d7a3a", "#2f9e6e") + second,
                                                               encoding="utf-8")
    assert "#2f9e6e" in SAID
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    said = capsys.readouterr()
    assert "colour-blind" not in said.out + said.err
    named = re.search(r"`(団子 \[0\]: rank)`, a 団子 10 renumbered 0", SAID).group(1)
    assert f"changed: cards: 6 → 6 ({named}, 兎: colour)" in said.out, said.out


def test_colour_blind_off_in_the_deck_file_quiets_the_warning(tmp_path, capsys):
    """Not said: check names the lookalikes at its own 16 and a build nothing; ``off`` quiets check
    too; a distance out of range stops at its line."""
    (deck,) = [body for _, body in FENCE.findall(SECTION) if body.startswith("# data/<slug>/decks/cards.yaml")]
    assert "`off` in a deck file for a deck whose suits a shape tells apart as well, quieting check too" in SAID
    assert "lint: {colour_blind: 16}" in deck
    ws = _workspace(tmp_path, deck.replace("lint: {colour_blind: 16}", ""))
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = " ".join(capsys.readouterr().out.split())
    tail = re.search(r"the line then ends `(.*?)`", " ".join(SAID.split())).group(1)
    assert "#b8322c (団子) and #3d7a3a (兎)" in out and out.count("colour-blind") == 1 and tail in out, out
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    said = capsys.readouterr()
    assert "colour-blind" not in said.out + said.err
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        deck.replace("lint: {colour_blind: 16}", "lint: {colour_blind: off}"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    assert "colour-blind" not in capsys.readouterr().out
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        deck.replace("lint: {colour_blind: 16}", "lint: {colour_blind: 200}"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr()
    assert "cards.yaml:3:" in out.out + out.err and "1 to 100" in out.out + out.err, out


def test_a_colour_written_short_is_read_as_svg_reads_it():
    """``#b33`` is ``#bb3333``: compared as the red it paints, not passed over."""
    from types import SimpleNamespace

    from pnpgen.data.colourvision import lookalikes

    def piece(colour: str, n: int) -> SimpleNamespace:
        return SimpleNamespace(values={"colour": colour}, count=1, said=f"札{n}", key_of=lambda f: f,
                               where_of=lambda f: f"cards.yaml:{n}")

    deck = SimpleNamespace(id="cards", pieces=[piece("#b33", 1), piece("#3d7a3a", 2)])
    (line,) = lookalikes(deck, ["colour"], {}, 16)
    assert line.startswith("cards.yaml:2: deck 'cards' colour: ") and "#bb3333 (札1) and #3d7a3a (札2)" in line, line
    assert lookalikes(deck, ["colour"], {}, None) == []
