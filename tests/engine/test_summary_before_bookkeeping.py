"""A build's summary is said as soon as its files are in place (a watch save's "populous: …" line
waits for the last file, not for the caches' bookkeeping after it): the unused cache entries
pruned and the files' hashes saved come after the summary, under the same build lock."""

from __future__ import annotations

from conftest import make_workspace, run
from pnpgen import commands
from pnpgen.engine.cache import Cache
from pnpgen.engine.fingerprint import FileHashes


def test_the_summary_comes_before_the_prune_and_the_hashes(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    events: list[str] = []
    say, prune, save = commands.print_line, Cache.prune, FileHashes.save

    def saying(text: str) -> None:
        if text.startswith("test: "):  # the summary line: the files are in place by now
            events.append(f"summary {(root / 'build' / 'test' / 'cards.pdf').is_file()}")
        say(text)

    monkeypatch.setattr(commands, "print_line", saying)
    monkeypatch.setattr(Cache, "prune", lambda self, *a, **k: events.append("prune") or prune(self, *a, **k))
    monkeypatch.setattr(FileHashes, "save", lambda self, *a, **k: events.append("hashes") or save(self, *a, **k))
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert events == ["summary True", "prune", "hashes"]
    # a save: a card's text edited, the same order; nothing up to date is said twice
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1", "本文カード1改", 1), encoding="utf-8")
    events.clear()
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert events == ["summary True", "prune", "hashes"]
    events.clear()
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0  # up to date: nothing built, said once
    assert events.count("summary True") == 1 and "prune" not in events


def test_bookkeeping_that_fails_after_the_summary_is_a_warning_after_it(tmp_path, monkeypatch, capsys):
    """The summary said the build was done, then the prune failed (an unused entry in a folder it
    may not change): a PermissionError traceback, exit 1, under the summary. The files are in
    place and good; each step of the bookkeeping is tried, and one that fails is a warning after
    the summary saying what it leaves for the next build; exit 0; the next build is up to date."""
    from pypdf import PdfReader

    root = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    saved: list[bool] = []
    save = FileHashes.save

    def denied(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self.root / "faces" / "7c"))

    monkeypatch.setattr(Cache, "prune", denied)
    monkeypatch.setattr(FileHashes, "save", lambda self: saved.append(True) or save(self))
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    said = capsys.readouterr()
    assert said.out.startswith("test: ") and "Traceback" not in said.err
    assert said.err == ("pnpgen: warning: test: built, its files in place, but not the cache's unused entries removed "
                        "([Errno 13] Permission denied: 'build/.cache/faces/7c'): the next build removes them\n")
    assert saved == [True]  # the steps after it still done
    assert len(PdfReader(root / "build" / "test" / "cards.pdf").pages) == 2
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert capsys.readouterr().out == "test: up to date (build/test)\n"
