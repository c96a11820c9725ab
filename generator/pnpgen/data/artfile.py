"""One art file read: measured from its header (``opened``, ``measured``), checked against the
limits a picture for print keeps (pixels, bytes, PNG chunks, SVG elements), and made into the bytes
a print file embeds (``print_bytes``). Where a game's art files are and which one a name means is
``data/art.py``'s (``ArtFolder``); this module reads a file it has found.
"""

from __future__ import annotations

import io
import math
import os
import re
import stat
import struct
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from pnpgen import usercache
from pnpgen.data.picturebytes import PNG_SIGNATURE, checked_whole, picture_hash
from pnpgen.data.pixels import JPEG_QUALITY, opaque_rgb, plain_cmyk, resampled, srgb_as_is, turned_png
from pnpgen.errors import COMPRESSED_SVG, SAVE_UNCOMPRESSED, InputError, Where, compressed_svg, parser_said

if TYPE_CHECKING:  # Pillow is imported where a picture is read: a game without art never loads it
    from PIL import Image

RASTER_FORMATS = ("PNG", "JPEG", "WEBP", "MPO")  # MPO: a phone camera's JPEG with a second image
ORIENTATION = 0x0112  # EXIF tag


@dataclass(frozen=True)
class ArtInfo:
    """One art file: where it is, how the designer names it, and its size."""

    path: Path
    name: str  # as shown to the designer: "art/dragon.png"
    kind: str  # "raster" | "svg"
    size: tuple[float, float]  # pixels upright (raster) or the SVG's width and height in its units


def where_parts(where: Where | Path | str | None) -> dict:
    """An InputError's path, line and column from the place a name was read at."""
    if isinstance(where, Where):
        return {"path": where.path, "line": where.line, "column": where.column}
    return {"path": where}


Measure = tuple[str, tuple[float, float]]  # (kind, size) as ``opened`` finds them
_MEASURED: dict[tuple[str, int, int, int, int, int], Measure | None] = {}  # a file by ``_file``: its measure
MEASURED_LIMIT = 8192  # files' measures kept in a process (then forgotten all at once, as fingerprint's reads)
MEASURED_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")  # what ``measures_of_folder`` measures: raster art
# and of at least these bytes: one's header read costs what hashing 128 KB does, so the process that
# measures them ends about as the inputs' hashing does (many small files a deck may not name, icons,
# would have the build wait for it)
BESIDE_LEAST_BYTES = 128 << 10


def _file(path: str, st: os.stat_result) -> tuple[str, int, int, int, int, int]:
    """A file as its measure is kept: its suffix (what ``opened`` reads it as) and its stamp (device,
    inode, size, modification and change times: a file saved again is another)."""
    return os.path.splitext(path)[1].lower(), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def measured(path: str, st: os.stat_result) -> Measure | None:
    """(kind, size) of the file at ``path`` as it is (its stamp ``st``), None when it cannot be
    measured; once per process while it is unchanged, or none when a process forked for it measured
    it already (``measured_beside``)."""
    file = _file(path, st)
    if file in _MEASURED:
        return _MEASURED[file]
    try:
        info = opened(Path(path), path, None, "image")
        found: Measure | None = (info.kind, info.size)
    except InputError:
        found = None
    _keep(file, found)
    return found


def _keep(file: tuple[str, int, int, int, int, int], found: Measure | None) -> None:
    if len(_MEASURED) >= MEASURED_LIMIT:
        _MEASURED.clear()
    _MEASURED[file] = found


def measures_of_folder(folder: Path, limit: int = MEASURED_LIMIT, least: int | None = None) -> list:
    """Each raster picture's measure under ``folder`` (at most ``limit``, each of at least ``least``
    bytes: default ``BESIDE_LEAST_BYTES``), as plain values: what a
    process forked beside a cold build's hashing hands back (engine/artbeside.py). Links are passed
    by (one may lead out of the workspace: the build measures what it names itself), and so is a
    file that cannot be measured (the build says what is wrong with it, where it is named); so is a
    folder ``art`` that is a link (as the inputs' hashing passes it by: engine/fingerprint.py)."""
    out: list = []
    todo = [] if os.path.islink(folder) else [str(folder)]
    least = BESIDE_LEAST_BYTES if least is None else least
    while todo and len(out) < limit:
        try:
            with os.scandir(todo.pop()) as entries:
                listed = sorted(entries, key=lambda e: e.name)
        except OSError:
            continue
        for entry in listed:
            if entry.is_symlink() or entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                todo.append(entry.path)
            elif entry.name.lower().endswith(MEASURED_SUFFIXES) and len(out) < limit:
                try:
                    st = entry.stat(follow_symlinks=False)
                    found = measured(entry.path, st) if stat.S_ISREG(st.st_mode) and st.st_size >= least else None
                except (OSError, ValueError):
                    continue
                if found is not None:
                    out.append([*_file(entry.path, st), found[0], *found[1]])
    return out


def measured_beside(measures: list) -> int:
    """The measures a forked process found (``measures_of_folder``) kept as this process's own:
    the build opens none of those files again to measure it. How many were kept."""
    kept = 0
    for m in measures:
        if (type(m) is list and len(m) == 9 and type(m[0]) is str and all(type(n) is int for n in m[1:6])
                and m[6] in ("raster", "svg") and all(type(n) is float for n in m[7:])):
            _keep((m[0], m[1], m[2], m[3], m[4], m[5]), (m[6], (m[7], m[8])))
            kept += 1
    return kept


def opened(path: Path, name: str, where, key: str) -> ArtInfo:
    """The file measured from its header (``name`` as messages call it), or an InputError at ``where``."""
    if path.suffix.lower() == ".svg":
        return ArtInfo(path, name, "svg", _svg_size(path, name, where, key))
    from PIL import Image, UnidentifiedImageError

    try:
        crowded = _crowded_png(path)
        if crowded:
            raise InputError(f"{name} holds {crowded}", key=key, expected="the picture saved again by an image editor",
                             **where_parts(where))
        with open_picture(path) as im:
            if im.format not in RASTER_FORMATS:
                raise InputError(f"{name} is a {im.format} image", key=key, expected="PNG, JPEG, WebP or SVG art",
                                 **where_parts(where))
            w, h = im.size
            if w * h > MAX_ART_PIXELS:
                raise _too_big(name, w, h, key, where)
            if orientation(im) in (5, 6, 7, 8):  # turned a quarter: width and height swap
                w, h = h, w
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise InputError(f"cannot read the image {name}: {_not_a_picture(path) or _unreadable(e)}", key=key,
                         expected="a PNG, JPEG or WebP file that an image viewer opens", **where_parts(where)) from None
    return ArtInfo(path, name, "raster", (float(w), float(h)))


def _not_a_picture(path: Path) -> str | None:
    """What a file Pillow cannot read is instead, as designers come by them: empty (a copy or a
    download that did not finish), a web page saved under the picture's name (a shared drive's link
    saved with 名前を付けて保存)."""
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        return None
    if not head:
        return "the file is empty (0 bytes): a copy or a download that did not finish?"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:15].lower().startswith((b"<!doctype html", b"<html")):
        return "the file is a web page (HTML), not a picture: the page was saved, not the picture on it"
    return None


MAX_PNG_CHUNKS = 1000  # chunks besides the pixel data's: libpng's own default limit (PNG_USER_CHUNK_CACHE_MAX)


def _crowded_png(path: Path) -> str | None:
    """What is wrong with a PNG of more chunks besides its pixel data's (IDAT) than any image
    editor writes — each is read one by one, by Pillow and here, for seconds a hundred thousand —,
    else None (not a PNG, or a plain one). Only the chunks' headers are read."""
    with open(path, "rb") as f:
        if f.read(8) != PNG_SIGNATURE:
            return None
        others = 0
        while len(head := f.read(8)) == 8:
            length, chunk = struct.unpack(">I4s", head)
            if chunk == b"IEND":
                break
            if chunk != b"IDAT":
                others += 1
                if others > MAX_PNG_CHUNKS:
                    return f"more than {MAX_PNG_CHUNKS:,} chunks besides its pixels (libpng's own limit)"
            f.seek(length + 4, 1)
    return None


def orientation(im: Image.Image) -> int | None:
    """The EXIF orientation of an opened picture, read from its header: no pixel is decoded
    (Pillow's ``getexif()`` decodes a whole PNG to look for an eXIf chunk after its pixels;
    here the chunks are walked instead)."""
    from PIL import Image

    exif = im.info.get("exif")
    if exif is None and im.format == "PNG":
        exif = _png_late_exif(getattr(im, "fp", None))
    if not exif:
        return None
    found = Image.Exif()
    try:
        found.load(exif)
    except (SyntaxError, ValueError, OSError, struct.error):
        return None  # an unreadable EXIF block: upright, as Pillow's exif_transpose takes it
    value = found.get(ORIENTATION)
    return value if isinstance(value, int) else None


def _png_late_exif(fp) -> bytes | None:
    """An eXIf chunk written after the pixels, found by walking the PNG's chunk headers."""
    if fp is None:
        return None
    try:
        at = fp.tell()
        fp.seek(8)
        try:
            while True:
                head = fp.read(8)
                if len(head) < 8:
                    return None
                length, kind = struct.unpack(">I4s", head)
                if kind == b"eXIf":
                    return fp.read(length)
                if kind == b"IEND":
                    return None
                fp.seek(length + 4, 1)  # the data and its CRC
        finally:
            fp.seek(at)
    except (OSError, ValueError, struct.error):
        return None


# elements in an SVG picture: twice those one face may draw (svg/ MAX_ELEMENTS), room for its
# definitions, gradients' stops and metadata, none of which is drawn
MAX_SVG_ELEMENTS = 200_000


# An SVG past the XML parser's own limits is well formed, but too large to read: a picture of 50 MB
# embedded as a data: address, or a path of millions of points, in one attribute (hostile47: told
# "expected a well-formed SVG file", which it was)
_WITHIN_LIMITS = ("an SVG within the limits pnpgen reads (at most 10,000,000 characters in one attribute or text, "
                  "groups nested at most 256 deep): a picture it embeds saved beside it as a file, and shown by its "
                  "name, the drawing simplified, or the picture saved as a PNG")


def _svg_size(path: Path, name: str, where, key: str) -> tuple[float, float]:
    """The SVG's aspect, from its viewBox or else its width and height. Its elements are counted
    as they are read, none kept: a picture of more than a face may draw is refused here, before a
    tree of them is built (24 MB of <rect/> took 40 s and a gigabyte, within the art file's bytes)."""
    root, n = None, 0
    try:
        for event, element in etree.iterparse(str(path), events=("start", "end"), resolve_entities="internal",
                                              no_network=True, huge_tree=False):
            if event == "start":
                root = element if root is None else root
                n += 1
                if n > MAX_SVG_ELEMENTS:
                    raise InputError(f"the SVG {name} holds more than {MAX_SVG_ELEMENTS:,} elements", key=key,
                                     expected=f"an SVG picture of at most {MAX_SVG_ELEMENTS:,} elements (a face "
                                     "draws at most half as many): simplified, or saved as a PNG", **where_parts(where))
            elif element is not root:  # read: let go of it (the root's own attributes are all that is asked)
                element.clear()
                while element.getprevious() is not None:
                    del element.getparent()[0]
    except etree.XMLSyntaxError as e:
        if compressed_svg(path):
            raise InputError(f"cannot read the SVG {name}: {COMPRESSED_SVG}", key=key, expected=SAVE_UNCOMPRESSED,
                             **where_parts(where)) from None
        said = parser_said(e.msg)
        entity = e.msg.startswith("Entity '") and "not defined" in e.msg  # (as svg/style.py parses it: one naming a file)
        raise InputError(f"cannot read the SVG {name}: {said}", key=key, expected="the entity declared in the "
                         "SVG with its text (one naming a file, <!ENTITY x SYSTEM …>, is not read: its text written out "
                         "instead)" if entity else _WITHIN_LIMITS if "more than pnpgen reads" in said
                         else "a well-formed SVG file", **where_parts(where)) from None
    except OSError as e:
        raise InputError(f"cannot read the SVG {name}: {e.strerror}", key=key, expected="a readable SVG file",
                         **where_parts(where)) from None
    if root is None:
        raise InputError(f"cannot read the SVG {name}: it is empty", key=key, expected="a well-formed SVG file",
                         **where_parts(where))
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        if len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0:
            return float(box[2]), float(box[3])
        w, h = (float(re.sub(r"[a-z%]+$", "", root.get(a, ""))) for a in ("width", "height"))
        if w > 0 and h > 0:
            return w, h
    except ValueError:
        pass
    raise InputError(f"the SVG {name} gives no size", key=key, expected="a viewBox (or width and height) on its <svg>",
                     **where_parts(where))


def upright_cmyk_jpeg(path: Path) -> bool:
    """Whether an art file is a CMYK JPEG needing no turn (its header read): what a CMYK export
    sends as it is."""
    from PIL import UnidentifiedImageError

    try:
        with open_picture(path) as im:
            return im.format == "JPEG" and im.mode == "CMYK" and orientation(im) in (None, 1)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return False


DIM_BELOW = 1 / 64  # a 16-bit picture whose brightest value is under this of full scale prints near black


def pixels_of(path: Path) -> tuple[bool, int | None]:
    """(whether a raster art file has pixels not fully opaque — flattened onto a ground where it is
    placed —, and the brightest value, of 65535, of a 16-bit grey picture whose values
    all lie under ``DIM_BELOW`` of full scale, else None): 8-bit values
    written into 16 bits unscaled, as Pillow's ``convert("I;16")`` writes them, print near black
    (a printer reads the top 8 bits: ``pixels.eight_bit_grey``). Once per file as it is (one
    stat, one reading for both)."""
    try:
        st = path.stat()
    except OSError:
        return False, None
    return _pixels(str(path), st.st_size, st.st_mtime_ns, st.st_ino)


def see_through(path: Path) -> bool:
    """Whether a raster art file has pixels not fully opaque (``pixels_of``'s first answer):
    flattened onto a ground where it is placed."""
    return pixels_of(path)[0]


def may_be_dim(path: Path) -> bool:
    """Whether the file could be a 16-bit grey picture (a PNG of colour type 0, depth 16), the
    only kind ``pixels_of`` finds a brightest value for: told from its header's 26 bytes, so that
    an edited face's pictures are not opened with Pillow for it (docs/speed.md, "imports46")."""
    try:
        with open(path, "rb") as f:
            head = f.read(26)
    except OSError:
        return False
    return len(head) == 26 and head[:8] == PNG_SIGNATURE and head[12:16] == b"IHDR" and head[24] == 16 \
        and head[25] == 0


@lru_cache(maxsize=1024)
def _pixels(path: str, size: int, mtime_ns: int, inode: int) -> tuple[bool, int | None]:
    """(see-through, dim 16-bit brightest): only a picture with an alpha channel, or a 16-bit
    grey one, is decoded; the rest read from the header."""
    from PIL import Image, UnidentifiedImageError

    try:
        with open_picture(path) as im:
            if im.width * im.height > MAX_ART_PIXELS:
                return False, None  # refused where it is placed
            if im.mode in ("I;16", "I;16B", "I;16L", "I"):  # (no alpha: a 16-bit grey PNG is I;16 or I)
                brightest = im.getextrema()[1]
                return False, int(brightest) if brightest < 65535 * DIM_BELOW else None
            if im.format == "JPEG" or (im.mode not in ("RGBA", "LA", "PA", "La", "RGBa", "P")
                                      and "transparency" not in im.info):
                return False, None  # no alpha channel: nothing decoded
            alpha = im.convert("RGBA").getchannel("A")
            return alpha.getextrema()[0] < 255, None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return False, None  # unreadable: placing it says so


MAX_ART_PIXELS = 60_000_000  # one picture (a 650 mm square at 300 dpi): decoded, its RGBA takes 240 MB (a build placing it, 600 MB)
MAX_ART_BYTES = 256_000_000  # one art file: such a picture as a compressed PNG or a JPEG is far smaller


def open_picture(src):
    """``Image.open`` without Pillow's decompression-bomb warning, printed raw on the terminal:
    pnpgen refuses such a picture itself (``MAX_ART_PIXELS``, below Pillow's own limits), in one
    line naming the piece, before a pixel is decoded."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            return Image.open(src)
        except ValueError as e:  # (a chunk read with the header: an OSError, as every caller takes one)
            if PILLOW_CHUNK_BOMB in str(e):
                raise OSError(CHUNK_BOMB) from None
            raise


# Pillow's ValueError for a PNG's zTXt, iTXt or iCCP chunk unpacking past its 1 MB, and pnpgen's words for it
PILLOW_CHUNK_BOMB = "Decompressed data too large"
CHUNK_BOMB = "it holds a text or colour-profile chunk that unpacks to more than a picture holds (a crafted or damaged file)"


def claimed_pixels(e: Exception) -> str:
    """"10,000,000,000 pixels" from Pillow's DecompressionBombError ("Image size (…) exceeds …")."""
    m = re.search(r"\((\d+) pixels\)", str(e))
    return f"{int(m.group(1)):,} pixels" if m else "billions of pixels"


def _too_big(name: str, w: int, h: int, key: str, where) -> InputError:
    """A picture of more pixels than print needs, refused from its header: a 600 kB PNG can
    claim 13000×13000 pixels that take gigabytes decoded (a decompression bomb)."""
    return InputError(f"{name} is {w}×{h} pixels, more than a picture for print needs", key=key,
                      expected=f"at most {MAX_ART_PIXELS:,} pixels: {smaller_size(w, h)} (300 dpi at the printed "
                      "size is enough: a 650 mm square)", **where_parts(where))


def smaller_size(w: int, h: int) -> str:
    """What to save a picture of more than ``MAX_ART_PIXELS`` as: the largest size of its shape
    within them (an 8000×8000 JPEG, as an illustrator hands over, was told only the limit)."""
    scale = math.sqrt(MAX_ART_PIXELS / (w * h))
    nw, nh = max(1, math.floor(w * scale)), max(1, math.floor(h * scale))
    while nw * nh > MAX_ART_PIXELS:  # (a float's rounding: a pixel less)
        nw, nh = nw - (nw >= nh), nh - (nh > nw)
    return f"the picture saved at {nw}×{nh} pixels or smaller in an image editor, its shape kept"


def _unreadable(e: Exception) -> str:
    """Why Pillow could not read an image, without the file object's repr or a temp path."""
    from PIL import Image, UnidentifiedImageError

    if isinstance(e, Image.DecompressionBombError):  # a header claiming billions of pixels
        return f"it claims {claimed_pixels(e)}, more than a picture for print needs (at most {MAX_ART_PIXELS:,})"
    if isinstance(e, ValueError) and PILLOW_CHUNK_BOMB in str(e):  # a chunk after the pixels, read as they are
        return CHUNK_BOMB
    return "not a PNG, JPEG or WebP image" if isinstance(e, UnidentifiedImageError) else str(e)


CONVERTED_KIND = "print-art"  # the machine's cache (usercache.py): a picture's print bytes, by its content
CONVERSION_GENERATION = b"1"  # bumped when the conversion changes
CONVERTED_MOST = 64 * 2**20  # print bytes larger than this are made again, not kept


def print_bytes(raw: bytes, background: str = "ffffff", name: str = "image", where=None,
                size: tuple[int, int] | None = None) -> bytes:
    """A raster image as print-safe bytes: the JPEG itself when PDF can show it as it is, else an
    opaque RGB PNG (rotation, bit depth, palette, CMYK and alpha all settled here). ``size``: the
    pixels (upright) it is resampled to under the resolution ceiling (``pixels.ceiling_size``),
    written as a JPEG when it is one, else as a PNG. A picture converted is converted once on this
    machine: its bytes are kept in the machine's cache by the picture's content, the background,
    the size and Pillow's version (a CMYK photo's conversion took 15 CPU-s at every build); one
    shown as it is, so is that (an empty entry): an edited card's face is converted again without
    its picture opened, or Pillow imported (some 17 ms of a 1,000-card text edit: docs/speed.md,
    "imports46")."""
    import PIL  # (the package, for its version: not its image modules)

    said = f"{background} {size} {PIL.__version__}".encode()
    kept_as = usercache.key(CONVERSION_GENERATION, bytes.fromhex(picture_hash(raw)), said)
    kept = usercache.get(CONVERTED_KIND, kept_as)
    if isinstance(kept, bytes):
        return kept or raw
    from PIL import Image, UnidentifiedImageError

    try:
        im: Image.Image = open_picture(io.BytesIO(raw))
        if im.width * im.height > MAX_ART_PIXELS:  # never decoded: a bomb's pixels take gigabytes
            raise _too_big(name, im.width, im.height, "href", where)
        turned = orientation(im)
        upright = turned in (None, 1)
        as_it_is = (im.format == "JPEG" and (im.mode == "L" or im.mode == "RGB" and srgb_as_is(im))) or (
            im.format == "PNG" and im.mode == "RGB" and "transparency" not in im.info and "icc_profile" not in im.info)
        if size is not None and size[0] * size[1] >= im.width * im.height:
            size = None  # (no smaller: kept as it is)
        if as_it_is and upright and size is None:  # PDF shows it as it is: the file itself, not decoded here
            broken = checked_whole(raw, im.format or "")  # (nor by the PDF's reader, when its data is not whole)
            if broken:
                raise InputError(f"cannot read the image {name}: {broken}", key="href",
                                 expected="the file saved again whole, as an image viewer opens it", **where_parts(where))
            usercache.put(CONVERTED_KIND, kept_as, b"")  # (shown as it is: nothing to keep but that)
            return raw
        # (a plain RGB JPEG turned upright is print-safe as decoded: copied to RGB again, a 60 MP photo
        # turned a quarter took 180 MB more under --max-dpi none; a grey one is written RGB, as before)
        out = converted(im, background, size, turned, as_it_is and (size is not None or im.mode == "RGB"))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError) as e:
        raise InputError(f"cannot read the image {name}: {_unreadable(e)}", key="href",
                         expected="a PNG, JPEG or WebP file that an image viewer opens", **where_parts(where)) from None
    if len(out) <= CONVERTED_MOST:
        usercache.put(CONVERTED_KIND, kept_as, out)
    return out


def converted(im: Image.Image, background: str, size: tuple[int, int] | None, turned: int | None, plain: bool) -> bytes:
    """The picture decoded and made print-safe (``print_bytes``): upright, opaque RGB over
    ``background`` (a plain sRGB or grey JPEG, ``plain``, in its own colours; ``turned``: its EXIF
    orientation), resampled to
    ``size`` when given — a JPEG decoded at a half, a quarter or an eighth by libjpeg first when it
    is at least twice as large, then resampled in its own mode (a CMYK one in its inks) before its
    colours are converted. Written as a JPEG (quality ``JPEG_QUALITY``) when it is one and
    resampled, else as a PNG."""
    from PIL import ImageOps

    jpeg, capped = im.format in ("JPEG", "MPO"), size is not None
    if size is not None and jpeg:
        wanted = (size[1], size[0]) if turned in (5, 6, 7, 8) else size  # (the file's own way round)
        if im.width >= 2 * wanted[0] and im.height >= 2 * wanted[1]:
            im.draft(im.mode, (2 * wanted[0], 2 * wanted[1]))
    im = plain_cmyk(im)
    # one written whole is turned a band at a time as it is written (``turned_png``): the turned
    # picture never held beside the decoded one (a 60 MP photo, --max-dpi none: 240 MB once, not twice)
    banded = turned not in (None, 1) and size is None
    if turned not in (None, 1) and not banded:  # (an upright one is not copied: 48 MB for a 3000×4000 CMYK picture)
        upright = ImageOps.exif_transpose(im)
        im.close()  # its pixels let go of at once, not held beside the turned ones while they are written
        im = upright
    if size is not None and im.mode in ("RGB", "L", "CMYK"):  # resampled before its colours are converted
        im, size = resampled(im, size), None
    if plain:
        im.info = {}
    else:
        r, g, b = (int(background[i : i + 2], 16) for i in (0, 2, 4))
        im = opaque_rgb(im, (r, g, b))
    if size is not None:  # (a palette, 16-bit or see-through picture: made opaque RGB first)
        im = resampled(im, size)
        im.info = {}
    if banded and turned is not None and im.mode in ("RGB", "L"):
        return turned_png(im, turned)
    if banded:  # (not RGB nor grey: turned whole)
        im = ImageOps.exif_transpose(im)
    buf = io.BytesIO()
    if capped and jpeg:
        im.save(buf, "JPEG", quality=JPEG_QUALITY)
    else:
        im.save(buf, "PNG")
    return buf.getvalue()
