"""A file of the designer's own where a build writes one (a ``reprint.pdf`` put there by hand, an
``order.csv``, a deck's PDF saved again from a viewer, a link) was written over like any output:
pnpgen replaces only what it wrote, so the build stops naming it, exit 2, and keeps it — the same
rule for every name, with a machine key or without (``PNPGEN_CACHE=off``: ``.cache/written``)
(hostile46, fixes47)."""

from __future__ import annotations

import pytest
from conftest import make_workspace, run

MINE = b"%PDF-1.4 the designer's own\n"


def _count(ws, count: int) -> None:
    """カード1's copies: a build that changes a piece writes reprint.pdf, the sheets, the shop files."""
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    lines = [line for line in deck.read_text(encoding="utf-8").splitlines() if "カード1" not in line]
    deck.write_text("\n".join(lines) + f"\n  - {{name: カード1, text: 本文, count: {count}}}\n", encoding="utf-8")


@pytest.mark.parametrize("keyless", [False, True])
@pytest.mark.parametrize("name", ["reprint.pdf", "shop/order.csv", "cards.pdf"])
def test_a_designers_own_file_at_an_output_name_is_kept_and_the_build_stops(tmp_path, capsys, monkeypatch,
                                                                            name, keyless):
    if keyless:
        monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    mine = out / name
    mine.write_bytes(MINE)  # put there by hand: a copy to print, notes, a viewer's save
    _count(ws, 3)  # a build that changes a piece: it writes reprint.pdf, the sheets, the shop files
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert f"build/test/{name}: not a file pnpgen wrote (yours, or changed since it wrote it)" in err, err
    assert "renamed or moved out of" in err and "--out DIR" in err and "Traceback" not in err
    assert mine.read_bytes() == MINE
    for rel, data in before.items():  # nothing else written: the last good set stays whole
        if rel.as_posix() != name:
            assert (out / rel).read_bytes() == data, rel
    mine.rename(tmp_path / "mine")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (out / "reprint.pdf").read_bytes().startswith(b"%PDF") and (out / name).read_bytes() != MINE


def test_a_link_at_an_output_name_is_kept(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    elsewhere = tmp_path / "mine.pdf"
    elsewhere.write_bytes(MINE)
    (ws / "build" / "test" / "reprint.pdf").symlink_to(elsewhere)
    _count(ws, 2)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert "build/test/reprint.pdf: not a file pnpgen wrote (a link" in capsys.readouterr().err
    assert (ws / "build" / "test" / "reprint.pdf").is_symlink() and elsewhere.read_bytes() == MINE


def test_a_file_holding_what_the_build_writes_and_a_folder_without_records_are_built(tmp_path):
    """The same bytes are no one's loss; a folder whose records are gone (``build/.cache``
    deleted, always safe) has its outputs made again, as docs/rebuilding.md says."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    (out / "copy.pdf").write_bytes((out / "cards.pdf").read_bytes())
    (out / "cards.pdf").unlink()
    (out / "copy.pdf").rename(out / "cards.pdf")  # another file, the same bytes
    _count(ws, 2)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    from conftest import remove_tree
    remove_tree(ws / "build" / ".cache")
    (out / "cards.pdf").write_bytes(MINE)
    _count(ws, 3)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (out / "cards.pdf").read_bytes() != MINE
