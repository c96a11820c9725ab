"""Issue 22, the serial start of a big cold build: the art's headers are read by a process forked as
the inputs hash on threads (engine/artbeside.py), so ``load_game`` opens no picture to measure it
(docs/speed.md, jobs48) — with the same sizes (a picture turned by its EXIF tag too), and with
``--jobs 1`` (one core) or no process to be had, measured by the build itself as before."""

from __future__ import annotations

import os

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace
from pnpgen import cli, commands
from pnpgen.data import artfile
from pnpgen.engine import fingerprint
from pnpgen.engine.artbeside import ArtBeside


def _pictures(art) -> None:
    """A plain PNG, a JPEG turned a quarter by its EXIF tag (measured 60 × 40), one more PNG."""
    art.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 60), (200, 30, 30)).save(art / "red.png")
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.new("RGB", (40, 60), (30, 200, 30)).save(art / "turned.jpg", exif=exif.tobytes())
    Image.new("RGB", (50, 50), (30, 30, 200)).save(art / "blue.png")


def _workspace(root):
    deck = PICTURE_DECK_YAML + "".join(f"  - {{name: {n}, art: {f}}}\n" for n, f in
                                       (("赤", "red.png"), ("緑", "turned.jpg"), ("青", "blue.png")))
    ws = make_workspace(root, deck=deck, front=PICTURE_FRONT)
    _pictures(ws / "data" / "test" / "art")
    return ws


def _build(ws, out, jobs: str, monkeypatch) -> list[str]:
    """A build in pnpgen's own process, its inputs hashed on threads: the pictures this process opened."""
    monkeypatch.setattr(fingerprint, "THREADED_BYTES", 0)  # (the tiny game's files hashed on threads, as 250 MB of art)
    monkeypatch.setattr(artfile, "BESIDE_LEAST_BYTES", 0)  # (its tiny pictures measured beside, as 300 KB ones)
    monkeypatch.setattr(commands, "_imports_set_aside", lambda: None)  # (the real one sets this process's objects aside for good)
    monkeypatch.setattr(artfile, "_MEASURED", {})  # (nothing measured before in this process)
    opened: list[str] = []
    real = artfile.opened

    def counted(path, name, where, key):
        opened.append(path.name)
        return real(path, name, where, key)

    monkeypatch.setattr(artfile, "opened", counted)
    monkeypatch.chdir(ws)
    assert cli.main(["build", "--game", "test", "--no-rulebook", "-q", "--jobs", jobs, "--out", str(out)],
                    own_process=True) == 0
    return opened


def test_a_cold_build_loads_its_game_without_opening_a_picture_to_measure_it(tmp_path, monkeypatch):
    ws = _workspace(tmp_path / "ws")
    # --jobs 2: the forked process measured the three (its own opened calls are not this process's)
    assert _build(ws, tmp_path / "two", "2", monkeypatch) == []
    # --jobs 1: one core, no process beside: the build measures each picture itself, as before
    assert sorted(_build(ws, tmp_path / "one", "1", monkeypatch)) == ["blue.png", "red.png", "turned.jpg"]
    # the same sizes: the turned picture's box fitted alike, every file the same bytes
    two, one = tmp_path / "two" / "test", tmp_path / "one" / "test"
    files = sorted(p.relative_to(two) for p in two.rglob("*.pdf"))
    assert files and files == sorted(p.relative_to(one) for p in one.rglob("*.pdf"))
    assert all((two / f).read_bytes() == (one / f).read_bytes() for f in files)


def test_the_measures_handed_back_are_openeds_own_and_pass_by_links_and_broken_files(tmp_path, monkeypatch):
    art = tmp_path / "art"
    _pictures(art)
    (art / "sub").mkdir()
    Image.new("RGB", (7, 9)).save(art / "sub" / "small.webp")
    (art / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not a picture")
    (art / ".hidden.png").write_bytes((art / "red.png").read_bytes())
    Image.new("RGB", (5, 5)).save(tmp_path / "outside.png")
    (art / "link.png").symlink_to(tmp_path / "outside.png")  # (may lead out of the workspace: never read)
    monkeypatch.setattr(artfile, "_MEASURED", {})
    assert artfile.measures_of_folder(art) == []  # (small pictures, an icon's: measured by the build, if it names them)
    found = artfile.measures_of_folder(art, least=0)
    assert sorted((m[6], m[7], m[8]) for m in found) == [
        ("raster", 7.0, 9.0), ("raster", 40.0, 60.0), ("raster", 50.0, 50.0), ("raster", 60.0, 40.0)]
    (tmp_path / "linked").symlink_to(art, target_is_directory=True)  # an art folder that is a link: passed by
    assert artfile.measures_of_folder(tmp_path / "linked", least=0) == []
    monkeypatch.setattr(artfile, "_MEASURED", {})  # (this process's measures forgotten: only the handed ones)
    assert artfile.measured_beside(found) == 4
    assert artfile.measured_beside([["x", 1], "planted", [".png", 1, 2, 3, 4, 5, "code", 1.0, 2.0]]) == 0

    def refused(*args):
        raise AssertionError("opened again")

    monkeypatch.setattr(artfile, "opened", refused)
    for name, size in (("red.png", (40.0, 60.0)), ("turned.jpg", (60.0, 40.0)), ("sub/small.webp", (7.0, 9.0))):
        assert artfile.measured(str(art / name), (art / name).stat()) == ("raster", size)
    with pytest.raises(AssertionError):  # not handed back: measured here (and its fault said there)
        artfile.measured(str(art / "broken.png"), (art / "broken.png").stat())


def test_where_no_process_is_had_nothing_is_kept_and_the_build_measures_itself(tmp_path, monkeypatch):
    art = tmp_path / "art"
    _pictures(art)

    def no_fork():
        raise OSError("no process")

    monkeypatch.setattr(os, "fork", no_fork)
    monkeypatch.setattr(artfile, "_MEASURED", {})
    assert ArtBeside([art]).take() == 0
    assert artfile._MEASURED == {}  # (the pictures not measured here instead: load_game measures what it names)
