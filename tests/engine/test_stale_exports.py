"""A build that changes a game says which of its exports were made before the change: they
still show the cards as they were until exported again (trial27: a playtest rebuild left the
doujin and Tabletop Simulator exports at the old counts, and nothing said so)."""

from __future__ import annotations

import shutil

from conftest import DECK_YAML, FEW_CARDS, GAME_YAML, make_workspace, run

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


def _edit(ws, old: str, new: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_build_that_changes_the_game_names_the_exports_made_before(tmp_path, capsys):
    ws = make_workspace(tmp_path, pieces=FEW_CARDS, game=GAME_YAML + "\nlanguages: [ja, en]\n")
    assert run(ws, *BUILD) == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "--lang", "en") == 0
    capsys.readouterr()
    _edit(ws, "本文カード1", "本文A")
    assert run(ws, *BUILD) == 0
    out = capsys.readouterr().out
    assert "changed:" in out
    lines = [line.strip() for line in out.splitlines() if "exported before this change" in line]
    assert lines == [
        "exported before this change: build/test/en/doujin/ (pnpgen export --game test --preset doujin --lang en "
        "makes it again)",
        "exported before this change: build/test/tabletopsimulator/ (pnpgen export --game test --preset "
        "tabletopsimulator makes it again)"]
    # nothing changed: nothing said; the export made again and the folder removed: neither named
    assert run(ws, *BUILD) == 0
    assert "exported before" not in capsys.readouterr().out
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    shutil.rmtree(ws / "build" / "test" / "en" / "doujin")
    capsys.readouterr()
    _edit(ws, "本文A", "本文B")
    assert run(ws, *BUILD) == 0
    out = capsys.readouterr().out
    assert [line.strip() for line in out.splitlines() if "exported before" in line] == [
        "exported before this change: build/test/tabletopsimulator/ (pnpgen export --game test --preset "
        "tabletopsimulator makes it again)"]


def test_a_build_with_no_export_made_names_none(tmp_path, capsys):
    ws = make_workspace(tmp_path, pieces=FEW_CARDS)
    assert run(ws, *BUILD) == 0
    _edit(ws, "本文カード1", "本文A")
    capsys.readouterr()
    assert run(ws, *BUILD) == 0
    out = capsys.readouterr().out
    assert "changed:" in out and "exported before" not in out


def _named(out: str) -> list[str]:
    return [line.split(": ", 1)[1].split(" (")[0] for line in out.splitlines() if "exported before this change" in line]


def test_an_edit_of_one_languages_text_leaves_the_other_languages_exports_current(tmp_path, capsys):
    """trial: after an edit of an English text alone, ``build --lang en`` named the Japanese
    exports as made before the change, which still show every Japanese card as it is. An export
    is stale when what it shows changed: an edit of one language's text leaves the other
    language's exports current; a count, which both editions print, makes both stale."""
    deck = DECK_YAML + "".join(f"  - {{name: {{ja: {n}, en: Card {i}}}, text: {{ja: 本文{n}, en: Text {i}}}}}\n"
                               for i, n in enumerate(FEW_CARDS, 1))
    ws = make_workspace(tmp_path, deck=deck, game=GAME_YAML + "\nlanguages: [ja, en]\n")
    assert run(ws, *BUILD) == 0 and run(ws, *BUILD, "--lang", "en") == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "--lang", "en") == 0
    capsys.readouterr()
    _edit(ws, "en: Text 1", "en: Text one")
    assert run(ws, *BUILD, "--lang", "en") == 0
    assert _named(capsys.readouterr().out) == ["build/test/en/doujin/"]
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "--lang", "en") == 0  # made again: current
    _edit(ws, "ja: 本文カード2", "ja: 本文二")
    assert run(ws, *BUILD) == 0
    assert _named(capsys.readouterr().out) == ["build/test/tabletopsimulator/"]
    _edit(ws, "text: {ja: 本文カード3, en: Text 3}}", "text: {ja: 本文カード3, en: Text 3}, count: 2}")
    assert run(ws, *BUILD, "--lang", "en") == 0
    assert _named(capsys.readouterr().out) == ["build/test/en/doujin/", "build/test/tabletopsimulator/"]


def test_a_build_for_another_printer_or_paper_leaves_the_exports_current(tmp_path, capsys):
    """Japanese trial (双竜戦記): a build with a printer profile (its home sheets 8 a sheet, not 9)
    named every export as made before the change, though they print no home sheet and ``export``
    then said up to date. An export is stale when what it shows changed, in its own edition too."""
    ws = make_workspace(tmp_path, pieces=FEW_CARDS)
    (ws / "printers.yaml").write_text("home-laser: {paper: a4, duplex: long, back_offset_mm: [0.8, -1.2]}\n",
                                      encoding="utf-8")
    assert run(ws, *BUILD) == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    capsys.readouterr()
    assert run(ws, *BUILD, "--printer", "home-laser") == 0
    out = capsys.readouterr().out
    assert "changed:" in out and _named(out) == [], out
    assert run(ws, *BUILD, "--paper", "letter") == 0
    assert _named(capsys.readouterr().out) == []
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert "up to date" in capsys.readouterr().out
    _edit(ws, "本文カード1", "本文A")  # what the export shows: named, as before
    assert run(ws, *BUILD) == 0
    assert _named(capsys.readouterr().out) == ["build/test/tabletopsimulator/"]


def test_an_edit_of_one_editions_draft_leaves_the_other_editions_exports_current(tmp_path, capsys):
    """trial46: an edit of draft.en.txt alone (the English rulebook) named the Japanese doujin and
    Tabletop Simulator exports as made before the change, though no Japanese file shows that draft.
    An edition's exports follow its own draft only: draft.en.txt the English ones, draft.txt the
    Japanese ones; and of those only the rulebook's (doujin-book): trial70's rule rewritten named
    the Tabletop Simulator and DriveThruCards exports, which show no page of the book."""
    ws = make_workspace(tmp_path, pieces=FEW_CARDS, game=GAME_YAML + "\nlanguages: [ja, en]\n", draft=True)
    en = ws / "data" / "test" / "draft.en.txt"
    en.write_text("# Test\n\n## Overview\n\nA test game.\n", encoding="utf-8")
    build = ("build", "--game", "test", "--jobs", "1")
    assert run(ws, *build) == 0 and run(ws, *build, "--lang", "en") == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    assert run(ws, "export", "--game", "test", "--preset", "doujin", "--lang", "en") == 0
    assert run(ws, "export", "--game", "test", "--preset", "doujin-book") == 0
    capsys.readouterr()
    en.write_text("# Test\n\n## Overview\n\nA game to test.\n", encoding="utf-8")
    assert run(ws, *build, "--lang", "en") == 0
    out = capsys.readouterr().out
    assert "changed: rulebook" in out and _named(out) == [], out  # (the English cards' export shows no book)
    ja = ws / "data" / "test" / "draft.txt"
    ja.write_text(ja.read_text(encoding="utf-8") + "\n■　補足\n　追記です。\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, *build) == 0
    out = capsys.readouterr().out
    assert "changed: rulebook" in out and _named(out) == ["build/test/doujin-book/"], out
    _edit(ws, "本文カード1", "本文A")  # a card's text: the exports of pieces too (the book pictures the cards)
    assert run(ws, *build) == 0
    assert _named(capsys.readouterr().out) == ["build/test/doujin-book/", "build/test/en/doujin/",
                                               "build/test/tabletopsimulator/"]


def test_the_command_named_makes_the_export_again_with_the_options_it_was_made_with(tmp_path, capsys):
    """trial60: a DriveThruCards export made with ``--fit scale --deck market --deck starter`` was
    told ``pnpgen export --game harbour --preset drivethrucards makes it again``, which stops at
    once (the decks are no DriveThruCards size without --fit). The line names the options the
    export was made with, and running it as printed finds the export up to date (the same
    options: nothing made again)."""
    ws = make_workspace(tmp_path, pieces=FEW_CARDS)
    assert run(ws, *BUILD) == 0
    made = ("export", "--game", "test", "--preset", "tabletopsimulator", "--deck", "cards", "--deck-id-base", "300")
    assert run(ws, *made) == 0
    _edit(ws, "本文カード1", "本文A")
    capsys.readouterr()
    assert run(ws, *BUILD) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines() if "exported before" in line]
    assert lines == ["exported before this change: build/test/tabletopsimulator/ (pnpgen export --game test --preset "
                     "tabletopsimulator --deck cards --deck-id-base 300 makes it again)"]
    command = lines[0].split("(pnpgen ", 1)[1].removesuffix(" makes it again)").split()
    assert run(ws, *command) == 0
    assert run(ws, *command) == 0 and "up to date" in capsys.readouterr().out


def test_the_options_an_export_is_made_again_with():
    """Each option ``pnpgen export`` takes, written back as its command line takes it (quoted for a
    shell where it must be)."""
    from pnpgen.exports.options import ExportOptions

    assert ExportOptions("doujin").again(("cards",)) == ""  # every deck: no --deck
    assert ExportOptions("drivethrucards", fit="scale", decks=("market",)).again(("market", "starter")) == \
        " --deck market --deck starter --fit scale"
    assert ExportOptions("doujin", colour="rgb", pdfx="none", outline_text=False, proof=True, max_dpi=0).again() == \
        " --colour rgb --pdfx none --max-dpi none --no-outline-text --proof"
    assert ExportOptions("tabletopsimulator", base_url="https://example.org/my game/", max_dpi=1200.0).again() == \
        " --base-url 'https://example.org/my game/' --max-dpi 1200"


def test_an_export_made_with_out_is_made_again_with_it(tmp_path, capsys):
    """An export made with ``--out`` was told ``pnpgen export --game test --preset doujin makes it
    again``, which writes a new export into build/ and leaves the stale one as it was: the command
    names the output folder (its path inside the workspace said relative to it, as every path is)."""
    ws = make_workspace(tmp_path, pieces=FEW_CARDS)
    out = ["--out", str(ws / "proofs")]
    assert run(ws, *BUILD, *out) == 0
    assert run(ws, "export", "--game", "test", "--preset", "doujin", *out) == 0
    capsys.readouterr()
    _edit(ws, "本文カード1", "本文A")
    assert run(ws, *BUILD, *out) == 0
    assert [line.strip() for line in capsys.readouterr().out.splitlines() if "exported before" in line] == [
        "exported before this change: proofs/test/doujin/ (pnpgen export --game test --preset doujin --out proofs "
        "makes it again)"]


def test_a_build_into_build_names_an_export_made_with_out_in_the_workspace(tmp_path, capsys):
    """An export made with ``--out proofs`` went unmentioned by a build into build/, which read its
    own folder's records alone: every output folder directly in the workspace is looked in (none
    outside it); a link is not followed."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, *BUILD) == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator", "--out", str(ws / "proofs")) == 0
    (ws / "linked").symlink_to(ws / "proofs")
    capsys.readouterr()
    _edit(ws, "本文カード1", "本文A")
    assert run(ws, *BUILD) == 0
    assert [line.strip() for line in capsys.readouterr().out.splitlines() if "exported before" in line] == [
        "exported before this change: proofs/test/tabletopsimulator/ (pnpgen export --game test --preset "
        "tabletopsimulator --out proofs makes it again)"]


def test_a_game_named_as_its_editions_language_is_told_its_export_again(tmp_path, capsys):
    """hostile40: the command was read from the export folder's shape: a game named ``en`` whose
    English edition's export is ``build/en/en/doujin`` was told ``--out build/en`` and no ``--lang
    en`` (the command wrote a new export, elsewhere); the edition is read from the export's record,
    the output folder is the one it was found in (nested ``--out a/b`` too)."""
    ws = make_workspace(tmp_path, pieces=FEW_CARDS, game=GAME_YAML + "\nlanguages: [ja, en]\n")
    (ws / "data" / "test").rename(ws / "data" / "en")
    (ws / "templates" / "test").rename(ws / "templates" / "en")
    build = ("build", "--game", "en", "--no-rulebook", "--jobs", "1")
    for out in ([], ["--out", "a/b"]):
        assert run(ws, *build, *out) == 0
        assert run(ws, "export", "--game", "en", "--preset", "doujin", "--lang", "en", *out) == 0
        capsys.readouterr()
        deck = ws / "data" / "en" / "decks" / "cards.yaml"
        deck.write_text(deck.read_text(encoding="utf-8").replace("本文", "本文改", 1), encoding="utf-8")
        assert run(ws, *build, *out) == 0
        said = [line.strip() for line in capsys.readouterr().out.splitlines() if "exported before" in line]
        assert sorted(said) == (["exported before this change: a/b/en/en/doujin/ (pnpgen export --game en --preset doujin "
                         "--lang en --out a/b makes it again)"] if out else []) + [
            "exported before this change: build/en/en/doujin/ (pnpgen export --game en --preset doujin --lang en "
            "makes it again)"], said  # (the second build's: build/'s export shows the first edit, not the second)


def test_an_export_of_some_decks_is_not_named_by_an_edit_of_another_deck(tmp_path, capsys):
    """trial70 (a euro's board and cards): an export of the card decks alone (DriveThruCards takes
    no board) was named 'exported before this change' by a build that edited the board alone, and
    the designer made it again for nothing. An export is named when a deck it holds files of
    changed, or anything but decks did."""
    ws = make_workspace(tmp_path, pieces=FEW_CARDS, draft=True)
    decks = ws / "data" / "test" / "decks"
    (decks / "more.yaml").write_text((decks / "cards.yaml").read_text(encoding="utf-8").replace(
        "テストカード", "別のカード", 1), encoding="utf-8")
    assert run(ws, *BUILD) == 0
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator", "--deck", "cards") == 0
    more = (decks / "more.yaml").read_text(encoding="utf-8")
    (decks / "more.yaml").write_text(more.replace("本文カード1", "本文A", 1), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, *BUILD) == 0
    out = capsys.readouterr().out
    assert "changed: more:" in out and "exported before" not in out, out
    draft = ws / "data" / "test" / "draft.txt"  # the other deck and the draft at once (a player count changed)
    draft.write_text(draft.read_text(encoding="utf-8") + "\n■　補足\n　追記です。\n", encoding="utf-8")
    (decks / "more.yaml").write_text(more.replace("本文カード1", "本文B", 1), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "changed: more:" in out and "changed: rulebook" in out and "exported before" not in out, out
    _edit(ws, "本文カード1", "本文A")
    assert run(ws, *BUILD) == 0
    assert [line.strip() for line in capsys.readouterr().out.splitlines() if "exported before" in line] == [
        "exported before this change: build/test/tabletopsimulator/ (pnpgen export --game test --preset "
        "tabletopsimulator --deck cards makes it again)"]
