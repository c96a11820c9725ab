"""A text edit renders its faces from the render memo (faces/rendermemo.py ``RenderMemo``): the work
for a piece the edit did not change is its memo key and its record, not its fields written out
again for each side nor its name worked out for a message no face will give."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from conftest import make_workspace, run
from pnpgen.engine import game as game_stage
from pnpgen.errors import Where

N = 40


def _named(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How often a piece's place is written out while the faces are rendered (a message's 'where',
    a warned render's place), counted per build."""
    counts: list[int] = []
    said = Where.__str__
    load_and_render = game_stage.load_and_render
    rendering = [False]

    def counted_str(self: Where) -> str:
        if rendering[0]:
            counts[-1] += 1
        return said(self)

    def counted_render(*args, **kwargs):
        counts.append(0)
        rendering[0] = True
        try:
            return load_and_render(*args, **kwargs)
        finally:
            rendering[0] = False

    monkeypatch.setattr(Where, "__str__", counted_str)
    monkeypatch.setattr(game_stage, "load_and_render", counted_render)
    return counts


def test_a_text_edit_writes_each_unchanged_piece_out_once_and_names_none(tmp_path: Path, monkeypatch):
    root = make_workspace(tmp_path, [f"カード{i}" for i in range(1, N + 1)])
    assert run(root, "build", "--game", "test", "-q") == 0
    cards = root / "data" / "test" / "decks" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("本文カード7}", "本文カード7改}"), encoding="utf-8")
    counts = _named(monkeypatch)
    assert run(root, "build", "--game", "test", "-q") == 0
    # each piece's fields are hashed once for its front and back, without its place (its file:line
    # is no part of a face's key: RenderMemo.place; the forty-fifth session's tree wrote it once a
    # piece), and the 'where' of a face is worked out only for the one face drawn afresh
    assert counts and 0 < counts[0] <= 4, counts
    text = "".join(page.extract_text() for page in pypdf.PdfReader(root / "build" / "test" / "cards.pdf").pages)
    assert "本文カード7改" in text and "本文カード8" in text
