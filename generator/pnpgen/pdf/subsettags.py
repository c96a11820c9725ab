"""Subset fonts named after what they hold: the PDF reference (ISO 32000-1 §9.6.4; PDF Reference
1.4 §5.5.3, which PDF/X-1a builds on) asks different subsets of one file for different tags.
ReportLab tags each font's first subset ``AAAAAA+``, its second ``AAAAAB+``: a rulebook held
BIZ UD Mincho's, BIZ UDP Gothic's and two more fonts' subsets under one tag, and a canvas of its
own per face names every face's subsets alike. pnpgen's writer tags its subsets by their glyphs
(``sfnt.subset_tag``); ``retag`` gives the others a tag made from their font program (the same
subset, the same tag), and ``tags_apart`` the rulebook's a tag of its own each where they are written."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable, Iterator

from pnpgen.pdf.forms import with_forms
from pnpgen.pdf.resave import pdf_bytes

_TAGGED = re.compile(r"[A-Z]{6}\+")
# a subset font's name where a font dictionary or descriptor gives it, in a file ReportLab or the
# booklet's copier wrote (their dictionaries are plain text, never in a compressed stream)
_NAMED = re.compile(rb"/(?:BaseFont|FontName)\s*/([A-Z]{6})\+([^\s/<>\[\]()%{}]+)")


def retag(fonts: Iterable) -> None:
    """Each subset font of ``fonts`` (pikepdf font dictionaries; a Type0 font's descendant too)
    renamed ``<tag>+<name>``, its tag six capital letters from its font program's digest."""
    import pikepdf

    for font in fonts:
        for f in [font, *font.get("/DescendantFonts", ())]:
            desc = f.get("/FontDescriptor")
            name = str(f.get("/BaseFont", ""))[1:]  # AAAAAA+Name, without the slash
            program = next((desc[k] for k in ("/FontFile2", "/FontFile", "/FontFile3") if desc is not None and k in desc),
                           None)
            if program is None or not _TAGGED.match(name):
                continue
            digest = hashlib.sha256(program.read_bytes()).digest()
            tag = "".join(chr(ord("A") + b % 26) for b in digest[:6])
            f.BaseFont = pikepdf.Name(f"/{tag}+{name[7:]}")
            desc.FontName = f.BaseFont
            if f is not font and str(font.get("/BaseFont", "")).startswith("/" + name[:7]):
                font.BaseFont = pikepdf.Name(f"/{tag}+{str(font.BaseFont)[8:]}")


def tags_apart(pdf: bytes) -> bytes:
    """``pdf`` (as ReportLab or ``pdf/booklet.py`` writes it) with a tag of its own for each subset
    name: ReportLab tags each font's first subset ``AAAAAA+``, so a rulebook held BIZ UD明朝's and
    BIZ UDPゴシック's first subsets under one tag. The first name met keeps its tag, a later name of
    a tag already given takes the first tag no name in the file has; a tag is six letters as
    before, so every offset in the file stands and nothing else is written again (a pikepdf
    save, ``retagged``, would add 0.2 s to each rulebook)."""
    names = list(dict.fromkeys(m.group(1) + b"+" + m.group(2) for m in _NAMED.finditer(pdf)))
    taken = {name[:6] for name in names}
    given: set[bytes] = set()
    renamed: dict[bytes, bytes] = {}  # name → its new tag
    spare = (bytes(65 + (k // 26 ** i) % 26 for i in range(5, -1, -1)) for k in range(26 ** 6))
    for name in names:
        if name[:6] in given:
            renamed[name] = next(t for t in spare if t not in taken)
        given.add(renamed.get(name, name[:6]))
    if not renamed:
        return pdf

    def tagged(m: re.Match[bytes]) -> bytes:
        tag = renamed.get(m.group(1) + b"+" + m.group(2), m.group(1))
        return m.group(0)[:m.start(1) - m.start(0)] + tag + m.group(0)[m.end(1) - m.start(0):]

    return _NAMED.sub(tagged, pdf)


def fonts_in(form) -> Iterator:
    """The font dictionaries ``form`` (a page or a Form XObject) and the forms it draws use."""
    for obj in with_forms([form]):
        res = obj.get("/Resources")
        if res is not None:
            yield from (res.get("/Font") or {}).values()


def retagged(pdf: bytes) -> bytes:
    """``pdf`` with every subset font of its pages (and their forms) tagged by ``retag``."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        fonts = {font.objgen: font for page in doc.pages for font in fonts_in(page.obj)}
        retag(fonts.values())
        return pdf_bytes(doc)
