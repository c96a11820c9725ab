"""A synthetic deck of vertical text (縦書き) with ruby, for the cost of ``m.tate_box()``: N karuta
読み札, each a verse of three columns set by the template macro, with seven rubies (a mono ruby,
a group ruby spread 1:2:1, a jukugo ruby, readings reaching over kana), a 縦中横 number, a Latin
run turned as one word, brackets, ー, small kana and 、。 — what docs/data-format.md's vertical
text allows. No art: the figure is the faces' drawing.

    python bench/tate_deck.py N DIR     # writes a workspace into DIR (data/, templates/, fonts/)
    cd DIR && PNPGEN_CACHE=off pnpgen build --game tate --jobs 1 --no-rulebook

ruby46 measured 200 such cards at 4.3–4.5 CPU-s cold (``--jobs 1``, on main before tate46);
docs/speed-rounds.md, round tate46, has the figures before and after each piece was drawn in one call.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SLUG = "tate"

GAME = """\
title: 縦書きかるた
draft: 1
players: 2-6
date: 2026-12-07
palette:
  ink: "#1a1a1a"
  paper: "#fbf8f0"
  red: "#b03030"
"""
DECK = """\
name: 読み札
format: karuta
front: verse.svg.j2
back: back.svg.j2
fields: {lines: list}
pieces:
"""
FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.ground(colour('paper')) }}
{{ m.tate_box(piece.lines, 6, 8, w - 12, h - 16, size=11, font="mincho", ink=colour('ink'), line_height=1.8, align="center", step=4) }}
{% endblock %}
"""
BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ colour('red') }}"/>
{% endblock %}
"""
# Seven rubies a verse: two in the first column, three in the second, two in the third.
FIRST = ["{朝顔|あさがお}に{釣瓶|つるべ}とられて", "「{春|はる}の{夜|よ}」の夢ばかりなる",
         "{山|やま}{里|ざと}は冬ぞさびしさ", "{東京|とう|きょう}へ{急|いそ}ぐ朝"]
SECOND = ["{嵐|あらしの}が{吹|ふ}く{峰|みね}", "ちょっと{待|ま}って{光速|ライトスピード}で{走|はし}る",
          "{紅葉|もみじ}の{錦|にしき}{神|かみ}のまにまに", "{CPU|シーピーユー}と{遊|あそ}ぶ{夏|なつ}"]
THIRD = ["{月|つき}{見|み}れば{number}番目、", "もらひ{水|みず}", "Game Overまで{number}{秒|びょう}ー",
         "{花|はな}の{色|いろ}は{number}回。"]


def verse(i: int) -> list[str]:
    """Card i's three columns (a different verse for every i: its number and the lines' choice)."""
    number = str(10 + i % 90)
    n = len(FIRST)
    return [FIRST[i % n], SECOND[(i // n) % n], THIRD[(i // (n * n)) % n].replace("{number}", number)]


def deck_yaml(n: int) -> str:
    rows = []
    for i in range(1, n + 1):
        lines = ", ".join(f"'{line}'" for line in verse(i))
        rows.append(f"  - {{lines: [{lines}]}}\n")
    return DECK + "".join(rows)


def workspace(n: int, root: Path) -> Path:
    """A workspace in ``root`` with the game ``tate`` of ``n`` distinct verse cards, no art."""
    game = root / "data" / SLUG
    (game / "decks").mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "decks" / "verses.yaml").write_text(deck_yaml(n), encoding="utf-8")
    templates = root / "templates" / SLUG
    templates.mkdir(parents=True)
    (templates / "verse.svg.j2").write_text(FRONT, encoding="utf-8")
    (templates / "back.svg.j2").write_text(BACK, encoding="utf-8")
    (root / "fonts").symlink_to(REPO / "fonts")
    return root


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python bench/tate_deck.py N DIR")
    workspace(int(sys.argv[1]), Path(sys.argv[2]))
