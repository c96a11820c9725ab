"""A deck whose file is removed: the documents the last build made of it go, as long as they are
the files pnpgen wrote (engine/run.py ``_no_longer_made``). A document with pictures is recorded
by the digest of its segments (``PdfFile.digest``), not by its plain SHA-256: read as a plain one
it never matched, and a removed deck's illustrated sheets stayed for ever."""

from __future__ import annotations

import os

import pytest
from PIL import Image

from conftest import PICTURE_DECK_YAML, PICTURE_FRONT, picture_workspace, run
from pnpgen import usercache
from pnpgen.engine.transaction import BIG_DOCUMENT

FAST = ("--no-rulebook", "--jobs", "1")
NOISY = 8  # pictures of noise (they do not compress): the removed deck's sheets pass BIG_DOCUMENT


@pytest.mark.parametrize("cache", ["machine key", "off"])
def test_a_removed_decks_big_documents_go_but_one_edited_since_stays(tmp_path, monkeypatch, cache):
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "machine-cache") if cache != "off" else "off")
    pieces = "".join(f"  - {{name: 絵{i}, art: n{i}.png, count: 1}}\n" for i in range(NOISY))
    ws = picture_workspace(tmp_path / "ws", pieces, PICTURE_FRONT, {"kept.png": (0, 90, 0)})
    art, decks = ws / "data" / "test" / "art", ws / "data" / "test" / "decks"
    for i in range(NOISY):
        Image.frombytes("RGB", (900, 600), os.urandom(900 * 600 * 3)).save(art / f"n{i}.png")
    (decks / "kept.yaml").write_text(PICTURE_DECK_YAML + "  - {name: 残る, art: kept.png, count: 1}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", *FAST) == 0
    out = ws / "build" / "test"
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("cards*.pdf"))
    assert made == ["cards.pdf", "shop/cards-unique.pdf", "shop/cards.pdf"], made
    assert all((out / rel).stat().st_size >= BIG_DOCUMENT for rel in made)
    edited = out / "shop" / "cards.pdf"  # a byte inside a picture changed, the size the same
    data = bytearray(edited.read_bytes())
    data[len(data) // 2] ^= 0xFF
    edited.write_bytes(bytes(data))
    (decks / "cards.yaml").unlink()
    if cache == "off":
        monkeypatch.setattr(usercache, "PROCESS_SECRET", os.urandom(32))  # another run: the state unread
    assert run(ws, "build", "--game", "test", *FAST) == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("cards*.pdf")) == ["shop/cards.pdf"]
    assert edited.read_bytes() == bytes(data)
    assert (out / "kept.pdf").is_file()

