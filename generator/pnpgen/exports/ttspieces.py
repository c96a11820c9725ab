"""Tabletop Simulator's tokens, tiles and boards: a token cut out along the piece's outline
(``Custom_Token``, a back as its second state), a tile, a board or a double-sided token of a tile's
shape as a ``Custom_Tile`` with both sides, a fold-over standee as a token standing up; one object
per copy, in a ``Bag`` when there are several.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from pnpgen.data.model import Deck, Piece
from pnpgen.exports.faces import PageStyle, PngFiles, UniqueFace, face_images
from pnpgen.exports.ttstable import INCH_PER_UNIT, MAX_PX, Table, one_or_bag, pixels, transform
from pnpgen.exports.ttswords import back_names_it, described, name_of_back, printed_words, rules_text, table_names
from pnpgen.faces.faceset import taken_in
from pnpgen.messages import msg
from pnpgen.shapes import outline, shape_spec
from pnpgen.units import MM_PER_INCH, mm_to_px

TILE_TYPES = {"rect": 0, "hex": 1, "circle": 2, "rounded": 3}  # CustomTile.Type (the KB's save file format)
TOKEN_BORDER = 0.03  # transparent border round a token image, of the piece's longer side in px (at least 4 px)
MASK_SUPERSAMPLE = 16  # a token's cut sampled 16 × 16 times a pixel: edge pixels partly transparent
MASK_MAX_PX = 8192  # … fewer for a large token, at most this many samples a side

# A two-sided tile or token face down tells nothing of its face either: a tile's one Description
# says what each side prints (表: … 裏: …), and a hidden tile's front words were read in its tooltip. Not one
# whose back prints its own name (a wargame counter): it hides nothing face down.
HIDDEN_FACE_DOWN = {"HideWhenFaceDown": True}


def tokens_and_tiles(style: PageStyle, faces: list[UniqueFace], table: Table, x: float, files: dict[str, bytes],
            pngs: PngFiles) -> list[dict]:
    """Tokens cut out along their outline (``Custom_Token``, a back as the second state);
    tiles, boards and double-sided tokens of a tile's shape as ``Custom_Tile`` with both sides: one
    object, or a bag of them; a map's sections (``sections:``) each on its own, laid out joined."""
    deck = style.deck
    url = table.url
    w, h = style.fitted.trim
    px_per_mm = min(mm_to_px(1, table.dpi), MAX_PX / max(w, h))
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    two_sided = bool(deck.back)
    tile_type = _tile_type(deck) if deck.kind != "token" or two_sided else None
    stackable = deck.kind != "board"  # tiles and tokens pile up; a board dropped on another stays a board
    earlier = table.earlier
    cut = () if tile_type is not None else ("cut", MASK_SUPERSAMPLE)  # (an earlier hard-edged cut is not taken)
    front_from = [earlier.made_from(style, [f.front], size, "piece", *cut) for f in faces]
    back_from = [earlier.made_from(style, [f.back], size, "piece", *cut) if two_sided and f.back is not None else ""
                 for f in faces]
    if tile_type is None:
        # A token: cut out, with a transparent border all round (the knowledge base's advice for
        # a clean cut); the border widens the image, so the scale grows to keep the piece's size.
        pad = max(4, round(TOKEN_BORDER * max(size)))
        mask = _mask(style, size)
        scale = max(w, h) / MM_PER_INCH / 2 / INCH_PER_UNIT * (max(size) + 2 * pad) / max(size)
    else:
        pad, mask = 0, None
        scale = max(w, h) / MM_PER_INCH / 2 / INCH_PER_UNIT
    # only the images no earlier export made from the same are rasterised; each goes in its place
    taken: dict[str, bytes] = {}
    # one back every piece shares (a back template reading no field) is one image, as a deck's
    # card back is: 60 terrain tiles are not 60 copies of it for the table to load
    shared = len(faces) > 1 and back_from[0] != "" and len(set(back_from)) == 1
    back_names = [f"{deck.id}-back.png" if shared else f"{f.stem}-back.png" for f in faces]
    new_fronts = [i for i, f in enumerate(faces) if not earlier.take(taken, f"{f.stem}-front.png", front_from[i])]
    new_backs = [i for i, f in enumerate(faces) if back_from[i] and not (shared and i)
                 and not earlier.take(taken, back_names[i], back_from[i])]
    fronts = dict(zip(new_fronts, face_images([faces[i].front for i in new_fronts], style, size)))
    backs = dict(zip(new_backs, face_images([faces[i].back for i in new_backs], style, size)))  # type: ignore[misc]
    objects = []
    places: list[Piece] = []  # each object's piece (a map's section: its place)
    names = table_names(deck, table.lang)
    for i, face in enumerate(faces):
        front_name = f"{face.stem}-front.png"
        if i in fronts:
            pngs.add(files, front_name, _cut(fronts[i], mask, pad))
        else:
            files[front_name] = taken[front_name]
        back_url = ""
        if back_from[i]:
            back_name = back_names[i]
            if i in backs:
                pngs.add(files, back_name, _cut(backs[i], mask, pad))
            elif back_name not in files:
                files[back_name] = taken[back_name]
            back_url = url(back_name)
        name = names[face.piece.index]
        back_side = name_of_back(face, name, style) if back_url else name
        # face down it hides something only when its back does not name it (a wargame counter flipped
        # to its reduced side is that unit still, its name and factors the table's to read)
        hidden = HIDDEN_FACE_DOWN if back_url and not back_names_it(face, style) else {}
        texts = [v for v in face.piece.values.values() if isinstance(v, str)]  # a box's text, whole
        # both sides read top to bottom, whatever order each template draws its words in
        # a value still open (未定) printed on a side tells a player nothing: left out, as ``described`` leaves it
        back_words = printed_words(style.arts.get(face.back or ""), texts, top_down=True) if back_url else ""
        front_words = printed_words(style.arts.get(face.front), texts, top_down=True) or rules_text(face.piece) \
            or face.piece.own_name
        # a tile's one Description, whichever side is up: each side's words when its back has any
        said = msg("tts.sides", table.lang, front=front_words, back=back_words) if back_words \
            else described(face, style, table.lang)
        for copy in range(face.copies):
            guid = table.guid(deck, face.object_name, copy)
            if tile_type is None:
                obj = _token(guid, name, url(front_name), x, scale, described(face, style, table.lang))
                if back_url:  # a state of its own: its own Description, what the back says
                    back = _token(table.guid(deck, face.object_name, copy, "back"), back_side, back_url, x, scale,
                                  back_words) | hidden
                    # a sealed pack's token arrives showing its back (a token has one image, so not by
                    # turning it over): the back is state 1, the front state 2, a key press away
                    front, back = (back, obj) if deck.sealed else (obj, back)
                    obj = front | {"States": {"2": back | hidden}} | hidden
            else:
                # Stretch false: the tile takes the image's proportions (true stretches it to a
                # symmetrical tile, a 3:2 board to a square).
                # a one-sided tile's bottom its top image, as the import dialog makes it with no bottom
                # image (Knowledge Base, Custom Tile), named rather than left to how "" is read on loading
                image = {"ImageURL": url(front_name), "ImageSecondaryURL": back_url or url(front_name), "ImageScalar": 1.0,
                         "WidthScale": 0.0, "CustomTile": {"Type": tile_type, "Thickness": 0.2, "Stackable": stackable,
                                                           "Stretch": False}}
                obj = {"Name": "Custom_Tile", "GUID": guid, "Nickname": back_side, "Description": said,
                       # a sealed pack's tile arrives face down, as every card does
                       "Transform": transform(x, 0.0, scale, face_down=deck.sealed), "CustomImage": image,
                       **hidden}
            objects.append(obj)
            places.append(face.piece)
    if deck.sections is not None:  # the sections of one map, laid out where they meet
        return [obj | {"Transform": transform(px, pz, scale, face_down=deck.sealed)}
                for obj, (px, pz) in zip(objects, section_places(deck.sections, places, (w, h), x))]
    return [one_or_bag(objects, deck, table, x)]


def section_places(fields: tuple[str, str], pieces: list[Piece], trim: tuple[float, float],
                   x: float) -> list[tuple[float, float]]:
    """Where each section of a map lies on the table (posX, posZ, TTS units), the map's left edge at
    ``x`` (where the deck's objects start) and its middle at Z 0: its ``fields`` (column, row) times
    the section's ``trim`` (mm, as exported) in units of the scale every tile of the export is given
    (``INCH_PER_UNIT``), so that the sections' edges meet as the printed ones are butted. Column 0
    is the map's left, row 0 its top, the side away from the first seat (+Z), as every tile lies,
    turned to face it (``rotY`` 180)."""
    w, h = (side / MM_PER_INCH / INCH_PER_UNIT for side in trim)
    columns = [p.values[fields[0]] for p in pieces]
    rows = [p.values[fields[1]] for p in pieces]
    left, top = min(columns), min(rows)  # (a map may number its sections from 1)
    down = max(rows) - top + 1
    return [(x + (c - left + 0.5) * w, (down / 2 - (r - top + 0.5)) * h) for c, r in zip(columns, rows)]


def map_width(deck: Deck, trim: tuple[float, float]) -> float:
    """How wide a map in sections lies on the table (TTS units): its columns times a section's
    width, as ``section_places`` lays them; the next deck's objects start past it."""
    assert deck.sections is not None
    columns = [p.values[deck.sections[0]] for p in deck.pieces if p.count]
    return (max(columns) - min(columns) + 1) * trim[0] / MM_PER_INCH / INCH_PER_UNIT


def _tile_type(deck: Deck) -> int | None:
    """The ``CustomTile.Type`` of the deck's shape; None (a token cut out along its outline) for a
    shape no tile has: a tri-hex, a polygon, and a pointy hex. Tabletop Simulator's hex tile is
    flat-topped (a corner left and right, the image across it: the knowledge base's Custom Tile
    picture) and, with ``Stretch: false``, as tall as the image: a pointy hex's art on it was cut
    as a flat hex stretched tall, its top and bottom corners lost."""
    if deck.shape == "hex" and str(deck.options.get("orientation", "pointy")) == "pointy":
        return None
    return TILE_TYPES.get(deck.shape)


def standees(style: PageStyle, box_mm: tuple[float, float, float, float], faces: list[UniqueFace], table: Table,
              x: float, files: dict[str, bytes], pngs: PngFiles) -> dict:
    """A piece whose layout says ``stand_up:`` (a fold-over standee): a ``Custom_Token`` of that
    image box alone, standing up. Tabletop Simulator shows a standing token's back as its front's
    mirror image, as the folded paper does; the tabs and the far copy stay off the table."""
    deck = style.deck
    w, h = style.fitted.trim
    px_per_mm = min(mm_to_px(1, table.dpi), MAX_PX / max(w, h))
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    sx, sy = w / deck.trim_mm[0], h / deck.trim_mm[1]  # a fitted export scales the box with the piece
    bx, by, bw, bh = box_mm
    x0, y0, x1, y1 = taken_in(max(bx * sx, 0.0), max(by * sy, 0.0), min((bx + bw) * sx, w), min((by + bh) * sy, h))
    crop = pixels((x0, y0, x1, y1), px_per_mm)
    made = [table.earlier.made_from(style, [f.front], size, "stand_up", crop) for f in faces]
    taken: dict[str, bytes] = {}
    new = [i for i, f in enumerate(faces) if not table.earlier.take(taken, f"{f.stem}-front.png", made[i])]
    images = dict(zip(new, face_images([faces[i].front for i in new], style, size)))
    scale = max(x1 - x0, y1 - y0) / MM_PER_INCH / 2 / INCH_PER_UNIT
    objects = []
    names = table_names(deck, table.lang)
    for i, face in enumerate(faces):
        name = f"{face.stem}-front.png"
        if i in images:
            pngs.add(files, name, images[i].crop(crop))
        else:
            files[name] = taken[name]
        for copy in range(face.copies):
            obj = _token(table.guid(deck, face.object_name, copy), names[face.piece.index], table.url(name), x, scale,
                         described(face, style, table.lang))
            obj["CustomImage"]["CustomToken"]["StandUp"] = True
            objects.append(obj)
    return one_or_bag(objects, deck, table, x)


def _token(guid: str, name: str, image_url: str, x: float, scale: float, description: str = "") -> dict:
    """A Custom_Token: one image, cut out along its transparency (it has no back image)."""
    image = {"ImageURL": image_url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
             "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}}
    return {"Name": "Custom_Token", "GUID": guid, "Nickname": name, "Description": description,
            "Transform": transform(x, 0.0, scale), "CustomImage": image}


def _mask(style: PageStyle, size: tuple[int, int]) -> Image.Image:
    """Opaque inside the piece's outline, for tokens cut out of their image; an edge pixel as
    opaque as the share of it inside, so a round token's edge is smooth on the table, not
    stair-stepped."""
    w, h = style.fitted.trim
    spec = shape_spec(style.deck.shape, (w, h), style.deck.options)
    sx, sy = size[0] / w, size[1] / h
    return _coverage([(x * sx, y * sy) for x, y in outline(spec).points()], size)


def _coverage(points: list[tuple[float, float]], size: tuple[int, int]) -> Image.Image:
    """An "L" image of ``size`` px, each pixel the share of it inside the polygon ``points`` (px,
    pixel (i, j) the square from (i, j) to (i + 1, j + 1)): k × k samples a pixel, at their
    centres, even-odd. (Pillow's polygon fill, drawn 8× larger and reduced, was up to 60 of 255
    off the true share at a circle's edge.) Counted from each sample row's runs inside, not sample
    by sample (a 16-fold token's samples were 67 million bytes to walk, 0.7 s a token)."""
    W, H = size
    k = max(1, min(MASK_SUPERSAMPLE, MASK_MAX_PX // max(size)))
    p = np.asarray(points, dtype=np.float64) * k  # in samples: row r is at y = r + 0.5
    x0, y0 = p[:, 0], p[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    # each edge crosses the rows whose centre is in [low y, high y) (a level edge, none)
    first = np.clip(np.ceil(np.minimum(y0, y1) - 0.5), 0, k * H).astype(np.int64)
    stop = np.clip(np.ceil(np.maximum(y0, y1) - 0.5), 0, k * H).astype(np.int64)
    n = stop - first
    edge = np.repeat(np.arange(len(p)), n)
    row = first[edge] + np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    x = x0[edge] + (row + 0.5 - y0[edge]) * (x1[edge] - x0[edge]) / (y1[edge] - y0[edge])
    # inside from the first sample right of a crossing to the first right of the next (even-odd):
    # a row's crossings in order, taken in pairs, are its runs [start, end) of samples inside
    column = np.clip(np.ceil(x - 0.5), 0, k * W).astype(np.int64)
    order = np.lexsort((column, row))
    row, column = row[order], column[order]
    start, end, run_row = column[0::2], column[1::2], row[0::2]  # (a row crosses the outline an even number of times)
    # each run's samples added to the pixels it covers: whole pixels through a difference table,
    # the pixels it starts and ends in by their share
    count = np.zeros((H, W + 1), dtype=np.int64)
    whole = np.zeros((H, W + 1), dtype=np.int64)
    i, a, b = run_row // k, start // k, end // k
    same = a == b
    np.add.at(count, (i[same], a[same]), (end - start)[same])
    i, a, b, start, end = i[~same], a[~same], b[~same], start[~same], end[~same]
    np.add.at(count, (i, a), (a + 1) * k - start)
    np.add.at(count, (i, b), end - b * k)  # (b = W: the run ends at the image's edge, nothing in column W)
    np.add.at(whole, (i, a + 1), k)
    np.add.at(whole, (i, b), -k)
    count = (count + np.cumsum(whole, axis=1))[:, :W]
    return Image.fromarray(((count * 255 + k * k // 2) // (k * k)).astype(np.uint8), "L")


def _cut(image: Image.Image, mask: Image.Image | None, pad: int = 0) -> Image.Image:
    """The image cut out along ``mask``, inside a transparent border ``pad`` pixels wide."""
    if mask is None:
        return image
    cut = image.convert("RGBA")
    cut.putalpha(mask)
    out = Image.new("RGBA", (cut.width + 2 * pad, cut.height + 2 * pad), (0, 0, 0, 0))
    out.paste(cut, (pad, pad))
    return out
