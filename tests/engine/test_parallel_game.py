"""Issue 22: the faces of one game rendered over --jobs workers give the files one worker gives,
byte for byte, with the same warnings in the same order."""

from __future__ import annotations

import json

from PIL import Image

from conftest import PICTURE_DECK_YAML, kill_this_forked_process, make_workspace, run
from pnpgen.engine import prerender
from pnpgen.faces import templates
from pnpgen.pdf.raster import ImageStreams
from pnpgen.pdf.streams import FaceStreams
from pnpgen.svg.artwork import ArtRecord

DECK = PICTURE_DECK_YAML
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ image(piece.art, 5, 20, w - 10, 40) }}
{{ textbox(piece.name, 5, 5, w - 10, 10, size=10, align="center") }}
{% endblock %}
"""
N = 40  # distinct cards: 80 faces, over prerender.MIN_FACES


def test_two_workers_write_what_one_writes(tmp_path, capsys, monkeypatch):
    pieces = "".join(f"  - {{name: 札{i}, art: a{i % 5}.png, count: {i % 3 + 1}}}\n" for i in range(1, N + 1))
    ws = make_workspace(tmp_path / "ws", deck=DECK + pieces, front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(5):  # 40×30 px over 53×40 mm: every placement warns of its resolution
        Image.new("RGB", (40, 30), (40 * i, 90, 200)).save(ws / "data" / "test" / "art" / f"a{i}.png")
    in_workers = []
    real = prerender.prerender

    def counted(*args):
        in_workers.append(real(*args))
        return in_workers[-1]

    monkeypatch.setattr(prerender, "prerender", counted)
    rendered_here: list[str] = []  # (a worker's renders are counted in its own copy of the list)
    real_render = templates.Renderer._render
    monkeypatch.setattr(templates.Renderer, "_render",
                        lambda self, face, *a: rendered_here.append(face.piece.label) or real_render(self, face, *a))
    outs, errs, here = [], [], []
    for jobs in ("1", "2"):
        rendered_here.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs.append(out / "test")
        errs.append(capsys.readouterr().err)
        here.append(sorted(set(rendered_here)))
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
    assert len(files) >= 5
    assert sorted(p.relative_to(outs[1]) for p in outs[1].rglob("*") if p.is_file()) == files
    for rel in files:
        assert (outs[0] / rel).read_bytes() == (outs[1] / rel).read_bytes(), rel
    # each document's plan key (its pages' digests made beside the converting workers with --jobs 2)
    plans = [{path: doc["plan"] for path, doc in json.loads((out.parent / ".cache" / "test.json").read_text())
              ["body"]["documents"].items()} for out in outs]
    assert len(plans[0]) == 4 and plans[0] == plans[1]
    # --jobs 2: the first pieces rendered in the build's own process, the rest in a worker: runs
    # as long (OWN_SHARE: the worker starts later, and this process replays its faces), 20 and 20
    assert [w.faces for w in in_workers] == [2 * 20] and in_workers[0].pool is None  # (let go of once its faces came)
    assert len(here[0]) == N and here[1] == sorted(f"札{i}" for i in range(1, 21)), here[1]
    # --jobs 3: 13 pieces here, two workers 14 and 13, each worker's run waited for in its turn
    out = tmp_path / "jobs3"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "3", "--out", str(out)) == 0
    assert in_workers[-1].faces == 2 * (N - 13) and capsys.readouterr().err == errs[0]
    assert all((outs[0] / rel).read_bytes() == (out / "test" / rel).read_bytes() for rel in files)
    # (a deck's pictures below the dpi: three named, the rest counted on one line: five files on 40 cards)
    assert f"deck cards: {N - 3} more pieces show 5 pictures below 300 dpi" in errs[0] and errs[0] == errs[1]


def test_too_few_faces_stay_in_one_process(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws")

    in_workers = []
    real = prerender.prerender

    def counted(*args):
        in_workers.append(real(*args))
        return in_workers[-1]

    monkeypatch.setattr(prerender, "prerender", counted)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(tmp_path / "b")) == 0
    assert [w.faces for w in in_workers] == [0]  # 22 faces: rendered in the build's own process


def test_faces_converted_in_workers_are_settled_in_order_and_equal_one_workers(tmp_path):
    """Over 64 faces convert in worker processes, a few chunks ahead of the face being settled;
    each comes back in key order and equal to the face one process converts, drawn into the form
    content the writer draws from it."""
    from types import SimpleNamespace

    from pnpgen.data.art import ArtFolder
    from pnpgen.faces.convert import convert_faces

    keys = [f"f{i:03d}" for i in range(90)]
    svgs = {k: f'<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
               f'<rect x="1" y="1" width="{1 + i % 7}" height="3" fill="#{i:02x}3366"/></svg>'
            for i, k in enumerate(keys)}
    faces = SimpleNamespace(svgs=svgs, where={k: f"deck {k}" for k in keys}, template={})
    folder = ArtFolder(tmp_path)
    settled: list[str] = []
    drawn: dict = {}

    def settle(k, converted):
        settled.append(k)
        drawn[k] = converted
        return converted.art

    two = convert_faces(faces, folder, jobs=2, settle=settle)
    one = convert_faces(faces, folder, jobs=1)
    assert settled == keys
    assert list(two) == keys and two == one
    writer = FaceStreams()
    assert all(drawn[k].stream == writer.get(k, one[k], False, ImageStreams()) for k in keys)
    assert all(drawn[k].record == ArtRecord.of(one[k]) for k in keys)  # the cache's record, made there


def test_forked_converting_workers_find_their_faces_in_memory_and_a_killed_ones_are_converted_here(tmp_path, monkeypatch):
    """Where processes start forked, each converting worker finds its faces in its copy of the
    build's memory: none is pickled to it (an art folder no pickle takes converts). A worker killed
    while the build waits leaves its chunks to the build's own process: every face comes, in key
    order, equal to the face one process converts."""
    from types import SimpleNamespace

    import pytest

    from pnpgen.data.art import ArtFolder
    from pnpgen.faces import convert

    if not convert.can_fork():
        pytest.skip("processes start forked only where the system forks (Linux)")
    keys = [f"f{i:03d}" for i in range(90)]
    svgs = {k: f'<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
               f'<rect x="1" y="1" width="{1 + i % 7}" height="3" fill="#{i:02x}3366"/></svg>' for i, k in enumerate(keys)}
    faces = SimpleNamespace(svgs=svgs, where={k: f"deck {k}" for k in keys}, template={})
    folder = ArtFolder(tmp_path)
    folder.unpicklable = lambda: None  # type: ignore[attr-defined]
    real = convert.convert_chunk

    def killed_at_f040(jobs, **kwargs):  # chunk 5 (f040-f047)
        if any(where == "deck f040" for _, where, _, _ in jobs):
            kill_this_forked_process()
        return real(jobs, **kwargs)

    monkeypatch.setattr(convert, "convert_chunk", killed_at_f040)
    settled: list[str] = []
    from_workers: list[str] = []

    def settle(k, converted):
        settled.append(k)
        if converted.record is not None:  # (drawn and recorded by a worker; one converted here is not)
            from_workers.append(k)
        return converted.art

    two = convert.convert_faces(faces, folder, jobs=2, settle=settle)
    one = convert.convert_faces(faces, folder, jobs=1)
    assert settled == keys and list(two) == keys and two == one
    # the first chunk from a worker (chunk 5 is handed out once it is settled); f040-f047 converted here,
    # and every chunk not in when the worker ended
    assert from_workers[:8] == keys[:8] and not {"f040", "f047"} & set(from_workers)


def test_faces_drawn_by_the_workers_that_converted_them_are_not_drawn_again(tmp_path, monkeypatch):
    """Over 64 distinct faces convert in workers, and each worker draws its faces into their forms'
    content there: the build's own process, writing every document, draws none of them again,
    and writes the bytes one process writes."""
    from pnpgen.engine import documents
    from pnpgen.pdf import streams

    pieces = "".join(f"  - {{name: 札{i}, art: a{i % 5}.png}}\n" for i in range(1, 71))
    ws = make_workspace(tmp_path / "ws", deck=DECK + pieces, front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(5):
        Image.new("RGB", (40, 30), (40 * i, 90, 200)).save(ws / "data" / "test" / "art" / f"a{i}.png")
    monkeypatch.setattr(documents, "MIN_FACES", 10**9)  # every document written in the build's own process
    drawn_here: list[int] = []
    real = streams.face_stream
    monkeypatch.setattr(streams, "face_stream", lambda *a: drawn_here.append(1) or real(*a))
    outs = []
    for jobs in ("1", "2"):
        drawn_here.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs.append((out / "test", len(drawn_here)))
    (one, drawn_by_one), (two, drawn_by_two) = outs
    assert drawn_by_one >= 71 and drawn_by_two == 0
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)


def test_a_thread_beside_the_converting_workers_starts_only_once_they_are_forked(tmp_path):
    """``convert_faces`` says when its worker processes run (``forked``): the build starts its
    planning thread then, never before (a fork while a thread holds the import lock leaves the
    child waiting for ever). Called once, with every worker already started."""
    import multiprocessing
    from types import SimpleNamespace

    from pnpgen.data.art import ArtFolder
    from pnpgen.faces.convert import convert_faces

    keys = [f"f{i:03d}" for i in range(70)]
    svgs = {k: f'<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
               f'<rect x="1" y="1" width="{1 + i % 7}" height="3" fill="#{i:02x}3366"/></svg>' for i, k in enumerate(keys)}
    faces = SimpleNamespace(svgs=svgs, where={k: f"deck {k}" for k in keys}, template={})
    running: list[int] = []
    arts = convert_faces(faces, ArtFolder(tmp_path), jobs=2, forked=lambda: running.append(len(multiprocessing.active_children())))
    assert len(running) == 1 and running[0] >= 2 and len(arts) == 70  # (other tests may leave a child of their own)


def test_workers_send_pictures_of_art_files_back_as_stand_ins(tmp_path, monkeypatch):
    """A picture that is an art file as it is comes back from the converting worker as a stand-in
    (its key), placed here from the file — its bytes never cross the pipe —, and a picture the
    documents cannot take from its file (in more pieces than they copy) is made from the file's
    bytes here: the files are those one process writes."""
    from conftest import png_in_chunks
    from pnpgen.pdf import imagestream, raster

    pieces = "".join(f"  - {{name: 札{i}, art: a{i}.png}}\n" for i in range(1, 71))
    ws = make_workspace(tmp_path / "ws", deck=DECK + pieces, front=FRONT)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    for i in range(1, 71):
        Image.new("RGB", (40, 30), (3 * i, 90, 200)).save(art / f"a{i}.png")
    (art / "a7.png").write_bytes(png_in_chunks((art / "a7.png").read_bytes(), imagestream.MAX_PIECES + 4))
    placed_here: list[bytes] = []
    real = raster.ImageStreams._worker_stand_in

    def counted(self, stand_in, source):
        placed_here.append(stand_in)
        return real(self, stand_in, source)

    monkeypatch.setattr(raster.ImageStreams, "_worker_stand_in", counted)
    outs = []
    for jobs in ("1", "2"):
        placed_here.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs.append((out / "test", len(set(placed_here))))
    (one, by_one), (two, by_two) = outs
    assert by_one == 0 and by_two == 70  # every picture, a7.png's (made into a stream here) too
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)


def _drawn_deck(tmp_path):
    """70 cards (over the converting workers' threshold: with --jobs 2 the workers draw the faces)."""
    pieces = "".join(f"  - {{name: 札{i}, art: a{i % 5}.png, count: {i % 3 + 1}}}\n" for i in range(1, 71))
    ws = make_workspace(tmp_path / "ws", deck=DECK + pieces, front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    for i in range(5):
        Image.new("RGB", (40, 30), (40 * i, 90, 200)).save(ws / "data" / "test" / "art" / f"a{i}.png")
    return ws


def test_with_the_faces_drawn_a_forked_process_writes_half_the_documents(tmp_path, monkeypatch):
    """--jobs 2, the faces drawn by the converting workers: some documents are written by a
    process forked from the build's (which pickles nothing to it), the others here meanwhile —
    the home sheets and the all-in-one file, which show the same pages, by the same one; the
    bytes are one process's."""
    from pnpgen.engine import documents

    ws = _drawn_deck(tmp_path)
    monkeypatch.setattr(documents, "MIN_PAGES", 100)  # (the deck's documents: some 240 pages to draw)
    written_here: list[str] = []
    real = documents.write_pdf
    monkeypatch.setattr(documents, "write_pdf", lambda doc, *a, **k: written_here.append(doc.title) or real(doc, *a, **k))
    outs = []
    for jobs in ("1", "2"):
        written_here.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs.append((out / "test", list(written_here)))
    (one, by_one), (two, by_two) = outs
    assert len(by_one) == 4 and 1 <= len(by_two) <= 3, by_two
    assert ("テストゲーム — 絵札" in by_two) == ("テストゲーム — 全シート" in by_two), by_two
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert len(files) >= 5 and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)
    # an edit: a few pages to draw, the rest kept; no fork, every document written here
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("札3,", "札三,"), encoding="utf-8")
    written_here.clear()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(tmp_path / "jobs2")) == 0
    assert len(written_here) == 4


def test_documents_of_a_forked_process_that_ends_unanswered_are_written_here(tmp_path, monkeypatch):

    from pnpgen.engine import documents

    ws = _drawn_deck(tmp_path)
    monkeypatch.setattr(documents, "MIN_PAGES", 0)
    monkeypatch.setattr(documents, "_write_forked", lambda *a: kill_this_forked_process(9))  # (killed, say)
    for jobs in ("1", "2"):
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(tmp_path / jobs)) == 0
    one, two = tmp_path / "1" / "test", tmp_path / "2" / "test"
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert len(files) >= 5 and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)


def test_the_forked_process_answers_in_pieces_each_document_staged_before_the_next_is_read(tmp_path, monkeypatch):
    """The forked child's answer comes a document to a message, then its streams a few at a time
    (``STREAMS_A_PIECE``): the build's process hands each document to the staging folder before it
    reads the next message, so it never holds the child's whole answer, pickled and unpickled, at
    once (5,000 text cards: 461 → 417 MB at that point). The files are one process's."""
    from multiprocessing.connection import Connection

    from pnpgen.engine import documents, transaction

    ws = _drawn_deck(tmp_path)
    monkeypatch.setattr(documents, "MIN_PAGES", 100)
    monkeypatch.setattr(documents, "STREAMS_A_PIECE", 7)
    events: list[tuple] = []
    real_recv, real_early = Connection.recv, transaction.Staging.early

    def recv(self):
        message = real_recv(self)
        if isinstance(message, tuple) and message and message[0] in ("file", "made", "kept", "used", "failed"):
            kind, what = message
            events.append(("recv", kind, what[0] if kind == "file" else len(what)))
        return message

    monkeypatch.setattr(Connection, "recv", recv)
    monkeypatch.setattr(transaction.Staging, "early",
                        lambda self, path, data: events.append(("early", path.name)) or real_early(self, path, data))
    for jobs in ("1", "2"):
        events.clear()
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(tmp_path / jobs)) == 0
    got = [e for e in events if e[0] == "recv"]
    files = [e[2] for e in got if e[1] == "file"]
    streams = [e[2] for e in got if e[1] in ("made", "kept")]
    assert 1 <= len(files) <= 3 and got[-1][1] == "used", got  # the child's documents, one a message
    assert len(streams) >= 3 and max(streams) <= 7 and sum(streams) > 7, streams  # (pages it drew: some 100)
    for path in files:  # each staged before the next message is read
        at = events.index(("recv", "file", path))
        assert events[at + 1] == ("early", path.rsplit("/", 1)[-1]), events[at:at + 3]
    one, two = tmp_path / "1" / "test", tmp_path / "2" / "test"
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert len(files) >= 5 and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)


def test_documents_showing_the_same_pages_go_to_one_process():
    from pnpgen.engine import documents
    from pnpgen.impose.plan import Page, PagePlan, PlaceFace

    def page(n):
        return Page((210, 297), [PlaceFace(f"f{i}", None, (10, 10), 0) for i in range(n)])  # type: ignore[arg-type]

    home = [page(9) for _ in range(10)]
    todo = {"home.pdf": PagePlan("home", home), "shop.pdf": PagePlan("shop", [page(1) for _ in range(60)]),
            "unique.pdf": PagePlan("unique", [page(1) for _ in range(40)]), "all.pdf": PagePlan("all", [*home, page(0)])}
    assert documents._halves(todo) == (["shop.pdf", "unique.pdf"], ["home.pdf", "all.pdf"])


def test_the_first_failing_face_is_reported_whichever_process_rendered_it(tmp_path, capsys):
    """--jobs 2 renders the first half of the pieces in the build's own process and the second
    in a worker: a face failing in either is reported as --jobs 1 reports it, the first failing
    face when both fail, and nothing is written."""
    def failing(*names):
        test = " or ".join(f"piece.name == '{n}'" for n in names)
        front = FRONT.replace("{% endblock %}", f"{{% if {test} %}}{{{{ 1 // 0 }}}}{{% endif %}}\n{{% endblock %}}")
        pieces = "".join(f"  - {{name: 札{i}, art: a.png}}\n" for i in range(1, N + 1))
        ws = make_workspace(tmp_path / "-".join(names), deck=DECK + pieces, front=front)
        (ws / "data" / "test" / "art").mkdir()
        Image.new("RGB", (40, 30), (40, 90, 200)).save(ws / "data" / "test" / "art" / "a.png")
        return ws

    for names, shown in ((("札30",), "札30"), (("札5", "札30"), "札5"), (("札30", "札35"), "札30")):
        ws = failing(*names)
        errs = []
        for jobs in ("1", "2"):
            out = tmp_path / f"out-{jobs}"
            assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 2
            errs.append(capsys.readouterr().err)
            assert not out.exists() or not (out / "test").exists()
        assert errs[0] == errs[1] and f"({shown}, " in errs[1] and "Traceback" not in errs[1], errs


def _done_while_the_child_draws(tmp_path, monkeypatch, ws, step: str):
    """``ws`` built with --jobs 1 and 2, each call of ``step`` (a function engine/game.py calls)
    noted among the documents told ready: with --jobs 2 once, after the build's own documents and
    before the forked child's come back; with --jobs 1 once, after every document. The files of
    both are the same bytes (the two builds' game folders returned)."""
    from pnpgen.engine import documents, game, transaction

    monkeypatch.setattr(documents, "MIN_PAGES", 100)
    events: list[str] = []
    real_early, real_step = transaction.Staging.early, getattr(game, step)
    monkeypatch.setattr(transaction.Staging, "early",
                        lambda self, path, data: events.append(path.name) or real_early(self, path, data))
    monkeypatch.setattr(game, step, lambda *a, **k: events.append(step) or real_step(*a, **k))
    outs = {}
    for jobs in ("1", "2"):
        events.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        outs[jobs] = list(events)
    before = {jobs: events[:events.index(step)] for jobs, events in outs.items()}  # the documents told ready
    assert len(before["1"]) == 4 and outs["1"].count(step) == 1, outs["1"]  # (then each told again at the end)
    assert 1 <= len(before["2"]) < 4 and outs["2"].count(step) == 1, outs["2"]  # the child's come after it
    one, two = tmp_path / "jobs1" / "test", tmp_path / "jobs2" / "test"
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert len(files) >= 5 and all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in files)
    return one, two


def test_the_bleed_is_read_while_the_forked_process_draws_its_documents(tmp_path, monkeypatch):
    """--jobs 2: the build's process reads the faces' bleed (and packs the renders) after drawing
    its own documents and before the forked child's come back, not after them (its core would
    idle while the child draws); --jobs 1 reads it after every document, as before."""
    _done_while_the_child_draws(tmp_path, monkeypatch, _drawn_deck(tmp_path), "bare_bleed_warnings")


def test_the_print_lint_runs_while_the_forked_process_draws_its_documents(tmp_path, monkeypatch):
    """--jobs 2: the build's process runs the print lint over the converted faces after drawing
    its own documents and before the forked child's come back (before the documents, no other
    process ran: one core idled); --jobs 1 runs it after every document. Its findings stand where
    one process puts them, after the faces' own warnings."""
    ws = _drawn_deck(tmp_path)
    front = ws / "templates" / "test" / "card-front.svg.j2"  # text under the lint's smallest size: a finding
    front.write_text(front.read_text(encoding="utf-8").replace("size=10", "size=4"), encoding="utf-8")
    _, two = _done_while_the_child_draws(tmp_path, monkeypatch, ws, "lint_faces")
    warnings = json.loads((two / "manifest.json").read_text(encoding="utf-8"))["warnings"]
    linted = [i for i, w in enumerate(warnings) if "print lint" in w and "4.0 pt" in w]
    assert len(linted) == 1 and all(i < linted[0] for i, w in enumerate(warnings) if "dpi" in w), warnings


def test_a_document_failing_in_the_forked_process_is_reported_before_the_bleed_read_meanwhile(tmp_path, monkeypatch,
                                                                                                capsys):
    """What the build's process does while the child draws fails after the child's documents:
    the documents' error is the one told, as one process tells it (documents before the bleed);
    nothing is written."""
    from pnpgen.engine import documents, game
    from pnpgen.errors import InputError

    ws = _drawn_deck(tmp_path)
    monkeypatch.setattr(documents, "MIN_PAGES", 100)

    def failing_child(send, *args):
        send.send(("failed", InputError("a document the child draws fails", path="data/test/decks/cards.yaml")))
        send.close()

    def failing_bleed(*args, **kwargs):
        raise InputError("the bleed read meanwhile fails", path="data/test/decks/cards.yaml")

    monkeypatch.setattr(documents, "_write_forked", failing_child)
    monkeypatch.setattr(game, "bare_bleed_warnings", failing_bleed)
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "2", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "the child draws fails" in err and "meanwhile fails" not in err and "Traceback" not in err, err
    assert not (out / "test").exists()
