"""A deck's own ``paper:``: the cards on A4 at home, the large mats on A3 at a copy shop. Each
deck's home sheets on its paper (MediaBox and TrimBox per page, in mm), <game>-all.pdf holding
pages of both sizes, the bill of materials saying which paper each deck takes and how many sheets
of each, shared sheets only among decks of one paper, the printer profile's back offset about the
A3 page's centre; --paper on the command line over every deck's; a bad or too small paper an error
at the deck file's line naming the papers that work."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, GAME_YAML, run
from homeprint.test_printer import placements
from homeprint.test_share_sheets import small_decks
from pdfprobe import boxes_mm, texts
from pnpgen import usercache

A4, A3 = (210.0, 297.0), (297.0, 420.0)
# 200 × 280 mm player mats: on A4 they fit nowhere (297 − 2 × 5 margin − 6 slug < 280 + bleed)
MAT = DECK_YAML.replace("テストカード", "mat").replace("format: poker", "size: [200, 280]\npaper: a3")


def mats_and_cards(root: Path, mat: str = MAT, game: str = GAME_YAML) -> Path:
    """Ten poker cards (bid, on the game's A4) and two two-sided mats on A3 (mat.yaml's paper:)."""
    ws = small_decks(root, game=game, decks=(("bid", 10),))
    (ws / "data" / "test" / "decks" / "mat.yaml").write_text(
        mat + "  - {name: mat1, text: t}\n  - {name: mat2, text: t}\n", encoding="utf-8")
    return ws


def build(ws: Path, out: Path, *args: str) -> Path:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out), *args) == 0
    return out / "test"


def sizes(pdf: Path) -> list[tuple[float, float]]:
    """Each page's MediaBox (w, h) in mm, checked to be its TrimBox too (a home sheet is the paper)."""
    out = []
    for page in PdfReader(pdf).pages:
        boxes = boxes_mm(page)
        assert boxes["trimbox"] == boxes["mediabox"]
        x0, y0, x1, y1 = boxes["mediabox"]
        out.append((round(x1 - x0, 1), round(y1 - y0, 1)))
    return out


def test_each_deck_on_its_own_paper_and_the_all_in_one_file_mixed(tmp_path):
    out = build(mats_and_cards(tmp_path / "ws"), tmp_path / "out", "--printer", "steady")
    assert sizes(out / "bid.pdf") == [A4] * 4  # 10 poker cards: 2 sheets, fronts and backs
    assert sizes(out / "mat.pdf") == [A3] * 4  # one mat a sheet, its back behind it
    # the all-in-one file: bid's A4 sheets, mat's A3 sheets, the bill of materials on the game's A4
    assert sizes(out / "test-all.pdf") == [A4] * 4 + [A3] * 4 + [A4]
    # the mats centred on A3 (297 wide; 5 mm margin and 6 mm slug above), each back the front
    # mirrored about the A3 page's centre and moved by the profile's offset (+0.3, -0.2 mm)
    for front, back in zip(placements(out / "mat.pdf")[::2], placements(out / "mat.pdf")[1::2], strict=True):
        (x0, y0, x1, y1), = front
        assert (x1 - x0, y1 - y0) == (pytest.approx(206, abs=0.01), pytest.approx(286, abs=0.01))  # trim + 3 mm bleed
        assert (x0 + x1) / 2 == pytest.approx(297 / 2, abs=0.01) and y0 > 5 + 6 - 0.01 and y1 < 420 - 5
        (bx0, by0, bx1, by1), = back
        assert (bx0, by0, bx1, by1) == pytest.approx((297 - x1 + 0.3, y0 - 0.2, 297 - x0 + 0.3, y1 - 0.2), abs=0.002)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["paper"] == "a4"
    assert [(d["id"], d["paper"], d["sheets"]) for d in manifest["decks"]] == [("bid", "a4", 2), ("mat", "a3", 2)]
    bom = manifest["bill_of_materials"]
    assert [(p["deck"], p["paper"], p["sheets"]) for p in bom["printed"]] == [("bid", "a4", 2), ("mat", "a3", 2)]
    assert bom["totals"]["sheets"] == 4 and bom["totals"]["sheets_by_paper"] == {"a4": 2, "a3": 2}
    page = texts(out / "test-all.pdf")[-1]
    assert "用紙 A4 + A3" in page and "A3 2 枚 / 4 p" in page
    assert "用紙ごとのシート枚数：A4 2, A3 2" in page


def test_one_paper_says_nothing_of_papers(tmp_path):
    """A game whose decks give no paper: no sheets_by_paper, no paper in the bill's rows (as before)."""
    out = build(small_decks(tmp_path / "ws", decks=(("bid", 10),)), tmp_path / "out")
    bom = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]
    assert "sheets_by_paper" not in bom["totals"]
    assert "用紙ごと" not in texts(out / "test-all.pdf")[-1]


def test_an_a4_games_only_deck_on_a3_is_named_a3_in_the_bill(tmp_path):
    """fixes45b: an A4 game whose one deck prints on A3 (its paper:, or an A3 sheet layout as the
    docs' map in sections) said 用紙 A4 and "2 枚 / 4 p": one paper, so no paper was named. A
    designer printing from the bill must see the A3 wherever it is not the game's paper."""
    ws = mats_and_cards(tmp_path / "ws")
    (ws / "data" / "test" / "decks" / "bid.yaml").unlink()
    out = build(ws, tmp_path / "out")
    assert sizes(out / "test-all.pdf") == [A3] * 4 + [A4]  # the bill itself on the game's A4
    bom = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]
    assert bom["totals"]["sheets_by_paper"] == {"a3": 2}
    page = texts(out / "test-all.pdf")[-1]
    assert "用紙 A3" in page and "用紙 A4" not in page and "A3 2 枚 / 4 p" in page
    assert "用紙ごとのシート枚数：A3 2" in page
    # the map's sections on an A3 sheet layout alone (its record said the build's A4 before)
    (ws / "data" / "test" / "decks" / "mat.yaml").unlink()
    (ws / "sheets").mkdir()
    (ws / "sheets" / "map-a3.yaml").write_text("name: 地図 A3\npaper: [420, 297]\nstock: false\n"
                                               "grid: {left: 10, top: 16, width: 400, height: 270}\n", encoding="utf-8")
    (ws / "data" / "test" / "decks" / "sections.yaml").write_text(
        "name: 地図\nkind: board\nsize: [400, 270]\nsheet: map-a3\nfront: card-front.svg.j2\n"
        "fields: {name: text, text: text}\npieces:\n  - {name: A, text: 地図}\n", encoding="utf-8")
    out = build(ws, tmp_path / "out")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert [(d["id"], d["paper"]) for d in manifest["decks"]] == [("sections", "a3")]
    assert manifest["bill_of_materials"]["totals"]["sheets_by_paper"] == {"a3": 1}
    page = texts(out / "test-all.pdf")[-1]
    assert "用紙 A3" in page and "A3 1 枚 / 1 p" in page


def test_paper_on_the_command_line_wins_over_the_decks(tmp_path):
    """--paper a3: every deck on A3, the cards too (9 poker cards on A4 → 16 on A3: one sheet)."""
    out = build(mats_and_cards(tmp_path / "ws"), tmp_path / "out", "--paper", "a3")
    assert sizes(out / "bid.pdf") == [A3] * 2 and sizes(out / "mat.pdf") == [A3] * 4
    bom = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]
    assert "sheets_by_paper" not in bom["totals"]


def test_a_deck_paper_over_game_yaml_and_fold_over(tmp_path):
    """game.yaml's paper: letter, the mats' a3: each on its own; --layout fold folds each deck on its paper."""
    ws = mats_and_cards(tmp_path / "ws", game=GAME_YAML + "paper: letter\n",
                        mat=MAT.replace("size: [200, 280]", "size: [130, 180]"))
    out = build(ws, tmp_path / "out", "--layout", "fold")
    letter = (215.9, 279.4)
    assert set(sizes(out / "bid.pdf")) == {letter} and set(sizes(out / "mat.pdf")) == {A3}
    # folded: both mats on one A3 sheet, each front beside its back, folded at the sheet's middle
    faces = placements(out / "mat.pdf")
    assert len(faces) == 1 and len(faces[0]) == 4
    assert sorted({round(x, 2) for x0, _, x1, _ in faces[0] for x in (x0, x1)}) == [12.5, 148.5, 284.5]


def test_small_decks_share_sheets_only_on_one_paper(tmp_path):
    ws = small_decks(tmp_path / "ws", decks=(("bid", 10), ("role", 4), ("summary", 5)))
    summary = ws / "data" / "test" / "decks" / "summary.yaml"
    summary.write_text(summary.read_text(encoding="utf-8").replace("format: poker", "format: poker\npaper: a3"),
                       encoding="utf-8")
    out = build(ws, tmp_path / "out")
    bom = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["bill_of_materials"]
    assert [s["decks"] for s in bom["shared_sheets"]] == [["bid", "role"]]  # summary's A3 sheet apart
    assert sizes(out / "test-all.pdf") == [A4] * 4 + [A3] * 2 + [A4]


def test_a_paper_typed_full_width_is_that_paper(tmp_path):
    """hostile34: 「paper: Ａ３」, as Japanese input types it, stopped as 'unknown paper 'ａ３'' (lower-cased
    full-width, with no name to write), where 「size: ［…］」's ３ is read as 3: it is A3."""
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3", "paper: Ａ３　"))
    out = build(ws, tmp_path / "out")
    assert sizes(out / "mat.pdf") == [A3] * 4 and sizes(out / "bid.pdf") == [A4] * 4


@pytest.mark.parametrize("value, told", [
    ("A7", "paper: unknown paper 'a7'"), ("100x", "paper: unknown paper '100x'"),
    ("8.5x11", "did you mean letter?")])
def test_a_bad_paper_is_an_error_at_its_line(tmp_path, capsys, value, told):
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3", f"paper: {value}"))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/mat.yaml:3:8:" in err and told in err
    assert "a3, a4, ledger, legal, letter, tabloid" in err and "Traceback" not in err


def test_a_paper_smaller_than_a_piece_names_the_papers_that_hold_it(tmp_path, capsys):
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3", "paper: a4"))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert ("data/test/decks/mat.yaml:3:8: paper: deck 'mat': a 200×280 mm piece does not fit on A4 inside a 5 mm "
            "margin (expected one of a3, tabloid, ledger, or kind: board (split into tiles))") in err
    # --paper a4 on the command line: the same piece, told at its size as before (not at paper:)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--paper", "a4") == 2
    assert ("mat.yaml:2:7: size: deck 'mat': a 200×280 mm piece does not fit on A4 inside a 5 mm margin (expected "
            "--paper a3 (one of a3, tabloid, ledger), or kind: board (split into tiles))") in capsys.readouterr().err


def test_a_piece_too_large_for_the_games_paper_is_offered_a_paper_in_its_deck_file(tmp_path, capsys):
    """A deck of no paper: of its own too large for the game's A4: told the deck file's paper: that
    holds it (it said 'a larger --paper', which moves every deck, and named none; hostile35)."""
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3\n", ""))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert ("mat.yaml:2:7: size: deck 'mat': a 200×280 mm piece does not fit on A4 inside a 5 mm margin (expected "
            "paper: a3 in its deck file (one of a3, tabloid, ledger), or kind: board (split into tiles))") in err, err


def test_a_piece_too_large_for_a_letter_game_is_offered_its_own_familys_paper_first(tmp_path, capsys):
    """A Letter game's mat was offered A3 (the papers sorted by name), where a tuck box too large
    for Letter was offered Tabloid: one order answers both, the game's own family first, each
    family from the smallest sheet up."""
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3\n", ""), game=GAME_YAML + "paper: letter\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert ("mat.yaml:2:7: size: deck 'mat': a 200×280 mm piece does not fit on LETTER inside a 5 mm margin (expected "
            "paper: tabloid in its deck file (one of tabloid, ledger, a3), or kind: board (split into tiles))") in err, err


def test_a_piece_too_large_between_the_silhouette_marks_of_its_own_paper_is_told_a_larger_paper_there(tmp_path, capsys):
    """--marks silhouette, the mat's own paper: a4: told to give a larger paper: in its deck file
    (it said a larger --paper, which would put every deck on it)."""
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3", "paper: a4"))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--marks", "silhouette") == 2
    err = capsys.readouterr().err
    assert "mat.yaml:2:7: size: deck 'mat': a 200×280 mm piece does not fit between the Silhouette registration marks on A4" in err
    assert "(expected a larger paper: in its deck file, a smaller inset or keepout (--silhouette-marks)" in err, err


def test_a_paper_other_than_the_decks_card_stock_is_refused(tmp_path, capsys):
    ws = small_decks(tmp_path / "ws", decks=(("bid", 10),))
    deck = ws / "data" / "test" / "decks" / "bid.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("format: poker", "format: poker\npaper: letter\n"
                                                             "sheet: poker-3x3-a4"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/bid.yaml:3:8: paper: paper letter is not the paper of this deck's sheet layout" in err
    assert "expected paper: a4, or no paper:" in err
    # the stock named by --sheet: told at the deck's paper: line as well
    deck.write_text(deck.read_text(encoding="utf-8").replace("sheet: poker-3x3-a4\n", ""), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sheet", "poker-3x3-a4") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/bid.yaml:3:8: paper: deck 'bid': paper letter is not the paper of sheet layout" in err
    assert "expected paper: a4, or 'sheet: grid' in this deck file" in err


def test_the_reprint_of_a_changed_mat_is_on_its_paper(tmp_path):
    ws = mats_and_cards(tmp_path / "ws")
    build(ws, tmp_path / "out")
    mat = ws / "data" / "test" / "decks" / "mat.yaml"
    mat.write_text(mat.read_text(encoding="utf-8").replace("{name: mat1, text: t}", "{name: mat1, text: new}"),
                   encoding="utf-8")
    out = build(ws, tmp_path / "out")
    assert sizes(out / "reprint-a3.pdf") == [A3] * 2  # mat1's front and back, on A3 as mat.pdf
    assert not (out / "reprint.pdf").exists()  # (no page on the game's A4)
    (x0, _, x1, _), = placements(out / "reprint-a3.pdf")[0]
    assert (x0 + x1) / 2 == pytest.approx(297 / 2, abs=0.01)
    assert "reprint-a3.pdf は A3（ゲームの用紙 A4 ではない）：A3 に印刷する" in (out / "reprint.txt").read_text(encoding="utf-8")


def test_a_reprint_of_a4_and_a3_pages_is_a_file_a_paper(tmp_path, capsys):
    """fixes45b, fixes46: a card and a mat changed: reprint.pdf held the card's A4 sheet and the
    mat's A3 one, which many printer drivers print all on one paper. Each paper is a file of its
    own, reprint.pdf the game's A4 and reprint-a3.pdf the mat's, both named in reprint.txt (under
    its head, and at each deck's copies), the build's summary and the manifest; a later build that
    changes the card alone leaves no A3 file of the last one."""
    ws = mats_and_cards(tmp_path / "ws")
    build(ws, tmp_path / "out")
    decks = ws / "data" / "test" / "decks"

    def edit(deck: str, piece: str, old: str, new: str) -> None:
        path = decks / f"{deck}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(f"{{name: {piece}, text: {old}}}",
                                                                 f"{{name: {piece}, text: {new}}}"), encoding="utf-8")

    edit("mat", "mat1", "t", "new")
    edit("bid", "bid3", "t", "new")
    capsys.readouterr()
    out = build(ws, tmp_path / "out")
    assert sizes(out / "reprint.pdf") == [A4] * 2  # bid3's sheet and its back
    assert sizes(out / "reprint-a3.pdf") == [A3] * 2  # mat1's
    said = [line for line in capsys.readouterr().err.splitlines() if "reprint" in line]
    assert said == ["pnpgen: warning: reprint-a3.pdf holds the pages on A3, reprint.pdf those on A4: print each on "
                    "its paper"], said
    txt = (out / "reprint.txt").read_text(encoding="utf-8")
    assert txt.splitlines()[2] == "reprint-a3.pdf は A3 のページ、reprint.pdf は A4 のページ：それぞれの用紙に印刷する", txt
    assert "reprint-a3.pdfの1–2ページ" in txt and "reprint.pdfの1–2ページ" in txt, txt
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert {"reprint.pdf", "reprint-a3.pdf", "reprint.txt"} <= set(manifest["files"])
    edit("bid", "bid3", "new", "newer")
    out = build(ws, tmp_path / "out")
    assert sizes(out / "reprint.pdf") == [A4] * 2 and not (out / "reprint-a3.pdf").exists()


def test_a_profile_measured_on_one_paper_applied_to_a_deck_on_another_is_told_once_per_deck(tmp_path, capsys):
    """A Letter printer profile moved and scaled a deck file's Tabloid sheets without a word: its
    figures were measured on Letter. Build and check say it once per deck, at its paper: line,
    with the calibration and the profile to write; the build still applies it (the back moved
    by the offset about the Tabloid page's centre), and a one-sided deck an offset alone does
    not touch is not told."""
    game = GAME_YAML + "paper: letter\n"
    ws = mats_and_cards(tmp_path / "ws", mat=MAT.replace("paper: a3", "paper: tabloid"), game=game)
    (ws / "data" / "test" / "decks" / "note.yaml").write_text(
        MAT.replace("mat", "note").replace("paper: a3", "paper: tabloid").replace("back: card-back.svg.j2\n", "")
        + "  - {name: n1, text: t}\n", encoding="utf-8")
    (ws / "printers.yaml").write_text("letterjet: {paper: letter, back_offset_mm: [0.8, -1.2]}\n", encoding="utf-8")
    out = build(ws, tmp_path / "out", "--printer", "letterjet")
    told = ("pnpgen: warning: data/test/decks/mat.yaml:3:8: deck 'mat' prints on TABLOID (its deck file's paper: "
            "tabloid), but printer profile 'letterjet' (printers.yaml:1) was measured on LETTER: its back offset "
            "(+0.8/-1.2 mm) is applied to the TABLOID sheets unmeasured (expected: print pnpgen calibrate --paper "
            "tabloid on that printer and write what it reads as a profile of its own, letterjet-tabloid: {paper: "
            "tabloid, …} in printers.yaml, to build this deck with; or this deck built without --printer)")
    said = [line for line in capsys.readouterr().err.splitlines() if "was measured on" in line]
    assert said == [told], said
    TABLOID = (279.4, 431.8)
    assert sizes(out / "mat.pdf") == [TABLOID] * 4
    (x0, y0, x1, y1), = placements(out / "mat.pdf")[0]
    (bx0, by0, bx1, by1), = placements(out / "mat.pdf")[1]
    assert (bx0, by0, bx1, by1) == pytest.approx((279.4 - x1 + 0.8, y0 - 1.2, 279.4 - x0 + 0.8, y1 - 1.2), abs=0.002)
    # a scale too is named, and then the one-sided deck it scales is told as well; check says the same
    (ws / "printers.yaml").write_text("letterjet: {paper: letter, back_offset_mm: [0.8, -1.2], scale: 99.5%}\n",
                                      encoding="utf-8")
    # a deck whose own paper: is the profile's (Letter) is what the profile was measured on: not told
    (ws / "data" / "test" / "decks" / "flat.yaml").write_text(
        MAT.replace("mat", "flat").replace("size: [200, 280]\npaper: a3", "size: [100, 140]\npaper: letter")
        + "  - {name: f1, text: t}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test", "--printer", "letterjet") == 0
    said = [line for line in capsys.readouterr().out.splitlines() if "was measured on" in line]
    assert [line.split(": deck")[0].split()[-1] for line in said] == ["data/test/decks/mat.yaml:3:8",
                                                                      "data/test/decks/note.yaml:3:8"], said
    assert "its back offset (+0.8/-1.2 mm) and scale (99.5/99.5 %) are applied" in said[0]
    assert "its scale (99.5/99.5 %) is applied" in said[1]


def test_without_a_machine_key_the_last_reprints_paper_file_goes_with_the_rest(tmp_path, monkeypatch):
    """hostile46: with PNPGEN_CACHE=off (no build record to read), a build whose copies to reprint
    were all on A4 wrote reprint.pdf and left the last build's reprint-a3.pdf beside it, a set of
    two rounds (reprint.txt naming one); the build that changes nothing keeps both, and a file the
    designer put in the folder under a reprint's name stays."""
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    ws = mats_and_cards(tmp_path / "ws")
    decks = ws / "data" / "test" / "decks"

    def edit(deck: str, piece: str, old: str, new: str) -> None:
        path = decks / f"{deck}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(f"{{name: {piece}, text: {old}}}",
                                                                 f"{{name: {piece}, text: {new}}}"), encoding="utf-8")

    def build_anew() -> Path:  # each build a run of its own, as a designer's: the last one's state unread
        monkeypatch.setattr(usercache, "PROCESS_SECRET", os.urandom(32))
        return build(ws, tmp_path / "out")

    build_anew()
    (tmp_path / "out" / "test" / "reprint-old.pdf").write_bytes(b"mine")
    edit("mat", "mat1", "t", "new")
    out = build_anew()
    assert sizes(out / "reprint-a3.pdf") == [A3] * 2 and not (out / "reprint.pdf").exists()
    out = build_anew()  # nothing changed: the copies still to print stay
    assert (out / "reprint-a3.pdf").exists() and (out / "reprint.txt").exists()
    edit("bid", "bid3", "t", "new")
    out = build_anew()
    assert sizes(out / "reprint.pdf") == [A4] * 2 and not (out / "reprint-a3.pdf").exists()
    assert (out / "reprint-old.pdf").read_bytes() == b"mine"
