"""Issue 22: a text edit's documents cost in proportion to what changed in them. Operations are
counted, nothing is timed: for a deck of N cards and of 2N, one card's text edited, the pages
written again are as many at either size, the pages copied from the last file where they stood
are held a run at a time (pdf/patch.py ``copy_run``: as many runs at either size, not one a
page), and whether the documents go to workers is decided without walking their pages
(engine/documents.py ``_few_faces_to_draw``). That the documents are those a cold build writes:
tests/pdf/test_patch.py."""

from __future__ import annotations

from pathlib import Path

from conftest import make_workspace, run
from pnpgen.engine import documents
from pnpgen.impose.plan import PagePlan
from pnpgen.pdf import writer
from pnpgen.pdf.objects import ObjectFile

BUILD = ("build", "--game", "test", "--no-rulebook")


def _edited(path: Path, card: int) -> None:
    text = path.read_text(encoding="utf-8")
    old = f"本文カード{card}}}"
    assert old in text
    path.write_text(text.replace(old, f"本文カード{card}改}}", 1), encoding="utf-8")


def _counted_edit(tmp_path: Path, n: int, monkeypatch) -> dict[str, int]:
    """A deck of ``n`` cards built (its documents' layouts recorded), one card's text edited and
    built again over two workers: what that build's documents did, counted."""
    ws = make_workspace(tmp_path / str(n), [f"カード{i}" for i in range(1, n + 1)])
    assert run(ws, *BUILD, "--jobs", "1") == 0
    _edited(ws / "data" / "test" / "decks" / "cards.yaml", n // 2)
    seen = {"held": 0, "held pages": 0, "written pages": 0, "plans walked": 0}
    hold, page, faces, few = ObjectFile.hold, writer._Writer.page, PagePlan.faces, documents._few_faces_to_draw
    deciding = [False]

    def counted_hold(self: ObjectFile, count: int) -> int:
        seen["held"] += 1
        seen["held pages"] += count
        return hold(self, count)

    def counted_page(self, *a):
        seen["written pages"] += 1
        return page(self, *a)

    def counted_faces(self: PagePlan) -> list[str]:
        seen["plans walked"] += deciding[0]
        return faces(self)

    def deciding_few(*a) -> bool:  # (what the decision itself walks)
        deciding[0] = True
        try:
            return few(*a)
        finally:
            deciding[0] = False

    monkeypatch.setattr(ObjectFile, "hold", counted_hold)
    monkeypatch.setattr(writer._Writer, "page", counted_page)
    monkeypatch.setattr(PagePlan, "faces", counted_faces)
    monkeypatch.setattr(documents, "_few_faces_to_draw", deciding_few)
    assert run(ws, *BUILD, "--jobs", "2") == 0
    monkeypatch.undo()
    return seen


def test_a_text_edit_writes_as_many_pages_and_copies_as_many_runs_at_n_and_2n_cards(tmp_path, monkeypatch):
    small = _counted_edit(tmp_path, 20, monkeypatch)
    large = _counted_edit(tmp_path, 40, monkeypatch)
    # the edited card's pages written (its home sheet front in two documents, its shop pages…), at either size
    assert 0 < small["written pages"] == large["written pages"] <= 8
    # the pages that stand where they stood: a run before the edited card's pages and one after
    # them, in each of the three documents written from their last files (the all-in-one file
    # goes on from the home sheets' writer) — one hold a page would be 3N of them
    assert 0 < small["held"] == large["held"] <= 6
    assert large["held pages"] > small["held pages"] > 20
    assert small["plans walked"] == large["plans walked"] == 0
