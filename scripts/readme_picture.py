"""Make docs/img/overview.png, the README's picture, from real output: a card of each game, a
nested tile sheet, a board sheet and a rulebook components page.

    python scripts/readme_picture.py [--build DIR]

Builds the four games into DIR (default: a temporary folder) unless they are there already.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
CARDS = [("alicematic-medallions", "medallion"), ("alicematic-eiketsuden", "strategy"),
         ("populous", "epic"), ("asian-delivery", "requests")]
SHEETS = [("populous", "area.pdf", 0), ("asian-delivery", "areas.pdf", 0)]
GAP, BG = 16, (236, 236, 236)


def page_image(pdf: Path, index: int, height: int, trim: bool = False) -> Image.Image:
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[index]
    h = page.get_height()
    if trim:  # the TrimBox of a shop page
        x0, y0, x1, y1 = page.get_trimbox()
        page.set_cropbox(x0, y0, x1, y1)
        h = y1 - y0
    image = page.render(scale=height / h).to_pil().convert("RGB")
    doc.close()
    return image


def components_page(book: Path) -> int:
    doc = pdfium.PdfDocument(str(book))
    for i in range(len(doc)):
        text = doc[i].get_textpage().get_text_range()
        if "コンポーネント" in text and i > 1:
            return i
    return 2


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--build", type=Path)
    args = p.parse_args()
    out = args.build or Path(tempfile.mkdtemp())
    subprocess.run([sys.executable, "-m", "pnpgen", "build", "--all", "--out", str(out), "--quiet"], cwd=REPO,
                   check=True)
    cards = [page_image(out / slug / "shop" / f"{deck}-unique.pdf", 0, 270, trim=True) for slug, deck in CARDS]
    sheets = [page_image(out / slug / name, i, 400) for slug, name, i in SHEETS]
    book = out / "populous" / "rulebook.pdf"
    sheets.append(page_image(book, components_page(book), 400))
    width = max(sum(c.width for c in cards) + GAP * (len(cards) + 1), sum(s.width for s in sheets) + GAP * 4)
    canvas = Image.new("RGB", (width, 270 + 400 + 3 * GAP), BG)
    x = GAP
    for c in cards:
        canvas.paste(c, (x, GAP))
        x += c.width + GAP
    x = GAP
    for s in sheets:
        canvas.paste(s, (x, 270 + 2 * GAP))
        x += s.width + GAP
    target = REPO / "docs" / "img" / "overview.png"
    canvas.save(target, optimize=True)
    print(target)


if __name__ == "__main__":
    main()
