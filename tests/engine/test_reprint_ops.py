"""Issue 22: the reprint files of an edit cost in proportion to the deck once, not once per use.
Operations are counted, nothing is timed: for a deck of N cards and of 2N, one card's text edited,
``deck_reprints`` reads each piece's label once, takes each pair's pictures' hash from the build's
snapshot (engine/changes.py ``snapshot``), and names only the copies it adds and pulls out."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from conftest import make_workspace
from pnpgen.data.model import Piece
from pnpgen.data.workspace import Workspace
from pnpgen.engine import reprint
from pnpgen.engine.changes import snapshot
from pnpgen.engine.facekeys import load_and_render
from pnpgen.engine.game import BuildResult
from pnpgen.engine.options import BuildOptions


def _built(root: Path, n: int, edited: int | None = None) -> BuildResult:
    """What deck_reprints reads of a build of ``n`` text cards (``edited``: that one's text changed)."""
    names = [f"カード{i}" for i in range(1, n + 1)]
    if not root.exists():
        root.mkdir()
        make_workspace(root, names)
    if edited is not None:
        deck = root / "data" / "test" / "decks" / "cards.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace(f"本文カード{edited}}}", f"本文カード{edited}改}}"),
                        encoding="utf-8")
    rendered = load_and_render(Workspace(root), "test", BuildOptions())
    result = BuildResult(rendered.game, rendered=rendered)
    result.records = [SimpleNamespace(id=df.deck.id, name=df.deck.name, count=df.deck.count, sheets=1, files=["x.pdf"])
                      for df in rendered.decks]  # type: ignore[misc]
    return result


def _counted(tmp_path: Path, n: int, monkeypatch) -> tuple[dict[str, int], list]:
    before = snapshot(_built(tmp_path / str(n), n))
    result = _built(tmp_path / str(n), n, edited=3)
    now = snapshot(result)
    seen = {"labels": 0, "art_tag": 0, "named": 0}
    label, art_tag, numbered_name = Piece.label, reprint.art_tag, reprint.numbered_name

    def counted_label(self: Piece) -> str:
        seen["labels"] += 1
        return label.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(Piece, "label", property(counted_label))
    monkeypatch.setattr(reprint, "art_tag", lambda *a: seen.__setitem__("art_tag", seen["art_tag"] + 1) or art_tag(*a))
    monkeypatch.setattr(reprint, "numbered_name",
                        lambda *a: seen.__setitem__("named", seen["named"] + 1) or numbered_name(*a))
    decks = reprint.deck_reprints(result, before, now)
    monkeypatch.undo()
    return seen, [(d.id, d.fronts, d.add, d.pull) for d in decks]


def test_an_edit_reads_each_label_once_and_names_only_the_copies_it_reprints(tmp_path, monkeypatch):
    small, small_decks = _counted(tmp_path, 12, monkeypatch)
    large, large_decks = _counted(tmp_path, 24, monkeypatch)
    for decks in (small_decks, large_decks):  # the edited card: one copy to add, its old one to pull out
        ((deck, fronts, add, pull),) = decks
        assert deck == "cards" and len(fronts) == 1 and add == {"カード3": 1} and sum(pull.values()) == 1, decks
    assert (small["labels"], large["labels"]) == (12, 24)  # each piece's label once (five times a piece before)
    assert small["art_tag"] == large["art_tag"] == 0  # each pair's pictures' hash read from the snapshot
    assert small["named"] == large["named"] <= 2  # the copy added and the one pulled out, whatever the deck's size


def test_the_reprint_takes_the_change_reports_match_of_the_pieces(tmp_path, monkeypatch):
    """An edit matches each deck's pieces once (``matched``, ``copies_only``), for the change
    report and the reprint files both (each matched them again: docs/speed.md runs47); the
    reprint the same as when it matches them itself."""
    from pnpgen.engine import changes, piecematch

    before = snapshot(_built(tmp_path / "12", 12))
    result = _built(tmp_path / "12", 12, edited=3)
    now = snapshot(result)
    alone = [(d.id, d.fronts, d.add, d.pull) for d in reprint.deck_reprints(result, before, now)]
    calls = {"matched": 0, "copies_only": 0}
    for name in calls:
        counted = getattr(piecematch, name)

        def count(*a, name=name, counted=counted):
            calls[name] += 1
            return counted(*a)
        monkeypatch.setattr(piecematch, name, count)
        monkeypatch.setattr(reprint, name, count)
    matches: dict = {}
    lines, _ = changes.change_report(before, now, matches)
    shared = [(d.id, d.fronts, d.add, d.pull) for d in reprint.deck_reprints(result, before, now, matches)]
    assert calls == {"matched": 1, "copies_only": 1}, calls  # (2 each with the reprint matching again)
    assert lines and shared == alone and alone[0][2] == {"カード3": 1}
