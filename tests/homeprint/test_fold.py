"""Fold-over sheets (issue 25, item 3): folding a sheet along its fold line puts every back on its
own front (0.05 mm), read back from the PDF; cut marks only on the outer edges; the slug says
how to fold."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from conftest import DECK_YAML, make_workspace, run
from pdfprobe import texts
from pnpgen.impose.fold import fold_page_items, layout_fold
from pnpgen.impose.grid import SheetOptions
from pnpgen.impose.plan import Strokes
from pnpgen.messages import msg
from pnpgen.shapes import Affine, mirror_x, shape_spec
from pnpgen.units import MM_PER_PT

W, H = 210.0, 297.0

ONE = ["カード1"]  # the cards beside what a test reads (the small workspace has 11)
THREE = ["カード1", "カード2", "カード3"]  # one changed among others


def forms(pdf):
    """Per page: (box mm from the top-left, determinant of the placing matrix) of each face."""
    out = []
    for page in pdfium.PdfDocument(pdf.read_bytes()):
        h = page.get_height()
        found = []
        for obj in page.get_objects(max_depth=1):
            if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
                x0, b, x1, t = obj.get_bounds()
                m = obj.get_matrix()
                found.append(((x0 * MM_PER_PT, (h - t) * MM_PER_PT, x1 * MM_PER_PT, (h - b) * MM_PER_PT), m.a * m.d - m.b * m.c))
        out.append(found)
    return out


def test_folding_puts_every_back_on_its_front(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    out = ws / "build" / "test"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    lay = manifest["decks"][0]  # the layout record merged into the deck record
    assert lay["layout"] == "fold" and lay["fold"] == "vertical"
    per = lay["pieces_per_sheet"]
    pages = forms(out / "cards.pdf")
    assert len(pages) == -(-11 // per)
    pieces = 0
    for page in pages:
        fronts = [f for f in page if f[0][0] + f[0][2] < W]  # centre left of the fold
        backs = [f for f in page if f[0][0] + f[0][2] > W]
        assert len(fronts) == len(backs) == len(page) // 2 and fronts
        for (x0, y0, x1, y1), det in backs:
            folded = (W - x1, y0, W - x0, y1)  # the right half turned over onto the left
            match = [f for f in fronts if all(abs(a - b) <= 0.05 for a, b in zip(f[0], folded))]
            assert len(match) == 1, (folded, fronts)
            assert match[0][1] * det > 0  # both print readable: no face is mirror-reversed on paper
        pieces += len(fronts)
    assert pieces == 11
    text = texts(out / "cards.pdf")
    assert all(msg("sheet.fold", "ja").replace(" ", "") in t.replace(" ", "").replace("\n", "") for t in text)


def test_fold_over_round_tokens_are_told_to_be_cut_along_their_die_lines_not_at_marks(tmp_path):
    """A game trial: fold-over damage tokens (round, no cut marks) had the slug 「…トンボで切る」
    (cut at the marks), as cards have; they are cut along the die line on the fronts' half."""
    deck = DECK_YAML.replace("format: poker", "kind: token\nshape: circle\nsize: 30") + "  - {name: 傷, count: 4}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    (page,) = [t.replace(" ", "").replace("\n", "") for t in texts(ws / "build" / "test" / "cards.pdf")]
    assert msg("sheet.fold_die", "ja").replace(" ", "") in page and "トンボで切る" not in page, page


@pytest.mark.parametrize("w, h", [(63, 88), (120, 70), (41, 63)])
def test_the_fold_maps_each_back_onto_its_front_exactly(w, h):
    lay = layout_fold(shape_spec("rect", (w, h)), SheetOptions())
    assert lay is not None
    fold = mirror_x(W) if lay.vertical else Affine(1, 0, 0, -1, 0, H)
    for i in range(lay.per_sheet):
        folded = lay.back(i).then(fold)
        expected = mirror_x(w).then(lay.front(i))  # back(u, v) behind front(w − u, v)
        for p in ((0, 0), (w, 0), (0, h), (w, h)):
            assert folded(p) == pytest.approx(expected(p), abs=1e-9)
        # the fronts stay on their side of the fold line, with their bleed
        x0, y0, x1, y1 = lay.block()
        assert (x1 + lay.bleed_mm <= lay.fold_at + 1e-9) if lay.vertical else (y1 + lay.bleed_mm <= lay.fold_at + 1e-9)


@pytest.mark.parametrize("w, h", [(63, 88), (41, 63), (120, 70)])
def test_a_last_fold_over_sheet_marks_only_the_pieces_it_holds(w, h):
    """A trial's 4 objective cards folded 3 a sheet: the second sheet's one card had the marks of
    all three slots, two empty ones marked to be cut out blank. A sheet's marks are those of the
    pieces on it, as a grid's last sheet's are (``used_part``)."""
    spec = shape_spec("rect", (w, h))
    sheet = SheetOptions()
    lay = layout_fold(spec, sheet)
    assert lay is not None and lay.per_sheet > 1
    for n in range(1, lay.per_sheet + 1):
        items = fold_page_items(lay, spec, ["f"] * n, ["b"] * n, 0.0, sheet)
        lines = [ln for it in items if isinstance(it, Strokes) for ln in it.lines]
        trims = []
        for i in range(n):
            for m in (lay.front(i), lay.back(i)):
                xs, ys = zip(*(m(p) for p in ((0, 0), (w, 0), (0, h), (w, h))))
                trims.append((min(xs), min(ys), max(xs), max(ys)))
        edges_x = {round(v, 6) for t in trims for v in (t[0], t[2])}
        edges_y = {round(v, 6) for t in trims for v in (t[1], t[3])}
        reach = lay.bleed_mm + sheet.mark_gap_mm + sheet.mark_len_mm + 1e-6
        x0, y0 = min(t[0] for t in trims) - reach, min(t[1] for t in trims) - reach
        x1, y1 = max(t[2] for t in trims) + reach, max(t[3] for t in trims) + reach
        assert lines
        for ln in lines:  # each mark on a trim line of a piece the sheet holds, and beside them
            if ln.x1 == ln.x2:
                assert round(ln.x1, 6) in edges_x, (n, ln)
            else:
                assert round(ln.y1, 6) in edges_y, (n, ln)
            assert x0 <= min(ln.x1, ln.x2) and max(ln.x1, ln.x2) <= x1 and y0 <= min(ln.y1, ln.y2) and max(ln.y1, ln.y2) <= y1, (n, ln)
        marked_x = {round(ln.x1, 6) for ln in lines if ln.x1 == ln.x2}
        marked_y = {round(ln.y1, 6) for ln in lines if ln.y1 == ln.y2}
        assert marked_x == edges_x and marked_y == edges_y  # and every trim line of theirs marked


@pytest.mark.parametrize("board", [False, True])
def test_duplex_given_with_fold_is_said_to_change_nothing_or_only_the_unfolded_decks(tmp_path, capsys, board):
    """``--layout fold --duplex short`` was taken without a word, though fold-over sheets are
    printed on one side and never turned: the flip edge applies only to a two-sided board too
    large to fold (printed as usual), which the warning names; else it says nothing changes. The
    folded sheets are the same bytes as without --duplex; --duplex none says nothing."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    if board:
        (ws / "data" / "test" / "decks" / "board.yaml").write_text(
            "name: ボード\nkind: board\nsize: [150, 200]\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
            "fields: {name: text, text: text}\npieces:\n  - {name: 盤, text: 盤}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    plain = (ws / "build" / "test" / "cards.pdf").read_bytes()
    assert "--duplex" not in capsys.readouterr().err
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold", "--duplex", "short") == 0
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if "--duplex short" in line]
    assert len(said) == 1 and said[0].startswith("pnpgen: warning: "), err
    if board:
        assert "applies only to 'board' (too large to fold" in said[0]
        assert "the fold-over sheets of 'cards' are printed on one side" in said[0]
    else:
        assert "--duplex short changes nothing with --layout fold" in said[0] and "never turned over" in said[0]
    assert (ws / "build" / "test" / "cards.pdf").read_bytes() == plain
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold", "--duplex", "none") == 0
    assert "--duplex" not in capsys.readouterr().err


def test_a_two_sided_deck_too_large_to_fold_is_named_without_duplex(tmp_path, capsys):
    """A designer trial: --layout fold (no duplex printer) with double-sided player boards over
    half the sheet printed them as duplex sheets (a backs page after each fronts page) and the
    build said only '1/sheet (grid)'; it names them now, once. One-sided decks and a game
    whose two-sided decks all fold say nothing."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    assert "too large to fold" not in capsys.readouterr().err
    (ws / "data" / "test" / "decks" / "board.yaml").write_text(
        "name: ボード\nkind: board\nsize: [150, 200]\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
        "fields: {name: text, text: text}\npieces:\n  - {name: 盤, text: 盤}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "too large to fold" in line]
    assert said == ["pnpgen: warning: --layout fold: 'board' too large to fold (a piece over half the sheet): "
                    "printed as usual, the backs on the sheet's other side (duplex, flip on the long edge); "
                    "a printer without duplex feeds the sheet again"]
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    board = next(d for d in manifest["decks"] if d["id"] == "board")
    assert board.get("layout") != "fold" and len(forms(ws / "build" / "test" / "board.pdf")) == 2


def test_the_summary_says_the_smaller_bleed_that_holds_more_fold_over_pieces(tmp_path, capsys):
    """Fold-over keeps the 3 mm bleed: poker cards go 3 an A4 sheet where 4 fit at 2.5 mm, and
    nothing said so. The summary names the figure (not chosen for the designer: a fold seldom
    lands exactly), and --bleed 2.5mm prints 4 a sheet, saying nothing more."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    out = capsys.readouterr().out
    deck = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["pieces_per_sheet"] == 3 and deck["sheet_bleed_mm"] == 3.0
    assert deck["more_with"] == {"bleed_mm": 2.5, "pieces_per_sheet": 4}
    said = [line.strip() for line in out.splitlines() if "--bleed" in line]
    assert said == ["(4/sheet with --bleed 2.5mm: fold-over keeps the 3 mm bleed asked, as a fold seldom lands "
                    "exactly)"], out
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold", "--bleed", "2.5mm") == 0
    assert "--bleed" not in capsys.readouterr().out
    deck = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["pieces_per_sheet"] == 4 and deck["sheet_bleed_mm"] == 2.5 and "more_with" not in deck
    pages = forms(ws / "build" / "test" / "cards.pdf")
    assert [len(p) // 2 for p in pages] == [4, 4, 3]  # fronts a sheet (each with its back)


def _one_card_changed(tmp_path, layout: list[str]):
    """Three cards built with ``layout``, one card's text changed, built again (v1, v2)."""
    ws = make_workspace(tmp_path / "ws", pieces=THREE)
    assert run(ws, "build", "--game", "test", "--no-rulebook", *layout) == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード1}", "改訂カード1}"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", *layout) == 0
    return ws


@pytest.mark.parametrize("layout", [["--layout", "fold"], ["--layout", "sleeve"]])
def test_the_reprint_of_a_fold_or_sleeve_build_is_laid_out_as_its_home_sheets(tmp_path, layout):
    """A home printer's trial: a card changed after a fold-over build, and reprint.pdf was a duplex
    grid of fronts and backs pages (ask a printer without duplex for duplex); now it holds the
    changed copies on the same one-sided sheets as the deck's own file, fold line and all, and
    no blank pages between them."""
    ws = _one_card_changed(tmp_path, layout)
    out = ws / "build" / "test"
    reprint, home = forms(out / "reprint.pdf"), forms(out / "cards.pdf")
    assert len(reprint) == 1, reprint  # the one changed card: one one-sided sheet, no backs page
    assert [box for box, _det in reprint[0]] == [box for box, _det in home[0] if box in
                                                  [b for b, _ in reprint[0]]]  # where the deck's sheet has them
    said = texts(out / "reprint.pdf")[0]
    if layout[1] == "fold":
        (x0, _y0, x1, _y1), _ = reprint[0][0]
        assert len(reprint[0]) == 2 and x1 <= W / 2 + 0.01, reprint  # a front left of the fold, its back right
        assert msg("sheet.fold", "ja").split("・")[0] in said, said
    else:
        assert len(reprint[0]) == 1, reprint  # the front only: a backer card goes behind it


@pytest.mark.parametrize("layout", [["--layout", "fold"], ["--layout", "sleeve"],
                                    ["--layout", "sleeve", "--sleeve", "60x85"]])  # (inserts reduced to fit)
def test_a_reprint_since_a_version_takes_the_layout_of_the_build_it_goes_beside(tmp_path, capsys, layout):
    """``pnpgen reprint --since`` built its sheets with no options: after fold-over or sleeve
    builds, its file was a duplex grid. Given the build's layout, its sheets are the build's own
    reprint.pdf's, copy for copy; given none, too (a flip-and-write trial: a designer whose printer
    has no duplex, who built every version --layout fold, got duplex pages from a reprint without
    it): the layout of the build that recorded the version, said in one line, as its printer
    profile is; --layout grid gives the grid of fronts and backs pages."""
    ws = _one_card_changed(tmp_path, layout)
    out = ws / "build" / "test"
    assert run(ws, "reprint", "--game", "test", "--since", "v1", *layout) == 0
    assert forms(out / "reprint-since-v1.pdf") == forms(out / "reprint.pdf")
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0
    assert forms(out / "reprint-since-v1.pdf") == forms(out / "reprint.pdf")  # v1's build's layout
    assert f"reprint laid out {' '.join(layout)}, as v1's build was" in capsys.readouterr().err  # its --sleeve too
    assert run(ws, "reprint", "--game", "test", "--since", "v1", "--layout", "grid") == 0
    assert len(forms(out / "reprint-since-v1.pdf")) == 2  # the grid asked: fronts, then backs


def test_the_all_in_one_file_of_a_fold_build_has_no_blank_pages(tmp_path):
    """Every sheet of a fold-over build prints on one side: a blank page after each (as for a
    one-sided deck in a duplex file) only wasted paper, and fold-over sheets had none while a
    one-sided deck beside them had, so the file printed neither one-sided nor duplex."""
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "decks" / "solo.yaml").write_text(
        "name: 片面\nformat: poker\nfront: card-front.svg.j2\nfields: {name: text, text: text}\n"
        "pieces:\n  - {name: 一, text: 片面}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    out = ws / "build" / "test"
    sheets = sum(len(pdfium.PdfDocument((out / f).read_bytes())) for f in ("cards.pdf", "solo.pdf"))
    pages = texts(out / "test-all.pdf")
    blank = msg("sheet.blank", "ja")
    assert not [p for p in pages if blank in p]
    assert len(pages) == sheets + 1, len(pages)  # the sheets, then the bill of materials


def test_a_two_sided_deck_on_card_stock_is_not_called_too_large_to_fold(tmp_path, capsys):
    """A designer trial: 名刺 stickers on a-one-51002 in a --layout fold build were said to be
    'too large to fold (a piece over half the sheet)', a 55×91 mm piece; they print in the
    stock's slots, as documented, and the warning says so. With --duplex short the line names
    the stock too."""
    ws = make_workspace(tmp_path / "ws", pieces=ONE)
    (ws / "data" / "test" / "decks" / "stickers.yaml").write_text(
        "name: シール\nformat: meishi\nsheet: a-one-51002\nfront: card-front.svg.j2\nback: card-back.svg.j2\n"
        "fields: {name: text, text: text}\npieces:\n  - {name: 刃, text: 攻撃+1}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "--layout fold" in line]
    assert said == ["pnpgen: warning: --layout fold: 'stickers' on card stock (sheet a-one-51002), which keeps its "
                    "slots: printed as usual, the backs on the sheet's other side (duplex, flip on the long edge); "
                    "a printer without duplex feeds the sheet again"]
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold", "--duplex", "short") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "--duplex short" in line]
    assert len(said) == 1 and "applies only to 'stickers' (on card stock (sheet a-one-51002)" in said[0], said
    assert "too large" not in said[0]


@pytest.mark.parametrize("args, two_pass, row", [(("--layout", "fold"), True, "二つ折り 1 枚 / 1 p"),
                                                (("--layout", "sleeve"), True, "表のみ 1 枚 / 1 p"),
                                                (("--duplex", "none"), True, "裏は別紙 2 枚 / 2 p"),
                                                ((), False, "両面 1 枚 / 2 p")])
def test_a_build_without_duplex_tells_the_booklet_in_two_passes(tmp_path, args, two_pass, row):
    """A fold-over build (or --duplex none) is printed on a printer without duplex: the booklet's
    note on each sheet side and the bill of materials' rulebook line said 両面・短辺とじ all the same.
    They say the two passes (odd pages, the stack turned on its short edge, even pages); a duplex
    build's keep saying 両面. So does a sleeve build (fronts only, before a backer card: no duplex
    asked), whose booklet note said 両面. Each deck's row says how its file is printed, in the
    column 刷り方: it said 両面 of the two-sided cards a fold-over or sleeve build prints on one side,
    beside the two passes, and --duplex none's sheets of paper are its pages (its backs on their own)."""
    import pypdf

    ws = make_workspace(tmp_path / "ws", pieces=ONE, draft=True)
    assert run(ws, "build", "--game", "test", "--jobs", "1", *args) == 0
    out = ws / "build" / "test"
    notes = [page.extract_text().replace("\n", "") for page in pypdf.PdfReader(out / "rulebook-booklet.pdf").pages]
    bom = pypdf.PdfReader(out / "test-all.pdf").pages[-1].extract_text().replace("\n", "")
    turned = "片面で奇数ページ（表）を刷り、束を短辺で裏返して偶数ページ（裏）を刷る"
    assert all((turned in n) is two_pass and ("両面・短辺とじで印刷" in n) is not two_pass for n in notes), notes
    assert ("2 回に分けて印刷（奇数ページを刷り、束を短辺で裏返して偶数ページ）" in bom) is two_pass, bom
    assert ("両面（短辺とじ）で印刷" in bom) is not two_pass, bom
    assert "刷り方" in bom and f"テストカード (cards) カード・長方形 63×88 1 {row}" in bom, bom
    assert ("両面 1 枚" in bom) is not two_pass, bom  # no row says 両面 beside the two passes


@pytest.mark.parametrize("profile, duplex, two_pass", [(None, True, True), ("none", False, True), ("long", True, False)])
def test_pnpgen_rulebook_alone_tells_duplex_and_the_two_passes_unless_the_printer_profile_says_which(
        tmp_path, profile, duplex, two_pass):
    """``pnpgen rulebook`` is told no --layout or --duplex: a designer may print its booklet on a
    printer without duplex, yet each sheet side's note said 両面・短辺とじ alone. Not knowing, it says
    both; game.yaml's printer profile says which (``duplex: none``: the two passes only)."""
    import pypdf

    ws = make_workspace(tmp_path / "ws", pieces=ONE, draft=True)
    if profile:
        (ws / "printers.yaml").write_text(f"mine: {{duplex: {profile}}}\n", encoding="utf-8")
        game_yaml = ws / "data" / "test" / "game.yaml"
        game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + "printer: mine\n", encoding="utf-8")
    assert run(ws, "rulebook", "--game", "test") == 0
    notes = [page.extract_text().replace("\n", "") for page in pypdf.PdfReader(ws / "build" / "test" / "rulebook-booklet.pdf").pages]
    assert notes and all(("両面・短辺とじで印刷" in n) is duplex for n in notes), notes
    assert all((("束を短辺で裏返して偶数ページ" in n) is two_pass) for n in notes), notes


def test_a_reprint_since_a_version_that_did_not_record_its_layout_says_so(tmp_path, capsys, monkeypatch):
    """A version an earlier pnpgen recorded has no layout: ``reprint --since`` it gave the grid of
    fronts and backs pages without a word, to a designer whose fold-over build went beside it. It
    says so in its line, and that --layout fold (or sleeve) lays the copies out as that build did;
    given --layout, it says nothing of it."""
    from pnpgen.engine import recording

    monkeypatch.setattr(recording, "home_layout", lambda sheet: None)  # (as a version before trial65's)
    ws = _one_card_changed(tmp_path, ["--layout", "fold"])
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0
    err = capsys.readouterr().err
    assert ("pnpgen: reprint laid out as the grid of fronts and backs pages: v1 was recorded by an earlier pnpgen, "
            "which did not record its build's layout; --layout fold (or --layout sleeve) lays the copies out as a "
            "fold-over (or sleeve) build") in err, err
    assert len(forms(ws / "build" / "test" / "reprint-since-v1.pdf")) == 2  # the grid: fronts, then backs
    assert run(ws, "reprint", "--game", "test", "--since", "v1", "--layout", "fold") == 0
    assert "did not record" not in capsys.readouterr().err


def test_small_decks_share_fold_over_sheets(tmp_path):
    """note42: fold-over sheets were never shared, so 4 cards and 2 role cards (3 poker cards a
    fold-over sheet on A4) took 2 + 1 sheets of ``<game>-all.pdf``. With ``share_sheets: true``
    the copies of their last sheets share one, the decks' names on its slug, each back its own
    front's mirror image across the fold line; ``<deck>.pdf`` stays one deck a file."""
    import pypdf

    from conftest import GAME_YAML

    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2", "カード3", "カード4"],
                        game=GAME_YAML + "share_sheets: true\n")
    (ws / "data" / "test" / "decks" / "roles.yaml").write_text(
        DECK_YAML.replace("テストカード", "役割") + "  - {name: 役1, text: t}\n  - {name: 役2, text: t}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "fold") == 0
    out = ws / "build" / "test"
    everything = out / "test-all.pdf"
    assert len(pypdf.PdfReader(everything).pages) == 2 + 1  # two fold-over sheets (not three), the bill of materials
    assert len(pypdf.PdfReader(out / "roles.pdf").pages) == 1
    words = texts(everything)
    assert "テストカード + 役割 (cards+roles)" in words[1] and "共有 1/1" in words[1], words[1]
    assert "1–2 ページ：テストカード、役割が 2 枚のシートを共有（デッキごとのファイルでは 3 枚）" in words[2], words[2]
    shared = forms(everything)[1]
    fronts = [box for box, det in shared if box[2] <= W / 2 + 0.01]
    backs = [box for box, det in shared if box[0] >= W / 2 - 0.01]
    assert len(fronts) == len(backs) == 3  # カード4, 役1, 役2
    mirrored = sorted((round(W - x1, 2), round(y0, 2)) for x0, y0, x1, _ in fronts)
    assert sorted((round(x0, 2), round(y0, 2)) for x0, y0, *_ in backs) == pytest.approx(mirrored, abs=0.05)
