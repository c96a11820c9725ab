"""A face whose template reads nothing of its piece (a deck's common back) is the same for every
piece: Jinja runs once for it, and the files are those of a face rendered for each piece."""

from __future__ import annotations

import pytest

from conftest import BACK, make_workspace, run
from pnpgen.faces.templates import Renderer

PLAIN_BACK = BACK.replace('{{ textbox("B" ~ piece.name, 5, 40, w - 10, 10, size=10, align="center", fill="#ffffff") }}\n',
                          '<circle cx="{{ w / 2 }}" cy="{{ h / 2 }}" r="9" fill="#ffffff"/>\n')


@pytest.fixture
def rendered(monkeypatch) -> list[str]:
    """The side of every face Jinja renders from now on."""
    sides: list[str] = []
    real = Renderer._render

    def counted(self, face, *args, **kwargs):
        sides.append(face.side)
        return real(self, face, *args, **kwargs)

    monkeypatch.setattr(Renderer, "_render", counted)
    return sides


@pytest.mark.parametrize("back, backs_rendered", [(PLAIN_BACK, 1), (BACK, 11)])
def test_a_back_that_reads_nothing_of_its_piece_renders_once(tmp_path, rendered, back, backs_rendered):
    ws = make_workspace(tmp_path / "ws", back=back)  # eleven cards
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "a")) == 0
    assert rendered.count("front") == 11 and rendered.count("back") == backs_rendered
    rendered.clear()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "a"),
               "--bleed", "2") == 0  # another bleed: every face rendered again, from nothing remembered
    assert rendered.count("back") == backs_rendered


def test_a_back_rendered_once_writes_the_files_of_one_rendered_for_each_piece(tmp_path, monkeypatch):
    ws = make_workspace(tmp_path / "ws", back=PLAIN_BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "once")) == 0
    monkeypatch.setattr(Renderer, "rendered", lambda self, face, reads=None: (Renderer._render(self, face, reads or set()), None))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "each")) == 0
    pdfs = sorted(p.relative_to(tmp_path / "once").as_posix() for p in (tmp_path / "once").rglob("*.pdf"))
    assert len(pdfs) >= 3
    for rel in pdfs:
        assert (tmp_path / "once" / rel).read_bytes() == (tmp_path / "each" / rel).read_bytes(), rel
