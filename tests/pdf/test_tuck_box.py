"""The built-in ``tuck-box`` layout (shape: tuckbox): its net measured in mm from the PDFs a build
writes — the die line's extent and area, the fold lines on the panels' edges, dashed and never
cut, the titles turned as the folded box shows them — its size from a card count or a thickness,
a box too big for the paper told in one line, and the same bytes from the same data."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from test_shapes_probe import dist_point_polyline, page_paths

from conftest import DECK_YAML, make_workspace, run
from pdfprobe import PT, glyphs
from pnpgen.boxnet import TuckBox
from pnpgen.data.tuckbox import tuck_box
from pnpgen.data.validate import Invalid
from pnpgen.errors import InputError
from pnpgen.shapes import point_in_polygon

BOX = """\
name: 箱
layout: tuck-box
pieces:
  - {title: AZ, text: 本文}
"""
# A 60-card poker deck (the layout's default), figures worked out by hand: 63×88 cards with 1 mm
# of play, 60 × 0.3 mm + 1 mm deep, tuck flaps 10 mm deeper than the box, 10 mm glue flap,
# dust flaps as deep as the box, 3 mm chamfers, an 8 mm thumb notch.
W, H, D, T, G, F, C, R = 64.0, 89.0, 19.0, 29.0, 10.0, 19.0, 3.0, 8.0
Y1, Y2 = T + D, T + D + H  # the wrap's top and bottom edges


def _build(root: Path, *more: str) -> int:
    return run(root, "build", "--game", "test", "--no-rulebook", "--jobs", "1", *more)


@pytest.fixture(scope="module")
def box(tmp_path_factory) -> Path:
    root = make_workspace(tmp_path_factory.mktemp("tuckbox") / "ws", deck=BOX)
    assert _build(root) == 0
    return root / "build" / "test"


def _dashed_lines(pdf: Path) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The dashed straight segments a face draws, in mm from its trim's top-left corner."""
    reader = PdfReader(pdf)
    page = reader.pages[0]
    trim = page.trimbox
    form = next(iter(page["/Resources"]["/XObject"].values())).get_object()
    ctm, stack = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), []
    dashed, out, start = False, [], None

    def at(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        px, py = a * x + c * y + e, b * x + d * y + f
        return round((px - float(trim.left)) * PT, 3), round((float(trim.top) - py) * PT, 3)

    for operands, op in ContentStream(form, reader).operations:
        if op == b"q":
            stack.append((ctm, dashed))
        elif op == b"Q":
            ctm, dashed = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            A, B, Cc, Dd, E, Fv = ctm
            ctm = (a * A + b * Cc, a * B + b * Dd, c * A + d * Cc, c * B + d * Dd, e * A + f * Cc + E, e * B + f * Dd + Fv)
        elif op == b"d":
            dashed = len(operands[0]) > 0
        elif op == b"m" and dashed:
            start = at(*(float(v) for v in operands))
        elif op == b"l" and dashed and start is not None:
            end = at(*(float(v) for v in operands))
            out.append((start, end))
            start = end
    return out


def _die_line(pdf: Path) -> list[tuple[float, float]]:
    reader = PdfReader(pdf)
    strokes = [p for p in page_paths(reader, reader.pages[0], samples=24) if p.kind == "stroke" and len(p.points) > 20]
    assert len(strokes) == 1
    return strokes[0].points


def _area(pts: list[tuple[float, float]]) -> float:
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))) / 2


def test_the_die_line_is_the_net_outline(box):
    """The shop's die file: one closed cut path as big as the net, enclosing its panels and
    flaps less the chamfers and the thumb notch (the area worked out panel by panel)."""
    pts = _die_line(box / "shop" / "cards-die.pdf")
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    assert max(xs) - min(xs) == pytest.approx(2 * W + 2 * D + G, abs=0.01)  # 176
    assert max(ys) - min(ys) == pytest.approx(H + 2 * D + 2 * T, abs=0.01)  # 185
    g = C / 2  # a dust flap's side tapers in by half the chamfer
    dust = D * F - 2 * (g * (F - C) / 2 + g * C + C * C / 2)
    expected = ((2 * W + 2 * D) * H + (G * H - C * G) + 2 * (W * (D + T) - C * C) + 4 * dust
                - math.pi * R * R / 2)
    assert _area(pts) == pytest.approx(expected, abs=0.5)
    # the thumb notch: the front's top edge dips 8 mm at its middle
    x0, y0 = min(xs), min(ys)
    middle = [y - y0 for x, y in pts if abs(x - x0 - (W + D + W / 2)) < 0.3]
    assert max(middle) == pytest.approx(Y1 + R, abs=0.05)


def test_the_folds_lie_on_panel_edges_and_are_not_cut(box):
    """Every fold line of the printed face is dashed, where the panels meet, its ends on the die
    line and its middle inside it (scored, never cut); the home sheet holds the same outline."""
    folds = sorted(_dashed_lines(box / "shop" / "cards-unique.pdf"))
    expected = sorted([((W, Y1), (W, Y2)), ((W + D, Y1), (W + D, Y2)), ((2 * W + D, Y1), (2 * W + D, Y2)),
                       ((2 * W + 2 * D, Y1), (2 * W + 2 * D, Y2)), ((0, T), (W, T)), ((0, Y1), (W + D, Y1)),
                       ((2 * W + D, Y1), (2 * W + 2 * D, Y1)), ((W, Y2), (2 * W + 2 * D, Y2)),
                       ((W + D, Y2 + D), (2 * W + D, Y2 + D))])
    assert folds == pytest.approx(expected, abs=0.01)
    die = _die_line(box / "shop" / "cards-die.pdf")
    x0, y0 = min(p[0] for p in die), min(p[1] for p in die)
    outline = [(x - x0, y - y0) for x, y in die]
    for a, b in folds:
        assert dist_point_polyline(a, outline) < 0.02 and dist_point_polyline(b, outline) < 0.02, (a, b)
        middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        assert point_in_polygon(middle, outline) and dist_point_polyline(middle, outline) > 1, (a, b)
    home = _die_line(box / "cards.pdf")  # on A4, whole
    assert _area(home) == pytest.approx(_area(die), abs=0.01)


def test_the_titles_read_as_the_folded_box_shows_them(box):
    """The front reads left to right; the top is turned half round (read from above, the front
    towards you, its letters' tops towards the back's edge); both spines read downwards."""
    page = [g for g in glyphs(box / "shop" / "cards-unique.pdf")[0] if g.char in "AZ"]
    bleed = 3.0

    def panel(x0: float, y0: float, w: float, h: float) -> dict[str, tuple[float, float]]:
        found = {g.char: (g.x - bleed, g.y - bleed) for g in page
                 if x0 <= g.x - bleed <= x0 + w and y0 <= g.y - bleed <= y0 + h}
        assert set(found) == {"A", "Z"}, (x0, y0, found)
        return found

    front = panel(W + D, Y1, W, 30)
    assert front["A"][0] < front["Z"][0] and front["A"][1] == pytest.approx(front["Z"][1])
    top = panel(0, T, W, D)
    assert top["A"][0] > top["Z"][0] and top["A"][1] == pytest.approx(top["Z"][1])
    for x in (W, 2 * W + D):  # the left and right sides
        spine = panel(x, Y1, D, H)
        assert spine["A"][1] < spine["Z"][1] and spine["A"][0] == pytest.approx(spine["Z"][0])


class _Said:
    """A value as a deck writes it, for data.tuckbox.tuck_box (layouts.Origin's part it uses)."""

    def __init__(self, value):
        self.value = value

    def parse(self, parse, *args):
        try:
            return parse(self.value, *args)
        except Invalid as e:
            raise InputError(e.message, expected=e.expected) from None

    def error(self, message, expected=None, key=False):
        return InputError(message, expected=expected)


def _box(**given):
    return tuck_box({k: _Said(v) for k, v in given.items()})


def test_the_depth_from_a_card_count_or_a_thickness():
    assert _box().d == pytest.approx(60 * 0.3 + 1)  # the defaults: 60 cards of 0.3 mm, 1 mm of play
    assert _box(count=40, card_thickness="0.5mm").d == pytest.approx(21)  # 40 sleeved cards
    assert _box(thickness="0.8in", allowance=0).d == pytest.approx(20.32)
    b = _box(cards=[2.5, 3.5], count=54)  # a number without a unit is mm: a 2.5 × 3.5 mm card…
    assert (b.w, b.h) == pytest.approx((3.5, 4.5))
    b = _box(cards="tarot", count=78, allowance="2mm")
    assert (b.w, b.h, b.d, b.tuck) == pytest.approx((72, 122, 78 * 0.3 + 2, 78 * 0.3 + 2 + 10))
    with pytest.raises(InputError, match=r"'cards: \[63, 88\]'"):  # as a shop writes a size
        _box(cards="63x88")
    with pytest.raises(InputError, match="both thickness and count"):
        _box(count=50, thickness=20)
    with pytest.raises(InputError, match="more than half the box's width"):
        _box(dust=40)
    with pytest.raises(InputError, match="the box.s net would be 4140×4180 mm"):
        _box(count=5000, card_thickness="0.4mm")


def test_a_deck_gives_its_box_in_yaml_and_the_net_follows(tmp_path):
    """A deck's own box: over the layout's (a thickness replacing its count); letter paper."""
    deck = BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {cards: bridge, thickness: 12mm, notch: 0}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert _build(root, "--paper", "letter") == 0
    pts = _die_line(root / "build" / "test" / "cards.pdf")
    w, h, d = 58.0, 90.0, 13.0
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    assert (max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx((2 * w + 2 * d + G, h + 2 * d + 2 * (d + 10)))


def test_a_box_too_big_for_the_paper_says_what_would_fit(tmp_path, capsys):
    deck = BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {cards: tarot, count: 200, tuck: 60}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert _build(root) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "decks/cards.yaml:3:" in err and "deck 'cards'" in err and "does not fit on A4" in err
    # trial64: it offered --paper a3, which moves every deck (and a printer profile's paper refuses
    # it): the deck file's paper: moves the box alone; --paper is offered only where --paper was given
    assert "expected paper: a3 in its deck file (its net fits there), or a box at most" in err
    assert _build(root, "--paper", "a4") == 2 and "expected --paper a3 (its net" in capsys.readouterr().err
    deep = float(err.split("at most ")[1].split(" mm deep")[0])
    assert 15 < deep < 25
    # what it offers is so: a box that deep (with these flaps) builds on A4
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        deck.replace("count: 200", f"thickness: {deep - 1:g}mm"), encoding="utf-8")
    assert _build(root) == 0


def test_a_box_too_big_for_its_decks_own_paper_offers_paper_and_a_shallower_box(tmp_path, capsys):
    """A box deck with its own ``paper: a4``: the net's error as without it, offering the deck file's
    ``paper: a3`` (not --paper, which moves every deck) and a shallower box; it said only 'one of a3'
    at paper:, as for a card too large, losing the box it could be."""
    deck = BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {cards: tarot, count: 200, tuck: 60}\npaper: a4\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert _build(root) == 2
    err = capsys.readouterr().err.strip()
    assert "decks/cards.yaml:3:" in err and "its tuck box" in err and "does not fit on A4" in err
    assert "expected paper: a3 (its net fits there), or a box at most " in err and "--paper" not in err


@pytest.mark.parametrize("paper, fits", [("letter", "tabloid"), ("legal", "tabloid"), ("a4", "a3")])
def test_a_box_too_big_offers_the_paper_of_its_own_family(tmp_path, capsys, paper, fits):
    """fixesS: a Letter game's box too big was offered ``paper: a3``, a sheet its printer likely
    does not take, where Tabloid holds this 265 mm wide net too: the game's own family's paper is offered."""
    deck = BOX.replace("layout: tuck-box\n", f"layout: tuck-box\nbox: {{cards: tarot, count: 185, tuck: 60}}\npaper: {paper}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert _build(root) == 2
    err = capsys.readouterr().err
    assert f"does not fit on {paper.upper()}" in err and f"expected paper: {fits} (its net fits there)" in err, err


def test_the_same_box_builds_the_same_bytes(box, tmp_path):
    root = make_workspace(tmp_path / "ws", deck=BOX)
    assert _build(root) == 0
    for name in ("cards.pdf", "shop/cards-die.pdf", "shop/cards-unique.pdf"):
        assert (root / "build" / "test" / name).read_bytes() == (box / name).read_bytes(), name


def test_layout_list_names_the_tuck_box_with_its_net(tmp_path, capsys):
    assert run(tmp_path, "layout", "list") == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("tuck-box "))
    assert line.split()[1:4] == ["board", "tuckbox", "176×185"]


def test_a_tuck_box_exported_as_templates_builds_the_same(tmp_path, capsys):
    """``pnpgen layout export --game --deck`` writes the front and the deck lines, its ``box:``
    among them: the deck built from those builds the same files."""
    deck = BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {cards: bridge, count: 40, glue: 12}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    assert _build(root, "--out", str(tmp_path / "a")) == 0
    capsys.readouterr()
    assert run(root, "layout", "export", "--game", "test", "--deck", "cards", "--out", "templates/test/") == 0
    told = [line.strip() for line in capsys.readouterr().out.splitlines()]
    lines = [line.split("   #")[0] for line in told if line.split(":")[0] in ("kind", "shape", "box", "front", "fields")]
    assert "box: {cards: [58, 90], thickness: 13, allowance: 0, tuck: 23, glue: 12, dust: 13, chamfer: 3, notch: 8}" in lines
    (root / "data" / "test" / "decks" / "cards.yaml").write_text(
        deck.replace("layout: tuck-box\nbox: {cards: bridge, count: 40, glue: 12}\n", "\n".join(lines) + "\n"),
        encoding="utf-8")
    assert _build(root, "--out", str(tmp_path / "b")) == 0
    for name in ("cards.pdf", "shop/cards-die.pdf", "shop/cards-unique.pdf"):
        assert (tmp_path / "a" / "test" / name).read_bytes() == (tmp_path / "b" / "test" / name).read_bytes(), name


def _crossing(pts) -> bool:
    """Do two edges of the closed polygon cross (not merely meet at a shared corner)?"""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    n = len(pts)
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        for j in range(i + 2, n - (i == 0)):
            c, d = pts[j], pts[(j + 1) % n]
            if side(a, b, c) * side(a, b, d) < -1e-9 and side(c, d, a) * side(c, d, b) < -1e-9:
                return True
    return False


@pytest.mark.parametrize("cards", ["mini-american", "poker", "tarot", "square"])
def test_every_net_is_one_outline_its_bleed_too(cards):
    """From 10 to 200 cards: the die line and the outline the bleed grows from never cross
    themselves, the bleed lies 3 mm outside, and every fold ends on the die line."""
    from pnpgen.shapes import outline, shape_spec

    for count in (10, 30, 60, 120, 200):
        b = _box(cards=cards, count=count)
        spec = shape_spec("tuckbox", b.size, {"box": b.frozen()})
        cut = outline(spec, 0).points(0.05)
        bleed = outline(spec, 3.0).points(0.05)
        assert not _crossing(cut) and not _crossing(bleed), (cards, count)
        x0, y0, x1, y1 = outline(spec, 3.0).bbox()
        assert (x0, y0, x1 - b.size[0], y1 - b.size[1]) == pytest.approx((-3, -3, 3, 3))
        assert all(not point_in_polygon(p, cut) or dist_point_polyline(p, cut) < 1e-6 for p in bleed)
        for a, z in spec.folds:
            assert dist_point_polyline(a, cut) < 1e-6 and dist_point_polyline(z, cut) < 1e-6, (cards, count, a, z)


def test_a_box_for_a_deck_of_the_game_takes_its_cards_size_and_count(tmp_path):
    """``box: {deck: cards}``: the deck's pieces' size and copies, whichever file loads first (the
    box's, ``box.yaml``, comes before ``cards.yaml``); the deck's own figures still win."""
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace

    root = make_workspace(tmp_path / "ws", pieces=[f"カード{i}" for i in range(1, 41)])  # 40 poker cards
    decks = root / "data" / "test" / "decks"
    box = decks / "box.yaml"
    box.write_text(BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {deck: cards, card_thickness: 0.5mm}\n"),
                   encoding="utf-8")
    game = load_game(Workspace(root), "test")
    assert [d.id for d in game.decks] == ["box", "cards"] and game.deck("cards").count == 40
    b = TuckBox(*game.deck("box").options["box"])
    assert (b.w, b.h, b.d) == pytest.approx((64, 89, 40 * 0.5 + 1))
    assert game.deck("box").trim_mm == pytest.approx(b.size)
    for said, told in (("{deck: card}", "no deck 'card' in this game; did you mean cards?"),
                       ("{deck: box}", "a box cannot hold its own deck")):
        box.write_text(BOX.replace("layout: tuck-box\n", f"layout: tuck-box\nbox: {said}\n"), encoding="utf-8")
        with pytest.raises(InputError, match=told) as e:
            load_game(Workspace(root), "test")
        assert (e.value.path, e.value.line) == (box, 3)
    # a deck of more cards than a box holds: it read 'count 6000 is not a whole number from 1 to 5,000'
    cards = decks / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("text: 本文カード1}", "text: 本文カード1, count: 5961}"),
                     encoding="utf-8")
    box.write_text(BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {deck: cards}\n"), encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_game(Workspace(root), "test")
    assert str(e.value).endswith("box.deck: the deck it holds prints 6,000 cards, more than a box holds (expected at "
                                 "most 5,000 in one box: 'count: 5000' beside 'deck:' for a box of part of the deck)")


def test_the_rulebook_lists_a_deck_box_only_where_the_draft_names_it(tmp_path):
    """A deck's tuck box is packaging: the rulebook listed it among その他の内容物 with the pictures
    of the pieces, and the proofing report asked for it in the draft's components list."""
    root = make_workspace(tmp_path / "ws", draft=True)
    (root / "data" / "test" / "decks" / "box.yaml").write_text(BOX, encoding="utf-8")

    def book_and_proof(out: Path) -> tuple[str, str]:
        assert run(root, "rulebook", "--game", "test", "--out", str(out)) == 0
        pages = PdfReader(out / "test" / "rulebook.pdf").pages
        return "".join(p.extract_text() for p in pages), (out / "test" / "proof.txt").read_text(encoding="utf-8")

    book, proof = book_and_proof(tmp_path / "a")
    assert "草案の内容物にありません" not in proof and "「箱」" not in book and "箱 1" not in book
    draft = root / "data" / "test" / "draft.txt"  # named by the draft: listed as the draft lists it
    draft.write_text(draft.read_text(encoding="utf-8").replace("◇テストカード（１１枚）",
                                                              "◇テストカード（１１枚）\n　札です。\n\n◇箱（１枚）"),
                     encoding="utf-8")
    book, proof = book_and_proof(tmp_path / "b")
    assert "箱 1" in book and "has no deck" not in proof  # (the quick reference's components line)


def test_a_box_holding_a_deck_exported_as_templates_says_it_no_longer_follows_it(tmp_path, capsys):
    """Japanese trial: ``layout export --game --deck`` of a ``box: {deck: cards}`` wrote the box's
    figures as built (today's 40 cards), and a deck that took those lines stopped following the
    cards' count without a word."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: カード1, text: 本文, count: 40}\n")  # 40 cards
    (root / "data" / "test" / "decks" / "box.yaml").write_text(
        BOX.replace("layout: tuck-box\n", "layout: tuck-box\nbox: {deck: cards}\n"), encoding="utf-8")
    capsys.readouterr()
    assert run(root, "layout", "export", "--game", "test", "--deck", "box", "--out", "templates/test/") == 0
    box_line = next(line.strip() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("box:"))
    assert box_line.startswith("box: {cards: [64, 89], thickness: 13, allowance: 0,"), box_line  # 40 × 0.3 + 1
    assert "# the box as built for deck 'cards' as it is now: it no longer follows that deck's cards and count " \
           "(box: {deck: cards, …} in its place does)" in box_line


def test_a_tuck_box_layout_given_another_shape_is_told_at_the_shape(tmp_path, capsys):
    """``layout: tuck-box`` with ``shape: rect`` (a deck's shape over its layout's, as with other
    layouts) was a traceback: the net's size has no size: line to read again for a rect."""
    root = make_workspace(tmp_path / "ws", deck=BOX.replace("layout: tuck-box\n", "layout: tuck-box\nshape: rect\n"))
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err == ("pnpgen: error: data/test/decks/cards.yaml:3:1: shape: layout tuck-box draws a tuck box's net, which "
                   "a rect cannot be (expected no 'shape:' with layout tuck-box (it is a tuckbox), or a layout of a rect)\n")


def test_a_box_whose_text_counts_other_cards_than_its_deck_prints_is_warned_at_the_text(tmp_path, capsys):
    """The box's figures follow ``box: {deck: cards}``, its words do not: after the deck grew from
    54 cards to 60 the box still printed カード54枚, without a word. The count a box's text says is
    the designer's to write; one no count of which is the box's is warned at its line."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: カード1, text: 本文, count: 60}\n")  # 60 cards, one face
    box = root / "data" / "test" / "decks" / "box.yaml"
    piece = "  - {{title: テスト, text: \"{}\", footer: 草案3}}\n"
    head = "name: 箱\nlayout: tuck-box\nbox: {deck: cards}\npieces:\n"
    for text, told in [("カード５４枚。各自5枚配る。", "data/test/decks/box.yaml:5:24: deck 'box' piece 1 (テスト): its text "
                        "says '54枚', but the box holds 60 cards (deck 'cards' prints 60) (expected 60 there, or box: "
                        "{deck: cards, count: 54} for a box of part of that deck)"),
                       ("66 cards, deal 5 each.", "its text says '66 cards', but the box holds 60 cards (deck 'cards' "
                        "prints 60) (expected 60 there)"),
                       ("カード60枚。各自5枚配る。", None), ("2〜4人で遊ぶ。", None)]:
        box.write_text(head + piece.format(text), encoding="utf-8")
        capsys.readouterr()
        assert run(root, "check", "--game", "test") == 0
        said = [line for line in capsys.readouterr().out.splitlines() if " says " in line]
        assert (said == []) if told is None else (len(said) == 1 and told in said[0]), (text, said)


def test_a_box_holding_several_decks_counts_them_together(tmp_path, capsys):
    """A trick-taking trial: one box for three decks needed ``cards:``/``count:`` by hand, and its
    カード75枚 went stale after a count changed, without a word. ``box: {decks: [a, b, c]}`` holds
    their copies summed (the largest card each way), and its text is checked against that sum."""
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: カード1, text: 本文, count: 60}\n")
    decks = root / "data" / "test" / "decks"
    (decks / "extras.yaml").write_text(DECK_YAML + "  - {name: 追加, text: 本文, count: 10}\n", encoding="utf-8")
    (decks / "trumps.yaml").write_text(DECK_YAML.replace("poker", "bridge") + "  - {name: 切り札, text: 本文, count: 5}\n",
                                       encoding="utf-8")
    head = "name: 箱\nlayout: tuck-box\nbox: {decks: [cards, extras, trumps]}\npieces:\n"
    (decks / "box.yaml").write_text(head + "  - {title: テスト, text: \"カード75枚。\", footer: 草案3}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    assert " says " not in capsys.readouterr().out
    # trial54: a karuta box's 読み札48枚・取り札48枚 was warned as '48枚' against the 96 it holds
    (decks / "box.yaml").write_text(head + "  - {title: テスト, text: \"カード60枚・追加10枚・切り札5枚\", footer: 草案3}\n",
                                    encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0
    assert " says " not in capsys.readouterr().out
    (decks / "box.yaml").write_text(head + "  - {title: テスト, text: \"カード60枚・追加10枚\", footer: 草案3}\n",
                                    encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0
    assert "its text says '60枚', but the box holds 75 cards" in capsys.readouterr().out  # one deck left unsaid
    (decks / "box.yaml").write_text(head + "  - {title: テスト, text: \"カード75枚。\", footer: 草案3}\n", encoding="utf-8")
    assert run(root, "layout", "export", "--game", "test", "--deck", "box", "--out", "templates/test/") == 0
    box_line = next(line.strip() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("box:"))
    # poker 63 × 88 and bridge 57 × 89 (+1): the largest each way; 75 × 0.3 + 1 deep
    assert box_line.startswith("box: {cards: [64, 90], thickness: 23.5, allowance: 0,"), box_line
    assert "# the box as built for decks [cards, extras, trumps] as it is now: it no longer follows those decks' " \
           "cards and count (box: {decks: [cards, extras, trumps], …} in its place does)" in box_line
    (decks / "extras.yaml").write_text(DECK_YAML + "  - {name: 追加, text: 本文, count: 12}\n", encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0
    said = [line for line in capsys.readouterr().out.splitlines() if " says " in line]
    assert len(said) == 1 and ("data/test/decks/box.yaml:5:24: deck 'box' piece 1 (テスト): its text says '75枚', but "
                               "the box holds 77 cards (decks 'cards', 'extras', 'trumps' print 77) (expected 77 there, "
                               "or box: {decks: [cards, extras, trumps], count: 75} for a box of part of those decks)"
                               ) in said[0], said
    for wrong, told, at in [("[cards, cards]", "decks must name each deck it holds once", "3:14: box.decks"),
                            ("cards", "decks must be a list", "3:14: box.decks"),
                            # an unknown id is told at itself, the list's second entry, not at the list
                            ("[cards, nope]", "no deck 'nope' in this game", "3:22: box.decks.2"),
                            ("[cards,\n        box]", "a box cannot hold its own deck", "4:9: box.decks.2")]:
        (decks / "box.yaml").write_text(head.replace("[cards, extras, trumps]", wrong) + "  - {title: テスト}\n",
                                        encoding="utf-8")
        assert run(root, "check", "--game", "test") == 2
        err = capsys.readouterr().err
        assert err.startswith(f"pnpgen: error: data/test/decks/box.yaml:{at}: ") and told in err, err
    (decks / "box.yaml").write_text(head.replace("decks: [", "deck: cards, decks: [") + "  - {title: テスト}\n",
                                    encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    assert "box gives both deck and decks" in capsys.readouterr().err
