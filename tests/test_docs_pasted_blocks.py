"""Blocks a designer pastes from the docs into a game ``pnpgen new`` wrote, built as written (docs48b:
each was built by hand once, and these keep a later edit of the page from breaking them unseen):
home-printing.md's sheet layout of abutting ½-inch counters, data-format.md's deck layout that
recolours the band and adds a rarity box, rulebook.md's rule sheet listing every setting, and its
first draft with the figures block."""

from __future__ import annotations

import json
import re
import textwrap

from PIL import Image

from conftest import REPO, run
from pdfprobe import glyphs

DOCS = REPO / "docs"


def _block(page: str, first: str) -> str:
    """The fenced block of ``page`` that opens with the line ``first`` (indented under a list item
    or not), as a designer copies it: dedented."""
    text = (DOCS / page).read_text(encoding="utf-8")
    found = [textwrap.dedent(body) for body in re.findall(r"^( *)```\w*\n(.*?)^\1```", text, re.S | re.M)
             for body in [body[1]] if textwrap.dedent(body).startswith(first)]
    assert len(found) == 1, (page, first, len(found))
    return found[0]


def _new_game(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run(ws, "new", "g") == 0
    return ws


def test_home_printings_counters_half_sheet_layout_abuts_280_counters_centred_on_a4(tmp_path):
    """The sheet layout "of abutting slots named in those deck files, `sheet: counters-half`":
    14 × 20 slots of 12.7 mm, each the next one's neighbour (no gap, no bleed), centred on A4,
    and, `stock: false`, no card stock in the bill of materials."""
    ws = _new_game(tmp_path)
    layout = _block("home-printing.md", "# sheets/counters-half.yaml")
    (ws / "sheets").mkdir()
    (ws / "sheets" / "counters-half.yaml").write_text(layout, encoding="utf-8")
    (ws / "data" / "g" / "decks" / "counters.yaml").write_text(
        "name: Counters\nkind: token\nsize: [0.5in, 0.5in]\nlayout: token-square\nsheet: counters-half\n"
        "pieces:\n  - {title: Inf, value: '1', count: 30}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "g", "--no-rulebook", "--jobs", "1", "-q") == 0
    manifest = json.loads((ws / "build" / "g" / "manifest.json").read_text(encoding="utf-8"))
    deck = next(d for d in manifest["decks"] if d["id"] == "counters")
    assert (deck["pieces_per_sheet"], deck["sheets"], deck["sheet_bleed_mm"]) == (280, 1, 0)
    slots = deck["sheet_layout"]["slots"]
    xs, ys = sorted({round(s[0], 2) for s in slots}), sorted({round(s[1], 2) for s in slots})
    assert (len(xs), len(ys)) == (14, 20) and all(round(s[2], 2) == round(s[3], 2) == 12.7 for s in slots)
    assert {round(b - a, 2) for a, b in zip(xs, xs[1:])} == {round(b - a, 2) for a, b in zip(ys, ys[1:])} == {12.7}
    assert round(xs[0], 1) == round(210 - xs[-1] - 12.7, 1) and round(ys[0], 1) == round(297 - ys[-1] - 12.7, 1)
    assert manifest["bill_of_materials"]["stock"] == []


def test_data_formats_layout_block_recolours_the_band_and_prints_a_rarity_box(tmp_path, capsys):
    """The ``layout:`` block of "Layouts" in place of the new deck's ``layout: card-poker``: its
    ``flavour: null`` stops at the new deck's flavour lines, told how to keep them; without them it
    builds, the title in mincho and each piece's ``rarity`` in the box at the card's bottom right."""
    ws = _new_game(tmp_path)
    block = _block("data-format.md", "layout:\n  extends: card-poker\n  boxes:\n    title: {size: 12, colour: ink")
    deck = ws / "data" / "g" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "layout: card-poker\n" in text and "    flavour: " in text
    text = text.replace("layout: card-poker\n", block)
    deck.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "g", "--no-rulebook", "--jobs", "1", "-q") == 2
    said = capsys.readouterr().err
    assert "flavour: unknown key in piece 1" in said and "boxes: {flavour: {field: flavour" in said, said
    text = re.sub(r"^    flavour: .*\n", "", text, flags=re.M)
    text = text.replace("    count: 2\n", '    count: 2\n    colour: "#b0503a"\n    rarity: SR\n')
    deck.write_text(text, encoding="utf-8")
    assert run(ws, "build", "--game", "g", "--no-rulebook", "--jobs", "1", "-q") == 0
    page = glyphs(ws / "build" / "g" / "shop" / "cards.pdf")[0]  # one card, its 3 mm bleed round it
    title = [g for g in page if g.char in "カード" and g.y < 20]  # the band (the art's placeholder names it too)
    assert title and all(g.font.startswith("BIZUDPMincho") for g in title), {g.font for g in title}
    rarity = [g for g in page if g.char in "SR"]
    w, h, bleed = 63, 88, 3
    assert len(rarity) == 2 and all(w - 14 + bleed < g.x < w - 5 + bleed and h - 8.5 + bleed < g.y < h - 4.5 + bleed
                                    for g in rarity), [(g.char, round(g.x, 1), round(g.y, 1)) for g in rarity]


def test_rulebooks_rule_sheet_listing_is_the_defaults_but_its_playing_time(tmp_path):
    """rulebook.md's rule sheet "each figure with its default": pasted into game.yaml it writes the
    very sheet ``sheet: true`` writes, but for its ``time:`` (no default), printed at the head."""
    ws = _new_game(tmp_path)
    game = ws / "data" / "g" / "game.yaml"
    base = game.read_text(encoding="utf-8")
    short = _block("rulebook.md", "# game.yaml\nrulebook:\n  sheet: true")
    listing = _block("rulebook.md", "# game.yaml\nrulebook:\n  sheet:\n    paper: a4")
    assert "    time: 30分" in listing
    sheets = {}
    for name, block in (("short", short), ("listing", listing),
                        ("untimed", re.sub(r"^    time: .*\n", "", listing, flags=re.M))):
        game.write_text(base + block, encoding="utf-8")
        assert run(ws, "build", "--game", "g", "--jobs", "1", "-q", "--out", f"out-{name}") == 0
        sheets[name] = (ws / f"out-{name}" / "g" / "rule-sheet.pdf").read_bytes()
    assert sheets["untimed"] == sheets["short"] != sheets["listing"]
    head = "".join(g.char for g in glyphs(sheets["listing"])[0][:40] if g.char.strip())  # (和欧間 spaces left out)
    assert "プレイ時間30分" in head and "プレイ時間" not in "".join(g.char for g in glyphs(sheets["short"])[0])


def test_rulebooks_first_draft_makes_the_nine_pages_it_lists_and_its_figures_follow_their_headings(tmp_path, capsys):
    """rulebook.md's "A first draft" over the draft.txt of ``pnpgen new`` with its two decks (カード,
    4 cards; トークン, 15): the nine pages the page lists, in its order, with no warning once the title
    and players agree; then "Pictures and figures"'s block in game.yaml: 図1 after the step カードを配る,
    図2, a picture of art/, after ゲームの準備."""
    ws = tmp_path / "ws"
    ws.mkdir()
    assert run(ws, "new", "hoshi", "--title", "星の市", "--kind", "cards", "--kind", "tokens") == 0
    game = ws / "data" / "hoshi"
    (game / "draft.txt").write_text(_block("rulebook.md", "■■　星の市　草案１\n"), encoding="utf-8")
    yaml_text = (game / "game.yaml").read_text(encoding="utf-8").replace("players: 未定", "players: 2-4")
    (game / "game.yaml").write_text(yaml_text, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "hoshi", "--jobs", "1", "-q") == 0
    assert capsys.readouterr().err == ""
    pages = [re.sub(r"\s", "", "".join(g.char for g in page)) for page in glyphs(ws / "build" / "hoshi" / "rulebook.pdf")]
    assert len(pages) == 9, len(pages)
    said = ["プレイ人数2〜4", "目次", "1概要", "2コンポーネント", "4枚", "15個", "実物大", "3ゲームの準備", "3.1カードを配る",
            "3.2トークンを置く", "4ゲームの進行", "4.1", "4.2", "5ゲームの終了", "6よくある質問", "早見表", "索引", "星",
            "問題点", "変更履歴", "校正メモ", "草案ファイル"]
    text, at = "".join(pages), 0
    for part in said:
        at = text.find(part, at)
        assert at >= 0, part
    assert pages[0].find("プレイ人数") >= 0 and pages[-1].startswith("星の市")
    figures = _block("rulebook.md", "# game.yaml\nrulebook:\n  figures:\n    - {after: カードを配る")
    Image.new("RGB", (1400, 880), (90, 120, 60)).save(game / "art" / "setup.jpg")  # 300 dpi at 118 mm wide
    (game / "game.yaml").write_text(yaml_text + figures, encoding="utf-8")
    assert run(ws, "build", "--game", "hoshi", "--jobs", "1", "-q") == 0
    assert capsys.readouterr().err == ""
    pages = [re.sub(r"\s", "", "".join(g.char for g in page)) for page in glyphs(ws / "build" / "hoshi" / "rulebook.pdf")]
    (step,) = [p for p in pages if "図1" in p]
    assert step.index("3.1カードを配る") < step.index("図1配り終えた手札")
    (setup,) = [p for p in pages if "図2準備の済んだ卓" in p]
    assert "3.2トークンを置く" in setup or "3ゲームの準備" in setup
