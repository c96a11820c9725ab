"""Issue 22: the change report and the reprint of a one-card edit walk that card's fields, not the
deck's. Operations are counted, nothing is timed: for a deck of N text cards and of 2N, one card's
text edited, the pieces' values are read field by field (``dict.get``) only where a piece's values
differ as a whole (engine/changes.py ``field_edits``: ``told_apart`` and ``edited_alike`` walked
every piece's fields before, twice a build), and its copies counted (``Counter``) only where they
differ (engine/piecematch.py ``copies_only``); the change line and the reprint what they were."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from engine.test_reprint_ops import _built
from pnpgen.engine import piecematch, reprint
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


class _Made(Counter):
    """A count of copies, its making counted (engine/piecematch.py ``copies_only``)."""
    made = 0

    def __init__(self, *a: Any, **k: Any) -> None:
        _Made.made += 1
        super().__init__(*a, **k)


def _walked(tmp_path: Path, n: int, monkeypatch) -> tuple[int, list[str], list]:
    monkeypatch.setattr(piecematch, "Counter", _Made)
    before = _counting(snapshot(_built(tmp_path / str(n), n)))
    result = _built(tmp_path / str(n), n, edited=3)
    now = _counting(snapshot(result))
    _Counted.reads = _Made.made = 0
    matches: dict[str, Any] = {}
    lines, _ = change_report(before, now, matches)
    decks = reprint.deck_reprints(result, before, now, matches)
    monkeypatch.undo()
    return _Counted.reads + _Made.made, lines, [(d.id, d.fronts, d.add, d.pull) for d in decks]


def test_a_one_card_edit_reads_the_fields_of_that_card_alone(tmp_path, monkeypatch):
    small, small_lines, small_decks = _walked(tmp_path, 12, monkeypatch)
    large, large_lines, large_decks = _walked(tmp_path, 24, monkeypatch)
    for n, lines in ((12, small_lines), (24, large_lines)):
        assert lines == [f"cards: {n} → {n} (カード3: text); x.pdf: no sheet to reprint (pieces to pull out only)"], lines
    for decks in (small_decks, large_decks):  # the edited card: one copy to add, its old one to pull out
        ((deck, fronts, add, pull),) = decks
        assert deck == "cards" and add == {"カード3": 1} and sum(pull.values()) == 1, decks
    # the edited card's fields read and its copies counted, whatever the deck's size (before: every
    # piece's fields, 152 reads at 12 cards and 296 at 24; each piece's copies a Counter a side)
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


BASE = [("カード1", "本文1", 1), ("カード2", "本文2", 2), ("カード3", "本文3", 1), ("カード4", "本文4", 1),
        ("カード5", "本文5", 1), ("兵", "一", 1), ("兵", "二", 1), ("兵", "三", 2)]
EDITS: dict[str, list[tuple[str, str, int]]] = {
    "text": [(n, t + "改" if n == "カード3" else t, c) for n, t, c in BASE],
    "count": [(n, t, 3 if n == "カード2" else c) for n, t, c in BASE],
    "rename": [("新名" if n == "カード4" else n, t, c) for n, t, c in BASE],
    "add": [*BASE[:2], ("追加", "新", 2), *BASE[2:]],
    "remove": [p for p in BASE if p[0] != "カード1"],
    "twin": [(n, "ニ" if t == "二" else t, c) for n, t, c in BASE],
    "every": [(n, t + "。", c) for n, t, c in BASE],
}
SAID = {  # what the session's start (the field walk) said of each edit: its change line, the copies to add and pull out
    'text': (['cards: 10 → 10 (カード3: text); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [('カード3', 1)], [('カード3（古い版）', 1)])]),
    'count': (['cards: 10 → 11 (+1 カード2); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [('カード2', 1)], [])]),
    'rename': (['cards: 10 → 10 (新名: name); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [('新名', 1)], [('カード4（古い版）', 1)])]),
    'add': (['cards: 10 → 12 (+2 追加 (new)); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [('追加', 2)], [])]),
    'remove': (['cards: 10 → 9 (-1 カード1 (removed)); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [], [('カード1（削除）', 1)])]),
    'twin': (['cards: 10 → 10 (兵 [ニ]: text); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [('兵［ニ］', 1)], [('兵［二］（古い版）', 1)])]),
    'every': (['cards: 10 → 10 (カード1: text, カード2: text, カード3: text, カード4: text, カード5: text, 兵 [一。]: text, 兵 [二。]: text, 兵 [三。]: text); x.pdf: no sheet to reprint (pieces to pull out only)'], [('cards', [('カード1', 1), ('カード2', 2), ('カード3', 1), ('カード4', 1), ('カード5', 1), ('兵［一。］', 1), ('兵［三。］', 2), ('兵［二。］', 1)], [('カード1（古い版）', 1), ('カード2（古い版）', 2), ('カード3（古い版）', 1), ('カード4（古い版）', 1), ('カード5（古い版）', 1), ('兵［一］（古い版）', 1), ('兵［三］（古い版）', 2), ('兵［二］（古い版）', 1)])]),
}


def _deck(pieces: list[tuple[str, str, int]]) -> str:
    from conftest import DECK_YAML
    return DECK_YAML + "".join(f"  - {{name: {n}, text: {t}, count: {c}}}\n" for n, t, c in pieces)


def test_each_kind_of_edit_is_said_as_the_field_walk_said_it(tmp_path):
    """Text, count, rename, add, remove, a twin's text and every card's text: the change line and
    the reprint's copies as the session's start gave them (a deck of ten copies, three 兵 told by text)."""
    from types import SimpleNamespace

    from conftest import make_workspace
    from pnpgen.data.workspace import Workspace
    from pnpgen.engine.facekeys import load_and_render
    from pnpgen.engine.game import BuildResult
    from pnpgen.engine.options import BuildOptions

    root = make_workspace(tmp_path / "w", deck=_deck(BASE))

    def built() -> BuildResult:
        rendered = load_and_render(Workspace(root), "test", BuildOptions())
        result = BuildResult(rendered.game, rendered=rendered)
        result.records = [SimpleNamespace(id=df.deck.id, name=df.deck.name, count=df.deck.count, sheets=1, files=["x.pdf"])
                          for df in rendered.decks]  # type: ignore[misc]
        return result
    before = snapshot(built())
    said = {}
    for kind, pieces in EDITS.items():
        (root / "data" / "test" / "decks" / "cards.yaml").write_text(_deck(pieces), encoding="utf-8")
        result = built()
        now = snapshot(result)
        matches: dict[str, Any] = {}
        lines, _ = change_report(before, now, matches)
        decks = reprint.deck_reprints(result, before, now, matches)
        said[kind] = (lines, [(d.id, sorted(d.add.items()), sorted(d.pull.items())) for d in decks])
    assert said == SAID
