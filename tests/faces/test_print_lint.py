"""The print lint: thin strokes, small text, text and thin strokes in the safe zone, each named
once per deck and template line, with its figures from game.yaml ``lint:``."""

from __future__ import annotations

import json

from conftest import DECK_YAML, GAME_YAML, make_workspace, run

FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
<line x1="20" y1="40" x2="40" y2="40" stroke="#000000" stroke-width="0.0353"/>
{{ textbox(piece.name, 10, 45, w - 20, 5, size=5, min_size=5, align="center") }}
{{ textbox(piece.text, 1, 60, 30, 8, size=9, min_size=9) }}
{% endblock %}
"""
AT = "templates/test/card-front.svg.j2"
TWO = ["カード1", "カード2"]  # a template's lint names the first piece and counts the others: two cards (the small workspace has 11)
EXPECTED = [
    f"{AT}:4: print lint: deck 'cards' piece 1 (カード1) and 1 more: stroke 0.10 pt, thinner than 0.25 pt (a printer may drop it)",
    f"{AT}:5: print lint: deck 'cards' piece 1 (カード1) and 1 more: text 「カード1」 5.0 pt, smaller than 6 pt",
    f"{AT}:6: print lint: deck 'cards' piece 1 (カード1) and 1 more: text 「本文カード1」 1.0 mm from the trim, "
    "inside the 3 mm safe zone (a drifted cut may take it)",
]


def _lint(capsys, ws) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = run(ws, "check", "--game", "test")
    out = capsys.readouterr()
    return code, [line.strip().removeprefix("warning: ") for line in (out.out + out.err).splitlines() if "print lint" in line]


def test_each_problem_one_line_naming_the_template_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=FRONT)
    code, lines = _lint(capsys, ws)
    assert code == 0
    assert lines == EXPECTED
    assert run(ws, "build", "--game", "test", "--out", str(tmp_path / "out"), "--jobs", "1") == 0
    warnings = json.loads((tmp_path / "out" / "test" / "manifest.json").read_text())["warnings"]
    assert [w for w in warnings if "print lint" in w] == EXPECTED


def test_lint_figures_from_game_yaml(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=FRONT, game=GAME_YAML + "lint: {min_text: 4pt, safe: 0.5mm}\n")
    assert _lint(capsys, ws) == (0, EXPECTED[:1])
    quiet = make_workspace(tmp_path / "quiet", pieces=TWO, front=FRONT, game=GAME_YAML + "lint: false\n")
    assert _lint(capsys, quiet) == (0, [])
    off = make_workspace(tmp_path / "off", pieces=TWO, front=FRONT, game=GAME_YAML + "lint: {min_stroke: off, min_text: 5}\n")
    assert _lint(capsys, off) == (0, EXPECTED[2:])


def test_a_deck_files_lint_replaces_the_games_figures_for_that_deck(tmp_path, capsys):
    """A deck file's ``lint:`` changes only the figures it names, for that deck only: a design
    that means to reach the edge says so once, and the game's figures hold for every other deck."""
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=FRONT, game=GAME_YAML + "lint: {min_text: 4pt}\n")
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("front:", "lint: {safe: 0.5mm}\nfront:", 1), encoding="utf-8")
    assert _lint(capsys, ws) == (0, EXPECTED[:1])  # min_text from the game (4 pt), safe from the deck
    deck.write_text(deck.read_text(encoding="utf-8").replace("lint: {safe: 0.5mm}", "lint: false", 1), encoding="utf-8")
    assert _lint(capsys, ws) == (0, [])
    deck.write_text(deck.read_text(encoding="utf-8").replace("lint: false", "lint: {safe: wide}", 1), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "data/test/decks/cards.yaml:" in err and "safe" in err


def test_bad_lint_figure_is_one_line_naming_game_yaml(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=TWO, game=GAME_YAML + "lint: {min_text: big}\n")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "data/test/game.yaml:8:18" in err and "min_text" in err and "pt" in err


# the 12 mm cargo cubes reach the edge by design: their deck file's lint: {safe: 1.5mm}; populous's
# 16 mm round terrain tokens stack icon, name and 未定 mark high enough that the mark's corners stay
# inside the safe circle (it stood 2.7 mm from the round cut): the four games build without a lint line


HEX_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<path d="{{ outline(3) }}" fill="#8fc58a"/>
{{ textbox(piece.name, 19, 26, 12, 5, size=8, min_size=8, align="center") }}
{{ textbox("角", 3, 4, 6, 5, size=8, min_size=8) }}
{{ textbox("辺", 6, 14, 6, 5, size=8, min_size=8) }}
{% endblock %}
"""


def test_text_near_a_hex_tiles_slanted_edge_is_in_the_safe_zone(tmp_path, capsys):
    """A pointy hex tile 50 mm across: 「角」 at 3, 4 mm lies in the trim box's corner, outside
    the hexagon (cut away), and 「辺」 at 6, 14 mm about 2.5 mm from a slanted edge; both stood
    more than 3 mm inside the box, so the lint measured on it said nothing. The name in the
    middle is clear. A back is measured on the mirrored outline."""
    deck = ("name: 地形\nkind: tile\nshape: hex\nsize: 50\nfront: card-front.svg.j2\nback: card-front.svg.j2\n"
            "fields: {name: text}\npieces:\n  - {name: 森}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=HEX_FRONT)
    code, lines = _lint(capsys, ws)
    assert code == 0
    assert lines == [f"{AT}:5: print lint: deck 'cards' piece 1 (森): text 「角」 7.5 mm past the trim: the cut takes it "
                     "(keep text out of the 3 mm safe zone)",
                     f"{AT}:6: print lint: deck 'cards' piece 1 (森): text 「辺」 2.6 mm from the trim, inside the 3 mm "
                     "safe zone (a drifted cut may take it)"], lines


def test_shipped_games_lint(built):
    found = []
    for slug in ("alicematic-eiketsuden", "alicematic-medallions", "asian-delivery", "populous"):
        warnings = json.loads((built / slug / "manifest.json").read_text())["warnings"]
        found += [w for w in warnings if "print lint" in w]
    assert found == [], found


def test_a_deck_on_its_own_paper_short_of_bleed_is_told_at_its_paper_line(tmp_path, capsys):
    """The same 190×270 board with its own ``paper: a4`` (game.yaml's letter): told at its paper:
    line to give a larger paper there, not --paper (which would move every deck), at its file."""
    deck = DECK_YAML.replace("format: poker", "size: [190, 270]\npaper: a4") + "  - {name: 大判, text: 本文}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, game=GAME_YAML + "paper: letter\n")
    (ws / "printers.yaml").write_text("shifty: {back_offset_mm: [2.0, -1.0]}\n")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test", "--printer", "shifty") == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "bleed" in line]
    assert len(lines) == 1 and lines[0].startswith("  warning: data/test/decks/cards.yaml:3:8: deck 'cards': its home sheets give 2.0 mm"), lines
    assert lines[0].endswith("the a4 paper has no room for gutters, so backs may show white edges (a larger paper: in its deck "
                             "file, --layout fold, or a printer that shifts less)"), lines


def test_check_names_a_bleed_the_printer_offset_cannot_have(tmp_path, capsys):
    deck = DECK_YAML.replace("format: poker", "size: [190, 270]") + "  - {name: 大判, text: 本文}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (ws / "printers.yaml").write_text("shifty: {back_offset_mm: [2.0, -1.0]}\ngentle: {back_offset_mm: [0.5, 0]}\n"
                                      "tipsy: {back_offset_mm: [1.75, 0]}\n")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test", "--printer", "shifty") == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "bleed" in line]
    assert lines == ["  warning: data/test/decks/cards.yaml:1: deck 'cards': its home sheets give 2.0 mm of bleed, below the 2.5 mm the back offset "
                     "of printer 'shifty' needs (the larger offset + 0.5 mm): the a4 paper has no room for gutters, so backs may "
                     "show white edges (a larger --paper, --layout fold, or a printer that shifts less)"]
    # the bleed needed as it is, not rounded to a tenth (trial47: 1.25 mm read "1.2 mm", below what the summary said)
    assert run(ws, "check", "--game", "test", "--printer", "tipsy") == 0
    assert "give 2.0 mm of bleed, below the 2.25 mm the back offset" in capsys.readouterr().out
    assert run(ws, "check", "--game", "test", "--printer", "gentle") == 0
    assert not [line for line in capsys.readouterr().out.splitlines() if "bleed" in line]
    # the build says so too (a designer building with the profile saw it only in the sheets' slug)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--printer", "shifty") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "back offset" in line]
    assert said == ["pnpgen: warning: " + lines[0].removeprefix("  warning: ")], said
    manifest = (ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8")
    assert "below the 2.5 mm the back offset" in manifest


def test_a_length_written_with_a_unit_is_told_what_it_draws(tmp_path, capsys):
    """``stroke-width="0.6mm"`` in a template drew 2.27 mm without a word: a template's lengths are
    millimetres already and SVG reads 1mm as 3.78 units. The lint names the line and the number to
    write; a bare number, and the root's own size in mm, are not named."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<rect x="3" y="3" width="{{ w - 6 }}" height="{{ h - 6 }}" fill="none" stroke="#333" stroke-width="0.6mm"/>\n'
             '<rect x="6" y="6" width="10" height="10" fill="none" stroke="#333" stroke-width="0.6"/>\n'
             '{{ textbox(piece.name, 5, 5, w - 10, 12, size=12) }}\n{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=front)
    code, lines = _lint(capsys, ws)
    assert code == 0
    said = [line for line in lines if "the length" in line]
    assert len(said) == 1, lines
    assert said[0].startswith("templates/test/card-front.svg.j2:3: print lint: deck 'cards' piece 1 (カード1) and 1 more:")
    assert "the length '0.6mm' draws 2.27 mm" in said[0] and said[0].endswith("write 0.6")


def test_a_font_size_written_in_points_is_told_the_millimetres_to_write(tmp_path, capsys):
    """English trial: ``font-size="10pt"`` was told "write 10", a 10 mm (28 pt) text. The number
    to write is the length in mm: 3.53 for 10pt, 2.54 for 0.1in; 0.6mm stays 0.6."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<text x="5" y="20" font-family="{{ fonts.gothic }}" font-size="10pt">{{ piece.name }}</text>\n'
             '<rect x="3" y="3" width="{{ w - 6 }}" height="{{ h - 6 }}" fill="none" stroke="#333" stroke-width="0.1in"/>\n'
             '<rect x="6" y="6" width="10" height="10" fill="none" stroke="#333" stroke-width="0.6mm"/>\n'
             '{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=front)
    code, lines = _lint(capsys, ws)
    assert code == 0
    said = sorted(line.split(": ", 1)[0] + ": " + line.split("units); ", 1)[1] for line in lines if "the length" in line)
    assert said == [f"{AT}:3: write 3.53 (10pt in mm; a <text> font-size too is mm)",
                    f"{AT}:4: write 2.54 (0.1in in mm)", f"{AT}:5: write 0.6"], lines


def test_an_english_text_is_quoted_in_english_marks(tmp_path, capsys):
    """A game trial: an English card's word near the edge was named 「player」; a text is quoted
    in its own script's marks (a Japanese one 「カード1」, as above)."""
    deck = DECK_YAML + "  - {name: Card, text: Every player passes}\n"
    ws = make_workspace(tmp_path / "ws", front=FRONT, deck=deck)
    _, lines = _lint(capsys, ws)
    assert any("text “Every” 1.0 mm from the trim" in line for line in lines), lines
    assert not any("「Every" in line or "「Card" in line for line in lines), lines


DARK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#1f3b1f"/>
{{ textbox(piece.name, 6, 8, w - 12, 8, size=12, align="center", fill="#23262e") }}
{{ textbox(piece.name, 6, 20, w - 12, 8, size=12, align="center", fill="#fbf8f1") }}
<rect x="6" y="30" width="{{ w - 12 }}" height="12" rx="2" fill="#a8d08d"/>
{{ textbox(piece.name, 8, 32, w - 16, 8, size=9, fill="#ffffff") }}
<path d="M 6 44 h {{ w - 12 }} v 12 h -{{ w - 12 }} z" fill="#102040"/>
{{ textbox(piece.name, 8, 46, w - 16, 8, size=9, fill="#23262e") }}
{{ image("未定", 6, 58, w - 12, 14) }}
{{ textbox(piece.name, 8, 62, w - 16, 6, size=9, fill="#eeeeee") }}
{% endblock %}
"""
CONTRAST = [
    f"{AT}:4: print lint: deck 'cards' piece 1 (カード1) and 1 more: text 「カード1」 in #23262e on #1f3b1f, "
    "contrast 1.2:1, less than 2:1 (hard to read: a lighter or darker text colour)",
    f"{AT}:7: print lint: deck 'cards' piece 1 (カード1) and 1 more: text 「カード1」 in #ffffff on #a8d08d, "
    "contrast 1.7:1, less than 2:1 (hard to read: a lighter or darker text colour)",
]


def test_text_hard_to_read_on_the_one_colour_under_it_is_named(tmp_path, capsys):
    """A dark title on a deep-forest ground (1.2:1) and white text on a pale green panel (1.7:1)
    are named with both colours; light text on the forest is not, nor text over a <path> fill
    (its outline unknown: the dark text on night sea there is not measured) or over art, so
    nothing is named wrongly. ``min_contrast`` changes the figure, ``off`` ends the check."""
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=DARK)
    code, lines = _lint(capsys, ws)
    assert code == 0 and [line for line in lines if "contrast" in line] == CONTRAST, lines
    strict = make_workspace(tmp_path / "strict", pieces=TWO, front=DARK, game=GAME_YAML + "lint: {min_contrast: '4.5:1'}\n")
    assert [line for line in _lint(capsys, strict)[1] if "contrast" in line] == [
        line.replace("less than 2:1", "less than 4.5:1") for line in CONTRAST]
    off = make_workspace(tmp_path / "off", pieces=TWO, front=DARK, game=GAME_YAML + "lint: {min_contrast: off}\n")
    assert not [line for line in _lint(capsys, off)[1] if "contrast" in line]
    bad = make_workspace(tmp_path / "bad", pieces=TWO, front=DARK, game=GAME_YAML + "lint: {min_contrast: 30}\n")
    capsys.readouterr()
    assert run(bad, "check", "--game", "test") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "game.yaml:" in err and "min_contrast" in err and "1 to 7" in err, err


def test_the_ground_under_a_text_is_looked_for_through_at_most_a_thousand_shapes(tmp_path, capsys):
    """Each text looks back through the shapes painted before it for its ground: a face of tens
    of thousands of shapes and texts would take minutes. Past 1,000 shapes the ground is not
    known and the text is not measured (never named wrongly); under that it is."""
    def front(n: int) -> str:
        return DARK.split("{{ textbox")[0] + (
            f'{{% for i in range({n}) %}}<rect x="{{{{ 1 + i % 10 * 0.3 }}}}" y="80" width="0.2" height="0.2" '
            'fill="#ffffff"/>{% endfor %}\n'
            '{{ textbox(piece.name, 6, 8, w - 12, 8, size=12, align="center", fill="#23262e") }}\n{% endblock %}\n')
    # one card each: the count is the face's shapes (11 cards of 1,000 shapes took 11 times as long)
    near = make_workspace(tmp_path / "near", pieces=["カード1"], front=front(999))
    assert [line for line in _lint(capsys, near)[1] if "contrast" in line] == \
        [CONTRAST[0].replace(":4:", ":5:").replace(" and 1 more", "")]
    far = make_workspace(tmp_path / "far", pieces=["カード1"], front=front(1000))
    assert not [line for line in _lint(capsys, far)[1] if "contrast" in line]


def test_a_finding_over_many_pieces_names_the_piece_whose_text_it_quotes(tmp_path, capsys):
    """Large-deck trial: 'piece 1 (U0) and 149 more: text “U100” past the trim' quoted another
    piece's text than the one it named; the line names the piece of its worst case, the one quoted."""
    front = FRONT.replace("{{ textbox(piece.text, 1, 60, 30, 8, size=9, min_size=9) }}",
                          "{{ textbox(piece.text, piece.x, 60, 30, 8, size=9, min_size=9) }}")
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  x: number\n") + \
        "  - {name: 甲, text: 本文甲, x: 2}\n  - {name: 乙, text: 本文乙, x: 0.5}\n  - {name: 丙, text: 本文丙, x: 1.5}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    code, lines = _lint(capsys, ws)
    safe = [line for line in lines if "safe zone" in line]
    assert code == 0 and safe == [f"{AT}:6: print lint: deck 'cards' piece 2 (乙) and 2 more: text 「本文乙」 0.5 mm "
                                  "from the trim, inside the 3 mm safe zone (a drifted cut may take it)"], lines


def test_a_grid_of_thin_tick_boxes_compiles_its_layout_once_for_the_lint(tmp_path, capsys, monkeypatch):
    """Each tick box of a thin-stroked ``type: grid`` box is a finding of its own line, and the lint
    compiled the layout's side again for each to name its box: a 200 × 200 grid (the limit) took
    over ten minutes in ``check``. The side is compiled once per lint and each line still names
    its box."""
    from pnpgen.faces import printlint

    deck = ("name: 記録\nkind: board\nsize: [148, 210]\nlayout:\n  extends: board\n  boxes:\n    art: null\n"
            "    ticks: {type: grid, x: 14, y: 30, w: 120, h: 120, cols: 12, rows: 12, spacing: 1, stroke_width: 0.01}\n"
            "pieces:\n  - {title: 記録, text: 本文}\n")
    root = make_workspace(tmp_path / "ws", deck=deck)
    compiled = []
    real = printlint.compile_side
    monkeypatch.setattr(printlint, "compile_side", lambda layout, side: compiled.append(side) or real(layout, side))
    code, lines = _lint(capsys, root)
    assert code == 0 and compiled == ["front"]
    thin = [line for line in lines if "thinner than 0.25 pt" in line]
    assert thin and all(line.startswith("the layout of deck 'cards' (front, box ticks, from data/test/decks/cards.yaml:")
                        for line in thin), thin


DASHED = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<line x1="5" y1="40" x2="55" y2="40" stroke="#000000" stroke-width="0.5" stroke-dasharray="0.01"/>
<line x1="5" y1="50" x2="55" y2="50" stroke="#000000" stroke-width="0.5" stroke-dasharray="2 0.02"/>
<line x1="5" y1="60" x2="55" y2="60" stroke="#000000" stroke-width="0.5" stroke-dasharray="0 2" stroke-linecap="round"/>
<line x1="5" y1="70" x2="55" y2="70" stroke="#000000" stroke-width="0.5" stroke-dasharray="2 2"/>
{% endblock %}
"""


def test_dashes_or_gaps_shorter_than_the_thinnest_line_are_named_at_their_line(tmp_path, capsys):
    """fixesK: a 0.01 mm stroke-dasharray passed the lint, though a dash as short as that is a
    mark as thin as a 0.03 pt line, which no printer or cutter draws; the lint measures a dashed
    stroke's dashes and gaps as it measures its width (min_stroke, 0.25 pt): dots drawn by round
    caps on 0-long dashes and 2 mm dashes pass, and a shop's own line is named in an export."""
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=DASHED)
    code, lines = _lint(capsys, ws)
    assert code == 0
    assert lines == [
        f"{AT}:3: print lint: deck 'cards' piece 1 (カード1) and 1 more: stroke-dasharray dashes 0.03 pt (0.010 mm), "
        "shorter than 0.25 pt, the thinnest line a printer draws (the dashes may vanish or run into a solid line)",
        f"{AT}:4: print lint: deck 'cards' piece 1 (カード1) and 1 more: stroke-dasharray gaps 0.06 pt (0.020 mm), "
        "shorter than 0.25 pt, the thinnest line a printer draws (the dashes may vanish or run into a solid line)"], lines
    off = make_workspace(tmp_path / "off", pieces=TWO, front=DASHED, game=GAME_YAML + "lint: {min_stroke: off}\n")
    assert _lint(capsys, off) == (0, [])
    capsys.readouterr()
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "stroke-dasharray" in line]
    assert len(said) == 2 and all("than the 0.1 mm line 同人印刷所（トンボ付きPDF） prints" in line for line in said), said


def test_a_ruby_reading_is_judged_by_its_own_minimum_and_named_as_ruby(tmp_path, capsys):
    """trial: 'text 「とうひょう」 4.5 pt, smaller than 6 pt' named the reading of every 9 pt
    Japanese card with ruby (ruby is half its text's size), burying the real warnings. A reading
    is judged by ``min_ruby`` (4 pt, the ruby of 8 pt text): 9 pt text's 4.5 pt reading passes;
    7 pt text's 3.5 pt one is named as ruby, with what to do; a deck's ``min_ruby: 5pt`` names
    the 4.5 pt one. Small text that is no reading is still told as text, by ``min_text``."""
    front = FRONT.replace("{{ textbox(piece.text, 1, 60, 30, 8, size=9, min_size=9) }}",
                          "{{ textbox(piece.text, 10, 60, w - 20, 12, size=9, min_size=9) }}\n"
                          "{{ textbox(piece.note, 10, 75, w - 20, 12, size=7, min_size=7) }}")
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  note: text\n") + \
        "  - {name: 甲, text: '{投票|とうひょう}する', note: '{開票|かいひょう}する'}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    code, lines = _lint(capsys, ws)
    assert code == 0
    assert lines == [EXPECTED[0].replace("(カード1) and 1 more", "(甲)"),
                     f"{AT}:5: print lint: deck 'cards' piece 1 (甲): text 「甲」 5.0 pt, smaller than 6 pt",
                     f"{AT}:7: print lint: deck 'cards' piece 1 (甲): ruby 「かいひょう」 3.5 pt, smaller than 4 pt: a "
                     "reading is set at half its text's size, so set the text at 8 pt or more, or lower the deck's "
                     "lint: {min_ruby: …} (docs/data-format.md, ruby)"], lines
    file = ws / "data/test/decks/cards.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("front:", "lint: {min_ruby: 5pt}\nfront:", 1), encoding="utf-8")
    code, lines = _lint(capsys, ws)
    assert [line.split(": ruby ")[1].split(":")[0] for line in lines if ": ruby " in line] == \
        ["「とうひょう」 4.5 pt, smaller than 5 pt", "「かいひょう」 3.5 pt, smaller than 5 pt"], lines


SCORE_PAD = """\
name: Score sheet
kind: board
size: [148, 210]
layout:
  extends: board
  boxes:
    art: null
    grid: {type: grid, x: 1, y: 30, w: 120, h: 120, cols: 6, rows: 6, stroke_width: 0.3}
    ticks: {type: grid, x: 56, y: 158, w: 78, h: 8, cols: 8, spacing: 2, fill: white, stroke_width: 0.3}
pieces:
  - {title: Campaign Log, text: Cross out a square each time a unit falls.}
"""


def test_a_grid_box_near_the_trim_is_warned_as_text_is(tmp_path, capsys):
    """A score pad's grid ruled to 1 mm from the trim passed the lint (only text and hairlines
    were measured): a drifted cut takes its border. A grid box's lines, however thick, are told
    as text is, at the box; the tick boxes well inside are not."""
    ws = make_workspace(tmp_path / "ws", deck=SCORE_PAD)
    code, lines = _lint(capsys, ws)
    assert code == 0
    assert lines == ["the layout of deck 'cards' (front, box grid, from data/test/decks/cards.yaml:8): print lint: "
                     "deck 'cards' piece 1 (Campaign Log): grid lines 1.0 mm from the trim, inside the 3 mm safe zone (a drifted cut may take its border)"], lines
    inside = make_workspace(tmp_path / "inside", deck=SCORE_PAD.replace("x: 1,", "x: 14,"))
    assert _lint(capsys, inside) == (0, [])


def test_an_edit_measures_only_the_faces_it_changed_and_warns_the_same(tmp_path, capsys, monkeypatch):
    """The lint's findings on each converted face are kept in the build cache (lint/<edition>):
    a build after one card's edit measures that card's new face alone (each face measured had
    its ruby readings looked for once), and warns in the same lines as a build measuring all."""
    from pnpgen.faces import printlint

    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=FRONT)
    measured = []
    real = printlint._ruby_readings
    monkeypatch.setattr(printlint, "_ruby_readings", lambda marks: measured.append(marks) or real(marks))
    assert run(ws, "build", "--game", "test", "--jobs", "1", "-q") == 0
    assert len(measured) == 4  # each card's front and back
    deck = ws / "data/test/decks/cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("本文カード2", "本文カード2改"), encoding="utf-8")
    measured.clear()
    assert run(ws, "build", "--game", "test", "--jobs", "1", "-q") == 0
    assert len(measured) == 1  # the edited card's front
    warnings = json.loads((ws / "build/test/manifest.json").read_text())["warnings"]
    assert [w for w in warnings if "print lint" in w] == EXPECTED
    assert _lint(capsys, ws) == (0, EXPECTED)  # (check measures every face)
    assert (ws / "build/.cache/lint/test.pack.json").is_file()


RULER_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>
<line x1="20" y1="0" x2="20" y2="6" stroke="#000000" stroke-width="0.15"/>
<line x1="40" y1="1" x2="40" y2="6" stroke="#000000" stroke-width="0.15"/>
{% endblock %}
"""


def test_a_thin_stroke_reaching_the_trim_is_said_at_or_past_it(tmp_path, capsys):
    """A ruler's ticks start at its edge: the lint said `-0.0 mm from the trim` for one drawn from
    the trim; it says `at the trim`, and a tick 1 mm in as before."""
    ws = make_workspace(tmp_path / "ws", pieces=["定規"], front=RULER_FRONT)
    code, lines = _lint(capsys, ws)
    assert code == 0
    tail = ", inside the 3 mm safe zone (a drifted cut shows it uneven)"
    assert lines == [f"{AT}:4: print lint: deck 'cards' piece 1 (定規): stroke thinner than 0.5 pt at the trim{tail}",
                     f"{AT}:5: print lint: deck 'cards' piece 1 (定規): stroke thinner than 0.5 pt 1.0 mm from the trim{tail}"], lines


ICON_ON_BAND = """\
{% extends "common/piece.svg.j2" %}
{% block art %}
<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="20" fill="#2f6f2f"/>
{{ icon("fish", 4, 4, 10, "#2f6f2f") }}
{{ icon("fish", 16, 4, 10, "#307030") }}
{{ icon("fish", 28, 4, 10, "#ffffff") }}
{{ icon("fish", 4, 40, 10, "#ffffff") }}
{% endblock %}
"""


def test_an_icon_the_colour_of_its_ground_is_named_once_per_line_and_colours(tmp_path, capsys):
    """A fish icon drawn in its band's green (and in a green ΔE 0.4 from it) prints invisible:
    named at its template line with both colours and the icon's file, each pair once however
    many cards; a white fish on the band, and a white one on the white paper (the paper is
    nobody's ground to lose an icon on), are not; ``min_contrast: off`` ends it."""
    ws = make_workspace(tmp_path / "ws", pieces=TWO, front=ICON_ON_BAND)
    (ws / "templates" / "test" / "icons").mkdir()
    (ws / "templates" / "test" / "icons" / "fish.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M2 12 L12 4 L22 12 L12 20 Z" '
        'fill="currentColor"/></svg>\n', encoding="utf-8")
    code, lines = _lint(capsys, ws)
    unseen = [line for line in lines if "invisible" in line]
    assert code == 0 and unseen == [
        f"{AT}:4: print lint: deck 'cards' piece 1 (カード1) and 1 more: icon fish.svg drawn in the colour of the "
        "#2f6f2f under it: it prints invisible (expected an icon colour apart from its ground's, ΔE 5 or more)",
        f"{AT}:5: print lint: deck 'cards' piece 1 (カード1) and 1 more: icon fish.svg drawn in nearly the colour "
        "(#307030, CIE ΔE 0.4) of the #2f6f2f under it: it prints invisible (expected an icon colour apart from "
        "its ground's, ΔE 5 or more)"], lines
    # two icons on one line in one pair of colours: each named, not the first one alone (fixes46, fixes47)
    two = ICON_ON_BAND.replace('{{ icon("fish", 4, 4, 10, "#2f6f2f") }}',
                               '{{ icon("fish", 4, 4, 10, "#2f6f2f") }}{{ icon("crab", 40, 4, 10, "#2f6f2f") }}')
    (ws / "templates" / "test" / "icons" / "crab.svg").write_bytes((ws / "templates" / "test" / "icons" / "fish.svg").read_bytes())
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(two, encoding="utf-8")
    code, lines = _lint(capsys, ws)
    assert code == 0 and [line for line in lines if "invisible" in line][0] == (
        f"{AT}:4: print lint: deck 'cards' piece 1 (カード1) and 1 more: icons fish.svg, crab.svg drawn in the colour of "
        "the #2f6f2f under them: they print invisible (expected an icon colour apart from its ground's, ΔE 5 or more)"), lines
    off = make_workspace(tmp_path / "off", pieces=TWO, front=ICON_ON_BAND, game=GAME_YAML + "lint: {min_contrast: off}\n")
    (off / "templates" / "test" / "icons").mkdir()
    (off / "templates" / "test" / "icons" / "fish.svg").write_text(
        (ws / "templates" / "test" / "icons" / "fish.svg").read_text(encoding="utf-8"), encoding="utf-8")
    assert not [line for line in _lint(capsys, off)[1] if "invisible" in line]


MINI = "name: ミニ\nlayout: card-mini\npieces:\n  - {title: 甲, text: '{投票|とうひょう}する'}\n"


def test_a_built_in_layouts_small_ruby_says_the_layouts_size_is_the_cause_and_the_box_to_give_more(tmp_path, capsys):
    """trial: card-mini with ruby always warned 'set the text at 8 pt or more', though the
    designer never set a size: the layout's text box sets 7 pt, its reading 3.5 pt (under the 4 pt
    ``min_ruby``: a guide to ruby puts none on text under 8 pt, docs/data-format.md). The warning
    says the layout's box is the cause and what to write in the deck file; giving the box 8 pt, as
    it says, quiets it."""
    ws = make_workspace(tmp_path / "ws", deck=MINI)
    code, lines = _lint(capsys, ws)
    assert code == 0
    ruby = [line for line in lines if ": ruby " in line]
    assert ruby == ["data/test/decks/cards.yaml:4:22 (field text, box text of the front of the built-in layout "
                    "card-mini): print lint: deck 'cards' piece 1 (甲): ruby 「とうひょう」 3.5 pt, smaller than 4 pt: "
                    "the card-mini layout sets the box text at 7.0 pt, and a reading at half its text's size; give the "
                    "box 8 pt in the deck file (layout: {extends: card-mini, boxes: {text: {size: 8}}}), or accept "
                    "3.5 pt ruby with lint: {min_ruby: 3.5pt} (docs/data-format.md, ruby)"], lines
    file = ws / "data/test/decks/cards.yaml"
    file.write_text(MINI.replace("layout: card-mini", "layout: {extends: card-mini, boxes: {text: {size: 8}}}"),
                    encoding="utf-8")
    code, lines = _lint(capsys, ws)
    assert code == 0 and not [line for line in lines if ": ruby " in line], lines
    # a deck whose own layout: {extends: …} sets the box's size: that layout is named as the deck
    # file's own, never by the deck's id as a layout to extend (trial81: 'extends: cards', no layout)
    file.write_text(MINI.replace("layout: card-mini", "layout: {extends: card-mini, boxes: {text: {size: 7.5}}}"),
                    encoding="utf-8")
    code, lines = _lint(capsys, ws)
    ruby = [line for line in lines if ": ruby " in line]
    assert code == 0 and len(ruby) == 1 and ruby[0].endswith(
        "ruby 「とうひょう」 3.8 pt, smaller than 4 pt: the deck file's layout sets the box text at 7.5 pt, and a reading "
        "at half its text's size; give the box 8 pt there (in its layout: {…, boxes: {text: {size: 8}}}), "
        "or accept 3.8 pt ruby with lint: {min_ruby: 3.8pt} (docs/data-format.md, ruby)"), lines
