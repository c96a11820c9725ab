"""A figure of the designer's own picture (game.yaml ``rulebook: figures: - {after: …, picture:
setup.jpg}``): the picture converted as a card's art is (a PNG or JPEG placed as the print
files place it, EXIF turned upright, transparency flattened on the white page; an SVG drawn as
vectors), shown whole in the figure's box, centred, and its resolution at the size it prints
checked as the cards' art is."""

from __future__ import annotations

import hashlib
from html import escape
from pathlib import Path
from urllib.parse import quote

from pnpgen.data.art import ArtFolder
from pnpgen.data.formats import MAX_DPI
from pnpgen.data.model import Game
from pnpgen.data.pixels import ceiling_size
from pnpgen.errors import Where
from pnpgen.faces.images import enough_pixels, short_of
from pnpgen.pdf.draw import draw_art
from pnpgen.rulebook.figures import RulebookSettings, printed_mm
from pnpgen.rulebook.flowables import sketching
from pnpgen.rulebook.piecepics import Figure
from pnpgen.rulebook.styles import FIGURE_H
from pnpgen.safetext import quoted
from pnpgen.svg import convert
from pnpgen.svg.artwork import Art
from pnpgen.units import MM_PER_INCH
from pnpgen.units import PT_PER_MM as PT


def low_dpi(game: Game, settings: RulebookSettings, wanted: float) -> list[str]:
    """A figure's raster picture under ``wanted`` dpi at the size it prints: said at its line, as a
    card's art is, with the pixels that would do."""
    out = []
    for spec in settings.figures:
        pic = spec.picture
        if pic is None or pic.kind != "raster":
            continue
        drawn = printed_mm(spec)
        dpi = min(p / (d / MM_PER_INCH) for p, d in zip(pic.size, drawn, strict=True))
        if dpi >= wanted or enough_pixels(pic.size, drawn, wanted):
            continue
        need = [round(d / MM_PER_INCH * wanted) for d in drawn]
        out.append(f"{Path(game.root) / 'game.yaml'}:{pic.line}: figure after {quoted(spec.after)}: {pic.shown}: "
                   f"{short_of(dpi, wanted)} dpi at {round(drawn[0], 1):g}×{round(drawn[1], 1):g} mm, {wanted:g} wanted "
                   f"({need[0]:,} × {need[1]:,} px would do; or the figure's size: smaller)")
    return out


def picture_arts(game: Game, settings: RulebookSettings, max_dpi: float = MAX_DPI) -> dict[int, Art]:
    """Each picture figure's art by its place in ``settings.figures``: the picture in an SVG of
    the figure's box (mm), converted as a face is — a raster one finer than the resolution ceiling
    ``max_dpi`` (0: none) at the size it prints resampled to it, as a card's art is; a picture
    that cannot be drawn is an error at its line."""
    folder = ArtFolder(Path(game.root))
    out = {}
    for i, spec in enumerate(settings.figures):
        pic = spec.picture
        if pic is None:
            continue
        w, h = (f"{v:g}" for v in spec.size_mm)
        where = Where(Path(game.root) / "game.yaml", pic.line)
        size = None
        if pic.kind == "raster":
            drawn = printed_mm(spec)
            size = ceiling_size(pic.size, min(p / (d / MM_PER_INCH) for p, d in zip(pic.size, drawn, strict=True)), max_dpi)
        href = quote(pic.name) + ("" if size is None else f"#px={size[0]}x{size[1]}")
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
               f'<image href="{escape(href, quote=True)}" x="0" y="0" width="{w}" height="{h}" '
               'preserveAspectRatio="xMidYMid meet"/></svg>')
        out[i] = convert(svg, str(where), resolve=folder.resolver(where))
    return out


class PictureFigure(Figure):
    """A figure of the designer's own picture: its art in the figure's box, scaled to fit the
    column as a figure of pieces is, centred. Never split."""

    def __init__(self, art: Art, key: str, width_mm: float, height_mm: float, max_height: float = FIGURE_H):
        super().__init__([], width_mm, height_mm, max_height)
        self.art = art
        self.name = "own-" + hashlib.sha256(key.encode()).hexdigest()[:16]  # the form's: by the picture and box

    def draw(self):
        if sketching(self.canv):
            return
        name, canv = self.name, self.canv
        if not canv.hasForm(name):
            canv.beginForm(name, 0, 0, self.art.width_pt, self.art.height_pt)
            draw_art(canv, self.art)
            canv.endForm()
        canv.saveState()
        canv.translate((self.width - self.w_mm * PT * self.scale) / 2, 0)
        canv.scale(self.scale, self.scale)
        canv.doForm(name)
        canv.restoreState()
