"""Make docs/img/calibration.png and docs/img/calibration-rulers.png, the pictures of
docs/home-printing.md, from what `pnpgen calibrate` writes now (A4, long-edge flip, Japanese).

    python scripts/calibration_pictures.py

Run it after changing the calibration sheet (pnpgen/impose/calibration.py): the pictures are
rendered by pdftoppm (poppler-utils), as the other pictures of docs/img/ are.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

REPO = Path(__file__).resolve().parents[1]
IMG = REPO / "docs" / "img"
SHEET_DPI, GAP, GAP_GREY = 40, 20, (136, 136, 136)  # the two pages side by side, as medallion-sheet.png
RULERS_DPI, RULERS_BOX = 300, (1120, 1512, 1500, 1932)  # the back's rulers behind crosshair A (px at 300 dpi)


def render(pdf: Path, dpi: int, page: int, out: Path) -> Image.Image:
    stem = out / f"p{dpi}-{page}"
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", "-png",
                    str(pdf), str(stem)], check=True)
    return Image.open(stem.with_suffix(".png")).convert("RGB")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pdf = folder / "calibration.pdf"
        subprocess.run([sys.executable, "-m", "pnpgen", "calibrate", "--paper", "a4", "--duplex", "long",
                        "--lang", "ja", "--out", str(pdf)], cwd=folder, check=True,
                       env={**os.environ, "PYTHONPATH": str(REPO / "generator")})
        front, back = render(pdf, SHEET_DPI, 1, folder), render(pdf, SHEET_DPI, 2, folder)
        sheet = Image.new("RGB", (front.width + GAP + back.width, max(front.height, back.height)), GAP_GREY)
        sheet.paste(front, (0, 0))
        sheet.paste(back, (front.width + GAP, 0))
        sheet.save(IMG / "calibration.png", optimize=True)
        rulers = render(pdf, RULERS_DPI, 2, folder).crop(RULERS_BOX)
        rulers.save(IMG / "calibration-rulers.png", dpi=(RULERS_DPI, RULERS_DPI), optimize=True)


if __name__ == "__main__":
    main()
