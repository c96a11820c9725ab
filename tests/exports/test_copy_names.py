"""Per-copy file names of the PNG presets (a template reading ``piece.copy`` makes every copy its
own face) pad the copy number to the digits of the deck's largest count, so a file browser lists
``c02`` before ``c10``; Tabletop Simulator's GUIDs keep the unpadded names a saved table knows."""

from __future__ import annotations

import csv
import hashlib
import json
import unicodedata
from pathlib import Path

import pytest

from conftest import COPY_FRONT, DECK_YAML, make_workspace, run
from pnpgen.exports import ttsids


def _workspace(tmp_path: Path, counts: tuple[int, ...]) -> Path:
    deck = DECK_YAML + "".join(f"  - {{name: 札{i}, text: 本文, count: {n}}}\n" for i, n in enumerate(counts, 1))
    return make_workspace(tmp_path / "ws", deck=deck, front=COPY_FRONT)


def _fronts(root: Path, preset: str, out: Path) -> list[str]:
    """The front files in order.csv's order (the print order)."""
    assert run(root, "export", "--game", "test", "--preset", preset, "--fit", "bleed", "--out", str(out)) == 0
    folder = out / "test" / preset
    with (folder / "order.csv").open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert all((folder / r["file"]).is_file() for r in rows)
    return [r["file"] for r in rows]


@pytest.mark.parametrize("preset", ["makeplayingcards", "printerstudio", "thegamecrafter"])
def test_copy_numbers_are_padded_to_the_decks_largest_count_and_sort_in_print_order(tmp_path, preset):
    root = _workspace(tmp_path, (10, 2))  # ten copies: the fewest that take two digits
    fronts = _fronts(root, preset, tmp_path / "a")
    stems = [name.split("-front")[0] for name in fronts]
    assert stems == [f"cards-001c{i:02d}" for i in range(1, 11)] + ["cards-002c01", "cards-002c02"]
    assert sorted(fronts) == fronts  # any file browser lists them as they print
    assert _fronts(root, preset, tmp_path / "b") == fronts  # the same names again


def test_a_deck_of_fewer_than_ten_copies_keeps_one_digit(tmp_path):
    root = _workspace(tmp_path, (3, 9))
    stems = [name.split("-front")[0] for name in _fronts(root, "makeplayingcards", tmp_path / "a")]
    assert stems == [f"cards-001c{i}" for i in range(1, 4)] + [f"cards-002c{i}" for i in range(1, 10)]


def test_tabletop_simulator_guids_keep_the_unpadded_names(tmp_path):
    """Each card's GUID is the game's digits and the SHA-1 of its name as exports before the padding
    named it (``cards-001c2``), not of the padded file stem."""
    root = _workspace(tmp_path, (10, 1))
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    obj = json.loads((root / "build" / "test" / "tabletopsimulator" / "cards.json").read_text(encoding="utf-8"))
    guids = [card["GUID"] for card in obj["ObjectStates"][0]["ContainedObjects"]]
    names = [f"cards-001c{i}" for i in range(1, 11)] + ["cards-002"]
    game = ttsids.game_prefixes(["test"])["test"]
    assert guids == [game + hashlib.sha1(f"test/cards/{name}/0".encode()).hexdigest()[:4] for name in names]


def test_two_decks_making_one_file_stop_the_export_before_anything_is_written(tmp_path, capsys):
    """Deck cards' piece 1 back (cards-001-back.png, its backs differ) and deck cards-001's one shared
    back were one file: written once, order.csv naming it for both decks, one deck's back sent for
    the other's. The export stops in one line naming both decks."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("back: card-back.svg.j2", "back: card-front.svg.j2")
                          + "  - {name: 札1, text: 本文}\n  - {name: 札2, text: 本文}\n")
    (root / "data/test/decks/cards-001.yaml").write_text(DECK_YAML + "  - {name: 札3, text: 本文}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "bleed") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pnpgen: error: data/test/decks/cards-001.yaml: deck 'cards' and "
                                                   "deck 'cards-001' both make the export's file cards-001-back.png"), err
    assert not (root / "build" / "test" / "thegamecrafter").exists()


@pytest.mark.parametrize("first, second", [("cards", "Cards-001"), ("カード", unicodedata.normalize("NFD", "カード") + "-001")],
                         ids=["letter-case", "composed-otherwise"])
def test_two_decks_making_one_file_on_windows_and_macos_stop_the_export(tmp_path, capsys, first, second):
    """Deck cards' piece 1 back (cards-001-back.png) and deck Cards-001's shared back
    (Cards-001-back.png) are two files on Linux, one on Windows and macOS (letter case aside, and
    ド composed or as ト + ゛): unpacked or exported onto a USB stick there, one deck's back replaced
    the other's. The export stops in one line naming both, as for one name."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("back: card-back.svg.j2", "back: card-front.svg.j2")
                          + "  - {name: 札1, text: 本文}\n  - {name: 札2, text: 本文}\n")
    decks = root / "data/test/decks"
    (decks / "cards.yaml").rename(decks / f"{first}.yaml")
    (decks / f"{second}.yaml").write_text(DECK_YAML + "  - {name: 札3, text: 本文}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "thegamecrafter", "--fit", "bleed") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"deck {second!r} and deck {first!r} both make the export's files " in err, err
    assert f"{second}-back.png and {first}-001-back.png, one file on Windows and macOS" in err, err
    assert not (root / "build" / "test" / "thegamecrafter").exists()


def test_a_deck_id_too_long_for_an_exports_file_names_is_said_at_its_deck_file(tmp_path, capsys):
    """A deck id of 244 bytes builds (<id>.pdf, shop/<id>-unique.pdf fit), but Tabletop Simulator
    names its images <id>-faces-1.png: the export said 'cannot write …: File name too long
    (expected a folder you may write to)', as if --out were at fault."""
    long_id = "d" * 244
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 札1, text: 本文}\n")
    (root / "data/test/decks/cards.yaml").rename(root / f"data/test/decks/{long_id}.yaml")
    capsys.readouterr()
    assert run(root, "export", "--game", "test", "--preset", "tabletopsimulator") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{long_id}.yaml: deck 'dddd" in err, err
    assert "bytes, longer than a file name may be (255) (expected a deck file name shorter by" in err, err
    assert not (root / "build" / "test" / "tabletopsimulator").exists()
