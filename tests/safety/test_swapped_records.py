"""A game's state record (build/.cache/<game>.json) copied or moved under another game's name
(two output folders merged by hand, a record restored from the wrong game) is sealed as this
machine seals it, so its seal proves nothing of which game it is of: it named none, and the
build took the other game's decks for this game's last build, its change report and reprint.txt
listing every card as new (and reprint.pdf printing them all) though nothing had changed. The
record names its game; another's is no record."""

from __future__ import annotations

import json
import shutil

from conftest import FEW_CARDS, make_workspace, run


def test_another_games_state_record_under_this_games_name_reports_no_change(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    shutil.copytree(ws / "data" / "test", ws / "data" / "other")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "other")
    deck = ws / "data" / "other" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード", "別札"), encoding="utf-8")
    assert run(ws, "build", "--all", "--no-rulebook") == 0
    cache, out = ws / "build" / ".cache", ws / "build" / "test"
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    shutil.copyfile(cache / "other.json", cache / "test.json")
    assert run(ws, "build", "--all", "--no-rulebook") == 0
    assert not (out / "reprint.txt").exists() and not (out / "reprint.pdf").exists()
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["changes"] == []
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert json.loads((cache / "test.json").read_bytes())["body"]["game"] == "test"
