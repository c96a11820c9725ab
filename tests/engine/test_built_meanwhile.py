"""A save seen by two pnpgen processes at once (``watch`` and ``serve`` both running, or a
``pnpgen build`` typed while the preview runs): the one that waited for the folder's lock while
the other built the same inputs finds its work done and keeps that build's files, its change
lines among them (a designer's trial, trial85: the preview's second build wrote the manifest
again with no change, and its page showed the earlier card reprint under an edit of the rules)."""

from __future__ import annotations

import json

from conftest import make_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.engine import run as build_run
from pnpgen.engine.fresh import sort_games
from pnpgen.engine.options import BuildOptions, RulebookOptions
from pnpgen.engine.run import run_build
from pnpgen.engine.warm import Warm


def _manifest(ws) -> dict:
    return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))


def test_a_build_that_another_of_the_same_inputs_overtook_keeps_its_change_report(tmp_path):
    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2", "カード3"], draft=True)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    deck, draft = ws / "data" / "test" / "decks" / "cards.yaml", ws / "data" / "test" / "draft.txt"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 新しい本文"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    reprint = (ws / "build" / "test" / "reprint.txt").read_bytes()
    draft.write_text(draft.read_text(encoding="utf-8").replace("２〜４人で遊びます。", "２〜５人で遊びます。"),
                     encoding="utf-8")
    options, book = BuildOptions(jobs=1), RulebookOptions()
    # the preview saw the save and found the folder out of date; meanwhile watch built the same save
    workspace = Workspace(ws)
    seen = sort_games(workspace, ["test"], options, ws / "build", book)
    assert seen[1], "the save is to be built"
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    told = _manifest(ws)["changes"]
    assert told and told[0].startswith("rulebook: draft 3 (概要 changed)"), told
    history = sorted((ws / "build" / ".history" / "test").glob("v*.json"))
    outcome = run_build(workspace, ["test"], options, ws / "build", book, sorted_games=seen, warm=Warm())[0]
    assert outcome.up_to_date and outcome.overtaken  # the files are that build's: nothing written again
    assert outcome.changes == told  # said for the save, as the build that made it said it
    assert _manifest(ws)["changes"] == told  # not [], under which the page showed the card's reprint bare
    assert (ws / "build" / "test" / "reprint.txt").read_bytes() == reprint
    assert sorted((ws / "build" / ".history" / "test").glob("v*.json")) == history  # no version twice


def test_the_preview_overtaken_by_watch_shows_the_rule_edit_and_says_its_reprint_list_is_earlier(tmp_path, monkeypatch):
    """The preview's page after a rule paragraph's save that ``watch`` built first: "Last change" is
    the rule edit, and the card reprint under it is said to be an earlier build's."""
    from pnpgen.serve import preview as served

    ws = make_workspace(tmp_path / "ws", ["カード1", "カード2", "カード3"], draft=True)
    deck, draft = ws / "data" / "test" / "decks" / "cards.yaml", ws / "data" / "test" / "draft.txt"
    preview = served.Preview(Workspace(ws), "test", ws / "build")
    preview.rebuild()
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 新しい本文"), encoding="utf-8")
    preview.rebuild()
    assert preview.state.changes == ["cards: 3 → 3 (カード3: text); reprint cards.pdf: sheet 1 (pages 1–2)"]

    def overtaken(ws_, slugs, options, out_root, book, **kw):  # watch builds the save as the preview begins
        seen = sort_games(ws_, slugs, options, out_root, book)
        assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
        return build_run.run_build(ws_, slugs, options, out_root, book, sorted_games=seen, **kw)

    monkeypatch.setattr(served, "run_build", overtaken)
    draft.write_text(draft.read_text(encoding="utf-8").replace("２〜４人で遊びます。", "２〜５人で遊びます。"),
                     encoding="utf-8")
    preview.rebuild()
    assert preview.state.changes[0].startswith("rulebook: draft 3 (概要 changed)"), preview.state.changes
    assert preview.state.reprint.startswith(served.KEPT_REPRINT + "\n\n") and "1 × カード3" in preview.state.reprint
    assert preview.told == preview.state.changes  # the terminal says the save's change as the page does
