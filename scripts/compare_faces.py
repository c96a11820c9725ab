#!/usr/bin/env python3
"""Fidelity check of pnpgen's SVG converter (pnpgen.svg) against svglib: every distinct
face of every game is drawn both ways, one page per face, rasterised with pdftoppm, and compared
pixel by pixel.

    python scripts/compare_faces.py [--game SLUG ...] [--dpi 100] [--threshold 48] [--worst 12]
                                    [--out DIR]

A pixel differs when any channel differs by more than ``--threshold`` (0–255). Prints each
game's mean and worst share of differing pixels and the worst faces overall; with ``--out``,
writes the worst pairs side by side (svglib left, ours right, differences in magenta below).
Exit status 1 when a face differs in more than ``--fail`` (default 2 %) of its pixels.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))
sys.path.insert(0, str(ROOT / "bench"))

from PIL import Image, ImageChops  # noqa: E402
from reportlab.graphics import renderPDF  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from faces import distinct_faces  # noqa: E402
from pnpgen import fonts  # noqa: E402
from pnpgen.data.workspace import find_workspace  # noqa: E402
from pnpgen.pdf import settings  # noqa: E402
from pnpgen.pdf.draw import draw_art  # noqa: E402
from pnpgen.pdf.svglib_fallback import SvgConverter  # noqa: E402
from pnpgen.svg import convert  # noqa: E402
from pnpgen.svg.image import inline_images  # noqa: E402


def pdfs(faces) -> tuple[bytes, bytes, list[str | None]]:
    """Both renderings, one page per face; and what each face fell back for (None: converted).
    svglib gets the art files as data: URIs, as it cannot look them up."""
    settings.flate_only()
    old, new = io.BytesIO(), io.BytesIO()
    c_old, c_new = Canvas(old, invariant=1), Canvas(new, invariant=1)
    conv = SvgConverter()
    fallbacks = []
    for where, svg, resolve in faces:
        d = conv.drawing(inline_images(svg, resolve), where)
        c_old.setPageSize((d.width, d.height))
        renderPDF.draw(d, c_old, 0, 0, showBoundary=False)
        c_old.showPage()
        art = convert(svg, where, resolve)
        fallbacks.append(art.fallback)
        c_new.setPageSize((art.width_pt, art.height_pt))
        draw_art(c_new, art)
        c_new.showPage()
    c_old.save()
    c_new.save()
    return old.getvalue(), new.getvalue(), fallbacks


def rasterise(pdf: bytes, folder: Path, name: str, dpi: int) -> list[Path]:
    src = folder / f"{name}.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(src), str(folder / name)], check=True)
    return sorted(folder.glob(f"{name}-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def difference(a: Path, b: Path, threshold: int) -> tuple[float, Image.Image, Image.Image, Image.Image]:
    ia, ib = Image.open(a).convert("RGB"), Image.open(b).convert("RGB")
    if ia.size != ib.size:
        ib = ib.resize(ia.size)
    diff = ImageChops.difference(ia, ib)
    r, g, bl = diff.split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), bl).point(lambda v: 255 if v > threshold else 0)
    share = mask.histogram()[255] / (ia.size[0] * ia.size[1])
    return share, ia, ib, mask


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--dpi", type=int, default=100)
    ap.add_argument("--threshold", type=int, default=48, help="channel difference that counts (0–255)")
    ap.add_argument("--worst", type=int, default=12, help="how many of the worst faces to list")
    ap.add_argument("--fail", type=float, default=0.02, help="exit 1 above this share of differing pixels")
    ap.add_argument("--out", type=Path, help="write the worst pairs side by side here")
    args = ap.parse_args(argv)

    ws = find_workspace(ROOT)
    results = []  # (share, slug, where, fallback, images)
    with tempfile.TemporaryDirectory() as tmp:
        for slug in args.game or ws.slugs():
            faces = distinct_faces(ws, slug)  # loads the game: registers its fonts
            settings.default_font(fonts.DEFAULT_FONTS["gothic"])
            old, new, fallbacks = pdfs(faces)
            folder = Path(tmp) / slug
            folder.mkdir()
            pages_old = rasterise(old, folder, "svglib", args.dpi)
            pages_new = rasterise(new, folder, "ours", args.dpi)
            shares = []
            for (where, _, _), fb, a, b in zip(faces, fallbacks, pages_old, pages_new):
                share, ia, ib, mask = difference(a, b, args.threshold)
                shares.append(share)
                results.append((share, slug, where, fb, (ia, ib, mask)))
            fell = sum(1 for f in fallbacks if f)
            print(f"{slug:<24} {len(faces):>4} faces  mean {100 * sum(shares) / len(shares):6.3f} %  "
                  f"worst {100 * max(shares):6.3f} %  fallbacks {fell}")
        results.sort(key=lambda r: -r[0])
        allshares = [r[0] for r in results]
        print(f"{'all games':<24} {len(results):>4} faces  mean {100 * sum(allshares) / len(allshares):6.3f} %  "
              f"worst {100 * max(allshares):6.3f} %  over {100 * args.fail:g} %: "
              f"{sum(1 for s in allshares if s > args.fail)}")
        print("worst faces:")
        for i, (share, _slug, where, fb, (ia, ib, mask)) in enumerate(results[:args.worst]):
            print(f"  {100 * share:7.3f} %  {where}" + (f"  (fallback: {fb})" if fb else ""))
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                w, h = ia.size
                sheet = Image.new("RGB", (2 * w + 10, 2 * h + 10), "white")
                sheet.paste(ia, (0, 0))
                sheet.paste(ib, (w + 10, 0))
                sheet.paste(Image.composite(Image.new("RGB", (w, h), (255, 0, 255)), ia.point(lambda v: 128 + v // 2),
                                            mask), (0, h + 10))
                sheet.save(args.out / f"{i + 1:02d}-{where.replace(' ', '_')}.png")
    return 1 if results and results[0][0] > args.fail else 0


if __name__ == "__main__":
    sys.exit(main())
