"""The common icon set: present, simple (shapes only, no text, gradients or opacity), loadable."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from lxml import etree

from conftest import make_workspace, run
from pnpgen.faces import builtin
from pnpgen.text import icons

ROOT = Path(__file__).resolve().parents[2]
COMMON = builtin.FOLDER / "common" / "icons"
REQUIRED = ["vp", "food", "faith", "fever", "cargo_l", "cargo_n", "cargo_h", "res_red", "res_blue", "res_green",
            "res_black", "station", "port", "star", "coin", "card", "worker", "town"]
ALLOWED = {"svg", "g", "path", "circle", "rect", "ellipse", "polygon", "line", "polyline"}


def test_required_icons_exist():
    missing = [n for n in REQUIRED if not (COMMON / f"{n}.svg").is_file()]
    assert missing == []


@pytest.mark.parametrize("path", sorted(COMMON.glob("*.svg")), ids=lambda p: p.stem)
def test_icon_is_simple_and_loads(path):
    root = etree.parse(str(path)).getroot()
    assert root.get("viewBox") == "0 0 100 100"
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue  # comments
        assert etree.QName(el).localname in ALLOWED, etree.QName(el).localname
        for attr in el.attrib:
            assert "opacity" not in attr and "gradient" not in el.attrib[attr].lower()
        assert "url(" not in "".join(el.attrib.values())
    inner, box = icons.load(path)
    assert box == (0, 0, 100, 100) and inner and "<text" not in inner
    colours = {v for el in root.iter() if isinstance(el.tag, str) for k, v in el.attrib.items()
               if k in ("fill", "stroke") and v != "none"}
    assert 1 <= len(colours) <= 4  # flat: a fill or two and an outline


def test_place_scales_into_a_square():
    g = icons.place(COMMON / "vp.svg", 10, 20, 5)
    # (its <g> names its file and shapes' hash: the change report's icon redrawn, drawn nothing)
    assert re.match(r'<g data-pnpgen-icon="vp.svg [0-9a-f]{12}" transform="translate\(10.000,20.000\) scale\(0.05000\)">', g) \
        and g.endswith("</g>"), g


def test_icon_with_foreign_elements_is_rejected(tmp_path):
    bad = tmp_path / "bad.svg"
    bad.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>x</text></svg>')
    with pytest.raises(icons.IconError, match="<text>"):
        icons.load(bad)


def test_current_colour_takes_the_text_colour(tmp_path):
    p = tmp_path / "dot.svg"
    p.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                 '<circle cx="5" cy="5" r="4" fill="currentColor" onclick="x()"/></svg>')
    g = icons.place(p, 0, 0, 1, colour="#123456")
    assert 'fill="#123456"' in g and "onclick" not in g


def test_every_icon_in_text_at_the_lints_smallest_size_has_no_stroke_a_printer_drops(tmp_path):
    """Each built-in icon set in 6 pt text (the print lint's smallest text size): every stroke at
    least the lint's 0.25 pt, so a designer's card with icons in small text builds without a
    stroke warning the designer cannot act on (the icon is pnpgen's)."""
    import json

    from conftest import make_workspace, run

    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '{{ textbox(piece.text, 3, 10, w - 6, 30, size=6, min_size=6) }}{% endblock %}')
    text = "".join(f"{{{name}}}" for name in REQUIRED)
    root = make_workspace(tmp_path / "ws", pieces=["アイコン"], front=front)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文アイコン", f'text: "{text}"'), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    warnings = json.loads((root / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["warnings"]
    assert not [w for w in warnings if "thinner than" in w], warnings
    assert not [w for w in warnings if "smaller than" in w], warnings  # the text is at the lint's size, not under it


@pytest.mark.parametrize("root, said", [
    ('viewBox="a b c d"', "viewBox that is not numbers: 'a b c d'"),
    ('viewBox="0 0 nan 1"', "viewBox that is not numbers: '0 0 nan 1'"),
    ('width="abc" height="3"', "width that is not numbers: 'abc'"),
    ('width="24mm" height="24mm"', "width that is not numbers: '24mm'"),
])
def test_an_icon_whose_size_is_not_numbers_is_an_icon_error(tmp_path, root, said):
    """An icon's viewBox or size that is no numbers said as the icon's mistake (it was Python's
    'could not convert string to float', naming no icon; a NaN one reached the face as translate(nan))."""
    p = tmp_path / f"i{abs(hash(root))}.svg"
    p.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" {root}><rect width="1" height="1"/></svg>')
    with pytest.raises(icons.IconError, match="icon .* has a " + said.replace("(", r"\(")):
        icons.load(p)


def test_an_icon_sized_in_px_loads(tmp_path):
    p = tmp_path / "px.svg"
    p.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="24px" height="24px"><rect width="1" height="1"/></svg>')
    assert icons.load(p)[1] == (0.0, 0.0, 24.0, 24.0)


def test_an_icon_named_in_japanese_is_drawn_from_the_games_icons(tmp_path):
    """templates/<game>/icons/火.svg used as {火} in a card's text: the icon is drawn (its red in
    the page), the characters '{火}' are not printed; a {風} with no such file is the one-line
    'unknown icon' error, not text printed as written."""
    from conftest import make_workspace, run
    from pdfprobe import texts

    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '{{ textbox(piece.text, 3, 10, w - 6, 30, size=9) }}{% endblock %}')
    root = make_workspace(tmp_path / "ws", pieces=["炎"], front=front)
    icons_dir = root / "templates" / "test" / "icons"
    icons_dir.mkdir()
    (icons_dir / "火.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
                                      '<circle cx="12" cy="12" r="11" fill="#d2452b"/></svg>', encoding="utf-8")
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文炎", 'text: "{火}を得る"'), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    shop = root / "build" / "test" / "shop" / "cards-unique.pdf"
    printed = "".join(texts(shop))
    assert "を得る" in printed and "{" not in printed and "火" not in printed
    assert b"0.8235 0.2706 0.1686 rg" in _content(shop)  # #d2452b, the icon's fill
    deck.write_text(deck.read_text(encoding="utf-8").replace("{火}", "{風}"), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 2


def test_an_unknown_icon_says_the_file_a_new_icon_of_that_name_goes_in(tmp_path, capsys):
    """A new keyword {shield} on a card was told the icons there are, not where to draw its own."""
    from conftest import make_workspace, run

    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '{{ textbox(piece.text, 3, 10, w - 6, 30, size=9) }}{{ icon(piece.name, 3, 50, 5) }}{% endblock %}')
    root = make_workspace(tmp_path / "ws", pieces=["coin"], front=front)
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文coin", 'text: "{shield}で守る"'), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "unknown icon {shield}" in err and "{coin}" in err, err
    assert "front, field 'text'; a new icon of that name is the SVG file templates/test/icons/shield.svg (expected" in err, err
    deck.write_text(deck.read_text(encoding="utf-8").replace("{shield}", "{coin}").replace("name: coin", "name: sword"),
                    encoding="utf-8")  # icon(), a template's call
    assert run(root, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "unknown icon {sword}" in err and "; a new icon of that name is the SVG file templates/test/icons/sword.svg (" in err, err


def test_an_icon_written_as_another_card_tool_writes_it_is_told_its_braces(tmp_path, capsys):
    """A designer's trial moving a sheet from another card tool (trial79): ``<coin>`` and ``[coin]``
    in a card's text printed as written, brackets and all, without a word. Named an icon that
    exists, each is told the braces it takes; a colour's ``[red]…[/red]`` and ``<note>``, no icon, are
    not."""
    root = make_workspace(tmp_path / "ws", pieces=["a", "b", "c"])
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    for name, said in (("a", "<coin>を払う。"), ("b", "[coin]を得る。[vp]"), ("c", "[red]赤[/red]と<note>と{coin}")):
        text = text.replace(f"text: 本文{name}", f'text: "{said}"')
    deck.write_text(text, encoding="utf-8")
    assert run(root, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "deck 'cards' piece 1 (a) front, field 'text': <coin> in angle brackets: printed as written (an icon is " \
           "{coin}, in braces)" in out, out
    assert "piece 2 (b) front, field 'text': [coin] in square brackets; [vp] in square brackets: printed as written " \
           "(an icon is {coin}, in braces)" in out, out
    assert not [line for line in out.splitlines() if "piece 3" in line and "brackets" in line], out


def _content(pdf: Path) -> bytes:
    """The file's faces' drawings (its Form XObjects), decoded."""
    import pikepdf

    with pikepdf.open(pdf) as doc:
        return b"".join(obj.read_bytes() for obj in doc.objects
                        if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form")


def test_an_icon_past_the_parsers_limits_is_told_on_one_line(tmp_path):
    """A path of 10 MB in an icon: libxml2's message ends 'try XML_PARSE_HUGE' and a line break, which
    split the draft's one-line error in two (advice to a programmer, on a line of its own)."""
    huge = tmp_path / "huge.svg"
    huge.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="'
                    + "M1 1 l1 1 " * 1_100_000 + '"/></svg>', encoding="utf-8")
    with pytest.raises(icons.IconError) as e:
        icons.load(huge)
    said = str(e.value)
    assert "\n" not in said and "XML_PARSE_HUGE" not in said and f"is {huge.stat().st_size:,} bytes" in said, said


def test_an_icon_too_big_to_draw_on_every_face_is_refused_naming_its_file(tmp_path, capsys):
    """A traced icon of 3.3 MB took seconds to build a few cards (an icon is drawn wherever it is
    used): past MAX_ICON_BYTES or MAX_ICON_ELEMENTS it stops the build, naming the file, its size
    and how to make it smaller."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n{{ icon("big", 5, 5, 20) }}\n'
             '{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", front=front, pieces=["札1"])
    (ws / "templates" / "test" / "icons").mkdir()
    big = ws / "templates" / "test" / "icons" / "big.svg"
    shapes = {"bytes": '<path d="M1 1' + " l0.001 0.001" * (icons.MAX_ICON_BYTES // 12) + '"/>',
              "elements": '<circle cx="1" cy="1" r="1"/>' * icons.MAX_ICON_ELEMENTS}
    for what, shape in shapes.items():
        big.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">{shape}</svg>', encoding="utf-8")
        icons.clear_caches()
        capsys.readouterr()
        assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
        err = capsys.readouterr().err
        told = (f"is {big.stat().st_size:,} bytes, more than an icon may be" if what == "bytes"
                else f"has {icons.MAX_ICON_ELEMENTS + 1:,} elements, more than an icon may have")
        assert err.startswith(f"pnpgen: error: templates/test/card-front.svg.j2:3: icon templates/test/icons/big.svg {told} "
                              f"(at most {icons.MAX_ICON_BYTES:,} bytes and {icons.MAX_ICON_ELEMENTS:,} elements: "
                              "simplify it"), err
        assert "Path > Simplify" in err and "Traceback" not in err
    big.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">'
                   + '<circle cx="1" cy="1" r="1"/>' * (icons.MAX_ICON_ELEMENTS - 1) + "</svg>", encoding="utf-8")
    icons.clear_caches()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0


def test_an_icon_saved_while_pnpgen_runs_is_drawn_as_saved(tmp_path):
    """watch and serve build in one process, save after save: an icon edited was drawn as first
    read (its shapes, the text laid out with it and that text's SVG were kept by its path), and
    the build recorded the new icon as built, so a new process said 'up to date' of the old face;
    the book's icons too (check said ok of an icon broken since)."""
    import pypdfium2 as pdfium

    from conftest import DRAFT, make_workspace, run
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace
    from pnpgen.errors import InputError
    from pnpgen.rulebook import rulebook_warnings

    ws = make_workspace(tmp_path / "ws", pieces=["A"], draft=True)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文A", 'text: "{gem}"'), encoding="utf-8")
    (ws / "data" / "test" / "draft.txt").write_text(DRAFT.replace("１：カードを１枚引く。", "１：{gem}を得る。"), "utf-8")
    gem = ws / "templates" / "test" / "icons" / "gem.svg"
    gem.parent.mkdir()
    for second, (colour, rgb) in enumerate((("#00ff00", (0, 255, 0)), ("#0000ff", (0, 0, 255))), 1):
        gem.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" '
                       f'fill="{colour}"/></svg>', encoding="utf-8")
        os.utime(gem, ns=(second * 10**9, second * 10**9))  # (saves a second apart: a file system's clock is coarse)
        assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
        page = pdfium.PdfDocument(str(ws / "build" / "test" / "cards.pdf"))[0].render(scale=0.5).to_pil().convert("RGB")
        assert rgb in {c for _, c in page.getcolors(1 << 16)}, colour
    game, dirs = load_game(Workspace(ws), "test"), builtin.icon_dirs(ws / "templates", "test")
    rulebook_warnings(game, ws / "fonts", dirs)  # the icon as the book read it (check, watch's book process) …
    gem.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="a.png"/></svg>', "utf-8")
    with pytest.raises(InputError, match="draft.txt.*icons/gem.svg uses <image>"):  # … and as saved since
        rulebook_warnings(game, ws / "fonts", dirs)


def test_an_icon_two_games_share_is_seen_saved_by_the_game_built_after(tmp_path):
    """Looked at by folder: the common icons edited after one game's build are seen as saved by
    another game's first build in the same process, which drew them as first read."""
    one, two, common = (tmp_path / name for name in ("one", "two", "common"))
    for folder in (one, two, common):
        folder.mkdir()
    coin = common / "coin.svg"
    coin.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>', encoding="utf-8")
    assert not icons.saved_since([one, common])
    coin.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"/>', encoding="utf-8")
    assert icons.saved_since([two, common])
    assert not icons.saved_since([one, common])


def test_an_icon_given_a_value_stops_at_its_line_and_a_brace_word_that_is_no_icon_prints(tmp_path, capsys):
    from pdfprobe import texts

    """{coin:2}, as other card tools write a cost (trial48's {mana:2}), printed its braces as text
    and check said ok; it stops at the text's line with the ways to write it. A {note: 1} that
    names no icon is text, printed as written."""
    root = make_workspace(tmp_path / "ws", pieces=["coin"])
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    clean = deck.read_text(encoding="utf-8")
    deck.write_text(clean.replace("text: 本文coin", 'text: "{coin:2}を払う"'), encoding="utf-8")
    assert run(root, "check", "--game", "test") == 2
    said = capsys.readouterr()
    err = said.out + said.err
    line = next(n for n, s in enumerate(deck.read_text(encoding="utf-8").splitlines(), 1) if "{coin:2}" in s)
    assert f"data/test/decks/cards.yaml:{line}:" in err, err
    assert "{coin:2} gives the icon {coin} a value, '2', and an icon takes none" in err, err
    assert "(expected the value beside the icon, 2{coin}, or the icon repeated, {coin}{coin}, or an icon drawn for " \
           "each value, {coin2}: templates/test/icons/coin2.svg)" in err, err
    assert "Traceback" not in err
    deck.write_text(clean.replace("text: 本文coin", 'text: "{note: 1}を払う"'), encoding="utf-8")
    assert run(root, "build", "--game", "test", "--no-rulebook") == 0
    assert "{note: 1}を払う" in "".join(texts(root / "build" / "test" / "shop" / "cards-unique.pdf"))


def test_an_icon_with_a_tag_left_open_is_told_at_its_line_with_the_tag_to_write(tmp_path):
    """<path …> for <path …/> in an icon drawn by hand was libxml2's 'Opening and ending tag
    mismatch' with no line of the icon's and nothing to write (trial48)."""
    p = tmp_path / "tap.svg"
    p.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n<path d="M0 0 H9" stroke="#000">\n</svg>\n')
    with pytest.raises(icons.IconError) as e:
        icons.load(p)
    said = str(e.value)
    assert f"icon {p}:3:" in said and "<path> (line 2) is never closed, and </svg> comes before its end" in said, said
    assert said.endswith("(expected <path …/>, or <path …> closed by </path>)"), said


def test_an_icon_painted_with_a_gradient_is_refused_naming_its_file(tmp_path):
    """docs/data-format.md: gradients in an icon are refused with the icon's path. A moon icon with
    its gradient in <defs> and `fill="url(#g)"` (defs are skipped) stopped the build as
    `deck 'board' … <circle> (line 8 of the SVG) has fill='url(#g)', which names no element of the
    face`: no icon file named, and the face's SVG, not the icon's, is the one with a line 8."""
    path = tmp_path / "moon.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n<defs><linearGradient id="g">'
                    '<stop offset="0" stop-color="#fc0"/></linearGradient></defs>\n'
                    '<circle cx="5" cy="5" r="4" style="stroke: #000; fill:url(#g)"/>\n</svg>\n', "utf-8")
    with pytest.raises(icons.IconError, match=rf"^icon {re.escape(str(path))}:3: <circle> is filled with 'url\(#g\)', "
                                              r"a gradient or pattern: icons may only use plain colours"):
        icons.load(path)


def test_a_compressed_icon_is_read_unpacked_to_at_most_an_icons_size(tmp_path):
    """An .svgz named .svg (libxml2 unpacked it whole from the file: 200 KB of gzip could unpack
    to gigabytes of elements) is read, unpacked no further than an icon may be."""
    import gzip

    small = tmp_path / "small.svg"
    small.write_bytes(gzip.compress(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>'))
    assert icons.load(small)[1] == (0.0, 0.0, 8.0, 8.0)
    bomb = tmp_path / "bomb.svg"
    bomb.write_bytes(gzip.compress(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8">'
                                   + b"<g/>" * 1_000_000 + b"</svg>"))
    assert bomb.stat().st_size < icons.MAX_ICON_BYTES
    with pytest.raises(icons.IconError, match=r"bomb\.svg unpacks to more than 200,000 bytes"):
        icons.load(bomb)
    broken = tmp_path / "broken.svg"
    broken.write_bytes(gzip.compress(b"<svg/>")[:12])
    with pytest.raises(icons.IconError, match=r"broken\.svg is not valid SVG: it is a compressed SVG .*, and damaged"):
        icons.load(broken)
