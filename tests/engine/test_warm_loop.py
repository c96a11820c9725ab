"""The watch loop's rulebook: typeset only when what it is made from changed (engine/bookkey.py),
and, across the saves of one session, in one process that parsed its fonts once (engine/warm.py)."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, make_workspace, run
from pdfprobe import texts
from pnpgen.data.workspace import Workspace
from pnpgen.engine import bookjob
from pnpgen.engine import run as build_run
from pnpgen.engine.options import BuildOptions, RulebookOptions
from pnpgen.engine.warm import Warm

COUNTED = DECK_YAML + "  - {name: 火, text: 一, count: 6}\n  - {name: 水, text: 二, count: 5}\n"


def _typesets(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = bookjob._typeset

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(bookjob, "_typeset", counted)
    return calls


def test_a_count_moved_within_a_deck_keeps_the_rulebook_a_new_total_resets_it(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", deck=COUNTED, draft=True)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    book = ws / "build" / "test" / "rulebook.pdf"
    calls = _typesets(monkeypatch)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert len(calls) == 1
    first = book.read_bytes()
    assert any("11枚" in t for t in texts(first))  # the components page prints the deck's total
    deck.write_text(COUNTED.replace("count: 6", "count: 7").replace("count: 5", "count: 4"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert len(calls) == 1  # the same total, the same book: not typeset again
    assert book.read_bytes() == first
    assert (ws / "build" / "test" / "cards.pdf").exists()
    deck.write_text(COUNTED.replace("count: 6", "count: 8"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert len(calls) == 2  # 13 now: the components page changes
    assert any("13枚" in t for t in texts(book))


def test_the_draft_edited_sets_the_book_again(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", draft=True)
    calls = _typesets(monkeypatch)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("カードを１枚出す。", "カードを２枚捨てる。"),
                     encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert len(calls) == 2
    assert any("捨てる" in t for t in texts(ws / "build" / "test" / "rulebook.pdf"))


@pytest.mark.parametrize("saves", [2])
def test_one_rulebook_process_parses_its_fonts_once_for_every_save(tmp_path, saves):
    root = make_workspace(tmp_path / "ws", draft=True)
    ws = Workspace(root)
    draft = root / "data" / "test" / "draft.txt"
    text = draft.read_text(encoding="utf-8")
    seen = []
    with Warm() as warm:
        for i in range(saves):
            draft.write_text(text.replace("カードを１枚出す。", f"カードを{i + 2}枚捨てる。"), encoding="utf-8")
            build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
            # (a step written as a sentence is set as a line of text: a quarter-em between 2 and 枚)
            assert any(f"{i + 2}枚捨てる" in t.replace(" ", "") for t in texts(root / "build" / "test" / "rulebook.pdf"))
            seen.append(warm.worker())
        assert warm.starts == 1
    pids = {pid for pid, _ in seen}
    parsed = {n for _, n in seen}
    assert len(pids) == 1  # the same process typeset every save
    assert len(parsed) == 1 and parsed.pop() >= 2  # its fonts parsed at the first save, never again


def test_a_warm_session_draws_again_only_what_a_save_changed_and_writes_what_a_cold_build_writes(tmp_path, monkeypatch):
    import pnpgen.pdf.streams as streams

    root = make_workspace(tmp_path / "ws", deck=COUNTED)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    drawn: list[tuple[str, bool]] = []  # faces drawn into streams for the game's documents
    real = streams.FaceStreams.get

    def counted(self, key, art, cmyk, images):
        name = (self.names.get(key, key), cmyk)
        if self.names and name not in self.made:  # (the reprint of new copies draws its own, apart)
            drawn.append(name)
        return real(self, key, art, cmyk, images)

    monkeypatch.setattr(streams.FaceStreams, "get", counted)
    options = BuildOptions(jobs=1)
    with Warm() as warm:
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        first = len(drawn)
        drawn.clear()
        recounted = COUNTED.replace("count: 6", "count: 9")
        deck.write_text(recounted, encoding="utf-8")
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        assert first >= 3  # two fronts and the back
        assert drawn == []  # a count: no face is new, none is drawn again
        deck.write_text(recounted.replace("text: 二", "text: 四"), encoding="utf-8")
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        assert len(drawn) == 1  # the edited front, for every document that shows it
    assert run(root, "build", "--game", "test", "--jobs", "1", "--no-rulebook", "--out", str(tmp_path / "cold")) == 0
    pdfs = sorted(p.relative_to(tmp_path / "cold").as_posix() for p in (tmp_path / "cold").rglob("*.pdf"))
    assert len(pdfs) >= 3
    for rel in pdfs:  # the warm session's last files are a cold build's, byte for byte
        assert (root / "build" / rel).read_bytes() == (tmp_path / "cold" / rel).read_bytes(), rel


def test_a_warm_session_reads_no_face_it_used_before_from_the_cache(tmp_path, monkeypatch):
    """The converted faces a save used are kept for the next (engine/warm.py ``arts``): a count
    edit reads no face from the cache, a text edit converts only the face it changed, and the
    files are a cold build's. Nor does a save load any template's code again (``Warm.compiled``)."""
    import jinja2

    from pnpgen.engine.cache import Cache

    root = make_workspace(tmp_path / "ws", deck=COUNTED)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    read: list[str] = []
    real = Cache.face

    def counted(self, key, *args, **kwargs):
        read.append(key)
        return real(self, key, *args, **kwargs)

    monkeypatch.setattr(Cache, "face", counted)
    loads: list[str] = []
    load = jinja2.bccache.Bucket.bytecode_from_string
    monkeypatch.setattr(jinja2.bccache.Bucket, "bytecode_from_string", lambda self, s: loads.append(self.key) or load(self, s))
    options = BuildOptions(jobs=1)
    with Warm() as warm:
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        deck.write_text(COUNTED.replace("count: 6", "count: 9"), encoding="utf-8")
        read.clear()
        loads.clear()
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        assert read == []  # every face the save shows was kept from the last
        deck.write_text(COUNTED.replace("count: 6", "count: 9").replace("text: 二", "text: 四"), encoding="utf-8")
        read.clear()
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        assert len(read) == 1  # only the edited face is looked for (and, new, converted); the others kept
        assert loads == [] and warm.compiled.code  # the templates' code as the first save left it
        assert len(warm.arts("test", next(iter(warm._arts.values()))[0])) >= 3
    assert run(root, "build", "--game", "test", "--jobs", "1", "--no-rulebook", "--out", str(tmp_path / "cold")) == 0
    for pdf in (tmp_path / "cold").rglob("*.pdf"):
        rel = pdf.relative_to(tmp_path / "cold")
        assert (root / "build" / rel).read_bytes() == pdf.read_bytes(), rel


def test_ctrl_c_ends_watch_without_a_traceback_from_its_rulebook_process(tmp_path):
    """Ctrl-C in the terminal goes to every process of the watcher's group: the warm rulebook
    process too, which printed a 20-line KeyboardInterrupt traceback as the watcher ended."""
    import os
    import signal
    import subprocess
    import sys

    from conftest import child_env, in_a_terminal_group

    ws = make_workspace(tmp_path / "ws", draft=True)

    # --jobs 2: the book is set in the warm process (with one job, in the watcher's own)
    proc = subprocess.Popen([sys.executable, "-u", "-m", "pnpgen", "watch", "--game", "test", "--jobs", "2"], cwd=ws,
                            env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=in_a_terminal_group)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # the first build, then the watcher
            if line.startswith("watching "):
                break
        deck = ws / "data" / "test" / "decks" / "cards.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード2", "書き直した"), encoding="utf-8")
        for line in proc.stdout:  # a save: its rulebook set in the warm process, which then waits for the next
            if " written" in line:
                break
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_a_warm_session_measures_for_the_print_lint_only_the_faces_a_save_changed(tmp_path, monkeypatch, capsys):
    """The print lint's findings on each face are kept across saves (engine/warm.py ``lints``):
    a count edit measures no face again, a text edit only the face it changed, and the warnings
    are the ones a cold build prints."""
    from pnpgen.faces import printlint

    small = COUNTED
    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '{{ textbox(piece.name, 1, 1, w - 2, 8, size=5) }}{% endblock %}')  # 5 pt text at the edge: findings
    root = make_workspace(tmp_path / "ws", deck=small, front=front)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    measured: list[int] = []
    real = printlint._checks
    monkeypatch.setattr(printlint, "_checks", lambda *a, **k: measured.append(1) or real(*a, **k))
    options = BuildOptions(jobs=1)
    with Warm() as warm:
        first = build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        faces = len(measured)
        assert faces > 0
        deck.write_text(small.replace("count: 6", "count: 9"), encoding="utf-8")
        measured.clear()
        again = build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        assert measured == []  # every face's findings kept from the last save
        deck.write_text(small.replace("count: 6", "count: 9").replace("name: 火", "name: 炎"), encoding="utf-8")
        measured.clear()
        build_run.run_build(ws, ["test"], options, root / "build", None, warm=warm)
        assert 0 < len(measured) < faces  # the renamed card's face alone
    lint = [w for w in first[0].result.warnings if "print lint" in w]
    assert lint and lint == [w for w in again[0].result.warnings if "print lint" in w]


def test_a_warm_session_has_its_rulebook_process_work_out_the_books_model_key(tmp_path, monkeypatch):
    """The book's model key (the game as JSON, its files hashed) is worked out by the warm rulebook
    process while the build's process draws the faces, not on the save's path before them; the
    book is kept and set again as the key says, as in a one-off build."""
    from pnpgen.engine import bookkey

    root = make_workspace(tmp_path / "ws", deck=COUNTED, draft=True)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    book = root / "build" / "test" / "rulebook.pdf"
    here: list[int] = []  # keys worked out in this process (the rulebook's is another: not counted)
    real = bookkey.model_key
    monkeypatch.setattr(bookkey, "model_key", lambda *a: here.append(1) or real(*a))
    kept: list[bool] = []  # each save: the last book kept by its key, or set again
    real_kept = bookkey.kept
    monkeypatch.setattr(bookkey, "kept", lambda *a: kept.append((found := real_kept(*a)) is not None) or found)
    with Warm() as warm:
        build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
        first = book.read_bytes()
        deck.write_text(COUNTED.replace("count: 6", "count: 7").replace("count: 5", "count: 4"), encoding="utf-8")
        build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
        assert book.read_bytes() == first  # the same total: the book kept by its key
        deck.write_text(COUNTED.replace("count: 6", "count: 8"), encoding="utf-8")
        build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
    assert kept == [False, True, False]  # set at the first save and after the new total, not for the count moved
    assert any("13枚" in t for t in texts(book))
    assert here == []
    assert run(root, "build", "--game", "test", "--jobs", "1", "--out", str(tmp_path / "cold")) == 0
    assert (tmp_path / "cold" / "test" / "rulebook.pdf").read_bytes() == book.read_bytes()


def _forget_pictures(setting) -> None:
    """(A job for the warm rulebook process) its pictures let go of, as a process started again has none."""
    setting.pictures.clear()


def test_a_warm_rulebook_process_is_sent_only_the_pictures_it_does_not_hold(tmp_path, monkeypatch):
    """The decks' pictures (some 700 kB for populous) are pickled and read by the warm rulebook
    process on the save's path: it keeps the last job's by their keys (engine/bookkey.py
    ``picture_keys``) and is sent only the others — none after a count edit, the edited deck's
    after a text edit — and every picture again when it does not hold one it is named. The book
    is a cold build's, byte for byte, each time."""
    from pnpgen.engine.warm import Worker

    root = make_workspace(tmp_path / "ws", deck=COUNTED, draft=True)
    ws = Workspace(root)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    sent: list[dict] = []  # the pictures of each setting's job, as sent
    real = Worker.submit

    def submit(self, fn, *args):
        if fn is bookjob._typeset:
            sent.append(args[2])
        return real(self, fn, *args)

    monkeypatch.setattr(Worker, "submit", submit)

    def cold(name: str) -> bytes:
        assert run(root, "build", "--game", "test", "--jobs", "1", "--out", str(tmp_path / name)) == 0
        return (tmp_path / name / "test" / "rulebook.pdf").read_bytes()

    def save(text: str) -> bytes:
        deck.write_text(text, encoding="utf-8")
        build_run.run_build(ws, ["test"], BuildOptions(jobs=2), root / "build", RulebookOptions(), warm=warm)
        return (root / "build" / "test" / "rulebook.pdf").read_bytes()

    with Warm() as warm:
        save(COUNTED)
        assert len(sent) == 1 and sent[0] and all(pic is not None for pic in sent[0].values())
        book = save(COUNTED.replace("count: 6", "count: 8"))  # a new total: set again, from the pictures it holds
        assert len(sent) == 2 and sent[1].keys() == sent[0].keys() and all(pic is None for pic in sent[1].values())
        assert book == cold("cold-count")
        book = save(COUNTED.replace("count: 6", "count: 8").replace("name: 火", "name: 炎"))  # the first front's title
        assert len(sent) == 3 and [pic is not None for pic in sent[2].values()] == [True]
        assert book == cold("cold-text")
        warm.pool(dict).submit(_forget_pictures).result()
        book = save(COUNTED.replace("count: 6", "count: 9").replace("name: 火", "name: 炎"))
        assert len(sent) == 5  # named a picture it no longer held: sent again with every picture
        assert all(pic is None for pic in sent[3].values()) and all(pic is not None for pic in sent[4].values())
        assert book == cold("cold-again")
