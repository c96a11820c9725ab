"""A build folder can come with a commit journal (``.pnpgen-journal``) and a staging folder, as a
killed run leaves them, from elsewhere: the next run rolls it forward, so what it names must never
move or remove a file outside the output folder. Staged files come only from a real folder of the
output folder's own (a staging folder that is a link to elsewhere would move that folder's files
in), and every target is a plain path below it, with no link on the way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_workspace, run


def _journal(out: Path, moves: list, remove: list) -> None:
    (out / ".pnpgen-journal").write_text(json.dumps({"version": 1, "moves": moves, "remove": remove, "token": "a1"}),
                                         encoding="utf-8")


PLANTS = {
    "staging is a link out": lambda out, outside: (
        (out / ".pnpgen-staging").symlink_to(outside), _journal(out, [["1", "test/moved-in.txt"]], [])),
    "removal through ..": lambda out, outside: _journal(out, [], ["../outside/1"]),
    "removal of an absolute path": lambda out, outside: _journal(out, [], [str(outside / "1")]),
    "removal through a linked folder": lambda out, outside: (
        (out / "test" / "elsewhere").symlink_to(outside), _journal(out, [], ["test/elsewhere/1"])),
    "move through a linked folder": lambda out, outside: (
        (out / ".pnpgen-staging").mkdir(), (out / ".pnpgen-staging" / "1").write_text("planted"),
        (out / "test" / "elsewhere").symlink_to(outside), _journal(out, [["1", "test/elsewhere/1"]], [])),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_a_planted_journal_moves_and_removes_nothing_outside_the_output_folder(tmp_path, plant):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "1").write_text("the designer's own file", encoding="utf-8")
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build"
    PLANTS[plant](out, outside)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (outside / "1").read_text(encoding="utf-8") == "the designer's own file"
    assert sorted(p.name for p in outside.iterdir()) == ["1"]
    assert not (out / "test" / "moved-in.txt").exists()
    assert not (out / ".pnpgen-journal").exists() and not (out / ".pnpgen-staging").exists()
