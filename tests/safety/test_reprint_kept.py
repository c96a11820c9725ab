"""``pnpgen reprint --since vN`` writes reprint-since-vN.pdf and .txt beside the build; run again
(after another edit), it wrote them over even when the designer had annotated the PDF or saved it
again from a viewer. pnpgen replaces only what it wrote: a file changed since stops the run
(exit 2) naming it and what to do, and stays as it is."""

from __future__ import annotations

from pathlib import Path

from conftest import FEW_CARDS, make_workspace, run

BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1", "-q")


def _edit(ws: Path, old: str, new: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_a_reprint_file_the_designer_changed_is_kept_and_said(tmp_path, capsys):
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, *BUILD) == 0  # v1, the version printed
    _edit(ws, "本文カード1", "直した1")
    assert run(ws, *BUILD) == 0
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0
    pdf = ws / "build" / "test" / "reprint-since-v1.pdf"
    first = pdf.read_bytes()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0  # its own file, unchanged: written again
    assert pdf.read_bytes() == first

    annotated = first + b"\n% the designer's notes, saved from a viewer\n"
    pdf.write_bytes(annotated)
    _edit(ws, "本文カード2", "直した2")
    assert run(ws, *BUILD) == 0
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: build/test/reprint-since-v1.pdf: changed since pnpgen reprint wrote it"), err
    assert "renamed or moved out of build/test/" in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert pdf.read_bytes() == annotated  # kept, and its .txt not written either
    assert "カード2" not in (ws / "build" / "test" / "reprint-since-v1.txt").read_text(encoding="utf-8")

    pdf.rename(ws / "notes-on-v1.pdf")  # as told: moved out of the way
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 0
    assert "カード2" in (ws / "build" / "test" / "reprint-since-v1.txt").read_text(encoding="utf-8")
    assert (ws / "notes-on-v1.pdf").read_bytes() == annotated


def test_a_link_where_reprint_writes_is_kept_and_nothing_written(tmp_path, capsys):
    """A link of the designer's at reprint-since-v1.txt (pnpgen never wrote one there): the
    reprint took it away without a word and wrote its own file in its place."""
    ws = make_workspace(tmp_path / "ws", pieces=FEW_CARDS)
    assert run(ws, *BUILD) == 0
    _edit(ws, "本文カード1", "直した1")
    assert run(ws, *BUILD) == 0
    theirs = tmp_path / "notes.txt"
    theirs.write_text("mine", encoding="utf-8")
    link = ws / "build" / "test" / "reprint-since-v1.txt"
    link.symlink_to(theirs)
    capsys.readouterr()
    assert run(ws, "reprint", "--game", "test", "--since", "v1") == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: build/test/reprint-since-v1.txt: a link, which pnpgen never writes: kept "
                          "as it is, nothing written"), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert link.is_symlink() and theirs.read_text(encoding="utf-8") == "mine"
    assert not (ws / "build" / "test" / "reprint-since-v1.pdf").exists()
