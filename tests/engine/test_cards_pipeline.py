"""Issue 2: a tiny deck through the whole pipeline, checked in the PDFs in millimetres."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import child_env, make_workspace, run
from pdfprobe import Rect, boxes_mm, clip_rects, font_program, page_fonts, reader, stroked_lines, text_positions, texts
from pnpgen.impose.grid import SheetOptions, cut_marks, layout_grid

A4 = (210.0, 297.0)
MARGIN = 5.0


def build(ws: Path, *args: str) -> Path:
    assert run(ws, "build", "--game", "test", *args) == 0
    return ws / "build" / "test"


@pytest.fixture(scope="module")
def default(tmp_path_factory) -> Path:
    """The tiny workspace built once with every option at its default, for the tests that only
    read what it made."""
    return build(make_workspace(tmp_path_factory.mktemp("default") / "ws", draft=True))


def test_shop_pages_boxes_and_text(default):
    out = default
    pdf = reader(out / "shop" / "cards.pdf")
    assert len(pdf.pages) == 2 * 11  # a front and a back for every card
    for _i, page in enumerate(pdf.pages):
        b = boxes_mm(page)
        assert b["mediabox"] == pytest.approx((0, 0, 69, 94), abs=0.01)
        assert b["bleedbox"] == pytest.approx((0, 0, 69, 94), abs=0.01)
        assert b["trimbox"] == pytest.approx((3, 3, 66, 91), abs=0.01)
    pages = texts(out / "shop" / "cards.pdf")
    fronts, backs = pages[0::2], pages[1::2]
    for n in range(1, 12):
        assert f"カード{n}" in fronts[n - 1]
        assert f"Bカード{n}" in backs[n - 1]


def test_fonts_embedded_and_no_stray_helvetica(default):
    out = default
    for name in ("cards.pdf", "shop/cards.pdf", "test-all.pdf"):
        pdf = reader(out / name)
        shown = set()
        for page in pdf.pages:
            for font in page_fonts(page).values():  # the page's own and its faces' fonts
                base = str(font["/BaseFont"])
                shown.add(base.split("+")[-1])
                assert "Helvetica" not in base and "Times" not in base, base
                desc = font_program(font)
                assert desc is not None and "/FontFile2" in desc, f"{base} not embedded"
                assert base.split("+")[0].isupper() and "+" in base, f"{base} not subset"
        assert shown, f"{name}: no font found"


def test_home_sheets_inside_printable_area_and_marks_clear(default):
    out = default
    pdf = reader(out / "cards.pdf")
    assert len(pdf.pages) == 4  # 11 cards, 9 per sheet: two fronts pages, each with its backs page
    printable = Rect(MARGIN, MARGIN, A4[0] - MARGIN, A4[1] - MARGIN)
    for page in pdf.pages:
        assert boxes_mm(page)["mediabox"] == pytest.approx((0, 0, *A4), abs=0.01)
        pieces = clip_rects(pdf, page)
        assert pieces, "no pieces found"
        marks = stroked_lines(pdf, page)
        assert marks, "no cut marks found"
        for p in pieces:
            assert p.inside(printable), p
        for x1, y1, x2, y2 in marks:
            mark = Rect(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
            assert mark.inside(printable), mark
            assert not any(mark.overlaps(p) for p in pieces), f"mark {mark} touches a piece"


def _centres(page, prefix: str) -> dict[str, float]:
    return {t[len(prefix):]: x for t, x, _ in text_positions(page) if t.startswith(prefix)}


def test_duplex_long_edge_back_sits_behind_front(default):
    out = default
    pdf = reader(out / "cards.pdf")
    layout = layout_grid(63, 88, SheetOptions())
    front = {t: (x, y) for t, x, y in text_positions(pdf.pages[0]) if t.startswith("カード")}
    back = {t[1:]: (x, y) for t, x, y in text_positions(pdf.pages[1]) if t.startswith("Bカード")}
    assert len(front) == 9 and set(back) == set(front)
    for name, (fx, fy) in front.items():
        col = next(c for c in range(layout.cols) if layout.slot(c, 0).x <= fx <= layout.slot(c, 0).x + 63)
        row = next(r for r in range(layout.rows) if layout.slot(0, r).y <= fy <= layout.slot(0, r).y + 88)
        bx, by = back[name]
        mirrored = layout.slot(layout.cols - 1 - col, row)
        assert mirrored.x <= bx <= mirrored.x + 63 and mirrored.y <= by <= mirrored.y + 88
    fronts_clip = sorted((r.x0, r.y0) for r in clip_rects(pdf, pdf.pages[0]))
    backs_clip = sorted((round(A4[0] - r.x1, 3), r.y0) for r in clip_rects(pdf, pdf.pages[1]))
    assert len(backs_clip) == len(fronts_clip) == 9
    for b, f in zip(backs_clip, fronts_clip):
        assert b == pytest.approx(f, abs=0.01)


def test_duplex_short_edge_mirrors_rows(workspace):
    out = build(workspace, "--duplex", "short")
    layout = layout_grid(63, 88, SheetOptions())
    pdf = reader(out / "cards.pdf")
    first_front = [t for t in text_positions(pdf.pages[0]) if t[0] == "カード1"][0]
    first_back = [t for t in text_positions(pdf.pages[1]) if t[0] == "Bカード1"][0]
    bottom = layout.slot(0, layout.rows - 1)
    assert first_front[1] < layout.slot(1, 0).x
    assert bottom.y <= first_back[2] <= bottom.y + 88 and first_back[1] < layout.slot(1, 0).x


def test_layout_geometry_in_mm():
    opts = SheetOptions()
    layout = layout_grid(63, 88, opts)
    assert (layout.cols, layout.rows) == (3, 3)  # nine poker cards on A4, with a reduced bleed
    assert 0 < layout.sheet_bleed_mm < 3
    for s in layout.slots:
        assert s.x - layout.sheet_bleed_mm >= MARGIN + opts.mark_room_mm - 1e-9
        assert s.x + s.w + layout.sheet_bleed_mm <= A4[0] - MARGIN - opts.mark_room_mm + 1e-9
    for s in layout.slots:
        back = layout.back_slot(s, "long")
        assert back.x == pytest.approx(A4[0] - s.x - s.w, abs=1e-6)
        assert back.y == pytest.approx(s.y)
    double = layout_grid(126, 88, opts)
    assert double.per_sheet == 4 and double.rotated  # turning 126×88 fits four instead of three
    assert len(cut_marks(layout, opts)) > len(cut_marks(layout, SheetOptions(marks="western")))
    assert cut_marks(layout, SheetOptions(marks="none")) == []


def test_letter_and_a3_paper(workspace):
    out = build(workspace, "--paper", "letter", "--marks", "western")
    page = reader(out / "cards.pdf").pages[0]
    assert boxes_mm(page)["mediabox"] == pytest.approx((0, 0, 215.9, 279.4), abs=0.01)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["paper"] == "letter" and manifest["marks"] == "western"
    out = build(workspace, "--paper", "a3")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["decks"][0]["pieces_per_sheet"] > 9


def test_manifest(default):
    out = default
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert (m["game"], m["title"], m["draft"]) == ("test", "テストゲーム", 3)
    deck = m["decks"][0]
    assert deck["id"] == "cards" and deck["kind"] == "card" and deck["format"] == "poker"
    assert deck["trim_mm"] == [63, 88] and deck["bleed_mm"] == 3
    assert (deck["count"], deck["unique"], deck["pieces_per_sheet"], deck["pages"]) == (11, 11, 9, 4)
    assert deck["files"] == ["cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf"]
    assert m["warnings"] == []
    assert len(reader(out / "test-all.pdf").pages) == 4 + 1  # the sheets, then the bill of materials


def test_counts_expand(tmp_path):
    from conftest import DECK_YAML, make_workspace

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 祝福, count: 16}\n  - {name: 啓示}\n")
    out = build(ws)
    assert len(reader(out / "shop" / "cards.pdf").pages) == 2 * 17
    m = json.loads((out / "manifest.json").read_text())
    assert (m["decks"][0]["count"], m["decks"][0]["unique"]) == (17, 2)


def test_deterministic_bytes(workspace, tmp_path):
    first = build(workspace)
    saved = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    for p in first.rglob("*.pdf"):
        p.unlink()
    second = build(workspace)
    again = {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}
    assert saved == again


def test_yaml_text_is_data_not_markup(tmp_path):
    from conftest import DECK_YAML, make_workspace

    deck = DECK_YAML + '  - {name: "A<B&C", text: "{{ 7 * 7 }} <tspan>x</tspan> {% if 1 %}"}\n'
    ws = make_workspace(tmp_path / "ws", deck=deck)
    out = build(ws)
    text = "".join(reader(out / "shop" / "cards.pdf").pages[0].extract_text().split())
    assert "A<B&C" in text
    assert "{{7*7}}" in text and "49" not in text
    assert "<tspan>x</tspan>{%if1%}" in text


def test_deterministic_across_processes(workspace, tmp_path):
    """Same bytes from a run in another process with another hash seed (no set or dict order
    leaks): this process builds once, a fresh one again. Each record in ``.cache/`` is stamped
    with pnpgen's own files (``fingerprint.code()``, kept for the life of a process): a source
    file edited while the suite runs (a developer at work) gave this process's stale stamp and
    the child's new one, and nothing else differed. So the stamp is worked out afresh before the
    pair and checked after it, and a pair with pnpgen edited in between is built again."""
    import os
    import subprocess
    import sys

    from pnpgen.engine import fingerprint

    for _ in range(3):
        fingerprint.code.cache_clear()
        stamp = fingerprint.code()
        outs = []
        for n in range(2):
            out = tmp_path / f"out{n}"
            shutil.rmtree(out, ignore_errors=True)
            if n == 0:
                assert run(workspace, "build", "--game", "test", "--out", str(out)) == 0
            else:
                seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
                subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "--out", str(out)],
                               cwd=workspace, env=child_env(PYTHONHASHSEED=seed),
                               check=True, capture_output=True)
            # every file but the history, which records when each version was built, and the table
            # of files' hashes by their stamps (inodes and times)
            outs.append({p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()
                         and ".history" not in p.parts and "hashes" not in p.relative_to(out).parts[:2]})
        fingerprint.code.cache_clear()
        if fingerprint.code() == stamp:
            break
    assert outs[0] == outs[1] and len(outs[0]) >= 6


def test_rulebook_built_beside_sheets_and_skipped_without_draft(default, tmp_path, capsys):
    workspace = Path(shutil.copytree(default.parents[1], tmp_path / "ws", symlinks=True))  # its first build made once
    out = workspace / "build" / "test"
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(m["rulebook"]["files"]) == ["proof.txt", "rulebook-booklet.pdf", "rulebook.pdf"]
    assert (out / "rulebook.pdf").is_file() and "rulebook.pdf" in m["files"]
    (workspace / "data" / "test" / "draft.txt").unlink()
    capsys.readouterr()
    # a draft that made rulebook.pdf and went missing is a mistake: the rulebook is kept
    assert run(workspace, "build", "--game", "test") == 2
    assert "rulebook.pdf" in capsys.readouterr().err and (out / "rulebook.pdf").is_file()
    book = (out / "rulebook.pdf").read_bytes()
    out = build(workspace, "--no-rulebook")  # cards still build when the rulebook is left out on purpose
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    # ... and the last rulebook stays, named as kept: leaving it out is no reason to delete it
    assert m["rulebook"] == {"kept": ["proof.txt", "rulebook-booklet.pdf", "rulebook.pdf"]}
    assert (out / "rulebook.pdf").read_bytes() == book and "rulebook.pdf" in m["files"]
    out = build(workspace, "--no-rulebook", "--bleed", "2mm")  # kept again by a build that changed the sheets
    assert (out / "rulebook.pdf").read_bytes() == book
    (out.parent).rename(out.parent.parent / "old-build")  # a game that never had a draft: a warning
    out = build(workspace)
    m = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "rulebook" not in m and any("no draft text" in w for w in m["warnings"])
    assert "no draft text" in capsys.readouterr().err


def test_unique_faces_file_and_order_csv_add_up_to_the_deck(built):
    """asian-delivery's business cards: each distinct face once (then its back), its name and
    quantity as the page label; shop/order.csv lists the same and sums to the deck's count."""
    import csv
    import io
    import json

    game = built / "asian-delivery"
    deck = next(d for d in json.loads((game / "manifest.json").read_text(encoding="utf-8"))["decks"]
                if d["id"] == "business")
    reader = PdfReader(game / "shop" / "business-unique.pdf")
    rows = [r for r in csv.DictReader(io.StringIO((game / "shop" / "order.csv").read_text(encoding="utf-8-sig")))
            if r["deck"] == "business"]
    assert len(reader.pages) == 2 * len(rows)  # every face has its back
    labels = reader.page_labels
    fronts = [lab for lab in labels if not lab.endswith("（裏）")]
    assert sum(int(lab.rsplit("×", 1)[1]) for lab in fronts) == deck["count"]
    assert sum(int(r["quantity"]) for r in rows) == deck["count"]
    for r in rows:
        assert labels[int(r["page"]) - 1] == f"{r['name']} ×{r['quantity']}"
        assert labels[int(r["page"])] == f"{r['name']} ×{r['quantity']}（裏）"
