"""A deck's YAML read piece by piece (data/yamlpieces.py, yamlsrc.py ``_in_pieces``): an edit of
one card reads that card's text again, and the file reads exactly as read whole — values, every
position, the words as written — or, whenever the cut is not sure to read so, is read whole."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import make_workspace, run
from pnpgen import usercache
from pnpgen.data import yamlsrc
from pnpgen.data.yamlpieces import cut
from pnpgen.errors import InputError

HEAD = "name: 札\nformat: poker\nfront: card-front.svg.j2\npalette: {ink: \"#1a1a1a\"}\npieces:\n"


def card(i: int, rule: str = "") -> str:
    return f"  - {{title: 札{i}, rule: カードを{i % 3 + 1}枚引く。{rule}, count: {i % 3 + 1}, word: yes}}\n"


def deck(n: int = 30, edits: dict[int, str] | None = None, tail: str = "options: {grid: none}\n") -> str:
    edits = edits or {}
    return HEAD + "".join(edits.get(i, card(i)) for i in range(1, n + 1)) + tail


def fields(doc: yamlsrc.Located) -> tuple:
    return doc.data, doc.value_marks, doc.key_marks, doc.lists, doc.words


@pytest.fixture
def read(tmp_path, monkeypatch):
    """Reads ``text`` as the deck file with the machine cache, returning the reading and the texts
    parsed; and the same text read whole, with no cache."""
    path = tmp_path / "cards.yaml"
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    parsed: list[str] = []
    real = yamlsrc._read_measured

    def spy(where, text):
        parsed.append(text)
        return real(where, text)

    monkeypatch.setattr(yamlsrc, "_read_measured", spy)

    def reading(text: str) -> tuple[tuple, list[str]]:
        parsed.clear()
        path.write_bytes(text.encode("utf-8"))
        return fields(yamlsrc.load_yaml(path)), list(parsed)

    def whole(text: str) -> tuple:
        path.write_bytes(text.encode("utf-8"))
        monkeypatch.setenv("PNPGEN_CACHE", "off")
        try:
            return fields(yamlsrc.load_yaml(path))
        finally:
            monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))

    reading.whole = whole  # type: ignore[attr-defined]
    return reading


def test_an_edited_card_is_read_alone_and_the_deck_reads_as_read_whole(read):
    read(deck())
    # card 7's text edited, card 12 given a second line (every later line moves down one)
    edited = deck(edits={7: card(7, "(改)"), 12: "  - title: 札12\n    rule: 二行目\n"})
    got, parsed = read(edited)
    assert got == read.whole(edited)
    assert parsed[1:] == [card(7, "(改)"), "  - title: 札12\n    rule: 二行目\n"]  # the head, then the two cards
    assert parsed[0].startswith(HEAD) and "札8" not in parsed[0]
    assert got[1][("pieces", 29, "title")] == (HEAD.count("\n") + 31, 13)  # the last card's line, one more


def test_the_same_card_twice_gives_two_values(read):
    read(deck())
    text = deck(edits={3: card(1), 4: card(1)})
    got, _ = read(text)
    assert got == read.whole(text)
    assert got[0]["pieces"][2] is not got[0]["pieces"][3]


def test_many_cards_edited_reads_the_file_whole(read):
    read(deck())
    text = deck(edits={i: card(i, "(改)") for i in range(1, 20)})
    got, parsed = read(text)
    assert parsed == [text] and got == read.whole(text)


# Each case: the deck read before, then the text read; the reading must be the whole one's, and
# the file is read whole (not the head alone) since the cut is not sure to read as it.
FALLBACKS = {
    "a tab": deck(edits={5: "  - {title: a\tb}\n"}),
    "a document marker": deck(tail="---\n"),
    "a directive": "%YAML 1.1\n---\n" + deck(),
    "an anchor used by a later card": deck(edits={5: "  - &base {title: 札5}\n", 6: "  - *base\n"}),
    "a merge key from the head": "base: &b {count: 1}\n" + deck(edits={5: "  - {<<: *b, title: x}\n"}),
    "a quoted text running on over an item's line": deck(edits={5: "  - title: \"one\n  - two\"\n"}),
    "a flow list running on over an item's line": deck(edits={5: "  - [one,\n  - two]\n"}),
    "a line indented less than the items": deck(edits={5: "  - title: \"one\n two\"\n"}),
    "a lone carriage return": deck(edits={5: "  - {title: a\rb}\n"}),
    "a line separator": deck(edits={5: "  - {title: a\u2028b}\n"}),
    "pieces written twice": deck(tail="pieces:\n  - {}\n"),
    "pieces in flow style": HEAD.replace("pieces:\n", "pieces: [\n") + "  {title: a}, {title: b}]\n",
    "the list at column 0 then a stray item": deck(tail="- stray\n"),
}


@pytest.mark.parametrize("name", list(FALLBACKS))
def test_a_deck_the_cut_is_not_sure_of_is_read_whole(read, name):
    read(deck())
    text = FALLBACKS[name]
    try:
        expected = read.whole(text)
    except InputError as e:
        with pytest.raises(InputError) as got:
            read(text)
        assert (got.value.line, got.value.column, str(got.value)) == (e.line, e.column, str(e))
        return
    got, parsed = read(text)
    assert got == expected
    assert parsed[-1] == text  # read whole in the end


def test_a_bom_is_read_whole(read, tmp_path):
    read(deck())
    text = deck(edits={5: card(5, "!")})
    got, parsed = read("\ufeff" + text)
    assert parsed == [text] and got == read.whole(text)


def test_windows_line_ends_are_cut_as_any(read):
    read(deck().replace("\n", "\r\n"))
    text = deck(edits={9: card(9, "x")}).replace("\n", "\r\n")
    got, parsed = read(text)
    assert got == read.whole(text) and len(parsed) == 2


@pytest.mark.parametrize("edit, line", [
    ("  - {title: a, count: [}\n", 10), ("  - {title: a, colour: #abc}\n", 10),
    ("  - &a {title: x}\n  - &a {title: y}\n", 11), ("  - title: a\n    title: b\n", 11),
])
def test_an_error_in_an_edited_card_says_its_line_in_the_file(read, edit, line):
    read(deck())
    text = deck(edits={5: edit})
    with pytest.raises(InputError) as whole:
        read.whole(text)
    with pytest.raises(InputError) as got:
        read(text)
    assert (got.value.line, got.value.column, str(got.value)) == (whole.value.line, whole.value.column, str(whole.value))
    assert got.value.line == line


def piece_names(text: str) -> list[str]:
    c = cut(text)
    assert c is not None
    return [hashlib.sha256(item.encode("utf-8")).hexdigest() for _, item in c.items]


def test_a_malformed_or_damaged_record_of_the_pieces_is_never_used(read, tmp_path):
    """The pieces' record is in the machine's cache, named by the file's path, each piece in it by
    its text's SHA-256 (a stale one is another text's), sealed by the SHA-256 of its bytes as
    every entry there (usercache.py): a damaged one is not read, a malformed piece not used."""
    read(deck())
    memos = [p for p in (tmp_path / "cache" / yamlsrc.PIECES_KIND).iterdir() if not p.name.startswith("swept")]
    assert len(memos) == 1
    name = memos[0].name
    edited = deck(edits={2: card(2, "x")})
    usercache.put(yamlsrc.PIECES_KIND, name, {n: ("not", "a", "piece", {}, {}) for n in piece_names(edited)})
    got, parsed = read(edited)
    assert got == read.whole(edited) and parsed[-1] == edited

    forged = ({"title": "偽"}, {(): (1, 5)}, {}, [], {})  # well formed, under the pieces' own names
    edited = deck(edits={3: card(3, "y")})
    usercache.put(yamlsrc.PIECES_KIND, name, {n: forged for n in piece_names(edited)})
    memos[0].write_bytes(memos[0].read_bytes()[:-3] + b"xyz")  # damaged: its seal fails
    assert read(edited)[0] == read.whole(edited)
    edited = deck(edits={4: card(4, "z")})  # (the same record not damaged: it would be read)
    usercache.put(yamlsrc.PIECES_KIND, name, {n: forged for n in piece_names(edited)})
    assert read(edited)[0][0]["pieces"][0] == {"title": "偽"}


FRAGMENTS = [
    "{title: a, count: 1}", "{title: 'x #1', rule: b}", "title: a\n{i}  rule: b", "title: \"multi\n{i}  line\"",
    "title: \"open\n", "\"close\"", "[a,\n{i}  b]", "[a,\n", "b]", "text: |\n{i}    one\n{i}    two",
    "text: |+\n{i}    keep\n\n", "text: >-\n{i}    fold\n{i}    more", "&a {x: 1}", "*a", "{<<: *a, y: 2}",
    "title: yes", "count: +2", "count: 007", "colour: #abc", "title: Prompt #1", "- nested\n{i}  - list",
    "title: a\n# col0 comment\n{i}  rule: b", "title: a\n\n{i}  rule: b", "title: '\n{i}- x'",
    "t: x\n  bad: indent", "title: 1:30", "{a: 1, a: 2}", "title: !!str 3", "title: =", "plain\n{i}  continued",
    "plain\ncontinued0", "{x: [1, {y: 2}]}", "key: \"a\\x1b\"", "title: \"x\n- y\"", "? complex\n{i}  : v", "''",
    "~", "{}", "[]", "text: |\n{i}  # not a comment\n{i}  x",
]
TAILS = ["", "options: {a: 1}\n", "# end\n", "\n\nother: 2\n", " bad: 1\n", "- stray\n", "  # c\nz: 1\n"]


def test_any_deck_read_in_pieces_reads_as_read_whole(tmp_path):
    """Random decks of awkward items: read with every piece alone, and from the pieces of the whole
    reading, each is the whole reading, or (unsure) none; never a value where the whole says an error."""
    path = tmp_path / "cards.yaml"
    told = 0
    for seed in range(400):
        r = random.Random(seed)
        i = " " * r.choice([0, 2, 4])
        items = []
        for _ in range(r.randint(1, 6)):
            fragment = r.choice(FRAGMENTS).replace("{i}", i) if r.random() < 0.5 else f"{{title: t{r.randint(0, 99)}}}"
            items.append(f"{i}- {fragment}\n" + (r.choice(["\n", "# c\n", i + "  # c\n"]) if r.random() < 0.2 else ""))
        text = "name: d\n" + r.choice(["pieces:\n", "pieces:   \n", "pieces: # c\n", "pieces:\n# c\n"]) + "".join(items) \
            + (r.choice(TAILS) if r.random() < 0.5 else "")
        try:
            whole = fields(yamlsrc._read(path, text))
        except InputError:
            whole = None
        c = cut(text)
        if c is None:
            continue
        names = [str(n) for n in range(len(c.items))]
        alone = yamlsrc._put_together(path, c, names, {})
        assert alone is None or fields(alone[0]) == whole, text
        if whole is not None:
            doc, measured = yamlsrc._read_measured(path, text)
            pieces = yamlsrc._pieces_of(doc, c, names) if not measured[3] else None
            together = yamlsrc._put_together(path, c, names, pieces) if pieces is not None else None
            assert together is None or fields(together[0]) == whole, text
            told += together is not None
    assert told > 100  # (most decks are cut)


def test_the_shipped_games_decks_read_in_pieces_as_read_whole():
    folder = Path(__file__).resolve().parents[2] / "data"
    decks = sorted(folder.glob("*/decks/*.yaml"))
    assert decks
    for path in decks:
        text = path.read_text(encoding="utf-8")
        c = cut(text)
        if c is None:
            continue
        together = yamlsrc._put_together(path, c, [str(n) for n in range(len(c.items))], {})
        assert together is not None and fields(together[0]) == fields(yamlsrc._read(path, text)), path


def test_a_build_after_a_card_edit_prints_the_edit(tmp_path, monkeypatch, capsys):
    """Built, a card's text edited and the deck's head read alone with it: the sheets say the
    new text, and a card whose line moved keeps its own (the build's outcome, as a designer sees it)."""
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    names = [f"カード{i}" for i in range(1, 6)]
    ws = make_workspace(tmp_path / "ws", pieces=names)
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    assert run(ws, "build", "--game", "test", "-q") == 0
    parsed: list[str] = []
    real = yamlsrc._read_measured
    monkeypatch.setattr(yamlsrc, "_read_measured", lambda where, text: parsed.append(text) or real(where, text))
    text = deck.read_text(encoding="utf-8")
    edited = text.replace("  - {name: カード3, text: 本文カード3}\n",
                          "  - name: 改めた札\n    text: 本文カード3\n")  # (one line more: the later cards move down)
    assert edited != text
    deck.write_text(edited, encoding="utf-8")
    assert run(ws, "build", "--game", "test", "-q") == 0
    assert any(t.startswith("  - name: 改めた札") for t in parsed) and edited not in parsed  # read in pieces
    pdf = " ".join(page.extract_text() for page in PdfReader(ws / "build" / "test" / "cards.pdf").pages)
    assert "改めた札" in pdf and "カード3" not in pdf.replace("本文カード3", "") and "カード5" in pdf
