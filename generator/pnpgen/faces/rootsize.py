"""The root ``<svg>`` of a face must be the face: trim + 2 × bleed, the trim at (bleed, bleed).

Every face is placed with its root's box on the piece's bleed (pdf/writer.py ``placing``), and the
print lint and the bare-bleed check measure the trim ``bleed`` in from its edges. The house root,
``common/piece.svg.j2``, is that. A template that writes its own root — what a designer who knows
SVG writes first, ``<svg width="{{ w }}mm" height="{{ h }}mm" viewBox="0 0 {{ w }} {{ h }}">``, or
what another tool exports — at the trim size printed a bleed off the trim, a white band inside
it, and neither check said a word (both measured 3 mm off). So a root is read as SVG sizes it
(width and height in any unit; none, or a percentage, is the face's box, as CSS sizes an SVG
without a size of its own; the viewBox scaled into it as ``preserveAspectRatio`` says) and one
that does not make the face is refused at its template line: the trim size, any other size, a
viewBox that is the trim spread over the bleed, or one of other proportions scaled evenly (which
would land the drawing off the face's corners). ``preserveAspectRatio="none"`` stretches as asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnpgen.svg import root_length, viewbox
from pnpgen.svg.style import LENGTH, SOURCE, props_of
from pnpgen.units import PT_PER_MM

CLOSE_MM = 0.1  # a root this near the face's size is it (a size written in px or in rounded inches)
ASPECT = 0.005  # viewBox and root proportions this near are the same (a rounded viewBox)

# What to write instead: the house root, or a root of one's own as it writes it.
EXPECTED = ('{% extends "common/piece.svg.j2" %} with the drawing inside {% block art %} (user units in mm, '
            "(0, 0) the trim's top-left corner: docs/data-format.md, Templates), or a root of the face's size, "
            'drawn to the bleed: <svg xmlns="http://www.w3.org/2000/svg" width="{{ w + 2 * bleed }}mm" '
            'height="{{ h + 2 * bleed }}mm" viewBox="{{ -bleed }} {{ -bleed }} {{ w + 2 * bleed }} {{ h + 2 * bleed }}">')


@dataclass(frozen=True)
class RootBox:
    """A face's root as written: its width and height in mm (None: none given; a percentage kept
    as its fraction of the face, ``percent``), viewBox, preserveAspectRatio and template line."""

    width_mm: float | None
    height_mm: float | None
    percent: tuple[float | None, float | None]
    viewbox: tuple | None
    align: str
    written: str  # width=… height=… viewBox=… as the template wrote them, for the message
    at: str  # the SOURCE mark of the root: "<template name>:<line>", or ""


def root_box(root, where: str) -> RootBox:
    """Read the root's size as SVG does (a length in any unit; a bad one is refused by the converter's rule)."""
    props = props_of(root)
    sizes, percent = [], []
    for name in ("width", "height"):
        value = props.get(name)
        pt = root_length(value, where)
        sizes.append(None if pt is None else pt / PT_PER_MM)
        m = LENGTH.match(value or "")
        percent.append(float(m.group(1)) / 100 if m and m.group(2) == "%" else None)
    par = props.get("preserveAspectRatio", "").split()
    align = (par[1] if par[:1] == ["defer"] and len(par) > 1 else par[0]) if par else "xMidYMid"
    slice_ = "slice" in par
    written = " ".join(f'{k}="{props[k][:40]}"' for k in ("width", "height", "viewBox", "preserveAspectRatio") if k in props)
    return RootBox(sizes[0], sizes[1], (percent[0], percent[1]), viewbox(props, where),
                   f"{align} slice" if slice_ else align, written or "no width, height or viewBox",
                   root.get(SOURCE) or "")


def _mm(x: float) -> str:
    return f"{round(x, 2):g}"


def _near(a: tuple[float, float], b: tuple[float, float], by: float = CLOSE_MM) -> bool:
    return abs(a[0] - b[0]) <= by and abs(a[1] - b[1]) <= by


def face_size(box: RootBox, face: tuple[float, float]) -> tuple[float, float]:
    """The root's size in mm: its own, else (none, or a percentage) the face's box's."""
    return tuple(  # type: ignore[return-value]
        size if size is not None else face[i] * (pc if pc is not None else 1.0)
        for i, (size, pc) in enumerate(zip((box.width_mm, box.height_mm), box.percent)))


def root_mistake(box: RootBox, trim: tuple[float, float], bleed: float, where: str) -> tuple[str, str] | None:
    """What is wrong with a face's root for a face of ``trim`` and ``bleed`` (mm): (what, expected), or None."""
    w, h = trim
    face = (w + 2 * bleed, h + 2 * bleed)
    size = face_size(box, face)
    said = f"the <svg> root ({box.written})"
    drawn = f"a face is drawn trim + 2 × bleed, {_mm(face[0])}×{_mm(face[1])} mm, with the trim at ({_mm(bleed)}, {_mm(bleed)})"
    if bleed > 0 and _near(size, trim):
        return (f"{where}: {said} is the trim size, {_mm(w)}×{_mm(h)} mm; {drawn}: this one would print "
                f"{_mm(bleed)} mm off the trim, a white band inside it on two sides, its bleed bare", EXPECTED)
    if not _near(size, face):
        return (f"{where}: {said} is {_mm(size[0])}×{_mm(size[1])} mm, neither the trim ({_mm(w)}×{_mm(h)} mm) "
                f"nor the face; {drawn}: this one would print out of place, off the trim", EXPECTED)
    vb = box.viewbox
    if vb is None:
        return None
    if bleed > 0 and _near(vb[2:], trim, 0.01) and not _near(vb[2:], face, 0.01):
        return (f"{where}: {said} has the trim, {_mm(w)}×{_mm(h)}, for its viewBox, drawn over the whole face; "
                f"{drawn}: the drawing's trim would print at the bleed's edge, {_mm(bleed)} mm outside the cut",
                f'viewBox="{_mm(-bleed)} {_mm(-bleed)} {_mm(face[0])} {_mm(face[1])}", as common/piece.svg.j2 '
                "writes it, or " + EXPECTED)
    if box.align != "none" and abs((vb[2] / vb[3]) / (size[0] / size[1]) - 1) > ASPECT:
        fit = max if box.align.endswith("slice") else min
        s = fit(size[0] / vb[2], size[1] / vb[3])
        off = max(abs(vb[2] * s - size[0]), abs(vb[3] * s - size[1])) / 2
        return (f"{where}: {said} has a viewBox of other proportions than its size ({_mm(vb[2])}×{_mm(vb[3])} "
                f"in {_mm(size[0])}×{_mm(size[1])} mm): SVG scales it evenly (preserveAspectRatio '{box.align}'), "
                f"so the drawing's edges land {_mm(off)} mm off the face's, and its trim off the cut",
                f'a viewBox in the face\'s proportions (viewBox="{_mm(-bleed)} {_mm(-bleed)} {_mm(face[0])} '
                f'{_mm(face[1])}" for millimetres), or preserveAspectRatio="none" to stretch it to the face')
    return None


def give_size(root, box: RootBox, trim: tuple[float, float], bleed: float) -> bool:
    """Write the face's size on a root that gives none (or 100 %), for the converter, which knows
    no face: True if it did. (A width or height in its ``style`` would win over the attribute: moved.)"""
    if box.width_mm is not None and box.height_mm is not None:
        return False
    size = face_size(box, (trim[0] + 2 * bleed, trim[1] + 2 * bleed))
    style = root.get("style")
    if style:
        kept = [d for d in style.split(";") if d.partition(":")[0].strip().lower() not in ("width", "height")]
        root.set("style", ";".join(kept))
    root.set("width", f"{size[0]:g}mm")
    root.set("height", f"{size[1]:g}mm")
    return True
