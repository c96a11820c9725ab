"""Subset fonts named after what they hold: the PDF reference (ISO 32000-1 §9.6.4; PDF Reference
1.4 §5.5.3, which PDF/X-1a builds on) asks different subsets of one file for different tags.
ReportLab tags each font's first subset ``AAAAAA+``, its second ``AAAAAB+``: a rulebook held
BIZ UD Mincho's, BIZ UDP Gothic's and two more fonts' subsets under one tag, and a canvas of its
own per face names every face's subsets alike. pnpgen's writer tags its subsets by their glyphs
(``sfnt.subset_tag``); these give the others a tag made from their font program: the same subset,
the same tag."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable, Iterator

_TAGGED = re.compile(r"[A-Z]{6}\+")


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


def fonts_in(form) -> Iterator:
    """The font dictionaries ``form`` (a page or a Form XObject) and the forms it draws use."""
    todo, seen = [form], set()
    while todo:
        obj = todo.pop()
        res = obj.get("/Resources")
        if res is None:
            continue
        yield from (res.get("/Font") or {}).values()
        for xobj in (res.get("/XObject") or {}).values():
            if xobj.get("/Subtype") == "/Form" and xobj.objgen not in seen:
                seen.add(xobj.objgen)
                todo.append(xobj)


def retagged(pdf: bytes) -> bytes:
    """``pdf`` with every subset font of its pages (and their forms) tagged by ``retag``."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        fonts = {font.objgen: font for page in doc.pages for font in fonts_in(page.obj)}
        retag(fonts.values())
        out = io.BytesIO()
        doc.save(out, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue()
