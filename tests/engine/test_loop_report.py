"""The exact reprint report: the sheets it names are exactly the pages whose bytes differ."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image
from pypdf import PdfReader

from conftest import BACK, DECK_YAML, FRONT, GAME_YAML, REPO, make_workspace, run
from pnpgen.engine.run import BOOK_REDRAWN

NAMES = [f"カード{i}" for i in range(1, 31)]  # 30 cards: 9 a sheet, sheets 1–3 full, sheet 4 holds 3


def _pages(pdf: Path) -> list[bytes]:
    """Each page as everything it prints: its content stream and the forms (faces) it places."""
    out = []
    for page in PdfReader(pdf).pages:
        data = page.get_contents().get_data()
        forms = page["/Resources"].get("/XObject", {})
        for name in sorted(forms):
            data += name.encode() + forms[name].get_object().get_data()
        out.append(data)
    return out


BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


def _build(ws: Path) -> dict:
    assert run(ws, *BUILD) == 0
    return json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))


def test_a_count_plus_two_names_exactly_the_pages_whose_bytes_differ(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", NAMES)
    _build(ws)
    home = ws / "build" / "test" / "cards.pdf"
    before = _pages(home)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード29}", "text: 本文カード29, count: 3}"),
                    encoding="utf-8")
    capsys.readouterr()
    manifest = _build(ws)
    after = _pages(home)
    differ = [n for n, page in enumerate(after, 1) if n > len(before) or before[n - 1] != page]
    assert len(before) == len(after) == 8 and differ == [7, 8]  # the stamp no longer changes every sheet
    assert manifest["changes"] == ["cards: 30 → 32 (+2 カード29); reprint cards.pdf: sheet 4 (pages 7–8)"]
    assert manifest["reprint"]["cards"] == {"file": "cards.pdf", "sheets": [4], "pages": [7, 8], "why": ["+2 カード29"]}
    assert "changed: cards: 30 → 32 (+2 カード29); reprint cards.pdf: sheet 4 (pages 7–8)" in capsys.readouterr().out


def test_a_new_back_design_is_back_changed_not_every_piece_edited(tmp_path, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])  # built once for the three tests
    back = ws / "templates" / "test" / "card-back.svg.j2"
    back.write_text(back.read_text(encoding="utf-8").replace("#333366", "#663333"), encoding="utf-8")
    manifest = _build(ws)
    assert manifest["changes"] == ["cards: 12 → 12 (back changed); reprint cards.pdf: sheets 1–2 (pages 1–4)"]


def test_an_edited_text_names_the_field_and_only_its_sheet(tmp_path, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])  # built once for the three tests
    before = _pages(ws / "build" / "test" / "cards.pdf")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード11}", "text: 書き直した}"),
                    encoding="utf-8")
    manifest = _build(ws)
    after = _pages(ws / "build" / "test" / "cards.pdf")
    # the fronts page's stamp names the faces of both sides, the backs page's its backs alone: the
    # backs page, its backs unchanged, keeps its bytes (the sheet is still named to reprint whole)
    assert [n for n, page in enumerate(after, 1) if before[n - 1] != page] == [3]
    assert manifest["changes"] == ["cards: 12 → 12 (カード11: text); reprint cards.pdf: sheet 2 (pages 3–4)"]


def test_the_reprint_file_holds_exactly_the_new_copies_with_backs_and_says_what_to_pull(tmp_path, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])  # built once for the three tests
    out = ws / "build" / "test"
    assert not (out / "reprint.pdf").exists()  # the first build: nothing to reprint
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8").replace("text: 本文カード5}", "text: 本文カード5, count: 3}")
    deck.write_text(text.replace("text: 本文カード7}", "text: 書き直した}"), encoding="utf-8")
    manifest = _build(ws)
    assert {"reprint.pdf", "reprint.txt"} <= set(manifest["files"])
    reader = PdfReader(out / "reprint.pdf")
    assert len(reader.pages) == 2  # one sheet: 3 fronts, then their backs
    assert [p.get_contents().get_data().count(b" Do") for p in reader.pages] == [3, 3]
    words = " ".join(p.extract_text() for p in reader.pages)
    assert words.count("カード5") >= 2 and "カード7" in words and "カード1 " not in words
    assert "Bカード5" in words  # the backs
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "2 × カード5" in said and "1 × カード7" in said
    assert "抜いて捨てる（1枚）：\n    1 × カード7（古い版）" in said
    # a count that falls: the same faces, a copy fewer, is a surplus copy, not an old version
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード5, count: 3}", "text: 本文カード5, count: 2}"),
                    encoding="utf-8")
    _build(ws)
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "抜いて捨てる（1枚）：\n    1 × カード5（余った分）" in said, said
    assert not (out / "reprint.pdf").exists()  # newer changes replace both: nothing new to print
    # a rebuild that changes no piece keeps the reprint files, maybe not printed yet, as they were
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード9}", "text: 書き直した9}"),
                    encoding="utf-8")
    _build(ws)
    printed = (out / "reprint.pdf").read_bytes(), (out / "reprint.txt").read_bytes()
    deck.write_text(deck.read_text(encoding="utf-8") + "# a note\n", encoding="utf-8")
    manifest = _build(ws)
    assert ((out / "reprint.pdf").read_bytes(), (out / "reprint.txt").read_bytes()) == printed
    assert {"reprint.pdf", "reprint.txt"} <= set(manifest["files"])
    (out / "reprint.pdf").unlink()  # printed: the designer throws it away, and it is not made again
    deck.write_text(deck.read_text(encoding="utf-8") + "# another note\n", encoding="utf-8")
    assert "reprint.pdf" not in _build(ws)["files"] and not (out / "reprint.pdf").exists()
    assert run(ws, "clean") == 0 and not (out / "reprint.txt").exists()  # still pnpgen's: clean removes it


def test_a_card_deleted_in_the_middle_is_the_one_change_not_every_card_after_it(tmp_path, capsys, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("  - {name: カード3, text: 本文カード3}\n", ""),
                    encoding="utf-8")
    capsys.readouterr()
    manifest = _build(ws)
    # the cards after it moved up a number; they are the same cards, not 9 new and 9 removed
    assert manifest["reprint"]["cards"]["why"] == ["-1 カード3 (removed)"]
    assert manifest["changes"][0].startswith("cards: 12 → 11 (-1 カード3 (removed)); nothing to reprint, pieces "
                                             "to pull out only (cards.pdf: sheets 1–2")
    assert run(ws, "diff", "--game", "test") == 0
    diff = capsys.readouterr().out
    assert "- 削除：カード3 ×1" in diff and "追加" not in diff and diff.count("削除：") == 1
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "1 × カード3（削除）" in said and "加える" not in said


def test_a_count_set_to_zero_is_pulled_out_as_parked_not_as_removed_nor_as_an_old_version(tmp_path, capsys, built_copy):
    """A piece kept in the data with count: 0 is out of the deck: its copies are thrown away, not as
    the old version (古い版) of a new one the designer would look for, nor as removed (削除: a piece
    gone from the data, trial56), but as what happened, one wording in the change line,
    reprint.txt and pnpgen diff alike (engine/changes.py parked_said)."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3}", "text: 本文カード3, count: 0}"),
                    encoding="utf-8")
    capsys.readouterr()
    manifest = _build(ws)
    assert manifest["reprint"]["cards"]["why"] == ["カード3: count 1 → 0, prints none"]
    assert manifest["changes"][0].startswith("cards: 12 → 11 (カード3: count 1 → 0, prints none); nothing to reprint")
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "抜いて捨てる（1枚）：\n    1 × カード3（枚数 1 → 0、印刷なし）\n" in said and "古い版" not in said \
        and "削除" not in said, said
    assert run(ws, "diff", "--game", "test") == 0
    diff = capsys.readouterr().out
    assert "\n- カード3：枚数 1 → 0、印刷なし\n" in diff and "削除" not in diff and "×0" not in diff, diff


def test_a_long_list_of_reasons_names_ten_on_the_line_and_all_in_the_manifest(tmp_path, capsys, built_copy):
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文", "text: 改"), encoding="utf-8")
    capsys.readouterr()
    manifest = _build(ws)
    assert len(manifest["reprint"]["cards"]["why"]) == 12
    line = manifest["changes"][0]
    assert "カード10: text, and 2 more: pnpgen diff lists them all)" in line and "カード11" not in line
    assert line in capsys.readouterr().out
    # and pnpgen diff does list them all, as the line says
    assert run(ws, "diff", "--game", "test") == 0
    diff = capsys.readouterr().out
    assert "カード11" in diff and "カード12" in diff, diff


def test_a_card_deleted_that_leaves_one_sheet_fewer_reprints_no_sheet_whose_cards_stayed(tmp_path):
    """Ten cards on two sheets (nine and one): deleting the tenth leaves one sheet, whose slug now
    says 1/1 instead of 1/2 but whose cards are the same: nothing to print again (the sheet's own
    words are not what the report compares); deleting the fifth moves cards 6–9 on sheet 1: it is
    printed again, both sides."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES[:10])
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("  - {name: カード10, text: 本文カード10}\n", ""),
                    encoding="utf-8")
    manifest = _build(ws)
    assert manifest["decks"][0]["sheets"] == 1
    assert manifest["reprint"]["cards"]["sheets"] == []  # nothing printed changed
    assert "-1 カード10 (removed)" in manifest["changes"][0] and "no sheet to reprint" in manifest["changes"][0]
    deck.write_text(deck.read_text(encoding="utf-8").replace("  - {name: カード5, text: 本文カード5}\n", ""),
                    encoding="utf-8")
    manifest = _build(ws)
    assert manifest["reprint"]["cards"]["sheets"] == [1] and manifest["reprint"]["cards"]["pages"] == [1, 2]
    # but no card is new: the line says so, as reprint.txt does (a designer's party game told
    # "reprint roles.pdf: sheet 1" for one role card taken out: a sheet printed and cut for nothing)
    line = manifest["changes"][0]
    assert "reprint cards.pdf" not in line, line
    assert "nothing to reprint, pieces to pull out only (cards.pdf: sheet 1 (pages 1–2) rearranged)" in line, line
    assert not (ws / "build" / "test" / "reprint.pdf").exists()
    # the same cards put on card stock (no copy taken out): printed again, as before
    deck.write_text("sheet: poker-3x3-a4\n" + deck.read_text(encoding="utf-8"), encoding="utf-8")
    line = _build(ws)["changes"][0]
    assert line == "cards: 8 → 8 (sheets changed); reprint cards.pdf: sheet 1 (pages 1–2)", line


def test_cards_only_moved_in_the_deck_file_are_nothing_to_reprint(tmp_path):
    """Two cards swapped in the deck file: the sheets hold the same copies in another order, so
    the line says there is nothing to reprint (it said "reprint cards.pdf: sheet 1" for cards the
    designer already has) and no reprint file is written."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES[:10])
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    a, b = "  - {name: カード2, text: 本文カード2}\n", "  - {name: カード3, text: 本文カード3}\n"
    deck.write_text(text.replace(a + b, b + a), encoding="utf-8")
    manifest = _build(ws)
    line = manifest["changes"][0]
    assert line == "cards: 10 → 10 (order changed); nothing to reprint (cards.pdf: sheet 1 (pages 1–2) rearranged)", line
    assert manifest["reprint"]["cards"]["sheets"] == [1]  # named, for a set printed whole
    assert not (ws / "build" / "test" / "reprint.pdf").exists()
    assert not (ws / "build" / "test" / "reprint.txt").exists()


def test_after_an_upgrade_the_first_build_still_reports_its_changes_and_removes_what_it_no_longer_makes(tmp_path):
    """The last build's state written by another pnpgen (an upgrade): the first build still says
    what changed since it (its decks are compared) and removes the files of a deck that is gone,
    while nothing of it is reused (no document, never up to date)."""
    from pnpgen import usercache

    ws = make_workspace(tmp_path / "ws", pieces=NAMES[:10])
    extra = ws / "data" / "test" / "decks" / "extra.yaml"
    extra.write_text((ws / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    _build(ws)
    out = ws / "build" / "test"
    assert (out / "extra.pdf").exists()
    state = ws / "build" / ".cache" / "test.json"
    outer = json.loads(state.read_bytes())
    outer["body"]["pnpgen"] = "0.0.1+an-older-one"
    outer["check"] = usercache.seal(json.dumps(outer["body"], ensure_ascii=False, sort_keys=True).encode())
    state.write_text(json.dumps(outer, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    extra.unlink()
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文カード3}", "text: 本文カード3, count: 2}"),
                    encoding="utf-8")
    manifest = _build(ws)
    assert any(line.startswith("cards: 10 → 11 (+1 カード3)") for line in manifest["changes"]), manifest["changes"]
    assert not (out / "extra.pdf").exists() and not (out / "shop" / "extra.pdf").exists()


def test_a_reprint_of_a_one_sided_deck_and_a_two_sided_one_keeps_every_back_behind_its_front(tmp_path):
    """The reprint is one file printed duplex: a one-sided deck's sheet before a two-sided deck's
    gets a blank back (as in <game>-all.pdf), or the cards' fronts would print on the back of the
    tokens' sheet and the cards' backs on the next sheet's front."""
    ws = make_workspace(tmp_path / "ws", pieces=NAMES[:4])
    cards = ws / "data" / "test" / "decks" / "cards.yaml"
    tokens = ws / "data" / "test" / "decks" / "a-tokens.yaml"  # before cards in the deck order
    tokens.write_text(cards.read_text(encoding="utf-8").replace("back: card-back.svg.j2\n", "")
                      .replace("name: テストカード", "name: トークン").replace("カード", "トークン"), encoding="utf-8")
    _build(ws)
    for deck, name in ((tokens, "トークン2"), (cards, "カード2")):
        deck.write_text(deck.read_text(encoding="utf-8").replace(f"text: 本文{name}}}", "text: 書き直した}"),
                        encoding="utf-8")
    manifest = _build(ws)
    out = ws / "build" / "test"
    pages = [p.extract_text() for p in PdfReader(out / "reprint.pdf").pages]
    assert len(pages) == 4  # the tokens' sheet, its blank back, the cards' fronts, their backs
    assert "トークン2" in pages[0] and "トークン" not in pages[1] and "カード2" not in pages[1]
    assert "カード2" in pages[2] and "Bカード2" in pages[3]
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "reprint.pdfの1ページ" in said and "reprint.pdfの3–4ページ" in said, said
    assert [d["double_sided"] for d in manifest["decks"]] == [False, True]
    # one sheet, one page: said in the singular ("sheets 1 (pages 1)" read as a miscount)
    assert [line.split("; ")[-1] for line in manifest["changes"]] == [
        "reprint a-tokens.pdf: sheet 1 (page 1)", "reprint cards.pdf: sheet 1 (pages 1–2)"]
    (ws / "data" / "test" / "decks" / "b-more.yaml").write_text(tokens.read_text(encoding="utf-8"), encoding="utf-8")
    manifest = _build(ws)
    assert "b-more: new deck, 4 pieces, 1 sheet" in manifest["changes"]
    # its sheets are to print, as reprint.pdf holds them: manifest.json's reprint listed it not at all
    assert manifest["reprint"] == {"b-more": {"file": "b-more.pdf", "sheets": [1], "pages": [1], "why": ["new deck"]}}
    assert "トークン2" in PdfReader(out / "reprint.pdf").pages[0].extract_text()


def test_a_back_added_to_illustrated_fronts_is_back_changed_not_every_piece_edited(tmp_path, capsys):
    """A deck printed one-sided whose fronts show a picture gets a back (tiles to be drawn face
    down): the fronts are the same faces showing the same pictures, so the report and the
    changelog say "back changed", never "<piece> edited" for each piece."""
    from PIL import Image

    from conftest import PICTURE_DECK_YAML, PICTURE_FRONT

    deck = PICTURE_DECK_YAML.replace("back: card-back.svg.j2\n", "")
    deck += "".join(f"  - {{name: 森{i}, art: p.png}}\n" for i in range(1, 4))
    ws = make_workspace(tmp_path / "ws", deck=deck, front=PICTURE_FRONT)
    (ws / "data" / "test" / "art").mkdir()
    Image.new("RGB", (700, 560), "#2f6b34").save(ws / "data" / "test" / "art" / "p.png")
    _build(ws)
    decks = ws / "data" / "test" / "decks" / "cards.yaml"
    decks.write_text(PICTURE_DECK_YAML + deck.split("pieces:\n", 1)[1], encoding="utf-8")
    manifest = _build(ws)
    assert manifest["changes"] == ["cards: 3 → 3 (back changed); reprint cards.pdf: sheet 1 (pages 1–2)"]
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    assert "裏面が変わった" in md and "森1" not in md, md


def test_an_english_reprint_list_says_pages_for_a_range_and_page_for_one(tmp_path):
    """An English designer's trial: reprint.txt said 'add (40 copies, reprint.pdf page 1–10)'; a
    range of pages is 'pages 1–10', a single page 'page 1'."""
    names = [f"Card {i}" for i in range(1, 5)]
    ws = make_workspace(tmp_path / "ws", pieces=names, game=GAME_YAML.replace("title: テストゲーム", "languages: [en]\ntitle: Test"))
    cards = ws / "data" / "test" / "decks" / "cards.yaml"
    tokens = ws / "data" / "test" / "decks" / "a-tokens.yaml"  # one-sided, before cards
    tokens.write_text(cards.read_text(encoding="utf-8").replace("back: card-back.svg.j2\n", "")
                      .replace("Card ", "Token "), encoding="utf-8")
    _build(ws)
    for deck in (tokens, cards):
        deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文", "text: Rewritten "), encoding="utf-8")
    _build(ws)
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "add (4 copies, reprint.pdf page 1):" in said, said
    assert "add (4 copies, reprint.pdf pages 3–4):" in said, said


def test_rows_deleted_from_a_deck_of_repeated_names_are_those_rows_removed(tmp_path, capsys):
    """A word deck of 200 rows whose words come round twice (月 at rows 6 and 124, other glosses):
    two rows deleted near the top were reported as 142 pieces edited (gloss1, gloss2 …), as the
    last build's pieces were read back in JSON's key order (1, 10, 100, …) and a name's pieces
    paired in that order; and a deleted 月's place taken by the later 月, edited."""
    words = ["月", "山", "川", "森"] * 4  # 16 pieces, each word four times, each piece its own text
    pieces = [f"  - {{name: {w}, text: 本文{i}}}\n" for i, w in enumerate(words, 1)]
    deck_yaml = "name: ことば\nformat: poker\nfront: card-front.svg.j2\nfields: {name: text, text: text}\npieces:\n"
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml + "".join(pieces))
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck_yaml + "".join(pieces[:1] + pieces[3:]), encoding="utf-8")  # 山 #2 and 川 #3 deleted
    manifest = _build(ws)
    assert manifest["changes"] == ["cards: 16 → 14 (-1 山 [本文2] (removed), -1 川 [本文3] (removed)); nothing to reprint, "
                                   "pieces to pull out only (cards.pdf: sheets 1–2 (pages 1–2) rearranged)"]
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["fields"] == [] and cards["added"] == []
    assert cards["removed"] == [{"piece": "山［本文2］", "count": 1}, {"piece": "川［本文3］", "count": 1}]  # as the build
    # pieces 2 and 11 of these 14 removed: said in the deck's order (the state read back sorts 11 before 2)
    deck.write_text(deck_yaml + "".join(pieces[:1] + pieces[4:12] + pieces[13:]), encoding="utf-8")
    assert "(-1 森 [本文4] (removed), -1 月 [本文13] (removed))" in _build(ws)["changes"][0]


def test_a_changed_piece_whose_name_others_share_is_told_by_its_values_in_reprint_txt_and_the_changelog(tmp_path, capsys):
    """Round tokens all named ラウンド (values 1–6): the fourth's value went from 4 to 5, and the
    build, reprint.txt and the changelog called it 'ラウンド #4' — its place in the deck file,
    which no printed token shows; they name it by the values that tell it from the others of its
    name, as a piece of a deck without names is. The edit makes it a second ラウンド［5］: the two
    alike in their value, each is named by its deck file and line beside it (left49)."""
    pieces = [f"  - {{name: ラウンド, text: '{i}', count: 2}}\n" for i in range(1, 7)]
    deck_yaml = DECK_YAML + "".join(pieces)
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml)
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck_yaml.replace("text: '4'", "text: '5'"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 12 → 12 (ラウンド [5] (cards.yaml:12): text)")
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "    2 × ラウンド［5］ (cards.yaml:12)\n" in said and "    2 × ラウンド［4］（古い版）\n" in said and "#" not in said, said
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    assert "- ラウンド［5］ (cards.yaml:12)：text：“4” → “5”" in capsys.readouterr().out
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["decks"]["cards"]["fields"][0]["piece"] == "ラウンド［5］ (cards.yaml:12)"


def test_a_field_changed_alike_on_every_piece_of_a_name_does_not_name_them(tmp_path, capsys):
    """A designer's trial (trial71): thirteen 兎 cards, told apart by their rank, recoloured alike
    for colour-blind players; the change line named each by the colour too, ``兎 [#2f9e6e, 1]: 色``
    (the two builds' values read together, where the colour told them apart): it is ``兎 [1]``."""
    deck_yaml = DECK_YAML.replace("  text: text\n", "  text: text\n  suit: text\n") + "".join(
        f"  - {{name: 兎, text: '{i}', suit: 緑}}\n" for i in range(1, 4))
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml, front=FRONT.replace("piece.text,", "piece.text ~ piece.suit,"))
    _build(ws)
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck_yaml.replace("suit: 緑", "suit: 青"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 3 → 3 (兎 [1]: suit, 兎 [2]: suit, 兎 [3]: suit)")
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    assert "- 兎［1］：suit：「緑」 → 「青」" in capsys.readouterr().out


def test_a_deck_renamed_reprints_nothing_and_a_deck_deleted_is_pulled_out(tmp_path):
    """An American trial: tiles.yaml renamed terrain.yaml put all 39 unchanged tiles in
    reprint.pdf, and a deck file deleted was not in reprint.txt at all (its copies stayed in the
    box): a renamed deck is the deck it was, a deleted one's copies come out."""
    ws = make_workspace(tmp_path / "ws", [f"カード{i}" for i in range(1, 4)])
    decks = ws / "data" / "test" / "decks"
    (decks / "tokens.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8").replace(
        "name: テストカード", "name: チップ").replace("カード", "チップ"), encoding="utf-8")
    _build(ws)
    (decks / "cards.yaml").rename(decks / "renamed.yaml")
    (decks / "tokens.yaml").unlink()
    manifest = _build(ws)
    assert manifest["changes"] == ["renamed: the deck cards renamed, nothing to reprint", "tokens: deck removed"]
    out = ws / "build" / "test"
    assert not (out / "reprint.pdf").exists()  # nothing to print: the renamed deck's faces are the same
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "renamed" not in said and "cards (" not in said, said
    assert "tokens (チップ)" in said and "抜いて捨てる（3枚）" in said and "1 × チップ3（削除）" in said, said


def test_an_icon_in_a_pieces_name_reads_as_its_name_in_order_csv_and_reprint_txt(tmp_path, capsys):
    """order.csv listed '{star}の騎士' with its braces, as if the icon were text to type."""
    deck = DECK_YAML + '  - {name: "{star}の騎士", text: 本文}\n  - {name: "騎士{star}{coin}", text: 本文}\n'
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, *BUILD) == 0
    out = ws / "build" / "test"
    names = [line.split(",")[4] for line in (out / "shop" / "order.csv").read_text(encoding="utf-8-sig").splitlines()[1:]]
    assert names == ["star の騎士", "騎士 star coin"]
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck_file.read_text(encoding="utf-8").replace("本文}", "書き直した}"), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "1 × star の騎士\n" in said and "1 × 騎士 star coin\n" in said and "{" not in said, said
    assert "(star の騎士: text, 騎士 star coin: text)" in capsys.readouterr().out  # the change line too


def test_a_nameless_card_deleted_in_the_middle_is_that_card_removed_not_every_card_after_it_edited(tmp_path, capsys):
    """A playtest evening: one of twelve request cards (no name field: named #1 … #12 by their place)
    deleted; the build paired the cards by number, so #6 … #11 were 'edited' (#7's values said as
    #6's new ones), 18 cards went into reprint.pdf and 23 were to be thrown away, where nothing is
    new: the cards after it only moved up."""
    deck_yaml = ("name: 依頼\nformat: poker\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
                 "fields: {suit: text, text: text}\npieces:\n")
    pieces = [f"  - {{suit: {s}, text: 依頼{i}, count: 2}}\n" for i, s in enumerate("赤青黄緑赤青", 1)]
    front = FRONT.replace("piece.name", "piece.suit")
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml + "".join(pieces), front=front, back=BACK.replace("piece.name", "''"))
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck_yaml + "".join(pieces[:2] + pieces[3:]), encoding="utf-8")  # #3 (黄, 依頼3) deleted
    manifest = _build(ws)
    assert manifest["changes"] == ["cards: 12 → 10 (-2 #3 (removed)); nothing to reprint, pieces to pull out only "
                                   "(cards.pdf: sheets 1–2 (pages 1–4) rearranged)"]
    out = ws / "build" / "test"
    assert not (out / "reprint.pdf").exists()
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    # told by the values that tell it from the others at the table: no printed card shows "#3"
    assert "加える" not in said and "抜いて捨てる（2枚）" in said and "2 × #3［黄・依頼3］（削除）" in said, said
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["fields"] == [] and cards["removed"] == [{"piece": "#3［黄・依頼3］", "count": 2}]  # as reprint.txt
    deck.write_text(deck_yaml + "".join(pieces[:2] + pieces[3:]).replace("依頼5", "依頼五"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 10 → 10 (#4: text)")  # (#5 of the first build)
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    assert "    2 × #4［赤・依頼五］\n" in said and "    2 × #4［赤・依頼5］（古い版）\n" in said, said
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0  # the changelog for playtesters far away: which card it is
    assert "- \\#4［赤・依頼五］：text：「依頼5」 → 「依頼五」" in capsys.readouterr().out
    # the first deleted and the last edited in one save: the last is that one edited, not the first
    deck.write_text(deck_yaml + "".join(pieces[1:2] + pieces[3:]).replace("依頼5", "依頼五").replace("{suit: 青, text: 依頼6",
                                                                                                 "{suit: 白, text: 依頼6"),
                    encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 10 → 8 (#4: suit, -2 #1 (removed))")
    said = (out / "reprint.txt").read_text(encoding="utf-8")
    # (told by the text, which did not change, not by the suit edited: tests/engine/test_piece_tags.py)
    assert "    2 × #4［依頼6］\n" in said and "    2 × #5［依頼6］（古い版）\n" in said, said
    assert "    2 × #1［依頼1］（削除）\n" in said, said
    # one inserted first and the last edited in one save: the last is that one edited, the first new
    kept = deck.read_text(encoding="utf-8").replace("{suit: 白, text: 依頼6", "{suit: 黒, text: 依頼6")
    deck.write_text(kept.replace("pieces:\n", "pieces:\n  - {suit: 白, text: 依頼0, count: 2}\n"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 8 → 10 (+2 #1 (new), #5: suit)")


def test_a_nameless_card_told_by_a_list_field_names_its_items_not_python_brackets(tmp_path, capsys):
    """Bid cards (no name field) whose two lines of rule text are a list: one line edited named the
    card in reprint.txt ``#2［['ちょうど１つ取る', '成功で１０点']］`` and in the changelog
    ``["ちょうど１つ取る", "成功で１０点"]``, Python's and JSON's brackets and quotes; a value cut
    short at 24 characters read as whole."""
    deck_yaml = ("name: 宣言\nformat: poker\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
                 "fields: {bid: int, lines: list, text: text}\npieces:\n")
    long = "あ" * 30
    pieces = [f"  - {{bid: {i}, lines: [ちょうど{i}つ取る, 成功で{10 + i}点], text: {long}{i}}}\n" for i in range(3)]
    front = FRONT.replace("piece.name,", "piece.bid ~ piece.lines | join(' '),")
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml + "".join(pieces), front=front, back=BACK.replace("piece.name", "''"))
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("成功で11点", "成功で15点"), encoding="utf-8")
    _build(ws)
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    # (a text cut short at 24 characters, alike in all three, tells none apart: the bid does)
    assert "    1 × #2［1］\n" in said, said
    assert "    1 × #2［1］（古い版）\n" in said, said
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "lines：「ちょうど1つ取る／成功で11点」 → 「ちょうど1つ取る／成功で15点」" in out, out
    assert "['" not in out and '["' not in out and "\\[" not in out, out


def test_a_template_edit_counts_the_pieces_printed_not_one_parked_at_count_zero(tmp_path):
    """A playtest week: 秘跡 parked (count: 0), then the title's size lowered in the template: the
    build said 'every face edited (6 pieces)' of a deck printing five kinds."""
    ws = make_workspace(tmp_path / "ws", NAMES[:5])
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード2}", "本文カード2, count: 0}"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 5 → 4 (カード2: count 1 → 0, prints none); nothing to reprint")
    front = ws / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("size=12", "size=11"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 4 → 4 (every face edited (4 pieces)); reprint cards.pdf: ")


def test_a_count_lowered_on_a_template_that_numbers_its_copies_is_no_face_edited(tmp_path, capsys):
    """A request deck whose template draws each copy apart (a barcode from ``piece.copy``): one
    copy fewer said '-1 カード2, カード2 edited', as if its other copies were to be printed anew."""
    front = FRONT.replace('piece.text, 5, 30', 'piece.text ~ " No." ~ piece["copy"], 5, 30')
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "".join(
        f"  - {{name: カード{i}, text: 本文{i}, count: 3}}\n" for i in range(1, 4)), front=front)
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文2, count: 3", "本文2, count: 2"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 9 → 8 (-1 カード2); nothing to reprint, pieces to pull out only")
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "    1 × カード2（余った分）\n" in said, said  # a copy too many, not an old version to throw away
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["decks"]["cards"]["faces"] == []  # the changelog says it alike
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文2, count: 2", "本文2, count: 4"), encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 8 → 10 (+2 カード2), sheets 1 → 2; reprint cards.pdf: ")
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "2 × カード2\n" in said and "抜いて捨てる" not in said, said


def test_a_nameless_card_of_a_built_in_layout_deleted_in_the_middle_reprints_nothing(tmp_path, capsys):
    """Event cards drawn by card-poker, named by their text alone, their art still to come: the art
    placeholder printed each card's place (画像未定 #4), so deleting #3 redrew #4 and #5 as #3 and
    #4 — both reprinted and the printed ones thrown away, and the changelog said every face of the
    deck changed (the two unchanged ones left out of its count)."""
    deck_yaml = "name: 事件\nlayout: card-poker\npieces:\n"
    pieces = [f"  - {{text: 事件{i}}}\n" for i in range(1, 6)]
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml + "".join(pieces))
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck_yaml + "".join(pieces[:2] + pieces[3:]), encoding="utf-8")
    manifest = _build(ws)
    assert manifest["changes"] == ["cards: 5 → 4 (-1 #3 (removed)); nothing to reprint, pieces to pull out only "
                                   "(cards.pdf: sheet 1 (pages 1–2) rearranged)"], manifest["changes"]
    out = ws / "build" / "test"
    assert not (out / "reprint.pdf").exists()
    page = PdfReader(out / "cards.pdf").pages[0].extract_text()
    assert "画像未定" in page and not [t for t in page.split() if t in ("#1", "#2", "#3", "#4")], page


def test_two_faces_redrawn_of_three_are_named_not_every_face_of_the_deck(tmp_path, capsys):
    """Two cards share a picture that was painted over; the third's is its own: the changelog said
    'every face changed, all 2 pieces', counting only the pieces that changed."""
    ws = make_workspace(tmp_path / "ws", deck="name: 事件\nlayout: card-poker\npieces:\n"
                        "  - {title: 甲, art: a.png}\n  - {title: 乙, art: a.png}\n  - {title: 丙, art: b.png}\n")
    art = ws / "data" / "test" / "art"
    art.mkdir(exist_ok=True)
    for name, colour in (("a.png", "red"), ("b.png", "blue")):
        Image.new("RGB", (60, 80), colour).save(art / name)
    _build(ws)
    Image.new("RGB", (60, 80), "green").save(art / "a.png")
    _build(ws)
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    # (the picture named since: art/a.png replaced, shown by the two, not their faces changed)
    assert cards["pictures"] == [{"file": "art/a.png", "pieces": ["甲", "乙"]}], cards
    assert cards["faces"] == [] and not cards["every_face_changed"], cards


def test_a_piece_moved_down_by_new_cards_above_it_is_not_numbered_in_reprint_txt(tmp_path):
    """Asian Delivery's 40 unnamed business cards split: two new cards written above 20 left of
    the placeholder, whose name no other piece has. The build said '-20 未定', but reprint.txt
    '20 × 未定 #1（余った分）': the piece at place 1 before and at place 3 now was counted as
    two pieces of one name."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 未定, text: 本文, count: 4}\n")
    _build(ws)
    deck = DECK_YAML + "  - {name: 新札, text: 新しい, count: 2}\n  - {name: 未定, text: 本文, count: 2}\n"
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck, encoding="utf-8")
    assert _build(ws)["changes"][0].startswith("cards: 4 → 4 (+2 新札 (new), -2 未定)")
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "    2 × 未定（余った分）\n" in said and "#" not in said, said


def test_a_draft_edit_is_a_change_line_naming_its_sections_and_a_rebuild_says_nothing(tmp_path, capsys):
    """A playtest evening with the live view: a rule rewritten in the draft set the rulebook again,
    and the history recorded a version ('pnpgen diff': ルールブック 変更：ゲームの進行), but the
    terminal and the page said only 'built again', no change: which pages to print again?"""
    ws = make_workspace(tmp_path / "ws", ["カード1"], draft=True)
    build = ("build", "--game", "test", "--jobs", "1")
    assert run(ws, *build) == 0
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("２：カードを１枚出す。", "２：カードを２枚出す。")
                     + "\n■　勝利条件\n\n　先に１０点。\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, *build) == 0
    line = "rulebook: draft 3 (ゲームの進行 changed, 勝利条件 added)"
    assert f"  changed: {line}\n" in capsys.readouterr().out
    manifest = ws / "build" / "test" / "manifest.json"
    assert json.loads(manifest.read_text(encoding="utf-8"))["changes"] == [line]
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("draft: 3", "draft: 4"), encoding="utf-8")
    draft.write_text(draft.read_text(encoding="utf-8").replace("■　勝利条件\n\n　先に１０点。\n", ""), encoding="utf-8")
    assert run(ws, *build) == 0
    assert json.loads(manifest.read_text(encoding="utf-8"))["changes"] == ["rulebook: draft 3 → 4 (勝利条件 removed)"]
    cards = ws / "data" / "test" / "decks" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("本文カード1", "書き直し"), encoding="utf-8")
    assert run(ws, *build) == 0  # the draft as the last build read it: no line of its sections
    assert json.loads(manifest.read_text(encoding="utf-8"))["changes"] == [
        "cards: 1 → 1 (カード1: text); reprint cards.pdf: sheet 1 (pages 1–2)", BOOK_REDRAWN]  # (the components page shows カード1)


def test_a_figure_replaced_in_game_yaml_is_a_change_line_a_version_and_a_line_of_the_changelog(tmp_path, capsys):
    """trial72: a designer's figure replaced (its caption, its picture repainted) set the book again,
    but the build said no change, the history recorded no version and pnpgen diff was silent; the
    doujin-book export made before was not called stale. A rebuild after it says nothing."""
    ws = make_workspace(tmp_path / "ws", ["カード1"], draft=True)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    Image.new("RGB", (300, 200), "#888888").save(art / "garden.png")
    game = ws / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "rulebook:\n  figures:\n"
                    "    - {after: ゲームの進行, caption: 庭の例, picture: garden.png}\n", encoding="utf-8")
    build = ("build", "--game", "test", "--jobs", "1")
    manifest = ws / "build" / "test" / "manifest.json"
    assert run(ws, *build) == 0
    game.write_text(game.read_text(encoding="utf-8").replace("庭の例", "枯山水の例"), encoding="utf-8")
    assert run(ws, *build) == 0
    line = "rulebook: draft 3 (game.yaml's rulebook: changed)"
    assert json.loads(manifest.read_text(encoding="utf-8"))["changes"] == [line]
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "v1", "v2") == 0
    assert "- 変更：game.yaml の rulebook:（図・図の説明・表紙・奥付）" in capsys.readouterr().out
    assert run(ws, *build) == 0
    said = capsys.readouterr().out
    assert "up to date" in said and "changed" not in said, said
    Image.new("RGB", (300, 200), "#446644").save(art / "garden.png")  # the picture repainted
    assert run(ws, *build) == 0
    assert json.loads(manifest.read_text(encoding="utf-8"))["changes"] == [line]
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    assert capsys.readouterr().out.count("\nv") + 1 == 3  # v1, v2, v3


def test_a_piece_deleted_in_a_run_of_pieces_sharing_its_name_is_that_piece_removed(tmp_path, capsys):
    """Round tokens all named ラウンド (values 1–6): the third deleted was said as ラウンド [4] … [6]
    edited and ラウンド [6] removed (the pieces paired by number and name, whatever their values),
    in the change line, reprint.txt and pnpgen diff; the later ones only moved up, as nameless
    pieces do. An edit to a later one in the same save is that one edited."""
    pieces = [f"  - {{name: ラウンド, text: '{i}', count: 2}}\n" for i in range(1, 7)]
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "".join(pieces))
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(DECK_YAML + "".join(pieces[:2] + pieces[3:]), encoding="utf-8")  # ラウンド 3 deleted
    manifest = _build(ws)
    assert manifest["changes"] == ["cards: 12 → 10 (-2 ラウンド [3] (removed)); nothing to reprint, pieces to pull out only "
                                   "(cards.pdf: sheets 1–2 (pages 1–4) rearranged)"], manifest["changes"]
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "    2 × ラウンド［3］（削除）\n" in said and "古い版" not in said and "加える" not in said, said
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["fields"] == [] and cards["added"] == [] and cards["removed"] == [{"piece": "ラウンド［3］", "count": 2}]
    # the first deleted and the last edited in one save: the last is that one edited, not the first
    deck.write_text(DECK_YAML + "".join(pieces[1:2] + pieces[3:5]) + "  - {name: ラウンド, text: '7', count: 2}\n",
                    encoding="utf-8")
    line = _build(ws)["changes"][0]
    assert line.startswith("cards: 10 → 8 (ラウンド [7]: text, -2 ラウンド [1] (removed))"), line


def test_reprint_txt_counts_tokens_in_ko_as_the_rulebook_does(tmp_path):
    """A wargame trial: three counters edited were 「加える（3枚…」 in reprint.txt while the
    rulebook's components list counts tokens 「168個」; tokens are 個, cards (and the rest) 枚."""
    ws = make_workspace(tmp_path / "ws", NAMES[:3])
    counters = DECK_YAML.replace("name: テストカード\nformat: poker", "name: 駒\nkind: token\nsize: [16, 16]")
    (ws / "data" / "test" / "decks" / "units.yaml").write_text(
        counters + "".join(f"  - {{name: R00{i}, text: '3-4'}}\n" for i in range(1, 5)), encoding="utf-8")
    _build(ws)
    for deck, old, new in (("units", "name: R001, text: '3-4'", "name: R001, text: '4-4'"),
                           ("units", "name: R002, text: '3-4'", "name: R002, text: '5-4'"),
                           ("cards", "text: 本文カード2}", "text: 書き直した}")):
        path = ws / "data" / "test" / "decks" / f"{deck}.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    _build(ws)
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "加える（2個、" in said and "抜いて捨てる（2個）：\n    1 × R001（古い版）" in said, said
    assert "加える（1枚、" in said and "抜いて捨てる（1枚）：\n    1 × カード2（古い版）" in said, said


def test_a_field_shown_on_both_sides_is_named_once_not_with_back_after_it(tmp_path, built_copy):
    """A wargame trial: a counter whose back shows its reduced values, ``back_mp`` edited, was
    ``B010: back_mp, front_str, back`` — ``back`` read as a field of that name. The fields that
    changed say why; ``back`` is said alone only when no field did (the back's template edited)."""
    ws = built_copy(tmp_path / "ws", *BUILD, pieces=NAMES[:12])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: カード2,", "name: カード二,"), encoding="utf-8")
    manifest = _build(ws)  # the card back prints the name: both sides changed
    assert manifest["changes"] == ["cards: 12 → 12 (カード二: name); reprint cards.pdf: sheet 1 (pages 1–2)"], manifest


def test_diff_tells_a_nameless_card_by_its_values_in_the_decks_order_as_reprint_does(tmp_path, capsys):
    """A trick-taking trial: cards without names, fields ``{text, color}``; reprint.txt said
    #3［依頼3・黄］ and `pnpgen diff` #3［黄・依頼3］ (a history entry keeps its keys sorted). Both
    now say the deck's order; an entry recorded before (no order kept) still reads."""
    from pnpgen.engine import history

    deck_yaml = ("name: 依頼\nformat: poker\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
                 "fields: {text: text, color: text}\npieces:\n")
    pieces = [f"  - {{text: 依頼{i}, color: {s}, count: 2}}\n" for i, s in enumerate("赤青黄緑", 1)]
    ws = make_workspace(tmp_path / "ws", deck=deck_yaml + "".join(pieces), front=FRONT.replace("piece.name", "piece.color"),
                        back=BACK.replace("piece.name", "''"))
    _build(ws)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck_yaml + "".join(pieces[:2] + pieces[3:]).replace("依頼4", "依頼四"),
                    encoding="utf-8")  # #3 deleted, #4 edited
    _build(ws)
    said = (ws / "build" / "test" / "reprint.txt").read_text(encoding="utf-8")
    assert "2 × #3［黄］（削除）" in said, said
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    # (the colour alone tells them apart, not the text edited: tests/engine/test_piece_tags.py)
    assert cards["removed"] == [{"piece": "#3［黄］", "count": 2}]
    assert [(f["piece"], f["field"]) for f in cards["fields"]] == [("#3［緑］", "text")]
    for entry in sorted((ws / "build").rglob(".history/**/*.json")):  # as an earlier pnpgen wrote them
        edition = entry.parent.name
        decoded = history.decode(entry.read_bytes(), edition)
        if decoded is None:
            continue
        body = decoded[0]
        for d in body["decks"].values():
            d.pop("field_order")
        entry.write_bytes(history.encode(body, edition))
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out)["decks"]["cards"]["removed"] == [{"piece": "#3［黄］", "count": 2}]


def test_every_reason_a_change_line_gives_without_a_piece_is_told_in_the_playtest_page(tmp_path):
    """A US designer built on Letter after an A4 build and read `cards: 30 → 30 (sheets changed);
    reprint cards.pdf: …`: no piece changed, and docs/playtest.md's list of reasons did not name it."""
    ws = make_workspace(tmp_path / "ws", NAMES)
    _build(ws)
    assert run(ws, *BUILD, "--paper", "letter") == 0
    line = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["changes"][0]
    assert line.startswith("cards: 30 → 30 (sheets changed)"), line
    page = (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")
    told = page[page.index("## Print what changed"):page.index("## Or print only the new cards")]
    for reason in ("sheets changed", "back changed", "every face edited"):  # each as the line prints it
        assert f"`{reason}" in told, reason


def test_a_rebuild_with_another_bleed_says_the_bleed_changed_not_every_face_edited(tmp_path):
    """A rebuild with only `--bleed 2` read `cards: 12 → 12 (back changed, every face edited (12
    pieces))`: words for a content edit, where only the bleed the faces are drawn with changed."""
    ws = make_workspace(tmp_path / "ws", NAMES[:12])
    _build(ws)
    assert run(ws, *BUILD, "--bleed", "2") == 0
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["changes"] == ["cards: 12 → 12 (bleed 3 → 2 mm); reprint cards.pdf: sheets 1–2 (pages 1–4)"]
    page = (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")
    assert "`bleed 3 → 2 mm`" in page[page.index("## Print what changed"):page.index("## Or print only the new cards")]


def test_a_parked_card_edited_added_or_removed_is_no_change_to_print_nor_in_the_changelog(tmp_path, capsys):
    """A TCG trial: four starter decks read one card sheet, each through its own count column, so
    each parks the sheet's other cards (count: 0). One card's text edited was named on every
    deck's line (``st03: 50 → 50 (陽の兵1: text); st03.pdf: no sheet to reprint (pieces to pull
    out only)``, nothing there to pull out), twelve new cards were ``+0 … (new)`` in every deck and
    five retired ``-0 … (removed)``, and `pnpgen diff` listed them the same."""
    ws = make_workspace(tmp_path / "ws", NAMES[:5])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード2}", "本文カード2, count: 0}")
                    .replace("本文カード4}", "本文カード4, count: 0}"), encoding="utf-8")
    _build(ws)
    text = deck.read_text(encoding="utf-8").replace("本文カード2,", "新しい本文,")  # parked, edited
    text = text.replace("  - {name: カード4, text: 本文カード4, count: 0}\n", "")  # parked, removed
    deck.write_text(text + "  - {name: カード9, text: 本文カード9, count: 0}\n", encoding="utf-8")  # parked, added
    manifest = _build(ws)
    assert manifest["changes"] == [], manifest["changes"]
    assert not (ws / "build" / "test" / "reprint.txt").exists()
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード3}", "本文三}"), encoding="utf-8")
    manifest = _build(ws)  # a printed card edited beside them: that card alone
    assert manifest["changes"] == ["cards: 3 → 3 (カード3: text); reprint cards.pdf: sheet 1 (pages 1–2)"], manifest["changes"]
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "v1", "latest", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert (cards["added"], cards["removed"], cards["counts"]) == ([], [], [])
    assert [(f["piece"], f["field"]) for f in cards["fields"]] == [("カード3", "text")]
    assert cards["faces"] == [] and cards["pictures"] == []
