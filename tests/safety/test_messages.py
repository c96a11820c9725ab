"""Each mistake is one line naming the file that is wrong, without exception class names; what
pnpgen writes holds no absolute path, so a workspace builds the same bytes in any folder."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from conftest import BACK, DECK_YAML, DRAFT, FEW_CARDS, FRONT, PICTURE_DECK_YAML, PICTURE_FRONT, make_workspace, run

CLASS_NAME = re.compile(r"\b[A-Z][a-zA-Z]+(Error|Exception)\b")


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and not CLASS_NAME.search(err), err
    return err


@pytest.mark.parametrize("codec, said", [
    ("shift_jis", "4: template 'test/card-back.svg.j2' is not UTF-8 text (byte 179 is 0x97): it reads as Shift_JIS (CP932)"),
    ("utf-16", "1: template 'test/card-back.svg.j2' is not UTF-8 text (byte 1 is 0xff): it is UTF-16"),
    ("utf-16-le", "4: template 'test/card-back.svg.j2' is not UTF-8 text (byte 360 is 0x97): it is UTF-16"),
    ("ascii utf-16-le", "1: template 'test/card-back.svg.j2' is not UTF-8 text: it is UTF-16"),  # (no mark: ASCII, NULs)
    ("euc_jp", "4: template 'test/card-back.svg.j2' is not UTF-8 text (byte 181 is 0xcc): it reads as EUC-JP"),
])
def test_a_template_in_another_encoding_names_the_template_its_line_and_the_encoding(tmp_path, capsys, codec, said):
    """A template saved as Shift_JIS or UTF-16 said "not UTF-8 text (byte 1 is 0xff)", no line, no
    guess, where a YAML file names the encoding: the same guess (data/textfile.not_utf8) for both."""
    ascii_only = codec.startswith("ascii ")
    codec = codec.removeprefix("ascii ")
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, back=BACK if ascii_only else BACK.replace('"B"', '"裏面のカード"'))
    back = ws / "templates/test/card-back.svg.j2"
    back.write_bytes(back.read_text(encoding="utf-8").encode(codec))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = _one_line(capsys)
    assert err.startswith("pnpgen: error: templates/test/card-back.svg.j2:" + said), err
    assert "(expected the file saved as UTF-8 (メモ帳: 名前を付けて保存 → 文字コード UTF-8" in err, err


@pytest.mark.parametrize("name", ["draft.txt", "decks/more.csv"])
def test_a_draft_or_sheet_in_euc_jp_is_told_so_not_read_as_half_width_kana(tmp_path, capsys, name):
    """EUC-JP (an older Unix editor's Japanese) read as the CP932 pnpgen takes: あか printed ､｢､ｫ,
    silently. Told as the template and YAML files are, naming the encoding."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS, draft=True)
    text = DRAFT if name == "draft.txt" else "name,text\nあかいカード,本文\n"
    (ws / "data/test" / name).write_bytes(text.encode("euc_jp"))
    if name.endswith(".csv"):
        (ws / "data/test/decks/more.yaml").write_text(DECK_YAML.replace("pieces:\n", "pieces: {file: more.csv}\n"),
                                                      encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--jobs", "1") == 2
    err = _one_line(capsys)
    assert f"data/test/{name}:{1 if name == 'draft.txt' else 2}: not readable text: it reads as EUC-JP" in err, err


def test_a_deck_id_too_long_for_a_file_name_names_the_deck(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    decks = ws / "data/test/decks"
    (decks / "cards.yaml").rename(decks / ("d" * 250 + ".yaml"))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = _one_line(capsys)
    assert "data/test/decks/ddd" in err and "too long" in err and "--out" not in err


def test_the_same_workspace_in_two_folders_builds_the_same_bytes(tmp_path):
    """A warning and the proofing report name files from the workspace, not from the disk's root."""
    deck = DECK_YAML.replace("fields:\n", "fields:\n  art: image\n") + "  - {name: A, text: a, art: low.png}\n"
    front = FRONT.replace("{% endblock %}", "{{ image(piece.art, 0, 0, 20, 20) }}\n{% endblock %}")
    one = make_workspace(tmp_path / "one", deck=deck, front=front)
    (one / "data/test/draft.txt").write_text(DRAFT, encoding="utf-8")
    (one / "data/test/art").mkdir()
    Image.new("RGB", (10, 10), "red").save(one / "data/test/art/low.png")
    two = tmp_path / "somewhere" / "else"
    shutil.copytree(one, two, symlinks=True)
    trees = []
    for ws in (one, two):
        assert run(ws, "build", "--game", "test", "--jobs", "1") == 0
        folder = ws / "build/test"
        trees.append({p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()})
    assert trees[0] == trees[1]
    assert b"data/test/decks/cards.yaml:10:5" in trees[0]["manifest.json"]  # the low-dpi warning, relative
    for data in trees[0].values():
        assert str(tmp_path).encode() not in data


def test_export_json_names_files_from_the_workspace(tmp_path):
    deck = DECK_YAML.replace("fields:\n", "fields:\n  art: image\n") + "  - {name: A, text: a, art: low.png}\n"
    front = FRONT.replace("{% endblock %}", "{{ image(piece.art, 0, 0, 20, 20) }}\n{% endblock %}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    (ws / "data/test/art").mkdir()
    Image.new("RGB", (10, 10), "red").save(ws / "data/test/art/low.png")
    assert run(ws, "export", "--game", "test", "--preset", "doujin") == 0
    record = (ws / "build/test/doujin/export.json").read_text(encoding="utf-8")
    assert "data/test/decks/cards.yaml" in record and str(Path(tmp_path)) not in record


def test_a_picture_named_with_a_line_feed_is_refused_in_one_line(tmp_path, capsys):
    """Linux lets a file's name hold a line feed: named as art, its low-resolution warning was two lines."""
    deck = DECK_YAML.replace("fields:\n", "fields:\n  art: image\n") + '  - {name: A, text: a, art: "low\\nres.png"}\n'
    front = FRONT.replace("{% endblock %}", "{{ image(piece.art, 0, 0, 20, 20) }}\n{% endblock %}")
    ws = make_workspace(tmp_path / "ws", deck=deck, front=front)
    (ws / "data/test/art").mkdir()
    Image.new("RGB", (10, 10), "red").save(ws / "data/test/art/low\nres.png", "PNG")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = _one_line(capsys)
    assert "data/test/decks/cards.yaml:10:" in err and r"'low\nres.png' holds the control character U+000A" in err


def test_a_paragraph_pasted_into_a_title_is_named_by_its_first_characters(tmp_path, capsys):
    """A piece named by 5,000 characters (a paragraph pasted into its title): each message about it
    quoted all of them, 15 KB a warning; it names the piece by its first 59 and an ellipsis."""
    ws = make_workspace(tmp_path / "ws", deck=DECK_YAML + "  - {name: " + "長" * 5000 + ", text: 本文}\n")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert f"piece 1 ({'長' * 59}…" in err and max(map(len, err.splitlines())) < 1000, err[:2000]


def test_an_svg_picture_quoting_a_value_of_20_kb_is_told_in_a_line_of_its_start_and_end(tmp_path, capsys):
    """hostile37: an SVG picture with a transform of 10,000 numbers was one error line of 20 KB (the
    value quoted whole), and a font-family of 20,000 letters a warning as long: the line keeps the
    value's start and end and says how much it leaves out, the hint after it whole."""
    ws = make_workspace(tmp_path / "ws", deck=PICTURE_DECK_YAML + "  - {name: 絵, art: wide.svg}\n", front=PICTURE_FRONT)
    art = ws / "data" / "test" / "art"
    art.mkdir()
    numbers = " ".join(["1"] * 10_000)
    (art / "wide.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" '
                                  f'height="5" transform="matrix({numbers})"/></svg>', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 2
    err = _one_line(capsys)
    assert len(err) < 1_700 and "has transform='matrix(1 1 1" in err and "characters left out) … 1 1 1" in err, err
    assert err.rstrip().endswith("1 1)' (expected matrix(), translate(), scale(), rotate(), skewX(), skewY())"), err
    (art / "wide.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="5" '
                                  f'font-family="{"x" * 20_000}">a</text></svg>', encoding="utf-8")
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1") == 0
    err = capsys.readouterr().err
    assert "font-family 'xxx" in err and "characters left out) …xxx" in err, err[:3000]
    assert max(map(len, err.splitlines())) < 3_100, err[:3000]
