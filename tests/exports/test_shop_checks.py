"""What an export checks of the faces and files it sends against the shop: its safe zone, bleed, file names, CMYK pictures."""

from __future__ import annotations

import json

import pikepdf

from conftest import DECK_YAML, make_workspace, run

# the name's text box starts 3.1 mm inside the left trim: outside pnpgen's 3 mm safe zone, inside
# DriveThruCards' and The Game Crafter's 1/8 in (3.175 mm)
NEAR_EDGE = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
{{ textbox(piece.name, 3.1, 40, 30, 8, size=9) }}
{% endblock %}
"""


def _warnings(tmp_path, preset: str, *extra: str) -> list[str]:
    deck = DECK_YAML + "  - {name: 端, text: 本文}\n"
    root = make_workspace(tmp_path, deck=deck, front=NEAR_EDGE)
    assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
    found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in found if "safe zone" in w]


def test_text_inside_the_shops_safe_zone_is_warned(tmp_path):
    """DriveThruCards asks for text 1/8 in (3.175 mm) inside the trim ("Common Card Prep Issues &
    Solutions"); text 3.1 mm in, scaled ×1.010 onto its 2.5×3.5 in card and centred (3.06 mm),
    passes the build's 3 mm but not the shop: the export names the template line and the shop."""
    [line] = _warnings(tmp_path, "drivethrucards", "--fit", "scale")
    assert line == ("templates/test/card-front.svg.j2:4: print lint: deck 'cards' piece 1 (端): text 「端」 "
                    "3.1 mm from the trim, inside the 3.175 mm safe zone DriveThruCards asks for "
                    "(a drifted cut may take it)"), line


def test_the_safe_zone_is_measured_where_the_format_puts_the_face(tmp_path):
    """--fit bleed keeps the 63 mm art at its size, centred on The Game Crafter's 63.5 mm card: the
    text stands 3.35 mm inside that trim, outside its 1/8 in zone; 同人's 3 mm zone holds it too."""
    assert _warnings(tmp_path / "tgc", "thegamecrafter", "--fit", "bleed") == []
    assert _warnings(tmp_path / "doujin", "doujin") == []


COUNTER = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
{{ textbox(piece.name, 1, 1, w - 2, 5, size=6, align="center") }}
{% endblock %}
"""


def _counter_warnings(tmp_path, lint: str) -> list[str]:
    """A deck of 40 kinds of 16 mm counters, their names 1 mm inside the trim, sent to doujin-pieces."""
    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 魚, text: 本文}\n")
    (root / "templates" / "test" / "counter.svg.j2").write_text(COUNTER, encoding="utf-8")
    pieces = "".join(f"  - {{name: 歩{i}, count: 2}}\n" for i in range(40))
    (root / "data" / "test" / "decks" / "counters.yaml").write_text(
        "name: 駒\nkind: token\nsize: [16, 16]\nfront: counter.svg.j2\nfields: {name: text}\n" + lint + "pieces:\n"
        + pieces, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces", "--deck", "counters") == 0
    found = json.loads((root / "build" / "test" / "doujin-pieces" / "export.json").read_text(encoding="utf-8"))
    return [w for w in found["warnings"] if "safe zone" in w]


def test_a_deck_of_counters_keeps_its_own_safe_zone_on_a_shop_of_any_size(tmp_path):
    """fixesO: 16 mm counters cannot keep text 3 mm in, the safe zone doujin-pieces gives every size
    (its 同人 card figure; no shop names one for a counter), and the deck's own ``lint:`` was
    overruled. One line for the deck, its pieces counted; the deck's declared safe zone stands."""
    [line] = _counter_warnings(tmp_path / "plain", "")
    assert line == ("templates/test/counter.svg.j2:4: print lint: deck 'counters' piece 1 (歩0) and 39 more: text "
                    "「歩0」 1.0 mm from the trim, inside the 3 mm safe zone 同人印刷所（トークン・タイル・ボード） asks "
                    "for (a drifted cut may take it)"), line
    assert _counter_warnings(tmp_path / "half", "lint: {safe: 0.5mm}\n") == []
    assert _counter_warnings(tmp_path / "off", "lint: false\n") == []
    [line] = _counter_warnings(tmp_path / "two", "lint: {safe: 2mm}\n")
    assert line.endswith("and 39 more: text 「歩0」 1.0 mm from the trim, inside the 2 mm safe zone the deck's lint: "
                         "gives (a drifted cut may take it)"), line


def test_a_deck_whose_file_names_an_uploader_may_refuse_is_warned(tmp_path):
    """A deck file named in Japanese and with a space names its shop files so ('役割 カード.pdf');
    Japanese printers ask for file names of 半角英数字 (株式会社栄光's 原稿作成共通設定): the export
    says so, naming the deck file's name: line (its line 1 a comment, as pnpgen new writes it); a
    deck named cards is not warned, nor a virtual table's export."""
    root = make_workspace(tmp_path, deck="# 役割のカード\n" + DECK_YAML + "  - {name: 王, text: 本文}\n")
    decks = root / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "役割 カード.yaml")
    (decks / "plain.yaml").write_text(DECK_YAML + "  - {name: 兵, text: 本文}\n", encoding="utf-8")
    warned = []
    for preset, extra in (("doujin", ()), ("tabletopsimulator", ())):
        assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
        found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
        warned.append([w for w in found if "半角英数字" in w])
    assert (root / "build" / "test" / "doujin" / "役割 カード.pdf").is_file()
    assert warned == [[
        "data/test/decks/役割 カード.yaml:2:7: deck '役割 カード' names the files sent to 同人印刷所（トンボ付きPDF） "
        "('役割 カード.pdf'); many printers' upload forms take file names of half-width letters, digits, - and _ "
        "only (半角英数字): rename the deck file to such a name if the shop refuses them"], []]


def test_the_file_name_an_uploader_may_refuse_is_one_the_export_writes(tmp_path):
    """An English designer's trial: MakePlayingCards was warned of 'Day Cards-001-front.png', a
    file the export did not write (it wrote 'Day Cards-001-front-x3.png')."""
    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 王, text: 本文, count: 3}\n")
    decks = root / "data" / "test" / "decks"
    (decks / "cards.yaml").rename(decks / "Day Cards.yaml")
    assert run(root, "export", "--game", "test", "--preset", "makeplayingcards", "--fit", "scale") == 0
    out = root / "build" / "test" / "makeplayingcards"
    found = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    (said,) = [w for w in found if "names the files sent to" in w]
    assert "('Day Cards-001-front-x3.png')" in said and (out / "Day Cards-001-front-x3.png").is_file(), said


def _trim_only(fill: str) -> str:
    """A front whose background is drawn over ``fill`` (SVG path data of the area it covers)."""
    return ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
            f'<path d="{fill}" fill="#2060c0"/>\n'
            '{{ textbox(piece.name, 8, 20, 20, 8, size=9, fill="#ffffff") }}\n{% endblock %}\n')


TRIM_ONLY = _trim_only("M0,0 H{{ w }} V{{ h }} H0 Z")  # the classic slip: the background stops at the trim
TO_BLEED = _trim_only("M{{ -bleed }},{{ -bleed }} H{{ w + bleed }} V{{ h + bleed }} H{{ -bleed }} Z")
# a white card with a 0.8 mm frame 1 mm inside the trim: its bleed is rightly white
FRAMED = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
          '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>\n'
          '<rect x="1.4" y="1.4" width="{{ w - 2.8 }}" height="{{ h - 2.8 }}" fill="none" stroke="#2060c0" '
          'stroke-width="0.8"/>\n{% endblock %}\n')


def _bare(tmp_path, front: str, preset: str, *extra: str, deck: str | None = None) -> list[str]:
    root = make_workspace(tmp_path, deck=deck or DECK_YAML + "  - {name: 青, text: 本文, count: 2}\n", front=front)
    assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
    found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in found if "bleed beyond it is bare paper" in w]


def test_art_that_stops_at_the_trim_is_warned_for_every_kind_of_shop_file(tmp_path):
    """A background drawn to the trim only leaves the bleed white: DriveThruCards turns such a file
    away ("No Bleed – Your card PDF must include bleed"), and so do 同人印刷所 (塗り足しがない).
    The export reads the faces it sends, as the PDF pages (with トンボ: 同人; a page a copy, the
    back first: DriveThruCards) and as the PNGs (The Game Crafter), and says which sides."""
    [doujin] = _bare(tmp_path / "doujin", TRIM_ONLY, "doujin")
    # started, as the build's warning is, at the deck file's line naming the front template (it had none)
    front = "data/test/decks/cards.yaml:3:8: "
    assert doujin.startswith(front + "cards.pdf page 1 ('青' of deck 'cards', front): the art stops at the trim on the top, right, "
                             "bottom, left, and the 3 mm bleed beyond it is bare paper"), doujin
    [dtc] = _bare(tmp_path / "dtc", TRIM_ONLY, "drivethrucards", "--fit", "scale")
    assert dtc.startswith(front + "cards.pdf page 2 ('青' of deck 'cards', front): the art stops at the trim on the top, right, "
                          "bottom, left, and the 3.175 mm bleed"), dtc
    [tgc] = _bare(tmp_path / "tgc", TRIM_ONLY, "thegamecrafter", "--fit", "bleed")
    assert tgc.startswith(front + "cards-001-front.png: the art stops at the trim on the top, right, bottom, left"), tgc


def test_art_to_the_bleed_a_white_edge_and_a_frame_are_not_warned(tmp_path):
    assert _bare(tmp_path / "a", TO_BLEED, "doujin") == []
    assert _bare(tmp_path / "b", FRAMED, "doujin") == []
    assert _bare(tmp_path / "c", TO_BLEED, "thegamecrafter", "--fit", "scale") == []


HEX = ("name: 海域タイル\nkind: tile\nshape: hex\nsize: 50\nfront: card-front.svg.j2\n"
       "fields: {name: text, text: text}\npieces:\n  - {name: 港}\n")


def test_a_die_cut_piece_is_read_round_its_cut_line(tmp_path):
    """A hex tile whose ground is clipped to the hex itself leaves bare paper where the die cuts
    (doujin-pieces: the shop cuts along the hex, 3 mm inside the art's edge); a ground drawn to the
    bleed path (outline(bleed), as docs/data-format.md shows) is not warned."""
    [line] = _bare(tmp_path / "a", _trim_only("{{ outline(0) }}"), "doujin-pieces", deck=HEX)
    assert line.startswith("data/test/decks/cards.yaml:5:8: cards.pdf page 1 ('港' of deck 'cards', front): the art stops at "
                           "the trim round the cut line, "
                           "and the 3 mm bleed"), line
    assert _bare(tmp_path / "b", _trim_only("{{ outline(bleed) }}"), "doujin-pieces", deck=HEX) == []


PICTURED = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
            '{{ image("grey.jpg", -bleed, -bleed, w + 2 * bleed, h + 2 * bleed) }}\n{% endblock %}\n')


def test_a_cmyk_picture_reaches_a_cmyk_export_with_its_own_inks(tmp_path):
    """A CMYK JPEG's C50 M50 Y50 grey went to the shop as K50 (placed in RGB, converted back). A
    CMYK export now places the JPEG as it is (DeviceCMYK, its own DCT data, read back as
    128/128/128/0) and passes the PDF/X-1a preflight; an RGB export still shows it in RGB; one
    turned by its EXIF orientation still goes through RGB, and is warned at the line of the piece
    that places it (it started with the deck id alone)."""
    from PIL import Image
    from preflight import problems

    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 灰, text: 本文}\n", front=PICTURED)
    grey = root / "templates" / "test" / "grey.jpg"
    Image.new("CMYK", (800, 1100), (128, 128, 128, 0)).save(grey, quality=95)

    def export(preset: str, *extra: str) -> tuple[list[str], list]:
        assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
        folder = root / "build" / "test" / preset
        found = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
        pdf = folder / "cards.pdf"
        pictures = []
        if pdf.is_file():
            with pikepdf.open(pdf) as doc:
                pictures = [(str(o.ColorSpace), str(o.Filter), bytes(o.read_raw_bytes()),
                             pikepdf.PdfImage(o).as_pil_image().getpixel((0, 0)))
                            for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        return [w for w in found if "CMYK picture" in w], pictures

    warned, [(space, kind, data, pixels)] = export("doujin")
    assert warned == [] and (space, kind) == ("/DeviceCMYK", "/DCTDecode") and data == grey.read_bytes()
    assert pixels == (128, 128, 128, 0)
    assert problems((root / "build" / "test" / "doujin" / "cards.pdf").read_bytes()) == []
    warned, [(space, *_)] = export("doujin", "--colour", "rgb", "--pdfx", "none")
    assert warned == [] and space == "/DeviceRGB"
    exif = Image.Exif()
    exif[0x0112] = 6  # turned a quarter
    Image.new("CMYK", (1100, 800), (128, 128, 128, 0)).save(grey, quality=95, exif=exif)
    warned, [(space, kind, _, pixels)] = export("doujin")
    assert (space, kind) == ("/DeviceCMYK", "/FlateDecode") and pixels[:3] == (0, 0, 0)
    [line] = warned
    assert line.startswith("data/test/decks/cards.yaml:9:5: deck 'cards', templates/test/grey.jpg: a CMYK picture 同人印刷所（トンボ付きPDF） gets "
                           "through RGB"), line


def test_a_turned_landscape_card_names_the_sides_its_template_draws(tmp_path):
    """An 88×63 card printed turned on DriveThruCards' portrait poker card: its top and bottom lie on
    the page's right and left, and the warning names them as the template draws them."""
    deck = DECK_YAML.replace("format: poker", "size: [88, 63]") + "  - {name: 横, text: 本文}\n"
    ground = _trim_only("M{{ -bleed }},0 H{{ w + bleed }} V{{ h }} H{{ -bleed }} Z")  # bleeds left and right only
    [line] = _bare(tmp_path, ground, "drivethrucards", "--fit", "scale", deck=deck)
    assert line.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 2 ('横' of deck 'cards', front): the art stops at "
                           "the trim on the top, bottom, "), line


# cyan, no ink, 400 %, black: a CMYK picture's four quadrants
QUADRANT_INKS = [(255, 0, 0, 0), (0, 0, 0, 0), (255, 255, 255, 255), (0, 0, 0, 255)]
TWO_PICTURES = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
                '{{ image("adobe.jpg", -bleed, -bleed, w + 2 * bleed, (h + 2 * bleed) / 2) }}\n'
                '{{ image("plain.jpg", -bleed, h / 2, w + 2 * bleed, (h + 2 * bleed) / 2) }}\n{% endblock %}\n')


def _cmyk_jpegs(folder) -> None:
    """The inks as two CMYK JPEGs: as Photoshop (and Pillow) write them, samples inverted
    under Adobe's APP14 marker; and plain (0: no ink) without the marker, as libjpeg writes them
    and as a CMYK JPEG taken out of a PDF is."""
    import io

    from PIL import Image

    inks = Image.new("CMYK", (690, 485))
    for i, ink in enumerate(QUADRANT_INKS):
        inks.paste(ink, (i % 2 * 345, i // 2 * 243, i % 2 * 345 + 345, i // 2 * 243 + 243))
    out = io.BytesIO()
    inks.save(out, "JPEG", quality=95)
    (folder / "adobe.jpg").write_bytes(out.getvalue())
    inks.paste((0, 0, 0, 250), (345, 243, 690, 485))  # (its black a shade lighter: a picture of its own)
    out = io.BytesIO()
    Image.eval(inks, lambda v: 255 - v).save(out, "JPEG", quality=95)  # Pillow writes 255 − value: the inks plain
    jpeg = out.getvalue()
    at = jpeg.index(b"\xff\xeeAdobe"[:2])
    plain = jpeg[:at] + jpeg[at + 2 + int.from_bytes(jpeg[at + 2:at + 4], "big"):]
    assert b"Adobe" in (folder / "adobe.jpg").read_bytes() and b"Adobe" not in plain
    (folder / "plain.jpg").write_bytes(plain)


def _quadrants(picture) -> list[tuple[int, ...]]:
    """The colour at the middle of each quadrant of an RGB picture, in QUADRANT_INKS' order."""
    w, h = picture.size
    return [picture.getpixel((round(w * (0.25 + i % 2 * 0.5)), round(h * (0.25 + i // 2 * 0.5)))) for i in range(4)]


def _shown_right(quadrants: list[tuple[int, ...]]) -> bool:
    """Cyan, white, near black, near black: the inks shown as drawn, not inverted."""
    (cr, cg, cb), white, heavy, black = quadrants
    return cr < 60 < 150 < cg and cb > 200 and min(white) > 240 and max(heavy) < 70 and max(black) < 70


def test_a_cmyk_jpeg_with_or_without_adobes_marker_shows_its_own_inks_in_every_output(tmp_path):
    """fixesK: Pillow reads every CMYK JPEG's samples inverted (Adobe's way); one without the
    APP14 marker holds them plain, so it came out inverted — white where no ink, black where
    cyan — on the home sheets, the PNG faces and, through RGB with a warning, in the CMYK shop
    file. Both kinds now show their inks in every file, read back by pdfium: the home sheets in
    RGB, the shop's PDF each JPEG as it is in DeviceCMYK (Decode [1 0 …] under the marker only),
    its 400 % corner warned for both, and no picture said to go through RGB."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_raw
    from PIL import Image

    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 刷, text: 本文}\n", front=TWO_PICTURES)
    _cmyk_jpegs(root / "templates" / "test")

    def pictures(pdf) -> list[list[tuple[int, ...]]]:  # each picture's quadrants, as pdfium decodes it
        doc = pdfium.PdfDocument(pdf.read_bytes())
        found = [_quadrants(o.get_bitmap(render=False).to_pil().convert("RGB"))
                 for o in doc[0].get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE])]
        return found

    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    home = pictures(root / "build" / "test" / "cards.pdf")
    assert len(home) == 2 and all(map(_shown_right, home)), home
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    folder = root / "build" / "test" / "doujin"
    shop = pictures(folder / "cards.pdf")
    assert len(shop) == 2 and all(map(_shown_right, shop)), shop
    with pikepdf.open(folder / "cards.pdf") as doc:
        placed = {bytes(o.read_raw_bytes()): (str(o.ColorSpace), [float(v) for v in o.get("/Decode", [])])
                  for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"}
    templates = root / "templates" / "test"
    assert placed == {(templates / "adobe.jpg").read_bytes(): ("/DeviceCMYK", [1.0, 0.0] * 4),
                      (templates / "plain.jpg").read_bytes(): ("/DeviceCMYK", [])}
    said = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert not [w for w in said if "CMYK picture" in w], said
    heavy = [w for w in said if "reaches CMYK 100/100/100/100" in w]
    assert len(heavy) == 2, said  # the 400 % corner of each, measured as printed
    # and what to do (preflight48: the warning named the fault alone)
    assert all(w.endswith("over 同人印刷所（トンボ付きPDF）'s 300 %; save it in CMYK within the limit (a black ground as "
                          "K100 or a rich black, C40 M40 Y40 K100, never 100/100/100/100), or in RGB, which the export "
                          "converts within it") for w in heavy), heavy
    # each named by its file and the piece showing it (fixesR: "a picture reaches" on page 410 named neither)
    assert sorted(w.split("cards.pdf ")[1].split(" reaches")[0] for w in heavy) == [
        f"page {page} ('刷' of deck 'cards', front): templates/test/{file}"
        for page, file in ((1, "adobe.jpg"), (1, "plain.jpg"))], heavy
    assert run(root, "export", "--game", "test", "--preset", "printerstudio") == 0
    [face] = sorted((root / "build" / "test" / "printerstudio").glob("*front*.png"))
    with Image.open(face) as png:
        rgb = png.convert("RGB")
        top, bottom = rgb.crop((0, 0, rgb.width, rgb.height // 2)), rgb.crop((0, rgb.height // 2, rgb.width, rgb.height))
        assert _shown_right(_quadrants(top)) and _shown_right(_quadrants(bottom)), (_quadrants(top), _quadrants(bottom))


def test_a_mini_card_of_the_built_in_layout_passes_the_doujin_shops_small_knocked_out_text(tmp_path):
    """A trick-taking game's mini cards (``layout: card-mini``, the palette ``pnpgen new`` writes):
    the 同人 export warned of every deck's back, ``near-white … text 7 pt knocked out of a ground in
    several inks``: the layout's own deck name under the preset's 8 pt for white on a ground of
    three inks. The back's deck name is 8 pt, as large as its box allows."""
    deck = "name: 早見表カード\nlayout: card-mini\npieces:\n  - {title: 早見表, text: 手番の流れ, count: 5}\n"
    game = "title: 五色\ndraft: 1\nplayers: 3-5\ndate: 2026-12-05\npalette: {accent: \"#3b4a8c\"}\n"
    root = make_workspace(tmp_path, deck=deck, game=game)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    found = json.loads((root / "build" / "test" / "doujin" / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert not [w for w in found if "knocked out" in w], found


def test_a_cmyk_jpeg_whose_rgb_is_another_pictures_too_keeps_neithers_inks(tmp_path):
    """A rich-black CMYK JPEG (100/100/100/100) and an RGB black PNG show the same RGB pixels, and
    the PDF places those once, as one picture: the JPEG's 400 % printed for the RGB card too, which
    the export holds to DriveThruCards' 240 %. Neither keeps its own inks now: both print
    converted from RGB (K alone), and the export says so at the JPEG's piece."""
    from PIL import Image

    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '{{ image(piece.text, -bleed, -bleed, w + 2 * bleed, h + 2 * bleed) }}\n{% endblock %}\n')
    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 黒, text: black.png}\n  - {name: 濃, text: rich.jpg}\n",
                          front=front)
    Image.new("RGB", (60, 80), (0, 0, 0)).save(root / "templates" / "test" / "black.png")
    Image.new("CMYK", (60, 80), (255, 255, 255, 255)).save(root / "templates" / "test" / "rich.jpg", quality=95)
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--fit", "scale") == 0
    folder = root / "build" / "test" / "drivethrucards"
    with pikepdf.open(folder / "cards.pdf") as doc:
        [(space, kind, pixel)] = [(str(o.ColorSpace), str(o.Filter), pikepdf.PdfImage(o).as_pil_image().getpixel((0, 0)))
                                  for o in doc.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert (space, kind, pixel) == ("/DeviceCMYK", "/FlateDecode", (0, 0, 0, 255))  # the DCT's 400 % before
    found = json.loads((folder / "export.json").read_text(encoding="utf-8"))["warnings"]
    [said] = [w for w in found if "a CMYK JPEG whose pixels" in w]
    assert said.startswith("data/test/decks/cards.yaml:10:5: deck 'cards', templates/test/rich.jpg: a CMYK JPEG whose "
                           "pixels, as the faces show them in RGB, are templates/test/black.png's too"), said


def test_a_shop_files_page_is_named_by_its_piece_not_its_file_stem():
    """A warning about a page of a shop PDF named it ``cards-003 front``, a stem the designer never
    wrote: it names the piece (``'港'``), an unnamed one by its number, and which copies where
    the deck's copies differ."""
    from pathlib import Path

    from pnpgen.data.model import Piece
    from pnpgen.errors import Where
    from pnpgen.exports.faces import UniqueFace

    def face(values: dict, count: int = 2, first: int = 1, copies: int = 2) -> UniqueFace:
        piece = Piece(3, values, count, Where(Path("data/test/decks/cards.yaml"), 9))
        return UniqueFace(None, piece, first, copies, "f", None)  # type: ignore[arg-type]

    assert face({"name": "港"}).said == "'港'"
    assert face({"text": "本文"}).said == "piece 3"
    assert face({"name": "港"}, count=4, first=3).said == "'港' copies 3–4"
    assert face({"name": "港"}, count=4, first=2, copies=1).said == "'港' copy 2"
