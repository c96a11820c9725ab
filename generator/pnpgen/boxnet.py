"""A tuck box's net as pure geometry in millimetres (``shape: tuckbox``): its panels, its cut
outline (the die line), the outline its bleed grows from, and its fold (score) lines.

The net, seen from the printed (outer) face, top up, (0, 0) at the top-left of its bounding box::

             [tuck]
             [top ]  [dust]          [dust]
             [back]  [left]  [front]  [right]  [glue]
                     [dust]  [bottom] [dust]
                             [tuck]

Back, left side, front and right side wrap round the cards left to right, each upright; the glue
flap on the right side's free edge is glued inside the back's left edge. The top (lid) hangs from
the back and its tuck flap goes down inside the front, over the thumb notch cut in the front's top
edge; the bottom hangs from the front and tucks inside the back (a reverse tuck end, the usual
card box). Dust flaps hang from both sides at both ends and fold in under the top and bottom.

``w``, ``h``, ``d`` are the box's inside: the front's width and height and the depth (the sides'
width). Nothing here knows points, PDF or YAML (data/tuckbox.py reads a deck's ``box:``).
"""

from __future__ import annotations

import math
from dataclasses import astuple, dataclass

Point = tuple[float, float]

NOTCH_STEPS = 24  # chords of the thumb notch where the outline is needed as a polygon


@dataclass(frozen=True)
class TuckBox:
    """A tuck box's figures in mm (data/tuckbox.py gives each its default)."""

    w: float  # inside width: the front and back panels' width
    h: float  # inside height: the panels' height
    d: float  # inside depth: the sides', top's and bottom's width
    tuck: float  # the tuck flaps' depth
    glue: float  # the glue flap's width
    dust: float  # the dust flaps' depth
    chamfer: float  # the flaps' corners cut at 45°, mm along each edge
    notch: float  # the thumb notch's radius in the front's top edge (0: none)

    def frozen(self) -> tuple[float, ...]:
        return astuple(self)

    @property
    def size(self) -> tuple[float, float]:
        """The net's bounding box: the trim size of the piece."""
        return 2 * self.w + 2 * self.d + self.glue, self.h + 2 * self.d + 2 * self.tuck

    @property
    def rows(self) -> tuple[float, float]:
        """The wrap's top and bottom edge (y of the back's, sides' and front's top and bottom)."""
        top = self.tuck + self.d
        return top, top + self.h

    def panels(self) -> dict[str, tuple[float, float, float, float]]:
        """Each panel's box (x, y, w, h) as the net lays it out: what a layout's ``front.x``,
        ``top.w``… read."""
        w, d, t = self.w, self.d, self.tuck
        y1, y2 = self.rows
        return {
            "back": (0.0, y1, w, self.h), "left": (w, y1, d, self.h), "front": (w + d, y1, w, self.h),
            "right": (2 * w + d, y1, d, self.h), "glue": (2 * w + 2 * d, y1, self.glue, self.h),
            "top": (0.0, t, w, d), "top_tuck": (0.0, 0.0, w, t),
            "bottom": (w + d, y2, w, d), "bottom_tuck": (w + d, y2 + d, w, t),
        }

    def folds(self) -> list[tuple[Point, Point]]:
        """The score lines, each a straight segment on a panel's edge (none is cut)."""
        w, d, t = self.w, self.d, self.tuck
        y1, y2 = self.rows
        return [
            ((w, y1), (w, y2)), ((w + d, y1), (w + d, y2)),  # back | left | front
            ((2 * w + d, y1), (2 * w + d, y2)), ((2 * w + 2 * d, y1), (2 * w + 2 * d, y2)),  # front | right | glue
            ((0.0, t), (w, t)),  # tuck | top
            ((0.0, y1), (w + d, y1)),  # top | back, and the left dust flap
            ((2 * w + d, y1), (2 * w + 2 * d, y1)),  # the right dust flap
            ((w, y2), (2 * w + 2 * d, y2)),  # the bottom dust flaps and front | bottom
            ((w + d, y2 + d), (2 * w + d, y2 + d)),  # bottom | tuck
        ]

    def _dust(self, x0: float, x1: float, y: float, down: bool) -> list[Point]:
        """A dust flap hinged on (x0, y)–(x1, y), from x0 to x1: its sides taper in by half the
        chamfer (clear of the top, bottom and glue flap beside it), its far corners cut at 45°."""
        c, g = self.chamfer, self.chamfer / 2
        s = 1.0 if x1 > x0 else -1.0
        far = y + self.dust if down else y - self.dust
        back = -1.0 if down else 1.0  # from the far edge towards the hinge
        pts = [(x0, y), (x0 + s * g, far + back * c), (x0 + s * (g + c), far),
               (x1 - s * (g + c), far), (x1 - s * g, far + back * c), (x1, y)]
        return pts

    def _tuck_end(self, x0: float, y0: float, down: bool) -> list[Point]:
        """The far end of a top or bottom and its tuck flap (x0 … x0 + w), corners chamfered."""
        c, w, t, d = self.chamfer, self.w, self.tuck, self.d
        if down:  # the bottom: from its right edge, down and back left
            y = y0 + d + t
            return [(x0 + w, y - c), (x0 + w - c, y), (x0 + c, y), (x0, y - c)]
        return [(x0, c), (x0 + c, 0.0), (x0 + w - c, 0.0), (x0 + w, c)]

    def corners(self, notch: bool = True, bridged: bool = False) -> list[Point]:
        """The outline as a polygon, clockwise on the page from the top tuck flap's left corner;
        ``notch``: the thumb notch as chords; ``bridged``: the narrow notches between the top,
        the dust flaps and the glue flap filled (what the bleed grows from, never cut)."""
        w, d, g, c, f = self.w, self.d, self.glue, self.chamfer, self.dust
        y1, y2 = self.rows
        pts: list[Point] = self._tuck_end(0.0, 0.0, down=False)
        left_top = self._dust(w, w + d, y1, down=False)
        right_top = self._dust(2 * w + d, 2 * w + 2 * d, y1, down=False)
        right_bottom = self._dust(2 * w + 2 * d, 2 * w + d, y2, down=True)
        left_bottom = self._dust(w + d, w, y2, down=True)
        if bridged:  # over the top's notch, then along the dust flap's far edge
            pts += [(w, y1 - f)] + left_top[3:]
        else:
            pts += left_top
        if notch and self.notch > 0:
            cx, r = w + d + w / 2, self.notch
            pts += [(cx - r * math.cos(math.pi * k / NOTCH_STEPS), y1 + r * math.sin(math.pi * k / NOTCH_STEPS))
                    for k in range(NOTCH_STEPS + 1)]
        pts += right_top[:-1]
        pts += [(2 * w + 2 * d, y1), (2 * w + 2 * d + g, y1 + c), (2 * w + 2 * d + g, y2 - c)]
        pts += right_bottom[:-1] if not bridged else right_bottom[:3]
        bottom = self._tuck_end(w + d, y2, down=True)
        if bridged:  # under the dust flaps' notches beside the bottom
            pts += [(2 * w + d, y2 + f)] + bottom + [(w + d, y2 + f)] + left_bottom[3:]
        else:
            pts += [(2 * w + d, y2)] + bottom + left_bottom
        pts += [(0.0, y2)]
        return pts

    @property
    def notch_centre(self) -> Point:
        """The thumb notch's centre, on the front's top edge (a half circle into the front)."""
        return self.w + self.d + self.w / 2, self.rows[0]


def deepest(box: TuckBox, room: tuple[float, float]) -> float:
    """The deepest box of these cards and flaps whose net fits ``room`` (w, h), either way round;
    0 when none does: what a message about a box too big for the paper offers instead."""
    rw, rh = room
    best = 0.0
    for across, down in ((rw, rh), (rh, rw)):
        best = max(best, min((across - 2 * box.w - box.glue) / 2, (down - box.h - 2 * box.tuck) / 2))
    return math.floor(best * 10) / 10 if best >= 1 else 0.0

