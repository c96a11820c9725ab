"""`pnpgen check --svg` writes the SVG each distinct face's template made (after Jinja, before
conversion) into build/<game>/svg/<deck>/, named by piece and side, recorded so that `pnpgen clean`
removes them and a later run replaces only its own files."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

from lxml import etree

from conftest import DECK_YAML, FEW_CARDS, ODD_EVEN_FRONT, PICTURE_FRONT, make_workspace, picture_workspace, run

SVG = "{http://www.w3.org/2000/svg}"
# a back every card shares: one face, written once
PLAIN_BACK = """\
{% extends "common/piece.svg.j2" %}
{% block art %}<rect x="0" y="0" width="{{ w }}" height="{{ h }}" fill="#333366"/>{% endblock %}
"""


def _text(path: Path) -> str:
    root = etree.fromstring(path.read_bytes())
    assert root.tag == f"{SVG}svg"
    return "".join(root.itertext())


def _checked(ws: Path, capsys, names: list[str]) -> Path:
    """``check --svg`` run: it says it wrote ``names``, and they are the deck's folder's files."""
    assert run(ws, "check", "--game", "test", "--svg") == 0
    assert f"svg: {len(names)} faces in build/test/svg" in capsys.readouterr().out
    folder = ws / "build" / "test" / "svg" / "cards"
    assert sorted(p.name for p in folder.iterdir()) == names
    return folder


def test_each_distinct_face_is_written_as_svg_holding_its_pieces_text(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=[*FEW_CARDS[:2], "<b>騎士&</b>"], back=PLAIN_BACK)
    folder = _checked(ws, capsys, ["001-カード1.back.svg", "001-カード1.front.svg", "002-カード2.front.svg",
                                   "003-b-騎士&-b.front.svg"])
    assert "カード2" in _text(folder / "002-カード2.front.svg") and "本文カード2" in _text(folder / "002-カード2.front.svg")
    third = etree.fromstring((folder / "003-b-騎士&-b.front.svg").read_bytes())
    assert "<b>騎士&</b>" in "".join(third.itertext())  # the data's text stays text: no element of it
    assert not third.findall(".//b") and not third.findall(f".//{SVG}b")
    first = (folder / "001-カード1.front.svg").read_bytes()
    assert run(ws, "check", "--game", "test", "--svg") == 0  # again: the same bytes
    assert (folder / "001-カード1.front.svg").read_bytes() == first


def test_each_copy_a_template_draws_its_own_way_is_a_file_of_its_own(tmp_path, capsys):
    """A front reading ``piece.copy`` (asian-delivery's requests) draws copies apart: each copy whose
    face is new is written, ``-copy2`` after the name (the first copy's file alone, as before, wrote
    one of the faces the deck prints); a copy alike an earlier one adds no file; clean removes them."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: 依頼, text: 本文, count: 3}\n"
                        "  - {name: 単独, text: 本文}\n", front=ODD_EVEN_FRONT, back=PLAIN_BACK)
    folder = _checked(ws, capsys, ["001-依頼-copy2.front.svg", "001-依頼.back.svg", "001-依頼.front.svg",
                                   "002-単独.front.svg"])
    assert "本文奇" in _text(folder / "001-依頼.front.svg") and "本文偶" in _text(folder / "001-依頼-copy2.front.svg")
    assert run(ws, "check", "--game", "test", "--svg", "--deck", "cards", "--piece", "1") == 0  # its piece's run
    assert len(os.listdir(folder)) == 4
    assert run(ws, "clean") == 0 and not folder.exists()


def test_a_pictures_href_leads_from_the_svgs_folder_to_the_art_file(tmp_path):
    ws = picture_workspace(tmp_path / "ws", "  - {name: 竜, art: red dragon.png}\n", PICTURE_FRONT,
                           {"red dragon.png": (200, 0, 0)})
    assert run(ws, "check", "--game", "test", "--svg") == 0
    folder = ws / "build" / "test" / "svg" / "cards"
    image = etree.fromstring((folder / "001-竜.front.svg").read_bytes()).find(f".//{SVG}image")
    href = image.get("href")
    assert not href.startswith("/") and "#" not in href
    assert (folder / unquote(href)).resolve() == (ws / "data" / "test" / "art" / "red dragon.png").resolve()


def test_clean_removes_them_and_keeps_a_strangers_file(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    folder = ws / "build" / "test" / "svg" / "cards"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    (folder / "002-カード2.front.svg").write_text("my own drawing")  # at a name check --svg writes
    (ws / "elsewhere.svg").write_text("not pnpgen's")
    (folder / "003-カード3.front.svg").symlink_to(ws / "elsewhere.svg")
    (ws / "build" / ".pnpgen-output").write_text("")  # (the folder was pnpgen's: claim takes it)
    assert run(ws, "check", "--game", "test", "--svg") == 0
    err = capsys.readouterr().err
    assert "002-カード2.front.svg: not written by pnpgen" in err and "003-カード3.front.svg: not written" in err
    assert (folder / "002-カード2.front.svg").read_text() == "my own drawing"
    assert (ws / "elsewhere.svg").read_text() == "not pnpgen's" and (folder / "003-カード3.front.svg").is_symlink()
    assert (folder / "001-カード1.front.svg").is_file()
    assert run(ws, "clean") == 0
    assert sorted(p.name for p in folder.iterdir()) == ["002-カード2.front.svg", "003-カード3.front.svg", "notes.txt"]
    assert not (ws / "build" / ".cache" / "svgs").exists()


def test_a_deck_or_piece_replaces_only_its_own_files(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    folder = ws / "build" / "test" / "svg" / "cards"
    assert run(ws, "check", "--game", "test", "--svg") == 0
    assert len(os.listdir(folder)) == 6
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: カード2,", "name: 騎士,"), encoding="utf-8")
    capsys.readouterr()
    assert run(ws, "check", "--game", "test", "--svg", "--deck", "cards", "--piece", "2") == 0
    assert "svg: 2 faces in build/test/svg, 2 earlier ones removed" in capsys.readouterr().out
    assert sorted(os.listdir(folder)) == ["001-カード1.back.svg", "001-カード1.front.svg", "002-騎士.back.svg",
                                          "002-騎士.front.svg", "003-カード3.back.svg", "003-カード3.front.svg"]
    assert run(ws, "clean") == 0 and not folder.exists()


def test_svg_options_are_told_when_they_choose_nothing(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, "check", "--game", "test", "--deck", "cards") == 2
    assert "--svg is not given" in capsys.readouterr().err
    assert run(ws, "check", "--game", "test", "--svg", "--piece", "1") == 2
    assert "no --deck is given" in capsys.readouterr().err
    assert run(ws, "check", "--game", "test", "--svg", "--deck", "cards", "--piece", "4") == 2
    said = capsys.readouterr()
    assert "holds 3 pieces, no piece 4" in said.err
    assert "ok" not in said.out, said.out  # told before the game's "test: ok (…)" line, not after it
    assert run(ws, "check", "--game", "test", "--svg", "--deck", "card") == 2
    said = capsys.readouterr()
    assert "unknown deck 'card'" in said.err and "ok" not in said.out, said.out
    assert not (ws / "build").exists()


def test_a_pieces_run_leaves_the_files_of_a_piece_whose_number_it_begins(tmp_path):
    """--piece 100 replaces piece 100's files, not piece 1000's (``cards/100`` begins ``cards/1000-…``)."""
    from pnpgen.engine.clean import svg_files
    from pnpgen.engine.transaction import commit

    out, folder = tmp_path / "build", tmp_path / "build" / "test" / "svg"
    first = {"cards/100-騎士.front.svg": b"<svg>100</svg>", "cards/100.back.svg": b"<svg>b</svg>",
             "cards/1000-竜.front.svg": b"<svg>1000</svg>", "cards/1001.front.svg": b"<svg>1001</svg>"}
    plan = svg_files(out, folder, "test", "", first)
    commit(out, plan.files, plan.stale)
    plan = svg_files(out, folder, "test", "", {"cards/100-姫.front.svg": b"<svg>new</svg>"}, "cards/100")
    commit(out, plan.files, plan.stale)
    assert sorted(p.name for p in plan.stale) == ["100-騎士.front.svg", "100.back.svg"]
    assert sorted(p.name for p in (folder / "cards").iterdir()) == [
        "100-姫.front.svg", "1000-竜.front.svg", "1001.front.svg"]


def test_an_out_in_an_output_folders_records_is_refused(tmp_path, capsys):
    """--out build/.cache (where the build keeps its records, not made yet) made build/.cache an
    output folder of its own: every later build refused build/ as 'holding files pnpgen did not write'."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS[:1])
    for out in ("build/.cache", "build/.history/x"):
        capsys.readouterr()
        assert run(ws, "check", "--game", "test", "--svg", "--out", str(ws / out)) == 2
        err = capsys.readouterr().err
        assert "where an output folder keeps its records" in err and err.count("\n") == 1, err
    assert not (ws / "build").exists()
    assert run(ws, "build", "--game", "test", "--no-rulebook", "-q") == 0
