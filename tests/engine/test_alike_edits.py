"""A field several pieces of a deck edited alike — the same field, the same old value, the same new
one, on four pieces or more but not every one (a suit recoloured) — told as one line naming the
field, its values and the pieces, in the build's change line (and so the preview page), ``pnpgen
diff``'s Markdown and its JSON (trial85: 15 of 66 cards read ``兎 [1]: colour, … and 5 more``)."""

from __future__ import annotations

import json

from conftest import DECK_YAML, FRONT, REPO, make_workspace, run

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")
MARKED_FRONT = FRONT.replace("{% endblock %}", '{{ textbox(piece.mark, 5, 75, w - 10, 8, size=8) }}\n{% endblock %}')
assert MARKED_FRONT != FRONT


def _deck() -> str:
    """20 cards: 札1–札6 of the suit 春, the others 冬; each with its own mark."""
    return DECK_YAML.replace("  text: text\n", "  text: text\n  mark: text\n") + "".join(
        f"  - {{name: 札{n}, text: {'春' if n <= 6 else '冬'}, mark: m{n}}}\n" for n in range(1, 21))


def test_a_field_six_pieces_edited_alike_is_one_line_naming_them_with_the_other_edits_on_their_own(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=_deck(), front=MARKED_FRONT)
    assert run(ws, *BUILD, "--quiet") == 0
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8").replace("text: 春", "text: 夏").replace("mark: m3}", "mark: x3}") \
        .replace("name: 札10, text: 冬", "name: 札10, text: 秋")
    deck.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert run(ws, *BUILD) == 0
    out = capsys.readouterr().out
    assert "changed: cards: 20 → 20 (6 pieces: text 春 → 夏 (札1, 札2, 札3 and 3 more), 札3: mark, 札10: text);" in out, out
    assert run(ws, "diff", "--game", "test") == 0
    md = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("- ")]
    assert md == ["- 6種：text：「春」 → 「夏」（札1、札2、札3ほか3種）", "- 札3：mark：“m3” → “x3”",
                  "- 札10：text：「冬」 → 「秋」"], md
    assert run(ws, "diff", "--game", "test", "--format", "json") == 0
    cards = json.loads(capsys.readouterr().out)["decks"]["cards"]
    assert cards["alike"] == [{"field": "text", "old": "春", "new": "夏", "pieces": [f"札{n}" for n in range(1, 7)]}]
    assert cards["every_piece"] == []
    assert len(cards["fields"]) == 8  # (each piece's change still listed)
    # the preview page shows the build's change lines: the same line
    manifest = json.loads((ws / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))
    assert any("6 pieces: text 春 → 夏 (札1, 札2, 札3 and 3 more)" in c for c in manifest["changes"]), manifest["changes"]
    page = (REPO / "docs" / "playtest.md").read_text(encoding="utf-8")  # the page's examples, in these words
    assert "`15 pieces: colour #c00 → #06c (兎 [1], 兎 [2],\n兎 [3] and 12 more)`" in page and "the JSON's `alike`" in page
    assert "`- 15種：colour：「#c00」 → 「#06c」（兎［1］、兎［2］、兎［3］ほか12種）`" in page


def test_edits_made_alike_on_some_pieces_are_four_or_more_from_the_same_value_and_not_every_piece():
    from pnpgen.engine.changes import edited_alike_on, few_named

    def alike(old: dict, new: dict) -> list:
        return edited_alike_on({k: k for k in new}, old, new, lambda f: False)
    six = "abcdef"
    assert alike({k: {"m": 1} for k in six}, {k: {"m": 2 if k in "abcd" else 1} for k in six}) == [("m", 1, 2, list("abcd"))]
    assert alike({k: {"m": 1} for k in six}, {k: {"m": 2 if k in "abc" else 1} for k in six}) == []  # three: named
    assert alike({k: {"m": 1 if k != "d" else 3} for k in six}, {k: {"m": 2 if k in "abcd" else 1} for k in six}) == []
    assert alike({k: {"m": 1} for k in six}, {k: {"m": 2} for k in six}) == []  # every piece: "all 6 pieces"
    assert alike({k: {"m": [1]} for k in six}, {k: {"m": [2] if k != "f" else [1]} for k in six}) == [("m", [1], [2], list("abcde"))]
    assert few_named(["a", "b", "c"]) == "a, b, c" and few_named(list("abcde")) == "a, b, c and 2 more"
    assert few_named(list("abcde"), "ja") == "a、b、cほか2種"
