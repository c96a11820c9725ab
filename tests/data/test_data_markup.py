"""Inline markup parsing: bold, colours, icons, ruby, newlines, escapes, literal leftovers."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnpgen.data import markup
from pnpgen.data.markup import ICON, RUBY, TEXT, MarkupError, Span, loose_marks, parse, plain
from pnpgen.data.model import FieldText

PALETTE = {"red": "#c0392b", "blue": "#2f6db5"}


def test_plain_text_is_one_span():
    assert parse("ワーカーを配置する。", PALETTE) == [[Span(TEXT, "ワーカーを配置する。")]]


def test_bold():
    assert parse("a**b**c", PALETTE) == [[Span(TEXT, "a"), Span(TEXT, "b", bold=True), Span(TEXT, "c")]]


def test_unmatched_bold_is_literal():
    assert parse("**a**b**", PALETTE) == [[Span(TEXT, "a", bold=True), Span(TEXT, "b**")]]


def test_colour_spans_nest():
    assert parse("[red]a[blue]b[/blue]c[/red]", PALETTE) == [[
        Span(TEXT, "a", colour="red"), Span(TEXT, "b", colour="blue"), Span(TEXT, "c", colour="red")]]


def test_unpaired_or_unknown_brackets_are_literal():
    assert parse("[red]a", PALETTE) == [[Span(TEXT, "[red]a")]]
    assert parse("a[/red]", PALETTE) == [[Span(TEXT, "a[/red]")]]
    assert parse("[注意]a", PALETTE) == [[Span(TEXT, "[注意]a")]]


def test_markup_left_without_its_partner_is_named():
    """What prints as written because its partner is missing or misspelt (a designer's
    [/corall] printed on the card, silently); a bracketed word that is no colour is text."""
    assert loose_marks("[red]競り[/redd]で**3を得る", PALETTE) == [
        "[red] is never closed by [/red]", "[/redd] closes no [redd]", "a '**' without its partner"]
    assert loose_marks("[注意] [A] **a** [red]b[/red] \\* \\[red]", PALETTE) == []
    assert loose_marks("a[/red]", PALETTE) == ["[/red] closes no [red]"]


def test_unknown_colour_pair_is_an_error():
    with pytest.raises(MarkupError, match="pink"):
        parse("[pink]a[/pink]", PALETTE)


def test_icons_and_ruby():
    assert parse("{food}を{漢字|かんじ}", PALETTE) == [[
        Span(ICON, "food"), Span(TEXT, "を"), Span(RUBY, "漢字", reading="かんじ")]]


def test_ruby_takes_the_full_width_bar_a_japanese_input_method_types():
    """``{鏡｜かがみ}`` (the bar typed in full width, as an IME in Japanese mode gives it) printed
    its braces and bar on the card, silently; a ruby with one side empty prints as written and
    is named, as a markup without its partner is."""
    assert parse("{鏡｜かがみ}を見る", PALETTE) == [[Span(RUBY, "鏡", reading="かがみ"), Span(TEXT, "を見る")]]
    assert plain("{鏡｜かがみ}", PALETTE) == "鏡"
    assert loose_marks("{鏡|}を見る {｜かがみ}", PALETTE) == ["a ruby {鏡|} without its reading",
                                                      "a ruby {｜かがみ} without its base"]
    assert loose_marks("{鏡|かがみ} \\{a|} {{x|}}", PALETTE) == []
    # hostile39: '{|}' 300 times was named 300 times in one warning, thousands of characters long
    assert loose_marks("{|}" * 300 + "{鏡|}" * 2, PALETTE) == ["a ruby {|} without its base", "a ruby {鏡|} without its reading"]


def test_escapes_are_read_inside_a_ruby_as_outside():
    """A reading ending in a backslash closed a ruby at an escaped brace: ``\\}`` is a literal
    brace inside a ruby too, so ``{漢字|かんじ\\}`` is no ruby and prints as written."""
    assert parse("{漢字|かんじ\\}", PALETTE) == [[Span(TEXT, "{漢字|かんじ}")]]
    assert parse("{漢字|かんじ\\}}", PALETTE) == [[Span(RUBY, "漢字", reading="かんじ}")]]
    assert parse("{漢\\|字|かんじ\\\\}", PALETTE) == [[Span(RUBY, "漢|字", reading="かんじ\\")]]


def test_style_applies_to_icons_and_ruby():
    assert parse("**[red]{vp}{字|じ}[/red]**", PALETTE) == [[
        Span(ICON, "vp", True, "red"), Span(RUBY, "字", True, "red", "じ")]]


def test_template_braces_are_literal():
    assert parse("{{ piece.name }} {{x}} {a b}", PALETTE) == [[Span(TEXT, "{{ piece.name }} {{x}} {a b}")]]


def test_newlines_make_paragraphs_and_styles_carry():
    assert parse("**a\nb**\r\nc", PALETTE) == [
        [Span(TEXT, "a", bold=True)], [Span(TEXT, "b", bold=True)], [Span(TEXT, "c")]]


def test_backslash_escapes():
    assert parse(r"\*\*a\*\* \[red\] \{vp\} \\", PALETTE) == [[Span(TEXT, r"**a** [red] {vp} \ ".rstrip())]]


def test_other_backslashes_stay():
    assert parse(r"a\nb", PALETTE) == [[Span(TEXT, r"a\nb")]]


def test_plain_helper():
    assert plain("**a**{vp}{字|じ}\nb", PALETTE) == "a vp 字\nb"
    # an icon reads as its name, a word apart: order.csv listed '{star}の騎士' with its braces
    assert plain("{star}の騎士", PALETTE) == "star の騎士" and plain("騎士 {star}{moon}", PALETTE) == "騎士 star moon"
    # but set against punctuation, as a word is: TTS descriptions and order.csv read 'Pay 1 coin .'
    assert plain("Pay 1 {vp}. Gain {vp}, then {star}!", PALETTE) == "Pay 1 vp. Gain vp, then star!"
    assert plain("1{vp}、2{star}。（{moon}）「{vp}」", PALETTE) == "1 vp、2 star。（moon）「vp」"
    assert plain("({vp}{star}): {moon}", PALETTE) == "(vp star): moon"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="a騎士 *[]{}|｜\\\n\r/red-", max_size=12), st.booleans())
def test_plain_text_without_markup_characters_reads_as_the_parsed_text(text, with_palette):
    """A name with no character a token begins with is returned as it is, unparsed (a thousand
    cards' labels each build): the same text, a plain str, as the parse would give."""
    palette = PALETTE if with_palette else None
    try:
        quick = plain(FieldText(text, "title"), palette)
    except MarkupError:
        quick = None
    parsed = markup._MAY_HOLD_MARKUP  # (every text down the parse, as before the quick way)
    try:
        markup._MAY_HOLD_MARKUP = re.compile("")
        try:
            slow = plain(text, palette)
        except MarkupError:
            slow = None
    finally:
        markup._MAY_HOLD_MARKUP = parsed
    assert quick == slow and type(quick) is type(slow)


def test_markup_characters_from_html_are_text():
    assert parse("<b>&amp;</b>", PALETTE) == [[Span(TEXT, "<b>&amp;</b>")]]


def test_empty_text_has_no_paragraphs():
    assert parse("", PALETTE) == []


def test_check_warns_of_a_misspelt_closing_tag_naming_the_piece_and_field(tmp_path, capsys):
    from conftest import DECK_YAML, make_workspace, run

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + '  - {name: 香辛料, text: "[red]高値[/redd]で売れる。"}\n'
                        "  - {name: 魚, text: 港で売る。}\n")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr()
    err = out.out + out.err  # (check lists its warnings on stdout)
    warned = [line for line in err.splitlines() if "closes no" in line]
    assert len(warned) == 1, err
    assert "香辛料" in warned[0] and "field 'text'" in warned[0] and "[red] is never closed by [/red]" in warned[0]


def test_icon_names_in_any_script():
    """A Japanese designer's icons are 火.svg, 水.svg: {火} is an icon token, as {food} is (it
    printed as the characters '{火}', without a word); a digit or a space after '{' stays text."""
    assert parse("{火}{火}：{水}を得る", PALETTE) == [[
        Span(ICON, "火"), Span(ICON, "火"), Span(TEXT, "："), Span(ICON, "水"), Span(TEXT, "を得る")]]
    assert parse("{1} {１} { 火} {_x}", PALETTE) == [[Span(TEXT, "{1} {１} { 火} {_x}")]]


def test_bold_and_colours_typed_with_the_input_method_on_are_named():
    """＊＊強＊＊ and ［red］…［/red］, typed in full width, print as written: named, as a lone ** is;
    a ［注意］ that is no palette colour and a lone ＊ (a note mark) are text."""
    assert loose_marks("＊＊2＊＊ダメージ。［red］高値［/red］", PALETTE) == [
        "＊＊2＊＊ in full-width asterisks", "［red］ in full-width brackets", "［/red］ in full-width brackets"]
    assert loose_marks("＊注：［注意］を読む。", PALETTE) == []


def test_a_ruby_never_closed_or_never_opened_is_named_as_markup_without_its_partner():
    """trial81: ``{星|ほし`` (the closing brace forgotten) and ``星|ほし}`` (the opening one) printed
    their braces and bar on every copy, silently, where a lone ``**`` is warned; a whole ruby, an
    icon, an escaped brace and a bar outside any brace (``HP|MP``) are no slips."""
    assert loose_marks("動かぬ{星|ほし、旅人の", PALETTE) == ["a ruby {星|ほし、旅人の never closed by }"]
    assert loose_marks("{得|え**る**{vp}\n{月|つき", PALETTE) == ["a ruby {得|え never closed by }",
                                                              "a ruby {月|つき never closed by }"]
    assert loose_marks("動かぬ星|ほし}は{星|ほし}", PALETTE) == ["a ruby 動かぬ星|ほし} without its opening {"]
    assert loose_marks("{星|ほし}と{vp}、HP|MP、\\{a|b、{鏡|かがみ\\}}", PALETTE) == []
    assert loose_marks("{鏡|}を見る", PALETTE) == ["a ruby {鏡|} without its reading"]  # (told once, as before)
