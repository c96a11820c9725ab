"""Links in fonts/ that lead nowhere: a font no document uses is passed over, by the rulebook's
key too (two links to each other ended the build in an OSError traceback, 'Too many levels of
symbolic links', from the rulebook's process)."""

from __future__ import annotations

import shutil

import pytest

from conftest import REPO, make_workspace, run
from pdfprobe import texts


@pytest.mark.parametrize("links", [{"Loop1.ttf": "Loop2.ttf", "Loop2.ttf": "Loop1.ttf"}, {"Gone.ttf": "nowhere.ttf"}])
def test_a_font_link_in_a_loop_or_to_nothing_leaves_the_rulebook_built(tmp_path, capsys, links):
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "fonts").unlink()
    shutil.copytree(REPO / "fonts", ws / "fonts")
    for name, to in links.items():
        (ws / "fonts" / name).symlink_to(to)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert "Traceback" not in capsys.readouterr().err
    assert any("テスト" in t for t in texts(ws / "build" / "test" / "rulebook.pdf"))
