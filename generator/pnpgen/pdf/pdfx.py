"""PDF/X-1a:2003 (ISO 15930-4), or PDF/X-1a:2001 (ISO 15930-1), from a CMYK PDF of the writer,
through pikepdf's public API.

What the standard asks of the file, and how it is met here:

- PDF 1.4 at most (2001: PDF 1.3), no object or cross-reference streams (a 1.5 feature): saved as
  1.4 (1.3) with object streams off. Nothing the writer puts in a CMYK file is newer than 1.3: its
  graphics states set overprint only (``/OP /op /OPM``, PDF 1.2 and 1.3), never the 1.4 keys of
  transparency, and it writes no optional content, metadata stream or transparency group.
- Colour: DeviceCMYK, DeviceGray and Separation (spot) only. The writer draws CMYK already
  (``--colour cmyk``); a raster image still in DeviceRGB is converted here pixel by pixel with the
  same conversion as the vector colours (pdf/colour.py ``to_cmyk``), so the whole page is one
  conversion.
- No transparency: the face converter refuses SVG opacity, masks, filters and blend modes, and
  art files with alpha are flattened onto their background (data/artfile.py), so no soft
  mask, constant alpha or blend mode reaches a page (tests/exports/preflight.py checks).
- Fonts embedded: the writer embeds subsets of every font it uses.
- Every page has a TrimBox (and a BleedBox inside the MediaBox): the page plans set both.
- The document information: Title, CreationDate and ModDate (the game's date, so the same input
  gives the same bytes), ``GTS_PDFXVersion (PDF/X-1a:2003)`` (2001: ``GTS_PDFXVersion (PDF/X-1:2001)``
  and ``GTS_PDFXConformance (PDF/X-1a:2001)``), ``Trapped /False``; an ``ID``.
- One output intent ``/S /GTS_PDFX`` naming the printing condition by its identifier in the ICC
  characterization data registry (``RegistryName http://www.color.org``). The PDF Reference (1.7,
  §10.10.4, Table 10.51) makes ``DestOutputProfile`` required only when the identifier is not a
  standard production condition; a PDF/X-1a file whose condition is registered (CGATS TR 001,
  JC200103) may name it without embedding a profile — docs/exports.md has the sources.
"""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import signal
import threading
import zlib
from collections import deque
from collections.abc import Iterator, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from pnpgen.pdf.colour import HeavyPicture, InkTally
from pnpgen.pdf.imagestream import ImageStream
from pnpgen.pdf.resave import pdf_bytes

X1A_VERSION = "PDF/X-1a:2003"
# PDF/X-1a:2001 names the part and the conformance level apart (ISO 15930-1): version, conformance, PDF
X1A_2001 = ("PDF/X-1:2001", "PDF/X-1a:2001", "1.3")
ICC_REGISTRY = "http://www.color.org"
# Printing conditions of the ICC characterization data registry a PDF/X-1a file may name without
# embedding a profile: the standard output intents PTC Arbortext lists for PDF/X (support.ptc.com,
# "StandardIntent element", help27765) and FOGRA's later sets; a name not here may still be
# registered, so an export naming another only warns (exports/export.py).
REGISTERED_CONDITIONS = frozenset({
    "CGATS TR 001", "CGATS TR 002", "CGATS TR 003", "CGATS TR 005", "CGATS TR 006",
    *(f"FOGRA{n}" for n in range(27, 62)), "IFRA26", "IFRA30", "EUROSB104", "EUROSB204",
    "JC200103", "JC200104", "JCN2002", "JCW2003",
})


@dataclass(frozen=True)
class OutputCondition:
    """A printing condition as a PDF/X output intent names it."""

    identifier: str  # OutputConditionIdentifier: the registry's name, e.g. CGATS TR 001
    condition: str  # OutputCondition: the same in words
    info: str = ""  # Info: further words (the registry's profile name)
    registry: str = ICC_REGISTRY


def pdf_date(iso_date: str) -> str:
    """``2026-11-30`` → ``D:20261130000000Z`` (a PDF date, UTC midnight); anything else → 2000-01-01."""
    digits = iso_date.replace("-", "")
    if len(digits) != 8 or not digits.isdigit():
        digits = "20000101"
    return f"D:{digits}000000Z"


def pictures_to_cmyk(pdf: bytes, limit: float | None = None,
                     measured: dict[str, HeavyPicture | None] | None = None) -> bytes:
    """The PDF with every DeviceRGB picture redrawn in DeviceCMYK by pdf/colour.py's conversion,
    as its vector colours are: a CMYK shop file holds no RGB, with or without PDF/X. A PDF
    without an RGB picture is returned as it is (the same bytes). With ``limit`` and
    ``measured``: each converted picture measured against the ink limit as it is made, by the
    SHA-256 of its new stream (pdf/colour.py ``pictures_over_limit`` then decodes it not again)."""
    import pikepdf
    from pikepdf import Name

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        rgb = [image for image in _images(doc) if image.get("/ColorSpace") == Name.DeviceRGB]
        if not rgb:
            return pdf
        _to_cmyk(rgb, limit, measured)
        return pdf_bytes(doc)


def kept_cmyk(pdf: bytes, originals: Mapping[str, ImageStream]) -> bytes:
    """The PDF with each RGB picture that is a CMYK picture's RGB (``originals``: by the SHA-256 of
    the RGB pixels, the CMYK picture's own stream) placed as that CMYK picture again, its DCT data
    unchanged in DeviceCMYK: the shop gets the inks it was drawn in, not a conversion there and
    back. A PDF without such a picture is returned as it is."""
    import pikepdf
    from pikepdf import Array, Name

    if not originals:
        return pdf
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        kept = 0
        for image in _images(doc):
            if image.get("/ColorSpace") != Name.DeviceRGB or image.get("/Filter") not in (Name.FlateDecode,
                                                                                           Array([Name.FlateDecode])):
                continue  # (a converted picture is Flate-compressed pixels; a JPEG is one as it is)
            original = originals.get(hashlib.sha256(image.read_bytes()).hexdigest())
            if original is None or (int(image.Width), int(image.Height)) != (original.width, original.height):
                continue
            image.write(original.content, filter=Name.DCTDecode)
            for key in ("/DecodeParms", "/Decode"):
                if key in image:
                    del image[key]
            image.ColorSpace, image.BitsPerComponent = Name.DeviceCMYK, 8
            if original.decode is not None:
                image.Decode = Array(list(original.decode))
            kept += 1
        if not kept:
            return pdf
        return pdf_bytes(doc)


def make_x1a(pdf: bytes, condition: OutputCondition, title: str, date: str, edition: str = "2003") -> bytes:
    """The PDF as PDF/X-1a:2003 (``edition`` 2001: PDF/X-1a:2001) for ``condition``; ``date``
    (YYYY-MM-DD) is its creation date."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        _to_cmyk([image for image in _images(doc) if image.get("/ColorSpace") == Name.DeviceRGB])
        when = pdf_date(date)
        info = doc.trailer.get("/Info")
        if info is None:
            info = doc.make_indirect(Dictionary())
            doc.trailer.Info = info
        info.Title = String(title)
        info.Creator = String("pnpgen")
        info.Producer = String("pnpgen")
        info.CreationDate = String(when)
        info.ModDate = String(when)
        info.GTS_PDFXVersion = String(X1A_2001[0] if edition == "2001" else X1A_VERSION)
        if edition == "2001":
            info.GTS_PDFXConformance = String(X1A_2001[1])
        info.Trapped = Name("/False")
        intent = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX,
                            OutputConditionIdentifier=String(condition.identifier),
                            OutputCondition=String(condition.condition), RegistryName=String(condition.registry),
                            Info=String(condition.info or condition.condition))
        doc.Root.OutputIntents = Array([doc.make_indirect(intent)])
        return pdf_bytes(doc, version=X1A_2001[2] if edition == "2001" else "1.4")


def _images(doc) -> list:
    """Every image XObject of the document (pages and forms, each once)."""
    from pikepdf import Name

    seen: set[tuple[int, int]] = set()
    out = []
    for obj in doc.objects:
        if not hasattr(obj, "get") or obj.get("/Subtype") != Name.Image or not obj.is_indirect:
            continue
        if obj.objgen in seen:
            continue
        seen.add(obj.objgen)
        out.append(obj)
    return out


def _to_cmyk(images: list, limit: float | None = None, measured: dict[str, HeavyPicture | None] | None = None) -> None:
    """8-bit DeviceRGB images redrawn in DeviceCMYK by pdf/colour.py's conversion: each decoded
    here, converted and compressed on every core (``_cmyk_stream``: a thousand cards' pictures
    took three minutes on one), written back in order — the same bytes as one at a time."""
    from pikepdf import Name

    for image, (data, heavy) in zip(images, _cmyk_streams(images, limit), strict=True):
        if measured is not None and limit is not None:
            measured[hashlib.sha256(data).hexdigest()] = heavy
        image.write(data, filter=Name.FlateDecode)
        image.ColorSpace = Name.DeviceCMYK
        image.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode"):
            if key in image:
                del image[key]


def _cmyk_streams(images: list, limit: float | None) -> Iterator[tuple[bytes, HeavyPicture | None]]:
    import pikepdf

    pixels = ((pil.size, pil.tobytes()) for pil in (pikepdf.PdfImage(image).as_pil_image().convert("RGB")
                                                      for image in images))
    jobs = os.cpu_count() or 1
    if jobs < 2 or len(images) < MIN_PARALLEL:
        yield from (_cmyk_stream(*p, limit) for p in pixels)
        return
    # forked only while no thread runs (a thread's lock would stay held in the child)
    forked = threading.active_count() == 1
    context = multiprocessing.get_context("fork" if forked else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=None if forked else quiet_on_ctrl_c) as pool:
        waiting: deque[Future[tuple[bytes, HeavyPicture | None]]] = deque()
        for p in pixels:
            waiting.append(pool.submit(_cmyk_stream, *p, limit))
            if len(waiting) > 2 * jobs:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()


MIN_PARALLEL = 8  # fewer pictures convert sooner than worker processes start


def quiet_on_ctrl_c() -> None:
    """A spawned worker's Ctrl-C: the terminal sends it to every process of the command, and a
    spawned worker (unlike a forked one) keeps none of the command's handlers, so it printed a
    KeyboardInterrupt traceback of its own; it ends without a word (the command says it once)."""
    signal.signal(signal.SIGINT, _end_quietly)


def _end_quietly(signum: int, frame) -> None:
    os._exit(128 + signum)


def _cmyk_stream(size: tuple[int, int], rgb_bytes: bytes, limit: float | None = None,
                 strip: int = 1 << 20) -> tuple[bytes, HeavyPicture | None]:
    """RGB pixels (``size``, 8 bits a sample) as a Flate-compressed DeviceCMYK stream, by
    pdf/colour.py's formula, and, given ``limit``, its heaviest pixel over it (``heaviest_pixels``)
    as the formula gave it, before the pixels over the limit were held to it (``_cmyk_samples``).
    Converted a strip of rows (about ``strip`` pixels) at a time, each step in place: the formula
    works in 8-byte floats, 56 bytes a pixel, so a 7700×7700 picture converted whole took some
    4 GB; a strip takes some 60 MB, and the bytes are the same (deflate's output does not depend
    on how its input is handed to it)."""
    import numpy as np

    width, height = size
    rows = max(1, strip // max(1, width))
    pixels = np.frombuffer(rgb_bytes, dtype=np.uint8).reshape(height, width, 3)
    packer = zlib.compressobj(6)
    out: list[bytes] = []
    tally = InkTally(limit) if limit is not None else None
    for top in range(0, height, rows):
        samples, heavy = _cmyk_samples(pixels[top:top + rows], limit)
        out.append(packer.compress(samples.tobytes()))
        if tally is not None:
            tally.add((samples if heavy is None else heavy).reshape(-1, 4).astype(np.uint16))
    out.append(packer.flush())
    return b"".join(out), tally.heaviest(held=True) if tally is not None else None


def _cmyk_samples(strip, limit: float | None = None):
    """An (h, w, 3) block of 8-bit RGB pixels as (h, w, 4) 8-bit CMYK by pdf/colour.py's formula,
    and None; given ``limit`` (total ink, %), each pixel the formula takes over it held to it, as
    a separation's total ink limit does (Photoshop's Custom CMYK, "Total Ink Limit"): its C, M and Y
    scaled down together, its K kept, so its hue and darkness stay; then also the samples as the
    formula gave them, for the export to say what the art held (None when no pixel was over).
    The formula's own total reaches 300 % (0/100/100/99), so under 300 % nothing is held."""
    import numpy as np

    rgb = strip.astype(np.float64)
    rgb /= 255.0
    k = rgb.max(axis=2)
    np.subtract(1.0, k, out=k)
    black = k >= 1.0 - 1e-9
    d = 1.0 - k
    d[black] = 1.0
    cmyk = np.empty(rgb.shape[:2] + (4,))
    cmy = cmyk[..., :3]
    np.subtract(1.0, rgb, out=cmy)
    cmy -= k[..., None]
    cmy /= d[..., None]
    cmy[black] = 0.0
    cmyk[..., 3] = k
    formula = None
    if limit is not None:
        total = cmy.sum(axis=2) + k
        # 2/255 under the limit, so the four samples rounded to 8 bits never pass it
        target = limit / 100.0 - 2.0 / 255.0
        over = total > limit / 100.0 + 1e-9
        if over.any():
            formula = _samples(cmyk.copy())
            chroma = np.maximum(total[over] - k[over], 1e-9)
            cmy[over] *= (np.maximum(target - k[over], 0.0) / chroma)[:, None]
    return _samples(cmyk), formula


def _samples(cmyk):
    """0–1 floats as 8-bit samples."""
    import numpy as np

    cmyk *= 255.0
    np.rint(cmyk, out=cmyk)
    np.clip(cmyk, 0, 255, out=cmyk)
    return cmyk.astype(np.uint8)
