"""The cover shows a deck's first piece only when that piece shows no placeholder: told by the
piece itself, not by its name, which a later piece of the deck may share."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, DRAFT, GAME_YAML, make_workspace, run
from pdfprobe import texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook.book import settled


def cards(tmp_path, first: str, third: str):
    deck = DECK_YAML + f"  - {{name: 彗星, text: {first}}}\n  - {{name: 黒星, text: 本文}}\n  - {{name: 彗星, text: {third}}}\n"
    return load_game(Workspace(make_workspace(tmp_path, deck=deck)), "test").decks[0]


def test_a_first_piece_with_nothing_open_is_on_the_cover_though_a_namesake_has_a_placeholder(tmp_path):
    namesake_open = cards(tmp_path / "a", "本文", "未定")  # a name reused further down the deck
    assert [fld for _, fld, _ in namesake_open.placeholders] == ["彗星.text"]  # the third's, under the first's name
    assert settled(namesake_open)
    assert not settled(cards(tmp_path / "b", "未定", "本文"))


def test_a_cover_left_bare_by_placeholders_is_said_in_the_rulebook_line_naming_each_decks_first_piece(tmp_path, capsys):
    """Trial 17: a deck-builder whose decks all start with a card that has no art yet got a cover
    with no pieces on it and not a word why. The build's rulebook line says so, naming each deck's
    first piece; a deck whose first piece is settled puts it on the cover, and nothing is said."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 未定}\n  - {name: 黒星, text: 本文}\n")
    (ws / "data" / "test" / "decks" / "more.yaml").write_text(
        "name: 追加\nlayout: card-poker\npieces:\n  - {title: 流星, text: 本文}\n", encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "deck pictures (none on the cover: each deck's first printed piece holds a placeholder, 未定 or no art yet: " \
        "cards: 彗星, more: 流星), 0 figures" in out, out
    cover = texts(ws / "build" / "test" / "rulebook.pdf")[0]
    assert "彗星" not in cover and "流星" not in cover, cover
    (ws / "data" / "test" / "decks" / "more.yaml").write_text(
        "name: 追加\nlayout: {extends: card-poker, boxes: {art: null}}\npieces:\n  - {title: 流星, text: 本文}\n",
        encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "none on the cover" not in out and "2 deck pictures, 0 figures" in out, out
    assert "流星" in texts(ws / "build" / "test" / "rulebook.pdf")[0]


def test_an_english_games_bare_cover_is_said_with_the_word_its_edition_prints(tmp_path, capsys):
    """trial19: an English game's rulebook line said "a placeholder, 未定 or no art yet", a word its
    edition never prints (it prints TBD)."""
    game = GAME_YAML.replace("title: テストゲーム", "languages: [en]\ntitle: Test")
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: Comet, text: TBD}\n", game=game)
    (ws / "data" / "test" / "draft.txt").write_text(
        "# Test (Draft 1)\n\n## Components\n\n- 1 Test card\n\n## Playing the game\n\n1. Draw a card.\n",
        encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "each deck's first printed piece holds a placeholder, TBD or no art yet: cards: Comet)" in out, out


def test_a_deck_that_prints_nothing_is_never_on_the_cover(tmp_path, capsys):
    """hostile25: a deck of parked cards (count: 0, set aside) whose first card is settled was the
    cover's picture while the cards that are in the box hold placeholders: the cover showed a card
    no copy of the game has. It is passed over, and the bare cover said of the decks that print."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 未定}\n")
    (ws / "data" / "test" / "decks" / "more.yaml").write_text(
        "name: 予備\nlayout: {extends: card-poker, boxes: {art: null}}\npieces:\n  - {title: 流星, text: 本文, count: 0}\n",
        encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "(none on the cover: each deck's first printed piece holds a placeholder, 未定 or no art yet: cards: 彗星)" in out, out
    assert "流星" not in texts(ws / "build" / "test" / "rulebook.pdf")[0]


def test_a_deck_is_pictured_by_its_first_printed_piece_not_one_parked_before_it(tmp_path, capsys):
    """A TCG trial: four starter decks read the whole card sheet, each through its own count
    column, so a blue starter deck's first row was the sheet's first (red) card, parked: the
    components list and the cover pictured that card, which no copy of the deck holds. The deck's
    first printed piece pictures it; with it open (未定), the bare cover's line names that piece."""
    deck = DECK_YAML + "  - {name: 流星, text: 本文, count: 0}\n  - {name: 彗星, text: 本文}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    book = texts(ws / "build" / "test" / "rulebook.pdf")
    assert "彗星" in book[0] and not any("流星" in page for page in book), book[0]
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck.replace("{name: 彗星, text: 本文}", "{name: 彗星, text: 未定}"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    assert "each deck's first printed piece holds a placeholder, 未定 or no art yet: cards: 彗星)" in capsys.readouterr().out


PACK = ("name: 封筒A\nsealed: {sealed}\nlayout: {{extends: card-poker, boxes: {{art: null}}, "
        "back: {{boxes: {{deck: {{text: 開封禁止}}}}}}}}\npieces:\n  - {{title: 秘密の扉, text: 扉が開く。}}\n")


def test_a_sealed_packs_faces_stay_out_of_the_rulebook_its_back_shown_for_them(tmp_path, capsys):
    """trial53: a legacy game's sealed envelope, a deck of its own as docs/data-format.md says, had
    its first card on the rulebook's cover and on the components page: the book spoilt the secret
    the envelope keeps. ``sealed: true`` shows the pack by its back alone and keeps it off the cover;
    a setup figure placing one of its cards shows it face down. Taken away, the next build sets the
    book again with the card's face (not the kept pages)."""
    figure = "rulebook:\n  figures:\n    - {after: カードを１枚引く, size: [80, 100], pieces: [{deck: pack, piece: 1, x: 40, y: 50}]}\n"
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 本文}\n", game=GAME_YAML + figure)
    pack = ws / "data" / "test" / "decks" / "pack.yaml"
    pack.write_text(PACK.format(sealed="true"), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("◇テストカード（１１枚）", "◇テストカード（１枚）\n◇封筒A（１枚）"),
                                                     encoding="utf-8")
    book = ws / "build" / "test" / "rulebook.pdf"
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    pages = texts(book)
    assert not any("秘密の扉" in p or "扉が開く" in p for p in pages), pages
    assert "彗星" in pages[0] and "開封禁止" not in pages[0], pages[0]  # the cover shows the other deck, not the pack's back
    components = next(p for p in pages if "封筒A" in p and "開封禁止" in p)
    assert "テストカード" in components
    figure_page = next(p for p in pages if "図1" in p or "カードを１枚引く" in p and "開封禁止" in p)
    assert "開封禁止" in figure_page, figure_page  # the figure's card, face down
    pack.write_text(PACK.format(sealed="false"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    pages = texts(book)
    assert any("秘密の扉" in p for p in pages[1:]), pages  # the components page shows the face now


def test_a_sealed_deck_without_a_back_is_told_at_its_line(tmp_path, capsys):
    """A sealed deck is pictured by its back: one without a back stops at ``sealed:``."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 本文}\n")
    (ws / "data" / "test" / "decks" / "pack.yaml").write_text(
        "name: 封筒A\nsealed: true\nlayout: {extends: card-poker, back: null}\npieces:\n  - {title: 扉, text: 本文}\n",
        encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/pack.yaml:2:9: sealed: a sealed deck is shown in the rulebook by its back alone" in err, err


def test_a_sealed_pack_is_neither_the_covers_picture_nor_what_keeps_the_bare_cover_unsaid(tmp_path, capsys):
    """The cover passes over a sealed pack (its back is no component to show off), so a game whose
    other decks all start with a placeholder has a bare cover, said in the rulebook line as any bare
    cover is: the settled pack did not count as the cover's picture (review38)."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 未定}\n")
    (ws / "data" / "test" / "decks" / "pack.yaml").write_text(PACK.format(sealed="true"), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "(none on the cover: each deck's first" in out and "未定 or no art yet: cards: 彗星)" in out, out
    cover = texts(ws / "build" / "test" / "rulebook.pdf")[0]
    assert "開封禁止" not in cover and "秘密の扉" not in cover, cover


def test_the_cover_shows_the_games_main_pieces_or_the_deck_game_yaml_names(tmp_path):
    """A wargame's cover showed its one aid card (the first card deck) over its counters: without a
    word from game.yaml the cover pictures the deck with the most distinct pieces (here the four
    counters, tokens); `rulebook: cover_decks: cards` puts the aid card there instead; a deck the
    game has not is an error at its line, naming the game's decks."""
    from conftest import REPO
    from pnpgen.errors import InputError
    from pnpgen.rulebook import build_rulebook, pictures_from_game
    from pnpgen.rulebook.figures import load_settings

    ws = make_workspace(tmp_path / "ws", pieces=["早見表"], draft=True)
    (ws / "data" / "test" / "decks" / "counters.yaml").write_text(
        "name: 駒\nlayout: token-round\npieces:\n" + "".join(f"  - {{title: {t}, value: {v}}}\n" for t, v in
                                                           [("歩兵", 1), ("騎兵", 2), ("砲兵", 3), ("将軍", 4)]),
        encoding="utf-8")

    def cover() -> str:
        game = load_game(Workspace(ws), "test")
        book = build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, Workspace(ws).templates))
        return texts(book.files["rulebook.pdf"])[0]

    shown = cover()
    assert "歩兵" in shown and "早見表" not in shown, shown
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "\nlatin_gap: 0\nrulebook:\n  cover_decks: cards\n",
                                                    encoding="utf-8")
    shown = cover()
    assert "早見表" in shown and "歩兵" not in shown, shown
    # a named deck whose first piece is still open (未定) is left off the cover, as an unnamed one is
    counters = ws / "data" / "test" / "decks" / "counters.yaml"
    counters.write_text(counters.read_text(encoding="utf-8").replace("title: 歩兵", "title: 未定"), encoding="utf-8")
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "\nrulebook:\n  cover_decks: [counters, cards]\n",
                                                    encoding="utf-8")
    shown = cover()
    assert "早見表" in shown and "未定" not in shown and "騎兵" not in shown, shown
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "\nrulebook:\n  cover_decks: [counters, card]\n",
                                                    encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_settings(load_game(Workspace(ws), "test"))
    assert "no deck 'card' in this game" in str(e.value) and "cover_decks" in str(e.value), str(e.value)
    # hostile40: a deck named twice pictured its first piece twice on the cover
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "\nrulebook:\n  cover_decks: [cards, counters, cards]\n",
                                                    encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_settings(load_game(Workspace(ws), "test"))
    assert "rulebook.cover_decks.3: cover_decks names deck 'cards' twice (expected each deck once" in str(e.value), \
        str(e.value)


def test_a_named_cover_deck_the_cover_leaves_out_is_said_at_its_line(tmp_path, capsys):
    """`rulebook: cover_decks:` naming a deck whose first printed piece shows 未定, or one that
    prints nothing (every piece parked), left it off the cover without a word. Each is a warning
    at its line of game.yaml, naming the deck and why; a settled deck named beside them is not."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 未定}\n", draft=True)
    decks = ws / "data" / "test" / "decks"
    (decks / "parked.yaml").write_text("name: 保留\nlayout: card-poker\npieces:\n  - {title: 流星, text: 本文, count: 0}\n",
                                       encoding="utf-8")
    (decks / "more.yaml").write_text(DECK_YAML + "  - {name: 流星, text: 本文}\n", encoding="utf-8")
    (ws / "data" / "test" / "game.yaml").write_text(
        GAME_YAML + "\nrulebook:\n  cover_decks:\n    - cards\n    - parked\n    - more\n", encoding="utf-8")
    lines = GAME_YAML.count("\n") + 4  # the list's first item
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert (f"game.yaml:{lines}:7: cover_decks: deck 'cards': its first printed piece, 彗星, shows a placeholder "
            "(未定 or no art yet, at data/test/decks/cards.yaml:") in out, out
    assert (f"game.yaml:{lines + 1}:7: cover_decks: deck 'parked' prints nothing (every piece parked, count: 0), so "
            "the cover leaves it out") in out, out
    assert "'more'" not in out, out
