"""A build folder from elsewhere (a collaborator's zip, a shared drive, a commit) is rebuilt, never
replayed: every record pnpgen keeps in ``build/.cache/`` is sealed with this machine's key
(``usercache.seal``), so one written anywhere else — whose checks, plain hashes, anyone can make
again — is not trusted. Another machine is another ``PNPGEN_CACHE`` here (its own key); what the
"collaborator" plants is sealed with theirs, as a planted file can be."""

from __future__ import annotations

import hashlib
import json
import marshal
import shutil
from pathlib import Path

import pytest

from conftest import FEW_CARDS, make_workspace, run
from pnpgen.usercache import seal


def _as_machine(monkeypatch, folder: Path) -> None:
    monkeypatch.setenv("PNPGEN_CACHE", str(folder))


def _reseal_pack(pack: Path, change) -> None:
    """A pack (header line, then a line per record: ``[key, value]``, or its records as one
    ``marshal`` value: engine/cache.py ``WHOLE``) with ``change`` made to its records, sealed as
    the machine in use seals it."""
    head, _, text = pack.read_bytes().partition(b"\n")
    whole = json.loads(head).get("format") == "marshal"
    records = marshal.loads(text) if whole else dict(json.loads(line) for line in text.split(b"\n"))
    change(records)
    text = marshal.dumps(records, 2) if whole else b"\n".join(
        json.dumps([k, v], sort_keys=True, ensure_ascii=False).encode() for k, v in sorted(records.items()))
    pack.write_bytes(json.dumps(json.loads(head) | {"check": seal(text)}, sort_keys=True).encode() + b"\n" + text)


def _cold(ws: Path, tmp_path: Path) -> bytes:
    cold = tmp_path / "cold"
    shutil.copytree(ws, cold, symlinks=True, ignore=shutil.ignore_patterns("build"))
    assert run(cold, "build", "--game", "test", "--no-rulebook") == 0
    return (cold / "build" / "test" / "cards.pdf").read_bytes()


def _edit(ws: Path) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "本文カード一}"), encoding="utf-8")


def test_rendered_faces_planted_in_a_build_folder_from_elsewhere_are_not_replayed(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _as_machine(monkeypatch, tmp_path / "theirs")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    packs = list((ws / "build" / ".cache" / "renders").glob("*.pack.json"))
    assert packs

    def green(records: dict) -> None:  # every face their templates did not draw: a green card
        for record in records.values():
            if isinstance(record, dict) and isinstance(record.get("svg"), str):
                record["svg"] = record["svg"].replace("#cc3333", "#00ff00")

    for pack in packs:
        _reseal_pack(pack, green)
    _as_machine(monkeypatch, tmp_path / "mine")
    _edit(ws)  # a face to draw: the others would come from the pack
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    built = (ws / "build" / "test" / "cards.pdf").read_bytes()
    assert built == _cold(ws, tmp_path)


def test_an_output_planted_with_its_record_in_a_build_folder_from_elsewhere_is_made_again(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _as_machine(monkeypatch, tmp_path / "theirs")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    planted = (out / "cards.pdf").read_bytes().replace(b"/PageMode /UseNone",
                                                      b"/PageMode /UseNone /OpenAction << /S /JavaScript /JS (app.alert(1)) >>")
    assert planted != (out / "cards.pdf").read_bytes()
    (out / "cards.pdf").write_bytes(planted)
    digest = hashlib.sha256(planted).hexdigest()
    state = ws / "build" / ".cache" / "test.json"  # the record that says the file is as written
    outer = json.loads(state.read_bytes())
    outer["body"]["files"]["cards.pdf"] = digest
    outer["body"]["documents"]["cards.pdf"]["sha"] = digest
    outer["check"] = seal(json.dumps(outer["body"], ensure_ascii=False, sort_keys=True).encode())
    state.write_bytes(json.dumps(outer, ensure_ascii=False, sort_keys=True).encode())
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # on their machine: up to date
    assert (out / "cards.pdf").read_bytes() == planted
    _as_machine(monkeypatch, tmp_path / "mine")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert b"JavaScript" not in (out / "cards.pdf").read_bytes()
    assert (out / "cards.pdf").read_bytes() == _cold(ws, tmp_path)


def test_the_same_machine_still_builds_only_what_changed(tmp_path, monkeypatch, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _as_machine(monkeypatch, tmp_path / "mine")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "up to date" in capsys.readouterr().out  # its own records are trusted
    _edit(ws)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "changed: cards" in capsys.readouterr().out  # the change report reads the last build's record
    assert (tmp_path / "mine" / "secret").stat().st_mode & 0o077 == 0  # the key: its user's alone


def test_an_output_replaced_by_a_link_is_not_read_through_but_made_again(tmp_path, monkeypatch):
    """This machine's own record, and beside it an output someone replaced by a link (a shared
    drive): checking whether the output is still as written never reads through the link (to a
    FIFO, that read never ended); the link is replaced by the output."""
    import os

    from conftest import forked_cli

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _as_machine(monkeypatch, tmp_path / "mine")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    cards = ws / "build" / "test" / "cards.pdf"
    built = cards.read_bytes()
    fifo = tmp_path / "outside" / "pipe"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    cards.unlink()
    cards.symlink_to(fifo)
    code, err = forked_cli(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", timeout=60)  # (it hung: -9)
    assert code == 0, err
    assert not cards.is_symlink() and cards.read_bytes() == built


@pytest.mark.parametrize("record", ["test.json", "hashes/files.json", "renders/test.pack.json", ".pnpgen-journal"])
def test_a_fifo_planted_as_a_cache_record_is_passed_over(tmp_path, monkeypatch, record):
    """A build folder from elsewhere (a tar keeps FIFOs) with a pipe where the game's state, the
    file hashes, a pack or the commit journal is: reading it never ended, and every build,
    export, check and clean hung. It is a record that is not there: built, and replaced."""
    import os

    from conftest import forked_cli

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    _as_machine(monkeypatch, tmp_path / "mine")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    where = (ws / "build" / record) if record.startswith(".pnpgen") else ws / "build" / ".cache" / record
    where.unlink(missing_ok=True)
    os.mkfifo(where)
    for command in (["build", "--game", "test", "--no-rulebook", "--jobs", "1"],
                    ["export", "--game", "test", "--preset", "doujin"], ["clean"]):
        code, err = forked_cli(ws, *command, timeout=60)  # (it hung: -9)
        assert code == 0 and "Traceback" not in err, (command, err)

