"""The warm rulebook process (``pnpgen watch``) sets a book again from what it kept of the last
one: each paragraph's lines, each JLREQ line's widths, each draft line's words and the draft's
slips, each booklet side's marks — kept by their whole content, so a later save does less work
and writes the same bytes as a process that never set a book."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

from conftest import DRAFT, child_env, make_workspace
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.engine import run as build_run
from pnpgen.engine.options import BuildOptions, RulebookOptions
from pnpgen.engine.warm import Warm
from pnpgen.rulebook import build_rulebook, flowables, grammar, paralines, slug

FILES = ("rulebook.pdf", "rulebook-booklet.pdf", "proof.txt")


def _digests(folder) -> dict[str, str]:
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in FILES}


def test_a_book_set_again_in_the_same_process_finds_its_lines_words_and_marks_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))  # the draft's slips not kept from before
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    game = load_game(ws, "test")
    for memo in (paralines._paragraph_lines, paralines._line_cells, grammar._words, grammar._slips, slug._overlay):
        memo.cache_clear()
    first = build_rulebook(game, ws.fonts)
    lines, cells = paralines._paragraph_lines.cache_info(), paralines._line_cells.cache_info()
    words, marks = grammar._words.cache_info(), slug._overlay.cache_info()
    assert lines.misses >= 5 and cells.misses >= 5 and words.misses >= 5 and marks.misses >= 2  # work was done
    again = build_rulebook(game, ws.fonts)
    assert again.files == first.files  # the same bytes from what was kept
    assert paralines._paragraph_lines.cache_info().misses == lines.misses  # no paragraph broken into lines again
    assert paralines._line_cells.cache_info().misses == cells.misses  # no line measured again
    assert grammar._slips.cache_info().hits == 1  # the unchanged draft: its slips, not one word analysed
    assert grammar._words.cache_info().misses == words.misses
    assert slug._overlay.cache_info().misses == marks.misses  # every booklet side's marks drawn once


def test_a_book_set_in_a_new_process_takes_its_lines_from_the_machines_cache(tmp_path, monkeypatch):
    """A build in a new process (the command line, after a count edit) sets the book with the
    lines its last setting worked out, kept in the machine's cache (rulebook/setlines.py): no
    paragraph broken, no line measured, the same bytes; code or fonts other than those that
    worked them out make them worked out again."""
    from pnpgen.rulebook import setlines

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    game = load_game(ws, "test")
    first = build_rulebook(game, ws.fonts)
    assert list((tmp_path / "machine-cache" / setlines.KIND).iterdir())
    for memo in (paralines._paragraph_lines, paralines._line_cells):  # what a new process lacks
        memo.cache_clear()
    again = build_rulebook(game, ws.fonts)
    assert again.files == first.files
    assert paralines._paragraph_lines.cache_info().misses == paralines._line_cells.cache_info().misses == 0
    monkeypatch.setattr(setlines, "_code", lambda: b"another pnpgen's line breaking")
    assert build_rulebook(game, ws.fonts).files == first.files
    assert paralines._paragraph_lines.cache_info().misses >= 5 and paralines._line_cells.cache_info().misses >= 5


def test_a_changed_paragraph_is_broken_again_the_others_are_kept(tmp_path):
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    build_rulebook(load_game(ws, "test"), ws.fonts)
    draft = root / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("テスト用の小さなゲームです。", "テスト用のとても小さなゲームです。"), encoding="utf-8")
    before = paralines._paragraph_lines.cache_info()
    book = build_rulebook(load_game(ws, "test"), ws.fonts)
    after = paralines._paragraph_lines.cache_info()
    assert 1 <= after.misses - before.misses <= 3  # the edited paragraph (and what quotes it), not the book
    assert any("とても小さな" in t for t in texts(book.files["rulebook.pdf"]))


def test_saves_in_a_warm_process_write_the_bytes_of_a_one_off_build(tmp_path):
    """Edit, save, undo, save in one warm process: the book it sets from its kept lines and
    words is the book a fresh ``pnpgen build`` process sets from nothing."""
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    draft = root / "data" / "test" / "draft.txt"
    with Warm() as warm:
        for text in (DRAFT, DRAFT.replace("２〜４人で遊びます。", "２〜５人で遊びます。"), DRAFT):
            draft.write_text(text, encoding="utf-8")
            build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
        assert warm.starts == 1
    warm_book = _digests(root / "build" / "test")
    fresh = make_workspace(tmp_path / "fresh", draft=True)
    done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "-q"], cwd=fresh,
                          env=child_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _digests(fresh / "build" / "test") == warm_book


def test_a_shift_jis_draft_builds_and_its_sections_are_in_the_history(tmp_path):
    """The rulebook reads a Shift_JIS draft; the history's record of the book's sections reads
    it the same way (it used to stop the build with a UnicodeDecodeError)."""
    root = make_workspace(tmp_path / "ws", draft=True)
    (root / "data" / "test" / "draft.txt").write_bytes(DRAFT.encode("cp932"))
    ws = Workspace(root)
    build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", RulebookOptions())
    assert any("遊びます" in t for t in texts(root / "build" / "test" / "rulebook.pdf"))
    entries = sorted((root / "build" / ".history" / "test").glob("v*.json"))
    assert len(entries) == 1
    body = json.loads(entries[0].read_bytes())["body"]
    assert "ゲームの進行" in json.dumps(body["rulebook"], ensure_ascii=False)


def test_a_save_reads_only_the_newest_history_entry_to_know_whether_the_game_changed(tmp_path, monkeypatch):
    """A watch session records a version on nearly every save (up to 50 kept); each save reads
    the newest entry, not all of them, to compare its content hash."""
    from pnpgen.engine import history

    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    for i in range(4):  # four versions on disk
        deck.write_text(text.replace("本文カード1", f"本文カード1の{i}"), encoding="utf-8")
        build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None)
    assert len(history.versions(root / "build", "test")) == 4
    read: list[int] = []
    real = history.decode
    monkeypatch.setattr(history, "decode", lambda data, edition: read.append(1) or real(data, edition))
    deck.write_text(deck.read_text(encoding="utf-8") + "# a comment: built again, the same game\n", encoding="utf-8")
    build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None)
    assert len(read) == 1  # the newest entry alone
    assert len(history.versions(root / "build", "test")) == 4  # and no version was added
    deck.write_text(text.replace("本文カード1", "本文カード1の新"), encoding="utf-8")
    read.clear()
    build_run.run_build(ws, ["test"], BuildOptions(jobs=1), root / "build", None)
    assert len(read) == 1
    assert len(history.versions(root / "build", "test")) == 5


def test_the_second_platypus_pass_breaks_no_paragraph_again(tmp_path, monkeypatch):
    """multiBuild sets the story twice (the contents' and index's page numbers): the paragraphs
    keep the lines the first pass broke them into, so the second asks for none."""
    from pnpgen.rulebook import document

    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    asked: list[int] = []  # the pass each paragraph's lines were asked for in
    passes: list[int] = []
    real_lines, real_build = flowables.paragraph_lines, document.RulebookDoc.build

    def lines(*args):
        asked.append(len(passes))
        return real_lines(*args)

    def build(self, *args, **kw):
        passes.append(1)
        return real_build(self, *args, **kw)

    monkeypatch.setattr(flowables, "paragraph_lines", lines)
    monkeypatch.setattr(document.RulebookDoc, "build", build)
    build_rulebook(load_game(ws, "test"), ws.fonts)
    assert len(passes) == 2
    assert asked and set(asked) == {1}  # all in the first pass


def test_a_count_edit_sets_the_book_in_one_pass_from_the_entries_the_last_setting_settled_on(tmp_path, monkeypatch):
    """The contents' and index's entries of the last setting are kept with the book's record: a
    count edited (the components page changes, no page turns) sets the book in one full pass
    instead of a sketch and a full pass, and writes the bytes a build from nothing writes; an
    edit of the draft starts from a sketch again."""
    from pnpgen.rulebook.document import RulebookDoc

    passes: list[tuple[bool, int]] = []
    real = RulebookDoc.multiBuild
    monkeypatch.setattr(RulebookDoc, "multiBuild",
                        lambda self, story, **kw: passes.append((self.sketch_first, n := real(self, story, **kw))) or n)
    root = make_workspace(tmp_path / "ws", draft=True)
    ws, out = Workspace(root), root / "build"
    build_run.run_build(ws, ["test"], BuildOptions(jobs=1), out, RulebookOptions())
    assert passes[0][0] and passes[0][1] >= 2  # from nothing: a sketch, then the pages
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    counted = deck.read_text(encoding="utf-8").replace("{name: カード1, text: 本文カード1}",
                                                       "{name: カード1, text: 本文カード1, count: 3}")
    deck.write_text(counted, encoding="utf-8")
    passes.clear()
    build_run.run_build(ws, ["test"], BuildOptions(jobs=1), out, RulebookOptions())
    assert passes == [(False, 1)]  # set again (the total printed changed), in one pass
    assert any("13" in t for t in texts(out / "test" / "rulebook.pdf"))  # 11 cards, one of them 3 times
    fresh = make_workspace(tmp_path / "fresh", draft=True)
    (fresh / "data" / "test" / "decks" / "cards.yaml").write_text(counted, encoding="utf-8")
    build_run.run_build(Workspace(fresh), ["test"], BuildOptions(jobs=1), fresh / "build", RulebookOptions())
    assert _digests(fresh / "build" / "test") == _digests(out / "test")
    draft = root / "data" / "test" / "draft.txt"
    draft.write_text(DRAFT.replace("２〜４人で遊びます。", "２〜５人で遊びます。"), encoding="utf-8")
    passes.clear()
    build_run.run_build(ws, ["test"], BuildOptions(jobs=1), out, RulebookOptions())
    assert passes and passes[0][0]  # the draft edited: its entries are not offered


def test_entries_read_back_from_the_cache_are_offered_only_as_render_writes_them():
    from pnpgen.rulebook.document import well_formed_entries

    good = [["TOCEntry", [0, "遊び方", 3, "h1"]], ["TOCEntry", [1, "準備", 3, None]], ["IndexTerm", ["手札", 4]]]
    assert well_formed_entries(good) == good
    for bad in ({"TOCEntry": []}, [["TOCEntry", [0, "遊び方", 3]]], [["TOCEntry", [0, "x", "3", "k"]]],
                [["IndexTerm", ["手札", True]]], [["Other", ["手札", 4]]], [["IndexTerm", "手札"]], "[]"):
        assert well_formed_entries(bad) is None


def _paragraphs_drawn(setting) -> tuple[int, int]:
    """(In the warm rulebook process) the paragraphs, headings and running heads its last setting
    drew and took as drawn before (rulebook/drawnparas.py)."""
    return setting.drawn.drawn, setting.drawn.taken


def test_count_edits_saved_in_a_warm_process_write_the_bytes_of_a_cold_build(tmp_path):
    """A card added and taken away and added again, each a save in one warm process (the book's
    components page changes; its other pages' lines come from what the process kept, and the
    paragraphs that did not change are taken as the last setting drew them): every PDF is the one
    a cold build without any cache writes."""
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    original = deck.read_text(encoding="utf-8")
    more = original + "  - {name: カード12, text: 本文カード12}\n"
    with Warm() as warm:
        for text in (original, more, original, more):
            deck.write_text(text, encoding="utf-8")
            build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
        drawn, taken = warm.pool(dict).submit(_paragraphs_drawn).result()
    assert 1 <= drawn <= 6 and taken >= 4 * drawn, (drawn, taken)  # the last save drew the components page's changed ones, took the others
    fresh = make_workspace(tmp_path / "fresh", draft=True)
    (fresh / "data" / "test" / "decks" / "cards.yaml").write_text(more, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pnpgen", "build", "--game", "test", "-q"], cwd=fresh,
                          env=child_env(PNPGEN_CACHE="off"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    pdfs = sorted(p.name for p in (fresh / "build" / "test").glob("*.pdf"))
    assert {"rulebook.pdf", "rulebook-booklet.pdf"} <= set(pdfs) and len(pdfs) >= 4
    for name in pdfs:
        assert (root / "build" / "test" / name).read_bytes() == (fresh / "build" / "test" / name).read_bytes(), name


def test_a_warm_process_sets_the_book_again_without_reading_its_lines_back(tmp_path, monkeypatch):
    """The rulebook process of a watch session keeps the lines its last setting used in its
    ``Setting`` (engine/typeset.py): the next setting of the same book reads no entry of them from
    the machine's cache, and sets the same bytes as one that read them."""
    from pnpgen.rulebook import setlines

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache"))
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    game = load_game(ws, "test")
    read: list[str] = []
    real = setlines.usercache.get

    def get(kind, name):
        if kind == setlines.KIND:
            read.append(name)
        return real(kind, name)

    monkeypatch.setattr(setlines.usercache, "get", get)
    kept: dict = {}
    first = build_rulebook(game, ws.fonts, lines=kept)
    assert len(read) == 1 and kept["used"]  # the first setting looked in the machine's cache
    again = build_rulebook(game, ws.fonts, lines=kept)
    assert len(read) == 1  # the second did not
    assert again.files == first.files == build_rulebook(game, ws.fonts).files


def test_a_warm_process_compresses_only_the_streams_its_last_setting_did_not_have(tmp_path, monkeypatch):
    """The rulebook process of a watch session keeps the Flate streams its last setting
    compressed (``Setting.compressions``, pdf/settings.py): the book set again compresses none it
    had (its fonts' subsets, pages, faces), a book whose count changed compresses only what
    changed, and each writes the bytes of a setting that compressed everything itself."""
    import zlib

    from pnpgen.pdf import settings

    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    game = load_game(ws, "test")
    compressed: list[int] = []
    real = zlib.compress
    monkeypatch.setattr(zlib, "compress", lambda data, *a: compressed.append(len(data)) or real(data, *a))
    kept = settings.Compressions()
    first = build_rulebook(game, ws.fonts, compressions=kept)
    streams = len(compressed)
    assert streams >= 5 and kept.reused == 0  # (the pages, the fonts' subsets and their maps)
    again = build_rulebook(game, ws.fonts, compressions=kept)
    assert len(compressed) == streams and kept.reused >= streams  # not one compressed again
    assert again.files == first.files
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード5}", "text: 本文カード5, count: 3}"),
                    encoding="utf-8")  # 11 cards → 13
    edited = load_game(ws, "test")
    before = len(compressed)
    counted = build_rulebook(edited, ws.fonts, compressions=kept)
    assert 0 < len(compressed) - before < streams  # the changed page's stream, not the book's
    assert counted.files == build_rulebook(edited, ws.fonts).files != first.files
    from reportlab.pdfbase import pdfdoc

    assert "encode" not in vars(pdfdoc.PDFZCompress)  # ReportLab's filter given back after each setting
