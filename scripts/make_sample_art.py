"""Draw the sample terrain art of populous (data/populous/art/terrain/) with Pillow.

The pictures are made by the project itself, so they carry the project's licence (MIT, like the
code): five terrain textures for the 地形トークン, 400×400 px (460 dpi across a 16 mm token with
its 3 mm bleed). Four are PNG; the sea is a JPEG so the real builds also exercise JPEG
passthrough. Deterministic: no randomness, so rerunning gives the same pictures.

    python scripts/make_sample_art.py
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

SIZE = 400
OUT = Path(__file__).resolve().parents[1] / "data" / "populous" / "art" / "terrain"


def _hex(c: str) -> tuple[int, int, int]:
    return tuple(int(c[i : i + 2], 16) for i in (1, 3, 5))


def _wave(i: int, k: int) -> float:
    """A fixed pseudo-random number in 0..1 from two integers (no random module, same every run)."""
    return (math.sin(i * 12.9898 + k * 78.233) * 43758.5453) % 1.0


def plains() -> Image.Image:
    im = Image.new("RGB", (SIZE, SIZE), _hex("#8cbf63"))
    d = ImageDraw.Draw(im)
    for row in range(14):
        for col in range(12):
            x = col * 36 + (18 if row % 2 else 0) + _wave(row, col) * 10
            y = row * 30 + 14 + _wave(col, row) * 8
            for dx, lean in ((-5, -6), (0, 0), (5, 6)):
                d.line([(x + dx, y + 12), (x + dx + lean, y - 4)], fill=_hex("#4f8a34"), width=4)
    return im


def mountains() -> Image.Image:
    im = Image.new("RGB", (SIZE, SIZE), _hex("#b3b1aa"))
    d = ImageDraw.Draw(im)
    for row in range(5):
        for col in range(5):
            cx = col * 96 + (48 if row % 2 else 0) - 10
            base = row * 90 + 110
            peak = (cx, base - 80)
            d.polygon([(cx - 60, base), peak, (cx + 60, base)], fill=_hex("#7d7b75"))
            d.polygon([peak, (cx + 60, base), (cx + 8, base)], fill=_hex("#5f5d58"))
            d.polygon([peak, (cx - 18, base - 52), (cx, base - 58), (cx + 16, base - 50)], fill=_hex("#f4f4f2"))
    return im


def desert() -> Image.Image:
    im = Image.new("RGB", (SIZE, SIZE), _hex("#ecd58a"))
    d = ImageDraw.Draw(im)
    for row in range(12):
        y0 = row * 36 + 10
        pts = [(x, y0 + 10 * math.sin(x / 38 + row * 1.7)) for x in range(0, SIZE + 8, 8)]
        d.line(pts, fill=_hex("#c9a54c"), width=5)
        d.line([(x, y + 7) for x, y in pts], fill=_hex("#f7e7b4"), width=3)
    return im


def tundra() -> Image.Image:
    im = Image.new("RGB", (SIZE, SIZE), _hex("#eef3f6"))
    d = ImageDraw.Draw(im)
    for i in range(28):
        x, y = _wave(i, 1) * SIZE, _wave(i, 2) * SIZE
        for k in range(3):
            a = _wave(i, k + 3) * math.tau
            n = 30 + _wave(i, k + 7) * 50
            d.line([(x, y), (x + n * math.cos(a), y + n * math.sin(a))], fill=_hex("#9dbbd0"), width=3)
    for i in range(40):
        x, y = _wave(i, 11) * SIZE, _wave(i, 12) * SIZE
        d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=_hex("#ffffff"))
    return im


def sea() -> Image.Image:
    im = Image.new("RGB", (SIZE, SIZE), _hex("#4a86c0"))
    d = ImageDraw.Draw(im)
    for row in range(11):
        for col in range(6):
            cx = col * 76 + (38 if row % 2 else 0)
            cy = row * 40 + 14
            d.arc([cx - 30, cy - 12, cx + 30, cy + 24], 200, 340, fill=_hex("#dcecf8"), width=5)
            d.arc([cx - 18, cy - 2, cx + 18, cy + 20], 210, 330, fill=_hex("#2f6a9e"), width=3)
    return im


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, draw in (("plains", plains), ("mountains", mountains), ("desert", desert), ("tundra", tundra)):
        draw().save(OUT / f"{name}.png", optimize=True)
    sea().save(OUT / "sea.jpg", quality=88)
    print(f"sample art in {OUT}")


if __name__ == "__main__":
    main()
