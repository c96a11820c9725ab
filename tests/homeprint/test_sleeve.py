"""Sleeve inserts (issue 25, item 4): fronts only, at the trim when it fits the sleeve, else
scaled down to fit; cut marks for the insert's size; read back from the PDF in mm."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader

from conftest import DECK_YAML, REPO, make_workspace, run
from pdfprobe import stroked_lines, texts
from pnpgen.data.validate import Invalid
from pnpgen.impose.cutter import cricut_area_option
from pnpgen.impose.sleeve import sleeve_option


def _faces(pdf):
    """Per page: the scale of each placed face's matrix (1.0 at full size)."""
    out = []
    for page in pdfium.PdfDocument(pdf.read_bytes()):
        out.append([abs(o.get_matrix().a) or abs(o.get_matrix().b) for o in page.get_objects(max_depth=1)
                    if o.type == pdfium_c.FPDF_PAGEOBJ_FORM])
    return out


@pytest.mark.parametrize("sleeve, sleeve_mm, scale, insert", [("66x91", [66, 91], 1.0, (63.0, 88.0)),
                                                              ("60x85", [60, 85], 59 / 63, (59.0, 88 * 59 / 63)),
                                                              ("2.6x3.6in", [66.04, 91.44], 1.0, (63.0, 88.0))])
def test_fronts_only_at_the_size_the_sleeve_takes(tmp_path, sleeve, sleeve_mm, scale, insert):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--sleeve", sleeve) == 0
    out = ws / "build" / "test"
    deck = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert deck["layout"] == "sleeve" and deck["reduced"] == (scale < 1)
    assert deck["sleeve_mm"] == sleeve_mm  # as written in mm, not 66.03999999999999 for 2.6 in
    assert deck["insert_mm"] == pytest.approx(list(insert), abs=0.001)
    pdf = out / "cards.pdf"
    faces = _faces(pdf)
    assert sum(len(p) for p in faces) == 11  # every front once, no backs
    assert len(faces) == -(-11 // deck["pieces_per_sheet"])
    assert all(s == pytest.approx(scale, abs=1e-6) for page in faces for s in page)
    reader = PdfReader(pdf)
    lines = stroked_lines(reader, reader.pages[0])
    xs = sorted({round(x1, 3) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 1e-6})
    ys = sorted({round(y1, 3) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 1e-6})
    # some pair of vertical marks is one insert wide, some pair of horizontal ones one insert high
    assert any(abs((b - a) - insert[0]) < 0.01 for a in xs for b in xs), xs
    assert any(abs((b - a) - insert[1]) < 0.01 for a in ys for b in ys), ys
    words = "".join(texts(pdf)[0].split())
    assert "スリーブ用" in words and (f"{scale * 100:.1f}%に縮小" in words if scale < 1 else "原寸" in words)


def test_a_bad_sleeve_size_is_one_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    with pytest.raises(SystemExit) as e:
        run(ws, "build", "--game", "test", "--layout", "sleeve", "--sleeve", "66by91")
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "66by91" in err and "66x91" in err


def test_sleeve_without_the_sleeve_layout_is_refused(tmp_path, capsys):
    """``--sleeve 66x91`` alone built the usual grid with backs, the size passed over in silence."""
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--sleeve", "66x91") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--sleeve without --layout sleeve" in err and "--layout sleeve" in err, err
    assert not (ws / "build" / "test" / "cards.pdf").exists()


@pytest.mark.parametrize("text", ["66X91", "66×91", "66 x 91 mm"])
def test_a_sleeve_size_is_read_as_typed(text):
    got = sleeve_option(text)
    assert (got.w, got.h) == (66.0, 91.0)


@pytest.mark.parametrize("text, mm", [("2.6x3.6in", (66.04, 91.44)), ("2.6in x 3.6in", (66.04, 91.44)),
                                      ("6.6x9.1cm", (66.0, 91.0)), ("66mmx91mm", (66.0, 91.0))])
def test_a_sleeve_size_may_carry_a_unit(text, mm):
    """English trial: US sleeve sizes are sold in inches too; README says lengths take units.
    A unit after the height is both sides'."""
    got = sleeve_option(text)
    assert (round(got.w, 2), round(got.h, 2)) == mm


def test_a_sleeve_size_in_inches_beyond_the_range_is_refused():
    with pytest.raises(Invalid) as e:
        sleeve_option("66x91in")  # 91 in: a slip for mm
    assert "is not a sleeve size" in e.value.message and "2.6x3.6in" in e.value.expected


def test_the_build_says_when_inserts_are_reduced(tmp_path, capsys):
    """A mistyped sleeve (36x91 for 66x91) prints 56 % inserts: the build's line for the deck
    says so, not only the slug on the printed sheet."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--sleeve", "36x91") == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("cards"))
    assert "(sleeve, reduced to 55.6 %)" in line, line  # (36 − 1) / 63
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--sleeve", "66x91") == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("cards"))
    assert "(sleeve)" in line and "reduced" not in line, line


@pytest.mark.parametrize("text, meant", [("66x91MM", "66x91mm"), ("2.6X3.6IN", "2.6x3.6in"), ("66Mmx91Mm", "66mmx91mm")])
def test_a_unit_in_capitals_is_refused_with_the_hint_a_single_length_gives(text, meant):
    """``--bleed 3MM`` was refused with "did you mean 3mm?" while ``--sleeve 66x91MM`` was read:
    one behaviour for every length, the hint."""
    with pytest.raises(Invalid) as e:
        sleeve_option(text)
    assert e.value.message == f"{text!r} is not a sleeve size; did you mean {meant}?", e.value.message


def test_a_sleeve_size_in_inches_written_without_its_unit_is_told_the_unit():
    """trial35: an English designer measured a US sleeve, 2.6 × 3.6 in, and typed `--sleeve 2.6x3.6`:
    refused as mm from 20 with no hint, while `3MM` gets "did you mean 3mm?"."""
    with pytest.raises(Invalid) as e:
        sleeve_option("2.6x3.6")
    assert e.value.message == "'2.6x3.6' is not a sleeve size; did you mean 2.6x3.6in?", e.value.message
    with pytest.raises(Invalid) as e:
        sleeve_option("0.5x0.5")  # no sleeve in inches either: no hint
    assert "did you mean" not in e.value.message


@pytest.mark.parametrize("text, meant", [("6x9", "6x9cm"), ("6.6x9.1", "6.6x9.1cm"), ("4x6", "4x6in or 4x6cm")])
def test_a_sleeve_size_in_centimetres_written_without_its_unit_is_told_centimetres(text, meant):
    """`--sleeve 6x9` was told "did you mean 6x9in?": no card sleeve is 6 × 9 in, a 6 × 9 cm card's is."""
    with pytest.raises(Invalid) as e:
        sleeve_option(text)
    assert e.value.message == f"{text!r} is not a sleeve size; did you mean {meant}?", e.value.message


@pytest.mark.parametrize("text, meant", [("6x9", "6x9in"), ("20x25", "20x25cm")])
def test_a_print_then_cut_area_without_its_unit_is_told_the_unit_an_area_is_in(text, meant):
    with pytest.raises(Invalid) as e:
        cricut_area_option(text)
    assert e.value.message == f"{text!r} is not a Print Then Cut area; did you mean {meant}?", e.value.message


PLAIN_BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#333366"/>
{% endblock %}
"""
NUMBERED_BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
{{ textbox(piece.name, 5, 30, w - 10, 20, size=30, align="center") }}
{% endblock %}
"""


def test_a_deck_whose_backs_tell_its_cards_apart_is_named_as_sleeve_inserts_leave_them_out(tmp_path, capsys):
    """A designer trial: numbered scenario cards, found face down by the number on their backs,
    built with --layout sleeve printed fronts only and said nothing: the numbers were gone. The
    build names the deck, at its back: line; a deck of one back (the backer card stands in for
    it) says nothing."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"], back=PLAIN_BACK)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve") == 0
    assert "--layout sleeve" not in capsys.readouterr().err
    (ws / "templates" / "test" / "card-back.svg.j2").write_text(NUMBERED_BACK, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "--layout sleeve" in line]
    assert said == ["pnpgen: warning: data/test/decks/cards.yaml:4:7: --layout sleeve: deck 'cards' has 2 different "
                    "backs (its back reads the piece), and sleeve inserts print fronts only, with a backer card "
                    "behind: nothing on the backs tells its cards apart (expected its sheets from a build without "
                    "--layout sleeve, e.g. pnpgen build --game test --out build-backs, or one back for every card)"]
    assert len(_faces(ws / "build" / "test" / "cards.pdf")) == 1  # fronts only, as documented


def test_a_deck_names_its_own_sleeve_and_a_builds_sleeve_that_does_not_suit_a_deck_is_told(tmp_path, capsys):
    """Mini cards (44×63) beside poker cards in one ``--layout sleeve --sleeve 66x91`` build got
    the poker sleeve without a word. A deck file's ``sleeve:`` wins over --sleeve for its deck (the
    inserts' marks measured in mm); a deck without one that the build's sleeve does not suit is
    told at its deck file's size: line (polish48: it was line 1), with the sleeve: to write there; the
    poker deck it suits is not."""
    ws = make_workspace(tmp_path / "ws", pieces=["カード1", "カード2"])
    decks = ws / "data" / "test" / "decks"
    mini = DECK_YAML.replace("format: poker", "size: [44, 63]")
    (decks / "minis.yaml").write_text(mini + "  - {name: m1, text: t}\n", encoding="utf-8")
    (decks / "owned.yaml").write_text(mini.replace("size:", "sleeve: [47, 66]\nsize:") + "  - {name: o1, text: t}\n",
                                      encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--sleeve", "66x91") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "does not suit" in line]
    assert said == ["pnpgen: warning: data/test/decks/minis.yaml:2:7: --sleeve 66x91 does not suit deck 'minis': the "
                    "sleeve is over 5 mm larger than its 44×63 mm cards, which would slide about in it (expected "
                    "sleeve: 47x66 in its deck file — the inside of the sleeves you bought for these cards, "
                    "measured — which wins over --sleeve for this deck)"], said
    out = ws / "build" / "test"
    records = {d["id"]: d for d in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["decks"]}
    assert records["owned"]["sleeve_mm"] == [47, 66] and records["minis"]["sleeve_mm"] == [66, 91]
    assert records["cards"]["sleeve_mm"] == [66, 91]
    reader = PdfReader(out / "owned.pdf")
    words = "".join(texts(out / "owned.pdf")[0].split())
    assert "47×66" in words and "原寸" in words, words
    lines = stroked_lines(reader, reader.pages[0])
    xs = sorted({round(x1, 3) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 1e-6})
    ys = sorted({round(y1, 3) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 1e-6})
    for across in (xs, ys):  # the insert at the card's trim (turned a quarter here): 44 and 63 mm between marks
        assert {side for side in (44, 63) if any(abs((b - a) - side) < 0.01 for a in across for b in across)}, across
    assert any(abs((b - a) - 44) < 0.01 for a in xs + ys for b in xs + ys)
    # a sleeve smaller than the card is told too (its inserts reduced)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--sleeve", "60x85") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "does not suit" in line]
    assert [line.split(": --sleeve")[0] for line in said] == ["pnpgen: warning: data/test/decks/cards.yaml:2:9",
                                                              "pnpgen: warning: data/test/decks/minis.yaml:2:7"], said
    assert "smaller than its 63×88 mm cards with 1 mm to spare, so its inserts are reduced" in said[0]
    assert "sleeve: 66x91 in its deck file" in said[0]


def test_a_bad_sleeve_in_a_deck_file_is_an_error_at_its_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML.replace("format: poker", "format: poker\nsleeve: 66by91")
                        + "  - {name: a, text: t}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:3:9: sleeve:" in err and "'66by91' is not a sleeve size" in err, err
    assert "66x91" in err and "Traceback" not in err


@pytest.mark.parametrize("written, said", [
    ("true", "true is not a sleeve's size (expected the sleeve's inside, e.g. sleeve: 66x91 (mm) or [66, 91])"),
    ("{w: 47}", "{w: 47} is not a sleeve's size"), ("[47]", "[47] is not a sleeve's size"),
    ("[-1, 66]", "[-1, 66] is not a sleeve's size (expected WIDTHxHEIGHT in mm from 20 to 400")])
def test_a_sleeve_of_another_shape_is_told_as_written(written, said):
    """hostile40: 'sleeve: sleeve: True is not a sleeve's size', 'sleeve: {'w': 47}' (Python's words,
    the key said twice), and [-1, 66] told as '-1x66', a text the designer never wrote."""
    from pnpgen.data.deckfile import _sleeve
    from pnpgen.data.validate import Invalid
    from pnpgen.data.yamlsrc import load_value

    with pytest.raises(Invalid) as e:
        _sleeve(load_value(written))
    assert f"{e.value.message} (expected {e.value.expected})".startswith(said), e.value.message
    assert _sleeve(load_value("[66, ９１]")) == (66.0, 91.0)


def test_cards_on_card_stock_keep_their_backs_in_a_sleeve_build_and_are_warned_as_printed(tmp_path, capsys):
    """A deck on card stock (``sheet: poker-3x3-a4``) prints fronts and backs in its slots whatever
    --layout says; with --layout sleeve it was modelled as fronts only: a deck of numbered backs was
    told sleeve inserts leave them out (they were printed), and the printer profile's warning that
    the stock's slots leave its backs too little bleed for the offset was skipped. Both now follow
    what is printed: the backs page behind the fronts, the bleed warned, no word of left-out backs."""
    deck = DECK_YAML.replace("format: poker", "format: poker\nsheet: poker-3x3-a4") \
        + "".join(f"  - {{name: カード{n}, text: 本文{n}}}\n" for n in (1, 2))
    ws = make_workspace(tmp_path / "ws", back=NUMBERED_BACK, deck=deck)
    (ws / "printers.yaml").write_text("steady: {back_offset_mm: [0.3, -0.2]}\n", encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--printer", "steady") == 0
    err = capsys.readouterr().err
    assert "sleeve inserts print fronts only" not in err, err
    assert "deck 'cards': its home sheets give 0.0 mm of bleed, below the 0.8 mm the back offset of printer 'steady' " \
        "needs (the larger offset + 0.5 mm): the slots of sheet layout 'poker-3x3-a4' leave no room for more" in err, err
    pdf = ws / "build" / "test" / "cards.pdf"
    assert [len(page) for page in _faces(pdf)] == [2, 2]  # its fronts, then its backs behind them
    assert "2" in texts(pdf)[1] and "1" in texts(pdf)[1]  # the numbered backs, printed
    record = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["decks"][0]
    assert record["layout"] == "sheet poker-3x3-a4" and record["double_sided"]


def test_small_decks_share_the_sheets_of_sleeve_inserts(tmp_path):
    """Sleeve inserts never shared sheets: 10 cards and 4 one-sided role cards (9 inserts a sheet of
    A4) took 2 + 1 sheets of ``<game>-all.pdf``. With ``share_sheets: true`` the copies of their
    last sheets share one (an insert is a front alone: a two-sided deck's and a one-sided one's
    alike), the decks' names on its slug, every insert at the sleeve's size; ``<deck>.pdf`` stays
    one deck a file; without it, nothing moves."""
    from pypdf import PdfReader

    from conftest import GAME_YAML

    ws = make_workspace(tmp_path / "ws", pieces=[f"カード{n}" for n in range(1, 11)], game=GAME_YAML + "share_sheets: true\n")
    roles = DECK_YAML.replace("テストカード", "役割").replace("back: card-back.svg.j2\n", "")
    (ws / "data" / "test" / "decks" / "roles.yaml").write_text(
        roles + "".join(f"  - {{name: 役{n}, text: t}}\n" for n in range(1, 5)), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve") == 0
    out = ws / "build" / "test"
    everything = out / "test-all.pdf"
    assert len(PdfReader(everything).pages) == 2 + 1  # two sheets of inserts (not three), the bill of materials
    assert [len(page) for page in _faces(everything)[:2]] == [9, 5]  # カード1–9; カード10, 役1–4
    assert all(s == pytest.approx(1.0, abs=1e-6) for page in _faces(everything)[:2] for s in page)  # 63×88 in 66×91
    words = texts(everything)
    assert "テストカード + 役割 (cards+roles)" in words[1] and "共有 1/1" in words[1] and "スリーブ用" in words[1], words[1]
    assert "テストカード (cards)" in words[0] and "1/2" in words[0]  # the first deck's full sheet, as in cards.pdf
    assert "1–2 ページ：テストカード、役割が 2 枚のシートを共有（デッキごとのファイルでは 3 枚）" in words[2], words[2]
    assert [len(page) for page in _faces(out / "roles.pdf")] == [4] and [len(p) for p in _faces(out / "cards.pdf")] == [9, 1]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["bill_of_materials"]["shared_sheets"] == [
        {"decks": ["テストカード", "役割"], "sheets": 2, "alone": 3, "pages": [1, 2]}]
    game_yaml = ws / "data" / "test" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("share_sheets: true\n", ""), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve") == 0
    assert [len(page) for page in _faces(everything)[:3]] == [9, 1, 4]  # off: each deck starts a sheet


def test_a_sleeve_build_of_a_game_with_no_card_deck_says_it_changes_nothing(tmp_path, capsys):
    """trial73: a memory game of square tiles built with --layout sleeve printed its usual duplex
    sheets without a word. A game with no card deck is told so, once; one with a card deck is not."""
    ws = make_workspace(tmp_path / "ws", deck="name: タイル\nlayout: {extends: tile-hex, shape: rect, size: [60, 60]}\n"
                        "pieces:\n  - {title: 蛙, text: ケロ}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "pnpgen: warning: --layout sleeve changes nothing in 'test': sleeve inserts are made of card decks (kind: " \
        "card) and it has none; its tile decks print as usual, two-sided ones duplex (expected --layout fold for " \
        "two-sided pieces without duplex, or a deck of kind: card)\n" in err, err
    (ws / "data" / "test" / "decks" / "poker.yaml").write_text("name: カード\nlayout: card-poker\npieces:\n"
                                                             "  - {title: 蛙, text: ケロ}\n", encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--layout", "sleeve", "--jobs", "1") == 0
    assert "changes nothing" not in capsys.readouterr().err
    page = " ".join((REPO / "docs" / "home-printing.md").read_text(encoding="utf-8").split())
    assert "`--layout sleeve changes nothing in 'pond': sleeve inserts are made of card decks (kind: card) and it has " \
        "none; …`" in page


def test_the_inch_shops_poker_card_keeps_its_trim_in_poker_sleeves_and_is_reduced_in_its_own_size():
    """docs/print-facts.md (trial78: a US designer's 2.5 × 3.5 in cards, sleeved): 66x91 keeps the
    63.5 × 88.9 mm card at trim size, as does the default (its trim + 3 mm); a sleeve written as the
    card's own size reduces the insert to 98.4 %, as the page says."""
    from pnpgen.impose.sleeve import Sleeve, default_sleeve
    from pnpgen.shapes import ShapeSpec

    card = ShapeSpec("rect", 63.5, 88.9, ((0.0, 0.0), (63.5, 0.0), (63.5, 88.9), (0.0, 88.9)))
    page = (REPO / "docs" / "print-facts.md").read_text(encoding="utf-8")
    assert "`--sleeve 66x91`" in page and "66.5x91.9" in page and "98.4 %" in page
    assert sleeve_option("66x91").scale_for(card) == 1.0
    assert default_sleeve((63.5, 88.9)) == pytest.approx((66.5, 91.9))
    assert f"{Sleeve(*default_sleeve((63.5, 88.9))).scale_for(card) * 100:.1f}" == "100.0"
    assert f"{sleeve_option('2.5x3.5in').scale_for(card) * 100:.1f}" == "98.4"


@pytest.mark.parametrize("text, meant", [("2 5/8 x 3 5/8 in", "2.625x3.625in"), ("2-5/8x3-5/8in", "2.625x3.625in"),
                                         ('2-5/8"x3-5/8"', "2.625x3.625in"), ("2 5/8x3 1/2", "2.625x3.5in"),
                                         ("2 5/8x3in", "2.625x3in")])
def test_a_sleeve_size_in_inch_fractions_is_told_its_decimals(text, meant):
    """trial84: an American designer typed a US sleeve as its box labels it, `2 5/8 x 3 5/8 in`, and
    got no hint, while `--bleed 1/8in` is told `did you mean 0.125in?`."""
    with pytest.raises(Invalid) as e:
        sleeve_option(text)
    assert e.value.message == f"{text!r} is not a sleeve size; did you mean {meant}?", e.value.message
    got = sleeve_option(meant)
    assert (round(got.w, 2), round(got.h, 2)) == (round(float(meant.split("x")[0]) * 25.4, 2),
                                                  round(float(meant.split("x")[1][:-2]) * 25.4, 2))


@pytest.mark.parametrize("text", ["5/0x3in", "2 5x3 5", "axb"])
def test_a_sleeve_size_that_is_no_fraction_either_gets_no_guess(text):
    with pytest.raises(Invalid) as e:
        sleeve_option(text)
    assert e.value.message == f"{text!r} is not a sleeve size", e.value.message
