"""A repeated export with nothing changed is up to date: nothing rendered or rasterised, nothing
written; any edit, option or damaged file makes it again, the same bytes as a fresh export."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_workspace, run
from pnpgen.exports import export as exporting

THREE = ["カード1", "カード2", "カード3"]  # what these exports read needs three cards (カード3 is edited), not the 11 of the small workspace


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    calls: list[str] = []
    real = exporting.export_game

    def export_game(ws, slug, options, *rest):
        calls.append(slug)
        return real(ws, slug, options, *rest)

    monkeypatch.setattr(exporting, "export_game", export_game)
    return calls


def test_a_repeated_export_reads_its_state_and_an_edit_makes_it_again(tmp_path, counted, capsys):
    root = make_workspace(tmp_path / "ws", pieces=THREE)
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
    # the same bytes as an export from nothing (a deck's .json and the whole game's name its images by their folder)
    named = ("cards.json", "test-all.json")
    assert {k: v for k, v in again.items() if k not in named} == {k: v for k, v in here.items() if k not in named}


def test_a_damaged_file_or_another_option_exports_again(tmp_path, counted):
    root = make_workspace(tmp_path / "ws", pieces=THREE)
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

    from pnpgen.exports.faces import PngFiles, encode_png

    images = [Image.new("RGB", (300 + i, 200), (i * 40 % 256, 90, 200 - i * 30)) for i in range(6)]
    threaded: dict[str, bytes] = {"first.json": b"{}"}
    pngs = PngFiles(workers=2)
    for i, image in enumerate(images):
        pngs.add(threaded, f"p{i}.png", image, 300 if i % 2 else None)
    threaded["last.csv"] = b""
    pngs.finish()
    one_by_one = {"first.json": b"{}"} | {f"p{i}.png": encode_png(image, 300 if i % 2 else None)
                                          for i, image in enumerate(images)} | {"last.csv": b""}
    assert list(threaded) == list(one_by_one)
    assert threaded == one_by_one and all(threaded[f"p{i}.png"].startswith(b"\x89PNG") for i in range(6))


def test_big_images_wait_to_be_encoded_one_at_a_time(monkeypatch):
    """Large-deck trial: Tabletop Simulator sheets of some 75–150 MB of pixels each waited five at
    a time on a 4-core machine (a 3,000-card export: 738 MB); past ``WAITING_BYTES`` of pixels,
    one more waits beside the one being encoded, whatever the threads; the bytes and order hold."""
    from PIL import Image

    from pnpgen.exports.faces import PngFiles, encode_png

    monkeypatch.setattr(PngFiles, "WAITING_BYTES", 100_000)  # some 33,000 pixels: each image here is more
    images = [Image.new("RGB", (200, 200 + i), (i * 40 % 256, 90, 30)) for i in range(6)]
    files: dict[str, bytes] = {}
    pngs = PngFiles(workers=4)
    most = 0
    for i, image in enumerate(images):
        pngs.add(files, f"p{i}.png", image)
        most = max(most, len(pngs._waiting))
    pngs.finish()
    assert most == 1 and files == {f"p{i}.png": encode_png(image, None) for i, image in enumerate(images)}


def test_an_image_encoded_before_in_the_process_is_taken_again_and_only_an_equal_one():
    """A PNG is encoded once per process for equal pixels, mode and dpi; a pixel, the dpi or the
    mode changed is encoded anew, and an image carrying more than its pixels (an ICC profile)
    each time: always the bytes the encoder writes."""
    import io

    from PIL import Image, ImageCms

    from pnpgen.exports.faces import encode_png, png_bytes

    image = Image.new("RGB", (257, 131), (12, 200, 77))
    first = png_bytes(image)
    assert first == encode_png(image)
    assert png_bytes(image.copy()) is first  # taken again, not encoded
    changed = image.copy()
    changed.putpixel((256, 130), (12, 200, 78))
    assert png_bytes(changed) == encode_png(changed) != first
    assert png_bytes(image, 300) == encode_png(image, 300) != first
    assert png_bytes(image.convert("RGBA")) == encode_png(image.convert("RGBA")) != first
    profiled = image.copy()
    profiled.info["icc_profile"] = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    assert png_bytes(profiled) == encode_png(profiled) != first
    assert png_bytes(profiled) is not png_bytes(profiled)  # encoded each time
    with Image.open(io.BytesIO(png_bytes(profiled))) as read:
        assert read.info["icc_profile"] == profiled.info["icc_profile"]
    # a Tabletop Simulator sheet's pixels (4090×4011, 49 MB) are encoded once an export: not kept,
    # where its file was held beside the copy a big export writes out (exports/spill.py)
    from pnpgen.exports.faces import ENCODED_LARGEST_PIXELS
    sheet = Image.new("RGB", (4090, 4011), (12, 200, 77))
    assert 4090 * 4011 * 3 > ENCODED_LARGEST_PIXELS >= 1125 * 825 * 3  # (a 300 dpi poker card's is kept)
    assert png_bytes(sheet) is not png_bytes(sheet.copy())


def test_an_edit_makes_again_only_the_images_of_what_changed(tmp_path, monkeypatch):
    """Tabletop Simulator's images are known by what each is made from (the faces' art, the
    size, the style): after an edit to one deck, the other deck's sheet and back are taken as the
    last export wrote them, not rasterised again, and the export is the bytes of a fresh one."""
    from pnpgen.exports import faces as exported

    root = make_workspace(tmp_path / "ws", pieces=THREE)
    decks = root / "data" / "test" / "decks"
    (decks / "more.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8").replace("カード", "札"),
                                     encoding="utf-8")
    out = root / "build" / "test" / "tabletopsimulator"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    pages: list[int] = []
    real = exported.rasterise
    monkeypatch.setattr(exported, "rasterise", lambda pdf, size: pages.append(1) or real(pdf, size))
    cards = decks / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("本文カード3", "書き換えた本文"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    edited = len(pages)
    pages.clear()
    fresh = tmp_path / "fresh"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(fresh)) == 0
    assert 0 < edited < len(pages)  # the edited deck's images only (a fresh export makes both decks')
    again, here = _files(fresh / "test" / "tabletopsimulator"), _files(out)
    assert again.keys() == here.keys() and any(k.startswith("more-") for k in here)
    assert {k: v for k, v in again.items() if not k.endswith(".json")} == \
        {k: v for k, v in here.items() if not k.endswith(".json")}


def test_an_editors_swap_file_leaves_an_export_up_to_date(tmp_path, counted, capsys):
    """Vim's swap file and an Emacs backup beside a deck (pnpgen/litter.py) are no input of an export."""
    root = make_workspace(tmp_path / "ws", pieces=THREE)
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    decks = root / "data" / "test" / "decks"
    (decks / ".cards.yaml.swp").write_bytes(b"b0VIM 9.1\x00")
    (decks / "cards.yaml~").write_text("name: old", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert counted == ["test"] and "test: up to date" in capsys.readouterr().out


def test_an_edit_of_another_editions_draft_leaves_an_export_up_to_date(tmp_path, counted, capsys):
    """fixesG: an edit of draft.en.txt made the Japanese doujin export again (~4 s, the same
    bytes): an edition's export follows its own draft only, and an edit of that one makes it again."""
    from conftest import GAME_YAML

    root = make_workspace(tmp_path / "ws", pieces=THREE, game=GAME_YAML + "\nlanguages: [ja, en]\n", draft=True)
    en, ja = root / "data" / "test" / "draft.en.txt", root / "data" / "test" / "draft.txt"
    en.write_text("# Test\n\n## Overview\n\nA test game.\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "en") == 0
    en.write_text("# Test\n\n## Overview\n\nA game to test.\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert counted == ["test", "test"] and "test: up to date" in capsys.readouterr().out
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "en") == 0
    assert counted == ["test"] * 2  # (an export of pieces shows no draft, its own edition's neither: below)
    ja.write_text(ja.read_text(encoding="utf-8") + "\n■　補足\n　追記です。\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "en") == 0
    assert counted == ["test"] * 2 and "test: up to date" in capsys.readouterr().out


def test_an_edit_of_the_rules_alone_leaves_an_export_of_pieces_up_to_date(tmp_path, counted, capsys):
    """fixes46: a rule text edited made the card and Tabletop Simulator exports again (the same
    bytes): an export of pieces shows no draft, its own edition's neither; the rulebook's export
    (``files: rulebook``) is made again, and a card's edit still makes the pieces' again."""
    from conftest import GAME_YAML

    root = make_workspace(tmp_path / "ws", pieces=THREE, game=GAME_YAML + "\nlanguages: [ja, en]\n", draft=True)
    en, ja = root / "data" / "test" / "draft.en.txt", root / "data" / "test" / "draft.txt"
    en.write_text("# Test\n\n## Overview\n\nA test game.\n", encoding="utf-8")
    for preset in ("tabletopsimulator", "doujin-book"):
        assert run(root, "export", "--game", "test", "--preset", preset) == 0
    assert counted == ["test"] * 2
    en.write_text("# Test\n\n## Overview\n\nA game to test.\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 0  # (the Japanese book's)
    assert counted == ["test"] * 2 and "test: up to date" in capsys.readouterr().out
    ja.write_text(ja.read_text(encoding="utf-8") + "\n■　補足\n　追記です。\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert counted == ["test"] * 2 and "test: up to date" in capsys.readouterr().out
    assert run(root, "export", "--game", "test", "--preset", "doujin-book") == 0
    assert counted == ["test"] * 3
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード3", "本文カード三"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert counted == ["test"] * 4


def test_a_repeated_export_says_its_warnings_again(tmp_path, capsys):
    """Up to date, an export still says what the export that made its files warned of (a value
    the draft leaves open prints as it stands): the shop gets those very files."""
    root = make_workspace(tmp_path / "ws", pieces=THREE)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード3", "未定"), encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    first = capsys.readouterr()
    warned = [line for line in first.err.splitlines() if line.startswith("pnpgen: warning:")]
    assert any("未定" in w for w in warned), first.err
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    again = capsys.readouterr()
    assert "test: up to date" in again.out
    assert again.err.splitlines() == warned


def test_a_rasterised_face_is_read_without_copying_its_pixels_again(tmp_path, monkeypatch):
    """pdfium's page comes out as an RGB image of its own (decoded from its BGR): converting it to
    RGB again, as it was rasterised and again as its bleed was looked at, copied every face's
    pixels twice (a tenth of a PNG export's time)."""
    from PIL import Image

    root = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    copies: list[tuple[int, int]] = []
    real = Image.Image.convert

    def convert(self, mode=None, *args, **kwargs):
        if self.mode == mode == "RGB":
            copies.append(self.size)
        return real(self, mode, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "convert", convert)
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "scale") == 0
    assert copies == []
    assert len(list((root / "build" / "test" / "thegamecrafter").glob("*.png"))) >= 4


@pytest.mark.parametrize("others", [1, 2])
def test_an_edit_holds_in_memory_only_the_images_it_makes(tmp_path, monkeypatch, others):
    """An image taken from the last export is the file it wrote, never read into memory: after a
    one-card edit, the bytes held are the edited deck's images alone, as many with one other deck
    as with two (a 3,000-card deck's 43 unchanged sheets, some 300 MB, were read and held to the
    commit), and the other decks' files are kept where they are, the same bytes."""
    from pnpgen.pdf.assemble import PdfFile

    root = make_workspace(tmp_path / "ws", pieces=THREE)
    decks = root / "data" / "test" / "decks"
    for k in range(others):
        (decks / f"more{k}.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8")
                                             .replace("カード", f"札{k}"), encoding="utf-8")
    out = root / "build" / "test" / "tabletopsimulator"
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    before = {name: (out / name).stat().st_ino for name in _files(out) if name.startswith("more")}
    results = []
    real = exporting.export_game
    monkeypatch.setattr(exporting, "export_game", lambda *a: results.append(real(*a)) or results[-1])
    cards = decks / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("本文カード3", "書き換えた本文"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    images = {name: data for name, data in results[0].files.items() if name.endswith(".png")}
    held = sorted(name for name, data in images.items() if isinstance(data, bytes))
    assert held == ["cards-faces-1.png", "test-contact.png"]  # (the same at one other deck and two)
    taken = {name: data for name, data in images.items() if name.startswith("more")}
    assert len(taken) == 2 * others and all(isinstance(data, PdfFile) for data in taken.values())
    assert {name: (out / name).stat().st_ino for name in before} == before  # (kept where they were, not written again)
