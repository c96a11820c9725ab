"""Issue 22 (item 1): raster art far finer than its box is resampled once to the resolution ceiling
(``--max-dpi``, 600 above 900 by default), its placement unchanged, the same bytes in any folder;
a picture the art path converts (a CMYK JPEG) is converted once on this machine, its print bytes
read from the machine's cache by the next build; a rulebook figure's own picture is capped alike."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image

from conftest import DRAFT, GAME_YAML, make_workspace, remove_tree, run
from pdfprobe import PT, image_xobjects, reader
from pnpgen.data import artfile
from pnpgen.data.pixels import ceiling_size
from rulebook.test_rulebook_own_picture import _art, _box_mm, _figures, _page_of

DECK = """\
name: 絵札
format: poker
front: card-front.svg.j2
fields: {name: text, art: image}
pieces:
  - {name: 赤, art: art.jpg}
"""

# The art box: 20×20 mm at (5, 20) mm from the trim's top-left; the shop page adds 3 mm of bleed.
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}{{ image(piece.art, 5, 20, 20, 20) }}{% endblock %}
"""
RED = (200, 30, 40)


def workspace(root: Path, picture: Image.Image, game: str = GAME_YAML) -> Path:
    ws = make_workspace(root, deck=DECK, front=FRONT, game=game)
    (ws / "data" / "test" / "art").mkdir()
    picture.save(ws / "data" / "test" / "art" / "art.jpg", quality=90)
    return ws


def build(ws: Path, *args: str) -> int:
    return run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", *args)


def the_image(pdf: Path):
    (image,) = image_xobjects(reader(pdf)).values()
    return image


def encoding(image) -> str:
    """An image's one filter (/DCTDecode: a JPEG's data), given as a name or in an array."""
    found = image["/Filter"]
    return str(found) if isinstance(found, str) else "".join(str(f) for f in found)


def painted_box(pdf: Path) -> tuple[float, float, float, float]:
    """Where page 1 shows the red picture: (left, top, right, bottom) in mm from its top-left."""
    im = pdfium.PdfDocument(str(pdf))[0].render(scale=8 * PT).to_pil().convert("RGB")  # 8 px a mm
    red = [(x, y) for y in range(0, im.height, 2) for x in range(0, im.width, 2)
           if all(abs(a - b) <= 12 for a, b in zip(im.getpixel((x, y)), RED, strict=True))]
    xs, ys = [p[0] for p in red], [p[1] for p in red]
    return min(xs) / 8, min(ys) / 8, (max(xs) + 2) / 8, (max(ys) + 2) / 8


@pytest.fixture(scope="module")
def capped(tmp_path_factory) -> Path:
    """A 4000×4000 JPEG in a 20 mm box (5,080 dpi), built with the default ceiling."""
    ws = workspace(tmp_path_factory.mktemp("capped") / "ws", Image.new("RGB", (4000, 4000), RED))
    assert build(ws) == 0
    return ws


def test_a_picture_far_finer_than_its_box_is_embedded_at_the_ceiling(capped):
    pdf = capped / "build" / "test" / "shop" / "cards.pdf"
    image = the_image(pdf)
    side = round(4000 * 600 / (4000 / (20 / 25.4)))  # 600 dpi over the 20 mm it prints at: 472 px
    assert (image["/Width"], image["/Height"], encoding(image)) == (side, side, "/DCTDecode")  # a JPEG stays one
    left, top, right, bottom = painted_box(pdf)  # placed where image() puts it: 20 mm at (3 + 5, 3 + 20)
    assert (left, top, right, bottom) == pytest.approx((8, 23, 28, 43), abs=0.3)


def test_none_keeps_the_original_and_its_place(capped, tmp_path):
    assert build(capped, "--max-dpi", "none", "--out", str(tmp_path / "none")) == 0
    pdf = tmp_path / "none" / "test" / "shop" / "cards.pdf"
    assert (the_image(pdf)["/Width"], the_image(pdf)["/Height"]) == (4000, 4000)
    assert painted_box(pdf) == pytest.approx(painted_box(capped / "build" / "test" / "shop" / "cards.pdf"), abs=0.15)


def test_game_yaml_sets_the_ceiling_and_the_command_line_wins(tmp_path, capsys):
    ws = workspace(tmp_path / "ws", Image.new("RGB", (4000, 4000), RED), game=GAME_YAML + "max_dpi: lots\n")
    assert build(ws) == 2
    err = capsys.readouterr().err
    assert "game.yaml:" in err and "max dpi 'lots' is not a number" in err and "or none" in err, err
    assert "Traceback" not in err
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "latin_gap: 0\nmax_dpi: none\n", encoding="utf-8")
    assert build(ws) == 0
    assert the_image(ws / "build" / "test" / "shop" / "cards.pdf")["/Width"] == 4000  # kept as it is
    assert build(ws, "--max-dpi", "300") == 0  # the command line wins: 300 above 450
    assert the_image(ws / "build" / "test" / "shop" / "cards.pdf")["/Width"] == round(4000 * 300 / (4000 / (20 / 25.4)))


def test_the_same_bytes_built_again_and_in_another_folder(capped, tmp_path):
    other = tmp_path / "elsewhere"
    shutil.copytree(capped, other, symlinks=True, ignore=shutil.ignore_patterns("build"))
    assert build(other) == 0
    assert build(capped, "--out", str(tmp_path / "again")) == 0
    for name in ("cards.pdf", "shop/cards.pdf"):
        first = (capped / "build" / "test" / name).read_bytes()
        assert (other / "build" / "test" / name).read_bytes() == first
        assert (tmp_path / "again" / "test" / name).read_bytes() == first


def test_a_picture_placed_at_no_more_than_one_and_a_half_times_the_ceiling_is_kept():
    assert ceiling_size((1000, 800), 900.0, 600.0) is None  # 900 dpi: kept
    assert ceiling_size((1000, 800), 901.0, 600.0) == (666, 533)
    assert ceiling_size((1000, 800), 5000.0, 0.0) is None  # none


def test_a_bad_max_dpi_is_told(capped, capsys):
    with pytest.raises(SystemExit) as e:
        build(capped, "--max-dpi", "lots")
    assert e.value.code == 2
    assert "max dpi 'lots' is not a number" in capsys.readouterr().err


@pytest.fixture
def conversions(monkeypatch, tmp_path) -> list[tuple]:
    """Each picture the art path decodes and converts (``artfile.converted``), with a machine
    cache of this test's own."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine"))
    made: list[tuple] = []
    real = artfile.converted

    def counted(im, background, size, turned, plain):
        made.append((im.mode, im.size, size))
        return real(im, background, size, turned, plain)

    monkeypatch.setattr(artfile, "converted", counted)
    return made


def cyan_cmyk(size: tuple[int, int]) -> Image.Image:
    return Image.new("CMYK", size, (200, 0, 0, 0))


def test_a_cmyk_jpeg_is_converted_once_its_print_bytes_then_read_from_the_cache(conversions, tmp_path):
    ws = workspace(tmp_path / "ws", cyan_cmyk((64, 64)))  # 81 dpi: no ceiling, the conversion alone
    assert build(ws) == 0
    assert conversions == [("CMYK", (64, 64), None)]
    first = (ws / "build" / "test" / "shop" / "cards.pdf").read_bytes()
    remove_tree(ws / "build")  # a cold build: every face converted again
    assert build(ws) == 0
    assert len(conversions) == 1  # read from the machine's cache
    assert (ws / "build" / "test" / "shop" / "cards.pdf").read_bytes() == first


def test_without_a_machine_cache_every_build_converts(conversions, tmp_path, monkeypatch):
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = workspace(tmp_path / "ws", cyan_cmyk((64, 64)))
    assert build(ws) == 0
    remove_tree(ws / "build")
    assert build(ws) == 0
    assert len(conversions) == 2


def test_a_cmyk_jpeg_is_resampled_in_its_inks_and_prints_the_colour_it_printed(conversions, tmp_path):
    ws = workspace(tmp_path / "ws", cyan_cmyk((2000, 2000)))
    assert build(ws) == 0
    assert build(ws, "--max-dpi", "none", "--out", str(tmp_path / "none")) == 0
    capped = the_image(ws / "build" / "test" / "shop" / "cards.pdf")
    assert (capped["/Width"], capped["/ColorSpace"], encoding(capped)) == (472, "/DeviceRGB", "/DCTDecode")
    assert conversions == [("CMYK", (2000, 2000), (472, 472)), ("CMYK", (2000, 2000), None)]
    shown = [pdfium.PdfDocument(str(p))[0].render(scale=4 * PT).to_pil().convert("RGB").getpixel((18 * 4, 33 * 4))
             for p in (ws / "build" / "test" / "shop" / "cards.pdf", tmp_path / "none" / "test" / "shop" / "cards.pdf")]
    assert all(abs(a - b) <= 3 for a, b in zip(*shown, strict=True))
    # a CMYK export sends the JPEG's own inks, as it is: the faces place it whole there
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    with pikepdf.open(ws / "build" / "test" / "doujin" / "cards.pdf") as doc:
        placed = [(bytes(o.read_raw_bytes()), str(o.ColorSpace)) for o in doc.objects
                  if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert placed == [((ws / "data" / "test" / "art" / "art.jpg").read_bytes(), "/DeviceCMYK")]


def test_a_rulebook_figures_own_picture_is_capped_alike(drafted):
    _figures(drafted, "    - after: ゲームの進行\n      caption: 卓\n      picture: big.jpg\n      size: [20, 20]\n")
    _art(drafted, "big.jpg", (4000, 4000), quality=90)
    assert run(drafted, "build", "--game", "test", "--jobs", "1") == 0
    pdf = drafted / "build" / "test" / "rulebook.pdf"
    (image,) = image_xobjects(reader(pdf)).values()
    w, h = _box_mm(pdf, _page_of(pdf, "卓")[0])
    assert abs(w - 20) < 0.5 and abs(h - 20) < 0.5, (w, h)  # at its size
    assert image["/Width"] == image["/Height"] == round(4000 * 600 / (4000 / (20 / 25.4)))  # 472: 600 dpi there


def test_the_pixels_and_the_background_share_the_hrefs_fragment(tmp_path):
    """ground() names the colour beneath a see-through picture before the pixels image() wrote;
    resolve flattens it onto that colour and resamples it, a PNG staying one."""
    from pnpgen.data.art import ArtFolder, with_background
    from pnpgen.errors import InputError

    assert with_background("a%20b.png#px=10x8", "102030") == "a%20b.png#bg=102030&px=10x8"
    assert with_background("a.png", "102030") == "a.png#bg=102030"
    (tmp_path / "art").mkdir()
    clear = Image.new("RGBA", (100, 80), (0, 0, 0, 0))
    clear.paste((250, 250, 250, 255), (0, 0, 50, 80))
    clear.save(tmp_path / "art" / "a b.png")
    folder = ArtFolder(tmp_path)
    data = folder.resolve(with_background("a%20b.png#px=10x8", "102030"))
    with Image.open(io.BytesIO(data)) as im:
        assert (im.format, im.size, im.mode) == ("PNG", (10, 8), "RGB")
        assert im.getpixel((9, 4)) == (0x10, 0x20, 0x30) and im.getpixel((0, 4)) == (250, 250, 250)
    with pytest.raises(InputError, match="unknown fragment") as e:
        folder.resolve("a%20b.png#px=10")
    assert "#px=WxH" in (e.value.expected or "")


def test_changing_the_ceiling_converts_again_only_the_faces_it_changes(tmp_path, read_back):
    deck = DECK + "  - {name: 小, art: small.jpg}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=FRONT)
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (4000, 4000), RED).save(ws / "data" / "test" / "art" / "art.jpg")  # 5,080 dpi
    Image.new("RGB", (400, 400), RED).save(ws / "data" / "test" / "art" / "small.jpg")  # 508 dpi: never resampled
    assert build(ws) == 0 and read_back == []
    assert build(ws, "--max-dpi", "600") == 0  # the same ceiling, said: every face as it was
    faces = len(read_back)
    assert faces >= 2
    read_back.clear()
    assert build(ws, "--max-dpi", "1200") == 0  # the big picture's face alone converted again
    assert len(read_back) == faces - 1
    assert the_image_widths(ws) == [400, round(4000 * 1200 / (4000 / (20 / 25.4)))]


def the_image_widths(ws: Path) -> list[int]:
    return sorted(int(im["/Width"]) for im in image_xobjects(reader(ws / "build" / "test" / "shop" / "cards.pdf")).values())


def test_the_doujin_book_and_a_builds_rulebook_follow_the_ceiling_given(tmp_path):
    """review40: ``export --preset doujin-book --max-dpi`` typeset its book at game.yaml's ceiling
    whatever the command said, and drew the pieces' pictures at 600 even under game.yaml's
    ``max_dpi: none``; a build's ``--max-dpi none`` keeps a figure's own picture whole."""
    ws = workspace(tmp_path / "ws", Image.new("RGB", (1000, 1000), RED))  # 1,270 dpi in its 20 mm box
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    _figures(ws, "    - after: ゲームの進行\n      caption: 卓\n      picture: big.jpg\n      size: [30, 30]\n")
    _art(ws, "big.jpg", (1100, 1100), quality=90)  # 931 dpi in its 30 mm box

    def widths(pdf: Path) -> list[int]:
        return sorted(int(im["/Width"]) for im in image_xobjects(reader(pdf)).values())

    assert run(ws, "build", "--game", "test", "--jobs", "1", "--max-dpi", "none") == 0
    assert widths(ws / "build" / "test" / "rulebook.pdf") == [1000, 1100]
    book = ws / "build" / "test" / "doujin-book" / "rulebook.pdf"
    assert run(ws, "export", "--game", "test", "--preset", "doujin-book", "--max-dpi", "300") == 0
    assert widths(book) == [round(300 * 20 / 25.4), round(300 * 30 / 25.4)]  # 236, 354: the export's 300
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "max_dpi: none\n", encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", "doujin-book") == 0
    assert widths(book) == [1000, 1100]  # game.yaml's none: both whole


@pytest.mark.parametrize("turned", range(2, 9))
def test_a_photo_turned_under_no_ceiling_is_held_once_while_it_is_written(monkeypatch, turned):
    """``--max-dpi none`` with a 60 MP JPEG whose EXIF turns it a quarter peaked at 768 MB, then
    534: its decoded pixels were held beside the turned ones (``ImageOps.exif_transpose``). The
    turned picture is written a band of rows at a time (data/pixels.py ``turned_png``): nothing the
    size of the picture is turned, nor copied to RGB again; the PNG written holds the upright
    pixels, RGB, whatever the orientation (a 24 MP photo turned a quarter: 187 → 101 MB over the
    process's own, 0.5 → 0.6 CPU-s)."""
    from PIL import ImageOps

    from pnpgen.data import pixels

    monkeypatch.setenv("PNPGEN_CACHE", "off")
    monkeypatch.setattr(pixels, "TURNED_ROWS", 7)  # (several bands, the last one short)
    photo = Image.new("RGB", (40, 30), (200, 10, 30))
    for x in range(40):
        photo.putpixel((x, 0), (x * 6, 255 - x * 6, 90))
        photo.putpixel((x, x % 30), (20, 255 - x * 6, x * 6))
    exif = Image.Exif()
    exif[274] = turned
    saved = io.BytesIO()
    photo.save(saved, "JPEG", quality=95, exif=exif.tobytes())
    upright = ImageOps.exif_transpose(Image.open(saved))
    turned_sizes, copied = [], []
    transpose, convert = Image.Image.transpose, Image.Image.convert
    monkeypatch.setattr(Image.Image, "transpose", lambda im, m: turned_sizes.append(im.size) or transpose(im, m))
    monkeypatch.setattr(Image.Image, "convert", lambda im, *a, **kw: copied.append((im.mode, a)) or convert(im, *a, **kw))
    out = Image.open(io.BytesIO(artfile.print_bytes(saved.getvalue())))
    assert (out.format, out.mode, out.size) == ("PNG", "RGB", upright.size)
    assert out.tobytes() == upright.tobytes()
    assert turned_sizes and max(w * h for w, h in turned_sizes) <= 8 * 40, turned_sizes  # bands, never the whole
    assert ("RGB", ("RGB",)) not in copied, copied
