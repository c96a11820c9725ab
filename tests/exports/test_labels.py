"""Small truths: page labels of the unique-faces files are unique; presets whose figures are not
checked against the shop's own template say so on every export."""

from __future__ import annotations

import json
import re

from pypdf import PdfReader

from conftest import COPY_FRONT, DECK_YAML, GAMES, REPO, make_workspace, run


def test_every_unique_faces_file_has_unique_page_labels(built):
    checked = 0
    for game in GAMES:
        for pdf in sorted((built / game / "shop").glob("*-unique.pdf")):
            labels = list(PdfReader(pdf).page_labels)
            assert len(set(labels)) == len(labels), (pdf.name, labels)
            checked += 1
    worker = list(PdfReader(built / "populous" / "shop" / "worker-unique.pdf").page_labels)
    assert worker == [f"ワーカー ×12 ({i}/5)" for i in range(1, 6)]
    assert checked > 10


def test_face_pdf_labels_are_unique_where_names_repeat(tmp_path):
    deck = DECK_YAML + "  - {name: 同名, text: 一, count: 2}\n  - {name: 同名, text: 二, count: 2}\n  - {name: 別, text: 三}\n"
    root = make_workspace(tmp_path / "ws", deck=deck, front=COPY_FRONT)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    labels = list(PdfReader(root / "build" / "test" / "doujin" / "cards.pdf").page_labels)
    # piece.copy makes each copy its own face: 同名 ×1 four times, numbered.
    assert labels[:2] == ["同名 ×1 (1/4)", "同名 ×1 (1/4)（裏）"]  # (the game's language: "(back)" before)
    assert len(set(labels)) == len(labels) == 10


def test_unverified_presets_say_so(tmp_path, capsys):
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])  # one card: the warning is the preset's
    assert run(root, "export", "--game", "test", "--preset", "printerstudio") == 0
    err = capsys.readouterr().err
    assert "PrinterStudio: unverified: no published figure" in err
    record = json.loads((root / "build" / "test" / "printerstudio" / "export.json").read_text(encoding="utf-8"))
    assert any("unverified" in w for w in record["warnings"])
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    assert "unverified" not in capsys.readouterr().err


def test_shops_whose_sizes_beyond_poker_are_unpublished_say_so(tmp_path, capsys):
    """MakePlayingCards' published figures are its poker and tarot cards, DriveThruCards' its poker
    card, The Game Crafter's every size but its safe zone (docs/exports.md names each); what they
    do not publish applies the published bleed to the shop's named sizes and is warned as
    unverified rather than presented as checked."""
    root = make_workspace(tmp_path / "ws", pieces=["カード1"])  # one card: the warning is the preset's
    for preset, said in (("makeplayingcards", "MakePlayingCards: unverified: poker (822×1122 px) and tarot"),
                         ("drivethrucards", "DriveThruCards: unverified: only poker"),
                         ("thegamecrafter", "The Game Crafter: unverified: the sizes, pixels and 1/8 in bleed are")):
        assert run(root, "export", "--game", "test", "--preset", preset, "--fit", "scale") == 0
        assert said in capsys.readouterr().err, preset


def test_shipped_presets_name_only_docs_that_exist():
    """A preset is copied into presets/ to be edited (docs/exports.md, Presets): the file it names
    for its figures is one the package's docs hold (they named a PRINTING.md no checkout has)."""
    presets = REPO / "generator" / "pnpgen" / "exports" / "presets"
    named = {m for path in presets.glob("*.yaml")
             for m in re.findall(r"[\w./-]+\.md", path.read_text(encoding="utf-8"))}
    assert named, "the shipped presets name their sources"
    assert [m for m in sorted(named) if not (REPO / m.split("#")[0]).is_file()] == []


def test_faces_of_one_name_are_numbered_only_where_their_labels_would_read_the_same():
    """As docs/output.md says: 彗星 ×3 beside 彗星 ×1 reads apart; two 黒星 ×2 are numbered."""
    from pnpgen.impose.sheets import face_labels

    assert face_labels([("彗星", 3), ("黒星", 2), ("彗星", 1), ("黒星", 2)]) == [
        "彗星 ×3", "黒星 ×2 (1/2)", "彗星 ×1", "黒星 ×2 (2/2)"]


def test_the_docs_say_when_a_label_is_numbered_as_face_labels_numbers_it():
    """A 同人 designer's trial: the README (now docs/output.md) said labels are numbered "where faces share a name",
    but two 欠片 tokens of 20 and 10 copies read 欠片 ×20 and 欠片 ×10, unnumbered (already
    unique): numbered is where name and quantity are both shared."""
    from pnpgen.impose.sheets import face_labels

    readme = " ".join((REPO / "docs" / "output.md").read_text(encoding="utf-8").split())
    assert "numbered where two faces share name and quantity" in readme
    assert "`欠片 ×20` and `欠片 ×10`" in readme
    assert face_labels([("欠片", 20), ("欠片", 10)]) == ["欠片 ×20", "欠片 ×10"]
    assert face_labels([("ワーカー", 12)] * 2) == ["ワーカー ×12 (1/2)", "ワーカー ×12 (2/2)"]
