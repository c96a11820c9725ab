"""A picture small on disk whose header claims more pixels than print needs (a decompression
bomb): a 13000×13000 PNG with an alpha channel is 0.6 MB of zeros compressed, and converting it
(alpha flattened, RGB) once took 2.7 GB and 10 s, with Pillow's own warnings printed raw; under
Pillow's refusal (179 million pixels) nothing stopped it. It is refused from its header, one line
naming the piece's file:line, the picture and its size, and the last good outputs stay."""

from __future__ import annotations

import struct
import zlib

import pytest

from conftest import PICTURE_FRONT, picture_workspace, run

# 8200 × 8200 = 67 million pixels: over pnpgen's limit (60 million), under Pillow's own warning.
SIDE = 8200


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _bomb(colour_type: int) -> bytes:
    """A whole, valid PNG of SIDE × SIDE transparent (or black) pixels: every row zeros."""
    channels = {2: 3, 6: 4}[colour_type]
    pack = zlib.compressobj(1)
    row = bytes(1 + SIDE * channels)
    data = b"".join(pack.compress(row) for _ in range(SIDE)) + pack.flush()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", SIDE, SIDE, 8, colour_type, 0, 0, 0))
            + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))


@pytest.mark.parametrize("colour_type", [6, 2], ids=["rgba", "rgb"])
def test_a_picture_claiming_more_pixels_than_print_needs_is_refused_from_its_header(tmp_path, capsys, colour_type):
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", PICTURE_FRONT, {"a.png": (200, 30, 30)})
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    kept = (ws / "build/test/cards.pdf").read_bytes()
    (ws / "data/test/art/a.png").write_bytes(_bomb(colour_type))
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    said = capsys.readouterr()
    err = said.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "Warning" not in err, err
    assert "cards.yaml:7:" in err and f"art/a.png is {SIDE}×{SIDE} pixels" in err and "60,000,000" in err, err
    assert (ws / "build/test/cards.pdf").read_bytes() == kept


def test_a_template_image_claiming_more_pixels_than_print_needs_is_refused(tmp_path, capsys):
    front = PICTURE_FRONT.replace("{{ image(piece.art, 5, 20, w - 10, 40) }}",
                                  '<image href="logo.png" x="5" y="60" width="20" height="20"/>')
    ws = picture_workspace(tmp_path / "ws", "  - {name: A, art: a.png}\n", front, {"a.png": (200, 30, 30)})
    (ws / "templates/test/logo.png").write_bytes(_bomb(6))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"logo.png is {SIDE}×{SIDE} pixels" in err, err
    assert not (ws / "build/test/cards.pdf").exists()
