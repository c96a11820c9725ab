"""textbox(): fit to box, warnings, glyph errors and fallbacks, escaping, alignment, markup output."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from lxml import etree

from pnpgen import fonts
from pnpgen.data.model import FieldText
from pnpgen.errors import InputError
from pnpgen.faces import builtin
from pnpgen.text import PLACEHOLDER_COLOUR, TextContext, layout_text, textbox
from pnpgen.text import layout as layout_mod
from pnpgen.text.cells import PT
from pnpgen.text.linecheck import check_paragraph

ROOT = Path(__file__).resolve().parents[2]
ICONS = builtin.FOLDER / "common" / "icons"
LONG = ("アクション１回につき、【創世エリア】に追加でワーカーを１個配置するか、あるいは【創世エリア】に配置されている"
        "ワーカー１個を隣接するマスへ移動させます。必要があれば{food}を支払ってください。")


@pytest.fixture(scope="module", autouse=True)
def registered():
    for name in fonts.DEFAULT_FONTS.values():
        fonts.register(name, ROOT / "fonts")


def make_ctx(**kw) -> TextContext:
    args = dict(fonts=dict(fonts.DEFAULT_FONTS), fallback_fonts=[], palette={"red": "#c0392b", "gold": "#c49a32"},
                icon_dirs=[ICONS], where="deck 'epic' piece 3 (祝福)")
    args.update(kw)
    return TextContext(**args)


def texts(svg: str) -> list[tuple[dict, str]]:
    root = etree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>'.encode())
    return [(dict(el.attrib), el.text or "") for el in root.iter("{http://www.w3.org/2000/svg}text")]


# --- fit to box ------------------------------------------------------------------------------

def test_fit_picks_the_largest_size_that_fits():
    ctx = make_ctx()
    lay = layout_text(ctx, LONG, w=40, h=22, size=12, min_size=5)
    assert lay.fits and 5 <= lay.size < 12
    assert (12 - lay.size) / 0.25 == int((12 - lay.size) / 0.25)  # on the 0.25 pt grid
    bigger = layout_text(ctx, LONG, w=40, h=22, size=lay.size + 0.25, min_size=lay.size + 0.25)
    assert not bigger.fits
    assert lay.height <= 22


def test_fit_is_a_bisection(monkeypatch):
    calls = []
    real = layout_mod._trial

    def counting(*a, **k):
        calls.append(a[1])
        return real(*a, **k)

    monkeypatch.setattr(layout_mod, "_trial", counting)
    from pnpgen.text.box import _layout
    _layout.cache_clear()
    lay = layout_text(make_ctx(), LONG + "（二回目）", w=40, h=22, size=20, min_size=4)
    n_sizes = len(layout_mod.candidates(20, 4))
    assert n_sizes == 65
    assert len(calls) <= 2 + 7  # first, last, then log2(65) halvings
    assert lay.size in calls


def test_short_text_keeps_its_size():
    lay = layout_text(make_ctx(), "祝福", w=40, h=10, size=14, min_size=6)
    assert lay.size == 14 and lay.fits and len(lay.lines) == 1


def test_below_minimum_builds_at_minimum_and_warns():
    ctx = make_ctx()
    text = FieldText(LONG * 3, "action")
    svg = textbox(ctx, text, x=5, y=5, w=30, h=8, size=9, min_size=6)
    assert texts(svg)  # still drawn
    assert len(ctx.warnings) == 1
    msg = ctx.warnings[0]
    assert "deck 'epic' piece 3 (祝福)" in msg and "'action'" in msg and "6 pt" in msg and "30.0×8.0 mm" in msg
    sizes = {a["font-size"] for a, _ in texts(svg)}
    assert sizes == {f"{6 * PT:.3f}".rstrip("0")}


def test_empty_and_none_draw_nothing():
    ctx = make_ctx()
    assert str(textbox(ctx, "", 0, 0, 10, 10)) == ""
    assert str(textbox(ctx, None, 0, 0, 10, 10)) == ""
    assert layout_text(ctx, "", 10, 10, size=12).lines == ()
    assert ctx.warnings == []


# --- glyphs -----------------------------------------------------------------------------------

def test_missing_glyph_is_an_error_naming_the_code_point():
    ctx = make_ctx()
    with pytest.raises(InputError) as e:
        textbox(ctx, FieldText("切り札は🂡です", "effect"), 0, 0, 40, 20)
    msg = str(e.value)
    assert "U+1F0A1" in msg and "deck 'epic' piece 3 (祝福)" in msg and "'effect'" in msg
    assert "emoji" not in msg  # a playing card, not an emoji


def test_missing_emoji_says_where_a_designer_gets_one():
    """trial19: a party game's prompts with 😀 stopped at 'a font that has it in fallback_fonts',
    and pnpgen ships no font with emoji: the error says what kind of font and how to name it."""
    ctx = make_ctx()
    with pytest.raises(InputError) as e:
        textbox(ctx, FieldText("Best thing about jazz? 😀", "effect"), 0, 0, 40, 20)
    msg = str(e.value)
    assert "U+1F600" in msg and "pnpgen's own fonts have no emoji" in msg, msg
    assert "in fonts/, e.g. DejaVuSans.ttf" in msg and "fallback_fonts: [DejaVuSans]" in msg, msg


def _make_font(path: Path, chars: str) -> None:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    fb = FontBuilder(1000, isTTF=True)
    names = [".notdef"] + [f"g{i}" for i in range(len(chars))]
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"g{i}" for i, c in enumerate(chars)})
    glyphs = {}
    for n in names:
        pen = TTGlyphPen(None)
        pen.moveTo((100, -120)), pen.lineTo((100, 760)), pen.lineTo((600, 760)), pen.lineTo((600, -120))
        pen.closePath()
        glyphs[n] = pen.glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (700, 100) for n in names})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": path.stem, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    fb.setupPost()
    fb.save(str(path))


def test_fallback_font_draws_the_missing_glyph(tmp_path):
    _make_font(tmp_path / "PnpTestCards.ttf", "\U0001F0A1")
    fonts.register("PnpTestCards", tmp_path)
    ctx = make_ctx(fallback_fonts=["PnpTestCards"])
    svg = textbox(ctx, "切り札は🂡です", 0, 0, 60, 20)
    runs = texts(svg)
    assert [t for _, t in runs] == ["切り札は", "🂡", "です"]
    assert runs[1][0]["font-family"] == "PnpTestCards"
    assert runs[0][0]["font-family"] == runs[2][0]["font-family"] == "BIZUDPGothic-Regular"
    # the pen moves by the fallback glyph's own advance (0.7 em)
    x1, x2 = float(runs[1][0]["x"]), float(runs[2][0]["x"])
    assert x2 - x1 == pytest.approx(0.7 * 9 * PT, abs=2e-3)


# --- text is data ----------------------------------------------------------------------------

def test_text_is_escaped_never_markup():
    ctx = make_ctx()
    svg = str(textbox(ctx, '<script>alert("x")</script> & {{ piece.name }} <tspan>', 0, 0, 200, 50))
    assert "<script" not in svg and "<tspan" not in svg
    joined = "".join(t for _, t in texts(svg))  # runs split at spaces
    assert joined == '<script>alert("x")</script>&{{piece.name}}<tspan>'
    assert "&lt;script&gt;" in svg and "&amp;" in svg


def test_markup_in_a_fill_is_refused():
    """A fill is a palette name or a hex colour (data/validate.py), so markup never reaches the SVG."""
    with pytest.raises(InputError) as e:
        textbox(make_ctx(), "あ", 0, 0, 20, 10, fill='"/><script>')
    assert e.value.key == "fill" and "unknown colour" in e.value.message


def test_placeholder_prints_magenta():
    svg = textbox(make_ctx(), FieldText("未定（草案に記載なし）", "flavour"), 0, 0, 50, 10, fill="#222")
    assert {a["fill"] for a, _ in texts(svg)} == {PLACEHOLDER_COLOUR}


# --- markup output ---------------------------------------------------------------------------

def test_bold_and_colour_runs():
    svg = textbox(make_ctx(), "普通**太字**[red]赤[/red]", 0, 0, 60, 10)
    runs = texts(svg)
    assert [(a["font-family"], a["fill"], t) for a, t in runs] == [
        ("BIZUDPGothic-Regular", "#000", "普通"),
        ("BIZUDPGothic-Bold", "#000", "太字"),
        ("BIZUDPGothic-Regular", "#c0392b", "赤"),
    ]
    # positions are absolute and increase by the measured advances
    xs = [float(a["x"]) for a, _ in runs]
    assert xs[0] == 0 and xs[1] == pytest.approx(fonts.string_width_mm("普通", "BIZUDPGothic-Regular", 9), abs=2e-3)


def test_unknown_icon_is_an_error_naming_token_and_place():
    with pytest.raises(InputError) as e:
        textbox(make_ctx(), FieldText("{nosuchicon}を得る", "action"), 0, 0, 40, 10)
    msg = str(e.value)
    assert "{nosuchicon}" in msg and "piece 3" in msg and "'action'" in msg and "{food}" in msg


@pytest.mark.parametrize("in_layout, how", [(False, "the text split over several textbox() calls (200,000 on one face)"),
                                             (True, "the text split over two fields, in two boxes of the layout")])
def test_a_text_over_a_boxs_budget_says_how_to_stay_under_it(in_layout, how):
    """A summary card of 500 units' lines in one box (29,390 characters) is a real design: the
    message says the budget and the way under it (the budget is against hostile input)."""
    with pytest.raises(InputError) as e:
        layout_text(make_ctx(in_layout=in_layout), "x" * 20_001, 40, 10)
    assert e.value.expected == f"at most 20,000 characters in one box: {how}", e.value.expected


def test_unknown_colour_pair_is_an_error_but_lone_brackets_are_text():
    with pytest.raises(InputError) as e:
        textbox(make_ctx(), "[purple]紫[/purple]", 0, 0, 40, 10)
    assert "purple" in str(e.value)
    assert "".join(t for _, t in texts(textbox(make_ctx(), "[注意]と[a]", 0, 0, 40, 10))) == "[注意]と[a]"


def test_icon_is_an_inline_group_one_em_square():
    svg = str(textbox(make_ctx(), "{vp}を得る", 2, 3, 40, 10, size=9))
    assert "<svg" not in svg and "<use" not in svg
    m = re.search(r'<g data-pnpgen-icon="[^"]*" transform="translate\(([\d.]+),([\d.]+)\) scale\(([\d.]+)\)">', svg)
    assert m
    em = 9 * PT
    assert float(m.group(1)) == pytest.approx(2, abs=1e-3)
    assert float(m.group(2)) == pytest.approx(3, abs=1e-3)  # em box top at the box top
    assert float(m.group(3)) * 100 == pytest.approx(em, abs=1e-3)
    assert float(texts(svg)[0][0]["x"]) == pytest.approx(2 + em, abs=1e-3)


def test_ruby_is_set_above_at_half_size():
    svg = textbox(make_ctx(), "{漢字|かんじ}", 0, 0, 40, 20, size=10)
    runs = texts(svg)
    base = [(a, t) for a, t in runs if t in "漢字"]
    reading = [(a, t) for a, t in runs if t in "かんじ"]
    assert "".join(t for _, t in base) == "漢字" and "".join(t for _, t in reading) == "かんじ"
    assert float(reading[0][0]["font-size"]) == pytest.approx(5 * PT, abs=1e-3)
    assert float(reading[0][0]["y"]) < float(base[0][0]["y"]) - 0.8 * 10 * PT
    assert float(reading[0][0]["y"]) > 0  # room was made inside the box


# --- alignment -------------------------------------------------------------------------------

def _line_extent(runs) -> tuple[float, float]:
    a0 = runs[0][0]
    a1, t1 = runs[-1]
    xs = a1["x"].split()
    if len(xs) > 1:  # one x per character
        end = float(xs[-1]) + fonts.string_width_mm(t1[-1], a1["font-family"], 9)
    else:
        end = float(xs[0]) + fonts.string_width_mm(t1, a1["font-family"], 9)
    return float(a0["x"].split()[0]), end


def test_center_and_right_alignment():
    w = 50
    width = fonts.string_width_mm("祝福を得る", "BIZUDPGothic-Regular", 9)
    for align, left in (("left", 10), ("center", 10 + (w - width) / 2), ("right", 10 + w - width)):
        runs = texts(textbox(make_ctx(), "祝福を得る", 10, 0, w, 10, align=align))
        x0, x1 = _line_extent(runs)
        assert x0 == pytest.approx(left, abs=2e-3)
        assert x1 - x0 == pytest.approx(width, abs=2e-3)


def test_justify_fills_full_lines_and_leaves_the_last_line_left():
    ctx = make_ctx()
    text = "好きなプレイヤーを１人選び、その手札から１枚を選んで捨て札にする。"
    lay = layout_text(ctx, text, w=32, h=50, size=9, min_size=9, align="justify")
    svg = textbox(ctx, text, 0, 0, 32, 50, size=9, min_size=9, align="justify")
    by_line: dict[str, list] = {}
    for a, t in texts(svg):
        by_line.setdefault(a["y"], []).append((a, t))
    lines = list(by_line.values())
    assert len(lines) == len(lay.lines) >= 2
    for ln, runs in zip(lay.lines, lines):
        x0, x1 = _line_extent(runs)
        assert x0 == pytest.approx(0, abs=1e-3)
        gap = (32 - ln.width) / max(1, len(ln.cells) - 1)
        if not ln.last and gap <= layout_mod.MAX_JUSTIFY_GAP * 9 * PT:
            assert x1 == pytest.approx(32, abs=2e-3)
        else:
            assert x1 == pytest.approx(ln.width, abs=2e-3)


def test_vertical_alignment():
    ctx = make_ctx()
    em = 9 * PT
    top = layout_text(ctx, "あ", 40, 30, valign="top").lines[0].baseline
    mid = layout_text(ctx, "あ", 40, 30, valign="middle").lines[0].baseline
    bot = layout_text(ctx, "あ", 40, 30, valign="bottom").lines[0].baseline
    assert top == pytest.approx(0.88 * em)
    assert mid == pytest.approx((30 - em) / 2 + 0.88 * em)
    assert bot == pytest.approx(30 - 0.12 * em)


def test_line_height():
    lay = layout_text(make_ctx(), "一行目\n二行目", 40, 30, size=10, line_height=1.5)
    assert lay.lines[1].baseline - lay.lines[0].baseline == pytest.approx(1.5 * 10 * PT)


def test_bad_alignment_is_an_input_error():
    with pytest.raises(InputError):
        textbox(make_ctx(), "あ", 0, 0, 10, 10, align="diagonal")


# --- the SVG draws -----------------------------------------------------------------------------

def test_svglib_draws_the_fragment():
    from reportlab.graphics import renderPDF
    from svglib.svglib import svg2rlg

    body = textbox(make_ctx(), "**{vp}**を[red]１つ[/red]得る。{漢字|かんじ}" + LONG, 3, 3, 57, 60, align="justify")
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="63mm" height="88mm" viewBox="0 0 63 88">{body}</svg>'
    drawing = svg2rlg(io.StringIO(svg))
    pdf = renderPDF.drawToString(drawing)
    assert pdf.startswith(b"%PDF")


# --- the checker catches what it should --------------------------------------------------------

def test_checker_flags_each_kind_of_violation():
    def one(lines, width=6.0):
        units = [list(x) for x in lines]
        return check_paragraph(units, [[1.0] * len(u) for u in units], width)

    assert any("starts with '。'" in v for v in one(["あいうえ", "。かき"]))
    assert any("ends with '「'" in v for v in one(["あいう「", "えお」"]))
    assert any("splits '1VP'" in v for v in one(["あいうえ1V", "Pを"]))
    assert any("splits '……'" in v for v in one(["あいうえ…", "…かき"]))
    assert any("inside phrase" in v for v in one(["強欲のメダ", "リオンの効果"]))
    assert one(["強欲の", "メダリオンの", "効果"]) == []


def test_unregistered_font_is_an_input_error():
    with pytest.raises(InputError, match="NoSuchFont"):
        textbox(make_ctx(), "あ", 0, 0, 10, 10, font="NoSuchFont")


def test_repeated_boxes_are_cheap():
    import time

    ctx = make_ctx()
    textbox(ctx, LONG, 1, 2, 40, 30)
    t = time.perf_counter()
    for _ in range(500):
        textbox(ctx, LONG, 1, 2, 40, 30)
    assert (time.perf_counter() - t) / 500 < 0.001


def test_icon_colour_paints_its_current_colour(tmp_path):
    """``icon(name, x, y, size, colour=…)`` draws the icon's ``currentColor`` in that colour (a
    palette name or #rrggbb): white gears on a dark back printed black, nothing could change it."""
    from pnpgen.text import icon

    (tmp_path / "gear.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                       '<circle cx="5" cy="5" r="4" fill="currentColor"/></svg>', encoding="utf-8")
    ctx = make_ctx(icon_dirs=[tmp_path, ICONS])
    assert 'fill="#000"' in str(icon(ctx, "gear", 0, 0, 10))
    assert 'fill="#ffffff"' in str(icon(ctx, "gear", 0, 0, 10, colour="#ffffff"))
    assert 'fill="#c49a32"' in str(icon(ctx, "gear", 0, 0, 10, colour="gold"))
    with pytest.raises(InputError, match="icon colour: unknown colour 'blu'"):
        icon(ctx, "gear", 0, 0, 10, colour="blu")


# --- list items hang ---------------------------------------------------------------------------

ITEM = "手札を２枚引き、その後で手札を１枚捨てる。捨てたカードが赤ならもう１枚引く。"


@pytest.mark.parametrize("mark", ["・", "※", "①", "1. ", "１．", "（２）"])
def test_a_list_items_later_lines_start_under_its_text_not_its_mark(mark):
    """A paragraph that starts with a bullet, a note mark, a circled number or a number and its
    stop is a list item (JLREQ 箇条書き): its second and later lines start where its text starts
    after the mark, in millimetres; the next paragraph, plain, starts at the box's edge."""
    lay = layout_text(make_ctx(), f"{mark}{ITEM}\n次の段落は印なしで始まり、二行目も左端から始まる長さの文にする。",
                      w=30, h=60, size=8, min_size=8)
    first_text = next(ln for ln in lay.lines if ln.text.startswith(mark.strip()))
    start = first_text.xs[len(mark)]  # where the item's text begins after its mark
    assert start > 1.0
    item = [ln for ln in lay.lines[:lay.lines.index(first_text) + 3]]
    assert len(item) >= 3 and all(abs(ln.xs[0] - start) < 1e-6 for ln in item[1:3]), [ln.xs[0] for ln in item]
    plain = [ln for ln in lay.lines if ln.text.startswith("次")][0]
    after = lay.lines[lay.lines.index(plain) + 1]
    assert plain.xs[0] == 0.0 and after.xs[0] == 0.0
    assert max(ln.xs[0] + ln.width for ln in lay.lines) <= 30 + 1e-6


@pytest.mark.parametrize("text, align", [("1.5倍のコストを支払い、カードを２枚引く。その後で手札を１枚捨てる。", "left"),
                                         ("・" + ITEM, "center"),
                                         ("・" + ITEM, "right")])
def test_a_number_or_centred_text_does_not_hang(text, align):
    """「1.5倍」 starts with a number, not an item; centred and right-aligned lines keep their own
    positions: no line is moved in by a mark's width."""
    lay = layout_text(make_ctx(), text, w=30, h=60, size=8, min_size=8, align=align)
    assert len(lay.lines) > 1
    if align == "left":
        assert all(ln.xs[0] == 0.0 for ln in lay.lines)
    else:
        mark = layout_text(make_ctx(), "・", w=30, h=60, size=8, min_size=8).lines[0].cells[0].width * 8
        for ln in lay.lines[1:]:
            edge = (30 - ln.width) / 2 if align == "center" else 30 - ln.width
            assert abs(ln.xs[0] - edge) < 1e-6 and abs(ln.xs[0] - mark) > 1e-3


def test_a_mark_as_wide_as_half_the_box_does_not_hang():
    """In a box under two marks wide (a proportional 「・」 at 8 pt is 1.41 mm) the item's text could
    not be set beside its mark: no indent."""
    lay = layout_text(make_ctx(), "・" + ITEM, w=2.6, h=400, size=8, min_size=8)
    assert len(lay.lines) > 2 and all(ln.xs[0] == 0.0 for ln in lay.lines)


def test_an_icon_named_decomposed_as_macos_writes_names_is_found(tmp_path):
    """icons/が.svg from a zip made on a Mac is named カ + ゛ (NFD): {が} was an unknown icon on
    Linux (a print shop's or a CI build), which macOS finds; art, templates and sheets were found."""
    import unicodedata

    folder = tmp_path / "icons"
    folder.mkdir()
    (folder / unicodedata.normalize("NFD", "が.svg")).write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#00ff00"/></svg>',
        encoding="utf-8")
    assert 'fill="#00ff00"' in textbox(make_ctx(icon_dirs=[folder]), "{が}を得る", 0, 0, 40, 10)


def test_a_title_is_set_smaller_on_one_line_before_its_last_character_is_left_alone():
    """trial67: a tarot card's back (title box 58 × 20 mm, bold 24 pt, min 12) printed the game's
    title 「霧ヶ館殺人事件」 as 「霧ヶ館殺人事」 over 「件」 at 24 pt, though it fits whole on one line at a
    smaller size. A size that strands a phrase's last character on a line of its own gives way to
    the largest smaller one that keeps it; a text that ends a line at a phrase's end is left as it was."""
    bold = fonts.DEFAULT_FONTS["bold"]
    title = "霧ヶ館殺人事件"
    lay = layout_text(make_ctx(), title, 58.0, 20.0, size=24, min_size=12, font="bold")
    assert [ln.text for ln in lay.lines] == [title], [ln.text for ln in lay.lines]
    width = sum(c.width for c in lay.lines[0].cells) * lay.size
    assert 23 <= lay.size < 24 and width <= 58.0 + 1e-6, (lay.size, width)
    assert lay.size + 0.25 > 24 or sum(c.width for c in lay.lines[0].cells) * (lay.size + 0.25) > 58.0  # the largest
    two = layout_text(make_ctx(), "霧の館　殺人事件", 40.0, 20.0, size=24, min_size=12, font=bold)  # a phrase's break
    assert [ln.text for ln in two.lines] == ["霧の館", "殺人事件"] and two.size == 24, ([ln.text for ln in two.lines], two.size)
