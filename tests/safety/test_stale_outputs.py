"""A build removes the files of its last build it no longer makes (a deck deleted) only while
they are still the bytes pnpgen wrote: a file saved over since, or a game state of another game
copied into the cache (sealed on this machine too, naming files pnpgen never wrote in this
game's folder), loses the designer nothing (hostile20)."""

from __future__ import annotations

import shutil

from conftest import DECK_YAML, make_workspace, run

MINE = b"%PDF-1.4 the designer's annotated copy\n"


def _second_deck(ws, slug="test", deck="extra"):
    (ws / "data" / slug / "decks" / f"{deck}.yaml").write_text(
        DECK_YAML.replace("テストカード", "追加") + "  - {name: 追加1, text: t}\n", encoding="utf-8")


def test_a_removed_decks_file_saved_over_since_is_kept_and_said(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    _second_deck(ws)
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    (out / "extra.pdf").write_bytes(MINE)  # annotated in a viewer and saved
    (ws / "data" / "test" / "decks" / "extra.yaml").unlink()
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert (out / "extra.pdf").read_bytes() == MINE
    assert not (out / "shop" / "extra.pdf").exists()  # as pnpgen wrote it: removed
    err = capsys.readouterr().err
    assert "extra.pdf: no output of this build any more, but not the file pnpgen wrote there" in err, err
    assert "shop/extra.pdf" not in err


def test_another_games_state_copied_into_the_cache_removes_no_file_pnpgen_did_not_write(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    shutil.copytree(ws / "data" / "test", ws / "data" / "other")
    shutil.copytree(ws / "templates" / "test", ws / "templates" / "other")
    _second_deck(ws, "other")
    assert run(ws, "build", "--all", "--no-rulebook") == 0
    mine = ws / "build" / "test" / "extra.pdf"
    mine.write_bytes(MINE)  # the designer's, in test's folder: pnpgen never wrote extra.pdf there
    shutil.copy(ws / "build" / ".cache" / "other.json", ws / "build" / ".cache" / "test.json")
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("カード1", "札1"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    assert mine.read_bytes() == MINE
    assert (ws / "build" / "other" / "extra.pdf").is_file()  # the other game's own, untouched


def test_a_manifest_changed_by_hand_is_written_again_without_calling_it_kept(tmp_path, capsys):
    """manifest.json is made by every build: one changed since (by hand, or planted) was told 'no
    output of this build any more … kept, it is yours now' at that build and at every build after,
    and written over all the same (hostile22)."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    manifest = ws / "build" / "test" / "manifest.json"
    made = manifest.read_bytes()
    manifest.write_bytes(b'{"mine": 1}\n')
    capsys.readouterr()
    for _ in range(2):
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
        err = capsys.readouterr().err
        assert "no output of this build" not in err, err
        assert manifest.read_bytes() == made
