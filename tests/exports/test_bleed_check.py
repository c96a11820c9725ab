"""Art that stops at the trim (bare bleed, "No Bleed" / 塗り足しがない) is warned by the build for its
own shop/ files (the first face of each deck and side) and by `pnpgen check` (every face), as a print
shop's export warns it, and the faces read are kept in the cache: a build after an edit reads only
the new face, an unchanged one none."""

from __future__ import annotations

import json
from types import SimpleNamespace

from conftest import DECK_YAML, make_workspace, run
from pnpgen.exports import bleedcheck
from pnpgen.units import PT_PER_MM

TRIM_ONLY = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
             '<path d="M0,0 H{{ w }} V{{ h }} H0 Z" fill="#2060c0"/>\n'
             '{{ textbox(piece.name, 8, 20, 20, 8, size=9, fill="#ffffff") }}\n{% endblock %}\n')
TO_BLEED = TRIM_ONLY.replace("M0,0 H{{ w }} V{{ h }} H0 Z",
                             "M{{ -bleed }},{{ -bleed }} H{{ w + bleed }} V{{ h + bleed }} H{{ -bleed }} Z")
PIECES = "  - {name: 青, text: 本文, count: 2}\n  - {name: 赤, text: 本文}\n"
STOPS = ("the art stops at the trim on the top, right, bottom, left, and the 3 mm bleed beyond it is bare paper: a "
         "cut that drifts shows a white edge (shops turn such files away); draw the background out to the bleed's "
         "edge (in a template: from -bleed to w + bleed)")
FRONT_AT = "data/test/decks/cards.yaml:3:8: "  # where the deck names its front template (a deck's warning starts there)
BARE = FRONT_AT + "deck 'cards' (template card-front.svg.j2) piece 1 (青) front and 1 more: " + STOPS
SHOP = "shop/cards.pdf, shop/cards-unique.pdf: "
FIRST = " (the build reads each deck's first face; pnpgen check reads them all)"
BUILT = FRONT_AT + SHOP + "deck 'cards' (template card-front.svg.j2) piece 1 (青) front: " + STOPS + FIRST
BUILD = ("build", "--game", "test", "--no-rulebook", "--jobs", "1")


def _bare(root) -> list[str]:
    warnings = json.loads((root / "build" / "test" / "manifest.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in warnings if "bare paper" in w]


def _width(art) -> float:
    """A read for the workers: the face's width in mm (picklable: a module function)."""
    return round(art.width_pt / PT_PER_MM, 6)


def _counted(monkeypatch) -> list[str]:
    """The sides of every face read (bleedcheck.bare_sides), in the order read."""
    read: list[str] = []
    real = bleedcheck.bare_sides

    def counting(*args, **kwargs):
        read.append(args[-1])
        return real(*args, **kwargs)

    monkeypatch.setattr(bleedcheck, "bare_sides", counting)
    return read


def test_the_builds_shop_files_and_check_warn_art_that_stops_at_the_trim(tmp_path, capsys):
    """Two pieces (one of two copies) whose blue ground stops at the trim: one line for the deck's
    fronts in the manifest, naming the shop files, the first piece and the template; the backs
    (drawn to the bleed) are not named. `pnpgen check`, which reads every face, counts the other."""
    root = make_workspace(tmp_path, deck=DECK_YAML + PIECES, front=TRIM_ONLY)
    assert run(root, *BUILD) == 0
    assert _bare(root) == [BUILT]
    capsys.readouterr()
    assert run(root, "check", "--game", "test") == 0
    out = capsys.readouterr().out
    assert [line.strip() for line in out.splitlines() if "bare paper" in line] == ["warning: " + BARE], out


def test_art_drawn_to_the_bleed_is_not_warned(tmp_path, capsys):
    root = make_workspace(tmp_path, deck=DECK_YAML + PIECES, front=TO_BLEED)
    assert run(root, *BUILD) == 0
    assert _bare(root) == []
    assert run(root, "check", "--game", "test") == 0
    assert "bare paper" not in capsys.readouterr().out


def test_a_build_reads_only_the_faces_it_has_not_read_before(tmp_path, capsys, monkeypatch):
    """The first build reads the deck's first front (its back, a rectangle over the whole face
    first, is known filled without reading it); after the first piece's name is edited, the next
    reads its new front alone and warns again; an unchanged game reads none and says its warning
    again; check reads the face no build read (the second piece's front) and counts both fronts."""
    root = make_workspace(tmp_path, deck=DECK_YAML + PIECES, front=TRIM_ONLY)
    read = _counted(monkeypatch)
    assert run(root, *BUILD) == 0
    assert read == ["front"]
    read.clear()
    deck = root / "data" / "test" / "decks" / "cards.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("青", "紺"), encoding="utf-8")
    assert run(root, *BUILD) == 0
    assert read == ["front"]
    assert _bare(root) == [BUILT.replace("青", "紺")]
    read.clear()
    capsys.readouterr()
    assert run(root, *BUILD) == 0
    assert read == []
    assert "bare paper" in capsys.readouterr().err
    assert run(root, "check", "--game", "test") == 0
    assert read == ["front"]
    assert "warning: " + BARE.replace("青", "紺") in capsys.readouterr().out


def test_no_bleed_nothing_to_read(tmp_path, monkeypatch):
    """A build with --bleed 0 has no bleed to leave bare: nothing is read or warned."""
    root = make_workspace(tmp_path, deck=DECK_YAML + PIECES, front=TRIM_ONLY)
    read = _counted(monkeypatch)
    assert run(root, *BUILD, "--bleed", "0") == 0
    assert read == [] and _bare(root) == []


def test_a_build_reads_one_face_per_deck_and_side_whatever_the_deck_size(tmp_path, monkeypatch):
    """70 distinct cards, in one process and over two: the build renders the first front alone
    (each face read would add 6–20 ms to every cold build of a big deck: over two, the worker
    that converts it renders it, the build's own process none; the backs are filled to the edge,
    read by none) and names the first piece; check renders the 70 fronts."""
    pieces = "".join(f"  - {{name: 札{i}, text: 本文}}\n" for i in range(1, 71))
    root = make_workspace(tmp_path / "ws", deck=DECK_YAML + pieces, front=TRIM_ONLY)
    pages: list[int] = []
    real = bleedcheck.rendered
    monkeypatch.setattr(bleedcheck, "rendered", lambda pdf, at, px: pages.append(len(at)) or real(pdf, at, px))
    for jobs in ("1", "2"):
        pages.clear()
        out = tmp_path / f"jobs{jobs}"
        assert run(root, "build", "--game", "test", "--no-rulebook", "--jobs", jobs, "--out", str(out)) == 0
        warnings = json.loads((out / "test" / "manifest.json").read_text(encoding="utf-8"))["warnings"]
        assert sum(pages) == (1 if jobs == "1" else 0)
        assert [w for w in warnings if "bare paper" in w] == [
            FRONT_AT + SHOP + "deck 'cards' (template card-front.svg.j2) piece 1 (札1) front: " + STOPS + FIRST]
    pages.clear()
    assert run(root, "check", "--game", "test") == 0
    assert sum(pages) == 70


def test_a_face_whose_first_shape_fills_it_is_not_rendered_and_a_paper_white_one_is(tmp_path, monkeypatch):
    """A background rectangle from -bleed to w + bleed in an inked colour: the face is known filled
    without rendering it (nothing read, nothing warned). The same rectangle in white (paper: it
    leaves the bleed bare) under a blue ground that stops at the trim is rendered and warned."""
    filled = TO_BLEED.replace('<path d="M{{ -bleed }},{{ -bleed }} H{{ w + bleed }} V{{ h + bleed }} H{{ -bleed }} Z"',
                              '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}"')
    white = filled.replace('fill="#2060c0"/>', 'fill="#ffffff"/>\n<path d="M0,0 H{{ w }} V{{ h }} H0 Z" fill="#2060c0"/>', 1)
    real = bleedcheck.rendered
    pages: list[int] = []
    monkeypatch.setattr(bleedcheck, "rendered", lambda pdf, at, px: pages.append(len(at)) or real(pdf, at, px))
    for front, warned in ((filled, False), (white, True)):
        root = make_workspace(tmp_path / str(warned), deck=DECK_YAML + PIECES, front=front)
        pages.clear()
        assert run(root, *BUILD) == 0
        assert (sum(pages), bool(_bare(root))) == ((1, True) if warned else (0, False)), (front, pages, _bare(root))


def test_a_converting_worker_reads_only_the_faces_it_is_asked_to():
    """convert_chunk runs ``read`` on the faces ``wanted`` marks, not on every face it converts."""
    from pnpgen.faces.convert import convert_chunk

    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10"><rect width="10" height="10" fill="#{}"/></svg>'
    no_art = SimpleNamespace(resolver=lambda where: None)  # (these faces name no art file: none looked up)
    jobs = [(svg.format(c), "", "", no_art) for c in ("ff0000", "00ff00", "0000ff")]
    for draw in (False, True):
        found = convert_chunk(jobs, draw, frozenset(), _width, (False, True, False))
        assert [c.read for c in found] == [None, 10.0, None]


def test_a_face_read_in_a_converting_worker_is_read_without_numpy(monkeypatch):
    """A converting worker reads a face (``paper``) with Pillow alone: numpy, imported there for
    this only, cost each build's worker some 0.1 CPU-s (docs/speed-rounds.md, jobsK). What it sends back
    reads as the face: its bare bleed white, its ink black."""
    import sys

    from pnpgen.exports.bleedfill import READ_PX_PER_MM
    from pnpgen.svg import convert

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="30mm" viewBox="0 0 20 30">'
           '<rect x="3" y="3" width="14" height="24" fill="#2060c0"/></svg>')  # (a 3 mm bleed left bare)
    art = convert(svg, "a face")
    monkeypatch.setitem(sys.modules, "numpy", None)  # (importing it fails)
    found = bleedcheck.paper(art, 3.0, "Helvetica")
    monkeypatch.undo()
    assert found is not None and found.size == (round(20 * READ_PX_PER_MM), round(30 * READ_PX_PER_MM))
    image = found.image()
    assert image.mode == "L" and image.getextrema() == (0, 255)
    at = lambda x_mm, y_mm: image.getpixel((int(x_mm * READ_PX_PER_MM), int(y_mm * READ_PX_PER_MM)))  # noqa: E731
    assert [at(1, 1), at(1.5, 15), at(18.5, 15), at(10, 29), at(10, 15), at(4, 4), at(16, 26)] == [255] * 4 + [0] * 3


def test_the_build_judges_a_read_face_without_numpy(monkeypatch):
    """The build's own process judges the face a worker read (``bare_sides`` on its ``Paper``)
    with no numpy either: imported for that read alone, it cost the build's process some 0.05–0.1
    CPU-s while the other core drew its half of the documents (docs/speed.md, jobs2b). The sides
    named are those the art leaves bare: all four, then all but the left once the art reaches
    the bleed's left edge, none when it fills the bleed."""
    import sys

    from pnpgen.exports.bleedfill import READ_PX_PER_MM, bare_sides
    from pnpgen.svg import convert

    def sides(x: float, width: float, y: float = 3, height: float = 24) -> list[str]:
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="30mm" viewBox="0 0 20 30">'
               f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="#2060c0"/></svg>')
        found = bleedcheck.paper(convert(svg, "a face"), 3.0, "Helvetica")
        assert found is not None
        image = found.image()
        monkeypatch.setitem(sys.modules, "numpy", None)  # (importing it fails)
        try:
            return bare_sides(image, READ_PX_PER_MM, (3.0, 3.0), (14.0, 24.0), 3.0, "rect", {}, "front")
        finally:
            monkeypatch.undo()

    assert sides(3, 14) == ["top", "right", "bottom", "left"]
    assert sides(0, 17) == ["top", "right", "bottom"]
    assert sides(0, 20, 0, 30) == []
