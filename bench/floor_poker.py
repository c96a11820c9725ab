"""The practical floor for bench/run.py: a short hand-written ReportLab script that writes what
pnpgen writes for the benchmark's 53 poker cards (9 faces) — A4 home sheets with crop marks and
mirrored backs, a one-card-per-page shop file, the unique faces once each with page labels, the
order list (order.csv), every home sheet again followed by a bill of materials (-all), and a
manifest — what a designer would write by hand without pnpgen.

    python bench/floor_poker.py OUT_DIR
"""

import csv
import io
import json
import sys
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

FONTS = Path(__file__).resolve().parents[1] / "fonts"
CARDS = [(1, "はじまり", "#c8372d", 8), (2, "ふたつめ", "#2d5fc8", 8), (3, "みっつめ", "#2d9a4b", 6),
         (4, "よっつめ", "#c8372d", 6), (5, "いつつめ", "#2d5fc8", 6), (6, "むっつめ", "#2d9a4b", 5),
         (7, "ななつめ", "#c8372d", 5), (8, "やっつめ", "#2d5fc8", 5), (9, "ここのつめ", "#2d9a4b", 4)]
W, H, B = 63 * mm, 88 * mm, 3 * mm
PW, PH = 210 * mm, 297 * mm


def front(c, x, y, n, title, colour):
    c.setFillColor(colour)
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor("#fbf8f0")
    c.roundRect(x + 4 * mm, y + 4 * mm, W - 8 * mm, H - 8 * mm, 2 * mm, stroke=0, fill=1)
    c.setFillColor(colour)
    c.setFont("Bold", 60)
    c.drawCentredString(x + W / 2, y + H - 40 * mm, str(n))
    c.setFillColor("#1a1a1a")
    c.setFont("Bold", 14)
    c.drawCentredString(x + W / 2, y + H - 58 * mm, title)
    c.setFont("Regular", 9)
    c.drawCentredString(x + W / 2, y + H - 72 * mm, f"カードを{n}枚引く。")


def back(c, x, y):
    c.setFillColor("#1a1a1a")
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setStrokeColor("#fbf8f0")
    c.setLineWidth(1.2 * mm)
    c.circle(x + W / 2, y + H / 2, 18 * mm, stroke=1, fill=0)


def marks(c, xs, ys):
    c.setStrokeColor("#000000")
    c.setLineWidth(0.25)
    for x in xs:
        c.line(x, ys[0] - B - 6 * mm, x, ys[0] - B - 1 * mm)
        c.line(x, ys[-1] + B + 1 * mm, x, ys[-1] + B + 6 * mm)
    for y in ys:
        c.line(xs[0] - B - 6 * mm, y, xs[0] - B - 1 * mm, y)
        c.line(xs[-1] + B + 1 * mm, y, xs[-1] + B + 6 * mm, y)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    pdfmetrics.registerFont(TTFont("Regular", str(FONTS / "BIZUDPGothic-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("Bold", str(FONTS / "BIZUDPGothic-Bold.ttf")))
    deck = [(n, t, col) for n, t, col, k in CARDS for _ in range(k)]
    x0, y0 = (PW - 3 * (W + 2 * B)) / 2 + B, (PH - 3 * (H + 2 * B)) / 2 + B
    slots = [(x0 + col * (W + 2 * B), y0 + (2 - row) * (H + 2 * B)) for row in range(3) for col in range(3)]
    home = canvas.Canvas(str(out / "numbers.pdf"), pagesize=(PW, PH))
    for start in range(0, len(deck), 9):
        chunk = deck[start:start + 9]
        xs = sorted({x for x, _ in slots} | {x + W for x, _ in slots})
        ys = sorted({y for _, y in slots} | {y + H for _, y in slots})
        for (n, t, col), (x, y) in zip(chunk, slots):
            front(home, x, y, n, t, col)
        marks(home, xs, ys)
        home.showPage()
        for i in range(len(chunk)):
            x, y = slots[i]
            back(home, PW - x - W, y)  # mirrored for long-edge duplex
        marks(home, [PW - x for x in xs][::-1], ys)
        home.showPage()
    home.save()
    shop = canvas.Canvas(str(out / "numbers-shop.pdf"), pagesize=(W + 2 * B, H + 2 * B))
    for n, t, col in deck:
        front(shop, B, B, n, t, col)
        shop.showPage()
        back(shop, B, B)
        shop.showPage()
    shop.save()
    unique = canvas.Canvas(str(out / "numbers-unique.pdf"), pagesize=(W + 2 * B, H + 2 * B))
    rows = []
    for i, (n, t, col, k) in enumerate(CARDS):
        front(unique, B, B, n, t, col)
        unique.addPageLabel(2 * i, prefix=f"{t} ×{k} ")
        unique.showPage()
        back(unique, B, B)
        unique.showPage()
        rows.append(["numbers-unique.pdf", 2 * i + 1, "numbers", i + 1, t, k])
    unique.save()
    buf = io.StringIO()
    csv.writer(buf).writerows([["file", "page", "deck", "piece", "name", "quantity"], *rows])
    (out / "order.csv").write_text(buf.getvalue(), encoding="utf-8")
    every = canvas.Canvas(str(out / "bench-all.pdf"), pagesize=(PW, PH))
    for start in range(0, len(deck), 9):
        chunk = deck[start:start + 9]
        for (n, t, col), (x, y) in zip(chunk, slots):
            front(every, x, y, n, t, col)
        every.showPage()
        for i in range(len(chunk)):
            x, y = slots[i]
            back(every, PW - x - W, y)
        every.showPage()
    every.setFont("Regular", 12)
    every.drawString(20 * mm, PH - 20 * mm, "部品表")
    for i, (_, t, _, k) in enumerate(CARDS):
        every.drawString(20 * mm, PH - (30 + 7 * i) * mm, f"{t}  ×{k}")
    every.showPage()
    every.save()
    manifest = {"decks": [{"id": "numbers", "count": len(deck), "faces": len(CARDS)}],
                "files": sorted(p.name for p in out.iterdir())}
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
