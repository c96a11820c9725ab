"""The history (``build/.history/``) can come from elsewhere with a build folder: what ``pnpgen
log``, ``diff`` and ``tag`` print from it is escaped, so a planted entry's terminal control
sequences (a window title, a cleared screen, colours, a right-to-left override) never reach the
terminal; ``diff --format json`` stays JSON with the same values.

Each entry is sealed with this machine's key, its hash alone proving nothing (anyone computes it
again). An entry this machine did not seal — planted, the designer's own from another machine,
an earlier pnpgen's, one whose body was edited and its hash computed again, one of another game's
history — is still shown by ``log`` and ``diff`` (it may be the designer's own history), marked,
with one warning line; ``reprint --since`` refuses it in one line and writes nothing. The first
build here records the game as it is, sealed here. Another machine is another ``PNPGEN_CACHE``
here (its own key)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import FEW_CARDS, forked_cli, make_workspace, run
from pnpgen import usercache
from pnpgen.engine import history

PLANTED = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\u202e\nv9     2026-12-24T00:00:00Z  draft 9"
BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "--quiet")
NAMES = [f"カード{i}" for i in range(1, 6)]
ELSEWHERE = "(not written on this machine)"


@pytest.fixture(autouse=True)
def _machine(tmp_path, monkeypatch):
    """This machine's cache (and key) of the test's own."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "mine"))


def _plant(ws) -> None:
    entry = sorted((ws / "build" / ".history" / "test").glob("v*.json"))[-1]
    outer = json.loads(entry.read_text(encoding="utf-8"))
    body = outer["body"]
    body["time"] = PLANTED

    def poison(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if isinstance(v, str) and "本文" in v:
                    o[k] = v + PLANTED
                else:
                    poison(v)
        elif isinstance(o, list):
            for x in o:
                poison(x)

    poison(body)
    outer["check"] = hashlib.sha256(json.dumps(body, ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    entry.write_text(json.dumps(outer, ensure_ascii=False, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    (entry.parent / "tags.json").write_text(json.dumps({PLANTED: 1}), encoding="utf-8")


def test_a_planted_history_prints_no_control_sequence(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "本文カード一}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    _plant(ws)
    capsys.readouterr()
    for args in (["log"], ["diff"], ["diff", "--format", "json"], ["tag", "latest-seen"]):
        assert run(ws, *args, "--game", "test") == 0
        out = capsys.readouterr().out
        assert not any(c in out for c in "\x1b\x07\x9b\u202e"), args
        assert "PWNED" in out or args[0] == "tag"  # shown, as text
        if args[0] == "log":  # one line a version: a line break in the time made a version line of its own
            assert len(out.splitlines()) == 2 and "\\nv9 " in out, out
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["to"]["time"] == PLANTED  # the same value, escaped as JSON


def _edit(ws: Path, old: str, new: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new), encoding="utf-8")


def _two_versions(ws: Path) -> Path:
    """v1, then v2 with one more カード2: the history folder."""
    assert run(ws, *BUILD) == 0
    _edit(ws, "text: 本文カード2}", "text: 本文カード2, count: 2}")
    assert run(ws, *BUILD) == 0
    folder = ws / "build" / ".history" / "test"
    assert sorted(p.name for p in folder.iterdir()) == ["v00001.json", "v00002.json"]
    return folder


def _reprint_refused(ws: Path, version: str, capsys) -> str:
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", version) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not list((ws / "build" / "test").glob("reprint-since-*"))  # nothing written
    return err


def test_a_history_from_another_machine_is_shown_marked_and_not_relied_on(tmp_path, monkeypatch, capsys):
    ws = make_workspace(tmp_path / "ws", NAMES)
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "theirs"))
    _two_versions(ws)  # recorded on another machine (or planted: the same thing here)
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "mine"))
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert [ln.split()[0] for ln in lines] == ["v2", "v1"] and all(ln.endswith(ELSEWHERE) for ln in lines)
    assert err.count("\n") == 1 and err.startswith("pnpgen: warning: build/.history/test/: v2, v1 were not written "
                                                    "on this machine (") and "reprint --since' does not rely" in err
    assert run(ws, "diff", "--game", "test") == 0  # still the designer's changelog
    out, err = capsys.readouterr()
    assert "- カード2：×1 → ×2" in out and ELSEWHERE not in out
    assert err.count("\n") == 1 and "v1, v2 were not written on this machine" in err
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    d = json.loads(capsys.readouterr().out)
    assert d["from"]["written_here"] is False and d["to"]["written_here"] is False
    err = _reprint_refused(ws, "v1", capsys)
    assert err.startswith("pnpgen: error: build/.history/test/v00001.json: --since: v1 was not written on this machine")
    assert "pnpgen diff --game test v1 latest" in err
    assert run(ws, "tag", "--game", "test", "old-playtest", "v2") == 0  # named, and said once
    out, err = capsys.readouterr()
    assert out.startswith("test: old-playtest = v2 (") and err.count("\n") == 1 and ": v2 was not written" in err

    assert run(ws, *BUILD) == 0  # the first build here: the game as it is, sealed here (v2's content)
    _edit(ws, "text: 本文カード4}", "text: 書き直した}")
    assert run(ws, *BUILD) == 0  # v4
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    out, err = capsys.readouterr()
    assert [(ln.split()[0], ln.endswith(ELSEWHERE)) for ln in out.splitlines()] == [
        ("v4", False), ("v3", False), ("v2", True), ("v1", True)]
    hashes = [ln.split()[4] for ln in out.splitlines()]
    assert hashes[1] == hashes[2] and hashes[1].startswith("#") and len(set(hashes)) == 3  # v3 is v2's content
    assert err.count("\n") == 1 and ": v2, v1 were not written" in err
    assert run(ws, "diff", "--game", "test", "v3", "v4") == 0
    assert capsys.readouterr().err == ""  # versions of this machine's: no warning
    assert run(ws, "tag", "--game", "test", "playtest-4", "v3") == 0
    assert capsys.readouterr().err == ""
    assert run(ws, "reprint", "--game", "test", "--since", "playtest-4") == 0
    said = (ws / "build" / "test" / "reprint-since-v3.txt").read_text(encoding="utf-8")
    assert "1 × カード4" in said and "1 × カード4（古い版）" in said


def _tampered(entry: Path) -> dict:
    outer = json.loads(entry.read_text(encoding="utf-8"))
    outer["body"]["decks"]["cards"]["pieces"]["2:カード2"][0] = 40
    outer["body"]["counts"]["cards"] = 45
    return outer


def _rehashed(outer: dict) -> bytes:
    outer["check"] = hashlib.sha256(json.dumps(outer["body"], ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    return json.dumps(outer, ensure_ascii=False, sort_keys=True, indent=1).encode()


# Entries this machine did not seal, as anyone can write them into the history folder.
NOT_SEALED_HERE = {
    "its body edited, its hash computed again": lambda entry: _rehashed(_tampered(entry)),
    "its body edited, hash and seal computed again without the key": lambda entry: _rehashed(
        _tampered(entry) | {"seal": hashlib.sha256(json.dumps(_tampered(entry)["body"], ensure_ascii=False,
                                                              sort_keys=True).encode()).hexdigest()}),
    "an earlier pnpgen's (no seal)": lambda entry: _rehashed(
        {k: v for k, v in json.loads(entry.read_text(encoding="utf-8")).items() if k != "seal"}),
    "sealed here, as a version of another game": lambda entry: history.encode(
        json.loads(entry.read_text(encoding="utf-8"))["body"], "other-game"),
}


@pytest.mark.parametrize("kind", sorted(NOT_SEALED_HERE))
def test_an_entry_this_machine_did_not_seal_is_marked_and_refused(tmp_path, kind, capsys):
    ws = make_workspace(tmp_path / "ws", NAMES)
    folder = _two_versions(ws)
    entry = folder / "v00002.json"
    entry.write_bytes(NOT_SEALED_HERE[kind](entry))
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    out, err = capsys.readouterr()
    assert [(ln.split()[0], ln.endswith(ELSEWHERE)) for ln in out.splitlines()] == [("v2", True), ("v1", False)]
    assert err.count("\n") == 1 and "build/.history/test/: v2 was not written on this machine" in err
    assert "v2 was not written on this machine" in _reprint_refused(ws, "v2", capsys)
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0  # the genuine one: relied on


def test_a_genuine_entry_is_not_marked_and_one_damaged_is_skipped(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", NAMES)
    folder = _two_versions(ws)
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    out, err = capsys.readouterr()
    assert err == "" and [ln.split()[0] for ln in out.splitlines()] == ["v2", "v1"] and ELSEWHERE not in out
    entry = folder / "v00002.json"
    entry.write_bytes(json.dumps(_tampered(entry), ensure_ascii=False, sort_keys=True).encode())  # hash not redone
    assert run(ws, "log", "--game", "test") == 0
    out, err = capsys.readouterr()
    assert err == "" and [ln.split()[:2] for ln in out.splitlines()][0] == ["v2", "damaged:"] and out.count("damaged") == 1
    entry = folder / "v00001.json"
    entry.write_bytes(json.dumps(_tampered(entry), ensure_ascii=False, sort_keys=True).encode())
    assert run(ws, "diff", "--game", "test") == 2  # every version damaged: said so, not "no recorded version"
    assert "build/.history/test/v00002.json: version: every recorded version of 'test' (the latest, v2, at this " \
        "file) is damaged" in capsys.readouterr().err


# Entries whose hash checks but that hold what pnpgen never writes: skipped as damaged (log, diff
# and reprint read an entry's values without a further check).
MISSHAPEN = {
    "pieces a list": lambda body: body["decks"]["cards"].update(pieces=[1, 2]),
    "a count as text": lambda body: body["counts"].update(cards="5"),
    "a pair too short": lambda body: body["decks"]["cards"]["pairs"].append([1]),
    "a piece's count as a list": lambda body: body["decks"]["cards"]["pieces"]["1:カード1"].__setitem__(0, [1]),
    "a deck a number": lambda body: body["decks"].update(cards=7),
}


@pytest.mark.parametrize("kind", sorted(MISSHAPEN))
def test_a_misshapen_entry_is_skipped_without_a_traceback(tmp_path, kind, capsys):
    ws = make_workspace(tmp_path / "ws", NAMES)
    folder = _two_versions(ws)
    entry = folder / "v00002.json"
    outer = json.loads(entry.read_text(encoding="utf-8"))
    MISSHAPEN[kind](outer["body"])
    entry.write_bytes(_rehashed(outer))
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    assert [ln.split()[:2] for ln in capsys.readouterr().out.splitlines()][0] == ["v2", "damaged:"]
    for args in (["diff", "v1", "v2"], ["reprint", "--since", "v2"]):
        assert run(ws, *args, "--game", "test") == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "version 'v2' is damaged" in err and "Traceback" not in err


def test_without_a_machine_key_each_run_records_no_version_twice_and_says_why_it_cannot_rely(
        tmp_path, monkeypatch, capsys):
    """PNPGEN_CACHE=off: entries are sealed under the running process's key, which the next run
    does not have. A build in another process finds the same content recorded and records no
    duplicate; reprint --since says why it cannot rely on an earlier run's version."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = make_workspace(tmp_path / "ws", NAMES)
    assert run(ws, *BUILD) == 0
    monkeypatch.setattr(usercache, "PROCESS_SECRET", b"another run".ljust(32, b"."))  # a new process
    assert run(ws, *BUILD) == 0  # built in full (nothing trusted from the last run), nothing changed
    folder = ws / "build" / ".history" / "test"
    assert [p.name for p in folder.iterdir()] == ["v00001.json"]
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    out, err = capsys.readouterr()
    assert out.rstrip().endswith(ELSEWHERE) and "PNPGEN_CACHE=off" in err
    assert "PNPGEN_CACHE=off" in _reprint_refused(ws, "v1", capsys)


def test_hostile_files_in_the_history_are_skipped_bounded_and_never_followed(tmp_path, capsys):
    """Files planted in build/.history/<game>/: JSON nested 200,000 deep (a RecursionError
    traceback in log and in every later build), a FIFO (log and build waited for ever), an entry
    larger than MAX_ENTRY (read whole: 2.8 GB), a name of 249 nines (the next version's name was
    too long to write, every build stopped), a damaged tags.json (the next tag wrote over it) —
    each is skipped, read within bounds or refused in one line; the history reached through a
    link is refused by log and tag, its target untouched."""
    import os

    ws = make_workspace(tmp_path / "ws", pieces=NAMES)
    assert run(ws, *BUILD) == 0
    folder = ws / "build" / ".history" / "test"
    (folder / "v00003.json").write_text("[" * 200_000 + "]" * 200_000)
    os.mkfifo(folder / "v00004.json")
    with open(folder / "v00005.json", "wb") as f:
        f.truncate(history.MAX_ENTRY + 1)
    (folder / ("v" + "9" * 249 + ".json")).touch()
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード5}", "カード5, count: 2}"), encoding="utf-8")
    for args in (["log", "--game", "test"], [*BUILD], ["log", "--game", "test"]):  # in a child: a hang is killed (-9)
        code, err = forked_cli(ws, *args, timeout=60)
        assert code == 0 and "Traceback" not in err, (args, code, err)
    assert [v.number for v in history.versions(ws / "build", "test")] == [1, 6]
    (folder / "tags.json").write_text('{"pt1": true}')
    capsys.readouterr()
    assert run(ws, "tag", "--game", "test", "pt2", "v1") == 2
    assert "tags.json: the tags file is damaged" in capsys.readouterr().err
    assert (folder / "tags.json").read_text() == '{"pt1": true}'  # not written over
    theirs = tmp_path / "their-tags.json"
    theirs.write_text('{"mine": 1}')
    (folder / "tags.json").rename(tmp_path / "damaged.json")
    (folder / "tags.json").symlink_to(theirs)  # it said "damaged (not names of versions)"
    assert run(ws, "tag", "--game", "test", "pt2", "v1") == 2
    assert "tags.json: the tags file is a link, which pnpgen never writes" in capsys.readouterr().err
    assert theirs.read_text() == '{"mine": 1}' and (folder / "tags.json").is_symlink()
    (folder / "tags.json").unlink()
    (tmp_path / "damaged.json").rename(folder / "tags.json")
    outside = tmp_path / "elsewhere"
    (ws / "build" / ".history").rename(outside)
    (ws / "build" / ".history").symlink_to(outside)
    for args in (["log", "--game", "test"], ["tag", "--game", "test", "pt3", "v1"]):
        assert run(ws, *args) == 2
        assert "build/.history: is a link" in capsys.readouterr().err
    assert (outside / "test" / "tags.json").read_text() == '{"pt1": true}'


def test_a_tag_naming_a_version_the_history_lost_and_a_misspelt_game_are_one_line(tmp_path, capsys):
    """``{"pt1": 99}`` (the version removed or damaged) says so, naming the tags file, not "no
    version 'pt1' (expected one of …, pt1)"; ``log`` of a misspelt game exits 2 suggesting the
    real one (it said "no recorded version yet", exit 0)."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES)
    assert run(ws, *BUILD) == 0
    (ws / "build" / ".history" / "test" / "tags.json").write_text('{"pt1": 99}')
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "pt1") == 2
    err = capsys.readouterr().err
    assert "tags.json: version: tag 'pt1' names v99, which the history does not hold" in err and err.count("\n") == 1, err
    assert run(ws, "log", "--game", "tset") == 2
    assert "unknown game 'tset'; did you mean test?" in capsys.readouterr().err


@pytest.mark.parametrize("planted", ['{"v1": 2}', '{"1": 2}', '{"previous": 2, "pt1": 1}'])
def test_a_tags_file_naming_a_version_by_another_version_s_name_is_damaged(tmp_path, capsys, planted):
    """A tags.json holding ``"v1": 2`` (hand-edited, or from elsewhere — 'pnpgen tag' refuses such
    a name): 'reprint --since v1' reprinted since v2 ("no copy changed") and missed v2's new copy;
    'diff v1 v2' compared v2 with itself. A version's own name is never taken over by a tag."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES)
    folder = _two_versions(ws)
    (folder / "tags.json").write_text(planted)
    since = "previous" if "previous" in planted else "v1" if "v1" in planted else "1"
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", since) == 0
    assert "カード2" in (ws / "build" / "test" / "reprint-since-v1.txt").read_text(encoding="utf-8")
    assert run(ws, "log", "--game", "test") == 0
    assert "previous" not in capsys.readouterr().out
    assert run(ws, "tag", "--game", "test", "pt2", "v2") == 2  # a damaged file is not written over
    assert "tags.json: the tags file is damaged" in capsys.readouterr().err
    assert (folder / "tags.json").read_text() == planted


def test_a_link_planted_in_an_entry_s_name_is_neither_read_nor_replaced(tmp_path):
    """build/.history/<game>/v00002.json a link to a file outside (a zip's planted history): never
    read, and the next build's version took its number, the commit putting the entry in the link's
    place; the link is not pnpgen's to remove: the version is v3 (hostile36)."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES)
    assert run(ws, *BUILD) == 0
    outside = tmp_path / "theirs.json"
    outside.write_text('{"mine": 1}')
    link = ws / "build" / ".history" / "test" / "v00002.json"
    link.symlink_to(outside)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード5}", "カード5, count: 2}"), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    assert link.is_symlink() and outside.read_text() == '{"mine": 1}'
    assert [v.number for v in history.versions(ws / "build", "test")] == [1, 3]
