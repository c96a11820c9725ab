"""Bill of materials: in every manifest and as the last page of <slug>-all.pdf (the counts of
the shipped games' components as the drafts give them: tests/content/)."""

from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from conftest import GAMES, REPO
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace


def _manifest(built, slug):
    return json.loads((built / slug / "manifest.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("slug", GAMES)
def test_manifest_has_the_bill_of_materials(built, slug):
    m = _manifest(built, slug)
    bom = m["bill_of_materials"]
    decks = {d["id"]: d for d in m["decks"]}
    assert [p["deck"] for p in bom["printed"]] == list(decks)
    for p in bom["printed"]:
        d = decks[p["deck"]]
        assert (p["count"], p["sheets"], p["pages"]) == (d["count"], d["sheets"], d["pages"])
        assert p["sheets"] >= 1
        # how its file is printed (engine/bom.py ``printed_as``): a deck without backs one-sided, as its pages say
        assert p["print"] == ("duplex-long" if d["double_sided"] else "one-sided"), p
    game = load_game(Workspace(REPO), slug)
    assert [(s["name"], s["count"], s["note"]) for s in bom["sourced"]] == \
        [(s.name, s.count, s.note) for s in game.sourced]
    assert bom["totals"]["printed_pieces"] == sum(d["count"] for d in decks.values())
    assert bom["totals"]["sheets"] == sum(d["sheets"] for d in decks.values())


@pytest.mark.parametrize("slug", GAMES)
def test_bill_of_materials_is_the_last_page_of_all(built, slug):
    m = _manifest(built, slug)
    pdf = PdfReader(built / slug / f"{slug}-all.pdf")
    # a one-sided deck's sheets are each followed by a blank page, so duplex printing stays aligned
    padded = sum(d["pages"] * (1 if d["double_sided"] or m["duplex"] == "none" else 2) for d in m["decks"])
    assert len(pdf.pages) == padded + 1
    text = pdf.pages[-1].extract_text()
    assert "Bill of materials" in text
    for d in m["decks"]:
        assert d["name"] in text and f"({d['id']})" in text
    for s in m["bill_of_materials"]["sourced"]:
        assert s["name"] in text
    assert f"計 {m['bill_of_materials']['totals']['printed_pieces']} 個" in text


@pytest.mark.parametrize("slug", GAMES)
def test_the_all_in_one_file_has_a_bookmark_at_each_decks_first_sheet_and_the_bill_of_materials(built, slug):
    """The skirmish trial: a print-and-play file sold whole (67 pages of seven decks) had no
    bookmarks, so a buyer reprinting the standees paged through it. Each deck's first sheet is
    bookmarked with the deck's name, in the decks' order, and the bill of materials (the last page)
    under its own; a PDF reader opens with them shown."""
    m = _manifest(built, slug)
    pdf = PdfReader(built / slug / f"{slug}-all.pdf")
    marks = [(o.title, pdf.get_destination_page_number(o)) for o in pdf.outline]
    assert [t for t, _ in marks] == [d["name"] for d in m["decks"] if d["pages"]] + ["部品一覧"]
    first = 0
    for (_, page), d in zip(marks, [d for d in m["decks"] if d["pages"]]):
        assert page == first, (d["id"], page, first)
        first += d["pages"] * (1 if d["double_sided"] or m["duplex"] == "none" else 2)
    assert marks[-1][1] == len(pdf.pages) - 1
    assert pdf.trailer["/Root"]["/PageMode"] == "/UseOutlines"


@pytest.mark.parametrize("slug", GAMES)
def test_die_line_is_described_for_every_deck(built, slug):
    for d in _manifest(built, slug)["decks"]:
        assert set(d["die_line"]) == {"home", "shop"}
        if d["shape"] != "rect":
            assert f"shop/{d['id']}-die.pdf" in d["files"]
            assert (built / slug / "shop" / f"{d['id']}-die.pdf").is_file()
        else:
            assert all(not f.endswith("-die.pdf") for f in d["files"])


@pytest.mark.parametrize("slug", GAMES)
def test_all_in_one_printed_duplex_puts_every_back_behind_its_front(built, slug):
    """Simulate duplex printing of <game>-all.pdf: pages 2k+1 and 2k+2 share sheet k."""
    import re

    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(built / slug / f"{slug}-all.pdf"))
    notes = []
    for page in pdf:
        text = page.get_textpage().get_text_range()
        m = re.search(r"\((\S+)\) (表|裏) (\d+)/(\d+)", text)
        notes.append((m[1], {"表": "front", "裏": "back"}[m[2]], m[3], m[4]) if m else None)
    backs = 0
    for i, note in enumerate(notes):
        if note and note[1] == "back":
            backs += 1
            assert i % 2 == 1, f"page {i + 1}: a backs page on the front of a sheet"
            assert notes[i - 1] == (note[0], "front", note[2], note[3]), f"page {i + 1} is not behind its front"
        elif note and note[1] == "front":
            assert i % 2 == 0, f"page {i + 1}: a fronts page on the back of a sheet"
    assert backs > 0 or slug == "alicematic-medallions"


def test_a_solo_game_of_one_piece_is_said_in_the_singular(tmp_path):
    """An English bill of materials says "1 player" and "Total 1 piece", not "1 players"."""
    from conftest import DECK_YAML, GAME_YAML, make_workspace, run

    game = GAME_YAML.replace("players: 2-4", "players: 1") + "languages: [en]\n"
    ws = make_workspace(tmp_path / "ws", game=game, deck=DECK_YAML + "  - {name: Solo, text: Text}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    text = " ".join(PdfReader(ws / "build" / "test" / "test-all.pdf").pages[-1].extract_text().split())
    assert "· 1 player ·" in text and "Total 1 piece ·" in text, text
    # an English designer's trial: it said "None (the draft lists nothing to buy)" beside a draft
    # listing a rules sheet: what is bought comes from game.yaml's sourced:, not the draft
    assert "None (nothing bought: game.yaml has no sourced: list)" in text and "the draft" not in text, text


def test_players_the_draft_leaves_open_are_said_as_they_stand(tmp_path):
    """``players: 未定…`` prints visibly, as every placeholder does, but not as "未定 players"; an
    English game says it in English (TBD), its BOM has no Japanese word."""
    from conftest import GAME_YAML, make_workspace, run

    game = GAME_YAML.replace("players: 2-4", "players: 未定") + "languages: [en]\n"
    ws = make_workspace(tmp_path / "ws", game=game)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    text = " ".join(PdfReader(ws / "build" / "test" / "test-all.pdf").pages[-1].extract_text().split())
    assert "· players TBD ·" in text and "TBD players" not in text and "未定" not in text, text


def test_a_bill_of_materials_over_several_pages_names_its_columns_on_each_and_keeps_its_total(tmp_path):
    """A game of many decks or sourced parts runs its tables onto more pages: they went on
    without their head row (which column is the count, which the sheets?), and the printed
    parts' total could stand alone at the top of a page, away from its table."""
    from conftest import make_workspace
    from pnpgen.impose.bom import bom_pages
    from pnpgen.impose.plan import TextOp
    from pnpgen.messages import msg

    game = load_game(Workspace(make_workspace(tmp_path / "ws")), "test")
    fonts = {"gothic": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"}
    heads = {msg("bom.col.part", "ja"), msg("bom.col.paper", "ja"), msg("bom.col.note", "ja")}
    for n in range(30, 75):  # somewhere in here the last printed row ends a page
        printed = [{"deck": f"d{i}", "name": f"デッキ{i}", "kind": "card", "shape": "rect", "trim_mm": [63.0, 88.0],
                    "count": 2, "double_sided": True, "sheets": 1, "pages": 2, "paper": "a4"} for i in range(n)]
        sourced = [{"name": f"部品{i}", "count": i + 1, "note": f"メモ{i}"} for i in range(60)]
        bom = {"printed": printed, "sourced": sourced,
               "totals": {"printed_pieces": 2 * n, "sheets": n, "pages": 2 * n, "sourced_items": 60}}
        pages = bom_pages(game, bom, (210.0, 297.0), 5.0, fonts, lambda text, font, size: len(text) * size * 0.35)
        texts = [[op.text for op in page if isinstance(op, TextOp)] for page in pages]
        assert len(pages) >= 3
        for page in texts:  # every page holding rows of a table names that table's columns first
            rows = [t for t in page if t.startswith(("デッキ", "部品"))]
            assert heads & set(page) or not rows, (n, page[:6])
        [on] = [k for k, page in enumerate(texts) if any(t.startswith(f"計 {2 * n} 個") for t in page)]
        assert f"デッキ{n - 1} (d{n - 1})" in texts[on], (n, texts[on][:8])


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_kind_and_shape_is_named_in_the_readers_words(tmp_path, lang):
    """A 同人 designer's trial: a tuck box's row read 「ボード・tuckbox」, the YAML name, beside
    「カード・長方形」: each kind and shape the data format has gets the catalogue's word."""
    from conftest import make_workspace
    from pnpgen.data.formats import KINDS, SHAPES
    from pnpgen.impose.bom import bom_pages
    from pnpgen.impose.plan import TextOp
    from pnpgen.messages import msg

    game = load_game(Workspace(make_workspace(tmp_path / "ws")), "test")
    fonts = {"gothic": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"}
    printed = [{"deck": f"d{i}", "name": f"デッキ{i}", "kind": kind, "shape": shape, "trim_mm": [63.0, 88.0],
                "count": 1, "double_sided": False, "sheets": 1, "pages": 1, "paper": "a4"}
               for i, (kind, shape) in enumerate((k, s) for k in KINDS for s in SHAPES)]
    bom = {"printed": printed, "sourced": [],
           "totals": {"printed_pieces": len(printed), "sheets": len(printed), "pages": len(printed), "sourced_items": 0}}
    pages = bom_pages(game, bom, (210.0, 297.0), 5.0, fonts, lambda text, font, size: len(text) * size * 0.35, lang)
    texts = [op.text for page in pages for op in page if isinstance(op, TextOp)]
    printed_text = "".join(texts).replace(" ", "")  # a cell may wrap onto a second line
    for kind in KINDS:
        for shape in SHAPES:
            cell = msg("bom.kind_shape", lang, kind=msg(f"kind.{kind}", lang), shape=msg(f"shape.{shape}", lang))
            assert cell.replace(" ", "") in printed_text, (kind, shape)
    assert not [t for t in texts if "tuckbox" in t], texts


def test_a_card_stocks_name_of_one_long_word_stays_in_its_column(tmp_path):
    """hostile10: a sheet layout's name of 460 letters without a space (the bill of materials'
    card-stock row) was printed as one line over the count and note columns and off the page;
    every line of a cell now fits its column, the last shortened with an ellipsis."""
    from conftest import make_workspace
    from pnpgen.impose.bom import bom_pages
    from pnpgen.impose.plan import TextOp

    game = load_game(Workspace(make_workspace(tmp_path / "ws")), "test")
    fonts = {"gothic": "BIZUDPGothic-Regular", "bold": "BIZUDPGothic-Bold"}
    measure = lambda text, font, size: len(text) * size * 0.2  # noqa: E731 (mm)
    stock = [{"sheet_layout": "evil", "name": "Wa" * 230, "paper": "a4", "sheets": 1, "decks": ["カード"]}]
    bom = {"printed": [], "sourced": [], "stock": stock,
           "totals": {"printed_pieces": 0, "sheets": 0, "pages": 0, "sourced_items": 0}}
    [page] = bom_pages(game, bom, (210.0, 297.0), 5.0, fonts, measure)
    name = [op for op in page if isinstance(op, TextOp) and op.text.startswith("Wa")]
    assert name and all(op.x + measure(op.text, "", op.size) <= 15 + (210 - 30) * 0.36 for op in name), \
        [(op.x, op.text) for op in name]
    assert name[-1].text.endswith("…")


@pytest.mark.parametrize("draft, paper", [(True, ""), (True, "paper: letter\n"), (False, "")])
def test_the_bill_of_materials_lists_the_rulebook_a_prototype_holds(tmp_path, draft, paper):
    """A designer assembling a prototype from <slug>-all.pdf's last page found every deck and
    bought part but not the rulebook: a game with a draft lists it under the printed pieces (not
    in their total), with the booklet's file and how to print it on the home sheets' paper."""
    from conftest import GAME_YAML, make_workspace, run

    root = make_workspace(tmp_path / "ws", draft=draft, game=GAME_YAML + paper)
    assert run(root, "build", "--game", "test", "-q") == 0
    m = _manifest(root / "build", "test")
    text = PdfReader(root / "build" / "test" / "test-all.pdf").pages[-1].extract_text().replace(" ", "").replace("\n", "")
    if not draft:
        assert "rulebook" not in m["bill_of_materials"] and "rulebook" not in text
        return
    sheet = "Letter" if paper else "A4"
    assert m["bill_of_materials"]["rulebook"] == {"files": ["rulebook-booklet.pdf", "rulebook.pdf"], "copies": 1,
                                                  "booklet_paper": sheet.lower()}
    assert f"ルールブック1部：rulebook-booklet.pdfを{sheet}横の両面" in text
    assert text.index("計") < text.index("ルールブック") < text.index("用意するもの")  # under the total, not in it
    assert f"計{m['bill_of_materials']['totals']['printed_pieces']}個" in text
    assert (root / "build" / "test" / "rulebook-booklet.pdf").is_file()


def test_a_build_without_the_rulebook_lists_no_booklet(tmp_path):
    """``--no-rulebook`` makes no booklet, yet the bill of materials of its -all.pdf told the
    designer to print rulebook-booklet.pdf; the next build with the rulebook lists it again."""
    from conftest import make_workspace, run

    root = make_workspace(tmp_path / "ws", draft=True)
    out = root / "build" / "test"

    def listed() -> tuple[bool, bool]:
        text = PdfReader(out / "test-all.pdf").pages[-1].extract_text().replace(" ", "").replace("\n", "")
        return "rulebook" in _manifest(root / "build", "test")["bill_of_materials"], "ルールブック" in text

    assert run(root, "build", "--game", "test", "-q", "--no-rulebook") == 0
    assert not (out / "rulebook-booklet.pdf").exists() and listed() == (False, False)
    assert run(root, "build", "--game", "test", "-q") == 0
    assert (out / "rulebook-booklet.pdf").is_file() and listed() == (True, True)
