"""Issue 22: a count edit writes again only the home pages whose drawing changed. A backs page's
stamp hashes the backs it prints, not its front's faces, so in a deck whose cards share one back
a count edit moving every later card a slot writes the fronts from that slot on and at most the
last, partly filled backs page — not every backs page behind a moved front (count49: 298 of 446
pages at 1,000 cards, half of them backs). The documents are a cold build's bytes."""

from __future__ import annotations

import re
from pathlib import Path

from pypdf import PdfReader

from conftest import BACK, PICTURE_FRONT, picture_workspace, run
from pnpgen.pdf import writer

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
DOCS = ("cards.pdf", "test-all.pdf", "shop/cards.pdf", "shop/cards-unique.pdf")
CHANGE_FILES = {"reprint.pdf", "reprint.txt"}  # what an edit adds: the sheets to print again, the pieces to pull
SHARED_BACK = BACK.replace('"B" ~ piece.name', '"裏"')
assert SHARED_BACK != BACK


def _workspace(tmp_path: Path, cards: int) -> Path:
    arts = ["a.png", "b.png", "c.png"]
    pieces = "".join(f"  - {{name: 札{i}, art: {arts[i % 3]}}}\n" for i in range(1, cards + 1))
    ws = picture_workspace(tmp_path / "ws", pieces, PICTURE_FRONT,
                           {"a.png": (200, 40, 40), "b.png": (40, 200, 40), "c.png": (40, 40, 200)})
    (ws / "templates" / "test" / "card-back.svg.j2").write_text(SHARED_BACK, encoding="utf-8")
    return ws


def _edit(ws: Path, old: str, new: str) -> None:
    path = ws / "data" / "test" / "decks" / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _stamps(path: Path) -> list[str]:
    """Each page's version stamp's hash (``#`` and seven hex digits)."""
    out = []
    for page in PdfReader(path).pages:
        found = re.findall(r"#[0-9a-f]{7}", page.extract_text())
        assert len(found) == 1, found
        out.append(found[0])
    return out


def test_a_count_edit_writes_the_moved_fronts_and_no_unchanged_backs_page(tmp_path, monkeypatch):
    ws = _workspace(tmp_path, 40)  # poker cards 9 a sheet: 5 sheets, the last holding 4
    assert run(ws, *BUILD) == 0
    written: list[tuple[str, str]] = []  # (document, side) of each page the writers draw
    planned, page = writer.plan, writer._Writer.page

    def planning(w, pages, last, path):
        w.doc_for_test = Path(path).as_posix().split("/build/test/")[-1]
        return planned(w, pages, last, path)

    def paging(self, plan, parent):
        written.append((getattr(self, "doc_for_test", "?"), plan.side))
        return page(self, plan, parent)

    monkeypatch.setattr(writer, "plan", planning)
    monkeypatch.setattr(writer._Writer, "page", paging)
    home = ws / "build" / "test" / "cards.pdf"
    # (old, new, the sheet of the edited card)
    steps = [("{name: 札12,", "{name: 札12, count: 2,", 2),  # raised: cards from sheet 2 on a slot later
             ("{name: 札12, count: 2,", "{name: 札12,", 2),  # and back
             ("{name: 札30,", "{name: 札30, count: 0,", 4),  # a card gone
             ("{name: 札5,", "{name: 札5, count: 6,", 1)]  # five more: the last sheet 8 cards
    for n, (old, new, sheet) in enumerate(steps):
        before = PdfReader(home)
        backs_before = [before.pages[k].get_contents().get_data() for k in range(1, len(before.pages), 2)]
        written.clear()
        _edit(ws, old, new)
        assert run(ws, *BUILD) == 0
        on_home = [side for doc, side in written if doc == "cards.pdf"]
        # the fronts from the edited card's sheet on, and the last backs page only (its cards' number changed)
        assert on_home.count("front") == 5 - sheet + 1, (n, on_home)
        assert on_home.count("back") == 1, (n, on_home)
        after = PdfReader(home)
        assert len(after.pages) == 10
        backs = [after.pages[k].get_contents().get_data() for k in range(1, len(after.pages), 2)]
        assert backs[:4] == backs_before[:4], n  # (the full backs pages: the same drawing, the same stamp)
        stamps = _stamps(home)
        fronts, back_stamps = stamps[0::2], stamps[1::2]
        # a full backs page's stamp is its backs' (the same on each); a fronts page's the whole sheet's
        assert len(set(back_stamps[:4])) == 1 and back_stamps[4] != back_stamps[0], (n, stamps)
        assert len(set(fronts)) == 5 and not set(fronts) & set(back_stamps), (n, stamps)
        assert all("裏" in after.pages[k].extract_text() for k in range(1, 10, 2))
        monkeypatch.setenv("PNPGEN_CACHE", "off")
        assert run(ws, *BUILD, "--out", str(tmp_path / f"cold{n}")) == 0
        monkeypatch.delenv("PNPGEN_CACHE")
        built, cold = _files(ws / "build" / "test"), _files(tmp_path / f"cold{n}" / "test")
        assert set(DOCS) <= set(cold) and set(built) - set(cold) <= CHANGE_FILES, (n, sorted(built), sorted(cold))
        for name in cold:  # every file a cold build writes, but the record of what changed (none there)
            if name != "manifest.json":
                assert built[name] == cold[name], (n, name)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
