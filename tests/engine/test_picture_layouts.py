"""Issue 22: a picture placed from its own art file (its PNG's IDAT chunks, a JPEG's data) has
where its pieces lie kept by its content's hash (the pieces pack), so an edit opens none of the
deck's art files to read their chunks' headers again; a record that does not hold up is never
trusted (the file's headers are read, the same bytes written)."""

from __future__ import annotations

import builtins
import os
from pathlib import Path

from conftest import PICTURE_FRONT, picture_workspace, run
from pnpgen.engine.cache import Cache
from pnpgen.pdf import raster

DOCS = ("cards.pdf", "shop/cards.pdf", "shop/cards-unique.pdf", "test-all.pdf")
PIECES = "".join(f"  - {{name: 札{i}, art: p{i}.png}}\n" for i in range(4))


def _workspace(root: Path) -> Path:
    return picture_workspace(root, PIECES, PICTURE_FRONT, {f"p{i}.png": (40 * i, 90, 200) for i in range(4)},
                             size=(60, 40), chunks=3)


def _edit(ws: Path, text: str) -> None:
    deck = ws / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("札1,", f"札1{text},"), encoding="utf-8")


def _build(ws: Path, out: Path) -> None:
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0


def _built(tmp_path: Path) -> tuple[Path, Path, Cache, str, dict]:
    """The workspace built, its cache, the edition's name and its pieces pack's records."""
    ws = _workspace(tmp_path / "ws")
    out = tmp_path / "build"
    _build(ws, out)
    cache = Cache(out)
    kind = next(p.name.removesuffix(".pack.json") for p in (out / ".cache" / "pieces").iterdir())
    return ws, out, cache, kind, dict(cache.pack(f"pieces/{kind}"))


def _opened(monkeypatch, ws: Path) -> list[str]:
    """The art files the picture streams' code opens."""
    art, seen = str(ws / "data" / "test" / "art"), []

    def counted(path, *args, **kw):
        if str(path).startswith(art + os.sep):
            seen.append(Path(path).name)
        return builtins.open(path, *args, **kw)

    monkeypatch.setattr(raster, "open", counted, raising=False)
    return seen


def test_an_edit_opens_no_art_file_to_find_its_pictures_pieces(tmp_path, monkeypatch):
    ws = _workspace(tmp_path / "ws")
    out = tmp_path / "build"
    opened = _opened(monkeypatch, ws)
    _build(ws, out)
    assert len(set(opened)) == 4  # the first build reads each picture's headers (the count below is of something)
    opened.clear()
    _edit(ws, "改")
    _build(ws, out)
    assert opened == []
    cold = tmp_path / "cold"
    monkeypatch.undo()
    _build(ws, cold)
    for doc in DOCS:
        assert (out / "test" / doc).read_bytes() == (cold / "test" / doc).read_bytes(), doc


def test_a_layout_record_that_does_not_hold_up_is_not_trusted(tmp_path, monkeypatch):
    """(The pack is sealed by this machine's secret, as every record of the cache: these are
    records it holds that describe no piece of the file as it is.)"""
    ws, out, cache, kind, records = _built(tmp_path)
    layouts = sorted(k for k in records if k.startswith(raster.LAYOUT))
    assert len(layouts) == 4
    head, spans = records[layouts[0]]
    records[layouts[0]] = [{**head, "name": "0" * 32}, spans]  # another picture's
    records[layouts[1]] = [{**head, "filters": ["RunLengthDecode"]}, spans]  # a filter pnpgen never writes
    records[layouts[2]] = [head, [[0, 10 ** 9]]]  # past the file's end
    records[layouts[3]] = [head, "spans"]  # malformed
    path, data = cache.pack_entry(f"pieces/{kind}", records)
    path.write_bytes(data)
    opened = _opened(monkeypatch, ws)
    _edit(ws, "改")
    _build(ws, out)
    assert len(set(opened)) == 4  # each file's headers read again
    monkeypatch.undo()
    cold = tmp_path / "cold"
    _build(ws, cold)
    for doc in DOCS:
        assert (out / "test" / doc).read_bytes() == (cold / "test" / doc).read_bytes(), doc


def test_a_pieces_offsets_and_hashes_are_checked_one_by_one(tmp_path, monkeypatch):
    """A layout whose offset is a bool, negative or a float, and piece hashes that are not each
    a SHA-256's 64 hex digits, are not trusted: the headers read again, the hashes made again
    from the file and kept right, the same bytes written."""
    ws, out, cache, kind, records = _built(tmp_path)
    layouts = sorted(k for k in records if k.startswith(raster.LAYOUT))
    shas = sorted(k for k in records if not k.startswith(raster.LAYOUT))
    assert len(layouts) == len(shas) == 4 and all(len(records[k]) == len(records[raster.LAYOUT + k][1]) > 1
                                                  for k in shas)  # (several pieces each: chunks=3)
    right = {k: records[k] for k in shas}
    for k, at in zip(layouts, (True, -1, 0.0)):
        head, spans = records[k]
        records[k] = [head, [[at, spans[0][1]], *spans[1:]]]
    records[shas[0]] = [7] * len(right[shas[0]])  # not text
    records[shas[1]] = [h[:63] for h in right[shas[1]]]  # one digit short
    records[shas[2]] = right[shas[2]][:-1]  # a piece's hash missing
    path, data = cache.pack_entry(f"pieces/{kind}", records)
    path.write_bytes(data)
    opened = _opened(monkeypatch, ws)
    _edit(ws, "改")
    _build(ws, out)
    assert len(set(opened)) == 3  # the three files whose layout did not hold up
    monkeypatch.undo()
    assert {k: v for k, v in Cache(out).pack(f"pieces/{kind}").items() if k in right} == right
    cold = tmp_path / "cold"
    _build(ws, cold)
    for doc in DOCS:
        assert (out / "test" / doc).read_bytes() == (cold / "test" / doc).read_bytes(), doc
