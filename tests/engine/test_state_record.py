"""A game's state record (engine/cache.py ``GameState``): a thousand cards' state is half a
megabyte of JSON, and its seal was checked by writing the body out again (some 10 ms a read, and
as much again to write it). The record is laid out as ``json.dumps`` lays it out, its body's text
sealed as it stands in the file; a record whose body or seal is not what was sealed is refused."""

from __future__ import annotations

import json
from unittest import mock

from pnpgen.engine.fingerprint import code
from pnpgen.engine.state import FORMAT, GameState
from pnpgen.usercache import seal


def _state() -> GameState:
    return GameState("inputs", {"cards.pdf": {"plan": "p", "sha": "s"}}, {"cards.pdf": "x", "shop/札.pdf": "y"},
                     {"cards": {"札": [1, 2.5, None]}}, ["faces/ab/abc.json"], ["警告 \"quoted\""])


def test_the_record_is_laid_out_as_json_writes_it_and_read_without_writing_it_again():
    state = _state()
    body = {"format": FORMAT, "pnpgen": code(), "inputs": state.inputs, "documents": state.documents,
            "files": state.files, "report": state.report, "uses": state.uses, "warnings": state.warnings,
            "game": state.game}
    text = json.dumps(body, ensure_ascii=False, sort_keys=True).encode()
    record = json.dumps({"check": seal(text), "body": body}, ensure_ascii=False, sort_keys=True).encode()
    assert state.to_json() == record  # an earlier pnpgen's records read alike, and this one's are the same bytes
    real = json.dumps
    with mock.patch("json.dumps", side_effect=real) as dumps:
        assert GameState.from_json(record) == state
    assert dumps.call_count == 0  # the body sealed as it stands, not written out again


def test_a_record_whose_body_or_seal_is_not_what_was_sealed_is_refused():
    record = _state().to_json()
    assert GameState.from_json(record) is not None
    outer = json.loads(record)
    spaced = json.dumps(outer, ensure_ascii=False, sort_keys=True, indent=1).encode()  # the same values
    changed = record.replace(b'"inputs": "inputs"', b'"inputs": "inputz"')
    cut = record[:-3] + b'"}'
    for bad in (spaced, changed, cut, record + b" ", b" " + record, record.replace(b'"check"', b'"chek"')):
        assert GameState.from_json(bad) is None


def test_a_copied_workspace_up_to_date_names_its_own_files_in_the_warnings(tmp_path, capsys):
    """A workspace copied with its build folder (cp -r, a backup restored elsewhere): its first
    build, up to date, said the warnings the first one's build recorded, each naming that
    workspace's file by its absolute path (/home/me/old/data/test/game.yaml:3), not data/test/…"""
    import shutil

    from conftest import GAME_YAML, make_workspace, run

    first = make_workspace(tmp_path / "first", game=GAME_YAML.replace("players: 2-4", "players: 未定"), draft=True)
    build = ("build", "--game", "test", "--jobs", "1", "-q")
    assert run(first, *build) == 0
    said = capsys.readouterr().err
    assert "data/test/game.yaml:3:10: players is a placeholder" in said and str(first) not in said, said
    second = tmp_path / "second"
    shutil.copytree(first, second, symlinks=True)
    assert run(second, *build) == 0
    again = capsys.readouterr().err
    assert again == said and str(first) not in again, again  # (up to date: the same lines, from the workspace)
