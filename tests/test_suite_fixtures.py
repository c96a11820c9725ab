"""The suite's own fixtures where they replace pytest's (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

SEEN: list[Path] = []


@pytest.mark.parametrize("n", [1, 2])
def test_each_test_gets_a_new_empty_folder_of_its_own_in_the_runs_temporary_folder(tmp_path, tmp_path_factory, n):
    assert tmp_path.is_dir() and not any(tmp_path.iterdir())
    assert tmp_path.parent == tmp_path_factory.getbasetemp()
    assert "test_each_test_gets_a_new_emp" in tmp_path.name
    assert tmp_path not in SEEN
    SEEN.append(tmp_path)
    (tmp_path / "left.txt").write_text("what the next test must not see", encoding="utf-8")


def test_built_shared_builds_each_workspace_once_and_hands_every_test_the_same(built_shared):
    args = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
    one = built_shared(*args, pieces=["カード1"])
    assert (one / "build" / "test" / "cards.pdf").is_file()
    assert built_shared(*args, pieces=["カード1"]) == one  # asked again: the same folder, not built again
    other = built_shared(*args, pieces=["カード2"])
    assert other != one and "カード2" in (other / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8")
