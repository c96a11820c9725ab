"""Two languages from one deck: translations in the data, --lang, missing translations, fonts and
labels per language (issue 14)."""

from __future__ import annotations

import json
import re

import pytest
from pypdf import PdfReader

from conftest import BACK, DECK_YAML, FRONT, GAME_YAML, make_workspace, run
from pdfprobe import boxes_mm, clip_rects, page_fonts, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.errors import InputError
from pnpgen.messages import catalogue, languages, msg
from pnpgen.text import TextContext, layout_text

TWO = GAME_YAML.replace("title: テストゲーム", "languages: [ja, en]\ndefault_language: ja\n"
                        "title: {ja: テストゲーム, en: Test Game}")
NAMES = [("祝福", "Blessing"), ("降臨", "Advent"), ("秘跡", "Sacrament"), ("労働", "Labour")]
DECK = DECK_YAML.replace("name: テストカード", "name: {ja: テストカード, en: Test cards}") + "".join(f"  - {{name: {{ja: {ja}, en: {en}}}, text: {{ja: 本文{ja}, en: Text {en}}}}}\n"
                           for ja, en in NAMES)
LINES = DECK.splitlines()


def build(ws, *args):
    assert run(ws, "build", "--game", "test", "--no-rulebook", *args) == 0


def pages_text(path):
    return [re.sub(r"\s+", "", t) for t in texts(path)]


def test_lang_naming_the_default_language_is_resolved_in_one_place(tmp_path, monkeypatch):
    """``--lang`` naming a game's default language is no --lang, and one function says so
    (``commands.asked_language``), once a run: for a build of one game or all of them, and for a
    command on one game; an English game's ``--lang en`` is its plain build."""
    from pnpgen import commands

    ws = make_workspace(tmp_path / "en", deck=DECK, game=TWO.replace("default_language: ja", "default_language: en"))
    asked = []
    real = commands.asked_language
    monkeypatch.setattr(commands, "asked_language", lambda *a: asked.append(a[1:]) or real(*a))
    for how in (("--game", "test"), ("--all",)):
        assert run(ws, "build", *how, "--lang", "en", "--no-rulebook") == 0
        assert asked == [("test", "en")] and not (ws / "build" / "test" / "en").exists()
        asked.clear()
    assert run(ws, "check", "--game", "test", "--lang", "ja") == 0
    assert asked == [("test", "ja")]


def test_both_languages_build_with_the_same_geometry_and_their_own_text(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO)
    build(ws, "--lang", "ja")
    build(ws, "--lang", "en")
    ja, en = ws / "build" / "test", ws / "build" / "test" / "en"  # the default language: the plain build's folder
    for name in ("cards.pdf", "shop/cards.pdf"):
        a, b = PdfReader(ja / name), PdfReader(en / name)
        assert len(a.pages) == len(b.pages)
        for pa, pb in zip(a.pages, b.pages):
            assert boxes_mm(pa) == boxes_mm(pb)
            assert [r.__dict__ for r in clip_rects(a, pa)] == [r.__dict__ for r in clip_rects(b, pb)]
    ja_text, en_text = pages_text(ja / "shop" / "cards.pdf"), pages_text(en / "shop" / "cards.pdf")
    for k, (j, e) in enumerate(NAMES):  # shop pages: front, back per card
        assert j in ja_text[2 * k] and f"本文{j}" in ja_text[2 * k] and e not in ja_text[2 * k]
        assert e in en_text[2 * k] and f"Text{e}" in en_text[2 * k] and j not in en_text[2 * k]
    m_ja = json.loads((ja / "manifest.json").read_text())
    m_en = json.loads((en / "manifest.json").read_text())
    assert (m_ja["lang"], m_en["lang"]) == ("ja", "en") and m_en["title"] == "Test Game"
    assert [d["count"] for d in m_ja["decks"]] == [d["count"] for d in m_en["decks"]] == [4]
    assert m_en["warnings"] == []


def test_default_build_is_the_default_language_in_the_usual_folder(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO, draft=True)
    build(ws)
    text = pages_text(ws / "build" / "test" / "shop" / "cards.pdf")
    assert "祝福" in text[0]
    # --lang naming the default language is that same build, wherever --lang is taken
    capsys.readouterr()
    build(ws, "--lang", "ja")
    assert run(ws, "build", "--all", "--lang", "ja", "--no-rulebook") == 0
    assert capsys.readouterr().out == "test: up to date (build/test)\ntest: up to date (build/test)\n"
    assert run(ws, "rulebook", "--game", "test", "--lang", "ja") == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator", "--lang", "ja") == 0
    assert (ws / "build" / "test" / "rulebook.pdf").is_file() and (ws / "build" / "test" / "tabletopsimulator").is_dir()
    assert not (ws / "build" / "test" / "ja").exists() and not (ws / "build" / ".history" / "test.ja").exists()


def test_bill_of_materials_labels_follow_the_language(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO)
    build(ws, "--lang", "en")
    last = pages_text(ws / "build" / "test" / "en" / "test-all.pdf")[-1]
    assert "TestGame—Billofmaterials" in last and "部品一覧" not in last
    assert "Total4pieces" in last and "Testcards(cards)" in last and "テストカード" not in last


def test_missing_translation_warns_with_file_and_line_and_prints_the_default_marked(tmp_path, capsys):
    deck = DECK + "  - {name: {ja: 啓示}, text: {ja: 本文啓示, en: Text Revelation}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    build(ws, "--lang", "en")
    err = capsys.readouterr().err
    line = len(deck.splitlines())  # the last piece
    assert re.search(rf"cards\.yaml:{line}:\d+: pieces\.5\.name: no en translation; printed in ja", err), err
    text = pages_text(ws / "build" / "test" / "en" / "shop" / "cards.pdf")
    assert "〔ja〕啓示" in text[8] and "TextRevelation" in text[8]
    manifest = json.loads((ws / "build" / "test" / "en" / "manifest.json").read_text())
    assert any("pieces.5.name" in w for w in manifest["warnings"])
    # the marker is magenta, the designer's text keeps its own colour
    game = load_game(Workspace(ws), "test", lang="en")
    ctx = TextContext(game.fonts, [], game.palette, [], "test", lang="en")
    lay = layout_text(ctx, game.decks[0].pieces[4].values["name"], 50, 20, fill="#000000")
    colours = [(c.text, c.colour) for c in lay.lines[0].cells]
    assert colours == [("〔", "#e4007f"), ("j", "#e4007f"), ("a", "#e4007f"), ("〕", "#e4007f"),
                       ("啓", "#000000"), ("示", "#000000")]


def test_a_files_missing_translations_are_three_lines_and_a_count_in_a_build_and_each_in_check(tmp_path, capsys):
    """An English edition of a deck not translated yet printed a warning line per text on every
    build (2,900 lines for a 3,000-card spreadsheet with 100 titles translated): the build names
    the first three of each file and counts the rest; ``pnpgen check`` lists each."""
    deck = DECK + "".join(f"  - {{name: {{ja: 札{i}}}, text: {{ja: 本文, en: Text}}}}\n" for i in range(1, 8))
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    capsys.readouterr()
    build(ws, "--lang", "en")
    said = [line for line in capsys.readouterr().err.splitlines() if "translation" in line]
    first = len(DECK.splitlines()) + 1
    assert [re.sub(r" \(.*", "", line) for line in said] == [
        f"pnpgen: warning: data/test/decks/cards.yaml:{first + i}:12: pieces.{5 + i}.name: no en translation; "
        "printed in ja marked 〔ja〕" for i in range(3)] + [
        "pnpgen: warning: data/test/decks/cards.yaml: 4 more texts with no en translation, printed in ja marked 〔ja〕"], said
    assert said[-1].endswith("(pnpgen check --lang en lists each)")
    manifest = json.loads((ws / "build" / "test" / "en" / "manifest.json").read_text())
    assert [w for w in manifest["warnings"] if "translation" in w] == [line.split("warning: ", 1)[1] for line in said]
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    assert len(re.findall(r"cards\.yaml:\d+:\d+: pieces\.\d+\.name: no en translation", capsys.readouterr().out)) == 7


def test_marker_never_reads_the_designers_text_as_markup(tmp_path):
    deck = DECK_YAML + "  - {name: {ja: '[/missing-translation]x'}, text: {ja: a, en: b}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    game = load_game(Workspace(ws), "test", lang="en")
    name = game.decks[0].pieces[0].values["name"]
    assert name == "[missing-translation]〔ja〕[/missing-translation][/missing-translation]x"


def test_check_lists_missing_translations(tmp_path, capsys):
    deck = DECK + "  - {name: {ja: 啓示}, text: 本文}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "other.yaml").write_text(DECK_YAML + "  - {name: 他, text: 本文}\n",
                                                               encoding="utf-8")
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    out = capsys.readouterr().out
    assert re.search(r"translation: .*cards\.yaml:\d+:\d+: pieces\.5\.name: no en translation", out)
    assert re.search(r"translation: .*other\.yaml: nothing in this file is translated into en", out)
    assert run(ws, "check", "--game", "test") == 0
    assert "translation" not in capsys.readouterr().out


@pytest.mark.parametrize("args", [(), ("--lang", "en")])
def test_a_mistyped_languages_key_is_named_before_what_it_leaves_unplaced(tmp_path, capsys, args):
    """A game trial: `langauges: [ja, en]` beside `fonts: {en: …}` stopped at fonts.en ('en' is not
    one of the game's languages), and `--lang en` at 'no language en': never at the typo itself."""
    game = TWO.replace("languages:", "langauges:") + "fonts:\n  en: {gothic: NotoSans-Regular}\n"
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=game)
    assert run(ws, "build", "--game", "test", "--no-rulebook", *args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "data/test/game.yaml:1:1: langauges: unknown key in game.yaml; did you mean languages?" in err, err


def test_unknown_language_is_one_line_and_exit_2(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO)
    assert run(ws, "build", "--game", "test", "--lang", "fr") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "game.yaml" in err and "no language 'fr'" in err and "ja, en" in err


@pytest.mark.parametrize("yaml_line,message", [
    ("languages: ja", "languages must be a list"),
    ("languages: [ja, en]\ndefault_language: de", "default language 'de' is not in languages"),
    ("latin_gap: wide", "latin_gap 'wide' is not a number"),
])
def test_bad_language_keys_are_input_errors(tmp_path, yaml_line, message):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + yaml_line + "\n")
    with pytest.raises(InputError, match=message) as e:
        load_game(Workspace(ws), "test")
    assert e.value.path.name == "game.yaml" and e.value.line


def test_a_text_in_a_language_the_game_does_not_list_names_the_languages_line(tmp_path, capsys):
    """A game trial: ``title: {en: Harbor Lights, ja: 港の灯}`` in a game of ``languages: [en]`` was
    'title must be text, got a mapping'; it is told as a language the game does not list, at its
    key, with the languages line to add it to. In a deck file too."""
    game = GAME_YAML.replace("title: テストゲーム", "languages: [en]\ntitle: {en: Harbor Lights, ja: 港の灯}")
    ws = make_workspace(tmp_path / "ws", game=game)
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert re.search(r"game\.yaml:2:\d+: title\.ja: 'ja' is not one of the game's languages \(data/test/game\.yaml:1:1: "
                     r"languages: \[en\]\) \(expected ja added there, 'languages: \[en, ja\]'", err), err
    ws = make_workspace(tmp_path / "two", game=TWO, deck=DECK_YAML + "  - {name: {ja: 札, en: Card, fr: Carte}}\n")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert "cards.yaml:" in err and "pieces.1.name.fr: 'fr' is not one of the game's languages" in err, err
    assert "'languages: [ja, en, fr]'" in err, err


@pytest.mark.parametrize("yaml_line,message,key", [
    # a three-letter ISO 639-2 code is said where it is written, not later at fonts.en
    ("languages: [ja, eng]", "'eng' is not a language code pnpgen reads; did you mean en? "
                             "(expected a two-letter ISO 639-1 code, optionally with a script or region", "languages.2"),
    ("languages: [jpn]", "'jpn' is not a language code pnpgen reads; did you mean ja?", "languages.1"),
    ("languages: [ja, ger]", "did you mean de?", "languages.2"),
    ("languages: [ja, EN]", "'EN' is not a language code pnpgen reads; did you mean en?", "languages.2"),
    ("languages: [ja, en_gb]", "did you mean en-GB?", "languages.2"),
    # a game trial: the language's English name typed for its code (--lang english)
    ("languages: [ja, english]", "'english' is not a language code pnpgen reads; did you mean en? (expected", "languages.2"),
    ("languages: [ja, klingon]", "'klingon' is not a language code pnpgen reads (expected", "languages.2"),
    ("default_language: fre", "'fre' is not a language code pnpgen reads; did you mean fr?", "default_language"),
    # a code of the right shape that names no language: the country's code (jp) for ja, a slip
    ("languages: [ja, jp]", "'jp' is not an ISO 639-1 language; did you mean ja? (expected", "languages.2"),
    ("languages:\n  - ja\n  - xx", "'xx' is not an ISO 639-1 language (expected", "languages.2"),
    ("default_language: jp", "'jp' is not an ISO 639-1 language; did you mean ja?", "default_language"),
    ("languages: [ja, zz-GB]", "'zz-GB' is not an ISO 639-1 language (expected", "languages.2"),
    ("languages: [ja, en]\ndefault_language: eng", "default language 'eng' is not in languages; did you mean en?",
     "default_language"),
])
def test_a_language_code_is_checked_where_languages_names_it(tmp_path, yaml_line, message, key):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + yaml_line + "\n")
    with pytest.raises(InputError) as e:
        load_game(Workspace(ws), "test")
    assert message in str(e.value), str(e.value)
    line = 1 + (GAME_YAML + yaml_line).splitlines().index(yaml_line.splitlines()[-1])
    assert (e.value.path.name, e.value.line, e.value.key) == ("game.yaml", line, key)


@pytest.mark.parametrize("codes", ["[ja, en]", "[en]", "[ja, zh-Hant, zh-Hans-CN, en-GB, es-419, fr, de]"])
def test_language_codes_with_a_script_or_region_are_read(tmp_path, codes):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + f"languages: {codes}\n")
    assert load_game(Workspace(ws), "test").languages == codes.strip("[]").split(", ")


def test_a_lang_in_three_letters_gets_the_games_code(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO)
    assert run(ws, "build", "--game", "test", "--lang", "eng") == 2
    assert "no language 'eng' (--lang); did you mean en? (expected one of ja, en" in capsys.readouterr().err
    assert run(ws, "build", "--game", "test", "--lang", "deu") == 2  # de is no language of this game
    assert "no language 'deu' (--lang) (expected one of ja, en" in capsys.readouterr().err


def test_fonts_per_language(tmp_path):
    game = TWO + "fonts:\n  gothic: BIZUDPGothic-Regular\n  en:\n    gothic: NotoSans-Regular\n"
    ws = make_workspace(tmp_path / "ws", deck=DECK + "  - {name: 未訳, text: 日本語のまま}\n", game=game)
    en = load_game(Workspace(ws), "test", lang="en")
    assert en.text_fonts["gothic"] == "NotoSans-Regular" and "BIZUDPGothic-Regular" in en.text_fallback_fonts
    assert en.fonts["gothic"] == "BIZUDPGothic-Regular"  # sheet labels and the rulebook keep Japanese fonts
    assert load_game(Workspace(ws), "test", lang="ja").text_fonts["gothic"] == "BIZUDPGothic-Regular"
    build(ws, "--lang", "en")
    pdf = PdfReader(ws / "build" / "test" / "en" / "shop" / "cards.pdf")

    def fonts_used(page):
        return set(page_fonts(page))

    assert "NotoSans-Regular" in fonts_used(pdf.pages[0])  # English text in the Latin face
    assert "BIZUDPGothic-Regular" in fonts_used(pdf.pages[8])  # the untranslated piece falls back to BIZ UD
    assert "日本語のまま" in pages_text(ws / "build" / "test" / "en" / "shop" / "cards.pdf")[8]


def test_an_english_edition_naming_no_english_fonts_sets_its_cards_in_noto(tmp_path):
    """editor7: a Japanese game's ``--lang en`` cards set their English in BIZ UD's Latin letters
    unless game.yaml named ``fonts: {en: …}``, while the English rulebook already defaulted to Noto.
    The cards' English text is Noto now (BIZ UD a fallback, for the text left in Japanese); the
    Japanese edition keeps BIZ UD alone, and a role game.yaml names itself is kept."""
    ws = make_workspace(tmp_path / "ws", deck=DECK + "  - {name: 未訳, text: 日本語のまま}\n", game=TWO)
    en = load_game(Workspace(ws), "test", lang="en")
    assert {k: en.text_fonts[k] for k in ("gothic", "bold", "mincho", "mono")} == {
        "gothic": "NotoSans-Regular", "bold": "NotoSans-Bold", "mincho": "NotoSerif-Regular", "mono": "BIZUDGothic-Regular"}
    assert "BIZUDPGothic-Regular" in en.text_fallback_fonts and en.fonts["gothic"] == "BIZUDPGothic-Regular"
    assert load_game(Workspace(ws), "test", lang="ja").text_fonts["gothic"] == "BIZUDPGothic-Regular"
    build(ws, "--lang", "en")
    build(ws)
    pdf = PdfReader(ws / "build" / "test" / "en" / "shop" / "cards.pdf")
    assert "NotoSans-Regular" in set(page_fonts(pdf.pages[0]))  # "Blessing", "Text Blessing"
    assert "BIZUDPGothic-Regular" in set(page_fonts(pdf.pages[8]))  # 日本語のまま: the fallback
    ja = PdfReader(ws / "build" / "test" / "shop" / "cards.pdf")
    assert not any(font.startswith("Noto") for page in ja.pages for font in page_fonts(page))
    named = make_workspace(tmp_path / "named", deck=DECK, game=TWO + "fonts:\n  gothic: BIZUDGothic-Regular\n")
    assert load_game(Workspace(named), "test", lang="en").text_fonts["gothic"] == "BIZUDGothic-Regular"


def test_font_mapping_for_an_unknown_language_is_an_error(tmp_path):
    game = TWO + "fonts:\n  de:\n    gothic: BIZUDGothic-Regular\n"
    ws = make_workspace(tmp_path / "ws", game=game)
    with pytest.raises(InputError, match="'de' is not one of the game's languages"):
        load_game(Workspace(ws), "test")


def test_a_misspelt_font_of_another_language_stops_the_default_languages_check_too(tmp_path):
    """``fonts: {en: {gothic: NotoSans}}`` (for NotoSans-Regular): ``pnpgen check`` of the Japanese
    edition said ok, and the English build stopped later."""
    game = TWO + "fonts:\n  en:\n    gothic: NotoSans\n"
    ws = make_workspace(tmp_path / "ws", game=game)
    with pytest.raises(InputError) as err:
        load_game(Workspace(ws), "test")
    assert "fonts.en.gothic: font 'NotoSans' not found" in str(err.value) and "NotoSans-Regular" in str(err.value)
    assert "game.yaml:" in str(err.value)


def test_message_catalogues_match():
    assert {"ja", "en"} <= set(languages())
    ja, en = catalogue("ja"), catalogue("en")
    assert set(ja) == set(en)
    for key in ja:
        assert set(re.findall(r"{(\w+)}", ja[key])) == set(re.findall(r"{(\w+)}", en[key])), key
    assert msg("rulebook.cover", "en") == "Rulebook"
    assert msg("bom.total", "en-GB", pieces=3, sheets=1, pages=2) == "Total 3 pieces · sheets 1 · pages 2"
    assert msg("rulebook.cover", "fr") == "Rulebook"  # no French catalogue: English


def test_a_message_catalogue_is_read_back_from_the_machines_cache_not_parsed_again(tmp_path, monkeypatch):
    """pnpgen's own labels (some 2 ms of YAML a catalogue, every build) are parsed once per
    machine; a damaged entry is parsed again, the same labels."""
    import yaml

    from pnpgen import messages, usercache

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    catalogue.cache_clear()
    first = catalogue("ja")
    catalogue.cache_clear()
    load = yaml.load
    monkeypatch.setattr(yaml, "load", lambda *a, **k: pytest.fail("parsed again"))
    assert catalogue("ja") == first and first["rulebook.cover"] == load(
        (messages.HERE / "ja.yaml").read_text("utf-8"), Loader=yaml.SafeLoader)["rulebook.cover"]
    entry = next((tmp_path / "cache" / messages.KIND).iterdir())
    entry.write_bytes(entry.read_bytes()[:-4] + b"oops")
    monkeypatch.setattr(yaml, "load", load)
    catalogue.cache_clear()
    assert catalogue("ja") == first and usercache.get(messages.KIND, entry.name) == first  # written again
    catalogue.cache_clear()


def test_spreadsheet_columns_per_language(tmp_path, capsys):
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,text.en\n祝福,Blessing,本文,\"Gain 1: then, draw\"\n降臨,,本文2,Text 2\n", encoding="utf-8")
    game = load_game(Workspace(ws), "test", lang="en")
    values = [p.values for p in game.decks[0].pieces]
    assert values[0]["name"] == "Blessing" and values[0]["text"] == "Gain 1: then, draw"
    assert values[1]["name"].endswith("〔ja〕[/missing-translation]降臨") and values[1]["text"] == "Text 2"
    warnings = game.translations.warnings
    assert len(warnings) == 1 and re.search(r"cards\.csv:3:2: pieces\.2\.name\.en: no en translation", warnings[0])
    ja = load_game(Workspace(ws), "test")
    assert [p.values["name"] for p in ja.decks[0].pieces] == ["祝福", "降臨"] and ja.translations.warnings == []


@pytest.mark.parametrize("lang, cell", [(None, "cards.csv:3:3: text (column C)"),
                                       ("en", "cards.csv:3:4: text.en (column D)")])
def test_a_mistake_in_a_translated_cell_is_told_at_that_cell(tmp_path, capsys, lang, cell):
    """A game trial: a misspelt icon in a text.en cell (column D) stopped the English check at the
    text cell beside it (column C), which the designer had got right; then it named the field
    (``text``), not the header and column the designer sees, as a value error does."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,text.en\n祝福,Blessing,本文,Text\n降臨,Advent,本文{swrod},Text {sheild}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test", *(["--lang", lang] if lang else [])) == 2
    err = capsys.readouterr().out
    assert f"{cell}: unknown icon {{{'sheild' if lang else 'swrod'}}}" in err, err


def test_an_empty_default_language_cell_says_the_language_it_prints_instead(tmp_path):
    """A game trial: a unit's Japanese title cell left empty beside its English one printed
    〔en〕Guard in the Japanese edition, but the warning said 'no ja translation; printed in ja
    marked 〔ja〕'."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,text.en\n祝福,Blessing,本文,Text\n,Guard,本文2,Text 2\n", encoding="utf-8")
    ja = load_game(Workspace(ws), "test")
    assert ja.decks[0].pieces[1].values["name"].endswith("〔en〕[/missing-translation]Guard")
    (warning,) = ja.translations.warnings
    assert warning.endswith("cards.csv:3:1: pieces.2.name: no ja text; printed in en marked 〔en〕"), warning
    en = load_game(Workspace(ws), "test", lang="en")
    assert en.translations.warnings == []


def test_a_misspelt_translation_column_is_named_by_its_header_and_column(tmp_path):
    """``txt.en`` (for ``text.en``) is read as field ``txt`` in English: the error names the
    column the designer wrote, not the header row alone."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,txt.en\n祝福,Blessing,本文,Text\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_game(Workspace(ws), "test")
    assert re.search(r"cards\.csv:1:4: txt\.en \(column D\): unknown key in the header row", str(err.value)), err.value


def _sheet_refused(tmp_path, capsys, game: str, csv: str) -> str:
    """``pnpgen check`` of a deck read from ``cards.csv`` (this text): refused (exit 2), its stderr."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=game)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(csv, encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("game, header, said", [
    (TWO, "text.fr", "cards.csv:1:4: text.fr (column D): 'fr' is not one of the game's languages "
                     "(data/test/game.yaml:1:1: languages: [ja, en]) (expected fr added there, 'languages: [ja, en, fr]', "
                     "to translate into it; else a column headed text.<one of ja, en>)"),
    (GAME_YAML, "text.en", "cards.csv:1:4: text.en (column D): 'en' is not one of the game's languages "
                           "(data/test/game.yaml has no languages: line, so ja only) (expected 'languages: [ja, en]' in "
                           "game.yaml to translate into en; else a column headed text.ja)"),
    (TWO, "text.eng", "cards.csv:1:4: text.eng (column D): 'eng' is not one of the game's languages; "
                      "did you mean text.en? (expected a column headed text.<one of ja, en>)"),
    (TWO, "text.FR", "cards.csv:1:4: text.FR (column D): 'FR' is not one of the game's languages "
                     "(data/test/game.yaml:1:1: languages: [ja, en]) (expected fr added there, 'languages: [ja, en, fr]', "
                     "to translate into it; else a column headed text.<one of ja, en>)"),
], ids=["fr", "no-languages-line", "eng", "capitals"])
def test_a_column_in_a_language_the_game_does_not_list_says_so(tmp_path, capsys, game, header, said):
    """``text.fr`` in a game of [ja, en] was "unknown key in the header row": the language is
    what is missing, and game.yaml's languages line is where to add it."""
    err = _sheet_refused(tmp_path, capsys, game, f"name,count,text,{header}\n祝福,1,本文,Text\n")
    assert said in err and err.count("\n") == 1, err


@pytest.mark.parametrize("header", ["name_en", "Name (EN)", "name-en", "name（en）", "name english"])
def test_a_translation_column_headed_another_way_is_told_the_dotted_header(tmp_path, capsys, header):
    """A game trial: a sheet's ``title_en`` column (as spreadsheets are often headed) was told
    "did you mean title?", which gives the sheet two title columns; it means ``title.en``."""
    err = _sheet_refused(tmp_path, capsys, TWO, f"name,{header},text,text.en\n祝福,Blessing,本文,Text\n")
    assert f"cards.csv:1:2: {header} (column B): a field's translation is headed <field>.<language>" in err, err
    assert "(expected a column headed name.en)" in err and "did you mean name?" not in err and err.count("\n") == 1, err


def test_a_parked_piece_prints_nothing_so_no_translation_of_it_is_missing(tmp_path):
    """``count: 0`` keeps a piece in the data and prints none: its untranslated texts are not
    warned of, in a spreadsheet or in YAML (a designer's parked row was)."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,text.en,count\n祝福,Blessing,本文,Text,1\n降臨,,本文2,,0\n秘跡,,本文3,Text 3,1\n", encoding="utf-8")
    warnings = load_game(Workspace(ws), "test", lang="en").translations.warnings
    assert len(warnings) == 1 and re.search(r"cards\.csv:4:2: pieces\.3\.name\.en: no en translation", warnings[0]), warnings
    yaml_deck = DECK_YAML.replace("name: テストカード", "name: {ja: テストカード, en: Cards}") + (
        "  - {name: {ja: 祝福, en: Blessing}, text: {ja: 本文, en: Text}}\n"
        "  - {name: {ja: 降臨}, text: 本文2, count: 0}\n")
    ws = make_workspace(tmp_path / "yaml", deck=yaml_deck, game=TWO)
    assert load_game(Workspace(ws), "test", lang="en").translations.warnings == []


def test_rulebook_cover_labels_follow_the_language(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck=DECK, game=TWO, draft=True)
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--lang", "en") == 0
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--lang", "ja") == 0
    en = pages_text(ws / "build" / "test" / "en" / "rulebook.pdf")[0]
    ja = pages_text(ws / "build" / "test" / "rulebook.pdf")[0]
    assert "Rulebook" in en and "Players:2–4" in en and "TestGame" in en and "ルールブック" not in en
    assert "ルールブック" in ja and "プレイ人数2〜4人" in ja and "Rulebook" not in ja


def test_japanese_left_plain_among_translated_texts_is_named_in_an_english_build(tmp_path, capsys):
    """A deck that translates its texts, one name left plain Japanese: the English build prints it as
    written (a plain text is the same in every language) and says which, with its line; plain
    text with no Japanese in it (a number, an English word) and the Japanese build say nothing."""
    deck = DECK + "  - {name: 啓示, text: {ja: 本文啓示, en: Text Revelation}}\n  - {name: X-7, text: {ja: 本文, en: Text}}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    build(ws, "--lang", "en")
    err = capsys.readouterr().err
    line = len(deck.splitlines()) - 1  # the piece named 啓示
    said = [x for x in err.splitlines() if "plain ja text" in x]
    assert len(said) == 1 and re.search(rf"cards\.yaml:{line}:\d+: pieces\.5\.name: '啓示'", said[0]), err
    assert "{ja: …, en: …}" in said[0]
    text = pages_text(ws / "build" / "test" / "en" / "shop" / "cards.pdf")
    assert "啓示" in text[8] and "〔ja〕" not in text[8]  # printed as written, unmarked
    build(ws)
    assert "plain ja text" not in capsys.readouterr().err


def test_a_language_listed_twice_is_said_at_languages(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "languages: [ja, en, ja]\n")
    assert run(ws, "check", "--game", "test") == 2
    said = capsys.readouterr()
    err = said.out + said.err
    assert "game.yaml" in err and "languages lists ja more than once" in err, err


def test_a_sheet_column_left_plain_japanese_is_named_in_an_english_build(tmp_path):
    """Japanese designer's trial: a sheet with title.en and text.en columns, its flavour column
    left in Japanese: the English edition printed 「……まだ、終わらない」 on every card without a
    word (only YAML decks were read for it). One line per such column, at its first cell, with
    the column to add; a cost of Japanese-named icons ({火}) is no Japanese text."""
    deck = DECK_YAML.replace("pieces:\n", "  flavour: text\n  cost: text\npieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,text.en,flavour,cost,count\n"
        "炎,Flame,本文,Text,「……まだ、終わらない」,{火}{火},1\n水,Water,本文2,Text 2,――風が変わった。,{水},2\n"
        "風,Wind,本文3,Text 3,Wind!,{風},1\n", encoding="utf-8")
    warnings = load_game(Workspace(ws), "test", lang="en").translations.warnings
    assert [w.split("/decks/", 1)[1] for w in warnings] == ["cards.csv:2:5: flavour: '「……まだ、終わらない」' and 1 more cells of the column: "
                        "plain ja text in a sheet that translates other columns into en; printed as written, unmarked "
                        "(a translation forgotten? add a column flavour.en beside it)"], warnings
    assert load_game(Workspace(ws), "test", lang="ja").translations.warnings == []


def test_a_picture_given_in_one_language_only_is_the_same_picture_in_the_other(tmp_path):
    """``art: {ja: king.png}`` (the English art of a card with words in it not drawn yet): the
    English edition stopped at "art file '[missing-translation]〔ja〕[/missing-translation]king.png'
    not found". A picture is no text to mark: the default's file, and no missing translation."""
    from PIL import Image

    deck = (DECK_YAML.replace("  text: text\n", "  text: text\n  art: image\n")
            + "  - {name: {ja: 王, en: King}, text: {ja: 本文, en: Text}, art: {ja: king.png}}\n"
            + "  - {name: {ja: 妃, en: Queen}, text: {ja: 本文, en: Text}, art: {ja: queen.png, en: queen-en.png}}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "art").mkdir()
    for name in ("king.png", "queen.png", "queen-en.png"):
        Image.new("RGB", (60, 40), (200, 30, 40)).save(ws / "data" / "test" / "art" / name)
    game = load_game(Workspace(ws), "test", lang="en")
    assert [p.values["art"] for p in game.decks[0].pieces] == ["king.png", "queen-en.png"]
    assert not [m for m in game.translations.missing if "art" in m.key]
    assert [p.values["art"] for p in load_game(Workspace(ws), "test").decks[0].pieces] == ["king.png", "queen.png"]


def test_a_countrys_code_for_its_language_is_told_the_languages():
    """hostile10: ``jp`` (Japan's code, as a Japanese designer often types it), ``kr`` and ``cn``
    are the codes of no language: the hint names ja, ko and zh (--lang jp, a title.jp column, a
    layout box's lang: jp)."""
    from pnpgen.data.i18n import language_code_hint, language_code_meant

    assert [language_code_meant(c) for c in ("jp", "kr", "cn", "ja")] == ["ja", "ko", "zh", None]
    assert language_code_hint("jp", ["ja", "en"]) == "; did you mean ja?"
    assert language_code_hint("cn", ["ja", "en"]) == ""


def test_a_files_texts_left_plain_japanese_are_three_lines_and_a_count_in_a_build_and_each_in_check(tmp_path, capsys):
    """A playtest evening: a request deck given its English name, its eleven grade texts not yet
    (「{cargo_h} Ｈ（松）」): an English build printed eleven warning lines, one per card, on every
    build — as the missing translations once did; the first three and one line counting the rest."""
    deck = DECK.replace("name: テストカード", "name: {ja: テストカード, en: Test cards}") + "".join(
        f"  - {{name: 札{i}, text: 本文{i}}}\n" for i in range(1, 8))
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    capsys.readouterr()
    build(ws, "--lang", "en")
    said = [line for line in capsys.readouterr().err.splitlines() if "plain ja" in line]
    assert len(said) == 4 and all(": pieces." in line for line in said[:3]), said
    assert said[3] == ("pnpgen: warning: data/test/decks/cards.yaml: 11 more texts plain ja in a file that translates "
                       "others into en, printed as written, unmarked (pnpgen check --lang en lists each)"), said
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    assert len(re.findall(r"cards\.yaml:\d+:\d+: pieces\.\d+\.\w+: '.*' is plain ja", capsys.readouterr().out)) == 14


def test_an_english_edition_prints_its_cards_terms_without_their_brackets(tmp_path):
    """【term】 is the draft's index mark: the English book prints the term without it, and the
    English cards did print 【Blessing】. Both drop the brackets now; the Japanese cards keep
    them, and a bracket never closed is the writer's own."""
    deck = DECK.replace("text: {ja: 本文祝福, en: Text Blessing}",
                        "text: {ja: 【祝福】を得る, en: 'Gain 【Blessing】 or 【Advent, then 【Labour】.'}")
    assert deck != DECK
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    build(ws, "--lang", "ja")
    build(ws, "--lang", "en")
    ja = "".join(pages_text(ws / "build" / "test" / "cards.pdf"))
    en = "".join(pages_text(ws / "build" / "test" / "en" / "cards.pdf"))
    assert "【祝福】を得る" in ja
    assert "GainBlessingor【Advent,thenLabour." in en


def test_a_list_written_once_per_language_is_told_to_translate_it_item_by_item(tmp_path, capsys):
    """A wargame trial: a chart's column heads, ``header: {ja: [地形, 防御], en: [Terrain, Defence]}``,
    stopped with only “is not a valid list (expected a list [..])”: a list is translated item by
    item, and the error writes the first item so; written so, the English edition prints it."""
    deck = DECK.replace("  text: text\n", "  text: text\n  header: list\n")
    ws = make_workspace(tmp_path / "ws", deck=deck + "  - {name: 表, text: 表, header: {ja: [地形, 防御], en: [Terrain, Defence]}}\n",
                        game=TWO)
    assert run(ws, "check", "--game", "test", "--lang", "en") == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith("(expected a list [..], translated item by item, each item a text by language: "
                                 "[{ja: 地形, en: Terrain}, …])"), err
    ws = make_workspace(tmp_path / "ws2", game=TWO, deck=deck
                        + "  - {name: 表, text: 表, header: [{ja: 地形, en: Terrain}, {ja: 防御, en: Defence}]}\n")
    game = load_game(Workspace(ws), "test", lang="en")
    assert [str(x) for x in game.decks[0].pieces[-1].values["header"]] == ["Terrain", "Defence"]


def test_japanese_left_plain_in_a_list_field_is_warned_in_the_english_edition(tmp_path, capsys):
    """A wargame trial: a terrain chart's rows, ``rows: [[平地, 1], [森林, 2]]``, in a deck that
    translates its other texts, printed in Japanese in the English edition without a word; each
    such item is warned at its line as a text field's is."""
    deck = DECK.replace("  text: text\n", "  text: text\n  rows: list\n")
    ws = make_workspace(tmp_path / "ws", game=TWO, deck=deck + (
        "  - name: {ja: 地形, en: Terrain}\n    text: {ja: 表, en: Chart}\n    rows:\n      - [平地, 1]\n"
        "      - [{ja: 森林, en: Forest}, 2]\n"))
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    said = [ln for ln in capsys.readouterr().out.splitlines() if "plain ja text" in ln]
    line = len((deck).splitlines()) + 4  # the line of [平地, 1]
    assert len(said) == 1 and re.search(rf"cards\.yaml:{line}:\d+: pieces\.5\.rows\.1\.1: '平地' is plain ja text", said[0]), said


NOTE_ONLY_IN_EN = "{{ textbox(piece.note, 5, 75, w - 10, 8, size=8) }}\n{% endblock %}"


def _only_memo_told_missing(ws, capsys, memo_told: bool = True) -> None:
    """The Japanese build and ``check`` tell memo's missing Japanese text, never note's (a field
    only the English edition reads); in a deck drawn by a layout, no box of which shows memo, not
    memo's either (``memo_told``: a memo no edition prints, trial68)."""
    capsys.readouterr()
    build(ws)
    err = capsys.readouterr().err
    assert "pieces.1.note" not in err
    assert ("pieces.1.memo: no ja text; printed in en marked 〔en〕" in err) == memo_told, err
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr()
    assert "pieces.1.note" not in out.out + out.err and ("pieces.1.memo" in out.out + out.err) == memo_told


@pytest.mark.parametrize("way", ["if", "front"])
def test_a_field_only_the_english_template_reads_is_no_missing_japanese_text(tmp_path, capsys, way):
    """editor7: ``note: {en: Note}`` read only by the English edition's template (``{% if game.lang
    == "en" %}``, or the English ``front:``) was warned in the Japanese edition, "no ja text;
    printed in en marked 〔en〕", where nothing of it prints. A field no edition's template reads
    is still told, and so is one the Japanese template reads."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  note: text\n  memo: text\n") + \
        "  - {name: {ja: 祝福, en: Blessing}, text: {ja: 本文, en: Text}, note: {en: Note}, memo: {en: Memo}}\n"
    if way == "if":
        front = FRONT.replace("{% endblock %}", "{% if game.lang == 'en' %}" + NOTE_ONLY_IN_EN.replace("\n{% endblock %}", "")
                              + "{% endif %}\n{% endblock %}")
        ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO, front=front, back=BACK)
    else:
        deck = deck.replace("front: card-front.svg.j2", "front: {ja: card-front.svg.j2, en: card-front-en.svg.j2}")
        ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO, front=FRONT, back=BACK)
        (ws / "templates" / "test" / "card-front-en.svg.j2").write_text(FRONT.replace("{% endblock %}", NOTE_ONLY_IN_EN),
                                                                       encoding="utf-8")
    _only_memo_told_missing(ws, capsys)
    build(ws, "--lang", "en")
    assert "〔" not in " ".join(pages_text(ws / "build" / "test" / "en" / "cards.pdf")) and "Note" in " ".join(
        pages_text(ws / "build" / "test" / "en" / "cards.pdf"))
    read = make_workspace(tmp_path / "read", deck=deck.replace("front: {ja: card-front.svg.j2, en: card-front-en.svg.j2}",
                                                                "front: card-front.svg.j2"), game=TWO,
                          front=FRONT.replace("{% endblock %}", NOTE_ONLY_IN_EN), back=BACK)
    capsys.readouterr()
    build(read)
    assert "pieces.1.note: no ja text; printed in en marked 〔en〕" in capsys.readouterr().err  # the Japanese face prints it


@pytest.mark.parametrize("way", ["subfolder", "shared", "layout"])
def test_a_field_only_the_english_edition_reads_anywhere_the_build_looks_is_no_missing_japanese_text(tmp_path, capsys, way):
    """editor7 looked only at templates/<slug>/*.j2 for a field another edition reads: one read in
    a template of a subfolder (``{% include "test/parts/note.svg.j2" %}``), of a folder of shared
    templates (``templates/_shared/``) or by a layout box shown in English only (``lang: [en]``)
    was warned as a missing Japanese text that nothing of the Japanese edition prints."""
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  note: text\n  memo: text\n") + \
        "  - {name: {ja: 祝福, en: Blessing}, text: {ja: 本文, en: Text}, note: {en: Note}, memo: {en: Memo}}\n"
    if way == "layout":
        deck = deck.replace("front: card-front.svg.j2\nback: card-back.svg.j2\n",
                            "layout:\n  extends: card-poker\n  boxes:\n"
                            "    note: {field: note, lang: [en], x: 5, y: 70, w: 50, h: 6, size: 8}\n")
        ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO, front=FRONT, back=BACK)
    else:
        name = "test/parts/note.svg.j2" if way == "subfolder" else "_shared/note.svg.j2"
        front = FRONT.replace("{% endblock %}", "{% if game.lang == 'en' %}{% include '" + name + "' %}{% endif %}\n"
                              "{% endblock %}")
        ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO, front=front, back=BACK)
        (ws / "templates" / name).parent.mkdir(parents=True, exist_ok=True)
        (ws / "templates" / name).write_text(NOTE_ONLY_IN_EN.replace("\n{% endblock %}", "\n"), encoding="utf-8")
    _only_memo_told_missing(ws, capsys, memo_told=way != "layout")
    build(ws, "--lang", "en")
    assert "Note" in " ".join(pages_text(ws / "build" / "test" / "en" / "cards.pdf"))


def test_a_setting_given_for_another_edition_only_is_said_so_without_pnpgens_marker(tmp_path, capsys):
    """A two-language designer's trial: ``format: {en: bridge}`` in a deck (the English edition's
    cards on bridge size) stopped the Japanese build with "unknown format
    '[missing-translation]〔en〕[/missing-translation]bridge'": the marker pnpgen prints an
    untranslated text with, in the error. The line gives the value and that it is the English
    edition's only."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "format: {en: bridge}")
                        + "  - {name: カード1, text: 本文}\n", game=GAME_YAML + "languages: [ja, en]\n")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "missing-translation" not in err
    assert "format: unknown format 'bridge' (given for en only: none for this edition)" in err, err


def test_a_warning_quoting_a_header_of_two_lines_stays_on_one_line(tmp_path, capsys):
    """A header typed on two lines in its cell (フレー<Alt+Enter>バー) quoted in a warning ran the
    warning over two lines, where an error shows the break as \\n (hostile35): a warning is shown
    by the same rule, in the build's warnings and check's list."""
    deck = DECK_YAML.replace("pieces:\n", "  flavour: text\npieces: {file: cards.csv, columns: {\"フレー\\nバー\": flavour}}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        'name,name.en,text,text.en,"フレー\nバー",count\n炎,Flame,本文,Text,「まだ終わらない」,1\n', encoding="utf-8")
    said = "cards.csv:3:5: フレー\\nバー: '「まだ終わらない」': plain ja text in a sheet that translates other columns into en"
    assert run(ws, "build", "--game", "test", "--lang", "en", "--no-rulebook", "-q") == 0
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if "plain ja" in line]
    assert said in line and line.endswith("mapped to flavour.en in the deck's columns:)"), err
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if "plain ja" in line]
    assert said in line and line.endswith("mapped to flavour.en in the deck's columns:)"), out


def test_a_memo_column_no_box_of_the_layout_shows_is_no_translation_to_make(tmp_path, capsys):
    """A designer's trial (trial68): an event deck drawn by card-poker from a sheet headed in
    Japanese, its メモ column declared ``fields: {メモ: text}`` as the docs say a memo never printed is
    kept: ``check --lang en`` and the English build told it "plain ja text …; printed as written,
    unmarked (a translation forgotten? add a column メモ.en beside it)", of a column no edition
    prints. Its 種類 column, which the footer box prints, is still told (mapped to footer.en)."""
    deck = ("name: {ja: イベント, en: Events}\nlayout: card-poker\nfields: {メモ: text}\n"
            "pieces: {file: events.csv, columns: {カード名: title, カード名（英語）: title.en, 種類: footer, 枚数: count}}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.yaml").rename(ws / "data" / "test" / "decks" / "events.yaml")
    (ws / "data" / "test" / "decks" / "events.csv").write_text(
        "カード名,カード名（英語）,種類,枚数,メモ\n大波,Great Waves,嵐,2,要調整\n霧笛,Foghorn,来訪,1,強すぎる\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    out = capsys.readouterr().out
    told = [line for line in out.splitlines() if "plain ja" in line]
    assert len(told) == 1 and "events.csv:2:3: 種類: '嵐' and 1 more cells of the column" in told[0], out
    assert "メモ" not in out, out
    assert run(ws, "build", "--game", "test", "--lang", "en", "--no-rulebook", "-q") == 0
    err = capsys.readouterr().err
    assert "メモ" not in err and "種類: '嵐'" in err, err
    assert "強すぎる" not in " ".join(pages_text(ws / "build" / "test" / "en" / "events.pdf"))


def test_a_number_beside_an_empty_translation_cell_is_the_same_in_every_edition(tmp_path, capsys):
    """A designer's trial (trial71, a trick-taking deck): the rank column was translated only where
    it held words (月 → M), its cells 1 to 13 left empty in rank.en; the English edition printed
    〔ja〕1 … 〔ja〕13 in magenta on 52 cards and warned of each. A value with no word in it (a
    number, signs, an icon alone) needs no translation; a word still does (1VP, 月)."""
    deck = DECK_YAML.replace("pieces:\n", "pieces: {file: cards.csv}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, game=TWO)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(
        "name,name.en,text,text.en\n7,,本文,Text\n月,M,本文,Text\n−2{vp},,本文,Text\n1VP,,本文,Text\n", encoding="utf-8")
    en = load_game(Workspace(ws), "test", lang="en")
    names = [p.values["name"] for p in en.decks[0].pieces]
    assert names[:3] == ["7", "M", "−2{vp}"], names
    assert names[3].endswith("〔ja〕[/missing-translation]1VP"), names
    (warning,) = en.translations.warnings
    assert warning.endswith("cards.csv:5:2: pieces.4.name.en: no en translation; printed in ja marked 〔ja〕"), warning
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    out = capsys.readouterr().out
    assert "pieces.1.name.en" not in out and "pieces.4.name.en" in out, out
