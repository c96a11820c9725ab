"""The duplex calibration sheet as a file: its place beside the workspace's build folder, never
over a PDF of the designer's, and the paper and language the workspace's games agree on."""

from __future__ import annotations

from pathlib import Path

from pnpgen.data.workspace import Workspace
from pnpgen.data.yamlsrc import load_yaml
from pnpgen.engine.output import atomic_write_bytes
from pnpgen.errors import InputError
from pnpgen.fonts import BUNDLED, DEFAULT_FONTS, register
from pnpgen.impose.calibration import CalibrationOptions, calibration_pages
from pnpgen.impose.plan import PagePlan
from pnpgen.pdf.writer import write_document

CALIBRATION_TITLE = "pnpgen duplex calibration"  # the sheet's /Title, near the start of the file pnpgen writes


def a_calibration_sheet(path: Path) -> bool:
    """Whether ``path`` is a plain file holding a calibration sheet pnpgen wrote (its title in its
    first kilobyte), which a new sheet may replace; a PDF of the designer's was replaced unasked."""
    try:
        if not path.is_file() or path.is_symlink():
            return False
        with path.open("rb") as f:
            return f"/Title ({CALIBRATION_TITLE})".encode() in f.read(1024)
    except OSError:
        return False


def write_calibration_sheet(out: Path, opts: CalibrationOptions) -> None:
    """The two-page sheet written to ``out`` whole (never half a sheet over the last one)."""
    font = register(DEFAULT_FONTS["gothic"], BUNDLED)
    data = write_document(PagePlan(CALIBRATION_TITLE, calibration_pages(opts, font)), {}, font)
    try:
        atomic_write_bytes(out, data)
    except OSError as e:
        raise InputError(f"cannot write: {e.strerror}", path=out, expected="a writable file path for --out") from None


def games_paper_and_language(ws: Workspace) -> tuple[str | None, str | None]:
    """The paper and the language (ja, en) every game of the workspace agrees on (game.yaml's
    ``paper:``, default a4; its default language), each None where they differ or none says: a
    calibration sheet for an English Letter game is not a Japanese A4 one by default. A game.yaml
    that does not read is passed over (calibrate builds no game)."""
    papers, langs = set(), set()
    for slug in ws.slugs():
        try:
            data = load_yaml(ws.game_dir(slug) / "game.yaml").data
        except InputError:
            continue
        if not isinstance(data, dict):
            continue
        papers.add(str(data.get("paper") or "a4").lower())
        languages = data.get("languages")
        first = languages[0] if isinstance(languages, list) and languages else "ja"
        langs.add("ja" if str(data.get("default_language", first)) == "ja" else "en")
    return (papers.pop() if len(papers) == 1 else None), (langs.pop() if len(langs) == 1 else None)
