"""A font file is read once a build, not once to measure and again to embed (fonttables.py, then
pdf/writer.py: some 2.5 ms a BIZ UD font of every short build's CPU, docs/speed-rounds.md startup2); a
font file saved over while ``watch`` runs is still read anew, its own glyphs embedded."""

from __future__ import annotations

import builtins
import gc
import io
import os
from pathlib import Path

from conftest import REPO, make_workspace, run
from pdfprobe import page_fonts, reader
from pnpgen import fonts

GAME = 'title: テスト\npalette: {red: "#cc3333"}\nfonts: {gothic: Own}\n'


def _counting_reads(monkeypatch, font: Path) -> list[str]:
    """The opens of ``font`` from now on (by ``open``, ``io.open`` and so ``Path.read_bytes``)."""
    opened: list[str] = []
    real = builtins.open
    target = os.path.realpath(font)

    def counted(file, *args, **kwargs):
        if isinstance(file, str | bytes | os.PathLike) and os.path.realpath(os.fsdecode(file)) == target:
            opened.append(str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counted)
    monkeypatch.setattr(io, "open", counted)
    return opened


def _own_font(tmp_path: Path, monkeypatch) -> tuple[Path, Path, bytes]:
    """A workspace whose fonts/ holds a font file of its own (not the repo's, linked), on a
    machine cache that has never seen it: the workspace, the font and its bytes."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    root = make_workspace(tmp_path / "ws", pieces=["カード1"], game=GAME)
    (root / "fonts").unlink()
    (root / "fonts").mkdir()
    font = root / "fonts" / "Own.ttf"
    data = (REPO / "fonts" / "BIZUDPGothic-Regular.ttf").read_bytes()
    font.write_bytes(data)
    return root, font, data


def test_a_build_reads_each_font_file_once_and_again_when_it_is_saved_over(tmp_path, monkeypatch):
    root, font, data = _own_font(tmp_path, monkeypatch)
    opened = _counting_reads(monkeypatch, font)
    assert run(root, "build", "--game", "test", "--no-rulebook", "-q", "--out", str(tmp_path / "a")) == 0
    assert len(opened) == 1, opened  # parsed (no tables kept yet), measured and embedded from one read

    font.write_bytes(data)  # saved over in place (as in ``watch``): its tables are in the machine's cache now
    opened.clear()
    assert run(root, "build", "--game", "test", "--no-rulebook", "-q", "--out", str(tmp_path / "b")) == 0
    assert len(opened) == 1, opened  # read anew, once
    assert (tmp_path / "a" / "test" / "cards.pdf").read_bytes() == (tmp_path / "b" / "test" / "cards.pdf").read_bytes()
    assert "BIZUDPGothic-Regular-Own" in page_fonts(reader(tmp_path / "b" / "test" / "cards.pdf").pages[0])


def test_a_font_saved_over_is_let_go_of_by_the_caches_of_metrics_and_subsets(tmp_path, monkeypatch):
    """A font saved over many times in one ``watch`` session: the widths and subsets kept for its
    old bytes (pdf/content.py ``_metrics``, pdf/embed.py ``_font_file``, ``_subset_stream``) are
    forgotten with it, not held until 64 other subsets push them out (megabytes a save)."""
    root, font, data = _own_font(tmp_path, monkeypatch)
    for n in range(3):
        font.write_bytes(data)  # saved over in place between two builds of one process
        assert run(root, "build", "--game", "test", "--no-rulebook", "-q", "--out", str(tmp_path / f"o{n}")) == 0
    gc.collect()
    held = [o for o in gc.get_objects() if isinstance(o, fonts.FontFile) and os.path.realpath(o.path) == os.path.realpath(font)]
    assert len(held) == 1, held  # the font as it is now, none of its two earlier savings
