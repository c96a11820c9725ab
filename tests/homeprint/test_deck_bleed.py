"""A deck's own ``bleed:`` (a punchboard's 0, a board's 5 mm) over the build's --bleed, for that
deck's sheets and shop pages alone, read back from the PDFs in millimetres; a bad one is one line
at its file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pikepdf

from conftest import DECK_YAML, make_workspace, run
from pdfprobe import texts

MM = 72 / 25.4
BOARD = ("name: 盤\nkind: board\nsize: [150, 100]\nbleed: 5mm\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n"
         "pieces:\n  - {name: 盤}\n")
CHITS = ("name: チット\nkind: token\nsize: [20, 20]\nbleed: 0\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n"
         "pieces:\n  - {name: 片, count: 4}\n")


def _workspace(tmp_path: Path, board: str = BOARD) -> Path:
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 魚, text: 売る}\n")
    (root / "data" / "test" / "decks" / "board.yaml").write_text(board, encoding="utf-8")
    (root / "data" / "test" / "decks" / "chits.yaml").write_text(CHITS, encoding="utf-8")
    return root


def _bleed(pdf: Path) -> set[float]:
    """Each page's bleed: how far its BleedBox reaches past its TrimBox (mm), one figure a side."""
    with pikepdf.open(pdf) as doc:
        out = set()
        for page in doc.pages:
            tx0, ty0, tx1, ty1 = (float(v) / MM for v in page.obj["/TrimBox"])
            bx0, by0, bx1, by1 = (float(v) / MM for v in page.obj["/BleedBox"])
            out |= {round(tx0 - bx0, 2), round(ty0 - by0, 2), round(bx1 - tx1, 2), round(by1 - ty1, 2)}
        return out


def test_a_decks_bleed_is_its_own_on_its_shop_pages_and_sheets(tmp_path):
    root = _workspace(tmp_path)
    out = tmp_path / "out"
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    shop = out / "test" / "shop"
    assert _bleed(shop / "board.pdf") == {5.0}  # the board's 5 mm
    assert _bleed(shop / "chits.pdf") == {0.0}  # the punchboard's none: the page is the trim
    assert _bleed(shop / "cards.pdf") == {3.0}  # the build's --bleed, as before
    decks = {d["id"]: d for d in json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"]}
    assert (decks["board"]["bleed_mm"], decks["chits"]["bleed_mm"], decks["cards"]["bleed_mm"]) == (5.0, 0.0, 3.0)
    assert decks["chits"]["sheet_bleed_mm"] == 0.0  # the home sheet gives the chits none either
    assert decks["cards"]["sheet_bleed_mm"] > 0
    # --bleed moves the decks without one, never a deck's own
    assert run(root, "build", "--game", "test", "--no-rulebook", "--bleed", "2mm", "--out", str(tmp_path / "o2")) == 0
    assert _bleed(tmp_path / "o2" / "test" / "shop" / "cards.pdf") == {2.0}
    assert _bleed(tmp_path / "o2" / "test" / "shop" / "board.pdf") == {5.0}


def test_a_bad_bleed_is_one_line_at_its_file_and_line(tmp_path, capsys):
    for bad, said in (("bleed: lots", "bleed 'lots' is not a length"), ("bleed: 12mm", "out of range"),
                      ("bleed: 9mm", "bleed 9 mm is not less than half this 150×100 mm piece")):
        root = _workspace(tmp_path / bad.replace(" ", "").replace(":", ""), BOARD.replace("bleed: 5mm", bad)
                          .replace("size: [150, 100]", "size: [150, 17]" if "9mm" in bad else "size: [150, 100]"))
        capsys.readouterr()
        assert run(root, "build", "--game", "test", "--no-rulebook") == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("pnpgen: error: data/test/decks/board.yaml:4:"), err
        assert said.replace("150×100", "150×17") in err and "Traceback" not in err, err


# A template that draws a fixed 3 mm bleed (the build's), and one that draws the bleed it is given.
FIXED_3MM = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="-3" y="-3" width="{{ w + 6 }}" height="{{ h + 6 }}" fill="#224466"/>
<text x="4" y="10" font-family="BIZUDGothic-Regular" font-size="4">bleed={{ bleed }}</text>
{% endblock %}
"""
GIVEN = FIXED_3MM.replace('x="-3" y="-3" width="{{ w + 6 }}" height="{{ h + 6 }}"',
                          'x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}"')


def test_a_wider_bleed_of_one_deck_leaves_the_others_at_their_own(tmp_path, capsys):
    """A board's bleed: 5mm drew every deck's faces at 5 mm (a card template's ``bleed`` was 5),
    and the bare-bleed check read every deck at 5 mm: the chits, printed with no bleed (bleed: 0),
    their art stopping at the trim, were warned of a bare 5 mm bleed. Each deck's faces are
    drawn, and read, at its own bleed."""
    from pypdf import PdfReader

    root = _workspace(tmp_path)
    (root / "templates" / "test" / "card-front.svg.j2").write_text(FIXED_3MM, encoding="utf-8")
    (root / "templates" / "test" / "board-front.svg.j2").write_text(GIVEN, encoding="utf-8")
    board = (root / "data" / "test" / "decks" / "board.yaml")
    board.write_text(board.read_text(encoding="utf-8").replace("front: card-front", "front: board-front"), encoding="utf-8")
    chits = (root / "data" / "test" / "decks" / "chits.yaml")
    chits.write_text(chits.read_text(encoding="utf-8").replace("front: card-front", "front: chit-front"), encoding="utf-8")
    (root / "templates" / "test" / "chit-front.svg.j2").write_text(
        '{% extends "common/piece.svg.j2" %}{% block art %}<rect width="{{ w }}" height="{{ h }}" fill="#664422"/>'
        '{% endblock %}', encoding="utf-8")
    out = tmp_path / "out"
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    assert run(root, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    said = capsys.readouterr()
    assert "bare" not in said.err + said.out, said
    shop = out / "test" / "shop"
    assert "bleed=3" in PdfReader(shop / "cards.pdf").pages[0].extract_text()  # a template's bleed: its deck's
    assert "bleed=5" in PdfReader(shop / "board.pdf").pages[0].extract_text()
    assert _bleed(shop / "cards.pdf") == {3.0} and _bleed(shop / "board.pdf") == {5.0}


def _blue_box(pdf: Path, page: int) -> tuple[int, int, int, int]:
    """The box (px at 4 px/mm) of the #224466 ground on a page."""
    import numpy as np
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    rgb = np.asarray(doc[page].render(scale=4 * 25.4 / 72).to_pil().convert("RGB")).astype(int)
    ys, xs = np.nonzero((abs(rgb[..., 0] - 0x22) < 8) & (abs(rgb[..., 1] - 0x44) < 8) & (abs(rgb[..., 2] - 0x66) < 8))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def test_a_reprint_sheet_places_a_wider_bleed_decks_faces_as_its_home_sheet_does(tmp_path):
    root = _workspace(tmp_path)
    (root / "templates" / "test" / "board-front.svg.j2").write_text(GIVEN.replace(">bleed=", ">{{ piece.name }} bleed="),
                                                                      encoding="utf-8")
    board = (root / "data" / "test" / "decks" / "board.yaml")
    board.write_text(board.read_text(encoding="utf-8").replace("front: card-front", "front: board-front"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert run(root, "tag", "--game", "test", "pt1") == 0
    board.write_text(board.read_text(encoding="utf-8").replace("{name: 盤}", "{name: 新盤}"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert run(root, "reprint", "--game", "test", "--since", "pt1") == 0
    built = root / "build" / "test"
    assert _blue_box(built / "reprint-since-v1.pdf", 0) == _blue_box(built / "board.pdf", 0)


def test_a_bleed_written_in_game_yaml_or_a_layout_says_where_it_goes(tmp_path, capsys):
    """``bleed: 5mm`` in game.yaml, or in a deck's layout, was an unknown key among twenty others,
    with no word of where a bleed is given: it names --bleed and the deck file's ``bleed:``."""
    root = _workspace(tmp_path)
    game = root / "data" / "test" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text + "bleed: 5mm\n", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "game.yaml:" in err and "bleed: unknown key in game.yaml; a build's bleed is --bleed (3 mm unless given), " \
        "a deck's own is bleed: in its deck file" in err, err
    game.write_text(text, encoding="utf-8")
    board = root / "data" / "test" / "decks" / "board.yaml"
    board.write_text("name: 盤\nlayout: {extends: board, bleed: 5mm}\npieces:\n  - {title: 盤}\n", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "board.yaml:2:" in err and "layout.bleed: unknown key in a layout; a deck's own bleed is bleed: in the deck " \
        "file, beside layout:, not in its layout" in err, err


def test_a_card_deck_asking_less_bleed_than_the_printer_offset_needs_is_given_it_without_a_warning(tmp_path, capsys):
    """A deck's own bleed: 1 under a profile 1.2 mm off (1.7 mm wanted): its sheets keep the 1 mm
    it asks, and neither the build nor the slug says the paper had no room for the 1.7 mm."""
    deck = DECK_YAML.replace("format: poker\n", "format: poker\nbleed: 1\n") + "".join(
        f"  - {{name: 札{i}, text: 本文}}\n" for i in range(9))
    root = make_workspace(tmp_path / "ws", deck=deck)
    (root / "printers.yaml").write_text("laser: {back_offset_mm: [0.8, -1.2]}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--printer", "laser") == 0
    said = capsys.readouterr()
    assert "no room for gutters" not in said.out + said.err, said
    record = json.loads((root / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert (record["bleed_mm"], record["sheet_bleed_mm"]) == (1.0, 1.0)
    assert not any("未満" in page for page in texts(root / "build" / "test" / "cards.pdf"))


def test_bleed_too_wide_for_a_small_piece_is_refused_only_where_it_applies(tmp_path, capsys):
    """docs/data-format.md, Limits: --bleed is measured against the pieces of the decks it moves;
    a 20 mm chit whose deck says bleed: 0 takes no --bleed 12, a deck without its own does not."""
    root = _workspace(tmp_path)
    assert run(root, "build", "--game", "test", "--no-rulebook", "--bleed", "10", "--out", str(tmp_path / "o")) == 0
    (root / "data" / "test" / "decks" / "chits.yaml").write_text(CHITS.replace("bleed: 0\n", ""), encoding="utf-8")
    capsys.readouterr()
    assert run(root, "build", "--game", "test", "--no-rulebook", "--bleed", "10", "--out", str(tmp_path / "o")) == 2
    assert "chits.yaml" in capsys.readouterr().err
