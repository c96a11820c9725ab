"""The ink saver (``--ink saver`` / ``saver-grey``): a converted face (``Art``) redrawn with less
toner, from the same templates. One transform of the drawing list, applied once per distinct face.

The rule, in figures (``InkSaver``, documented in docs/home-printing.md):

- a fill is *large* when the bounding box of the path it paints covers at least ``large`` (5 %)
  of the face's area (bleed included); a large fill keeps ``keep`` (25 %) of its ink: each
  channel mixed toward white, c' = 1 − keep·(1 − c), so the hue stays. Gradient fills over a large
  box get the same tint stop by stop. Small fills (icons, pips, badges) keep their colour;
- strokes (frames, rules, cut guides drawn on the face) keep their colour;
- text keeps its colour, never lightened; a *light* text (luminance ≥ 0.6) whose background —
  the last fill painted under the first glyph's origin — was lightened is set in that
  background's own colour before the tint (white on a dark-red banner becomes dark red on pale
  pink), or in near-black when that colour is light too;
- raster art is kept (``saver``) or turned grey and lightened to ``art_keep`` (35 %) of its ink
  (``saver-grey``);
- faces svglib draws (``Art.fallback``) are kept as they are.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from pnpgen.svg.artwork import Art, paint_item

MODES = ("saver", "saver-grey")
LIGHT_TEXT = 0.6  # luminance at or above which a text counts as light
NEAR_BLACK = (0.1, 0.1, 0.1)
PATH_OPS = {"m": 2, "l": 2, "c": 6, "v": 4, "y": 4, "re": 4, "h": 0}
FILL_PAINTS = {"f", "f*", "B", "B*"}
ENDS = {"f", "f*", "B", "B*", "S", "s", "b", "b*", "n"}


@dataclass(frozen=True)
class InkSaver:
    """How the ink saver lightens home sheets (``--ink``): which large fills are lightened and how much ink they and
    the art keep, for a playtest copy that spares the cartridge."""

    mode: str = "saver"  # saver: art kept; saver-grey: art grey and lightened
    large: float = 0.05  # a fill whose box covers this share of the face (or more) is lightened
    keep: float = 0.25  # the share of its ink a lightened fill keeps
    art_keep: float = 0.35  # saver-grey: the share of its ink raster art keeps

    @property
    def slug(self) -> str:
        return "ink-" + self.mode


def tint(rgb: tuple, keep: float) -> tuple:
    """``rgb`` mixed toward white, keeping ``keep`` of its ink (hue kept)."""
    return tuple(round(1 - keep * (1 - c), 6) for c in rgb)


def luminance(rgb: tuple) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def save_ink(art: Art, ink: InkSaver) -> Art:
    """``art`` redrawn by the ink saver's rule (see the module docstring)."""
    if art.fallback is not None:
        return art
    return Art(art.width_pt, art.height_pt, tuple(_Saver(art, ink).run()))


def _mul(a: tuple, b: tuple) -> tuple:
    """a then b (PDF order: ``a cm`` inside space b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


class _Saver:
    def __init__(self, art: Art, ink: InkSaver):
        self.art, self.ink = art, ink
        self.face_area = max(art.width_pt * art.height_pt, 1e-9)
        self.out: list[tuple] = []
        self.ctm: tuple = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.fill: tuple = (0.0, 0.0, 0.0)  # the art's own fill colour now
        self.emitted: tuple = (0.0, 0.0, 0.0)  # the fill colour the output has set
        self.stack: list[tuple] = []
        self.painted: list[tuple] = []  # (box, lightened, colour) of each fill, in order

    def run(self) -> list[tuple]:
        for it in self.art.items:
            kind = it[0]
            if kind == "ops":
                self.ops(it[1])
            elif kind == "fill":
                self.fill = tuple(it[1:])
            elif kind == "stroke":
                self.out.append(it)
            elif kind == "text":
                self.text(it)
            elif kind == "paint":
                self.paint(it)
            else:
                self.out.append(self.image(it) if self.ink.mode == "saver-grey" else it)
        return self.out

    def set_fill(self, rgb: tuple, ops: list[str]) -> None:
        if rgb != self.emitted:
            if ops:
                self.out.append(("ops", " ".join(ops)))
                ops.clear()
            self.out.append(("fill", *rgb))
            self.emitted = rgb

    def box(self, pts: list[tuple[float, float]]) -> tuple[float, float, float, float] | None:
        if not pts:
            return None
        xs, ys = zip(*(_apply(self.ctm, x, y) for x, y in pts), strict=True)
        return min(xs), min(ys), max(xs), max(ys)

    def large(self, box: tuple | None) -> bool:
        return box is not None and (box[2] - box[0]) * (box[3] - box[1]) >= self.ink.large * self.face_area

    def ops(self, text: str) -> None:
        toks = text.split()
        done: list[str] = []  # tokens written out, up to the current path's start
        path: list[str] = []  # the current path's tokens (and its operands)
        operands: list[str] = []
        pts: list[tuple[float, float]] = []
        for t in toks:
            if t in PATH_OPS:
                nums = [float(v) for v in operands[-PATH_OPS[t]:]] if PATH_OPS[t] else []
                if t == "re":
                    x, y, w, h = nums
                    pts += [(x, y), (x + w, y + h)]
                else:
                    pts += list(zip(nums[0::2], nums[1::2], strict=True))
                path += operands + [t]
                operands = []
            elif t in ENDS:
                if t in FILL_PAINTS:
                    box = self.box(pts)
                    lighten = self.large(box)
                    self.set_fill(tint(self.fill, self.ink.keep) if lighten else self.fill, done)
                    if box is not None:
                        self.painted.append((box, lighten, self.fill))
                done += path + operands + [t]
                path, operands, pts = [], [], []
            elif t in ("W", "W*"):
                path += operands + [t]
                operands = []
            elif t == "q":
                done += operands + [t]
                operands = []
                self.stack.append((self.ctm, self.fill, self.emitted))
            elif t == "Q":
                done += operands + [t]
                operands = []
                self.ctm, self.fill, self.emitted = self.stack.pop()
            elif t == "cm":
                m = tuple(float(v) for v in operands[-6:])
                self.ctm = _mul(m, self.ctm)
                done += operands + [t]
                operands = []
            elif t[0].isalpha() or t in ("'", '"'):  # state operators: w J j M d gs …
                (path if path else done).extend(operands + [t])
                operands = []
            else:  # an operand (a number, a dash array's bracket or number)
                operands.append(t)
        done += path + operands
        if done:
            self.out.append(("ops", " ".join(done)))

    def text(self, it: tuple) -> None:
        colour = self.fill
        if luminance(colour) >= LIGHT_TEXT and it[3]:
            x, y = _apply(self.ctm, it[3][0][0], it[3][0][1])
            for (x0, y0, x1, y1), lightened, under in reversed(self.painted):
                if x0 <= x <= x1 and y0 <= y <= y1:
                    if lightened:
                        colour = under if luminance(under) < LIGHT_TEXT else NEAR_BLACK
                    break
        self.set_fill(colour, [])
        self.out.append(it)

    def paint(self, it: tuple) -> None:
        _, ops, op, area, fill, stroke = it
        x0, y0, x1, y1 = area
        box = self.box([(x0, y0), (x1, y1), (x0, y1), (x1, y0)])
        if fill is not None and self.large(box):
            kind, coords, domain, matrix, stops, spread = fill
            stops = tuple((s[0], *tint(s[1:], self.ink.keep)) for s in stops)
            fill = (kind, coords, domain, matrix, stops, spread)
        elif fill is None and op in FILL_PAINTS:  # a plain fill under a gradient stroke
            self.set_fill(tint(self.fill, self.ink.keep) if self.large(box) else self.fill, [])
        self.out.append(paint_item(ops, op, area, fill, stroke))

    def image(self, it: tuple) -> tuple:
        from PIL import Image

        _, data, x, y, w, h = it
        try:
            im = Image.open(io.BytesIO(data))
            fmt = im.format
            alpha = im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info)
            grey = im.convert("LA" if alpha else "L")
        except Exception:  # noqa: BLE001 - a picture Pillow cannot read is kept as it is
            return it
        keep = self.ink.art_keep
        lut = [round(255 - keep * (255 - v)) for v in range(256)]
        if alpha:
            lum, a = grey.split()
            grey = Image.merge("LA", (lum.point(lut), a))
        else:
            grey = grey.point(lut)
        buf = io.BytesIO()
        if fmt == "JPEG" and not alpha:
            grey.save(buf, "JPEG", quality=90)
        else:
            grey.save(buf, "PNG")
        return ("image", buf.getvalue(), x, y, w, h)
