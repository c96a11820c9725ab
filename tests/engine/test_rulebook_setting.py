"""A card's text edited on a piece the rulebook never shows: the draft is read and proofed again,
its pages are not set again (engine/typeset.py), and the files equal a cold build's. A piece the
book shows, a term a card adds, a figure that names the piece: the pages are set again."""

from __future__ import annotations

import shutil

import pytest

from conftest import run
from pnpgen.rulebook import book

FILES = ("rulebook.pdf", "rulebook-booklet.pdf", "proof.txt")
ARGS = ("build", "--game", "test", "--jobs", "1")  # one process: the setting is counted here


@pytest.fixture
def settings(monkeypatch) -> list[int]:
    """How many times a book's pages are set (``render`` called by ``build_rulebook``)."""
    calls: list[int] = []
    real = book.render

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(book, "render", counted)
    return calls


def _edit(root, old: str, new: str) -> None:
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    text = deck.read_text(encoding="utf-8")
    assert old in text
    deck.write_text(text.replace(old, new, 1), encoding="utf-8")


def _as_cold(root, tmp_path) -> None:
    """The rulebook's files in ``root`` are those of the same workspace built in a fresh folder."""
    fresh = tmp_path / "cold"
    shutil.copytree(root / "data", fresh / "data")
    shutil.copytree(root / "templates", fresh / "templates")
    (fresh / "fonts").symlink_to((root / "fonts").resolve())
    assert run(fresh, *ARGS) == 0
    for name in FILES:
        assert (root / "build" / "test" / name).read_bytes() == (fresh / "build" / "test" / name).read_bytes(), name


def test_a_piece_the_book_never_shows_is_edited_and_the_pages_are_not_set_again(drafted, tmp_path, settings):
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 1
    before = {n: (drafted / "build" / "test" / n).read_bytes() for n in FILES}
    _edit(drafted, "text: 本文カード5}", "text: 本文カード5を書き直した}")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 1  # read and proofed, not set
    out = drafted / "build" / "test"
    assert (out / "rulebook.pdf").read_bytes() == before["rulebook.pdf"]
    _as_cold(drafted, tmp_path)


def test_the_first_piece_the_book_pictures_is_edited_and_the_pages_are_set_again(drafted, tmp_path, settings):
    assert run(drafted, *ARGS) == 0
    before = (drafted / "build" / "test" / "rulebook.pdf").read_bytes()
    _edit(drafted, "name: カード1,", "name: 最初のカード,")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 2
    out = drafted / "build" / "test"
    assert (out / "rulebook.pdf").read_bytes() != before
    _as_cold(drafted, tmp_path)


def test_a_term_a_card_adds_is_a_proofing_note_of_the_book_so_the_pages_are_set_again(drafted, tmp_path, settings):
    assert run(drafted, *ARGS) == 0
    _edit(drafted, "text: 本文カード5}", "text: 【魔法陣】を使う}")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 2
    out = drafted / "build" / "test"
    assert "魔法陣" in (out / "proof.txt").read_text(encoding="utf-8")
    _as_cold(drafted, tmp_path)


def test_a_piece_a_figure_names_is_edited_and_the_pages_are_set_again(drafted, tmp_path, settings):
    game = drafted / "data" / "test" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + (
        "rulebook:\n  figures:\n    - after: ゲームの進行\n      caption: 場の例\n      size: [80, 50]\n"
        "      pieces:\n        - {deck: cards, piece: 5, x: 40, y: 25}\n"), encoding="utf-8")
    assert run(drafted, *ARGS) == 0
    before = (drafted / "build" / "test" / "rulebook.pdf").read_bytes()
    _edit(drafted, "name: カード5,", "name: 図のカード,")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 2
    out = drafted / "build" / "test"
    assert (out / "rulebook.pdf").read_bytes() != before
    _as_cold(drafted, tmp_path)


def test_a_kept_pdf_changed_on_disk_is_set_again(drafted, settings):
    assert run(drafted, *ARGS) == 0
    pdf = drafted / "build" / "test" / "rulebook.pdf"
    good = pdf.read_bytes()
    pdf.write_bytes(good.replace(b"%%EOF", b"%%EOF\n% edited"))
    _edit(drafted, "text: 本文カード5}", "text: 本文カード5を書き直した}")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 2  # the file on disk is not the one the last build wrote: set again
    assert pdf.read_bytes() == good


def test_a_piece_with_an_open_value_renamed_sets_no_page(drafted, tmp_path, settings):
    """A piece the book does not show, holding a 未定 value (a placeholder the proofing report
    lists by piece), renamed: the cover's choice (the first piece settled or not) is the same, so
    no page is set again, and the files are a cold build's."""
    _edit(drafted, "text: 本文カード5}", "text: 未定（効果は次の草案で）}")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 1
    _edit(drafted, "name: カード5,", "name: 五番目のカード,")
    assert run(drafted, *ARGS) == 0
    assert len(settings) == 1
    out = drafted / "build" / "test"
    assert "未定（効果は次の草案で）" in (out / "proof.txt").read_text(encoding="utf-8")
    _as_cold(drafted, tmp_path)


def test_the_rulebook_process_starts_with_the_build_when_the_books_data_changed(drafted, tmp_path, monkeypatch):
    """With a core to spare, the rulebook's process is started as soon as the game is loaded when
    what the book is made from besides its pictures changed (a deck's total, a card's text: it will
    be read again), so it imports and parses its fonts while the faces are drawn; not when only
    the sheets changed (another paper: the book is kept)."""
    from pnpgen.engine import typeset

    marker, reads = tmp_path / "prepared", tmp_path / "reads"
    real, real_read = typeset.prepare_rulebook, typeset.read_rulebook
    preparing = []

    def prepare(setting, ws, game, model, warm=False):  # in the rulebook's process (forked from this one: the module as patched here)
        marker.write_text("yes")
        preparing.append(1)
        try:
            return real(setting, ws, game, model, warm)
        finally:
            preparing.clear()

    def read(game, fonts):
        with reads.open("a") as f:
            f.write("ahead\n" if preparing else "typeset\n")
        return real_read(game, fonts)

    monkeypatch.setattr(typeset, "prepare_rulebook", prepare)
    monkeypatch.setattr(typeset, "read_rulebook", read)
    two = ("build", "--game", "test", "--jobs", "2")
    assert run(drafted, *two) == 0
    marker.unlink(missing_ok=True)
    reads.unlink()
    _edit(drafted, "text: 本文カード5}", "text: 本文カード5を書き直した}")
    assert run(drafted, *two) == 0
    assert marker.exists()  # started ahead
    assert reads.read_text().split() == ["ahead"]  # the draft read while the faces were drawn, once
    marker.unlink()
    book = (drafted / "build" / "test" / "rulebook.pdf").read_bytes()
    assert run(drafted, *two, "--paper", "a3") == 0  # (A3 sheets, the booklet still A4)
    assert not marker.exists()  # the book's data unchanged: no process started for it
    assert (drafted / "build" / "test" / "rulebook.pdf").read_bytes() == book
