"""Issue 12: every command-line option is parsed with bounds (data/optionvalues.py through
``optionvalues.option``): a bad one is argparse's own usage line and one error, exit 2, no traceback,
and nothing written."""

from __future__ import annotations

import os

import pytest

from conftest import make_workspace, run


def bad_option(ws, capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as e:
        run(ws, *args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error: argument" in err, err
    assert err.count("error:") == 1 and err.endswith(")\n"), err  # one error, with what would be right
    return err


BUILD = ("build", "--game", "test", "--no-rulebook")
WATCH = ("watch", "--game", "test", "--max-builds", "1")
EXPORT = ("export", "--game", "test", "--preset", "tabletopsimulator")
SHEET = ("export-sheet", "--game", "test", "--deck", "cards")

CASES = [
    (BUILD + ("--min-dpi", "0"), "argument --min-dpi: min dpi '0' is out of range (expected 1 to 2400)"),
    (BUILD + ("--min-dpi", "-300"), "argument --min-dpi: min dpi '-300' is out of range"),
    (BUILD + ("--min-dpi", "1e999"), "argument --min-dpi: min dpi '1e999' is infinite (or too large for any number) (expected a number from 1 to 2400)"),
    (BUILD + ("--min-dpi", "nan"), "argument --min-dpi: min dpi 'nan' is not a number (expected a number from 1 to 2400)"),
    (BUILD + ("--min-dpi", "lots"), "argument --min-dpi: min dpi 'lots' is not a number (expected a number from 1 to 2400)"),
    (WATCH + ("--min-dpi", "9999"), "argument --min-dpi: min dpi '9999' is out of range"),
    (WATCH + ("--bleed", "-1"), "argument --bleed: bleed '-1' is out of range"),
    (("watch", "--game", "test", "--max-builds", "-3"), "argument --max-builds: '-3' is not a number of builds"),
    (EXPORT + ("--deck", "../cards"), "argument --deck: '../cards' is not a deck id"),
    (EXPORT + ("--deck", ""), "argument --deck: '' is not a deck id"),
    (EXPORT + ("--base-url", "javascript:alert(1)"), "argument --base-url: 'javascript:alert(1)' is not an address"),
    (EXPORT + ("--base-url", 'https://x/"<b>#'), "has a query, a fragment or a character a URL must not hold"),
    (EXPORT + ("--base-url", "https://x/p?dl=1"), "has a query, a fragment or a character a URL must not hold"),
    (EXPORT + ("--base-url", "ftp://example.com/x"), "argument --base-url: 'ftp://example.com/x' is not an address"),
    (EXPORT + ("--base-url", "https:///nohost"), "argument --base-url: 'https:///nohost' is not an address"),
    (EXPORT + ("--base-url", "https://ex ample.com/"), "is not an address Tabletop Simulator can load from"),
    (EXPORT + ("--base-url", "example.com/pnp"), "(expected an http://, https:// or file:/// URL"),
    (("export-sheet", "--game", "test", "--deck", "../../game"), "argument --deck: '../../game' is not a deck id"),
    (SHEET + ("--out", "data/test/game.yaml"), "argument --out: data/test/game.yaml is not a .csv or .xlsx file"),
    (SHEET + ("--out", "templates/test/card-front.svg.j2"), "is not a .csv or .xlsx file"),
    (SHEET + ("--out", "notes.txt/cards.csv"), "argument --out: notes.txt/cards.csv is below the file notes.txt"),
    (SHEET + ("--out", "folder.csv"), "argument --out: folder.csv is a folder"),
    (SHEET + ("--out", "x\0.csv"), "argument --out: 'x\\x00.csv' is not a usable file name"),
]


@pytest.mark.parametrize("args, said", CASES, ids=[" ".join(a[3:]) or a[0] for a, _ in CASES])
def test_bad_option(tmp_path, capsys, args, said):
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    (ws / "notes.txt").write_text("x")
    (ws / "folder.csv").mkdir()
    before = sorted(p for p in ws.rglob("*"))
    err = bad_option(ws, capsys, *args)
    assert said in err, err
    assert sorted(p for p in ws.rglob("*")) == before
    assert (ws / "data" / "test" / "game.yaml").read_text(encoding="utf-8").startswith("title:")


def test_good_options_pass(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    out = tmp_path / "out"
    assert run(ws, *BUILD, "--min-dpi", "150", "--out", str(out)) == 0
    assert run(ws, *EXPORT, "--deck", "cards", "--base-url", "https://example.com/pnp/", "--out", str(out)) == 0
    saved = (out / "test" / "tabletopsimulator").rglob("*.json")
    assert any("https://example.com/pnp/" in p.read_text(encoding="utf-8") for p in saved)
    assert run(ws, *SHEET, "--out", str(tmp_path / "sheets" / "cards.csv")) == 0
    assert "祝福" in (tmp_path / "sheets" / "cards.csv").read_text(encoding="utf-8-sig")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc, a folder no one can write in")
@pytest.mark.parametrize("args", [SHEET + ("--out", "/proc/cards.csv"), BUILD + ("--out", "/proc/pnpgen"),
                                  EXPORT + ("--out", "/proc/pnpgen")])
def test_unwritable_out(tmp_path, capsys, args):
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"])
    assert run(ws, *args) == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: /proc") and err.count("\n") == 1 and "Traceback" not in err, err
    assert "--out: cannot write to /proc" in err and "(expected a folder you may write to)" in err, err
