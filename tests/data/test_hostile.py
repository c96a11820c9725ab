"""Issue 12: hostile and careless input. Every case exits 2 with one line naming the file (and
line), the key or template, no traceback, and never lists the bad value among the valid ones."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import DECK_YAML, GAME_YAML, forked_cli, make_workspace, run

GOOD = DECK_YAML + "  - {name: 祝福, text: 本文}\n"
ROUND = GOOD.replace("format: poker", "shape: rounded\nsize: [63, 88]")  # 'front:' moves to line 4
CIRCLE = GOOD.replace("format: poker", "shape: circle\nsize: 30")
HEX = GOOD.replace("format: poker", "shape: hex\nsize: 40")


def fails(ws: Path, capsys, *args: str) -> str:
    """Run the CLI: exit 2, one 'pnpgen: error:' line, no traceback; return that line."""
    assert run(ws, *args) == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def bad_option(ws: Path, capsys, *args: str) -> str:
    """An option argparse refuses through its type: usage and one error line, exit 2."""
    with pytest.raises(SystemExit) as e:
        run(ws, *args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error: argument" in err, err
    return err


def not_listed(err: str, bad: str) -> None:
    """The bad value is not offered among the valid ones."""
    m = re.search(r"\(expected (.*)\)$", err.strip())
    assert m is None or bad not in m.group(1), err


# ------------------------------------------------------------------ values: bounds and types

DECK_CASES = {
    # name: (deck, where, must also contain)
    "negative size": (GOOD.replace("format: poker", "size: [-63, 88]"), "cards.yaml:2:7: size: size -63 is out of range", "1 to 2000 mm"),
    "huge board": (GOOD.replace("format: poker", "kind: board\nsize: [100000, 100000]"), "cards.yaml:3:7: size: size 100000", "1 to 2000 mm"),
    "size in unknown unit": (GOOD.replace("format: poker", "size: [63furlong, 88]"), "cards.yaml:2:7: size: size '63furlong' is not a length", "'63mm'"),
    "size not finite": (GOOD.replace("format: poker", "size: [.inf, 88]"), "cards.yaml:2:7: size: size inf is infinite", "a number from 1 to 2000 mm"),
    "circle of size 0": (CIRCLE.replace("size: 30", "size: 0"), "cards.yaml:3:7: size: size 0 is out of range", "1 to 2000 mm"),
    "circle given two sizes": (CIRCLE.replace("size: 30", "size: [30, 30]"), "cards.yaml:3:7: size: a circle takes one size", "one length"),
    "circle given a format": (GOOD.replace("format: poker", "shape: circle\nformat: poker"), "cards.yaml:3:9: format: a circle takes a size", "size: 40mm"),
    "corner radius lots": (ROUND.replace("shape: rounded", "shape: rounded\ncorner_radius: lots"), "cards.yaml:3:16: corner_radius: corner radius 'lots' is not a length", "63"),
    "corner radius too big": (ROUND.replace("shape: rounded", "shape: rounded\ncorner_radius: 40"), "cards.yaml:3:16: corner_radius: corner radius 40 is out of range", "0 to 31.5 mm"),
    "corner radius on a rect": (GOOD.replace("format: poker", "format: poker\ncorner_radius: 3"), "cards.yaml:3:16: corner_radius: a rect has no corner radius", "shape: rounded"),
    "unknown orientation": (HEX.replace("shape: hex", "shape: hex\norientation: sideways"), "cards.yaml:3:14: orientation: unknown orientation 'sideways'", "one of pointy, flat"),
    "orientation on a rect": (GOOD.replace("format: poker", "format: poker\norientation: flat"), "cards.yaml:3:14: orientation: a rect has no orientation", "hex or trihex"),
    "polygon point outside": (GOOD.replace("format: poker", "shape: polygon\nsize: [30, 30]\npoints: [[0, 0], [40, 0], [15, 26]]"), "cards.yaml:4:9: points: point 2 of 3, [40, 0]: x 40 is out of range", "0 to 30 mm"),
    "polygon point not a pair": (GOOD.replace("format: poker", "shape: polygon\nsize: [30, 30]\npoints: [[0, 0], [30, 0], [15]]"), "cards.yaml:4:9: points: point 3 of 3, [15], is not [x, y]", "[x, y] in mm"),
    "polygon without points": (GOOD.replace("format: poker", "shape: polygon\nsize: [30, 30]"), "cards.yaml:1:1: a polygon needs points", "points:"),
    "polygon crossing itself": (GOOD.replace("format: poker", "shape: polygon\nsize: [40, 40]\npoints: [[20, 0], [32, 40], [0, 14], [40, 14], [8, 40]]"), "cards.yaml:4:9: points: the outline crosses itself: edge 1 (from point 1) crosses edge 3", "each edge meeting only its neighbours"),
    "polygon of too many points": (GOOD.replace("format: poker", "shape: polygon\nsize: [30, 30]\npoints: [" + ", ".join(["[0, 0]"] * 1001) + "]"), "cards.yaml:4:9: points: points must be a list of 3 to 1000 [x, y] corners (1001 given)", "[[0, 0], [30, 0], [15, 26]]"),
    "polygon without area": (GOOD.replace("format: poker", "shape: polygon\nsize: [30, 30]\npoints: [[0, 0], [10, 10], [20, 20]]"), "cards.yaml:4:9: points: the points enclose no area", "three or more"),
    "format as a list": (GOOD.replace("format: poker", "format: [poker]"), "cards.yaml:2:9: format: format [poker] is a list, not a name", "one of poker, bridge"),
    "unknown kind": (GOOD.replace("format: poker", "format: poker\nkind: 3"), "cards.yaml:3:7: kind: unknown kind 3", "one of card, tile"),
    "options as a list": (GOOD.replace("format: poker", "format: poker\noptions: [a, b]"), "cards.yaml:3:10: options: options must be a mapping, got a list", "key: value"),
    "shape key under options": (ROUND.replace("shape: rounded", "shape: rounded\noptions: {corner_radius: 99}"), "cards.yaml:3:11: options.corner_radius: corner_radius is a shape key", "top of the deck file"),
    "fields as a list": (GOOD.replace("  name: text\n  text: text", "  - name"), "cards.yaml:6:3: fields: fields must be a mapping, got a list", "key: value"),
    "reserved field": (GOOD.replace("  text: text", "  text: text\n  count: int"), "cards.yaml:8:3: fields.count: 'count' is set by pnpgen", "reserved"),
    "piece not a mapping": (DECK_YAML + "  - 祝福\n", "cards.yaml:9:5: pieces.1: piece 1 must be a mapping, got text", "key: value"),
    "count negative": (DECK_YAML + "  - {name: 祝福, count: -5}\n", "cards.yaml:9:23: pieces.1.count: count -5", "0..10000"),
    "count huge": (DECK_YAML + "  - {name: 祝福, count: 99999999999999999999999}\n", "cards.yaml:9:23: pieces.1.count: count 99999999999999999999999", "0..10000"),
}


@pytest.mark.parametrize("case", sorted(DECK_CASES))
def test_bad_deck_value(tmp_path, capsys, case):
    deck, where, hint = DECK_CASES[case]
    ws = make_workspace(tmp_path / "ws", deck=deck)
    for command in (("check",), ("build", "--game", "test", "--no-rulebook")):
        err = fails(ws, capsys, *command)
        assert where in err and hint in err, err
        for bad in re.findall(r"'[^']*'", where):  # a quoted bad value
            not_listed(err, bad)
    assert not (ws / "build").exists()


GAME_CASES = {
    "palette #zzz": (GAME_YAML.replace('"#cc3333"', '"#zzz"'), "game.yaml:6:8: palette.red: colour '#zzz' is not a hex colour", "'#rrggbb'"),
    "palette as a list": (GAME_YAML.replace('palette:\n  red: "#cc3333"\n  ink: "#222222"', "palette: [red]"), "game.yaml:5:10: palette: palette must be a mapping, got a list", "key: value"),
    "fallback_fonts as one string": (GAME_YAML + "fallback_fonts: BIZUDGothic-Regular\n", "game.yaml:8:17: fallback_fonts: fallback_fonts must be a list, got text", "['BIZUDGothic-Regular']"),
    "sourced as a number": (GAME_YAML + "sourced: 3\n", "game.yaml:8:10: sourced: sourced must be a list, got a number", "'- …' entries"),
    "sourced count zero": (GAME_YAML + "sourced:\n  - {name: サイコロ, count: 0}\n", "game.yaml:9:25: sourced.1.count: count 0", "1..10000"),
    "font role as a list": (GAME_YAML + "fonts:\n  gothic: [a]\n", "game.yaml:9:11: fonts.gothic: a font must be a name, got a list", "a name"),
    "draft_file empty": (GAME_YAML + "draft_file: ''\n", "game.yaml:8:13: draft_file: draft_file must be a name, got empty text", "a name"),
}


@pytest.mark.parametrize("case", sorted(GAME_CASES))
def test_bad_game_value(tmp_path, capsys, case):
    game, where, hint = GAME_CASES[case]
    ws = make_workspace(tmp_path / "ws", game=game)
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert where in err and hint in err, err


def test_check_names_ten_parked_pieces_of_a_deck_and_counts_the_rest(tmp_path, capsys):
    """A TCG trial: four starter decks each read the 420-card sheet through a count column of their
    own, parking the cards they do not take: check printed 1,612 'parked' lines, one per card."""
    deck = DECK_YAML + "  - {name: 祝福, text: 本文, count: 2}\n" + "".join(
        f"  - {{name: 札{i}, text: 本文, count: 0}}\n" for i in range(1, 13))
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check") == 0
    out = capsys.readouterr().out
    named = [line for line in out.splitlines() if line.endswith(": parked (count: 0, prints none)")]
    assert [line.split(": ")[2] for line in named] == [f"札{i}" for i in range(1, 11)], out
    assert "  cards: and 2 more pieces parked" in out.splitlines(), out


def test_count_zero_parks_a_piece(tmp_path, capsys):
    """count: 0 keeps the piece in the data, prints none, and check lists it."""
    import pypdf

    deck = (DECK_YAML + "  - {name: 祝福, text: 本文, count: 2}\n  - {name: 保留, text: 本文, count: 0}\n"
            "  - {name: 未定の札, text: 未定（効果は後で）, count: 0}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "check") == 0
    out = capsys.readouterr().out
    assert "cards.yaml:10:5: 保留: parked (count: 0, prints none)" in out and "祝福: parked" not in out
    assert "効果は後で" not in out  # a parked piece's open values: nothing of it prints, nothing of it is open
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    shop = pypdf.PdfReader(ws / "build" / "test" / "shop" / "cards.pdf")
    assert len(shop.pages) == 4  # two copies of 祝福, front and back; none of 保留
    assert "保留" not in "".join(p.extract_text() for p in shop.pages)


def test_bleed_not_less_than_half_the_piece(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=CIRCLE.replace("size: 30", "size: 5"))
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert "cards.yaml:3:7: size: bleed 3 mm is not less than half this 5×5 mm piece" in err
    assert "--bleed below 2.5 mm" in err


@pytest.mark.parametrize("args, said", [
    (("--bleed", "-1"), "argument --bleed: bleed '-1' is out of range (expected 0 to 10 mm)"),
    (("--bleed", "1km"), "argument --bleed: bleed '1km' is not a length"),
    (("--bleed", "nan"), "argument --bleed: bleed 'nan' is not a number (expected a number from 0 to 10 mm)"),
    (("--margin", "60"), "argument --margin: margin '60' is out of range (expected 0 to 50 mm)"),
    (("--creep=-0.1mm",), "argument --creep: creep '-0.1mm' is out of range"),
    (("--game", "../../etc"), "argument --game: '../../etc' is not a game name"),
])
def test_bad_cli_option(tmp_path, capsys, args, said):
    ws = make_workspace(tmp_path / "ws")
    if args[0] != "--game":
        args = ("--game", "test") + args
    err = bad_option(ws, capsys, "build", *args)
    assert said in err, err


def test_out_below_a_file(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    (ws / "notes.txt").write_text("x")
    err = bad_option(ws, capsys, "build", "--game", "test", "--out", "notes.txt/sub")
    assert "argument --out: notes.txt/sub is below the file notes.txt" in err
    err = bad_option(ws, capsys, "build", "--game", "test", "--out", "notes.txt")
    assert "argument --out: notes.txt is a file" in err
    err = bad_option(ws, capsys, "build", "--game", "test", "--out", "out/\0")
    assert "argument --out: 'out/\\x00' is not a usable folder name" in err
    assert (ws / "notes.txt").read_text() == "x"


# ------------------------------------------------------------------ files that are folders

def test_game_yaml_is_a_folder(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "x" / "game.yaml").mkdir(parents=True)
    err = fails(ws, capsys, "build", "--game", "x")
    assert "data/x/game.yaml: game.yaml is not a file" in err and "one of x" not in err


def test_unknown_game_does_not_list_itself(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    err = fails(ws, capsys, "check", "--game", "nope")
    assert "unknown game 'nope'" in err and "(expected one of test)" in err


def test_a_hidden_game_folder_named_as_pnpgens_own_is_no_game(tmp_path, capsys):
    """data/.cache/, data/.pnpgen-staging/ … holding a game: ``build --all`` wrote its outputs into
    build/.cache/ (the cache), and into build/.pnpgen-staging/, which the commit then removed
    (the build said '6 written'); --game refuses such a name, and so every command passes it by."""
    import shutil

    ws = make_workspace(tmp_path / "ws", pieces=["カード1"])
    hidden = [".cache", ".history", ".pnpgen-staging", ".pnpgen-trash"]
    for name in hidden:
        shutil.copytree(ws / "data" / "test", ws / "data" / name)
        shutil.copytree(ws / "templates" / "test", ws / "templates" / name)
    assert run(ws, "list") == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")] == ["test"]
    assert run(ws, "build", "--all", "--no-rulebook", "--jobs", "1") == 0
    out = capsys.readouterr().out
    assert "test: " in out and not any(f"{name}: " in out for name in hidden), out
    built = ws / "build"
    assert sorted(p.name for p in built.iterdir() if p.is_dir()) == [".cache", ".history", "test"]
    assert not list((built / ".cache").glob("*.pdf")) and not (built / ".history" / "cards.pdf").exists()


def test_deck_file_is_a_folder(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws")
    (ws / "data" / "test" / "decks" / "more.yaml").mkdir()
    err = fails(ws, capsys, "check")
    assert "decks/more.yaml: is a folder (expected a YAML file)" in err


@pytest.mark.parametrize("make", ["pipe", "device"])
def test_deck_file_that_would_never_end_is_refused_at_once(tmp_path, capsys, make):
    """A named pipe, or a link to /dev/zero, reads forever: it is named, not read."""
    ws = make_workspace(tmp_path / "ws")
    deck = ws / "data" / "test" / "decks" / "more.yaml"
    os.mkfifo(deck) if make == "pipe" else deck.symlink_to("/dev/zero")
    err = fails(ws, capsys, "check")
    # a link to a device leads out of the workspace: refused before it is even opened
    assert "decks/more.yaml: is not a regular file" in err if make == "pipe" else "decks/more.yaml: decks: " in err


def test_icon_is_a_folder(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + '  - {name: 祝福, text: "2{gem}"}\n')
    (ws / "templates" / "test" / "icons" / "gem.svg").mkdir(parents=True)
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert "icons/gem.svg is not a file" in err and "card-front.svg.j2:5: text: " in err
    assert "{gem}" not in err.split("expected")[-1]


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_template_that_is_a_folder_or_a_pipe_is_said_as_such(tmp_path, capsys, kind):
    """It was 'template 'card-back.svg.j2' not found; did you mean card-back.svg.j2?'."""
    ws = make_workspace(tmp_path / "ws")
    back = ws / "templates" / "test" / "card-back.svg.j2"
    back.unlink()
    back.mkdir() if kind == "folder" else os.mkfifo(back)
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    said = "a folder" if kind == "folder" else "a pipe, socket or device"
    assert f"cards.yaml:4:7: back: template 'card-back.svg.j2' is {said}, not a file" in err, err
    assert "did you mean" not in err


# ------------------------------------------------------------------ the YAML reader

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_billion_laughs_is_refused(tmp_path):
    """Aliases are measured once per node: the bomb is refused at once, in a process of its own
    (forked: a bomb that went off would take that process's memory, not the test run's; the
    timeout only guards against a hang; speed is measured in bench/)."""
    ws = make_workspace(tmp_path / "ws", deck=GOOD.replace("fields:", "options:\n  bomb: *i\nfields:").replace(
        "name: テストカード", BOMB + "name: テストカード"))
    code, err = forked_cli(ws, "build", "--game", "test", "--no-rulebook")
    assert code == 2, err
    assert "Traceback" not in err
    assert re.search(r"cards\.yaml:\d+:\d+: aliases expand this to more than 200,000 values", err), err


YAML_CASES = {
    "python tag on a mapping": ("defaults: !!python/object/new:os.system {}\n", "cards.yaml:1:11: defaults: YAML tag '!!python/object/new:os.system' is not allowed"),
    "custom tag on a list": ("options:\n  x: !evil [1]\n", "cards.yaml:2:6: options.x: YAML tag '!evil' is not allowed"),
    "binary tag": ("options:\n  x: !!binary aGk=\n", "cards.yaml:2:6: options.x: YAML tag '!!binary' is not allowed"),
    "set tag": ("options:\n  x: !!set {a: null}\n", "cards.yaml:2:6: options.x: YAML tag '!!set' is not allowed"),
    "self reference": ("options: &o\n  me: *o\n", "cards.yaml:1:10: an alias refers to the mapping or list that holds it"),
    "5000 deep": ("options:\n  x: " + "[" * 5000 + "]" * 5000 + "\n", "cards.yaml:2:"),
    "aliases nesting deep": ("a: &a [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n"
                             "b: &b [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*a]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
                             "aliases nest this more than 50 levels deep"),
    "list as a key": ("? [a, b]\n: 1\n", "cards.yaml:1:3: a key must be a plain name"),
    "huge integer": ("options:\n  x: " + "9" * 5000 + "\n", "cards.yaml:2:6: options.x: a number 5,000 digits long"),
    "control character": ("options:\n  x: a\x08b\n", "cards.yaml:2:7: character U+0008 is not allowed in YAML"),
    "bad date": ("options:\n  x: 2026-13-45\n", "cards.yaml:2:6: options.x: cannot read value"),
}


@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_hostile_yaml(tmp_path, capsys, case):
    head, where = YAML_CASES[case]
    ws = make_workspace(tmp_path / "ws", deck=head + GOOD)
    err = fails(ws, capsys, "check")
    assert where in err, err
    if case == "5000 deep":
        assert "nested more than 50 levels deep" in err


def test_merge_keys_work(tmp_path, capsys):
    deck = GOOD.replace("pieces:\n  - {name: 祝福, text: 本文}\n",
                        "pieces:\n  - &base {name: 祝福, text: 本文}\n  - {<<: *base, name: 呪い}\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    assert run(ws, "list") == 0
    assert "×2" in capsys.readouterr().out


def test_a_second_merge_key_in_one_mapping_is_a_duplicate_key(tmp_path, capsys):
    """`<<: *a` then `<<: *b` in one piece: YAML took the second's values over the first's without a
    word (the piece printed ×3, not the ×2 the first merge and the designer's eye gave it)."""
    deck = GOOD.replace("pieces:\n  - {name: 祝福, text: 本文}\n",
                        "pieces:\n  - &a {name: 祝福, text: 本文, count: 2}\n  - &b {name: 呪い, text: 本文, count: 3}\n"
                        "  - <<: *a\n    <<: *b\n")
    ws = make_workspace(tmp_path / "ws", deck=deck)
    err = fails(ws, capsys, "list")
    assert "cards.yaml:12:5: pieces.3: duplicate key '<<': a second merge in one mapping" in err, err
    assert "'<<: [*first, *second]'" in err, err


# ------------------------------------------------------------------ workspace containment

def test_draft_file_outside_the_game(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("■■　秘密\n", encoding="utf-8")
    for value, col in ((str(secret), 13), ("../../../secret.txt", 13)):
        ws = make_workspace(tmp_path / f"ws{col}{len(value)}", game=GAME_YAML + f"draft_file: {value}\n")
        for command in (("check",), ("rulebook", "--game", "test")):
            err = fails(ws, capsys, *command)
            assert f"game.yaml:8:{col}: draft_file: '{value}' is outside test/" in err, err
        assert not (ws / "build").exists()


@pytest.mark.parametrize("name", ["../../../outside.svg.j2", "/etc/passwd", "test/../../../outside.svg.j2"])
def test_template_outside_templates(tmp_path, capsys, name):
    (tmp_path / "outside.svg.j2").write_text("<svg/>")
    ws = make_workspace(tmp_path / "ws", deck=GOOD.replace("card-back.svg.j2", name))
    for command in (("check",), ("build", "--game", "test")):
        err = fails(ws, capsys, *command)
        assert f"cards.yaml:4:7: back: template '{name}' is outside templates/" in err, err


def test_template_symlink_leading_out(tmp_path, capsys):
    (tmp_path / "outside.svg.j2").write_text("<svg/>")
    ws = make_workspace(tmp_path / "ws", deck=GOOD.replace("card-back.svg.j2", "linked.svg.j2"))
    (ws / "templates" / "test" / "linked.svg.j2").symlink_to(tmp_path / "outside.svg.j2")
    for command in (("check",), ("build", "--game", "test")):
        err = fails(ws, capsys, *command)
        assert "cards.yaml:4:7: back: 'test/linked.svg.j2' is outside templates/" in err, err


def test_include_leading_out(tmp_path, capsys):
    (tmp_path / "outside.svg.j2").write_text("SECRET")
    front = "{% extends 'common/piece.svg.j2' %}\n{% block art %}\n{% include 'test/out.svg.j2' %}\n{% endblock %}\n"
    ws = make_workspace(tmp_path / "ws", front=front)
    (ws / "templates" / "test" / "out.svg.j2").symlink_to(tmp_path / "outside.svg.j2")
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert "card-front.svg.j2:3: template: template 'test/out.svg.j2' leads outside templates/" in err, err
    front = front.replace("test/out.svg.j2", "../../outside.svg.j2")
    (ws / "templates" / "test" / "card-front.svg.j2").write_text(front)
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert "card-front.svg.j2:3: template: " in err and "outside.svg.j2" in err, err


def test_icon_name_leading_out(tmp_path, capsys):
    (tmp_path / "evil.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>')
    front = "{% extends 'common/piece.svg.j2' %}\n{% block art %}\n{{ icon(piece.name, 0, 0, 5) }}\n{% endblock %}\n"
    ws = make_workspace(tmp_path / "ws", front=front,
                        deck=DECK_YAML + "  - {name: ../../../../evil, text: x}\n")
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert "card-front.svg.j2:3: icon: '../../../../evil.svg' is outside icons/" in err, err
    assert "cards.yaml:9:5" in err  # the piece that named it


def test_a_font_link_loop_is_called_a_loop(tmp_path, capsys):
    """fonts/Loop.ttf a link to Loop2.ttf, a link back to it: the error said it was outside
    fonts/, sending the designer to look for a way out that is not there."""
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "fonts:\n  gothic: Loop\n")
    (ws / "fonts").unlink()
    (ws / "fonts").mkdir()
    (ws / "fonts" / "Loop.ttf").symlink_to("Loop2.ttf")
    (ws / "fonts" / "Loop2.ttf").symlink_to("Loop.ttf")
    err = fails(ws, capsys, "check")
    assert "game.yaml:9:11: fonts.gothic: 'Loop.ttf' is a link loop: a symbolic link that leads back to itself" in err, err
    assert "outside" not in err, err


def test_a_font_linked_from_elsewhere_names_the_link(tmp_path, capsys):
    """fonts/Sys.ttf a link to a font outside the workspace (ln -s from the system's fonts): the
    error said only "'Sys.ttf' is outside fonts/", of a file the designer sees in fonts/."""
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + "fonts:\n  gothic: Sys\n")
    (tmp_path / "Sys.ttf").write_bytes(b"not read")
    (ws / "fonts").unlink()
    (ws / "fonts").mkdir()
    (ws / "fonts" / "Sys.ttf").symlink_to(tmp_path / "Sys.ttf")
    err = fails(ws, capsys, "check")
    assert ("game.yaml:9:11: fonts.gothic: 'Sys.ttf' is outside fonts/: fonts/Sys.ttf is a link leading out of it "
            "(expected the file itself copied into fonts/ in place of the link: pnpgen reads nothing outside the "
            "workspace)") in err, err


@pytest.mark.parametrize("written, stem", [("../../etc/evil", "evil"), ("/usr/share/fonts/x/DejaVuSans.ttf", "DejaVuSans"),
                                            ("C:\\\\Windows\\\\Fonts\\\\meiryo.ttf", "meiryo")])
def test_font_name_leading_out(tmp_path, capsys, written, stem):
    """A path is refused before any file is looked at; it said "'/usr/…/DejaVuSans.ttf.ttf' is
    outside fonts/", quoting a name the designer never wrote."""
    ws = make_workspace(tmp_path / "ws", game=GAME_YAML + f'fonts:\n  gothic: "{written}"\n')
    err = fails(ws, capsys, "check")
    shown = written.replace("\\\\", "\\")
    assert (f"game.yaml:9:11: fonts.gothic: font {shown!r} is a path; a font is named by its file's name in fonts/, "
            f"without .ttf (expected {stem}, its file copied into fonts/)") in err, err


# ------------------------------------------------------------------ template errors

FRONT_WITH = "{{% extends 'common/piece.svg.j2' %}}\n{{% block art %}}\n<g>\n{}\n</g>\n{{% endblock %}}\n"
TEMPLATE_CASES = {
    "division by zero": ("{{ w / 0 }}", "card-front.svg.j2:4: a division by zero (float division by zero)"),
    "helper called wrongly": ("{{ textbox() }}", "card-front.svg.j2:4: textbox() missing"),
    "text replaced into itself": ("{% set s = 'x' * 100000 %}{{ s.replace('x', s) }}",
                                  "card-front.svg.j2:4: replace() would make a text of more than 10,000,000"),
    "text padded to a billion": ("{{ 'x'.center(10**9) }}", "card-front.svg.j2:4: center() would make a text"),
    "textbox size": ("{{ textbox('x', 0, 0, 10, 10, size=1e308) }}", "card-front.svg.j2:4: size: textbox size=1e+308"),
    "textbox line height": ("{{ textbox('x', 0, 0, 10, 10, line_height=-1e300) }}",
                            "card-front.svg.j2:4: line_height: textbox line_height=-1e+300"),
    "textbox of two million characters": ("{{ textbox('あ' * 2000000, 0, 0, 50, 80, min_size=0.5) }}",
                                           "card-front.svg.j2:4: textbox: a text of 2,000,000 characters"),
    "track of a billion spaces": ("{{ track(10**9, 0, 0, 50, 80) }}", "card-front.svg.j2:4: a track of 1,000,000,001"),
    "a helper's bound context": ("{{ textbox.args }}", "card-front.svg.j2:4: 'args' is not there"),
    "misspelt helper argument": ("{{ textbox('x', 0, 0, 10, 10, colour='red') }}",
                                 "card-front.svg.j2:4: textbox() got an unexpected keyword argument 'colour'"),
    "track called wrongly": ("{{ track('x', 0, 0, 1, 1) }}",
                             "card-front.svg.j2:4: track(): n, the last space's number is 'x', not a whole number"),
    # the English euro trial: "track_svg() got an unexpected keyword argument 'shape'", a name no
    # template writes, and no arguments; a macro's wrong keyword with no arguments either
    "track's misspelt argument": ("{{ track(9, 0, 0, 50, 50, layot='row') }}", "card-front.svg.j2:4: track() got an "
                                  "unexpected keyword argument 'layot'; did you mean layout? (rendering"),
    "track's unknown style": ("{{ track(9, 0, 0, 50, 50, shape='ring') }}", "card-front.svg.j2:4: track() got an "
                              "unexpected keyword argument 'shape' (rendering"),
    "a macro's colour": ('{% import "common/macros.svg.j2" as m with context %}{{ m.title("x", 5, colour="red") }}',
                         "card-front.svg.j2:4: macro 'title' takes no keyword argument 'colour'; a text's colour is ink= "
                         "(rendering"),
    "a macro's misspelt argument": ('{% import "common/macros.svg.j2" as m with context %}{{ m.title("x", 5, heigth=8) }}',
                                    "takes no keyword argument 'heigth'; did you mean height? (rendering"),
    # a helper made inside another was named "shape_tools.<locals>.outline()", its arguments untold
    "outline called wrongly": ("{{ outline(-3, 2) }}", "card-front.svg.j2:4: outline() takes from 0 to 1 positional "
                               "arguments but 2 were given (rendering deck 'cards' piece 1 (カード1, data/test/decks/"
                               "cards.yaml:9:5) front) (expected outline(offset=0.0), as docs/data-format.md gives it)"),
    # trial80's hex tiles: "corners_xy() missing 1 required positional argument", Python's name for it, no arguments
    "a namespace's helper called wrongly": ("{{ shape.hex_corners(w / 2, h / 2) }}", "card-front.svg.j2:4: "
                                            "shape.hex_corners() missing 1 required positional argument: 'size' "
                                            "(rendering deck 'cards' piece 1 (カード1, data/test/decks/cards.yaml:9:5) "
                                            "front) (expected shape.hex_corners(cx, cy, size, orientation='pointy'), as "
                                            "docs/data-format.md gives it)"),
    "unknown icon": ("{{ icon('nope', 0, 0, 5) }}", "card-front.svg.j2:4: unknown icon {nope}"),
    "unknown colour": ("{{ colour('nope') }}", "card-front.svg.j2:4: colour: unknown colour 'nope'"),
    "bad hex colour": ("{{ colour('#zzz') }}", "card-front.svg.j2:4: colour: colour '#zzz' is not a hex colour"),
    "bad textbox fill": ("{{ textbox('x', 0, 0, 10, 10, fill='#zzz') }}", "card-front.svg.j2:4: fill: textbox fill: colour '#zzz'"),
    "undefined field": ("{{ piece.nmae }}", "card-front.svg.j2:4: "),
    "invalid svg": ("<rect", "card-front.svg.j2:4: the template produced invalid SVG"),
    # Python's name for a function or an object printed: a memory address, different each build
    "a method without its brackets": ("{{ piece.name.upper }}",
                                      "card-front.svg.j2:4: prints upper, a function or method, not a value"),
    "a helper printed": ("{{ colour }}", "card-front.svg.j2:4: prints colour, a function or method"),
    "the piece printed": ("{{ piece }}", "card-front.svg.j2:4: prints a Python object (PieceView) itself"),
    "a method set as text": ("{{ textbox(piece.name.upper, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints upper"),
    "a method as a string": ("{{ textbox(piece.name.upper|string, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints upper"),
    "a method joined": ("{{ textbox(piece.name ~ piece.name.upper, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints upper"),
    "a list of methods": ("{{ [piece.name.upper] }}", "card-front.svg.j2:4: prints a Python object (list)"),
    # … and every other way a template makes a text of one (a hostile round: each built, each build other bytes)
    "a method through format()": ("{{ textbox('{}'.format(piece.items), 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints items"),
    "an attribute through format()": ("{{ textbox('{0.values}'.format(piece), 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints values"),
    "the piece through format()'s !r": ("{{ textbox('{!r}'.format(piece), 0, 0, 10, 10) }}",
                                        "card-front.svg.j2:4: prints a Python object (PieceView)"),
    "a method through %": ("{{ textbox('%s' % piece.values, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints values"),
    "the piece through % by name": ("{{ textbox('%(a)s' % {'a': piece}, 0, 0, 10, 10) }}",
                                    "card-front.svg.j2:4: prints a Python object (PieceView)"),
    "a method through the format filter": ("{{ textbox('%s'|format(piece.values), 0, 0, 10, 10) }}",
                                           "card-front.svg.j2:4: prints values"),
    "a method escaped": ("{{ textbox(piece.values|e, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints values"),
    "a method in capitals": ("{{ textbox(piece.values|upper, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints values"),
    "pieces joined": ("{{ textbox([piece]|join(','), 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints a Python object"),
    "the piece pretty-printed": ("{{ textbox(piece|pprint, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints a Python object"),
    "the piece as an attribute": ("<rect {{ {'a': piece}|xmlattr }}/>", "card-front.svg.j2:4: prints a Python object"),
    "a cycler through format()": ("{{ textbox('{0}'.format(cycler(1)), 0, 0, 10, 10) }}",
                                  "card-front.svg.j2:4: prints a Python object (Cycler)"),
    "a method marked safe": ("{{ textbox(piece.get|safe, 0, 0, 10, 10) }}", "card-front.svg.j2:4: prints get"),
}


@pytest.mark.parametrize("case", sorted(TEMPLATE_CASES))
def test_template_error(tmp_path, capsys, case):
    body, where = TEMPLATE_CASES[case]
    ws = make_workspace(tmp_path / "ws", front=FRONT_WITH.format(body))
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert where in err, err
    assert "deck 'cards' piece 1 (カード1, " in err and "cards.yaml:9:5) front" in err, err
    if "textbox()" in where:  # what it takes, in the words the docs use
        assert "(expected textbox(text, x, y, w, h, size=9, " in err and "fill='#000', shape='rect')" in err, err
    not_listed(err, "nope")
    assert not (ws / "build").exists()


def test_all_parked_deck_builds_no_files(tmp_path, capsys):
    import pypdf

    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 保留, text: 本文, count: 0}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    assert not (out / "cards.pdf").exists() and not (out / "shop" / "cards.pdf").exists()
    assert len(pypdf.PdfReader(out / "test-all.pdf").pages) == 1  # the bill of materials only


def test_a_deck_of_more_than_ten_thousand_copies_is_refused_before_it_is_drawn(tmp_path, capsys):
    """Ten pieces of 10,000 copies each built for minutes (every copy is a shop-file page)."""
    deck = DECK_YAML + "".join(f"  - {{name: 札{i}, count: 10000}}\n" for i in range(10))
    ws = make_workspace(tmp_path / "ws", deck=deck)
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert "cards.yaml:9:3: pieces: the deck prints 100,000 copies" in err and "at most 10,000" in err, err


def test_a_deck_of_too_many_pieces_is_refused_before_its_pieces_are_read(tmp_path, capsys, monkeypatch):
    """150,000 one-copy pieces on one line were each read and checked (7 CPU-s) before the deck
    was refused for their copies: counted first, the refusal reads no piece. A count written
    otherwise than as a whole number in bounds (``"2"``, ``三``) is left to its piece."""
    from pnpgen.data import deckfile

    def read(*args):
        raise AssertionError("a piece was read before the deck's copies were counted")

    monkeypatch.setattr(deckfile, "refuse_track_lengths", read)
    deck = DECK_YAML + "  [" + "{name: a}, " * 12_000 + "{name: b, count: 三}, {name: c, count: true}]\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    err = fails(ws, capsys, "check", "--game", "test")
    assert "cards.yaml:9:3: pieces: the deck prints 12,000 copies" in err and "at most 10,000" in err, err


def test_a_long_broken_yaml_file_is_not_read_again_by_the_slow_loader(tmp_path, capsys, monkeypatch):
    """PyYAML's pure-Python reader took 20 s over 3 MB to word an error libyaml had found: past
    SLOW_ERRORS characters libyaml's own words are given."""
    from pnpgen.data import yamlsrc

    def slow(self):
        raise AssertionError("the pure-Python loader read a long file")

    monkeypatch.setattr(yamlsrc._loaders()[0], "get_single_node", slow)
    deck = DECK_YAML + "  [" + "{name: a}, " * 30_000 + "\n"
    ws = make_workspace(tmp_path / "ws", deck=deck)
    err = fails(ws, capsys, "check")
    assert "cards.yaml:" in err and "YAML syntax error" in err, err


@pytest.mark.parametrize("body, expected", [
    ("{{ track(9, 0, 0, 50, 50, shape='ring') }}",
     "(expected track(n, x, y, w, h, layout='ring', start=0, rows=None, fill='#ffffff', stroke='#000000', mark5="),
    ('{% import "common/macros.svg.j2" as m with context %}{{ m.title("x", 5, colour="red") }}',
     "(expected macro title(text, y, height, size, ink, font, x, width), as docs/data-format.md gives it)"),
])
def test_a_helper_or_macro_given_an_argument_it_does_not_take_lists_the_ones_it_takes(tmp_path, capsys, body, expected):
    """The English euro trial: a track's or a macro's wrong keyword was told without the
    arguments it takes (and the track as track_svg(), pnpgen's own function)."""
    ws = make_workspace(tmp_path / "ws", front=FRONT_WITH.format(body))
    err = fails(ws, capsys, "build", "--game", "test", "--no-rulebook")
    assert expected in err and "track_svg" not in err and "fonts=" not in err, err


@pytest.mark.parametrize("field", ["items", "values", "keys", "get"])
def test_a_field_named_like_a_mappings_method_is_the_field(tmp_path, field):
    """A deck's field ``items`` (a card's items) read as ``piece.items`` was the piece's dict
    method, refused as "prints items, a function or method … (expected items() with brackets)"."""
    from pypdf import PdfReader

    deck = DECK_YAML.replace("  text: text\n", f"  text: text\n  {field}: text\n") + f"  - {{name: A, text: t, {field}: 剣と盾}}\n"
    front = FRONT_WITH.format(f"{{{{ textbox(piece.{field} ~ '/' ~ piece['{field}'], 5, 5, 50, 20, size=9) }}}}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    text = PdfReader(ws / "build/test/shop/cards.pdf").pages[0].extract_text().replace(" ", "")
    assert "剣と盾/剣と盾" in text, text
