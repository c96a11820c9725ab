"""The least a designer can start from: data/ and templates/<game>/ only — no fonts/ (pnpgen's
own fonts serve), no palette, even no decks yet."""

from __future__ import annotations

from pathlib import Path

from conftest import DECK_YAML, FRONT, REPO, run
from pdfprobe import font_program, page_fonts, reader, texts
from pnpgen import fonts


def minimal(root: Path, game: str = "title: 最小のゲーム\n", deck: str | None = None) -> Path:
    (root / "data" / "mini" / "decks").mkdir(parents=True)
    (root / "templates" / "mini").mkdir(parents=True)
    (root / "data" / "mini" / "game.yaml").write_text(game, encoding="utf-8")
    if deck is not None:
        (root / "data" / "mini" / "decks" / "cards.yaml").write_text(deck, encoding="utf-8")
        (root / "templates" / "mini" / "card-front.svg.j2").write_text(
            FRONT.replace("colour('red')", "'#dddddd'"), encoding="utf-8")
        (root / "templates" / "mini" / "card-back.svg.j2").write_text(
            '{% extends "common/piece.svg.j2" %}{% block art %}{% endblock %}', encoding="utf-8")
    return root


def embedded_fonts(pdf: Path) -> set[str]:
    found = set()
    for page in reader(pdf).pages:
        for name, font in page_fonts(page).items():
            desc = font_program(font)
            assert desc is not None and "/FontFile2" in desc, font["/BaseFont"]
            found.add(name)
    return found


def test_no_fonts_folder_and_no_palette_builds_with_pnpgens_own_fonts(tmp_path):
    ws = minimal(tmp_path / "ws", deck=DECK_YAML + "  - {name: 最初の札, text: 本文です}\n")
    assert not (ws / "fonts").exists()
    assert run(ws, "build", "--game", "mini", "--no-rulebook") == 0
    shop = ws / "build" / "mini" / "shop" / "cards.pdf"
    assert "最初の札" in texts(shop)[0] and "本文です" in texts(shop)[0]
    assert "BIZUDPGothic-Regular" in embedded_fonts(shop)
    # pnpgen's own fonts: the installed package's, or this checkout's fonts/ that tests sharing
    # the process located first (the same files; in a git worktree beside an editable install of
    # another checkout, not the same folder)
    assert fonts.path_of("BIZUDPGothic-Regular").parent.resolve() in {fonts.BUNDLED.resolve(), (REPO / "fonts").resolve()}


def test_a_game_without_decks_yet_builds_its_bill_of_materials(tmp_path):
    ws = minimal(tmp_path / "ws", game="title: 最小のゲーム\nsourced:\n  - {name: サイコロ, count: 2}\n")
    assert run(ws, "build", "--game", "mini", "--no-rulebook") == 0
    (only,) = texts(ws / "build" / "mini" / "mini-all.pdf")
    assert "サイコロ" in only and "部品一覧" in only


def test_an_unknown_font_lists_what_there_is(tmp_path, capsys):
    ws = minimal(tmp_path / "ws", game="title: 最小のゲーム\nfonts: {gothic: NoSuchFont}\n")
    assert run(ws, "build", "--game", "mini") == 2
    err = capsys.readouterr().err
    assert "game.yaml:2" in err and "NoSuchFont" in err and "BIZUDPGothic-Regular" in err
    assert "Traceback" not in err


def test_a_layout_game_without_templates_folder_builds_from_inside_its_data(tmp_path, capsys):
    # git and zips keep no empty folder: a game drawn by built-in layouts, cloned, has data/ only
    ws = tmp_path / "ws"
    (ws / "data" / "mini" / "decks").mkdir(parents=True)
    (ws / "data" / "mini" / "game.yaml").write_text("title: 最小のゲーム\n", encoding="utf-8")
    (ws / "data" / "mini" / "decks" / "cards.yaml").write_text(
        "name: カード\nlayout: card-poker\npieces:\n  - {title: 騎士, text: 本文です}\n", encoding="utf-8")
    assert not (ws / "templates").exists()
    assert run(ws / "data" / "mini", "build", "--game", "mini", "--no-rulebook") == 0
    assert "騎士" in texts(ws / "build" / "mini" / "shop" / "cards.pdf")[0]


def test_a_folder_with_neither_a_game_nor_templates_is_no_workspace(tmp_path, capsys):
    (tmp_path / "ws" / "data").mkdir(parents=True)
    assert run(tmp_path / "ws", "build", "--game", "mini") == 2
    err = capsys.readouterr().err
    assert "no pnpgen workspace here or above" in err and "pnpgen new" in err and "Traceback" not in err
