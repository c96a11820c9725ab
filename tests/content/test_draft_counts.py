"""Issue 2/4: the four real games build, and what is printed matches the YAML and the drafts."""

from __future__ import annotations

import json

import pytest

from conftest import GAMES, REPO
from pdfprobe import boxes_mm, reader, soft_masks, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace

# Card totals as the drafts state them (../shared/drafts/README.md).
DRAFT_CARD_COUNTS = {
    "alicematic-medallions": {"アリスカード": 53, "メダリオンカード": 7},
    "alicematic-eiketsuden": {"君主カード": 5, "アリスカード": 24, "戦略カード": 48, "塔カード": 68},
    "populous": {"エピックカード": 80, "創世カード": 6},
    "asian-delivery": {"依頼カード": 54, "事業カード": 40, "ベースカード": 16, "サマリーカード": 4},
}


# Printed tiles, tokens and boards the drafts name, by deck id, with the drafts' counts.
DRAFT_PIECE_COUNTS = {
    "populous": {"area": 15, "worker": 60, "town": 30, "race": 5},
    "asian-delivery": {"areas": 10, "cargo": 90, "facilities": 40, "vp-board": 1, "vp-markers": 4,
                       "start-marker": 1, "workers": 16},
    "alicematic-medallions": {},
    "alicematic-eiketsuden": {},
}
CARGO_BY_GRADE = {"梅": 60, "竹": 20, "松": 10}


@pytest.fixture(scope="module")
def games():
    ws = Workspace(REPO)
    return {slug: load_game(ws, slug) for slug in GAMES}


@pytest.mark.parametrize("slug", GAMES)
def test_card_counts_match_drafts(games, built, slug):
    game = games[slug]
    manifest = json.loads((built / slug / "manifest.json").read_text(encoding="utf-8"))
    by_name = {d["name"]: d for d in manifest["decks"]}
    for name, count in DRAFT_CARD_COUNTS[slug].items():
        assert by_name[name]["count"] == count, name
    for deck in game.decks:
        assert by_name[deck.name]["count"] == deck.count == sum(p.count for p in deck.pieces)


@pytest.mark.parametrize("slug", GAMES)
def test_shop_files_match_counts_and_boxes(games, built, slug):
    for deck in games[slug].decks:
        if deck.kind != "card":
            continue
        pdf = reader(built / slug / "shop" / f"{deck.id}.pdf")
        assert len(pdf.pages) == 2 * deck.count, deck.id
        w, h = deck.trim_mm
        for page in pdf.pages[:4]:
            b = boxes_mm(page)
            assert b["trimbox"] == pytest.approx((3, 3, 3 + w, 3 + h), abs=0.01)
            assert b["bleedbox"] == pytest.approx((0, 0, w + 6, h + 6), abs=0.01)


@pytest.mark.parametrize("slug", GAMES)
def test_each_card_shows_its_name_or_number(games, built, slug):
    for deck in games[slug].decks:
        if deck.kind != "card":
            continue
        pages = texts(built / slug / "shop" / f"{deck.id}.pdf")
        page = 0
        for piece in deck.pieces:
            text = "".join(pages[page].split())
            label = "".join(piece.own_name.split())  # (a deck's sole nameless piece is called by the deck's name)
            if label and not label.startswith("未定"):
                assert label in text, (deck.id, piece.index, label)
            page += 2 * piece.count


@pytest.mark.parametrize("slug", GAMES)
def test_tiles_tokens_and_boards_match_drafts(built, slug):
    manifest = json.loads((built / slug / "manifest.json").read_text(encoding="utf-8"))
    by_id = {d["id"]: d for d in manifest["decks"]}
    for deck_id, count in DRAFT_PIECE_COUNTS[slug].items():
        assert by_id[deck_id]["count"] == count, deck_id
    bom = manifest["bill_of_materials"]
    assert bom["printed"] and all(item["sheets"] >= 1 for item in bom["printed"])


def test_cargo_grades(games):
    cargo = games["asian-delivery"].deck("cargo")
    by_grade: dict[str, int] = {}
    for piece in cargo.pieces:
        name = str(piece.label)
        grade = next(g for g in CARGO_BY_GRADE if g in name)
        by_grade[grade] = by_grade.get(grade, 0) + piece.count
    assert by_grade == CARGO_BY_GRADE


@pytest.mark.parametrize("slug", GAMES)
def test_no_transparency(built, slug):
    """PDF/X-1a forbids transparency and some RIPs flatten it badly: no alpha, no soft masks."""
    for page in reader(built / slug / f"{slug}-all.pdf").pages:
        states = (page.get("/Resources") or {}).get("/ExtGState") or {}
        for state in states.values():
            state = state.get_object()
            assert float(state.get("/CA", 1)) == 1 and float(state.get("/ca", 1)) == 1
            assert state.get("/SMask", "/None") == "/None"
    assert soft_masks(reader(built / slug / f"{slug}-all.pdf")) == []  # every object, art inside faces too
