"""Findings from a game a designer built from the docs alone ("harbor": cards, a 25 mm token, a
280×200 mm board): the components list draws its pictures at one scale, the index sees every
【term】 of the rules, kanji counts in the draft are read, proof.txt names the draft file."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import GAME_YAML, make_workspace
from pdfprobe import placements, texts
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.rulebook import build_rulebook, pictures_from_game
from pnpgen.rulebook.parse import parse_component_heading
from pnpgen.rulebook.piecepics import form_name
from pnpgen.rulebook.tree import kanji_number

REPO = Path(__file__).resolve().parents[2]
PT = 72 / 25.4

TOKEN = """\
name: 船トークン
kind: token
shape: circle
size: 25
front: ship-front.svg.j2
fields: {number: int}
pieces:
  - {number: 1, count: 4}
  - {number: 2, count: 4}
"""
BOARD = """\
name: 得点ボード
kind: board
size: [280, 200]
front: board-front.svg.j2
fields: {}
pieces:
  - {}
"""
PLAIN = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#d9c08c"/>
{% endblock %}
"""
DRAFT = """■■　テストゲーム　草案３

■　概要

　港の商人となって得点を競う。

■　コンポーネント

◇テストカード（１１枚）
　名前と本文が書かれたカードです。
◇船トークン（{ships}）
　数字の書かれた丸いトークン。
◇得点ボード（１枚）
　【名声】を記録するボード。

■　手番

１：【航海】の準備
　手番では次の順に行う。
◎【積荷】
　商品を積む。
【売値】：港で売る値段。
・港に着いたら商品を売る。
"""


def harbor(root: Path, ships: str = "８枚") -> Path:
    ws = make_workspace(root, game=GAME_YAML)
    game = ws / "data" / "test"
    (game / "decks" / "ships.yaml").write_text(TOKEN, encoding="utf-8")
    (game / "decks" / "board.yaml").write_text(BOARD, encoding="utf-8")
    for name in ("ship-front.svg.j2", "board-front.svg.j2"):
        (ws / "templates" / "test" / name).write_text(PLAIN, encoding="utf-8")
    (game / "draft.txt").write_text(DRAFT.format(ships=ships), encoding="utf-8")
    return ws


def book(ws: Path):
    game = load_game(Workspace(ws), "test")
    return game, build_rulebook(game, REPO / "fonts", pictures=pictures_from_game(game, ws / "templates"))


@pytest.fixture(scope="module")
def harbor_book(tmp_path_factory):
    ws = harbor(tmp_path_factory.mktemp("harbor") / "ws")
    return book(ws)


# The faces' forms are named by a hash of the deck id (rulebook/piecepics.py form_name): read as face-<deck>-<side>
READABLE = {form_name(d, side): f"face-{d}-{side}" for d in ("cards", "ships", "board") for side in ("front", "back")}


def drawn_faces(pdf: bytes) -> list[tuple[int, str, float, float]]:
    """(page, face-<deck>-<side>, width, height in mm as drawn) of every deck face a page places."""
    reader = PdfReader(io.BytesIO(pdf))
    out = []
    for n, page in enumerate(reader.pages):
        xobjects = page["/Resources"].get("/XObject") or {}
        for placed, ctm in placements(reader, page):
            if placed.startswith("/FormXob.face-"):
                x0, y0, x1, y1 = (float(v) for v in xobjects[placed].get_object()["/BBox"])
                name = placed.removeprefix("/FormXob.")
                out.append((n, READABLE.get(name, name), (x1 - x0) * math.hypot(ctm[0], ctm[1]) / PT,
                            (y1 - y0) * math.hypot(ctm[2], ctm[3]) / PT))
    return out


def components_faces(pdf: bytes) -> dict[str, tuple[int, float, float]]:
    """The faces of the components list (the cover's fanned faces left out), by form name."""
    return {name: (page, w, h) for page, name, w, h in drawn_faces(pdf) if page > 0}


# ---------------------------------------------------------------- 1. one scale for the pictures


def test_components_pictures_share_one_scale_never_above_actual_size(harbor_book):
    game, result = harbor_book
    faces = components_faces(result.files["rulebook.pdf"])
    trims = {d.id: d.trim_mm for d in game.decks}
    scales = {name: w / trims[name.split("-")[1]][0] for name, (_, w, _) in faces.items()}
    pieces = {s for name, s in scales.items() if name.startswith("face-cards")}
    assert set(faces) == {"face-cards-front", "face-cards-back", "face-ships-front", "face-board-front"}
    (common,) = {round(s, 4) for s in pieces}  # one scale for the cards' two sides
    n = round(1 / common)
    assert common < 1 and math.isclose(common, 1 / n, rel_tol=1e-3)
    # a 25 mm token is drawn at its actual size, so that its text reads, captioned so; still
    # smaller than the 63 mm card at 1/2
    assert math.isclose(scales["face-ships-front"], 1, rel_tol=1e-3)
    assert "実物大" in texts(result.files["rulebook.pdf"])[faces["face-ships-front"][0]]
    assert faces["face-ships-front"][1] < faces["face-cards-front"][1]
    # the board is smaller still, and says so under its picture; the section states the scale
    board = scales["face-board-front"]
    m = round(1 / board)
    assert board < common and math.isclose(board, 1 / m, rel_tol=1e-3)
    pages = texts(result.files["rulebook.pdf"])
    assert f"図は実物の1/{n}の大きさです" in re.sub(r"\s", "", pages[faces["face-cards-front"][0]])  # (和欧間: 1/2 stands apart)
    assert f"縮尺 1/{m}" in pages[faces["face-board-front"][0]]


def test_a_game_of_small_pieces_is_pictured_at_actual_size(tmp_path):
    """Tokens alone: never enlarged; the section says the pictures are at actual size."""
    ws = harbor(tmp_path / "ws")
    game_dir = ws / "data" / "test"
    (game_dir / "decks" / "cards.yaml").unlink()
    (game_dir / "decks" / "board.yaml").unlink()
    _, result = book(ws)
    faces = components_faces(result.files["rulebook.pdf"])
    assert set(faces) == {"face-ships-front"}
    assert math.isclose(faces["face-ships-front"][1], 25, abs_tol=0.01)
    assert "図は実物大です。" in "".join(texts(result.files["rulebook.pdf"]))
    cover = [(w, h) for page, name, w, h in drawn_faces(result.files["rulebook.pdf"]) if page == 0]
    assert cover and all(w <= 25 + 0.01 and h <= 25 + 0.01 for w, h in cover)  # the cover does not enlarge them


# ---------------------------------------------------------------- 2. the index sees every term


def test_the_index_lists_every_page_a_term_of_the_rules_is_on(harbor_book):
    _, result = harbor_book
    pages = [re.sub(r"\s", "", t) for t in texts(result.files["rulebook.pdf"])]
    index = next(i for i, t in enumerate(pages) if t.startswith("索引") or "索引索引" in t[:12])
    quick = next(i for i, t in enumerate(pages) if "早見表早見表" in t[:30] or t.startswith("早見表"))
    for term in ("名声", "航海", "積荷", "売値"):
        m = re.search(rf"{term}([\d、]+)", pages[index])  # (the index prints the term without its 【】)
        assert m, (term, pages[index])
        listed = {int(p) for p in m.group(1).split("、")}
        rules = {i + 1 for i, t in enumerate(pages[:quick]) if i > 1 and f"【{term}】" in t}
        assert listed == rules, term  # the component's description (名声), a step (航海) …
    # a term in the quick reference only repeats a step: its page is not listed
    assert "【航海】" in pages[quick]
    assert str(quick + 1) not in re.search(r"航海([\d、]+)", pages[index]).group(1).split("、")


# ---------------------------------------------------------------- 3. kanji counts


@pytest.mark.parametrize("text, n", [("三", 3), ("十", 10), ("十二", 12), ("二十四", 24), ("百五", 105),
                                     ("二〇", 20), ("〇", 0), ("零", 0), ("千二百", 1200)])
def test_kanji_numerals_read_as_numbers(text, n):
    assert kanji_number(text) == n


@pytest.mark.parametrize("heading, counts, units", [
    ("船トークン（三枚）", [3], ["枚"]), ("船トークン（８枚）", [8], ["枚"]), ("船トークン（8枚）", [8], ["枚"]),
    ("カード（二十四枚）", [24], ["枚"]), ("ボード、マーカー（一枚／四個）", [1, 4], ["枚", "個"]),
    ("キューブ（各五個）", [5], ["個"]), ("ダイス（二）", [2], [""]), ("トークン（三つ巴）", [], []),
])
def test_component_counts_in_kanji_digits_or_full_width(heading, counts, units):
    c = parse_component_heading(heading)
    assert (c.counts, c.units) == (counts, units)


def test_a_kanji_count_that_differs_from_the_data_is_reported_and_its_counter_kept(tmp_path):
    game, result = book(harbor(tmp_path / "ws", ships="三枚"))
    draft = game.root / "draft.txt"
    line = DRAFT.split("\n").index("◇船トークン（{ships}）") + 1
    assert any(w.startswith(f"{draft}:{line}: count of 船トークン differs: the draft states 3")
               for w in result.warnings), result.warnings
    proof = result.files["proof.txt"].decode("utf-8")
    assert f"個数\t{draft}:{line}: 船トークン：草案は3、データは8枚" in proof
    flat = re.sub(r"\s", "", "".join(texts(result.files["rulebook.pdf"])))
    assert "船トークン8枚" in flat and "船トークン8個" not in flat  # the draft's counter word, not the data's


def test_a_kanji_count_that_agrees_is_no_finding(tmp_path):
    _, result = book(harbor(tmp_path / "ws", ships="八枚"))
    assert not [w for w in result.warnings if "船トークン" in w]
    assert "船トークン" not in result.files["proof.txt"].decode("utf-8")


# ---------------------------------------------------------------- 4. proof.txt: path:line


def test_every_count_and_open_finding_in_proof_txt_names_its_file_and_line(tmp_path):
    ws = harbor(tmp_path / "ws", ships="９枚")
    cards = ws / "data" / "test" / "decks" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("text: 本文カード3", "text: 未定"), encoding="utf-8")
    game, result = book(ws)
    lines = result.files["proof.txt"].decode("utf-8").splitlines()[2:]
    kinds = {line.split("\t")[0] for line in lines}
    assert {"個数", "未定"} <= kinds
    for line in lines:
        kind, text = line.split("\t", 1)
        if kind in ("個数", "未定"):
            assert re.match(r"/\S+\.(txt|yaml):\d+(:\d+)?: ", text), line
