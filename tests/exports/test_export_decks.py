"""pnpgen export with decks a preset cannot take: tokens, tiles and boards left out (named, with
what would take them), --fit suggested only where it works, one format vocabulary, order.csv."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import DECK_YAML, make_workspace, run
from pnpgen.data.formats import CARD_FORMATS
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.exports import contact
from pnpgen.exports.presets import FIT_LIMIT_OF_BLEED, NotTaken, available, fit_deck, load_preset

CARDS = DECK_YAML + "  - {name: 魚, text: 売る, count: 4}\n  - {name: 塩, text: 未定, count: 2}\n"
SEAS = "name: 海域タイル\nkind: tile\nshape: hex\nsize: 50\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n" \
       "pieces:\n  - {name: 港}\n  - {name: 外洋, count: 3}\n"
BOARD = "name: 得点ボード\nkind: board\nsize: [280, 200]\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n" \
        "pieces:\n  - {name: 盤}\n"
COIN = "name: コイン\nkind: token\nshape: circle\nsize: 70\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n" \
       "pieces:\n  - {name: 金, count: 5}\n"


def _harbor(tmp_path: Path, **decks: str) -> Path:
    """A game like the designer's harbor: poker cards, plus the given tile, board or token decks."""
    root = make_workspace(tmp_path / "ws", deck=CARDS)
    for name, text in decks.items():
        (root / "data" / "test" / "decks" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root


def _rows(path: Path) -> list[dict]:
    return list(csv.DictReader(path.open(encoding="utf-8-sig", newline="")))


def test_doujin_exports_the_cards_and_leaves_out_tile_board_and_token_saying_why(tmp_path, capsys):
    root = _harbor(tmp_path, seas=SEAS, board=BOARD, coins=COIN)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    err = capsys.readouterr().err
    out = root / "build" / "test" / "doujin"
    assert len(PdfReader(out / "cards.pdf").pages) == 4  # 2 distinct faces, each with its back
    assert not any((out / f"{d}.pdf").exists() for d in ("seas", "board", "coins"))
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    left = {o["deck"]: o for o in record["left_out"]}
    assert set(left) == {"board", "coins", "seas"}
    assert "hex tile" in left["seas"]["why"] and "circle token" in left["coins"]["why"]
    assert "not a card" in left["board"]["why"] and "--fit" not in left["board"]["why"].replace("--fit adapts", "")
    for o in left.values():
        assert "--preset tabletopsimulator" in o["taken_by"] and f"shop/{o['deck']}.pdf" in o["taken_by"][-1]
        # started, as the build's warnings are, with the deck file's line (it had no file:line): its
        # size: line, the size the preset does not take (safety17: a template deck's said line 1)
        text = {"seas": SEAS, "board": BOARD, "coins": COIN}[o["deck"]]
        line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("size:"))
        assert re.search(rf"^pnpgen: warning: data/test/decks/{o['deck']}\.yaml:{line}(:\d+)?: left out: deck "
                         rf"'{o['deck']}'", err, re.M), err
    assert len(record["warnings"]) == 4
    # 塩's text is 未定: a print shop would print it as it stands
    assert "decks/cards.yaml:10:21: deck 'cards' still prints 未定: 塩.text: 未定 (pnpgen check lists them); " \
           "同人印刷所（トンボ付きPDF） prints them as they are" in err
    rows = _rows(out / "order.csv")
    assert [(r["deck"], r["name"], r["quantity"]) for r in rows if r["note"]] == [
        ("board", "得点ボード", "0"), ("coins", "コイン", "0"), ("seas", "海域タイル", "0")]
    assert sum(int(r["quantity"]) for r in rows if r["deck"] == "cards") == 6
    # The contact sheet names them in lines of red text under the thumbnails.
    with Image.open(out / "test-contact.png") as full:
        sheet = full.convert("RGB")
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb", "--deck", "cards") == 0
    with Image.open(out / "test-contact.png") as only_cards:
        assert sheet.height > only_cards.height
        notes = sheet.crop((0, only_cards.height, sheet.width, sheet.height))
    import numpy as np  # 0.2 s to import: here, not in every test worker's collection

    px = np.asarray(notes).astype(int)
    assert ((px[..., 0] > 120) & (px[..., 1] < 60) & (px[..., 2] < 60)).sum() > 100  # the notes' red text
    assert json.loads((out / "export.json").read_text(encoding="utf-8"))["left_out"] == []


def test_a_deck_named_with_deck_that_the_preset_cannot_take_exits_2(tmp_path, capsys):
    root = _harbor(tmp_path, seas=SEAS)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--deck", "seas") == 2
    err = capsys.readouterr().err
    assert "seas.yaml" in err and "hex tile" in err and "Traceback" not in err
    # a 同人 designer's trial: the line said why, not what takes it (the warning of an export
    # without --deck does)
    assert "takes it: --preset doujin-pieces" in err and "shop/seas.pdf" in err, err
    assert not (root / "build" / "test" / "doujin").exists()
    # one reason a line, as "takes none of the decks" says it (it was one line of 400 characters)
    lines = err.strip().splitlines()
    assert len(lines) == 4 and lines[0].endswith("does not take deck 'seas':"), lines
    assert "seas.yaml:" in lines[0] and lines[1].startswith("  deck 'seas' is a hex tile"), lines
    assert lines[2].startswith("  (expected ") and lines[3].startswith("   takes it: --preset doujin-pieces"), lines


def test_a_game_of_only_decks_the_preset_cannot_take_exits_2(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", deck=BOARD)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 2
    err = capsys.readouterr().err
    assert "cards.yaml" in err and "not a card" in err and "--preset tabletopsimulator" in err


def _fit(tmp_path: Path, deck_yaml: str, preset: str, fit: str | None):
    root = make_workspace(tmp_path / "ws", deck=deck_yaml)
    ws = Workspace(root)
    return fit_deck(load_preset(ws, "test", preset), load_game(ws, "test").decks[0], fit)


@pytest.mark.parametrize("fit", ["scale", "bleed"])
def test_fit_never_shrinks_a_board_to_a_card(tmp_path, fit):
    """280×200 scaled by 0.45 is 126×90: only 1 mm past poker-double's 126×88, yet no card."""
    with pytest.raises(NotTaken, match="would move its edges 77.00 mm"):
        _fit(tmp_path, BOARD, "doujin", fit)


def test_no_fit_suggested_for_a_board(tmp_path):
    with pytest.raises(NotTaken) as e:
        _fit(tmp_path, BOARD, "doujin", None)
    assert "not a card" in str(e.value) and "--fit scale" not in str(e.value) and "--fit bleed" not in str(e.value)


def test_fit_suggested_where_it_works(tmp_path):
    with pytest.raises(NotTaken) as e:
        _fit(tmp_path, CARDS, "thegamecrafter", None)
    assert "or --fit scale|bleed to adapt it" in str(e.value)
    # the size to write, as an inch shop's card is written, at the deck file's format: line
    # (an American trial was told "a size of one of poker 63.5×88.9 mm, …" with no line)
    assert "expected size: [2.5in, 3.5in] in the deck file for its poker" in str(e.value)
    assert e.value.line == 2 and str(e.value.path).endswith("data/test/decks/cards.yaml")
    assert _fit(tmp_path / "2", CARDS, "thegamecrafter", "scale").format.name == "poker"


@pytest.mark.parametrize("fit", [None, "scale", "bleed"])
def test_round_and_hex_pieces_are_never_cards(tmp_path, fit):
    """A 70 mm coin's box is exactly doujin's 70×70 square card, and still it is no card."""
    with pytest.raises(NotTaken, match="circle token .*--fit does not make a circle piece a card"):
        _fit(tmp_path, COIN, "doujin", fit)
    with pytest.raises(NotTaken, match="hex tile"):
        _fit(tmp_path / "2", SEAS, "doujin", fit)
    assert _fit(tmp_path / "3", COIN, "tabletopsimulator", fit).trim == (70, 70)  # any size: taken as it is


def test_shipped_presets_name_formats_as_decks_do(tmp_path):
    """One vocabulary: a format of a named deck size carries the deck's name (doujin's 58×89 is
    bridge-jp, its 57×89 bridge), and a format with a deck format's name is that card, within
    what --fit adapts."""
    ws = Workspace(make_workspace(tmp_path / "ws"))
    for slug in available(ws, "test"):
        preset = load_preset(ws, "test", slug)
        for f in preset.formats:
            if f.trim is None:
                continue
            for name, size in CARD_FORMATS.items():
                if max(abs(a - b) for a, b in zip(f.trim, size)) <= 0.05:
                    assert f.name == name, (slug, f.name, size)
            if f.name in CARD_FORMATS:
                off = max(abs(a - b) for a, b in zip(f.trim, CARD_FORMATS[f.name])) / 2
                assert off <= FIT_LIMIT_OF_BLEED * f.bleed, (slug, f.name, f.trim)


def test_doujin_takes_a_bridge_jp_deck_under_its_own_name(tmp_path):
    assert _fit(tmp_path, CARDS.replace("format: poker", "format: bridge-jp"), "doujin", None).format.name == "bridge-jp"
    assert _fit(tmp_path / "2", CARDS.replace("format: poker", "format: bridge"), "doujin", None).format.name == "bridge"


def test_doujin_takes_the_japanese_small_card_of_the_card_jp_layout(tmp_path):
    """Japanese trial: the card-jp layout's 59×86 (日本規格・スモールサイズ) was left out of
    --preset doujin ('no format of that size, the nearest is bridge-jp 58×89')."""
    assert _fit(tmp_path, CARDS.replace("format: poker", "size: [59, 86]"), "doujin", None).format.name == "small-jp"
    assert _fit(tmp_path / "2", CARDS.replace("format: poker", "format: small-jp"), "doujin", None).trim == (59, 86)


def test_order_csv_has_a_bom_and_each_back_where_it_is(tmp_path):
    """The export's order.csv is written as the build's shop/order.csv (BOM, CRLF), and its back
    column says where each row's back is: the page of the PDF, or the back's PNG."""
    root = make_workspace(tmp_path / "ws", deck=CARDS)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    export_csv = (root / "build" / "test" / "doujin" / "order.csv").read_bytes()
    build_csv = (root / "build" / "test" / "shop" / "order.csv").read_bytes()
    for data in (export_csv, build_csv):
        assert data.startswith("\ufeff".encode()) and b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    rows = _rows(root / "build" / "test" / "doujin" / "order.csv")
    assert [(r["pages"], r["back"], r["piece"], r["name"]) for r in rows] == [("1-2", "2", "1", "魚"), ("3-4", "4", "2", "塩")]
    reader = PdfReader(root / "build" / "test" / "doujin" / "cards.pdf")
    assert "B魚" in reader.pages[int(rows[0]["back"]) - 1].extract_text()

    root = make_workspace(tmp_path / "ws2", deck=CARDS.replace("format: poker", "size: [2.5in, 3.5in]"))
    assert run(root, "export", "--game", "test", "--preset", "drivethrucards", "--colour", "rgb") == 0
    rows = _rows(root / "build" / "test" / "drivethrucards" / "order.csv")
    assert [(r["pages"], r["back"]) for r in rows] == [("1-8", "1-7 odd"), ("9-12", "9-11 odd")]
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 0
    folder = root / "build" / "test" / "thegamecrafter"
    rows = _rows(folder / "order.csv")
    assert [r["back"] for r in rows] == ["cards-001-back.png", "cards-002-back.png"]  # each back its own (B + name)
    assert all((folder / r["back"]).is_file() and r["pages"] == "" for r in rows)



def test_when_no_deck_fits_one_way_that_takes_them_all_is_said_once(tmp_path, capsys):
    """Two 63×88 mm decks for The Game Crafter (poker 63.5×88.9): --fit scale takes both; the
    error says so once, with the presets that take every deck, not a list per deck."""
    root = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])  # a card or two is enough to export
    decks = root / "data" / "test" / "decks"
    (decks / "more.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 2
    err = capsys.readouterr().err
    expected = err[err.index("(expected "):]
    assert expected.startswith("(expected for every deck: --preset thegamecrafter --fit scale, ")
    assert expected.count("--preset thegamecrafter") == 1 and "--preset tabletopsimulator" in expected
    assert "cards:" not in expected and "more:" not in expected
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "scale") == 0


def test_the_decks_this_preset_takes_with_fit_are_named_when_others_it_never_takes(tmp_path, capsys):
    """A 63×88 mm deck The Game Crafter takes with --fit scale, beside round tokens it never
    takes: the error names the way for the cards before what takes every deck."""
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])
    decks = root / "data" / "test" / "decks"
    (decks / "chips.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8").replace(
        "format: poker", "kind: token\nshape: circle\nsize: 20"), encoding="utf-8")
    (decks / "cards.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8").replace(
        "format: poker", "size: [63, 88]"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 2
    err = capsys.readouterr().err
    expected = err[err.index("(expected "):]
    assert expected.startswith("(expected --preset thegamecrafter --fit scale --deck cards (takes 'cards');\n"
                               "   for every deck: --preset doujin-pieces, --preset tabletopsimulator"), expected


def test_the_advice_names_a_deck_with_a_space_as_the_shell_takes_it(tmp_path, capsys):
    """An English designer's trial: 'Day Cards.yaml' beside round tokens was advised
    '--deck Day Cards', which the shell passes as --deck Day and a stray word Cards."""
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])
    decks = root / "data" / "test" / "decks"
    (decks / "chips.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8").replace(
        "format: poker", "kind: token\nshape: circle\nsize: 20"), encoding="utf-8")
    (decks / "cards.yaml").rename(decks / "Day Cards.yaml")
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter") == 2
    err = capsys.readouterr().err
    assert "(expected --preset thegamecrafter --fit scale --deck 'Day Cards' (takes 'Day Cards');\n" in err, err


def test_a_big_export_s_contact_sheet_is_several_sheets_the_notes_under_the_last(tmp_path, monkeypatch):
    """Some 400 faces a sheet (here 8: one row), so a deck of thousands of faces never makes one
    image taller than viewers open, nor holds every thumbnail at once."""
    from pnpgen.exports import contact

    monkeypatch.setattr(contact, "ROWS", 1, raising=False)
    root = _harbor(tmp_path, coins=COIN)  # 2 cards + their back, and a token deck doujin leaves out
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(DECK_YAML + "".join(f"  - {{name: 札{i}, text: 本文{i}}}\n" for i in range(1, 11)), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    out = root / "build" / "test" / "doujin"
    sheets = sorted(out.glob("test-contact*.png"))
    # 10 fronts and their 10 backs: 8, 8 and 4
    assert [p.name for p in sheets] == ["test-contact-2.png", "test-contact-3.png", "test-contact.png"]
    with Image.open(out / "test-contact.png") as first, Image.open(out / "test-contact-3.png") as last:
        assert first.size[1] < 400 and last.size[1] > first.size[1]  # one row each; the notes under the last
    written = set(json.loads((out / "export.json").read_text(encoding="utf-8"))["files"])
    assert {"test-contact.png", "test-contact-2.png", "test-contact-3.png"} <= written


LANDSCAPE = CARDS.replace("format: poker", "size: [88, 63]")
# A landscape card's top-left corner in blue, its ground white: where the corner lands shows the turn.
CORNER_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ 15 + bleed }}" height="{{ 10 + bleed }}" fill="#0000ff"/>
{% endblock %}
"""


def test_a_landscape_deck_prints_turned_on_the_shops_portrait_format(tmp_path):
    """A shop prints an 88×63 card on its 63×88 stock: the deck is taken at poker, turned a quarter
    clockwise (its top-left corner at the page's top-right), the page and TrimBox the format's
    portrait ones; at an inch shop with --fit as its portrait deck would be, and its PNGs portrait."""
    fitted = _fit(tmp_path / "1", LANDSCAPE, "doujin", None)
    assert (fitted.format.name, fitted.trim, fitted.turned) == ("poker", (63, 88), True)
    assert not _fit(tmp_path / "2", CARDS, "doujin", None).turned
    with pytest.raises(NotTaken, match="--fit scale"):  # the nearest format is the turned poker, not a square
        _fit(tmp_path / "3", LANDSCAPE, "thegamecrafter", None)
    root = make_workspace(tmp_path / "ws", deck=LANDSCAPE, front=CORNER_FRONT, back=CORNER_FRONT)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--deck", "cards") == 0
    pdf = root / "build" / "test" / "doujin" / "cards.pdf"
    page = PdfReader(pdf).pages[0]
    trim = [float(v) * 25.4 / 72 for v in page.trimbox]
    assert trim[2] - trim[0] == pytest.approx(63, abs=0.01) and trim[3] - trim[1] == pytest.approx(88, abs=0.01)
    from pnpgen.exports.faces import rasterise

    image, back, *_ = rasterise(pdf.read_bytes(), lambda i: (round(85 * 4), round(110 * 4)))
    px = 4.0  # per mm: the page is 63 + 2 × 3 bleed + 2 × 8 for the marks wide
    x0, y0 = 11 * px, 11 * px  # the trim's top-left

    def near(x_mm: float, y_mm: float, page=image) -> bool:  # blue (in CMYK, drawn 46/48/146), not the white ground
        r, _, b = page.getpixel((round(x0 + x_mm * px), round(y0 + y_mm * px)))
        return r < 128 and b > r + 50

    assert near(63 - 5, 7) and not near(5, 7)  # the corner is at the top right (10 mm wide, 15 mm tall), not top left
    assert not near(63 - 5, 17) and not near(63 - 12, 7)
    # its back turned the other way (trial80): the shop backs the portrait card top to top, so the
    # back's top-left corner, at the page's bottom left, lies behind the front's once the card is
    # turned over left to right as a landscape card is — both turned clockwise, it read upside down
    assert near(5, 88 - 7, back) and not near(63 - 5, 7, back) and not near(5, 7, back)
    assert not near(5, 88 - 17, back) and not near(12, 88 - 7, back)
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "scale") == 0
    png = Image.open(root / "build" / "test" / "thegamecrafter" / "cards-001-front.png")
    assert png.size == (825, 1125)
    assert png.getpixel((825 - 40, 40))[2] > 200 and png.getpixel((40, 40)) == (255, 255, 255)
    back_png = Image.open(root / "build" / "test" / "thegamecrafter" / "cards-back.png")
    assert back_png.getpixel((40, 1125 - 40))[2] > 200 and back_png.getpixel((825 - 40, 40)) == (255, 255, 255)


@pytest.mark.parametrize("shape", ["circle", "hex"])
def test_the_contact_sheet_shows_a_die_cut_piece_as_it_is_cut(tmp_path, shape):
    """A euro trial: round contract tokens with a solid back (its ground to the bleed) showed on
    the contact sheet as solid squares, as if the backs were square tiles; a die-cut piece's
    thumbnail is white outside its cut line, front and back."""
    deck = (f"name: C\nlayout: {{extends: token-round, shape: {shape}, size: 25, background: accent, "
            "back: {background: accent}}\npieces:\n  - {title: a, value: 1}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces") == 0
    with Image.open(root / "build" / "test" / "doujin-pieces" / "test-contact.png") as sheet:
        rgb = sheet.convert("RGB")
        cw = contact.THUMB[0] + 2 * contact.PAD
        w, h = (25, 25) if shape == "circle" else (25, 25 * 2 / 3 ** 0.5)  # a pointy hex's trim
        k = min(contact.THUMB[0] / w, contact.THUMB[1] / h)
        tw, th = round(w * k), round(h * k)
        for cell in (0, 1):  # the front, then the back
            x0 = cell * cw + (cw - tw) // 2
            y0 = 44 + contact.PAD + contact.THUMB[1] - th
            assert rgb.getpixel((x0 + 3, y0 + 3)) == (255, 255, 255), cell  # outside the cut line
            assert rgb.getpixel((x0 + tw // 2, y0 + th // 2)) != (255, 255, 255), cell


def test_advice_per_deck_keeps_the_shops_size_for_the_deck_file():
    """When no one way takes every deck, each deck's advice still ends with the shop's size to
    write in its deck file (the ``size:`` hint a left-out deck's warning and the all-decks advice give)."""
    from types import SimpleNamespace

    from pnpgen.exports.export import LeftOut, _takes_all
    from pnpgen.exports.presets import NotTaken

    cards = LeftOut(SimpleNamespace(id="cards"), NotTaken("63×88 mm", path="data/t/decks/cards.yaml", line=3,
                                                          resize="size: [2.5in, 3.5in]"),
                    ("--preset thegamecrafter --fit scale", "pnpgen build's shop/ files"))
    board = LeftOut(SimpleNamespace(id="board"), NotTaken("600×600 mm"), ("pnpgen build's shop/ files",))
    said = _takes_all(SimpleNamespace(slug="thegamecrafter"), [cards, board])
    assert said == ["cards: takes it: --preset thegamecrafter --fit scale, pnpgen build's shop/ files; or, with no "
                    "--fit, size: [2.5in, 3.5in] in data/t/decks/cards.yaml:3", "board: takes it: pnpgen build's shop/ files"]


def test_the_first_deck_export_after_an_older_pnpgens_state_exports_every_deck_once(tmp_path, capsys):
    """fixesY: the export's state says each file's deck since format 2; the first `--deck market`
    after an export by an older pnpgen (format 1: files without owners) removed the cards' files,
    as it could not tell them from market's own stale ones. That export writes every deck this
    once, says so in one line, and records the owners: the next `--deck` keeps the others'."""
    from pnpgen.engine.export import state_path
    from pnpgen.exports.options import ExportOptions
    from pnpgen.usercache import machine_seal

    root = _harbor(tmp_path, market=CARDS.replace("name: ", "name: 市場", 1))
    out = root / "build" / "test" / "doujin"
    args = ("export", "--game", "test", "--preset", "doujin", "--colour", "rgb")
    assert run(root, *args) == 0
    cards = (out / "cards.pdf").read_bytes()
    state = state_path(root / "build", "test", ExportOptions(preset="doujin", colour="rgb"))
    body = json.loads(read_record_body(state))
    assert {"cards", "market"} <= set(body["owners"].values())  # ("": the export's own, order.csv …)
    del body["owners"]  # the state as a format-1 pnpgen sealed it
    body["format"] = 1
    text = json.dumps(body, sort_keys=True).encode()
    state.write_bytes(json.dumps({"check": machine_seal(text)}).encode() + b"\n" + text)
    market = root / "data" / "test" / "decks" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8").replace("count: 4", "count: 7"), encoding="utf-8")
    capsys.readouterr()
    assert run(root, *args, "--deck", "market") == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "older pnpgen" in line]
    assert len(notes) == 1 and "(an older pnpgen's) does not record which deck each of its files is: every " \
        "deck exported this once" in notes[0], err
    assert (out / "cards.pdf").read_bytes() == cards  # the cards' file written again, as it was
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert record["files"] == ["cards.pdf", "market.pdf", "order.csv", "test-contact.png"] and "kept" not in record
    assert sum(int(r["quantity"]) for r in _rows(out / "order.csv")) > 9  # every deck's order: this once
    assert run(root, *args, "--deck", "market") == 0  # (a --deck export's own state now)
    assert "older pnpgen" not in capsys.readouterr().err
    assert json.loads((out / "export.json").read_text(encoding="utf-8"))["kept"] == ["cards.pdf"]


def read_record_body(path: Path) -> bytes:
    return path.read_bytes().partition(b"\n")[2]


def test_an_export_of_one_deck_leaves_the_other_decks_files_as_they_are(tmp_path, capsys):
    """`--deck market` after an export of every deck writes market's files and the export's own
    (order, contact sheet, export.json), and leaves the cards' files as that export wrote them,
    named in export.json's files and kept; an export of every deck again records nothing kept."""
    root = _harbor(tmp_path, market=CARDS.replace("name: ", "name: 市場", 1))
    out = root / "build" / "test" / "doujin"
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    cards = (out / "cards.pdf").read_bytes()
    market = root / "data" / "test" / "decks" / "market.yaml"
    market.write_text(market.read_text(encoding="utf-8").replace("count: 4", "count: 7"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb", "--deck", "market") == 0
    assert (out / "cards.pdf").read_bytes() == cards  # not removed, not written again
    record = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert record["files"] == ["cards.pdf", "market.pdf", "order.csv", "test-contact.png"]
    assert record["kept"] == ["cards.pdf"]
    rows = _rows(out / "order.csv")  # the order is this export's: market's 7 + 2 copies
    assert {r["deck"] for r in rows} == {"market"} and sum(int(r["quantity"]) for r in rows) == 9
    # the kept file counts in what the folder holds: changed, the export is made again, and never removed
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb", "--deck", "market") == 0
    assert "test: up to date" in capsys.readouterr().out
    (out / "cards.pdf").write_bytes(b"mine")
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb", "--deck", "market") == 0
    assert (out / "cards.pdf").read_bytes() == b"mine"
    assert "kept" not in json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    assert (out / "cards.pdf").read_bytes() == cards
    assert "kept" not in json.loads((out / "export.json").read_text(encoding="utf-8"))


def test_a_deck_export_removes_the_files_of_a_deck_renamed_or_parked_since(tmp_path):
    """hostile25: market.yaml renamed bazaar.yaml between exports, `--deck bazaar` kept market.pdf
    (another deck's, by the record) beside bazaar.pdf: the folder sent to the shop printed the
    deck twice. A deck the game no longer has, or whose every piece is parked now, owns nothing
    kept; a deck still printing keeps its files."""
    root = _harbor(tmp_path, market=CARDS.replace("name: ", "name: 市場", 1),
                   fish=CARDS.replace("name: ", "name: 魚市", 1))
    out = root / "build" / "test" / "doujin"
    args = ("export", "--game", "test", "--preset", "doujin", "--colour", "rgb")
    assert run(root, *args) == 0
    decks = root / "data" / "test" / "decks"
    (decks / "market.yaml").rename(decks / "bazaar.yaml")
    fish = decks / "fish.yaml"
    fish.write_text(re.sub(r"count: \d+", "count: 0", fish.read_text(encoding="utf-8")), encoding="utf-8")
    cards = (out / "cards.pdf").read_bytes()
    assert run(root, *args, "--deck", "bazaar") == 0
    assert sorted(p.name for p in out.iterdir()) == ["bazaar.pdf", "cards.pdf", "export.json", "order.csv", "test-contact.png"]
    assert (out / "cards.pdf").read_bytes() == cards
    assert json.loads((out / "export.json").read_text(encoding="utf-8"))["kept"] == ["cards.pdf"]


def test_a_deck_that_prints_nothing_is_no_shop_file_and_named_with_deck_exits_2(tmp_path, capsys):
    """A deck of parked pieces only (a picture for the rulebook, a deck set aside): the pieces
    preset stopped with a pdfium traceback on its empty pages (a designer trial); it is passed
    over, and named with --deck it is one line, exit 2."""
    root = _harbor(tmp_path, board=BOARD.replace("{name: 盤}", "{name: 盤, count: 0}"))
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces") == 0
    out = root / "build" / "test" / "doujin-pieces"
    assert (out / "cards.pdf").is_file() and not (out / "board.pdf").exists()
    assert [r["deck"] for r in _rows(out / "order.csv")] == ["cards", "cards"]  # no row of the parked deck
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "doujin-pieces", "--deck", "board") == 2
    err = capsys.readouterr().err
    assert "deck 'board' prints nothing: every piece is parked (count: 0)" in err and "Traceback" not in err


@pytest.mark.parametrize("preset", ["doujin", "tabletopsimulator", "thegamecrafter"])
def test_a_game_that_prints_nothing_is_one_line_exit_2_in_every_preset(tmp_path, capsys, preset):
    """hostile25: every piece of every deck parked (a game set aside, its rulebook's pictures
    only), or no deck at all: every export preset ended in an IndexError traceback (no deck was
    left out to name). One line, exit 2, the last export's files kept."""
    root = make_workspace(tmp_path / "ws", deck=CARDS.replace("count: 4", "count: 0").replace("count: 2", "count: 0"))
    assert run(root, "export", "--game", "test", "--preset", preset, "--fit", "scale") == 2
    err = capsys.readouterr().err
    assert "data/test/decks: --game: game 'test' prints nothing for " in err and \
        "every piece of its decks is parked (count: 0): cards (expected a piece with a count of 1 or more" in err, err
    assert "Traceback" not in err and not (root / "build" / "test" / preset).exists()
    (root / "data" / "test" / "decks" / "cards.yaml").unlink()
    assert run(root, "export", "--game", "test", "--preset", preset) == 2
    err = capsys.readouterr().err
    assert "prints nothing for" in err and ": it has no deck" in err and "Traceback" not in err, err


def test_decks_left_out_alike_are_one_warning_and_each_size_is_said_once(tmp_path, capsys):
    """Twenty decks of two sizes: PrinterStudio left ten out with ten warnings of 500 bytes, the
    same but for the deck's name, and MakePlayingCards' error wrote "(size: [2.5in, 3.5in])" after
    each of the twenty files. Decks left out alike are one warning, at the first one's line, each
    deck named and its file's line to write the size at; each size is said once; export.json
    still lists each deck left out; a deck left out for another reason keeps its own warning."""
    root = _harbor(tmp_path, coins=COIN, **{f"narrow{i}": DECK_YAML.replace("format: poker", "format: bridge")
                                             + "  - {name: 札, text: 本文}\n" for i in range(1, 4)})
    assert run(root, "export", "--game", "test", "--preset", "printerstudio") == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "left out" in line]
    assert len(warned) == 2, warned
    narrow = next(line for line in warned if "narrow" in line)
    assert narrow.startswith("pnpgen: warning: data/test/decks/narrow1.yaml:2:9: left out: decks 'narrow1', 'narrow2', "
                             "'narrow3' are each 57×89 mm; PrinterStudio has no format of that size"), narrow
    assert "; takes them: --preset printerstudio --fit scale, " in narrow and "pnpgen build's shop/ files (any size" in narrow
    assert narrow.endswith("; or, with no --fit, size: [2.25in, 3.5in] in data/test/decks/narrow1.yaml:2:9, "
                           "data/test/decks/narrow2.yaml:2:9, data/test/decks/narrow3.yaml:2:9"), narrow
    assert any(line.startswith("pnpgen: warning: data/test/decks/coins.yaml:4") and "left out: deck 'coins'" in line
               for line in warned), warned
    record = json.loads((root / "build" / "test" / "printerstudio" / "export.json").read_text(encoding="utf-8"))
    assert sorted(o["deck"] for o in record["left_out"]) == ["coins", "narrow1", "narrow2", "narrow3"]
    (root / "data" / "test" / "decks" / "coins.yaml").unlink()
    assert run(root, "export", "--game", "test", "--preset", "makeplayingcards") == 2
    err = capsys.readouterr().err
    assert err.count("size: [2.5in, 3.5in]") == 1 and err.count("size: [2.25in, 3.5in]") == 1, err
    assert err.endswith("the shop's size in the deck files: size: [2.5in, 3.5in] in data/test/decks/cards.yaml:2:9; "
                        "size: [2.25in, 3.5in] in data/test/decks/narrow1.yaml:2:9, data/test/decks/narrow2.yaml:2:9, "
                        "data/test/decks/narrow3.yaml:2:9)\n"), err


def test_pages_are_rasterised_one_at_a_time_as_asked_for(monkeypatch):
    """``rasterise`` renders a page when it is asked for, so a Tabletop Simulator sheet pastes its
    69 cards one by one (all of them held as a list were some 50 MB beside the sheet at 5,000
    cards); every page comes, in order, at its size."""
    import io

    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.exports.faces import rasterise

    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(72, 72))
    for grey in (0.0, 0.5, 1.0):
        canvas.setFillGray(grey)
        canvas.rect(0, 0, 72, 72, fill=1, stroke=0)
        canvas.showPage()
    canvas.save()
    rendered: list[int] = []
    real = pypdfium2.PdfPage.render
    monkeypatch.setattr(pypdfium2.PdfPage, "render", lambda self, **k: rendered.append(1) or real(self, **k))
    pages = rasterise(buf.getvalue(), lambda i: (20 + i, 20 + i))
    assert rendered == []
    first = next(pages)
    assert len(rendered) == 1 and first.size == (20, 20) and first.getpixel((10, 10)) == (0, 0, 0)
    rest = list(pages)
    assert len(rendered) == 3 and [im.size for im in rest] == [(21, 21), (22, 22)]
    assert rest[1].getpixel((10, 10)) == (255, 255, 255)


def test_the_contact_sheet_labels_each_face_by_its_pieces_title_escaped_and_cut_to_fit(tmp_path, monkeypatch):
    """A designer trial: the contact sheet said `cards-001 × 18` where the designer looks for 市民;
    a piece's title now, as it reads (its markup dropped, as the change report names it), a long
    one cut to the thumbnail's width; a piece without a name keeps its id."""
    from PIL import ImageDraw

    long = "とても長い名前の" * 6
    deck = DECK_YAML + ("  - {name: 市民, text: a, count: 18}\n  - {name: \"{南瓜|かぼちゃ}の**王**\", text: b}\n"
                        f"  - {{name: {long}, text: c}}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "data" / "test" / "decks" / "plain.yaml").write_text(
        "name: P\nformat: poker\nfront: card-front.svg.j2\nfields: {name: text, text: text}\npieces:\n  - {text: x}\n  - {text: y}\n",
        encoding="utf-8")
    drawn: list[str] = []
    fonts = {}
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append(text)
        fonts[text] = kwargs.get("font")
        return original(self, xy, text, *args, **kwargs)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    labels = [t for t in drawn if " × " in t or t.endswith(" back")]
    assert labels[:2] == ["市民 × 18", "南瓜の王 × 1"], labels
    cut = labels[2]
    assert cut.startswith("とても長い名前の") and cut.endswith("… × 1") and len(cut) < len(long), cut
    assert fonts[cut].getlength(cut) <= contact.THUMB[0] + contact.PAD < fonts[cut].getlength(long)  # under its thumbnail
    assert "plain-001 × 1" in labels and "plain-002 × 1" in labels  # no name: the id, as before


def test_a_long_name_is_cut_in_the_contact_sheets_note_and_the_open_values(tmp_path, capsys):
    """A paragraph pasted as a left-out deck's name made the contact sheet 131,164 px wide (its red
    note drawn whole), and one as a card's title each open value's line 9 KB (hostile35)."""
    title = "塩" * 3000
    root = _harbor(tmp_path, coins=COIN.replace("name: コイン", "name: " + "硬" * 10000))
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: 塩,", f"name: {title},"), encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    err = capsys.readouterr().err
    with Image.open(root / "build" / "test" / "doujin" / "test-contact.png") as sheet:
        assert sheet.width < 2000, sheet.size
    said = next(line for line in err.splitlines() if "still prints 未定" in line)
    assert f"still prints 未定: {'塩' * 59}….text: 未定 (pnpgen check lists them)" in said and len(said) < 400, said


def test_a_layout_deck_of_its_own_size_is_left_out_at_its_size_line(tmp_path, capsys):
    """A designer's trial (trial58): a mini-euro ``card-mini`` deck and a roll-and-write sheet of
    ``layout: {extends: board}`` given their own ``format:``/``size:`` were left out at the
    layout's ``extends:`` line, not at the size the shop does not take; the error of ``--deck``
    named no line at all."""
    events = "name: Events\nformat: mini-euro\nlayout: card-mini\npieces:\n  - {title: Storm, text: Rain., count: 2}\n"
    sheet = ("name: Sheets\nkind: board\nsize: [190, 250]\nlayout:\n  extends: board\n  boxes: {art: null}\n"
             "pieces:\n  - {title: Red, count: 2}\n")
    root = _harbor(tmp_path, events=events, sheets=sheet)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    err = capsys.readouterr().err
    assert "data/test/decks/sheets.yaml:3:7: left out: deck 'sheets' is 190×250 mm, not a card" in err, err
    assert "left out: deck 'events'" not in err  # doujin prints mini-euro
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--deck", "events") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/events.yaml:2:9: size: The Game Crafter does not take deck 'events':\n  deck 'events' is " \
        "44×68 mm, not a card" in err, err


def test_doujin_takes_a_karuta_deck_at_its_52_by_73_trim(tmp_path):
    """trial61: a かるた game's 読み札 and 取り札 (52×73 mm, 大石天狗堂's 競技用百人一首 size) were
    left out of --preset doujin ('its nearest format, mini-euro 44×68 mm, is 4.00 mm off a side');
    `format: karuta` names the size, and doujin prints it at its trim, 3 mm bled."""
    taken = _fit(tmp_path, CARDS.replace("format: poker", "format: karuta"), "doujin", None)
    assert taken.format.name == "karuta" and taken.trim == (52, 73) and taken.format.bleed == 3
    assert _fit(tmp_path / "2", CARDS.replace("format: poker", "size: [52, 73]"), "doujin", None).format.name == "karuta"


def test_the_contact_sheet_names_a_decks_one_back_by_the_deck_in_the_games_language(tmp_path, monkeypatch):
    """A deck's one back was labelled by its id in English (``cards back``), a deck left out
    ``left out: …`` in a Japanese game: the deck's name and the game's language, as pnpgen's
    other labels (messages/ja.yaml, en.yaml)."""
    from PIL import ImageDraw

    root = _harbor(tmp_path, board=BOARD)
    back = root / "templates" / "test" / "card-back.svg.j2"  # one back for every card
    back.write_text("\n".join(line for line in back.read_text(encoding="utf-8").splitlines() if "textbox" not in line),
                    encoding="utf-8")
    drawn: list[str] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        drawn.append(text)
        return original(self, xy, text, *args, **kwargs)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    assert "テストカード（裏）" in drawn and not [t for t in drawn if "cards" in t or t.endswith(" back")], drawn
    assert any(t.startswith("除外: 得点ボード: ") for t in drawn), drawn
    game = root / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "languages: [en]\n", encoding="utf-8")
    drawn.clear()
    assert run(root, "export", "--game", "test", "--preset", "doujin", "--colour", "rgb") == 0
    assert "テストカード back" in drawn and any(t.startswith("left out: 得点ボード: ") for t in drawn), drawn


def test_a_colour_left_empty_is_told_as_a_colour_left_open_not_as_a_printed_placeholder(monkeypatch):
    """review42: a tile whose painted edge colour is empty prints grey, yet the shop export said
    the deck 'still prints 未定'; a deck whose open values are all such colours says so, and one
    with a 未定 among them still says it prints 未定."""
    from types import SimpleNamespace

    from pnpgen.data.model import EMPTY_PAINTED, OpenValue
    from pnpgen.exports import export

    tiles = SimpleNamespace(id="tiles")
    grey = OpenValue(where="data/g/decks/tiles.yaml:4:5", text=EMPTY_PAINTED, decks=(tiles,), fields=("市街.east",))
    open_text = OpenValue(where="data/g/decks/tiles.yaml:9:5", text="未定", decks=(tiles,), fields=("森.text",))
    preset = SimpleNamespace(name="doujin-pieces")
    monkeypatch.setattr(export, "open_values_once", lambda decks: [grey])
    said = export.open_values([], preset, "ja")
    assert said == ["data/g/decks/tiles.yaml:4:5: deck 'tiles' still leaves colours open: 市街.east: (empty: the layout "
                    "paints it grey) (pnpgen check lists them); doujin-pieces prints them as they are"], said
    monkeypatch.setattr(export, "open_values_once", lambda decks: [grey, open_text])
    said = export.open_values([], preset, "ja")
    assert len(said) == 1 and "deck 'tiles' still prints 未定: 市街.east" in said[0] and ", and 1 more" in said[0], said
