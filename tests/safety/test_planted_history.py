"""The history (``build/.history/``) can come from elsewhere with a build folder: what ``pnpgen
log``, ``diff`` and ``tag`` print from it is escaped, so a planted entry's terminal control
sequences (a window title, a cleared screen, colours, a right-to-left override) never reach the
terminal; ``diff --format json`` stays JSON with the same values."""

from __future__ import annotations

import hashlib
import json

from conftest import make_workspace, run

PLANTED = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\u202e"


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
    ws = make_workspace(tmp_path / "ws")
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
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["to"]["time"] == PLANTED  # the same value, escaped as JSON
