"""Messages speak the designer's data only: no palette entry pnpgen adds itself, no empty
草案/人 in `pnpgen list`, and key paths counted as the designer counts ("piece 2" is pieces.2)."""

from __future__ import annotations

import unicodedata

import pytest

from conftest import DECK_YAML, DRAFT, GAME_YAML, make_workspace, run
from pdfprobe import texts

COLOURED = DECK_YAML.replace("  text: text\n", "  text: text\n  colour: colour\n")
FRONT_TEXT = ('{% extends "common/piece.svg.j2" %}{% block art %}'
              '{{ textbox(piece.text, 5, 5, 50, 20) }}<rect width="5" height="5" fill="{{ colour(piece.colour) }}"/>'
              '{% endblock %}')


@pytest.mark.parametrize("pieces, said", [
    ("  - {name: 祝福, text: 本文, colour: blue}\n", "'blue' is not a valid colour"),  # a field value
    ("  - {name: 祝福, text: 本文, colour: '#blue'}\n", "'#blue' is not a valid colour"),
    ("  - {name: 祝福, text: '[blue]青[/blue]', colour: red}\n", "unknown colour [blue] (palette"),  # markup
    ("  - {name: 祝福, text: '[rde]赤[/rde]', colour: red}\n", "unknown colour [rde]; did you mean red?"),
    ("  - {name: 祝福, text: 本文, colour: rde}\n", "'rde' is not a valid colour; did you mean red?"),  # game trial
])
def test_unknown_colour_lists_only_the_designers_palette(tmp_path, capsys, pieces, said):
    ws = make_workspace(tmp_path / "ws", deck=COLOURED + pieces, front=FRONT_TEXT,
                        game=GAME_YAML + "languages: [ja, en]\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert said in err and "red" in err and "ink" in err, err
    assert "or '#rrggbb'" in err or "unknown colour [" in said, err
    assert "missing-translation" not in err, err


def test_a_colour_field_takes_a_hex_colour_that_needs_no_palette_entry(tmp_path, capsys):
    """README: `gold` is a palette colour; a "#rrggbb" value needs none. It prints that colour."""
    import pypdfium2

    ws = make_workspace(tmp_path / "ws", deck=COLOURED + "  - {name: 祝福, text: 本文, colour: '#aa3366'}\n",
                        front=FRONT_TEXT)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0, capsys.readouterr().err
    page = pypdfium2.PdfDocument(str(ws / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    dpi = 144
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    at = round((3 + 2.5) / 25.4 * dpi)  # the 5 mm square at the trim's corner, 3 mm bleed in
    assert image.getpixel((at, at)) == (0xAA, 0x33, 0x66)


def test_template_colour_lists_only_the_designers_palette(tmp_path, capsys):
    front = '{% extends "common/piece.svg.j2" %}{% block art %}<rect fill="{{ colour("blue") }}"/>{% endblock %}'
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "unknown colour 'blue'" in err and "(red, ink)" in err and "missing-translation" not in err, err


@pytest.mark.parametrize("deck, front, where, said", [
    # a field value (COLOURED's first piece is line 10)
    (COLOURED + "  - {name: 祝福, text: 本文, colour: rde}\n", FRONT_TEXT, "data/test/decks/cards.yaml:10:",
     "'rde' is not a valid colour; did you mean red?"),
    # a built-in layout's box and ground
    ("name: カード\nlayout: {extends: card-poker, boxes: {title: {colour: inkk}}}\npieces:\n  - {title: 題}\n", None,
     "data/test/decks/cards.yaml:2:", "unknown colour 'inkk'; did you mean ink?"),
    ("name: カード\nlayout: {extends: card-poker, background: rde}\npieces:\n  - {title: 題}\n", None,
     "data/test/decks/cards.yaml:2:", "unknown colour 'rde'; did you mean red?"),
    # a template's colour()
    (None, '{% extends "common/piece.svg.j2" %}{% block art %}<rect fill="{{ colour("rde") }}"/>{% endblock %}',
     "card-front.svg.j2:", "unknown colour 'rde'; did you mean red?"),
], ids=["field value", "layout box", "layout background", "template colour()"])
def test_a_mistyped_colour_name_is_told_the_palette_name_it_is_near(tmp_path, capsys, deck, front, where, said):
    """As mistyped keys and markup colours are: the file and line, the near name, the palette."""
    ws = make_workspace(tmp_path / "ws", **({"deck": deck} if deck else {}), **({"front": front} if front else {}))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert where in err and said in err and "or '#rrggbb'" in err and "Traceback" not in err, err


def test_a_mistyped_colour_name_in_a_template_gets_the_near_palette_name(tmp_path, capsys):
    """A game trial: colour("inkk") listed the palette but named no near miss, as a mistyped key does."""
    front = '{% extends "common/piece.svg.j2" %}{% block art %}<rect fill="{{ colour("inkk") }}"/>{% endblock %}'
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "card-front.svg.j2:1: colour: unknown colour 'inkk'; did you mean ink? (" in err, err
    assert "Traceback" not in err


def test_list_prints_only_what_the_game_gives(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", game="title: テスト\n")
    assert run(ws, "list") == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "test  テスト", first
    ws2 = make_workspace(tmp_path / "ws2")
    assert run(ws2, "list") == 0
    assert capsys.readouterr().out.splitlines()[0] == "test  テストゲーム  草案3  2-4人"


@pytest.mark.parametrize("pieces, said", [
    ("  - {name: 祝福}\n  - {name: 降臨, titel: x}\n", "cards.yaml:10:16: pieces.2.titel: unknown key in piece 2"),
    ("  - {name: 祝福}\n  - {name: 降臨, count: -1}\n", "pieces.2.count: count -1"),
    ("  - {name: 祝福}\n  - {name: 降臨, text: !x y}\n", "pieces.2.text: YAML tag"),
])
def test_key_paths_count_pieces_from_one(tmp_path, capsys, pieces, said):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + pieces)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert said in err, err


@pytest.mark.parametrize("deck, said, not_said", [
    # a near miss of a field: which one was meant
    (DECK_YAML + "  - {name: 祝福, txet: 本文}\n", "pieces.1.txet: unknown key in piece 1; did you mean text?",
     "a new field"),
    # a field that is new: how to add it, to a deck of templates and to a deck drawn by a layout
    (DECK_YAML + "  - {name: 祝福, rarity: 稀}\n", "unknown key in piece 1 (expected one of name, text, count; "
     "a new field is declared first: fields: {rarity: text})", "did you mean"),
    # … of the type its value reads as (a number was offered 'text')
    (DECK_YAML + "  - {name: 祝福, danger: 2}\n", "fields: {danger: int})", "did you mean"),
    (DECK_YAML + "  - {name: 祝福, reef: true}\n", "fields: {reef: bool})", "did you mean"),
    (DECK_YAML + "  - {name: 祝福, odds: 0.5}\n", "fields: {odds: number})", "did you mean"),
    (DECK_YAML + "  - {name: 祝福, tags: [a, b]}\n", "fields: {tags: list})", "did you mean"),
    # a picture's file name is an image field, not text that would print the file's name (the harbour trial)
    (DECK_YAML + "  - {name: 祝福, portrait: knight.png}\n", "fields: {portrait: image})", "did you mean"),
    (DECK_YAML + "  - {name: 祝福, portrait: Art/Knight.JPG}\n", "fields: {portrait: image})", "did you mean"),
    ("name: カード\nlayout: {extends: card-poker, boxes: {title: {size: 12}}}\npieces:\n  - {title: 祝福, rarity: 稀}\n",
     "a new field is shown by a box of its own, which declares it: layout: {extends: card-poker, boxes: {rarity: "
     "{field: rarity, x: …, y: …, w: …, h: …}}}", "did you mean art"),  # rarity is no near miss of art
    # a designer's memo column, not to be printed: how to keep it (a 同人 designer's trial: told only of a box)
    ("name: カード\nlayout: card-poker\npieces:\n  - {title: 祝福, メモ: 強すぎ？}\n",
     "; one kept for yourself and never printed (a memo) is declared alone: fields: {メモ: text})", "did you mean"),
])
def test_an_unknown_piece_key_says_the_field_meant_or_how_to_add_one(tmp_path, capsys, deck, said, not_said):
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert said in err and not_said not in err and err.count("\n") == 1, err


def test_key_paths_of_lists_in_game_yaml_count_from_one(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "sourced:\n  - {name: サイコロ}\n  - {name: コマ, count: 0}\n")
    assert run(ws, "check") == 2
    assert "sourced.2.count: count 0" in capsys.readouterr().err


def test_mapping_keys_that_are_numbers_stay_as_written(tmp_path, capsys):
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  track: map\n") + \
        "  - {name: 祝福, track: {0: a, 1: {b: c}}}\n  - {name: 降臨, track: {5: 未定}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check") == 0
    out = capsys.readouterr().out
    assert "降臨.track.5: 未定" in out, out


def test_a_board_without_pieces_is_told_how_to_write_its_one_piece(tmp_path, capsys):
    board = "name: 得点ボード\nkind: board\nsize: [200, 150]\nfront: card-front.svg.j2\n"
    front = '{% extends "common/piece.svg.j2" %}{% block art %}{{ track(30, 5, 5, w - 10, h - 10) }}{% endblock %}'
    ws = make_workspace(tmp_path / "ws", deck=board, front=front)
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:1:1: missing key 'pieces'" in err and "'pieces: [{}]'" in err, err
    (ws / "data/test/decks/cards.yaml").write_text(board + "pieces: [{}]\n", encoding="utf-8")
    assert run(ws, "check") == 0
    assert "(1 deck, 1 piece, " in capsys.readouterr().out  # a count of one in the singular


def test_a_palette_name_one_slip_from_a_colour_the_layouts_draw_is_pointed_at(tmp_path, capsys):
    """``acent:`` in game.yaml: the layouts draw 'accent' in pnpgen's own colour and never read
    it; the build says where, and what was meant. A name of the designer's own is left alone."""
    deck = "name: カード\nformat: poker\nlayout: card-poker\npieces:\n  - {title: 一, text: 本文}\n"
    game = GAME_YAML.replace('  red: "#cc3333"', '  acent: "#cc3333"\n  sky: "#88aadd"')
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    err = capsys.readouterr().err
    assert ("data/test/game.yaml:6:3: palette colour 'acent' is read by no layout, which draw 'accent' in "
            "pnpgen's own colour; did you mean accent?") in err, err
    assert "'sky'" not in err
    (ws / "data" / "test" / "game.yaml").write_text(game.replace("acent:", "accent:"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert "palette colour" not in capsys.readouterr().err


def test_a_palette_name_a_deck_layout_reads_is_no_near_miss(tmp_path, capsys):
    """``wheat:`` in game.yaml, read by a deck's ``band: {fill: wheat}`` (English trial): one slip
    from the layouts' 'white', but it is read, so no warning, and the band prints wheat."""
    import pypdfium2

    deck = ("name: Resources\nlayout: {extends: card-poker, boxes: {band: {fill: wheat}}}\n"
            "pieces:\n  - {title: Wheat, text: Gain one food.}\n")
    game = GAME_YAML.replace('  red: "#cc3333"', '  wheat: "#d9a441"')
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "palette colour" not in capsys.readouterr().err
    page = pypdfium2.PdfDocument(str(ws / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    bitmap = page.render(scale=25.4 / 72).to_pil()  # one pixel a millimetre
    bleed = (bitmap.width - 63) / 2
    assert bitmap.getpixel((round(bleed + 8), round(bleed + 8)))[:3] == (0xd9, 0xa4, 0x41)  # the band, left of its title


@pytest.mark.parametrize("encode, said", [
    (lambda t: t.encode("cp932"), "it reads as Shift_JIS (CP932)"),
    (lambda t: t.encode("utf-16"), "it is UTF-16"),
], ids=["shift_jis", "utf-16"])
def test_a_deck_saved_in_another_encoding_is_told_which_and_how_to_save_it(tmp_path, capsys, encode, said):
    """A deck file saved by an older Japanese editor: the line of its first stray byte, the
    encoding it was saved in, and how to save it as UTF-8; exit 2, no traceback."""
    ws = make_workspace(tmp_path / "ws")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_bytes(encode(deck.read_text(encoding="utf-8")))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:1: not UTF-8 text" in err and said in err and "文字コード UTF-8" in err, err
    assert "Traceback" not in err


def test_a_deck_saved_as_windows_1252_is_told_so_in_english(tmp_path, capsys):
    """English trial: a deck saved by Notepad as "ANSI" (Windows-1252: It’s) was told it reads as
    Shift_JIS "as older Japanese editors save", with Japanese Notepad's menu to use."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: It’s gold, text: b}\n")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_bytes(deck.read_text(encoding="utf-8").replace("テストカード", "Test cards").encode("cp1252"))
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "cards.yaml:" in err and "it reads as Windows-1252 (Western European)" in err, err
    assert "Notepad: Save As, Encoding UTF-8" in err and "Shift_JIS" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("written, meant", [
    ('"63,5mm"', "63.5mm"), ("2.5 inch", "2.5in"), ('"63 ミリ"', "63mm"), ("63mmm", "63mm"), ("10pts", "10pt"),
    ("63xx", "63mm"),  # a unit near none: the millimetres meant, not 63px (American trial: --bleed 3xx)
    # an inch fraction as a US ruler reads: '1/8in' was told 'did you mean 1in?'
    ('"2 1/2in"', "2.5in"), ("5/8 inch", "0.625in"), ("1/8", "0.125in"),
], ids=["decimal comma", "inch spelt out", "ミリ", "mmm", "pts", "no unit near", "mixed fraction", "fraction spelt out",
        "bare fraction"])
def test_a_length_written_as_people_write_it_is_told_how_pnpgen_reads_it(tmp_path, capsys, written, meant):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", f"size: [{written}, 88]")
                        + "  - {name: a, text: b}\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:2:" in err and f"is not a length; did you mean {meant}?" in err, err


@pytest.mark.parametrize("written, size", [("A5", "[148, 210]"), ("letter", "[215.9, 279.4]"), ("Ａ５", "[148, 210]")])
def test_a_paper_size_written_as_a_format_is_told_the_size_to_write(tmp_path, capsys, written, size):
    """English trial: a player mat written ``format: A5`` (in a deck, and in a layout override)
    was told only the card formats; it is told the size to write."""
    for deck in (DECK_YAML.replace("format: poker", f"format: {written}") + "  - {name: a, text: b}\n",
                 f"name: Mats\nkind: board\nlayout: {{extends: board, format: {written}}}\npieces: [{{title: Red}}]\n"):
        ws = make_workspace(tmp_path / written / str(len(deck)), deck=deck)
        assert run(ws, "check", "--game", "test") == 2
        err = capsys.readouterr().err.strip()
        assert "Traceback" not in err and len(err.splitlines()) == 1, err
        assert f"format '{written}' is a paper size, not one of the card formats (expected 'size: {size}'" in err, err
        assert "data/test/decks/cards.yaml:" in err and "poker, bridge" in err, err


def test_a_size_written_as_a_format_is_told_to_write_size(tmp_path, capsys):
    """Japanese trial: 59×86 cards written ``format: [59, 86]`` were told 'unknown format [59, 86]'
    and the format names, not that a size of one's own is ``size:``."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "format: [59, 86]")
                        + "  - {name: a, text: b}\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "data/test/decks/cards.yaml:2:" in err, err
    assert "is a size, not the name of a card format (expected 'size: [59, 86]' for a size of your own" in err, err


def test_the_box_a_new_spreadsheet_column_is_told_to_add_builds(tmp_path, capsys):
    """A game trial: a spreadsheet's capitalised header ``Rarity`` was told to add
    ``boxes: {Rarity: {field: Rarity, …}}``, which stops at 'Rarity' is not a box name (box names
    are lower case): the box is named in lower case, and the deck so written builds. polish48: it said
    ``boxes: {rarity: {field: Rarity, …}}``, the box in small letters, its field in the header's
    capitals: the field is named in the box's case (a header reads its field in any case), the memo too."""
    deck = "name: カード\nlayout: card-poker\npieces: {file: cards.csv}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data/test/decks/cards.csv").write_text("Title,Rarity,Count\n祝福,rare,2\n", encoding="utf-8")
    assert run(ws, "check") == 2
    err = capsys.readouterr().err
    said = "boxes: {rarity: {field: rarity, x: …, y: …, w: …, h: …}}"
    assert said in err and "(a memo) is declared alone: fields: {rarity: text})" in err, err
    assert "Rarity" not in err.split("header row", 1)[1], err
    box = said.replace("x: …, y: …, w: …, h: …", "x: 5, y: 80, w: 20, h: 4")
    for layout in ("layout: {extends: card-poker, " + box + "}", "layout: card-poker\nfields: {rarity: text}"):
        (ws / "data/test/decks/cards.yaml").write_text(deck.replace("layout: card-poker", layout), encoding="utf-8")
        assert run(ws, "check") == 0, capsys.readouterr().err


@pytest.mark.parametrize("draft", ["草案３", "草案 3", "Draft 3"])
def test_a_draft_number_written_as_the_drafts_title_line_says_it_is_printed_once(tmp_path, capsys, draft):
    """Trial 17: game.yaml's ``draft: 草案３`` (as the draft's ■■ line writes it) printed
    「草案草案３」 in every sheet's slug, and the rulebook's check said "draft number differs: the
    draft says 草案３ (3), the data says 草案３". 草案 (Draft) is taken as said, the number kept."""
    game = GAME_YAML.replace("draft: 3\n", f"draft: {draft}\n")
    ws = make_workspace(tmp_path / "ws", game=game, draft=True)
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "draft number differs" not in err, err
    slug = "".join(texts(ws / "build" / "test" / "cards.pdf")[:1])
    assert f"草案{draft[-1]}" in slug and "草案草案" not in slug and "草案Draft" not in slug, slug


@pytest.mark.parametrize("players", ["2〜4人", "2人〜4人", "2～4人用", "２－４人"])
def test_a_player_count_written_with_its_counter_word_prints_it_once(tmp_path, capsys, players):
    """Trial 17: game.yaml's ``players: 2〜4人`` (as a Japanese draft says it) was listed as
    「2〜4人人」 by ``pnpgen list`` and the bill of materials, and ``2～4`` typed by an input method
    (～, －) was not read as a range: the cover printed it bare, and the draft's ２〜４人用 was
    said to differ from it. 人 (人用) is taken as said; the range is read in either width."""
    draft = DRAFT.replace("◇テストカード（１１枚）", "　２〜４人用\n\n◇テストカード（１１枚）")
    assert draft != DRAFT
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML.replace("players: 2-4\n", f"players: {players}\n"))
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    assert run(ws, "list") == 0
    listed = unicodedata.normalize("NFKC", capsys.readouterr().out)
    assert "人人" not in listed and "4人" in listed.splitlines()[0], listed
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "player count differs" not in err, err
    bom = unicodedata.normalize("NFKC", texts(ws / "build" / "test" / "test-all.pdf")[-1])
    assert "人人" not in bom and "4人 ·" in bom, bom
    cover = unicodedata.normalize("NFKC", texts(ws / "build" / "test" / "rulebook.pdf")[0].replace(" ", ""))
    assert "4人" in cover and "人人" not in cover and "人用" not in cover, cover


def test_a_palette_name_the_pieces_give_or_two_slips_away_is_no_near_miss(tmp_path, capsys):
    """A tile game (second newcomer's trial): the tiles' templates read ``colour(piece.terrain)``
    and a tile says ``terrain: lake``, the objective cards use ``card-poker``. ``lake`` is the
    palette's, read through the data, though one slip from the layouts' ``ink`` reading: no
    warning; nor for ``water``, three slips from ``white`` (every build said 'did you mean
    white?'). ``acent`` is still one slip from ``accent``, and told."""
    import pypdfium2

    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '<rect x="-3" y="-3" width="69" height="94" fill="{{ colour(piece.terrain) }}"/>{% endblock %}')
    tiles = "name: Tiles\nformat: poker\nfront: card-front.svg.j2\nfields: {terrain: text}\npieces:\n  - {terrain: lake}\n"
    game = GAME_YAML.replace('  red: "#cc3333"', '  lake: "#3c6eb4"\n  water: "#2850be"\n  acent: "#5b3a1e"')
    ws = make_workspace(tmp_path / "ws", deck=tiles, front=front, game=game)
    (ws / "data/test/decks/objectives.yaml").write_text(
        "name: Objectives\nlayout: card-poker\npieces:\n  - {title: One, text: Score.}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "'lake'" not in err and "'water'" not in err, err
    assert "palette colour 'acent' is read by no layout" in err, err
    page = pypdfium2.PdfDocument(str(ws / "build" / "test" / "shop" / "cards-unique.pdf"))[0]
    bitmap = page.render(scale=25.4 / 72).to_pil()
    assert bitmap.getpixel((30, 40))[:3] == (0x3c, 0x6e, 0xb4)  # the lake's colour, as the data named it


def test_a_player_count_differing_from_the_data_is_told_at_its_draft_line(tmp_path, capsys):
    """The harbour trial: 「３〜５人用」 against game.yaml's 2-4 was warned as
    'data/<slug>/draft.txt: player count differs', the one draft warning with no line to go to."""
    draft = DRAFT.replace("◇テストカード（１１枚）", "　３〜５人用\n\n◇テストカード（１１枚）")
    line = draft.splitlines().index("　３〜５人用") + 1
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "draft.txt").write_text(draft, encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test") == 0
    err = capsys.readouterr().err
    assert f"data/test/draft.txt:{line}: player count differs: the draft says 3 to 5 players, the data says '2-4'" \
        in err, err

