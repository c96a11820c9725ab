"""Tabletop Simulator: a saved object per deck, with the images it names.

Cards become a ``DeckCustom``: face sheets of at most 10×7 cards and 4096 px a side whose last
slot is the hidden card (the back), one back image (or a back sheet when backs differ), and one
``DeckIDs`` entry per printed copy. Tokens become ``Custom_Token`` (the image cut out along the
piece's outline), tiles and boards ``Custom_Tile`` (rect, hex, circle or rounded) — one object per
copy, in a ``Bag`` when there are several. Images are named by ``file:///`` paths to the output
folder, or under ``--base-url`` when they are hosted.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import quote

from PIL import Image, ImageDraw

from pnpgen.exports.faces import PageStyle, UniqueFace, face_images, png_bytes
from pnpgen.shapes import outline, shape_spec
from pnpgen.units import MM_PER_INCH, mm_to_px

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
NO_BACK = (96, 96, 96)  # a single-sided card's back on the table
TILE_TYPES = {"rect": 0, "hex": 1, "circle": 2, "rounded": 3}  # CustomTile.Type
INCH_PER_UNIT = 1.0  # a TTS unit is about an inch; a custom tile at scale 1 is about 2 units wide


@dataclass(frozen=True)
class Sheet:
    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


def urls(out_dir: Path, base_url: str | None) -> Callable[[str], str]:
    """File name → the address TTS loads it from."""
    if base_url:
        return lambda name: base_url.rstrip("/") + "/" + quote(name)
    return lambda name: (out_dir / name).resolve().as_uri()


def sheet_for(n: int, trim: tuple[float, float], dpi: int) -> Sheet:
    """The smallest grid holding ``n`` faces plus the hidden card, cells at ``dpi`` or smaller so
    the sheet stays within 4096 px a side."""
    slots = n + 1
    cols = min(MAX_COLS, slots)
    rows = math.ceil(slots / cols)
    w, h = trim
    cw = min(round(mm_to_px(w, dpi)), MAX_PX // cols, math.floor((MAX_PX // rows) * w / h))
    ch = min(round(cw * h / w), MAX_PX // rows)
    return Sheet(cols, rows, (cw, ch))


def _guid(*parts) -> str:
    return hashlib.sha1("/".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def saved_object(name: str, obj: dict) -> str:
    """A Saved Objects file (Saves/Saved Objects/*.json) holding one object."""
    doc = {"SaveName": name, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5,
           "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
           "TabStates": {}, "ObjectStates": [obj]}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def deck_object(style: PageStyle, faces: list[UniqueFace], dpi: int, url: Callable[[str], str], x: float,
                files: dict[str, bytes]) -> dict:
    """Add the deck's images to ``files`` and return its TTS object."""
    if style.deck.kind == "card":
        return _cards(style, faces, dpi, url, x, files)
    return _pieces(style, faces, dpi, url, x, files)


def _cards(style: PageStyle, faces: list[UniqueFace], dpi: int, url, x: float, files: dict[str, bytes]) -> dict:
    deck = style.deck
    per_sheet = MAX_COLS * MAX_ROWS - 1
    backs = [f.back for f in faces if f.back is not None]
    unique_back = len(set(backs)) > 1
    custom: dict[str, dict] = {}
    deck_ids: list[int] = []
    cards: list[dict] = []
    for start in range(0, len(faces), per_sheet):
        chunk = faces[start:start + per_sheet]
        number = start // per_sheet + 1
        sheet = sheet_for(len(chunk), style.fitted.trim, dpi)
        fronts = face_images([f.front for f in chunk], style, sheet.cell)
        back_keys = [f.back for f in chunk if f.back is not None] if unique_back else backs[:1]
        back_images = face_images(back_keys, style, sheet.cell) if backs else []
        hidden = back_images[0] if back_images else Image.new("RGB", sheet.cell, NO_BACK)
        face_name = f"{deck.id}-faces-{number}.png"
        files[face_name] = png_bytes(_grid(sheet, fronts, hidden))
        if unique_back:
            back_name = f"{deck.id}-backs-{number}.png"
            files[back_name] = png_bytes(_grid(sheet, back_images, hidden))
        else:
            back_name = f"{deck.id}-back.png"
            files[back_name] = png_bytes(hidden)
        entry = {"FaceURL": url(face_name), "BackURL": url(back_name), "NumWidth": sheet.cols,
                 "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
        custom[str(number)] = entry
        for slot, face in enumerate(chunk):
            card_id = number * 100 + slot
            for copy in range(face.copies):
                deck_ids.append(card_id)
                cards.append({"Name": "Card", "GUID": _guid(deck.id, face.stem, copy), "Nickname": face.piece.label,
                              "Description": "", "CardID": card_id, "CustomDeck": {str(number): entry},
                              "Transform": _transform(face_down=True)})
    scale = style.fitted.trim[0] / 63.5
    if len(cards) == 1:
        return dict(cards[0], Transform=_transform(x, 0.0, scale, face_down=True))
    return {"Name": "DeckCustom", "GUID": _guid(deck.id), "Nickname": deck.name, "Description": "",
            "Transform": _transform(x, 0.0, scale, face_down=True), "DeckIDs": deck_ids, "CustomDeck": custom,
            "ContainedObjects": cards}


def _grid(sheet: Sheet, images: list[Image.Image], hidden: Image.Image) -> Image.Image:
    """Faces row by row from the top-left; the last slot holds the hidden card."""
    out = Image.new("RGB", sheet.size, (255, 255, 255))
    cw, ch = sheet.cell
    for i, image in enumerate(images):
        out.paste(image, ((i % sheet.cols) * cw, (i // sheet.cols) * ch))
    last = sheet.cols * sheet.rows - 1
    out.paste(hidden, ((last % sheet.cols) * cw, (last // sheet.cols) * ch))
    return out


def _pieces(style: PageStyle, faces: list[UniqueFace], dpi: int, url, x: float, files: dict[str, bytes]) -> dict:
    deck = style.deck
    w, h = style.fitted.trim
    px_per_mm = min(mm_to_px(1, dpi), MAX_PX / max(w, h))
    size = (max(1, round(w * px_per_mm)), max(1, round(h * px_per_mm)))
    tile_type = TILE_TYPES.get(deck.shape) if deck.kind != "token" else None
    fronts = face_images([f.front for f in faces], style, size)
    backs = face_images([f.back for f in faces if f.back is not None], style, size) if deck.back else []
    mask = None if tile_type is not None else _mask(style, size)
    scale = max(w, h) / MM_PER_INCH / 2 / INCH_PER_UNIT
    objects = []
    for i, face in enumerate(faces):
        front_name = f"{face.stem}-front.png"
        files[front_name] = png_bytes(_cut(fronts[i], mask))
        back_url = ""
        if backs:
            files[f"{face.stem}-back.png"] = png_bytes(_cut(backs[i], mask))
            back_url = url(f"{face.stem}-back.png")
        image = {"ImageURL": url(front_name), "ImageSecondaryURL": back_url, "ImageScalar": 1.0, "WidthScale": 0.0}
        if tile_type is None:
            name = "Custom_Token"
            image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False,
                                    "Stackable": True}
        else:
            name = "Custom_Tile"
            image["CustomTile"] = {"Type": tile_type, "Thickness": 0.2, "Stackable": True, "Stretch": True}
        for copy in range(face.copies):
            objects.append({"Name": name, "GUID": _guid(deck.id, face.stem, copy), "Nickname": face.piece.label,
                            "Description": "", "Transform": _transform(x, 0.0, scale), "CustomImage": image})
    if len(objects) == 1:
        return objects[0]
    return {"Name": "Bag", "GUID": _guid(deck.id), "Nickname": deck.name, "Description": "",
            "Transform": _transform(x, 0.0), "ContainedObjects": objects}


def _mask(style: PageStyle, size: tuple[int, int]) -> Image.Image:
    """Opaque inside the piece's outline, for tokens cut out of their image."""
    w, h = style.fitted.trim
    spec = shape_spec(style.deck.shape, (w, h), style.deck.options)
    sx, sy = size[0] / w, size[1] / h
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon([(x * sx, y * sy) for x, y in outline(spec).points()], fill=255)
    return mask


def _cut(image: Image.Image, mask: Image.Image | None) -> Image.Image:
    if mask is None:
        return image
    out = image.convert("RGBA")
    out.putalpha(mask)
    return out
