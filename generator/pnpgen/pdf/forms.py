"""The forms a page draws: a page (or form) and every form XObject it draws, each form once, as
the content-stream readers and rewriters of pdf/ walk them (black, colour, outline, subsettags)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def with_forms(objs: Iterable[Any], seen: set | None = None, tiling_patterns: bool = False) -> Iterator[Any]:
    """``objs`` (pikepdf pages or forms) and every form XObject they draw, each form once: ``seen``
    holds the object numbers of those already walked (a caller's own set, to share it between
    calls). Last first, as a stack pops; each is given before its /Resources are read, so a caller
    may rewrite its content as it goes. ``tiling_patterns``: the tiling patterns they paint are
    walked too (a pattern's cell is a content stream of its own)."""
    seen = set() if seen is None else seen
    todo = list(objs)
    while todo:
        obj = todo.pop()
        yield obj
        res = obj.get("/Resources")
        if res is None:
            continue
        if tiling_patterns:
            for pattern in (res.get("/Pattern") or {}).values():
                if "/Shading" not in pattern and pattern.get("/PatternType") == 1 and pattern.objgen not in seen:
                    seen.add(pattern.objgen)
                    todo.append(pattern)
        for xobj in (res.get("/XObject") or {}).values():
            if xobj.get("/Subtype") == "/Form" and xobj.objgen not in seen:
                seen.add(xobj.objgen)
                todo.append(xobj)
