"""A contact sheet: every distinct face of the export, trimmed, labelled ``title × count`` (the
piece's name, else its id), and the
decks the export left out. A big export's faces go on several sheets of at most ``ROWS`` rows
(``<game>-contact.png``, ``<game>-contact-2.png``, …), each drawn and let go of in turn: one
sheet of 5,000 faces was 168,000 px tall (some image viewers stop at 32,767) and its export held
every thumbnail and the whole sheet at once (3 GB)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pnpgen.exports.faces import PageStyle, UniqueFace, face_images
from pnpgen.messages import msg
from pnpgen.safetext import clipped, shown_name
from pnpgen.shapes import deck_shape, trim_path

THUMB = (180, 220)  # largest thumbnail, px
LABEL_PX = 30
LABEL_CHARS = 40  # a title's characters at most, before it is cut to the thumbnail's width
COLS = 8
ROWS = 50  # rows of a sheet at most: 400 faces, 13,544 px tall
PAD = 10
# thumbnails drawn from one document at most: pdfium's document of a run is held beside the contact sheet
# (69 illustrated cards a run: the 3,000-card export's contact sheets at 533 MB; 23, with exports51's rest: 458)
RUN = 23


@dataclass(frozen=True)
class Thumb:
    """One face to show: its key, drawn as ``style`` draws it, with its label: ``name`` (shortened
    to fit under the thumbnail) then ``tail``, kept whole."""

    style: PageStyle
    key: str
    name: str
    tail: str
    back: bool = False  # a back: a die-cut outline that is not symmetric is mirrored


def thumbnails(style: PageStyle, faces: list[UniqueFace], lang: str) -> list[Thumb]:
    """Each distinct front labelled ``name × copies``, then each distinct back of the deck once,
    named by the deck when the deck has one back (``依頼カード（裏）``), else by the first piece
    that has it, in the game's language ``lang`` as pnpgen's other labels (messages/; a deck's
    id was no name a designer reads on the sheet). A sealed pack (``sealed: true``) shows its back
    alone, named by the deck and counted, ``封筒③ × 8（封入）``: the sheet is a picture for players
    and buyers (a package's cover), and the pack's faces and names are the players' to find
    (what to draw: ``contact_sheets`` draws them, a sheet at a time)."""
    plain = replace(style, marks="none", proof=False, cmyk=False)
    if style.deck.sealed:
        counted: dict[str, int] = {}  # back → the copies it stands for
        for f in faces:
            if f.back is not None:
                counted[f.back] = counted.get(f.back, 0) + f.copies
        name = shown_name(clipped(style.deck.name, LABEL_CHARS))
        return [Thumb(plain, key, name, msg("contact.sealed", lang, count=n), back=True) for key, n in counted.items()]
    items = [Thumb(plain, f.front, _name(f), f" × {f.copies}") for f in faces]
    backs: dict[str, str] = {}  # face key → name of the first face with it
    for f in faces:
        if f.back is not None:
            backs.setdefault(f.back, _name(f))
    deck_name = shown_name(clipped(style.deck.name, LABEL_CHARS))
    for key, name in backs.items():
        items.append(Thumb(plain, key, deck_name if len(backs) == 1 else name, msg("contact.back", lang), back=True))
    return items


def _name(face: UniqueFace) -> str:
    """The piece's title (its name as the change report says it, a name several pieces share with
    the values that tell it apart, ``団子［1］`` (``UniqueFace.name``), each control character shown
    escaped: a right-to-left override in a title turned the label round; a deck's one piece: the
    deck's name), and its copy where its
    copies differ (``市民 c2``); its id (``cards-001``) when it has no name."""
    name = face.name if face.piece.own_name or face.piece.deck_label else ""  # (a deck's one piece, a board: the deck's name)
    if not name:
        return face.stem
    return shown_name(clipped(name, LABEL_CHARS)) + (f" c{face.first_copy}" if face.copies < face.piece.count else "")


def fitted(font: ImageFont.FreeTypeFont, name: str, tail: str, room: float) -> str:
    """``name`` then ``tail`` in at most ``room`` px: the name cut, an ellipsis at its end, to fit."""
    if font.getlength(name + tail) <= room:
        return name + tail
    while name and font.getlength(name + "…" + tail) > room:
        name = name[:-1]
    return name + "…" + tail


def _drawn(thumbs: list[Thumb]) -> Iterator[tuple[Image.Image, str, str]]:
    """The thumbnails rasterised, trimmed, each deck's run of them (at most ``RUN``) in one
    document, one at a time: a sheet's 400 were held at once beside it, and a run of 400
    illustrated cards was one document of their 400 pictures (a 3,000-card export's contact
    sheets took its peak from 545 to 764 MB)."""
    start = 0
    while start < len(thumbs):
        style = thumbs[start].style
        end = start
        while end < len(thumbs) and thumbs[end].style is style and end - start < RUN:
            end += 1
        W, H = style.fitted.trim
        b = style.fitted.format.bleed
        k = min(THUMB[0] / W, THUMB[1] / H)  # px per mm
        pw, ph = style.page_mm
        run = thumbs[start:end]
        images = face_images([t.key for t in run], style, (max(1, round(pw * k)), max(1, round(ph * k))),
                             ["back" if t.back else "front" for t in run])
        box = (round(b * k), round(b * k), round((b + W) * k), round((b + H) * k))
        for image, t in zip(images, run):
            yield _cut_out(image.crop(box), t), t.name, t.tail
        start = end


def _cut_out(image: Image.Image, thumb: Thumb) -> Image.Image:
    """A die-cut piece (round, hex, rounded) as it is cut out: white outside its cut line. Its
    square trim showed a round token's solid back as a square tile (euro designer trial)."""
    spec = deck_shape(thumb.style.deck)
    if not spec.die_cut:
        return image
    points = trim_path(spec).points()
    kx, ky = image.width / spec.w, image.height / spec.h  # the trim as drawn (a --fit export scales it)
    if thumb.back and not spec.mirror_symmetric:
        points = [(spec.w - x, y) for x, y in points]
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).polygon([(x * kx, y * ky) for x, y in points], fill=255)
    out = Image.new("RGB", image.size, (255, 255, 255))
    out.paste(image.convert("RGB"), (0, 0), mask)
    return out


def contact_sheets(title: str, thumbs: list[Thumb], font_file: Path, notes: list[str] | None = None,
                   room: Callable[[tuple[int, int]], None] | None = None) -> Iterator[Image.Image]:
    """The contact sheets, one at a time: ``COLS`` × ``ROWS`` thumbnails each, the notes under
    the last; one sheet keeps ``title``, several are numbered ``title (2/3)``; ``room`` is told
    each sheet's size before it is made (the export waits there for the last one's encoding)."""
    per = COLS * ROWS
    chunks = [thumbs[i:i + per] for i in range(0, len(thumbs), per)] or [[]]
    for n, chunk in enumerate(chunks, 1):
        named = title if len(chunks) == 1 else f"{title} ({n}/{len(chunks)})"
        yield contact_sheet(named, _drawn(chunk), font_file, notes if n == len(chunks) else [], len(chunk), room)


def contact_sheet(title: str, thumbs: Iterable[tuple[Image.Image, str, str]], font_file: Path,
                  notes: list[str] | None = None, count: int | None = None,
                  room: Callable[[tuple[int, int]], None] | None = None) -> Image.Image:
    """The thumbnails in a grid under ``title``, each pasted as it comes (``count`` of them: the
    sheet is sized before the first), then ``notes`` (the decks left out), a line each."""
    notes = notes or []
    if count is None:
        thumbs = list(thumbs)
        count = len(thumbs)
    cols = max(1, min(COLS, count))
    rows = -(-count // cols)
    cw, ch = THUMB[0] + 2 * PAD, THUMB[1] + LABEL_PX + 2 * PAD
    head = 44
    font = ImageFont.truetype(str(font_file), 13)
    note_px = round(font.size * 1.6)
    width = max([cols * cw] + [round(font.getlength(note)) + 2 * PAD for note in notes])
    size = (width, head + rows * ch + len(notes) * note_px + (PAD if notes else 0))
    if room is not None:
        room(size)
    sheet = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((PAD, 10), title, fill=(0, 0, 0), font=ImageFont.truetype(str(font_file), 22))
    for i, (image, name, tail) in enumerate(thumbs):
        x, y = (i % cols) * cw, head + (i // cols) * ch
        sheet.paste(image, (x + (cw - image.width) // 2, y + PAD + (THUMB[1] - image.height)))
        draw.rectangle((x + (cw - image.width) // 2 - 1, y + PAD + THUMB[1] - image.height - 1,
                        x + (cw + image.width) // 2, y + PAD + THUMB[1]), outline=(180, 180, 180))
        draw.text((x + cw // 2, y + PAD + THUMB[1] + 6), fitted(font, name, tail, cw - PAD), fill=(0, 0, 0), font=font,
                  anchor="mt")
    for i, note in enumerate(notes):
        draw.text((PAD, head + rows * ch + i * note_px), note, fill=(160, 0, 0), font=font)
    return sheet
