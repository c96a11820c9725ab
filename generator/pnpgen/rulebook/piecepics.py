"""The pictures of the pieces in the rulebook: each face a Form XObject defined once and placed
wherever the book shows it (the components list, the setup figures, the cover)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from pnpgen.faces.faceset import taken_in
from pnpgen.pdf.draw import draw_art
from pnpgen.rulebook.figures import Placed, figure_scale, reach_mm
from pnpgen.rulebook.flowables import sketching
from pnpgen.rulebook.pictures import DeckPicture
from pnpgen.rulebook.styles import FIGURE_H
from pnpgen.svg.artwork import Art
from pnpgen.units import PT_PER_MM as PT  # points per millimetre (the PDF layer's unit)


def form_name(deck_id: str, side: str) -> str:
    """The PDF name of a deck's face form, by the deck id's hash: the id is a file name (any
    characters: Japanese, spaces, '%', PDF operators), and reportlab writes a form's name into
    the page as it is given."""
    return f"face-{hashlib.sha256(deck_id.encode()).hexdigest()[:16]}-{side}"


def place_face(canv, name: str, art: Art, picture: DeckPicture, x: float, y: float, scale: float,
               rotate: float = 0.0) -> None:
    """Draw one face with its trim's bottom-left at (x, y) points, ``scale`` times its printed
    size: the face is a Form XObject defined the first time the document shows it."""
    tw, th = (v * PT for v in picture.trim_mm)
    bleed = picture.bleed_mm * PT
    if not canv.hasForm(name):
        canv.beginForm(name, 0, 0, tw, th)
        path = canv.beginPath()
        pts = picture.outline or [(0, 0), (picture.trim_mm[0], 0), picture.trim_mm, (0, picture.trim_mm[1])]
        path.moveTo(pts[0][0] * PT, th - pts[0][1] * PT)
        for px, py in pts[1:]:
            path.lineTo(px * PT, th - py * PT)
        path.close()
        canv.clipPath(path, stroke=0, fill=0)
        if picture.window is not None:  # a part of the face: its corner at the form's,
            wx, wy, whole_h = picture.window  # grown about its middle so that a fold line along
            w, h = picture.trim_mm  # its edges falls outside (a standee: the figure alone)
            x0, y0, x1, y1 = taken_in(0.0, 0.0, w, h)
            zoom = max(w / (x1 - x0), h / (y1 - y0))
            canv.translate(tw / 2, th / 2)
            canv.scale(zoom, zoom)
            canv.translate(-tw / 2, -th / 2)
            canv.translate(-wx * PT, -(whole_h - wy - picture.trim_mm[1]) * PT)
        canv.translate(-bleed, -bleed)
        draw_art(canv, art)
        canv.endForm()
    canv.saveState()
    canv.translate(x, y)
    if rotate:
        canv.translate(tw * scale / 2, th * scale / 2)
        canv.rotate(rotate)
        canv.translate(-tw * scale / 2, -th * scale / 2)
    canv.scale(scale, scale)
    canv.doForm(name)
    canv.restoreState()


class Faces(Flowable):
    """A deck's faces side by side (front, back), each ``scale`` times its printed size, with a
    hairline where the piece is cut."""

    GAP = 3 * mm

    def __init__(self, deck_id: str, picture: DeckPicture, scale: float):
        super().__init__()
        self.deck_id, self.picture, self.scale = deck_id, picture, scale
        self.faces = [("front", picture.front)] + ([("back", picture.back)] if picture.back else [])
        tw, th = (v * PT for v in picture.trim_mm)
        n = len(self.faces)
        self.width = n * tw * self.scale + (n - 1) * self.GAP
        self.height = th * self.scale

    @staticmethod
    def fit(picture: DeckPicture, height: float, max_width: float) -> float:
        """The largest scale at which the deck's faces fit ``height`` × ``max_width`` points."""
        tw, th = (v * PT for v in picture.trim_mm)
        n = 1 + (picture.back is not None)
        return min(height / th, (max_width - (n - 1) * Faces.GAP) / (n * tw))

    def wrap(self, aw, ah):
        return self.width, self.height

    def draw(self):
        if sketching(self.canv):
            return
        tw = self.picture.trim_mm[0] * PT * self.scale
        for i, (side, art) in enumerate(self.faces):
            place_face(self.canv, form_name(self.deck_id, side), art, self.picture, i * (tw + self.GAP), 0,
                       self.scale)


class FittedFaces(Faces):
    """Faces drawn at ``scale``, or smaller (not below ``least``) to fit the rest of the page:
    the quick reference's summary card stays on its one page, or fills the page it moves to."""

    def __init__(self, deck_id: str, picture: DeckPicture, scale: float, least: float):
        super().__init__(deck_id, picture, scale)
        self.base, self.least = scale, least

    def wrap(self, aw, ah):
        self.scale = max(min(self.base, Faces.fit(self.picture, ah - 1, aw)), self.least)
        tw, th = (v * PT for v in self.picture.trim_mm)
        n = len(self.faces)
        self.width, self.height = n * tw * self.scale + (n - 1) * self.GAP, th * self.scale
        return self.width, self.height


class Figure(Flowable):
    """A setup figure: real pieces placed as the game's YAML arranges them (mm, y down),
    scaled to fit the column. Never split."""

    def __init__(self, placed: Sequence[tuple[str, DeckPicture, int, float, float, float, str]],
                 width_mm: float, height_mm: float, max_height: float = FIGURE_H):
        super().__init__()
        self.placed = placed  # (deck id, picture, piece number, x, y of the piece's centre, rotation, side up)
        self.w_mm, self.h_mm = width_mm, height_mm
        self.max_height = max_height

    def wrap(self, aw, ah):
        self.scale = figure_scale(self.w_mm, self.h_mm, aw, self.max_height)
        self.width = aw
        self.height = self.h_mm * PT * self.scale
        return self.width, self.height

    def draw(self):
        if sketching(self.canv):
            return
        x0 = (self.width - self.w_mm * PT * self.scale) / 2
        past = any(reach_mm(picture.outline, picture.trim_mm, Placed(d, n, x, y, rot), (self.w_mm, self.h_mm)) > 0
                   for d, picture, n, x, y, rot, _ in self.placed)
        if past:  # a piece past the box is cut at it, never drawn over the page (the build warns)
            self.canv.saveState()
            box = self.canv.beginPath()
            box.rect(x0, 0, self.w_mm * PT * self.scale, self.height)
            self.canv.clipPath(box, stroke=0, fill=0)
        for deck_id, picture, number, x, y, rot, side in self.placed:
            tw, th = picture.trim_mm
            left = x0 + (x - tw / 2) * PT * self.scale
            bottom = self.height - (y + th / 2) * PT * self.scale
            name = side if number == 1 else f"{number}" if side == "front" else f"{number}-{side}"
            place_face(self.canv, form_name(deck_id, name), picture.piece(number, side), picture, left, bottom,
                       self.scale, rot)
        if past:
            self.canv.restoreState()
