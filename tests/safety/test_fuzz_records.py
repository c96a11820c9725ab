"""Hypothesis fuzzing of the records pnpgen reads back from an output folder and may act on: a
transaction journal and a cache state. Whatever they say, nothing outside the output folder is
touched, and nothing inside it that the record may not name."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnpgen.engine.journal import JOURNAL, STAGING, journal_bytes, recover
from pnpgen.engine.state import GameState, safe_rel
from pnpgen.engine.transaction import Staging

PARTS = st.sampled_from(["..", ".", "", "a", "b", "victim.txt", "/", "/etc", "\\", "x\0y", "~", "keep.txt"])
PATHS = st.lists(PARTS, min_size=0, max_size=4).map("/".join) | st.text(max_size=20)
JOURNALS = st.fixed_dictionaries({"version": st.sampled_from([1, 2, "1"])}, optional={
    "moves": st.lists(st.lists(PATHS | st.integers(), max_size=3), max_size=4),
    "remove": st.lists(PATHS | st.integers() | st.none(), max_size=4),
})


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(JOURNALS | st.text(max_size=40).map(lambda t: {"raw": t}))
def test_a_journal_says_what_it_likes_and_nothing_outside_the_folder_changes(journal):
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        outside = base / "victim.txt"
        outside.write_text("keep")
        (base / "etc").mkdir()
        (base / "etc" / "keep.txt").write_text("keep")
        root = base / "out" / "inner"
        staging = Staging(root)  # a staging folder as a build leaves it: its sealed record names 000000
        staging.begin()
        name = staging.name_of(root / "x", b"staged")
        staging.seal()
        (root / STAGING / name).write_bytes(b"staged")
        # sealed as this machine seals a journal: what it says is all that is wrong with it
        (root / JOURNAL).write_bytes(journal["raw"].encode() if "raw" in journal else journal_bytes(journal))
        before = {k: v for k, v in _tree(base).items() if not k.startswith("out/")}
        recover(root)
        assert {k: v for k, v in _tree(base).items() if not k.startswith("out/")} == before
        assert not (root / JOURNAL).exists() and not (root / STAGING).exists()
        shutil.rmtree(root)


@settings(max_examples=100, deadline=None)
@given(PATHS)
def test_a_record_path_is_plain_and_relative_or_refused(rel):
    if safe_rel(rel):
        parts = rel.split("/")
        assert not rel.startswith("/") and ".." not in parts and "." not in parts and "" not in parts
        assert "\0" not in rel and "\\" not in rel


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(PATHS, st.text(max_size=4), max_size=4))
def test_a_state_naming_an_unsafe_path_is_foreign(files):
    state = GameState("inputs", files=files)
    back = GameState.from_json(state.to_json())
    assert (back is not None) == all(safe_rel(rel) for rel in files)
