"""Total ink and the bleed as a press prints them: every page drawn as its CMYK separations by
Ghostscript's ``tiffsep`` (overprint as printed), read inside the BleedBox."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pikepdf
from PIL import Image

from pnpgen.preflight.content import INK_PRESENT, Paint, boxes, by_colour, describe
from pnpgen.preflight.shop import MM, Finding, Shop

PX_MM = 4  # separations drawn at 4 px/mm (101.6 dpi)


def ghostscript() -> str | None:
    """Ghostscript's command on this machine (``gs``; Windows' ``gswin64c``), None without it."""
    for name in ("gs", "gswin64c", "gswin32c"):
        if shutil.which(name):
            return name
    return None


GHOSTSCRIPTS = "GS_"  # GS_OPTIONS, GS_LIB, GS_FONTPATH, GS_DEVICE: what Ghostscript takes from the environment


def without_own_options() -> dict[str, str]:
    """The environment Ghostscript draws in: this one without its own variables (``GS_…``), which
    reach into every command it runs. ``GS_OPTIONS="-sPAPERSIZE=a4 -dFIXEDMEDIA"``, set to print
    everything on A4, drew each token page on A4 and made pnpgen's own tokens' bleed 'bare' (an
    error: 'a shop would turn it away'); an option it cannot read made every file 'not a readable
    PDF' (hostile48). ``GS_LIB`` is where it looks first for its own start-up PostScript
    (``gs_init.ps``, which sets up ``-dSAFER``): a folder outside the workspace named there ran
    whatever PostScript it held, with every file of the machine open to it, on every preflight;
    ``GS_FONTPATH`` had it read the fonts of any folder (hostile49)."""
    return {key: value for key, value in os.environ.items() if not key.startswith(GHOSTSCRIPTS)}


def render_inks(gs: str, path: Path, work: Path) -> list[Path]:
    """Every page as CMYK separations (tiffsep's composite, overprint as printed), 4 px/mm.
    Ghostscript keeps its scratch files in the folder it writes the pages to, not in ``TMPDIR``:
    one that is gone or not writable (a shell's leftover ``TMPDIR=/nonexistent``) made it fail, and
    every file was 'not a readable PDF', an error blamed on the file."""
    work.mkdir(parents=True, exist_ok=True)
    out = Path(tempfile.mkdtemp(prefix=f"{path.stem}-", dir=work))  # (cards.pdf of two presets each its own)
    done = subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-dNoSeparationFiles",
                           f"-r{PX_MM * 25.4}", "-o", str(out / "p%05d.tif"), str(path)],
                          capture_output=True, text=True, errors="replace", check=False,
                          env=without_own_options() | {"TMPDIR": str(out), "TEMP": str(out)})  # (its scratch files: see above)
    said = " ".join(" ".join(done.stdout.split()).split("****")[:2]).strip() or f"exit status {done.returncode}"
    if done.returncode:  # (a page it draws with a complaint, an empty content stream, still counts)
        raise OSError(f"Ghostscript could not draw it ({said[:200]})")
    return sorted(out.glob("p*.tif"))


def crop(arr: np.ndarray, box: tuple[float, ...], media: tuple[float, ...]) -> np.ndarray:
    """The part of a page raster (top-left origin) inside a box in points."""
    h = arr.shape[0]
    px = PX_MM / MM
    x0 = round((box[0] - media[0]) * px)
    x1 = round((box[2] - media[0]) * px)
    y0 = round(h - (box[3] - media[1]) * px)
    y1 = round(h - (box[1] - media[1]) * px)
    return arr[max(0, y0):y1, max(0, x0):x1]


def check_ink_and_bleed(gs: str, name: str, path: Path, pdf: pikepdf.Pdf, shop: Shop, found: list[Finding], work: Path,
                        report: dict, white: list[Paint]) -> None:
    rasters = render_inks(gs, path, work)
    worst = (0.0, 0)
    knocked: dict[tuple, list[int]] = {}
    for i, (tif, page) in enumerate(zip(rasters, pdf.pages), 1):
        b = boxes(page)
        cmyk = np.asarray(Image.open(tif), dtype=np.uint16)
        inside = crop(cmyk, b["BleedBox"], b["MediaBox"])
        for p in (p for p in white if p.page == i):
            x, y = p.box[0], p.box[1]
            box = crop(cmyk, (x, y, x + 2 * p.width, y + 0.7 * p.width), b["MediaBox"]).reshape(-1, 4)
            # the ground is what the letters leave inked: a dense word (「写真」 at 5 pt) knocks
            # out half its box, which a median over every pixel read as paper
            ground = box[(box >= INK_PRESENT * 255).any(axis=1)]
            if 3 * len(ground) >= len(box) > 0 and np.median((ground >= INK_PRESENT * 255).sum(axis=1)) >= 3:
                knocked.setdefault((round(p.width, 1), describe(p.colour)), []).append(i)
        total = inside.sum(axis=2) * (100 / 255)
        peak = float(total.max()) if total.size else 0.0
        if peak > worst[0]:
            worst = (peak, i)
        over = total > shop.ink_limit + 1.0  # 1 % for the 8-bit samples
        area = over.sum() / PX_MM**2
        if area >= 0.5:
            ys, xs = np.nonzero(over)
            y, x = ys[0], xs[0]
            c, m, yy, k = (inside[y, x] * 100 / 255).round(1)
            found.append(Finding(name, i, "ink", "error",
                                 f"{area:.1f} mm² over {shop.ink_limit:g} % total ink (peak {peak:.0f} %, e.g. "
                                 f"CMYK {c}/{m}/{yy}/{k} at {x / PX_MM:.1f}, {y / PX_MM:.1f} mm from the bleed's top left)"))
        # bleed: the outer 1 mm of the bleed inked wherever the trim's edge is
        bleed_mm = [(b["TrimBox"][0] - b["BleedBox"][0]) / MM, (b["TrimBox"][1] - b["BleedBox"][1]) / MM,
                    (b["BleedBox"][2] - b["TrimBox"][2]) / MM, (b["BleedBox"][3] - b["TrimBox"][3]) / MM]
        if min(bleed_mm) < 1.0 or b["TrimBox"] != boxes(pdf.pages[0])["TrimBox"]:
            continue
        inked = inside.sum(axis=2) > 8
        edge = {"top": (inked[1:PX_MM, :], inked[round(bleed_mm[3] * PX_MM) + 2, :]),
                "bottom": (inked[-PX_MM:-1, :], inked[-round(bleed_mm[1] * PX_MM) - 3, :]),
                "left": (inked[:, 1:PX_MM].T, inked[:, round(bleed_mm[0] * PX_MM) + 2]),
                "right": (inked[:, -PX_MM:-1].T, inked[:, -round(bleed_mm[2] * PX_MM) - 3])}
        bare = []
        for side, (outer, trim_line) in edge.items():
            gap = trim_line & ~outer.any(axis=0)
            if gap.sum() / PX_MM >= 5:
                bare.append(f"{side} {gap.sum() / PX_MM:.0f} mm")
        if bare:
            found.append(Finding(name, i, "bleed", "error",
                                 "inked at the trim but bare in the bleed's outer millimetre: " + ", ".join(bare)))
    report["peak_ink"] = {"percent": round(worst[0], 1), "page": worst[1]}
    for (size,), colour, pages in by_colour(knocked):  # (each white of a size in one line)
        found.append(Finding(name, pages[0], "text", "note",
                             f"white text {size} pt ({colour}) knocked out of a ground of 3 or 4 inks, "
                             f"×{len(pages)} on {len(set(pages))} pages"))

