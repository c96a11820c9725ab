"""Issue 22: the change report and the reprint of a one-card edit walk that card's fields, not the
deck's. Operations are counted, nothing is timed: for a deck of N text cards and of 2N, one card's
text edited, the pieces' values are read field by field (``dict.get``) only where a piece's values
differ as a whole (engine/changes.py ``field_edits``: ``told_apart`` and ``edited_alike`` walked
every piece's fields before, twice a build); the change line and the reprint what they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.test_reprint_ops import _built
from pnpgen.engine import reprint
from pnpgen.engine.changes import change_report, edited_alike, snapshot, told_apart


class _Counted(dict):
    """A piece's values whose fields read one by one are counted (a whole compare reads none)."""
    reads = 0

    def get(self, *a: Any) -> Any:
        _Counted.reads += 1
        return super().get(*a)


def _counting(decks: dict[str, Any]) -> dict[str, Any]:
    for deck in decks.values():
        deck["values"] = {label: _Counted(v) for label, v in deck["values"].items()}
    return decks


def _walked(tmp_path: Path, n: int) -> tuple[int, list[str], list]:
    before = _counting(snapshot(_built(tmp_path / str(n), n)))
    result = _built(tmp_path / str(n), n, edited=3)
    now = _counting(snapshot(result))
    _Counted.reads = 0
    matches: dict[str, Any] = {}
    lines, _ = change_report(before, now, matches)
    decks = reprint.deck_reprints(result, before, now, matches)
    return _Counted.reads, lines, [(d.id, d.fronts, d.add, d.pull) for d in decks]


def test_a_one_card_edit_reads_the_fields_of_that_card_alone(tmp_path):
    small, small_lines, small_decks = _walked(tmp_path, 12)
    large, large_lines, large_decks = _walked(tmp_path, 24)
    for n, lines in ((12, small_lines), (24, large_lines)):
        assert lines == [f"cards: {n} → {n} (カード3: text); x.pdf: no sheet to reprint (pieces to pull out only)"], lines
    for decks in (small_decks, large_decks):  # the edited card: one copy to add, its old one to pull out
        ((deck, fronts, add, pull),) = decks
        assert deck == "cards" and add == {"カード3": 1} and sum(pull.values()) == 1, decks
    # the edited card's fields, whatever the deck's size (before: every piece's, 12 → 24 cards twice as many)
    assert 0 < small == large <= 40, (small, large)


def test_the_whole_compare_says_what_the_field_walk_said():
    """``told_apart``'s changed fields and ``edited_alike``'s edits the same with values equal,
    differing in one field, or added and taken out (a translation recorded by one side only)."""
    old = {f"{i}:c": {"title": f"c{i}", "rank": i % 3} for i in range(1, 7)}
    new = {label: dict(v) for label, v in old.items()}
    new["2:c"]["rank"] = 9
    new["5:c"]["title.en"] = "five"
    was = {label: label for label in new}
    assert told_apart(old, new, "en", was)[1]["2:c"] == "c [c2]"  # (rank changed: told by the title, which did not)
    assert edited_alike(was, old, new, lambda f: False) == []
    every = {label: {**v, "back_art": "b.png"} for label, v in old.items()}
    assert edited_alike(was, old, every, lambda f: False) == [("back_art", None, "b.png")]
    assert edited_alike(was, old, every, lambda f: f == "back_art") == []
