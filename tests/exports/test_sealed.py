"""A sealed pack (``sealed: true``) in the pictures an export makes for players and buyers: the
contact sheet shows its back alone, and Tabletop Simulator receives its pieces face down."""

from __future__ import annotations

import json

import numpy as np
from PIL import Image

from conftest import DECK_YAML, make_workspace, run
from pnpgen.exports import contact

FILL = """{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="COLOUR"/>{% endblock %}
"""
SECRET, SEALED_BACK = (0xCC, 0x00, 0x00), (0x00, 0xAA, 0x00)  # the pack's faces red, its back green

PIECES = "fields: {name: text}\nfront: secret.svg.j2\nback: sealed.svg.j2\npieces:\n"


def _share(image: Image.Image, colour: tuple[int, int, int]) -> float:
    rgb = np.asarray(image.convert("RGB")).astype(int)
    return float((np.abs(rgb - np.array(colour)).sum(axis=2) < 30).mean())


def test_a_sealed_pack_is_its_back_on_the_contact_sheet_and_face_down_on_the_table(tmp_path):
    """fixesK (trial53's follow-up): the Tabletop Simulator export's contact sheet, which the docs
    suggest as a package's cover picture, showed a sealed envelope's cards, face and name. It shows
    the pack's back once for all its copies; the cards go to the table face down as every deck's
    do, and a sealed deck of tiles or tokens arrives showing its back too (a tile turned over, a
    token's back its first state). The export's own sheets of faces keep them: the table needs them."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 彗星, text: 本文}\n")
    decks, templates = ws / "data" / "test" / "decks", ws / "templates" / "test"
    (templates / "secret.svg.j2").write_text(FILL.replace("COLOUR", "#cc0000"), encoding="utf-8")
    (templates / "sealed.svg.j2").write_text(FILL.replace("COLOUR", "#00aa00"), encoding="utf-8")
    (decks / "pack.yaml").write_text("name: 封筒A\nsealed: true\nformat: poker\n" + PIECES
                                     + "  - {name: 秘密の扉}\n  - {name: 秘密の鍵, count: 2}\n", encoding="utf-8")
    (decks / "vault.yaml").write_text("name: 金庫\nsealed: true\nkind: tile\nshape: rect\nsize: [30mm, 30mm]\n"
                                      + PIECES + "  - {name: 宝}\n", encoding="utf-8")
    (decks / "seals.yaml").write_text("name: 封印\nsealed: true\nkind: token\nshape: trihex\nsize: 30\n"
                                      + PIECES + "  - {name: 呪}\n", encoding="utf-8")
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 0
    out = ws / "build" / "test" / "tabletopsimulator"
    with Image.open(out / "test-contact.png") as sheet:
        # the open deck's front and back, then one back for each sealed deck: 5 thumbnails (8 showed the faces)
        assert sheet.width == 5 * (contact.THUMB[0] + 2 * contact.PAD), sheet.width
        assert _share(sheet, SECRET) == 0, "a sealed face on the contact sheet"
        assert _share(sheet, SEALED_BACK) > 0.05
    with Image.open(out / "pack-faces-1.png") as faces:  # what the table draws from: the faces stay
        assert _share(faces, SECRET) > 0.3
    pack = json.loads((out / "pack.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert pack["Transform"]["rotZ"] == 180.0 and pack["HideWhenFaceDown"] is True
    assert len(pack["ContainedObjects"]) == 3
    vault = json.loads((out / "vault.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert vault["Name"] == "Custom_Tile" and vault["Transform"]["rotZ"] == 180.0 and vault["HideWhenFaceDown"]
    seal = json.loads((out / "seals.json").read_text(encoding="utf-8"))["ObjectStates"][0]
    assert seal["Name"] == "Custom_Token" and seal["HideWhenFaceDown"] is True
    assert seal["CustomImage"]["ImageURL"].endswith("/seals-001-back.png"), seal["CustomImage"]
    assert seal["States"]["2"]["CustomImage"]["ImageURL"].endswith("/seals-001-front.png")
    assert seal["States"]["2"]["Nickname"] == "呪"
