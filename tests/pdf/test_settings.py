"""ReportLab's process-wide settings are set in pdf/settings.py and nowhere else, and every PDF
a build writes shows them: streams compressed with Flate alone, never ASCII85 on top."""

from __future__ import annotations

import ast
from pathlib import Path

import pnpgen
from conftest import source_nodes

PACKAGE = Path(pnpgen.__file__).parent
SETTINGS = ("rl_config", "STATE_DEFAULTS", "useA85")


def _names(path: Path) -> set[str]:
    """The settings ``path`` names: as a name, an attribute or an imported name."""
    found = set()
    for node in source_nodes(path):
        if isinstance(node, ast.Name) and node.id in SETTINGS:
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in SETTINGS:
            found.add(node.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(a.name.rsplit(".", 1)[-1] for a in node.names if a.name.rsplit(".", 1)[-1] in SETTINGS)
    return found


def test_reportlab_settings_are_touched_only_by_pdf_settings():
    touching = {str(p.relative_to(PACKAGE)): sorted(_names(p)) for p in sorted(PACKAGE.rglob("*.py")) if _names(p)}
    # fonttables.py reads (never sets) rl_config.ttfAsciiReadable, as ReportLab's TTFont constructor
    # does, when it makes a font from its cached tables
    assert touching == {"pdf/settings.py": ["STATE_DEFAULTS", "rl_config", "useA85"], "fonttables.py": ["rl_config"]}


def test_every_stream_a_build_writes_is_flate_only(built):
    pdfs = sorted(p for p in built.rglob("*.pdf") if ".cache" not in p.parts)
    assert len(pdfs) > 50  # four games: sheets, shop files, rulebooks and booklets
    assert any(p.name == "rulebook.pdf" for p in pdfs) and any(p.parent.name == "shop" for p in pdfs)
    for pdf in pdfs:
        data = pdf.read_bytes()
        assert b"/FlateDecode" in data, pdf.name
        assert b"/ASCII85Decode" not in data, pdf.name
