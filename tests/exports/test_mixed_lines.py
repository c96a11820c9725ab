"""A thin line or small text printed in three or four inks blurs where a press's plates do not
register: a CMYK export warns it (the preset's min_mixed_line, min_mixed_text and mixed_inks),
naming the page, face and template."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run
from pnpgen.exports.presets import SHIPPED

# a white card with two rules 0.08 mm wide: one brown (#8b4513 → 0/50.36/86.33/45.49, three inks),
# one pure red (#ff0000 → 0/100/100/0, two inks), and a brown rule 0.2 mm wide; brown text of 6 and
# 10 pt, black text of 6 pt
LINES = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
         '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>\n'
         '<line x1="10" y1="20" x2="50" y2="20" stroke="#8b4513" stroke-width="0.08"/>\n'
         '<line x1="10" y1="30" x2="50" y2="30" stroke="#ff0000" stroke-width="0.08"/>\n'
         '<line x1="10" y1="40" x2="50" y2="40" stroke="#8b4513" stroke-width="0.2"/>\n'
         '{{ textbox("小さい", 10, 50, 40, 8, size=6, fill="#8b4513") }}\n'
         '{{ textbox("大きい", 10, 60, 40, 8, size=10, fill="#8b4513") }}\n'
         '{{ textbox("黒い", 10, 70, 40, 8, size=6, fill="#000000") }}\n'
         '{% endblock %}\n')


def _mixed(root, preset: str, *extra: str) -> list[str]:
    assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
    found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in found if "register" in w]


def _workspace(tmp_path):
    return make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 線, text: 本文, count: 2}\n  - {name: 罫, text: 本文}\n",
                          front=LINES)


def test_a_thin_line_and_small_text_in_three_inks_are_warned_once_per_template_and_colour(tmp_path):
    """DriveThruCards (CMYK, every copy a page, back first): the brown 0.08 mm rule, scaled ×1.01
    onto its card (0.229 pt), is warned once for the front template, its first page and the other
    two, and so is the 6 pt brown text (6.1 pt); the red rule (two inks), the 0.2 mm brown rule,
    the 10 pt brown text and the black text (K only) are not."""
    root = _workspace(tmp_path)
    [line, text] = _mixed(root, "drivethrucards", "--fit", "scale")
    assert line == ("data/test/decks/cards.yaml:3:8: cards.pdf page 2 ('線' of deck 'cards', front, template card-front.svg.j2) and 2 more pages: a line 0.229 pt "
                    "(0.08 mm) wide printed in three inks, CMYK 0/50.36/86.33/45.49: the plates of a press never "
                    "register exactly, so a line this thin in several inks prints blurred or fringed with colour; "
                    "draw it at least 0.1 mm (0.28 pt) wide, or in one ink (a dark line in K only) (min_mixed_line "
                    "of DriveThruCards: 0.1 mm, 3 inks or more)"), line
    assert text == ("data/test/decks/cards.yaml:3:8: cards.pdf page 2 ('線' of deck 'cards', front, template card-front.svg.j2) and 2 more pages: text 6.1 pt "
                    "printed in three inks, CMYK 0/50.36/86.33/45.49: the plates of a press never register exactly, "
                    "so text this small in several inks prints blurred or fringed with colour; set it at least 8 pt, "
                    "or in one ink (dark text in K only) (min_mixed_text of DriveThruCards: 8 pt, 3 inks or more)"), text


def test_the_shops_own_figures_and_off(tmp_path):
    """A workspace's copy of doujin asking for lines of two inks at least 0.25 mm names the red
    rule and both brown ones; text of at least 12 (pt, a bare number) names the brown text; off
    names none; an RGB export has no inks to count."""
    root = _workspace(tmp_path)
    shipped = root.parent / "shipped.yaml"
    shipped.write_text((SHIPPED / "doujin.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (root / "presets").mkdir()
    (root / "presets" / "strict.yaml").write_text(shipped.read_text(encoding="utf-8")
                                                 + "min_mixed_line: 0.25mm\nmixed_inks: 2\n", encoding="utf-8")
    [found] = [w for w in _mixed(root, "strict") if ": a line " in w]  # brown (both widths: its thinnest) and red, one line
    assert found.split(": a line ")[1].split(" wide")[0] == "0.227 pt (0.08 mm)", found
    assert ("printed in several inks, 2 colours (CMYK 0/50.36/86.33/45.49, three inks: page 1 ('線' of deck 'cards', "
            "front) and 1 more page; CMYK 0/100/100/0, two inks: page 1 ('線' of deck 'cards', front) and 1 more page)"
            ) in found, found
    assert "min_mixed_line of 同人印刷所（トンボ付きPDF）: 0.25 mm, 2 inks or more" in found
    (root / "presets" / "strict.yaml").write_text(shipped.read_text(encoding="utf-8")
                                                 + "min_mixed_line: off\nmin_mixed_text: 12\n", encoding="utf-8")
    [found] = _mixed(root, "strict")  # a bare number is points; one colour, its smallest text named
    assert found.split(": text ")[1].split(" printed")[0] == "6 pt" and "set it at least 12 pt," in found, found
    (root / "presets" / "strict.yaml").write_text(shipped.read_text(encoding="utf-8")
                                                 + "min_mixed_line: off\nmin_mixed_text: off\n", encoding="utf-8")
    assert _mixed(root, "strict") == []
    assert _mixed(root, "doujin", "--colour", "rgb", "--pdfx", "none") == []


def test_text_outlined_for_the_shop_is_read_as_the_text_it_was(tmp_path):
    """--outline-text draws every glyph as a path: the small brown text is still named (read before
    it is outlined), as in the same export without outlining."""
    root = _workspace(tmp_path)
    found = [w for w in _mixed(root, "doujin", "--outline-text") if ": text " in w]
    assert found == [w for w in _mixed(root, "doujin") if ": text " in w] and len(found) == 1, found


def test_a_bad_number_of_inks_is_an_error_naming_the_line(tmp_path, capsys):
    root = _workspace(tmp_path)
    (root / "presets").mkdir()
    (root / "presets" / "odd.yaml").write_text("name: Odd\ncolour: cmyk\nfiles: pdf-faces\nmixed_inks: 5\n"
                                              "formats:\n  poker: {trim: [63mm, 88mm], bleed: 3mm, safe: 3mm}\n",
                                              encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "odd") == 2
    err = capsys.readouterr().err
    assert "odd.yaml:4" in err and "mixed_inks" in err and "2 to 4" in err, err


def test_the_mark_of_an_open_value_is_not_taken_for_text_in_mixed_inks(tmp_path):
    """A 未定 value prints in pnpgen's magenta, on the magenta plate alone (the formula gives
    #e4007f 0/100/44.3/10.59, three inks), at 6 pt here: the export warns that the deck still prints
    未定, not that the mark is small text in mixed inks; the same text in brown is warned."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" '
             'fill="#ffffff"/>\n{{ textbox(piece.text, 10, 50, 40, 8, size=6, fill="#8b4513") }}\n{% endblock %}\n')
    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 未, text: 未定}\n  - {name: 済, text: 本文}\n",
                          front=front)
    found = _mixed(root, "doujin")
    assert [w.split(": text ")[1].split(" printed")[0] for w in found] == ["「本文」 6 pt"], found
    assert "('済' of deck 'cards', front" in found[0] and "CMYK 0/50.36/86.33/45.49" in found[0], found
    warnings = json.loads((root / "build" / "test" / "doujin" / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert any("still prints 未定" in w for w in warnings), warnings


# a dark ground in three inks (#101018 → 33.33/33.33/0/90.59) with white text of 6 and 10 pt, a
# white rule 0.08 mm wide and 6 pt text in a paper cream (#f5eedd → 0/2.86/9.8/3.92) on it; a K-only
# black ground (#000000 → 0/0/0/100) with white 6 pt text;
# white 6 pt text on the white card; a picture (navy #282878 → 66.67/66.67/0/52.94 once converted)
# with white 6 pt text over it
REVERSED = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
            '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>\n'
            '<rect x="5" y="5" width="53" height="25" fill="#101018"/>\n'
            '{{ textbox("白抜き", 8, 8, 40, 8, size=6, fill="#ffffff") }}\n'
            '{{ textbox("大きい", 8, 16, 40, 8, size=10, fill="#ffffff") }}\n'
            '<line x1="8" y1="27" x2="50" y2="27" stroke="#ffffff" stroke-width="0.08"/>\n'
            '{{ textbox("生成り", 30, 8, 25, 8, size=6, fill="#f5eedd") }}\n'
            '<rect x="5" y="33" width="53" height="12" fill="#000000"/>\n'
            '{{ textbox("墨の地", 8, 36, 40, 8, size=6, fill="#ffffff") }}\n'
            '{{ textbox("紙の上", 8, 48, 40, 8, size=6, fill="#ffffff") }}\n'
            '{{ image("navy.png", 5, 60, 53, 20) }}\n'
            '{{ textbox("絵の上", 8, 66, 40, 8, size=6, fill="#ffffff") }}\n'
            '{% endblock %}\n')


def test_small_white_text_and_thin_white_lines_knocked_out_of_a_ground_in_three_inks_are_warned(tmp_path):
    """White type reversed out of a dark mix fills in where the plates shift: the 6 pt white text,
    the 6 pt cream text and the 0.08 mm white rule on the three-ink ground are warned, each with the
    ground's colour;
    so is the white text on the picture (its pixels are the ground); the 10 pt white text, the
    white text on the K-only black (one plate) and on the paper are not. Without the check the
    export said nothing of any of them (white is no ink: no line or text in mixed inks)."""
    from PIL import Image

    root = make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 白, text: 本文}\n", front=REVERSED)
    Image.new("RGB", (630, 240), (40, 40, 120)).save(root / "templates" / "test" / "navy.png")
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    warnings = json.loads((root / "build" / "test" / "doujin" / "export.json").read_text(encoding="utf-8"))["warnings"]
    found = sorted(w for w in warnings if "knocked out of" in w)
    assert len(found) == 3, found  # the white text on the ground and on the picture: one line naming both grounds
    line, cream, text = found
    picture = text.split("; CMYK ")[1]
    assert ": near-white (CMYK 0/2.86/9.8/3.92) text 6 pt knocked out of a ground in several inks (CMYK " \
           "33.33/33.33/0/90.59, three inks)" in cream, cream  # under 10 % of every ink: as good as white
    assert line == ("data/test/decks/cards.yaml:3:8: cards.pdf page 1 ('白' of deck 'cards', front, template card-front.svg.j2): a white line 0.227 pt (0.08 mm) "
                    "wide knocked out of a ground in several inks (CMYK 33.33/33.33/0/90.59, three inks): where the "
                    "plates shift, each ink of the ground creeps into the white and fills it in; draw it at least "
                    "0.1 mm (0.28 pt) wide, or make the ground under it of fewer inks (a neutral grey or black prints "
                    "K only) (min_mixed_line of 同人印刷所（トンボ付きPDF）: 0.1 mm, a ground of 3 inks or more)"), line
    assert text.startswith("data/test/decks/cards.yaml:3:8: cards.pdf page 1 ('白' of deck 'cards', front, template card-front.svg.j2): white text 6 pt knocked "
                           "out of grounds in several inks (2 grounds: CMYK 33.33/33.33/0/90.59, three inks: page 1 "
                           "('白' of deck 'cards', front); CMYK 66.67/66.67/0/52.94, three inks: page 1 ('白' of deck "
                           "'cards', front))"), text
    assert "set it at least 8 pt, or make the ground under it of fewer inks" in text, text
    assert picture.startswith("66.67/66.67/0/52.94, three inks"), picture
    # a shop that wants none of it says so with the same figures as for mixed lines and text
    (root / "presets").mkdir()
    (root / "presets" / "lax.yaml").write_text((SHIPPED / "doujin.yaml").read_text(encoding="utf-8")
                                               + "min_mixed_line: off\nmin_mixed_text: off\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "lax") == 0
    lax = json.loads((root / "build" / "test" / "lax" / "export.json").read_text(encoding="utf-8"))["warnings"]
    assert not [w for w in lax if "knocked out" in w], lax


def test_small_knocked_out_text_names_its_words_when_the_face_prints_them_alone_at_that_size(tmp_path):
    """Japanese trial (双竜戦記): 「white text 6.5 pt knocked out of a ground」 on a card titled
    {氷竜|ひょうりゅう} named no text, and no box of the deck is 6.5 pt: it is the title's ruby, at half
    the title's 13 pt on the accent band. The warning quotes the words the face prints alone at
    that size; where several texts share it (the test above), none is quoted."""
    deck = ("name: テストカード\nlayout: {extends: card-poker, palette: {accent: \"#2a4a9c\"}}\n"
            "pieces:\n  - {title: \"{氷竜|ひょうりゅう}\", text: 本文, art: 未定}\n")
    root = make_workspace(tmp_path, deck=deck)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    warnings = json.loads((root / "build" / "test" / "doujin" / "export.json").read_text(encoding="utf-8"))["warnings"]
    found = [w for w in warnings if "knocked out of a ground" in w]
    assert len(found) == 1 and "white text 「ひょうりゅう」 6.5 pt knocked out" in found[0], found


# each clan's colour a ground of three inks, the clan's name in white 5 pt on it (trial69's wargame counters)
CLANS = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
         '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="{{ piece.text }}"/>\n'
         '{{ textbox(piece.name, 8, 8, 40, 8, size=5, fill="#ffffff") }}\n'
         '{{ textbox("兵", 8, 20, 40, 8, size=5, fill="#805020") }}\n'
         '{% endblock %}\n')


def test_white_text_on_each_clans_colour_is_one_warning_naming_every_ground_and_where_it_is(tmp_path):
    """trial69: a wargame's counters print each clan's name in white 5 pt on the clan's colour, and
    the 同人 export gave one near-identical line per colour. Now one line names each ground, the
    first page and piece showing it and how many more pages do; the small brown text on them, in
    three inks, is one line too (its single colour as before)."""
    clans = ["#802020", "#204080", "#206030", "#802020"]  # (the first clan's colour twice)
    deck = DECK_YAML + "".join(f"  - {{name: 家{i}, text: \"{c}\", count: {i + 1}}}\n" for i, c in enumerate(clans))
    root = make_workspace(tmp_path, deck=deck, front=CLANS)
    assert run(root, "export", "--game", "test", "--preset", "doujin") == 0
    warnings = json.loads((root / "build" / "test" / "doujin" / "export.json").read_text(encoding="utf-8"))["warnings"]
    knocked = [w for w in warnings if "knocked out of" in w]
    assert len(knocked) == 1, knocked
    line = knocked[0]
    assert "white text 5 pt knocked out of grounds in several inks (3 grounds: CMYK " in line, line
    grounds = line.split("(3 grounds: ")[1].split("): where the plates shift")[0].split("; ")
    assert len(grounds) == 3 and all(", three inks: page " in g for g in grounds), grounds
    # each ground's first piece named (the doujin file: each face once, its back after it), and the
    # pages past its first counted: the first clan's colour on 家0 and 家3
    assert [g.split("('")[1].split("'")[0] for g in grounds] == ["家0", "家1", "家2"], grounds
    assert grounds[0].endswith("page 1 ('家0' of deck 'cards', front) and 1 more page"), grounds
    assert grounds[1].startswith("CMYK 75/50/0/49.8, three inks: page 3 ('家1'") and "more" not in grounds[1], grounds
    assert "page 1 ('家0' of deck 'cards', front, template card-front.svg.j2) and 3 more pages: white text" in line, line
    brown = [w for w in warnings if "printed in" in w and "register" in w]
    assert len(brown) == 1 and "text 5 pt printed in three inks, CMYK" in brown[0], brown
