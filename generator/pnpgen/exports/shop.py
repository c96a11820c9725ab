"""A print shop's upload for one deck, by the preset's file layout, and its order.csv rows.

- ``png-faces``: one PNG per distinct front at the format's exact pixel size, one per back (or one
  for the deck when every back is the same and the preset shares backs).
- ``pdf-copies``: one PDF per deck, a page for every printed copy, each back before or after its front.
- ``pdf-faces``: one PDF per deck, each distinct front once followed by its back; copies in order.csv.
"""

from __future__ import annotations

from pnpgen.exports.order import OrderRow
from pnpgen.exports.faces import PageStyle, UniqueFace, face_images, face_pdf, png_bytes
from pnpgen.exports.presets import Preset
from pnpgen.impose.sheets import face_label
from pnpgen.pdf.colour import over_limit


def page_numbers(numbers: list[int]) -> str:
    """``2``, ``1-6``, or every other page as ``1-5 odd`` (the backs of a deck of copies)."""
    first, last = numbers[0], numbers[-1]
    if len(numbers) == 1:
        return str(first)
    steps = {b - a for a, b in zip(numbers, numbers[1:])}
    if steps == {1}:
        return f"{first}-{last}"
    if steps == {2}:
        return f"{first}-{last} {'odd' if first % 2 else 'even'}"
    return ",".join(map(str, numbers))


def deck_files(preset: Preset, style: PageStyle, faces: list[UniqueFace],
               files: dict[str, bytes], warnings: list[str]) -> list[OrderRow]:
    """Add the deck's upload files to ``files``; return its order rows."""
    if preset.files == "png-faces":
        return _png_faces(preset, style, faces, files)
    deck = style.deck
    name = f"{deck.id}.pdf"
    pages: list[str] = []
    labels: list[str | None] = []  # pdf-faces: the piece's name and quantity on each page
    rows = []
    where: list[str] = []  # page → what it shows, for the ink warnings
    for face in faces:
        first = len(pages) + 1
        backs: list[int] = []
        copies = face.copies if preset.files == "pdf-copies" else 1
        for _ in range(copies):
            sides = [("front", face.front)] + ([("back", face.back)] if face.back is not None else [])
            if preset.page_order == "back-front":
                sides.reverse()
            for side, key in sides:
                pages.append(key)
                labels.append(face_label(face.piece.label, face.copies, side) if preset.files == "pdf-faces" else None)
                where.append(f"{face.stem} {side}")
                if side == "back":
                    backs.append(len(pages))
        rows.append(OrderRow(name, page_numbers(list(range(first, len(pages) + 1))),
                             page_numbers(backs) if backs else "", deck.id, face.piece.index, face.piece.label,
                             face.copies))
    pdf = face_pdf(pages, style, f"{deck.name} ({preset.name})", labels)
    if style.cmyk:
        for page, colour, ink in over_limit(pdf, preset.ink_limit):
            warnings.append(f"{name} page {page + 1} ({where[page]}): CMYK "
                            f"{'/'.join(f'{v * 100:g}' for v in colour)} is {ink:g} % total ink, over "
                            f"{preset.name}'s {preset.ink_limit:g} %")
    files[name] = pdf
    return rows


def _png_faces(preset: Preset, style: PageStyle, faces: list[UniqueFace], files: dict[str, bytes]) -> list[OrderRow]:
    deck = style.deck
    backs = [f.back for f in faces if f.back is not None]
    shared = preset.backs == "shared" and len(set(backs)) == 1
    pages, names, rows = [], [], []
    for face in faces:
        quantity = f"-x{face.copies}" if preset.quantity == "name" else ""
        front = f"{face.stem}-front{quantity}.png"
        pages.append(face.front)
        names.append(front)
        back = ""
        if face.back is not None:
            back = f"{deck.id}-back.png" if shared else f"{face.stem}-back{quantity}.png"
            if not shared:
                pages.append(face.back)
                names.append(back)
        rows.append(OrderRow(front, "", back, deck.id, face.piece.index, face.piece.label, face.copies))
    if shared:
        pages.append(backs[0])
        names.append(f"{deck.id}-back.png")
    for name, image in zip(names, face_images(pages, style, style.fitted.pixels(preset.dpi))):
        files[name] = png_bytes(image, preset.dpi)
    return rows
