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


def test_a_deck_whose_file_names_an_uploader_may_refuse_is_warned(tmp_path):
    """A deck file named in Japanese and with a space names its shop files so ('役割 カード.pdf');
    Japanese printers ask for file names of 半角英数字 (株式会社栄光's 原稿作成共通設定): the export
    says so, naming the deck file; a deck named cards is not warned, nor a virtual table's export."""
    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 王, text: 本文}\n")
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
        "data/test/decks/役割 カード.yaml:1: deck '役割 カード' names the files sent to 同人印刷所（トンボ付きPDF） "
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
    assert doujin.startswith(front + "cards.pdf page 1 (cards-001 front): the art stops at the trim on the top, right, "
                             "bottom, left, and the 3 mm bleed beyond it is bare paper"), doujin
    [dtc] = _bare(tmp_path / "dtc", TRIM_ONLY, "drivethrucards", "--fit", "scale")
    assert dtc.startswith(front + "cards.pdf page 2 (cards-001 front): the art stops at the trim on the top, right, "
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
    assert line.startswith("data/test/decks/cards.yaml:5:8: cards.pdf page 1 (cards-001 front): the art stops at "
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
    assert line.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 2 (cards-001 front): the art stops at "
                           "the trim on the top, bottom, "), line
