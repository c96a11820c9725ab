"""A preset's name is a shop's name: printed at the head of every contact sheet and in messages,
it is at most a title's length. A stranger's presets/ of a million-character name ended the export
in the picture library's ValueError traceback ('too many characters in string')."""

from __future__ import annotations

import pytest

from conftest import make_workspace, run
from pnpgen.data.workspace import Workspace
from pnpgen.exports.presets import load_preset

FORMATS = "formats:\n  any: {trim: any, bleed: 0, safe: 3mm}\n"


@pytest.mark.parametrize("name, line", [("a" * 1_000_000, "mine.yaml:1:7: name:"),
                                        ("{en: " + "a" * 1_000_000 + "}", "mine.yaml:1:12: name.en:")],
                         ids=["name", "by-language"])
def test_a_preset_name_of_a_million_characters_is_one_line(tmp_path, capsys, name, line):
    root = make_workspace(tmp_path / "ws")
    (root / "presets").mkdir()
    (root / "presets" / "mine.yaml").write_text(f"name: {name}\n{FORMATS}", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "mine") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and line in err and "1,000,000 characters" in err and "at most 200" in err
    assert not (root / "build" / "test" / "mine").exists()


def test_a_preset_name_of_a_title_s_length_loads(tmp_path):
    root = make_workspace(tmp_path / "ws")
    (root / "presets").mkdir()
    (root / "presets" / "mine.yaml").write_text(f"name: {'店' * 200}\n{FORMATS}", encoding="utf-8")
    assert load_preset(Workspace(root), "test", "mine").name == "店" * 200


@pytest.mark.parametrize("field, line", [("unverified: " + "a" * 3_000_000, "mine.yaml:4:13: unverified: this text is"),
                                         ("pdfx: x1a\noutput_condition: {identifier: FOGRA39, info: " + "a" * 3_000_000 + "}",
                                          "mine.yaml:5:47: output_condition.info: this text is")],
                         ids=["unverified", "output-condition"])
def test_a_preset_note_of_megabytes_is_one_line(tmp_path, capsys, field, line):
    """A 3 MB ``unverified:`` was printed whole on every export (and a printing condition's text
    written into every PDF/X file): a preset's texts are a paragraph at most."""
    root = make_workspace(tmp_path / "ws")
    (root / "presets").mkdir()
    (root / "presets" / "mine.yaml").write_text(f"name: mine\n{FORMATS}{field}\n", encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "mine") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and line in err and "3,000,000 characters" in err and "at most 1000" in err, err[:300]
    assert not (root / "build" / "test" / "mine").exists()
