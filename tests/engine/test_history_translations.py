"""A translation's change is a change of the card (trial68): in a game of ja and en whose deck is a
spreadsheet with title and title.en columns, an edit of both cells of one card showed ``title`` in
the Japanese edition's ``pnpgen diff`` and not ``title.en``; an edit of title.en alone made no
version at all. The default edition's diff, log and change line name the translation's field with
its language; a version recorded before translations were (no ``translated`` in it) reads no
title.en as added."""

from __future__ import annotations

import json

from conftest import make_workspace, run
from pnpgen.engine.history import encode

GAME = "title: {ja: テスト, en: Test}\nlanguages: [ja, en]\n"
SHEET = "title,title.en,text,text.en,count\r\n炎,Flame,燃える,Burns,2\r\n水,Water,流れる,Flows,1\r\n"


def _workspace(tmp_path):
    ws = make_workspace(tmp_path / "ws", deck="name: {ja: カード, en: Cards}\nlayout: card-poker\npieces: {file: cards.csv}\n",
                        game=GAME)
    (ws / "data" / "test" / "decks" / "cards.csv").write_text(SHEET, encoding="utf-8")
    return ws


def _edit(ws, old: str, new: str) -> None:
    sheet = ws / "data" / "test" / "decks" / "cards.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _diff(ws, capsys) -> dict:
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    return json.loads(capsys.readouterr().out)["decks"]["cards"]


def test_the_default_editions_diff_log_and_change_line_name_a_translations_change(tmp_path, capsys):
    ws = _workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0  # v1
    _edit(ws, "燃える,Burns", "よく燃える,Burns well")  # both cells of one card, as trial68 did
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0  # v2
    said = capsys.readouterr().out
    assert "炎: text, text.en" in said, said  # the change line: both fields of the card
    fields = _diff(ws, capsys)["fields"]
    assert {(f["field"], f["old"], f["new"]) for f in fields} == {("text", "燃える", "よく燃える"), ("text.en", "Burns", "Burns well")}, fields
    capsys.readouterr()
    assert run(ws, "diff", "--game", "test") == 0
    md = capsys.readouterr().out
    assert "text.en：“Burns” → “Burns well”" in md, md
    _edit(ws, "Flows", "Runs")  # the translation alone: a change of the card, a version of the default edition
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0  # v3
    fields = _diff(ws, capsys)["fields"]
    assert [(f["piece"], f["field"], f["new"]) for f in fields] == [("水", "text.en", "Runs")], fields
    capsys.readouterr()
    assert run(ws, "log", "--game", "test") == 0
    assert "v3" in capsys.readouterr().out


def test_a_version_recorded_before_translations_were_reads_no_translation_as_added(tmp_path, capsys):
    ws = _workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    entry = ws / "build" / ".history" / "test" / "v00001.json"
    body = json.loads(entry.read_text(encoding="utf-8"))["body"]  # as a pnpgen before this one recorded it
    deck = body["decks"]["cards"]
    deck.pop("translated")
    deck["values"] = {label: {f: v for f, v in values.items() if "." not in f} for label, values in deck["values"].items()}
    entry.write_bytes(encode(body, "test"))  # (sealed on this machine, as it was)
    _edit(ws, "燃える", "よく燃える")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    fields = _diff(ws, capsys)["fields"]
    assert [(f["field"], f["new"]) for f in fields] == [("text", "よく燃える")], fields


def test_a_text_not_translated_yet_is_no_translation_and_its_edit_changes_the_default_field_alone(tmp_path, capsys):
    """An empty text.en cell prints the Japanese text marked 〔ja〕 in the English edition: not a
    translation, so an edit of the Japanese text is ``text`` alone, never ``text.en`` too."""
    ws = _workspace(tmp_path)
    _edit(ws, "流れる,Flows", "流れる,")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    _edit(ws, "流れる,", "よく流れる,")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    assert "水: text)" in capsys.readouterr().out
    fields = _diff(ws, capsys)["fields"]
    assert [(f["piece"], f["field"], f["new"]) for f in fields] == [("水", "text", "よく流れる")], fields


def test_a_build_of_the_default_edition_reads_the_game_once(tmp_path, capsys, monkeypatch):
    """The other editions' texts come from the one read of the data (``Piece.editions``), never
    from a second load of the game for each other language (it cost ~0.3 CPU-s a build at 3,000
    bilingual cards): every load of a game reads its languages from game.yaml, so that is counted."""
    from pnpgen.data import i18n

    ws = _workspace(tmp_path)
    reads = []
    real = i18n.Translations.from_game.__func__

    def counted(cls, doc, lang):
        reads.append(lang)
        return real(cls, doc, lang)

    monkeypatch.setattr(i18n.Translations, "from_game", classmethod(counted))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    assert reads == [None], reads
    _edit(ws, "Flows", "Runs")  # a translation's edit: still one read, and the change recorded
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    assert reads == [None, None], reads
    fields = _diff(ws, capsys)["fields"]
    assert [(f["piece"], f["field"], f["new"]) for f in fields] == [("水", "text.en", "Runs")], fields


def test_a_yaml_decks_translations_in_defaults_and_lists_are_the_cards_texts(tmp_path, capsys):
    """A YAML deck's texts by language — a piece's own, its deck's ``defaults:``, an item of a
    list — recorded in the default edition's version as the English edition reads them: an
    edit of a default's English text is a change of every card it reaches."""
    deck = ("name: {ja: カード, en: Cards}\nlayout: card-poker\nfields: {tags: list}\n"
            "defaults: {text: {ja: 既定, en: Default}}\npieces:\n"
            "  - {title: {ja: 炎, en: Flame}, tags: [{ja: 火, en: fire}, x]}\n"
            "  - {title: 水, text: {ja: 流れる}}\n")  # (no English text: printed 〔ja〕 marked, no translation)
    ws = make_workspace(tmp_path / "ws", deck=deck, game=GAME)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    entry = ws / "build" / ".history" / "test" / "v00001.json"
    values = json.loads(entry.read_text(encoding="utf-8"))["body"]["decks"]["cards"]["values"]
    assert values["1:炎"]["title.en"] == "Flame" and values["1:炎"]["tags.en"] == ["fire", "x"], values
    assert values["1:炎"]["text.en"] == "Default", values
    assert not any(f.endswith(".en") for f in values["2:水"]), values
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck.replace("en: Default", "en: Usual"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    fields = _diff(ws, capsys)["fields"]
    assert [(f["piece"], f["field"], f["new"]) for f in fields] == [("炎", "text.en", "Usual")], fields


def test_a_card_renamed_in_both_languages_in_its_place_is_that_card_renamed(tmp_path, capsys):
    """A card whose title and title.en change, in its row, with its other fields and its count the
    same, is that card renamed — not one card new and another removed, as it was when its name
    in two languages read as two fields changed (a typo fixed in one language only always was)."""
    ws = _workspace(tmp_path)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q") == 0
    _edit(ws, "水,Water", "雪,Snow")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert "(雪: title, title.en)" in said and "(new)" not in said, said
    fields = _diff(ws, capsys)["fields"]
    assert {(f["piece"], f["field"], f["old"], f["new"]) for f in fields} == {
        ("雪", "title", "水", "雪"), ("雪", "title.en", "Water", "Snow")}, fields
    _edit(ws, "雪,Snow,流れる,Flows", "霧,Mist,漂う,Drifts")  # its text too: another card in its place
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    said = capsys.readouterr().out
    assert "+1 霧 (new), -1 雪 (removed)" in said, said
