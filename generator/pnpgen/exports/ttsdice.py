"""Tabletop Simulator's dice: a folded paper d6 as a ``Custom_Dice``, its texture the six face
boxes cut from the net, its rotation values the faces' values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from PIL import Image

from pnpgen.data.markup import plain
from pnpgen.data.model import Deck, is_placeholder
from pnpgen.exports.faces import PageStyle, PngFiles, UniqueFace, face_images
from pnpgen.exports.ttstable import MAX_PX, Table, one_or_bag, pixels, transform
from pnpgen.exports.ttswords import described, table_names
from pnpgen.faces.faceset import taken_in
from pnpgen.patterns import later
from pnpgen.units import mm_to_px

# Where each face of a d6 goes on Tabletop Simulator's die texture: its column and row of a 3 × 3
# grid (the top row is the cube's rounded edges) and its turn; the knowledge base's Custom Dice
# page shows its template so: 2, 4, 5 upright on the middle row, 1 and 6 upside down either side of
# 3 on the bottom one.
D6_CELLS = ((0, 2, 180), (0, 1, 0), (1, 2, 0), (1, 1, 0), (2, 1, 0), (2, 2, 180))
D6_TYPE = 1  # CustomDice.Type: 0 d4, 1 d6, 2 d8, 3 d10, 4 d12, 5 d20
# The d6's rotation values (the save file format's ``RotationValues``: a value and the rotation that
# turns it up): the rotations Tabletop Simulator's own d6 is saved with for faces 1 to 6, whose
# texture is the template above; the table's tooltip then says the face rolled, and a script's
# getRotationValue() (and getValue(), the same on an object with rotation values) returns it.
D6_TURNS = ((-90.0, 0.0), (0.0, 0.0), (0.0, -90.0), (0.0, 90.0), (0.0, -180.0), (90.0, 0.0))  # faces 1–6: x, z


def d6_rotations(values: Iterable[str | int]) -> list[dict]:
    """``RotationValues``: each face's value with the rotation that turns it up."""
    return [{"Value": value, "Rotation": {"x": x, "y": 0.0, "z": z}} for value, (x, z) in zip(values, D6_TURNS)]


def die_values(deck: Deck, values: dict) -> list[str] | list[int]:
    """What the faces 1 to 6 of a paper die show, as the table's tooltip and ``getValue()`` give
    them: the text of the field the layout puts in each face, as it reads (an icon as its name:
    ``{sword}`` → ``sword``) with its box's ``label:`` and ``unit:`` (``攻撃 3``, ``2枚``), an icons
    box's icon names, a picture's file name; the face's number where it shows none of these (a
    panel, an empty field, a die drawn by templates). Six whole numbers are numbers (``3``, not
    ``"3"``): a script adds up the dice rolled; one face that reads otherwise keeps all six text."""
    boxes = deck.layout.die_boxes if deck.die is None and deck.layout is not None else None
    out = [str(n) for n in range(1, 7)]
    for n, box in enumerate(boxes or (), 1):
        field, text = box.get("field") if box.type in ("text", "icons", "image") else None, \
            box.get("text") if box.type == "text" else None
        shown = values.get(field) if field is not None else text
        if isinstance(shown, list):
            said = " ".join(str(name) for name in shown)
        elif box.type == "image" and isinstance(shown, str):
            said = Path(shown).stem
        else:
            said = " ".join(plain(str(shown)).split()) if shown is not None else ""
        if said and box.type == "text":  # as the face prints it: 攻撃 3, 2枚
            label, unit = box.get("label"), box.get("unit")
            said = " ".join(plain(label).split() + [said]) if label is not None else said
            said += plain(unit).strip() if unit is not None and not is_placeholder(shown) else ""
        out[n - 1] = said or str(n)
    if all(_whole_number(v) for v in out):
        return [int(v) for v in out]
    return out


WHOLE_NUMBER = later("0|-?[1-9][0-9]*")  # as a script reads it back: not 03, +1 or ３


def _whole_number(text: str) -> bool:
    """Whether a face's value is a whole number (``3``, ``-1``), which a face printing ``03`` or a
    full-width ``３`` is not: the table would say it otherwise than the face."""
    return WHOLE_NUMBER.fullmatch(text) is not None


def dice(style: PageStyle, boxes: tuple[tuple[float, float, float, float], ...], faces: list[UniqueFace],
          table: Table, x: float, files: dict[str, bytes], pngs: PngFiles) -> dict:
    """A folded paper die whose layout or deck file says ``die:`` (its six face boxes): a ``Custom_Dice``
    (a d6) per copy, its texture the six boxes cut from the net, not the flat net itself."""
    deck = style.deck
    w, h = style.fitted.trim
    sx, sy = w / deck.trim_mm[0], h / deck.trim_mm[1]
    side_mm = max(max(bw * sx, bh * sy) for _, _, bw, bh in boxes)
    cell = max(1, min(round(mm_to_px(side_mm, table.dpi)), MAX_PX // 3))
    px_per_mm = cell / side_mm
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    # (the fold lines along a face's edges stay off it, as off a standee)
    crops = tuple(pixels(taken_in(bx * sx, by * sy, (bx + bw) * sx, (by + bh) * sy), px_per_mm)
                  for bx, by, bw, bh in boxes)
    made = [table.earlier.made_from(style, [f.front], size, "d6", cell, crops) for f in faces]
    taken: dict[str, bytes] = {}
    new = [i for i, f in enumerate(faces) if not table.earlier.take(taken, f"{f.stem}-front.png", made[i])]
    images = dict(zip(new, face_images([faces[i].front for i in new], style, size)))
    objects = []
    names = table_names(deck, table.lang)
    for i, face in enumerate(faces):
        name = f"{face.stem}-front.png"
        if i in images:
            pngs.add(files, name, d6_texture([images[i].crop(c) for c in crops], cell))
        else:
            files[name] = taken[name]
        for copy in range(face.copies):
            image = {"ImageURL": table.url(name), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                     "CustomDice": {"Type": D6_TYPE}}
            objects.append({"Name": "Custom_Dice", "GUID": table.guid(deck, face.object_name, copy),
                            "Nickname": names[face.piece.index], "Description": described(face, style, table.lang),
                            "Transform": transform(x, 0.0), "CustomImage": image,
                            "RotationValues": d6_rotations(die_values(deck, face.piece.values))})
    return one_or_bag(objects, deck, table, x)


def d6_texture(faces: list[Image.Image], cell: int) -> Image.Image:
    """Faces 1 to 6, each made ``cell`` px square, where Tabletop Simulator's d6 takes them
    (``D6_CELLS``); the top row, the cube's edges, in the colour most of the faces' rims have."""
    squares = [face.convert("RGB").resize((cell, cell), Image.Resampling.LANCZOS) for face in faces]
    rims: Counter[tuple[int, ...]] = Counter()
    for square in squares:
        for px in (*((i, 0) for i in range(cell)), *((i, cell - 1) for i in range(cell)),
                   *((0, j) for j in range(cell)), *((cell - 1, j) for j in range(cell))):
            rims[square.getpixel(px)] += 1  # type: ignore[index]
    edge = max(rims.items(), key=lambda item: (item[1], item[0]))[0]
    out = Image.new("RGB", (3 * cell, 3 * cell), edge)
    for square, (col, row, turn) in zip(squares, D6_CELLS):
        out.paste(square.transpose(Image.Transpose.ROTATE_180) if turn else square, (col * cell, row * cell))
    return out
