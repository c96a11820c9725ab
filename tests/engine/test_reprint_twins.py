"""Twins, pieces of a deck that print the same faces (the same fields), in reprint.txt: each line
names its own piece's deck file and line, not the first twin's for both (a leftover of session 48),
and pieces alike in the values that tell them, nameless ones too, are named by their file and line,
which a designer finds, not by ``#3``, their number in the deck, which nothing shows."""

from __future__ import annotations

from conftest import DECK_YAML, make_workspace, run

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")
# lines 9–12: the nameless ones; 13–15 the Goblins (13 and 14 twins)
PIECES = ["{text: hit}", "{text: x}", "{text: hit}", "{text: run}",
          "{name: Goblin, text: hit}", "{name: Goblin, text: hit}", "{name: Goblin, text: run}"]


def _deck(pieces: list[str]) -> str:
    return DECK_YAML + "".join(f"  - {p}\n" for p in pieces)


def _lines(said: str, head: str) -> list[str]:
    """The piece lines under a reprint.txt head (加える, 抜いて捨てる) of the one deck."""
    lines = said.splitlines()
    start = next(n for n, line in enumerate(lines) if line.strip().startswith(head))
    out = []
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        out.append(line.strip())
    return out

def _reprint_after_the_template_edited(tmp_path, pieces) -> str:
    """reprint.txt once the deck of ``pieces`` is built and its front template's text size edited
    (every face drawn anew: every copy to reprint)."""
    ws = make_workspace(tmp_path / "ws", deck=_deck(pieces))
    assert run(ws, *BUILD) == 0
    front = ws / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("size=9", "size=8"), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    return (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")


def test_twins_are_each_named_by_their_own_line_and_nameless_ones_by_their_place(tmp_path):
    said = _reprint_after_the_template_edited(tmp_path, PIECES)
    assert _lines(said, "加える") == [
        "1 × cards.yaml:9［hit］", "1 × #2［x］", "1 × cards.yaml:11［hit］", "1 × #4［run］",
        "1 × Goblin［hit］ (cards.yaml:13)", "1 × Goblin［hit］ (cards.yaml:14)", "1 × Goblin［run］"], said
    assert sorted(_lines(said, "抜いて捨てる")) == sorted(
        f"{line}（古い版）" for line in _lines(said, "加える")), said


def test_a_twins_copy_added_names_that_twin(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=_deck(PIECES))
    assert run(ws, *BUILD) == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    more = [*PIECES[:2], "{text: hit, count: 3}", *PIECES[3:5], "{name: Goblin, text: hit, count: 2}", PIECES[6]]
    deck.write_text(_deck(more), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert _lines(said, "加える") == ["2 × cards.yaml:11［hit］", "1 × Goblin［hit］ (cards.yaml:14)"], said
    # and back: the copies taken out are the same twins'
    deck.write_text(_deck(PIECES), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert sorted(_lines(said, "抜いて捨てる")) == sorted(
        ["2 × cards.yaml:11［hit］（余った分）", "1 × Goblin［hit］ (cards.yaml:14)（余った分）"]), said


def test_twins_nothing_tells_apart_are_each_at_their_own_line(tmp_path):
    twins = ["{name: Goblin, text: hit}", "{name: Orc, text: x}", "{name: Goblin, text: hit}"]
    said = _reprint_after_the_template_edited(tmp_path, twins)
    assert _lines(said, "加える") == ["1 × Goblin (cards.yaml:9)", "1 × Orc", "1 × Goblin (cards.yaml:11)"], said
