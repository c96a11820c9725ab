"""The checks of a PNG a shop receives (png-faces): its pixels against the formats', RGB, opaque,
and the bleed inked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from pnpgen.preflight.shop import Finding, Shop, length_pt

# the most pixels a face read is decoded with (pnpgen's own limit for a picture, data/artfile.py
# MAX_ART_PIXELS: a 650 mm square at 300 dpi)
MAX_PIXELS = 60_000_000


def check_png(path: Path, folder: Path, shop: Shop, found: list[Finding]) -> dict:
    name = str(path.relative_to(folder.parent))
    with Image.open(path) as im:
        size = im.size
        mode = im.mode
        dpi = im.info.get("dpi")
        keyed = "transparency" in im.info  # a palette's see-through entry, or a colour key (PNG's tRNS)
    report = {"file": name, "pixels": list(size), "mode": mode, "dpi": [round(float(v)) for v in dpi] if dpi else None}
    if "contact" in path.name or shop.name == "tabletopsimulator":
        return report
    fits = [f for f in shop.formats.values() if f.get("pixels") and {*f["pixels"]} == {*size}]
    if shop.formats and not fits:
        found.append(Finding(name, 0, "pixels", "error",
                             f"{size[0]}×{size[1]} px is none of the preset's formats' pixels"))
        return report
    if size[0] * size[1] > MAX_PIXELS:  # a preset naming no formats: decoded at 6 bytes a pixel (16-bit RGB)
        found.append(Finding(name, 0, "pixels", "error", f"{size[0]}×{size[1]} px, more than {MAX_PIXELS:,} "
                             "(no shop's face is that large), not decoded"))
        return report
    with Image.open(path) as im:  # (the header above: the pixels decoded only for a face of a size to check)
        rgb = np.asarray(im.convert("RGB"), dtype=np.int16)
    if mode not in ("RGB", "RGBA", "P", "L"):
        found.append(Finding(name, 0, "pixels", "error", f"mode {mode}, the shop asks RGB"))
    if mode in ("RGBA", "LA", "PA") or keyed:  # (an alpha channel, or a palette or colour key: see-through all the same)
        with Image.open(path) as im:
            if np.asarray(im.convert("RGBA"))[..., 3].min() < 255:
                found.append(Finding(name, 0, "pixels", "error", "see-through pixels"))
    if not fits:  # a preset of one's own naming no formats: no pixel size or bleed to hold it to
        return report
    fmt = fits[0]
    bleed_px = round(length_pt(fmt.get("bleed", 0), "mm") / 72 * shop.min_ppi)
    if bleed_px >= 4:
        inked = np.any(rgb < 245, axis=2)
        edges = {"top": (inked[:bleed_px // 3], inked[bleed_px + 2]), "bottom": (inked[-bleed_px // 3:], inked[-bleed_px - 3]),
                 "left": (inked[:, :bleed_px // 3].T, inked[:, bleed_px + 2]),
                 "right": (inked[:, -bleed_px // 3:].T, inked[:, -bleed_px - 3])}
        px_mm = shop.min_ppi / 25.4
        bare = [f"{side} {(line & ~outer.any(axis=0)).sum() / px_mm:.0f} mm" for side, (outer, line) in edges.items()
                if (line & ~outer.any(axis=0)).sum() / px_mm >= 5]
        if bare:
            found.append(Finding(name, 0, "bleed", "error",
                                 "inked at the trim but bare in the bleed's outer third: " + ", ".join(bare)))
    return report

