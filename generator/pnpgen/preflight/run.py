"""A preflight of export folders: every PDF and PNG in each checked, the figures and findings
said, the exit status 1 when a finding is one a shop turns a file away for."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

import pikepdf
from PIL import Image

from pnpgen.atomic import put_unless_theirs, read_record
from pnpgen.errors import not_a_file
from pnpgen.messages import counted
from pnpgen.preflight.inks import ghostscript
from pnpgen.preflight.pdfcheck import check_pdf
from pnpgen.preflight.pngcheck import check_png
from pnpgen.preflight.shop import BadInput, Finding, Limits, Shop, Unreadable, load_shop, what_to_do
from pnpgen.scratch import own_folder

NO_GHOSTSCRIPT = ("Ghostscript (gs) is not on this machine: total ink and the bleed are not checked "
                  "(install it: apt install ghostscript, brew install ghostscript, or ghostscript.com)")
NO_PDFTOPPM = "poppler's pdftoppm is not on this machine: --pages-png writes no pages (install poppler-utils)"


def preflight(folder: Path, limits: Limits, work: Path, gs: str | None, pages_png: Path | None = None,
              named: dict[str, tuple[Path, int]] | None = None) -> tuple[Shop, list[Finding], list[dict]]:
    """One export folder's PDFs and PNGs checked against the preset of its name; each page with
    a finding written into ``pages_png`` (``save_png``; ``named``: the pages the run wrote)."""
    shop = load_shop(folder, limits)
    found: list[Finding] = []
    reports: list[dict] = []
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".pdf", ".png"):
            continue
        try:
            what = not_a_file(path)  # a pipe or a device named .pdf: never opened (the open waited for ever)
            if what is not None:
                raise Unreadable(f"{what}, not a file")
            if path.is_symlink() and not path.resolve().is_relative_to(folder.resolve()):  # (was followed and read)
                raise Unreadable("a link leading out of the folder (not followed: copy the file itself in)")
            reports.append(check_pdf(path, folder, shop, found, work, gs) if path.suffix == ".pdf"
                           else check_png(path, folder, shop, found))
        except (Unreadable, pikepdf.PdfError, OSError, Image.DecompressionBombError,
                subprocess.CalledProcessError) as e:
            # a damaged or cut-short file (a copy stopped, a download cut): what a shop turns away first
            name = str(path.relative_to(folder.parent))
            found.append(Finding(name, 0, "file", "error", f"not a readable {path.suffix[1:].upper()}: "
                                 f"{str(e).removeprefix(f'{path}: ')}"))
            reports.append({"file": name, "readable": False})
    found.sort(key=lambda f: (f.file, f.page))  # each file's findings in the order of its pages (the whole file's first)
    rows = order_rows(folder)
    found[:] = [replace(f, piece=piece_on(rows, Path(f.file).name, f.page) if f.page else "", fix=what_to_do(f, shop))
                for f in found]
    if pages_png is not None and shutil.which("pdftoppm"):
        named = {} if named is None else named
        for f in found:
            if f.page:
                save_png(folder.parent / f.file, f.page, pages_png, named)
    return shop, found, reports


def on_pages(text: str, page: int) -> bool:
    """Whether order.csv's pages (``3``, ``1-8``, ``1-7 odd``) hold ``page``; a text that is not
    pages holds none (read as bounds, never spread out: a row's ``1-99999999999`` is two numbers)."""
    first, _, rest = text.strip().partition("-")
    last, _, parity = rest.partition(" ")
    if not first.isdigit() or not (last or first).isdigit():
        return False
    return (int(first) <= page <= int(last or first)
            and (parity not in ("odd", "even") or (page % 2 == 1) == (parity == "odd")))


def order_rows(folder: Path) -> list[dict[str, str]]:
    """The rows of the folder's order.csv that name a file's pages; none for a folder without a
    readable one (an unreadable one is check_order's finding)."""
    try:
        with (folder / "order.csv").open(encoding="utf-8-sig", newline="") as fh:
            return [r for r in csv.DictReader(fh) if r.get("file") and r.get("pages") and r.get("name") is not None]
    except (OSError, UnicodeDecodeError, csv.Error):
        return []


def piece_on(rows: list[dict[str, str]], file: str, page: int) -> str:
    """The piece a page of ``file`` shows, as order.csv names it ('写真' of deck 'cards', front):
    a finding on a page says which card to change. A page of several pieces (a counter sheet)
    names none."""
    names = [f"'{r['name']}' of deck '{r.get('deck') or ''}', {'back' if on_pages(r.get('back') or '', page) else 'front'}"
             for r in rows if r["file"] == file and on_pages(r["pages"], page)]
    return names[0] if len(names) == 1 else ""


def save_png(path: Path, page: int, pngs: Path, named: dict[str, tuple[Path, int]]) -> None:
    """Page ``page`` of ``path`` as a 60 dpi PNG in ``pngs``, named ``<folder>-<file>-p<page>.png``
    (``-2``, ``-3`` … after it when the run wrote that name for another folder's file of that
    name: two games' doujin/cards.pdf); once a run (``named``: name → the file and page it
    shows), and over an earlier run's PNG of that name, put in place whole: a page kept because
    a PNG of its name was there showed an earlier export's page, or the other game's."""
    pngs.mkdir(parents=True, exist_ok=True)
    base = f"{path.parent.name}-{path.stem}-p{page}"
    stem, n = base, 1
    while named.get(stem, (path, page)) != (path, page):
        n += 1
        stem = f"{base}-{n}"
    if stem in named:
        return
    named[stem] = (path, page)
    part = pngs / f".{stem}.part"  # (pdftoppm adds .png)
    made = Path(f"{part}.png")
    try:
        done = subprocess.run(["pdftoppm", "-r", "60", "-png", "-singlefile", "-f", str(page), "-l", str(page),
                               str(path), str(part)], check=False)
        if done.returncode == 0 and made.is_file():
            os.replace(made, pngs / f"{stem}.png")
    finally:  # (a page pdftoppm could not draw, or preflight stopped by a signal as it drew: no part of it left behind)
        made.unlink(missing_ok=True)


REPORT_TAKEN = ("--json {}: already exists and is not a report pnpgen preflight wrote; not overwritten (expected "
                "--json another file, or remove it)")
MAX_REPORT = 64 << 20  # bytes: a report of a thousand findings is some 500 KB


def a_report(path: Path) -> bool:
    """Whether ``path`` holds a report ``--json`` wrote (each folder's shop, files and findings),
    which the next one replaces: never another JSON file of the designer's named by a slip."""
    try:
        held = json.loads(read_record(path, MAX_REPORT))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(held, dict) and all(isinstance(v, dict) and set(v) == {"shop", "files", "findings"}
                                          for v in held.values())


def run(folders: list[Path], limits: Limits, say: Callable[[str], None], note: Callable[[str], None],
        pages_png: Path | None = None, json_out: Path | None = None, quiet: bool = False) -> int:
    """Each folder checked and said (``quiet``: its findings and the summary only); 1 when any
    finding is an error, else 0. A folder that is not an export's, or a preset or figure it cannot
    read: BadInput (one line, exit status 2)."""
    # said before the run, not after it (a traceback once the whole run was done)
    if json_out is not None and json_out.is_dir():
        raise BadInput(f"--json {json_out}: is a folder (expected a file to write)")
    if json_out is not None:  # (written by a rename over it: /dev/full, a pipe, a link were replaced)
        what = "a link" if json_out.is_symlink() else not_a_file(json_out)
        if what is not None:
            raise BadInput(f"--json {json_out}: is {what} (expected a file to write, written over and not through)")
        inside = next((f for f in folders if json_out.resolve().is_relative_to(f.resolve())), None)
        if inside is not None:  # (--json build/g/shop/cards.pdf wrote the report over the PDF it checked)
            raise BadInput(f"--json {json_out}: is inside {inside}, a folder it checks (expected a file elsewhere: "
                           "the export's own files are never written over)")
        if json_out.exists() and not a_report(json_out):  # (--json package.json, tab-completed: replaced)
            raise BadInput(REPORT_TAKEN.format(json_out))
    if pages_png is not None and pages_png.exists() and not pages_png.is_dir():
        raise BadInput(f"--pages-png {pages_png}: is a file (expected a folder to write in)")
    for folder in folders:
        if not folder.is_dir():
            raise BadInput(f"{folder}: not a folder (expected an export folder, build/<game>/<preset>)")
        if not any(p.suffix in (".pdf", ".png") for p in folder.rglob("*")):
            raise BadInput(f"{folder}: no PDF or PNG in it (expected an export folder, build/<game>/<preset>, "
                           "as 'pnpgen export' writes it)")
    gs = ghostscript()
    if gs is None:
        note(NO_GHOSTSCRIPT)
    if pages_png is not None and not shutil.which("pdftoppm"):
        note(NO_PDFTOPPM)
    everything: dict = {}
    named: dict[str, tuple[Path, int]] = {}  # the pages --pages-png wrote this run
    errors = notes = files = 0
    tmp = own_folder("pnpgen-preflight-")  # (marked: one a killed preflight left goes with the next's: scratch.py)
    try:
        for folder in folders:
            shop, found, reports = preflight(folder, limits, Path(tmp), gs, pages_png, named)
            if not quiet:
                if reports and not any(str(r["file"]).endswith(".pdf") for r in reports):
                    # PNGs only (The Game Crafter's, MakePlayingCards'): no ink, line or text figure is read
                    # in an RGB picture, so none is named as checked (trial47)
                    say(f"{folder}: {shop.name}, PNGs: pixels as its formats say, RGB, no see-through pixel, bleed "
                        "(no ink, line or text figure: the shop separates RGB pictures itself)")
                else:
                    say(f"{folder}: {shop.name}, ink ≤ {shop.ink_limit:g} %, lines ≥ {shop.min_line_pt:.3f} pt, "
                        f"pictures ≥ {shop.min_ppi:g} ppi, text ≥ {shop.min_text_pt:g} pt, ruby ≥ {shop.min_ruby_pt:g} pt")
                for r in reports:
                    figures = ", ".join(f"{k} {v}" for k, v in r.items() if k != "file" and v is not None)
                    say(f"  {r['file']}: {figures}")
            for f in found:
                where = (f" page {f.page}" if f.page else "") + (f" ({f.piece})" if f.piece else "")
                say(f"  {f.level}: {f.file}{where}: {f.check}: {f.message}" + (f"; {f.fix}" if f.fix else ""))
            errors += sum(f.level == "error" for f in found)
            notes += sum(f.level == "note" for f in found)
            files += len(reports)
            everything[str(folder)] = {"shop": asdict(shop), "files": reports, "findings": [asdict(f) for f in found]}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if json_out is not None:
        try:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            written = put_unless_theirs(json_out, json.dumps(everything, ensure_ascii=False, indent=1).encode(), a_report)
        except OSError:
            raise BadInput(f"{json_out}: --json cannot be written there (expected a file in a folder this user may "
                           "write)") from None
        if not written:  # (one saved there while preflight ran)
            raise BadInput(REPORT_TAKEN.format(json_out))
    verdict = "a shop would turn it away" if errors else "nothing a shop would turn away"
    skipped = ", total ink and bleed not checked (no Ghostscript)" if gs is None else ""
    say(f"preflight: {counted(files, 'file')}, {counted(errors, 'error')}, {counted(notes, 'note')}{skipped}: {verdict}")
    return 1 if errors else 0


def export_folders(out_root: Path, game: str, preset: str | None, lang: str | None) -> list[Path]:
    """The export folders of ``game`` in ``out_root``: ``<game>/[<lang>/]<preset>``, or with no
    preset every folder there an export wrote (its ``export.json``)."""
    base = out_root / game / (lang or "")
    if preset is not None:
        folder = base / preset
        if not folder.is_dir():
            raise BadInput(f"{folder}: no export of --preset {preset} there (expected 'pnpgen export --game {game} "
                           f"--preset {preset}{f' --lang {lang}' if lang else ''}' first)")
        return [folder]
    folders = sorted(p.parent for p in base.glob("*/export.json"))
    if not folders:
        raise BadInput(f"{base}: no export of {game} there (expected 'pnpgen export --game {game} --preset P' first)")
    return folders
