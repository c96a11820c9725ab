"""pnpgen's own writer (pdf/writer.py): a face's form stream is the same bytes in every document
that shows it, and each embedded font is a subset that keeps the font's glyph ids (pdf/sfnt.py),
so those streams can name glyphs by id."""

from __future__ import annotations

import io
import re
import struct
from itertools import islice
from pathlib import Path

import pikepdf
from fontTools.ttLib import TTFont

from conftest import REPO, make_workspace, run
from pnpgen import fonttables
from pnpgen.pdf import sfnt

DOCS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")


def _forms(path) -> dict[str, bytes]:
    """Every face form of a document, by its resource name, its decoded stream."""
    out = {}
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for name, x in (page.Resources.get("/XObject") or {}).items():
                if name.startswith("/Face"):
                    out[name] = x.read_bytes()
    return out


def _type0_fonts(path) -> list[tuple[str, bytes, dict[int, str], list]]:
    """(base font, font program, glyph id → character from ToUnicode, /W) of each Type 0 font."""
    found = []
    with pikepdf.open(path) as pdf:
        seen = set()
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Type0" and obj.objgen not in seen:
                seen.add(obj.objgen)
                cid = obj.DescendantFonts[0]
                cmap = obj.ToUnicode.read_bytes().decode("ascii")
                pairs = "".join(re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S))
                to_char = {int(g, 16): bytes.fromhex(u).decode("utf-16-be")
                           for g, u in re.findall(r"<([0-9A-F]{4})> <([0-9A-F]+)>", pairs)}
                found.append((str(obj.BaseFont), bytes(cid.FontDescriptor.FontFile2.read_bytes()), to_char,
                              [int(v) if isinstance(v, int) else [float(w) for w in v] for v in cid.W]))
    return found


def test_a_face_is_the_same_stream_in_every_document(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["火の竜", "水の鳥", "風の馬"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    out = ws / "build" / "test"
    forms = {doc: _forms(out / doc) for doc in DOCS}
    names = set(forms["cards.pdf"])
    assert len(names) >= 4  # three fronts and a back at least
    for doc in DOCS[1:]:
        assert set(forms[doc]) == names, doc
        for name in names:
            assert forms[doc][name] == forms["cards.pdf"][name], (doc, name)
    # the text is shown as two-byte glyph ids of a Type 0 font
    assert any(re.search(rb"<(?:[0-9A-F]{4})+> Tj", stream) for stream in forms["cards.pdf"].values())


def test_each_font_is_a_subset_that_keeps_the_fonts_glyph_ids(tmp_path):
    ws = make_workspace(tmp_path / "ws", pieces=["火の竜", "水の鳥"])
    assert run(ws, "build", "--game", "test", "--no-rulebook") == 0
    fonts = _type0_fonts(ws / "build" / "test" / "shop" / "cards.pdf")
    assert fonts
    for base, program, to_char, widths in fonts:
        tag, _, name = base.lstrip("/").partition("+")
        assert re.fullmatch(r"[A-Z]{6}", tag), base
        original = TTFont(REPO / "fonts" / f"{name}.ttf")
        subset = TTFont(io.BytesIO(program))
        assert subset["maxp"].numGlyphs == original["maxp"].numGlyphs  # every id where it was
        cmap = original.getBestCmap()
        order, sub_order = original.getGlyphOrder(), subset.getGlyphOrder()
        shown = set(to_char)
        assert "竜" in to_char.values() or "火" in to_char.values()
        for gid, char in to_char.items():
            assert order.index(cmap[ord(char)]) == gid, (char, gid)  # the id the font itself gives it
            assert subset["glyf"][sub_order[gid]].numberOfContours != 0, (char, gid)  # its outline is there
            assert subset["hmtx"][sub_order[gid]] == original["hmtx"][order[gid]]
        # the first 50 drawn glyphs not shown (taken lazily: each glyph read costs ~0.2 ms, the
        # font has some 14,000)
        unused = list(islice((g for g in range(1, len(order)) if g not in shown
                              and original["glyf"][order[g]].numberOfContours > 0), 50))
        assert unused and all(subset["glyf"][sub_order[g]].numberOfContours == 0 for g in unused)
        listed = {}
        for at in range(0, len(widths), 2):  # [first [w …]] runs
            listed.update((widths[at] + i, w) for i, w in enumerate(widths[at + 1]))
        assert set(listed) == shown
        # the OpenType rule for a whole file: its checksum is 0xB1B0AFBA
        padded = program + b"\0" * (-len(program) % 4)
        assert sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF == 0xB1B0AFBA


def test_a_subset_is_a_cut_of_the_font_file_not_a_rebuild():
    data = (REPO / "fonts" / "BIZUDPGothic-Regular.ttf").read_bytes()
    small = sfnt.subset(data, [])
    bigger = sfnt.subset(data, range(1000, 1400))
    assert len(small) < len(bigger) < len(data) / 4
    assert sfnt.subset(data, [5, 6]) == sfnt.subset(data, (6, 5))  # the same glyphs, the same bytes


class _Unhashable(bytes):
    def __hash__(self) -> int:
        raise AssertionError("a font's program was hashed")


def _own_font_workspace(root: Path) -> Path:
    """A workspace whose card text is set in a font file of its own (a file no other test's
    build has read: parsed, and read, anew)."""
    ws = make_workspace(root, pieces=["火の竜", "水の鳥"], game='title: テスト\npalette: {red: "#cc3333"}\nfonts: {gothic: Own}\n')
    (ws / "fonts").unlink()
    (ws / "fonts").mkdir()
    (ws / "fonts" / "Own.ttf").write_bytes((REPO / "fonts" / "BIZUDPGothic-Regular.ttf").read_bytes())
    return ws


def test_a_subset_is_kept_by_its_fonts_file_not_by_hashing_the_fonts_bytes(tmp_path, monkeypatch):
    """Keeping each subset (and the font's tables) by the font's bytes hashed the megabytes of a
    Japanese font once per process (some 3 ms a font: a tenth of the poker deck's margin); they
    are kept by the font's file, read once (fonts.FontFile carries the bytes, compared and hashed
    by place and stamp alone). The same subsets come out."""
    from pnpgen.pdf import embed

    assert run(_own_font_workspace(tmp_path / "ws"), "build", "--game", "test", "--no-rulebook",
               "--out", str(tmp_path / "before")) == 0
    read = fonttables._read  # the one read of a font file
    monkeypatch.setattr(fonttables, "_read", lambda path: (_Unhashable(read(path)[0]), read(path)[1]))
    monkeypatch.setenv("PNPGEN_CACHE", "off")
    embed._font_file.cache_clear()
    embed._subset_stream.cache_clear()
    try:
        assert run(_own_font_workspace(tmp_path / "again"), "build", "--game", "test", "--no-rulebook",
                   "--out", str(tmp_path / "after")) == 0
    finally:
        embed._font_file.cache_clear()  # (no font of this test's bytes kept for the next)
        embed._subset_stream.cache_clear()
    assert _type0_fonts(tmp_path / "after" / "test" / "cards.pdf") == _type0_fonts(tmp_path / "before" / "test" / "cards.pdf")


def test_a_later_runs_subsets_are_read_from_the_machines_cache_not_cut_again(tmp_path, monkeypatch):
    """An edit's build embeds the subsets the last build cut (pdf/embed.py ``_subset_stream``:
    the machine's cache, by the font's content and the glyphs): counted, no subset is cut by a
    second run of a new process's caches, and its documents are the same bytes; a subset cut by
    other code (pdf/sfnt.py's text in the key) or of other glyphs is cut anew."""
    from pnpgen.pdf import embed

    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    cut: list[frozenset[int]] = []
    subset = sfnt.subset
    monkeypatch.setattr(sfnt, "subset", lambda font, gids: cut.append(frozenset(gids)) or subset(font, gids))
    ws = make_workspace(tmp_path / "ws", pieces=["火の竜", "水の鳥"])

    def build(out: str) -> int:
        """The subsets cut by a build as a new process makes it (the process's own kept ones let go of)."""
        embed._font_file.cache_clear()
        embed._subset_stream.cache_clear()
        before = len(cut)
        try:
            assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / out)) == 0
        finally:
            embed._font_file.cache_clear()
            embed._subset_stream.cache_clear()
        return len(cut) - before

    assert build("first") >= 1
    assert build("again") == 0
    for doc in DOCS:
        assert (tmp_path / "again" / "test" / doc).read_bytes() == (tmp_path / "first" / "test" / doc).read_bytes()
    entry = embed._subset_entry("font", frozenset(cut[0]))
    monkeypatch.setattr(embed, "_cutter", lambda: b"another pdf/sfnt.py")
    assert embed._subset_entry("font", frozenset(cut[0])) != entry  # (cut by other code: not taken)
    monkeypatch.undo()
    monkeypatch.setenv("PNPGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(sfnt, "subset", lambda font, gids: cut.append(frozenset(gids)) or subset(font, gids))
    (ws / "data" / "test" / "decks" / "cards.yaml").write_text(
        (ws / "data" / "test" / "decks" / "cards.yaml").read_text(encoding="utf-8").replace("火の竜", "風の狼"), encoding="utf-8")
    new = len(cut)
    assert build("edited") >= 1
    assert any(gids not in cut[:new] for gids in cut[new:])  # (the new glyphs' subset)
    outlined = set()  # (the edited document's subsets hold the new glyphs' outlines)
    for _, program, chars, _ in _type0_fonts(tmp_path / "edited" / "test" / "cards.pdf"):
        subset_font = TTFont(io.BytesIO(program))
        order = subset_font.getGlyphOrder()
        outlined |= {ch for gid, ch in chars.items() if subset_font["glyf"][order[gid]].numberOfContours != 0}
    assert {"風", "狼"} <= outlined
