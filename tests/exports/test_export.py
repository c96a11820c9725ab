"""pnpgen export: shop presets, per-face PNGs, order.csv, --fit, TTS decks, proof and CMYK pages."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import DECK_YAML, GAME_YAML, make_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.exports.presets import available, load_preset
from pnpgen.faces import convert as face_conversion

COUNTS = [3, 1, 2]


def _deck(size: str = "format: poker", counts=COUNTS) -> str:
    head = DECK_YAML.replace("format: poker", size)
    return head + "".join(f"  - {{name: カード{i}, text: 本文{i}, count: {n}}}\n" for i, n in enumerate(counts, 1))


def _order(folder: Path) -> list[dict]:
    return list(csv.DictReader((folder / "order.csv").open(encoding="utf-8-sig", newline="")))


def test_every_shipped_preset_loads_with_consistent_pixels(tmp_path):
    ws = Workspace(make_workspace(tmp_path / "ws"))
    names = available(ws, "test")
    for want in ("thegamecrafter", "makeplayingcards", "drivethrucards", "printerstudio", "doujin", "tabletopsimulator"):
        assert want in names
    tgc = load_preset(ws, "test", "thegamecrafter")
    poker = next(f for f in tgc.formats if f.name == "poker")
    assert poker.pixels == (825, 1125)
    assert poker.trim == pytest.approx((63.5, 88.9))
    assert poker.bleed == pytest.approx(3.175) and poker.safe == pytest.approx(3.175)
    doujin = load_preset(ws, "test", "doujin")
    assert (doujin.colour, doujin.marks, doujin.dpi) == ("cmyk", "jp", 350)
    assert all(f.bleed == 3.0 for f in doujin.formats)


def test_tgc_poker_pngs_are_exactly_825x1125_and_order_sums_to_the_deck(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=_deck("size: [2.5in, 3.5in]"))
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 0
    out = root / "build" / "test" / "thegamecrafter"
    said = re.search(r"test: (\d+) files in ", capsys.readouterr().out)
    assert said and int(said.group(1)) == len(list(out.iterdir())), said  # export.json counted too
    pngs = sorted(out.glob("*.png"))
    faces = [p for p in pngs if "-front" in p.name or p.name.endswith("-back.png")]
    assert len([p for p in faces if "-front" in p.name]) == len(COUNTS)
    for p in faces:
        with Image.open(p) as im:
            assert im.size == (825, 1125), p.name
    rows = _order(out)
    assert sum(int(r["quantity"]) for r in rows) == sum(COUNTS)
    assert [int(r["quantity"]) for r in rows] == COUNTS
    assert all((out / r["file"]).is_file() and (out / r["back"]).is_file() for r in rows)


def test_png_is_the_pdf_page_rasterised(tmp_path):
    """The trim of a 63×88 red card with --fit bleed: red reaches the image edge (art bleed covers it)."""
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "makeplayingcards", "--fit", "bleed") == 0
    out = root / "build" / "test" / "makeplayingcards"
    front = out / "cards-001-front-x3.png"
    with Image.open(front) as im:
        assert im.size == (822, 1122)
        for xy in ((0, 0), (821, 1121), (411, 1)):
            assert im.convert("RGB").getpixel(xy) == (0xCC, 0x33, 0x33)
    assert {r["file"] for r in _order(out)} >= {front.name}


def test_a_size_no_format_fits_exits_2_naming_the_nearest(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 2
    err = capsys.readouterr().err
    assert "cards.yaml" in err and "nearest is poker 63.5×88.9 mm" in err and "--fit" in err
    assert not (root / "build" / "test" / "thegamecrafter").exists()


def test_fit_refuses_a_different_card(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=_deck("size: [50, 88]"))
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "scale") == 2
    assert "would move its edges" in capsys.readouterr().err


def test_fit_scale_fills_the_format(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "scale") == 0
    with Image.open(root / "build" / "test" / "thegamecrafter" / "cards-002-front.png") as im:
        assert im.size == (825, 1125)
        assert im.convert("RGB").getpixel((0, 0)) == (0xCC, 0x33, 0x33)


def test_pdf_copies_one_page_per_copy_back_first_with_boxes(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=_deck("size: [2.5in, 3.5in]"))
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--colour", "rgb") == 0
    out = root / "build" / "test" / "drivethrucards"
    reader = PdfReader(out / "cards.pdf")
    assert len(reader.pages) == 2 * sum(COUNTS)
    mm = 25.4 / 72
    for page in reader.pages:
        trim = [float(v) * mm for v in page.trimbox]
        assert trim[2] - trim[0] == pytest.approx(63.5, abs=0.01)
        assert trim[3] - trim[1] == pytest.approx(88.9, abs=0.01)
        assert float(page.mediabox.width) * mm == pytest.approx(63.5 + 2 * 3.175, abs=0.01)
    # back before front: page 1 shows the back's text, page 2 the front's
    assert "Bカード1" in reader.pages[0].extract_text() and "本文1" in reader.pages[1].extract_text()
    rows = _order(out)
    assert sum(int(r["quantity"]) for r in rows) == sum(COUNTS)
    assert [r["pages"] for r in rows] == ["1-6", "7-8", "9-12"]


def test_export_is_deterministic_and_replaces_the_last_one(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=_deck("size: [2.5in, 3.5in]"))
    out = root / "build" / "test" / "thegamecrafter"
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 0
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(_deck("size: [2.5in, 3.5in]", [2]), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 0
    assert not (out / "cards-003-front.png").exists() and (out / "cards-001-front.png").exists()


TOKEN_YAML = """\
name: トークン
kind: token
shape: circle
size: 20
front: token.svg.j2
back: token.svg.j2
fields: {name: text}
pieces:
  - {name: 金, count: 4}
  - {name: 銀, count: 2}
"""
TOKEN_SVG = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#3366cc"/>{% endblock %}
"""


def test_tts_deck_json_sheets_and_hidden_card(tmp_path):
    counts = [2] + [1] * 74  # 75 distinct cards: two sheets (69 + 6)
    root = make_workspace(tmp_path / "ws", deck=_deck(counts=counts))
    (root / "data" / "test" / "decks" / "tokens.yaml").write_text(TOKEN_YAML, encoding="utf-8")
    (root / "templates" / "test" / "token.svg.j2").write_text(TOKEN_SVG, encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator",
               "--base-url", "https://example.org/tts/") == 0
    out = root / "build" / "test" / "tabletopsimulator"
    deck = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom"
    assert len(deck["DeckIDs"]) == sum(counts) == len(deck["ContainedObjects"])
    per_card = Counter(deck["DeckIDs"])
    assert sorted(per_card.values(), reverse=True) == sorted(counts, reverse=True)
    first = min(int(k) for k in deck["CustomDeck"])
    assert per_card[first * 100] == 2
    assert [c["Nickname"] for c in deck["ContainedObjects"][:3]] == ["カード1", "カード1", "カード2"]
    assert set(deck["CustomDeck"]) == {str(first), str(first + 1)}
    for number, entry in deck["CustomDeck"].items():
        assert entry["FaceURL"].startswith("https://example.org/tts/cards-faces-")
        assert entry["BackIsHidden"] is True
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        assert cols <= 10 and rows <= 7
        ids = [i for i in per_card if i // 100 == int(number)]
        assert ids
        assert max(i % 100 for i in ids) < cols * rows - 1  # the last slot stays for the hidden card
        with Image.open(out / entry["FaceURL"].rsplit("/", 1)[1]) as sheet:
            assert sheet.width <= 4096 and sheet.height <= 4096
            cw, ch = sheet.width // cols, sheet.height // rows
            hidden = sheet.convert("RGB").getpixel((cw * (cols - 1) + cw // 2, ch * (rows - 1) + 5))
            assert hidden == (0x33, 0x33, 0x66)  # the back's ground
    tokens = json.loads((out / "tokens.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert tokens["Name"] == "Bag"
    inside = tokens["ContainedObjects"]
    # Double-sided round tokens: circle tiles, which have a back (a Custom_Token has one image).
    assert len(inside) == 6 and {o["Name"] for o in inside} == {"Custom_Tile"}
    assert {o["CustomImage"]["CustomTile"]["Type"] for o in inside} == {2}
    # their one back (its template reads no field) is one image for every token, as a deck's card back is
    assert {o["CustomImage"]["ImageSecondaryURL"] for o in inside} == {"https://example.org/tts/tokens-back.png"}


def test_tts_default_urls_are_file_paths(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    out = root / "build" / "test" / "tabletopsimulator"
    entry = json.loads((out / "cards.json").read_text(encoding="utf-8"))["ObjectStates"][0]["CustomDeck"]
    entry = next(iter(entry.values()))
    assert entry["FaceURL"] == (out / "cards-faces-1.png").resolve().as_uri()
    assert entry["BackURL"].startswith("file:///")


def test_proof_overlays_trim_bleed_and_safe(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb", "--proof") == 0
    reader = PdfReader(root / "build" / "test" / "doujin" / "cards.pdf")
    assert len(reader.pages) == 2 * len(COUNTS)  # each distinct face once, then its back
    text = reader.pages[0].extract_text()
    assert "trim 63.00×88.00" in text and "bleed 3.00" in text and "safe 3.00" in text
    mm = 25.4 / 72
    trim = [float(v) * mm for v in reader.pages[0].trimbox]
    assert trim[0] == pytest.approx(8 + 3, abs=0.01)  # room for トンボ outside the 3 mm bleed


def test_cmyk_for_an_rgb_image_shop_is_an_error(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "bleed", "--colour", "cmyk") == 2
    assert "takes RGB images" in capsys.readouterr().err


def test_cmyk_export_has_no_rgb_operators_and_black_text_on_k(tmp_path):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    pdf = (root / "build" / "test" / "doujin" / "cards.pdf").read_bytes()
    from pnpgen.pdf.colour import content_streams

    reader = PdfReader(io.BytesIO(pdf))
    streams = [s for page in reader.pages for s in content_streams(page)]
    for data in streams:
        assert not re.search(rb"(?<![\w.])(rg|RG)(?![\w])", data)
    assert any(re.search(rb"(?<![\d.])0 0 0 1 k", s) for s in streams)
    assert any(b"/All CS 1 SCN" in s for s in streams)  # トンボ in the registration colour (Separation All)
    assert not any(b"1 1 1 1 K" in s for s in streams)  # not a 400 % DeviceCMYK
    record = json.loads((root / "build" / "test" / "doujin" / "export.json").read_text(encoding="utf-8"))
    assert record["warnings"] == []  # marks are not ink on the piece; the red card is 170 %


def test_bad_preset_pixels_name_the_file_and_line(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=_deck())
    (root / "presets").mkdir()
    (root / "presets" / "myshop.yaml").write_text(
        "name: My shop\ndpi: 300\nformats:\n  poker: {trim: [63mm, 88mm], bleed: 3mm, pixels: [800, 1111]}\n",
        encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "myshop") == 2
    err = capsys.readouterr().err
    assert "myshop.yaml:4" in err and "800 px is not trim + 2 × bleed" in err


def test_a_preset_min_line_thicker_than_a_millimetre_is_refused_at_its_line(tmp_path, capsys):
    """hostile32: ``min_line: 5cm`` (for 0.5mm) drew every line of a shop's book 142 pt wide, unsaid."""
    root = make_workspace(tmp_path / "ws", deck=_deck())
    (root / "presets").mkdir()
    (root / "presets" / "myshop.yaml").write_text(
        "name: My shop\nformats:\n  poker: {trim: [63mm, 88mm], bleed: 3mm}\nmin_line: 5cm\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "myshop") == 2
    err = capsys.readouterr().err
    assert "myshop.yaml:4" in err and "50 mm is thicker than any shop's thinnest line" in err and "up to 1mm" in err
    assert "Traceback" not in err and not (root / "build" / "test" / "myshop").exists()


def test_export_renders_each_face_once_and_draws_it_once(tmp_path, monkeypatch):
    """The engine renders one template context per piece and side (not per copy), converts each
    distinct SVG once, and the PDF of every copy draws each face as one Form XObject."""
    from pnpgen.faces.templates import Renderer

    renders, converts = [], []
    render, convert = Renderer.rendered, face_conversion.convert  # (the face stage's: render's too)
    monkeypatch.setattr(Renderer, "rendered", lambda self, face, *a: renders.append(face) or render(self, face, *a))
    monkeypatch.setattr(face_conversion, "convert", lambda svg, *a, **k: converts.append(svg) or convert(svg, *a, **k))
    root = make_workspace(tmp_path / "ws", deck=_deck("size: [2.5in, 3.5in]"))
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--colour", "rgb") == 0
    assert len(renders) == 2 * len(COUNTS)  # fronts and backs of 3 pieces, 6 printed copies
    assert len(converts) == len(set(converts)) == 2 * len(COUNTS)
    reader = PdfReader(root / "build" / "test" / "drivethrucards" / "cards.pdf")
    forms = {page["/Resources"]["/XObject"][name].indirect_reference.idnum
             for page in reader.pages for name in page["/Resources"]["/XObject"]}
    assert len(reader.pages) == 2 * sum(COUNTS) and len(forms) == 2 * len(COUNTS)


def test_fit_scale_places_the_art_scaled_and_centred_on_the_format(tmp_path):
    from pypdf.generic import ContentStream

    root = make_workspace(tmp_path / "ws", deck=_deck())
    (root / "presets").mkdir()
    (root / "presets" / "pdfshop.yaml").write_text(
        "name: PDF shop\ndpi: 300\nfiles: pdf-copies\nformats:\n"
        "  poker: {trim: [2.5in, 3.5in], bleed: 0.125in, safe: 0.125in}\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "pdfshop", "--fit", "scale") == 0
    reader = PdfReader(root / "build" / "test" / "pdfshop" / "cards.pdf")
    page = reader.pages[0]
    ops = ContentStream(page.get_contents(), reader).operations
    do = next(i for i, (_, op) in enumerate(ops) if op == b"Do")
    a, b, c, d, e, f = (float(v) for v in next(args for args, op in reversed(ops[:do]) if op == b"cm"))
    s = 88.9 / 88  # covers the taller side; 63×88 → 63.5×88.9
    assert (a, d) == (pytest.approx(s, abs=1e-5), pytest.approx(s, abs=1e-5)) and b == c == 0
    x0, y0, x1, y1 = (float(v) for v in page["/Resources"]["/XObject"][ops[do][0][0]]["/BBox"])
    centre = (a * (x0 + x1) / 2 + e, d * (y0 + y1) / 2 + f)  # the art's centre on the page, pt
    assert centre == (pytest.approx(float(page.mediabox.width) / 2, abs=1e-3),
                      pytest.approx(float(page.mediabox.height) / 2, abs=1e-3))
    mm = 25.4 / 72
    assert (x1 - x0) * a * mm == pytest.approx(s * 63 + 2 * 3.175, abs=0.01)  # the art covers the bleed


def test_pdf_faces_pages_carry_their_quantities_as_labels(tmp_path):
    """The build's unique-faces labels (``カード1 ×3``, ``カード1 ×3（裏）``): the piece's name, no stray space,
    the back's word in the game's language (English in a Japanese game before)."""
    root = make_workspace(tmp_path / "ws", deck=_deck())
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    reader = PdfReader(root / "build" / "test" / "doujin" / "cards.pdf")
    assert list(reader.page_labels) == [label for i, n in enumerate(COUNTS, 1)
                                        for label in (f"カード{i} ×{n}", f"カード{i} ×{n}（裏）")]
    assert sum(int(label.split("×")[1]) for label in reader.page_labels if "（裏）" not in label) == sum(COUNTS)
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    shop = PdfReader(root / "build" / "test" / "shop" / "cards-unique.pdf")
    assert list(shop.page_labels) == list(reader.page_labels)


def test_a_single_sided_deck_at_a_shop_that_reads_two_pages_a_card_gets_blank_backs(tmp_path):
    """DriveThruCards reads a deck's file two pages a card, back then front: a deck without backs
    was written a page a card, so the shop took every other card for the back of the one before.
    Each card now has a blank back page before it, the export says so (at the deck file's name:
    line, its line 1 a comment), and order.csv names them."""
    import pypdfium2 as pdfium

    deck = "# 片面のカード\n" + _deck(counts=[2, 1]).replace("back: card-back.svg.j2\n", "")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--fit", "scale") == 0
    out = root / "build" / "test" / "drivethrucards"
    doc = pdfium.PdfDocument(out / "cards.pdf")
    assert len(doc) == 6  # three copies, two pages each
    texts = [doc[i].get_textpage().get_text_range().strip() for i in range(len(doc))]
    assert [bool(t) for t in texts] == [False, True] * 3 and "カード1" in texts[1] and "カード2" in texts[5]
    blank = doc[0].render(scale=0.5).to_pil().convert("L")
    assert blank.getextrema() == (255, 255)  # white, bleed and all
    assert [(r["pages"], r["back"]) for r in _order(out)] == [("1-4", "1-3 odd"), ("5-6", "5")]
    warnings = json.loads((out / "export.json").read_text(encoding="utf-8"))["warnings"]
    (said,) = [w for w in warnings if "blank (white) back page" in w]
    assert said.startswith("data/test/decks/cards.yaml:2:7: cards.pdf: deck 'cards' has cards without a back"), said


def test_png_faces_are_drawn_a_run_at_a_time_with_the_same_bytes(tmp_path, monkeypatch):
    """A deck's face images are rasterised a run of faces at a time (never every face's pixels in
    memory together): the same files as one document of every face."""
    from pnpgen.exports import shop

    ws = make_workspace(tmp_path / "ws", deck=_deck("size: [2.5in, 3.5in]"))
    drawn: list[int] = []
    real = shop.face_images

    def counted(keys, style, size, sides=None):
        drawn.append(len(keys))
        return real(keys, style, size, sides)

    monkeypatch.setattr(shop, "face_images", counted)
    monkeypatch.setattr(shop, "RUN", 10**6)
    assert run(ws, "export", "--game", "test", "--preset", "thegamecrafter", "--out", str(tmp_path / "whole")) == 0
    whole = drawn[:]
    drawn.clear()
    monkeypatch.setattr(shop, "RUN", 4)
    assert run(ws, "export", "--game", "test", "--preset", "thegamecrafter", "--out", str(tmp_path / "runs")) == 0
    assert max(drawn) <= 4 and sum(drawn) == sum(whole) and len(drawn) > len(whole)
    one, two = tmp_path / "whole" / "test" / "thegamecrafter", tmp_path / "runs" / "test" / "thegamecrafter"
    names = sorted(p.name for p in one.iterdir() if p.suffix == ".png")
    assert names and all((one / n).read_bytes() == (two / n).read_bytes() for n in names)


def test_what_a_deck_left_out_warned_of_is_not_the_exports(tmp_path):
    """A deck ``--deck`` leaves out is not sent: its title overflowing its box was said by an
    export of another deck alone (19 lines of a token deck, in export.json too, when only the
    poker cards went to Tabletop Simulator). Exporting that deck still says it."""
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])
    (root / "data" / "test" / "decks" / "tiny.yaml").write_text(
        "name: 小さな駒\nlayout: token-round\nshape: hex\nsize: 30\n"
        "pieces:\n  - {title: とても長い名前の駒です, value: 1}\n", encoding="utf-8")

    def warned(deck: str) -> list[str]:
        out = tmp_path / deck
        assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck", deck,
                   "--out", str(out)) == 0
        return json.loads((out / "test" / "tabletopsimulator" / "export.json").read_text(encoding="utf-8"))["warnings"]

    [overflow] = [w for w in warned("tiny") if "does not fit its" in w]
    assert overflow.startswith("data/test/decks/tiny.yaml:6:13: deck 'tiny' piece 1 (とても長い名前の駒です) front, "
                               "field 'title': "), overflow
    assert [w for w in warned("cards") if "tiny" in w] == []


def test_a_deck_left_out_says_no_missing_translation_of_its_own(tmp_path):
    """Large-deck trial: an English export of one deck listed every missing translation of the
    decks it left out (found as the game loads); a deck exported still says its own."""
    root = make_workspace(tmp_path / "ws", pieces=["カード1"], game=GAME_YAML + "languages: [ja, en]\n")
    (root / "data" / "test" / "decks" / "tiny.yaml").write_text(
        "name: {ja: 小さな駒, en: Tiny}\nlayout: token-round\n"
        "pieces:\n  - {title: {ja: 駒}, value: 1}\n", encoding="utf-8")

    def warned(deck: str) -> list[str]:
        out = tmp_path / deck
        assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck", deck, "--lang", "en",
                   "--out", str(out)) == 0
        found = (out / "test" / "en" / "tabletopsimulator" / "export.json")
        found = found if found.is_file() else next(out.rglob("export.json"))
        return json.loads(found.read_text(encoding="utf-8"))["warnings"]

    assert any("tiny.yaml" in w and "no en translation" in w for w in warned("tiny"))
    assert [w for w in warned("cards") if "tiny.yaml" in w] == []


def test_a_mistyped_or_short_preset_name_is_told_the_preset_meant(tmp_path, capsys):
    """``--preset doujinn`` and ``--preset tts`` (what designers call Tabletop Simulator) listed
    the presets without the one meant; a typo gets its 'did you mean', a short name its preset."""
    from pnpgen.errors import InputError

    ws = Workspace(make_workspace(tmp_path / "ws"))
    for typed, meant in (("doujinn", "doujin"), ("tts", "tabletopsimulator"), ("TTS", "tabletopsimulator"),
                         ("mpc", "makeplayingcards")):
        with pytest.raises(InputError, match=f"unknown preset '{typed}'; did you mean {meant}\\?"):
            load_preset(ws, "test", typed)
    with pytest.raises(InputError) as e:
        load_preset(ws, "test", "xyz")
    assert "did you mean" not in str(e.value)


@pytest.mark.parametrize("bleed", ["0", "5mm"])
def test_an_export_prints_the_shops_bleed_whatever_the_deck_says(tmp_path, bleed):
    """preflight9 (docs/exports.md, deck-bleed): a deck's own ``bleed:`` (0 for die-cut chits, 5 mm
    for a board) moves the build's pages, not a shop's: DriveThruCards' page is 2.5×3.5 in with
    1/8 in (3.175 mm) a side, BleedBox = MediaBox, and the red ground fills it to the page's edge."""
    import pypdfium2 as pdfium

    deck = _deck("size: [2.5in, 3.5in]", counts=[1]).replace("pieces:\n", f"bleed: {bleed}\npieces:\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--colour", "rgb") == 0
    pdf = root / "build" / "test" / "drivethrucards" / "cards.pdf"
    mm = 25.4 / 72
    for page in PdfReader(pdf).pages:
        trim, bleedbox = ([float(v) * mm for v in box] for box in (page.trimbox, page.bleedbox))
        assert [round(b - t, 3) for b, t in zip(bleedbox, trim)] == [-3.175, -3.175, 3.175, 3.175]
        assert float(page.mediabox.width) * mm == pytest.approx(69.85, abs=0.01)
        assert float(page.mediabox.height) * mm == pytest.approx(95.25, abs=0.01)
    front = pdfium.PdfDocument(pdf)[1].render(scale=300 / 72).to_pil().convert("RGB")
    for x, y in ((3, 3), (front.width // 2, 3), (front.width - 4, front.height - 4)):  # 0.25 mm from the edge
        assert front.getpixel((x, y)) == (0xCC, 0x33, 0x33)


def test_the_drivethrucards_page_boxes_the_docs_give_to_check_a_file_are_the_files(tmp_path):
    """A designer checks the upload with `pdfinfo -box` against docs/exports.md: the boxes it
    gives, in points, are every page's of the PDF/X-1a file the preset writes."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "exports.md").read_text(encoding="utf-8")
    said = re.search(r"`pdfinfo -box[^`]*` gives every page a MediaBox and a BleedBox of\s+`([\d. ]+)`.*?"
                     r"TrimBox of `([\d. ]+)`.*?`PDF version: ([\d.]+)`", docs, re.S)
    assert said, "docs/exports.md gives no pdfinfo -box figures for DriveThruCards"
    bleed, trim = ([float(v) for v in said[i].split()] for i in (1, 2))
    root = make_workspace(tmp_path / "ws", deck=_deck("size: [2.5in, 3.5in]"))
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards") == 0
    pdf = root / "build" / "test" / "drivethrucards" / "cards.pdf"
    assert pdf.read_bytes().startswith(f"%PDF-{said[3]}".encode())
    for page in PdfReader(pdf).pages:
        assert [float(v) for v in page.mediabox] == bleed and [float(v) for v in page.bleedbox] == bleed
        assert [float(v) for v in page.trimbox] == trim
