"""A repeated export with nothing changed is up to date: nothing rendered or rasterised, nothing
written; any edit, option or damaged file makes it again, the same bytes as a fresh export."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_workspace, run
from pnpgen.exports import export as exporting


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = exporting.export_game

    def export_game(ws, slug, options):
        calls.append(slug)
        return real(ws, slug, options)

    monkeypatch.setattr(exporting, "export_game", export_game)
    return calls


def test_a_repeated_export_reads_its_state_and_an_edit_makes_it_again(tmp_path, counted, capsys):
    root = make_workspace(tmp_path / "ws")
    out = root / "build" / "test" / "tabletopsimulator"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    first = _files(out)
    stamps = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert counted == ["test"]  # the second export made nothing
    assert "test: up to date" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == stamps
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード3", "書き換えた本文"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert counted == ["test", "test"]
    assert _files(out) != first
    fresh = tmp_path / "fresh"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(fresh)) == 0
    again, here = _files(fresh / "test" / "tabletopsimulator"), _files(out)
    assert again.keys() == here.keys()
    # the same bytes as an export from nothing (a deck's .json names its images by their folder)
    assert {k: v for k, v in again.items() if k != "cards.json"} == {k: v for k, v in here.items() if k != "cards.json"}


def test_a_damaged_file_or_another_option_exports_again(tmp_path, counted):
    root = make_workspace(tmp_path / "ws")
    out = root / "build" / "test" / "tabletopsimulator"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    sheet = next(p for p in sorted(out.iterdir()) if p.suffix == ".png")
    good = sheet.read_bytes()
    sheet.write_bytes(b"not a picture")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert sheet.read_bytes() == good and len(counted) == 2
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck-id-base", "200") == 0
    assert len(counted) == 3


def test_png_files_encoded_on_threads_are_the_bytes_and_the_order_of_one_by_one():
    from PIL import Image

    from pnpgen.exports.faces import PngFiles, png_bytes

    images = [Image.new("RGB", (300 + i, 200), (i * 40 % 256, 90, 200 - i * 30)) for i in range(6)]
    threaded: dict[str, bytes] = {"first.json": b"{}"}
    pngs = PngFiles(workers=2)
    for i, image in enumerate(images):
        pngs.add(threaded, f"p{i}.png", image, 300 if i % 2 else None)
    threaded["last.csv"] = b""
    pngs.finish()
    one_by_one = {"first.json": b"{}"} | {f"p{i}.png": png_bytes(image, 300 if i % 2 else None)
                                          for i, image in enumerate(images)} | {"last.csv": b""}
    assert list(threaded) == list(one_by_one)
    assert threaded == one_by_one and all(threaded[f"p{i}.png"].startswith(b"\x89PNG") for i in range(6))
