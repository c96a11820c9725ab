"""A file of the build folder may share its bytes with a file elsewhere: a hard link, as
``cp -al`` makes for a quick copy of a workspace (or a planted folder from a stranger's zip).
pnpgen writes every file of its own anew, never into the bytes a link shares."""

from __future__ import annotations

import os

from conftest import make_workspace, run


def test_a_hard_linked_file_table_is_replaced_not_written_through(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    table = ws / "build" / ".cache" / "hashes" / "files.json"
    assert table.is_file()
    victim = tmp_path / "elsewhere.txt"
    victim.write_text("the designer's own notes\n", encoding="utf-8")
    table.unlink()
    os.link(victim, table)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "  - {name: 新しいカード, text: 本文}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert victim.read_text(encoding="utf-8") == "the designer's own notes\n"
    assert table.stat().st_nlink == 1 and b'"format": 2' in table.read_bytes()


def test_a_hard_linked_copy_of_a_workspace_leaves_the_first_one_as_it_was(tmp_path):
    first = make_workspace(tmp_path / "first")
    assert run(first, "build", "--game", "test", "--no-rulebook") == 0
    before = {p: p.read_bytes() for p in (first / "build").rglob("*") if p.is_file() and not p.is_symlink()}
    second = tmp_path / "second"
    for path in first.rglob("*"):  # cp -al: folders made, files linked
        to = second / path.relative_to(first)
        if path.is_symlink():
            to.parent.mkdir(parents=True, exist_ok=True)
            to.symlink_to(os.readlink(path))
        elif path.is_dir():
            to.mkdir(parents=True, exist_ok=True)
        else:
            to.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, to)
    deck = second / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.unlink()  # an editor's save: a new file
    deck.write_text(text + "  - {name: 新しいカード, text: 本文}\n", encoding="utf-8")
    assert run(second, "build", "--game", "test", "--no-rulebook") == 0
    assert {p: p.read_bytes() for p in before} == before
