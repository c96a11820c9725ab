"""The draft of another edition beside draft.txt (draft.en.txt): a link leading out of the game is
told as one, at itself; one written in Japanese is told to be rewritten in its place (the
warning said to write it beside itself, as draft.en.en.txt)."""

from __future__ import annotations

import pytest

from conftest import GAME_YAML, make_workspace
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.rulebook.book import load_document

TWO = GAME_YAML + "languages: [ja, en]\ndraft_file: draft.txt\n"


def test_an_editions_draft_linked_out_is_told_at_itself(tmp_path):
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("# Secret\n", encoding="utf-8")
    ws = make_workspace(tmp_path / "ws", game=TWO, draft=True)
    (ws / "data/test/draft.en.txt").symlink_to(secret)
    with pytest.raises(InputError) as e:
        load_document(load_game(Workspace(ws), "test", lang="en"))
    said = str(e.value)
    assert "data/test/draft.en.txt: draft_file: 'draft.en.txt' is outside test/: " in said, said
    assert "is a link leading out of it" in said and "copied into" in said


def test_an_editions_draft_in_japanese_is_to_be_rewritten_in_its_place(tmp_path):
    ws = make_workspace(tmp_path / "ws", game=TWO, draft=True)
    (ws / "data/test/draft.en.txt").write_text((ws / "data/test/draft.txt").read_text(encoding="utf-8"),
                                               encoding="utf-8")
    draft, _ = load_document(load_game(Workspace(ws), "test", lang="en"))
    said = [w for w in draft.warnings if "written in Japanese" in w]
    assert len(said) == 1 and said[0].endswith("(write the en draft in its place)"), draft.warnings
    ws = make_workspace(tmp_path / "en", game=GAME_YAML + "languages: [en]\ndraft_file: draft.txt\n", draft=True)
    draft, _ = load_document(load_game(Workspace(ws), "test"))  # an English game's draft.txt in Japanese: beside it
    assert any(w.endswith("in its place, or beside it as draft.en.txt)") for w in draft.warnings), draft.warnings
