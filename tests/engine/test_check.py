"""`pnpgen check` finds what `pnpgen build` would stop at — every face rendered and converted —
without writing a file, and names each problem once, at the designer's own template line."""

from __future__ import annotations

import pytest

from conftest import DECK_YAML, FEW_CARDS, FRONT, GAME_YAML, make_workspace, run
from pnpgen.data.model import EMPTY_PAINTED, open_value_said

MACRO_FRONT = """\
{% extends "common/piece.svg.j2" %}
{% import "common/macros.svg.j2" as m with context %}
{% block art %}
{{ m.title(piece.nme, 8, size=14) }}
{% endblock %}
"""


def test_check_renders_every_face_and_writes_nothing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "test: ok (1 deck, 11 pieces, 22 faces)" in out  # one deck said in the singular; 11 fronts, 11 backs (each names its card)
    assert not (ws / "build").exists()


def test_a_template_mistake_is_one_problem_at_the_designers_line(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", front=MACRO_FRONT)
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if "error:" in line]
    assert len(errors) == 1, out
    assert "templates/test/card-front.svg.j2:4:" in errors[0]  # the designer's line, not the macro's
    assert "'nme'" in errors[0] and "common/macros.svg.j2" in errors[0]
    # every face the template draws stopped at its line: one mistake of the file, no piece named
    # (was "(rendering deck 'cards' piece 1 (…) front) — and 10 more faces the same way")
    assert errors[0].endswith(" — in every face drawn by templates/test/card-front.svg.j2 (11 faces)"), errors
    assert "rendering" not in errors[0] and "piece 1" not in errors[0] and "more faces" not in errors[0]
    assert "would not build" in out and not (ws / "build").exists()
    assert run(ws, "build", "--game", "test") == 2  # the build stops at the same line
    assert "card-front.svg.j2:4:" in capsys.readouterr().err


def test_a_template_line_failing_some_faces_names_the_first_and_counts_the_others(tmp_path, capsys):
    """A template line that stops some of its faces, not all: the first piece named and the
    others counted, as before (only a mistake of every face is said once for the file)."""
    front = MACRO_FRONT.replace("{{ m.title(piece.nme, 8, size=14) }}",
                                "{{ m.title(piece.name if piece.name.endswith('1') else piece.nme, 8, size=14) }}")  # カード1, 11 draw
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "check", "--game", "test") == 2
    errors = [line for line in capsys.readouterr().out.splitlines() if "error:" in line]
    assert len(errors) == 1 and "piece 2 (" in errors[0] and errors[0].endswith("— and 8 more faces the same way"), errors


def test_a_template_syntax_error_is_said_once_at_the_templates_line_not_per_face(tmp_path, capsys):
    """A syntax error is the template's, not its faces': check said "— and 10 more faces the
    same way", as if each face had its own mistake. It is one line naming the file and line."""
    front = MACRO_FRONT.replace("{{ m.title(piece.nme, 8, size=14) }}", "{{ m.title(piece.name 8, size=14) }}")
    ws = make_workspace(tmp_path / "ws", front=front)
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if "error:" in line]
    assert errors == ["  error: templates/test/card-front.svg.j2:4: template syntax error: expected token ',', "
                      "got 'integer'"], out
    assert "1 problem a build would stop at" in out


def test_a_face_that_does_not_convert_is_found_too(tmp_path, capsys):
    back = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" fill="url(#nope)"/></svg>'
    ws = make_workspace(tmp_path / "ws", back=back)
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    assert "card-back.svg.j2" in out and "names no element" in out


def test_a_face_error_every_piece_shares_names_piece_1_of_the_deck_in_build_check_and_export(tmp_path, capsys):
    """A template line no piece's face converts: the faces convert in key (hash) order, which named
    piece 3 of these three (or whichever came first by its hash; an export, piece 2); piece 1, at
    its line, is named."""
    front = FRONT.replace("{% endblock %}", '<path d="M 0 0 L {{ piece.text | length }} Q"/>\n{% endblock %}')
    deck = DECK_YAML + "".join(f"  - {{name: {n}, text: あ}}\n" for n in ("ゼブラ", "アルファ", "ミドル"))
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    said = "deck 'cards' piece 1 (ゼブラ, data/test/decks/cards.yaml:9:5) front: <path>"
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "L takes 2 numbers" in err, err
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    assert said in out and "— and 2 more faces the same way" in out, out
    assert run(ws, "export", "--game", "test", "--preset", "tabletopsimulator") == 2  # (its faces, a subset)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err


def test_check_after_a_build_reuses_its_cache_and_still_finds_a_new_mistake(built_workspace, capsys, monkeypatch):
    """On a built workspace, faces rendered and converted by the last build (same inputs, same
    pnpgen) are not done again; an edited template is, and its mistake is found."""
    from pnpgen.engine import check

    converted: list[str] = []
    real = check.convert_face
    monkeypatch.setattr(check, "convert_face", lambda job: converted.append(job[1]) or real(job))
    ws = built_workspace  # built with --no-rulebook
    before = {p: p.stat().st_mtime_ns for p in (ws / "build").rglob("*") if p.is_file()}
    assert run(ws, "check", "--game", "test") == 0
    assert converted == []  # all 22 faces known from the build
    assert "22 faces" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in (ws / "build").rglob("*") if p.is_file()} == before  # read only
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(MACRO_FRONT, encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    assert "card-front.svg.j2:4:" in capsys.readouterr().out


def test_check_out_reads_the_cache_of_a_build_made_with_out(built_workspace, capsys, monkeypatch):
    """fixesR: ``check --game G --out DIR`` was refused ("--out chooses what --svg writes"), so a
    build made with ``--out`` was checked as if never built. --out names the build folder, as the
    build was given it: its cache spares every face, and nothing is written there or in build/."""
    from pnpgen.engine import check

    converted: list[str] = []
    real = check.convert_face
    monkeypatch.setattr(check, "convert_face", lambda job: converted.append(job[1]) or real(job))
    ws = built_workspace
    (ws / "build").rename(ws / "elsewhere")
    before = {p: p.stat().st_mtime_ns for p in (ws / "elsewhere").rglob("*") if p.is_file()}
    assert run(ws, "check", "--game", "test", "--out", "elsewhere") == 0
    assert converted == [] and "22 faces" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in (ws / "elsewhere").rglob("*") if p.is_file()} == before
    assert not (ws / "build").exists()
    assert run(ws, "check", "--game", "test") == 0  # (without it: build/, which holds no build)
    assert converted


def test_a_piece_too_large_for_the_paper_is_found_as_the_build_finds_it(tmp_path, capsys):
    deck = DECK_YAML.replace("format: poker", "size: [400, 500]") + "  - {name: 巨大}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    (error,) = [line for line in out.splitlines() if "error:" in line]
    assert "cards.yaml:2:7: size: deck 'cards': a 400×500 mm piece does not fit on A4 inside a 5 mm margin" in error
    assert run(ws, "build", "--game", "test") == 2
    assert "a 400×500 mm piece does not fit on A4" in capsys.readouterr().err


def test_a_size_in_the_wrong_unit_is_named_at_its_line(tmp_path, capsys):
    """A game trial: round tokens written `size: 22cm` (meant 22 mm) stopped the build with the deck
    file alone, no line; the error now points at the size the designer wrote, in both commands."""
    deck = DECK_YAML.replace("format: poker", "kind: token\nshape: circle\nsize: 22cm") + "  - {name: 傷}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 2
    (error,) = [line for line in capsys.readouterr().out.splitlines() if "error:" in line]
    assert "data/test/decks/cards.yaml:4:7: size: deck 'cards': a 220×220 mm piece does not fit on A4" in error
    assert run(ws, "build", "--game", "test") == 2
    err = capsys.readouterr().err
    assert "data/test/decks/cards.yaml:4:7: size: deck 'cards': a 220×220 mm piece" in err
    assert "Traceback" not in err
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    deck_file.write_text(deck_file.read_text(encoding="utf-8").replace("22cm", "15"), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--bleed", "8") == 2  # the bleed against the size, at its line too
    assert "data/test/decks/cards.yaml:4:7: size: bleed 8 mm is not less than half" in capsys.readouterr().err


def test_the_rulebooks_settings_in_game_yaml_are_checked_when_there_is_a_draft(tmp_path, capsys):
    figure = ("rulebook:\n  figures:\n    - {after: 概要, caption: 例, size: [.nan, 100], "
              "pieces: [{deck: cards, piece: 1, x: 30, y: 44}]}\n")
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + figure, draft=True)
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    assert "game.yaml:10:38: rulebook.figures.1.size.1: size nan is not a number" in out, out
    (ws / "data" / "test" / "draft.txt").unlink()  # no draft, no rulebook: the build leaves them unread
    assert run(ws, "check", "--game", "test") == 0


def test_an_unreadable_draft_is_found_as_the_build_finds_it(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", draft=True)
    (ws / "data" / "test" / "draft.txt").write_bytes(b"\xff\xfe\x00bad \x81\x00")  # a UTF-16 mark, then not UTF-16
    assert run(ws, "check", "--game", "test") == 2
    (error,) = [line for line in capsys.readouterr().out.splitlines() if "error:" in line]
    assert "draft.txt:1: not readable text" in error
    assert run(ws, "build", "--game", "test") == 2
    assert "draft.txt:1: not readable text" in capsys.readouterr().err


def test_check_says_what_the_rulebook_would_warn_about(tmp_path, capsys):
    """The draft read against the data as the build reads it: a count the draft states otherwise,
    a component with no deck, a figure after a heading the draft does not have; and nothing
    written, no page set."""
    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + (
        "rulebook:\n  figures:\n    - {after: 準備する, size: [40, 30], pieces: [{deck: cards, piece: 1, x: 0, y: 0}]}\n"))
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("◇テストカード（１１枚）", "◇テストカード（１２枚）\n◇木製コマ（５個）"),
                     encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0  # warnings, not problems: the build goes on
    warnings = [line for line in capsys.readouterr().out.splitlines() if "warning:" in line]
    assert any("draft.txt:9: count of テストカード differs: the draft states 12" in w and "the data has 11" in w
               for w in warnings), warnings
    assert any("draft.txt:10: component 「木製コマ」 of the draft has no deck" in w for w in warnings), warnings
    assert any("game.yaml:" in w and "figure after 「準備する」" in w for w in warnings), warnings
    assert not (ws / "build").exists()
    assert run(ws, "build", "--game", "test") == 0  # the build says the same
    err = capsys.readouterr().err
    assert "count of テストカード differs" in err and "木製コマ" in err and "figure after 「準備する」" in err


def test_a_printed_deck_the_drafts_components_list_never_names_is_told_once_at_its_heading(tmp_path, capsys):
    """A deck added to the game and not to the draft's 内容物: the book lists it under
    その他の内容物 with the data's count; check says so once, at the components heading's line
    (draft.txt:7), naming the deck and what to add. A parked deck (prints none) is not told."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    decks = ws / "data" / "test" / "decks"
    (decks / "chips.yaml").write_text("name: 得点チップ\nlayout: token-round\npieces:\n  - {value: 1, count: 6}\n",
                                      encoding="utf-8")
    (decks / "spare.yaml").write_text("name: 予備\nlayout: token-round\npieces:\n  - {value: 1, count: 0}\n",
                                      encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0  # a warning: the build goes on
    told = [w for w in capsys.readouterr().out.splitlines() if "components list does not name" in w]
    assert len(told) == 1 and "draft.txt:7: " in told[0], told
    assert "「得点チップ」 (chips, 6個)" in told[0] and "その他の内容物" in told[0], told
    assert "add it to the list under this heading" in told[0] and "予備" not in told[0], told
    (decks / "chips.yaml").unlink()
    assert run(ws, "check", "--game", "test") == 0
    assert "components list does not name" not in capsys.readouterr().out  # every printed deck named: nothing


def test_a_figure_after_a_misspelt_heading_is_told_the_heading_meant(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", draft=True, game=GAME_YAML + (
        "rulebook:\n  figures:\n    - {after: ゲームの信行, size: [40, 30], pieces: [{deck: cards, piece: 1, x: 20, y: 15}]}\n"))
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "figure after 「ゲームの信行」" in out and "so it is not shown; did you mean ゲームの進行?" in out, out


def test_check_says_a_game_without_a_draft_gets_no_rulebook_as_the_build_does(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)  # no draft.txt
    assert run(ws, "check", "--game", "test") == 0
    said = "data/test/draft.txt: no draft text, so no rulebook was built"
    assert f"warning: {said}" in capsys.readouterr().out
    assert run(ws, "build", "--game", "test") == 0
    assert said in capsys.readouterr().err


def test_a_default_placeholder_is_one_line_that_counts_the_pieces_it_reaches(tmp_path, capsys):
    deck = DECK_YAML.replace("pieces:\n", "defaults: {text: 未定（本文）}\npieces:\n") + "".join(
        f"  - {{name: カード{i}}}\n" for i in range(1, 8)) + "  - {name: 別, text: 未定（別の本文）}\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "未定" in line]
    assert len(lines) == 2, lines
    assert "カード1.text: 未定（本文） — and 6 more pieces from the same line" in lines[0], lines
    assert "別.text: 未定（別の本文）" in lines[1] and "more" not in lines[1], lines


def test_each_empty_field_of_one_piece_is_listed_though_they_share_the_pieces_line(tmp_path, capsys):
    """A layout deck's piece with neither title nor text: both are open at the piece's own line, and
    check lists each (they were taken for one default reaching "1 more piece", the text unlisted)."""
    ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n  - {cost: 2}\n")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    lines = [line.strip() for line in out.splitlines() if "#1." in line]
    assert lines == ["cards: data/test/decks/cards.yaml:4:5: #1.title: 未定 (empty: the layout prints 未定)",
                     "cards: data/test/decks/cards.yaml:4:5: #1.art: no art yet",
                     "cards: data/test/decks/cards.yaml:4:5: #1.text: 未定 (empty: the layout prints 未定)"], out
    assert "3 placeholders to settle" in out, out


def _painted_grey(ws, capsys) -> list[str]:
    """The lines of ``pnpgen check`` (which passes) listing an empty colour painted grey."""
    assert run(ws, "check", "--game", "test") == 0
    return [line.strip() for line in capsys.readouterr().out.splitlines() if "grey" in line]


def test_an_empty_colour_field_a_layout_paints_with_is_listed_as_open(tmp_path, capsys):
    """A tile's edge colour (a panel's ``fill: piece.east`` on its back) or ground (``background:
    piece.terrain``) left empty in the data prints the neutral grey of an open colour: ``check``
    and proof.txt list it as they list an empty text box, else the grey edge went unsaid."""
    deck = ("name: タイル\nfields: {terrain: colour, east: colour}\n"
            "layout: {extends: token-square, background: piece.terrain,\n"
            "  back: {boxes: {edge: {type: panel, x: 20, y: 8, w: 8, h: 9, fill: piece.east}}}}\n"
            "pieces:\n"
            '  - {title: 森, terrain: "#3a8f4b", east: "#2f6db5"}\n'
            '  - {title: 湖, east: "#2f6db5"}\n'
            '  - {title: 丘, terrain: "#c9b48a", east: }\n')
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert _painted_grey(ws, capsys) == ["cards: data/test/decks/cards.yaml:7:5: 湖.terrain: (empty: the layout paints it grey)",
                                         "cards: data/test/decks/cards.yaml:8:42: 丘.east: (empty: the layout paints it grey)"]
    assert run(ws, "check", "--game", "test") == 0
    assert "2 placeholders to settle" in capsys.readouterr().out
    # proof.txt says it in the edition's words, as it says an empty text box's 未定
    assert open_value_said(EMPTY_PAINTED, "ja", "ja") == "（空欄：レイアウトは灰色で塗る）"


def test_texts_overflowing_their_boxes_are_three_lines_and_a_count_in_a_build_and_each_in_check(tmp_path, capsys):
    """A deck whose text overflows its box on every card printed a warning line per card on every
    build, said again when up to date (3,000 lines for 3,000 cards): the build names the first
    three and counts the rest, as pictures below the dpi; ``pnpgen check`` lists each."""
    front = ('{% extends "common/piece.svg.j2" %}{% block art %}'
             '{{ textbox(piece.text, 5, 5, 20, 6, size=9, min_size=6) }}{% endblock %}')
    ws = make_workspace(tmp_path / "ws", front=front, pieces=[f"札{i}" for i in range(1, 8)])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文", "text: " + "長い本文がはみ出す" * 4),
                    encoding="utf-8")
    overflowing = "text does not fit its 20.0×6.0 mm box even at 6 pt"
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "deck 'cards'" in line]
    assert [line.split(" (")[0] for line in said if overflowing in line] == [
        f"pnpgen: warning: templates/test/card-front.svg.j2:1: deck 'cards' piece {i}" for i in (1, 2, 3)], said
    assert ("pnpgen: warning: deck 'cards': 4 more texts do not fit their boxes even at their smallest size "
            "(set overflowing; pnpgen check lists each)") in said
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0  # up to date: said again, the same
    assert [line for line in capsys.readouterr().err.splitlines() if "deck 'cards'" in line] == said
    assert run(ws, "check", "--game", "test") == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if overflowing in line]
    assert [line.split("piece ")[1].split(" ")[0] for line in listed] == [str(i) for i in range(1, 8)], listed


def test_a_text_overflowing_its_box_is_told_at_the_template_line_that_placed_it(tmp_path, capsys):
    """The warning named the piece and the box's size, not which of the template's text boxes it
    was: it names the line of the game's template (through a macro of pnpgen's, the line calling
    the macro) and by how much the text overflows."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% import "common/macros.svg.j2" as m with context %}\n'
             '{% block art %}\n{{ textbox(piece.name, 5, 5, 40, 10) }}\n'
             '{{ m.text_panel(piece.text, 5, 30, 20, 6, "#ffffff", "#000000", size=9, min_size=6) }}\n'
             '{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", front=front, pieces=["札1"])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文", "text: " + "長い本文がはみ出す" * 4),
                    encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    [said] = [line for line in capsys.readouterr().err.splitlines() if "does not fit" in line]
    assert said.startswith("pnpgen: warning: templates/test/card-front.svg.j2:5: deck 'cards' piece 1 (札1, "
                           "data/test/decks/cards.yaml:9:5) front, field 'text': text does not fit its 16.0×2.0 mm "
                           "box even at 6 pt (needs "), said
    high = float(said.split("(needs ")[1].split(" mm high")[0])
    assert f"mm high: {high - 2:.1f} mm more); set at 6 pt, overflowing" in said, said


def test_texts_with_unpaired_markup_are_three_lines_and_a_count_in_a_build_and_each_in_check(tmp_path, capsys):
    """A lone ``**`` in every card's text (a spreadsheet column typed so) was a warning line per
    card on every build: the build names the first three and counts the rest; check lists each."""
    ws = make_workspace(tmp_path / "ws", pieces=[f"札{i}" for i in range(1, 8)])
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("text: 本文", 'text: "**強い本文'), encoding="utf-8")
    deck.write_text(deck.read_text(encoding="utf-8").replace("}\n", '"}\n'), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "printed as written" in line]
    assert [line.split(": a '**'")[0] for line in said[:3]] == [  # at the text's own line and column, to jump to
        f"pnpgen: warning: data/test/decks/cards.yaml:{8 + i}:22: deck 'cards' piece {i} (札{i}) front, field 'text'"
        for i in (1, 2, 3)]
    assert said[3:] == ["pnpgen: warning: deck 'cards': 4 more texts with markup that is not paired, printed as "
                        "written (pnpgen check lists each)"], said
    assert run(ws, "check", "--game", "test") == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if "printed as written (markup" in line]
    assert len(listed) == 7, listed


def _picture_errors(tmp_path, capsys, arts: list[str], pictures: dict[str, str]) -> list[str]:
    """``pnpgen check``'s error lines for a deck of cards showing ``arts`` (one card each), the SVG
    ``pictures`` (their bodies, by file name) in the game's art/; the check must fail."""
    deck = "name: Cards\nlayout: card-poker\npieces:\n" + "".join(
        f"  - {{title: {chr(65 + k)}, art: {name}}}\n" for k, name in enumerate(arts))
    ws = make_workspace(tmp_path / "ws", deck=deck)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10">'
    for name, body in pictures.items():
        (art / name).write_text(head + body + "</svg>")
    assert run(ws, "check", "--game", "test") == 2
    return [line for line in capsys.readouterr().out.splitlines() if "error:" in line]


def test_two_svg_pictures_refused_for_two_reasons_are_two_problems(tmp_path, capsys):
    """A designer's trial: an Illustrator picture (a <style> sheet) and an Inkscape one (text on
    a path) on two cards were one error '— and 1 more face the same way', naming the first picture
    and its advice alone; a third card showing the first picture again is that problem's one more face."""
    errors = _picture_errors(tmp_path, capsys, ["styled.svg", "lines.svg", "styled.svg"], {
        "styled.svg": '<style>g > rect { fill: red }</style><rect width="9" height="9"/>',
        "lines.svg": '<path id="p" d="M1 5 H9"/><text font-family="NotoSans-Regular"><textPath href="#p">M</textPath></text>'})
    assert len(errors) == 2, errors
    styled, lines = sorted(errors, key=lambda line: "lines.svg" in line)
    assert "shows 'styled.svg'" in styled and "— and 1 more face the same way" in styled
    assert "shows 'lines.svg'" in lines and "text on a path as paths" in lines and "more face" not in lines


def test_an_inkscape_picture_with_text_on_a_path_is_told_at_the_template_line_the_file_and_its_line(tmp_path, capsys):
    """Inkscape saves text put on a path in a <textPath>, which pnpgen does not draw: the error named the face's
    template without a line ("written at line 3 of common/piece.svg.j2") and the picture by the
    name written, not where its text is. It names the template line calling image(), the
    picture's file and the line of its first <textPath>, and the steps in Inkscape."""
    front = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n\n'
             '{{ image(piece.art, 5, 20, w - 10, 40) }}\n{% endblock %}\n')
    ws = make_workspace(tmp_path / "ws", deck="name: 絵札\nformat: poker\nfront: card-front.svg.j2\n"
                        "fields: {name: text, art: image}\npieces:\n  - {name: 月, art: moon.svg}\n", front=front)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    (art / "moon.svg").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" '
        'viewBox="0 0 60 40">\n  <rect width="60" height="40" fill="#223355"/>\n'
        '  <text xml:space="preserve" style="font-size:8px;font-family:NotoSans-Regular;fill:#ffffff" x="5" y="10">'
        '\n    <textPath id="textPath1" href="#arc">Moon</textPath>\n  </text>\n'
        '  <path id="arc" d="M5 20 A20 20 0 0 1 55 20" fill="none"/>\n</svg>\n', encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2:4: deck 'cards' piece 1 (月, "), err
    assert "front: <image> shows 'moon.svg'" in err and "common/piece.svg.j2" not in err, err
    assert ("shows 'moon.svg', an SVG picture whose text is set on a path (<textPath id='textPath1'> at line 5 of the "
            "picture), which pnpgen does not draw") in err and "(data/test/art/moon.svg:5)" in err, err
    assert ("(expected the picture's text on a path as paths (Inkscape: select the text, Path > Object to Path, "
            "File > Save; Illustrator: Type > Create Outlines), or the picture as a PNG)") in err, err


def test_a_character_no_font_has_in_many_pieces_is_one_problem_naming_their_lines(tmp_path, capsys):
    """trial19: an emoji in 117 prompts was 117 problems in check (the build stops at the first):
    one character is one fix (a font for it), so it is one line, with the other pieces' lines."""
    deck = DECK_YAML + "".join(f"  - {{name: カード{i}, text: 本文😀{i}}}\n" for i in range(1, 9))
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 2
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if "error:" in line]
    assert len(errors) == 1, out
    assert errors[0].startswith("  error: data/test/decks/cards.yaml:9:"), errors[0]
    assert "U+1F600" in errors[0] and "— and 7 more faces the same way" in errors[0]
    assert errors[0].endswith("(data/test/decks/cards.yaml:10, data/test/decks/cards.yaml:11, "
                              "data/test/decks/cards.yaml:12, data/test/decks/cards.yaml:13, "
                              "data/test/decks/cards.yaml:14, …)"), errors[0]
    assert "1 problem a build would stop at" in out



def test_a_character_no_font_has_reaches_check_as_data_not_as_words(tmp_path):
    """The character is carried from the text box through the face's template to check (the
    error's ``glyph``), not read back out of the message: two messages that word it differently
    (two fonts named) are one problem, and a message that only quotes those words is not one."""
    from pnpgen.data.load import load_game
    from pnpgen.data.workspace import Workspace
    from pnpgen.engine.check import FaceCheck, check_faces
    from pnpgen.engine.options import BuildOptions
    from pnpgen.errors import InputError

    deck = DECK_YAML + "".join(f"  - {{name: カード{i}, text: 本文😀}}\n" for i in range(3))
    ws = make_workspace(tmp_path / "ws", deck=deck)
    found = check_faces(Workspace(ws), load_game(Workspace(ws), "test"), BuildOptions())
    assert [p.error.glyph for p in found.problems] == ["😀"] and len(found.problems[0].also) == 2
    said = "character U+1F600 '😀' is in no font ({}) in deck 'cards' piece {}"
    two = FaceCheck()
    two.add(InputError(said.format("BIZUDPGothic-Regular", 1), "cards.yaml", 9, glyph="😀", expected="x"))
    two.add(InputError(said.format("NotoSerif-Regular", 2), "cards.yaml", 10, glyph="😀", expected="x"))
    two.add(InputError("unknown icon {x} in " + said.format("F", 3), "cards.yaml", 11, expected="x"))
    assert [(p.faces, p.also) for p in two.problems] == [(2, ["cards.yaml:10"]), (1, [])]


def test_players_left_open_is_counted_among_the_placeholders_to_settle(tmp_path, capsys):
    """A game from 'pnpgen new --kind dice': its pieces are settled, its players: 未定 was warned at
    its line, and the count under it said '0 placeholders to settle'."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    game_yaml = ws / "data" / "test" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("players: 2-4", "players: 未定"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "  game: data/test/game.yaml:3:10: players: 未定\n1 placeholder to settle" in out, out


def test_a_japanese_drafts_count_warning_in_an_english_check_names_the_deck_as_the_draft_does(tmp_path, capsys):
    """``check --lang en`` of a Japanese draft: the warning quotes the draft's 「テストカード」 and
    named the deck by its English name ('Test cards'), two editions in one sentence. The deck is
    named as the draft names it."""
    deck = DECK_YAML.replace("name: テストカード", "name: {ja: テストカード, en: Test cards}") + "".join(
        f"  - {{name: カード{i}, text: 本文}}\n" for i in range(1, 12))
    ws = make_workspace(tmp_path / "ws", draft=True, deck=deck, game=GAME_YAML + "languages: [ja, en]\n")
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8").replace("（１１枚）", "（１２枚）\n◇テストカーダ（１枚）"),
                     encoding="utf-8")
    assert run(ws, "check", "--game", "test", "--lang", "en") == 0
    out = capsys.readouterr().out.splitlines()
    (missing,) = [line for line in out if "テストカーダ" in line]
    assert "テストカード" in missing and "Test cards" not in missing, missing  # the nearest name, as the draft writes it
    (warning,) = [line for line in out if "count of" in line]
    assert "count of テストカード differs: the draft states 12" in warning, warning
    assert "the data has 11 (deck cards 'テストカード' = 11)" in warning and "Test cards" not in warning, warning


def test_a_picture_with_transparency_on_several_cards_is_one_problem(tmp_path, capsys):
    """trial43: twelve month pictures with a see-through circle, each on four 花札, were 48 errors,
    one per card (the picture's error names the card inside it, 「m05.svg (image in deck 'fuda' piece
    20 (…) front)」): each picture is one problem, its other cards counted."""
    errors = _picture_errors(tmp_path, capsys, ["veil.svg", "veil.svg", "veil.svg", "plain.svg"], {
        "veil.svg": '<circle cx="5" cy="5" r="4" fill="#3a8f4b" opacity="0.6"/>',
        "plain.svg": '<circle cx="5" cy="5" r="4" fill="#3a8f4b"/>'})
    assert len(errors) == 1, errors
    assert "veil.svg (image in deck 'cards' piece " in errors[0] and "opacity 0.6" in errors[0], errors
    assert errors[0].endswith("— and 2 more faces the same way"), errors


BROKEN_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">\n<path d="M0 0 H9" stroke="#000">\n</svg>\n'


@pytest.mark.parametrize("made_by", ["layout", "template"])
def test_an_icon_file_that_cannot_be_drawn_is_one_problem_in_a_layouts_deck_as_in_a_templates(tmp_path, capsys, made_by):
    """trial48: an icon with a tag left open, used on many cards, was one error a piece in a
    layout's deck (each at its piece's line) and one error '— and 40 more faces' in a template's
    deck (all at the template's line). It is one mistake, of the icon's file: said once in both,
    at the first piece using it, the other faces counted."""
    texts = [f"{{tap}}を払う{i}" for i in range(4)]
    if made_by == "layout":
        ws = make_workspace(tmp_path / "ws", deck="name: カード\nlayout: card-poker\npieces:\n" + "".join(
            f"  - {{title: 題{i}, text: '{t}'}}\n" for i, t in enumerate(texts)))
    else:
        ws = make_workspace(tmp_path / "ws", pieces=[f"c{i}" for i in range(4)])
        deck = ws / "data" / "test" / "decks" / "cards.yaml"
        yaml = deck.read_text(encoding="utf-8")
        for i, t in enumerate(texts):
            yaml = yaml.replace(f"text: 本文c{i}", f"text: '{t}'")
        deck.write_text(yaml, encoding="utf-8")
    (ws / "templates" / "test" / "icons").mkdir(parents=True, exist_ok=True)
    (ws / "templates" / "test" / "icons" / "tap.svg").write_text(BROKEN_ICON, encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    errors = [line for line in capsys.readouterr().out.splitlines() if "error:" in line]
    assert len(errors) == 1, errors
    assert "icon templates/test/icons/tap.svg:3:7 is not valid SVG: <path> (line 2) is never closed" in errors[0], errors
    assert "piece 1 (" in errors[0] and errors[0].endswith("— and 3 more faces the same way"), errors


def test_a_placeholder_left_in_the_drafts_rules_is_listed_at_its_line(tmp_path, capsys):
    """The credits' 「イラスト：未定」 in draft.txt: proof.txt listed it, check did not (it said
    '0 placeholders to settle'). It is listed at the draft's file:line, as proof.txt has it, and
    counted; the designer's notes (open questions by nature, never printed) are not."""
    ws = make_workspace(tmp_path / "ws", draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8") + "\n■　クレジット\n\n　ゲームデザイン：テスト\n　イラスト：未定\n"
                     "\n■　問題点\n\n　人数は未定。\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert "  rulebook: data/test/draft.txt:20: “未定” left in the draft: イラスト：未定\n1 placeholder to settle" in out, out
    assert "人数は未定" not in out


def test_every_placeholder_left_in_the_drafts_rules_is_counted_past_the_listed_ones(tmp_path, capsys):
    """check lists the first 50 of a draft's 未定 lines, the last saying how many more; its count
    under the list stopped at 50 too (fixesQ): 53 lines are 53 placeholders to settle."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, draft=True)
    draft = ws / "data" / "test" / "draft.txt"
    draft.write_text(draft.read_text(encoding="utf-8") + "\n■　クレジット\n\n"
                     + "".join(f"　役割{i}：未定\n" for i in range(53)), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if line.startswith("  rulebook: ")]
    assert len(listed) == 50 and listed[-1].endswith("(and 3 more)"), listed[-1]
    assert "\n53 placeholders to settle" in out, out


def test_check_warns_of_a_pad_tiled_that_a_sheet_holds_at_the_size_the_build_offers(tmp_path, capsys):
    """A roll-and-write pad of A4 sheets (210 × 297 mm, 80 copies) on A4 paper: the build tiles
    each copy (160 pages) and its summary offers ``size: [193, 274]``; check said ``ok`` and
    nothing. It warns at the deck file with that size, and not once the deck takes it."""
    deck = ("name: 記録\nkind: board\nsize: [210, 297]\nlayout:\n  extends: board\n  boxes:\n    art: null\n"
            "pieces:\n  - {title: 記録, text: 本文, count: 80}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert ("warning: data/test/decks/cards.yaml:5:3: deck 'cards': a 210×297 mm board prints as 2 page tiles (2×1, the board turned 90°) "
            "a copy, 160 pages for 80: tiled, as the sheet's printable area is smaller than the board: "
            "size: [193, 274] prints whole on one sheet") in out, out
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(deck.replace("[210, 297]", "[193, 274]"), encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 0
    assert "page tiles" not in capsys.readouterr().out


def test_an_empty_colour_field_a_box_strokes_or_writes_in_is_listed_as_open(tmp_path, capsys):
    """As a panel's ``fill:``, a box's ``stroke: piece.<field>`` (a tile's rim) and a text box's
    ``colour: piece.<field>`` (a faction's ink) paint with the field: left empty, each is listed;
    so is a text field a panel fills with, written as an empty string (``band: ""``)."""
    deck = ("name: タイル\nfields: {rim: colour, ink: colour, band: text}\n"
            "layout: {extends: token-square, boxes: {rim: {type: panel, x: 2, y: 2, w: 10, h: 10, stroke: piece.rim},\n"
            "  band: {type: panel, x: 2, y: 20, w: 10, h: 4, fill: piece.band}, title: {colour: piece.ink}}}\n"
            "pieces:\n"
            '  - {title: 森, rim: "#3a8f4b", ink: "#2f6db5", band: "#c9b48a"}\n'
            '  - {title: 湖, ink: "#2f6db5", band: "#c9b48a"}\n'
            '  - {title: 丘, rim: "#c9b48a", band: ""}\n')
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    lines = [line.strip().split(": ", 2)[-1] for line in out.splitlines() if "grey" in line]
    assert lines == ["湖.rim: (empty: the layout paints it grey)", "丘.ink: (empty: the layout paints it grey)",
                     "丘.band: (empty: the layout paints it grey)"], out


def test_an_empty_colour_field_a_tracks_first_space_paints_with_is_listed_as_open(tmp_path, capsys):
    """hostile40: a track's ``first: piece.<field>`` (the start space in a player's colour) paints
    with the field as a ``fill:`` does, grey while empty; it was not listed (only fill, stroke and
    colour were read)."""
    deck = ("name: マット\nfields: {hp: int, player: colour}\n"
            "layout: {extends: card-poker, boxes: {hp: {type: track, field: hp, x: 4, y: 60, w: 55, h: 8, "
            "first: piece.player}}}\npieces:\n"
            '  - {title: 赤, hp: 10, player: "#cc0000", text: 本文, art: 未定}\n'
            "  - {title: 青, hp: 10, text: 本文}\n")
    assert _painted_grey(make_workspace(tmp_path / "ws", deck=deck), capsys) == [
        "cards: data/test/decks/cards.yaml:6:5: 青.player: (empty: the layout paints it grey)"]


def test_an_empty_field_a_templates_colour_paints_grey_is_warned_at_both_lines(tmp_path, capsys):
    """hostile40: ``colour(piece.edge)`` (or ``piece.band | tint(…)``) of a piece whose edge is left
    empty paints the grey of an open colour, unsaid: a template deck's fields are the template's to
    read, so the render warns at the piece's line and the template's (a build replays it from the
    cache); 未定 is listed as open, and a colour given or a default (colour(piece.edge, 'ink')) is
    not warned of."""
    front = ('{% extends "common/piece.svg.j2" %}{% block art %}\n'
             '<rect x="0" y="0" width="10" height="10" fill="{{ colour(piece.edge) }}"/>\n'
             '<rect x="0" y="20" width="10" height="10" fill="{{ piece.band | tint(0.5) }}"/>\n'
             '<rect x="0" y="30" width="10" height="10" fill="{{ colour(piece.rim, \'ink\') }}"/>\n'
             '{{ textbox(piece.name, 5, 40, 50, 10) }}{% endblock %}')
    deck = DECK_YAML.replace("  text: text\n", "  text: text\n  edge: colour\n  band: colour\n  rim: colour\n") + \
        '  - {name: 森, edge: "#3a8f4b", band: "#112233"}\n  - {name: 湖, band: "#112233"}\n' \
        '  - {name: 丘, edge: 未定, band: }\n'
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    said = ["warning: data/test/decks/cards.yaml:13:5: deck 'cards', piece 湖: edge is empty, so "
            "templates/test/card-front.svg.j2:2 paints it the grey of a colour still open (expected its colour, or 未定, "
            "which check and proof.txt list as open)",
            "warning: data/test/decks/cards.yaml:14:31: deck 'cards', piece 丘: band is empty, so "
            "templates/test/card-front.svg.j2:3 paints it the grey of a colour still open (expected its colour, or 未定, "
            "which check and proof.txt list as open)"]
    for command in (["check"], ["build", "--no-rulebook"], ["build", "--no-rulebook", "--out", "again"]):
        assert run(ws, *command, "--game", "test") == 0  # (the last: its faces from the cache, warnings replayed)
        out = "".join(capsys.readouterr())
        assert [line.strip().removeprefix("pnpgen: ") for line in out.splitlines() if "grey" in line] == said, out
        assert "cards: data/test/decks/cards.yaml:14:21: 丘.edge: 未定" in out or command[0] == "build", out
