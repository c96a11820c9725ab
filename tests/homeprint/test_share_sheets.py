"""game.yaml ``share_sheets: true``: small decks printed on the same sheet layout share the
sheets of <game>-all.pdf (10 + 4 + 5 poker cards on A4, 9 a sheet: 3 sheets, not 2 + 1 + 1),
each back behind its own front (read back from the PDF in mm), each deck's bookmark at the
sheet of its first card, the bill of materials saying which sheets hold which decks; each
deck's own file stays one deck; off by default."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, GAME_YAML, make_workspace, run
from homeprint.test_printer import placements
from pdfprobe import text_positions, texts

W, H = 210.0, 297.0
DECKS = (("bid", 10), ("summary", 5), ("role", 4))  # built in file order: bid, role, summary
SHARED = GAME_YAML + "share_sheets: true\n"
PROFILE = "steady: {back_offset_mm: [0.3, -0.2]}\n"


def small_decks(root: Path, game: str = SHARED, decks=DECKS, one_sided: tuple[str, ...] = ()) -> Path:
    """A game of small poker decks, each card named ``<deck><n>``, its back ``B<deck><n>``."""
    ws = make_workspace(root, game=game)
    folder = ws / "data" / "test" / "decks"
    (folder / "cards.yaml").unlink()
    for deck, n in decks:
        text = DECK_YAML.replace("テストカード", deck)
        if deck in one_sided:
            text = text.replace("back: card-back.svg.j2\n", "")
        text += "".join(f"  - {{name: {deck}{i}, text: t}}\n" for i in range(1, n + 1))
        (folder / f"{deck}.yaml").write_text(text, encoding="utf-8")
    (ws / "printers.yaml").write_text(PROFILE, encoding="utf-8")
    return ws


def build(ws: Path, out: Path, *args: str) -> Path:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out), *args) == 0
    return out / "test"


def cards_at(pdf: Path) -> list[dict[str, tuple[float, float, float, float]]]:
    """Per page: each card's name (or ``B`` + name on a back) → the (left, top, right, bottom) in
    mm of the face it is printed on (the smallest placed form holding its text)."""
    out = []
    for boxes, pdf_page in zip(placements(pdf), PdfReader(pdf).pages):
        found = {}
        for text, x, y in text_positions(pdf_page):
            holding = [bx for bx in boxes if bx[0] <= x <= bx[2] and bx[1] <= y <= bx[3]]
            if holding and re.fullmatch(r"B?[a-z]+\d+", text):
                found[text] = min(holding, key=lambda bx: (bx[2] - bx[0]) * (bx[3] - bx[1]))
        out.append(found)
    return out


def test_small_decks_share_the_sheets_of_the_all_in_one_file(tmp_path):
    out = build(small_decks(tmp_path / "ws"), tmp_path / "out")
    pages = texts(out / "test-all.pdf")
    sheets = [p for p in pages if "表" in p or "裏" in p]
    assert len(sheets) == 6  # 3 sheets, fronts and backs: not 2 + 1 + 1
    on = cards_at(out / "test-all.pdf")
    assert sorted(on[0]) == [f"bid{i}" for i in range(1, 10)]
    assert sorted(on[2]) == sorted(["bid10", "role1", "role2", "role3", "role4",
                                    "summary1", "summary2", "summary3", "summary4"])
    assert sorted(on[4]) == ["summary5"]
    # bid's full sheet as in bid.pdf; then the copies of the decks' last sheets, together
    assert sheets[0] == texts(out / "bid.pdf")[0] and sheets[1] == texts(out / "bid.pdf")[1]
    # a shared sheet's slug counts the shared sheets, saying so: summary5's sheet is no "summary 2/2"
    # (summary.pdf has one sheet), it is the second of the shared ones
    assert "bid + role + summary (bid+role+summary) 表 共有 1/2" in sheets[2]
    assert "bid + role + summary (bid+role+summary) 裏 共有 1/2" in sheets[3]
    assert "summary (summary) 表 共有 2/2" in sheets[4] and "summary (summary) 表 1/1" in texts(out / "summary.pdf")[0]
    # the shared sheet's second slot holds role1, the first bid10: as a sheet of one deck would
    assert on[2]["role1"][0] > on[2]["bid10"][0] and on[2]["role1"][1] == pytest.approx(on[2]["bid10"][1], abs=0.01)
    outline = PdfReader(out / "test-all.pdf")
    marks = [(o.title, outline.get_destination_page_number(o)) for o in outline.outline]
    assert marks == [("bid", 0), ("role", 2), ("summary", 2), ("部品一覧", 6)]  # each at its first card's sheet
    bom = pages[6]
    assert "test-all.pdf の 1–6 ページ：bid、role、summaryが 3 枚のシートを共有（デッキごとのファイルでは 4 枚）" in bom
    shared = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]["shared_sheets"]
    assert shared == [{"decks": ["bid", "role", "summary"], "sheets": 3, "alone": 4, "pages": [1, 6]}]
    # each deck's own file: that deck alone
    for deck, sheet_count in (("bid", 2), ("role", 1), ("summary", 1)):
        own = cards_at(out / f"{deck}.pdf")
        assert len(own) == 2 * sheet_count
        assert all(name.lstrip("B").startswith(deck) for page in own for name in page)


def test_the_cut_marks_are_round_the_shared_sheets_cards(tmp_path):
    """The shared sheet's nine cards have the cut marks of a full sheet (as bid's first sheet);
    the last sheet's one card, those of one card."""
    from pdfprobe import stroked_lines

    out = build(small_decks(tmp_path / "ws"), tmp_path / "out")
    reader = PdfReader(out / "test-all.pdf")
    own = PdfReader(out / "bid.pdf")
    assert len(stroked_lines(own, own.pages[2])) < len(stroked_lines(own, own.pages[0]))
    assert sorted(stroked_lines(reader, reader.pages[2])) == sorted(stroked_lines(own, own.pages[0]))
    assert sorted(stroked_lines(reader, reader.pages[4])) == sorted(stroked_lines(own, own.pages[2]))


@pytest.mark.parametrize("args, flip", [
    ((), "long"), (("--duplex", "short"), "short"), (("--printer", "steady"), "long"),
    (("--printer", "steady", "--duplex", "short"), "short")])
def test_each_back_is_behind_its_own_front(tmp_path, args, flip):
    """On every backs page, ``B<name>``'s face is ``<name>``'s face mirrored for the flip (and
    moved by the printer profile's back offset), to 0.002 mm: bid10's back is behind bid10."""
    out = build(small_decks(tmp_path / "ws"), tmp_path / "out", *args)
    dx, dy = (0.3, -0.2) if "steady" in args else (0.0, 0.0)
    pages = cards_at(out / "test-all.pdf")[:6]
    checked = 0
    for fronts, backs in zip(pages[::2], pages[1::2]):
        assert sorted(backs) == sorted(f"B{name}" for name in fronts)
        for name, (x0, y0, x1, y1) in fronts.items():
            want = (W - x1, y0, W - x0, y1) if flip == "long" else (x0, H - y1, x1, H - y0)
            got = backs[f"B{name}"]
            assert got == pytest.approx((want[0] + dx, want[1] + dy, want[2] + dx, want[3] + dy), abs=0.002), name
            checked += 1
    assert checked == 19


def test_off_by_default_each_deck_starts_a_sheet(tmp_path):
    out = build(small_decks(tmp_path / "ws", game=GAME_YAML), tmp_path / "out")
    sheets = [p for p in texts(out / "test-all.pdf") if "表" in p or "裏" in p]
    assert len(sheets) == 8  # 2 + 1 + 1 sheets
    assert "shared_sheets" not in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]


def test_decks_of_another_size_or_sides_never_share(tmp_path):
    """role in mini-euro cards, summary one-sided: bid shares with neither."""
    ws = small_decks(tmp_path / "ws", one_sided=("summary",))
    role = ws / "data" / "test" / "decks" / "role.yaml"
    role.write_text(role.read_text(encoding="utf-8").replace("format: poker", "format: mini-euro"), encoding="utf-8")
    out = build(ws, tmp_path / "out")
    pages = texts(out / "test-all.pdf")
    assert sum("表" in p for p in pages) == 4  # bid 2, role 1, summary 1
    assert not any("+" in p.split("\n")[-1] for p in pages[:-1])
    assert "shared_sheets" not in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]


def test_one_sided_decks_share_and_keep_their_blank_backs(tmp_path):
    """Two one-sided decks sharing, beside a two-sided one: each shared sheet is followed by a
    blank page (printed duplex, the next backs land behind their fronts); summary's bookmark at
    the sheet of its first card, counted in pages with the blanks."""
    ws = small_decks(tmp_path / "ws", decks=(("bid", 10), ("summary", 5), ("ace", 2)), one_sided=("bid", "summary"))
    out = build(ws, tmp_path / "out")
    reader = PdfReader(out / "test-all.pdf")
    marks = [(o.title, reader.get_destination_page_number(o)) for o in reader.outline]
    assert marks[:3] == [("ace", 0), ("bid", 2), ("summary", 4)]  # ace, then bid's 2 sheets, each with its blank
    on = cards_at(out / "test-all.pdf")
    assert sorted(on[4]) == ["bid10", *(f"summary{i}" for i in range(1, 6))]
    assert not on[3] and not on[5]  # the blanks


def test_a_deck_of_no_full_sheet_is_bookmarked_at_the_shared_sheet(tmp_path):
    """ace (5 cards) before bid (10): bid's full sheet first, then ace's 5 cards and bid10
    together; the bookmarks in page order, each at its deck's first card."""
    out = build(small_decks(tmp_path / "ws", decks=(("ace", 5), ("bid", 10))), tmp_path / "out")
    reader = PdfReader(out / "test-all.pdf")
    assert [(o.title, reader.get_destination_page_number(o)) for o in reader.outline] == \
        [("bid", 0), ("ace", 2), ("部品一覧", 4)]
    on = cards_at(out / "test-all.pdf")
    assert sorted(on[2]) == [*(f"ace{i}" for i in range(1, 6)), "bid10"]
    assert sorted(on[3]) == sorted(f"B{name}" for name in on[2])


@pytest.mark.parametrize("decks, args", [((("bid", 10), ("role", 9)), ()),  # 2 + 1 sheets together too
                                          (DECKS, ("--marks", "silhouette"))])  # cut by each deck's cut files
def test_nothing_moves_where_sharing_saves_no_sheet_or_a_machine_cuts(tmp_path, decks, args):
    ws = small_decks(tmp_path / "ws", decks=decks)
    out = build(ws, tmp_path / "out", *args)
    own = [page for deck in sorted(d for d, _n in decks) for page in texts(out / f"{deck}.pdf")]
    assert texts(out / "test-all.pdf")[:len(own)] == own
    assert "shared_sheets" not in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]


def test_a_deck_of_full_sheets_only_stays_out_of_the_run(tmp_path):
    """ace's 9 cards fill their sheet: it keeps its place, and the bill of materials names only
    the decks that share (bid's last card and role's 4 on one sheet)."""
    out = build(small_decks(tmp_path / "ws", decks=(("ace", 9), ("bid", 10), ("role", 4))), tmp_path / "out")
    assert texts(out / "test-all.pdf")[:2] == texts(out / "ace.pdf")
    shared = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]["shared_sheets"]
    assert shared == [{"decks": ["bid", "role"], "sheets": 2, "alone": 3, "pages": [3, 6]}]
    assert sorted(cards_at(out / "test-all.pdf")[4]) == ["bid10", "role1", "role2", "role3", "role4"]


def test_a_bad_value_is_an_error_at_its_line(tmp_path, capsys):
    ws = small_decks(tmp_path / "ws", game=GAME_YAML + "share_sheets: maybe\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "data/test/game.yaml:8:15:" in err and "share_sheets: 'maybe' is not true or false (expected true or false)" in err
    assert "Traceback" not in err


def test_the_bill_of_materials_names_every_deck_of_many_sharing_sheets(tmp_path):
    """hostile20: 50 one-card decks sharing 6 sheets: the bill of materials' line saying which
    pages hold which decks stopped after three lines (…デッキ35、デッキ…), never saying where
    the last fifteen decks are."""
    decks = tuple((f"d{i:02}x", 1) for i in range(1, 51))  # names a line break never splits
    out = build(small_decks(tmp_path / "ws", decks=decks), tmp_path / "out")
    said = re.sub("[\r\n]", "", "".join(p for p in texts(out / "test-all.pdf") if "部品一覧" in p))
    listed = said.split("ページ：", 1)[1].split("が", 1)[0]
    assert listed.split("、") == [deck for deck, _ in decks]
    assert "…" not in listed
