"""A picture's PDF image stream is kept in the build cache (``images/<key>.bin``) with a header
(``.json``) naming how a PDF reader decodes it. A header is read back only when it names what
pnpgen writes — its filters (Flate, DCT, ASCII85), a device colour space, sizes a picture has —:
a header naming another decoder (JBIG2, JPX: the PDF readers' decoders most often attacked) or a
size no picture has is made again, and the documents are a cold build's bytes."""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import PICTURE_FRONT, picture_workspace, run
from pnpgen.usercache import seal

BAD = {
    "another decoder": {"filters": ["JBIG2Decode"]},
    "a decoder chain": {"filters": ["FlateDecode", "JPXDecode"]},
    "another colour space": {"colour_space": "Indexed"},
    "a size no picture has": {"width": 10**9},
    "other parameters": {"parms": {"Predictor": 15, "JBIG2Globals": 1}},
}


PIECES = "  - {name: A, art: a.png}\n  - {name: B, art: a.png}\n"


def _edited(deck) -> None:
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: B", "name: C"), encoding="utf-8")


@pytest.fixture(scope="module")
def first_and_cold(tmp_path_factory):
    """The workspace after its first build (each case edits a copy of it), and the bytes of a cold
    build of it once edited, which every case's rebuild must give: both built once for the cases."""
    first = picture_workspace(tmp_path_factory.mktemp("first") / "ws", PIECES, PICTURE_FRONT,
                              {"a.png": (200, 30, 30)}, chunks=12)  # more pieces than placed as it is: a cached stream
    assert run(first, "build", "--game", "test", "--no-rulebook") == 0
    cold = tmp_path_factory.mktemp("cold") / "ws"
    shutil.copytree(first, cold, symlinks=True, ignore=shutil.ignore_patterns("build"))
    _edited(cold / "data" / "test" / "decks" / "cards.yaml")
    assert run(cold, "build", "--game", "test", "--no-rulebook") == 0
    return first, (cold / "build" / "test" / "cards.pdf").read_bytes()


@pytest.mark.parametrize("bad", sorted(BAD))
def test_a_stream_header_naming_what_pnpgen_does_not_write_is_made_again(tmp_path, bad, first_and_cold):
    first, cold = first_and_cold
    ws = shutil.copytree(first, tmp_path / "ws", symlinks=True)
    heads = list((ws / "build" / ".cache" / "images").rglob("*.json"))
    assert heads
    for path in heads:  # sealed as this machine seals them: only the values are wrong
        head = json.loads(path.read_bytes())
        head.pop("seal")
        head.update(BAD[bad])
        path.write_bytes(json.dumps({**head, "seal": seal(json.dumps(head, sort_keys=True).encode())},
                                    sort_keys=True).encode())
    _edited(ws / "data" / "test" / "decks" / "cards.yaml")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    built = (ws / "build" / "test" / "cards.pdf").read_bytes()
    assert b"JBIG2" not in built and b"JPX" not in built and b"Indexed" not in built
    assert built == cold
