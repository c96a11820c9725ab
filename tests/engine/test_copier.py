"""Issue 22, `--jobs 2`: the big documents are copied into the staging folder by one process, the
copier, forked beside the faces' converting workers (engine/stagecopy.py ``Copier``) — no fork of
the build's grown heap once the documents begin (each such fork made the build fault again on
every page it wrote after: docs/speed-rounds.md, rounds jobs46 and copier46). What a copy says at its
end is what a process forked for it said."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from test_early_staging import BUILD, _an_output_folder_and_a_big_document, _document, _files, _picture_game

from conftest import child_env, run
from pnpgen.engine import game as game_module
from pnpgen.engine import stagecopy, transaction
from pnpgen.engine.journal import JOURNAL, STAGING
from pnpgen.engine.transaction import Staging, commit
from pnpgen.errors import InputError
from pnpgen.faces import convert
from pnpgen.pdf.assemble import PdfFile, Stored

pytestmark = pytest.mark.skipif(not transaction.FORKS, reason="copies in forked processes where the kernel copies")


def test_no_fork_once_the_documents_begin_the_copier_copies_them(tmp_path, monkeypatch):
    """A build that converts its faces in workers forks the copier with them, and nothing after
    the documents begin: its four documents are the copier's jobs, the same bytes as `--jobs 1`'s."""
    ws = _picture_game(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "one")) == 0
    monkeypatch.setattr(transaction, "BIG_DOCUMENT", 1)  # every document counts as big
    monkeypatch.setattr(convert, "MIN_FACES", 0)  # the faces converted by workers
    forks: list[str] = []  # each fork of the build's process, by when it came
    documents_begun: list[bool] = []
    real_fork, real_write, real_copier = os.fork, game_module.write_documents, stagecopy.Copier.fork
    copiers: list[stagecopy.Copier] = []

    def fork():
        pid = real_fork()
        if pid:
            forks.append("after the documents began" if documents_begun else "before")
        return pid

    def write_documents(*args, **kwargs):
        documents_begun.append(True)
        return real_write(*args, **kwargs)

    def copier():
        made = real_copier()
        copiers.append(made)
        return made

    monkeypatch.setattr(os, "fork", fork)
    monkeypatch.setattr(game_module, "write_documents", write_documents)
    monkeypatch.setattr(stagecopy.Copier, "fork", copier)
    jobs: list[int] = []
    real_copy = stagecopy.Copier.copy

    def copy(self, fd, data):
        jobs.append(real_copy(self, fd, data))
        return jobs[-1]

    monkeypatch.setattr(stagecopy.Copier, "copy", copy)
    assert run(ws, *BUILD, "--out", str(tmp_path / "two")) == 0
    assert documents_begun and forks.count("after the documents began") == 0, forks
    assert len(copiers) == 1 and copiers[0] is not None and jobs == [1, 2, 3, 4]
    assert copiers[0].pid == 0  # ended with the staging
    assert {k: v[0] for k, v in _files(tmp_path / "two" / "test").items()} == \
        {k: v[0] for k, v in _files(tmp_path / "one" / "test").items()}
    assert not (tmp_path / "two" / STAGING).exists()


def _staging_with_a_copier(root):
    staging = Staging(root)
    staging.fork_copier()
    assert staging.copier is not None and staging.copier.pid
    return staging


def test_the_copier_stages_a_document_and_says_a_changed_art_file(tmp_path, monkeypatch):
    """A job's bytes are the document's; an art file saved again after the build took it is
    refused at the commit in the words a process forked for the copy gave, nothing staged left."""
    root, doc = _an_output_folder_and_a_big_document(tmp_path, monkeypatch)
    changed, art = _document(tmp_path, "other.bin")
    with _staging_with_a_copier(root) as staging:
        staging.early(root / "a.pdf", doc)
        assert staging.copies[root / "a.pdf"].job and not staging.copies[root / "a.pdf"].pid
        with staging.lock():
            assert commit(root, {root / "a.pdf": doc}, (), staging) == [root / "a.pdf"]
    assert (root / "a.pdf").read_bytes() == bytes(doc)
    art.write_bytes(os.urandom(300_001))  # saved again: another size, another time
    with _staging_with_a_copier(root) as staging:
        staging.early(root / "b.pdf", changed)
        copier = staging.copier
        with staging.lock(), pytest.raises(InputError, match="other.bin was saved again while the build wrote"):
            commit(root, {root / "a.pdf": doc, root / "b.pdf": changed}, (), staging)
        assert copier is not None and copier.pid == 0  # (ended with the staging the failure discarded)
    assert not (root / "b.pdf").exists() and not (root / STAGING).exists() and not (root / JOURNAL).exists()


def test_a_copier_gone_says_its_copy_stopped_and_the_next_is_forked_for(tmp_path, monkeypatch):
    """The copier killed (the out-of-memory killer) while it copies: the copy says it stopped, as a
    process forked for it would; a document staged after that gets a process of its own."""
    root, doc = _an_output_folder_and_a_big_document(tmp_path, monkeypatch)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # a part whose file never opens: the copier's job waits there until killed
    with _staging_with_a_copier(root) as staging:
        assert staging.copier is not None
        staging.early(root / "a.pdf", PdfFile((b"%PDF head\n", Stored(str(fifo), 10))))
        copy = staging.copies[root / "a.pdf"]
        assert copy.job and not copy.ended_well()
        os.kill(staging.copier.pid, 9)
        with pytest.raises(OSError, match="the copy of a document stopped"):
            copy.wait()
        os.waitpid(staging.copier.pid, 0)  # (gone for good: its end of the socket closed too)
        staging.early(root / "b.pdf", doc)
        assert staging.copies[root / "b.pdf"].pid and not staging.copies[root / "b.pdf"].job
        staging.copies[root / "b.pdf"].wait()
        assert (staging.copies[root / "b.pdf"].path).read_bytes() == bytes(doc)
        assert staging.copier.pid == 0  # (its end seen, waited for)
    assert not (root / STAGING).exists()


KILLED = textwrap.dedent("""\
    import os, signal, sys
    from pnpgen.children import forked_end_with_parent
    from pnpgen.engine.stagecopy import Copier
    from pnpgen.pdf.assemble import PdfFile, Stored

    forked_end_with_parent()  # as the command does at its start (cli.console)
    copier = Copier.fork()
    fd = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT, 0o600)
    copier.copy(fd, PdfFile((b"%PDF head", Stored(sys.argv[1], 10))))  # (its part never opens)
    print(copier.pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
""")


def test_the_copier_ends_with_the_build_killed_alone(tmp_path):
    """The build killed alone (SIGKILL, the out-of-memory killer) while the copier copies: the
    copier ends too, not left copying (or waiting on a file) with the caller's output pipe held."""
    script, fifo = tmp_path / "killed.py", tmp_path / "fifo"
    script.write_text(KILLED, encoding="utf-8")
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, str(script), str(fifo), str(tmp_path / "staged")], env=child_env(),
                            stdout=subprocess.PIPE, text=True)
    copier = 0
    try:
        assert proc.stdout is not None
        copier = int(proc.stdout.readline())
        assert proc.wait(timeout=60) == -signal.SIGKILL
        end = time.monotonic() + 30
        while Path(f"/proc/{copier}").exists() and "Z" not in _state(copier) and time.monotonic() < end:
            time.sleep(0.02)
        assert not Path(f"/proc/{copier}").exists() or "Z" in _state(copier)
        assert proc.stdout.read() == ""  # nothing holds the output pipe any more
    finally:
        if copier:
            with contextlib.suppress(OSError):
                os.kill(copier, signal.SIGKILL)


def _state(pid: int) -> str:
    """A process's state letter (``Z``: a zombie), "" once it is gone."""
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (OSError, IndexError):
        return ""
