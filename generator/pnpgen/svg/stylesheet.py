"""An SVG picture's ``<style>`` sheet of plain rules written onto its elements, as Illustrator's
default SVG export ("Styling: Internal CSS": ``.st0{fill:#8B1E1E;}`` and ``class="st0"``) saves
them: each rule's declarations go into the ``style`` of the elements it selects, before their own
(which win, as in CSS), in the order of CSS specificity and then of the sheet. A sheet holding
anything else (an ``@`` rule, a combinator, a pseudo-class, ``!important``) is left as it is: the
picture stays outside the converter's subset and is told so."""

from __future__ import annotations

import re

from lxml import etree

from pnpgen.patterns import later
from pnpgen.svg.style import SVG_NS

_RULE = later(r"([^{}]+)\{([^{}]*)\}")
_SIMPLE = later(r"(?:[A-Za-z][\w-]*)?(?:[.#][A-Za-z_][\w-]*)*")  # rect, .st0, rect.st0, #logo


def inline_style_sheets(root) -> None:
    """Write the picture's plain ``<style>`` rules onto its elements and drop the sheets (see the
    module docstring); leave the tree as it is when a sheet holds anything else."""
    sheets = list(root.iter(f"{{{SVG_NS}}}style"))
    rules: list[tuple[tuple[int, int, int], int, str, frozenset[str], frozenset[str], str]] = []
    for sheet in sheets:
        if (sheet.get("type") or "text/css").strip().lower() != "text/css":
            return
        text = re.sub(r"/\*.*?\*/", "", "".join(sheet.itertext()), flags=re.S)
        if "!important" in text:
            return
        end = 0
        for m in _RULE.finditer(text):
            if text[end:m.start()].strip():
                return  # an @ rule, or what is not a rule
            end = m.end()
            for selector in (s.strip() for s in m.group(1).split(",")):
                if not selector or not _SIMPLE.fullmatch(selector):
                    return
                tag = re.match(r"[A-Za-z][\w-]*", selector)
                classes = frozenset(re.findall(r"\.([\w-]+)", selector))
                ids = frozenset(re.findall(r"#([\w-]+)", selector))
                rules.append(((len(ids), len(classes), 1 if tag else 0), len(rules), tag.group(0) if tag else "",
                              classes, ids, m.group(2).strip().strip(";")))
        if text[end:].strip():
            return
    if not sheets:
        return
    rules.sort()
    for el in root.iter(etree.Element):
        name = etree.QName(el).localname
        own = set((el.get("class") or "").split())
        said = [decls for _, _, tag, classes, ids, decls in rules
                if decls and (not tag or tag == name) and classes <= own and (not ids or ids == {el.get("id")})]
        if said:
            mine = el.get("style")
            el.set("style", ";".join(said + ([mine] if mine else [])))
    for sheet in sheets:
        parent = sheet.getparent()
        if parent is not None:
            parent.remove(sheet)
