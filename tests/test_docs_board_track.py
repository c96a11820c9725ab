"""docs/data-format.md, the board drawn by the built-in `board` layout with a score track round
its edge (`around: true`): a designer's trial put the layout's band and title over the track's
top row, as nothing said where the hole inside the track is. The section says it, worked out for
its example; the example builds as written, its words inside the hole and the track's numbers
round it."""

from __future__ import annotations

import re

from conftest import REPO, make_workspace, run
from pdfprobe import glyphs
from pnpgen.data.load import load_game
from pnpgen.data.workspace import Workspace
from pnpgen.faces.tracks import ring_grid, track_inner

FORMAT = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
START = FORMAT.index('<a id="board-track"></a>')
SECTION = FORMAT[START:FORMAT.index('<a id="hex-map"></a>', START)]
SAID = " ".join(SECTION.split())


def test_the_board_track_example_says_its_hole_and_builds_its_boxes_inside_it(tmp_path, capsys):
    (deck,) = re.findall(r"```yaml\n(# data/<slug>/decks/town\.yaml\n.*?)```", SECTION, re.S)
    # the figures the text states are the track's: 51 spaces round 348 × 231 mm (360 × 243 less 6 mm each side)
    assert "size: [360, 243]" in deck and 'w: "w - 12", h: "h - 12"' in deck
    assert "17 across and 11 down" in SAID and ring_grid(51, 348, 231) == (17, 11)
    hole = track_inner(50, 6, 6, 348, 231)
    assert f"x {hole.x:.1f}–{hole.x + hole.w:.1f}, y {hole.y:g}–{hole.y + hole.h:g} mm" in SAID, (hole, SAID)
    ws = make_workspace(tmp_path / "ws", deck=deck)
    (deck_,) = load_game(Workspace(ws), "test").decks
    assert deck_.layout is not None
    for box in deck_.layout.front.boxes:  # every box the example places (not the layout's frame) in the hole
        if box.name in ("band", "title", "art", "text"):
            x, y, w, h = (box.get(k) for k in "xywh")
            assert hole.x <= x and x + w <= hole.x + hole.w and hole.y <= y and y + h <= hole.y + hole.h, (box.name, hole)
    capsys.readouterr()
    assert run(ws, "build", "--game", "test", "--jobs", "1", "--no-rulebook") == 0
    assert "spaces of track" not in capsys.readouterr().err  # (nothing over the track: no warning)
    (page,) = glyphs(ws / "build" / "test" / "shop" / "cards.pdf")  # one board, single-sided: trim + 3 mm bleed
    inside = [g for g in page if hole.x < g.x - 3 < hole.x + hole.w and hole.y < g.y - 3 < hole.y + hole.h]
    words = "".join(g.char for g in inside)
    assert "宿場町の職人" in words and "職人コマを行動スペースに置きます。" in words, words
    numbers = "".join(g.char for g in page if g not in inside)
    assert not re.search(r"\d", words), words  # no space of the track under the boxes
    assert all(str(n) in numbers for n in (0, 16, 26, 42, 50)), numbers  # the corners and the last space round it


def test_a_box_over_the_tracks_spaces_is_warned_at_its_line_with_the_hole(tmp_path, capsys):
    """trial36: the layout's band and title left 6 mm down, and a text box moved over the left
    column of spaces, printed over (or under) the track without a word. Each is one warning: a
    box of the deck's at its own line, one of the built-in layout's at the track's line, with the
    hole the spaces leave; a box inside the hole, or holding the whole track, is not named."""
    (deck,) = re.findall(r"```yaml\n(# data/<slug>/decks/town\.yaml\n.*?)```", SECTION, re.S)
    lines = [line for line in deck.splitlines() if not line.lstrip().startswith(("band:", "title:"))]
    lines = [line.replace("text: {x: 30,", "text: {x: 20,") for line in lines]
    ws = make_workspace(tmp_path / "ws", deck="\n".join(lines) + "\n")
    deck_file = ws / "data" / "test" / "decks" / "cards.yaml"
    at = {key: n for n, line in enumerate(deck_file.read_text(encoding="utf-8").splitlines(), 1)
          for key in ("score", "text") if line.lstrip().startswith(key + ":")}
    capsys.readouterr()
    assert run(ws, "check", "--game", "test") == 0
    said = [line.removeprefix("  warning: ") for line in capsys.readouterr().out.splitlines() if "spaces of track" in line]
    hole = "(expected the box inside the hole the spaces leave, 26.5–333.5 mm across, 27.0–216.0 down, or the track moved)"
    track = f"data/test/decks/cards.yaml:{at['score']}:5"
    assert said == [
        f"{track}: the spaces of track score and the built-in layout board's box band (6–354 mm across, 6–22 down) "
        f"meet: one hides the other there {hole}",
        f"{track}: the spaces of track score and the built-in layout board's box title (10–350 mm across, 6–22 down) "
        f"meet: one hides the other there {hole}",
        f"data/test/decks/cards.yaml:{at['text']}:5: box text (20–320 mm across, 164–212 down) and the spaces of track "
        f"score ({track}) meet: one hides the other there {hole}"], said
