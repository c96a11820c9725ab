"""A file of the designer's own where a build writes one under a name the last build did not write
(a ``reprint.pdf`` put there by hand beside a build that wrote none, a new deck's PDF, a link) was
written over like any output: pnpgen replaces only what it wrote, so the build stops naming it,
exit 2, and keeps it — the same rule for every name, with a machine key or without
(``PNPGEN_CACHE=off``: ``.cache/written``) (hostile46, fixes47). A name the last build wrote is
its own to write again (test_engine: an output changed since is written again as it was)."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, make_workspace, remove_tree, run

MINE = b"%PDF-1.4 the designer's own\n"


def _count(ws, count: int) -> None:
    """カード1's copies: a build that changes a piece writes reprint.pdf, the sheets, the shop files."""
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    lines = [line for line in deck.read_text(encoding="utf-8").splitlines() if "カード1" not in line]
    deck.write_text("\n".join(lines) + f"\n  - {{name: カード1, text: 本文, count: {count}}}\n", encoding="utf-8")


def _new_deck(ws, count: int) -> None:
    """A deck 'extra' added: the build writes extra.pdf and shop/extra*.pdf."""
    (ws / "data" / "test" / "decks" / "extra.yaml").write_text(
        DECK_YAML.replace("テストカード", "追加") + "  - {name: 追加1, text: t}\n", encoding="utf-8")


@pytest.mark.parametrize("keyless", [False, True])
@pytest.mark.parametrize("name", ["reprint.pdf", "extra.pdf", "shop/extra-unique.pdf"])
def test_a_designers_own_file_at_an_output_name_is_kept_and_the_build_stops(tmp_path, capsys, monkeypatch,
                                                                            name, keyless):
    if keyless:
        monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    assert not (out / "reprint.pdf").exists()  # (a first build: nothing to reprint)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    mine = out / name
    mine.write_bytes(MINE)  # put there by hand: a copy to print, notes
    _count(ws, 3)  # a piece changed: reprint.pdf; a deck added: its files
    _new_deck(ws, 1)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert f"build/test/{name}: not a file pnpgen wrote (yours), where this build writes one" in err, err
    assert "renamed or moved out of build/test/" in err and "--out DIR" in err and "Traceback" not in err
    assert mine.read_bytes() == MINE
    for rel, data in before.items():  # nothing else written: the last good set stays whole
        assert (out / rel).read_bytes() == data, rel
    mine.rename(tmp_path / "mine")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (out / "reprint.pdf").read_bytes().startswith(b"%PDF-") and (out / name).read_bytes() != MINE


def test_a_link_at_an_output_name_is_kept(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    elsewhere = tmp_path / "mine.pdf"
    elsewhere.write_bytes(MINE)
    (ws / "build" / "test" / "reprint.pdf").symlink_to(elsewhere)
    _count(ws, 2)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert "build/test/reprint.pdf: not a file pnpgen wrote (a link)" in capsys.readouterr().err
    assert (ws / "build" / "test" / "reprint.pdf").is_symlink() and elsewhere.read_bytes() == MINE


def test_a_folder_without_records_is_built(tmp_path):
    """A folder whose records are gone (``build/.cache`` deleted, always safe) has its outputs
    made again, as docs/rebuilding.md says."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    remove_tree(ws / "build" / ".cache")
    (out / "reprint.pdf").write_bytes(MINE)
    _count(ws, 3)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (out / "reprint.pdf").read_bytes() != MINE


def test_a_pipe_at_an_output_name_is_kept_and_never_read(tmp_path, capsys):
    """A FIFO where reprint.pdf goes was replaced without a word (reading it to compare would hang)."""
    import os

    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    os.mkfifo(ws / "build" / "test" / "reprint.pdf")
    _count(ws, 2)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert "build/test/reprint.pdf: not a file pnpgen wrote (a pipe or a device)" in capsys.readouterr().err
    assert not (ws / "build" / "test" / "reprint.pdf").is_file()


def test_an_export_keeps_a_designers_own_file_at_its_output_names(tmp_path, capsys):
    """``pnpgen export`` wrote over a file of the designer's at a name its last export did not write
    (a new deck's ``extra.pdf``), and removed one put in place of a file it had written when that
    deck went: the build's rule, for exports too (left47)."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    out = ws / "build" / "test" / "doujin"
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "-q") == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "extra.pdf").write_bytes(MINE)
    _new_deck(ws, 1)
    capsys.readouterr()
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "-q") == 2
    err = capsys.readouterr().err
    assert "build/test/doujin/extra.pdf: not a file pnpgen wrote (yours), where this export writes one: kept as it " \
        "is, nothing written" in err and "the same export again; or the export written elsewhere, --out DIR" in err, err
    assert (out / "extra.pdf").read_bytes() == MINE
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != "extra.pdf"} == before
    (out / "extra.pdf").unlink()
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "-q") == 0
    assert (out / "extra.pdf").read_bytes().startswith(b"%PDF-")
    (out / "extra.pdf").write_bytes(MINE)  # put in the place of the file the export wrote
    (ws / "data" / "test" / "decks" / "extra.yaml").unlink()
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "-q") == 0
    assert (out / "extra.pdf").read_bytes() == MINE  # not the export's any more: kept, though its deck went
