"""The preview keeps the pictures it drew within a budget of bytes and its PDFs open within a
count: paging through a game kept every PNG drawn (no bound), and a dropped one is drawn again."""

from __future__ import annotations

from pathlib import Path

from conftest import make_workspace
from pnpgen.data.workspace import Workspace
from pnpgen.serve.held import Budgeted
from pnpgen.serve.preview import Preview


def _pids(preview: Preview) -> list[str]:
    """Every picture the page's panes show, in the order a designer pages through them."""
    state = preview.state
    srcs = [f[side] for d in state.decks for f in d["faces"] for side in ("front", "back") if f[side]]
    srcs += [s["src"] for s in state.sheets]
    return [src.removeprefix("/picture/").removesuffix(".png") for src in srcs]


def _built(tmp_path: Path, **bounds: int) -> Preview:
    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2", "カード3"])
    preview = Preview(Workspace(ws), "test", ws / "build", **bounds)
    assert preview.rebuild().error == ""
    return preview


def test_paging_through_every_picture_keeps_no_more_bytes_than_the_budget_and_a_dropped_one_is_the_same_drawn_again(tmp_path):
    drawn = _built(tmp_path / "all")  # the default budget: every picture of this small game kept
    pids = _pids(drawn)
    assert len(pids) >= 8  # three faces front and back, the sheets
    first = {pid: drawn.png(pid) for pid in pids}
    assert all(png is not None and png[:4] == b"\x89PNG" for png in first.values())
    assert len(drawn.rendered) == len(pids) and drawn.rendered.held == sum(len(p) for p in first.values() if p)

    budget = max(len(p) for p in first.values() if p) * 2  # two of the largest pictures
    preview = _built(tmp_path / "bounded", picture_bytes=budget)
    assert _pids(preview) == pids  # (the same build: the same picture ids)
    for pid in pids * 2:  # paged through twice
        assert preview.png(pid) == first[pid]  # the same bytes, drawn again once dropped
        kept = [k for k in pids if k in preview.rendered]
        assert preview.rendered.held == sum(len(first[k] or b"") for k in kept) <= budget
        assert pid in preview.rendered  # the one just asked for is kept
    assert 1 <= len(preview.rendered) < len(pids)  # the least recently used were dropped
    assert pids[0] not in preview.rendered and pids[-1] in preview.rendered


def test_a_picture_larger_than_the_budget_is_given_but_not_kept_and_the_least_recently_used_goes_first():
    held = Budgeted(10)
    held.put("a", b"12345")
    held.put("b", b"1234")
    assert held.get("a") == b"12345"  # a used since b
    held.put("c", b"12")  # 11 bytes: b, the least recently used, dropped
    assert "b" not in held and held.get("a") == b"12345" and held.get("c") == b"12" and held.held == 7
    held.put("big", b"x" * 11)
    assert "big" not in held and held.held == 7
    held.put("a", b"1")  # drawn again after a save: its bytes counted anew
    assert held.held == 3
    held.keep_only({"c"})
    assert "a" not in held and held.held == 2


def test_the_open_pdfs_are_bounded_the_least_used_closed_and_opened_again_when_asked(tmp_path, monkeypatch):
    import pypdfium2

    preview = _built(tmp_path, open_pdfs=1)
    by_file: dict[Path, str] = {}
    for pid, (path, _, _) in preview.pictures.items():
        by_file.setdefault(path, pid)
    assert len(by_file) >= 2  # the shop file and the home sheets
    closed: list[object] = []
    real_close = pypdfium2.PdfDocument.close
    monkeypatch.setattr(pypdfium2.PdfDocument, "close", lambda self: closed.append(self) or real_close(self))
    one, other = list(by_file.values())[:2]
    assert preview.png(one) is not None and len(preview.documents) == 1 and closed == []
    assert preview.png(other) is not None and len(preview.documents) == 1 and len(closed) == 1
    preview.rendered.keep_only(set())  # (nothing kept: the first drawn again from its file, opened again)
    assert preview.png(one) is not None and len(preview.documents) == 1 and len(closed) == 2


def test_a_pdf_is_closed_after_drawing_its_pages_per_open_and_opened_again_for_the_next(tmp_path, monkeypatch):
    """PDFium keeps what it read of each page drawn until its document closes (0.15 MB a face of
    an illustrated deck): an open PDF draws ``pages_per_open`` pages, then is closed."""
    import pypdfium2

    preview = _built(tmp_path, pages_per_open=2)
    shop = next(path for path, _, _ in preview.pictures.values())
    pids = [pid for pid, (path, _, _) in preview.pictures.items() if path == shop][:4]
    assert len(pids) == 4
    real, opened = pypdfium2.PdfDocument, []
    monkeypatch.setattr(pypdfium2, "PdfDocument", lambda source, *a, **k: opened.append(source) or real(source, *a, **k))
    pngs = [preview.png(pid) for pid in pids]
    assert all(png is not None and png[:4] == b"\x89PNG" for png in pngs) and len(set(pngs)) == 4
    assert len(opened) == 2 and len(preview.documents) == 0  # opened for the first and the third, closed after the fourth


def test_a_file_of_sheets_is_closed_sooner_than_a_file_of_faces(tmp_path, monkeypatch):
    """A sheet page draws a sheet of faces, each of whose pictures PDFium keeps: 200 pages of a
    1,000-card illustrated deck's sheets held 1,800 faces' (serve/held.py SHEETS_PER_OPEN). A
    file of sheets is closed after ``sheets_per_open`` pages, shop/'s file of faces after
    ``pages_per_open``; the pictures the same either way."""
    import pypdfium2

    preview = _built(tmp_path, pages_per_open=100, sheets_per_open=1)
    by_file: dict[Path, list[str]] = {}
    for pid, (path, _, _) in preview.pictures.items():
        by_file.setdefault(path, []).append(pid)
    sheets = next(pids for path, pids in by_file.items() if path.parent.name != "shop" and len(pids) >= 2)
    faces = next(pids for path, pids in by_file.items() if path.parent.name == "shop" and len(pids) >= 2)
    real, opened = pypdfium2.PdfDocument, []
    monkeypatch.setattr(pypdfium2, "PdfDocument", lambda source, *a, **k: opened.append(source) or real(source, *a, **k))
    drawn = [preview.png(pid) for pid in sheets[:2]]
    assert len(opened) == 2 and len(preview.documents) == 0  # opened for each sheet, closed after it
    drawn += [preview.png(pid) for pid in faces[:2]]
    assert len(opened) == 3 and len(preview.documents) == 1  # the faces' file opened once, kept open
    again = _built(tmp_path / "again")  # the default bounds: the same pictures
    assert [again.png(pid) for pid in sheets[:2] + faces[:2]] == drawn
