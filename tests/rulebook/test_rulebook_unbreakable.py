"""A run JLREQ allows no break in (a long ……, ーーーー, 。。。) ran off the A5 page's line; it is
broken at the line's edge as the last resort, and the book's proofing notes name its draft line."""

from __future__ import annotations

from pathlib import Path

from conftest import DRAFT, make_workspace
from pdfprobe import glyphs as pdf_glyphs
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook
from pnpgen.rulebook.paralines import set_lines

RUNS = ("それから" + "…" * 60 + "待つ。", "ゴー" + "ー" * 50 + "ル！", "終わり" + "。" * 45)
PAGE_W, MARGIN = 148.0, 15.0  # A5, the book's outer and inner margins (mm)


def test_a_run_jlreq_cannot_break_is_broken_at_the_lines_edge():
    width = 20 * 9.0
    for text in (*RUNS, "あいう" + "１２３４５６７８９０" * 5):
        ranges = set_lines(text, width, lambda c: 9.0)
        assert "".join(text[s:e] for s, e in ranges) == text
        assert max(e - s for s, e in ranges) <= 20, (text, ranges)


def test_the_a5_book_keeps_the_run_inside_the_page_and_its_proof_note_names_the_draft_line(tmp_path: Path):
    draft = DRAFT.replace("２：カードを１枚出す。\n", "２：カードを１枚出す。\n\n" + "\n\n".join("　" + r for r in RUNS) + "\n")
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    lines = draft.split("\n")
    result = build_rulebook(load_game(Workspace(ws), "test"), ws / "fonts")
    pages = [p for p in pdf_glyphs(result.files["rulebook.pdf"]) if "…" * 10 in "".join(g.char for g in p)]
    assert pages
    for page in pages:
        assert max(g.x for g in page) < PAGE_W - MARGIN + 1, max(g.x for g in page)  # inside the text column
        assert min(g.x for g in page) > MARGIN - 1
    proof = result.files["proof.txt"].decode("utf-8")
    for run in RUNS:
        n = lines.index("　" + run) + 1
        assert f"draft.txt:{n}: 「" in proof, proof  # the draft line of each run
    assert proof.count("禁則で改行できない") == 3


def test_a_draft_proofed_again_looks_only_at_the_lines_it_has_not_seen(monkeypatch):
    """The warm rulebook process (``watch``) proofs the draft at every save: a line whose text it
    looked at before is not broken into classes again, and the notes are the same; an edited
    line is looked at (and its run found or not found as before)."""
    from pnpgen.rulebook import prooflayout as proof
    from pnpgen.text import linebreak

    looked: list[str] = []
    classes = linebreak.break_classes
    monkeypatch.setattr(linebreak, "break_classes", lambda chars, **kw: looked.append("".join(chars)) or classes(chars, **kw))
    proof._unbreakable.cache_clear()
    long = "長い説明の行は、禁則で改行できない並びがなければ注意されない。" * 2
    text = "\n".join(["■概要", "　" + RUNS[0], "　" + long, "　" + RUNS[1]]) + "\n"
    first = proof.unbreakable_runs(text, "draft.txt", "ja")
    assert len(looked) == 3 and [f.file.split(": ", 1)[0] for f in first] == ["draft.txt:2", "draft.txt:4"]
    looked.clear()
    assert proof.unbreakable_runs(text, "draft.txt", "ja") == first and looked == []
    edited = text.replace(RUNS[1], "ゴール！")
    assert [f.file.split(": ", 1)[0] for f in proof.unbreakable_runs(edited, "draft.txt", "ja")] == ["draft.txt:2"]
    assert looked == []  # (the edited line is short now: never looked at)
    grown = text.replace(RUNS[1], RUNS[2])
    assert len(proof.unbreakable_runs(grown, "draft.txt", "ja")) == 2 and looked == ["　" + RUNS[2]]
