"""The die line as a layer in the build's shop files: an optional content group CutContour, shown
in viewers and off in print, holding exactly the die paths of shop/<deck>-die.pdf (which stays)."""

from __future__ import annotations

import pikepdf
from pikepdf import Name
from pypdf import PdfReader

PATH_OPS = {"m", "l", "c", "v", "y", "h", "re"}


def _layer_ops(page) -> list[list]:
    """Each CutContour marked-content sequence of the page: its operators and operands."""
    out, current = [], None
    for operands, op in pikepdf.parse_content_stream(page):
        name = str(op)
        if name == "BDC" and operands[0] == Name.OC and operands[1] == Name.CutContour:
            current = []
        elif name == "EMC" and current is not None:
            out.append(current)
            current = None
        elif current is not None:
            current.append((name, [round(float(v), 3) if not isinstance(v, Name) else str(v) for v in operands]))
    return out


def _paths(ops) -> list:
    return [(name, args) for name, args in ops if name in PATH_OPS]


def test_shop_files_hold_the_die_line_as_a_layer(built):
    shop = built / "populous" / "shop"
    with pikepdf.open(shop / "town-die.pdf") as die:
        die_paths = [[(str(o), [round(float(v), 3) for v in a]) for a, o in pikepdf.parse_content_stream(p)
                      if str(o) in PATH_OPS] for p in die.pages]
    assert len(die_paths) == 2 and all(die_paths)  # fronts, then the mirrored backs
    for name in ("town.pdf", "town-unique.pdf"):
        with pikepdf.open(shop / name) as doc:
            [group] = doc.Root.OCProperties.OCGs
            assert str(group.Name) == "CutContour"
            assert group.Usage.Print.PrintState == Name.OFF and group.Usage.View.ViewState == Name.ON
            assert list(doc.Root.OCProperties.D.ON) == [group]
            assert any(a.Event == Name.Print for a in doc.Root.OCProperties.D.AS)
            for n, page in enumerate(doc.pages):
                assert page.Resources.Properties.CutContour == group
                [layer] = _layer_ops(page)
                assert _paths(layer) == die_paths[n % 2], (name, n)  # front and back alternate
                strokes = [op for op, _ in layer if op in ("S", "s", "f", "B", "b")]
                assert strokes == ["S"]  # the path stroked, nothing filled
                spaces = [args[0] for op, args in layer if op == "CS"]
                assert spaces and all(page.Resources.ColorSpace[s][1] == Name.CutContour for s in spaces)


def test_pieces_without_a_die_line_have_no_layer(built):
    with pikepdf.open(built / "populous" / "shop" / "epic.pdf") as doc:  # rectangular cards: cut at the trim
        assert "/OCProperties" not in doc.Root


def test_the_die_line_overprints_so_a_rip_that_draws_it_leaves_the_art_whole(built):
    """A print-and-cut RIP reads the CutContour path whatever the layer's print state; a die line
    that knocks out would leave a hairline of bare paper along the cut in the printed art. Every
    CutContour stroke, in the layer and in the -die file, is drawn in an ExtGState that overprints."""
    shop = built / "populous" / "shop"
    for name in ("town.pdf", "town-unique.pdf", "town-die.pdf"):
        with pikepdf.open(shop / name) as doc:
            for page in doc.pages:
                states, spot, stroked = {}, False, 0
                for operands, op in pikepdf.parse_content_stream(page):
                    if str(op) == "gs":
                        states = dict(page.Resources.ExtGState[operands[0]].items())
                    elif str(op) == "CS":
                        spot = page.Resources.ColorSpace[operands[0]][1] == Name.CutContour
                    elif str(op) == "S" and spot:
                        stroked += 1
                        assert states.get("/OP") is True and int(states.get("/OPM", 0)) == 1, (name, states)
                assert stroked >= 1, name


def test_a_cut_line_file_is_titled_in_the_games_language(built):
    """A Japanese game's die-line file was titled 「箱 — cut line (…)」 in its document information (a
    trial of session 47), its shop files (print shop): titled in the game's language, as its book is."""
    titles = {}
    for name in ("town-die.pdf", "town.pdf", "town-unique.pdf", "../populous-all.pdf"):
        with pikepdf.open(built / "populous" / "shop" / name) as doc:
            titles[name] = str(doc.docinfo.Title)
    assert titles == {"town-die.pdf": "ポピュラス — タウントークン（カットライン）", "town.pdf": "ポピュラス — タウントークン（入稿用）",
                      "town-unique.pdf": "ポピュラス — タウントークン（入稿用・各面1回）",
                      "../populous-all.pdf": "ポピュラス — 全シート"}, titles


def test_a_cut_line_file_s_pages_are_labelled_in_the_games_language(built):
    """Its pages too: カットライン（表）, カットライン（裏）, not ``cut line (front)`` (polish47a)."""
    assert list(PdfReader(built / "populous" / "shop" / "town-die.pdf").page_labels) == ["カットライン（表）", "カットライン（裏）"]
