"""A font file in fonts/ may be cut short or crafted. Its glyph tables are what every PDF's font
subset is cut from (pdf/sfnt.py for the sheets, ReportLab for the rulebook): a font whose tables
disagree — more glyphs than 'loca' places, outlines outside 'glyf', too few metrics — is one line
naming the font where game.yaml names it, never a traceback (a KeyError, a struct.error) nor a
PDF whose glyphs are cut from outside the font. Each build runs in a process forked of its own: a
font a process was told of stays located there, and later tests must not meet it."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from conftest import DECK_YAML, FEW_CARDS, GAME_YAML, REPO, forked_cli, make_workspace, run


def _table(font: bytearray, tag: bytes) -> tuple[int, int, int]:
    """(its directory entry's offset, the table's offset, its length)."""
    (count,) = struct.unpack(">H", font[4:6])
    for i in range(count):
        entry = 12 + 16 * i
        if font[entry:entry + 4] == tag:
            return entry, *struct.unpack(">II", font[entry + 8:entry + 16])
    raise AssertionError(tag)


def _more_glyphs_than_loca_places(font: bytearray) -> None:
    _, maxp, _ = _table(font, b"maxp")
    font[maxp + 4:maxp + 6] = struct.pack(">H", 65535)


def _outline_past_glyf(font: bytearray) -> None:
    _, head, _ = _table(font, b"head")
    _, loca, _ = _table(font, b"loca")
    size = 4 if struct.unpack(">h", font[head + 50:head + 52])[0] else 2
    font[loca + 5 * size:loca + 6 * size] = b"\xff" * size


def _fewer_metrics_than_glyphs(font: bytearray) -> None:
    entry, _, _ = _table(font, b"hmtx")
    font[entry + 12:entry + 16] = struct.pack(">I", 8)


def _no_glyf(font: bytearray) -> None:
    entry, _, _ = _table(font, b"glyf")
    font[entry:entry + 4] = b"xxxx"


def _cmap_past_its_glyphs(font: bytearray) -> None:
    """Ten glyphs, by 'maxp' (five metrics by 'hhea', so 'loca' and 'hmtx' hold up), its 'cmap' as
    it was: characters mapped to glyphs past the tenth (ReportLab's subset: an IndexError traceback)."""
    _, maxp, _ = _table(font, b"maxp")
    _, hhea, _ = _table(font, b"hhea")
    font[maxp + 4:maxp + 6] = struct.pack(">H", 10)
    font[hhea + 34:hhea + 36] = struct.pack(">H", 5)


def _renamed(magic: bytes):
    """A font of another format renamed .ttf: its first four bytes (the rest a TrueType font's, so
    only what the file says it is tells it apart: a WOFF or a collection read as TrueType was "no
    'glyf' table" or "its '\\x00\\x00\\x00\\x14' table runs past the file's end")."""
    def rename(font: bytearray) -> None:
        font[:4] = magic
    return rename


CRAFTED = {
    "more glyphs than loca places": (_more_glyphs_than_loca_places, "it says it has 65,535 glyphs"),
    "an outline past glyf": (_outline_past_glyf, "outside its 'glyf' table"),
    "fewer metrics than glyphs": (_fewer_metrics_than_glyphs, "'hmtx' table holds fewer metrics"),
    "no glyf table": (_no_glyf, "it has no 'glyf' table"),
    "a cmap past its glyphs": (_cmap_past_its_glyphs, "its 'cmap' table maps a character to glyph 3,316, past its 10 glyphs"),
    "a collection renamed": (_renamed(b"ttcf"), "it is a font collection (a .ttc holding several fonts) renamed .ttf"),
    "a web font renamed": (_renamed(b"wOF2"), "it is a web font (WOFF2) renamed .ttf"),
    "an otf renamed": (_renamed(b"OTTO"), "an OpenType font with PostScript (CFF) outlines (an .otf) renamed .ttf"),
    "no font at all": (_renamed(b"%PDF"), "it is no TrueType font"),
}


def _composite_running_past_its_outline(font: bytearray, gid: int = 6) -> None:
    """Glyph ``gid`` ('#' in Noto Sans) made a composite whose every component says another follows."""
    _, head, _ = _table(font, b"head")
    _, loca, _ = _table(font, b"loca")
    _, glyf, _ = _table(font, b"glyf")
    wide = struct.unpack(">h", font[head + 50:head + 52])[0]
    size, scale = (4, 1) if wide else (2, 2)
    start, end = (scale * struct.unpack(">I" if wide else ">H", font[loca + size * i:loca + size * (i + 1)])[0]
                  for i in (gid, gid + 1))
    assert end - start >= 16
    font[glyf + start:glyf + start + 2] = struct.pack(">h", -1)
    for at in range(glyf + start + 10, glyf + end - 5, 6):
        font[at:at + 6] = struct.pack(">HHbb", 0x0020, 3, 0, 0)  # MORE_COMPONENTS, glyph 3, offsets 0


def _cli(ws: Path, *args: str) -> tuple[int, str]:
    """(exit status, stderr) of pnpgen run in ``ws`` in a process forked from this one: what it
    locates of the crafted font goes with it."""
    return forked_cli(ws, *args, timeout=300)


def _workspace(root: Path, crafted: str, deck: str | None = None) -> tuple[Path, str]:
    """A workspace whose fonts/ holds a copy of a shipped font, crafted, which game.yaml names
    for its gothic role (each test its own font name: a process keeps the fonts it located); the
    big BIZ UD fonts are left out, found among those pnpgen comes with."""
    ws = make_workspace(root, deck=deck, draft=True)
    name = "Crafted" + "".join(w.title() for w in crafted.split())
    (ws / "fonts").unlink()
    shutil.copytree(REPO / "fonts", ws / "fonts", ignore=lambda d, names: [n for n in names if n.startswith("BIZ")])
    font = bytearray((REPO / "fonts" / "NotoSans-Regular.ttf").read_bytes())
    CRAFTED[crafted][0](font)
    (ws / "fonts" / f"{name}.ttf").write_bytes(bytes(font))
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + f"fonts: {{gothic: {name}}}\n", encoding="utf-8")
    return ws, name


@pytest.mark.parametrize("command", ["build", "rulebook"])
@pytest.mark.parametrize("crafted", sorted(CRAFTED))
def test_a_font_whose_tables_disagree_is_one_line_naming_it(tmp_path, crafted, command):
    ws, name = _workspace(tmp_path / "ws", crafted)
    code, err = _cli(ws, command, "--game", "test")
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"font file {name}.ttf cannot be read: " in err and CRAFTED[crafted][1] in err and "game.yaml:" in err, err
    assert not (ws / "build" / "test").exists()


def test_a_composite_glyph_running_past_its_outline_is_one_line_where_it_is_shown(tmp_path):
    """A glyph whose components run past its outline is found only when a text shows it and its
    subset is cut: one line naming the font there too."""
    ws, _ = _workspace(tmp_path / "ws", "no glyf table", deck=DECK_YAML + "  - {name: '#1', text: A text}\n")
    name = "CraftedComposite"
    font = bytearray((REPO / "fonts" / "NotoSans-Regular.ttf").read_bytes())
    _composite_running_past_its_outline(font)
    (ws / "fonts" / f"{name}.ttf").write_bytes(bytes(font))
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + f"fonts: {{gothic: {name}}}\n", encoding="utf-8")
    code, err = _cli(ws, "build", "--game", "test", "--no-rulebook")
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"font file {name}.ttf cannot be used: a composite glyph's components run past its outline" in err, err
    assert "game.yaml:" in err and not (ws / "build" / "test").exists()


def test_a_font_file_of_gigabytes_is_refused_by_its_size_unread(tmp_path):
    """A font file padded to more than any font needs (a sparse file here: no disk is used) was
    read whole, more than once: 3 GB took 6 GB of memory and built. Refused by its size."""
    from pnpgen.fonts import MAX_FONT_BYTES

    ws, _ = _workspace(tmp_path / "ws", "no glyf table")
    name = "CraftedHuge"
    (ws / "fonts" / f"{name}.ttf").write_bytes((REPO / "fonts" / "NotoSans-Regular.ttf").read_bytes())
    with open(ws / "fonts" / f"{name}.ttf", "r+b") as f:
        f.truncate(MAX_FONT_BYTES + 1)
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + f"fonts: {{gothic: {name}}}\n", encoding="utf-8")
    code, err = _cli(ws, "build", "--game", "test", "--no-rulebook")
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"font file {name}.ttf is {MAX_FONT_BYTES + 1:,} bytes" in err and "game.yaml:" in err, err


def test_a_font_the_game_no_longer_names_is_not_read_again(tmp_path, capsys):
    """``watch``'s way, one process: a crafted font named in game.yaml stops the build; once
    game.yaml names a good font again, the next build no longer reads the crafted one — not even
    where a face drawn by svglib (a <mask>) has every font the game names registered with it."""
    masked = "{% block art %}<mask id=\"m\"/><rect width=\"5\" height=\"5\"/>"  # (the art block's own text after it)
    ws, name = _workspace(tmp_path / "ws", "an outline past glyf")
    front = ws / "templates" / "test" / "card-front.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("{% block art %}", masked, 1), encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 2
    assert f"{name}.ttf" in capsys.readouterr().err
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML, encoding="utf-8")  # the gothic role's default again
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0, capsys.readouterr().err



@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="needs a FIFO")
@pytest.mark.parametrize("kind", ["pipe", "folder"])
def test_a_font_name_that_is_a_pipe_or_a_folder_is_said_so_not_not_found(tmp_path, kind, capsys):
    """fonts/<name>.ttf a FIFO or a folder was "font not found in fonts/", which sent the designer
    looking for a file that is there. Said what it is, where game.yaml names it, nothing read."""
    import os

    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    (ws / "fonts").unlink()
    (ws / "fonts").mkdir()
    target = ws / "fonts" / "Odd.ttf"
    os.mkfifo(target) if kind == "pipe" else target.mkdir()
    (ws / "data" / "test" / "game.yaml").write_text(GAME_YAML + "fonts: {gothic: Odd}\n", encoding="utf-8")
    assert run(ws, "check", "--game", "test") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "game.yaml:" in err and "font file Odd.ttf is not a regular file" in err and "not found" not in err, err
