"""A thin line printed in three or four inks blurs where a press's plates do not register: a CMYK
export warns it (the preset's min_mixed_line and mixed_inks), naming the page, face and template."""

from __future__ import annotations

import json

from conftest import DECK_YAML, make_workspace, run
from pnpgen.exports.presets import SHIPPED

# a white card with two rules 0.08 mm wide: one brown (#8b4513 → 0/50.36/86.33/45.49, three inks),
# one pure red (#ff0000 → 0/100/100/0, two inks), and a brown rule 0.2 mm wide
LINES = ('{% extends "common/piece.svg.j2" %}\n{% block art %}\n'
         '<rect x="{{ -bleed }}" y="{{ -bleed }}" width="{{ w + 2 * bleed }}" height="{{ h + 2 * bleed }}" fill="#ffffff"/>\n'
         '<line x1="10" y1="20" x2="50" y2="20" stroke="#8b4513" stroke-width="0.08"/>\n'
         '<line x1="10" y1="30" x2="50" y2="30" stroke="#ff0000" stroke-width="0.08"/>\n'
         '<line x1="10" y1="40" x2="50" y2="40" stroke="#8b4513" stroke-width="0.2"/>\n'
         '{% endblock %}\n')


def _mixed(root, preset: str, *extra: str) -> list[str]:
    assert run(root, "export", "--game", "test", "--preset", preset, *extra) == 0
    found = json.loads((root / "build" / "test" / preset / "export.json").read_text(encoding="utf-8"))["warnings"]
    return [w for w in found if "register" in w]


def _workspace(tmp_path):
    return make_workspace(tmp_path, deck=DECK_YAML + "  - {name: 線, text: 本文, count: 2}\n  - {name: 罫, text: 本文}\n",
                          front=LINES)


def test_a_thin_line_in_three_inks_is_warned_once_per_template_and_colour(tmp_path):
    """DriveThruCards (CMYK, every copy a page, back first): the brown 0.08 mm rule, scaled ×1.01
    onto its card (0.229 pt), is warned once for the front template, its first page and the other
    two; the red rule (two inks) and the 0.2 mm brown rule are not."""
    root = _workspace(tmp_path)
    [line] = _mixed(root, "drivethrucards", "--fit", "scale")
    assert line == ("cards.pdf page 2 (cards-001 front, template card-front.svg.j2) and 2 more pages: a line 0.229 pt "
                    "(0.08 mm) wide printed in three inks, CMYK 0/50.36/86.33/45.49: the plates of a press never "
                    "register exactly, so a line this thin in several inks prints blurred or fringed with colour; "
                    "draw it at least 0.1 mm (0.28 pt) wide, or in one ink (a dark line in K only) (min_mixed_line "
                    "of DriveThruCards: 0.1 mm, 3 inks or more)"), line


def test_the_shops_own_figures_and_off(tmp_path):
    """A workspace's copy of doujin asking for lines of two inks at least 0.25 mm names the red
    rule and both brown ones; min_mixed_line: off names none; an RGB export has no inks to count."""
    root = _workspace(tmp_path)
    shipped = root.parent / "shipped.yaml"
    shipped.write_text((SHIPPED / "doujin.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (root / "presets").mkdir()
    (root / "presets" / "strict.yaml").write_text(shipped.read_text(encoding="utf-8")
                                                 + "min_mixed_line: 0.25mm\nmixed_inks: 2\n", encoding="utf-8")
    found = _mixed(root, "strict")
    assert len(found) == 2, found  # brown (both widths: one colour, its thinnest named) and red
    assert [w.split(": a line ")[1].split(" wide")[0] for w in found] == ["0.227 pt (0.08 mm)"] * 2, found
    assert all("min_mixed_line of 同人印刷所（トンボ付きPDF）: 0.25 mm, 2 inks or more" in w for w in found)
    (root / "presets" / "strict.yaml").write_text(shipped.read_text(encoding="utf-8") + "min_mixed_line: off\n",
                                                 encoding="utf-8")
    assert _mixed(root, "strict") == []
    assert _mixed(root, "doujin", "--colour", "rgb", "--pdfx", "none") == []


def test_a_bad_number_of_inks_is_an_error_naming_the_line(tmp_path, capsys):
    root = _workspace(tmp_path)
    (root / "presets").mkdir()
    (root / "presets" / "odd.yaml").write_text("name: Odd\ncolour: cmyk\nfiles: pdf-faces\nmixed_inks: 5\n"
                                              "formats:\n  poker: {trim: [63mm, 88mm], bleed: 3mm, safe: 3mm}\n",
                                              encoding="utf-8")
    assert run(root, "export", "--game", "test", "--preset", "odd") == 2
    err = capsys.readouterr().err
    assert "odd.yaml:4" in err and "mixed_inks" in err and "2 to 4" in err, err
