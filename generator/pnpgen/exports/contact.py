"""A contact sheet: every distinct face of the export, trimmed, labelled ``id × count``, and the
decks the export left out."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pnpgen.exports.faces import PageStyle, UniqueFace, face_images

THUMB = (180, 220)  # largest thumbnail, px
LABEL_PX = 30
COLS = 8
PAD = 10


def thumbnails(style: PageStyle, faces: list[UniqueFace]) -> list[tuple[Image.Image, str]]:
    """Each distinct front labelled ``stem × copies``, then each distinct back of the deck once."""
    plain = replace(style, marks="none", proof=False, cmyk=False)
    W, H = plain.fitted.trim
    b = plain.fitted.format.bleed
    k = min(THUMB[0] / W, THUMB[1] / H)  # px per mm
    pw, ph = plain.page_mm
    items = [(f.front, f"{f.stem} × {f.copies}") for f in faces]
    backs: dict[str, str] = {}  # face key → stem of the first face with it
    for f in faces:
        if f.back is not None:
            backs.setdefault(f.back, f.stem)
    for key, stem in backs.items():
        items.append((key, f"{style.deck.id} back" if len(backs) == 1 else f"{stem} back"))
    images = face_images([key for key, _ in items], plain, (max(1, round(pw * k)), max(1, round(ph * k))))
    box = (round(b * k), round(b * k), round((b + W) * k), round((b + H) * k))
    return [(image.crop(box), label) for image, (_, label) in zip(images, items)]


def contact_sheet(title: str, thumbs: list[tuple[Image.Image, str]], font_file: Path,
                  notes: list[str] | None = None) -> Image.Image:
    """The thumbnails in a grid under ``title``, then ``notes`` (the decks left out), a line each."""
    notes = notes or []
    cols = max(1, min(COLS, len(thumbs)))
    rows = -(-len(thumbs) // cols)
    cw, ch = THUMB[0] + 2 * PAD, THUMB[1] + LABEL_PX + 2 * PAD
    head = 44
    font = ImageFont.truetype(str(font_file), 13)
    note_px = round(font.size * 1.6)
    width = max([cols * cw] + [round(font.getlength(note)) + 2 * PAD for note in notes])
    sheet = Image.new("RGB", (width, head + rows * ch + len(notes) * note_px + (PAD if notes else 0)), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((PAD, 10), title, fill=(0, 0, 0), font=ImageFont.truetype(str(font_file), 22))
    for i, (image, label) in enumerate(thumbs):
        x, y = (i % cols) * cw, head + (i // cols) * ch
        sheet.paste(image, (x + (cw - image.width) // 2, y + PAD + (THUMB[1] - image.height)))
        draw.rectangle((x + (cw - image.width) // 2 - 1, y + PAD + THUMB[1] - image.height - 1,
                        x + (cw + image.width) // 2, y + PAD + THUMB[1]), outline=(180, 180, 180))
        draw.text((x + cw // 2, y + PAD + THUMB[1] + 6), label, fill=(0, 0, 0), font=font, anchor="mt")
    for i, note in enumerate(notes):
        draw.text((PAD, head + rows * ch + i * note_px), note, fill=(160, 0, 0), font=font)
    return sheet
