"""docs/data-format.md names every built-in layout's box that has a shape (a deck's box of the same
name keeps it unless it says ``shape: rect``): a shaped box added to a layout's YAML and not named
there fails here."""

from __future__ import annotations

import re

import yaml

from conftest import REPO

LAYOUTS = REPO / "generator" / "pnpgen" / "faces" / "builtin" / "layouts"


def test_the_docs_name_each_built_in_box_with_a_shape():
    shaped = set()
    for path in LAYOUTS.glob("*.yaml"):
        layout = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, box in (layout.get("boxes") or {}).items():
            if isinstance(box, dict) and box.get("shape") not in (None, "rect"):
                shaped.add((path.stem, name, box["shape"]))
    assert shaped, "no built-in box has a shape: the docs' paragraph is out of date"
    docs = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    said = docs[docs.index("**A built-in box with a shape keeps it.**"):]
    said = said[:said.index("\n\n")]
    for layout, box, shape in sorted(shaped):
        assert f"`shape: {shape}`" in said, (layout, box, shape)
        assert re.search(rf"`{re.escape(layout)}`'s\s[^.]*`{box}`", said), f"{layout}'s {box} box ({shape}) is not in the docs"
