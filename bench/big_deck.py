"""A synthetic illustrated deck for the scaling figures of bench/run.py: N distinct poker cards,
each with its own 600×840 PNG made here (no downloads), counts 1–3, one shared back.

    python bench/big_deck.py N DIR      # writes a workspace into DIR (data/, templates/, fonts/)
    cd DIR && pnpgen build --game big
    python bench/big_deck.py N DIR --text   # N distinct text cards, no art (game ``text``)

The art of card i is a two-colour gradient with a disc, a band, a ring and a soft grain, placed
from i, so every PNG is different (distinct content hashes, distinct image streams) and weighs
what painted art weighs (about 0.3 MB each), neither a flat colour nor noise. The pictures are made once per N in a
folder the caller may keep between runs (``art_cache``), so setting up a bench is quick.
"""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SLUG = "big"
ART_SIZE = (600, 840)  # 300 dpi over 50.8×71.1 mm: the 50×60 mm art box, covered, prints at 304 dpi

GAME = """\
title: 大きなデッキ
draft: 1
players: 2-4
date: 2026-12-01
palette:
  ink: "#1a1a1a"
  paper: "#fbf8f0"
"""
DECK = """\
name: 絵札
format: poker
front: card-front.svg.j2
back: card-back.svg.j2
fields: {title: text, rule: text, art: image}
pieces:
"""
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ colour('paper') }}"/>
{{ image(piece.art, (w - 50) / 2, 4, 50, 60, fit="cover") }}
{{ textbox(piece.title, 4, 66, w - 8, 8, size=12, font="bold", align="center", fill=colour('ink')) }}
{{ textbox(piece.rule, 5, 75, w - 10, 9, size=8, min_size=6, align="center", fill=colour('ink')) }}
{% endblock %}
"""
BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ colour('ink') }}"/>
<circle cx="{{ w / 2 }}" cy="{{ h / 2 }}" r="18" fill="none" stroke="{{ colour('paper') }}" stroke-width="1.2"/>
{% endblock %}
"""
KANA = "あかさたなはまやらわいきしちにひみりうくすつぬふむゆる"


def title(i: int) -> str:
    return f"{KANA[i % len(KANA)]}{KANA[(i // len(KANA)) % len(KANA)]}の札{i}"


def rule(i: int) -> str:
    return f"カードを{i % 3 + 1}枚引く。"


def count(i: int) -> int:
    return i % 3 + 1


def deck_yaml(n: int, edited: int | None = None, counted: int | None = None) -> str:
    """The deck file; ``edited`` changes one card's rule text, ``counted`` one card's count."""
    lines = []
    for i in range(1, n + 1):
        text = rule(i) + ("(改)" if i == edited else "")
        k = count(i) + (1 if i == counted else 0)
        lines.append(f"  - {{title: {title(i)}, rule: {text}, art: card-{i:05d}.png, count: {k}}}\n")
    return DECK + "".join(lines)


def picture(i: int):
    """Card i's art: a gradient between two colours from i, a disc, a band and a ring."""
    from PIL import Image, ImageChops, ImageDraw

    w, h = ART_SIZE
    a = ((i * 67) % 256, (i * 131 + 40) % 256, (i * 29 + 90) % 256)
    b = ((i * 13 + 200) % 256, (i * 71 + 10) % 256, (i * 191 + 160) % 256)
    ramp = Image.linear_gradient("L").resize((w, h))
    im = Image.composite(Image.new("RGB", (w, h), b), Image.new("RGB", (w, h), a), ramp)
    d = ImageDraw.Draw(im)
    cx, cy, r = 100 + (i * 37) % 400, 120 + (i * 53) % 600, 60 + i % 90
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=b[::-1])
    y = (i * 97) % (h - 80)
    d.rectangle((0, y, w, y + 40 + i % 40), fill=a[::-1])
    d.ellipse((w - cx - r, h - cy - r, w - cx + r, h - cy + r), outline=(255, 255, 255), width=6 + i % 8)
    # a soft grain, as brushwork or paper gives (seeded by i: the same picture on every run)
    grain = Image.frombytes("L", (75, 105), random.Random(i).randbytes(75 * 105)).point(lambda v: 116 + v // 10)
    return ImageChops.add(im, grain.resize((w, h), Image.BILINEAR).convert("RGB"), 1, -128)


def make_art(n: int, folder: Path) -> None:
    """``card-00001.png`` … in ``folder``, made only where missing (kept between runs)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(1, n + 1):
        path = folder / f"card-{i:05d}.png"
        if not path.is_file():
            tmp = path.with_suffix(".tmp")
            picture(i).save(tmp, "PNG", compress_level=1)  # quick to make; pnpgen reads it as any PNG
            tmp.rename(path)


def workspace(n: int, root: Path, art_cache: Path | None = None, pictures: bool = True) -> Path:
    """A workspace in ``root`` with the game ``big`` of ``n`` distinct cards; the art is made in
    (or hard-linked from) ``art_cache`` when given. ``pictures=False`` leaves art/ empty (for
    ``pnpgen list``, which never opens the art)."""
    art_cache = art_cache or root / "art-cache"
    if pictures:
        make_art(n, art_cache)
    game = root / "data" / SLUG
    (game / "decks").mkdir(parents=True)
    (game / "art").mkdir()
    for i in range(1, n + 1 if pictures else 1):
        name = f"card-{i:05d}.png"
        try:  # a hard link: pnpgen refuses links leading out of art/, and copies cost time
            os.link(art_cache / name, game / "art" / name)
        except OSError:
            shutil.copyfile(art_cache / name, game / "art" / name)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "decks" / "cards.yaml").write_text(deck_yaml(n), encoding="utf-8")
    templates = root / "templates" / SLUG
    templates.mkdir(parents=True)
    (templates / "card-front.svg.j2").write_text(FRONT, encoding="utf-8")
    (templates / "card-back.svg.j2").write_text(BACK, encoding="utf-8")
    common = REPO / "templates" / "common"
    if common.is_dir():
        shutil.copytree(common, root / "templates" / "common")
    (root / "fonts").symlink_to(REPO / "fonts")
    return root


TEXT_SLUG = "text"


def text_deck_yaml(n: int, edited: int | None = None) -> str:
    """``n`` distinct text cards of the built-in poker layout, counts 1–2 (5,000 cards: 7,500 copies,
    under the deck's 10,000); ``edited`` changes one card's text."""
    rows = "".join(f"  - {{title: 札{i}, text: カードを{i % 3 + 1}枚引く。{i}{'(改)' if i == edited else ''}, "
                   f"count: {i % 2 + 1}}}\n" for i in range(1, n + 1))
    return f"name: 札\nlayout: card-poker\npieces:\n{rows}"


def text_workspace(n: int, root: Path) -> Path:
    """A workspace in ``root`` with the game ``text``: ``n`` distinct text cards, no art, no
    template (the memory figures beyond the illustrated deck's sizes)."""
    (root / "data" / TEXT_SLUG / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "data" / TEXT_SLUG / "game.yaml").write_text("title: 文字札\ndraft: 1\nplayers: 2\ndate: 2026-12-01\n",
                                                       encoding="utf-8")
    (root / "data" / TEXT_SLUG / "decks" / "many.yaml").write_text(text_deck_yaml(n), encoding="utf-8")
    return root


def text_edit(root: Path, n: int, edited: int) -> None:
    (root / "data" / TEXT_SLUG / "decks" / "many.yaml").write_text(text_deck_yaml(n, edited), encoding="utf-8")


def edit(root: Path, n: int, edited: int | None = None, counted: int | None = None) -> None:
    (root / "data" / SLUG / "decks" / "cards.yaml").write_text(deck_yaml(n, edited, counted), encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--text"]):
        sys.exit("usage: python bench/big_deck.py N DIR [--text]")
    if sys.argv[3:]:
        text_workspace(int(sys.argv[1]), Path(sys.argv[2]))
    else:
        workspace(int(sys.argv[1]), Path(sys.argv[2]))
