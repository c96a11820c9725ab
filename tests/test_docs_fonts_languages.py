"""Two language examples a designer pastes, built as written: docs/templates.md's font role of two
editions (``fonts: {flavour: …, en: {flavour: …}}``, which needs ``languages: [ja, en]``: pasted into
a one-language game it stopped the build) and docs/data-format.md's Languages example (``# game.yaml``
and ``# decks/epic.yaml``: the data format's epic deck, its texts in both languages)."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import yaml
from pypdf import PdfReader

from conftest import REPO, make_workspace, run
from pdfprobe import glyphs

TEMPLATES = (REPO / "docs" / "templates.md").read_text(encoding="utf-8")
FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.S | re.M)


def _block(page: str, first_line: str) -> str:
    (body,) = [textwrap.dedent(b) for _, b in FENCE.findall(page) if textwrap.dedent(b).startswith(first_line)]
    return body


def _flavour_game(tmp_path, game: str):
    """templates.md's "Adding a deck" files with its flavour line, in a workspace of ``game``'s
    game.yaml, with a fonts/ folder of its own, empty (the fonts pnpgen ships come with it)."""
    deck = _block(TEMPLATES, "name: エピックカード")
    front, back = [textwrap.dedent(b) for kind, b in FENCE.findall(TEMPLATES) if kind == "jinja"][:2]
    line = re.search(r"`(\{\{ textbox\(piece\.flavour.*?\}\})`", TEMPLATES, re.S).group(1).replace("\n", " ")
    piece = re.search(r"`(flavour: \{ja: .*?\})`", TEMPLATES).group(1)
    ws = make_workspace(tmp_path / "ws", deck="name: x\n", game='title: エピック\npalette: {gold: "#c9a227"}\n' + game)
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        deck.replace("fields: {title: text,", "fields: {title: text, flavour: text,")
        .replace("action: ワーカーを１つ配置する。}", f"action: ワーカーを１つ配置する。, {piece}}}"), encoding="utf-8")
    (ws / "templates" / "test" / "epic-front.svg.j2").write_text(
        front.replace("{% endblock %}", line + "\n{% endblock %}"), encoding="utf-8")
    (ws / "templates" / "test" / "epic-back.svg.j2").write_text(back, encoding="utf-8")
    (ws / "fonts").unlink()  # (a link to the checkout's fonts/: the workspace's own folder instead, as the docs' cp makes)
    (ws / "fonts").mkdir()
    return ws


# the docs' command copying the italic in, and the package they say holds it
COPY = re.compile(r"`cp (/\S+/(DejaVuSerif-Italic\.ttf)) fonts/`")


def test_templates_md_names_the_package_its_italic_comes_with_and_a_shipped_stand_in(tmp_path, capsys):
    """The italic the docs copy in is no file of a usual system (Debian's ``fonts-dejavu-extra``, not
    the ``fonts-dejavu-core`` most have: session 48): the docs say which package holds it, and the
    shipped serif they offer until it is there builds the example; without either, the build stops
    in one line, exit 2."""
    found = COPY.search(TEMPLATES)
    assert found is not None
    around = TEMPLATES[found.start() - 300:found.end() + 300]
    assert "sudo apt install fonts-dejavu-extra" in around and "dejavu-fonts-ttf-2.37.zip" in around, around
    stand_in = re.search(r"`flavour: (\w+-\w+)` \(a serif pnpgen ships", TEMPLATES).group(1)
    assert (REPO / "fonts" / f"{stand_in}.ttf").is_file()
    game = _block(TEMPLATES, "languages: [ja, en]\nfonts:\n  flavour:")
    ws = _flavour_game(tmp_path, game)
    out = tmp_path / "out"
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "DejaVuSerif-Italic" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    (ws / "data" / "test" / "game.yaml").write_text(
        (ws / "data" / "test" / "game.yaml").read_text(encoding="utf-8").replace(
            "flavour: DejaVuSerif-Italic", f"flavour: {stand_in}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en", "--out", str(out)) == 0
    en_fonts = {g.char: g.font for g in glyphs(out / "test" / "en" / "cards.pdf")[0]}
    assert stand_in in en_fonts["B"], en_fonts


def test_templates_md_s_flavour_role_of_two_editions_builds_as_written(tmp_path, capsys):
    """templates.md's "Adding a deck" files, its fonts block in game.yaml and its flavour line in the
    front: the Japanese edition sets the flavour in the mincho, the English one in the italic copied
    into fonts/ by the docs' own command where this machine has the file (else a stand-in TTF under
    the docs' name: CI has no DejaVu)."""
    game = _block(TEMPLATES, "languages: [ja, en]\nfonts:\n  flavour:")
    ws = _flavour_game(tmp_path, game)
    source, name = COPY.search(TEMPLATES).groups()
    shutil.copy(source if Path(source).is_file() else REPO / "fonts" / "NotoSerif-Regular.ttf", ws / "fonts" / name)
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en", "--out", str(out)) == 0
    ja, en = out / "test" / "cards.pdf", out / "test" / "en" / "cards.pdf"
    assert "島に祝福あれ" in PdfReader(ja).pages[0].extract_text()
    assert "Blessed be the isle" in PdfReader(en).pages[0].extract_text()
    ja_fonts = {g.char: g.font for g in glyphs(ja)[0]}
    en_fonts = {g.char: g.font for g in glyphs(en)[0]}
    assert ja_fonts["島"] == "BIZUDPMincho-Regular" and ja_fonts["ワ"] != "BIZUDPMincho-Regular", ja_fonts
    assert "DejaVuSerif-Italic" in en_fonts["B"] and "DejaVuSerif-Italic" not in en_fonts["ワ"], en_fonts  # the en role's file
    assert "fonts.en" not in capsys.readouterr().err


def test_data_format_s_languages_example_builds_both_editions(tmp_path, capsys):
    """data-format.md's "# game.yaml" and "# decks/epic.yaml" of Languages, over the page's own
    game.yaml and epic deck and templates: the English edition prints the English texts."""
    example = _block(FORMAT, "# game.yaml\ntitle: {ja:")
    game_part, deck_part = re.split(r"\n# decks/epic\.yaml.*\n", example)
    game = yaml.safe_load(_block(FORMAT, "# data/<slug>/game.yaml")) | yaml.safe_load(game_part)
    deck = yaml.safe_load(_block(FORMAT, "# data/<slug>/decks/epic.yaml")) | yaml.safe_load(deck_part)
    del game["sourced"], game["draft_file"]  # (no draft: the book is not built)
    ws = make_workspace(tmp_path / "ws", deck="name: x\n", game=yaml.safe_dump(game, allow_unicode=True))
    (ws / "data" / "test" / "decks" / "cards.yaml").unlink()
    (ws / "data" / "test" / "decks" / "epic.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    for side in ("front", "back"):
        (ws / "templates" / "test" / f"epic-{side}.svg.j2").write_text(
            _block(FORMAT, f"{{# templates/<slug>/epic-{side}.svg.j2 #}}"), encoding="utf-8")
    out = tmp_path / "out"
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--lang", "en", "--out", str(out)) == 0
    assert "warning" not in capsys.readouterr().err  # every text of the example translated
    ja = PdfReader(out / "test" / "epic.pdf").pages[0].extract_text()
    en = PdfReader(out / "test" / "en" / "epic.pdf").pages[0].extract_text()
    assert "祝福" in ja and "ワーカーを１つ配置する。" in ja
    assert "Blessing" in en and "Place one worker." in en and "祝福" not in en
    assert {g.font for g in glyphs(out / "test" / "en" / "epic.pdf")[0] if g.char == "P"} == {"NotoSans-Regular"}  # fonts.en's gothic
